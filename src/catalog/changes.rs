//! What changed, newest first: price changes (from the price history, and those a source
//! has announced for a later day, dated that day), new models (release dates) and new
//! headline benchmark results (score dates). Built once per catalogue, so a
//! feed reader polling it costs a filtered walk, and every entry has a stable id.

use super::HashMap;

use entity::vocab::Availability;
use entity::{model, offering, price_history, score};

use super::Row;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeKind {
    Price,
    Model,
    Score,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Price => "price",
            Self::Model => "model",
            Self::Score => "score",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Change {
    /// Stable across imports while the fact it reports stands (`price:o3-2025-04-16:openai:2025-06-10`).
    pub id: String,
    pub kind: ChangeKind,
    /// `YYYY-MM-DD`.
    pub date: String,
    pub model: Row<model::Model>,
    pub provider: Option<String>,
    pub benchmark: Option<String>,
    /// One line a person can read.
    pub summary: String,
    /// The price period that began (price changes).
    pub period: Option<Row<price_history::Model>>,
    /// The period it replaced (price changes).
    pub previous: Option<Row<price_history::Model>>,
    /// The result (score changes).
    pub score: Option<Row<score::Model>>,
}

fn price_text(p: &price_history::Model) -> String {
    let f = |x: Option<f64>| x.map_or_else(|| "unknown".to_string(), |v| v.to_string());
    format!("{}/{}", f(p.input_price), f(p.output_price))
}

pub struct Inputs<'a> {
    pub models: &'a [Row<model::Model>],
    pub model_index: &'a HashMap<String, usize>,
    pub history: &'a [Row<price_history::Model>],
    /// Offerings, for the price changes their sources announce.
    pub offerings: &'a [Row<offering::Model>],
    pub scores: &'a [Row<score::Model>],
    /// Slug → display name, for providers and benchmarks.
    pub provider_names: &'a dyn Fn(&str) -> String,
    pub benchmark_names: &'a dyn Fn(&str) -> String,
}

/// Every change, newest first (then price, model, score; then id).
pub fn build(i: &Inputs) -> Vec<Change> {
    let model = |slug: &str| i.model_index.get(slug).map(|&k| i.models[k].clone());
    let mut out = Vec::new();

    let mut pairs: HashMap<(&str, &str), Vec<&Row<price_history::Model>>> = HashMap::default();
    for h in i.history {
        pairs
            .entry((h.model_slug.as_str(), h.provider_slug.as_str()))
            .or_default()
            .push(h);
    }
    for ((m, provider), mut periods) in pairs {
        let Some(m) = model(m) else { continue };
        periods.sort_by(|a, b| a.effective_from.cmp(&b.effective_from));
        for w in periods.windows(2) {
            let (a, b) = (w[0], w[1]);
            if a.effective_to.as_deref() != Some(b.effective_from.as_str())
                || (a.input_price, a.output_price) == (b.input_price, b.output_price)
            {
                continue;
            }
            out.push(Change {
                id: format!("price:{}:{provider}:{}", m.slug, b.effective_from),
                kind: ChangeKind::Price,
                date: b.effective_from.clone(),
                summary: format!(
                    "{}: {} from {} to {} USD per 1M tokens (input/output)",
                    (i.provider_names)(provider),
                    m.name,
                    price_text(a),
                    price_text(b)
                ),
                model: m.clone(),
                provider: Some(provider.to_string()),
                benchmark: None,
                period: Some(b.clone()),
                previous: Some(a.clone()),
                score: None,
            });
        }
    }

    // Announced changes: the offering's price until then, the announced one from then.
    for o in i.offerings {
        let (Some(next), Some(m)) = (
            offering::Upcoming::decode(o.upcoming.as_deref()),
            model(&o.model_slug),
        ) else {
            continue;
        };
        let period = |from: &str, to: Option<&str>, p: [Option<f64>; 4]| price_history::Model {
            id: 0,
            model_slug: o.model_slug.clone(),
            provider_slug: o.provider_slug.clone(),
            input_price: p[0],
            output_price: p[1],
            cache_read_price: p[2],
            cache_write_price: p[3],
            effective_from: from.to_string(),
            effective_to: to.map(str::to_string),
            observed_after: None,
            source: o.source.clone(),
        };
        let before = period(
            o.as_of.as_deref().unwrap_or_default(),
            Some(&next.effective_from),
            [
                o.input_price,
                o.output_price,
                o.cache_read_price,
                o.cache_write_price,
            ],
        );
        let after = period(
            &next.effective_from,
            None,
            [
                next.input_price,
                next.output_price,
                next.cache_read_price,
                next.cache_write_price,
            ],
        );
        out.push(Change {
            id: format!(
                "price:{}:{}:{}",
                m.slug, o.provider_slug, next.effective_from
            ),
            kind: ChangeKind::Price,
            date: next.effective_from.clone(),
            summary: format!(
                "{}: {} from {} to {} USD per 1M tokens (input/output), announced",
                (i.provider_names)(&o.provider_slug),
                m.name,
                price_text(&before),
                price_text(&after)
            ),
            model: m.clone(),
            provider: Some(o.provider_slug.clone()),
            benchmark: None,
            period: Some(std::sync::Arc::new(after)),
            previous: Some(std::sync::Arc::new(before)),
            score: None,
        });
    }

    for m in i.models.iter().filter(|m| {
        matches!(
            m.availability,
            Availability::Api | Availability::OpenWeights
        )
    }) {
        let Some(date) = super::models::dated(m).map(str::to_string) else {
            continue;
        };
        // A model no source dates is announced on the day it first appeared in one.
        let verb = if m.release_date.is_some() {
            "released"
        } else {
            "first listed"
        };
        out.push(Change {
            id: format!("model:{}", m.slug),
            kind: ChangeKind::Model,
            date,
            summary: match &m.creator_slug {
                Some(c) if m.release_date.is_some() => {
                    format!("{} {verb} by {}", m.name, (i.provider_names)(c))
                }
                Some(c) => format!("{} ({}) {verb}", m.name, (i.provider_names)(c)),
                None => format!("{} {verb}", m.name),
            },
            model: m.clone(),
            provider: m.creator_slug.clone(),
            benchmark: None,
            period: None,
            previous: None,
            score: None,
        });
    }

    for s in i.scores.iter().filter(|s| s.is_headline) {
        let (Some(date), Some(m)) = (s.as_of.clone(), model(&s.model_slug)) else {
            continue;
        };
        out.push(Change {
            id: format!("score:{}:{}:{date}", s.model_slug, s.benchmark_slug),
            kind: ChangeKind::Score,
            date,
            summary: format!(
                "{} scored {} on {}",
                m.name,
                s.score,
                (i.benchmark_names)(&s.benchmark_slug)
            ),
            model: m,
            provider: None,
            benchmark: Some(s.benchmark_slug.clone()),
            period: None,
            previous: None,
            score: Some(s.clone()),
        });
    }
    out.sort_by(|a, b| {
        b.date
            .cmp(&a.date)
            .then(a.kind.cmp(&b.kind))
            .then_with(|| a.id.cmp(&b.id))
    });
    out
}
