//! Who is syncing, on SQLite: one row while a sync runs, until it ends or expires
//! (PostgreSQL holds an advisory lock instead; docs/sync.md).
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "sync_lease")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i32,
    pub holder: String,
    /// RFC 3339, UTC: a lease past it was left by a sync that died.
    pub expires_at: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
