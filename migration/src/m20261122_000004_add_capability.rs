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
        // One column per statement: SQLite alters a table one column at a time.
        for (table, mut col) in columns() {
            manager
                .alter_table(Table::alter().table(table).add_column(&mut col).to_owned())
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (table, col) in columns() {
            manager
                .alter_table(
                    Table::alter()
                        .table(table)
                        .drop_column(col.get_column_name())
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
