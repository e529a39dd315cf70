//! What a LiteLLM key says besides the model: the route it is reached by (`vertex_ai/`,
//! `bedrock/`), the region it is priced in (`bedrock/eu-central-1/…`, `azure/eu/…`, Bedrock's
//! cross-region profiles `us.anthropic.…`), a capacity commitment
//! (`bedrock/us-east-1/1-month-commitment/…`, not an on-demand price) and, for image models,
//! the quality and size a price is per (`azure/hd/1024-x-1792/dall-e-3`).

/// A key taken apart.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Key {
    /// The id the provider's API takes (`anthropic.claude-sonnet-4-5-20250929-v1:0`,
    /// `accounts/fireworks/models/deepseek-v3`).
    pub id: String,
    /// The region the price is for, when the key names one.
    pub region: Option<String>,
    /// Quality, size and steps of an image a price is per (`hd_1024x1792`), when it names them.
    pub image: Option<String>,
    /// A provisioned-throughput commitment: not a price anyone pays per token.
    pub commitment: bool,
}

/// Image qualities LiteLLM keys name before a size.
const QUALITIES: [&str; 7] = ["standard", "hd", "low", "medium", "high", "xhigh", "max"];

/// Azure's data-zone prefixes.
const AZURE_ZONES: [&str; 3] = ["eu", "us", "global"];

/// Bedrock's geographic cross-region inference profiles (`global.` spans every region and is
/// the model's general price, no region).
const BEDROCK_PROFILES: [&str; 7] = ["us", "eu", "apac", "jp", "au", "ca", "us-gov"];

fn is_size(s: &str) -> bool {
    s.split_once("-x-").is_some_and(|(w, h)| {
        !w.is_empty()
            && !h.is_empty()
            && w.bytes().all(|b| b.is_ascii_digit())
            && h.bytes().all(|b| b.is_ascii_digit())
    })
}

fn is_steps(s: &str) -> bool {
    s.strip_suffix("-steps")
        .is_some_and(|n| n == "max" || (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())))
}

/// An AWS region (`us-east-1`, `us-gov-west-1`, `ap-northeast-1`).
fn is_aws_region(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() >= 3
        && parts[0].len() == 2
        && parts[0].bytes().all(|b| b.is_ascii_lowercase())
        && parts
            .last()
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

fn is_commitment(s: &str) -> bool {
    s.ends_with("-month-commitment") || s.ends_with("-months-commitment")
}

/// Takes `key` apart; `routes` are the route prefixes LiteLLM uses (its provider names and
/// their first word, `vertex_ai` for `vertex_ai-anthropic_models`), `provider` the entry's
/// `litellm_provider`.
pub fn parse(key: &str, provider: &str, routes: &dyn Fn(&str) -> bool) -> Key {
    let mut segments: Vec<&str> = key.split('/').collect();
    let mut out = Key::default();
    // An image price names its size somewhere before the model; its quality and steps with it.
    if segments.iter().any(|s| is_size(s)) {
        let last = segments.len().saturating_sub(1);
        let mut options = Vec::new();
        let mut i = 0;
        segments.retain(|s| {
            let option = i < last && (is_size(s) || is_steps(s) || QUALITIES.contains(s));
            i += 1;
            if option {
                options.push(s.replace("-x-", "x"));
            }
            !option
        });
        out.image = Some(options.join("_"));
    }
    if segments.len() > 1 && routes(segments[0]) {
        segments.remove(0);
    }
    let bedrock = provider.starts_with("bedrock");
    if segments.len() > 1 {
        let first = segments[0];
        if (bedrock && is_aws_region(first))
            || (provider == "azure" && AZURE_ZONES.contains(&first))
        {
            out.region = Some(first.to_string());
            segments.remove(0);
        }
    }
    if segments.len() > 1 && is_commitment(segments[0]) {
        out.commitment = true;
        segments.remove(0);
    }
    out.id = segments.join("/");
    if bedrock && out.region.is_none() {
        // Longest profile first: `us-gov.` before `us.`.
        let mut profiles = BEDROCK_PROFILES;
        profiles.sort_by_key(|p| std::cmp::Reverse(p.len()));
        if let Some(p) = profiles.iter().find(|p| {
            out.id
                .strip_prefix(**p)
                .is_some_and(|rest| rest.starts_with('.'))
        }) {
            out.region = Some((*p).to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routes(s: &str) -> bool {
        matches!(
            s,
            "bedrock" | "azure" | "vertex_ai" | "fal_ai" | "fireworks_ai"
        )
    }

    #[test]
    fn routes_regions_and_commitments_come_off_the_id() {
        let k = parse(
            "bedrock/eu-central-1/anthropic.claude-v2:1",
            "bedrock",
            &routes,
        );
        assert_eq!(k.id, "anthropic.claude-v2:1");
        assert_eq!(k.region.as_deref(), Some("eu-central-1"));
        let k = parse(
            "bedrock/us-east-1/1-month-commitment/anthropic.claude-v1",
            "bedrock",
            &routes,
        );
        assert!(k.commitment);
        assert_eq!(k.id, "anthropic.claude-v1");
        let k = parse("azure/eu/gpt-4o", "azure", &routes);
        assert_eq!((k.id.as_str(), k.region.as_deref()), ("gpt-4o", Some("eu")));
        let k = parse(
            "vertex_ai/claude-sonnet-4-5",
            "vertex_ai-anthropic_models",
            &routes,
        );
        assert_eq!((k.id.as_str(), k.region), ("claude-sonnet-4-5", None));
        let k = parse(
            "fireworks_ai/accounts/fireworks/models/deepseek-v3",
            "fireworks_ai",
            &routes,
        );
        assert_eq!(k.id, "accounts/fireworks/models/deepseek-v3");
    }

    #[test]
    fn bedrock_profiles_are_regions_but_global_is_not() {
        let k = parse(
            "eu.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "bedrock_converse",
            &routes,
        );
        assert_eq!(k.region.as_deref(), Some("eu"));
        assert_eq!(k.id, "eu.anthropic.claude-sonnet-4-5-20250929-v1:0");
        let k = parse(
            "us-gov.anthropic.claude-3-haiku",
            "bedrock_converse",
            &routes,
        );
        assert_eq!(k.region.as_deref(), Some("us-gov"));
        let k = parse(
            "global.anthropic.claude-opus-4-5",
            "bedrock_converse",
            &routes,
        );
        assert_eq!(k.region, None);
    }

    #[test]
    fn image_keys_name_quality_and_size() {
        let k = parse("azure/hd/1024-x-1792/dall-e-3", "azure", &routes);
        assert_eq!(k.id, "dall-e-3");
        assert_eq!(k.image.as_deref(), Some("hd_1024x1792"));
        assert_eq!(k.region, None);
        let k = parse(
            "1024-x-1024/50-steps/bedrock/amazon.nova-canvas-v1:0",
            "bedrock",
            &routes,
        );
        assert_eq!(k.id, "amazon.nova-canvas-v1:0");
        assert_eq!(k.image.as_deref(), Some("1024x1024_50-steps"));
        // A model whose name is a quality word is still a model.
        assert_eq!(parse("azure/high", "azure", &routes).id, "high");
    }
}
