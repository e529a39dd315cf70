//! Identity rules that decide when two spellings are one model (`docs/methodology.md`), beyond what
//! name normalization ([`super::names`]) already joins.

use std::collections::{BTreeMap, BTreeSet};

use entity::vocab::ProviderKind;

use super::names;

/// Suffixes of a run configuration that a provider sometimes lists as a model id of its own
/// (benchmark names use them too, see `scores::candidates`):
/// thinking budgets and reasoning effort. `-base` is not one (base and chat are different
/// models), nor `-max` (`qwen3-max` is a model).
pub const CONFIG_SUFFIXES: &[&str] = &[
    "-thinking-64k",
    "-thinking-32k",
    "-thinking-16k",
    "-thinking-8k",
    "-thinking-auto",
    // Before `-thinking`, which it ends with.
    "-non-thinking",
    "-nothinking",
    // Before `-think`, which it ends with (302.AI's `gemini-2.5-flash-nothink`).
    "-nothink",
    "-thinking",
    // A router's short spelling of `-thinking` (`claude-opus-4-6-think`).
    "-think",
    "-xhigh",
    "-high",
    "-medium",
    "-low",
    "-minimal",
];

/// Suffixes of a host's packaging of a model: quantisation (local runners' GGUF and MLX
/// builds too: `qwen3_5-9b-q4_k_m`, `-mlx-4bit`) and the Hugging Face weights' format
/// (`Llama-2-7b-chat-hf`), a cloud's managed-service tag, a router's default alias, a
/// trusted-execution-environment deployment (`-tee`), Groq's speculative-decoding endpoint
/// (`-specdec`), a region's route (Fireworks' `glm-5p3-flash-us`), a deployment tier
/// (Fireworks' `-basic`), a router's route through one host (nano-gpt's
/// `deepseek-r1-sambanova`) or its cheaper queue (nano-gpt's `deepseek-v4-pro-cheaper`), a
/// host's structured-generation serving (Doubleword's `…-fp8-dottxt`), Groq's label for
/// its general-purpose endpoint (`llama-3.1-70b-versatile`). Longer first where
/// one ends another. Stripped only where the
/// model without it exists.
const HOST_SUFFIXES: &[&str] = &[
    "-maas",
    "-nvfp4",
    "-fp8",
    "-fp4",
    "-bf16",
    "-fp16",
    // Intel's AutoRound mixed-precision build (`Qwen3-Coder-480B-A35B-Instruct-int4-mixed-ar`).
    "-int4-mixed-ar",
    "-int4",
    "-int8",
    "-awq",
    "-default",
    "-tee",
    "-specdec",
    // Cloudflare's FP8 fast serving, Together's throughput tier (`…-Instruct-2507-tput`),
    // Clarifai's (`MiniMax-M2_5-high-throughput`, at MiniMax-M2.5's own price).
    "-fp8-fast",
    "-tput",
    "-high-throughput",
    "-us",
    "-q4-k-m",
    "-q5-k-m",
    "-q6-k",
    "-q8-0",
    "-q4-0",
    "-gguf",
    "-mlx-4bit",
    "-mlx-8bit",
    "-4bit",
    "-8bit",
    "-mlx",
    "-hf",
    "-basic",
    "-sambanova",
    "-cheaper",
    "-dottxt",
    "-versatile",
];

/// The model known only by a host's packaging of an id (Together's
/// `codellama/CodeLlama-70b-Instruct-hf` for a gateway's `codellama-70b-instruct`), where
/// the plain id names none.
pub fn packaged_as<'a>(raw: &str, lookup: impl Fn(&str) -> Option<&'a str>) -> Option<&'a str> {
    HOST_SUFFIXES
        .iter()
        .find_map(|suffix| lookup(&format!("{raw}{suffix}")))
}

/// A host's own label after a model's id, joined only where no creator's record names the id:
/// Groq's `llama-3.1-8b-instant` (its file calls it "Llama 3.1 8B"), Novita's
/// `deepseek-v4-flash-0731-p`, Neuralwatt's shorter-window `glm-5.2-short`, DeepInfra's
/// `deepseek-r1-turbo`. OpenAI names products `Instant` (GPT-5.1 Instant, ChatGPT's
/// model), so its ids keep the word.
const HOST_LABELS: &[(&str, &[&str])] = &[
    ("-instant", &["openai"]),
    ("-p", &[]),
    ("-short", &[]),
    // A host's faster serving (DeepInfra's and Novita's `deepseek-r1-turbo`, Fireworks'
    // `kimi-k2.6-turbo`) of a lab the creators table knows; OpenAI's, Zhipu's, Alibaba's
    // and Stability's `-turbo` are models (`whisper-large-v3-turbo`, `glm-5-turbo`,
    // `qwen-mt-turbo`, `sd3-large-turbo`), and so is a maker's the table does not know
    // (Ideogram's `ideogram-v2a-turbo`).
    ("-turbo", &["openai", "zhipuai", "alibaba", "stability"]),
];

/// The key a host's labelled key names, where `exists(base)` (see [`HOST_LABELS`]).
pub fn host_labelled(key: &str, exists: impl Fn(&str) -> bool) -> Option<String> {
    HOST_LABELS.iter().find_map(|(label, keep)| {
        let base = key.strip_suffix(label)?;
        let lab = names::creator_for(None, base);
        let kept = lab.is_some_and(|c| keep.contains(&c)) || *label == "-turbo" && lab.is_none();
        (!base.is_empty() && !kept && exists(base)).then(|| base.to_string())
    })
}

/// The reviewed table of hosts that serve instruction-tuned checkpoints only, with the
/// endpoint labels each writes after a model's id (`data/tuned_hosts.csv`).
const TUNED_HOSTS_CSV: &str = include_str!("../../data/tuned_hosts.csv");

/// Provider slug → its endpoint labels, from [`TUNED_HOSTS_CSV`].
fn tuned_hosts() -> &'static BTreeMap<String, Vec<String>> {
    static HOSTS: std::sync::OnceLock<BTreeMap<String, Vec<String>>> = std::sync::OnceLock::new();
    HOSTS.get_or_init(|| {
        let mut r = csv::Reader::from_reader(TUNED_HOSTS_CSV.as_bytes());
        r.records()
            .filter_map(Result::ok)
            .filter_map(|row| {
                let provider = row.get(0)?.trim().to_string();
                let labels = row.get(1)?.split_whitespace().map(str::to_string).collect();
                (!provider.is_empty()).then_some((provider, labels))
            })
            .collect()
    })
}

/// The model a tuned-only host's labelled id names: the id without the host's endpoint label
/// (Groq's `llama-3.1-405b-reasoning`, its 405B Instruct endpoint of July 2024;
/// `llama-3.2-1b-preview`), where a model of that name, or its `-instruct`, is known
/// (`exists`: `llama-3.2-11b-vision-preview` is `llama-3.2-11b-vision-instruct`).
pub fn endpoint_labelled(
    provider: &str,
    key: &str,
    exists: impl Fn(&str) -> bool,
) -> Option<String> {
    let head = tuned_hosts()
        .get(provider)?
        .iter()
        .find_map(|l| key.strip_suffix(l.as_str())?.strip_suffix('-'))
        .filter(|head| !head.is_empty())?;
    [head.to_string(), format!("{head}-instruct")]
        .into_iter()
        .find(|k| exists(k))
}

/// Moves of a tuned-only host's records (`data/tuned_hosts.csv`) out of a model with a tuned
/// checkpoint beside it: the line's plain id there (Snowflake's `llama3.1-405b`, Databricks'
/// `databricks-gemma-3-12b`) sells the one `-instruct` or `-it` model of that name, not the
/// pretrained checkpoint a base-serving host sells under it (docs/methodology.md,
/// "Identity"). A plain name a creator's own API sells is a model of its own (Alibaba's hybrid
/// `qwen3-14b`), so it keeps what it has. Returns (from, into) group keys.
pub(super) fn tuned_sales(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    groups
        .iter()
        .filter(|(_, recs)| {
            recs.iter().any(|r| tuned_host(r.provider.as_deref()))
                && !recs.iter().any(|r| r.rank <= 2 && r.provider.is_some())
        })
        .filter_map(|(key, _)| {
            let mut tuned = ["instruct", "it"]
                .iter()
                .map(|t| format!("{key}-{t}"))
                .filter(|k| groups.contains_key(k));
            match (tuned.next(), tuned.next()) {
                (Some(into), None) => Some((key.clone(), into)),
                _ => None,
            }
        })
        .collect()
}

/// Whether the provider serves tuned checkpoints only ([`TUNED_HOSTS_CSV`]).
pub fn tuned_host(provider: Option<&str>) -> bool {
    provider.is_some_and(|p| tuned_hosts().contains_key(p))
}

/// Creators whose `-thinking` is a mode of one model; others (Qwen, Kimi, ERNIE) release
/// thinking checkpoints as models of their own.
const THINKING_IS_A_MODE: &[&str] = &[
    "anthropic",
    "google",
    "openai",
    "deepseek",
    "xai",
    "zhipuai",
];

/// Routes a host sells beside the model itself under a prefixed id, on terms of a plan (a
/// discounted coding route): (provider, id prefix, the plan's provider slug, its name). The
/// route is an offering of the model at the plan, not a model.
pub const PLAN_ROUTES: &[(&str, &str, &str, &str)] = &[(
    "aihubmix",
    "coding-",
    "aihubmix-coding-plan",
    "AIHubMix Coding Plan",
)];

/// The plan a route id belongs to, and the model id it routes to
/// (`coding-glm-5.1` at AIHubMix → `aihubmix-coding-plan`, `glm-5.1`).
pub fn plan_route<'a>(provider: Option<&str>, raw: &'a str) -> Option<(&'static str, &'a str)> {
    let provider = provider?;
    PLAN_ROUTES.iter().find_map(|(host, prefix, plan, _)| {
        let id = raw.strip_prefix(prefix).filter(|_| *host == provider)?;
        // Its free route (`coding-glm-5.1-free`) is the same model at the same plan.
        let id = id.strip_suffix("-free").unwrap_or(id);
        (!id.is_empty()).then_some((*plan, id))
    })
}

/// A provider's own id for a model with the provider's name as a prefix
/// (`databricks-gpt-5` at `databricks`) names the model without it.
pub fn without_host_prefix<'a>(provider: Option<&str>, raw: &'a str) -> Option<&'a str> {
    let p = provider?;
    let rest = raw
        .get(..p.len())
        .filter(|head| head.eq_ignore_ascii_case(p))
        .and_then(|_| raw.get(p.len()..))?
        .strip_prefix(['-', '/', '.'])?;
    (!rest.is_empty()).then_some(rest)
}

/// The model a product's name with a closing parenthesis names: the parenthesis where it
/// holds a version, as model names do (`Agentic Chat (Claude Opus 4.5)` → `Claude Opus
/// 4.5`); else what stands before it, where the parenthesis names a host (`is_host` of its
/// first word: `DeepSeek V4 Flash (Alibaba Cloud)` → `DeepSeek V4 Flash`, but not
/// `Llama 3.1 8b (uncensored)`).
pub fn named_in_parentheses(name: &str, is_host: impl Fn(&str) -> bool) -> Option<&str> {
    let inner = name.trim_end().strip_suffix(')')?;
    let (before, inner) = inner.rsplit_once('(')?;
    let (inner, before) = (inner.trim(), before.trim());
    if inner.bytes().any(|b| b.is_ascii_digit()) {
        return Some(inner);
    }
    let first = names::slugify(inner);
    let first = first.split('-').next().unwrap_or_default();
    (!before.is_empty() && !first.is_empty() && is_host(first)).then_some(before)
}

/// The key of the model a configured (or host-packaged) key runs, when `exists(base)` says that model is known:
/// `claude-sonnet-4-5-20250929-thinking` → `claude-sonnet-4-5-20250929`.
pub fn configured(key: &str, exists: impl Fn(&str) -> bool) -> Option<(&str, String)> {
    let mut base = key;
    let mut stripped = false;
    for _ in 0..3 {
        if let Some(shorter) = budget_stripped(base) {
            base = shorter;
            stripped = true;
            continue;
        }
        // Together's and DeepInfra's `-Instruct-Turbo` is their quantised serving of the
        // instruct model (`Meta-Llama-3.1-70B-Instruct-Turbo`); a creator's `-turbo` names a
        // model of its own (`gpt-3.5-turbo`, `qwen-turbo`) and is never stripped.
        if let Some(head) = base
            .strip_suffix("-turbo")
            .filter(|h| h.ends_with("-instruct"))
        {
            base = head;
            stripped = true;
            continue;
        }
        let Some(suffix) = CONFIG_SUFFIXES
            .iter()
            .chain(HOST_SUFFIXES)
            .find(|s| base.ends_with(*s) && base.len() > s.len() + 1)
        else {
            break;
        };
        let shorter = &base[..base.len() - suffix.len()];
        if suffix.contains("think")
            && !names::creator_for(None, shorter).is_some_and(|c| THINKING_IS_A_MODE.contains(&c))
        {
            break;
        }
        base = shorter;
        stripped = true;
    }
    if stripped && exists(base) {
        return Some((key, base.to_string()));
    }
    // Hugging Face's `-chat-hf` spelling of a tuned model, kept by Together for a line whose
    // creator names its tuned model `-instruct` (`Llama-3-70b-chat-hf` is Llama 3 70B
    // Instruct): the instruct model, where no `-chat` model exists.
    let instruct = base
        .strip_suffix("-chat")
        .filter(|_| stripped && key.ends_with("-hf"))
        .map(|head| format!("{head}-instruct"))?;
    (!exists(base) && exists(&instruct)).then_some((key, instruct))
}

/// A thinking budget (`-16k`, `-59k`) on a model of a creator whose thinking is a mode:
/// the key without it. Elsewhere `-32k` names a context size a product is sold with.
fn budget_stripped(key: &str) -> Option<&str> {
    let (head, last) = key.rsplit_once('-')?;
    let n = last.strip_suffix('k')?;
    let budget = !n.is_empty() && n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit());
    (budget && names::creator_for(None, head).is_some_and(|c| THINKING_IS_A_MODE.contains(&c)))
        .then_some(head)
}

/// Whether `key` ends in the context window its records state (`gpt-4-32k` at 32,768 tokens,
/// `gpt-3.5-turbo-16k` at 16,385): a product sold with that window, not a thinking budget.
pub(super) fn window_named(key: &str, recs: &[super::ModelRecord]) -> bool {
    let Some(n) = key
        .rsplit_once('-')
        .and_then(|(_, last)| last.strip_suffix('k'))
        .and_then(|n| n.parse::<i64>().ok())
    else {
        return false;
    };
    recs.iter()
        .filter_map(|r| r.context)
        .any(|c| c >= n * 1000 && c <= n * 1024 + 1)
}

/// Path segments of model ids that are not an organisation (`accounts/fireworks/models/…`).
const NOT_VENDORS: &[&str] = &[
    "models",
    "model",
    "accounts",
    "library",
    "hf",
    "huggingface",
    "latest",
    // Hosts' route prefixes: a trusted-execution deployment, a router's pool, a cloud region
    // or deployment type.
    "tee",
    "route",
    "routers",
    "us-gov",
    "global-standard",
    "apac",
];

/// The organisation a record's id names as its vendor (`aion-labs/aion-1.0` at a router),
/// when the creators table does not know it: the source names the creator, so it is used,
/// unless it is the provider itself, a host another seller routes to (DigitalOcean's
/// `fal-ai/fast-sdxl`: fal is a cloud; a host never becomes a creator) or a path word.
pub fn named_vendor(r: &super::ModelRecord) -> Option<String> {
    let v = r.parsed.as_ref()?.vendor.as_deref()?;
    // A provider's other spelling (`fireworks/ember-1` at OpenRouter) names that provider,
    // never a second organisation beside it.
    let slug = super::catalog::canonical_provider(v);
    let is_host = r.provider.as_deref() == Some(slug.as_str())
        || matches!(
            super::prices::Tables::shared().provider_kind(&slug),
            ProviderKind::Cloud | ProviderKind::Router | ProviderKind::Plan
        );
    (!slug.is_empty() && !is_host && !NOT_VENDORS.contains(&slug.as_str())).then_some(slug)
}

/// Organisation names as routers print them before a model's name (`Aion Labs: Aion-1.0`),
/// by the slug they spell (`aion-labs`, compared without dashes).
pub fn vendor_names<'a>(
    records: impl Iterator<Item = &'a super::ModelRecord>,
) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    for r in records {
        let (Some(name), Some(vendor)) = (r.name.as_deref(), named_vendor(r)) else {
            continue;
        };
        let Some((printed, _)) = name.split_once(": ") else {
            continue;
        };
        let squash = |s: &str| names::slugify(s).replace('-', "");
        if display_name(name) != name && squash(printed) == squash(&vendor) {
            out.entry(vendor)
                .or_insert_with(|| printed.trim().to_string());
        }
    }
    out
}

/// A name written for people (`LLaVA (ViT-L/16-224)`, `GLaM (MoE) 0.1B/64E`) rather than an
/// id: a `/` in it separates parts of the name, not a vendor from a model.
pub fn is_display_name(raw: &str) -> bool {
    raw.contains('/') && raw.trim().contains(' ')
}

/// A display name as a person reads it, without what a router or host adds to its own
/// listing: a `Vendor: ` prefix (`Anthropic: Claude Opus 4.6` → `Claude Opus 4.6`), an
/// organisation path on an id-like name (`x-AI/Grok-4-Fast` → `Grok-4-Fast`; a name with
/// spaces keeps its `/`: `Claude 2.0 / 2.1`), and a free variant's `(free)` or `Free`
/// (`Kimi K2.5 Free` → `Kimi K2.5`: the free offering is the model's, not another model).
pub fn display_name(name: &str) -> &str {
    // Sources' stray white space (`DeepSeek R1 (Turbo)\t`) and a router's emoji
    // (`Dolphin 2.9.2 Mixtral 8x22B 🐬`) are no part of a name.
    let decoration = |c: char| c.is_whitespace() || !c.is_ascii() && !c.is_alphanumeric();
    let name = name.trim_matches(decoration);
    let name = match name.split_once(": ") {
        Some((vendor, rest))
            if !rest.trim().is_empty()
                && vendor.len() <= 40
                && !vendor.contains(['(', '/', ':'])
                && vendor.split_whitespace().count() <= 4 =>
        {
            rest.trim()
        }
        _ => name,
    };
    let name = match name.rsplit_once('/') {
        Some((_, rest)) if !name.trim().contains(' ') && !rest.is_empty() => rest,
        _ => name,
    };
    // A weights format ending a name (`Ternary-Bonsai-27B-gguf`, "Qwen3 4B FP8") is the
    // host's packaging.
    let lower = name.to_ascii_lowercase();
    let name = match WEIGHT_FORMATS.iter().find(|s| {
        lower.len() > s.len() && (lower.ends_with(*s) || lower.ends_with(&s.replacen('-', " ", 1)))
    }) {
        Some(s) => &name[..name.len() - s.len()],
        None => name,
    };
    // A router's free route, a host's trusted-execution deployment (NanoGPT's "Kimi K2.5
    // Thinking TEE") and a cloud's cross-region route (Bedrock's "Kimi K3.1 Pro Highspeed
    // (global)") are no part of the model's name.
    let lower = name.to_ascii_lowercase();
    match [
        " (free)",
        " free",
        "-free",
        ":free",
        " (tee)",
        " tee",
        " (global)",
        " (regional)",
        " (us)",
        " (eu)",
        " (apac)",
    ]
    .iter()
    .find(|s| lower.ends_with(*s) && lower.len() > s.len())
    {
        Some(s) => name[..name.len() - s.len()].trim_end(),
        None => name,
    }
}

/// Whether an id is a packaging of a model's weights (a quantisation: Epoch's
/// `Qwen2.5-Coder-32B-Instruct-Q8_0-GGUF`), published on a day of its own.
pub fn packaged(id: &str) -> bool {
    let id = id.to_ascii_lowercase();
    WEIGHT_FORMATS.iter().any(|f| id.ends_with(f))
}

/// Weights formats a host's name may end with (longer first where one ends another).
pub const WEIGHT_FORMATS: [&str; 12] = [
    "-awq-4bit",
    "-gguf",
    "-awq",
    "-4bit",
    "-8bit",
    "-int4",
    "-int8",
    "-fp8",
    "-bf16",
    "-fp16",
    "-nvfp4",
    "-mlx",
];

/// A model's display name from its records (best first): a source's own name before a
/// router's `Vendor: Name`, which loses its prefix.
pub fn model_name(recs: &[super::ModelRecord]) -> Option<String> {
    // An Ollama tag (`ministral-3:14b`) is a host's id, not a name: the slug reads better.
    // A floating alias's name ("Pixtral Large (latest)") names whichever snapshot was
    // newest: heard only where no other record names the model.
    let floating = |r: &&super::ModelRecord| r.raw_id.to_ascii_lowercase().ends_with("latest");
    // A name stating another size than its own id (NanoGPT's "Llama 3.1 70B Dracarys 2" for
    // `abacusai/Dracarys-72B-Instruct`) is another model's label.
    let sizes = |text: &str| -> BTreeSet<String> {
        names::slugify(text)
            .split('-')
            .filter(|w| size_word(w) && !w.starts_with('a'))
            .map(str::to_string)
            .collect()
    };
    let sized_apart = |r: &super::ModelRecord, name: &str| {
        let (own, named) = (sizes(&r.raw_id), sizes(name));
        !own.is_empty() && !named.is_empty() && own.is_disjoint(&named)
    };
    // A name leaving out the size its id states ("gemini 1.5 flash" for
    // `gemini-flash-1.5-8b`) is heard only where no name states it.
    let size_left_out =
        |r: &super::ModelRecord, name: &str| !sizes(&r.raw_id).is_empty() && sizes(name).is_empty();
    let names = |sized: bool| {
        recs.iter()
            .filter(|r| !floating(r))
            .chain(recs.iter().filter(floating))
            .filter_map(|r| Some((r, r.name.as_deref()?)))
            .filter(|(r, n)| !sized_apart(r, n))
            .filter(move |(r, n)| !(sized && size_left_out(r, n)))
            .map(|(_, n)| n)
            .filter(|n| !ollama_tagged(n))
    };
    // Words without a capital letter ("gpt 4 vision", genai-prices' label for
    // `gpt-4-vision-preview`) are a label, heard only where no name has one ("GPT-4V"); an
    // id-like name (`o3-mini`) is the creator's own spelling and stays.
    // A name for several versions ("Claude 2.0 / 2.1", a price entry's) names none of them.
    let cased_only = |n: &&str| {
        (n.chars().any(|c| c.is_ascii_uppercase()) || !n.contains(' ')) && !n.contains(" / ")
    };
    // (A floating alias's name is no better for its capitals: "Gemini Pro Latest".)
    let pick = |sized: bool, cased: bool| {
        let fixed: BTreeSet<&str> = recs
            .iter()
            .filter(|r| !floating(r))
            .filter_map(|r| r.name.as_deref())
            .collect();
        let mut named = names(sized)
            .filter(move |n| !cased || cased_only(n) && fixed.contains(n))
            .peekable();
        let first = named.peek().copied();
        named
            .find(|n| display_name(n) == *n)
            .or_else(|| first.map(display_name))
    };
    // A name another source writes alike with a capital first (Google's own "gemini 1.5 Pro"
    // beside its "Gemini 1.5 Pro") is written so.
    let capitalised = |n: &str| -> String {
        let lower_first = n.starts_with(|c: char| c.is_ascii_lowercase()) && n.contains(' ');
        recs.iter()
            .filter_map(|r| r.name.as_deref())
            .map(display_name)
            .find(|m| {
                lower_first
                    && m.eq_ignore_ascii_case(n)
                    && m.starts_with(|c: char| c.is_ascii_uppercase())
            })
            .unwrap_or(n)
            .to_string()
    };
    pick(true, true)
        .or_else(|| pick(false, true))
        .or_else(|| pick(true, false))
        .or_else(|| pick(false, false))
        .map(capitalised)
}

/// Whether a name carries an Ollama-style tag (`:14b`, `:latest`); `Vendor: Model` does not.
fn ollama_tagged(name: &str) -> bool {
    name.split(':')
        .skip(1)
        .any(|rest| rest.starts_with(|c: char| c.is_ascii_alphanumeric()))
}

/// Organisations that republish others' weights unchanged (quantised, converted): the model
/// in their repositories is its maker's.
const REPACKAGERS: &[&str] = &[
    "unsloth",
    "thebloke",
    "mlx-community",
    "lmstudio-community",
    "bartowski",
    "ggml-org",
    "second-state",
    "nousresearch-gguf",
];

/// The publisher of a community derivative: the organisation its id names
/// (`huihui-ai/Llama-3.3-70B-Instruct-abliterated`) when the name says it is one
/// ([`says_derivative`]), the creators table does not know the organisation, and it
/// republishes nothing unchanged. The name says what it derives from (Meta's `llama`), the
/// organisation who made it. Publishers of fine-tunes without such a word (NeverSleep's
/// Lumimaid, Sao10K's Euryale) are rows of the creators table, whose vendor ids credit them.
/// Hosts' path words (`tee/`, `route/`, `us-gov/`) name no organisation, hence the word.
pub fn fine_tune_publisher(r: &super::ModelRecord, key: &str) -> Option<String> {
    if !says_derivative(key) {
        return None;
    }
    let org = named_vendor(r)?;
    let tables = super::prices::Tables::shared();
    let known = tables.creator_of_vendor(&org).is_some() || tables.creators.contains_key(&org);
    (!known && !REPACKAGERS.contains(&org.as_str())).then_some(org)
}

/// Words that mark a community derivative of the model the rest of the name is
/// (`-abliterated`: refusals removed; `-uncensored`, `-heretic`, `-lorablated`,
/// `-derestricted`).
const DERIVATIVE_WORDS: &[&str] = &[
    "abliterated",
    "uncensored",
    "heretic",
    "lorablated",
    "derestricted",
];

/// Whether a key names a community derivative by one of [`DERIVATIVE_WORDS`].
pub fn says_derivative(key: &str) -> bool {
    key.split('-').any(|w| DERIVATIVE_WORDS.contains(&w))
}

/// The keys a derivative's base may have, longest first: the key without its last words, as
/// long as what comes off holds no digit (a size or a version is part of the base's name:
/// `llama-3.3-70b-instruct-abliterated` → `llama-3.3-70b-instruct`; `llama-3-lumimaid-70b`
/// has none).
pub fn base_candidates(key: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = key;
    for _ in 0..3 {
        let Some((head, last)) = rest.rsplit_once('-') else {
            break;
        };
        if head.is_empty() || last.bytes().any(|b| b.is_ascii_digit()) {
            break;
        }
        out.push(head);
        rest = head;
    }
    out
}

/// A model's creator: the publisher of a fine-tune where its id names one
/// ([`fine_tune_publisher`], or a publisher of the creators table); else from its records
/// (best first), else the creators table's answer for its key, else the organisation a
/// source's id names.
pub fn model_creator(key: &str, recs: &[super::ModelRecord]) -> Option<String> {
    let plain = key.replace('.', "-");
    let tables = super::prices::Tables::shared();
    // A publisher of the creators table with no API of its own, named by an id's
    // organisation (`neversleep/llama-3-lumimaid-70b`), over the lab the name starts with.
    let publisher = |r: &super::ModelRecord| {
        let org = named_vendor(r)?;
        let c = tables.creator_of_vendor(&org)?;
        tables
            .creators
            .get(c)
            .filter(|row| row.first_party.is_empty())
            .map(|row| row.slug.clone())
    };
    // A community derivative of an open family whose id names no publisher (NanoGPT's
    // `TEE/gemma-4-26b-a4b-uncensored`) is not the lab's its name starts with: no creator
    // rather than the base's lab. A lab's own product of that word (`venice-uncensored`)
    // is no open family's derivative (docs/methodology.md, "Creators").
    let base_lab = (says_derivative(&plain) && super::catalog::open_family(key))
        .then(|| names::creator_for(None, &plain))
        .flatten();
    let not_base_lab = |c: &String| base_lab != Some(c.as_str());
    recs.iter()
        .find_map(|r| fine_tune_publisher(r, &plain))
        .or_else(|| recs.iter().find_map(publisher))
        .or_else(|| {
            recs.iter()
                .filter_map(|r| r.creator.clone())
                .find(not_base_lab)
        })
        .or_else(|| {
            names::creator_for(None, &plain)
                .map(str::to_string)
                .filter(not_base_lab)
        })
        .or_else(|| recs.iter().filter_map(named_vendor).find(not_base_lab))
        // A cloud, router or plan is never a creator unless the creators table says it is
        // one (OpenRouter's stealth `openrouter/owl-alpha` names no lab; docs/data.md,
        // "Creators"), or the model is its own product.
        .filter(|c| {
            tables.creators.contains_key(c)
                || !matches!(
                    tables.provider_kind(c),
                    entity::vocab::ProviderKind::Cloud
                        | entity::vocab::ProviderKind::Router
                        | entity::vocab::ProviderKind::Plan
                )
        })
        .or_else(|| recs.iter().find_map(product_maker))
}

/// Words a release line uses for its own variants whichever lab makes it, beyond the
/// creator's own ids: they never make a host's entry a community fine-tune.
const VARIANT_WORDS: &[&str] = &[
    "preview",
    "exp",
    "experimental",
    "beta",
    "latest",
    "free",
    "base",
    "instruct",
    "chat",
    "it",
    "vision",
    "vl",
    "thinking",
    "reasoning",
    "coder",
    "code",
    "turbo",
    "instant",
    "fast",
    // An image model's editing variant (`qwen-image-edit`).
    "edit",
    // Hosts' route words: Poe's Cerebras deployments (`-cs`), NanoGPT's discounted routes.
    "cs",
    "cheaper",
];

/// Community fine-tunes a host sells under a lab's model name with words of its own
/// (`gemma-4-31b-gemopus`, `qwen3.5-27b-writer-derestricted`): a model of an open family
/// (`data/open_families.csv`, or a base whose own metadata file says its weights are open,
/// `glm-4.6-derestricted-v5`) no record of which comes from its creator (no metadata file
/// of its own, no first-party API), a witness of which says its weights are not open and
/// none that they are, whose slug is a model of the same lab followed by words no id of
/// that lab uses ([`VARIANT_WORDS`] aside). Such a model is not the lab's
/// release: it is credited to no creator but a publisher its id names, its family's open
/// weights are not its own, and it links the model it derives from (docs/methodology.md,
/// "Creators"). Returns each one's base model.
pub fn unvouched(
    models: &BTreeMap<String, Vec<super::ModelRecord>>,
    lookup: impl Fn(&str) -> Option<String>,
) -> BTreeMap<String, String> {
    let lab_of = |slug: &str| names::creator_for(None, &slug.replace('.', "-"));
    let tables = super::prices::Tables::shared();
    let mut words: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for r in models.values().flatten().filter(|r| r.rank <= 2) {
        if let (Some(c), Some(p)) = (&r.creator, &r.parsed) {
            words
                .entry(c.as_str())
                .or_default()
                .extend(p.key.split('-'));
        }
    }
    // A host's name in an id is a deployment's label (`deepseek-r1-sambanova`), not a
    // fine-tune's.
    let hosts: BTreeSet<&str> = models
        .values()
        .flatten()
        .filter_map(|r| r.provider.as_deref())
        .collect();
    let mut out = BTreeMap::new();
    for (slug, recs) in models {
        // The open family's name with a witness saying its weights are not open: the
        // lab publishes that family's weights, so what is closed is not the lab's.
        if recs
            .iter()
            .any(|r| r.rank <= 2 || r.open_weights == Some(true))
            || !recs.iter().any(|r| r.open_weights == Some(false))
        {
            continue;
        }
        let Some(lab) = lab_of(slug) else {
            continue;
        };
        // The lab's own API selling it vouches for it (`glm-4.5-x`, `minimax-m2.5-lightning`).
        if recs.iter().any(|r| {
            r.provider
                .as_deref()
                .is_some_and(|p| tables.is_first_party(Some(lab), p))
        }) {
            continue;
        }
        let known = words.get(lab);
        // Every shorter run of the slug's words, longest first: a fine-tune's own words may
        // hold a version (`qwen3.5-27b-writer-v2-derestricted`).
        let prefixes: Vec<&str> = slug
            .match_indices('-')
            .map(|(i, _)| &slug[..i])
            .rev()
            .collect();
        for base in prefixes {
            let Some(target) = lookup(base).filter(|t| t != slug) else {
                continue;
            };
            let extra = slug.get(base.len() + 1..).unwrap_or_default();
            // A size after the base names another checkpoint of the line, the lab's own
            // (`deepseek-r1-distill-qwen-7b`, `gemma2-9b-it`); a fine-tune's words are
            // names (`writer`, `garnet`), its versions (`v2`) aside.
            let size = extra.split('-').any(|w| {
                w.len() > 1
                    && w.ends_with(['b', 'm'])
                    && w[..w.len() - 1]
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b == b'.')
            });
            // (A fine-tune's name may carry its own version glued on: `garnetv2`; or be a
            // code, a letter and a number, `gemma-4-31b-k1-v5`, where the lab's ids use
            // no such word and it is no version `v2`.)
            let unknown = |w: &str| {
                !VARIANT_WORDS.contains(&w)
                    && !NEUTRAL_WORDS.contains(&w)
                    && !hosts.contains(w)
                    && !known.is_some_and(|k| k.contains(w))
            };
            let code = |w: &str| {
                w.len() >= 2
                    && w.starts_with(|c: char| c.is_ascii_alphabetic() && c != 'v')
                    && w[1..].bytes().all(|b| b.is_ascii_digit())
            };
            let own_words = !size
                && extra.split('-').any(|raw| {
                    let w = raw
                        .trim_end_matches(|c: char| c.is_ascii_digit() || c == '.')
                        .trim_end_matches('v');
                    let word = w.len() > 2 && !w.bytes().any(|b| b.is_ascii_digit());
                    (word && unknown(w)) || (code(raw) && unknown(raw))
                });
            // The lab publishes the base's weights: its family is open, or the base's
            // own metadata says so (GLM-4.6).
            let open_base = super::catalog::open_family(slug)
                || models.get(&target).is_some_and(|base| {
                    base.iter()
                        .any(|r| r.rank == 0 && r.open_weights == Some(true))
                });
            if own_words && open_base && lab_of(&target) == Some(lab) {
                out.insert(slug.clone(), target);
            }
            break;
        }
    }
    out
}

/// Words a provider puts in an id that do not change the model it serves: packagings
/// (`hf`, `fp8`, `bf16`, `nvfp4`, `dynamic`), router variants (`free`, `latest`, NanoGPT's
/// `original` route, `glm-4.6-original`) and Mistral's `open-` for its open-weights API ids.
const NEUTRAL_WORDS: &[&str] = &[
    "hf", "fp8", "fp4", "bf16", "fp16", "nvfp4", "dynamic", "free", "latest", "open", "original",
];

/// The tuned variant every model a provider serves is (`instruct`, `chat`, `it`): neutral
/// between two served models, but not for a checkpoint known only from a paper's table,
/// where the plain name is the base model (`Llama 2-70B`).
const SERVED_WORDS: &[&str] = &["instruct", "chat", "it"];

/// Whether an id or name says a served word (`-Instruct`, `-chat`, `-it`).
pub fn says_served(text: &str) -> bool {
    spelling(text)
        .words
        .iter()
        .any(|w| SERVED_WORDS.contains(&w.as_str()))
}

/// The served words a seller's display name may leave out (`Llama 3.3 70B` for
/// `Llama-3.3-70B-Instruct`); `chat` is not one, as it also names products (`GPT-5.2 Chat`).
const UNSAID_WORDS: &[&str] = &["instruct", "it"];

/// An id or a display name taken apart for comparison: `gpt-5.2`, `openai-gpt-52` and
/// `GPT-5.2` have the words `gpt`, `52`; `mistral-medium-2505` has the words `mistral`,
/// `medium` and the date `2505`; `mistral-7b-v0.1` ends with the version `01`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Spelling {
    /// Words, with a version's point dropped (`5.2`, `5-2` → `52`), a letter–digit seam
    /// split (`small3.2` → `small`, `32`; `qwen3.6` → `qwen`, `36`) and a `v` before a
    /// version dropped (`v3.1` → `31`).
    pub words: BTreeSet<String>,
    /// Snapshot dates (`20241022`, `2024-08-06`, `08-2024`, `260215`, `0528`, `2505`).
    pub dates: BTreeSet<String>,
    /// A version counter ending the id (`-001`, `-1`, `-v0.1`), which an undated spelling
    /// may leave out.
    pub tail: Option<String>,
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// A 4-digit month-day or year-month, as in `gpt-4-0613` or `codestral-2501`.
fn short_date(s: &str) -> bool {
    s.len() == 4 && all_digits(s) && names::split_date(&format!("x-{s}")).is_some()
}

/// Takes `text` (an id or a display name) apart; see [`Spelling`].
pub fn spelling(text: &str) -> Spelling {
    let lower = text.to_ascii_lowercase();
    let parts: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect();
    let mut out = Spelling::default();
    let year = |s: &str| s.len() == 4 && s.starts_with("20") && all_digits(s);
    let two = |s: &str| s.len() == 2 && all_digits(s);
    // Dates first, so their digits are not read as version points.
    let mut rest: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < parts.len() {
        let p = parts[i];
        let next = |k: usize| parts.get(i + k).copied().unwrap_or("");
        if year(p) && two(next(1)) && two(next(2)) {
            out.dates.insert(format!("{p}{}{}", next(1), next(2)));
            i += 3;
        } else if two(p) && p <= "12" && year(next(1)) {
            out.dates.insert(format!("{}{p}", next(1)));
            i += 2;
        } else if all_digits(p) && (p.len() == 8 && p.starts_with("20") || p.len() == 6)
            || short_date(p)
        {
            out.dates.insert(p.to_string());
            i += 1;
        } else {
            rest.push(p);
            i += 1;
        }
    }
    // A version's point, written as `.`, `-` or nothing (`5.2`, `5-2`, `qwen3-6`, `k2.5`):
    // a single digit ending one part and one digit (two after a lone digit) making the next.
    let mut joined: Vec<(String, bool)> = Vec::new();
    let last = rest.len().saturating_sub(1);
    for (at, p) in rest.into_iter().enumerate() {
        // A zero patch ending a pointed version is that version (`Jev 1.14.0`, `jev-1.14`).
        if at == last && p == "0" && joined.last().is_some_and(|(_, pointed)| *pointed) {
            continue;
        }
        let point = joined.last().is_some_and(|(prev, _)| {
            let head = prev.trim_end_matches(|c: char| c.is_ascii_digit());
            prev.len() - head.len() == 1
                && all_digits(p)
                && (p.len() == 1 || head.is_empty() && p.len() == 2)
        });
        match joined.last_mut() {
            // `4.0` is version 4 (`claude-opus-4-0`, "Claude Opus 4").
            Some((_, was_joined)) if point && p == "0" => *was_joined = true,
            Some((prev, was_joined)) if point => {
                prev.push_str(p);
                *was_joined = true;
            }
            _ => joined.push((p.to_string(), false)),
        }
    }
    let versioned = |w: &str| w.len() > 1 && w.starts_with('v') && all_digits(&w[1..]);
    // A counter or `v` version ending an id (`-001`, `-1`, `-v0.1`); a version's point
    // (`gpt-5-2`) is no counter.
    if let [.., (prev, _), (last, was_joined)] = joined.as_slice()
        && (versioned(last)
            || !was_joined && all_digits(last) && last.len() <= 3 && !all_digits(prev))
    {
        out.tail = Some(last.trim_start_matches('v').to_string());
        joined.pop();
    }
    for (w, _) in joined {
        let w = if versioned(&w) { w[1..].to_string() } else { w };
        if NEUTRAL_WORDS.contains(&w.as_str()) {
            out.words.insert(w);
            continue;
        }
        // Split where letters turn into digits: `small32` → `small`, `32`.
        let mut start = 0;
        let bytes = w.as_bytes();
        for k in 1..bytes.len() {
            if bytes[k].is_ascii_digit() && bytes[k - 1].is_ascii_alphabetic() {
                out.words.insert(w[start..k].to_string());
                start = k;
            }
        }
        out.words.insert(w[start..].to_string());
    }
    out
}

/// One model as the same-name rule sees it.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub key: String,
    pub name: String,
    pub creator: Option<String>,
    /// Words of the organisations the model's ids may carry as a prefix: its creator's slug
    /// and vendor ids, and its providers' slugs (`umans-glm-5.1`, `zai-org-glm-5-1`).
    pub vendor_words: BTreeSet<String>,
    /// How many records make the model up (more: the spelling most sources use).
    pub records: usize,
    /// Whether any provider sells it.
    pub offered: bool,
    /// Whether a benchmark table names it without a served word (where a plain name is the
    /// base model; `llama3.3:70b-instruct-q8_0` is not such a name).
    pub plain_in_table: bool,
    /// The price the creator's own list in one source gives this spelling (source, input,
    /// output), if any.
    pub own_price: Option<(&'static str, Option<f64>, Option<f64>)>,
}

/// The words of a creator and of the vendor ids the creators table lists for it.
pub fn creator_words(creator: &str) -> BTreeSet<String> {
    let tables = super::prices::Tables::shared();
    let mut out: BTreeSet<String> = creator.split('-').map(str::to_string).collect();
    if let Some(c) = tables.creators.get(creator) {
        for v in &c.vendors {
            out.extend(v.split(['-', '_']).map(str::to_string));
        }
    }
    out
}

/// What names one snapshot: dates, and a final counter the shared name does not say.
fn markers(s: &Spelling, name_words: &BTreeSet<&str>) -> BTreeSet<String> {
    let mut m = s.dates.clone();
    m.extend(
        s.tail
            .iter()
            .filter(|t| !name_words.contains(t.as_str()))
            .cloned(),
    );
    m
}

/// Whether `other` is the model `keep` is (their names alike, `name` the kept one's):
/// their creators agree (where neither is known, only neutral words may differ); `taken`,
/// the snapshot markers of
/// `keep` and of what already joined it, and `other`'s do not name two snapshots; and every
/// word one id has and the other lacks is in the name, a vendor's or a neutral word.
/// `preview` may differ only between spellings of one dated snapshot.
fn same_model(
    keep: &Candidate,
    taken: &BTreeSet<String>,
    other: &Candidate,
    name: &Spelling,
) -> bool {
    // With no creator known on either side, only packaging and router words may differ.
    let strict = keep.creator.is_none() && other.creator.is_none();
    if let (Some(x), Some(y)) = (&keep.creator, &other.creator)
        && x != y
    {
        return false;
    }
    // A creator's price list pricing the two ids apart sells two models (OpenAI's `babbage`
    // at 0.5 and `babbage-002` at 0.4 in genai-prices, one name in a benchmark table); two
    // sources' copies of the list may be of two days.
    if let (Some(x), Some(y)) = (keep.own_price, other.own_price)
        && x.0 == y.0
        && x != y
    {
        return false;
    }
    let name_words: BTreeSet<&str> = name
        .words
        .iter()
        .chain(&name.tail)
        .map(String::as_str)
        .collect();
    let (sa, sb) = (spelling(&keep.key), spelling(&other.key));
    let mb = markers(&sb, &name_words);
    let shared = !taken.is_disjoint(&mb);
    if !taken.is_empty() && !mb.is_empty() && !shared {
        return false;
    }
    // A tail the name also says is a word of it (`Grok Code Fast 1`).
    let words = |s: &Spelling| -> BTreeSet<String> {
        let mut w = s.words.clone();
        w.extend(
            s.tail
                .iter()
                .filter(|t| name_words.contains(t.as_str()))
                .cloned(),
        );
        w
    };
    let served = keep.offered && other.offered;
    let (wa, wb) = (words(&sa), words(&sb));
    wa.symmetric_difference(&wb).all(|w| {
        if strict {
            return NEUTRAL_WORDS.contains(&w.as_str());
        }
        if SERVED_WORDS.contains(&w.as_str()) {
            let says = |c: &Candidate| spelling(&c.name).words.contains(w);
            // The id without the word names the tuned model too when a seller offers it
            // and no benchmark table names it so (where a plain name is the base model):
            // Llama 3.3 70B, sold as `llama-3.3-70b`, is the paper's Llama-3.3-70B-Instruct.
            let lacking = if wa.contains(w) { other } else { keep };
            return says(keep) == says(other) && (served || name_words.contains(w.as_str()))
                || lacking.offered && !lacking.plain_in_table;
        }
        name_words.contains(w.as_str())
            || NEUTRAL_WORDS.contains(&w.as_str())
            || keep.vendor_words.contains(w)
            || other.vendor_words.contains(w)
            || (w == "preview" && shared)
    })
}

/// An id without the date that ends it (`gpt-5.5-2026-04-23`, `claude-opus-4-6-20260205`,
/// `grok-4.20-0309`, `doubao-seed-2-1-pro-260628`, `…@20250929`): the name its maker's
/// undated alias has.
pub fn undated(id: &str) -> Option<&str> {
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = id.rsplitn(4, '-').collect();
    // `…-2026-04-23` ends in three parts.
    if let [day, month, year, head] = parts.as_slice()
        && digits(day, 2)
        && digits(month, 2)
        && digits(year, 4)
    {
        return Some(*head).filter(|h| !h.is_empty());
    }
    let (head, tail) = id.rsplit_once(['-', '@'])?;
    (digits(tail, 8) || digits(tail, 6) || digits(tail, 4))
        .then_some(head)
        .filter(|h| !h.is_empty())
}

/// Whether an id names a dated snapshot: a date in any creator's format, but not the
/// six-digit build tag a host writes after another creator's model (`deepseek-v3.2-251201`).
fn snapshot_dated(key: &str) -> bool {
    spelling(key).dates.iter().any(|d| d.len() != 6)
}

/// Models that no spelling rule joins but that every source names alike (`openai-gpt-52`
/// and `gpt-5.2`, both "GPT-5.2"; `command-r` and `command-r-08-2024`), as (from, into)
/// pairs. Within each group of equal names (compared by [`spelling`] without neutral words,
/// so `GLM-5.1` and `GLM 5.1` are alike, and so are `Claude Opus 4 (latest)` and
/// `Claude Opus 4`), the model kept is a dated snapshot (`snapshot_dated`; an undated
/// name is an alias of the newest), else the one most records name, else the shortest key; the others, newest
/// snapshot first, join it while `same_model` finds nothing that sets them apart
/// (`gemini-1.5-flash-8b`, whatever a source calls it, is not `gemini-1.5-flash`; `-001`
/// and `-002` are two snapshots). What did not join forms the next group.
///
/// With `unsaid`, names are compared without the served words a seller's display name may
/// leave out ([`UNSAID_WORDS`]): a second pass over the models the first one left, so
/// `Llama 3.3 70B` (what most sellers list) meets `Llama-3.3-70B-Instruct`.
pub fn same_name(candidates: &[Candidate], unsaid: bool) -> Vec<(String, String)> {
    let mut groups: BTreeMap<String, Vec<&Candidate>> = BTreeMap::new();
    for c in candidates {
        let s = spelling(&c.name);
        // A router alias's `(latest)` names the model it points at (`Claude Opus 4 (latest)`).
        let mut words: Vec<&str> = s
            .words
            .iter()
            .chain(&s.dates)
            .chain(&s.tail)
            .map(String::as_str)
            .filter(|w| !NEUTRAL_WORDS.contains(w))
            .filter(|w| !(unsaid && UNSAID_WORDS.contains(w)))
            .collect();
        words.sort_unstable();
        if !words.is_empty() {
            groups.entry(words.join(" ")).or_default().push(c);
        }
    }
    let mut out = Vec::new();
    for (_, mut group) in groups {
        while group.len() > 1 {
            group.sort_by_key(|c| {
                (
                    !snapshot_dated(&c.key),
                    std::cmp::Reverse(c.records),
                    c.key.len(),
                    c.key.clone(),
                )
            });
            let keep = group[0];
            let name = spelling(&keep.name);
            let name_words: BTreeSet<&str> = name
                .words
                .iter()
                .chain(&name.tail)
                .map(String::as_str)
                .collect();
            let newest = |c: &Candidate| {
                std::cmp::Reverse(markers(&spelling(&c.key), &name_words).last().cloned())
            };
            let mut rest: Vec<&Candidate> = group[1..].to_vec();
            rest.sort_by_key(|c| newest(c));
            let mut taken = markers(&spelling(&keep.key), &name_words);
            let mut left = Vec::new();
            for other in rest {
                // The second pass judges only names that differ in an unsaid word: names
                // alike were judged, with their snapshot markers, in the first.
                let judged = unsaid && spelling(&other.name).words == name.words;
                if !judged && same_model(keep, &taken, other, &name) {
                    taken.extend(markers(&spelling(&other.key), &name_words));
                    out.push((other.key.clone(), keep.key.clone()));
                } else {
                    left.push(other);
                }
            }
            group = left;
        }
    }
    out
}

/// A month and day written with a dash (`grok-2-08-13`, a leaderboard's) beside the same
/// day without one (`grok-2-0813`) is that snapshot: one day, two spellings
/// (docs/methodology.md, "Identity"). A key ending in a full date is no such spelling.
pub(super) fn dashed_days(
    by_key: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    let two =
        |s: &str, max: u32| s.len() == 2 && s.parse::<u32>().is_ok_and(|n| (1..=max).contains(&n));
    by_key
        .keys()
        .filter_map(|key| {
            let (rest, day) = key.rsplit_once('-')?;
            let (stem, month) = rest.rsplit_once('-')?;
            let year = stem
                .rsplit('-')
                .next()
                .is_some_and(|y| y.len() == 4 && y.bytes().all(|b| b.is_ascii_digit()));
            if !two(month, 12) || !two(day, 31) || year {
                return None;
            }
            let alt = format!("{stem}-{month}{day}");
            if by_key.contains_key(&alt) {
                return Some((key.clone(), alt));
            }
            // With no snapshot of that day spelt otherwise, the undated name released on that
            // day is it (Alibaba's `qwen3.5-flash`, released 2026-02-23, is routers'
            // `qwen3.5-flash-02-23`), under the dated id.
            let released = by_key.get(stem).is_some_and(|recs| {
                recs.iter()
                    .filter_map(|r| r.release_date.as_deref())
                    .any(|d| d.len() == 10 && d.ends_with(&format!("-{month}-{day}")))
            });
            (released && names::split_date(stem).is_none()).then(|| (stem.to_string(), key.clone()))
        })
        .collect()
}

/// A word that is a month and day (`0309`).
fn month_day(w: &str) -> bool {
    w.len() == 4
        && w.bytes().all(|b| b.is_ascii_digit())
        && w[..2].parse::<u32>().is_ok_and(|m| (1..=12).contains(&m))
        && w[2..].parse::<u32>().is_ok_and(|d| (1..=31).contains(&d))
}

/// The month and day inside a key, between its first and last words
/// (`grok-4.20-beta-0309-reasoning`: `0309`); a trailing date is [`names::split_date`]'s.
pub fn inner_month_day(key: &str) -> Option<&str> {
    let words: Vec<&str> = key.split('-').collect();
    words
        .get(1..words.len().saturating_sub(1))?
        .iter()
        .copied()
        .find(|w| month_day(w))
}

/// An undated id beside exactly one id that is it with a month and day inside (OpenAI's
/// `gpt-4-vision-preview`, whose price entry matches `gpt-4-1106-vision-preview`; xAI's
/// `grok-4.20-beta-reasoning` beside `grok-4.20-beta-0309-reasoning`): the undated id
/// points at that snapshot, the only one, as an undated id ending a line joins its newest
/// snapshot, so the two are one model, under the dated id (docs/methodology.md,
/// "Identity"). Trailing dates are the snapshots rule's.
pub(super) fn dated_within(
    by_key: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    let mut undated: BTreeMap<String, Vec<&String>> = BTreeMap::new();
    for key in by_key.keys() {
        let words: Vec<&str> = key.split('-').collect();
        let Some(at) = words[..words.len() - 1].iter().position(|w| month_day(w)) else {
            continue;
        };
        if at == 0 {
            continue;
        }
        let mut rest = words.clone();
        rest.remove(at);
        undated.entry(rest.join("-")).or_default().push(key);
    }
    undated
        .into_iter()
        .filter_map(|(plain, dated)| match dated[..] {
            [d] if by_key.contains_key(&plain) && names::split_date(&plain).is_none() => {
                Some((plain, d.clone()))
            }
            _ => None,
        })
        .collect()
}

/// Snapshots dated two months or more before the first release date any witness of their
/// line states (its undated name and every dated snapshot of it), none of whose own
/// witnesses states a date: the date is a seller's error (Bedrock's
/// `anthropic.claude-3-7-sonnet-20240620-v1:0` carries Claude 3.5 Sonnet's date; Claude
/// 3.7 Sonnet came out 2025-02-19), and the id joins the line's first dated snapshot
/// (docs/methodology.md, "Identity"). Only full dates (`20240620`, `2024-06-20`) are read.
pub(super) fn phantom_snapshots(
    by_key: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    let month = |d: &str| -> Option<u32> {
        let d = d.replace('-', "");
        let y: u32 = d.get(..4)?.parse().ok()?;
        let m: u32 = d.get(4..6)?.parse().ok()?;
        (d.len() >= 6 && d.starts_with("20")).then_some(y * 12 + m)
    };
    let stated = |recs: &[super::ModelRecord]| {
        recs.iter()
            .filter_map(|r| r.release_date.as_deref())
            .filter(|d| !super::merge::placeholder_date(d))
            .filter_map(month)
            .min()
    };
    // Each line's first stated release, and its first dated snapshot that states one.
    let mut first: BTreeMap<&str, u32> = BTreeMap::new();
    let mut first_snapshot: BTreeMap<&str, (u32, &str)> = BTreeMap::new();
    for (key, recs) in by_key {
        let (stem, dated) = match names::split_date(key) {
            Some((stem, _)) => (stem, true),
            None => (key.as_str(), false),
        };
        let Some(m) = stated(recs) else {
            continue;
        };
        let e = first.entry(stem).or_insert(m);
        *e = (*e).min(m);
        if dated {
            let e = first_snapshot.entry(stem).or_insert((m, key));
            if m < e.0 {
                *e = (m, key);
            }
        }
    }
    by_key
        .iter()
        .filter(|(_, recs)| stated(recs).is_none())
        .filter_map(|(key, _)| {
            let (stem, date) = names::split_date(key)?;
            let date = date.replace('-', "");
            let released = first.get(stem)?;
            let (_, target) = first_snapshot.get(stem)?;
            (date.len() == 8 && month(&date)? + 2 <= *released)
                .then(|| (key.clone(), target.to_string()))
        })
        .collect()
}

/// Stems the creator's own name for a dated key spells that the key does not (Mistral's
/// `ministral-14b-2512` is "Ministral 3 14B 2512": stem `ministral-3-14b`), as (stem, key):
/// the creator's records (rank 0 to 2) whose name, spelt as an id, carries the key's own
/// date and every word of the key's stem. A stem some key already has of its own snapshots
/// is left to them.
pub(super) fn creator_spelt_stems(
    by_key: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    let stems: BTreeSet<&str> = by_key
        .keys()
        .filter_map(|k| names::split_date(k).map(|(stem, _)| stem))
        .collect();
    creator_spellings(by_key)
        .into_iter()
        .filter(|(named, _)| {
            names::split_date(named).is_some_and(|(stem, _)| !stems.contains(stem))
        })
        .filter_map(|(named, key)| Some((names::split_date(&named)?.0.to_string(), key)))
        .collect()
}

/// Each dated key's spellings by its creator's own names (`ministral-3-14b-2512` for
/// Mistral's `ministral-14b-2512`, "Ministral 3 14B 2512"), as (spelling, key): a name of a
/// creator's record (rank 0 to 2, no floating alias's) spelt as an id that carries the key's
/// own date and every word of the key's stem, and is not the key.
fn creator_spellings(by_key: &BTreeMap<String, Vec<super::ModelRecord>>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (key, recs) in by_key {
        let Some((stem, date)) = names::split_date(key) else {
            continue;
        };
        let spelt: BTreeSet<String> = recs
            .iter()
            .filter(|r| r.rank <= 2)
            .filter(|r| !r.raw_id.to_ascii_lowercase().ends_with("latest"))
            .filter_map(|r| r.name.as_deref())
            .filter_map(|name| {
                let named = names::parse(&names::slugify(display_name(name))).key;
                let (named_stem, named_date) = names::split_date(&named)?;
                (named_date == date
                    && named_stem != stem
                    && stem
                        .split('-')
                        .all(|w| named_stem.split('-').any(|n| n == w)))
                .then_some(named)
            })
            .collect();
        out.extend(spelt.into_iter().map(|s| (s, key.clone())));
    }
    out
}

/// The creators' own names for models, spelt as ids: each name of a group's creator
/// records (rank 0 to 2, no floating alias's) → the groups so named, where the name is not
/// the group's own key (Google's "Nano Banana" → `gemini-2.5-flash-image`).
pub fn creator_names(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> BTreeMap<String, BTreeSet<&str>> {
    let mut by_name: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for (key, recs) in groups {
        for name in recs
            .iter()
            .filter(|r| r.rank <= 2 && !r.raw_id.to_ascii_lowercase().ends_with("latest"))
            .filter_map(|r| r.name.as_deref())
        {
            let named = names::parse(&names::slugify(display_name(name))).key;
            if !named.is_empty() && named != *key {
                by_name.entry(named).or_default().insert(key);
            }
        }
    }
    by_name
}

/// Hosts' ids that spell the creator's own name for one model (Poe's `nano-banana` for
/// Google's `gemini-2.5-flash-image`, whose own file names it "Nano Banana"): a group no
/// record of which is the creator's whose key is exactly one other group's creator name
/// ([`creator_names`]), as (host key, model key) (docs/methodology.md, "Identity").
pub(super) fn creator_named(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    let by_name = creator_names(groups);
    groups
        .iter()
        .filter(|(_, recs)| recs.iter().all(|r| r.rank > 2))
        .filter_map(|(key, _)| {
            let mut one = by_name.get(key)?.iter();
            match (one.next(), one.next()) {
                (Some(into), None) => Some((key.clone(), (*into).to_string())),
                _ => None,
            }
        })
        .collect()
}

/// Hosts' keys that spell a creator's own name for a snapshot, with or without `instruct`
/// (a snapshot is one checkpoint, and a host's bare name serves the chat model): DigitalOcean's
/// `ministral-3-8b-instruct-2512` and Bedrock's undated `ministral-3-8b-instruct` are Mistral's
/// "Ministral 3 8B 2512", `ministral-8b-2512`. A dated key must carry the same date; an
/// undated one the name without its date. As (host key, creator key), where exactly one
/// creator key is so spelt.
pub(super) fn creator_spelt_keys(
    by_key: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    let words = |k: &str| {
        let mut w: Vec<String> = k
            .split('-')
            .filter(|w| *w != "instruct")
            .map(str::to_string)
            .collect();
        w.sort_unstable();
        w
    };
    let mut spelt: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    for (named, key) in creator_spellings(by_key) {
        if let Some((stem, _)) = names::split_date(&named) {
            // The undated spelling, marked apart from any dated one's words.
            let mut undated = words(stem);
            undated.push(String::new());
            spelt.entry(undated).or_default().insert(key.clone());
        }
        spelt.entry(words(&named)).or_default().insert(key);
    }
    let words = |k: &str| {
        let mut w = words(k);
        if names::split_date(k).is_none() {
            w.push(String::new());
        }
        w
    };
    by_key
        .iter()
        .filter(|(_, recs)| recs.iter().all(|r| r.rank > 2))
        .filter_map(|(k, _)| {
            let keys = spelt.get(&words(k))?;
            let mut one = keys.iter();
            match (one.next(), one.next()) {
                (Some(into), None) if into != k => Some((k.clone(), into.clone())),
                _ => None,
            }
        })
        .collect()
}

/// The older snapshot an undated id is, where its creator names it as that snapshot is
/// named and names its newest snapshot with a date after another stem: Mistral's
/// `ministral-3b` ("Ministral 3B", $0.04) is `ministral-3b-2410` ("Ministral 3B"), not
/// `ministral-3b-2512`, "Ministral 3 3B 2512" (docs/methodology.md, "Identity"). A newest
/// snapshot whose creator's names carry no date says nothing.
pub(super) fn named_older(
    key: &str,
    recs: &[super::ModelRecord],
    snapshots: &[&str],
    by_key: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Option<String> {
    let fold = |n: &str| display_name(n).to_ascii_lowercase();
    let own: BTreeSet<String> = recs
        .iter()
        .filter(|r| r.rank <= 2 && !r.raw_id.to_ascii_lowercase().ends_with("latest"))
        .filter_map(|r| r.name.as_deref())
        .map(fold)
        .collect();
    let (newest, older) = snapshots.split_first()?;
    let one = BTreeMap::from([((*newest).to_string(), by_key.get(*newest)?.clone())]);
    let stems: Vec<String> = creator_spellings(&one)
        .into_iter()
        .filter_map(|(named, _)| Some(names::split_date(&named)?.0.to_string()))
        .collect();
    if own.is_empty() || stems.is_empty() || stems.iter().any(|s| s == key) {
        return None;
    }
    // Snapshots its creator's entry bills (Mistral's `mistral-large`: 2407 and 2411) are the
    // only ones it may be.
    let billed: BTreeSet<&str> = recs
        .iter()
        .filter(|r| r.rank <= 2)
        .flat_map(|r| &r.same_as)
        .map(String::as_str)
        .filter(|k| snapshots.contains(k))
        .collect();
    let mut named = older
        .iter()
        .filter(|k| billed.is_empty() || billed.contains(**k))
        .filter(|k| {
            by_key.get(**k).is_some_and(|g| {
                g.iter()
                    .filter_map(|r| r.name.as_deref())
                    .any(|n| own.contains(&fold(n)))
            })
        });
    match (named.next(), named.next()) {
        (Some(k), None) => Some((*k).to_string()),
        _ => None,
    }
}

/// The snapshot an undated id is, where its creator's own price entry for it bills exactly
/// one of its snapshots: Mistral's `ministral-8b` entry ("Ministral 8B 24.10") matches
/// `ministral-8b-2410`, so the undated id is that snapshot and not the newer
/// `ministral-8b-2512` (Ministral 3 8B) the undated name would otherwise join
/// (docs/methodology.md, "Identity"). An entry billing several snapshots (`gpt-4o`), or a
/// floating `-latest` id too (Mistral's `codestral` entry: `codestral-latest`,
/// `codestral-2501`), says nothing about which one the name serves now.
pub(super) fn billed_snapshot(recs: &[super::ModelRecord], snapshots: &[&str]) -> Option<String> {
    let billed: BTreeSet<&str> = recs
        .iter()
        .filter(|r| r.rank <= 2 && r.provider.is_some())
        .filter(|r| {
            !r.bills
                .iter()
                .any(|id| id.to_ascii_lowercase().ends_with("latest"))
        })
        .flat_map(|r| &r.same_as)
        .map(String::as_str)
        .filter(|k| snapshots.contains(k))
        .collect();
    let mut one = billed.into_iter();
    match (one.next(), one.next()) {
        (Some(k), None) => Some(k.to_string()),
        _ => None,
    }
}

/// The snapshot an undated id is, where its creator's own entry names it: Moonshot's
/// `kimi-k2` is "Kimi K2 0711" (`kimi-k2-0711`), not the newest snapshot `kimi-k2-0905`
/// the undated name would otherwise join, and Google's `gemini-2.5-flash-preview` is
/// "Gemini 2.5 Flash Preview 05-20", not `…-preview-09-2025` (docs/methodology.md, "Identity").
pub(super) fn named_snapshot(
    key: &str,
    recs: &[super::ModelRecord],
    keys: &BTreeSet<String>,
) -> Option<String> {
    // A floating alias's name (`pixtral-large-latest`, "Pixtral Large 2411") says what it
    // pointed to when written, not what the undated id is.
    recs.iter()
        .filter(|r| r.rank <= 2 && !r.raw_id.to_ascii_lowercase().ends_with("latest"))
        .filter_map(|r| r.name.as_deref())
        .find_map(|name| {
            let slug = names::slugify(name).replace('.', "-");
            let marker = slug.rsplit('-').next()?;
            let dated = format!("{key}-{marker}");
            if marker.bytes().all(|b| b.is_ascii_digit())
                && names::split_date(&dated).is_some()
                && keys.contains(&dated)
            {
                return Some(dated);
            }
            // A month and day after the id's own words (Google's `gemini-2.5-flash-preview`
            // is "Gemini 2.5 Flash Preview 05-20").
            let rest = slug.strip_prefix(key)?.strip_prefix('-')?;
            let dated = format!("{key}-{rest}");
            (rest.contains('-')
                && rest.bytes().all(|b| b.is_ascii_digit() || b == b'-')
                && keys.contains(&dated))
            .then_some(dated)
        })
}

/// Whether the creator's own file names weights of another date than `dated`'s
/// (`mistral-nemo`: `Mistral-Nemo-Instruct-2407`): then the undated name is not the newest
/// snapshot a leaderboard alone dates (HELM's "Mistral NeMo (2402)"); the weights join it
/// later ([`named_by_creator`]).
pub(super) fn weighed_apart(recs: &[super::ModelRecord], dated: &str) -> bool {
    let date = names::split_date(dated).map(|(_, d)| d);
    recs.iter()
        .filter(|r| r.rank == 0)
        .flat_map(|r| &r.same_as)
        .any(|id| names::split_date(id).is_some_and(|(_, d)| Some(d) != date))
}

/// Keys a host writes as the tuned model's name and its context window (Groq's
/// `mixtral-8x7b-32768`, `llama3-8b-8192`, `llama2-70b-4096`): a window size (a multiple of
/// 1,024 tokens) no record contradicts, after a name whose `-instruct` (else `-chat`, Llama
/// 2's) model exists, is that model — the host sells the tuned checkpoint, never the base one
/// a paper's table names alike (docs/methodology.md, "Identity").
pub(super) fn context_labelled(
    by_key: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    by_key
        .iter()
        .filter_map(|(key, recs)| {
            let (base, n) = key.rsplit_once('-')?;
            let n: i64 = n.parse().ok()?;
            let tuned = ["instruct", "chat"]
                .iter()
                .map(|t| format!("{base}-{t}"))
                .find(|t| by_key.contains_key(t))?;
            (n >= 2048 && n % 1024 == 0 && recs.iter().all(|r| r.context.is_none_or(|c| c == n)))
                .then(|| (key.clone(), tuned))
        })
        .collect()
}

/// A router's own product — an id or name with a router word (OpenRouter's Auto Router,
/// Kilo Auto's tiers, Switchpoint's `router`) or models.dev's `auto` family (LLM Gateway's
/// `custom`) — is its maker's, so its key keeps the maker's name: two routers' `auto` or
/// `free` are two products (`openrouter-free`, `kilo-auto-free`), and one router resold by
/// another stays one (`switchpoint/router` at Kilo and OpenRouter). The maker is the
/// organisation the id names, else the record's creator, else its seller
/// (docs/methodology.md, "Identity"). `None` where the key names its maker already
/// (`moonshot-v1-auto`) or the record is no router's.
pub fn router_product(r: &super::ModelRecord) -> Option<names::Parsed> {
    let parsed = r.parsed.as_ref()?;
    let says = |s: &str| super::curation::names_router(s, r.family.as_deref());
    let tail = r.raw_id.rsplit('/').next().unwrap_or_default();
    let routes = says(tail) || r.name.as_deref().is_some_and(says);
    if !routes {
        return None;
    }
    let maker = parsed
        .vendor
        .as_deref()
        .or(r.creator.as_deref())
        .or(r.provider.as_deref())?;
    let first = |s: &str| s.split(['-', '.']).next().unwrap_or_default().to_string();
    if parsed.key.starts_with(maker) || first(&parsed.key) == first(maker) {
        return None;
    }
    Some(names::parse(&format!("{maker}-{}", parsed.slug)))
}

/// The maker of a router's own product, which is its creator though a host is never one
/// otherwise: a router product ([`router_product`]'s words) is the organisation its id
/// names (the listing host where that id spells the host: Kilo's `kilo-auto/free`,
/// NanoGPT's `nanogpt/coding-router`), else its record's creator, else the host listing it
/// (LLM Gateway's `auto`); and an id a router lists under its own name is that router's
/// product (OpenRouter's `openrouter/bodybuilder`), while another seller's copy of such an
/// id says nothing (Kilo's `openrouter/owl-alpha`, a stealth model) — docs/data.md,
/// "Creators".
pub fn product_maker(r: &super::ModelRecord) -> Option<String> {
    let host = r.provider.as_deref()?;
    let squash = |s: &str| s.replace(['-', '_', '.'], "");
    let spells_host = |v: &str| squash(v).starts_with(&squash(host));
    // The id as listed: resolution renames a router product's key after its maker.
    let parsed = names::parse(&r.raw_id);
    let vendor = parsed.vendor.as_deref();
    let says = |s: &str| super::curation::names_router(s, r.family.as_deref());
    let tail = r.raw_id.rsplit('/').next().unwrap_or_default();
    if says(tail) || r.name.as_deref().is_some_and(says) {
        let maker = match vendor {
            Some(v) if spells_host(v) => host.to_string(),
            Some(v) => super::catalog::canonical_provider(v),
            None => r.creator.clone().unwrap_or_else(|| host.to_string()),
        };
        return (!NOT_VENDORS.contains(&maker.as_str())).then_some(maker);
    }
    let routes = matches!(
        super::prices::Tables::shared().provider_kind(host),
        ProviderKind::Router
    );
    (routes && vendor.is_some_and(|v| super::catalog::canonical_provider(v) == host))
        .then(|| host.to_string())
}

/// A bot a host publishes at a router under its own account, marked with the host's
/// initials (Poe's `cerebras/llama-3.1-8b-cs`, `empiriolabs/deepseek-v4-pro-el`,
/// `novita/glm-4.7-n`, `fireworks-ai/kimi-k2.5-fw`): the id without its account and mark.
/// The mark is one to three letters that begin the account's name and follow its letters in
/// order; the caller checks the rest names a model of another creator than the account
/// (docs/methodology.md, "Identity").
pub fn owner_marked(raw: &str) -> Option<(&str, &str)> {
    let (owner, id) = raw.split_once('/')?;
    let (model, mark) = id.rsplit_once('-')?;
    let owner = owner.to_ascii_lowercase();
    let mark = mark.to_ascii_lowercase();
    let initials = !mark.is_empty()
        && mark.len() <= 3
        && mark.bytes().all(|b| b.is_ascii_lowercase())
        && owner.as_bytes().first() == mark.as_bytes().first()
        && {
            let mut letters = owner.bytes();
            mark.bytes().all(|m| letters.any(|o| o == m))
        };
    (initials && !model.is_empty()).then_some((owner_slice(raw), model))
}

/// The account part of an `account/id` spelling.
fn owner_slice(raw: &str) -> &str {
    raw.split_once('/').map_or(raw, |(o, _)| o)
}

/// The snapshot an undated key joins when the windows its records state say it is an
/// older one than the newest: Moonshot's `Kimi-K2-Instruct` is the 0711 checkpoint (131,072
/// tokens at almost every host) while `kimi-k2-instruct-0905` has 262,144. `dated` holds
/// the stem's snapshots, newest first. The window most of the key's records state must be
/// stated by few of the newest's records (under a third, of three or more, counting its
/// `-instruct-` spelling: `qwen3-30b-a3b-instruct-2507`) and by most of the older one's,
/// and none of the creator's own records of the key may state the newest's window.
/// Where no older snapshot states it, the undated key is a release of its own that no
/// dated id names (Qwen3-30B-A3B of April 2025 at 40,960 tokens, beside the 262,144 of
/// its 2507 update), and stays itself (docs/methodology.md, "Identity").
pub(super) fn by_window(
    key: &str,
    recs: &[super::ModelRecord],
    dated: &[&str],
    by_key: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Option<String> {
    let close = |a: i64, b: i64| (a - b).abs() * 20 <= a.max(b);
    let stated: Vec<i64> = recs.iter().filter_map(|r| r.context).collect();
    let agreeing = |w: i64, among: &[i64]| among.iter().filter(|c| close(**c, w)).count();
    // The window most of the key's records state, where most of them agree.
    let window = stated
        .iter()
        .copied()
        .max_by_key(|w| (agreeing(*w, &stated), *w))
        .filter(|w| stated.len() >= 2 && 2 * agreeing(*w, &stated) > stated.len())?;
    let windows = |k: &str| -> Vec<i64> {
        let instruct = names::split_date(k)
            .filter(|(stem, _)| !stem.ends_with("-instruct"))
            .map(|(stem, date)| format!("{stem}-instruct-{date}"));
        [Some(k.to_string()), instruct]
            .iter()
            .flatten()
            .filter_map(|k| by_key.get(k))
            .flatten()
            .filter_map(|r| r.context)
            .collect()
    };
    let share = |k: &str| {
        let theirs = windows(k);
        (!theirs.is_empty()).then(|| (agreeing(window, &theirs), theirs.len()))
    };
    let (newest_agree, newest_all) = share(dated.first()?)?;
    // Three of the newest's records at least, so one host's slip moves nothing.
    if newest_all < 3 || 3 * newest_agree >= newest_all {
        return None;
    }
    // The creator's own records of the key stating the newest's window say it is the
    // newest (Mistral's `mistral-large-latest`, 262,144 tokens, is Mistral Large 3), whatever
    // hosts' older listings say.
    let newest = windows(dated.first()?);
    let creator_says_newest = recs
        .iter()
        .filter(|r| r.rank <= 2)
        .filter_map(|r| r.context)
        .any(|c| 2 * agreeing(c, &newest) > newest.len());
    if creator_says_newest {
        return None;
    }
    let older = dated
        .iter()
        .skip(1)
        .find(|k| share(k).is_some_and(|(agree, all)| 2 * agree > all));
    Some(older.map_or(key, |k| *k).to_string())
}

/// Whether an undated key is an open-weights release of its own rather than the newest
/// snapshot of its stem: the repository of open weights under an undated name holds the
/// checkpoint first released under it (`deepseek-ai/DeepSeek-R1` is January's R1, not
/// `DeepSeek-R1-0528`), so where the key's records date it (the median of their days,
/// placeholders and firsts of a month aside) two months or more before the newest snapshot
/// of its stem is dated by its own, and a record of the key says its weights are open, the
/// key stays a model of its own (DeepSeek V3 of December 2024 beside `deepseek-v3-0324`,
/// Qwen3-235B-A22B of April 2025 beside its 2507 update). A closed line's undated API name,
/// or one the creator's own price list sells, moves with its newest snapshot (`gpt-4-turbo`,
/// Mistral's `codestral`), so it joins it (docs/methodology.md, "Identity").
pub(super) fn by_release(
    key: &str,
    recs: &[super::ModelRecord],
    dated: &[&str],
    by_key: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> bool {
    let month = |d: &str| -> Option<i32> {
        Some(d.get(..4)?.parse::<i32>().ok()? * 12 + d.get(5..7)?.parse::<i32>().ok()?)
    };
    // The median month the records' days give, of two days at least or a benchmark table's
    // (Epoch's version dates are its own reading of each release).
    let dated_by = |recs: &[super::ModelRecord]| {
        let days = || {
            recs.iter().filter(|r| {
                r.release_date.as_deref().is_some_and(|d| {
                    d.len() == 10 && !d.ends_with("-01") && !super::merge::placeholder_date(d)
                })
            })
        };
        let mut months: Vec<i32> = days()
            .filter_map(|r| month(r.release_date.as_deref()?))
            .collect();
        months.sort_unstable();
        let table = days().any(|r| r.rank >= super::BENCHMARK_RANK);
        (months.len() >= 2 || table && !months.is_empty()).then(|| months[months.len() / 2])
    };
    let open =
        recs.iter().any(|r| r.open_weights == Some(true)) || super::catalog::open_family(key);
    // The creator's own price list selling the undated name sells its API alias, which
    // moves to each new snapshot (Mistral's `codestral`, at Codestral 2508's price).
    let sold_by_creator = recs.iter().any(|r| r.rank <= 2 && r.prices.is_some());
    let newest = dated
        .first()
        .and_then(|k| by_key.get(*k))
        .and_then(|recs| dated_by(recs));
    open && !sold_by_creator
        && dated_by(recs)
            .zip(newest)
            .is_some_and(|(undated, newest)| undated + 2 <= newest)
}

/// Keys that spell another key's words in another order, sold only by hosts (Vercel's
/// `grok-4.20-reasoning-beta` for xAI's `grok-4.20-beta-reasoning`), or a dated snapshot's
/// without `instruct` (`kimi-k2-0905`): each group of such a
/// key joins the one group, among those the same words' other spellings joined
/// (`owner`: key → group), that its creator's own records (`rank` 0 to 2, or a price at its own API) make up, as
/// (from, into) pairs (docs/methodology.md, "Identity").
pub(super) fn reordered(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
    owner: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    // A dated snapshot is one checkpoint, so `instruct` in it says nothing more
    // (`kimi-k2-0905` is `kimi-k2-instruct-0905`).
    // Numbers keep their order: `05-06` and `06-05` are two dates.
    // A host writing the maker first (Azure's `cohere-embed-v3-english`) spells the words
    // the maker's id spells; so does a version with `.0` (`embed-english-v3.0`).
    let words = |key: &str| {
        let dated = names::split_date(key).is_some();
        let key = key
            .strip_suffix("-0")
            .filter(|k| k.ends_with(|c: char| c.is_ascii_digit()))
            .unwrap_or(key);
        let maker = names::creator_for(None, key).map(creator_words);
        let mut key = key;
        while let Some((_, rest)) = key.split_once('-').filter(|(head, rest)| {
            maker.as_ref().is_some_and(|m| m.contains(*head)) && rest.split('-').count() >= 3
        }) {
            key = rest;
        }
        // A version written apart (`cohere-embed-v-4-0`) is one word.
        let key = key.replace("-v-", "-v");
        let mut w: Vec<&str> = key
            .split('-')
            .filter(|w| !(dated && *w == "instruct"))
            .collect();
        let numbers: Vec<&str> = w
            .iter()
            .copied()
            .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
            .collect();
        w.sort_unstable();
        format!("{}|{}", w.join("-"), numbers.join("-"))
    };
    let tables = super::prices::Tables::shared();
    let own = |group: &str| {
        let creator = names::creator_for(None, group);
        groups.get(group).is_some_and(|recs| {
            recs.iter().any(|r| {
                r.rank <= 2
                    || r.provider
                        .as_deref()
                        .is_some_and(|p| tables.is_first_party(creator, p))
            })
        })
    };
    let mut by_words: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for (key, group) in owner {
        by_words.entry(words(key)).or_default().insert(group);
    }
    groups
        .keys()
        .filter(|key| !own(key))
        .filter_map(|key| {
            let owned: Vec<&&str> = by_words
                .get(&words(key))?
                .iter()
                .filter(|g| **g != key.as_str() && own(g))
                .collect();
            let into = match owned[..] {
                [into] => into,
                // Two spellings no creator's record speaks for (nano-gpt's
                // `qwen2.5-32b-eva-v0.2`, `eva-qwen2.5-32b-v0.2`): the one more records
                // use.
                [] => {
                    let others: Vec<&&str> = by_words
                        .get(&words(key))?
                        .iter()
                        .filter(|g| **g != key.as_str())
                        .collect();
                    let [other] = others[..] else {
                        return None;
                    };
                    let size = |g: &str| groups.get(g).map_or(0, Vec::len);
                    let wins = (size(other), std::cmp::Reverse(*other))
                        > (size(key), std::cmp::Reverse(key.as_str()));
                    // Both spellings must credit one creator: a lab's name leading one and a
                    // publisher's the other is a fine-tune's two names, credited apart.
                    let creator = |g: &str| model_creator(g, groups.get(g)?);
                    let apart =
                        matches!((creator(key), creator(other)), (Some(a), Some(b)) if a != b);
                    if !wins || apart {
                        return None;
                    }
                    other
                }
                _ => return None,
            };
            // The short spelling joins the tuned one's, never the reverse: a group without
            // `instruct` may hold the line's earlier undated release too.
            let instruct = |k: &str| k.split('-').any(|w| w == "instruct");
            (!instruct(key) || instruct(into)).then(|| (key.clone(), (*into).to_string()))
        })
        .collect()
}

/// A host's spelling of a creator's model without its size (`voxtral-small-2507` for
/// Mistral's `voxtral-small-24b-2507`, `llama-4-scout` for Meta's
/// `llama-4-scout-17b-16e-instruct`): a group none of the creator's own metadata or price
/// lists make up whose key is one creator-made group's key with size words left out (`24b`,
/// `a22b`, `16e`) and the same date, and perhaps also `instruct` (what a host serves under a
/// model's bare name is its chat model; a dated snapshot is one checkpoint:
/// `mistral-small-2501` is `mistral-small-24b-instruct-2501`), joins it where exactly one such
/// group exists: a base and an instruct model, or an instruct and a thinking one, under
/// the short name stay apart (docs/methodology.md, "Identity").
pub(super) fn unsized_snapshots(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    let tables = super::prices::Tables::shared();
    let own = |key: &str, recs: &[super::ModelRecord]| {
        let creator = names::creator_for(None, key);
        recs.iter().any(|r| {
            r.rank <= 2
                || r.provider
                    .as_deref()
                    .is_some_and(|p| tables.is_first_party(creator, p))
        })
    };
    let size = |w: &str| {
        let digits = w.trim_start_matches('a');
        digits.len() > 1
            && digits.ends_with(['b', 'e'])
            && digits[..digits.len() - 1]
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'.')
    };
    let owned: Vec<(&String, Option<&str>)> = groups
        .iter()
        .filter(|(k, recs)| own(k, recs))
        .map(|(k, _)| (k, names::split_date(k).map(|(_, d)| d)))
        .collect();
    // A gateway's copy of the creator's price list (LiteLLM, rank 4) does not make a
    // spelling the creator's: only its own metadata or price list (rank 0 to 2) does.
    groups
        .iter()
        .filter(|(_, recs)| recs.iter().all(|r| r.rank > 2))
        .filter_map(|(key, _)| {
            let date = names::split_date(key).map(|(_, d)| d);
            // The words one key has beyond the other.
            let beyond = |long: &str, short: &str| {
                let mut left: Vec<&str> = long.split('-').collect();
                for w in short.split('-') {
                    if let Some(i) = left.iter().position(|x| *x == w) {
                        left.remove(i);
                    }
                }
                left.into_iter().map(str::to_string).collect::<Vec<_>>()
            };
            let targets: Vec<&&String> = owned
                .iter()
                .filter(|(_, d)| *d == date)
                .filter(|(k, _)| {
                    if shortened(key, k) {
                        let left = beyond(k, key);
                        left.iter().any(|w| size(w))
                            && left.iter().all(|w| size(w) || *w == "instruct")
                    } else {
                        // A host's dated id with `instruct` written in (`ministral-14b-
                        // instruct-2512` for Mistral's `ministral-14b-2512`): a creator
                        // dates only the model it serves, its chat model.
                        date.is_some() && shortened(k, key) && beyond(key, k) == ["instruct"]
                    }
                })
                .map(|(k, _)| k)
                .collect();
            // Two of the creator's spellings of one model, a size word apart
            // (`llama-4-scout-17b-instruct`, `…-17b-16e-instruct`), are one target: the
            // longest, which the others join.
            let longest = targets.iter().max_by_key(|k| (k.len(), k.as_str()))?;
            let one = targets.iter().all(|k| {
                k == longest || shortened(k, longest) && beyond(longest, k).iter().all(|w| size(w))
            });
            one.then(|| (key.clone(), (**longest).clone()))
        })
        .collect()
}

/// The creator's own records name other ids of its model: its metadata names the weights
/// (models.dev's `weights`, `huggingface.co/mistralai/Devstral-2-123B-Instruct-2512` in
/// Mistral's `devstral-2512`), its own price entry the ids it matches (xAI's
/// `grok-4-1-fast-reasoning` matches `grok-4-1-fast`). Hosts' entries under such an id,
/// which no metadata file of its own makes a model, are the creator's model (docs/
/// methodology.md, "Identity"). Two dated spellings of different dates stay apart. A price
/// entry groups what costs the same — previews with their release, snapshots, other
/// models — so only its short spellings count: a versioned id with words of the entry's own
/// left out, `preview` never.
pub(super) fn named_by_creator(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
    key_owner: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (key, recs) in groups {
        let named = recs.iter().filter(|r| r.rank <= 2).flat_map(|r| {
            r.same_as
                .iter()
                .map(move |id| (id, r))
                .filter(move |(id, r)| {
                    r.rank == 0
                        || beta_spelled(id, key)
                        || id.bytes().any(|b| b.is_ascii_digit())
                            && shortened(id, key)
                            && key
                                .split('-')
                                .all(|w| w != "preview" || id.contains("preview"))
                })
        });
        for (id, entry) in named {
            let Some(from) = key_owner.get(id) else {
                continue;
            };
            // The creator's API listing the id on its own at another price than the entry's
            // (LiteLLM's `gpt-5.6` at OpenAI) keeps it apart; a beta spelling is an alias the
            // API lists as it lists its `-latest` ids.
            let listed_apart = entry.rank > 0
                && !beta_spelled(id, key)
                && groups.get(from).is_some_and(|g| {
                    g.iter().any(|r| {
                        r.provider.is_some()
                            && r.provider == entry.provider
                            && !same_price(r, entry)
                    })
                });
            if listed_apart {
                continue;
            }
            let other_date = names::split_date(from)
                .zip(names::split_date(key))
                .is_some_and(|((_, a), (_, b))| a != b);
            let has_file = groups
                .get(from)
                .is_none_or(|g| g.iter().any(|r| r.rank == 0));
            // An API's name without a version (`deepseek-chat`) is a floating alias whose
            // weights change with each release: only a versioned name, or one whose words
            // the weights' id spells out (`command-a`), takes them in.
            let versioned = key.bytes().any(|b| b.is_ascii_digit())
                || key.split('-').all(|w| from.split('-').any(|f| f == w));
            if from != key
                && versioned
                && !other_date
                && !has_file
                && !out.iter().any(|(f, _)| f == from)
            {
                out.push((from.clone(), key.clone()));
            }
        }
    }
    out
}

/// An id without a version (DeepSeek's `deepseek-flash`, fal's `schnell`) whose sellers'
/// entries all name one versioned model ("DeepSeek V4.1 Flash", `deepseek-v4.1-flash`;
/// "FLUX.1 [schnell]") serves that model: it is the model's alias, billed at the entry's
/// price, never a model of its own (docs/methodology.md, "Identity"). The name must spell
/// every word of the id, so an id its creator re-pointed to another line
/// (`deepseek-reasoner`, "Deepseek R1") moves nothing.
pub(super) fn floating_named(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
    key_owner: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    let digit = |k: &str| k.bytes().any(|b| b.is_ascii_digit());
    groups
        .iter()
        .filter(|(key, _)| !digit(key))
        .filter_map(|(key, recs)| {
            let named: BTreeSet<String> = recs
                .iter()
                .filter(|r| r.rank < super::BENCHMARK_RANK && r.provider.is_some())
                .filter(|r| !r.raw_id.to_ascii_lowercase().ends_with("latest"))
                .filter_map(|r| r.name.as_deref())
                .map(|n| names::parse(&names::slugify(display_name(n))).key)
                .collect();
            let [named] = &named.into_iter().collect::<Vec<_>>()[..] else {
                return None;
            };
            let into = key_owner.get(named)?;
            (digit(named)
                && key.split('-').all(|w| named.split('-').any(|n| n == w))
                && into != key
                && groups.contains_key(into))
            .then(|| (key.clone(), into.clone()))
        })
        .collect()
}

/// Whether `id` is `key` with the word `beta` added: the name a creator's API gave a model
/// before its general release, which its price entry still matches (xAI's `grok-3-mini`
/// entry matches `grok-3-mini-beta`; `grok-4.20-multi-agent-0309` matches
/// `grok-4.20-multi-agent-beta-0309`). Unlike `preview`, which a price entry groups with a
/// later release of the same price, xAI's `-beta` ids are aliases of the release itself.
fn beta_spelled(id: &str, key: &str) -> bool {
    let words: Vec<&str> = id.split('-').filter(|w| *w != "beta").collect();
    words.len() < id.split('-').count() && words.join("-") == key
}

/// Whether two records state the same standard input and output price.
fn same_price(a: &super::ModelRecord, b: &super::ModelRecord) -> bool {
    let prices = |r: &super::ModelRecord| r.prices.as_ref().map(|p| (p.input, p.output));
    prices(a).is_some() && prices(a) == prices(b)
}

/// A size word: parameters (`24b`, `1.5b` spelt `1-5b` is not one) or a mixture's active
/// parameters (`a12b`).
fn size_word(w: &str) -> bool {
    let w = w.strip_prefix('a').unwrap_or(w);
    w.len() > 1 && w.ends_with('b') && w[..w.len() - 1].bytes().all(|b| b.is_ascii_digit())
}

/// A key without the size that ends it: one size word (`mistral-saba-24b`) or a mixture's
/// total and active pair (`…-super-vl-120b-a12b`), after a name that has a dash and no
/// other size (`gemini-1.5-flash-8b-001` is a model of its own, `glm-130b` no spelling of a
/// floating `glm`).
pub fn without_size(key: &str) -> Option<&str> {
    let (mut base, last) = key.rsplit_once('-')?;
    if !size_word(last) {
        return None;
    }
    if last.starts_with('a') {
        let (head, total) = base.rsplit_once('-')?;
        if !size_word(total) || total.starts_with('a') {
            return None;
        }
        base = head;
    }
    (!base.split('-').any(size_word) && base.contains('-')).then_some(base)
}

/// A key's words without its sizes and `instruct`, and the sizes, where it has one; a
/// decimal size is one where `decimal` says so (`deepseek-coder-6-7b-instruct`:
/// `deepseek-coder`, `6-7b`; else `deepseek-coder-6`, `7b`, as `llama-3-8b` is `llama-3`).
fn sizes_apart(key: &str, decimal: bool) -> Option<(String, Vec<String>)> {
    let words: Vec<&str> = key.split('-').filter(|w| *w != "instruct").collect();
    let (mut rest, mut sizes) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < words.len() {
        let whole = words[i].bytes().all(|b| b.is_ascii_digit());
        if decimal
            && whole
            && words
                .get(i + 1)
                .is_some_and(|w| size_word(w) && !w.starts_with('a'))
        {
            sizes.push(format!("{}-{}", words[i], words[i + 1]));
            i += 2;
        } else if size_word(words[i]) {
            sizes.push(words[i].to_string());
            i += 1;
        } else {
            rest.push(words[i]);
            i += 1;
        }
    }
    (!sizes.is_empty()).then(|| (rest.join("-"), sizes))
}

/// The name a sized id gives without its size, and whether `instruct` followed the size
/// (`mistral-nemo-12b-instruct`: `mistral-nemo`).
fn unsized_name(key: &str) -> Option<(&str, bool)> {
    without_size(key)
        .map(|base| (base, false))
        .or_else(|| Some((without_size(key.strip_suffix("-instruct")?)?, true)))
}

/// A host's undated name with a size the model's other names never write (Groq's and
/// Vercel's `mistral-saba-24b` for Mistral's `mistral-saba-2502`, which `mistral-saba` names;
/// `llama-guard-4-12b` for `llama-guard-4`; Baseten's `nvidia-nemotron-3.5-super-vl-120b-a12b`
/// for `nemotron-3.5-super-vl`): without its size it names a model (`owner` of the sizeless
/// key, under any of its spellings), and no other size of that name is listed
/// (`qwen3-vl-8b-instruct` beside `qwen3-vl-32b-instruct` keeps Vercel's `qwen3-vl-instruct`
/// apart).
pub(super) fn sized_host_names(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
    owner: impl Fn(&str) -> Option<String>,
) -> Vec<(String, String)> {
    groups
        .iter()
        .filter(|(key, recs)| names::split_date(key).is_none() && recs.iter().all(|r| r.rank > 2))
        .filter_map(|(key, _)| {
            // A size before `instruct` (Inference's `mistral-nemo-12b-instruct`) is one too:
            // the name is the tuned model its words give without the size, or the name itself.
            let (base, instruct) = unsized_name(key)?;
            let tuned =
                instruct.then(|| owner(&format!("{base}-instruct")).or_else(|| owner(base)));
            // Ollama's tag of a size (`rnj-1:8b`) serves the tuned checkpoint where that is
            // the only model of the name and one of its names gives the size ("RNJ-1
            // Instruct 8B").
            let into = tuned
                .unwrap_or_else(|| owner(base))
                .or_else(|| {
                    let tuned = owner(&format!("{base}-instruct"))?;
                    let size = key[base.len() + 1..].replace('-', " ");
                    groups
                        .get(&tuned)?
                        .iter()
                        .filter_map(|r| r.name.as_deref())
                        .any(|n| n.to_ascii_lowercase().split(' ').any(|w| w == size))
                        .then_some(tuned)
                })
                // The name's words in another order (Fireworks' `nemotron-lightning-3p5-30b-a3b`
                // for NVIDIA's `nemotron-3.5-lightning`), where exactly one key spells them so.
                .or_else(|| {
                    let want = word_set(base);
                    let mut same = groups
                        .keys()
                        .filter(|g| *g != key && g.as_str() != base && word_set(g) == want);
                    match (same.next(), same.next()) {
                        (Some(g), None) => owner(g),
                        _ => None,
                    }
                })?;
            // Another size of the name, a decimal one too (`deepseek-coder-6-7b-instruct`
            // keeps `deepseek-coder-33b-instruct` apart from `deepseek-coder`).
            let own = [false, true].map(|decimal| sizes_apart(key, decimal).map(|(_, s)| s));
            let other_size = groups.keys().any(|k| {
                k != key
                    && [false, true].into_iter().zip(&own).any(|(decimal, own)| {
                        sizes_apart(k, decimal)
                            .is_some_and(|(b, s)| b == base && Some(&s) != own.as_ref())
                    })
            });
            (into != *key && !other_size).then(|| (key.clone(), into))
        })
        .collect()
}

/// A key's words in any order, with its numbers in theirs (`05-06` and `06-05` are two
/// dates).
fn word_set(key: &str) -> (Vec<&str>, Vec<&str>) {
    let mut words: Vec<&str> = key.split('-').collect();
    let numbers: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
        .collect();
    words.sort_unstable();
    (words, numbers)
}

/// Whether every record of a group is a host's listing: no creator's metadata or API
/// (rank 0 to 2) and no benchmark table.
fn hosts_only(recs: &[super::ModelRecord]) -> bool {
    recs.iter()
        .all(|r| r.rank > 2 && r.rank < super::BENCHMARK_RANK)
}

/// The key without the packagings a host writes after it ([`HOST_SUFFIXES`]), if any.
fn unpackaged(key: &str) -> Option<&str> {
    let mut base = key;
    while let Some(suffix) = HOST_SUFFIXES
        .iter()
        .find(|s| base.ends_with(*s) && base.len() > s.len() + 1)
    {
        base = &base[..base.len() - suffix.len()];
    }
    (base != key).then_some(base)
}

/// Packagings of one model hosts sell where no source lists the model itself are the model
/// under its plain key: two packagings or more one host alone sells (Together's
/// `prism-ml/Ternary-Bonsai-27B-gguf` and `…-AWQ-4bit`), or weights formats only (Novita's
/// `qwen/qwen3-4b-fp8`), whose plain entries elsewhere then name it (docs/methodology.md,
/// "Identity").
pub(super) fn packagings_only(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    // By plain key: the packaged keys, and the providers selling them.
    type Packaged<'a> = (Vec<&'a String>, BTreeSet<&'a str>);
    let mut by_base: BTreeMap<&str, Packaged> = BTreeMap::new();
    for (key, recs) in groups.iter().filter(|(_, recs)| hosts_only(recs)) {
        if let Some(base) = unpackaged(key).filter(|b| !groups.contains_key(*b)) {
            let e = by_base.entry(base).or_default();
            e.0.push(key);
            e.1.extend(recs.iter().filter_map(|r| r.provider.as_deref()));
        }
    }
    by_base
        .into_iter()
        .filter(|(_, (keys, providers))| {
            // One packaging alone where it is a weights format (`qwen3-4b-fp8`), not a
            // serving's or a repository's spelling (`-hf`, `-basic`).
            let format = |k: &&String| WEIGHT_FORMATS.iter().any(|f| k.ends_with(f));
            providers.len() == 1 && keys.len() >= 2 || keys.iter().all(format)
        })
        .map(|(base, (keys, _))| (base, keys))
        .flat_map(|(base, keys)| keys.into_iter().map(move |k| (k.clone(), base.to_string())))
        .collect()
}

/// A host's id leaving out the `vision` of its model's id (Bedrock's
/// `meta.llama3-2-90b-instruct-v1:0` for Meta's `Llama-3.2-90B-Vision-Instruct`) is that
/// model, where every record is a host's, one says it takes images and exactly one such
/// spelling is listed; a text model's id without the word stays itself (`grok-2-1212` beside
/// `grok-2-vision-1212` takes no images): docs/methodology.md, "Identity".
pub(super) fn vision_left_out(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    let takes_images = |r: &super::ModelRecord| {
        r.input_modalities
            .as_ref()
            .is_some_and(|m| m.iter().any(|x| x == "image"))
            || r.input_flags.iter().any(|(m, b)| m == "image" && *b)
    };
    groups
        .iter()
        .filter(|(key, recs)| {
            !key.contains("vision") && hosts_only(recs) && recs.iter().any(takes_images)
        })
        .filter_map(|(key, _)| {
            let words: Vec<&str> = key.split('-').collect();
            let spelt: Vec<String> = (1..words.len())
                .map(|i| {
                    let mut w = words.clone();
                    w.insert(i, "vision");
                    w.join("-")
                })
                .filter(|k| groups.contains_key(k))
                .collect();
            let [into] = &spelt[..] else {
                return None;
            };
            Some((key.clone(), into.clone()))
        })
        .collect()
}

/// A host's sizeless id whose own listings name one sized model (Kilo's and Helicone's
/// `qwen3-coder`, "Qwen3 Coder 480B A35B"): that model, where every record is a host's, at
/// least one names it so (its display name spelt as an id: the key, then a size word) and
/// none names another, other than a spelling of it with words left out
/// (docs/methodology.md, "Identity").
pub(super) fn named_sizes(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
    key_owner: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    groups
        .iter()
        .filter(|(key, recs)| {
            names::split_date(key).is_none() && !key.split('-').any(size_word) && hosts_only(recs)
        })
        .filter_map(|(key, recs)| {
            let head = format!("{key}-");
            let named: BTreeSet<&String> = recs
                .iter()
                .filter_map(|r| r.name.as_deref())
                .map(|n| names::parse(&names::slugify(display_name(n))).key)
                .filter(|k| {
                    k.strip_prefix(&head)
                        .and_then(|rest| rest.split('-').next())
                        .is_some_and(size_word)
                })
                .filter_map(|k| {
                    let instruct = format!("{k}-instruct");
                    key_owner.get(&k).or_else(|| key_owner.get(&instruct))
                })
                .collect();
            // Names that leave words out (Cerebras' "Qwen 3 Coder 480B", a model another
            // rule joins later) name the one model that spells them all.
            let into = named
                .iter()
                .find(|t| named.iter().all(|o| o == *t || shortened(o, t)))?;
            (*into != key).then(|| (key.clone(), (*into).clone()))
        })
        .collect()
}

/// A host's undated id that spells, with size words and `instruct` added, the name a
/// creator's dated snapshot is sold under (hosts' `mistral-small-3.1-24b-instruct` for
/// `mistral-small-2503`, which Azure and GitHub Models name "Mistral Small 3.1"): that
/// snapshot, where it is the only dated id so named and their creators agree
/// (docs/methodology.md, "Identity").
pub(super) fn named_snapshots(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    // Each undated spelling of a name a dated snapshot is sold under → the dated keys.
    let mut named: BTreeMap<String, BTreeSet<&String>> = BTreeMap::new();
    for (key, recs) in groups {
        if names::split_date(key).is_none() {
            continue;
        }
        for name in recs.iter().filter_map(|r| r.name.as_deref()) {
            let spelt = names::parse(&names::slugify(display_name(name))).key;
            if names::split_date(&spelt).is_none() && spelt.bytes().any(|b| b.is_ascii_digit()) {
                named.entry(spelt).or_default().insert(key);
            }
        }
    }
    groups
        .iter()
        .filter(|(key, recs)| names::split_date(key).is_none() && hosts_only(recs))
        .filter_map(|(key, _)| {
            let words: Vec<&str> = key.split('-').collect();
            let short: Vec<&str> = words
                .iter()
                .copied()
                .filter(|w| !size_word(w) && *w != "instruct")
                .collect();
            if !words.iter().any(|w| size_word(w)) || short.len() == words.len() {
                return None;
            }
            // A tuned model's spelling names no base checkpoint (`mistral-nemo-12b-instruct`
            // is "Mistral Nemo" the instruct model, not `mistral-nemo-base-2407`).
            let tuned = words.contains(&"instruct");
            let [into] = named
                .get(&short.join("-"))?
                .iter()
                .filter(|k| !(tuned && k.split('-').any(|w| w == "base")))
                .collect::<Vec<_>>()[..]
            else {
                return None;
            };
            (names::creator_for(None, key) == names::creator_for(None, into))
                .then(|| (key.clone(), (*into).clone()))
        })
        .collect()
}

/// A host's id that writes a version otherwise than its creator's id is that model, where
/// every record is a host's and exactly one such spelling is listed (docs/methodology.md,
/// "Identity"): without the `v` (Ollama Cloud's `cogito-2.1:671b` for Deep Cogito's
/// `cogito-v2.1-671b`) or without the dot of a version run into its name (Novita's
/// `l31-70b-euryale-v2.2` for Sao10K's `l3.1-70b-euryale-v2.2`; a size keeps its dot:
/// `opt-13b` is not `opt-1.3b`).
pub(super) fn version_spellings(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    groups
        .iter()
        .filter(|(_, recs)| hosts_only(recs))
        .filter_map(|(key, _)| {
            let words: Vec<&str> = key.split('-').collect();
            let respelt = |i: usize, word: String| {
                let mut w: Vec<&str> = words.clone();
                w[i] = &word;
                w.join("-")
            };
            let mut spelt: Vec<String> = Vec::new();
            for (i, word) in words.iter().enumerate() {
                let letters = word.trim_end_matches(|c: char| c.is_ascii_digit());
                let digits = &word[letters.len()..];
                if i > 0
                    && word.starts_with(|c: char| c.is_ascii_digit())
                    && words[i - 1].bytes().all(|b| b.is_ascii_alphabetic())
                {
                    spelt.push(respelt(i, format!("v{word}")));
                }
                if !letters.is_empty()
                    && letters.bytes().all(|b| b.is_ascii_alphabetic())
                    && digits.len() == 2
                {
                    spelt.push(respelt(
                        i,
                        format!("{letters}{}-{}", &digits[..1], &digits[1..]),
                    ));
                }
            }
            spelt.retain(|k| groups.contains_key(k));
            let [into] = &spelt[..] else {
                return None;
            };
            Some((key.clone(), into.clone()))
        })
        .collect()
}

/// The version ending a key and the key without it: a `v` version (`-v0-1` → `0.1`, `-v1-0`
/// → `1`), a bare first version written `1.0` (`muse-wonder-1-0` → `1`: a bare `-1` or
/// `-2-0` is a name's own number, `gpt-4-1`, `claude-2-0`) or a build counter (`-001`,
/// Vertex's `@001`).
pub fn version_ending(key: &str) -> Option<(String, String)> {
    if let Some((stem, n)) = key.rsplit_once('-')
        && n.len() == 3
        && n.starts_with("00")
        && n.bytes().all(|b| b.is_ascii_digit())
    {
        return Some((stem.to_string(), n.to_string()));
    }
    if let Some(stem) = key.strip_suffix("-1-0")
        && stem.contains('-')
        && !stem.ends_with(|c: char| c.is_ascii_digit())
    {
        return Some((stem.to_string(), "1".to_string()));
    }
    let (stem, v) = key.rsplit_once("-v")?;
    (v.starts_with(|c: char| c.is_ascii_digit())
        && v.bytes().all(|b| b.is_ascii_digit() || b == b'-')
        && !stem.is_empty())
    .then(|| (stem.to_string(), v.trim_end_matches("-0").replace('-', ".")))
}

/// An id and the same id with a first version added (`mixtral-8x7b-instruct` and
/// `mixtral-8x7b-instruct-v0.1`, `solar-10.7b-instruct` and `…-v1.0`, `l3-8b-lunaris` and
/// `…-v1`, `jamba-1.5-mini` and Vertex's `jamba-1.5-mini@001`) are one model, where no other version of the name is known and their creators
/// agree: before a second version a name has no other to mean (`titan-embed-text` beside
/// `-v2`, or `mistral-7b-instruct` beside `-v0.1` to `-v0.3`, stay apart). The versioned id
/// is kept, as a dated one is; a build counter joins the plain name.
pub(super) fn first_versions(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
    key_owner: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    let mut versions: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for key in key_owner.keys() {
        if let Some((stem, v)) = version_ending(key) {
            versions.entry(stem).or_default().insert(v);
        }
    }
    groups
        .iter()
        .filter_map(|(key, recs)| {
            let (stem, v) = version_ending(key)?;
            let known = versions.get(&stem)?;
            let first = v == "0.1" || v == "1" || v == "001";
            let (plain, plain_recs) = groups.get_key_value(key_owner.get(&stem)?)?;
            // A build counter is the plain name's build (AI21's `jamba-1.5-mini` on Vertex as
            // `jamba-1.5-mini@001`): the plain name is kept. A `v` version is kept, as a date is.
            let counter = v == "001";
            (first
                && known.len() == 1
                && plain != key
                && names::split_date(plain).is_none()
                && model_creator(plain, plain_recs) == model_creator(key, recs))
            .then(|| {
                if counter {
                    (key.clone(), plain.clone())
                } else {
                    (plain.clone(), key.clone())
                }
            })
        })
        .collect()
}

/// An id with `.0` after its number is the id's model (`claude-2.0` is `claude-2`): version 2
/// is 2.0, and so is the snapshot its creator names with that version (LiteLLM's
/// `mistral-ocr-3-0` is `mistral-ocr-2512`, "Mistral OCR 3 (2512)"). Where the plain id moved
/// to another version (`mistral-ocr-4` to 4.1), it names nothing of the `.0`.
pub(super) fn point_zero(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
    owner: impl Fn(&str) -> Option<String>,
) -> Vec<(String, String)> {
    // A dated snapshot its creator names as the plain id (Mistral's `mistral-ocr-2512` is
    // "Mistral OCR 3"), where exactly one is.
    let named_so = |k: &str| {
        let mut named = groups.iter().filter(|(g, recs)| {
            names::split_date(g).is_some()
                && recs
                    .iter()
                    .filter(|r| r.rank <= 2)
                    .filter_map(|r| r.name.as_deref())
                    .any(|n| names::slugify(n) == k)
        });
        match (named.next(), named.next()) {
            (Some((g, _)), None) => Some(g.clone()),
            _ => None,
        }
    };
    groups
        .keys()
        .filter_map(|zero| {
            let k = zero.strip_suffix("-0")?;
            let by_name = named_so(k);
            let into = &owner(k).or_else(|| by_name.clone())?;
            // (Only the id itself or its dated snapshot, by id or by its creator's name: an
            // undated `mistral-ocr-4` floating to `mistral-ocr-4-1` says nothing of 4.0.)
            let snapshot = names::split_date(into).is_some_and(|(stem, _)| stem == k)
                || by_name.as_ref() == Some(into);
            (k.ends_with(|c: char| c.is_ascii_digit())
                && names::split_date(k).is_none()
                && (into == k || snapshot)
                && groups.contains_key(into))
            .then(|| (zero.clone(), into.clone()))
        })
        .collect()
}

/// A price rule for the ids that begin with its own (genai-prices' `computer-use`, matching
/// `computer-use-preview-2025-03-11`), listed by nothing else, is the one model whose key
/// begins so; with several (`magistral-medium-2506`, `-2507`) it is left to the other rules.
pub(super) fn prefix_rules(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
) -> Vec<(String, String)> {
    groups
        .iter()
        .filter(|(_, recs)| recs.iter().all(|r| r.prefix_rule))
        .filter_map(|(key, _)| {
            let head = format!("{key}-");
            let [into] = groups
                .range(head.clone()..)
                .take_while(|(k, _)| k.starts_with(&head))
                .map(|(k, _)| k)
                .collect::<Vec<_>>()[..]
            else {
                return None;
            };
            Some((key.clone(), into.clone()))
        })
        .collect()
}

/// The spellings hosts give a build id's model (`imagen-4-0-ultra` of Google's
/// `imagen-4.0-ultra-generate-001`): the head as it is, without a `.0` point (`imagen-4-ultra`),
/// and each with the name glued to its version (`veo3-1`).
fn build_spellings(head: &str) -> Vec<String> {
    let mut out = vec![head.to_string()];
    let words: Vec<&str> = head.split('-').collect();
    if let Some(i) = (1..words.len())
        .find(|&i| words[i] == "0" && words[i - 1].bytes().all(|b| b.is_ascii_digit()))
    {
        let mut w = words.clone();
        w.remove(i);
        out.push(w.join("-"));
    }
    for s in out.clone() {
        let b = s.as_bytes();
        if let Some(i) = (1..b.len().saturating_sub(1))
            .find(|&i| b[i] == b'-' && b[i - 1].is_ascii_alphabetic() && b[i + 1].is_ascii_digit())
        {
            out.push(format!("{}{}", &s[..i], &s[i + 1..]));
        }
    }
    out
}

/// Google's build ids for its media models (`veo-3.1-generate-001`,
/// `imagen-4.0-ultra-generate-001`) are the models hosts name without the build
/// (`veo-3.1` at Poe, `veo3.1` at FastRouter, `imagen-4-ultra`): a host's short name joins the
/// creator's id, the newest build where several are listed (`imagen-3` is
/// `imagen-3.0-generate-002`). A short name two different ids claim stays apart.
pub(super) fn build_ids(
    groups: &BTreeMap<String, Vec<super::ModelRecord>>,
    key_owner: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    // The short name's group → (the id's head, its build, the id's group).
    let mut claims: BTreeMap<&str, Vec<(&str, &str, &str)>> = BTreeMap::new();
    for key in groups.keys() {
        let Some((head, build)) = key.rsplit_once("-generate-") else {
            continue;
        };
        if build.len() != 3 || !build.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let owners: BTreeSet<&str> = build_spellings(head)
            .iter()
            .filter_map(|s| key_owner.get(s).map(String::as_str))
            .filter(|o| *o != key && !o.contains("-generate-") && groups.contains_key(*o))
            .collect();
        for owner in owners {
            claims.entry(owner).or_default().push((head, build, key));
        }
    }
    claims
        .into_iter()
        .filter_map(|(owner, mut ids)| {
            ids.sort_unstable();
            let heads: BTreeSet<&str> = ids.iter().map(|(h, _, _)| *h).collect();
            let (_, _, into) = ids.last()?;
            (heads.len() == 1).then(|| (owner.to_string(), (*into).to_string()))
        })
        .collect()
}

/// Whether `key` is `base` with words left out and none added (`nemotron-3-ultra-550b` of
/// `nemotron-3-ultra-550b-a55b`): a host's short spelling of the model its entry names.
pub(super) fn shortened(key: &str, base: &str) -> bool {
    let mut words: Vec<&str> = base.split('-').collect();
    key != base
        && key.split('-').all(|w| {
            let at = words.iter().position(|b| *b == w);
            at.map(|i| words.remove(i)).is_some()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_id_s_model_is_spelt_without_the_build() {
        assert_eq!(
            build_spellings("imagen-4-0-ultra"),
            [
                "imagen-4-0-ultra",
                "imagen-4-ultra",
                "imagen4-0-ultra",
                "imagen4-ultra"
            ]
        );
        assert_eq!(build_spellings("veo-3-1"), ["veo-3-1", "veo3-1"]);
        let rec = |raw_id: &str| crate::ingest::ModelRecord {
            raw_id: raw_id.into(),
            ..Default::default()
        };
        let groups: BTreeMap<String, Vec<crate::ingest::ModelRecord>> = [
            "veo-3-1-generate-001",
            "veo3-1",
            "imagen-3-0-generate-001",
            "imagen-3-0-generate-002",
            "imagen-3",
            "veo-3-0-generate-001",
            "veo-3-0-fast-generate-001",
            "veo-3",
        ]
        .into_iter()
        .map(|k| (k.to_string(), vec![rec(k)]))
        .collect();
        let mut owners: BTreeMap<String, String> =
            groups.keys().map(|k| (k.clone(), k.clone())).collect();
        // `veo-3` is claimed by Veo 3.0 through its own name and by Veo 3.0 Fast through a
        // spelling folded into it: it stays apart.
        owners.insert("veo-3-fast".into(), "veo-3".into());
        assert_eq!(
            build_ids(&groups, &owners),
            [
                (
                    "imagen-3".to_string(),
                    "imagen-3-0-generate-002".to_string()
                ),
                ("veo3-1".to_string(), "veo-3-1-generate-001".to_string()),
            ]
        );
    }

    #[test]
    fn a_derivative_s_base_keeps_its_size_and_version() {
        // Longest first; the size ends the trimming.
        assert_eq!(
            base_candidates("llama-3.3-70b-instruct-abliterated"),
            ["llama-3.3-70b-instruct", "llama-3.3-70b"]
        );
        assert_eq!(
            base_candidates("deepseek-r1-distill-qwen-32b-abliterated"),
            ["deepseek-r1-distill-qwen-32b"]
        );
        assert!(base_candidates("llama-3-lumimaid-70b").is_empty());
        assert!(says_derivative("gemma-3-27b-it-abliterated"));
        assert!(!says_derivative("gpt-4o"));
    }

    #[test]
    fn a_host_s_bot_marked_with_its_initials_runs_the_model_its_id_names() {
        assert_eq!(
            owner_marked("cerebras/llama-3.1-8b-cs"),
            Some(("cerebras", "llama-3.1-8b"))
        );
        assert_eq!(
            owner_marked("empiriolabs/deepseek-v4-pro-el"),
            Some(("empiriolabs", "deepseek-v4-pro"))
        );
        assert_eq!(
            owner_marked("novita/glm-4.7-n"),
            Some(("novita", "glm-4.7"))
        );
        assert_eq!(
            owner_marked("fireworks-ai/kimi-k2.5-fw"),
            Some(("fireworks-ai", "kimi-k2.5"))
        );
        // Words that are not the account's initials stay: a size, a tuning, a version.
        assert_eq!(owner_marked("google/gemma-3n-e4b-it"), None);
        assert_eq!(owner_marked("perplexity/sonar-pro"), None);
        assert_eq!(owner_marked("openai/gpt-4o-mini"), None);
        assert_eq!(owner_marked("amazon/nova-lite-v1"), None);
        assert_eq!(owner_marked("llama-3.1-8b-cs"), None);
    }

    #[test]
    fn a_zero_patch_ending_a_version_is_that_version() {
        assert_eq!(spelling("Jev 1.14.0"), spelling("jev-1.14"));
        assert_ne!(spelling("Jev 1.14.1"), spelling("jev-1.14"));
        assert_ne!(spelling("qwen2.5-0.5b"), spelling("qwen2.5-5b"));
    }

    #[test]
    fn a_short_spelling_leaves_words_out_and_adds_none() {
        assert!(shortened(
            "nemotron-3-ultra-550b",
            "nemotron-3-ultra-550b-a55b"
        ));
        assert!(!shortened(
            "nemotron-3-ultra-550b-a55b",
            "nemotron-3-ultra-550b-a55b"
        ));
        assert!(!shortened(
            "nemotron-3-super-550b",
            "nemotron-3-ultra-550b-a55b"
        ));
        // Each of the base's words is used once.
        assert!(!shortened("llama-3-8b-8b", "llama-3-8b-instruct"));
    }

    #[test]
    fn a_host_s_coding_route_is_its_plan_s_offering() {
        assert_eq!(
            plan_route(Some("aihubmix"), "coding-glm-5.1"),
            Some(("aihubmix-coding-plan", "glm-5.1"))
        );
        assert_eq!(
            plan_route(Some("aihubmix"), "coding-glm-5.1-free"),
            Some(("aihubmix-coding-plan", "glm-5.1"))
        );
        assert_eq!(plan_route(Some("nano-gpt"), "coding-router"), None);
        assert_eq!(plan_route(Some("aihubmix"), "glm-5.1"), None);
    }

    #[test]
    fn a_trailing_date_comes_off() {
        assert_eq!(undated("gpt-5.5-2026-04-23"), Some("gpt-5.5"));
        assert_eq!(undated("claude-opus-4-6-20260205"), Some("claude-opus-4-6"));
        assert_eq!(
            undated("claude-sonnet-4-5@20250929"),
            Some("claude-sonnet-4-5")
        );
        assert_eq!(undated("grok-4.20-0309"), Some("grok-4.20"));
        assert_eq!(undated("gpt-5.5"), None);
        assert_eq!(undated("llama-3-70b"), None);
    }

    #[test]
    fn run_configurations_fold_into_the_model_they_run() {
        let known = |k: &str| {
            [
                "claude-sonnet-4-5-20250929",
                "gemini-3-1-pro-preview",
                "gpt-5",
            ]
            .contains(&k)
        };
        assert_eq!(
            configured("claude-sonnet-4-5-20250929-thinking", known),
            Some((
                "claude-sonnet-4-5-20250929-thinking",
                "claude-sonnet-4-5-20250929".into()
            ))
        );
        assert_eq!(
            configured("gemini-3-1-pro-preview-high", known).map(|x| x.1),
            Some("gemini-3-1-pro-preview".into())
        );
        assert_eq!(
            configured("gpt-5-thinking-32k-high", known).map(|x| x.1),
            Some("gpt-5".into())
        );
        assert_eq!(
            configured("claude-sonnet-4-5-20250929-think", known).map(|x| x.1),
            Some("claude-sonnet-4-5-20250929".into())
        );
        assert_eq!(
            configured("claude-sonnet-4-5-20250929-16k", known).map(|x| x.1),
            Some("claude-sonnet-4-5-20250929".into())
        );
        // A context size in a product's name is not a budget.
        assert_eq!(
            configured("doubao-1-5-pro-32k", |k| k == "doubao-1-5-pro"),
            None
        );
        // Not a configuration of a known model.
        assert_eq!(configured("claude-sonnet-9-thinking", known), None);
        // Qwen's thinking checkpoints are models of their own.
        let qwen = |k: &str| k == "qwen3-235b-a22b";
        assert_eq!(configured("qwen3-235b-a22b-thinking", qwen), None);
        // Base and chat stay apart; `-max` is a model name.
        assert_eq!(configured("deepseek-v3-base", |k| k == "deepseek-v3"), None);
        // Together's `-chat-hf` of a line whose tuned model is `-instruct`.
        assert_eq!(
            configured("llama-3-70b-chat-hf", |k| k == "llama-3-70b-instruct").map(|x| x.1),
            Some("llama-3-70b-instruct".into())
        );
        // Llama 2's tuned model is its `-chat`.
        assert_eq!(
            configured("llama-2-7b-chat-hf", |k| k == "llama-2-7b-chat"
                || k == "llama-2-7b-instruct")
            .map(|x| x.1),
            Some("llama-2-7b-chat".into())
        );
        assert_eq!(configured("qwen3-max", |k| k == "qwen3"), None);
        // A host's `-Instruct-Turbo` serving is the instruct model; a creator's `-turbo` is
        // a model.
        assert_eq!(
            configured("llama-3-3-70b-instruct-turbo", |k| k
                == "llama-3-3-70b-instruct")
            .map(|x| x.1),
            Some("llama-3-3-70b-instruct".into())
        );
        assert_eq!(configured("gpt-3-5-turbo", |k| k == "gpt-3-5"), None);
        assert_eq!(configured("qwen-turbo", |k| k == "qwen"), None);
    }

    #[test]
    fn a_host_s_label_is_the_model_it_labels() {
        let known = |k: &str| {
            [
                "llama-3-1-8b",
                "gpt-5-1",
                "deepseek-v4-flash-0731",
                "glm-5-2",
            ]
            .contains(&k)
        };
        assert_eq!(
            host_labelled("llama-3-1-8b-instant", known).as_deref(),
            Some("llama-3-1-8b")
        );
        assert_eq!(
            host_labelled("deepseek-v4-flash-0731-p", known).as_deref(),
            Some("deepseek-v4-flash-0731")
        );
        assert_eq!(
            host_labelled("glm-5-2-short", known).as_deref(),
            Some("glm-5-2")
        );
        // GPT-5.1 Instant is OpenAI's product, not GPT-5.1.
        assert_eq!(host_labelled("gpt-5-1-instant", known), None);
        assert_eq!(host_labelled("unknown-instant", known), None);
    }

    #[test]
    fn a_tuned_only_host_s_label_names_the_model() {
        let known = |k: &str| ["llama-3-1-405b", "llama-3-2-1b"].contains(&k);
        assert_eq!(
            endpoint_labelled("groq", "llama-3-1-405b-reasoning", known).as_deref(),
            Some("llama-3-1-405b")
        );
        assert_eq!(
            endpoint_labelled("groq", "llama-3-2-1b-preview", known).as_deref(),
            Some("llama-3-2-1b")
        );
        // A label is its host's alone, and names only a known model.
        assert_eq!(
            endpoint_labelled("databricks", "llama-3-1-405b-reasoning", known),
            None
        );
        assert_eq!(
            endpoint_labelled("groq", "llama-3-2-3b-preview", known),
            None
        );
        let instruct = |k: &str| k == "llama-3-2-11b-vision-instruct";
        assert_eq!(
            endpoint_labelled("groq", "llama-3-2-11b-vision-preview", instruct).as_deref(),
            Some("llama-3-2-11b-vision-instruct")
        );
        assert!(tuned_host(Some("snowflake-cortex")) && !tuned_host(Some("togetherai")));
    }

    #[test]
    fn host_spellings_are_the_model() {
        assert_eq!(
            without_host_prefix(Some("databricks"), "databricks-gpt-5"),
            Some("gpt-5")
        );
        assert_eq!(without_host_prefix(Some("databricks"), "gpt-5"), None);
        assert_eq!(without_host_prefix(None, "databricks-gpt-5"), None);
        assert_eq!(without_host_prefix(Some("openai"), "openai"), None);
        let known = |k: &str| k == "deepseek-v3-2";
        assert_eq!(
            configured("deepseek-v3-2-maas", known).map(|x| x.1),
            Some("deepseek-v3-2".into())
        );
        assert_eq!(
            configured("deepseek-v3-2-nvfp4", known).map(|x| x.1),
            Some("deepseek-v3-2".into())
        );
        assert_eq!(
            configured("deepseek-v3-2-tee", known).map(|x| x.1),
            Some("deepseek-v3-2".into())
        );
    }

    #[test]
    fn a_slash_in_a_display_name_is_part_of_the_name() {
        assert!(is_display_name("LLaVA (ViT-L/16-224)"));
        assert!(!is_display_name("meta-llama/Llama-3.3-70B-Instruct"));
        assert!(!is_display_name("Claude 3.5 Sonnet"));
        assert_eq!(names::slugify("LLaVA (ViT-L/16-224)"), "llava-vit-l-16-224");
    }

    #[test]
    fn router_prefixes_leave_names() {
        assert_eq!(display_name("DeepSeek R1 (Turbo)\t"), "DeepSeek R1 (Turbo)");
        assert_eq!(
            display_name("Anthropic: Claude Opus 4.6"),
            "Claude Opus 4.6"
        );
        assert_eq!(display_name("AionLabs: Aion-1.0"), "Aion-1.0");
        assert_eq!(display_name("GPT-4o"), "GPT-4o");
        assert_eq!(display_name("Kimi K2.5 Thinking TEE"), "Kimi K2.5 Thinking");
        assert_eq!(display_name("Claude 2.0 / 2.1"), "Claude 2.0 / 2.1");
        // Nothing after the colon: no prefix to drop, only the white space.
        assert_eq!(display_name("Trailing: "), "Trailing:");
        assert_eq!(display_name("x-AI/Grok-4-Fast"), "Grok-4-Fast");
        assert_eq!(
            display_name("siliconflow/deepseek-v3-0324"),
            "deepseek-v3-0324"
        );
        assert_eq!(display_name("Kimi K2 (07/11)"), "Kimi K2 (07/11)");
        assert_eq!(
            display_name("Ternary-Bonsai-27B-gguf"),
            "Ternary-Bonsai-27B"
        );
        assert_eq!(
            display_name("Dolphin 2.9.2 Mixtral 8x22B 🐬"),
            "Dolphin 2.9.2 Mixtral 8x22B"
        );
        assert_eq!(display_name("DeepSeek V3 Base (free)"), "DeepSeek V3 Base");
        assert_eq!(display_name("Kimi K2.5 Free"), "Kimi K2.5");
        assert_eq!(display_name("Free"), "Free");
    }

    fn words(s: &Spelling) -> Vec<&str> {
        s.words.iter().map(String::as_str).collect()
    }

    #[test]
    fn spellings_take_ids_and_names_apart() {
        for text in ["gpt-5.2", "GPT-5.2", "gpt-5-2"] {
            let s = spelling(text);
            assert!(s.words.contains("52"), "{text}: {s:?}");
            assert!(s.dates.is_empty() && s.tail.is_none(), "{text}: {s:?}");
        }
        // Written without its point, a version ends the id like a counter; the name
        // "GPT-5.2" says it, so the two still compare equal (see below).
        assert_eq!(spelling("openai-gpt-52").tail.as_deref(), Some("52"));
        assert_eq!(words(&spelling("qwen3-6-35b")), ["35b", "36", "qwen"]);
        assert_eq!(words(&spelling("Qwen3.6 35B")), ["35b", "36", "qwen"]);
        assert_eq!(
            words(&spelling("mistral-small3.2")),
            ["32", "mistral", "small"]
        );
        assert_eq!(
            words(&spelling("deepseek-v3.1-terminus")),
            ["31", "deepseek", "terminus"]
        );
        assert_eq!(spelling("deepseek-v3.1").tail.as_deref(), Some("31"));
        assert_eq!(
            words(&spelling("grok-4-20-reasoning")),
            ["420", "grok", "reasoning"]
        );
        let dated = spelling("command-r-08-2024");
        assert_eq!(words(&dated), ["command", "r"]);
        assert_eq!(dated.dates, ["202408".to_string()].into());
        for (id, date) in [
            ("gpt-4o-2024-11-20", "20241120"),
            ("claude-3-5-sonnet-20241022", "20241022"),
            ("doubao-seed-2-0-lite-260215", "260215"),
            ("mistral-medium-2505", "2505"),
            ("deepseek-r1-0528", "0528"),
        ] {
            assert_eq!(spelling(id).dates, [date.to_string()].into(), "{id}");
        }
        assert_eq!(spelling("mistral-7b-v0.1").tail.as_deref(), Some("01"));
        assert_eq!(
            spelling("gemini-2.0-flash-001").tail.as_deref(),
            Some("001")
        );
        assert_eq!(spelling("gpt-oss-20b-1").tail.as_deref(), Some("1"));
        assert_eq!(spelling("gpt-5-2").tail, None, "a point, not a counter");
        assert_eq!(words(&spelling("claude-opus-4-0")), ["4", "claude", "opus"]);
        assert_eq!(
            words(&spelling("Gemini 2.0 Flash")),
            ["2", "flash", "gemini"]
        );
    }

    fn cand(key: &str, name: &str, creator: Option<&str>, records: usize) -> Candidate {
        Candidate {
            key: key.into(),
            name: name.into(),
            creator: creator.map(str::to_string),
            vendor_words: creator.map(creator_words).unwrap_or_default(),
            records,
            offered: true,
            plain_in_table: false,
            own_price: None,
        }
    }

    #[test]
    fn ids_one_price_list_sells_apart_are_two_models() {
        let priced = |key: &str, input: f64, source: &'static str| Candidate {
            own_price: Some((source, Some(input), Some(input))),
            ..cand(key, "GPT-3 XL", Some("openai"), 1)
        };
        let apart = [
            priced("babbage", 0.5, "genai-prices"),
            priced("babbage-002", 0.4, "genai-prices"),
        ];
        assert!(same_name(&apart, false).is_empty());
        // Two sources' copies of the list may be of two days: names alike still join.
        let copies = [
            priced("babbage", 0.5, "genai-prices"),
            priced("babbage-002", 0.4, "models-dev"),
        ];
        assert_eq!(same_name(&copies, false).len(), 1);
    }

    #[test]
    fn a_dashed_day_is_the_snapshot_of_that_day() {
        let keys: BTreeMap<String, Vec<super::super::ModelRecord>> = [
            "grok-2-0813",
            "grok-2-08-13",
            "gpt-4o-2024-08-06",
            "gpt-4o-2024-0806",
            "qwen3-5-flash-02-23",
            "mistral-7b-13-40",
            "mistral-7b-1340",
        ]
        .into_iter()
        .map(|k| (k.to_string(), Vec::new()))
        .collect();
        assert_eq!(
            dashed_days(&keys),
            [("grok-2-08-13".to_string(), "grok-2-0813".to_string())]
        );
    }

    fn merges(cands: &[Candidate]) -> Vec<(String, String)> {
        let mut out = same_name(cands, false);
        let joined: BTreeSet<&str> = out.iter().map(|(from, _)| from.as_str()).collect();
        let left: Vec<Candidate> = cands
            .iter()
            .filter(|c| !joined.contains(c.key.as_str()))
            .cloned()
            .collect();
        out.extend(same_name(&left, true));
        out
    }

    fn pair(from: &str, into: &str) -> (String, String) {
        (from.to_string(), into.to_string())
    }

    #[test]
    fn models_named_alike_are_one_unless_their_ids_say_otherwise() {
        // A vendor prefix and a dropped point.
        assert_eq!(
            merges(&[
                cand("gpt-5-2", "GPT-5.2", Some("openai"), 26),
                cand("openai-gpt-52", "GPT-5.2", Some("openai"), 1),
            ]),
            [pair("openai-gpt-52", "gpt-5-2")]
        );
        // An undated name joins the dated snapshot, whatever the date's format.
        assert_eq!(
            merges(&[
                cand("command-r", "Command R", Some("cohere"), 4),
                cand("command-r-08-2024", "Command R", Some("cohere"), 7),
            ]),
            [pair("command-r", "command-r-08-2024")]
        );
        assert_eq!(
            merges(&[
                cand("mistral-medium-3", "Mistral Medium 3", Some("mistral"), 4),
                cand(
                    "mistral-medium-2505",
                    "Mistral Medium 3",
                    Some("mistral"),
                    6
                ),
                cand(
                    "mistral-medium-3-instruct",
                    "Mistral Medium 3",
                    Some("mistral"),
                    1
                ),
            ]),
            [
                pair("mistral-medium-3", "mistral-medium-2505"),
                pair("mistral-medium-3-instruct", "mistral-medium-2505")
            ]
        );
        // A name missing its family, a version counter, word order, a host prefix.
        assert_eq!(
            merges(&[
                cand("kimi-k2-5", "Kimi K2.5", Some("moonshotai"), 48),
                cand("k2-5", "Kimi K2.5", None, 1),
            ]),
            [pair("k2-5", "kimi-k2-5")]
        );
        assert_eq!(
            merges(&[
                cand("mistral-7b-v0-1", "Mistral 7B", Some("mistral"), 3),
                cand("open-mistral-7b", "Mistral 7B", None, 1),
            ]),
            [pair("open-mistral-7b", "mistral-7b-v0-1")]
        );
        assert_eq!(
            merges(&[
                cand("jamba-mini-1-6", "Jamba Mini 1.6", Some("ai21"), 2),
                cand("jamba-1-6-mini", "Jamba Mini 1.6", Some("ai21"), 1),
            ]),
            [pair("jamba-1-6-mini", "jamba-mini-1-6")]
        );
        // A router's `(latest)` alias and a `.0` version.
        assert_eq!(
            merges(&[
                cand(
                    "claude-opus-4-0",
                    "Claude Opus 4 (latest)",
                    Some("anthropic"),
                    1
                ),
                cand(
                    "claude-opus-4-20250514",
                    "Claude Opus 4",
                    Some("anthropic"),
                    5
                ),
            ]),
            [pair("claude-opus-4-0", "claude-opus-4-20250514")]
        );
        let mut host = cand("umans-glm-5-1", "GLM 5.1", Some("zhipuai"), 2);
        host.vendor_words.insert("umans".into());
        assert_eq!(
            merges(&[cand("glm-5-1", "GLM-5.1", Some("zhipuai"), 9), host]),
            [pair("umans-glm-5-1", "glm-5-1")]
        );
    }

    #[test]
    fn products_name_the_model_they_run_in_parentheses() {
        let host = |w: &str| w == "alibaba";
        assert_eq!(
            named_in_parentheses("Agentic Chat (Claude Opus 4.5)", host),
            Some("Claude Opus 4.5")
        );
        assert_eq!(
            named_in_parentheses("DeepSeek V4 Flash (Alibaba Cloud)", host),
            Some("DeepSeek V4 Flash")
        );
        assert_eq!(
            named_in_parentheses("Llama 3.1 8b (uncensored)", host),
            None
        );
        assert_eq!(named_in_parentheses("(Alibaba)", host), None);
        assert_eq!(named_in_parentheses("Claude Opus 4.5", host), None);
        assert_eq!(named_in_parentheses("Odd (name", host), None);
    }

    #[test]
    fn a_sellers_plain_name_is_the_instruct_model() {
        // Sellers list Llama 3.3 70B; its model card and benchmark tables say Instruct.
        assert_eq!(
            merges(&[
                cand(
                    "llama-3-3-70b-instruct",
                    "Llama-3.3-70B-Instruct",
                    Some("meta"),
                    45
                ),
                cand("llama-3-3-70b", "Llama 3.3 70B", Some("meta"), 7),
            ]),
            [pair("llama-3-3-70b", "llama-3-3-70b-instruct")]
        );
        // A plain name a benchmark table also uses is the base model.
        let mut base = cand("gemma-2b", "Gemma 2B", Some("google"), 3);
        base.plain_in_table = true;
        assert!(merges(&[cand("gemma-2b-it", "Gemma 2B IT", Some("google"), 2), base]).is_empty());
        // `chat` also names products: GPT-5.2 Chat is not GPT-5.2.
        assert!(
            merges(&[
                cand("gpt-5-2", "GPT-5.2", Some("openai"), 9),
                cand("gpt-5-2-chat", "GPT-5.2 Chat", Some("openai"), 3),
            ])
            .is_empty()
        );
        assert!(says_served("llama3.3:70b-instruct-q8_0"));
        assert!(!says_served("llama-3.3-70b"));
    }

    #[test]
    fn a_beta_spelling_is_the_release_its_price_entry_names() {
        assert!(beta_spelled("grok-3-mini-beta", "grok-3-mini"));
        assert!(beta_spelled(
            "grok-4.20-multi-agent-beta-0309",
            "grok-4.20-multi-agent-0309"
        ));
        assert!(!beta_spelled("grok-3-mini", "grok-3-mini"));
        assert!(!beta_spelled("grok-3-mini-beta", "grok-3"));
        assert!(!beta_spelled("grok-3-mini-preview", "grok-3-mini"));
    }

    #[test]
    fn names_alike_do_not_join_what_the_ids_set_apart() {
        // Each pair stays apart: a size the name does not carry; two snapshots; two
        // counters; base and chat; preview and GA; two creators; no creator and a word
        // that is not a packaging.
        let apart = [
            (
                ("gemini-1-5-flash-0514", Some("google")),
                ("gemini-1-5-flash-8b", Some("google")),
                "Gemini 1.5 Flash",
            ),
            (
                ("kimi-k2-0711", Some("moonshotai")),
                ("kimi-k2-0905", Some("moonshotai")),
                "Kimi K2",
            ),
            (
                ("text-davinci-002", Some("openai")),
                ("text-davinci-003", Some("openai")),
                "GPT-3.5",
            ),
            (
                ("deepseek-v3", Some("deepseek")),
                ("deepseek-v3-base", Some("deepseek")),
                "DeepSeek V3",
            ),
            (
                ("ernie-x1-32k", Some("baidu")),
                ("ernie-x1-32k-preview", Some("baidu")),
                "ERNIE X1 32K",
            ),
            (
                ("llama-3-3-70b", Some("meta")),
                ("snowflake-llama-3-3-70b", Some("snowflake")),
                "Llama 3.3 70B",
            ),
            (("foo", None), ("foo-pro", None), "Foo"),
        ];
        for ((a, ca), (b, cb), name) in apart {
            assert!(
                merges(&[cand(a, name, ca, 2), cand(b, name, cb, 1)]).is_empty(),
                "{a} and {b}"
            );
        }
        assert_eq!(
            merges(&[
                cand("coding-glm-5-1", "Coding GLM 5.1", None, 1),
                cand("coding-glm-5-1-free", "Coding GLM 5.1", None, 1),
            ]),
            [pair("coding-glm-5-1-free", "coding-glm-5-1")]
        );
        // A paper's plain name is the base model; two counters are two snapshots.
        let mut paper = cand("llama-2-70b-hf", "Llama 2-70B", Some("meta"), 1);
        paper.offered = false;
        assert!(
            merges(&[
                cand("llama-2-70b-chat", "Llama 2-70B", Some("meta"), 2),
                paper
            ])
            .is_empty()
        );
        let mut p1 = cand("gemini-1-5-pro-001", "Gemini 1.5 Pro", Some("google"), 1);
        let mut p2 = cand("gemini-1-5-pro-002", "Gemini 1.5 Pro", Some("google"), 1);
        p1.offered = false;
        p2.offered = false;
        assert_eq!(
            merges(&[
                cand("gemini-1-5-pro", "Gemini 1.5 Pro", Some("google"), 9),
                p1,
                p2
            ]),
            [pair("gemini-1-5-pro-002", "gemini-1-5-pro")],
            "the undated name joins the newest snapshot only"
        );
        // What one snapshot leaves over is compared again: two spellings of the 0711 snapshot.
        assert_eq!(
            merges(&[
                cand("kimi-k2-0905", "Kimi K2", Some("moonshotai"), 12),
                cand("kimi-k2-0711-preview", "Kimi K2", Some("moonshotai"), 2),
                cand("kimi-k2-instruct-0711", "Kimi K2", Some("moonshotai"), 1),
            ]),
            [pair("kimi-k2-instruct-0711", "kimi-k2-0711-preview")]
        );
        // A preview the name says is one model's spelling.
        assert_eq!(
            merges(&[
                cand(
                    "gemini-3-pro-preview",
                    "Gemini 3 Pro Preview",
                    Some("google"),
                    9
                ),
                cand("gemini-3-pro", "Gemini 3 Pro Preview", Some("google"), 5),
            ]),
            [pair("gemini-3-pro", "gemini-3-pro-preview")]
        );
    }
}
