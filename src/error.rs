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

/// Declares [`ErrorCode`] from one table: each row is a variant with its HTTP status, its
/// REST `code`, its GraphQL `extensions.code` and its problem title (docs/rest.md, "Errors").
macro_rules! error_codes {
    ($($variant:ident => $status:ident, $rest:literal, $graphql:literal, $title:literal;)+) => {
        /// Every error the service answers with, and all it is called in each layer.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum ErrorCode {
            $($variant,)+
        }

        impl ErrorCode {
            /// Every code, in the table's order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)+];

            /// The status a problem with this code is answered with.
            pub fn status(self) -> StatusCode {
                match self {
                    $(ErrorCode::$variant => StatusCode::$status,)+
                }
            }

            /// The stable snake_case `code` of a problem+json body.
            pub fn rest(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $rest,)+
                }
            }

            /// The `extensions.code` of a GraphQL error.
            pub fn graphql(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $graphql,)+
                }
            }

            /// The problem's `title`.
            pub fn title(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $title,)+
                }
            }
        }
    };
}

error_codes! {
    // A parameter (argument) the service understood and refuses.
    InvalidParameter => BAD_REQUEST, "invalid_parameter", "BAD_USER_INPUT", "Invalid parameter";
    // A request that is not well formed before any parameter is read (a GraphQL body that is
    // not JSON, a path that is not UTF-8, a query string the cache cannot key).
    BadRequest => BAD_REQUEST, "invalid_parameter", "BAD_REQUEST", "Invalid parameter";
    QueryTooComplex => BAD_REQUEST, "query_too_complex", "QUERY_TOO_COMPLEX", "Query too complex";
    InvalidApiKey => UNAUTHORIZED, "invalid_api_key", "UNAUTHENTICATED", "Invalid API key";
    NotFound => NOT_FOUND, "not_found", "NOT_FOUND", "Not found";
    MethodNotAllowed => METHOD_NOT_ALLOWED, "method_not_allowed", "METHOD_NOT_ALLOWED", "Method not allowed";
    RequestTimeout => REQUEST_TIMEOUT, "request_timeout", "REQUEST_TIMEOUT", "Request timeout";
    PayloadTooLarge => PAYLOAD_TOO_LARGE, "payload_too_large", "PAYLOAD_TOO_LARGE", "Payload too large";
    UriTooLong => URI_TOO_LONG, "uri_too_long", "BAD_REQUEST", "Query string too long";
    RateLimited => TOO_MANY_REQUESTS, "rate_limited", "RATE_LIMITED", "Rate limit exceeded";
    HeadersTooLarge => REQUEST_HEADER_FIELDS_TOO_LARGE, "headers_too_large", "BAD_REQUEST", "Request headers too large";
    Internal => INTERNAL_SERVER_ERROR, "internal", "INTERNAL", "Internal error";
    Unavailable => SERVICE_UNAVAILABLE, "unavailable", "UNAVAILABLE", "Service unavailable";
}

impl ErrorCode {
    /// The code of a GraphQL error, from its `extensions.code`: the service's own codes and
    /// the engine's (a document that does not parse or validate is an invalid parameter).
    /// Anything else is internal.
    pub fn from_graphql(code: &str) -> Self {
        match code {
            "GRAPHQL_PARSE_FAILED" | "GRAPHQL_VALIDATION_FAILED" => ErrorCode::InvalidParameter,
            other => ErrorCode::ALL
                .iter()
                .copied()
                .find(|c| c.graphql() == other)
                .unwrap_or(ErrorCode::Internal),
        }
    }
}

/// A problem answer (RFC 9457).
#[derive(Debug, Clone)]
pub struct Problem {
    /// The code's own status, except where an answer the router made keeps its status
    /// ([`Problem::with_status`]).
    pub status: StatusCode,
    pub code: ErrorCode,
    pub detail: String,
    /// The offending parameter, when one is to blame.
    pub param: Option<String>,
    /// Extra headers (`Allow`, `Retry-After`, ...).
    pub headers: Vec<(header::HeaderName, HeaderValue)>,
    /// For an unknown model: the closest known ones, as (slug, name).
    pub closest: Vec<(String, String)>,
}

impl Problem {
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        Self {
            status: code.status(),
            code,
            detail: detail.into(),
            param: None,
            headers: Vec::new(),
            closest: Vec::new(),
        }
    }

    pub fn invalid_parameter(param: &str, detail: impl Into<String>) -> Self {
        let mut p = Self::new(ErrorCode::InvalidParameter, detail);
        p.param = Some(param.to_string());
        p
    }

    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, detail)
    }

    /// A 500 that says nothing of its cause; the cause is logged where it happened.
    pub fn internal() -> Self {
        Self::new(
            ErrorCode::Internal,
            "An internal error occurred; it has been logged.",
        )
    }

    /// The same problem answered with another status (a refusal the router made, such as
    /// a 415, keeps its own status under the nearest code).
    pub fn with_status(mut self, status: StatusCode) -> Self {
        self.status = status;
        self
    }

    pub fn with_header(mut self, name: header::HeaderName, value: HeaderValue) -> Self {
        self.headers.push((name, value));
        self
    }

    pub fn body(&self) -> serde_json::Value {
        let mut body = json!({
            "type": format!("/docs#problem-{}", self.code.rest()),
            "title": self.code.title(),
            "status": self.status.as_u16(),
            "detail": self.detail,
            "code": self.code.rest(),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/rest.md lists every REST code with its status, so the reference cannot miss one.
    #[test]
    fn every_code_is_documented_with_its_status() {
        let docs = include_str!("../docs/rest.md");
        for code in ErrorCode::ALL {
            let entry = format!("| `{}` | {} |", code.rest(), code.status().as_u16());
            assert!(docs.contains(&entry), "docs/rest.md does not list {entry}");
        }
    }

    /// A GraphQL error's code leads back to the code it was made from, so a REST answer made
    /// from a GraphQL error has the status the code says.
    #[test]
    fn graphql_codes_lead_back() {
        // A code that shares its GraphQL code with an earlier one (a 414 refused on
        // `/graphql` is a `BAD_REQUEST` too) leads back to the earlier one.
        for (i, code) in ErrorCode::ALL.iter().enumerate() {
            if ErrorCode::ALL[..i]
                .iter()
                .any(|c| c.graphql() == code.graphql())
            {
                continue;
            }
            let back = ErrorCode::from_graphql(code.graphql());
            assert_eq!(back.rest(), code.rest(), "{code:?}");
        }
        assert_eq!(
            ErrorCode::from_graphql("GRAPHQL_PARSE_FAILED"),
            ErrorCode::InvalidParameter
        );
        assert_eq!(
            ErrorCode::from_graphql("SOMETHING_ELSE"),
            ErrorCode::Internal
        );
    }

    /// Every code has a title of its own (a 431 once said "Internal error").
    #[test]
    fn titles_are_their_own() {
        for code in ErrorCode::ALL {
            assert!(
                *code == ErrorCode::Internal || code.title() != ErrorCode::Internal.title(),
                "{code:?}"
            );
        }
    }
}
