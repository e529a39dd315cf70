//! Hourly counters behind one trait, [`CounterStore`], with two stores: [`RedisStore`]
//! (shared by every instance; one atomic Lua script does increment + expiry with Redis' own
//! clock and the hour in the key) and [`MemoryStore`] (one instance). [`Counters`] uses the
//! configured shared store and falls back to in-process counting while it is unreachable.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

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

/// Why a counter store did not count: the service then counts in-process (the circuit opens)
/// and readiness says the store is unreachable, with this as the logged reason.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CounterError {
    /// The store answered with an error (Redis': a refused connection, a script error).
    #[error("{0}")]
    Store(#[from] redis::RedisError),
    /// No answer within [`CALL_TIMEOUT`].
    #[error("no answer within the call timeout")]
    Timeout,
    /// The circuit is open: the store failed and is being probed again.
    #[error("circuit open")]
    CircuitOpen,
}

/// A store of hourly counters.
#[async_trait::async_trait]
pub trait CounterStore: Send + Sync {
    /// Counts one request in `bucket`'s current hour; answers (or fails) within
    /// [`CALL_TIMEOUT`].
    async fn hit(&self, bucket: &str) -> Result<Count, CounterError>;
    /// Takes back one request (it ended as a 304).
    async fn refund(&self, bucket: &str) -> Result<(), CounterError>;
    /// Whether the store answers.
    async fn ping(&self) -> Result<(), CounterError>;
}

/// Independent locks, so concurrent requests rarely wait on each other.
const SHARDS: usize = 16;

/// The counts of one hour; the whole map is dropped when the hour turns, so no request
/// ever scans it.
#[derive(Default)]
struct Shard {
    hour: u64,
    counts: HashMap<String, u64>,
}

/// In-process counters: bucket → count in the current hour, in `SHARDS` shards. Each hit
/// is one hash lookup (O(1)) whatever the number of clients.
#[derive(Default)]
pub struct MemoryStore {
    shards: [Mutex<Shard>; SHARDS],
}

impl MemoryStore {
    fn shard(&self, bucket: &str) -> std::sync::MutexGuard<'_, Shard> {
        use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
        let h = BuildHasherDefault::<DefaultHasher>::default().hash_one(bucket) as usize;
        self.shards[h % SHARDS]
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    pub fn hit(&self, bucket: &str) -> Count {
        let now = now_secs();
        let hour = now / WINDOW;
        let mut shard = self.shard(bucket);
        if shard.hour != hour {
            shard.hour = hour;
            shard.counts = HashMap::new();
        }
        let used = match shard.counts.get_mut(bucket) {
            Some(c) => {
                *c += 1;
                *c
            }
            None => {
                shard.counts.insert(bucket.to_string(), 1);
                1
            }
        };
        count_at(used, now)
    }

    /// Raises a bucket's count to `used` (the shared store's count): should the shared
    /// store fail, counting goes on from there instead of from zero.
    pub fn remember(&self, bucket: &str, used: u64) {
        let hour = now_secs() / WINDOW;
        let mut shard = self.shard(bucket);
        if shard.hour != hour {
            shard.hour = hour;
            shard.counts = HashMap::new();
        }
        match shard.counts.get_mut(bucket) {
            Some(c) => *c = (*c).max(used),
            None => {
                shard.counts.insert(bucket.to_string(), used);
            }
        }
    }

    /// Takes back one hit (a request that ended as a 304).
    pub fn refund(&self, bucket: &str) {
        let hour = now_secs() / WINDOW;
        let mut shard = self.shard(bucket);
        if shard.hour == hour
            && let Some(c) = shard.counts.get_mut(bucket)
        {
            *c = c.saturating_sub(1);
        }
    }

    /// How many buckets hold a count (all hours).
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|p| p.into_inner()).counts.len())
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Adds `ARGV[1]` hits to `KEYS[1]:<hour>` where the hour comes from Redis' clock and
/// returns {count, now}. The increment that creates the key sets its expiry in the same
/// atomic script, so no counter can live forever (the refund only decrements a key that
/// exists), and every other call costs just TIME and INCRBY.
const HIT_SCRIPT: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1])
local n = tonumber(ARGV[1])
local key = KEYS[1] .. ':' .. math.floor(now / 3600)
local c = redis.call('INCRBY', key, n)
if c == n then
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
    async fn hit(&self, bucket: &str) -> Result<Count, CounterError> {
        Ok(MemoryStore::hit(self, bucket))
    }

    async fn refund(&self, bucket: &str) -> Result<(), CounterError> {
        MemoryStore::refund(self, bucket);
        Ok(())
    }

    async fn ping(&self) -> Result<(), CounterError> {
        Ok(())
    }
}

/// Counters in Redis, shared by every instance.
///
/// Hits on one bucket that arrive while that bucket's increment is in flight wait for it and
/// are then counted together by one `INCRBY n`; each still gets its own exact count (the
/// batch's counts are handed out in arrival order). A client sending many requests at once
/// thus costs Redis one round trip per batch rather than per request, and counts stay
/// exact: nothing is reserved ahead or counted twice. The batches are sent by a task of
/// their own, so a request abandoned mid-wait leaves no bucket stuck.
pub struct RedisStore {
    shared: Arc<Link>,
    refund: redis::Script,
}

/// What the batch-sending tasks need.
struct Link {
    conn: redis::aio::ConnectionManager,
    prefix: String,
    hit: redis::Script,
    /// Buckets with a batch task running → the hits waiting for its next increment.
    waiting: Mutex<crate::catalog::HashMap<String, Vec<Waiter>>>,
    /// Increments sent since start.
    increments: AtomicU64,
}

type Waiter = tokio::sync::oneshot::Sender<redis::RedisResult<Count>>;

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
            shared: Arc::new(Link {
                conn,
                prefix: prefix.to_string(),
                hit: redis::Script::new(HIT_SCRIPT),
                waiting: Mutex::new(crate::catalog::HashMap::default()),
                increments: AtomicU64::new(0),
            }),
            refund: redis::Script::new(REFUND_SCRIPT),
        })
    }

    fn key(&self, bucket: &str) -> String {
        self.shared.key(bucket)
    }

    /// Increments sent to Redis since start (each counts a batch of one or more hits).
    pub fn increments(&self) -> u64 {
        self.shared.increments.load(Ordering::Relaxed)
    }

    pub async fn hit(&self, bucket: &str) -> redis::RedisResult<Count> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let start = {
            let mut waiting = self.shared.lock();
            match waiting.get_mut(bucket) {
                Some(queue) => {
                    queue.push(tx);
                    false
                }
                None => {
                    waiting.insert(bucket.to_string(), vec![tx]);
                    true
                }
            }
        };
        if start {
            tokio::spawn(self.shared.clone().send_batches(bucket.to_string()));
        }
        rx.await.unwrap_or_else(|_| {
            Err(redis::RedisError::from((
                redis::ErrorKind::Io,
                "the counting task ended",
            )))
        })
    }

    pub async fn refund(&self, bucket: &str) -> redis::RedisResult<()> {
        let mut conn = self.shared.conn.clone();
        let _: i64 = self
            .refund
            .key(self.key(bucket))
            .invoke_async(&mut conn)
            .await?;
        Ok(())
    }

    pub async fn ping(&self) -> redis::RedisResult<()> {
        let mut conn = self.shared.conn.clone();
        redis::cmd("PING")
            .query_async::<String>(&mut conn)
            .await
            .map(|_| ())
    }
}

impl Link {
    fn key(&self, bucket: &str) -> String {
        format!("{}:{bucket}", self.prefix)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, crate::catalog::HashMap<String, Vec<Waiter>>> {
        self.waiting.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sends the bucket's waiting hits as one increment, again and again, until none wait.
    async fn send_batches(self: Arc<Self>, bucket: String) {
        let key = self.key(&bucket);
        loop {
            let batch = {
                let mut waiting = self.lock();
                match waiting.get_mut(&bucket) {
                    Some(queue) if !queue.is_empty() => std::mem::take(queue),
                    _ => {
                        waiting.remove(&bucket);
                        return;
                    }
                }
            };
            let n = batch.len() as u64;
            self.increments.fetch_add(1, Ordering::Relaxed);
            let mut conn = self.conn.clone();
            let mut call = self.hit.key(&key);
            call.arg(n);
            let sent = call.invoke_async::<(u64, u64)>(&mut conn);
            match tokio::time::timeout(CALL_TIMEOUT, sent).await {
                Ok(Ok((total, now))) => {
                    let first = total.saturating_sub(n) + 1;
                    for (i, w) in (0u64..).zip(batch) {
                        let _ = w.send(Ok(count_at(first + i, now)));
                    }
                }
                Ok(Err(e)) => {
                    for w in batch {
                        let _ = w.send(Err(e.clone()));
                    }
                }
                Err(_) => {
                    // Redis hangs: everyone waiting now is answered at once, so no hit
                    // waits longer than one call timeout, and the circuit opens.
                    let queued = self.lock().remove(&bucket).unwrap_or_default();
                    for w in batch.into_iter().chain(queued) {
                        let _ = w.send(Err(redis::RedisError::from((
                            redis::ErrorKind::Io,
                            "no answer within the call timeout",
                        ))));
                    }
                    return;
                }
            }
        }
    }
}

#[async_trait::async_trait]
impl CounterStore for RedisStore {
    async fn hit(&self, bucket: &str) -> Result<Count, CounterError> {
        Ok(RedisStore::hit(self, bucket).await?)
    }

    async fn refund(&self, bucket: &str) -> Result<(), CounterError> {
        Ok(RedisStore::refund(self, bucket).await?)
    }

    async fn ping(&self) -> Result<(), CounterError> {
        Ok(RedisStore::ping(self).await?)
    }
}

/// Counters used by the service: the shared store (Redis) when configured and reachable,
/// else in-process.
///
/// A circuit breaker keeps a hung or unreachable Redis off the request path: the first
/// failure (or a call slower than the store's timeout) opens the circuit; while it is open
/// every request counts in-process at once, and one background task pings Redis every
/// [`RETRY_INTERVAL`], closing the circuit when it answers.
pub struct Counters {
    shared: Option<Arc<dyn CounterStore>>,
    memory: MemoryStore,
    /// True while the circuit is open (Redis unreachable; counting in-process).
    open: Arc<AtomicBool>,
    /// Hits the shared store failed to answer: the requests that waited on it (each at most
    /// one call timeout) before the circuit opened.
    failed: AtomicU64,
}

/// How often the background probe tries an unreachable Redis.
pub const RETRY_INTERVAL: Duration = Duration::from_millis(500);
/// Longest wait for one Redis call on the request path before the circuit opens.
pub const CALL_TIMEOUT: Duration = Duration::from_millis(250);

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
            shared: shared.map(Arc::from),
            memory: MemoryStore::default(),
            open: Arc::new(AtomicBool::new(false)),
            failed: AtomicU64::new(0),
        }
    }

    /// How many requests waited on the shared store and were counted in-process after it
    /// failed to answer.
    pub fn failed_hits(&self) -> u64 {
        self.failed.load(Ordering::Relaxed)
    }

    pub fn uses_redis(&self) -> bool {
        self.shared.is_some()
    }

    /// Whether Redis is configured but currently unreachable.
    pub fn in_fallback(&self) -> bool {
        self.open.load(Ordering::Relaxed)
    }

    /// The shared store, unless the circuit is open.
    fn closed(&self) -> Option<&Arc<dyn CounterStore>> {
        self.shared
            .as_ref()
            .filter(|_| !self.open.load(Ordering::Relaxed))
    }

    /// Opens the circuit and starts the one probe that will close it again.
    fn trip(&self, e: &CounterError) {
        let Some(shared) = self.shared.clone() else {
            return;
        };
        if self.open.swap(true, Ordering::AcqRel) {
            return;
        }
        tracing::warn!(error = %e, "Redis unreachable: rate limits are counted in-process until it is back");
        let open = self.open.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(RETRY_INTERVAL).await;
                if let Ok(Ok(())) = tokio::time::timeout(CALL_TIMEOUT, shared.ping()).await {
                    open.store(false, Ordering::Release);
                    tracing::info!("Redis reachable again: rate limits are counted in Redis");
                    return;
                }
            }
        });
    }

    pub async fn hit(&self, bucket: &str) -> Count {
        // No timer per request here: a store's `hit` answers within the call timeout itself
        // (Redis' batches run under one).
        if let Some(r) = self.closed() {
            match r.hit(bucket).await {
                Ok(c) => {
                    // Kept in-process too, so an outage continues each client's count on
                    // this instance rather than restarting it at zero.
                    self.memory.remember(bucket, c.used);
                    return c;
                }
                Err(e) => {
                    self.failed.fetch_add(1, Ordering::Relaxed);
                    self.trip(&e);
                }
            }
        }
        self.memory.hit(bucket)
    }

    pub async fn refund(&self, bucket: &str) {
        if let Some(r) = self.closed() {
            match tokio::time::timeout(CALL_TIMEOUT, r.refund(bucket)).await {
                Ok(Ok(())) => return,
                Ok(Err(e)) => self.trip(&e),
                Err(_) => self.trip(&CounterError::Timeout),
            }
        }
        self.memory.refund(bucket);
    }

    /// Readiness: Redis (if configured) answers a PING within the call timeout; an open
    /// circuit answers at once.
    pub async fn ready(&self) -> Result<(), CounterError> {
        match &self.shared {
            None => Ok(()),
            Some(_) if self.in_fallback() => Err(CounterError::CircuitOpen),
            Some(r) => tokio::time::timeout(CALL_TIMEOUT, r.ping())
                .await
                .unwrap_or(Err(CounterError::Timeout)),
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

    #[test]
    fn many_clients_are_counted_apart() {
        let m = MemoryStore::default();
        for i in 0..50_000 {
            assert_eq!(m.hit(&format!("free:{i}")).used, 1);
        }
        assert_eq!(m.len(), 50_000);
        assert_eq!(m.hit("free:7").used, 2);
    }
}
