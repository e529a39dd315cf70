//! The one list of routes and layers.
//!
//! Layers, outermost first: request id, access log and metrics → CORS → compression →
//! query-string cap, 405 for non-GET REST, request timeout and error bodies as problem+json →
//! rate limit (API paths only) → response cache, ETag and 304 → handlers.

pub mod cache;
pub mod exports;
pub mod feeds;
pub mod handlers;
pub mod middleware;

use std::collections::HashMap;
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{Method, header};
use axum::middleware::from_fn_with_state;
use axum::routing::get;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowHeaders, Any, CorsLayer};

use crate::limits::{self, Caller};
use crate::rest::table;
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
                      catalog: Option<axum::Extension<cache::Snapshot>>,
                      caller: Option<axum::Extension<Caller>>| async move {
                    handlers::rest(s, ep, p, q, catalog.map(|c| c.0), caller.map(|c| c.0)).await
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
    // Any request header: browsers send `traceparent`, `x-request-id` and client-name
    // headers, and a public read-only API has no header worth refusing.
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::HEAD, Method::POST, Method::OPTIONS])
        .allow_headers(AllowHeaders::mirror_request())
        .expose_headers(exposed)
        .max_age(Duration::from_secs(3600));
    Router::new()
        .route("/healthz", get(handlers::healthz))
        .route("/readyz", get(handlers::readyz))
        .route("/metrics", get(handlers::metrics))
        .route(
            "/graphql",
            get(handlers::graphql_get).post(handlers::graphql_post),
        )
        .route("/graphiql", get(handlers::graphiql))
        .route("/assets/{dir}/{file}", get(handlers::asset))
        .route("/api/v1/openapi.json", get(handlers::openapi))
        .route("/api/v1/export/{file}", get(exports::export))
        .route("/api/v1/changes.atom", get(feeds::atom))
        .route("/docs", get(handlers::docs))
        .merge(api)
        .fallback(handlers::not_found)
        .layer(from_fn_with_state(state.clone(), cache::middleware))
        .layer(from_fn_with_state(state.clone(), limits::middleware))
        .layer(from_fn_with_state(state.clone(), middleware::guard))
        .layer(CompressionLayer::new().gzip(true).br(true))
        .layer(cors)
        .layer(from_fn_with_state(state.clone(), middleware::observe))
        .with_state(state)
}
