//! Several sources price one offering: LiteLLM's cost map beside genai-prices and models.dev.
//! Each offering names the sources that price it and whether they agree; a first-party price
//! they dispute is read and explained in `data/price_disputes.csv`. LiteLLM adds the offerings
//! only it prices, with their batch modes, regions, per-image prices and deprecation dates.

use std::collections::BTreeSet;

use mds::snapshot::{EMBEDDED, Snapshot};
use serde_json::Value;

use crate::helpers::{Backend, TestApp};

const DISPUTES: &str = include_str!("../../data/price_disputes.csv");

fn offering<'a>(model: &'a Value, provider: &str) -> &'a Value {
    model["offerings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["provider"]["slug"] == provider)
        .unwrap_or_else(|| panic!("no offering at {provider}: {model}"))
}

#[tokio::test]
async fn offerings_name_their_witnesses_and_litellm_adds_what_only_it_prices() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, sonnet) = app.get_json("/api/v1/models/claude-sonnet-4-5").await;
    assert_eq!(status, 200);
    let sonnet = &sonnet["data"];

    // At Anthropic: genai-prices (served) and LiteLLM agree on 3/15; the batch mode is 1.5/7.5.
    let anthropic = offering(sonnet, "anthropic");
    assert_eq!(anthropic["source"], "genai-prices");
    assert_eq!(anthropic["disputed"], false);
    let sources: Vec<(&str, bool)> = anthropic["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["source"].as_str().unwrap(),
                w["agrees"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(sources[0], ("genai-prices", true), "{anthropic}");
    assert!(sources.contains(&("litellm", true)), "{anthropic}");
    let batch = &anthropic["variants"][0];
    assert_eq!(
        (
            &batch["mode"],
            &batch["input_price"],
            &batch["output_price"]
        ),
        (&Value::from("batch"), &Value::from(1.5), &Value::from(7.5))
    );
    // LiteLLM 1.108.0 records Anthropic's announced retirement of the 4.5 snapshot.
    assert_eq!(anthropic["deprecation_date"], "2026-11-30");

    // On Bedrock: the global profile's price, and the regional profiles' 10% more.
    let bedrock = offering(sonnet, "amazon-bedrock");
    let eu = bedrock["regions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["region"] == "eu")
        .unwrap_or_else(|| panic!("no eu price: {bedrock}"));
    assert_eq!(
        (&eu["input_price"], &eu["output_price"]),
        (&Value::from(3.3), &Value::from(16.5))
    );

    // At Azure only LiteLLM and models.dev price it: LiteLLM's price is served.
    let azure = offering(sonnet, "azure");
    assert_eq!(azure["source"], "litellm");
    assert_eq!(azure["input_price"], 3.0);

    // DALL·E 3 has Azure's per-pixel prices by quality and size, copied as LiteLLM states them.
    let (_, dalle) = app.get_json("/api/v1/models/dall-e-3").await;
    let azure = offering(&dalle["data"], "azure");
    let standard = azure["unit_prices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["item"] == "image_standard_1024x1024")
        .unwrap_or_else(|| panic!("{azure}"));
    assert_eq!(
        (&standard["unit"], &standard["price"]),
        (&Value::from("pixel"), &Value::from(4.19617e-8))
    );

    // LiteLLM's ids are the ids people type: a dated id no other source lists is the model.
    let (status, dated) = app
        .get_json("/api/v1/models/lookup?id=gpt-5.5-2026-04-23")
        .await;
    assert_eq!(status, 200, "{dated}");
    assert_eq!(dated["data"]["slug"], "gpt-5.5");

    // A price only LiteLLM states has a history from its observed copies: GPT-5.6 Sol through
    // Perplexity was 5/30 in 1.104.0 (2026-10-03) and 4/20 in 1.108.0 (2026-11-04).
    let (_, history) = app.get_json("/api/v1/pricing/history/gpt-5.6-sol").await;
    let at_perplexity: Vec<(f64, &str, Option<&str>)> = history["data"]["price_history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["provider"]["slug"] == "perplexity")
        .map(|p| {
            (
                p["input_price"].as_f64().unwrap(),
                p["effective_from"].as_str().unwrap(),
                p["observed_after"].as_str(),
            )
        })
        .collect();
    assert!(
        at_perplexity.contains(&(5.0, "2026-10-03", None)),
        "{at_perplexity:?}"
    );
    assert!(
        at_perplexity.contains(&(4.0, "2026-11-04", Some("2026-10-03"))),
        "{at_perplexity:?}"
    );
}

/// Every first-party price the sources dispute was read and is explained in the review
/// file, and the file names no dispute that is gone.
#[test]
fn every_disputed_first_party_price_is_explained() {
    let s = Snapshot::decode(EMBEDDED).unwrap();
    let disputed: BTreeSet<(String, String)> = s
        .offerings
        .iter()
        .filter(|o| o.disputed && o.kind.as_str() == "first_party")
        .map(|o| (o.model_slug.clone(), o.provider_slug.clone()))
        .collect();
    let mut reader = csv::Reader::from_reader(DISPUTES.as_bytes());
    let reviewed: BTreeSet<(String, String)> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            assert!(!r[2].trim().is_empty(), "{r:?} has no explanation");
            (r[0].to_string(), r[1].to_string())
        })
        .collect();
    let unexplained: Vec<_> = disputed.difference(&reviewed).collect();
    let stale: Vec<_> = reviewed.difference(&disputed).collect();
    assert!(unexplained.is_empty(), "read and explain: {unexplained:?}");
    assert!(stale.is_empty(), "no longer disputed: {stale:?}");
    // A dispute is a witness under the served id that states another price.
    let deepseek = s
        .offerings
        .iter()
        .find(|o| o.model_slug == "deepseek-chat" && o.provider_slug == "deepseek")
        .unwrap();
    let w = entity::offering::Witness::decode(deepseek.sources.as_deref());
    assert!(
        w.iter().any(|w| w.source == "litellm" && !w.agrees),
        "{w:?}"
    );
}

/// A creator's LiteLLM entry priced only by prompt-length ranges is its first range's price
/// with the later ranges as tiers: ByteDance's Doubao Seed 2.0 Code at Volcengine is
/// 0.46/2.3, 0.7/3.5 over 32k tokens — its first-party list price. Perplexity's Sonar on
/// Llama 3.1 is an API product: the Llama 3 family's open weights are not its own.
#[tokio::test]
async fn prompt_length_ranges_price_the_offering_and_its_tiers() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, doubao) = app
        .get_json("/api/v1/models/doubao-seed-2-0-code-preview")
        .await;
    assert_eq!(status, 200, "{doubao}");
    let doubao = &doubao["data"];
    assert_eq!(
        (&doubao["input_price"], &doubao["output_price"]),
        (&Value::from(0.46), &Value::from(2.3))
    );
    assert_eq!(doubao["price_basis"], "first_party");
    let volcengine = offering(doubao, "volcengine");
    let tier = &volcengine["tiers"][0];
    assert_eq!(
        (
            &tier["from_tokens"],
            &tier["input_price"],
            &tier["output_price"]
        ),
        (&Value::from(32000), &Value::from(0.7), &Value::from(3.5)),
        "{volcengine}"
    );
    let (_, sonar) = app
        .get_json("/api/v1/models/llama-3.1-sonar-large-128k-online")
        .await;
    assert_eq!(sonar["data"]["open_source"], false, "{sonar}");
}
