//! What each source says an offering costs (`sources`, `disputed`), its regional prices and
//! the day its provider stops serving it.
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Offerings {
    Table,
    Regions,
    Sources,
    Disputed,
    DeprecationDate,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    let t = || Offerings::Table.into_iden();
    vec![
        (t(), text_null(Offerings::Regions).to_owned()),
        (t(), text_null(Offerings::Sources).to_owned()),
        (t(), boolean(Offerings::Disputed).default(false).to_owned()),
        (t(), string_null(Offerings::DeprecationDate).to_owned()),
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
