//! One error shape everywhere: RFC 9457 problem+json on HTTP, `extensions.code` on GraphQL,
//! and the one table that maps GraphQL codes to HTTP statuses.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

tokio::task_local! {
    /// The id of the request being served, so any problem body can name it (kept as the
    /// header value it is sent as: most requests never need it as text).
    pub static REQUEST_ID: HeaderValue;
}

/// The current request id, or an empty string outside a request.
pub fn current_request_id() -> String {
    REQUEST_ID
        .try_with(|id| id.to_str().unwrap_or_default().to_string())
        .unwrap_or_default()
}

/// A problem answer (RFC 9457).
#[derive(Debug, Clone)]
pub struct Problem {
    pub status: StatusCode,
    /// Stable snake_case code (`invalid_parameter`, `not_found`, ...).
    pub code: &'static str,
    pub detail: String,
    /// The offending parameter, when one is to blame.
    pub param: Option<String>,
    /// Extra headers (`Allow`, `Retry-After`, ...).
    pub headers: Vec<(header::HeaderName, HeaderValue)>,
    /// For an unknown model: the closest known ones, as (slug, name).
    pub closest: Vec<(String, String)>,
}

impl Problem {
    pub fn new(status: StatusCode, code: &'static str, detail: impl Into<String>) -> Self {
        Self {
            status,
            code,
            detail: detail.into(),
            param: None,
            headers: Vec::new(),
            closest: Vec::new(),
        }
    }

    pub fn invalid_parameter(param: &str, detail: impl Into<String>) -> Self {
        let mut p = Self::new(StatusCode::BAD_REQUEST, "invalid_parameter", detail);
        p.param = Some(param.to_string());
        p
    }

    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", detail)
    }

    /// A 500 that says nothing of its cause; the cause is logged where it happened.
    pub fn internal() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "An internal error occurred; it has been logged.",
        )
    }

    pub fn with_header(mut self, name: header::HeaderName, value: HeaderValue) -> Self {
        self.headers.push((name, value));
        self
    }

    fn title(&self) -> &'static str {
        match self.code {
            "invalid_parameter" => "Invalid parameter",
            "not_found" => "Not found",
            "invalid_api_key" => "Invalid API key",
            "rate_limited" => "Rate limit exceeded",
            "method_not_allowed" => "Method not allowed",
            "unavailable" => "Service unavailable",
            "payload_too_large" => "Payload too large",
            "uri_too_long" => "Query string too long",
            "headers_too_large" => "Request headers too large",
            "request_timeout" => "Request timeout",
            "query_too_complex" => "Query too complex",
            _ => "Internal error",
        }
    }

    pub fn body(&self) -> serde_json::Value {
        let mut body = json!({
            "type": format!("/docs#problem-{}", self.code),
            "title": self.title(),
            "status": self.status.as_u16(),
            "detail": self.detail,
            "code": self.code,
            "request_id": current_request_id(),
        });
        if let (Some(param), Some(obj)) = (&self.param, body.as_object_mut()) {
            obj.insert("param".into(), json!(param));
        }
        if let (false, Some(obj)) = (self.closest.is_empty(), body.as_object_mut()) {
            let closest: Vec<serde_json::Value> = self
                .closest
                .iter()
                .map(|(slug, name)| json!({"slug": slug, "name": name}))
                .collect();
            obj.insert("closest".into(), json!(closest));
        }
        body
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let body = self.body().to_string();
        let mut res = (self.status, body).into_response();
        res.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        );
        for (k, v) in self.headers {
            res.headers_mut().insert(k, v);
        }
        res
    }
}

/// GraphQL `extensions.code` → (HTTP status, REST code). The one place this mapping lives.
pub fn status_for_graphql_code(code: &str) -> (StatusCode, &'static str) {
    match code {
        "BAD_USER_INPUT" | "GRAPHQL_PARSE_FAILED" | "GRAPHQL_VALIDATION_FAILED" => {
            (StatusCode::BAD_REQUEST, "invalid_parameter")
        }
        "QUERY_TOO_COMPLEX" => (StatusCode::BAD_REQUEST, "query_too_complex"),
        "NOT_FOUND" => (StatusCode::NOT_FOUND, "not_found"),
        "RATE_LIMITED" => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
        "UNAUTHENTICATED" => (StatusCode::UNAUTHORIZED, "invalid_api_key"),
        "UNAVAILABLE" => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        _ => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
    }
}
