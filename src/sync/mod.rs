//! `mds sync`: fetch every source from where it lives upstream (or a mirror), check each file
//! with its own adapter, keep the last good copy of each source in a data directory, build
//! the dataset from those copies and import it as a new version only if it differs.
//!
//! Nothing is lost and nothing is faked: a source that fails in any way (unreachable, an HTTP
//! error, a timeout, a file over the size cap, a file its adapter cannot read, an HTML page
//! in place of the data, a parse over its budget, the sync's overall deadline) keeps its last
//! good copy while the others update; while any source has no good copy at all, no dataset
//! is built. The served dataset never changes because of a failure.
//!
//! A source whose new copy grows or shrinks beyond the guard's bounds, or has too many
//! entries dropped by validation ([`crate::ingest::validate`]), is **held**: its last good
//! copy keeps being served until an operator accepts the new one with
//! `mds sync --accept SOURCE` (docs/security.md). Reasons published in `/api/v1/sources`
//! are in the service's own words, with no fetched content and no local path; the detail
//! goes to the log.

pub mod fetch;
pub mod schedule;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use sea_orm::DatabaseConnection;
use serde::{Deserialize, Serialize};

use crate::ingest::sources::{ALL, Collected, Source};
use crate::ingest::{self, Report as IngestReport};
use fetch::{Fetched, Validators};

/// Settings of one sync.
#[derive(Debug, Clone)]
pub struct Options {
    /// Where the last good copies (`raw/<slug>/…`) and the fetch state live.
    pub data_dir: PathBuf,
    /// Fetch every file from `<mirror>/<slug>/<path>` instead of its upstream URL.
    pub mirror: Option<String>,
    /// Only these sources (slugs); the others keep their copies.
    pub only: Vec<String>,
    /// Report what would change; write and import nothing.
    pub dry_run: bool,
    /// Longest wait for one file, connection included.
    pub timeout: Duration,
    /// Largest file accepted, in bytes.
    pub max_bytes: u64,
    /// Further tries of a file after a network error or a 5xx, with back-off.
    pub retries: u32,
    /// The derived price-change log, if any (see [`ingest::Options::price_changes`]).
    pub price_changes: Option<PathBuf>,
    /// The day of this sync (`YYYY-MM-DD`, UTC): a copy that changes is observed on it.
    pub today: String,
    /// Sources whose new copy is kept even beyond the guard's bounds (`--accept`).
    pub accept: Vec<String>,
    /// Longest the whole sync may take; a source not done by then fails.
    pub deadline: Duration,
}

/// Seconds one file may take by default.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;
/// Largest file accepted by default, in megabytes.
pub const DEFAULT_MAX_FILE_MB: u64 = 64;
/// Further tries of a file by default.
pub const DEFAULT_RETRIES: u32 = 2;
/// Seconds a whole sync may take by default.
pub const DEFAULT_DEADLINE_SECS: u64 = 1800;
/// A new copy with more than this share (percent) fewer entries than the last good one is
/// held for review.
pub const MAX_SHRINK_PERCENT: usize = 5;
/// A new copy with more than this share (percent) more entries than the last good one is
/// held for review (a source may grow a lot between two syncs months apart, never double).
pub const MAX_GROWTH_PERCENT: usize = 100;
/// A new copy with more than this share (percent) of its entries dropped by validation is
/// held for review.
pub const MAX_DROPPED_PERCENT: usize = 5;
/// What a held source's reason starts with (its status in `/api/v1/sources` is `held`).
pub const HELD: &str = "held for review";

impl Options {
    /// A full sync into `data_dir` with the default limits (what the scheduled sync runs).
    pub fn new(data_dir: PathBuf, mirror: Option<String>) -> Self {
        Self {
            data_dir,
            mirror,
            only: Vec::new(),
            dry_run: false,
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_SECS),
            max_bytes: DEFAULT_MAX_FILE_MB * 1024 * 1024,
            retries: DEFAULT_RETRIES,
            price_changes: None,
            today: today(),
            accept: Vec::new(),
            deadline: Duration::from_secs(DEFAULT_DEADLINE_SECS),
        }
    }
}

/// Today's date, UTC, as `YYYY-MM-DD`.
pub fn today() -> String {
    chrono::Utc::now().format("%Y-%m-%d").to_string()
}

/// What happened to one source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    /// Every file is the same as the last good copy.
    Unchanged,
    /// New files were checked and are now the last good copy (or would be, on a dry run).
    Updated { files: usize },
    /// Kept the last good copy; why.
    Failed { reason: String },
    /// Kept the last good copy: the new one is beyond the guard's bounds until accepted
    /// (`mds sync --accept SOURCE`); why, with the counts.
    Held { reason: String },
}

/// One source's line of the report.
#[derive(Debug, Clone, Serialize)]
pub struct SourceReport {
    pub source: &'static str,
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Rows its adapter read from the copy now kept (records, scores and agent results).
    pub rows: usize,
    /// Entries of the new copy dropped by validation (a value out of range).
    pub dropped: usize,
}

/// What became of the dataset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "dataset", rename_all = "snake_case")]
pub enum DatasetOutcome {
    /// The built dataset is the one already served.
    Unchanged { version: i32 },
    /// Imported as a new version.
    Imported {
        version: i32,
        new_models: usize,
        price_changes: usize,
    },
    /// A dry run: a new version would be imported.
    WouldImport {
        new_models: usize,
        price_changes: usize,
    },
    /// Not built: why.
    NotBuilt { reason: String },
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub sources: Vec<SourceReport>,
    #[serde(flatten)]
    pub dataset: DatasetOutcome,
}

impl Report {
    /// Whether any source failed (the command then exits non-zero).
    pub fn failed(&self) -> bool {
        self.sources
            .iter()
            .any(|s| matches!(s.outcome, Outcome::Failed { .. } | Outcome::Held { .. }))
            || matches!(self.dataset, DatasetOutcome::NotBuilt { .. })
    }

    /// One line per source, then the dataset's.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for s in &self.sources {
            let what = match &s.outcome {
                Outcome::Unchanged => "unchanged".to_string(),
                Outcome::Updated { files } => format!("updated ({files} files)"),
                Outcome::Failed { reason } => format!("FAILED: {reason}"),
                Outcome::Held { reason } => format!("HELD: {reason}"),
            };
            out.push_str(&format!("{:<14} {what}; {} rows", s.source, s.rows));
            if s.dropped > 0 {
                out.push_str(&format!(", {} entries dropped (see the log)", s.dropped));
            }
            out.push('\n');
        }
        out.push_str(&match &self.dataset {
            DatasetOutcome::Unchanged { version } => {
                format!("dataset: unchanged (version {version})\n")
            }
            DatasetOutcome::Imported {
                version,
                new_models,
                price_changes,
            } => format!(
                "dataset: imported version {version}: {new_models} new models, {price_changes} price changes\n"
            ),
            DatasetOutcome::WouldImport {
                new_models,
                price_changes,
            } => format!(
                "dataset: would import a new version: {new_models} new models, {price_changes} price changes (dry run)\n"
            ),
            DatasetOutcome::NotBuilt { reason } => format!("dataset: not built: {reason}\n"),
        });
        out
    }
}

/// The fetch state kept beside the copies: each URL's validators, for conditional GETs,
/// and the day each source's current copy was first fetched (its observation day).
#[derive(Debug, Default, Serialize, Deserialize)]
struct State {
    validators: BTreeMap<String, Validators>,
    #[serde(default)]
    observed: BTreeMap<String, String>,
}

/// Sources whose earlier copies the ingest reads (price changes between observations): a
/// replaced copy of these is kept under `archive/<slug>/<its observation day>/`.
const ARCHIVED: &[&str] = &[
    ingest::sources::genai_prices::SOURCE,
    ingest::sources::litellm::SOURCE,
];

/// Moves the replaced copy `good` of `slug` into the archive, named by its observation day
/// (from the state, else its modification day). A copy replaced on the day it was observed
/// is not an earlier observation and is dropped by the swap instead.
fn archive_copy(opts: &Options, state: &State, slug: &str, good: &Path) -> std::io::Result<()> {
    if !ARCHIVED.contains(&slug) || !good.exists() {
        return Ok(());
    }
    let day = match state.observed.get(slug) {
        Some(d) => d.clone(),
        None => {
            let modified: chrono::DateTime<chrono::Utc> =
                std::fs::metadata(good)?.modified()?.into();
            modified.format("%Y-%m-%d").to_string()
        }
    };
    if day >= opts.today {
        return Ok(());
    }
    let dest = opts.data_dir.join("archive").join(slug).join(day);
    if dest.exists() {
        std::fs::remove_dir_all(&dest)?;
    }
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::rename(good, dest)
}

const STATE_FILE: &str = "sync-state.json";

fn load_state(dir: &Path) -> State {
    std::fs::read(dir.join(STATE_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// The URL of a file of `source`: upstream, or on the mirror.
fn url_of(source: &dyn Source, path: &str, mirror: Option<&str>) -> String {
    match mirror {
        Some(m) => format!("{}/{}/{path}", m.trim_end_matches('/'), source.slug()),
        None => format!("{}{path}", source.upstream().base),
    }
}

/// Entries an adapter reads from a sources directory (records, scores, agent results and
/// witnesses) and how many of them validation drops, or why it cannot (the adapter's own
/// words, which may quote the file: for the log only). Parsing takes a while, so it runs
/// off the async workers (a sync inside `mds serve` must not stall it).
async fn rows(source: &'static dyn Source, dir: &Path) -> Result<(usize, usize), String> {
    let dir = dir.to_path_buf();
    tokio::task::spawn_blocking(move || {
        let mut found = Collected::default();
        let mut report = IngestReport::default();
        source
            .read(&dir, &mut found, &mut report)
            .map_err(|e| e.to_string())?;
        let count = |f: &Collected| f.records.len() + f.offers.len() + f.scores.len() + f.agents.len() + f.witnesses.len();
        let read = count(&found);
        let dropped = crate::ingest::validate::collected(&mut found);
        for d in dropped.iter().take(20) {
            tracing::warn!(source = source.slug(), dropped = %d, "an upstream entry fails validation");
        }
        Ok((read - dropped.len(), dropped.len()))
    })
    .await
    .map_err(|e| e.to_string())?
}

/// Why a new copy of `now` entries (`dropped` more dropped by validation) is held against
/// a last good copy of `before`, if it is.
pub fn guard(before: Option<usize>, now: usize, dropped: usize) -> Option<String> {
    let read = now + dropped;
    if dropped * 100 > read * MAX_DROPPED_PERCENT {
        return Some(format!(
            "{HELD}: {dropped} of {read} entries fail validation (more than {MAX_DROPPED_PERCENT}%)"
        ));
    }
    let before = before?;
    if now * 100 < before * (100 - MAX_SHRINK_PERCENT) {
        return Some(format!(
            "{HELD}: {now} entries where the last good copy has {before} (a shrink of more than {MAX_SHRINK_PERCENT}%)"
        ));
    }
    if now * 100 > before * (100 + MAX_GROWTH_PERCENT) {
        return Some(format!(
            "{HELD}: {now} entries where the last good copy has {before} (a growth of more than {MAX_GROWTH_PERCENT}%)"
        ));
    }
    None
}

/// Replaces `dest` (a directory) with `src`, as nearly atomically as the file system allows.
fn swap_in(src: &Path, dest: &Path) -> std::io::Result<()> {
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let old = dest.with_extension("old");
    if old.exists() {
        std::fs::remove_dir_all(&old)?;
    }
    if dest.exists() {
        std::fs::rename(dest, &old)?;
    }
    std::fs::rename(src, dest)?;
    if old.exists() {
        std::fs::remove_dir_all(&old)?;
    }
    Ok(())
}

/// Fetches and checks one source into `staging/<slug>`; on success moves it to
/// `raw/<slug>` (unless a dry run).
async fn sync_source(
    client: &reqwest::Client,
    source: &'static dyn Source,
    opts: &Options,
    state: &mut State,
) -> SourceReport {
    let slug = source.slug();
    let raw = opts.data_dir.join("raw");
    let good = raw.join(slug);
    let staging_root = opts.data_dir.join("staging");
    let staging = staging_root.join(slug);
    let previous = if good.exists() {
        rows(source, &raw).await.ok().map(|(n, _)| n)
    } else {
        None
    };
    // `reason` is published; `detail` (which may name local paths or quote the file) is
    // only logged.
    let fail = |reason: &str, detail: &dyn std::fmt::Display| {
        tracing::warn!(source = slug, reason, detail = %detail, "sync of a source failed");
        SourceReport {
            source: slug,
            outcome: Outcome::Failed {
                reason: reason.to_string(),
            },
            rows: previous.unwrap_or(0),
            dropped: 0,
        }
    };
    if staging.exists()
        && let Err(e) = std::fs::remove_dir_all(&staging)
    {
        return fail("cannot clear the staging directory", &e);
    }
    let files = (source.upstream().files)(&good);
    let (mut changed, mut fresh_validators) = (0usize, Vec::new());
    for path in &files {
        let url = url_of(source, path, opts.mirror.as_deref());
        let kept = good.join(path);
        let known = kept
            .exists()
            .then(|| state.validators.get(&url).cloned())
            .flatten();
        let target = staging.join(path);
        if let Some(parent) = target.parent()
            && let Err(e) = std::fs::create_dir_all(parent)
        {
            return fail("cannot write to the staging directory", &e);
        }
        match fetch::fetch(client, &url, known.as_ref(), opts.max_bytes, opts.retries).await {
            Ok(Fetched::NotModified) => {
                if let Err(e) = std::fs::copy(&kept, &target) {
                    return fail("cannot copy the last good copy to staging", &e);
                }
            }
            Ok(Fetched::Body { bytes, validators }) => {
                if std::fs::read(&kept).ok().as_deref() != Some(&bytes[..]) {
                    changed += 1;
                }
                if let Err(e) = std::fs::write(&target, &bytes) {
                    return fail("cannot write to the staging directory", &e);
                }
                fresh_validators.push((url, validators));
            }
            Err(reason) => return fail(&format!("{url}: {reason}"), &reason),
        }
    }
    let (now, dropped) = match rows(source, &staging_root).await {
        Ok(n) => n,
        Err(e) => {
            return fail(
                "the adapter cannot read the fetched files (malformed, or over a parse budget)",
                &e,
            );
        }
    };
    if !opts.accept.iter().any(|a| a == slug)
        && let Some(reason) = guard(previous, now, dropped)
    {
        tracing::warn!(
            source = slug,
            reason,
            "a source's new copy is held for review"
        );
        return SourceReport {
            source: slug,
            outcome: Outcome::Held { reason },
            rows: previous.unwrap_or(0),
            dropped,
        };
    }
    for (url, v) in fresh_validators {
        state.validators.insert(url, v);
    }
    let outcome = if changed == 0 && good.exists() {
        Outcome::Unchanged
    } else {
        Outcome::Updated { files: changed }
    };
    if opts.dry_run || outcome == Outcome::Unchanged {
        // A dry run leaves the checked files in staging: the dataset it reports on reads them.
        if outcome == Outcome::Unchanged {
            let _ = std::fs::remove_dir_all(&staging);
        }
    } else {
        if let Err(e) = archive_copy(opts, state, slug, &good) {
            return fail("cannot archive the replaced copy", &e);
        }
        if let Err(e) = swap_in(&staging, &good) {
            return fail("cannot keep the new copy", &e);
        }
        state.observed.insert(slug.to_string(), opts.today.clone());
    }
    SourceReport {
        source: slug,
        outcome,
        rows: now,
        dropped,
    }
}

/// Runs one sync against `db`.
pub async fn run(db: &DatabaseConnection, opts: &Options) -> Result<Report, String> {
    let known: Vec<&str> = ALL.iter().map(|s| s.slug()).collect();
    if let Some(unknown) = opts.only.iter().find(|o| !known.contains(&o.as_str())) {
        return Err(format!(
            "--only {unknown}: no such source (sources: {})",
            known.join(", ")
        ));
    }
    std::fs::create_dir_all(&opts.data_dir)
        .map_err(|e| format!("{}: {e}", opts.data_dir.display()))?;
    let client = reqwest::Client::builder()
        .redirect(fetch::same_origin_redirects())
        .timeout(opts.timeout)
        .connect_timeout(opts.timeout.min(Duration::from_secs(10)))
        .user_agent(concat!("mds-sync/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| e.to_string())?;
    let mut state = load_state(&opts.data_dir);
    let mut sources = Vec::new();
    // One deadline for the whole sync: a mirror trickling bytes cannot make it last hours.
    let deadline = tokio::time::Instant::now() + opts.deadline;
    for source in ALL {
        if !opts.only.is_empty() && !opts.only.iter().any(|o| o == source.slug()) {
            continue;
        }
        let report = match tokio::time::timeout_at(
            deadline,
            sync_source(&client, *source, opts, &mut state),
        )
        .await
        {
            Ok(r) => r,
            Err(_) => SourceReport {
                source: source.slug(),
                outcome: Outcome::Failed {
                    reason: format!(
                        "the sync's deadline ({} s) passed before this source was done",
                        opts.deadline.as_secs()
                    ),
                },
                rows: 0,
                dropped: 0,
            },
        };
        if !opts.dry_run
            && let Err(e) = record(db, *source, &report, opts, &state).await
        {
            tracing::warn!(source = source.slug(), error = %e, "cannot record the source's sync status");
        }
        if matches!(
            report.outcome,
            Outcome::Failed { .. } | Outcome::Held { .. }
        ) {
            // What failed is never read: not by this build, not by a dry run's view.
            let _ = std::fs::remove_dir_all(opts.data_dir.join("staging").join(source.slug()));
        }
        sources.push(report);
    }
    if !opts.dry_run {
        let bytes = serde_json::to_vec_pretty(&state).map_err(|e| e.to_string())?;
        std::fs::write(opts.data_dir.join(STATE_FILE), bytes)
            .map_err(|e| format!("{}: {e}", opts.data_dir.display()))?;
    }
    let mut observed = state.observed.clone();
    if opts.dry_run {
        // The copies a dry run would keep are observed today.
        for r in sources
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Updated { .. }))
        {
            observed.insert(r.source.to_string(), opts.today.clone());
        }
    }
    let dataset = build_and_import(db, opts, observed).await;
    Ok(Report { sources, dataset })
}

/// Records what this sync found at `source` in `source_status`, which every instance's
/// `/api/v1/sources` reads: the upstream, its version, when it was tried and last kept, why
/// it failed.
async fn record(
    db: &DatabaseConnection,
    source: &'static dyn Source,
    report: &SourceReport,
    opts: &Options,
    state: &State,
) -> Result<(), sea_orm::DbErr> {
    use entity::source_status;
    use sea_orm::{ActiveModelTrait, EntityTrait, IntoActiveModel, TransactionTrait};
    let slug = source.slug();
    let first = (source.upstream().files)(&opts.data_dir.join("raw").join(slug))
        .into_iter()
        .next()
        .unwrap_or_default();
    let upstream = url_of(source, &first, opts.mirror.as_deref());
    let version = state
        .validators
        .get(&upstream)
        .and_then(|v| v.etag.clone().or_else(|| v.last_modified.clone()));
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let txn = db.begin().await?;
    let previous = source_status::Entity::find_by_id(slug).one(&txn).await?;
    let error = match &report.outcome {
        Outcome::Failed { reason } | Outcome::Held { reason } => Some(reason.clone()),
        _ => None,
    };
    let row = source_status::Model {
        slug: slug.to_string(),
        upstream,
        version,
        last_fetched: now.clone(),
        last_success: if error.is_none() {
            Some(now)
        } else {
            previous.as_ref().and_then(|p| p.last_success.clone())
        },
        error,
        rows: i64::try_from(report.rows).unwrap_or(i64::MAX),
        observed: state.observed.get(slug).cloned(),
    };
    if previous.is_some() {
        source_status::Entity::delete_by_id(slug).exec(&txn).await?;
    }
    row.into_active_model().reset_all().insert(&txn).await?;
    txn.commit().await
}

/// On a dry run, a sources directory whose entries are the checked new copies (left in
/// staging) where there are any, else the last good ones.
fn dry_run_view(opts: &Options) -> std::io::Result<PathBuf> {
    let view = opts.data_dir.join("dry-run");
    if view.exists() {
        std::fs::remove_dir_all(&view)?;
    }
    std::fs::create_dir_all(&view)?;
    for s in ALL {
        let staged = opts.data_dir.join("staging").join(s.slug());
        let kept = opts.data_dir.join("raw").join(s.slug());
        let from = if staged.exists() { staged } else { kept };
        if from.exists() {
            std::os::unix::fs::symlink(std::fs::canonicalize(from)?, view.join(s.slug()))?;
        }
    }
    Ok(view)
}

/// Builds the dataset from the last good copies and imports it if it differs.
async fn build_and_import(
    db: &DatabaseConnection,
    opts: &Options,
    observed: BTreeMap<String, String>,
) -> DatasetOutcome {
    let raw = if opts.dry_run {
        match dry_run_view(opts) {
            Ok(v) => v,
            Err(e) => {
                return DatasetOutcome::NotBuilt {
                    reason: format!("preparing the dry run's view: {e}"),
                };
            }
        }
    } else {
        opts.data_dir.join("raw")
    };
    let missing: Vec<&str> = ALL
        .iter()
        .map(|s| s.slug())
        .filter(|s| !raw.join(s).exists())
        .collect();
    if !missing.is_empty() {
        return DatasetOutcome::NotBuilt {
            reason: format!("no good copy yet of {}", missing.join(", ")),
        };
    }
    let ingest_opts = ingest::Options {
        sources: raw,
        price_changes: opts.price_changes.clone(),
        exclude: Default::default(),
        archive: Some(opts.data_dir.join("archive")),
        observed,
        today: Some(opts.today.clone()),
        labels: None,
    };
    // A few seconds of CPU: off the async workers.
    let built = tokio::task::spawn_blocking(move || {
        ingest::run(&ingest_opts).and_then(|(snap, _)| {
            snap.encode()
                .map(|bytes| (snap, bytes))
                .map_err(|e| ingest::IngestError(e.to_string()))
        })
    })
    .await
    .unwrap_or_else(|e| Err(ingest::IngestError(e.to_string())));
    let (snap, bytes) = match built {
        Ok(b) => b,
        Err(e) => {
            return DatasetOutcome::NotBuilt {
                reason: e.to_string(),
            };
        }
    };
    let current = crate::store::import::current(db).await.ok().flatten();
    if let Some(c) = &current
        && c.snapshot_sha256 == crate::snapshot::sha256_hex(&bytes)
    {
        return DatasetOutcome::Unchanged { version: c.version };
    }
    let (new_models, price_changes) = match crate::catalog::Catalog::load(db).await {
        Ok(served) => diff(&served, &snap),
        Err(_) => (snap.models.len(), 0),
    };
    if opts.dry_run {
        return DatasetOutcome::WouldImport {
            new_models,
            price_changes,
        };
    }
    match crate::store::import::import(db, &bytes).await {
        Ok(crate::store::import::Outcome::Imported { version }) => DatasetOutcome::Imported {
            version,
            new_models,
            price_changes,
        },
        Ok(crate::store::import::Outcome::Unchanged { version }) => {
            DatasetOutcome::Unchanged { version }
        }
        Err(e) => DatasetOutcome::NotBuilt {
            reason: format!("import failed: {e}"),
        },
    }
}

/// Models the served catalogue lacks, and offerings whose list prices differ.
fn diff(served: &crate::catalog::Catalog, built: &crate::snapshot::Snapshot) -> (usize, usize) {
    let slugs: std::collections::HashSet<&str> = served
        .all_models()
        .iter()
        .map(|m| m.slug.as_str())
        .collect();
    let new_models = built
        .models
        .iter()
        .filter(|m| !slugs.contains(m.slug.as_str()))
        .count();
    type ListPrice = (Option<f64>, Option<f64>);
    let prices: std::collections::HashMap<(&str, &str), ListPrice> = served
        .all_offerings()
        .iter()
        .map(|o| {
            (
                (o.model_slug.as_str(), o.provider_slug.as_str()),
                (o.input_price, o.output_price),
            )
        })
        .collect();
    let price_changes = built
        .offerings
        .iter()
        .filter(|o| {
            prices
                .get(&(o.model_slug.as_str(), o.provider_slug.as_str()))
                .is_some_and(|p| *p != (o.input_price, o.output_price))
        })
        .count();
    (new_models, price_changes)
}
