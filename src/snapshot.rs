//! The normalized, versioned dataset: what `mds ingest` writes, what `mds import` loads,
//! and what the binary embeds so a fresh machine serves real data.
//!
//! Format: gzip-compressed JSON of [`Snapshot`]. Every list is sorted by its key and the
//! gzip header carries no timestamp, so the same input gives byte-identical output.

use std::io::{Read, Write};

use entity::{
    agent, agent_model, agent_score, benchmark, economy_indicator, economy_point, model,
    model_alias, offering, price_history, provider, score, source,
};
use serde::{Deserialize, Serialize};

/// Bumped when the layout of [`Snapshot`] changes incompatibly.
pub const FORMAT: u32 = 1;

/// The dataset that ships inside the binary.
pub static EMBEDDED: &[u8] = include_bytes!("../data/snapshot.json.gz");

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Snapshot {
    pub format: u32,
    /// The date of the newest source in the snapshot (not the wall clock, for reproducibility).
    pub built_at: String,
    pub sources: Vec<source::Model>,
    pub providers: Vec<provider::Model>,
    pub models: Vec<model::Model>,
    pub aliases: Vec<model_alias::Model>,
    pub offerings: Vec<offering::Model>,
    pub price_history: Vec<price_history::Model>,
    pub benchmarks: Vec<benchmark::Model>,
    pub scores: Vec<score::Model>,
    pub agents: Vec<agent::Model>,
    pub agent_models: Vec<agent_model::Model>,
    pub agent_scores: Vec<agent_score::Model>,
    pub economy_indicators: Vec<economy_indicator::Model>,
    pub economy_points: Vec<economy_point::Model>,
}

#[derive(Debug)]
pub enum SnapshotError {
    Io(std::io::Error),
    Json(serde_json::Error),
    Format(u32),
}

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io(e) => write!(f, "snapshot is not readable gzip: {e}"),
            Self::Json(e) => write!(f, "snapshot is not valid JSON: {e}"),
            Self::Format(v) => write!(
                f,
                "snapshot format {v} is not supported (expected {FORMAT})"
            ),
        }
    }
}

impl std::error::Error for SnapshotError {}

impl Snapshot {
    /// Serializes to gzip JSON, deterministically.
    pub fn encode(&self) -> Result<Vec<u8>, SnapshotError> {
        let json = serde_json::to_vec(self).map_err(SnapshotError::Json)?;
        let mut gz = flate2::GzBuilder::new()
            .mtime(0)
            .write(Vec::new(), flate2::Compression::best());
        gz.write_all(&json).map_err(SnapshotError::Io)?;
        gz.finish().map_err(SnapshotError::Io)
    }

    pub fn decode(bytes: &[u8]) -> Result<Self, SnapshotError> {
        let mut json = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut json)
            .map_err(SnapshotError::Io)?;
        let snapshot: Snapshot = serde_json::from_slice(&json).map_err(SnapshotError::Json)?;
        if snapshot.format != FORMAT {
            return Err(SnapshotError::Format(snapshot.format));
        }
        Ok(snapshot)
    }
}

/// Hex SHA-256 of snapshot bytes: the identity of a dataset.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}
