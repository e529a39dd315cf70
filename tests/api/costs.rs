//! The cost calculator: line items per offering, tiers billed as providers bill them,
//! cached tokens at the cache-read price, cheapest first, reasons instead of silence.

use serde_json::Value;

use crate::helpers::{Backend, TestApp};

fn offering<'a>(body: &'a Value, model: usize, provider: &str) -> &'a Value {
    body["data"][model]["offerings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["provider"]["slug"] == provider)
        .unwrap_or_else(|| panic!("no {provider} offering in {body}"))
}

#[tokio::test]
async fn gpt_4o_a_million_in_and_out_at_openai_is_12_5_usd() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, body) = app
        .get_json(
            "/api/v1/cost?models=gpt-4o&input_tokens=1000000&output_tokens=1000000&provider=openai",
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let o = offering(&body, 0, "openai");
    assert_eq!(o["total"], 12.5);
    assert_eq!(o["currency"], "USD");
    let lines: Vec<(&str, f64)> = o["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["line"].as_str().unwrap(), l["cost"].as_f64().unwrap()))
        .collect();
    assert_eq!(lines, [("input", 2.5), ("output", 10.0)]);
    assert_eq!(body["data"][0]["offerings"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_prompt_past_the_200k_tier_is_billed_wholly_at_the_tier_price() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    // Anthropic publishes Claude Sonnet 4.5 at 3/15, and 6/22.5 for prompts over 200k.
    let (_, detail) = app.get_json("/api/v1/pricing/claude-sonnet-4-5").await;
    let own = detail["data"]["offerings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["provider"]["slug"] == "anthropic")
        .unwrap();
    assert_eq!(own["tiers"][0]["from_tokens"], 200000, "{own}");
    assert_eq!(own["tiers"][0]["input_price"], 6.0);
    assert_eq!(own["tiers"][0]["output_price"], 22.5);

    let (_, body) = app
        .get_json("/api/v1/cost?models=claude-sonnet-4-5&input_tokens=300000&output_tokens=10000&provider=anthropic")
        .await;
    let o = offering(&body, 0, "anthropic");
    assert_eq!(o["tier_from_tokens"], 200000);
    // 300k × 6 + 10k × 22.5, per 1M: every prompt token at the tier, not just those past it.
    assert_eq!(o["total"], 1.8 + 0.225);
    let (_, body) = app
        .get_json("/api/v1/cost?models=claude-sonnet-4-5&input_tokens=200000&output_tokens=0&provider=anthropic")
        .await;
    let o = offering(&body, 0, "anthropic");
    assert_eq!(
        (o["tier_from_tokens"].clone(), o["total"].clone()),
        (Value::Null, 0.6.into())
    );
}

#[tokio::test]
async fn cached_tokens_are_billed_at_the_cache_read_price_and_gaps_are_explained() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, body) = app
        .get_json("/api/v1/cost?models=gpt-4o,claude-sonnet-4-5&input_tokens=1000000&cached_input_tokens=500000&output_tokens=0")
        .await;
    let o = offering(&body, 0, "openai");
    // 500k uncached × 2.5 + 500k cached × 1.25 (OpenAI's cache-read price), per 1M.
    assert_eq!(o["total"], 1.25 + 0.625, "{o}");
    let cached = o["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["line"] == "cached_input")
        .unwrap();
    assert_eq!(
        (cached["tokens"].clone(), cached["unit_price"].clone()),
        (500000.into(), 1.25.into())
    );
    for m in body["data"].as_array().unwrap() {
        let offerings = m["offerings"].as_array().unwrap();
        let totals: Vec<f64> = offerings
            .iter()
            .filter_map(|o| o["total"].as_f64())
            .collect();
        assert!(
            totals.windows(2).all(|w| w[0] <= w[1]),
            "not cheapest first"
        );
        let priced = totals.len();
        // Offerings that cannot price the request come last, each with its reason.
        for o in &offerings[priced..] {
            assert!(o["total"].is_null());
            assert!(o["reason"].as_str().is_some_and(|r| !r.is_empty()), "{o}");
        }
    }
    let unpriced: usize = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["offerings"].as_array().unwrap())
        .filter(|o| {
            o["reason"]
                .as_str()
                .is_some_and(|r| r.contains("cache-read"))
        })
        .count();
    assert!(unpriced > 0, "some offering publishes no cache-read price");
}

#[tokio::test]
async fn bad_token_counts_are_400_naming_the_parameter() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let cases = [
        ("input_tokens=-1&output_tokens=0", "input_tokens"),
        ("input_tokens=1.5&output_tokens=0", "input_tokens"),
        ("input_tokens=10&output_tokens=1000000001", "output_tokens"),
        ("input_tokens=10&output_tokens=1e3", "output_tokens"),
        (
            "input_tokens=10&output_tokens=0&cached_input_tokens=11",
            "cached_input_tokens",
        ),
        ("output_tokens=0", "input_tokens"),
    ];
    for (q, param) in cases {
        let (status, body) = app
            .get_json(&format!("/api/v1/cost?models=gpt-4o&{q}"))
            .await;
        assert_eq!(status, 400, "{q}: {body}");
        assert_eq!(body["param"], param, "{q}");
    }
    let (status, body) = app
        .get_json("/api/v1/cost?models=gpt-4o,no-such-model&input_tokens=1&output_tokens=1")
        .await;
    assert_eq!(status, 404);
    assert!(body["detail"].as_str().unwrap().contains("no-such-model"));

    let gql = app
        .graphql(
            "{ cost(models: [\"openai/gpt-4o\"], inputTokens: 1000000, outputTokens: 1000000, provider: \"openai\") { model { slug } offerings { total } } }",
            serde_json::json!({}),
        )
        .await;
    assert_eq!(
        gql["data"]["cost"][0]["offerings"][0]["total"], 12.5,
        "{gql}"
    );
    let gql = app
        .graphql(
            "{ cost(models: [\"gpt-4o\"], inputTokens: -5, outputTokens: 0) { model { slug } } }",
            serde_json::json!({}),
        )
        .await;
    assert_eq!(gql["errors"][0]["extensions"]["code"], "BAD_USER_INPUT");
}
