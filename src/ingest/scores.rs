//! From what the sources state to scores of canonical models: each adapter
//! ([`super::sources`]) yields [`RawScore`]s and [`RawAgent`]s naming a model the way its
//! source does; [`attach`] resolves those names to canonical models (splitting run
//! configuration such as reasoning effort or function calling into `config`), picks the
//! headline score per (model, benchmark) and reports what it could not resolve.

use std::collections::{BTreeMap, BTreeSet};

use entity::{agent, agent_model, agent_score, benchmark, score};

use super::benchmarks::defs;
use super::names::{self, slugify};
use super::{Report, Resolved, identities};

/// A score as a source states it.
#[derive(Debug, Clone)]
pub struct RawScore {
    pub source: &'static str,
    pub benchmark: String,
    /// The benchmark's name where the source names a benchmark of its own (models.dev).
    pub benchmark_name: Option<String>,
    /// The model as the source names it.
    pub model: String,
    pub score: f64,
    pub config: Option<String>,
    /// When the source dates the figure: the day it was measured or published, or, for a
    /// benchmark renewed release by release, the release's day (see `release`).
    pub as_of: Option<String>,
    /// The benchmark release the figure is of (LiveBench's question sets), where the source
    /// renews its benchmark; `None` elsewhere.
    pub release: Option<String>,
    /// Where the source says the figure was published (a leaderboard, a technical report,
    /// a URL's host), read against `data/score_provenance.csv`.
    pub publication: Option<String>,
    /// The URL the figure can be checked at, where the source gives one.
    pub citation: Option<String>,
}

/// An agent result as a source states it.
#[derive(Debug, Clone)]
pub struct RawAgent {
    pub source: &'static str,
    pub benchmark: &'static str,
    pub name: String,
    pub organization: Option<String>,
    pub open_source: Option<bool>,
    pub models: Vec<String>,
    pub score: f64,
    pub as_of: Option<String>,
}

/// Run configurations that appear only in benchmark tables' model names, on top of those a
/// provider may also list as an id ([`identities::CONFIG_SUFFIXES`]). `-base` and `-max`
/// are stripped only to match a name no model has, never to fold two models.
const SCORE_CONFIG_SUFFIXES: &[&str] = &[
    "-reasoning",
    "-base",
    "-xhigh-effort",
    "-high-effort",
    "-medium-effort",
    "-low-effort",
    "-max",
];

/// Splits run configuration off a model name: `gpt-5-2025-08-07_high` → (`gpt-5-2025-08-07`,
/// `[effort=high]`); `claude-opus-4-5-20251101-thinking-64k-high-effort` → (…, [`thinking-64k`, `high-effort`]).
/// Returns every candidate spelling, longest first, each with the configuration it dropped.
pub fn candidates(raw: &str) -> Vec<(String, Vec<String>)> {
    // A display name with a `/` (`LLaVA (ViT-L/16-224)`) is one name, not vendor/model.
    let mut name = if identities::is_display_name(raw) {
        slugify(raw)
    } else {
        raw.trim().to_lowercase()
    };
    let mut config = Vec::new();
    // Epoch writes the reasoning effort after an underscore (`gpt-5-2025-08-07_high`), and
    // a thinking budget in tokens the same way (`claude-3-7-sonnet-20250219_64K`).
    if let Some((head, tail)) = name.rsplit_once('_') {
        let budget = tail.strip_suffix('k').is_some_and(|n| {
            !n.is_empty() && n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit())
        });
        if ["high", "medium", "low", "minimal", "xhigh", "none", "auto"].contains(&tail) {
            config.push(format!("effort={tail}"));
            name = head.to_string();
        } else if budget {
            config.push(format!("thinking-{tail}"));
            name = head.to_string();
        }
    }
    let mut key = names::parse(&name).slug;
    let mut out = vec![(key.clone(), config.clone())];
    // n-shot prompting written into the name (`GLaM (64B/64E) (3-shot)`, `(Zero-shot)`).
    if let Some((head, shots)) = shots_suffix(&key) {
        config.push(format!("shots={shots}"));
        key = head.to_string();
        out.push((key.clone(), config.clone()));
    }
    for _ in 0..4 {
        let Some(suffix) = identities::CONFIG_SUFFIXES
            .iter()
            .chain(SCORE_CONFIG_SUFFIXES)
            .find(|s| key.ends_with(*s) && key.len() > s.len())
        else {
            break;
        };
        config.insert(0, suffix.trim_start_matches('-').to_string());
        key.truncate(key.len() - suffix.len());
        out.push((key.clone(), config.clone()));
    }
    out
}

/// `(name, shots)` for a key ending in `-3-shot`, `-zero-shot`, `-one-shot` or `-few-shot`.
fn shots_suffix(key: &str) -> Option<(&str, String)> {
    let head = key.strip_suffix("-shot")?;
    let (name, n) = head.rsplit_once('-')?;
    let shots = match n {
        "zero" => "0".to_string(),
        "one" => "1".to_string(),
        "few" => "few".to_string(),
        n if !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit()) => {
            n.to_string()
        }
        _ => return None,
    };
    (!name.is_empty()).then_some((name, shots))
}

/// Canonical slug and run configuration for a model name from a benchmark source.
pub fn match_model(resolved: &Resolved, raw: &str) -> Option<(String, Option<String>)> {
    let spellings = candidates(raw);
    let s = resolved
        .lookup(raw)
        .or_else(|| spellings.iter().find_map(|(key, _)| resolved.lookup(key)))?;
    // The run configuration is what the most stripped spelling naming the same model drops:
    // a configured id folded into its model at resolution (`…-thinking`) keeps its word
    // beside an effort (`…-thinking-high-effort`: `thinking, high-effort`).
    let config = spellings
        .iter()
        .rev()
        .find(|(key, config)| !config.is_empty() && resolved.lookup(key) == Some(s))
        .map(|(_, config)| config.join(", "));
    Some((s.to_string(), config))
}

/// Records for benchmarked models no pricing source knows, under the name with its run
/// configuration removed (the most stripped spelling, so `x-high` and `x-low` are one model).
/// Also fills the report: per source, rows read, rows matched to a model that a pricing or
/// metadata source knows, and the names that were not.
pub fn unpriced_models(
    raw: &[RawScore],
    resolved: &Resolved,
    report: &mut Report,
) -> Vec<super::ModelRecord> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for r in raw {
        let feed = report_feed(r);
        report.read(feed);
        if match_model(resolved, &r.model).is_some() {
            report.matched(feed);
            continue;
        }
        report.unmatched(feed, &r.model);
        // Only sources whose names are real model versions make models (agent leaderboards'
        // model tags, `Llama 3.1`, do not): `Meta::names_models`.
        if !super::sources::meta(r.source).is_some_and(|m| m.names_models) {
            continue;
        }
        let Some((key, _)) = candidates(&r.model).pop() else {
            continue;
        };
        if key.is_empty() || !seen.insert(key.clone()) {
            continue;
        }
        let parsed = names::parse(&key);
        out.push(super::ModelRecord {
            source: r.source,
            raw_id: key.clone(),
            rank: super::BENCHMARK_RANK + 1,
            creator: names::creator_for(parsed.vendor.as_deref(), &parsed.key).map(str::to_string),
            name: Some(display_name(&r.model)),
            parsed: Some(parsed),
            ..Default::default()
        });
    }
    out
}

/// The name a score row is reported under: Epoch's own runs and the external leaderboards it
/// re-hosts match at very different rates (API ids vs. decade-old paper names).
fn report_feed(r: &RawScore) -> &'static str {
    const RUNS: &[&str] = &[
        "gpqa-diamond",
        "math-level-5",
        "otis-mock-aime",
        "frontiermath",
        "frontiermath-tier-4",
        "frontiermath-public",
        "frontiermath-tier-4-public",
        "swe-bench-verified",
    ];
    match r.source {
        "epoch" if RUNS.contains(&r.benchmark.as_str()) => "epoch-runs",
        "epoch" => "epoch-external",
        other => other,
    }
}

/// A display name for a model known only by a benchmark: the source's spelling without run
/// configuration in parentheses or after an underscore.
fn display_name(raw: &str) -> String {
    let mut base = raw.split('_').next().unwrap_or(raw).trim();
    // `GLaM (64B/64E) (Zero-shot)`: the prompting is the score's configuration.
    if let Some((head, last)) = base.rsplit_once(" (")
        && last.to_lowercase().ends_with("shot)")
    {
        base = head.trim();
    }
    base.to_string()
}

fn dedup_headline<T>(
    rows: &mut [T],
    group: impl Fn(&T) -> (String, String),
    rank: impl Fn(&T) -> (bool, String, i64),
    set: impl Fn(&mut T, bool),
) {
    let mut best: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        let g = group(r);
        match best.get(&g) {
            Some(&j) if rank(&rows[j]) >= rank(r) => {}
            _ => {
                best.insert(g, i);
            }
        }
    }
    let winners: BTreeSet<usize> = best.into_values().collect();
    for (i, r) in rows.iter_mut().enumerate() {
        set(r, winners.contains(&i));
    }
}

/// What [`attach`] produces: the rows of the benchmark and agent tables.
pub struct Attached {
    pub benchmarks: Vec<benchmark::Model>,
    pub scores: Vec<score::Model>,
    pub agents: Vec<agent::Model>,
    pub agent_models: Vec<agent_model::Model>,
    pub agent_scores: Vec<agent_score::Model>,
}

impl Attached {
    /// Sets the snapshot's benchmark and agent tables to these rows.
    pub fn into_snapshot(self, snapshot: &mut crate::snapshot::Snapshot) {
        snapshot.benchmarks = self.benchmarks;
        snapshot.scores = self.scores;
        snapshot.agents = self.agents;
        snapshot.agent_models = self.agent_models;
        snapshot.agent_scores = self.agent_scores;
    }
}

/// Benchmarks and headline-marked scores on canonical models.
pub fn attach(
    raw: Vec<RawScore>,
    agents_raw: Vec<RawAgent>,
    resolved: &Resolved,
    report: &mut Report,
) -> Attached {
    let mut defs: BTreeMap<String, benchmark::Model> = defs()
        .iter()
        .map(|d| {
            (
                d.slug.clone(),
                benchmark::Model {
                    slug: d.slug.clone(),
                    name: d.name.clone(),
                    category: d.category.clone(),
                    unit: d.unit.clone(),
                    higher_is_better: true,
                    in_average: d.in_average,
                    description: d.description.clone(),
                    source_url: d.source_url.clone(),
                    source: d.source.clone(),
                    models_count: 0,
                    average_reason: String::new(),
                    difficulty: None,
                    slope: None,
                },
            )
        })
        .collect();
    // models.dev names benchmarks nobody else publishes; they become benchmarks of their own,
    // in the average only when every score is a 0-100 percentage.
    let mut extra: BTreeMap<String, (String, bool)> = BTreeMap::new();
    let mut extra_names: BTreeMap<String, String> = BTreeMap::new();
    for r in raw.iter().filter(|r| !defs.contains_key(&r.benchmark)) {
        let pct = r.config.as_deref().is_some_and(|c| {
            let c = c.to_lowercase();
            ["percent", "rate", "pass@1", "resolved"]
                .iter()
                .any(|k| c.contains(k))
                && !c.contains("index")
        }) && (0.0..=100.0).contains(&r.score);
        if let Some(n) = &r.benchmark_name {
            extra_names
                .entry(r.benchmark.clone())
                .or_insert_with(|| n.clone());
        }
        let e = extra
            .entry(r.benchmark.clone())
            .or_insert((r.model.clone(), true));
        e.1 &= pct;
    }
    for (slug, (_, pct)) in extra {
        let category = if ["swe", "terminal", "code", "aider", "sci"]
            .iter()
            .any(|k| slug.contains(k))
        {
            "coding"
        } else {
            "other"
        };
        defs.insert(
            slug.clone(),
            benchmark::Model {
                name: extra_names
                    .get(&slug)
                    .cloned()
                    .unwrap_or_else(|| slug.clone()),
                slug,
                category: category.into(),
                unit: if pct { "percent" } else { "score" }.into(),
                higher_is_better: true,
                in_average: pct,
                description: "Reported in models.dev model metadata.".into(),
                source_url: "https://models.dev".into(),
                source: "models-dev".into(),
                models_count: 0,
                average_reason: String::new(),
                difficulty: None,
                slope: None,
            },
        );
    }
    let mut scores = Vec::new();
    let rules = super::provenance::Rules::shared();
    let mut creators: BTreeMap<String, Option<String>> = BTreeMap::new();
    let matched: Vec<Option<(String, Option<String>)>> = raw
        .iter()
        .map(|r| match_model(resolved, &r.model))
        .collect();
    let apart = listed_apart(&raw, &matched);
    for (r, matched) in raw.into_iter().zip(matched) {
        let Some((model, extra_config)) = matched else {
            continue;
        };
        if apart.contains(&(r.source, r.model.clone())) {
            report.rule(
                "scores: undated names a table lists beside their snapshot, left out",
                1,
            );
            continue;
        }
        let config = match (extra_config, r.config) {
            (Some(a), Some(b)) => Some(format!("{a}, {b}")),
            (a, b) => a.or(b),
        };
        // The model's creator as its page will show it.
        let creator = creators
            .entry(model.clone())
            .or_insert_with(|| {
                resolved
                    .models
                    .get(&model)
                    .and_then(|recs| identities::model_creator(&model, recs))
            })
            .clone();
        scores.push(score::Model {
            id: 0,
            provenance: rules.provenance(r.source, r.publication.as_deref(), creator.as_deref()),
            citation: r.citation,
            in_average: false,
            calibrated: None,
            model_slug: model,
            benchmark_slug: r.benchmark,
            score: r.score,
            config,
            is_headline: false,
            as_of: r.as_of,
            release: r.release,
            source: r.source.to_string(),
        });
    }
    // Headline: the publisher's own figure, else the most recent, else the best.
    let publisher: BTreeMap<String, String> = defs
        .iter()
        .map(|(k, d)| (k.clone(), d.source.clone()))
        .collect();
    dedup_headline(
        &mut scores,
        |s| (s.model_slug.clone(), s.benchmark_slug.clone()),
        |s| {
            (
                publisher.get(&s.benchmark_slug) == Some(&s.source),
                s.as_of.clone().unwrap_or_default(),
                (s.score * 10_000.0) as i64,
            )
        },
        |s, h| s.is_headline = h,
    );

    // Agents: one per name; models resolved; scores per leaderboard.
    let mut agents: BTreeMap<String, agent::Model> = BTreeMap::new();
    let mut agent_models = BTreeSet::new();
    let mut agent_scores = Vec::new();
    for a in agents_raw {
        report.read(&format!("{}-agents", a.source));
        let slug = slugify(&a.name);
        if slug.is_empty() {
            report.unmatched(&format!("{}-agents", a.source), &a.name);
            continue;
        }
        let mut all_models_known = true;
        for m in &a.models {
            match match_model(resolved, m) {
                Some((s, _)) => {
                    agent_models.insert((slug.clone(), s));
                }
                None => {
                    all_models_known = false;
                    report.unmatched(&format!("{}-agents", a.source), m);
                }
            }
        }
        if all_models_known {
            report.matched(&format!("{}-agents", a.source));
        }
        let e = agents.entry(slug.clone()).or_insert_with(|| agent::Model {
            slug: slug.clone(),
            name: clean_name(&a.name),
            organization: None,
            open_source: None,
            date: None,
            average_score: None,
            benchmarks_count: 0,
            capability_index: None,
            capability_index_se: None,
        });
        e.organization = e.organization.take().or(a.organization);
        e.open_source = e.open_source.or(a.open_source);
        if a.as_of > e.date {
            e.date = a.as_of.clone();
        }
        agent_scores.push(agent_score::Model {
            id: 0,
            agent_slug: slug,
            benchmark_slug: a.benchmark.to_string(),
            score: a.score,
            is_headline: false,
            as_of: a.as_of,
            source: a.source.to_string(),
        });
    }
    dedup_headline(
        &mut agent_scores,
        |s| (s.agent_slug.clone(), s.benchmark_slug.clone()),
        |s| {
            (
                true,
                s.as_of.clone().unwrap_or_default(),
                (s.score * 10_000.0) as i64,
            )
        },
        |s, h| s.is_headline = h,
    );
    let used: BTreeSet<&str> = scores
        .iter()
        .map(|s| s.benchmark_slug.as_str())
        .chain(agent_scores.iter().map(|s| s.benchmark_slug.as_str()))
        .collect();
    let benchmarks = defs
        .into_values()
        .filter(|d| used.contains(d.slug.as_str()))
        .collect();
    let agent_models = agent_models
        .into_iter()
        .map(|(agent_slug, model_slug)| agent_model::Model {
            agent_slug,
            model_slug,
        })
        .collect();
    Attached {
        benchmarks,
        scores,
        agents: agents.into_values().collect(),
        agent_models,
        agent_scores,
    }
}

/// Names a table lists beside a dated snapshot they would otherwise resolve to, as (source,
/// name): one table never lists a model twice, so LiveBench's `qwen3-235b-a22b-thinking` (the
/// April hybrid) beside `qwen3-235b-a22b-thinking-2507` in its 2025-05-30 table is another
/// model, in every table of that source (docs/methodology.md, "Scores and who ran them").
fn listed_apart(
    raw: &[RawScore],
    matched: &[Option<(String, Option<String>)>],
) -> BTreeSet<(&'static str, String)> {
    // The name as it is and without its run configuration (`…-thinking-64k`).
    let keys = |name: &str| -> BTreeSet<String> {
        candidates(name)
            .pop()
            .map(|(k, _)| k)
            .into_iter()
            .chain([names::parse(name).key])
            .collect()
    };
    // Only a release's table is one table (LiveBench's question sets); other sources' rows
    // gather runs of many days and papers.
    type Table<'a> = (&'static str, &'a str, &'a str);
    let mut tables: BTreeMap<(Table, String), BTreeSet<&str>> = BTreeMap::new();
    for (r, matched) in raw.iter().zip(matched) {
        if let (Some(release), Some((model, _))) = (&r.release, matched) {
            let table = (r.source, r.benchmark.as_str(), release.as_str());
            tables
                .entry((table, model.clone()))
                .or_default()
                .insert(r.model.as_str());
        }
    }
    let mut out = BTreeSet::new();
    for ((table, _), listed) in &tables {
        let stems: BTreeSet<String> = listed
            .iter()
            .flat_map(|n| keys(n))
            .filter_map(|k| Some(names::split_date(&k)?.0.to_string()))
            .collect();
        out.extend(
            listed
                .iter()
                .filter(|n| {
                    let own = keys(n);
                    own.iter().all(|k| names::split_date(k).is_none())
                        && own.iter().any(|k| stems.contains(k))
                })
                .map(|n| (table.0, (*n).to_string())),
        );
    }
    out
}

/// Dates every score no earlier than its model's release (`docs/methodology.md`, "Scores and
/// who ran them"): a date before the release is not when the model was measured. A row
/// dated by a benchmark release (LiveBench files a model measured in April under its
/// January question set) takes the first observation of the copy that lists it — the day
/// that copy of its source was observed — where that is on or after the release; any other
/// (an early-access run) is published with the release at the earliest and takes the
/// release date. Returns how many scores were re-dated.
pub fn date_measurements(s: &mut crate::snapshot::Snapshot) -> usize {
    let released: BTreeMap<&str, &str> = s
        .models
        .iter()
        .filter_map(|m| Some((m.slug.as_str(), m.release_date.as_deref()?)))
        .collect();
    let observed: BTreeMap<&str, &str> = s
        .sources
        .iter()
        .map(|x| (x.slug.as_str(), x.snapshot_date.as_str()))
        .collect();
    let mut moved = 0;
    for x in &mut s.scores {
        let (Some(day), Some(&release)) = (&x.as_of, released.get(x.model_slug.as_str())) else {
            continue;
        };
        if day.as_str() >= release {
            continue;
        }
        let first_observed = observed
            .get(x.source.as_str())
            .filter(|o| x.release.is_some() && **o >= release);
        x.as_of = Some(first_observed.copied().unwrap_or(release).to_string());
        moved += 1;
    }
    moved
}

/// A leaderboard's agent name without what its template left empty (`Warp ()`, `OB-1 ()`)
/// and with single spaces.
fn clean_name(name: &str) -> String {
    name.replace("()", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_score_is_dated_before_its_model_s_release() {
        use crate::snapshot::Snapshot;
        let model = |slug: &str, release: Option<&str>| entity::model::Model {
            release_date: release.map(str::to_string),
            ..super::super::catalog::blank_model(slug)
        };
        let score = |model: &str, source: &str, as_of: &str, release: Option<&str>| score::Model {
            id: 0,
            model_slug: model.into(),
            benchmark_slug: "b".into(),
            score: 50.0,
            config: None,
            is_headline: true,
            as_of: Some(as_of.into()),
            release: release.map(str::to_string),
            source: source.into(),
            provenance: entity::vocab::Provenance::Independent,
            citation: None,
            in_average: true,
            calibrated: None,
        };
        let source = |slug: &str, day: &str| entity::source::Model {
            snapshot_date: day.into(),
            ..super::super::sources::row(slug).unwrap()
        };
        let mut s = Snapshot {
            models: vec![model("new", Some("2026-04-23")), model("undated", None)],
            sources: vec![
                source("livebench", "2026-07-01"),
                source("epoch", "2026-07-01"),
            ],
            scores: vec![
                // Listed under a question set published before the model: first observed.
                score("new", "livebench", "2026-01-08", Some("2026-01-08")),
                // An early-access run: published with the release at the earliest.
                score("new", "epoch", "2026-04-20", None),
                score("new", "epoch", "2026-05-01", None),
                score("undated", "epoch", "2020-01-01", None),
            ],
            ..Default::default()
        };
        assert_eq!(date_measurements(&mut s), 2);
        let dates: Vec<&str> = s.scores.iter().filter_map(|x| x.as_of.as_deref()).collect();
        assert_eq!(
            dates,
            ["2026-07-01", "2026-04-23", "2026-05-01", "2020-01-01"]
        );
        // The release a LiveBench row is of does not move.
        assert_eq!(s.scores[0].release.as_deref(), Some("2026-01-08"));
    }

    #[test]
    fn non_thinking_is_one_configuration() {
        let c = candidates("deepseek-v3.2-non-thinking");
        assert_eq!(
            c.last().cloned(),
            Some((
                "deepseek-v3.2".to_string(),
                vec!["non-thinking".to_string()]
            ))
        );
    }

    #[test]
    fn shots_written_into_a_name_are_run_configuration() {
        let c = candidates("GLaM (64B/64E) (3-shot)");
        assert_eq!(c.last().map(|x| x.0.as_str()), Some("glam-64b-64e"));
        assert_eq!(
            c.last().map(|x| x.1.clone()),
            Some(vec!["shots=3".to_string()])
        );
        assert_eq!(
            shots_suffix("palm-zero-shot"),
            Some(("palm", "0".to_string()))
        );
        assert_eq!(
            shots_suffix("gpt-4-8-shot"),
            Some(("gpt-4", "8".to_string()))
        );
        assert_eq!(shots_suffix("snapshot"), None);
    }

    #[test]
    fn run_configuration_is_split_from_the_model() {
        let r = super::super::resolve(vec![super::super::ModelRecord {
            source: "models-dev",
            provider: Some("openai".into()),
            raw_id: "gpt-5-2025-08-07".into(),
            parsed: Some(names::parse("gpt-5-2025-08-07")),
            ..Default::default()
        }]);
        assert_eq!(
            match_model(&r, "gpt-5-2025-08-07_high"),
            Some(("gpt-5-2025-08-07".into(), Some("effort=high".into())))
        );
        assert_eq!(
            match_model(&r, "gpt-5-2025-08-07-thinking-32k"),
            Some(("gpt-5-2025-08-07".into(), Some("thinking-32k".into())))
        );
        assert_eq!(
            match_model(&r, "gpt-5-2025-08-07_64K"),
            Some(("gpt-5-2025-08-07".into(), Some("thinking-64k".into())))
        );
        assert_eq!(match_model(&r, "unknown-model"), None);
    }
}
