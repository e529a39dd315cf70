//! A benchmark suite (or one leaderboard of it).
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "benchmarks")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub slug: String,
    pub name: String,
    pub category: String,
    /// `percent`, `elo`, ...
    pub unit: String,
    pub higher_is_better: bool,
    /// True only for 0-100 scales: such scores enter `average_score`.
    pub in_average: bool,
    pub description: String,
    pub source_url: String,
    pub source: String,
    pub models_count: i32,
    /// Why the benchmark does or does not enter `average_score` (the reviewed table).
    pub average_reason: String,
    /// Capability (index scale) at which half its tasks are solved; `None` outside the fit.
    pub difficulty: Option<f64>,
    /// How sharply it separates capabilities near its difficulty (logit per index point).
    pub slope: Option<f64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
