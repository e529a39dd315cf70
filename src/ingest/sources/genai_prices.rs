//! Adapter for pydantic/genai-prices (`prices/new_data/v2/data.json`): providers, models and
//! their current prices. A tiered price's base is the offering's price and its tiers are
//! kept as long-context tiers; dated constraints are read by [`crate::ingest::history`].

use std::collections::BTreeMap;
use std::path::Path;

use entity::offering::{Tier, UnitPrice, Variant};
use serde_json::Value;

use super::{Collected, Meta, Source, Upstream};
use crate::ingest::catalog::{ProviderMeta, canonical_provider};
use crate::ingest::{IngestError, ModelRecord, Prices, Report, names, read_json};

/// What the dataset is (its row of the sources table).
pub const META: Meta = Meta {
    slug: SOURCE,
    name: "genai-prices",
    repository: "pydantic/genai-prices",
    commit: "0.2.3",
    snapshot_date: AS_OF,
    license: "MIT",
    names_models: false,
};

/// The genai-prices adapter (its live feed; the history is read later).
pub struct GenaiPrices;

impl Source for GenaiPrices {
    fn meta(&self) -> Meta {
        META
    }

    fn upstream(&self) -> Upstream {
        Upstream {
            base: "https://raw.githubusercontent.com/pydantic/genai-prices/main/",
            files: |_| vec![FILE.into()],
        }
    }

    fn read(
        &self,
        dir: &Path,
        into: &mut Collected,
        report: &mut Report,
    ) -> Result<(), IngestError> {
        let data = load(dir)?;
        records(&data, &mut into.records, &mut into.providers, report);
        into.genai_prices = Some(data);
        Ok(())
    }
}

pub const SOURCE: &str = "genai-prices";
/// The live feed (v2), inside the dataset's directory.
const FILE: &str = "prices/new_data/v2/data.json";
/// The day the bundled release (0.2.3) was observed: its newest dated event is 2026-11-09.
/// Prices are as of this day, and a dated price constraint up to it is the current price,
/// unless the ingest is told another observation day (a copy fetched by `mds sync`).
pub const AS_OF: &str = "2026-11-10";

pub fn load(dir: &Path) -> Result<Value, IngestError> {
    load_copy(&dir.join(SOURCE))
}

/// One copy of the source in its own layout (`<copy>/prices/new_data/v2/data.json`): the
/// current one under the raw directory, or an earlier one under `archive/genai-prices/<day>/`.
pub fn load_copy(copy: &Path) -> Result<Value, IngestError> {
    read_json(&copy.join(FILE))
}

/// A price field: a number, or `{"base": n, "tiers": [...]}` (the base tier applies to
/// ordinary prompt sizes).
pub fn price(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Number(n) => n.as_f64(),
        Value::Object(o) => o.get("base").and_then(Value::as_f64),
        _ => None,
    }
}

/// The `(start, price)` tiers of a price field; empty for a plain number.
fn tiers_of(v: Option<&Value>) -> Vec<(i64, f64)> {
    v.and_then(|v| v.get("tiers"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| Some((t.get("start")?.as_i64()?, t.get("price")?.as_f64()?)))
        .collect()
}

pub fn prices_of(p: &Value) -> Prices {
    let fields = [
        "input_mtok",
        "output_mtok",
        "cache_read_mtok",
        "cache_write_mtok",
    ];
    // Each field tiers on its own; a tier row gathers every field's price from that start
    // on (a field without its own tier keeps its base price).
    let mut starts: Vec<i64> = fields
        .iter()
        .flat_map(|f| tiers_of(p.get(*f)))
        .map(|(start, _)| start)
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let at = |field: &str, start: i64| {
        tiers_of(p.get(field))
            .into_iter()
            .filter(|(s, _)| *s <= start)
            .max_by_key(|(s, _)| *s)
            .map(|(_, price)| price)
            .or_else(|| price(p.get(field)))
    };
    let tiers = starts
        .into_iter()
        .map(|start| Tier {
            from_tokens: start,
            input_price: at("input_mtok", start),
            output_price: at("output_mtok", start),
            cache_read_price: at("cache_read_mtok", start),
            cache_write_price: at("cache_write_mtok", start),
        })
        .collect();
    Prices {
        input: price(p.get("input_mtok")),
        output: price(p.get("output_mtok")),
        cache_read: price(p.get("cache_read_mtok")),
        cache_write: price(p.get("cache_write_mtok")),
        tiers,
        unit_prices: UNIT_FIELDS
            .iter()
            .filter_map(|(field, item, unit)| {
                Some(UnitPrice {
                    item: (*item).into(),
                    unit: (*unit).into(),
                    price: price(p.get(*field))?,
                })
            })
            .collect(),
        variants: Vec::new(),
    }
}

/// The feed's prices in other units than text tokens: (field, item, unit). A tiered one
/// keeps its base price.
const UNIT_FIELDS: &[(&str, &str, &str)] = &[
    ("cache_write_1h_mtok", "cache_write_1h", "1M tokens"),
    ("input_audio_mtok", "input_audio", "1M tokens"),
    ("cache_audio_read_mtok", "cache_audio_read", "1M tokens"),
    ("output_audio_mtok", "output_audio", "1M tokens"),
    ("input_image_mtok", "input_image", "1M tokens"),
    ("cache_image_read_mtok", "cache_image_read", "1M tokens"),
    ("output_image_mtok", "output_image", "1M tokens"),
    ("input_video_mtok", "input_video", "1M tokens"),
    ("output_video_mtok", "output_video", "1M tokens"),
    ("output_reasoning_mtok", "output_reasoning", "1M tokens"),
    ("output_citation_mtok", "output_citation", "1M tokens"),
    ("web_searches_kcount", "web_search", "1K searches"),
    ("storage_searches_kcount", "storage_search", "1K searches"),
    ("requests_kcount", "request", "1K requests"),
    // A transcriber's price per hour of audio in (Mistral's Voxtral), a reader's per
    // thousand pages, a translator's per million characters, a classifier's per thousand
    // messages.
    ("input_audio_hours", "input_audio", "hour"),
    ("audio_hours", "input_audio", "hour"),
    ("input_document_kpages", "input_document", "1K pages"),
    (
        "input_annotated_document_kpages",
        "input_annotated_document",
        "1K pages",
    ),
    ("input_mchars", "input", "1M characters"),
    (
        "input_text_messages_kcount",
        "input_text_message",
        "1K messages",
    ),
];

/// The modalities an entry's prices say the model takes and makes: a price per image,
/// audio or video token in (`input_image_mtok`) or out (`output_audio_mtok`), and text
/// beside them where a text-token price stands with one. A price the entry leaves out says
/// nothing (docs/data.md, "Witnesses and votes").
pub fn priced_modalities(p: &Prices) -> (crate::ingest::Flags, crate::ingest::Flags) {
    let kinds = |side: &str| -> crate::ingest::Flags {
        ["image", "audio", "video"]
            .iter()
            .filter(|kind| {
                p.unit_prices
                    .iter()
                    .any(|u| u.item == format!("{side}_{kind}") && u.unit == "1M tokens")
            })
            .map(|kind| ((*kind).to_string(), true))
            .collect()
    };
    let mut input = kinds("input");
    let mut output = kinds("output");
    if !input.is_empty() && p.input.is_some() {
        input.push(("text".into(), true));
    }
    if !output.is_empty() && p.output.is_some() {
        output.push(("text".into(), true));
    }
    (input, output)
}

/// Whether an entry prices audio in by the hour, in any of its price sets.
fn audio_hours(model: &Value) -> bool {
    let priced = |p: &Value| {
        ["input_audio_hours", "audio_hours"]
            .iter()
            .any(|k| p.get(k).is_some_and(|v| !v.is_null()))
    };
    match model.get("prices") {
        Some(Value::Array(list)) => list.iter().filter_map(|e| e.get("prices")).any(priced),
        Some(p) => priced(p),
        None => false,
    }
}

/// Minutes of the day a `HH:MM:SSZ` time stands for.
fn minutes(t: &str) -> Option<i64> {
    let mut it = t.trim_end_matches('Z').split(':');
    let h: i64 = it.next()?.parse().ok()?;
    let m: i64 = it.next()?.parse().ok()?;
    Some(h * 60 + m)
}

/// The entries of a price list gated on a time of day (`constraint.start_time`/`end_time`).
fn windows(list: &[Value]) -> impl Iterator<Item = &Value> {
    list.iter().filter(|e| {
        e.get("constraint").is_some_and(|c| {
            c.get("start_time")
                .and_then(Value::as_str)
                .and_then(minutes)
                .is_some()
                && c.get("end_time")
                    .and_then(Value::as_str)
                    .and_then(minutes)
                    .is_some()
        })
    })
}

/// The peak rate of a list with time-of-day windows: the dearest window. A provider's
/// off-peak hours are a discount on its standard price, whichever way the list is laid out
/// (DeepSeek V3's 16 standard hours as a window and the discount unconstrained; V4's two
/// peak windows and the off-peak rate unconstrained or dated) — docs/data.md, "Price modes".
pub fn peak(model: &Value) -> Option<Prices> {
    let list = model.get("prices")?.as_array()?;
    windows(list)
        .filter_map(|e| e.get("prices").map(prices_of))
        .max_by(|a, b| a.input.unwrap_or(0.0).total_cmp(&b.input.unwrap_or(0.0)))
}

/// `p` unless the list's peak rate is dearer: the standard price of a list with
/// time-of-day windows is its peak rate ([`peak`]).
pub fn at_peak(model: &Value, p: Prices) -> Prices {
    match peak(model) {
        Some(peak) if peak.input.unwrap_or(0.0) > p.input.unwrap_or(0.0) => peak,
        _ => p,
    }
}

/// The off-peak rate of a list with time-of-day windows in effect on `day`: its latest
/// dated entry by then, else its unconstrained one, where cheaper than the peak rate
/// (DeepSeek V4 Pro's 0.66/1.98 beside its peak 1.32/3.96) — an `off_peak` variant of the
/// offering (docs/data.md, "Price modes").
fn off_peak(model: &Value, day: &str) -> Option<Prices> {
    let list = model.get("prices")?.as_array()?;
    let peak = peak(model)?;
    let dated = list
        .iter()
        .filter_map(|e| {
            let start = e.get("constraint")?.get("start_date")?.as_str()?;
            (start <= day).then_some((start, e))
        })
        .max_by_key(|(start, _)| *start)
        .map(|(_, e)| e);
    let entry = dated.or_else(|| list.iter().find(|e| e.get("constraint").is_none()))?;
    let p = prices_of(entry.get("prices")?);
    (p.input? < peak.input?).then_some(p)
}

/// The standard price set of a model entry. `prices` is an object, or a list whose entries
/// may carry a `constraint`: dated constraints are history (see `history`); the
/// unconstrained entry is the standard price, unless time-of-day windows make a dearer
/// peak rate of it ([`at_peak`]).
pub fn base_prices(model: &Value) -> Option<Prices> {
    match model.get("prices")? {
        Value::Object(_) => model.get("prices").map(prices_of),
        Value::Array(list) => {
            let plain = list
                .iter()
                .find(|e| e.get("constraint").is_none())
                .and_then(|e| e.get("prices"))
                .map(prices_of);
            match plain {
                Some(p) => Some(at_peak(model, p)),
                None => peak(model),
            }
        }
        _ => None,
    }
}

/// Walks the providers and their models.
pub fn providers(data: &Value) -> impl Iterator<Item = (&Value, String)> {
    data.as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| Some((p, seller(p.get("id")?.as_str()?))))
}

/// The provider a genai-prices provider id sells as: its `cloudflare` is Cloudflare Workers
/// AI (`@cf/…` ids at `api.cloudflare.com/…/ai`), which models.dev and LiteLLM's providers
/// table call `cloudflare-workers-ai` (Cloudflare the company stays the creator of its own
/// models: docs/data.md, "Creators").
pub(crate) fn seller(id: &str) -> String {
    match canonical_provider(id).as_str() {
        "cloudflare" => "cloudflare-workers-ai".to_string(),
        other => other.to_string(),
    }
}

/// Every model entry with an id: (canonical provider slug, model id, entry).
pub fn models(data: &Value) -> impl Iterator<Item = (String, &str, &Value)> {
    providers(data).flat_map(|(p, slug)| {
        p.get("models")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(move |m| Some((slug.clone(), m.get("id")?.as_str()?, m)))
    })
}

/// The sentences of an entry's own comment (`price_comments`), split where a sentence or a
/// clause ends (`. `, `; `): a URL's dots split nothing.
fn comment_sentences(m: &Value) -> impl Iterator<Item = &str> {
    m.get("price_comments")
        .and_then(Value::as_str)
        .into_iter()
        .flat_map(|c| c.split(". "))
        .flat_map(|s| s.split("; "))
        .map(str::trim)
}

/// An entry whose description opens by calling the model retired or deprecated
/// (Anthropic's `claude-v1`: "Retired, here to match price sources"; "(deprecated) Grok 2
/// 1212 …") marks it deprecated as its `deprecated` flag would (docs/data.md, "Lifecycle").
fn described_retired(m: &Value) -> bool {
    let Some(text) = m.get("description").and_then(Value::as_str) else {
        return false;
    };
    let first = text
        .trim_start()
        .trim_start_matches('(')
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    matches!(first.as_str(), "retired" | "deprecated")
}

/// What an entry's own comment says ends, and on which day ([`retirement`]).
#[derive(Debug, PartialEq)]
enum Retires {
    /// The model: the creator retires it ("Retired on 2025-06-16").
    Model(String),
    /// The entry's sale at its provider (Databricks' "Retires on 2026-10-30.").
    Sale(String),
}

/// What the entry's own comment says is retired, and when: a sentence with a full day that
/// says something retires or is discontinued ("Retired on 2025-06-16", "Retires
/// on 2026-10-30.", "until its 2025-03-30 retirement", "should be retired 2025-07-15", "from
/// 2026-09-10, when DeepSeek retired V4 Flash"), dated by the first day it writes. A sentence
/// about something else ("The 1M context beta was retired on …") retires nothing. In the
/// creator's own entry (`first_party`) it is the model that retires; in a host's, the model
/// where the sentence names its `creator` first ("Moonshot discontinued the kimi-k2.5 family
/// on 2026-08-31"), else the host's sale (docs/data.md, "Lifecycle" and "Ended sales").
fn retirement(m: &Value, first_party: bool, creator: Option<&str>) -> Option<Retires> {
    // "Shut down" is said of one API (Google's "(DEPRECATED — shut down Oct 2, 2026)" on
    // its Gemini API pricing page, while Vertex AI sells on): an ended sale ([`ended_on`]).
    const SAYS: [&str; 2] = ["retire", "discontinu"];
    comment_sentences(m).find_map(|sentence| {
        let lower = sentence.to_ascii_lowercase();
        if lower.starts_with("the ") || !SAYS.iter().any(|w| lower.contains(w)) {
            return None;
        }
        let day = super::first_day(sentence)?;
        let first = lower.split([' ', ',']).next().unwrap_or_default();
        let names_creator = first.len() >= 4 && creator.is_some_and(|c| c.starts_with(first));
        Some(if first_party || names_creator {
            Retires::Model(day)
        } else {
            Retires::Sale(day)
        })
    })
}

/// The day the entry's own comment says the provider stopped selling it, at the latest: a
/// sentence saying the provider no longer lists the model ("No longer listed in Avian's
/// model catalog (checked 2026-10-09)", "The Cerebras public models API (…) no longer lists
/// this model", Google's "Listed as \"(Shut down)\" under \"Previous models\"") or that its
/// API for it ended or is shut down (Perplexity's "Sonar Chat Completions support ended on
/// 2026-09-27", Google's "shut down Oct 2, 2026"),
/// dated by the first day it writes, else by the copy's own day. Prices kept "for
/// historical usage" are a record, not a sale (docs/data.md, "Ended sales").
fn ended_on(m: &Value) -> Option<String> {
    const SAYS: [&str; 4] = [
        "no longer list",
        "no longer in the",
        "shut down",
        "support ended on ",
    ];
    comment_sentences(m)
        .find(|sentence| {
            let lower = sentence.to_ascii_lowercase();
            SAYS.iter().any(|s| lower.contains(s))
        })
        .map(|sentence| super::first_day(sentence).unwrap_or_else(|| AS_OF.to_string()))
}

/// Whether the entry's own comment says its price is another seller's, copied until the
/// creator publishes one, and not verified since.
fn imported(m: &Value) -> bool {
    let c = m
        .get("price_comments")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_ascii_lowercase();
    c.starts_with("imported from") && !c.contains("verified against")
}

/// Every id an entry of a copy bills exactly (its `match` rule's `equals` ids): a copy
/// listing them was a sighting of their models (docs/methodology.md, "first_seen").
pub fn billed_ids(data: &Value) -> impl Iterator<Item = &str> {
    models(data).flat_map(|(_, _, m)| exact_matches(m.get("match")))
}

/// The ids a `match` rule accepts exactly (`equals`, within `or`); `starts_with` and
/// `contains` name families, not ids.
fn exact_matches(rule: Option<&Value>) -> Box<dyn Iterator<Item = &str> + '_> {
    let Some(rule) = rule else {
        return Box::new(std::iter::empty());
    };
    if let Some(id) = rule.get("equals").and_then(Value::as_str) {
        return Box::new(std::iter::once(id));
    }
    Box::new(
        rule.get("or")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .flat_map(|r| exact_matches(Some(r))),
    )
}

/// The family patterns of a `match` rule (`starts_with`, `contains`, within `or`), as
/// (`starts_with`?, pattern) pairs.
fn family_rules(rule: Option<&Value>) -> Vec<(bool, String)> {
    let Some(rule) = rule else {
        return Vec::new();
    };
    let mut out: Vec<(bool, String)> = [("starts_with", true), ("contains", false)]
        .into_iter()
        .filter_map(|(k, starts)| Some((starts, rule.get(k)?.as_str()?.to_ascii_lowercase())))
        .collect();
    for r in rule
        .get("or")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.extend(family_rules(Some(r)));
    }
    out
}

pub fn records(
    data: &Value,
    out: &mut Vec<ModelRecord>,
    meta: &mut BTreeMap<String, ProviderMeta>,
    report: &mut Report,
) {
    for (p, slug) in providers(data) {
        let name = p
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or(&slug)
            .to_string();
        let website = p
            .get("pricing_urls")
            .and_then(Value::as_array)
            .and_then(|u| u.first())
            .and_then(Value::as_str)
            .map(str::to_string);
        meta.entry(slug.clone())
            .or_insert(ProviderMeta { name, website });
        for m in p
            .get("models")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            report.read(SOURCE);
            let Some(id) = m.get("id").and_then(Value::as_str) else {
                report.unmatched(SOURCE, "<model without id>");
                continue;
            };
            let parsed = names::parse(id);
            if parsed.key.is_empty() || names::is_fine_tune_price(id) {
                report.unmatched(SOURCE, id);
                continue;
            }
            // An entry its maintainers copied from a router's list until the creator publishes
            // a price ("Imported from OpenRouter pricing; verify against OpenAI pricing …")
            // is the router's price, which the router's own entry states: the creator sells
            // nothing under it (docs/data.md, "Free").
            // A rule accepting every id with a word in it and pricing nothing (OpenAI's
            // `moderation`: "contains moderation", free) covers a family of endpoints and
            // names no model.
            let priced = m
                .get("prices")
                .is_some_and(|p| p.as_object().is_none_or(|o| !o.is_empty()));
            if !priced && exact_matches(m.get("match")).next().is_none() {
                report.rule(
                    "identity: catch-all price rules naming no model, not read",
                    1,
                );
                report.unmatched(SOURCE, id);
                continue;
            }
            if imported(m) {
                report.rule("prices: creator entries copied from a router, not read", 1);
                report.unmatched(SOURCE, id);
                continue;
            }
            report.matched(SOURCE);
            // A host writing its own name before a model (`perplexity/glm-5.3-flash`) names
            // no creator: the model's name does.
            let vendor = parsed
                .vendor
                .as_deref()
                .filter(|v| canonical_provider(v) != slug);
            let creator = names::creator_for(vendor, &parsed.key).map(str::to_string);
            let first_party = creator.as_deref() == Some(slug.as_str());
            let retires = retirement(m, first_party, creator.as_deref());
            let prices = base_prices(m);
            let (mut input_flags, output_flags) =
                prices.as_ref().map(priced_modalities).unwrap_or_default();
            // A price per hour of audio in (`input_audio_hours`, `audio_hours`: Mistral's
            // Voxtral transcription) says the model takes audio.
            if audio_hours(m) && !input_flags.iter().any(|(k, _)| k == "audio") {
                input_flags.push(("audio".into(), true));
            }
            let record = ModelRecord {
                source: SOURCE,
                provider: Some(slug.clone()),
                raw_id: id.to_string(),
                rank: if first_party { 2 } else { 4 },
                creator,
                name: m.get("name").and_then(Value::as_str).map(str::to_string),
                // An entry for several versions ("Claude 2.0 / 2.1") states the window of
                // the longest; it names none of them, nor their windows.
                context: m.get("context_window").and_then(Value::as_i64).filter(|_| {
                    !m.get("name")
                        .and_then(Value::as_str)
                        .is_some_and(|n| n.contains(" / "))
                }),
                input_flags,
                output_flags,
                prices,
                as_of: Some(AS_OF.to_string()),
                parsed: Some(parsed),
                deprecated: if described_retired(m) {
                    Some(true)
                } else {
                    m.get("deprecated").and_then(Value::as_bool)
                },
                shut_down: match &retires {
                    Some(Retires::Model(day)) => Some(day.clone()),
                    _ => None,
                },
                ended: ended_on(m).or(match retires {
                    Some(Retires::Sale(day)) => Some(day),
                    _ => None,
                }),
                // Hugging Face's inference providers serve repositories of the Hub
                // (`huggingface_novita`: `zai-org/GLM-5.3`): weights published there.
                open_weights: (slug.starts_with("huggingface") && id.contains('/')).then_some(true),
                prefix_rule: exact_matches(m.get("match")).next().is_none(),
                covers: if first_party {
                    family_rules(m.get("match"))
                } else {
                    Vec::new()
                },
                same_as: if first_party {
                    exact_matches(m.get("match"))
                        .map(|id| names::parse(id).key)
                        .filter(|k| !k.is_empty())
                        .collect()
                } else {
                    Vec::new()
                },
                id_days: id_days(id, m.get("match")),
                bills: if first_party {
                    exact_matches(m.get("match"))
                        .filter(|id| *id != m.get("id").and_then(Value::as_str).unwrap_or_default())
                        .map(str::to_string)
                        .collect()
                } else {
                    Vec::new()
                },
                ..ModelRecord::default()
            };
            let group = if first_party {
                price_group(id, m.get("match"))
            } else {
                Vec::new()
            };
            if group.is_empty() {
                out.push(record);
                continue;
            }
            report.rule(
                "identity: creators' price entries grouping versions, read as each version's price",
                1,
            );
            for version in group {
                let parsed = names::parse(version);
                out.push(ModelRecord {
                    raw_id: version.to_string(),
                    name: None,
                    same_as: vec![parsed.key.clone()],
                    bills: Vec::new(),
                    parsed: Some(parsed),
                    ..record.clone()
                });
            }
        }
    }
}

/// The days an entry's exact ids write after its own id (`…/claude-fable-5.1-20260831` in
/// the `…/claude-fable-5.1` entry), as `YYYY-MM-DD`: a full date only, in a year this
/// dataset can hold.
fn id_days(id: &str, rule: Option<&Value>) -> Vec<String> {
    let own = id.to_ascii_lowercase();
    exact_matches(rule)
        .filter_map(|e| {
            let e = e.to_ascii_lowercase();
            let day = e.strip_prefix(&own)?.strip_prefix('-')?;
            (day.len() == 8 && day.starts_with("20") && day.bytes().all(|b| b.is_ascii_digit()))
                .then(|| format!("{}-{}-{}", &day[..4], &day[4..6], &day[6..]))
        })
        .collect()
}

/// The versions a creator's price entry groups under an id of its own: where the entry's
/// id is none of the ids it matches exactly and two or more of those carry a version,
/// the entry is one price for several models (Mistral's `mistral-medium-3-1`, "Mistral
/// Medium 3 and 3.1", matches `mistral-medium-2505` and `mistral-medium-2508`), so it names
/// no model of its own and prices each version (docs/methodology.md, "Identity"). Its
/// unversioned ids (`mistral-medium`) float to whichever model is newest and take nothing.
/// Empty for an entry for one model.
fn price_group<'a>(id: &str, rule: Option<&'a Value>) -> Vec<&'a str> {
    let exact: Vec<&str> = exact_matches(rule).collect();
    if exact.iter().any(|e| e.eq_ignore_ascii_case(id)) {
        return Vec::new();
    }
    let versions: Vec<&str> = exact
        .into_iter()
        .filter(|e| {
            e.bytes().any(|b| b.is_ascii_digit()) && !e.to_ascii_lowercase().ends_with("latest")
        })
        .collect();
    if versions.len() >= 2 {
        versions
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_description_opening_retired_deprecates_the_model() {
        for (text, said) in [
            ("Retired, here to match price sources", true),
            ("(deprecated) Grok 2 1212 introduces …", true),
            ("MiniMax M2 (legacy), a multimodal language model", false),
            ("Note: This model is being deprecated.", false),
        ] {
            let m = json!({ "description": text });
            assert_eq!(described_retired(&m), said, "{text}");
        }
        assert!(!described_retired(&json!({})));
    }

    #[test]
    fn a_comment_retires_the_model_only_in_a_sentence_of_its_own() {
        let said = |c: &str, first_party: bool| {
            retirement(
                &json!({ "price_comments": c }),
                first_party,
                Some("moonshotai"),
            )
        };
        let model = |d: &str| Some(Retires::Model(d.to_string()));
        assert_eq!(
            said(
                "Retired on 2025-06-16; retained for historical usage records.",
                true
            ),
            model("2025-06-16")
        );
        assert_eq!(
            said("Old model. Retired 2026-04-04 per the docs.", true),
            model("2026-04-04")
        );
        assert_eq!(
            said(
                "Mistral billed open-mixtral-8x22b at $2/$6 per MTok from launch until its 2025-03-30 retirement.",
                true
            ),
            model("2025-03-30")
        );
        assert_eq!(
            said(
                "V4.1 Flash off-peak from 2026-09-10, when DeepSeek retired V4 Flash",
                true
            ),
            model("2026-09-10")
        );
        // A host's comment: the creator named first retires the model, else the host's sale.
        assert_eq!(
            said(
                "Moonshot discontinued the kimi-k2.5 family on 2026-08-31 (https://platform.kimi.ai/docs/models.md).",
                false
            ),
            model("2026-08-31")
        );
        assert_eq!(
            said("Retires on 2026-10-30.", false),
            Some(Retires::Sale("2026-10-30".into()))
        );
        assert_eq!(
            said("The 1M context beta was retired on 2026-04-30", true),
            None
        );
        assert_eq!(said("Retired soon", true), None);
        // One API's shutdown is that sale's end, not the model's retirement.
        assert_eq!(said("DEPRECATED — shut down Oct 2, 2026", true), None);
    }

    #[test]
    fn a_comment_saying_the_sale_ended_dates_it_by_its_first_day() {
        let said = |c: &str| ended_on(&json!({ "price_comments": c }));
        assert_eq!(
            said("No longer listed in Avian's model catalog (checked 2026-10-09); kept for historical usage.").as_deref(),
            Some("2026-10-09")
        );
        assert_eq!(
            said("Developer tier pricing. The Cerebras public models API (https://api.cerebras.ai/public/v1/models, checked 2026-10-15) no longer lists this model").as_deref(),
            Some("2026-10-15")
        );
        assert_eq!(
            said("Perplexity stopped publishing Sonar rates after Sonar Chat Completions support ended on 2026-09-27; these are the last published rates, checked 2026-10-19.").as_deref(),
            Some("2026-09-27")
        );
        // Said without a day: ended by the copy's own day.
        assert_eq!(
            said("No longer listed in the docs.").as_deref(),
            Some(AS_OF)
        );
        // A promotion that ended, or a price list updated on a day, ends no sale.
        assert_eq!(
            said("The 50% launch promotion ended at 24:00 on September 9, 2026"),
            None
        );
        assert_eq!(said("Prices checked 2026-10-15."), None);
        // A day in words, as Google's pricing page writes it.
        assert_eq!(
            said("Gemini API pricing page announces \"Gemini 2.5 Flash Image / Nano Banana (DEPRECATED — shut down Oct 2, 2026); migrate to Gemini 3.1 Flash Image.\"").as_deref(),
            Some("2026-10-02")
        );
        assert_eq!(
            said("Listed as \"(Shut down)\" under \"Previous models\" (catalog last updated 2026-10-13)").as_deref(),
            Some("2026-10-13")
        );
    }

    #[test]
    fn a_price_entry_grouping_versions_prices_each_and_names_none() {
        let group = json!({"or": [{"equals": "mistral-medium"}, {"equals": "mistral-medium-2505"}, {"equals": "mistral-medium-2508"}]});
        assert_eq!(
            price_group("mistral-medium-3-1", Some(&group)),
            ["mistral-medium-2505", "mistral-medium-2508"]
        );
        // An entry naming itself among its ids is one model's, whatever else it bills.
        let own = json!({"or": [{"equals": "mistral-medium-3-5"}, {"equals": "mistral-medium-3"}, {"equals": "mistral-medium-2604"}]});
        assert!(price_group("mistral-medium-3-5", Some(&own)).is_empty());
        // One versioned id beside a floating one is that model's entry (`codestral`).
        let one = json!({"or": [{"equals": "codestral-latest"}, {"equals": "codestral-2501"}]});
        assert!(price_group("codestral", Some(&one)).is_empty());
    }

    #[test]
    fn tiered_prices_keep_base_and_tiers_and_missing_stays_none() {
        let m = json!({"prices": {"input_mtok": {"base": 3, "tiers": [{"start": 200000, "price": 6}]}, "output_mtok": 15}});
        let p = base_prices(&m).unwrap();
        assert_eq!(p.input, Some(3.0));
        assert_eq!(p.output, Some(15.0));
        assert_eq!(p.cache_read, None);
        assert_eq!(
            p.tiers,
            vec![Tier {
                from_tokens: 200000,
                input_price: Some(6.0),
                output_price: Some(15.0),
                cache_read_price: None,
                cache_write_price: None,
            }]
        );
    }

    #[test]
    fn constrained_lists_use_the_unconstrained_entry() {
        let m = json!({"prices": [
            {"prices": {"input_mtok": 10, "output_mtok": 40}},
            {"constraint": {"start_date": "2025-06-10"}, "prices": {"input_mtok": 2, "output_mtok": 8}}
        ]});
        assert_eq!(base_prices(&m).unwrap().input, Some(10.0));
    }

    #[test]
    fn the_peak_rate_of_a_time_of_day_list_is_the_standard_price() {
        // DeepSeek V3: the standard hours as a window, the discount unconstrained.
        let m = json!({"prices": [
            {"prices": {"input_mtok": 0.135}},
            {"constraint": {"start_time": "00:30:00Z", "end_time": "16:30:00Z"}, "prices": {"input_mtok": 0.27}}
        ]});
        assert_eq!(base_prices(&m).unwrap().input, Some(0.27));
        // DeepSeek V4: two short peak windows, the off-peak rate unconstrained.
        let m = json!({"prices": [
            {"prices": {"input_mtok": 0.66, "output_mtok": 1.98}},
            {"constraint": {"start_time": "01:00:00Z", "end_time": "04:00:00Z"}, "prices": {"input_mtok": 1.32, "output_mtok": 3.96}},
            {"constraint": {"start_time": "06:00:00Z", "end_time": "10:00:00Z"}, "prices": {"input_mtok": 1.32, "output_mtok": 3.96}}
        ]});
        assert_eq!(base_prices(&m).unwrap().output, Some(3.96));
        assert_eq!(off_peak(&m, "2026-11-10").unwrap().output, Some(1.98));
        let modes: Vec<String> = variants(&m, "2026-11-10")
            .into_iter()
            .map(|v| v.mode)
            .collect();
        assert_eq!(modes, ["off_peak"]);
        // No window: the unconstrained entry, and no off-peak rate.
        let m = json!({"prices": [{"prices": {"input_mtok": 3}}]});
        assert_eq!(base_prices(&m).unwrap().input, Some(3.0));
        assert!(off_peak(&m, "2026-11-10").is_none());
    }

    #[test]
    fn reads_a_small_fixture() {
        let data = json!([{"id": "x-ai", "name": "X AI", "pricing_urls": ["https://x.ai/api"], "models": [
            {"id": "grok-4-0709", "name": "Grok 4", "context_window": 256000, "prices": {"input_mtok": 3, "output_mtok": 15}},
            {"id": "grok-free", "prices": {"input_mtok": 0, "output_mtok": 0}}
        ]}]);
        let (mut out, mut meta, mut report) = (Vec::new(), BTreeMap::new(), Report::default());
        records(&data, &mut out, &mut meta, &mut report);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].provider.as_deref(), Some("xai"));
        assert_eq!(out[0].creator.as_deref(), Some("xai"));
        assert_eq!(out[0].rank, 2);
        assert_eq!(out[0].context, Some(256000));
        assert_eq!(out[1].prices.as_ref().unwrap().input, Some(0.0));
        assert_eq!(meta["xai"].name, "X AI");
    }
}

/// The processing mode a `price_variants` entry's `when` names, as a [`Variant`] mode:
/// `processing: batch`, `service_tier: flex | priority | fast`, `speed: fast`. The default
/// tier is the offering's own price; routes and search types are not modes of buying the
/// model.
fn variant_mode(when: &Value) -> Option<&'static str> {
    let named = |key: &str| when.get(key).and_then(Value::as_str);
    match (named("processing"), named("service_tier"), named("speed")) {
        (Some("batch"), _, _) => Some("batch"),
        (_, Some("flex"), _) => Some("flex"),
        (_, Some("priority"), _) => Some("priority"),
        (_, Some("fast"), _) | (_, _, Some("fast")) => Some("fast"),
        _ => None,
    }
}

/// A model entry's price variants in effect on `day`: per mode, the entry whose
/// `constraint.start_date` is the latest by then (an undated entry counts as the earliest),
/// in [`Variant::MODES`] order. An entry with no price is left out.
pub fn variants(model: &Value, day: &str) -> Vec<Variant> {
    let mut best: BTreeMap<&str, (&str, Prices)> = BTreeMap::new();
    for v in model
        .get("price_variants")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (Some(mode), Some(prices)) = (v.get("when").and_then(variant_mode), v.get("prices"))
        else {
            continue;
        };
        let start = v
            .get("constraint")
            .and_then(|c| c.get("start_date"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let p = prices_of(prices);
        if start > day || (p.input.is_none() && p.output.is_none()) {
            continue;
        }
        if best.get(mode).is_none_or(|(s, _)| *s <= start) {
            best.insert(mode, (start, p));
        }
    }
    if let Some(p) = off_peak(model, day) {
        best.insert("off_peak", ("", p));
    }
    Variant::MODES
        .iter()
        .filter_map(|mode| {
            let (_, p) = best.remove(mode)?;
            Some(Variant {
                mode: (*mode).to_string(),
                input_price: p.input,
                output_price: p.output,
                cache_read_price: p.cache_read,
                cache_write_price: p.cache_write,
                tiers: p.tiers,
            })
        })
        .collect()
}

/// Sets the variants of the offerings this source priced, from the live feed as of `day`.
pub fn apply_variants(data: &Value, day: &str, offerings: &mut [entity::offering::Model]) {
    let mut by_id: BTreeMap<(String, &str), Vec<Variant>> = BTreeMap::new();
    for (slug, id, m) in models(data) {
        let found = variants(m, day);
        if !found.is_empty() {
            by_id.insert((slug, id), found);
        }
    }
    for o in offerings.iter_mut().filter(|o| o.source == SOURCE) {
        if let Some(v) = by_id.get(&(o.provider_slug.clone(), o.provider_model_id.as_str())) {
            o.variants = Variant::encode(v);
        }
    }
}

#[cfg(test)]
mod variant_tests {
    use super::*;

    #[test]
    fn variants_are_the_modes_in_effect_with_their_own_tiers() {
        let m = serde_json::json!({"price_variants": [
            {"when": {"service_tier": "default"}, "prices": {}},
            {"when": {"processing": "batch"}, "prices": {
                "input_mtok": {"base": 1.5, "tiers": [{"start": 200000, "price": 3}]},
                "output_mtok": {"base": 7.5, "tiers": [{"start": 200000, "price": 11.25}]}},
             "constraint": {"start_date": "2026-10-14"}},
            {"when": {"service_tier": "flex"}, "prices": {"input_mtok": 9, "output_mtok": 9},
             "constraint": {"start_date": "2027-01-01"}},
            {"when": {"speed": "fast"}, "prices": {"input_mtok": 16, "output_mtok": 80}},
            {"when": {"route": "mistral/eu"}, "prices": {"input_mtok": 0.77}}
        ]});
        let v = variants(&m, "2026-11-10");
        let modes: Vec<&str> = v.iter().map(|v| v.mode.as_str()).collect();
        // The default tier is the offering itself, the flex price is not in effect yet,
        // and a route is no mode.
        assert_eq!(modes, ["batch", "fast"]);
        assert_eq!(
            (v[0].input_price, v[0].output_price),
            (Some(1.5), Some(7.5))
        );
        assert_eq!(v[0].tiers[0].from_tokens, 200_000);
        assert_eq!(v[0].tiers[0].input_price, Some(3.0));
        assert_eq!(
            variants(&m, "2026-10-01").len(),
            1,
            "batch starts on 2026-10-14"
        );
    }
}
