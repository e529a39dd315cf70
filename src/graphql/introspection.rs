//! What an introspection selection costs: the values it would produce, with each list
//! multiplied by the schema's real sizes, counted before anything runs.
//!
//! The engine's complexity limit counts the fields under `__schema` and `__type` once
//! each, so `fields { type { fields { type { … } } } }` nested fifteen times (660 bytes)
//! used to build a 32 MB answer. Here each introspection list multiplies its children by
//! its size in this schema: over all types (below `types` or `directives`) by the average
//! per parent, which sums exactly to the schema's totals; below one type (a field's `type`,
//! `__type(name:)`) by the largest. The standard introspection queries of graphql-js,
//! graphql-core and gql cost about 23,000 values, under half the budget; each re-entry into a type's
//! fields multiplies by the widest type, so a nested bomb is refused at once.

use async_graphql::parser::types::{ExecutableDocument, Selection, SelectionSet};
use async_graphql::{Value, from_value};
use serde::Deserialize;

/// Most values one operation's introspection selections may produce.
pub const MAX_INTROSPECTION_VALUES: u64 = 80_000;

/// The query that measures the schema, run once on the schema itself.
pub const SIZING_QUERY: &str = "{ __schema { types { fields(includeDeprecated: true) { args { name } } inputFields { name } enumValues(includeDeprecated: true) { name } interfaces { name } possibleTypes { name } } directives { args { name } locations } } }";

/// Counts and largest lengths of the schema's introspection lists.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sizes {
    types: u64,
    fields: (u64, u64),
    args: (u64, u64),
    input_fields: (u64, u64),
    enum_values: (u64, u64),
    interfaces: (u64, u64),
    possible_types: (u64, u64),
    directives: u64,
    directive_args: (u64, u64),
    locations: u64,
}

/// An item of a list whose length alone matters.
#[derive(Deserialize)]
struct Named {}

#[derive(Deserialize)]
struct Field {
    args: Vec<Named>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Type {
    fields: Option<Vec<Field>>,
    input_fields: Option<Vec<Named>>,
    enum_values: Option<Vec<Named>>,
    interfaces: Option<Vec<Named>>,
    possible_types: Option<Vec<Named>>,
}

#[derive(Deserialize)]
struct Directive {
    args: Vec<Named>,
    locations: Vec<Value>,
}

#[derive(Deserialize)]
struct Schema {
    types: Vec<Type>,
    directives: Vec<Directive>,
}

#[derive(Deserialize)]
struct Answer {
    #[serde(rename = "__schema")]
    schema: Schema,
}

/// (total, largest) over lengths.
fn total_max(lengths: impl Iterator<Item = usize>) -> (u64, u64) {
    lengths.fold((0, 0), |(t, m), n| (t + n as u64, m.max(n as u64)))
}

impl Sizes {
    /// Reads the answer to [`SIZING_QUERY`].
    pub fn from_answer(data: Value) -> Option<Self> {
        let s = from_value::<Answer>(data).ok()?.schema;
        let len = |l: &Option<Vec<Named>>| l.as_ref().map_or(0, Vec::len);
        let fields = || s.types.iter().flat_map(|t| t.fields.iter().flatten());
        Some(Self {
            types: s.types.len() as u64,
            fields: total_max(
                s.types
                    .iter()
                    .map(|t| t.fields.as_ref().map_or(0, Vec::len)),
            ),
            args: total_max(fields().map(|f| f.args.len())),
            input_fields: total_max(s.types.iter().map(|t| len(&t.input_fields))),
            enum_values: total_max(s.types.iter().map(|t| len(&t.enum_values))),
            interfaces: total_max(s.types.iter().map(|t| len(&t.interfaces))),
            possible_types: total_max(s.types.iter().map(|t| len(&t.possible_types))),
            directives: s.directives.len() as u64,
            directive_args: total_max(s.directives.iter().map(|d| d.args.len())),
            locations: s
                .directives
                .iter()
                .map(|d| d.locations.len() as u64)
                .max()
                .unwrap_or(0),
        })
    }

    /// How many values a field named `name` below `parent` yields per parent value, and
    /// whether its children range over all types (`true`) or belong to one.
    fn multiplier(&self, name: &str, parent: &str, all: bool) -> (u64, bool) {
        // Over all parents the average (rounded up) sums to the total; below one, the largest.
        let per = |(total, max): (u64, u64), of: u64| {
            if all {
                (total.div_ceil(of.max(1)), true)
            } else {
                (max, false)
            }
        };
        match name {
            "types" => (self.types, true),
            "directives" => (self.directives, true),
            "fields" => per(self.fields, self.types),
            "args" if parent == "directives" => per(self.directive_args, self.directives),
            "args" => per(self.args, self.fields.0),
            "inputFields" => per(self.input_fields, self.types),
            "enumValues" => per(self.enum_values, self.types),
            "interfaces" => per(self.interfaces, self.types),
            "possibleTypes" => per(self.possible_types, self.types),
            "locations" => (self.locations, false),
            // One object or scalar per parent (`type`, `ofType`, `name`, ...): what is below
            // a field's type is one type, not all of them.
            _ => (1, false),
        }
    }
}

/// Where a walk is, inside an introspection field: below `parent`, over all types or one,
/// each value there standing `times` times in the answer.
#[derive(Clone, Copy)]
struct At<'d> {
    parent: &'d str,
    all: bool,
    times: u64,
}

/// One walk of an operation, adding up the values its introspection fields yield.
struct Walk<'d> {
    sizes: &'d Sizes,
    doc: &'d ExecutableDocument,
    values: u64,
}

impl<'d> Walk<'d> {
    /// Walks `set`, outside introspection (`at` is `None`: only looking for `__schema` and
    /// `__type`) or inside it. Stops once the budget is spent; `hops` bounds recursion
    /// through fragments.
    fn set(&mut self, set: &'d SelectionSet, at: Option<At<'d>>, hops: usize) {
        if hops > 2 * super::guards::MAX_NESTING {
            self.values = MAX_INTROSPECTION_VALUES + 1;
            return;
        }
        for sel in &set.items {
            if self.values > MAX_INTROSPECTION_VALUES {
                return;
            }
            match &sel.node {
                Selection::Field(f) => {
                    let name = f.node.name.node.as_str();
                    let below = match at {
                        Some(a) => {
                            let (n, all) = self.sizes.multiplier(name, a.parent, a.all);
                            let times = a.times.saturating_mul(n);
                            self.values = self.values.saturating_add(times.max(1));
                            Some(At {
                                parent: name,
                                all,
                                times,
                            })
                        }
                        None if name == "__schema" || name == "__type" => {
                            self.values += 1;
                            Some(At {
                                parent: name,
                                all: false,
                                times: 1,
                            })
                        }
                        None => None,
                    };
                    self.set(&f.node.selection_set.node, below, hops + 1);
                }
                Selection::InlineFragment(fr) => {
                    self.set(&fr.node.selection_set.node, at, hops + 1)
                }
                Selection::FragmentSpread(sp) => {
                    if let Some(fr) = self.doc.fragments.get(&sp.node.fragment_name.node) {
                        self.set(&fr.node.selection_set.node, at, hops + 1);
                    }
                }
            }
        }
    }
}

/// The values the introspection fields (`__schema`, `__type`) of a selection set would
/// produce, found at any depth (with fragments); at most a little over the budget.
pub fn values(sizes: &Sizes, set: &SelectionSet, doc: &ExecutableDocument) -> u64 {
    let mut walk = Walk {
        sizes,
        doc,
        values: 0,
    };
    walk.set(set, None, 0);
    walk.values
}

#[cfg(test)]
mod tests {
    use super::*;

    /// graphql-js's `getIntrospectionQuery()` (v16, with descriptions, deprecated input
    /// values and the specifiedByURL / isRepeatable options on), shared with the API tests.
    const GRAPHQL_JS: &str = include_str!("../../tests/api/introspection_query.graphql");

    async fn sizes() -> Sizes {
        let engine = crate::graphql::build();
        let resp = engine.schema().execute(SIZING_QUERY).await;
        assert!(resp.errors.is_empty(), "{:?}", resp.errors);
        Sizes::from_answer(resp.data).unwrap()
    }

    fn cost(sizes: &Sizes, q: &str) -> u64 {
        let doc = async_graphql::parser::parse_query(q).unwrap();
        let (_, op) = doc.operations.iter().next().unwrap();
        values(sizes, &op.node.selection_set.node, &doc)
    }

    #[tokio::test]
    async fn standard_introspection_fits_and_the_estimate_is_not_below_the_answer() {
        let s = sizes().await;
        assert!(s.types > 30 && s.fields.0 > 150, "{s:?}");
        let estimate = cost(&s, GRAPHQL_JS);
        assert!(estimate <= MAX_INTROSPECTION_VALUES / 2, "{estimate}");
        // The real answer has fewer values than the estimate: count its leaves and objects.
        fn count(v: &Value) -> u64 {
            match v {
                Value::Object(m) => m.values().map(|v| 1 + count(v)).sum(),
                Value::List(l) => l.iter().map(count).sum::<u64>(),
                _ => 0,
            }
        }
        let engine = crate::graphql::build();
        let real = count(&engine.schema().execute(GRAPHQL_JS).await.data);
        assert!(
            real > 1000 && real <= estimate,
            "real {real}, estimate {estimate}"
        );
    }

    #[tokio::test]
    async fn nested_type_fields_multiply_and_are_refused() {
        let s = sizes().await;
        let mut inner = String::from("name");
        for _ in 0..15 {
            inner = format!("fields {{ type {{ ofType {{ ofType {{ {inner} }} }} }} }}");
        }
        let bomb = format!("{{ __schema {{ types {{ {inner} }} }} }}");
        assert!(cost(&s, &bomb) > MAX_INTROSPECTION_VALUES);
        // Two levels of re-entry are already more than a whole schema's worth.
        let two =
            "{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }";
        assert!(
            cost(&s, two) > MAX_INTROSPECTION_VALUES,
            "{}",
            cost(&s, two)
        );
        // One type by name is cheap.
        let one = "{ __type(name: \"Model\") { fields { name type { name ofType { name } } } } }";
        assert!(cost(&s, one) < 1000);
    }
}
