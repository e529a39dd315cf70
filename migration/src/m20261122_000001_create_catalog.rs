use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden, Clone, Copy)]
enum Providers {
    Table,
    Slug,
    Name,
    Website,
    ModelsCount,
    CreatedCount,
}

#[derive(DeriveIden, Clone, Copy)]
enum Models {
    Table,
    Slug,
    Name,
    CreatorSlug,
    Category,
    Family,
    OpenSource,
    ReleaseDate,
    ContextWindow,
    MaxOutputTokens,
    InputModalities,
    OutputModalities,
    Reasoning,
    ToolCall,
    AverageScore,
    BenchmarksCount,
    InputPrice,
    OutputPrice,
}

#[derive(DeriveIden, Clone, Copy)]
enum ModelAliases {
    Table,
    Alias,
    ModelSlug,
}

#[derive(DeriveIden, Clone, Copy)]
enum Offerings {
    Table,
    Id,
    ModelSlug,
    ProviderSlug,
    ProviderModelId,
    InputPrice,
    OutputPrice,
    CacheReadPrice,
    CacheWritePrice,
    ContextWindow,
    AsOf,
    Source,
}

#[derive(DeriveIden, Clone, Copy)]
enum PriceHistory {
    Table,
    Id,
    ModelSlug,
    ProviderSlug,
    InputPrice,
    OutputPrice,
    CacheReadPrice,
    CacheWritePrice,
    EffectiveFrom,
    EffectiveTo,
    Source,
}

#[derive(DeriveIden, Clone, Copy)]
enum Benchmarks {
    Table,
    Slug,
    Name,
    Category,
    Unit,
    HigherIsBetter,
    InAverage,
    Description,
    SourceUrl,
    Source,
    ModelsCount,
}

#[derive(DeriveIden, Clone, Copy)]
enum Scores {
    Table,
    Id,
    ModelSlug,
    BenchmarkSlug,
    Score,
    Config,
    IsHeadline,
    AsOf,
    Source,
}

#[derive(DeriveIden, Clone, Copy)]
enum Agents {
    Table,
    Slug,
    Name,
    Organization,
    OpenSource,
    Date,
    AverageScore,
    BenchmarksCount,
}

#[derive(DeriveIden, Clone, Copy)]
enum AgentModels {
    Table,
    AgentSlug,
    ModelSlug,
}

#[derive(DeriveIden, Clone, Copy)]
enum AgentScores {
    Table,
    Id,
    AgentSlug,
    BenchmarkSlug,
    Score,
    IsHeadline,
    AsOf,
    Source,
}

#[derive(DeriveIden, Clone, Copy)]
enum Sources {
    Table,
    Slug,
    Name,
    Repository,
    Commit,
    SnapshotDate,
    License,
    Attribution,
    Url,
}

#[derive(DeriveIden, Clone, Copy)]
enum Dataset {
    Table,
    Id,
    Version,
    SnapshotSha256,
    BuiltAt,
    ImportedAt,
}

/// Creates an index on `cols` of `table`, named `idx_<name>`.
async fn index<T: IntoIden + Copy + 'static>(
    manager: &SchemaManager<'_>,
    name: &str,
    table: T,
    cols: &[T],
) -> Result<(), DbErr> {
    let mut stmt = Index::create();
    stmt.name(format!("idx_{name}")).table(table);
    for col in cols {
        stmt.col(*col);
    }
    manager.create_index(stmt.to_owned()).await
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Providers::Table)
                    .if_not_exists()
                    .col(string(Providers::Slug).primary_key())
                    .col(string(Providers::Name))
                    .col(string_null(Providers::Website))
                    .col(integer(Providers::ModelsCount))
                    .col(integer(Providers::CreatedCount))
                    .to_owned(),
            )
            .await?;
        index(
            manager,
            "providers_name",
            Providers::Table,
            &[Providers::Name],
        )
        .await?;

        manager
            .create_table(
                Table::create()
                    .table(Models::Table)
                    .if_not_exists()
                    .col(string(Models::Slug).primary_key())
                    .col(string(Models::Name))
                    .col(string_null(Models::CreatorSlug))
                    .col(string(Models::Category))
                    .col(string_null(Models::Family))
                    .col(boolean_null(Models::OpenSource))
                    .col(string_null(Models::ReleaseDate))
                    .col(big_integer_null(Models::ContextWindow))
                    .col(big_integer_null(Models::MaxOutputTokens))
                    .col(string(Models::InputModalities))
                    .col(string(Models::OutputModalities))
                    .col(boolean_null(Models::Reasoning))
                    .col(boolean_null(Models::ToolCall))
                    .col(double_null(Models::AverageScore))
                    .col(integer(Models::BenchmarksCount))
                    .col(double_null(Models::InputPrice))
                    .col(double_null(Models::OutputPrice))
                    .to_owned(),
            )
            .await?;
        // One index per filter and sort of the model list (`docs/rest.md`); each ends in the
        // slug tie-break so a sorted page is an index range scan.
        index(
            manager,
            "models_score",
            Models::Table,
            &[Models::AverageScore, Models::Slug],
        )
        .await?;
        index(
            manager,
            "models_price",
            Models::Table,
            &[Models::InputPrice, Models::Slug],
        )
        .await?;
        index(
            manager,
            "models_name",
            Models::Table,
            &[Models::Name, Models::Slug],
        )
        .await?;
        index(
            manager,
            "models_date",
            Models::Table,
            &[Models::ReleaseDate, Models::Slug],
        )
        .await?;
        index(
            manager,
            "models_creator",
            Models::Table,
            &[Models::CreatorSlug],
        )
        .await?;
        index(
            manager,
            "models_category",
            Models::Table,
            &[Models::Category],
        )
        .await?;
        index(
            manager,
            "models_open_source",
            Models::Table,
            &[Models::OpenSource],
        )
        .await?;

        manager
            .create_table(
                Table::create()
                    .table(ModelAliases::Table)
                    .if_not_exists()
                    .col(string(ModelAliases::Alias).primary_key())
                    .col(string(ModelAliases::ModelSlug))
                    .to_owned(),
            )
            .await?;
        index(
            manager,
            "model_aliases_model",
            ModelAliases::Table,
            &[ModelAliases::ModelSlug],
        )
        .await?;

        manager
            .create_table(
                Table::create()
                    .table(Offerings::Table)
                    .if_not_exists()
                    .col(big_integer(Offerings::Id).primary_key())
                    .col(string(Offerings::ModelSlug))
                    .col(string(Offerings::ProviderSlug))
                    .col(string(Offerings::ProviderModelId))
                    .col(double_null(Offerings::InputPrice))
                    .col(double_null(Offerings::OutputPrice))
                    .col(double_null(Offerings::CacheReadPrice))
                    .col(double_null(Offerings::CacheWritePrice))
                    .col(big_integer_null(Offerings::ContextWindow))
                    .col(string_null(Offerings::AsOf))
                    .col(string(Offerings::Source))
                    .to_owned(),
            )
            .await?;
        index(
            manager,
            "offerings_model",
            Offerings::Table,
            &[Offerings::ModelSlug],
        )
        .await?;
        index(
            manager,
            "offerings_provider",
            Offerings::Table,
            &[Offerings::ProviderSlug, Offerings::ModelSlug],
        )
        .await?;

        manager
            .create_table(
                Table::create()
                    .table(PriceHistory::Table)
                    .if_not_exists()
                    .col(big_integer(PriceHistory::Id).primary_key())
                    .col(string(PriceHistory::ModelSlug))
                    .col(string(PriceHistory::ProviderSlug))
                    .col(double_null(PriceHistory::InputPrice))
                    .col(double_null(PriceHistory::OutputPrice))
                    .col(double_null(PriceHistory::CacheReadPrice))
                    .col(double_null(PriceHistory::CacheWritePrice))
                    .col(string(PriceHistory::EffectiveFrom))
                    .col(string_null(PriceHistory::EffectiveTo))
                    .col(string(PriceHistory::Source))
                    .to_owned(),
            )
            .await?;
        index(
            manager,
            "price_history_model",
            PriceHistory::Table,
            &[PriceHistory::ModelSlug, PriceHistory::EffectiveFrom],
        )
        .await?;

        manager
            .create_table(
                Table::create()
                    .table(Benchmarks::Table)
                    .if_not_exists()
                    .col(string(Benchmarks::Slug).primary_key())
                    .col(string(Benchmarks::Name))
                    .col(string(Benchmarks::Category))
                    .col(string(Benchmarks::Unit))
                    .col(boolean(Benchmarks::HigherIsBetter))
                    .col(boolean(Benchmarks::InAverage))
                    .col(text(Benchmarks::Description))
                    .col(string(Benchmarks::SourceUrl))
                    .col(string(Benchmarks::Source))
                    .col(integer(Benchmarks::ModelsCount))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Scores::Table)
                    .if_not_exists()
                    .col(big_integer(Scores::Id).primary_key())
                    .col(string(Scores::ModelSlug))
                    .col(string(Scores::BenchmarkSlug))
                    .col(double(Scores::Score))
                    .col(string_null(Scores::Config))
                    .col(boolean(Scores::IsHeadline))
                    .col(string_null(Scores::AsOf))
                    .col(string(Scores::Source))
                    .to_owned(),
            )
            .await?;
        index(
            manager,
            "scores_model",
            Scores::Table,
            &[Scores::ModelSlug, Scores::BenchmarkSlug],
        )
        .await?;
        index(
            manager,
            "scores_benchmark",
            Scores::Table,
            &[Scores::BenchmarkSlug, Scores::IsHeadline, Scores::Score],
        )
        .await?;

        manager
            .create_table(
                Table::create()
                    .table(Agents::Table)
                    .if_not_exists()
                    .col(string(Agents::Slug).primary_key())
                    .col(string(Agents::Name))
                    .col(string_null(Agents::Organization))
                    .col(boolean_null(Agents::OpenSource))
                    .col(string_null(Agents::Date))
                    .col(double_null(Agents::AverageScore))
                    .col(integer(Agents::BenchmarksCount))
                    .to_owned(),
            )
            .await?;
        index(
            manager,
            "agents_score",
            Agents::Table,
            &[Agents::AverageScore, Agents::Slug],
        )
        .await?;

        manager
            .create_table(
                Table::create()
                    .table(AgentModels::Table)
                    .if_not_exists()
                    .col(string(AgentModels::AgentSlug))
                    .col(string(AgentModels::ModelSlug))
                    .primary_key(
                        Index::create()
                            .col(AgentModels::AgentSlug)
                            .col(AgentModels::ModelSlug),
                    )
                    .to_owned(),
            )
            .await?;
        index(
            manager,
            "agent_models_model",
            AgentModels::Table,
            &[AgentModels::ModelSlug],
        )
        .await?;

        manager
            .create_table(
                Table::create()
                    .table(AgentScores::Table)
                    .if_not_exists()
                    .col(big_integer(AgentScores::Id).primary_key())
                    .col(string(AgentScores::AgentSlug))
                    .col(string(AgentScores::BenchmarkSlug))
                    .col(double(AgentScores::Score))
                    .col(boolean(AgentScores::IsHeadline))
                    .col(string_null(AgentScores::AsOf))
                    .col(string(AgentScores::Source))
                    .to_owned(),
            )
            .await?;
        index(
            manager,
            "agent_scores_agent",
            AgentScores::Table,
            &[AgentScores::AgentSlug],
        )
        .await?;

        manager
            .create_table(
                Table::create()
                    .table(Sources::Table)
                    .if_not_exists()
                    .col(string(Sources::Slug).primary_key())
                    .col(string(Sources::Name))
                    .col(string(Sources::Repository))
                    .col(string(Sources::Commit))
                    .col(string(Sources::SnapshotDate))
                    .col(string(Sources::License))
                    .col(text(Sources::Attribution))
                    .col(string(Sources::Url))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Dataset::Table)
                    .if_not_exists()
                    .col(integer(Dataset::Id).primary_key())
                    .col(integer(Dataset::Version))
                    .col(string(Dataset::SnapshotSha256))
                    .col(string(Dataset::BuiltAt))
                    .col(string(Dataset::ImportedAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            Dataset::Table.into_iden(),
            Sources::Table.into_iden(),
            AgentScores::Table.into_iden(),
            AgentModels::Table.into_iden(),
            Agents::Table.into_iden(),
            Scores::Table.into_iden(),
            Benchmarks::Table.into_iden(),
            PriceHistory::Table.into_iden(),
            Offerings::Table.into_iden(),
            ModelAliases::Table.into_iden(),
            Models::Table.into_iden(),
            Providers::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}
