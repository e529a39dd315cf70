//! Which price an offering serves: the whole precedence, in the order it is applied.
//!
//! An offering is one model at one provider (docs/data.md, "Witnesses and votes" and "Price
//! modes"). Its prices are settled in this order, each step over the result of the one
//! before:
//!
//! 1. **One record per provider** ([`pick`], while the models are resolved): of the records
//!    that price the model at the provider, the most trusted source's ([`precedence`]:
//!    genai-prices, then LiteLLM, then models.dev, then any other), except that a router's
//!    free route (`:free`) gives way to any source's paid id; within a source, a
//!    provider's regular id before a router variant (`:free`), the id of this exact snapshot
//!    before an undated alias, then the shortest id. A mode entry (`…:batch`, "… (flex)")
//!    never gives the standard price: it adds a variant the served record lacks
//!    ([`with_modes`]); a provider known only by mode entries has no offering.
//! 2. **genai-prices' dated price in effect** on the run's day replaces the standard price
//!    of the offerings genai-prices serves ([`history::apply_current`]).
//! 3. **genai-prices' price variants in effect** on that day replace the variants of the
//!    offerings it serves ([`genai_prices::apply_variants`]).
//! 4. **genai-prices' announced next price** becomes the offering's `upcoming`
//!    ([`history::apply_upcoming`]).
//! 5. **LiteLLM's deprecation dates and regional prices** at the providers it prices
//!    ([`litellm::apply_offers`]); the standard price stays step 1's to 4's.
//! 6. **A host's mode product** (`glm-5.2-fast` beside `glm-5.2`) becomes a variant of the
//!    model's offering at that host ([`modes::fold`]); a host's thinking product sold at the
//!    model's price is the model's alias ([`modes::fold_thinking`]).
//! 7. **The witnesses are settled** against the price as finally served: each source that
//!    prices the offering says whether it agrees, and the offering is disputed when one
//!    listing the same id states another standard price ([`settle_witnesses`]).
//!
//! The offering's kind (first party, cloud, …) is set afterwards with the catalogue
//! (`prices::apply`); it never changes the price.

use std::collections::BTreeMap;

use entity::vocab::OfferingKind;
use serde_json::Value;

use super::sources::{self, genai_prices, litellm};
use super::{ModelRecord, Prices, Resolved, history, modes, names, prices};

/// Steps 2 to 7 of the precedence (see the module docs), over the offerings step 1 picked:
/// `current` is genai-prices' price in effect on `today` by offering (none when its history
/// is excluded), `genai` its live feed (none when the source is excluded), `offers`
/// LiteLLM's offers joined to the models. Returns how many hosts' thinking products it
/// folded into their models.
pub fn settle(
    resolved: &mut Resolved,
    current: Option<&BTreeMap<(String, String), Prices>>,
    genai: Option<&Value>,
    today: &str,
    offers: &[litellm::Offer],
) -> usize {
    if let Some(current) = current {
        history::apply_current(current, &mut resolved.offerings);
    }
    if let Some(data) = genai {
        genai_prices::apply_variants(data, today, &mut resolved.offerings);
        history::apply_upcoming(&history::upcoming(data, today), &mut resolved.offerings);
    }
    let mut offerings = std::mem::take(&mut resolved.offerings);
    litellm::apply_offers(offers, resolved, &mut offerings);
    resolved.offerings = offerings;
    modes::fold(resolved);
    let thinking = modes::fold_thinking(resolved);
    settle_witnesses(&mut resolved.offerings);
    thinking
}

/// How much a source's price is trusted at a provider: genai-prices (a curated price library
/// that dates its changes) before LiteLLM (the price list gateways bill by) before models.dev
/// (a metadata catalogue whose prices are often copied) before anything else.
fn precedence(source: &str) -> u8 {
    match source {
        sources::genai_prices::SOURCE => 0,
        sources::litellm::SOURCE => 1,
        sources::models_dev::SOURCE => 2,
        _ => 3,
    }
}

/// Two prices equal within rounding: half a percent, or a thousandth of a dollar.
pub fn same_price(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 0.001 + 0.005 * a.abs().max(b.abs()),
        _ => true,
    }
}

/// States each offering's witnesses against its price as finally served (a dated price of
/// the served source may have replaced the price its record lists): the served source's
/// witness shows that price, each witness whether it agrees, and the offering is disputed
/// when a witness listing the same id (by join key; another id, such as an undated alias,
/// may name another snapshot) states another standard price.
fn settle_witnesses(offerings: &mut [entity::offering::Model]) {
    use entity::offering::Witness;
    for o in offerings.iter_mut() {
        let mut witnesses = Witness::decode(o.sources.as_deref());
        let own = names::parse(&o.provider_model_id).key;
        let mut disputed = false;
        for w in &mut witnesses {
            if w.source == o.source && w.provider_model_id == o.provider_model_id {
                w.input_price = o.input_price;
                w.output_price = o.output_price;
            }
            w.agrees = same_price(w.input_price, o.input_price)
                && same_price(w.output_price, o.output_price);
            disputed |= !w.agrees && names::parse(&w.provider_model_id).key == own;
        }
        // The served witness first (a free route's record may lead the sources' order,
        // but never the price: docs/data.md, "Free").
        witnesses
            .sort_by_key(|w| !(w.source == o.source && w.provider_model_id == o.provider_model_id));
        o.sources = Witness::encode(&witnesses);
        o.disputed = disputed;
    }
}

/// `variants` with the modes the mode entries price that they lack (a source's own variant
/// of a mode stands), in [`entity::offering::Variant::MODES`] order.
fn with_modes(
    variants: &[entity::offering::Variant],
    mode_entries: &[&ModelRecord],
) -> Vec<entity::offering::Variant> {
    use entity::offering::Variant;
    let mut out = variants.to_vec();
    for r in mode_entries {
        let (Some(mode), Some(p)) = (r.mode, r.prices.as_ref()) else {
            continue;
        };
        if out.iter().any(|v| v.mode == mode) {
            continue;
        }
        out.push(Variant {
            mode: mode.to_string(),
            input_price: p.input,
            output_price: p.output,
            cache_read_price: p.cache_read,
            cache_write_price: p.cache_write,
            tiers: p.tiers.clone(),
        });
    }
    out.sort_by_key(|v| Variant::MODES.iter().position(|m| *m == v.mode));
    out
}

/// One offering per (model, provider), from the most trusted source that prices it there
/// ([`precedence`]), the provider's id for this exact snapshot before an undated alias, then
/// the shortest id. Every source pricing it there is a witness; the offering is disputed
/// when one states another standard price. Variants come from the served record, else from
/// a witness that has them.
pub fn pick(models: &BTreeMap<String, Vec<ModelRecord>>) -> Vec<entity::offering::Model> {
    use entity::offering::Witness;
    let mut out = Vec::new();
    let providers: std::collections::BTreeSet<&str> = models
        .values()
        .flatten()
        .filter_map(|r| r.provider.as_deref())
        .collect();
    for (slug, recs) in models {
        // The model's own id, however the slug spells its points (`llama-3.1-8b-instruct` for
        // `llama-3-1-8b-instruct`), before a host's label of it.
        let key = names::parse(slug).key;
        let score = |r: &ModelRecord| {
            let exact = r.parsed.as_ref().is_some_and(|p| p.key == key);
            // Router variants (`:free`) are not the provider's regular offering.
            (
                precedence(r.source),
                // A sale the source says ended yields to one it still lists (Perplexity's
                // `sonar` entry, its last Chat Completions rate, to its Agent API's
                // `perplexity/sonar`).
                r.ended.is_some(),
                own_route(r, recs, &providers),
                r.raw_id.contains(':'),
                !exact,
                r.raw_id.len(),
                r.raw_id.clone(),
            )
        };
        // The best record of each source at each provider.
        let mut best: BTreeMap<&str, BTreeMap<u8, &ModelRecord>> = BTreeMap::new();
        // Mode entries (`…:batch`) at each provider, the most trusted source's first: they
        // are variants of the provider's offering, never its standard price.
        let mut modes: BTreeMap<&str, Vec<&ModelRecord>> = BTreeMap::new();
        for r in recs
            .iter()
            .filter(|r| r.prices.is_some() && r.mode.is_some())
        {
            if let Some(provider) = r.provider.as_deref() {
                modes.entry(provider).or_default().push(r);
            }
        }
        for list in modes.values_mut() {
            list.sort_by_key(|r| score(r));
        }
        for r in recs
            .iter()
            .filter(|r| r.prices.is_some() && r.mode.is_none())
        {
            let Some(provider) = r.provider.as_deref() else {
                continue;
            };
            let slot = best.entry(provider).or_default();
            match slot.get(&precedence(r.source)) {
                Some(cur) if score(cur) <= score(r) => {}
                _ => {
                    slot.insert(precedence(r.source), r);
                }
            }
        }
        for (provider, by_source) in best {
            let mode_entries = modes.remove(provider).unwrap_or_default();
            // A provider known only by its mode entries states no standard price: no
            // offering (its batch price alone would be read as the price to pay).
            // The most trusted source's record, unless it is a router's free route
            // (`:free`) and another source prices the provider's paid id: a free route
            // never hides the price to pay.
            let Some(r) = by_source
                .values()
                .find(|r| !r.raw_id.ends_with(":free"))
                .or_else(|| by_source.values().next())
                .copied()
            else {
                continue;
            };
            let prices = r.prices.clone().unwrap_or_default();
            let witnesses: Vec<Witness> = by_source
                .values()
                .map(|w| {
                    let p = w.prices.clone().unwrap_or_default();
                    Witness {
                        source: w.source.to_string(),
                        provider_model_id: w.raw_id.clone(),
                        agrees: same_price(p.input, prices.input)
                            && same_price(p.output, prices.output),
                        input_price: p.input.map(prices::six_digits),
                        output_price: p.output.map(prices::six_digits),
                    }
                })
                .collect();
            // A witness's modes where it agrees on the standard price.
            let variants = std::iter::once(&prices.variants)
                .chain(
                    by_source
                        .values()
                        .zip(&witnesses)
                        .filter(|(_, w)| w.agrees)
                        .filter_map(|(r, _)| r.prices.as_ref().map(|p| &p.variants)),
                )
                .find(|v| !v.is_empty())
                .map_or(&[][..], Vec::as_slice);
            let variants = with_modes(variants, &mode_entries);
            out.push(offering(
                (slug, provider, &r.raw_id),
                r,
                &prices,
                &variants,
                &witnesses,
            ));
        }
    }
    out
}

/// Whether a record is a host's route of its own beside a plain one: a trusted-execution
/// deployment (NanoGPT's `TEE/glm-4.7`, dearer), a discounted "stealth" route (Kilo's
/// `stealth/claude-opus-4.6`, "20% off"), or a route through another provider written before
/// an id the host also lists (NanoGPT's `azure-o3-mini` beside `openai/o3-mini`). Such a
/// route is served only where the host sells no plain route of the model.
fn own_route(
    r: &ModelRecord,
    recs: &[ModelRecord],
    providers: &std::collections::BTreeSet<&str>,
) -> bool {
    if routed_by_host(r) {
        return true;
    }
    let Some(rest) = through_provider(r, providers) else {
        return false;
    };
    // The plain twin is the rest itself, or the rest under its maker's name.
    let rest = rest.to_ascii_lowercase();
    recs.iter().any(|o| {
        let id = o.raw_id.to_ascii_lowercase();
        o.source == r.source
            && o.provider == r.provider
            && o.raw_id != r.raw_id
            && through_provider(o, providers).is_none()
            && (id == rest || id.rsplit_once('/').is_some_and(|(_, last)| last == rest))
    })
}

/// A trusted-execution (`TEE/`) or "stealth" route.
fn routed_by_host(r: &ModelRecord) -> bool {
    r.raw_id.split_once('/').is_some_and(|(head, _)| {
        head.eq_ignore_ascii_case("tee") || head.eq_ignore_ascii_case("stealth")
    })
}

/// The rest of an id a provider other than the record's own, and other than the model's
/// maker, leads (`azure-o3-mini` at NanoGPT: `o3-mini`); the lead ends at the first `/`, or
/// the first `-` in an id without one (`zai-org/glm-4.7` is led by no provider).
fn through_provider<'a>(
    r: &'a ModelRecord,
    providers: &std::collections::BTreeSet<&str>,
) -> Option<&'a str> {
    let (head, rest) = r
        .raw_id
        .split_once('/')
        .or_else(|| r.raw_id.split_once('-'))?;
    let head = head.to_ascii_lowercase();
    let here = |who: &Option<String>| who.as_deref() == Some(head.as_str());
    (providers.contains(head.as_str()) && !here(&r.provider) && !here(&r.creator)).then_some(rest)
}

/// An offering of `(model, provider, id)` at `prices`, as record `r` states it; its kind is
/// set with every offering's by `prices::apply`.
fn offering(
    (slug, provider, id): (&str, &str, &str),
    r: &ModelRecord,
    prices: &Prices,
    variants: &[entity::offering::Variant],
    witnesses: &[entity::offering::Witness],
) -> entity::offering::Model {
    use entity::offering::{Tier, UnitPrice, Variant, Witness};
    entity::offering::Model {
        id: 0,
        model_slug: slug.to_string(),
        provider_slug: provider.to_string(),
        provider_model_id: id.to_string(),
        input_price: prices.input,
        output_price: prices.output,
        cache_read_price: prices.cache_read,
        cache_write_price: prices.cache_write,
        tiers: Tier::encode(&prices.tiers),
        unit_prices: UnitPrice::encode(&prices.unit_prices),
        variants: Variant::encode(variants),
        upcoming: None,
        regions: None,
        disputed: false,
        sources: Witness::encode(witnesses),
        deprecation_date: r.ended.clone(),
        context_window: r.context,
        as_of: r.as_of.clone(),
        source: r.source.to_string(),
        kind: OfferingKind::Reseller,
    }
}

/// A creator's price entry bills every id its rule names exactly (genai-prices' `equals`
/// ids): OpenAI's `gpt-4-turbo` entry bills `gpt-4-0125-preview`, Mistral's `codestral` entry
/// `codestral-2501`. Where such an id is a model of its own that the creator's provider does
/// not otherwise offer, it gets that offering, at the entry's price under the billed id
/// (docs/data.md, "Prices"). Floating aliases (`codestral-latest`) name no model of their own.
pub fn billed_ids(
    models: &BTreeMap<String, Vec<ModelRecord>>,
    index: &BTreeMap<String, String>,
    out: &mut Vec<entity::offering::Model>,
) {
    use entity::offering::Witness;
    let mut offered: std::collections::BTreeSet<(String, String)> = out
        .iter()
        .map(|o| (o.model_slug.clone(), o.provider_slug.clone()))
        .collect();
    // models.dev's 0/0 where it knows no price, alone at the creator's API: the creator's
    // own entry billing the id says the price (Mistral's `devstral-small` entry bills
    // `labs-devstral-small-2512` at 0.1/0.3; docs/data.md, "Free").
    let placeholder = |o: &entity::offering::Model| {
        o.source == sources::models_dev::SOURCE
            && o.input_price == Some(0.0)
            && o.output_price == Some(0.0)
            && Witness::decode(o.sources.as_deref()).len() == 1
    };
    let mut unpriced: BTreeMap<(String, String), usize> = out
        .iter()
        .enumerate()
        .filter(|(_, o)| placeholder(o))
        .map(|(i, o)| ((o.model_slug.clone(), o.provider_slug.clone()), i))
        .collect();
    let mut replaced = Vec::new();
    let entries = models.values().flatten().filter(|r| {
        r.source == genai_prices::SOURCE
            && r.rank <= 2
            && r.mode.is_none()
            && r.prices.as_ref().is_some_and(|p| p.input.is_some())
    });
    let mut added = Vec::new();
    for r in entries {
        let Some(provider) = r.provider.as_deref() else {
            continue;
        };
        for id in &r.bills {
            let parsed = names::parse(id);
            let Some(slug) = index.get(&parsed.key) else {
                continue;
            };
            // A floating alias (`codestral-latest`) names whichever model is newest.
            if id.to_ascii_lowercase().ends_with("latest") {
                continue;
            }
            // The entry's own model, and ids it already joined, are offered already, unless
            // at a placeholder's price.
            let at = (slug.clone(), provider.to_string());
            let stale = unpriced.remove(&at);
            if !offered.insert(at) && stale.is_none() {
                continue;
            }
            let prices = r.prices.clone().unwrap_or_default();
            let raw_id = id.clone();
            let witness = Witness {
                source: r.source.to_string(),
                provider_model_id: raw_id.clone(),
                agrees: true,
                input_price: prices.input.map(prices::six_digits),
                output_price: prices.output.map(prices::six_digits),
            };
            let mut witnesses = vec![witness];
            if let Some(i) = stale {
                // The placeholder stays a witness, with the unknown it stands for.
                witnesses.extend(Witness::decode(out[i].sources.as_deref()).into_iter().map(
                    |mut w| {
                        w.agrees = false;
                        w.input_price = None;
                        w.output_price = None;
                        w
                    },
                ));
                replaced.push(i);
            }
            let mut offered = offering(
                (slug, provider, &raw_id),
                r,
                &prices,
                &prices.variants,
                &witnesses,
            );
            // The entry states no window of the billed id, the placeholder's listing may.
            offered.context_window = stale.and_then(|i| out[i].context_window);
            added.push(offered);
        }
    }
    replaced.sort_unstable();
    for i in replaced.into_iter().rev() {
        out.remove(i);
    }
    out.extend(added);
}

/// Whether an offering's standard price is below its batch variant's (beyond rounding): a
/// batch price served as the standard one, or a stale variant (docs/data.md, "Price modes").
pub fn below_batch(o: &entity::offering::Model, v: &entity::offering::Variant) -> bool {
    let above = |batch: Option<f64>, standard: Option<f64>| match (batch, standard) {
        (Some(b), Some(s)) => b > s && !same_price(Some(b), Some(s)),
        _ => false,
    };
    v.mode == entity::offering::Variant::BATCH
        && (above(v.input_price, o.input_price) || above(v.output_price, o.output_price))
}
