//! The Berkeley Function-Calling Leaderboard.

use std::path::Path;

use super::{Meta, ScoreTable, Upstream, csv_rows, percent};
use crate::ingest::IngestError;
use crate::ingest::scores::RawScore;

/// The bfcl adapter: a table of scores.
pub const SOURCE: ScoreTable = ScoreTable {
    meta: Meta {
        slug: "bfcl",
        name: "Berkeley Function-Calling Leaderboard",
        repository: "ShishirPatil/gorilla",
        commit: "8c24bd7cd50499b601783bd6e6b0a921017da10a",
        snapshot_date: "2025-12-16",
        license: "Apache-2.0",
        names_models: true,
    },
    upstream: Upstream {
        base: "https://raw.githubusercontent.com/ShishirPatil/gorilla/gh-pages/",
        files: |_| vec!["data_overall.csv".into()],
    },
    read: bfcl,
};

fn bfcl(dir: &Path, out: &mut Vec<RawScore>) -> Result<(), IngestError> {
    for row in csv_rows(&dir.join("bfcl/data_overall.csv"))? {
        let (Some(model), Some(score)) = (
            row.get("Model"),
            row.get("Overall Acc").and_then(|s| percent(s, false)),
        ) else {
            continue;
        };
        // `(FC)` / `(Prompt)` is how the model was run, not another model.
        let (name, config) = match model.rsplit_once(" (") {
            Some((n, c)) => (n.to_string(), Some(c.trim_end_matches(')').to_string())),
            None => (model.clone(), None),
        };
        out.push(RawScore {
            source: "bfcl",
            benchmark: "bfcl".into(),
            benchmark_name: None,
            model: name,
            score,
            config,
            as_of: Some("2025-12-16".into()),
            release: None,
            publication: None,
            citation: None,
        });
    }
    Ok(())
}
