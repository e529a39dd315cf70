//! Epoch AI's benchmark hub: its own runs, the external leaderboards it collects,
//! Terminal-Bench agents and its model versions (names and release dates).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::{Collected, Meta, Source, Upstream, csv_rows, percent, round};
use crate::ingest::Report;
use crate::ingest::scores::{RawAgent, RawScore, candidates};
use crate::ingest::{IngestError, ModelRecord, names};

/// The Epoch adapter.
/// Epoch's external leaderboards read: (file, benchmark, column, whether the column is a
/// percentage).
const EXTERNAL: &[(&str, &str, &str, bool)] = &[
    ("mmlu", "mmlu", "EM", true),
    ("gsm8k", "gsm8k", "EM", true),
    ("hellaswag", "hellaswag", "Overall accuracy", true),
    ("arc_agi", "arc-agi", "Score", true),
    ("simple_bench", "simplebench", "Score (AVG@5)", true),
    ("weirdml", "weirdml", "Accuracy", true),
    ("winogrande", "winogrande", "Accuracy", true),
    ("triviaqa", "triviaqa", "EM", true),
    ("piqa", "piqa", "Score", true),
    ("openbookqa", "openbookqa", "Accuracy", true),
    ("bbh", "bbh", "Average", true),
    ("lambada", "lambada", "Score", true),
    ("boolq", "boolq", "Score", true),
    ("scienceqa", "scienceqa", "Score", true),
    ("arc_ai2", "arc-challenge", "Challenge score", true),
    ("anli", "anli", "Score", true),
    ("csqa2", "csqa2", "Score", true),
    ("superglue", "superglue", "Score", true),
    ("cybench", "cybench", "Unguided % Solved", true),
    ("vpct", "vpct", "Correct", true),
    ("videomme", "video-mme", "Overall (no subtitles)", true),
    ("gso_bench", "gso-bench", "Score OPT@1", true),
    ("cadeval", "cadeval", "Overall pass (%)", true),
    (
        "lech_mazur_writing",
        "lech-mazur-writing",
        "Mean score",
        false,
    ),
    ("geobench", "geobench", "ACW Country %", true),
    ("the_agent_company", "the-agent-company", "% Score", true),
    ("deepresearch", "deep-research-bench", "Average score", true),
    ("os_world", "os-world", "Score", true),
    ("livebench", "livebench", "Global average", true),
    ("mcbench", "mc-bench", "ELO", false),
    (
        "fictionlivebench",
        "fiction-livebench",
        "120k token score",
        true,
    ),
    ("osuniverse", "osuniverse", "Weighted Score", true),
    ("metr", "metr-time-horizon", "Time horizon", false),
    ("balrog", "balrog", "Average progress", true),
    (
        "factorio_learning_environment",
        "factorio-learning-environment",
        "Lab Success %",
        true,
    ),
    ("aider_polyglot", "aider-polyglot", "Percent correct", true),
];

/// What the dataset is (its row of the sources table).
pub const META: Meta = Meta {
    slug: "epoch",
    name: "Epoch AI benchmarking hub",
    repository: "epoch-research/benchmark-stitching",
    commit: "f87d3cc8e8a8f8471be475ebce58fb9a73b4e756",
    snapshot_date: "2025-12-03",
    license: "MIT",
    names_models: true,
};

pub struct Epoch;

impl Source for Epoch {
    fn meta(&self) -> Meta {
        META
    }

    fn upstream(&self) -> Upstream {
        Upstream {
            base: "https://raw.githubusercontent.com/epoch-research/benchmark-stitching/main/",
            files: |_| {
                [
                    "benchmarks_runs",
                    "model_versions",
                    "external_benchmark_terminal_bench",
                ]
                .into_iter()
                .map(str::to_string)
                .chain(
                    EXTERNAL
                        .iter()
                        .map(|e| format!("external_benchmark_{}", e.0)),
                )
                .map(|f| format!("data/{f}.csv"))
                .collect()
            },
        }
    }

    fn read(
        &self,
        dir: &Path,
        into: &mut Collected,
        _report: &mut Report,
    ) -> Result<(), IngestError> {
        epoch(dir, &mut into.scores)?;
        terminal_bench(dir, &mut into.agents)?;
        into.records.extend(epoch_models(dir)?);
        Ok(())
    }
}

fn epoch_date(text: &str) -> Option<String> {
    // `17 November 2025 4:28pm`
    let mut it = text.split_whitespace();
    let day: u32 = it.next()?.parse().ok()?;
    let month = match it.next()?.to_lowercase().as_str() {
        "january" => 1,
        "february" => 2,
        "march" => 3,
        "april" => 4,
        "may" => 5,
        "june" => 6,
        "july" => 7,
        "august" => 8,
        "september" => 9,
        "october" => 10,
        "november" => 11,
        "december" => 12,
        _ => return None,
    };
    let year: u32 = it.next()?.parse().ok()?;
    Some(format!("{year:04}-{month:02}-{day:02}"))
}

/// What Epoch's own runs are published as (`data/score_provenance.csv`), and where.
pub const RUNS: &str = "Epoch AI runs";
const RUNS_URL: &str = "https://epoch.ai/data/ai-benchmarking-dashboard";

pub fn epoch(dir: &Path, out: &mut Vec<RawScore>) -> Result<(), IngestError> {
    let data = dir.join("epoch/data");
    for row in csv_rows(&data.join("benchmarks_runs.csv"))? {
        let bench = match row.get("task").map(String::as_str) {
            Some("GPQA diamond") => "gpqa-diamond",
            Some("MATH level 5") => "math-level-5",
            Some("OTIS Mock AIME 2024-2025") => "otis-mock-aime",
            Some("FrontierMath-2025-02-28-Private") => "frontiermath",
            Some("FrontierMath-Tier-4-2025-07-01-Private") => "frontiermath-tier-4",
            Some("FrontierMath-2025-02-28-Public") => "frontiermath-public",
            Some("FrontierMath-Tier-4-2025-07-01-Public") => "frontiermath-tier-4-public",
            Some("SWE-Bench verified") => "swe-bench-verified",
            _ => continue,
        };
        let (Some(model), Some(score)) = (
            row.get("model"),
            row.get("Best score (across scorers)")
                .and_then(|s| percent(s, true)),
        ) else {
            continue;
        };
        out.push(RawScore {
            source: "epoch",
            benchmark: bench.into(),
            benchmark_name: None,
            model: model.clone(),
            score,
            config: None,
            as_of: row.get("started_at").and_then(|d| epoch_date(d)),
            release: None,
            publication: Some(RUNS.into()),
            citation: Some(RUNS_URL.into()),
        });
    }
    // (file, benchmark, column, whether the column is a percentage). Epoch's copies of
    // LiveBench and Aider Polyglot join the publishers' own figures, which stay the headline.

    for (file, bench, column, pct) in EXTERNAL {
        for row in csv_rows(&data.join(format!("external_benchmark_{file}.csv")))? {
            let model = row
                .get("Model version")
                .filter(|m| !m.trim().is_empty())
                .or_else(|| row.get("Name"));
            let value = |s: &String| {
                if *pct {
                    percent(s, false)
                } else {
                    s.trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .map(|v| round(v, 4))
                }
            };
            let (Some(model), Some(score)) = (model, row.get(*column).and_then(value)) else {
                continue;
            };
            let model = base_checkpoint(row.get("Name").map(String::as_str), model);
            let shots = row
                .get("Shots")
                .filter(|s| !s.trim().is_empty())
                .map(|s| format!("shots={}", s.trim()));
            out.push(RawScore {
                source: "epoch",
                benchmark: (*bench).into(),
                benchmark_name: None,
                model,
                score,
                config: shots,
                as_of: None,
                release: None,
                publication: publication(&row),
                citation: row
                    .get("Source link")
                    .filter(|l| l.starts_with("http"))
                    .cloned(),
            });
        }
    }
    Ok(())
}

/// Where a row of Epoch's external leaderboards says its figure was published: its `Source`,
/// else its `Source link` (a paper's URL), else nothing (`data/score_provenance.csv` has a
/// row for each, reviewed; `docs/methodology.md`, "Scores and who ran them").
pub fn publication(row: &BTreeMap<String, String>) -> Option<String> {
    ["Source", "Source link", "Source link (site from table)"]
        .iter()
        .filter_map(|k| row.get(*k))
        .map(|v| v.trim())
        .find(|v| !v.is_empty() && (!v.contains("://") || v.starts_with("http")))
        .map(str::to_string)
}

/// Every publication Epoch's external leaderboards name, in every `external_benchmark_*`
/// file of the copy (those read as scores or agents, and any other), with the file it is in.
pub fn publications(dir: &Path) -> Result<BTreeSet<(String, Option<String>)>, IngestError> {
    let data = dir.join("epoch/data");
    let mut files: Vec<String> = std::fs::read_dir(&data)
        .map_err(|e| super::err(&data, e))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("external_benchmark_") && n.ends_with(".csv"))
        .collect();
    files.sort();
    let mut out = BTreeSet::new();
    for file in files {
        for row in csv_rows(&data.join(&file))? {
            out.insert((file.clone(), publication(&row)));
        }
    }
    Ok(out)
}

/// The model a row of Epoch's external leaderboards measured: its `Model version`, except
/// that a row whose `Name` is a base checkpoint (`DeepSeek-V3 Base`) measured the base model
/// even where the version names the chat model (`DeepSeek-V3`): base and chat stay apart.
fn base_checkpoint(name: Option<&str>, version: &str) -> String {
    let is_base = |s: &str| {
        let s = s.trim().to_ascii_lowercase();
        s.strip_suffix("base")
            .is_some_and(|head| head.ends_with([' ', '-', '_']))
    };
    let version = version.trim();
    if name.is_some_and(is_base) && !version.to_ascii_lowercase().contains("base") {
        format!("{version}-Base")
    } else {
        version.to_string()
    }
}

/// Terminal-Bench agents, from Epoch's CSV.
pub fn terminal_bench(dir: &Path, out: &mut Vec<RawAgent>) -> Result<(), IngestError> {
    for row in csv_rows(&dir.join("epoch/data/external_benchmark_terminal_bench.csv"))? {
        let (Some(agent), Some(model), Some(score)) = (
            row.get("Agent"),
            row.get("Model version"),
            row.get("Accuracy mean").and_then(|s| percent(s, true)),
        ) else {
            continue;
        };
        if agent.trim().is_empty() {
            continue;
        }
        out.push(RawAgent {
            source: "epoch",
            benchmark: "terminal-bench",
            name: format!("{} ({})", agent.trim(), model.trim()),
            organization: None,
            open_source: None,
            models: vec![model.clone()],
            score,
            as_of: None,
        });
    }
    Ok(())
}

/// Epoch's model versions: metadata (display name, release date) for models, many of them
/// older than any price list.
pub fn epoch_models(dir: &Path) -> Result<Vec<ModelRecord>, IngestError> {
    let mut out = Vec::new();
    let rows = csv_rows(&dir.join("epoch/data/model_versions.csv"))?;
    let swapped = swapped_names(&rows);
    for row in &rows {
        let Some(id) = row.get("id").filter(|i| !i.trim().is_empty()) else {
            continue;
        };
        // Ids carry the reasoning effort (`gpt-5-2025-08-07_high`): one model, several runs.
        let Some((base, effort)) = candidates(id).into_iter().next() else {
            continue;
        };
        let parsed = names::parse(&base);
        if parsed.key.is_empty() {
            continue;
        }
        let hf_vendor = row
            .get("Hugging Face developer id")
            .map(|h| h.trim().to_lowercase())
            .filter(|h| !h.is_empty());
        let columns: &[&str] = if effort.is_empty() {
            &["Unique display name", "Display name", "Model"]
        } else {
            &["Model"]
        };
        let name = swapped
            .get(id.as_str())
            .map(|n| (*n).to_string())
            .or_else(|| {
                columns
                    .iter()
                    .find_map(|k| row.get(*k).filter(|v| !v.trim().is_empty()))
                    .cloned()
            });
        let date = row
            .get("Version release date")
            .filter(|d| d.len() == 10 && d.starts_with("20"))
            .cloned();
        out.push(ModelRecord {
            source: "epoch",
            raw_id: id.clone(),
            rank: crate::ingest::BENCHMARK_RANK,
            creator: names::creator_for(
                hf_vendor.as_deref().or(parsed.vendor.as_deref()),
                &parsed.key,
            )
            .map(str::to_string),
            name,
            release_date: date,
            parsed: Some(parsed),
            shut_down: row.get("Notes").and_then(|n| shut_down(n)),
            ..Default::default()
        });
    }
    Ok(out)
}

/// Unique display names two versions carry crosswise (the row `Yi-6B` is "Yi-6B (chat)",
/// `Yi-6B-Chat` is "Yi-6B"): each row's id spelt by the other's name, each name read back
/// to the row it spells, as (id → name).
fn swapped_names(rows: &[BTreeMap<String, String>]) -> BTreeMap<&str, &str> {
    let spelt = |s: &str| names::slugify(s.trim());
    // (id, name, the id spelt, the name spelt)
    let named: Vec<(&str, &str, String, String)> = rows
        .iter()
        .filter_map(|row| {
            let id = row.get("id")?.as_str();
            let name = row
                .get("Unique display name")
                .filter(|n| !n.trim().is_empty())?;
            Some((id, name.as_str(), spelt(id), spelt(name)))
        })
        .collect();
    let by_id: BTreeMap<&str, &(&str, &str, String, String)> =
        named.iter().map(|n| (n.2.as_str(), n)).collect();
    named
        .iter()
        .filter_map(|(id, _, id_spelt, name_spelt)| {
            let (_, other_name, other_spelt, other_named) = by_id.get(name_spelt.as_str())?;
            (other_spelt != id_spelt && other_named == id_spelt).then_some((*id, *other_name))
        })
        .collect()
}

/// The day a version's notes say it was (or is to be) shut down ("was deprecated
/// 2024-01-04", "to be shut down 2025-06-06", as Epoch copies OpenAI's deprecations page): a
/// full date right after the words only.
fn shut_down(notes: &str) -> Option<String> {
    ["was deprecated ", "to be shut down "]
        .iter()
        .find_map(|words| {
            let (_, after) = notes.split_once(words)?;
            super::leading_day(after)
        })
        // A day written out before the words ("April 9, 2025 - discontinuation date", the
        // row of `gemini-1.0-pro-001`).
        .or_else(|| {
            let (before, _) = notes.split_once(" - discontinuation date")?;
            let day = before.lines().next_back()?.trim();
            let day = chrono::NaiveDate::parse_from_str(day, "%B %d, %Y").ok()?;
            Some(day.format("%Y-%m-%d").to_string())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_rows_measure_the_base_model() {
        assert_eq!(
            base_checkpoint(Some("DeepSeek-V3 Base       "), "DeepSeek-V3"),
            "DeepSeek-V3-Base"
        );
        assert_eq!(
            base_checkpoint(Some("DeepSeek-V3 Base"), "DeepSeek-V3-Base"),
            "DeepSeek-V3-Base"
        );
        assert_eq!(
            base_checkpoint(Some("DeepSeek-V3"), "DeepSeek-V3"),
            "DeepSeek-V3"
        );
        assert_eq!(
            base_checkpoint(Some("Database-7B"), "Database-7B"),
            "Database-7B"
        );
        assert_eq!(base_checkpoint(None, "GPT-4"), "GPT-4");
    }

    #[test]
    fn epoch_dates_become_iso() {
        assert_eq!(
            epoch_date("17 November 2025 4:28pm").as_deref(),
            Some("2025-11-17")
        );
        assert_eq!(epoch_date("soon"), None);
    }

    #[test]
    fn notes_date_a_shut_down_only_with_a_full_day() {
        assert_eq!(
            shut_down("was deprecated 2024-01-04\nfrom Wikipedia: …").as_deref(),
            Some("2024-01-04")
        );
        assert_eq!(
            shut_down("to be shut down 2025-06-06").as_deref(),
            Some("2025-06-06")
        );
        assert_eq!(
            shut_down("I didn't find it.\nApril 9, 2025 - discontinuation date").as_deref(),
            Some("2025-04-09")
        );
        assert_eq!(shut_down("Spring 2025 - discontinuation date"), None);
        assert_eq!(shut_down("deprecation notes"), None);
        assert_eq!(shut_down("was deprecated 2024-13-01"), None);
        assert_eq!(shut_down("was deprecated soon"), None);
    }
}
