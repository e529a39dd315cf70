//! `mds sync`: fetch every source from where it lives upstream (or a mirror), check each file
//! with its own adapter, record what changed in the observation store every instance shares
//! (the database's `observations`, [`crate::store::observations`]), build the dataset from
//! the store's copies and import it as a new version only if it differs (docs/sync.md).
//!
//! The dataset is a function of what was observed: two instances with their own data
//! directories on one database build the same thing, and a sync that observes nothing new
//! builds nothing. The local data directory is only a working directory (the build's input,
//! the adapters' checks) and a cache of the upstream's validators.
//!
//! Nothing is lost and nothing is faked: a source that fails in any way (unreachable, an HTTP
//! error, a timeout, a file over the size cap, a file its adapter cannot read, an HTML page
//! in place of the data, a parse over its budget, the sync's overall deadline) keeps its last
//! stored copy while the others update; while any source has no stored copy at all, no
//! dataset is built and the sources observed wait, said in the report and in
//! `/api/v1/sources`. The served dataset never changes because of a failure.
//!
//! A source whose new copy grows or shrinks beyond the guard's bounds, or has too many
//! entries dropped by validation ([`crate::ingest::validate`]), is **held**: its last good
//! copy keeps being served until an operator accepts the new one with
//! `mds sync --accept SOURCE` (docs/security.md). Reasons published in `/api/v1/sources`
//! are in the service's own words, with no fetched content and no local path; the detail
//! goes to the log.

pub mod fetch;
pub mod lock;
pub mod manifest;
pub mod schedule;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use entity::source_status;
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QuerySelect};
use serde::{Deserialize, Serialize};

use crate::ingest::sources::{ALL, Collected, Source};
use crate::ingest::{self, Report as IngestReport};
use crate::snapshot::sha256_hex;
use crate::store::observations::{self as obs, Basis, Write};
use crate::store::versions::{Changes, Diff, Side};
use fetch::{Fetched, Validators};

/// Why a sync could not run, or could not build a dataset. A source's own failure is no
/// error: it is that source's [`Outcome`] in the report, and the others go on.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// `--only` names no source.
    #[error("--only {name}: no such source (sources: {})", known.join(", "))]
    UnknownSource {
        name: String,
        known: Vec<&'static str>,
    },
    /// A local file or directory could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A dry run's temporary directory could not be made.
    #[error("a temporary directory: {0}")]
    Scratch(std::io::Error),
    /// The database refused what the sync was `doing`.
    #[error("{doing}: {source}")]
    Db {
        doing: &'static str,
        source: sea_orm::DbErr,
    },
    /// The served dataset could not be recorded as a version.
    #[error("recording the served dataset as a version: {0}")]
    Adopt(crate::store::import::ImportError),
    /// An observation the build needs has no stored bytes.
    #[error("observation {0} has no stored copy")]
    NoContent(i64),
    /// The HTTP client could not be made.
    #[error("{0}")]
    Client(reqwest::Error),
    /// The upstream validators could not be encoded.
    #[error("{0}")]
    State(serde_json::Error),
    /// The dataset could not be built from the stored copies.
    #[error("{0}")]
    Ingest(#[from] ingest::IngestError),
    /// The built dataset could not be encoded.
    #[error("{0}")]
    Encode(crate::snapshot::SnapshotError),
    /// A blocking task (the build, an adapter's check) did not finish.
    #[error("{0}")]
    Task(tokio::task::JoinError),
}

impl SyncError {
    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Self + '_ {
        move |source| Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Settings of one sync.
#[derive(Debug, Clone)]
pub struct Options {
    /// The working directory: the build's input (`build/`), the adapters' checks and the
    /// upstream's validators (`sync-state.json`). Never the source of truth: that is the
    /// observation store.
    pub data_dir: PathBuf,
    /// Fetch every file from `<mirror>/<slug>/<path>` instead of its upstream URL.
    pub mirror: Option<String>,
    /// Only these sources (slugs); the others keep their copies.
    pub only: Vec<String>,
    /// Report what would change; write nothing (no database row, no directory but a
    /// temporary one removed before the sync ends).
    pub dry_run: bool,
    /// Longest wait for one file, connection included.
    pub timeout: Duration,
    /// Largest file accepted, in bytes.
    pub max_bytes: u64,
    /// Further tries of a file after a network error or a 5xx, with back-off.
    pub retries: u32,
    /// The derived price-change log, if any (see [`ingest::Options::price_changes`]): it is
    /// recorded in the store like a fetched file, so every instance builds with it.
    pub price_changes: Option<PathBuf>,
    /// The day of this sync (`YYYY-MM-DD`, UTC): a copy that changes is observed on it.
    pub today: String,
    /// Sources whose new copy is kept even beyond the guard's bounds (`--accept`).
    pub accept: Vec<String>,
    /// Longest the whole sync may take; a source not done by then fails.
    pub deadline: Duration,
}

/// The report's last line when no upstream could be connected to (a machine offline).
pub const OFFLINE: &str = "offline: no upstream could be connected to; what is served is kept";

/// Seconds one file may take by default.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;
/// Largest file accepted by default, in megabytes.
pub const DEFAULT_MAX_FILE_MB: u64 = 64;
/// Further tries of a file by default.
pub const DEFAULT_RETRIES: u32 = 2;
/// Longest wait for a connection (name resolution included): offline, a sync fails within
/// seconds rather than waiting out each file's timeout.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
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
/// What the status of a source starts with whose new copy is recorded but not yet served,
/// because another source has no stored copy to build with (its status is `waiting`).
pub const WAITING: &str = entity::vocab::SourceStatus::Waiting.as_str();
/// What a failed source's reason says when the store holds no copy of it at all.
pub const NO_STORED_COPY: &str = "no copy of this source is stored yet, so no dataset is built: the served dataset is kept until a sync fetches it";

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
    /// Every file is the same as the last stored observation.
    Unchanged,
    /// New files were checked and recorded as its current copy (or would be, on a dry run).
    Updated { files: usize },
    /// Kept the last stored copy; why.
    Failed { reason: String },
    /// Kept the last stored copy: the new one is beyond the guard's bounds until accepted
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
    /// Nothing was observed that the served dataset was not built from, or the build gave
    /// the dataset already served.
    Unchanged { version: i32 },
    /// Imported as a new version; what it changed against the one served before.
    Imported { version: i32, changes: Changes },
    /// A dry run: a new version would be imported.
    WouldImport { changes: Changes },
    /// Not built because the store holds no copy of these sources (their only observation
    /// is the bundled one, whose bytes are not shipped, or none); the served dataset is kept.
    Waiting {
        missing: Vec<String>,
        version: Option<i32>,
    },
    /// `mds dataset use N` pinned the served version: observed and recorded, not switched.
    Pinned { version: i32 },
    /// Not built: why.
    NotBuilt { reason: String },
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub sources: Vec<SourceReport>,
    #[serde(flatten)]
    pub dataset: DatasetOutcome,
    /// No upstream could be connected to (a machine offline): said in one WARN line, so the
    /// scheduled sync's summary is at INFO.
    #[serde(skip)]
    pub offline: bool,
}

impl Report {
    /// Whether any source failed or the dataset waits (the command then exits non-zero).
    pub fn failed(&self) -> bool {
        self.sources
            .iter()
            .any(|s| matches!(s.outcome, Outcome::Failed { .. } | Outcome::Held { .. }))
            || matches!(
                self.dataset,
                DatasetOutcome::NotBuilt { .. } | DatasetOutcome::Waiting { .. }
            )
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
        out.push_str("dataset: ");
        out.push_str(&self.dataset_line());
        out.push('\n');
        if self.offline {
            out.push_str(OFFLINE);
            out.push('\n');
        }
        out
    }

    /// What became of the dataset, in one line.
    pub fn dataset_line(&self) -> String {
        match &self.dataset {
            DatasetOutcome::Unchanged { version } => format!("unchanged (version {version})"),
            DatasetOutcome::Imported { version, changes } => {
                format!("imported version {version}: {changes}")
            }
            DatasetOutcome::WouldImport { changes } => {
                format!("would import a new version: {changes} (dry run)")
            }
            DatasetOutcome::Waiting { missing, version } => format!(
                "WAITING: no copy of {} is stored yet (its only observation is the bundled one, or none), so no dataset is built; {}; what was observed is recorded and is served once a sync has fetched {}",
                missing.join(", "),
                version.map_or_else(
                    || "no dataset is served yet".to_string(),
                    |v| format!("version {v} is kept")
                ),
                if missing.len() == 1 { "it" } else { "them" }
            ),
            DatasetOutcome::Pinned { version } => format!(
                "pinned to version {version} (`mds dataset use latest` follows the syncs again); observations recorded"
            ),
            DatasetOutcome::NotBuilt { reason } => format!("not built: {reason}"),
        }
    }

    /// The whole report in one line, for the log.
    pub fn summary(&self) -> String {
        let mut counts: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for s in &self.sources {
            let kind = match s.outcome {
                Outcome::Unchanged => "unchanged",
                Outcome::Updated { .. } => "updated",
                Outcome::Failed { .. } => "failed",
                Outcome::Held { .. } => "held",
            };
            counts.entry(kind).or_default().push(s.source);
        }
        let parts: Vec<String> = counts
            .iter()
            .map(|(k, v)| match *k {
                "unchanged" => format!("{} unchanged", v.len()),
                _ => format!("{} {k} ({})", v.len(), v.join(", ")),
            })
            .collect();
        format!(
            "{} sources: {}; dataset {}",
            self.sources.len(),
            parts.join(", "),
            self.dataset_line()
        )
    }
}

/// What this instance remembers of each URL it fetched: the upstream's validators and the
/// sha256 of the body they stood for, so a `304` is answered from the store's copy only when
/// that copy is the same one (a cache: another instance may have observed a newer one).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Known {
    #[serde(flatten)]
    validators: Validators,
    #[serde(default)]
    sha256: Option<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct State {
    #[serde(default)]
    validators: BTreeMap<String, Known>,
}

const STATE_FILE: &str = "sync-state.json";

fn load_state(dir: &Path) -> State {
    std::fs::read(dir.join(STATE_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// `text` with the credentials of every URL in it left out (`http://user:pass@host/` →
/// `http://host/`): a mirror's URL may carry them, and what a sync reports is published
/// (`/api/v1/sources`) and logged.
pub fn without_credentials(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        let (head, tail) = rest.split_at(i + 3);
        out.push_str(head);
        // The authority ends where its path, query or fragment starts, or the text does.
        let end = tail
            .find(|c: char| matches!(c, '/' | '?' | '#' | '"' | '\'' | ')') || c.is_whitespace())
            .unwrap_or(tail.len());
        let authority = &tail[..end];
        out.push_str(
            authority
                .rfind('@')
                .map_or(authority, |at| &authority[at + 1..]),
        );
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// The URL of a file of `source`: upstream, or on the mirror.
fn url_of(source: &dyn Source, path: &str, mirror: Option<&str>) -> String {
    match mirror {
        Some(m) => format!("{}/{}/{path}", m.trim_end_matches('/'), source.dir()),
        None => format!("{}{path}", source.upstream().base),
    }
}

/// A file a mirror may serve in place of another, in the project's raw layout: models.dev's
/// TOML bundle for its `api.json`, so a directory laid out like `../shared/data/raw` serves
/// as a mirror as it is, and one equal to the bundled data yields the bundled observations.
fn mirror_alternate(slug: &str, path: &str) -> Option<String> {
    (slug == ingest::sources::models_dev::SOURCE && path == "api.json")
        .then(|| manifest::MODELS_DEV_BUNDLE.to_string())
}

/// The observation store as this sync sees it: its rows in the order they were recorded
/// and, on a dry run, the rows it would add (with their bytes, which the database lacks).
struct View {
    rows: Vec<obs::Row>,
    pending: HashMap<i64, Vec<u8>>,
}

impl View {
    async fn load(db: &DatabaseConnection) -> Result<Self, SyncError> {
        Ok(Self {
            rows: obs::all(db).await.map_err(|source| SyncError::Db {
                doing: "reading the observation store",
                source,
            })?,
            pending: HashMap::new(),
        })
    }

    /// The newest row of each file of `source` that is part of its copy.
    fn current(&self, source: &str) -> Vec<&obs::Row> {
        let mut latest: BTreeMap<&str, &obs::Row> = BTreeMap::new();
        for r in self.rows.iter().filter(|r| r.meta.source == source) {
            latest.insert(r.meta.path.as_str(), r);
        }
        latest.into_values().filter(|r| !r.meta.removed).collect()
    }

    fn sources(&self) -> BTreeSet<&str> {
        self.rows.iter().map(|r| r.meta.source.as_str()).collect()
    }

    /// The day of `source`'s current copy: when its newest file was observed.
    fn day(&self, source: &str) -> Option<String> {
        self.current(source)
            .iter()
            .map(|r| r.meta.observed.clone())
            .max()
    }

    /// What a dataset built now reads: each source's current files.
    fn basis(&self) -> Basis {
        let mut basis = Basis::new();
        for source in self.sources() {
            for r in self.current(source) {
                basis
                    .entry(source.to_string())
                    .or_default()
                    .insert(r.meta.path.clone(), r.meta.sha256.clone());
            }
        }
        basis
    }

    /// Adds `writes` as the database would (a dry run keeps them in memory).
    fn overlay(&mut self, writes: &[Write]) {
        let mut next = self.rows.iter().map(|r| r.meta.id).max().unwrap_or(0) + 1;
        for w in writes {
            match w {
                Write::Insert {
                    source,
                    path,
                    upstream,
                    upstream_date,
                    observed,
                    bytes,
                    origin,
                } => {
                    self.rows.push(obs::Row {
                        meta: obs::Meta {
                            id: next,
                            source: source.clone(),
                            path: path.clone(),
                            upstream: upstream.clone(),
                            upstream_date: upstream_date.clone(),
                            observed: observed.clone(),
                            sha256: sha256_hex(bytes),
                            bytes: i64::try_from(bytes.len()).unwrap_or(i64::MAX),
                            removed: false,
                            origin: (*origin).to_string(),
                        },
                        has_content: true,
                    });
                    self.pending.insert(next, bytes.clone());
                    next += 1;
                }
                Write::Fill { id, bytes } => {
                    if let Some(r) = self.rows.iter_mut().find(|r| r.meta.id == *id) {
                        r.has_content = true;
                        self.pending.insert(*id, bytes.clone());
                    }
                }
                Write::Remove {
                    source,
                    path,
                    observed,
                } => {
                    self.rows.push(obs::Row {
                        meta: obs::Meta {
                            id: next,
                            source: source.clone(),
                            path: path.clone(),
                            upstream: None,
                            upstream_date: None,
                            observed: observed.clone(),
                            sha256: String::new(),
                            bytes: 0,
                            removed: true,
                            origin: obs::SYNCED.to_string(),
                        },
                        has_content: false,
                    });
                    next += 1;
                }
            }
        }
    }

    /// The bytes of rows `ids`.
    async fn contents(
        &self,
        db: &DatabaseConnection,
        ids: &[i64],
    ) -> Result<HashMap<i64, Vec<u8>>, SyncError> {
        let (pending, stored): (Vec<i64>, Vec<i64>) =
            ids.iter().partition(|id| self.pending.contains_key(id));
        let mut out = obs::contents(db, &stored)
            .await
            .map_err(|source| SyncError::Db {
                doing: "reading the observation store",
                source,
            })?;
        for id in pending {
            if let Some(b) = self.pending.get(&id) {
                out.insert(id, b.clone());
            }
        }
        Ok(out)
    }
}

/// A directory removed when dropped: a dry run's whole working directory.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> std::io::Result<Self> {
        let dir = std::env::temp_dir().join(format!(
            "mds-dry-run-{}-{}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir)?;
        Ok(Self(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes `files` (path → bytes) under `dir`, replacing it.
fn write_tree<'a>(
    dir: &Path,
    files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) -> std::io::Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    for (path, bytes) in files {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(target, bytes)?;
    }
    Ok(())
}

/// Entries an adapter reads from a sources directory (records, scores, agent results and
/// witnesses) and how many of them validation drops, or why it cannot (the adapter's own
/// words, which may quote the file: for the log only). Parsing takes a while, so it runs
/// off the async workers (a sync inside `mds serve` must not stall it).
async fn rows(source: &'static dyn Source, dir: &Path) -> Result<(usize, usize), SyncError> {
    let dir = dir.to_path_buf();
    tokio::task::spawn_blocking(move || {
        let mut found = Collected::default();
        let mut report = IngestReport::default();
        source.read(&dir, &mut found, &mut report)?;
        let count = |f: &Collected| f.records.len() + f.offers.len() + f.scores.len() + f.agents.len() + f.witnesses.len();
        let read = count(&found);
        let dropped = crate::ingest::validate::collected(&mut found);
        for d in dropped.iter().take(20) {
            tracing::warn!(source = source.slug(), dropped = %d, "an upstream entry fails validation");
        }
        Ok((read - dropped.len(), dropped.len()))
    })
    .await
    .map_err(SyncError::Task)?
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

/// A fetched file: its path, its bytes, the upstream's name for the version and its own
/// date for it.
type Fetch = (String, Vec<u8>, Option<String>, Option<String>);

/// An HTTP date (`Last-Modified`) as RFC 3339, UTC; `None` when it is not one.
fn http_date(text: &str) -> Option<String> {
    chrono::DateTime::parse_from_rfc2822(text.trim())
        .ok()
        .map(|t| {
            t.with_timezone(&chrono::Utc)
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        })
}

/// What syncing one source gave: its report, what to record in the store, the validators
/// to remember, and where and which version its first file was fetched from.
struct Done {
    report: SourceReport,
    writes: Vec<Write>,
    fresh: Vec<(String, Known)>,
    upstream: String,
    version: Option<String>,
    /// It failed because no connection could be made (see [`fetch::FetchError`]).
    unreachable: bool,
}

/// What a sync reads once: the store, the sources' last statuses, this instance's
/// validators, the HTTP client.
struct Context<'a> {
    db: &'a DatabaseConnection,
    client: reqwest::Client,
    opts: &'a Options,
    state: State,
    statuses: HashMap<String, source_status::Model>,
    work: PathBuf,
}

/// Fetches every file of `source`, compares each with its current copy in the store, and
/// checks a changed copy with the source's adapter and the guard; says what to record.
async fn sync_source(
    cx: &Context<'_>,
    view: &View,
    source: &'static dyn Source,
    retries: u32,
) -> Done {
    let slug = source.slug();
    let opts = cx.opts;
    // The last good copy's rows, as the last sync recorded them (every instance's).
    let previous = cx
        .statuses
        .get(slug)
        .filter(|s| s.last_success.is_some())
        .map(|s| usize::try_from(s.rows).unwrap_or(0));
    let current = view.current(slug);
    // The files to fetch: what the upstream lists given the current copy's file names
    // (LiveBench finds releases there), laid out as empty files, which is all it reads.
    let listing = cx.work.join("listing").join(slug);
    let files = write_tree(
        &listing,
        current.iter().map(|r| (r.meta.path.as_str(), &[][..])),
    )
    .map(|()| (source.upstream().files)(&listing))
    .unwrap_or_else(|_| (source.upstream().files)(&listing));
    let _ = std::fs::remove_dir_all(&listing);
    let upstream = url_of(
        source,
        files.first().map_or("", String::as_str),
        opts.mirror.as_deref(),
    );
    let mut done = Done {
        report: SourceReport {
            source: slug,
            outcome: Outcome::Unchanged,
            rows: previous.unwrap_or(0),
            dropped: 0,
        },
        writes: Vec::new(),
        fresh: Vec::new(),
        upstream,
        version: None,
        unreachable: false,
    };
    // `reason` is published; `detail` (which may name local paths or quote the file) is
    // only logged. An unreachable upstream is logged once for the whole sync (see [`run`]),
    // so a machine offline says so in one line.
    let fail = |mut done: Done, reason: &str, detail: &dyn std::fmt::Display| {
        if done.unreachable {
            tracing::debug!(source = slug, reason, "sync: a source is unreachable");
        } else {
            let detail = without_credentials(&detail.to_string());
            tracing::warn!(
                source = slug,
                reason,
                detail,
                "sync: a source failed; its last stored copy is kept"
            );
        }
        done.report.outcome = Outcome::Failed {
            reason: without_credentials(reason),
        };
        done.writes.clear();
        done.fresh.clear();
        done
    };
    let latest: HashMap<&str, &obs::Row> =
        current.iter().map(|r| (r.meta.path.as_str(), *r)).collect();
    // (path, bytes, the upstream's name for the version, its own date for it)
    let mut fetched: Vec<Fetch> = Vec::new();
    for path in &files {
        let mut candidates = vec![path.clone()];
        if opts.mirror.is_some()
            && let Some(alt) = mirror_alternate(slug, path)
        {
            candidates.push(alt);
        }
        let mut first_error: Option<(String, fetch::FetchError)> = None;
        let mut got = None;
        for candidate in &candidates {
            let url = url_of(source, candidate, opts.mirror.as_deref());
            let known = latest.get(candidate.as_str()).filter(|r| r.has_content);
            let conditional = known.and_then(|k| {
                cx.state
                    .validators
                    .get(&url)
                    .filter(|v| v.sha256.as_deref() == Some(k.meta.sha256.as_str()))
                    .map(|v| &v.validators)
            });
            match fetch::fetch(&cx.client, &url, conditional, opts.max_bytes, retries).await {
                Ok(Fetched::NotModified) => {
                    let Some(k) = known else {
                        return fail(done, "answered 304 to an unconditional request", &url);
                    };
                    match view.contents(cx.db, &[k.meta.id]).await {
                        Ok(mut c) => match c.remove(&k.meta.id) {
                            Some(bytes) => {
                                // The version the upstream named when it last sent it.
                                let name = conditional.and_then(|v| {
                                    v.etag.clone().or_else(|| v.last_modified.clone())
                                });
                                if fetched.is_empty() {
                                    done.version = name.clone();
                                }
                                let date = conditional
                                    .and_then(|v| v.last_modified.as_deref())
                                    .and_then(http_date);
                                got = Some((candidate.clone(), bytes, name, date));
                            }
                            None => return fail(done, "the stored copy is missing", &url),
                        },
                        Err(e) => return fail(done, "cannot read the stored copy", &e),
                    }
                    break;
                }
                Ok(Fetched::Body { bytes, validators }) => {
                    let name = validators
                        .etag
                        .clone()
                        .or_else(|| validators.last_modified.clone());
                    if fetched.is_empty() {
                        done.version = name.clone();
                    }
                    let date = validators.last_modified.as_deref().and_then(http_date);
                    done.fresh.push((
                        url,
                        Known {
                            validators,
                            sha256: Some(sha256_hex(&bytes)),
                        },
                    ));
                    got = Some((candidate.clone(), bytes, name, date));
                    break;
                }
                Err(e) => {
                    let not_found = e.reason.starts_with("HTTP 404");
                    first_error.get_or_insert((url, e));
                    if !not_found {
                        break;
                    }
                }
            }
        }
        match got {
            Some(g) => fetched.push(g),
            None => {
                let (url, e) = first_error.unwrap_or_else(|| {
                    (
                        String::new(),
                        fetch::FetchError {
                            reason: "nothing to fetch".into(),
                            unreachable: false,
                        },
                    )
                });
                done.unreachable = e.unreachable;
                return fail(done, &format!("{url}: {}", e.reason), &e.reason);
            }
        }
    }
    let mut changed = 0usize;
    let mut writes = Vec::new();
    for (path, bytes, name, date) in &fetched {
        match latest.get(path.as_str()) {
            Some(k) if k.meta.sha256 == sha256_hex(bytes) => {
                // The same observation, whose bytes the store lacked (a bundled one).
                if !k.has_content {
                    writes.push(Write::Fill {
                        id: k.meta.id,
                        bytes: bytes.clone(),
                    });
                }
            }
            _ => {
                changed += 1;
                writes.push(Write::Insert {
                    source: slug.to_string(),
                    path: path.clone(),
                    upstream: name.clone(),
                    upstream_date: date.clone(),
                    observed: opts.today.clone(),
                    bytes: bytes.clone(),
                    origin: obs::SYNCED,
                });
            }
        }
    }
    let paths: BTreeSet<&str> = fetched.iter().map(|f| f.0.as_str()).collect();
    for r in current
        .iter()
        .filter(|r| !paths.contains(r.meta.path.as_str()))
    {
        changed += 1;
        writes.push(Write::Remove {
            source: slug.to_string(),
            path: r.meta.path.clone(),
            observed: opts.today.clone(),
        });
    }
    if changed == 0 && previous.is_some() {
        // The copy the last sync checked and counted: nothing to read again.
        done.writes = writes;
        return done;
    }
    // The copy in the raw layout, under a root of its own (datasets may share a directory).
    let check = cx.work.join("check").join(slug);
    let written = write_tree(
        &check.join(source.dir()),
        fetched
            .iter()
            .map(|(p, b, _, _)| (p.as_str(), b.as_slice())),
    );
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&check);
        return fail(done, "cannot write to the working directory", &e);
    }
    let counted = rows(source, &check).await;
    let _ = std::fs::remove_dir_all(&check);
    let (now, dropped) = match counted {
        Ok(n) => n,
        Err(e) => {
            return fail(
                done,
                "the adapter cannot read the fetched files (malformed, or over a parse budget)",
                &e,
            );
        }
    };
    done.report.dropped = dropped;
    if changed > 0
        && !opts.accept.iter().any(|a| a == slug)
        && let Some(reason) = guard(previous, now, dropped)
    {
        tracing::warn!(
            source = slug,
            reason,
            "sync: a source's new copy is held for review"
        );
        done.report.outcome = Outcome::Held { reason };
        done.fresh.clear();
        return done;
    }
    done.report.rows = now;
    if changed > 0 {
        done.report.outcome = Outcome::Updated { files: changed };
    }
    done.writes = writes;
    done
}

/// The derived price-change log given to this sync (`--price-changes`, else
/// `<data-dir>/derived/…` where present): recorded like a fetched file.
fn price_changes_writes(opts: &Options, view: &View) -> Result<Vec<Write>, SyncError> {
    let path = match &opts.price_changes {
        Some(p) => p.clone(),
        None => {
            let p = opts.data_dir.join("derived").join(manifest::PRICE_CHANGES);
            if !p.is_file() {
                return Ok(Vec::new());
            }
            p
        }
    };
    let bytes = std::fs::read(&path).map_err(SyncError::io(&path))?;
    let source = ingest::history::SOURCE;
    let current = view.current(source);
    let known = current
        .iter()
        .find(|r| r.meta.path == manifest::PRICE_CHANGES);
    Ok(match known {
        Some(k) if k.meta.sha256 == sha256_hex(&bytes) => {
            if k.has_content {
                Vec::new()
            } else {
                vec![Write::Fill {
                    id: k.meta.id,
                    bytes,
                }]
            }
        }
        _ => vec![Write::Insert {
            source: source.to_string(),
            path: manifest::PRICE_CHANGES.to_string(),
            upstream: None,
            upstream_date: None,
            observed: opts.today.clone(),
            bytes,
            origin: obs::LOCAL,
        }],
    })
}

/// Runs one sync against `db` (take [`lock`] first: the scheduled sync and `mds sync` do).
pub async fn run(db: &DatabaseConnection, opts: &Options) -> Result<Report, SyncError> {
    let known: Vec<&str> = ALL.iter().map(|s| s.slug()).collect();
    if let Some(unknown) = opts.only.iter().find(|o| !known.contains(&o.as_str())) {
        return Err(SyncError::UnknownSource {
            name: unknown.clone(),
            known,
        });
    }
    // A dry run works in a temporary directory and leaves nothing behind.
    let scratch = if opts.dry_run {
        Some(Scratch::new().map_err(SyncError::Scratch)?)
    } else {
        std::fs::create_dir_all(&opts.data_dir).map_err(SyncError::io(&opts.data_dir))?;
        None
    };
    let work = scratch
        .as_ref()
        .map_or_else(|| opts.data_dir.clone(), |s| s.0.clone());
    let client = reqwest::Client::builder()
        .redirect(fetch::same_origin_redirects())
        .timeout(opts.timeout)
        .connect_timeout(opts.timeout.min(CONNECT_TIMEOUT))
        .user_agent(concat!("mds-sync/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(SyncError::Client)?;
    let statuses = source_status::Entity::find()
        .all(db)
        .await
        .map_err(|source| SyncError::Db {
            doing: "reading the sources' statuses",
            source,
        })?
        .into_iter()
        .map(|s| (s.slug.clone(), s))
        .collect();
    let cx = Context {
        db,
        client,
        opts,
        state: load_state(&opts.data_dir),
        statuses,
        work,
    };
    if !opts.dry_run {
        // A database migrated from a release that kept no versions: the served dataset
        // becomes one (the bundled one with its observations), so the first sync compares
        // with it as any other.
        crate::store::import::adopt(db)
            .await
            .map_err(SyncError::Adopt)?;
    }
    let mut view = View::load(db).await?;
    let mut sources = Vec::new();
    let mut fresh = Vec::new();
    // One deadline for the whole sync: a mirror trickling bytes cannot make it last hours.
    let deadline = tokio::time::Instant::now() + opts.deadline;
    // Offline, fail fast and quietly (docs/sync.md, "Fetching"): once a source's upstream
    // could not be connected to, the next is tried once without retries, and when that
    // one cannot be either and none was reached, the others are not tried at all.
    let mut reached = false;
    let mut unreachable: Vec<(&'static str, String)> = Vec::new();
    for source in ALL {
        if !opts.only.is_empty() && !opts.only.iter().any(|o| o == source.slug()) {
            continue;
        }
        let retries = if unreachable.is_empty() {
            opts.retries
        } else {
            0
        };
        let mut done = if !reached && unreachable.len() >= 2 {
            let names: Vec<&str> = unreachable.iter().take(2).map(|(s, _)| *s).collect();
            Done {
                report: SourceReport {
                    source: source.slug(),
                    outcome: Outcome::Failed {
                        reason: format!(
                            "not tried: the upstreams of {} could not be connected to (offline?)",
                            names.join(" and ")
                        ),
                    },
                    rows: 0,
                    dropped: 0,
                },
                writes: Vec::new(),
                fresh: Vec::new(),
                upstream: url_of(*source, "", opts.mirror.as_deref()),
                version: None,
                unreachable: true,
            }
        } else {
            match tokio::time::timeout_at(deadline, sync_source(&cx, &view, *source, retries)).await
            {
                Ok(d) => d,
                Err(_) => {
                    let reason = format!(
                        "the sync's deadline ({} s) passed before this source was done",
                        opts.deadline.as_secs()
                    );
                    tracing::warn!(
                        source = source.slug(),
                        reason,
                        "sync: a source failed; its last stored copy is kept"
                    );
                    Done {
                        report: SourceReport {
                            source: source.slug(),
                            outcome: Outcome::Failed { reason },
                            rows: 0,
                            dropped: 0,
                        },
                        writes: Vec::new(),
                        fresh: Vec::new(),
                        upstream: url_of(*source, "", opts.mirror.as_deref()),
                        version: None,
                        unreachable: false,
                    }
                }
            }
        };
        if done.unreachable {
            if let Outcome::Failed { reason } = &done.report.outcome {
                unreachable.push((source.slug(), reason.clone()));
            }
        } else {
            reached = true;
        }
        if opts.dry_run {
            view.overlay(&done.writes);
        } else if !done.writes.is_empty() {
            match obs::apply(db, &done.writes).await {
                Ok(()) => view = View::load(db).await?,
                Err(e) => {
                    tracing::warn!(source = source.slug(), error = %e, "sync: cannot record the observation");
                    done.report.outcome = Outcome::Failed {
                        reason: "cannot record the new copy in the observation store".into(),
                    };
                }
            }
        }
        if !opts.dry_run
            && let Err(e) = record(db, &done, view.day(source.slug())).await
        {
            tracing::warn!(source = source.slug(), error = %e, "sync: cannot record the source's status");
        }
        if !matches!(
            done.report.outcome,
            Outcome::Failed { .. } | Outcome::Held { .. }
        ) {
            fresh.extend(done.fresh);
        }
        sources.push(done.report);
    }
    if let Some((_, first)) = unreachable.first() {
        let names: Vec<&str> = unreachable.iter().map(|(s, _)| *s).collect();
        tracing::warn!(
            sources = names.join(", "),
            first = %first,
            "sync: {} could not be connected to{}; their stored copies are kept",
            if names.len() == 1 { "one upstream" } else { "upstreams" },
            if reached { "" } else { " (offline? no upstream was reached)" }
        );
    }
    let offline = !reached && !unreachable.is_empty();
    let log = price_changes_writes(opts, &view)?;
    if opts.dry_run {
        view.overlay(&log);
    } else if !log.is_empty() {
        obs::apply(db, &log).await.map_err(|source| SyncError::Db {
            doing: "recording the price-change log",
            source,
        })?;
        view = View::load(db).await?;
    }
    if !opts.dry_run {
        let mut state = cx.state.clone_validators();
        state.validators.extend(fresh);
        let bytes = serde_json::to_vec_pretty(&state).map_err(SyncError::State)?;
        // The directory, as before: the state file's name is the sync's own.
        std::fs::write(opts.data_dir.join(STATE_FILE), bytes)
            .map_err(SyncError::io(&opts.data_dir))?;
    }
    let dataset = build_and_import(&cx, &view).await;
    if !opts.dry_run
        && let Err(e) = mark_waiting(db, &sources, &dataset).await
    {
        tracing::warn!(error = %e, "sync: cannot record which sources wait");
    }
    Ok(Report {
        sources,
        dataset,
        offline,
    })
}

impl State {
    fn clone_validators(&self) -> State {
        State {
            validators: self.validators.clone(),
        }
    }
}

/// Records what this sync found at the source in `source_status`, which every instance's
/// `/api/v1/sources` reads: the upstream, its version, when it was tried and last kept, why
/// it failed, the day of its current copy.
async fn record(
    db: &DatabaseConnection,
    done: &Done,
    observed: Option<String>,
) -> Result<(), sea_orm::DbErr> {
    use sea_orm::{ActiveModelTrait, IntoActiveModel, TransactionTrait};
    let slug = done.report.source;
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let txn = db.begin().await?;
    let previous = source_status::Entity::find_by_id(slug).one(&txn).await?;
    let error = match &done.report.outcome {
        Outcome::Failed { reason } | Outcome::Held { reason } => Some(without_credentials(reason)),
        _ => None,
    };
    let row = source_status::Model {
        slug: slug.to_string(),
        upstream: without_credentials(&done.upstream),
        version: done
            .version
            .clone()
            .or_else(|| previous.as_ref().and_then(|p| p.version.clone())),
        last_fetched: now.clone(),
        last_success: if error.is_none() {
            Some(now.clone())
        } else {
            previous.as_ref().and_then(|p| p.last_success.clone())
        },
        // What pages someone (docs/operations.md, "Alerts"): counted here, in the store,
        // so every instance's /metrics says the same and a restart forgets nothing.
        failures: match (&error, &previous) {
            (None, _) => 0,
            (Some(_), Some(p)) => p.failures.saturating_add(1),
            (Some(_), None) => 1,
        },
        failures_total: previous.as_ref().map_or(0, |p| p.failures_total)
            + i64::from(error.is_some()),
        failing_since: match (&error, &previous) {
            (None, _) => None,
            (Some(_), Some(p)) if p.failures > 0 => p.failing_since.clone().or(Some(now)),
            (Some(_), _) => Some(now),
        },
        error,
        rows: i64::try_from(done.report.rows).unwrap_or(i64::MAX),
        observed,
    };
    if previous.as_ref() != Some(&row) {
        if previous.is_some() {
            source_status::Entity::delete_by_id(slug).exec(&txn).await?;
        }
        row.into_active_model().reset_all().insert(&txn).await?;
    }
    txn.commit().await
}

/// Says in `source_status` which sources wait: a failed one with no stored copy says so,
/// one whose new copy was recorded says it waits for it; once a dataset is built again,
/// no source waits.
async fn mark_waiting(
    db: &DatabaseConnection,
    sources: &[SourceReport],
    dataset: &DatasetOutcome,
) -> Result<(), sea_orm::DbErr> {
    use sea_orm::sea_query::Expr;
    let set = |slug: &str, error: String| {
        source_status::Entity::update_many()
            .col_expr(source_status::Column::Error, Expr::value(Some(error)))
            .filter(source_status::Column::Slug.eq(slug.to_string()))
            .exec(db)
    };
    match dataset {
        DatasetOutcome::Waiting { missing, .. } => {
            for s in sources {
                match &s.outcome {
                    Outcome::Failed { reason } if missing.iter().any(|m| m == s.source) => {
                        set(s.source, format!("{reason}; {NO_STORED_COPY}")).await?;
                    }
                    Outcome::Updated { .. } => {
                        set(
                            s.source,
                            format!(
                                "{WAITING}: the new copy is recorded but not served until a copy of {} is stored (the served dataset is kept)",
                                missing.join(", ")
                            ),
                        )
                        .await?;
                    }
                    _ => {}
                }
            }
        }
        DatasetOutcome::Imported { .. } | DatasetOutcome::Unchanged { .. } => {
            source_status::Entity::update_many()
                .col_expr(source_status::Column::Error, Expr::value(None::<String>))
                .filter(source_status::Column::Error.starts_with(WAITING))
                .exec(db)
                .await?;
        }
        _ => {}
    }
    Ok(())
}

/// Writes the store's current copies under `dir` in the layout `mds ingest` reads
/// (`raw/<source>/…`, `derived/…`), and the earlier copies of the sources whose history is
/// read (`archive/<source>/<day>/…`). Returns each source's current day and, per archived
/// source, the day of the oldest copy written.
async fn materialize(
    db: &DatabaseConnection,
    view: &View,
    dir: &Path,
) -> Result<(BTreeMap<String, String>, BTreeMap<String, String>), SyncError> {
    let mut wanted: Vec<(i64, PathBuf)> = Vec::new();
    let mut observed = BTreeMap::new();
    let mut since = BTreeMap::new();
    for source in view.sources() {
        let current = view.current(source);
        let Some(day) = view.day(source) else {
            continue;
        };
        for r in current.iter().filter(|r| r.has_content) {
            let target = if source == ingest::history::SOURCE {
                dir.join("derived").join(&r.meta.path)
            } else {
                dir.join("raw")
                    .join(ingest::sources::dir_of(source))
                    .join(&r.meta.path)
            };
            wanted.push((r.meta.id, target));
        }
        if manifest::ARCHIVED.contains(&source) {
            // Each earlier day a copy was stored: every file as it was that day.
            let rows: Vec<&obs::Row> = view
                .rows
                .iter()
                .filter(|r| r.meta.source == source)
                .collect();
            let days: BTreeSet<&str> = rows
                .iter()
                .filter(|r| r.has_content && r.meta.observed < day)
                .map(|r| r.meta.observed.as_str())
                .collect();
            for d in &days {
                let mut as_of: BTreeMap<&str, &obs::Row> = BTreeMap::new();
                for r in rows.iter().filter(|r| r.meta.observed.as_str() <= *d) {
                    as_of.insert(r.meta.path.as_str(), r);
                }
                for r in as_of.values().filter(|r| r.has_content && !r.meta.removed) {
                    wanted.push((
                        r.meta.id,
                        dir.join("archive")
                            .join(ingest::sources::dir_of(source))
                            .join(d)
                            .join(&r.meta.path),
                    ));
                }
            }
            since.insert(
                source.to_string(),
                days.first()
                    .map_or_else(|| day.clone(), |d| (*d).to_string()),
            );
        }
        observed.insert(source.to_string(), day);
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(SyncError::io(dir))?;
    }
    // A few files at a time: each may be several MB.
    for chunk in wanted.chunks(8) {
        let ids: Vec<i64> = chunk.iter().map(|(id, _)| *id).collect();
        let contents = view.contents(db, &ids).await?;
        for (id, target) in chunk {
            let bytes = contents.get(id).ok_or(SyncError::NoContent(*id))?;
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(SyncError::io(parent))?;
            }
            std::fs::write(target, bytes).map_err(SyncError::io(target))?;
        }
    }
    Ok((observed, since))
}

/// The dataset being served, as the build carries it ([`ingest::prior`]).
async fn prior(
    db: &DatabaseConnection,
    since: BTreeMap<String, String>,
) -> Result<ingest::prior::Prior, sea_orm::DbErr> {
    use entity::{model, offering, price_history, source};
    let periods = price_history::Entity::find().all(db).await?;
    type Sighting = (String, Option<String>, Option<String>, Option<String>);
    let first_seen: Vec<Sighting> = model::Entity::find()
        .select_only()
        .columns([
            model::Column::Slug,
            model::Column::FirstSeen,
            model::Column::ReleaseDate,
            model::Column::DateBasis,
        ])
        .into_tuple()
        .all(db)
        .await?;
    // A model the served dataset dated by its release says nothing of its sighting.
    let sighted = first_seen
        .iter()
        .filter(|(_, _, release, _)| release.is_none())
        .map(|(slug, _, _, basis)| (slug.clone(), basis.as_deref() == Some("first_seen")))
        .collect();
    type Offer = (String, String, String, Option<f64>, Option<f64>);
    let offerings: Vec<Offer> = offering::Entity::find()
        .select_only()
        .columns([
            offering::Column::ModelSlug,
            offering::Column::ProviderSlug,
            offering::Column::Source,
            offering::Column::InputPrice,
            offering::Column::OutputPrice,
        ])
        .into_tuple()
        .all(db)
        .await?;
    let days: Vec<(String, String)> = source::Entity::find()
        .select_only()
        .columns([source::Column::Slug, source::Column::SnapshotDate])
        .into_tuple()
        .all(db)
        .await?;
    Ok(ingest::prior::Prior {
        periods,
        first_seen: first_seen
            .into_iter()
            .filter_map(|(slug, day, _, _)| Some((slug, day?)))
            .collect(),
        sighted,
        offerings: offerings
            .into_iter()
            .map(|(m, p, s, i, o)| ((m, p), (s, i, o)))
            .collect(),
        days: days.into_iter().collect(),
        since,
    })
}

/// Builds the dataset from the store's copies, unless what it would read is what the served
/// dataset was built from, and imports it if it differs.
async fn build_and_import(cx: &Context<'_>, view: &View) -> DatasetOutcome {
    let (db, opts) = (cx.db, cx.opts);
    let served = match crate::store::import::current(db).await {
        Ok(s) => s,
        Err(e) => {
            return DatasetOutcome::NotBuilt {
                reason: format!("reading the served dataset: {e}"),
            };
        }
    };
    if let Ok(Some(version)) = crate::store::versions::pinned(db).await {
        return DatasetOutcome::Pinned { version };
    }
    let basis = view.basis();
    if let Some(s) = &served
        && crate::store::versions::basis(db, s.version)
            .await
            .ok()
            .flatten()
            .as_ref()
            == Some(&basis)
    {
        return DatasetOutcome::Unchanged { version: s.version };
    }
    let missing: Vec<String> = ALL
        .iter()
        .map(|s| s.slug())
        .filter(|slug| {
            let current = view.current(slug);
            current.is_empty() || current.iter().any(|r| !r.has_content)
        })
        .map(str::to_string)
        .collect();
    if !missing.is_empty() {
        tracing::warn!(
            waiting_for = missing.join(", "),
            "sync: no copy of these sources is stored yet; no dataset is built and the served one is kept"
        );
        return DatasetOutcome::Waiting {
            missing,
            version: served.as_ref().map(|s| s.version),
        };
    }
    let build = cx.work.join("build");
    let (observed, since) = match materialize(db, view, &build).await {
        Ok(m) => m,
        Err(e) => {
            return DatasetOutcome::NotBuilt {
                reason: e.to_string(),
            };
        }
    };
    let prior = match &served {
        Some(_) => match prior(db, since).await {
            Ok(p) => Some(Arc::new(p)),
            Err(e) => {
                return DatasetOutcome::NotBuilt {
                    reason: format!("reading the served dataset: {e}"),
                };
            }
        },
        None => None,
    };
    let ingest_opts = ingest::Options {
        sources: build.join("raw"),
        price_changes: None,
        exclude: Default::default(),
        archive: Some(build.join("archive")),
        observed,
        today: Some(opts.today.clone()),
        labels: None,
        prior,
    };
    // A few seconds of CPU: off the async workers.
    let built = tokio::task::spawn_blocking(move || {
        let (snap, _) = ingest::run(&ingest_opts)?;
        let bytes = snap.encode().map_err(SyncError::Encode)?;
        Ok((snap, bytes))
    })
    .await
    .unwrap_or_else(|e| Err(SyncError::Task(e)));
    let (snap, bytes) = match built {
        Ok(b) => b,
        Err(e) => {
            return DatasetOutcome::NotBuilt {
                reason: e.to_string(),
            };
        }
    };
    if let Some(s) = &served
        && s.snapshot_sha256 == sha256_hex(&bytes)
    {
        // The same dataset: remember what it was built from, so the next sync need not
        // build to find out.
        if !opts.dry_run
            && let Err(e) = crate::store::versions::set_basis(db, s.version, &basis).await
        {
            tracing::warn!(error = %e, "sync: cannot record what the dataset was built from");
        }
        return DatasetOutcome::Unchanged { version: s.version };
    }
    if opts.dry_run {
        let changes = match Side::of_database(db).await {
            Ok(before) => Diff::between(&before, &Side::of_snapshot(&snap)).counts(),
            Err(_) => Changes::default(),
        };
        return DatasetOutcome::WouldImport { changes };
    }
    let meta = crate::store::import::Meta {
        basis: Some(basis),
        serve: None,
    };
    match crate::store::import::import_with(db, &bytes, meta).await {
        Ok(crate::store::import::Imported {
            outcome: crate::store::import::Outcome::Imported { version },
            changes,
        }) => DatasetOutcome::Imported { version, changes },
        Ok(crate::store::import::Imported {
            outcome: crate::store::import::Outcome::Unchanged { version },
            ..
        }) => DatasetOutcome::Unchanged { version },
        Err(e) => DatasetOutcome::NotBuilt {
            reason: format!("import failed: {e}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mirror's credentials never reach what a sync publishes or logs.
    #[test]
    fn credentials_are_left_out_of_every_url() {
        assert_eq!(
            without_credentials("GET http://user:p%40ss@127.0.0.1:81/litellm/x.json: 404"),
            "GET http://127.0.0.1:81/litellm/x.json: 404"
        );
        assert_eq!(
            without_credentials("a (https://u@h) and https://h2?x=@y"),
            "a (https://h) and https://h2?x=@y"
        );
        assert_eq!(without_credentials("no url here"), "no url here");
        assert_eq!(without_credentials("http://"), "http://");
    }

    /// The upstream's own date of a copy is its `Last-Modified`, stored as RFC 3339 UTC;
    /// anything else is no date rather than a wrong one.
    #[test]
    fn last_modified_becomes_the_upstreams_date() {
        assert_eq!(
            http_date("Fri, 20 Nov 2026 10:00:00 GMT").as_deref(),
            Some("2026-11-20T10:00:00Z")
        );
        assert_eq!(http_date("yesterday"), None);
        assert_eq!(http_date(""), None);
    }
}
