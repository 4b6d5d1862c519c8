//! JSON objects of strings read as maps that refuse a key given twice. serde's own map reading
//! keeps the last value silently; a vector or request naming a register twice is ambiguous,
//! and the fast readers of the checker and of `euref sim` refuse it too (issue 26).

use serde::de::{Deserializer, Error, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;

/// `#[serde(deserialize_with = "unique_keys")]` for a `BTreeMap<String, String>`.
pub fn unique_keys<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    d.deserialize_map(Unique)
}

struct Unique;

impl<'de> Visitor<'de> for Unique {
    type Value = BTreeMap<String, String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of register names and hex strings")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        let mut out = BTreeMap::new();
        while let Some((k, v)) = m.next_entry::<String, String>()? {
            if out.contains_key(&k) {
                return Err(A::Error::custom(format!("register `{k}` given twice")));
            }
            out.insert(k, v);
        }
        Ok(out)
    }
}

/// The first name given twice in `names` (None: all distinct). Names written in ascending
/// order (as every writer of vectors and requests writes them) are decided in one pass.
pub fn repeated_name<'k>(names: impl Iterator<Item = &'k str> + Clone) -> Option<&'k str> {
    let mut prev: Option<&str> = None;
    let ascending = names.clone().all(|k| {
        let up = prev.map_or(true, |p| p < k);
        prev = Some(k);
        up
    });
    if ascending {
        return None;
    }
    let mut all: Vec<&str> = names.collect();
    all.sort_unstable();
    all.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_given_twice_is_refused() {
        let read = |t: &str| -> Result<BTreeMap<String, String>, String> {
            let mut d = serde_json::Deserializer::from_str(t);
            unique_keys(&mut d).map_err(|e| e.to_string())
        };
        assert_eq!(read(r#"{"r2":"00","r1":"01"}"#).unwrap().len(), 2);
        let e = read(r#"{"r2":"00","r1":"01","r2":"02"}"#).unwrap_err();
        assert!(e.contains("register `r2` given twice"), "{e}");
    }

    #[test]
    fn repeated_names_are_found_in_any_order() {
        assert_eq!(repeated_name(["a", "b", "c"].into_iter()), None);
        assert_eq!(repeated_name(["c", "a", "b"].into_iter()), None);
        assert_eq!(repeated_name(["a", "b", "a"].into_iter()), Some("a"));
        assert_eq!(repeated_name(["b", "b"].into_iter()), Some("b"));
    }
}
