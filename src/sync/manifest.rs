//! The manifest of the files a dataset is built from (`data/observations.csv`, docs/sync.md):
//! each source's current copy in a sources directory, the earlier copies the history reads
//! from its archive, and the derived price-change log, with their sha256 and length. `mds
//! ingest` writes it beside the snapshot, so the bundled dataset is an observation too
//! although its raw files are not shipped.

use std::path::{Path, PathBuf};

use crate::ingest::history;
use crate::ingest::sources::{self, ALL, Source};
use crate::snapshot::sha256_hex;
use crate::store::observations::ManifestRow;

/// models.dev's file in the project's raw layout (its TOML files bundled as JSON), which
/// its adapter reads in place of the published `api.json` (`sources::models_dev::load`).
pub const MODELS_DEV_BUNDLE: &str = "models_dev_toml_bundle.json";
/// The derived log's file name, in `derived/`.
pub const PRICE_CHANGES: &str = "genai_prices_git_price_changes.csv";

/// The paths of `source`'s files its adapter reads in `dir` (`<sources>/<slug>/`): its
/// upstream files that are there, and for models.dev the TOML bundle where present.
pub fn read_paths(source: &dyn Source, dir: &Path) -> Vec<String> {
    if source.slug() == sources::models_dev::SOURCE && dir.join(MODELS_DEV_BUNDLE).exists() {
        return vec![MODELS_DEV_BUNDLE.to_string()];
    }
    (source.upstream().files)(dir)
        .into_iter()
        .filter(|p| dir.join(p).is_file())
        .collect()
}

/// The sources whose earlier copies the ingest reads from an archive.
pub const ARCHIVED: &[&str] = &[sources::genai_prices::SOURCE, sources::litellm::SOURCE];

fn row(
    source: &str,
    path: &str,
    file: &Path,
    observed: &str,
    upstream: Option<String>,
) -> std::io::Result<ManifestRow> {
    let bytes = std::fs::read(file)?;
    Ok(ManifestRow {
        source: source.to_string(),
        path: path.to_string(),
        sha256: sha256_hex(&bytes),
        bytes: bytes.len() as u64,
        observed: observed.to_string(),
        upstream,
    })
}

/// The manifest of what `mds ingest --sources <sources>` reads (with its defaults for the
/// archive and the derived log), leaving out `exclude`.
pub fn of_sources(
    sources_dir: &Path,
    archive: Option<&Path>,
    price_changes: Option<&Path>,
    exclude: &std::collections::BTreeSet<String>,
) -> std::io::Result<Vec<ManifestRow>> {
    let archive: PathBuf =
        archive.map_or_else(|| sources_dir.join("../archive"), Path::to_path_buf);
    let mut out = Vec::new();
    for source in ALL.iter().filter(|s| !exclude.contains(s.slug())) {
        let slug = source.slug();
        let meta = sources::row(slug);
        let day = meta
            .as_ref()
            .map_or_else(String::new, |m| m.snapshot_date.clone());
        let dir = sources_dir.join(source.dir());
        for path in read_paths(*source, &dir) {
            out.push(row(
                slug,
                &path,
                &dir.join(&path),
                &day,
                meta.as_ref().map(|m| m.commit.clone()),
            )?);
        }
        if !ARCHIVED.contains(&slug) {
            continue;
        }
        // The earlier copies the ingest reads: directories named by a day, or for LiteLLM
        // by a release it knows the day of, before the current copy's day.
        let Ok(entries) = std::fs::read_dir(archive.join(source.dir())) else {
            continue;
        };
        let mut copies: Vec<(String, String, PathBuf)> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let observed = if slug == sources::litellm::SOURCE {
                    sources::litellm::day_of_copy(&name)?
                } else {
                    chrono::NaiveDate::parse_from_str(&name, "%Y-%m-%d").ok()?;
                    name.clone()
                };
                (observed < day).then(|| (observed, name, e.path()))
            })
            .collect();
        copies.sort();
        for (observed, name, copy) in copies {
            let release = chrono::NaiveDate::parse_from_str(&name, "%Y-%m-%d")
                .is_err()
                .then_some(name);
            for path in read_paths(*source, &copy) {
                out.push(row(
                    slug,
                    &path,
                    &copy.join(&path),
                    &observed,
                    release.clone(),
                )?);
            }
        }
    }
    if !exclude.contains(history::SOURCE) {
        let log = price_changes.map_or_else(
            || sources_dir.join("../derived").join(PRICE_CHANGES),
            Path::to_path_buf,
        );
        if log.is_file() {
            let meta = sources::row(history::SOURCE);
            out.push(row(
                history::SOURCE,
                PRICE_CHANGES,
                &log,
                &meta
                    .as_ref()
                    .map_or_else(String::new, |m| m.snapshot_date.clone()),
                meta.map(|m| m.commit),
            )?);
        }
    }
    Ok(out)
}
