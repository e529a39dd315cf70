//! GraphQL types of scores and rankings: benchmarks and their leaderboards, scores, agents
//! and their results.

use async_graphql::{Context, Object, Result};
use entity::{agent, agent_score, benchmark, score};

use super::super::sizes::{self, ListKind};
use super::super::{bad_input, catalog};
use super::*;
use crate::catalog::Row;

/// A benchmark suite or leaderboard.
pub struct Benchmark(pub Row<benchmark::Model>);

#[Object(serial)]
impl Benchmark {
    async fn slug(&self) -> &str {
        &self.0.slug
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    /// coding, reasoning, knowledge, math, agentic, human-preference, ...
    async fn category(&self) -> &str {
        &self.0.category
    }
    /// percent, elo, ...
    async fn unit(&self) -> &str {
        &self.0.unit
    }
    async fn higher_is_better(&self) -> bool {
        self.0.higher_is_better
    }
    /// Whether scores enter `averageScore` (0-100 scales only).
    async fn in_average(&self) -> bool {
        self.0.in_average
    }
    async fn description(&self) -> &str {
        &self.0.description
    }
    async fn source_url(&self) -> &str {
        &self.0.source_url
    }
    async fn source(&self) -> &str {
        &self.0.source
    }
    async fn models_count(&self) -> i32 {
        self.0.models_count
    }
    /// Models with a result a third party measured: the default leaderboard's length.
    async fn independent_count(&self, ctx: &Context<'_>) -> Result<i32> {
        Ok(catalog(ctx)?.evidence_on(&self.0.slug).independent)
    }
    /// Models known on this benchmark only from their makers' own figures (listed with
    /// `provenance: ALL`). A board with results but no independent one holds claims only.
    async fn self_reported_count(&self, ctx: &Context<'_>) -> Result<i32> {
        Ok(catalog(ctx)?.evidence_on(&self.0.slug).self_reported)
    }
    /// True when every result on this board is a maker's own figure: no third party
    /// measured any model here, so the default leaderboard is empty and `provenance: ALL`
    /// lists the claims.
    async fn claims_only(&self, ctx: &Context<'_>) -> Result<bool> {
        Ok(catalog(ctx)?.evidence_on(&self.0.slug).claims_only())
    }
    /// Why the benchmark does or does not enter `averageScore`.
    async fn average_reason(&self) -> &str {
        &self.0.average_reason
    }
    /// Capability index at which half its tasks are solved; null outside the index fit.
    async fn difficulty(&self) -> Option<f64> {
        self.0.difficulty
    }
    /// How sharply it separates capabilities near its difficulty (logit per index point).
    async fn slope(&self) -> Option<f64> {
        self.0.slope
    }
    /// The releases of a benchmark its source renews (LiveBench), newest first; empty
    /// otherwise. Results of two releases do not compare.
    async fn releases(&self, ctx: &Context<'_>) -> Result<Vec<String>> {
        Ok(catalog(ctx)?
            .releases_of(&self.0.slug)
            .into_iter()
            .map(str::to_string)
            .collect())
    }
    /// The leaderboard: each model's best result, best first. Independent results only by
    /// default; `provenance: ALL` adds makers' own figures for models without one (each
    /// row's `provenance` says which). A benchmark with releases shows its newest unless
    /// `release` names another. `limit`: 1-100, default 20.
    #[graphql(
        complexity = "limit.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    async fn top_models(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Number of top models, 1-100 (default 20).")] limit: Option<i32>,
        #[graphql(desc = "Whose results are listed (default: independent ones).")]
        provenance: Option<Provenance>,
        #[graphql(
            desc = "For a benchmark its source renews (LiveBench, see `releases`): the release to show, YYYY-MM-DD; the newest by default."
        )]
        release: Option<String>,
    ) -> Result<Vec<Score>> {
        let limit = limit.unwrap_or(DEFAULT_FIRST);
        if !(1..=MAX_FIRST).contains(&limit) {
            return Err(bad_input(
                "limit",
                format!("limit must be between 1 and {MAX_FIRST}, got {limit}"),
            ));
        }
        let catalog = catalog(ctx)?;
        if let Some(r) = &release {
            let known = catalog.releases_of(&self.0.slug);
            if !known.contains(&r.as_str()) {
                let list = if known.is_empty() {
                    "it has no releases".to_string()
                } else {
                    format!("its releases are {}", known.join(", "))
                };
                return Err(bad_input(
                    "release",
                    format!("{} has no release {r}: {list}", self.0.slug),
                ));
            }
        }
        Ok(catalog
            .leaderboard(
                &self.0.slug,
                provenance == Some(Provenance::All),
                release.as_deref(),
            )
            .into_iter()
            .take(limit as usize)
            .map(Score)
            .collect())
    }
}

entity::vocabulary! {
    /// Which results a leaderboard lists.
    #[derive(async_graphql::Enum)]
    pub enum Provenance {
        /// Results a third party measured (the default).
        Independent = "independent",
        /// Those, and makers' own figures for models no third party measured.
        All = "all",
    }
}

/// A model's score on a benchmark.
pub struct Score(pub Row<score::Model>);

#[Object(serial)]
impl Score {
    async fn benchmark(&self, ctx: &Context<'_>) -> Result<Option<Benchmark>> {
        Ok(catalog(ctx)?
            .benchmark(&self.0.benchmark_slug)
            .cloned()
            .map(Benchmark))
    }
    async fn model(&self, ctx: &Context<'_>) -> Result<Option<Model>> {
        Ok(catalog(ctx)?.model(&self.0.model_slug).cloned().map(Model))
    }
    async fn score(&self) -> f64 {
        self.0.score
    }
    /// Run configuration (reasoning effort, function calling or prompting, ...).
    async fn config(&self) -> Option<&str> {
        self.0.config.as_deref()
    }
    /// Whether this is the figure used for the model on this benchmark.
    async fn is_headline(&self) -> bool {
        self.0.is_headline
    }
    async fn source(&self) -> &str {
        &self.0.source
    }
    /// When the model was measured (YYYY-MM-DD), as its source dates the result; never
    /// before the model's release: a result a source files under an earlier day (a benchmark
    /// release's, an early-access run's) is dated by the first observation of the copy that
    /// lists it, else by the release. Null when the source gives no date.
    async fn as_of(&self) -> Option<&str> {
        self.0.as_of.as_deref()
    }
    /// For a benchmark its source renews (LiveBench), the release (YYYY-MM-DD) whose
    /// questions the result answers; null otherwise. Results of two releases do not compare.
    async fn release(&self) -> Option<&str> {
        self.0.release.as_deref()
    }
    /// `independent` (a third party ran it) or `self_reported` (the model's maker published
    /// it), by the reviewed rules of `data/score_provenance.csv`.
    async fn provenance(&self) -> &str {
        self.0.provenance.as_str()
    }
    /// Where the figure can be checked, where the source gives it.
    async fn citation(&self) -> Option<&str> {
        self.0.citation.as_deref()
    }
    /// Whether it enters the model's capability index (and so its average).
    async fn in_average(&self) -> bool {
        self.0.in_average
    }
    /// A maker's own figure corrected by the gap measured between makers' claims and
    /// independent runs; null for an independent score.
    async fn calibrated(&self) -> Option<f64> {
        self.0.calibrated
    }
}

/// An agent: a system built on one or more models.
pub struct Agent(pub Row<agent::Model>);

#[Object(serial)]
impl Agent {
    async fn slug(&self) -> &str {
        &self.0.slug
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn organization(&self) -> Option<&str> {
        self.0.organization.as_deref()
    }
    async fn open_source(&self) -> Option<bool> {
        self.0.open_source
    }
    /// Date of the agent's latest result.
    async fn date(&self) -> Option<&str> {
        self.0.date.as_deref()
    }
    async fn average_score(&self) -> Option<f64> {
        self.0.average_score
    }
    async fn benchmarks_count(&self) -> i32 {
        self.0.benchmarks_count
    }
    /// Capability index fitted jointly with the models' (null with fewer than 2 scores).
    async fn capability_index(&self) -> Option<f64> {
        self.0.capability_index
    }
    async fn capability_index_se(&self) -> Option<f64> {
        self.0.capability_index_se
    }
    /// The models the agent ran on.
    #[graphql(complexity = "sizes::list(ListKind::ModelsPerAgent, child_complexity)")]
    async fn models(&self, ctx: &Context<'_>) -> Result<Vec<Model>> {
        let catalog = catalog(ctx)?;
        Ok(catalog
            .agent_models(&self.0.slug)
            .iter()
            .filter_map(|m| catalog.model(m).cloned().map(Model))
            .collect())
    }
    #[graphql(complexity = "sizes::scores(all, true, child_complexity)")]
    async fn scores(
        &self,
        ctx: &Context<'_>,
        #[graphql(default = false)] all: bool,
    ) -> Result<Vec<AgentScore>> {
        Ok(catalog(ctx)?
            .agent_scores(&self.0.slug)
            .iter()
            .filter(|s| all || s.is_headline)
            .cloned()
            .map(AgentScore)
            .collect())
    }
}

/// An agent's result on an agent leaderboard.
pub struct AgentScore(pub Row<agent_score::Model>);

#[Object(serial)]
impl AgentScore {
    async fn benchmark(&self, ctx: &Context<'_>) -> Result<Option<Benchmark>> {
        Ok(catalog(ctx)?
            .benchmark(&self.0.benchmark_slug)
            .cloned()
            .map(Benchmark))
    }
    async fn score(&self) -> f64 {
        self.0.score
    }
    async fn is_headline(&self) -> bool {
        self.0.is_headline
    }
    async fn source(&self) -> &str {
        &self.0.source
    }
    async fn as_of(&self) -> Option<&str> {
        self.0.as_of.as_deref()
    }
}
