//! The REST compatibility layer: validates the parameters of a row of [`table::ENDPOINTS`],
//! runs its GraphQL document in-process, and wraps the result in the REST envelope.

pub mod links;
pub mod openapi;
pub mod table;

use std::collections::HashMap;
use std::sync::OnceLock;

use async_graphql::parser::{parse_query, types::ExecutableDocument};
use async_graphql::{Value as ConstValue, Variables};
use axum::http::StatusCode;
use serde_json::{Map, Value, json};

use crate::error::{Problem, status_for_graphql_code};
use crate::graphql::{self, MdsSchema};
use table::{Endpoint, Kind, Param, Shape};

/// Longest accepted query string (API.md §6).
pub const MAX_QUERY_STRING: usize = 2048;

fn is_slug(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-')
        && s.len() <= 200
}

/// Sets `value` at a dotted `path` of `vars`.
fn set_path(vars: &mut Map<String, Value>, path: &str, value: Value) {
    match path.split_once('.') {
        Some((head, rest)) => {
            let inner = vars
                .entry(head.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(m) = inner {
                set_path(m, rest, value);
            }
        }
        None => {
            vars.insert(path.to_string(), value);
        }
    }
}

/// The validated request: GraphQL variables plus the paging it asked for.
#[derive(Debug)]
pub struct Prepared {
    pub variables: Map<String, Value>,
    pub page: u64,
    pub per_page: u64,
}

fn parse_value(p: &Param, raw: &str) -> Result<Value, Problem> {
    let bad = |detail: String| Problem::invalid_parameter(p.name, detail);
    match p.kind {
        Kind::Page => match raw.parse::<u64>() {
            Ok(n) if (1..=1_000_000).contains(&n) => Ok(json!(n)),
            _ => Err(bad(format!(
                "page must be a whole number from 1, got {raw:?}"
            ))),
        },
        Kind::Limit => match raw.parse::<u64>() {
            Ok(n) if (1..=100).contains(&n) => Ok(json!(n)),
            _ => Err(bad(format!(
                "{} must be a whole number from 1 to 100, got {raw:?}",
                p.name
            ))),
        },
        // Enum values, booleans and slugs are matched whatever their case (`creator=OpenAI`,
        // `task=Chat`): nothing is told apart by case alone.
        Kind::Enum(values) => values
            .iter()
            .find(|(r, _)| r.eq_ignore_ascii_case(raw))
            .map(|(_, g)| json!(g))
            .ok_or_else(|| {
                let allowed: Vec<&str> = values.iter().map(|(r, _)| *r).collect();
                bad(format!(
                    "{} must be one of {}, got {raw:?}",
                    p.name,
                    allowed.join(", ")
                ))
            }),
        Kind::Bool => match raw.to_ascii_lowercase().as_str() {
            "true" => Ok(json!(true)),
            "false" => Ok(json!(false)),
            _ => Err(bad(format!(
                "{} must be true or false, got {raw:?}",
                p.name
            ))),
        },
        Kind::NonNegative => match raw.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => Ok(json!(x)),
            _ => Err(bad(format!(
                "{} must be a finite number ≥ 0, got {raw:?}",
                p.name
            ))),
        },
        Kind::Text => {
            let t = raw.trim();
            if t.is_empty() {
                Err(bad(format!("{} must not be empty", p.name)))
            } else if t.chars().count() > 100 {
                Err(bad(format!("{} must be at most 100 characters", p.name)))
            } else {
                Ok(json!(t))
            }
        }
        Kind::Slug => {
            let slug = raw.to_ascii_lowercase();
            if is_slug(&slug) {
                Ok(json!(slug))
            } else {
                Err(bad(format!(
                    "{} must be a slug ([a-z0-9][a-z0-9.-]*), got {raw:?}",
                    p.name
                )))
            }
        }
        Kind::Tokens => match raw.parse::<u64>() {
            Ok(n) if n <= crate::catalog::costs::MAX_TOKENS => Ok(json!(n)),
            _ => Err(bad(format!(
                "{} must be a whole number from 0 to {}, got {raw:?}",
                p.name,
                crate::catalog::costs::MAX_TOKENS
            ))),
        },
        Kind::Month => {
            let ok = raw.len() == 7
                && raw.bytes().take(4).all(|b| b.is_ascii_digit())
                && chrono::NaiveDate::parse_from_str(&format!("{raw}-01"), "%Y-%m-%d").is_ok();
            if ok {
                Ok(json!(raw))
            } else {
                Err(bad(format!(
                    "{} must be a month YYYY-MM, got {raw:?}",
                    p.name
                )))
            }
        }
        Kind::Date => {
            if raw.len() == 10
                && raw.bytes().take(4).all(|b| b.is_ascii_digit())
                && chrono::NaiveDate::parse_from_str(raw, "%Y-%m-%d").is_ok()
            {
                Ok(json!(raw))
            } else {
                Err(bad(format!(
                    "{} must be a date YYYY-MM-DD, got {raw:?}",
                    p.name
                )))
            }
        }
        Kind::SlugList(min) => {
            let lower = raw.to_ascii_lowercase();
            let slugs: Vec<&str> = lower
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect();
            if let Some(s) = slugs.iter().find(|s| !is_slug(s)) {
                return Err(bad(format!("{s:?} is not a slug")));
            }
            let mut distinct = slugs.clone();
            distinct.sort_unstable();
            distinct.dedup();
            if distinct.len() != slugs.len() {
                return Err(bad(format!("{} must not repeat a slug", p.name)));
            }
            if !(min..=10).contains(&slugs.len()) {
                return Err(bad(format!(
                    "{} takes {min} to 10 comma-separated slugs, got {}",
                    p.name,
                    slugs.len()
                )));
            }
            Ok(json!(slugs))
        }
    }
}

/// The query parameters an answer at `path` depends on: its endpoint's, GraphQL's four,
/// none elsewhere. The response cache keys
/// answers by these alone, so a parameter that changes nothing never makes a new entry.
pub fn query_names(path: &str) -> &'static [&'static str] {
    static ROUTES: OnceLock<matchit::Router<Vec<&'static str>>> = OnceLock::new();
    const GRAPHQL: &[&str] = &["extensions", "operationName", "query", "variables"];
    if path == "/graphql" {
        return GRAPHQL;
    }
    let routes = ROUTES.get_or_init(|| {
        let mut r = matchit::Router::new();
        for ep in table::ENDPOINTS {
            let names: Vec<&'static str> = ep
                .params
                .iter()
                .filter(|p| !p.in_path)
                .map(|p| p.name)
                .collect();
            let _ = r.insert(ep.path, names);
        }
        r
    });
    routes.at(path).map_or(&[], |m| m.value.as_slice())
}

/// The first known query parameter given more than once: a request must mean one thing.
pub fn repeated<'a>(names: &[&str], query: &'a [(String, String)]) -> Option<&'a str> {
    query.iter().enumerate().find_map(|(i, (k, _))| {
        (names.contains(&k.as_str()) && query[..i].iter().any(|(j, _)| j == k))
            .then_some(k.as_str())
    })
}

/// The 400 of a parameter given twice.
pub fn repeated_problem(name: &str) -> Problem {
    Problem::invalid_parameter(name, format!("{name} is given more than once"))
}

/// Validates path and query parameters against the endpoint's row. Unknown query
/// parameters are ignored; a known one with a bad value is a 400 naming it.
pub fn prepare(
    ep: &Endpoint,
    path: &HashMap<String, String>,
    query: &[(String, String)],
) -> Result<Prepared, Problem> {
    let names: Vec<&str> = ep.params.iter().map(|p| p.name).collect();
    if let Some(name) = repeated(&names, query) {
        return Err(repeated_problem(name));
    }
    let mut variables = Map::new();
    let mut page = 1u64;
    let mut per_page = 20u64;
    for p in ep.params {
        let raw = if p.in_path {
            path.get(p.name).map(String::as_str)
        } else {
            query
                .iter()
                .find(|(k, _)| k == p.name)
                .map(|(_, v)| v.as_str())
        };
        let Some(raw) = raw else {
            if p.required {
                return Err(Problem::invalid_parameter(
                    p.name,
                    format!("{} is required", p.name),
                ));
            }
            continue;
        };
        if p.in_path && !is_slug(raw) {
            return Err(Problem::not_found(format!(
                "no {} with slug {raw:?}",
                ep.noun
            )));
        }
        let value = parse_value(p, raw)?;
        match p.kind {
            Kind::Page => page = value.as_u64().unwrap_or(1),
            Kind::Limit if p.var == "first" => per_page = value.as_u64().unwrap_or(20),
            _ => {}
        }
        if !p.var.is_empty() {
            set_path(&mut variables, p.var, value);
        }
    }
    if ep.params.iter().any(|p| matches!(p.kind, Kind::Page)) {
        set_path(&mut variables, "first", json!(per_page));
        set_path(&mut variables, "offset", json!((page - 1) * per_page));
    }
    Ok(Prepared {
        variables,
        page,
        per_page,
    })
}

/// The parsed form of one of the table's documents, parsed on first use.
fn parsed(document: &'static str) -> Option<&'static ExecutableDocument> {
    static PARSED: OnceLock<HashMap<&'static str, ExecutableDocument>> = OnceLock::new();
    PARSED
        .get_or_init(|| {
            table::ENDPOINTS
                .iter()
                .filter_map(|ep| Some((ep.document, parse_query(ep.document).ok()?)))
                .collect()
        })
        .get(document)
}

/// Runs the endpoint's document and builds the envelope. `attribution` is added to `meta`
/// for Free-tier requests.
pub async fn execute(
    schema: &MdsSchema,
    catalog: std::sync::Arc<crate::catalog::Catalog>,
    ep: &Endpoint,
    prepared: Prepared,
    attribution: Option<&Value>,
    path_slug: Option<&str>,
) -> Result<Envelope, Problem> {
    let mut req = async_graphql::Request::new(ep.document)
        .variables(Variables::from_json(Value::Object(prepared.variables)));
    // The table's documents are parsed once, not per request. They are the service's own,
    // so they skip the admission clients' documents pass; a unit test holds each to the
    // same bounds.
    if let Some(doc) = parsed(ep.document) {
        req.set_parsed_query(doc.clone());
    }
    // Every answer says which dataset it was read from and how recent that is.
    let dataset = json!({
        "version": catalog.version(),
        "date": catalog.dataset.as_ref().map_or("", |d| d.built_at.as_str()),
    });
    let mut resp = schema.execute(graphql::with_catalog(req, catalog)).await;
    graphql::add_codes(&mut resp);
    if let Some(e) = resp.errors.first() {
        let ext = e.extensions.as_ref();
        let code = ext.and_then(|x| x.get("code")).and_then(|v| match v {
            async_graphql::Value::String(s) => Some(s.clone()),
            _ => None,
        });
        let (status, rest_code) = status_for_graphql_code(code.as_deref().unwrap_or("INTERNAL"));
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(endpoint = ep.path, error = %e.message, "REST document failed");
            return Err(Problem::internal());
        }
        let mut p = Problem::new(status, rest_code, e.message.clone());
        p.param = ext.and_then(|x| x.get("param")).and_then(|v| match v {
            async_graphql::Value::String(s) => Some(s.clone()),
            _ => None,
        });
        return Err(p);
    }
    let mut result = match resp.data {
        ConstValue::Object(mut data) => data.shift_remove("result").unwrap_or(ConstValue::Null),
        _ => ConstValue::Null,
    };
    let mut meta = Map::new();
    let data = match ep.shape {
        Shape::List => {
            let (total, items) = match &mut result {
                ConstValue::Object(r) => (
                    match r.get("total") {
                        Some(ConstValue::Number(n)) => n.as_u64().unwrap_or(0),
                        _ => 0,
                    },
                    r.shift_remove("items"),
                ),
                _ => (0, None),
            };
            meta.insert("total".into(), json!(total));
            meta.insert("page".into(), json!(prepared.page));
            meta.insert("per_page".into(), json!(prepared.per_page));
            meta.insert(
                "total_pages".into(),
                json!(total.div_ceil(prepared.per_page.max(1))),
            );
            items.unwrap_or_else(|| ConstValue::List(Vec::new()))
        }
        Shape::Item => {
            if result == ConstValue::Null {
                return Err(Problem::not_found(format!(
                    "no {} with slug {:?}",
                    ep.noun,
                    path_slug.unwrap_or_default()
                )));
            }
            result
        }
    };
    if let Some(a) = attribution {
        meta.insert("attribution".into(), a.clone());
    }
    meta.insert("dataset".into(), dataset);
    Ok(Envelope { data, meta })
}

/// A REST answer: `{"data": …, "meta": {…}}`, written with sorted keys straight from the
/// engine's values (no intermediate JSON tree).
#[derive(Debug)]
pub struct Envelope {
    pub data: ConstValue,
    pub meta: Map<String, Value>,
}

impl Envelope {
    /// The answer as a JSON value, for callers that read it rather than send it.
    pub fn to_json(&self) -> Value {
        json!({
            "data": self.data.clone().into_json().unwrap_or(Value::Null),
            "meta": self.meta,
        })
    }
}

impl serde::Serialize for Envelope {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("data", &graphql::sorted::Sorted(&self.data))?;
        m.serialize_entry("meta", &self.meta)?;
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_document_parses_and_keeps_the_guards_bounds() {
        for e in table::ENDPOINTS {
            let doc = parsed(e.document).unwrap_or_else(|| panic!("{} does not parse", e.path));
            assert_eq!(graphql::guards::check(doc), Ok(()), "{}", e.path);
            assert!(
                graphql::guards::nesting(e.document, graphql::MAX_NESTING) <= graphql::MAX_NESTING
            );
        }
    }

    fn ep(path: &str) -> &'static Endpoint {
        table::ENDPOINTS.iter().find(|e| e.path == path).unwrap()
    }

    fn query(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn model_list_parameters_become_variables() {
        let p = prepare(
            ep("/api/v1/models"),
            &HashMap::new(),
            &query(&[
                ("sort", "price"),
                ("page", "3"),
                ("limit", "10"),
                ("open_source", "true"),
                ("max_price", "2.5"),
                ("x", "y"),
            ]),
        )
        .unwrap();
        assert_eq!(
            Value::Object(p.variables),
            json!({"sort": "PRICE", "first": 10, "offset": 20, "filter": {"openSource": true, "maxPrice": 2.5}})
        );
    }

    #[test]
    fn bad_values_name_their_parameter() {
        let cases = [
            ("sort", "cost"),
            ("order", "up"),
            ("limit", "0"),
            ("limit", "101"),
            ("page", "0"),
            ("page", "abc"),
            ("min_score", "NaN"),
            ("max_price", "-1"),
            ("open_source", "maybe"),
            ("category", "video"),
        ];
        for (k, v) in cases {
            let e = prepare(ep("/api/v1/models"), &HashMap::new(), &query(&[(k, v)])).unwrap_err();
            assert_eq!(e.status, StatusCode::BAD_REQUEST, "{k}={v}");
            assert_eq!(e.param.as_deref(), Some(k));
        }
        let e = prepare(
            ep("/api/v1/models/search"),
            &HashMap::new(),
            &query(&[("q", " ")]),
        )
        .unwrap_err();
        assert_eq!(e.param.as_deref(), Some("q"));
        for models in ["a", "a,b,c,d,e,f,g,h,i,j,k", "a,a"] {
            let e = prepare(
                ep("/api/v1/compare"),
                &HashMap::new(),
                &query(&[("models", models)]),
            )
            .unwrap_err();
            assert_eq!(e.param.as_deref(), Some("models"), "{models}");
        }
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Any query string on any endpoint: never a panic; either variables, or a 400
        /// naming the parameter, or a 404 for a path slug that cannot exist.
        #[test]
        fn any_parameters_are_accepted_or_named(
            endpoint in 0..table::ENDPOINTS.len(),
            pairs in proptest::collection::vec(
                (
                    prop_oneof![
                        proptest::sample::select(vec![
                            "sort", "order", "page", "limit", "provider", "creator", "open_source",
                            "min_score", "max_price", "category", "q", "models", "slug", "x",
                        ]).prop_map(str::to_string),
                        ".{0,12}",
                    ],
                    prop_oneof![
                        ".{0,40}",
                        "[0-9eE.+-]{0,30}",
                        "[a-z0-9,.-]{0,60}",
                    ],
                ),
                0..8,
            ),
            slug in ".{0,20}",
        ) {
            let ep = &table::ENDPOINTS[endpoint];
            let path: HashMap<String, String> = [("slug".to_string(), slug)].into_iter().collect();
            match prepare(ep, &path, pairs.as_slice()) {
                Ok(p) => {
                    prop_assert!(p.page >= 1 && (1..=100).contains(&p.per_page));
                }
                Err(e) => {
                    prop_assert!(
                        e.status == StatusCode::BAD_REQUEST || e.status == StatusCode::NOT_FOUND,
                        "{}", e.status
                    );
                    if e.status == StatusCode::BAD_REQUEST {
                        prop_assert!(e.param.is_some(), "{}", e.detail);
                    }
                }
            }
        }
    }
}
