//! The benchmark table: every benchmark with a fixed definition (name, category, unit,
//! publisher, link, description), one row each in `data/benchmarks.csv`. Which of them count
//! in the average and the index is the reviewed table `data/benchmark_review.csv`
//! ([`super::review`]). Per-category LiveBench figures are components of the LiveBench global
//! average, and Elo ratings are not on a 0-100 scale: neither counts in `average_score`.

use std::sync::OnceLock;

const BENCHMARKS_CSV: &str = include_str!("../../data/benchmarks.csv");

/// A benchmark's definition: one row of `data/benchmarks.csv` (every one of them is
/// higher-is-better).
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct Def {
    pub slug: String,
    pub name: String,
    pub category: String,
    pub unit: String,
    #[serde(deserialize_with = "yes_no")]
    pub in_average: bool,
    /// The benchmark's publisher among our sources: its own figures are headline scores.
    pub source: String,
    pub source_url: String,
    pub description: String,
}

fn yes_no<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    match <&str as serde::Deserialize>::deserialize(d)? {
        "yes" => Ok(true),
        "no" => Ok(false),
        other => Err(serde::de::Error::custom(format!(
            "in_average is yes or no, got {other:?}"
        ))),
    }
}

/// Parses a benchmark table.
pub fn parse(text: &str) -> Result<Vec<Def>, String> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .map(|row| row.map_err(|e| format!("benchmarks.csv: {e}")))
        .collect()
}

/// The checked-in table, parsed once (a unit test keeps it parseable).
pub fn defs() -> &'static [Def] {
    static DEFS: OnceLock<Vec<Def>> = OnceLock::new();
    DEFS.get_or_init(|| parse(BENCHMARKS_CSV).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_in_table_parses_with_one_row_per_slug() {
        let defs = parse(BENCHMARKS_CSV).unwrap();
        assert!(defs.len() >= 60, "{}", defs.len());
        let slugs: std::collections::BTreeSet<&str> =
            defs.iter().map(|d| d.slug.as_str()).collect();
        assert_eq!(slugs.len(), defs.len(), "a slug is defined twice");
        let aider = defs.iter().find(|d| d.slug == "aider-polyglot").unwrap();
        assert_eq!(
            (aider.category.as_str(), aider.in_average),
            ("coding", true)
        );
        assert!(parse("slug,name,category,unit,in_average,source,source_url,description\nx,X,c,u,maybe,s,u,d\n").is_err());
    }
}
