//! Model-name normalization: turns the many spellings of one model used across sources
//! (`claude-3-5-sonnet-20241022`, `anthropic/claude-3.5-sonnet`,
//! `us.anthropic.claude-3-5-sonnet-20241022-v2:0`, `Claude 3.5 Sonnet`) into one join key.

/// Bedrock-style region prefixes (`us.anthropic.claude-…`).
const REGION_PREFIXES: &[&str] = &[
    "us-gov.",
    "us.",
    "eu.",
    "apac.",
    "global.",
    "regional.",
    "jp.",
    "au.",
    "ca.",
];

/// Vendor prefixes written with a dot (`anthropic.claude-…`, `meta.llama3-…`).
const DOT_VENDORS: &[&str] = &[
    "anthropic",
    "meta",
    "amazon",
    "mistral",
    "cohere",
    "ai21",
    "openai",
    "deepseek",
    "qwen",
    "google",
    "writer",
    "moonshot",
    "moonshotai",
    "minimax",
    "zai",
    "nvidia",
    "twelvelabs",
    "stability",
    "xai",
];

/// A raw identifier split into the parts that matter for joining.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The identifier as a slug, dots kept (`gpt-4.1`, `claude-3-5-sonnet-20241022`).
    pub slug: String,
    /// The join key: like `slug` with dots turned into dashes (`gpt-4-1`).
    pub key: String,
    /// The vendor named by a prefix (`anthropic/`, `meta-llama/`, `anthropic.`), if any.
    pub vendor: Option<String>,
}

/// A price list's entry for running one's own fine-tune of a model (`ft:gpt-4o`,
/// `ft:gpt-4-0613`): a price of the fine-tuning service, not a model to list.
pub fn is_fine_tune_price(id: &str) -> bool {
    id.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("ft:"))
}

/// The processing mode a price-list entry sells instead of the standard one, where its id or
/// name says so: a router's `:batch`, `:flex` or `:priority` variant
/// (`openai/gpt-6.1-terra-pro:batch`), an id ending in `-batch`, or a name that ends in the
/// mode (`GPT-6.1 Terra Pro (batch)`, `Claude Haiku 5.5 Batch`). Such an entry is a variant of
/// the model's offering, never its standard price, a model or a name (docs/data.md, "Price
/// modes").
pub fn price_mode(raw_id: &str, name: Option<&str>) -> Option<&'static str> {
    use entity::offering::Variant;
    let id = raw_id.trim().to_ascii_lowercase();
    let by_id = Variant::ENTRY_MODES.into_iter().find(|m| {
        id.rsplit_once(':').is_some_and(|(_, tag)| tag == *m)
            || (*m == Variant::BATCH && id.ends_with("-batch"))
    });
    let by_name = name.and_then(|n| {
        let n = n.trim().to_ascii_lowercase();
        Variant::ENTRY_MODES.into_iter().find(|m| {
            n.ends_with(&format!("({m})")) || (*m == Variant::BATCH && n.ends_with(" batch"))
        })
    });
    by_id.or(by_name)
}

/// Lowercases and maps every character outside `[a-z0-9.-]` to `-`, collapsing runs and
/// trimming dashes and dots at the ends: the result is a valid slug (or empty).
pub fn slugify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.trim().chars().flat_map(char::to_lowercase).collect();
    for (i, &ch) in chars.iter().enumerate() {
        // A `+` ending a word is the word "plus" (`Command R+` is `command-r-plus`, never
        // Command R); between two words (`SL+RL`) it is a separator.
        if ch == '+'
            && i > 0
            && chars[i - 1].is_ascii_alphanumeric()
            && chars.get(i + 1).is_none_or(|c| !c.is_ascii_alphanumeric())
        {
            if !out.ends_with('-') {
                out.push('-');
            }
            out.push_str("plus");
            continue;
        }
        let ch = if ch.is_ascii_alphanumeric() || ch == '.' {
            ch
        } else {
            '-'
        };
        if ch == '-' && (out.is_empty() || out.ends_with('-')) {
            continue;
        }
        if ch == '.' && (out.is_empty() || out.ends_with('.') || out.ends_with('-')) {
            continue;
        }
        out.push(ch);
    }
    while out.ends_with('-') || out.ends_with('.') {
        out.pop();
    }
    out
}

/// Parses a model identifier from any source (API id, router id, Bedrock id, display name).
pub fn parse(raw: &str) -> Parsed {
    let mut id = raw.trim().to_lowercase().replace('@', "-");
    let mut vendor = None;
    if let Some(pos) = id.rfind('/') {
        let head = id[..pos].rsplit('/').next().unwrap_or_default().to_string();
        if !head.is_empty() {
            vendor = Some(head);
        }
        id = id[pos + 1..].to_string();
        // A bare version under a model's path (`fal-ai/ideogram/v3`) is that model's version:
        // `ideogram-v3`, never a `v3` of any maker.
        let bare_version = id
            .strip_prefix('v')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'.'));
        if bare_version && let Some(v) = &vendor {
            id = format!("{v}-{id}");
        }
    }
    let mut dotted_vendor = false;
    for prefix in REGION_PREFIXES {
        if let Some(rest) = id.strip_prefix(prefix) {
            id = rest.to_string();
            break;
        }
    }
    for v in DOT_VENDORS {
        if let Some(rest) = id.strip_prefix(v).and_then(|r| r.strip_prefix('.')) {
            vendor.get_or_insert_with(|| (*v).to_string());
            id = rest.to_string();
            dotted_vendor = true;
            break;
        }
    }
    // Router variants (`:free`, `:beta`) and Bedrock revisions (`:0`) are not other models;
    // an Ollama size tag (`ministral-3:14b`, `qwen3:0.6b`) is part of the name: each size
    // is a model of its own, and so are the words after a size (`qwen3-vl:235b-instruct`),
    // Ollama's cloud deployment (`gpt-oss:120b-cloud`) aside.
    if let Some(pos) = id.find(':') {
        let tag = id[pos + 1..].to_string();
        let mut words = tag.split('-');
        let size = words.next().is_some_and(|w| {
            w.strip_suffix('b')
                .or_else(|| w.strip_suffix('m'))
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit() || c == '.'))
        });
        id.truncate(pos);
        if size {
            for w in tag.split('-').filter(|w| *w != "cloud") {
                id.push('-');
                id.push_str(w);
            }
        }
    }
    let mut slug = slugify(&id);
    // Bedrock versions its ids (`anthropic.claude-3-5-sonnet-20241022-v2:0`); the model is
    // the same. Amazon's own `-v1` is that API version wherever it is written (a host's
    // `amazon/nova-pro-v1` is Nova Pro), but its `-v2` names a generation (Titan Text
    // Embeddings V2 is not Titan Embeddings G1) (docs/methodology.md, "Identity").
    if let Some(pos) = slug.rfind("-v")
        && pos + 2 < slug.len()
        && slug[pos + 2..].chars().all(|c| c.is_ascii_digit())
    {
        let amazon = matches!(vendor.as_deref(), Some("amazon" | "amazon-nova"))
            || creator_for(vendor.as_deref(), &slug) == Some("amazon");
        // Anthropic's models before Claude 3 are versioned by that `-v` alone
        // (`anthropic.claude-v1`, `anthropic.claude-instant-v1`): it is their name.
        let own_version = vendor.as_deref() == Some("anthropic")
            && !slug[..pos].bytes().any(|b| b.is_ascii_digit());
        if (dotted_vendor && !amazon && !own_version) || (amazon && &slug[pos + 2..] == "1") {
            slug.truncate(pos);
        }
    }
    // `latest` names no version wherever it stands (xAI's `grok-4.20-beta-latest-reasoning`
    // is `grok-4.20-beta-reasoning`).
    if let Some(rest) = slug.strip_suffix("-latest") {
        slug = rest.to_string();
    }
    // A date after it dates a build of the floating alias (LMArena's
    // `chatgpt-4o-latest-2024-11-20`): kept.
    if let Some((head, tail)) = slug.split_once("-latest-")
        && tail.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        slug = format!("{head}-{tail}");
    }
    slug = p_for_point(&slug);
    slug = family_spelling(&slug);
    slug = reorder_claude(&slug);
    let key = slug.replace('.', "-");
    Parsed { slug, key, vendor }
}

/// Some hosts write a version's point as `p` (`glm-4p7`, `kimi-k2p5`, `deepseek-v3p2`,
/// `llama-v3p1-8b`): a `p` between two digits is a point.
fn p_for_point(slug: &str) -> String {
    let b = slug.as_bytes();
    slug.char_indices()
        .map(|(i, c)| {
            let between_digits = i > 0
                && b.get(i - 1).is_some_and(u8::is_ascii_digit)
                && b.get(i + 1).is_some_and(u8::is_ascii_digit);
            if c == 'p' && between_digits { '.' } else { c }
        })
        .collect()
}

/// Families whose version some hosts write joined to the name (`llama3-1-70b`,
/// `claude-opus4-6`): the creators write it apart.
const SPACED_FAMILIES: &[&str] = &["llama", "gemma", "opus", "sonnet", "haiku"];

/// Families whose creators write the version joined to the name (Qwen's `qwen2.5`, Liquid's
/// `LFM2-24B-A2B`) where some hosts write it apart (`lfm-2-24b-a2b`).
const JOINED_FAMILIES: &[&str] = &["qwen", "lfm"];

/// A family's own spelling of its version: `llama3.1` → `llama-3.1`, `claude-opus4-6` →
/// `claude-opus-4-6`, `qwen-2.5` → `qwen2.5` (Qwen joins it, as Liquid does `lfm2`), `gemini-pro-1.5` →
/// `gemini-1.5-pro` (Google puts the version first).
fn family_spelling(slug: &str) -> String {
    let mut out = slug.to_string();
    for fam in SPACED_FAMILIES {
        let mut from = 0;
        while let Some(pos) = out[from..].find(fam).map(|p| p + from) {
            let end = pos + fam.len();
            let starts_word = pos == 0 || out.as_bytes()[pos - 1] == b'-';
            if starts_word && out.as_bytes().get(end).is_some_and(u8::is_ascii_digit) {
                out.insert(end, '-');
            }
            from = end;
        }
    }
    for fam in JOINED_FAMILIES {
        // A version, not a size (`lfm-40b`, "LFM-40B", keeps its dash).
        let version = |rest: &str| {
            let word = rest.split('-').next().unwrap_or(rest);
            word.as_bytes().first().is_some_and(u8::is_ascii_digit) && !word.ends_with('b')
        };
        if let Some(rest) = out.strip_prefix(&format!("{fam}-"))
            && version(rest)
        {
            out = format!("{fam}{rest}");
        }
    }
    // Stability writes Stable Diffusion's version after `sd` (`sd3.5-large`, its API's id
    // for Stable Diffusion 3.5 Large).
    if let Some(rest) = out.strip_prefix("sd")
        && rest.starts_with(|c: char| c.is_ascii_digit())
    {
        out = format!("stable-diffusion-{rest}");
    }
    for tier in ["pro", "flash", "ultra"] {
        if let Some(rest) = out.strip_prefix(&format!("gemini-{tier}-")) {
            let version: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            if !version.is_empty() && version.as_bytes()[0].is_ascii_digit() {
                let tail = &rest[version.len()..];
                out = format!("gemini-{version}-{tier}{tail}");
            }
            break;
        }
    }
    out
}

/// Anthropic names Claude 3.x `claude-3-5-sonnet` but Claude 4+ `claude-sonnet-4-5`; other
/// sources mix both orders (`claude-4-opus`, `claude-sonnet-3.7`). Normalize to Anthropic's.
fn reorder_claude(slug: &str) -> String {
    let Some(rest) = slug.strip_prefix("claude-") else {
        return slug.to_string();
    };
    let parts: Vec<&str> = rest.split(['-', '.']).collect();
    let families = ["opus", "sonnet", "haiku"];
    let is_version =
        |p: &str| !p.is_empty() && p.len() <= 2 && p.chars().all(|c| c.is_ascii_digit());
    let (family, version, tail): (&str, Vec<&str>, &[&str]) = if parts
        .first()
        .is_some_and(|p| families.contains(p))
    {
        let n = parts[1..]
            .iter()
            .take_while(|p| is_version(p))
            .count()
            .min(2);
        (parts[0], parts[1..1 + n].to_vec(), &parts[1 + n..])
    } else {
        let n = parts.iter().take_while(|p| is_version(p)).count().min(2);
        match parts.get(n) {
            Some(f) if families.contains(f) && n > 0 => (*f, parts[..n].to_vec(), &parts[n + 1..]),
            _ => return slug.to_string(),
        }
    };
    if version.is_empty() {
        return slug.to_string();
    }
    let major: u32 = version.first().and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut out = if major >= 4 {
        format!("claude-{family}-{}", version.join("-"))
    } else {
        format!("claude-{}-{family}", version.join("-"))
    };
    for t in tail {
        out.push('-');
        out.push_str(t);
    }
    out
}

/// Splits a trailing snapshot date off a key: `gpt-4o-2024-08-06` → (`gpt-4o`, `2024-08-06`),
/// `claude-3-5-sonnet-20241022`, `gpt-4-0613`, `codestral-2501`, `command-a-plus-05-2026`.
pub fn split_date(key: &str) -> Option<(&str, &str)> {
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    // yyyy-mm-dd written with dashes.
    if key.len() > 11 {
        let (head, tail) = key.split_at(key.len() - 11);
        let t: Vec<&str> = tail[1..].split('-').collect();
        if tail.starts_with('-')
            && t.len() == 3
            && t[0].len() == 4
            && t[0].starts_with("20")
            && t[1].len() == 2
            && t[2].len() == 2
            && t.iter().all(|p| digits(p))
        {
            return Some((head, &tail[1..]));
        }
    }
    // mm-yyyy (Cohere's `command-a-plus-05-2026`): a two-digit month before a four-digit year.
    if key.len() > 8 {
        let (head, tail) = key.split_at(key.len() - 8);
        let t: Vec<&str> = tail[1..].split('-').collect();
        if tail.starts_with('-')
            && !head.is_empty()
            && t.len() == 2
            && t[0].len() == 2
            && t[1].len() == 4
            && t[1].starts_with("20")
            && t.iter().all(|p| digits(p))
            && t[0].parse::<u32>().is_ok_and(|m| (1..=12).contains(&m))
        {
            return Some((head, &tail[1..]));
        }
    }
    let (head, last) = key.rsplit_once('-')?;
    if head.is_empty() || !digits(last) {
        return None;
    }
    match last.len() {
        8 if last.starts_with("20") => Some((head, last)),
        4 => {
            let a: u32 = last[..2].parse().ok()?;
            let b: u32 = last[2..].parse().ok()?;
            let mmdd = (1..=12).contains(&a) && (1..=31).contains(&b);
            let yymm = (23..=27).contains(&a) && (1..=12).contains(&b);
            (mmdd || yymm).then_some((head, last))
        }
        _ => None,
    }
}

/// The organisation that created a model, from a vendor prefix or the model's name, as the
/// reviewed creators table (`data/creators.csv`: `vendor_ids`, `name_prefixes`) says.
pub fn creator_for(vendor: Option<&str>, key: &str) -> Option<&'static str> {
    let tables = super::prices::Tables::shared();
    vendor
        .and_then(|v| tables.creator_of_vendor(v))
        .or_else(|| tables.creator_of_name(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn price_modes_are_read_from_ids_and_names() {
        assert_eq!(
            price_mode("openai/gpt-6.1-terra-pro:batch", None),
            Some("batch")
        );
        assert_eq!(
            price_mode("x", Some("Claude Haiku 5.5 Batch")),
            Some("batch")
        );
        assert_eq!(
            price_mode("x", Some("GPT-6 Astra Pro (batch)")),
            Some("batch")
        );
        assert_eq!(price_mode("gpt-4o-batch", None), Some("batch"));
        assert_eq!(price_mode("m:priority", None), Some("priority"));
        // A model named for a mode is a model: FLUX.2 [flex], Grok 4 Fast, `:free` routes.
        assert_eq!(price_mode("FLUX.2-flex", Some("FLUX.2 [flex]")), None);
        assert_eq!(
            price_mode("openai/gpt-4o:free", Some("GPT-4o (free)")),
            None
        );
        assert_eq!(price_mode("batchnorm-net", None), None);
    }

    #[test]
    fn parses_the_spellings_of_one_model_to_one_key() {
        let ids = [
            "claude-3-5-sonnet-20241022",
            "anthropic/claude-3.5-sonnet-20241022",
            "us.anthropic.claude-3-5-sonnet-20241022-v2:0",
            "claude-3.5-sonnet-20241022",
        ];
        for id in ids {
            assert_eq!(parse(id).key, "claude-3-5-sonnet-20241022", "{id}");
        }
        assert_eq!(
            parse("anthropic/claude-3.5-sonnet").vendor.as_deref(),
            Some("anthropic")
        );
        // Bedrock writes xAI's models with a dot vendor too.
        assert_eq!(parse("global.xai.grok-4.7").key, parse("grok-4.7").key);
    }

    #[test]
    fn an_ollama_size_tag_is_part_of_the_name_and_a_router_variant_is_not() {
        assert_eq!(parse("ministral-3:14b").slug, "ministral-3-14b");
        assert_eq!(parse("qwen3:0.6b").slug, parse("qwen3-0.6b").slug);
        assert_eq!(
            parse("qwen3-vl:235b-instruct").slug,
            "qwen3-vl-235b-instruct"
        );
        assert_eq!(parse("ollama/gpt-oss:120b-cloud").slug, "gpt-oss-120b");
        assert_eq!(parse("openai/gpt-oss-20b:free").slug, "gpt-oss-20b");
        assert_eq!(parse("openai/gpt-4o:free").slug, "gpt-4o");
        assert_eq!(
            parse("anthropic.claude-3-5-sonnet-20241022-v2:0").key,
            "claude-3-5-sonnet-20241022"
        );
    }

    #[test]
    fn a_p_between_digits_is_a_point() {
        assert_eq!(parse("accounts/fireworks/models/glm-4p7").slug, "glm-4.7");
        assert_eq!(parse("kimi-k2p5").key, parse("kimi-k2.5").key);
        assert_eq!(parse("deepseek-v3p2").key, "deepseek-v3-2");
        assert_eq!(parse("gpt-4o").slug, "gpt-4o");
        assert_eq!(parse("sonar-pro").slug, "sonar-pro");
    }

    #[test]
    fn families_keep_their_own_version_spelling() {
        for (a, b) in [
            ("llama3-1-70b-instruct", "llama-3.1-70b-instruct"),
            ("llama3.1-8b", "llama-3.1-8b"),
            (
                "llama4-maverick-17b-instruct",
                "llama-4-maverick-17b-instruct",
            ),
            ("claude-opus4-6", "claude-opus-4-6"),
            ("qwen-2.5-72b-instruct", "qwen2.5-72b-instruct"),
            ("lfm-2-24b-a2b", "lfm2-24b-a2b"),
            ("lfm-2.5-1.2b-instruct", "lfm2.5-1.2b-instruct"),
            ("gemini-pro-1.5", "gemini-1.5-pro"),
            ("gemini-flash-1.5-8b", "gemini-1.5-flash-8b"),
            ("sd3.5-large", "stable-diffusion-3.5-large"),
            ("stability.sd3-5-large-v1:0", "stable-diffusion-3-5-large"),
        ] {
            assert_eq!(parse(a).key, parse(b).key, "{a} / {b}");
        }
        // A word starting `sd` is no Stable Diffusion (`sdxl` is its own name).
        assert_eq!(parse("sdxl-turbo").slug, "sdxl-turbo");
        // Not a family's version.
        assert_eq!(parse("codellama-7b").slug, "codellama-7b");
        assert_eq!(parse("lfm-40b").slug, "lfm-40b");
        assert_eq!(parse("gemini-pro-vision").slug, "gemini-pro-vision");
        assert_eq!(parse("qwen-max").slug, "qwen-max");
    }

    #[test]
    fn keeps_dots_in_the_slug_but_not_in_the_key() {
        let p = parse("openai/gpt-4.1");
        assert_eq!(p.slug, "gpt-4.1");
        assert_eq!(p.key, "gpt-4-1");
    }

    #[test]
    fn normalizes_claude_word_order_by_generation() {
        assert_eq!(
            parse("claude-4-opus-20250514").slug,
            "claude-opus-4-20250514"
        );
        assert_eq!(parse("claude-sonnet-3.7").slug, "claude-3-7-sonnet");
        assert_eq!(parse("Claude 3.5 Sonnet").slug, "claude-3-5-sonnet");
        assert_eq!(
            parse("claude-opus-4-1-20250805").slug,
            "claude-opus-4-1-20250805"
        );
    }

    #[test]
    fn strips_router_variants_and_latest() {
        assert_eq!(
            parse("meta-llama/llama-3.3-70b-instruct:free").slug,
            "llama-3.3-70b-instruct"
        );
        assert_eq!(parse("claude-3-5-haiku-latest").slug, "claude-3-5-haiku");
        assert_eq!(
            parse("grok-4.20-beta-latest-reasoning").slug,
            "grok-4.20-beta-reasoning"
        );
        assert_eq!(
            parse("chatgpt-4o-latest-2024-11-20").slug,
            "chatgpt-4o-latest-2024-11-20"
        );
        assert_eq!(parse("amazon.nova-lite-v1:0").slug, "nova-lite");
        assert_eq!(parse("amazon/nova-pro-v1").slug, "nova-pro");
        assert_eq!(parse("nova-2-lite-v1").slug, "nova-2-lite");
        // Amazon's `-v2` is a generation; another maker's is Bedrock's revision.
        assert_eq!(
            parse("amazon.titan-embed-text-v2:0").slug,
            "titan-embed-text-v2"
        );
        assert_eq!(
            parse("anthropic.claude-3-5-sonnet-20241022-v2:0").slug,
            "claude-3-5-sonnet-20241022"
        );
        // Anthropic's models before Claude 3 are named by their `-v`.
        assert_eq!(parse("anthropic.claude-v1").slug, "claude-v1");
        assert_eq!(
            parse("anthropic.claude-instant-v1").slug,
            "claude-instant-v1"
        );
    }

    #[test]
    fn splits_snapshot_dates() {
        assert_eq!(
            split_date("gpt-4o-2024-08-06"),
            Some(("gpt-4o", "2024-08-06"))
        );
        assert_eq!(
            split_date("claude-3-5-sonnet-20241022"),
            Some(("claude-3-5-sonnet", "20241022"))
        );
        assert_eq!(split_date("gpt-4-0613"), Some(("gpt-4", "0613")));
        assert_eq!(split_date("codestral-2501"), Some(("codestral", "2501")));
        assert_eq!(split_date("llama-3-70b"), None);
        assert_eq!(split_date("gpt-4o"), None);
        assert_eq!(
            split_date("qwen3-235b-a22b-2507"),
            Some(("qwen3-235b-a22b", "2507"))
        );
        assert_eq!(split_date("model-9999"), None);
        assert_eq!(
            split_date("command-a-plus-05-2026"),
            Some(("command-a-plus", "05-2026"))
        );
        // A Gemini preview's month and day, and a month past twelve, are no month and year.
        assert_eq!(split_date("gemini-2-5-flash-preview-05-20"), None);
        assert_eq!(split_date("model-13-2026"), None);
    }

    #[test]
    fn slugify_produces_valid_slugs() {
        assert_eq!(slugify("  Claude 3.5 Sonnet (FC) "), "claude-3.5-sonnet-fc");
        assert_eq!(slugify("a__b..c"), "a-b.c");
        assert_eq!(slugify("-x-"), "x");
        assert_eq!(slugify("Command R+ (04-2024)"), "command-r-plus-04-2024");
        assert_eq!(slugify("Command A+"), "command-a-plus");
        assert_eq!(slugify("IMMO SL+RL"), "immo-sl-rl");
        assert_eq!(slugify("CoT GPT-3 + Doc"), "cot-gpt-3-doc");
    }

    #[test]
    fn finds_creators() {
        assert_eq!(creator_for(Some("meta-llama"), "llama-3-70b"), Some("meta"));
        assert_eq!(creator_for(None, "claude-3-5-sonnet"), Some("anthropic"));
        assert_eq!(creator_for(None, "gpt-4o"), Some("openai"));
        assert_eq!(creator_for(None, "unknown-model"), None);
    }
}
