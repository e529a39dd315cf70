//! How fresh each source is, from what the syncs recorded (`source_status`): its upstream,
//! the upstream's version, when it was last fetched and last kept, and a status a client
//! can act on. Statuses depend on the clock (a source goes `stale`), so the catalogue
//! records when the next one will, and the watcher reloads it then.

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::time::Duration;

use chrono::{DateTime, Utc};
use entity::source_status;
use entity::vocab::SourceStatus;

pub use crate::store::observations::ServedCopy;

/// How long after its last successful sync a source is `stale`, by default
/// (`MDS_SYNC_STALE_AFTER`; the configuration carries it to every catalogue it builds, so
/// no process-wide setting is shared between instances or tests).
pub const DEFAULT_STALE_AFTER: Duration = Duration::from_secs(48 * 3600);

fn age(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::MAX)
}

/// One source as the syncs saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct Freshness {
    pub row: source_status::Model,
    /// `ok`, `stale` (no successful sync for longer than the configured age, whether or
    /// not its tries since fail: `row.error` then says why), `failed` (the last sync could
    /// not keep a new copy: `row.error` says why), `held` (the new copy is beyond the
    /// sync's guard until an operator accepts it; docs/security.md) or `waiting`.
    pub status: SourceStatus,
}

/// Every synced source's freshness, and what a reload must watch.
#[derive(Debug)]
pub struct Freshnesses {
    by_slug: HashMap<String, Freshness>,
    /// Each source's copy the served dataset was built from (its upstream's release and
    /// date), where the store knows it.
    served: BTreeMap<String, ServedCopy>,
    /// When the next `ok` or `failed` source turns `stale`.
    pub stale_at: Option<DateTime<Utc>>,
    /// A digest of what the statuses say, for the response cache's key and the watcher:
    /// see [`stamp`].
    pub digest: u64,
    /// The age past which a source is `stale`: carried to the next catalogue.
    pub stale_after: Duration,
}

impl Default for Freshnesses {
    fn default() -> Self {
        Self {
            by_slug: HashMap::new(),
            served: BTreeMap::new(),
            stale_at: None,
            digest: 0,
            stale_after: DEFAULT_STALE_AFTER,
        }
    }
}

/// The status of `row` at `now`, with the age past which a source is stale, and when a
/// source now `ok` or `failed` turns `stale`: `age` after its last success, or after its
/// first failed try where it never succeeded. A source that keeps failing is `stale` once
/// that age has passed (docs/sync.md, "Freshness is visible"), so it pages someone.
fn status_of(
    row: &source_status::Model,
    now: DateTime<Utc>,
    age: chrono::Duration,
) -> (SourceStatus, Option<DateTime<Utc>>) {
    let success = row.last_success.as_deref().and_then(parse);
    let due = success.map(|t| t + age);
    match row.error.as_deref() {
        Some(e) if e.starts_with(crate::sync::HELD) => (SourceStatus::Held, None),
        Some(e) if e.starts_with(crate::sync::WAITING) => (SourceStatus::Waiting, None),
        Some(_) => {
            let due = success
                .or_else(|| row.failing_since.as_deref().and_then(parse))
                .map(|t| t + age);
            match due {
                Some(d) if d <= now => (SourceStatus::Stale, None),
                _ => (SourceStatus::Failed, due),
            }
        }
        None if due.is_none_or(|d| d <= now) => (SourceStatus::Stale, None),
        None => (SourceStatus::Ok, due),
    }
}

/// The status of `row` at `now` with a source `stale` after `stale_after` without a
/// successful sync: what `/api/v1/sources` says, for `/metrics`.
pub fn status_at(
    row: &source_status::Model,
    now: DateTime<Utc>,
    stale_after: Duration,
) -> SourceStatus {
    status_of(row, now, age(stale_after)).0
}

/// A digest of what the sources' statuses say at `now`: each one's status, upstream and its
/// version, error, rows and observation day, but not when a sync last ran nor how many
/// tries failed. A sync that observes nothing new changes only those, so it neither reloads
/// the catalogue nor empties the response cache (docs/sync.md); the times shown are then as
/// of the last reload, and `/metrics` reads the counts from the store itself.
pub fn stamp(rows: &[source_status::Model], now: DateTime<Utc>, stale_after: Duration) -> u64 {
    let age = age(stale_after);
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
    pub fn build(
        rows: Vec<source_status::Model>,
        served: BTreeMap<String, ServedCopy>,
        now: DateTime<Utc>,
        stale_after: Duration,
    ) -> Self {
        let age = age(stale_after);
        let mut out = Self {
            digest: stamp(&rows, now, stale_after),
            served,
            stale_after,
            ..Self::default()
        };
        for row in rows {
            let (status, due) = status_of(&row, now, age);
            if let Some(due) = due {
                out.stale_at = Some(out.stale_at.map_or(due, |t| t.min(due)));
            }
            out.by_slug
                .insert(row.slug.clone(), Freshness { row, status });
        }
        out
    }

    pub fn get(&self, slug: &str) -> Option<&Freshness> {
        self.by_slug.get(slug)
    }

    /// The copy of `slug` the served dataset was built from, where the store knows it.
    pub fn served(&self, slug: &str) -> Option<&ServedCopy> {
        self.served.get(slug)
    }

    /// The sources now `stale`, by slug.
    pub fn stale(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .by_slug
            .iter()
            .filter(|(_, f)| f.status == SourceStatus::Stale)
            .map(|(s, _)| s.as_str())
            .collect();
        out.sort_unstable();
        out
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
            failures: u8::from(error.is_some()).into(),
            failures_total: u8::from(error.is_some()).into(),
            failing_since: error.map(|_| "2026-11-20T00:00:00Z".to_string()),
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
                row("long-broken", Some("2026-11-01T00:00:00Z"), Some("404")),
            ],
            BTreeMap::new(),
            now,
            DEFAULT_STALE_AFTER,
        );
        let status = |s: &str| f.get(s).map(|x| x.status.as_str());
        assert_eq!(status("fresh"), Some("ok"));
        assert_eq!(status("old"), Some("stale"));
        assert_eq!(status("broken"), Some("failed"));
        assert_eq!(status("never"), Some("failed"));
        // Failing for longer than the threshold since its last success: stale, and named.
        assert_eq!(status("long-broken"), Some("stale"));
        assert_eq!(f.stale(), ["long-broken", "old"]);
        // `fresh` and `broken` turn stale 48 hours after their success, `never` 48 hours
        // after its first failed try: the watcher reloads then.
        assert_eq!(f.stale_at, parse("2026-11-22T00:00:00Z"));
        assert!(!f.due(now));
        assert!(f.due(parse("2026-11-22T00:00:01Z").unwrap()));
        let later = parse("2026-11-22T00:00:01Z").unwrap();
        let rows: Vec<_> = ["fresh", "broken", "never"]
            .iter()
            .map(|s| f.get(s).unwrap().row.clone())
            .collect();
        let g = Freshnesses::build(rows, BTreeMap::new(), later, DEFAULT_STALE_AFTER);
        assert_eq!(g.stale(), ["broken", "fresh", "never"]);
    }

    /// The threshold is the catalogue's own: two catalogues built with different thresholds
    /// at the same moment disagree, and neither changes the other's (no process-wide state).
    #[test]
    fn the_threshold_is_carried_not_shared() {
        let now = parse("2026-11-21T00:00:00Z").unwrap();
        let rows = vec![row("a", Some("2026-11-20T00:00:00Z"), None)];
        let hour = Duration::from_secs(3600);
        let short = Freshnesses::build(rows.clone(), BTreeMap::new(), now, hour);
        let long = Freshnesses::build(rows, BTreeMap::new(), now, DEFAULT_STALE_AFTER);
        assert_eq!(short.get("a").map(|f| f.status), Some(SourceStatus::Stale));
        assert_eq!(long.get("a").map(|f| f.status), Some(SourceStatus::Ok));
        assert_eq!(short.stale_after, hour);
        assert_ne!(short.digest, long.digest);
    }
}
