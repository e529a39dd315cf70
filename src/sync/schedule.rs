//! `mds serve --sync-interval`: a sync in the background, at every multiple of the interval
//! since the Unix epoch, so that all instances wake together. Each sync takes the sync lock
//! ([`super::lock`], the one `mds sync` from cron takes too): the instance that gets it
//! syncs, the others skip that tick, and every instance serves the imported version within
//! its reload interval. `mds serve` runs it daily unless told not to (`--sync-interval 0`),
//! and (for an interval of an hour or more) once at start-up when no sync has tried the
//! sources within the interval, so a new deployment serves current data the day it starts
//! (docs/sync.md, "Scheduling").

use std::sync::Arc;
use std::time::Duration;

use sea_orm::DatabaseConnection;

use super::{DatasetOutcome, Options};
use crate::metrics::Metrics;

/// How long until the next multiple of `interval` since the Unix epoch.
pub fn until_next(interval: Duration, now: Duration) -> Duration {
    let every = interval.as_millis().max(1);
    let next = (now.as_millis() / every + 1) * every;
    Duration::from_millis(u64::try_from(next - now.as_millis()).unwrap_or(u64::MAX))
}

/// How long a SQLite lease outlives a sync that died: its deadline, and a margin for the
/// build after it.
pub fn lease(opts: &Options) -> Duration {
    opts.deadline + Duration::from_secs(600)
}

/// The shortest interval whose schedule also syncs at start-up: a shorter one ticks soon
/// enough anyway.
pub const START_UP_SYNC_FROM: Duration = Duration::from_secs(3600);

/// Whether no sync has tried any source within `interval` before `now` (none ever did, or
/// the last try is older): then a sync is due at start-up. Counting tries, not successes,
/// means an instance restarting over and over while offline tries once per interval.
pub async fn due_at_start(db: &DatabaseConnection, interval: Duration) -> bool {
    let Ok(rows) = crate::store::rows::statuses(db).await else {
        return false;
    };
    let last = rows
        .iter()
        .filter_map(|r| chrono::DateTime::parse_from_rfc3339(&r.last_fetched).ok())
        .max();
    let interval = chrono::Duration::from_std(interval).unwrap_or(chrono::Duration::MAX);
    last.is_none_or(|t| chrono::Utc::now() - t.with_timezone(&chrono::Utc) >= interval)
}

/// Runs forever: a sync at start-up when one is due ([`due_at_start`]), then one at every
/// tick.
pub async fn every(
    interval: Duration,
    db: DatabaseConnection,
    opts: Options,
    metrics: Arc<Metrics>,
) {
    if interval >= START_UP_SYNC_FROM && due_at_start(&db, interval).await {
        tracing::info!("sync: no sync within the interval; syncing now");
        let outcome = once(&db, &opts).await;
        metrics.sync_run(outcome);
    }
    loop {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        tokio::time::sleep(until_next(interval, now)).await;
        let outcome = once(&db, &opts).await;
        metrics.sync_run(outcome);
    }
}

/// One scheduled sync; its outcome for the metrics.
pub async fn once(db: &DatabaseConnection, opts: &Options) -> &'static str {
    match super::lock::exclusive(db, lease(opts), run(db, opts)).await {
        Ok(Some(outcome)) => outcome,
        Ok(None) => {
            tracing::info!("sync: another instance is syncing; skipped");
            "skipped"
        }
        Err(e) => {
            tracing::warn!(error = %e, "sync: cannot take the sync lock; skipped");
            "failed"
        }
    }
}

async fn run(db: &DatabaseConnection, opts: &Options) -> &'static str {
    // A schedule runs for days: each sync observes on the day it runs.
    let opts = Options {
        today: super::today(),
        ..opts.clone()
    };
    match super::run(db, &opts).await {
        Ok(report) => {
            // Each failure was logged at WARN with its reason when it happened (offline, in
            // one line for all); the summary is one line, at WARN when anything failed or
            // waits, unless the only news is that no upstream was reached.
            if report.failed() && !report.offline {
                tracing::warn!("sync: {}", report.summary());
            } else {
                tracing::info!("sync: {}", report.summary());
            }
            match report.dataset {
                _ if report.failed() => "failed",
                DatasetOutcome::Imported { .. } => "imported",
                _ => "unchanged",
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "sync: could not run");
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
