//! Economy indicators: seven monthly series computed at ingest, each explainable from the
//! API's own rows. Two of them are recomputed here from the bulk exports, independently of
//! the ingest code.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::helpers::{Backend, TestApp};

const SLUGS: [&str; 7] = [
    "token-price-index",
    "frontier-price",
    "cost-of-capability",
    "frontier-capability",
    "open-weights-gap",
    "models-released",
    "price-changes",
];

fn next_month(m: &str) -> String {
    let (y, mo): (i32, u32) = (m[..4].parse().unwrap(), m[5..].parse().unwrap());
    if mo == 12 {
        format!("{:04}-01", y + 1)
    } else {
        format!("{y:04}-{:02}", mo + 1)
    }
}

async fn ndjson(app: &TestApp, table: &str) -> Vec<Value> {
    let text = app
        .get(&format!("/api/v1/export/{table}.ndjson"))
        .await
        .text()
        .await
        .unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

async fn series(app: &TestApp, slug: &str) -> Vec<Value> {
    let (status, body) = app.get_json(&format!("/api/v1/economy/{slug}")).await;
    assert_eq!(status, 200, "{slug}: {body}");
    body["data"]["series"].as_array().unwrap().clone()
}

#[tokio::test]
async fn every_indicator_is_described_and_its_series_has_no_gaps() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, body) = app.get_json("/api/v1/economy").await;
    assert_eq!(status, 200);
    let list = body["data"].as_array().unwrap();
    let slugs: Vec<&str> = list.iter().map(|i| i["slug"].as_str().unwrap()).collect();
    assert_eq!(slugs, SLUGS);
    for i in list {
        let slug = i["slug"].as_str().unwrap();
        for field in ["name", "description", "unit", "method"] {
            assert!(
                i[field].as_str().is_some_and(|s| s.len() > 3),
                "{slug}.{field}"
            );
        }
        assert!(!i["sources"].as_array().unwrap().is_empty(), "{slug}");
        let points = series(&app, slug).await;
        assert!(points.len() >= 12, "{slug}: only {} months", points.len());
        for w in points.windows(2) {
            let (a, b) = (
                w[0]["date"].as_str().unwrap(),
                w[1]["date"].as_str().unwrap(),
            );
            assert_eq!(next_month(a), b, "{slug}: gap between {a} and {b}");
        }
        assert_eq!(&i["latest"], points.last().unwrap(), "{slug}");
        // The snapshot's newest source (genai-prices 0.2.3) is as of 2026-11-10: every
        // series reaches that month.
        assert_eq!(i["latest"]["date"], "2026-11", "{slug}");
    }
    // The base month of the price index is 100. The cost of GPT-4-level capability starts at
    // GPT-4's launch (2023-03) with the only model then whose index's lower bound reaches
    // gpt-4-0613's: `gpt-4-32k-0314`, 60/120 per 1M tokens, 75 blended (OpenAI's price entry
    // bills it; the 8k `gpt-4-0314`, 37.5, misses the bound by its standard error).
    assert_eq!(series(&app, "token-price-index").await[0]["value"], 100.0);
    let cost = series(&app, "cost-of-capability").await;
    assert_eq!(cost[0]["date"], "2023-03", "{}", cost[0]);
    assert_eq!(cost[0]["value"], 75.0, "{}", cost[0]);
    assert!(
        cost.iter()
            .any(|p| p["value"] == 37.5 && p["date"].as_str() < Some("2024-01")),
        "GPT-4's own 30/60 sets the level in 2023"
    );
    assert!(
        cost.last().unwrap()["value"].as_f64().unwrap() < 1.0,
        "GPT-4-level capability should cost well under 1 USD per 1M tokens by 2026"
    );
}

#[tokio::test]
async fn from_and_to_narrow_a_series_and_bad_input_is_named() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let all = series(&app, "frontier-capability").await;
    let (_, body) = app
        .get_json("/api/v1/economy/frontier-capability?from=2025-01&to=2025-06")
        .await;
    let part = body["data"]["series"].as_array().unwrap();
    let dates: Vec<&str> = part.iter().map(|p| p["date"].as_str().unwrap()).collect();
    assert_eq!(
        dates,
        [
            "2025-01", "2025-02", "2025-03", "2025-04", "2025-05", "2025-06"
        ]
    );
    let whole: Vec<&Value> = all
        .iter()
        .filter(|p| ("2025-01".."2025-07").contains(&p["date"].as_str().unwrap()))
        .collect();
    assert_eq!(part.iter().collect::<Vec<_>>(), whole);

    let (status, body) = app.get_json("/api/v1/economy/no-such-indicator").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
    for (param, value) in [("from", "2025-13"), ("to", "25-01"), ("from", "2025-1")] {
        let (status, body) = app
            .get_json(&format!("/api/v1/economy/frontier-price?{param}={value}"))
            .await;
        assert_eq!(status, 400, "{param}={value}");
        assert_eq!(body["param"], param);
    }

    let gql = app
        .graphql(
            "{ economyIndicator(slug: \"models-released\") { slug latest { date value secondary } series(from: \"2026-01\") { date } } }",
            serde_json::json!({}),
        )
        .await;
    let i = &gql["data"]["economyIndicator"];
    assert_eq!(i["slug"], "models-released");
    assert_eq!(i["series"][0]["date"], "2026-01");
}

/// `models-released` from the models export: listed models (api, open_weights) by release
/// month, with the open-weights share.
#[tokio::test]
async fn models_released_recomputes_from_the_models_export() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let models = ndjson(&app, "models").await;
    let mut by_month: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for m in &models {
        let listed = matches!(m["availability"].as_str(), Some("api" | "open_weights"));
        if let (true, Some(date)) = (listed, m["release_date"].as_str()) {
            let e = by_month.entry(date[..7].to_string()).or_default();
            e.0 += 1;
            e.1 += u32::from(m["open_source"] == true);
        }
    }
    let served = series(&app, "models-released").await;
    assert_eq!(
        served[0]["date"].as_str(),
        by_month.keys().next().map(String::as_str)
    );
    for p in &served {
        let (n, open) = by_month
            .get(p["date"].as_str().unwrap())
            .copied()
            .unwrap_or_default();
        assert_eq!(p["value"].as_f64(), Some(f64::from(n)), "{p}");
        let share = (n > 0).then(|| (f64::from(open) / f64::from(n) * 1000.0).round() / 10.0);
        assert_eq!(p["secondary"].as_f64(), share, "{p}");
    }
}

/// `price-changes` from the offerings and price-history exports: consecutive periods of a
/// first-party (model, provider) whose blended price (3:1) fell or rose.
#[tokio::test]
async fn price_changes_recompute_from_the_history_export() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let first_party: BTreeSet<(String, String)> = ndjson(&app, "offerings")
        .await
        .iter()
        .filter(|o| o["kind"] == "first_party")
        .map(|o| {
            (
                o["model_slug"].as_str().unwrap().to_string(),
                o["provider_slug"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut pairs: BTreeMap<(String, String), Vec<Value>> = BTreeMap::new();
    for h in ndjson(&app, "price_history").await {
        let key = (
            h["model_slug"].as_str().unwrap().to_string(),
            h["provider_slug"].as_str().unwrap().to_string(),
        );
        if first_party.contains(&key) {
            pairs.entry(key).or_default().push(h);
        }
    }
    let blended =
        |h: &Value| Some((3.0 * h["input_price"].as_f64()? + h["output_price"].as_f64()?) / 4.0);
    let mut counts: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for periods in pairs.values_mut() {
        periods.sort_by(|a, b| {
            a["effective_from"]
                .as_str()
                .cmp(&b["effective_from"].as_str())
        });
        for w in periods.windows(2) {
            if w[0]["effective_to"] != w[1]["effective_from"] {
                continue;
            }
            let (Some(old), Some(new)) = (blended(&w[0]), blended(&w[1])) else {
                continue;
            };
            let e = counts
                .entry(w[1]["effective_from"].as_str().unwrap()[..7].to_string())
                .or_default();
            if new < old {
                e.0 += 1.0;
            } else if new > old {
                e.1 += 1.0;
            }
        }
    }
    let served = series(&app, "price-changes").await;
    let total_cuts: f64 = served.iter().map(|p| p["value"].as_f64().unwrap()).sum();
    assert!(total_cuts >= 10.0, "only {total_cuts} cuts");
    for p in &served {
        let (cuts, rises) = counts
            .get(p["date"].as_str().unwrap())
            .copied()
            .unwrap_or_default();
        assert_eq!(p["value"].as_f64(), Some(cuts), "{p}");
        assert_eq!(p["secondary"].as_f64(), Some(rises), "{p}");
    }
    // o3's cut at OpenAI on 2025-06-10 is one of June 2025's.
    let june = served.iter().find(|p| p["date"] == "2025-06").unwrap();
    assert!(june["value"].as_f64().unwrap() >= 1.0);
}

/// `frontier-capability` from the models export (Rankings #35, 3): the highest capability
/// index among listed models released by each month's date whose index a third party's
/// result supports (`rank_basis` independent or mixed). A model rated on its maker's claims
/// alone never sets the frontier, however high its index.
#[tokio::test]
async fn frontier_capability_recomputes_from_evidenced_models_only() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let models = ndjson(&app, "models").await;
    let (_, dataset) = app.get_json("/api/v1/dataset").await;
    let built = dataset["data"]["built_at"].as_str().unwrap().to_string();
    let listed = |m: &&Value| matches!(m["availability"].as_str(), Some("api" | "open_weights"));
    let evidenced = |m: &&Value| matches!(m["rank_basis"].as_str(), Some("independent" | "mixed"));
    let month_end = |month: &str| {
        if built.starts_with(month) {
            return built.clone();
        }
        let first =
            chrono::NaiveDate::parse_from_str(&format!("{}-01", next_month(month)), "%Y-%m-%d")
                .unwrap();
        (first - chrono::Duration::days(1))
            .format("%Y-%m-%d")
            .to_string()
    };
    let best = |date: &str, keep: &dyn Fn(&&Value) -> bool| {
        models
            .iter()
            .filter(listed)
            .filter(|m| keep(m))
            .filter(|m| m["release_date"].as_str().is_some_and(|r| r <= date))
            .filter_map(|m| m["capability_index"].as_f64())
            .max_by(f64::total_cmp)
    };
    let served = series(&app, "frontier-capability").await;
    let mut claims_excluded = 0;
    for p in &served {
        let date = month_end(p["date"].as_str().unwrap());
        assert_eq!(p["value"].as_f64(), best(&date, &evidenced), "{p}");
        if best(&date, &|_| true) > p["value"].as_f64() {
            claims_excluded += 1;
        }
    }
    // Fugu Ultra (Sakana's figures alone, released 2026-06) would lead from its month on.
    assert!(
        claims_excluded >= 1,
        "no month where a claim would have led"
    );
}
