//! The one list of routes, behind the one front service ([`middleware::Front`]): request
//! id, CORS, the query-string cap and 405s, rate limit, response cache, request timeout,
//! error shapes, access log and metrics.

pub mod cache;
pub mod exports;
pub mod feeds;
pub mod handlers;
pub mod middleware;
pub mod origin;

use std::collections::HashMap;

use axum::extract::{Path, RawQuery, State};
use axum::routing::get;

use crate::limits::Caller;
use crate::rest::table;
use crate::state::AppState;
use middleware::{Front, Routes};

/// Largest accepted GraphQL request body.
pub const MAX_GRAPHQL_BODY: usize = 64 * 1024;

pub fn front(state: AppState) -> Front {
    let mut routes = Routes::new()
        .route("/healthz", get(handlers::healthz))
        .route("/readyz", get(handlers::readyz))
        .route("/healthz/dependencies", get(handlers::dependencies))
        .route("/metrics", get(handlers::metrics))
        .route(
            "/graphql",
            get(handlers::graphql_get).post(handlers::graphql_post),
        )
        .route("/graphiql", get(handlers::graphiql))
        .route("/assets/{dir}/{file}", get(handlers::asset))
        .route("/favicon.ico", get(handlers::favicon))
        .route("/api/v1/openapi.json", get(handlers::openapi))
        .route("/api/v1/export/{file}", get(exports::export))
        .route(feeds::CHANGES_FEED, get(feeds::atom))
        .route("/docs", get(handlers::docs))
        // MCP's streamable HTTP (docs/mcp.md): POST for messages; GET and DELETE are the
        // transport's to refuse, as a stateless server does.
        .route(
            "/mcp",
            axum::routing::any_service(crate::mcp::http_service(state.clone())),
        );
    for ep in table::ENDPOINTS {
        routes = routes.route(
            ep.path,
            get(
                move |State(s): State<AppState>,
                      Path(p): Path<HashMap<String, String>>,
                      RawQuery(q): RawQuery,
                      catalog: Option<axum::Extension<cache::Snapshot>>,
                      caller: Option<axum::Extension<Caller>>,
                      origin: Option<axum::Extension<origin::Origin>>| async move {
                    let request = handlers::Asked {
                        catalog: catalog.map(|c| c.0),
                        caller: caller.map(|c| c.0),
                        origin: origin.map(|o| o.0),
                    };
                    handlers::rest(s, ep, p, q, request).await
                },
            ),
        );
    }
    routes.front(state, handlers::not_found)
}
