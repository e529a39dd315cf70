//! Long-context price tiers on offerings, and the economy indicators computed at ingest.
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Offerings {
    Table,
    Tiers,
}

#[derive(DeriveIden)]
enum EconomyIndicators {
    Table,
    Slug,
    Position,
    Name,
    Description,
    Unit,
    SecondaryLabel,
    Method,
    Sources,
}

#[derive(DeriveIden)]
enum EconomyPoints {
    Table,
    Id,
    IndicatorSlug,
    Month,
    Value,
    Secondary,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    vec![(
        Offerings::Table.into_iden(),
        text_null(Offerings::Tiers).to_owned(),
    )]
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        crate::add_columns(manager, columns()).await?;
        manager
            .create_table(
                Table::create()
                    .table(EconomyIndicators::Table)
                    .if_not_exists()
                    .col(string(EconomyIndicators::Slug).primary_key())
                    .col(integer(EconomyIndicators::Position))
                    .col(string(EconomyIndicators::Name))
                    .col(text(EconomyIndicators::Description))
                    .col(string(EconomyIndicators::Unit))
                    .col(string_null(EconomyIndicators::SecondaryLabel))
                    .col(text(EconomyIndicators::Method))
                    .col(string(EconomyIndicators::Sources))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(EconomyPoints::Table)
                    .if_not_exists()
                    .col(big_integer(EconomyPoints::Id).primary_key())
                    .col(string(EconomyPoints::IndicatorSlug))
                    .col(string(EconomyPoints::Month))
                    .col(double(EconomyPoints::Value))
                    .col(double_null(EconomyPoints::Secondary))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(EconomyPoints::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(EconomyIndicators::Table).to_owned())
            .await?;
        crate::drop_columns(manager, columns()).await
    }
}
