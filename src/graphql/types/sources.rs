//! GraphQL types of where the data comes from: the sources and the dataset being served.

use async_graphql::SimpleObject;
use entity::vocab::SourceStatus;
use entity::{dataset, source};

/// A public dataset the data comes from.
#[derive(SimpleObject, Debug)]
#[graphql(serial)]
pub struct Source {
    pub slug: String,
    pub name: String,
    /// GitHub `owner/name`.
    pub repository: String,
    /// The release or commit of the copy shipped with the service (its provenance);
    /// `release` names the copy actually served.
    pub commit: String,
    /// The upstream's name for the copy the served dataset was built from, from the
    /// observation store: a release or commit for a bundled copy, else the `ETag` (or
    /// `Last-Modified`) it was fetched with; null where the store does not know it.
    pub release: Option<String>,
    /// The upstream's own date for that copy: the `Last-Modified` it was fetched with (RFC
    /// 3339), or for a bundled copy the day its release or commit is dated; null where the
    /// upstream sent none. `snapshotDate` is when the service first observed it.
    pub release_date: Option<String>,
    /// Date of the data (all figures are as of this day).
    pub snapshot_date: String,
    /// SPDX-style licence of the data.
    pub license: String,
    /// Attribution text to show with data from this source.
    pub attribution: String,
    pub url: String,
    /// `bundled` (the copy shipped with the service: no sync has fetched this source), `ok`,
    /// `stale` (no successful sync for longer than `MDS_SYNC_STALE_AFTER`) or `failed` (the
    /// last sync kept no new copy: `error` says why; the data is the last good copy's) or
    /// `held` (the new copy grew, shrank or failed validation beyond the sync's bounds and
    /// waits for an operator; `error` gives the counts; the data is the last good copy's) or
    /// `waiting` (a new copy is recorded but not served yet: another source has no stored
    /// copy to build with, `error` names it; the served dataset is kept).
    pub status: SourceStatus,
    /// Where `mds sync` fetched it from (its first file: upstream or mirror).
    pub upstream: Option<String>,
    /// The upstream's version of that file: its ETag, else its Last-Modified.
    pub upstream_version: Option<String>,
    /// When a sync last tried it (RFC 3339, UTC).
    pub last_fetched: Option<String>,
    /// When a sync last kept a good copy, changed or not.
    pub last_success: Option<String>,
    /// Why the last sync failed.
    pub error: Option<String>,
    /// Rows the adapter read from the last good copy.
    pub rows: Option<i64>,
}

impl Source {
    pub fn new(
        s: &source::Model,
        fresh: Option<&crate::catalog::freshness::Freshness>,
        served: Option<&crate::catalog::freshness::ServedCopy>,
    ) -> Self {
        let row = fresh.map(|f| &f.row);
        Self {
            slug: s.slug.clone(),
            name: s.name.clone(),
            repository: s.repository.clone(),
            commit: s.commit.clone(),
            release: served.and_then(|c| c.release.clone()),
            release_date: served.and_then(|c| c.date.clone()),
            snapshot_date: s.snapshot_date.clone(),
            license: s.license.clone(),
            attribution: s.attribution.clone(),
            url: s.url.clone(),
            status: fresh.map_or(SourceStatus::Bundled, |f| f.status),
            upstream: row.map(|r| r.upstream.clone()),
            upstream_version: row.and_then(|r| r.version.clone()),
            last_fetched: row.map(|r| r.last_fetched.clone()),
            last_success: row.and_then(|r| r.last_success.clone()),
            error: row.and_then(|r| r.error.clone()),
            rows: row.map(|r| r.rows),
        }
    }

    /// Every source of `catalog`, with its freshness.
    pub fn all(catalog: &crate::catalog::Catalog) -> Vec<Self> {
        catalog
            .sources()
            .iter()
            .map(|s| {
                Self::new(
                    s,
                    catalog.freshness(&s.slug),
                    catalog.freshnesses().served(&s.slug),
                )
            })
            .collect()
    }
}

/// The dataset being served.
#[derive(SimpleObject)]
#[graphql(serial)]
pub struct Dataset {
    /// Bumped by every import that changed the data.
    pub version: i32,
    /// Date of the newest source in the dataset.
    pub built_at: String,
    pub imported_at: String,
    /// SHA-256 of the imported snapshot.
    pub sha256: String,
    /// Each source's observation date (`snapshotDate`) and freshness.
    pub sources: Vec<Source>,
    /// The newest observation among the sources of current prices.
    pub prices_as_of: Option<String>,
    /// The newest observation among the sources of benchmark scores: how current a ranking is.
    pub benchmarks_as_of: Option<String>,
    /// What this version changed against the version served before it; null for the first.
    pub changes: Option<DatasetChanges>,
    /// True while an operator pins this version (`mds dataset use N`): syncs keep observing
    /// but do not switch to a new version.
    pub pinned: bool,
}

/// What a dataset version changed against the version served before it. Prices are compared
/// at 6 significant digits: a float artefact (75 and 75.0001) is no change.
#[derive(SimpleObject)]
#[graphql(serial)]
pub struct DatasetChanges {
    /// The version compared against.
    pub compared_to: Option<i32>,
    /// Models listed now and not before.
    pub models_added: i32,
    /// Models listed before and not now.
    pub models_removed: i32,
    /// Models with an offering whose input or output price changed.
    pub models_repriced: i32,
    /// Offerings whose input or output price changed.
    pub price_changes: i32,
}

impl Dataset {
    pub fn new(
        d: &dataset::Model,
        sources: Vec<Source>,
        as_of: &crate::catalog::AsOf,
        record: Option<&crate::store::versions::Summary>,
    ) -> Self {
        let n = |x: Option<i64>| x.map(|v| i32::try_from(v).unwrap_or(i32::MAX));
        let changes = record.and_then(|r| {
            Some(DatasetChanges {
                compared_to: r.compared_to,
                models_added: n(r.models_added)?,
                models_removed: n(r.models_removed)?,
                models_repriced: n(r.models_repriced)?,
                price_changes: n(r.price_changes)?,
            })
        });
        Self {
            version: d.version,
            built_at: d.built_at.clone(),
            imported_at: d.imported_at.clone(),
            sha256: d.snapshot_sha256.clone(),
            sources,
            prices_as_of: as_of.prices.clone(),
            benchmarks_as_of: as_of.benchmarks.clone(),
            changes,
            pinned: record.is_some_and(|r| r.pinned),
        }
    }
}
