//! How fresh each source is, from what the syncs recorded (`source_status`): its upstream,
//! the upstream's version, when it was last fetched and last kept, and a status a client
//! can act on. Statuses depend on the clock (a source goes `stale`), so the catalogue
//! records when the next one will, and the watcher reloads it then.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use chrono::{DateTime, Utc};
use entity::source_status;

/// How long after its last successful sync a source is `stale`, by default.
pub const DEFAULT_STALE_AFTER: Duration = Duration::from_secs(48 * 3600);

static STALE_AFTER_SECS: AtomicU64 = AtomicU64::new(DEFAULT_STALE_AFTER.as_secs());

/// Sets the age past which a source is `stale` (`MDS_SYNC_STALE_AFTER`), for every
/// catalogue built from now on.
pub fn set_stale_after(d: Duration) {
    STALE_AFTER_SECS.store(d.as_secs(), Ordering::Relaxed);
}

fn stale_after() -> chrono::Duration {
    let secs = STALE_AFTER_SECS.load(Ordering::Relaxed);
    chrono::Duration::seconds(i64::try_from(secs).unwrap_or(i64::MAX / 1000))
}

/// One source as the syncs saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct Freshness {
    pub row: source_status::Model,
    /// `ok`, `stale` (no successful sync for longer than the configured age), `failed`
    /// (the last sync could not keep a new copy: `row.error` says why) or `held` (the new
    /// copy is beyond the sync's guard until an operator accepts it; docs/security.md).
    pub status: &'static str,
}

/// Every synced source's freshness, and what a reload must watch.
#[derive(Debug, Default)]
pub struct Freshnesses {
    by_slug: HashMap<String, Freshness>,
    /// When the next `ok` source turns `stale`.
    pub stale_at: Option<DateTime<Utc>>,
    /// A digest of what the statuses say, for the response cache's key and the watcher:
    /// see [`stamp`].
    pub digest: u64,
}

/// The status of `row` at `now`, with the age past which a success is stale, and when an
/// `ok` status turns `stale`.
fn status_of(
    row: &source_status::Model,
    now: DateTime<Utc>,
    age: chrono::Duration,
) -> (&'static str, Option<DateTime<Utc>>) {
    let due = row.last_success.as_deref().and_then(parse).map(|t| t + age);
    let status = match row.error.as_deref() {
        Some(e) if e.starts_with(crate::sync::HELD) => "held",
        Some(e) if e.starts_with(crate::sync::WAITING) => "waiting",
        Some(_) => "failed",
        None if due.is_none_or(|d| d <= now) => "stale",
        None => "ok",
    };
    (status, due)
}

/// A digest of what the sources' statuses say at `now`: each one's status, upstream and its
/// version, error, rows and observation day, but not when a sync last ran. A sync that
/// observes nothing new changes only those times, so it neither reloads the catalogue nor
/// empties the response cache (docs/sync.md); the times shown are then as of the last
/// reload.
pub fn stamp(rows: &[source_status::Model], now: DateTime<Utc>) -> u64 {
    let age = stale_after();
    let mut sorted: Vec<&source_status::Model> = rows.iter().collect();
    sorted.sort_by(|a, b| a.slug.cmp(&b.slug));
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for r in sorted {
        (
            &r.slug,
            status_of(r, now, age).0,
            &r.upstream,
            &r.version,
            &r.error,
            r.rows,
            &r.observed,
        )
            .hash(&mut hasher);
    }
    hasher.finish()
}

fn parse(t: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

impl Freshnesses {
    pub fn build(rows: Vec<source_status::Model>, now: DateTime<Utc>) -> Self {
        let age = stale_after();
        let mut out = Self {
            digest: stamp(&rows, now),
            ..Self::default()
        };
        for row in rows {
            let (status, due) = status_of(&row, now, age);
            if status == "ok" {
                out.stale_at = out.stale_at.min(due).or(due);
            }
            out.by_slug
                .insert(row.slug.clone(), Freshness { row, status });
        }
        out
    }

    pub fn get(&self, slug: &str) -> Option<&Freshness> {
        self.by_slug.get(slug)
    }

    /// Whether a status has changed with the clock since the build.
    pub fn due(&self, now: DateTime<Utc>) -> bool {
        self.stale_at.is_some_and(|t| t <= now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(slug: &str, success: Option<&str>, error: Option<&str>) -> source_status::Model {
        source_status::Model {
            slug: slug.into(),
            upstream: format!("https://example.org/{slug}"),
            version: None,
            last_fetched: "2026-11-20T00:00:00Z".into(),
            last_success: success.map(str::to_string),
            error: error.map(str::to_string),
            rows: 1,
            observed: None,
        }
    }

    #[test]
    fn statuses_follow_the_last_success_and_the_last_error() {
        let now = parse("2026-11-21T00:00:00Z").unwrap();
        let f = Freshnesses::build(
            vec![
                row("fresh", Some("2026-11-20T00:00:00Z"), None),
                row("old", Some("2026-11-01T00:00:00Z"), None),
                row("broken", Some("2026-11-20T00:00:00Z"), Some("404")),
                row("never", None, Some("timeout")),
            ],
            now,
        );
        let status = |s: &str| f.get(s).map(|x| x.status);
        assert_eq!(status("fresh"), Some("ok"));
        assert_eq!(status("old"), Some("stale"));
        assert_eq!(status("broken"), Some("failed"));
        assert_eq!(status("never"), Some("failed"));
        // `fresh` turns stale 48 hours after its success: the watcher reloads then.
        assert_eq!(f.stale_at, parse("2026-11-22T00:00:00Z"));
        assert!(!f.due(now));
        assert!(f.due(parse("2026-11-22T00:00:01Z").unwrap()));
    }
}
