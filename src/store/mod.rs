//! Database access: connection, migrations, snapshot import, API keys, the observation store
//! and the dataset's versions, and reading the whole dataset for the catalogue.
//! Knows nothing of HTTP or GraphQL.

pub mod import;
pub mod keys;
pub mod observations;
pub mod rows;
pub mod versions;

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

/// Whether any migration is pending, without writing anything (a dry run's check: the
/// migration table is not created when absent).
pub async fn needs_migration_read_only(db: &DatabaseConnection) -> Result<bool, DbErr> {
    Ok(!Migrator::get_pending_migrations_read_only(db)
        .await?
        .is_empty())
}

/// `url` opened read-only where the driver can say so: SQLite's `mode=ro` (which also never
/// creates a missing file); a PostgreSQL URL is unchanged (a dry run issues only reads).
pub fn read_only_url(url: &str) -> String {
    if !url.starts_with("sqlite:") {
        return url.to_string();
    }
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let mut params: Vec<&str> = query
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("mode="))
        .collect();
    params.push("mode=ro");
    format!("{base}?{}", params.join("&"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn sqlite_urls_open_read_only() {
        assert_eq!(
            super::read_only_url("sqlite://mds.db?mode=rwc"),
            "sqlite://mds.db?mode=ro"
        );
        assert_eq!(
            super::read_only_url("sqlite://x.db"),
            "sqlite://x.db?mode=ro"
        );
        assert_eq!(
            super::read_only_url("postgres://u@h/db"),
            "postgres://u@h/db"
        );
    }
}
