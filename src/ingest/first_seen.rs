//! When each model was first observed (`first_seen`, docs/data.md): the earliest of the
//! observation days of the sources listing it now ([`in_records`]), the rows of the
//! genai-prices price log and the changes between its observed copies ([`in_log`]),
//! LiteLLM's earlier copies ([`in_copy`]), and the served dataset's own record
//! (`super::prior::carry_first_seen`).

use std::collections::BTreeMap;

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

/// A snapshot whose slug names a full date was not seen before that day: what its undated
/// alias was seen as earlier was the line's older snapshots (`qwen-plus-2025-09-11`, whose
/// alias `qwen-plus` was listed by 2025-06-22; docs/methodology.md, "first_seen").
pub fn not_before_own_day(first_seen: &mut BTreeMap<String, String>) {
    for (slug, seen) in first_seen.iter_mut() {
        let Some((_, date)) = names::split_date(slug) else {
            continue;
        };
        let d = date.replace('-', "");
        if d.len() == 8 && d.bytes().all(|b| b.is_ascii_digit()) {
            let day = format!("{}-{}-{}", &d[..4], &d[4..6], &d[6..]);
            if *seen < day {
                *seen = day;
            }
        }
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
        ]);
        not_before_own_day(&mut seen);
        assert_eq!(seen["qwen-plus-2025-09-11"], "2025-09-11");
        assert_eq!(seen["gpt-4o-2024-05-13"], "2025-06-22");
        assert_eq!(seen["qwen-plus"], "2025-06-22");
    }
}
