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

fn columns() -> Vec<ColumnDef> {
    vec![
        string(Models::Availability).default("research").to_owned(),
        string(Models::Task).default("chat").to_owned(),
    ]
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite alters a table one column at a time.
        for mut col in columns() {
            manager
                .alter_table(
                    Table::alter()
                        .table(Models::Table)
                        .add_column(&mut col)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for col in columns() {
            manager
                .alter_table(
                    Table::alter()
                        .table(Models::Table)
                        .drop_column(col.get_column_name())
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
