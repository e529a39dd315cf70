//! The GraphQL API: real values per area, reads from the catalogue alone, protection,
//! persisted queries, GraphiQL and the checked-in SDL.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use crate::helpers::{BACKENDS, Backend, TestApp, fresh_database, rendered_dom};

#[test]
fn schema_graphql_is_the_printed_sdl() {
    let checked_in = include_str!("../../schema.graphql");
    assert!(
        mds::graphql::sdl() == checked_in,
        "schema.graphql drifted from the code: run `cargo run -- schema > schema.graphql`"
    );
}

/// A schema and a catalogue loaded from a fresh database whose statements are counted.
async fn counted_schema(
    backend: Backend,
) -> (
    mds::graphql::Engine,
    Arc<mds::catalog::Catalog>,
    Arc<AtomicUsize>,
) {
    let url = fresh_database(backend).await;
    let mut db = mds::store::connect(&url).await.unwrap();
    let count = Arc::new(AtomicUsize::new(0));
    let c = count.clone();
    db.set_metric_callback(move |info| {
        if std::env::var("MDS_DEBUG_SQL").is_ok() {
            eprintln!(
                "SQL: {}",
                &info.statement.to_string()[..120.min(info.statement.to_string().len())]
            );
        }
        c.fetch_add(1, Ordering::SeqCst);
    });
    let catalog = Arc::new(mds::catalog::Catalog::load(&db).await.unwrap());
    (mds::graphql::build(), catalog, count)
}

async fn execute(
    engine: &mds::graphql::Engine,
    catalog: &Arc<mds::catalog::Catalog>,
    query: &str,
) -> async_graphql::Response {
    engine
        .execute(async_graphql::Request::new(query), catalog.clone())
        .await
}

fn codes(resp: &async_graphql::Response) -> Vec<String> {
    resp.errors
        .iter()
        .map(
            |e| match e.extensions.as_ref().and_then(|x| x.get("code")) {
                Some(async_graphql::Value::String(s)) => s.clone(),
                _ => String::new(),
            },
        )
        .collect()
}

#[tokio::test]
async fn requests_read_the_catalogue_and_run_no_sql() {
    for backend in BACKENDS {
        let (schema, catalog, count) = counted_schema(backend).await;
        count.store(0, Ordering::SeqCst);
        let resp = execute(
            &schema,
            &catalog,
            "{ models(first: 100) { nodes { slug creator { name } offerings { inputPrice provider { name } } scores { score benchmark { name } } aliases agents } } }",
        )
        .await;
        assert!(resp.errors.is_empty(), "{:?}", resp.errors);
        let data = resp.data.into_json().unwrap();
        assert_eq!(data["models"]["nodes"].as_array().unwrap().len(), 100);
        let n = count.load(Ordering::SeqCst);
        assert_eq!(n, 0, "{backend:?}: {n} statements for a page of 100 models");
    }
}

#[tokio::test]
async fn abuse_is_refused_before_any_database_work() {
    let (schema, catalog, count) = counted_schema(Backend::Sqlite).await;
    let deep = format!(
        "{{ models {{ nodes {{ {}slug{} }} }} }}",
        "creator { createdModels { nodes { ".repeat(12),
        " } } }".repeat(12)
    );
    let aliases = format!(
        "{{ {} }}",
        (0..1000)
            .map(|i| format!("a{i}: dataset {{ version }}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let nested = "{ providers(first: 100) { nodes { createdModels(first: 100) { nodes { creator { createdModels(first: 100) { nodes { slug } } } } } } } }";
    let many_roots = format!(
        "{{ {} }}",
        (0..30)
            .map(|i| format!("r{i}: sources {{ slug }}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    for query in [deep.as_str(), aliases.as_str(), nested, many_roots.as_str()] {
        count.store(0, Ordering::SeqCst);
        let resp = execute(&schema, &catalog, query).await;
        assert!(
            !resp.errors.is_empty(),
            "accepted: {}",
            &query[..80.min(query.len())]
        );
        assert_eq!(codes(&resp)[0], "QUERY_TOO_COMPLEX", "{:?}", resp.errors);
        assert_eq!(
            count.load(Ordering::SeqCst),
            0,
            "database work for a refused query"
        );
    }
}

#[tokio::test]
async fn bad_arguments_carry_codes_and_parameters() {
    let (schema, catalog, _) = counted_schema(Backend::Sqlite).await;
    let resp = execute(&schema, &catalog, "{ models(first: 101) { totalCount } }").await;
    assert_eq!(codes(&resp), ["BAD_USER_INPUT"]);
    let resp = execute(
        &schema,
        &catalog,
        r#"{ compare(models: ["gpt-4o"]) { models { slug } } }"#,
    )
    .await;
    assert_eq!(codes(&resp), ["BAD_USER_INPUT"]);
    let resp = execute(
        &schema,
        &catalog,
        r#"{ compare(models: ["gpt-4o", "nope-1"]) { models { slug } } }"#,
    )
    .await;
    assert_eq!(codes(&resp), ["NOT_FOUND"]);
    assert!(resp.errors[0].message.contains("nope-1"));
    let resp = execute(
        &schema,
        &catalog,
        r#"{ searchModels(q: " ") { totalCount } }"#,
    )
    .await;
    assert_eq!(codes(&resp), ["BAD_USER_INPUT"]);
    let resp = execute(
        &schema,
        &catalog,
        "{ models(filter: {maxPrice: -1}) { totalCount } }",
    )
    .await;
    assert_eq!(codes(&resp), ["BAD_USER_INPUT"]);
    let resp = execute(&schema, &catalog, "{ nope }").await;
    assert_eq!(codes(&resp), ["GRAPHQL_VALIDATION_FAILED"]);
    let resp = execute(
        &schema,
        &catalog,
        r#"{ models(after: "zzz") { totalCount } }"#,
    )
    .await;
    assert_eq!(codes(&resp), ["BAD_USER_INPUT"]);
}

#[tokio::test]
async fn every_area_answers_with_real_values() {
    for backend in BACKENDS {
        let (schema, catalog, _) = counted_schema(backend).await;
        let resp = execute(
            &schema,
            &catalog,
            r#"{
              model(slug: "claude-3-5-sonnet") { slug creator { slug } offerings { provider { slug } inputPrice } }
              search: searchModels(q: "gpt-4o", first: 1) { nodes { slug } }
              compare(models: ["gpt-4o", "claude-3-5-sonnet"]) { models { slug } benchmarks { benchmark { slug } scores { model score } } }
              pricing(first: 1, sort: PRICE, order: DESC) { nodes { inputPrice } }
              modelPricing(slug: "gpt-4o") { offerings { provider { slug } inputPrice outputPrice } }
              priceHistory(slug: "o3") { effectiveFrom effectiveTo inputPrice provider { slug } }
              benchmarks(first: 100) { totalCount }
              benchmark(slug: "bfcl") { unit topModels(limit: 1) { score model { slug } } }
              providers(first: 1) { totalCount }
              provider(slug: "anthropic") { name createdModels(first: 1) { totalCount } }
              agents(first: 1) { nodes { slug averageScore } }
              agent(slug: "trae-doubao-seed-code") { organization models { slug name } scores { score benchmark { slug } } }
              sources { slug license }
              dataset { version builtAt }
              missing: model(slug: "no-such-model") { slug }
            }"#,
        )
        .await;
        assert!(resp.errors.is_empty(), "{backend:?}: {:?}", resp.errors);
        let d = resp.data.into_json().unwrap();
        assert_eq!(d["model"]["slug"], "claude-3-5-sonnet-20241022");
        assert_eq!(d["model"]["creator"]["slug"], "anthropic");
        assert_eq!(d["search"]["nodes"][0]["slug"], "gpt-4o-2024-11-20");
        let openai = d["modelPricing"]["offerings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["provider"]["slug"] == "openai")
            .unwrap();
        assert_eq!(
            (
                openai["inputPrice"].as_f64(),
                openai["outputPrice"].as_f64()
            ),
            (Some(2.5), Some(10.0))
        );
        assert!(
            d["priceHistory"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["provider"]["slug"] == "openai" && p["inputPrice"] == 2.0)
        );
        assert!(d["benchmarks"]["totalCount"].as_i64().unwrap() >= 12);
        assert_eq!(d["benchmark"]["topModels"][0]["score"], 77.47);
        assert_eq!(
            d["benchmark"]["topModels"][0]["model"]["slug"],
            "claude-opus-4-5-20251101"
        );
        assert_eq!(d["provider"]["name"], "Anthropic");
        assert_eq!(d["agent"]["organization"], "ByteDance");
        assert!(
            d["agent"]["models"][0]["name"].is_string(),
            "{}",
            d["agent"]
        );
        assert!(
            d["sources"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["slug"] == "genai-prices" && s["license"] == "MIT")
        );
        assert_eq!(d["dataset"]["version"], 1);
        assert_eq!(d["missing"], Value::Null);
    }
}

#[tokio::test]
async fn cursors_and_offsets_page_through_a_list() {
    let (schema, catalog, _) = counted_schema(Backend::Sqlite).await;
    let first = execute(&schema, &catalog, "{ models(first: 3, sort: NAME) { edges { cursor node { slug } } pageInfo { hasNextPage endCursor } } }").await;
    let d = first.data.into_json().unwrap();
    let end = d["models"]["pageInfo"]["endCursor"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(d["models"]["pageInfo"]["hasNextPage"], true);
    let next = execute(
        &schema,
        &catalog,
        &format!(r#"{{ models(first: 3, sort: NAME, after: "{end}") {{ nodes {{ slug }} }} }}"#),
    )
    .await;
    let by_offset = execute(
        &schema,
        &catalog,
        "{ models(first: 3, sort: NAME, offset: 3) { nodes { slug } } }",
    )
    .await;
    assert_eq!(
        next.data.into_json().unwrap(),
        by_offset.data.into_json().unwrap()
    );
}

#[tokio::test]
async fn http_get_post_persisted_queries_and_limits() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let res = app.get("/graphql?query=%7Bdataset%7Bversion%7D%7D").await;
    assert_eq!(res.status().as_u16(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["data"]["dataset"]["version"], 1);
    assert!(
        body["extensions"]["attribution"]
            .as_str()
            .unwrap()
            .contains("/api/v1/sources")
    );

    // Automatic persisted queries: hash alone is unknown, then registered, then enough.
    let query = "{ sources { slug } }";
    let hash = mds::snapshot::sha256_hex(query.as_bytes());
    let ext = json!({"persistedQuery": {"version": 1, "sha256Hash": hash}}).to_string();
    let qs = serde_urlencoded::to_string([("extensions", ext.as_str())]).unwrap();
    let unknown: Value = app
        .get(&format!("/graphql?{qs}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(unknown["errors"][0]["message"], "PersistedQueryNotFound");
    let registered: Value = app
        .client
        .post(app.url("/graphql"))
        .json(&json!({"query": query, "extensions": {"persistedQuery": {"version": 1, "sha256Hash": hash}}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(registered["errors"].is_null(), "{registered}");
    let known: Value = app
        .get(&format!("/graphql?{qs}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(known["data"], registered["data"]);

    // A 1 MiB body is refused with a GraphQL error.
    let big = format!(
        "{{\"query\": \"{{ dataset {{ version }} }}\", \"pad\": \"{}\"}}",
        "x".repeat(1 << 20)
    );
    let res = app
        .client
        .post(app.url("/graphql"))
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 413);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["errors"][0]["extensions"]["code"], "PAYLOAD_TOO_LARGE");
}

#[tokio::test]
async fn graphiql_is_served_with_its_own_assets() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let page = app
        .client
        .get(app.url("/graphql"))
        .header("accept", "text/html")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("/assets/graphiql/graphiql.min.js"));
    assert!(
        !page.contains("https://"),
        "the page must not load anything from a CDN"
    );
    for asset in [
        "graphiql.min.js",
        "graphiql.min.css",
        "react.production.min.js",
        "react-dom.production.min.js",
    ] {
        let res = app.get(&format!("/assets/graphiql/{asset}")).await;
        assert_eq!(res.status().as_u16(), 200, "{asset}");
        assert!(res.bytes().await.unwrap().len() > 1000);
    }
}

/// The bundles are stored answers made once, whether or not the response cache is on: the
/// same ETag every time, compressed forms that decode to the file, and 304 on revalidation.
#[tokio::test]
async fn assets_are_compressed_once_and_revalidate() {
    let cfg = mds::config::ServeConfig {
        cache_size_mb: 0,
        ..mds::config::ServeConfig::default()
    };
    let app = TestApp::spawn_with(Backend::Sqlite, cfg).await;
    let path = "/assets/graphiql/graphiql.min.js";
    let plain = app.get(path).await;
    let etag = plain.headers()["etag"].to_str().unwrap().to_string();
    let plain = plain.bytes().await.unwrap();
    for encoding in ["br", "gzip"] {
        // The test client decompresses nothing: the bytes are the server's.
        let res = app
            .client
            .get(app.url(path))
            .header("accept-encoding", encoding)
            .send()
            .await
            .unwrap();
        assert_eq!(res.headers()["content-encoding"], encoding);
        assert_eq!(res.headers()["etag"].to_str().unwrap(), etag);
        let packed = res.bytes().await.unwrap();
        assert!(packed.len() < plain.len() / 2, "{encoding}");
        let mut out = Vec::new();
        use std::io::Read;
        if encoding == "br" {
            brotli::Decompressor::new(&packed[..], 4096)
                .read_to_end(&mut out)
                .unwrap();
        } else {
            flate2::read::GzDecoder::new(&packed[..])
                .read_to_end(&mut out)
                .unwrap();
        }
        assert_eq!(out, plain, "{encoding}");
    }
    let again = app
        .client
        .get(app.url(path))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status().as_u16(), 304);
}

/// Loads GraphiQL in headless Chromium: the page's bundled scripts must render GraphiQL
/// and run a query against this server.
#[tokio::test]
async fn graphiql_runs_a_query_in_headless_chromium() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (dom, stderr) = rendered_dom(&app, "/graphql#smoke").await;
    assert!(
        dom.contains("graphiql-container"),
        "GraphiQL did not render: {}",
        &dom[..dom.len().min(2000)]
    );
    let start = dom
        .find("id=\"smoke-result\"")
        .unwrap_or_else(|| panic!("no query result in the page: {stderr}"));
    assert!(
        dom[start..].contains("totalCount"),
        "the default query did not answer"
    );
}

/// GraphiQL's Docs pane, filled by its own introspection query, lists `Query` and its fields.
#[tokio::test]
async fn graphiql_docs_pane_lists_the_query_type() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (dom, stderr) = rendered_dom(&app, "/graphql#docs").await;
    let start = dom.find("id=\"docs-result\"").unwrap_or_else(|| {
        panic!(
            "the Docs pane never showed Query's fields: {stderr} {}",
            &dom[..dom.len().min(3000)]
        )
    });
    let pane = &dom[start..];
    for field in ["models", "searchModels", "compare", "benchmarks", "agents"] {
        assert!(pane.contains(field), "Docs pane lacks {field}");
    }
}

/// An answer's fields come back in the order the query selected them (GraphQL spec §7.1),
/// whether run or read from the cache, by GET or POST.
#[tokio::test]
async fn answers_keep_selection_order() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let query =
        "{ model(slug: \"gpt-4o-2024-11-20\") { slug name averageScore creator { slug name } } }";
    for _ in 0..2 {
        let body = app
            .client
            .post(app.url("/graphql"))
            .json(&serde_json::json!({ "query": query }))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let at = |k: &str| body.find(k).unwrap_or_else(|| panic!("{k} in {body}"));
        assert!(
            at("\"slug\"") < at("\"name\"") && at("\"name\"") < at("\"averageScore\""),
            "{body}"
        );
    }
    let get = app
        .get(&format!("/graphql?query={}", urlencoding(query)))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        get.find("\"slug\"").unwrap() < get.find("\"averageScore\"").unwrap(),
        "{get}"
    );
}

fn urlencoding(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Clients (4): a syntax error is `GRAPHQL_PARSE_FAILED` with a one-line message giving
/// its position, not a validation failure with the parser's multi-line dump.
#[tokio::test]
async fn a_syntax_error_is_a_parse_failure_in_one_line() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let body = app
        .graphql("{ model(slug: \"gpt-4o\") { slug ", serde_json::json!({}))
        .await;
    let error = &body["errors"][0];
    assert_eq!(
        error["extensions"]["code"], "GRAPHQL_PARSE_FAILED",
        "{body}"
    );
    let message = error["message"].as_str().unwrap();
    assert!(
        message.starts_with("Syntax error at line 1, column "),
        "{message}"
    );
    assert!(!message.contains('\n'), "{message}");
}

/// Clients (4): `GET /graphql` with no document, from a client that is not a browser, is
/// a 400 problem naming `query`; a browser still gets GraphiQL.
#[tokio::test]
async fn a_graphql_get_without_a_query_is_a_problem() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let res = app.get("/graphql").await;
    assert_eq!(res.status().as_u16(), 400);
    assert_eq!(
        res.headers()["content-type"].to_str().unwrap(),
        "application/problem+json"
    );
    let problem: serde_json::Value = res.json().await.unwrap();
    assert_eq!(problem["param"], "query", "{problem}");
    let res = app
        .client
        .get(app.url("/graphql"))
        .header("accept", "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert!(res.text().await.unwrap().contains("graphiql"));
}
