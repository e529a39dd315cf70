//! The catalogue: the whole dataset as one immutable, indexed value in memory.
//!
//! The data changes only on import, so every request reads a [`Catalog`] built once from
//! the database ([`Catalog::load`]) and shared behind an `Arc`. A request takes one snapshot
//! at its start and reads only that one, so no answer mixes two datasets, and nothing on
//! the read path waits for the database. [`Shared`] holds the current snapshot and swaps
//! in a new one when the database's dataset version changes ([`watch`]).
//!
//! Every list is stored in the order the API serves it (the orders the SQL queries used to
//! produce: nulls last, slug as the final tie-break), and the model list keeps one
//! precomputed order per sort and direction, so a page is a filtered walk, never a sort.

pub mod changes;
pub mod costs;
pub mod economy;
pub mod freshness;
pub mod lengths;
pub mod lookups;
pub mod models;
pub mod recommend;
pub mod retirements;
pub mod search;

use std::collections::BTreeMap;

/// The catalogue's maps are read many times per answer (a model's offerings, aliases and
/// scores by slug): a fast seeded hash instead of SipHash, whose cost showed in profiles.
pub(crate) type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
pub(crate) type HashSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
use std::sync::Arc;
use std::time::Duration;

use arc_swap::ArcSwap;
use entity::vocab::{OfferingKind, Provenance};
use entity::{
    agent, agent_score, benchmark, dataset, model, model_domain, offering, price_history, provider,
    score, source,
};
use sea_orm::{DatabaseConnection, DbErr};

use crate::store::rows::{self, Rows};

pub use models::{ModelFilter, ModelSort, SortOrder};

/// The tables a user can read whole (bulk export), by their stored names.
pub const TABLES: &[&str] = &[
    "models",
    "offerings",
    "scores",
    "price_history",
    "benchmarks",
    "providers",
    "agents",
];

/// Rows are shared, never copied: a resolver holds an `Arc` to the row it shows.
pub type Row<T> = Arc<T>;

/// The immutable dataset with its indexes.
/// The source whose leaderboard is published release by release (LiveBench).
const RELEASED_SOURCE: &str = "livebench";
/// Provenance of a score a third party measured.
const INDEPENDENT: Provenance = Provenance::Independent;

#[derive(Default)]
pub struct Catalog {
    pub dataset: Option<dataset::Model>,
    /// The served version's record: what it changed against the version before, whether
    /// it is pinned.
    pub version_record: Option<crate::store::versions::Summary>,
    /// Models by slug.
    models: Vec<Row<model::Model>>,
    model_index: HashMap<String, usize>,
    /// Alias → model position.
    alias_index: HashMap<String, usize>,
    /// Model slug → its aliases, sorted.
    aliases: HashMap<String, Vec<String>>,
    /// Model positions in each (sort, direction) order.
    orders: models::Orders,
    /// Names, slugs and aliases laid out for search.
    search: search::SearchIndex,
    providers: Vec<Row<provider::Model>>,
    provider_index: HashMap<String, usize>,
    /// Provider positions by lowercased name, then slug.
    providers_by_name: Vec<usize>,
    /// Model slug → offerings, cheapest input price first (unknown last), then provider.
    offerings_of: HashMap<String, Vec<Row<offering::Model>>>,
    /// Provider slug → its offerings by model slug.
    offerings_at: HashMap<String, Vec<Row<offering::Model>>>,
    /// Provider slug → slugs of the models it offers.
    offered_by: HashMap<String, HashSet<String>>,
    /// Creator slug → models it created, by slug.
    created_by: HashMap<String, Vec<Row<model::Model>>>,
    /// Model slug → price history, newest first, then provider.
    history_of: HashMap<String, Vec<Row<price_history::Model>>>,
    /// Benchmarks by slug.
    benchmarks: Vec<Row<benchmark::Model>>,
    benchmark_index: HashMap<String, usize>,
    /// Model slug → scores by benchmark, headline first, then id.
    scores_of: HashMap<String, Vec<Row<score::Model>>>,
    /// Benchmark slug → every score on it, best first, then model slug.
    scores_on: HashMap<String, Vec<Row<score::Model>>>,
    /// Benchmark slug → what its board holds (see [`Evidence`]).
    evidence_on: HashMap<String, Evidence>,
    /// Agents, best average first (unscored last), then slug.
    agents: Vec<Row<agent::Model>>,
    agent_index: HashMap<String, usize>,
    /// Agent slug → model slugs, sorted.
    agent_models: HashMap<String, Vec<String>>,
    /// Model slug → agent slugs, sorted.
    agents_of: HashMap<String, Vec<String>>,
    /// Agent slug → scores by benchmark, headline first, then id.
    agent_scores: HashMap<String, Vec<Row<agent_score::Model>>>,
    /// Sources by slug.
    sources: Vec<source::Model>,
    /// How recent each area of the data is (see [`AsOf`]).
    pub as_of: AsOf,
    /// What the syncs found at each source.
    freshness: freshness::Freshnesses,
    /// Lowercased identifier (provider model id, slug, alias, name) → model position.
    lookup_index: HashMap<String, usize>,
    /// Whole tables in id or slug order, for export.
    all_offerings: Vec<Row<offering::Model>>,
    all_history: Vec<Row<price_history::Model>>,
    all_scores: Vec<Row<score::Model>>,
    /// The economy indicators and their series.
    economy: economy::Economy,
    /// Model slug → its standing in each domain, by domain.
    domains_of: HashMap<String, Vec<Row<model_domain::Model>>>,
    /// The domains a list may rank by, sorted.
    domains: Vec<String>,
    /// Every change, newest first.
    changes: Vec<changes::Change>,
}

/// `a` before `b` with nulls last, whatever the direction of the non-null comparison.
pub fn nulls_last<T: PartialOrd>(a: Option<T>, b: Option<T>, desc: bool) -> std::cmp::Ordering {
    use std::cmp::Ordering::*;
    match (a, b) {
        (Some(x), Some(y)) => {
            let o = x.partial_cmp(&y).unwrap_or(Equal);
            if desc { o.reverse() } else { o }
        }
        (Some(_), None) => Less,
        (None, Some(_)) => Greater,
        (None, None) => Equal,
    }
}

fn group<T, K: std::hash::Hash + Eq>(
    rows: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> K,
) -> HashMap<K, Vec<T>> {
    let mut out: HashMap<K, Vec<T>> = HashMap::default();
    for r in rows {
        out.entry(key(&r)).or_default().push(r);
    }
    out
}

/// How recent each area of the data is: the newest observation date among the sources that
/// gave its rows. A list's `meta.dataset` says it, so a ranking reads "benchmarks as of …"
/// rather than taking the dataset's date, set by its freshest source (`docs/rest.md`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AsOf {
    /// Of the sources of current prices.
    pub prices: Option<String>,
    /// Of the sources of benchmark scores.
    pub benchmarks: Option<String>,
}

impl AsOf {
    fn of<'a>(
        sources: &[source::Model],
        priced_by: impl Iterator<Item = &'a str>,
        scored_by: impl Iterator<Item = &'a str>,
    ) -> Self {
        let newest = |used: HashSet<&str>| {
            sources
                .iter()
                .filter(|s| used.contains(s.slug.as_str()))
                .map(|s| s.snapshot_date.clone())
                .max()
        };
        Self {
            prices: newest(priced_by.collect()),
            benchmarks: newest(scored_by.collect()),
        }
    }
}

/// What a benchmark's results rest on, counted in models (`docs/rest.md`, benchmarks).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Evidence {
    /// Models with at least one result a third party measured.
    pub independent: i32,
    /// Models known on this board only from their makers' own figures.
    pub self_reported: i32,
}

impl Evidence {
    /// A board with results, none of them measured by a third party: its default
    /// leaderboard is empty and `provenance=all` lists its makers' claims
    /// (`docs/methodology.md`, "Leaderboards").
    pub fn claims_only(&self) -> bool {
        self.independent == 0 && self.self_reported > 0
    }

    fn of(scores: &[Row<score::Model>]) -> Self {
        let mut independent = HashSet::default();
        let mut claimed = HashSet::default();
        for s in scores {
            if s.provenance == INDEPENDENT {
                independent.insert(s.model_slug.as_str());
            } else {
                claimed.insert(s.model_slug.as_str());
            }
        }
        let count = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
        Self {
            independent: count(independent.len()),
            self_reported: count(claimed.difference(&independent).count()),
        }
    }
}

impl Catalog {
    /// Reads the database's current dataset (one consistent snapshot) and indexes it, with
    /// the default stale threshold.
    pub async fn load(db: &DatabaseConnection) -> Result<Self, DbErr> {
        Self::load_with(db, freshness::DEFAULT_STALE_AFTER).await
    }

    /// As [`Catalog::load`], a source being `stale` after `stale_after` without a
    /// successful sync (`MDS_SYNC_STALE_AFTER`); reloads keep the threshold.
    pub async fn load_with(db: &DatabaseConnection, stale_after: Duration) -> Result<Self, DbErr> {
        Ok(Self::build_with(rows::load(db).await?, stale_after))
    }

    /// Indexes a set of rows, with the default stale threshold.
    pub fn build(r: Rows) -> Self {
        Self::build_with(r, freshness::DEFAULT_STALE_AFTER)
    }

    /// Indexes a set of rows.
    pub fn build_with(r: Rows, stale_after: Duration) -> Self {
        let mut models: Vec<Row<model::Model>> = r.models.into_iter().map(Arc::new).collect();
        models.sort_by(|a, b| a.slug.cmp(&b.slug));
        let model_index: HashMap<String, usize> = models
            .iter()
            .enumerate()
            .map(|(i, m)| (m.slug.clone(), i))
            .collect();
        let mut alias_index = HashMap::default();
        let mut aliases: HashMap<String, Vec<String>> = HashMap::default();
        for a in r.aliases {
            if let Some(&i) = model_index.get(&a.model_slug) {
                alias_index.insert(a.alias.clone(), i);
                aliases.entry(a.model_slug).or_default().push(a.alias);
            }
        }
        for list in aliases.values_mut() {
            list.sort();
        }
        let lower_names: Vec<String> = models.iter().map(|m| m.name.to_lowercase()).collect();
        let search =
            search::SearchIndex::build(models.iter().zip(&lower_names).map(|(m, name)| {
                let mut slugs = vec![m.slug.as_str()];
                slugs.extend(
                    aliases
                        .get(&m.slug)
                        .into_iter()
                        .flatten()
                        .map(String::as_str),
                );
                (name.as_str(), slugs)
            }));

        let mut providers: Vec<Row<provider::Model>> =
            r.providers.into_iter().map(Arc::new).collect();
        providers.sort_by(|a, b| a.slug.cmp(&b.slug));
        let provider_index: HashMap<String, usize> = providers
            .iter()
            .enumerate()
            .map(|(i, p)| (p.slug.clone(), i))
            .collect();
        let mut providers_by_name: Vec<usize> = (0..providers.len()).collect();
        providers_by_name
            .sort_by_cached_key(|&i| (providers[i].name.to_lowercase(), providers[i].slug.clone()));

        let mut offerings: Vec<Row<offering::Model>> =
            r.offerings.into_iter().map(Arc::new).collect();
        offerings.sort_by_key(|o| o.id);
        let mut offerings_of = group(offerings.iter().cloned(), |o| o.model_slug.clone());
        // Paid offerings first, cheapest first; plans and free tiers (0/0 or a subscription)
        // and unpriced ones after them.
        for list in offerings_of.values_mut() {
            list.sort_by(|a, b| {
                let unpaid = |o: &offering::Model| {
                    matches!(o.kind, OfferingKind::Plan | OfferingKind::FreeTier)
                        || o.input_price.is_none()
                };
                unpaid(a)
                    .cmp(&unpaid(b))
                    .then_with(|| nulls_last(a.input_price, b.input_price, false))
                    .then_with(|| a.provider_slug.cmp(&b.provider_slug))
            });
        }
        let mut offerings_at = group(offerings.iter().cloned(), |o| o.provider_slug.clone());
        for list in offerings_at.values_mut() {
            list.sort_by(|a, b| a.model_slug.cmp(&b.model_slug).then(a.id.cmp(&b.id)));
        }
        let offered_by = offerings_at
            .iter()
            .map(|(p, list)| {
                (
                    p.clone(),
                    list.iter().map(|o| o.model_slug.clone()).collect(),
                )
            })
            .collect();
        let created_by = group(
            models.iter().filter(|m| m.creator_slug.is_some()).cloned(),
            |m| m.creator_slug.clone().unwrap_or_default(),
        );

        let mut all_history: Vec<Row<price_history::Model>> =
            r.price_history.into_iter().map(Arc::new).collect();
        all_history.sort_by_key(|h| h.id);
        let mut history_of = group(all_history.iter().cloned(), |h| h.model_slug.clone());
        for list in history_of.values_mut() {
            list.sort_by(|a, b| {
                b.effective_from
                    .cmp(&a.effective_from)
                    .then_with(|| a.provider_slug.cmp(&b.provider_slug))
            });
        }

        let mut benchmarks: Vec<Row<benchmark::Model>> =
            r.benchmarks.into_iter().map(Arc::new).collect();
        benchmarks.sort_by(|a, b| a.slug.cmp(&b.slug));
        let benchmark_index: HashMap<String, usize> = benchmarks
            .iter()
            .enumerate()
            .map(|(i, b)| (b.slug.clone(), i))
            .collect();
        let mut scores: Vec<Row<score::Model>> = r.scores.into_iter().map(Arc::new).collect();
        scores.sort_by_key(|s| s.id);
        let mut scores_of = group(scores.iter().cloned(), |s| s.model_slug.clone());
        for list in scores_of.values_mut() {
            list.sort_by(|a, b| {
                a.benchmark_slug
                    .cmp(&b.benchmark_slug)
                    .then(b.is_headline.cmp(&a.is_headline))
                    .then(a.id.cmp(&b.id))
            });
        }
        let mut scores_on = group(scores.iter().cloned(), |s| s.benchmark_slug.clone());
        for (slug, list) in scores_on.iter_mut() {
            let higher = benchmark_index
                .get(slug)
                .is_none_or(|&i| benchmarks[i].higher_is_better);
            list.sort_by(|a, b| {
                let o = a.score.total_cmp(&b.score);
                (if higher { o.reverse() } else { o }).then_with(|| a.model_slug.cmp(&b.model_slug))
            });
        }

        let evidence_on = scores_on
            .iter()
            .map(|(slug, list)| (slug.clone(), Evidence::of(list)))
            .collect();

        let mut agents: Vec<Row<agent::Model>> = r.agents.into_iter().map(Arc::new).collect();
        agents.sort_by(|a, b| {
            nulls_last(a.average_score, b.average_score, true).then_with(|| a.slug.cmp(&b.slug))
        });
        let agent_index = agents
            .iter()
            .enumerate()
            .map(|(i, a)| (a.slug.clone(), i))
            .collect();
        let mut agent_models: HashMap<String, Vec<String>> = HashMap::default();
        let mut agents_of: HashMap<String, Vec<String>> = HashMap::default();
        for am in r.agent_models {
            agents_of
                .entry(am.model_slug.clone())
                .or_default()
                .push(am.agent_slug.clone());
            agent_models
                .entry(am.agent_slug)
                .or_default()
                .push(am.model_slug);
        }
        for list in agent_models.values_mut().chain(agents_of.values_mut()) {
            list.sort();
        }
        let mut agent_scores = group(r.agent_scores.into_iter().map(Arc::new), |s| {
            s.agent_slug.clone()
        });
        for list in agent_scores.values_mut() {
            list.sort_by(|a, b| {
                a.benchmark_slug
                    .cmp(&b.benchmark_slug)
                    .then(b.is_headline.cmp(&a.is_headline))
                    .then(a.id.cmp(&b.id))
            });
        }
        let mut sources = r.sources;
        sources.sort_by(|a, b| a.slug.cmp(&b.slug));
        let as_of = AsOf::of(
            &sources,
            offerings.iter().map(|o| o.source.as_str()),
            scores_on.values().flatten().map(|s| s.source.as_str()),
        );

        let orders = models::Orders::build(&models);
        let lookup_index = lookups::build(&models, &model_index, &alias_index, &offerings);
        let provider_names = |slug: &str| {
            provider_index
                .get(slug)
                .map_or_else(|| slug.to_string(), |&i: &usize| providers[i].name.clone())
        };
        let benchmark_names = |slug: &str| {
            benchmark_index
                .get(slug)
                .map_or_else(|| slug.to_string(), |&i| benchmarks[i].name.clone())
        };
        let changes = changes::build(&changes::Inputs {
            models: &models,
            model_index: &model_index,
            history: &all_history,
            offerings: &offerings,
            scores: &scores,
            provider_names: &provider_names,
            benchmark_names: &benchmark_names,
        });
        let economy = economy::Economy::build(r.economy_indicators, r.economy_points);
        let mut domains_of: HashMap<String, Vec<Row<model_domain::Model>>> = group(
            r.model_domains.into_iter().map(Arc::new),
            |d: &Row<model_domain::Model>| d.model_slug.clone(),
        );
        let mut known = std::collections::BTreeSet::new();
        for list in domains_of.values_mut() {
            list.sort_by(|a, b| a.domain.cmp(&b.domain));
            known.extend(list.iter().map(|d| d.domain.clone()));
        }
        let domains: Vec<String> = known.into_iter().collect();
        Self {
            dataset: r.dataset,
            version_record: r.version,
            models,
            model_index,
            alias_index,
            aliases,
            orders,
            search,
            providers,
            provider_index,
            providers_by_name,
            offerings_of,
            offerings_at,
            offered_by,
            created_by,
            history_of,
            benchmarks,
            benchmark_index,
            scores_of,
            scores_on,
            evidence_on,
            agents,
            agent_index,
            agent_models,
            agents_of,
            agent_scores,
            sources,
            as_of,
            freshness: freshness::Freshnesses::build(
                r.statuses,
                r.served,
                chrono::Utc::now(),
                stale_after,
            ),
            lookup_index,
            all_offerings: offerings,
            all_history,
            all_scores: scores,
            economy,
            changes,
            domains_of,
            domains,
        }
    }

    /// The domains a model list may rank by (`domain=`): the benchmark categories with a
    /// fitted benchmark, sorted.
    pub fn domains(&self) -> &[String] {
        &self.domains
    }

    /// A model's standing in every domain, by domain.
    pub fn domains_of(&self, model: &str) -> &[Row<model_domain::Model>] {
        self.domains_of.get(model).map_or(&[], Vec::as_slice)
    }

    /// A model's standing in one domain.
    pub fn domain_of(&self, model: &str, domain: &str) -> Option<&Row<model_domain::Model>> {
        self.domains_of(model).iter().find(|d| d.domain == domain)
    }

    /// The dataset version (0 before any import).
    pub fn version(&self) -> i32 {
        self.dataset.as_ref().map_or(0, |d| d.version)
    }

    /// What answers depend on: the dataset version and the sources' freshness. The response
    /// cache keys on it, so a sync that changes no data still refreshes `/api/v1/sources`.
    pub fn revision(&self) -> u64 {
        (u64::from(self.version().unsigned_abs()) << 32) ^ self.freshness.digest
    }

    /// What the syncs found at `source`; `None` for a source no sync has fetched.
    pub fn freshness(&self, source: &str) -> Option<&freshness::Freshness> {
        self.freshness.get(source)
    }

    /// Every source's freshness and served copy.
    pub fn freshnesses(&self) -> &freshness::Freshnesses {
        &self.freshness
    }

    pub fn model(&self, slug: &str) -> Option<&Row<model::Model>> {
        self.model_index.get(slug).map(|&i| &self.models[i])
    }

    /// A model by slug or any of its aliases.
    pub fn model_or_alias(&self, slug: &str) -> Option<&Row<model::Model>> {
        self.model_index
            .get(slug)
            .or_else(|| self.alias_index.get(slug))
            .map(|&i| &self.models[i])
    }

    pub fn aliases_of(&self, model: &str) -> &[String] {
        self.aliases.get(model).map_or(&[], Vec::as_slice)
    }

    pub fn offerings_of(&self, model: &str) -> &[Row<offering::Model>] {
        self.offerings_of.get(model).map_or(&[], Vec::as_slice)
    }

    pub fn offerings_at(&self, provider: &str) -> &[Row<offering::Model>] {
        self.offerings_at.get(provider).map_or(&[], Vec::as_slice)
    }

    pub fn created_by(&self, creator: &str) -> &[Row<model::Model>] {
        self.created_by.get(creator).map_or(&[], Vec::as_slice)
    }

    pub fn history_of(&self, model: &str) -> &[Row<price_history::Model>] {
        self.history_of.get(model).map_or(&[], Vec::as_slice)
    }

    pub fn scores_of(&self, model: &str) -> &[Row<score::Model>] {
        self.scores_of.get(model).map_or(&[], Vec::as_slice)
    }

    /// The releases of a benchmark whose source renews it (LiveBench), newest first; empty
    /// for a benchmark without releases.
    pub fn releases_of(&self, benchmark: &str) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .scores_on
            .get(benchmark)
            .into_iter()
            .flatten()
            .filter(|s| s.source == RELEASED_SOURCE)
            .filter_map(|s| s.release.as_deref())
            .collect();
        out.sort_unstable_by(|a, b| b.cmp(a));
        out.dedup();
        out
    }

    /// A benchmark's leaderboard, best first: each model's best result — independent ones
    /// only, or with `self_reported` ones too where a model has no independent result (each
    /// row says which) — of one release where the benchmark has releases (`release`, else the
    /// newest).
    pub fn leaderboard(
        &self,
        benchmark: &str,
        with_claims: bool,
        release: Option<&str>,
    ) -> Vec<Row<score::Model>> {
        let releases = self.releases_of(benchmark);
        let release = release.or(releases.first().copied());
        let scores = self.scores_on.get(benchmark).map_or(&[][..], Vec::as_slice);
        let eligible = |s: &&Row<score::Model>| {
            (releases.is_empty() || s.release.as_deref() == release)
                && (with_claims || s.provenance == INDEPENDENT)
        };
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut out: Vec<Row<score::Model>> = Vec::new();
        // Independent results first, then claims for the models still missing.
        for pass in [true, false] {
            for s in scores
                .iter()
                .filter(eligible)
                .filter(|s| (s.provenance == INDEPENDENT) == pass)
            {
                if seen.insert(s.model_slug.as_str()) {
                    out.push(s.clone());
                }
            }
        }
        let higher = self.benchmark(benchmark).is_none_or(|b| b.higher_is_better);
        out.sort_by(|a, b| {
            let o = a.score.total_cmp(&b.score);
            (if higher { o.reverse() } else { o }).then_with(|| a.model_slug.cmp(&b.model_slug))
        });
        out
    }

    pub fn agents_of(&self, model: &str) -> &[String] {
        self.agents_of.get(model).map_or(&[], Vec::as_slice)
    }

    pub fn agent_models(&self, agent: &str) -> &[String] {
        self.agent_models.get(agent).map_or(&[], Vec::as_slice)
    }

    pub fn agent_scores(&self, agent: &str) -> &[Row<agent_score::Model>] {
        self.agent_scores.get(agent).map_or(&[], Vec::as_slice)
    }

    pub fn provider(&self, slug: &str) -> Option<&Row<provider::Model>> {
        self.provider_index.get(slug).map(|&i| &self.providers[i])
    }

    /// Providers by name (case-insensitive), then slug.
    pub fn providers(&self) -> impl ExactSizeIterator<Item = &Row<provider::Model>> {
        self.providers_by_name.iter().map(|&i| &self.providers[i])
    }

    pub fn benchmark(&self, slug: &str) -> Option<&Row<benchmark::Model>> {
        self.benchmark_index.get(slug).map(|&i| &self.benchmarks[i])
    }

    /// Benchmarks by slug.
    /// What a benchmark's board holds: how many models a third party measured and how many
    /// are known from their makers' figures alone.
    pub fn evidence_on(&self, benchmark: &str) -> Evidence {
        self.evidence_on.get(benchmark).copied().unwrap_or_default()
    }

    /// The closest benchmarks, providers or agents (`noun`) to an unknown slug, as
    /// `(slug, name)`; empty for another noun.
    pub fn closest_of(&self, noun: &str, asked: &str) -> Vec<(String, String)> {
        let pairs = |slug: &'_ str, name: &'_ str| (slug.to_string(), name.to_string());
        let items: Vec<(String, String)> = match noun {
            "benchmark" => self
                .benchmarks()
                .iter()
                .map(|b| pairs(&b.slug, &b.name))
                .collect(),
            "provider" => self
                .all_providers()
                .iter()
                .map(|p| pairs(&p.slug, &p.name))
                .collect(),
            "agent" => self
                .agents()
                .iter()
                .map(|a| pairs(&a.slug, &a.name))
                .collect(),
            _ => return Vec::new(),
        };
        search::closest_named(asked, items.iter().map(|(s, n)| (s.as_str(), n.as_str())))
    }

    pub fn benchmarks(&self) -> &[Row<benchmark::Model>] {
        &self.benchmarks
    }

    pub fn agent(&self, slug: &str) -> Option<&Row<agent::Model>> {
        self.agent_index.get(slug).map(|&i| &self.agents[i])
    }

    /// Agents, best average first.
    pub fn agents(&self) -> &[Row<agent::Model>] {
        &self.agents
    }

    /// The agents with a headline result on `benchmark`, best first (by the benchmark's
    /// direction), then slug; `None` for an unknown benchmark.
    pub fn agents_on(&self, benchmark: &str) -> Option<Vec<Row<agent::Model>>> {
        let b = self.benchmark(benchmark)?;
        let mut ranked: Vec<(f64, Row<agent::Model>)> = self
            .agents
            .iter()
            .filter_map(|a| {
                let s = self
                    .agent_scores(&a.slug)
                    .iter()
                    .find(|s| s.is_headline && s.benchmark_slug == benchmark)?;
                Some((s.score, a.clone()))
            })
            .collect();
        ranked.sort_by(|(x, a), (y, b2)| {
            let by_score = if b.higher_is_better {
                y.total_cmp(x)
            } else {
                x.total_cmp(y)
            };
            by_score.then_with(|| a.slug.cmp(&b2.slug))
        });
        Some(ranked.into_iter().map(|(_, a)| a).collect())
    }

    pub fn sources(&self) -> &[source::Model] {
        &self.sources
    }

    /// Models by slug.
    pub fn all_models(&self) -> &[Row<model::Model>] {
        &self.models
    }

    /// Providers by slug.
    pub fn all_providers(&self) -> &[Row<provider::Model>] {
        &self.providers
    }

    /// Offerings by id.
    pub fn all_offerings(&self) -> &[Row<offering::Model>] {
        &self.all_offerings
    }

    /// Price-history periods by id.
    pub fn all_history(&self) -> &[Row<price_history::Model>] {
        &self.all_history
    }

    /// Scores by id.
    pub fn all_scores(&self) -> &[Row<score::Model>] {
        &self.all_scores
    }

    pub fn economy(&self) -> &economy::Economy {
        &self.economy
    }

    /// Changes on or after `since` (`YYYY-MM-DD`) of the given kinds (all when empty),
    /// newest first.
    pub fn changes<'a>(
        &'a self,
        since: Option<&'a str>,
        kinds: &'a [changes::ChangeKind],
    ) -> impl Iterator<Item = &'a changes::Change> + 'a {
        self.changes
            .iter()
            .take_while(move |c| since.is_none_or(|s| c.date.as_str() >= s))
            .filter(move |c| kinds.is_empty() || kinds.contains(&c.kind))
    }

    /// The longest list of each kind whose length depends on the data, for query costing.
    pub fn longest_lists(&self) -> Vec<(lengths::ListKind, usize)> {
        use lengths::ListKind as K;
        fn longest<T>(m: &HashMap<String, Vec<T>>, keep: impl Fn(&T) -> bool) -> usize {
            m.values()
                .map(|l| l.iter().filter(|x| keep(x)).count())
                .max()
                .unwrap_or(0)
        }
        vec![
            (K::OfferingsPerModel, longest(&self.offerings_of, |_| true)),
            (K::HistoryPerModel, longest(&self.history_of, |_| true)),
            (
                K::HeadlineScoresPerModel,
                longest(&self.scores_of, |s| s.is_headline),
            ),
            (K::ScoresPerModel, longest(&self.scores_of, |_| true)),
            (
                K::HeadlineScoresPerAgent,
                longest(&self.agent_scores, |s| s.is_headline),
            ),
            (K::ScoresPerAgent, longest(&self.agent_scores, |_| true)),
            (K::PointsPerIndicator, self.economy.longest()),
            (K::Indicators, self.economy.indicators().len()),
            (K::ModelsPerAgent, longest(&self.agent_models, |_| true)),
        ]
    }

    /// Headline scores of `models`, per benchmark slug (sorted), per model slug.
    pub fn headline_table(&self, models: &[String]) -> BTreeMap<String, HashMap<String, f64>> {
        let mut table: BTreeMap<String, HashMap<String, f64>> = BTreeMap::new();
        for m in models {
            for s in self.scores_of(m).iter().filter(|s| s.is_headline) {
                table
                    .entry(s.benchmark_slug.clone())
                    .or_default()
                    .insert(s.model_slug.clone(), s.score);
            }
        }
        table
    }
}

/// The catalogue being served, swapped atomically when a new dataset is loaded.
pub struct Shared {
    current: ArcSwap<Catalog>,
}

impl Shared {
    pub fn new(catalog: Catalog) -> Self {
        lengths::record(&catalog.longest_lists());
        Self {
            current: ArcSwap::from_pointee(catalog),
        }
    }

    /// The snapshot a request reads from start to end.
    pub fn snapshot(&self) -> Arc<Catalog> {
        self.current.load_full()
    }

    pub fn version(&self) -> i32 {
        self.current.load().version()
    }

    /// Serves `catalog` from now on.
    pub fn replace(&self, catalog: Catalog) {
        lengths::record(&catalog.longest_lists());
        self.current.store(Arc::new(catalog));
    }

    /// Loads the database's dataset if its version differs from the one served, what the
    /// sources' statuses say has changed, or a source has turned stale; returns the version
    /// now served when it reloaded. A sync that observed nothing new changes neither, so it
    /// costs no reload (docs/sync.md).
    pub async fn refresh(&self, db: &DatabaseConnection) -> Result<Option<i32>, DbErr> {
        let Some(version) = rows::version(db).await? else {
            return Ok(None);
        };
        let now = chrono::Utc::now();
        let served = self.snapshot();
        let stale_after = served.freshness.stale_after;
        let stamp = freshness::stamp(&rows::statuses(db).await?, now, stale_after);
        if version == served.version()
            && stamp == served.freshness.digest
            && !served.freshness.due(now)
        {
            return Ok(None);
        }
        let catalog = Catalog::load_with(db, stale_after).await?;
        let loaded = catalog.version();
        self.replace(catalog);
        tracing::info!(version = loaded, "serving a new dataset");
        Ok(Some(loaded))
    }
}

/// Polls the database's dataset version every `interval` and swaps in a new catalogue
/// when it changes, so every instance sharing the database serves an import within one
/// interval. A database outage only delays that: the current catalogue keeps serving.
pub async fn watch(shared: Arc<Shared>, db: DatabaseConnection, interval: Duration) {
    let mut tick = tokio::time::interval(interval);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut failing = false;
    loop {
        tick.tick().await;
        match tokio::time::timeout(interval.max(Duration::from_secs(5)), shared.refresh(&db)).await
        {
            Ok(Ok(_)) => failing = false,
            Ok(Err(e)) if !failing => {
                failing = true;
                tracing::warn!(error = %e, "cannot read the dataset version; serving the loaded catalogue");
            }
            Err(_) if !failing => {
                failing = true;
                tracing::warn!("the database did not answer; serving the loaded catalogue");
            }
            _ => {}
        }
    }
}
