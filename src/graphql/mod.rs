//! The GraphQL schema: the heart of the service. REST is nothing but documents run against
//! it (see [`crate::rest`]), so every REST need is answerable here.
//!
//! Protection, all decided before any database work: the [`guards`] (bracket nesting before
//! the parser; fields, selections and depth counted with fragment multiplicity before
//! validation), then the engine's complexity limit, in which every list multiplies its
//! children by its real worst-case size ([`sizes`]), and the HTTP body cap.

pub mod budget;
pub mod changes;
pub mod costs;
pub mod economy;
pub mod guards;
pub mod introspection;
pub mod query;
pub mod recommend;
pub mod retirements;
pub mod sizes;
pub mod sorted;
pub mod types;

use std::sync::Arc;

use async_graphql::registry::SDLExportOptions;
use async_graphql::{
    Context, EmptyMutation, EmptySubscription, ErrorExtensions, MergedObject, Schema,
    ValidationMode,
};

use crate::catalog::Catalog;
use crate::error::ErrorCode;

/// Every root field, one part per area.
#[derive(MergedObject, Default)]
#[graphql(name = "Query")]
pub struct Query(
    query::CatalogRoot,
    economy::EconomyRoot,
    costs::CostsRoot,
    changes::ChangesRoot,
    recommend::RecommendRoot,
    retirements::RetirementsRoot,
);

pub type MdsSchema = Schema<Query, EmptyMutation, EmptySubscription>;

pub use guards::{MAX_DEPTH, MAX_FIELDS, MAX_NESTING, MAX_ROOT_FIELDS, MAX_SELECTIONS};

/// Highest complexity accepted; a list counts its worst-case length times its children.
pub const MAX_COMPLEXITY: usize = 50_000;

/// The schema and what admits a request to it ([`guards::admit`]: bounds and persisted
/// queries). REST's own documents run on a schema with no extensions (the engine would
/// otherwise route every field of every answer through them) that skips the validation
/// rules only a client's document can break: those documents are the service's own, held
/// to every rule once, by a test (`rest_documents_pass_every_validation_rule`), so checking
/// them again per request (a tenth of an uncached list) would find nothing. Clients'
/// documents run on a copy that validates them strictly and spends the
/// [`budget::AnswerBudget`] per resolved field.
pub struct Engine {
    schema: MdsSchema,
    guarded: MdsSchema,
    persisted: guards::PersistedQueries,
    /// The schema's introspection sizes, measured on first use.
    sizes: tokio::sync::OnceCell<introspection::Sizes>,
}

impl Engine {
    /// The schema as clients see it; REST runs its own, pre-checked documents on it.
    pub fn schema(&self) -> &MdsSchema {
        &self.schema
    }

    /// Runs a client's request over one catalogue snapshot: admitted first, so a refused
    /// document costs no execution. Every error carries an `extensions.code`.
    pub async fn execute(
        &self,
        req: async_graphql::Request,
        catalog: Arc<Catalog>,
    ) -> async_graphql::Response {
        self.execute_for(req, catalog, "").await
    }

    /// [`Self::execute`] for a client (`client`: its address or key), whose persisted
    /// queries count against its own share of the store.
    pub async fn execute_for(
        &self,
        req: async_graphql::Request,
        catalog: Arc<Catalog>,
        client: &str,
    ) -> async_graphql::Response {
        let sizes = self.sizes.get_or_init(|| self.measure()).await;
        let mut resp = match guards::admit(req, &self.persisted, sizes) {
            Ok((req, registration)) => {
                let resp = self.guarded.execute(with_catalog(req, catalog)).await;
                // Errors without a path come before execution (validation, complexity): a
                // document refused there is never kept.
                if let Some(reg) = registration
                    && resp.errors.iter().all(|e| !e.path.is_empty())
                {
                    self.persisted.register(reg, client);
                }
                resp
            }
            Err(e) => async_graphql::Response::from_errors(vec![e]),
        };
        add_codes(&mut resp);
        stop_at_budget(&mut resp);
        resp
    }

    /// The schema's introspection sizes, from its own answer to the sizing query.
    async fn measure(&self) -> introspection::Sizes {
        let resp = self.schema.execute(introspection::SIZING_QUERY).await;
        introspection::Sizes::from_answer(resp.data).unwrap_or_else(|| {
            tracing::error!("the schema's introspection sizes could not be read");
            introspection::Sizes::default()
        })
    }
}

/// An answer stopped by the budget is no answer: no partial data, one error.
pub(crate) fn stop_at_budget(resp: &mut async_graphql::Response) {
    let stopped = resp.errors.iter().position(|e| {
        e.extensions
            .as_ref()
            .and_then(|x| x.get("code"))
            .is_some_and(|c| *c == async_graphql::Value::from(budget::CODE))
    });
    if let Some(i) = stopped {
        let e = resp.errors.swap_remove(i);
        resp.errors = vec![e];
        resp.data = async_graphql::Value::Null;
    }
}

/// Builds the engine. Resolvers read the catalogue snapshot each request carries
/// ([`with_catalog`]); the schema itself holds no data.
pub fn build() -> Engine {
    let builder = || {
        Schema::build(Query::default(), EmptyMutation, EmptySubscription)
            // Depth is counted by the guards, which leave introspection's own nesting out.
            .limit_complexity(MAX_COMPLEXITY)
            .limit_recursive_depth(MAX_NESTING)
            .limit_directives(20)
    };
    Engine {
        schema: builder().validation_mode(ValidationMode::Fast).finish(),
        guarded: builder()
            .extension(budget::AnswerBudget(budget::MAX_ANSWER_FIELDS))
            .finish(),
        persisted: guards::PersistedQueries::new(),
        sizes: tokio::sync::OnceCell::new(),
    }
}

/// The SDL with sorted fields, arguments and enum items, so it never reorders between builds.
pub fn sdl() -> String {
    build().schema.sdl_with_options(
        SDLExportOptions::new()
            .sorted_fields()
            .sorted_arguments()
            .sorted_enum_items(),
    )
}

/// Attaches the catalogue snapshot the whole request reads.
pub fn with_catalog(req: async_graphql::Request, catalog: Arc<Catalog>) -> async_graphql::Request {
    req.data(catalog)
}

/// The request's catalogue snapshot.
pub fn catalog<'a>(ctx: &'a Context<'_>) -> async_graphql::Result<&'a Arc<Catalog>> {
    ctx.data::<Arc<Catalog>>().map_err(|e| internal(e.message))
}

/// A GraphQL error with `extensions.code` (and `extensions.param` when a parameter is to blame).
pub fn error(
    code: ErrorCode,
    message: impl Into<String>,
    param: Option<&str>,
) -> async_graphql::Error {
    let param = param.map(str::to_string);
    async_graphql::Error::new(message).extend_with(move |_, e| {
        e.set("code", code.graphql());
        if let Some(p) = &param {
            e.set("param", p.as_str());
        }
    })
}

pub fn bad_input(param: &str, message: impl Into<String>) -> async_graphql::Error {
    error(ErrorCode::InvalidParameter, message, Some(param))
}

pub fn not_found(message: impl Into<String>) -> async_graphql::Error {
    error(ErrorCode::NotFound, message, None)
}

/// NOT_FOUND for an unknown model, with the closest known ones in `extensions.closest`
/// (`[{slug, name}]`).
pub fn not_found_closest(
    message: impl Into<String>,
    closest: &[crate::catalog::Row<entity::model::Model>],
) -> async_graphql::Error {
    let list: Vec<async_graphql::Value> = closest
        .iter()
        .map(|m| {
            let mut o = async_graphql::indexmap::IndexMap::new();
            o.insert(
                async_graphql::Name::new("slug"),
                async_graphql::Value::String(m.slug.clone()),
            );
            o.insert(
                async_graphql::Name::new("name"),
                async_graphql::Value::String(m.name.clone()),
            );
            async_graphql::Value::Object(o)
        })
        .collect();
    error(ErrorCode::NotFound, message, None).extend_with(move |_, e| {
        e.set("closest", async_graphql::Value::List(list.clone()));
    })
}

/// Logs a storage failure and returns an error that says nothing of it.
pub fn internal<E: std::fmt::Display>(e: E) -> async_graphql::Error {
    tracing::error!(error = %e, "storage failure while resolving a GraphQL field");
    error(ErrorCode::Internal, "internal error", None)
}

/// Gives every error an `extensions.code`: errors raised by the engine itself (parse,
/// validation, limits) carry none.
pub fn add_codes(resp: &mut async_graphql::Response) {
    for e in &mut resp.errors {
        let has_code = e
            .extensions
            .as_ref()
            .is_some_and(|x| x.get("code").is_some());
        if has_code {
            continue;
        }
        if let Some(message) = syntax_error(&e.message) {
            e.message = message;
            e.extensions
                .get_or_insert_with(Default::default)
                .set("code", "GRAPHQL_PARSE_FAILED");
            continue;
        }
        let m = e.message.to_lowercase();
        let code =
            if m.contains("too complex") || m.contains("nested too deep") || m.contains("too many")
            {
                ErrorCode::QueryTooComplex.graphql()
            } else if m.contains("persistedquerynotfound") || m.contains("persisted query") {
                "PERSISTED_QUERY_NOT_FOUND"
            } else if e.locations.is_empty() && m.contains("parse") {
                "GRAPHQL_PARSE_FAILED"
            } else {
                "GRAPHQL_VALIDATION_FAILED"
            };
        e.extensions
            .get_or_insert_with(Default::default)
            .set("code", code);
    }
}

/// The parser's multi-line report of a syntax error (` --> 1:36`, the source line, a caret,
/// `= expected selection`) as one line: `Syntax error at line 1, column 36: expected
/// selection`. `None` when `message` is not such a report.
fn syntax_error(message: &str) -> Option<String> {
    let mut lines = message.lines();
    let position = lines.next()?.trim().strip_prefix("-->")?.trim();
    let (line, column) = position.split_once(':')?;
    let (line, column): (u32, u32) = (line.parse().ok()?, column.parse().ok()?);
    let expected = message
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("= "))
        .unwrap_or("unexpected input");
    Some(format!(
        "Syntax error at line {line}, column {column}: {expected}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_syntax_error_is_one_line_with_its_position() {
        let report = " --> 1:36\n  |\n1 | { model(slug: \"x\") { slug } \n  |                                    ^---\n  |\n  = expected selection";
        assert_eq!(
            syntax_error(report).as_deref(),
            Some("Syntax error at line 1, column 36: expected selection")
        );
        assert_eq!(syntax_error("Unknown field \"x\""), None);
    }

    /// REST's documents run without the strict validation rules (see [`Engine`]), so each
    /// is held to them here: on the strict schema it gets exactly the errors the lenient one
    /// gives (with no catalogue, every root field's), and each of them from a resolver (an
    /// error with a path), never from validation.
    #[tokio::test]
    async fn rest_documents_pass_every_validation_rule() {
        let engine = build();
        for ep in crate::rest::table::ENDPOINTS {
            // The variables its documented sample gives.
            let (path, query) = ep.sample.split_once('?').unwrap_or((ep.sample, ""));
            let path_params = ep
                .path
                .split('/')
                .zip(path.split('/'))
                .filter_map(|(t, v)| {
                    let name = t.strip_prefix('{')?.strip_suffix('}')?;
                    Some((name.to_string(), v.to_string()))
                })
                .collect();
            let query: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap();
            let vars = crate::rest::prepare(ep, &path_params, &query)
                .unwrap_or_else(|p| panic!("{}: {p:?}", ep.sample))
                .variables;
            let req = || {
                async_graphql::Request::new(ep.document).variables(
                    async_graphql::Variables::from_json(serde_json::Value::Object(vars.clone())),
                )
            };
            let strict = engine.guarded.execute(req()).await;
            let lenient = engine.schema.execute(req()).await;
            let messages = |r: &async_graphql::Response| {
                r.errors
                    .iter()
                    .map(|e| e.message.clone())
                    .collect::<Vec<_>>()
            };
            assert_eq!(messages(&strict), messages(&lenient), "{}", ep.path);
            assert!(!strict.errors.is_empty(), "{}", ep.path);
            assert!(
                strict.errors.iter().all(|e| !e.path.is_empty()),
                "{}: {:?}",
                ep.path,
                strict.errors
            );
        }
        // The check can fail: a document that breaks a rule does, on the strict schema only.
        let bad = "query($unused: Int) { dataset { version } }";
        let strict = engine.guarded.execute(bad).await;
        assert!(
            strict.errors.iter().any(|e| e.path.is_empty()),
            "{strict:?}"
        );
        let lenient = engine.schema.execute(bad).await;
        assert!(
            lenient.errors.iter().all(|e| !e.path.is_empty()),
            "{lenient:?}"
        );
    }
}
