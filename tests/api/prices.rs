//! Prices as a user reads them: a flagship model's headline price is its creator's list
//! price, resellers appear only as `cheapest_any` and as offerings of their kind, and every
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
        // The cheapest a careful buyer would use is the creator's API, a cloud or a router,
        // never dearer than the list price; `cheapest_any` (resellers, plans and free tiers
        // too) never dearer than that.
        let cheapest = &m["cheapest"];
        assert!(
            m["cheapest_any"]["input_price"].as_f64().unwrap()
                <= cheapest["input_price"].as_f64().unwrap(),
            "{name}"
        );
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
            matches!(kind.as_str(), "first_party" | "cloud" | "router"),
            "{name}: cheapest is a {kind}"
        );
        assert_eq!(cheapest["kind"], kind.as_str(), "{name}");
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
            "{ modelPricing(slug: \"sonar-pro\") { offerings { provider { slug } unitPrices { item unit price } } } }",
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
        serde_json::json!([{"item": "request", "unit": "1K requests", "price": 14.0}])
    );
    // A transcriber priced per hour of audio.
    let (status, voxtral) = app.get_json("/api/v1/models/voxtral-mini-2602").await;
    assert_eq!(status, 200, "{voxtral}");
    let units = voxtral["data"]["offerings"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["provider"]["slug"] == "mistral"))
        .map(|o| o["unit_prices"].clone())
        .unwrap_or_else(|| panic!("{voxtral}"));
    assert!(
        units
            .as_array()
            .is_some_and(|u| u.iter().any(|u| u["unit"] == "hour" && u["price"] == 0.18)),
        "{units}"
    );
}

/// The bundled snapshot is built from the August copy of genai-prices (`archive/`) and the
/// November release: a price that changed between them, which no source dates, begins on
/// the November observation and says after which observation it changed; this month's
/// models, which no source dates yet, are dated by when they were first seen. Read as a
/// user would, through REST.
#[tokio::test]
async fn observations_date_what_the_sources_do_not() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, history) = app
        .get_json("/api/v1/pricing/history/mixtral-8x22b-instruct")
        .await;
    assert_eq!(status, 200, "{history}");
    let at_mistral: Vec<&Value> = history["data"]["price_history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["provider"]["slug"] == "mistral")
        .collect();
    // Newest first: 2/6 seen on 2026-11-10, after the 2026-08-21 observation at 0.9/0.9.
    assert_eq!(
        at_mistral[0]["effective_from"], "2026-11-10",
        "{at_mistral:?}"
    );
    assert_eq!(at_mistral[0]["observed_after"], "2026-08-21");
    assert_eq!(
        (
            &at_mistral[0]["input_price"],
            &at_mistral[0]["output_price"]
        ),
        (&Value::from(2.0), &Value::from(6.0))
    );
    assert_eq!(at_mistral[1]["effective_to"], "2026-11-10");
    assert_eq!(at_mistral[1]["input_price"], 0.9);
    // A change the source dates keeps its date and is no observation: o3's 2025-06-10 cut.
    let (_, o3) = app.get_json("/api/v1/pricing/history/o3").await;
    assert!(
        o3["data"]["price_history"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| { p["effective_from"] == "2025-06-10" && p["observed_after"].is_null() })
    );
    let (_, changes) = app
        .get_json("/api/v1/changes?type=price&since=2026-11-10&limit=100")
        .await;
    assert!(
        changes["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == "price:mixtral-8x22b-instruct:mistral:2026-11-10"),
        "{changes}"
    );

    for slug in [
        "claude-opus-5-5",
        "claude-haiku-5-5",
        "gpt-6-sol",
        "gemini-4-argon",
        "grok-4.7",
        "mistral-large-4",
    ] {
        let (status, m) = app.get_json(&format!("/api/v1/models/{slug}")).await;
        assert_eq!(status, 200, "{slug}");
        let m = &m["data"];
        assert!(m["creator"]["slug"].is_string(), "{slug}");
        assert!(!m["offerings"].as_array().unwrap().is_empty(), "{slug}");
        // The earliest copy listing the model: LiteLLM 1.104.0 (2026-10-03) for three of
        // them, LiteLLM 1.108.0 (2026-11-04) for the others, both before genai-prices 0.2.3.
        let first = if ["claude-opus-5-5", "gpt-6-sol", "grok-4.7"].contains(&slug) {
            "2026-10-03"
        } else {
            "2026-11-04"
        };
        match m["date_basis"].as_str() {
            Some("release_date") => assert!(m["release_date"].is_string(), "{slug}"),
            Some("first_seen") => assert_eq!(m["first_seen"], first, "{slug}"),
            other => panic!("{slug}: date_basis {other:?}"),
        }
    }
    // `sort=date` opens with this month's models; one only seen as old (in the first
    // LiteLLM copy read) is undated and sorts after every dated one.
    let (_, newest) = app.get_json("/api/v1/models?sort=date&limit=5").await;
    for m in newest["data"].as_array().unwrap() {
        let date = match m["date_basis"].as_str() {
            Some("release_date") => m["release_date"].as_str(),
            Some("first_seen") => m["first_seen"].as_str(),
            _ => None,
        };
        assert!(date.is_some_and(|d| d >= "2026-11-01"), "{m}");
    }
    let (_, oldest) = app
        .get_json("/api/v1/models?sort=date&order=asc&limit=100&creator=perplexity")
        .await;
    let rows = oldest["data"].as_array().unwrap();
    let pplx = rows
        .iter()
        .position(|m| m["slug"] == "pplx-70b-chat")
        .unwrap();
    assert!(rows[pplx]["date_basis"].is_null(), "{}", rows[pplx]);
    assert!(
        rows[pplx..].iter().all(|m| m["date_basis"].is_null()),
        "undated models sort last: {oldest}"
    );
    let (_, dataset) = app.get_json("/api/v1/dataset").await;
    assert_eq!(dataset["data"]["built_at"], "2026-11-10", "{dataset}");
    assert_eq!(dataset["meta"]["dataset"]["date"], "2026-11-10");
    let sources = dataset["data"]["sources"].as_array().unwrap();
    assert!(
        sources.iter().all(|s| s["status"] == "bundled"),
        "{dataset}"
    );
}

/// Batch, flex, priority and fast prices are variants of one offering, never models of
/// their own, and the cost calculator bills at them on request. Claude Sonnet 4.5's batch
/// price at Anthropic is half its list price, as genai-prices 0.2.3's `price_variants` row
/// gives it (1.5/7.5, with its own >200k tier 3/11.25).
#[tokio::test]
async fn price_variants_are_sold_modes_of_one_offering() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, pricing) = app.get_json("/api/v1/pricing/claude-sonnet-4-5").await;
    assert_eq!(status, 200, "{pricing}");
    let anthropic = pricing["data"]["offerings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["provider"]["slug"] == "anthropic")
        .expect("Anthropic sells it");
    let batch = anthropic["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["mode"] == "batch")
        .expect("a batch variant");
    assert_eq!(
        (&batch["input_price"], &batch["output_price"]),
        (&Value::from(1.5), &Value::from(7.5))
    );
    assert_eq!(batch["tiers"][0]["from_tokens"], 200_000);
    assert_eq!(batch["tiers"][0]["input_price"], 3.0);

    let cost = |mode: &'static str| {
        let app = &app;
        async move {
            app.get_json(&format!(
                "/api/v1/cost?models=claude-sonnet-4-5&input_tokens=1000000&output_tokens=1000000&provider=anthropic&mode={mode}"
            ))
            .await
        }
    };
    // A 1M-token prompt passes the 200k tier: 6 + 22.5 standard, 3 + 11.25 in batch.
    let (_, standard) = cost("standard").await;
    assert_eq!(
        standard["data"][0]["offerings"][0]["total"], 28.5,
        "{standard}"
    );
    let (_, batch) = cost("batch").await;
    assert_eq!(batch["data"][0]["offerings"][0]["total"], 14.25, "{batch}");
    let (status, wrong) = cost("overnight").await;
    assert_eq!(status, 400);
    assert_eq!(wrong["param"], "mode");

    // No listed model is a host's batch or priority product of a listed model (FLUX.2
    // [flex], `flux-2-flex`, is a model of its own: no `flux-2` is sold beside it).
    let catalog = app.state.catalog.snapshot();
    let packaged: Vec<&str> = catalog
        .all_models()
        .iter()
        .filter(|m| matches!(m.availability.as_str(), "api" | "open_weights"))
        .map(|m| m.slug.as_str())
        .filter(|s| s.ends_with("-batch") || s.ends_with("-priority") || s.ends_with("-flex"))
        .filter(|s| {
            s.rsplit_once('-')
                .is_some_and(|(base, _)| catalog.model(base).is_some())
        })
        .collect();
    assert!(packaged.is_empty(), "{packaged:?}");
}

/// A price the source schedules for a later day is shown on the offering as `upcoming` and
/// announced in the changes feed on its day; the served price is the one in effect now.
#[tokio::test]
async fn announced_prices_are_upcoming_and_in_the_changes_feed() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, pricing) = app.get_json("/api/v1/pricing/gemini-4-argon").await;
    let google = pricing["data"]["offerings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["provider"]["slug"] == "google")
        .expect("Google sells it");
    assert_eq!(
        (&google["input_price"], &google["output_price"]),
        (&Value::from(2.0), &Value::from(10.0))
    );
    assert_eq!(
        google["upcoming"]["effective_from"], "2026-12-01",
        "{google}"
    );
    assert_eq!(google["upcoming"]["input_price"], 4.0);
    assert_eq!(google["upcoming"]["output_price"], 20.0);
    let (_, changes) = app
        .get_json("/api/v1/changes?type=price&since=2026-11-20&limit=100")
        .await;
    let announced = changes["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "price:gemini-4-argon:google:2026-12-01")
        .unwrap_or_else(|| panic!("{changes}"));
    assert_eq!(announced["date"], "2026-12-01");
    assert_eq!(
        (
            &announced["previous_input_price"],
            &announced["input_price"]
        ),
        (&Value::from(2.0), &Value::from(4.0))
    );
}

/// The cheapest a careful buyer would use is no small reseller: Claude Sonnet 4.5's is a
/// creator, cloud or router offering (Poe's 2.6/13 today), while `cheapest_any` names the
/// cheapest of any kind, labelled. Offering lists open with paid offerings, not plans at 0/0,
/// and `sort=price` orders by the 3 : 1 blend of input and output prices.
#[tokio::test]
async fn cheapest_is_what_a_careful_buyer_would_use() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, sonnet) = app.get_json("/api/v1/models/claude-sonnet-4-5").await;
    let m = &sonnet["data"];
    assert!(
        m["cheapest"]["input_price"].as_f64().unwrap() >= 2.0,
        "{}",
        m["cheapest"]
    );
    assert!(matches!(
        m["cheapest"]["kind"].as_str(),
        Some("first_party" | "cloud" | "router")
    ));
    // Any kind: GitLab Duo's subscription (0/0, `plan`) today, before qihang-ai's 0.43/2.14.
    assert!(
        matches!(
            m["cheapest_any"]["kind"].as_str(),
            Some("reseller" | "plan" | "free_tier")
        ),
        "{}",
        m["cheapest_any"]
    );
    assert!(m["cheapest_any"]["input_price"].as_f64().unwrap() < 1.0);
    let first = &m["offerings"][0];
    assert!(
        !matches!(first["kind"].as_str(), Some("plan" | "free_tier")),
        "{first}"
    );

    let (_, by_price) = app.get_json("/api/v1/models?sort=price&limit=100").await;
    let blends: Vec<f64> = by_price["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| {
            Some((3.0 * m["input_price"].as_f64()? + m["output_price"].as_f64()?) / 4.0)
        })
        .collect();
    assert!(blends.len() > 50);
    assert!(blends.windows(2).all(|w| w[0] <= w[1]), "{blends:?}");
}

/// A price genai-prices' maintainers copied from a router until the creator publishes one
/// ("Imported from OpenRouter pricing; verify against …") is no first-party price: no
/// offering stands on such an entry, and the list price of `gpt-oss-20b` is the hosts'
/// median (docs/data.md, "Free").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn prices_copied_from_a_router_are_never_the_creator_s() {
    let data = crate::helpers::raw_json("genai-prices/prices/new_data/v2/data.json");
    let snap = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let mut copied = Vec::new();
    for provider in data.as_array().unwrap() {
        for entry in provider["models"].as_array().into_iter().flatten() {
            let c = entry["price_comments"]
                .as_str()
                .unwrap_or_default()
                .to_lowercase();
            if c.starts_with("imported from") && !c.contains("verified against") {
                copied.push(entry["id"].as_str().unwrap().to_string());
            }
        }
    }
    assert!(copied.len() >= 5, "{copied:?}");
    let standing: Vec<String> = snap
        .offerings
        .iter()
        .filter(|o| o.source == "genai-prices" && o.kind.to_string() == "first_party")
        .filter(|o| copied.contains(&o.provider_model_id))
        .map(|o| format!("{}@{}", o.provider_model_id, o.provider_slug))
        .collect();
    assert!(standing.is_empty(), "{standing:?}");
    let oss = snap
        .models
        .iter()
        .find(|m| m.slug == "gpt-oss-20b")
        .unwrap();
    assert_ne!(oss.input_price, Some(0.029));
    assert_ne!(
        oss.price_basis.as_ref().map(|b| b.to_string()).as_deref(),
        Some("first_party")
    );
    // Each offering lists the witness it serves first (docs/methodology.md, "Prices").
    let unserved: Vec<String> = snap
        .offerings
        .iter()
        .filter(|o| {
            entity::offering::Witness::decode(o.sources.as_deref())
                .first()
                .is_some_and(|w| w.source != o.source || w.provider_model_id != o.provider_model_id)
        })
        .map(|o| format!("{}@{}", o.model_slug, o.provider_slug))
        .collect();
    assert!(unserved.is_empty(), "{unserved:?}");
}
