//! API keys: created and revoked by the CLI, looked up by hash on every keyed request.
//! Only the SHA-256 of a key is stored; the key itself is shown once, at creation.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use entity::api_key;
use rand::RngCore;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder,
    Set,
};

use crate::config::KeyTier;
use crate::snapshot::sha256_hex;

/// Keys start with this, so they are recognisable in logs and secret scanners.
pub const KEY_PREFIX: &str = "mds_";
/// Characters of the key kept as its public prefix (`mds_` + 8).
const PREFIX_LEN: usize = 12;

pub struct Created {
    pub key: String,
    pub row: api_key::Model,
}

#[derive(Debug)]
pub enum KeyError {
    Db(DbErr),
    NotFound(String),
}

impl std::fmt::Display for KeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Db(e) => write!(f, "database: {e}"),
            Self::NotFound(k) => write!(f, "no active key with prefix or id {k:?}"),
        }
    }
}

impl std::error::Error for KeyError {}

impl From<DbErr> for KeyError {
    fn from(e: DbErr) -> Self {
        Self::Db(e)
    }
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

pub fn hash(key: &str) -> String {
    sha256_hex(key.as_bytes())
}

pub async fn create(
    db: &DatabaseConnection,
    name: &str,
    tier: KeyTier,
) -> Result<Created, KeyError> {
    let mut bytes = [0u8; 24];
    rand::rng().fill_bytes(&mut bytes);
    let key = format!("{KEY_PREFIX}{}", hex::encode(bytes));
    let tier = match tier {
        KeyTier::Authenticated => "authenticated",
    };
    let row = api_key::ActiveModel {
        name: Set(name.to_string()),
        key_hash: Set(hash(&key)),
        prefix: Set(key[..PREFIX_LEN].to_string()),
        tier: Set(tier.to_string()),
        created_at: Set(now()),
        revoked_at: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(Created { key, row })
}

pub async fn list(db: &DatabaseConnection) -> Result<Vec<api_key::Model>, DbErr> {
    api_key::Entity::find()
        .order_by_asc(api_key::Column::Id)
        .all(db)
        .await
}

/// Revokes the active key whose prefix or id is `which`.
pub async fn revoke(db: &DatabaseConnection, which: &str) -> Result<api_key::Model, KeyError> {
    let mut q = api_key::Entity::find().filter(api_key::Column::RevokedAt.is_null());
    q = match which.parse::<i64>() {
        Ok(id) => q.filter(api_key::Column::Id.eq(id)),
        Err(_) => q.filter(api_key::Column::Prefix.eq(which)),
    };
    let row = q
        .one(db)
        .await?
        .ok_or_else(|| KeyError::NotFound(which.to_string()))?;
    let mut active: api_key::ActiveModel = row.into();
    active.revoked_at = Set(Some(now()));
    Ok(active.update(db).await?)
}

/// The active key row for a presented key, if any.
pub async fn find_active(
    db: &DatabaseConnection,
    key: &str,
) -> Result<Option<api_key::Model>, DbErr> {
    api_key::Entity::find()
        .filter(api_key::Column::KeyHash.eq(hash(key)))
        .filter(api_key::Column::RevokedAt.is_null())
        .one(db)
        .await
}

/// How long a lookup's answer is trusted.
pub const KEY_TTL: Duration = Duration::from_secs(5);
/// Most answers kept; past this the memory is emptied (it refills at one lookup per key).
const MAX_KEYS: usize = 10_000;

/// Presented keys as the limiter sees them: each is looked up in the database at most once
/// per [`KEY_TTL`], its answer (known and active, or not) kept in memory. A revoked key thus
/// stops working within that time on every instance, a flood of wrong keys costs no database
/// work, and while the database is down the keys seen recently keep working.
///
/// Recent answers: key hash → (key id if active, when looked up).
#[derive(Default)]
pub struct KeyCache {
    answers: Mutex<HashMap<String, (Option<i64>, Instant)>>,
}

impl KeyCache {
    /// The id of the active key `key`, or `None` for an unknown or revoked one.
    pub async fn find_active(
        &self,
        db: &DatabaseConnection,
        key: &str,
    ) -> Result<Option<i64>, DbErr> {
        let digest = hash(key);
        if let Some((id, at)) = self.lock().get(&digest)
            && at.elapsed() < KEY_TTL
        {
            return Ok(*id);
        }
        // Boxed: the query's future is large, and every request's limiter future would
        // otherwise carry (and move) its space although most never reach the database.
        let id = Box::pin(find_active(db, key)).await?.map(|row| row.id);
        let mut answers = self.lock();
        if answers.len() >= MAX_KEYS {
            answers.clear();
        }
        answers.insert(digest, (id, Instant::now()));
        Ok(id)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Option<i64>, Instant)>> {
        self.answers.lock().unwrap_or_else(|p| p.into_inner())
    }
}
