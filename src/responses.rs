//! Stored answers: the storage of the response cache (the layer that uses it is
//! `http::cache`). An entry keeps an answer's headers and bytes with its ETag, and makes its
//! gzip and brotli forms once, on first demand; the store is bounded in bytes, least recently
//! used entries going first, and follows the dataset version (emptied when it changes).

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// Headers added to a stored answer after the cache: seven rate-limit ones, the licence link,
/// three of CORS, the request id, and the encoding and length.
const ADDED_ON_THE_WAY_OUT: usize = 14;

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
pub enum Encoding {
    Identity,
    Gzip,
    Brotli,
}

impl Entry {
    pub fn new(mut headers: HeaderMap, body: Bytes) -> Self {
        let digest = xxhash_rust::xxh3::xxh3_128(&body);
        let etag = HeaderValue::from_str(&format!("W/\"{digest:032x}\""))
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

    /// The stored bytes (an MCP tool's stored result is read back from them).
    pub fn body(&self) -> &Bytes {
        &self.body
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
    pub fn respond(&self, if_none_match: Option<&str>, encoding: Encoding, head: bool) -> Response {
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
        // Room for what the way out adds (rate limits, licence link, CORS, request id), so
        // the map is not grown and rehashed on every answer.
        let mut headers = HeaderMap::with_capacity(self.headers.len() + ADDED_ON_THE_WAY_OUT);
        for (name, value) in &self.headers {
            headers.append(name.clone(), value.clone());
        }
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
pub fn negotiate(headers: &HeaderMap) -> Encoding {
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
    version: AtomicU64,
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
            version: AtomicU64::new(u64::MAX),
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
    pub fn follow(&self, version: u64) {
        // Every request calls this: a plain read in the common case, so the requests of
        // all cores do not write one shared cache line; the write only when an import
        // changed the version.
        if self.version.load(Ordering::Acquire) == version {
            return;
        }
        if self.version.swap(version, Ordering::AcqRel) != version
            && let Some(c) = &self.entries
        {
            c.clear();
        }
    }

    pub fn get(&self, key: &str) -> Option<Arc<Entry>> {
        let e = self.entries.as_ref()?.get(key);
        let counter = if e.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        e
    }

    pub fn insert(&self, key: String, entry: Arc<Entry>) {
        if let Some(c) = &self.entries {
            c.insert(key, entry);
        }
    }
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
