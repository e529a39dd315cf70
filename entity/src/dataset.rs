//! The imported dataset: a single row (id 1) naming the snapshot in the database.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "dataset")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i32,
    /// Bumped by every import that changes the data.
    pub version: i32,
    /// SHA-256 of the snapshot bytes: re-importing the same file is a no-op.
    pub snapshot_sha256: String,
    pub built_at: String,
    pub imported_at: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
