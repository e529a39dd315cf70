//! One sync at a time per database, whoever runs it: `mds serve --sync-interval` on every
//! instance and `mds sync` from cron take the same lock (docs/sync.md, "Scheduling"). On
//! PostgreSQL it is an advisory lock held by a transaction (`pg_try_advisory_xact_lock`),
//! released when the transaction ends, however the process ends; on SQLite a lease row
//! (`sync_lease`) that expires after the sync's deadline, should its holder die.

use std::time::Duration;

use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, DatabaseTransaction,
    DbBackend, DbErr, EntityTrait, QueryFilter, Set, Statement, TransactionTrait,
};

/// The advisory lock's key: "mds sync" in ASCII, so no other application's lock collides.
pub const LOCK_KEY: i64 = 0x6d64_7320_7379_6e63;

/// A held lock; [`release`] it when the sync is done.
pub enum Held {
    Advisory(DatabaseTransaction),
    Lease(String),
}

fn rfc3339(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Takes the lock if no other sync holds it; `None` when another does. `ttl` bounds how
/// long a SQLite lease outlives a holder that died.
pub async fn acquire(db: &DatabaseConnection, ttl: Duration) -> Result<Option<Held>, DbErr> {
    if db.get_database_backend() == DbBackend::Postgres {
        let txn = db.begin().await?;
        let got = txn
            .query_one_raw(Statement::from_sql_and_values(
                DbBackend::Postgres,
                "SELECT pg_try_advisory_xact_lock($1) AS got",
                [LOCK_KEY.into()],
            ))
            .await?
            .and_then(|row| row.try_get::<bool>("", "got").ok())
            .unwrap_or(false);
        if got {
            return Ok(Some(Held::Advisory(txn)));
        }
        txn.rollback().await?;
        return Ok(None);
    }
    use entity::sync_lease;
    let now = chrono::Utc::now();
    let holder = format!("{}-{}", std::process::id(), rand::random::<u64>());
    let expires = now + chrono::Duration::from_std(ttl).unwrap_or(chrono::Duration::hours(1));
    let txn = db.begin().await?;
    sync_lease::Entity::delete_many()
        .filter(sync_lease::Column::ExpiresAt.lt(rfc3339(now)))
        .exec(&txn)
        .await?;
    if sync_lease::Entity::find_by_id(1).one(&txn).await?.is_some() {
        txn.rollback().await?;
        return Ok(None);
    }
    let inserted = sync_lease::ActiveModel {
        id: Set(1),
        holder: Set(holder.clone()),
        expires_at: Set(rfc3339(expires)),
    }
    .insert(&txn)
    .await;
    match inserted {
        Ok(_) => {
            txn.commit().await?;
            Ok(Some(Held::Lease(holder)))
        }
        // Another sync took it between the read and the write.
        Err(_) => {
            let _ = txn.rollback().await;
            Ok(None)
        }
    }
}

/// Releases a held lock.
pub async fn release(db: &DatabaseConnection, held: Held) -> Result<(), DbErr> {
    match held {
        Held::Advisory(txn) => txn.commit().await,
        Held::Lease(holder) => {
            use entity::sync_lease;
            sync_lease::Entity::delete_many()
                .filter(sync_lease::Column::Holder.eq(holder))
                .exec(db)
                .await
                .map(|_| ())
        }
    }
}

/// Runs `f` holding the lock; `None` when another sync holds it.
pub async fn exclusive<T>(
    db: &DatabaseConnection,
    ttl: Duration,
    f: impl std::future::Future<Output = T>,
) -> Result<Option<T>, DbErr> {
    let Some(held) = acquire(db, ttl).await? else {
        return Ok(None);
    };
    let out = f.await;
    if let Err(e) = release(db, held).await {
        tracing::warn!(error = %e, "sync: cannot release the sync lock (a SQLite lease expires on its own)");
    }
    Ok(Some(out))
}
