//! The data rules of docs/data.md, each checked over the whole bundled catalogue (and, where
//! the rule is about what a source says, over the raw public datasets too).

use std::collections::{BTreeMap, BTreeSet};

use entity::offering::{Variant, Witness};
use mds::ingest::{self, names};
use mds::snapshot::{EMBEDDED, Snapshot};

use crate::helpers::raw_sources;

fn bundled() -> Snapshot {
    Snapshot::decode(EMBEDDED).unwrap()
}

fn model<'a>(s: &'a Snapshot, slug: &str) -> &'a entity::model::Model {
    s.models
        .iter()
        .find(|m| m.slug == slug)
        .unwrap_or_else(|| panic!("no model {slug}"))
}

/// `alias` is no model of its own but an alias of `slug`.
fn assert_alias(s: &Snapshot, alias: &str, slug: &str) {
    assert!(
        !s.models.iter().any(|m| m.slug == alias),
        "{alias} is a model"
    );
    assert!(
        s.aliases
            .iter()
            .any(|a| a.alias == alias && a.model_slug == slug),
        "{alias} is no alias of {slug}"
    );
}

fn offering<'a>(
    s: &'a Snapshot,
    slug: &str,
    provider: &str,
) -> Option<&'a entity::offering::Model> {
    s.offerings
        .iter()
        .find(|o| o.model_slug == slug && o.provider_slug == provider)
}

#[test]
fn price_modes_are_variants_never_prices_models_or_names() {
    let s = bundled();
    let named: Vec<&str> = s
        .models
        .iter()
        .filter(|m| names::price_mode("", Some(&m.name)).is_some())
        .map(|m| m.slug.as_str())
        .collect();
    assert!(named.is_empty(), "names that carry a mode: {named:?}");
    let sold_as_mode: Vec<String> = s
        .offerings
        .iter()
        .filter(|o| names::price_mode(&o.provider_model_id, None).is_some())
        .map(|o| format!("{}@{}", o.provider_model_id, o.provider_slug))
        .collect();
    assert!(
        sold_as_mode.is_empty(),
        "offerings priced from a mode entry: {sold_as_mode:?}"
    );
    let mut batched = 0;
    for o in &s.offerings {
        for v in Variant::decode(o.variants.as_deref()) {
            batched += usize::from(v.mode == "batch");
            assert!(
                !ingest::below_batch(o, &v),
                "{}@{} standard {:?}/{:?} below batch {:?}/{:?}",
                o.model_slug,
                o.provider_slug,
                o.input_price,
                o.output_price,
                v.input_price,
                v.output_price
            );
        }
    }
    assert!(
        batched > 50,
        "only {batched} offerings have a batch variant"
    );
    // OpenRouter's `anthropic/claude-opus-4.1:batch` (7.5/37.5) is the batch variant of its
    // 15/75 offering; the `:batch`-only GPT-6.1 Terra Pro is no model.
    let opus = offering(&s, "claude-opus-4-1-20250805", "openrouter").unwrap();
    assert_eq!(
        (opus.input_price, opus.output_price),
        (Some(15.0), Some(75.0))
    );
    let batch = Variant::decode(opus.variants.as_deref())
        .into_iter()
        .find(|v| v.mode == "batch")
        .unwrap();
    assert_eq!(
        (batch.input_price, batch.output_price),
        (Some(7.5), Some(37.5))
    );
    assert!(s.models.iter().all(|m| m.slug != "gpt-6.1-terra-pro"));
}

#[test]
fn free_is_only_what_a_source_states_as_free() {
    let s = bundled();
    let free: Vec<&entity::offering::Model> = s
        .offerings
        .iter()
        .filter(|o| o.kind.as_str() == "free_tier")
        .collect();
    assert!(!free.is_empty());
    for o in &free {
        assert!(
            (o.input_price, o.output_price) == (Some(0.0), Some(0.0))
                || mds::ingest::prices::says_free(&o.provider_model_id),
            "{}@{} is free_tier without a stated 0/0 or a free id",
            o.model_slug,
            o.provider_slug
        );
    }
    // An unknown price at a seller that names no free route is the seller's kind.
    let unknown = s
        .offerings
        .iter()
        .filter(|o| o.input_price.is_none() && o.output_price.is_none())
        .filter(|o| !mds::ingest::prices::says_free(&o.provider_model_id))
        .collect::<Vec<_>>();
    assert!(!unknown.is_empty());
    assert!(unknown.iter().all(|o| o.kind.as_str() != "free_tier"));
    // models.dev's 0/0 for Nova 2 Lite at Amazon's Nova API is a placeholder: Amazon sells
    // it at 0.3/2.5 on Bedrock, which is its list price.
    let nova = offering(&s, "nova-2-lite", "nova").unwrap();
    assert_eq!((nova.input_price, nova.output_price), (None, None));
    let m = model(&s, "nova-2-lite");
    assert_eq!((m.input_price, m.output_price), (Some(0.3), Some(2.5)));
    // An API shown writing a placeholder is believed on none of its models.dev 0/0s:
    // Nova 2 Pro is not free at the Nova API, whatever no other Amazon API says.
    let placeholding: std::collections::BTreeSet<&str> = s
        .offerings
        .iter()
        .filter(|o| o.kind.as_str() == "first_party" && o.source == "models-dev")
        .filter(|o| o.input_price.is_none() && o.output_price.is_none())
        .map(|o| o.provider_slug.as_str())
        .collect();
    assert!(placeholding.contains("nova"));
    let believed: Vec<String> = s
        .offerings
        .iter()
        .filter(|o| placeholding.contains(o.provider_slug.as_str()))
        .filter(|o| o.kind.as_str() == "first_party" && o.source == "models-dev")
        .filter(|o| (o.input_price, o.output_price) == (Some(0.0), Some(0.0)))
        .map(|o| format!("{}@{}", o.model_slug, o.provider_slug))
        .collect();
    assert!(believed.is_empty(), "{believed:?}");
    assert_eq!(model(&s, "nova-2-pro").input_price, None);
}

#[test]
fn media_prices_never_fill_token_prices() {
    let s = bundled();
    // Fireworks' FLUX.1 Kontext Pro is $0.04 an image, which LiteLLM writes per token.
    assert!(
        offering(&s, "flux-kontext-pro", "fireworks-ai")
            .is_none_or(|o| o.input_price.is_none() && o.output_price.is_none())
    );
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn no_media_entry_of_litellm_gives_a_token_price() {
    let path = raw_sources().join("litellm/model_prices_and_context_window.json");
    let data: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut media = 0;
    for (key, e) in data.as_object().unwrap() {
        let Some(e) = e.as_object() else { continue };
        if !ingest::sources::litellm::prices::tokens_unstated(e) {
            continue;
        }
        media += 1;
        if let Some((p, _)) = ingest::sources::litellm::prices::of(e) {
            assert!(p.input.is_none() && p.output.is_none(), "{key}: {p:?}");
        }
    }
    assert!(media >= 5, "{media} media entries priced only per token");
}

#[test]
fn every_sold_model_of_an_open_family_is_open_source() {
    let s = bundled();
    let sold: BTreeSet<&str> = s.offerings.iter().map(|o| o.model_slug.as_str()).collect();
    let family: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| ingest::catalog::open_family(&m.slug) && sold.contains(m.slug.as_str()))
        // A family's API-only tier has no published weights (Perplexity's Sonar on Llama 3).
        .filter(|m| !ingest::catalog::api_only(&m.slug))
        // A fine-tune's weights are its publisher's to publish, not its family's
        // (docs/data.md, "Creators"): its witnesses decide.
        .filter(|m| m.base_model.is_none())
        .collect();
    assert!(
        family.len() > 100,
        "{} models of open families",
        family.len()
    );
    let closed: Vec<&str> = family
        .iter()
        .filter(|m| m.open_source != Some(true))
        .map(|m| m.slug.as_str())
        .collect();
    assert!(
        closed.is_empty(),
        "open families not open_source: {closed:?}"
    );
    let api_only: Vec<&str> = s
        .models
        .iter()
        .filter(|m| ingest::catalog::api_only(&m.slug) && m.open_source == Some(true))
        .map(|m| m.slug.as_str())
        .collect();
    assert!(api_only.is_empty(), "API-only tiers open: {api_only:?}");
    // The table's API-only tiers of an open family (Qwen's Max, Plus, Turbo, Flash) are not
    // open, whatever a host's file says (docs/data.md, "Open weights").
    let tiers: Vec<(&str, Option<bool>)> = s
        .models
        .iter()
        .filter(|m| ingest::catalog::api_only(&m.slug) && sold.contains(m.slug.as_str()))
        .map(|m| (m.slug.as_str(), m.open_source))
        .collect();
    assert!(tiers.len() >= 10, "{tiers:?}");
    let open: Vec<&(&str, Option<bool>)> = tiers.iter().filter(|(_, o)| *o == Some(true)).collect();
    assert!(open.is_empty(), "API-only tiers open_source: {open:?}");
    for slug in [
        "gpt-oss-20b",
        "deepseek-v3.2",
        "qwen3-235b-a22b-instruct-2507",
    ] {
        // The host's spelling with `instruct` is the creator's snapshot of that date.
        let slug = alias_index(&s).get(slug).copied().unwrap_or(slug);
        assert_eq!(model(&s, slug).open_source, Some(true), "{slug}");
    }
}

/// No snapshot is first seen before the day its slug names (docs/methodology.md,
/// "first_seen").
#[test]
fn no_snapshot_is_seen_before_its_own_day() {
    let s = bundled();
    let dated: Vec<(&entity::model::Model, String)> = s
        .models
        .iter()
        .filter_map(|m| {
            let (_, d) = names::split_date(&m.slug)?;
            let d = d.replace('-', "");
            (d.len() == 8).then_some((m, d))
        })
        .collect();
    assert!(dated.len() > 50, "{} dated snapshots", dated.len());
    let early: Vec<(&str, Option<&str>)> = dated
        .iter()
        .filter(|(m, d)| {
            m.first_seen
                .as_deref()
                .is_some_and(|f| f.replace('-', "") < *d)
        })
        .map(|(m, _)| (m.slug.as_str(), m.first_seen.as_deref()))
        .collect();
    assert!(early.is_empty(), "{early:?}");
}

/// A snapshot named by month and day is of that day (docs/data.md, "a snapshot … its slug
/// names by month and day").
#[test]
fn a_snapshot_named_by_month_and_day_is_of_that_day() {
    let s = bundled();
    let mut named = 0;
    let mut other: Vec<(&str, &str)> = Vec::new();
    for m in s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
    {
        // (A month and day inside the slug sets no day by itself: `olmo-2-1124-…` is November
        // 2024.)
        let Some(last) = m.slug.rsplit('-').next() else {
            continue;
        };
        let valid = last.len() == 4
            && last.bytes().all(|b| b.is_ascii_digit())
            && last[..2]
                .parse::<u32>()
                .is_ok_and(|mo| (1..=12).contains(&mo))
            && last[2..]
                .parse::<u32>()
                .is_ok_and(|d| (1..=31).contains(&d));
        let Some(date) = m.release_date.as_deref().filter(|_| valid) else {
            continue;
        };
        named += 1;
        if date.get(5..10) != Some(&format!("{}-{}", &last[..2], &last[2..])) {
            other.push((m.slug.as_str(), date));
        }
    }
    assert!(named > 20, "{named} snapshots named by month and day");
    assert!(other.is_empty(), "{other:?}");
    assert_eq!(
        model(&s, "deepseek-v4-pro-0813").release_date.as_deref(),
        Some("2026-08-13")
    );
    assert_eq!(
        model(&s, "grok-4.20-beta-0309-reasoning")
            .release_date
            .as_deref(),
        Some("2026-03-09")
    );
}

/// A sized checkpoint of a publisher with no API of its own is published weights: no listed
/// model so made is of unknown openness (docs/data.md, "Open weights").
#[test]
fn a_sized_checkpoint_of_a_publisher_without_an_api_is_open() {
    let s = bundled();
    let tables = ingest::prices::Tables::shared();
    let published: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .filter(|m| ingest::catalog::names_a_size(&m.slug))
        .filter(|m| {
            m.creator_slug.as_deref().is_some_and(|c| {
                tables
                    .creators
                    .get(c)
                    .is_none_or(|row| row.first_party.is_empty())
            })
        })
        .collect();
    assert!(
        published.len() > 100,
        "{} such checkpoints",
        published.len()
    );
    let unknown: Vec<&str> = published
        .iter()
        .filter(|m| m.open_source.is_none())
        .map(|m| m.slug.as_str())
        .collect();
    assert!(unknown.is_empty(), "{unknown:?}");
    assert_eq!(model(&s, "skyfall-31b-v4.2").open_source, Some(true));
}

/// The bundled catalogue's model for a raw id: the model of that slug, else the alias's.
/// Every alias of the bundled catalogue, to its model's slug.
fn alias_index(s: &Snapshot) -> BTreeMap<&str, &str> {
    s.aliases
        .iter()
        .map(|a| (a.alias.as_str(), a.model_slug.as_str()))
        .collect()
}

fn resolve<'a>(s: &'a Snapshot, aliases: &BTreeMap<&'a str, &'a str>, id: &str) -> Option<&'a str> {
    let slug = names::parse(id).slug;
    s.models
        .iter()
        .find(|m| m.slug == slug)
        .map(|m| m.slug.as_str())
        .or_else(|| aliases.get(slug.as_str()).copied())
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_models_own_metadata_decides_open_weights_unless_its_family_is_open() {
    let s = bundled();
    let aliases = alias_index(&s);
    let path = raw_sources().join("models-dev/models_dev_toml_bundle.json");
    let data: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let (mut open, mut closed) = (0, 0);
    for (path, file) in data["files"].as_object().unwrap() {
        // The provider-agnostic `models/<org>/<id>.toml`: the model's own metadata.
        let Some(id) = path
            .strip_prefix("models/")
            .and_then(|p| p.strip_suffix(".toml"))
            .and_then(|p| p.split_once('/'))
            .map(|(_, id)| id)
        else {
            continue;
        };
        // A floating alias's file (`mistral-medium-latest`) describes whichever model is
        // newest when it was written, not the model it names now.
        if id.ends_with("-latest") {
            continue;
        }
        let Some(slug) = resolve(&s, &aliases, id) else {
            continue;
        };
        let m = model(&s, slug);
        if file["open_weights"] == true {
            open += 1;
            assert_eq!(
                m.open_source,
                Some(true),
                "{path} says open weights: {slug}"
            );
        } else if file["open_weights"] == false && !ingest::catalog::open_family(slug) {
            closed += 1;
            assert_eq!(m.open_source, Some(false), "{path} says closed: {slug}");
        }
    }
    assert!(
        open > 30 && closed > 30,
        "{open} open and {closed} closed own files"
    );
    // Where only floating ids' files speak, the floating alias's own file still comes before
    // its APIs' (Magistral Medium's `models/mistral/magistral-medium-latest.toml` says
    // `false`, Mistral's API file for that id `true`).
    let files = data["files"].as_object().unwrap();
    let id_of = |path: &str| {
        path.rsplit_once('/')
            .and_then(|(_, f)| f.strip_suffix(".toml"))
            .map(str::to_string)
    };
    let said_open: BTreeSet<&str> = files
        .iter()
        .filter(|(p, f)| f["open_weights"] == true && !p.ends_with("-latest.toml"))
        .filter_map(|(p, _)| resolve(&s, &aliases, &id_of(p)?))
        .collect();
    let mut floating = Vec::new();
    for (path, file) in files {
        let own_floating = path.starts_with("models/") && path.ends_with("-latest.toml");
        if !own_floating || file["open_weights"] != false {
            continue;
        }
        let Some(slug) = id_of(path).and_then(|id| resolve(&s, &aliases, &id)) else {
            continue;
        };
        if said_open.contains(slug) || ingest::catalog::open_family(slug) {
            continue;
        }
        floating.push(slug);
        assert_ne!(
            model(&s, slug).open_source,
            Some(true),
            "{path} says closed: {slug}"
        );
    }
    assert!(floating.contains(&"magistral-medium-2506"), "{floating:?}");
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn every_deprecation_date_of_the_creator_is_the_models() {
    let s = bundled();
    let aliases = alias_index(&s);
    let path = raw_sources().join("litellm/model_prices_and_context_window.json");
    let data: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut checked = 0;
    for (key, e) in data.as_object().unwrap() {
        // OpenAI's and Anthropic's own entries (no route prefix).
        let (Some(provider), Some(date)) = (
            e["litellm_provider"].as_str(),
            e["deprecation_date"].as_str(),
        ) else {
            continue;
        };
        if !matches!(provider, "openai" | "anthropic") || key.contains('/') {
            continue;
        }
        let Some(slug) = resolve(&s, &aliases, key) else {
            continue;
        };
        let m = model(&s, slug);
        if m.creator_slug.as_deref() != Some(provider) {
            continue;
        }
        checked += 1;
        assert!(
            m.deprecation_date.as_deref().is_some_and(|d| d >= date),
            "{key} is deprecated on {date}; {slug} says {:?}",
            m.deprecation_date
        );
        assert_eq!(
            m.retired,
            m.deprecation_date.as_deref() <= Some(&*s.built_at),
            "{slug}"
        );
    }
    assert!(checked > 50, "{checked} dated entries checked");
    for slug in ["o3-2025-04-16", "gpt-5-2025-08-07"] {
        assert_eq!(
            model(&s, slug).deprecation_date.as_deref(),
            Some("2026-12-11"),
            "{slug}"
        );
    }
}

#[test]
fn hosts_are_never_creators_and_labs_sell_first_party() {
    let s = bundled();
    let tables = mds::ingest::prices::Tables::shared();
    // A router's own product is the exception (docs/data.md, "Creators"): a router product,
    // or an id the router lists under its own name (OpenRouter's `openrouter/bodybuilder`).
    let own_product = |m: &entity::model::Model, c: &str| {
        m.task == entity::vocab::Task::Router
            || s.offerings
                .iter()
                .filter(|o| o.model_slug == m.slug)
                .all(|o| o.provider_model_id.starts_with(&format!("{c}/")))
    };
    let hosts: Vec<(&str, &str)> = s
        .models
        .iter()
        .filter_map(|m| Some((m, m.creator_slug.as_deref()?)))
        .filter(|(m, c)| !own_product(m, c))
        .map(|(m, c)| (m.slug.as_str(), c))
        .filter(|(_, c)| {
            !tables.creators.contains_key(*c)
                && matches!(
                    tables.provider_kind(c).as_str(),
                    "cloud" | "plan" | "router"
                )
        })
        .collect();
    assert!(hosts.is_empty(), "models credited to a host: {hosts:?}");
    // Azure sells FLUX.2 Pro; Black Forest Labs made it.
    assert_eq!(
        model(&s, "flux.2-pro").creator_slug.as_deref(),
        Some("black-forest-labs")
    );
    // Every lab's own API is its first party: Meta's `meta` API sells Muse.
    let muse = offering(&s, "muse-spark-1.1", "meta").unwrap();
    assert_eq!(muse.kind.as_str(), "first_party");
    assert_eq!(
        model(&s, "muse-spark-1.1").price_basis.map(|b| b.as_str()),
        Some("first_party")
    );
}

#[test]
fn every_reference_of_the_bundled_snapshot_resolves() {
    let s = bundled();
    assert!(!s.offerings.is_empty() && !s.scores.is_empty());
    assert_eq!(s.dangling(), Vec::<String>::new());
    let providers: BTreeSet<&str> = s.providers.iter().map(|p| p.slug.as_str()).collect();
    assert!(
        providers.contains("volcengine"),
        "LiteLLM's Volcengine offerings' provider"
    );
    // The witnesses of a price name the source they come from.
    for o in &s.offerings {
        for w in Witness::decode(o.sources.as_deref()) {
            assert!(s.sources.iter().any(|x| x.slug == w.source), "{}", w.source);
        }
    }
}

#[test]
fn video_generators_make_video_and_no_text() {
    let s = bundled();
    let video: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| m.task.as_str() == "video_generation")
        .collect();
    assert!(video.len() > 20, "{} video generators", video.len());
    let wrong: Vec<String> = video
        .iter()
        .filter(|m| {
            let out: BTreeSet<&str> = m.output_modalities.split(',').collect();
            !out.contains("video") || (m.category.as_str() == "llm" && out.contains("text"))
        })
        .map(|m| {
            format!(
                "{} ({}→{})",
                m.slug, m.input_modalities, m.output_modalities
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "video generators that say otherwise: {wrong:?}"
    );
    // Wan 2.7's image-to-video model takes images (LiteLLM's `supported_modalities`).
    let wan = model(&s, "wan2.7-i2v");
    assert!(
        wan.input_modalities.split(',').any(|m| m == "image"),
        "{wan:?}"
    );
}

#[test]
fn an_id_named_for_thinking_reasons() {
    let s = bundled();
    let thinking: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| ingest::catalog::names_reasoning(&m.slug))
        .collect();
    assert!(
        thinking.len() > 50,
        "{} models named for thinking",
        thinking.len()
    );
    let unsaid: Vec<&str> = thinking
        .iter()
        .filter(|m| m.reasoning != Some(true))
        .map(|m| m.slug.as_str())
        .collect();
    assert!(
        unsaid.is_empty(),
        "named for thinking, not reasoning: {unsaid:?}"
    );
    assert!(!ingest::catalog::names_reasoning(
        "grok-4-fast-non-reasoning"
    ));
    assert_eq!(model(&s, "k2-think").reasoning, Some(true));
    // A line the reviewed table says reasons (data/reasoning_lines.csv).
    let lined: Vec<&str> = s
        .models
        .iter()
        .filter(|m| ingest::catalog::reasoning_line(&m.slug) && m.reasoning != Some(true))
        .map(|m| m.slug.as_str())
        .collect();
    assert!(
        lined.is_empty(),
        "of a reasoning line, not reasoning: {lined:?}"
    );
    for slug in ["glm-z1-32b-0414", "ernie-x1.1-preview", "qwq-32b-preview"] {
        assert!(ingest::catalog::reasoning_line(slug), "{slug}");
        assert_eq!(model(&s, slug).reasoning, Some(true), "{slug}");
    }
    assert!(!ingest::catalog::reasoning_line("deepseek-r1t-chimera"));
    assert!(!ingest::catalog::reasoning_line("qwq2"));
}

#[test]
fn an_id_named_for_seeing_takes_images() {
    let s = bundled();
    let seeing: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| ingest::catalog::names_vision(&m.slug))
        .collect();
    assert!(
        seeing.len() > 50,
        "{} models named for vision",
        seeing.len()
    );
    let blind: Vec<&str> = seeing
        .iter()
        .filter(|m| !m.input_modalities.split(',').any(|i| i == "image"))
        .map(|m| m.slug.as_str())
        .collect();
    assert!(
        blind.is_empty(),
        "named for vision, take no images: {blind:?}"
    );
    // genai-prices' GPT-4 Vision entry states no modalities at all.
    let v = model(&s, "gpt-4-1106-vision-preview");
    assert_eq!(v.input_modalities, "image,text");
    // A price per video token in says the model takes video; an OCR model reads images.
    assert!(
        model(&s, "gemini-embedding-2-preview")
            .input_modalities
            .contains("video")
    );
    assert!(
        model(&s, "mistral-ocr-2512")
            .input_modalities
            .contains("image")
    );
    // Tencent Cloud's TokenHub entries are read (`data/litellm_providers.csv`): they alone
    // state GLM-5.3-FlashX's abilities.
    let flashx = model(&s, "glm-5.3-flashx");
    assert!(flashx.input_modalities.contains("image"), "{flashx:?}");
    assert_eq!(flashx.reasoning, Some(true));
    // InternVL ("Intern Vision-Language") is named so inside a word.
    assert!(ingest::catalog::names_vision("internvl3-14b"));
    assert!(!ingest::catalog::names_vision("vlis"));
}

#[test]
fn disputes_name_real_disagreements_only() {
    let s = bundled();
    let mut disputed = 0;
    for m in &s.models {
        for d in entity::model::Dispute::decode(m.disputes.as_deref()) {
            disputed += 1;
            let values: BTreeSet<&str> = d.values.iter().map(|v| v.value.as_str()).collect();
            assert!(values.len() >= 2, "{}: {d:?}", m.slug);
            // A month agrees with each of its days: two of the dates disagree by day.
            if d.field == "release_date" {
                let apart = values.iter().any(|a| {
                    values
                        .iter()
                        .any(|b| !a.starts_with(b) && !b.starts_with(a))
                });
                assert!(apart, "{}: {d:?}", m.slug);
            }
        }
    }
    assert!(disputed > 100, "{disputed} disputes");
    // MiniMax-M3: its own file's 512,000 is disputed by its API's 1,000,000, which is served.
    let m3 = model(&s, "minimax-m3");
    assert_eq!(m3.context_window, Some(1_000_000));
    let d = entity::model::Dispute::decode(m3.disputes.as_deref());
    let ctx = d.iter().find(|d| d.field == "context_window").unwrap();
    assert!(ctx.values.iter().any(|v| v.value == "512000"), "{ctx:?}");
}

/// LiteLLM's entries by the bundled model each names (through the catalogue's aliases).
fn litellm_by_model(s: &Snapshot) -> BTreeMap<String, Vec<(String, serde_json::Value)>> {
    let aliases = alias_index(s);
    let path = raw_sources().join("litellm/model_prices_and_context_window.json");
    let data: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut out: BTreeMap<String, Vec<(String, serde_json::Value)>> = BTreeMap::new();
    for (key, e) in data.as_object().unwrap() {
        if let Some(slug) = resolve(s, &aliases, key) {
            out.entry(slug.to_string())
                .or_default()
                .push((key.clone(), e.clone()));
        }
    }
    out
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn no_model_litellm_knows_only_as_an_embedding_is_a_chat_model() {
    let s = bundled();
    let by_model = litellm_by_model(&s);
    let mut checked = 0;
    for (slug, entries) in &by_model {
        if !entries.iter().all(|(_, e)| e["mode"] == "embedding") {
            continue;
        }
        checked += 1;
        let m = model(&s, slug);
        assert_ne!(
            m.task.as_str(),
            "chat",
            "{slug}: every LiteLLM entry says embedding"
        );
    }
    assert!(checked > 30, "{checked} embedding models");
    // Nor is a judge every entry of which is an `evaluation` (docs/data.md, "A task is what
    // the model does with what it takes").
    let judges: Vec<(&String, &str)> = by_model
        .iter()
        .filter(|(_, entries)| entries.iter().all(|(_, e)| e["mode"] == "evaluation"))
        .map(|(slug, _)| (slug, model(&s, slug).task.as_str()))
        .collect();
    assert!(!judges.is_empty(), "no evaluation model joined");
    let chatting: Vec<&(&String, &str)> = judges.iter().filter(|(_, t)| *t == "chat").collect();
    assert!(chatting.is_empty(), "{chatting:?}");
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_context_window_the_creator_s_apis_agree_on_is_the_models() {
    use mds::ingest::catalog::canonical_provider;
    use mds::ingest::sources::models_dev;
    let s = bundled();
    let raw = raw_sources();
    let read = |p: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(raw.join(p)).unwrap()).unwrap()
    };
    let md = read("models-dev/models_dev_toml_bundle.json");
    let files = models_dev::files(&md);
    let genai = read("genai-prices/prices/new_data/v2/data.json");
    let litellm = read("litellm/model_prices_and_context_window.json");
    let litellm_providers: BTreeMap<&str, &str> = include_str!("../../data/litellm_providers.csv")
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(','))
        .map(|(a, b)| (a.trim(), b.trim()))
        .collect();
    // Every context window a source states at the model's first-party offerings, found in
    // the raw files by the ids the offering's witnesses name.
    let mut stated: BTreeMap<&str, Vec<(String, i64)>> = BTreeMap::new();
    for o in s
        .offerings
        .iter()
        .filter(|o| o.kind.as_str() == "first_party")
    {
        for w in Witness::decode(o.sources.as_deref()) {
            let id = w.provider_model_id.as_str();
            let found: Vec<i64> = match w.source.as_str() {
                "models-dev" => files
                    .iter()
                    .filter(|(path, _)| {
                        path.strip_prefix("providers/")
                            .and_then(|p| p.split_once("/models/"))
                            .is_some_and(|(dir, rest)| {
                                canonical_provider(dir) == o.provider_slug
                                    && rest == format!("{id}.toml")
                            })
                    })
                    .filter_map(|(_, f)| {
                        let merged = match f["base_model"].as_str() {
                            Some(base) => models_dev::inherit(
                                files.get(format!("models/{base}.toml").as_str())?,
                                f,
                            ),
                            None => (*f).clone(),
                        };
                        merged["limit"]["context"].as_i64()
                    })
                    .collect(),
                "genai-prices" => genai
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|p| {
                        canonical_provider(p["id"].as_str().unwrap_or("")) == o.provider_slug
                    })
                    .flat_map(|p| p["models"].as_array().unwrap().iter())
                    .filter(|m| m["id"] == id)
                    .filter_map(|m| m["context_window"].as_i64())
                    .collect(),
                "litellm" => litellm
                    .as_object()
                    .unwrap()
                    .iter()
                    .filter(|(k, e)| {
                        (k.as_str() == id || k.ends_with(&format!("/{id}")))
                            && e["litellm_provider"]
                                .as_str()
                                .and_then(|p| litellm_providers.get(p))
                                == Some(&o.provider_slug.as_str())
                    })
                    .filter_map(|(_, e)| e["max_input_tokens"].as_i64())
                    .collect(),
                _ => Vec::new(),
            };
            for n in found.into_iter().filter(|n| *n > 0) {
                stated
                    .entry(o.model_slug.as_str())
                    .or_default()
                    .push((w.source.clone(), n));
            }
        }
    }
    let mut checked = 0;
    for (slug, said) in &stated {
        let values: BTreeSet<i64> = said.iter().map(|(_, n)| *n).collect();
        let sources: BTreeSet<&str> = said.iter().map(|(s, _)| s.as_str()).collect();
        if values.len() != 1 || sources.len() < 2 {
            continue;
        }
        checked += 1;
        let agreed = values.into_iter().next();
        assert_eq!(
            model(&s, slug).context_window,
            agreed,
            "{slug}: the creator's own entries all say {agreed:?} ({said:?})"
        );
    }
    assert!(
        checked > 100,
        "{checked} models whose first-party entries agree"
    );
}

#[test]
fn no_output_limit_exceeds_the_context_window() {
    let s = bundled();
    let both: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| m.context_window.is_some() && m.max_output_tokens.is_some())
        .collect();
    assert!(both.len() > 500, "{} models with both limits", both.len());
    let over: Vec<String> = both
        .iter()
        .filter(|m| m.max_output_tokens > m.context_window)
        .map(|m| {
            format!(
                "{} {:?}>{:?}",
                m.slug, m.max_output_tokens, m.context_window
            )
        })
        .collect();
    assert!(over.is_empty(), "output limits over the window: {over:?}");
    // A window tied three ways is the middle one: not Kilo's 2,824 tokens for Mistral 7B
    // Instruct v0.1, beside 8,192 and 32,768 (docs/data.md, "The vote").
    assert_eq!(
        model(&s, "mistral-7b-instruct-v0.1").context_window,
        Some(8_192)
    );
    // An embedding or a reranker writes no tokens: no output limit (docs/data.md).
    let encoders: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| matches!(m.task.as_str(), "embedding" | "rerank"))
        .collect();
    assert!(encoders.len() > 50, "{} encoders", encoders.len());
    let limited: Vec<&str> = encoders
        .iter()
        .filter(|m| m.max_output_tokens.is_some())
        .map(|m| m.slug.as_str())
        .collect();
    assert!(limited.is_empty(), "{limited:?}");
}

#[test]
fn a_derived_model_is_its_base_labs_only_where_the_lab_sells_it() {
    let s = bundled();
    let creator: BTreeMap<&str, Option<&str>> = s
        .models
        .iter()
        .map(|m| (m.slug.as_str(), m.creator_slug.as_deref()))
        .collect();
    let sellers: BTreeSet<(&str, &str)> = s
        .offerings
        .iter()
        .map(|o| (o.model_slug.as_str(), o.provider_slug.as_str()))
        .collect();
    let derived: Vec<&entity::model::Model> =
        s.models.iter().filter(|m| m.base_model.is_some()).collect();
    assert!(derived.len() > 20, "{} derived models", derived.len());
    let credited: Vec<&str> = derived
        .iter()
        .filter(|m| {
            let lab = m.creator_slug.as_deref();
            lab.is_some()
                && m.base_model
                    .as_deref()
                    .and_then(|b| creator.get(b).copied().flatten())
                    == lab
                && !lab.is_some_and(|l| sellers.contains(&(m.slug.as_str(), l)))
        })
        .map(|m| m.slug.as_str())
        .collect();
    assert!(
        credited.is_empty(),
        "fine-tunes credited to their base's lab: {credited:?}"
    );
    // Its own words may be a code (`k1`), a letter and a number no id of the lab uses.
    for slug in [
        "gemma-4-31b-gemopus",
        "gemma-4-31b-k1-v5",
        "qwen3.5-27b-writer-derestricted",
    ] {
        let m = model(&s, slug);
        assert_eq!(m.creator_slug, None, "{slug}");
        assert_ne!(m.open_source, Some(true), "{slug}");
        assert!(m.base_model.is_some(), "{slug}");
    }
}

#[test]
fn floating_aliases_without_a_version_are_not_models() {
    let s = bundled();
    let floating: Vec<&str> = s
        .models
        .iter()
        .filter(|m| !m.slug.bytes().any(|b| b.is_ascii_digit()))
        .filter(|m| m.name.to_ascii_lowercase().contains("latest"))
        .map(|m| m.slug.as_str())
        .collect();
    assert!(
        floating.is_empty(),
        "floating aliases listed as models: {floating:?}"
    );
    assert!(s.models.iter().all(|m| m.slug != "claude-haiku"));
}

/// An id without a version whose sellers' entries name one versioned model (genai-prices'
/// `deepseek-flash`, "DeepSeek V4.1 Flash") serves that model: it is that model's alias,
/// never a model of its own (docs/methodology.md, "Identity").
#[test]
fn an_unversioned_id_named_for_a_version_is_that_version() {
    let s = bundled();
    let aliases = alias_index(&s);
    let digit = |k: &str| k.bytes().any(|b| b.is_ascii_digit());
    let apart: Vec<String> = s
        .models
        .iter()
        .filter(|m| !digit(&m.slug))
        .filter_map(|m| {
            let spelt = names::parse(&names::slugify(&m.name)).key;
            let into = resolve(&s, &aliases, &spelt)?;
            (digit(&spelt)
                && into != m.slug
                && m.slug.split('-').all(|w| spelt.split('-').any(|n| n == w)))
            .then(|| format!("{} (\"{}\") beside {into}", m.slug, m.name))
        })
        .collect();
    assert!(apart.is_empty(), "{apart:#?}");
    assert_eq!(
        resolve(&s, &aliases, "deepseek-flash"),
        Some("deepseek-v4.1-flash-1017")
    );
    let first_party = offering(&s, "deepseek-v4.1-flash-1017", "deepseek").unwrap();
    assert_eq!(first_party.provider_model_id, "deepseek-flash");
    assert_eq!(
        (first_party.input_price, first_party.output_price),
        (Some(0.3), Some(1.2))
    );
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_models_dev_base_model_is_the_model_its_entry_resolves_to() {
    let s = bundled();
    let aliases = alias_index(&s);
    let path = raw_sources().join("models-dev/models_dev_toml_bundle.json");
    let data: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let files = data["files"].as_object().unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (path, file) in files {
        let Some(base) = file["base_model"].as_str() else {
            continue;
        };
        let Some(id) = path
            .strip_prefix("providers/")
            .and_then(|p| p.split_once("/models/"))
            .and_then(|(_, id)| id.strip_suffix(".toml"))
        else {
            continue;
        };
        if !files.contains_key(&format!("models/{base}.toml")) {
            continue;
        }
        let base_id = base.split_once('/').map_or(base, |(_, id)| id);
        let (Some(of_entry), Some(of_base)) =
            (resolve(&s, &aliases, id), resolve(&s, &aliases, base_id))
        else {
            continue;
        };
        checked += 1;
        if of_entry != of_base {
            wrong.push(format!("{path}: {of_entry} is not {of_base}"));
        }
    }
    assert!(checked > 500, "{checked} entries with a base model checked");
    // The rule's exceptions (docs/methodology.md): a model with a file of its own stays
    // itself whatever one host's entry says, as do snapshots of other dates and a group most
    // of whose entries name no base — about one entry in fifty.
    assert!(
        wrong.len() * 50 <= checked,
        "{} of {checked}: {wrong:?}",
        wrong.len()
    );
}

#[test]
fn hosts_spellings_of_a_labs_model_are_that_model() {
    let s = bundled();
    let aliases = alias_index(&s);
    // (a host's spelling, the model it is): a Poe bot marked with its host's initials, a
    // reordered id, a dated id without `instruct`, a short spelling its entry's
    // `base_model` names, and the undated id of an older checkpoint whose window is not the
    // newest's (docs/methodology.md, "Identity").
    for (spelling, model) in [
        ("llama-3.3-70b-cs", "llama-3.3-70b-instruct"),
        ("deepseek-v4-pro-el", "deepseek-v4-pro-0813"),
        // (xAI's undated id, and so Vercel's spelling of it, is the 0309 snapshot's.)
        ("grok-4.20-reasoning-beta", "grok-4.20-beta-0309-reasoning"),
        ("kimi-k2-0905", "kimi-k2-instruct-0905"),
        ("nemotron-3-ultra-550b", "nemotron-3-ultra-550b-a55b"),
        ("kimi-k2-instruct", "kimi-k2-instruct-0711"),
        // A region's route, a vendor's dash prefix, two orders of a community model's words.
        ("glm-5.3-flash-us", "glm-5.3-flash"),
        ("moonshot-kimi-k2-instruct", "kimi-k2-instruct-0711"),
        ("llama-2-chat-13b", "llama-2-13b-chat"),
        // A dated snapshot spelt without its size; an undated name without its size and
        // `instruct`.
        ("voxtral-small-2507", "voxtral-small-24b-2507"),
        ("qwen3-coder-480b", "qwen3-coder-480b-a35b-instruct"),
        ("qwen3.5-397b", "qwen3.5-397b-a17b"),
        // A local runner's quantised builds (GGUF, MLX), Hugging Face's weights format.
        ("qwen3-5-9b-q4-k-m", "qwen3.5-9b"),
        ("qwen3-5-9b-mlx-4bit", "qwen3.5-9b"),
        ("llama-2-7b-chat-hf", "llama-2-7b-chat"),
        // Queues, servings and labels of one host (NanoGPT, Doubleword, Groq).
        ("deepseek-v4-pro-cheaper", "deepseek-v4-pro-0813"),
        ("qwen3.5-35b-a3b-fp8-dottxt", "qwen3.5-35b-a3b"),
        ("llama-3.3-70b-versatile", "llama-3.3-70b-instruct"),
        // A creator prefix; a host's dated id with `instruct` written in; a size no other
        // listing writes.
        ("ai21-jamba-1.5-large", "jamba-1.5-large"),
        ("ministral-14b-instruct-2512", "ministral-14b-2512"),
        ("mistral-saba-24b", "mistral-saba-2502"),
        // A size after the name's words in another order (Fireworks'); a size before
        // `instruct` (Inference's).
        ("nemotron-lightning-3.5-30b-a3b", "nemotron-3.5-lightning"),
        ("mistral-nemo-12b-instruct", "open-mistral-nemo-2407"),
    ] {
        assert!(
            s.models.iter().all(|m| m.slug != spelling),
            "{spelling} is listed as a model of its own"
        );
        assert_eq!(resolve(&s, &aliases, spelling), Some(model), "{spelling}");
    }
    // The 0711 checkpoint's hosts stay with it, never with the 0905 one.
    let at = |m: &str| {
        s.offerings
            .iter()
            .filter(|o| o.model_slug == m)
            .map(|o| o.provider_model_id.to_ascii_lowercase())
            .collect::<Vec<_>>()
    };
    assert!(at("kimi-k2-instruct-0711").contains(&"moonshotai/kimi-k2-instruct".to_string()));
    assert!(
        at("kimi-k2-instruct-0905")
            .iter()
            .all(|id| id.contains("0905"))
    );
    // A short name two of the creator's models fit stays its own: the thinking model is
    // never folded into the instruct one, nor the reverse.
    assert_eq!(
        resolve(&s, &aliases, "qwen3-vl-235b-a22b-thinking"),
        Some("qwen3-vl-235b-a22b-thinking")
    );
}

#[test]
fn a_deprecation_is_its_creators_word() {
    let s = bundled();
    // An announced date, and a passed one, deprecate the model.
    for m in &s.models {
        if m.deprecation_date.is_some() || m.retired {
            assert!(m.deprecated, "{} has a deprecation date", m.slug);
        }
    }
    let undated: Vec<&str> = s
        .models
        .iter()
        .filter(|m| m.deprecated && m.deprecation_date.is_none())
        .map(|m| m.slug.as_str())
        .collect();
    assert!(undated.len() > 20, "{undated:?}");
    // The creator's own entries: Anthropic's models.dev file for Claude 3 Opus, Moonshot's
    // genai-prices entry for Kimi K2.5. A host's (Avian's `moonshotai/kimi-k2.6`) is the
    // host's business (docs/data.md, "Lifecycle").
    for slug in ["claude-3-opus-20240229", "kimi-k2.5"] {
        assert!(model(&s, slug).deprecated, "{slug}");
    }
    assert!(!model(&s, "kimi-k2.6").deprecated);
}

#[test]
fn no_token_price_is_a_price_per_thousand_tokens() {
    let s = bundled();
    let bound = mds::ingest::validate::MAX_TOKEN_PRICE;
    let over: Vec<(&str, &str)> = s
        .offerings
        .iter()
        .filter(|o| {
            [
                o.input_price,
                o.output_price,
                o.cache_read_price,
                o.cache_write_price,
            ]
            .iter()
            .flatten()
            .any(|p| *p > bound)
        })
        .map(|o| (o.model_slug.as_str(), o.provider_slug.as_str()))
        .collect();
    assert!(over.is_empty(), "{over:?}");
    // The dearest real list price stays: o1-pro's $600 output.
    assert!(s.offerings.iter().any(|o| o.output_price == Some(600.0)));
    // An embedding over $10 per million input tokens is a per-thousand price
    // (docs/data.md, "Units"); Titan Multimodal Embeddings' $0.80 stays.
    let embeddings: std::collections::BTreeSet<&str> = s
        .models
        .iter()
        .filter(|m| m.task.as_str() == "embedding")
        .map(|m| m.slug.as_str())
        .collect();
    let dear: Vec<(&str, f64)> = s
        .offerings
        .iter()
        .filter(|o| embeddings.contains(o.model_slug.as_str()))
        .filter_map(|o| Some((o.model_slug.as_str(), o.input_price?)))
        .filter(|(_, p)| *p > mds::ingest::validate::MAX_EMBEDDING_PRICE)
        .collect();
    assert!(dear.is_empty(), "{dear:?}");
    assert!(
        s.offerings
            .iter()
            .any(|o| embeddings.contains(o.model_slug.as_str()) && o.input_price == Some(0.8))
    );
}

/// Facts of the bundled data the rankings rest on (the behaviour of the rankings is
/// `rankings.rs`'s): today's measured leaders lead the score and the capability index.
#[test]
fn todays_leaders_lead() {
    let s = bundled();
    let listed: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| {
            m.listed_by_default() && m.rank_basis.is_some_and(|b| b.as_str() != "self_reported")
        })
        .collect();
    let top = |key: &dyn Fn(&entity::model::Model) -> Option<f64>, n: usize| {
        let mut ranked: Vec<(f64, &str)> = listed
            .iter()
            .filter_map(|m| Some((key(m)?, m.slug.as_str())))
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        ranked
            .into_iter()
            .take(n)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
    };
    let by_score = top(&|m| m.rank_score, 5);
    for expected in ["gpt-5.5", "claude-opus-4-7", "gpt-5.4"] {
        assert!(
            by_score.contains(&expected),
            "{expected} not in {by_score:?}"
        );
    }
    let by_index = top(
        &|m| Some(m.capability_index? - m.capability_index_se.unwrap_or(0.0)),
        30,
    );
    for expected in ["gpt-5.5", "claude-opus-4-7", "claude-opus-4-6"] {
        assert!(
            by_index.contains(&expected),
            "{expected} not in {by_index:?}"
        );
    }
}

/// Every figure of Epoch's capabilities index is served once, exactly as published, as a
/// score of its own leaderboard, with the run's reasoning effort or thinking budget as its
/// configuration (docs/sources.md); none counts in averages.
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn every_capabilities_index_figure_is_served_as_published() {
    let s = bundled();
    let path = raw_sources().join("epoch/data/website/epoch_capabilities_index.csv");
    let mut published: Vec<(String, Option<String>)> = Vec::new();
    for row in csv::Reader::from_path(path).unwrap().deserialize() {
        let row: BTreeMap<String, String> = row.unwrap();
        let name = |k: &str| row.get(k).or_else(|| row.get(&format!("\u{feff}{k}")));
        let Some(score) = name("ECI Score").filter(|v| !v.trim().is_empty()) else {
            continue;
        };
        let version = name("Model version").unwrap();
        let config = version.rsplit_once('_').and_then(|(_, tail)| {
            let tail = tail.to_lowercase();
            if ["high", "medium", "low"].contains(&tail.as_str()) {
                Some(format!("effort={tail}"))
            } else if tail.ends_with('k') {
                Some(format!("thinking-{tail}"))
            } else {
                None // `phi-1_5`: a version number
            }
        });
        published.push((score.trim().parse::<f64>().unwrap().to_string(), config));
    }
    let mut served: Vec<(String, Option<String>)> = s
        .scores
        .iter()
        .filter(|x| x.benchmark_slug == "epoch-capabilities-index")
        .inspect(|x| assert!(!x.in_average, "{x:?}"))
        .map(|x| (x.score.to_string(), x.config.clone()))
        .collect();
    assert!(published.len() > 100, "{}", published.len());
    published.sort();
    served.sort();
    assert_eq!(served, published);
}

/// A preview's general release is one sold somewhere other than as a Poe bot, whose names
/// are their authors' (docs/methodology.md): GPT-4o Search Preview has no release named
/// after Poe's `openai/gpt-4o-search`.
#[test]
fn a_preview_is_superseded_only_by_a_release_sold_as_such() {
    let s = bundled();
    let mut checked = 0;
    for m in &s.models {
        let Some(ga) = &m.superseded_by else {
            continue;
        };
        checked += 1;
        assert!(
            s.offerings
                .iter()
                .any(|o| &o.model_slug == ga && o.provider_slug != "poe"),
            "{} is superseded by {ga}, sold only as a Poe bot",
            m.slug
        );
    }
    assert!(checked > 0, "no preview is superseded");
    assert_eq!(model(&s, "gpt-4o-search-preview").superseded_by, None);
    // A release named by an alias of its snapshot (`qwen3-max` is `qwen3-max-2026-01-23`),
    // unless that snapshot came out before the preview.
    assert_eq!(
        model(&s, "qwen3-max-preview").superseded_by.as_deref(),
        Some("qwen3-max-2026-01-23")
    );
    assert_eq!(model(&s, "gemini-1.5-flash-exp-0827").superseded_by, None);
}

/// The vendor an id names outweighs a creator's name prefix: Deepgram's `nova-3`
/// (`@cf/deepgram/nova-3`) is not one of Amazon's Nova models.
#[test]
fn the_vendor_an_id_names_is_the_creator() {
    let s = bundled();
    let nova = model(&s, "nova-3");
    assert_eq!(nova.creator_slug.as_deref(), Some("deepgram"));
    assert_eq!(
        model(&s, "nova-pro").creator_slug.as_deref(),
        Some("amazon")
    );
    // A publisher of the creators table over the lab the name starts with: OpenPipe's
    // `OpenPipe/Qwen3-14B-Instruct`, Salesforce's `Salesforce/Llama-xLAM-2-70b-fc-r`.
    for (slug, publisher) in [
        ("qwen3-14b-instruct", "openpipe"),
        ("llama-xlam-2-70b-fc-r", "salesforce"),
    ] {
        assert_eq!(model(&s, slug).creator_slug.as_deref(), Some(publisher));
    }
}

/// A router's free route (`:free`) never hides the price to pay: where another source
/// prices the provider's paid id, the offering is that id at that price (Nex-N2-Pro at
/// OpenRouter is 0.25/1.0, not the free route's unknown price; docs/data.md).
#[test]
fn a_free_route_never_hides_the_paid_price() {
    let s = bundled();
    let mut free_routes = 0;
    for o in s
        .offerings
        .iter()
        .filter(|o| o.provider_model_id.ends_with(":free"))
    {
        free_routes += 1;
        let paid = Witness::decode(o.sources.as_deref())
            .into_iter()
            .find(|w| !w.provider_model_id.ends_with(":free") && w.input_price.is_some());
        assert!(
            paid.is_none(),
            "{} at {} serves {} while {paid:?} prices the paid id",
            o.model_slug,
            o.provider_slug,
            o.provider_model_id
        );
    }
    assert!(free_routes > 0, "no free route is served");
    let nex = offering(&s, "nex-n2-pro", "openrouter").unwrap();
    assert_eq!((nex.input_price, nex.output_price), (Some(0.25), Some(1.0)));
}

/// A name of an open family that says it is a community derivative (`-abliterated`,
/// `-uncensored`) is never credited to the lab its name starts with: to the publisher its id names, else to no one
/// (docs/methodology.md, "Creators").
#[test]
fn no_derivative_is_credited_to_its_base_lab() {
    use mds::ingest::{identities, names};
    let s = bundled();
    let derivatives: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| {
            identities::says_derivative(&m.slug.replace('.', "-"))
                && mds::ingest::catalog::open_family(&m.slug)
        })
        .collect();
    assert!(derivatives.len() >= 10, "{} derivatives", derivatives.len());
    let credited: Vec<(&str, &str)> = derivatives
        .iter()
        .filter_map(|m| {
            let lab = names::creator_for(None, &m.slug.replace('.', "-"))?;
            (m.creator_slug.as_deref() == Some(lab)).then_some((m.slug.as_str(), lab))
        })
        .collect();
    assert!(credited.is_empty(), "{credited:?}");
    // Credited to no one, each names what it derives from, the tuned checkpoint where its
    // name leaves the word out.
    let baseless: Vec<&str> = derivatives
        .iter()
        .filter(|m| m.creator_slug.is_none() && m.base_model.is_none())
        .map(|m| m.slug.as_str())
        .collect();
    assert!(
        baseless.is_empty(),
        "derivatives naming no base: {baseless:?}"
    );
    assert_eq!(
        model(&s, "gemma-4-26b-a4b-uncensored")
            .base_model
            .as_deref(),
        Some("gemma-4-26b-a4b-it")
    );
    // A fine-tune's own word with its version glued on (`garnetv2`) is still its own.
    let garnet = model(&s, "gemma-4-31b-garnetv2");
    assert_eq!(garnet.creator_slug, None);
    assert_eq!(garnet.base_model.as_deref(), Some("gemma-4-31b-it"));
}

/// No creator is a provider's other spelling (`fireworks` beside `fireworks-ai`, `x-ai`
/// beside `xai`): an organisation is one row, whatever a router's id path calls it
/// (docs/methodology.md, "Creators").
#[test]
fn no_creator_is_a_provider_s_other_spelling() {
    let s = bundled();
    let spelt: BTreeSet<(&str, String)> = s
        .models
        .iter()
        .filter_map(|m| m.creator_slug.as_deref())
        .map(|c| (c, mds::ingest::catalog::canonical_provider(c)))
        .filter(|(c, canonical)| c != canonical)
        .collect();
    assert!(spelt.is_empty(), "{spelt:?}");
    let ember = s.models.iter().find(|m| m.slug == "ember-1").unwrap();
    assert_eq!(ember.creator_slug.as_deref(), Some("fireworks-ai"));
}

/// A provider whose models.dev files give one pair of limits to most of its models states a
/// template (Cloudflare AI Gateway: 128,000 in, 16,384 out for a 512-token embedder and
/// GPT-4o alike): no model sold only there is served that pair (docs/data.md, "Witnesses
/// and votes").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_provider_s_template_limits_are_no_model_s() {
    use mds::ingest::sources::models_dev::{TEMPLATE_MIN, TEMPLATE_SHARE};
    let bundle = crate::helpers::raw_json("models-dev/models_dev_toml_bundle.json");
    let mut pairs: BTreeMap<String, BTreeMap<(i64, i64), usize>> = BTreeMap::new();
    let mut listed: BTreeMap<String, usize> = BTreeMap::new();
    for (path, file) in bundle["files"].as_object().unwrap() {
        let mut parts = path.splitn(4, '/');
        let (Some("providers"), Some(provider), Some("models")) =
            (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let provider = ingest::catalog::canonical_provider(provider);
        *listed.entry(provider.clone()).or_default() += 1;
        let limit = &file["limit"];
        if let (Some(c), Some(o)) = (limit["context"].as_i64(), limit["output"].as_i64()) {
            *pairs
                .entry(provider)
                .or_default()
                .entry((c, o))
                .or_default() += 1;
        }
    }
    let templates: BTreeMap<&str, (i64, i64)> = pairs
        .iter()
        .filter_map(|(p, counts)| {
            let (pair, n) = counts.iter().max_by_key(|(_, n)| **n)?;
            let total = listed[p];
            (total >= TEMPLATE_MIN && *n as f64 >= TEMPLATE_SHARE * total as f64)
                .then_some((p.as_str(), *pair))
        })
        .collect();
    assert_eq!(
        templates.get("cloudflare-ai-gateway"),
        Some(&(128_000, 16_384))
    );
    let s = bundled();
    let mut sellers: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for o in &s.offerings {
        sellers
            .entry(o.model_slug.as_str())
            .or_default()
            .insert(o.provider_slug.as_str());
    }
    let templated: Vec<&str> = s
        .models
        .iter()
        .filter(|m| {
            let Some(at) = sellers.get(m.slug.as_str()) else {
                return false;
            };
            at.len() == 1
                && at.iter().all(|p| {
                    templates.get(p).is_some_and(|t| {
                        (m.context_window, m.max_output_tokens) == (Some(t.0), Some(t.1))
                    })
                })
        })
        .map(|m| m.slug.as_str())
        .collect();
    assert!(templated.is_empty(), "{templated:?}");
    let bge = s
        .models
        .iter()
        .find(|m| m.slug == "bge-small-en-v1.5")
        .unwrap();
    assert_ne!(bge.context_window, Some(128_000));
}

/// A price entry's own dated id dates its model: every listed model a genai-prices entry
/// resolves to whose exact ids write the entry's id with a full date after it has a release
/// date, and where that entry is the model's only dating witness, it is that day
/// (OpenRouter's `anthropic/claude-fable-5.1` matches `…-20260831`; docs/data.md, "A price
/// entry's own dated id is its seller's date").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_price_entry_s_own_dated_id_dates_its_model() {
    let data = crate::helpers::raw_json("genai-prices/prices/new_data/v2/data.json");
    let s = bundled();
    let aliases = alias_index(&s);
    let mut dated = 0;
    let mut undated = Vec::new();
    for provider in data.as_array().unwrap() {
        for entry in provider["models"].as_array().into_iter().flatten() {
            let id = entry["id"].as_str().unwrap().to_ascii_lowercase();
            let ors = entry["match"]["or"].as_array().cloned().unwrap_or_default();
            let days = ors
                .iter()
                .chain(std::iter::once(&entry["match"]))
                .filter_map(|r| r["equals"].as_str())
                .filter_map(|e| {
                    let day = e.to_ascii_lowercase();
                    let day = day.strip_prefix(&id)?.strip_prefix('-')?.to_string();
                    (day.len() == 8 && day.bytes().all(|b| b.is_ascii_digit())).then_some(day)
                })
                .count();
            if days == 0 {
                continue;
            }
            let Some(slug) = resolve(&s, &aliases, &id) else {
                continue;
            };
            let m = model(&s, slug);
            if m.availability.as_str() == "research" {
                continue;
            }
            dated += 1;
            if m.release_date.is_none() {
                undated.push(slug.to_string());
            }
        }
    }
    assert!(dated > 100, "{dated} models dated by an entry's own id");
    assert!(undated.is_empty(), "no release date: {undated:?}");
    assert_eq!(
        model(&s, "claude-fable-5-1").release_date.as_deref(),
        Some("2026-08-31")
    );
    // A host's later listing day yields to it.
    assert_eq!(
        model(&s, "seed-1.6-flash").release_date.as_deref(),
        Some("2025-06-25")
    );
}

/// A creator's price entry bills every id its rule names exactly: each such id that is a
/// listed model has an offering at the creator's provider (`gpt-4-0125-preview` at OpenAI,
/// `codestral-2501` at Mistral) (docs/data.md, "Ids a price entry bills").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn every_id_a_creator_s_entry_bills_is_offered_there() {
    let data = crate::helpers::raw_json("genai-prices/prices/new_data/v2/data.json");
    let s = bundled();
    let owner: BTreeMap<String, &str> = s
        .models
        .iter()
        .map(|m| (names::parse(&m.slug).key, m.slug.as_str()))
        .chain(
            s.aliases
                .iter()
                .map(|a| (names::parse(&a.alias).key, a.model_slug.as_str())),
        )
        .collect();
    let offered: BTreeSet<(&str, &str)> = s
        .offerings
        .iter()
        .map(|o| (o.model_slug.as_str(), o.provider_slug.as_str()))
        .collect();
    let creators: BTreeSet<&str> = s
        .offerings
        .iter()
        .filter(|o| o.kind.as_str() == "first_party")
        .map(|o| o.provider_slug.as_str())
        .collect();
    let mut checked = 0;
    let (mut missing, mut current) = (Vec::new(), Vec::new());
    for provider in data.as_array().unwrap() {
        let canonical = ingest::catalog::canonical_provider(provider["id"].as_str().unwrap());
        let slug = canonical.as_str();
        if !creators.contains(slug) {
            continue;
        }
        for entry in provider["models"].as_array().into_iter().flatten() {
            let ors = entry["match"]["or"].as_array().cloned().unwrap_or_default();
            for rule in ors.iter().chain(std::iter::once(&entry["match"])) {
                let Some(id) = rule["equals"].as_str() else {
                    continue;
                };
                if id.ends_with("latest") || id.starts_with("ft:") {
                    continue;
                }
                let Some(model) = owner.get(&names::parse(id).key) else {
                    continue;
                };
                // Only the creator's own models: a price entry of a creator's API for another
                // lab's model is not that lab's list.
                let m = s.models.iter().find(|m| m.slug == *model).unwrap();
                if m.creator_slug.as_deref() != Some(slug) || m.availability.as_str() == "research"
                {
                    continue;
                }
                checked += 1;
                if !offered.contains(&(*model, slug)) {
                    missing.push(format!("{id} ({model}) at {slug}"));
                }
                // An entry marked deprecated deprecates every model it bills (Moonshot's
                // `moonshot-v1-32k` entry: `moonshot-v1-32k-vision-preview`).
                if entry["deprecated"].as_bool() == Some(true) && !m.deprecated {
                    current.push(format!("{id} ({model}) at {slug}"));
                }
            }
        }
    }
    assert!(
        current.is_empty(),
        "billed by a deprecated entry: {current:?}"
    );
    assert!(model(&s, "moonshot-v1-32k-vision-preview").deprecated);
    assert!(checked >= 100, "{checked} billed ids checked");
    assert!(
        missing.len() * 50 <= checked,
        "{} of {checked}: {missing:?}",
        missing.len()
    );
    // A models.dev 0/0 alone at the creator's API is no price where the creator's own entry
    // bills the id (Mistral's `devstral-small` entry: `labs-devstral-small-2512` at 0.1/0.3).
    let devstral = offering(&s, "labs-devstral-small-2512", "mistral").unwrap();
    assert_eq!(
        (devstral.input_price, devstral.output_price),
        (Some(0.1), Some(0.3))
    );
    let placeholders: Vec<String> = s
        .offerings
        .iter()
        .filter(|o| {
            let witnesses = Witness::decode(o.sources.as_deref());
            o.kind.as_str() == "first_party"
                && o.source == "models-dev"
                && o.input_price == Some(0.0)
                && witnesses
                    .iter()
                    .any(|w| w.source == "genai-prices" && w.input_price.is_some_and(|p| p > 0.0))
        })
        .map(|o| format!("{}@{}", o.model_slug, o.provider_slug))
        .collect();
    assert!(placeholders.is_empty(), "{placeholders:?}");
}

/// No release date is a year or more before the earliest snapshot the model's own ids date
/// (its slug and aliases): that is a slip of the year (models.dev's 2024-06-26 for
/// `o3-deep-research-2025-06-26`) (docs/data.md, "Witnesses and votes").
#[test]
fn no_release_date_is_a_year_before_the_models_own_snapshots() {
    let s = bundled();
    let mut ids: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for a in &s.aliases {
        ids.entry(a.model_slug.as_str())
            .or_default()
            .push(a.alias.as_str());
    }
    // `yyyy-mm` of a snapshot date (yyyymmdd, yymm, mmyyyy); mmdd gives no year.
    let month = |id: &str| {
        let key = names::parse(id).key;
        let n = names::split_date(&key)?.1.replace('-', "");
        match n.len() {
            8 => Some(format!("{}-{}", &n[..4], &n[4..6])),
            4 if n[..2] > *"12" => Some(format!("20{}-{}", &n[..2], &n[2..])),
            6 => Some(format!("{}-{}", &n[2..], &n[..2])),
            _ => None,
        }
    };
    let slips: Vec<String> = s
        .models
        .iter()
        .filter_map(|m| {
            let released = m.release_date.as_deref()?;
            let earliest = ids
                .get(m.slug.as_str())
                .into_iter()
                .flatten()
                .copied()
                .chain([m.slug.as_str()])
                .filter_map(month)
                .min()?;
            let year: i32 = earliest[..4].parse().ok()?;
            let year_before = format!("{}{}", year - 1, &earliest[4..]);
            (released[..7] <= *year_before.as_str())
                .then(|| format!("{} released {released}, snapshot of {earliest}", m.slug))
        })
        .collect();
    assert!(slips.is_empty(), "{slips:#?}");
    assert_ne!(
        model(&s, "o3-deep-research").release_date.as_deref(),
        Some("2024-06-26")
    );
}

/// A generator that makes no text calls no tools: no listed image, video or speech model
/// says `tool_call: true` (Poe's files claim it for DALL-E 3 and Sora 2 by default; docs/data.md,
/// "Witnesses and votes").
#[test]
fn no_model_that_makes_no_text_calls_tools() {
    let s = bundled();
    let claimed: Vec<&str> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research" && m.tool_call == Some(true))
        .filter(|m| !m.output_modalities.split(',').any(|x| x == "text"))
        .map(|m| m.slug.as_str())
        .collect();
    assert!(claimed.is_empty(), "{claimed:#?}");
    assert_eq!(model(&s, "dall-e-3").tool_call, None);
}

/// A family is the model's line, not a host's label: a listed model its creator does not
/// sell has a family only where its words are words of the model's id or name, one a
/// version number may follow (`qwen` for `qwen3-…`); NanoGPT's `yi` for Tongyi
/// DeepResearch and Vercel's `o` for Cohere's rerankers are gone (docs/data.md, "Witnesses
/// and votes").
#[test]
fn a_family_is_the_models_line_not_a_hosts_label() {
    let s = bundled();
    let sold: BTreeSet<&str> = s
        .offerings
        .iter()
        .filter(|o| o.kind.as_str() == "first_party")
        .map(|o| o.model_slug.as_str())
        .collect();
    let labels: Vec<String> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research" && !sold.contains(m.slug.as_str()))
        .filter_map(|m| {
            let family = m.family.as_deref().filter(|f| *f != "auto")?;
            let said = mds::ingest::merge::family_said(family, &m.slug, &m.name);
            (!said).then(|| format!("{}: {family}", m.slug))
        })
        .collect();
    assert!(labels.is_empty(), "{labels:#?}");
    assert_eq!(model(&s, "tongyi-deepresearch-30b-a3b").family, None);
    // A host's note in a name's parentheses ("Aion 1.0 mini (DeepSeek)") is no word of it.
    assert_eq!(model(&s, "aion-1.0-mini").family, None);
    assert_eq!(model(&s, "qwen3-30b-a3b").family.as_deref(), Some("qwen"));
}

/// A model is out by the day its one dated id gives: no listed undated model whose aliases
/// date one day only is undated or dated after that day (`gpt-audio` is of its
/// `gpt-audio-2025-08-28`, not a file's 2026-01-20; docs/data.md, "Witnesses and votes").
#[test]
fn a_model_is_out_by_its_one_dated_id() {
    let s = bundled();
    let mut days: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for a in &s.aliases {
        let key = names::parse(&a.alias).key;
        if let Some((_, d)) = names::split_date(&key) {
            let d = d.replace('-', "");
            if d.len() == 8 {
                days.entry(a.model_slug.as_str())
                    .or_default()
                    .insert(format!("{}-{}-{}", &d[..4], &d[4..6], &d[6..]));
            }
        }
    }
    let late: Vec<String> = s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
        .filter(|m| names::split_date(&names::parse(&m.slug).key).is_none())
        .filter_map(|m| {
            let [day] = days.get(m.slug.as_str())?.iter().collect::<Vec<_>>()[..] else {
                return None;
            };
            let served = m.release_date.as_deref();
            served
                .is_none_or(|d| d.get(..10).is_some_and(|d| d > day.as_str()))
                .then(|| format!("{} released {served:?}, its id {day}", m.slug))
        })
        .collect();
    assert!(late.is_empty(), "{late:#?}");
    assert_eq!(
        model(&s, "gpt-audio").release_date.as_deref(),
        Some("2025-08-28")
    );
}

/// A creator's file dating a model with the day a shorter model of its line came out (the
/// same creator; its slug the first words of this one's) dates the line: where a benchmark
/// table (Epoch) dates the model four weeks or more later, no listed model keeps the line's
/// date (`phi-4-reasoning-plus` is of 2025-04-30, not Phi-4's 2024-12-11; docs/data.md,
/// "Witnesses and votes").
#[test]
fn a_lines_date_is_no_later_models_release() {
    let s = bundled();
    let dated: BTreeMap<&str, (Option<&str>, &str)> = s
        .models
        .iter()
        .filter_map(|m| {
            let d = m.release_date.as_deref().filter(|d| d.len() == 10)?;
            Some((m.slug.as_str(), (m.creator_slug.as_deref(), d)))
        })
        .collect();
    let day = |d: &str| chrono::NaiveDate::parse_from_str(d.get(..10)?, "%Y-%m-%d").ok();
    let mut kept = Vec::new();
    for m in s
        .models
        .iter()
        .filter(|m| m.availability.as_str() != "research")
    {
        let Some((creator, date)) = dated.get(m.slug.as_str()) else {
            continue;
        };
        let words: Vec<&str> = m.slug.split('-').collect();
        let line = (1..words.len())
            .filter(|i| {
                dated
                    .get(words[..*i].join("-").as_str())
                    .is_some_and(|(c, d)| c == creator && d == date)
            })
            .max();
        let Some(line) = line else {
            continue;
        };
        let released = day(date).unwrap();
        let later: Vec<String> = entity::model::Dispute::decode(m.disputes.as_deref())
            .into_iter()
            .filter(|d| d.field == "release_date")
            .flat_map(|d| d.values)
            .filter(|v| v.source == "epoch")
            .filter(|v| day(&v.value).is_some_and(|d| (d - released).num_days() >= 28))
            .map(|v| v.value)
            .collect();
        if !later.is_empty() {
            kept.push(format!(
                "{} at {}'s {date}; Epoch says {later:?}",
                m.slug,
                words[..line].join("-")
            ));
        }
        // Nor the line's day where a branch between them came out four weeks or more later.
        let ends_in_number = words
            .last()
            .is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()));
        if mds::ingest::names::split_date(&m.slug).is_none() && !ends_in_number {
            let branch = (line + 1..words.len()).find_map(|j| {
                let head = format!("{}-", words[..j].join("-"));
                dated.iter().find(|(slug, (c, d))| {
                    slug.starts_with(&head)
                        && **slug != m.slug
                        && c == creator
                        && day(d).is_some_and(|d| (d - released).num_days() >= 28)
                })
            });
            if let Some((slug, (_, d))) = branch {
                kept.push(format!("{} at its line's {date}; {slug} is of {d}", m.slug));
            }
        }
    }
    assert!(kept.is_empty(), "{kept:#?}");
    assert_eq!(model(&s, "phi-4-mini-reasoning").release_date, None);
    assert_eq!(
        model(&s, "phi-4-reasoning-plus").release_date.as_deref(),
        Some("2025-04-30")
    );
}

/// Every creator's own API LiteLLM prices is read: a `litellm_provider` the reviewed table
/// `data/litellm_providers.csv` leaves out is never a creator's provider of the catalogue
/// (Meta's `meta`, which sells the Muse models) (docs/data.md, "Witnesses and votes").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn litellm_entries_at_a_creators_own_api_are_read() {
    let s = bundled();
    let aliases = alias_index(&s);
    let path = raw_sources().join("litellm/model_prices_and_context_window.json");
    let data: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let table = include_str!("../../data/litellm_providers.csv");
    let mapped: BTreeSet<&str> = table
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').next())
        .collect();
    let creators: BTreeSet<&str> = s
        .providers
        .iter()
        .filter(|p| p.kind.to_string() == "creator")
        .map(|p| p.slug.as_str())
        .collect();
    // A provider that LiteLLM prices the provider's own models at (Tencent's entries there
    // are other labs' models it hosts).
    let first_party = |p: &str| {
        data.as_object().unwrap().iter().any(|(key, e)| {
            e["litellm_provider"] == p
                && key
                    .split_once('/')
                    .and_then(|(_, id)| resolve(&s, &aliases, id))
                    .is_some_and(|slug| model(&s, slug).creator_slug.as_deref() == Some(p))
        })
    };
    let unread: BTreeSet<&str> = data
        .as_object()
        .unwrap()
        .values()
        .filter_map(|e| e["litellm_provider"].as_str())
        .filter(|p| !mapped.contains(p) && creators.contains(p) && first_party(p))
        .collect();
    assert!(unread.is_empty(), "{unread:?}");
    let muse = model(&s, "muse-spark-1.1");
    assert!(
        muse.input_modalities.contains("image"),
        "{}",
        muse.input_modalities
    );
    assert_eq!(muse.tool_call, Some(true));
}

/// A model's category follows what it takes and makes: `image` when it makes images,
/// `multimodal` when it takes images, audio or video or makes audio or video (a video or
/// speech generator is never `llm`), else `llm`; an image generator makes images
/// (docs/data.md, "Witnesses and votes").
#[test]
fn categories_follow_what_a_model_takes_and_makes() {
    let s = bundled();
    let wrong: Vec<String> = s
        .models
        .iter()
        .filter(|m| {
            let input: BTreeSet<&str> = m.input_modalities.split(',').collect();
            let output: BTreeSet<&str> = m.output_modalities.split(',').collect();
            let media = |set: &BTreeSet<&str>| {
                set.iter()
                    .any(|x| matches!(*x, "image" | "audio" | "video"))
            };
            let expected = if output.contains("image") {
                "image"
            } else if media(&input) || media(&output) {
                "multimodal"
            } else {
                "llm"
            };
            m.category.as_str() != expected
                || (m.task.as_str() == "image_generation" && !output.contains("image"))
        })
        .map(|m| {
            format!(
                "{} {} ({}→{})",
                m.slug, m.category, m.input_modalities, m.output_modalities
            )
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert_eq!(
        model(&s, "veo-3.1-generate-preview").category.as_str(),
        "multimodal"
    );
    assert_eq!(
        model(&s, "ming-image-0.1-design").category.as_str(),
        "image"
    );
}

/// One lab is one creator: no two creators are one name with and without `ai`
/// (`sarvam`/`sarvamai`, `liquid`/`liquidai`) (docs/data.md, "Creators").
#[test]
fn no_lab_is_two_creators() {
    let s = bundled();
    let creators: BTreeSet<&str> = s
        .models
        .iter()
        .filter_map(|m| m.creator_slug.as_deref())
        .collect();
    let twins: Vec<&str> = creators
        .iter()
        .copied()
        .filter(|c| {
            c.strip_suffix("ai")
                .or_else(|| c.strip_suffix("-ai"))
                .is_some_and(|base| creators.contains(base))
        })
        .collect();
    assert!(twins.is_empty(), "{twins:?}");
}

/// A seller's first of a month is the day it listed the model, never its release date
/// (docs/data.md, "Witnesses and votes"): FLUX.1 Fill [pro], released 2024-11-21, which a
/// seller dates 2024-10-01, has no release date rather than that one.
#[test]
fn a_sellers_first_of_the_month_is_no_release_date() {
    let s = bundled();
    assert_ne!(
        model(&s, "flux-pro-1.0-fill").release_date.as_deref(),
        Some("2024-10-01")
    );
    // A slug that names the first of a month keeps it.
    assert_eq!(
        model(&s, "qwen-turbo-2024-11-01").release_date.as_deref(),
        Some("2024-11-01")
    );
}

/// A host's default `open_weights: false` (NanoGPT writes it for nearly everything) says
/// nothing of a checkpoint whose id names its parameter count (docs/data.md, "Open
/// weights"): no sized model is closed on such a host's word alone.
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_hosts_default_closed_never_closes_a_sized_checkpoint() {
    let s = bundled();
    let aliases = alias_index(&s);
    let path = raw_sources().join("models-dev/models_dev_toml_bundle.json");
    let data: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    // Every file's word on each model: (path, open_weights).
    let mut said: BTreeMap<&str, Vec<(&str, bool)>> = BTreeMap::new();
    for (path, file) in data["files"].as_object().unwrap() {
        let Some(open) = file["open_weights"].as_bool() else {
            continue;
        };
        let Some(id) = path
            .rsplit_once('/')
            .and_then(|(_, f)| f.strip_suffix(".toml"))
        else {
            continue;
        };
        if let Some(slug) = resolve(&s, &aliases, id) {
            said.entry(slug).or_default().push((path.as_str(), open));
        }
    }
    let wrong: Vec<String> = said
        .iter()
        .filter(|(slug, _)| ingest::catalog::names_a_size(slug))
        .filter(|(slug, words)| {
            model(&s, slug).open_source == Some(false)
                && !ingest::catalog::api_only(slug)
                && words
                    .iter()
                    .all(|(p, open)| !open && p.starts_with("providers/nano-gpt/"))
        })
        .map(|(slug, _)| (*slug).to_string())
        .collect();
    assert!(wrong.is_empty(), "{wrong:?}");
    assert_ne!(model(&s, "l3.3-ms-nevoria-70b").open_source, Some(false));
}

/// One table of a renewed benchmark (a LiveBench release) lists a model once: no model holds
/// two rows of one table, so a name the table lists beside a dated snapshot (LiveBench's
/// `qwen3-235b-a22b-thinking`, the April hybrid, beside `…-thinking-2507`) is never that
/// snapshot's (docs/methodology.md, "Scores and who ran them").
#[test]
fn a_release_s_table_lists_a_model_once() {
    let s = bundled();
    // (A run configuration is a row of its own: `-thinking` beside the plain model.)
    let mut rows: BTreeMap<(&str, &str, &str, &str, Option<&str>), usize> = BTreeMap::new();
    for x in &s.scores {
        if let Some(release) = x.release.as_deref() {
            *rows
                .entry((
                    x.model_slug.as_str(),
                    x.benchmark_slug.as_str(),
                    x.source.as_str(),
                    release,
                    x.config.as_deref(),
                ))
                .or_default() += 1;
        }
    }
    let twice: Vec<_> = rows.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "{twice:#?}");
    assert!(
        s.scores
            .iter()
            .all(|x| !(x.model_slug == "qwen3-235b-a22b-thinking-2507"
                && x.release.as_deref() == Some("2025-04-25"))),
        "the April hybrid's rows are the 2507 model's"
    );
}

/// Names two of a source's rows carry crosswise (Epoch's `Yi-6B` row says "Yi-6B (chat)",
/// its `Yi-6B-Chat` row "Yi-6B") are read back to the rows they spell: no two models are
/// each named as the other's id.
#[test]
fn no_two_models_are_named_crosswise() {
    let s = bundled();
    let spelt: BTreeMap<&str, String> = s
        .models
        .iter()
        .map(|m| (m.slug.as_str(), names::parse(&names::slugify(&m.name)).key))
        .collect();
    let crosswise: Vec<String> = spelt
        .iter()
        .filter(|(slug, named)| {
            named.as_str() != **slug
                && spelt
                    .get(named.as_str())
                    .is_some_and(|other| other == *slug)
        })
        .map(|(slug, named)| format!("{slug} named as {named}"))
        .collect();
    assert!(crosswise.is_empty(), "{crosswise:#?}");
    assert!(!model(&s, "yi-6b").name.to_lowercase().contains("chat"));
    assert!(model(&s, "yi-6b-chat").name.to_lowercase().contains("chat"));
}

/// A host's label writing the maker before the model's own name ("OpenAI GPT-4.1 Mini" for
/// `gpt-4.1-mini-2025-04-14`) is no name: no model's name is its creator's word followed
/// by a name (with capitals, or an id) that spells the start of its slug (docs/methodology.md,
/// "Identity").
#[test]
fn no_name_starts_with_its_maker_before_the_models_own_name() {
    let s = bundled();
    let labelled: Vec<String> = s
        .models
        .iter()
        .filter_map(|m| {
            let creator = m.creator_slug.as_deref()?.replace('-', "");
            let key = names::parse(&m.slug).key.replace("-instruct", "-it");
            // The maker in one word or two ("Canopy Labs" for `canopylabs`).
            let labelled = m.name.match_indices(' ').take(2).any(|(at, _)| {
                let (maker, rest) = (&m.name[..at], &m.name[at + 1..]);
                let spelt = names::parse(&names::slugify(rest))
                    .key
                    .replace("-instruct", "-it");
                maker.replace(' ', "").eq_ignore_ascii_case(&creator)
                    && (rest.chars().any(|c| c.is_ascii_uppercase())
                        || !rest.split(" (").next().unwrap_or(rest).contains(' '))
                    && !spelt.is_empty()
                    && (key == spelt || key.starts_with(&format!("{spelt}-")))
            });
            labelled.then(|| format!("{}: {}", m.slug, m.name))
        })
        .collect();
    assert!(labelled.is_empty(), "{labelled:#?}");
    assert!(
        model(&s, "gpt-4.1-mini-2025-04-14")
            .name
            .eq_ignore_ascii_case("GPT-4.1 mini")
    );
}

/// A host's route of its own — a trusted-execution deployment (NanoGPT's `TEE/glm-4.7`), a
/// discounted "stealth" route (Kilo's `stealth/claude-opus-4.6`) — is served only where the
/// host's own list has no plain route of the same id (docs/data.md, "Price modes").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_host_s_own_route_never_hides_the_plain_one() {
    let s = bundled();
    let path = raw_sources().join("models-dev/models_dev_toml_bundle.json");
    let data: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    // Each provider's ids, as `<provider>` → lowercase last path segments.
    let mut plain: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in data["files"].as_object().unwrap().keys() {
        let Some((provider, id)) = path
            .strip_prefix("providers/")
            .and_then(|p| p.strip_suffix(".toml"))
            .and_then(|p| p.split_once("/models/"))
        else {
            continue;
        };
        let lower = id.to_ascii_lowercase();
        if !lower.starts_with("tee/") && !lower.starts_with("stealth/") {
            let last = id.rsplit('/').next().unwrap_or(id).to_ascii_lowercase();
            plain.entry(provider.to_string()).or_default().insert(last);
        }
    }
    let hidden: Vec<String> = s
        .offerings
        .iter()
        .filter_map(|o| {
            let (head, rest) = o.provider_model_id.split_once('/')?;
            ((head.eq_ignore_ascii_case("tee") || head.eq_ignore_ascii_case("stealth"))
                && plain
                    .get(&o.provider_slug)
                    .is_some_and(|ids| ids.contains(&rest.to_ascii_lowercase())))
            .then(|| format!("{}@{}", o.provider_model_id, o.provider_slug))
        })
        .collect();
    assert!(hidden.is_empty(), "{hidden:#?}");
    let glm = offering(&s, "glm-4.7", "nano-gpt").unwrap();
    assert_eq!(glm.provider_model_id, "zai-org/glm-4.7");
    let opus = offering(&s, "claude-opus-4-6", "kilo").unwrap();
    assert_eq!(opus.provider_model_id, "anthropic/claude-opus-4.6");
    // A route through another provider (NanoGPT's `azure-o3-mini`) beside the plain id:
    // the rest itself, or under its maker's name, and led by no other provider.
    let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in data["files"].as_object().unwrap().keys() {
        if let Some((provider, id)) = path
            .strip_prefix("providers/")
            .and_then(|p| p.strip_suffix(".toml"))
            .and_then(|p| p.split_once("/models/"))
        {
            let id = id.to_ascii_lowercase();
            ids.entry(provider.to_string()).or_default().insert(id);
        }
    }
    let creators: BTreeMap<&str, Option<&str>> = s
        .models
        .iter()
        .map(|m| (m.slug.as_str(), m.creator_slug.as_deref()))
        .collect();
    let providers: BTreeSet<&str> = s.providers.iter().map(|p| p.slug.as_str()).collect();
    let led = |id: &str, provider: &str, creator: Option<&str>| {
        let (head, rest) = id.split_once('/').or_else(|| id.split_once('-'))?;
        (providers.contains(head) && head != provider && Some(head) != creator)
            .then(|| rest.to_string())
    };
    let routed: Vec<String> = s
        .offerings
        .iter()
        .filter_map(|o| {
            let id = o.provider_model_id.to_ascii_lowercase();
            let creator = creators.get(o.model_slug.as_str()).copied().flatten();
            let rest = led(&id, &o.provider_slug, creator)?;
            let twin = ids.get(&o.provider_slug)?.iter().any(|t| {
                *t != id
                    && led(t, &o.provider_slug, creator).is_none()
                    && (*t == rest || t.rsplit_once('/').is_some_and(|(_, l)| l == rest))
            });
            twin.then(|| format!("{}@{}", o.provider_model_id, o.provider_slug))
        })
        .collect();
    assert!(routed.is_empty(), "{routed:#?}");
    let o3_mini = offering(&s, "o3-mini-2025-01-31", "nano-gpt").unwrap();
    assert_eq!(o3_mini.provider_model_id, "openai/o3-mini");
}

/// A host writing the maker first, a version's `.0` or a version apart (Azure's
/// `Cohere-embed-v3-english`, `cohere-embed-v-4-0`) spells the maker's model
/// (`embed-english-v3.0`, `embed-v4.0`), not a model of its own; and a line the reviewed table
/// says has no weights (`*`) is closed whatever a host's file says (docs/methodology.md,
/// "Identity"; docs/data.md, "Open weights").
#[test]
fn a_host_s_maker_first_spelling_is_the_maker_s_model() {
    let s = bundled();
    // ByteDance's brand before its Seed ids.
    for (alias, slug) in [
        ("doubao-seed-1.6", "seed-1.6"),
        ("doubao-seed-1.8", "seed-1.8"),
        ("doubao-seed-1.6-flash", "seed-1.6-flash"),
        ("seed-2.0-lite", "doubao-seed-2.0-lite"),
    ] {
        assert_alias(&s, alias, slug);
    }
    for (alias, slug) in [
        ("cohere-embed-v3-english", "embed-english-v3.0"),
        ("cohere-embed-v3-multilingual", "embed-multilingual-v3.0"),
        ("cohere-embed-v-4-0", "embed-v4.0"),
    ] {
        assert_alias(&s, alias, slug);
        assert!(offering(&s, slug, "azure").is_some(), "{slug}");
        assert_eq!(model(&s, slug).open_source, Some(false), "{slug}");
    }
    // ByteDance publishes no weights for Seed 1.x and 2.x, whatever a host's file says.
    for slug in [
        "seed-1.6-flash",
        "doubao-seed-2.0-lite",
        "seed-1-6-flash-250715",
    ] {
        assert_eq!(model(&s, slug).open_source, Some(false), "{slug}");
    }
    assert_eq!(model(&s, "seed-oss-36b-instruct").open_source, Some(true));
}

/// Where no record names a model, a source's id in its own case names it, not the slug
/// (docs/methodology.md, "Identity").
#[test]
fn an_unnamed_model_is_named_by_its_id_as_written() {
    let s = bundled();
    for (slug, name) in [
        ("redpajama-incite-chat-3b-v1", "RedPajama-INCITE-Chat-3B-v1"),
        ("nexusraven-v2-13b", "NexusRaven-V2-13B"),
    ] {
        assert_eq!(model(&s, slug).name, name);
    }
}

/// A host's thinking product of a model that reasons, sold at the model's price, is the
/// model's alias; one priced apart stays a model (docs/data.md, "Price modes").
#[test]
fn a_host_s_thinking_product_at_the_model_s_price_is_the_model() {
    let s = bundled();
    for (alias, slug) in [
        ("qwen3.5-plus-thinking", "qwen3.5-plus-20260420"),
        ("mimo-v2-flash-thinking", "mimo-v2-flash"),
    ] {
        assert_alias(&s, alias, slug);
    }
    assert!(
        s.models
            .iter()
            .any(|m| m.slug == "doubao-seed-1.6-thinking")
    );
}

/// One seller is one provider: no two providers that sell anything share a name (genai-prices'
/// `cloudflare` is models.dev's `cloudflare-workers-ai`, Cloudflare Workers AI), and the
/// creator of Cloudflare's own models sells them there first-party (docs/data.md,
/// "Creators").
#[test]
fn one_seller_is_one_provider() {
    let s = bundled();
    let mut names: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for p in s.providers.iter().filter(|p| p.models_count > 0) {
        names
            .entry(p.name.to_lowercase())
            .or_default()
            .push(p.slug.as_str());
    }
    let twice: Vec<_> = names.iter().filter(|(_, slugs)| slugs.len() > 1).collect();
    assert!(twice.is_empty(), "{twice:?}");
    assert!(
        !s.providers
            .iter()
            .any(|p| p.slug == "cloudflare" && p.models_count > 0)
    );
    let clef = model(&s, "clef");
    assert_eq!(clef.creator_slug.as_deref(), Some("cloudflare"));
    assert_eq!(
        clef.price_basis,
        Some(entity::vocab::PriceBasis::FirstParty)
    );
}

/// A table's row for a quantisation of a model (Epoch's `Qwen2.5-Coder-32B-Instruct-Q8_0-GGUF`,
/// of 2025-02-16) dates the quantisation: the model keeps the day its sellers give
/// (docs/data.md, "Witnesses and votes").
#[test]
fn a_quantisation_s_day_is_not_the_model_s() {
    let s = bundled();
    assert_eq!(
        model(&s, "qwen2.5-coder-32b-instruct")
            .release_date
            .as_deref(),
        Some("2024-11-11")
    );
}

/// A host's LiteLLM entry under an id only the creator's own LiteLLM entry makes a model of
/// joins that model: Azure sells GPT Realtime 2.1 (docs/methodology.md, "Sources").
#[test]
fn a_host_s_entry_joins_a_model_its_creator_s_entry_makes() {
    let s = bundled();
    let azure = offering(&s, "gpt-realtime-2.1", "azure").unwrap();
    assert_eq!(
        (azure.input_price, azure.output_price),
        (Some(4.0), Some(24.0))
    );
    assert!(offering(&s, "claude-mythos-5-1", "amazon-bedrock").is_some());
    // A model a host lists only in its packaging (Together's `…-hf`); the lab's API that
    // sells it is its host.
    let perplexity = offering(&s, "codellama-70b-instruct", "perplexity").unwrap();
    assert_eq!(
        (perplexity.input_price, perplexity.output_price),
        (Some(0.7), Some(2.8))
    );
    assert_eq!(
        model(&s, "codellama-70b-instruct").creator_slug.as_deref(),
        Some("meta")
    );
}

/// Where only Bedrock's `global.` profile prices a model, it is the offering's own price and
/// the regional profiles its `regions` (docs/methodology.md, "Prices").
#[test]
fn bedrock_s_global_profile_alone_makes_the_offering() {
    let s = bundled();
    let grok = offering(&s, "grok-4.7", "amazon-bedrock").unwrap();
    assert_eq!(grok.provider_model_id, "global.xai.grok-4.7");
    assert_eq!(
        (grok.input_price, grok.output_price),
        (Some(2.0), Some(6.0))
    );
    let us = entity::offering::RegionalPrice::decode(grok.regions.as_deref());
    assert!(
        us.iter()
            .any(|r| r.region == "us" && r.input_price == Some(2.2)),
        "{us:?}"
    );
}

/// A sale its provider ended by the build day is listed with its date and is no way to buy:
/// no median list price or `cheapest` is such an offering while another is current, and every
/// genai-prices entry whose comment says its sale ended is served with a date (docs/data.md,
/// "Ended sales").
#[test]
fn an_ended_sale_is_no_way_to_buy() {
    let s = bundled();
    let day = s.built_at.as_str();
    let mut by_model: BTreeMap<&str, Vec<&entity::offering::Model>> = BTreeMap::new();
    for o in &s.offerings {
        by_model.entry(o.model_slug.as_str()).or_default().push(o);
    }
    let priced = |o: &&entity::offering::Model| o.input_price.is_some() && !o.ended_by(day);
    let mut ended = 0;
    for m in &s.models {
        let offers = by_model.get(m.slug.as_str()).cloned().unwrap_or_default();
        ended += offers.iter().filter(|o| o.ended_by(day)).count();
        if !offers.iter().any(priced) {
            continue;
        }
        if let Some(p) = &m.cheapest_provider {
            let o = offers.iter().find(|o| &o.provider_slug == p).unwrap();
            assert!(!o.ended_by(day), "{}: cheapest {p} ended", m.slug);
        }
        // A median is the market's now; the creator's last price stays its list price.
        if m.price_basis == Some(entity::vocab::PriceBasis::Median) {
            assert!(
                offers.iter().any(|o| priced(o)
                    && o.input_price == m.input_price
                    && o.output_price == m.output_price),
                "{}: list price {:?}/{:?} is no current offering's",
                m.slug,
                m.input_price,
                m.output_price
            );
        }
    }
    assert!(ended >= 100, "only {ended} ended offerings");
    // Perplexity's Agent API, not its ended Chat Completions rate.
    let sonar = offering(&s, "sonar", "perplexity").unwrap();
    assert_eq!(sonar.provider_model_id, "perplexity/sonar");
    assert_eq!(
        (sonar.input_price, sonar.output_price),
        (Some(0.25), Some(2.5))
    );
    assert!(!model(&s, "sonar").retired);
    let cerebras = offering(&s, "qwen3-32b", "cerebras").unwrap();
    assert!(cerebras.ended_by(day), "{:?}", cerebras.deprecation_date);
    assert_ne!(
        model(&s, "gpt-4-0613").cheapest_provider.as_deref(),
        Some("azure")
    );
    let llama = model(&s, "llama-3.1-405b-instruct");
    assert_eq!(
        (llama.input_price, llama.output_price),
        (Some(1.2), Some(1.2))
    );
    assert!(
        offering(&s, "llama-3.1-405b-instruct", "avian")
            .unwrap()
            .ended_by(day)
    );
    // A host's "Retires on 2026-10-30." ends its sale.
    assert!(offering(&s, "inkling", "databricks").unwrap().ended_by(day));
    // Every creator's entry ended: the model retires.
    let preview = model(&s, "gemini-3-pro-preview");
    assert!(preview.retired, "{:?}", preview.deprecation_date);
    assert_eq!(preview.deprecation_date.as_deref(), Some("2026-10-13"));
}

/// Every genai-prices entry whose comment says its sale ended is served, where it is, with a
/// deprecation date no later than the day the comment gives (docs/data.md, "Ended sales").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_price_entry_saying_its_sale_ended_dates_its_offering() {
    const SAYS: [&str; 4] = [
        "no longer list",
        "no longer in the",
        "(shut down)",
        "support ended on ",
    ];
    let s = bundled();
    let path = raw_sources().join("genai-prices/prices/new_data/v2/data.json");
    let data: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut said = 0;
    let mut served = 0;
    for p in data.as_array().unwrap() {
        let provider = p["id"].as_str().unwrap();
        for m in p["models"].as_array().into_iter().flatten() {
            let comment = m["price_comments"]
                .as_str()
                .unwrap_or("")
                .to_ascii_lowercase();
            if !SAYS.iter().any(|w| comment.contains(w)) {
                continue;
            }
            said += 1;
            let id = m["id"].as_str().unwrap();
            for o in s
                .offerings
                .iter()
                .filter(|o| o.provider_slug == provider && o.provider_model_id == id)
            {
                served += 1;
                assert!(
                    o.ended_by(&s.built_at),
                    "{id}@{provider}: {:?}",
                    o.deprecation_date
                );
            }
        }
    }
    assert!(said >= 30 && served >= 20, "{said} said, {served} served");
}

/// A price entry for several versions ("Claude 2.0 / 2.1") names none of them, nor gives
/// any of them its window: Claude 2.0 is not served with Claude 2.1's 200,000 tokens
/// (docs/methodology.md, "Identity").
#[test]
fn an_entry_for_several_versions_gives_none_its_window() {
    let s = bundled();
    let claude_2 = model(&s, "claude-2");
    assert!(!claude_2.name.contains(" / "), "{}", claude_2.name);
    assert_ne!(claude_2.context_window, Some(200_000));
}

/// Hugging Face's inference providers serve repositories of the Hub (`huggingface-novita`:
/// `zai-org/GLM-5.3`): every model sold there under a repository id is open weights, unless
/// the reviewed table names it an API-only tier (docs/data.md, "Open weights").
#[test]
fn a_model_served_from_the_hub_is_open() {
    let s = bundled();
    let models: BTreeMap<&str, &entity::model::Model> =
        s.models.iter().map(|m| (m.slug.as_str(), m)).collect();
    let closed: BTreeSet<&str> = s
        .offerings
        .iter()
        .filter(|o| o.provider_slug.starts_with("huggingface") && o.provider_model_id.contains('/'))
        .map(|o| o.model_slug.as_str())
        .filter(|slug| !ingest::catalog::api_only(slug))
        .filter(|slug| {
            models
                .get(slug)
                .is_some_and(|m| m.open_source != Some(true))
        })
        .collect();
    assert!(closed.is_empty(), "{closed:?}");
    assert_eq!(model(&s, "glm-5.3").open_source, Some(true));
}

/// A host that serves tuned checkpoints only (`data/tuned_hosts.csv`) sells the tuned model
/// under a line's plain id, and under its endpoint labels, never the pretrained one a
/// base-serving host sells under that id (docs/methodology.md, "Identity").
#[test]
fn tuned_only_hosts_sell_tuned_checkpoints() {
    let s = bundled();
    let table = include_str!("../../data/tuned_hosts.csv");
    let hosts: BTreeSet<&str> = table
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').next())
        .collect();
    assert!(hosts.contains("groq") && hosts.contains("snowflake-cortex"));
    let slugs: BTreeSet<&str> = s.models.iter().map(|m| m.slug.as_str()).collect();
    let creators_own: BTreeSet<&str> = s
        .offerings
        .iter()
        .filter(|o| o.kind.as_str() == "first_party")
        .map(|o| o.model_slug.as_str())
        .collect();
    let pretrained: Vec<String> = s
        .offerings
        .iter()
        .filter(|o| hosts.contains(o.provider_slug.as_str()))
        .filter(|o| !creators_own.contains(o.model_slug.as_str()))
        .filter(|o| {
            ["instruct", "it"]
                .iter()
                .any(|t| slugs.contains(format!("{}-{t}", o.model_slug).as_str()))
        })
        .map(|o| {
            format!(
                "{} ({}) at {}",
                o.provider_model_id, o.model_slug, o.provider_slug
            )
        })
        .collect();
    assert!(pretrained.is_empty(), "{pretrained:?}");
    // Groq's 405B endpoint of July 2024 is Llama 3.1 405B Instruct, no reasoning model.
    assert_alias(&s, "llama-3.1-405b-reasoning", "llama-3.1-405b-instruct");
    assert!(offering(&s, "llama-3.1-405b-instruct", "groq").is_some());
    // Its `-preview` marks a model in preview at Groq, no model of its own.
    assert_alias(&s, "llama-3.2-1b-preview", "llama-3.2-1b-instruct");
    assert!(offering(&s, "llama-3.1-405b-instruct", "snowflake-cortex").is_some());
    assert!(offering(&s, "gemma-3-12b-it", "databricks").is_some());
    // A base-serving host keeps the pretrained checkpoint under the plain id.
    assert!(offering(&s, "llama-3.1-405b", "openrouter").is_some());
}

/// A creator's entry listed "(Shut down)" retires, with it, every model whose id its family
/// rule covers and that the creator lists no price of its own for (Google's
/// `gemini-2.0-flash` entry contains `gemini-2.0-flash-exp`) (docs/data.md, "Ended sales").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_shut_down_entry_retires_the_models_its_family_rule_covers() {
    let data = crate::helpers::raw_json("genai-prices/prices/new_data/v2/data.json");
    let s = bundled();
    let mut ids: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for m in &s.models {
        ids.entry(m.slug.as_str())
            .or_default()
            .push(m.slug.as_str());
    }
    for a in &s.aliases {
        ids.entry(a.model_slug.as_str())
            .or_default()
            .push(a.alias.as_str());
    }
    let own: BTreeSet<&str> = s
        .offerings
        .iter()
        .filter(|o| o.kind.as_str() == "first_party" && o.input_price.is_some())
        .map(|o| o.model_slug.as_str())
        .collect();
    let (mut checked, mut current) = (0, Vec::new());
    for provider in data.as_array().unwrap() {
        let slug = ingest::catalog::canonical_provider(provider["id"].as_str().unwrap());
        for entry in provider["models"].as_array().into_iter().flatten() {
            let comment = entry["price_comments"].as_str().unwrap_or_default();
            if !comment.contains("(Shut down)") {
                continue;
            }
            let ors = entry["match"]["or"].as_array().cloned().unwrap_or_default();
            let patterns: Vec<&str> = ors
                .iter()
                .chain(std::iter::once(&entry["match"]))
                .filter_map(|r| r["contains"].as_str())
                .collect();
            for m in &s.models {
                if m.creator_slug.as_deref() != Some(slug.as_str()) || own.contains(m.slug.as_str())
                {
                    continue;
                }
                let names = &ids[m.slug.as_str()];
                if patterns.iter().any(|p| names.iter().any(|n| n.contains(p))) {
                    checked += 1;
                    if !m.retired {
                        current.push(m.slug.as_str());
                    }
                }
            }
        }
    }
    assert!(checked >= 3, "{checked}");
    assert!(current.is_empty(), "{current:?}");
    assert!(model(&s, "gemini-2.0-flash-exp").retired);
    assert!(model(&s, "gemini-2.5-flash-preview-04-17").retired);
    // One API's shutdown ends that sale; Vertex AI still sells Gemini 2.5 Flash Image.
    let image = model(&s, "gemini-2.5-flash-image");
    assert!(!image.retired);
    let google = offering(&s, "gemini-2.5-flash-image", "google").unwrap();
    assert_eq!(google.deprecation_date.as_deref(), Some("2026-10-02"));
}

/// A host's models.dev file under a line's undated name whose `base_model` is one dated
/// snapshot of that name (Helicone's `mistral-small`, based on `mistral-small-2506`) is an
/// offering of that snapshot, not of the newest the undated name joins (docs/methodology.md,
/// "Identity").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_hosts_undated_file_is_the_snapshot_its_base_model_names() {
    let data = crate::helpers::raw_json("models-dev/models_dev_toml_bundle.json");
    let s = bundled();
    let aliases = alias_index(&s);
    let (mut checked, mut wrong) = (0, Vec::new());
    for (path, file) in data["files"].as_object().unwrap() {
        let Some(rest) = path.strip_prefix("providers/") else {
            continue;
        };
        let Some((provider, id)) = rest.split_once("/models/") else {
            continue;
        };
        let id = id.trim_end_matches(".toml");
        let Some(base) = file["base_model"].as_str() else {
            continue;
        };
        let base_id = base.split_once('/').map_or(base, |(_, b)| b);
        let key = names::parse(id).key;
        let base_key = names::parse(base_id).key;
        if names::split_date(&base_key).is_none_or(|(stem, _)| stem != key) {
            continue;
        }
        let (Some(want), provider) = (
            resolve(&s, &aliases, base_id),
            ingest::catalog::canonical_provider(provider),
        ) else {
            continue;
        };
        for o in s
            .offerings
            .iter()
            .filter(|o| o.provider_slug == provider && o.provider_model_id == id)
        {
            checked += 1;
            if o.model_slug != want {
                wrong.push(format!("{provider}/{id} at {} (base {want})", o.model_slug));
            }
        }
    }
    assert!(checked >= 1, "{checked}");
    assert!(wrong.is_empty(), "{wrong:?}");
    assert!(offering(&s, "mistral-small-2506", "helicone").is_some());
}

/// One build of a line is one model however a host spells its maker (docs/methodology.md,
/// "Identity"): LLM Gateway's `seed-1-6-250615` and NanoGPT's `doubao-seed-1-6-250615`.
#[test]
fn one_build_is_one_model_whatever_brand_a_host_writes() {
    let s = bundled();
    let aliases = alias_index(&s);
    let llm = resolve(&s, &aliases, "seed-1-6-250615");
    assert!(llm.is_some());
    assert_eq!(llm, resolve(&s, &aliases, "doubao-seed-1-6-250615"));
    // No model is named for a spelling another joined.
    assert!(s.models.iter().all(|m| m.slug != "doubao-seed-1-6"));
}

/// A host's LiteLLM entry under its own name before a listed model's id (Databricks'
/// `databricks-claude-sonnet-5`) is an offering of that model there (docs/methodology.md,
/// "Identity").
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_hosts_own_name_before_a_models_id_is_its_offering() {
    let data = crate::helpers::raw_json("litellm/model_prices_and_context_window.json");
    let s = bundled();
    let aliases = alias_index(&s);
    let mapped: BTreeMap<&str, &str> = include_str!("../../data/litellm_providers.csv")
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(','))
        .collect();
    let (mut checked, mut missing) = (0, Vec::new());
    for (key, e) in data.as_object().unwrap() {
        let Some(provider) = e["litellm_provider"].as_str().and_then(|p| mapped.get(p)) else {
            continue;
        };
        let id = key.rsplit('/').next().unwrap_or(key);
        if e["input_cost_per_token"].as_f64().is_none_or(|p| p <= 0.0) {
            continue;
        }
        let Some(rest) = ingest::identities::without_host_prefix(Some(provider), id) else {
            continue;
        };
        // A creator's own id that starts with its name (DeepSeek's `deepseek-v3`) is no host's.
        let Some(slug) = resolve(&s, &aliases, rest)
            .filter(|slug| model(&s, slug).creator_slug.as_deref() != Some(provider))
        else {
            continue;
        };
        checked += 1;
        // The model's offering, or at a tuned-only host its tuned checkpoint's
        // (`databricks-gemma-3-12b` is Gemma 3 12B IT's).
        let offered = s
            .offerings
            .iter()
            .any(|o| o.provider_slug == *provider && o.provider_model_id == id);
        if !offered {
            missing.push(format!("{key} ({slug})"));
        }
    }
    assert!(checked >= 20, "{checked}");
    assert!(missing.is_empty(), "{missing:?}");
    assert!(offering(&s, "claude-sonnet-5", "databricks").is_some());
}

/// A name a benchmark table gives rows of two models or more is the table's family name:
/// each model only the table names so is named with its id (docs/methodology.md,
/// "Identity"): Epoch's "Mistral NeMo" for the base checkpoint and the instruct model.
#[test]
fn a_tables_family_name_names_no_one_model() {
    let s = bundled();
    assert_eq!(
        model(&s, "mistral-nemo-base-2407").name,
        "Mistral NeMo (mistral-nemo-base-2407)"
    );
    let mut named: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for m in &s.models {
        named
            .entry(m.name.to_lowercase())
            .or_default()
            .push(m.slug.as_str());
    }
    let shared: Vec<&Vec<&str>> = named.values().filter(|v| v.len() > 1).collect();
    assert!(shared.len() < 10, "{shared:?}");
}

/// A first sighting dates a model only where it is news (docs/data.md, "New and first
/// seen"): never on the day that opens the record of a source selling or scoring the model
/// (genai-prices' log opens 2025-06-22, LiteLLM's first copy read is of 2026-10-03, a
/// one-copy source's record is its day), never for a retiring model.
#[test]
fn a_first_sighting_dates_only_news() {
    let s = bundled();
    let mut starts: BTreeMap<&str, &str> = s
        .sources
        .iter()
        .map(|src| (src.slug.as_str(), src.snapshot_date.as_str()))
        .collect();
    starts.insert("genai-prices", "2025-06-22");
    starts.insert("litellm", "2026-10-03");
    let mut sources: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for o in &s.offerings {
        sources
            .entry(o.model_slug.as_str())
            .or_default()
            .insert(o.source.as_str());
    }
    for sc in &s.scores {
        sources
            .entry(sc.model_slug.as_str())
            .or_default()
            .insert(sc.source.as_str());
    }
    let sighted: Vec<&entity::model::Model> = s
        .models
        .iter()
        .filter(|m| m.date_basis == Some(entity::vocab::DateBasis::FirstSeen))
        .collect();
    assert!(sighted.len() > 40, "{} dated by a sighting", sighted.len());
    let not_news: Vec<(&str, Option<&str>)> = sighted
        .iter()
        .filter(|m| {
            let seen = m.first_seen.as_deref().unwrap_or_default();
            m.deprecated
                || m.deprecation_date.is_some()
                || sources
                    .get(m.slug.as_str())
                    .is_some_and(|srcs| srcs.iter().any(|src| starts.get(src) == Some(&seen)))
        })
        .map(|m| (m.slug.as_str(), m.first_seen.as_deref()))
        .collect();
    assert!(not_news.is_empty(), "{not_news:?}");
    // Perplexity's 2023 models, in the first LiteLLM copy read: undated, not "new".
    for slug in ["pplx-70b-chat", "pplx-7b-chat"] {
        assert_eq!(model(&s, slug).date_basis, None, "{slug}");
    }
    // An id an entry bills is seen in the copies listing it: Moonshot's `moonshot-v1-128k`
    // entry bills the vision preview in the genai-prices copy of 2026-08-21.
    let vision = model(&s, "moonshot-v1-128k-vision-preview");
    assert!(
        vision.first_seen.as_deref() <= Some("2026-08-21"),
        "{:?}",
        vision.first_seen
    );
}

/// One cloud is one provider: Claude on Vertex, which models.dev files apart
/// (`google-vertex-anthropic`) and LiteLLM names `vertex_ai-anthropic_models`, is a
/// `google-vertex` offering with both sources as witnesses (docs/methodology.md).
#[test]
fn claude_on_vertex_is_one_vertex_offering() {
    let s = bundled();
    assert!(
        !s.providers
            .iter()
            .any(|p| p.slug.contains("vertex-anthropic")),
        "a provider apart for Vertex's Claude"
    );
    let o = offering(&s, "claude-opus-4-6", "google-vertex").unwrap();
    let sources: BTreeSet<String> = Witness::decode(o.sources.as_deref())
        .into_iter()
        .map(|w| w.source)
        .collect();
    assert_eq!(sources.len(), 2, "{sources:?}");
}

/// Stability's `sd3.5-large` (its API's id, also Bedrock's) and DigitalOcean's
/// `stable-diffusion-3.5-large` are one model (docs/methodology.md, Stability's `sd`); the
/// API's id still finds it, and a creator's description calling a model retired deprecates
/// it (Anthropic's `claude-v1`, docs/data.md, "Lifecycle").
#[test]
fn stable_diffusion_is_one_model_under_either_spelling() {
    let s = bundled();
    assert!(!s.models.iter().any(|m| m.slug.starts_with("sd3")));
    let sellers: BTreeSet<&str> = s
        .offerings
        .iter()
        .filter(|o| o.model_slug == "stable-diffusion-3.5-large")
        .map(|o| o.provider_slug.as_str())
        .collect();
    assert!(
        sellers.contains("stability") && sellers.contains("amazon-bedrock"),
        "{sellers:?}"
    );
    // DigitalOcean's file (per-image prices, not read) names and dates the same model.
    let sd = model(&s, "stable-diffusion-3.5-large");
    assert_eq!(sd.name, "Stable Diffusion 3.5 Large");
    assert_eq!(sd.release_date.as_deref(), Some("2024-10-22"));
    let v1 = model(&s, "claude-v1");
    assert!(v1.deprecated && v1.date_basis.is_none(), "{v1:?}");
}

/// No image or video generator is priced per token by an input price alone: such a price
/// is per image or video (DigitalOcean's $0.08 for Stable Diffusion 3.5 Large;
/// docs/data.md, "Units").
#[test]
fn no_media_generator_has_an_input_only_token_price() {
    let s = bundled();
    let media: BTreeSet<&str> = s
        .models
        .iter()
        .filter(|m| matches!(m.task.as_str(), "image_generation" | "video_generation"))
        .map(|m| m.slug.as_str())
        .collect();
    assert!(media.len() > 20, "{} media generators", media.len());
    let per_item: Vec<(&str, &str)> = s
        .offerings
        .iter()
        .filter(|o| media.contains(o.model_slug.as_str()))
        .filter(|o| o.input_price.is_some_and(|p| p > 0.0) && o.output_price == Some(0.0))
        .map(|o| (o.model_slug.as_str(), o.provider_slug.as_str()))
        .collect();
    assert!(per_item.is_empty(), "{per_item:?}");
}
