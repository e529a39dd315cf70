//! Turns resolved records into the snapshot's tables: models (each field voted from its
//! records by [`super::merge`]), providers, aliases, the sources table, and the derived
//! figures (list and cheapest prices through [`prices`], average score, counts), then sorts
//! everything so the output is reproducible.

use std::collections::{BTreeMap, BTreeSet};

use entity::vocab::{Availability, Category, ProviderKind, Task};
use entity::{model, model_alias, provider};

use super::{Resolved, curation, identities, names, prices, review, sources};
use crate::snapshot::Snapshot;

/// What a source says about a provider.
#[derive(Debug, Clone)]
pub struct ProviderMeta {
    pub name: String,
    pub website: Option<String>,
}

/// Sources spell some providers differently (`x-ai`/`xai`, `aws`/`amazon-bedrock`); one slug each.
pub fn canonical_provider(id: &str) -> String {
    let id = id.trim().to_lowercase();
    let mapped = match id.as_str() {
        "x-ai" => "xai",
        "together" => "togetherai",
        "fireworks" => "fireworks-ai",
        "novita" => "novita-ai",
        "aws" => "amazon-bedrock",
        // models.dev files Vertex's Claude apart; one cloud sells it (docs/methodology.md,
        // LiteLLM's providers table).
        "google-vertex-anthropic" => "google-vertex",
        other => other,
    };
    names::slugify(mapped)
}

/// `image` when the output includes images; `multimodal` when the input takes, or the
/// output makes, audio or video (or the input images); otherwise `llm` (`docs/rest.md`).
pub fn category(input: &[String], output: &[String]) -> Category {
    if output.iter().any(|m| m == "image") {
        Category::Image
    } else if input
        .iter()
        .chain(output)
        .any(|m| matches!(m.as_str(), "image" | "audio" | "video"))
    {
        Category::Multimodal
    } else {
        Category::Llm
    }
}

/// The reviewed table of open-weight families (`data/open_families.csv`): a model whose
/// slug starts with a prefix (and, where the row says so, names a parameter count) has
/// published weights; one that names no count but a word of the row's API-only tiers
/// (Qwen's `max`, `plus`, `turbo`, `flash`) has none, nor has any model of a row whose
/// API-only tiers are `*` (a line whose maker publishes no weights: Cohere's Embed).
const OPEN_FAMILIES_CSV: &str = include_str!("../../data/open_families.csv");

/// One row of the table.
struct OpenFamily {
    prefix: String,
    needs_size: bool,
    api_only: Vec<String>,
}

fn open_families() -> &'static [OpenFamily] {
    static ROWS: std::sync::OnceLock<Vec<OpenFamily>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        OPEN_FAMILIES_CSV
            .lines()
            .skip(1)
            .filter_map(|line| {
                let mut cols = line.split(',');
                let prefix = cols.next()?.trim();
                let needs_size = cols.next()?.trim() == "yes";
                let api_only = cols
                    .next()?
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                (!prefix.is_empty()).then(|| OpenFamily {
                    prefix: prefix.to_string(),
                    needs_size,
                    api_only,
                })
            })
            .collect()
    })
}

/// Whether a slug names a parameter count (`72b`, `1.5b`, `a22b`, `8x7b`).
pub fn names_a_size(slug: &str) -> bool {
    slug.split('-').any(|w| {
        let n = w.trim_start_matches('a');
        let n = n.rsplit('x').next().unwrap_or(n);
        n.strip_suffix('b').is_some_and(|d| {
            !d.is_empty()
                && d.starts_with(|c: char| c.is_ascii_digit())
                && d.chars().all(|c| c.is_ascii_digit() || c == '.')
        })
    })
}

/// Whether the slug's words say the model sees: `vision`, or a word ending in `vl` or `vlm`
/// before its version (`gpt-4-vision-preview`, `qwen2.5-vl-3b-instruct`, `internvl3-14b`,
/// `falcon-11b-vlm`).
pub fn names_vision(slug: &str) -> bool {
    slug.split('-').any(|w| {
        let stem = w.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        w == "vision" || stem.ends_with("vl") || stem.ends_with("vlm")
    })
}

/// Whether the slug's words say the model reasons: `thinking`, `thinker`, `think`,
/// `reasoning` or `reasoner`, not after `non` (`grok-4-fast-non-reasoning`).
pub fn names_reasoning(slug: &str) -> bool {
    let words: Vec<&str> = slug.split('-').collect();
    words.iter().enumerate().any(|(i, w)| {
        matches!(
            *w,
            "thinking" | "thinker" | "think" | "reasoning" | "reasoner"
        ) && (i == 0 || words[i - 1] != "non")
    })
}

/// The reviewed table of reasoning lines (`data/reasoning_lines.csv`): a model whose slug is
/// a row's prefix, or starts with it and a `-` or `.`, reasons (GLM-Z1, ERNIE X1, QwQ,
/// Magistral, the DeepSeek-R1 line), whatever a host's `reasoning: false` says.
const REASONING_LINES_CSV: &str = include_str!("../../data/reasoning_lines.csv");

/// Whether the slug is of a line the reviewed table says reasons.
pub fn reasoning_line(slug: &str) -> bool {
    static PREFIXES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    PREFIXES
        .get_or_init(|| {
            REASONING_LINES_CSV
                .lines()
                .skip(1)
                .filter_map(|line| line.split(',').next())
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect()
        })
        .iter()
        .any(|p| {
            slug.strip_prefix(p.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '.']))
        })
}

/// Whether the slug says the model reasons: its words ([`names_reasoning`]) or its line
/// ([`reasoning_line`]).
pub fn says_reasoning(slug: &str) -> bool {
    names_reasoning(slug) || reasoning_line(slug)
}

/// Whether the reviewed table lists the slug's family as open weights.
pub fn open_family(slug: &str) -> bool {
    open_families().iter().any(|f| {
        !f.closed() && slug.starts_with(f.prefix.as_str()) && (!f.needs_size || names_a_size(slug))
    })
}

impl OpenFamily {
    /// A row for a line with no published weights at all (API-only tiers `*`).
    fn closed(&self) -> bool {
        self.api_only.iter().any(|a| a == "*")
    }
}

/// Whether the reviewed table says the slug is an API-only model of an open family: no
/// parameter count, and a word of the row's API-only tiers (`qwen3-max-thinking`,
/// `qwen3.5-flash-02-23`), whatever a host's file says.
pub fn api_only(slug: &str) -> bool {
    open_families().iter().any(|f| {
        slug.starts_with(f.prefix.as_str())
            && (f.closed()
                || !names_a_size(slug)
                    && slug
                        .split(['-', '.'])
                        .any(|w| f.api_only.iter().any(|a| a == w)))
    })
}

/// A model with only its slug and name set, every derived figure empty.
pub fn blank_model(slug: &str) -> model::Model {
    model::Model {
        slug: slug.to_string(),
        name: slug.to_string(),
        creator_slug: None,
        category: Category::Llm,
        family: None,
        open_source: None,
        release_date: None,
        first_seen: None,
        date_basis: None,
        context_window: None,
        max_output_tokens: None,
        input_modalities: "text".into(),
        output_modalities: "text".into(),
        reasoning: None,
        tool_call: None,
        structured_output: None,
        knowledge_cutoff: None,
        last_updated: None,
        deprecation_date: None,
        deprecated: false,
        retired: false,
        superseded_by: None,
        base_model: None,
        rank_basis: None,
        rank_score: None,
        average_score: None,
        benchmarks_count: 0,
        input_price: None,
        output_price: None,
        price_basis: None,
        cheapest_provider: None,
        cheapest_input_price: None,
        cheapest_output_price: None,
        capability_index: None,
        capability_index_se: None,
        availability: Availability::Research,
        task: Task::Chat,
        disputes: None,
    }
}

/// What observation says beyond the sources' rows.
#[derive(Debug, Default)]
pub struct Observed {
    /// The day each source's current copy was observed, where not its bundled date.
    pub days: BTreeMap<String, String>,
    /// The earliest day any source listed each model (by slug).
    pub first_seen: BTreeMap<String, String>,
    /// The day whose prices are current: a sale ended by it sets no list price.
    pub today: String,
}

/// Builds the snapshot tables from resolved models, then derives figures and sorts.
pub fn finish(
    snapshot: &mut Snapshot,
    resolved: Resolved,
    meta: BTreeMap<String, ProviderMeta>,
    exclude: &BTreeSet<String>,
    observed: &Observed,
    tables: &Reviewed,
    derived: &Derived,
) -> super::calibration::Gaps {
    snapshot.models = resolved
        .models
        .iter()
        .map(|(slug, recs)| {
            super::merge::model(
                slug,
                recs,
                super::merge::Derivation {
                    derived: derived.bases.contains_key(slug),
                    unvouched: derived.unvouched.contains_key(slug),
                    first_seen: observed.first_seen.get(slug).cloned(),
                },
            )
        })
        .collect();
    for m in &mut snapshot.models {
        m.first_seen = observed.first_seen.get(&m.slug).cloned();
    }
    // A creator's own entry marked deprecated deprecates every id it bills (Moonshot's
    // `moonshot-v1-32k` entry billing `moonshot-v1-32k-vision-preview`; docs/data.md,
    // "Lifecycle"); a floating alias it bills names no model of its own.
    let billed_deprecated: BTreeSet<&str> = resolved
        .models
        .values()
        .flatten()
        .filter(|r| r.rank <= 2 && r.deprecated == Some(true))
        .flat_map(|r| &r.bills)
        .filter(|id| !id.to_ascii_lowercase().ends_with("latest"))
        .filter_map(|id| resolved.lookup(id))
        .collect();
    for m in &mut snapshot.models {
        m.deprecated |= billed_deprecated.contains(m.slug.as_str());
    }
    for (alias, slug) in &resolved.index {
        if alias != slug && !resolved.models.contains_key(alias) {
            snapshot.aliases.push(model_alias::Model {
                alias: alias.clone(),
                model_slug: slug.clone(),
            });
        }
    }
    super::lines::name_snapshots(&mut snapshot.models, &resolved.index);
    super::lines::name_apart(&mut snapshot.models, &resolved.models);
    super::lines::date_from_line(&mut snapshot.models, &resolved.models);
    snapshot.offerings = resolved.offerings;

    // The reviewed creators table names its creators, whatever a source spells them
    // (genai-prices' `Deepseek`, `MoonshotAi` and `X AI` are DeepSeek, Moonshot AI, xAI).
    let mut providers: BTreeMap<String, provider::Model> = meta
        .into_iter()
        .map(|(slug, m)| {
            let known = tables.prices.creators.get(&slug);
            let p = provider::Model {
                slug: slug.clone(),
                name: known.map_or(m.name, |k| k.name.clone()),
                website: m.website.or_else(|| known.map(|k| k.website.clone())),
                models_count: 0,
                created_count: 0,
                // Set with every provider's kind by `prices::apply`.
                kind: ProviderKind::Reseller,
            };
            (slug, p)
        })
        .collect();
    // Every provider a row names exists: creators, and the sellers of offerings and price
    // periods (LiteLLM's `volcengine`, which no other source lists) — docs/data.md,
    // "References".
    let creators: BTreeSet<String> = snapshot
        .models
        .iter()
        .filter_map(|m| m.creator_slug.clone())
        .chain(snapshot.offerings.iter().map(|o| o.provider_slug.clone()))
        .chain(
            snapshot
                .price_history
                .iter()
                .map(|p| p.provider_slug.clone()),
        )
        .collect();
    // Creators no source lists as a provider take their name from the creators table, else
    // from a router's `Vendor: Model` display names.
    let vendor_names = identities::vendor_names(resolved.models.values().flatten());
    for c in creators {
        let known = tables.prices.creators.get(&c);
        providers
            .entry(c.clone())
            .or_insert_with(|| provider::Model {
                slug: c.clone(),
                name: known
                    .map(|k| k.name.clone())
                    .unwrap_or_else(|| vendor_names.get(&c).cloned().unwrap_or_else(|| c.clone())),
                website: known.map(|k| k.website.clone()),
                models_count: 0,
                created_count: 0,
                kind: ProviderKind::Reseller,
            });
    }
    snapshot.providers = providers.into_values().collect();

    let used: BTreeSet<&str> = snapshot
        .offerings
        .iter()
        .map(|o| o.source.as_str())
        .chain(snapshot.price_history.iter().map(|p| p.source.as_str()))
        .chain(snapshot.scores.iter().map(|s| s.source.as_str()))
        .chain(snapshot.agent_scores.iter().map(|s| s.source.as_str()))
        .chain(snapshot.benchmarks.iter().map(|b| b.source.as_str()))
        .chain([sources::models_dev::SOURCE, sources::litellm::SOURCE])
        .filter(|s| !exclude.contains(*s))
        .collect();
    // A copy observed later than the bundled one (fetched by `mds sync`) is as of that day.
    snapshot.sources = used
        .into_iter()
        .filter_map(sources::row)
        .map(|mut s| {
            if let Some(day) = observed.days.get(&s.slug) {
                s.snapshot_date.clone_from(day);
            }
            s
        })
        .collect();
    derive(snapshot, tables, &observed.today)
}

/// The models derived from others (model → base): every fine-tune or merge, and among
/// them the community fine-tunes sold under a lab's model name
/// ([`super::identities::unvouched`]).
pub struct Derived<'a> {
    pub bases: &'a BTreeMap<String, String>,
    pub unvouched: &'a BTreeMap<String, String>,
}

/// Mean of `values` rounded to 2 decimals, `None` when empty.
pub fn mean2(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    Some((mean * 100.0).round() / 100.0)
}

/// The reviewed tables the derived figures follow.
#[derive(Debug, Clone)]
pub struct Reviewed {
    pub prices: prices::Tables,
    pub benchmarks: BTreeMap<String, review::Review>,
}

impl Reviewed {
    /// The tables checked in under `data/`.
    pub fn checked_in() -> Result<Self, String> {
        Ok(Self {
            prices: prices::Tables::checked_in()?,
            benchmarks: review::checked_in()?,
        })
    }
}

/// Fewest averaged scores a model or agent needs for an `average_score`.
pub const MIN_AVERAGED: usize = 3;

/// Computes every derived figure and sorts every table: cheapest current price per model,
/// average score and benchmark counts per model and agent, model counts per provider and
/// benchmark, and row ids in sorted order; prices as of `today`.
pub fn derive(s: &mut Snapshot, tables: &Reviewed, today: &str) -> super::calibration::Gaps {
    super::scores::date_measurements(s);
    s.offerings
        .sort_by(|a, b| (&a.model_slug, &a.provider_slug).cmp(&(&b.model_slug, &b.provider_slug)));
    s.price_history.sort_by(|a, b| {
        (&a.model_slug, &a.provider_slug, &a.effective_from).cmp(&(
            &b.model_slug,
            &b.provider_slug,
            &b.effective_from,
        ))
    });
    s.scores.sort_by(|a, b| {
        (
            &a.model_slug,
            &a.benchmark_slug,
            !a.is_headline,
            &a.config,
            &a.as_of,
            &a.release,
            &a.source,
        )
            .cmp(&(
                &b.model_slug,
                &b.benchmark_slug,
                !b.is_headline,
                &b.config,
                &b.as_of,
                &b.release,
                &b.source,
            ))
    });
    s.agent_scores.sort_by(|a, b| {
        (&a.agent_slug, &a.benchmark_slug).cmp(&(&b.agent_slug, &b.benchmark_slug))
    });
    s.aliases.sort_by(|a, b| a.alias.cmp(&b.alias));
    s.agent_models
        .sort_by(|a, b| (&a.agent_slug, &a.model_slug).cmp(&(&b.agent_slug, &b.model_slug)));
    s.models.sort_by(|a, b| a.slug.cmp(&b.slug));
    s.providers.sort_by(|a, b| a.slug.cmp(&b.slug));
    s.benchmarks.sort_by(|a, b| a.slug.cmp(&b.slug));
    s.agents.sort_by(|a, b| a.slug.cmp(&b.slug));
    s.sources.sort_by(|a, b| a.slug.cmp(&b.slug));
    for (i, o) in s.offerings.iter_mut().enumerate() {
        o.id = i as i64 + 1;
    }
    for (i, p) in s.price_history.iter_mut().enumerate() {
        p.id = i as i64 + 1;
    }
    for (i, x) in s.scores.iter_mut().enumerate() {
        x.id = i as i64 + 1;
    }
    for (i, x) in s.agent_scores.iter_mut().enumerate() {
        x.id = i as i64 + 1;
    }

    // Offering kinds, list prices, cheapest offerings, prices to 6 significant digits.
    prices::apply(s, &tables.prices, today);
    curation::apply(s);
    let unreviewed = review::apply(s, &tables.benchmarks);
    if !unreviewed.is_empty() {
        tracing::warn!(
            ?unreviewed,
            "benchmarks missing from data/benchmark_review.csv stay out of the average and the index"
        );
    }
    let in_average: BTreeSet<String> = s
        .benchmarks
        .iter()
        .filter(|b| b.in_average)
        .map(|b| b.slug.clone())
        .collect();
    let mut bench_models: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for x in s.scores.iter().filter(|x| x.is_headline) {
        bench_models
            .entry(x.benchmark_slug.clone())
            .or_default()
            .insert(&x.model_slug);
    }
    for b in &mut s.benchmarks {
        b.models_count = bench_models.get(&b.slug).map_or(0, |m| m.len() as i32);
    }
    let mut agent_scores: BTreeMap<&str, (Vec<f64>, BTreeSet<&str>)> = BTreeMap::new();
    for x in s.agent_scores.iter().filter(|x| x.is_headline) {
        let e = agent_scores.entry(&x.agent_slug).or_default();
        e.1.insert(&x.benchmark_slug);
        if in_average.contains(x.benchmark_slug.as_str()) {
            e.0.push(x.score);
        }
    }
    for a in &mut s.agents {
        let averaged = agent_scores
            .get(a.slug.as_str())
            .map_or(&[][..], |(v, _)| v);
        a.average_score = (averaged.len() >= MIN_AVERAGED)
            .then(|| mean2(averaged))
            .flatten();
        a.benchmarks_count = averaged.len() as i32;
    }
    let mut offered: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for o in &s.offerings {
        offered
            .entry(&o.provider_slug)
            .or_default()
            .insert(&o.model_slug);
    }
    let mut created: BTreeMap<&str, usize> = BTreeMap::new();
    for m in &s.models {
        if let Some(c) = &m.creator_slug {
            *created.entry(c).or_default() += 1;
        }
    }
    for p in &mut s.providers {
        p.models_count = offered.get(p.slug.as_str()).map_or(0, |m| m.len() as i32);
        p.created_count = created.get(p.slug.as_str()).copied().unwrap_or(0) as i32;
    }
    let gaps = super::rankings::apply(s, &tables.benchmarks);
    s.built_at = s
        .sources
        .iter()
        .map(|x| x.snapshot_date.clone())
        .max()
        .unwrap_or_default();
    super::economy::apply(s);
    gaps
}

#[cfg(test)]
mod open_tests {
    use super::*;

    #[test]
    fn open_families_need_their_size_where_the_table_says() {
        for slug in [
            "gpt-oss-20b",
            "llama-3.2-1b-instruct",
            "gemma-3-27b-it",
            "deepseek-r1-distill-qwen-32b",
            "qwen3-235b-a22b-instruct-2507",
            "qwen2.5-1.5b-instruct",
            "mixtral-8x7b-instruct",
        ] {
            assert!(open_family(slug), "{slug}");
        }
        for slug in [
            "qwen3-max",
            "qwen-plus",
            "gpt-4o",
            "mistral-large-2512",
            "phind",
        ] {
            assert!(!open_family(slug), "{slug}");
        }
        for slug in ["qwen3-max-thinking", "qwen3.5-flash-02-23", "qwen-turbo"] {
            assert!(api_only(slug), "{slug}");
        }
        // A line whose maker publishes no weights at all (`*`).
        assert!(api_only("embed-english-v3.0") && !open_family("embed-english-v3.0"));
        // A sized checkpoint is open whatever its words; another family has no tiers.
        for slug in [
            "qwen3-30b-a3b-flash",
            "qwen3-coder-next",
            "gpt-4o-max",
            "phi-4",
        ] {
            assert!(!api_only(slug), "{slug}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The category's name, as the cases below write it.
    fn category(input: &[String], output: &[String]) -> &'static str {
        super::category(input, output).as_str()
    }

    #[test]
    fn categories_follow_the_contract() {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(category(&v(&["text"]), &v(&["text", "image"])), "image");
        assert_eq!(
            category(&v(&["text", "audio"]), &v(&["text"])),
            "multimodal"
        );
        assert_eq!(category(&v(&["text", "pdf"]), &v(&["text"])), "llm");
    }

    #[test]
    fn means_round_to_two_decimals() {
        assert_eq!(mean2(&[1.0, 2.0, 2.0]), Some(1.67));
        assert_eq!(mean2(&[]), None);
    }

    #[test]
    fn providers_get_one_slug() {
        assert_eq!(canonical_provider("x-ai"), "xai");
        assert_eq!(
            canonical_provider("huggingface_fireworks-ai"),
            "huggingface-fireworks-ai"
        );
    }
}
