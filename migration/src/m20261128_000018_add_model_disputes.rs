//! The fields of a model its sources disagree on (a JSON list, like the offerings' witnesses).
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Models {
    Table,
    Disputes,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    vec![(
        Models::Table.into_iden(),
        text_null(Models::Disputes).to_owned(),
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
