//! The one service in front of the routes. Per request, in this order: request id → CORS
//! (preflights answered here) → query-string cap and 405 for non-GET REST → rate limit (API
//! paths) → response cache (hits and 304s answered here) → the routes, under the request
//! timeout → error bodies as problem+json → rate-limit headers → access log and metrics.
//!
//! It is one hand-written service rather than a stack of layers because the router clones
//! every layer of a route's stack per request: a cache hit here costs one reference count,
//! one boxed future and no routing at all. The routes themselves are an axum router (with
//! response compression for the answers the cache does not hold, such as exports).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::future::BoxFuture;
use tower::ServiceExt;

use super::cache::{self, Lookup};
use crate::error::{ErrorCode, Problem, REQUEST_ID};
use crate::limits;
use crate::rest;
use crate::state::AppState;

/// The service handed to the connection loop: one per connection (it carries the peer's
/// address), cloned per request for one reference count.
#[derive(Clone)]
pub struct Front {
    shared: Arc<Shared>,
    peer: Option<SocketAddr>,
    /// The connection's shared state: requests in progress mark it busy (never shed).
    activity: Option<Arc<crate::connections::Activity>>,
}

struct Shared {
    state: AppState,
    routes: Router,
    /// Route templates, for the metrics' bounded `route` label, known before routing (a
    /// cache hit never reaches the router).
    labels: matchit::Router<&'static str>,
    cors: Cors,
}

impl Front {
    pub fn new(state: AppState, routes: Router, labels: matchit::Router<&'static str>) -> Self {
        Self {
            shared: Arc::new(Shared {
                state,
                routes,
                labels,
                cors: Cors::new(),
            }),
            peer: None,
            activity: None,
        }
    }

    /// This service for the connection from `peer`, whose activity it reports.
    pub fn for_peer(&self, peer: SocketAddr, activity: Arc<crate::connections::Activity>) -> Self {
        Self {
            shared: self.shared.clone(),
            peer: Some(peer),
            activity: Some(activity),
        }
    }
}

impl<B> tower::Service<axum::http::Request<B>> for Front
where
    B: axum::body::HttpBody<Data = axum::body::Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: axum::http::Request<B>) -> Self::Future {
        let shared = self.shared.clone();
        let mut req = req.map(Body::new);
        if let Some(peer) = self.peer {
            req.extensions_mut().insert(ConnectInfo(peer));
        }
        let busy = self.activity.as_ref().map(|a| a.begin());
        if let Some(a) = &self.activity {
            req.extensions_mut().insert(a.clone());
        }
        Box::pin(async move {
            let res = shared.serve(req).await;
            drop(busy);
            Ok(res)
        })
    }
}

impl Shared {
    /// Request id in, access log and metrics out, around everything else.
    async fn serve(&self, mut req: Request) -> Response {
        let started = Instant::now();
        let id = request_id(req.headers());
        req.headers_mut().insert("x-request-id", id.clone());
        let method = method_label(req.method());
        let route = self
            .labels
            .at(req.uri().path())
            .map_or("unmatched", |m| *m.value);
        let mut res = REQUEST_ID.scope(id.clone(), self.handle(req)).await;
        res.headers_mut().insert("x-request-id", id.clone());
        let elapsed = started.elapsed();
        let status = res.status().as_u16();
        self.state
            .metrics
            .observe(method, route, status, elapsed.as_secs_f64());
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
                status,
                latency_ms = elapsed.as_secs_f64() * 1000.0,
                request_id = %id.to_str().unwrap_or_default(),
                tier = %tier,
                "request"
            );
        }
        res
    }

    async fn handle(&self, mut req: Request) -> Response {
        // One deadline for the whole request, its body included: a body trickled a byte at
        // a time keeps the connection from going idle, never past this (docs/security.md).
        let limit = Duration::from_secs(self.state.config.request_timeout.max(1));
        req.extensions_mut()
            .insert(Deadline(tokio::time::Instant::now() + limit));
        if req.method() == Method::OPTIONS {
            return self.cors.preflight(req.headers());
        }
        let path = req.uri().path();
        let (graphql, api) = (path == "/graphql", path.starts_with("/api/v1/"));
        let res = match refuse_early(&req) {
            Some(refused) => refused,
            None => self.admit_and_answer(req).await,
        };
        self.cors.apply(shape_errors(graphql, api, res).await)
    }

    /// Rate limit, then the cache or the routes; the rate-limit headers on the way out.
    async fn admit_and_answer(&self, mut req: Request) -> Response {
        let peer = req
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        let origin = super::origin::Origin::of(&self.state.config, req.headers(), peer);
        req.extensions_mut().insert(origin.clone());
        // An MCP message counts only when it reads data (a tool call or a resource read,
        // docs/mcp.md): the handshake and the listings are free, as docs and health are.
        let mut counted = limits::is_counted(req.uri().path());
        let mut mcp_body = None;
        if req.uri().path() == "/mcp" && req.method() == Method::POST {
            let (parts, body) = req.into_parts();
            let bytes = match read_body(&parts, body).await {
                Ok(bytes) => bytes,
                Err(BodyError::TooLarge) => {
                    return Problem::new(
                        ErrorCode::PayloadTooLarge,
                        format!(
                            "MCP messages are limited to {} bytes",
                            super::MAX_GRAPHQL_BODY
                        ),
                    )
                    .into_response();
                }
                Err(BodyError::TooSlow) => return body_too_slow(),
            };
            counted = crate::mcp::counts(&bytes);
            req = Request::from_parts(parts, axum::body::Body::from(bytes.clone()));
            mcp_body = Some(bytes);
        }
        let path = req.uri().path();
        let admitted = if counted {
            match limits::admit(&self.state, path, req.headers(), peer).await {
                Ok(a) => Some(a),
                Err(refused) => return refused,
            }
        } else {
            None
        };
        if let Some(a) = &admitted {
            req.extensions_mut().insert(a.caller.clone());
        }
        // A tool call is answered from the cache, or stored (docs/mcp.md).
        if let Some(call) =
            mcp_body.and_then(|b| crate::mcp::cache::call_of(&self.state, &mut req, &b))
        {
            let (res, from_store) = match crate::mcp::cache::hit(&self.state, &call) {
                Some(res) => (res, true),
                None => {
                    let res = self.route(req).await;
                    (
                        crate::mcp::cache::store(&self.state, call, res).await,
                        false,
                    )
                }
            };
            return match admitted {
                Some(a) => limits::finish(&self.state, a, res, from_store, &origin.0).await,
                None => res,
            };
        }
        // A GraphQL POST is looked up by its body, read here (within the body limit and
        // the request's deadline).
        let lookup = if req.method() == axum::http::Method::POST && req.uri().path() == "/graphql" {
            let (parts, body) = req.into_parts();
            match read_body(&parts, body).await {
                Ok(bytes) => {
                    req = Request::from_parts(parts, axum::body::Body::from(bytes.clone()));
                    cache::lookup_post(&self.state, &mut req, &bytes)
                }
                Err(BodyError::TooLarge) => {
                    req = Request::from_parts(parts, axum::body::Body::empty());
                    Lookup::Refused(super::handlers::graphql_too_large())
                }
                Err(BodyError::TooSlow) => {
                    req = Request::from_parts(parts, axum::body::Body::empty());
                    Lookup::Refused(body_too_slow())
                }
            }
        } else {
            cache::lookup(&self.state, &mut req)
        };
        let (res, from_store) = match lookup {
            Lookup::Hit(res) => (res, true),
            Lookup::Miss(pending) => {
                let res = self.route(req).await;
                (cache::store(&self.state, pending, res).await, false)
            }
            Lookup::Pass => (self.route(req).await, false),
            Lookup::Refused(res) => (res, false),
        };
        let from_store = from_store || res.extensions().get::<cache::Unchanged>().is_some();
        match admitted {
            Some(a) => limits::finish(&self.state, a, res, from_store, &origin.0).await,
            None => res,
        }
    }

    /// The routes, within the request's deadline (503 past it).
    async fn route(&self, req: Request) -> Response {
        let deadline = deadline_of(req.extensions());
        match tokio::time::timeout_at(deadline, self.routes.clone().oneshot(req)).await {
            Ok(Ok(res)) => res,
            Ok(Err(never)) => match never {},
            Err(_) => Problem::new(
                ErrorCode::Unavailable,
                "The request took too long and was abandoned.",
            )
            .into_response(),
        }
    }
}

/// Why a request body could not be read.
enum BodyError {
    /// Over the body limit.
    TooLarge,
    /// Still arriving at the request's deadline.
    TooSlow,
}

/// A POST body (GraphQL or MCP), read within the body limit and the request's deadline;
/// while it arrives the connection counts as one still sending its body, shed after idle
/// ones when the connection cap is full (`docs/security.md`).
async fn read_body(
    parts: &axum::http::request::Parts,
    body: axum::body::Body,
) -> Result<axum::body::Bytes, BodyError> {
    let deadline = deadline_of(&parts.extensions);
    let reading = parts
        .extensions
        .get::<Arc<crate::connections::Activity>>()
        .map(|a| a.reading_body());
    let read = tokio::time::timeout_at(
        deadline,
        axum::body::to_bytes(body, super::MAX_GRAPHQL_BODY),
    )
    .await;
    drop(reading);
    match read {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(BodyError::TooLarge),
        Err(_) => Err(BodyError::TooSlow),
    }
}

/// When a request must be answered by: its arrival plus the request timeout.
#[derive(Clone, Copy)]
struct Deadline(tokio::time::Instant);

fn deadline_of(ext: &axum::http::Extensions) -> tokio::time::Instant {
    ext.get::<Deadline>().map_or_else(
        || tokio::time::Instant::now() + Duration::from_secs(30),
        |d| d.0,
    )
}

/// The 408 of a request body that did not arrive within the request timeout; the
/// connection is closed with it.
fn body_too_slow() -> Response {
    let mut res = limits::refuse(
        "/graphql",
        Problem::new(
            ErrorCode::RequestTimeout,
            "The request's body did not arrive within the request timeout.",
        ),
    );
    res.headers_mut().insert(
        axum::http::header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
    res
}

/// A sane `X-Request-Id` from the client, or a new one (32 hex digits).
fn request_id(headers: &HeaderMap) -> HeaderValue {
    if let Some(v) = headers.get("x-request-id").filter(|v| {
        let b = v.as_bytes();
        !b.is_empty() && b.len() <= 128 && b.iter().all(u8::is_ascii_graphic)
    }) {
        return v.clone();
    }
    use rand::RngCore;
    let mut raw = [0u8; 16];
    rand::rng().fill_bytes(&mut raw);
    let mut text = [0u8; 32];
    // Hex digits are always a valid header value.
    let _ = hex::encode_to_slice(raw, &mut text);
    HeaderValue::from_bytes(&text).unwrap_or_else(|_| HeaderValue::from_static("-"))
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

/// What is refused before any other work: an over-long query string (414) and a method
/// other than GET or HEAD on the read-only REST API (405).
fn refuse_early(req: &Request) -> Option<Response> {
    let path = req.uri().path();
    if req
        .uri()
        .query()
        .is_some_and(|q| q.len() > rest::MAX_QUERY_STRING)
    {
        let p = Problem::new(
            ErrorCode::UriTooLong,
            format!(
                "query strings are limited to {} bytes",
                rest::MAX_QUERY_STRING
            ),
        );
        return Some(limits::refuse(path, p));
    }
    if path.starts_with("/api/v1") && !matches!(*req.method(), Method::GET | Method::HEAD) {
        let p = Problem::new(
            ErrorCode::MethodNotAllowed,
            format!("{} is not allowed; the API is read-only", req.method()),
        )
        .with_header(header::ALLOW, HeaderValue::from_static("GET"));
        return Some(p.into_response());
    }
    None
}

/// Every error answer is problem+json (or a GraphQL error body on `/graphql`) and never
/// cached: answers the router or an extractor produced on its own (a 405, a path that is
/// not UTF-8, ...) are rewritten into that shape here.
async fn shape_errors(graphql: bool, api: bool, mut res: Response) -> Response {
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
        || (graphql && content_type.starts_with("application/json"));
    if !shaped {
        let (parts, body) = res.into_parts();
        let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
        let detail = String::from_utf8_lossy(&text).trim().to_string();
        // The code whose status this is; another client error is the request's fault.
        let code = ErrorCode::ALL
            .iter()
            .copied()
            .find(|c| c.status() == status && *c != ErrorCode::InvalidParameter)
            .unwrap_or(if status.is_client_error() {
                ErrorCode::BadRequest
            } else {
                ErrorCode::Internal
            });
        let detail = if detail.is_empty() || status.is_server_error() {
            status
                .canonical_reason()
                .unwrap_or("request refused")
                .to_string()
        } else {
            detail
        };
        let mut p = Problem::new(code, detail).with_status(status);
        if status == StatusCode::BAD_REQUEST && api {
            p.param = Some("path".into());
        }
        for name in [header::ALLOW, header::RETRY_AFTER] {
            if let Some(v) = parts.headers.get(&name) {
                p = p.with_header(name, v.clone());
            }
        }
        res = limits::refuse(if graphql { "/graphql" } else { "" }, p);
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

/// Cross-origin access for any origin: a public read-only API has no origin or request
/// header worth refusing (browsers send `traceparent`, `x-request-id` and client-name
/// headers). Every `OPTIONS` request is answered as a preflight, without counting.
struct Cors {
    methods: HeaderValue,
    expose: HeaderValue,
    vary: HeaderValue,
    max_age: HeaderValue,
}

/// Headers a browser script may read, the rate-limit ones first.
const EXPOSED: [&str; 11] = [
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
];

impl Cors {
    fn new() -> Self {
        Self {
            methods: HeaderValue::from_static("GET,HEAD,POST,OPTIONS"),
            expose: HeaderValue::from_str(&EXPOSED.join(","))
                .unwrap_or_else(|_| HeaderValue::from_static("")),
            vary: HeaderValue::from_static(
                "origin, access-control-request-method, access-control-request-headers",
            ),
            max_age: HeaderValue::from(3600u32),
        }
    }

    fn preflight(&self, request: &HeaderMap) -> Response {
        let mut res = StatusCode::OK.into_response();
        let h = res.headers_mut();
        h.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        h.insert(header::ACCESS_CONTROL_ALLOW_METHODS, self.methods.clone());
        if let Some(asked) = request.get(header::ACCESS_CONTROL_REQUEST_HEADERS) {
            h.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, asked.clone());
        }
        h.insert(header::ACCESS_CONTROL_MAX_AGE, self.max_age.clone());
        h.append(header::VARY, self.vary.clone());
        res
    }

    fn apply(&self, mut res: Response) -> Response {
        let h = res.headers_mut();
        h.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        h.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, self.expose.clone());
        h.append(header::VARY, self.vary.clone());
        res
    }
}

/// Routes and their templates, added together so the metrics' labels are the router's.
pub struct Routes {
    router: Router<AppState>,
    labels: matchit::Router<&'static str>,
}

impl Routes {
    pub fn new() -> Self {
        Self {
            router: Router::new(),
            labels: matchit::Router::new(),
        }
    }

    pub fn route(mut self, path: &'static str, m: axum::routing::MethodRouter<AppState>) -> Self {
        self.router = self.router.route(path, m);
        if let Err(e) = self.labels.insert(path, path) {
            tracing::error!(path, error = %e, "route template not accepted for metrics");
        }
        self
    }

    /// The front service over these routes; `fallback` answers every other path.
    pub fn front<H, T>(self, state: AppState, fallback: H) -> Front
    where
        H: axum::handler::Handler<T, AppState>,
        T: 'static,
    {
        let routes = self
            .router
            .fallback(fallback)
            .layer(
                tower_http::compression::CompressionLayer::new()
                    .gzip(true)
                    .br(true),
            )
            .with_state(state.clone());
        Front::new(state, routes, self.labels)
    }
}

impl Default for Routes {
    fn default() -> Self {
        Self::new()
    }
}
