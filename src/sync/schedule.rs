//! `mds serve --sync-interval`: a sync in the background, at every multiple of the interval
//! since the Unix epoch, so that all instances wake together. On PostgreSQL the sync runs
//! inside a transaction holding an advisory lock, taken with `pg_try_advisory_xact_lock`:
//! the one instance that gets it syncs, the others skip that tick, and every instance serves
//! the imported version within its reload interval. On SQLite (one instance) it just runs.

use std::sync::Arc;
use std::time::Duration;

use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, Statement, TransactionTrait};

use super::{DatasetOutcome, Options, Outcome};
use crate::metrics::Metrics;

/// The advisory lock's key: "mds sync" in ASCII, so no other application's lock collides.
const LOCK_KEY: i64 = 0x6d64_7320_7379_6e63;

/// How long until the next multiple of `interval` since the Unix epoch.
pub fn until_next(interval: Duration, now: Duration) -> Duration {
    let every = interval.as_millis().max(1);
    let next = (now.as_millis() / every + 1) * every;
    Duration::from_millis(u64::try_from(next - now.as_millis()).unwrap_or(u64::MAX))
}

/// Runs forever: a sync at every tick.
pub async fn every(
    interval: Duration,
    db: DatabaseConnection,
    opts: Options,
    metrics: Arc<Metrics>,
) {
    loop {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        tokio::time::sleep(until_next(interval, now)).await;
        let outcome = once(&db, &opts, &metrics).await;
        metrics.sync_run(outcome);
    }
}

/// One scheduled sync; its outcome for the metrics.
pub async fn once(db: &DatabaseConnection, opts: &Options, metrics: &Metrics) -> &'static str {
    if db.get_database_backend() != DbBackend::Postgres {
        return run(db, opts, metrics).await;
    }
    let txn = match db.begin().await {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!(error = %e, "sync: no database transaction for the lock");
            return "failed";
        }
    };
    let got = txn
        .query_one_raw(Statement::from_sql_and_values(
            DbBackend::Postgres,
            "SELECT pg_try_advisory_xact_lock($1) AS got",
            [LOCK_KEY.into()],
        ))
        .await
        .ok()
        .flatten()
        .and_then(|row| row.try_get::<bool>("", "got").ok())
        .unwrap_or(false);
    if !got {
        tracing::info!("sync: another instance is syncing; skipped");
        let _ = txn.rollback().await;
        return "skipped";
    }
    let outcome = run(db, opts, metrics).await;
    // Ending the transaction releases the lock.
    let _ = txn.commit().await;
    outcome
}

async fn run(db: &DatabaseConnection, opts: &Options, metrics: &Metrics) -> &'static str {
    // A schedule runs for days: each sync observes on the day it runs.
    let opts = Options {
        today: super::today(),
        ..opts.clone()
    };
    match super::run(db, &opts).await {
        Ok(report) => {
            let now = chrono::Utc::now().timestamp();
            for s in &report.sources {
                if !matches!(s.outcome, Outcome::Failed { .. }) {
                    metrics.source_synced(s.source, now);
                }
            }
            tracing::info!(report = %report.render(), "sync finished");
            match report.dataset {
                _ if report.failed() => "failed",
                DatasetOutcome::Imported { .. } => "imported",
                _ => "unchanged",
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "sync could not run");
            "failed"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_multiples_of_the_interval() {
        let h = Duration::from_secs(3600);
        assert_eq!(until_next(h, Duration::from_secs(7200)), h);
        assert_eq!(
            until_next(h, Duration::from_secs(7300)),
            Duration::from_secs(3500)
        );
    }
}
