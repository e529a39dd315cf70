//! An organisation that creates and/or serves models.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "providers")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub slug: String,
    pub name: String,
    pub website: Option<String>,
    /// Number of distinct models this provider offers (has a current offering for).
    pub models_count: i32,
    /// Number of models this organisation created.
    pub created_count: i32,
    /// `creator`, `cloud`, `router`, `reseller` or `plan`.
    pub kind: crate::vocab::ProviderKind,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
