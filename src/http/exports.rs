//! Bulk export: `GET /api/v1/export/{table}.{csv,ndjson}` gives a whole table in one
//! counted request, so a Free-tier user can read every price without 26 paged requests.
//!
//! Unlike the other REST endpoints this one is not a GraphQL document: its columns are the
//! stored fields of the table (the same names as the snapshot and the REST fields), written
//! straight from the request's catalogue snapshot. The answer is streamed in chunks of
//! `CHUNK` rows, so memory stays bounded whatever the table's size; it is not stored in
//! the response cache. Its ETag is the dataset's digest with the table and format, so
//! `If-None-Match` is answered without writing anything. The attribution travels in the
//! `Link: </api/v1/sources>; rel="license"` header (a CSV has no place for it).

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::catalog::{Catalog, Row, TABLES};
use crate::error::Problem;
use crate::state::AppState;

/// Rows serialised per chunk of the stream.
const CHUNK: usize = 500;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Csv,
    Ndjson,
}

/// Columns stored as JSON text (offerings' tiers, variants, witnesses, …): NDJSON nests
/// them as JSON, not as strings of JSON; CSV keeps the text, having no nesting.
const JSON_COLUMNS: &[&str] = &[
    "tiers",
    "unit_prices",
    "variants",
    "upcoming",
    "regions",
    "sources",
];

/// One row as a JSON object, its JSON-text columns parsed in place.
fn ndjson_row<T: Serialize>(
    row: &T,
    json_columns: &[&str],
) -> serde_json::Result<serde_json::Value> {
    let mut v = serde_json::to_value(row)?;
    if let Some(o) = v.as_object_mut() {
        for c in json_columns {
            if let Some(slot) = o.get_mut(*c)
                && let Some(text) = slot.as_str()
                && let Ok(parsed) = serde_json::from_str::<serde_json::Value>(text)
            {
                *slot = parsed;
            }
        }
    }
    Ok(v)
}

/// Serialises rows `[start, start + CHUNK)`; the CSV header goes with the first chunk.
fn encode<T: Serialize>(
    rows: &[Row<T>],
    start: usize,
    format: Format,
    json_columns: &'static [&'static str],
) -> Bytes {
    let end = (start + CHUNK).min(rows.len());
    let mut out = Vec::new();
    match format {
        Format::Ndjson => {
            for r in &rows[start..end] {
                let written = ndjson_row(r.as_ref(), json_columns)
                    .and_then(|v| serde_json::to_writer(&mut out, &v));
                match written {
                    Ok(()) => out.push(b'\n'),
                    Err(e) => tracing::error!(error = %e, "a row could not be written as JSON"),
                }
            }
        }
        Format::Csv => {
            let mut w = csv::WriterBuilder::new()
                .has_headers(start == 0)
                .from_writer(&mut out);
            for r in &rows[start..end] {
                if let Err(e) = w.serialize(r.as_ref()) {
                    tracing::error!(error = %e, "a row could not be written as CSV");
                }
            }
            let _ = w.flush();
        }
    }
    Bytes::from(out)
}

/// The body: `rows` written chunk by chunk as the client reads. Fused: the compression
/// layer may poll a finished body once more, which must answer "done" again.
fn stream<T: Serialize + Send + Sync + 'static>(
    rows: Vec<Row<T>>,
    format: Format,
    json_columns: &'static [&'static str],
) -> Body {
    use futures_util::StreamExt;
    let chunks = futures_util::stream::unfold(0usize, move |start| {
        let next = (start < rows.len()).then(|| encode(&rows, start, format, json_columns));
        async move { next.map(|bytes| (Ok::<_, std::convert::Infallible>(bytes), start + CHUNK)) }
    });
    Body::from_stream(chunks.fuse())
}

fn body(catalog: &Catalog, table: &str, format: Format) -> Option<Body> {
    Some(match table {
        "models" => stream(catalog.all_models().to_vec(), format, &[]),
        "offerings" => stream(catalog.all_offerings().to_vec(), format, JSON_COLUMNS),
        "scores" => stream(catalog.all_scores().to_vec(), format, &[]),
        "price_history" => stream(catalog.all_history().to_vec(), format, &[]),
        "benchmarks" => stream(catalog.benchmarks().to_vec(), format, &[]),
        "providers" => stream(catalog.all_providers().to_vec(), format, &[]),
        "agents" => stream(catalog.agents().to_vec(), format, &[]),
        _ => return None,
    })
}

fn problem(file: &str) -> Response {
    let p = Problem::not_found(format!(
        "no export {file:?}: the tables are {} and the formats csv and ndjson (e.g. models.csv)",
        TABLES.join(", ")
    ));
    p.into_response()
}

pub async fn export(
    State(s): State<AppState>,
    Path(file): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Some((table, format)) = file.rsplit_once('.') else {
        return problem(&file);
    };
    let format = match format {
        "csv" => Format::Csv,
        "ndjson" => Format::Ndjson,
        _ => return problem(&file),
    };
    if !TABLES.contains(&table) {
        return problem(&file);
    }
    let catalog: Arc<Catalog> = s.catalog.snapshot();
    let digest = catalog.dataset.as_ref().map_or("0", |d| {
        &d.snapshot_sha256[..d.snapshot_sha256.len().min(16)]
    });
    let etag = format!(
        "W/\"{digest}-{table}-{}\"",
        if format == Format::Csv {
            "csv"
        } else {
            "ndjson"
        }
    );
    let etag_value =
        HeaderValue::from_str(&etag).unwrap_or_else(|_| HeaderValue::from_static("W/\"0\""));
    let cache_control = HeaderValue::from_static("public, max-age=60");
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|inm| inm.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    if matches {
        let mut res = (
            StatusCode::NOT_MODIFIED,
            [
                (header::ETAG, etag_value),
                (header::CACHE_CONTROL, cache_control),
            ],
        )
            .into_response();
        // Revalidating an export costs nothing, so it is not counted (`docs/rest.md`).
        res.extensions_mut().insert(super::cache::Unchanged);
        return res;
    }
    let Some(body) = body(&catalog, table, format) else {
        return problem(&file);
    };
    let content_type = match format {
        Format::Csv => "text/csv; charset=utf-8",
        Format::Ndjson => "application/x-ndjson",
    };
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    let mut res = Response::new(body);
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CONTENT_DISPOSITION, disposition);
    h.insert(header::ETAG, etag_value);
    h.insert(header::CACHE_CONTROL, cache_control);
    res
}
