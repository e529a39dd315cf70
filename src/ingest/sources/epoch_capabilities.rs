//! The Epoch Capabilities Index (ECI): Epoch AI's one number per model, fitted to the
//! benchmark results its hub collects, published as a table of its website. It is a
//! leaderboard of its own (`epoch-capabilities-index`), never a term of this service's
//! capability index or averages, which fit the underlying benchmarks themselves
//! (`data/benchmark_review.csv`; docs/sources.md).
//!
//! The table lives in Epoch's repository on a branch of its own, so its dataset is its own
//! (its commit, its observations) while its file sits in Epoch's directory of the raw
//! layout (`epoch/data/website/`).

use std::path::Path;

use super::{Collected, Meta, Source, Upstream, csv_rows};
use crate::ingest::scores::RawScore;
use crate::ingest::{IngestError, Report};

/// The table's path inside Epoch's directory of the raw layout.
const FILE: &str = "data/website/epoch_capabilities_index.csv";
/// The benchmark the index is served as.
pub const BENCHMARK: &str = "epoch-capabilities-index";
/// Where Epoch presents the index and its method.
const CITATION: &str = "https://epoch.ai/benchmarks/eci";

/// What the dataset is (its row of the sources table).
pub const META: Meta = Meta {
    slug: "epoch-capabilities",
    name: "Epoch Capabilities Index",
    repository: "epoch-research/benchmark-stitching",
    commit: "07356c2106015f283c23a1f2478ea9e654a9f24f",
    snapshot_date: "2025-11-07",
    license: "MIT",
    names_models: true,
};

pub struct EpochCapabilities;

impl Source for EpochCapabilities {
    fn meta(&self) -> Meta {
        META
    }

    fn dir(&self) -> &'static str {
        super::epoch::META.slug
    }

    fn upstream(&self) -> Upstream {
        Upstream {
            // The commit the bundled copy was taken from: the branch that carries the
            // table is not Epoch's main line.
            base: "https://raw.githubusercontent.com/epoch-research/benchmark-stitching/07356c2106015f283c23a1f2478ea9e654a9f24f/",
            files: |_| vec![FILE.to_string()],
        }
    }

    fn read(
        &self,
        dir: &Path,
        into: &mut Collected,
        _report: &mut Report,
    ) -> Result<(), IngestError> {
        let path = dir.join(self.dir()).join(FILE);
        for row in csv_rows(&path)? {
            // Models Epoch lists without an index yet (its table also lists the models it
            // tracks) state no score.
            let (Some(model), Some(score)) = (
                row.get("Model version").filter(|m| !m.trim().is_empty()),
                row.get("ECI Score")
                    .and_then(|s| s.trim().parse::<f64>().ok())
                    .filter(|v| v.is_finite()),
            ) else {
                continue;
            };
            into.scores.push(RawScore {
                source: META.slug,
                benchmark: BENCHMARK.into(),
                benchmark_name: None,
                model: model.trim().to_string(),
                score,
                config: None,
                as_of: Some(META.snapshot_date.into()),
                release: None,
                // The dataset's one publication: its `*` row of `data/score_provenance.csv`.
                publication: None,
                citation: Some(CITATION.into()),
            });
        }
        Ok(())
    }
}
