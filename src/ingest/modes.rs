//! Hosts that sell a faster or a cheaper way of running a model under a name of its own
//! (`glm-5.2-fast` at Baseten beside `glm-5.2`, `kimi-k2.6-flex` at Neuralwatt beside
//! `kimi-k2.6`) sell a mode of that model, not another model: such an offering becomes a
//! variant of the host's offering of the model, and a name left with no offering and no
//! result of its own becomes an alias of the model.
//!
//! The price tells a mode from a model that merely ends in the word: a fast mode costs at
//! least the standard price and a flex mode at most, while xAI's Grok 4 Fast (0.2/0.5 beside
//! Grok 4's 3/15) is a smaller model of its own and stays one.

use std::collections::BTreeMap;

use entity::offering::{Tier, Variant};

use super::{BENCHMARK_RANK, ModelRecord, Report, Resolved, names};

/// The mode a slug's last word names, and the slug without it.
fn split_mode(slug: &str) -> Option<(&str, &'static str)> {
    [Variant::FAST, Variant::FLEX].into_iter().find_map(|mode| {
        slug.strip_suffix(mode)
            .and_then(|s| s.strip_suffix('-'))
            .filter(|base| !base.is_empty())
            .map(|base| (base, mode))
    })
}

/// Whether `mode`'s offering is priced as that mode of `base`'s.
fn priced_as_mode(
    mode: &str,
    offer: &entity::offering::Model,
    base: &entity::offering::Model,
) -> bool {
    match (offer.input_price, base.input_price) {
        (Some(o), Some(b)) if mode == Variant::FAST => o >= b,
        (Some(o), Some(b)) => o <= b,
        _ => false,
    }
}

/// A mode entry (`…:batch`, "… (batch)") prices a variant of the model's offering: its
/// name is the entry's, not the model's (docs/data.md, "Price modes"). Marks the record's
/// mode ([`names::price_mode`]) and forgets its name.
pub fn mark_entry(r: &mut ModelRecord, report: &mut Report) {
    r.mode = names::price_mode(&r.raw_id, r.name.as_deref());
    if r.mode.is_some() {
        r.name = None;
        report.rule("price modes: mode entries read", 1);
    }
}

/// A host's mode product folded into its model (`glm-5.2-fast` at Baseten, now the fast
/// variant of `glm-5.2`) leaves no model behind: its price periods were the variant's, not
/// the model's, and would name a model that does not exist (docs/data.md, "References").
/// Drops the periods of models no longer resolved.
pub fn drop_folded_periods(
    history: &mut Vec<entity::price_history::Model>,
    resolved: &Resolved,
    report: &mut Report,
) {
    let periods = history.len();
    history.retain(|p| resolved.models.contains_key(&p.model_slug));
    report.rule(
        "references: price periods of folded mode products dropped",
        periods - history.len(),
    );
}

/// Folds mode products into their model's offerings; returns how many offerings it folded.
pub fn fold(resolved: &mut Resolved) -> usize {
    // Longest first: `glm-5.2-short-fast-flex` folds into `glm-5.2-short-fast` before that
    // one is looked at.
    // The base is looked up as any id is: `claude-opus-4-6` names the dated snapshot
    // `claude-opus-4-6-20260205` its maker lists.
    let base_of = |slug: &str| -> Option<(String, &'static str)> {
        let (base, mode) = split_mode(slug)?;
        let found = resolved.lookup(base)?;
        (found != slug).then(|| (found.to_string(), mode))
    };
    let mut slugs: Vec<(String, String, &'static str)> = resolved
        .models
        .keys()
        .filter_map(|s| base_of(s).map(|(base, mode)| (s.clone(), base, mode)))
        .collect();
    slugs.sort_by_key(|(s, _, _)| std::cmp::Reverse(s.len()));
    let mut folded = 0;
    for (slug, base, mode) in slugs {
        let base = base.as_str();
        let position: BTreeMap<(String, String), usize> = resolved
            .offerings
            .iter()
            .enumerate()
            .map(|(i, o)| ((o.model_slug.clone(), o.provider_slug.clone()), i))
            .collect();
        // A mode product no creator's record names (Nebius' `gpt-oss-120b-fast`, sold beside
        // no plain offering of its own) is the host's mode of the model all the same: its
        // offering becomes the model's at that host, the mode its only price (a creator's
        // `grok-4-fast` is a model of its own and never folds so).
        let host_only = resolved.models[&slug].iter().all(|r| r.rank > 2);
        let mut gone = Vec::new();
        let mut alone = Vec::new();
        for (i, o) in resolved.offerings.iter().enumerate() {
            if o.model_slug != slug || o.kind == entity::vocab::OfferingKind::Plan {
                continue;
            }
            let Some(&b) = position.get(&(base.to_string(), o.provider_slug.clone())) else {
                if host_only {
                    alone.push(i);
                }
                continue;
            };
            // Whatever its price, a host-only product is the host's tier (Nebius' fast
            // `gpt-oss-120b` costs less than its standard one).
            if host_only || priced_as_mode(mode, o, &resolved.offerings[b]) {
                gone.push((i, b));
            }
        }
        for &i in &alone {
            let o = &mut resolved.offerings[i];
            let variant = Variant {
                mode: mode.to_string(),
                input_price: o.input_price.take(),
                output_price: o.output_price.take(),
                cache_read_price: o.cache_read_price.take(),
                cache_write_price: o.cache_write_price.take(),
                tiers: Tier::decode(o.tiers.take().as_deref()),
            };
            o.model_slug = base.to_string();
            o.variants = Variant::encode(&[variant]);
        }
        folded += alone.len();
        for &(i, b) in &gone {
            let o = resolved.offerings[i].clone();
            let target = &mut resolved.offerings[b];
            let mut variants = Variant::decode(target.variants.as_deref());
            // The source's own price for the mode, where it gives one, stands.
            if !variants.iter().any(|v| v.mode == mode) {
                variants.push(Variant {
                    mode: mode.to_string(),
                    input_price: o.input_price,
                    output_price: o.output_price,
                    cache_read_price: o.cache_read_price,
                    cache_write_price: o.cache_write_price,
                    tiers: Tier::decode(o.tiers.as_deref()),
                });
                variants.sort_by_key(|v| Variant::MODES.iter().position(|m| *m == v.mode));
                target.variants = Variant::encode(&variants);
            }
        }
        folded += gone.len();
        let removed: Vec<usize> = gone.iter().map(|(i, _)| *i).collect();
        let mut index = 0;
        resolved.offerings.retain(|_| {
            index += 1;
            !removed.contains(&(index - 1))
        });
        // A name that is only this host product is the model's alias from now on.
        let still_sold = resolved.offerings.iter().any(|o| o.model_slug == slug);
        let own_results = resolved.models[&slug]
            .iter()
            .any(|r| r.rank >= BENCHMARK_RANK);
        if !still_sold && !own_results {
            resolved.models.remove(&slug);
            for target in resolved.index.values_mut().filter(|t| **t == slug) {
                *target = base.to_string();
            }
            resolved.index.insert(slug.clone(), base.to_string());
        }
    }
    folded
}

/// A host's thinking product of a model that reasons already (NanoGPT's
/// `qwen3.5-plus-thinking` beside its `qwen/qwen3.5-plus`, at the same price) is the model
/// called in its thinking mode, not a model of its own: where no creator's record or result
/// names it and every host selling it sells the model at the same price, its offerings go
/// and its name is the model's alias (docs/data.md, "Price modes"). A thinking model
/// priced apart (ByteDance's `doubao-seed-1.6-thinking`) or one a table scores stays.
/// Returns how many products it folded.
pub fn fold_thinking(resolved: &mut Resolved) -> usize {
    let mut folded = 0;
    let products: Vec<(String, String)> = resolved
        .models
        .keys()
        .filter_map(|slug| {
            let base = resolved.lookup(slug.strip_suffix("-thinking")?)?;
            (base != slug).then(|| (slug.clone(), base.to_string()))
        })
        .collect();
    for (slug, base) in products {
        let hosts_only = resolved.models[&slug]
            .iter()
            .all(|r| r.rank > 2 && r.rank < BENCHMARK_RANK);
        let reasons = resolved
            .models
            .get(&base)
            .is_some_and(|recs| recs.iter().any(|r| r.reasoning == Some(true)));
        let price = |o: &entity::offering::Model| (o.input_price, o.output_price);
        let sold: Vec<&entity::offering::Model> = resolved
            .offerings
            .iter()
            .filter(|o| o.model_slug == slug)
            .collect();
        let same_as_base = !sold.is_empty()
            && sold.iter().all(|o| {
                resolved.offerings.iter().any(|b| {
                    b.model_slug == base
                        && b.provider_slug == o.provider_slug
                        && b.input_price.is_some()
                        && price(b) == price(o)
                })
            });
        if !(hosts_only && reasons && same_as_base) {
            continue;
        }
        resolved.offerings.retain(|o| o.model_slug != slug);
        resolved.models.remove(&slug);
        for target in resolved.index.values_mut().filter(|t| **t == slug) {
            *target = base.clone();
        }
        resolved.index.insert(slug, base);
        folded += 1;
    }
    folded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mode_is_the_last_word() {
        assert_eq!(split_mode("glm-5.2-flex"), Some(("glm-5.2", "flex")));
        assert_eq!(
            split_mode("glm-5.2-short-fast-flex"),
            Some(("glm-5.2-short-fast", "flex"))
        );
        assert_eq!(split_mode("grok-4-fast"), Some(("grok-4", "fast")));
        assert_eq!(split_mode("breakfast"), None);
        assert_eq!(split_mode("fast"), None);
    }

    #[test]
    fn the_price_tells_a_mode_from_a_model() {
        let offer = |input: f64| entity::offering::Model {
            id: 0,
            model_slug: "m".into(),
            provider_slug: "p".into(),
            provider_model_id: "m".into(),
            input_price: Some(input),
            output_price: Some(input),
            cache_read_price: None,
            cache_write_price: None,
            tiers: None,
            unit_prices: None,
            variants: None,
            upcoming: None,
            regions: None,
            sources: None,
            disputed: false,
            deprecation_date: None,
            context_window: None,
            as_of: None,
            source: "test".into(),
            kind: entity::vocab::OfferingKind::Reseller,
        };
        // Grok 4 Fast is cheaper than Grok 4: a model of its own.
        assert!(!priced_as_mode("fast", &offer(0.2), &offer(3.0)));
        assert!(priced_as_mode("fast", &offer(2.1), &offer(1.4)));
        assert!(priced_as_mode("flex", &offer(0.725), &offer(1.45)));
        assert!(!priced_as_mode("flex", &offer(2.0), &offer(1.45)));
    }
}
