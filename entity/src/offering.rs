//! A model's current price at one provider. Prices are USD per 1M tokens;
//! `None` means unknown (never 0, which means free).
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "offerings")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub model_slug: String,
    pub provider_slug: String,
    /// The identifier the provider's API uses for the model.
    pub provider_model_id: String,
    pub input_price: Option<f64>,
    pub output_price: Option<f64>,
    pub cache_read_price: Option<f64>,
    pub cache_write_price: Option<f64>,
    /// Long-context tiers as JSON (`[{"from_tokens", "input_price", ...}]`, see [`Tier`]);
    /// `None` when one price fits every prompt size.
    pub tiers: Option<String>,
    /// Prices in other units as JSON (`[{"item", "unit", "price"}]`, see [`UnitPrice`]);
    /// `None` when the offering is priced in text tokens only.
    pub unit_prices: Option<String>,
    /// The same offering bought another way, as JSON (`[{"mode", "input_price", ...}]`, see
    /// [`Variant`]); `None` when the source publishes no other mode.
    pub variants: Option<String>,
    /// A price change the source has announced for a later day, as JSON
    /// (`{"effective_from", "input_price", ...}`, see [`Upcoming`]); `None` when none is.
    pub upcoming: Option<String>,
    /// The same offering's price in one region where it differs by region, as JSON
    /// (`[{"region", "input_price", ...}]`, see [`RegionalPrice`]); `None` when no source
    /// prices a region.
    pub regions: Option<String>,
    /// Every source that prices this model at this provider, as JSON (`[{"source",
    /// "provider_model_id", "input_price", "output_price", "agrees"}]`, see [`Witness`]), the
    /// served one first.
    pub sources: Option<String>,
    /// True when the sources' standard prices differ beyond rounding.
    pub disputed: bool,
    /// `YYYY-MM-DD` the provider stops serving the model, as announced, or stopped, as a
    /// source observed (at the latest).
    pub deprecation_date: Option<String>,
    pub context_window: Option<i64>,
    pub as_of: Option<String>,
    /// Slug of the source dataset.
    pub source: String,
    /// Who sells it: `first_party` (the creator's own API), `cloud`, `router`, `reseller`,
    /// `plan` (a subscription) or `free_tier`.
    pub kind: crate::vocab::OfferingKind,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

impl Model {
    /// Whether the provider stopped serving the offering by `day` (`YYYY-MM-DD`; none when
    /// empty): its `deprecation_date` is not after it. Such a sale sets no list price or
    /// cheapest offering while another is current.
    pub fn ended_by(&self, day: &str) -> bool {
        self.deprecation_date
            .as_deref()
            .is_some_and(|d| !day.is_empty() && d <= day)
    }
}

/// A long-context price tier (USD per 1M tokens): the price of every token of a request whose
/// prompt is longer than its threshold (providers bill the whole prompt at the tier its size
/// reaches).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(
    feature = "graphql",
    derive(async_graphql::SimpleObject),
    graphql(name = "PriceTier", serial)
)]
pub struct Tier {
    /// The tier applies to requests whose prompt is longer than this many tokens.
    pub from_tokens: i64,
    pub input_price: Option<f64>,
    pub output_price: Option<f64>,
    pub cache_read_price: Option<f64>,
    pub cache_write_price: Option<f64>,
}

/// The offering bought in another mode at its own prices: `batch` (asynchronous batch
/// processing), `flex` or `priority` (service tiers), `fast` (a faster serving mode).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(
    feature = "graphql",
    derive(async_graphql::SimpleObject),
    graphql(name = "PriceVariant", serial)
)]
pub struct Variant {
    /// `batch` (asynchronous batch processing), `flex` or `priority` (service tiers) or
    /// `fast` (a faster serving mode).
    pub mode: String,
    pub input_price: Option<f64>,
    pub output_price: Option<f64>,
    pub cache_read_price: Option<f64>,
    pub cache_write_price: Option<f64>,
    /// This mode's own long-context tiers, as the offering's `tiers`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tiers: Vec<Tier>,
}

impl Variant {
    pub const BATCH: &'static str = "batch";
    pub const FLEX: &'static str = "flex";
    pub const PRIORITY: &'static str = "priority";
    pub const FAST: &'static str = "fast";
    pub const OFF_PEAK: &'static str = "off_peak";
    /// The modes a variant may have, in the order they are listed.
    pub const MODES: [&'static str; 5] = [
        Self::BATCH,
        Self::FLEX,
        Self::PRIORITY,
        Self::FAST,
        Self::OFF_PEAK,
    ];
    /// The modes a price list sells as entries of their own (`…:batch`, "… (flex)") or as
    /// fields of an entry (LiteLLM's `…_batches`, `…_flex`, `…_priority`), in
    /// [`Self::MODES`] order (docs/data.md, "Price modes").
    pub const ENTRY_MODES: [&'static str; 3] = [Self::BATCH, Self::FLEX, Self::PRIORITY];

    pub fn encode(variants: &[Variant]) -> Option<String> {
        encode_list(variants)
    }

    pub fn decode(stored: Option<&str>) -> Vec<Variant> {
        decode_list(stored)
    }
}

/// The offering's price in one region (an AWS region such as `eu-central-1`, Bedrock's
/// cross-region profiles `us`/`eu`/`apac`, Azure's data zones `us`/`eu`/`global`).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(
    feature = "graphql",
    derive(async_graphql::SimpleObject),
    graphql(name = "RegionalPrice", serial)
)]
pub struct RegionalPrice {
    /// `eu-central-1`, `us-gov-west-1` (AWS regions), `us`, `eu`, `apac` (Bedrock
    /// cross-region profiles), `us`, `eu`, `global` (Azure data zones).
    pub region: String,
    pub input_price: Option<f64>,
    pub output_price: Option<f64>,
    pub cache_read_price: Option<f64>,
    pub cache_write_price: Option<f64>,
}

impl RegionalPrice {
    pub fn encode(regions: &[RegionalPrice]) -> Option<String> {
        encode_list(regions)
    }

    pub fn decode(stored: Option<&str>) -> Vec<RegionalPrice> {
        decode_list(stored)
    }
}

/// One source's price for an offering: what it states, and whether it agrees with the
/// served price (equal within rounding: half a percent, or a thousandth of a dollar).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(
    feature = "graphql",
    derive(async_graphql::SimpleObject),
    graphql(name = "PriceWitness", serial)
)]
pub struct Witness {
    /// Slug of the source dataset.
    pub source: String,
    /// The id the source lists the model under at this provider.
    pub provider_model_id: String,
    pub input_price: Option<f64>,
    pub output_price: Option<f64>,
    /// Equal to the served price within rounding (half a percent, or a thousandth of a
    /// dollar) on every price both state.
    pub agrees: bool,
}

impl Witness {
    pub fn encode(witnesses: &[Witness]) -> Option<String> {
        encode_list(witnesses)
    }

    pub fn decode(stored: Option<&str>) -> Vec<Witness> {
        decode_list(stored)
    }
}

/// The next price an offering's source has scheduled, and from when.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(
    feature = "graphql",
    derive(async_graphql::SimpleObject),
    graphql(name = "UpcomingPrice", serial)
)]
pub struct Upcoming {
    /// The first day of the new price.
    pub effective_from: String,
    pub input_price: Option<f64>,
    pub output_price: Option<f64>,
    pub cache_read_price: Option<f64>,
    pub cache_write_price: Option<f64>,
}

impl Upcoming {
    pub fn encode(&self) -> Option<String> {
        serde_json::to_string(self).ok()
    }

    pub fn decode(stored: Option<&str>) -> Option<Upcoming> {
        stored.and_then(|s| serde_json::from_str(s).ok())
    }
}

/// The stored form of a list kept as one JSON column: `None` when empty.
fn encode_list<T: serde::Serialize>(items: &[T]) -> Option<String> {
    if items.is_empty() {
        return None;
    }
    serde_json::to_string(items).ok()
}

/// Reads a list kept as one JSON column; a missing or unreadable one is empty.
fn decode_list<T: serde::de::DeserializeOwned>(stored: Option<&str>) -> Vec<T> {
    stored
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or_default()
}

impl Tier {
    /// The stored form of a tier list: `None` when empty.
    pub fn encode(tiers: &[Tier]) -> Option<String> {
        encode_list(tiers)
    }

    /// Reads a stored tier list; a missing or unreadable one is no tiers.
    pub fn decode(stored: Option<&str>) -> Vec<Tier> {
        decode_list(stored)
    }
}

/// A price in another unit than text tokens, as the source publishes it: `item` is what is
/// billed (`output_image`, `input_audio`, `web_search`, `request`, ...), `unit` what the price
/// is per (`1M tokens`, `1K searches`, `1K requests`).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(
    feature = "graphql",
    derive(async_graphql::SimpleObject),
    graphql(name = "UnitPrice", serial)
)]
pub struct UnitPrice {
    /// What is billed: `output_image`, `input_audio`, `cache_write_1h`, `web_search`,
    /// `request`, ...
    pub item: String,
    /// What the price is per: `1M tokens` (of that kind), `1K searches`, `1K requests`.
    pub unit: String,
    /// USD per `unit`.
    pub price: f64,
}

impl UnitPrice {
    /// The stored form of a list: `None` when empty.
    pub fn encode(prices: &[UnitPrice]) -> Option<String> {
        encode_list(prices)
    }

    /// Reads a stored list; a missing or unreadable one is empty.
    pub fn decode(stored: Option<&str>) -> Vec<UnitPrice> {
        decode_list(stored)
    }
}
