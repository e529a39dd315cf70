//! What a request of a given size costs at each offering of a model, billed as providers
//! bill: a prompt longer than a tier's threshold is billed wholly at that tier's prices,
//! cached prompt tokens at the cache-read price, and a line that needs a price the
//! offering does not publish makes the offering unpriceable, with the reason, rather than
//! silently cheaper.

use entity::offering::{self, Tier, Variant};
use entity::vocab::OfferingKind;

use super::Row;
use crate::ingest::prices::six_digits;

/// Largest token count of one line (`docs/rest.md`: above it is a 400).
pub const MAX_TOKENS: u64 = 1_000_000_000;

/// The size of one request.
#[derive(Debug, Clone, Copy)]
pub struct Request {
    /// Every prompt token, cached ones included.
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// The part of the prompt read from the provider's cache.
    pub cached_input_tokens: u64,
    /// Bought in this mode (a [`Variant::MODES`] entry) instead of the standard one.
    pub mode: Option<&'static str>,
    /// How many such requests (a workload): each is billed at the tier its own prompt
    /// reaches, and the lines count every request's tokens.
    pub requests: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// `input`, `cached_input` or `output`.
    pub line: &'static str,
    pub tokens: u64,
    /// USD per 1M tokens.
    pub unit_price: f64,
    pub cost: f64,
}

#[derive(Debug, Clone)]
pub struct OfferingCost {
    pub offering: Row<offering::Model>,
    /// The threshold of the tier applied; `None` for the base prices.
    pub tier_from_tokens: Option<i64>,
    pub lines: Vec<Line>,
    /// USD; `None` when the offering cannot price this request (see `reason`).
    pub total: Option<f64>,
    pub reason: Option<String>,
}

/// The tier a prompt of `prompt` tokens is billed at: the one with the highest threshold
/// the prompt exceeds.
fn tier_for(tiers: &[Tier], prompt: u64) -> Option<&Tier> {
    tiers
        .iter()
        .filter(|t| u64::try_from(t.from_tokens).is_ok_and(|from| prompt > from))
        .max_by_key(|t| t.from_tokens)
}

/// The cost of `req` at one offering.
pub fn cost(o: &Row<offering::Model>, req: Request) -> OfferingCost {
    let mut out = OfferingCost {
        offering: o.clone(),
        tier_from_tokens: None,
        lines: Vec::new(),
        total: None,
        reason: None,
    };
    if o.kind == OfferingKind::Plan {
        out.reason = Some("a subscription plan is not billed per token".into());
        return out;
    }
    // The standard prices, or the requested mode's (with its own tiers).
    let prices = match req.mode {
        None => Variant {
            mode: String::new(),
            input_price: o.input_price,
            output_price: o.output_price,
            cache_read_price: o.cache_read_price,
            cache_write_price: o.cache_write_price,
            tiers: Tier::decode(o.tiers.as_deref()),
        },
        Some(mode) => match Variant::decode(o.variants.as_deref())
            .into_iter()
            .find(|v| v.mode == mode)
        {
            Some(v) => v,
            None => {
                out.reason = Some(format!("no published {mode} price"));
                return out;
            }
        },
    };
    let tier = tier_for(&prices.tiers, req.input_tokens);
    out.tier_from_tokens = tier.map(|t| t.from_tokens);
    let (input, cached, output) = match tier {
        Some(t) => (t.input_price, t.cache_read_price, t.output_price),
        None => (
            prices.input_price,
            prices.cache_read_price,
            prices.output_price,
        ),
    };
    let uncached = req.input_tokens.saturating_sub(req.cached_input_tokens);
    let wanted = [
        ("input", uncached, input, "input price"),
        (
            "cached_input",
            req.cached_input_tokens,
            cached,
            "cache-read price",
        ),
        ("output", req.output_tokens, output, "output price"),
    ];
    let mut missing = Vec::new();
    let mut exact_total = 0.0;
    for (line, tokens, price, what) in wanted {
        if tokens == 0 {
            continue;
        }
        let tokens = tokens.saturating_mul(req.requests.max(1));
        match price {
            Some(unit_price) => {
                let exact = tokens as f64 * unit_price / 1e6;
                exact_total += exact;
                out.lines.push(Line {
                    line,
                    tokens,
                    unit_price,
                    cost: six_digits(exact),
                });
            }
            None => missing.push(what),
        }
    }
    if missing.is_empty() {
        // The sum of the exact line amounts, rounded once (a sum of rounded lines can be
        // off in its last digit: 41.6666 where 41.6667 is right).
        out.total = Some(six_digits(exact_total));
    } else {
        out.reason = Some(format!("no published {}", missing.join(" or ")));
    }
    out
}

/// Which offerings to price: one provider's, one kind's, all but one kind's.
#[derive(Debug, Clone, Copy, Default)]
pub struct Only<'a> {
    pub provider: Option<&'a str>,
    pub kind: Option<OfferingKind>,
    pub exclude_kind: Option<OfferingKind>,
}

impl Only<'_> {
    pub fn admits(&self, o: &offering::Model) -> bool {
        self.provider.is_none_or(|p| o.provider_slug == p)
            && self.kind.is_none_or(|k| o.kind == k)
            && self.exclude_kind.is_none_or(|k| o.kind != k)
    }
}

/// Costs at every offering `only` admits, cheapest first; offerings that cannot price the
/// request last, by provider.
pub fn costs(offerings: &[Row<offering::Model>], only: Only, req: Request) -> Vec<OfferingCost> {
    let mut out: Vec<OfferingCost> = offerings
        .iter()
        .filter(|o| only.admits(o))
        .map(|o| cost(o, req))
        .collect();
    out.sort_by(|a, b| {
        super::nulls_last(a.total, b.total, false)
            .then_with(|| a.offering.provider_slug.cmp(&b.offering.provider_slug))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn offer(input: f64, output: f64, cached: Option<f64>, tiers: &[Tier]) -> Row<offering::Model> {
        Arc::new(offering::Model {
            id: 1,
            model_slug: "m".into(),
            provider_slug: "p".into(),
            provider_model_id: "m".into(),
            input_price: Some(input),
            output_price: Some(output),
            cache_read_price: cached,
            cache_write_price: None,
            tiers: Tier::encode(tiers),
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
            kind: OfferingKind::FirstParty,
        })
    }

    fn req(input: u64, output: u64, cached: u64) -> Request {
        Request {
            input_tokens: input,
            output_tokens: output,
            cached_input_tokens: cached,
            mode: None,
            requests: 1,
        }
    }

    #[test]
    fn a_workload_is_billed_request_by_request() {
        // 250 requests of 200k prompt tokens: each stays under the >200k tier (50M tokens
        // billed at 3, not at the long-context 6).
        let o = offer(
            3.0,
            15.0,
            None,
            &[Tier {
                from_tokens: 200_001,
                input_price: Some(6.0),
                output_price: Some(22.5),
                ..Tier::default()
            }],
        );
        let month = Request {
            requests: 250,
            ..req(200_000, 0, 0)
        };
        let c = cost(&o, month);
        assert_eq!(c.tier_from_tokens, None);
        assert_eq!(c.lines[0].tokens, 50_000_000);
        assert_eq!(c.total, Some(150.0));
        // One request of 50M tokens reaches the tier.
        assert_eq!(cost(&o, req(50_000_000, 0, 0)).total, Some(300.0));
    }

    #[test]
    fn a_million_in_and_out_at_gpt_4o_prices() {
        let c = cost(
            &offer(2.5, 10.0, Some(1.25), &[]),
            req(1_000_000, 1_000_000, 0),
        );
        assert_eq!(c.total, Some(12.5));
        assert_eq!(c.lines.len(), 2);
    }

    #[test]
    fn the_total_is_the_exact_sum_rounded_once() {
        // Each line is 20.833333 (shown 20.8333); their sum is 41.666666, so 41.6667, not
        // the 41.6666 a sum of rounded lines gives.
        let c = cost(
            &offer(20.833333, 20.833333, None, &[]),
            req(1_000_000, 1_000_000, 0),
        );
        assert_eq!(c.lines[0].cost, 20.8333);
        assert_eq!(c.total, Some(41.6667));
    }

    #[test]
    fn a_prompt_past_a_tier_is_billed_wholly_at_the_tier() {
        let tier = Tier {
            from_tokens: 200_000,
            input_price: Some(6.0),
            output_price: Some(22.5),
            cache_read_price: Some(0.6),
            cache_write_price: None,
        };
        let o = offer(3.0, 15.0, Some(0.3), std::slice::from_ref(&tier));
        let c = cost(&o, req(300_000, 0, 0));
        assert_eq!(c.tier_from_tokens, Some(200_000));
        assert_eq!(c.total, Some(1.8));
        let at = cost(&o, req(200_000, 0, 0));
        assert_eq!((at.tier_from_tokens, at.total), (None, Some(0.6)));
    }

    #[test]
    fn cached_tokens_use_the_cache_read_price_or_give_a_reason() {
        let c = cost(
            &offer(2.5, 10.0, Some(1.25), &[]),
            req(1_000_000, 0, 400_000),
        );
        assert_eq!(c.total, Some(1.5 + 0.5));
        let none = cost(&offer(2.5, 10.0, None, &[]), req(1_000_000, 0, 400_000));
        assert_eq!(none.total, None);
        assert!(none.reason.unwrap().contains("cache-read"));
    }

    #[test]
    fn a_mode_bills_at_its_variant_or_says_it_is_not_sold_so() {
        let mut o = (*offer(3.0, 15.0, Some(0.3), &[])).clone();
        o.variants = Variant::encode(&[Variant {
            mode: "batch".into(),
            input_price: Some(1.5),
            output_price: Some(7.5),
            ..Variant::default()
        }]);
        let o = Arc::new(o);
        let batch = Request {
            mode: Some("batch"),
            ..req(1_000_000, 1_000_000, 0)
        };
        assert_eq!(cost(&o, batch).total, Some(9.0));
        let flex = Request {
            mode: Some("flex"),
            ..batch
        };
        let none = cost(&o, flex);
        assert_eq!(none.total, None);
        assert_eq!(none.reason.as_deref(), Some("no published flex price"));
        assert_eq!(cost(&o, req(1_000_000, 1_000_000, 0)).total, Some(18.0));
    }
}
