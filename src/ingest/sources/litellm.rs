//! LiteLLM's model cost map (`model_prices_and_context_window.json`), read as a witness: what
//! it says about models the other sources list — the mode it serves them in, the deprecation
//! date a provider announced, whether the API takes a response schema — never a model or a
//! price of its own (its prices are one witness among several, known to carry stale entries;
//! offering them is issue #23's remaining work). Its keys are the ids people type into
//! gateways, resolved by the usual identity rules; its `litellm_provider` names the provider
//! in `data/litellm_providers.csv` (only the creators' own APIs matter here: a deprecation is
//! a model's when its maker announces it).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::{Collected, Source, Upstream};
use crate::ingest::{IngestError, Report, read_json};

pub const SOURCE: &str = "litellm";
const FILE: &str = "model_prices_and_context_window.json";

/// The reviewed map from `litellm_provider` to provider slugs.
const PROVIDERS_CSV: &str = include_str!("../../../data/litellm_providers.csv");

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

pub struct LiteLlm;

impl Source for LiteLlm {
    fn slug(&self) -> &'static str {
        SOURCE
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
        let data = read_json(&dir.join(SOURCE).join(FILE))?;
        let entries = data
            .as_object()
            .ok_or_else(|| IngestError(format!("{SOURCE}/{FILE}: not a JSON object")))?;
        let providers = providers();
        for (key, e) in entries {
            // The file's own description of its fields.
            if key == "sample_spec" {
                continue;
            }
            report.read(SOURCE);
            let text = |field: &str| e.get(field).and_then(Value::as_str).map(str::to_string);
            into.witnesses.push(Witness {
                raw_id: key.clone(),
                provider: text("litellm_provider").and_then(|p| providers.get(&p).cloned()),
                mode: text("mode"),
                deprecation_date: text("deprecation_date")
                    .filter(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_ok()),
                structured_output: e.get("supports_response_schema").and_then(Value::as_bool),
            });
        }
        Ok(())
    }
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

/// The task a LiteLLM mode names, where it is not conversation.
pub fn task_of_mode(mode: &str) -> Option<&'static str> {
    Some(match mode {
        "embedding" => "embedding",
        "rerank" => "rerank",
        "audio_transcription" => "speech_to_text",
        "audio_speech" => "text_to_speech",
        "image_generation" | "image_edit" => "image_generation",
        "video_generation" => "video_generation",
        "moderation" | "moderations" => "moderation",
        _ => return None,
    })
}

/// What LiteLLM witnessed about each resolved model (by slug).
pub type ByModel = BTreeMap<String, Vec<Witness>>;

/// Applies the witnesses to the built models: a non-conversational mode the creator's own
/// entry gives (or every entry agrees on) sets a `chat` model's task; structured-output
/// support fills a gap; the creator's deprecation date, where every one of its entries for
/// the model has one, is the model's (the last of them), and a model whose date is not after
/// `today` is retired.
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
        if m.task == "chat"
            && let Some(task) = mode.and_then(task_of_mode)
        {
            m.task = task.to_string();
        }
        if m.structured_output.is_none() {
            m.structured_output = first_party
                .iter()
                .chain(seen.iter().collect::<Vec<_>>().iter())
                .find_map(|w| w.structured_output);
        }
        if !first_party.is_empty() && first_party.iter().all(|w| w.deprecation_date.is_some()) {
            m.deprecation_date = first_party
                .iter()
                .filter_map(|w| w.deprecation_date.clone())
                .max();
            m.retired = m.deprecation_date.as_deref().is_some_and(|d| d <= today);
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
        assert_eq!(task_of_mode("embedding"), Some("embedding"));
        assert_eq!(task_of_mode("audio_transcription"), Some("speech_to_text"));
        assert_eq!(task_of_mode("chat"), None);
        assert_eq!(task_of_mode("responses"), None);
    }
}
