//! The normalized, versioned dataset: what `mds ingest` writes, what `mds import` loads,
//! and what the binary embeds so a fresh machine serves real data.
//!
//! Format: gzip-compressed JSON of [`Snapshot`]. Every list is sorted by its key and the
//! gzip header carries no timestamp, so the same input gives byte-identical output.

use std::io::{Read, Write};

use serde::{Deserialize, Serialize};

/// Bumped when the layout of [`Snapshot`] changes incompatibly.
pub const FORMAT: u32 = 1;

/// The dataset that ships inside the binary.
pub static EMBEDDED: &[u8] = include_bytes!("../data/snapshot.json.gz");

/// The dataset's tables, the one list [`Snapshot`], the database's rows
/// ([`crate::store::rows`]) and the import ([`crate::store::import`]) are written from: each
/// a field of the snapshot (its JSON key) and the `entity` module of its table, a table
/// before the tables whose rows name its rows (docs/ARCHITECTURE.md, "Add a table").
/// `with_dataset_tables!(then)` calls `then!` with the list.
macro_rules! with_dataset_tables {
    ($then:ident $(, $arg:tt)*) => {
        $then! {
            $($arg),*;
            sources: source,
            providers: provider,
            models: model,
            aliases: model_alias,
            offerings: offering,
            price_history: price_history,
            benchmarks: benchmark,
            scores: score,
            agents: agent,
            agent_models: agent_model,
            agent_scores: agent_score,
            economy_indicators: economy_indicator,
            economy_points: economy_point,
            /// Each model's standing per domain (`docs/methodology.md`, "Rankings per domain").
            #[serde(default)]
            model_domains: model_domain,
        }
    };
}
pub(crate) use with_dataset_tables;

macro_rules! snapshot_struct {
    (; $($(#[$attr:meta])* $field:ident: $entity:ident,)+) => {
        #[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
        pub struct Snapshot {
            pub format: u32,
            /// The date of the newest source in the snapshot (not the wall clock, for
            /// reproducibility).
            pub built_at: String,
            $($(#[$attr])* pub $field: Vec<entity::$entity::Model>,)+
        }
    };
}
with_dataset_tables!(snapshot_struct);

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
    /// Every reference that names a row the snapshot lacks, one line each (`offering
    /// gpt-4o@volcengine: no provider volcengine`): offerings and price periods to models and
    /// providers, models to creators, aliases, scores and agent links to models, scores to
    /// benchmarks (docs/data.md, "References"). Empty for a sound snapshot.
    pub fn dangling(&self) -> Vec<String> {
        use std::collections::BTreeSet;
        let models: BTreeSet<&str> = self.models.iter().map(|m| m.slug.as_str()).collect();
        let providers: BTreeSet<&str> = self.providers.iter().map(|p| p.slug.as_str()).collect();
        let benchmarks: BTreeSet<&str> = self.benchmarks.iter().map(|b| b.slug.as_str()).collect();
        let agents: BTreeSet<&str> = self.agents.iter().map(|a| a.slug.as_str()).collect();
        let mut out = Vec::new();
        let mut need = |what: String, kind: &str, slug: &str, set: &BTreeSet<&str>| {
            if !set.contains(slug) {
                out.push(format!("{what}: no {kind} {slug}"));
            }
        };
        for o in &self.offerings {
            let what = format!("offering {}@{}", o.model_slug, o.provider_slug);
            need(what.clone(), "model", &o.model_slug, &models);
            need(what, "provider", &o.provider_slug, &providers);
        }
        for p in &self.price_history {
            let what = format!("price period {}@{}", p.model_slug, p.provider_slug);
            need(what.clone(), "model", &p.model_slug, &models);
            need(what, "provider", &p.provider_slug, &providers);
        }
        for m in &self.models {
            if let Some(c) = &m.creator_slug {
                need(format!("model {}", m.slug), "provider", c, &providers);
            }
        }
        for a in &self.aliases {
            need(
                format!("alias {}", a.alias),
                "model",
                &a.model_slug,
                &models,
            );
        }
        for s in &self.scores {
            let what = format!("score {} on {}", s.model_slug, s.benchmark_slug);
            need(what.clone(), "model", &s.model_slug, &models);
            need(what, "benchmark", &s.benchmark_slug, &benchmarks);
        }
        for a in &self.agent_models {
            let what = format!("agent link {}", a.agent_slug);
            need(what.clone(), "agent", &a.agent_slug, &agents);
            need(what, "model", &a.model_slug, &models);
        }
        for d in &self.model_domains {
            let what = format!("{} standing of {}", d.domain, d.model_slug);
            need(what, "model", &d.model_slug, &models);
        }
        for s in &self.agent_scores {
            let what = format!("agent score {} on {}", s.agent_slug, s.benchmark_slug);
            need(what.clone(), "agent", &s.agent_slug, &agents);
            need(what, "benchmark", &s.benchmark_slug, &benchmarks);
        }
        out
    }

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
