//! What paging someone needs from the store, the same on every instance (docs/sync.md,
//! "Signals"): each source's failed tries since its last success and in all
//! (`source_status.failures`, `failures_total`) and when it started failing
//! (`failing_since`: a source failing past the stale threshold is `stale`); and the
//! upstream's own date of each observed copy (`observations.upstream_date`: its
//! `Last-Modified`), kept apart from its name for it (`upstream`: a release, else the `ETag`).
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum SourceStatus {
    Table,
    Failures,
    FailuresTotal,
    FailingSince,
}

#[derive(DeriveIden)]
enum Observations {
    Table,
    UpstreamDate,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    vec![
        (
            SourceStatus::Table.into_iden(),
            big_integer(SourceStatus::Failures).default(0).to_owned(),
        ),
        (
            SourceStatus::Table.into_iden(),
            big_integer(SourceStatus::FailuresTotal)
                .default(0)
                .to_owned(),
        ),
        (
            SourceStatus::Table.into_iden(),
            string_null(SourceStatus::FailingSince).to_owned(),
        ),
        (
            Observations::Table.into_iden(),
            string_null(Observations::UpstreamDate).to_owned(),
        ),
    ]
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        crate::add_columns(manager, columns()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        crate::drop_columns(manager, columns()).await
    }
}
