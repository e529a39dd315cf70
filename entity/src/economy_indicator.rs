//! An economy indicator: a monthly series computed at ingest from the rest of the dataset.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "economy_indicators")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub slug: String,
    /// Where it is listed.
    pub position: i32,
    pub name: String,
    pub description: String,
    /// Unit of each point's `value`.
    pub unit: String,
    /// What each point's `secondary` figure is, when the indicator has one.
    pub secondary_label: Option<String>,
    /// How the series is computed, precisely enough to recompute it from the API.
    pub method: String,
    /// Slugs of the source datasets it draws on, comma-separated.
    pub sources: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
