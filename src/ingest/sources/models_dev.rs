//! Adapter for models.dev (`models-dev/models_dev_toml_bundle.json`: every TOML file of the
//! repository as JSON; or, where that is absent, the published `models-dev/api.json`, which
//! `mds sync` fetches). Provider models inherit from `models/<org>/<model>.toml` through
//! `base_model`, provider fields winning and `base_model_omit` fields left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{Map, Value};

use super::{Collected, Meta, Source, Upstream};
use crate::ingest::catalog::{ProviderMeta, canonical_provider};
use crate::ingest::names::slugify;
use crate::ingest::scores::RawScore;
use crate::ingest::{IngestError, ModelRecord, Prices, Report, names, read_json};

/// What the dataset is (its row of the sources table).
pub const META: Meta = Meta {
    slug: SOURCE,
    name: "models.dev",
    repository: "anomalyco/models.dev",
    commit: "f3fc692299671838c7c65fd8126bf84d81a2e817",
    snapshot_date: AS_OF,
    license: "MIT",
    names_models: true,
};

/// The models.dev adapter: provider-served models with their prices, and benchmark rows.
pub struct ModelsDev;

impl Source for ModelsDev {
    fn meta(&self) -> Meta {
        META
    }

    /// models.dev publishes its catalogue, inheritance resolved, as one `api.json`; the
    /// TOML bundle is the project's own conversion of the repository, not fetchable.
    fn upstream(&self) -> Upstream {
        Upstream {
            base: "https://models.dev/",
            files: |_| vec!["api.json".into()],
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
        scores(&data, &mut into.scores);
        Ok(())
    }
}

pub const SOURCE: &str = "models-dev";
pub const AS_OF: &str = "2026-07-02";

/// The bundle of the repository's TOML files (what the project's raw copy holds).
pub const BUNDLE: &str = "models-dev/models_dev_toml_bundle.json";
/// models.dev's published `api.json` (what `mds sync` fetches).
pub const API_JSON: &str = "models-dev/api.json";

/// The TOML bundle when present, else the published `api.json` read into the same shape.
pub fn load(dir: &Path) -> Result<Value, IngestError> {
    let bundle = dir.join(BUNDLE);
    if bundle.exists() {
        return read_json(&bundle);
    }
    let api = read_json(&dir.join(API_JSON))?;
    bundle_from_api(&api).ok_or_else(|| {
        IngestError::parse(
            &dir.join(API_JSON),
            "not models.dev's api.json (an object of providers with models)",
        )
    })
}

/// models.dev's `api.json` (`{provider: {name, doc, …, models: {id: model}}}`, inheritance
/// already resolved) as the bundle's files: `providers/<p>/provider.toml` and
/// `providers/<p>/models/<id>.toml`. It has no `models/<org>/…` files, so no benchmark rows
/// and no organisation from `base_model`; every provider model carries its own fields.
/// `None` when the file is not shaped like `api.json`.
pub fn bundle_from_api(api: &Value) -> Option<Value> {
    let mut files = Map::new();
    for (id, p) in api.as_object()? {
        let p = p.as_object()?;
        let mut provider = p.clone();
        let models = provider.remove("models")?;
        provider.remove("id");
        files.insert(
            format!("providers/{id}/provider.toml"),
            Value::Object(provider),
        );
        for (model_id, m) in models.as_object()? {
            let mut m = m.as_object()?.clone();
            m.remove("id");
            files.insert(
                format!("providers/{id}/models/{model_id}.toml"),
                Value::Object(m),
            );
        }
    }
    (!files.is_empty()).then(|| serde_json::json!({ "files": files }))
}

/// Every file of the bundle, symlinks resolved to their targets' content.
pub fn files(data: &Value) -> BTreeMap<&str, &Value> {
    let mut out = BTreeMap::new();
    let Some(files) = data.get("files").and_then(Value::as_object) else {
        return out;
    };
    for (path, v) in files {
        out.insert(path.as_str(), v);
    }
    for (path, target) in data
        .get("symlinks")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        if let Some(v) = target.as_str().and_then(|t| files.get(t)) {
            out.insert(path.as_str(), v);
        }
    }
    out
}

/// `base` overlaid with `own`: top-level keys of `own` win; tables (`limit`, `cost`, ...) are
/// merged one level deep. Dotted names in `base_model_omit` (`limit.input`) are removed.
pub fn inherit(base: &Value, own: &Value) -> Value {
    let mut merged: Map<String, Value> = base.as_object().cloned().unwrap_or_default();
    for field in own
        .get("base_model_omit")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(field) = field.as_str() else {
            continue;
        };
        match field.split_once('.') {
            Some((table, key)) => {
                if let Some(Value::Object(t)) = merged.get_mut(table) {
                    t.remove(key);
                }
            }
            None => {
                merged.remove(field);
            }
        }
    }
    for (k, v) in own.as_object().into_iter().flatten() {
        match (merged.get_mut(k), v) {
            (Some(Value::Object(into)), Value::Object(from)) => {
                for (k2, v2) in from {
                    into.insert(k2.clone(), v2.clone());
                }
            }
            _ => {
                merged.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(merged)
}

/// A release date, or `None` for the placeholders some files carry (1970-01-01).
fn date(v: Option<&Value>) -> Option<String> {
    let d = v?.as_str()?;
    (d.len() >= 7 && d.as_bytes()[..2] == *b"20").then(|| d.to_string())
}

fn strings(v: Option<&Value>) -> Option<Vec<String>> {
    let mut list: Vec<String> = v?
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_lowercase)
        .collect();
    list.sort();
    list.dedup();
    Some(list)
}

/// The `cost` fields priced per 1M tokens of another kind than text: (field, item). Its
/// `image` is image output (Poe's Nano Banana Pro: 120, as Google's own price per 1M image
/// tokens); `request` is left out, as models.dev does not say per how many requests.
const UNIT_FIELDS: &[(&str, &str)] = &[
    ("input_audio", "input_audio"),
    ("output_audio", "output_audio"),
    ("image", "output_image"),
    ("reasoning", "output_reasoning"),
    ("citation", "output_citation"),
];

/// A file for a model that makes images or video and no text, pricing its input and not its
/// output, states a price per image or video in the per-token fields (DigitalOcean's
/// `stable-diffusion-3.5-large`: `input = 0.08`, $0.08 an image; a model priced by tokens
/// prices its image tokens out, `gpt-image-1`'s 40): its prices are not read (docs/data.md,
/// "Units").
fn per_item(model: &Value, cost: &Value) -> bool {
    let outputs: Vec<&str> = model
        .get("modalities")
        .and_then(|m| m.get("output"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let media_only = !outputs.is_empty() && outputs.iter().all(|m| matches!(*m, "image" | "video"));
    let price = |k: &str| cost.get(k).and_then(Value::as_f64).unwrap_or(0.0);
    media_only && price("input") > 0.0 && price("output") == 0.0
}

/// Long-context tiers of a `cost` table (`tiers = [{tier = {size = 200000}, input = 10, ...}]`);
/// a line a tier leaves out keeps the base price.
fn tiers(cost: &Value) -> Vec<entity::offering::Tier> {
    let f = |v: &Value, k: &str| v.get(k).and_then(Value::as_f64);
    let mut out: Vec<entity::offering::Tier> = cost
        .get("tiers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| {
            Some(entity::offering::Tier {
                from_tokens: t.get("tier")?.get("size")?.as_i64()?,
                input_price: f(t, "input").or_else(|| f(cost, "input")),
                output_price: f(t, "output").or_else(|| f(cost, "output")),
                cache_read_price: f(t, "cache_read").or_else(|| f(cost, "cache_read")),
                cache_write_price: f(t, "cache_write").or_else(|| f(cost, "cache_write")),
            })
        })
        .collect();
    out.sort_by_key(|t| t.from_tokens);
    out
}

fn record(
    path_id: &str,
    model: &Value,
    provider: Option<String>,
    org: Option<&str>,
) -> ModelRecord {
    let parsed = names::parse(path_id);
    let vendor = org.map(str::to_string).or_else(|| parsed.vendor.clone());
    let creator = names::creator_for(vendor.as_deref(), &parsed.key)
        .map(str::to_string)
        .or_else(|| org.map(str::to_string));
    let rank = match (&provider, &creator) {
        (None, _) => 0,
        (Some(p), Some(c)) if p == c => 1,
        _ => 3,
    };
    let cost = model.get("cost").filter(|c| !per_item(model, c));
    let prices = cost.filter(|c| c.is_object()).map(|c| Prices {
        input: c.get("input").and_then(Value::as_f64),
        output: c.get("output").and_then(Value::as_f64),
        cache_read: c.get("cache_read").and_then(Value::as_f64),
        cache_write: c.get("cache_write").and_then(Value::as_f64),
        tiers: tiers(c),
        unit_prices: UNIT_FIELDS
            .iter()
            .filter_map(|(field, item)| {
                Some(entity::offering::UnitPrice {
                    item: (*item).into(),
                    unit: "1M tokens".into(),
                    price: c.get(*field).and_then(Value::as_f64)?,
                })
            })
            .collect(),
        variants: Vec::new(),
    });
    let limit = model.get("limit");
    ModelRecord {
        source: SOURCE,
        raw_id: path_id.to_string(),
        rank,
        creator,
        name: model
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_string),
        family: model
            .get("family")
            .and_then(Value::as_str)
            .map(str::to_string),
        release_date: date(model.get("release_date")),
        open_weights: model.get("open_weights").and_then(Value::as_bool),
        closed_by_default: false,
        context: limit
            .and_then(|l| l.get("context"))
            .and_then(Value::as_i64)
            .filter(|n| *n > 0),
        max_output: limit
            .and_then(|l| l.get("output"))
            .and_then(Value::as_i64)
            .filter(|n| *n > 0),
        input_modalities: strings(model.get("modalities").and_then(|m| m.get("input"))),
        output_modalities: strings(model.get("modalities").and_then(|m| m.get("output"))),
        reasoning: model.get("reasoning").and_then(Value::as_bool),
        tool_call: model.get("tool_call").and_then(Value::as_bool),
        structured_output: model.get("structured_output").and_then(Value::as_bool),
        knowledge: date(model.get("knowledge")),
        last_updated: date(model.get("last_updated")),
        as_of: prices.as_ref().map(|_| AS_OF.to_string()),
        prices: provider.as_ref().and(prices),
        provider,
        parsed: Some(parsed),
        input_flags: Vec::new(),
        output_flags: Vec::new(),
        task: None,
        // Set once every source is read (`ingest::run`).
        mode: None,
        based_on: None,
        prefix_rule: false,
        covers: Vec::new(),
        bills: Vec::new(),
        id_days: Vec::new(),
        same_as: model
            .get("weights")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|w| w.get("url").and_then(Value::as_str))
            .filter_map(|u| u.split_once("huggingface.co/"))
            .map(|(_, id)| names::parse(id.trim_end_matches('/')).key)
            .filter(|k| !k.is_empty())
            .collect(),
        deprecated: model
            .get("status")
            .and_then(Value::as_str)
            .map(|s| s == "deprecated"),
        shut_down: None,
        ended: None,
    }
}

pub fn records(
    data: &Value,
    out: &mut Vec<ModelRecord>,
    meta: &mut BTreeMap<String, ProviderMeta>,
    report: &mut Report,
) {
    let files = files(data);
    let first = out.len();
    for (path, v) in &files {
        let parts: Vec<&str> = path.trim_end_matches(".toml").splitn(4, '/').collect();
        match parts.as_slice() {
            ["providers", provider, "provider"] => {
                let slug = canonical_provider(provider);
                let name = v
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or(provider)
                    .to_string();
                let website = v.get("doc").and_then(Value::as_str).map(str::to_string);
                meta.entry(slug).or_insert(ProviderMeta { name, website });
            }
            ["providers", provider, "models", id] => {
                report.read(SOURCE);
                let own = *v;
                let merged;
                let mut inherited = false;
                let model = match own.get("base_model").and_then(Value::as_str) {
                    Some(base) => match files.get(format!("models/{base}.toml").as_str()) {
                        Some(b) => {
                            merged = inherit(b, own);
                            inherited = true;
                            &merged
                        }
                        None => {
                            report.unmatched(SOURCE, &format!("base_model {base}"));
                            own
                        }
                    },
                    None => own,
                };
                let org = own
                    .get("base_model")
                    .and_then(Value::as_str)
                    .and_then(|b| b.split('/').next());
                let mut r = record(id, model, Some(canonical_provider(provider)), org);
                // A name the entry does not write is its base's: a witness of the base's
                // name, not of this id's, which may be another model (Databricks'
                // `databricks-gemini-3-1-pro` names `gemini-3.1-pro-preview-customtools` as its
                // base; it is the released Gemini 3.1 Pro, not "… Preview Custom Tools").
                if inherited && own.get("name").is_none() {
                    r.name = None;
                }
                // models.dev's maintainers say which model the entry is (`base_model`):
                // its group joins that model's (`ingest::resolve`).
                r.based_on = based_on(own, &files).map(|b| names::parse(b).key);
                if r.parsed.as_ref().is_some_and(|p| p.key.is_empty()) {
                    report.unmatched(SOURCE, id);
                    continue;
                }
                report.matched(SOURCE);
                out.push(r);
            }
            ["models", org, id] => {
                report.read(SOURCE);
                report.matched(SOURCE);
                out.push(record(id, v, None, Some(org)));
            }
            _ => {}
        }
    }
    let templated = forget_template_limits(&mut out[first..]);
    report.rule(
        "models.dev: a provider's template limits not read",
        templated,
    );
    let listed = forget_listing_dates(&mut out[first..]);
    report.rule(
        "models.dev: a host's listing date (one day given to many lines) not read",
        listed,
    );
    let defaulted = forget_default_closed(&mut out[first..]);
    report.rule(
        "models.dev: a host's default `open_weights: false` not read",
        defaulted,
    );
    let tools = forget_default_tools(&mut out[first..]);
    report.rule(
        "models.dev: a host's default `tool_call: true` not read",
        tools,
    );
}

/// How many of a host's entries that make no text must claim tool calls, and which share of
/// them, for its `tool_call: true` to be a default it writes.
pub const TOOLS_DEFAULT_MIN: usize = 5;
pub const TOOLS_DEFAULT_SHARE: f64 = 0.8;

/// A host whose files claim tool calls for its image, video and speech generators, which
/// call no tools (Poe: 31 of its 33 models that make no text), writes `tool_call: true` by
/// default: its `true` does not vote (its `false` does), so other witnesses decide or the
/// model's ability is unknown (docs/data.md, "Witnesses and votes"). Returns how many entries
/// lost it.
fn forget_default_tools(records: &mut [ModelRecord]) -> usize {
    let no_text = |r: &ModelRecord| {
        r.output_modalities
            .as_ref()
            .is_some_and(|m| !m.is_empty() && !m.iter().any(|x| x == "text"))
    };
    let mut media: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for r in records.iter().filter(|r| no_text(r)) {
        if let Some(p) = r.provider.clone() {
            let e = media.entry(p).or_default();
            e.0 += 1;
            e.1 += usize::from(r.tool_call == Some(true));
        }
    }
    let defaults: BTreeSet<String> = media
        .into_iter()
        .filter(|(_, (n, claimed))| {
            #[allow(clippy::cast_precision_loss)]
            let share = *claimed as f64 / (*n).max(1) as f64;
            *claimed >= TOOLS_DEFAULT_MIN && share >= TOOLS_DEFAULT_SHARE
        })
        .map(|(p, _)| p)
        .collect();
    let mut forgotten = 0;
    for r in records.iter_mut() {
        if r.tool_call == Some(true) && r.provider.as_ref().is_some_and(|p| defaults.contains(p)) {
            r.tool_call = None;
            forgotten += 1;
        }
    }
    forgotten
}

/// The share of a host's entries saying `open_weights: false` above which its `false` is a
/// default it writes, not a fact it states.
pub const CLOSED_DEFAULT_SHARE: f64 = 0.9;

/// A host whose files say `open_weights: false` for nearly every model it sells, open or not
/// (NanoGPT: 507 of 513, Llama and Qwen checkpoints among them), states a default, not each
/// model's weights: its `false` does not vote (its `true` does), so the model's own file, its
/// creator and other hosts decide (docs/data.md, "Open weights"). A creator's own API saying
/// its models are closed is its word, and always heard. Returns how many entries it marks.
fn forget_default_closed(records: &mut [ModelRecord]) -> usize {
    let tables = crate::ingest::prices::Tables::shared();
    fn host<'a>(tables: &crate::ingest::prices::Tables, r: &'a ModelRecord) -> Option<&'a str> {
        r.provider
            .as_deref()
            .filter(|p| !tables.is_first_party(r.creator.as_deref(), p))
    }
    let mut stated: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for r in records.iter() {
        if let (Some(p), Some(open)) = (host(tables, r), r.open_weights) {
            let e = stated.entry(p).or_default();
            e.0 += 1;
            e.1 += usize::from(!open);
        }
    }
    let defaults: BTreeSet<String> = stated
        .iter()
        .filter(|(_, (n, closed))| {
            #[allow(clippy::cast_precision_loss)]
            let share = *closed as f64 / (*n).max(1) as f64;
            *n >= TEMPLATE_MIN && share >= CLOSED_DEFAULT_SHARE
        })
        .map(|(p, _)| (*p).to_string())
        .collect();
    let mut forgotten = 0;
    for r in records.iter_mut() {
        if r.open_weights == Some(false) && host(tables, r).is_some_and(|p| defaults.contains(p)) {
            r.closed_by_default = true;
            forgotten += 1;
        }
    }
    forgotten
}

/// How many of a host's entries one day must date, and of how many lines, for that day to
/// be the day it listed them: six of six lines, or a dozen of three. A handful of
/// launches on one day is real (Vercel's 2025-12-16: Wan 2.6, FLUX.2 max, Seedance 1.5 Pro,
/// GPT Image 1.5 and MiMo V2 Flash; 2026-01-15: Voyage 4's sizes, FLUX.2 klein, LongCat).
pub const LISTING_MIN: usize = 6;
pub const LISTING_LINES: usize = 6;
pub const LISTING_MANY: usize = 12;
pub const LISTING_MANY_LINES: usize = 3;

/// A host giving one day to many entries of unrelated lines (Qiniu's 2025-08-05 for 26 of
/// its models, Claude, DeepSeek, Doubao and Kimi among them; NanoGPT's 2025-02-27 for
/// Dolphin 2.9.2, Hunyuan, QwQ and Llama) states the day it listed them, not their
/// releases: that date is not read, so other witnesses decide or the model is dated by
/// when it was first seen (docs/data.md, "Witnesses and votes"). One creator's family
/// released on one day (Qwen3's sizes) is one line, and stays. A creator's own API is never
/// such a host. Another host's date for a model on the day a batch dates it is a copy of
/// that listing, and is not read either. Returns how many entries lost it.
fn forget_listing_dates(records: &mut [ModelRecord]) -> usize {
    let tables = crate::ingest::prices::Tables::shared();
    // The line an entry belongs to: its key's first word, letters only (`qwen3-8b` → `qwen`).
    let line = |r: &ModelRecord| -> String {
        let key = r.parsed.as_ref().map_or("", |p| p.key.as_str());
        key.split(|c: char| !c.is_ascii_alphabetic())
            .find(|w| !w.is_empty())
            .unwrap_or(key)
            .to_string()
    };
    let host = |r: &ModelRecord| {
        r.provider
            .clone()
            .filter(|p| !tables.is_first_party(r.creator.as_deref(), p))
    };
    let mut days: BTreeMap<(String, String), (usize, BTreeSet<String>)> = BTreeMap::new();
    for r in records.iter() {
        if let (Some(p), Some(d)) = (host(r), r.release_date.as_ref().filter(|d| d.len() == 10)) {
            let e = days.entry((p, d.clone())).or_default();
            e.0 += 1;
            e.1.insert(line(r));
        }
    }
    let batch = |p: &str, d: &str| {
        days.get(&(p.to_string(), d.to_string()))
            .is_some_and(|(n, lines)| {
                *n >= LISTING_MIN && lines.len() >= LISTING_LINES
                    || *n >= LISTING_MANY && lines.len() >= LISTING_MANY_LINES
            })
    };
    // The (model, day) pairs a batch day dates: another host's date for the same model on
    // that day is a copy of the listing (Kilo dates Mistral 7B Instruct v0.1 with
    // Cloudflare AI Gateway's 2025-04-03).
    let key = |r: &ModelRecord| r.parsed.as_ref().map(|p| p.key.clone());
    let batched: BTreeSet<(String, String)> = records
        .iter()
        .filter_map(|r| {
            let (p, d) = (host(r)?, r.release_date.clone()?);
            batch(&p, &d).then_some((key(r)?, d))
        })
        .collect();
    let mut forgotten = 0;
    for r in records.iter_mut() {
        let (Some(p), Some(d)) = (host(r), r.release_date.clone()) else {
            continue;
        };
        let copied = key(r).is_some_and(|k| batched.contains(&(k, d.clone())));
        if batch(&p, &d) || copied {
            r.release_date = None;
            forgotten += 1;
        }
    }
    forgotten
}

/// Most entries a provider lists, and the share of them one pair of limits must reach, for
/// that pair to be the provider's template.
pub const TEMPLATE_MIN: usize = 20;
pub const TEMPLATE_SHARE: f64 = 0.5;

/// A provider whose files give one pair of limits to most of its models, whatever they are,
/// states a template, not each model's limits: Cloudflare AI Gateway gives 128,000 tokens
/// in and 16,384 out to 41 of its 78 models, a 512-token embedder and GPT-4o alike. Such a
/// pair is not read (the entry's other fields are), so the model's own and other hosts'
/// limits decide (docs/data.md, "Witnesses and votes"). Returns how many entries lost it.
fn forget_template_limits(records: &mut [ModelRecord]) -> usize {
    let mut pairs: BTreeMap<&str, BTreeMap<(i64, i64), usize>> = BTreeMap::new();
    let mut listed: BTreeMap<&str, usize> = BTreeMap::new();
    for r in records.iter() {
        let Some(p) = r.provider.as_deref() else {
            continue;
        };
        *listed.entry(p).or_default() += 1;
        if let (Some(c), Some(o)) = (r.context, r.max_output) {
            *pairs.entry(p).or_default().entry((c, o)).or_default() += 1;
        }
    }
    let templates: BTreeMap<String, (i64, i64)> = pairs
        .iter()
        .filter_map(|(p, counts)| {
            let (pair, n) = counts.iter().max_by_key(|(_, n)| **n)?;
            let total = listed.get(p).copied().unwrap_or_default();
            #[allow(clippy::cast_precision_loss)]
            let share = *n as f64 / total.max(1) as f64;
            (total >= TEMPLATE_MIN && share >= TEMPLATE_SHARE).then(|| ((*p).to_string(), *pair))
        })
        .collect();
    let mut forgotten = 0;
    for r in records.iter_mut() {
        let template = r.provider.as_deref().and_then(|p| templates.get(p));
        if template.is_some_and(|t| (r.context, r.max_output) == (Some(t.0), Some(t.1))) {
            r.context = None;
            r.max_output = None;
            forgotten += 1;
        }
    }
    forgotten
}

/// The id (without its organisation) of the model file a provider entry's `base_model`
/// names, where the bundle holds that file.
fn based_on<'a>(own: &'a Value, files: &BTreeMap<&str, &Value>) -> Option<&'a str> {
    let base = own.get("base_model").and_then(Value::as_str)?;
    files
        .contains_key(format!("models/{base}.toml").as_str())
        .then_some(())?;
    Some(base.split_once('/').map_or(base, |(_, id)| id))
}

/// Benchmark rows embedded in `models/<org>/<model>.toml` (`[[benchmarks]]`).
pub fn benchmark_rows(data: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (path, v) in files(data) {
        let Some(rest) = path.strip_prefix("models/") else {
            continue;
        };
        let id = rest.trim_end_matches(".toml").to_string();
        for b in v
            .get("benchmarks")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out.push((id.clone(), b.clone()));
        }
    }
    out
}

/// The benchmark rows of models.dev's model files, as scores.
pub fn scores(data: &Value, out: &mut Vec<RawScore>) {
    for (id, row) in benchmark_rows(data) {
        let (Some(name), Some(score)) = (
            row.get("name").and_then(Value::as_str),
            row.get("score").and_then(Value::as_f64),
        ) else {
            continue;
        };
        let metric = row.get("metric").and_then(Value::as_str);
        out.push(RawScore {
            source: "models-dev",
            benchmark: slugify(&name.replace('’', "")),
            benchmark_name: Some(name.to_string()),
            model: id.rsplit('/').next().unwrap_or(&id).to_string(),
            score,
            config: metric.map(|m| format!("metric={m}")),
            as_of: row.get("date").and_then(Value::as_str).map(str::to_string),
            // The host of the row's `source` URL: a leaderboard or the maker's own page.
            release: None,
            publication: row
                .get("source")
                .and_then(Value::as_str)
                .and_then(|u| u.split("://").nth(1))
                .and_then(|rest| rest.split('/').next())
                .map(str::to_string),
            citation: row
                .get("source")
                .and_then(Value::as_str)
                .map(str::to_string),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_media_model_priced_by_its_input_alone_prices_per_item() {
        let image = |cost: Value| json!({"modalities": {"output": ["image"]}, "cost": cost});
        let sd = image(json!({"input": 0.08, "output": 0.0}));
        assert!(per_item(&sd, &sd["cost"]));
        let gpt_image = image(json!({"input": 5.0, "output": 40.0}));
        assert!(!per_item(&gpt_image, &gpt_image["cost"]));
        let free = image(json!({"input": 0, "output": 0}));
        assert!(!per_item(&free, &free["cost"]));
        let chat = json!({"modalities": {"output": ["text"]}, "cost": {"input": 1, "output": 0}});
        assert!(!per_item(&chat, &chat["cost"]));
    }

    #[test]
    fn provider_fields_win_and_omitted_fields_go() {
        let base = json!({"name": "Base", "limit": {"context": 100, "input": 90, "output": 10}, "open_weights": true});
        let own =
            json!({"name": "Own", "limit": {"output": 20}, "base_model_omit": ["limit.input"]});
        let m = inherit(&base, &own);
        assert_eq!(m["name"], "Own");
        assert_eq!(m["limit"], json!({"context": 100, "output": 20}));
        assert_eq!(m["open_weights"], true);
    }

    #[test]
    fn cost_tiers_keep_their_threshold_and_fall_back_to_base_lines() {
        let cost = json!({"input": 5, "output": 25, "cache_read": 0.5,
            "tiers": [{"tier": {"size": 200000}, "input": 10, "output": 37.5}]});
        let t = tiers(&cost);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].from_tokens, 200000);
        assert_eq!(
            (t[0].input_price, t[0].output_price),
            (Some(10.0), Some(37.5))
        );
        assert_eq!(
            t[0].cache_read_price,
            Some(0.5),
            "a line the tier leaves out keeps its base"
        );
        assert!(tiers(&json!({"input": 1})).is_empty());
    }

    #[test]
    fn a_host_s_default_closed_is_marked_and_a_creator_s_is_not() {
        let rec = |provider: &str, creator: &str, open: bool| ModelRecord {
            provider: Some(provider.into()),
            creator: Some(creator.into()),
            open_weights: Some(open),
            ..ModelRecord::default()
        };
        // A host saying `false` for all but one of its entries; OpenAI's own API saying
        // `false` for all of its own.
        let mut recs: Vec<ModelRecord> = (0..TEMPLATE_MIN)
            .map(|i| rec("gateway", "meta", i == 0))
            .chain((0..TEMPLATE_MIN).map(|_| rec("openai", "openai", false)))
            .collect();
        assert_eq!(forget_default_closed(&mut recs), TEMPLATE_MIN - 1);
        assert!(!recs[0].closed_by_default, "a `true` is read");
        assert!(recs[1].closed_by_default);
        assert!(recs[TEMPLATE_MIN..].iter().all(|r| !r.closed_by_default));
        // A host whose `false` is one answer among others states facts.
        let mut mixed: Vec<ModelRecord> = (0..TEMPLATE_MIN)
            .map(|i| rec("host", "meta", i % 3 == 0))
            .collect();
        assert_eq!(forget_default_closed(&mut mixed), 0);
    }

    #[test]
    fn a_host_s_listing_day_is_no_release_date() {
        let rec = |provider: &str, id: &str, day: &str| ModelRecord {
            provider: Some(provider.into()),
            parsed: Some(names::parse(id)),
            release_date: Some(day.into()),
            ..ModelRecord::default()
        };
        // Six lines on one day at a router: the day it listed them.
        let lines = [
            "dolphin-2",
            "hunyuan-t1",
            "qwq-32b",
            "llama-3",
            "deepseek-r1",
            "glm-4",
        ];
        let mut recs: Vec<ModelRecord> = lines
            .iter()
            .map(|id| rec("router", id, "2025-02-27"))
            .collect();
        // One family's sizes on its release day, and five launches on one day, stay.
        recs.extend(
            [
                "qwen3-8b",
                "qwen3-14b",
                "qwen3-32b",
                "qwen3-4b",
                "qwen3-1-7b",
                "qwen3-0-6b",
            ]
            .map(|id| rec("host", id, "2025-04-29")),
        );
        recs.extend(
            [
                "wan-2-6",
                "flux-2-max",
                "seedance-1-5",
                "gpt-image-1-5",
                "mimo-v2-flash",
            ]
            .map(|id| rec("host", id, "2025-12-16")),
        );
        // Another host copying the router's batch day for one of its models, and the same
        // host's own date for another model that day.
        recs.push(rec("copier", "qwq-32b", "2025-02-27"));
        recs.push(rec("copier", "phi-4", "2025-02-27"));
        let batched = lines.len();
        assert_eq!(forget_listing_dates(&mut recs), batched + 1);
        assert!(recs[..batched].iter().all(|r| r.release_date.is_none()));
        assert!(
            recs[batched..recs.len() - 2]
                .iter()
                .all(|r| r.release_date.is_some())
        );
        assert_eq!(recs[recs.len() - 2].release_date, None);
        assert!(recs[recs.len() - 1].release_date.is_some());
    }

    #[test]
    fn a_host_claiming_tools_for_its_image_generators_states_a_default() {
        let rec = |provider: &str, out: &str, tools: bool| ModelRecord {
            provider: Some(provider.into()),
            output_modalities: Some(vec![out.into()]),
            tool_call: Some(tools),
            ..ModelRecord::default()
        };
        let mut recs: Vec<ModelRecord> = (0..TOOLS_DEFAULT_MIN)
            .map(|_| rec("bots", "image", true))
            .chain([rec("bots", "text", true), rec("bots", "text", false)])
            .chain((0..TOOLS_DEFAULT_MIN).map(|_| rec("host", "image", false)))
            .chain([rec("host", "text", true)])
            .collect();
        // The bots' six claims are gone, their `false` and the other host's word stay.
        assert_eq!(forget_default_tools(&mut recs), TOOLS_DEFAULT_MIN + 1);
        assert_eq!(recs[TOOLS_DEFAULT_MIN + 1].tool_call, Some(false));
        assert_eq!(recs.last().unwrap().tool_call, Some(true));
    }

    #[test]
    fn a_provider_s_template_limits_are_not_read() {
        let rec = |provider: &str, context: i64, output: i64| ModelRecord {
            provider: Some(provider.into()),
            context: Some(context),
            max_output: Some(output),
            ..ModelRecord::default()
        };
        let mut recs: Vec<ModelRecord> = (0..TEMPLATE_MIN)
            .map(|i| {
                if i % 2 == 0 {
                    rec("gateway", 128_000, 16_384)
                } else {
                    rec("gateway", 8_192 + i as i64, 4_096)
                }
            })
            .chain((0..TEMPLATE_MIN).map(|_| rec("host", 131_072, 8_192)))
            .collect();
        // Three entries of a host sharing one pair are too few to call it a template: only
        // the gateway's half is forgotten.
        recs.truncate(TEMPLATE_MIN + 3);
        assert_eq!(forget_template_limits(&mut recs), TEMPLATE_MIN / 2);
        assert_eq!(recs[0].context, None);
        assert_eq!(recs[1].context, Some(8_193));
        assert_eq!(recs[TEMPLATE_MIN].context, Some(131_072));
    }

    #[test]
    fn reads_a_small_bundle() {
        let data = json!({
            "files": {
                "providers/xai/provider.toml": {"name": "xAI", "doc": "https://docs.x.ai"},
                "models/meta/llama-4.toml": {"name": "Llama 4", "release_date": "1970-01-01", "open_weights": true,
                    "modalities": {"input": ["text", "image"], "output": ["text"]}},
                "providers/xai/models/grok-3.toml": {"name": "Grok 3", "release_date": "2025-02-17",
                    "cost": {"input": 3, "output": 15}, "limit": {"context": 131072, "output": 8192}},
                "providers/groq/models/meta-llama/llama-4.toml": {"base_model": "meta/llama-4", "cost": {"input": 0.1}}
            },
            "symlinks": {"providers/other/models/grok-3.toml": "providers/xai/models/grok-3.toml"}
        });
        let (mut out, mut meta, mut report) = (Vec::new(), BTreeMap::new(), Report::default());
        records(&data, &mut out, &mut meta, &mut report);
        assert_eq!(out.len(), 4);
        let groq = out
            .iter()
            .find(|r| r.provider.as_deref() == Some("groq"))
            .unwrap();
        // The base's name is the base's: the entry writes none of its own.
        assert_eq!(groq.name, None);
        assert_eq!(groq.creator.as_deref(), Some("meta"));
        assert_eq!(groq.release_date, None, "placeholder dates are dropped");
        assert_eq!(groq.open_weights, Some(true));
        assert_eq!(groq.prices.as_ref().unwrap().input, Some(0.1));
        assert_eq!(groq.prices.as_ref().unwrap().output, None);
        let linked = out
            .iter()
            .find(|r| r.provider.as_deref() == Some("other"))
            .unwrap();
        assert_eq!(linked.context, Some(131072));
        assert_eq!(meta["xai"].website.as_deref(), Some("https://docs.x.ai"));
    }
}

#[cfg(test)]
mod api_json_tests {
    use super::*;

    fn by_key(data: &Value) -> BTreeMap<(String, String), ModelRecord> {
        let (mut out, mut meta, mut report) = (Vec::new(), BTreeMap::new(), Report::default());
        records(data, &mut out, &mut meta, &mut report);
        out.into_iter()
            .filter_map(|r| Some(((r.provider.clone()?, r.raw_id.clone()), r)))
            .collect()
    }

    #[test]
    fn api_json_is_read_as_the_bundle_s_files() {
        let api = serde_json::json!({"acme": {"id": "acme", "name": "Acme", "doc": "https://acme.example",
            "models": {"acme-1": {"id": "acme-1", "name": "Acme One", "cost": {"input": 1, "output": 2},
            "limit": {"context": 1000, "output": 100}, "release_date": "2026-01-02"}}}});
        let b = bundle_from_api(&api).unwrap();
        let recs = by_key(&b);
        let r = &recs[&("acme".to_string(), "acme-1".to_string())];
        assert_eq!(r.name.as_deref(), Some("Acme One"));
        assert_eq!(r.prices.as_ref().unwrap().output, Some(2.0));
        assert_eq!(r.context, Some(1000));
        assert!(bundle_from_api(&serde_json::json!([1, 2])).is_none());
        assert!(bundle_from_api(&serde_json::json!({"x": {"name": "no models"}})).is_none());
    }

    /// The real `api.json` of models.dev's PyPI release 1.0.398 against the TOML bundle:
    /// where both list a provider's model, the prices, limits, name and date agree for
    /// nearly all (the two copies are months apart, so some prices moved).
    #[test]
    #[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
    fn the_published_api_json_yields_the_bundle_s_records() {
        let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
        let gz =
            std::fs::File::open(shared.join("archive/models-dev/1.0.398/api.json.gz")).unwrap();
        let api: Value = serde_json::from_reader(flate2::read::GzDecoder::new(gz)).unwrap();
        let from_api = by_key(&bundle_from_api(&api).unwrap());
        let from_bundle = by_key(&read_json(&shared.join("raw").join(BUNDLE)).unwrap());
        assert!(from_api.len() > 3000, "{}", from_api.len());
        let (mut both, mut same) = (0, 0);
        for (k, a) in &from_api {
            let Some(b) = from_bundle.get(k) else {
                continue;
            };
            both += 1;
            let price = |r: &ModelRecord| r.prices.as_ref().map(|p| (p.input, p.output));
            // The API writes a base's name into each entry that names none of its own; the
            // bundle says which entries those are, and they are no witness of a name.
            let name = |r: &ModelRecord| b.name.as_ref().and(r.name.clone());
            if (price(a), a.context, name(a), &a.release_date)
                == (price(b), b.context, name(b), &b.release_date)
            {
                same += 1;
            }
        }
        assert!(both > 2000, "{both} models in both");
        assert!(same * 100 >= both * 80, "{same} of {both} agree");
    }
}
