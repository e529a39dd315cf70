//! What the last `mds sync` runs found at one source's upstream: operational state shared by
//! every instance (not part of a dataset: a failed fetch changes no data).
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[sea_orm(table_name = "source_status")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub slug: String,
    /// Where the source's files are fetched from (its first file's URL: upstream or mirror).
    pub upstream: String,
    /// The upstream's version of that file: its ETag, else its Last-Modified.
    pub version: Option<String>,
    /// When a sync last tried the source (RFC 3339, UTC).
    pub last_fetched: String,
    /// When a sync last kept a good copy of it, changed or not.
    pub last_success: Option<String>,
    /// Why the last try failed; `None` when it succeeded.
    pub error: Option<String>,
    /// Rows the adapter read from the last good copy.
    pub rows: i64,
    /// The day the last good copy was first fetched (its observation day).
    pub observed: Option<String>,
    /// Tries that failed (or were held) since the last success: 0 while it succeeds.
    pub failures: i64,
    /// Tries that failed (or were held), ever.
    pub failures_total: i64,
    /// When the first of the failed tries since the last success was made (RFC 3339, UTC);
    /// `None` while it succeeds.
    pub failing_since: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
