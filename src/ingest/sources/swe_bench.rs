//! SWE-bench's leaderboards: agents with the models they ran on.

use std::path::Path;

use serde_json::Value;

use super::{Collected, Meta, Source, Upstream};
use crate::ingest::Report;
use crate::ingest::scores::{RawAgent, RawScore};
use crate::ingest::{IngestError, read_json};

/// What the dataset is (its row of the sources table).
pub const META: Meta = Meta {
    slug: "swe-bench",
    name: "SWE-bench leaderboards",
    repository: "SWE-bench/swe-bench.github.io",
    commit: "f1176b65ae29d14f4f52208b48e3d8cfc972bc17",
    snapshot_date: "2025-12-10",
    license: "CC-BY-NC-4.0",
    names_models: false,
};

/// The SWE-bench adapter.
pub struct SweBench;

impl Source for SweBench {
    fn upstream(&self) -> Upstream {
        Upstream {
            base: "https://raw.githubusercontent.com/SWE-bench/swe-bench.github.io/master/",
            files: |_| vec!["data/leaderboards.json".into()],
        }
    }

    fn meta(&self) -> Meta {
        META
    }

    fn read(
        &self,
        dir: &Path,
        into: &mut Collected,
        _report: &mut Report,
    ) -> Result<(), IngestError> {
        swe_bench(dir, &mut into.agents, &mut into.scores)
    }
}

/// SWE-bench's leaderboards: systems (agents) with the models they ran on. The bash-only
/// board runs every model under one minimal agent, so its rows are also the models' scores.
pub fn swe_bench(
    dir: &Path,
    out: &mut Vec<RawAgent>,
    scores: &mut Vec<RawScore>,
) -> Result<(), IngestError> {
    let data = read_json(&dir.join("swe-bench/data/leaderboards.json"))?;
    for lb in data
        .get("leaderboards")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let bench = match lb.get("name").and_then(Value::as_str) {
            Some("Verified") => "swe-bench-verified",
            Some("Lite") => "swe-bench-lite",
            Some("Test") => "swe-bench-full",
            Some("Multimodal") => "swe-bench-multimodal",
            Some("bash-only") => "swe-bench-bash-only",
            _ => continue,
        };
        for e in lb
            .get("results")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let (Some(name), Some(score)) = (
                e.get("name").and_then(Value::as_str),
                e.get("resolved").and_then(Value::as_f64),
            ) else {
                continue;
            };
            let tags: Vec<&str> = e
                .get("tags")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let tagged = |prefix: &str| -> Vec<String> {
                tags.iter()
                    .filter_map(|t| t.strip_prefix(prefix))
                    .map(|t| t.trim().to_string())
                    .collect()
            };
            if bench == "swe-bench-bash-only"
                && let [model] = tagged("Model:").as_slice()
            {
                scores.push(RawScore {
                    source: "swe-bench",
                    benchmark: bench.into(),
                    benchmark_name: None,
                    model: model.clone(),
                    score,
                    config: Some("harness=mini-swe-agent (bash only)".into()),
                    as_of: e.get("date").and_then(Value::as_str).map(str::to_string),
                    release: None,
                    publication: None,
                    citation: None,
                });
            }
            out.push(RawAgent {
                source: "swe-bench",
                benchmark: bench,
                name: name.to_string(),
                organization: tagged("Org:").into_iter().next(),
                open_source: e.get("os_system").and_then(Value::as_bool),
                models: tagged("Model:"),
                score,
                as_of: e.get("date").and_then(Value::as_str).map(str::to_string),
            });
        }
    }
    Ok(())
}
