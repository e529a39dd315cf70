//! The one list of routes and layers.
//!
//! Layers, outermost first: request id → access log and metrics → CORS → compression →
//! request timeout → error bodies as problem+json → query-string cap and 405 for non-GET
//! REST → rate limit (API paths only) → ETag / 304 → handlers.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{MatchedPath, Path, RawQuery, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::Value;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{Any, CorsLayer};

use crate::error::{Problem, REQUEST_ID};
use crate::graphql;
use crate::limits::{self, Caller, Tier};
use crate::rest::{self, table};
use crate::state::AppState;

/// Largest accepted GraphQL request body.
pub const MAX_GRAPHQL_BODY: usize = 64 * 1024;

pub fn router(state: AppState) -> Router {
    let mut api = Router::new();
    for ep in table::ENDPOINTS {
        api = api.route(
            ep.path,
            get(
                move |State(s): State<AppState>,
                      Path(p): Path<HashMap<String, String>>,
                      RawQuery(q): RawQuery,
                      caller: Option<axum::Extension<Caller>>| async move {
                    rest_handler(s, ep, p, q, caller.map(|c| c.0)).await
                },
            ),
        );
    }
    let exposed = [
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-used",
        "x-ratelimit-reset",
        "x-ratelimit-resource",
        "ratelimit",
        "ratelimit-policy",
        "retry-after",
        "etag",
        "link",
        "x-request-id",
    ]
    .map(header::HeaderName::from_static);
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::HEAD, Method::POST, Method::OPTIONS])
        .allow_headers([
            header::CONTENT_TYPE,
            header::AUTHORIZATION,
            header::IF_NONE_MATCH,
            header::HeaderName::from_static("x-api-key"),
        ])
        .expose_headers(exposed)
        .max_age(Duration::from_secs(3600));
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/graphql", get(graphql_get).post(graphql_post))
        .route("/graphiql", get(graphiql))
        .route("/assets/graphiql/{file}", get(asset))
        .route("/api/v1/openapi.json", get(openapi))
        .route("/docs", get(docs))
        .merge(api)
        .fallback(not_found)
        .layer(middleware::from_fn(etag))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            limits::middleware,
        ))
        .layer(middleware::from_fn(guard))
        .layer(middleware::from_fn(problems))
        .layer(middleware::from_fn_with_state(state.clone(), timeout))
        .layer(CompressionLayer::new().gzip(true).br(true))
        .layer(cors)
        .layer(middleware::from_fn_with_state(state.clone(), access_log))
        .layer(middleware::from_fn(request_id))
        .with_state(state)
}

async fn rest_handler(
    s: AppState,
    ep: &'static table::Endpoint,
    path: HashMap<String, String>,
    query: Option<String>,
    caller: Option<Caller>,
) -> Response {
    let pairs: Vec<(String, String)> =
        serde_urlencoded::from_str(query.as_deref().unwrap_or_default()).unwrap_or_default();
    let prepared = match rest::prepare(ep, &path, &pairs) {
        Ok(p) => p,
        Err(p) => return p.into_response(),
    };
    let free = caller.is_none_or(|c| c.tier == Tier::Free);
    let catalog = s.catalog.snapshot();
    let attribution = free.then(|| s.attribution(&catalog));
    match rest::execute(
        &s.schema,
        catalog,
        ep,
        prepared,
        attribution.as_ref(),
        path.get("slug").map(String::as_str),
    )
    .await
    {
        Ok(body) => Json(body).into_response(),
        Err(p) => p.into_response(),
    }
}

async fn healthz() -> Json<Value> {
    Json(serde_json::json!({"status": "ok"}))
}

/// Longest wait for the database's answer to a readiness check.
const READY_TIMEOUT: Duration = Duration::from_millis(800);

/// Ready when the database answers and Redis (if configured) answers.
async fn readyz(State(s): State<AppState>) -> Response {
    // Both checks together answer within a second, however the services fail.
    let (db, redis) = tokio::join!(
        async {
            match tokio::time::timeout(READY_TIMEOUT, s.db.ping()).await {
                Ok(r) => r.map_err(|e| e.to_string()),
                Err(_) => Err("no answer within the readiness timeout".to_string()),
            }
        },
        s.counters.ready()
    );
    match (&db, &redis) {
        (Ok(()), Ok(())) => Json(serde_json::json!({"status": "ready", "database": "ok", "redis": if s.counters.uses_redis() { "ok" } else { "not configured" }})).into_response(),
        _ => {
            let mut failed = Vec::new();
            if let Err(e) = &db {
                tracing::warn!(error = %e, "readiness: database unreachable");
                failed.push("database");
            }
            if let Err(e) = &redis {
                tracing::warn!(error = %e, "readiness: Redis unreachable");
                failed.push("redis");
            }
            Problem::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", format!("not ready: {} unreachable", failed.join(" and ")))
                .into_response()
        }
    }
}

async fn metrics(State(s): State<AppState>) -> Response {
    let version = i64::from(s.catalog.version());
    let body = s
        .metrics
        .render(s.counters.uses_redis(), s.counters.in_fallback(), version);
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], body).into_response()
}

async fn openapi() -> Json<Value> {
    Json(rest::openapi::document())
}

async fn docs() -> Html<&'static str> {
    Html(include_str!("../assets/docs.html"))
}

async fn graphiql() -> Html<&'static str> {
    Html(include_str!("../assets/graphiql.html"))
}

/// GraphiQL's own files, served by the service so the page works offline.
const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "graphiql.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/graphiql/graphiql.min.js"),
    ),
    (
        "graphiql.min.css",
        "text/css; charset=utf-8",
        include_bytes!("../assets/graphiql/graphiql.min.css"),
    ),
    (
        "react.production.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/graphiql/react.production.min.js"),
    ),
    (
        "react-dom.production.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/graphiql/react-dom.production.min.js"),
    ),
];

async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, content_type, bytes)) => (
            [
                (header::CONTENT_TYPE, *content_type),
                (header::CACHE_CONTROL, "public, max-age=86400"),
            ],
            *bytes,
        )
            .into_response(),
        None => Problem::not_found(format!("no asset {file:?}")).into_response(),
    }
}

async fn not_found(req: Request) -> Response {
    Problem::not_found(format!("no route for {}", req.uri().path())).into_response()
}

fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/html"))
}

fn graphql_refusal(
    status: StatusCode,
    code: &'static str,
    gql_code: &str,
    detail: String,
) -> Response {
    limits::refuse("/graphql", Problem::new(status, code, detail), gql_code)
}

async fn run_graphql(
    s: &AppState,
    req: async_graphql::Request,
    caller: Option<Caller>,
) -> Response {
    let catalog = s.catalog.snapshot();
    let attribution = caller
        .is_none_or(|c| c.tier == Tier::Free)
        .then(|| s.attribution(&catalog));
    let mut resp = s.schema.execute(graphql::with_catalog(req, catalog)).await;
    graphql::add_codes(&mut resp);
    if let Some(a) = attribution
        && let Ok(v) = async_graphql::Value::from_json(a)
    {
        resp.extensions.insert("attribution".to_string(), v);
    }
    // Through serde_json's sorted maps: the same query always gives the same bytes, so
    // ETags hold (the engine may emit fields of merged fragments in varying order).
    match serde_json::to_value(&resp) {
        Ok(v) => Json(v).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "GraphQL response is not JSON");
            Problem::internal().into_response()
        }
    }
}

/// `GET /graphql`: GraphiQL for browsers, otherwise a query in the query string
/// (`query`, `variables`, `operationName`, `extensions` for persisted queries).
async fn graphql_get(
    State(s): State<AppState>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
    caller: Option<axum::Extension<Caller>>,
) -> Response {
    let q = q.unwrap_or_default();
    if q.is_empty() && wants_html(&headers) {
        return Html(include_str!("../assets/graphiql.html")).into_response();
    }
    match async_graphql::http::parse_query_string(&q) {
        Ok(req) => run_graphql(&s, req, caller.map(|c| c.0)).await,
        Err(e) => graphql_refusal(
            StatusCode::BAD_REQUEST,
            "invalid_parameter",
            "BAD_REQUEST",
            format!("bad GraphQL GET request: {e}"),
        ),
    }
}

/// `POST /graphql` with a JSON body of at most 64 KiB.
async fn graphql_post(
    State(s): State<AppState>,
    caller: Option<axum::Extension<Caller>>,
    body: Body,
) -> Response {
    let bytes: Bytes = match axum::body::to_bytes(body, MAX_GRAPHQL_BODY).await {
        Ok(b) => b,
        Err(_) => {
            return graphql_refusal(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                "PAYLOAD_TOO_LARGE",
                format!("GraphQL request bodies are limited to {MAX_GRAPHQL_BODY} bytes"),
            );
        }
    };
    match serde_json::from_slice::<async_graphql::Request>(&bytes) {
        Ok(req) => run_graphql(&s, req, caller.map(|c| c.0)).await,
        Err(e) => graphql_refusal(
            StatusCode::BAD_REQUEST,
            "invalid_parameter",
            "BAD_REQUEST",
            format!("the body is not a GraphQL request: {e}"),
        ),
    }
}

/// Echoes a sane `X-Request-Id` or makes one, and makes it known to error bodies.
async fn request_id(mut req: Request, next: Next) -> Response {
    let id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 128 && v.bytes().all(|b| b.is_ascii_graphic()))
        .map(str::to_string)
        .unwrap_or_else(|| {
            use rand::RngCore;
            let mut b = [0u8; 16];
            rand::rng().fill_bytes(&mut b);
            hex::encode(b)
        });
    if let Ok(v) = HeaderValue::from_str(&id) {
        req.headers_mut().insert("x-request-id", v);
    }
    let mut res = REQUEST_ID.scope(id.clone(), next.run(req)).await;
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert("x-request-id", v);
    }
    res
}

/// One log line per request (never the API key) and the request metrics.
async fn access_log(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = req.method().clone();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |m| m.as_str().to_string());
    let id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let res = next.run(req).await;
    let elapsed = started.elapsed();
    let tier = res
        .headers()
        .get("ratelimit-policy")
        .and_then(|v| v.to_str().ok())
        .and_then(|p| p.split('"').nth(1))
        .unwrap_or("-")
        .to_string();
    s.metrics.observe(
        method_label(&method),
        &route,
        res.status().as_u16(),
        elapsed.as_secs_f64(),
    );
    tracing::info!(
        method = %method,
        route = %route,
        status = res.status().as_u16(),
        latency_ms = elapsed.as_secs_f64() * 1000.0,
        request_id = %id,
        tier = %tier,
        "request"
    );
    res
}

/// A bounded label set: any other method (made-up ones included) is `other`, so no client
/// can grow the metrics without bound.
fn method_label(m: &Method) -> &'static str {
    match *m {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::OPTIONS => "OPTIONS",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        _ => "other",
    }
}

/// Every error answer is problem+json (or a GraphQL error body on `/graphql`) and never
/// cached: answers the router or an extractor produced on its own (a 405, a path that is
/// not UTF-8, ...) are rewritten into that shape here.
async fn problems(req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    let mut res = next.run(req).await;
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    let content_type = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let shaped = content_type.starts_with("application/problem+json")
        || (path == "/graphql" && content_type.starts_with("application/json"));
    if !shaped {
        let (parts, body) = res.into_parts();
        let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
        let detail = String::from_utf8_lossy(&text).trim().to_string();
        let (code, gql) = match status {
            StatusCode::NOT_FOUND => ("not_found", "NOT_FOUND"),
            StatusCode::METHOD_NOT_ALLOWED => ("method_not_allowed", "METHOD_NOT_ALLOWED"),
            StatusCode::PAYLOAD_TOO_LARGE => ("payload_too_large", "PAYLOAD_TOO_LARGE"),
            StatusCode::URI_TOO_LONG => ("uri_too_long", "BAD_REQUEST"),
            s if s.is_client_error() => ("invalid_parameter", "BAD_REQUEST"),
            _ => ("internal", "INTERNAL"),
        };
        let detail = if detail.is_empty() || status.is_server_error() {
            status
                .canonical_reason()
                .unwrap_or("request refused")
                .to_string()
        } else {
            detail
        };
        let mut p = Problem::new(status, code, detail);
        if status == StatusCode::BAD_REQUEST && path.starts_with("/api/v1/") {
            p.param = Some("path".into());
        }
        for name in [header::ALLOW, header::RETRY_AFTER] {
            if let Some(v) = parts.headers.get(&name) {
                p = p.with_header(name, v.clone());
            }
        }
        res = limits::refuse(&path, p, gql);
        for (k, v) in parts.headers.iter() {
            if k.as_str().starts_with("x-ratelimit") || k.as_str().starts_with("ratelimit") {
                res.headers_mut().insert(k.clone(), v.clone());
            }
        }
    }
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

async fn timeout(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let limit = Duration::from_secs(s.config.request_timeout.max(1));
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(res) => res,
        Err(_) => Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "The request took too long and was abandoned.",
        )
        .into_response(),
    }
}

/// Caps the query string and answers non-GET REST requests 405 before any other work.
async fn guard(req: Request, next: Next) -> Response {
    if req
        .uri()
        .query()
        .is_some_and(|q| q.len() > rest::MAX_QUERY_STRING)
    {
        let p = Problem::new(
            StatusCode::URI_TOO_LONG,
            "uri_too_long",
            format!(
                "query strings are limited to {} bytes",
                rest::MAX_QUERY_STRING
            ),
        );
        return limits::refuse(req.uri().path(), p, "BAD_REQUEST");
    }
    let path = req.uri().path();
    if path.starts_with("/api/v1")
        && !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
    {
        return Problem::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!("{} is not allowed; the API is read-only", req.method()),
        )
        .with_header(header::ALLOW, HeaderValue::from_static("GET"))
        .into_response();
    }
    next.run(req).await
}

/// Largest body hashed for an ETag; larger answers go without one.
const MAX_ETAG_BODY: usize = 32 * 1024 * 1024;

/// `ETag` on every 200 GET; `If-None-Match` → 304 with no body. Data changes only on
/// import, so answers may be cached for a minute.
async fn etag(req: Request, next: Next) -> Response {
    if req.method() != Method::GET {
        return next.run(req).await;
    }
    let if_none_match = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let api = limits::is_counted(req.uri().path());
    let res = next.run(req).await;
    if res.status() != StatusCode::OK {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ETAG_BODY).await else {
        return Problem::internal().into_response();
    };
    let tag = format!("W/\"{}\"", &crate::snapshot::sha256_hex(&bytes)[..32]);
    if let Ok(v) = HeaderValue::from_str(&tag) {
        parts.headers.insert(header::ETAG, v);
    }
    if api {
        parts.headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=60"),
        );
        parts.headers.insert(
            header::VARY,
            HeaderValue::from_static("Accept-Encoding, X-API-Key, Authorization"),
        );
    }
    let matches = if_none_match.is_some_and(|inm| {
        inm.split(',').map(str::trim).any(|t| {
            t == "*" || t == tag || t.trim_start_matches("W/") == tag.trim_start_matches("W/")
        })
    });
    if matches {
        parts.status = StatusCode::NOT_MODIFIED;
        parts.headers.remove(header::CONTENT_LENGTH);
        parts.headers.remove(header::CONTENT_TYPE);
        return Response::from_parts(parts, Body::empty());
    }
    Response::from_parts(parts, Body::from(bytes))
}
