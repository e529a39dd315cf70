//! GraphQL types of prices: a model's offering at one provider and its price history.

use async_graphql::{Context, Object, Result};
use entity::{offering, price_history};

use super::super::catalog;
use super::*;
use crate::catalog::Row;

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
    async fn kind(&self) -> OfferingKind {
        self.0.kind
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
