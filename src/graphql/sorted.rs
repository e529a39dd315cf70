//! GraphQL values written as JSON with every object's keys in sorted order, straight from
//! the engine's values: the same query always gives the same bytes (so ETags hold, although
//! the engine may emit the fields of merged fragments in varying order), without first
//! copying the whole answer into a `serde_json::Value` tree to sort it.

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
            other => other.serialize(s),
        }
    }
}

/// A GraphQL answer without errors, as `{"data", "extensions"?}` with sorted keys: the
/// bytes `serde_json` gives for the engine's response after sorting it as a JSON value.
pub struct Answer<'a>(pub &'a async_graphql::Response);

impl Serialize for Answer<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let resp = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("data", &Sorted(&resp.data))?;
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
    fn bytes_equal_those_of_a_sorted_json_value() {
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

        let mut resp = async_graphql::Response::new(unsorted);
        resp.extensions
            .insert("attribution".into(), Value::String("Data from …".into()));
        let via_value = serde_json::to_vec(&serde_json::to_value(&resp).unwrap()).unwrap();
        let direct = serde_json::to_vec(&Answer(&resp)).unwrap();
        assert_eq!(
            String::from_utf8(direct).unwrap(),
            String::from_utf8(via_value).unwrap()
        );
    }
}
