//! API keys: created and revoked by the CLI, looked up by hash on every keyed request.
//! Only the SHA-256 of a key is stored; the key itself is shown once, at creation.

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
/// Random bytes in a key (hex-encoded: 64 characters).
const RANDOM_BYTES: usize = 32;
/// Hex digits of the random part of keys issued before keys carried a checksum.
const LEGACY_HEX: usize = 48;

/// What a presented key's own characters say, before any database is asked (see
/// `docs/limits.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `mds_` + 64 hex digits + the CRC-32 of those digits (8 hex): the form `create` issues.
    /// A correct checksum means the key was issued by a service, not typed or made up.
    Checked,
    /// `mds_` + 48 hex digits: a key issued before keys carried a checksum; still honoured.
    Legacy,
    /// Anything else, a checksum that does not match included: never a key.
    Invalid,
}

/// The checksum of a key's random part, as 8 lowercase hex digits.
fn checksum(random_hex: &str) -> String {
    format!("{:08x}", crc32fast::hash(random_hex.as_bytes()))
}

/// Classifies a presented key by its characters alone.
pub fn shape(key: &str) -> Shape {
    let Some(body) = key.strip_prefix(KEY_PREFIX) else {
        return Shape::Invalid;
    };
    let hex_lower = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    if !hex_lower(body) {
        return Shape::Invalid;
    }
    match body.len() {
        LEGACY_HEX => Shape::Legacy,
        n if n == RANDOM_BYTES * 2 + 8 => {
            let (random, sum) = body.split_at(RANDOM_BYTES * 2);
            if checksum(random) == sum {
                Shape::Checked
            } else {
                Shape::Invalid
            }
        }
        _ => Shape::Invalid,
    }
}

/// The key whose random part is `random_hex` (64 lowercase hex digits): `mds_`, the
/// digits and their checksum.
pub fn with_checksum(random_hex: &str) -> String {
    let sum = checksum(random_hex);
    format!("{KEY_PREFIX}{random_hex}{sum}")
}

/// A new key: 32 random bytes.
fn new_key() -> String {
    let mut bytes = [0u8; RANDOM_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    with_checksum(&hex::encode(bytes))
}

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
    let key = new_key();
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
/// Answers kept of each kind (known keys, unknown keys).
const MAX_KEYS: usize = 10_000;

/// What memory says of a presented key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recalled {
    /// An active key, looked up within [`KEY_TTL`].
    Active(i64),
    /// Unknown or revoked, looked up within [`KEY_TTL`].
    Unknown,
    /// Not looked up recently: the database must answer.
    NotRecent,
}

/// Presented keys as the limiter sees them: each is looked up in the database at most once
/// per [`KEY_TTL`], its answer kept in memory. A revoked key thus stops working within that
/// time on every instance, a flood of wrong keys costs no database work once seen, and
/// while the database is down the keys seen before keep working.
///
/// Known and unknown keys are kept apart, each bounded and evicting the least useful
/// entries first (`quick_cache`'s frequency-aware policy), never all at once: a flood of
/// made-up keys can only push out other made-up keys.
pub struct KeyCache {
    /// Key hash → (key id, when looked up).
    known: quick_cache::sync::Cache<String, (i64, Instant)>,
    /// Key hash → when found unknown or revoked.
    unknown: quick_cache::sync::Cache<String, Instant>,
    /// Database lookups made (for metrics and tests).
    lookups: std::sync::atomic::AtomicU64,
}

impl Default for KeyCache {
    fn default() -> Self {
        Self {
            known: quick_cache::sync::Cache::new(MAX_KEYS),
            unknown: quick_cache::sync::Cache::new(MAX_KEYS),
            lookups: std::sync::atomic::AtomicU64::new(0),
        }
    }
}

impl KeyCache {
    /// What memory says of `key` (its hash), without the database.
    pub fn recall(&self, digest: &str) -> Recalled {
        if let Some((id, at)) = self.known.get(digest)
            && at.elapsed() < KEY_TTL
        {
            return Recalled::Active(id);
        }
        match self.unknown.get(digest) {
            Some(at) if at.elapsed() < KEY_TTL => Recalled::Unknown,
            _ => Recalled::NotRecent,
        }
    }

    /// Database lookups made so far.
    pub fn lookups(&self) -> u64 {
        self.lookups.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Asks the database for `key` and remembers the answer. When the database fails, a
    /// key known before (however long ago) is still its owner's.
    pub async fn look_up(
        &self,
        db: &DatabaseConnection,
        key: &str,
        digest: &str,
    ) -> Result<Option<i64>, DbErr> {
        self.lookups
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // Boxed: the query's future is large, and every request's limiter future would
        // otherwise carry (and move) its space although most never reach the database.
        match Box::pin(find_active(db, key)).await {
            Ok(Some(row)) => {
                self.unknown.remove(digest);
                self.known
                    .insert(digest.to_string(), (row.id, Instant::now()));
                Ok(Some(row.id))
            }
            Ok(None) => {
                self.known.remove(digest);
                self.unknown.insert(digest.to_string(), Instant::now());
                Ok(None)
            }
            Err(e) => match self.known.get(digest) {
                Some((id, _)) => {
                    tracing::warn!(error = %e, "key store unreachable; a key known before is honoured");
                    Ok(Some(id))
                }
                None => Err(e),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issued_keys_carry_a_checksum_that_a_changed_character_breaks() {
        let key = new_key();
        assert_eq!(shape(&key), Shape::Checked);
        // Any one character changed in the random part fails the checksum.
        let mut chars: Vec<char> = key.chars().collect();
        let i = KEY_PREFIX.len() + 5;
        chars[i] = if chars[i] == '0' { '1' } else { '0' };
        let typo: String = chars.into_iter().collect();
        assert_eq!(shape(&typo), Shape::Invalid);
        assert_eq!(
            shape(&format!("{KEY_PREFIX}{}", "ab".repeat(24))),
            Shape::Legacy
        );
        for bad in [
            "",
            "mds_",
            "mds_xyz",
            "sk-abc",
            &key.to_uppercase(),
            &key[..key.len() - 1],
        ] {
            assert_eq!(shape(bad), Shape::Invalid, "{bad}");
        }
    }
}
