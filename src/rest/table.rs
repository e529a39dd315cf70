//! The REST endpoint table: every `/api/v1` GET is one row naming its GraphQL document, how
//! its query and path parameters become variables, and the envelope of its answer. Aliases
//! in the documents give the REST (snake_case) field names, so REST and GraphQL cannot
//! disagree.

use entity::vocab::{Category, OfferingKind, RankBasis, Task};

use crate::graphql::changes::ChangeType;
use crate::graphql::costs::PriceMode;
use crate::graphql::query::{Availability, Modality, ModelSort, SortOrder};
use crate::graphql::types::Provenance;

/// How a parameter is validated and turned into a GraphQL variable.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// `page` ≥ 1; becomes `offset` = (page - 1) × limit.
    Page,
    /// An integer in 1..=100 (default 20).
    Limit,
    /// One of the listed REST values, sent as the paired GraphQL enum value.
    Enum(&'static [&'static str]),
    /// `true` or `false`.
    Bool,
    /// A finite number ≥ 0.
    NonNegative,
    /// Non-empty text of at most 100 characters.
    Text,
    /// A slug (`[a-z0-9][a-z0-9.-]*`), as a path segment or a filter.
    Slug,
    /// Comma-separated distinct model identifiers (anything `/models/lookup` takes), from
    /// the given minimum to 10 of them.
    IdList(usize),
    /// A token count: a whole number from 0 to 10^9.
    Tokens,
    /// Comma-separated distinct slugs, at most the given number.
    SlugList(usize),
    /// A month, `YYYY-MM`.
    Month,
    /// A date, `YYYY-MM-DD`.
    Date,
}

/// One query or path parameter.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    /// Dotted path of the variable it sets (`filter.provider`); empty for `page`.
    pub var: &'static str,
    pub kind: Kind,
    pub required: bool,
    pub in_path: bool,
    pub description: &'static str,
}

/// The envelope of an answer (`docs/rest.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `result { total items }` → `{data: items, meta: {total, page, per_page, total_pages}}`.
    List,
    /// `result` → `{data: result, meta}`; a null result is 404.
    Item,
}

#[derive(Debug, Clone, Copy)]
pub struct Endpoint {
    /// axum route (`/api/v1/models/{slug}`).
    pub path: &'static str,
    pub summary: &'static str,
    pub document: &'static str,
    pub params: &'static [Param],
    pub shape: Shape,
    /// What a null result is called in the 404 detail (`model`, `provider`, ...).
    pub noun: &'static str,
    /// The OpenAPI schema name of one item.
    pub schema: &'static str,
    /// A realistic request: its answer, from the bundled data, is the documented example
    /// (`assets/openapi-examples.json`, checked against the data and the schema by a test).
    pub sample: &'static str,
}

const fn q(name: &'static str, var: &'static str, kind: Kind, description: &'static str) -> Param {
    Param {
        name,
        var,
        kind,
        required: false,
        in_path: false,
        description,
    }
}

const fn required(
    name: &'static str,
    var: &'static str,
    kind: Kind,
    description: &'static str,
) -> Param {
    Param {
        name,
        var,
        kind,
        required: true,
        in_path: false,
        description,
    }
}

const fn path(name: &'static str, description: &'static str) -> Param {
    Param {
        name,
        var: name,
        kind: Kind::Slug,
        required: true,
        in_path: true,
        description,
    }
}

const PAGE: Param = q("page", "", Kind::Page, "Page number, from 1 (default 1).");
const LIMIT: Param = q(
    "limit",
    "first",
    Kind::Limit,
    "Items per page, 1-100 (default 20).",
);
// Each enum parameter takes the values of one vocabulary, listed once with its variants
// (docs/ARCHITECTURE.md, "Add a vocabulary value").
const SORT: &[&str] = ModelSort::NAMES;
const ORDER: &[&str] = SortOrder::NAMES;
const CATEGORY: &[&str] = Category::NAMES;
const AVAILABILITY: &[&str] = Availability::NAMES;
const TASK: &[&str] = Task::NAMES;
const PRICE_MODE: &[&str] = PriceMode::NAMES;
const OFFERING_KIND: &[&str] = OfferingKind::NAMES;
const PROVENANCE: &[&str] = Provenance::NAMES;
const CHANGE_TYPE: &[&str] = ChangeType::NAMES;

const MODEL_LIST_PARAMS: &[Param] = &[
    PAGE,
    LIMIT,
    q("sort", "sort", Kind::Enum(SORT), ""),
    q("order", "order", Kind::Enum(ORDER), ""),
    q("provider", "filter.provider", Kind::Slug, ""),
    q("creator", "filter.creator", Kind::Slug, ""),
    q("open_source", "filter.openSource", Kind::Bool, ""),
    q("min_score", "filter.minScore", Kind::NonNegative, ""),
    q("max_price", "filter.maxPrice", Kind::NonNegative, ""),
    q("category", "filter.category", Kind::Enum(CATEGORY), ""),
    q(
        "availability",
        "filter.availability",
        Kind::Enum(AVAILABILITY),
        "",
    ),
    q("task", "filter.task", Kind::Enum(TASK), ""),
    q("retired", "filter.retired", Kind::Bool, ""),
    q("deprecated", "filter.deprecated", Kind::Bool, ""),
    q(
        "min_capability",
        "filter.minCapability",
        Kind::NonNegative,
        "",
    ),
    q(
        "max_capability",
        "filter.maxCapability",
        Kind::NonNegative,
        "",
    ),
    q("tool_call", "filter.toolCall", Kind::Bool, ""),
    q("reasoning", "filter.reasoning", Kind::Bool, ""),
    q(
        "structured_output",
        "filter.structuredOutput",
        Kind::Bool,
        "",
    ),
    q(
        "input_modality",
        "filter.inputModality",
        Kind::Enum(MODALITY),
        "",
    ),
    q(
        "output_modality",
        "filter.outputModality",
        Kind::Enum(MODALITY),
        "",
    ),
    q("min_context", "filter.minContext", Kind::Tokens, ""),
    q("basis", "filter.basis", Kind::Enum(BASIS), ""),
    q("domain", "domain", Kind::Slug, ""),
];

const BASIS: &[&str] = RankBasis::NAMES;
const MODALITY: &[&str] = Modality::NAMES;

/// Fields of a model in lists, written in the order of their REST names so the envelope's
/// writer finds each object already sorted (it sorts otherwise, at 3% of an uncached list).
macro_rules! model_summary {
    () => {
        "fragment ModelSummary on Model {
  aliases availability average_score: averageScore benchmarks_count: benchmarksCount
  capability_index: capabilityIndex capability_index_se: capabilityIndexSe category
  cheapest { input_price: inputPrice kind output_price: outputPrice provider { name slug } }
  cheapest_any: cheapestAny { input_price: inputPrice kind output_price: outputPrice provider { name slug } }
  context_window: contextWindow creator { name slug } date_basis: dateBasis
  deprecated deprecation_date: deprecationDate
  domain_rank: domainRank(domain: $domain) { average_score: averageScore basis benchmarks_count: benchmarksCount capability_index: capabilityIndex capability_index_se: capabilityIndexSe domain rank_score: rankScore }
  first_seen: firstSeen input_modalities: inputModalities input_price: inputPrice max_output_tokens: maxOutputTokens
  name open_source: openSource output_modalities: outputModalities output_price: outputPrice
  price_basis: priceBasis rank_basis: rankBasis rank_score: rankScore reasoning
  release_date: releaseDate retired slug structured_output: structuredOutput task
  tool_call: toolCall
}"
    };
}

/// Fields of one model in detail: its summary, scores and offerings (sorted by REST name too).
macro_rules! model_detail {
    () => {
        "fragment ModelDetail on Model {
  ...ModelSummary agents base_model: baseModel { creator { name slug } name slug }
  disputes { field values { source value } } family
  knowledge_cutoff: knowledgeCutoff last_updated: lastUpdated
  offerings { ...OfferingFields }
  scores { as_of: asOf benchmark { name slug } calibrated citation config in_average: inAverage provenance release score source }
  superseded_by: supersededBy { name slug }
}"
    };
}

/// Fields of an offering, in the order of their REST names (see `model_summary!`).
macro_rules! offering {
    () => {
        "fragment OfferingFields on Offering {
  as_of: asOf cache_read_price: cacheReadPrice cache_write_price: cacheWritePrice
  context_window: contextWindow currency deprecation_date: deprecationDate disputed
  input_price: inputPrice kind model output_price: outputPrice provider { name slug }
  provider_model_id: providerModelId
  regions { cache_read_price: cacheReadPrice cache_write_price: cacheWritePrice input_price: inputPrice output_price: outputPrice region }
  source
  sources { agrees input_price: inputPrice output_price: outputPrice provider_model_id: providerModelId source }
  tiers { cache_read_price: cacheReadPrice cache_write_price: cacheWritePrice from_tokens: fromTokens input_price: inputPrice output_price: outputPrice }
  unit unit_prices: unitPrices { item price unit }
  upcoming { cache_read_price: cacheReadPrice cache_write_price: cacheWritePrice effective_from: effectiveFrom input_price: inputPrice output_price: outputPrice }
  variants { cache_read_price: cacheReadPrice cache_write_price: cacheWritePrice input_price: inputPrice mode output_price: outputPrice tiers { cache_read_price: cacheReadPrice cache_write_price: cacheWritePrice from_tokens: fromTokens input_price: inputPrice output_price: outputPrice } }
}"
    };
}

macro_rules! benchmark {
    () => {
        "fragment BenchmarkFields on Benchmark {
  slug name category unit higher_is_better: higherIsBetter in_average: inAverage
  description source_url: sourceUrl source models_count: modelsCount
  independent_count: independentCount self_reported_count: selfReportedCount
  claims_only: claimsOnly
  average_reason: averageReason difficulty slope
}"
    };
}

macro_rules! agent {
    () => {
        "fragment AgentFields on Agent {
  slug name organization open_source: openSource date
  average_score: averageScore benchmarks_count: benchmarksCount
  capability_index: capabilityIndex capability_index_se: capabilityIndexSe models { slug name }
  scores { benchmark { slug name } score as_of: asOf source }
}"
    };
}

macro_rules! provider {
    () => {
        "fragment ProviderFields on Provider {
  slug name website kind models_count: modelsCount created_count: createdCount
}"
    };
}

macro_rules! indicator {
    () => {
        "fragment IndicatorFields on EconomyIndicator {
  slug name description unit secondary_label: secondaryLabel method sources
  latest { date value secondary }
}"
    };
}

/// Fields of a source, with its freshness.
macro_rules! source_fields {
    () => {
        "fragment SourceFields on Source {
  slug name repository commit release release_date: releaseDate snapshot_date: snapshotDate
  license attribution url status upstream upstream_version: upstreamVersion last_fetched: lastFetched
  last_success: lastSuccess error rows
}"
    };
}

macro_rules! doc {
    ($body:expr $(, $frag:expr)*) => {
        concat!($body $(, "\n", $frag)*)
    };
}

/// Every REST endpoint. `/api/v1/models/search` precedes `/api/v1/models/{slug}` only for
/// readability: axum prefers the static segment anyway.
pub const ENDPOINTS: &[Endpoint] = &[
    Endpoint {
        path: "/api/v1/models",
        summary: "List models with filtering and sorting",
        document: doc!("query($first: Int, $offset: Int, $filter: ModelFilter, $sort: ModelSort! = SCORE, $order: SortOrder, $domain: String) {
  result: models(first: $first, offset: $offset, filter: $filter, sort: $sort, order: $order, domain: $domain) { total: totalCount items: nodes { ...ModelSummary } }
}", model_summary!()),
        params: MODEL_LIST_PARAMS,
        shape: Shape::List,
        noun: "model",
        schema: "ModelSummary",
        sample: "/api/v1/models?limit=2",
    },
    Endpoint {
        path: "/api/v1/models/search",
        summary: "Search models by name, slug or alias (ranked)",
        document: doc!("query($q: String!, $first: Int, $offset: Int, $domain: String) {
  result: searchModels(q: $q, first: $first, offset: $offset) { total: totalCount items: nodes { ...ModelSummary } }
}", model_summary!()),
        params: &[required("q", "q", Kind::Text, ""), PAGE, LIMIT],
        shape: Shape::List,
        noun: "model",
        schema: "ModelSummary",
        sample: "/api/v1/models/search?q=claude&limit=2",
    },
    Endpoint {
        path: "/api/v1/models/lookup",
        summary: "The model any provider's model id, alias, slug or name refers to (case-insensitive); 404 naming the closest models otherwise",
        document: doc!("query($id: String!, $domain: String) {
  result: lookupModel(id: $id) { ...ModelDetail }
}", model_detail!(), model_summary!(), offering!()),
        params: &[required("id", "id", Kind::Text, "")],
        shape: Shape::Item,
        noun: "model",
        schema: "ModelDetail",
        sample: "/api/v1/models/lookup?id=openai%2Fgpt-4o",
    },
    Endpoint {
        path: "/api/v1/models/{slug}",
        summary: "One model with its scores and current offerings (aliases resolve)",
        document: doc!("query($slug: String!, $domain: String) {
  result: model(slug: $slug) { ...ModelDetail }
}", model_detail!(), model_summary!(), offering!()),
        params: &[path("slug", "Model slug or alias.")],
        shape: Shape::Item,
        noun: "model",
        schema: "ModelDetail",
        sample: "/api/v1/models/gpt-4o-2024-11-20",
    },
    Endpoint {
        path: "/api/v1/compare",
        summary: "Compare 2 to 10 models side by side",
        document: doc!("query($models: [String!]!, $domain: String) {
  result: compare(models: $models) {
    requested
    models { ...ModelSummary }
    benchmarks { benchmark { slug name unit higher_is_better: higherIsBetter } scores { model score } }
  }
}", model_summary!()),
        params: &[required("models", "models", Kind::IdList(2), "")],
        shape: Shape::Item,
        noun: "comparison",
        schema: "Comparison",
        sample: "/api/v1/compare?models=gpt-4o,claude-3-5-sonnet",
    },
    Endpoint {
        path: "/api/v1/pricing",
        summary: "Models with current pricing",
        document: doc!("query($first: Int, $offset: Int, $filter: ModelFilter, $sort: ModelSort! = PRICE, $order: SortOrder, $domain: String) {
  result: pricing(first: $first, offset: $offset, filter: $filter, sort: $sort, order: $order, domain: $domain) { total: totalCount items: nodes { ...ModelSummary } }
}", model_summary!()),
        params: MODEL_LIST_PARAMS,
        shape: Shape::List,
        noun: "model",
        schema: "ModelSummary",
        sample: "/api/v1/pricing?limit=2",
    },
    Endpoint {
        path: "/api/v1/pricing/{slug}",
        summary: "A model's current price at every provider that offers it",
        document: doc!("query($slug: String!, $kind: OfferingKind, $excludeKind: OfferingKind) {
  result: modelPricing(slug: $slug) { slug name input_price: inputPrice output_price: outputPrice offerings(kind: $kind, excludeKind: $excludeKind) { ...OfferingFields } }
}", offering!()),
        params: &[
            path("slug", "Model slug or alias."),
            q("kind", "kind", Kind::Enum(OFFERING_KIND), ""),
            q("exclude_kind", "excludeKind", Kind::Enum(OFFERING_KIND), ""),
        ],
        shape: Shape::Item,
        noun: "model",
        schema: "ModelPricing",
        sample: "/api/v1/pricing/claude-sonnet-4-5-20250929",
    },
    Endpoint {
        path: "/api/v1/pricing/history/{slug}",
        summary: "A model's price history, newest first",
        document: "query($slug: String!) {
  result: model(slug: $slug) {
    slug name
    price_history: priceHistory { provider { slug name } input_price: inputPrice output_price: outputPrice cache_read_price: cacheReadPrice cache_write_price: cacheWritePrice effective_from: effectiveFrom effective_to: effectiveTo observed_after: observedAfter source }
  }
}",
        params: &[path("slug", "Model slug or alias.")],
        shape: Shape::Item,
        noun: "model",
        schema: "PriceHistory",
        sample: "/api/v1/pricing/history/o3-2025-04-16",
    },
    Endpoint {
        path: "/api/v1/benchmarks",
        summary: "Benchmark suites",
        document: doc!("query($first: Int, $offset: Int, $category: String) {
  result: benchmarks(first: $first, offset: $offset, category: $category) { total: totalCount items: nodes { ...BenchmarkFields } }
}", benchmark!()),
        params: &[PAGE, LIMIT, q("category", "category", Kind::Slug, "")],
        shape: Shape::List,
        noun: "benchmark",
        schema: "Benchmark",
        sample: "/api/v1/benchmarks?limit=2",
    },
    Endpoint {
        path: "/api/v1/benchmarks/{slug}",
        summary: "A benchmark and its top models",
        document: doc!("query($slug: String!, $limit: Int, $provenance: Provenance, $release: String) {
  result: benchmark(slug: $slug) {
    ...BenchmarkFields
    releases
    top_models: topModels(limit: $limit, provenance: $provenance, release: $release) { model { slug name } score config source as_of: asOf release provenance citation }
  }
}", benchmark!()),
        params: &[
            path("slug", "Benchmark slug."),
            q("limit", "limit", Kind::Limit, ""),
            q("provenance", "provenance", Kind::Enum(PROVENANCE), ""),
            q("release", "release", Kind::Date, ""),
        ],
        shape: Shape::Item,
        noun: "benchmark",
        schema: "BenchmarkDetail",
        sample: "/api/v1/benchmarks/gpqa-diamond?limit=2",
    },
    Endpoint {
        path: "/api/v1/providers",
        summary: "Providers",
        document: doc!("query($first: Int, $offset: Int) {
  result: providers(first: $first, offset: $offset) { total: totalCount items: nodes { ...ProviderFields } }
}", provider!()),
        params: &[PAGE, LIMIT],
        shape: Shape::List,
        noun: "provider",
        schema: "Provider",
        sample: "/api/v1/providers?limit=2",
    },
    Endpoint {
        path: "/api/v1/providers/{slug}",
        summary: "A provider, the models it offers and the models it created (paged by page/limit)",
        document: doc!("query($slug: String!, $first: Int, $offset: Int) {
  result: provider(slug: $slug) {
    ...ProviderFields
    offerings(first: $first, offset: $offset) { total: totalCount items: nodes { ...OfferingFields } }
    created_models: createdModels(first: $first, offset: $offset) { total: totalCount items: nodes { slug name category input_price: inputPrice average_score: averageScore } }
  }
}", provider!(), offering!()),
        params: &[path("slug", "Provider slug."), PAGE, LIMIT],
        shape: Shape::Item,
        noun: "provider",
        schema: "ProviderDetail",
        sample: "/api/v1/providers/openai?limit=2",
    },
    Endpoint {
        path: "/api/v1/agents",
        summary: "Agents with their scores, best average first, or ranked on one benchmark",
        document: doc!("query($first: Int, $offset: Int, $benchmark: String) {
  result: agents(first: $first, offset: $offset, benchmark: $benchmark) { total: totalCount items: nodes { ...AgentFields } }
}", agent!()),
        params: &[
            PAGE,
            LIMIT,
            q("benchmark", "benchmark", Kind::Slug, ""),
        ],
        shape: Shape::List,
        noun: "agent",
        schema: "Agent",
        sample: "/api/v1/agents?limit=2",
    },
    Endpoint {
        path: "/api/v1/agents/{slug}",
        summary: "One agent",
        document: doc!("query($slug: String!) { result: agent(slug: $slug) { ...AgentFields } }", agent!()),
        params: &[path("slug", "Agent slug.")],
        shape: Shape::Item,
        noun: "agent",
        schema: "Agent",
        sample: "/api/v1/agents/trae-doubao-seed-code",
    },
    Endpoint {
        path: "/api/v1/cost",
        summary: "What one request of a given size costs on each model at each provider, cheapest first (long-context tiers and cache-read prices applied)",
        document: "query($models: [String!]!, $input: Int!, $output: Int!, $cached: Int! = 0, $provider: String, $mode: PriceMode! = STANDARD, $requests: Int! = 1, $kind: OfferingKind, $excludeKind: OfferingKind) {
  result: cost(models: $models, inputTokens: $input, outputTokens: $output, cachedInputTokens: $cached, provider: $provider, mode: $mode, requests: $requests, kind: $kind, excludeKind: $excludeKind) {
    requested
    model { slug name }
    offerings {
      provider { slug name } kind provider_model_id: providerModelId tier_from_tokens: tierFromTokens
      lines { line tokens unit_price: unitPrice cost } total currency reason
    }
  }
}",
        params: &[
            required("models", "models", Kind::IdList(1), ""),
            required("input_tokens", "input", Kind::Tokens, ""),
            required("output_tokens", "output", Kind::Tokens, ""),
            q("cached_input_tokens", "cached", Kind::Tokens, ""),
            q("provider", "provider", Kind::Slug, ""),
            q("mode", "mode", Kind::Enum(PRICE_MODE), ""),
            q("requests", "requests", Kind::Tokens, ""),
            q("kind", "kind", Kind::Enum(OFFERING_KIND), ""),
            q("exclude_kind", "excludeKind", Kind::Enum(OFFERING_KIND), ""),
        ],
        shape: Shape::Item,
        noun: "cost",
        schema: "Costs",
        sample: "/api/v1/cost?models=claude-sonnet-4-5&input_tokens=300000&cached_input_tokens=100000&output_tokens=5000&provider=anthropic",
    },
    Endpoint {
        path: "/api/v1/recommend",
        summary: "The models on the capability-versus-cost frontier for a task, its constraints and a workload: none has a listed model both more capable and cheaper (docs/recommend.md)",
        document: "query($task: Task! = CHAT, $domain: String, $minContext: Int, $inputModality: Modality, $outputModality: Modality, $toolCall: Boolean, $reasoning: Boolean, $openSource: Boolean, $providers: [String!], $avoidProviders: [String!], $input: Int! = 750000, $output: Int! = 250000, $cached: Int! = 0, $requests: Int! = 1, $mode: PriceMode! = STANDARD, $maxCost: Float, $provenance: Provenance, $limit: Int! = 20) {
  result: recommend(task: $task, domain: $domain, minContext: $minContext, inputModality: $inputModality, outputModality: $outputModality, toolCall: $toolCall, reasoning: $reasoning, openSource: $openSource, providers: $providers, avoidProviders: $avoidProviders, inputTokens: $input, outputTokens: $output, cachedInputTokens: $cached, requests: $requests, mode: $mode, maxCost: $maxCost, provenance: $provenance, limit: $limit) {
    capability_basis: capabilityBasis considered
    frontier {
      capability capability_se: capabilitySe
      cost { currency kind lines { cost line tokens unit_price: unitPrice } provider { name slug } provider_model_id: providerModelId reason tier_from_tokens: tierFromTokens total }
      model { capability_index: capabilityIndex context_window: contextWindow creator { name slug } name open_source: openSource slug tool_call: toolCall }
      rank_basis: rankBasis reason self_reported_only: selfReportedOnly
    }
  }
}",
        params: &[
            q("task", "task", Kind::Enum(TASK), ""),
            q("domain", "domain", Kind::Slug, ""),
            q("min_context", "minContext", Kind::Tokens, ""),
            q("input_modality", "inputModality", Kind::Enum(MODALITY), ""),
            q("output_modality", "outputModality", Kind::Enum(MODALITY), ""),
            q("tool_call", "toolCall", Kind::Bool, ""),
            q("reasoning", "reasoning", Kind::Bool, ""),
            q("open_source", "openSource", Kind::Bool, ""),
            q("providers", "providers", Kind::SlugList(20), ""),
            q("avoid_providers", "avoidProviders", Kind::SlugList(20), ""),
            q("input_tokens", "input", Kind::Tokens, ""),
            q("output_tokens", "output", Kind::Tokens, ""),
            q("cached_input_tokens", "cached", Kind::Tokens, ""),
            q("requests", "requests", Kind::Tokens, ""),
            q("mode", "mode", Kind::Enum(PRICE_MODE), ""),
            q("max_cost", "maxCost", Kind::NonNegative, ""),
            q("provenance", "provenance", Kind::Enum(PROVENANCE), ""),
            q("limit", "limit", Kind::Limit, ""),
        ],
        shape: Shape::Item,
        noun: "recommendation",
        schema: "Recommendation",
        sample: "/api/v1/recommend?task=chat&tool_call=true&input_tokens=2000&output_tokens=500&requests=1000&limit=3",
    },
    Endpoint {
        path: "/api/v1/economy",
        summary: "The economy indicators, each with its latest monthly point",
        document: doc!("query { result: economyIndicators { ...IndicatorFields } }", indicator!()),
        params: &[],
        shape: Shape::Item,
        noun: "economy",
        schema: "Indicators",
        sample: "/api/v1/economy",
    },
    Endpoint {
        path: "/api/v1/economy/{slug}",
        summary: "One economy indicator with its monthly series, oldest first",
        document: doc!("query($slug: String!, $from: String, $to: String) {
  result: economyIndicator(slug: $slug) { ...IndicatorFields series(from: $from, to: $to) { date value secondary } }
}", indicator!()),
        params: &[
            path("slug", "Indicator slug."),
            q("from", "from", Kind::Month, ""),
            q("to", "to", Kind::Month, ""),
        ],
        shape: Shape::Item,
        noun: "indicator",
        schema: "IndicatorDetail",
        sample: "/api/v1/economy/cost-of-capability?from=2026-03",
    },
    Endpoint {
        path: "/api/v1/changes",
        summary: "What changed, newest first: price changes, model releases, new benchmark results (also as Atom at /api/v1/changes.atom)",
        document: "query($since: String, $type: ChangeType, $first: Int, $offset: Int) {
  result: changes(since: $since, type: $type, first: $first, offset: $offset) {
    total: totalCount
    items: nodes {
      id type date summary model { slug name } provider { slug name } benchmark { slug name }
      input_price: inputPrice output_price: outputPrice
      previous_input_price: previousInputPrice previous_output_price: previousOutputPrice score
    }
  }
}",
        params: &[
            q("since", "since", Kind::Date, ""),
            q("type", "type", Kind::Enum(CHANGE_TYPE), ""),
            PAGE,
            LIMIT,
        ],
        shape: Shape::List,
        noun: "change",
        schema: "Change",
        sample: "/api/v1/changes?type=price&limit=2",
    },
    Endpoint {
        path: "/api/v1/retirements",
        summary: "Announced retirements, soonest first: each model's retirement date, whether it has passed, its list price and its successor's where the creator names one (from=today lists those still to come)",
        document: "query($from: String, $until: String, $creator: String, $first: Int, $offset: Int) {
  result: retirements(from: $from, until: $until, creator: $creator, first: $first, offset: $offset) {
    total: totalCount
    items: nodes {
      creator { name slug } deprecated deprecation_date: deprecationDate input_price: inputPrice name
      output_price: outputPrice retired slug
      superseded_by: supersededBy { input_price: inputPrice name output_price: outputPrice slug }
    }
  }
}",
        params: &[
            q("from", "from", Kind::Date, ""),
            q("until", "until", Kind::Date, ""),
            q("creator", "creator", Kind::Slug, ""),
            PAGE,
            LIMIT,
        ],
        shape: Shape::List,
        noun: "retirement",
        schema: "Retirement",
        sample: "/api/v1/retirements?from=2026-11-01&limit=2",
    },
    Endpoint {
        path: "/api/v1/sources",
        summary: "The public datasets the data comes from, with licences and attribution",
        document: doc!("query {
  result: sources { ...SourceFields }
}", source_fields!()),
        params: &[],
        shape: Shape::Item,
        noun: "sources",
        schema: "Sources",
        sample: "/api/v1/sources",
    },
    Endpoint {
        path: "/api/v1/dataset",
        summary: "The dataset being served: its version, when it was built and imported, what it changed against the version before (models added, removed and repriced), whether it is pinned, and each source's observation date and freshness",
        document: doc!("query {
  result: dataset { benchmarks_as_of: benchmarksAsOf built_at: builtAt changes { compared_to: comparedTo models_added: modelsAdded models_removed: modelsRemoved models_repriced: modelsRepriced price_changes: priceChanges } imported_at: importedAt pinned prices_as_of: pricesAsOf sha256 sources { ...SourceFields } version }
}", source_fields!()),
        params: &[],
        shape: Shape::Item,
        noun: "dataset",
        schema: "Dataset",
        sample: "/api/v1/dataset",
    },
];

#[cfg(test)]
mod tests {
    /// The fragments of list rows, details and offerings select in the order of the REST
    /// names, at every depth, so the envelope's writer finds those objects already sorted
    /// (see `model_summary!`). A fragment spread is skipped: its own fields are checked.
    #[test]
    fn rows_are_selected_in_sorted_order() {
        use async_graphql::parser::types::{Selection, SelectionSet};
        fn check(set: &SelectionSet, at: &str) {
            let mut keys = Vec::new();
            for item in &set.items {
                match &item.node {
                    Selection::Field(f) => {
                        let key = f.node.response_key().node.to_string();
                        check(&f.node.selection_set.node, &format!("{at}.{key}"));
                        keys.push(key);
                    }
                    Selection::FragmentSpread(_) => {}
                    Selection::InlineFragment(_) => panic!("{at}: no inline fragments"),
                }
            }
            let mut sorted = keys.clone();
            sorted.sort();
            assert_eq!(keys, sorted, "{at}");
        }
        let detail = super::ENDPOINTS
            .iter()
            .find(|e| e.path == "/api/v1/models/{slug}")
            .unwrap();
        let doc = async_graphql::parser::parse_query(detail.document).unwrap();
        for name in ["ModelSummary", "ModelDetail", "OfferingFields"] {
            let fragment = &doc.fragments[&async_graphql::Name::new(name)].node;
            check(&fragment.selection_set.node, name);
        }
    }
}
