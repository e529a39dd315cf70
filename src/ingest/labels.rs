//! Scoring the catalogue against a labelled truth set (`data/labels.csv`): for each labelled
//! field, how often the merged catalogue is right, and how often each source alone is right
//! where it answers — the measure the vote stage ([`super::merge`]) is judged by
//! (docs/data.md, "Witnesses and votes").
//!
//! The file is CSV with the header `slug,field,value,source,entry,note`: `field` is one of
//! [`FIELDS`]; a list is a `|`-separated set (`text|image`); a boolean is `true`/`false`; a
//! `release_date` may be a month (`YYYY-MM`, compared by prefix); `source` and `entry` cite
//! the raw file and key that support the truth and are not read here. A source's answer for a
//! labelled model is the value its most authoritative record of the model gives.

use std::collections::BTreeMap;
use std::path::Path;

use super::{IngestError, ModelRecord, Resolved, merge, sources};
use crate::snapshot::Snapshot;

/// The fields a label may be about.
pub const FIELDS: [&str; 13] = [
    "name",
    "creator",
    "release_date",
    "context_window",
    "max_output_tokens",
    "input_modalities",
    "output_modalities",
    "open_source",
    "tool_call",
    "reasoning",
    "structured_output",
    "category",
    "task",
];

/// Who is scored besides the sources: the merged catalogue.
pub const MERGED: &str = "merged";

/// One labelled truth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub slug: String,
    pub field: String,
    pub value: String,
}

/// Reads a labels file; a row with an unknown field, or without a slug or value, is an error
/// (a misspelt field would silently score nothing).
pub fn load(path: &Path) -> Result<Vec<Label>, IngestError> {
    let rows = sources::csv_rows(path)?;
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let get = |k: &str| row.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
        let (slug, field, value) = (get("slug"), get("field"), get("value"));
        if !FIELDS.contains(&field.as_str()) || slug.is_empty() || value.is_empty() {
            return Err(IngestError::parse(
                path,
                format!(
                    "row {}: needs a slug, a value and a field among {}",
                    i + 2,
                    FIELDS.join(", ")
                ),
            ));
        }
        out.push(Label { slug, field, value });
    }
    Ok(out)
}

/// What each source alone says of each labelled model: slug (as labelled) → source → field
/// → value.
pub type SourceAnswers = BTreeMap<String, BTreeMap<&'static str, BTreeMap<&'static str, String>>>;

/// The labels at `path`, where given, with what each source alone says of the labelled
/// models (read before the vote merges them).
pub fn read_answers(
    path: Option<&Path>,
    resolved: &Resolved,
) -> Result<Option<(Vec<Label>, SourceAnswers)>, IngestError> {
    let Some(path) = path else {
        return Ok(None);
    };
    let labels = load(path)?;
    let answers = source_answers(&labels, resolved);
    Ok(Some((labels, answers)))
}

/// Each source's answers for the labelled models (read before the models are merged, from
/// their records, best first).
pub fn source_answers(labels: &[Label], resolved: &Resolved) -> SourceAnswers {
    let mut out = SourceAnswers::new();
    for l in labels {
        if out.contains_key(&l.slug) {
            continue;
        }
        let Some(recs) = resolved
            .lookup(&l.slug)
            .and_then(|slug| resolved.models.get(slug).map(|r| (slug, r)))
        else {
            continue;
        };
        let (slug, recs) = recs;
        let mut by_source: BTreeMap<&'static str, Vec<&ModelRecord>> = BTreeMap::new();
        for r in recs {
            by_source.entry(r.source).or_default().push(r);
        }
        let name = recs.iter().find_map(|r| r.name.clone());
        let answers = by_source
            .into_iter()
            .map(|(source, recs)| {
                (
                    source,
                    merge::answers_of(&recs, slug, name.as_deref().unwrap_or(slug)),
                )
            })
            .collect();
        out.insert(l.slug.clone(), answers);
    }
    out
}

/// Right answers of one scorer on one field.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Labels it answered.
    pub answered: usize,
    /// Answers equal to the label.
    pub right: usize,
    /// The merged catalogue's right answers on the same labels (those this scorer
    /// answered): the head-to-head comparison.
    pub merged_right: usize,
}

impl Tally {
    /// Share of its answers that are right (1 when it answered nothing).
    pub fn accuracy(&self) -> f64 {
        if self.answered == 0 {
            1.0
        } else {
            self.right as f64 / self.answered as f64
        }
    }
}

/// The scores of one labels file.
#[derive(Debug, Clone, Default)]
pub struct Scores {
    /// Field → labels of that field.
    pub labels: BTreeMap<String, usize>,
    /// Field → scorer ([`MERGED`] or a source slug) → tally.
    pub tallies: BTreeMap<String, BTreeMap<String, Tally>>,
    /// Labelled slugs that name no model of the catalogue.
    pub missing: Vec<String>,
    /// The merged catalogue's wrong answers: `slug field: label ≠ answer`.
    pub wrong: Vec<String>,
}

/// Whether `answer` is the labelled `truth` for `field` (names by their letters and digits,
/// sets as sets, a month's date by prefix, numbers by value).
pub fn same(field: &str, truth: &str, answer: &str) -> bool {
    let t = truth.trim().to_lowercase();
    let a = answer.trim().to_lowercase();
    match field {
        "name" => {
            let key = |s: &str| {
                s.chars()
                    .filter(|c| c.is_alphanumeric())
                    .collect::<String>()
            };
            key(&t) == key(&a)
        }
        "release_date" => a.starts_with(&t),
        "context_window" | "max_output_tokens" => {
            let n = |s: &str| s.replace([',', '_'], "").parse::<i64>().ok();
            n(&t).is_some() && n(&t) == n(&a)
        }
        "input_modalities" | "output_modalities" => {
            let set = |s: &str| {
                s.split(['|', ','])
                    .map(|x| x.trim().to_string())
                    .filter(|x| !x.is_empty())
                    .collect::<std::collections::BTreeSet<String>>()
            };
            set(&t) == set(&a)
        }
        _ => t == a,
    }
}

/// The merged catalogue's answer for a field of a model.
fn merged_answer(m: &entity::model::Model, field: &str) -> Option<String> {
    let b = |v: Option<bool>| v.map(|b| b.to_string());
    match field {
        "name" => Some(m.name.clone()),
        "creator" => m.creator_slug.clone(),
        "release_date" => m.release_date.clone(),
        "context_window" => m.context_window.map(|n| n.to_string()),
        "max_output_tokens" => m.max_output_tokens.map(|n| n.to_string()),
        "input_modalities" => Some(m.input_modalities.replace(',', "|")),
        "output_modalities" => Some(m.output_modalities.replace(',', "|")),
        "open_source" => b(m.open_source),
        "tool_call" => b(m.tool_call),
        "reasoning" => b(m.reasoning),
        "structured_output" => b(m.structured_output),
        "category" => Some(m.category.to_string()),
        "task" => Some(m.task.to_string()),
        _ => None,
    }
}

/// Scores the built snapshot and each source's answers against `labels`.
pub fn score(labels: &[Label], answers: &SourceAnswers, s: &Snapshot) -> Scores {
    let by_slug: BTreeMap<&str, &entity::model::Model> =
        s.models.iter().map(|m| (m.slug.as_str(), m)).collect();
    let aliases: BTreeMap<&str, &str> = s
        .aliases
        .iter()
        .map(|a| (a.alias.as_str(), a.model_slug.as_str()))
        .collect();
    let mut out = Scores::default();
    for l in labels {
        *out.labels.entry(l.field.clone()).or_default() += 1;
        let model = by_slug.get(l.slug.as_str()).copied().or_else(|| {
            aliases
                .get(l.slug.as_str())
                .and_then(|slug| by_slug.get(slug).copied())
        });
        let Some(model) = model else {
            if !out.missing.contains(&l.slug) {
                out.missing.push(l.slug.clone());
            }
            continue;
        };
        let tallies = out.tallies.entry(l.field.clone()).or_default();
        let merged = merged_answer(model, &l.field);
        let merged_ok = merged
            .as_deref()
            .is_some_and(|a| same(&l.field, &l.value, a));
        let mut count = |who: &str, answer: Option<&str>| {
            let Some(answer) = answer else { return };
            let t = tallies.entry(who.to_string()).or_default();
            t.answered += 1;
            t.right += usize::from(same(&l.field, &l.value, answer));
            t.merged_right += usize::from(merged_ok);
        };
        count(MERGED, merged.as_deref());
        if !merged_ok {
            out.wrong.push(format!(
                "{} {}: {} ≠ {}",
                l.slug,
                l.field,
                l.value,
                merged.as_deref().unwrap_or("null")
            ));
        }
        for (source, fields) in answers.get(&l.slug).into_iter().flatten() {
            count(source, fields.get(l.field.as_str()).map(String::as_str));
        }
    }
    out
}

impl Scores {
    /// One line per field: its labels, the merged catalogue's right answers over the labels
    /// it answered, then each source's, with the merged catalogue's on those same labels.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (field, n) in &self.labels {
            out.push_str(&format!("labels {field} ({n}):"));
            let tallies = self.tallies.get(field);
            let merged = tallies
                .and_then(|t| t.get(MERGED))
                .copied()
                .unwrap_or_default();
            out.push_str(&format!(
                " merged {}/{} ({:.0}%);",
                merged.right,
                merged.answered,
                100.0 * merged.accuracy()
            ));
            for (who, t) in tallies.into_iter().flatten().filter(|(w, _)| *w != MERGED) {
                out.push_str(&format!(
                    " {who} {}/{} ({:.0}%, merged {}),",
                    t.right,
                    t.answered,
                    100.0 * t.accuracy(),
                    t.merged_right
                ));
            }
            if out.ends_with(',') {
                out.pop();
            }
            out.push('\n');
        }
        for slug in &self.missing {
            out.push_str(&format!("labels: {slug} is not in the catalogue\n"));
        }
        for line in &self.wrong {
            out.push_str(&format!("labels: merged wrong: {line}\n"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_compare_as_their_field_says() {
        assert!(same("input_modalities", "text|image", "image,text"));
        assert!(!same("input_modalities", "text|image", "text"));
        assert!(same("release_date", "2025-03", "2025-03-12"));
        assert!(!same("release_date", "2025-03-12", "2025-03-13"));
        assert!(same("context_window", "1,000,000", "1000000"));
        assert!(!same("context_window", "x", "x"));
        assert!(same("name", "MiniMax M3", "MiniMax-M3"));
        assert!(same("open_source", "true", "True"));
        assert!(!same("task", "chat", "embedding"));
    }

    #[test]
    fn the_merged_catalogue_and_each_source_are_scored_where_they_answer() {
        let mut s = Snapshot::default();
        let mut m = crate::ingest::catalog::blank_model("m-1");
        m.context_window = Some(8192);
        s.models.push(m);
        let labels = vec![
            Label {
                slug: "m-1".into(),
                field: "context_window".into(),
                value: "8192".into(),
            },
            Label {
                slug: "gone".into(),
                field: "context_window".into(),
                value: "1".into(),
            },
        ];
        let mut answers = SourceAnswers::new();
        answers.entry("m-1".into()).or_default().insert(
            "models-dev",
            [("context_window", "128000".to_string())].into(),
        );
        answers
            .entry("m-1".into())
            .or_default()
            .insert("genai-prices", BTreeMap::new());
        let scores = score(&labels, &answers, &s);
        let t = &scores.tallies["context_window"];
        assert_eq!(
            t[MERGED],
            Tally {
                answered: 1,
                right: 1,
                merged_right: 1
            }
        );
        assert_eq!(
            t["models-dev"],
            Tally {
                answered: 1,
                right: 0,
                merged_right: 1
            }
        );
        assert!(!t.contains_key("genai-prices"), "it does not answer");
        assert_eq!(scores.missing, ["gone"]);
        assert!(
            scores
                .render()
                .contains("labels: gone is not in the catalogue")
        );
    }
}
