//! Tool calls from the response cache, at the front service (docs/mcp.md): a `tools/call`
//! message is looked up by what it asks — its `params` (the tool and its arguments; serde_json
//! writes an object's keys sorted, so one question is one text), the protocol version, the
//! tier, the origin and the dataset version, as a GET's key is made (`http::cache`) — and a
//! hit is answered from memory with the message's own `id`, before the SDK is involved at
//! all. A miss is answered by the SDK and its result stored (tool errors never).

use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::error::Problem;
use crate::http::cache::Snapshot;
use crate::responses::Entry;
use crate::state::AppState;

/// A `tools/call` message the cache can answer.
pub struct Call {
    key: String,
    /// The message's id, as its JSON text.
    id: String,
}

/// Largest answer buffered to be stored.
const MAX_BODY: usize = 32 * 1024 * 1024;

/// The call in `body`, keyed; `None` for any other message. The request is given the
/// catalogue snapshot whose version is in the key, so a stored answer belongs to its key.
pub fn call_of(state: &AppState, req: &mut Request, body: &[u8]) -> Option<Call> {
    let message: Value = serde_json::from_slice(body).ok()?;
    let m = message.as_object()?;
    if m.get("method")?.as_str()? != "tools/call" {
        return None;
    }
    let id = m.get("id").filter(|id| id.is_string() || id.is_number())?;
    let params = m.get("params")?;
    let (catalog, asker) = crate::http::cache::asked_of(state, req);
    let protocol = req
        .headers()
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let key = format!("{asker}|mcp|{protocol}|{params}");
    req.extensions_mut().insert(Snapshot(catalog));
    // The answer is read to be stored, so it must come uncompressed; a hit is written per
    // message (its id), so neither form is compressed.
    req.headers_mut().remove(header::ACCEPT_ENCODING);
    Some(Call {
        key,
        id: id.to_string(),
    })
}

/// The stored result, as the answer to this message (its own id).
pub fn hit(state: &AppState, call: &Call) -> Option<Response> {
    let entry = state.cache.get(&call.key)?;
    let result = entry.body();
    let mut body = Vec::with_capacity(result.len() + call.id.len() + 40);
    body.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    body.extend_from_slice(call.id.as_bytes());
    body.extend_from_slice(b",\"result\":");
    body.extend_from_slice(result);
    body.push(b'}');
    Some(
        (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            body,
        )
            .into_response(),
    )
}

/// Stores the result of a missed call's answer (a JSON answer, not a tool error) and passes
/// the answer on.
pub async fn store(state: &AppState, call: Call, res: Response) -> Response {
    let json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if res.status() != StatusCode::OK || !json {
        return res;
    }
    let (parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        tracing::error!("an MCP answer exceeded the largest buffered body");
        return Problem::internal().into_response();
    };
    if let Ok(answer) = serde_json::from_slice::<Value>(&bytes)
        && let Some(result) = answer.get("result")
        && result.get("isError") != Some(&Value::Bool(true))
        && let Ok(stored) = serde_json::to_vec(result)
    {
        state.cache.insert(
            call.key,
            Arc::new(Entry::new(HeaderMap::new(), stored.into())),
        );
    }
    Response::from_parts(parts, Body::from(bytes))
}
