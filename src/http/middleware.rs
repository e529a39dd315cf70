//! Middleware: request ids, access log and metrics, the request timeout, the query-string
//! cap and 405s, and error bodies as problem+json.

use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{Problem, REQUEST_ID};
use crate::limits;
use crate::rest;
use crate::state::AppState;

/// The outermost layer: echoes a sane `X-Request-Id` or makes one (and makes it known to
/// error bodies), then writes one log line per request (never the API key) and the
/// request metrics.
pub async fn observe(State(s): State<AppState>, mut req: Request, next: Next) -> Response {
    let started = Instant::now();
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
    let id_value = HeaderValue::from_str(&id).ok();
    if let Some(v) = &id_value {
        req.headers_mut().insert("x-request-id", v.clone());
    }
    let method = req.method().clone();
    let matched = req.extensions().get::<MatchedPath>().cloned();
    let route = matched.as_ref().map_or("unmatched", MatchedPath::as_str);
    let mut res = REQUEST_ID.scope(id.clone(), next.run(req)).await;
    if let Some(v) = id_value {
        res.headers_mut().insert("x-request-id", v);
    }
    let elapsed = started.elapsed();
    s.metrics.observe(
        method_label(&method),
        route,
        res.status().as_u16(),
        elapsed.as_secs_f64(),
    );
    if tracing::enabled!(tracing::Level::INFO) {
        let tier = res
            .headers()
            .get("ratelimit-policy")
            .and_then(|v| v.to_str().ok())
            .and_then(|p| p.split('"').nth(1))
            .unwrap_or("-");
        tracing::info!(
            method = %method,
            route = %route,
            status = res.status().as_u16(),
            latency_ms = elapsed.as_secs_f64() * 1000.0,
            request_id = %id,
            tier = %tier,
            "request"
        );
    }
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
async fn shape_errors(path: &str, mut res: Response) -> Response {
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
        res = limits::refuse(path, p, gql);
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

/// Caps the query string and answers non-GET REST requests 405 before any other work, bounds
/// the request's time (503 past the request timeout), and gives every error its shape.
pub async fn guard(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    let res = checked(&s, req, next).await;
    shape_errors(&path, res).await
}

async fn checked(s: &AppState, req: Request, next: Next) -> Response {
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
