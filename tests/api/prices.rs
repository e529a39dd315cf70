//! Prices as a user reads them: a flagship model's headline price is its creator's list
//! price, resellers appear only as `cheapest` and as offerings of their kind, and every
//! price is written as published. These are the figures checked by hand against the
//! creators' price pages (as of the genai-prices release in the snapshot, 0.2.3 of November 2026) when the rules were written.

use serde_json::Value;

use crate::helpers::{Backend, TestApp};

/// (common name, list input, list output): USD per 1M tokens at the creator's own API.
const FLAGSHIPS: &[(&str, f64, f64)] = &[
    ("gpt-4o", 2.5, 10.0),
    ("gpt-5", 1.25, 10.0),
    ("gpt-4.1", 2.0, 8.0),
    ("gpt-4o-mini", 0.15, 0.6),
    ("o3", 2.0, 8.0),
    ("o4-mini", 1.1, 4.4),
    ("claude-sonnet-4-5", 3.0, 15.0),
    ("claude-opus-4-1", 15.0, 75.0),
    ("claude-3-5-haiku", 0.8, 4.0),
    ("gemini-2.5-pro", 1.25, 10.0),
    ("gemini-2.5-flash", 0.3, 2.5),
    ("grok-4", 3.0, 15.0),
    ("deepseek-chat", 0.27, 1.1),
    ("glm-4.5", 0.6, 2.2),
    // Z.ai's international USD price, not the domestic CNY one converted.
    ("glm-5.1", 1.4, 4.4),
    // November 2026 releases, as genai-prices 0.2.3 lists them at the creator (anthropic,
    // openai and x-ai rows; the base of each tiered price).
    ("claude-opus-5-5", 4.0, 20.0),
    ("claude-haiku-5-5", 0.1, 0.5),
    ("gpt-6-sol", 2.0, 10.0),
    ("grok-4.7", 2.0, 6.0),
    // Mistral's row is dated: 0.68/2.09, 1.36/4.18 from 2026-10-20, 0.7/2.1 from 2026-10-29,
    // the one in effect on the release's day (2026-11-10).
    ("mistral-large-4", 0.7, 2.1),
];

#[tokio::test]
async fn flagships_show_their_creator_s_list_price() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (name, input, output) in FLAGSHIPS {
        let (status, body) = app.get_json(&format!("/api/v1/models/{name}")).await;
        assert_eq!(status, 200, "{name} does not resolve");
        let m = &body["data"];
        assert_eq!(m["input_price"], *input, "{name}: {m}");
        assert_eq!(m["output_price"], *output, "{name}");
        assert_eq!(m["price_basis"], "first_party", "{name}");
        let creator = m["creator"]["slug"].as_str().unwrap();
        let own: Vec<&Value> = m["offerings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["kind"] == "first_party")
            .collect();
        assert!(
            !own.is_empty(),
            "{name}: no first-party offering ({creator})"
        );
        // The cheapest paid offering is never a plan or a free tier, and never dearer
        // than the list price.
        let cheapest = &m["cheapest"];
        assert!(
            cheapest["input_price"].as_f64().unwrap() <= *input,
            "{name}"
        );
        let provider = cheapest["provider"]["slug"].as_str().unwrap();
        let kind = m["offerings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["provider"]["slug"] == provider)
            .map(|o| o["kind"].as_str().unwrap().to_string())
            .unwrap();
        assert!(
            matches!(
                kind.as_str(),
                "first_party" | "cloud" | "router" | "reseller"
            ),
            "{name}: cheapest is a {kind}"
        );
    }
}

#[tokio::test]
async fn plans_and_free_tiers_never_set_a_price_and_prices_have_six_digits() {
    let snapshot = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let digits = |x: f64| {
        let s = format!("{x:e}");
        let mantissa = s.split('e').next().unwrap().replace(['.', '-'], "");
        mantissa.trim_end_matches('0').len()
    };
    for o in &snapshot.offerings {
        for p in [
            o.input_price,
            o.output_price,
            o.cache_read_price,
            o.cache_write_price,
        ]
        .into_iter()
        .flatten()
        {
            assert!(
                digits(p) <= 6,
                "{} at {}: {p}",
                o.model_slug,
                o.provider_slug
            );
        }
    }
    for h in &snapshot.price_history {
        for p in [h.input_price, h.output_price].into_iter().flatten() {
            assert!(digits(p) <= 6, "history of {}: {p}", h.model_slug);
        }
    }
    for m in &snapshot.models {
        let Some(basis) = &m.price_basis else {
            assert!(m.input_price.is_none(), "{}", m.slug);
            continue;
        };
        let source = snapshot
            .offerings
            .iter()
            .filter(|o| o.model_slug == m.slug && o.input_price == m.input_price)
            .map(|o| o.kind.as_str())
            .collect::<Vec<_>>();
        match basis.as_str() {
            "first_party" => assert!(source.contains(&"first_party"), "{}", m.slug),
            "median" => assert!(
                source
                    .iter()
                    .any(|k| matches!(*k, "cloud" | "router" | "reseller")),
                "{}: {source:?}",
                m.slug
            ),
            other => panic!("{}: basis {other}", m.slug),
        }
    }
    // A model sold both by its creator and through plans shows the creator's price.
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, body) = app.get_json("/api/v1/pricing/glm-4.5").await;
    let kinds: Vec<&str> = body["data"]["offerings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"first_party"), "{kinds:?}");
}

/// Price history agrees with the current prices: each provider's open period is its current
/// offering, and no two consecutive periods carry the same price (they would be one period).
#[tokio::test]
async fn the_open_history_period_is_the_current_offering() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let catalog = app.state.catalog.snapshot();
    let offerings: std::collections::HashMap<(&str, &str), &entity::offering::Model> = catalog
        .all_offerings()
        .iter()
        .map(|o| {
            (
                (o.model_slug.as_str(), o.provider_slug.as_str()),
                o.as_ref(),
            )
        })
        .collect();
    let mut pairs: std::collections::BTreeMap<(&str, &str), Vec<&entity::price_history::Model>> =
        Default::default();
    for h in catalog.all_history() {
        pairs
            .entry((h.model_slug.as_str(), h.provider_slug.as_str()))
            .or_default()
            .push(h);
    }
    assert!(pairs.len() > 500);
    for (key, mut periods) in pairs {
        periods.sort_by(|a, b| a.effective_from.cmp(&b.effective_from));
        for w in periods.windows(2) {
            assert!(
                w[0].effective_to.is_some()
                    && (w[0].effective_to != Some(w[1].effective_from.clone())
                        || (w[0].input_price, w[0].output_price)
                            != (w[1].input_price, w[1].output_price)),
                "{key:?}: unmerged or overlapping periods {w:?}"
            );
        }
        let open = periods.last().unwrap();
        if let (None, Some(o)) = (&open.effective_to, offerings.get(&key)) {
            assert_eq!(
                (open.input_price, open.output_price, open.cache_read_price),
                (o.input_price, o.output_price, o.cache_read_price),
                "{key:?}"
            );
        }
    }
}

/// Prices in other units than text tokens reach REST and GraphQL as the source publishes
/// them: an image model's price per 1M image tokens, a per-1K-requests fee.
#[tokio::test]
async fn prices_in_other_units_are_served_with_their_unit() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, body) = app.get_json("/api/v1/pricing/gemini-2.5-flash-image").await;
    assert_eq!(status, 200, "{body}");
    let google = body["data"]["offerings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["provider"]["slug"] == "google")
        .unwrap();
    assert_eq!(google["input_price"], 0.3);
    assert_eq!(
        google["unit_prices"],
        serde_json::json!([{"item": "output_image", "unit": "1M tokens", "price": 30.0}])
    );
    let gql = app
        .graphql(
            "{ modelPricing(slug: \"sonar\") { offerings { provider { slug } unitPrices { item unit price } } } }",
            serde_json::json!({}),
        )
        .await;
    let perplexity = gql["data"]["modelPricing"]["offerings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["provider"]["slug"] == "perplexity")
        .unwrap_or_else(|| panic!("{gql}"));
    assert_eq!(
        perplexity["unitPrices"],
        serde_json::json!([{"item": "request", "unit": "1K requests", "price": 12.0}])
    );
}
