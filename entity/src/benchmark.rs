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
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
