//! The MCP face (docs/mcp.md): the catalogue as Model Context Protocol tools and resources,
//! on the official SDK (`rmcp`), over streamable HTTP at `/mcp` (behind the same front
//! service as REST and GraphQL: limits, cache, CORS, request ids, metrics) and over stdio
//! (`mds mcp`). Every tool is a row of [`tools::TOOLS`] naming a REST endpoint, so its
//! answer is the REST answer, which is a GraphQL document's: the three faces cannot
//! disagree.

pub mod cache;
pub mod tools;

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value};

use crate::error::Problem;
use crate::http::handlers::base;
use crate::http::origin::Origin;
use crate::limits::{Caller, Tier};
use crate::rest::{self, table};
use crate::state::AppState;

/// The MCP server over the service's state.
#[derive(Clone)]
pub struct Server {
    state: AppState,
}

impl Server {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }
}

/// Who asks and from where, as the front service settled it (nothing over stdio).
struct Asker {
    caller: Option<Caller>,
    origin: Option<Origin>,
    /// The catalogue snapshot the front service chose (the cache key's version).
    catalog: Option<Arc<crate::catalog::Catalog>>,
}

fn asker(ctx: &RequestContext<RoleServer>) -> Asker {
    let parts = ctx.extensions.get::<axum::http::request::Parts>();
    Asker {
        caller: parts.and_then(|p| p.extensions.get::<Caller>().cloned()),
        origin: parts.and_then(|p| p.extensions.get::<Origin>().cloned()),
        catalog: parts.and_then(|p| {
            p.extensions
                .get::<crate::http::cache::Snapshot>()
                .map(|s| s.0.clone())
        }),
    }
}

/// Runs a REST endpoint's document as its handler does and answers its envelope as JSON.
async fn run(
    state: &AppState,
    ep: &'static table::Endpoint,
    path: std::collections::HashMap<String, String>,
    query: Vec<(String, String)>,
    asker: &Asker,
) -> Result<Value, Problem> {
    let catalog = asker
        .catalog
        .clone()
        .unwrap_or_else(|| state.catalog.snapshot());
    let prepared = rest::prepare(ep, &path, &query)?;
    let free = asker.caller.as_ref().is_none_or(|c| c.tier == Tier::Free);
    let base = base(state, asker.origin.as_ref());
    let attribution = free.then(|| state.attribution(&catalog, &base));
    let envelope = rest::execute(
        state.graphql.schema(),
        catalog,
        ep,
        prepared,
        attribution.as_ref(),
        path.get("slug").map(String::as_str),
    )
    .await?;
    Ok(envelope.to_json())
}

/// A problem as an MCP tool error: the REST problem body (same `code`, `param`, `closest`)
/// as the text an agent reads.
fn tool_error(p: &Problem) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(p.body().to_string())])
}

impl Server {
    /// A tool call, run over the request's catalogue snapshot (the one its cache key names,
    /// see [`cache`]).
    async fn call(&self, name: &str, args: Map<String, Value>, asker: &Asker) -> CallToolResult {
        let Some(tool) = tools::find(name) else {
            let known: Vec<&str> = tools::TOOLS.iter().map(|t| t.name).collect();
            return tool_error(&Problem::invalid_parameter(
                "name",
                format!("no tool {name:?}; the tools are {}", known.join(", ")),
            ));
        };
        let catalog = asker
            .catalog
            .clone()
            .unwrap_or_else(|| self.state.catalog.snapshot());
        let answer = match tools::request_of(tool, &catalog, &args) {
            Ok((ep, path, query)) => run(&self.state, ep, path, query, asker).await,
            Err(p) => Err(p),
        };
        match answer {
            Ok(answer) => {
                let text = tools::markdown(tool, &answer);
                let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                result.structured_content = Some(answer);
                result
            }
            Err(p) => tool_error(&p),
        }
    }

    /// A resource's JSON: the dataset, the sources, or one model's detail.
    async fn resource(&self, uri: &str, asker: &Asker) -> Result<Value, Problem> {
        let (endpoint, slug) = match uri {
            "mds://dataset" => ("/api/v1/dataset", None),
            "mds://sources" => ("/api/v1/sources", None),
            other => match other.strip_prefix("mds://models/") {
                Some(id) => ("/api/v1/models/{slug}", Some(id)),
                None => {
                    return Err(Problem::not_found(format!("no resource {uri:?}")));
                }
            },
        };
        let ep = table::ENDPOINTS
            .iter()
            .find(|e| e.path == endpoint)
            .ok_or_else(Problem::internal)?;
        let mut path = std::collections::HashMap::new();
        if let Some(id) = slug {
            let catalog = self.state.catalog.snapshot();
            let Some(m) = catalog.lookup(id) else {
                let mut p = Problem::not_found(format!("no model with slug {id:?}"));
                p.closest = catalog
                    .closest_models(id)
                    .iter()
                    .map(|m| (m.slug.clone(), m.name.clone()))
                    .collect();
                return Err(p);
            };
            path.insert("slug".to_string(), m.slug.clone());
        }
        run(&self.state, ep, path, Vec::new(), asker).await
    }
}

const INSTRUCTIONS: &str = "Model Data Service: public data about AI models (prices at every provider, benchmark scores, a capability index, price history, changes). Use recommend_models to choose a model for a task and workload, estimate_cost to price a workload, find_models to filter the catalogue, get_model for one model by any id. Every answer's structuredContent is the REST API's answer; prices are USD per 1M tokens unless a unit says otherwise.";

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("mds", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            tools::definitions().as_ref().clone(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::definitions()
            .iter()
            .find(|t| t.name == name)
            .cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let asker = asker(&context);
        let args = request.arguments.unwrap_or_default();
        Ok(self.call(&request.name, args, &asker).await.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new("mds://dataset", "dataset")
                .with_title("The dataset being served")
                .with_description("Version, build and import time, and each source's observation day and freshness (as /api/v1/dataset).")
                .with_mime_type("application/json"),
            Resource::new("mds://sources", "sources")
                .with_title("Sources")
                .with_description("The public datasets the data comes from, with licences, attribution and status (as /api/v1/sources).")
                .with_mime_type("application/json"),
        ]))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new("mds://models/{slug}", "model")
                .with_title("A model")
                .with_description("One model's detail (scores, offerings, aliases) as /api/v1/models/{slug}; any identifier resolves.")
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let asker = asker(&context);
        match self.resource(&request.uri, &asker).await {
            Ok(v) => Ok(ReadResourceResult::new(vec![
                ResourceContents::text(v.to_string(), request.uri)
                    .with_mime_type("application/json"),
            ])
            .into()),
            Err(p) => Err(ErrorData::resource_not_found(
                p.detail.clone(),
                Some(p.body()),
            )),
        }
    }
}

/// The streamable HTTP service mounted at `/mcp`: stateless (every POST stands alone, so
/// any instance answers any request) with plain JSON answers. Any `Host` is accepted: the
/// server is public and read-only, with nothing a rebound local page could reach.
pub fn http_service(
    state: AppState,
) -> rmcp::transport::StreamableHttpService<
    Server,
    rmcp::transport::streamable_http_server::session::never::NeverSessionManager,
> {
    let config = rmcp::transport::StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .disable_allowed_hosts()
        .with_max_request_body_bytes(crate::http::MAX_GRAPHQL_BODY);
    let server = Server::new(state);
    rmcp::transport::StreamableHttpService::new(move || Ok(server.clone()), Arc::default(), config)
}

/// Serves MCP over stdin and stdout until the client closes them (`mds mcp`).
pub async fn stdio(state: AppState) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    use rmcp::ServiceExt;
    let service = Server::new(state).serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}

/// Whether an MCP message body is counted against the hourly limit: a tool call or a
/// resource read (each counts once, as one REST request does); anything else (the
/// handshake, listings, notifications, a body that is not JSON-RPC) is free.
pub fn counts(body: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Message<'a> {
        #[serde(borrow)]
        method: Option<&'a str>,
    }
    match serde_json::from_slice::<Message>(body) {
        Ok(m) => m
            .method
            .is_some_and(|m| matches!(m, "tools/call" | "resources/read")),
        // A batch (an array) may hold calls: it counts.
        Err(_) => body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'['),
    }
}
