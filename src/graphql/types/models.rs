//! GraphQL types of a model: the model itself, its cheapest offerings, its standing in a
//! domain, and models side by side (`docs/graphql.md`).

use async_graphql::{Context, Object, Result, SimpleObject};
use entity::vocab::{DateBasis, PriceBasis};
use entity::{model, model_domain};

use super::super::catalog;
use super::super::sizes::{self, ListKind};
use super::*;
use crate::catalog::Row;

fn modalities(s: &str) -> Vec<String> {
    s.split(',')
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect()
}

/// An AI model.
pub struct Model(pub Row<model::Model>);

#[Object(serial)]
impl Model {
    /// Canonical identifier (the dated snapshot where there is one).
    async fn slug(&self) -> &str {
        &self.0.slug
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    /// The organisation that created the model.
    async fn creator(&self, ctx: &Context<'_>) -> Result<Option<Provider>> {
        match &self.0.creator_slug {
            Some(c) => Ok(catalog(ctx)?.provider(c).cloned().map(Provider)),
            None => Ok(None),
        }
    }
    /// `api` (a provider offers it), `open_weights` (weights published, no priced offering)
    /// or `research` (known only from a benchmark table).
    async fn availability(&self) -> &str {
        self.0.availability.as_str()
    }
    /// What the model is for: `chat`, `embedding`, `image_generation`, `speech_to_text`,
    /// `text_to_speech`, `video_generation`, `rerank`, `moderation`, `router` (a product
    /// that picks a model per request; lists leave it out unless a task or availability
    /// filter asks) or `other`.
    async fn task(&self) -> Task {
        self.0.task
    }
    /// `llm`, `multimodal` (takes images, audio or video) or `image` (outputs images).
    async fn category(&self) -> Category {
        self.0.category
    }
    async fn family(&self) -> Option<&str> {
        self.0.family.as_deref()
    }
    /// Whether the weights are published; null when unknown.
    async fn open_source(&self) -> Option<bool> {
        self.0.open_source
    }
    /// ISO date (`YYYY-MM-DD`, or `YYYY-MM` where only the month is known).
    async fn release_date(&self) -> Option<&str> {
        self.0.release_date.as_deref()
    }
    /// The earliest day (`YYYY-MM-DD`) any source was observed listing the model: the day
    /// it appeared in a price list or its log, else the observation day of the source's copy.
    async fn first_seen(&self) -> Option<&str> {
        self.0.first_seen.as_deref()
    }
    /// Which date dates the model in `sort: DATE` and the changes feed: `release_date`, else
    /// `first_seen` where the model was new when first listed (after its sources'
    /// observation began, not retiring); null otherwise — the model's age is unknown.
    async fn date_basis(&self) -> Option<&str> {
        self.0.date_basis.map(DateBasis::as_str)
    }
    /// Context window in tokens.
    async fn context_window(&self) -> Option<i64> {
        self.0.context_window
    }
    async fn max_output_tokens(&self) -> Option<i64> {
        self.0.max_output_tokens
    }
    async fn input_modalities(&self) -> Vec<String> {
        modalities(&self.0.input_modalities)
    }
    async fn output_modalities(&self) -> Vec<String> {
        modalities(&self.0.output_modalities)
    }
    async fn reasoning(&self) -> Option<bool> {
        self.0.reasoning
    }
    /// Whether its API takes a response schema (structured output); null when unknown.
    async fn structured_output(&self) -> Option<bool> {
        self.0.structured_output
    }
    /// The month (`YYYY-MM`) or day its training data ends.
    async fn knowledge_cutoff(&self) -> Option<&str> {
        self.0.knowledge_cutoff.as_deref()
    }
    /// When models.dev last updated its record of the model.
    async fn last_updated(&self) -> Option<&str> {
        self.0.last_updated.as_deref()
    }
    /// The fields its sources disagree on, each with every value a source states; empty
    /// where they agree. A modality is a field of its own (`input_modalities.image`: whether
    /// it takes images). The value served is the one the sources' vote chose.
    async fn disputes(&self) -> Vec<entity::model::Dispute> {
        entity::model::Dispute::decode(self.0.disputes.as_deref())
    }
    /// What its index and average rest on: `independent` (independent runs only), `mixed`
    /// or `self_reported` (its maker's calibrated claims only); null without scores.
    async fn rank_basis(&self) -> Option<RankBasis> {
        self.0.rank_basis
    }
    /// `averageScore` at the index's lower one-sigma bound: what the default order sorts by.
    async fn rank_score(&self) -> Option<f64> {
        self.0.rank_score
    }
    /// Its standing in one domain (a benchmark category: `coding`, `math`, …); null when the
    /// domain is null or unknown, or the model has no capability index. A list asked for a
    /// `domain` passes it here.
    async fn domain_rank(
        &self,
        ctx: &Context<'_>,
        domain: Option<String>,
    ) -> Result<Option<DomainRank>> {
        let Some(domain) = domain else {
            return Ok(None);
        };
        let domain = domain.trim().to_ascii_lowercase();
        Ok(catalog(ctx)?
            .domain_of(&self.0.slug, &domain)
            .cloned()
            .map(DomainRank))
    }
    /// Its standing in every domain, by domain; empty without a capability index.
    async fn domains(&self, ctx: &Context<'_>) -> Result<Vec<DomainRank>> {
        Ok(catalog(ctx)?
            .domains_of(&self.0.slug)
            .iter()
            .cloned()
            .map(DomainRank)
            .collect())
    }
    /// The general release that replaced this experimental or preview model; null otherwise.
    async fn superseded_by(&self, ctx: &Context<'_>) -> Result<Option<Model>> {
        let Some(ga) = self.0.superseded_by.as_deref() else {
            return Ok(None);
        };
        Ok(catalog(ctx)?.model(ga).cloned().map(Model))
    }
    /// The model a fine-tune or merge derives from (`creator` is then its publisher); null
    /// for a model its id names no base of.
    async fn base_model(&self, ctx: &Context<'_>) -> Result<Option<Model>> {
        let Some(base) = self.0.base_model.as_deref() else {
            return Ok(None);
        };
        Ok(catalog(ctx)?.model(base).cloned().map(Model))
    }
    /// The day its creator stops serving it, as announced (LiteLLM records it).
    async fn deprecation_date(&self) -> Option<&str> {
        self.0.deprecation_date.as_deref()
    }
    /// Its creator has deprecated it: a deprecation date is announced, or the creator's own
    /// entry marks it deprecated. It may still be served until it is `retired`; a deprecated
    /// preview is left out of lists unless asked for.
    async fn deprecated(&self) -> bool {
        self.0.deprecated
    }
    /// Its creator's deprecation date has passed; lists leave it out unless asked for.
    async fn retired(&self) -> bool {
        self.0.retired
    }
    async fn tool_call(&self) -> Option<bool> {
        self.0.tool_call
    }
    /// Unweighted mean of the headline scores on 0-100 benchmarks, 2 decimals; null when none.
    async fn average_score(&self) -> Option<f64> {
        self.0.average_score
    }
    /// Number of benchmarks averaged into `averageScore`.
    async fn benchmarks_count(&self) -> i32 {
        self.0.benchmarks_count
    }
    /// Capability fitted jointly over every 0-100 headline score of every model (GPT-4 =
    /// 100, GPT-5 = 150); comparable whatever benchmarks each model was measured on; null
    /// with fewer than 2 such scores.
    async fn capability_index(&self) -> Option<f64> {
        self.0.capability_index
    }
    /// Standard error of `capabilityIndex`, in index points.
    async fn capability_index_se(&self) -> Option<f64> {
        self.0.capability_index_se
    }
    /// List input price, USD per 1M tokens: the creator's own API (`priceBasis:
    /// first_party`), else the median paid offering (`median`); null when no paid price is
    /// known, 0 when the creator offers the model free.
    async fn input_price(&self) -> Option<f64> {
        self.0.input_price
    }
    /// List output price (the same offering as `inputPrice`).
    async fn output_price(&self) -> Option<f64> {
        self.0.output_price
    }
    /// How the list price was chosen: `first_party` or `median`; null without a price.
    async fn price_basis(&self) -> Option<&str> {
        self.0.price_basis.map(PriceBasis::as_str)
    }
    /// The cheapest offering a careful buyer would use: the creator's own API, a cloud or a
    /// router (resellers, plans and free tiers are `cheapestAny`'s); null when none.
    async fn cheapest(&self, ctx: &Context<'_>) -> Result<Option<Cheapest>> {
        let Some(p) = &self.0.cheapest_provider else {
            return Ok(None);
        };
        let catalog = catalog(ctx)?;
        let kind = catalog
            .offerings_of(&self.0.slug)
            .iter()
            .find(|o| &o.provider_slug == p)
            .map_or(OfferingKind::FirstParty, |o| o.kind);
        Ok(catalog.provider(p).cloned().map(|provider| Cheapest {
            provider: Provider(provider),
            kind,
            input_price: self.0.cheapest_input_price,
            output_price: self.0.cheapest_output_price,
        }))
    }
    /// The cheapest offering of any kind, resellers, plans (a subscription's per-token
    /// equivalent or 0) and free tiers included, labelled by its `kind`; a sale its provider
    /// ended only where none is current; null when none is priced.
    async fn cheapest_any(&self, ctx: &Context<'_>) -> Result<Option<Cheapest>> {
        let catalog = catalog(ctx)?;
        // A sale ended by the dataset's day is no way to buy (docs/data.md, "Ended sales").
        let day = catalog.dataset.as_ref().map_or("", |d| d.built_at.as_str());
        let best = catalog
            .offerings_of(&self.0.slug)
            .iter()
            .filter(|o| o.input_price.is_some())
            .min_by(|a, b| {
                a.ended_by(day)
                    .cmp(&b.ended_by(day))
                    .then_with(|| crate::catalog::nulls_last(a.input_price, b.input_price, false))
                    .then_with(|| crate::catalog::nulls_last(a.output_price, b.output_price, false))
                    .then_with(|| a.provider_slug.cmp(&b.provider_slug))
            });
        Ok(best.and_then(|o| {
            catalog
                .provider(&o.provider_slug)
                .cloned()
                .map(|provider| Cheapest {
                    provider: Provider(provider),
                    kind: o.kind,
                    input_price: o.input_price,
                    output_price: o.output_price,
                })
        }))
    }
    /// Other names the model is known by; each resolves to this model.
    async fn aliases(&self, ctx: &Context<'_>) -> Result<Vec<String>> {
        Ok(catalog(ctx)?.aliases_of(&self.0.slug).to_vec())
    }
    /// Current prices at every provider that offers the model, cheapest first.
    #[graphql(complexity = "sizes::list(ListKind::OfferingsPerModel, child_complexity)")]
    async fn offerings(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only offerings of this kind.")] kind: Option<OfferingKind>,
        #[graphql(desc = "No offerings of this kind.")] exclude_kind: Option<OfferingKind>,
    ) -> Result<Vec<Offering>> {
        let only = crate::catalog::costs::Only {
            provider: None,
            kind,
            exclude_kind,
        };
        Ok(catalog(ctx)?
            .offerings_of(&self.0.slug)
            .iter()
            .filter(|o| only.admits(o))
            .cloned()
            .map(Offering)
            .collect())
    }
    /// Price history, newest first; `effectiveTo` null is the current period.
    #[graphql(complexity = "sizes::list(ListKind::HistoryPerModel, child_complexity)")]
    async fn price_history(&self, ctx: &Context<'_>) -> Result<Vec<PricePoint>> {
        Ok(catalog(ctx)?
            .history_of(&self.0.slug)
            .iter()
            .cloned()
            .map(PricePoint)
            .collect())
    }
    /// Benchmark scores: the headline score per benchmark, or every variant with `all: true`.
    #[graphql(complexity = "sizes::scores(all, false, child_complexity)")]
    async fn scores(
        &self,
        ctx: &Context<'_>,
        #[graphql(default = false)] all: bool,
    ) -> Result<Vec<Score>> {
        Ok(catalog(ctx)?
            .scores_of(&self.0.slug)
            .iter()
            .filter(|s| all || s.is_headline)
            .cloned()
            .map(Score)
            .collect())
    }
    /// Slugs of agents that ran on this model.
    async fn agents(&self, ctx: &Context<'_>) -> Result<Vec<String>> {
        Ok(catalog(ctx)?.agents_of(&self.0.slug).to_vec())
    }
}

/// A model's cheapest offering of some kinds.
#[derive(SimpleObject)]
#[graphql(serial)]
pub struct Cheapest {
    pub provider: Provider,
    /// The offering's kind (see `Offering.kind`).
    pub kind: OfferingKind,
    pub input_price: Option<f64>,
    pub output_price: Option<f64>,
}

/// A model's standing in one domain (a benchmark category), computed at ingest: its
/// capability index fitted on the domain's benchmarks and shrunk toward its general index
/// where the domain has little evidence (`docs/methodology.md`, "Rankings per domain").
pub struct DomainRank(pub Row<model_domain::Model>);

#[Object(serial)]
impl DomainRank {
    /// The domain: `coding`, `math`, `reasoning`, `agentic`, `knowledge`, `long-context`, ….
    async fn domain(&self) -> &str {
        &self.0.domain
    }
    /// The domain capability index, on the general index's scale (GPT-4 = 100, GPT-5 = 150).
    async fn capability_index(&self) -> f64 {
        self.0.capability_index
    }
    /// Its standard error, in index points: wide where the domain has little evidence.
    async fn capability_index_se(&self) -> f64 {
        self.0.capability_index_se
    }
    /// The expected mean score (0-100) on the domain's core benchmarks at the domain index.
    async fn average_score(&self) -> Option<f64> {
        self.0.average_score
    }
    /// `averageScore` at the domain index's lower one-sigma bound: what a domain list sorts by.
    async fn rank_score(&self) -> Option<f64> {
        self.0.rank_score
    }
    /// How many of the model's counted scores are in the domain; 0 when the domain figure
    /// is its general index alone, with the domain's spread added to its error.
    async fn benchmarks_count(&self) -> i32 {
        self.0.benchmarks_count
    }
    /// What those scores rest on: `independent`, `mixed` or `self_reported`; null without any.
    async fn basis(&self) -> Option<RankBasis> {
        self.0.basis
    }
}

/// One benchmark in a comparison: each compared model's headline score (null where none).
#[derive(SimpleObject)]
#[graphql(serial)]
pub struct ComparedBenchmark {
    pub benchmark: BenchmarkRef,
    pub scores: Vec<ComparedScore>,
}

#[derive(SimpleObject, Clone)]
#[graphql(serial)]
pub struct BenchmarkRef {
    pub slug: String,
    pub name: String,
    pub unit: String,
    pub higher_is_better: bool,
}

#[derive(SimpleObject)]
#[graphql(serial)]
pub struct ComparedScore {
    /// The model's slug.
    pub model: String,
    pub score: Option<f64>,
}

/// Models side by side.
pub struct Comparison {
    /// The identifiers as asked, in order: `models[i]` is what `requested[i]` names.
    pub requested: Vec<String>,
    pub models: Vec<Row<model::Model>>,
    pub benchmarks: Vec<ComparedBenchmark>,
}

#[Object(serial)]
impl Comparison {
    /// The identifiers as asked (slugs, aliases, any provider's model id), in order.
    async fn requested(&self) -> &[String] {
        &self.requested
    }
    /// The compared models, in the order asked.
    async fn models(&self) -> Vec<Model> {
        self.models.iter().cloned().map(Model).collect()
    }
    /// Every benchmark on which at least one of the models has a headline score, by slug.
    async fn benchmarks(&self) -> &[ComparedBenchmark] {
        &self.benchmarks
    }
}
