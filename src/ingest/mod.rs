//! `mds ingest`: reads the raw public datasets and writes one normalized snapshot.
//!
//! Each adapter ([`sources`]) turns one source into [`ModelRecord`]s (a model as one source names it,
//! with whatever that source knows about it and its price there). [`resolve`] then gives
//! every model one canonical slug: records whose names normalize to the same join key are
//! one model; an undated name (`gpt-4o`) joins the newest dated snapshot (`gpt-4o-2024-11-20`)
//! and stays reachable as an alias. Scores and history rows are attached afterwards through
//! the alias index, and what cannot be attached is reported per source.

pub mod benchmarks;
pub mod budget;
pub mod calibration;
pub mod capability;
pub mod catalog;
pub mod curation;
pub mod domains;
pub mod economy;
pub mod history;
pub mod identities;
pub mod labels;
pub mod merge;
pub mod modes;
pub mod names;
pub mod prices;
pub mod prior;
pub mod provenance;
pub mod rankings;
pub mod report;
pub mod review;
pub mod scores;
pub mod sources;
pub mod validate;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use entity::vocab::{Category, OfferingKind, ProviderKind, Task};

use crate::snapshot::{FORMAT, Snapshot};
pub use report::Report;

/// Prices of one offering, USD per 1M tokens. `None` is unknown, never 0.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prices {
    pub input: Option<f64>,
    pub output: Option<f64>,
    pub cache_read: Option<f64>,
    pub cache_write: Option<f64>,
    /// Long-context tiers, smallest threshold first; empty when one price fits every size.
    pub tiers: Vec<entity::offering::Tier>,
    /// Prices in other units than text tokens (image and audio tokens, searches, requests).
    pub unit_prices: Vec<entity::offering::UnitPrice>,
    /// The offering bought in another mode (batch, flex, priority), where the source says.
    pub variants: Vec<entity::offering::Variant>,
}

/// Modalities stated one at a time: (modality, taken or made).
pub type Flags = Vec<(String, bool)>;

/// One appearance of a model in one source, at one provider (or provider-agnostic).
#[derive(Debug, Clone, Default)]
pub struct ModelRecord {
    /// Slug of the source dataset.
    pub source: &'static str,
    /// Canonical provider slug; `None` for provider-agnostic metadata.
    pub provider: Option<String>,
    /// The id the provider (or source) uses.
    pub raw_id: String,
    pub parsed: Option<names::Parsed>,
    /// Lower is more authoritative (0: the model's own metadata file, 1-2: its creator's API,
    /// 3-4: other sellers, [`BENCHMARK_RANK`] and above: benchmark tables).
    pub rank: u8,
    pub creator: Option<String>,
    pub name: Option<String>,
    pub family: Option<String>,
    pub release_date: Option<String>,
    pub open_weights: Option<bool>,
    pub context: Option<i64>,
    pub max_output: Option<i64>,
    /// The full set of modalities the source lists (models.dev's `modalities.input`): every
    /// modality it leaves out it says is not taken.
    pub input_modalities: Option<Vec<String>>,
    pub output_modalities: Option<Vec<String>>,
    /// Modalities the source states one at a time, beside or instead of a full set
    /// (LiteLLM's `supports_vision: true` and its lists, genai-prices' price per image
    /// token): whether the model takes (or makes) each one. A flag wins over the record's own
    /// full set.
    pub input_flags: Flags,
    pub output_flags: Flags,
    /// The task the source's own entry names (LiteLLM's `mode: embedding`), where it names one.
    pub task: Option<Task>,
    pub reasoning: Option<bool>,
    pub tool_call: Option<bool>,
    pub structured_output: Option<bool>,
    /// Training-data cutoff (`YYYY-MM` or `YYYY-MM-DD`).
    pub knowledge: Option<String>,
    /// When the source last updated its record.
    pub last_updated: Option<String>,
    /// Current price at `provider`, if the source prices it.
    pub prices: Option<Prices>,
    /// The date the price is as of (the source's snapshot date).
    pub as_of: Option<String>,
    /// The processing mode this entry prices (`batch`, `flex`, `priority`) where its id or name
    /// says it is one ([`names::price_mode`]): a variant of the model's offering at the
    /// provider, never its standard price, a model or a name.
    pub mode: Option<&'static str>,
    /// The key of the model the source's maintainers say this entry is (models.dev's
    /// `base_model`, where the bundle holds that model's file): its group joins that
    /// model's ([`resolve`]).
    pub based_on: Option<String>,
    /// Whether the source marks the model deprecated at this provider (genai-prices'
    /// `deprecated`, models.dev's `status = "deprecated"`); only the creator's own entries
    /// speak for the model (docs/data.md, "Lifecycle").
    pub deprecated: Option<bool>,
}

/// The rank of records read from benchmark tables (a paper's or a leaderboard's rows).
pub const BENCHMARK_RANK: u8 = 5;

/// Options of one ingest run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Directory holding the raw sources (`genai-prices/`, `models-dev/`, ...).
    pub sources: PathBuf,
    /// The derived price-change log; defaults to `<sources>/../derived/genai_prices_git_price_changes.csv`.
    pub price_changes: Option<PathBuf>,
    /// Source slugs to leave out.
    pub exclude: BTreeSet<String>,
    /// Earlier observed copies of the sources, `<archive>/<slug>/<YYYY-MM-DD>/` in each
    /// source's raw layout; defaults to `<sources>/../archive`. Price changes between them
    /// become history, and the earliest copy listing a model dates its `first_seen`.
    pub archive: Option<PathBuf>,
    /// The day each source's current copy was observed (source slug → `YYYY-MM-DD`), where
    /// it is not the bundled copy's (`mds sync` passes the day it fetched each one).
    pub observed: BTreeMap<String, String>,
    /// The day whose prices are current: a price the source dates up to it is in effect, a
    /// later one is `upcoming`. Defaults to genai-prices' observation day; `mds sync` passes
    /// the day it runs, so a scheduled change takes effect with the first sync on its day.
    pub today: Option<String>,
    /// A labelled truth set (`data/labels.csv`) to score the catalogue and each source
    /// against ([`labels`]); the scores go into the report.
    pub labels: Option<PathBuf>,
    /// The dataset being served, whose history from before the copies read here is kept
    /// ([`prior`]); `mds sync` passes it, `mds ingest` none.
    pub prior: Option<std::sync::Arc<prior::Prior>>,
}

#[derive(Debug)]
pub struct IngestError(pub String);

impl std::fmt::Display for IngestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for IngestError {}

pub(crate) fn read_json(path: &Path) -> Result<serde_json::Value, IngestError> {
    let bytes = std::fs::read(path).map_err(|e| IngestError(format!("{}: {e}", path.display())))?;
    budget::structure(path, &bytes, true)?;
    serde_json::from_slice(&bytes).map_err(|e| IngestError(format!("{}: {e}", path.display())))
}

/// The sources `--exclude` can leave out, by slug: every adapter's, and the price history.
pub fn source_names() -> Vec<&'static str> {
    sources::ALL
        .iter()
        .map(|s| s.slug())
        .chain([history::SOURCE])
        .collect()
}

/// Runs every adapter and builds the snapshot.
pub fn run(opts: &Options) -> Result<(Snapshot, Report), IngestError> {
    // A misspelt exclusion would silently keep the source it meant to drop.
    let names = source_names();
    if let Some(unknown) = opts.exclude.iter().find(|x| !names.contains(&x.as_str())) {
        return Err(IngestError(format!(
            "--exclude {unknown}: no such source (sources: {})",
            names.join(", ")
        )));
    }
    let mut report = Report::default();
    let mut found = sources::Collected::default();
    for source in sources::ALL
        .iter()
        .filter(|s| !opts.exclude.contains(s.slug()))
    {
        source.read(&opts.sources, &mut found, &mut report)?;
    }
    // Upstream data is input, not truth: an entry with a value out of range never reaches
    // the catalogue (docs/security.md).
    for d in validate::collected(&mut found) {
        tracing::warn!(dropped = %d, "an upstream entry was dropped");
        report.dropped.push(d.to_string());
    }
    let sources::Collected {
        mut records,
        providers: mut provider_meta,
        scores: raw,
        agents: raw_agents,
        genai_prices: genai,
        witnesses,
        mut offers,
        described,
    } = found;

    // The live feed's prices are as of the day its copy was observed; its dated prices
    // take effect by `today`.
    let day = opts
        .observed
        .get(sources::genai_prices::SOURCE)
        .map_or(sources::genai_prices::AS_OF, String::as_str);
    let today = opts.today.as_deref().unwrap_or(day).max(day);
    for r in records
        .iter_mut()
        .filter(|r| r.source == sources::genai_prices::SOURCE && r.as_of.is_some())
    {
        r.as_of = Some(day.to_string());
    }

    for r in records
        .iter_mut()
        .chain(offers.iter_mut().map(|o| &mut o.record))
    {
        route_to_plan(r, &mut provider_meta);
        // A mode entry (`…:batch`, "… (batch)") prices a variant of the model's offering:
        // its name is the entry's, not the model's (docs/data.md, "Price modes").
        r.mode = names::price_mode(&r.raw_id, r.name.as_deref());
        if r.mode.is_some() {
            r.name = None;
            report.rule("price modes: mode entries read", 1);
        }
    }

    // Benchmarked models that no pricing or metadata source knows become models too.
    let first_pass = resolve(records.clone());
    records.extend(scores::unpriced_models(&raw, &first_pass, &mut report));
    // LiteLLM's prices join the models the others list (or name one at its creator's API);
    // a regional price waits for the offering it is a region of.
    let litellm_day = opts
        .observed
        .get(sources::litellm::SOURCE)
        .map_or(sources::litellm::AS_OF, String::as_str);
    let mut litellm_offers = Vec::new();
    for mut offer in offers {
        offer.record.as_of = Some(litellm_day.to_string());
        let raw = offer.record.raw_id.clone();
        let named = first_pass.lookup(&raw);
        // A dated id of a model the others list is that model unless they list the date as
        // a snapshot of its own: it joins under its undated name, so it neither makes a
        // model nor renames one (the maker's undated alias names the newest snapshot).
        let undated = identities::undated(&raw).filter(|u| {
            first_pass
                .lookup(u)
                .is_some_and(|m| named.is_none_or(|n| n == m))
        });
        if let Some(undated) = undated {
            offer.record.parsed = Some(names::parse(undated));
        } else if named.is_none() && !offer.first_party {
            report.unmatched(sources::litellm::SOURCE, &raw);
            continue;
        }
        if offer.region.is_none() {
            records.push(offer.record.clone());
        }
        litellm_offers.push(offer);
    }
    // LiteLLM's entries that price nothing witness the attributes of a model the others
    // list, under its name, and make none (docs/data.md, "Witnesses and votes").
    for mut r in described {
        let Some(slug) = first_pass
            .lookup(&r.raw_id)
            .or_else(|| identities::undated(&r.raw_id).and_then(|u| first_pass.lookup(u)))
        else {
            continue;
        };
        r.parsed = Some(names::parse(slug));
        records.push(r);
    }
    // A genai-prices mode entry's price is the one in effect on `today`, as the standard
    // prices' are (`history::apply_current`).
    if let Some(data) = &genai {
        let entries: BTreeMap<(String, &str), &serde_json::Value> =
            sources::genai_prices::models(data)
                .map(|(p, id, m)| ((p, id), m))
                .collect();
        for r in records
            .iter_mut()
            .filter(|r| r.mode.is_some() && r.source == sources::genai_prices::SOURCE)
        {
            let key = (r.provider.clone().unwrap_or_default(), r.raw_id.as_str());
            if let Some(p) = entries.get(&key).and_then(|m| history::price_on(m, today)) {
                r.prices = Some(p);
            }
        }
    }
    let mut resolved = resolve(records);
    let mut first_seen = first_seen_in_records(&resolved, &opts.observed);
    let mut snapshot = Snapshot {
        format: FORMAT,
        ..Snapshot::default()
    };

    if let Some(data) = &genai
        && !opts.exclude.contains(history::SOURCE)
    {
        let path = opts.price_changes.clone().unwrap_or_else(|| {
            opts.sources
                .join("../derived/genai_prices_git_price_changes.csv")
        });
        // The derived log is the project's own file, beside the raw copies; a data directory
        // filled by `mds sync` has none unless given, and then the history is the live
        // feed's dated prices alone.
        let mut rows = if opts.price_changes.is_some() || path.exists() {
            history::load(&path)?
        } else {
            Vec::new()
        };
        let mut copies = archived_copies(opts, day)?;
        copies.push((day.to_string(), data.clone()));
        rows.extend(history::observed_changes(&copies));
        first_seen_in_log(&rows, &resolved, &mut first_seen);
        let (points, current) = history::build(&rows, data, today, &resolved, &mut report);
        snapshot.price_history = points;
        // Dated constraints in the live feed decide which price is current.
        history::apply_current(&current, &mut resolved.offerings);
    }
    if let Some(data) = &genai {
        sources::genai_prices::apply_variants(data, today, &mut resolved.offerings);
        history::apply_upcoming(&history::upcoming(data, today), &mut resolved.offerings);
    }
    let mut offerings = std::mem::take(&mut resolved.offerings);
    sources::litellm::apply_offers(&litellm_offers, &resolved, &mut offerings);
    resolved.offerings = offerings;
    modes::fold(&mut resolved);
    settle_witnesses(&mut resolved.offerings);

    let attached = scores::attach(raw, raw_agents, &resolved, &mut report);
    snapshot.benchmarks = attached.benchmarks;
    snapshot.scores = attached.scores;
    snapshot.agents = attached.agents;
    snapshot.agent_models = attached.agent_models;
    snapshot.agent_scores = attached.agent_scores;

    // LiteLLM's witnesses, by the model their ids name; ids no other source lists add nothing.
    let mut witnessed = sources::litellm::ByModel::new();
    let mut unknown_own = Vec::new();
    for w in witnesses {
        match resolved.lookup(&w.raw_id) {
            Some(slug) => {
                report.matched(sources::litellm::SOURCE);
                witnessed.entry(slug.to_string()).or_default().push(w);
            }
            None => {
                if sources::litellm::names_an_own_chat_model(&w) {
                    unknown_own.push(w.raw_id.clone());
                }
                report.unmatched(sources::litellm::SOURCE, &w.raw_id);
            }
        }
    }
    // A lab's own chat id that names no model is a model the catalogue misses
    // (docs/methodology.md, "Identity"; the target is at most 5).
    report.rule(
        "identity: LiteLLM first-party chat ids naming no model",
        unknown_own.len(),
    );
    report.unknown_own = unknown_own;

    // LiteLLM's earlier copies: when each model was first listed, and the history of the
    // offerings LiteLLM prices.
    if !opts.exclude.contains(sources::litellm::SOURCE) {
        let earlier = archived_litellm(opts, litellm_day)?;
        for (day, copy) in &earlier {
            for w in &copy.witnesses {
                if let Some(slug) = resolved.lookup(&w.raw_id) {
                    let seen = first_seen
                        .entry(slug.to_string())
                        .or_insert_with(|| day.clone());
                    if day < seen {
                        seen.clone_from(day);
                    }
                }
            }
        }
        let mut copies: Vec<sources::litellm::history::Observed> = earlier
            .iter()
            .map(|(day, copy)| (day.clone(), sources::litellm::history::by_id(&copy.offers)))
            .collect();
        copies.push((
            litellm_day.to_string(),
            sources::litellm::history::by_id(&litellm_offers),
        ));
        let dated: BTreeSet<(String, String)> = snapshot
            .price_history
            .iter()
            .map(|p| (p.model_slug.clone(), p.provider_slug.clone()))
            .collect();
        for o in resolved.offerings.iter().filter(|o| {
            o.source == sources::litellm::SOURCE
                && !dated.contains(&(o.model_slug.clone(), o.provider_slug.clone()))
        }) {
            snapshot
                .price_history
                .extend(sources::litellm::history::periods(
                    &o.model_slug,
                    &o.provider_slug,
                    &o.provider_model_id,
                    &copies,
                ));
        }
    }

    if let Some(p) = &opts.prior {
        snapshot.price_history = prior::carry_periods(
            p,
            std::mem::take(&mut snapshot.price_history),
            &resolved.offerings,
            &opts.observed,
        );
        prior::carry_first_seen(p, &resolved.models, &mut first_seen);
    }

    // Community fine-tunes sold under a lab's model name (docs/methodology.md, "Creators").
    let unvouched =
        identities::unvouched(&resolved.models, |b| resolved.lookup(b).map(str::to_string));
    report.rule(
        "creators: community fine-tunes under a lab's model name, credited to no lab",
        unvouched.len(),
    );
    // Fine-tunes and merges link the model they derive from.
    let mut bases: BTreeMap<String, String> = resolved
        .models
        .iter()
        .filter_map(|(slug, recs)| {
            // A derivative says so in its name, or it is credited to a publisher with no API
            // of its own that is not the lab its name starts with (NeverSleep's
            // `llama-3-lumimaid-70b`, Open-Orca's `mistral-7b-openorca`).
            let key = slug.replace('.', "-");
            let named = prices::Tables::shared().creator_of_name(&key);
            let tables = prices::Tables::shared();
            let publisher_only = |c: &str| {
                tables
                    .creators
                    .get(c)
                    .is_some_and(|row| row.first_party.is_empty())
            };
            let derived = identities::says_derivative(&key)
                || identities::model_creator(slug, recs)
                    .zip(named)
                    .is_some_and(|(c, n)| c != n && publisher_only(&c));
            if !derived {
                return None;
            }
            identities::base_candidates(slug)
                .into_iter()
                .find_map(|b| resolved.lookup(b).filter(|m| *m != slug.as_str()))
                .map(|b| (slug.clone(), b.to_string()))
        })
        .collect();
    for (slug, base) in &unvouched {
        bases.entry(slug.clone()).or_insert_with(|| base.clone());
    }

    // A host's mode product folded into its model (`glm-5.2-fast` at Baseten, now the fast
    // variant of `glm-5.2`) leaves no model behind: its price periods were the variant's,
    // not the model's, and would name a model that does not exist (docs/data.md,
    // "References").
    let periods = snapshot.price_history.len();
    snapshot
        .price_history
        .retain(|p| resolved.models.contains_key(&p.model_slug));
    report.rule(
        "references: price periods of folded mode products dropped",
        periods - snapshot.price_history.len(),
    );
    // What each source alone says of the labelled models, read before the vote merges them.
    let labelled = match &opts.labels {
        Some(path) => {
            let labels = labels::load(path)?;
            let answers = labels::source_answers(&labels, &resolved);
            Some((labels, answers))
        }
        None => None,
    };
    let tables = catalog::Reviewed::checked_in().map_err(IngestError)?;
    let gaps = catalog::finish(
        &mut snapshot,
        resolved,
        provider_meta,
        &opts.exclude,
        &catalog::Observed {
            days: opts.observed.clone(),
            first_seen,
        },
        &tables,
        &catalog::Derived {
            bases: &bases,
            unvouched: &unvouched,
        },
    );
    sources::litellm::apply(
        &witnessed,
        &mut snapshot.models,
        &tables.prices.creators,
        today,
    );
    for o in &snapshot.offerings {
        report.witnesses(&entity::offering::Witness::decode(o.sources.as_deref()));
    }
    report.calibration(&gaps);
    report.rankings = domains::summary(&snapshot);
    for m in &mut snapshot.models {
        m.base_model = bases.get(&m.slug).cloned();
    }
    report.rule(
        "tasks: models every LiteLLM entry of which is an embedding, served as chat (must be 0)",
        snapshot
            .models
            .iter()
            .filter(|m| m.task == Task::Chat)
            .filter(|m| {
                witnessed.get(&m.slug).is_some_and(|ws| {
                    !ws.is_empty() && ws.iter().all(|w| w.mode.as_deref() == Some("embedding"))
                })
            })
            .count(),
    );
    count_rules(&snapshot, &mut report);
    if let Some((labels, answers)) = labelled {
        report.labels = Some(labels::score(&labels, &answers, &snapshot));
    }
    Ok((snapshot, report))
}

/// How far each rule of docs/data.md reaches in the built snapshot, and how often a rule
/// that must always hold is broken (those lines should read 0).
fn count_rules(s: &Snapshot, report: &mut Report) {
    use entity::offering::{Variant, Witness};
    let tables = prices::Tables::shared();
    let modes = ["batch", "flex", "priority"];
    report.rule(
        "price modes: names that carry a mode (must be 0)",
        s.models
            .iter()
            .filter(|m| names::price_mode("", Some(&m.name)).is_some())
            .count(),
    );
    let mut with_modes = 0;
    let mut below = 0;
    for o in &s.offerings {
        let variants = Variant::decode(o.variants.as_deref());
        with_modes += usize::from(variants.iter().any(|v| modes.contains(&v.mode.as_str())));
        below += usize::from(variants.iter().any(|v| below_batch(o, v)));
    }
    report.rule(
        "price modes: offerings with a batch/flex/priority variant",
        with_modes,
    );
    report.rule(
        "price modes: offerings priced below their batch variant (must be 0)",
        below,
    );
    let free = s
        .offerings
        .iter()
        .filter(|o| o.kind == OfferingKind::FreeTier);
    report.rule("free: free_tier offerings", free.clone().count());
    report.rule(
        "free: free_tier offerings without a stated 0/0 or a free id (must be 0)",
        free.filter(|o| {
            (o.input_price != Some(0.0) || o.output_price != Some(0.0))
                && !prices::says_free(&o.provider_model_id)
        })
        .count(),
    );
    report.rule(
        "free: models.dev 0/0 placeholders at a creator's API made unknown",
        s.offerings
            .iter()
            .filter(|o| {
                o.kind == OfferingKind::FirstParty && o.source == sources::models_dev::SOURCE
            })
            .filter(|o| {
                Witness::decode(o.sources.as_deref()).iter().any(|w| {
                    w.source == o.source && w.input_price.is_none() && w.output_price.is_none()
                })
            })
            .count(),
    );
    report.rule(
        "open weights: open_source models",
        s.models
            .iter()
            .filter(|m| m.open_source == Some(true))
            .count(),
    );
    report.rule(
        "open weights: models of a reviewed open family",
        s.models
            .iter()
            .filter(|m| catalog::open_family(&m.slug))
            .count(),
    );
    report.rule(
        "lifecycle: models with a deprecation date",
        s.models
            .iter()
            .filter(|m| m.deprecation_date.is_some())
            .count(),
    );
    report.rule(
        "lifecycle: retired models",
        s.models.iter().filter(|m| m.retired).count(),
    );
    report.rule(
        "lifecycle: deprecated models (a date announced, or the creator's own entry)",
        s.models.iter().filter(|m| m.deprecated).count(),
    );
    let credited = |kinds: &[ProviderKind]| {
        s.models
            .iter()
            .filter_map(|m| m.creator_slug.as_deref())
            .filter(|c| {
                !tables.creators.contains_key(*c) && kinds.contains(&tables.provider_kind(c))
            })
            .count()
    };
    report.rule(
        "creators: models credited to a cloud or plan (must be 0)",
        credited(&[ProviderKind::Cloud, ProviderKind::Plan]),
    );
    // A router's own products, under its own name (OpenRouter's `openrouter/auto`,
    // Vercel's `vercel/v0-1.5-md`), are its: counted, not forbidden.
    report.rule(
        "creators: models credited to a router under its own name",
        credited(&[ProviderKind::Router]),
    );
    report.rule(
        "references: dangling references (must be 0)",
        s.dangling().len(),
    );
    // The vote's reach (docs/data.md, "Witnesses and votes"): disputes by field (a modality's
    // under its side), and the models of each task and category the voted modalities give.
    let mut disputed = 0;
    for m in &s.models {
        let disputes = entity::model::Dispute::decode(m.disputes.as_deref());
        disputed += usize::from(!disputes.is_empty());
        let fields: BTreeSet<&str> = disputes
            .iter()
            .map(|d| d.field.split('.').next().unwrap_or(&d.field))
            .collect();
        for f in fields {
            report.rule(&format!("witnesses: models with a disputed {f}"), 1);
        }
        report.rule(&format!("classes: task {}", m.task), 1);
        report.rule(&format!("classes: category {}", m.category), 1);
    }
    report.rule("witnesses: models with a dispute", disputed);
    report.rule(
        "classes: video generators in category llm with text output (must be 0)",
        s.models
            .iter()
            .filter(|m| m.task == Task::VideoGeneration && m.category == Category::Llm)
            .filter(|m| m.output_modalities.split(',').any(|x| x == "text"))
            .count(),
    );
}

/// Whether an offering's standard price is below its batch variant's (beyond rounding): a
/// batch price served as the standard one, or a stale variant (docs/data.md, "Price modes").
pub fn below_batch(o: &entity::offering::Model, v: &entity::offering::Variant) -> bool {
    let above = |batch: Option<f64>, standard: Option<f64>| match (batch, standard) {
        (Some(b), Some(s)) => b > s && !same_price(Some(b), Some(s)),
        _ => false,
    };
    v.mode == "batch"
        && (above(v.input_price, o.input_price) || above(v.output_price, o.output_price))
}

/// The earlier observed copies of the live feed, oldest first: the archive's day
/// directories before `day` (the current copy's).
fn archived_copies(
    opts: &Options,
    day: &str,
) -> Result<Vec<(String, serde_json::Value)>, IngestError> {
    let root = opts
        .archive
        .clone()
        .unwrap_or_else(|| opts.sources.join("../archive"))
        .join(sources::genai_prices::SOURCE);
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Ok(Vec::new());
    };
    let mut days: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_ok() && d.as_str() < day)
        .collect();
    days.sort();
    days.into_iter()
        .map(|d| {
            let feed = sources::genai_prices::load_copy(&root.join(&d))?;
            Ok((d, feed))
        })
        .collect()
}

/// A host's plan route (`coding-glm-5.1` at AIHubMix) is the model sold at the plan: the
/// record moves to the plan's provider (named after the host) under the model's id.
fn route_to_plan(r: &mut ModelRecord, meta: &mut BTreeMap<String, catalog::ProviderMeta>) {
    let Some((plan, id)) = identities::plan_route(r.provider.as_deref(), &r.raw_id) else {
        return;
    };
    if let Some((host, _, _, name)) = identities::PLAN_ROUTES.iter().find(|p| p.2 == plan) {
        let website = meta.get(*host).and_then(|m| m.website.clone());
        meta.entry(plan.to_string())
            .or_insert_with(|| catalog::ProviderMeta {
                name: (*name).to_string(),
                website,
            });
    }
    r.parsed = Some(names::parse(id));
    r.provider = Some(plan.to_string());
}

/// LiteLLM's earlier observed copies, oldest first: the archive's directories (a day, or a
/// release [`sources::litellm::RELEASES`] names) observed before `day`.
fn archived_litellm(
    opts: &Options,
    day: &str,
) -> Result<Vec<(String, sources::litellm::Copy)>, IngestError> {
    let root = opts
        .archive
        .clone()
        .unwrap_or_else(|| opts.sources.join("../archive"))
        .join(sources::litellm::SOURCE);
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Ok(Vec::new());
    };
    let mut dirs: Vec<(String, std::path::PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let observed = sources::litellm::day_of_copy(&name)?;
            (observed.as_str() < day).then(|| (observed, e.path()))
        })
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|(d, path)| {
            let copy = sources::litellm::read_copy(&path, &d, &mut Report::default())?;
            Ok((d, copy))
        })
        .collect()
}

/// The day each model was first observed by the sources listing it now: each source's
/// observation day (its current copy's, else its bundled snapshot date).
fn first_seen_in_records(
    resolved: &Resolved,
    observed: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let day = |source: &str| {
        observed
            .get(source)
            .cloned()
            .or_else(|| catalog::source_row(source).map(|s| s.snapshot_date))
    };
    resolved
        .models
        .iter()
        .filter_map(|(slug, recs)| {
            let first = recs.iter().filter_map(|r| day(r.source)).min()?;
            Some((slug.clone(), first))
        })
        .collect()
}

/// Earlier sightings in the price log and between observed copies: the first row of any id
/// of the model that is not a removal.
fn first_seen_in_log(
    rows: &[history::ChangeRow],
    resolved: &Resolved,
    first_seen: &mut BTreeMap<String, String>,
) {
    for row in rows.iter().filter(|r| r.event != "removed") {
        let Some(slug) = resolved.lookup(&row.model_id) else {
            continue;
        };
        let seen = first_seen
            .entry(slug.to_string())
            .or_insert_with(|| row.observed_date.clone());
        if row.observed_date < *seen {
            seen.clone_from(&row.observed_date);
        }
    }
}

/// Models after entity resolution.
pub struct Resolved {
    /// Canonical models keyed by slug, each with the records that make it up (best first).
    pub models: BTreeMap<String, Vec<ModelRecord>>,
    /// Every name (slug spellings and join keys) a model is known by → its canonical slug.
    pub index: BTreeMap<String, String>,
    /// One offering per (model, provider).
    pub offerings: Vec<entity::offering::Model>,
}

impl Resolved {
    /// The canonical slug for any spelling of a model name, if known.
    pub fn lookup(&self, raw: &str) -> Option<&str> {
        let p = names::parse(raw);
        if let Some(s) = self.index.get(&p.key).or_else(|| self.index.get(&p.slug)) {
            return Some(s);
        }
        // A display name whose `/` is part of the name (`LLaVA (ViT-L/16-224)`).
        if identities::is_display_name(raw)
            && let Some(s) = self.index.get(&names::parse(&names::slugify(raw)).key)
        {
            return Some(s);
        }
        // An undated spelling of a known dated model.
        names::split_date(&p.key)
            .and_then(|(head, _)| self.index.get(head))
            .map(String::as_str)
    }
}

/// A model as the same-name rule sees it: its records' best name, creator and the words of
/// the organisations its ids may carry as a prefix.
fn candidate(key: &str, recs: &[ModelRecord]) -> Option<identities::Candidate> {
    let creator = identities::model_creator(key, recs);
    let mut vendor_words = creator
        .as_deref()
        .map(identities::creator_words)
        .unwrap_or_default();
    for r in recs {
        let orgs = r
            .provider
            .iter()
            .chain(r.parsed.iter().filter_map(|p| p.vendor.as_ref()));
        for org in orgs {
            vendor_words.extend(names::slugify(org).split('-').map(str::to_string));
        }
    }
    Some(identities::Candidate {
        key: key.to_string(),
        name: identities::model_name(recs)?,
        creator,
        vendor_words,
        // A gateway's price list does not vote on which spelling names the model.
        records: recs
            .iter()
            .filter(|r| r.source != sources::litellm::SOURCE)
            .count(),
        offered: recs.iter().any(|r| r.prices.is_some()),
        plain_in_table: recs
            .iter()
            .any(|r| r.rank >= BENCHMARK_RANK && !identities::says_served(&r.raw_id)),
    })
}

/// Authority first; within a rank, records naming this exact snapshot before undated aliases.
fn record_order(r: &ModelRecord, key: &str) -> (u8, bool, String, String) {
    let exact = r.parsed.as_ref().is_some_and(|p| p.key == key);
    (
        r.rank,
        !exact,
        r.provider.clone().unwrap_or_default(),
        r.raw_id.clone(),
    )
}

/// Date part of a key as a comparable string (`20241022`, `2024-10-22` → `20241022`).
fn date_rank(date: &str) -> String {
    let d = date.replace('-', "");
    if d.len() == 4 { format!("0000{d}") } else { d }
}

/// Vendor prefixes written with a dash, and the creator they name.
const DASH_VENDORS: &[(&str, &str)] = &[
    ("openai-", "openai"),
    ("anthropic-", "anthropic"),
    ("google-", "google"),
    ("meta-", "meta"),
    ("mistralai-", "mistral"),
    ("mistral-", "mistral"),
    ("deepseek-ai-", "deepseek"),
    ("deepseek-", "deepseek"),
    ("moonshotai-", "moonshotai"),
    ("moonshot-", "moonshotai"),
    ("alibaba-", "alibaba"),
    ("qwen-", "alibaba"),
    ("x-ai-", "xai"),
    ("xai-", "xai"),
    ("xiaomi-", "xiaomi"),
    ("cohere-", "cohere"),
    ("amazon-", "amazon"),
    ("microsoft-", "microsoft"),
    ("nvidia-", "nvidia"),
    ("moonshotai-", "moonshotai"),
    ("minimax-", "minimax"),
    ("z-ai-", "zhipuai"),
    ("zai-", "zhipuai"),
];

/// Reads a record whose id or name says which host serves it as the model that host
/// serves (see the comments below); other records are left as they are.
fn read_through_host(r: &mut ModelRecord, hosts: &BTreeSet<String>, keys: &BTreeSet<String>) {
    // A host writing its own name before a known model's (`databricks-gpt-5`) sells
    // that model (and `deepseek-chat` at DeepSeek stays `deepseek-chat`); so does a
    // router naming the cloud it goes through (`azure-gpt-4o` at NanoGPT,
    // `cerebras-llama-4-scout-17b-16e-instruct` at the Llama API).
    let prefixed = r.provider.iter().chain(hosts).find_map(|h| {
        identities::without_host_prefix(Some(h), &r.raw_id).map(|rest| (h.as_str(), rest))
    });
    if let Some((host, rest)) = prefixed {
        let parsed = names::parse(rest);
        let own_creator = r
            .parsed
            .as_ref()
            .and_then(|p| names::creator_for(None, &p.key));
        // Another host's name only where the id as a whole names no creator.
        let own_host = r.provider.as_deref() == Some(host);
        let named = names::creator_for(None, &parsed.key);
        if own_creator != Some(host)
            && (own_host || own_creator.is_none() && named != Some(host))
            && keys.contains(&parsed.key)
            && named.is_some()
        {
            r.parsed = Some(parsed);
            // `Cerebras-Llama-4-Scout-17B-16E-Instruct` is the host's label, not the
            // model's name.
            if r.name
                .as_deref()
                .is_some_and(|n| names::slugify(n).starts_with(&format!("{host}-")))
            {
                r.name = None;
            }
        }
    }
    // A host's bot at a router, marked with the host's initials (Poe's
    // `cerebras/llama-3.1-8b-cs`), runs the model its id names; its name is the bot's.
    if let Some((owner, model)) = identities::owner_marked(&r.raw_id) {
        let parsed = names::parse(model);
        let creator = names::creator_for(None, &parsed.key);
        if keys.contains(&parsed.key) && creator.is_some_and(|c| !owner.eq_ignore_ascii_case(c)) {
            r.parsed = Some(parsed);
            r.name = None;
        }
    }
    // A host's product that names the model it runs (GitLab Duo's `duo-chat-opus-4-5`,
    // "Agentic Chat (Claude Opus 4.5)"; AIHubMix's `alicloud-deepseek-v4-flash`,
    // "DeepSeek V4 Flash (Alibaba Cloud)") sells that model, where its own id names no
    // creator. Only sold products: a paper's method (`Chameleon (GPT-4)`) is not the
    // model it builds on.
    if let Some(inner) = r
        .name
        .as_deref()
        .filter(|_| r.prices.is_some())
        .and_then(|n| {
            identities::named_in_parentheses(n, |w| {
                hosts.iter().any(|h| h.split('-').next() == Some(w))
            })
        })
    {
        let parsed = names::parse(&names::slugify(inner));
        let own_creator = r
            .parsed
            .as_ref()
            .and_then(|p| names::creator_for(None, &p.key));
        if r.creator.is_none()
            && own_creator.is_none()
            && keys.contains(&parsed.key)
            && names::creator_for(None, &parsed.key).is_some()
        {
            r.parsed = Some(parsed);
        }
    }
}

/// Groups records into canonical models (see the module docs).
pub fn resolve(records: Vec<ModelRecord>) -> Resolved {
    let mut by_key: BTreeMap<String, Vec<ModelRecord>> = BTreeMap::new();
    let keys: BTreeSet<String> = records
        .iter()
        .filter_map(|r| r.parsed.as_ref().map(|p| p.key.clone()))
        .collect();
    let hosts: BTreeSet<String> = records.iter().filter_map(|r| r.provider.clone()).collect();
    // Ids read as another model's (below), kept as its aliases: (the id's slug, the key).
    let mut renamed: Vec<(String, String)> = Vec::new();
    for mut r in records {
        let own_slug = r.parsed.as_ref().map(|p| p.slug.clone());
        read_through_host(&mut r, &hosts, &keys);
        if let Some(p) = &r.parsed
            && !p.key.is_empty()
        {
            if let Some(own) = own_slug.filter(|s| *s != p.slug) {
                renamed.push((own, p.key.clone()));
            }
            by_key.entry(p.key.clone()).or_default().push(r);
        }
    }
    // Some providers write the vendor as a dash prefix (`openai-gpt-4o`,
    // `meta-llama-3-8b-instruct`): such a key joins the unprefixed one when that names a model
    // of the same creator (so `deepseek-v3.2` or `minimax-m2-her` stay as they are).
    // The rest is parsed again, so a vendor's own word order applies (`anthropic-claude-4.6-opus`
    // joins `claude-opus-4-6`).
    let mut prefixed: Vec<(String, String)> = by_key
        .keys()
        .filter_map(|k| {
            DASH_VENDORS.iter().find_map(|(prefix, creator)| {
                let rest = names::parse(k.strip_prefix(prefix)?).key;
                (by_key.contains_key(&rest) && names::creator_for(None, &rest) == Some(*creator))
                    .then(|| (k.clone(), rest))
            })
        })
        .collect();
    // Run configurations sold or listed under their own id (`claude-sonnet-4-5-thinking`,
    // `gemini-3.1-pro-preview-high`) are the model they configure.
    let configured: Vec<(String, String)> = by_key
        .keys()
        .filter(|k| !prefixed.iter().any(|(from, _)| from == *k))
        .filter_map(|k| identities::configured(k, |base| by_key.contains_key(base)))
        .map(|(k, base)| (k.to_string(), base))
        .collect();
    prefixed.extend(configured);
    prefixed.extend(identities::phantom_snapshots(&by_key));
    prefixed.extend(identities::context_labelled(&by_key));
    for (from, to) in &prefixed {
        if let Some(recs) = by_key.remove(from) {
            by_key.entry(to.clone()).or_default().extend(recs);
        }
    }
    // For each undated key, the dated keys that share its stem, newest first.
    let mut snapshots: BTreeMap<&str, Vec<(String, &str)>> = BTreeMap::new();
    for key in by_key.keys() {
        if let Some((stem, date)) = names::split_date(key) {
            snapshots
                .entry(stem)
                .or_default()
                .push((date_rank(date), key.as_str()));
        }
    }
    let newest: BTreeMap<String, (Vec<&str>, String)> = snapshots
        .into_iter()
        .map(|(stem, mut dated)| {
            dated.sort_by(|a, b| b.cmp(a));
            let keys: Vec<&str> = dated.iter().map(|(_, k)| *k).collect();
            let first = keys.first().map(|k| k.to_string()).unwrap_or_default();
            (stem.to_string(), (keys, first))
        })
        .collect();
    let mut groups: BTreeMap<String, Vec<ModelRecord>> = BTreeMap::new();
    let mut index: BTreeMap<String, String> = BTreeMap::new();
    let mut key_owner: BTreeMap<String, String> = BTreeMap::new();
    let all_keys: BTreeSet<String> = by_key.keys().cloned().collect();
    let targets: Vec<String> = by_key
        .iter()
        .map(|(key, recs)| match newest.get(key) {
            Some((snapshots, dated)) if names::split_date(key).is_none() => {
                identities::named_snapshot(key, recs, &all_keys)
                    .or_else(|| identities::by_window(recs, snapshots, &by_key))
                    .unwrap_or_else(|| dated.clone())
            }
            _ => key.clone(),
        })
        .collect();
    drop(newest);
    for ((key, recs), target) in by_key.into_iter().zip(targets) {
        key_owner.insert(key, target.clone());
        groups.entry(target).or_default().extend(recs);
    }
    // Spellings no rule above joins but that every source names alike are one model when
    // nothing in them says otherwise (`identities::same_name`): names as they are first,
    // then, over what is left, without the served words sellers leave out of names.
    for unsaid in [false, true] {
        for (key, recs) in groups.iter_mut() {
            recs.sort_by_key(|r| record_order(r, key));
        }
        let candidates: Vec<identities::Candidate> = groups
            .iter()
            .filter_map(|(key, recs)| candidate(key, recs))
            .collect();
        for (from, into) in identities::same_name(&candidates, unsaid) {
            if let Some(recs) = groups.remove(&from) {
                groups.entry(into.clone()).or_default().extend(recs);
            }
            for owner in key_owner.values_mut() {
                if *owner == from {
                    owner.clone_from(&into);
                }
            }
        }
    }
    // models.dev's maintainers say which model a provider's entry is (`base_model`): a
    // group with no metadata file of its own whose entries name one base joins that base's
    // model (Bedrock's `nvidia.nemotron-nano-9b-v2`, listed alone as `nemotron-nano-9b`, is
    // `nemotron-nano-9b-v2`), unless it is a dated snapshot of it (the undated name joins
    // the snapshot instead). A model with a file of its own stays itself, whatever one
    // host's entry says (docs/methodology.md, "Identity").
    let mut joins: Vec<(String, String)> = identities::reordered(&groups, &key_owner);
    joins.extend(
        groups
            .iter()
            .filter(|(_, recs)| recs.iter().all(|r| r.rank > 0))
            .filter_map(|(key, recs)| {
                let entries: Vec<&ModelRecord> = recs
                    .iter()
                    .filter(|r| r.source == sources::models_dev::SOURCE)
                    .collect();
                let bases: BTreeSet<&str> = entries
                    .iter()
                    .filter_map(|r| r.based_on.as_deref())
                    .collect();
                let [base] = bases.into_iter().collect::<Vec<_>>()[..] else {
                    return None;
                };
                // Most of the group's entries say so: one host's slip (a distill's entry naming
                // the model it distils) moves nothing.
                let saying = entries.iter().filter(|r| r.based_on.is_some()).count();
                let into = key_owner.get(base)?;
                let snapshot = names::split_date(key).is_some_and(|(stem, _)| stem == base);
                // Two snapshots of different dates stay two models.
                let other_date = names::split_date(key)
                    .zip(names::split_date(into))
                    .is_some_and(|((_, a), (_, b))| a != b);
                // A host's short spelling of the base's own id needs no majority.
                ((2 * saying > entries.len() || identities::shortened(key, base))
                    && into != key
                    && !snapshot
                    && !other_date
                    && groups.contains_key(into))
                .then(|| (key.clone(), into.clone()))
            }),
    );
    for (from, into) in joins {
        if let Some(recs) = groups.remove(&from) {
            groups.entry(into.clone()).or_default().extend(recs);
        }
        for owner in key_owner.values_mut() {
            if *owner == from {
                owner.clone_from(&into);
            }
        }
    }
    // The prefixed spellings stay names of the model they joined.
    for (from, to) in prefixed {
        if let Some(group) = key_owner.get(&to).cloned() {
            key_owner.insert(from, group);
        }
    }
    // A mode entry alone never makes a model: OpenRouter's `openai/gpt-6.1-terra-pro:batch`
    // is a batch price of a model no source lists (docs/data.md, "Price modes").
    groups.retain(|_, recs| recs.iter().any(|r| r.mode.is_none()));
    // Nor does a floating alias that names no version (`~anthropic/claude-haiku-latest`,
    // `grok-latest`): it is whichever model its maker's line serves today, and its price
    // changes when the target does (docs/methodology.md, "Identity"). A versioned one
    // (`chatgpt-4o-latest`) is a model its maker sells under that id.
    groups.retain(|key, recs| {
        key.bytes().any(|b| b.is_ascii_digit())
            || !recs.iter().all(|r| {
                let id = r.raw_id.to_ascii_lowercase();
                id.starts_with('~') || id.ends_with("latest")
            })
    });
    let mut models = BTreeMap::new();
    let mut slug_of_group = BTreeMap::new();
    for (key, mut recs) in groups {
        recs.sort_by_key(|r| record_order(r, &key));
        // The slug is the best record's own spelling of the (dated) key.
        let slug = recs
            .iter()
            .filter_map(|r| r.parsed.as_ref())
            .find(|p| p.key == key)
            .map(|p| p.slug.clone())
            .unwrap_or_else(|| key.clone());
        slug_of_group.insert(key, slug.clone());
        models.insert(slug, recs);
    }
    for (key, group) in &key_owner {
        if let Some(slug) = slug_of_group.get(group) {
            index.insert(key.clone(), slug.clone());
        }
    }
    for (own, key) in renamed {
        if let Some(slug) = key_owner.get(&key).and_then(|g| slug_of_group.get(g)) {
            index.entry(own).or_insert_with(|| slug.clone());
        }
    }
    for (slug, recs) in &models {
        index.entry(slug.clone()).or_insert_with(|| slug.clone());
        for p in recs.iter().filter_map(|r| r.parsed.as_ref()) {
            index.entry(p.slug.clone()).or_insert_with(|| slug.clone());
        }
        // LiteLLM's dated ids joined to the undated model they name are its aliases.
        for r in recs.iter().filter(|r| r.source == sources::litellm::SOURCE) {
            index
                .entry(names::parse(&r.raw_id).slug)
                .or_insert_with(|| slug.clone());
        }
    }
    let offerings = pick_offerings(&models);
    Resolved {
        models,
        index,
        offerings,
    }
}

/// How much a source's price is trusted at a provider: genai-prices (a curated price library
/// that dates its changes) before LiteLLM (the price list gateways bill by) before models.dev
/// (a metadata catalogue whose prices are often copied) before anything else.
fn precedence(source: &str) -> u8 {
    match source {
        sources::genai_prices::SOURCE => 0,
        sources::litellm::SOURCE => 1,
        sources::models_dev::SOURCE => 2,
        _ => 3,
    }
}

/// Two prices equal within rounding: half a percent, or a thousandth of a dollar.
pub fn same_price(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 0.001 + 0.005 * a.abs().max(b.abs()),
        _ => true,
    }
}

/// States each offering's witnesses against its price as finally served (a dated price of
/// the served source may have replaced the price its record lists): the served source's
/// witness shows that price, each witness whether it agrees, and the offering is disputed
/// when a witness listing the same id (by join key; another id, such as an undated alias,
/// may name another snapshot) states another standard price.
fn settle_witnesses(offerings: &mut [entity::offering::Model]) {
    use entity::offering::Witness;
    for o in offerings.iter_mut() {
        let mut witnesses = Witness::decode(o.sources.as_deref());
        let own = names::parse(&o.provider_model_id).key;
        let mut disputed = false;
        for w in &mut witnesses {
            if w.source == o.source && w.provider_model_id == o.provider_model_id {
                w.input_price = o.input_price;
                w.output_price = o.output_price;
            }
            w.agrees = same_price(w.input_price, o.input_price)
                && same_price(w.output_price, o.output_price);
            disputed |= !w.agrees && names::parse(&w.provider_model_id).key == own;
        }
        o.sources = Witness::encode(&witnesses);
        o.disputed = disputed;
    }
}

/// `variants` with the modes the mode entries price that they lack (a source's own variant
/// of a mode stands), in [`entity::offering::Variant::MODES`] order.
fn with_modes(
    variants: &[entity::offering::Variant],
    mode_entries: &[&ModelRecord],
) -> Vec<entity::offering::Variant> {
    use entity::offering::Variant;
    let mut out = variants.to_vec();
    for r in mode_entries {
        let (Some(mode), Some(p)) = (r.mode, r.prices.as_ref()) else {
            continue;
        };
        if out.iter().any(|v| v.mode == mode) {
            continue;
        }
        out.push(Variant {
            mode: mode.to_string(),
            input_price: p.input,
            output_price: p.output,
            cache_read_price: p.cache_read,
            cache_write_price: p.cache_write,
            tiers: p.tiers.clone(),
        });
    }
    out.sort_by_key(|v| Variant::MODES.iter().position(|m| *m == v.mode));
    out
}

/// One offering per (model, provider), from the most trusted source that prices it there
/// ([`precedence`]), the provider's id for this exact snapshot before an undated alias, then
/// the shortest id. Every source pricing it there is a witness; the offering is disputed
/// when one states another standard price. Variants come from the served record, else from
/// a witness that has them.
fn pick_offerings(models: &BTreeMap<String, Vec<ModelRecord>>) -> Vec<entity::offering::Model> {
    use entity::offering::{Variant, Witness};
    let mut out = Vec::new();
    for (slug, recs) in models {
        let score = |r: &ModelRecord| {
            let exact = r.parsed.as_ref().is_some_and(|p| p.slug == *slug);
            // Router variants (`:free`) are not the provider's regular offering.
            (
                precedence(r.source),
                r.raw_id.contains(':'),
                !exact,
                r.raw_id.len(),
                r.raw_id.clone(),
            )
        };
        // The best record of each source at each provider.
        let mut best: BTreeMap<&str, BTreeMap<u8, &ModelRecord>> = BTreeMap::new();
        // Mode entries (`…:batch`) at each provider, the most trusted source's first: they
        // are variants of the provider's offering, never its standard price.
        let mut modes: BTreeMap<&str, Vec<&ModelRecord>> = BTreeMap::new();
        for r in recs
            .iter()
            .filter(|r| r.prices.is_some() && r.mode.is_some())
        {
            if let Some(provider) = r.provider.as_deref() {
                modes.entry(provider).or_default().push(r);
            }
        }
        for list in modes.values_mut() {
            list.sort_by_key(|r| score(r));
        }
        for r in recs
            .iter()
            .filter(|r| r.prices.is_some() && r.mode.is_none())
        {
            let Some(provider) = r.provider.as_deref() else {
                continue;
            };
            let slot = best.entry(provider).or_default();
            match slot.get(&precedence(r.source)) {
                Some(cur) if score(cur) <= score(r) => {}
                _ => {
                    slot.insert(precedence(r.source), r);
                }
            }
        }
        for (provider, by_source) in best {
            let mode_entries = modes.remove(provider).unwrap_or_default();
            // A provider known only by its mode entries states no standard price: no
            // offering (its batch price alone would be read as the price to pay).
            let Some(r) = by_source.values().next().copied() else {
                continue;
            };
            let prices = r.prices.clone().unwrap_or_default();
            let witnesses: Vec<Witness> = by_source
                .values()
                .map(|w| {
                    let p = w.prices.clone().unwrap_or_default();
                    Witness {
                        source: w.source.to_string(),
                        provider_model_id: w.raw_id.clone(),
                        agrees: same_price(p.input, prices.input)
                            && same_price(p.output, prices.output),
                        input_price: p.input.map(prices::six_digits),
                        output_price: p.output.map(prices::six_digits),
                    }
                })
                .collect();
            // A witness's modes where it agrees on the standard price.
            let variants = std::iter::once(&prices.variants)
                .chain(
                    by_source
                        .values()
                        .zip(&witnesses)
                        .filter(|(_, w)| w.agrees)
                        .filter_map(|(r, _)| r.prices.as_ref().map(|p| &p.variants)),
                )
                .find(|v| !v.is_empty())
                .map_or(&[][..], Vec::as_slice);
            let variants = with_modes(variants, &mode_entries);
            out.push(entity::offering::Model {
                id: 0,
                model_slug: slug.clone(),
                provider_slug: provider.to_string(),
                provider_model_id: r.raw_id.clone(),
                input_price: prices.input,
                output_price: prices.output,
                cache_read_price: prices.cache_read,
                cache_write_price: prices.cache_write,
                tiers: entity::offering::Tier::encode(&prices.tiers),
                unit_prices: entity::offering::UnitPrice::encode(&prices.unit_prices),
                variants: Variant::encode(&variants),
                upcoming: None,
                regions: None,
                disputed: false,
                sources: Witness::encode(&witnesses),
                deprecation_date: None,
                context_window: r.context,
                as_of: r.as_of.clone(),
                source: r.source.to_string(),
                // Set with every offering's kind by `prices::apply`.
                kind: OfferingKind::Reseller,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(source: &'static str, provider: &str, id: &str, input: f64) -> ModelRecord {
        ModelRecord {
            source,
            provider: Some(provider.into()),
            raw_id: id.into(),
            parsed: Some(names::parse(id)),
            rank: 3,
            prices: Some(Prices {
                input: Some(input),
                ..Prices::default()
            }),
            ..ModelRecord::default()
        }
    }

    #[test]
    fn excluding_an_unknown_source_is_refused() {
        let opts = Options {
            sources: PathBuf::from("/nonexistent"),
            price_changes: None,
            exclude: ["swe-bench".to_string(), "swebench".to_string()].into(),
            archive: None,
            observed: Default::default(),
            today: None,
            labels: None,
            prior: None,
        };
        let e = run(&opts).err().map(|e| e.0).unwrap_or_default();
        assert!(
            e.contains("--exclude swebench") && e.contains("swe-bench"),
            "{e}"
        );
    }

    #[test]
    fn dash_vendor_prefixes_join_the_model_of_that_vendor_only() {
        let r = resolve(vec![
            rec("models-dev", "openai", "gpt-4o-2024-11-20", 2.5),
            rec(
                "models-dev",
                "digitalocean",
                "openai-gpt-4o-2024-11-20",
                2.5,
            ),
            rec("models-dev", "deepseek", "deepseek-v3.2", 0.3),
            rec("models-dev", "other", "v3.2", 0.3),
        ]);
        assert_eq!(
            r.lookup("openai-gpt-4o-2024-11-20"),
            Some("gpt-4o-2024-11-20")
        );
        assert_eq!(
            r.lookup("deepseek-v3.2"),
            Some("deepseek-v3.2"),
            "v3.2 is no DeepSeek model name"
        );
    }

    #[test]
    fn undated_names_join_the_newest_snapshot_and_stay_aliases() {
        let r = resolve(vec![
            rec("genai-prices", "openai", "gpt-4o", 2.5),
            rec("models-dev", "openai", "gpt-4o-2024-05-13", 5.0),
            rec("models-dev", "openai", "gpt-4o-2024-11-20", 2.5),
            rec("models-dev", "openrouter", "openai/gpt-4o-2024-11-20", 2.6),
        ]);
        assert_eq!(
            r.models.keys().collect::<Vec<_>>(),
            ["gpt-4o-2024-05-13", "gpt-4o-2024-11-20"]
        );
        assert_eq!(r.lookup("gpt-4o"), Some("gpt-4o-2024-11-20"));
        assert_eq!(r.lookup("openai/gpt-4o"), Some("gpt-4o-2024-11-20"));
        assert_eq!(r.lookup("gpt-4o-2024-05-13"), Some("gpt-4o-2024-05-13"));
        // One offering per provider; the pricing dataset wins at openai.
        let newest: Vec<_> = r
            .offerings
            .iter()
            .filter(|o| o.model_slug == "gpt-4o-2024-11-20")
            .collect();
        assert_eq!(newest.len(), 2);
        assert_eq!(newest[0].provider_slug, "openai");
        assert_eq!(newest[0].source, "genai-prices");
        assert_eq!(newest[0].input_price, Some(2.5));
    }
}
