//! Tiers, keys and hourly limits, against a real Redis.

use std::process::{Child, Command};
use std::time::Duration;

use mds::config::{KeyTier, ServeConfig};
use serde_json::Value;

use crate::helpers::{Backend, TestApp, free_port, fresh_database, redis_url};

fn prefix() -> String {
    use rand::RngCore;
    let mut b = [0u8; 6];
    rand::rng().fill_bytes(&mut b);
    format!("mds-test:{}", hex::encode(b))
}

fn config(redis: Option<String>, prefix: &str, free: u64) -> ServeConfig {
    ServeConfig {
        redis_url: redis,
        redis_prefix: prefix.to_string(),
        free_limit: free,
        authenticated_limit: free * 2,
        ..ServeConfig::default()
    }
}

async fn redis_conn(url: &str) -> redis::aio::MultiplexedConnection {
    redis::Client::open(url)
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap_or_else(|e| panic!("Redis is required for the tests ({url}): {e}"))
}

async fn keys_with_prefix(url: &str, prefix: &str) -> Vec<String> {
    let mut c = redis_conn(url).await;
    redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query_async(&mut c)
        .await
        .unwrap()
}

/// Every value of a header, joined as one (lists send paging and licence `Link`s apart).
fn header(res: &reqwest::Response, name: &str) -> String {
    res.headers()
        .get_all(name)
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[tokio::test]
async fn two_instances_sharing_redis_grant_exactly_the_limit() {
    let p = prefix();
    let url = fresh_database(Backend::Sqlite).await;
    let limit = 25;
    let a = TestApp::spawn_on(&url, config(Some(redis_url()), &p, limit)).await;
    let b = TestApp::spawn_on(&url, config(Some(redis_url()), &p, limit)).await;
    let mut set = tokio::task::JoinSet::new();
    for i in 0..(3 * limit) {
        let target = if i % 2 == 0 {
            a.url("/api/v1/sources")
        } else {
            b.url("/graphql?query=%7Bdataset%7Bversion%7D%7D")
        };
        let client = a.client.clone();
        set.spawn(async move { client.get(target).send().await.unwrap() });
    }
    let (mut ok, mut limited) = (0, 0);
    while let Some(res) = set.join_next().await {
        let res = res.unwrap();
        match res.status().as_u16() {
            200 => ok += 1,
            429 => {
                limited += 1;
                assert_eq!(header(&res, "x-ratelimit-remaining"), "0");
                assert_eq!(header(&res, "x-ratelimit-limit"), limit.to_string());
                let retry: u64 = header(&res, "retry-after").parse().unwrap();
                assert!((1..=3600).contains(&retry));
                let path = res.url().path().to_string();
                let body: Value = res.json().await.unwrap();
                if path == "/graphql" {
                    assert_eq!(body["errors"][0]["extensions"]["code"], "RATE_LIMITED");
                } else {
                    assert_eq!(body["code"], "rate_limited");
                }
            }
            s => panic!("unexpected status {s}"),
        }
    }
    assert_eq!((ok, limited), (limit, 2 * limit));
    // No counter key without an expiry.
    let keys = keys_with_prefix(&redis_url(), &p).await;
    assert!(!keys.is_empty());
    let mut c = redis_conn(&redis_url()).await;
    for k in keys {
        let ttl: i64 = redis::cmd("TTL").arg(&k).query_async(&mut c).await.unwrap();
        assert!(ttl > 0 && ttl <= 3660, "{k} has TTL {ttl}");
    }
}

/// Concurrent hits on one bucket are sent to Redis in batches, yet each gets its own exact
/// count: the counts handed out are 1..=n with none repeated or skipped, Redis holds n, and
/// fewer increments than hits were sent.
#[tokio::test]
async fn concurrent_hits_are_batched_and_counted_exactly() {
    let p = prefix();
    let store = std::sync::Arc::new(mds::counters::RedisStore::connect(&redis_url(), &p).unwrap());
    let n = 400u64;
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..n {
        let store = store.clone();
        set.spawn(async move { store.hit("free:203.0.113.9").await.unwrap().used });
    }
    let mut counts = Vec::new();
    while let Some(c) = set.join_next().await {
        counts.push(c.unwrap());
    }
    counts.sort_unstable();
    assert_eq!(counts, (1..=n).collect::<Vec<_>>());
    let keys = keys_with_prefix(&redis_url(), &p).await;
    assert_eq!(keys.len(), 1);
    let mut c = redis_conn(&redis_url()).await;
    let held: u64 = redis::cmd("GET")
        .arg(&keys[0])
        .query_async(&mut c)
        .await
        .unwrap();
    assert_eq!(held, n);
    let ttl: i64 = redis::cmd("TTL")
        .arg(&keys[0])
        .query_async(&mut c)
        .await
        .unwrap();
    assert!(ttl > 0 && ttl <= 3660, "TTL {ttl}");
    let sent = store.increments();
    assert!((1..n / 4).contains(&sent), "{sent} increments for {n} hits");
    // A lone hit afterwards is counted on top, by itself.
    assert_eq!(store.hit("free:203.0.113.9").await.unwrap().used, n + 1);
}

#[tokio::test]
async fn headers_count_down_and_reset_at_the_hour() {
    let p = prefix();
    let app = TestApp::spawn_with(Backend::Sqlite, config(Some(redis_url()), &p, 3)).await;
    let mut remaining = Vec::new();
    for _ in 0..3 {
        let res = app.get("/api/v1/benchmarks").await;
        assert_eq!(res.status().as_u16(), 200);
        remaining.push(header(&res, "x-ratelimit-remaining"));
        let reset: u64 = header(&res, "x-ratelimit-reset").parse().unwrap();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        assert_eq!(reset % 3600, 0, "reset is an hour boundary");
        assert!(reset > now && reset - now <= 3600);
        assert_eq!(header(&res, "x-ratelimit-resource"), "rest");
        assert_eq!(header(&res, "ratelimit-policy"), "\"free\";q=3;w=3600");
        assert!(header(&res, "ratelimit").starts_with("\"free\";r="));
        assert!(header(&res, "link").contains("rel=\"license\""));
    }
    assert_eq!(remaining, ["2", "1", "0"]);
    let res = app.get("/api/v1/benchmarks").await;
    assert_eq!(res.status().as_u16(), 429);
    let retry: u64 = header(&res, "retry-after").parse().unwrap();
    let t: u64 = header(&res, "ratelimit")
        .rsplit("t=")
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(retry, t);
    // Health, metrics, docs and assets do not count.
    for path in [
        "/healthz",
        "/metrics",
        "/docs",
        "/api/v1/openapi.json",
        "/assets/graphiql/graphiql.min.css",
    ] {
        assert_eq!(
            app.get(path).await.status().as_u16(),
            200,
            "{path} must not be limited"
        );
    }
}

#[tokio::test]
async fn revalidation_with_304_is_free() {
    let p = prefix();
    let app = TestApp::spawn_with(Backend::Sqlite, config(Some(redis_url()), &p, 10)).await;
    let first = app.get("/api/v1/models/gpt-4o-2024-11-20").await;
    let etag = header(&first, "etag");
    assert_eq!(header(&first, "x-ratelimit-used"), "1");
    for _ in 0..3 {
        let res = app
            .client
            .get(app.url("/api/v1/models/gpt-4o-2024-11-20"))
            .header("if-none-match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 304);
    }
    let next = app.get("/api/v1/models/gpt-4o-2024-11-20").await;
    assert_eq!(header(&next, "x-ratelimit-used"), "2");
}

/// Clients (4): people create a key when the free hour runs out, so a key made after the
/// address spent it works at once, at the authenticated limit.
#[tokio::test]
async fn a_key_created_after_the_free_hour_is_spent_works_at_once() {
    let p = prefix();
    let app = TestApp::spawn_with(Backend::Postgres, config(Some(redis_url()), &p, 3)).await;
    let statuses: Vec<u16> = statuses_of(&app, "/api/v1/models?limit=1", 4).await;
    assert_eq!(statuses, [200, 200, 200, 429]);
    let db = mds::store::connect(&app.database_url).await.unwrap();
    let created = mds::store::keys::create(&db, "new user", KeyTier::Authenticated)
        .await
        .unwrap();
    for used in 1..=2 {
        let res = app
            .get_with_key("/api/v1/models?limit=1", &created.key)
            .await;
        assert_eq!(res.status().as_u16(), 200);
        assert_eq!(header(&res, "x-ratelimit-limit"), "6");
        assert_eq!(header(&res, "x-ratelimit-used"), used.to_string());
    }
    // A made-up key from the same address is still refused, without a lookup.
    let lookups = app.state.keys.lookups();
    let res = app
        .get_with_key("/api/v1/models?limit=1", "mds_made_up")
        .await;
    assert_eq!(res.status().as_u16(), 429);
    assert_eq!(app.state.keys.lookups(), lookups);
}

async fn statuses_of(app: &TestApp, path: &str, n: usize) -> Vec<u16> {
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(app.get(path).await.status().as_u16());
    }
    out
}

#[tokio::test]
async fn keys_raise_the_limit_until_revoked() {
    let p = prefix();
    let app = TestApp::spawn_with(Backend::Postgres, config(Some(redis_url()), &p, 5)).await;
    let db = mds::store::connect(&app.database_url).await.unwrap();
    let created = mds::store::keys::create(&db, "test client", KeyTier::Authenticated)
        .await
        .unwrap();
    assert!(created.key.starts_with("mds_"));
    assert_ne!(created.row.key_hash, created.key, "only a hash is stored");

    let res = app
        .get_with_key("/api/v1/models?limit=1", &created.key)
        .await;
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(header(&res, "x-ratelimit-limit"), "10");
    assert_eq!(
        header(&res, "ratelimit-policy"),
        "\"authenticated\";q=10;w=3600"
    );
    assert!(
        !header(&res, "link").contains("license"),
        "no attribution header for keyed requests"
    );
    let body: Value = res.json().await.unwrap();
    assert!(body["meta"].get("attribution").is_none());
    let res = app
        .client
        .get(app.url("/api/v1/sources"))
        .bearer_auth(&created.key)
        .send()
        .await
        .unwrap();
    assert_eq!(
        header(&res, "x-ratelimit-used"),
        "2",
        "Bearer counts against the same key"
    );
    let gql: Value = app
        .graphql_with_key("{ dataset { version } }", &created.key)
        .await
        .json()
        .await
        .unwrap();
    assert!(gql["extensions"]["attribution"].is_null());

    mds::store::keys::revoke(&db, &created.row.prefix)
        .await
        .unwrap();
    // Key lookups are remembered for a few seconds: revocation takes effect within that.
    tokio::time::sleep(mds::store::keys::KEY_TTL + Duration::from_millis(200)).await;
    let res = app.get_with_key("/api/v1/sources", &created.key).await;
    assert_eq!(res.status().as_u16(), 401);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "invalid_api_key");
    let res = app
        .graphql_with_key("{ dataset { version } }", &created.key)
        .await;
    assert_eq!(res.status().as_u16(), 401);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["errors"][0]["extensions"]["code"], "UNAUTHENTICATED");
    let res = app
        .client
        .get(app.url("/api/v1/sources"))
        .header("authorization", "Bearer mds_unknown")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 401);
}

#[tokio::test]
async fn forwarded_for_counts_only_behind_trusted_proxies() {
    let p = prefix();
    let app = TestApp::spawn_with(Backend::Sqlite, config(None, &p, 100)).await;
    for (i, ip) in ["1.1.1.1", "2.2.2.2", "3.3.3.3"].iter().enumerate() {
        let res = app
            .client
            .get(app.url("/api/v1/sources"))
            .header("x-forwarded-for", *ip)
            .send()
            .await
            .unwrap();
        assert_eq!(
            header(&res, "x-ratelimit-used"),
            (i + 1).to_string(),
            "an untrusted peer's XFF is ignored"
        );
    }
    let mut cfg = config(None, &p, 100);
    cfg.trusted_proxies = vec!["127.0.0.0/8".parse().unwrap()];
    let behind = TestApp::spawn_with(Backend::Sqlite, cfg).await;
    // The rightmost hop that is not a trusted proxy is the client.
    for (xff, used) in [
        ("1.1.1.1, 127.0.0.5", "1"),
        ("2.2.2.2, 127.0.0.5", "1"),
        ("9.9.9.9, 1.1.1.1", "2"),
    ] {
        let res = behind
            .client
            .get(behind.url("/api/v1/sources"))
            .header("x-forwarded-for", xff)
            .send()
            .await
            .unwrap();
        assert_eq!(header(&res, "x-ratelimit-used"), used, "{xff}");
    }
    let res = behind
        .client
        .get(behind.url("/api/v1/sources"))
        .header("x-forwarded-for", "1.1.1.1")
        .send()
        .await
        .unwrap();
    assert_eq!(
        header(&res, "x-ratelimit-used"),
        "3",
        "1.1.1.1 counted three times behind the proxy"
    );
}

fn start_redis(port: u16) -> Child {
    crate::helpers::start_redis(port, &[])
}

async fn counter(url: &str, prefix: &str) -> i64 {
    let keys = keys_with_prefix(url, prefix).await;
    let mut c = redis_conn(url).await;
    let mut total = 0;
    for k in keys {
        let v: i64 = redis::cmd("GET").arg(&k).query_async(&mut c).await.unwrap();
        total += v;
    }
    total
}

#[tokio::test]
async fn a_redis_outage_falls_back_in_process_and_recovers() {
    let port = free_port();
    let url = format!("redis://127.0.0.1:{port}");
    let mut redis = start_redis(port);
    let p = prefix();
    let app = TestApp::spawn_with(Backend::Sqlite, config(Some(url.clone()), &p, 4)).await;
    for _ in 0..2 {
        assert_eq!(app.get("/api/v1/sources").await.status().as_u16(), 200);
    }
    assert_eq!(counter(&url, &p).await, 2);

    redis.kill().unwrap();
    redis.wait().unwrap();
    // Served without a 5xx, counted in-process from the count Redis last gave (2 of 4),
    // not from zero: the limit still holds across the outage.
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(app.get("/api/v1/sources").await.status().as_u16());
    }
    assert_eq!(statuses, [200, 200, 429, 429]);
    assert!(app.state.counters.in_fallback());
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(metrics.contains("mds_redis_fallback 1"));
    assert_eq!(
        app.get("/healthz/dependencies").await.status().as_u16(),
        503
    );
    // A Redis outage never takes the instance out of a load balancer.
    assert_eq!(app.get("/readyz").await.status().as_u16(), 200);

    let mut redis = start_redis(port);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let res = app.get("/api/v1/sources").await;
    assert_eq!(
        res.status().as_u16(),
        200,
        "the new Redis has a fresh window"
    );
    assert_eq!(counter(&url, &p).await, 1, "counting is back in Redis");
    assert!(!app.state.counters.in_fallback());
    redis.kill().unwrap();
    redis.wait().unwrap();
}

#[tokio::test]
async fn the_keys_cli_prints_the_key_once_and_never_lists_it() {
    let url = fresh_database(Backend::Sqlite).await;
    let bin = env!("CARGO_BIN_EXE_mds");
    let out = Command::new(bin)
        .args(["keys", "create", "--name", "cli test"])
        .env("DATABASE_URL", &url)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let key = stdout.lines().last().unwrap().to_string();
    assert!(key.starts_with("mds_") && key.len() == 76, "{key}");
    assert_eq!(
        mds::store::keys::shape(&key),
        mds::store::keys::Shape::Checked
    );
    let list = Command::new(bin)
        .args(["keys", "list"])
        .env("DATABASE_URL", &url)
        .output()
        .unwrap();
    let listed = String::from_utf8(list.stdout).unwrap();
    assert!(listed.contains("cli test") && listed.contains(&key[..12]));
    assert!(!listed.contains(&key), "the key itself is never listed");
    let revoke = Command::new(bin)
        .args(["keys", "revoke", &key[..12]])
        .env("DATABASE_URL", &url)
        .output()
        .unwrap();
    assert!(revoke.status.success());
    let listed = String::from_utf8(
        Command::new(bin)
            .args(["keys", "list"])
            .env("DATABASE_URL", &url)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(
        !listed.lines().nth(1).unwrap().ends_with("- cli test"),
        "revoked keys show their revocation time"
    );
    let again = Command::new(bin)
        .args(["keys", "revoke", &key[..12]])
        .env("DATABASE_URL", &url)
        .output()
        .unwrap();
    assert!(!again.status.success(), "revoking twice is an error");
}
