//! The cost calculator: what a request of a given size costs on each model at each
//! provider (`docs/rest.md`), computed from the request's catalogue snapshot.

use std::collections::HashSet;

use async_graphql::{Context, Object, Result};

use super::sizes::{self, ListKind};
use super::types::{Model, OfferingKind, Provider};
use super::{bad_input, catalog, not_found_closest};
use crate::catalog::Row;
use crate::catalog::costs::{self, MAX_TOKENS, OfferingCost, Request};

#[derive(Default)]
pub struct CostsRoot;

/// A token count: a whole number from 0 to 10^9. `param` is the REST parameter's name.
pub(crate) fn tokens(param: &str, v: i64) -> Result<u64> {
    u64::try_from(v)
        .ok()
        .filter(|n| *n <= MAX_TOKENS)
        .ok_or_else(|| {
            bad_input(
                param,
                format!("{param} must be a whole number from 0 to {MAX_TOKENS}, got {v}"),
            )
        })
}

entity::vocabulary! {
    /// How the requests are bought: the standard price, or one of an offering's variants.
    #[derive(async_graphql::Enum, Default)]
    pub enum PriceMode {
        #[default]
        Standard = "standard",
        /// Asynchronous batch processing.
        Batch = "batch",
        /// The flex service tier (slower, cheaper).
        Flex = "flex",
        /// The priority service tier.
        Priority = "priority",
        /// A faster serving mode.
        Fast = "fast",
        /// Outside the provider's peak hours (a time-of-day discount).
        OffPeak = "off_peak",
    }
}

impl PriceMode {
    /// The offering variant's mode (`entity::offering::Variant::MODES`); none for standard.
    pub(crate) fn variant(self) -> Option<&'static str> {
        (self != Self::Standard).then(|| self.as_str())
    }
}

/// Most models one cost request may name.
const MAX_MODELS: usize = 10;

#[Object(serial)]
impl CostsRoot {
    /// What one request of this size costs on each of 1 to 10 models (slugs, aliases or
    /// any provider id), at each offering (of `provider` only, when given), cheapest first.
    /// A prompt longer than a tier's threshold is billed wholly at that tier; cached
    /// prompt tokens (part of `inputTokens`) at the cache-read price.
    #[graphql(complexity = "models.len().min(MAX_MODELS) * child_complexity.max(1) + 1")]
    // Each argument is one of the field's GraphQL arguments, which are the API.
    #[allow(clippy::too_many_arguments)]
    async fn cost(
        &self,
        ctx: &Context<'_>,
        #[graphql(
            desc = "Model identifiers: slugs, aliases or any provider's model id (1 to 10, distinct); each answer entry says which model it resolved to."
        )]
        models: Vec<String>,
        #[graphql(desc = "Prompt tokens, cached ones included (0 to 10^9).")] input_tokens: i64,
        #[graphql(desc = "Output tokens (0 to 10^9).")] output_tokens: i64,
        #[graphql(
            default = 0,
            desc = "Prompt tokens read from the provider's cache, billed at its cache-read price (at most the input tokens; default 0)."
        )]
        cached_input_tokens: i64,
        #[graphql(desc = "Only this provider's offering.")] provider: Option<String>,
        #[graphql(
            default,
            desc = "Bill every offering at this mode's prices (its `variants`); an offering that does not sell the mode is listed last with the reason."
        )]
        mode: PriceMode,
        #[graphql(
            default = 1,
            desc = "How many requests of this size (1 to 10^9): a workload. Each request is billed at the tier its own prompt reaches; the lines count every request's tokens."
        )]
        requests: i64,
        #[graphql(desc = "Only offerings of this kind.")] kind: Option<OfferingKind>,
        #[graphql(desc = "No offerings of this kind.")] exclude_kind: Option<OfferingKind>,
    ) -> Result<Vec<ModelCost>> {
        if !(1..=1_000_000_000).contains(&requests) {
            return Err(bad_input(
                "requests",
                format!("requests must be between 1 and 10^9, got {requests}"),
            ));
        }
        let req = Request {
            input_tokens: tokens("input_tokens", input_tokens)?,
            output_tokens: tokens("output_tokens", output_tokens)?,
            cached_input_tokens: tokens("cached_input_tokens", cached_input_tokens)?,
            mode: mode.variant(),
            requests: requests.unsigned_abs(),
        };
        if req.cached_input_tokens > req.input_tokens {
            return Err(bad_input(
                "cached_input_tokens",
                "cached_input_tokens is part of input_tokens and cannot exceed it",
            ));
        }
        let mut seen = HashSet::new();
        if models.is_empty() || models.len() > MAX_MODELS || !models.iter().all(|m| seen.insert(m))
        {
            return Err(bad_input(
                "models",
                format!("models takes 1 to {MAX_MODELS} distinct models"),
            ));
        }
        let cat = catalog(ctx)?;
        let resolved: Vec<_> = models.iter().map(|m| cat.lookup(m.trim())).collect();
        let unknown: Vec<&str> = models
            .iter()
            .zip(&resolved)
            .filter(|(_, r)| r.is_none())
            .map(|(m, _)| m.as_str())
            .collect();
        if !unknown.is_empty() {
            return Err(not_found_closest(
                format!("unknown models: {}", unknown.join(", ")),
                &cat.closest_models(unknown[0]),
            ));
        }
        Ok(models
            .iter()
            .zip(resolved)
            .filter_map(|(asked, m)| Some((asked, m?)))
            .map(|(asked, m)| ModelCost {
                requested: asked.clone(),
                offerings: costs::costs(
                    cat.offerings_of(&m.slug),
                    costs::Only {
                        provider: provider.as_deref(),
                        kind,
                        exclude_kind,
                    },
                    req,
                ),
                model: m.clone(),
            })
            .collect())
    }
}

/// One model's costs.
pub struct ModelCost {
    requested: String,
    model: Row<entity::model::Model>,
    offerings: Vec<OfferingCost>,
}

#[Object(serial)]
impl ModelCost {
    /// The identifier as asked (a slug, an alias, any provider's model id).
    async fn requested(&self) -> &str {
        &self.requested
    }
    /// The model it names.
    async fn model(&self) -> Model {
        Model(self.model.clone())
    }
    /// Cheapest first; offerings that cannot price the request last, with the reason.
    #[graphql(complexity = "sizes::list(ListKind::OfferingsPerModel, child_complexity)")]
    async fn offerings(&self) -> Vec<OfferingCostView> {
        self.offerings
            .iter()
            .cloned()
            .map(OfferingCostView)
            .collect()
    }
}

/// The cost at one offering.
pub struct OfferingCostView(pub OfferingCost);

#[Object(name = "OfferingCost", serial)]
impl OfferingCostView {
    async fn provider(&self, ctx: &Context<'_>) -> Result<Option<Provider>> {
        Ok(catalog(ctx)?
            .provider(&self.0.offering.provider_slug)
            .cloned()
            .map(Provider))
    }
    /// Who sells it (see `Offering.kind`).
    async fn kind(&self) -> OfferingKind {
        self.0.offering.kind
    }
    async fn provider_model_id(&self) -> &str {
        &self.0.offering.provider_model_id
    }
    /// The threshold of the long-context tier applied; null for the base prices.
    async fn tier_from_tokens(&self) -> Option<i64> {
        self.0.tier_from_tokens
    }
    /// One line per kind of token billed: `input` (uncached prompt), `cached_input`, `output`.
    async fn lines(&self) -> Vec<CostLine> {
        self.0.lines.iter().cloned().map(CostLine).collect()
    }
    /// USD; null when the offering cannot price this request.
    async fn total(&self) -> Option<f64> {
        self.0.total
    }
    /// Always `USD`.
    async fn currency(&self) -> &str {
        "USD"
    }
    /// Why there is no total (a price the request needs is not published).
    async fn reason(&self) -> Option<&str> {
        self.0.reason.as_deref()
    }
}

/// One billed line.
pub struct CostLine(costs::Line);

#[Object(serial)]
impl CostLine {
    /// `input`, `cached_input` or `output`.
    async fn line(&self) -> &str {
        self.0.line
    }
    async fn tokens(&self) -> i64 {
        i64::try_from(self.0.tokens).unwrap_or(i64::MAX)
    }
    /// USD per 1M tokens.
    async fn unit_price(&self) -> f64 {
        self.0.unit_price
    }
    /// USD.
    async fn cost(&self) -> f64 {
        self.0.cost
    }
}

#[cfg(test)]
mod tests {
    use super::PriceMode;

    /// A mode other than the standard price is an offering's variant: the two lists agree.
    #[test]
    fn every_price_mode_but_standard_is_a_variant_mode() {
        assert_eq!(PriceMode::NAMES.first(), Some(&"standard"));
        assert_eq!(PriceMode::NAMES[1..], entity::offering::Variant::MODES);
        assert_eq!(PriceMode::Standard.variant(), None);
        assert_eq!(PriceMode::Batch.variant(), Some("batch"));
        assert_eq!(PriceMode::Fast.variant(), Some("fast"));
    }
}
