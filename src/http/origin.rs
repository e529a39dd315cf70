//! The absolute base every URL the service writes starts with (`Link` headers, the Atom
//! feed, the attribution text): `MDS_PUBLIC_URL` when set, else the request's own — its
//! `Host`, and `X-Forwarded-Proto` / `X-Forwarded-Host` only when the peer is a trusted
//! proxy. The response cache keys on it, so a stored answer never carries another host's links.

use std::net::IpAddr;

use axum::http::{HeaderMap, header};

use crate::config::ServeConfig;

/// `scheme://host[:port]`, without a trailing slash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin(pub String);

/// Whether `host` is a plain `name[:port]` or `[v6][:port]`: nothing a header or a URL
/// could be smuggled through.
fn plain_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

impl Origin {
    pub fn of(config: &ServeConfig, headers: &HeaderMap, peer: Option<IpAddr>) -> Self {
        let configured = config.public_url.trim_end_matches('/');
        if !configured.is_empty() {
            return Self(configured.to_string());
        }
        let trusted = peer.is_some_and(|p| config.trusted_proxies.iter().any(|n| n.contains(&p)));
        let text = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .map(str::trim)
        };
        // A proxy chain appends, so the leftmost value is whatever the client sent: only
        // the rightmost one, written by the trusted proxy that reached us, is believed (as
        // for `X-Forwarded-For`; docs/security.md).
        let forwarded = |name: &str| {
            headers
                .get_all(name)
                .iter()
                .next_back()
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .map(str::trim)
        };
        let scheme = trusted
            .then(|| forwarded("x-forwarded-proto"))
            .flatten()
            .filter(|p| matches!(*p, "http" | "https"))
            .unwrap_or("http");
        let host = trusted
            .then(|| forwarded("x-forwarded-host"))
            .flatten()
            .filter(|h| plain_host(h))
            .or_else(|| text(header::HOST.as_str()).filter(|h| plain_host(h)))
            .map_or_else(|| config.bind.to_string(), str::to_string);
        Self(format!("{scheme}://{host}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn the_configured_url_wins_then_the_host() {
        let mut config = ServeConfig::default();
        let h = headers(&[("host", "api.example:8080")]);
        assert_eq!(Origin::of(&config, &h, None).0, "http://api.example:8080");
        config.public_url = "https://models.example/".into();
        assert_eq!(Origin::of(&config, &h, None).0, "https://models.example");
    }

    #[test]
    fn forwarded_headers_count_only_from_trusted_proxies() {
        let mut config = ServeConfig::default();
        let h = headers(&[
            ("host", "10.0.0.5:8080"),
            ("x-forwarded-proto", "https"),
            ("x-forwarded-host", "models.example"),
        ]);
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        assert_eq!(
            Origin::of(&config, &h, Some(proxy)).0,
            "http://10.0.0.5:8080"
        );
        config.trusted_proxies = vec!["10.0.0.0/8".parse().unwrap()];
        assert_eq!(
            Origin::of(&config, &h, Some(proxy)).0,
            "https://models.example"
        );
    }

    /// Finding 8 of the hardening issue: the leftmost (client-written) value won.
    #[test]
    fn forwarded_headers_take_the_rightmost_hop_and_never_beat_the_public_url() {
        let mut config = ServeConfig {
            trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()],
            ..ServeConfig::default()
        };
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let h = headers(&[
            ("host", "10.0.0.5:8080"),
            ("x-forwarded-proto", "http, https"),
            ("x-forwarded-host", "attacker.example, real.example"),
        ]);
        assert_eq!(
            Origin::of(&config, &h, Some(proxy)).0,
            "https://real.example"
        );
        config.public_url = "https://models.example".into();
        assert_eq!(
            Origin::of(&config, &h, Some(proxy)).0,
            "https://models.example"
        );
    }

    #[test]
    fn a_host_that_could_smuggle_anything_is_not_used() {
        let config = ServeConfig::default();
        for bad in [
            "evil.example/path",
            "a b",
            "x\"y",
            "evil.example>; rel=next",
        ] {
            let mut h = HeaderMap::new();
            h.insert("host", bad.parse().unwrap());
            assert_eq!(
                Origin::of(&config, &h, None).0,
                format!("http://{}", config.bind),
                "{bad}"
            );
        }
    }
}
