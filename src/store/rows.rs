//! Every row of the dataset, read in one consistent snapshot of the database: the raw
//! material of the in-memory catalogue ([`crate::catalog`]).

use entity::{
    agent, agent_model, agent_score, benchmark, dataset, economy_indicator, economy_point, model,
    model_alias, model_domain, offering, price_history, provider, score, source, source_status,
};
use sea_orm::{
    AccessMode, DatabaseConnection, DbErr, EntityTrait, IsolationLevel, TransactionTrait,
};

/// The whole dataset as rows, in no particular order.
#[derive(Debug, Default)]
pub struct Rows {
    pub dataset: Option<dataset::Model>,
    /// The served version's record: what it changed, whether it is pinned.
    pub version: Option<super::versions::Summary>,
    pub models: Vec<model::Model>,
    pub aliases: Vec<model_alias::Model>,
    pub providers: Vec<provider::Model>,
    pub offerings: Vec<offering::Model>,
    pub price_history: Vec<price_history::Model>,
    pub benchmarks: Vec<benchmark::Model>,
    pub scores: Vec<score::Model>,
    pub agents: Vec<agent::Model>,
    pub agent_models: Vec<agent_model::Model>,
    pub agent_scores: Vec<agent_score::Model>,
    pub sources: Vec<source::Model>,
    /// What the syncs found at each source (not part of the dataset: see its entity).
    pub statuses: Vec<source_status::Model>,
    /// Each source's copy the served dataset was built from, as its upstream names it.
    pub served: std::collections::BTreeMap<String, super::observations::ServedCopy>,
    pub economy_indicators: Vec<economy_indicator::Model>,
    pub economy_points: Vec<economy_point::Model>,
    pub model_domains: Vec<model_domain::Model>,
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
    let served = match &dataset {
        Some(d) => match super::versions::basis(&txn, d.version).await? {
            Some(basis) => super::observations::served(&txn, &basis).await?,
            None => Default::default(),
        },
        None => Default::default(),
    };
    let rows = Rows {
        dataset,
        version,
        models: model::Entity::find().all(&txn).await?,
        aliases: model_alias::Entity::find().all(&txn).await?,
        providers: provider::Entity::find().all(&txn).await?,
        offerings: offering::Entity::find().all(&txn).await?,
        price_history: price_history::Entity::find().all(&txn).await?,
        benchmarks: benchmark::Entity::find().all(&txn).await?,
        scores: score::Entity::find().all(&txn).await?,
        agents: agent::Entity::find().all(&txn).await?,
        agent_models: agent_model::Entity::find().all(&txn).await?,
        agent_scores: agent_score::Entity::find().all(&txn).await?,
        sources: source::Entity::find().all(&txn).await?,
        statuses: source_status::Entity::find().all(&txn).await?,
        served,
        economy_indicators: economy_indicator::Entity::find().all(&txn).await?,
        economy_points: economy_point::Entity::find().all(&txn).await?,
        model_domains: model_domain::Entity::find().all(&txn).await?,
    };
    txn.commit().await?;
    Ok(rows)
}
