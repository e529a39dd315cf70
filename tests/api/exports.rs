//! Bulk export: every table as CSV and NDJSON in one counted request, streamed, with an ETag.

use crate::helpers::{Backend, TestApp};

#[tokio::test]
async fn every_table_exports_in_both_formats() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let catalog = app.state.catalog.snapshot();
    for table in mds::catalog::TABLES {
        let res = app.get(&format!("/api/v1/export/{table}.ndjson")).await;
        assert_eq!(res.status().as_u16(), 200, "{table}");
        assert_eq!(res.headers()["content-type"], "application/x-ndjson");
        assert!(
            res.headers()["link"]
                .to_str()
                .unwrap()
                .contains("rel=\"license\"")
        );
        let text = res.text().await.unwrap();
        let rows: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let expected = match *table {
            "models" => catalog.all_models().len(),
            "offerings" => catalog.all_offerings().len(),
            "scores" => catalog.all_scores().len(),
            "price_history" => catalog.all_history().len(),
            "benchmarks" => catalog.benchmarks().len(),
            "providers" => catalog.all_providers().len(),
            _ => catalog.agents().len(),
        };
        assert_eq!(rows.len(), expected, "{table}");

        let res = app.get(&format!("/api/v1/export/{table}.csv")).await;
        assert_eq!(res.status().as_u16(), 200);
        let tag = res.headers()["etag"].to_str().unwrap().to_string();
        let body = res.text().await.unwrap();
        let mut reader = csv::Reader::from_reader(body.as_bytes());
        assert_eq!(reader.records().count(), expected, "{table}.csv");
        let again = app
            .client
            .get(app.url(&format!("/api/v1/export/{table}.csv")))
            .header("if-none-match", &tag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status().as_u16(), 304);
    }
    // Compressed (the compression layer reads the stream to its end), in both encodings.
    for encoding in ["gzip", "br"] {
        let res = app
            .client
            .get(app.url("/api/v1/export/models.ndjson"))
            .header("accept-encoding", encoding)
            .send()
            .await
            .unwrap();
        assert_eq!(res.headers()["content-encoding"], encoding);
        let bytes = res
            .bytes()
            .await
            .expect("the whole compressed body arrives");
        let mut text = String::new();
        use std::io::Read;
        match encoding {
            "gzip" => flate2::read::GzDecoder::new(&bytes[..])
                .read_to_string(&mut text)
                .unwrap(),
            _ => brotli::Decompressor::new(&bytes[..], 4096)
                .read_to_string(&mut text)
                .unwrap(),
        };
        assert_eq!(
            text.lines().count(),
            catalog.all_models().len(),
            "{encoding}"
        );
    }
    // A known model's row, as written.
    let res = app.get("/api/v1/export/models.csv").await;
    let body = res.text().await.unwrap();
    let mut reader = csv::Reader::from_reader(body.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let slug = headers.iter().position(|h| h == "slug").unwrap();
    let price = headers.iter().position(|h| h == "input_price").unwrap();
    let gpt4o = reader
        .records()
        .map(Result::unwrap)
        .find(|r| &r[slug] == "gpt-4o-2024-11-20")
        .unwrap();
    assert_eq!(&gpt4o[price], "2.5");
    for bad in ["nope.csv", "models.xml", "models", "..%2Fsecrets.csv"] {
        let res = app.get(&format!("/api/v1/export/{bad}")).await;
        assert_eq!(res.status().as_u16(), 404, "{bad}");
        assert_eq!(res.headers()["content-type"], "application/problem+json");
    }
}

#[tokio::test]
async fn lists_carry_link_headers() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let res = app.get("/api/v1/models?limit=10&sort=name&page=2").await;
    let links: Vec<String> = res
        .headers()
        .get_all("link")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    let all = links.join(", ");
    for rel in ["first", "prev", "next", "last", "license"] {
        assert!(
            all.contains(&format!("rel=\"{rel}\"")),
            "{rel} missing: {all}"
        );
    }
    // Absolute, from the request's own address (no MDS_PUBLIC_URL here).
    assert!(
        all.contains(&format!(
            "<{}/api/v1/models?limit=10&sort=name&page=3>; rel=\"next\"",
            app.base
        )),
        "{all}"
    );
    assert!(all.contains(&format!("<{}/api/v1/sources>; rel=\"license\"", app.base)));
    let body: serde_json::Value = res.json().await.unwrap();
    let last = body["meta"]["total_pages"].as_u64().unwrap();
    assert!(all.contains(&format!("page={last}>; rel=\"last\"")));
    // Authenticated callers get the paging links without the licence link.
    let res = app.get("/api/v1/providers").await;
    assert!(
        res.headers()["link"]
            .to_str()
            .unwrap()
            .contains("rel=\"first\"")
    );
}

/// A preflight is answered before the limiter: a browser's OPTIONS costs its page nothing.
#[tokio::test]
async fn preflights_are_never_counted() {
    let cfg = mds::config::ServeConfig {
        free_limit: 1,
        ..mds::config::ServeConfig::default()
    };
    let app = TestApp::spawn_with(Backend::Sqlite, cfg).await;
    for path in ["/api/v1/models", "/graphql", "/api/v1/models"] {
        let res = app
            .client
            .request(reqwest::Method::OPTIONS, app.url(path))
            .header("origin", "https://app.example")
            .header("access-control-request-method", "GET")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 200, "{path}");
        assert!(!res.headers().contains_key("x-ratelimit-used"), "{path}");
    }
    let first = app.get("/api/v1/models").await;
    assert_eq!(first.status().as_u16(), 200);
    assert_eq!(first.headers()["x-ratelimit-used"], "1");
    assert_eq!(app.get("/api/v1/models").await.status().as_u16(), 429);
}

#[tokio::test]
async fn browsers_may_send_any_request_header() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let res = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/api/v1/models"))
        .header("origin", "https://app.example")
        .header("access-control-request-method", "GET")
        .header(
            "access-control-request-headers",
            "traceparent, x-request-id, apollographql-client-name",
        )
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
    let allowed = res.headers()["access-control-allow-headers"]
        .to_str()
        .unwrap()
        .to_lowercase();
    for h in ["traceparent", "x-request-id", "apollographql-client-name"] {
        assert!(allowed.contains(h), "{h} not allowed: {allowed}");
    }
    let exposed = app.get("/api/v1/models").await.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(exposed.is_empty() || exposed.contains("link"));
}

/// A generic paginator walks every list: Python's `requests`, following `r.links["next"]`
/// from the first page of `/api/v1/models`, gets each listed model exactly once.
#[tokio::test]
async fn python_requests_pages_through_every_model_by_its_link_headers() {
    let app = TestApp::spawn_with(
        Backend::Sqlite,
        mds::config::ServeConfig {
            free_limit: 1_000_000,
            ..mds::config::ServeConfig::default()
        },
    )
    .await;
    let script = r#"
import json, sys, requests
url, seen, pages = sys.argv[1], [], 0
while url:
    r = requests.get(url, timeout=30)
    r.raise_for_status()
    seen += [m["slug"] for m in r.json()["data"]]
    pages += 1
    url = r.links.get("next", {}).get("url")
print(json.dumps({"pages": pages, "slugs": seen}))
"#;
    let start = app.url("/api/v1/models?limit=100&sort=name");
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("python3")
            .args(["-c", script, &start])
            .output()
            .expect("python3 is required (scripts/test.sh installs python3-requests)")
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let walked: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let slugs: Vec<&str> = walked["slugs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let (_, first) = app.get_json("/api/v1/models?limit=100").await;
    let total = first["meta"]["total"].as_u64().unwrap() as usize;
    assert_eq!(slugs.len(), total, "every listed model");
    let unique: std::collections::BTreeSet<&str> = slugs.iter().copied().collect();
    assert_eq!(unique.len(), total, "each once");
    assert_eq!(walked["pages"], total.div_ceil(100));
}

/// Links are written from the request's own host, and the response cache keeps one answer
/// per host: a second host never reads the first one's links. A Host that could smuggle
/// anything into a header or URL is not used.
#[tokio::test]
async fn links_follow_the_host_asked_and_the_cache_keeps_them_apart() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let next = |host: &'static str| {
        let app = &app;
        async move {
            let res = app
                .client
                .get(app.url("/api/v1/providers?limit=5"))
                .header("host", host)
                .send()
                .await
                .unwrap();
            res.headers()["link"].to_str().unwrap().to_string()
        }
    };
    let a = next("a.example").await;
    let b = next("b.example:8443").await;
    assert!(a.contains("<http://a.example/api/v1/providers?"), "{a}");
    assert!(
        b.contains("<http://b.example:8443/api/v1/providers?"),
        "{b}"
    );
    assert_eq!(next("a.example").await, a, "served again from the cache");
    let odd = next("a.example/evil").await;
    assert!(!odd.contains("evil"), "{odd}");
}

/// Clients (4): NDJSON nests the offerings' structured columns (witnesses, tiers, variants,
/// regions, unit prices, upcoming price) as JSON, not as strings holding JSON.
#[tokio::test]
async fn ndjson_nests_structured_columns_as_json() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let text = app
        .get("/api/v1/export/offerings.ndjson")
        .await
        .text()
        .await
        .unwrap();
    let mut nested = std::collections::HashMap::new();
    for line in text.lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        for column in [
            "tiers",
            "unit_prices",
            "variants",
            "upcoming",
            "regions",
            "sources",
        ] {
            let v = &row[column];
            assert!(!v.is_string(), "{column} is a string: {v}");
            if !v.is_null() {
                *nested.entry(column).or_insert(0) += 1;
            }
        }
    }
    // Every kind of column occurs in the data, so the check above read real values.
    assert_eq!(nested.len(), 6, "{nested:?}");
    assert!(nested["sources"] > 1000, "{nested:?}");
}

/// Clients (4): revalidating an export is free — its ETag is the dataset's digest, so a 304
/// needs no work and is not counted, as a 304 from the response cache is not.
#[tokio::test]
async fn revalidating_an_export_is_not_counted() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let res = app.get("/api/v1/export/models.csv").await;
    assert_eq!(res.headers()["x-ratelimit-used"], "1");
    let tag = res.headers()["etag"].to_str().unwrap().to_string();
    for _ in 0..3 {
        let again = app
            .client
            .get(app.url("/api/v1/export/models.csv"))
            .header("if-none-match", &tag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status().as_u16(), 304);
    }
    let next = app.get("/api/v1/sources").await;
    assert_eq!(next.headers()["x-ratelimit-used"], "2");
}
