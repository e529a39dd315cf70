//! Signals that page someone, read from the store so every instance says the same
//! (docs/sync.md, "Freshness is visible"): per-source metrics, stale sources named by
//! `/healthz/dependencies`, the upstream release actually served, and a sync on a machine
//! offline failing fast and quietly.

use std::time::{Duration, Instant};

use entity::{observation, source_status};
use mds::config::ServeConfig;
use mds::sync::{DatasetOutcome, Options, Outcome};
use sea_orm::{ActiveModelTrait, EntityTrait, IntoActiveModel};
use serde_json::Value;

use crate::helpers::{Backend, TestApp, fresh_database};

fn ago(d: Duration) -> String {
    (chrono::Utc::now() - chrono::Duration::from_std(d).unwrap())
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

const HOUR: Duration = Duration::from_secs(3600);

/// What two syncs would have recorded: `aider` kept two hours ago, `bfcl` failing for three
/// days (three tries since its last success, five in all).
async fn record_statuses(url: &str) {
    let db = mds::store::connect(url).await.unwrap();
    let rows = [
        source_status::Model {
            slug: "aider".into(),
            upstream: "http://mirror.test/aider/x.yml".into(),
            version: Some("\"a1\"".into()),
            last_fetched: ago(2 * HOUR),
            last_success: Some(ago(2 * HOUR)),
            error: None,
            rows: 10,
            observed: Some("2026-05-22".into()),
            failures: 0,
            failures_total: 2,
            failing_since: None,
        },
        source_status::Model {
            slug: "bfcl".into(),
            upstream: "http://mirror.test/bfcl/data_overall.csv".into(),
            version: None,
            last_fetched: ago(HOUR),
            last_success: Some(ago(72 * HOUR)),
            error: Some("http://mirror.test/bfcl/data_overall.csv: HTTP 404 Not Found".into()),
            rows: 10,
            observed: Some("2025-12-16".into()),
            failures: 3,
            failures_total: 5,
            failing_since: Some(ago(60 * HOUR)),
        },
    ];
    for r in rows {
        r.into_active_model().insert(&db).await.unwrap();
    }
    db.close().await.unwrap();
}

/// The value of the series `name{labels}` in a Prometheus text.
fn series(text: &str, name_and_labels: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix(name_and_labels)?.strip_prefix(' '))
        .map(str::to_string)
}

/// Two instances on one database report the same per-source series, read from the store
/// (neither synced: a per-process gauge would be absent on both), and an instance started
/// afterwards (a restart) reports them too. A source failing past the stale threshold is
/// `stale` in `/api/v1/sources`, in `mds_source_status` and named by
/// `/healthz/dependencies`, which stays 200 (`degraded`). Each instance carries its own
/// threshold: one with `--sync-stale-after 1h` in the same process says `aider` (kept two
/// hours ago) is stale while the others say it is ok.
#[tokio::test]
async fn per_source_signals_come_from_the_store_the_same_on_every_instance() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let url = fresh_database(backend).await;
        record_statuses(&url).await;
        let a = TestApp::spawn_on(&url, ServeConfig::default()).await;
        let b = TestApp::spawn_on(&url, ServeConfig::default()).await;
        let strict = TestApp::spawn_on(
            &url,
            ServeConfig {
                sync_stale_after: 3600,
                ..ServeConfig::default()
            },
        )
        .await;
        let (ma, mb) = (
            a.get("/metrics").await.text().await.unwrap(),
            b.get("/metrics").await.text().await.unwrap(),
        );
        for name in [
            "mds_sync_last_success_timestamp_seconds{source=\"aider\"}",
            "mds_sync_last_success_timestamp_seconds{source=\"bfcl\"}",
            "mds_sync_last_attempt_timestamp_seconds{source=\"bfcl\"}",
            "mds_sync_consecutive_failures{source=\"bfcl\"}",
            "mds_sync_failures_total{source=\"bfcl\"}",
            "mds_source_status{source=\"bfcl\",status=\"stale\"}",
            "mds_source_status{source=\"aider\",status=\"ok\"}",
        ] {
            let (va, vb) = (series(&ma, name), series(&mb, name));
            assert!(va.is_some(), "{backend:?}: {name} missing from\n{ma}");
            assert_eq!(va, vb, "{backend:?}: {name}");
        }
        assert_eq!(
            series(&ma, "mds_sync_consecutive_failures{source=\"bfcl\"}").as_deref(),
            Some("3")
        );
        assert_eq!(
            series(&ma, "mds_sync_failures_total{source=\"bfcl\"}").as_deref(),
            Some("5")
        );
        let success: i64 = series(
            &ma,
            "mds_sync_last_success_timestamp_seconds{source=\"aider\"}",
        )
        .unwrap()
        .parse()
        .unwrap();
        assert!((chrono::Utc::now().timestamp() - success - 7200).abs() < 60);
        // Every source's served copy has an age, bundled or not (LMArena's is over a year).
        let age: i64 = series(
            &ma,
            "mds_source_served_copy_age_seconds{source=\"lmarena\"}",
        )
        .unwrap()
        .parse()
        .unwrap();
        assert!(age > 365 * 86_400, "{age}");

        let (status, deps) = a.get_json("/healthz/dependencies").await;
        assert_eq!(status, 200, "{deps}");
        assert_eq!(deps["status"], "degraded", "{deps}");
        assert_eq!(
            deps["sources"]["stale"],
            serde_json::json!(["bfcl"]),
            "{deps}"
        );
        let (_, sources) = a.get_json("/api/v1/sources").await;
        let of = |body: &Value, slug: &str| -> Value {
            body["data"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["slug"] == slug)
                .cloned()
                .unwrap()
        };
        assert_eq!(of(&sources, "bfcl")["status"], "stale");
        assert!(
            of(&sources, "bfcl")["error"]
                .as_str()
                .unwrap()
                .contains("404")
        );
        assert_eq!(of(&sources, "aider")["status"], "ok");

        // The stricter instance, in the same process, at the same time.
        let (_, deps) = strict.get_json("/healthz/dependencies").await;
        assert_eq!(
            deps["sources"]["stale"],
            serde_json::json!(["aider", "bfcl"]),
            "{deps}"
        );
        let ms = strict.get("/metrics").await.text().await.unwrap();
        assert!(ms.contains("mds_source_status{source=\"aider\",status=\"stale\"} 1"));
        let (_, deps) = b.get_json("/healthz/dependencies").await;
        assert_eq!(
            deps["sources"]["stale"],
            serde_json::json!(["bfcl"]),
            "{deps}"
        );

        // A restart: a new instance reads the same values.
        a.stop().await.unwrap();
        let c = TestApp::spawn_on(&url, ServeConfig::default()).await;
        let mc = c.get("/metrics").await.text().await.unwrap();
        assert_eq!(
            series(&mc, "mds_sync_failures_total{source=\"bfcl\"}").as_deref(),
            Some("5")
        );
        assert_eq!(
            series(
                &mc,
                "mds_sync_last_success_timestamp_seconds{source=\"aider\"}"
            ),
            series(
                &mb,
                "mds_sync_last_success_timestamp_seconds{source=\"aider\"}"
            )
        );
    }
}

/// With every source fresh, the dependencies are `ready` and name no stale source.
#[tokio::test]
async fn dependencies_are_ready_with_no_stale_source() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, deps) = app.get_json("/healthz/dependencies").await;
    assert_eq!(status, 200);
    assert_eq!(deps["status"], "ready", "{deps}");
    assert_eq!(deps["sources"]["stale"], serde_json::json!([]), "{deps}");
}

/// `/api/v1/sources` (and GraphQL `sources`) say which upstream copy is served: from the
/// observation the served dataset was built from, not the bundle's provenance. The bundled
/// dataset serves LiteLLM 1.108.0, dated 2026-11-04; once the served version is built from a
/// later copy (an observation fetched with an `ETag` and a `Last-Modified`), that copy's
/// name and date are shown, while `commit` keeps the bundle's provenance.
#[tokio::test]
async fn sources_show_the_release_actually_served_and_its_upstream_date() {
    let url = fresh_database(Backend::Sqlite).await;
    let app = TestApp::spawn_on(&url, ServeConfig::default()).await;
    let litellm = |body: &Value, path: &str| -> Value {
        body.pointer(path)
            .and_then(Value::as_array)
            .unwrap()
            .iter()
            .find(|s| s["slug"] == "litellm")
            .cloned()
            .unwrap()
    };
    let (_, sources) = app.get_json("/api/v1/sources").await;
    let l = litellm(&sources, "/data");
    assert_eq!(l["release"], "1.108.0", "{l}");
    assert_eq!(l["release_date"], "2026-11-04", "{l}");
    assert_eq!(l["commit"], "1.108.0");
    let genai = sources["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["slug"] == "genai-prices")
        .unwrap();
    assert_eq!(genai["release"], "0.2.3", "{genai}");

    // A later copy observed and served: the store's row, and the served version's basis.
    let db = mds::store::connect(&url).await.unwrap();
    let file = "model_prices_and_context_window.json";
    let sha = "0".repeat(64);
    observation::ActiveModel {
        source: sea_orm::Set("litellm".into()),
        path: sea_orm::Set(file.into()),
        upstream: sea_orm::Set(Some("\"etag-1.110.2\"".into())),
        upstream_date: sea_orm::Set(Some("2026-11-20T10:00:00Z".into())),
        observed: sea_orm::Set("2026-11-21".into()),
        sha256: sea_orm::Set(sha.clone()),
        bytes: sea_orm::Set(1),
        content: sea_orm::Set(None),
        removed: sea_orm::Set(false),
        origin: sea_orm::Set("sync".into()),
        recorded_at: sea_orm::Set("2026-11-21T00:00:00Z".into()),
        ..Default::default()
    }
    .insert(&db)
    .await
    .unwrap();
    let version = mds::store::import::current(&db)
        .await
        .unwrap()
        .unwrap()
        .version;
    let mut basis = mds::store::versions::basis(&db, version)
        .await
        .unwrap()
        .unwrap();
    basis
        .get_mut("litellm")
        .unwrap()
        .insert(file.to_string(), sha);
    mds::store::versions::set_basis(&db, version, &basis)
        .await
        .unwrap();
    // An instance started now serves that version as built from the later copy.
    let app = TestApp::spawn_on(&url, ServeConfig::default()).await;
    let (_, sources) = app.get_json("/api/v1/sources").await;
    let l = litellm(&sources, "/data");
    assert_eq!(l["release"], "\"etag-1.110.2\"", "{l}");
    assert_eq!(l["release_date"], "2026-11-20T10:00:00Z", "{l}");
    assert_eq!(l["commit"], "1.108.0", "the bundle's provenance stays");
    // GraphQL says the same.
    let gql = app
        .graphql("{ sources { slug release releaseDate } }", Value::Null)
        .await;
    let g = litellm(&gql, "/data/sources");
    assert_eq!(g["release"], l["release"]);
    assert_eq!(g["releaseDate"], l["release_date"]);
}

/// Offline (the mirror's port refuses connections): the first source is tried, the next
/// once, and the others not at all, so the sync ends within seconds; nothing is built, the
/// served version is kept, and each source's failures are counted in the store, once per
/// sync, with when they began.
#[tokio::test]
async fn an_offline_sync_fails_fast_and_counts_its_failures_in_the_store() {
    let url = fresh_database(Backend::Sqlite).await;
    let db = mds::store::connect(&url).await.unwrap();
    let dead = format!("http://127.0.0.1:{}", crate::helpers::free_port());
    let data = std::env::temp_dir().join(format!("mds-offline-{}", crate::helpers::free_port()));
    let opts = Options {
        retries: 2,
        ..Options::new(data.clone(), Some(dead))
    };
    let started = Instant::now();
    let report = mds::sync::run(&db, &opts).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(report.offline, "{}", report.render());
    assert!(report.failed());
    let not_tried = report
        .sources
        .iter()
        .filter(
            |s| matches!(&s.outcome, Outcome::Failed { reason } if reason.starts_with("not tried")),
        )
        .count();
    assert_eq!(not_tried, report.sources.len() - 2, "{}", report.render());
    assert!(
        matches!(report.dataset, DatasetOutcome::Unchanged { .. }),
        "{}",
        report.render()
    );
    let first = source_status::Entity::find().all(&db).await.unwrap();
    assert_eq!(first.len(), report.sources.len());
    assert!(
        first
            .iter()
            .all(|r| r.failures == 1 && r.failures_total == 1 && r.failing_since.is_some())
    );
    mds::sync::run(&db, &opts).await.unwrap();
    let second = source_status::Entity::find().all(&db).await.unwrap();
    for r in &second {
        let before = first.iter().find(|f| f.slug == r.slug).unwrap();
        assert_eq!((r.failures, r.failures_total), (2, 2), "{}", r.slug);
        assert_eq!(r.failing_since, before.failing_since, "{}", r.slug);
    }
    let _ = std::fs::remove_dir_all(&data);
}
