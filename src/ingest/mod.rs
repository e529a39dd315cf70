//! `mds ingest`: reads the raw public datasets and writes one normalized snapshot.
//!
//! Each adapter ([`sources`]) turns one source into [`ModelRecord`]s (a model as one source names it,
//! with whatever that source knows about it and its price there). [`run`] is the pipeline,
//! one named step per line, each in the module of its concern:
//!
//! 1. read the sources ([`sources::read_all`]) and drop what is out of range ([`validate`]);
//! 2. route plan ids to their plan and mark mode entries ([`resolution::route_plans_and_modes`]);
//! 3. a first resolution, with the benchmarks' own models ([`resolution::first_pass`]);
//! 4. join LiteLLM's entries to it ([`sources::litellm::join`]);
//! 5. resolve every record into models and offerings ([`resolution::resolve`]);
//! 6. read the price history ([`history`]) and settle each offering's price ([`offerings`],
//!    whose docs state the whole precedence);
//! 7. attach scores ([`scores`]) and LiteLLM's witnesses, and LiteLLM's observed history;
//! 8. carry the served dataset's history ([`prior`]), find derivations ([`derivations`]);
//! 9. finish the catalogue (the field vote, [`catalog`] and [`merge`]; what a model's line
//!    says of it, [`lines`]), then count the rules
//!    ([`rule_counts`]) and score the labels ([`labels`]).
//!
//! Resolution gives every model one canonical slug: records whose names normalize to the
//! same join key are one model; an undated name (`gpt-4o`) joins the newest dated snapshot
//! (`gpt-4o-2024-11-20`) and stays reachable as an alias. Scores and history rows are
//! attached afterwards through the alias index, and what cannot be attached is reported per
//! source.

pub mod benchmarks;
pub mod budget;
pub mod calibration;
pub mod capability;
pub mod catalog;
pub mod curation;
pub mod derivations;
pub mod domains;
pub mod economy;
pub mod first_seen;
pub mod history;
pub mod identities;
pub mod labels;
pub mod lines;
pub mod merge;
pub mod modes;
pub mod names;
pub mod offerings;
pub mod prices;
pub mod prior;
pub mod provenance;
pub mod rankings;
pub mod report;
pub mod resolution;
pub mod review;
pub mod rule_counts;
pub mod scores;
pub mod sources;
pub mod validate;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use entity::vocab::Task;

use crate::snapshot::{FORMAT, Snapshot};
pub use offerings::{below_batch, same_price};
pub use report::Report;
pub use resolution::{Resolved, resolve};

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
    /// The `open_weights: false` is a default its host writes for nearly every model
    /// (`sources::models_dev`): no vote on open weights, though it still marks a
    /// community fine-tune's host listing (`identities::unvouched`).
    pub closed_by_default: bool,
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
    /// model's ([`resolution`]).
    pub based_on: Option<String>,
    /// Keys the creator's own record says name this same model: the Hugging Face ids its
    /// metadata file names as its weights (models.dev's `weights`: hosts' spellings of the
    /// checkpoint, `Devstral-2-123B-Instruct-2512` for Mistral's `devstral-2512`), the ids
    /// its own price entry matches exactly (genai-prices' `match`: xAI's
    /// `grok-4-1-fast-reasoning` entry matches `grok-4-1-fast`).
    pub same_as: Vec<String>,
    /// Days a price entry's exact ids give its own id (a router's `anthropic/claude-fable-5.1`
    /// matches `anthropic/claude-fable-5.1-20260831`): the seller's word for the day the
    /// model came out, heard as its other dates are (docs/data.md, "Release dates").
    pub id_days: Vec<String>,
    /// The ids, as written, a creator's own price entry bills exactly (genai-prices'
    /// `equals`): each that is a model of its own is offered at the entry's price
    /// ([`offerings::billed_ids`]).
    pub bills: Vec<String>,
    /// The entry is a price rule for ids that begin with its own (genai-prices' `match` with
    /// `starts_with` and no exact id: OpenAI's `computer-use`), not an id of its own.
    pub prefix_rule: bool,
    /// Whether the source marks the model deprecated at this provider (genai-prices'
    /// `deprecated`, models.dev's `status = "deprecated"`); only the creator's own entries
    /// speak for the model (docs/data.md, "Lifecycle").
    pub deprecated: Option<bool>,
    /// The day the creator shut the model down, where a benchmark table's notes record it
    /// (Epoch's "was deprecated 2024-01-04" beside OpenAI's deprecations page).
    pub shut_down: Option<String>,
    /// The day the source says the provider stopped selling this entry, at the latest
    /// (genai-prices' own comment: "No longer listed in Avian's model catalog (checked
    /// 2026-10-09)", "Sonar Chat Completions support ended on 2026-09-27"): the offering's
    /// `deprecation_date` (docs/data.md, "Ended sales").
    pub ended: Option<String>,
    /// The ids a creator's own price entry covers by its family rule (genai-prices' `match`
    /// with `starts_with` or `contains`: Google's `gemini-2.0-flash` entry contains
    /// `gemini-2.0-flash-exp`), as (`starts_with`?, pattern) pairs ([`covered_ends`]).
    pub covers: Vec<(bool, String)>,
}

/// The day the creator's own API stopped selling a model, where each of the creator's
/// price entries for it says its sale ended (Google's `gemini-3-pro-preview`, listed "(Shut
/// down)"): the latest. One entry still on sale (Perplexity's Agent API `perplexity/sonar`
/// beside its ended `sonar`) keeps the model current (docs/data.md, "Ended sales").
fn creator_stopped(recs: &[ModelRecord]) -> Option<String> {
    let own: Vec<&ModelRecord> = recs
        .iter()
        .filter(|r| {
            r.source == sources::genai_prices::SOURCE
                && r.rank <= 2
                && r.mode.is_none()
                && r.prices.is_some()
        })
        .collect();
    if own.iter().any(|r| r.ended.is_none()) {
        return None;
    }
    own.iter().filter_map(|r| r.ended.clone()).max()
}

/// The day the creator's own API stopped selling each model it lists no price of its own for,
/// where a creator's entry whose sale ended, or whose model retired, covers one
/// of the model's ids by its family rule (Google's `gemini-2.0-flash` entry, listed "(Shut
/// down)", contains `gemini-2.0-flash-exp` and `gemini-2.0-flash-thinking`; its
/// `gemini-2.5-flash-preview` entry, "should be retired 2025-07-15", contains
/// `gemini-2.5-flash-preview-04-17`): that entry's day (docs/data.md, "Ended sales").
fn covered_ends(resolved: &resolution::Resolved) -> BTreeMap<String, String> {
    let ended: Vec<(&ModelRecord, &str)> = resolved
        .models
        .values()
        .flatten()
        .filter(|r| r.rank <= 2 && !r.covers.is_empty())
        .filter_map(|r| Some((r, r.ended.as_deref().or(r.shut_down.as_deref())?)))
        .collect();
    let mut names: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (alias, slug) in &resolved.index {
        names.entry(slug.as_str()).or_default().push(alias.as_str());
    }
    let mut out = BTreeMap::new();
    for (slug, recs) in &resolved.models {
        let creator = names::creator_for(None, &names::parse(slug).key);
        // The creator's own listing of the model, in any source, speaks for it.
        let priced_own = recs
            .iter()
            .any(|r| creator.is_some() && r.provider.as_deref() == creator && r.prices.is_some());
        if priced_own {
            continue;
        }
        let ids = names.get(slug.as_str()).into_iter().flatten().copied();
        let ids: Vec<&str> = ids.chain([slug.as_str()]).collect();
        let day = ended
            .iter()
            .filter(|(r, _)| creator.is_some() && r.provider.as_deref() == creator)
            .filter(|(r, _)| {
                r.covers.iter().any(|(starts, pattern)| {
                    ids.iter().any(|id| {
                        if *starts {
                            id.starts_with(pattern.as_str())
                        } else {
                            id.contains(pattern.as_str())
                        }
                    })
                })
            })
            .map(|(_, day)| *day)
            .max();
        if let Some(day) = day {
            out.insert(slug.clone(), day.to_string());
        }
    }
    out
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

/// Why an ingest run failed. Each names the file (or the option) at fault, as `mds ingest`
/// and `mds sync` print it.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file is not what its reader expects (its syntax, or its shape).
    #[error("{}: {reason}", path.display())]
    Parse { path: PathBuf, reason: String },
    /// A file is over the parse budget ([`budget`], docs/security.md).
    #[error("{}: over the parse budget: {what}", path.display())]
    TooLarge { path: PathBuf, what: String },
    /// `--exclude` names no source.
    #[error("--exclude {name}: no such source (sources: {})", known.join(", "))]
    UnknownSource {
        name: String,
        known: Vec<&'static str>,
    },
    /// A reviewed table checked in with the build (`data/*.csv`) does not parse.
    #[error("{0}")]
    Reviewed(String),
}

impl IngestError {
    /// A file that does not parse, for any parser's error.
    pub fn parse(path: &Path, e: impl std::fmt::Display) -> Self {
        Self::Parse {
            path: path.to_path_buf(),
            reason: e.to_string(),
        }
    }
}

pub(crate) fn read_json(path: &Path) -> Result<serde_json::Value, IngestError> {
    let bytes = std::fs::read(path).map_err(|source| IngestError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    budget::structure(path, &bytes, true)?;
    serde_json::from_slice(&bytes).map_err(|e| IngestError::parse(path, e))
}

/// The sources `--exclude` can leave out, by slug: every adapter's, and the price history.
pub fn source_names() -> Vec<&'static str> {
    sources::ALL
        .iter()
        .map(|s| s.slug())
        .chain([history::SOURCE])
        .collect()
}

/// The days of one run: the day whose prices are current, and the day each priced source's
/// copy was observed (its prices are as of it).
#[derive(Debug, Clone)]
pub struct Days {
    /// genai-prices' live feed: observed by `mds sync`, else its bundled snapshot date.
    pub genai_prices: String,
    /// LiteLLM's cost map: likewise.
    pub litellm: String,
    /// The day whose prices are current ([`Options::today`]), never before the live feed's.
    pub today: String,
}

impl Days {
    pub fn of(opts: &Options) -> Self {
        let observed = |source: &str, bundled: &'static str| {
            opts.observed
                .get(source)
                .map_or(bundled, String::as_str)
                .to_string()
        };
        let genai_prices = observed(sources::genai_prices::SOURCE, sources::genai_prices::AS_OF);
        let today = opts
            .today
            .as_deref()
            .unwrap_or(&genai_prices)
            .max(&genai_prices)
            .to_string();
        Self {
            litellm: observed(sources::litellm::SOURCE, sources::litellm::AS_OF),
            genai_prices,
            today,
        }
    }
}

/// A misspelt exclusion would silently keep the source it meant to drop.
fn check_exclusions(opts: &Options) -> Result<(), IngestError> {
    let names = source_names();
    match opts.exclude.iter().find(|x| !names.contains(&x.as_str())) {
        Some(unknown) => Err(IngestError::UnknownSource {
            name: unknown.clone(),
            known: names,
        }),
        None => Ok(()),
    }
}

/// Runs every adapter and builds the snapshot: the pipeline of the module docs, step by step.
pub fn run(opts: &Options) -> Result<(Snapshot, Report), IngestError> {
    check_exclusions(opts)?;
    let days = Days::of(opts);
    let mut report = Report::default();
    let mut found = sources::read_all(opts, &mut report)?;
    validate::drop_invalid(&mut found, &mut report);
    let sources::Collected {
        mut records,
        providers: mut provider_meta,
        scores: raw_scores,
        agents: raw_agents,
        genai_prices: genai,
        witnesses,
        mut offers,
        described,
    } = found;
    history::date_live_prices(&mut records, &days.genai_prices);
    resolution::route_plans_and_modes(
        records
            .iter_mut()
            .chain(offers.iter_mut().map(|o| &mut o.record)),
        &mut provider_meta,
        &mut report,
    );

    let first_pass = resolution::first_pass(&mut records, &raw_scores, &mut report);
    let apart = sources::litellm::join::own_snapshots(&offers, &first_pass);
    let litellm_offers = sources::litellm::join::offers(
        offers,
        &first_pass,
        &apart,
        &days.litellm,
        &mut records,
        &mut report,
    );
    sources::litellm::join::described(described, &first_pass, &apart, &mut records);
    if let Some(live) = &genai {
        history::date_mode_entries(live, &days.today, &mut records);
    }
    let mut resolved = resolve(records);

    let mut first_seen = first_seen::in_records(&resolved, &opts.observed);
    let mut starts = first_seen::starts(&resolved, &opts.observed);
    let genai_history = history::read_genai_prices(
        opts,
        &days,
        genai.as_ref(),
        &resolved,
        &mut first_seen,
        &mut report,
    )?;
    if let Some(h) = &genai_history {
        if let Some(since) = &h.since {
            first_seen::lower(&mut starts, sources::genai_prices::SOURCE, since);
        }
        if let Some(since) = &h.copies_since {
            first_seen::lower(&mut starts, "genai-prices copies", since);
        }
    }
    let openings = genai_history
        .as_ref()
        .map(|h| h.openings.clone())
        .unwrap_or_default();
    let thinking = offerings::settle(
        &mut resolved,
        genai_history.as_ref().map(|h| &h.current),
        genai.as_ref(),
        &days.today,
        &litellm_offers,
    );
    report.rule("price modes: hosts' thinking products folded", thinking);
    let mut snapshot = Snapshot {
        format: FORMAT,
        price_history: genai_history.map(|h| h.periods).unwrap_or_default(),
        ..Snapshot::default()
    };

    scores::attach(raw_scores, raw_agents, &resolved, &mut report).into_snapshot(&mut snapshot);
    let witnessed = sources::litellm::join::witnesses(witnesses, &resolved, &mut report);
    if !opts.exclude.contains(sources::litellm::SOURCE) {
        let since = sources::litellm::history::add_observed(
            opts,
            &days.litellm,
            &litellm_offers,
            &resolved,
            &mut first_seen,
            &mut snapshot.price_history,
        )?;
        first_seen::lower(&mut starts, sources::litellm::SOURCE, &since);
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
    first_seen::not_before_own_day(&mut first_seen);
    let stand_ins = first_seen::stand_ins(
        &resolved,
        &first_seen,
        &starts,
        &openings,
        opts.prior.as_deref(),
    );
    let derived = derivations::find(&resolved, &mut report);
    modes::drop_folded_periods(&mut snapshot.price_history, &resolved, &mut report);
    let labelled = labels::read_answers(opts.labels.as_deref(), &resolved)?;

    // A benchmark table's note that the creator shut a model down dates its retirement
    // where none of the creator's own entries does (they speak last, below; docs/data.md,
    // "Lifecycle").
    let mut shut_down: BTreeMap<String, String> = resolved
        .models
        .iter()
        .filter_map(|(slug, recs)| {
            let day = recs
                .iter()
                .find_map(|r| r.shut_down.clone())
                .or_else(|| creator_stopped(recs))?;
            Some((slug.clone(), day))
        })
        .collect();
    for (slug, day) in covered_ends(&resolved) {
        shut_down.entry(slug).or_insert(day);
    }
    let tables = catalog::Reviewed::checked_in().map_err(IngestError::Reviewed)?;
    let gaps = catalog::finish(
        &mut snapshot,
        resolved,
        provider_meta,
        &opts.exclude,
        &catalog::Observed {
            days: opts.observed.clone(),
            first_seen,
            today: days.today.clone(),
        },
        &tables,
        &catalog::Derived {
            bases: &derived.bases,
            unvouched: &derived.unvouched,
        },
    );
    for m in &mut snapshot.models {
        if let Some(day) = shut_down.get(&m.slug) {
            m.deprecation_date = Some(day.clone());
            m.deprecated = true;
            m.retired = day.as_str() <= days.today.as_str();
        }
    }
    sources::litellm::apply(
        &witnessed,
        &mut snapshot.models,
        &tables.prices.creators,
        &days.today,
    );
    for m in &mut snapshot.models {
        m.base_model = derived.bases.get(&m.slug).cloned();
    }
    first_seen::date(&mut snapshot.models, &stand_ins);

    report.catalogue(&snapshot, &gaps);
    rule_counts::count(&snapshot, &witnessed, &mut report);
    if let Some((labels, answers)) = labelled {
        report.labels = Some(labels::score(&labels, &answers, &snapshot));
    }
    Ok((snapshot, report))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let e = run(&opts).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            e.contains("--exclude swebench") && e.contains("swe-bench"),
            "{e}"
        );
    }
}
