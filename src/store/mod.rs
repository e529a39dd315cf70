//! Database access: connection, migrations, snapshot import, API keys, and reading the whole
//! dataset for the catalogue.
//! Knows nothing of HTTP or GraphQL.

pub mod import;
pub mod keys;
pub mod rows;

use migration::{Migrator, MigratorTrait};
use sea_orm::{ConnectOptions, Database, DatabaseConnection, DbErr};

/// Opens a pool on `url` (`sqlite://file.db?mode=rwc`, `postgres://…`).
pub async fn connect(url: &str) -> Result<DatabaseConnection, DbErr> {
    let mut opts = ConnectOptions::new(url.to_string());
    // Short waits: requests never wait on the database for data (it is in memory), and a
    // key lookup or readiness check against a database that is down should fail fast.
    opts.sqlx_logging(false)
        .max_connections(if url.starts_with("sqlite") { 4 } else { 16 })
        .connect_timeout(std::time::Duration::from_secs(3))
        .acquire_timeout(std::time::Duration::from_secs(3));
    Database::connect(opts).await
}

/// Applies pending migrations.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), DbErr> {
    Migrator::up(db, None).await
}

/// Whether any migration is still pending (the schema is not ready for serving).
pub async fn needs_migration(db: &DatabaseConnection) -> Result<bool, DbErr> {
    Ok(!Migrator::get_pending_migrations(db).await?.is_empty())
}
