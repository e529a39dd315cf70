//! Hourly counters behind one trait, [`CounterStore`], with two stores: [`RedisStore`]
//! (shared by every instance; one atomic Lua script does increment + expiry with Redis' own
//! clock and the hour in the key) and [`MemoryStore`] (one instance). [`Counters`] uses the
//! configured shared store and falls back to in-process counting while it is unreachable.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// One counted request: the count in its window and when the window ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    pub used: u64,
    /// UTC epoch seconds of the next hour boundary.
    pub reset: u64,
    /// Seconds from now to `reset`.
    pub reset_in: u64,
}

pub const WINDOW: u64 = 3600;

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn count_at(used: u64, now: u64) -> Count {
    let reset = (now / WINDOW + 1) * WINDOW;
    Count {
        used,
        reset,
        reset_in: reset - now,
    }
}

/// A store of hourly counters.
#[async_trait::async_trait]
pub trait CounterStore: Send + Sync {
    /// Counts one request in `bucket`'s current hour.
    async fn hit(&self, bucket: &str) -> Result<Count, String>;
    /// Takes back one request (it ended as a 304).
    async fn refund(&self, bucket: &str) -> Result<(), String>;
    /// Whether the store answers.
    async fn ping(&self) -> Result<(), String>;
}

/// In-process counters: (bucket, hour) → count.
#[derive(Default)]
pub struct MemoryStore {
    counts: Mutex<HashMap<String, (u64, u64)>>,
}

impl MemoryStore {
    pub fn hit(&self, bucket: &str) -> Count {
        let now = now_secs();
        let hour = now / WINDOW;
        let mut map = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() > 100_000 {
            map.retain(|_, (h, _)| *h == hour);
        }
        let e = map.entry(bucket.to_string()).or_insert((hour, 0));
        if e.0 != hour {
            *e = (hour, 0);
        }
        e.1 += 1;
        count_at(e.1, now)
    }

    /// Takes back one hit (a request that ended as a 304).
    pub fn refund(&self, bucket: &str) {
        let hour = now_secs() / WINDOW;
        let mut map = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(e) = map.get_mut(bucket).filter(|e| e.0 == hour) {
            e.1 = e.1.saturating_sub(1);
        }
    }
}

/// Increments `KEYS[1]:<hour>` where the hour comes from Redis' clock, sets its expiry if it
/// has none (so no counter can live forever), and returns {count, now}.
const HIT_SCRIPT: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1])
local key = KEYS[1] .. ':' .. math.floor(now / 3600)
local c = redis.call('INCR', key)
if redis.call('TTL', key) < 0 then
  redis.call('EXPIRE', key, 3600 - (now % 3600) + 60)
end
return {c, now}
";

const REFUND_SCRIPT: &str = r"
local t = redis.call('TIME')
local key = KEYS[1] .. ':' .. math.floor(tonumber(t[1]) / 3600)
if redis.call('EXISTS', key) == 1 then
  redis.call('DECR', key)
end
return 0
";

#[async_trait::async_trait]
impl CounterStore for MemoryStore {
    async fn hit(&self, bucket: &str) -> Result<Count, String> {
        Ok(MemoryStore::hit(self, bucket))
    }

    async fn refund(&self, bucket: &str) -> Result<(), String> {
        MemoryStore::refund(self, bucket);
        Ok(())
    }

    async fn ping(&self) -> Result<(), String> {
        Ok(())
    }
}

pub struct RedisStore {
    conn: redis::aio::ConnectionManager,
    prefix: String,
    hit: redis::Script,
    refund: redis::Script,
}

impl RedisStore {
    /// Connects lazily: a Redis that is down at start-up is counted around like an outage.
    pub fn connect(url: &str, prefix: &str) -> redis::RedisResult<Self> {
        let client = redis::Client::open(url)?;
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_millis(500)))
            .set_response_timeout(Some(Duration::from_millis(500)))
            .set_number_of_retries(1);
        let conn = redis::aio::ConnectionManager::new_lazy_with_config(client, config)?;
        Ok(Self {
            conn,
            prefix: prefix.to_string(),
            hit: redis::Script::new(HIT_SCRIPT),
            refund: redis::Script::new(REFUND_SCRIPT),
        })
    }

    fn key(&self, bucket: &str) -> String {
        format!("{}:{bucket}", self.prefix)
    }

    pub async fn hit(&self, bucket: &str) -> redis::RedisResult<Count> {
        let mut conn = self.conn.clone();
        let (used, now): (u64, u64) = self
            .hit
            .key(self.key(bucket))
            .invoke_async(&mut conn)
            .await?;
        Ok(count_at(used, now))
    }

    pub async fn refund(&self, bucket: &str) -> redis::RedisResult<()> {
        let mut conn = self.conn.clone();
        let _: i64 = self
            .refund
            .key(self.key(bucket))
            .invoke_async(&mut conn)
            .await?;
        Ok(())
    }

    pub async fn ping(&self) -> redis::RedisResult<()> {
        let mut conn = self.conn.clone();
        redis::cmd("PING")
            .query_async::<String>(&mut conn)
            .await
            .map(|_| ())
    }
}

#[async_trait::async_trait]
impl CounterStore for RedisStore {
    async fn hit(&self, bucket: &str) -> Result<Count, String> {
        RedisStore::hit(self, bucket)
            .await
            .map_err(|e| e.to_string())
    }

    async fn refund(&self, bucket: &str) -> Result<(), String> {
        RedisStore::refund(self, bucket)
            .await
            .map_err(|e| e.to_string())
    }

    async fn ping(&self) -> Result<(), String> {
        RedisStore::ping(self).await.map_err(|e| e.to_string())
    }
}

/// Counters used by the service: the shared store (Redis) when configured and reachable,
/// else in-process.
pub struct Counters {
    redis: Option<Box<dyn CounterStore>>,
    memory: MemoryStore,
    /// True while Redis is unreachable and counting happens in-process.
    fallback: AtomicBool,
    /// Milliseconds since `started` before which Redis is not retried after a failure.
    retry_after_ms: AtomicU64,
    started: Instant,
}

/// How long to count in-process after a Redis failure before trying Redis again.
const RETRY_INTERVAL: Duration = Duration::from_millis(1000);

impl Counters {
    pub fn memory() -> Self {
        Self::with_redis(None)
    }

    pub fn with_redis(redis: Option<RedisStore>) -> Self {
        Self::with_shared(redis.map(|r| Box::new(r) as Box<dyn CounterStore>))
    }

    /// Counters over any shared store.
    pub fn with_shared(shared: Option<Box<dyn CounterStore>>) -> Self {
        Self {
            redis: shared,
            memory: MemoryStore::default(),
            fallback: AtomicBool::new(false),
            retry_after_ms: AtomicU64::new(0),
            started: Instant::now(),
        }
    }

    pub fn uses_redis(&self) -> bool {
        self.redis.is_some()
    }

    /// Whether Redis is configured but currently unreachable.
    pub fn in_fallback(&self) -> bool {
        self.fallback.load(Ordering::Relaxed)
    }

    fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn redis_usable(&self) -> Option<&dyn CounterStore> {
        let r = self.redis.as_deref()?;
        (self.elapsed_ms() >= self.retry_after_ms.load(Ordering::Relaxed)).then_some(r)
    }

    fn redis_failed(&self, e: &str) {
        self.retry_after_ms.store(
            self.elapsed_ms() + RETRY_INTERVAL.as_millis() as u64,
            Ordering::Relaxed,
        );
        if !self.fallback.swap(true, Ordering::Relaxed) {
            tracing::warn!(error = %e, "Redis unreachable: rate limits are counted in-process until it is back");
        }
    }

    fn redis_ok(&self) {
        if self.fallback.swap(false, Ordering::Relaxed) {
            tracing::info!("Redis reachable again: rate limits are counted in Redis");
        }
    }

    pub async fn hit(&self, bucket: &str) -> Count {
        if let Some(r) = self.redis_usable() {
            match r.hit(bucket).await {
                Ok(c) => {
                    self.redis_ok();
                    return c;
                }
                Err(e) => self.redis_failed(&e),
            }
        }
        self.memory.hit(bucket)
    }

    pub async fn refund(&self, bucket: &str) {
        if let Some(r) = self.redis_usable() {
            match r.refund(bucket).await {
                Ok(()) => return,
                Err(e) => self.redis_failed(&e),
            }
        }
        self.memory.refund(bucket);
    }

    /// Readiness: Redis (if configured) answers a PING.
    pub async fn ready(&self) -> Result<(), String> {
        match &self.redis {
            None => Ok(()),
            Some(r) => r.ping().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_counts_per_bucket_and_refunds() {
        let m = MemoryStore::default();
        assert_eq!(m.hit("a").used, 1);
        assert_eq!(m.hit("a").used, 2);
        assert_eq!(m.hit("b").used, 1);
        m.refund("a");
        let c = m.hit("a");
        assert_eq!(c.used, 2);
        assert_eq!(c.reset % WINDOW, 0);
        assert!(c.reset_in >= 1 && c.reset_in <= WINDOW);
    }
}
