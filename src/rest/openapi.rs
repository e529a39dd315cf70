//! The OpenAPI 3.1 description of the REST API, generated from the endpoint table so it
//! cannot drift from what the service does.

use entity::vocab::{
    Availability, Category, DateBasis, OfferingKind, PriceBasis, Provenance, ProviderKind,
    RankBasis, SourceStatus, Task,
};
use serde_json::{Map, Value, json};

use super::table::{ENDPOINTS, Kind, Shape};

pub(crate) fn param_schema(kind: Kind) -> Value {
    match kind {
        Kind::Page => json!({"type": "integer", "minimum": 1, "default": 1}),
        Kind::Limit => json!({"type": "integer", "minimum": 1, "maximum": 100, "default": 20}),
        Kind::Enum(values) => json!({"type": "string", "enum": values}),
        Kind::Bool => json!({"type": "boolean"}),
        Kind::NonNegative => json!({"type": "number", "minimum": 0}),
        Kind::Text => json!({"type": "string", "minLength": 1, "maxLength": 100}),
        Kind::Slug => json!({"type": "string", "pattern": "^[a-z0-9][a-z0-9.-]*$"}),
        Kind::IdList(min) => {
            json!({"type": "string", "description": format!("{min} to 10 distinct comma-separated model identifiers"),
                "pattern": format!("^[ -+\\--~]{{1,200}}(,[ -+\\--~]{{1,200}}){{{},9}}$", min - 1)})
        }
        Kind::Tokens => {
            json!({"type": "integer", "minimum": 0, "maximum": crate::catalog::costs::MAX_TOKENS})
        }
        Kind::SlugList(max) => {
            json!({"type": "string", "description": format!("1 to {max} comma-separated slugs"),
                "pattern": "^[a-z0-9][a-z0-9.-]*(,[a-z0-9][a-z0-9.-]*)*$"})
        }
        Kind::Month => json!({"type": "string", "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])$"}),
        Kind::Date => json!({"type": "string", "format": "date"}),
    }
}

fn nullable(t: &str) -> Value {
    json!({"type": [t, "null"]})
}

/// A `YYYY-MM-DD` date, or null.
fn nullable_date() -> Value {
    json!({"type": ["string", "null"], "format": "date"})
}

/// A `YYYY-MM-DD` date, a `YYYY-MM` month where only the month is known, or null: a score's
/// `as_of` is never before its model's release, which some sources date to the month.
fn nullable_day_or_month() -> Value {
    json!({"type": ["string", "null"], "description": "YYYY-MM-DD, or YYYY-MM where only the month is known", "pattern": "^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$"})
}

fn date() -> Value {
    json!({"type": "string", "format": "date"})
}

fn uri() -> Value {
    json!({"type": "string", "format": "uri"})
}

fn obj(props: &[(&str, Value)]) -> Value {
    let mut p = Map::new();
    for (k, v) in props {
        p.insert((*k).to_string(), v.clone());
    }
    let required: Vec<&str> = props.iter().map(|(k, _)| *k).collect();
    json!({"type": "object", "properties": p, "required": required})
}

/// `base` with more properties, all required (a detail record is its summary and more).
fn extended(base: &Value, more: &[(&str, Value)]) -> Value {
    let mut out = base.clone();
    for (k, v) in more {
        out["properties"][*k] = v.clone();
        if let Some(req) = out["required"].as_array_mut() {
            req.push(json!(k));
        }
    }
    out
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// A component schema, or null: generated clients name the type after the component
/// (`Cheapest | None`) instead of inventing one for an inline object.
fn nullable_ref(name: &str) -> Value {
    json!({"oneOf": [reference(name), {"type": "null"}]})
}

fn array(of: Value) -> Value {
    json!({"type": "array", "items": of})
}

fn schemas() -> Value {
    let s = || json!({"type": "string"});
    let named = obj(&[("slug", s()), ("name", s())]);
    let kinds = json!({"type": "string", "enum": OfferingKind::NAMES});
    let cheapest_object = obj(&[
        ("provider", named.clone()),
        ("kind", kinds.clone()),
        ("input_price", nullable("number")),
        ("output_price", nullable("number")),
    ]);
    let cheapest = nullable_ref("Cheapest");
    let upcoming = obj(&[
        ("effective_from", date()),
        ("input_price", nullable("number")),
        ("output_price", nullable("number")),
        ("cache_read_price", nullable("number")),
        ("cache_write_price", nullable("number")),
    ]);
    let dispute = obj(&[
        ("field", s()),
        ("values", array(obj(&[("source", s()), ("value", s())]))),
    ]);
    let base_model = obj(&[
        ("slug", s()),
        ("name", s()),
        ("creator", nullable_ref("Named")),
    ]);
    let domain_rank = obj(&[
        (
            "domain",
            json!({"type": "string", "description": "The benchmark category ranked in (the list's domain parameter)"}),
        ),
        ("capability_index", json!({"type": "number"})),
        ("capability_index_se", json!({"type": "number"})),
        ("average_score", nullable("number")),
        ("rank_score", nullable("number")),
        ("benchmarks_count", json!({"type": "integer"})),
        (
            "basis",
            json!({"oneOf": [{"type": "string", "enum": RankBasis::NAMES}, {"type": "null"}]}),
        ),
    ]);
    let model_summary = obj(&[
        ("slug", s()),
        ("name", s()),
        ("creator", nullable_ref("Named")),
        (
            "category",
            json!({"type": "string", "enum": Category::NAMES}),
        ),
        (
            "availability",
            json!({"type": "string", "enum": Availability::NAMES}),
        ),
        ("task", json!({"type": "string", "enum": Task::NAMES})),
        ("open_source", nullable("boolean")),
        (
            "release_date",
            json!({"type": ["string", "null"], "description": "YYYY-MM-DD, or YYYY-MM where only the month is known", "pattern": "^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$"}),
        ),
        ("first_seen", nullable_date()),
        ("deprecation_date", nullable_date()),
        ("deprecated", json!({"type": "boolean"})),
        ("retired", json!({"type": "boolean"})),
        ("reasoning", nullable("boolean")),
        ("tool_call", nullable("boolean")),
        ("structured_output", nullable("boolean")),
        (
            "date_basis",
            json!({"oneOf": [{"type": "string", "enum": DateBasis::NAMES}, {"type": "null"}]}),
        ),
        ("context_window", nullable("integer")),
        ("max_output_tokens", nullable("integer")),
        ("input_modalities", array(s())),
        ("output_modalities", array(s())),
        ("average_score", nullable("number")),
        ("benchmarks_count", json!({"type": "integer"})),
        ("capability_index", nullable("number")),
        ("capability_index_se", nullable("number")),
        (
            "rank_basis",
            json!({"oneOf": [{"type": "string", "enum": RankBasis::NAMES}, {"type": "null"}]}),
        ),
        ("rank_score", nullable("number")),
        (
            "domain_rank",
            json!({"oneOf": [reference("DomainRank"), {"type": "null"}], "description": "The model's standing in the domain a list ranks by (domain parameter); null otherwise"}),
        ),
        ("input_price", nullable("number")),
        ("output_price", nullable("number")),
        (
            "price_basis",
            json!({"oneOf": [{"type": "string", "enum": PriceBasis::NAMES}, {"type": "null"}]}),
        ),
        ("cheapest", cheapest.clone()),
        ("cheapest_any", cheapest),
        ("aliases", array(s())),
    ]);
    let tier = obj(&[
        ("from_tokens", json!({"type": "integer"})),
        ("input_price", nullable("number")),
        ("output_price", nullable("number")),
        ("cache_read_price", nullable("number")),
        ("cache_write_price", nullable("number")),
    ]);
    let offering = obj(&[
        ("provider", named.clone()),
        ("model", s()),
        ("provider_model_id", s()),
        ("kind", kinds),
        ("input_price", nullable("number")),
        ("output_price", nullable("number")),
        ("cache_read_price", nullable("number")),
        ("cache_write_price", nullable("number")),
        ("tiers", array(tier.clone())),
        (
            "unit_prices",
            array(obj(&[
                ("item", s()),
                ("unit", s()),
                ("price", json!({"type": "number"})),
            ])),
        ),
        (
            "variants",
            array(obj(&[
                (
                    "mode",
                    json!({"type": "string", "enum": entity::offering::Variant::MODES}),
                ),
                ("input_price", nullable("number")),
                ("output_price", nullable("number")),
                ("cache_read_price", nullable("number")),
                ("cache_write_price", nullable("number")),
                ("tiers", array(tier)),
            ])),
        ),
        ("upcoming", nullable_ref("UpcomingPrice")),
        (
            "regions",
            array(obj(&[
                ("region", s()),
                ("input_price", nullable("number")),
                ("output_price", nullable("number")),
                ("cache_read_price", nullable("number")),
                ("cache_write_price", nullable("number")),
            ])),
        ),
        (
            "sources",
            array(obj(&[
                ("source", s()),
                ("provider_model_id", s()),
                ("input_price", nullable("number")),
                ("output_price", nullable("number")),
                ("agrees", json!({"type": "boolean"})),
            ])),
        ),
        ("disputed", json!({"type": "boolean"})),
        ("deprecation_date", nullable_date()),
        ("currency", json!({"const": "USD"})),
        ("unit", json!({"const": "1M tokens"})),
        ("context_window", nullable("integer")),
        ("as_of", nullable_date()),
        ("source", s()),
    ]);
    let score = obj(&[
        ("benchmark", named.clone()),
        ("score", json!({"type": "number"})),
        ("config", nullable("string")),
        ("source", s()),
        ("as_of", nullable_day_or_month()),
        ("release", nullable_day_or_month()),
        (
            "provenance",
            json!({"type": "string", "enum": Provenance::NAMES}),
        ),
        ("citation", nullable("string")),
        ("in_average", json!({"type": "boolean"})),
        ("calibrated", nullable("number")),
    ]);
    let benchmark = obj(&[
        ("slug", s()),
        ("name", s()),
        ("category", s()),
        ("unit", s()),
        ("higher_is_better", json!({"type": "boolean"})),
        ("in_average", json!({"type": "boolean"})),
        ("description", s()),
        ("source_url", uri()),
        ("source", s()),
        ("models_count", json!({"type": "integer"})),
        (
            "independent_count",
            json!({"type": "integer", "description": "Models with a result a third party measured (the default leaderboard)"}),
        ),
        (
            "self_reported_count",
            json!({"type": "integer", "description": "Models known here only from their makers' own figures (listed with provenance=all)"}),
        ),
        (
            "claims_only",
            json!({"type": "boolean", "description": "Every result here is a maker's own figure: the default leaderboard is empty, provenance=all lists the claims"}),
        ),
        ("average_reason", s()),
        ("difficulty", nullable("number")),
        ("slope", nullable("number")),
    ]);
    let provider = obj(&[
        ("slug", s()),
        ("name", s()),
        (
            "website",
            json!({"type": ["string", "null"], "format": "uri"}),
        ),
        (
            "kind",
            json!({"type": "string", "enum": ProviderKind::NAMES}),
        ),
        ("models_count", json!({"type": "integer"})),
        ("created_count", json!({"type": "integer"})),
    ]);
    let agent = obj(&[
        ("slug", s()),
        ("name", s()),
        ("organization", nullable("string")),
        ("open_source", nullable("boolean")),
        ("date", nullable_date()),
        ("average_score", nullable("number")),
        ("benchmarks_count", json!({"type": "integer"})),
        ("capability_index", nullable("number")),
        ("capability_index_se", nullable("number")),
        ("models", array(named.clone())),
        (
            "scores",
            array(obj(&[
                ("benchmark", named.clone()),
                ("score", json!({"type": "number"})),
                ("as_of", nullable_day_or_month()),
                ("source", s()),
            ])),
        ),
    ]);
    let price_point = obj(&[
        ("provider", named.clone()),
        ("input_price", nullable("number")),
        ("output_price", nullable("number")),
        ("cache_read_price", nullable("number")),
        ("cache_write_price", nullable("number")),
        ("effective_from", date()),
        ("effective_to", nullable_date()),
        ("observed_after", nullable_date()),
        ("source", s()),
    ]);
    let model_detail = extended(
        &model_summary,
        &[
            ("family", nullable("string")),
            (
                "knowledge_cutoff",
                json!({"type": ["string", "null"], "pattern": "^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$"}),
            ),
            ("last_updated", nullable("string")),
            ("superseded_by", nullable_ref("Named")),
            ("base_model", nullable_ref("BaseModel")),
            ("disputes", array(reference("Dispute"))),
            ("agents", array(s())),
            ("scores", array(reference("Score"))),
            ("offerings", array(reference("Offering"))),
        ],
    );
    let paged = |item: Value| {
        obj(&[
            ("total", json!({"type": "integer"})),
            ("items", array(item)),
        ])
    };
    let provider_detail = extended(
        &provider,
        &[
            ("offerings", paged(reference("Offering"))),
            (
                "created_models",
                paged(obj(&[
                    ("slug", s()),
                    ("name", s()),
                    ("category", s()),
                    ("input_price", nullable("number")),
                    ("average_score", nullable("number")),
                ])),
            ),
        ],
    );
    let benchmark_detail = extended(
        &benchmark,
        &[
            ("releases", array(date())),
            (
                "top_models",
                array(obj(&[
                    ("model", named.clone()),
                    ("score", json!({"type": "number"})),
                    ("config", nullable("string")),
                    ("source", s()),
                    ("as_of", nullable_day_or_month()),
                    ("release", nullable_day_or_month()),
                    (
                        "provenance",
                        json!({"type": "string", "enum": Provenance::NAMES}),
                    ),
                    ("citation", nullable("string")),
                ])),
            ),
        ],
    );
    let point = obj(&[
        (
            "date",
            json!({"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$"}),
        ),
        ("value", json!({"type": "number"})),
        ("secondary", nullable("number")),
    ]);
    let indicator = obj(&[
        ("slug", s()),
        ("name", s()),
        ("description", s()),
        ("unit", s()),
        ("secondary_label", nullable("string")),
        ("method", s()),
        ("sources", array(s())),
        ("latest", nullable_ref("Point")),
    ]);
    let indicator_detail = extended(&indicator, &[("series", array(reference("Point")))]);
    let nullable_named = nullable_ref("Named");
    let costs = array(obj(&[
        ("requested", s()),
        ("model", named.clone()),
        (
            "offerings",
            array(obj(&[
                ("provider", named.clone()),
                ("kind", s()),
                ("provider_model_id", s()),
                ("tier_from_tokens", nullable("integer")),
                (
                    "lines",
                    array(obj(&[
                        (
                            "line",
                            json!({"type": "string", "enum": ["input", "cached_input", "output"]}),
                        ),
                        ("tokens", json!({"type": "integer"})),
                        ("unit_price", json!({"type": "number"})),
                        ("cost", json!({"type": "number"})),
                    ])),
                ),
                ("total", nullable("number")),
                ("currency", json!({"const": "USD"})),
                ("reason", nullable("string")),
            ])),
        ),
    ]));
    let recommendation = obj(&[
        ("capability_basis", s()),
        ("considered", json!({"type": "integer"})),
        (
            "frontier",
            array(obj(&[
                ("capability", json!({"type": "number"})),
                ("capability_se", nullable("number")),
                (
                    "cost",
                    costs["items"]["properties"]["offerings"]["items"].clone(),
                ),
                (
                    "model",
                    obj(&[
                        ("capability_index", nullable("number")),
                        ("context_window", nullable("integer")),
                        ("creator", nullable_ref("Named")),
                        ("name", s()),
                        ("open_source", nullable("boolean")),
                        ("slug", s()),
                        ("tool_call", nullable("boolean")),
                    ]),
                ),
                ("rank_basis", nullable("string")),
                ("reason", s()),
                ("self_reported_only", json!({"type": "boolean"})),
            ])),
        ),
    ]);
    let change = obj(&[
        ("id", s()),
        (
            "type",
            json!({"type": "string", "enum": ["price", "model", "score"]}),
        ),
        // A model's entry is dated by its release date, which may be known to the month
        // only (docs/data.md).
        (
            "date",
            json!({"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$"}),
        ),
        ("summary", s()),
        ("model", named.clone()),
        ("provider", nullable_named.clone()),
        ("benchmark", nullable_named),
        ("input_price", nullable("number")),
        ("output_price", nullable("number")),
        ("previous_input_price", nullable("number")),
        ("previous_output_price", nullable("number")),
        ("score", nullable("number")),
    ]);
    // docs/data.md, "Lifecycle".
    let successor = obj(&[
        ("input_price", nullable("number")),
        ("name", s()),
        ("output_price", nullable("number")),
        ("slug", s()),
    ]);
    let retirement = obj(&[
        ("creator", nullable_ref("Named")),
        ("deprecated", json!({"type": "boolean"})),
        ("deprecation_date", date()),
        ("input_price", nullable("number")),
        ("name", s()),
        ("output_price", nullable("number")),
        ("retired", json!({"type": "boolean"})),
        ("slug", s()),
        ("superseded_by", nullable_ref("Successor")),
    ]);
    let closest = json!({"type": "array", "description": "For an unknown model: the closest known ones",
        "items": {"type": "object", "properties": {"slug": {"type": "string"}, "name": {"type": "string"}}, "required": ["slug", "name"]}});
    // Objects that may be null are components of their own, so generated clients name them.
    let named_parts = [
        ("Named", named),
        ("Cheapest", cheapest_object),
        ("DomainRank", domain_rank),
        ("UpcomingPrice", upcoming),
        ("BaseModel", base_model),
        ("Point", point),
        ("Dispute", dispute),
        ("Successor", successor),
        // (Not nullable: here because the `json!` below is at the macro's recursion limit.)
        ("Retirement", retirement),
    ];
    let mut all = json!({
        "Costs": costs,
        "Recommendation": recommendation,
        "Indicators": array(reference("Indicator")),
        "Indicator": indicator,
        "IndicatorDetail": indicator_detail,
        "Change": change,
        "ModelSummary": model_summary,
        "ModelDetail": model_detail,
        "Offering": offering,
        "Score": score,
        "Benchmark": benchmark,
        "BenchmarkDetail": benchmark_detail,
        "Provider": provider,
        "ProviderDetail": provider_detail,
        "Agent": agent,
        "PricePoint": price_point,
        "ModelPricing": obj(&[("slug", s()), ("name", s()), ("input_price", nullable("number")), ("output_price", nullable("number")), ("offerings", array(reference("Offering")))]),
        "PriceHistory": obj(&[("slug", s()), ("name", s()), ("price_history", array(reference("PricePoint")))]),
        "Comparison": obj(&[
            ("requested", array(s())),
            ("models", array(reference("ModelSummary"))),
            ("benchmarks", array(obj(&[
                ("benchmark", obj(&[("slug", s()), ("name", s()), ("unit", s()), ("higher_is_better", json!({"type": "boolean"}))])),
                ("scores", array(obj(&[("model", s()), ("score", nullable("number"))]))),
            ]))),
        ]),
        "Source": obj(&[
            ("slug", s()), ("name", s()), ("repository", s()), ("commit", s()),
            ("release", nullable("string")), ("release_date", nullable("string")),
            ("snapshot_date", date()), ("license", s()), ("attribution", s()), ("url", uri()),
            ("status", json!({"type": "string", "enum": SourceStatus::NAMES})),
            ("upstream", nullable("string")), ("upstream_version", nullable("string")),
            ("last_fetched", nullable("string")), ("last_success", nullable("string")),
            ("error", nullable("string")), ("rows", nullable("integer")),
        ]),
        "Sources": array(reference("Source")),
        "Dataset": obj(&[
            ("version", json!({"type": "integer"})), ("built_at", date()),
            ("imported_at", s()), ("sha256", s()), ("sources", array(reference("Source"))),
            ("prices_as_of", nullable_date()), ("benchmarks_as_of", nullable_date()),
            ("changes", json!({"type": ["object", "null"],
                "description": "What this version changed against the version served before it (prices compared at 6 significant digits); null for the first version.",
                "properties": {
                    "compared_to": {"type": ["integer", "null"]},
                    "models_added": {"type": "integer"}, "models_removed": {"type": "integer"},
                    "models_repriced": {"type": "integer"}, "price_changes": {"type": "integer"}},
                "required": ["compared_to", "models_added", "models_removed", "models_repriced", "price_changes"]})),
            ("pinned", json!({"type": "boolean"})),
        ]),
        "DatasetMeta": {
            "type": "object",
            "description": "The dataset the answer was read from: its version, the date of its newest source, and how recent its prices and its benchmark scores are (the newest observation among the sources of each).",
            "properties": {"version": {"type": "integer"}, "date": {"type": "string"},
                "prices_as_of": {"type": ["string", "null"], "format": "date"},
                "benchmarks_as_of": {"type": ["string", "null"], "format": "date"}},
            "required": ["version", "date", "prices_as_of", "benchmarks_as_of"]
        },
        "ListMeta": {
            "type": "object",
            "properties": {
                "total": {"type": "integer"}, "page": {"type": "integer"}, "per_page": {"type": "integer"},
                "total_pages": {"type": "integer"}, "attribution": {"type": "string"},
                "dataset": {"$ref": "#/components/schemas/DatasetMeta"}
            },
            "required": ["total", "page", "per_page", "total_pages", "dataset"]
        },
        "ItemMeta": {
            "type": "object",
            "properties": {"attribution": {"type": "string"}, "dataset": {"$ref": "#/components/schemas/DatasetMeta"}},
            "required": ["dataset"]
        },
        "Problem": {
            "type": "object",
            "properties": {
                "type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"},
                "detail": {"type": "string"},
                "code": {"type": "string", "enum": ["invalid_parameter", "not_found", "invalid_api_key", "rate_limited", "method_not_allowed", "unavailable", "internal", "payload_too_large", "uri_too_long", "headers_too_large", "request_timeout", "query_too_complex"]},
                "param": {"type": "string"}, "request_id": {"type": "string"},
                "closest": closest
            },
            "required": ["type", "title", "status", "detail", "code", "request_id"]
        }
    });
    if let Some(map) = all.as_object_mut() {
        for (name, schema) in named_parts {
            map.insert(name.to_string(), schema);
        }
    }
    all
}

fn problem(description: &str) -> Value {
    json!({"description": description, "headers": rate_headers(),
        "content": {"application/problem+json": {"schema": reference("Problem")}}})
}

/// Headers on every counted answer (`docs/limits.md`).
fn rate_headers() -> Value {
    let int = |d: &str| json!({"description": d, "schema": {"type": "integer"}});
    json!({
        "X-RateLimit-Limit": int("Requests allowed per hour for this caller"),
        "X-RateLimit-Remaining": int("Requests left this hour"),
        "X-RateLimit-Used": int("Requests counted this hour"),
        "X-RateLimit-Reset": int("Unix time the hour ends"),
        "RateLimit": {"description": "IETF draft form: `\"free\";r=REMAINING;t=SECONDS`", "schema": {"type": "string"}},
        "RateLimit-Policy": {"description": "IETF draft form: `\"free\";q=LIMIT;w=3600`", "schema": {"type": "string"}},
        "X-Request-Id": {"description": "The request's id (echoed when the request sends a sane one)", "schema": {"type": "string"}},
    })
}

/// Headers of a 200: the rate-limit headers, plus caching, attribution and (lists) paging.
fn ok_headers(list: bool) -> Value {
    let mut h = rate_headers();
    h["ETag"] = json!({"description": "Weak validator of the answer; send it back as If-None-Match for a 304", "schema": {"type": "string"}});
    h["Cache-Control"] = json!({"description": "`public, max-age=60`: data changes only on import", "schema": {"type": "string"}});
    h["Link"] = if list {
        json!({"description": "RFC 8288 paging links (`first`, `prev`, `next`, `last`) and, for the Free tier, `<…/api/v1/sources>; rel=\"license\"`; absolute URLs", "schema": {"type": "string"}})
    } else {
        json!({"description": "For the Free tier: `<…/api/v1/sources>; rel=\"license\"` (the attribution, an absolute URL)", "schema": {"type": "string"}})
    };
    h
}

/// The checked-in example answers, by endpoint path (see [`super::table::Endpoint::sample`]).
pub const EXAMPLES: &str = include_str!("../../assets/openapi-examples.json");

fn examples() -> Value {
    serde_json::from_str(EXAMPLES).unwrap_or(Value::Null)
}

/// The OpenAPI parameters of an endpoint.
fn parameters(ep: &super::table::Endpoint) -> Vec<Value> {
    ep.params
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "in": if p.in_path { "path" } else { "query" },
                "required": p.required,
                "description": super::meanings::describe(ep, p),
                "schema": param_schema(p.kind),
            })
        })
        .collect()
}

/// The whole document.
pub fn document() -> Value {
    let mut paths = Map::new();
    let examples = examples();
    for ep in ENDPOINTS {
        let params = parameters(ep);
        let body = match ep.shape {
            Shape::List => obj(&[
                ("data", array(reference(ep.schema))),
                ("meta", reference("ListMeta")),
            ]),
            Shape::Item => obj(&[
                ("data", reference(ep.schema)),
                ("meta", reference("ItemMeta")),
            ]),
        };
        let mut content = json!({"schema": body});
        if let Some(example) = examples.get(ep.path) {
            content["example"] = example.clone();
        }
        let mut responses = json!({
            "200": {"description": "OK", "headers": ok_headers(ep.shape == Shape::List),
                "content": {"application/json": content}},
            "304": {"description": "Not modified (If-None-Match matched the ETag)"},
            "400": problem("A parameter has a bad value (`invalid_parameter`, with `param`)"),
            "401": problem("The API key is unknown or revoked (`invalid_api_key`)"),
            "429": problem("Hourly limit reached (`rate_limited`); see Retry-After"),
            "414": problem("The query string is longer than 2 KiB (`uri_too_long`)"),
            "503": problem("The request took longer than the request timeout, or a dependency is unavailable (`unavailable`)"),
        });
        if ep.params.iter().any(|p| p.in_path)
            || ep.path.ends_with("compare")
            || ep.path.ends_with("cost")
        {
            responses["404"] = problem("Unknown slug (`not_found`)");
        }
        if ep.noun == "model" && ep.params.iter().any(|p| p.in_path) {
            responses["308"] = json!({
                "description": "The identifier is an alias or a provider's id of a model: its canonical URL",
                "headers": {"Location": {"description": "The model's canonical URL (absolute)", "schema": {"type": "string", "format": "uri"}}},
            });
        }
        if ep.path.ends_with("lookup") {
            responses["404"] = problem(
                "No model is known by that id (`not_found`; the detail names the closest models)",
            );
        }
        let (operation, tag) = operation(ep.path);
        paths.insert(
            ep.path.to_string(),
            json!({"get": {
                "operationId": operation,
                "tags": [tag],
                "summary": ep.summary,
                "parameters": params,
                "responses": responses,
            }}),
        );
    }
    paths.insert("/api/v1/export/{file}".to_string(), export_path(&examples));
    paths.insert("/api/v1/changes.atom".to_string(), atom_path(&examples));
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Model Data Service",
            "version": "1",
            "description": "Read-only data about AI models: models, providers, prices and price history, benchmark scores, agents and comparisons. Every endpoint is a GraphQL document run in-process; see /graphql.",
            "license": {"name": "MIT", "identifier": "MIT"}
        },
        "servers": [{"url": "/"}],
        "components": {
            "schemas": schemas(),
            "securitySchemes": {
                "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
                "bearer": {"type": "http", "scheme": "bearer"}
            }
        },
        "security": [{}, {"apiKey": []}, {"bearer": []}],
        "tags": [
            {"name": "models", "description": "Models: lists, search, lookup by any id, detail, comparison"},
            {"name": "prices", "description": "Prices at every provider, price history, the cost of requests and workloads"},
            {"name": "benchmarks", "description": "Benchmarks and their leaderboards"},
            {"name": "providers", "description": "Providers and model creators"},
            {"name": "agents", "description": "Agents and their results"},
            {"name": "economy", "description": "Monthly indicators computed from the catalogue"},
            {"name": "changes", "description": "What changed: prices, new models, scores"},
            {"name": "dataset", "description": "The sources, their freshness, and bulk exports"}
        ],
        "paths": paths,
    })
}

/// The operation id a client generator names the call after (`list_models`, `get_model`,
/// `compare_models`), and the area it is grouped under.
fn operation(path: &str) -> (String, &'static str) {
    let rest = path.trim_start_matches("/api/v1/");
    let (op, tag) = match rest {
        "models" => ("list_models", "models"),
        "models/search" => ("search_models", "models"),
        "models/lookup" => ("lookup_model", "models"),
        "models/{slug}" => ("get_model", "models"),
        "compare" => ("compare_models", "models"),
        "pricing" => ("list_prices", "prices"),
        "pricing/{slug}" => ("get_model_prices", "prices"),
        "pricing/history/{slug}" => ("get_price_history", "prices"),
        "cost" => ("calculate_costs", "prices"),
        "recommend" => ("recommend_models", "models"),
        "benchmarks" => ("list_benchmarks", "benchmarks"),
        "benchmarks/{slug}" => ("get_benchmark", "benchmarks"),
        "providers" => ("list_providers", "providers"),
        "providers/{slug}" => ("get_provider", "providers"),
        "agents" => ("list_agents", "agents"),
        "agents/{slug}" => ("get_agent", "agents"),
        "economy" => ("list_indicators", "economy"),
        "economy/{slug}" => ("get_indicator", "economy"),
        "changes" => ("list_changes", "changes"),
        "retirements" => ("list_retirements", "models"),
        "sources" => ("list_sources", "dataset"),
        "dataset" => ("get_dataset", "dataset"),
        // A new endpoint is named after its path until it gets a name here.
        other => {
            let name = other.replace(['/', '{', '}'], "_");
            return (format!("get_{}", name.trim_matches('_')), "other");
        }
    };
    (op.to_string(), tag)
}

/// The changes feed as Atom: the `/api/v1/changes` answer written as a feed.
/// The sample requests of the two answers that are not JSON, whose documented examples are
/// their real answers (the CSV cut to its header and two rows).
pub const ATOM_SAMPLE: &str = "/api/v1/changes.atom?type=price&limit=1";
pub const EXPORT_SAMPLE: &str = "/api/v1/export/providers.csv";

fn atom_path(examples: &Value) -> Value {
    let params: Vec<Value> = ENDPOINTS
        .iter()
        .find(|e| e.path == "/api/v1/changes")
        .map(parameters)
        .unwrap_or_default();
    json!({"get": {
        "operationId": "get_changes_feed",
        "tags": ["changes"],
        "summary": "What changed, as an Atom 1.0 feed (the entries of /api/v1/changes with the same parameters; entry ids are stable)",
        "parameters": params,
        "responses": {
            "200": {"description": "The feed", "headers": ok_headers(true),
                "content": {"application/atom+xml": {"schema": {"type": "string"},
                    "example": examples.get("/api/v1/changes.atom").cloned().unwrap_or(Value::Null)}}},
            "304": {"description": "Not modified (If-None-Match matched the ETag)"},
            "400": problem("A parameter has a bad value (`invalid_parameter`, with `param`)"),
            "401": problem("The API key is unknown or revoked (`invalid_api_key`)"),
            "414": problem("The query string is longer than 2 KiB (`uri_too_long`)"),
            "429": problem("Hourly limit reached (`rate_limited`); see Retry-After"),
            "503": problem("A dependency is unavailable (`unavailable`)"),
        }
    }})
}

/// The bulk export: not a GraphQL document, but a stream of a table's stored rows.
fn export_path(examples: &Value) -> Value {
    let files: Vec<String> = crate::catalog::TABLES
        .iter()
        .flat_map(|t| [format!("{t}.csv"), format!("{t}.ndjson")])
        .collect();
    json!({"get": {
        "operationId": "export_table",
        "tags": ["dataset"],
        "summary": "A whole table in one counted request (CSV with a header row, or one JSON object per line), streamed; columns are the table's stored fields",
        "parameters": [{
            "name": "file", "in": "path", "required": true,
            "description": "`<table>.<format>`: tables models, offerings, scores, price_history, benchmarks, providers, agents; formats csv, ndjson.",
            "schema": {"type": "string", "enum": files}
        }],
        "responses": {
            "200": {"description": "The table", "content": {
                "text/csv": {"schema": {"type": "string"},
                    "example": examples.get("/api/v1/export/{file}").cloned().unwrap_or(Value::Null)},
                "application/x-ndjson": {"schema": {"type": "string"}}
            }},
            "304": {"description": "Not modified (If-None-Match matched the ETag)"},
            "401": problem("The API key is unknown or revoked (`invalid_api_key`)"),
            "404": problem("No such table or format (`not_found`)"),
            "414": problem("The query string is longer than 2 KiB (`uri_too_long`)"),
            "429": problem("Hourly limit reached (`rate_limited`); see Retry-After"),
            "503": problem("A dependency is unavailable (`unavailable`)"),
        }
    }})
}

pub fn document_json() -> String {
    serde_json::to_string_pretty(&document()).unwrap_or_default()
}
