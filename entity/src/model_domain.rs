//! A model's standing in one domain (coding, math, reasoning, …: a category of
//! `data/benchmarks.csv`), computed at ingest: its domain capability index fitted on the
//! domain's benchmarks and shrunk toward its general index where the domain has little
//! evidence, with the standard error and the rank score a domain list sorts by.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "model_domains")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub model_slug: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub domain: String,
    /// On the general index's scale (GPT-4 = 100, GPT-5 = 150).
    pub capability_index: f64,
    pub capability_index_se: f64,
    /// The expected mean score (0-100) on the domain's core benchmarks at the index.
    pub average_score: Option<f64>,
    /// The same at the index's lower one-sigma bound: what a domain list sorts by.
    pub rank_score: Option<f64>,
    /// How many of the model's counted scores are in the domain (0: the general index alone).
    pub benchmarks_count: i32,
    /// What those rest on: `independent`, `mixed` or `self_reported`; `None` without any.
    pub basis: Option<crate::vocab::RankBasis>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
