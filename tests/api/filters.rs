//! The filters people ask for (capability, flags, modalities, context; offering kinds) and the
//! cost of a workload, as a client sends them.

use serde_json::Value;

use crate::helpers::{Backend, TestApp, non_empty};

fn rows(body: &Value) -> &Vec<Value> {
    body["data"].as_array().unwrap()
}

/// "The cheapest model at least as capable as GPT-4o that calls tools and reads images":
/// one request, its answers carrying the flags they were filtered by.
#[tokio::test]
async fn model_lists_filter_on_capability_flags_modalities_and_context() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, gpt4o) = app.get_json("/api/v1/models/gpt-4o-2024-11-20").await;
    let floor = gpt4o["data"]["capability_index"].as_f64().unwrap();
    let (status, body) = app
        .get_json(&format!(
            "/api/v1/models?min_capability={floor}&tool_call=true&input_modality=image&min_context=128000&sort=price&limit=100"
        ))
        .await;
    assert_eq!(status, 200, "{body}");
    let found = rows(&body);
    assert!(!found.is_empty());
    for m in found {
        assert!(m["capability_index"].as_f64().unwrap() >= floor, "{m}");
        assert_eq!(m["tool_call"], true, "{}", m["slug"]);
        assert!(
            m["input_modalities"]
                .as_array()
                .unwrap()
                .contains(&Value::from("image"))
        );
        assert!(m["context_window"].as_i64().unwrap() >= 128_000);
    }
    // The list without filters is longer, and has models these leave out.
    let total = body["meta"]["total"].as_u64().unwrap();
    let (_, all) = app.get_json("/api/v1/models?limit=1").await;
    assert!(all["meta"]["total"].as_u64().unwrap() > total);
    // An upper bound, the other flags, and pricing takes the same filters.
    let (_, capped) = app
        .get_json("/api/v1/models?max_capability=120&reasoning=false&limit=100")
        .await;
    for m in non_empty(&capped["data"]) {
        assert!(m["capability_index"].as_f64().unwrap() <= 120.0);
        assert_eq!(m["reasoning"], false);
    }
    let (status, priced) = app
        .get_json("/api/v1/pricing?structured_output=true&output_modality=text&limit=5")
        .await;
    assert_eq!(status, 200, "{priced}");
    for m in non_empty(&priced["data"]) {
        assert_eq!(m["structured_output"], true, "{}", m["slug"]);
        assert!(m["input_price"].is_number(), "{}", m["slug"]);
    }
    // Bad values name their parameter.
    for (query, param) in [
        ("min_capability=-1", "min_capability"),
        ("tool_call=maybe", "tool_call"),
        ("input_modality=smell", "input_modality"),
        ("min_context=lots", "min_context"),
    ] {
        let (status, problem) = app.get_json(&format!("/api/v1/models?{query}")).await;
        assert_eq!(status, 400, "{query}");
        assert_eq!(problem["param"], param, "{query}");
    }
}

/// Offering lists and the cost calculator take `kind` and `exclude_kind`; `/cost` prices a
/// workload of N requests, each at the tier its own prompt reaches.
#[tokio::test]
async fn offerings_filter_by_kind_and_cost_prices_a_workload() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, own) = app
        .get_json("/api/v1/pricing/claude-sonnet-4-5?kind=first_party")
        .await;
    assert_eq!(status, 200);
    let offerings = own["data"]["offerings"].as_array().unwrap();
    assert_eq!(offerings.len(), 1, "{own}");
    assert_eq!(offerings[0]["provider"]["slug"], "anthropic");
    let (_, no_resellers) = app
        .get_json("/api/v1/pricing/claude-sonnet-4-5?exclude_kind=reseller")
        .await;
    assert!(
        non_empty(&no_resellers["data"]["offerings"])
            .iter()
            .all(|o| o["kind"] != "reseller")
    );

    // 50M input tokens a month on Claude Sonnet 4.5 at Anthropic, as 250 requests of 200k:
    // each stays under the >200k tier, 50 × 3 = 150 USD (one 50M-token request would be
    // billed at the tier: 300).
    let cost = |q: &'static str| {
        let app = &app;
        async move {
            app.get_json(&format!(
                "/api/v1/cost?models=claude-sonnet-4-5&provider=anthropic&output_tokens=0&{q}"
            ))
            .await
        }
    };
    let (status, month) = cost("input_tokens=200000&requests=250").await;
    assert_eq!(status, 200, "{month}");
    let line = &month["data"][0]["offerings"][0];
    assert_eq!(line["total"], 150.0, "{line}");
    assert_eq!(line["lines"][0]["tokens"], 50_000_000);
    let (_, one) = cost("input_tokens=50000000").await;
    assert_eq!(one["data"][0]["offerings"][0]["total"], 300.0);
    let (status, bad) = cost("input_tokens=1000&requests=0").await;
    assert_eq!(status, 400);
    assert_eq!(bad["param"], "requests");
    let (_, clouds) = app
        .get_json(
            "/api/v1/cost?models=claude-sonnet-4-5&input_tokens=1000&output_tokens=100&kind=cloud",
        )
        .await;
    assert!(
        non_empty(&clouds["data"][0]["offerings"])
            .iter()
            .all(|o| o["kind"] == "cloud")
    );
}

/// An unknown query parameter is a 400 naming it, with the nearest known name and the list
/// of those the endpoint takes — also when the same path's answer is already stored.
#[tokio::test]
async fn unknown_parameters_are_named_with_a_suggestion() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, _) = app.get_json("/api/v1/models?limit=5").await;
    assert_eq!(status, 200);
    let (status, problem) = app
        .get_json("/api/v1/models?limit=5&min_capabilty=150")
        .await;
    assert_eq!(status, 400, "{problem}");
    assert_eq!(problem["param"], "min_capabilty");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("Did you mean min_capability?"), "{detail}");
    assert!(detail.contains("max_price"), "{detail}");
    let (status, problem) = app.get_json("/api/v1/economy?from=2025-01").await;
    assert_eq!(status, 400);
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("It takes none")
    );
    // Path parameters are not query parameters.
    let (status, problem) = app.get_json("/api/v1/models/gpt-4o?slug=x").await;
    assert_eq!(status, 400, "{problem}");
    assert_eq!(problem["param"], "slug");
}

/// Every endpoint that takes a model takes whatever `/models/lookup` takes: a path answers
/// with a permanent redirect to the canonical URL, a query list resolves in place.
#[tokio::test]
async fn any_identifier_names_a_model_everywhere() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    for (asked, canonical) in [
        (
            "/api/v1/models/claude-sonnet-4.5",
            "/api/v1/models/claude-sonnet-4-5-20250929",
        ),
        (
            "/api/v1/pricing/GPT-4o",
            "/api/v1/pricing/gpt-4o-2024-11-20",
        ),
        (
            "/api/v1/pricing/history/gpt-5.5-2026-04-23",
            "/api/v1/pricing/history/gpt-5.5",
        ),
    ] {
        let r = client.get(app.url(asked)).send().await.unwrap();
        assert_eq!(r.status(), 308, "{asked}");
        let location = r.headers()["location"].to_str().unwrap().to_string();
        assert!(location.starts_with("http"), "absolute: {location}");
        assert!(location.ends_with(canonical), "{asked} → {location}");
    }
    // The canonical URL itself answers; a client that follows redirects gets the model.
    let (status, m) = app.get_json("/api/v1/models/claude-sonnet-4.5").await;
    assert_eq!(status, 200);
    assert_eq!(m["data"]["slug"], "claude-sonnet-4-5-20250929");
    // Query lists take provider ids and aliases, and say what each became.
    let (status, cmp) = app
        .get_json("/api/v1/compare?models=anthropic/claude-sonnet-4.5,openai/gpt-4o")
        .await;
    assert_eq!(status, 200, "{cmp}");
    let compared: Vec<&str> = non_empty(&cmp["data"]["models"])
        .iter()
        .filter_map(|m| m["slug"].as_str())
        .collect();
    assert_eq!(
        compared,
        ["claude-sonnet-4-5-20250929", "gpt-4o-2024-11-20"],
        "{cmp}"
    );
    let (status, cost) = app
        .get_json(
            "/api/v1/cost?models=anthropic/claude-sonnet-4.5&input_tokens=1000&output_tokens=10",
        )
        .await;
    assert_eq!(status, 200, "{cost}");
    assert_eq!(
        cost["data"][0]["model"]["slug"],
        "claude-sonnet-4-5-20250929"
    );
    assert_eq!(cost["data"][0]["requested"], "anthropic/claude-sonnet-4.5");
}

/// An unknown model is a 404 whose body lists the closest ones, structured.
#[tokio::test]
async fn an_unknown_model_names_the_closest_ones() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for path in [
        "/api/v1/models/lookup?id=claude-sonnet-9",
        "/api/v1/models/claude-sonnet-9",
        "/api/v1/compare?models=claude-sonnet-9,gpt-4o",
    ] {
        let (status, problem) = app.get_json(path).await;
        assert_eq!(status, 404, "{path}");
        let closest = problem["closest"]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: {problem}"));
        assert!(!closest.is_empty(), "{path}");
        assert!(
            closest
                .iter()
                .all(|m| m["slug"].as_str().unwrap().starts_with("claude-sonnet")
                    && m["name"].is_string()),
            "{path}: {closest:?}"
        );
    }
    // A typo inside the id: the model it misspells comes first, not the family's best.
    for path in [
        "/api/v1/models/claude-sonet-4.5",
        "/api/v1/models/lookup?id=anthropic/claude-sonet-4.5",
        "/api/v1/models/gtp-4o-mini",
    ] {
        let (status, problem) = app.get_json(path).await;
        assert_eq!(status, 404, "{path}");
        let first = problem["closest"][0]["slug"].as_str().unwrap_or_default();
        let meant = if path.contains("gtp") {
            "gpt-4o-mini"
        } else {
            "claude-sonnet-4-5"
        };
        assert!(first.starts_with(meant), "{path}: {problem}");
    }
}

/// Clients (4): the names other APIs use for a parameter (`per_page`, `sort_by`) are
/// answered with this API's name for it.
#[tokio::test]
async fn other_apis_parameter_names_get_this_apis_name() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (asked, ours) in [
        ("per_page", "limit"),
        ("sort_by", "sort"),
        ("vendor", "creator"),
    ] {
        let (status, problem) = app.get_json(&format!("/api/v1/models?{asked}=5")).await;
        assert_eq!(status, 400, "{problem}");
        assert_eq!(problem["param"], asked);
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains(&format!("Did you mean {ours}?")),
            "{detail}"
        );
    }
}

/// Clients (4): an unknown benchmark, provider or agent is a 404 with the closest ones, as
/// an unknown model is; an unknown board in `agents?benchmark=` names the likely ones.
#[tokio::test]
async fn unknown_slugs_of_every_kind_suggest_the_closest() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (path, expected) in [
        ("/api/v1/benchmarks/swe-bench", "swe-bench"),
        ("/api/v1/benchmarks/gpqa-diamnd", "gpqa-diamond"),
        ("/api/v1/providers/antropic", "anthropic"),
    ] {
        let (status, problem) = app.get_json(path).await;
        assert_eq!(status, 404, "{path}: {problem}");
        let closest = problem["closest"].as_array().unwrap();
        assert!(!closest.is_empty(), "{path}: {problem}");
        assert!(
            closest
                .iter()
                .any(|c| c["slug"].as_str().unwrap().starts_with(expected)),
            "{path}: {problem}"
        );
    }
    let agent = app.state.catalog.snapshot().agents()[0].slug.clone();
    let typo = format!("{}x", &agent[..agent.len() - 1]);
    let (status, problem) = app.get_json(&format!("/api/v1/agents/{typo}")).await;
    assert_eq!(status, 404, "{problem}");
    assert!(
        !problem["closest"].as_array().unwrap().is_empty(),
        "{problem}"
    );
    let (status, problem) = app.get_json("/api/v1/agents?benchmark=swebench").await;
    assert_eq!(status, 400, "{problem}");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("did you mean swe-bench"),
        "{problem}"
    );
}
