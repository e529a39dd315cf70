//! The model a fine-tune or merge derives from.
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Models {
    Table,
    BaseModel,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    vec![(
        Models::Table.into_iden(),
        string_null(Models::BaseModel).to_owned(),
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
