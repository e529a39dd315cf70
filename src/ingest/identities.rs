//! Identity rules that decide when two spellings are one model (API.md §8.1), beyond what
//! name normalization ([`super::names`]) already joins.

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
    "-thinking",
    "-xhigh",
    "-high",
    "-medium",
    "-low",
    "-minimal",
];

/// Suffixes of a host's packaging of a model: quantisation, a cloud's managed-service tag,
/// a router's default alias.
const HOST_SUFFIXES: &[&str] = &[
    "-maas", "-nvfp4", "-fp8", "-fp4", "-int4", "-int8", "-awq", "-default",
];

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
        let Some(suffix) = CONFIG_SUFFIXES
            .iter()
            .chain(HOST_SUFFIXES)
            .find(|s| base.ends_with(*s) && base.len() > s.len() + 1)
        else {
            break;
        };
        let shorter = &base[..base.len() - suffix.len()];
        if suffix.contains("thinking")
            && !names::creator_for(None, shorter).is_some_and(|c| THINKING_IS_A_MODE.contains(&c))
        {
            break;
        }
        base = shorter;
        stripped = true;
    }
    (stripped && exists(base)).then(|| (key, base.to_string()))
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

/// Path segments of model ids that are not an organisation (`accounts/fireworks/models/…`).
const NOT_VENDORS: &[&str] = &[
    "models",
    "model",
    "accounts",
    "library",
    "hf",
    "huggingface",
    "latest",
];

/// The organisation a record's id names as its vendor (`aion-labs/aion-1.0` at a router),
/// when the creators table does not know it: the source names the creator, so it is used,
/// unless it is the provider itself or a path word.
pub fn named_vendor(r: &super::ModelRecord) -> Option<String> {
    let v = r.parsed.as_ref()?.vendor.as_deref()?;
    let slug = names::slugify(v);
    let is_host = r.provider.as_deref() == Some(slug.as_str());
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

/// A display name without a router's `Vendor: ` prefix (`Anthropic: Claude Opus 4.6` →
/// `Claude Opus 4.6`).
pub fn display_name(name: &str) -> &str {
    match name.split_once(": ") {
        Some((vendor, rest))
            if !rest.trim().is_empty()
                && vendor.len() <= 40
                && !vendor.contains(['(', '/', ':'])
                && vendor.split_whitespace().count() <= 4 =>
        {
            rest.trim()
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(configured("qwen3-max", |k| k == "qwen3"), None);
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
        assert_eq!(
            display_name("Anthropic: Claude Opus 4.6"),
            "Claude Opus 4.6"
        );
        assert_eq!(display_name("AionLabs: Aion-1.0"), "Aion-1.0");
        assert_eq!(display_name("GPT-4o"), "GPT-4o");
        assert_eq!(display_name("Claude 2.0 / 2.1"), "Claude 2.0 / 2.1");
        assert_eq!(display_name("Trailing: "), "Trailing: ");
    }
}
