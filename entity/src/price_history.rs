//! One price period of a model at a provider; `effective_to = None` is current.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "price_history")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub model_slug: String,
    pub provider_slug: String,
    pub input_price: Option<f64>,
    pub output_price: Option<f64>,
    pub cache_read_price: Option<f64>,
    pub cache_write_price: Option<f64>,
    pub effective_from: String,
    pub effective_to: Option<String>,
    /// Set when the change was seen between two observations rather than dated by its
    /// source: the day of the observation before, so the change happened after it and on
    /// or before `effective_from`.
    pub observed_after: Option<String>,
    pub source: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
