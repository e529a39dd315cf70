//! The observation store (docs/sync.md): every copy of a source file a sync kept, with its
//! bytes, shared by every instance; every dataset version with what it was built from, so
//! versions can be listed, compared and served again; and the lease that keeps syncs on
//! SQLite one at a time (PostgreSQL uses an advisory lock instead).
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Observations {
    Table,
    Id,
    Source,
    Path,
    Upstream,
    Observed,
    Sha256,
    Bytes,
    Content,
    Removed,
    Origin,
    RecordedAt,
}

#[derive(DeriveIden)]
enum DatasetVersions {
    Table,
    Version,
    SnapshotSha256,
    BuiltAt,
    ImportedAt,
    Basis,
    Models,
    Offerings,
    PricePeriods,
    ComparedTo,
    ModelsAdded,
    ModelsRemoved,
    ModelsRepriced,
    PriceChanges,
    Pinned,
    Snapshot,
}

#[derive(DeriveIden)]
enum SyncLease {
    Table,
    Id,
    Holder,
    ExpiresAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Observations::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Observations::Id))
                    .col(string(Observations::Source))
                    .col(string(Observations::Path))
                    .col(string_null(Observations::Upstream))
                    .col(string(Observations::Observed))
                    .col(string(Observations::Sha256))
                    .col(big_integer(Observations::Bytes))
                    .col(blob_null(Observations::Content))
                    .col(boolean(Observations::Removed).default(false))
                    .col(string(Observations::Origin))
                    .col(string(Observations::RecordedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_observations_source_path")
                    .table(Observations::Table)
                    .col(Observations::Source)
                    .col(Observations::Path)
                    .col(Observations::Id)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(DatasetVersions::Table)
                    .if_not_exists()
                    .col(integer(DatasetVersions::Version).primary_key())
                    .col(string(DatasetVersions::SnapshotSha256))
                    .col(string(DatasetVersions::BuiltAt))
                    .col(string(DatasetVersions::ImportedAt))
                    .col(text_null(DatasetVersions::Basis))
                    .col(big_integer(DatasetVersions::Models))
                    .col(big_integer(DatasetVersions::Offerings))
                    .col(big_integer(DatasetVersions::PricePeriods))
                    .col(integer_null(DatasetVersions::ComparedTo))
                    .col(big_integer_null(DatasetVersions::ModelsAdded))
                    .col(big_integer_null(DatasetVersions::ModelsRemoved))
                    .col(big_integer_null(DatasetVersions::ModelsRepriced))
                    .col(big_integer_null(DatasetVersions::PriceChanges))
                    .col(boolean(DatasetVersions::Pinned).default(false))
                    .col(blob_null(DatasetVersions::Snapshot))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(SyncLease::Table)
                    .if_not_exists()
                    .col(integer(SyncLease::Id).primary_key())
                    .col(string(SyncLease::Holder))
                    .col(string(SyncLease::ExpiresAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            SyncLease::Table.into_iden(),
            DatasetVersions::Table.into_iden(),
            Observations::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}
