//! The benchmark release a score is of (`scores.release`: LiveBench's question sets), kept
//! apart from `as_of`, which is now when the model was measured and never before its release
//! (`docs/methodology.md`, "Scores and who ran them").
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Scores {
    Table,
    Release,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    vec![(
        Scores::Table.into_iden(),
        string_null(Scores::Release).to_owned(),
    )]
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
