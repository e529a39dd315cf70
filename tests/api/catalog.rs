//! The in-memory catalogue: every answer comes wholly from one dataset, and an import on
//! the shared database reaches every instance.

use std::time::Duration;

use mds::config::ServeConfig;
use serde_json::Value;

use crate::helpers::{Backend, TestApp};

/// The embedded snapshot with every model renamed `<name> [B]`: a second dataset whose
/// answers can be told apart from the first's by any model name in them.
fn renamed_snapshot() -> Vec<u8> {
    let mut s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    for m in &mut s.models {
        m.name.push_str(" [B]");
    }
    s.encode().unwrap()
}

fn fast_reload() -> ServeConfig {
    ServeConfig {
        reload_interval_ms: 100,
        free_limit: 1_000_000,
        ..ServeConfig::default()
    }
}

/// Every model name in an answer, wherever it appears.
fn names(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "name"
                    && let Value::String(s) = x
                    && m.contains_key("slug")
                    && (m.contains_key("average_score") || m.contains_key("averageScore"))
                {
                    out.push(s.clone());
                }
                names(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| names(x, out)),
        _ => {}
    }
}

const SPREAD: &str = "{ a: models(first: 50, sort: NAME) { nodes { slug name averageScore } } \
    b: searchModels(q: \"gpt\", first: 50) { nodes { slug name averageScore } } \
    c: benchmarks(first: 5) { nodes { topModels(limit: 10) { model { slug name averageScore } } } } \
    d: compare(models: [\"gpt-4o\", \"gpt-5\"]) { models { slug name averageScore } } }";

#[tokio::test]
async fn imports_while_requests_run_never_mix_two_datasets() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = TestApp::spawn_with(backend, fast_reload()).await;
        let db = mds::store::connect(&app.database_url).await.unwrap();
        let b = renamed_snapshot();
        let serving = app.state.catalog.clone();
        let importer = tokio::spawn(async move {
            for i in 0..6 {
                let bytes = if i % 2 == 0 {
                    b.clone()
                } else {
                    mds::snapshot::EMBEDDED.to_vec()
                };
                let outcome = mds::store::import::import(&db, &bytes).await.unwrap();
                let mds::store::import::Outcome::Imported { version } = outcome else {
                    panic!("{outcome:?}");
                };
                // Each dataset is served for a while before the next import (however long
                // a reload takes on a loaded machine), so both are seen by the requests.
                for _ in 0..500 {
                    if serving.version() == version {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                tokio::time::sleep(Duration::from_millis(150)).await;
            }
        });
        let (mut seen_a, mut seen_b) = (false, false);
        while !importer.is_finished() {
            // Model names from several root fields and relations: work the old design did
            // in a dozen statements, between which an import could commit.
            let body = app.graphql(SPREAD, serde_json::json!({})).await;
            assert!(body["errors"].is_null(), "{body}");
            let mut n = Vec::new();
            names(&body, &mut n);
            assert!(n.len() > 100, "{backend:?}: {}", n.len());
            let marked = n.iter().filter(|x| x.ends_with(" [B]")).count();
            assert!(
                marked == 0 || marked == n.len(),
                "{backend:?}: one answer mixed two datasets ({marked} of {})",
                n.len()
            );
            seen_a |= marked == 0;
            seen_b |= marked == n.len();
        }
        importer.await.unwrap();
        assert!(seen_a && seen_b, "{backend:?}: both datasets were served");
    }
}

#[tokio::test]
async fn another_instance_serves_an_import_within_the_reload_interval() {
    let a = TestApp::spawn_with(Backend::Postgres, fast_reload()).await;
    let b = TestApp::spawn_on(&a.database_url, fast_reload()).await;
    let before = b.state.catalog.version();
    // Import through instance A's database connection; B shares only the database.
    let outcome = mds::store::import::import(&a.state.db, &renamed_snapshot())
        .await
        .unwrap();
    let mds::store::import::Outcome::Imported { version } = outcome else {
        panic!("{outcome:?}");
    };
    assert!(version > before);
    let mut served = false;
    for _ in 0..50 {
        let (_, body) = b.get_json("/api/v1/models/gpt-4o").await;
        if body["data"]["name"]
            .as_str()
            .is_some_and(|n| n.ends_with(" [B]"))
        {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(served, "instance B never served the new dataset");
    assert_eq!(b.state.catalog.version(), version);
    let (_, body) = b
        .get_json("/graphql?query=%7Bdataset%7Bversion%7D%7D")
        .await;
    assert_eq!(body["data"]["dataset"]["version"], version);
}
