//! LiveBench: every release's table (older results dated by their release).

use std::path::Path;

use serde_json::Value;

use super::{Meta, ScoreTable, Upstream, csv_rows, err, round};
use crate::ingest::names::slugify;
use crate::ingest::scores::RawScore;
use crate::ingest::{IngestError, read_json};

/// The livebench adapter: a table of scores.
pub const SOURCE: ScoreTable = ScoreTable {
    meta: Meta {
        slug: "livebench",
        name: "LiveBench",
        repository: "LiveBench/livebench.github.io",
        commit: "4bf96c8d9dc9b06c17d82dc76a54429975c2b2c2",
        snapshot_date: "2026-07-01",
        license: "Apache-2.0 AND MIT (LiveBench code; the data repository has no licence file)",
        names_models: true,
    },
    upstream: Upstream {
        base: "https://raw.githubusercontent.com/LiveBench/livebench.github.io/main/",
        files: upstream_files,
    },
    read: livebench,
};

/// The releases known when the adapter was written; a data directory's own copy may hold
/// newer ones, which are fetched again on every sync too.
const KNOWN_RELEASES: [&str; 10] = [
    "2024_06_24",
    "2024_07_26",
    "2024_08_31",
    "2024_11_25",
    "2025_04_02",
    "2025_04_25",
    "2025_05_30",
    "2025_11_25",
    "2025_12_23",
    "2026_01_08",
];

/// The releases in a copy of `public/` (`table_<release>.csv`), sorted.
fn releases_in(public: &Path) -> std::io::Result<Vec<String>> {
    let mut releases: Vec<String> = std::fs::read_dir(public)?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| {
            n.strip_prefix("table_")?
                .strip_suffix(".csv")
                .map(str::to_string)
        })
        .collect();
    releases.sort();
    Ok(releases)
}

/// Each release is a table and its categories. New releases are discovered from the last
/// good copy (a mirror or an operator may add one) beside the releases known here; the
/// upstream repository publishes no index of them.
fn upstream_files(copy: &Path) -> Vec<String> {
    let mut releases: Vec<String> = KNOWN_RELEASES.iter().map(|r| r.to_string()).collect();
    releases.extend(releases_in(&copy.join("public")).unwrap_or_default());
    releases.sort();
    releases.dedup();
    releases
        .iter()
        .flat_map(|r| {
            [
                format!("public/table_{r}.csv"),
                format!("public/categories_{r}.json"),
            ]
        })
        .collect()
}

fn livebench(dir: &Path, out: &mut Vec<RawScore>) -> Result<(), IngestError> {
    let public = dir.join("livebench/public");
    let releases = releases_in(&public).map_err(|e| err(&public, e))?;
    // Every release: older results are scores as of their release date, and the headline
    // rule (most recent first) makes the newest release each model appears in the headline.
    for release in releases {
        livebench_release(&public, &release, out)?;
    }
    Ok(())
}

/// One LiveBench release: category means of its tasks, and their mean as the global score.
fn livebench_release(
    public: &Path,
    release: &str,
    out: &mut Vec<RawScore>,
) -> Result<(), IngestError> {
    let categories = read_json(&public.join(format!("categories_{release}.json")))?;
    let rows = csv_rows(&public.join(format!("table_{release}.csv")))?;
    let date = release.replace('_', "-");
    let cats: Vec<(String, Vec<String>)> = categories
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| {
            (
                k.clone(),
                v.as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect(),
            )
        })
        .collect();
    for row in rows {
        let Some(model) = row.get("model").cloned() else {
            continue;
        };
        let mut means = Vec::new();
        for (cat, tasks) in &cats {
            let vals: Vec<f64> = tasks
                .iter()
                .filter_map(|t| row.get(t)?.trim().parse::<f64>().ok())
                .collect();
            // A category is scored only when every one of its tasks is.
            if vals.len() != tasks.len() || vals.is_empty() {
                continue;
            }
            let mean = vals.iter().sum::<f64>() / vals.len() as f64;
            means.push(mean);
            out.push(RawScore {
                source: "livebench",
                benchmark: format!("livebench-{}", slugify(cat)),
                benchmark_name: None,
                model: model.clone(),
                score: round(mean, 2),
                config: None,
                as_of: Some(date.clone()),
                release: Some(date.clone()),
                publication: None,
                citation: None,
            });
        }
        if means.len() == cats.len() && !means.is_empty() {
            out.push(RawScore {
                source: "livebench",
                benchmark: "livebench".into(),
                benchmark_name: None,
                model,
                score: round(means.iter().sum::<f64>() / means.len() as f64, 2),
                config: None,
                as_of: Some(date.clone()),
                release: Some(date.clone()),
                publication: None,
                citation: None,
            });
        }
    }
    Ok(())
}
