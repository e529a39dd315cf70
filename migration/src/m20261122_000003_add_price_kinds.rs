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

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite alters a table one column at a time.
        manager
            .alter_table(
                Table::alter()
                    .table(Offerings::Table)
                    .add_column(string(Offerings::Kind).default("reseller"))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Providers::Table)
                    .add_column(string(Providers::Kind).default("reseller"))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Models::Table)
                    .add_column(string_null(Models::PriceBasis))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Models::Table)
                    .add_column(string_null(Models::CheapestProvider))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Models::Table)
                    .add_column(double_null(Models::CheapestInputPrice))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Models::Table)
                    .add_column(double_null(Models::CheapestOutputPrice))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (table, col) in [
            (Offerings::Table.into_iden(), Offerings::Kind.into_iden()),
            (Providers::Table.into_iden(), Providers::Kind.into_iden()),
            (Models::Table.into_iden(), Models::PriceBasis.into_iden()),
            (
                Models::Table.into_iden(),
                Models::CheapestProvider.into_iden(),
            ),
            (
                Models::Table.into_iden(),
                Models::CheapestInputPrice.into_iden(),
            ),
            (
                Models::Table.into_iden(),
                Models::CheapestOutputPrice.into_iden(),
            ),
        ] {
            manager
                .alter_table(Table::alter().table(table).drop_column(col).to_owned())
                .await?;
        }
        Ok(())
    }
}
