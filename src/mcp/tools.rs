//! The MCP tools (docs/mcp.md): each is a row naming the REST endpoint whose GraphQL
//! document it runs and whose parameters are its arguments, exactly as each REST endpoint
//! is a row of [`crate::rest::table`]. A tool's `structuredContent` is therefore the REST
//! answer to the same question, byte for byte in meaning, and its errors are REST's
//! problems (same `code`, same `param`).

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value, json};

use crate::catalog::Catalog;
use crate::error::Problem;
use crate::rest::{self, table};

/// One tool.
#[derive(Debug, Clone, Copy)]
pub struct ToolRow {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    /// The REST endpoint (its path template) whose document and parameters the tool uses.
    pub endpoint: &'static str,
    /// Where the rows of the Markdown table are in the answer's `data` (a JSON pointer; ""
    /// for `data` itself).
    pub rows: &'static str,
    /// The Markdown table's columns: (header, JSON pointer in a row).
    pub columns: &'static [(&'static str, &'static str)],
}

/// Every tool.
pub const TOOLS: &[ToolRow] = &[
    ToolRow {
        name: "find_models",
        title: "Find models",
        description: "List models matching filters (task, capability, tool calling, reasoning, modalities, context, open weights, provider, creator, price), sorted by score, price, name, date or capability, in general or within a domain (domain: coding, math, reasoning, agentic, knowledge, long-context, …). Each row says what its rank rests on (basis: self_reported for a maker's claims alone, which never lead) and when it retires. Answers one page (limit ≤ 100) with the total count.",
        endpoint: "/api/v1/models",
        rows: "",
        columns: &[
            ("model", "/slug"),
            ("capability", "/capability_index"),
            ("in domain", "/domain_rank/capability_index"),
            ("input $/1M", "/input_price"),
            ("output $/1M", "/output_price"),
            ("context", "/context_window"),
            ("basis", "/rank_basis"),
            ("retires", "/deprecation_date"),
        ],
    },
    ToolRow {
        name: "get_model",
        title: "Get a model",
        description: "One model in detail (scores, offerings at every provider, aliases) by any identifier: a slug, an alias, a provider's model id such as `openai/gpt-4o` or `us.anthropic.claude-3-5-sonnet-20241022-v2:0`, or a name. An unknown id is a not_found error listing the closest models.",
        endpoint: "/api/v1/models/lookup",
        rows: "/offerings",
        columns: &[
            ("provider", "/provider/slug"),
            ("kind", "/kind"),
            ("input $/1M", "/input_price"),
            ("output $/1M", "/output_price"),
            ("id", "/provider_model_id"),
        ],
    },
    ToolRow {
        name: "compare_models",
        title: "Compare models",
        description: "2 to 10 models side by side (any identifiers): capability, prices, context, and each benchmark's scores.",
        endpoint: "/api/v1/compare",
        rows: "/models",
        columns: &[
            ("model", "/slug"),
            ("capability", "/capability_index"),
            ("± se", "/capability_index_se"),
            ("basis", "/rank_basis"),
            ("input $/1M", "/input_price"),
            ("output $/1M", "/output_price"),
            ("context", "/context_window"),
            ("retires", "/deprecation_date"),
        ],
    },
    ToolRow {
        name: "estimate_cost",
        title: "Estimate cost",
        description: "What a request (or a workload: `requests` of that size) costs on 1 to 10 models at every provider, cheapest first: long-context tiers, cache-read prices and modes (batch, flex, priority, fast, off-peak) applied as providers bill them.",
        endpoint: "/api/v1/cost",
        rows: "",
        columns: &[
            ("model", "/model/slug"),
            ("cheapest at", "/offerings/0/provider/slug"),
            ("kind", "/offerings/0/kind"),
            ("total USD", "/offerings/0/total"),
            ("offerings", "/offerings/#"),
        ],
    },
    ToolRow {
        name: "recommend_models",
        title: "Recommend models",
        description: "Which model to use: for a task (or a benchmark domain such as coding or math), constraints (context, modalities, tool calling, open weights, providers to use or avoid) and a workload or budget, the models on the capability-versus-cost frontier (none has a listed model both more capable and cheaper), each with its capability (± standard error), its cost at the cheapest reputable offering, and why it is there. Models rated only on their makers' figures are left out unless provenance=all, and then marked.",
        endpoint: "/api/v1/recommend",
        rows: "/frontier",
        columns: &[
            ("model", "/model/slug"),
            ("capability", "/capability"),
            ("± se", "/capability_se"),
            ("cost USD", "/cost/total"),
            ("at", "/cost/provider/slug"),
            ("self-reported only", "/self_reported_only"),
        ],
    },
    ToolRow {
        name: "price_history",
        title: "Price history",
        description: "A model's price history at every provider, newest first (`slug`: any identifier of the model).",
        endpoint: "/api/v1/pricing/history/{slug}",
        rows: "/price_history",
        columns: &[
            ("provider", "/provider/slug"),
            ("input $/1M", "/input_price"),
            ("output $/1M", "/output_price"),
            ("from", "/effective_from"),
            ("to", "/effective_to"),
        ],
    },
    ToolRow {
        name: "recent_changes",
        title: "Recent changes",
        description: "What changed, newest first: price changes, new models, new benchmark results (`type`), since a date.",
        endpoint: "/api/v1/changes",
        rows: "",
        columns: &[
            ("date", "/date"),
            ("type", "/type"),
            ("summary", "/summary"),
        ],
    },
    ToolRow {
        name: "list_retirements",
        title: "Retirements",
        description: "Models whose retirement date is announced, soonest first, with each one's list price and its successor where the creator names one: what to migrate off and by when. Without `from` the list starts with models retired long ago: give `from` (YYYY-MM-DD, today's date) for those still to come; `until`, `creator` (a provider slug such as openai).",
        endpoint: "/api/v1/retirements",
        rows: "",
        columns: &[
            ("retires", "/deprecation_date"),
            ("model", "/slug"),
            ("creator", "/creator/slug"),
            ("input $/1M", "/input_price"),
            ("output $/1M", "/output_price"),
            ("successor", "/superseded_by/slug"),
        ],
    },
    ToolRow {
        name: "leaderboard",
        title: "Benchmark leaderboard",
        description: "A benchmark (`slug`, e.g. gpqa-diamond, swe-bench-verified, livebench) and its best models. Independent results only by default; provenance=all adds makers' own figures for models no third party measured, each row labelled.",
        endpoint: "/api/v1/benchmarks/{slug}",
        rows: "/top_models",
        columns: &[
            ("model", "/model/slug"),
            ("score", "/score"),
            ("provenance", "/provenance"),
            ("as of", "/as_of"),
        ],
    },
    ToolRow {
        name: "list_providers",
        title: "List providers",
        description: "Providers: model creators, clouds, routers, resellers, with how many models each offers and created.",
        endpoint: "/api/v1/providers",
        rows: "",
        columns: &[
            ("provider", "/slug"),
            ("name", "/name"),
            ("kind", "/kind"),
            ("offers", "/models_count"),
            ("created", "/created_count"),
        ],
    },
];

/// The REST endpoint of a tool.
pub fn endpoint(tool: &ToolRow) -> Option<&'static table::Endpoint> {
    table::ENDPOINTS.iter().find(|e| e.path == tool.endpoint)
}

pub fn find(name: &str) -> Option<&'static ToolRow> {
    TOOLS.iter().find(|t| t.name == name)
}

/// Whether a path parameter names a model (any identifier, resolved like /models/lookup).
fn names_model(ep: &table::Endpoint) -> bool {
    ep.noun == "model"
}

/// The JSON Schema of one argument: REST's (`rest::openapi`), except that lists are JSON
/// arrays rather than comma-separated text, a model may be named by any identifier, and
/// slugs match whatever their case. Its description is the parameter's one meaning
/// (`rest::meanings`).
fn arg_schema(ep: &table::Endpoint, p: &table::Param) -> Value {
    use table::Kind;
    let mut s = match p.kind {
        Kind::Slug if p.in_path && names_model(ep) => {
            json!({"type": "string", "minLength": 1, "maxLength": 200})
        }
        Kind::Slug => json!({"type": "string", "pattern": "^[a-zA-Z0-9][a-zA-Z0-9.-]*$"}),
        Kind::IdList(min) => {
            json!({"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 200},
            "minItems": min, "maxItems": 10, "uniqueItems": true})
        }
        Kind::SlugList(max) => {
            json!({"type": "array", "items": {"type": "string", "pattern": "^[a-zA-Z0-9][a-zA-Z0-9.-]*$"},
            "minItems": 1, "maxItems": max})
        }
        other => crate::rest::openapi::param_schema(other),
    };
    s["description"] = json!(crate::rest::meanings::describe(ep, p));
    s
}

/// A tool's `inputSchema`: its endpoint's parameters, by their REST names.
pub fn input_schema(tool: &ToolRow) -> Map<String, Value> {
    let mut props = Map::new();
    let mut required = Vec::new();
    if let Some(ep) = endpoint(tool) {
        for p in ep.params {
            props.insert(p.name.to_string(), arg_schema(ep, p));
            if p.required {
                required.push(p.name);
            }
        }
    }
    let mut s = Map::new();
    s.insert("type".into(), json!("object"));
    s.insert("properties".into(), Value::Object(props));
    s.insert("required".into(), json!(required));
    s.insert("additionalProperties".into(), json!(false));
    s
}

/// A tool's `outputSchema`: the REST answer's schema from the OpenAPI document, its
/// component references made local (`#/$defs/…`), so the same schema checks both faces.
pub fn output_schema(tool: &ToolRow) -> Map<String, Value> {
    static DOC: OnceLock<Value> = OnceLock::new();
    let doc = DOC.get_or_init(rest::openapi::document);
    let body = &doc["paths"][tool.endpoint]["get"]["responses"]["200"]["content"]["application/json"]
        ["schema"];
    let mut schema = localized(body);
    if let Value::Object(o) = &mut schema {
        o.insert("$defs".into(), localized(&doc["components"]["schemas"]));
        return o.clone();
    }
    Map::new()
}

/// `v` with every `#/components/schemas/X` reference written `#/$defs/X`.
fn localized(v: &Value) -> Value {
    match v {
        Value::String(s) => match s.strip_prefix("#/components/schemas/") {
            Some(name) => Value::String(format!("#/$defs/{name}")),
            None => v.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(localized).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, v)| (k.clone(), localized(v))).collect())
        }
        other => other.clone(),
    }
}

/// A REST request: its endpoint, path parameters and query pairs.
pub type RestRequest = (
    &'static table::Endpoint,
    HashMap<String, String>,
    Vec<(String, String)>,
);

/// A tool's arguments as the REST request they mean: (path parameters, query pairs).
/// Every fault is the 400 (or 404) REST gives, naming the argument.
pub fn request_of(
    tool: &ToolRow,
    catalog: &Catalog,
    args: &Map<String, Value>,
) -> Result<RestRequest, Problem> {
    let ep = endpoint(tool).ok_or_else(Problem::internal)?;
    let names: Vec<&str> = ep.params.iter().map(|p| p.name).collect();
    let given: Vec<(String, String)> = args.keys().map(|k| (k.clone(), String::new())).collect();
    if let Some(problem) = rest::unknown(&names, &given) {
        return Err(problem);
    }
    let mut path = HashMap::new();
    let mut query = Vec::new();
    for p in ep.params {
        let Some(v) = args.get(p.name).filter(|v| !v.is_null()) else {
            continue;
        };
        let raw = raw_value(p, v)?;
        if p.in_path {
            let slug = if names_model(ep) {
                match catalog.lookup(&raw) {
                    Some(m) => m.slug.clone(),
                    None => {
                        let mut problem =
                            Problem::not_found(format!("no {} with slug {raw:?}", ep.noun));
                        problem.closest = catalog
                            .closest_models(&raw)
                            .iter()
                            .map(|m| (m.slug.clone(), m.name.clone()))
                            .collect();
                        return Err(problem);
                    }
                }
            } else {
                raw.to_ascii_lowercase()
            };
            path.insert(p.name.to_string(), slug);
        } else {
            query.push((p.name.to_string(), raw));
        }
    }
    Ok((ep, path, query))
}

/// An argument's JSON value as the query-string text REST parses: lists joined by commas,
/// numbers and booleans written out. A value of the wrong JSON type names its argument.
fn raw_value(p: &table::Param, v: &Value) -> Result<String, Problem> {
    use table::Kind;
    let list = matches!(p.kind, Kind::IdList(_) | Kind::SlugList(_));
    let bad = |what: &str| Problem::invalid_parameter(p.name, format!("{} must be {what}", p.name));
    match v {
        Value::Array(items) if list => {
            let mut out = Vec::with_capacity(items.len());
            for item in items.iter().take(100) {
                match item.as_str() {
                    Some(s) if !s.contains(',') => out.push(s),
                    _ => return Err(bad("an array of identifiers (strings without commas)")),
                }
            }
            if items.len() > 100 {
                return Err(bad("an array of at most 10 identifiers"));
            }
            Ok(out.join(","))
        }
        _ if list => Err(bad("an array of strings")),
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(bad("a string, a number or a boolean, as its schema says")),
    }
}

/// The answer as a compact Markdown table (a few hundred tokens): a heading naming what was
/// asked and how much there is, then at most [`MAX_ROWS`] rows of the tool's columns.
pub fn markdown(tool: &ToolRow, answer: &Value) -> String {
    let data = &answer["data"];
    let rows_at = if tool.rows.is_empty() {
        Some(data)
    } else {
        data.pointer(tool.rows)
    };
    let rows: &[Value] = rows_at.and_then(Value::as_array).map_or(&[], Vec::as_slice);
    let mut out = format!("### {}", tool.title);
    if let Some(name) = data.get("name").and_then(Value::as_str) {
        let slug = data.get("slug").and_then(Value::as_str).unwrap_or_default();
        out.push_str(&format!(": {name} (`{slug}`)"));
    }
    out.push('\n');
    if let Some(total) = answer["meta"]["total"].as_u64() {
        out.push_str(&format!(
            "{total} in all; page {} of {}.\n",
            answer["meta"]["page"], answer["meta"]["total_pages"]
        ));
    }
    if let Some(basis) = data.get("capability_basis").and_then(Value::as_str) {
        out.push_str(&format!(
            "Capability: {basis}; {} models considered.\n",
            data["considered"]
        ));
    }
    if let Some(c) = data.get("capability_index").filter(|c| !c.is_null()) {
        out.push_str(&format!(
            "Capability index {c} ± {}; list price {} / {} USD per 1M tokens.\n",
            cell(&data["capability_index_se"]),
            cell(&data["input_price"]),
            cell(&data["output_price"])
        ));
    }
    if data.get("claims_only") == Some(&Value::Bool(true)) {
        out.push_str(
            "Only makers' own figures: no third party measured a model on this benchmark; \
             provenance=all lists the claims, each labelled.\n",
        );
    }
    out.push('\n');
    let headers: Vec<&str> = tool.columns.iter().map(|(h, _)| *h).collect();
    out.push_str(&format!("| {} |\n", headers.join(" | ")));
    out.push_str(&format!("|{}\n", "---|".repeat(headers.len())));
    for row in rows.iter().take(MAX_ROWS) {
        let cells: Vec<String> = tool
            .columns
            .iter()
            .map(|(_, at)| match at.strip_suffix("/#") {
                Some(list) => row
                    .pointer(list)
                    .and_then(Value::as_array)
                    .map_or_else(String::new, |a| a.len().to_string()),
                None => row.pointer(at).map_or_else(String::new, cell),
            })
            .collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    if rows.len() > MAX_ROWS {
        out.push_str(&format!(
            "\n… and {} more rows in the structured content.\n",
            rows.len() - MAX_ROWS
        ));
    }
    if tool.name == "recommend_models" {
        for r in rows.iter().take(MAX_ROWS) {
            // The reason whole: it is the answer's point.
            out.push_str(&format!(
                "\n- `{}`: {}",
                cell(&r["model"]["slug"]),
                r["reason"].as_str().unwrap_or_default()
            ));
        }
        out.push('\n');
    }
    out
}

/// Rows shown in the Markdown table; the structured content has them all.
const MAX_ROWS: usize = 15;

/// One table cell: text as is (pipes escaped, cut to 80 characters), null as `–`.
fn cell(v: &Value) -> String {
    match v {
        Value::Null => "–".into(),
        Value::String(s) => {
            let s: String = s.chars().take(80).collect();
            s.replace('|', "\\|").replace('\n', " ")
        }
        other => other.to_string(),
    }
}

/// The tool definitions, built once.
pub fn definitions() -> Arc<Vec<rmcp::model::Tool>> {
    static TOOL_LIST: OnceLock<Arc<Vec<rmcp::model::Tool>>> = OnceLock::new();
    TOOL_LIST
        .get_or_init(|| {
            Arc::new(
                TOOLS
                    .iter()
                    .map(|t| {
                        rmcp::model::Tool::new(t.name, t.description, Arc::new(input_schema(t)))
                            .with_title(t.title)
                            .with_raw_output_schema(Arc::new(output_schema(t)))
                            .with_annotations(
                                rmcp::model::ToolAnnotations::with_title(t.title)
                                    .read_only(true)
                                    .destructive(false)
                                    .idempotent(true)
                                    .open_world(false),
                            )
                    })
                    .collect(),
            )
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_runs_an_endpoint_of_the_table() {
        assert_eq!(TOOLS.len(), 10);
        for t in TOOLS {
            let ep = endpoint(t).unwrap_or_else(|| panic!("{}: no endpoint", t.name));
            let schema = input_schema(t);
            assert_eq!(
                schema["properties"].as_object().unwrap().len(),
                ep.params.len()
            );
            let out = output_schema(t);
            assert!(out.contains_key("$defs"), "{}", t.name);
            assert!(
                !out.to_owned()
                    .iter()
                    .any(|(_, v)| v.to_string().contains("#/components"))
            );
        }
    }

    use proptest::prelude::*;

    fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(|x| json!(x)),
            ".{0,30}".prop_map(Value::from),
            "[a-z0-9,.-]{0,40}".prop_map(Value::from),
        ];
        leaf.prop_recursive(2, 16, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..12).prop_map(Value::Array),
                proptest::collection::btree_map(".{0,6}", inner, 0..3)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Any arguments to any tool: never a panic; the REST request they mean, or a 400
        /// naming an argument, or a 404 for an identifier nothing answers to.
        #[test]
        fn any_arguments_are_a_request_or_a_named_refusal(
            tool in 0..TOOLS.len(),
            args in proptest::collection::vec(
                (
                    prop_oneof![
                        proptest::sample::select(vec![
                            "limit", "page", "sort", "models", "id", "slug", "providers",
                            "input_tokens", "tool_call", "max_cost", "type", "since", "x",
                        ]).prop_map(str::to_string),
                        ".{0,10}",
                    ],
                    any_json(),
                ),
                0..6,
            ),
        ) {
            let catalog = Catalog::build(crate::store::rows::Rows::default());
            let args: Map<String, Value> = args.into_iter().collect();
            match request_of(&TOOLS[tool], &catalog, &args) {
                Ok((ep, path, query)) => {
                    if let Err(e) = rest::prepare(ep, &path, &query) {
                        prop_assert!(e.param.is_some() || e.status.as_u16() == 404, "{}", e.detail);
                    }
                }
                Err(e) => {
                    let status = e.status.as_u16();
                    prop_assert!(status == 400 || status == 404, "{status}");
                    if status == 400 {
                        prop_assert!(e.param.is_some(), "{}", e.detail);
                    }
                }
            }
        }
    }

    #[test]
    fn arguments_of_the_wrong_type_name_themselves() {
        let p = table::ENDPOINTS
            .iter()
            .find(|e| e.path == "/api/v1/compare")
            .unwrap()
            .params[0];
        assert_eq!(raw_value(&p, &json!(["a", "b"])).unwrap(), "a,b");
        for bad in [json!("a,b"), json!(["a,b"]), json!([1]), json!({})] {
            assert_eq!(
                raw_value(&p, &bad).unwrap_err().param.as_deref(),
                Some("models")
            );
        }
    }
}
