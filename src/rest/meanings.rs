//! What each REST parameter means, written once: a parameter that becomes a GraphQL variable
//! is described by the GraphQL schema's own description of the argument or input field it
//! fills (and, for an enum, of each value), so the OpenAPI document, the SDL and GraphiQL's
//! docs say the same thing. Only REST's own parameters (`page`, `limit`, path slugs) keep a
//! description in the endpoint table. See `docs/rest.md`.

use std::collections::HashMap;
use std::sync::OnceLock;

use async_graphql::parser::types::{ServiceDocument, TypeKind, TypeSystemDefinition};

use super::table::{Endpoint, Kind, Param};

/// What the schema says, read once from its SDL.
#[derive(Default)]
struct Schema {
    /// Descriptions by `Type.field`, `Type.field(arg)` and `Enum.VALUE`.
    descriptions: HashMap<String, String>,
    /// Each enum's values, sorted.
    enums: HashMap<String, Vec<String>>,
}

fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let mut schema = Schema::default();
        // The schema is the service's own: it always parses (a unit test holds it to that).
        if let Ok(doc) = async_graphql::parser::parse_schema(crate::graphql::sdl()) {
            collect(&doc, &mut schema);
        }
        schema
    })
}

fn descriptions() -> &'static HashMap<String, String> {
    &schema().descriptions
}

/// The enum whose values are exactly `values` (REST names; GraphQL's are their capitals), if
/// one is.
fn enum_of(values: &[&str]) -> Option<&'static str> {
    let mut wanted: Vec<String> = values.iter().map(|v| v.to_ascii_uppercase()).collect();
    wanted.sort_unstable();
    let mut found = schema().enums.iter().filter(|(_, vs)| **vs == wanted);
    match (found.next(), found.next()) {
        (Some((name, _)), None) => Some(name.as_str()),
        _ => None,
    }
}

fn collect(doc: &ServiceDocument, schema: &mut Schema) {
    let map = &mut schema.descriptions;
    let mut put = |key: String, d: &Option<async_graphql::Positioned<String>>| {
        if let Some(d) = d {
            map.insert(key, one_line(&d.node));
        }
    };
    for def in &doc.definitions {
        let TypeSystemDefinition::Type(t) = def else {
            continue;
        };
        let ty = t.node.name.node.as_str();
        match &t.node.kind {
            TypeKind::Object(o) => {
                for f in &o.fields {
                    let field = f.node.name.node.as_str();
                    put(format!("{ty}.{field}"), &f.node.description);
                    for a in &f.node.arguments {
                        let arg = a.node.name.node.as_str();
                        put(format!("{ty}.{field}({arg})"), &a.node.description);
                    }
                }
            }
            TypeKind::InputObject(i) => {
                for f in &i.fields {
                    put(format!("{ty}.{}", f.node.name.node), &f.node.description);
                }
            }
            TypeKind::Enum(e) => {
                let mut values = Vec::new();
                for v in &e.values {
                    put(format!("{ty}.{}", v.node.value.node), &v.node.description);
                    values.push(v.node.value.node.to_string());
                }
                values.sort_unstable();
                schema.enums.insert(ty.to_string(), values);
            }
            _ => {}
        }
    }
}

/// A description as one line (the SDL wraps long ones).
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The type a document declares for `$var` (`ModelFilter` for `$filter: ModelFilter`).
fn variable_type<'a>(document: &'a str, var: &str) -> Option<&'a str> {
    let at = document.find(&format!("${var}: "))? + var.len() + 3;
    let rest = document[at..].trim_start_matches('[');
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

/// The field and argument `$var` is passed to in a document (`models`, `filter`), read
/// from the text `field(… arg: $var …)`.
fn argument_of<'a>(document: &'a str, var: &str) -> Option<(&'a str, &'a str)> {
    let needle = format!(": ${var}");
    let bytes = document.as_bytes();
    let mut from = 0;
    while let Some(found) = document[from..].find(&needle) {
        let at = from + found;
        from = at + needle.len();
        // A use, not the declaration: the declaration's `$` stands before the name.
        let after = bytes.get(from).copied().unwrap_or(b' ');
        if after.is_ascii_alphanumeric() || after == b'_' {
            continue;
        }
        let before = &document[..at];
        let arg_start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let arg = &before[arg_start..];
        if arg.is_empty() || before[..arg_start].ends_with('$') {
            continue;
        }
        // The field: the name before the innermost `(` still open at the argument.
        let mut depth = 0i32;
        let mut open = None;
        for (i, c) in before.char_indices().rev() {
            match c {
                ')' => depth += 1,
                '(' if depth == 0 => {
                    open = Some(i);
                    break;
                }
                '(' => depth -= 1,
                _ => {}
            }
        }
        let head = before[..open?].trim_end();
        let field_start = head
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let field = &head[field_start..];
        if field == "query" || field.is_empty() {
            continue;
        }
        return Some((field, arg));
    }
    None
}

/// The schema's description of what `p` fills in `ep`'s document, if the schema has one.
fn from_schema(ep: &Endpoint, p: &Param) -> Option<String> {
    let map = descriptions();
    let mut text = if let Some((var, field)) = p.var.split_once('.') {
        let ty = variable_type(ep.document, var)?;
        map.get(&format!("{ty}.{field}"))?.clone()
    } else {
        let (field, arg) = argument_of(ep.document, p.var)?;
        let suffix = format!(".{field}({arg})");
        let mut found: Vec<&String> = map
            .iter()
            .filter(|(k, _)| k.ends_with(&suffix))
            .map(|(_, v)| v)
            .collect();
        found.sort();
        found.dedup();
        // One meaning only: a name two types describe differently is ambiguous.
        match found.as_slice() {
            [one] => (*one).clone(),
            _ => return None,
        }
    };
    // An enum's values, each with its meaning (where the schema gives every one).
    if let Kind::Enum(values) = p.kind
        && let Some(ty) = enum_of(values)
    {
        let described: Vec<String> = values
            .iter()
            .filter_map(|rest| {
                let d = map.get(&format!("{ty}.{}", rest.to_ascii_uppercase()))?;
                Some(format!("`{rest}`: {}", d.trim_end_matches('.')))
            })
            .collect();
        if described.len() == values.len() {
            text = format!("{text} {}.", described.join("; "));
        }
    }
    Some(text)
}

/// What `p` means: the schema's description where the parameter fills a GraphQL variable
/// the schema describes, else the table's own text.
pub fn describe(ep: &Endpoint, p: &Param) -> String {
    from_schema(ep, p).unwrap_or_else(|| p.description.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rest::table::ENDPOINTS;

    #[test]
    fn the_schema_parses_and_describes_its_arguments() {
        assert!(async_graphql::parser::parse_schema(crate::graphql::sdl()).is_ok());
        assert!(descriptions().contains_key("ModelFilter.maxPrice"));
        assert!(descriptions().contains_key("ModelSort.SCORE"));
    }

    /// Written once: a parameter the schema describes has no text of its own in the table
    /// (it would drift), and every parameter ends up described.
    #[test]
    fn every_parameter_is_described_once() {
        let mut from_schema_count = 0;
        for ep in ENDPOINTS {
            for p in ep.params {
                let schema = from_schema(ep, p);
                if schema.is_some() {
                    from_schema_count += 1;
                    assert!(
                        p.description.is_empty(),
                        "{} {}: described in the schema and again in the table",
                        ep.path,
                        p.name
                    );
                }
                assert!(
                    !describe(ep, p).trim().is_empty(),
                    "{} {} has no description",
                    ep.path,
                    p.name
                );
            }
        }
        assert!(from_schema_count > 40, "{from_schema_count}");
    }

    #[test]
    fn arguments_are_found_by_their_variable() {
        let doc = "query($first: Int, $filter: ModelFilter) {\n  result: models(first: $first, filter: $filter) { total }\n}";
        assert_eq!(argument_of(doc, "first"), Some(("models", "first")));
        assert_eq!(argument_of(doc, "filter"), Some(("models", "filter")));
        assert_eq!(variable_type(doc, "filter"), Some("ModelFilter"));
        assert_eq!(argument_of(doc, "missing"), None);
    }
}
