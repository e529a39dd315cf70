//! Tiers, API keys and hourly limits (`docs/limits.md`).
//!
//! Every request to `/api/v1` or `/graphql` counts once in a fixed window aligned to the
//! clock hour (UTC): Free callers by client IP, Authenticated callers by key. A present but
//! unknown or revoked key is 401, never a silent downgrade. A request answered 304 is
//! refunded: revalidating a cached answer costs nothing.

use std::net::IpAddr;

use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::error::{ErrorCode, Problem};
use crate::state::AppState;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    Free,
    Authenticated,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Free => "free",
            Self::Authenticated => "authenticated",
        }
    }

    /// The limiter's decision for this tier, as the metrics label it.
    pub fn decision(self, allowed: bool) -> &'static str {
        match (self, allowed) {
            (Self::Free, true) => "free_allowed",
            (Self::Free, false) => "free_limited",
            (Self::Authenticated, true) => "authenticated_allowed",
            (Self::Authenticated, false) => "authenticated_limited",
        }
    }
}

/// Who is calling, as decided by the limiter; handlers read it from request extensions.
#[derive(Debug, Clone)]
pub struct Caller {
    pub tier: Tier,
    /// Client IP (Free) or `key:<id>` (Authenticated).
    pub identity: String,
}

/// Whether a path is counted: the API itself, not health, metrics, docs or assets.
pub fn is_counted(path: &str) -> bool {
    (path == "/graphql" || path.starts_with("/api/v1/") || path == "/api/v1")
        && path != "/api/v1/openapi.json"
}

/// The key presented in `X-API-Key` or `Authorization: Bearer`, if any.
pub fn presented_key(headers: &HeaderMap) -> Option<String> {
    if let Some(v) = headers.get("x-api-key") {
        return Some(v.to_str().unwrap_or_default().trim().to_string());
    }
    let auth = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = auth.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
}

/// The client IP: the socket peer, or — when the peer is a trusted proxy — the rightmost
/// `X-Forwarded-For` hop that is not itself a trusted proxy.
pub fn client_ip(
    peer: Option<IpAddr>,
    headers: &HeaderMap,
    trusted: &[ipnet::IpNet],
) -> Option<IpAddr> {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|n| n.contains(ip));
    let peer = peer?;
    if !is_trusted(&peer) {
        return Some(peer);
    }
    let hops: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|h| h.trim().parse().ok())
        .collect();
    Some(
        hops.iter()
            .rev()
            .find(|ip| !is_trusted(ip))
            .or(hops.first())
            .copied()
            .unwrap_or(peer),
    )
}

fn header_value(v: impl ToString) -> HeaderValue {
    HeaderValue::from_str(&v.to_string()).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// An error answer in the shape of the endpoint: GraphQL errors on `/graphql`, problem+json elsewhere.
pub fn refuse(path: &str, problem: Problem) -> Response {
    if path == "/graphql" {
        // Refused before the document runs, no argument of it is to blame: the request
        // itself is bad (`BAD_REQUEST`, not `BAD_USER_INPUT`).
        let code = match problem.code {
            ErrorCode::InvalidParameter => ErrorCode::BadRequest,
            other => other,
        };
        let graphql_code = code.graphql();
        let body = serde_json::json!({
            "data": null,
            "errors": [{"message": problem.detail, "extensions": {"code": graphql_code, "request_id": crate::error::current_request_id()}}],
        });
        let mut res = (problem.status, axum::Json(body)).into_response();
        for (k, v) in problem.headers {
            res.headers_mut().insert(k, v);
        }
        res
    } else {
        problem.into_response()
    }
}

/// A request the limiter let through, and what its answer must carry.
pub struct Admitted {
    pub caller: Caller,
    bucket: String,
    headers: [(HeaderName, HeaderValue); 7],
}

/// Counts a request to a counted path (see [`is_counted`]) and decides: through, or a
/// 401 (unknown key), 429 (over the limit) or 503 (key store unreachable) to answer as is.
pub async fn admit(
    state: &AppState,
    path: &str,
    headers: &HeaderMap,
    peer: Option<IpAddr>,
) -> Result<Admitted, Response> {
    let resource = match path {
        "/graphql" => "graphql",
        "/mcp" => "mcp",
        _ => "rest",
    };
    let client = client_ip(peer, headers, &state.config.trusted_proxies).map_or_else(
        || "unknown".to_string(),
        |ip| client_key(ip, state.config.ipv6_prefix),
    );
    let (tier, identity, limit) = match presented_key(headers) {
        Some(key) => {
            let id = known_key(state, path, resource, &client, &key).await?;
            (
                Tier::Authenticated,
                format!("key:{id}"),
                state.config.authenticated_limit,
            )
        }
        None => (Tier::Free, client, state.config.free_limit),
    };
    let bucket = format!("{}:{identity}", tier.as_str());
    let count = state.counters.hit(&bucket).await;
    if count.used > limit {
        state.metrics.limiter_decision(tier.decision(false));
        return Err(rate_limited(path, tier, resource, limit, count));
    }
    state.metrics.limiter_decision(tier.decision(true));
    Ok(Admitted {
        caller: Caller { tier, identity },
        bucket,
        headers: rate_headers(tier, resource, limit, count),
    })
}

/// The id of the active key `key`, or the refusal to answer: 401 for an unknown or revoked
/// key, 429 when the caller's address is over the Free limit, 503 when the key store cannot
/// answer (`docs/limits.md`). A key not looked up recently is counted against
/// the caller's address *before* the database is asked (and refunded when it turns out
/// real), and a wrong key costs the address one Free-tier request: guessing keys is limited
/// like any anonymous traffic. A key whose characters cannot be a key (no valid checksum)
/// is refused without the database at all. A key whose checksum holds was issued by a
/// service, so it is looked up whatever the address has spent: a key created after the free
/// hour works at once. Keys issued before keys carried a checksum are refused past the
/// address's limit without a lookup, as all keys were.
async fn known_key(
    state: &AppState,
    path: &str,
    resource: &'static str,
    client: &str,
    key: &str,
) -> Result<i64, Response> {
    use crate::store::keys::{Recalled, Shape};
    let shape = crate::store::keys::shape(key);
    let digest = crate::store::keys::hash(key);
    let recalled = match shape {
        Shape::Invalid => Recalled::Unknown,
        Shape::Checked | Shape::Legacy => state.keys.recall(&digest),
    };
    if let Recalled::Active(id) = recalled {
        return Ok(id);
    }
    let bucket = format!("{}:{client}", Tier::Free.as_str());
    let count = state.counters.hit(&bucket).await;
    let over = count.used > state.config.free_limit;
    let limited = || {
        state.metrics.limiter_decision("free_limited");
        rate_limited(path, Tier::Free, resource, state.config.free_limit, count)
    };
    if over && (shape != Shape::Checked || recalled == Recalled::Unknown) {
        return Err(limited());
    }
    if recalled == Recalled::NotRecent {
        // The database's answer is awaited at most the request timeout.
        let wait = std::time::Duration::from_secs(state.config.request_timeout.max(1));
        let found = tokio::time::timeout(wait, state.keys.look_up(&state.db, key, &digest))
            .await
            .unwrap_or_else(|_| Err(sea_orm::DbErr::Custom("no answer in time".into())));
        match found {
            Ok(Some(id)) => {
                state.counters.refund(&bucket).await;
                return Ok(id);
            }
            Ok(None) if over => return Err(limited()),
            Ok(None) => {}
            Err(e) => {
                tracing::error!(error = %e, "API key lookup failed");
                let p = Problem::new(
                    ErrorCode::Unavailable,
                    "The key store is unavailable; retry shortly.",
                );
                return Err(refuse(path, p));
            }
        }
    }
    state.metrics.limiter_decision("invalid_key");
    let p = Problem::new(
        ErrorCode::InvalidApiKey,
        "The API key is unknown or revoked.",
    )
    .with_header(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    Err(refuse(path, p))
}

/// Completes an admitted request's answer: a 304 made from a stored answer, with nothing
/// executed (`from_store`), is refunded, as revalidating costs nothing; a 304 that needed
/// the work done (a cache miss, `If-None-Match: *` included) stays counted. Any other
/// answer carries the rate-limit headers, and Free answers the licence link.
pub async fn finish(
    state: &AppState,
    a: Admitted,
    mut res: Response,
    from_store: bool,
    base: &str,
) -> Response {
    if res.status() == StatusCode::NOT_MODIFIED && from_store {
        state.counters.refund(&a.bucket).await;
        return res;
    }
    let h = res.headers_mut();
    for (name, value) in a.headers {
        h.insert(name, value);
    }
    if a.caller.tier == Tier::Free {
        // Appended: list answers carry their paging links in `Link` too.
        h.append(
            header::LINK,
            header_value(format!("<{base}/api/v1/sources>; rel=\"license\"")),
        );
    }
    res
}

/// The 429 answer, with the rate-limit headers and `Retry-After`.
fn rate_limited(
    path: &str,
    tier: Tier,
    resource: &'static str,
    limit: u64,
    count: crate::counters::Count,
) -> Response {
    let mut p = Problem::new(
        ErrorCode::RateLimited,
        format!(
            "The {} tier allows {limit} requests per hour; the window resets in {} s.",
            tier.as_str(),
            count.reset_in
        ),
    )
    .with_header(header::RETRY_AFTER, header_value(count.reset_in));
    p.headers.extend(rate_headers(tier, resource, limit, count));
    refuse(path, p)
}

/// The identity a Free-tier client is counted under: its IPv4 address, or the network of
/// its IPv6 address (`prefix` bits, /64 by default: one subscriber's allocation, within
/// which addresses are free to choose). IPv4-mapped IPv6 addresses count as IPv4.
pub fn client_key(ip: IpAddr, prefix: u8) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let prefix = prefix.min(128);
                let net = ipnet::Ipv6Net::new(v6, prefix)
                    .map(|n| n.trunc())
                    .unwrap_or_else(|_| ipnet::Ipv6Net::from(v6));
                net.to_string()
            }
        },
    }
}

fn rate_headers(
    tier: Tier,
    resource: &'static str,
    limit: u64,
    count: crate::counters::Count,
) -> [(HeaderName, HeaderValue); 7] {
    let remaining = limit.saturating_sub(count.used);
    let name = HeaderName::from_static;
    [
        (name("x-ratelimit-limit"), HeaderValue::from(limit)),
        (name("x-ratelimit-remaining"), HeaderValue::from(remaining)),
        (name("x-ratelimit-used"), HeaderValue::from(count.used)),
        (name("x-ratelimit-reset"), HeaderValue::from(count.reset)),
        (
            name("x-ratelimit-resource"),
            HeaderValue::from_static(resource),
        ),
        (
            name("ratelimit-policy"),
            header_value(format!(
                "\"{}\";q={limit};w={}",
                tier.as_str(),
                crate::counters::WINDOW
            )),
        ),
        (
            name("ratelimit"),
            header_value(format!(
                "\"{}\";r={remaining};t={}",
                tier.as_str(),
                count.reset_in
            )),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_for_is_honoured_only_from_trusted_proxies() {
        let trusted: Vec<ipnet::IpNet> = vec!["10.0.0.0/8".parse().unwrap()];
        let mut h = HeaderMap::new();
        h.insert(
            "x-forwarded-for",
            HeaderValue::from_static("1.2.3.4, 5.6.7.8, 10.0.0.9"),
        );
        let untrusted_peer: IpAddr = "9.9.9.9".parse().unwrap();
        assert_eq!(
            client_ip(Some(untrusted_peer), &h, &trusted),
            Some(untrusted_peer)
        );
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        assert_eq!(
            client_ip(Some(proxy), &h, &trusted),
            Some("5.6.7.8".parse().unwrap())
        );
    }

    #[test]
    fn ipv6_clients_are_counted_per_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_key(a, 64), "2001:db8:1:2::/64");
        assert_eq!(client_key(a, 64), client_key(b, 64));
        assert_ne!(client_key(a, 64), client_key(other, 64));
        assert_eq!(client_key(a, 128), "2001:db8:1:2:aaaa::1/128");
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(client_key(mapped, 64), "192.0.2.7");
        assert_eq!(client_key("192.0.2.7".parse().unwrap(), 64), "192.0.2.7");
    }

    #[test]
    fn keys_come_from_either_header() {
        let mut h = HeaderMap::new();
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer mds_abc"),
        );
        assert_eq!(presented_key(&h).as_deref(), Some("mds_abc"));
        h.insert("x-api-key", HeaderValue::from_static("mds_x"));
        assert_eq!(presented_key(&h).as_deref(), Some("mds_x"));
        assert_eq!(presented_key(&HeaderMap::new()), None);
    }
}
