//! An agent (a system built on one or more models) with leaderboard results.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "agents")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub slug: String,
    pub name: String,
    pub organization: Option<String>,
    pub open_source: Option<bool>,
    pub date: Option<String>,
    pub average_score: Option<f64>,
    pub benchmarks_count: i32,
    /// As for models: fitted jointly with them.
    pub capability_index: Option<f64>,
    pub capability_index_se: Option<f64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
