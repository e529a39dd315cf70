//! The observation store (docs/sync.md, "The observation store"): every copy of a source
//! file that a sync kept, in the database every instance shares, so the dataset is a
//! function of what was observed, not of one instance's files. Rows are only added: the
//! newest row of a (source, path) is that file's current copy, older ones are earlier
//! observations.
//!
//! The bundled dataset is an observation too: the repository cannot ship the raw files it
//! was built from, so it ships their manifest (`data/observations.csv`: source, path,
//! sha256, bytes, observed day, upstream release), recorded here when the bundled dataset
//! is imported. Those rows have no content until a sync fetches the same bytes.

use std::collections::{BTreeMap, HashMap};
use std::io::{Read as _, Write as _};

use entity::observation;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, FromQueryResult,
    QueryFilter, QueryOrder, QuerySelect, Set,
};

use crate::snapshot::sha256_hex;

/// The manifest of the files the bundled dataset was built from (`mds ingest` writes it).
pub const MANIFEST: &str = include_str!("../../data/observations.csv");

/// What the bundled dataset's rows are marked with.
pub const BUNDLED: &str = "bundled";
/// A fetched file.
pub const SYNCED: &str = "sync";
/// A file given to `mds sync` (the derived price-change log).
pub const LOCAL: &str = "local";

/// One line of the manifest.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ManifestRow {
    pub source: String,
    pub path: String,
    pub sha256: String,
    pub bytes: u64,
    pub observed: String,
    pub upstream: Option<String>,
}

/// The manifest's rows, in its order (by source, then observation day, then path).
pub fn manifest() -> Result<Vec<ManifestRow>, String> {
    parse_manifest(MANIFEST)
}

/// Reads manifest text.
pub fn parse_manifest(text: &str) -> Result<Vec<ManifestRow>, String> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<Result<Vec<ManifestRow>, _>>()
        .map_err(|e| format!("data/observations.csv: {e}"))
}

/// Writes manifest rows as CSV, sorted, so the same files give the same bytes.
pub fn write_manifest(rows: &[ManifestRow]) -> Result<String, String> {
    let mut rows = rows.to_vec();
    rows.sort_by(|a, b| (&a.source, &a.observed, &a.path).cmp(&(&b.source, &b.observed, &b.path)));
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in &rows {
        w.serialize(r).map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// What a dataset is built from: source → path → sha256 of each current copy.
pub type Basis = BTreeMap<String, BTreeMap<String, String>>;

/// The basis of the bundled dataset: the manifest's newest row of each (source, path).
pub fn manifest_basis() -> Result<Basis, String> {
    let mut basis = Basis::new();
    for r in manifest()? {
        // Rows are sorted by day within a source: the last one of a path is its current copy.
        basis
            .entry(r.source.clone())
            .or_default()
            .insert(r.path.clone(), r.sha256.clone());
    }
    Ok(basis)
}

/// A row without its content.
#[derive(Debug, Clone, PartialEq, Eq, FromQueryResult)]
pub struct Meta {
    pub id: i64,
    pub source: String,
    pub path: String,
    pub upstream: Option<String>,
    /// The upstream's own date for this copy (its `Last-Modified`), when it sent one.
    pub upstream_date: Option<String>,
    pub observed: String,
    pub sha256: String,
    pub bytes: i64,
    pub removed: bool,
    pub origin: String,
}

/// A row as a sync sees it: its metadata and whether its bytes are stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub meta: Meta,
    pub has_content: bool,
}

/// Every row without content, oldest first.
pub async fn all<C: ConnectionTrait>(db: &C) -> Result<Vec<Row>, DbErr> {
    use observation::Column as C;
    let metas: Vec<Meta> = observation::Entity::find()
        .select_only()
        .columns([
            C::Id,
            C::Source,
            C::Path,
            C::Upstream,
            C::UpstreamDate,
            C::Observed,
            C::Sha256,
            C::Bytes,
            C::Removed,
            C::Origin,
        ])
        .order_by_asc(C::Id)
        .into_model::<Meta>()
        .all(db)
        .await?;
    #[derive(FromQueryResult)]
    struct Id {
        id: i64,
    }
    let stored: std::collections::HashSet<i64> = observation::Entity::find()
        .select_only()
        .column(C::Id)
        .filter(C::Content.is_not_null())
        .into_model::<Id>()
        .all(db)
        .await?
        .into_iter()
        .map(|r| r.id)
        .collect();
    Ok(metas
        .into_iter()
        .map(|meta| Row {
            has_content: stored.contains(&meta.id),
            meta,
        })
        .collect())
}

/// The stored bytes of rows `ids`, decompressed.
pub async fn contents<C: ConnectionTrait>(
    db: &C,
    ids: &[i64],
) -> Result<HashMap<i64, Vec<u8>>, DbErr> {
    let mut out = HashMap::new();
    // A few rows per query: each holds a file of up to a few MB.
    for chunk in ids.chunks(8) {
        for row in observation::Entity::find()
            .filter(observation::Column::Id.is_in(chunk.iter().copied()))
            .all(db)
            .await?
        {
            if let Some(gz) = row.content {
                let bytes = gunzip(&gz).map_err(|e| {
                    DbErr::Custom(format!("observation {} is not readable gzip: {e}", row.id))
                })?;
                out.insert(row.id, bytes);
            }
        }
    }
    Ok(out)
}

/// Gzip at the default level: files are written once and read on every build.
pub fn gzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes)?;
    gz.finish()
}

pub fn gunzip(gz: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(gz).read_to_end(&mut out)?;
    Ok(out)
}

/// One change to the store.
#[derive(Debug, Clone)]
pub enum Write {
    /// A new observation of a file.
    Insert {
        source: String,
        path: String,
        upstream: Option<String>,
        /// The upstream's own date for it (its `Last-Modified`, RFC 3339).
        upstream_date: Option<String>,
        observed: String,
        bytes: Vec<u8>,
        origin: &'static str,
    },
    /// The bytes of an observation recorded without them (a bundled one), fetched now: the
    /// same sha256, so the same observation.
    Fill { id: i64, bytes: Vec<u8> },
    /// The file is no longer part of its source's copy.
    Remove {
        source: String,
        path: String,
        observed: String,
    },
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Applies `writes` in one transaction.
pub async fn apply(db: &sea_orm::DatabaseConnection, writes: &[Write]) -> Result<(), DbErr> {
    use sea_orm::TransactionTrait;
    if writes.is_empty() {
        return Ok(());
    }
    let txn = db.begin().await?;
    for w in writes {
        match w {
            Write::Insert {
                source,
                path,
                upstream,
                upstream_date,
                observed,
                bytes,
                origin,
            } => {
                let content = gzip(bytes).map_err(|e| DbErr::Custom(e.to_string()))?;
                observation::ActiveModel {
                    source: Set(source.clone()),
                    path: Set(path.clone()),
                    upstream: Set(upstream.clone()),
                    upstream_date: Set(upstream_date.clone()),
                    observed: Set(observed.clone()),
                    sha256: Set(sha256_hex(bytes)),
                    bytes: Set(i64::try_from(bytes.len()).unwrap_or(i64::MAX)),
                    content: Set(Some(content)),
                    removed: Set(false),
                    origin: Set((*origin).to_string()),
                    recorded_at: Set(now()),
                    ..Default::default()
                }
                .insert(&txn)
                .await?;
            }
            Write::Fill { id, bytes } => {
                let content = gzip(bytes).map_err(|e| DbErr::Custom(e.to_string()))?;
                observation::Entity::update_many()
                    .col_expr(
                        observation::Column::Content,
                        sea_orm::sea_query::Expr::value(Some(content)),
                    )
                    .filter(observation::Column::Id.eq(*id))
                    .filter(observation::Column::Sha256.eq(sha256_hex(bytes)))
                    .exec(&txn)
                    .await?;
            }
            Write::Remove {
                source,
                path,
                observed,
            } => {
                observation::ActiveModel {
                    source: Set(source.clone()),
                    path: Set(path.clone()),
                    upstream: Set(None),
                    upstream_date: Set(None),
                    observed: Set(observed.clone()),
                    sha256: Set(String::new()),
                    bytes: Set(0),
                    content: Set(None),
                    removed: Set(true),
                    origin: Set(SYNCED.to_string()),
                    recorded_at: Set(now()),
                    ..Default::default()
                }
                .insert(&txn)
                .await?;
            }
        }
    }
    txn.commit().await
}

/// Records the manifest's rows that the store lacks (the same source, path, sha256, day and
/// origin), oldest day first so each file's bundled current copy is its newest bundled row.
pub async fn seed_manifest<C: ConnectionTrait>(db: &C) -> Result<usize, DbErr> {
    let mut rows = manifest().map_err(DbErr::Custom)?;
    rows.sort_by(|a, b| (&a.observed, &a.source, &a.path).cmp(&(&b.observed, &b.source, &b.path)));
    let known: std::collections::HashSet<(String, String, String, String)> = all(db)
        .await?
        .into_iter()
        .filter(|r| r.meta.origin == BUNDLED)
        .map(|r| (r.meta.source, r.meta.path, r.meta.sha256, r.meta.observed))
        .collect();
    let mut added = 0;
    for r in rows {
        if known.contains(&(
            r.source.clone(),
            r.path.clone(),
            r.sha256.clone(),
            r.observed.clone(),
        )) {
            continue;
        }
        observation::ActiveModel {
            source: Set(r.source),
            path: Set(r.path),
            upstream: Set(r.upstream),
            upstream_date: Set(None),
            observed: Set(r.observed),
            sha256: Set(r.sha256),
            bytes: Set(i64::try_from(r.bytes).unwrap_or(i64::MAX)),
            content: Set(None),
            removed: Set(false),
            origin: Set(BUNDLED.to_string()),
            recorded_at: Set(now()),
            ..Default::default()
        }
        .insert(db)
        .await?;
        added += 1;
    }
    Ok(added)
}

/// The copy of a source a dataset was built from, as its upstream names and dates it
/// (docs/sync.md, "Freshness is visible").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServedCopy {
    /// The upstream's name for it: a release or commit (a bundled copy's), else the `ETag`
    /// or `Last-Modified` it was fetched with.
    pub release: Option<String>,
    /// The upstream's own date for it: the `Last-Modified` it was fetched with, or for a
    /// bundled copy the day its release or commit is dated in the manifest.
    pub date: Option<String>,
}

/// Each source's copy in `basis` (what a dataset was built from): of its files' rows, the
/// one observed last names the copy.
pub async fn served<C: ConnectionTrait>(
    db: &C,
    basis: &Basis,
) -> Result<BTreeMap<String, ServedCopy>, DbErr> {
    let mut newest: BTreeMap<&str, Meta> = BTreeMap::new();
    let rows = all(db).await?;
    for r in &rows {
        let m = &r.meta;
        let in_basis = basis
            .get(&m.source)
            .and_then(|files| files.get(&m.path))
            .is_some_and(|sha| *sha == m.sha256);
        if !in_basis || m.removed {
            continue;
        }
        // Rows are in the order they were recorded: a later row of the same day wins.
        if newest
            .get(m.source.as_str())
            .is_none_or(|n| n.observed <= m.observed)
        {
            newest.insert(m.source.as_str(), m.clone());
        }
    }
    Ok(newest
        .into_iter()
        .map(|(source, m)| {
            let date = m
                .upstream_date
                .clone()
                .or_else(|| (m.origin == BUNDLED).then(|| m.observed.clone()));
            (
                source.to_string(),
                ServedCopy {
                    release: m.upstream,
                    date,
                },
            )
        })
        .collect())
}

/// How much the store holds: rows, rows with their bytes, sources, the newest day.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub rows: usize,
    pub stored: usize,
    pub sources: usize,
    pub newest: Option<String>,
}

pub async fn summary<C: ConnectionTrait>(db: &C) -> Result<Summary, DbErr> {
    let rows = all(db).await?;
    let sources: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r.meta.source.as_str()).collect();
    Ok(Summary {
        rows: rows.len(),
        stored: rows.iter().filter(|r| r.has_content).count(),
        sources: sources.len(),
        newest: rows.iter().map(|r| r.meta.observed.clone()).max(),
    })
}
