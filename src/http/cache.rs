//! The response cache, ETags and `304 Not Modified`.
//!
//! A GET answer is a pure function of the request, the dataset version and the caller's
//! tier (Free answers carry the attribution), so its bytes are kept, with their ETag and,
//! made on first demand, their gzip and brotli forms. The key is the path, the query
//! string's known parameters, decoded and in sorted order, the tier, whether GraphiQL's HTML was asked for,
//! and the version of the catalogue snapshot the request reads; the handler then reads
//! that same snapshot ([`Snapshot`]), so a stored answer always belongs to its key's
//! version. An import changes the version, and the first request to see it empties the
//! cache.
//!
//! A hit whose ETag matches `If-None-Match` is answered 304 before any execution; any other
//! hit is answered from memory. `HEAD` reads the same entry as `GET` and sends no body.
//! The cache holds at most its configured number of bytes (body and compressed forms
//! counted), least-recently-used entries going first; size 0 keeps nothing but still
//! gives every 200 an ETag. Rate limiting runs before the lookup, so every request is
//! counted whether it hits or not.

use std::sync::Arc;

use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::feeds;
use crate::catalog::Catalog;
use crate::error::Problem;
use crate::limits::{self, Caller, Tier};
use crate::responses::{Encoding, Entry, negotiate};
use crate::rest;
use crate::state::AppState;

/// The catalogue snapshot a request reads, chosen by the lookup.
#[derive(Clone)]
pub struct Snapshot(pub Arc<Catalog>);

/// Put on a response that must not be stored (a GraphQL answer with errors).
#[derive(Clone, Copy)]
pub struct NoStore;

/// Marks a `304` its handler answered without doing any work (an export's ETag is the
/// dataset's digest, known before a row is written): free, like a 304 from the store.
#[derive(Clone, Copy, Debug)]
pub struct Unchanged;

/// Largest answer buffered for an ETag; larger answers stream through without one.
const MAX_BODY: usize = 32 * 1024 * 1024;

/// Answers that are never stored: live state, exports (streamed, with ETags of their own)
/// and the bundled assets (stored answers of their own, made once).
fn cacheable(path: &str) -> bool {
    !matches!(
        path,
        "/healthz" | "/readyz" | "/healthz/dependencies" | "/metrics"
    ) && !path.starts_with("/api/v1/export/")
        && !path.starts_with("/assets/")
}

/// The cache key of a request read from `version`: the path, the tier, whether GraphiQL's
/// HTML was asked for, and the decoded values of the query parameters the answer depends on
/// ([`rest::query_names`]), sorted. Two requests that mean the same share an entry whatever
/// else their query strings carry (so OpenAPI, docs and assets keep one entry each), and two
/// that differ never do. A known parameter given twice is refused (400 naming it): the
/// answer would otherwise depend on which copy a reader takes; so is a parameter a REST
/// endpoint does not take.
fn key(req: &Request, version: u64) -> Result<String, crate::error::Problem> {
    let path = req.uri().path();
    let tier = req
        .extensions()
        .get::<Caller>()
        .map_or(Tier::Free, |c| c.tier);
    let names = rest::query_names(if path == feeds::CHANGES_FEED {
        feeds::CHANGES
    } else {
        path
    });
    // A REST endpoint refuses what it does not take, before any stored answer is served;
    // elsewhere only the known parameters are read. The query string is parsed once.
    let strict = path != "/graphql" && rest::endpoint_params(path).is_some();
    let mut params: Vec<(String, String)> = match (names.is_empty() && !strict, req.uri().query()) {
        (false, Some(q)) => serde_urlencoded::from_str(q).unwrap_or_default(),
        _ => Vec::new(),
    };
    if let Some(name) = rest::repeated(names, &params) {
        return Err(rest::repeated_problem(name));
    }
    if strict && let Some(problem) = rest::unknown(names, &params) {
        return Err(problem);
    }
    params.retain(|(k, _)| names.contains(&k.as_str()));
    params.sort_unstable();
    let html = path == "/graphql" && super::handlers::wants_html(req.headers());
    // Answers write absolute URLs from the request's origin.
    let origin = req
        .extensions()
        .get::<super::origin::Origin>()
        .map_or("", |o| o.0.as_str());
    Ok(format!(
        "{version}|{origin}|{}|{}|{path}?{}",
        tier.as_str(),
        u8::from(html),
        serde_urlencoded::to_string(&params).unwrap_or_default()
    ))
}

/// What the cache makes of a request.
pub enum Lookup {
    /// Answered from memory (a 304 when `If-None-Match` holds the ETag).
    Hit(Response),
    /// To be answered by the routes, then stored by [`store`].
    Miss(Pending),
    /// Never stored: not a GET or HEAD, or live state.
    Pass,
    /// Refused before any work (a parameter given twice).
    Refused(Response),
}

/// A missed request, remembered until its answer is stored.
pub struct Pending {
    key: String,
    if_none_match: Option<String>,
    encoding: Encoding,
    head: bool,
    api: bool,
}

/// Looks the request up. On a miss the request is made ready for the routes: it reads the
/// snapshot whose version is in the key, asks as a GET (a HEAD shares its GET's entry) and
/// asks for no compression (the entry makes its own compressed forms).
pub fn lookup(s: &AppState, req: &mut Request) -> Lookup {
    let head = req.method() == Method::HEAD;
    if !(req.method() == Method::GET || head) || !cacheable(req.uri().path()) {
        return Lookup::Pass;
    }
    let catalog = s.catalog.snapshot();
    let version = catalog.revision();
    s.cache.follow(version);
    let key = match key(req, version) {
        Ok(k) => k,
        Err(problem) => {
            return Lookup::Refused(limits::refuse(req.uri().path(), problem));
        }
    };
    let api = limits::is_counted(req.uri().path());
    let found = hit_or_pend(s, req, key, catalog, head, api);
    if matches!(found, Lookup::Miss(_)) {
        *req.method_mut() = Method::GET;
    }
    found
}

/// Answers a stored key from memory, or readies the request to be answered by the routes
/// from `catalog` (without compression: the entry makes its own compressed forms).
fn hit_or_pend(
    s: &AppState,
    req: &mut Request,
    key: String,
    catalog: Arc<Catalog>,
    head: bool,
    api: bool,
) -> Lookup {
    let if_none_match = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok());
    let encoding = negotiate(req.headers());
    if let Some(hit) = s.cache.get(&key) {
        return Lookup::Hit(hit.respond(if_none_match, encoding, head));
    }
    let pending = Pending {
        key,
        if_none_match: if_none_match.map(str::to_string),
        encoding,
        head,
        api,
    };
    req.headers_mut().remove(header::ACCEPT_ENCODING);
    req.extensions_mut().insert(Snapshot(catalog));
    Lookup::Miss(pending)
}

/// Looks a GraphQL POST up by what it asks: its document with insignificant whitespace and
/// commas folded, its variables (keys sorted), its operation name and extensions (a
/// persisted query's hash), with the tier, the origin and the dataset version, as a GET's
/// key is made. Every answer is a pure function of these, so a repeated POST — what Apollo
/// Client and most GraphQL clients send — is answered from memory as a GET is. A body that
/// is not a JSON object passes to the handler, which names the fault.
/// The catalogue snapshot a POST is answered from (the cache following its version) and the
/// part of a key every kind of request shares: the dataset version, the origin answers
/// write their URLs from, and the tier (`{version}|{origin}|{tier}`).
pub fn asked_of(s: &AppState, req: &Request) -> (Arc<Catalog>, String) {
    let catalog = s.catalog.snapshot();
    let version = catalog.revision();
    s.cache.follow(version);
    let tier = req
        .extensions()
        .get::<Caller>()
        .map_or(Tier::Free, |c| c.tier);
    let origin = req
        .extensions()
        .get::<super::origin::Origin>()
        .map_or("", |o| o.0.as_str());
    (catalog, format!("{version}|{origin}|{}", tier.as_str()))
}

pub fn lookup_post(s: &AppState, req: &mut Request, body: &[u8]) -> Lookup {
    let Ok(serde_json::Value::Object(fields)) = serde_json::from_slice::<serde_json::Value>(body)
    else {
        return Lookup::Pass;
    };
    let (catalog, asker) = asked_of(s, req);
    let field = |k: &str| fields.get(k).filter(|v| !v.is_null());
    let query = field("query")
        .and_then(serde_json::Value::as_str)
        .map(normalized_document);
    // serde_json's maps are sorted: the same variables give the same text.
    let text = |k: &str| field(k).map_or(String::new(), serde_json::Value::to_string);
    let key = format!(
        "{asker}|post|{}|{}|{}|{}",
        query.unwrap_or_default(),
        text("variables"),
        text("operationName"),
        text("extensions"),
    );
    hit_or_pend(s, req, key, catalog, false, true)
}

/// A GraphQL document with its insignificant tokens folded: runs of whitespace, line
/// terminators and commas outside strings become one space, comments go, the ends are
/// trimmed. Two spellings of one document share a key; strings are kept as written.
fn normalized_document(doc: &str) -> String {
    let mut out = String::with_capacity(doc.len());
    let mut chars = doc.chars().peekable();
    let mut gap = false;
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                if gap && !out.is_empty() {
                    out.push(' ');
                }
                gap = false;
                out.push('"');
                // A block string (`"""…"""`) or a plain one, escapes kept.
                let block = chars.peek() == Some(&'"') && {
                    let mut look = chars.clone();
                    look.next();
                    look.peek() == Some(&'"')
                };
                if block {
                    out.push_str("\"\"");
                    chars.next();
                    chars.next();
                    let mut quotes = 0;
                    for c in chars.by_ref() {
                        out.push(c);
                        quotes = if c == '"' { quotes + 1 } else { 0 };
                        if quotes == 3 {
                            break;
                        }
                    }
                } else {
                    let mut escaped = false;
                    for c in chars.by_ref() {
                        out.push(c);
                        if escaped {
                            escaped = false;
                        } else if c == '\\' {
                            escaped = true;
                        } else if c == '"' {
                            break;
                        }
                    }
                }
            }
            '#' => {
                for c in chars.by_ref() {
                    if c == '\n' || c == '\r' {
                        break;
                    }
                }
                gap = true;
            }
            c if c.is_whitespace() || c == ',' || c == '\u{feff}' => gap = true,
            c => {
                if gap && !out.is_empty() {
                    out.push(' ');
                }
                gap = false;
                out.push(c);
            }
        }
    }
    out
}

/// Stores a missed request's answer (a 200 without errors) and answers from the entry.
pub async fn store(s: &AppState, p: Pending, res: Response) -> Response {
    if res.status() != StatusCode::OK {
        return res;
    }
    let no_store = res.extensions().get::<NoStore>().is_some();
    let (mut parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        tracing::error!("an answer exceeded the largest buffered body");
        return Problem::internal().into_response();
    };
    if p.api && !parts.headers.contains_key(header::CACHE_CONTROL) {
        parts.headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=60"),
        );
        parts.headers.insert(
            header::VARY,
            HeaderValue::from_static("Accept-Encoding, X-API-Key, Authorization"),
        );
    }
    if no_store {
        parts
            .headers
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    let entry = Arc::new(Entry::new(parts.headers, bytes));
    if !no_store {
        s.cache.insert(p.key, entry.clone());
    }
    entry.respond(p.if_none_match.as_deref(), p.encoding, p.head)
}

#[cfg(test)]
mod tests {
    use super::normalized_document;

    #[test]
    fn insignificant_tokens_fold_and_strings_stay() {
        let a = "query Q($n: Int) {\n  models(first: $n) { nodes { slug, name } }\n}  # list\n";
        assert_eq!(
            normalized_document(a),
            "query Q($n: Int) { models(first: $n) { nodes { slug name } } }"
        );
        let s = r#"{ search(q: "a,  b") { slug } }"#;
        assert_eq!(normalized_document(s), s);
        let esc = r#"{ search(q: "say \"hi,  there\"") { slug } }"#;
        assert_eq!(normalized_document(esc), esc);
        let block = "{ x(d: \"\"\"a,\n  b\"\"\") }";
        assert_eq!(normalized_document(block), block);
        // Two spellings of one document, one key.
        assert_eq!(
            normalized_document("{models{nodes{slug}}}"),
            normalized_document("{models{nodes{slug}}}\n")
        );
    }
}
