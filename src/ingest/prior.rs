//! The dataset being served, carried into a build (docs/sync.md, "The served dataset is an
//! observation of the past"). A build reads only the copies the observation store holds;
//! the served dataset was built from earlier copies too (the bundled one from copies whose
//! bytes the repository cannot ship), so its price periods and first sightings from before
//! the store's copies are kept, and a price that differs from the served one where the build
//! saw no copy before starts a period on the day it was observed. Price history never
//! shrinks because a build started from fewer copies.
//!
//! Kept apart from the merge stage: the ingest calls [`carry_periods`] and
//! [`carry_first_seen`] only when `mds sync` passes a prior ([`super::Options::prior`]).

use std::collections::BTreeMap;

use entity::{offering, price_history};

/// An offering as the served dataset lists it: (model, provider) → (source, input price,
/// output price).
pub type Offerings = BTreeMap<(String, String), (String, Option<f64>, Option<f64>)>;

/// The served dataset, as a build needs it.
#[derive(Debug, Clone, Default)]
pub struct Prior {
    /// Its price periods.
    pub periods: Vec<price_history::Model>,
    /// Its models' first sightings (slug → day).
    pub first_seen: BTreeMap<String, String>,
    /// Whether its first sighting dated each model it gave no release date (slug → true
    /// where `date_basis` was `first_seen`, false where the model was undated): the word
    /// stands ([`super::first_seen::stand_ins`]).
    pub sighted: BTreeMap<String, bool>,
    /// Its offerings: (model, provider) → (source, input, output list price).
    pub offerings: Offerings,
    /// The observation day of each source's copy it was built from (its `sources` rows).
    pub days: BTreeMap<String, String>,
    /// Per source whose copies the history reads (`genai-prices`, `litellm`): the day of the
    /// oldest copy this build reads. Before it, only the served dataset knows.
    pub since: BTreeMap<String, String>,
}

/// The source whose copies a period was read from.
fn copies_of(period_source: &str) -> &str {
    match period_source {
        super::history::SOURCE => super::sources::genai_prices::SOURCE,
        other => other,
    }
}

/// Sources whose copies give price history.
fn gives_history(source: &str) -> bool {
    source == super::sources::genai_prices::SOURCE || source == super::sources::litellm::SOURCE
}

/// The served periods from before the build's copies, the build's periods after them, and
/// a period on the day of observation where the price served changed and the build read
/// no copy before that day.
pub fn carry_periods(
    prior: &Prior,
    built: Vec<price_history::Model>,
    offerings: &[offering::Model],
    observed: &BTreeMap<String, String>,
) -> Vec<price_history::Model> {
    type Key = (String, String);
    let mut by_key: BTreeMap<Key, (Vec<price_history::Model>, Vec<price_history::Model>)> =
        BTreeMap::new();
    for p in &prior.periods {
        by_key
            .entry((p.model_slug.clone(), p.provider_slug.clone()))
            .or_default()
            .0
            .push(p.clone());
    }
    for p in built {
        by_key
            .entry((p.model_slug.clone(), p.provider_slug.clone()))
            .or_default()
            .1
            .push(p);
    }
    let now: BTreeMap<(&str, &str), &offering::Model> = offerings
        .iter()
        .map(|o| ((o.model_slug.as_str(), o.provider_slug.as_str()), o))
        .collect();
    // The day a source's current copy was observed and the day of the copy the served
    // dataset read: a change between them is seen on the first, after the second.
    let days = |source: &str| -> Option<(String, String)> {
        let today = observed.get(source)?;
        let before = prior.days.get(source)?;
        (today > before).then(|| (today.clone(), before.clone()))
    };
    let mut out = Vec::new();
    for ((model, provider), (mut served, mut own)) in by_key {
        served.sort_by(|a, b| a.effective_from.cmp(&b.effective_from));
        own.sort_by(|a, b| a.effective_from.cmp(&b.effective_from));
        let offer = now.get(&(model.as_str(), provider.as_str())).copied();
        let before = prior.offerings.get(&(model.clone(), provider.clone()));
        let since = served.last().map_or_else(String::new, |last| {
            prior
                .since
                .get(copies_of(&last.source))
                .cloned()
                .unwrap_or_default()
        });
        // A copy of that day is read by the build: from then on the build knows as much as
        // the served dataset did, and after it more.
        let mut periods: Vec<price_history::Model> = served
            .into_iter()
            .filter(|p| since.is_empty() || p.effective_from <= since)
            .collect();
        if periods.is_empty() {
            // No served history from before the build's copies: the build's own, and an
            // offering that is new in a copy that gives history starts a period on the day
            // it was seen.
            if own.is_empty()
                && before.is_none()
                && let Some(o) = offer.filter(|o| gives_history(&o.source))
                && let Some((day, after)) = days(&o.source)
            {
                out.push(opened(o, &day, &after));
            }
            out.extend(own);
            continue;
        }
        let later: Vec<price_history::Model> = if since.is_empty() {
            Vec::new()
        } else {
            own.into_iter()
                .filter(|p| p.effective_from > since)
                .collect()
        };
        if let Some(first) = later.first() {
            if let Some(open) = periods.last_mut()
                && open
                    .effective_to
                    .as_ref()
                    .is_none_or(|to| *to > first.effective_from)
            {
                open.effective_to = Some(first.effective_from.clone());
            }
            periods.extend(later);
        } else if let Some((source, was)) = before.map(|b| (b.0.as_str(), (b.1, b.2)))
            && let Some((day, after)) = days(offer.map_or(source, |o| o.source.as_str()))
        {
            let changed = offer.is_none_or(|o| {
                !crate::store::versions::same_price(was.0, o.input_price)
                    || !crate::store::versions::same_price(was.1, o.output_price)
            });
            if changed && let Some(open) = periods.last_mut().filter(|p| p.effective_to.is_none()) {
                open.effective_to = Some(day.clone());
                if let Some(o) = offer {
                    periods.push(opened(o, &day, &after));
                }
            }
        }
        out.extend(merge_same(periods));
    }
    out
}

/// A period of `o`'s price from `day`, seen after `after`.
fn opened(o: &offering::Model, day: &str, after: &str) -> price_history::Model {
    price_history::Model {
        id: 0,
        model_slug: o.model_slug.clone(),
        provider_slug: o.provider_slug.clone(),
        input_price: o.input_price,
        output_price: o.output_price,
        cache_read_price: o.cache_read_price,
        cache_write_price: o.cache_write_price,
        effective_from: day.to_string(),
        effective_to: None,
        observed_after: Some(after.to_string()),
        source: o.source.clone(),
    }
}

/// Adjacent periods whose input and output prices are the same at 6 significant digits are
/// one: a float artefact (75 → 75.0001) is not a price change.
fn merge_same(periods: Vec<price_history::Model>) -> Vec<price_history::Model> {
    let mut out: Vec<price_history::Model> = Vec::with_capacity(periods.len());
    for p in periods {
        match out.last_mut() {
            Some(last)
                if last.effective_to.as_deref() == Some(p.effective_from.as_str())
                    && crate::store::versions::same_price(last.input_price, p.input_price)
                    && crate::store::versions::same_price(last.output_price, p.output_price) =>
            {
                last.effective_to = p.effective_to;
            }
            _ => out.push(p),
        }
    }
    out
}

/// Each model the build lists keeps the served dataset's first sighting when it is earlier.
pub fn carry_first_seen(
    prior: &Prior,
    models: &BTreeMap<String, Vec<super::ModelRecord>>,
    first_seen: &mut BTreeMap<String, String>,
) {
    for (slug, day) in &prior.first_seen {
        if !models.contains_key(slug) {
            continue;
        }
        let seen = first_seen
            .entry(slug.clone())
            .or_insert_with(|| day.clone());
        if day < seen {
            seen.clone_from(day);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn period(from: &str, to: Option<&str>, input: f64, source: &str) -> price_history::Model {
        price_history::Model {
            id: 0,
            model_slug: "m".into(),
            provider_slug: "p".into(),
            input_price: Some(input),
            output_price: Some(input * 4.0),
            cache_read_price: None,
            cache_write_price: None,
            effective_from: from.into(),
            effective_to: to.map(str::to_string),
            observed_after: None,
            source: source.into(),
        }
    }

    fn offer(input: f64) -> offering::Model {
        offering::Model {
            id: 1,
            model_slug: "m".into(),
            provider_slug: "p".into(),
            provider_model_id: "m".into(),
            input_price: Some(input),
            output_price: Some(input * 4.0),
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
            source: "genai-prices".into(),
            kind: entity::vocab::OfferingKind::FirstParty,
        }
    }

    fn prior(since: &str) -> Prior {
        Prior {
            periods: vec![
                period(
                    "2025-01-01",
                    Some("2026-08-21"),
                    3.0,
                    "genai-prices-history",
                ),
                period("2026-08-21", None, 2.0, "genai-prices-history"),
            ],
            offerings: [(
                ("m".to_string(), "p".to_string()),
                ("genai-prices".to_string(), Some(2.0), Some(8.0)),
            )]
            .into(),
            days: [("genai-prices".to_string(), "2026-11-10".to_string())].into(),
            since: [("genai-prices".to_string(), since.to_string())].into(),
            ..Default::default()
        }
    }

    fn observed(day: &str) -> BTreeMap<String, String> {
        [("genai-prices".to_string(), day.to_string())].into()
    }

    #[test]
    fn served_history_survives_a_build_from_one_copy() {
        // The build read one copy (2026-11-27) and knows no history: the served periods
        // stay, and the unchanged price goes on.
        let out = carry_periods(
            &prior("2026-11-27"),
            vec![],
            &[offer(2.0)],
            &observed("2026-11-27"),
        );
        assert_eq!(out, prior("").periods);
        // A float artefact is no change either.
        let out = carry_periods(
            &prior("2026-11-27"),
            vec![],
            &[offer(2.000_001)],
            &observed("2026-11-27"),
        );
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn a_changed_price_opens_a_period_on_the_day_it_was_observed() {
        let out = carry_periods(
            &prior("2026-11-27"),
            vec![],
            &[offer(1.0)],
            &observed("2026-11-27"),
        );
        assert_eq!(out.len(), 3);
        assert_eq!(out[1].effective_to.as_deref(), Some("2026-11-27"));
        assert_eq!(out[2].effective_from, "2026-11-27");
        assert_eq!(out[2].observed_after.as_deref(), Some("2026-11-10"));
        assert_eq!(out[2].input_price, Some(1.0));
        // An offering gone closes its period.
        let out = carry_periods(&prior("2026-11-27"), vec![], &[], &observed("2026-11-27"));
        assert_eq!(out.len(), 2);
        assert_eq!(out[1].effective_to.as_deref(), Some("2026-11-27"));
    }

    #[test]
    fn the_build_s_own_later_periods_follow_the_served_ones() {
        // The build read copies from 2026-11-10 on and saw the change on 2026-11-27 itself;
        // its periods before that day (from a log or the feed's dates) give way to the
        // served ones.
        let own = vec![
            period(
                "2026-01-01",
                Some("2026-11-27"),
                9.0,
                "genai-prices-history",
            ),
            period("2026-11-27", None, 1.0, "genai-prices-history"),
        ];
        let out = carry_periods(
            &prior("2026-11-10"),
            own,
            &[offer(1.0)],
            &observed("2026-11-27"),
        );
        let spans: Vec<(&str, Option<&str>, Option<f64>)> = out
            .iter()
            .map(|p| {
                (
                    p.effective_from.as_str(),
                    p.effective_to.as_deref(),
                    p.input_price,
                )
            })
            .collect();
        assert_eq!(
            spans,
            [
                ("2025-01-01", Some("2026-08-21"), Some(3.0)),
                ("2026-08-21", Some("2026-11-27"), Some(2.0)),
                ("2026-11-27", None, Some(1.0)),
            ]
        );
    }
}
