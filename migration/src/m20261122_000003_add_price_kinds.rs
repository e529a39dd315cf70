//! Who sells each offering (`kind`), what each provider is (`kind`), and how a model's
//! headline price was chosen (`price_basis`, plus its cheapest paid offering).
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Offerings {
    Table,
    Kind,
}

#[derive(DeriveIden)]
enum Providers {
    Table,
    Kind,
}

#[derive(DeriveIden)]
enum Models {
    Table,
    PriceBasis,
    CheapestProvider,
    CheapestInputPrice,
    CheapestOutputPrice,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    vec![
        (
            Offerings::Table.into_iden(),
            string(Offerings::Kind).default("reseller").to_owned(),
        ),
        (
            Providers::Table.into_iden(),
            string(Providers::Kind).default("reseller").to_owned(),
        ),
        (Models::Table.into_iden(), string_null(Models::PriceBasis)),
        (
            Models::Table.into_iden(),
            string_null(Models::CheapestProvider),
        ),
        (
            Models::Table.into_iden(),
            double_null(Models::CheapestInputPrice),
        ),
        (
            Models::Table.into_iden(),
            double_null(Models::CheapestOutputPrice),
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
