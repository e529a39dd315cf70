//! The REST compatibility layer: validates the parameters of a row of [`table::ENDPOINTS`],
//! runs its GraphQL document in-process, and wraps the result in the REST envelope.

pub mod links;
pub mod meanings;
pub mod openapi;
pub mod table;

use std::collections::HashMap;
use std::sync::OnceLock;

use async_graphql::parser::{parse_query, types::ExecutableDocument};
use async_graphql::{Value as ConstValue, Variables};
use serde_json::{Map, Value, json};

use crate::error::{ErrorCode, Problem};
use crate::graphql::{self, MdsSchema};
use table::{Endpoint, Kind, Param, Shape};

/// Longest accepted query string (`docs/rest.md`).
pub const MAX_QUERY_STRING: usize = 2048;

/// Any identifier `/models/lookup` takes: a slug, an alias, a provider's model id
/// (`openai/gpt-4o`, `us.anthropic.claude-3-5-sonnet-20241022-v2:0`, `claude-opus-4-1@20250805`)
/// or a display name — printable ASCII without the list's comma, at most 200 characters.
fn is_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 200 && s.bytes().all(|b| (b' '..=b'~').contains(&b) && b != b',')
}

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
        // The GraphQL enum value is the REST value in capitals (`first_party` is
        // `FIRST_PARTY`): both are read from one vocabulary (docs/ARCHITECTURE.md).
        Kind::Enum(values) => values
            .iter()
            .find(|r| r.eq_ignore_ascii_case(raw))
            .map(|r| json!(r.to_ascii_uppercase()))
            .ok_or_else(|| {
                bad(format!(
                    "{} must be one of {}, got {raw:?}",
                    p.name,
                    values.join(", ")
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
        Kind::SlugList(max) => {
            let lower = raw.to_ascii_lowercase();
            let slugs: Vec<&str> = lower
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect();
            if let Some(s) = slugs.iter().find(|s| !is_slug(s)) {
                return Err(bad(format!("{s:?} is not a slug")));
            }
            if slugs.is_empty() || slugs.len() > max {
                return Err(bad(format!(
                    "{} takes 1 to {max} comma-separated slugs",
                    p.name
                )));
            }
            Ok(json!(slugs))
        }
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
        Kind::IdList(min) => {
            // Identifiers match whatever their case.
            let lower = raw.to_ascii_lowercase();
            let ids: Vec<&str> = lower
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect();
            if let Some(s) = ids.iter().find(|s| !is_id(s)) {
                return Err(bad(format!("{s:?} is not a model identifier")));
            }
            let mut distinct = ids.clone();
            distinct.sort_unstable();
            distinct.dedup();
            if distinct.len() != ids.len() {
                return Err(bad(format!("{} must not repeat a model", p.name)));
            }
            if !(min..=10).contains(&ids.len()) {
                return Err(bad(format!(
                    "{} takes {min} to 10 comma-separated models, got {}",
                    p.name,
                    ids.len()
                )));
            }
            Ok(json!(ids))
        }
    }
}

/// The query parameters an answer at `path` depends on: its endpoint's, GraphQL's four,
/// none elsewhere. The response cache keys
/// answers by these alone, so a parameter that changes nothing never makes a new entry.
pub fn query_names(path: &str) -> &'static [&'static str] {
    const GRAPHQL: &[&str] = &["extensions", "operationName", "query", "variables"];
    if path == "/graphql" {
        return GRAPHQL;
    }
    endpoint_params(path).unwrap_or(&[])
}

/// The query parameters of the REST endpoint at `path`; `None` where no endpoint is.
pub fn endpoint_params(path: &str) -> Option<&'static [&'static str]> {
    static ROUTES: OnceLock<matchit::Router<Vec<&'static str>>> = OnceLock::new();
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
    routes.at(path).ok().map(|m| m.value.as_slice())
}

/// Other APIs' names for this API's parameters, as clients written for them send them:
/// `(their name, ours)`.
const OTHER_APIS_NAMES: &[(&str, &str)] = &[
    ("per_page", "limit"),
    ("page_size", "limit"),
    ("pagesize", "limit"),
    ("size", "limit"),
    ("count", "limit"),
    ("max_results", "limit"),
    ("sort_by", "sort"),
    ("order_by", "sort"),
    ("orderby", "sort"),
    ("sortby", "sort"),
    ("direction", "order"),
    ("dir", "order"),
    ("sort_order", "order"),
    ("query", "q"),
    ("search", "q"),
    ("vendor", "creator"),
    ("organization", "creator"),
    ("author", "creator"),
    ("model", "models"),
    ("ids", "models"),
];

/// The first query parameter an endpoint does not take, as its 400: named, with the closest
/// known name when one is near (a typo) or the name this API uses for what another API calls
/// it (`per_page` → `limit`), and every name the endpoint takes.
pub fn unknown(names: &[&str], query: &[(String, String)]) -> Option<Problem> {
    let (name, _) = query.iter().find(|(k, _)| !names.contains(&k.as_str()))?;
    let near = names
        .iter()
        .map(|n| (edit_distance(n, name), *n))
        .filter(|(d, n)| *d <= 2.max(n.len() / 4))
        .min();
    let lower = name.to_ascii_lowercase();
    let synonym = OTHER_APIS_NAMES
        .iter()
        .find(|(theirs, ours)| *theirs == lower && names.contains(ours))
        .map(|&(_, ours)| ours);
    let hint = match (synonym, near) {
        (Some(ours), _) => format!(" Did you mean {ours}? (This API's name for {name}.)"),
        (None, Some((_, n))) => format!(" Did you mean {n}?"),
        (None, None) => String::new(),
    };
    let allowed = if names.is_empty() {
        "It takes none".to_string()
    } else {
        format!("It takes {}", names.join(", "))
    };
    Some(Problem::invalid_parameter(
        name,
        format!("{name} is not a parameter of this endpoint.{hint} {allowed}."),
    ))
}

/// Levenshtein distance between two short names (bytes; names are ASCII).
fn edit_distance(a: &str, b: &str) -> usize {
    let b = b.as_bytes();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != b[j]))
                .min(row[j] + 1)
                .min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
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

/// The closest models to an unknown one, as a problem lists them.
fn closest_of(catalog: &crate::catalog::Catalog, asked: &str) -> Vec<(String, String)> {
    catalog
        .closest_models(asked)
        .iter()
        .map(|m| (m.slug.clone(), m.name.clone()))
        .collect()
}

/// Validates path and query parameters against the endpoint's row: an unknown query
/// parameter, or a known one given twice or with a bad value, is a 400 naming it.
pub fn prepare(
    ep: &Endpoint,
    path: &HashMap<String, String>,
    query: &[(String, String)],
) -> Result<Prepared, Problem> {
    let names: Vec<&str> = ep
        .params
        .iter()
        .filter(|p| !p.in_path)
        .map(|p| p.name)
        .collect();
    if let Some(problem) = unknown(&names, query) {
        return Err(problem);
    }
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
        "prices_as_of": catalog.as_of.prices,
        "benchmarks_as_of": catalog.as_of.benchmarks,
    });
    let closest_catalog = catalog.clone();
    let mut resp = schema.execute(graphql::with_catalog(req, catalog)).await;
    graphql::add_codes(&mut resp);
    if let Some(e) = resp.errors.first() {
        let ext = e.extensions.as_ref();
        let code = ext.and_then(|x| x.get("code")).and_then(|v| match v {
            async_graphql::Value::String(s) => Some(s.clone()),
            _ => None,
        });
        let code = ErrorCode::from_graphql(code.as_deref().unwrap_or_default());
        if code == ErrorCode::Internal {
            tracing::error!(endpoint = ep.path, error = %e.message, "REST document failed");
            return Err(Problem::internal());
        }
        let mut p = Problem::new(code, e.message.clone());
        p.param = ext.and_then(|x| x.get("param")).and_then(|v| match v {
            async_graphql::Value::String(s) => Some(s.clone()),
            _ => None,
        });
        if let Some(async_graphql::Value::List(list)) = ext.and_then(|x| x.get("closest")) {
            p.closest = list
                .iter()
                .filter_map(|m| match m {
                    async_graphql::Value::Object(o) => {
                        let text = |k: &str| match o.get(k) {
                            Some(async_graphql::Value::String(s)) => Some(s.clone()),
                            _ => None,
                        };
                        Some((text("slug")?, text("name")?))
                    }
                    _ => None,
                })
                .collect();
        }
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
                let asked = path_slug.unwrap_or_default();
                let mut p = Problem::not_found(format!("no {} with slug {asked:?}", ep.noun));
                p.closest = if ep.noun == "model" {
                    closest_of(&closest_catalog, asked)
                } else {
                    closest_catalog.closest_of(ep.noun, asked)
                };
                return Err(p);
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
            // Written as the answer's bytes are, vocabulary values in REST's spelling.
            "data": serde_json::to_value(graphql::sorted::Sorted(&self.data)).unwrap_or(Value::Null),
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
    use axum::http::StatusCode;

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
            ]),
        )
        .unwrap();
        assert_eq!(
            Value::Object(p.variables),
            json!({"sort": "PRICE", "first": 10, "offset": 20, "filter": {"openSource": true, "maxPrice": 2.5}})
        );
        // What the endpoint does not take is named, with the near miss.
        let e = prepare(
            ep("/api/v1/models"),
            &HashMap::new(),
            &query(&[("sort", "price"), ("max_prize", "3")]),
        )
        .unwrap_err();
        assert_eq!(e.param.as_deref(), Some("max_prize"));
        assert!(e.detail.contains("Did you mean max_price?"), "{}", e.detail);
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
