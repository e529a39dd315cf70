//! Economy indicators (`docs/economy.md`): monthly series computed from the finished snapshot, so
//! every instance serves the same figures and each one can be recomputed from the API's
//! own rows (models, offerings, price history). The `METHODS` text is the specification;
//! the functions below follow it line by line.
//!
//! Shared definitions:
//! - A month's *date* is its last day, or the snapshot date for the snapshot's own month.
//! - *Blended price* = (3 × input + output) / 4, USD per 1M tokens.
//! - A *first-party pair* is a (model, provider) with an offering of kind `first_party`;
//!   its price on a date is the price-history period in force that day
//!   (`effective_from` ≤ date < `effective_to`, open periods never end).
//! - A model's *price on a date* is its first-party pair's price that day where the
//!   history covers it, else its current list price (`input_price`, `output_price`).
//! - *Listed* models are those with availability `api` or `open_weights`.
//! - An *evidenced* index rests on at least one result a third party measured (`rank_basis`
//!   `independent` or `mixed`): the capability indicators read only those, so a maker's claims
//!   never set a frontier point (`docs/economy.md`).

use std::collections::{BTreeMap, BTreeSet};

use chrono::{Datelike, NaiveDate};
use entity::vocab::{Availability, OfferingKind, RankBasis};
use entity::{economy_indicator, economy_point, model, price_history};

use super::prices::six_digits;
use crate::snapshot::Snapshot;

/// One indicator's description: the rows of `economy_indicators`.
struct Spec {
    slug: &'static str,
    name: &'static str,
    description: &'static str,
    unit: &'static str,
    secondary_label: Option<&'static str>,
    method: &'static str,
    /// Which kinds of data it reads: prices, or scores (through the capability index).
    reads: &'static [Reads],
}

#[derive(PartialEq)]
enum Reads {
    Prices,
    Scores,
    Releases,
}

const PRICE_SOURCES: &[&str] = &["genai-prices", "genai-prices-history", "models-dev"];

const SPECS: &[Spec] = &[
    Spec {
        slug: "token-price-index",
        name: "Token price index",
        description: "How first-party list prices of the models on offer move, month by month; new models do not move it, price changes do.",
        unit: "index (first month = 100)",
        secondary_label: Some("models compared with the month before"),
        method: "Chained Jevons index of first-party prices. For each first-party pair priced (blended price > 0) at both the previous month's date and this month's date, take the ratio of the two blended prices; the month's link is the geometric mean of those ratios (1 when no pair qualifies). The first month with at least 10 first-party pairs priced on its date is 100; each later month is the previous value times its link. Secondary: how many pairs formed the link (in the first month, how many were priced).",
        reads: &[Reads::Prices],
    },
    Spec {
        slug: "frontier-price",
        name: "Price of the frontier",
        description: "What the most capable models on offer cost: the mean blended list price of the five with the highest capability index.",
        unit: "USD per 1M tokens (blended 3:1 input:output)",
        secondary_label: None,
        method: "Among models with availability `api`, an evidenced capability index (rank_basis independent or mixed: at least one result a third party measured), a release date on or before the month's date and a price above 0 on that date, take the five with the highest capability index (ties by slug) and average their blended prices. Months with fewer than five such models have no point; the series starts at the first month with five.",
        reads: &[Reads::Prices, Reads::Scores, Reads::Releases],
    },
    Spec {
        slug: "cost-of-capability",
        name: "Cost of GPT-4-level capability",
        description: "The cheapest way to buy at least the capability of the original GPT-4 (gpt-4-0613), and how fast that falls.",
        unit: "USD per 1M tokens (blended 3:1 input:output)",
        secondary_label: Some("change against 12 months earlier, %"),
        method: "Among models with availability `api`, a release date on or before the month's date, a price above 0 on that date and an evidenced capability index (rank_basis independent or mixed: at least one result a third party measured) whose lower one-sigma bound (index − its standard error) is at least gpt-4-0613's index, the lowest blended price. The series starts at the first month with such a model. Secondary: (value / value 12 months earlier − 1) × 100, rounded to 2 decimals; none in the first 12 months.",
        reads: &[Reads::Prices, Reads::Scores, Reads::Releases],
    },
    Spec {
        slug: "frontier-capability",
        name: "Frontier capability",
        description: "The highest capability index among the models released by each month.",
        unit: "capability index (GPT-4 = 100, GPT-5 = 150)",
        secondary_label: None,
        method: "The highest capability index among listed models with a release date on or before the month's date and an evidenced index (rank_basis independent or mixed: at least one result a third party measured; an index resting on its maker's claims alone never sets the frontier). The series starts at the first month with such a model.",
        reads: &[Reads::Scores, Reads::Releases],
    },
    Spec {
        slug: "open-weights-gap",
        name: "Open-weights gap",
        description: "How far the best open-weights model trails the best closed one, in capability and in months.",
        unit: "capability index points",
        secondary_label: Some("lag in months"),
        method: "Among listed models with a release date on or before the month's date and an evidenced capability index (rank_basis independent or mixed: at least one result a third party measured): the best closed model's index (open_source false) minus the best open-weights model's index (open_source true). Secondary: the months from the first month whose best closed index reached this month's best open-weights index to this month (0 when open weights lead). The series starts at the first month with both.",
        reads: &[Reads::Scores, Reads::Releases],
    },
    Spec {
        slug: "models-released",
        name: "Models released",
        description: "How many listed models were released each month, and how many of them with open weights.",
        unit: "models",
        secondary_label: Some("open-weights share, %"),
        method: "The number of listed models whose release date falls in the month. Secondary: the share of them with open_source true, in % rounded to 1 decimal; none in a month without releases. The series runs from the first month with a release to the snapshot's month.",
        reads: &[Reads::Releases],
    },
    Spec {
        slug: "price-changes",
        name: "First-party price changes",
        description: "How often creators cut or raise the list price of their own models.",
        unit: "price cuts",
        secondary_label: Some("price rises"),
        method: "For each first-party pair, each price-history period whose effective_from falls in the month and that directly follows another period of the same pair (the earlier period's effective_to equals its effective_from) is a cut when its blended price is lower, a rise when higher. Value: cuts; secondary: rises. The series runs from the first month of any first-party period to the snapshot's month.",
        reads: &[Reads::Prices],
    },
];

/// A calendar month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Month {
    year: i32,
    month: u32,
}

impl Month {
    /// The month of a `YYYY-MM-DD` date or of a bare `YYYY-MM` (some release dates are
    /// known only to the month).
    fn of(date: &str) -> Option<Self> {
        let day = match date.len() {
            7 => format!("{date}-01"),
            _ => date.get(..10)?.to_string(),
        };
        let d = NaiveDate::parse_from_str(&day, "%Y-%m-%d").ok()?;
        Some(Self {
            year: d.year(),
            month: d.month(),
        })
    }

    fn next(self) -> Self {
        if self.month == 12 {
            Self {
                year: self.year + 1,
                month: 1,
            }
        } else {
            Self {
                month: self.month + 1,
                ..self
            }
        }
    }

    /// Months from `self` to `later`.
    fn until(self, later: Self) -> i32 {
        (later.year - self.year) * 12 + later.month as i32 - self.month as i32
    }

    fn label(self) -> String {
        format!("{:04}-{:02}", self.year, self.month)
    }

    /// The month's date: its last day, or `end` in `end`'s own month.
    fn date(self, end: &str) -> String {
        if Self::of(end) == Some(self) {
            return end.to_string();
        }
        let next = self.next();
        NaiveDate::from_ymd_opt(next.year, next.month, 1)
            .and_then(|d| d.pred_opt())
            .map(|d| d.format("%Y-%m-%d").to_string())
            .unwrap_or_default()
    }
}

/// Every month from `first` to `last`, both included.
fn months(first: Month, last: Month) -> Vec<Month> {
    let mut out = Vec::new();
    let mut m = first;
    while m <= last {
        out.push(m);
        m = m.next();
    }
    out
}

fn blended(input: Option<f64>, output: Option<f64>) -> Option<f64> {
    Some((3.0 * input? + output?) / 4.0)
}

/// The snapshot's rows the indicators read, indexed.
struct Inputs<'a> {
    end: &'a str,
    /// First-party pair → its history periods, oldest first.
    first_party: BTreeMap<(&'a str, &'a str), Vec<&'a price_history::Model>>,
    /// Model slug → its first-party pair's periods.
    first_party_of: BTreeMap<&'a str, Vec<&'a price_history::Model>>,
    models: &'a [model::Model],
}

impl<'a> Inputs<'a> {
    fn new(s: &'a Snapshot) -> Self {
        let pairs: BTreeSet<(&str, &str)> = s
            .offerings
            .iter()
            .filter(|o| o.kind == OfferingKind::FirstParty)
            .map(|o| (o.model_slug.as_str(), o.provider_slug.as_str()))
            .collect();
        let mut first_party: BTreeMap<(&str, &str), Vec<&price_history::Model>> = BTreeMap::new();
        for h in &s.price_history {
            let key = (h.model_slug.as_str(), h.provider_slug.as_str());
            if pairs.contains(&key) {
                first_party.entry(key).or_default().push(h);
            }
        }
        let mut first_party_of: BTreeMap<&str, Vec<&price_history::Model>> = BTreeMap::new();
        for (key, periods) in &mut first_party {
            periods.sort_by(|a, b| a.effective_from.cmp(&b.effective_from));
            first_party_of
                .entry(key.0)
                .or_default()
                .extend(periods.iter().copied());
        }
        Self {
            end: &s.built_at,
            first_party,
            first_party_of,
            models: &s.models,
        }
    }

    /// The month of the earliest release date.
    fn first_release(&self) -> Option<Month> {
        earliest(self.models.iter().filter_map(|m| m.release_date.as_deref()))
    }

    /// The listed models released on or before `date`.
    fn released_by(&self, date: &str) -> impl Iterator<Item = &'a model::Model> {
        let date = date.to_string();
        self.models.iter().filter(move |m| {
            listed(m)
                && m.release_date
                    .as_deref()
                    .is_some_and(|r| r <= date.as_str())
        })
    }

    /// A model's blended price on `date` (see the module's definitions).
    fn price_on(&self, m: &model::Model, date: &str) -> Option<f64> {
        let periods = self
            .first_party_of
            .get(m.slug.as_str())
            .map(Vec::as_slice)
            .unwrap_or_default();
        in_force(periods, date).or_else(|| blended(m.input_price, m.output_price))
    }
}

fn listed(m: &model::Model) -> bool {
    matches!(
        m.availability,
        Availability::Api | Availability::OpenWeights
    )
}

/// A model's capability index where a third party's result supports it (`rank_basis`
/// `independent` or `mixed`); `None` for an index resting on its maker's claims alone, which
/// never sets a frontier point (`docs/economy.md`).
fn evidenced_index(m: &model::Model) -> Option<f64> {
    matches!(
        m.rank_basis,
        Some(RankBasis::Independent | RankBasis::Mixed)
    )
    .then_some(m.capability_index)
    .flatten()
}

/// The blended price of the period in force on `date`.
fn in_force(periods: &[&price_history::Model], date: &str) -> Option<f64> {
    periods
        .iter()
        .find(|p| {
            p.effective_from.as_str() <= date
                && p.effective_to.as_deref().is_none_or(|to| date < to)
        })
        .and_then(|p| blended(p.input_price, p.output_price))
}

type Series = Vec<(Month, f64, Option<f64>)>;

/// The series from the first month that has a point to the snapshot's month; `point`
/// returns `None` before the series starts (the indicators below, once started, fill
/// every later month).
fn series(
    inputs: &Inputs,
    first: Option<Month>,
    mut point: impl FnMut(Month, &str) -> Option<(f64, Option<f64>)>,
) -> Series {
    let (Some(first), Some(last)) = (first, Month::of(inputs.end)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in months(first, last) {
        if let Some((v, s)) = point(m, &m.date(inputs.end)) {
            out.push((m, v, s));
        } else if !out.is_empty() {
            // A month without a point restarts the series after it: what is served has no
            // gaps, and no value is invented for the missing month.
            out.clear();
        }
    }
    out
}

fn earliest<'a>(dates: impl Iterator<Item = &'a str>) -> Option<Month> {
    dates.filter_map(Month::of).min()
}

/// Fewest priced pairs the price index starts from: one model's price cut is not a market.
const INDEX_BASE_PAIRS: usize = 10;

fn token_price_index(inputs: &Inputs) -> Series {
    let first = earliest(
        inputs
            .first_party
            .values()
            .flatten()
            .map(|p| p.effective_from.as_str()),
    );
    let mut index = 100.0;
    let mut previous: Option<String> = None;
    series(inputs, first, |_, date| {
        let Some(prev) = previous.clone() else {
            let priced = inputs
                .first_party
                .values()
                .filter(|periods| in_force(periods, date).is_some_and(|p| p > 0.0))
                .count();
            if priced < INDEX_BASE_PAIRS {
                return None;
            }
            previous = Some(date.to_string());
            return Some((100.0, Some(priced as f64)));
        };
        previous = Some(date.to_string());
        let logs: Vec<f64> = inputs
            .first_party
            .values()
            .filter_map(|periods| {
                let (a, b) = (in_force(periods, &prev)?, in_force(periods, date)?);
                (a > 0.0 && b > 0.0).then(|| (b / a).ln())
            })
            .collect();
        if !logs.is_empty() {
            index *= (logs.iter().sum::<f64>() / logs.len() as f64).exp();
        }
        Some((index, Some(logs.len() as f64)))
    })
}

/// Listed `api` models with a capability index released by `date`, with their price then;
/// free offers (previews, rate-limited) are not a market price and are left out.
fn priced_capable<'a>(inputs: &'a Inputs, date: &str) -> Vec<(&'a model::Model, f64, f64)> {
    inputs
        .released_by(date)
        .filter(|m| m.availability == Availability::Api)
        .filter_map(|m| Some((m, evidenced_index(m)?, inputs.price_on(m, date)?)))
        .filter(|x| x.2 > 0.0)
        .collect()
}

fn frontier_price(inputs: &Inputs) -> Series {
    let first = inputs.first_release();
    series(inputs, first, |_, date| {
        let mut c = priced_capable(inputs, date);
        if c.len() < 5 {
            return None;
        }
        c.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.slug.cmp(&b.0.slug)));
        let top: Vec<f64> = c.iter().take(5).map(|x| x.2).collect();
        Some((top.iter().sum::<f64>() / 5.0, None))
    })
}

/// The model whose capability `cost-of-capability` prices: the original GPT-4.
const REFERENCE: &str = "gpt-4-0613";

fn cost_of_capability(inputs: &Inputs) -> Series {
    let Some(reference) = inputs
        .models
        .iter()
        .find(|m| m.slug == REFERENCE)
        .and_then(|m| m.capability_index)
    else {
        return Vec::new();
    };
    let first = inputs.first_release();
    let mut s = series(inputs, first, |_, date| {
        // At the index's lower one-sigma bound: a model whose estimate only reaches
        // GPT-4's with its error (Gemma 3n E4B, 113.6 ± 18.8) is not yet GPT-4-level
        // (docs/economy.md). GPT-4 itself defines the level.
        priced_capable(inputs, date)
            .into_iter()
            .filter(|x| {
                x.0.slug == REFERENCE || x.1 - x.0.capability_index_se.unwrap_or(0.0) >= reference
            })
            .map(|x| x.2)
            .min_by(f64::total_cmp)
            .map(|v| (v, None))
    });
    let values: BTreeMap<Month, f64> = s.iter().map(|(m, v, _)| (*m, *v)).collect();
    for (m, v, change) in &mut s {
        let year_ago = values
            .iter()
            .find(|(k, _)| k.until(*m) == 12)
            .map(|(_, v)| *v);
        *change = year_ago
            .filter(|old| *old > 0.0)
            .map(|old| ((*v / old - 1.0) * 100.0 * 100.0).round() / 100.0);
    }
    s
}

fn best(inputs: &Inputs, date: &str, open: bool) -> Option<f64> {
    inputs
        .released_by(date)
        .filter(|m| m.open_source == Some(open))
        .filter_map(evidenced_index)
        .max_by(f64::total_cmp)
}

fn frontier_capability(inputs: &Inputs) -> Series {
    let first = inputs.first_release();
    series(inputs, first, |_, date| {
        inputs
            .released_by(date)
            .filter_map(evidenced_index)
            .max_by(f64::total_cmp)
            .map(|v| (v, None))
    })
}

fn open_weights_gap(inputs: &Inputs) -> Series {
    let first = inputs.first_release();
    let mut closed_best: Vec<(Month, f64)> = Vec::new();
    series(inputs, first, |m, date| {
        let closed = best(inputs, date, false);
        if let Some(c) = closed {
            closed_best.push((m, c));
        }
        let (closed, open) = (closed?, best(inputs, date, true)?);
        let reached = closed_best
            .iter()
            .find(|(_, c)| *c >= open)
            .map_or(0, |(k, _)| k.until(m));
        Some((closed - open, Some(f64::from(reached))))
    })
}

fn models_released(inputs: &Inputs) -> Series {
    let mut by_month: BTreeMap<Month, (u32, u32)> = BTreeMap::new();
    for m in inputs.models.iter().filter(|m| listed(m)) {
        if let Some(month) = m.release_date.as_deref().and_then(Month::of) {
            let e = by_month.entry(month).or_default();
            e.0 += 1;
            e.1 += u32::from(m.open_source == Some(true));
        }
    }
    let first = by_month.keys().next().copied();
    series(inputs, first, |m, _| {
        let (n, open) = by_month.get(&m).copied().unwrap_or_default();
        let share = (n > 0).then(|| (f64::from(open) / f64::from(n) * 1000.0).round() / 10.0);
        Some((f64::from(n), share))
    })
}

fn price_changes(inputs: &Inputs) -> Series {
    let mut by_month: BTreeMap<Month, (u32, u32)> = BTreeMap::new();
    for periods in inputs.first_party.values() {
        for pair in periods.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if a.effective_to.as_deref() != Some(b.effective_from.as_str()) {
                continue;
            }
            let (Some(old), Some(new), Some(month)) = (
                blended(a.input_price, a.output_price),
                blended(b.input_price, b.output_price),
                Month::of(&b.effective_from),
            ) else {
                continue;
            };
            let e = by_month.entry(month).or_default();
            if new < old {
                e.0 += 1;
            } else if new > old {
                e.1 += 1;
            }
        }
    }
    let first = earliest(
        inputs
            .first_party
            .values()
            .flatten()
            .map(|p| p.effective_from.as_str()),
    );
    series(inputs, first, |m, _| {
        let (cuts, rises) = by_month.get(&m).copied().unwrap_or_default();
        Some((f64::from(cuts), Some(f64::from(rises))))
    })
}

/// Computes every indicator from the finished snapshot and stores them in it.
pub fn apply(s: &mut Snapshot) {
    let inputs = Inputs::new(s);
    let all: Vec<Series> = vec![
        token_price_index(&inputs),
        frontier_price(&inputs),
        cost_of_capability(&inputs),
        frontier_capability(&inputs),
        open_weights_gap(&inputs),
        models_released(&inputs),
        price_changes(&inputs),
    ];
    let present: BTreeSet<&str> = s.sources.iter().map(|x| x.slug.as_str()).collect();
    let score_sources: BTreeSet<&str> = s.scores.iter().map(|x| x.source.as_str()).collect();
    let mut indicators = Vec::new();
    let mut points = Vec::new();
    for (position, (spec, series)) in SPECS.iter().zip(all).enumerate() {
        let mut sources: BTreeSet<&str> = BTreeSet::new();
        for r in spec.reads {
            match r {
                Reads::Prices => sources.extend(PRICE_SOURCES),
                Reads::Scores => sources.extend(score_sources.iter().copied()),
                Reads::Releases => sources.extend(["models-dev", "genai-prices"]),
            }
        }
        sources.retain(|x| present.contains(x));
        indicators.push(economy_indicator::Model {
            slug: spec.slug.to_string(),
            position: position as i32,
            name: spec.name.to_string(),
            description: spec.description.to_string(),
            unit: spec.unit.to_string(),
            secondary_label: spec.secondary_label.map(str::to_string),
            method: spec.method.to_string(),
            sources: sources.into_iter().collect::<Vec<_>>().join(","),
        });
        for (month, value, secondary) in series {
            points.push(economy_point::Model {
                id: points.len() as i64 + 1,
                indicator_slug: spec.slug.to_string(),
                month: month.label(),
                value: six_digits(value),
                secondary: secondary.map(six_digits),
            });
        }
    }
    drop(inputs);
    s.economy_indicators = indicators;
    s.economy_points = points;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn period(from: &str, to: Option<&str>, input: f64, output: f64) -> price_history::Model {
        price_history::Model {
            id: 0,
            model_slug: "m".into(),
            provider_slug: "p".into(),
            input_price: Some(input),
            output_price: Some(output),
            cache_read_price: None,
            cache_write_price: None,
            effective_from: from.into(),
            effective_to: to.map(str::to_string),
            observed_after: None,
            source: "t".into(),
        }
    }

    #[test]
    fn a_month_date_is_its_last_day_or_the_snapshot_date() {
        let feb = Month::of("2024-02-10").unwrap();
        assert_eq!(feb.date("2026-08-21"), "2024-02-29");
        assert_eq!(
            Month::of("2026-08-01").unwrap().date("2026-08-21"),
            "2026-08-21"
        );
        assert_eq!(Month::of("2024-12-31").unwrap().next().label(), "2025-01");
        assert_eq!(feb.until(Month::of("2025-02-01").unwrap()), 12);
        assert_eq!(Month::of("2024-01").unwrap().label(), "2024-01");
        assert_eq!(Month::of("2024-1-5"), None);
    }

    #[test]
    fn the_period_in_force_excludes_its_end_day() {
        let a = period("2025-04-16", Some("2025-06-10"), 10.0, 40.0);
        let b = period("2025-06-10", None, 2.0, 8.0);
        let periods = [&a, &b];
        assert_eq!(in_force(&periods, "2025-06-09"), Some(17.5));
        assert_eq!(in_force(&periods, "2025-06-10"), Some(3.5));
        assert_eq!(in_force(&periods, "2025-01-01"), None);
    }

    /// A maker's claims never set a frontier point: a cheap model rated above every other on
    /// its own figures alone is neither the frontier's capability nor GPT-4-level's price.
    #[test]
    fn claims_alone_set_no_frontier_point() {
        let model = |slug: &str, index: f64, basis: RankBasis, price: f64| model::Model {
            availability: Availability::Api,
            release_date: Some("2026-01-15".into()),
            capability_index: Some(index),
            capability_index_se: Some(3.0),
            rank_basis: Some(basis),
            input_price: Some(price),
            output_price: Some(price),
            ..super::super::catalog::blank_model(slug)
        };
        let s = Snapshot {
            built_at: "2026-02-10".into(),
            models: vec![
                model("gpt-4-0613", 100.0, RankBasis::Independent, 37.5),
                model("claimed", 180.0, RankBasis::SelfReported, 0.1),
                model("measured", 120.0, RankBasis::Mixed, 1.0),
            ],
            ..Snapshot::default()
        };
        let inputs = Inputs::new(&s);
        let latest = |series: Series| series.last().map(|(_, v, _)| *v);
        assert_eq!(latest(frontier_capability(&inputs)), Some(120.0));
        assert_eq!(latest(cost_of_capability(&inputs)), Some(1.0));
        assert!(
            priced_capable(&inputs, "2026-02-10")
                .iter()
                .all(|(m, _, _)| m.slug != "claimed")
        );
        // Counted as it stands, the claim would have been both points.
        let mut counted = s.clone();
        counted.models[1].rank_basis = Some(RankBasis::Independent);
        let inputs = Inputs::new(&counted);
        assert_eq!(latest(frontier_capability(&inputs)), Some(180.0));
        assert_eq!(latest(cost_of_capability(&inputs)), Some(0.1));
        // An estimate that reaches GPT-4's only with its error is not GPT-4-level.
        let mut wide = s.clone();
        wide.models[1].rank_basis = Some(RankBasis::Independent);
        wide.models[1].capability_index = Some(110.0);
        wide.models[1].capability_index_se = Some(18.0);
        assert_eq!(latest(cost_of_capability(&Inputs::new(&wide))), Some(1.0));
    }

    #[test]
    fn months_cover_both_ends() {
        let m = months(
            Month::of("2025-11-03").unwrap(),
            Month::of("2026-02-01").unwrap(),
        );
        let labels: Vec<String> = m.iter().map(|m| m.label()).collect();
        assert_eq!(labels, ["2025-11", "2025-12", "2026-01", "2026-02"]);
    }
}
