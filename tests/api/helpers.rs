//! Test harness: fresh databases cloned from a template that was migrated and loaded once,
//! and `TestApp::spawn` serving on a free port.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use mds::app::App;
use mds::config::ServeConfig;
use sea_orm::{ConnectionTrait, Database};
use tokio::sync::OnceCell;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub const BACKENDS: [Backend; 2] = [Backend::Sqlite, Backend::Postgres];

static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn unique() -> String {
    format!(
        "{}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// Admin URL of the PostgreSQL server used by the tests.
pub fn postgres_admin_url() -> String {
    std::env::var("MDS_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

pub fn redis_url() -> String {
    std::env::var("MDS_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

fn postgres_url(db: &str) -> String {
    let admin = postgres_admin_url();
    let base = admin.rsplit_once('/').map_or(admin.as_str(), |(b, _)| b);
    format!("{base}/{db}")
}

/// Migrates and imports the embedded snapshot into `url`, then closes the pool.
async fn load(url: &str) {
    let db = mds::store::connect(url)
        .await
        .unwrap_or_else(|e| panic!("cannot connect to {url}: {e}"));
    mds::store::migrate(&db).await.unwrap();
    mds::store::import::import(&db, mds::snapshot::EMBEDDED)
        .await
        .unwrap();
    db.close().await.unwrap();
}

static SQLITE_TEMPLATE: OnceCell<PathBuf> = OnceCell::const_new();
static POSTGRES_TEMPLATE: OnceCell<String> = OnceCell::const_new();

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join("mds-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fresh database holding the embedded dataset; returns its URL.
pub async fn fresh_database(backend: Backend) -> String {
    match backend {
        Backend::Sqlite => {
            let template = SQLITE_TEMPLATE
                .get_or_init(|| async {
                    let path = temp_dir().join(format!("template_{}.db", unique()));
                    load(&format!("sqlite://{}?mode=rwc", path.display())).await;
                    path
                })
                .await;
            let path = temp_dir().join(format!("test_{}.db", unique()));
            std::fs::copy(template, &path).unwrap();
            format!("sqlite://{}?mode=rwc", path.display())
        }
        Backend::Postgres => {
            let template = POSTGRES_TEMPLATE
                .get_or_init(|| async {
                    let admin = Database::connect(postgres_admin_url()).await.unwrap_or_else(|e| {
                        panic!("PostgreSQL is required for the tests ({}): {e}", postgres_admin_url())
                    });
                    // Databases left by earlier runs of this suite whose process is gone (a
                    // run going on beside this one keeps its databases).
                    let old = admin
                        .query_all_raw(sea_orm::Statement::from_string(
                            admin.get_database_backend(),
                            "SELECT datname FROM pg_database WHERE datname LIKE 'mds_t_%' OR datname LIKE 'mds_tpl_%'",
                        ))
                        .await
                        .unwrap();
                    for row in old {
                        let name: String = row.try_get("", "datname").unwrap();
                        let pid = name
                            .trim_start_matches("mds_tpl_")
                            .trim_start_matches("mds_t_")
                            .split('_')
                            .next()
                            .and_then(|p| p.parse::<u32>().ok());
                        if pid.is_some_and(|p| std::path::Path::new(&format!("/proc/{p}")).exists()) {
                            continue;
                        }
                        let _ = admin.execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)")).await;
                    }
                    let name = format!("mds_tpl_{}", unique());
                    admin.execute_unprepared(&format!("CREATE DATABASE \"{name}\"")).await.unwrap();
                    admin.close().await.unwrap();
                    load(&postgres_url(&name)).await;
                    name
                })
                .await;
            let name = format!("mds_t_{}", unique());
            let admin = Database::connect(postgres_admin_url()).await.unwrap();
            admin
                .execute_unprepared(&format!(
                    "CREATE DATABASE \"{name}\" TEMPLATE \"{template}\""
                ))
                .await
                .unwrap();
            admin.close().await.unwrap();
            postgres_url(&name)
        }
    }
}

pub struct TestApp {
    pub base: String,
    pub database_url: String,
    pub state: mds::state::AppState,
    pub client: reqwest::Client,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    pub handle: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl TestApp {
    pub async fn spawn(backend: Backend) -> Self {
        Self::spawn_with(backend, ServeConfig::default()).await
    }

    pub async fn spawn_with(backend: Backend, config: ServeConfig) -> Self {
        let url = fresh_database(backend).await;
        Self::spawn_on(&url, config).await
    }

    /// Serves the database at `url` (which must already hold data or be empty). The
    /// service's logs are silent unless `TEST_LOG` is set (then `RUST_LOG` filters them).
    pub async fn spawn_on(url: &str, mut config: ServeConfig) -> Self {
        if std::env::var_os("TEST_LOG").is_some() {
            mds::app::init_logging(mds::config::LogFormat::Text);
        }
        config.bind = "127.0.0.1:0".parse().unwrap();
        let app = App::build(url, config).await.unwrap();
        let base = format!("http://127.0.0.1:{}", app.port());
        let state = app.state().clone();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let handle = tokio::spawn(app.run_until_stopped(async move {
            let _ = rx.await;
        }));
        let client = reqwest::Client::builder().no_proxy().build().unwrap();
        Self {
            base,
            database_url: url.to_string(),
            state,
            client,
            shutdown: Some(tx),
            handle,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    /// GET with an API key in `x-api-key`.
    pub async fn get_with_key(&self, path: &str, key: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .header("x-api-key", key)
            .send()
            .await
            .unwrap()
    }

    /// A GraphQL POST with an API key in `x-api-key`.
    pub async fn graphql_with_key(&self, query: &str, key: &str) -> reqwest::Response {
        self.client
            .post(self.url("/graphql"))
            .header("x-api-key", key)
            .json(&serde_json::json!({ "query": query }))
            .send()
            .await
            .unwrap()
    }

    /// GET returning status and JSON body.
    pub async fn get_json(&self, path: &str) -> (u16, serde_json::Value) {
        let res = self.get(path).await;
        let status = res.status().as_u16();
        let body = res.json().await.unwrap_or(serde_json::Value::Null);
        (status, body)
    }

    pub async fn graphql(&self, query: &str, variables: serde_json::Value) -> serde_json::Value {
        let res = self
            .client
            .post(self.url("/graphql"))
            .json(&serde_json::json!({"query": query, "variables": variables}))
            .send()
            .await
            .unwrap();
        res.json().await.unwrap()
    }

    /// Stops accepting and waits for the server task.
    pub async fn stop(mut self) -> std::io::Result<()> {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        self.handle.await.unwrap()
    }
}

/// The raw public data. Tests that read it are `#[ignore]`d, so cargo's summary counts them
/// as not run where the data is absent; the test script includes them where it exists, and
/// asked for explicitly without it they fail with this message.
pub fn raw_sources() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/raw");
    assert!(
        dir.is_dir(),
        "{} is absent: this test reads the raw public datasets",
        dir.display()
    );
    dir
}

/// The raw JSON file at `rel` under [`raw_sources`].
pub fn raw_json(rel: &str) -> serde_json::Value {
    let path = raw_sources().join(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A free TCP port on loopback.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts a Redis of the test's own on `port` (with `extra` settings) and waits for it.
pub fn start_redis(port: u16, extra: &[&str]) -> std::process::Child {
    use std::process::{Command, Stdio};
    let mut child = Command::new("redis-server")
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("redis-server must be installed for the Redis outage tests");
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return child;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("redis-server did not start on port {port}");
}

/// A new, empty PostgreSQL database (no tables); returns its URL.
pub async fn fresh_empty_postgres() -> String {
    let name = format!("mds_t_{}", unique());
    let admin = Database::connect(postgres_admin_url())
        .await
        .unwrap_or_else(|e| panic!("PostgreSQL is required for the tests: {e}"));
    admin
        .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
        .await
        .unwrap();
    admin.close().await.unwrap();
    postgres_url(&name)
}

/// The DOM of `path` as headless Chromium (Debian's package) renders it, with no network
/// but loopback.
pub async fn rendered_dom(app: &TestApp, path: &str) -> (String, String) {
    let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("Chromium is required (Debian package `chromium`; the test script installs it)");
    let profile = std::env::temp_dir().join(format!(
        "mds-chromium-{}-{}",
        std::process::id(),
        path.len()
    ));
    let url = app.url(path);
    let out = tokio::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=20000",
            &format!("--user-data-dir={}", profile.display()),
            "--dump-dom",
            &url,
        ])
        .output()
        .await
        .unwrap();
    let _ = std::fs::remove_dir_all(profile);
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The items of a JSON array, asserted non-empty: a check over every item of a list proves
/// nothing about an empty one.
#[track_caller]
pub fn non_empty(v: &serde_json::Value) -> &Vec<serde_json::Value> {
    let items = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
    assert!(
        !items.is_empty(),
        "an empty list, where the check needs items"
    );
    items
}
