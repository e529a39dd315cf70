//! Dates from observations: a model's first sighting and how it is dated, and the
//! observation before a price change that no source dated.
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Models {
    Table,
    FirstSeen,
    DateBasis,
}

#[derive(DeriveIden)]
enum PriceHistory {
    Table,
    ObservedAfter,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    vec![
        (
            Models::Table.into_iden(),
            string_null(Models::FirstSeen).to_owned(),
        ),
        (
            Models::Table.into_iden(),
            string_null(Models::DateBasis).to_owned(),
        ),
        (
            PriceHistory::Table.into_iden(),
            string_null(PriceHistory::ObservedAfter).to_owned(),
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
