//! Every dataset version ever imported (`dataset_versions`): its snapshot, what it was built
//! from, and what it changed against the version served before it — models added, removed
//! and repriced, prices compared at 6 significant digits (docs/sync.md, "Versions").
//! `mds dataset list|diff|use` read and pin them.

use std::collections::{BTreeMap, BTreeSet};

use entity::{dataset_version, model, offering};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbErr, EntityTrait, FromQueryResult, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect,
};

use crate::snapshot::Snapshot;

/// Whether two prices are the same at 6 significant digits: equal, or within one part in
/// 10⁵ of the larger, which is what float artefacts of per-token prices come to (75 and
/// 75.0001 are the same price; 75 and 75.01 are not). A price that appears or disappears
/// is a change.
pub fn same_price(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a == b || (a - b).abs() <= 1e-5 * a.abs().max(b.abs()),
        _ => false,
    }
}

/// A (model, provider) pair.
pub type Key = (String, String);

/// One side of a comparison: the models and each offering's input and output list price.
#[derive(Debug, Default, Clone)]
pub struct Side {
    pub models: BTreeSet<String>,
    pub prices: BTreeMap<Key, (Option<f64>, Option<f64>)>,
}

impl Side {
    pub fn of_snapshot(s: &Snapshot) -> Self {
        Self {
            models: s.models.iter().map(|m| m.slug.clone()).collect(),
            prices: s
                .offerings
                .iter()
                .map(|o| {
                    (
                        (o.model_slug.clone(), o.provider_slug.clone()),
                        (o.input_price, o.output_price),
                    )
                })
                .collect(),
        }
    }

    /// The dataset in the database.
    pub async fn of_database<C: ConnectionTrait>(db: &C) -> Result<Self, DbErr> {
        #[derive(FromQueryResult)]
        struct Slug {
            slug: String,
        }
        #[derive(FromQueryResult)]
        struct Price {
            model_slug: String,
            provider_slug: String,
            input_price: Option<f64>,
            output_price: Option<f64>,
        }
        let models = model::Entity::find()
            .select_only()
            .column(model::Column::Slug)
            .into_model::<Slug>()
            .all(db)
            .await?;
        let prices = offering::Entity::find()
            .select_only()
            .columns([
                offering::Column::ModelSlug,
                offering::Column::ProviderSlug,
                offering::Column::InputPrice,
                offering::Column::OutputPrice,
            ])
            .into_model::<Price>()
            .all(db)
            .await?;
        Ok(Self {
            models: models.into_iter().map(|m| m.slug).collect(),
            prices: prices
                .into_iter()
                .map(|p| {
                    (
                        (p.model_slug, p.provider_slug),
                        (p.input_price, p.output_price),
                    )
                })
                .collect(),
        })
    }
}

/// A price that changed: the offering, its input and output price before and after.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Repriced {
    pub model: String,
    pub provider: String,
    pub before: (Option<f64>, Option<f64>),
    pub after: (Option<f64>, Option<f64>),
}

/// What changed from one side to the other.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Diff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub repriced: Vec<Repriced>,
}

impl Diff {
    pub fn between(before: &Side, after: &Side) -> Self {
        let repriced = after
            .prices
            .iter()
            .filter_map(|(k, now)| {
                let was = before.prices.get(k)?;
                (!same_price(was.0, now.0) || !same_price(was.1, now.1)).then(|| Repriced {
                    model: k.0.clone(),
                    provider: k.1.clone(),
                    before: *was,
                    after: *now,
                })
            })
            .collect();
        Self {
            added: after.models.difference(&before.models).cloned().collect(),
            removed: before.models.difference(&after.models).cloned().collect(),
            repriced,
        }
    }

    pub fn counts(&self) -> Changes {
        let models: BTreeSet<&str> = self.repriced.iter().map(|r| r.model.as_str()).collect();
        Changes {
            models_added: self.added.len(),
            models_removed: self.removed.len(),
            models_repriced: models.len(),
            price_changes: self.repriced.len(),
        }
    }
}

/// What a version changed, counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Changes {
    pub models_added: usize,
    pub models_removed: usize,
    /// Models with at least one offering whose input or output price changed.
    pub models_repriced: usize,
    /// Offerings whose input or output price changed.
    pub price_changes: usize,
}

impl std::fmt::Display for Changes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} models added, {} removed, {} repriced ({} price changes)",
            self.models_added, self.models_removed, self.models_repriced, self.price_changes
        )
    }
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A version without its snapshot and basis: what listings and the catalogue read.
#[derive(Debug, Clone, PartialEq, Eq, FromQueryResult)]
pub struct Summary {
    pub version: i32,
    pub snapshot_sha256: String,
    pub built_at: String,
    pub imported_at: String,
    pub models: i64,
    pub offerings: i64,
    pub price_periods: i64,
    pub compared_to: Option<i32>,
    pub models_added: Option<i64>,
    pub models_removed: Option<i64>,
    pub models_repriced: Option<i64>,
    pub price_changes: Option<i64>,
    pub pinned: bool,
}

fn summary_columns() -> sea_orm::Select<dataset_version::Entity> {
    use dataset_version::Column as C;
    dataset_version::Entity::find().select_only().columns([
        C::Version,
        C::SnapshotSha256,
        C::BuiltAt,
        C::ImportedAt,
        C::Models,
        C::Offerings,
        C::PricePeriods,
        C::ComparedTo,
        C::ModelsAdded,
        C::ModelsRemoved,
        C::ModelsRepriced,
        C::PriceChanges,
        C::Pinned,
    ])
}

/// Every version, oldest first.
pub async fn list<C: ConnectionTrait>(db: &C) -> Result<Vec<Summary>, DbErr> {
    summary_columns()
        .order_by_asc(dataset_version::Column::Version)
        .into_model::<Summary>()
        .all(db)
        .await
}

/// One version's summary.
pub async fn summary<C: ConnectionTrait>(db: &C, version: i32) -> Result<Option<Summary>, DbErr> {
    summary_columns()
        .filter(dataset_version::Column::Version.eq(version))
        .into_model::<Summary>()
        .one(db)
        .await
}

/// The newest version number recorded.
pub async fn newest<C: ConnectionTrait>(db: &C) -> Result<Option<i32>, DbErr> {
    dataset_version::Entity::find()
        .select_only()
        .column(dataset_version::Column::Version)
        .order_by_desc(dataset_version::Column::Version)
        .into_tuple::<i32>()
        .one(db)
        .await
}

/// The version pinned by `mds dataset use N`, if any.
pub async fn pinned<C: ConnectionTrait>(db: &C) -> Result<Option<i32>, DbErr> {
    dataset_version::Entity::find()
        .select_only()
        .column(dataset_version::Column::Version)
        .filter(dataset_version::Column::Pinned.eq(true))
        .into_tuple::<i32>()
        .one(db)
        .await
}

/// Pins `version` (and no other), or unpins every version.
pub async fn pin<C: ConnectionTrait>(db: &C, version: Option<i32>) -> Result<(), DbErr> {
    use sea_orm::sea_query::Expr;
    dataset_version::Entity::update_many()
        .col_expr(dataset_version::Column::Pinned, Expr::value(false))
        .filter(dataset_version::Column::Pinned.eq(true))
        .exec(db)
        .await?;
    if let Some(v) = version {
        dataset_version::Entity::update_many()
            .col_expr(dataset_version::Column::Pinned, Expr::value(true))
            .filter(dataset_version::Column::Version.eq(v))
            .exec(db)
            .await?;
    }
    Ok(())
}

/// What `version` was built from, when known.
pub async fn basis<C: ConnectionTrait>(
    db: &C,
    version: i32,
) -> Result<Option<super::observations::Basis>, DbErr> {
    let text: Option<Option<String>> = dataset_version::Entity::find()
        .select_only()
        .column(dataset_version::Column::Basis)
        .filter(dataset_version::Column::Version.eq(version))
        .into_tuple::<Option<String>>()
        .one(db)
        .await?;
    Ok(text.flatten().and_then(|t| serde_json::from_str(&t).ok()))
}

/// Records what `version` was built from (a sync that built the bytes already served).
pub async fn set_basis<C: ConnectionTrait>(
    db: &C,
    version: i32,
    basis: &super::observations::Basis,
) -> Result<(), DbErr> {
    use sea_orm::sea_query::Expr;
    let text = serde_json::to_string(basis).map_err(|e| DbErr::Custom(e.to_string()))?;
    dataset_version::Entity::update_many()
        .col_expr(dataset_version::Column::Basis, Expr::value(Some(text)))
        .filter(dataset_version::Column::Version.eq(version))
        .exec(db)
        .await?;
    Ok(())
}

/// The snapshot of `version`, if it was kept.
pub async fn snapshot<C: ConnectionTrait>(db: &C, version: i32) -> Result<Option<Vec<u8>>, DbErr> {
    Ok(dataset_version::Entity::find_by_id(version)
        .one(db)
        .await?
        .and_then(|v| v.snapshot))
}

/// A new version's row.
pub struct Record<'a> {
    pub version: i32,
    pub sha256: &'a str,
    pub snapshot: &'a Snapshot,
    pub bytes: &'a [u8],
    pub basis: Option<String>,
    pub compared_to: Option<i32>,
    pub changes: Option<Changes>,
    pub imported_at: &'a str,
}

pub async fn record<C: ConnectionTrait>(db: &C, r: Record<'_>) -> Result<(), DbErr> {
    use sea_orm::{ActiveModelTrait, Set};
    dataset_version::Entity::delete_by_id(r.version)
        .exec(db)
        .await?;
    dataset_version::ActiveModel {
        version: Set(r.version),
        snapshot_sha256: Set(r.sha256.to_string()),
        built_at: Set(r.snapshot.built_at.clone()),
        imported_at: Set(r.imported_at.to_string()),
        basis: Set(r.basis),
        models: Set(count(r.snapshot.models.len())),
        offerings: Set(count(r.snapshot.offerings.len())),
        price_periods: Set(count(r.snapshot.price_history.len())),
        compared_to: Set(r.compared_to),
        models_added: Set(r.changes.map(|c| count(c.models_added))),
        models_removed: Set(r.changes.map(|c| count(c.models_removed))),
        models_repriced: Set(r.changes.map(|c| count(c.models_repriced))),
        price_changes: Set(r.changes.map(|c| count(c.price_changes))),
        pinned: Set(false),
        snapshot: Set(Some(r.bytes.to_vec())),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// Records a served version whose snapshot was not kept (imported before versions were
/// recorded): its counts, no basis, no snapshot.
pub async fn record_unkept<C: ConnectionTrait>(
    db: &C,
    served: &entity::dataset::Model,
    models: usize,
    offerings: usize,
) -> Result<(), DbErr> {
    use sea_orm::{ActiveModelTrait, Set};
    let periods = entity::price_history::Entity::find().count(db).await?;
    dataset_version::ActiveModel {
        version: Set(served.version),
        snapshot_sha256: Set(served.snapshot_sha256.clone()),
        built_at: Set(served.built_at.clone()),
        imported_at: Set(served.imported_at.clone()),
        basis: Set(None),
        models: Set(count(models)),
        offerings: Set(count(offerings)),
        price_periods: Set(i64::try_from(periods).unwrap_or(i64::MAX)),
        compared_to: Set(None),
        models_added: Set(None),
        models_removed: Set(None),
        models_repriced: Set(None),
        price_changes: Set(None),
        pinned: Set(false),
        snapshot: Set(None),
    }
    .insert(db)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_compare_at_six_significant_digits() {
        assert!(same_price(Some(75.0), Some(75.0001)));
        assert!(same_price(Some(1.5e-5 * 1e6), Some(15.000002)));
        assert!(!same_price(Some(75.0), Some(75.01)));
        assert!(!same_price(Some(0.15), Some(0.16)));
        assert!(!same_price(None, Some(1.0)));
        assert!(same_price(None, None));
        assert!(same_price(Some(0.0), Some(0.0)));
    }

    #[test]
    fn a_diff_counts_added_removed_and_repriced_models() {
        let side = |models: &[&str], prices: &[(&str, &str, f64, f64)]| Side {
            models: models.iter().map(|m| m.to_string()).collect(),
            prices: prices
                .iter()
                .map(|(m, p, i, o)| ((m.to_string(), p.to_string()), (Some(*i), Some(*o))))
                .collect(),
        };
        let before = side(
            &["a", "b", "c"],
            &[
                ("a", "x", 15.0, 75.0),
                ("b", "x", 1.0, 2.0),
                ("b", "y", 1.0, 2.0),
            ],
        );
        let after = side(
            &["a", "b", "d"],
            &[
                ("a", "x", 15.0, 75.0001),
                ("b", "x", 1.0, 3.0),
                ("b", "y", 2.0, 2.0),
            ],
        );
        let d = Diff::between(&before, &after);
        assert_eq!(d.added, ["d"]);
        assert_eq!(d.removed, ["c"]);
        assert_eq!(
            d.counts(),
            Changes {
                models_added: 1,
                models_removed: 1,
                models_repriced: 1,
                price_changes: 2
            }
        );
    }
}
