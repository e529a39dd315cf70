//! The response cache: bounded in bytes, emptied by an import, answering `If-None-Match`
//! and `HEAD` from memory, and never letting a request skip the rate limit.

use std::time::Duration;

use mds::config::ServeConfig;
use serde_json::Value;

use crate::helpers::{Backend, TestApp};

fn header(res: &reqwest::Response, name: &str) -> String {
    res.headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

#[tokio::test]
async fn the_cache_holds_at_most_its_size() {
    let cfg = ServeConfig {
        cache_size_mb: 1,
        free_limit: 1_000_000,
        ..ServeConfig::default()
    };
    let app = TestApp::spawn_with(Backend::Sqlite, cfg).await;
    let mut stored = 0usize;
    for page in 1..=25 {
        let res = app
            .get(&format!("/api/v1/models?limit=100&page={page}"))
            .await;
        assert_eq!(res.status().as_u16(), 200);
        stored += res.bytes().await.unwrap().len();
    }
    // An entry weighs its body twice (room for its compressed forms).
    assert!(
        2 * stored > 3 * 1024 * 1024 / 2,
        "the test must overflow the cache: {stored}"
    );
    let cache = &app.state.cache;
    assert!(
        cache.weight() <= 1024 * 1024,
        "{} bytes held",
        cache.weight()
    );
    assert!(!cache.is_empty());
}

#[tokio::test]
async fn hits_answer_from_memory_with_etags_and_head() {
    let cfg = ServeConfig {
        free_limit: 1_000_000,
        ..ServeConfig::default()
    };
    let app = TestApp::spawn_with(Backend::Sqlite, cfg).await;
    let url = "/api/v1/models?sort=price&limit=5";
    let first = app.get(url).await;
    let tag = header(&first, "etag");
    let body: Value = first.json().await.unwrap();
    let (hits, _) = app.state.cache.counts();
    // The same parameters in another order are the same answer.
    let second = app.get("/api/v1/models?limit=5&sort=price").await;
    assert_eq!(header(&second, "etag"), tag);
    assert_eq!(second.json::<Value>().await.unwrap(), body);
    assert_eq!(app.state.cache.counts().0, hits + 1);
    // If-None-Match on a hit: 304, no body.
    let res = app
        .client
        .get(app.url(url))
        .header("if-none-match", &tag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 304);
    assert_eq!(header(&res, "etag"), tag);
    assert!(res.bytes().await.unwrap().is_empty());
    // HEAD: GET's headers without the body, counted once.
    let get = app.get(url).await;
    let used: u64 = header(&get, "x-ratelimit-used").parse().unwrap();
    let head = app.client.head(app.url(url)).send().await.unwrap();
    assert_eq!(head.status().as_u16(), 200);
    assert_eq!(header(&head, "etag"), tag);
    assert_eq!(header(&head, "cache-control"), "public, max-age=60");
    assert_eq!(header(&head, "x-ratelimit-used"), (used + 1).to_string());
    assert!(head.bytes().await.unwrap().is_empty());
    // Compressed forms decode to the same answer.
    let br = app
        .client
        .get(app.url(url))
        .header("accept-encoding", "br")
        .send()
        .await
        .unwrap();
    assert_eq!(header(&br, "content-encoding"), "br");
}

#[tokio::test]
async fn cached_answers_still_count_against_the_limit() {
    let cfg = ServeConfig {
        free_limit: 3,
        ..ServeConfig::default()
    };
    let app = TestApp::spawn_with(Backend::Sqlite, cfg).await;
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(app.get("/api/v1/models?limit=2").await.status().as_u16());
    }
    assert_eq!(statuses, [200, 200, 200, 429, 429]);
}

#[tokio::test]
async fn an_import_empties_the_cache() {
    let cfg = ServeConfig {
        reload_interval_ms: 100,
        free_limit: 1_000_000,
        ..ServeConfig::default()
    };
    let app = TestApp::spawn_with(Backend::Sqlite, cfg).await;
    let (_, before) = app.get_json("/api/v1/models/gpt-4o").await;
    let name = before["data"]["name"].as_str().unwrap().to_string();
    let (_, again) = app.get_json("/api/v1/models/gpt-4o").await;
    assert_eq!(again, before);
    let mut s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    for m in &mut s.models {
        m.name.push_str(" (renamed)");
    }
    mds::store::import::import(&app.state.db, &s.encode().unwrap())
        .await
        .unwrap();
    let mut renamed = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (_, after) = app.get_json("/api/v1/models/gpt-4o").await;
        if after["data"]["name"] == format!("{name} (renamed)") {
            renamed = true;
            break;
        }
    }
    assert!(renamed, "a stale answer outlived the import");
}

#[tokio::test]
async fn the_cache_can_be_turned_off() {
    let cfg = ServeConfig {
        cache_size_mb: 0,
        free_limit: 1_000_000,
        ..ServeConfig::default()
    };
    let app = TestApp::spawn_with(Backend::Sqlite, cfg).await;
    let first = app.get("/api/v1/providers").await;
    let tag = header(&first, "etag");
    assert!(!tag.is_empty());
    let res = app
        .client
        .get(app.url("/api/v1/providers"))
        .header("if-none-match", &tag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 304);
    assert!(app.state.cache.is_empty());
}

#[tokio::test]
async fn graphql_answers_with_errors_are_never_stored() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    // An unknown persisted query: an error now, known once registered.
    let ext = "%7B%22persistedQuery%22%3A%7B%22version%22%3A1%2C%22sha256Hash%22%3A%22ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38%22%7D%7D";
    let miss = app.get(&format!("/graphql?extensions={ext}")).await;
    assert_eq!(header(&miss, "cache-control"), "no-store");
    let body: Value = miss.json().await.unwrap();
    assert!(body["errors"].is_array(), "{body}");
    let res = app
        .get(&format!("/graphql?query=%7B__typename%7D&extensions={ext}"))
        .await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["data"]["__typename"], "Query", "{body}");
    let hit = app.get(&format!("/graphql?extensions={ext}")).await;
    let body: Value = hit.json().await.unwrap();
    assert_eq!(body["data"]["__typename"], "Query", "{body}");
}

/// A GraphQL POST — what Apollo Client and most GraphQL clients send — is answered from
/// memory when repeated, keyed by what it asks: the document (whitespace and commas folded),
/// the variables, the operation name and the extensions. Answers with errors are not kept.
#[tokio::test]
async fn graphql_posts_are_answered_from_memory() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let post = |body: serde_json::Value| {
        let app = &app;
        async move {
            let r = app
                .client
                .post(app.url("/graphql"))
                .json(&body)
                .send()
                .await
                .unwrap();
            (
                r.status().as_u16(),
                r.json::<serde_json::Value>().await.unwrap(),
            )
        }
    };
    let page = "query Page($n: Int) { models(first: $n) { nodes { slug name offerings { provider { slug } inputPrice } } } }";
    let (status, first) = post(serde_json::json!({"query": page, "variables": {"n": 50}})).await;
    assert_eq!(status, 200);
    assert_eq!(
        first["data"]["models"]["nodes"].as_array().unwrap().len(),
        50
    );
    let (hits, _) = app.state.cache.counts();
    // The same document spelled with other whitespace and commas, the same variables.
    let respelled = page
        .replace(" { ", "\n{\n    ")
        .replace(" name ", ", name, ");
    let (_, again) = post(serde_json::json!({"variables": {"n": 50}, "query": respelled})).await;
    assert_eq!(again, first);
    assert_eq!(
        app.state.cache.counts().0,
        hits + 1,
        "a repeated POST is a hit"
    );
    // Other variables, another answer.
    let (_, five) = post(serde_json::json!({"query": page, "variables": {"n": 5}})).await;
    assert_eq!(five["data"]["models"]["nodes"].as_array().unwrap().len(), 5);
    assert_eq!(app.state.cache.counts().0, hits + 1);
    // An answer with errors is not kept: asked twice, executed twice.
    let bad = serde_json::json!({"query": "{ model(slug: \"nope\") { slug } lookupModel(id: \"nope-9\") { slug } }"});
    let (_, e1) = post(bad.clone()).await;
    assert!(e1["errors"].is_array());
    let (h, _) = app.state.cache.counts();
    post(bad).await;
    assert_eq!(app.state.cache.counts().0, h);
    // A string argument keeps its spaces: two searches, two answers.
    let (_, a) =
        post(serde_json::json!({"query": "{ searchModels(q: \"gpt  4\") { totalCount } }"})).await;
    let (_, b) =
        post(serde_json::json!({"query": "{ searchModels(q: \"gpt 4\") { totalCount } }"})).await;
    assert!(a["data"].is_object() && b["data"].is_object());
}
