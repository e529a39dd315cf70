//! One real model per slug, as a user reading the lists sees it (`docs/methodology.md`): names carry
//! no router prefix, run configurations and host packagings are not models of their own,
//! and the same name rarely appears twice.

use std::collections::{BTreeMap, BTreeSet};

use crate::helpers::{Backend, TestApp};

#[tokio::test]
async fn listed_models_are_real_models() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let catalog = app.state.catalog.snapshot();
    let listed: Vec<_> = catalog
        .all_models()
        .iter()
        .filter(|m| matches!(m.availability.as_str(), "api" | "open_weights"))
        .collect();
    assert!(listed.len() > 1000);

    let prefixed: Vec<&str> = listed
        .iter()
        .map(|m| m.name.as_str())
        .filter(|n| mds::ingest::identities::display_name(n) != *n)
        .collect();
    assert!(
        prefixed.is_empty(),
        "router prefixes in names: {prefixed:?}"
    );

    // Thinking modes and effort levels of models whose creators sell one model with a switch.
    let configured: Vec<&str> = listed
        .iter()
        .map(|m| m.slug.as_str())
        .filter(|s| {
            let modes = [
                "claude-",
                "gemini-",
                "gpt-",
                "o1",
                "o3",
                "o4",
                "deepseek-",
                "grok-",
            ];
            let run = [
                "-thinking",
                "-high",
                "-low",
                "-medium",
                "-minimal",
                "-xhigh",
                "-maas",
                "-fp8",
            ];
            let budget = s.rsplit_once('-').is_some_and(|(_, last)| {
                last.len() > 1
                    && last.ends_with('k')
                    && last[..last.len() - 1].bytes().all(|b| b.is_ascii_digit())
            });
            modes.iter().any(|p| s.starts_with(p)) && (budget || run.iter().any(|r| s.ends_with(r)))
        })
        .collect();
    assert!(
        configured.is_empty(),
        "run configurations as models: {configured:?}"
    );

    // Host spellings are aliases of the model they serve.
    for alias in [
        "databricks-gpt-5",
        "anthropic-claude-4.6-opus",
        "claude-sonnet-4-5-20250929-thinking",
        "glm-4p7",
    ] {
        let (status, body) = app
            .get_json(&format!("/api/v1/models/lookup?id={alias}"))
            .await;
        assert_eq!(status, 200, "{alias}: {body}");
        let slug = body["data"]["slug"].as_str().unwrap();
        assert!(
            !slug.contains("databricks") && !slug.ends_with("thinking") && !slug.contains("4p7"),
            "{alias} → {slug}"
        );
    }

    // Duplicate display names under 1 % (`docs/methodology.md`): measured at 70 of 1,546 (4.5 %)
    // before models named alike were joined. The few left are names a source got wrong
    // (`gemini-1.5-flash-8b` called "Gemini 1.5 Flash") or genuinely two models (a preview and
    // its GA, two snapshots) that the rule keeps apart.
    let mut names: BTreeMap<String, usize> = BTreeMap::new();
    for m in &listed {
        *names.entry(m.name.to_lowercase()).or_default() += 1;
    }
    let extra: usize = names.values().map(|n| n - 1).sum();
    assert!(
        extra * 100 < listed.len(),
        "{extra} duplicate names among {} listed models",
        listed.len()
    );
    // Over the whole catalogue, research models too, a name only a benchmark table gives
    // (its model family: Epoch's "GPT-3.5" for five OpenAI ids) names one model each with
    // its id: 26 names were shared before, 3 after, all sellers' own names.
    let mut every: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for m in catalog.all_models() {
        every
            .entry(m.name.to_lowercase())
            .or_default()
            .push(m.slug.as_str());
    }
    let shared: Vec<_> = every.iter().filter(|(_, s)| s.len() > 1).collect();
    assert!(shared.len() <= 5, "{shared:?}");
    assert!(!every.contains_key("gpt-3.5"), "{:?}", every.get("gpt-3.5"));
    assert_eq!(
        catalog.model("text-davinci-003").map(|m| m.name.as_str()),
        Some("GPT-3.5 (text-davinci-003)")
    );
}

/// Ids a creator's price list sells apart are two models, though a benchmark table names
/// both alike (OpenAI's `babbage` at 0.5 and `babbage-002` at 0.4, both Epoch's "GPT-3
/// XL"); a leaderboard's dashed day is the snapshot of that day (`grok-2-08-13` is
/// `grok-2-0813`); the undated name a creator's price entry matches names its snapshot, so
/// a host selling it sells that snapshot (Vercel's `xai/grok-2` is Grok 2 1212).
#[tokio::test]
async fn versions_a_price_list_sells_apart_stay_apart() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (model, input) in [("babbage", 0.5), ("babbage-002", 0.4)] {
        let (status, body) = app.get_json(&format!("/api/v1/models/{model}")).await;
        assert_eq!(status, 200, "{model}: {body}");
        assert_eq!(body["data"]["slug"], model, "{body}");
        assert_eq!(body["data"]["input_price"], input, "{model}");
    }
    let (_, b2) = app.get_json("/api/v1/models/babbage-002").await;
    assert_eq!(b2["data"]["name"], "GPT-3 XL (babbage-002)");
    assert_eq!(b2["data"]["context_window"], 16384);
    for (dashed, snapshot) in [
        ("grok-2-08-13", "grok-2-0813"),
        ("grok-2-mini-08-13", "grok-2-mini-0813"),
        // A leaderboard's vendor-dashed spelling of Perplexity's own model.
        ("perplexity-sonar-pro", "sonar-pro"),
        // A slug folded into its model since (Clarifai's serving tier): its join key is an
        // alias.
        ("minimax-m2.5-high-throughput", "minimax-m2.5"),
    ] {
        let (status, body) = app
            .get_json(&format!("/api/v1/models/lookup?id={dashed}"))
            .await;
        assert_eq!(status, 200, "{dashed}: {body}");
        assert_eq!(body["data"]["slug"], snapshot, "{dashed}");
    }
    let catalog = app.state.catalog.snapshot();
    for (model, host, id) in [
        ("grok-2-1212", "vercel", "xai/grok-2"),
        ("grok-2-vision-1212", "vercel", "xai/grok-2-vision"),
        // Anthropic's models before Claude 3 are named by their `-v`: Bedrock's
        // `anthropic.claude-v1` is Claude v1, not a revision of a `claude`.
        ("claude-v1", "amazon-bedrock", "anthropic.claude-v1"),
    ] {
        let at_host: Vec<&str> = catalog
            .offerings_of(model)
            .iter()
            .filter(|o| o.provider_slug == host)
            .map(|o| o.provider_model_id.as_str())
            .collect();
        assert_eq!(at_host, [id], "{model}");
    }
    // Catalogue-wide: no two models are one day spelt with and without a dash.
    let slugs: BTreeSet<&str> = catalog
        .all_models()
        .iter()
        .map(|m| m.slug.as_str())
        .collect();
    let twice: Vec<&&str> = slugs
        .iter()
        .filter(|s| {
            let Some((rest, day)) = s.rsplit_once('-') else {
                return false;
            };
            let Some((stem, month)) = rest.rsplit_once('-') else {
                return false;
            };
            month.len() == 2
                && day.len() == 2
                && slugs.contains(format!("{stem}-{month}{day}").as_str())
        })
        .collect();
    assert!(twice.is_empty(), "{twice:?}");
}

/// Spellings that sources name alike are one model; ids that name different snapshots,
/// sizes or checkpoints stay apart, and base checkpoints keep their own scores.
#[tokio::test]
async fn models_named_alike_are_one_model() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let slug_of = |id: &str| {
        let id = id.to_string();
        let app = &app;
        async move {
            let (status, body) = app
                .get_json(&format!("/api/v1/models/lookup?id={id}"))
                .await;
            assert_eq!(status, 200, "{id}: {body}");
            body["data"]["slug"].as_str().unwrap().to_string()
        }
    };
    for (a, b) in [
        ("openai-gpt-52", "gpt-5.2"),
        ("k2.5", "kimi-k2.5"),
        ("umans-glm-5.1", "glm-5.1"),
        ("zai-org-glm-5-1", "glm-5.1"),
        ("jamba-mini-1.6", "jamba-1.6-mini"),
        ("command-r", "command-r-08-2024"),
        ("mistral-medium-3", "mistral-medium-2505"),
        ("open-mistral-7b", "mistral-7b-v0.1"),
        ("gemini-3-pro", "gemini-3-pro-preview"),
        ("deepseek-3.2", "deepseek-v3.2"),
        // Sellers' plain names of models released only as Instruct (second pass).
        ("llama-3.3-70b", "llama-3.3-70b-instruct"),
        ("phi-4-mini", "phi-4-mini-instruct"),
        ("qwen3-vl-235b-a22b", "qwen3-vl-235b-a22b-instruct"),
        // A host's product naming the model it runs: "Agentic Chat (Claude Opus 4.5)".
        ("duo-chat-opus-4-5", "claude-opus-4-5"),
        ("duo-chat-gpt-5-1", "gpt-5.1"),
        // A router naming the cloud it goes through, in the id or the name.
        ("azure-gpt-4o", "gpt-4o"),
        (
            "cerebras-llama-4-scout-17b-16e-instruct",
            "llama-4-scout-17b-16e-instruct",
        ),
        ("alicloud-deepseek-v4-flash", "deepseek-v4-flash"),
    ] {
        assert_eq!(slug_of(a).await, slug_of(b).await, "{a} and {b}");
    }
    // The host's dated tag does not become DeepSeek's slug.
    assert_eq!(slug_of("deepseek-v3.2").await, "deepseek-v3.2");
    for (a, b) in [
        ("gemini-1.5-flash-8b", "gemini-1.5-flash"),
        ("kimi-k2-0905", "kimi-k2-0711-preview"),
        ("deepseek-v3-base", "deepseek-v3"),
        ("llama-2-70b-hf", "llama-2-70b-chat"),
        // A plain name a benchmark table uses is the base model; `chat` names products.
        ("mixtral-8x22b-v0.1", "mixtral-8x22b-instruct"),
        ("gemma-2b", "gemma-2b-it"),
        ("gpt-5.2-chat", "gpt-5.2"),
    ] {
        assert_ne!(slug_of(a).await, slug_of(b).await, "{a} and {b}");
    }
    // DeepSeek-V3's technical report measured the base model on MMLU; the chat model's
    // MMLU rows are its own.
    let (status, base) = app.get_json("/api/v1/models/deepseek-v3-base").await;
    assert_eq!(status, 200);
    let benchmarks: Vec<&str> = base["data"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["benchmark"]["slug"].as_str().unwrap())
        .collect();
    assert!(benchmarks.contains(&"mmlu"), "{benchmarks:?}");
}

/// Flagship models by their common names, with benchmarks the raw data holds for them
/// (every LiveBench release is read, so GPT-5 and GLM-4.5 have LiveBench scores).
#[tokio::test]
async fn flagships_hold_the_benchmarks_their_sources_publish() {
    const FLAGSHIPS: &[(&str, &[&str])] = &[
        (
            "gpt-4o",
            &[
                "livebench",
                "gpqa-diamond",
                "aider-polyglot",
                "swe-bench-verified",
            ],
        ),
        (
            "gpt-5",
            &[
                "livebench",
                "gpqa-diamond",
                "frontiermath",
                "swe-bench-verified",
            ],
        ),
        ("gpt-4.1", &["livebench", "aider-polyglot", "lmarena-text"]),
        (
            "gpt-4o-mini",
            &["livebench", "gpqa-diamond", "lmarena-text"],
        ),
        (
            "o3",
            &[
                "livebench",
                "frontiermath",
                "aider-polyglot",
                "swe-bench-verified",
            ],
        ),
        ("o4-mini", &["livebench", "gpqa-diamond", "lmarena-text"]),
        (
            "claude-sonnet-4-5",
            &["livebench", "gpqa-diamond", "swe-bench-verified"],
        ),
        (
            "claude-opus-4-1",
            &["livebench", "gpqa-diamond", "swe-bench-verified"],
        ),
        (
            "claude-3-5-haiku",
            &["livebench", "aider-polyglot", "lmarena-text"],
        ),
        (
            "gemini-2.5-pro",
            &["gpqa-diamond", "aider-polyglot", "frontiermath"],
        ),
        ("grok-4", &["livebench", "gpqa-diamond", "aider-polyglot"]),
        ("glm-4.5", &["livebench", "lmarena-text"]),
    ];
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (name, benchmarks) in FLAGSHIPS {
        let (status, body) = app.get_json(&format!("/api/v1/models/{name}")).await;
        assert_eq!(status, 200, "{name}");
        let held: Vec<&str> = body["data"]["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["benchmark"]["slug"].as_str().unwrap())
            .collect();
        for b in *benchmarks {
            assert!(held.contains(b), "{name} lacks {b}: {held:?}");
        }
    }
    // Older LiveBench releases stay as dated scores; the newest is the headline.
    let gql = app
        .graphql(
            "{ model(slug: \"claude-sonnet-4-5\") { scores(all: true) { benchmark { slug } asOf } } }",
            serde_json::json!({}),
        )
        .await;
    let releases: std::collections::BTreeSet<&str> = gql["data"]["model"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["benchmark"]["slug"] == "livebench")
        .map(|s| s["asOf"].as_str().unwrap())
        .collect();
    assert!(releases.len() >= 3, "{releases:?}");
}

/// Creators come from the reviewed table first, then from the organisation a source names.
#[tokio::test]
async fn creators_follow_the_table_and_the_sources() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (model, creator) in [
        // A router's own products are its maker's: OpenRouter's Auto Router and Body
        // Builder, Kilo's Auto, NanoGPT's Coding Router, Switchpoint's router resold by
        // OpenRouter. Kilo's copy of OpenRouter's stealth `owl-alpha` credits nobody.
        ("openrouter-auto", "openrouter"),
        ("bodybuilder", "openrouter"),
        ("kilo-auto-free", "kilo"),
        ("nanogpt-coding-router", "nano-gpt"),
        ("switchpoint-router", "switchpoint"),
        // Perplexity's Sonar models on Llama 3.1 are its own products, not Meta's.
        ("llama-3.1-sonar-large-128k-online", "perplexity"),
        ("palmyra-x5", "writer"),
        ("gpt-neox-20b", "eleutherai"),
        ("llama-3.3-70b-instruct", "meta"),
        ("aion-1.0", "aion-labs"),
        ("doubao-1.5-pro-32k", "bytedance"),
        // A router's prefix for Alibaba's Wanxiang line; Databricks' own model.
        ("wan-v2-6", "alibaba"),
        ("dbrx-instruct", "databricks"),
    ] {
        let (status, body) = app.get_json(&format!("/api/v1/models/{model}")).await;
        assert_eq!(status, 200, "{model}");
        assert_eq!(body["data"]["creator"]["slug"], creator, "{model}");
    }
    // The creators table names its creators, however a source spells them.
    for (slug, name) in [
        ("deepseek", "DeepSeek"),
        ("moonshotai", "Moonshot AI"),
        ("xai", "xAI"),
        ("mistral", "Mistral AI"),
    ] {
        let (_, p) = app.get_json(&format!("/api/v1/providers/{slug}")).await;
        assert_eq!(p["data"]["name"], name, "{slug}");
    }
    let (_, owl) = app.get_json("/api/v1/models/owl-alpha").await;
    assert_eq!(owl["data"]["creator"], serde_json::Value::Null, "{owl}");
    let (_, aion) = app.get_json("/api/v1/providers/aion-labs").await;
    assert_eq!(aion["data"]["name"], "AionLabs");
    assert_eq!(aion["data"]["kind"], "creator");
    // Meta's own API is the Llama API: its offerings there are first-party.
    let (_, llama) = app.get_json("/api/v1/pricing/llama-3.3-70b-instruct").await;
    assert!(
        llama["data"]["offerings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["provider"]["slug"] == "llama" && o["kind"] == "first_party"),
        "{llama}"
    );
    // Measured: 1,381 of 1,546 listed models (89.3 %) had a creator; the rest are mostly
    // community fine-tunes whose ids name no organisation. This bound only rises.
    let catalog = app.state.catalog.snapshot();
    let listed: Vec<_> = catalog
        .all_models()
        .iter()
        .filter(|m| matches!(m.availability.as_str(), "api" | "open_weights"))
        .collect();
    let with = listed.iter().filter(|m| m.creator_slug.is_some()).count();
    assert!(
        with * 100 >= listed.len() * 88,
        "{with} of {}",
        listed.len()
    );
    // A host never becomes a creator: no model is credited to a cloud, router or plan
    // (DigitalOcean's `fal-ai/fast-sdxl` names the cloud fal, not SDXL's maker), unless the
    // reviewed creators table says the host makes models too (Vercel's v0), or the model is
    // the router's own product: a router product, or an id the router lists under its own
    // name (OpenRouter's `openrouter/bodybuilder`).
    let tables = mds::ingest::prices::Tables::shared();
    let own_product = |m: &entity::model::Model, c: &str| {
        m.task == entity::vocab::Task::Router
            || catalog
                .offerings_of(&m.slug)
                .iter()
                .all(|o| o.provider_model_id.starts_with(&format!("{c}/")))
    };
    let hosted: Vec<String> = catalog
        .all_models()
        .iter()
        .filter_map(|m| Some((m, m.creator_slug.as_deref()?)))
        .filter(|(m, c)| !own_product(m, c))
        .map(|(m, c)| (m.slug.as_str(), c))
        .filter(|(_, c)| {
            !tables.creators.contains_key(*c)
                && matches!(
                    tables.provider_kind(c),
                    entity::vocab::ProviderKind::Cloud
                        | entity::vocab::ProviderKind::Router
                        | entity::vocab::ProviderKind::Plan
                )
        })
        .map(|(m, c)| format!("{m} by {c}"))
        .collect();
    assert!(hosted.is_empty(), "{hosted:?}");
}

/// Release dates a user would check against the creators' announcements: where hosts
/// disagree, the date most of them give (or the month the slug names) wins over one host's
/// placeholder.
#[tokio::test]
async fn release_dates_are_what_hosts_agree_on() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (model, date) in [
        ("deepseek-v3.2-exp", "2025-09-29"),
        ("deepseek-v3.1", "2025-08-21"),
        ("gemini-2.5-flash-preview-05-20", "2025-05-20"),
        ("gemma-3-27b-it", "2025-03-12"),
        ("mistral-large-2407", "2024-07-24"),
        ("qwq-32b", "2025-03-05"),
        ("gpt-4-0314", "2023-03-14"),
    ] {
        let (status, body) = app.get_json(&format!("/api/v1/models/{model}")).await;
        assert_eq!(status, 200, "{model}");
        assert_eq!(body["data"]["release_date"], date, "{model}");
    }
}

/// Products that pick a model per request (OpenRouter's Auto Router, Azure's Model Router,
/// Kilo Auto) are not models: tasked `router`, out of the lists unless asked for, still
/// found by search and by their pages. TTS models are TTS whatever modalities a host lists.
#[tokio::test]
async fn routers_are_listed_only_when_asked_for() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let tasks_of = |body: &serde_json::Value| -> Vec<String> {
        body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["task"].as_str().unwrap().to_string())
            .collect()
    };
    let (_, all) = app.get_json("/api/v1/models?limit=100&sort=name").await;
    let total = all["meta"]["total"].as_u64().unwrap();
    for page in 1..=total.div_ceil(100) {
        let (_, body) = app
            .get_json(&format!("/api/v1/models?limit=100&sort=name&page={page}"))
            .await;
        assert!(
            !tasks_of(&body).contains(&"router".to_string()),
            "page {page}"
        );
    }
    let (_, routers) = app.get_json("/api/v1/models?task=router&limit=100").await;
    let slugs: Vec<&str> = routers["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["slug"].as_str().unwrap())
        .collect();
    for s in [
        "openrouter-auto",
        "microsoft-model-router",
        "openrouter-pareto-code",
        "switchpoint-router",
        "kilo-auto-frontier",
    ] {
        assert!(slugs.contains(&s), "{s} in {slugs:?}");
    }
    assert!(tasks_of(&routers).iter().all(|t| t == "router"));
    let (_, with_routers) = app
        .get_json("/api/v1/models?availability=all&limit=1")
        .await;
    assert!(with_routers["meta"]["total"].as_u64().unwrap() > total);
    let (status, auto) = app.get_json("/api/v1/models/openrouter-auto").await;
    assert_eq!(status, 200);
    assert_eq!(auto["data"]["task"], "router");
    // GitLab Duo's Agentic Chat is the models it runs, sold with a subscription.
    let (_, opus) = app.get_json("/api/v1/pricing/claude-opus-4-5").await;
    assert!(
        opus["data"]["offerings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["provider"]["slug"] == "gitlab" && o["kind"] == "plan"),
        "{opus}"
    );
    for tts in ["melotts", "gpt-4o-mini-tts"] {
        let (_, m) = app.get_json(&format!("/api/v1/models/{tts}")).await;
        assert_eq!(m["data"]["task"], "text_to_speech", "{tts}");
    }
}

/// A fine-tune or merge is its publisher's, linked to the model it derives from: the
/// organisation in its Hugging Face id (`huihui-ai/Llama-3.3-70B-Instruct-abliterated`), or a
/// publisher of the creators table (Open-Orca), never the base model's lab; a host writing its
/// own name before a model (`perplexity/glm-5.3-flash`) does not become its creator.
#[tokio::test]
async fn derivatives_are_their_publishers_with_their_base() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for (slug, publisher, base) in [
        (
            "llama-3.3-70b-instruct-abliterated",
            "huihui-ai",
            Some("llama-3.3-70b-instruct"),
        ),
        (
            "deepseek-r1-distill-qwen-32b-abliterated",
            "huihui-ai",
            Some("deepseek-r1-distill-qwen-32b"),
        ),
        ("mistral-7b-openorca", "open-orca", Some("mistral-7b-v0.1")),
        ("llama-3-lumimaid-70b", "neversleep", None),
        ("glm-5.3-flash", "zhipuai", None),
    ] {
        let (status, m) = app.get_json(&format!("/api/v1/models/{slug}")).await;
        assert_eq!(status, 200, "{slug}");
        let m = &m["data"];
        assert_eq!(m["creator"]["slug"], publisher, "{slug}");
        match base {
            Some(b) => assert_eq!(m["base_model"]["slug"], b, "{slug}: {}", m["base_model"]),
            None => assert!(m["base_model"].is_null(), "{slug}: {}", m["base_model"]),
        }
    }
    let body = app
        .graphql(
            r#"{ model(slug: "llama-3.3-70b-instruct-abliterated") { creator { slug } baseModel { slug creator { slug } } } }"#,
            serde_json::json!({}),
        )
        .await;
    let m = &body["data"]["model"];
    assert_eq!(m["baseModel"]["creator"]["slug"], "meta", "{body}");
}

/// AIHubMix's discounted `coding-` routes are the models themselves sold at its coding plan
/// (kind `plan`), not models of their own.
#[tokio::test]
async fn a_host_s_coding_routes_are_its_plan_s_offerings() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let catalog = app.state.catalog.snapshot();
    assert!(catalog.model("coding-glm-5.1").is_none());
    let (status, glm) = app.get_json("/api/v1/models/glm-5.1").await;
    assert_eq!(status, 200);
    let route = glm["data"]["offerings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["provider"]["slug"] == "aihubmix-coding-plan")
        .unwrap_or_else(|| panic!("{glm}"));
    assert_eq!(route["kind"], "plan");
    assert_eq!(route["provider_model_id"], "coding-glm-5.1");
    assert_eq!(route["provider"]["name"], "AIHubMix Coding Plan");
}

/// The creator's own metadata names its model's weights (models.dev's `weights`): the
/// hosts' spelling of that Hugging Face id is the same model, never a second listing
/// (docs/methodology.md, "Identity"). API names without a version (`deepseek-chat`) float
/// from release to release and are left aside, as are two dated spellings of different dates
/// and a serving product the creator lists beside its weights' own file.
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn weights_a_creator_names_are_its_model() {
    use mds::ingest::names;
    let bundle = crate::helpers::raw_json("models-dev/models_dev_toml_bundle.json");
    let snap = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let owner = owners(&snap);
    // Files of the creator's own: a serving product with a file of its own beside the
    // weights' (`minimax-m2.5-highspeed`, `kimi-k2-thinking-turbo`) is a model of its own.
    let files: BTreeSet<String> = bundle["files"]
        .as_object()
        .unwrap()
        .keys()
        .filter_map(|p| {
            p.strip_prefix("models/")?
                .strip_suffix(".toml")?
                .split_once('/')
        })
        .map(|(_, id)| names::parse(id).key)
        .collect();
    let (mut checked, mut apart) = (0, Vec::new());
    for (path, file) in bundle["files"].as_object().unwrap() {
        let Some((_, id)) = path
            .strip_prefix("models/")
            .and_then(|p| p.strip_suffix(".toml"))
            .and_then(|p| p.split_once('/'))
        else {
            continue;
        };
        let key = names::parse(id).key;
        for w in file["weights"].as_array().into_iter().flatten() {
            let Some((_, hf)) = w["url"]
                .as_str()
                .and_then(|u| u.split_once("huggingface.co/"))
            else {
                continue;
            };
            let weights = names::parse(hf.trim_end_matches('/')).key;
            let floating = !key.bytes().any(|b| b.is_ascii_digit())
                && !key.split('-').all(|k| weights.split('-').any(|w| w == k));
            let other_date = names::split_date(&key)
                .zip(names::split_date(&weights))
                .is_some_and(|((_, a), (_, b))| a != b);
            if let (Some(a), Some(b)) = (owner.get(&key), owner.get(&weights)) {
                if floating || other_date || files.contains(&weights) && weights != key {
                    continue;
                }
                checked += 1;
                if a != b {
                    apart.push(format!("{id} is {a}, its weights {hf} are {b}"));
                }
            }
        }
    }
    assert!(checked >= 40, "{checked} weights checked");
    assert!(apart.is_empty(), "{apart:#?}");
}

/// A window a product is sold with (`gpt-4-32k`, 32,768 tokens; `gpt-3.5-turbo-16k`) is no
/// thinking budget: such an id names the model of that window, never the short-window model
/// its name begins with (docs/methodology.md, "Identity").
#[test]
fn a_window_in_an_id_is_never_cut_off() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let models: BTreeMap<&str, &entity::model::Model> =
        s.models.iter().map(|m| (m.slug.as_str(), m)).collect();
    let mut checked = 0;
    let wrong: Vec<String> = s
        .aliases
        .iter()
        .filter_map(|a| {
            let n: i64 = a
                .alias
                .rsplit_once('-')?
                .1
                .strip_suffix('k')?
                .parse()
                .ok()?;
            let m = models.get(a.model_slug.as_str())?;
            checked += 1;
            let word = format!("-{n}k");
            let short = m.context_window.is_some_and(|c| c < n * 1000);
            (short || !m.slug.contains(&word) && m.context_window.is_none_or(|c| c < n * 1000))
                .then(|| format!("{} -> {} ({:?})", a.alias, m.slug, m.context_window))
        })
        .collect();
    assert!(checked >= 5, "{checked}");
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert_named(
        &s,
        &[
            ("gpt-4-32k", "gpt-4-32k-0613"),
            ("gpt-3.5-turbo-16k", "gpt-3.5-turbo-16k-0613"),
        ],
    );
}

/// A creator's own price entry names the short ids it bills as its model (xAI's
/// `grok-4-1-fast-reasoning` entry matches `grok-4-1-fast`): a host's listing under such an
/// id is that model, unless the creator's API lists the id apart (docs/methodology.md,
/// "Identity"). Only versioned ids with words of the entry's left out, `preview` never.
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn short_ids_a_creator_s_price_entry_matches_are_its_model() {
    use mds::ingest::names;
    let data = crate::helpers::raw_json("genai-prices/prices/new_data/v2/data.json");
    let snap = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let owner = owners(&snap);
    let own: BTreeSet<(&str, &str, &str)> = snap
        .offerings
        .iter()
        .filter(|o| o.kind.to_string() == "first_party")
        .map(|o| {
            (
                o.model_slug.as_str(),
                o.provider_slug.as_str(),
                o.provider_model_id.as_str(),
            )
        })
        .collect();
    let offered_at = |model: &str, provider: &str| {
        snap.offerings
            .iter()
            .any(|o| o.model_slug == model && o.provider_slug == provider)
    };
    fn equals(rule: &serde_json::Value, out: &mut Vec<String>) {
        if let Some(id) = rule["equals"].as_str() {
            out.push(id.to_string());
        }
        for r in rule["or"].as_array().into_iter().flatten() {
            equals(r, out);
        }
    }
    let (mut checked, mut apart) = (0, Vec::new());
    for provider in data.as_array().unwrap() {
        for entry in provider["models"].as_array().into_iter().flatten() {
            let id = entry["id"].as_str().unwrap();
            let key = names::parse(id).key;
            let Some(model) = owner.get(&key) else {
                continue;
            };
            let Some((_, at, _)) = own.iter().find(|(m, _, pid)| m == model && *pid == id) else {
                continue;
            };
            let mut ids = Vec::new();
            equals(&entry["match"], &mut ids);
            for short in ids.iter().map(|i| names::parse(i).key) {
                let words: Vec<&str> = key.split('-').collect();
                let shorter = short != key
                    && short.bytes().any(|b| b.is_ascii_digit())
                    && short.split('-').all(|w| words.contains(&w))
                    && (!key.contains("preview") || short.contains("preview"));
                let Some(other) = owner.get(&short).filter(|_| shorter) else {
                    continue;
                };
                checked += 1;
                if other != model && !offered_at(other, at) {
                    apart.push(format!("{id} ({model}) matches {short}, listed as {other}"));
                }
            }
        }
    }
    assert!(checked >= 10, "{checked} short ids checked");
    assert!(apart.is_empty(), "{apart:#?}");
}

/// A price rule that names no id (genai-prices' `moderation`: "contains moderation", free;
/// "Gemma 3n (free)": "starts_with gemma-3n") covers a family of endpoints and is no model
/// (docs/methodology.md, "Identity").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn price_rules_naming_no_id_are_no_models() {
    fn exact(rule: &serde_json::Value) -> bool {
        rule.get("equals").is_some() || rule["or"].as_array().into_iter().flatten().any(exact)
    }
    let data = crate::helpers::raw_json("genai-prices/prices/new_data/v2/data.json");
    let snap = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let slugs: BTreeSet<&str> = snap.models.iter().map(|m| m.slug.as_str()).collect();
    let rules: Vec<&str> = data
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["models"].as_array().into_iter().flatten())
        .filter(|m| !exact(&m["match"]) && m["prices"].as_object().is_some_and(|o| o.is_empty()))
        .filter_map(|m| m["id"].as_str())
        .collect();
    assert!(rules.contains(&"moderation"), "{rules:?}");
    let listed: Vec<&&str> = rules.iter().filter(|id| slugs.contains(**id)).collect();
    assert!(listed.is_empty(), "{listed:?}");
    // A priced rule for the ids beginning with its own is the one model they name
    // (`computer-use` is `computer-use-preview-2025-03-11`).
    let prefixes: Vec<&str> = data
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["models"].as_array().into_iter().flatten())
        .filter(|m| !exact(&m["match"]))
        .filter_map(|m| m["id"].as_str())
        .filter(|id| {
            let head = format!("{id}-");
            slugs.iter().filter(|s| s.starts_with(&head)).count() == 1
        })
        .collect();
    assert!(prefixes.contains(&"computer-use"), "{prefixes:?}");
    // Listed by that rule alone: every offering of the model is genai-prices' (a model
    // other sources list under the name, `claude-opus-5`, stays itself).
    let rule_only = |slug: &str| {
        snap.offerings
            .iter()
            .filter(|o| o.model_slug == slug)
            .all(|o| o.source == "genai-prices")
    };
    let listed: Vec<&&str> = prefixes
        .iter()
        .filter(|id| slugs.contains(**id) && rule_only(id))
        .collect();
    assert!(listed.is_empty(), "{listed:?}");
}

/// A host's dated id with `instruct` written in is the creator's dated model of that date
/// (`ministral-14b-instruct-2512` is Mistral's `ministral-14b-2512`): no two listed models
/// differ by `instruct` alone under one date (docs/methodology.md, "Identity").
#[test]
fn a_dated_id_with_instruct_written_in_is_the_creator_s_snapshot() {
    use mds::ingest::names;
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let keys = listed_keys(&s);
    let twins: Vec<String> = keys
        .iter()
        .filter(|(k, _)| names::split_date(k).is_some())
        .filter_map(|(k, slug)| {
            let without: Vec<&str> = k.split('-').filter(|w| *w != "instruct").collect();
            let other = keys
                .get(&without.join("-"))
                .filter(|_| without.len() + 1 == k.split('-').count())?;
            Some(format!("{slug} beside {other}"))
        })
        .collect();
    assert!(twins.is_empty(), "{twins:#?}");
    let alias = s
        .aliases
        .iter()
        .find(|a| a.alias == "ministral-14b-instruct-2512");
    assert_eq!(
        alias.map(|a| a.model_slug.as_str()),
        Some("ministral-14b-2512")
    );
}

/// A router's routing tier (NanoGPT's `hermes-high`, `claw-low`: an effort word after a name
/// that is no model, sold only by routers, credited to no one) is no model
/// (docs/methodology.md, "Identity").
#[test]
fn a_router_s_routing_tiers_are_no_models() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let routers: BTreeSet<&str> = s
        .providers
        .iter()
        .filter(|p| p.kind.to_string() == "router")
        .map(|p| p.slug.as_str())
        .collect();
    let slugs: BTreeSet<&str> = s.models.iter().map(|m| m.slug.as_str()).collect();
    let tiers: Vec<&str> = s
        .models
        .iter()
        .filter(|m| m.creator_slug.is_none())
        .filter(|m| {
            ["-high", "-medium", "-low", "-minimal"].iter().any(|t| {
                m.slug
                    .strip_suffix(t)
                    .is_some_and(|base| !slugs.contains(base))
            })
        })
        .filter(|m| {
            let sellers: Vec<&str> = s
                .offerings
                .iter()
                .filter(|o| o.model_slug == m.slug)
                .map(|o| o.provider_slug.as_str())
                .collect();
            !sellers.is_empty() && sellers.iter().all(|p| routers.contains(p))
        })
        .map(|m| m.slug.as_str())
        .collect();
    assert!(tiers.is_empty(), "{tiers:?}");
    assert!(routers.contains("nano-gpt"));
}

/// A host's undated name with a size the model's other names never write is that model
/// (`mistral-saba-24b` is `mistral-saba-2502`, which `mistral-saba` names;
/// `llama-guard-4-12b` is `llama-guard-4`): no listed model is another's name with a size
/// word after it, where no other size of that name is listed (docs/methodology.md,
/// "Identity").
#[test]
fn a_size_the_other_names_never_write_names_no_second_model() {
    use mds::ingest::{identities, names};
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let owner = owners(&s);
    let keys: Vec<String> = s.models.iter().map(|m| names::parse(&m.slug).key).collect();
    // Sold by its creator under the sized name (`gemini-1.5-flash-8b`), the size is the
    // creator's own word.
    let own: BTreeSet<&str> = s
        .offerings
        .iter()
        .filter(|o| o.kind.to_string() == "first_party")
        .map(|o| o.model_slug.as_str())
        .collect();
    let twins: Vec<String> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research" && !own.contains(m.slug.as_str()))
        .filter_map(|m| {
            let key = names::parse(&m.slug).key;
            names::split_date(&key).is_none().then_some(())?;
            let base = identities::without_size(&key)?;
            let other = owner.get(base).filter(|o| **o != m.slug)?;
            let other_size = keys
                .iter()
                .any(|k| *k != key && identities::without_size(k) == Some(base));
            (!other_size).then(|| format!("{} beside {other}", m.slug))
        })
        .collect();
    assert!(twins.is_empty(), "{twins:#?}");
    // A host's bare name of a model the creator spells two ways, a size word apart
    // (`llama-4-scout-17b-instruct`, `llama-4-scout-17b-16e-instruct`), is that one model.
    assert_eq!(
        owner.get("llama-4-scout"),
        owner.get("llama-4-scout-17b-16e-instruct")
    );
    assert_named(
        &s,
        &[
            ("mistral-saba-24b", "mistral-saba-2502"),
            ("llama-guard-4-12b", "llama-guard-4"),
            (
                "nvidia-nemotron-3.5-super-vl-120b-a12b",
                "nemotron-3.5-super-vl",
            ),
            // Intel's AutoRound build is packaging.
            (
                "qwen3-coder-480b-a35b-instruct-int4-mixed-ar",
                "qwen3-coder-480b-a35b-instruct",
            ),
            // A host's sizeless id its own listings name with the size.
            ("qwen3-coder", "qwen3-coder-480b-a35b-instruct"),
            // A host's sized spelling of the name a dated snapshot is sold under.
            ("mistral-small-3.1-24b-instruct", "mistral-small-2503"),
        ],
    );
}

/// An id and the same id with a first version added (`-v0.1`, `-v1`, `-v1.0`) are one
/// model where no other version of the name is known and their creators agree: no listed
/// model's key is another listed model's with such a version, and the versioned id is the
/// slug (docs/methodology.md, "Identity").
#[test]
fn a_first_version_names_no_second_model() {
    use mds::ingest::{identities, names};
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let owner = owners(&s);
    let mut versions: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for key in owner.keys() {
        if let Some((stem, v)) = identities::version_ending(key) {
            versions.entry(stem).or_default().insert(v);
        }
    }
    let creator = creators_of(&s);
    let twins: Vec<String> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .filter_map(|m| {
            let (stem, v) = identities::version_ending(&names::parse(&m.slug).key)?;
            let plain = owner.get(&stem).filter(|o| **o != m.slug)?;
            let first = (v == "0.1" || v == "1" || v == "001") && versions.get(&stem)?.len() == 1;
            (first
                && names::split_date(plain).is_none()
                && creator.get(plain.as_str()) == creator.get(m.slug.as_str()))
            .then(|| format!("{plain} beside {}", m.slug))
        })
        .collect();
    assert!(twins.is_empty(), "{twins:#?}");
    assert_named(
        &s,
        &[
            ("mixtral-8x7b-instruct", "mixtral-8x7b-instruct-v0.1"),
            ("solar-10-7b-instruct", "solar-10.7b-instruct-v1.0"),
            // A bare first version: Meta's `muse-wonder-1.0` beside routers' `muse-wonder`.
            ("meta/muse-wonder", "muse-wonder-1.0"),
            // Version 2 is version 2.0, and so is the snapshot its creator names version 3
            // ("Mistral OCR 3 (2512)").
            ("claude-2.0", "claude-2"),
            ("mistral-ocr-3-0", "mistral-ocr-2512"),
            // Vertex's `@001`, the only build, is the plain name's.
            ("jamba-1.5-mini-001", "jamba-1.5-mini"),
            ("gemini-1.5-flash-8b-001", "gemini-1.5-flash-8b"),
            // A second version keeps the name apart (Titan Text Embeddings G1 and V2).
            ("titan-embed-text", "titan-embed-text"),
        ],
    );
}

/// A host's own name before a creator's model is its label: no listed model's slug starts
/// with the name of the one host that sells it, a creator's own API aside (Amazon's `nova`
/// selling `nova-2-pro`; docs/methodology.md, "Identity").
#[test]
fn a_host_s_own_name_before_a_model_is_its_label() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let mut sellers: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for o in s
        .offerings
        .iter()
        .filter(|o| o.kind.to_string() != "first_party")
    {
        sellers
            .entry(o.model_slug.as_str())
            .or_default()
            .insert(o.provider_slug.as_str());
    }
    let creator = creators_of(&s);
    let labelled: Vec<&str> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .filter(|m| {
            let [host] = sellers
                .get(m.slug.as_str())
                .map(|p| p.iter().copied().collect::<Vec<_>>())
                .unwrap_or_default()[..]
            else {
                return false;
            };
            m.slug.starts_with(&format!("{host}-"))
                && creator.get(m.slug.as_str()).copied().flatten() != Some(host)
                && m.creator_slug.is_some()
        })
        .map(|m| m.slug.as_str())
        .collect();
    assert!(labelled.is_empty(), "{labelled:#?}");
    assert_named(&s, &[("databricks-bge-large-en", "bge-large-en")]);
}

/// An undated id whose records agree on a window the newest snapshot's records do not state,
/// with no older snapshot stating it, is a release of its own: hosts' `qwen3-30b-a3b` at
/// 40,960 tokens is the April 2025 Qwen3-30B-A3B, not its 2507 update at 262,144
/// (docs/methodology.md, "Identity").
#[test]
fn an_undated_id_of_another_window_is_no_newer_snapshot() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let owner = owners(&s);
    let undated = owner.get("qwen3-30b-a3b").map(String::as_str);
    assert!(undated.is_some());
    assert_ne!(undated, owner.get("qwen3-30b-a3b-2507").map(String::as_str));
    let model = s
        .models
        .iter()
        .find(|m| Some(m.slug.as_str()) == undated)
        .unwrap();
    // Alibaba's own API states 129,024 tokens for it, and its creator is heard first.
    assert_ne!(model.context_window, Some(262144));
    assert_eq!(model.release_date.as_deref(), Some("2025-04-28"));
}

/// A router's own product keeps its maker's name: no model of task `router` is sold under
/// ids naming two makers (OpenRouter's `openrouter/free` and Kilo's `kilo-auto/free` are two
/// products), and no bare router word (`auto`, `free`) is a slug or an alias
/// (docs/methodology.md, "Identity").
#[test]
fn two_routers_products_are_never_one_model() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let routers: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| m.task.as_str() == "router")
        .collect();
    assert!(routers.len() >= 10, "{} routers", routers.len());
    let mixed: Vec<(&str, BTreeSet<String>)> = routers
        .iter()
        .filter_map(|m| {
            let makers: BTreeSet<String> = s
                .offerings
                .iter()
                .filter(|o| o.model_slug == m.slug)
                .filter_map(|o| {
                    let (org, _) = o.provider_model_id.rsplit_once('/')?;
                    Some(org.rsplit('/').next().unwrap_or(org).to_lowercase())
                })
                .collect();
            let one = makers.len() <= 1;
            (!one).then_some((m.slug.as_str(), makers))
        })
        .collect();
    assert!(mixed.is_empty(), "{mixed:?}");
    let bare: Vec<&str> = ["auto", "free", "custom", "small", "balanced", "frontier"]
        .into_iter()
        .filter(|w| {
            s.models.iter().any(|m| m.slug == *w) || s.aliases.iter().any(|a| a.alias == *w)
        })
        .collect();
    assert!(bare.is_empty(), "{bare:?}");
    for slug in ["openrouter-free", "kilo-auto-free", "openrouter-auto"] {
        assert!(routers.iter().any(|m| m.slug == slug), "{slug}");
    }
}

/// Amazon's `-v1` is Bedrock's API version wherever it is written: no listed model of
/// Amazon's is another's slug followed by `-v1` (`nova-pro-v1` is `nova-pro`), while its `-v2`
/// names a generation (`titan-embed-text-v2` is not `titan-embed-text`).
#[test]
fn amazon_s_api_version_names_no_second_model() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let slugs: BTreeSet<&str> = s.models.iter().map(|m| m.slug.as_str()).collect();
    let amazon: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| m.creator_slug.as_deref() == Some("amazon"))
        .collect();
    assert!(amazon.len() >= 10, "{} Amazon models", amazon.len());
    let twins: Vec<&str> = amazon
        .iter()
        .filter(|m| {
            m.slug
                .strip_suffix("-v1")
                .is_some_and(|base| slugs.contains(base))
        })
        .map(|m| m.slug.as_str())
        .collect();
    assert!(twins.is_empty(), "{twins:?}");
    // Cortecs' `nova-pro-v1` and a router's `amazon/nova-pro-v1` are offerings of Nova Pro.
    for (provider, id) in [
        ("cortecs", "nova-pro-v1"),
        ("openrouter", "amazon/nova-pro-v1"),
    ] {
        let o = s
            .offerings
            .iter()
            .find(|o| o.provider_slug == provider && o.provider_model_id == id);
        assert_eq!(o.map(|o| o.model_slug.as_str()), Some("nova-pro"), "{id}");
    }
    assert!(slugs.contains("titan-embed-text-v2") && slugs.contains("titan-embed-text"));
}

/// Google's build ids for its media models are the models hosts name without the build:
/// no listed model is the short name of a `…-generate-NNN` id that alone claims it
/// (`veo3.1` and `veo-3.1` are `veo-3.1-generate-001`, `imagen-3` is
/// `imagen-3.0-generate-002`) (docs/methodology.md, "Identity").
#[test]
fn a_build_id_s_short_name_is_no_second_model() {
    use mds::ingest::names;
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let owner = owners(&s);
    // Each short spelling → the heads of the build ids that claim it.
    let mut claims: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for m in &s.models {
        let key = names::parse(&m.slug).key;
        let Some((head, build)) = key.rsplit_once("-generate-") else {
            continue;
        };
        if build.len() != 3 || !build.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let short = head.replacen("-0-", "-", 1);
        let short = short.strip_suffix("-0").unwrap_or(&short).to_string();
        for spelling in [head.to_string(), short.clone(), short.replacen('-', "", 1)] {
            claims.entry(spelling).or_default().insert(head.to_string());
        }
    }
    assert!(claims.len() >= 10, "{claims:?}");
    let apart: Vec<String> = claims
        .iter()
        .filter(|(_, heads)| heads.len() == 1)
        .filter_map(|(spelling, _)| {
            let o = owner.get(spelling)?;
            (!o.contains("-generate-")
                && s.models
                    .iter()
                    .any(|m| m.slug == *o && m.availability.as_str() != "research"))
            .then(|| format!("{spelling} → {o}"))
        })
        .collect();
    assert!(apart.is_empty(), "{apart:?}");
    assert_named(
        &s,
        &[
            ("veo3.1", "veo-3.1-generate-001"),
            ("imagen-4", "imagen-4.0-generate-001"),
        ],
    );
}

/// A host's serving of a model is no second model: no listed slug is another listed slug
/// followed by a serving word (Together's `-instruct-turbo` and `-tput`, Cloudflare's
/// `-fp8-fast`, Groq's `-versatile`), no name carries a `TEE` deployment, and no slug a
/// `latest` before other words (docs/methodology.md, "Identity").
#[test]
fn a_host_s_serving_names_no_second_model() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let listed: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .collect();
    let slugs: BTreeSet<String> = listed.iter().map(|m| m.slug.replace('.', "-")).collect();
    let served: Vec<&str> = listed
        .iter()
        .filter(|m| {
            let key = m.slug.replace('.', "-");
            ["-fp8-fast", "-tput", "-versatile", "-cheaper", "-dottxt"]
                .iter()
                .any(|w| key.strip_suffix(w).is_some_and(|b| slugs.contains(b)))
                || key
                    .strip_suffix("-turbo")
                    .filter(|b| b.ends_with("-instruct"))
                    .is_some_and(|b| slugs.contains(b))
        })
        .map(|m| m.slug.as_str())
        .collect();
    assert!(served.is_empty(), "{served:?}");
    let tee: Vec<&str> = listed
        .iter()
        .filter(|m| m.name.to_lowercase().ends_with(" tee"))
        .map(|m| m.name.as_str())
        .collect();
    assert!(tee.is_empty(), "{tee:?}");
    let floating: Vec<&str> = listed
        .iter()
        .filter(|m| {
            m.slug
                .split_once("-latest-")
                .is_some_and(|(_, t)| t.starts_with(|c: char| c.is_ascii_alphabetic()))
        })
        .map(|m| m.slug.as_str())
        .collect();
    assert!(floating.is_empty(), "{floating:?}");
    // A host's fast or flex tier no creator sells under that name is the model's variant
    // (Nebius' `gpt-oss-120b-fast`); a creator's (`grok-4-fast`) is a model.
    let first_party: BTreeSet<&str> = s
        .offerings
        .iter()
        .filter(|o| o.kind.as_str() == "first_party")
        .map(|o| o.model_slug.as_str())
        .collect();
    let tiers: Vec<&str> = listed
        .iter()
        .filter(|m| !first_party.contains(m.slug.as_str()) && m.creator_slug.is_some())
        .filter(|m| {
            ["-fast", "-flex"].iter().any(|w| {
                m.slug
                    .replace('.', "-")
                    .strip_suffix(w)
                    .is_some_and(|b| slugs.contains(b))
            })
        })
        .map(|m| m.slug.as_str())
        .collect();
    assert!(tiers.is_empty(), "{tiers:?}");
    assert!(first_party.contains("grok-4-fast-reasoning") || first_party.contains("grok-4-fast"));
    let owner = owners(&s);
    assert_eq!(
        owner.get("llama-3-1-8b-instant").map(String::as_str),
        owner.get("llama-3-1-8b-instruct").map(String::as_str)
    );
    // Neuralwatt's shorter-window label, and Groq's window label on Llama 2's chat model.
    let of = |id: &str| {
        owner
            .get(&mds::ingest::names::parse(id).key)
            .map(String::as_str)
    };
    assert_eq!(of("glm-5.2-short"), Some("glm-5.2"));
    assert_eq!(of("llama2-70b-4096"), Some("llama-2-70b-chat"));
    // A host's faster serving of a known lab's model; a maker's own `-turbo` stays.
    assert_eq!(of("deepseek-ai/DeepSeek-R1-Turbo"), of("deepseek-r1"));
    for own in [
        "whisper-large-v3-turbo",
        "glm-5-turbo",
        "ideogram-v2a-turbo",
    ] {
        assert_eq!(of(own), Some(own), "{own}");
    }
    assert!(
        slugs.contains("gpt-5-1-instant"),
        "OpenAI's GPT-5.1 Instant stays a model"
    );
}

/// The ids of a genai-prices `match` rule accepted exactly (`equals`, within `or`).
fn exact_ids(rule: &serde_json::Value, out: &mut Vec<String>) {
    if let Some(id) = rule["equals"].as_str() {
        out.push(id.to_string());
    }
    for r in rule["or"].as_array().into_iter().flatten() {
        exact_ids(r, out);
    }
}

/// The creators' own genai-prices entries: (provider, entry) for each entry at a provider
/// that is the creator of the model the entry's id names in the snapshot.
fn creator_entries(
    data: &serde_json::Value,
    snap: &mds::snapshot::Snapshot,
) -> Vec<(String, serde_json::Value)> {
    use mds::ingest::names;
    let creators: BTreeMap<&str, Option<&str>> = snap
        .models
        .iter()
        .map(|m| (m.slug.as_str(), m.creator_slug.as_deref()))
        .collect();
    let owner = owners(snap);
    let tables = mds::ingest::prices::Tables::shared();
    let mut out = Vec::new();
    for provider in data.as_array().unwrap() {
        let slug = mds::ingest::catalog::canonical_provider(provider["id"].as_str().unwrap());
        for entry in provider["models"].as_array().into_iter().flatten() {
            let mut ids = Vec::new();
            exact_ids(&entry["match"], &mut ids);
            let first_party = ids
                .iter()
                .chain([&entry["id"].as_str().unwrap().to_string()])
                .any(|id| {
                    owner
                        .get(&names::parse(id).key)
                        .and_then(|m| creators.get(m.as_str()).copied().flatten())
                        .is_some_and(|c| tables.is_first_party(Some(c), &slug))
                });
            if first_party {
                out.push((slug.to_string(), entry.clone()));
            }
        }
    }
    out
}

/// A creator's price entry whose own id is none of the ids it matches, matching two or more
/// versions (Mistral's `mistral-medium-3-1`, "Mistral Medium 3 and 3.1"), is one price for
/// several models: its id is no model and each version is offered at the creator at the
/// entry's price (docs/methodology.md, "Identity").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_creator_s_price_entry_grouping_versions_is_no_model() {
    use mds::ingest::names;
    let data = crate::helpers::raw_json("genai-prices/prices/new_data/v2/data.json");
    let snap = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let owner = owners(&snap);
    let slugs: BTreeSet<&str> = snap.models.iter().map(|m| m.slug.as_str()).collect();
    let (mut groups, mut wrong) = (Vec::new(), Vec::new());
    for (provider, entry) in creator_entries(&data, &snap) {
        let id = entry["id"].as_str().unwrap();
        let mut ids = Vec::new();
        exact_ids(&entry["match"], &mut ids);
        let versions: Vec<&String> = ids
            .iter()
            .filter(|i| i.bytes().any(|b| b.is_ascii_digit()) && !i.ends_with("latest"))
            .collect();
        if ids.iter().any(|i| i.eq_ignore_ascii_case(id)) || versions.len() < 2 {
            continue;
        }
        groups.push(id.to_string());
        if slugs.contains(id) {
            wrong.push(format!("{id} is listed as a model"));
        }
        let input = entry["prices"]["input_mtok"].as_f64();
        for v in versions {
            let model = owner.get(&names::parse(v).key);
            let offered = snap.offerings.iter().any(|o| {
                Some(&o.model_slug) == model
                    && o.provider_slug == provider
                    && o.input_price == input
            });
            if !offered {
                wrong.push(format!(
                    "{v} ({model:?}) not offered at {provider} at {input:?}"
                ));
            }
        }
    }
    assert!(
        groups.contains(&"mistral-medium-3-1".to_string()),
        "{groups:?}"
    );
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// A creator's price entry matching its own id with `beta` added (xAI's `grok-3-mini` and
/// `grok-3-mini-beta`) names one model under both (docs/methodology.md, "Identity").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_beta_id_a_creator_s_entry_matches_is_its_release() {
    use mds::ingest::names;
    let data = crate::helpers::raw_json("genai-prices/prices/new_data/v2/data.json");
    let files = crate::helpers::raw_json("models-dev/models_dev_toml_bundle.json");
    // A beta id with a metadata file of its own is a model of its own to models.dev.
    let own_file: BTreeSet<String> = files["files"]
        .as_object()
        .unwrap()
        .keys()
        .filter_map(|p| {
            p.strip_prefix("models/")?
                .split_once('/')?
                .1
                .strip_suffix(".toml")
        })
        .map(|id| names::parse(id).key)
        .collect();
    let snap = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let owner = owners(&snap);
    let (mut checked, mut apart) = (0, Vec::new());
    for (_, entry) in creator_entries(&data, &snap) {
        let key = names::parse(entry["id"].as_str().unwrap()).key;
        let mut ids = Vec::new();
        exact_ids(&entry["match"], &mut ids);
        for beta in ids.iter().map(|i| names::parse(i).key) {
            let words: Vec<&str> = beta.split('-').filter(|w| *w != "beta").collect();
            if words.len() == beta.split('-').count()
                || words.join("-") != key
                || !owner.contains_key(&beta)
                || own_file.contains(&beta)
            {
                continue;
            }
            checked += 1;
            if owner.get(&beta) != owner.get(&key) {
                apart.push(format!(
                    "{beta} is {:?}, {key} {:?}",
                    owner.get(&beta),
                    owner.get(&key)
                ));
            }
        }
    }
    assert!(checked >= 3, "{checked} beta ids checked");
    assert!(apart.is_empty(), "{apart:#?}");
}

/// An undated id whose creator's entry bills exactly one of its dated snapshots, and no
/// floating `-latest` id, is that snapshot (Mistral's `ministral-8b`, "Ministral 8B 24.10",
/// is `ministral-8b-2410`, not the newer `ministral-8b-2512`; OpenAI's `gpt-3.5-turbo` is
/// `gpt-3.5-turbo-0125`) (docs/methodology.md, "Identity").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn an_undated_id_is_the_snapshot_its_creator_s_entry_bills() {
    use mds::ingest::names;
    let data = crate::helpers::raw_json("genai-prices/prices/new_data/v2/data.json");
    let snap = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let owner = owners(&snap);
    let (mut checked, mut wrong) = (Vec::new(), Vec::new());
    for (_, entry) in creator_entries(&data, &snap) {
        let key = names::parse(entry["id"].as_str().unwrap()).key;
        if names::split_date(&key).is_some() {
            continue;
        }
        let mut ids = Vec::new();
        exact_ids(&entry["match"], &mut ids);
        if ids
            .iter()
            .any(|i| i.to_ascii_lowercase().ends_with("latest"))
        {
            continue;
        }
        let dated: BTreeSet<String> = ids
            .iter()
            .map(|i| names::parse(i).key)
            .filter(|k| names::split_date(k).is_some_and(|(head, _)| head == key))
            .collect();
        let [one] = dated.iter().collect::<Vec<_>>()[..] else {
            continue;
        };
        let (Some(of_key), Some(of_one)) = (owner.get(&key), owner.get(one)) else {
            continue;
        };
        checked.push(key.clone());
        if of_key != of_one {
            wrong.push(format!(
                "{key} is {of_key}, its entry bills {one} ({of_one})"
            ));
        }
    }
    for k in ["ministral-8b", "gpt-3-5-turbo"] {
        assert!(
            checked.contains(&k.to_string()),
            "{k} not checked: {checked:?}"
        );
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Two snapshots of one line never share a name: a dated snapshot is named by the records
/// for its own date, not by its undated alias's (`gpt-3.5-turbo-1106` is "GPT-3.5 Turbo
/// 1106", not OpenAI's "GPT-3.5-turbo" for whichever snapshot the alias serves), and one no
/// record names is named after its line with its date (docs/methodology.md, "Identity").
#[test]
fn snapshots_of_one_line_never_share_a_name() {
    use mds::ingest::names;
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let mut by_name: BTreeMap<(String, &str), Vec<&str>> = BTreeMap::new();
    for m in s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
    {
        let key = names::parse(&m.slug).key;
        if let Some((head, _)) = names::split_date(&key) {
            by_name
                .entry((head.to_string(), m.name.as_str()))
                .or_default()
                .push(m.slug.as_str());
        }
    }
    let shared: Vec<_> = by_name.iter().filter(|(_, v)| v.len() > 1).collect();
    assert!(shared.is_empty(), "{shared:#?}");
    let name = |slug: &str| {
        s.models
            .iter()
            .find(|m| m.slug == slug)
            .map(|m| m.name.clone())
    };
    assert_eq!(
        name("gpt-3.5-turbo-1106").as_deref(),
        Some("GPT-3.5 Turbo 1106")
    );
    assert!(name("deepseek-r1-0528").is_some_and(|n| n.contains("0528")));
    // A snapshot no record names is named after its line, with its date.
    assert_eq!(
        name("qwen-plus-2025-07-14").as_deref(),
        Some("Qwen Plus (2025-07-14)")
    );
    assert_eq!(
        name("qwen-turbo-2024-11-01").as_deref(),
        Some("Qwen Turbo (2024-11-01)")
    );
    // A name that only spells the id names nothing more (`GLM-4-0116`).
    assert_eq!(name("glm-4-0116").as_deref(), Some("GLM-4 (0116)"));
    // Where a line has several snapshots, the one its undated name joins says its date too,
    // and a line name that writes the joined snapshot's date is read without it.
    assert_eq!(
        name("qwen-plus-2025-09-11").as_deref(),
        Some("Qwen Plus (2025-09-11)")
    );
    assert_eq!(
        name("qwen3-max-2025-09-23").as_deref(),
        Some("Qwen3 Max (2025-09-23)")
    );
}

/// LiteLLM's provider names → the catalogue's providers (`data/litellm_providers.csv`), and
/// the (model, provider) pairs its creator sells.
fn litellm_first_party(
    s: &mds::snapshot::Snapshot,
) -> (BTreeMap<&'static str, &'static str>, BTreeSet<(&str, &str)>) {
    let providers = include_str!("../../data/litellm_providers.csv")
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(','))
        .collect();
    let first_party = s
        .offerings
        .iter()
        .filter(|o| o.kind.to_string() == "first_party")
        .map(|o| (o.model_slug.as_str(), o.provider_slug.as_str()))
        .collect();
    (providers, first_party)
}

/// Each model's creator, by slug.
fn creators_of(s: &mds::snapshot::Snapshot) -> BTreeMap<&str, Option<&str>> {
    s.models
        .iter()
        .map(|m| (m.slug.as_str(), m.creator_slug.as_deref()))
        .collect()
}

/// The models their creators sell (a first-party offering).
fn sold_by_creator(s: &mds::snapshot::Snapshot) -> BTreeSet<&str> {
    s.offerings
        .iter()
        .filter(|o| o.kind.to_string() == "first_party")
        .map(|o| o.model_slug.as_str())
        .collect()
}

/// The listed models (api or open weights) by join key.
fn listed_keys(s: &mds::snapshot::Snapshot) -> BTreeMap<String, &str> {
    s.models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .map(|m| (mds::ingest::names::parse(&m.slug).key, m.slug.as_str()))
        .collect()
}

/// Asserts that each spelling names its model in `s` (by join key: slugs, then aliases).
fn assert_named(s: &mds::snapshot::Snapshot, pairs: &[(&str, &str)]) {
    use mds::ingest::names;
    let owner = owners(s);
    for (spelling, model) in pairs {
        assert_eq!(
            owner.get(&names::parse(spelling).key).map(String::as_str),
            Some(*model),
            "{spelling}"
        );
    }
}

/// The model each spelling's join key names in `s`: slugs first, then aliases.
fn owners(s: &mds::snapshot::Snapshot) -> BTreeMap<String, String> {
    use mds::ingest::names;
    let mut owner: BTreeMap<String, String> = s
        .models
        .iter()
        .map(|m| (names::parse(&m.slug).key, m.slug.clone()))
        .collect();
    for a in &s.aliases {
        owner
            .entry(names::parse(&a.alias).key)
            .or_insert_with(|| a.model_slug.clone());
    }
    owner
}

/// An id that spells the creator's own name for a model is that model, at the creator's own
/// API (LiteLLM's `mistral/mistral-ocr-3` is Mistral's "Mistral OCR 3", `mistral-ocr-2512`)
/// and at hosts (Poe's `nano-banana` is Google's "Nano Banana", `gemini-2.5-flash-image`): no
/// model LiteLLM alone lists at its creator, nor one only hosts sell, is spelt like another
/// model's name (docs/methodology.md, "Identity").
#[test]
fn a_creator_s_api_id_spelling_a_models_name_is_that_model() {
    use mds::ingest::names;
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let mut named: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for m in &s.models {
        named
            .entry(names::parse(&names::slugify(&m.name)).key)
            .or_default()
            .insert(m.slug.as_str());
    }
    let twins: Vec<String> = s
        .models
        .iter()
        .filter(|m| {
            let offers: Vec<_> = s
                .offerings
                .iter()
                .filter(|o| o.model_slug == m.slug)
                .collect();
            !offers.is_empty()
                && (offers
                    .iter()
                    .all(|o| o.source == "litellm" && o.kind.to_string() == "first_party")
                    || offers.iter().all(|o| o.kind.to_string() != "first_party"))
        })
        .filter_map(|m| {
            // Another model its creator sells under that name (a host's name for a model
            // the creator does not sell, Bedrock's "Ministral 3 3B", is not the creator's).
            let sold_by_creator = |slug: &str| {
                s.offerings.iter().any(|o| {
                    o.model_slug == slug
                        && o.kind.to_string() == "first_party"
                        && m.creator_slug.as_deref().is_some()
                })
            };
            let others: Vec<&&str> = named
                .get(&names::parse(&m.slug).key)?
                .iter()
                .filter(|o| **o != m.slug && sold_by_creator(o))
                .collect();
            (others.len() == 1).then(|| format!("{} is named like {}", m.slug, others[0]))
        })
        .collect();
    assert!(twins.is_empty(), "{twins:#?}");
    let owner = owners(&s);
    assert_eq!(
        owner.get("mistral-ocr-3").map(String::as_str),
        Some("mistral-ocr-2512")
    );
    assert_eq!(
        owner.get("nano-banana").map(String::as_str),
        Some("gemini-2.5-flash-image")
    );
}

/// A model its creator names after another stem ("Ministral 3 14B 2512" for
/// `ministral-14b-2512`) is that model under every spelling of the name: hosts' undated
/// `ministral-3-14b`, their dated `ministral-3-8b-instruct-2512`, Bedrock's
/// `ministral-3-3b-instruct`; and an undated id its creator names as an older snapshot is
/// named is that snapshot (Mistral's `ministral-3b`, "Ministral 3B" at $0.04, is
/// `ministral-3b-2410`) (docs/methodology.md, "Identity").
#[test]
fn a_name_its_creator_spells_after_another_stem_is_one_model() {
    use mds::ingest::names;
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let listed: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .collect();
    let words = |k: &str| {
        let mut w: Vec<String> = names::parse(k)
            .key
            .split('-')
            .filter(|w| *w != "instruct")
            .map(str::to_string)
            .collect();
        w.sort_unstable();
        w
    };
    let by_slug: BTreeMap<Vec<String>, Vec<&str>> =
        listed.iter().fold(BTreeMap::new(), |mut acc, m| {
            acc.entry(words(&m.slug)).or_default().push(m.slug.as_str());
            acc
        });
    let twins: Vec<String> = listed
        .iter()
        .filter(|m| names::split_date(&names::parse(&m.slug).key).is_some())
        .filter_map(|m| {
            let spelt = names::slugify(&m.name);
            names::split_date(&names::parse(&spelt).key)?;
            let others: Vec<&&str> = by_slug
                .get(&words(&spelt))?
                .iter()
                .filter(|o| **o != m.slug)
                .collect();
            (!others.is_empty()).then(|| format!("{} ({}) beside {others:?}", m.slug, m.name))
        })
        .collect();
    assert!(twins.is_empty(), "{twins:#?}");
    assert_named(
        &s,
        &[
            ("ministral-3-14b", "ministral-14b-2512"),
            ("ministral-3-3b-instruct", "ministral-3b-2512"),
            ("ministral-3-8b-instruct-2512", "ministral-8b-2512"),
            ("ministral-3b", "ministral-3b-2410"),
        ],
    );
}

/// Hugging Face's `-chat-hf` spelling that Together keeps for a line whose creator names
/// its tuned model `-instruct` (`meta-llama/Llama-3-70b-chat-hf`) is that instruct model,
/// and a host's thinking-off label (302.AI's `gemini-2.5-flash-nothink`) is the model
/// (docs/methodology.md, "Identity").
#[test]
fn a_hosts_chat_hf_and_nothink_spellings_are_the_model() {
    use mds::ingest::names;
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let slugs: BTreeSet<&str> = s.models.iter().map(|m| m.slug.as_str()).collect();
    let twins: Vec<&str> = slugs
        .iter()
        .copied()
        .filter(|slug| {
            slug.strip_suffix("-chat-hf")
                .is_some_and(|head| slugs.contains(format!("{head}-instruct").as_str()))
                || slug
                    .strip_suffix("-nothink")
                    .is_some_and(|head| slugs.contains(head))
        })
        .collect();
    assert!(twins.is_empty(), "{twins:?}");
    let owner = owners(&s);
    assert_eq!(
        owner
            .get(&names::parse("llama-3-70b-chat-hf").key)
            .map(String::as_str),
        Some("llama-3-70b-instruct")
    );
}

/// A host's offering under an undated name priced as an older snapshot's creator prices it,
/// and not as the snapshot the name joined, is the older snapshot's: no such offering stays
/// on the newer one (Vercel's `mistral/mistral-medium` at 0.4/2 is Mistral Medium 3.1's,
/// not Medium 3.5's; docs/methodology.md, "Identity").
#[test]
fn an_undated_offering_at_an_older_snapshot_s_price_is_that_snapshot_s() {
    use mds::ingest::names;
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    // The creator's one standard price for a model (none where its APIs price it apart, or
    // where its sources state it apart: OpenAI's `gpt-4o-mini-tts` output is 10 in one and
    // 12, its audio tokens, in another).
    let mut prices: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    for o in s
        .offerings
        .iter()
        .filter(|o| o.kind.to_string() == "first_party")
        .filter(|o| {
            !o.sources
                .as_deref()
                .is_some_and(|s| s.contains("\"agrees\":false"))
        })
    {
        if let (Some(i), Some(out)) = (o.input_price, o.output_price) {
            prices
                .entry(o.model_slug.as_str())
                .or_default()
                .push((i, out));
        }
    }
    let first_party: BTreeMap<&str, (f64, f64)> = prices
        .into_iter()
        .filter(|(_, p)| p.iter().all(|x| *x == p[0]))
        .map(|(slug, p)| (slug, p[0]))
        .collect();
    // A router's margin within 5% is the same price.
    let near = |a: (f64, f64), b: (f64, f64)| {
        let close = |x: f64, y: f64| (x - y).abs() <= 0.05 * x.max(y);
        close(a.0, b.0) && close(a.1, b.1)
    };
    // Each line's snapshots: stem → (date, slug).
    let mut lines: BTreeMap<String, Vec<(String, &str)>> = BTreeMap::new();
    for m in &s.models {
        if let Some((stem, date)) = names::split_date(&names::parse(&m.slug).key) {
            lines
                .entry(stem.to_string())
                .or_default()
                .push((date.replace('-', ""), m.slug.as_str()));
        }
    }
    let misplaced: Vec<String> = s
        .offerings
        .iter()
        .filter(|o| o.kind.to_string() != "first_party")
        .filter_map(|o| {
            let key = names::parse(&o.model_slug).key;
            let (stem, date) = names::split_date(&key)?;
            let undated = names::parse(&o.provider_model_id).key == stem;
            let own = first_party.get(o.model_slug.as_str())?;
            let price = (o.input_price?, o.output_price?);
            let older = lines.get(stem)?.iter().find(|(d, slug)| {
                d.len() == date.replace('-', "").len()
                    && *d < date.replace('-', "")
                    && first_party.get(slug).is_some_and(|p| near(*p, price))
            })?;
            (undated && !near(price, *own) && price != (0.0, 0.0)).then(|| {
                format!(
                    "{} {} at {price:?} is {}'s",
                    o.provider_slug, o.provider_model_id, older.1
                )
            })
        })
        .collect();
    assert!(misplaced.is_empty(), "{misplaced:#?}");
    let at = |model: &str, provider: &str| {
        s.offerings.iter().any(|o| {
            o.model_slug == model
                && o.provider_slug == provider
                && o.provider_model_id == "mistral/mistral-medium"
        })
    };
    assert!(at("mistral-medium-2508", "vercel"));
    assert!(!at("mistral-medium-2604", "vercel"));
}

/// A name stating another size than its model's own ids is another model's label: no listed
/// model is named with a parameter count none of its slug and aliases state, where they
/// state one (NanoGPT's "Llama 3.1 70B Dracarys 2" for `Dracarys-72B-Instruct`;
/// docs/methodology.md, "Identity").
#[test]
fn a_name_of_another_size_never_names_a_model() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let sizes = |text: &str| -> BTreeSet<String> {
        mds::ingest::names::slugify(text)
            .split('-')
            .filter(|w| {
                w.len() > 1
                    && w.ends_with('b')
                    && w[..w.len() - 1].bytes().all(|b| b.is_ascii_digit())
            })
            .map(str::to_string)
            .collect()
    };
    let mut spelt: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for m in &s.models {
        spelt
            .entry(m.slug.as_str())
            .or_default()
            .extend(sizes(&m.slug));
    }
    for a in &s.aliases {
        spelt
            .entry(a.model_slug.as_str())
            .or_default()
            .extend(sizes(&a.alias));
    }
    let apart: Vec<String> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .filter(|m| {
            let (own, named) = (&spelt[m.slug.as_str()], sizes(&m.name));
            !own.is_empty() && !named.is_empty() && own.is_disjoint(&named)
        })
        .map(|m| format!("{} named {}", m.slug, m.name))
        .collect();
    assert!(apart.is_empty(), "{apart:#?}");
    // A name leaving the size out is heard only where no name states it.
    let named = |slug: &str| {
        s.models
            .iter()
            .find(|m| m.slug == slug)
            .map(|m| m.name.as_str())
    };
    assert_eq!(named("gemini-1.5-flash-8b"), Some("Gemini 1.5 Flash 8B"));
}

/// A seller's date after the day the dataset first observed a model is the day it listed
/// the model: no listed undated model is dated after its first sighting unless its creator
/// sells it (and so dates it; docs/data.md, "Witnesses and votes").
#[test]
fn no_seller_dates_a_model_after_it_was_first_seen() {
    use mds::ingest::names;
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let creators = sold_by_creator(&s);
    let late: Vec<String> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research" && !creators.contains(m.slug.as_str()))
        .filter(|m| names::split_date(&names::parse(&m.slug).key).is_none())
        .filter_map(|m| {
            let (date, seen) = (m.release_date.as_deref()?, m.first_seen.as_deref()?);
            (date.get(..10).unwrap_or(date) > seen).then(|| format!("{} {date} > {seen}", m.slug))
        })
        .collect();
    assert!(late.is_empty(), "{late:#?}");
}

/// What a dated snapshot can do is its creator's dated entries' word: where every LiteLLM
/// entry of the snapshot's own id at its creator's API agrees on reasoning or tool calls,
/// the model says the same (the undated name's older files do not outvote them:
/// `qwen3-max-2026-01-23` reasons; docs/data.md, "Witnesses and votes").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_snapshot_s_abilities_are_its_own_entries_word() {
    use mds::ingest::names;
    let litellm = crate::helpers::raw_json("litellm/model_prices_and_context_window.json");
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let (providers, first_party) = litellm_first_party(&s);
    let models: BTreeMap<String, &entity::model::Model> = s
        .models
        .iter()
        .filter(|m| names::split_date(&names::parse(&m.slug).key).is_some())
        .map(|m| (names::parse(&m.slug).key, m))
        .collect();
    // (slug, field) → the values the creator's dated entries state.
    let mut stated: BTreeMap<(&str, &str), BTreeSet<bool>> = BTreeMap::new();
    for (key, entry) in litellm.as_object().unwrap() {
        let id = key.rsplit('/').next().unwrap_or(key);
        let Some(m) = models.get(&names::parse(id).key) else {
            continue;
        };
        let provider = entry["litellm_provider"]
            .as_str()
            .and_then(|p| providers.get(p));
        if !provider.is_some_and(|p| first_party.contains(&(m.slug.as_str(), *p))) {
            continue;
        }
        for (field, flag) in [
            ("reasoning", "supports_reasoning"),
            ("tool_call", "supports_function_calling"),
        ] {
            if let Some(b) = entry[flag].as_bool() {
                stated
                    .entry((m.slug.as_str(), field))
                    .or_default()
                    .insert(b);
            }
        }
    }
    let by_slug: BTreeMap<&str, &entity::model::Model> =
        s.models.iter().map(|m| (m.slug.as_str(), m)).collect();
    let mut checked = 0;
    let mut apart = Vec::new();
    for ((slug, field), values) in &stated {
        let [value] = values.iter().collect::<Vec<_>>()[..] else {
            continue;
        };
        let m = by_slug[slug];
        let served = if *field == "reasoning" {
            m.reasoning
        } else {
            m.tool_call
        };
        checked += 1;
        if served.is_some_and(|v| v != *value) {
            apart.push(format!("{slug} {field}: {served:?}, its entries {value}"));
        }
    }
    assert!(checked >= 50, "{checked} checked");
    assert!(apart.is_empty(), "{apart:#?}");
}

/// A dated id at its creator's own API is a snapshot of its own: no model answers to two
/// dates of one name there, nor to a date other than its own slug's (Alibaba's
/// `qwen-plus-2025-07-14` is not `qwen-plus-2025-07-28`; OpenAI's `gpt-4o-mini-tts-2025-03-20`
/// and `-2025-12-15` are two models; docs/methodology.md, "Identity").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_creator_s_dated_ids_are_snapshots_of_their_own() {
    use mds::ingest::{identities, names};
    let litellm = crate::helpers::raw_json("litellm/model_prices_and_context_window.json");
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let (providers, first_party) = litellm_first_party(&s);
    let owner = owners(&s);
    let named = |id: &str| owner.get(&names::parse(id).key).cloned();
    // (provider, undated name) → date → the model the dated id names.
    let mut dated: BTreeMap<(&str, &str), BTreeMap<&str, String>> = BTreeMap::new();
    for (key, entry) in litellm.as_object().unwrap() {
        if key.matches('/').count() > 1 {
            continue;
        }
        let id = key.rsplit('/').next().unwrap_or(key);
        let (Some(undated), Some(provider)) = (
            identities::undated(id),
            entry["litellm_provider"]
                .as_str()
                .and_then(|p| providers.get(p)),
        ) else {
            continue;
        };
        let (Some(model), Some(plain)) = (named(id), named(undated)) else {
            continue;
        };
        if !first_party.contains(&(plain.as_str(), *provider))
            && !first_party.contains(&(model.as_str(), *provider))
        {
            continue;
        }
        dated
            .entry((*provider, undated))
            .or_default()
            .insert(&id[undated.len() + 1..], model);
    }
    let mut folded = Vec::new();
    for ((provider, undated), dates) in &dated {
        let mut models: BTreeMap<&String, Vec<&str>> = BTreeMap::new();
        for (date, model) in dates {
            models.entry(model).or_default().push(date);
            let own = identities::undated(model).map(|u| &model[u.len() + 1..]);
            if own.is_some_and(|d| d != *date && names::parse(d).key != names::parse(date).key) {
                folded.push(format!("{provider} {undated}-{date} is {model}"));
            }
        }
        for (model, dates) in models.iter().filter(|(_, d)| d.len() > 1) {
            folded.push(format!("{provider} {undated} at {dates:?} all {model}"));
        }
    }
    assert!(dated.len() >= 50, "{} dated names", dated.len());
    assert!(folded.is_empty(), "{folded:#?}");
    assert_named(
        &s,
        &[
            ("qwen-plus-2025-07-14", "qwen-plus-2025-07-14"),
            ("qwen-plus-2025-09-11", "qwen-plus-2025-09-11"),
        ],
    );
}

/// An open-weights release under an undated name is its own model, not the newest dated
/// snapshot of its stem: where Epoch dates an undated model two months or more before the
/// dated snapshot its name would join, and its creator's price list does not sell the
/// undated name (an API alias moves), the name is not that snapshot's (DeepSeek's January R1
/// and December V3 are not `deepseek-r1-0528`, `deepseek-v3-0324`; docs/methodology.md,
/// "Identity").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn an_open_release_under_an_undated_name_is_no_later_snapshot() {
    use mds::ingest::names;
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let owner = owners(&s);
    let by_slug: BTreeMap<&str, &entity::model::Model> =
        s.models.iter().map(|m| (m.slug.as_str(), m)).collect();
    // Models whose creator sells the undated name itself at its own API.
    let sold_undated: BTreeSet<(&str, String)> = s
        .offerings
        .iter()
        .filter(|o| o.kind.to_string() == "first_party")
        .map(|o| {
            (
                o.model_slug.as_str(),
                names::parse(&o.provider_model_id).key,
            )
        })
        .collect();
    let path = crate::helpers::raw_sources().join("epoch/data/model_versions.csv");
    let mut joined = Vec::new();
    let mut checked = 0;
    for row in csv::Reader::from_path(path).unwrap().deserialize() {
        let row: BTreeMap<String, String> = row.unwrap();
        let field = |k: &str| row.get(k).or_else(|| row.get(&format!("\u{feff}{k}")));
        let (Some(id), Some(date)) = (field("id"), field("Version release date")) else {
            continue;
        };
        let key = names::parse(id.rsplit('/').next().unwrap_or(id)).key;
        let Some(m) = owner.get(&key).and_then(|slug| by_slug.get(slug.as_str())) else {
            continue;
        };
        if names::split_date(&key).is_some()
            || names::split_date(&names::parse(&m.slug).key).is_none()
            || m.open_source != Some(true)
            || sold_undated.contains(&(m.slug.as_str(), key.clone()))
        {
            continue;
        }
        let (Some(epoch), Some(served)) = (date.get(..7), m.release_date.as_deref()) else {
            continue;
        };
        checked += 1;
        let month = |d: &str| d[..4].parse::<i32>().unwrap() * 12 + d[5..7].parse::<i32>().unwrap();
        if served.len() >= 7 && month(epoch) + 2 <= month(served) {
            joined.push(format!("{id} (Epoch {date}) is {} of {served}", m.slug));
        }
    }
    assert!(checked >= 1, "{checked} checked");
    assert!(joined.is_empty(), "{joined:#?}");
    assert_named(
        &s,
        &[
            ("deepseek-r1", "deepseek-r1"),
            ("deepseek-v3", "deepseek-v3"),
        ],
    );
}

/// A slug writes a version with its dot where any spelling of the model does (Bedrock's
/// `llama3-1-8b-instruct` is `llama-3.1-8b-instruct`, as Meta and most hosts write it),
/// unless the creator's own API spells it with a dash (xAI's `grok-4-1-fast-reasoning`):
/// docs/methodology.md, "Identity".
#[test]
fn a_slug_writes_the_dots_its_spellings_write() {
    use mds::ingest::names;
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let own_spelling: BTreeSet<(&str, String)> = s
        .offerings
        .iter()
        .filter(|o| o.kind.to_string() == "first_party")
        .map(|o| {
            (
                o.model_slug.as_str(),
                names::parse(&o.provider_model_id).slug,
            )
        })
        .collect();
    let listed: BTreeSet<&str> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .map(|m| m.slug.as_str())
        .collect();
    let dashed: Vec<String> = s
        .aliases
        .iter()
        .filter(|a| listed.contains(a.model_slug.as_str()))
        .filter(|a| {
            a.alias.replace('.', "-") == a.model_slug.replace('.', "-")
                && a.alias.matches('.').count() > a.model_slug.matches('.').count()
                && !own_spelling.contains(&(a.model_slug.as_str(), a.model_slug.clone()))
        })
        .map(|a| format!("{} beside {}", a.model_slug, a.alias))
        .collect();
    assert!(dashed.is_empty(), "{dashed:#?}");
    assert_named(&s, &[("llama3-1-8b-instruct", "llama-3.1-8b-instruct")]);
    // A name spelt as the id writes dots; NVIDIA's `_` is a dot, not a dash.
    for slug in [
        "dracarys-llama-3.1-70b-instruct",
        "flux.1-kontext-dev",
        "cosmos-transfer2.5-2b",
    ] {
        assert!(listed.contains(slug), "{slug}");
    }
    let underscored: Vec<&str> = s
        .offerings
        .iter()
        .filter(|o| {
            o.provider_model_id.as_bytes().windows(4).any(|w| {
                // (`q8_0` is a quantisation tag.)
                !w[0].eq_ignore_ascii_case(&b'q')
                    && w[1].is_ascii_digit()
                    && w[2] == b'_'
                    && w[3].is_ascii_digit()
            }) && !o.model_slug.contains('.')
        })
        .map(|o| o.model_slug.as_str())
        .collect();
    assert!(underscored.is_empty(), "{underscored:?}");
}

/// Two packagings of one model are never two models, nor is a listed slug a packaging: no two
/// listed models' keys are one key with weights formats written after it, and none ends in
/// one (Together's `Ternary-Bonsai-27B-gguf` and `…-AWQ-4bit` are `ternary-bonsai-27b`;
/// Novita's `qwen3-4b-fp8` is `qwen3-4b`, which Nebius sells as `Qwen/Qwen3-4B`;
/// docs/methodology.md, "Identity").
#[test]
fn packagings_of_one_model_are_one_model() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let formats = mds::ingest::identities::WEIGHT_FORMATS;
    let mut plain: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (key, slug) in listed_keys(&s) {
        let mut base = key.as_str();
        while let Some(f) = formats
            .iter()
            .find(|f| base.len() > f.len() && base.ends_with(*f))
        {
            base = &base[..base.len() - f.len()];
        }
        plain.entry(base.to_string()).or_default().push(slug);
    }
    let twins: Vec<_> = plain.iter().filter(|(_, slugs)| slugs.len() > 1).collect();
    assert!(twins.is_empty(), "{twins:#?}");
    // Nor is a listed slug a packaging.
    let packaged: Vec<&&str> = plain
        .values()
        .flatten()
        .filter(|slug| formats.iter().any(|f| slug.ends_with(f)))
        .collect();
    assert!(packaged.is_empty(), "{packaged:#?}");
    assert_named(
        &s,
        &[
            ("ternary-bonsai-27b-gguf", "ternary-bonsai-27b"),
            ("qwen3-4b-fp8", "qwen3-4b"),
            ("Qwen/Qwen3-4B", "qwen3-4b"),
            // Cloudflare's INT8 DistilBERT SST-2, which no source lists plainly.
            ("distilbert-sst-2-int8", "distilbert-sst-2"),
        ],
    );
}

/// A host's serving tier is no model: no listed slug is another listed slug with a tier
/// written after it (Clarifai's `MiniMax-M2_5-high-throughput`, at MiniMax-M2.5's own price,
/// is MiniMax M2.5; Together's `-tput`; docs/methodology.md, "Identity").
#[test]
fn serving_tiers_are_the_model_they_serve() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let slugs: BTreeSet<&str> = s.models.iter().map(|m| m.slug.as_str()).collect();
    let tiers = ["-high-throughput", "-tput", "-fp8-fast", "-basic"];
    let apart: Vec<&&str> = slugs
        .iter()
        .filter(|slug| {
            tiers
                .iter()
                .any(|t| slug.strip_suffix(t).is_some_and(|b| slugs.contains(b)))
        })
        .collect();
    assert!(apart.is_empty(), "{apart:?}");
    assert_named(
        &s,
        &[
            ("MiniMax-M2_5-high-throughput", "minimax-m2.5"),
            ("gpt-oss-120b-high-throughput", "gpt-oss-120b"),
        ],
    );
}

/// A snapshot's date is no second model of the undated one its creator released that day,
/// nor is an undated id its creator's entry points at one dated id inside: no listed
/// `X-MM-DD` beside a listed `X` released on that month and day, and no listed undated id
/// beside the one listed id its creator's price entry matches with a date inside
/// (routers' `qwen/qwen3.5-flash-02-23` is Alibaba's `qwen3.5-flash`; OpenAI's
/// `gpt-4-vision-preview` is `gpt-4-1106-vision-preview`; docs/methodology.md, "Identity").
#[test]
fn a_day_or_a_date_inside_an_id_names_no_second_model() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let listed: BTreeMap<&str, &entity::model::Model> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .map(|m| (m.slug.as_str(), m))
        .collect();
    let two = |w: &str| w.len() == 2 && w.bytes().all(|b| b.is_ascii_digit());
    let same_day: Vec<(&str, &str)> = listed
        .keys()
        .filter_map(|slug| {
            let (rest, day) = slug.rsplit_once('-')?;
            let (stem, month) = rest.rsplit_once('-')?;
            let undated = listed.get(stem)?;
            (two(day)
                && two(month)
                && undated
                    .release_date
                    .as_deref()
                    .is_some_and(|d| d.ends_with(&format!("-{month}-{day}"))))
            .then_some((*slug, stem))
        })
        .collect();
    assert!(same_day.is_empty(), "{same_day:?}");
    let inside: Vec<(&str, String)> = listed
        .keys()
        .filter_map(|slug| {
            let words: Vec<&str> = slug.split('-').collect();
            let at = words[..words.len() - 1]
                .iter()
                .position(|w| w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()))?;
            let mut rest = words.clone();
            rest.remove(at);
            let undated = rest.join("-");
            listed
                .contains_key(undated.as_str())
                .then_some((*slug, undated))
        })
        .collect();
    assert!(inside.is_empty(), "{inside:?}");
    assert_named(
        &s,
        &[
            ("qwen3.5-flash", "qwen3.5-flash-02-23"),
            ("gpt-4-vision-preview", "gpt-4-1106-vision-preview"),
            // Ollama's size tag of the one tuned checkpoint that size names.
            ("rnj-1:8b", "rnj-1-instruct"),
        ],
    );
}

/// A host's id leaving out the `vision` of its model's id, and taking images, is that
/// model: no listed model that takes images has a key that is another listed model's with
/// `vision` taken out (Bedrock's `meta.llama3-2-90b-instruct-v1:0` is
/// `llama-3.2-90b-vision-instruct`; docs/methodology.md, "Identity").
#[test]
fn an_id_leaving_out_vision_names_no_second_model() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let listed = listed_keys(&s);
    let images: BTreeSet<&str> = s
        .models
        .iter()
        .filter(|m| m.input_modalities.split(',').any(|x| x == "image"))
        .map(|m| m.slug.as_str())
        .collect();
    let twins: Vec<String> = listed
        .iter()
        .filter(|(key, _)| key.contains("-vision"))
        .filter_map(|(key, slug)| {
            let plain = listed.get(&key.replacen("-vision", "", 1))?;
            images
                .contains(plain)
                .then(|| format!("{plain} beside {slug}"))
        })
        .collect();
    assert!(twins.is_empty(), "{twins:#?}");
    assert_named(
        &s,
        &[(
            "meta.llama3-2-90b-instruct-v1:0",
            "llama-3.2-90b-vision-instruct",
        )],
    );
}

/// A host's id writing a version otherwise than its creator is the creator's model: no
/// listed model's key is another listed model's with a `v` taken off one version (Ollama
/// Cloud's `cogito-2.1:671b` is `cogito-v2.1-671b`), nor with the dot of a version run into
/// its name taken out (Novita's `l31-70b-euryale-v2.2` is `l3.1-70b-euryale-v2.2`);
/// docs/methodology.md, "Identity".
#[test]
fn a_version_spelt_otherwise_names_no_second_model() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let listed = listed_keys(&s);
    let mut twins: Vec<String> = Vec::new();
    for (key, slug) in &listed {
        let words: Vec<&str> = key.split('-').collect();
        let mut spellings = Vec::new();
        // Only a `v` before a version (not `-vl`, `-vision`).
        if words.iter().any(|w| {
            w.len() > 1 && w.starts_with('v') && w[1..].bytes().all(|b| b.is_ascii_digit())
        }) {
            spellings.push(key.replace("-v", "-"));
        }
        // A name's letters then two digits (`l31`), spelt with the dot (`l3.1`).
        for (i, w) in words.iter().enumerate() {
            let letters = w.trim_end_matches(|c: char| c.is_ascii_digit());
            if !letters.is_empty()
                && letters.bytes().all(|b| b.is_ascii_alphabetic())
                && w.len() - letters.len() == 2
            {
                let mut respelt: Vec<String> = words.iter().map(|w| (*w).to_string()).collect();
                respelt[i] = format!(
                    "{letters}{}-{}",
                    &w[letters.len()..letters.len() + 1],
                    &w[letters.len() + 1..]
                );
                spellings.push(respelt.join("-"));
            }
        }
        for other in spellings.iter().filter_map(|k| listed.get(k)) {
            if other != slug {
                twins.push(format!("{other} beside {slug}"));
            }
        }
    }
    assert!(twins.is_empty(), "{twins:#?}");
    assert_named(
        &s,
        &[
            ("cogito-2.1-671b", "cogito-v2.1-671b"),
            ("l31-70b-euryale-v2.2", "l3.1-70b-euryale-v2.2"),
        ],
    );
}

/// A seller's date two months or more before the first snapshot a model's own ids date is
/// another model's, and an undated model whose ids date one day only is of that day: no
/// listed undated model its creator does not sell is dated that far before its dated aliases (`o3-deep-research`, whose
/// one snapshot is 2025-06-26, is not of o3's 2025-04-16; docs/data.md, "Witnesses and
/// votes").
#[test]
fn no_model_is_released_months_before_its_own_snapshots() {
    use mds::ingest::names;
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let month = |d: &str| -> Option<i32> {
        Some(d.get(..4)?.parse::<i32>().ok()? * 12 + d.get(4..6)?.parse::<i32>().ok()?)
    };
    let mut first: BTreeMap<&str, i32> = BTreeMap::new();
    for a in &s.aliases {
        let key = names::parse(&a.alias).key;
        let Some((_, d)) = names::split_date(&key) else {
            continue;
        };
        let d = d.replace('-', "");
        if let Some(m) = (d.len() == 8).then(|| month(&d)).flatten() {
            let e = first.entry(a.model_slug.as_str()).or_insert(m);
            *e = (*e).min(m);
        }
    }
    // The creator's own word stands (xAI dates `grok-imagine-image` before its 2026-03-02 id).
    let creators = sold_by_creator(&s);
    let early: Vec<String> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research" && !creators.contains(m.slug.as_str()))
        .filter(|m| names::split_date(&names::parse(&m.slug).key).is_none())
        .filter_map(|m| {
            let date = m.release_date.as_deref()?;
            let d = month(&date.replace('-', ""))?;
            let id = first.get(m.slug.as_str())?;
            (d + 2 <= *id).then(|| format!("{} {date}", m.slug))
        })
        .collect();
    assert!(early.is_empty(), "{early:#?}");
    let o3 = s
        .models
        .iter()
        .find(|m| m.slug == "o3-deep-research")
        .unwrap();
    assert_eq!(o3.release_date.as_deref(), Some("2025-06-26"));
}

/// A creator's own cloud is its own API, as Bedrock is Amazon's and Azure Microsoft's:
/// every offering of a Google model on Vertex AI is first-party, and a model Google sells
/// only there is a model (`gemini-3.8-flash-cyber`; data/creators.csv).
#[test]
fn a_creator_s_own_cloud_is_its_own_api() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let creator = creators_of(&s);
    let resold: Vec<String> = s
        .offerings
        .iter()
        .filter(|o| o.provider_slug == "google-vertex")
        .filter(|o| creator.get(o.model_slug.as_str()).copied().flatten() == Some("google"))
        .filter(|o| o.kind.to_string() != "first_party")
        .map(|o| o.model_slug.clone())
        .collect();
    assert!(resold.is_empty(), "{resold:#?}");
    assert!(sold_by_creator(&s).contains("gemini-3.8-flash-cyber"));
}

/// A speech generator makes audio, whatever one entry lists (docs/data.md): every listed
/// `text_to_speech` model's output modalities hold `audio`; and a LiteLLM entry whose flag
/// contradicts its own list says nothing of that modality, so Gemini 2.5 Pro Preview TTS,
/// which every creator record says makes audio alone, makes no text.
#[test]
fn every_speech_generator_makes_audio() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let silent: Vec<&str> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .filter(|m| m.task.to_string() == "text_to_speech")
        .filter(|m| !m.output_modalities.split(',').any(|k| k == "audio"))
        .map(|m| m.slug.as_str())
        .collect();
    assert!(silent.is_empty(), "{silent:#?}");
    let tts = s
        .models
        .iter()
        .find(|m| m.slug == "gemini-2.5-pro-preview-tts")
        .map(|m| m.output_modalities.as_str());
    assert_eq!(tts, Some("audio"));
}

/// A creator selling under its own name is its own API, listed in the creators table or not
/// (ScaleDown's `scaledown` for `summarize`): every such offering is first-party, and a
/// priced one is the list price (docs/methodology.md, "Who made what and who sells it").
#[test]
fn a_creator_s_own_name_is_its_own_api() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let creator = creators_of(&s);
    let resold: Vec<String> = s
        .offerings
        .iter()
        .filter(|o| {
            creator.get(o.model_slug.as_str()).copied().flatten() == Some(o.provider_slug.as_str())
        })
        .filter(|o| o.kind.to_string() != "first_party")
        .map(|o| format!("{} at {}", o.model_slug, o.provider_slug))
        .collect();
    assert!(resold.is_empty(), "{resold:#?}");
    let summarize = s.models.iter().find(|m| m.slug == "summarize").unwrap();
    assert_eq!(summarize.input_price, Some(0.05));
}

/// A model that takes only audio and writes only text is a transcriber, whatever its name
/// (Alibaba's "Qwen3-ASR Flash"): every listed one is `speech_to_text`.
#[test]
fn every_audio_to_text_model_transcribes() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let chatty: Vec<&str> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .filter(|m| m.input_modalities == "audio" && m.output_modalities == "text")
        .filter(|m| m.task.to_string() != "speech_to_text")
        .map(|m| m.slug.as_str())
        .collect();
    assert!(chatty.is_empty(), "{chatty:#?}");
}

/// A name in lowercase words ("gpt 4 vision", genai-prices' label) is a label, served only
/// where no other source names the model with capitals (docs/methodology.md, "Names").
#[test]
fn a_lowercase_label_is_no_name_where_a_source_gives_one() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let labels: Vec<(&str, &str)> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .filter(|m| m.name.contains(' ') && !m.name.chars().any(|c| c.is_ascii_uppercase()))
        // (An id with its date in parentheses, "o3-pro (2025-06-10)", is the creator's id.)
        .filter(|m| m.name.split(" (").next().unwrap_or(&m.name).contains(' '))
        .map(|m| (m.slug.as_str(), m.name.as_str()))
        .collect();
    // Two models no source names otherwise (`gpt-4o-mini-audio-preview`, Ming Image).
    assert!(labels.len() <= 2, "{labels:?}");
    let name = |slug: &str| {
        s.models
            .iter()
            .find(|m| m.slug == slug)
            .unwrap()
            .name
            .as_str()
    };
    assert_eq!(name("gpt-4-1106-vision-preview"), "GPT-4V");
    assert_eq!(name("gpt-3.5-turbo-instruct"), "GPT-3.5 Turbo Instruct");
    // A floating alias's capitals ("Gemini Pro Latest") are no better.
    assert_eq!(name("gemini-pro"), "Gemini 1.0 Pro");
    // A name another source writes alike with a capital first is written so.
    assert_eq!(name("gemini-1.5-pro"), "Gemini 1.5 Pro");
}

/// A floating alias the creator's price entry for another name bills is no listing of the
/// model its words without `latest` name: Gemini 1.0 Pro (`gemini-pro`) has no offering under
/// `gemini-pro-latest`, which Google bills as Gemini 3.1 Pro Preview, and takes text alone
/// (docs/methodology.md, "Identity").
#[test]
fn a_floating_alias_billed_as_another_model_names_no_older_one() {
    let s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let floating: Vec<&str> = s
        .offerings
        .iter()
        .filter(|o| o.model_slug == "gemini-pro" && o.provider_model_id.contains("latest"))
        .map(|o| o.provider_model_id.as_str())
        .collect();
    assert!(floating.is_empty(), "{floating:?}");
    let pro = s.models.iter().find(|m| m.slug == "gemini-pro").unwrap();
    assert_eq!(pro.input_modalities, "text");
    assert_ne!(pro.reasoning, Some(true));
}
