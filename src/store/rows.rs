//! Every row of the dataset, read in one consistent snapshot of the database: the raw
//! material of the in-memory catalogue ([`crate::catalog`]).

use entity::{dataset, source_status};
use sea_orm::{
    AccessMode, DatabaseConnection, DbErr, EntityTrait, IsolationLevel, TransactionTrait,
};

use crate::snapshot::with_dataset_tables;

macro_rules! rows_struct {
    (; $($(#[$attr:meta])* $field:ident: $entity:ident,)+) => {
        /// The whole dataset as rows, in no particular order: a field per table of the
        /// dataset ([`with_dataset_tables`]), its version and the sources' statuses.
        #[derive(Debug, Default)]
        pub struct Rows {
            pub dataset: Option<dataset::Model>,
            /// The served version's record: what it changed, whether it is pinned.
            pub version: Option<super::versions::Summary>,
            /// What the syncs found at each source (not part of the dataset: see its entity).
            pub statuses: Vec<source_status::Model>,
            /// Each source's copy the served dataset was built from, as its upstream names it.
            pub served: std::collections::BTreeMap<String, super::observations::ServedCopy>,
            $(pub $field: Vec<entity::$entity::Model>,)+
        }
    };
}
with_dataset_tables!(rows_struct);

/// Reads every table of the dataset in `$txn`.
macro_rules! read_rows {
    ($txn:ident, $dataset:ident, $version:ident, $statuses:ident, $served:ident; $($(#[$attr:meta])* $field:ident: $entity:ident,)+) => {
        Rows {
            dataset: $dataset,
            version: $version,
            statuses: $statuses,
            served: $served,
            $($field: entity::$entity::Entity::find().all(&$txn).await?,)+
        }
    };
}

/// The dataset's version alone: what an instance polls to notice an import.
pub async fn version(db: &DatabaseConnection) -> Result<Option<i32>, DbErr> {
    Ok(dataset::Entity::find_by_id(1)
        .one(db)
        .await?
        .map(|d| d.version))
}

/// What the syncs recorded of each source: what an instance polls, beside the version, to
/// notice a sync that changed what `/api/v1/sources` says (a handful of rows).
pub async fn statuses(db: &DatabaseConnection) -> Result<Vec<source_status::Model>, DbErr> {
    source_status::Entity::find().all(db).await
}

/// Reads every table inside one read-only, repeatable-read transaction, so the rows all
/// belong to one import even while another import commits.
pub async fn load(db: &DatabaseConnection) -> Result<Rows, DbErr> {
    let isolation = match db.get_database_backend() {
        // SQLite transactions are serializable snapshots already and take no level.
        sea_orm::DatabaseBackend::Sqlite => None,
        _ => Some(IsolationLevel::RepeatableRead),
    };
    let access = match db.get_database_backend() {
        sea_orm::DatabaseBackend::Sqlite => None,
        _ => Some(AccessMode::ReadOnly),
    };
    let txn = db.begin_with_config(isolation, access).await?;
    let dataset = dataset::Entity::find_by_id(1).one(&txn).await?;
    let version = match &dataset {
        Some(d) => super::versions::summary(&txn, d.version).await?,
        None => None,
    };
    let statuses = source_status::Entity::find().all(&txn).await?;
    let served = match &dataset {
        Some(d) => match super::versions::basis(&txn, d.version).await? {
            Some(basis) => super::observations::served(&txn, &basis).await?,
            None => Default::default(),
        },
        None => Default::default(),
    };
    let rows = with_dataset_tables!(read_rows, txn, dataset, version, statuses, served);
    txn.commit().await?;
    Ok(rows)
}
