//! One file over HTTP: a conditional GET (ETag / Last-Modified), tried again with back-off
//! after a network error or a 5xx, read under a size cap, and refused when it is an HTML
//! page in place of the data (an error page served with status 200).

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{ETAG, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED};
use serde::{Deserialize, Serialize};

/// What a server said identifies a file's version.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Validators {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

/// A fetched file.
#[derive(Debug)]
pub enum Fetched {
    /// The copy we hold is current (304).
    NotModified,
    /// A new body, with its validators.
    Body {
        bytes: Vec<u8>,
        validators: Validators,
    },
}

/// Redirects are followed only within the origin (scheme, host and port) of the first URL,
/// at most five of them: a mirror must not send the sync to fetch from anywhere else
/// (docs/security.md).
pub fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let same = attempt
            .previous()
            .first()
            .is_some_and(|first| first.origin() == attempt.url().origin());
        if same && attempt.previous().len() <= 5 {
            attempt.follow()
        } else {
            attempt.stop()
        }
    })
}

/// First wait before a retry; each retry waits four times longer.
const BACKOFF: Duration = Duration::from_millis(250);

/// Why a file could not be fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchError {
    pub reason: String,
    /// No connection could be made (no name resolution, no route, refused, or the connect
    /// timeout): the host, or the whole network, is unreachable, as on a machine offline.
    pub unreachable: bool,
}

/// Fetches `url`, conditionally on `known` when given. Each retry is logged at DEBUG only:
/// the failure that ends the tries is what the sync reports (docs/sync.md, "Fetching").
pub async fn fetch(
    client: &reqwest::Client,
    url: &str,
    known: Option<&Validators>,
    max_bytes: u64,
    retries: u32,
) -> Result<Fetched, FetchError> {
    let mut wait = BACKOFF;
    let mut attempt = 0;
    loop {
        match once(client, url, known, max_bytes).await {
            Err(Failure::Retryable(e)) if attempt < retries => {
                tracing::debug!(url, error = %e.reason, "fetch failed; trying again");
                tokio::time::sleep(wait).await;
                wait *= 4;
                attempt += 1;
            }
            Err(Failure::Retryable(e)) => return Err(e),
            Err(Failure::Final(reason)) => {
                return Err(FetchError {
                    reason,
                    unreachable: false,
                });
            }
            Ok(f) => return Ok(f),
        }
    }
}

enum Failure {
    /// A network error, a timeout or a 5xx: worth another try.
    Retryable(FetchError),
    /// Anything else.
    Final(String),
}

impl Failure {
    fn network(e: &reqwest::Error) -> Self {
        Self::Retryable(FetchError {
            reason: describe(e),
            unreachable: e.is_connect(),
        })
    }

    fn retry(reason: String) -> Self {
        Self::Retryable(FetchError {
            reason,
            unreachable: false,
        })
    }
}

async fn once(
    client: &reqwest::Client,
    url: &str,
    known: Option<&Validators>,
    max_bytes: u64,
) -> Result<Fetched, Failure> {
    let mut req = client.get(url);
    if let Some(v) = known {
        if let Some(e) = &v.etag {
            req = req.header(IF_NONE_MATCH, e);
        }
        if let Some(m) = &v.last_modified {
            req = req.header(IF_MODIFIED_SINCE, m);
        }
    }
    let mut res = req.send().await.map_err(|e| Failure::network(&e))?;
    let status = res.status();
    if status == StatusCode::NOT_MODIFIED && known.is_some() {
        return Ok(Fetched::NotModified);
    }
    if status.is_redirection() {
        return Err(Failure::Final(
            "redirected to another origin (redirects are followed only within the same origin)"
                .into(),
        ));
    }
    if status.is_server_error() {
        return Err(Failure::retry(format!("HTTP {status}")));
    }
    if !status.is_success() {
        return Err(Failure::Final(format!("HTTP {status}")));
    }
    if res.content_length().is_some_and(|n| n > max_bytes) {
        return Err(Failure::Final(format!(
            "larger than the {max_bytes}-byte cap"
        )));
    }
    let header = |name| {
        res.headers()
            .get(name)
            .and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok())
            .map(str::to_string)
    };
    let validators = Validators {
        etag: header(ETAG),
        last_modified: header(LAST_MODIFIED),
    };
    let mut bytes = Vec::new();
    while let Some(chunk) = res
        .chunk()
        .await
        .map_err(|e| Failure::retry(describe(&e)))?
    {
        if (bytes.len() + chunk.len()) as u64 > max_bytes {
            return Err(Failure::Final(format!(
                "larger than the {max_bytes}-byte cap"
            )));
        }
        bytes.extend_from_slice(&chunk);
    }
    if looks_like_html(&bytes) {
        return Err(Failure::Final(
            "an HTML page, not the data file (an error page served as 200?)".into(),
        ));
    }
    Ok(Fetched::Body { bytes, validators })
}

/// An HTML document: what a proxy or a host's error page sends in place of a data file.
fn looks_like_html(bytes: &[u8]) -> bool {
    let start: Vec<u8> = bytes
        .iter()
        .skip_while(|b| b.is_ascii_whitespace())
        .take(15)
        .map(u8::to_ascii_lowercase)
        .collect();
    start.starts_with(b"<!doctype html") || start.starts_with(b"<html")
}

/// A fetch error with its cause (reqwest's own message alone hides it).
fn describe(e: &reqwest::Error) -> String {
    let mut text = if e.is_connect() {
        "could not connect".to_string()
    } else if e.is_timeout() {
        "timed out".to_string()
    } else {
        e.to_string()
    };
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_error_pages_are_recognised_and_data_is_not() {
        assert!(looks_like_html(b"  <!DOCTYPE html><html>oops</html>"));
        assert!(looks_like_html(b"<html><body>502</body></html>"));
        assert!(!looks_like_html(b"[{\"id\": \"anthropic\"}]"));
        assert!(!looks_like_html(b"model,score\nx,1\n"));
    }
}
