//! One adapter per public dataset, behind one trait: each reads its own files under the
//! sources directory and adds what it found to [`Collected`] (model records with their
//! prices, provider metadata, scores and agent results as the source names them). `mds
//! ingest` runs the adapters of [`ALL`] in order; `--exclude` takes their slugs. Each
//! adapter also says what the dataset is ([`Meta`]: its name, repository, bundled copy and
//! licence, the row of `GET /api/v1/sources`), so a new source is its file and one line in
//! [`ALL`] (docs/ARCHITECTURE.md, "Add a source").
//!
//! The price history (`genai-prices-history`) is no adapter of its own: it is read after the
//! models are resolved, from the derived price-change log and genai-prices' live feed
//! ([`super::history`]).

pub mod aider;
pub mod bfcl;
pub mod epoch;
pub mod epoch_capabilities;
pub mod genai_prices;
pub mod litellm;
pub mod livebench;
pub mod lmarena;
pub mod models_dev;
pub mod swe_bench;

use std::collections::BTreeMap;
use std::path::Path;

use entity::source;
use serde_json::Value;

use super::catalog::ProviderMeta;
use super::scores::{RawAgent, RawScore};
use super::{IngestError, ModelRecord, Options, Report};

/// What the adapters found, before models are resolved.
#[derive(Debug, Default)]
pub struct Collected {
    /// Models as each source names them, with their prices where the source prices them.
    pub records: Vec<ModelRecord>,
    /// Provider names and websites, by canonical provider slug.
    pub providers: BTreeMap<String, ProviderMeta>,
    /// Scores as each source states them.
    pub scores: Vec<RawScore>,
    /// Agent results as each source states them.
    pub agents: Vec<RawAgent>,
    /// genai-prices' live feed, which the price history reads once models are resolved.
    pub genai_prices: Option<Value>,
    /// What LiteLLM says about the models the others list, applied once they are resolved.
    pub witnesses: Vec<litellm::Witness>,
    /// LiteLLM's entries read as prices at their providers, joined once models are resolved.
    pub offers: Vec<litellm::Offer>,
    /// LiteLLM's entries that price nothing, read for what they state about the model: they
    /// join a model the others list and never make one.
    pub described: Vec<ModelRecord>,
}

/// Where a dataset lives upstream: each file it reads is `base` + its path inside the
/// dataset's directory of the raw layout (`<sources>/<slug>/<path>`), so a fetched file lands
/// where the adapter reads it.
#[derive(Debug, Clone, Copy)]
pub struct Upstream {
    /// The public URL the paths are relative to (ends with `/`).
    pub base: &'static str,
    /// The paths to fetch, given the dataset's last good copy (`<sources>/<slug>/`, which
    /// may be absent): fixed lists, or, for a dataset whose files grow (LiveBench releases),
    /// what that copy and the dataset's own index name.
    pub files: fn(&Path) -> Vec<String>,
}

/// What a dataset is, for the sources table (`GET /api/v1/sources`) and the observation
/// store: the copy bundled with the service, where it comes from and on what terms.
#[derive(Debug, Clone, Copy)]
pub struct Meta {
    /// The dataset's slug: what scores and prices cite, and what `--exclude` takes. It is
    /// also the dataset's directory in the raw layout.
    pub slug: &'static str,
    pub name: &'static str,
    /// GitHub `owner/name`.
    pub repository: &'static str,
    /// The release or commit of the bundled copy.
    pub commit: &'static str,
    /// The day the bundled copy was observed: its figures are as of it.
    pub snapshot_date: &'static str,
    /// SPDX-style licence of the data.
    pub license: &'static str,
    /// Whether the names its scores give are real model versions: a benchmarked name no
    /// pricing or metadata source knows becomes a model of its own
    /// ([`super::scores::unpriced_models`]). An agent leaderboard's model tags (`Llama 3.1`)
    /// are not.
    pub names_models: bool,
}

impl Meta {
    /// The dataset's row in the sources table.
    pub fn row(&self) -> source::Model {
        let Meta {
            slug,
            name,
            repository,
            commit,
            snapshot_date,
            license,
            ..
        } = *self;
        source::Model {
            slug: slug.to_string(),
            name: name.to_string(),
            repository: repository.to_string(),
            commit: commit.to_string(),
            snapshot_date: snapshot_date.to_string(),
            license: license.to_string(),
            attribution: format!("{name} ({repository}, {snapshot_date}), licensed {license}"),
            url: format!("https://github.com/{repository}"),
        }
    }
}

/// What is known of the dataset `slug`: an adapter's, or the price history's (which has no
/// adapter of its own, [`super::history::META`]).
pub fn meta(slug: &str) -> Option<Meta> {
    ALL.iter()
        .map(|s| s.meta())
        .chain([super::history::META])
        .find(|m| m.slug == slug)
}

/// The raw layout's directory of the dataset `slug` ([`Source::dir`]): its own slug unless
/// an adapter says otherwise.
pub fn dir_of(slug: &str) -> &str {
    ALL.iter()
        .find(|s| s.slug() == slug)
        .map_or(slug, |s| s.dir())
}

/// The sources table's row of the dataset `slug`, as bundled.
pub fn row(slug: &str) -> Option<source::Model> {
    meta(slug).map(|m| m.row())
}

/// One public dataset.
pub trait Source: Sync {
    /// What the dataset is.
    fn meta(&self) -> Meta;
    /// The dataset's slug ([`Meta::slug`]).
    fn slug(&self) -> &'static str {
        self.meta().slug
    }
    /// The dataset's directory in the raw layout (`<sources>/<dir>/<path>`, a mirror's too):
    /// its slug, unless its files were published inside another dataset's tree (Epoch's
    /// capabilities index, a file of Epoch's repository on a branch of its own).
    fn dir(&self) -> &'static str {
        self.slug()
    }
    /// Where its files live upstream (what `mds sync` fetches).
    fn upstream(&self) -> Upstream;
    /// Reads the dataset from `dir` (the sources directory) into `into`.
    fn read(
        &self,
        dir: &Path,
        into: &mut Collected,
        report: &mut Report,
    ) -> Result<(), IngestError>;
}

/// Every adapter, in the order they run (pricing and metadata first, then benchmarks).
pub const ALL: &[&dyn Source] = &[
    &genai_prices::GenaiPrices,
    &models_dev::ModelsDev,
    &litellm::LiteLlm,
    &aider::SOURCE,
    &livebench::SOURCE,
    &lmarena::SOURCE,
    &bfcl::SOURCE,
    &epoch::Epoch,
    &epoch_capabilities::EpochCapabilities,
    &swe_bench::SweBench,
];

/// Runs every adapter of [`ALL`] that `opts` does not exclude, in order, over the sources
/// directory.
pub fn read_all(opts: &Options, report: &mut Report) -> Result<Collected, IngestError> {
    let mut found = Collected::default();
    for source in ALL.iter().filter(|s| !opts.exclude.contains(s.slug())) {
        source.read(&opts.sources, &mut found, report)?;
    }
    Ok(found)
}

/// A source that is one table of scores (nothing else): what it is and its reader.
pub struct ScoreTable {
    pub meta: Meta,
    pub upstream: Upstream,
    pub read: fn(&Path, &mut Vec<RawScore>) -> Result<(), IngestError>,
}

impl Source for ScoreTable {
    fn meta(&self) -> Meta {
        self.meta
    }

    fn upstream(&self) -> Upstream {
        self.upstream
    }

    fn read(
        &self,
        dir: &Path,
        into: &mut Collected,
        _report: &mut Report,
    ) -> Result<(), IngestError> {
        (self.read)(dir, &mut into.scores)
    }
}

/// A file of the dataset that cannot be read or parsed.
pub(super) fn err(path: &Path, e: impl std::fmt::Display) -> IngestError {
    IngestError::parse(path, e)
}

/// The full day (`2025-06-16`) a text begins with, where it begins with one: what a note
/// states right after its words ("was deprecated 2024-01-04", "Retired on 2025-06-16").
pub(crate) fn leading_day(text: &str) -> Option<String> {
    let day = text.get(..10)?;
    chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .is_ok()
        .then(|| day.to_string())
}

/// The first full day written anywhere in a text: as a date (`2026-10-09`), else in words
/// as a pricing page writes it (`Oct 2, 2026`, `October 2, 2026`), read as that date.
pub(crate) fn first_day(text: &str) -> Option<String> {
    text.char_indices()
        .filter(|(_, c)| c.is_ascii_digit())
        .find_map(|(i, _)| leading_day(&text[i..]))
        .or_else(|| {
            // "Oct 2, 2026": a month's name or its three-letter abbreviation, a day, a year.
            let words: Vec<&str> = text
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .collect();
            words.windows(3).find_map(|w| {
                const MONTHS: [&str; 12] = [
                    "january",
                    "february",
                    "march",
                    "april",
                    "may",
                    "june",
                    "july",
                    "august",
                    "september",
                    "october",
                    "november",
                    "december",
                ];
                let word = w[0]
                    .trim_start_matches(|c: char| !c.is_ascii_alphabetic())
                    .trim_end_matches('.')
                    .to_ascii_lowercase();
                let month = MONTHS.iter().find(|m| {
                    word.len() >= 3
                        && (**m == word || m.get(..word.len()) == Some(&word) && word.len() <= 4)
                })?;
                let month = &month[..3];
                let year = w[2].trim_end_matches(|c: char| !c.is_ascii_digit());
                let text = format!("{month} {} {year}", w[1]);
                chrono::NaiveDate::parse_from_str(&text, "%b %d %Y")
                    .ok()
                    .filter(|_| year.len() == 4 && w[1].len() <= 2)
                    .map(|d| d.format("%Y-%m-%d").to_string())
            })
        })
}

/// A CSV table's rows as maps from header to field, within the parse budget
/// ([`crate::ingest::budget`]): rows, columns, header and field lengths, and the bytes the
/// maps take, are checked as the file is read, so a hostile table fails before it grows.
pub(crate) fn csv_rows(path: &Path) -> Result<Vec<BTreeMap<String, String>>, IngestError> {
    use crate::ingest::budget::{
        CSV_CELL_OVERHEAD, MAX_CSV_COLUMNS, MAX_CSV_EXPANDED, MAX_CSV_FIELD, MAX_CSV_HEADER,
        MAX_CSV_ROWS,
    };
    let over = |what: String| IngestError::TooLarge {
        path: path.to_path_buf(),
        what,
    };
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .map_err(|e| err(path, e))?;
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| err(path, e))?
        .iter()
        .map(|h| h.trim_start_matches('\u{feff}').to_string())
        .collect();
    if headers.len() > MAX_CSV_COLUMNS {
        return Err(over(format!("more than {MAX_CSV_COLUMNS} columns")));
    }
    if headers.iter().any(|h| h.len() > MAX_CSV_HEADER) {
        return Err(over(format!("a header name over {MAX_CSV_HEADER} bytes")));
    }
    let mut out = Vec::new();
    let mut expanded = 0usize;
    let mut rec = csv::StringRecord::new();
    while reader.read_record(&mut rec).map_err(|e| err(path, e))? {
        if out.len() >= MAX_CSV_ROWS {
            return Err(over(format!("more than {MAX_CSV_ROWS} rows")));
        }
        if rec.len() > MAX_CSV_COLUMNS {
            return Err(over(format!("a row of more than {MAX_CSV_COLUMNS} fields")));
        }
        if rec.iter().any(|f| f.len() > MAX_CSV_FIELD) {
            return Err(over(format!("a field over {MAX_CSV_FIELD} bytes")));
        }
        expanded += headers
            .iter()
            .zip(rec.iter())
            .map(|(h, f)| h.len() + f.len() + CSV_CELL_OVERHEAD)
            .sum::<usize>();
        if expanded > MAX_CSV_EXPANDED {
            return Err(over(format!(
                "its rows would take over {MAX_CSV_EXPANDED} bytes"
            )));
        }
        out.push(
            headers
                .iter()
                .cloned()
                .zip(rec.iter().map(str::to_string))
                .collect(),
        );
    }
    Ok(out)
}

/// `77.0%`, `77`, `0.77` (with `fraction`) → percent.
pub(super) fn percent(text: &str, fraction: bool) -> Option<f64> {
    let t = text.trim();
    let (num, had_pct) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), true),
        None => (t, false),
    };
    let v: f64 = num.parse().ok().filter(|v: &f64| v.is_finite())?;
    let v = if fraction && !had_pct { v * 100.0 } else { v };
    (0.0..=100.0).contains(&v).then(|| round(v, 4))
}

pub(super) fn round(v: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (v * f).round() / f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_parse_in_every_spelling() {
        assert_eq!(percent("77.47%", false), Some(77.47));
        assert_eq!(percent("0.850", true), Some(85.0));
        assert_eq!(percent("42", false), Some(42.0));
        assert_eq!(percent("N/A", false), None);
        assert_eq!(percent("140", false), None);
    }

    #[test]
    fn a_day_is_read_as_a_date_or_in_words() {
        assert_eq!(
            first_day("checked 2026-10-09)").as_deref(),
            Some("2026-10-09")
        );
        assert_eq!(
            first_day("(shut down Oct 2, 2026);").as_deref(),
            Some("2026-10-02")
        );
        assert_eq!(
            first_day("on September 9, 2026").as_deref(),
            Some("2026-09-09")
        );
        assert_eq!(first_day("Sept. 30, 2026").as_deref(), Some("2026-09-30"));
        // A written date comes first; a word that only begins like a month is none.
        assert_eq!(
            first_day("Oct 2, 2026 or 2026-11-01").as_deref(),
            Some("2026-11-01")
        );
        assert_eq!(first_day("Market 5, 2026"), None);
        assert_eq!(first_day("Oct 32, 2026"), None);
        assert_eq!(first_day("version 3.1"), None);
    }
}
