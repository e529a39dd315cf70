//! The reviewed benchmark table, `data/benchmark_review.csv`: for every benchmark, whether
//! its scores are on a 0–100 scale (`percent`), whether they enter `average_score`
//! (`in_average`: current, 0–100, not saturated, not an index of other benchmarks), whether
//! they enter the capability fit (`in_index`: every 0–100 benchmark except components of
//! another one and indices), and the reason, which is published with the benchmark.

use std::collections::BTreeMap;

use crate::snapshot::Snapshot;

/// One reviewed benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    pub percent: bool,
    pub in_average: bool,
    pub in_index: bool,
    pub reason: String,
}

const REVIEW_CSV: &str = include_str!("../../data/benchmark_review.csv");

/// The table checked in with this build, by benchmark slug.
pub fn checked_in() -> Result<BTreeMap<String, Review>, String> {
    parse(REVIEW_CSV)
}

pub fn parse(text: &str) -> Result<BTreeMap<String, Review>, String> {
    let yes = |v: &str, col: &str, slug: &str| match v.trim() {
        "yes" => Ok(true),
        "no" => Ok(false),
        other => Err(format!(
            "benchmark_review.csv: {slug}: {col} is {other:?}, not yes/no"
        )),
    };
    let mut out = BTreeMap::new();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    for row in r.records() {
        let row = row.map_err(|e| format!("benchmark_review.csv: {e}"))?;
        let f = |i: usize| row.get(i).unwrap_or_default().trim().to_string();
        let slug = f(0);
        let review = Review {
            percent: yes(&f(1), "percent", &slug)?,
            in_average: yes(&f(2), "in_average", &slug)?,
            in_index: yes(&f(3), "in_index", &slug)?,
            reason: f(4),
        };
        if review.reason.is_empty() || (review.in_average && !review.percent) {
            return Err(format!(
                "benchmark_review.csv: {slug}: incomplete or inconsistent"
            ));
        }
        out.insert(slug, review);
    }
    Ok(out)
}

/// Applies the review to the snapshot's benchmarks; returns the slugs no row reviews
/// (they keep their defaults and stay out of the average and the index).
pub fn apply(s: &mut Snapshot, table: &BTreeMap<String, Review>) -> Vec<String> {
    let mut missing = Vec::new();
    for b in &mut s.benchmarks {
        match table.get(&b.slug) {
            Some(r) => {
                b.in_average = r.in_average;
                if r.percent {
                    b.unit = "percent".into();
                }
                b.average_reason = r.reason.clone();
            }
            None => {
                b.in_average = false;
                b.average_reason = "not reviewed".into();
                missing.push(b.slug.clone());
            }
        }
    }
    missing
}

/// Benchmarks whose headline scores enter the capability fit.
pub fn in_index(table: &BTreeMap<String, Review>) -> impl Fn(&str) -> bool + '_ {
    move |slug| table.get(slug).is_some_and(|r| r.in_index && r.percent)
}
