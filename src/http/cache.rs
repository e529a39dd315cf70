//! The response cache, ETags and `304 Not Modified`.
//!
//! A GET answer is a pure function of the request, the dataset version and the caller's
//! tier (Free answers carry the attribution), so its bytes are kept, with their ETag and,
//! made on first demand, their gzip and brotli forms. The key is the path, the query
//! string's parameters in sorted order, the tier, whether GraphiQL's HTML was asked for,
//! and the version of the catalogue snapshot the request reads; the handler then reads
//! that same snapshot ([`Snapshot`]), so a stored answer always belongs to its key's
//! version. An import changes the version, and the first request to see it empties the
//! cache.
//!
//! A hit whose ETag matches `If-None-Match` is answered 304 before any execution; any other
//! hit is answered from memory. `HEAD` reads the same entry as `GET` and sends no body.
//! The cache holds at most its configured number of bytes (body and compressed forms
//! counted), least-recently-used entries going first; size 0 keeps nothing but still
//! gives every 200 an ETag. Rate limiting runs before this layer, so every request is
//! counted whether it hits or not.

use std::io::Write;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::catalog::Catalog;
use crate::error::Problem;
use crate::limits::{self, Caller, Tier};
use crate::state::AppState;

/// The catalogue snapshot a request reads, chosen by this layer.
#[derive(Clone)]
pub struct Snapshot(pub Arc<Catalog>);

/// Put on a response that must not be stored (a GraphQL answer with errors).
#[derive(Clone, Copy)]
pub struct NoStore;

/// Largest answer buffered for an ETag; larger answers stream through without one.
const MAX_BODY: usize = 32 * 1024 * 1024;
/// Smaller answers are not worth compressing.
const MIN_COMPRESS: usize = 32;

/// One stored answer.
pub struct Entry {
    headers: HeaderMap,
    body: Bytes,
    etag: HeaderValue,
    gzip: OnceLock<Bytes>,
    br: OnceLock<Bytes>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Identity,
    Gzip,
    Brotli,
}

impl Entry {
    fn new(mut headers: HeaderMap, body: Bytes) -> Self {
        let digest = crate::snapshot::sha256_hex(&body);
        let etag = HeaderValue::from_str(&format!("W/\"{}\"", &digest[..32]))
            .unwrap_or_else(|_| HeaderValue::from_static("W/\"0\""));
        headers.remove(header::CONTENT_LENGTH);
        headers.insert(header::ETAG, etag.clone());
        Self {
            headers,
            body,
            etag,
            gzip: OnceLock::new(),
            br: OnceLock::new(),
        }
    }

    /// Bytes held, counting the compressed forms a full entry may grow (at most the body's
    /// size again, for text this size).
    fn weight(&self) -> u64 {
        (self.body.len() * 2 + 256) as u64
    }

    fn matches(&self, if_none_match: Option<&str>) -> bool {
        let tag = self.etag.to_str().unwrap_or_default();
        if_none_match.is_some_and(|inm| {
            inm.split(',').map(str::trim).any(|t| {
                t == "*" || t == tag || t.trim_start_matches("W/") == tag.trim_start_matches("W/")
            })
        })
    }

    fn encoded(&self, encoding: Encoding) -> (Bytes, Option<&'static str>) {
        if self.body.len() < MIN_COMPRESS {
            return (self.body.clone(), None);
        }
        match encoding {
            Encoding::Identity => (self.body.clone(), None),
            Encoding::Gzip => (
                self.gzip.get_or_init(|| gzip(&self.body)).clone(),
                Some("gzip"),
            ),
            Encoding::Brotli => (
                self.br.get_or_init(|| brotli(&self.body)).clone(),
                Some("br"),
            ),
        }
    }

    /// The answer to a request: 304 when `If-None-Match` holds the ETag, else the body in
    /// the best encoding the client accepts (none for `HEAD`).
    fn respond(&self, if_none_match: Option<&str>, encoding: Encoding, head: bool) -> Response {
        if self.matches(if_none_match) {
            let mut res = StatusCode::NOT_MODIFIED.into_response();
            for name in [header::ETAG, header::CACHE_CONTROL, header::VARY] {
                if let Some(v) = self.headers.get(&name) {
                    res.headers_mut().insert(name, v.clone());
                }
            }
            return res;
        }
        let (bytes, content_encoding) = self.encoded(encoding);
        let mut headers = self.headers.clone();
        if let Some(ce) = content_encoding {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(ce));
        }
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
        let mut res = if head {
            Response::new(Body::empty())
        } else {
            Response::new(Body::from(bytes))
        };
        *res.headers_mut() = headers;
        res
    }
}

fn gzip(body: &[u8]) -> Bytes {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    let _ = enc.write_all(body);
    enc.finish().map(Bytes::from).unwrap_or_default()
}

fn brotli(body: &[u8]) -> Bytes {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        let _ = w.write_all(body);
    }
    Bytes::from(out)
}

/// The best encoding the client accepts: br, then gzip, then none (`q=0` refuses one).
fn negotiate(headers: &HeaderMap) -> Encoding {
    let Some(accept) = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
    else {
        return Encoding::Identity;
    };
    // `name` is listed without `q=0`.
    let accepts = |name: &str| {
        accept.split(',').any(|part| {
            let mut it = part.split(';').map(str::trim);
            it.next().is_some_and(|n| n.eq_ignore_ascii_case(name))
                && !it.any(|p| {
                    p.strip_prefix("q=")
                        .and_then(|q| q.trim().parse::<f32>().ok())
                        .is_some_and(|q| q <= 0.0)
                })
        })
    };
    if accepts("br") {
        Encoding::Brotli
    } else if accepts("gzip") {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

#[derive(Clone)]
struct Weigh;

impl quick_cache::Weighter<String, Arc<Entry>> for Weigh {
    fn weight(&self, key: &String, entry: &Arc<Entry>) -> u64 {
        entry.weight() + key.len() as u64
    }
}

/// The stored answers, bounded in bytes.
pub struct ResponseCache {
    entries: Option<quick_cache::sync::Cache<String, Arc<Entry>, Weigh>>,
    /// The dataset version the stored answers belong to.
    version: AtomicI32,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl ResponseCache {
    /// A cache of at most `bytes` bytes; 0 stores nothing.
    pub fn new(bytes: u64) -> Self {
        let entries = (bytes > 0).then(|| {
            // Room for the expected number of entries of a few KiB each.
            let items = usize::try_from(bytes / 4096).unwrap_or(usize::MAX).max(16);
            quick_cache::sync::Cache::with_weighter(items, bytes, Weigh)
        });
        Self {
            entries,
            version: AtomicI32::new(i32::MIN),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// Bytes held now.
    pub fn weight(&self) -> u64 {
        self.entries.as_ref().map_or(0, |c| c.weight())
    }

    /// Entries held now.
    pub fn len(&self) -> usize {
        self.entries.as_ref().map_or(0, |c| c.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// (hits, misses) since start.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }

    /// Empties the cache when `version` is not the one its answers belong to.
    fn follow(&self, version: i32) {
        if self.version.swap(version, Ordering::AcqRel) != version
            && let Some(c) = &self.entries
        {
            c.clear();
        }
    }

    fn get(&self, key: &str) -> Option<Arc<Entry>> {
        let e = self.entries.as_ref()?.get(key);
        let counter = if e.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        e
    }

    fn insert(&self, key: String, entry: Arc<Entry>) {
        if let Some(c) = &self.entries {
            c.insert(key, entry);
        }
    }
}

/// Answers that are never stored: live state, and exports (streamed, with ETags of their
/// own).
fn cacheable(path: &str) -> bool {
    !matches!(path, "/healthz" | "/readyz" | "/metrics") && !path.starts_with("/api/v1/export/")
}

/// The cache key of a request read from `version`.
fn key(req: &Request, version: i32) -> String {
    let tier = req
        .extensions()
        .get::<Caller>()
        .map_or(Tier::Free, |c| c.tier);
    let mut params: Vec<&str> = req
        .uri()
        .query()
        .unwrap_or_default()
        .split('&')
        .filter(|p| !p.is_empty())
        .collect();
    params.sort_unstable();
    let html = req.uri().path() == "/graphql" && super::handlers::wants_html(req.headers());
    format!(
        "{version}|{}|{}|{}?{}",
        tier.as_str(),
        u8::from(html),
        req.uri().path(),
        params.join("&")
    )
}

pub async fn middleware(State(s): State<AppState>, mut req: Request, next: Next) -> Response {
    let head = req.method() == Method::HEAD;
    if !(req.method() == Method::GET || head) || !cacheable(req.uri().path()) {
        return next.run(req).await;
    }
    let catalog = s.catalog.snapshot();
    let version = catalog.version();
    s.cache.follow(version);
    let key = key(&req, version);
    let if_none_match = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let encoding = negotiate(req.headers());
    if let Some(hit) = s.cache.get(&key) {
        return hit.respond(if_none_match.as_deref(), encoding, head);
    }
    let api = limits::is_counted(req.uri().path());
    // A HEAD is answered as its GET is, so both share one entry.
    *req.method_mut() = Method::GET;
    req.extensions_mut().insert(Snapshot(catalog));
    let res = next.run(req).await;
    if res.status() != StatusCode::OK {
        return res;
    }
    let no_store = res.extensions().get::<NoStore>().is_some();
    let (mut parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        tracing::error!("an answer exceeded the largest buffered body");
        return Problem::internal().into_response();
    };
    if api && !parts.headers.contains_key(header::CACHE_CONTROL) {
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
        s.cache.insert(key, entry.clone());
    }
    entry.respond(if_none_match.as_deref(), encoding, head)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(v: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_ENCODING, HeaderValue::from_static(v));
        h
    }

    #[test]
    fn encodings_are_negotiated() {
        assert_eq!(negotiate(&HeaderMap::new()), Encoding::Identity);
        assert_eq!(negotiate(&accept("gzip, deflate, br")), Encoding::Brotli);
        assert_eq!(negotiate(&accept("gzip")), Encoding::Gzip);
        assert_eq!(negotiate(&accept("br;q=0, gzip;q=0.5")), Encoding::Gzip);
        assert_eq!(negotiate(&accept("identity")), Encoding::Identity);
    }

    #[test]
    fn compressed_forms_decode_to_the_body() {
        use std::io::Read;
        let body = Bytes::from("{\"data\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]}".repeat(20));
        let e = Entry::new(HeaderMap::new(), body.clone());
        let (gz, ce) = e.encoded(Encoding::Gzip);
        assert_eq!(ce, Some("gzip"));
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, body);
        let (br, _) = e.encoded(Encoding::Brotli);
        let mut out = Vec::new();
        brotli::Decompressor::new(&br[..], 4096)
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, body);
        assert!(e.matches(Some(e.etag.to_str().unwrap())));
        assert!(!e.matches(Some("W/\"other\"")));
    }
}
