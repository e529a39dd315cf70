//! LiteLLM's model cost map (`model_prices_and_context_window.json`): the price list most
//! gateways bill by. Its keys are the ids people type into gateways, resolved by the usual
//! identity rules; its `litellm_provider` names the provider in the reviewed table
//! `data/litellm_providers.csv` (entries at providers the table leaves out are not read as
//! offerings).
//!
//! Each entry is two things:
//! - a witness of the model ([`Witness`]): the mode it is served in, the deprecation date
//!   its provider announced, whether the API takes a response schema;
//! - an offering at its provider ([`Offer`]), with per-token prices per 1M, long-context
//!   tiers, batch/flex/priority variants and prices in other units ([`prices`]). An entry for
//!   one region (`bedrock/eu-central-1/…`, `azure/eu/…`) prices that region of the
//!   provider's offering; per-size entries of an image model (`azure/hd/1024-x-1792/dall-e-3`)
//!   are one offering's per-image prices ([`keys`]).
//!
//! An offer names a model of its own only at the model's creator's API; elsewhere it joins a
//! model another source (or the creator's own entry) lists.

pub mod history;
pub mod join;
pub mod keys;
pub mod prices;

use std::collections::BTreeMap;
use std::path::Path;

use entity::vocab::{ProviderKind, Task};
use serde_json::Value;

use super::{Collected, Meta, Source, Upstream};
use crate::ingest::{IngestError, ModelRecord, Report, names, read_json};

pub const SOURCE: &str = "litellm";
/// The day the bundled release (1.108.0) was built.
pub const AS_OF: &str = "2026-11-04";

/// Releases whose copies an archive may name by version rather than by day
/// (`archive/litellm/1.104.0/`), with the day each was built.
pub const RELEASES: &[(&str, &str)] = &[("1.104.0", "2026-10-03"), ("1.108.0", AS_OF)];

/// The observation day an archive directory names: a day, or a known release.
pub fn day_of_copy(dir: &str) -> Option<String> {
    if chrono::NaiveDate::parse_from_str(dir, "%Y-%m-%d").is_ok() {
        return Some(dir.to_string());
    }
    RELEASES
        .iter()
        .find(|(release, _)| *release == dir)
        .map(|(_, day)| (*day).to_string())
}
const FILE: &str = "model_prices_and_context_window.json";

/// The reviewed map from `litellm_provider` to provider slugs.
const PROVIDERS_CSV: &str = include_str!("../../../../data/litellm_providers.csv");

/// What LiteLLM says about one of its entries.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Witness {
    /// Its key, as gateways take it (`claude-sonnet-4-5`, `voyage/voyage-3`).
    pub raw_id: String,
    /// The provider slug its `litellm_provider` maps to, where the table knows it.
    pub provider: Option<String>,
    /// `chat`, `embedding`, `rerank`, `audio_transcription`, `audio_speech`,
    /// `image_generation`, `video_generation`, `moderation`, `completion`, ...
    pub mode: Option<String>,
    /// `YYYY-MM-DD` the provider stops serving it.
    pub deprecation_date: Option<String>,
    /// `supports_response_schema`.
    pub structured_output: Option<bool>,
}

/// Whether the entry is a chat model at its creator's own API under a fixed id (not a
/// floating `…-latest`, not a fine-tune's `ft:` price): one the catalogue should know.
pub fn names_an_own_chat_model(w: &Witness) -> bool {
    let id = w.raw_id.to_ascii_lowercase();
    let key = names::parse(&w.raw_id).key;
    w.mode.as_deref() == Some("chat")
        && !id.ends_with("latest")
        && !id.starts_with("ft:")
        && w.provider.as_deref().is_some_and(|p| {
            crate::ingest::prices::Tables::shared()
                .is_first_party(names::creator_for(None, &key), p)
        })
}

/// One entry read as a price at its provider.
#[derive(Debug, Clone)]
pub struct Offer {
    /// The priced record (provider set, prices with their variants).
    pub record: ModelRecord,
    /// The region the price is for; `None` for the provider's general price.
    pub region: Option<String>,
    /// `YYYY-MM-DD` the provider stops serving it.
    pub deprecation_date: Option<String>,
    /// At the model's creator's own API, under an id with a version: the entry may name a
    /// model no other source lists.
    pub first_party: bool,
}

/// A regional price of an offering, as LiteLLM states it.
pub type Regional = entity::offering::RegionalPrice;

/// What the dataset is (its row of the sources table).
pub const META: Meta = Meta {
    slug: SOURCE,
    name: "LiteLLM model cost map",
    repository: "BerriAI/litellm",
    commit: "1.108.0",
    snapshot_date: AS_OF,
    license: "MIT",
    names_models: false,
};

pub struct LiteLlm;

impl Source for LiteLlm {
    fn meta(&self) -> Meta {
        META
    }

    fn upstream(&self) -> Upstream {
        Upstream {
            base: "https://raw.githubusercontent.com/BerriAI/litellm/main/",
            files: |_| vec![FILE.into()],
        }
    }

    fn read(
        &self,
        dir: &Path,
        into: &mut Collected,
        report: &mut Report,
    ) -> Result<(), IngestError> {
        let copy = read_copy(&dir.join(SOURCE), AS_OF, report)?;
        into.witnesses.extend(copy.witnesses);
        into.offers.extend(copy.offers);
        into.described.extend(copy.described);
        Ok(())
    }
}

/// What one copy of the cost map says.
#[derive(Debug, Default)]
pub struct Copy {
    pub witnesses: Vec<Witness>,
    pub offers: Vec<Offer>,
    /// Entries that price nothing, read for what they state about the model only.
    pub described: Vec<ModelRecord>,
}

/// Reads one copy of the source in its own layout (`<copy>/model_prices_and_context_window.json`):
/// the current one, or an earlier one under `archive/litellm/<day or release>/`; its prices
/// are as of `day`.
pub fn read_copy(copy: &Path, day: &str, report: &mut Report) -> Result<Copy, IngestError> {
    let data = read_json(&copy.join(FILE))?;
    let entries = data
        .as_object()
        .ok_or_else(|| IngestError::parse(&Path::new(SOURCE).join(FILE), "not a JSON object"))?;
    let providers = providers();
    // Route prefixes: every provider name and its first word (`vertex_ai`).
    let routes: std::collections::BTreeSet<&str> = entries
        .values()
        .filter_map(|e| e.get("litellm_provider").and_then(Value::as_str))
        .flat_map(|p| [p, p.split('-').next().unwrap_or(p)])
        .collect();
    let is_route = |s: &str| routes.contains(s);
    let mut out = Copy::default();
    // Per-size entries of an image model, by (provider, id): gathered into one offer.
    type Sizes<'a> = BTreeMap<String, &'a serde_json::Map<String, Value>>;
    let mut images: BTreeMap<(String, String), Sizes> = BTreeMap::new();
    for (key, e) in entries {
        // The file's own description of its fields.
        if key == "sample_spec" {
            continue;
        }
        report.read(SOURCE);
        let text = |field: &str| e.get(field).and_then(Value::as_str).map(str::to_string);
        let litellm_provider = text("litellm_provider").unwrap_or_default();
        let provider = providers.get(&litellm_provider).cloned();
        let deprecation_date = text("deprecation_date")
            .filter(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_ok());
        out.witnesses.push(Witness {
            raw_id: key.clone(),
            provider: provider.clone(),
            mode: text("mode"),
            deprecation_date: deprecation_date.clone(),
            structured_output: e.get("supports_response_schema").and_then(Value::as_bool),
        });
        let (Some(provider), Some(entry)) = (provider, e.as_object()) else {
            continue;
        };
        if entry.contains_key("input_cost_per_token") && prices::tokens_unstated(entry) {
            report.rule("units: media entries' per-token prices not read", 1);
        }
        let key = keys::parse(key, &litellm_provider, &is_route);
        // A floating alias (`gemini-pro-latest`) follows whichever model is newest: its
        // price is no price of the model its name resembles.
        if key.commitment || key.id.is_empty() || key.id.ends_with("-latest") {
            continue;
        }
        if let Some(option) = key.image {
            images
                .entry((provider, key.id))
                .or_default()
                .insert(option, entry);
            continue;
        }
        let priced = prices::of(entry);
        let Some(mut offer) = offer(&key.id, &provider, entry, day) else {
            if priced.is_some() {
                report.unmatched(SOURCE, &key.id);
            }
            continue;
        };
        let Some((p, variants)) = priced else {
            // An entry that prices nothing still states what the model takes, makes and
            // supports: a witness of its attributes, never an offering (docs/data.md,
            // "Witnesses and votes"). A region's entry repeats its provider's.
            if key.region.is_none() {
                out.described.push(offer.record);
            }
            continue;
        };
        offer.record.prices = Some(crate::ingest::Prices { variants, ..p });
        offer.region = key.region;
        offer.deprecation_date = deprecation_date;
        out.offers.push(offer);
    }
    for ((provider, id), sizes) in images {
        let per_image = prices::per_image(&sizes);
        // Beside the model's own entry (token prices), its per-image prices join it.
        let own = out.offers.iter_mut().find(|o| {
            o.region.is_none()
                && o.record.raw_id == id
                && o.record.provider.as_deref() == Some(provider.as_str())
        });
        if let Some(own) = own {
            if let Some(p) = own.record.prices.as_mut() {
                p.unit_prices.extend(per_image);
            }
            continue;
        }
        let Some(mut offer) = offer(&id, &provider, &serde_json::Map::new(), day) else {
            continue;
        };
        offer.record.prices = Some(crate::ingest::Prices {
            unit_prices: per_image,
            ..crate::ingest::Prices::default()
        });
        out.offers.push(offer);
    }
    Ok(out)
}

/// The record of an entry with id `id` (its key without route, region or image options) at
/// `provider`, before its prices; `None` when the id names no model.
fn offer(id: &str, provider: &str, e: &serde_json::Map<String, Value>, day: &str) -> Option<Offer> {
    let parsed = names::parse(id);
    if parsed.key.is_empty() || names::is_fine_tune_price(id) {
        return None;
    }
    let tables = crate::ingest::prices::Tables::shared();
    let own = tables
        .creators
        .values()
        .find(|c| c.first_party.iter().any(|p| p == provider))
        .map(|c| c.slug.clone());
    // Only an id that names its maker (`gpt-…` at OpenAI, not Azure's `fw-deepseek-…`) is
    // a model of the creator's own API.
    let named = names::creator_for(parsed.vendor.as_deref(), &parsed.key).map(str::to_string);
    // A product name without a version (`rerank`, `grok-build`, `mistral-vibe-cli`) is
    // a feature of the API, not a model to list.
    // A run configuration (`…-thinking`, `…-high`) is a setting of a model, not one.
    let configured = crate::ingest::identities::CONFIG_SUFFIXES
        .iter()
        .any(|c| parsed.key.ends_with(c));
    // The version may be the id's own marker, which the key drops
    // (`amazon.titan-text-premier-v1:0`), after a name of two words at least (a bare
    // `rerank-v3.5` is a feature); a region's path before it is no version. A preview is a
    // release of its own (`claude-mythos-preview`). So is a size after the name, where
    // a lab named its models by size alone (Perplexity's 2024 `sonar-small-chat`): such a
    // model of unknown age is undated, not new (docs/data.md, "New and first seen").
    let sized = parsed
        .key
        .split('-')
        .skip(1)
        .any(|w| matches!(w, "small" | "medium" | "large"));
    let versioned = parsed.key.bytes().any(|b| b.is_ascii_digit())
        || sized
        || parsed.key.contains('-')
            && (parsed.key.ends_with("-preview")
                || id
                    .rsplit('/')
                    .next()
                    .is_some_and(|last| last.bytes().any(|b| b.is_ascii_digit())));
    let first_party = own.is_some() && own == named && versioned && !configured;
    // A host never becomes a creator: a cloud's, router's or plan's entry whose id names no
    // maker (`azure_ai/flux.2-pro`) credits nobody; a lab's own API credits the lab
    // (docs/data.md, "Creators").
    let host = matches!(
        tables.provider_kind(provider),
        ProviderKind::Cloud | ProviderKind::Router | ProviderKind::Plan
    );
    let creator = named.or(own.filter(|_| !host));
    let mut record = ModelRecord {
        source: SOURCE,
        provider: Some(provider.to_string()),
        raw_id: id.to_string(),
        // Below every seller of the other sources: a gateway's price list names no model
        // better than its maker's own listing does.
        rank: 4,
        creator,
        as_of: Some(day.to_string()),
        parsed: Some(parsed),
        ..ModelRecord::default()
    };
    describe(e, &mut record);
    Some(Offer {
        record,
        region: None,
        deprecation_date: None,
        first_party,
    })
}

/// Modes whose product is no text token (a vector, a score, an image, a video, speech):
/// their entries' output limits are no model's output limit.
const NO_TEXT_OUT: [&str; 8] = [
    "embedding",
    "rerank",
    "moderation",
    "image_generation",
    "image_edit",
    "video_generation",
    "audio_speech",
    "search",
];

/// Reads what an entry states about the model besides its prices into `r`: the context
/// window (`max_input_tokens`) and output limit (`max_output_tokens`, else a `max_tokens`
/// other than the input limit: the file's `sample_spec` says `max_tokens` is the output
/// limit where the provider states one, else the input limit; not for an entry whose mode
/// makes no text, [`NO_TEXT_OUT`]), the modalities it lists (`supported_modalities`,
/// `supported_output_modalities`, each read as a flag per modality it can name), the ones its
/// flags and its mode state one at a time (`supports_vision`, `supports_pdf_input`,
/// `supports_audio_input`, `supports_video_input`, `supports_audio_output`; `mode:
/// video_generation` makes video and no text), its capabilities (`supports_reasoning`,
/// `supports_function_calling`, `supports_response_schema`) and the task its mode names.
/// Each is a witness in the vote (docs/data.md, "Witnesses and votes").
pub fn describe(e: &serde_json::Map<String, Value>, r: &mut ModelRecord) {
    let flag = |field: &str| e.get(field).and_then(Value::as_bool);
    let tokens = |field: &str| e.get(field).and_then(Value::as_i64).filter(|n| *n > 0);
    let mode = e.get("mode").and_then(Value::as_str);
    r.context = tokens("max_input_tokens");
    // An embedding's or an image's entry states no output limit worth the name.
    r.max_output = tokens("max_output_tokens")
        .or_else(|| tokens("max_tokens").filter(|n| r.context.is_some_and(|c| c != *n)))
        .filter(|_| !NO_TEXT_OUT.contains(&mode.unwrap_or("")));
    r.reasoning = flag("supports_reasoning");
    r.tool_call = flag("supports_function_calling");
    r.structured_output = flag("supports_response_schema");
    let list = |field: &str| {
        let mut out: Vec<String> = e
            .get(field)?
            .as_array()?
            .iter()
            .filter_map(Value::as_str)
            // Code is text.
            .map(|m| match m.to_lowercase().as_str() {
                "code" => "text".to_string(),
                other => other.to_string(),
            })
            .collect();
        out.sort();
        out.dedup();
        (!out.is_empty()).then_some(out)
    };
    // A flag the entry states first; what its lists say next; what its mode implies where
    // neither says.
    let say = |flags: &mut Vec<(String, bool)>, m: &str, taken: bool| {
        if !flags.iter().any(|(x, _)| x == m) {
            flags.push((m.to_string(), taken));
        }
    };
    let (listed_in, listed_out) = (
        list("supported_modalities"),
        list("supported_output_modalities"),
    );
    let mut input = Vec::new();
    for (field, m) in [
        ("supports_vision", "image"),
        ("supports_audio_input", "audio"),
        ("supports_video_input", "video"),
        ("supports_pdf_input", "pdf"),
    ] {
        if let Some(taken) = flag(field) {
            say(&mut input, m, taken);
        }
    }
    if flag("supports_embedding_image_input") == Some(true) {
        say(&mut input, "image", true);
    }
    // A price per unit of a medium in says the model takes it (Google's
    // `gemini-embedding-2-preview`: `input_cost_per_video_token`).
    for (fields, m) in [
        (
            &["input_cost_per_image", "input_cost_per_image_token"][..],
            "image",
        ),
        (
            &[
                "input_cost_per_audio_token",
                "input_cost_per_audio_per_second",
            ][..],
            "audio",
        ),
        (
            &[
                "input_cost_per_video_token",
                "input_cost_per_video_per_second",
            ][..],
            "video",
        ),
    ] {
        // (A generator's image prices in are often its price per image made.)
        let generator = matches!(mode, Some("image_generation" | "video_generation"));
        let priced = fields
            .iter()
            .filter(|_| !(generator && m == "image"))
            .any(|f| e.get(*f).and_then(Value::as_f64).is_some_and(|p| p > 0.0));
        if priced {
            say(&mut input, m, true);
        }
    }
    let mut output = Vec::new();
    if let Some(made) = flag("supports_audio_output") {
        say(&mut output, "audio", made);
    }
    // What a mode implies stands only where the entry lists no set for that side (Gemini's
    // image models list text among what they make; DALL-E's entries list nothing).
    let mut implied_in = Vec::new();
    let mut implied_out = Vec::new();
    if let Some(mode) = mode {
        let (input, output) = (&mut implied_in, &mut implied_out);
        match mode {
            "image_generation" => {
                say(output, "image", true);
                say(output, "text", false);
            }
            "image_edit" => {
                say(input, "image", true);
                say(output, "image", true);
                say(output, "text", false);
            }
            "video_generation" => {
                say(output, "video", true);
                say(output, "text", false);
            }
            "audio_speech" => {
                say(output, "audio", true);
                say(output, "text", false);
            }
            "audio_transcription" => {
                say(input, "audio", true);
                say(output, "text", true);
            }
            "realtime" => {
                say(input, "audio", true);
                say(output, "audio", true);
                say(output, "text", true);
            }
            "chat" | "completion" | "responses" => say(output, "text", true),
            // A reader of documents takes their pages as images and PDFs.
            "ocr" => {
                say(input, "image", true);
                say(input, "pdf", true);
                say(output, "text", true);
            }
            _ => {}
        }
        // Every mode but transcription and OCR takes a text prompt.
        if !matches!(mode, "audio_transcription" | "ocr") {
            say(input, "text", true);
        }
        r.task = task_of_mode(mode).or(matches!(
            mode,
            "chat" | "completion" | "responses" | "realtime"
        )
        .then_some(Task::Chat));
    }
    // The lists speak of text, images, audio and video only (a PDF is the
    // `supports_pdf_input` flag's), so they are read as a flag for each of those.
    for (listed, flags, implied) in [
        (listed_in, &mut input, implied_in),
        (listed_out, &mut output, implied_out),
    ] {
        match listed {
            Some(listed) => {
                // A flag its own list contradicts (Google's `gemini-2.5-pro-preview-tts`:
                // `supports_audio_output: false`, audio its one listed output) leaves the
                // entry saying nothing of that modality.
                let lists = |m: &str| listed.iter().any(|x| x == m);
                let said: Vec<String> = flags.iter().map(|(m, _)| m.clone()).collect();
                flags.retain(|(m, taken)| {
                    !["text", "image", "audio", "video"].contains(&m.as_str()) || *taken == lists(m)
                });
                for m in ["text", "image", "audio", "video"] {
                    if !said.iter().any(|x| x == m) {
                        say(flags, m, lists(m));
                    }
                }
            }
            None => {
                for (m, taken) in implied {
                    say(flags, &m, taken);
                }
            }
        }
    }
    r.input_flags = input;
    r.output_flags = output;
}

fn providers() -> BTreeMap<String, String> {
    PROVIDERS_CSV
        .lines()
        .skip(1)
        .filter_map(|l| {
            let (from, to) = l.split_once(',')?;
            Some((from.trim().to_string(), to.trim().to_string()))
        })
        .collect()
}

/// Sets what LiteLLM says of the resolved offerings at its providers: the deprecation date
/// (the entry with the offering's own id, else the last of the model's entries there when
/// every one has a date) and the regional prices (one per region, the entry with the
/// offering's id first, else the shortest id).
pub fn apply_offers(
    offers: &[Offer],
    resolved: &crate::ingest::Resolved,
    offerings: &mut [entity::offering::Model],
) {
    type At<'a> = BTreeMap<(&'a str, &'a str), Vec<&'a Offer>>;
    let mut at: At = BTreeMap::new();
    for o in offers {
        let named = o.record.parsed.as_ref().map(|p| p.slug.as_str());
        let slug = named
            .and_then(|n| resolved.lookup(n))
            .or_else(|| resolved.lookup(&o.record.raw_id));
        let (Some(slug), Some(provider)) = (slug, o.record.provider.as_deref()) else {
            continue;
        };
        at.entry((slug, provider)).or_default().push(o);
    }
    for off in offerings.iter_mut() {
        let Some(found) = at.get(&(off.model_slug.as_str(), off.provider_slug.as_str())) else {
            continue;
        };
        let general: Vec<&&Offer> = found.iter().filter(|o| o.region.is_none()).collect();
        let stated = general
            .iter()
            .find(|o| o.record.raw_id == off.provider_model_id)
            .map(|o| o.deprecation_date.clone())
            .unwrap_or_else(|| {
                if general.iter().all(|o| o.deprecation_date.is_some()) {
                    general
                        .iter()
                        .filter_map(|o| o.deprecation_date.clone())
                        .max()
                } else {
                    None
                }
            });
        // The served source's word that the sale ended stands beside LiteLLM's date: the
        // earlier is the day the provider stops serving it.
        off.deprecation_date = match (off.deprecation_date.take(), stated) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut regions: BTreeMap<&str, &Offer> = BTreeMap::new();
        for o in found {
            let Some(region) = o.region.as_deref() else {
                continue;
            };
            let rank = |o: &Offer| (o.record.raw_id.len(), o.record.raw_id.clone());
            if regions.get(region).is_none_or(|cur| rank(o) < rank(cur)) {
                regions.insert(region, o);
            }
        }
        let regions: Vec<Regional> = regions
            .into_iter()
            .filter_map(|(region, o)| {
                let p = o.record.prices.as_ref()?;
                Some(Regional {
                    region: region.to_string(),
                    input_price: p.input,
                    output_price: p.output,
                    cache_read_price: p.cache_read,
                    cache_write_price: p.cache_write,
                })
            })
            .collect();
        off.regions = Regional::encode(&regions);
    }
}

/// The task a LiteLLM mode names, where it is not conversation.
pub fn task_of_mode(mode: &str) -> Option<Task> {
    Some(match mode {
        "embedding" => Task::Embedding,
        "rerank" => Task::Rerank,
        "audio_transcription" => Task::SpeechToText,
        "audio_speech" => Task::TextToSpeech,
        "image_generation" | "image_edit" => Task::ImageGeneration,
        "video_generation" => Task::VideoGeneration,
        "moderation" | "moderations" => Task::Moderation,
        // A reader or an extractor, not a conversation; nor is a judge that scores or
        // decides on what it is given (`evaluation`: Cloudflare's `clef`, Perplexity's
        // `pplx-decider`).
        "ocr" | "extraction" | "evaluation" => Task::Other,
        _ => return None,
    })
}

/// What LiteLLM witnessed about each resolved model (by slug).
pub type ByModel = BTreeMap<String, Vec<Witness>>;

/// Clouds run by a creator, whose entries state that creator's models' lifecycle (not
/// their prices: a cloud's price is its own, docs/data.md "Lifecycle").
const OWN_CLOUDS: &[(&str, &str)] = &[("google", "google-vertex")];

/// Applies the witnesses to the built models: a non-conversational mode the creator's own
/// entry gives (or every entry agrees on) sets a `chat` model's task; structured-output
/// support fills a gap; the creator's deprecation date, the last any of its entries for the
/// model states, is the model's, and a model whose date is not after `today` is retired.
pub fn apply(
    by_model: &ByModel,
    models: &mut [entity::model::Model],
    creators: &BTreeMap<String, crate::ingest::prices::Creator>,
    today: &str,
) {
    for m in models.iter_mut() {
        let Some(seen) = by_model.get(&m.slug) else {
            continue;
        };
        let own = |w: &&Witness| {
            let (Some(p), Some(c)) = (w.provider.as_deref(), m.creator_slug.as_deref()) else {
                return false;
            };
            p == c
                || creators
                    .get(c)
                    .is_some_and(|c| c.first_party.iter().any(|f| f == p))
        };
        let first_party: Vec<&Witness> = seen.iter().filter(own).collect();
        let modes: Vec<&str> = seen.iter().filter_map(|w| w.mode.as_deref()).collect();
        let mode = first_party
            .iter()
            .find_map(|w| w.mode.as_deref())
            .or_else(|| {
                modes
                    .first()
                    .copied()
                    .filter(|f| modes.iter().all(|x| x == f))
            });
        if m.task == Task::Chat
            && let Some(task) = mode.and_then(task_of_mode)
        {
            m.task = task;
        }
        if m.structured_output.is_none() {
            m.structured_output = first_party
                .iter()
                .chain(seen.iter().collect::<Vec<_>>().iter())
                .find_map(|w| w.structured_output);
        }
        // Any of the creator's own entries for the model that states a date, dated ids
        // included: OpenAI dates `gpt-5-2025-08-07` (2026-12-11) and leaves the undated
        // `gpt-5` undated; an entry without a date states nothing (docs/data.md,
        // "Lifecycle").
        // A lab's own cloud retires the lab's models too: Google dates Gemini's end on
        // Vertex (`vertex_ai/gemini-3.6-flash`, 2026-11-19) and not on the Gemini API.
        let own_cloud = |w: &&Witness| {
            OWN_CLOUDS.iter().any(|(c, cloud)| {
                m.creator_slug.as_deref() == Some(*c) && w.provider.as_deref() == Some(*cloud)
            })
        };
        if let Some(date) = first_party
            .iter()
            .copied()
            .chain(seen.iter().filter(own_cloud))
            .filter_map(|w| w.deprecation_date.clone())
            .max()
        {
            m.retired = date.as_str() <= today;
            m.deprecated = true;
            m.deprecation_date = Some(date);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_provider_table_maps_the_creators_apis() {
        let p = providers();
        assert_eq!(p.get("openai").map(String::as_str), Some("openai"));
        assert_eq!(p.get("gemini").map(String::as_str), Some("google"));
        assert_eq!(p.get("voyage").map(String::as_str), Some("voyageai"));
    }

    #[test]
    fn modes_that_are_not_conversation_are_tasks() {
        assert_eq!(task_of_mode("embedding"), Some(Task::Embedding));
        assert_eq!(
            task_of_mode("audio_transcription"),
            Some(Task::SpeechToText)
        );
        assert_eq!(task_of_mode("chat"), None);
        assert_eq!(task_of_mode("responses"), None);
    }
}
