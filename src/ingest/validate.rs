//! Upstream data is input, not truth: one check of everything the adapters read, before
//! anything is resolved or derived from it. An entry with a value out of range (a price
//! that is negative, not finite or absurdly high, a date outside the plausible range, an
//! overlong name, a list too long) is dropped with its reason, so it never reaches the
//! catalogue; a sync holds a source when too many of its entries are dropped. The bounds
//! are documented in docs/security.md.

use super::sources::Collected;
use super::{ModelRecord, Prices, Report};

/// Highest price accepted, in USD per unit (per million tokens for token prices). The
/// dearest real price in any source is a few hundred dollars per million tokens.
pub const MAX_PRICE: f64 = 100_000.0;
/// Highest price per million tokens accepted in a token-price field. The dearest list price
/// of any source is $600 (o1-pro's output); a value above this is a price per thousand
/// tokens written in a per-token field (LiteLLM's `azure_ai/jais-30b-chat`: 3,200 and 9,710)
/// (docs/data.md, "Units").
pub const MAX_TOKEN_PRICE: f64 = 1_000.0;
/// Highest input price per million tokens accepted for an embedding model (an entry whose
/// source names the task). The dearest embedding of any source is $0.80 (Titan Multimodal
/// Embeddings); $100 is a per-thousand price in a per-token field (LiteLLM's Cohere
/// `embed-multilingual-light-v3.0`, $0.10 elsewhere) (docs/data.md, "Units").
pub const MAX_EMBEDDING_PRICE: f64 = 10.0;
/// Longest id, name, family, creator or benchmark name, in bytes.
pub const MAX_TEXT: usize = 512;
/// Most tokens a context window or an output limit may state.
pub const MAX_TOKENS: i64 = 1_000_000_000;
/// Most items in one list of an entry (modalities, tiers, variants, unit prices).
pub const MAX_LIST: usize = 256;
/// Largest absolute score (benchmarks are percentages, ratings are Elo-like).
pub const MAX_SCORE: f64 = 1_000_000.0;
/// Dates must fall within these years.
pub const YEARS: std::ops::RangeInclusive<i32> = 1990..=2100;

/// One dropped entry: its source, what it was and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    pub source: &'static str,
    pub entry: String,
    pub reason: String,
}

impl std::fmt::Display for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.source, self.entry, self.reason)
    }
}

fn price(what: &str, p: Option<f64>) -> Result<(), String> {
    match p {
        Some(v) if !v.is_finite() => Err(format!("{what} is not a finite number")),
        Some(v) if v < 0.0 => Err(format!("{what} is negative ({v})")),
        Some(v) if v > MAX_PRICE => Err(format!("{what} is over {MAX_PRICE} ({v})")),
        _ => Ok(()),
    }
}

fn token_price(what: &str, p: Option<f64>) -> Result<(), String> {
    price(what, p)?;
    match p {
        Some(v) if v > MAX_TOKEN_PRICE => Err(format!(
            "{what} is over {MAX_TOKEN_PRICE} per million tokens ({v})"
        )),
        _ => Ok(()),
    }
}

fn text(what: &str, t: Option<&str>) -> Result<(), String> {
    match t {
        Some(t) if t.len() > MAX_TEXT => Err(format!("{what} is longer than {MAX_TEXT} bytes")),
        _ => Ok(()),
    }
}

/// A date (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or an RFC 3339 time) whose year is in [`YEARS`].
fn date(what: &str, d: Option<&str>) -> Result<(), String> {
    let Some(d) = d else { return Ok(()) };
    let year = d
        .get(..4)
        .filter(|_| d.len() <= 40)
        .and_then(|y| y.parse::<i32>().ok());
    match year {
        Some(y) if YEARS.contains(&y) => Ok(()),
        _ => Err(format!(
            "{what} {:?} is not a date within {YEARS:?}",
            clip(d)
        )),
    }
}

fn tokens(what: &str, n: Option<i64>) -> Result<(), String> {
    match n {
        Some(n) if !(0..=MAX_TOKENS).contains(&n) => {
            Err(format!("{what} {n} is outside 0..={MAX_TOKENS}"))
        }
        _ => Ok(()),
    }
}

fn list(what: &str, n: usize) -> Result<(), String> {
    if n > MAX_LIST {
        return Err(format!("{what} has more than {MAX_LIST} items"));
    }
    Ok(())
}

/// At most 80 characters of a value, for a reason.
fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

/// Why a set of prices cannot be used, if it cannot.
pub fn prices(p: &Prices) -> Result<(), String> {
    token_price("input price", p.input)?;
    token_price("output price", p.output)?;
    token_price("cache-read price", p.cache_read)?;
    token_price("cache-write price", p.cache_write)?;
    list("tiers", p.tiers.len())?;
    list("unit prices", p.unit_prices.len())?;
    list("variants", p.variants.len())?;
    for t in p
        .tiers
        .iter()
        .chain(p.variants.iter().flat_map(|v| &v.tiers))
    {
        token_price("a tier's input price", t.input_price)?;
        token_price("a tier's output price", t.output_price)?;
        token_price("a tier's cache-read price", t.cache_read_price)?;
        token_price("a tier's cache-write price", t.cache_write_price)?;
        tokens("a tier's threshold", Some(t.from_tokens))?;
    }
    for u in &p.unit_prices {
        price(&format!("the {} price", clip(&u.item)), Some(u.price))?;
        text("a unit price's item", Some(&u.item))?;
        text("a unit price's unit", Some(&u.unit))?;
    }
    for v in &p.variants {
        text("a variant's mode", Some(&v.mode))?;
        token_price("a variant's input price", v.input_price)?;
        token_price("a variant's output price", v.output_price)?;
        token_price("a variant's cache-read price", v.cache_read_price)?;
        token_price("a variant's cache-write price", v.cache_write_price)?;
    }
    Ok(())
}

/// Why `r` cannot be used, if it cannot.
pub fn record(r: &ModelRecord) -> Result<(), String> {
    if r.raw_id.is_empty() {
        return Err("the id is empty".into());
    }
    text("the id", Some(&r.raw_id))?;
    text("the provider", r.provider.as_deref())?;
    text("the creator", r.creator.as_deref())?;
    text("the name", r.name.as_deref())?;
    text("the family", r.family.as_deref())?;
    date("the release date", r.release_date.as_deref())?;
    date("the knowledge cutoff", r.knowledge.as_deref())?;
    date("the last update", r.last_updated.as_deref())?;
    date("the price date", r.as_of.as_deref())?;
    tokens("the context window", r.context)?;
    tokens("the output limit", r.max_output)?;
    for m in [&r.input_modalities, &r.output_modalities]
        .into_iter()
        .flatten()
    {
        list("the modalities", m.len())?;
        for x in m {
            text("a modality", Some(x))?;
        }
    }
    for flags in [&r.input_flags, &r.output_flags] {
        list("the modality flags", flags.len())?;
        for (x, _) in flags {
            text("a modality", Some(x))?;
        }
    }
    if let Some(p) = &r.prices {
        prices(p)?;
        if let Some(v) = p.input.filter(|v| *v > MAX_EMBEDDING_PRICE)
            && r.task == Some(entity::vocab::Task::Embedding)
        {
            return Err(format!(
                "an embedding's input price is over {MAX_EMBEDDING_PRICE} per million tokens ({v})"
            ));
        }
    }
    Ok(())
}

/// Upstream data is input, not truth: an entry with a value out of range never reaches
/// the catalogue (docs/security.md). Drops them from `found`, logs and reports each.
pub fn drop_invalid(found: &mut Collected, report: &mut Report) {
    for d in collected(found) {
        tracing::warn!(dropped = %d, "an upstream entry was dropped");
        report.dropped.push(d.to_string());
    }
}

/// Drops from `found` every entry with a value out of range; returns what was dropped.
pub fn collected(found: &mut Collected) -> Vec<Dropped> {
    let mut dropped = Vec::new();
    let mut keep = |source: &'static str, entry: &str, check: Result<(), String>| match check {
        Ok(()) => true,
        Err(reason) => {
            dropped.push(Dropped {
                source,
                entry: clip(entry),
                reason,
            });
            false
        }
    };
    found
        .records
        .retain(|r| keep(r.source, &r.raw_id, record(r)));
    found
        .described
        .retain(|r| keep(r.source, &r.raw_id, record(r)));
    found.offers.retain(|o| {
        let check = record(&o.record)
            .and_then(|()| text("the region", o.region.as_deref()))
            .and_then(|()| date("the deprecation date", o.deprecation_date.as_deref()));
        keep(o.record.source, &o.record.raw_id, check)
    });
    found.witnesses.retain(|w| {
        let check = text("the id", Some(&w.raw_id))
            .and_then(|()| text("the provider", w.provider.as_deref()))
            .and_then(|()| text("the mode", w.mode.as_deref()))
            .and_then(|()| date("the deprecation date", w.deprecation_date.as_deref()));
        keep(super::sources::litellm::SOURCE, &w.raw_id, check)
    });
    found.scores.retain(|s| {
        let check = if !s.score.is_finite() || s.score.abs() > MAX_SCORE {
            Err(format!("the score {} is out of range", s.score))
        } else {
            text("the model", Some(&s.model))
                .and_then(|()| text("the benchmark", Some(&s.benchmark)))
                .and_then(|()| text("the configuration", s.config.as_deref()))
                .and_then(|()| date("the score date", s.as_of.as_deref()))
        };
        keep(s.source, &s.model, check)
    });
    found.agents.retain(|a| {
        let check = if !a.score.is_finite() || a.score.abs() > MAX_SCORE {
            Err(format!("the score {} is out of range", a.score))
        } else {
            Ok(())
        };
        let check = check
            .and_then(|()| text("the agent", Some(&a.name)))
            .and_then(|()| list("the models", a.models.len()))
            .and_then(|()| date("the date", a.as_of.as_deref()));
        keep(a.source, &a.name, check)
    });
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absurd_values_are_dropped_with_a_reason() {
        let priced = |input: f64, output: f64| ModelRecord {
            source: "genai-prices",
            raw_id: "gpt-4o".into(),
            prices: Some(Prices {
                input: Some(input),
                output: Some(output),
                ..Prices::default()
            }),
            ..ModelRecord::default()
        };
        assert_eq!(record(&priced(2.5, 10.0)), Ok(()));
        assert!(
            record(&priced(-5.0, 10.0))
                .unwrap_err()
                .contains("negative")
        );
        assert!(record(&priced(2.5, 1e308)).unwrap_err().contains("over"));
        assert!(
            record(&priced(f64::NAN, 1.0))
                .unwrap_err()
                .contains("finite")
        );
        // An embedding at $100 per million tokens is a per-thousand price; a chat model
        // at $100 is a price.
        let embedding = |input: f64| ModelRecord {
            task: Some(entity::vocab::Task::Embedding),
            ..priced(input, 0.0)
        };
        assert!(record(&embedding(100.0)).unwrap_err().contains("embedding"));
        assert_eq!(record(&embedding(0.8)), Ok(()));
        assert_eq!(record(&priced(100.0, 0.0)), Ok(()));
        let dated = ModelRecord {
            raw_id: "x".into(),
            release_date: Some("9999-01-01".into()),
            ..ModelRecord::default()
        };
        assert!(record(&dated).is_err());
        let named = ModelRecord {
            raw_id: "x".repeat(MAX_TEXT + 1),
            ..ModelRecord::default()
        };
        assert!(record(&named).is_err());
        let mut found = Collected {
            records: vec![priced(2.5, 10.0), priced(-5.0, 1e308)],
            ..Collected::default()
        };
        let dropped = collected(&mut found);
        assert_eq!(found.records.len(), 1);
        assert_eq!(dropped.len(), 1);
        assert!(
            dropped[0]
                .to_string()
                .starts_with("genai-prices: gpt-4o: input price is negative")
        );
    }
}
