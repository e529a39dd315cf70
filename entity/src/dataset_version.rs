//! Every dataset version ever imported, with the snapshot itself, what it was built from and
//! what it changed against the version before: what `mds dataset list|diff|use` read.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "dataset_versions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub version: i32,
    pub snapshot_sha256: String,
    pub built_at: String,
    pub imported_at: String,
    /// What it was built from: JSON `{source: {path: sha256}}` of the current copies, when
    /// known (a snapshot imported from a file has none).
    pub basis: Option<String>,
    pub models: i64,
    pub offerings: i64,
    pub price_periods: i64,
    /// The version served before it, which the counts below compare against.
    pub compared_to: Option<i32>,
    pub models_added: Option<i64>,
    pub models_removed: Option<i64>,
    /// Models with an offering whose input or output price changed (at 6 significant digits).
    pub models_repriced: Option<i64>,
    /// Offerings whose input or output price changed.
    pub price_changes: Option<i64>,
    /// Served by `mds dataset use N`: syncs keep observing but do not switch.
    pub pinned: bool,
    /// The snapshot (gzip JSON), to serve it again.
    pub snapshot: Option<Vec<u8>>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
