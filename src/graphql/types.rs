//! GraphQL object types. Each wraps a row of the catalogue (shared, never copied); the row's
//! columns are not the API, these resolvers are. Related records are index lookups in the
//! request's catalogue snapshot ([`catalog`]).

use async_graphql::connection::{Connection, CursorType, Edge, EmptyFields};
use async_graphql::{Context, Object, Result, SimpleObject};
use entity::{
    agent, agent_score, benchmark, dataset, model, model_domain, offering, price_history, provider,
    score, source,
};

use super::sizes::{self, ListKind};
use super::{bad_input, catalog};
use crate::catalog::Row;

/// Rows of a list, with the total count of matches.
#[derive(SimpleObject)]
#[graphql(serial)]
pub struct ListInfo {
    /// Number of items matching, over all pages.
    pub total_count: i64,
}

pub type List<T> = Connection<usize, T, ListInfo, EmptyFields>;

/// The default and maximum page sizes (`docs/rest.md`).
pub const DEFAULT_FIRST: i32 = 20;
pub const MAX_FIRST: i32 = 100;
/// The furthest position a cursor or offset may point at: far past any list in the data
/// (REST pages reach 1,000,000 × 100),
/// and small enough that no arithmetic on it can overflow in any database.
pub const MAX_POSITION: usize = 100_000_000;

/// Resolves `first` / `after` / `offset` to (offset, limit). `after` is an opaque cursor of
/// an earlier page; `offset` counts from there (or from the start).
pub fn paging(
    first: Option<i32>,
    after: Option<String>,
    offset: Option<i32>,
) -> Result<(usize, usize)> {
    let first = first.unwrap_or(DEFAULT_FIRST);
    if !(1..=MAX_FIRST).contains(&first) {
        return Err(bad_input(
            "first",
            format!("first must be between 1 and {MAX_FIRST}, got {first}"),
        ));
    }
    let mut start = 0usize;
    if let Some(a) = after {
        let pos = usize::decode_cursor(&a)
            .ok()
            .filter(|p| *p < MAX_POSITION)
            .ok_or_else(|| bad_input("after", format!("{a:?} is not a cursor of this list")))?;
        start = pos + 1;
    }
    if let Some(o) = offset {
        if !(0..=MAX_POSITION as i64).contains(&i64::from(o)) {
            return Err(bad_input(
                "offset",
                format!("offset must be between 0 and {MAX_POSITION}, got {o}"),
            ));
        }
        start += o as usize;
    }
    if start > MAX_POSITION {
        return Err(bad_input(
            "offset",
            format!("after and offset together point past position {MAX_POSITION}"),
        ));
    }
    Ok((start, first as usize))
}

pub fn list<T: async_graphql::OutputType>(items: Vec<T>, start: usize, total: u64) -> List<T> {
    let end = start + items.len();
    let mut c = Connection::with_additional_fields(
        start > 0,
        (end as u64) < total,
        ListInfo {
            total_count: total as i64,
        },
    );
    c.edges.extend(
        items
            .into_iter()
            .enumerate()
            .map(|(i, n)| Edge::new(start + i, n)),
    );
    c
}

/// One page of a list already in memory (a provider's offerings, an organisation's models).
pub fn page_of<T, U: async_graphql::OutputType>(
    rows: &[Row<T>],
    start: usize,
    limit: usize,
    wrap: impl Fn(Row<T>) -> U,
) -> List<U> {
    let total = rows.len() as u64;
    list(
        rows.iter()
            .skip(start)
            .take(limit)
            .cloned()
            .map(wrap)
            .collect(),
        start,
        total,
    )
}

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
        &self.0.availability
    }
    /// What the model is for: `chat`, `embedding`, `image_generation`, `speech_to_text`,
    /// `text_to_speech`, `video_generation`, `rerank`, `moderation`, `router` (a product
    /// that picks a model per request; lists leave it out unless a task or availability
    /// filter asks) or `other`.
    async fn task(&self) -> &str {
        &self.0.task
    }
    /// `llm`, `multimodal` (takes images, audio or video) or `image` (outputs images).
    async fn category(&self) -> &str {
        &self.0.category
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
    /// Which date dates the model in `sort: DATE`, the changes feed and `models-released`:
    /// `release_date`, else `first_seen`; null with neither.
    async fn date_basis(&self) -> Option<&str> {
        self.0.date_basis.as_deref()
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
    async fn rank_basis(&self) -> Option<&str> {
        self.0.rank_basis.as_deref()
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
        self.0.price_basis.as_deref()
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
            .map_or_else(String::new, |o| o.kind.clone());
        Ok(catalog.provider(p).cloned().map(|provider| Cheapest {
            provider: Provider(provider),
            kind,
            input_price: self.0.cheapest_input_price,
            output_price: self.0.cheapest_output_price,
        }))
    }
    /// The cheapest offering of any kind, resellers, plans (a subscription's per-token
    /// equivalent or 0) and free tiers included, labelled by its `kind`; null when none is
    /// priced.
    async fn cheapest_any(&self, ctx: &Context<'_>) -> Result<Option<Cheapest>> {
        let catalog = catalog(ctx)?;
        let best = catalog
            .offerings_of(&self.0.slug)
            .iter()
            .filter(|o| o.input_price.is_some())
            .min_by(|a, b| {
                crate::catalog::nulls_last(a.input_price, b.input_price, false)
                    .then_with(|| crate::catalog::nulls_last(a.output_price, b.output_price, false))
                    .then_with(|| a.provider_slug.cmp(&b.provider_slug))
            });
        Ok(best.and_then(|o| {
            catalog
                .provider(&o.provider_slug)
                .cloned()
                .map(|provider| Cheapest {
                    provider: Provider(provider),
                    kind: o.kind.clone(),
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
            kind: kind.map(OfferingKind::as_str),
            exclude_kind: exclude_kind.map(OfferingKind::as_str),
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
    pub kind: String,
    pub input_price: Option<f64>,
    pub output_price: Option<f64>,
}

/// A model's price at one provider. Prices are USD per 1M tokens; null is unknown, 0 is free.
pub struct Offering(pub Row<offering::Model>);

// The price objects an offering holds (`PriceTier`, `PriceVariant`, `RegionalPrice`,
// `PriceWitness`, `UpcomingPrice`, `UnitPrice`) are the stored structs themselves: the entity
// crate derives their GraphQL types (its `graphql` feature), so each field is listed once.
use entity::offering::{RegionalPrice, Tier, UnitPrice, Upcoming, Variant, Witness};

#[Object(serial)]
impl Offering {
    async fn provider(&self, ctx: &Context<'_>) -> Result<Option<Provider>> {
        Ok(catalog(ctx)?
            .provider(&self.0.provider_slug)
            .cloned()
            .map(Provider))
    }
    /// The model's slug.
    async fn model(&self) -> &str {
        &self.0.model_slug
    }
    /// The identifier the provider's API uses.
    async fn provider_model_id(&self) -> &str {
        &self.0.provider_model_id
    }
    /// Who sells it: `first_party` (the creator's own API), `cloud`, `router`, `reseller`,
    /// `plan` (a subscription) or `free_tier`.
    async fn kind(&self) -> &str {
        &self.0.kind
    }
    async fn input_price(&self) -> Option<f64> {
        self.0.input_price
    }
    async fn output_price(&self) -> Option<f64> {
        self.0.output_price
    }
    async fn cache_read_price(&self) -> Option<f64> {
        self.0.cache_read_price
    }
    async fn cache_write_price(&self) -> Option<f64> {
        self.0.cache_write_price
    }
    /// Long-context tiers, lowest threshold first: a request whose prompt is longer than
    /// `fromTokens` is billed wholly at that tier's prices. Empty when one price fits all.
    async fn tiers(&self) -> Vec<Tier> {
        Tier::decode(self.0.tiers.as_deref())
    }
    /// Prices in other units than text tokens where the source publishes them: image and
    /// audio tokens, a one-hour cache write, web searches, requests. Empty when the offering
    /// is priced in text tokens only.
    async fn unit_prices(&self) -> Vec<UnitPrice> {
        UnitPrice::decode(self.0.unit_prices.as_deref())
    }
    /// The same offering bought in another mode at its own prices (`batch`, `flex`,
    /// `priority`, `fast`), as the source publishes them; empty when it publishes none.
    async fn variants(&self) -> Vec<Variant> {
        Variant::decode(self.0.variants.as_deref())
    }
    /// The offering's price in single regions where its source prices them (AWS regions,
    /// Bedrock's `us`/`eu`/`apac` profiles, Azure's `us`/`eu`/`global` data zones); the
    /// prices above are the provider's general price. Empty when none is priced.
    async fn regions(&self) -> Vec<RegionalPrice> {
        RegionalPrice::decode(self.0.regions.as_deref())
    }
    /// Every source that prices the model at this provider, the served one first, each with
    /// its standard price and whether it agrees with the one served.
    async fn sources(&self) -> Vec<Witness> {
        Witness::decode(self.0.sources.as_deref())
    }
    /// True when the sources' standard prices differ beyond rounding (see `sources`).
    async fn disputed(&self) -> bool {
        self.0.disputed
    }
    /// The day the provider has announced it stops serving the model; null when none is.
    async fn deprecation_date(&self) -> Option<&str> {
        self.0.deprecation_date.as_deref()
    }
    /// A price change the source has announced for a later day (the price above holds
    /// until then); null when none is announced.
    async fn upcoming(&self) -> Option<Upcoming> {
        Upcoming::decode(self.0.upcoming.as_deref())
    }
    /// Always `USD`.
    async fn currency(&self) -> &str {
        "USD"
    }
    /// Always `1M tokens`.
    async fn unit(&self) -> &str {
        "1M tokens"
    }
    async fn context_window(&self) -> Option<i64> {
        self.0.context_window
    }
    /// The date the price was read from its source.
    async fn as_of(&self) -> Option<&str> {
        self.0.as_of.as_deref()
    }
    /// Slug of the source dataset.
    async fn source(&self) -> &str {
        &self.0.source
    }
}

/// One period of a model's price at a provider.
pub struct PricePoint(pub Row<price_history::Model>);

#[Object(serial)]
impl PricePoint {
    async fn provider(&self, ctx: &Context<'_>) -> Result<Option<Provider>> {
        Ok(catalog(ctx)?
            .provider(&self.0.provider_slug)
            .cloned()
            .map(Provider))
    }
    async fn input_price(&self) -> Option<f64> {
        self.0.input_price
    }
    async fn output_price(&self) -> Option<f64> {
        self.0.output_price
    }
    async fn cache_read_price(&self) -> Option<f64> {
        self.0.cache_read_price
    }
    async fn cache_write_price(&self) -> Option<f64> {
        self.0.cache_write_price
    }
    /// First day of the period (may lie ahead: an announced change).
    async fn effective_from(&self) -> &str {
        &self.0.effective_from
    }
    /// Day the next period began; null for the latest period.
    async fn effective_to(&self) -> Option<&str> {
        self.0.effective_to.as_deref()
    }
    /// Set when no source dated the change and it was seen between two observations: the
    /// earlier observation's day. The change happened after it, on or before
    /// `effectiveFrom` (the later observation's day).
    async fn observed_after(&self) -> Option<&str> {
        self.0.observed_after.as_deref()
    }
    async fn source(&self) -> &str {
        &self.0.source
    }
}

/// An organisation that creates and/or serves models.
pub struct Provider(pub Row<provider::Model>);

#[Object(serial)]
impl Provider {
    async fn slug(&self) -> &str {
        &self.0.slug
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn website(&self) -> Option<&str> {
        self.0.website.as_deref()
    }
    /// `creator` (a model creator's own API), `cloud`, `router`, `reseller` or `plan`.
    async fn kind(&self) -> &str {
        &self.0.kind
    }
    /// Number of models the provider offers.
    async fn models_count(&self) -> i32 {
        self.0.models_count
    }
    /// Number of models the organisation created.
    async fn created_count(&self) -> i32 {
        self.0.created_count
    }
    /// The provider's offerings (its current price for each model it serves), by model slug.
    #[graphql(
        complexity = "first.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    async fn offerings(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        offset: Option<i32>,
    ) -> Result<List<Offering>> {
        let (start, limit) = paging(first, after, offset)?;
        let rows = catalog(ctx)?.offerings_at(&self.0.slug);
        Ok(page_of(rows, start, limit, Offering))
    }
    /// Models the organisation created, by slug.
    #[graphql(
        complexity = "first.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    async fn created_models(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        offset: Option<i32>,
    ) -> Result<List<Model>> {
        let (start, limit) = paging(first, after, offset)?;
        let rows = catalog(ctx)?.created_by(&self.0.slug);
        Ok(page_of(rows, start, limit, Model))
    }
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
    async fn basis(&self) -> Option<&str> {
        self.0.basis.as_deref()
    }
}

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

/// Who sells an offering.
#[derive(async_graphql::Enum, Copy, Clone, Eq, PartialEq, Debug)]
pub enum OfferingKind {
    /// The model creator's own API.
    FirstParty,
    Cloud,
    Router,
    Reseller,
    /// A subscription.
    Plan,
    /// Offered at 0/0.
    FreeTier,
}

impl OfferingKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::FirstParty => "first_party",
            Self::Cloud => "cloud",
            Self::Router => "router",
            Self::Reseller => "reseller",
            Self::Plan => "plan",
            Self::FreeTier => "free_tier",
        }
    }
}

/// Which results a leaderboard lists.
#[derive(async_graphql::Enum, Copy, Clone, Eq, PartialEq)]
pub enum Provenance {
    /// Results a third party measured (the default).
    Independent,
    /// Those, and makers' own figures for models no third party measured.
    All,
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
        &self.0.provenance
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

/// A public dataset the data comes from.
#[derive(SimpleObject, Debug)]
#[graphql(serial)]
pub struct Source {
    pub slug: String,
    pub name: String,
    /// GitHub `owner/name`.
    pub repository: String,
    /// The release or commit of the copy shipped with the service (its provenance);
    /// `release` names the copy actually served.
    pub commit: String,
    /// The upstream's name for the copy the served dataset was built from, from the
    /// observation store: a release or commit for a bundled copy, else the `ETag` (or
    /// `Last-Modified`) it was fetched with; null where the store does not know it.
    pub release: Option<String>,
    /// The upstream's own date for that copy: the `Last-Modified` it was fetched with (RFC
    /// 3339), or for a bundled copy the day its release or commit is dated; null where the
    /// upstream sent none. `snapshotDate` is when the service first observed it.
    pub release_date: Option<String>,
    /// Date of the data (all figures are as of this day).
    pub snapshot_date: String,
    /// SPDX-style licence of the data.
    pub license: String,
    /// Attribution text to show with data from this source.
    pub attribution: String,
    pub url: String,
    /// `bundled` (the copy shipped with the service: no sync has fetched this source), `ok`,
    /// `stale` (no successful sync for longer than `MDS_SYNC_STALE_AFTER`) or `failed` (the
    /// last sync kept no new copy: `error` says why; the data is the last good copy's) or
    /// `held` (the new copy grew, shrank or failed validation beyond the sync's bounds and
    /// waits for an operator; `error` gives the counts; the data is the last good copy's) or
    /// `waiting` (a new copy is recorded but not served yet: another source has no stored
    /// copy to build with, `error` names it; the served dataset is kept).
    pub status: String,
    /// Where `mds sync` fetched it from (its first file: upstream or mirror).
    pub upstream: Option<String>,
    /// The upstream's version of that file: its ETag, else its Last-Modified.
    pub upstream_version: Option<String>,
    /// When a sync last tried it (RFC 3339, UTC).
    pub last_fetched: Option<String>,
    /// When a sync last kept a good copy, changed or not.
    pub last_success: Option<String>,
    /// Why the last sync failed.
    pub error: Option<String>,
    /// Rows the adapter read from the last good copy.
    pub rows: Option<i64>,
}

impl Source {
    pub fn new(
        s: &source::Model,
        fresh: Option<&crate::catalog::freshness::Freshness>,
        served: Option<&crate::catalog::freshness::ServedCopy>,
    ) -> Self {
        let row = fresh.map(|f| &f.row);
        Self {
            slug: s.slug.clone(),
            name: s.name.clone(),
            repository: s.repository.clone(),
            commit: s.commit.clone(),
            release: served.and_then(|c| c.release.clone()),
            release_date: served.and_then(|c| c.date.clone()),
            snapshot_date: s.snapshot_date.clone(),
            license: s.license.clone(),
            attribution: s.attribution.clone(),
            url: s.url.clone(),
            status: fresh.map_or("bundled", |f| f.status).to_string(),
            upstream: row.map(|r| r.upstream.clone()),
            upstream_version: row.and_then(|r| r.version.clone()),
            last_fetched: row.map(|r| r.last_fetched.clone()),
            last_success: row.and_then(|r| r.last_success.clone()),
            error: row.and_then(|r| r.error.clone()),
            rows: row.map(|r| r.rows),
        }
    }

    /// Every source of `catalog`, with its freshness.
    pub fn all(catalog: &crate::catalog::Catalog) -> Vec<Self> {
        catalog
            .sources()
            .iter()
            .map(|s| {
                Self::new(
                    s,
                    catalog.freshness(&s.slug),
                    catalog.freshnesses().served(&s.slug),
                )
            })
            .collect()
    }
}

/// The dataset being served.
#[derive(SimpleObject)]
#[graphql(serial)]
pub struct Dataset {
    /// Bumped by every import that changed the data.
    pub version: i32,
    /// Date of the newest source in the dataset.
    pub built_at: String,
    pub imported_at: String,
    /// SHA-256 of the imported snapshot.
    pub sha256: String,
    /// Each source's observation date (`snapshotDate`) and freshness.
    pub sources: Vec<Source>,
    /// The newest observation among the sources of current prices.
    pub prices_as_of: Option<String>,
    /// The newest observation among the sources of benchmark scores: how current a ranking is.
    pub benchmarks_as_of: Option<String>,
    /// What this version changed against the version served before it; null for the first.
    pub changes: Option<DatasetChanges>,
    /// True while an operator pins this version (`mds dataset use N`): syncs keep observing
    /// but do not switch to a new version.
    pub pinned: bool,
}

/// What a dataset version changed against the version served before it. Prices are compared
/// at 6 significant digits: a float artefact (75 and 75.0001) is no change.
#[derive(SimpleObject)]
#[graphql(serial)]
pub struct DatasetChanges {
    /// The version compared against.
    pub compared_to: Option<i32>,
    /// Models listed now and not before.
    pub models_added: i32,
    /// Models listed before and not now.
    pub models_removed: i32,
    /// Models with an offering whose input or output price changed.
    pub models_repriced: i32,
    /// Offerings whose input or output price changed.
    pub price_changes: i32,
}

impl Dataset {
    pub fn new(
        d: &dataset::Model,
        sources: Vec<Source>,
        as_of: &crate::catalog::AsOf,
        record: Option<&crate::store::versions::Summary>,
    ) -> Self {
        let n = |x: Option<i64>| x.map(|v| i32::try_from(v).unwrap_or(i32::MAX));
        let changes = record.and_then(|r| {
            Some(DatasetChanges {
                compared_to: r.compared_to,
                models_added: n(r.models_added)?,
                models_removed: n(r.models_removed)?,
                models_repriced: n(r.models_repriced)?,
                price_changes: n(r.price_changes)?,
            })
        });
        Self {
            version: d.version,
            built_at: d.built_at.clone(),
            imported_at: d.imported_at.clone(),
            sha256: d.snapshot_sha256.clone(),
            sources,
            prices_as_of: as_of.prices.clone(),
            benchmarks_as_of: as_of.benchmarks.clone(),
            changes,
            pinned: record.is_some_and(|r| r.pinned),
        }
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
