//! The changes feed: newest first, filtered by date and type, paged in the envelope, and
//! the same entries as valid Atom 1.0 with stable ids.

use crate::helpers::{Backend, TestApp};

const O3_CUT: &str = "price:o3-2025-04-16:openai:2025-06-10";

#[tokio::test]
async fn the_feed_holds_o3_s_price_cut_at_openai() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, body) = app
        .get_json("/api/v1/changes?type=price&since=2025-06-10&limit=100&page=2")
        .await;
    assert_eq!(status, 200, "{body}");
    let total = body["meta"]["total"].as_u64().unwrap();
    let mut found = None;
    for page in 1..=total.div_ceil(100) {
        let (_, body) = app
            .get_json(&format!(
                "/api/v1/changes?type=price&since=2025-06-10&limit=100&page={page}"
            ))
            .await;
        let items = body["data"].as_array().unwrap();
        assert!(items.iter().all(|c| c["type"] == "price"));
        assert!(
            items
                .windows(2)
                .all(|w| w[0]["date"].as_str() >= w[1]["date"].as_str()),
            "newest first"
        );
        if let Some(c) = items.iter().find(|c| c["id"] == O3_CUT) {
            found = Some(c.clone());
        }
    }
    let c = found.expect("o3's 2025-06-10 cut is in the feed");
    assert_eq!(c["date"], "2025-06-10");
    assert_eq!(c["provider"]["slug"], "openai");
    assert_eq!(
        (
            c["previous_input_price"].clone(),
            c["previous_output_price"].clone()
        ),
        (10.0.into(), 40.0.into())
    );
    assert_eq!(
        (c["input_price"].clone(), c["output_price"].clone()),
        (2.0.into(), 8.0.into())
    );

    // Its price history says the same: 10/40 until the cut, 2/8 since.
    let (_, history) = app.get_json("/api/v1/pricing/history/o3").await;
    let openai: Vec<&serde_json::Value> = history["data"]["price_history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["provider"]["slug"] == "openai")
        .collect();
    assert_eq!(openai.len(), 2, "{openai:?}");
    assert_eq!(openai[0]["effective_from"], "2025-06-10");
    assert!(openai[0]["effective_to"].is_null());
    assert_eq!(openai[1]["input_price"], 10.0);
    assert_eq!(openai[1]["effective_to"], "2025-06-10");
}

#[tokio::test]
async fn filters_and_bad_input() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, all) = app.get_json("/api/v1/changes?limit=100").await;
    let kinds: std::collections::BTreeSet<&str> = all["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap())
        .collect();
    assert!(!kinds.is_empty());
    for t in ["price", "model", "score"] {
        let (status, body) = app
            .get_json(&format!("/api/v1/changes?type={t}&limit=5"))
            .await;
        assert_eq!(status, 200);
        assert!(body["meta"]["total"].as_u64().unwrap() > 0, "{t}");
        assert!(
            body["data"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["type"] == t)
        );
    }
    let (_, since) = app
        .get_json("/api/v1/changes?since=2026-08-01&limit=100")
        .await;
    assert!(
        since["data"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["date"].as_str().unwrap() >= "2026-08-01")
    );
    for (q, param) in [
        ("since=2025-6-1", "since"),
        ("since=2025-02-30", "since"),
        ("type=news", "type"),
    ] {
        let (status, body) = app.get_json(&format!("/api/v1/changes?{q}")).await;
        assert_eq!((status, body["param"].as_str()), (400, Some(param)), "{q}");
    }
}

#[tokio::test]
async fn the_atom_feed_parses_and_keeps_its_entry_ids() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let res = app.get("/api/v1/changes.atom?type=price&limit=50").await;
    assert_eq!(res.status().as_u16(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/atom+xml")
    );
    let xml = res.text().await.unwrap();
    let feed = feed_rs::parser::parse(xml.as_bytes()).expect("a valid Atom feed");
    assert_eq!(feed.feed_type, feed_rs::model::FeedType::Atom);
    assert_eq!(feed.entries.len(), 50);
    assert!(feed.updated.is_some());
    let (_, json) = app.get_json("/api/v1/changes?type=price&limit=50").await;
    let ids: Vec<String> = json["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("urn:mds:{}", c["id"].as_str().unwrap()))
        .collect();
    let feed_ids: Vec<String> = feed.entries.iter().map(|e| e.id.clone()).collect();
    assert_eq!(feed_ids, ids, "the feed holds the JSON entries, in order");
    assert!(
        feed.entries
            .iter()
            .all(|e| e.title.is_some() && e.updated.is_some())
    );
    assert!(feed.links.iter().any(|l| l.rel.as_deref() == Some("next")));

    // The same request again: the same ids (stable, not per-response).
    let again = app
        .get("/api/v1/changes.atom?type=price&limit=50")
        .await
        .text()
        .await
        .unwrap();
    let again = feed_rs::parser::parse(again.as_bytes()).unwrap();
    assert_eq!(
        again
            .entries
            .iter()
            .map(|e| e.id.clone())
            .collect::<Vec<_>>(),
        feed_ids
    );

    let (status, body) = app.get_json("/api/v1/changes.atom?since=yesterday").await;
    assert_eq!((status, body["param"].as_str()), (400, Some("since")));
}
