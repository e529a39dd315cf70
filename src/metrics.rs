//! Prometheus metrics, rendered by hand (a few counters do not need a metrics framework).
//! Every label comes from a bounded set: method names outside the standard ones are
//! `other`, routes are route templates (or `unmatched`), statuses are numbers.

use std::collections::BTreeMap;
use std::sync::Mutex;

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
    /// Unix time of each source's last successful sync (its copy checked, updated or not).
    synced: Mutex<BTreeMap<&'static str, i64>>,
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

    /// `source` was synced successfully at `unix` seconds.
    pub fn source_synced(&self, source: &'static str, unix: i64) {
        self.synced
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(source, unix);
    }

    /// The exposition text; the gauges and cache counts are read at scrape time.
    pub fn render(
        &self,
        redis_configured: bool,
        fallback: bool,
        dataset_version: i64,
        cache: CacheStats,
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
        out.push_str("# HELP mds_sync_last_success_timestamp_seconds When each source was last synced successfully by this instance.\n");
        out.push_str("# TYPE mds_sync_last_success_timestamp_seconds gauge\n");
        for (s, t) in self.synced.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            out.push_str(&format!(
                "mds_sync_last_success_timestamp_seconds{{source=\"{s}\"}} {t}\n"
            ));
        }
        out.push_str("# HELP mds_response_cache_bytes Bytes held by the response cache.\n");
        out.push_str("# TYPE mds_response_cache_bytes gauge\n");
        out.push_str(&format!("mds_response_cache_bytes {}\n", cache.bytes));
        out
    }
}
