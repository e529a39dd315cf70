//! A reviewer's reading of a random 100 listed models: each is checked against the rules a
//! person applies when reading the list one by one. What was read and fixed is written down
//! in `data/audit.md`.

use entity::model;
use mds::snapshot::{EMBEDDED, Snapshot};

/// A fixed-seed draw of `n` distinct positions below `len` (xorshift64*).
fn draw(seed: u64, n: usize, len: usize) -> Vec<usize> {
    let mut x = seed;
    let mut out: Vec<usize> = Vec::with_capacity(n);
    while out.len() < n.min(len) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let i = (x.wrapping_mul(0x2545_F491_4F6C_DD1D) % len as u64) as usize;
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// `yymm` of a slug's build tag (`voxtral-mini-3b-2507` → 2025-07), where it ends in one.
fn named_month(slug: &str) -> Option<String> {
    let tail = slug.rsplit('-').next()?;
    if tail.len() != 4 || !tail.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (yy, mm) = (&tail[..2], &tail[2..]);
    (("23"..="27").contains(&yy) && ("01"..="12").contains(&mm)).then(|| format!("20{yy}-{mm}"))
}

/// What a reviewer would call wrong about a listed model.
fn faults(m: &model::Model, dataset_date: &str) -> Vec<String> {
    let mut out = Vec::new();
    let name = format!("{} {}", m.slug, m.name).to_lowercase();
    let outputs: Vec<&str> = m.output_modalities.split(',').collect();
    // Task against what it outputs and what it is called.
    if outputs.contains(&"image") && m.task.as_str() != "image_generation" {
        out.push(format!("outputs images but is tasked {}", m.task));
    }
    let not_chat = ["embed", "rerank", "transcri", "whisper", "-tts", "ocr"];
    if m.task.as_str() == "chat" && not_chat.iter().any(|w| name.contains(w)) {
        out.push("a non-conversational name tasked chat".into());
    }
    // A community fine-tune whose publisher no source names is credited to no one, by rule
    // (docs/data.md, "Creators"): it links its base model instead.
    if m.creator_slug.is_none() && m.base_model.is_none() {
        out.push("no creator".into());
    }
    match (m.release_date.as_deref(), m.first_seen.as_deref()) {
        (None, None) => out.push("no date".into()),
        (Some(d), _) | (None, Some(d)) => {
            if d > dataset_date {
                out.push(format!("dated {d}, after the dataset"));
            }
            if d < "2018-06-01" {
                out.push(format!(
                    "dated {d}, before any of these labs shipped a model"
                ));
            }
            if let (Some(r), Some(month)) = (m.release_date.as_deref(), named_month(&m.slug))
                && r < month.as_str()
            {
                out.push(format!("released {r}, before the {month} its name gives"));
            }
        }
    }
    // Packaging in the name: an ollama tag, a host's product prefix or mode suffix.
    let tagged = m
        .name
        .split(':')
        .skip(1)
        .any(|rest| rest.starts_with(|c: char| c.is_ascii_alphanumeric()));
    if m.slug.contains(':') || tagged {
        out.push("a tag in the name".into());
    }
    if m.slug.starts_with("coding-") || m.slug.ends_with("-flex") || m.slug.ends_with("-batch") {
        out.push("a host's packaging in the name".into());
    }
    out
}

#[test]
fn a_random_hundred_of_the_listed_models_read_as_a_reviewer_would() {
    let s = Snapshot::decode(EMBEDDED).unwrap();
    let listed: Vec<&model::Model> = s
        .models
        .iter()
        .filter(|m| {
            matches!(m.availability.as_str(), "api" | "open_weights") && m.task.as_str() != "router"
        })
        .collect();
    for seed in [0x5EED_0001_u64, 0x2026_1124, 0xD1CE_F00D] {
        let wrong: Vec<String> = draw(seed, 100, listed.len())
            .into_iter()
            .map(|i| listed[i])
            .filter_map(|m| {
                let f = faults(m, &s.built_at);
                (!f.is_empty()).then(|| format!("{}: {}", m.slug, f.join("; ")))
            })
            .collect();
        assert!(
            wrong.len() <= 5,
            "seed {seed:#x}: {} of 100 look wrong:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }
}

#[test]
fn the_rules_catch_what_the_issue_found() {
    let mut m = mds::ingest::catalog::blank_model("voxtral-mini-3b-2507");
    m.creator_slug = Some("mistral".into());
    m.release_date = Some("2024-12-01".into());
    m.task = entity::vocab::Task::SpeechToText;
    assert_eq!(
        faults(&m, "2026-11-10").len(),
        1,
        "{:?}",
        faults(&m, "2026-11-10")
    );
    let mut tag = mds::ingest::catalog::blank_model("ministral-3:14b");
    tag.creator_slug = Some("mistral".into());
    tag.first_seen = Some("2026-01-01".into());
    assert_eq!(faults(&tag, "2026-11-10"), ["a tag in the name"]);
    assert_eq!(named_month("claude-3-5-sonnet-20241022"), None);
    assert_eq!(
        named_month("ministral-14b-2512").as_deref(),
        Some("2025-12")
    );
}

/// What users of other catalogues look for, read as they would: the creator's deprecation
/// date (LiteLLM's record of it), retirement once it passed, structured-output support and
/// the training cutoff.
#[tokio::test]
async fn lifecycle_fields_and_retired_models() {
    use crate::helpers::{Backend, TestApp};
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, sonnet) = app.get_json("/api/v1/models/claude-sonnet-4-5").await;
    assert_eq!(status, 200);
    let m = &sonnet["data"];
    // LiteLLM's `anthropic` entries: deprecation_date 2026-11-30, after the dataset's day.
    assert_eq!(m["deprecation_date"], "2026-11-30", "{m}");
    assert_eq!(m["retired"], false);
    assert_eq!(m["structured_output"], true);
    assert_eq!(m["knowledge_cutoff"], "2025-07-31");

    // OpenAI's o1 (2024-12-17) passed its deprecation date: resolvable, out of default lists.
    let (status, o1) = app.get_json("/api/v1/models/o1-2024-12-17").await;
    assert_eq!(status, 200);
    assert_eq!(o1["data"]["retired"], true);
    let slugs = |v: &serde_json::Value| -> Vec<String> {
        v["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["slug"].as_str().unwrap().to_string())
            .collect()
    };
    let (_, openai) = app
        .get_json("/api/v1/models?creator=openai&limit=100&sort=name")
        .await;
    assert!(!slugs(&openai).contains(&"o1-2024-12-17".to_string()));
    let (_, retired) = app.get_json("/api/v1/models?retired=true&limit=100").await;
    let retired = slugs(&retired);
    assert!(
        retired.contains(&"o1-2024-12-17".to_string()),
        "{retired:?}"
    );
    let mut every = Vec::new();
    for page in 1..=5 {
        let (_, all) = app
            .get_json(&format!(
                "/api/v1/models?availability=all&creator=openai&limit=100&sort=name&page={page}"
            ))
            .await;
        every.extend(slugs(&all));
    }
    assert!(every.contains(&"o1-2024-12-17".to_string()));
    // No retired model in the default lists.
    let catalog = app.state.catalog.snapshot();
    let (_, first) = app.get_json("/api/v1/models?limit=100").await;
    for slug in slugs(&first) {
        assert!(!catalog.model(&slug).unwrap().retired, "{slug}");
    }

    // Deprecated: a date announced (o3), or the creator's own entry says so with no date
    // (Anthropic's models.dev file for Claude 3 Opus); still served until retired.
    for slug in ["o3-2025-04-16", "claude-3-opus-20240229"] {
        let (status, m) = app.get_json(&format!("/api/v1/models/{slug}")).await;
        assert_eq!(status, 200);
        assert_eq!(m["data"]["deprecated"], true, "{slug}");
        assert_eq!(m["data"]["retired"], false, "{slug}");
    }
    // A preview its creator deprecated leaves the default list, and `deprecated` finds it.
    let google = |q: &'static str| {
        let app = &app;
        async move {
            let mut out = Vec::new();
            for page in 1..=5 {
                let (status, v) = app
                    .get_json(&format!(
                        "/api/v1/models?creator=google&limit=100&sort=name&page={page}{q}"
                    ))
                    .await;
                assert_eq!(status, 200, "{q}");
                out.extend(slugs(&v));
            }
            out
        }
    };
    let preview = "gemini-3.1-flash-live-preview".to_string();
    assert!(catalog.model(&preview).unwrap().deprecated);
    assert!(!google("").await.contains(&preview));
    let deprecated = google("&deprecated=true").await;
    assert!(deprecated.contains(&preview), "{deprecated:?}");
    assert!(
        deprecated
            .iter()
            .all(|s| catalog.model(s).unwrap().deprecated)
    );
    assert!(
        google("&deprecated=false")
            .await
            .iter()
            .all(|s| !catalog.model(s).unwrap().deprecated)
    );
    let (status, bad) = app.get_json("/api/v1/models?deprecated=maybe").await;
    assert_eq!(status, 400, "{bad}");
}
