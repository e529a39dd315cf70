//! Root fields; they mirror the REST areas (`docs/graphql.md`).

use std::collections::HashSet;

use async_graphql::{Context, Enum, InputObject, Object, Result};

use super::types::*;
use super::{bad_input, catalog, not_found_closest};
use crate::catalog::{self as cat, ModelFilter as CatalogFilter, ModelSort as CatalogSort};

entity::vocabulary! {
    #[derive(Enum)]
    pub enum ModelSort {
        /// `rank_score`: the average score at the capability index's lower one-sigma bound, what
        /// the evidence supports (default order: best first).
        Score = "score",
        /// List prices blended 3 : 1 (three input tokens per output token), else the list input
        /// price (default order: cheapest first).
        Price = "price",
        /// Name (default order: A to Z).
        Name = "name",
        /// Release date (default order: newest first).
        Date = "date",
        /// Capability index at its lower one-sigma bound (index − standard error), so an
        /// estimate resting on few or unverified scores does not lead (default order: most
        /// capable first).
        Capability = "capability",
    }
}

entity::vocabulary! {
    #[derive(Enum)]
    pub enum SortOrder {
        /// Ascending.
        Asc = "asc",
        /// Descending.
        Desc = "desc",
    }
}

// The availability filter: a stored availability (`entity::vocab::Availability`), or every
// model. (A `//` comment: the schema's enum has no description.)
entity::vocabulary! {
    #[derive(Enum)]
    pub enum Availability {
        /// At least one provider offers it.
        Api = "api",
        /// Weights published, no priced offering.
        OpenWeights = "open_weights",
        /// Known only from a benchmark table.
        Research = "research",
        /// Every model.
        All = "all",
    }
}

/// Model list filters; all optional, combined with AND.
#[derive(InputObject, Default, Debug)]
pub struct ModelFilter {
    /// Models this provider offers (provider slug).
    pub provider: Option<String>,
    /// Models this organisation created (provider slug).
    pub creator: Option<String>,
    /// Open-weight models only (`true`) or closed only (`false`).
    pub open_source: Option<bool>,
    /// Minimum average score.
    pub min_score: Option<f64>,
    /// Maximum list input price (`inputPrice`), USD per 1M tokens.
    pub max_price: Option<f64>,
    /// Only models of this category.
    pub category: Option<Category>,
    /// How the model can be had; unset shows API and open-weights models (research
    /// checkpoints known only from a benchmark table need `RESEARCH` or `ALL`), routers
    /// only when `task` asks for them.
    pub availability: Option<Availability>,
    /// What the model is for.
    pub task: Option<Task>,
    /// Retired models only (`true`: their creator's deprecation date has passed) or current
    /// ones only (`false`); unset leaves retired models out unless `availability` is `ALL`.
    pub retired: Option<bool>,
    /// Deprecated models only (`true`: their creator announced a deprecation date or marks
    /// them deprecated) or the others only (`false`); unset leaves deprecated previews out
    /// unless `availability` is `ALL` or `retired` is set.
    pub deprecated: Option<bool>,
    /// Minimum capability index (models without an index are left out).
    pub min_capability: Option<f64>,
    /// Maximum capability index (models without an index are left out).
    pub max_capability: Option<f64>,
    /// Models that call tools (`true`) or do not (`false`); unknown matches neither.
    pub tool_call: Option<bool>,
    /// Reasoning models (`true`) or not (`false`); unknown matches neither.
    pub reasoning: Option<bool>,
    /// Models whose API takes a response schema (`true`) or not; unknown matches neither.
    pub structured_output: Option<bool>,
    /// Models that take this input: `text`, `image`, `audio`, `video` or `pdf`.
    pub input_modality: Option<Modality>,
    /// Models that produce this output.
    pub output_modality: Option<Modality>,
    /// Minimum context window, tokens.
    pub min_context: Option<i32>,
    /// Only models whose capability index rests on this evidence (`rankBasis`).
    pub basis: Option<RankBasis>,
}

entity::vocabulary! {
    /// A kind of input or output.
    #[derive(async_graphql::Enum)]
    pub enum Modality {
        Text = "text",
        Image = "image",
        Audio = "audio",
        Video = "video",
        Pdf = "pdf",
    }
}

#[derive(Default)]
pub struct CatalogRoot;

fn non_negative(param: &str, v: Option<f64>) -> Result<Option<f64>> {
    match v {
        Some(x) if !x.is_finite() || x < 0.0 => Err(bad_input(
            param,
            format!("{param} must be a finite number ≥ 0"),
        )),
        other => Ok(other),
    }
}

fn catalog_filter(f: Option<ModelFilter>, priced_only: bool) -> Result<CatalogFilter> {
    let f = f.unwrap_or_default();
    Ok(CatalogFilter {
        provider: f.provider,
        creator: f.creator,
        open_source: f.open_source,
        min_score: non_negative("min_score", f.min_score)?,
        max_price: non_negative("max_price", f.max_price)?,
        category: f.category,
        priced_only,
        availability: f.availability.map(|a| a.as_str().to_string()),
        task: f.task,
        retired: f.retired,
        deprecated: f.deprecated,
        min_capability: non_negative("min_capability", f.min_capability)?,
        max_capability: non_negative("max_capability", f.max_capability)?,
        tool_call: f.tool_call,
        reasoning: f.reasoning,
        structured_output: f.structured_output,
        input_modality: f.input_modality.map(|m| m.as_str().to_string()),
        output_modality: f.output_modality.map(|m| m.as_str().to_string()),
        min_context: match f.min_context {
            Some(n) if n < 0 => {
                return Err(bad_input("min_context", "min_context must be ≥ 0"));
            }
            n => n.map(i64::from),
        },
        basis: f.basis,
        domain: None,
    })
}

#[allow(clippy::too_many_arguments)]
async fn model_list(
    ctx: &Context<'_>,
    first: Option<i32>,
    after: Option<String>,
    offset: Option<i32>,
    filter: Option<ModelFilter>,
    sort: ModelSort,
    order: Option<SortOrder>,
    domain: Option<String>,
    priced_only: bool,
) -> Result<List<Model>> {
    let (start, limit) = paging(first, after, offset)?;
    let sort = match sort {
        ModelSort::Score => CatalogSort::Score,
        ModelSort::Price => CatalogSort::Price,
        ModelSort::Name => CatalogSort::Name,
        ModelSort::Date => CatalogSort::Date,
        ModelSort::Capability => CatalogSort::Capability,
    };
    let order = match order {
        Some(SortOrder::Asc) => cat::SortOrder::Asc,
        Some(SortOrder::Desc) => cat::SortOrder::Desc,
        None => sort.default_order(),
    };
    let mut filter = catalog_filter(filter, priced_only)?;
    let cat = catalog(ctx)?;
    if let Some(d) = domain {
        let d = d.trim().to_ascii_lowercase();
        if !cat.domains().contains(&d) {
            return Err(bad_input(
                "domain",
                format!(
                    "domain must be one of {}; got {d:?}",
                    cat.domains().join(", ")
                ),
            ));
        }
        filter.domain = Some(d);
    }
    let (rows, total) = cat.models_page(&filter, sort, order, start, limit);
    Ok(list(
        rows.into_iter().map(Model).collect(),
        start,
        total as u64,
    ))
}

#[Object(serial)]
impl CatalogRoot {
    /// Models, filtered and sorted; ties broken by slug, nulls last in both directions.
    #[graphql(
        complexity = "first.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn models(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        offset: Option<i32>,
        filter: Option<ModelFilter>,
        #[graphql(
            default_with = "ModelSort::Score",
            desc = "Sort field; each orders as below."
        )]
        sort: ModelSort,
        #[graphql(
            desc = "Ascending or descending; by default each sort field's own order: score, capability and date descending, price and name ascending."
        )]
        order: Option<SortOrder>,
        #[graphql(
            desc = "A domain to rank in (a benchmark category with a fitted benchmark: coding, math, reasoning, agentic, knowledge, long-context, …; an unknown one is refused, naming them): `SCORE` orders by the model's domain rank score and `CAPABILITY` by its domain index at the lower one-sigma bound, each item's `domainRank` shows them; models rated on their makers' claims alone still rank after every measured one. Other sorts are unchanged."
        )]
        domain: Option<String>,
    ) -> Result<List<Model>> {
        model_list(
            ctx, first, after, offset, filter, sort, order, domain, false,
        )
        .await
    }

    /// One model by any identifier `lookupModel` accepts (its slug, an alias, a provider's
    /// model id, a dated id, a display name; any case); null when unknown.
    async fn model(&self, ctx: &Context<'_>, slug: String) -> Result<Option<Model>> {
        Ok(catalog(ctx)?.find_model(&slug).cloned().map(Model))
    }

    /// The model any identifier refers to: a provider's model id (`openai/gpt-4o`,
    /// `us.anthropic.claude-3-5-sonnet-20241022-v2:0`, `openai/gpt-4o:free`), a slug, an
    /// alias or a display name, case-insensitively. Unlike the other single-item fields, an
    /// unknown id is a NOT_FOUND error naming the closest models (a lookup by a foreign id
    /// is answered most usefully by a suggestion).
    async fn lookup_model(
        &self,
        ctx: &Context<'_>,
        #[graphql(
            desc = "Any identifier of the model: `openai/gpt-4o`, `us.anthropic.claude-3-5-sonnet-20241022-v2:0`, `GPT-4o`, `openai/gpt-4o:free`."
        )]
        id: String,
    ) -> Result<Model> {
        let text = id.trim();
        if text.is_empty() || text.chars().count() > 200 {
            return Err(bad_input("id", "id must be 1 to 200 characters"));
        }
        let cat = catalog(ctx)?;
        if let Some(m) = cat.lookup(text) {
            return Ok(Model(m.clone()));
        }
        let closest = cat.closest_models(text);
        let slugs: Vec<&str> = closest.iter().map(|m| m.slug.as_str()).collect();
        let message = if slugs.is_empty() {
            format!("no model is known by the id {text:?}")
        } else {
            format!(
                "no model is known by the id {text:?}; closest: {}",
                slugs.join(", ")
            )
        };
        Err(not_found_closest(message, &closest))
    }

    /// Models whose name, slug or alias matches `q`, ranked: exact, prefix, word prefix,
    /// substring; ties by average score.
    #[graphql(
        complexity = "first.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    async fn search_models(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Text to search for, in names, slugs and aliases.")] q: String,
        first: Option<i32>,
        after: Option<String>,
        offset: Option<i32>,
    ) -> Result<List<Model>> {
        let text = q.trim();
        if text.is_empty() {
            return Err(bad_input("q", "q must not be empty"));
        }
        if text.chars().count() > 100 {
            return Err(bad_input("q", "q must be at most 100 characters"));
        }
        let (start, limit) = paging(first, after, offset)?;
        let (rows, total) = catalog(ctx)?.search_models(text, start, limit);
        Ok(list(
            rows.into_iter().map(Model).collect(),
            start,
            total as u64,
        ))
    }

    /// 2 to 10 distinct models side by side: their records and, per benchmark, each one's score.
    async fn compare(
        &self,
        ctx: &Context<'_>,
        #[graphql(
            desc = "Model identifiers: slugs, aliases or any provider's model id, as `lookupModel` takes them (2 to 10, distinct); the answer says which model each resolved to (`requested`)."
        )]
        models: Vec<String>,
    ) -> Result<Comparison> {
        let mut seen = HashSet::new();
        let slugs: Vec<String> = models
            .iter()
            .map(|s| s.trim().to_string())
            .filter(|s| seen.insert(s.clone()))
            .collect();
        if slugs.len() != models.len() {
            return Err(bad_input("models", "models must be distinct"));
        }
        if !(2..=10).contains(&slugs.len()) {
            return Err(bad_input(
                "models",
                format!("compare takes 2 to 10 models, got {}", slugs.len()),
            ));
        }
        let cat = catalog(ctx)?;
        let resolved: Vec<_> = slugs.iter().map(|s| cat.lookup(s)).collect();
        let unknown: Vec<&str> = slugs
            .iter()
            .zip(&resolved)
            .filter(|(_, r)| r.is_none())
            .map(|(s, _)| s.as_str())
            .collect();
        if !unknown.is_empty() {
            return Err(not_found_closest(
                format!("unknown models: {}", unknown.join(", ")),
                &cat.closest_models(unknown[0]),
            ));
        }
        let ordered: Vec<_> = resolved.into_iter().flatten().cloned().collect();
        let canonical: Vec<String> = ordered.iter().map(|m| m.slug.clone()).collect();
        let table = cat.headline_table(&canonical);
        let benchmarks = table
            .iter()
            .filter_map(|(slug, row)| {
                let b = cat.benchmark(slug)?;
                Some(ComparedBenchmark {
                    scores: canonical
                        .iter()
                        .map(|m| ComparedScore {
                            model: m.clone(),
                            score: row.get(m).copied(),
                        })
                        .collect(),
                    benchmark: BenchmarkRef {
                        slug: b.slug.clone(),
                        name: b.name.clone(),
                        unit: b.unit.clone(),
                        higher_is_better: b.higher_is_better,
                    },
                })
            })
            .collect::<Vec<_>>();
        let mut benchmarks = benchmarks;
        benchmarks.sort_by(|a, b| a.benchmark.slug.cmp(&b.benchmark.slug));
        Ok(Comparison {
            requested: slugs.clone(),
            models: ordered,
            benchmarks,
        })
    }

    /// Models with a current price; same filters and sorts as `models`, default sort by price.
    #[graphql(
        complexity = "first.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn pricing(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        offset: Option<i32>,
        filter: Option<ModelFilter>,
        #[graphql(
            default_with = "ModelSort::Price",
            desc = "Sort field; each orders as below."
        )]
        sort: ModelSort,
        #[graphql(
            desc = "Ascending or descending; by default each sort field's own order: score, capability and date descending, price and name ascending."
        )]
        order: Option<SortOrder>,
        #[graphql(
            desc = "A domain to rank in (a benchmark category with a fitted benchmark: coding, math, reasoning, agentic, knowledge, long-context, …; an unknown one is refused, naming them): `SCORE` orders by the model's domain rank score and `CAPABILITY` by its domain index at the lower one-sigma bound, each item's `domainRank` shows them; models rated on their makers' claims alone still rank after every measured one. Other sorts are unchanged."
        )]
        domain: Option<String>,
    ) -> Result<List<Model>> {
        model_list(ctx, first, after, offset, filter, sort, order, domain, true).await
    }

    /// One model with its current price at every provider (`offerings`), by any identifier
    /// `model` takes; null when unknown.
    async fn model_pricing(&self, ctx: &Context<'_>, slug: String) -> Result<Option<Model>> {
        self.model(ctx, slug).await
    }

    /// A model's price history, newest first (any identifier `model` takes); null when the
    /// model is unknown.
    async fn price_history(
        &self,
        ctx: &Context<'_>,
        slug: String,
    ) -> Result<Option<Vec<PricePoint>>> {
        let cat = catalog(ctx)?;
        Ok(cat.find_model(&slug).map(|m| {
            cat.history_of(&m.slug)
                .iter()
                .cloned()
                .map(PricePoint)
                .collect()
        }))
    }

    /// Benchmarks, by slug; optionally of one category.
    #[graphql(
        complexity = "first.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    async fn benchmarks(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        offset: Option<i32>,
        #[graphql(desc = "Only benchmarks of this category.")] category: Option<String>,
    ) -> Result<List<Benchmark>> {
        let (start, limit) = paging(first, after, offset)?;
        let all = catalog(ctx)?.benchmarks();
        let rows: Vec<_> = all
            .iter()
            .filter(|b| category.as_deref().is_none_or(|c| b.category == c))
            .cloned()
            .collect();
        Ok(page_of(&rows, start, limit, Benchmark))
    }

    async fn benchmark(&self, ctx: &Context<'_>, slug: String) -> Result<Option<Benchmark>> {
        Ok(catalog(ctx)?.benchmark(&slug).cloned().map(Benchmark))
    }

    /// Providers, by name.
    #[graphql(
        complexity = "first.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    async fn providers(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        offset: Option<i32>,
    ) -> Result<List<Provider>> {
        let (start, limit) = paging(first, after, offset)?;
        let providers = catalog(ctx)?.providers();
        let total = providers.len() as u64;
        let rows = providers
            .skip(start)
            .take(limit)
            .cloned()
            .map(Provider)
            .collect();
        Ok(list(rows, start, total))
    }

    async fn provider(&self, ctx: &Context<'_>, slug: String) -> Result<Option<Provider>> {
        Ok(catalog(ctx)?.provider(&slug).cloned().map(Provider))
    }

    /// Agents, best average score first.
    #[graphql(
        complexity = "first.unwrap_or(DEFAULT_FIRST).clamp(1, MAX_FIRST) as usize * child_complexity + 1"
    )]
    async fn agents(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        offset: Option<i32>,
        #[graphql(
            desc = "Only agents with a result on this benchmark (slug), ordered by it, best first."
        )]
        benchmark: Option<String>,
    ) -> Result<List<Agent>> {
        let (start, limit) = paging(first, after, offset)?;
        let catalog = catalog(ctx)?;
        match benchmark {
            None => Ok(page_of(catalog.agents(), start, limit, Agent)),
            Some(b) => {
                let ranked = catalog.agents_on(&b).ok_or_else(|| {
                    let closest = catalog.closest_of("benchmark", &b);
                    let hint = if closest.is_empty() {
                        String::new()
                    } else {
                        let slugs: Vec<&str> = closest.iter().map(|(s, _)| s.as_str()).collect();
                        format!("; did you mean {}?", slugs.join(", "))
                    };
                    bad_input("benchmark", format!("benchmark: no benchmark {b:?}{hint}"))
                })?;
                Ok(page_of(&ranked, start, limit, Agent))
            }
        }
    }

    async fn agent(&self, ctx: &Context<'_>, slug: String) -> Result<Option<Agent>> {
        Ok(catalog(ctx)?.agent(&slug).cloned().map(Agent))
    }

    /// The public datasets the data comes from, with licences and attribution texts.
    async fn sources(&self, ctx: &Context<'_>) -> Result<Vec<Source>> {
        Ok(Source::all(catalog(ctx)?))
    }

    /// The dataset being served.
    async fn dataset(&self, ctx: &Context<'_>) -> Result<Option<Dataset>> {
        let catalog = catalog(ctx)?;
        Ok(catalog.dataset.as_ref().map(|d| {
            Dataset::new(
                d,
                Source::all(catalog),
                &catalog.as_of,
                catalog.version_record.as_ref(),
            )
        }))
    }
}
