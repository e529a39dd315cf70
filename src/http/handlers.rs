//! Handlers: health, readiness, metrics, docs and assets, REST endpoints, and GraphQL.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Duration;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde_json::Value;

use super::MAX_GRAPHQL_BODY;
use super::cache::{NoStore, Snapshot};
use super::origin::Origin;
use crate::error::{ErrorCode, Problem};
use crate::graphql;
use crate::limits::{self, Caller, Tier};
use crate::responses::{Entry, negotiate};
use crate::rest::{self, table};
use crate::state::AppState;

/// What the layers before a handler settled about a request: the catalogue snapshot it
/// reads, who asks, and the origin its URLs are written with.
pub struct Asked {
    pub catalog: Option<Snapshot>,
    pub caller: Option<Caller>,
    pub origin: Option<Origin>,
}

/// The base URLs are written with: the request's origin, else the configured public URL.
pub fn base(s: &AppState, origin: Option<&Origin>) -> String {
    origin.map_or_else(
        || s.config.public_url.trim_end_matches('/').to_string(),
        |o| o.0.clone(),
    )
}

/// A REST endpoint: its row of the table, run as a GraphQL document over the request's
/// catalogue snapshot.
pub async fn rest(
    s: AppState,
    ep: &'static table::Endpoint,
    path: HashMap<String, String>,
    query: Option<String>,
    asked: Asked,
) -> Response {
    let Asked {
        catalog,
        caller,
        origin,
    } = asked;
    let base = base(&s, origin.as_ref());
    let raw_query = query.unwrap_or_default();
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(&raw_query).unwrap_or_default();
    let catalog = catalog.map_or_else(|| s.catalog.snapshot(), |c| c.0);
    // A model's page under any other identifier /models/lookup accepts (an alias, a
    // provider's id, another case) is a permanent redirect to its canonical URL.
    if ep.noun == "model"
        && let Some(asked) = path.get("slug")
        && let Some(m) = catalog.find_model(asked)
        && m.slug != *asked
    {
        let mut canonical = path.clone();
        canonical.insert("slug".into(), m.slug.clone());
        // The parameters are checked before redirecting: a redirect to a URL that can only
        // be refused would send the client round for nothing (docs/security.md).
        if let Err(p) = rest::prepare(ep, &canonical, &pairs) {
            return p.into_response();
        }
        let query = if raw_query.is_empty() {
            String::new()
        } else {
            format!("?{raw_query}")
        };
        let location = format!("{base}{}{query}", uri_path(ep.path, &canonical));
        if let Ok(value) = HeaderValue::from_str(&location) {
            return (StatusCode::PERMANENT_REDIRECT, [(header::LOCATION, value)]).into_response();
        }
    }
    let prepared = match rest::prepare(ep, &path, &pairs) {
        Ok(p) => p,
        Err(p) => return p.into_response(),
    };
    let free = caller.is_none_or(|c| c.tier == Tier::Free);
    let attribution = free.then(|| s.attribution(&catalog, &base));
    match rest::execute(
        s.graphql.schema(),
        catalog,
        ep,
        prepared,
        attribution.as_ref(),
        path.get("slug").map(String::as_str),
    )
    .await
    {
        Ok(body) => {
            let links = (ep.shape == table::Shape::List).then(|| {
                let meta = &body.meta;
                rest::links::header(
                    &base,
                    &uri_path(ep.path, &path),
                    &pairs,
                    meta["page"].as_u64().unwrap_or(1),
                    meta["total_pages"].as_u64().unwrap_or(0),
                )
            });
            let mut res = Json(body).into_response();
            if let Some(v) = links.and_then(|l| axum::http::HeaderValue::from_str(&l).ok()) {
                res.headers_mut().insert(header::LINK, v);
            }
            res
        }
        Err(p) => p.into_response(),
    }
}

/// The request path of an endpoint with its path parameters filled in.
fn uri_path(template: &str, params: &HashMap<String, String>) -> String {
    params.iter().fold(template.to_string(), |p, (k, v)| {
        p.replace(&format!("{{{k}}}"), v)
    })
}

pub async fn healthz() -> Json<Value> {
    Json(serde_json::json!({"status": "ok"}))
}

/// Longest wait for the database's answer to a readiness check.
const READY_TIMEOUT: Duration = Duration::from_millis(800);

/// Ready when the database answers and Redis (if configured) answers.
/// Readiness: whether this instance can serve, which it can whenever its catalogue is
/// loaded (it is before the listener accepts): reads never touch the database or Redis,
/// so neither outage may take every instance out of a load balancer at once. What the
/// dependencies say is `/healthz/dependencies`.
pub async fn readyz(State(s): State<AppState>) -> Response {
    let catalog = s.catalog.snapshot();
    Json(serde_json::json!({
        "status": "ready",
        "dataset_version": catalog.version(),
        "models": catalog.all_models().len(),
    }))
    .into_response()
}

/// The dependencies' health: 200 when the database and Redis (if configured) answer;
/// otherwise, within a second, a 503 problem naming what is down. The upstream sources are
/// dependencies too, but a stale one never makes this a 503: the data is served as well as
/// before, only older, and a load balancer must not drop instances for it. So a stale
/// source makes the answer `"status": "degraded"`, still 200, naming it under
/// `sources.stale` (docs/operations.md, "Health, readiness, metrics, logs, shutdown").
pub async fn dependencies(State(s): State<AppState>) -> Response {
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
        (Ok(()), Ok(())) => {
            // The catalogue's statuses: read from the store at its last reload, which a
            // source turning stale triggers (no query here).
            let catalog = s.catalog.snapshot();
            let stale = catalog.freshnesses().stale();
            Json(serde_json::json!({
                "status": if stale.is_empty() { "ready" } else { "degraded" },
                "database": "ok",
                "redis": if s.counters.uses_redis() { "ok" } else { "not configured" },
                "sources": {"stale": stale},
            }))
            .into_response()
        }
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
            Problem::new(
                ErrorCode::Unavailable,
                format!("not ready: {} unreachable", failed.join(" and ")),
            )
            .into_response()
        }
    }
}

pub async fn metrics(State(s): State<AppState>) -> Response {
    let (hits, misses) = s.cache.counts();
    let cache = crate::metrics::CacheStats {
        hits,
        misses,
        bytes: s.cache.weight(),
    };
    let catalog = s.catalog.snapshot();
    let now = chrono::Utc::now();
    let sources = s
        .metrics
        .source_signals(&s.db, now, catalog.freshnesses().stale_after)
        .await;
    // Each source's served copy dates from the day it was observed (its `snapshot_date`).
    let copies: Vec<(String, i64)> = catalog
        .sources()
        .iter()
        .filter_map(|src| {
            let day = chrono::NaiveDate::parse_from_str(&src.snapshot_date, "%Y-%m-%d").ok()?;
            let start = day.and_hms_opt(0, 0, 0)?.and_utc();
            Some((src.slug.clone(), (now - start).num_seconds().max(0)))
        })
        .collect();
    let body = s.metrics.render(
        s.counters.uses_redis(),
        s.counters.in_fallback(),
        i64::from(catalog.version()),
        cache,
        &sources,
        &copies,
    );
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], body).into_response()
}

pub async fn openapi() -> Json<Value> {
    Json(rest::openapi::document())
}

/// The docs page, with this instance's configured limits.
pub async fn docs(State(s): State<AppState>) -> Html<String> {
    Html(
        include_str!("../../assets/docs.html")
            .replace("{{FREE_LIMIT}}", &s.config.free_limit.to_string())
            .replace("{{KEY_LIMIT}}", &s.config.authenticated_limit.to_string()),
    )
}

pub async fn graphiql() -> Html<&'static str> {
    Html(include_str!("../../assets/graphiql.html"))
}

/// The bundled front-end files (GraphiQL and Swagger UI, from npm, with their licences), served
/// by the service so its pages work offline.
const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "site/favicon.svg",
        "image/svg+xml",
        include_bytes!("../../assets/site/favicon.svg"),
    ),
    (
        "swagger-ui/swagger-ui-bundle.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/swagger-ui/swagger-ui-bundle.js"),
    ),
    (
        "swagger-ui/swagger-ui.css",
        "text/css; charset=utf-8",
        include_bytes!("../../assets/swagger-ui/swagger-ui.css"),
    ),
    (
        "graphiql/graphiql.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/graphiql/graphiql.min.js"),
    ),
    (
        "graphiql/graphiql.min.css",
        "text/css; charset=utf-8",
        include_bytes!("../../assets/graphiql/graphiql.min.css"),
    ),
    (
        "graphiql/react.production.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/graphiql/react.production.min.js"),
    ),
    (
        "graphiql/react-dom.production.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/graphiql/react-dom.production.min.js"),
    ),
];

/// The bundled files as stored answers, made once: each keeps its ETag and makes its gzip
/// and brotli forms on first demand, so no request hashes or compresses a megabyte-sized
/// bundle again, whether or not the response cache is on.
fn assets() -> &'static [(&'static str, Entry)] {
    static STORED: OnceLock<Vec<(&'static str, Entry)>> = OnceLock::new();
    STORED.get_or_init(|| {
        ASSETS
            .iter()
            .map(|&(name, content_type, bytes)| {
                let mut headers = HeaderMap::new();
                headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
                headers.insert(
                    header::CACHE_CONTROL,
                    HeaderValue::from_static("public, max-age=86400"),
                );
                headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
                (name, Entry::new(headers, Bytes::from_static(bytes)))
            })
            .collect()
    })
}

pub async fn asset(
    Path((dir, file)): Path<(String, String)>,
    method: Method,
    headers: HeaderMap,
) -> Response {
    serve_asset(&format!("{dir}/{file}"), &method, &headers)
}

/// The site's icon where browsers look for it (an SVG, which they all take).
pub async fn favicon(method: Method, headers: HeaderMap) -> Response {
    serve_asset("site/favicon.svg", &method, &headers)
}

fn serve_asset(file: &str, method: &Method, headers: &HeaderMap) -> Response {
    match assets().iter().find(|(name, _)| *name == file) {
        Some((_, entry)) => entry.respond(
            headers
                .get(header::IF_NONE_MATCH)
                .and_then(|v| v.to_str().ok()),
            negotiate(headers),
            *method == Method::HEAD,
        ),
        None => Problem::not_found(format!("no asset {file:?}")).into_response(),
    }
}

pub async fn not_found(req: Request) -> Response {
    Problem::not_found(format!("no route for {}", req.uri().path())).into_response()
}

/// Whether a browser is asking (GraphiQL's page instead of a GraphQL answer).
pub fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/html"))
}

fn graphql_refusal(code: ErrorCode, detail: String) -> Response {
    limits::refuse("/graphql", Problem::new(code, detail))
}

async fn run_graphql(s: &AppState, req: async_graphql::Request, asked: Asked) -> Response {
    let base = base(s, asked.origin.as_ref());
    let catalog = asked.catalog.map_or_else(|| s.catalog.snapshot(), |c| c.0);
    let client = asked
        .caller
        .as_ref()
        .map_or_else(String::new, |c| c.identity.clone());
    let attribution = asked
        .caller
        .is_none_or(|c| c.tier == Tier::Free)
        .then(|| s.attribution(&catalog, &base));
    let mut resp = s.graphql.execute_for(req, catalog, &client).await;
    if let Some(a) = attribution
        && let Ok(v) = async_graphql::Value::from_json(a)
    {
        resp.extensions.insert("attribution".to_string(), v);
    }
    // Fields in selection order (the same document always gives the same bytes, so ETags
    // hold); the extensions' keys sorted.
    if resp.errors.is_empty() {
        return Json(graphql::sorted::Answer(&resp)).into_response();
    }
    // An answer with errors is never stored: an unknown persisted query, for one, becomes
    // known as soon as a client registers it.
    match serde_json::to_value(&resp) {
        Ok(v) => {
            let mut res = Json(v).into_response();
            res.extensions_mut().insert(NoStore);
            res
        }
        Err(e) => {
            tracing::error!(error = %e, "GraphQL response is not JSON");
            Problem::internal().into_response()
        }
    }
}

/// `GET /graphql`: GraphiQL for browsers, otherwise a query in the query string
/// (`query`, `variables`, `operationName`, `extensions` for persisted queries).
pub async fn graphql_get(
    State(s): State<AppState>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
    catalog: Option<axum::Extension<Snapshot>>,
    caller: Option<axum::Extension<Caller>>,
    origin: Option<axum::Extension<Origin>>,
) -> Response {
    let q = q.unwrap_or_default();
    if q.is_empty() && wants_html(&headers) {
        return Html(include_str!("../../assets/graphiql.html")).into_response();
    }
    // Without a document (or a persisted query's hash) there is no GraphQL request at all:
    // a client that forgot its query gets a problem naming it, not a parser's complaint.
    let asks = serde_urlencoded::from_str::<Vec<(String, String)>>(&q)
        .unwrap_or_default()
        .into_iter()
        .any(|(k, v)| (k == "query" || k == "extensions") && !v.trim().is_empty());
    if !asks {
        return Problem::invalid_parameter(
            "query",
            "GET /graphql needs a query parameter (a GraphQL document), or extensions with a persisted query's hash; a browser opening /graphql gets the GraphiQL explorer",
        )
        .into_response();
    }
    match async_graphql::http::parse_query_string(&q) {
        Ok(req) => {
            let asked = Asked {
                catalog: catalog.map(|c| c.0),
                caller: caller.map(|c| c.0),
                origin: origin.map(|o| o.0),
            };
            run_graphql(&s, req, asked).await
        }
        Err(e) => graphql_refusal(
            ErrorCode::BadRequest,
            format!("bad GraphQL GET request: {e}"),
        ),
    }
}

/// `POST /graphql` with a JSON body of at most 64 KiB.
/// The 413 of a GraphQL body over the limit.
pub fn graphql_too_large() -> Response {
    graphql_refusal(
        ErrorCode::PayloadTooLarge,
        format!("GraphQL request bodies are limited to {MAX_GRAPHQL_BODY} bytes"),
    )
}

pub async fn graphql_post(
    State(s): State<AppState>,
    caller: Option<axum::Extension<Caller>>,
    origin: Option<axum::Extension<Origin>>,
    body: Body,
) -> Response {
    let bytes: Bytes = match axum::body::to_bytes(body, MAX_GRAPHQL_BODY).await {
        Ok(b) => b,
        Err(_) => return graphql_too_large(),
    };
    match serde_json::from_slice::<async_graphql::Request>(&bytes) {
        Ok(req) => {
            let asked = Asked {
                catalog: None,
                caller: caller.map(|c| c.0),
                origin: origin.map(|o| o.0),
            };
            run_graphql(&s, req, asked).await
        }
        Err(e) => graphql_refusal(
            ErrorCode::BadRequest,
            format!("the body is not a GraphQL request: {e}"),
        ),
    }
}
