//! `mds serve --sync-interval`: a sync in the background, at every multiple of the interval
//! since the Unix epoch, so that all instances wake together. Each sync takes the sync lock
//! ([`super::lock`], the one `mds sync` from cron takes too): the instance that gets it
//! syncs, the others skip that tick, and every instance serves the imported version within
//! its reload interval. `mds serve` runs it daily unless told not to (`--sync-interval 0`),
//! and (for an interval of an hour or more) once at start-up when no sync has tried the
//! sources within the interval, so a new deployment serves current data the day it starts
//! (docs/sync.md, "Scheduling"). `mds serve` runs each scheduled sync as `mds sync` in a
//! child process ([`Program`]): the fetch, the build and the import allocate hundreds of
//! megabytes that an allocator keeps once freed, and a child gives them all back when it
//! exits (docs/sync.md, "Memory over many syncs").

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

/// The program a scheduled sync runs as `<path> sync …`, with the server's database and
/// log format: `mds serve` names its own binary ([`Program::this_binary`]).
#[derive(Clone)]
pub struct Program {
    pub path: std::path::PathBuf,
    pub database_url: String,
    pub log_format: crate::config::LogFormat,
}

impl Program {
    /// This very binary: on Linux `/proc/self/exe`, which names the file this process was
    /// started from even after an upgrade replaced or removed it, so a sync never runs
    /// another version's code against the database this one serves; elsewhere the path it
    /// was started from.
    pub fn this_binary(database_url: &str, log_format: crate::config::LogFormat) -> Option<Self> {
        let proc_exe = std::path::Path::new("/proc/self/exe");
        let path = if proc_exe.exists() {
            proc_exe.to_path_buf()
        } else {
            std::env::current_exe().ok()?
        };
        Some(Self {
            path,
            database_url: database_url.to_string(),
            log_format,
        })
    }
}

impl std::fmt::Debug for Program {
    // The database URL may carry a password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// What `mds sync` prints when another sync holds the lock: a scheduled sync's child that
/// prints it skipped the tick.
pub const SKIPPED: &str =
    "sync skipped: another sync holds the lock (a scheduled sync or another `mds sync`)";

/// Runs forever: a sync at start-up when one is due ([`due_at_start`]), then one at every
/// tick; each in `program`'s child process where given, else in this one.
pub async fn every(
    interval: Duration,
    db: DatabaseConnection,
    opts: Options,
    program: Option<Program>,
    metrics: Arc<Metrics>,
) {
    if interval >= START_UP_SYNC_FROM && due_at_start(&db, interval).await {
        tracing::info!("sync: no sync within the interval; syncing now");
        let outcome = once(&db, &opts, program.as_ref()).await;
        metrics.sync_run(outcome);
    }
    loop {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        tokio::time::sleep(until_next(interval, now)).await;
        let outcome = once(&db, &opts, program.as_ref()).await;
        metrics.sync_run(outcome);
    }
}

/// One scheduled sync, in `program`'s child process where given; its outcome for the
/// metrics.
pub async fn once(
    db: &DatabaseConnection,
    opts: &Options,
    program: Option<&Program>,
) -> &'static str {
    if let Some(program) = program {
        match in_child(program, opts).await {
            Ok(outcome) => return outcome,
            // The sync still runs, here.
            Err(e) => tracing::warn!(
                program = %program.path.display(),
                error = %e,
                "sync: cannot start the sync process; syncing in this one"
            ),
        }
    }
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

/// One sync as `mds sync` in a child process, which takes the sync lock itself and logs
/// each failure into the server's stderr; stopped when it outlives the lease. Every setting
/// is passed explicitly (the mirror, which may carry credentials, in the environment, off
/// the command line), so the child syncs exactly as an in-process sync would whatever the
/// environment says; its report becomes one log line. An error: the child could not start.
async fn in_child(program: &Program, opts: &Options) -> std::io::Result<&'static str> {
    let mut cmd = tokio::process::Command::new(&program.path);
    cmd.arg("sync")
        .arg("--data-dir")
        .arg(&opts.data_dir)
        .arg("--timeout")
        .arg(opts.timeout.as_secs().to_string())
        .arg("--max-file-mb")
        .arg((opts.max_bytes / (1024 * 1024)).max(1).to_string())
        .arg("--retries")
        .arg(opts.retries.to_string())
        .arg("--deadline")
        .arg(opts.deadline.as_secs().to_string())
        .arg("--log-format")
        .arg(program.log_format.as_str())
        .env("DATABASE_URL", &program.database_url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .kill_on_drop(true);
    match &opts.mirror {
        Some(mirror) => cmd.env("MDS_SYNC_MIRROR", mirror),
        None => cmd.env_remove("MDS_SYNC_MIRROR"),
    };
    if let Some(log) = &opts.price_changes {
        cmd.arg("--price-changes").arg(log);
    }
    let child = cmd.spawn()?;
    let output = match tokio::time::timeout(lease(opts), child.wait_with_output()).await {
        Ok(Ok(output)) => output,
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "sync: the sync process failed");
            return Ok("failed");
        }
        Err(_) => {
            // Dropping the child kills it (`kill_on_drop`).
            tracing::warn!("sync: the sync process outlived its lease; stopped");
            return Ok("failed");
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let outcome = outcome_of(output.status.success(), &stdout);
    let said = one_line(&stdout);
    match outcome {
        "skipped" => tracing::info!("sync: another instance is syncing; skipped"),
        // As in-process: the failures were logged (by the child) as they happened; the
        // summary is at WARN unless the only news is that no upstream was reached.
        "failed" if !stdout.lines().any(|l| l == super::OFFLINE) => {
            tracing::warn!(status = %output.status, "sync: {said}");
        }
        _ => tracing::info!("sync: {said}"),
    }
    Ok(outcome)
}

/// A report's lines as one log line.
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// A child's outcome from its exit status and report ([`super::Report::render`]): `mds
/// sync` exits non-zero when a source failed or was held.
fn outcome_of(success: bool, stdout: &str) -> &'static str {
    if !success {
        "failed"
    } else if stdout.lines().any(|l| l == SKIPPED) {
        "skipped"
    } else if stdout.lines().any(|l| l.starts_with("dataset: imported ")) {
        "imported"
    } else {
        "unchanged"
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

    /// The parent reads the child's outcome from the report `mds sync` prints.
    #[test]
    fn a_child_outcome_is_read_from_its_report() {
        let report = |dataset| super::super::Report {
            sources: Vec::new(),
            dataset,
            offline: false,
        };
        let imported = report(super::super::DatasetOutcome::Imported {
            version: 4,
            changes: Default::default(),
        });
        assert_eq!(outcome_of(true, &imported.render()), "imported");
        let unchanged = report(super::super::DatasetOutcome::Unchanged { version: 4 });
        assert_eq!(outcome_of(true, &unchanged.render()), "unchanged");
        assert_eq!(outcome_of(false, &imported.render()), "failed");
        assert_eq!(outcome_of(true, &format!("{SKIPPED}\n")), "skipped");
        // An offline sync says so in its report, so the parent logs its summary at INFO.
        let offline = super::super::Report {
            offline: true,
            ..unchanged
        };
        assert!(offline.render().lines().any(|l| l == super::super::OFFLINE));
        assert_eq!(outcome_of(false, &offline.render()), "failed");
    }
}
