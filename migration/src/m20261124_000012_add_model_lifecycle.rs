//! What users of other model catalogues look for: structured-output support, the training
//! cutoff, the record's last update, the creator's deprecation date and whether it passed.
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Models {
    Table,
    StructuredOutput,
    KnowledgeCutoff,
    LastUpdated,
    DeprecationDate,
    Retired,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    let t = || Models::Table.into_iden();
    vec![
        (t(), boolean_null(Models::StructuredOutput).to_owned()),
        (t(), string_null(Models::KnowledgeCutoff).to_owned()),
        (t(), string_null(Models::LastUpdated).to_owned()),
        (t(), string_null(Models::DeprecationDate).to_owned()),
        (t(), boolean(Models::Retired).default(false).to_owned()),
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
