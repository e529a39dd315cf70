//! The MCP face at `/mcp` (docs/mcp.md): the handshake, the tool list, every tool's answer
//! equal to REST's for the same question, REST's error codes and parameter names, the
//! hourly limit (a call counts once, a listing not at all) and the response cache.

use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp};

/// One JSON-RPC request to `/mcp`, as a streamable-HTTP client sends it.
async fn rpc(app: &TestApp, method: &str, params: Value) -> reqwest::Response {
    app.client
        .post(app.url("/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
        .send()
        .await
        .unwrap()
}

async fn result(app: &TestApp, method: &str, params: Value) -> Value {
    let res = rpc(app, method, params).await;
    assert_eq!(res.status().as_u16(), 200, "{method}");
    let body: Value = res.json().await.unwrap();
    assert!(body.get("error").is_none(), "{method}: {body}");
    body["result"].clone()
}

async fn call(app: &TestApp, tool: &str, args: Value) -> Value {
    result(app, "tools/call", json!({"name": tool, "arguments": args})).await
}

/// A tool error's problem: the JSON its text carries.
fn problem(result: &Value) -> Value {
    assert_eq!(result["isError"], true, "{result}");
    serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap()
}

#[tokio::test]
async fn the_handshake_lists_every_tool_with_its_schemas() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let init = result(
        &app,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    )
    .await;
    assert_eq!(init["serverInfo"]["name"], "mds");
    assert!(init["capabilities"]["tools"].is_object());
    assert!(init["capabilities"]["resources"].is_object());
    let tools = result(&app, "tools/list", json!({})).await;
    let tools = tools["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "find_models",
            "get_model",
            "compare_models",
            "estimate_cost",
            "recommend_models",
            "price_history",
            "recent_changes",
            "list_retirements",
            "leaderboard",
            "list_providers"
        ]
    );
    for t in tools {
        assert_eq!(t["inputSchema"]["type"], "object", "{}", t["name"]);
        assert_eq!(t["outputSchema"]["type"], "object", "{}", t["name"]);
        assert!(t["outputSchema"]["$defs"].is_object(), "{}", t["name"]);
        assert_eq!(t["annotations"]["readOnlyHint"], true);
        // Every argument says what it means: the same text as REST's and the schema's.
        for (name, arg) in t["inputSchema"]["properties"].as_object().unwrap() {
            let described = arg["description"].as_str().unwrap_or_default();
            assert!(!described.trim().is_empty(), "{}.{name}", t["name"]);
        }
    }
}

/// Each tool's question, and the REST request that asks the same.
const QUESTIONS: &[(&str, &str, &str)] = &[
    (
        "find_models",
        r#"{"tool_call": true, "sort": "capability", "limit": 5}"#,
        "/api/v1/models?tool_call=true&sort=capability&limit=5",
    ),
    (
        "get_model",
        r#"{"id": "openai/gpt-4o"}"#,
        "/api/v1/models/lookup?id=openai%2Fgpt-4o",
    ),
    (
        "compare_models",
        r#"{"models": ["gpt-4o", "claude-3-5-sonnet"]}"#,
        "/api/v1/compare?models=gpt-4o,claude-3-5-sonnet",
    ),
    (
        "estimate_cost",
        r#"{"models": ["gpt-4o"], "input_tokens": 2000, "output_tokens": 500, "requests": 1000, "mode": "batch"}"#,
        "/api/v1/cost?models=gpt-4o&input_tokens=2000&output_tokens=500&requests=1000&mode=batch",
    ),
    (
        "recommend_models",
        r#"{"tool_call": true, "min_context": 100000, "input_tokens": 2000, "output_tokens": 500, "requests": 1000}"#,
        "/api/v1/recommend?tool_call=true&min_context=100000&input_tokens=2000&output_tokens=500&requests=1000",
    ),
    (
        "price_history",
        r#"{"slug": "o3"}"#,
        "/api/v1/pricing/history/o3",
    ),
    (
        "recent_changes",
        r#"{"type": "price", "limit": 5}"#,
        "/api/v1/changes?type=price&limit=5",
    ),
    (
        "list_retirements",
        r#"{"from": "2026-11-01", "creator": "openai", "limit": 5}"#,
        "/api/v1/retirements?from=2026-11-01&creator=openai&limit=5",
    ),
    (
        "leaderboard",
        r#"{"slug": "gpqa-diamond", "limit": 5}"#,
        "/api/v1/benchmarks/gpqa-diamond?limit=5",
    ),
    (
        "list_providers",
        r#"{"limit": 5}"#,
        "/api/v1/providers?limit=5",
    ),
];

/// Parity: every tool's structured answer is the REST answer to the same question, and its
/// text a compact Markdown table.
#[tokio::test]
async fn every_tool_answers_as_rest_does() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    assert_eq!(QUESTIONS.len(), mds::mcp::tools::TOOLS.len());
    for (tool, args, path) in QUESTIONS {
        let args: Value = serde_json::from_str(args).unwrap();
        let answer = call(&app, tool, args).await;
        assert_eq!(answer["isError"], false, "{tool}: {answer}");
        let (status, rest) = app.get_json(path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(answer["structuredContent"], rest, "{tool}");
        let text = answer["content"][0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("### ") && text.contains("|---|"),
            "{tool}: {text}"
        );
        // A few hundred tokens: at most ~4 characters a token.
        assert!(text.len() < 4000, "{tool}: {} bytes", text.len());
        if *tool == "recommend_models" {
            let frontier = rest["data"]["frontier"].as_array().unwrap();
            assert!(!frontier.is_empty());
            for r in frontier {
                assert!(
                    text.contains(r["reason"].as_str().unwrap()),
                    "each reason whole"
                );
            }
        }
    }
}

/// The front service's verdict reaches the tools: a key's call is Authenticated (its own
/// limit, no attribution in the answer), as its REST request is; a bad key is REST's 401.
#[tokio::test]
async fn a_key_is_honoured_on_a_call() {
    let app = TestApp::spawn_with(Backend::Sqlite, limited(5)).await;
    let db = mds::store::connect(&app.database_url).await.unwrap();
    let created = mds::store::keys::create(&db, "agent", mds::config::KeyTier::Authenticated)
        .await
        .unwrap();
    let post = |key: &str| {
        app.client
            .post(app.url("/mcp"))
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .header("authorization", format!("Bearer {key}"))
            .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "list_providers", "arguments": {"limit": 2}}}))
            .send()
    };
    let res = post(&created.key).await.unwrap();
    let policy = res.headers()["ratelimit-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(policy.starts_with("\"authenticated\""), "{policy}");
    let body: Value = res.json().await.unwrap();
    let answer = &body["result"]["structuredContent"];
    assert!(answer["meta"].get("attribution").is_none(), "{answer}");
    let rest: Value = app
        .get_with_key("/api/v1/providers?limit=2", &created.key)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(answer, &rest);
    // Free answers carry it.
    let free = call(&app, "list_providers", json!({"limit": 2})).await;
    assert!(free["structuredContent"]["meta"]["attribution"].is_string());
    let res = post("mds_not_a_real_key").await.unwrap();
    assert_eq!(res.status().as_u16(), 401);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["code"], "invalid_api_key");
}

#[tokio::test]
async fn tool_errors_carry_rest_codes_and_parameter_names() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let cases = [
        ("find_models", json!({"limit": 0}), "/api/v1/models?limit=0"),
        (
            "find_models",
            json!({"max_prize": 3}),
            "/api/v1/models?max_prize=3",
        ),
        (
            "estimate_cost",
            json!({"models": ["gpt-4o"], "input_tokens": -1, "output_tokens": 1}),
            "/api/v1/cost?models=gpt-4o&input_tokens=-1&output_tokens=1",
        ),
        (
            "recommend_models",
            json!({"domain": "cooking"}),
            "/api/v1/recommend?domain=cooking",
        ),
        (
            "get_model",
            json!({"id": "gpt-4oo-mini"}),
            "/api/v1/models/lookup?id=gpt-4oo-mini",
        ),
    ];
    for (tool, args, path) in cases {
        let p = problem(&call(&app, tool, args).await);
        let (status, rest) = app.get_json(path).await;
        assert!(status >= 400, "{path}");
        for k in ["code", "param", "status", "closest"] {
            assert_eq!(p.get(k), rest.get(k), "{tool}: {k}");
        }
    }
    // A value of the wrong JSON type names its argument.
    let p = problem(&call(&app, "compare_models", json!({"models": "gpt-4o,o3"})).await);
    assert_eq!(
        (p["code"].as_str(), p["param"].as_str()),
        (Some("invalid_parameter"), Some("models"))
    );
    let p = problem(&call(&app, "no_such_tool", json!({})).await);
    assert_eq!(p["param"], "name");
}

fn limited(free: u64) -> mds::config::ServeConfig {
    mds::config::ServeConfig {
        free_limit: free,
        ..mds::config::ServeConfig::default()
    }
}

/// A tool call counts as one request; the handshake and listings are free. Over the limit a
/// call is answered as REST's 429 is.
#[tokio::test]
async fn a_call_counts_once_and_is_limited_as_rest_is() {
    let app = TestApp::spawn_with(Backend::Sqlite, limited(2)).await;
    for _ in 0..3 {
        let res = rpc(&app, "tools/list", json!({})).await;
        assert_eq!(res.status().as_u16(), 200);
        assert!(res.headers().get("x-ratelimit-used").is_none());
    }
    let res = rpc(
        &app,
        "tools/call",
        json!({"name": "list_providers", "arguments": {}}),
    )
    .await;
    assert_eq!(res.headers()["x-ratelimit-used"], "1");
    assert_eq!(res.headers()["x-ratelimit-resource"], "mcp");
    let res = rpc(
        &app,
        "tools/call",
        json!({"name": "list_providers", "arguments": {}}),
    )
    .await;
    assert_eq!(res.headers()["x-ratelimit-used"], "2");
    let mcp = rpc(
        &app,
        "tools/call",
        json!({"name": "list_providers", "arguments": {}}),
    )
    .await;
    let rest = app.get("/api/v1/providers").await;
    for res in [mcp, rest] {
        assert_eq!(res.status().as_u16(), 429);
        assert!(res.headers().contains_key("retry-after"));
        assert_eq!(res.headers()["content-type"], "application/problem+json");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "rate_limited");
    }
    // A body past the cap is refused before any parsing, and not counted.
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"x":"{}"}}}}"#,
        "a".repeat(70_000)
    );
    let res = app
        .client
        .post(app.url("/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 413);
    assert_eq!(res.headers()["content-type"], "application/problem+json");
    // The listing stays free past the limit.
    assert_eq!(
        rpc(&app, "tools/list", json!({})).await.status().as_u16(),
        200
    );
}

#[tokio::test]
async fn a_repeated_call_is_answered_from_the_cache() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let args = json!({"tool_call": true, "limit": 3});
    // Asked as the SDKs' HTTP clients ask, accepting compressed answers: the answer is
    // stored all the same.
    let res = app
        .client
        .post(app.url("/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .header("accept-encoding", "gzip, br")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "recommend_models", "arguments": args}}))
        .send()
        .await
        .unwrap();
    let first: Value = serde_json::from_slice(&res.bytes().await.unwrap()).unwrap();
    let first = first["result"].clone();
    let (hits, _) = app.state.cache.counts();
    let again = call(&app, "recommend_models", args).await;
    assert_eq!(app.state.cache.counts().0, hits + 1, "one more hit");
    assert_eq!(first, again);
    // A hit answers the message it was asked by: its own id.
    let res = app
        .client
        .post(app.url("/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .json(
            &json!({"jsonrpc": "2.0", "id": "second-ask", "method": "tools/call",
            "params": {"name": "recommend_models", "arguments": {"tool_call": true, "limit": 3}}}),
        )
        .send()
        .await
        .unwrap();
    let body: Value = res.json().await.unwrap();
    assert_eq!(app.state.cache.counts().0, hits + 2);
    assert_eq!(body["id"], "second-ask");
    assert_eq!(body["result"], first);
    let hits = hits + 1;
    // Other arguments are another entry.
    call(
        &app,
        "recommend_models",
        json!({"tool_call": true, "limit": 2}),
    )
    .await;
    assert_eq!(app.state.cache.counts().0, hits + 1);
    // A tool error is never stored: asked twice, it misses twice.
    let (before, _) = app.state.cache.counts();
    for _ in 0..2 {
        problem(&call(&app, "find_models", json!({"limit": 0})).await);
    }
    assert_eq!(app.state.cache.counts().0, before);
}

#[tokio::test]
async fn resources_are_the_dataset_and_each_model() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let list = result(&app, "resources/list", json!({})).await;
    let uris: Vec<&str> = list["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris, ["mds://dataset", "mds://sources"]);
    let templates = result(&app, "resources/templates/list", json!({})).await;
    assert_eq!(
        templates["resourceTemplates"][0]["uriTemplate"],
        "mds://models/{slug}"
    );
    for (uri, path) in [
        ("mds://models/gpt-4o", "/api/v1/models/gpt-4o"),
        ("mds://dataset", "/api/v1/dataset"),
    ] {
        let read = result(&app, "resources/read", json!({"uri": uri})).await;
        let text = read["contents"][0]["text"].as_str().unwrap();
        let got: Value = serde_json::from_str(text).unwrap();
        let (_, rest) = app.get_json(path).await;
        assert_eq!(got["data"]["slug"], rest["data"]["slug"], "{uri}");
        assert_eq!(got["data"]["version"], rest["data"]["version"], "{uri}");
    }
    let res = rpc(
        &app,
        "resources/read",
        json!({"uri": "mds://models/no-such-model-x"}),
    )
    .await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["data"]["code"], "not_found");
}

/// `mds mcp` speaks the same tools over stdio, one JSON-RPC message a line, with nothing but
/// protocol on stdout; a call's answer is the one `/mcp` gives.
#[tokio::test]
async fn mds_mcp_serves_the_tools_over_stdio() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let url = crate::helpers::fresh_database(Backend::Sqlite).await;
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mds"))
        .arg("mcp")
        .env("DATABASE_URL", &url)
        .env_remove("REDIS_URL")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_model", "arguments": {"id": "openai/gpt-4o"}}}),
    ];
    for m in messages {
        stdin.write_all(format!("{m}\n").as_bytes()).await.unwrap();
    }
    stdin.flush().await.unwrap();
    let mut answers = Vec::new();
    while answers.len() < 2 {
        let line = tokio::time::timeout(std::time::Duration::from_secs(60), lines.next_line())
            .await
            .expect("an answer within a minute")
            .unwrap()
            .expect("stdout open");
        // Every line on stdout is a protocol message.
        let v: Value = serde_json::from_str(&line).unwrap();
        if v.get("id").is_some() {
            answers.push(v);
        }
    }
    assert_eq!(answers[0]["result"]["serverInfo"]["name"], "mds");
    let got = &answers[1]["result"]["structuredContent"];
    let app = TestApp::spawn_on(&url, mds::config::ServeConfig::default()).await;
    let over_http = call(&app, "get_model", json!({"id": "openai/gpt-4o"})).await;
    assert_eq!(got["data"], over_http["structuredContent"]["data"]);
    assert_eq!(
        got["data"]["slug"]
            .as_str()
            .map(|s| s.starts_with("gpt-4o")),
        Some(true)
    );
    drop(stdin);
    let _ = child.wait().await;
}

/// Rankings (#35, 3): wherever the tools list models, each row says what its index rests on
/// (`basis`: a maker's claims alone read `self_reported`) and the day it retires, if its
/// creator announced one.
#[tokio::test]
async fn listed_models_carry_their_basis_and_retirement() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let answer = call(&app, "find_models", json!({"limit": 20})).await;
    let text = answer["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("| basis | retires |"), "{text}");
    let rows = answer["structuredContent"]["data"].as_array().unwrap();
    let retiring = rows
        .iter()
        .find(|m| m["deprecation_date"].is_string())
        .expect("a retiring model in the default top 20");
    let date = retiring["deprecation_date"].as_str().unwrap();
    assert!(text.contains(date), "{text}");
    let claims = call(
        &app,
        "find_models",
        json!({"basis": "self_reported", "limit": 5}),
    )
    .await;
    let text = claims["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("| self_reported |"), "{text}");
    let compared = call(
        &app,
        "compare_models",
        json!({"models": ["fugu-ultra-20260615", "gpt-5.5"]}),
    )
    .await;
    let text = compared["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("| basis |"), "{text}");
    assert!(
        text.contains("self_reported") && text.contains("independent"),
        "{text}"
    );
    // A board no third party measured says why its leaderboard is empty.
    let board = call(&app, "leaderboard", json!({"slug": "humanitys-last-exam"})).await;
    assert_eq!(board["structuredContent"]["data"]["claims_only"], true);
    let text = board["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("Only makers' own figures"), "{text}");
    let measured = call(&app, "leaderboard", json!({"slug": "gpqa-diamond"})).await;
    let text = measured["content"][0]["text"].as_str().unwrap();
    assert!(!text.contains("Only makers' own figures"), "{text}");
}
