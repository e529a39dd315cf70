//! The price history of the offerings LiteLLM prices, from its observed copies: the cost
//! map dates nothing, so every period starts on the day a copy was observed.
//!
//! - The first copy that lists an offering opens its first period on that copy's day (the
//!   price was in effect then at least; when it began is not known).
//! - A later copy with another input or output price closes the period and opens one on its
//!   day, with `observed_after` the day of the copy before: the change happened in between.
//!   Cache prices alone do not make a period: the open one shows the latest copy's.
//! - A copy that no longer lists it closes the period; listed again, a new one opens, as a
//!   change.

use entity::price_history;

use std::collections::{BTreeMap, BTreeSet};

use super::{Copy, Offer, SOURCE, day_of_copy, read_copy};
use crate::ingest::{IngestError, Options, Prices, Report, Resolved, first_seen};
use crate::store::versions::same_price;

/// One observed copy: its day and its general (not regional) offers by (provider, id).
pub type Observed<'a> = (
    String,
    std::collections::BTreeMap<(&'a str, &'a str), &'a Offer>,
);

/// The general offers of a copy, keyed by (provider slug, provider's id).
pub fn by_id(offers: &[Offer]) -> std::collections::BTreeMap<(&str, &str), &Offer> {
    offers
        .iter()
        .filter(|o| o.region.is_none())
        .filter_map(|o| Some(((o.record.provider.as_deref()?, o.record.raw_id.as_str()), o)))
        .collect()
}

fn standard(o: &Offer) -> Prices {
    let p = o.record.prices.clone().unwrap_or_default();
    Prices {
        input: p.input,
        output: p.output,
        cache_read: p.cache_read,
        cache_write: p.cache_write,
        ..Prices::default()
    }
}

/// The periods of the offering of `model` at `provider` under `id`, over `copies` (oldest
/// first).
pub fn periods(
    model: &str,
    provider: &str,
    id: &str,
    copies: &[Observed],
) -> Vec<price_history::Model> {
    let mut out: Vec<price_history::Model> = Vec::new();
    let mut before: Option<&str> = None;
    for (day, offers) in copies {
        let now = offers.get(&(provider, id)).map(|o| standard(o));
        let open = out.last_mut().filter(|p| p.effective_to.is_none());
        match (open, now) {
            // The same standard price at 6 significant digits (a float artefact such as
            // 75 and 75.0001 is no change: docs/sync.md, "Versions"): the period goes on,
            // with the cache prices the latest copy states (a cache price added is detail).
            (Some(p), Some(now))
                if same_price(p.input_price, now.input)
                    && same_price(p.output_price, now.output) =>
            {
                p.cache_read_price = now.cache_read;
                p.cache_write_price = now.cache_write;
            }
            (open, now) => {
                if let Some(p) = open {
                    p.effective_to = Some(day.clone());
                }
                if let Some(now) = now {
                    out.push(price_history::Model {
                        id: 0,
                        model_slug: model.to_string(),
                        provider_slug: provider.to_string(),
                        input_price: now.input,
                        output_price: now.output,
                        cache_read_price: now.cache_read,
                        cache_write_price: now.cache_write,
                        effective_from: day.clone(),
                        effective_to: None,
                        observed_after: before.map(str::to_string),
                        source: super::SOURCE.to_string(),
                    });
                }
            }
        }
        before = Some(day);
    }
    // The first period starts with the first observation: nothing was seen before it.
    if let Some(first) = out.first_mut()
        && copies
            .first()
            .is_some_and(|(d, _)| *d == first.effective_from)
    {
        first.observed_after = None;
    }
    out
}

/// LiteLLM's earlier copies (the archive's, observed before `day`, the current copy's):
/// when each model was first listed, into `first_seen`, and the price periods of the
/// offerings LiteLLM serves that no dated source's history covers, added to `history`.
/// `offers` are the current copy's offers joined to the models. Returns the day of the
/// earliest copy read, the start of LiteLLM's record.
pub fn add_observed(
    opts: &Options,
    day: &str,
    offers: &[Offer],
    resolved: &Resolved,
    first_seen: &mut BTreeMap<String, String>,
    history: &mut Vec<price_history::Model>,
) -> Result<String, IngestError> {
    let earlier = archived(opts, day)?;
    let since = earlier
        .first()
        .map_or_else(|| day.to_string(), |(d, _)| d.clone());
    for (day, copy) in &earlier {
        let ids = copy.witnesses.iter().map(|w| w.raw_id.as_str());
        first_seen::in_copy(day, ids, resolved, first_seen);
    }
    let mut copies: Vec<Observed> = earlier
        .iter()
        .map(|(day, copy)| (day.clone(), by_id(&copy.offers)))
        .collect();
    copies.push((day.to_string(), by_id(offers)));
    let dated: BTreeSet<(String, String)> = history
        .iter()
        .map(|p| (p.model_slug.clone(), p.provider_slug.clone()))
        .collect();
    for o in resolved.offerings.iter().filter(|o| {
        o.source == SOURCE && !dated.contains(&(o.model_slug.clone(), o.provider_slug.clone()))
    }) {
        history.extend(periods(
            &o.model_slug,
            &o.provider_slug,
            &o.provider_model_id,
            &copies,
        ));
    }
    Ok(since)
}

/// LiteLLM's earlier observed copies, oldest first: the archive's directories (a day, or a
/// release [`super::RELEASES`] names) observed before `day`.
fn archived(opts: &Options, day: &str) -> Result<Vec<(String, Copy)>, IngestError> {
    let root = opts
        .archive
        .clone()
        .unwrap_or_else(|| opts.sources.join("../archive"))
        .join(SOURCE);
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Ok(Vec::new());
    };
    let mut dirs: Vec<(String, std::path::PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let observed = day_of_copy(&name)?;
            (observed.as_str() < day).then(|| (observed, e.path()))
        })
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|(d, path)| {
            let copy = read_copy(&path, &d, &mut Report::default())?;
            Ok((d, copy))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::ModelRecord;

    fn offer(input: f64) -> Offer {
        Offer {
            record: ModelRecord {
                provider: Some("p".into()),
                raw_id: "m".into(),
                prices: Some(Prices {
                    input: Some(input),
                    output: Some(input * 4.0),
                    ..Prices::default()
                }),
                ..ModelRecord::default()
            },
            region: None,
            deprecation_date: None,
            first_party: false,
        }
    }

    #[test]
    fn a_change_between_copies_is_dated_by_observation() {
        let (a, b) = (offer(1.0), offer(2.0));
        let copies: Vec<Observed> = vec![
            ("2026-10-03".into(), by_id(std::slice::from_ref(&a))),
            ("2026-11-04".into(), by_id(std::slice::from_ref(&b))),
        ];
        let p = periods("model", "p", "m", &copies);
        assert_eq!(p.len(), 2);
        assert_eq!(
            (p[0].effective_from.as_str(), p[0].effective_to.as_deref()),
            ("2026-10-03", Some("2026-11-04"))
        );
        assert_eq!(p[0].observed_after, None);
        assert_eq!(p[1].input_price, Some(2.0));
        assert_eq!(p[1].observed_after.as_deref(), Some("2026-10-03"));
        // Unchanged: one open period; gone from the later copy: closed on its day.
        let same: Vec<Observed> = vec![
            ("2026-10-03".into(), by_id(std::slice::from_ref(&a))),
            ("2026-11-04".into(), by_id(std::slice::from_ref(&a))),
        ];
        assert_eq!(periods("model", "p", "m", &same).len(), 1);
        let gone: Vec<Observed> = vec![
            ("2026-10-03".into(), by_id(std::slice::from_ref(&a))),
            ("2026-11-04".into(), by_id(&[])),
        ];
        let p = periods("model", "p", "m", &gone);
        assert_eq!(p[0].effective_to.as_deref(), Some("2026-11-04"));
    }

    /// Two copies whose prices differ only by a float artefact of a per-token price (the
    /// cost map's 7.50001e-05 per token is 75.0001 per million) are one period; a real
    /// change (75 → 75.01) is two.
    #[test]
    fn a_float_artefact_is_no_price_change() {
        let (a, artefact, real) = (offer(18.75), offer(18.750025), offer(18.7525));
        let copies = |later: &Offer| -> Vec<(String, Vec<Offer>)> {
            vec![
                ("2026-10-03".into(), vec![a.clone()]),
                ("2026-11-04".into(), vec![later.clone()]),
            ]
        };
        let periods_over = |c: &[(String, Vec<Offer>)]| {
            let observed: Vec<Observed> = c.iter().map(|(d, o)| (d.clone(), by_id(o))).collect();
            periods("model", "p", "m", &observed)
        };
        let p = periods_over(&copies(&artefact));
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].output_price, Some(75.0));
        assert_eq!(p[0].effective_to, None);
        assert_eq!(periods_over(&copies(&real)).len(), 2);
    }

    #[test]
    fn an_offering_new_in_a_later_copy_was_added_in_between() {
        let b = offer(2.0);
        let copies: Vec<Observed> = vec![
            ("2026-10-03".into(), by_id(&[])),
            ("2026-11-04".into(), by_id(std::slice::from_ref(&b))),
        ];
        let p = periods("model", "p", "m", &copies);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].observed_after.as_deref(), Some("2026-10-03"));
    }
}
