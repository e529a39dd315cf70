//! When each model was first observed (`first_seen`, docs/data.md): the earliest of the
//! observation days of the sources listing it now ([`in_records`]), the rows of the
//! genai-prices price log and the changes between its observed copies ([`in_log`]), the
//! ids its copies' entries bill and LiteLLM's earlier copies ([`in_copy`]), and the served
//! dataset's own record (`super::prior::carry_first_seen`). A first sighting dates a model
//! that no source dates only where it is news: [`stand_ins`].

use std::collections::{BTreeMap, BTreeSet};

use entity::vocab::DateBasis;

use super::history::ChangeRow;
use super::{Resolved, names, sources};

/// The day each model was first observed by the sources listing it now: each source's
/// observation day (its current copy's, else its bundled snapshot date).
pub fn in_records(
    resolved: &Resolved,
    observed: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let day = |source: &str| {
        observed
            .get(source)
            .cloned()
            .or_else(|| sources::meta(source).map(|m| m.snapshot_date.to_string()))
    };
    resolved
        .models
        .iter()
        .filter_map(|(slug, recs)| {
            let first = recs.iter().filter_map(|r| day(r.source)).min()?;
            Some((slug.clone(), first))
        })
        .collect()
}

/// Earlier sightings in the price log and between observed copies: the first row of any id
/// of the model that is not a removal.
pub fn in_log(rows: &[ChangeRow], resolved: &Resolved, first_seen: &mut BTreeMap<String, String>) {
    for row in rows.iter().filter(|r| r.event != "removed") {
        let Some(slug) = resolved.lookup(&row.model_id) else {
            continue;
        };
        let seen = first_seen
            .entry(slug.to_string())
            .or_insert_with(|| row.observed_date.clone());
        if row.observed_date < *seen {
            seen.clone_from(&row.observed_date);
        }
    }
}

/// The models a log row lists on the first day its provider appears in the log (model →
/// day): the day the feed began covering that provider, so no news of the model
/// (genai-prices added Voyage AI on 2026-06-19, `voyage-2` of 2023 among its models).
pub fn openings(rows: &[ChangeRow], resolved: &Resolved) -> BTreeMap<String, String> {
    let mut opened: BTreeMap<&str, &str> = BTreeMap::new();
    for row in rows.iter().filter(|r| r.event != "removed") {
        let day = opened
            .entry(row.provider_id.as_str())
            .or_insert(row.observed_date.as_str());
        if row.observed_date.as_str() < *day {
            *day = row.observed_date.as_str();
        }
    }
    rows.iter()
        .filter(|r| r.event != "removed")
        .filter(|r| opened.get(r.provider_id.as_str()) == Some(&r.observed_date.as_str()))
        .filter_map(|r| {
            Some((
                resolved.lookup(&r.model_id)?.to_string(),
                r.observed_date.clone(),
            ))
        })
        .collect()
}

/// A copy of a source observed on `day` that lists `ids`: the models they name were seen
/// by then.
pub fn in_copy<'a>(
    day: &str,
    ids: impl Iterator<Item = &'a str>,
    resolved: &Resolved,
    first_seen: &mut BTreeMap<String, String>,
) {
    for id in ids {
        if let Some(slug) = resolved.lookup(id) {
            let seen = first_seen
                .entry(slug.to_string())
                .or_insert_with(|| day.to_string());
            if day < seen.as_str() {
                *seen = day.to_string();
            }
        }
    }
}

/// A snapshot whose slug names a full date was not seen before that day, nor one whose build
/// tag names a month before that month: what its undated alias was seen as earlier was the
/// line's older snapshots (`qwen-plus-2025-09-11`, whose alias `qwen-plus` was listed by
/// 2025-06-22; `mistral-large-2512`, whose `mistral-large` was Mistral Large 2 then;
/// docs/methodology.md, "first_seen").
pub fn not_before_own_day(first_seen: &mut BTreeMap<String, String>) {
    for (slug, seen) in first_seen.iter_mut() {
        let Some((_, date)) = names::split_date(slug) else {
            continue;
        };
        let d = date.replace('-', "");
        let day = if d.len() == 8 && d.bytes().all(|b| b.is_ascii_digit()) {
            format!("{}-{}-{}", &d[..4], &d[4..6], &d[6..])
        } else if let Some(month) = build_month(&d) {
            format!("{month}-01")
        } else {
            continue;
        };
        if *seen < day {
            *seen = day;
        }
    }
}

/// The month (`2025-12`) a four-digit build tag names where it can only be a year and a
/// month (Mistral's `-2512`; `-1106` may be a month and a day, and is left alone).
fn build_month(tag: &str) -> Option<String> {
    let (a, b) = (
        tag.get(..2)?.parse::<u32>().ok()?,
        tag.get(2..)?.parse::<u32>().ok()?,
    );
    (tag.len() == 4 && a > 12 && (1..=12).contains(&b)).then(|| format!("20{a:02}-{b:02}"))
}

/// The first day the build observed each source (source → day): the start of its record.
pub type Starts = BTreeMap<String, String>;

/// Each source the records name starts its record on its copy's observation day; an earlier
/// copy or log row read later moves the start back ([`lower`]).
pub fn starts(resolved: &Resolved, observed: &BTreeMap<String, String>) -> Starts {
    let mut out = Starts::new();
    for r in resolved.models.values().flatten() {
        if out.contains_key(r.source) {
            continue;
        }
        let day = observed
            .get(r.source)
            .cloned()
            .or_else(|| sources::meta(r.source).map(|m| m.snapshot_date.to_string()));
        if let Some(day) = day {
            out.insert(r.source.to_string(), day);
        }
    }
    out
}

/// A copy (or log row) of `source` observed on `day` was read: its record starts by then.
pub fn lower(starts: &mut Starts, source: &str, day: &str) {
    let start = starts
        .entry(source.to_string())
        .or_insert_with(|| day.to_string());
    if day < start.as_str() {
        *start = day.to_string();
    }
}

/// The models whose first sighting stands in for a release date (docs/data.md, "New and
/// first seen"): those first seen on a day that opens no source's record, nor its
/// provider's in the genai-prices log (`openings`), so new when first listed. A model
/// already listed when observation began may be of any age (LiteLLM's `pplx-70b-chat`, of
/// 2023, is in the first LiteLLM copy read, 2026-10-03): no date stands in for its release.
/// The served dataset's word carries: a model it dated by its sighting keeps that date, one
/// it left undated stays so, whatever copies this build reads.
pub fn stand_ins(
    resolved: &Resolved,
    first_seen: &BTreeMap<String, String>,
    starts: &Starts,
    openings: &BTreeMap<String, String>,
    prior: Option<&super::prior::Prior>,
) -> BTreeSet<String> {
    resolved
        .models
        .keys()
        .filter(|slug| {
            if let Some(said) = prior.and_then(|p| p.sighted.get(slug.as_str())) {
                return *said;
            }
            let Some(seen) = first_seen.get(slug.as_str()) else {
                return false;
            };
            // Any source's opening day: a sighting in a log or an earlier copy may come
            // from a source none of the model's current records is from.
            starts.values().all(|start| start != seen) && openings.get(slug.as_str()) != Some(seen)
        })
        .cloned()
        .collect()
}

/// Each model's `date_basis`, once its dates and lifecycle are settled: its release date,
/// else its first sighting where that is news ([`stand_ins`]), else none. A model that
/// arrives retiring is no news whenever it was first listed (Cohere's Command Light, of
/// 2023, first listed by genai-prices in 2026).
pub fn date(models: &mut [entity::model::Model], stand_ins: &BTreeSet<String>) {
    for m in models {
        let ending = m.deprecated || m.deprecation_date.is_some();
        m.date_basis = if m.release_date.is_some() {
            Some(DateBasis::ReleaseDate)
        } else if m.first_seen.is_some() && stand_ins.contains(&m.slug) && !ending {
            Some(DateBasis::FirstSeen)
        } else {
            None
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dated_snapshot_is_not_seen_before_its_day() {
        let mut seen = BTreeMap::from([
            ("qwen-plus-2025-09-11".to_string(), "2025-06-22".to_string()),
            ("gpt-4o-2024-05-13".to_string(), "2025-06-22".to_string()),
            ("qwen-plus".to_string(), "2025-06-22".to_string()),
            ("mistral-large-2512".to_string(), "2025-06-22".to_string()),
            ("gpt-4-1106-preview".to_string(), "2025-06-22".to_string()),
        ]);
        not_before_own_day(&mut seen);
        assert_eq!(seen["mistral-large-2512"], "2025-12-01");
        assert_eq!(seen["gpt-4-1106-preview"], "2025-06-22");
        assert_eq!(seen["qwen-plus-2025-09-11"], "2025-09-11");
        assert_eq!(seen["gpt-4o-2024-05-13"], "2025-06-22");
        assert_eq!(seen["qwen-plus"], "2025-06-22");
    }
}
