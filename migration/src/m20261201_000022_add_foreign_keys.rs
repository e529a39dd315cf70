//! Declares the dataset's references as foreign keys (docs/data.md, "References"), so the
//! database itself refuses a row that names a model, provider, benchmark or agent it lacks,
//! whatever wrote it. The import checks the same references before it writes anything
//! (`Snapshot::dangling`); this is the schema saying so too.
//!
//! The keys are deferred to the end of each transaction: an import replaces every table in
//! one transaction, and in between a table may briefly name rows not yet written.
//!
//! PostgreSQL adds them in place. SQLite cannot add a constraint to a table, so each table
//! that references another is rebuilt as SQLite documents ("Making Other Kinds Of Table
//! Schema Changes"): a new table from the stored definition plus the keys, the rows copied,
//! the old table dropped, the new one renamed, its indexes made again. Rows that already
//! named a missing row (none the import has let through since it checked references) are
//! left behind: the catalogue never served them.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend, Statement};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// `(table, column, referenced table)`; every referenced column is its table's `slug`.
/// `models` comes first: on SQLite a table is rebuilt before any key names it.
const REFERENCES: &[(&str, &str, &str)] = &[
    ("models", "creator_slug", "providers"),
    ("model_aliases", "model_slug", "models"),
    ("offerings", "model_slug", "models"),
    ("offerings", "provider_slug", "providers"),
    ("price_history", "model_slug", "models"),
    ("price_history", "provider_slug", "providers"),
    ("scores", "model_slug", "models"),
    ("scores", "benchmark_slug", "benchmarks"),
    ("agent_models", "agent_slug", "agents"),
    ("agent_models", "model_slug", "models"),
    ("agent_scores", "agent_slug", "agents"),
    ("agent_scores", "benchmark_slug", "benchmarks"),
    ("model_domains", "model_slug", "models"),
];

/// The tables holding references, in [`REFERENCES`]' order, each once.
fn tables() -> Vec<&'static str> {
    let mut out: Vec<&str> = Vec::new();
    for (table, _, _) in REFERENCES {
        if !out.contains(table) {
            out.push(table);
        }
    }
    out
}

/// The constraint clause of one reference, as both backends spell it.
fn constraint((table, column, target): (&str, &str, &str)) -> String {
    format!(
        "CONSTRAINT \"fk_{table}_{column}\" FOREIGN KEY (\"{column}\") REFERENCES \"{target}\" (\"slug\") DEFERRABLE INITIALLY DEFERRED"
    )
}

/// The references of `table`.
fn references_of(table: &str) -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    REFERENCES
        .iter()
        .copied()
        .filter(move |(t, _, _)| *t == table)
}

async fn execute(db: &SchemaManagerConnection<'_>, sql: String) -> Result<(), DbErr> {
    db.execute_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .map(|_| ())
}

/// Deletes the rows of `table` whose reference names no row.
async fn leave_dangling_rows(db: &SchemaManagerConnection<'_>, table: &str) -> Result<(), DbErr> {
    for (_, column, target) in references_of(table) {
        execute(
            db,
            format!(
                "DELETE FROM \"{table}\" WHERE \"{column}\" IS NOT NULL AND NOT EXISTS \
                 (SELECT 1 FROM \"{target}\" r WHERE r.\"slug\" = \"{table}\".\"{column}\")"
            ),
        )
        .await?;
    }
    Ok(())
}

/// One text column of the first row `sql` returns, for every row.
async fn texts(
    db: &SchemaManagerConnection<'_>,
    sql: &str,
    arg: &str,
) -> Result<Vec<String>, DbErr> {
    let rows = db
        .query_all_raw(Statement::from_sql_and_values(
            DbBackend::Sqlite,
            sql,
            [arg.into()],
        ))
        .await?;
    rows.iter().map(|r| r.try_get_by_index(0)).collect()
}

/// Rebuilds SQLite table `table` with the definition `define` makes of its stored one.
async fn rebuild_sqlite(
    db: &SchemaManagerConnection<'_>,
    table: &str,
    define: impl Fn(&str) -> Result<String, DbErr>,
) -> Result<(), DbErr> {
    let stored = texts(
        db,
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
        table,
    )
    .await?;
    let Some(stored) = stored.first() else {
        return Err(DbErr::Migration(format!("table {table} is missing")));
    };
    let indexes = texts(
        db,
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
        table,
    )
    .await?;
    // The stored text is `CREATE TABLE "name" ( … )`; only its body is kept.
    let body = stored
        .split_once('(')
        .and_then(|(_, rest)| rest.trim_end().strip_suffix(')'))
        .ok_or_else(|| DbErr::Migration(format!("unexpected definition of {table}: {stored}")))?;
    let new = format!("{table}_rebuilt");
    execute(
        db,
        format!("CREATE TABLE \"{new}\" ({})", define(body.trim())?),
    )
    .await?;
    execute(
        db,
        format!("INSERT INTO \"{new}\" SELECT * FROM \"{table}\""),
    )
    .await?;
    execute(db, format!("DROP TABLE \"{table}\"")).await?;
    execute(db, format!("ALTER TABLE \"{new}\" RENAME TO \"{table}\"")).await?;
    for index in indexes {
        execute(db, index).await?;
    }
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    // SQLite's rebuilds are all or nothing too.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        for table in tables() {
            leave_dangling_rows(db, table).await?;
            if manager.get_database_backend() == DbBackend::Sqlite {
                rebuild_sqlite(db, table, |body| {
                    let keys: Vec<String> = references_of(table).map(constraint).collect();
                    Ok(format!("{body}, {}", keys.join(", ")))
                })
                .await?;
            } else {
                for reference in references_of(table) {
                    execute(
                        db,
                        format!("ALTER TABLE \"{table}\" ADD {}", constraint(reference)),
                    )
                    .await?;
                }
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        for table in tables().into_iter().rev() {
            if manager.get_database_backend() == DbBackend::Sqlite {
                rebuild_sqlite(db, table, |body| {
                    let keys: Vec<String> = references_of(table).map(constraint).collect();
                    body.strip_suffix(&format!(", {}", keys.join(", ")))
                        .map(str::to_string)
                        .ok_or_else(|| {
                            DbErr::Migration(format!("{table} does not end with its keys"))
                        })
                })
                .await?;
            } else {
                for (_, column, _) in references_of(table) {
                    execute(
                        db,
                        format!("ALTER TABLE \"{table}\" DROP CONSTRAINT \"fk_{table}_{column}\""),
                    )
                    .await?;
                }
            }
        }
        Ok(())
    }
}
