//! Who ran each score (`provenance`, `citation`), whether it counts in the model's average and
//! index (`in_average`) and, for a maker's own claim, its value calibrated against independent
//! runs; on models, what their ranking rests on (`rank_basis`) and the score the default
//! order sorts by (`rank_score`), and the general release a preview gave way to
//! (`superseded_by`).
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Scores {
    Table,
    Provenance,
    Citation,
    InAverage,
    Calibrated,
}

#[derive(DeriveIden)]
enum Models {
    Table,
    RankBasis,
    RankScore,
    SupersededBy,
}

fn columns() -> Vec<(DynIden, ColumnDef)> {
    let s = || Scores::Table.into_iden();
    vec![
        (
            s(),
            string(Scores::Provenance).default("independent").to_owned(),
        ),
        (s(), text_null(Scores::Citation).to_owned()),
        (s(), boolean(Scores::InAverage).default(false).to_owned()),
        (s(), double_null(Scores::Calibrated).to_owned()),
        (
            Models::Table.into_iden(),
            string_null(Models::RankBasis).to_owned(),
        ),
        (
            Models::Table.into_iden(),
            double_null(Models::RankScore).to_owned(),
        ),
        (
            Models::Table.into_iden(),
            string_null(Models::SupersededBy).to_owned(),
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
