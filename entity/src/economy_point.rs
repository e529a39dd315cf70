//! One monthly point of an economy indicator.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "economy_points")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub indicator_slug: String,
    /// `YYYY-MM`.
    pub month: String,
    pub value: f64,
    /// The indicator's second figure for that month (see its `secondary_label`).
    pub secondary: Option<f64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
