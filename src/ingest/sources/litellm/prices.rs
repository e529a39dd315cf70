//! LiteLLM's price fields, read into the project's units: a per-token price is USD per 1M
//! tokens (at most 6 significant digits); `…_above_200k_tokens` is a long-context tier;
//! `…_batches`, `…_flex`, `…_priority` are the offering bought in that mode; a price per
//! image, pixel, second, character, query or page is a unit price, copied as the source
//! states it.

use std::collections::BTreeMap;

use entity::offering::{Tier, UnitPrice, Variant};
use serde_json::{Map, Value};

use crate::ingest::Prices;
use crate::ingest::prices::six_digits;

/// The four text-token prices, by LiteLLM field.
const BASE: [&str; 4] = [
    "input_cost_per_token",
    "output_cost_per_token",
    "cache_read_input_token_cost",
    "cache_creation_input_token_cost",
];

/// LiteLLM's field suffix for a mode an entry prices ([`Variant::ENTRY_MODES`]): the mode's
/// name, but `batches` for batch.
fn mode_suffix(mode: &str) -> &str {
    if mode == Variant::BATCH {
        "batches"
    } else {
        mode
    }
}

/// Prices in other units: field, item, unit, factor to the unit.
const UNITS: [(&str, &str, &str, f64); 20] = [
    (
        "input_cost_per_audio_token",
        "input_audio",
        "1M tokens",
        1e6,
    ),
    (
        "output_cost_per_audio_token",
        "output_audio",
        "1M tokens",
        1e6,
    ),
    (
        "input_cost_per_image_token",
        "input_image",
        "1M tokens",
        1e6,
    ),
    (
        "output_cost_per_image_token",
        "output_image",
        "1M tokens",
        1e6,
    ),
    (
        "cache_read_input_audio_token_cost",
        "cache_read_audio",
        "1M tokens",
        1e6,
    ),
    (
        "cache_read_input_image_token_cost",
        "cache_read_image",
        "1M tokens",
        1e6,
    ),
    (
        "cache_creation_input_token_cost_above_1hr",
        "cache_write_1h",
        "1M tokens",
        1e6,
    ),
    (
        "output_cost_per_reasoning_token",
        "output_reasoning",
        "1M tokens",
        1e6,
    ),
    ("input_cost_per_image", "input_image", "image", 1.0),
    ("output_cost_per_image", "output_image", "image", 1.0),
    ("input_cost_per_pixel", "input", "pixel", 1.0),
    ("output_cost_per_pixel", "output_image", "pixel", 1.0),
    ("input_cost_per_second", "input", "second", 1.0),
    ("output_cost_per_second", "output", "second", 1.0),
    (
        "input_cost_per_audio_per_second",
        "input_audio",
        "second",
        1.0,
    ),
    (
        "input_cost_per_video_per_second",
        "input_video",
        "second",
        1.0,
    ),
    (
        "output_cost_per_video_per_second",
        "output_video",
        "second",
        1.0,
    ),
    ("input_cost_per_character", "input", "character", 1.0),
    ("output_cost_per_character", "output", "character", 1.0),
    ("ocr_cost_per_page", "ocr", "page", 1.0),
];

/// Per-request prices: field, item.
const PER_REQUEST: [(&str, &str); 2] = [
    ("input_cost_per_query", "query"),
    ("input_cost_per_request", "request"),
];

fn per_mtok(e: &Map<String, Value>, field: &str) -> Option<f64> {
    e.get(field)
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite() && *v >= 0.0)
        .map(|v| six_digits(v * 1e6))
}

fn number(e: &Map<String, Value>, field: &str) -> Option<f64> {
    e.get(field)
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite() && *v >= 0.0)
}

/// The long-context tiers of the four prices with `suffix` (`""` for the standard mode,
/// `"_batches"` …): every `…_above_<N>k_tokens<suffix>` threshold, each field at its own
/// price from there on (else its base).
fn tiers(e: &Map<String, Value>, suffix: &str) -> Vec<Tier> {
    let mut starts: Vec<i64> = e
        .keys()
        .filter_map(|k| {
            let rest = k.strip_suffix(suffix)?;
            let (field, above) = rest.split_once("_above_")?;
            let n: i64 = above.strip_suffix("k_tokens")?.parse().ok()?;
            BASE.contains(&field).then_some(n * 1000)
        })
        .collect();
    starts.sort_unstable();
    starts.dedup();
    starts
        .into_iter()
        .map(|start| {
            let at = |field: &str| {
                // The tier in force at `start`: the highest threshold up to it.
                let mut best: Option<(i64, f64)> = None;
                for (k, _) in e.iter() {
                    let Some(above) = k
                        .strip_suffix(suffix)
                        .and_then(|r| r.strip_prefix(field))
                        .and_then(|r| r.strip_prefix("_above_"))
                        .and_then(|r| r.strip_suffix("k_tokens"))
                        .and_then(|n| n.parse::<i64>().ok())
                    else {
                        continue;
                    };
                    if above * 1000 <= start
                        && best.is_none_or(|(b, _)| b < above * 1000)
                        && let Some(p) = per_mtok(e, k)
                    {
                        best = Some((above * 1000, p));
                    }
                }
                best.map(|(_, p)| p)
                    .or_else(|| per_mtok(e, &format!("{field}{suffix}")))
            };
            Tier {
                from_tokens: start,
                input_price: at(BASE[0]),
                output_price: at(BASE[1]),
                cache_read_price: at(BASE[2]),
                cache_write_price: at(BASE[3]),
            }
        })
        .collect()
}

/// Prices in other units than text tokens.
fn unit_prices(e: &Map<String, Value>) -> Vec<UnitPrice> {
    let mut out: Vec<UnitPrice> = UNITS
        .iter()
        .filter_map(|(field, item, unit, factor)| {
            Some(UnitPrice {
                item: (*item).into(),
                unit: (*unit).into(),
                price: six_digits(number(e, field)? * factor),
            })
        })
        .collect();
    out.extend(PER_REQUEST.iter().filter_map(|(field, item)| {
        Some(UnitPrice {
            item: (*item).into(),
            unit: "request".into(),
            price: number(e, field)?,
        })
    }));
    // Video and image prices by resolution: `output_cost_per_second_720p`,
    // `output_cost_per_image_4K`.
    for (k, _) in e.iter() {
        let by_resolution = k
            .strip_prefix("output_cost_per_second_")
            .map(|r| ("second", format!("output_{r}")))
            .or_else(|| {
                k.strip_prefix("output_cost_per_image_")
                    .filter(|r| !r.contains("token"))
                    .map(|r| ("image", format!("output_image_{r}")))
            });
        if let (Some((unit, item)), Some(price)) = (by_resolution, number(e, k)) {
            out.push(UnitPrice {
                item,
                unit: unit.into(),
                price,
            });
        }
    }
    // Web search by context size (`{"search_context_size_low": 0.01, …}`).
    if let Some(sizes) = e
        .get("search_context_cost_per_query")
        .and_then(Value::as_object)
    {
        for (size, price) in sizes {
            if let Some(price) = price.as_f64() {
                let size = size.strip_prefix("search_context_size_").unwrap_or(size);
                out.push(UnitPrice {
                    item: format!("web_search_{size}"),
                    unit: "query".into(),
                    price,
                });
            }
        }
    }
    out
}

/// The prices of the mode with `suffix` (`_batches`, …), as a variant.
fn variant(e: &Map<String, Value>, suffix: &str, mode: &str) -> Option<Variant> {
    let at = |field: &str| per_mtok(e, &format!("{field}{suffix}"));
    let v = Variant {
        mode: mode.into(),
        input_price: at(BASE[0]),
        output_price: at(BASE[1]),
        cache_read_price: at(BASE[2]),
        cache_write_price: at(BASE[3]),
        tiers: tiers(e, suffix),
    };
    (v.input_price.is_some() || v.output_price.is_some()).then_some(v)
}

/// Modes whose product is media, billed per image, second or character rather than per
/// text token.
const MEDIA_MODES: [&str; 5] = [
    "image_generation",
    "image_edit",
    "video_generation",
    "audio_speech",
    "audio_transcription",
];

/// Whether an entry's per-token fields hold some other unit's price: a media model's entry
/// that states its price only "per token", with no image, audio, video, second, pixel or
/// character price beside it (Fireworks' `flux-kontext-pro`: 4e-08 per "token" in and out,
/// which is $0.04 per image). A per-token price there is unknown, never a token price
/// (docs/data.md, "Units"); OpenAI's `gpt-image-2` prices image tokens beside its text
/// tokens and keeps both.
pub fn tokens_unstated(e: &Map<String, Value>) -> bool {
    let media = e
        .get("mode")
        .and_then(Value::as_str)
        .is_some_and(|m| MEDIA_MODES.contains(&m));
    let media_unit = e.keys().any(|k| {
        k.contains("cost")
            && ["image", "audio", "video", "second", "pixel", "character"]
                .iter()
                .any(|u| k.contains(u))
    });
    media && !media_unit
}

/// An entry's prices and variants; `None` when it prices nothing.
pub fn of(e: &Map<String, Value>) -> Option<(Prices, Vec<Variant>)> {
    // An entry priced only by prompt-length ranges (`tiered_pricing`: Volcengine's Doubao,
    // DashScope's Qwen) is its first range's price, the later ranges its tiers
    // (docs/methodology.md, "Prices").
    let ranged = ranges(e);
    let by_range = matches!(ranged.first(), Some((0, _))) && !e.contains_key(BASE[0]);
    let flat;
    let e = match ranged.first() {
        Some((_, base)) if by_range => {
            flat = e
                .clone()
                .into_iter()
                .chain((*base).clone())
                .collect::<Map<_, _>>();
            &flat
        }
        _ => e,
    };
    // The map writes 0 for a price it does not know: 0 in and 0 out is no price (a free
    // model is never listed this way by its maker).
    let (input, output) = match (per_mtok(e, BASE[0]), per_mtok(e, BASE[1])) {
        (Some(i), Some(o)) if i == 0.0 && o == 0.0 => (None, None),
        _ if tokens_unstated(e) => (None, None),
        other => other,
    };
    let tokens = !tokens_unstated(e);
    let p = Prices {
        input,
        output,
        cache_read: per_mtok(e, BASE[2]).filter(|_| tokens),
        cache_write: per_mtok(e, BASE[3]).filter(|_| tokens),
        tiers: if by_range {
            ranged[1..]
                .iter()
                .map(|(start, t)| Tier {
                    from_tokens: *start,
                    input_price: per_mtok(t, BASE[0]),
                    output_price: per_mtok(t, BASE[1]),
                    cache_read_price: per_mtok(t, BASE[2]),
                    cache_write_price: per_mtok(t, BASE[3]),
                })
                .collect()
        } else {
            tiers(e, "")
        },
        unit_prices: unit_prices(e),
        variants: Vec::new(),
    };
    let variants = Variant::ENTRY_MODES
        .iter()
        .filter_map(|mode| variant(e, &format!("_{}", mode_suffix(mode)), mode))
        .collect();
    let priced = p.input.is_some() || p.output.is_some() || !p.unit_prices.is_empty();
    priced.then_some((p, variants))
}

/// The prompt-length ranges of a `tiered_pricing` list, by the token count each starts at,
/// in order; empty unless every range is one (a search API's `max_results_range` is not).
fn ranges(e: &Map<String, Value>) -> Vec<(i64, &Map<String, Value>)> {
    let Some(list) = e.get("tiered_pricing").and_then(Value::as_array) else {
        return Vec::new();
    };
    let read: Option<Vec<(i64, &Map<String, Value>)>> = list
        .iter()
        .map(|t| {
            let t = t.as_object()?;
            let start = t.get("range")?.as_array()?.first()?.as_f64()?;
            (start.is_finite() && start >= 0.0).then_some((start as i64, t))
        })
        .collect();
    let mut read = read.unwrap_or_default();
    read.sort_by_key(|(start, _)| *start);
    read
}

/// The prices of an image model gathered from its per-size entries: one unit price per
/// quality and size (`image_hd_1024x1792`), per image or per pixel as each entry states it.
pub fn per_image(entries: &BTreeMap<String, &Map<String, Value>>) -> Vec<UnitPrice> {
    entries
        .iter()
        .flat_map(|(option, e)| {
            [
                ("output_cost_per_image", "image"),
                ("input_cost_per_pixel", "pixel"),
                ("output_cost_per_pixel", "pixel"),
            ]
            .into_iter()
            .filter_map(move |(field, unit)| {
                Some(UnitPrice {
                    item: format!("image_{option}"),
                    unit: unit.into(),
                    price: number(e, field)?,
                })
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn prompt_length_ranges_are_a_price_and_its_tiers() {
        let e = serde_json::json!({"litellm_provider": "volcengine", "mode": "chat",
            "tiered_pricing": [
                {"input_cost_per_token": 7e-07, "output_cost_per_token": 3.5e-06, "range": [32000.0, 128000.0]},
                {"input_cost_per_token": 4.6e-07, "output_cost_per_token": 2.3e-06, "range": [0, 32000.0]}]});
        let e = e.as_object().cloned().unwrap_or_default();
        let (p, _) = super::of(&e).unwrap();
        assert_eq!((p.input, p.output), (Some(0.46), Some(2.3)));
        assert_eq!(p.tiers.len(), 1);
        assert_eq!(
            (
                p.tiers[0].from_tokens,
                p.tiers[0].input_price,
                p.tiers[0].output_price
            ),
            (32000, Some(0.7), Some(3.5))
        );
        // A search API's result-count ranges price no tokens.
        let search = serde_json::json!({"mode": "search", "tiered_pricing": [
            {"input_cost_per_query": 0.005, "max_results_range": [0, 25]}]});
        let search = search.as_object().cloned().unwrap_or_default();
        assert!(super::of(&search).is_none());
    }

    #[test]
    fn a_media_entry_priced_only_per_token_states_no_token_price() {
        let e = serde_json::json!({"mode": "image_generation", "litellm_provider": "fireworks_ai",
            "input_cost_per_token": 4e-08, "output_cost_per_token": 4e-08});
        let e = e.as_object().cloned().unwrap_or_default();
        assert!(super::tokens_unstated(&e));
        assert!(super::of(&e).is_none(), "nothing priced in a known unit");
        let img = serde_json::json!({"mode": "image_generation", "input_cost_per_token": 5e-06,
            "output_cost_per_image_token": 3e-05});
        let img = img.as_object().cloned().unwrap_or_default();
        let (p, _) = super::of(&img).unwrap();
        assert_eq!(p.input, Some(5.0), "gpt-image-2's text tokens are tokens");
    }

    use super::*;

    fn entry(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn token_prices_are_per_million_with_tiers_and_modes() {
        let e = entry(serde_json::json!({
            "input_cost_per_token": 3e-06, "output_cost_per_token": 1.5e-05,
            "cache_read_input_token_cost": 3e-07,
            "input_cost_per_token_above_200k_tokens": 6e-06,
            "output_cost_per_token_above_200k_tokens": 2.25e-05,
            "input_cost_per_token_batches": 1.5e-06, "output_cost_per_token_batches": 7.5e-06,
            "input_cost_per_token_above_200k_tokens_batches": 3e-06,
            "cache_creation_input_token_cost_above_1hr": 6e-06,
            "search_context_cost_per_query": {"search_context_size_low": 0.01}
        }));
        let (p, v) = of(&e).expect("priced");
        assert_eq!(
            (p.input, p.output, p.cache_read),
            (Some(3.0), Some(15.0), Some(0.3))
        );
        assert_eq!(p.tiers.len(), 1);
        assert_eq!(p.tiers[0].from_tokens, 200_000);
        assert_eq!(
            (p.tiers[0].input_price, p.tiers[0].output_price),
            (Some(6.0), Some(22.5))
        );
        // The cache price has no tier of its own: its base holds.
        assert_eq!(p.tiers[0].cache_read_price, Some(0.3));
        assert_eq!(v.len(), 1);
        assert_eq!(
            (v[0].mode.as_str(), v[0].input_price, v[0].output_price),
            ("batch", Some(1.5), Some(7.5))
        );
        assert_eq!(v[0].tiers[0].input_price, Some(3.0));
        let items: Vec<(&str, &str)> = p
            .unit_prices
            .iter()
            .map(|u| (u.item.as_str(), u.unit.as_str()))
            .collect();
        assert_eq!(
            items,
            [("cache_write_1h", "1M tokens"), ("web_search_low", "query")]
        );
    }

    #[test]
    fn per_second_and_per_character_prices_are_kept_as_stated() {
        let (p, _) =
            of(&entry(serde_json::json!({"input_cost_per_second": 0.0001}))).expect("priced");
        assert_eq!(p.input, None);
        assert_eq!(p.unit_prices[0].unit, "second");
        assert_eq!(p.unit_prices[0].price, 0.0001);
        let (p, _) = of(&entry(
            serde_json::json!({"input_cost_per_character": 1.5e-05}),
        ))
        .expect("priced");
        assert_eq!(
            (p.unit_prices[0].unit.as_str(), p.unit_prices[0].price),
            ("character", 1.5e-05)
        );
        assert!(of(&entry(serde_json::json!({"mode": "chat"}))).is_none());
    }
}
