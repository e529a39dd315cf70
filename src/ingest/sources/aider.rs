//! Aider's leaderboards: polyglot, code editing and refactoring runs.

use std::path::Path;

use super::{Meta, ScoreTable, Upstream, err};
use crate::ingest::IngestError;
use crate::ingest::scores::RawScore;

/// The aider adapter: a table of scores.
pub const SOURCE: ScoreTable = ScoreTable {
    meta: Meta {
        slug: "aider",
        name: "Aider LLM leaderboards",
        repository: "Aider-AI/aider",
        commit: "5dc9490bb35f9729ef2c95d00a19ccd30c26339c",
        snapshot_date: "2026-05-22",
        license: "Apache-2.0",
        names_models: true,
    },
    upstream: Upstream {
        base: "https://raw.githubusercontent.com/Aider-AI/aider/main/",
        files: |_| {
            FILES
                .iter()
                .map(|(f, _)| format!("aider/website/_data/{f}"))
                .collect()
        },
    },
    read: aider,
};

/// The leaderboards read, with the benchmark each is.
const FILES: [(&str, &str); 3] = [
    ("polyglot_leaderboard.yml", "aider-polyglot"),
    ("edit_leaderboard.yml", "aider-edit"),
    ("refactor_leaderboard.yml", "aider-refactor"),
];

#[derive(serde::Deserialize)]
struct AiderRun {
    model: Option<String>,
    command: Option<String>,
    edit_format: Option<String>,
    pass_rate_2: Option<f64>,
    reasoning_effort: Option<String>,
    date: Option<serde_norway::Value>,
}

fn aider(dir: &Path, out: &mut Vec<RawScore>) -> Result<(), IngestError> {
    for (file, bench) in FILES {
        let path = dir.join("aider/aider/website/_data").join(file);
        let text = std::fs::read_to_string(&path).map_err(|e| err(&path, e))?;
        // The YAML parser is quadratic in nesting depth: bounded before it runs.
        crate::ingest::budget::structure(&path, text.as_bytes(), false)?;
        let runs: Vec<AiderRun> = serde_norway::from_str(&text).map_err(|e| err(&path, e))?;
        for run in runs {
            let Some(score) = run.pass_rate_2 else {
                continue;
            };
            // `aider --model provider/api-id` names the model exactly; the display name is a fallback.
            let model = run
                .command
                .as_deref()
                .and_then(|c| c.split_whitespace().skip_while(|w| *w != "--model").nth(1))
                .map(str::to_string)
                .or(run.model.clone())
                .unwrap_or_default();
            let mut config = vec![];
            if let Some(f) = run.edit_format.filter(|f| !f.is_empty()) {
                config.push(format!("edit_format={f}"));
            }
            if let Some(r) = run.reasoning_effort.filter(|r| !r.is_empty()) {
                config.push(format!("reasoning_effort={r}"));
            }
            let as_of = run.date.and_then(|d| match d {
                serde_norway::Value::String(s) => Some(s),
                _ => None,
            });
            out.push(RawScore {
                source: "aider",
                benchmark: bench.to_string(),
                benchmark_name: None,
                model,
                score,
                config: (!config.is_empty()).then(|| config.join(", ")),
                as_of,
                release: None,
                publication: None,
                citation: None,
            });
        }
    }
    Ok(())
}
