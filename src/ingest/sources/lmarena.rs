//! LMArena: human-preference ratings (text, vision, image).

use std::path::Path;

use super::{Collected, Source, csv_rows};
use crate::ingest::IngestError;
use crate::ingest::Report;
use crate::ingest::scores::RawScore;

/// The LMArena adapter.
pub struct LmArena;

impl Source for LmArena {
    fn slug(&self) -> &'static str {
        "lmarena"
    }

    fn read(
        &self,
        dir: &Path,
        into: &mut Collected,
        _report: &mut Report,
    ) -> Result<(), IngestError> {
        lmarena(dir, &mut into.scores)
    }
}

pub fn lmarena(dir: &Path, out: &mut Vec<RawScore>) -> Result<(), IngestError> {
    for (file, bench) in [
        ("lmarena_text.csv", "lmarena-text"),
        ("lmarena_vision.csv", "lmarena-vision"),
        ("lmarena_image.csv", "lmarena-image"),
    ] {
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
            });
        }
    }
    Ok(())
}
