//! `App::build(config)` binds the listener and prepares the database (migrating and
//! importing the embedded dataset into an empty one); `run_until_stopped` serves until the
//! shutdown future resolves, then finishes in-flight requests.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

use crate::catalog::{self, Catalog};
use crate::config::{LogFormat, ServeConfig};
use crate::counters::{Counters, RedisStore};
use crate::graphql;
use crate::metrics::Metrics;
use crate::state::{AppState, Parts};
use crate::{http, store};

pub struct App {
    listener: TcpListener,
    state: AppState,
}

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl App {
    /// Connects, migrates an unmigrated database, imports the embedded snapshot into an
    /// empty one, and binds `config.bind`.
    pub async fn build(database_url: &str, config: ServeConfig) -> Result<Self, BoxError> {
        let bind = config.bind;
        let state = state(database_url, config).await?;
        let listener = TcpListener::bind(bind).await?;
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
        let watcher = tokio::spawn(catalog::watch(
            self.state.catalog.clone(),
            db.clone(),
            Duration::from_millis(self.state.config.reload_interval_ms.max(100)),
        ));
        let fd_limit = crate::connections::raise_fd_limit();
        let max_connections = crate::connections::cap(self.state.config.max_connections, fd_limit);
        let tracker = Arc::new(crate::connections::Tracker::new(
            max_connections,
            self.state.config.max_connections_per_address,
            self.state.config.trusted_proxies.clone(),
        ));
        tracing::info!(
            fd_limit,
            max_connections,
            per_address = self.state.config.max_connections_per_address,
            "connection limits"
        );
        // In the background: reading the store must not delay accepting connections.
        let setup = tokio::spawn({
            let state = self.state.clone();
            async move { log_sync_setup(&state).await }
        });
        let sync = self.state.config.sync_every().map(|secs| {
            let opts = crate::sync::Options::new(
                self.state.config.sync_data_dir.clone(),
                self.state.config.sync_mirror.clone(),
            );
            tokio::spawn(crate::sync::schedule::every(
                Duration::from_secs(secs),
                db.clone(),
                opts,
                self.state.config.sync_program.clone(),
                self.state.metrics.clone(),
            ))
        });
        let listener = Listener {
            tcp: self.listener,
            tracker,
            front: http::front(self.state),
            builder: connection_builder(header_timeout),
            idle,
            header_timeout,
        };
        let graceful = listener.run(shutdown).await;
        tokio::select! {
            () = graceful.shutdown() => {}
            () = tokio::time::sleep(grace) => tracing::warn!("shutdown grace period over; closing remaining connections"),
        }
        watcher.abort();
        setup.abort();
        if let Some(s) = sync {
            s.abort();
        }
        let _ = db.close().await;
        Ok(())
    }
}

/// The accept loop (as mini-redis's `Listener`): admits each connection under the
/// connection caps and hands it to [`handle`], until shutdown.
struct Listener {
    tcp: TcpListener,
    tracker: Arc<crate::connections::Tracker>,
    front: http::middleware::Front,
    builder: Builder<TokioExecutor>,
    /// A connection on which no byte moves this long is closed.
    idle: Duration,
    /// The first request's head must arrive this soon after the accept.
    header_timeout: Duration,
}

/// HTTP/1 with the header-read timeout and HTTP/2 (h2c) with a stream cap, on one port.
fn connection_builder(header_timeout: Duration) -> Builder<TokioExecutor> {
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(64);
    builder
}

impl Listener {
    /// Accepts until `shutdown` resolves, then closes the listening socket and returns the
    /// watcher of the connections still open, for the caller's grace period.
    async fn run(
        self,
        shutdown: impl Future<Output = ()>,
    ) -> hyper_util::server::graceful::GracefulShutdown {
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                accepted = self.tcp.accept() => match accepted {
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
            let Some(place) = self.tracker.admit(peer.ip()) else {
                // Over the cap for this address, or full with nothing idle: closed at once.
                tracing::debug!(%peer, "connection refused: over the connection cap");
                continue;
            };
            let service = self.front.for_peer(peer, place.activity.clone());
            let conn = self.builder.serve_connection_with_upgrades(
                TokioIo::new(crate::connections::IdleTimeout::new(stream, self.idle)),
                TowerToHyperService::new(service),
            );
            let conn = graceful.watch(conn.into_owned());
            tokio::spawn(handle(conn, place, peer, self.header_timeout));
        }
        graceful
    }
}

/// Serves one connection to its end (as mini-redis's `Handler::run`): it ends when the
/// client closes it, when its place is shed for a newcomer, or when no request head
/// arrived within the header-read timeout of the accept — whatever the protocol: hyper's
/// own timer starts only once HTTP/1 is detected, so a client trickling the HTTP/2 preface
/// would escape it. The place in the connection caps is held until then.
async fn handle<E: std::fmt::Display>(
    conn: impl Future<Output = Result<(), E>>,
    place: crate::connections::Place,
    peer: SocketAddr,
    header_timeout: Duration,
) {
    let activity = place.activity.clone();
    let deadline = tokio::time::sleep(header_timeout);
    tokio::pin!(deadline, conn);
    let mut waiting = true;
    loop {
        tokio::select! {
            ended = &mut conn => {
                if let Err(e) = ended {
                    tracing::debug!(error = %e, "connection ended with an error");
                }
                return;
            }
            () = activity.shed() => return,
            () = &mut deadline, if waiting => {
                if !activity.started() {
                    tracing::debug!(%peer, "no request within the header-read timeout");
                    return;
                }
                waiting = false;
            }
        }
    }
}

/// The service's state over `database_url`: connects, migrates an unmigrated database and
/// imports the embedded snapshot into an empty one (unless `auto_migrate` is off), then
/// loads the catalogue. `mds serve` binds a listener to it; `mds mcp` speaks stdio.
pub async fn state(database_url: &str, config: ServeConfig) -> Result<AppState, BoxError> {
    let db = store::connect(database_url).await?;
    if store::needs_migration(&db).await? {
        if !config.auto_migrate {
            return Err("the database has pending migrations: run `mds migrate` (or `mds import --if-empty`) first".into());
        }
        store::migrate(&db).await?;
    }
    if !config.auto_migrate && store::import::current(&db).await?.is_none() {
        return Err("the database holds no dataset: run `mds import` first".into());
    }
    if let Some(outcome) = store::import::seed_if_empty(&db).await? {
        tracing::info!(?outcome, "empty database: imported the embedded dataset");
    }
    let counters = match &config.redis_url {
        Some(url) => Counters::with_redis(Some(RedisStore::connect(url, &config.redis_prefix)?)),
        None => Counters::memory(),
    };
    let catalog = Arc::new(catalog::Shared::new(
        Catalog::load_with(&db, Duration::from_secs(config.sync_stale_after)).await?,
    ));
    let state = AppState::new(Parts {
        graphql: graphql::build(),
        catalog,
        db,
        counters: Arc::new(counters),
        keys: Arc::default(),
        cache: Arc::new(crate::responses::ResponseCache::new(
            config.cache_size_mb.saturating_mul(1024 * 1024),
        )),
        config: Arc::new(config),
        metrics: Arc::new(Metrics::default()),
    });
    Ok(state)
}

/// Says at start-up how the data is kept current: the schedule (or that there is none), the
/// mirror, the working directory, and what the observation store holds (docs/sync.md).
async fn log_sync_setup(state: &AppState) {
    let config = &state.config;
    match config.sync_every() {
        Some(secs) => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            let next = crate::sync::schedule::until_next(Duration::from_secs(secs), now);
            tracing::info!(
                interval_secs = secs,
                next_in_secs = next.as_secs(),
                mirror = config
                    .sync_mirror
                    .as_deref()
                    .map_or_else(|| "none (upstream)".to_string(), crate::sync::without_credentials),
                data_dir = %config.sync_data_dir.display(),
                "sync: scheduled"
            );
        }
        None => tracing::info!(
            "sync: not scheduled (--sync-interval 0); `mds sync` from cron updates the data"
        ),
    }
    let store = store::observations::summary(&state.db).await;
    let pinned = store::versions::pinned(&state.db).await.ok().flatten();
    match store {
        Ok(s) => tracing::info!(
            observations = s.rows,
            with_bytes = s.stored,
            sources = s.sources,
            newest = s.newest.as_deref().unwrap_or("-"),
            dataset_version = state.catalog.version(),
            pinned = pinned.map_or_else(|| "no".to_string(), |v| v.to_string()),
            "sync: observation store"
        ),
        Err(e) => tracing::warn!(error = %e, "sync: cannot read the observation store"),
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

/// `mds serve`'s logs: stdout, from INFO (`RUST_LOG` filters).
pub fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let _ = match format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Text => builder.try_init(),
    };
}

/// `mds sync`'s logs: stderr, whose stdout is its report (what a scheduled sync's parent
/// reads), from WARN (each failure with its reason; `RUST_LOG` widens it).
pub fn init_sync_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    // Colours only for a person at a terminal: cron mail and a server's log stay plain.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    let _ = match format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Text => builder.try_init(),
    };
}
