//! Prices an offering has in units other than text tokens (image and audio tokens, web
//! searches, requests), as its sources publish them.
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Offerings {
    Table,
    UnitPrices,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    vec![(
        Offerings::Table.into_iden(),
        text_null(Offerings::UnitPrices).to_owned(),
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
