//! A model an agent ran on.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "agent_models")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub agent_slug: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub model_slug: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
