//! Prometheus metrics, rendered by hand (a few counters do not need a metrics framework).
//! Every label comes from a bounded set: method names outside the standard ones are
//! `other`, routes are route templates (or `unmatched`), statuses are numbers, sources are
//! the adapters' slugs.
//!
//! The per-source signals are read from the database's `source_status` at scrape time
//! (at most once per [`SIGNALS_TTL`]), not counted in this process: every instance on one
//! database reports the same values and a restart forgets nothing (docs/operations.md,
//! "Alerts").

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use entity::source_status;
use sea_orm::DatabaseConnection;

/// How long the per-source signals read from the database are reused: scrapes, however
/// frequent, cost at most one small query per this long.
pub const SIGNALS_TTL: Duration = Duration::from_secs(10);

/// Longest wait for the database's answer; past it the last values read are served.
const SIGNALS_TIMEOUT: Duration = Duration::from_millis(800);

/// One source's signals, as the store says at scrape time.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceSignal {
    pub source: String,
    /// Unix time of its last successful sync (its copy checked, updated or not).
    pub last_success: Option<i64>,
    /// Unix time of its last try.
    pub last_attempt: Option<i64>,
    /// Failed (or held) tries since the last success.
    pub failures: i64,
    /// Failed (or held) tries, ever.
    pub failures_total: i64,
    /// What `/api/v1/sources` says (`ok`, `stale`, `failed`, `held`, `waiting`).
    pub status: entity::vocab::SourceStatus,
}

impl SourceSignal {
    pub fn of(row: &source_status::Model, now: DateTime<Utc>, stale_after: Duration) -> Self {
        let unix = |t: &str| DateTime::parse_from_rfc3339(t).ok().map(|t| t.timestamp());
        Self {
            source: row.slug.clone(),
            last_success: row.last_success.as_deref().and_then(unix),
            last_attempt: unix(&row.last_fetched),
            failures: row.failures,
            failures_total: row.failures_total,
            status: crate::catalog::freshness::status_at(row, now, stale_after),
        }
    }
}

/// The signals read last, and when.
type Signals = Option<(Instant, Arc<Vec<source_status::Model>>)>;

/// What the response cache reports at scrape time.
#[derive(Debug, Clone, Copy, Default)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
    pub bytes: u64,
}

/// Latency buckets of the request histogram, seconds.
const BUCKETS: [f64; 10] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0];

#[derive(Default)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

/// Histograms of one route, by method and status.
type RouteHistograms = BTreeMap<(&'static str, u16), Histogram>;

#[derive(Default)]
pub struct Metrics {
    /// Keyed by route first, so a request finds its histogram by `&str`, allocating only the
    /// first time its route is seen.
    requests: Mutex<BTreeMap<String, RouteHistograms>>,
    decisions: Mutex<BTreeMap<&'static str, u64>>,
    /// Scheduled syncs by outcome.
    syncs: Mutex<BTreeMap<&'static str, u64>>,
    /// The sources' statuses read last from the database (one reader at a time: a burst of
    /// scrapes waits for one query).
    signals: tokio::sync::Mutex<Signals>,
}

impl Metrics {
    pub fn observe(&self, method: &'static str, route: &str, status: u16, seconds: f64) {
        let mut map = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        let per_route = match map.get_mut(route) {
            Some(r) => r,
            None => map.entry(route.to_string()).or_default(),
        };
        let h = per_route.entry((method, status)).or_default();
        for (i, b) in BUCKETS.iter().enumerate() {
            if seconds <= *b {
                h.counts[i] += 1;
            }
        }
        h.sum += seconds;
        h.count += 1;
    }

    pub fn limiter_decision(&self, decision: &'static str) {
        *self
            .decisions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(decision)
            .or_default() += 1;
    }

    /// A scheduled sync ended with `outcome` (`imported`, `unchanged`, `failed`, `skipped`).
    pub fn sync_run(&self, outcome: &'static str) {
        *self
            .syncs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(outcome)
            .or_default() += 1;
    }

    /// Scheduled syncs so far with `outcome`.
    pub fn sync_runs(&self, outcome: &str) -> u64 {
        self.syncs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(outcome)
            .copied()
            .unwrap_or(0)
    }

    /// Each source's signals from the store at `now`, read at most once per
    /// [`SIGNALS_TTL`]; when the database does not answer within a moment, the last values
    /// read (none before the first read).
    pub async fn source_signals(
        &self,
        db: &DatabaseConnection,
        now: DateTime<Utc>,
        stale_after: Duration,
    ) -> Vec<SourceSignal> {
        let mut cached = self.signals.lock().await;
        let fresh = cached
            .as_ref()
            .is_some_and(|(at, _)| at.elapsed() < SIGNALS_TTL);
        if !fresh {
            match tokio::time::timeout(SIGNALS_TIMEOUT, crate::store::rows::statuses(db)).await {
                Ok(Ok(rows)) => *cached = Some((Instant::now(), Arc::new(rows))),
                Ok(Err(e)) => {
                    tracing::debug!(error = %e, "metrics: cannot read the sources' statuses")
                }
                Err(_) => tracing::debug!("metrics: the sources' statuses took too long"),
            }
        }
        let rows = cached.as_ref().map(|(_, r)| r.clone()).unwrap_or_default();
        drop(cached);
        let mut out: Vec<SourceSignal> = rows
            .iter()
            .map(|r| SourceSignal::of(r, now, stale_after))
            .collect();
        out.sort_by(|a, b| a.source.cmp(&b.source));
        out
    }

    /// The exposition text; the gauges and cache counts are read at scrape time, `sources`
    /// from the store ([`Metrics::source_signals`]), `copies` (each source's served copy
    /// and its age in seconds) from the catalogue.
    pub fn render(
        &self,
        redis_configured: bool,
        fallback: bool,
        dataset_version: i64,
        cache: CacheStats,
        sources: &[SourceSignal],
        copies: &[(String, i64)],
    ) -> String {
        let mut out = String::new();
        out.push_str("# HELP mds_http_requests_total HTTP requests by method, route and status.\n");
        out.push_str("# TYPE mds_http_requests_total counter\n");
        let routes = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        // Sorted by method, route and status, as the series are listed.
        let mut requests: Vec<((&str, &str, u16), &Histogram)> = routes
            .iter()
            .flat_map(|(r, per)| per.iter().map(move |((m, s), h)| ((*m, r.as_str(), *s), h)))
            .collect();
        requests.sort_by(|a, b| a.0.cmp(&b.0));
        for ((m, r, s), h) in requests.iter() {
            out.push_str(&format!(
                "mds_http_requests_total{{method=\"{m}\",route=\"{r}\",status=\"{s}\"}} {}\n",
                h.count
            ));
        }
        out.push_str("# HELP mds_http_request_duration_seconds Request latency by method, route and status.\n");
        out.push_str("# TYPE mds_http_request_duration_seconds histogram\n");
        for ((m, r, s), h) in requests.iter() {
            let labels = format!("method=\"{m}\",route=\"{r}\",status=\"{s}\"");
            for (i, b) in BUCKETS.iter().enumerate() {
                out.push_str(&format!(
                    "mds_http_request_duration_seconds_bucket{{{labels},le=\"{b}\"}} {}\n",
                    h.counts[i]
                ));
            }
            out.push_str(&format!(
                "mds_http_request_duration_seconds_bucket{{{labels},le=\"+Inf\"}} {}\n",
                h.count
            ));
            out.push_str(&format!(
                "mds_http_request_duration_seconds_sum{{{labels}}} {}\n",
                h.sum
            ));
            out.push_str(&format!(
                "mds_http_request_duration_seconds_count{{{labels}}} {}\n",
                h.count
            ));
        }
        drop(requests);
        drop(routes);
        out.push_str(
            "# HELP mds_rate_limit_decisions_total Limiter decisions by tier and outcome.\n",
        );
        out.push_str("# TYPE mds_rate_limit_decisions_total counter\n");
        for (d, n) in self
            .decisions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
        {
            out.push_str(&format!(
                "mds_rate_limit_decisions_total{{decision=\"{d}\"}} {n}\n"
            ));
        }
        out.push_str("# HELP mds_redis_configured Whether rate-limit counters are configured to live in Redis.\n");
        out.push_str("# TYPE mds_redis_configured gauge\n");
        out.push_str(&format!(
            "mds_redis_configured {}\n",
            u8::from(redis_configured)
        ));
        out.push_str("# HELP mds_redis_fallback Whether Redis is unreachable and limits are counted in-process.\n");
        out.push_str("# TYPE mds_redis_fallback gauge\n");
        out.push_str(&format!("mds_redis_fallback {}\n", u8::from(fallback)));
        out.push_str("# HELP mds_dataset_version Version of the dataset being served.\n");
        out.push_str("# TYPE mds_dataset_version gauge\n");
        out.push_str(&format!("mds_dataset_version {dataset_version}\n"));
        out.push_str("# HELP mds_response_cache_requests_total GET and GraphQL POST answers and MCP tool calls looked up in the response cache, by result.\n");
        out.push_str("# TYPE mds_response_cache_requests_total counter\n");
        out.push_str(&format!(
            "mds_response_cache_requests_total{{result=\"hit\"}} {}\nmds_response_cache_requests_total{{result=\"miss\"}} {}\n",
            cache.hits, cache.misses
        ));
        out.push_str("# HELP mds_sync_runs_total Scheduled syncs by outcome (skipped: another instance held the lock).\n");
        out.push_str("# TYPE mds_sync_runs_total counter\n");
        for (o, n) in self.syncs.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            out.push_str(&format!("mds_sync_runs_total{{outcome=\"{o}\"}} {n}\n"));
        }
        out.push_str(&render_sources(sources, copies));
        out.push_str("# HELP mds_response_cache_bytes Bytes held by the response cache.\n");
        out.push_str("# TYPE mds_response_cache_bytes gauge\n");
        out.push_str(&format!("mds_response_cache_bytes {}\n", cache.bytes));
        out
    }
}

/// The per-source series: what the store says of each synced source, the same on every
/// instance, and the age of each source's served copy.
fn render_sources(sources: &[SourceSignal], copies: &[(String, i64)]) -> String {
    let mut out = String::new();
    let mut series = |name: &str, kind: &str, help: &str, values: Vec<(&str, i64)>| {
        out.push_str(&format!("# HELP {name} {help}\n# TYPE {name} {kind}\n"));
        for (s, v) in values {
            out.push_str(&format!("{name}{{source=\"{s}\"}} {v}\n"));
        }
    };
    series(
        "mds_sync_last_success_timestamp_seconds",
        "gauge",
        "When each source was last synced successfully, by any instance (from the database).",
        sources
            .iter()
            .filter_map(|s| Some((s.source.as_str(), s.last_success?)))
            .collect(),
    );
    series(
        "mds_sync_last_attempt_timestamp_seconds",
        "gauge",
        "When a sync last tried each source, by any instance (from the database).",
        sources
            .iter()
            .filter_map(|s| Some((s.source.as_str(), s.last_attempt?)))
            .collect(),
    );
    series(
        "mds_sync_consecutive_failures",
        "gauge",
        "Failed or held tries of each source since its last success (from the database).",
        sources
            .iter()
            .map(|s| (s.source.as_str(), s.failures))
            .collect(),
    );
    series(
        "mds_sync_failures_total",
        "counter",
        "Failed or held tries of each source, by every instance (from the database).",
        sources
            .iter()
            .map(|s| (s.source.as_str(), s.failures_total))
            .collect(),
    );
    series(
        "mds_source_served_copy_age_seconds",
        "gauge",
        "Age of the copy of each source the served dataset was built from (since the day it was observed).",
        copies.iter().map(|(s, a)| (s.as_str(), *a)).collect(),
    );
    out.push_str("# HELP mds_source_status Each synced source's status in /api/v1/sources (1 on its current status).\n");
    out.push_str("# TYPE mds_source_status gauge\n");
    for s in sources {
        out.push_str(&format!(
            "mds_source_status{{source=\"{}\",status=\"{}\"}} 1\n",
            s.source, s.status
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        slug: &str,
        success: Option<&str>,
        error: Option<&str>,
        failures: i64,
    ) -> source_status::Model {
        source_status::Model {
            slug: slug.into(),
            upstream: format!("https://example.org/{slug}"),
            version: None,
            last_fetched: "2026-11-20T06:00:00Z".into(),
            last_success: success.map(str::to_string),
            error: error.map(str::to_string),
            rows: 1,
            observed: None,
            failures,
            failures_total: failures + 2,
            failing_since: error.map(|_| "2026-11-20T00:00:00Z".to_string()),
        }
    }

    #[test]
    fn per_source_series_say_what_the_store_says() {
        let now = DateTime::parse_from_rfc3339("2026-11-25T00:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let day = Duration::from_secs(86_400);
        let sources = [
            row("aider", Some("2026-11-24T12:00:00Z"), None, 0),
            row("bfcl", Some("2026-11-01T00:00:00Z"), Some("HTTP 404"), 3),
        ]
        .iter()
        .map(|r| SourceSignal::of(r, now, day))
        .collect::<Vec<_>>();
        let text = render_sources(&sources, &[("aider".into(), 3600)]);
        for line in [
            "mds_sync_last_success_timestamp_seconds{source=\"aider\"} 1795521600",
            "mds_sync_last_attempt_timestamp_seconds{source=\"bfcl\"} 1795154400",
            "mds_sync_consecutive_failures{source=\"aider\"} 0",
            "mds_sync_consecutive_failures{source=\"bfcl\"} 3",
            "mds_sync_failures_total{source=\"bfcl\"} 5",
            "mds_source_served_copy_age_seconds{source=\"aider\"} 3600",
            "mds_source_status{source=\"aider\",status=\"ok\"} 1",
            "mds_source_status{source=\"bfcl\",status=\"stale\"} 1",
        ] {
            assert!(text.contains(line), "{line} missing from\n{text}");
        }
    }
}
