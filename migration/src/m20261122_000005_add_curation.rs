//! What each model is for (`task`) and how it can be had (`availability`).
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Models {
    Table,
    Availability,
    Task,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    vec![
        (
            Models::Table.into_iden(),
            string(Models::Availability).default("research").to_owned(),
        ),
        (
            Models::Table.into_iden(),
            string(Models::Task).default("chat").to_owned(),
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
