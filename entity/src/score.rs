//! A model's score on a benchmark under one run configuration.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "scores")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub model_slug: String,
    pub benchmark_slug: String,
    pub score: f64,
    /// Run configuration (reasoning effort, function calling vs prompting, ...).
    pub config: Option<String>,
    /// Exactly one score per (model, benchmark) is the headline figure.
    pub is_headline: bool,
    /// When the figure was measured, as the sources date it, never before the model's
    /// release (`docs/methodology.md`, "Scores and who ran them").
    pub as_of: Option<String>,
    /// The benchmark release the figure is of, for a benchmark its source renews (LiveBench's
    /// question sets); `None` elsewhere. Results of two releases do not compare.
    pub release: Option<String>,
    pub source: String,
    /// `independent` (a third party ran it) or `self_reported` (the model's maker published
    /// it), by the rules of `data/score_provenance.csv`.
    pub provenance: crate::vocab::Provenance,
    /// Where the figure can be checked, where the source gives it.
    pub citation: Option<String>,
    /// Whether it enters the model's capability index and average.
    pub in_average: bool,
    /// A maker's own figure corrected by the gap measured between makers' claims and
    /// independent runs on this benchmark (`None` for an independent score).
    pub calibrated: Option<f64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
