//! API keys as the limiter sees them: each presented key is looked up in the database at
//! most once per [`KEY_TTL`], its answer (known and active, or not) kept in memory. A
//! revoked key thus stops working within that time on every instance, a flood of wrong
//! keys costs no database work, and while the database is down the keys seen recently
//! keep working.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sea_orm::{DatabaseConnection, DbErr};

use crate::store::keys;

/// How long a lookup's answer is trusted.
pub const KEY_TTL: Duration = Duration::from_secs(5);
/// Most answers kept; past this the memory is emptied (it refills at one lookup per key).
const MAX_KEYS: usize = 10_000;

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
        let digest = keys::hash(key);
        if let Some((id, at)) = self.lock().get(&digest)
            && at.elapsed() < KEY_TTL
        {
            return Ok(*id);
        }
        let id = keys::find_active(db, key).await?.map(|row| row.id);
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
