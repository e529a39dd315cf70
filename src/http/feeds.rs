//! The changes feed as Atom 1.0 (RFC 4287): the `/api/v1/changes` document run like any
//! REST endpoint, its answer written as a feed, so both forms hold the same entries.

use std::collections::HashMap;
use std::fmt::Write;

use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::cache::Snapshot;
use crate::error::Problem;
use crate::limits::{Caller, Tier};
use crate::rest::{self, links, table};
use crate::state::AppState;

/// The JSON endpoint the feed mirrors.
/// The changes endpoint, whose parameters the feed takes.
pub const CHANGES: &str = "/api/v1/changes";
/// The feed's own path.
pub const CHANGES_FEED: &str = "/api/v1/changes.atom";

/// Text for XML element content and attribute values.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot carry at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

fn timestamp(date: &str) -> String {
    format!("{date}T00:00:00Z")
}

/// Writes the feed for one page of changes (`body` is the REST envelope).
pub fn render(body: &Value, base: &str, self_link: &str, next: Option<&str>) -> String {
    let items = body["data"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let updated = items
        .first()
        .and_then(|c| c["date"].as_str())
        .map_or_else(|| "1970-01-01T00:00:00Z".to_string(), timestamp);
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    x.push_str("<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
    let _ = writeln!(x, "  <id>urn:mds:changes</id>");
    x.push_str("  <title>Model Data Service: what changed</title>\n");
    x.push_str("  <subtitle>Price changes, model releases and new benchmark results, newest first</subtitle>\n");
    let _ = writeln!(x, "  <updated>{updated}</updated>");
    x.push_str("  <author><name>Model Data Service</name></author>\n");
    let _ = writeln!(x, "  <link rel=\"self\" href=\"{}\"/>", escape(self_link));
    let _ = writeln!(
        x,
        "  <link rel=\"alternate\" type=\"application/json\" href=\"{}\"/>",
        escape(&format!("{base}{CHANGES}"))
    );
    if let Some(n) = next {
        let _ = writeln!(x, "  <link rel=\"next\" href=\"{}\"/>", escape(n));
    }
    if let Some(a) = body["meta"]["attribution"].as_str() {
        let _ = writeln!(x, "  <rights>{}</rights>", escape(a));
    }
    for c in items {
        let id = c["id"].as_str().unwrap_or_default();
        let kind = c["type"].as_str().unwrap_or_default();
        let slug = c["model"]["slug"].as_str().unwrap_or_default();
        let link = match kind {
            "price" => format!("{base}/api/v1/pricing/history/{slug}"),
            _ => format!("{base}/api/v1/models/{slug}"),
        };
        x.push_str("  <entry>\n");
        let _ = writeln!(x, "    <id>urn:mds:{}</id>", escape(id));
        let _ = writeln!(
            x,
            "    <title>{}</title>",
            escape(c["summary"].as_str().unwrap_or_default())
        );
        let _ = writeln!(
            x,
            "    <updated>{}</updated>",
            timestamp(c["date"].as_str().unwrap_or("1970-01-01"))
        );
        let _ = writeln!(x, "    <category term=\"{}\"/>", escape(kind));
        let _ = writeln!(
            x,
            "    <link rel=\"alternate\" href=\"{}\"/>",
            escape(&link)
        );
        let _ = writeln!(
            x,
            "    <summary type=\"text\">{}</summary>",
            escape(c["summary"].as_str().unwrap_or_default())
        );
        x.push_str("  </entry>\n");
    }
    x.push_str("</feed>\n");
    x
}

pub async fn atom(
    State(s): State<AppState>,
    RawQuery(q): RawQuery,
    catalog: Option<axum::Extension<Snapshot>>,
    caller: Option<axum::Extension<Caller>>,
    origin: Option<axum::Extension<super::origin::Origin>>,
) -> Response {
    let base = super::handlers::base(&s, origin.as_ref().map(|o| &o.0));
    let Some(ep) = table::ENDPOINTS.iter().find(|e| e.path == CHANGES) else {
        return Problem::internal().into_response();
    };
    let raw_query = q.unwrap_or_default();
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(&raw_query).unwrap_or_default();
    let prepared = match rest::prepare(ep, &HashMap::new(), &pairs) {
        Ok(p) => p,
        Err(p) => return p.into_response(),
    };
    let free = caller.is_none_or(|c| c.0.tier == Tier::Free);
    let catalog = catalog.map_or_else(|| s.catalog.snapshot(), |c| c.0.0);
    let attribution = free.then(|| s.attribution(&catalog, &base));
    let body = match rest::execute(
        s.graphql.schema(),
        catalog,
        ep,
        prepared,
        attribution.as_ref(),
        None,
    )
    .await
    {
        Ok(b) => b.to_json(),
        Err(p) => return p.into_response(),
    };
    let base = base.as_str();
    let here = format!("{CHANGES}.atom");
    let page = body["meta"]["page"].as_u64().unwrap_or(1);
    let pages = body["meta"]["total_pages"].as_u64().unwrap_or(0);
    let self_link = links::url(base, &here, &pairs, page);
    let next = (page < pages).then(|| links::url(base, &here, &pairs, page + 1));
    let xml = render(&body, base, &self_link, next.as_deref());
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/atom+xml; charset=utf-8"),
        )],
        xml,
    )
        .into_response()
}
