//! `App::build(config)` binds the listener and prepares the database (migrating and
//! importing the embedded dataset into an empty one); `run_until_stopped` serves until the
//! shutdown future resolves, then finishes in-flight requests.

use std::collections::BTreeMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sea_orm::DatabaseConnection;
use serde_json::Value;
use tokio::net::TcpListener;

use crate::config::{LogFormat, ServeConfig};
use crate::graphql::{self, MdsSchema};
use crate::limits::store::{Counters, RedisStore};
use crate::{routes, snapshot, store};

/// Shared by every request.
#[derive(Clone)]
pub struct AppState {
    pub db: DatabaseConnection,
    pub schema: MdsSchema,
    pub counters: Arc<Counters>,
    pub config: Arc<ServeConfig>,
    /// Attribution added to Free-tier answers.
    pub attribution: Arc<Value>,
    pub metrics: Arc<Metrics>,
}

pub struct App {
    listener: TcpListener,
    state: AppState,
}

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The attribution text: every source with its licence, and where to read more.
pub async fn attribution(
    db: &DatabaseConnection,
    public_url: &str,
) -> Result<Value, sea_orm::DbErr> {
    let sources = store::queries::sources(db).await?;
    let names: Vec<String> = sources
        .iter()
        .map(|s| format!("{} ({})", s.name, s.license))
        .collect();
    Ok(Value::String(format!(
        "Data from {}. Sources and licences: {}/api/v1/sources",
        names.join(", "),
        public_url.trim_end_matches('/')
    )))
}

impl App {
    /// Connects, migrates an unmigrated database, imports the embedded snapshot into an
    /// empty one, and binds `config.bind`.
    pub async fn build(database_url: &str, config: ServeConfig) -> Result<Self, BoxError> {
        let db = store::connect(database_url).await?;
        if store::needs_migration(&db).await? {
            if !config.auto_migrate {
                return Err("the database has pending migrations: run `mds migrate` (or `mds import --if-empty`) first".into());
            }
            store::migrate(&db).await?;
        }
        if store::import::current(&db).await?.is_none() {
            if !config.auto_migrate {
                return Err("the database holds no dataset: run `mds import` first".into());
            }
            let outcome = store::import::import(&db, snapshot::EMBEDDED).await?;
            tracing::info!(?outcome, "empty database: imported the embedded dataset");
        }
        let counters = match &config.redis_url {
            Some(url) => {
                Counters::with_redis(Some(RedisStore::connect(url, &config.redis_prefix)?))
            }
            None => Counters::memory(),
        };
        let attribution = attribution(&db, &config.public_url).await?;
        graphql::sizes::record(&store::queries::list_sizes(&db).await?);
        let listener = TcpListener::bind(config.bind).await?;
        let state = AppState {
            schema: graphql::build(Some(db.clone())),
            db,
            counters: Arc::new(counters),
            config: Arc::new(config),
            attribution: Arc::new(attribution),
            metrics: Arc::new(Metrics::default()),
        };
        Ok(Self { listener, state })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| SocketAddr::from(([0, 0, 0, 0], 0)))
    }

    pub fn port(&self) -> u16 {
        self.local_addr().port()
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` resolves, then stops accepting and gives in-flight requests
    /// up to the request timeout to finish before the pools are closed. A client must send
    /// its request headers within the header-read timeout (idle keep-alive connections too).
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
        use hyper_util::server::conn::auto::Builder;
        use hyper_util::service::TowerToHyperService;
        use tower::ServiceExt;

        let grace = Duration::from_secs(self.state.config.request_timeout.max(1));
        let header_timeout = Duration::from_secs(self.state.config.header_read_timeout.max(1));
        // Longer than the request timeout, so no request in progress is cut off.
        let idle = Duration::from_secs(
            self.state
                .config
                .idle_timeout
                .max(self.state.config.request_timeout + 1),
        );
        let db = self.state.db.clone();
        let router = routes::router(self.state);
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let mut builder = Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout);
        builder
            .http2()
            .timer(TokioTimer::new())
            .max_concurrent_streams(64);
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                accepted = self.listener.accept() => match accepted {
                    Ok(conn) => conn,
                    Err(e) => {
                        // Out of file descriptors and the like: wait instead of spinning.
                        tracing::warn!(error = %e, "accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let service = router.clone().map_request(
                move |mut req: axum::extract::Request<hyper::body::Incoming>| {
                    req.extensions_mut()
                        .insert(axum::extract::ConnectInfo(peer));
                    req.map(axum::body::Body::new)
                },
            );
            let conn = builder.serve_connection_with_upgrades(
                TokioIo::new(crate::connections::IdleTimeout::new(stream, idle)),
                TowerToHyperService::new(service),
            );
            let conn = graceful.watch(conn.into_owned());
            tokio::spawn(async move {
                if let Err(e) = conn.await {
                    tracing::debug!(error = %e, "connection ended with an error");
                }
            });
        }
        drop(self.listener);
        tokio::select! {
            () = graceful.shutdown() => {}
            () = tokio::time::sleep(grace) => tracing::warn!("shutdown grace period over; closing remaining connections"),
        }
        let _ = db.close().await;
        Ok(())
    }
}

/// Resolves on SIGTERM or SIGINT.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutdown signal received; finishing in-flight requests");
}

pub fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let _ = match format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Text => builder.try_init(),
    };
}

/// Latency buckets of the request histogram, seconds.
const BUCKETS: [f64; 10] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0];

#[derive(Default)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

/// Prometheus metrics, rendered by hand (a few counters do not need a metrics framework).
#[derive(Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, String, u16), Histogram>>,
    decisions: Mutex<BTreeMap<String, u64>>,
}

impl Metrics {
    pub fn observe(&self, method: &str, route: &str, status: u16, seconds: f64) {
        let mut map = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        let h = map
            .entry((method.to_string(), route.to_string(), status))
            .or_default();
        for (i, b) in BUCKETS.iter().enumerate() {
            if seconds <= *b {
                h.counts[i] += 1;
            }
        }
        h.sum += seconds;
        h.count += 1;
    }

    pub fn limiter_decision(&self, decision: &str) {
        *self
            .decisions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(decision.to_string())
            .or_default() += 1;
    }

    /// The exposition text; `fallback` and `dataset_version` are read at scrape time.
    pub fn render(&self, redis_configured: bool, fallback: bool, dataset_version: i64) -> String {
        let mut out = String::new();
        out.push_str("# HELP mds_http_requests_total HTTP requests by method, route and status.\n");
        out.push_str("# TYPE mds_http_requests_total counter\n");
        let requests = self.requests.lock().unwrap_or_else(|p| p.into_inner());
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
        out
    }
}
