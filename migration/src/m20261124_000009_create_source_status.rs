//! The sync's per-source state (upstream, version, last fetch and success, error, rows),
//! shared by every instance through the database.
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum SourceStatus {
    Table,
    Slug,
    Upstream,
    Version,
    LastFetched,
    LastSuccess,
    Error,
    Rows,
    Observed,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(SourceStatus::Table)
                    .if_not_exists()
                    .col(string(SourceStatus::Slug).primary_key())
                    .col(string(SourceStatus::Upstream))
                    .col(string_null(SourceStatus::Version))
                    .col(string(SourceStatus::LastFetched))
                    .col(string_null(SourceStatus::LastSuccess))
                    .col(text_null(SourceStatus::Error))
                    .col(big_integer(SourceStatus::Rows))
                    .col(string_null(SourceStatus::Observed))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(SourceStatus::Table).to_owned())
            .await
    }
}
