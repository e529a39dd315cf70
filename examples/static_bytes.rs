//! The benchmark's baseline: a server that answers every GET with the same bytes and does
//! no other work, optionally with one Redis INCR per request (the floor for shared rate-limit
//! counters). `scripts/bench.sh` runs it beside `mds` so both are measured in one run.
//!
//! Usage: static_bytes BODY_FILE ADDR [REDIS_URL]

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;

#[derive(Clone)]
struct Baseline {
    body: Bytes,
    redis: Option<redis::aio::ConnectionManager>,
}

async fn answer(State(b): State<Arc<Baseline>>) -> impl IntoResponse {
    if let Some(conn) = &b.redis {
        let mut conn = conn.clone();
        let _: Result<i64, _> = redis::cmd("INCR")
            .arg("mds-bench:baseline")
            .query_async(&mut conn)
            .await;
    }
    ([(header::CONTENT_TYPE, "application/json")], b.body.clone())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(file), Some(addr)) = (args.get(1), args.get(2)) else {
        return Err("usage: static_bytes BODY_FILE ADDR [REDIS_URL]".into());
    };
    let redis = match args.get(3) {
        Some(url) => {
            Some(redis::aio::ConnectionManager::new(redis::Client::open(url.as_str())?).await?)
        }
        None => None,
    };
    let state = Arc::new(Baseline {
        body: Bytes::from(std::fs::read(file)?),
        redis,
    });
    let app = Router::new().fallback(answer).with_state(state);
    let listener = tokio::net::TcpListener::bind(addr.as_str()).await?;
    axum::serve(listener, app).await?;
    Ok(())
}
