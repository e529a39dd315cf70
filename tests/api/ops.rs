//! Operations: readiness, metrics, graceful shutdown, logs and the compose file.

use std::time::Duration;

use mds::config::ServeConfig;
use sea_orm::ConnectionTrait;
use serde_json::Value;

use crate::helpers::{Backend, TestApp, postgres_admin_url};

#[tokio::test]
async fn dependencies_follow_the_database_and_redis_and_readiness_the_catalogue() {
    let app = TestApp::spawn(Backend::Postgres).await;
    let (status, body) = app.get_json("/healthz/dependencies").await;
    assert_eq!(status, 200);
    assert_eq!(body["database"], "ok");
    let (status, ready) = app.get_json("/readyz").await;
    assert_eq!((status, ready["status"].as_str()), (200, Some("ready")));
    assert!(ready["models"].as_u64().unwrap() > 1000);
    assert_eq!(app.get_json("/healthz").await.0, 200);
    // Drop the database from under the service.
    let name = app.database_url.rsplit('/').next().unwrap().to_string();
    let admin = sea_orm::Database::connect(postgres_admin_url())
        .await
        .unwrap();
    admin
        .execute_unprepared(&format!("DROP DATABASE \"{name}\" WITH (FORCE)"))
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let res = app.get("/healthz/dependencies").await;
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "/healthz/dependencies took {:?}",
        started.elapsed()
    );
    assert_eq!(res.status().as_u16(), 503);
    assert_eq!(res.headers()["content-type"], "application/problem+json");
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "unavailable");
    assert!(body["detail"].as_str().unwrap().contains("database"));
    assert_eq!(
        app.get_json("/healthz").await.0,
        200,
        "the process is still alive"
    );
    // Still ready: the catalogue in memory serves every read.
    assert_eq!(app.get_json("/readyz").await.0, 200);
    // Reads keep being served from the catalogue in memory while the database is gone.
    let (status, body) = app.get_json("/api/v1/models?limit=3").await;
    assert_eq!(status, 200);
    assert_eq!(body["data"].as_array().unwrap().len(), 3);
    let (status, _) = app.get_json("/api/v1/models/gpt-4o").await;
    assert_eq!(status, 200);

    let cfg = ServeConfig {
        redis_url: Some("redis://127.0.0.1:1".into()),
        ..ServeConfig::default()
    };
    let no_redis = TestApp::spawn_with(Backend::Sqlite, cfg).await;
    assert_eq!(no_redis.get("/readyz").await.status().as_u16(), 200);
    let res = no_redis.get("/healthz/dependencies").await;
    assert_eq!(res.status().as_u16(), 503);
    let body: Value = res.json().await.unwrap();
    assert!(body["detail"].as_str().unwrap().contains("redis"));
    // ...while requests are still served, limited in-process.
    assert_eq!(no_redis.get("/api/v1/sources").await.status().as_u16(), 200);
}

#[tokio::test]
async fn metrics_count_requests_decisions_and_the_dataset() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for _ in 0..3 {
        app.get("/api/v1/models?limit=1").await;
    }
    app.get("/api/v1/models?limit=0").await;
    let text = app.get("/metrics").await.text().await.unwrap();
    assert!(
        text.contains(
            "mds_http_requests_total{method=\"GET\",route=\"/api/v1/models\",status=\"200\"} 3"
        ),
        "{text}"
    );
    assert!(text.contains(
        "mds_http_requests_total{method=\"GET\",route=\"/api/v1/models\",status=\"400\"} 1"
    ));
    assert!(text.contains("mds_http_request_duration_seconds_bucket{method=\"GET\",route=\"/api/v1/models\",status=\"200\",le=\"+Inf\"} 3"));
    assert!(text.contains("mds_rate_limit_decisions_total{decision=\"free_allowed\"} 4"));
    assert!(text.contains("mds_dataset_version 1"));
    assert!(text.contains("mds_redis_fallback 0"));
}

#[tokio::test]
async fn shutdown_finishes_the_request_in_flight() {
    // A transaction holding SQLite's write lock... a reader still reads in WAL-less mode only
    // after the lock is gone: the request waits inside the handler until we release it.
    let app = TestApp::spawn(Backend::Sqlite).await;
    let path = app
        .database_url
        .trim_start_matches("sqlite://")
        .split('?')
        .next()
        .unwrap()
        .to_string();
    let locker = sea_orm::Database::connect(format!("sqlite://{path}?mode=rw"))
        .await
        .unwrap();
    locker.execute_unprepared("BEGIN EXCLUSIVE").await.unwrap();
    let client = app.client.clone();
    let url = app.url("/api/v1/models/gpt-4o");
    let in_flight = tokio::spawn(async move { client.get(url).send().await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let base = app.base.clone();
    let stopping = tokio::spawn(app.stop());
    tokio::time::sleep(Duration::from_millis(300)).await;
    // New connections are refused while the old request is still being served.
    assert!(
        reqwest::Client::new()
            .get(format!("{base}/healthz"))
            .send()
            .await
            .is_err()
    );
    locker.execute_unprepared("COMMIT").await.unwrap();
    let res = in_flight
        .await
        .unwrap()
        .expect("the in-flight request gets its answer");
    assert_eq!(res.status().as_u16(), 200);
    stopping.await.unwrap().unwrap();
}

#[test]
fn the_compose_file_only_sets_settings_the_service_reads() {
    use clap::CommandFactory;
    let compose: serde_norway::Value =
        serde_norway::from_str(include_str!("../../docker-compose.yml"))
            .expect("docker-compose.yml is YAML");
    let services = compose["services"].as_mapping().unwrap();
    let names: Vec<&str> = services.keys().filter_map(|k| k.as_str()).collect();
    for s in ["postgres", "redis", "migrate", "mds"] {
        assert!(names.contains(&s), "service {s} missing: {names:?}");
    }
    let mut known: Vec<String> = Vec::new();
    let cmd = mds::config::Cli::command();
    let mut stack = vec![cmd];
    while let Some(c) = stack.pop() {
        for a in c.get_arguments() {
            if let Some(e) = a.get_env() {
                known.push(e.to_string_lossy().to_string());
            }
        }
        stack.extend(c.get_subcommands().cloned());
    }
    known.push("RUST_LOG".into());
    for service in ["mds", "migrate"] {
        let env = compose["services"][service]["environment"]
            .as_mapping()
            .unwrap();
        for (k, _) in env {
            let k = k.as_str().unwrap();
            assert!(
                known.iter().any(|x| x == k),
                "{service} sets {k}, which the service does not read"
            );
        }
    }
    let command = |s: &str| format!("{:?}", compose["services"][s]["command"]);
    assert!(
        command("migrate").contains("import"),
        "the one-shot migrate service imports the dataset"
    );
    assert!(command("mds").contains("serve"));
    let depends = format!("{:?}", compose["services"]["mds"]["depends_on"]);
    assert!(depends.contains("migrate") && depends.contains("service_completed_successfully"));
    for s in ["postgres", "redis", "mds"] {
        assert!(
            !compose["services"][s]["healthcheck"].is_null(),
            "{s} has a healthcheck"
        );
    }
    assert!(
        compose["volumes"]
            .as_mapping()
            .is_some_and(|v| !v.is_empty()),
        "a named volume for PostgreSQL"
    );
    let example = include_str!("../../.env.example");
    for k in &known {
        if k != "RUST_LOG" {
            assert!(example.contains(&format!("{k}=")), ".env.example lacks {k}");
        }
    }
}

#[tokio::test]
async fn json_logs_never_contain_the_api_key() {
    // The access log records the tier, never the key: run the binary and read its output.
    let url = crate::helpers::fresh_database(Backend::Sqlite).await;
    let bin = env!("CARGO_BIN_EXE_mds");
    let out = std::process::Command::new(bin)
        .args(["keys", "create", "--name", "log test"])
        .env("DATABASE_URL", &url)
        .output()
        .unwrap();
    let key = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_string();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = tokio::process::Command::new(bin)
        .args([
            "serve",
            "--bind",
            &format!("127.0.0.1:{port}"),
            "--log-format",
            "json",
        ])
        .env("DATABASE_URL", &url)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let client = reqwest::Client::new();
    let mut ok = false;
    for _ in 0..100 {
        if client
            .get(format!("http://127.0.0.1:{port}/healthz"))
            .send()
            .await
            .is_ok()
        {
            ok = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(ok, "the server did not start");
    let res = client
        .get(format!("http://127.0.0.1:{port}/api/v1/sources"))
        .header("x-api-key", &key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    // SIGTERM: a graceful stop.
    let pid = child.id().unwrap();
    std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    let out = tokio::time::timeout(Duration::from_secs(20), child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    assert!(out.status.success(), "SIGTERM ends the server cleanly");
    let logs =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    let line = logs
        .lines()
        .find(|l| l.contains("/api/v1/sources"))
        .unwrap_or_else(|| panic!("no access log line: {logs}"));
    let v: Value = serde_json::from_str(line).unwrap();
    assert_eq!(v["fields"]["status"], 200);
    assert_eq!(v["fields"]["tier"], "authenticated");
    assert!(!logs.contains(&key), "the API key leaked into the logs");
}

#[tokio::test]
async fn a_client_that_never_finishes_its_headers_is_disconnected() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let cfg = ServeConfig {
        header_read_timeout: 1,
        ..ServeConfig::default()
    };
    let app = TestApp::spawn_with(Backend::Sqlite, cfg).await;
    let addr = app.base.trim_start_matches("http://").to_string();
    let mut slow = tokio::net::TcpStream::connect(&addr).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the connection was still open after 5 s");
    assert!(!String::from_utf8_lossy(&buf).contains("200 OK"));
    // A well-behaved client on another connection is unaffected.
    assert_eq!(app.get("/healthz").await.status().as_u16(), 200);
}

#[tokio::test]
async fn the_binary_serves_the_embedded_dataset_from_an_empty_directory() {
    // What `cargo run --release` does on a fresh machine: no database, no settings.
    let dir = std::env::temp_dir().join(format!("mds-fresh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mds"))
        .args(["serve", "--bind", &format!("127.0.0.1:{port}")])
        .current_dir(&dir)
        .env_remove("DATABASE_URL")
        .env_remove("REDIS_URL")
        // The one setting: `mds serve` syncs from the real upstreams by default, never in a
        // test (docs/sync.md, "Scheduling").
        .env("MDS_SYNC_INTERVAL", "0")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let client = reqwest::Client::new();
    let mut health = None;
    for _ in 0..200 {
        if let Ok(res) = client
            .get(format!("http://127.0.0.1:{port}/healthz"))
            .send()
            .await
        {
            health = Some(res.status().as_u16());
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(health, Some(200));
    let body: Value = client
        .get(format!("http://127.0.0.1:{port}/api/v1/models?limit=1"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(body["meta"]["total"].as_u64().unwrap() >= 1000);
    assert!(
        dir.join("mds.db").exists(),
        "the default database is a SQLite file in the working directory"
    );
    child.kill().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the binary with exactly `env` (plus PATH) and `args`.
fn mds_command(
    env: &[(String, String)],
    args: &[&str],
    dir: &std::path::Path,
) -> tokio::process::Command {
    let mut c = tokio::process::Command::new(env!("CARGO_BIN_EXE_mds"));
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(env.iter().cloned())
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    c
}

/// Starts `mds serve` with `env` and waits until `mds probe` (the compose healthcheck)
/// says it is ready.
async fn serve_and_probe(what: &str, env: &[(String, String)], port: u16, dir: &std::path::Path) {
    let mut server = mds_command(env, &["serve"], dir).spawn().unwrap();
    let probe_url = format!("http://127.0.0.1:{port}/readyz");
    let mut ready = false;
    for _ in 0..200 {
        if let Ok(Some(status)) = server.try_wait() {
            let mut err = String::new();
            if let Some(mut e) = server.stderr.take() {
                use tokio::io::AsyncReadExt;
                let _ = e.read_to_string(&mut err).await;
            }
            panic!("{what}: `mds serve` exited at start-up ({status}): {err}");
        }
        let probe = mds_command(env, &["probe", &probe_url], dir)
            .status()
            .await
            .unwrap();
        if probe.success() {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ready, "{what}: never ready");
    let body: Value = reqwest::get(format!("http://127.0.0.1:{port}/api/v1/models?limit=1"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(body["meta"]["total"].as_u64().unwrap() > 0, "{what}");
    server.kill().await.unwrap();
}

/// The configurations we ship start for real: every service of `docker-compose.yml` (its
/// hostnames mapped to this machine's PostgreSQL and Redis, its port to a free one) and
/// `.env.example` as written, each probed the way the compose healthcheck probes.
#[tokio::test]
async fn the_shipped_configurations_start() {
    let compose: serde_norway::Value =
        serde_norway::from_str(include_str!("../../docker-compose.yml")).unwrap();
    let database = crate::helpers::fresh_empty_postgres().await;
    let redis = crate::helpers::redis_url();
    let port = crate::helpers::free_port();
    let dir = std::env::temp_dir().join(format!("mds-shipped-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let env_of = |service: &str| -> Vec<(String, String)> {
        compose["services"][service]["environment"]
            .as_mapping()
            .unwrap()
            .iter()
            .map(|(k, v)| {
                let k = k.as_str().unwrap().to_string();
                let v = match v {
                    serde_norway::Value::String(s) => s.clone(),
                    other => serde_norway::to_string(other).unwrap().trim().to_string(),
                };
                let v = match k.as_str() {
                    "DATABASE_URL" => {
                        assert!(v.contains("@postgres:5432/"), "{v}");
                        database.clone()
                    }
                    "REDIS_URL" => {
                        assert!(v.contains("//redis:6379"), "{v}");
                        redis.clone()
                    }
                    "MDS_BIND" => {
                        assert!(v.ends_with(":8080"), "{v}");
                        format!("127.0.0.1:{port}")
                    }
                    // The compose file syncs daily; a test never reaches the network.
                    "MDS_SYNC_INTERVAL" => {
                        assert_eq!(v, "24h");
                        "0".into()
                    }
                    _ => v,
                };
                (k, v)
            })
            .collect()
    };
    let args = |service: &str| -> Vec<String> {
        compose["services"][service]["command"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect()
    };
    // The one-shot job first, as `depends_on` orders it; then the service.
    let migrate_args = args("migrate");
    let refs: Vec<&str> = migrate_args.iter().map(String::as_str).collect();
    let out = mds_command(&env_of("migrate"), &refs, &dir)
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "compose `migrate`: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(args("mds"), ["serve"]);
    serve_and_probe("compose `mds`", &env_of("mds"), port, &dir).await;

    // `.env.example` as a user copies it to `.env`: every line, empty values included.
    let port = crate::helpers::free_port();
    let example: Vec<(String, String)> = include_str!("../../.env.example")
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && l.contains('='))
        .map(|l| {
            let (k, v) = l.split_once('=').unwrap();
            let v = match k {
                "MDS_BIND" => format!("127.0.0.1:{port}"),
                // The example syncs daily, as `mds serve` does; a test never reaches the
                // network.
                "MDS_SYNC_INTERVAL" => {
                    assert_eq!(v, "24h");
                    "0".to_string()
                }
                _ => v.to_string(),
            };
            (k.to_string(), v)
        })
        .collect();
    assert!(
        example
            .iter()
            .any(|(k, v)| k == "REDIS_URL" && v.is_empty())
    );
    serve_and_probe(".env.example", &example, port, &dir).await;
    let _ = std::fs::remove_dir_all(&dir);
}
