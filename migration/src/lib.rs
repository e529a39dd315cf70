//! Database migrations of the Model Data Service.
//!
//! One file per change, named `mYYYYMMDD_HHMMSS_<what>.rs`; a merged migration is never
//! edited. This crate does not depend on `entity`: a migration describes the schema as it
//! was at that point in time, not as the entities are today.
pub use sea_orm_migration::prelude::*;

mod m20261122_000001_create_catalog;
mod m20261122_000002_create_api_keys;
mod m20261122_000003_add_price_kinds;
mod m20261122_000004_add_capability;
mod m20261122_000005_add_curation;
mod m20261122_000006_add_tiers_and_economy;
mod m20261123_000007_add_unit_prices;
mod m20261124_000008_add_observations;
mod m20261124_000009_create_source_status;
mod m20261124_000010_add_price_variants;
mod m20261124_000011_add_upcoming_prices;
mod m20261124_000012_add_model_lifecycle;
mod m20261124_000013_add_offering_witnesses;
mod m20261124_000014_add_base_model;
mod m20261124_000015_add_score_provenance;
mod m20261126_000016_add_score_release;
mod m20261126_000017_create_model_domains;
mod m20261128_000018_add_model_disputes;
mod m20261128_000019_create_observation_store;
mod m20261129_000020_add_source_signals;
mod m20261130_000021_add_model_deprecated;
mod m20261201_000022_add_foreign_keys;

/// Adds `columns` (table, column) one statement each, as SQLite alters one column at a
/// time; the shared body of the migrations that only add columns.
async fn add_columns(
    manager: &SchemaManager<'_>,
    columns: Vec<(DynIden, ColumnDef)>,
) -> Result<(), DbErr> {
    for (table, mut col) in columns {
        manager
            .alter_table(Table::alter().table(table).add_column(&mut col).to_owned())
            .await?;
    }
    Ok(())
}

/// Drops what [`add_columns`] added.
async fn drop_columns(
    manager: &SchemaManager<'_>,
    columns: Vec<(DynIden, ColumnDef)>,
) -> Result<(), DbErr> {
    for (table, col) in columns {
        manager
            .alter_table(
                Table::alter()
                    .table(table)
                    .drop_column(col.get_column_name())
                    .to_owned(),
            )
            .await?;
    }
    Ok(())
}

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261122_000001_create_catalog::Migration),
            Box::new(m20261122_000002_create_api_keys::Migration),
            Box::new(m20261122_000003_add_price_kinds::Migration),
            Box::new(m20261122_000004_add_capability::Migration),
            Box::new(m20261122_000005_add_curation::Migration),
            Box::new(m20261122_000006_add_tiers_and_economy::Migration),
            Box::new(m20261123_000007_add_unit_prices::Migration),
            Box::new(m20261124_000008_add_observations::Migration),
            Box::new(m20261124_000009_create_source_status::Migration),
            Box::new(m20261124_000010_add_price_variants::Migration),
            Box::new(m20261124_000011_add_upcoming_prices::Migration),
            Box::new(m20261124_000012_add_model_lifecycle::Migration),
            Box::new(m20261124_000013_add_offering_witnesses::Migration),
            Box::new(m20261124_000014_add_base_model::Migration),
            Box::new(m20261124_000015_add_score_provenance::Migration),
            Box::new(m20261126_000016_add_score_release::Migration),
            Box::new(m20261126_000017_create_model_domains::Migration),
            Box::new(m20261128_000018_add_model_disputes::Migration),
            Box::new(m20261128_000019_create_observation_store::Migration),
            Box::new(m20261129_000020_add_source_signals::Migration),
            Box::new(m20261130_000021_add_model_deprecated::Migration),
            Box::new(m20261201_000022_add_foreign_keys::Migration),
        ]
    }
}
