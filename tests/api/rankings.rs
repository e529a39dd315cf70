//! Rankings a user accepts: the default list (average score) and the capability index,
//! read as a practitioner would, and the index checked against Epoch AI's published one.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::helpers::{Backend, TestApp, raw_sources};

fn slugs(body: &Value) -> Vec<String> {
    body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["slug"].as_str().unwrap().to_string())
        .collect()
}

/// Unfiltered lists page through precomputed orders of the models listed by default; they
/// must equal what testing every model against the filter gives.
#[tokio::test]
async fn unfiltered_lists_equal_the_filtered_scan() {
    use mds::catalog::{ModelFilter, ModelSort, SortOrder};
    let app = TestApp::spawn(Backend::Sqlite).await;
    let catalog = app.state.catalog.snapshot();
    let everything = ModelFilter {
        availability: Some("all".into()),
        ..ModelFilter::default()
    };
    for sort in [
        ModelSort::Score,
        ModelSort::Price,
        ModelSort::Name,
        ModelSort::Date,
        ModelSort::Capability,
    ] {
        for order in [SortOrder::Asc, SortOrder::Desc] {
            let (all, _) = catalog.models_page(&everything, sort, order, 0, usize::MAX);
            let scanned: Vec<String> = all
                .iter()
                .filter(|m| m.availability != "research" && m.task != "router" && !m.retired)
                .map(|m| m.slug.clone())
                .collect();
            for (offset, limit) in [(0, 20), (37, 100), (scanned.len() - 5, 100)] {
                let (page, total) =
                    catalog.models_page(&ModelFilter::default(), sort, order, offset, limit);
                let page: Vec<String> = page.iter().map(|m| m.slug.clone()).collect();
                let end = (offset + limit).min(scanned.len());
                assert_eq!(total, scanned.len(), "{sort:?} {order:?}");
                assert_eq!(page, scanned[offset..end], "{sort:?} {order:?} {offset}");
            }
        }
    }
}

#[tokio::test]
async fn the_default_list_opens_with_strong_models_measured_on_three_benchmarks() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, body) = app.get_json("/api/v1/models?limit=20").await;
    assert_eq!(status, 200);
    for m in body["data"].as_array().unwrap() {
        assert!(
            m["benchmarks_count"].as_i64().unwrap() >= 3,
            "{} averages fewer than 3 benchmarks",
            m["slug"]
        );
    }
    let top = slugs(&body);
    for expected in ["claude-opus-4-7", "gpt-5.5", "gpt-5.4"] {
        assert!(
            top.iter().any(|s| s == expected),
            "{expected} not in {top:?}"
        );
    }
    // 2023 research checkpoints known from one leaderboard row once led this list.
    for legacy in [
        "mutimodal-t-sciq-large",
        "mc-cot-large",
        "visionllm-v2",
        "honeybee-vicuna-13b",
    ] {
        assert!(!top.iter().any(|s| s == legacy), "{legacy} in the top 20");
    }
    // A model with fewer than 3 averaged scores has no average at all.
    let (_, m) = app.get_json("/api/v1/models/mutimodal-t-sciq-large").await;
    assert!(m["data"]["average_score"].is_null(), "{}", m["data"]);
}

#[tokio::test]
async fn the_capability_index_ranks_frontier_models_first() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, body) = app
        .get_json("/api/v1/models?sort=capability&limit=30")
        .await;
    assert_eq!(status, 200);
    let values: Vec<f64> = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["capability_index"].as_f64().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    let top = slugs(&body);
    for expected in ["gpt-5.5", "claude-opus-4-7", "claude-opus-4-6"] {
        assert!(
            top.iter().any(|s| s == expected),
            "{expected} not in {top:?}"
        );
    }
    // The anchors of the published scale, and the order of three generations.
    let index = |b: &Value| b["data"]["capability_index"].as_f64().unwrap();
    let (_, gpt4) = app.get_json("/api/v1/models/gpt-4-0613").await;
    let (_, gpt5) = app.get_json("/api/v1/models/gpt-5-2025-08-07").await;
    let (_, gpt4o) = app.get_json("/api/v1/models/gpt-4o-2024-11-20").await;
    assert_eq!(index(&gpt4), 100.0);
    assert_eq!(index(&gpt5), 150.0);
    assert!(index(&gpt4) < index(&gpt4o) && index(&gpt4o) < index(&gpt5));
    assert!(gpt5["data"]["capability_index_se"].as_f64().unwrap() > 0.0);
    // Benchmarks carry the fit's difficulty and slope, and the average's reasoning.
    let (_, gpqa) = app.get_json("/api/v1/benchmarks/gpqa-diamond").await;
    assert!(
        gpqa["data"]["difficulty"].as_f64().is_some(),
        "{}",
        gpqa["data"]
    );
    assert!(gpqa["data"]["slope"].as_f64().unwrap() > 0.0);
    let (_, hellaswag) = app.get_json("/api/v1/benchmarks/hellaswag").await;
    assert_eq!(hellaswag["data"]["in_average"], false);
    assert!(
        hellaswag["data"]["average_reason"]
            .as_str()
            .unwrap()
            .contains("saturated")
    );
    // GraphQL sorts the same way.
    let gql = app
        .graphql(
            "{ models(first: 3, sort: CAPABILITY) { nodes { slug capabilityIndex } } }",
            serde_json::json!({}),
        )
        .await;
    assert_eq!(gql["data"]["models"]["nodes"][0]["slug"], top[0].as_str());
}

fn spearman(pairs: &[(f64, f64)]) -> f64 {
    fn ranks(x: &[f64]) -> Vec<f64> {
        let mut idx: Vec<usize> = (0..x.len()).collect();
        idx.sort_by(|&i, &j| x[i].total_cmp(&x[j]));
        let mut r = vec![0.0; x.len()];
        for (rank, &i) in idx.iter().enumerate() {
            r[i] = rank as f64;
        }
        r
    }
    let a = ranks(&pairs.iter().map(|p| p.0).collect::<Vec<_>>());
    let b = ranks(&pairs.iter().map(|p| p.1).collect::<Vec<_>>());
    let n = pairs.len() as f64;
    let d2: f64 = a.iter().zip(&b).map(|(x, y)| (x - y).powi(2)).sum();
    1.0 - 6.0 * d2 / (n * (n * n - 1.0))
}

/// Epoch AI's published capabilities index is a comparison only, never an input: the
/// rank correlation on the models both cover must be at least 0.9.
#[tokio::test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
async fn the_index_agrees_with_epoch_s_published_index() {
    let raw = raw_sources();
    let path = raw.join("epoch/data/website/epoch_capabilities_index.csv");
    let catalog = {
        let url = crate::helpers::fresh_database(Backend::Sqlite).await;
        let db = mds::store::connect(&url).await.unwrap();
        mds::catalog::Catalog::load(&db).await.unwrap()
    };
    let mut reader = csv::Reader::from_path(&path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (version, score) = (col("Model version"), col("ECI Score"));
    // Epoch lists run configurations (`_high`, `_32K`); a model's best one is compared.
    let mut epoch: BTreeMap<String, f64> = BTreeMap::new();
    let mut rows_with_score = 0;
    for row in reader.records() {
        let row = row.unwrap();
        let Ok(eci) = row[score].parse::<f64>() else {
            continue;
        };
        rows_with_score += 1;
        let id = row[version].to_lowercase();
        let id = id.split('_').next().unwrap_or_default();
        if let Some(m) = catalog.model_or_alias(id)
            && m.capability_index.is_some()
        {
            let e = epoch.entry(m.slug.clone()).or_insert(f64::MIN);
            *e = e.max(eci);
        }
    }
    let pairs: Vec<(f64, f64)> = epoch
        .iter()
        .map(|(slug, eci)| (*eci, catalog.model(slug).unwrap().capability_index.unwrap()))
        .collect();
    let rho = spearman(&pairs);
    eprintln!(
        "capability index vs Epoch ECI: Spearman {rho:.3} on {} models (Epoch scores {rows_with_score} rows)",
        pairs.len()
    );
    assert!(pairs.len() >= 80, "only {} models in common", pairs.len());
    assert!(rho >= 0.9, "Spearman {rho:.3}");
}
