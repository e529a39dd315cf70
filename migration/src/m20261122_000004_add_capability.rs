//! The capability index (models and agents), benchmark difficulty and slope, and the
//! reason each benchmark does or does not enter `average_score`.
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Models {
    Table,
    CapabilityIndex,
    CapabilityIndexSe,
}

#[derive(DeriveIden)]
enum Agents {
    Table,
    CapabilityIndex,
    CapabilityIndexSe,
}

#[derive(DeriveIden)]
enum Benchmarks {
    Table,
    AverageReason,
    Difficulty,
    Slope,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    vec![
        (
            Models::Table.into_iden(),
            double_null(Models::CapabilityIndex),
        ),
        (
            Models::Table.into_iden(),
            double_null(Models::CapabilityIndexSe),
        ),
        (
            Agents::Table.into_iden(),
            double_null(Agents::CapabilityIndex),
        ),
        (
            Agents::Table.into_iden(),
            double_null(Agents::CapabilityIndexSe),
        ),
        (
            Benchmarks::Table.into_iden(),
            string(Benchmarks::AverageReason).default("").to_owned(),
        ),
        (
            Benchmarks::Table.into_iden(),
            double_null(Benchmarks::Difficulty),
        ),
        (
            Benchmarks::Table.into_iden(),
            double_null(Benchmarks::Slope),
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
