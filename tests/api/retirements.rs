//! Announced retirements (docs/data.md, "Lifecycle"): every model with a retirement date,
//! soonest first, within the window asked, with its successor where the creator names one;
//! a malformed date is a 400 naming its parameter.

use serde_json::Value;

use crate::helpers::{Backend, TestApp};

/// Every page of `path` (which has no `page`), concatenated.
async fn all(app: &TestApp, path: &str) -> Vec<Value> {
    let mut rows = Vec::new();
    for page in 1.. {
        let (status, body) = app.get_json(&format!("{path}&limit=100&page={page}")).await;
        assert_eq!(status, 200, "{body}");
        let items = body["data"].as_array().unwrap().clone();
        let total = body["meta"]["total"].as_u64().unwrap() as usize;
        rows.extend(items);
        if rows.len() >= total {
            break;
        }
    }
    rows
}

#[tokio::test]
async fn retirements_are_every_announced_date_soonest_first_within_the_window() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = TestApp::spawn(backend).await;
        let every = all(&app, "/api/v1/retirements?").await;
        // Every model with an announced date is listed, listed or not in the default lists.
        let (_, models) = app
            .get_json("/api/v1/models?availability=all&retired=true&limit=1")
            .await;
        let retired = models["meta"]["total"].as_u64().unwrap() as usize;
        assert!(retired > 0, "the data holds retired models");
        assert!(
            every.len() > retired,
            "retired and still-to-come: {}",
            every.len()
        );
        assert_eq!(
            every.iter().filter(|r| r["retired"] == true).count(),
            retired,
            "each retired model once"
        );
        assert!(
            every.windows(2).all(|w| {
                let (a, b) = (
                    w[0]["deprecation_date"].as_str(),
                    w[1]["deprecation_date"].as_str(),
                );
                a < b || (a == b && w[0]["slug"].as_str() < w[1]["slug"].as_str())
            }),
            "soonest first, then slug"
        );
        // A successor is a model with its own prices.
        let succeeded: Vec<&Value> = every
            .iter()
            .filter(|r| !r["superseded_by"].is_null())
            .collect();
        assert!(!succeeded.is_empty(), "some creators name a successor");
        for r in succeeded {
            let slug = r["superseded_by"]["slug"].as_str().unwrap();
            let (status, _) = app.get_json(&format!("/api/v1/models/{slug}")).await;
            assert_eq!(status, 200, "{slug}");
        }

        // The window and the creator narrow the same list.
        let window = all(
            &app,
            "/api/v1/retirements?from=2026-01-01&until=2026-12-31&creator=openai",
        )
        .await;
        let expected: Vec<&Value> = every
            .iter()
            .filter(|r| {
                let d = r["deprecation_date"].as_str().unwrap();
                ("2026-01-01"..="2026-12-31").contains(&d) && r["creator"]["slug"] == "openai"
            })
            .collect();
        assert!(!expected.is_empty(), "OpenAI retires models in 2026");
        assert_eq!(window.iter().collect::<Vec<_>>(), expected);
    }
}

#[tokio::test]
async fn a_malformed_retirement_query_names_its_parameter() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (query, param) in [
        ("from=2026-13-01", "from"),
        ("until=soon", "until"),
        ("from=2026-1-1", "from"),
        ("from=2026-02-30", "from"),
        // An empty window is a mistake, not an empty list.
        ("from=2027-01-01&until=2026-01-01", "from"),
        ("creator=", "creator"),
    ] {
        let (status, body) = app.get_json(&format!("/api/v1/retirements?{query}")).await;
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(body["param"], param, "{body}");
    }
    // GraphQL reads a creator's slug as REST does, whatever its case, and refuses the same.
    let total = |answer: &Value| answer["data"]["retirements"]["totalCount"].as_u64();
    let upper = app
        .graphql(
            "{ retirements(creator: \"OpenAI\") { totalCount } }",
            serde_json::json!({}),
        )
        .await;
    let lower = app
        .graphql(
            "{ retirements(creator: \"openai\") { totalCount } }",
            serde_json::json!({}),
        )
        .await;
    assert!(total(&lower).is_some_and(|n| n > 0), "{lower}");
    assert_eq!(total(&upper), total(&lower));
    for (document, param) in [
        ("{ retirements(creator: \"\") { totalCount } }", "creator"),
        (
            "{ retirements(from: \"2027-01-01\", until: \"2026-01-01\") { totalCount } }",
            "from",
        ),
    ] {
        let answer = app.graphql(document, serde_json::json!({})).await;
        assert_eq!(answer["errors"][0]["extensions"]["code"], "BAD_USER_INPUT");
        assert_eq!(
            answer["errors"][0]["extensions"]["param"], param,
            "{answer}"
        );
    }
}

/// A benchmark table's note that the creator shut a model down dates its retirement where
/// no creator's entry does (Epoch's "was deprecated 2024-01-04" for OpenAI's GPT-3 ids and
/// 2024-09-13 for GPT-3.5 Turbo 0613; "April 9, 2025 - discontinuation date" for Gemini 1.0
/// Pro), and so does a price entry's comment that the model retired on a day: the creator's
/// (Mistral Medium 2312's "Retired on", Mixtral 8x22B's "until its 2025-03-30 retirement",
/// DeepSeek's "when DeepSeek retired V4 Flash") or a host's naming the creator first
/// ("Moonshot discontinued the kimi-k2.5 family on 2026-08-31"); a creator's own date still
/// speaks for its model (`babbage-002`, 2026-09-28 in LiteLLM).
#[tokio::test]
async fn a_table_s_shut_down_note_retires_the_model() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (model, day) in [
        ("davinci", "2024-01-04"),
        ("babbage", "2024-01-04"),
        ("text-davinci-003", "2024-01-04"),
        ("gpt-3.5-turbo-0613", "2024-09-13"),
        ("gpt-4-32k-0613", "2025-06-06"),
        ("gemini-pro", "2025-04-09"),
        ("mistral-medium-2312", "2025-06-16"),
        ("mixtral-8x22b-instruct", "2025-03-30"),
        ("deepseek-v4-flash-0731", "2026-09-10"),
        ("kimi-k2.5", "2026-08-31"),
        ("babbage-002", "2026-09-28"),
    ] {
        let (status, body) = app.get_json(&format!("/api/v1/models/{model}")).await;
        assert_eq!(status, 200, "{model}: {body}");
        assert_eq!(body["data"]["deprecation_date"], day, "{model}");
        assert_eq!(body["data"]["retired"], true, "{model}");
    }
}
