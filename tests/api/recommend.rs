//! `/api/v1/recommend` and `recommend(...)` (docs/recommend.md): the capability-versus-cost
//! frontier, its constraints, and self-reported-only models marked, never silently preferred.

use serde_json::Value;

use crate::helpers::{Backend, TestApp};

fn frontier(body: &Value) -> &Vec<Value> {
    body["data"]["frontier"].as_array().unwrap()
}

#[tokio::test]
async fn the_frontier_is_cheapest_first_and_each_step_more_capable() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, body) = app
        .get_json(
            "/api/v1/recommend?tool_call=true&input_tokens=2000&output_tokens=500&requests=1000",
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let f = frontier(&body);
    assert!(f.len() >= 3, "{body}");
    assert!(body["data"]["considered"].as_u64().unwrap() > f.len() as u64);
    for pair in f.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert!(a["cost"]["total"].as_f64() <= b["cost"]["total"].as_f64());
        assert!(a["capability"].as_f64() < b["capability"].as_f64());
    }
    for r in f {
        assert_eq!(r["model"]["tool_call"], true);
        assert_eq!(r["self_reported_only"], false, "not without provenance=all");
        assert!(!r["reason"].as_str().unwrap().is_empty());
        assert!(["first_party", "cloud", "router"].contains(&r["cost"]["kind"].as_str().unwrap()));
    }
    // No model the service lists with tool calling is both cheaper and more capable than a
    // frontier model: checked against the cheapest of each at the same workload.
    let top = f.last().unwrap();
    let (_, list) = app
        .get_json("/api/v1/models?tool_call=true&sort=capability&limit=5")
        .await;
    let best = list["data"][0]["capability_index"].as_f64().unwrap();
    assert!(
        top["capability"].as_f64().unwrap() >= best - 1e-9
            || list["data"][0]["rank_basis"] == "self_reported"
    );
    // A budget cuts the expensive end.
    let budget = f[1]["cost"]["total"].as_f64().unwrap();
    let (_, cut) = app
        .get_json(&format!("/api/v1/recommend?tool_call=true&input_tokens=2000&output_tokens=500&requests=1000&max_cost={budget}"))
        .await;
    assert_eq!(frontier(&cut).len(), 2, "{cut}");
}

#[tokio::test]
async fn self_reported_only_models_are_marked_and_only_on_request() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, all) = app
        .get_json("/api/v1/recommend?provenance=all&limit=100")
        .await;
    let (_, independent) = app.get_json("/api/v1/recommend?limit=100").await;
    for r in frontier(&all) {
        assert_eq!(
            r["self_reported_only"] == true,
            r["rank_basis"] == "self_reported",
            "{r}"
        );
    }
    assert!(
        frontier(&independent)
            .iter()
            .all(|r| r["rank_basis"] != "self_reported")
    );
    assert!(!frontier(&independent).is_empty());
}

#[tokio::test]
async fn constraints_and_bad_values_name_their_parameter() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, body) = app
        .get_json("/api/v1/recommend?open_source=true&avoid_providers=meta&domain=coding")
        .await;
    assert!(
        body["data"]["capability_basis"] == "expected_score:coding",
        "{body}"
    );
    let f = frontier(&body);
    assert!(!f.is_empty());
    for r in f {
        assert_eq!(r["model"]["open_source"], true);
        assert_ne!(r["model"]["creator"]["slug"], "meta");
        assert_ne!(r["cost"]["provider"]["slug"], "meta");
        let c = r["capability"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&c));
    }
    for (query, param) in [
        ("providers=Bad!", "providers"),
        ("domain=cooking", "domain"),
        ("max_cost=-1", "max_cost"),
        ("limit=0", "limit"),
        (
            "cached_input_tokens=10&input_tokens=5",
            "cached_input_tokens",
        ),
        ("task=poetry", "task"),
    ] {
        let (status, p) = app.get_json(&format!("/api/v1/recommend?{query}")).await;
        assert_eq!(status, 400, "{query}");
        assert_eq!(p["param"], param, "{query}: {p}");
    }
    // GraphQL asks the same.
    let g = app
        .graphql(
            "{ recommend(openSource: true, avoidProviders: [\"meta\"], domain: \"coding\") { frontier { model { slug } } } }",
            Value::Null,
        )
        .await;
    let slugs: Vec<&Value> = g["data"]["recommend"]["frontier"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["model"]["slug"])
        .collect();
    let rest: Vec<&Value> = f.iter().map(|r| &r["model"]["slug"]).collect();
    assert_eq!(slugs, rest);
}
