//! The curated catalogue (`docs/rest.md`): what each model is for (`task`) and how it can be had
//! (`availability`), so lists can show what a practitioner calls a model.
//!
//! - `availability`: `api` when at least one provider offers it (any offering), else
//!   `open_weights` when its weights are published, else `research` (known only from a
//!   benchmark table: a paper's checkpoint, a leaderboard row).
//! - `task`, first rule that applies: a name with the word `router` or `auto`, or the
//!   family `auto` (models.dev's routing entries: LLM Gateway's `custom`) → `router`
//!   (a product that picks a model per request: OpenRouter's Auto Router, Azure's Model
//!   Router, Kilo Auto; not a model, so lists leave it out unless asked); a name saying
//!   `rerank` → `rerank`; `embed` or an embedding family (`voyage-…`, `bge`, `e5`, `gte`,
//!   `minilm`, `mpnet`) → `embedding`; `moderation`, `guard` or `safety` → `moderation`;
//!   image output, or an image generator's name (`gpt-image`, `image-generation`,
//!   `stable-diffusion`, `…-image-…` of a family that makes images) → `image_generation`;
//!   video output → `video_generation`; audio output without text, or a name with a word
//!   ending in `tts` (`melotts`, `gpt-4o-mini-tts`, whatever modalities a source lists) →
//!   `text_to_speech`; a transcription name (`whisper`, `transcribe`, `asr`) or Voxtral,
//!   audio as the only input and text as the only output (Qwen3-ASR Flash), or audio
//!   input with text-only output and a `speech`/`stt` name → `speech_to_text`; a reader or
//!   a tagger rather than a conversational model (`ocr`, GLiNER, a DistilBERT classifier) →
//!   `other`; else `chat`. Sources often list text in and out for all of these, so the
//!   name decides where modalities cannot.

use std::collections::{BTreeMap, BTreeSet};

use entity::model;
use entity::vocab::{Availability, Task};

use crate::snapshot::Snapshot;

fn split(s: &str) -> BTreeSet<&str> {
    s.split(',').filter(|x| !x.is_empty()).collect()
}

/// The words that make a name a router's product (`task` `router`).
const ROUTER_WORDS: &[&str] = &["router", "auto"];

/// Whether a name or id has a router word (`Auto Router`, `model-router`, `kilo-auto/free`),
/// or a source's family says routing (models.dev's `auto`): a router's product.
pub fn names_router(text: &str, family: Option<&str>) -> bool {
    family == Some("auto")
        || text
            .to_ascii_lowercase()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| ROUTER_WORDS.contains(&w))
}

/// What a model is for.
pub fn task(m: &model::Model) -> Task {
    let input = split(&m.input_modalities);
    let output = split(&m.output_modalities);
    let name = format!("{} {}", m.slug, m.name).to_lowercase();
    let says = |words: &[&str]| words.iter().any(|w| name.contains(w));
    let named: Vec<&str> = name.split(|c: char| !c.is_ascii_alphanumeric()).collect();
    let word = |words: &[&str]| named.iter().any(|w| words.contains(w));
    if names_router(&name, m.family.as_deref()) {
        Task::Router
    } else if says(&["rerank"]) {
        Task::Rerank
    } else if says(&["embed"])
        || m.slug.starts_with("voyage-")
        || word(&["bge", "e5", "gte", "minilm", "mpnet"])
        || says(&["mini-lm"])
    {
        Task::Embedding
    } else if says(&["moderation", "guard", "safety"]) {
        Task::Moderation
    } else if output.contains("image")
        || says(&[
            "gpt-image",
            "image-generation",
            "stable-diffusion",
            "ming-image",
        ])
    {
        Task::ImageGeneration
    } else if output.contains("video") {
        Task::VideoGeneration
    } else if output.contains("audio") && !output.contains("text")
        || named.iter().any(|w| w.ends_with("tts"))
    {
        Task::TextToSpeech
    } else if says(&["whisper", "transcri", "voxtral"])
        || word(&["asr"])
        || input == BTreeSet::from(["audio"]) && output == BTreeSet::from(["text"])
        || input.contains("audio") && output == BTreeSet::from(["text"]) && says(&["speech", "stt"])
    {
        Task::SpeechToText
    } else if named.iter().any(|w| w.ends_with("ocr")) || word(&["gliner", "distilbert"]) {
        Task::Other
    } else {
        Task::Chat
    }
}

/// The chat product whose bots are named by their authors, not by the models' creators.
const POE: &str = "poe";

/// Sets every model's task and availability.
pub fn apply(s: &mut Snapshot) {
    let offered: BTreeSet<&str> = s.offerings.iter().map(|o| o.model_slug.as_str()).collect();
    let availability: Vec<Availability> = s
        .models
        .iter()
        .map(|m| {
            if offered.contains(m.slug.as_str()) {
                Availability::Api
            } else if m.open_source == Some(true) {
                Availability::OpenWeights
            } else {
                Availability::Research
            }
        })
        .collect();
    for (m, a) in s.models.iter_mut().zip(availability) {
        m.availability = a;
        m.task = task(m);
        // An embedding or a reranker writes no tokens: what sources put in its output limit
        // is the vector's dimensions (1,536 for `text-embedding-3-small`), never served as
        // tokens (docs/data.md, "Witnesses and votes").
        if matches!(m.task, Task::Embedding | Task::Rerank) {
            m.max_output_tokens = None;
        }
        // A generator its name alone makes one makes what it generates: images
        // (`ming-image-0.1-design`, which no source gives modalities), speech
        // (a `-tts` model no entry says makes audio); its
        // category follows (docs/data.md, "Witnesses and votes").
        let made = match m.task {
            Task::ImageGeneration => Some("image"),
            Task::TextToSpeech => Some("audio"),
            _ => None,
        };
        if let Some(made) = made.filter(|k| !split(&m.output_modalities).contains(k)) {
            let mut output = split(&m.output_modalities);
            output.insert(made);
            m.output_modalities = output.into_iter().collect::<Vec<_>>().join(",");
        }
        m.category = super::catalog::category(
            &split(&m.input_modalities)
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>(),
            &split(&m.output_modalities)
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>(),
        );
    }
    // A general release is sold somewhere other than as a bot of Poe's, whose names are
    // Poe's own (`openai/gpt-4o-search` is no release of OpenAI's).
    let sold: BTreeSet<String> = s
        .offerings
        .iter()
        .filter(|o| o.provider_slug != POE)
        .map(|o| o.model_slug.clone())
        .collect();
    // The release may be named by an alias of its snapshot (`qwen3-max` is Alibaba's
    // `qwen3-max-2026-01-23`).
    let alias: BTreeMap<&str, &str> = s
        .aliases
        .iter()
        .map(|a| (a.alias.as_str(), a.model_slug.as_str()))
        .collect();
    // (A release out before the preview is no successor of it: the alias may name an older
    // snapshot, `gemini-1.5-flash` beside August's `gemini-1.5-flash-exp-0827`.)
    let released: BTreeMap<&str, &str> = s
        .models
        .iter()
        .filter_map(|m| Some((m.slug.as_str(), m.release_date.as_deref()?)))
        .collect();
    let releases: Vec<Option<String>> = s
        .models
        .iter()
        .map(|m| {
            let ga = general_release(&m.slug)?;
            if sold.contains(&ga) {
                return Some(ga);
            }
            let ga = alias.get(ga.as_str())?.to_string();
            let earlier = released
                .get(ga.as_str())
                .zip(m.release_date.as_deref())
                .is_some_and(|(g, p)| *g < p);
            (sold.contains(&ga) && ga != m.slug && !earlier).then_some(ga)
        })
        .collect();
    for (m, ga) in s.models.iter_mut().zip(releases) {
        m.superseded_by = ga;
    }
}

/// The general release an experimental or preview model's slug names: the slug without its
/// `-exp`/`-preview` word and the date that follows it (`gemini-2.5-pro-exp-03-25` →
/// `gemini-2.5-pro`, `gemini-3-pro-image-preview` → `gemini-3-pro-image`); what else the
/// slug says stays (`gemini-2.5-flash-preview-tts` → `gemini-2.5-flash-tts`, a TTS model).
pub fn general_release(slug: &str) -> Option<String> {
    let words: Vec<&str> = slug.split('-').collect();
    let at = words
        .iter()
        .position(|w| entity::model::PREVIEW_WORDS.contains(w))?;
    let mut rest = at + 1;
    while words
        .get(rest)
        .is_some_and(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
    {
        rest += 1;
    }
    let ga: Vec<&str> = words[..at].iter().chain(&words[rest..]).copied().collect();
    (at > 0).then(|| ga.join("-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_names_its_general_release() {
        assert_eq!(
            general_release("gemini-2.5-pro-exp-03-25").as_deref(),
            Some("gemini-2.5-pro")
        );
        assert_eq!(
            general_release("gemini-2.5-flash-preview-tts").as_deref(),
            Some("gemini-2.5-flash-tts")
        );
        assert_eq!(
            general_release("gemini-3-pro-image-preview").as_deref(),
            Some("gemini-3-pro-image")
        );
        assert_eq!(general_release("gpt-5.5"), None);
        assert_eq!(general_release("preview"), None);
    }

    /// The task's name, as the cases below write it.
    fn task(m: &model::Model) -> &'static str {
        super::task(m).as_str()
    }

    fn m(slug: &str, input: &str, output: &str) -> model::Model {
        let mut x = crate::ingest::catalog::blank_model(slug);
        x.input_modalities = input.into();
        x.output_modalities = output.into();
        x
    }

    #[test]
    fn tasks_follow_outputs_and_names() {
        assert_eq!(task(&m("gpt-4o", "image,text", "text")), "chat");
        assert_eq!(
            task(&m("text-embedding-3-large", "text", "text")),
            "embedding"
        );
        assert_eq!(task(&m("rerank-v3.5", "text", "text")), "rerank");
        assert_eq!(task(&m("llama-guard-4", "text", "text")), "moderation");
        assert_eq!(task(&m("dall-e-3", "text", "image")), "image_generation");
        assert_eq!(
            task(&m("gemini-2.5-flash-image", "image,text", "image,text")),
            "image_generation"
        );
        assert_eq!(task(&m("veo-3", "text", "video")), "video_generation");
        assert_eq!(
            task(&m("gpt-4o-mini-tts", "text", "audio")),
            "text_to_speech"
        );
        assert_eq!(task(&m("whisper-1", "audio", "text")), "speech_to_text");
        // A TTS name is a TTS model even where a source lists text output only.
        assert_eq!(task(&m("melotts", "text", "text")), "text_to_speech");
        // Products that pick a model per request, whatever they output.
        let mut auto = m("auto", "image,text", "image,text");
        auto.name = "Auto Router".into();
        assert_eq!(task(&auto), "router");
        assert_eq!(task(&m("model-router", "text", "text")), "router");
        assert_eq!(task(&m("autoglm-phone-9b", "image,text", "text")), "chat");
        assert_eq!(
            task(&m("gpt-4o-audio-preview", "audio,text", "audio,text")),
            "chat"
        );
        // Sources list text in and out for these: the name decides.
        for (slug, want) in [
            ("voyage-3", "embedding"),
            ("voyage-context-3", "embedding"),
            ("bge-m3", "embedding"),
            ("e5-large-v2", "embedding"),
            ("gte-large-en-v1.5", "embedding"),
            ("all-mini-lm-l6-v2", "embedding"),
            ("gpt-transcribe", "speech_to_text"),
            ("voxtral-mini-3b-2507", "speech_to_text"),
            ("gpt-image-2.5-flare", "image_generation"),
            ("mistral-ocr-2505", "other"),
            ("paddleocr-vl-1.5", "other"),
            ("gliner-pii", "other"),
            ("gemma-3n-e4b-it", "chat"),
            ("qwen3.5-397b-a17b", "chat"),
        ] {
            assert_eq!(task(&m(slug, "text", "text")), want, "{slug}");
        }
    }

    #[test]
    fn availability_follows_offerings_then_weights() {
        let mut s = Snapshot::default();
        let mut open = m("open-one", "text", "text");
        open.open_source = Some(true);
        s.models = vec![
            m("sold", "text", "text"),
            open,
            m("paper-row", "text", "text"),
        ];
        s.offerings.push(entity::offering::Model {
            id: 1,
            model_slug: "sold".into(),
            provider_slug: "p".into(),
            provider_model_id: "sold".into(),
            input_price: None,
            output_price: None,
            cache_read_price: None,
            cache_write_price: None,
            tiers: None,
            unit_prices: None,
            variants: None,
            upcoming: None,
            regions: None,
            sources: None,
            disputed: false,
            deprecation_date: None,
            context_window: None,
            as_of: None,
            source: "t".into(),
            kind: entity::vocab::OfferingKind::Reseller,
        });
        apply(&mut s);
        let got: Vec<&str> = s.models.iter().map(|m| m.availability.as_str()).collect();
        assert_eq!(got, ["api", "open_weights", "research"]);
        assert!(s.models.iter().all(|m| m.task == Task::Chat));
    }
}
