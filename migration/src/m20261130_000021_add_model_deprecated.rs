//! Whether a model's creator has deprecated it (still served, retirement announced or
//! marked), beside its deprecation date (docs/data.md, "Lifecycle").
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Models {
    Table,
    Deprecated,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    vec![(
        Models::Table.into_iden(),
        boolean(Models::Deprecated).default(false).to_owned(),
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
