//! The REST layer: every endpoint against the real dataset, parameter validation, envelopes,
//! HTTP behaviour, parity with GraphQL and with the OpenAPI document, on both backends.

use serde_json::{Value, json};

use crate::helpers::{BACKENDS, Backend, TestApp, non_empty};

fn slugs(body: &Value) -> Vec<String> {
    body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["slug"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn model_list_sorts_filters_and_pages() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, body) = app
        .get_json("/api/v1/models?sort=price&limit=100&open_source=false&max_price=1")
        .await;
    assert_eq!(status, 200);
    let prices: Vec<f64> = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            // Input and output blended 3 : 1 where both are known.
            let input = m["input_price"].as_f64().unwrap();
            m["output_price"]
                .as_f64()
                .map_or(input, |output| (3.0 * input + output) / 4.0)
        })
        .collect();
    assert!(
        prices.len() > 1 && prices.windows(2).all(|w| w[0] <= w[1]),
        "price ascending by default: {prices:?}"
    );
    assert!(!prices.is_empty() && prices.iter().all(|p| *p <= 1.0));
    assert!(
        non_empty(&body["data"])
            .iter()
            .all(|m| m["open_source"] == json!(false))
    );
    assert_eq!(body["meta"]["per_page"], 100);

    // Rank score descending by default; nulls last; pages do not overlap and cover the total.
    let (_, p1) = app.get_json("/api/v1/models?limit=50").await;
    let scores: Vec<Option<f64>> = p1["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["rank_score"].as_f64())
        .collect();
    assert!(
        scores.len() == 50 && scores.windows(2).all(|w| w[0] >= w[1]),
        "{scores:?}"
    );
    let total = p1["meta"]["total"].as_u64().unwrap();
    // The default list is the curated catalogue: models one can use (API or open weights),
    // not routers, not retired, not previews their general release replaced;
    // `availability=all` adds the research entries known only from benchmark tables, the
    // routers, the retired and the superseded models.
    let all_models = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED)
        .unwrap()
        .models;
    let curated = all_models
        .iter()
        .filter(|m| {
            m.availability.as_str() != "research"
                && m.task.as_str() != "router"
                && !m.retired
                && m.superseded_by.is_none()
                // A preview its creator deprecated (docs/data.md, "Lifecycle").
                && !(m.deprecated
                    && m.slug
                        .split('-')
                        .any(|w| matches!(w, "preview" | "exp")))
        })
        .count() as u64;
    assert_eq!(total, curated);
    assert!(curated < all_models.len() as u64);
    let (_, everything) = app
        .get_json("/api/v1/models?availability=all&limit=1")
        .await;
    assert_eq!(everything["meta"]["total"], all_models.len() as u64);
    let (_, research) = app
        .get_json("/api/v1/models?availability=research&limit=100")
        .await;
    assert!(
        non_empty(&research["data"])
            .iter()
            .all(|m| m["availability"] == "research")
    );
    let (_, embeddings) = app
        .get_json("/api/v1/models?task=embedding&limit=100")
        .await;
    let embeddings = embeddings["data"].as_array().unwrap();
    assert!(!embeddings.is_empty() && embeddings.iter().all(|m| m["task"] == "embedding"));
    assert!(
        embeddings
            .iter()
            .any(|m| m["slug"].as_str().unwrap().starts_with("text-embedding-3")),
        "{embeddings:?}"
    );
    assert_eq!(
        p1["meta"]["total_pages"].as_u64().unwrap(),
        total.div_ceil(50)
    );
    let (_, p2) = app.get_json("/api/v1/models?limit=50&page=2").await;
    let (a, b) = (slugs(&p1), slugs(&p2));
    assert!(!a.is_empty() && !b.is_empty() && a.iter().all(|s| !b.contains(s)));
    let (_, last) = app
        .get_json(&format!(
            "/api/v1/models?limit=50&page={}",
            total.div_ceil(50) + 1
        ))
        .await;
    assert_eq!(last["data"], json!([]));
    assert_eq!(last["meta"]["total"].as_u64(), Some(total));

    // Nulls sort last in both directions.
    let (_, asc) = app
        .get_json("/api/v1/models?sort=score&order=asc&limit=5")
        .await;
    assert!(asc["data"][0]["average_score"].is_number());

    let (_, by_creator) = app
        .get_json("/api/v1/models?creator=anthropic&limit=100")
        .await;
    assert!(
        non_empty(&by_creator["data"])
            .iter()
            .all(|m| m["creator"]["slug"] == "anthropic")
    );
    let (_, at_provider) = app
        .get_json("/api/v1/models?provider=deepseek&sort=name")
        .await;
    // DeepSeek's current V4 models; `deepseek-chat` retired on 2026-07-24 (LiteLLM's
    // `deepseek` entries) and is left out.
    assert!(
        slugs(&at_provider)
            .iter()
            .any(|s| s.starts_with("deepseek-v4-pro"))
    );
    assert!(!slugs(&at_provider).contains(&"deepseek-chat".to_string()));
    let (_, images) = app
        .get_json("/api/v1/models?category=image&limit=100")
        .await;
    assert!(
        non_empty(&images["data"])
            .iter()
            .all(|m| m["category"] == "image")
    );
    // A bound the best-ranked model meets, so the filtered list has items to check.
    let (_, top) = app.get_json("/api/v1/models?limit=1").await;
    let bound = top["data"][0]["average_score"].as_f64().unwrap().floor() - 5.0;
    let (_, good) = app
        .get_json(&format!("/api/v1/models?min_score={bound}&limit=100"))
        .await;
    assert!(
        non_empty(&good["data"])
            .iter()
            .all(|m| m["average_score"].as_f64().unwrap() >= bound)
    );
}

#[tokio::test]
async fn model_detail_resolves_aliases_and_shows_prices_and_scores() {
    let app = TestApp::spawn(Backend::Postgres).await;
    let (status, body) = app.get_json("/api/v1/models/gpt-4o").await;
    assert_eq!(status, 200);
    let m = &body["data"];
    assert_eq!(m["slug"], "gpt-4o-2024-11-20");
    assert_eq!(m["creator"]["slug"], "openai");
    let openai = m["offerings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["provider"]["slug"] == "openai")
        .unwrap();
    assert_eq!(
        (
            openai["input_price"].as_f64(),
            openai["output_price"].as_f64()
        ),
        (Some(2.5), Some(10.0))
    );
    assert_eq!(openai["currency"], "USD");
    assert_eq!(openai["unit"], "1M tokens");
    assert_eq!(openai["source"], "genai-prices");
    let polyglot = m["scores"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["benchmark"]["slug"] == "aider-polyglot")
        .unwrap();
    assert_eq!(polyglot["score"], 18.2);
    assert!(m["aliases"].as_array().unwrap().contains(&json!("gpt-4o")));
    assert!(
        body["meta"]["attribution"]
            .as_str()
            .unwrap()
            .contains("/api/v1/sources")
    );
}

#[tokio::test]
async fn search_ranks_exact_before_prefix_before_substring() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, body) = app
        .get_json("/api/v1/models/search?q=gpt-4o&limit=10")
        .await;
    let found = slugs(&body);
    assert_eq!(
        found[0], "gpt-4o-2024-11-20",
        "the alias gpt-4o is an exact match"
    );
    assert!(found.iter().any(|s| s.starts_with("gpt-4o-mini")));
    let (_, body) = app
        .get_json("/api/v1/models/search?q=sonnet&limit=100")
        .await;
    assert!(body["meta"]["total"].as_u64().unwrap() > 5);
    assert!(non_empty(&body["data"]).iter().all(|m| {
        let text = format!("{} {} {}", m["name"], m["slug"], m["aliases"]).to_lowercase();
        text.contains("sonnet")
    }));
    // `%` is matched literally.
    let (status, body) = app.get_json("/api/v1/models/search?q=%25").await;
    assert_eq!(status, 200);
    assert_eq!(body["meta"]["total"], 0);
}

#[tokio::test]
async fn compare_pricing_benchmarks_providers_agents_and_sources() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, body) = app
        .get_json("/api/v1/compare?models=gpt-4o,claude-3-5-sonnet")
        .await;
    assert_eq!(status, 200);
    let models: Vec<&str> = body["data"]["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["slug"].as_str().unwrap())
        .collect();
    assert_eq!(models, ["gpt-4o-2024-11-20", "claude-3-5-sonnet-20241022"]);
    let edit = body["data"]["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["benchmark"]["slug"] == "aider-edit")
        .unwrap();
    assert_eq!(
        edit["scores"],
        json!([{"model": "gpt-4o-2024-11-20", "score": 71.4}, {"model": "claude-3-5-sonnet-20241022", "score": 84.2}])
    );

    let (status, body) = app
        .get_json("/api/v1/compare?models=gpt-4o,no-such-model,other-unknown")
        .await;
    assert_eq!(status, 404);
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("no-such-model, other-unknown")
    );

    let (_, pricing) = app.get_json("/api/v1/pricing?limit=100").await;
    assert!(
        non_empty(&pricing["data"])
            .iter()
            .all(|m| m["input_price"].is_number())
    );
    let (_, one) = app.get_json("/api/v1/pricing/claude-3-5-sonnet").await;
    let offers = one["data"]["offerings"].as_array().unwrap();
    let anthropic = offers
        .iter()
        .find(|o| o["provider"]["slug"] == "anthropic")
        .unwrap();
    assert_eq!(
        (
            anthropic["input_price"].as_f64(),
            anthropic["output_price"].as_f64()
        ),
        (Some(3.0), Some(15.0))
    );
    // Paid offerings first, cheapest first; plans and free tiers after them.
    let unpaid = |o: &&Value| matches!(o["kind"].as_str(), Some("plan" | "free_tier"));
    let first_unpaid = offers
        .iter()
        .position(|o| unpaid(&o))
        .unwrap_or(offers.len());
    assert!(
        first_unpaid > 1 && offers[first_unpaid..].iter().all(|o| unpaid(&o)),
        "paid first: {offers:?}"
    );
    let inputs: Vec<f64> = offers[..first_unpaid]
        .iter()
        .filter_map(|o| o["input_price"].as_f64())
        .collect();
    assert!(
        inputs.len() > 1 && inputs.windows(2).all(|w| w[0] <= w[1]),
        "cheapest first: {inputs:?}"
    );

    let (_, history) = app.get_json("/api/v1/pricing/history/o3").await;
    let points = history["data"]["price_history"].as_array().unwrap();
    let froms: Vec<&str> = points
        .iter()
        .map(|p| p["effective_from"].as_str().unwrap())
        .collect();
    assert!(
        froms.len() > 1 && froms.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {froms:?}"
    );
    let openai_now = points
        .iter()
        .find(|p| p["provider"]["slug"] == "openai" && p["effective_to"].is_null())
        .unwrap();
    assert_eq!(
        (
            openai_now["input_price"].as_f64(),
            openai_now["effective_from"].as_str()
        ),
        (Some(2.0), Some("2025-06-10"))
    );

    let (_, benches) = app.get_json("/api/v1/benchmarks?limit=100").await;
    assert!(benches["meta"]["total"].as_u64().unwrap() >= 12);
    let (_, gpqa) = app
        .get_json("/api/v1/benchmarks/gpqa-diamond?limit=5")
        .await;
    let top = gpqa["data"]["top_models"].as_array().unwrap();
    assert_eq!(top.len(), 5);
    let s: Vec<f64> = top.iter().map(|t| t["score"].as_f64().unwrap()).collect();
    assert!(s.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(gpqa["data"]["in_average"], true);
    let (_, arena) = app.get_json("/api/v1/benchmarks/lmarena-text").await;
    assert_eq!(
        (
            arena["data"]["unit"].as_str(),
            arena["data"]["in_average"].as_bool()
        ),
        (Some("elo"), Some(false))
    );

    let (_, providers) = app.get_json("/api/v1/providers?limit=100").await;
    assert!(providers["meta"]["total"].as_u64().unwrap() >= 30);
    let (_, openai) = app.get_json("/api/v1/providers/openai?limit=5").await;
    assert_eq!(openai["data"]["name"], "OpenAI");
    assert_eq!(
        openai["data"]["offerings"]["items"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    assert!(openai["data"]["created_models"]["total"].as_u64().unwrap() > 50);

    let (_, agents) = app.get_json("/api/v1/agents?limit=10").await;
    assert!(agents["meta"]["total"].as_u64().unwrap() >= 200);
    let (_, trae) = app.get_json("/api/v1/agents/trae-doubao-seed-code").await;
    assert_eq!(trae["data"]["organization"], "ByteDance");
    assert_eq!(trae["data"]["scores"][0]["score"], 78.8);
    // Agents the models of which are objects, and a board ranked on one benchmark.
    assert!(
        trae["data"]["models"][0]["slug"].is_string(),
        "{}",
        trae["data"]["models"]
    );
    let (status, verified) = app
        .get_json("/api/v1/agents?benchmark=swe-bench-verified&limit=20")
        .await;
    assert_eq!(status, 200, "{verified}");
    let on_verified: Vec<f64> = verified["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            a["scores"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["benchmark"]["slug"] == "swe-bench-verified")
                .and_then(|s| s["score"].as_f64())
                .expect("each listed agent has a result on the benchmark")
        })
        .collect();
    assert_eq!(on_verified.len(), 20);
    assert!(
        on_verified.windows(2).all(|w| w[0] >= w[1]),
        "{on_verified:?}"
    );
    let (status, unknown) = app.get_json("/api/v1/agents?benchmark=no-such-board").await;
    assert_eq!(status, 400);
    assert_eq!(unknown["param"], "benchmark");
    let catalog = app.state.catalog.snapshot();
    assert!(
        catalog.agents().iter().all(|a| !a.name.contains("()")),
        "an agent named with an empty template"
    );

    let (_, sources) = app.get_json("/api/v1/sources").await;
    let swe = sources["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["slug"] == "swe-bench")
        .unwrap();
    assert_eq!(swe["license"], "CC-BY-NC-4.0");
}

#[tokio::test]
async fn every_bad_parameter_is_a_400_naming_it() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let cases = [
        ("/api/v1/models?sort=cost", "sort"),
        ("/api/v1/models?order=up", "order"),
        ("/api/v1/models?limit=0", "limit"),
        ("/api/v1/models?limit=101", "limit"),
        ("/api/v1/models?page=0", "page"),
        ("/api/v1/models?page=abc", "page"),
        ("/api/v1/models?min_score=NaN", "min_score"),
        ("/api/v1/models?max_price=-1", "max_price"),
        ("/api/v1/models?open_source=maybe", "open_source"),
        ("/api/v1/models?category=video", "category"),
        ("/api/v1/models/search?q=", "q"),
        ("/api/v1/models/search", "q"),
        ("/api/v1/compare?models=a", "models"),
        ("/api/v1/compare?models=a,b,c,d,e,f,g,h,i,j,k", "models"),
        ("/api/v1/pricing?sort=cheap", "sort"),
        ("/api/v1/benchmarks/gpqa-diamond?limit=500", "limit"),
    ];
    for (path, param) in cases {
        let res = app.get(path).await;
        assert_eq!(res.status().as_u16(), 400, "{path}");
        assert_eq!(
            res.headers()["content-type"],
            "application/problem+json",
            "{path}"
        );
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "invalid_parameter", "{path}");
        assert_eq!(body["param"], param, "{path}");
        assert_eq!(body["status"], 400);
        assert!(body["request_id"].as_str().is_some_and(|r| !r.is_empty()));
    }
    // So is a parameter the endpoint does not take.
    assert_eq!(
        app.get("/api/v1/models?colour=blue")
            .await
            .status()
            .as_u16(),
        400
    );
}

#[tokio::test]
async fn unknown_slugs_and_paths_are_404_problems() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for path in [
        "/api/v1/models/no-such-model",
        "/api/v1/pricing/no-such-model",
        "/api/v1/pricing/history/no-such-model",
        "/api/v1/benchmarks/no-such-benchmark",
        "/api/v1/providers/no-such-provider",
        "/api/v1/agents/no-such-agent",
        "/api/v1/models/Not_A_Slug",
        "/api/v1/nothing-here",
        "/nothing",
    ] {
        let res = app.get(path).await;
        assert_eq!(res.status().as_u16(), 404, "{path}");
        assert_eq!(res.headers()["content-type"], "application/problem+json");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "not_found", "{path}");
    }
}

#[tokio::test]
async fn http_niceties() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    // ETag and 304.
    let res = app.get("/api/v1/models/gpt-4o").await;
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    assert_eq!(res.headers()["cache-control"], "public, max-age=60");
    let again = app
        .client
        .get(app.url("/api/v1/models/gpt-4o"))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status().as_u16(), 304);
    assert!(again.bytes().await.unwrap().is_empty());
    // 405 with Allow.
    let res = app
        .client
        .post(app.url("/api/v1/models"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 405);
    assert_eq!(res.headers()["allow"], "GET");
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "method_not_allowed");
    // Compression when asked.
    for enc in ["gzip", "br"] {
        let res = app
            .client
            .get(app.url("/api/v1/models?limit=100"))
            .header("accept-encoding", enc)
            .send()
            .await
            .unwrap();
        assert_eq!(res.headers()["content-encoding"], enc);
    }
    // CORS exposes the rate-limit headers.
    let res = app
        .client
        .get(app.url("/api/v1/models"))
        .header("origin", "https://example.org")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["access-control-allow-origin"], "*");
    let exposed = res.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap()
        .to_lowercase();
    for h in ["x-ratelimit-remaining", "ratelimit", "retry-after", "etag"] {
        assert!(exposed.contains(h), "{h} not exposed: {exposed}");
    }
    // Request ids: echoed when sent, made when not.
    let res = app
        .client
        .get(app.url("/healthz"))
        .header("x-request-id", "abc-123")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-request-id"], "abc-123");
    let res = app.get("/healthz").await;
    assert_eq!(res.headers()["x-request-id"].len(), 32);
    // An over-long query string.
    let long = format!("/api/v1/models?q={}", "x".repeat(3000));
    let res = app.get(&long).await;
    assert_eq!(res.status().as_u16(), 414);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "uri_too_long");
}

/// The REST paths used to compare backends and protocols.
const PATHS: &[&str] = &[
    "/api/v1/models?limit=100&sort=score",
    "/api/v1/models?limit=100&sort=name&page=3",
    "/api/v1/models?limit=50&sort=date&creator=google",
    "/api/v1/models?limit=50&sort=price&order=desc&provider=openrouter",
    "/api/v1/models/search?q=llama&limit=50",
    "/api/v1/models/claude-3-5-sonnet",
    "/api/v1/compare?models=gpt-4o,claude-3-5-sonnet,gemini-2.5-pro",
    "/api/v1/pricing?limit=100",
    "/api/v1/pricing/gpt-4o",
    "/api/v1/pricing/history/o3",
    "/api/v1/benchmarks?limit=100",
    "/api/v1/benchmarks/aider-polyglot?limit=50",
    "/api/v1/providers?limit=100",
    "/api/v1/providers/anthropic?limit=50",
    "/api/v1/agents?limit=100",
    "/api/v1/agents/trae-doubao-seed-code",
    "/api/v1/sources",
];

#[tokio::test]
async fn sqlite_and_postgres_answer_identically() {
    let sqlite = TestApp::spawn(Backend::Sqlite).await;
    let postgres = TestApp::spawn(Backend::Postgres).await;
    for path in PATHS {
        let (a, b) = (sqlite.get_json(path).await, postgres.get_json(path).await);
        assert_eq!(a.0, 200, "{path}");
        // Each instance writes its URLs from its own address.
        let a = a.1.to_string().replace(&sqlite.base, "BASE");
        let b = b.1.to_string().replace(&postgres.base, "BASE");
        assert_eq!(a, b, "{path} differs between SQLite and PostgreSQL");
    }
}

/// GraphQL's answer as REST spells it: a vocabulary field's enum value (`FIRST_PARTY`) is
/// REST's stored name in lower case (`first_party`), as `graphql::sorted` writes it.
fn rest_spelling(v: &mut Value) {
    const ENUM_FIELDS: [&str; 6] = ["kind", "task", "category", "rank_basis", "basis", "status"];
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match x {
                    Value::String(s) if ENUM_FIELDS.contains(&k.as_str()) => {
                        *s = s.to_ascii_lowercase();
                    }
                    _ => rest_spelling(x),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(rest_spelling),
        _ => {}
    }
}

#[tokio::test]
async fn rest_equals_its_graphql_document() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    // Each path with the variables its row builds: the same document over /graphql.
    let cases: &[(&str, &str, Value)] = &[
        (
            "/api/v1/models?limit=10&sort=price",
            "/api/v1/models",
            json!({"first": 10, "offset": 0, "sort": "PRICE"}),
        ),
        (
            "/api/v1/models/search?q=gemini&limit=7&page=2",
            "/api/v1/models/search",
            json!({"q": "gemini", "first": 7, "offset": 7}),
        ),
        (
            "/api/v1/models/gpt-4o",
            "/api/v1/models/{slug}",
            json!({"slug": "gpt-4o"}),
        ),
        (
            "/api/v1/compare?models=gpt-4o,o3",
            "/api/v1/compare",
            json!({"models": ["gpt-4o", "o3"]}),
        ),
        (
            "/api/v1/pricing?limit=5",
            "/api/v1/pricing",
            json!({"first": 5, "offset": 0}),
        ),
        (
            "/api/v1/pricing/gpt-4o",
            "/api/v1/pricing/{slug}",
            json!({"slug": "gpt-4o"}),
        ),
        (
            "/api/v1/pricing/history/o3",
            "/api/v1/pricing/history/{slug}",
            json!({"slug": "o3"}),
        ),
        (
            "/api/v1/benchmarks?limit=5",
            "/api/v1/benchmarks",
            json!({"first": 5, "offset": 0}),
        ),
        (
            "/api/v1/benchmarks/gpqa-diamond",
            "/api/v1/benchmarks/{slug}",
            json!({"slug": "gpqa-diamond"}),
        ),
        (
            "/api/v1/providers?limit=5",
            "/api/v1/providers",
            json!({"first": 5, "offset": 0}),
        ),
        (
            "/api/v1/providers/openai?limit=3",
            "/api/v1/providers/{slug}",
            json!({"slug": "openai", "first": 3, "offset": 0}),
        ),
        (
            "/api/v1/agents?limit=5",
            "/api/v1/agents",
            json!({"first": 5, "offset": 0}),
        ),
        (
            "/api/v1/agents/trae-doubao-seed-code",
            "/api/v1/agents/{slug}",
            json!({"slug": "trae-doubao-seed-code"}),
        ),
        ("/api/v1/sources", "/api/v1/sources", json!({})),
    ];
    for (path, route, vars) in cases {
        let ep = mds::rest::table::ENDPOINTS
            .iter()
            .find(|e| e.path == *route)
            .unwrap();
        let (status, rest) = app.get_json(path).await;
        assert_eq!(status, 200, "{path}");
        let mut gql = app.graphql(ep.document, vars.clone()).await;
        assert!(gql.get("errors").is_none(), "{path}: {gql}");
        rest_spelling(&mut gql);
        let result = &gql["data"]["result"];
        match ep.shape {
            mds::rest::table::Shape::List => {
                assert_eq!(rest["data"], result["items"], "{path}");
                assert_eq!(rest["meta"]["total"], result["total"], "{path}");
            }
            mds::rest::table::Shape::Item => assert_eq!(&rest["data"], result, "{path}"),
        }
    }
    // And against a hand-written GraphQL query in GraphQL's own names.
    let gql = app
        .graphql("{ models(first: 3, sort: PRICE, order: DESC) { totalCount nodes { slug inputPrice averageScore } } }", json!({}))
        .await;
    let (_, rest) = app
        .get_json("/api/v1/models?limit=3&sort=price&order=desc")
        .await;
    for (r, g) in rest["data"]
        .as_array()
        .unwrap()
        .iter()
        .zip(gql["data"]["models"]["nodes"].as_array().unwrap())
    {
        assert_eq!(r["slug"], g["slug"]);
        assert_eq!(r["input_price"], g["inputPrice"]);
        assert_eq!(r["average_score"], g["averageScore"]);
    }
    assert_eq!(rest["meta"]["total"], gql["data"]["models"]["totalCount"]);
}

/// A validator for the JSON Schema subset the OpenAPI document uses.
fn validate(schema: &Value, value: &Value, root: &Value, path: &str) -> Result<(), String> {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/components/schemas/");
        return validate(&root["components"]["schemas"][name], value, root, path);
    }
    if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
        let ok = options
            .iter()
            .filter(|o| validate(o, value, root, path).is_ok())
            .count();
        return if ok == 1 {
            Ok(())
        } else {
            Err(format!("{path}: {ok} oneOf branches match"))
        };
    }
    if let Some(c) = schema.get("const") {
        return if c == value {
            Ok(())
        } else {
            Err(format!("{path}: expected {c}"))
        };
    }
    if let Some(e) = schema.get("enum").and_then(Value::as_array)
        && !e.contains(value)
    {
        return Err(format!("{path}: {value} not in enum"));
    }
    if let Some(t) = schema.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let ok = types.iter().any(|t| match *t {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            _ => false,
        });
        if !ok {
            return Err(format!("{path}: {value} is not {types:?}"));
        }
    }
    if let (Some(props), Some(obj)) = (
        schema.get("properties").and_then(Value::as_object),
        value.as_object(),
    ) {
        for req in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let k = req.as_str().unwrap();
            if !obj.contains_key(k) {
                return Err(format!("{path}: missing {k}"));
            }
        }
        for (k, v) in obj {
            match props.get(k) {
                Some(s) => validate(s, v, root, &format!("{path}.{k}"))?,
                None => return Err(format!("{path}: {k} is not described")),
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), value.as_array()) {
        for (i, v) in arr.iter().enumerate() {
            validate(items, v, root, &format!("{path}[{i}]"))?;
        }
    }
    Ok(())
}

#[tokio::test]
async fn responses_match_the_openapi_document() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, doc) = app.get_json("/api/v1/openapi.json").await;
    assert_eq!(status, 200);
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(
        doc["paths"].as_object().unwrap().len(),
        mds::rest::table::ENDPOINTS.len() + 2,
        "every table row, the bulk export and the Atom feed"
    );
    let samples = [
        ("/api/v1/models", "/api/v1/models?limit=100"),
        ("/api/v1/models/search", "/api/v1/models/search?q=claude"),
        ("/api/v1/models/{slug}", "/api/v1/models/gpt-4o"),
        (
            "/api/v1/models/lookup",
            "/api/v1/models/lookup?id=openai%2Fgpt-4o",
        ),
        (
            "/api/v1/compare",
            "/api/v1/compare?models=gpt-4o,claude-3-5-sonnet",
        ),
        ("/api/v1/pricing", "/api/v1/pricing?limit=100"),
        ("/api/v1/pricing/{slug}", "/api/v1/pricing/gpt-4o"),
        (
            "/api/v1/pricing/history/{slug}",
            "/api/v1/pricing/history/o3",
        ),
        ("/api/v1/benchmarks", "/api/v1/benchmarks?limit=100"),
        (
            "/api/v1/benchmarks/{slug}",
            "/api/v1/benchmarks/gpqa-diamond",
        ),
        ("/api/v1/providers", "/api/v1/providers?limit=100"),
        ("/api/v1/providers/{slug}", "/api/v1/providers/openai"),
        ("/api/v1/agents", "/api/v1/agents?limit=100"),
        (
            "/api/v1/agents/{slug}",
            "/api/v1/agents/trae-doubao-seed-code",
        ),
        ("/api/v1/sources", "/api/v1/sources"),
        ("/api/v1/dataset", "/api/v1/dataset"),
        (
            "/api/v1/cost",
            "/api/v1/cost?models=gpt-4o,claude-sonnet-4-5&input_tokens=300000&cached_input_tokens=1000&output_tokens=5000",
        ),
        (
            "/api/v1/recommend",
            "/api/v1/recommend?provenance=all&domain=coding&limit=100",
        ),
        ("/api/v1/economy", "/api/v1/economy"),
        ("/api/v1/economy/{slug}", "/api/v1/economy/open-weights-gap"),
        ("/api/v1/changes", "/api/v1/changes?limit=100"),
        ("/api/v1/retirements", "/api/v1/retirements?limit=100"),
    ];
    assert_eq!(
        samples.len(),
        mds::rest::table::ENDPOINTS.len(),
        "a sample for every endpoint"
    );
    for (route, path) in samples {
        let (status, body) = app.get_json(path).await;
        assert_eq!(status, 200, "{path}");
        let schema = &doc["paths"][route]["get"]["responses"]["200"]["content"]["application/json"]
            ["schema"];
        validate(schema, &body, &doc, path).unwrap();
    }
    let (_, problem) = app.get_json("/api/v1/models?limit=0").await;
    validate(
        &doc["components"]["schemas"]["Problem"],
        &problem,
        &doc,
        "problem",
    )
    .unwrap();
    let docs = app.get("/docs").await.text().await.unwrap();
    assert!(docs.contains("/api/v1/openapi.json") && !docs.contains("https://cdn"));
    let printed: Value = serde_json::from_str(&mds::rest::openapi::document_json()).unwrap();
    assert_eq!(printed, doc);
}

#[tokio::test]
async fn both_backends_serve_every_endpoint() {
    for backend in BACKENDS {
        let app = TestApp::spawn(backend).await;
        for ep in mds::rest::table::ENDPOINTS {
            let path = ep
                .path
                .replace("/models/{slug}", "/models/gpt-4o")
                .replace("/pricing/{slug}", "/pricing/gpt-4o")
                .replace("/history/{slug}", "/history/gpt-4o")
                .replace("/benchmarks/{slug}", "/benchmarks/mmlu")
                .replace("/providers/{slug}", "/providers/google")
                .replace("/agents/{slug}", "/agents/trae-doubao-seed-code");
            let path = match ep.path {
                "/api/v1/compare" => "/api/v1/compare?models=gpt-4o,o3".to_string(),
                "/api/v1/models/search" => "/api/v1/models/search?q=qwen".to_string(),
                "/api/v1/models/lookup" => {
                    "/api/v1/models/lookup?id=Qwen%2FQwen3.5-27B".to_string()
                }
                "/api/v1/cost" => {
                    "/api/v1/cost?models=gpt-4o&input_tokens=1000&output_tokens=100".to_string()
                }
                "/api/v1/economy/{slug}" => "/api/v1/economy/frontier-price".to_string(),
                _ => path,
            };
            let (status, body) = app.get_json(&path).await;
            assert_eq!(status, 200, "{backend:?} {path}: {body}");
            assert!(
                body["data"].is_object() || body["data"].as_array().is_some_and(|a| !a.is_empty()),
                "{path}"
            );
        }
    }
}

/// Arrays cut to their first two items, at every depth: an example shows the shape.
fn shortened(v: &Value) -> Value {
    match v {
        Value::Array(a) => Value::Array(a.iter().take(2).map(shortened).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, v)| (k.clone(), shortened(v))).collect())
        }
        other => other.clone(),
    }
}

/// Each operation's documented example is the real answer to its sample request (arrays
/// shortened) and matches the operation's schema. After a data or schema change, rewrite
/// the examples with `MDS_BLESS_EXAMPLES=1 cargo test openapi_examples`.
#[tokio::test]
async fn openapi_examples_are_real_answers_and_match_their_schemas() {
    // The documented examples' URLs are the README's address, not a test's random port.
    let config = mds::config::ServeConfig {
        public_url: "http://127.0.0.1:8080".into(),
        ..mds::config::ServeConfig::default()
    };
    let app = TestApp::spawn_with(Backend::Sqlite, config).await;
    let (_, doc) = app.get_json("/api/v1/openapi.json").await;
    let mut examples = serde_json::Map::new();
    for ep in mds::rest::table::ENDPOINTS {
        assert!(
            ep.sample.starts_with(ep.path.split('{').next().unwrap()),
            "{}",
            ep.path
        );
        let (status, body) = app.get_json(ep.sample).await;
        assert_eq!(status, 200, "{}: {body}", ep.sample);
        let mut example = shortened(&body);
        // When this instance imported its dataset is the one field no two runs share.
        if let Some(t) = example["data"].get_mut("imported_at") {
            *t = Value::from("2026-11-24T00:00:00Z");
        }
        let schema = &doc["paths"][ep.path]["get"]["responses"]["200"]["content"]["application/json"]
            ["schema"];
        validate(schema, &example, &doc, ep.sample).unwrap();
        examples.insert(ep.path.to_string(), example);
    }
    // The two answers that are not JSON: the feed whole, the CSV's header and two rows.
    use mds::rest::openapi::{ATOM_SAMPLE, EXPORT_SAMPLE};
    let atom = app.get(ATOM_SAMPLE).await.text().await.unwrap();
    feed_rs::parser::parse(atom.as_bytes()).expect("the Atom example parses");
    examples.insert("/api/v1/changes.atom".into(), Value::String(atom));
    let csv = app.get(EXPORT_SAMPLE).await.text().await.unwrap();
    let head: Vec<&str> = csv.lines().take(3).collect();
    examples.insert(
        "/api/v1/export/{file}".into(),
        Value::String(head.join("\n") + "\n"),
    );
    let examples = Value::Object(examples);
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/openapi-examples.json");
    if std::env::var_os("MDS_BLESS_EXAMPLES").is_some() {
        std::fs::write(
            file,
            serde_json::to_string_pretty(&examples).unwrap() + "\n",
        )
        .unwrap();
        return;
    }
    let checked_in: Value = serde_json::from_str(mds::rest::openapi::EXAMPLES).unwrap();
    for ep in mds::rest::table::ENDPOINTS {
        assert_eq!(
            checked_in[ep.path], examples[ep.path],
            "{}: the documented example is not the answer; rerun with MDS_BLESS_EXAMPLES=1",
            ep.path
        );
        let documented = &doc["paths"][ep.path]["get"]["responses"]["200"]["content"]["application/json"]
            ["example"];
        assert_eq!(documented, &examples[ep.path], "{}", ep.path);
    }
    for (path, media) in [
        ("/api/v1/changes.atom", "application/atom+xml"),
        ("/api/v1/export/{file}", "text/csv"),
    ] {
        assert_eq!(
            checked_in[path], examples[path],
            "{path}: rerun with MDS_BLESS_EXAMPLES=1"
        );
        assert_eq!(
            doc["paths"][path]["get"]["responses"]["200"]["content"][media]["example"],
            examples[path],
            "{path}"
        );
    }
}

/// `/docs` as a person sees it: Swagger UI (bundled, no CDN) lists every endpoint of the
/// OpenAPI document, and the page states this instance's configured limits.
#[tokio::test]
async fn docs_render_every_endpoint_and_the_configured_limits() {
    let config = mds::config::ServeConfig {
        free_limit: 42,
        authenticated_limit: 4200,
        ..Default::default()
    };
    let app = TestApp::spawn_with(Backend::Sqlite, config).await;
    let page = app.get("/docs").await.text().await.unwrap();
    assert!(!page.contains("https://"), "nothing from a CDN");
    for asset in ["swagger-ui-bundle.js", "swagger-ui.css"] {
        let res = app.get(&format!("/assets/swagger-ui/{asset}")).await;
        assert_eq!(res.status().as_u16(), 200, "{asset}");
    }
    let (dom, stderr) = crate::helpers::rendered_dom(&app, "/docs").await;
    assert!(
        dom.contains("<strong id=\"free-limit\">42</strong>")
            && dom.contains("<strong id=\"key-limit\">4200</strong>"),
        "the configured limits"
    );
    assert!(
        dom.contains("opblock"),
        "Swagger UI did not render: {stderr} {}",
        &dom[..dom.len().min(3000)]
    );
    let (_, doc) = app.get_json("/api/v1/openapi.json").await;
    for path in doc["paths"].as_object().unwrap().keys() {
        assert!(
            dom.contains(&format!("data-path=\"{path}\"")),
            "{path} is not listed on /docs"
        );
    }
}

/// Enum values, booleans and slugs match whatever their case: `creator=OpenAI` is OpenAI's
/// models, `task=Chat` the chat models, `open_source=TRUE` the open ones.
#[tokio::test]
async fn enum_values_and_slugs_are_case_insensitive() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (mixed, lower) in [
        (
            "/api/v1/models?creator=OpenAI&task=Chat",
            "/api/v1/models?creator=openai&task=chat",
        ),
        (
            "/api/v1/models?open_source=TRUE&sort=Name",
            "/api/v1/models?open_source=true&sort=name",
        ),
        (
            "/api/v1/compare?models=GPT-4o,Claude-Sonnet-4-5",
            "/api/v1/compare?models=gpt-4o,claude-sonnet-4-5",
        ),
    ] {
        let (status, a) = app.get_json(mixed).await;
        assert_eq!(status, 200, "{mixed}: {a}");
        let (_, b) = app.get_json(lower).await;
        assert_eq!(a["data"], b["data"], "{mixed}");
    }
}

/// Browsers find the site's icon where they look for it, and the pages point to it.
#[tokio::test]
async fn the_favicon_is_served() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let r = app.get("/favicon.ico").await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "image/svg+xml");
    assert!(r.text().await.unwrap().starts_with("<svg"));
    let docs = app.get("/docs").await.text().await.unwrap();
    assert!(docs.contains(r#"rel="icon" href="/assets/site/favicon.svg""#));
}

/// What a client generator reads: one tag per area and operation ids it turns into good
/// names (`list_models`, `get_model`, `compare_models`), all distinct.
#[tokio::test]
async fn operations_have_names_and_areas() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, doc) = app.get_json("/api/v1/openapi.json").await;
    let op = |path: &str| &doc["paths"][path]["get"];
    assert_eq!(op("/api/v1/models")["operationId"], "list_models");
    assert_eq!(op("/api/v1/models/{slug}")["operationId"], "get_model");
    assert_eq!(op("/api/v1/compare")["operationId"], "compare_models");
    assert_eq!(op("/api/v1/cost")["tags"][0], "prices");
    // An object that may be null is a named component (`Cheapest | None`), never an inline
    // object a generator names `ModelSummaryCheapestType0`.
    let text = doc.to_string();
    assert!(
        !text.contains(r#""oneOf":[{"properties""#),
        "an inline nullable object"
    );
    assert!(
        !text.contains(r#""oneOf":[{"type":"object""#),
        "an inline nullable object"
    );
    for name in ["Named", "Cheapest", "UpcomingPrice", "BaseModel", "Point"] {
        assert!(doc["components"]["schemas"][name].is_object(), "{name}");
    }
    let mut ids = std::collections::BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        let get = &item["get"];
        let id = get["operationId"].as_str().unwrap();
        assert!(ids.insert(id.to_string()), "{id} twice");
        assert!(!id.starts_with("get_api"), "{path}: {id}");
        let tag = get["tags"][0].as_str().unwrap();
        assert_ne!(tag, "other", "{path} has no area");
        assert!(
            doc["tags"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["name"] == tag),
            "{path}: undeclared tag {tag}"
        );
    }
}

/// Freshness (2): every answer says how recent its prices and its benchmark scores are —
/// the newest observation among the sources that gave each — so a ranking reads
/// "benchmarks as of …" rather than the dataset's date, set by its freshest source.
#[tokio::test]
async fn answers_say_how_recent_prices_and_benchmarks_are() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, list) = app.get_json("/api/v1/models?limit=1").await;
    let meta = &list["meta"]["dataset"];
    let prices = meta["prices_as_of"].as_str().unwrap().to_string();
    let benchmarks = meta["benchmarks_as_of"].as_str().unwrap().to_string();
    let date = meta["date"].as_str().unwrap();
    assert!(
        prices.as_str() <= date && benchmarks.as_str() <= date,
        "{meta}"
    );
    // Each is the newest observation of a source that gave rows of its area.
    let catalog = app.state.catalog.snapshot();
    let scored: std::collections::HashSet<&str> = catalog
        .all_scores()
        .iter()
        .map(|s| s.source.as_str())
        .collect();
    let (_, sources) = app.get_json("/api/v1/sources").await;
    let newest_scored = sources["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| scored.contains(s["slug"].as_str().unwrap()))
        .map(|s| s["snapshot_date"].as_str().unwrap().to_string())
        .max()
        .unwrap();
    assert_eq!(benchmarks, newest_scored);
    let (_, dataset) = app.get_json("/api/v1/dataset").await;
    assert_eq!(dataset["data"]["benchmarks_as_of"], benchmarks.as_str());
    assert_eq!(dataset["data"]["prices_as_of"], prices.as_str());
}
