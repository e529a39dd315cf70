//! GraphQL values written as JSON straight from the engine's values, without first copying
//! the whole answer into a `serde_json::Value` tree: REST envelopes with every object's keys
//! in sorted order (the documented field lists read alphabetically), GraphQL answers in
//! selection order (as the GraphQL spec asks).

use async_graphql::{Name, Value};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// `value`, serialized with sorted object keys (byte order, as `serde_json::Map` sorts).
pub struct Sorted<'a>(pub &'a Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(map) => {
                // Often already in order (one field, or a selection written sorted).
                if map
                    .keys()
                    .zip(map.keys().skip(1))
                    .all(|(a, b)| a.as_str() <= b.as_str())
                {
                    let mut m = s.serialize_map(Some(map.len()))?;
                    for (k, v) in map {
                        m.serialize_entry(k.as_str(), &Sorted(v))?;
                    }
                    return m.end();
                }
                let mut entries: Vec<(&Name, &Value)> = map.iter().collect();
                entries.sort_unstable_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
                let mut m = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    m.serialize_entry(k.as_str(), &Sorted(v))?;
                }
                m.end()
            }
            Value::List(items) => s.collect_seq(items.iter().map(Sorted)),
            // REST writes a vocabulary value as it is stored (`first_party`), GraphQL as the
            // enum's value (`FIRST_PARTY`): one name in capitals, the other in lower case
            // (entity::vocab, docs/ARCHITECTURE.md).
            Value::Enum(name) => s.serialize_str(&name.to_ascii_lowercase()),
            other => other.serialize(s),
        }
    }
}

/// A GraphQL answer without errors, as `{"data", "extensions"?}`: `data` in selection order,
/// the extensions (the attribution) with sorted keys.
pub struct Answer<'a>(pub &'a async_graphql::Response);

impl Serialize for Answer<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let resp = self.0;
        let mut m = s.serialize_map(None)?;
        // Selection order, as the GraphQL spec asks: the engine builds each object in the
        // order of its selection set, so one document always gives the same bytes.
        m.serialize_entry("data", &resp.data)?;
        if !resp.extensions.is_empty() {
            // A BTreeMap: its keys are already in order.
            let ext: Vec<(&String, Sorted<'_>)> = resp
                .extensions
                .iter()
                .map(|(k, v)| (k, Sorted(v)))
                .collect();
            m.serialize_entry("extensions", &MapOf(&ext))?;
        }
        m.end()
    }
}

struct MapOf<'a, 'b>(&'a [(&'b String, Sorted<'b>)]);

impl Serialize for MapOf<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rest_bytes_are_sorted_and_graphql_bytes_keep_the_selection_order() {
        let v: Value = Value::from_json(serde_json::json!({
            "zeta": [{"b": 1, "a": "x"}, null, true],
            "alpha": {"nested": {"y": 2.5, "x": -1}},
            "Upper": "s"
        }))
        .unwrap();
        let mut obj = async_graphql::indexmap::IndexMap::new();
        // Insertion order differs from sorted order on purpose.
        if let Value::Object(m) = &v {
            for k in ["zeta", "Upper", "alpha"] {
                obj.insert(Name::new(k), m[k].clone());
            }
        }
        let unsorted = Value::Object(obj);
        let via_value = serde_json::to_vec(&unsorted.clone().into_json().unwrap()).unwrap();
        let direct = serde_json::to_vec(&Sorted(&unsorted)).unwrap();
        assert_eq!(
            String::from_utf8(direct).unwrap(),
            String::from_utf8(via_value).unwrap()
        );

        // An answer keeps the selection's order in `data`.
        let mut resp = async_graphql::Response::new(unsorted);
        resp.extensions
            .insert("attribution".into(), Value::String("Data from …".into()));
        let direct = String::from_utf8(serde_json::to_vec(&Answer(&resp)).unwrap()).unwrap();
        assert!(
            direct
                .starts_with(r#"{"data":{"zeta":[{"a":"x","b":1},null,true],"Upper":"s","alpha""#),
            "{direct}"
        );
        assert!(
            direct.ends_with(r#""extensions":{"attribution":"Data from …"}}"#),
            "{direct}"
        );
    }

    #[test]
    fn rest_bytes_spell_a_vocabulary_value_as_it_is_stored() {
        let mut obj = async_graphql::indexmap::IndexMap::new();
        obj.insert(Name::new("kind"), Value::Enum(Name::new("FIRST_PARTY")));
        obj.insert(Name::new("name"), Value::String("FIRST_PARTY".into()));
        let direct = serde_json::to_string(&Sorted(&Value::Object(obj))).unwrap();
        assert_eq!(direct, r#"{"kind":"first_party","name":"FIRST_PARTY"}"#);
    }
}
