//! Price history: the derived price-change log of genai-prices (one row per change of a
//! model's default price, dated by the commit that changed it), the changes seen between
//! successive observed copies of the live feed (`archive/` copies, then the current one:
//! dated by the later observation, with `observed_after` the earlier), and the dated
//! constraints of the live feed (`{"constraint": {"start_date": ...}, "prices": ...}`),
//! which announce changes, some of them after the observation day.

use std::collections::BTreeMap;
use std::path::Path;

use entity::price_history;
use serde_json::Value;

use super::sources::Meta;
use super::sources::genai_prices::{self, prices_of};
use super::{Days, IngestError, ModelRecord, Options, Prices, Report, Resolved};

pub const SOURCE: &str = "genai-prices-history";

/// What the price-change log is (its row of the sources table): the project's own file,
/// derived from genai-prices' git history, read with the live feed rather than by an adapter.
pub const META: Meta = Meta {
    slug: SOURCE,
    name: "genai-prices price-change log (derived from its git history)",
    repository: "pydantic/genai-prices",
    commit: "47df840a5ab10bbcffb8e5ac01b9899032245d1b",
    snapshot_date: "2026-08-19",
    license: "MIT",
    names_models: false,
};

/// One row of `genai_prices_git_price_changes.csv`.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct ChangeRow {
    pub provider_id: String,
    pub model_id: String,
    pub observed_date: String,
    pub event: String,
    pub input_mtok: Option<f64>,
    pub output_mtok: Option<f64>,
    pub cache_read_mtok: Option<f64>,
    pub cache_write_mtok: Option<f64>,
    /// For a change seen between two observations: the day of the earlier one.
    #[serde(default)]
    pub observed_after: Option<String>,
}

pub fn load(path: &Path) -> Result<Vec<ChangeRow>, IngestError> {
    let mut reader = csv::Reader::from_path(path).map_err(|e| IngestError::parse(path, e))?;
    reader
        .deserialize()
        .collect::<Result<Vec<ChangeRow>, _>>()
        .map_err(|e| IngestError::parse(path, e))
}

struct Period {
    prices: Prices,
    from: String,
    to: Option<String>,
    observed_after: Option<String>,
}

/// Periods of one (provider, model id) from its change rows, in date order.
fn periods_from_changes(rows: &[&ChangeRow]) -> Vec<Period> {
    let mut out: Vec<Period> = Vec::new();
    for row in rows {
        if let Some(open) = out.last_mut().filter(|p| p.to.is_none()) {
            open.to = Some(row.observed_date.clone());
        }
        if row.event != "removed" {
            out.push(Period {
                prices: Prices {
                    input: row.input_mtok,
                    output: row.output_mtok,
                    cache_read: row.cache_read_mtok,
                    cache_write: row.cache_write_mtok,
                    ..Prices::default()
                },
                from: row.observed_date.clone(),
                to: None,
                observed_after: row.observed_after.clone(),
            });
        }
    }
    // A change and its reversal on the same day leave empty periods behind.
    out.retain(|p| p.to.as_deref() != Some(p.from.as_str()));
    out
}

/// Adjacent periods with the same prices are one period: a commit that touched only other
/// fields (or a tier) is not a price change.
fn merged(periods: Vec<Period>) -> Vec<Period> {
    let mut out: Vec<Period> = Vec::with_capacity(periods.len());
    for p in periods {
        match out.last_mut() {
            Some(last)
                if last.to.as_deref() == Some(p.from.as_str())
                    && (last.prices.input, last.prices.output)
                        == (p.prices.input, p.prices.output) =>
            {
                last.to = p.to;
                last.prices = p.prices;
            }
            _ => out.push(p),
        }
    }
    out
}

/// Dated constraints of a live-feed model entry in effect by the observation day `day`:
/// (start_date, prices), sorted. Changes announced for later are not history yet: the
/// source's next observation will show whether they happened.
fn dated_constraints(model: &Value, day: &str) -> Vec<(String, Prices)> {
    let mut out: Vec<(String, Prices)> = model
        .get("prices")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let start = e.get("constraint")?.get("start_date")?.as_str()?;
            // A dated rate of a list with time-of-day windows is its off-peak rate; the
            // standard price from that day is the peak (DeepSeek V4 since 2026-08-17).
            let p = genai_prices::at_peak(model, prices_of(e.get("prices")?));
            Some((start.to_string(), p))
        })
        .filter(|(start, _)| start.as_str() <= day)
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The entry of a dated list without a constraint: the price before the first dated change.
fn unconstrained(model: &Value) -> Option<Prices> {
    model
        .get("prices")?
        .as_array()?
        .iter()
        .find(|e| e.get("constraint").is_none())
        .and_then(|e| e.get("prices"))
        .map(prices_of)
}

/// The model's release date, from the first of its records that has one.
fn release_of(resolved: &Resolved, model: &str) -> Option<String> {
    resolved
        .models
        .get(model)?
        .iter()
        .find_map(|r| r.release_date.clone())
}

/// The price of a live-feed model entry in effect on `day`: its latest dated constraint by
/// then, else its standard price.
pub(crate) fn price_on(model: &Value, day: &str) -> Option<Prices> {
    dated_constraints(model, day)
        .pop()
        .map(|(_, p)| p)
        .or_else(|| genai_prices::base_prices(model))
}

/// The changes between successive observed copies of the live feed, `(day, feed)` in day
/// order: per (provider, model id) an `added`, `changed` (input, output or cache price) or
/// `removed` row dated by the later copy, with `observed_after` the earlier copy's day.
pub fn observed_changes(copies: &[(String, Value)]) -> Vec<ChangeRow> {
    use crate::store::versions::same_price as same;
    let prices = |day: &str, feed: &Value| -> BTreeMap<(String, String), Prices> {
        genai_prices::models(feed)
            .filter_map(|(slug, id, m)| Some(((slug, id.to_string()), price_on(m, day)?)))
            .collect()
    };
    let mut rows = Vec::new();
    for pair in copies.windows(2) {
        let ((before_day, before), (day, after)) = (&pair[0], &pair[1]);
        let (old, new) = (prices(before_day, before), prices(day, after));
        let row = |(provider, id): &(String, String), event: &str, p: Option<&Prices>| ChangeRow {
            provider_id: provider.clone(),
            model_id: id.clone(),
            observed_date: day.clone(),
            event: event.to_string(),
            input_mtok: p.and_then(|p| p.input),
            output_mtok: p.and_then(|p| p.output),
            cache_read_mtok: p.and_then(|p| p.cache_read),
            cache_write_mtok: p.and_then(|p| p.cache_write),
            observed_after: Some(before_day.clone()),
        };
        for (key, p) in &new {
            match old.get(key) {
                None => rows.push(row(key, "added", Some(p))),
                // Compared at 6 significant digits: a float artefact is no change
                // (docs/sync.md, "Versions").
                Some(o)
                    if !(same(o.input, p.input)
                        && same(o.output, p.output)
                        && same(o.cache_read, p.cache_read)
                        && same(o.cache_write, p.cache_write)) =>
                {
                    rows.push(row(key, "changed", Some(p)))
                }
                Some(_) => {}
            }
        }
        rows.extend(
            old.keys()
                .filter(|k| !new.contains_key(*k))
                .map(|k| row(k, "removed", None)),
        );
    }
    rows
}

/// Builds the price history and the prices in effect on the observation day `day`, keyed
/// by (provider slug, provider's model id), for offerings whose price is scheduled.
pub fn build(
    rows: &[ChangeRow],
    live: &Value,
    day: &str,
    resolved: &Resolved,
    report: &mut Report,
) -> (
    Vec<price_history::Model>,
    BTreeMap<(String, String), Prices>,
) {
    let mut by_id: BTreeMap<(String, String), Vec<&ChangeRow>> = BTreeMap::new();
    for row in rows {
        by_id
            .entry((genai_prices::seller(&row.provider_id), row.model_id.clone()))
            .or_default()
            .push(row);
    }
    type Schedule = (Option<Prices>, Vec<(String, Prices)>);
    let mut constraints: BTreeMap<(String, String), Schedule> = BTreeMap::new();
    for (slug, id, m) in genai_prices::models(live) {
        let dated = dated_constraints(m, day);
        if !dated.is_empty() {
            constraints.insert((slug, id.to_string()), (unconstrained(m), dated));
        }
    }
    // Which raw id speaks for each (model, provider): the one the offering uses, else the
    // one with the longest history, so two spellings never give overlapping periods.
    let offered: BTreeMap<(&str, &str), &str> = resolved
        .offerings
        .iter()
        .map(|o| {
            (
                (o.model_slug.as_str(), o.provider_slug.as_str()),
                o.provider_model_id.as_str(),
            )
        })
        .collect();
    let offer_prices: BTreeMap<(&str, &str), Prices> = resolved
        .offerings
        .iter()
        .map(|o| {
            (
                (o.model_slug.as_str(), o.provider_slug.as_str()),
                Prices {
                    input: o.input_price,
                    output: o.output_price,
                    cache_read: o.cache_read_price,
                    cache_write: o.cache_write_price,
                    ..Prices::default()
                },
            )
        })
        .collect();
    let mut chosen: BTreeMap<(String, String), (bool, usize, String)> = BTreeMap::new();
    let ids: std::collections::BTreeSet<(String, String)> =
        by_id.keys().chain(constraints.keys()).cloned().collect();
    for (provider, id) in &ids {
        report.read(SOURCE);
        // A mode entry's prices (`…:batch`) are a variant's, never the offering's history
        // (docs/data.md, "Price modes").
        if crate::ingest::names::price_mode(id, None).is_some() {
            report.matched(SOURCE);
            continue;
        }
        let Some(model) = resolved.lookup(id) else {
            report.unmatched(SOURCE, id);
            continue;
        };
        report.matched(SOURCE);
        let offered_id = offered.get(&(model, provider.as_str()));
        let is_offered = offered_id == Some(&id.as_str());
        // A live entry of the feed that the offering did not pick is another product of the
        // provider (OpenRouter's floating `deepseek/deepseek-v4-pro` beside the dated
        // `-0813` the model's slug names): its schedule is not this offering's history.
        if offered_id.is_some()
            && !is_offered
            && constraints.contains_key(&(provider.clone(), id.clone()))
        {
            continue;
        }
        let len = by_id
            .get(&(provider.clone(), id.clone()))
            .map_or(0, Vec::len);
        let cand = (is_offered, len, id.clone());
        let slot = chosen
            .entry((model.to_string(), provider.clone()))
            .or_insert_with(|| cand.clone());
        if (cand.0, cand.1, std::cmp::Reverse(&cand.2))
            > (slot.0, slot.1, std::cmp::Reverse(&slot.2))
        {
            *slot = cand;
        }
    }
    let mut out = Vec::new();
    let mut current = BTreeMap::new();
    for ((model, provider), (_, _, id)) in chosen {
        let key = (provider.clone(), id.clone());
        let changes = by_id.get(&key).map(Vec::as_slice).unwrap_or_default();
        let mut periods = periods_from_changes(changes);
        if let Some((before, dated)) = constraints.get(&key) {
            // The announced schedule supersedes what the log saw from its first date on.
            let first = dated[0].0.clone();
            periods.retain(|p| p.from < first);
            if let Some(last) = periods.last_mut()
                && last.to.as_ref().is_none_or(|t| *t > first)
            {
                last.to = Some(first.clone());
            }
            // The log may start after the first change (o3 was cut on 2025-06-10, the log
            // starts on 2025-06-22): the unconstrained price ran from the release until then.
            if periods.is_empty()
                && let Some(before) = before
                && let Some(from) = release_of(resolved, &model).filter(|d| *d < first)
            {
                periods.push(Period {
                    prices: before.clone(),
                    from,
                    to: Some(first.clone()),
                    observed_after: None,
                });
            }
            for (i, (start, prices)) in dated.iter().enumerate() {
                let to = dated.get(i + 1).map(|(s, _)| s.clone());
                periods.push(Period {
                    prices: prices.clone(),
                    from: start.clone(),
                    to,
                    observed_after: None,
                });
            }
            let in_effect = dated
                .iter()
                .rev()
                .find(|(start, _)| start.as_str() <= day)
                .map(|(_, p)| p.clone());
            if let Some(p) = in_effect {
                current.insert(key.clone(), p);
            }
        }
        // The open period is the current offering's price. They differ only where the log
        // follows another entry than the standard price (DeepSeek's off-peak discount since
        // genai-prices added time-of-day windows), so the offering's price wins and the
        // merge below folds the artefact into the period before.
        let offering = current
            .get(&key)
            .or_else(|| offer_prices.get(&(model.as_str(), provider.as_str())));
        if let (Some(open), Some(now)) = (periods.last_mut().filter(|p| p.to.is_none()), offering) {
            open.prices = Prices {
                tiers: Vec::new(),
                ..now.clone()
            };
        }
        // A period at an absurd price (negative, not finite, over the ceiling) is dropped
        // like any other upstream value out of range (docs/security.md).
        for p in merged(periods)
            .into_iter()
            .filter(|p| super::validate::prices(&p.prices).is_ok())
        {
            out.push(price_history::Model {
                id: 0,
                model_slug: model.clone(),
                provider_slug: provider.clone(),
                input_price: p.prices.input,
                output_price: p.prices.output,
                cache_read_price: p.prices.cache_read,
                cache_write_price: p.prices.cache_write,
                effective_from: p.from,
                effective_to: p.to,
                observed_after: p.observed_after,
                source: if constraints.contains_key(&key) && changes.is_empty() {
                    genai_prices::SOURCE.to_string()
                } else {
                    SOURCE.to_string()
                },
            });
        }
    }
    (out, current)
}

/// The first price each live-feed entry schedules after `day`: (provider slug, model id) →
/// (its start date, its prices).
pub fn upcoming(live: &Value, day: &str) -> BTreeMap<(String, String), (String, Prices)> {
    genai_prices::models(live)
        .filter_map(|(slug, id, m)| {
            let next = m
                .get("prices")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|e| {
                    let start = e.get("constraint")?.get("start_date")?.as_str()?;
                    Some((start.to_string(), prices_of(e.get("prices")?)))
                })
                .filter(|(start, _)| start.as_str() > day)
                .min_by(|a, b| a.0.cmp(&b.0))?;
            Some(((slug, id.to_string()), next))
        })
        .collect()
}

/// Sets the announced next price of the offerings the live feed priced.
pub fn apply_upcoming(
    upcoming: &BTreeMap<(String, String), (String, Prices)>,
    offerings: &mut [entity::offering::Model],
) {
    for o in offerings
        .iter_mut()
        .filter(|o| o.source == genai_prices::SOURCE)
    {
        if let Some((from, p)) =
            upcoming.get(&(o.provider_slug.clone(), o.provider_model_id.clone()))
        {
            o.upcoming = entity::offering::Upcoming {
                effective_from: from.clone(),
                input_price: p.input,
                output_price: p.output,
                cache_read_price: p.cache_read,
                cache_write_price: p.cache_write,
            }
            .encode();
        }
    }
}

/// Sets the price of offerings whose live-feed entry schedules a price that is in effect
/// on the snapshot date (o3's 2025-06-10 cut, for example).
pub fn apply_current(
    current: &BTreeMap<(String, String), Prices>,
    offerings: &mut [entity::offering::Model],
) {
    for o in offerings
        .iter_mut()
        .filter(|o| o.source == genai_prices::SOURCE)
    {
        if let Some(p) = current.get(&(o.provider_slug.clone(), o.provider_model_id.clone())) {
            o.input_price = p.input;
            o.output_price = p.output;
            o.cache_read_price = p.cache_read;
            o.cache_write_price = p.cache_write;
            o.tiers = entity::offering::Tier::encode(&p.tiers);
            o.unit_prices = entity::offering::UnitPrice::encode(&p.unit_prices);
        }
    }
}

/// The genai-prices price history of one run: the price periods, and the price in effect on
/// the run's day by (provider slug, provider's model id), which replaces the standard price
/// of the offerings genai-prices serves (step 2 of `super::offerings`).
pub struct GenaiHistory {
    pub periods: Vec<price_history::Model>,
    pub current: BTreeMap<(String, String), Prices>,
    /// The first day the log or a copy read shows the feed: the start of its record.
    pub since: Option<String>,
    /// The day of the earliest copy read: the start of the record of the ids entries bill,
    /// which the log does not follow.
    pub copies_since: Option<String>,
    /// Models first listed on the day their provider entered the feed (model → day).
    pub openings: BTreeMap<String, String>,
}

/// Reads the genai-prices price history: the derived price-change log, the changes between
/// the live feed's observed copies (the archive's, then `live`), and the live feed's dated
/// prices. Earlier sightings in them date the models' `first_seen`. None when the history is
/// excluded or the live feed was not read.
pub fn read_genai_prices(
    opts: &Options,
    days: &Days,
    live: Option<&Value>,
    resolved: &Resolved,
    first_seen: &mut BTreeMap<String, String>,
    report: &mut Report,
) -> Result<Option<GenaiHistory>, IngestError> {
    let Some(data) = live.filter(|_| !opts.exclude.contains(SOURCE)) else {
        return Ok(None);
    };
    let path = opts.price_changes.clone().unwrap_or_else(|| {
        opts.sources
            .join("../derived/genai_prices_git_price_changes.csv")
    });
    // The derived log is the project's own file, beside the raw copies; a data directory
    // filled by `mds sync` has none unless given, and then the history is the live
    // feed's dated prices alone.
    let mut rows = if opts.price_changes.is_some() || path.exists() {
        load(&path)?
    } else {
        Vec::new()
    };
    let mut copies = archived_copies(opts, &days.genai_prices)?;
    copies.push((days.genai_prices.clone(), data.clone()));
    rows.extend(observed_changes(&copies));
    super::first_seen::in_log(&rows, resolved, first_seen);
    // The log follows entries by their own id; the ids an entry bills (Moonshot's
    // `moonshot-v1-128k` entry billing `moonshot-v1-128k-vision-preview`) are seen in the
    // copies that list them.
    for (day, copy) in &copies {
        let billed = genai_prices::billed_ids(copy);
        super::first_seen::in_copy(day, billed, resolved, first_seen);
    }
    let copies_since = copies.first().map(|(day, _)| day.clone());
    let since = rows.iter().map(|r| r.observed_date.clone()).min();
    let openings = super::first_seen::openings(&rows, resolved);
    let (periods, current) = build(&rows, data, &days.today, resolved, report);
    Ok(Some(GenaiHistory {
        periods,
        current,
        since,
        copies_since,
        openings,
    }))
}

/// The live feed's prices are as of the day its copy was observed (`day`); its dated
/// prices take effect by the run's day ([`read_genai_prices`]).
pub fn date_live_prices(records: &mut [ModelRecord], day: &str) {
    for r in records
        .iter_mut()
        .filter(|r| r.source == genai_prices::SOURCE && r.as_of.is_some())
    {
        r.as_of = Some(day.to_string());
    }
}

/// A genai-prices mode entry's price is the one in effect on `today`, as the standard
/// prices' are ([`apply_current`]): sets it on the mode entries of `records`.
pub fn date_mode_entries(live: &Value, today: &str, records: &mut [ModelRecord]) {
    let entries: BTreeMap<(String, &str), &Value> = genai_prices::models(live)
        .map(|(p, id, m)| ((p, id), m))
        .collect();
    for r in records
        .iter_mut()
        .filter(|r| r.mode.is_some() && r.source == genai_prices::SOURCE)
    {
        let key = (r.provider.clone().unwrap_or_default(), r.raw_id.as_str());
        if let Some(p) = entries.get(&key).and_then(|m| price_on(m, today)) {
            r.prices = Some(p);
        }
    }
}

/// The earlier observed copies of the live feed, oldest first: the archive's day
/// directories before `day` (the current copy's).
fn archived_copies(opts: &Options, day: &str) -> Result<Vec<(String, Value)>, IngestError> {
    let root = opts
        .archive
        .clone()
        .unwrap_or_else(|| opts.sources.join("../archive"))
        .join(genai_prices::SOURCE);
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Ok(Vec::new());
    };
    let mut days: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_ok() && d.as_str() < day)
        .collect();
    days.sort();
    days.into_iter()
        .map(|d| {
            let feed = genai_prices::load_copy(&root.join(&d))?;
            Ok((d, feed))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(date: &str, event: &str, input: Option<f64>) -> ChangeRow {
        ChangeRow {
            provider_id: "openai".into(),
            model_id: "gpt-x".into(),
            observed_date: date.into(),
            event: event.into(),
            input_mtok: input,
            output_mtok: input.map(|i| i * 4.0),
            cache_read_mtok: None,
            cache_write_mtok: None,
            observed_after: None,
        }
    }

    #[test]
    fn changes_become_closed_and_open_periods() {
        let rows = [
            row("2025-06-22", "initial", Some(5.0)),
            row("2025-07-04", "changed", Some(2.5)),
        ];
        let refs: Vec<&ChangeRow> = rows.iter().collect();
        let p = periods_from_changes(&refs);
        assert_eq!(p.len(), 2);
        assert_eq!(
            (p[0].from.as_str(), p[0].to.as_deref()),
            ("2025-06-22", Some("2025-07-04"))
        );
        assert_eq!((p[1].prices.input, p[1].to.as_deref()), (Some(2.5), None));
    }

    #[test]
    fn periods_without_a_price_change_merge() {
        let rows = [
            row("2025-06-22", "initial", Some(5.0)),
            row("2025-07-04", "changed", Some(5.0)),
            row("2025-08-01", "changed", Some(4.0)),
        ];
        let refs: Vec<&ChangeRow> = rows.iter().collect();
        let p = merged(periods_from_changes(&refs));
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].to.as_deref(), Some("2025-08-01"));
    }

    #[test]
    fn the_unconstrained_entry_is_the_price_before_the_first_dated_change() {
        let m = serde_json::json!({"prices": [
            {"prices": {"input_mtok": 10, "output_mtok": 40}},
            {"constraint": {"start_date": "2025-06-10"}, "prices": {"input_mtok": 2, "output_mtok": 8}},
            {"constraint": {"start_date": "2099-01-01"}, "prices": {"input_mtok": 1, "output_mtok": 4}}
        ]});
        assert_eq!(unconstrained(&m).and_then(|p| p.input), Some(10.0));
        let dated = dated_constraints(&m, "2026-11-10");
        assert_eq!(
            dated.len(),
            1,
            "changes announced after the snapshot are not history"
        );
        assert_eq!(dated[0].0, "2025-06-10");
    }

    #[test]
    fn removal_closes_the_open_period() {
        let rows = [
            row("2025-06-22", "added", Some(1.0)),
            row("2025-09-01", "removed", None),
        ];
        let refs: Vec<&ChangeRow> = rows.iter().collect();
        let p = periods_from_changes(&refs);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].to.as_deref(), Some("2025-09-01"));
    }
}

#[cfg(test)]
mod observation_tests {
    use super::*;

    fn feed(models: serde_json::Value) -> Value {
        serde_json::json!([{"id": "mistral", "models": models}])
    }

    #[test]
    fn changes_between_copies_are_dated_by_the_later_copy_and_say_after_which() {
        let august = feed(serde_json::json!([
            {"id": "kept", "prices": {"input_mtok": 1, "output_mtok": 2}},
            {"id": "repriced", "prices": {"input_mtok": 0.9, "output_mtok": 0.9}},
            {"id": "dropped", "prices": {"input_mtok": 1, "output_mtok": 1}}
        ]));
        let november = feed(serde_json::json!([
            {"id": "kept", "prices": {"input_mtok": 1, "output_mtok": 2}},
            {"id": "repriced", "prices": {"input_mtok": 2, "output_mtok": 6}},
            {"id": "new", "prices": [
                {"prices": {"input_mtok": 1, "output_mtok": 3}},
                {"constraint": {"start_date": "2026-11-01"}, "prices": {"input_mtok": 4, "output_mtok": 8}},
                {"constraint": {"start_date": "2026-12-01"}, "prices": {"input_mtok": 5, "output_mtok": 9}}
            ]}
        ]));
        let rows = observed_changes(&[
            ("2026-08-21".into(), august),
            ("2026-11-10".into(), november),
        ]);
        let seen: Vec<(&str, &str, Option<f64>)> = rows
            .iter()
            .map(|r| (r.model_id.as_str(), r.event.as_str(), r.input_mtok))
            .collect();
        assert_eq!(
            seen,
            [
                // The price in effect on the observation day, not the announced one.
                ("new", "added", Some(4.0)),
                ("repriced", "changed", Some(2.0)),
                ("dropped", "removed", None),
            ]
        );
        assert!(rows.iter().all(|r| r.observed_date == "2026-11-10"
            && r.observed_after.as_deref() == Some("2026-08-21")));
    }

    /// A float artefact between two copies (75 and 75.0001 per million, the same price at 6
    /// significant digits) is no change; a real one (75.01) is.
    #[test]
    fn a_float_artefact_between_copies_is_no_change() {
        let copy = |output: f64| {
            feed(serde_json::json!([
                {"id": "opus", "prices": {"input_mtok": 15, "output_mtok": output}}
            ]))
        };
        let between = |later: f64| {
            observed_changes(&[
                ("2026-10-03".into(), copy(75.0)),
                ("2026-11-04".into(), copy(later)),
            ])
        };
        assert!(between(75.0001).is_empty());
        assert_eq!(between(75.01).len(), 1);
    }

    #[test]
    fn one_copy_is_no_change() {
        let only = feed(serde_json::json!([{"id": "a", "prices": {"input_mtok": 1}}]));
        assert!(observed_changes(&[("2026-11-10".into(), only)]).is_empty());
    }
}
