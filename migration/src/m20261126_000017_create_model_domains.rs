//! Rankings per domain (`model_domains`): each model's capability index in a domain (a
//! benchmark category), its standard error, expected domain score and rank score, computed
//! at ingest (`docs/methodology.md`, "Rankings per domain").
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum ModelDomains {
    Table,
    ModelSlug,
    Domain,
    CapabilityIndex,
    CapabilityIndexSe,
    AverageScore,
    RankScore,
    BenchmarksCount,
    Basis,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ModelDomains::Table)
                    .if_not_exists()
                    .col(string(ModelDomains::ModelSlug))
                    .col(string(ModelDomains::Domain))
                    .col(double(ModelDomains::CapabilityIndex))
                    .col(double(ModelDomains::CapabilityIndexSe))
                    .col(double_null(ModelDomains::AverageScore))
                    .col(double_null(ModelDomains::RankScore))
                    .col(integer(ModelDomains::BenchmarksCount))
                    .col(string_null(ModelDomains::Basis))
                    .primary_key(
                        Index::create()
                            .col(ModelDomains::ModelSlug)
                            .col(ModelDomains::Domain),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(ModelDomains::Table).to_owned())
            .await
    }
}
