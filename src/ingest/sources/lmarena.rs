//! LMArena: human-preference ratings (text, vision, image).

use std::path::Path;

use super::{Meta, ScoreTable, Upstream, csv_rows};
use crate::ingest::IngestError;
use crate::ingest::scores::RawScore;

/// The lmarena adapter: a table of scores.
pub const SOURCE: ScoreTable = ScoreTable {
    meta: Meta {
        slug: "lmarena",
        name: "LMArena leaderboard (CSV export)",
        repository: "fboulnois/llm-leaderboard-csv",
        commit: "44db9588e2b0d12fff17d6e607066746f0fa84d5",
        snapshot_date: "2025-08-06",
        license: "MPL-2.0",
        names_models: true,
    },
    upstream: Upstream {
        base: "https://raw.githubusercontent.com/fboulnois/llm-leaderboard-csv/main/",
        files: |_| FILES.iter().map(|(f, _)| format!("csv/{f}")).collect(),
    },
    read: lmarena,
};

/// The tables read, with the benchmark each is.
const FILES: [(&str, &str); 3] = [
    ("lmarena_text.csv", "lmarena-text"),
    ("lmarena_vision.csv", "lmarena-vision"),
    ("lmarena_image.csv", "lmarena-image"),
];

fn lmarena(dir: &Path, out: &mut Vec<RawScore>) -> Result<(), IngestError> {
    for (file, bench) in FILES {
        for row in csv_rows(&dir.join("lmarena/csv").join(file))? {
            let (Some(model), Some(score)) = (
                row.get("model"),
                row.get("arena_score")
                    .and_then(|s| s.trim().parse::<f64>().ok()),
            ) else {
                continue;
            };
            out.push(RawScore {
                source: "lmarena",
                benchmark: bench.into(),
                benchmark_name: None,
                model: model.clone(),
                score,
                config: None,
                as_of: Some("2025-08-06".into()),
                release: None,
                publication: None,
                citation: None,
            });
        }
    }
    Ok(())
}
