//! The GraphQL schema: the heart of the service. REST is nothing but documents run against
//! it (see [`crate::rest`]), so every REST need is answerable here.
//!
//! Protection, all decided before any database work: a depth limit, a complexity limit in
//! which every list multiplies its children by its `first`, a cap on selected fields (so
//! 1,000 aliases are refused at parse time) and on root fields, and the HTTP body cap.

pub mod loaders;
pub mod query;
pub mod types;

use std::sync::Arc;

use async_graphql::dataloader::DataLoader;
use async_graphql::extensions::apollo_persisted_queries::{
    ApolloPersistedQueries, LruCacheStorage,
};
use async_graphql::extensions::{Extension, ExtensionContext, ExtensionFactory, NextParseQuery};
use async_graphql::parser::types::{ExecutableDocument, Selection, SelectionSet};
use async_graphql::registry::SDLExportOptions;
use async_graphql::{
    EmptyMutation, EmptySubscription, ErrorExtensions, Pos, Schema, ServerError, ServerResult,
    Variables,
};
use sea_orm::DatabaseConnection;

use loaders::StoreLoader;
pub use query::Query;

pub type MdsSchema = Schema<Query, EmptyMutation, EmptySubscription>;

/// Deepest selection nesting accepted.
pub const MAX_DEPTH: usize = 12;
/// Highest complexity accepted; a list counts `first` (or its cap) times its children.
pub const MAX_COMPLEXITY: usize = 25_000;
/// Most fields (aliases included) one document may select.
pub const MAX_FIELDS: usize = 400;
/// Most root fields one operation may select.
pub const MAX_ROOT_FIELDS: usize = 20;

/// Builds the schema; `db` is absent only when printing the SDL.
pub fn build(db: Option<DatabaseConnection>) -> MdsSchema {
    let mut b = Schema::build(Query, EmptyMutation, EmptySubscription)
        .limit_depth(MAX_DEPTH)
        .limit_complexity(MAX_COMPLEXITY)
        .limit_recursive_depth(64)
        .limit_directives(20)
        .extension(FieldCap)
        .extension(ApolloPersistedQueries::new(LruCacheStorage::new(512)));
    if let Some(db) = db {
        b = b.data(db);
    }
    b.finish()
}

/// The SDL with sorted fields, arguments and enum items, so it never reorders between builds.
pub fn sdl() -> String {
    build(None).sdl_with_options(
        SDLExportOptions::new()
            .sorted_fields()
            .sorted_arguments()
            .sorted_enum_items(),
    )
}

/// Attaches the per-request DataLoader (one per request, so no cache outlives an import).
pub fn with_loader(req: async_graphql::Request, db: &DatabaseConnection) -> async_graphql::Request {
    // A few milliseconds gather the keys of a whole list level into one batch.
    req.data(
        DataLoader::new(StoreLoader { db: db.clone() }, tokio::spawn)
            .delay(std::time::Duration::from_millis(4)),
    )
}

/// A GraphQL error with `extensions.code` (and `extensions.param` when a parameter is to blame).
pub fn error(
    code: &'static str,
    message: impl Into<String>,
    param: Option<&str>,
) -> async_graphql::Error {
    let param = param.map(str::to_string);
    async_graphql::Error::new(message).extend_with(move |_, e| {
        e.set("code", code);
        if let Some(p) = &param {
            e.set("param", p.as_str());
        }
    })
}

pub fn bad_input(param: &str, message: impl Into<String>) -> async_graphql::Error {
    error("BAD_USER_INPUT", message, Some(param))
}

pub fn not_found(message: impl Into<String>) -> async_graphql::Error {
    error("NOT_FOUND", message, None)
}

/// Logs a storage failure and returns an error that says nothing of it.
pub fn internal<E: std::fmt::Display>(e: E) -> async_graphql::Error {
    tracing::error!(error = %e, "storage failure while resolving a GraphQL field");
    error("INTERNAL", "internal error", None)
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
        let m = e.message.to_lowercase();
        let code =
            if m.contains("too complex") || m.contains("nested too deep") || m.contains("too many")
            {
                "QUERY_TOO_COMPLEX"
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

fn count_fields(set: &SelectionSet, doc: &ExecutableDocument, depth: usize, total: &mut usize) {
    if depth > 64 || *total > MAX_FIELDS {
        return;
    }
    for sel in &set.items {
        match &sel.node {
            Selection::Field(f) => {
                *total += 1;
                count_fields(&f.node.selection_set.node, doc, depth + 1, total);
            }
            Selection::InlineFragment(fr) => {
                count_fields(&fr.node.selection_set.node, doc, depth + 1, total)
            }
            Selection::FragmentSpread(sp) => {
                if let Some(fr) = doc.fragments.get(&sp.node.fragment_name.node) {
                    count_fields(&fr.node.selection_set.node, doc, depth + 1, total);
                }
            }
        }
    }
}

fn too_complex(message: String) -> ServerError {
    let mut e = ServerError::new(message, Some(Pos::default()));
    e.locations.clear();
    e.extensions
        .get_or_insert_with(Default::default)
        .set("code", "QUERY_TOO_COMPLEX");
    e
}

/// Refuses documents with too many fields or root fields right after parsing.
struct FieldCap;

impl ExtensionFactory for FieldCap {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(FieldCapExtension)
    }
}

struct FieldCapExtension;

#[async_trait::async_trait]
impl Extension for FieldCapExtension {
    async fn parse_query(
        &self,
        ctx: &ExtensionContext<'_>,
        query: &str,
        variables: &Variables,
        next: NextParseQuery<'_>,
    ) -> ServerResult<ExecutableDocument> {
        let doc = next.run(ctx, query, variables).await?;
        for (_, op) in doc.operations.iter() {
            let roots = op.node.selection_set.node.items.len();
            if roots > MAX_ROOT_FIELDS {
                return Err(too_complex(format!(
                    "Query selects {roots} root fields; at most {MAX_ROOT_FIELDS} are allowed"
                )));
            }
            let mut total = 0;
            count_fields(&op.node.selection_set.node, &doc, 0, &mut total);
            if total > MAX_FIELDS {
                return Err(too_complex(format!(
                    "Query selects too many fields (aliases included); at most {MAX_FIELDS} are allowed"
                )));
            }
        }
        Ok(doc)
    }
}
