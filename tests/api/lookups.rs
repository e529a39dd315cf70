//! Lookups by the ids users hold: provider model ids, router variants, Bedrock ids, display
//! names, in any case; unknown ids are a 404 naming the closest models.

use serde_json::Value;

use crate::helpers::{Backend, TestApp};

async fn lookup(app: &TestApp, id: &str) -> (u16, Value) {
    let res = app
        .client
        .get(app.url("/api/v1/models/lookup"))
        .query(&[("id", id)])
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap())
}

#[tokio::test]
async fn every_spelling_of_a_model_resolves_to_it() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (id, slug) in [
        ("anthropic/claude-3.5-sonnet", "claude-3-5-sonnet-20241022"),
        (
            "us.anthropic.claude-3-5-sonnet-20241022-v2:0",
            "claude-3-5-sonnet-20241022",
        ),
        ("claude-3-5-sonnet-latest", "claude-3-5-sonnet-20241022"),
        ("openai/gpt-4o", "gpt-4o-2024-11-20"),
        ("GPT-4o", "gpt-4o-2024-11-20"),
        ("openai/gpt-4o:free", "gpt-4o-2024-11-20"),
        ("claude-opus-4-1@20250805", "claude-opus-4-1-20250805"),
        ("amazon.nova-premier-v1:0", "nova-premier"),
        ("Qwen/Qwen3.5-27B", "qwen3.5-27b"),
    ] {
        let (status, body) = lookup(&app, id).await;
        assert_eq!(status, 200, "{id}: {body}");
        assert_eq!(body["data"]["slug"], slug, "{id}");
        assert!(body["data"]["offerings"].is_array());
    }
    // Every provider model id in the data resolves, case-insensitively, to its model.
    let catalog = app.state.catalog.snapshot();
    let mut checked = 0;
    for o in catalog.all_offerings().iter().step_by(7) {
        let m = catalog.lookup(&o.provider_model_id.to_uppercase()).unwrap();
        // Two models may share a provider id; the most authoritative claim wins, so the
        // id at least resolves to a model that provider offers under it.
        let offered = catalog.offerings_of(&m.slug).iter().any(|x| {
            x.provider_model_id
                .eq_ignore_ascii_case(&o.provider_model_id)
        }) || catalog
            .aliases_of(&m.slug)
            .iter()
            .any(|a| a.eq_ignore_ascii_case(&o.provider_model_id))
            || m.slug.eq_ignore_ascii_case(&o.provider_model_id);
        assert!(offered, "{} resolved to {}", o.provider_model_id, m.slug);
        checked += 1;
    }
    assert!(checked > 500);
    // compare takes any identifier too.
    let gql = app
        .graphql(
            r#"{ compare(models: ["openai/gpt-4o", "anthropic/claude-3.5-sonnet"]) { models { slug } } }"#,
            serde_json::json!({}),
        )
        .await;
    assert_eq!(
        gql["data"]["compare"]["models"][0]["slug"], "gpt-4o-2024-11-20",
        "{gql}"
    );
}

#[tokio::test]
async fn unknown_ids_are_404_with_the_closest_models() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, body) = lookup(&app, "openai/claude-sonnet-9").await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "not_found");
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("closest: claude-sonnet"),
        "{body}"
    );
    let (status, body) = lookup(&app, "").await;
    assert_eq!(status, 400);
    assert_eq!(body["param"], "id");
    let (status, _) = lookup(&app, &"x".repeat(300)).await;
    assert_eq!(status, 400);
}

/// Clients (4): GraphQL's single-model fields take every identifier REST takes. The same
/// identifiers go through both faces: REST answers each with a 308 to the model GraphQL
/// names, and an identifier REST does not know is null in GraphQL.
#[tokio::test]
async fn graphql_and_rest_resolve_the_same_identifiers() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let no_redirects = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let ids = [
        "anthropic/claude-sonnet-4.5",
        "claude-sonnet-4.5",
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "openai/gpt-5.5",
        "GPT-4o",
        "openai/gpt-4o:free",
    ];
    for id in ids {
        let escaped = id.replace('/', "%2F");
        for (rest, field) in [
            (format!("/api/v1/models/{escaped}"), "model"),
            (format!("/api/v1/pricing/{escaped}"), "modelPricing"),
            (format!("/api/v1/pricing/history/{escaped}"), "priceHistory"),
        ] {
            let res = no_redirects.get(app.url(&rest)).send().await.unwrap();
            assert_eq!(res.status().as_u16(), 308, "{rest}");
            let location = res.headers()["location"].to_str().unwrap().to_string();
            let canonical = location
                .rsplit('/')
                .next()
                .unwrap()
                .split('?')
                .next()
                .unwrap()
                .to_string();
            let selection = if field == "priceHistory" {
                "inputPrice"
            } else {
                "slug"
            };
            let body = app
                .graphql(
                    &format!("query($s: String!) {{ {field}(slug: $s) {{ {selection} }} }}"),
                    serde_json::json!({ "s": id }),
                )
                .await;
            assert!(body["errors"].is_null(), "{id}: {body}");
            assert!(!body["data"][field].is_null(), "{field}({id}) is null");
            if field != "priceHistory" {
                assert_eq!(body["data"][field]["slug"], canonical.as_str(), "{id}");
            }
        }
    }
    // An identifier nobody uses is a 404 in REST and null in GraphQL.
    let res = no_redirects
        .get(app.url("/api/v1/models/no-such-model-anywhere"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 404);
    let body = app
        .graphql(
            "{ model(slug: \"no-such-model-anywhere\") { slug } }",
            serde_json::json!({}),
        )
        .await;
    assert!(body["data"]["model"].is_null(), "{body}");
}
