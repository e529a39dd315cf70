//! A canonical AI model. Derived figures (average score, cheapest current price)
//! are computed at ingest and stored, so list filters and sorts are plain indexed SQL.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "models")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub slug: String,
    pub name: String,
    pub creator_slug: Option<String>,
    /// `llm`, `multimodal` or `image`.
    pub category: crate::vocab::Category,
    pub family: Option<String>,
    pub open_source: Option<bool>,
    /// ISO date `YYYY-MM-DD`.
    pub release_date: Option<String>,
    /// The earliest day any source was observed listing the model.
    pub first_seen: Option<String>,
    /// Which date dates the model: `release_date`, else `first_seen`; `None` with neither.
    pub date_basis: Option<crate::vocab::DateBasis>,
    pub context_window: Option<i64>,
    pub max_output_tokens: Option<i64>,
    /// Comma-separated, sorted (`image,text`).
    pub input_modalities: String,
    pub output_modalities: String,
    pub reasoning: Option<bool>,
    pub tool_call: Option<bool>,
    /// Whether its API takes a response schema (structured output); `None` when unknown.
    pub structured_output: Option<bool>,
    /// The month (`YYYY-MM`) or day its training data ends, as models.dev gives it.
    pub knowledge_cutoff: Option<String>,
    /// When models.dev last updated its record.
    pub last_updated: Option<String>,
    /// The day its creator stops serving it (`YYYY-MM-DD`), as LiteLLM records the
    /// creator's announcement.
    pub deprecation_date: Option<String>,
    /// Its creator has deprecated it: a deprecation date is announced, or the creator's own
    /// entry marks it deprecated; it may still be served until it is `retired`.
    #[serde(default)]
    pub deprecated: bool,
    /// Its creator's deprecation date has passed: left out of default lists.
    pub retired: bool,
    /// An experimental or preview model's general release, once sold (its slug): left out
    /// of default lists, as the release replaces it.
    pub superseded_by: Option<String>,
    /// The model a fine-tune or merge derives from (its slug), where its id names one.
    pub base_model: Option<String>,
    /// What its index and average rest on: `independent`, `mixed` or `self_reported`.
    pub rank_basis: Option<crate::vocab::RankBasis>,
    /// `average_score` at the index's lower one-sigma bound: what the default order sorts by.
    pub rank_score: Option<f64>,
    pub average_score: Option<f64>,
    pub benchmarks_count: i32,
    /// List input price (USD per 1M tokens): the creator's own API, else the median paid
    /// offering; see `price_basis`.
    pub input_price: Option<f64>,
    /// Output price of that same offering.
    pub output_price: Option<f64>,
    /// `first_party` or `median`; `None` when the model has no paid price.
    pub price_basis: Option<crate::vocab::PriceBasis>,
    /// The provider of the cheapest paid offering (plans and free tiers excluded).
    pub cheapest_provider: Option<String>,
    pub cheapest_input_price: Option<f64>,
    pub cheapest_output_price: Option<f64>,
    /// Latent capability fitted over every 0-100 headline score (see the ingest's
    /// `capability` module), on the published scale; `None` with fewer than 2 such scores.
    pub capability_index: Option<f64>,
    /// Its standard error, in index points.
    pub capability_index_se: Option<f64>,
    /// `api`, `open_weights` or `research`.
    pub availability: crate::vocab::Availability,
    /// `chat`, `embedding`, `image_generation`, `speech_to_text`, `text_to_speech`,
    /// `video_generation`, `rerank`, `moderation` or `other`.
    pub task: crate::vocab::Task,
    /// The fields its sources disagree on, each with every value a source states
    /// (a JSON list of [`Dispute`]); `None` when they agree.
    pub disputes: Option<String>,
}

/// A field of a model its sources disagree on: every distinct value a source states.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(
    feature = "graphql",
    derive(async_graphql::SimpleObject),
    graphql(name = "Dispute", serial)
)]
pub struct Dispute {
    /// The field (`context_window`, `release_date`, …); a modality is one field of its own
    /// (`input_modalities.image`: whether the model takes images).
    pub field: String,
    /// Each value a source states, once per source and value, in value order.
    pub values: Vec<DisputedValue>,
}

/// One source's value in a dispute.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(
    feature = "graphql",
    derive(async_graphql::SimpleObject),
    graphql(name = "DisputedValue", serial)
)]
pub struct DisputedValue {
    /// Slug of the source dataset.
    pub source: String,
    /// The value as text: a number (`1000000`), a day (`2025-09-29`) or month, `true` or
    /// `false`.
    pub value: String,
}

impl Dispute {
    /// The stored form: `None` when there is no dispute.
    pub fn encode(disputes: &[Dispute]) -> Option<String> {
        if disputes.is_empty() {
            return None;
        }
        serde_json::to_string(disputes).ok()
    }

    /// Reads the stored form; a missing or unreadable one is empty.
    pub fn decode(stored: Option<&str>) -> Vec<Dispute> {
        stored
            .and_then(|s| serde_json::from_str(s).ok())
            .unwrap_or_default()
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// The words of a slug that make it a preview of a general release (`gemini-2.5-pro-exp-03-25`,
/// `gemini-3-pro-image-preview`): what supersedes it and what deprecates it out of lists.
pub const PREVIEW_WORDS: &[&str] = &["exp", "preview"];

impl Model {
    /// Whether a list with no availability filter shows the model: not a checkpoint known
    /// only from a benchmark table, nor a router (a product that picks a model per request).
    pub fn shown_by_default(&self) -> bool {
        self.availability != crate::vocab::Availability::Research
            && self.task != crate::vocab::Task::Router
    }

    /// Neither retired nor a preview its general release replaced.
    pub fn is_current(&self) -> bool {
        !self.retired && self.superseded_by.is_none()
    }

    /// A preview its creator deprecated: out of lists that do not ask for deprecated
    /// models (docs/data.md, "Lifecycle").
    pub fn is_deprecated_preview(&self) -> bool {
        self.deprecated && self.slug.split('-').any(|w| PREVIEW_WORDS.contains(&w))
    }

    /// Whether a list with no filter at all shows the model: shown by default, current,
    /// and not a preview its creator deprecated. The rankings, the default list and
    /// `mds ingest`'s counts all read this one rule.
    pub fn listed_by_default(&self) -> bool {
        self.shown_by_default() && self.is_current() && !self.is_deprecated_preview()
    }
}
