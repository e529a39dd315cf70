//! One observed copy of one file of a source (docs/sync.md, "The observation store"): what
//! a sync fetched and kept, or what the bundled dataset was built from (its bytes are not
//! shipped: `content` is empty until a sync fetches the same file). Rows are only added; the
//! newest row of a (source, path) is that file's current copy.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "observations")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The source's slug (`genai-prices`, … and `genai-prices-history` for the derived log).
    pub source: String,
    /// The file's path inside the source's directory of the raw layout.
    pub path: String,
    /// The upstream's name for this version: a release or commit, else the `ETag`.
    pub upstream: Option<String>,
    /// The upstream's own date for this version (RFC 3339, UTC): the `Last-Modified` it was
    /// served with; `None` where the upstream sent none (a bundled copy's release is dated
    /// by its `observed` day).
    pub upstream_date: Option<String>,
    /// The day (UTC, `YYYY-MM-DD`) it was first observed.
    pub observed: String,
    pub sha256: String,
    /// Its length in bytes.
    pub bytes: i64,
    /// The file gzip-compressed; `None` for a bundled observation no sync has fetched yet.
    pub content: Option<Vec<u8>>,
    /// The file is no longer part of the source (its copy is the other rows' files).
    pub removed: bool,
    /// `sync` (fetched), `bundled` (the manifest of the shipped dataset) or `local` (a
    /// file given to `mds sync`, such as the derived price-change log).
    pub origin: String,
    /// When the row was written (RFC 3339, UTC).
    pub recorded_at: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
