//! `recommend(...)`: the capability-versus-cost frontier for a task, its constraints and a
//! workload (docs/recommend.md); the work is [`crate::catalog::recommend`]'s, the workload
//! is priced as `cost` prices it.

use async_graphql::{Context, Object, Result};

use super::costs::{OfferingCostView, PriceMode, tokens};
use super::query::Modality;
use super::types::{Model, Provenance, RankBasis, Task};
use super::{bad_input, catalog};
use crate::catalog::costs::Request;
use crate::catalog::recommend::{self as rec, Ask, Pick};

#[derive(Default)]
pub struct RecommendRoot;

/// Most providers one list (`providers`, `avoidProviders`) may name.
const MAX_PROVIDERS: usize = 20;

fn slug_list(param: &str, list: Option<Vec<String>>) -> Result<Vec<String>> {
    let list: Vec<String> = list
        .unwrap_or_default()
        .into_iter()
        .map(|p| p.trim().to_ascii_lowercase())
        .collect();
    if list.len() > MAX_PROVIDERS || list.iter().any(|p| p.is_empty() || p.len() > 100) {
        return Err(bad_input(
            param,
            format!("{param} takes at most {MAX_PROVIDERS} provider slugs"),
        ));
    }
    Ok(list)
}

#[Object(serial)]
impl RecommendRoot {
    /// The models on the capability-versus-cost frontier for a task, its constraints and a
    /// workload: no model listed is both more capable and cheaper than another for that
    /// workload. Each is costed at its cheapest reputable offering (creator, cloud or
    /// router), cheapest first. The default workload is 750,000 input and 250,000 output
    /// tokens, so its cost is the 3 : 1 blended price per million tokens.
    // Each argument is one of the field's GraphQL arguments, which are the API.
    #[allow(clippy::too_many_arguments)]
    async fn recommend(
        &self,
        ctx: &Context<'_>,
        #[graphql(default_with = "Task::Chat", desc = "What the model is for.")] task: Task,
        #[graphql(
            desc = "A benchmark category (`coding`, `math`, `reasoning`, …): capability is then the score the capability index predicts on that category's benchmarks."
        )]
        domain: Option<String>,
        #[graphql(desc = "Minimum context window, tokens.")] min_context: Option<i32>,
        #[graphql(desc = "Models that take this input.")] input_modality: Option<Modality>,
        #[graphql(desc = "Models that produce this output.")] output_modality: Option<Modality>,
        #[graphql(desc = "Models that call tools (`true`) or not.")] tool_call: Option<bool>,
        #[graphql(desc = "Reasoning models (`true`) or not.")] reasoning: Option<bool>,
        #[graphql(desc = "Open-weight models (`true`) or closed ones.")] open_source: Option<bool>,
        #[graphql(desc = "Only offerings of these providers (slugs).")] providers: Option<
            Vec<String>,
        >,
        #[graphql(desc = "Never these providers, as sellers or as creators (slugs).")]
        avoid_providers: Option<Vec<String>>,
        #[graphql(
            default = 750000,
            desc = "Prompt tokens per request, cached ones included (default 750000: with the output default, the 3 : 1 blended price per 1M tokens)."
        )]
        input_tokens: i64,
        #[graphql(default = 250000, desc = "Output tokens per request (default 250000).")]
        output_tokens: i64,
        #[graphql(default = 0, desc = "Prompt tokens read from the provider's cache.")]
        cached_input_tokens: i64,
        #[graphql(default = 1, desc = "How many requests of this size (1 to 10^9).")] requests: i64,
        #[graphql(default, desc = "Bill at this mode's prices (batch, flex, …).")] mode: PriceMode,
        #[graphql(desc = "Most the workload may cost, USD.")] max_cost: Option<f64>,
        #[graphql(
            desc = "INDEPENDENT (default): only models rated on at least one independent result; ALL: also models rated on their makers' figures alone, marked `selfReportedOnly`."
        )]
        provenance: Option<Provenance>,
        #[graphql(
            default = 20,
            desc = "Most models listed (1 to 100), the most capable kept."
        )]
        limit: i32,
    ) -> Result<Recommendation> {
        if !(1..=1_000_000_000).contains(&requests) {
            return Err(bad_input(
                "requests",
                format!("requests must be between 1 and 10^9, got {requests}"),
            ));
        }
        let request = Request {
            input_tokens: tokens("input_tokens", input_tokens)?,
            output_tokens: tokens("output_tokens", output_tokens)?,
            cached_input_tokens: tokens("cached_input_tokens", cached_input_tokens)?,
            mode: mode.variant(),
            requests: requests.unsigned_abs(),
        };
        if request.cached_input_tokens > request.input_tokens {
            return Err(bad_input(
                "cached_input_tokens",
                "cached_input_tokens is part of input_tokens and cannot exceed it",
            ));
        }
        if max_cost.is_some_and(|c| !c.is_finite() || c < 0.0) {
            return Err(bad_input(
                "max_cost",
                "max_cost must be a finite number ≥ 0",
            ));
        }
        if !(1..=rec::MAX_LIMIT as i32).contains(&limit) {
            return Err(bad_input(
                "limit",
                format!(
                    "limit must be between 1 and {}, got {limit}",
                    rec::MAX_LIMIT
                ),
            ));
        }
        if min_context.is_some_and(|c| c < 0) {
            return Err(bad_input("min_context", "min_context must be ≥ 0"));
        }
        let domain = domain.map(|d| d.trim().to_ascii_lowercase());
        let cat = catalog(ctx)?;
        if let Some(d) = &domain
            && !cat.benchmarks().iter().any(|b| &b.category == d)
        {
            let mut known: Vec<&str> = cat
                .benchmarks()
                .iter()
                .map(|b| b.category.as_str())
                .collect();
            known.sort_unstable();
            known.dedup();
            return Err(bad_input(
                "domain",
                format!(
                    "domain must be a benchmark category: {}; got {d:?}",
                    known.join(", ")
                ),
            ));
        }
        let ask = Ask {
            task,
            domain,
            min_context: min_context.map(i64::from),
            input_modality: input_modality.map(|m| m.as_str().to_string()),
            output_modality: output_modality.map(|m| m.as_str().to_string()),
            tool_call,
            reasoning,
            open_source,
            providers: slug_list("providers", providers)?,
            avoid_providers: slug_list("avoid_providers", avoid_providers)?,
            request,
            max_cost,
            with_claims: provenance == Some(Provenance::All),
            limit: limit.unsigned_abs() as usize,
        };
        Ok(Recommendation(rec::recommend(cat, &ask)))
    }
}

/// The frontier and what it was drawn from.
pub struct Recommendation(rec::Recommendation);

#[Object(serial)]
impl Recommendation {
    /// What `capability` means: `capability_index`, or `expected_score:<domain>` (the score,
    /// 0-100, the index predicts on the domain's benchmarks).
    async fn capability_basis(&self) -> &str {
        &self.0.capability_basis
    }
    /// Models that met every constraint and could be rated and costed.
    async fn considered(&self) -> i64 {
        self.0.considered as i64
    }
    /// Cheapest first; each more capable than every cheaper one.
    #[graphql(complexity = "rec::MAX_LIMIT * child_complexity.max(1)")]
    async fn frontier(&self) -> Vec<Recommended> {
        self.0.frontier.iter().cloned().map(Recommended).collect()
    }
}

/// One model on the frontier.
pub struct Recommended(Pick);

#[Object(serial)]
impl Recommended {
    async fn model(&self) -> Model {
        Model(self.0.model.clone())
    }
    /// See `Recommendation.capabilityBasis`.
    async fn capability(&self) -> f64 {
        self.0.capability
    }
    /// Standard error of `capability`, same units.
    async fn capability_se(&self) -> Option<f64> {
        self.0.capability_se
    }
    /// What the capability rests on: `independent`, `mixed` or `self_reported`.
    async fn rank_basis(&self) -> Option<RankBasis> {
        self.0.model.rank_basis
    }
    /// Rated on its makers' own figures alone (listed only with `provenance: ALL`).
    async fn self_reported_only(&self) -> bool {
        self.0.self_reported_only
    }
    /// The workload at the cheapest reputable offering.
    async fn cost(&self) -> OfferingCostView {
        OfferingCostView(self.0.cost.clone())
    }
    /// Why it is on the frontier.
    async fn reason(&self) -> &str {
        &self.0.reason
    }
}
