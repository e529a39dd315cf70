//! Loads a snapshot into the database in one transaction: the previous dataset is replaced
//! atomically (readers see the old or the new data, never a mix) and the dataset version is
//! bumped. Importing the same bytes again changes nothing.

use entity::dataset;
use sea_orm::{
    ActiveModelTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, IntoActiveModel,
    TransactionTrait,
};

use super::observations::{self, Basis};
use super::versions::{self, Changes, Diff, Side};
use crate::snapshot::{Snapshot, SnapshotError, sha256_hex, with_dataset_tables};

#[derive(Debug)]
pub enum ImportError {
    Snapshot(SnapshotError),
    Db(DbErr),
    /// Rows naming rows the snapshot lacks ([`Snapshot::dangling`]); nothing was imported.
    Dangling(Vec<String>),
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Snapshot(e) => write!(f, "{e}"),
            Self::Db(e) => write!(f, "database: {e}"),
            Self::Dangling(refs) => write!(
                f,
                "{} dangling references, e.g. {}",
                refs.len(),
                refs.iter().take(3).cloned().collect::<Vec<_>>().join("; ")
            ),
        }
    }
}

impl std::error::Error for ImportError {}

impl From<DbErr> for ImportError {
    fn from(e: DbErr) -> Self {
        Self::Db(e)
    }
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The data was replaced; the new dataset version.
    Imported { version: i32 },
    /// The same snapshot was already loaded.
    Unchanged { version: i32 },
}

/// Rows per INSERT, so the bound parameters stay under SQLite's and PostgreSQL's limits.
const PARAMS_PER_STATEMENT: usize = 30_000;

async fn insert_all<C, E, M>(db: &C, rows: Vec<M>) -> Result<(), DbErr>
where
    C: ConnectionTrait,
    E: EntityTrait,
    M: IntoActiveModel<E::ActiveModel>,
    E::ActiveModel: ActiveModelTrait<Entity = E> + Send,
{
    // Every column is one bound parameter per row.
    let columns = <E::Column as sea_orm::Iterable>::iter().count();
    let per_chunk = (PARAMS_PER_STATEMENT / columns.max(1)).max(1);
    let mut rows = rows
        .into_iter()
        .map(|m| m.into_active_model().reset_all())
        .peekable();
    while rows.peek().is_some() {
        let chunk: Vec<E::ActiveModel> = rows.by_ref().take(per_chunk).collect();
        E::insert_many(chunk).exec_without_returning(db).await?;
    }
    Ok(())
}

/// Imports the embedded dataset into a database that holds none, so every entry point starts
/// from the bundled observations (docs/sync.md, "The observation store"): `mds serve` on
/// first start, and `mds sync` run before any server (from cron), whose build would
/// otherwise start from fewer copies than the bundle and lose its history.
pub async fn seed_if_empty(db: &DatabaseConnection) -> Result<Option<Outcome>, ImportError> {
    if current(db).await?.is_some() {
        return Ok(None);
    }
    import(db, crate::snapshot::EMBEDDED).await.map(Some)
}

/// The dataset row, if a dataset was ever imported.
pub async fn current(db: &DatabaseConnection) -> Result<Option<dataset::Model>, DbErr> {
    dataset::Entity::find_by_id(1).one(db).await
}

/// Imports snapshot `bytes` (gzip JSON, see [`crate::snapshot`]) as a new version.
pub async fn import(db: &DatabaseConnection, bytes: &[u8]) -> Result<Outcome, ImportError> {
    Ok(import_with(db, bytes, Meta::default()).await?.outcome)
}

/// What an import is told beyond the bytes.
#[derive(Debug, Clone, Default)]
pub struct Meta {
    /// What the snapshot was built from (`mds sync` knows; a file given to `mds import` has
    /// none, except the bundled snapshot, whose basis is its manifest).
    pub basis: Option<Basis>,
    /// Serve this recorded version again (`mds dataset use N`) instead of making a new one.
    pub serve: Option<i32>,
}

/// What an import did, with what it changed against the dataset served before.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub outcome: Outcome,
    pub changes: Changes,
}

/// Imports `bytes` as [`import`] does, recording the version (`dataset_versions`): its
/// snapshot, its basis, and what it changed against the dataset it replaces. The bundled
/// snapshot brings its observations with it (its manifest, docs/sync.md).
pub async fn import_with(
    db: &DatabaseConnection,
    bytes: &[u8],
    meta: Meta,
) -> Result<Imported, ImportError> {
    let sha = sha256_hex(bytes);
    let previous = current(db).await?;
    let embedded = sha == sha256_hex(crate::snapshot::EMBEDDED);
    let basis = match meta.basis {
        Some(b) => Some(b),
        None if embedded => {
            Some(observations::manifest_basis().map_err(|e| ImportError::Db(DbErr::Custom(e)))?)
        }
        None => None,
    };
    let basis = basis
        .map(|b| serde_json::to_string(&b))
        .transpose()
        .map_err(|e| ImportError::Db(DbErr::Custom(e.to_string())))?;
    if let Some(p) = previous
        .as_ref()
        .filter(|p| p.snapshot_sha256 == sha && meta.serve.is_none_or(|v| v == p.version))
    {
        return Ok(Imported {
            outcome: Outcome::Unchanged { version: p.version },
            changes: Changes::default(),
        });
    }
    let s: Snapshot = Snapshot::decode(bytes).map_err(ImportError::Snapshot)?;
    // A reference to a missing row is refused before anything changes: the API would
    // answer 404 for a provider an offering names (docs/data.md, "References").
    let dangling = s.dangling();
    if !dangling.is_empty() {
        return Err(ImportError::Dangling(dangling));
    }
    // A new version is numbered after every version ever recorded, so a rolled-back
    // database never gives an old number to new data (docs/sync.md, "Versions").
    let newest = versions::newest(db).await?;
    let version = meta.serve.unwrap_or_else(|| {
        previous
            .as_ref()
            .map(|p| p.version)
            .max(newest)
            .map_or(1, |v| v + 1)
    });
    let after = Side::of_snapshot(&s);
    let built_at = s.built_at.clone();
    let imported_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let txn = db.begin().await?;
    let changes = Diff::between(&Side::of_database(&txn).await?, &after).counts();
    if meta.serve.is_none() {
        versions::record(
            &txn,
            versions::Record {
                version,
                sha256: &sha,
                snapshot: &s,
                bytes,
                basis,
                compared_to: previous.as_ref().map(|p| p.version),
                changes: previous.as_ref().map(|_| changes),
                imported_at: &imported_at,
            },
        )
        .await?;
    }
    if embedded {
        observations::seed_manifest(&txn).await?;
    }
    replace(&txn, s).await?;
    let row = dataset::Model {
        id: 1,
        version,
        snapshot_sha256: sha,
        built_at,
        imported_at,
    };
    insert_all::<_, dataset::Entity, _>(&txn, vec![row]).await?;
    txn.commit().await?;
    Ok(Imported {
        outcome: Outcome::Imported { version },
        changes,
    })
}

/// Records the served dataset as a version when it was imported before versions were
/// recorded (a database migrated from an earlier release): the bundled dataset with its
/// manifest's observations and basis, any other with what is known of it. Idempotent.
pub async fn adopt(db: &DatabaseConnection) -> Result<(), ImportError> {
    let Some(served) = current(db).await? else {
        return Ok(());
    };
    if versions::summary(db, served.version).await?.is_some() {
        return Ok(());
    }
    let embedded = served.snapshot_sha256 == sha256_hex(crate::snapshot::EMBEDDED);
    let (bytes, basis): (Option<&[u8]>, Option<String>) = if embedded {
        let basis =
            observations::manifest_basis().map_err(|e| ImportError::Db(DbErr::Custom(e)))?;
        (
            Some(crate::snapshot::EMBEDDED),
            Some(
                serde_json::to_string(&basis)
                    .map_err(|e| ImportError::Db(DbErr::Custom(e.to_string())))?,
            ),
        )
    } else {
        (None, None)
    };
    let txn = db.begin().await?;
    match bytes {
        Some(bytes) => {
            let s = Snapshot::decode(bytes).map_err(ImportError::Snapshot)?;
            versions::record(
                &txn,
                versions::Record {
                    version: served.version,
                    sha256: &served.snapshot_sha256,
                    snapshot: &s,
                    bytes,
                    basis,
                    compared_to: None,
                    changes: None,
                    imported_at: &served.imported_at,
                },
            )
            .await?;
            observations::seed_manifest(&txn).await?;
        }
        None => {
            let side = Side::of_database(&txn).await?;
            versions::record_unkept(&txn, &served, side.models.len(), side.prices.len()).await?;
        }
    }
    txn.commit().await?;
    Ok(())
}

/// Deletes every table of the dataset, in the reverse of the list's order: a row before the
/// row it names.
macro_rules! delete_tables {
    ($txn:ident;) => {};
    ($txn:ident; $(#[$attr:meta])* $field:ident: $entity:ident, $($rest:tt)*) => {
        delete_tables!($txn; $($rest)*);
        entity::$entity::Entity::delete_many().exec($txn).await?;
    };
}

/// Inserts every table of the snapshot `$s`, in the list's order: a row after the row it
/// names.
macro_rules! insert_tables {
    ($txn:ident, $s:ident; $($(#[$attr:meta])* $field:ident: $entity:ident,)+) => {
        $(insert_all::<_, entity::$entity::Entity, _>($txn, $s.$field).await?;)+
    };
}

/// Replaces every table of the dataset with `s`'s rows (the dataset row aside).
async fn replace<C: ConnectionTrait>(txn: &C, s: Snapshot) -> Result<(), DbErr> {
    with_dataset_tables!(delete_tables, txn);
    dataset::Entity::delete_many().exec(txn).await?;
    with_dataset_tables!(insert_tables, txn, s);
    Ok(())
}
