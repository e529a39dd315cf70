//! Loads a snapshot into the database in one transaction: the previous dataset is replaced
//! atomically (readers see the old or the new data, never a mix) and the dataset version is
//! bumped. Importing the same bytes again changes nothing.

use entity::{
    agent, agent_model, agent_score, benchmark, dataset, economy_indicator, economy_point, model,
    model_alias, model_domain, offering, price_history, provider, score, source,
};
use sea_orm::{
    ActiveModelTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, IntoActiveModel,
    TransactionTrait,
};

use crate::snapshot::{Snapshot, SnapshotError, sha256_hex};

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

/// The dataset row, if a dataset was ever imported.
pub async fn current(db: &DatabaseConnection) -> Result<Option<dataset::Model>, DbErr> {
    dataset::Entity::find_by_id(1).one(db).await
}

/// Imports snapshot `bytes` (gzip JSON, see [`crate::snapshot`]).
pub async fn import(db: &DatabaseConnection, bytes: &[u8]) -> Result<Outcome, ImportError> {
    let sha = sha256_hex(bytes);
    let previous = current(db).await?;
    if let Some(p) = previous.as_ref().filter(|p| p.snapshot_sha256 == sha) {
        return Ok(Outcome::Unchanged { version: p.version });
    }
    let s: Snapshot = Snapshot::decode(bytes).map_err(ImportError::Snapshot)?;
    // A reference to a missing row is refused before anything changes: the API would
    // answer 404 for a provider an offering names (docs/data.md, "References").
    let dangling = s.dangling();
    if !dangling.is_empty() {
        return Err(ImportError::Dangling(dangling));
    }
    let version = previous.as_ref().map_or(1, |p| p.version + 1);
    let txn = db.begin().await?;
    model_domain::Entity::delete_many().exec(&txn).await?;
    economy_point::Entity::delete_many().exec(&txn).await?;
    economy_indicator::Entity::delete_many().exec(&txn).await?;
    agent_score::Entity::delete_many().exec(&txn).await?;
    agent_model::Entity::delete_many().exec(&txn).await?;
    agent::Entity::delete_many().exec(&txn).await?;
    score::Entity::delete_many().exec(&txn).await?;
    benchmark::Entity::delete_many().exec(&txn).await?;
    price_history::Entity::delete_many().exec(&txn).await?;
    offering::Entity::delete_many().exec(&txn).await?;
    model_alias::Entity::delete_many().exec(&txn).await?;
    model::Entity::delete_many().exec(&txn).await?;
    provider::Entity::delete_many().exec(&txn).await?;
    source::Entity::delete_many().exec(&txn).await?;
    dataset::Entity::delete_many().exec(&txn).await?;

    insert_all::<_, source::Entity, _>(&txn, s.sources).await?;
    insert_all::<_, provider::Entity, _>(&txn, s.providers).await?;
    insert_all::<_, model::Entity, _>(&txn, s.models).await?;
    insert_all::<_, model_alias::Entity, _>(&txn, s.aliases).await?;
    insert_all::<_, offering::Entity, _>(&txn, s.offerings).await?;
    insert_all::<_, price_history::Entity, _>(&txn, s.price_history).await?;
    insert_all::<_, benchmark::Entity, _>(&txn, s.benchmarks).await?;
    insert_all::<_, score::Entity, _>(&txn, s.scores).await?;
    insert_all::<_, agent::Entity, _>(&txn, s.agents).await?;
    insert_all::<_, agent_model::Entity, _>(&txn, s.agent_models).await?;
    insert_all::<_, agent_score::Entity, _>(&txn, s.agent_scores).await?;
    insert_all::<_, economy_indicator::Entity, _>(&txn, s.economy_indicators).await?;
    insert_all::<_, economy_point::Entity, _>(&txn, s.economy_points).await?;
    insert_all::<_, model_domain::Entity, _>(&txn, s.model_domains).await?;
    let row = dataset::Model {
        id: 1,
        version,
        snapshot_sha256: sha,
        built_at: s.built_at,
        imported_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    };
    insert_all::<_, dataset::Entity, _>(&txn, vec![row]).await?;
    txn.commit().await?;
    Ok(Outcome::Imported { version })
}
