//! A JSON state document as [`super::json`] reads it: parsed by serde_json, but with what a
//! `serde_json::Value` loses kept (issue 26):
//! - a key that appears twice in one object is an error naming the second one (its JSON path,
//!   line, column and byte offset), not "the last one wins";
//! - numbers are kept as written, so that an integer beyond 64 bits (`18446744073709551616`)
//!   is reported exactly, not as the nearest double;
//! - text that is not UTF-8 is reported with the line, column and byte offset of the first
//!   bad byte.
//!
//! How: serde_json checks the whole document's syntax once, keeping every value as its raw
//! text (`RawValue`); objects and arrays are then split into their members the same way, one
//! level at a time. Every level reads the text below it again, so containers nested deeper
//! than [`MAX_DEPTH`] (more than a state ever needs) are refused: reading stays linear.

use super::json::JsonError;
use crate::quote::quote_str;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

/// Containers (objects and arrays) nest at most this deep. A state needs 4: the state object,
/// a register's object, its `channels` array and a channel's `[word, type, value]`.
pub const MAX_DEPTH: usize = 8;

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    /// A number as written (valid JSON number syntax).
    Num(Cow<'a, str>),
    Str(String),
    Arr(Vec<Json<'a>>),
    /// Members in document order; keys are unique.
    Obj(Obj<'a>),
}

/// An object's members in document order (keys unique).
pub type Obj<'a> = Vec<(String, Json<'a>)>;

/// What a number literal is as an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Int {
    /// An integer literal (no fraction, no exponent) and its value.
    Exact(i128),
    /// An integer literal beyond the 128-bit integers: out of range of every type.
    Huge,
    /// A fraction or an exponent: not an integer literal.
    NotInt,
}

/// The integer value of a number literal (`-0` is 0).
pub fn int_of(text: &str) -> Int {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Int::NotInt;
    }
    text.parse::<i128>().map_or(Int::Huge, Int::Exact)
}

impl<'a> Json<'a> {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Obj(m) => get(m, key),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Arr(a) => Some(a),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// The value of a serde_json value (numbers as serde_json writes them).
    pub fn from_value(v: &Value) -> Json<'static> {
        match v {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Num(Cow::Owned(n.to_string())),
            Value::String(s) => Json::Str(s.clone()),
            Value::Array(a) => Json::Arr(a.iter().map(Json::from_value).collect()),
            Value::Object(m) => Json::Obj(
                m.iter()
                    .map(|(k, v)| (k.clone(), Json::from_value(v)))
                    .collect(),
            ),
        }
    }
}

/// The member `key` of an object's members.
pub fn get<'o, 'a>(members: &'o Obj<'a>, key: &str) -> Option<&'o Json<'a>> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// The JSON path of member `key` of the value at `path`: `$.r2`, or `` $[`a b`] `` with the key
/// quoted ([`quote_str`]: escaped, a long key cut) when it is not a short plain name.
pub fn key_path(path: &str, key: &str) -> String {
    let plain = key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if plain && !key.is_empty() && key.len() <= crate::quote::QUOTE_CHARS {
        format!("{path}.{key}")
    } else {
        format!("{path}[{}]", quote_str(key))
    }
}

/// `line L, column C (byte offset O)` of byte `off` of `text` (line and column 1-based, the
/// column in bytes; the offset 0-based).
pub fn position(text: &[u8], off: usize) -> String {
    let before = &text[..off.min(text.len())];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    format!(
        "line {line}, column {} (byte offset {off})",
        before.len() - start + 1
    )
}

/// Parse a document given as bytes: the bytes must be UTF-8.
pub fn parse_bytes(bytes: &[u8]) -> Result<Json<'_>, JsonError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(e) => {
            let off = e.valid_up_to();
            Err(JsonError {
                path: "$".into(),
                msg: format!(
                    "not UTF-8 text: byte {:#04x} at {} is not part of a UTF-8 character \
                     (a state is UTF-8 JSON)",
                    bytes[off],
                    position(bytes, off)
                ),
            })
        }
    }
}

/// Parse a document.
pub fn parse(text: &str) -> Result<Json<'_>, JsonError> {
    let raw: &RawValue = serde_json::from_str(text).map_err(|e| JsonError {
        path: "$".into(),
        msg: format!("invalid JSON: {e}"),
    })?;
    Reader { doc: text }.value(raw, "$", 0)
}

struct Reader<'a> {
    doc: &'a str,
}

impl<'a> Reader<'a> {
    /// The byte offset of `part` (a slice of the document) in the document.
    fn offset(&self, part: &str) -> usize {
        (part.as_ptr() as usize).wrapping_sub(self.doc.as_ptr() as usize)
    }

    /// An error at `path` for what serde_json said about a piece it has already accepted as
    /// part of the whole document (not expected to happen).
    fn internal(&self, path: &str, part: &str, e: serde_json::Error) -> JsonError {
        JsonError {
            path: path.to_string(),
            msg: format!(
                "cannot read the value at {}: {e}",
                position(self.doc.as_bytes(), self.offset(part))
            ),
        }
    }

    fn value(&self, raw: &'a RawValue, path: &str, depth: usize) -> Result<Json<'a>, JsonError> {
        let t = raw.get();
        let container = matches!(t.as_bytes().first(), Some(b'{' | b'['));
        if container && depth >= MAX_DEPTH {
            return Err(JsonError {
                path: path.to_string(),
                msg: format!(
                    "objects and arrays nested more than {MAX_DEPTH} deep at {} (a state \
                     needs at most 4)",
                    position(self.doc.as_bytes(), self.offset(t))
                ),
            });
        }
        Ok(match t.as_bytes().first() {
            Some(b'{') => {
                let Members(members) =
                    serde_json::from_str(t).map_err(|e| self.internal(path, t, e))?;
                let mut seen = HashSet::with_capacity(members.len());
                for (k, v) in &members {
                    if !seen.insert(k.as_str()) {
                        return Err(self.duplicate(path, k, v));
                    }
                }
                let mut out = Vec::with_capacity(members.len());
                for (k, v) in members {
                    let child = self.value(v, &key_path(path, &k), depth + 1)?;
                    out.push((k, child));
                }
                Json::Obj(out)
            }
            Some(b'[') => {
                let items: Vec<&'a RawValue> =
                    serde_json::from_str(t).map_err(|e| self.internal(path, t, e))?;
                let mut out = Vec::with_capacity(items.len());
                for (i, v) in items.into_iter().enumerate() {
                    out.push(self.value(v, &format!("{path}[{i}]"), depth + 1)?);
                }
                Json::Arr(out)
            }
            Some(b'"') => {
                Json::Str(serde_json::from_str(t).map_err(|e| self.internal(path, t, e))?)
            }
            Some(b't') => Json::Bool(true),
            Some(b'f') => Json::Bool(false),
            Some(b'n') => Json::Null,
            _ => Json::Num(Cow::Borrowed(t)),
        })
    }

    /// The error of a second member `key` whose value is `v`: located at its key.
    fn duplicate(&self, path: &str, key: &str, v: &RawValue) -> JsonError {
        let at = key_start(self.doc.as_bytes(), self.offset(v.get()));
        JsonError {
            path: key_path(path, key),
            msg: format!(
                "duplicate key {} at {}: the object already has one (each key may appear once)",
                quote_str(key),
                position(self.doc.as_bytes(), at)
            ),
        }
    }
}

/// The offset of the opening quote of the key of the member whose value starts at `value`
/// (`"key" : value`); `value` itself when the text before it is not a key.
fn key_start(doc: &[u8], value: usize) -> usize {
    let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let mut i = value.min(doc.len());
    while i > 0 && blank(doc[i - 1]) {
        i -= 1;
    }
    if i == 0 || doc[i - 1] != b':' {
        return value;
    }
    i -= 1;
    while i > 0 && blank(doc[i - 1]) {
        i -= 1;
    }
    if i == 0 || doc[i - 1] != b'"' {
        return value;
    }
    // The closing quote is at i - 1: go back to the opening quote, the first `"` before it
    // that is not escaped (preceded by an even number of backslashes).
    let mut j = i - 1;
    while j > 0 {
        j -= 1;
        if doc[j] == b'"' {
            let slashes = doc[..j].iter().rev().take_while(|&&b| b == b'\\').count();
            if slashes % 2 == 0 {
                return j;
            }
        }
    }
    value
}

/// An object's members as raw values, in document order, duplicates kept.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Members<'de>, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = m.next_key::<String>()? {
                    let v: &'de RawValue = m.next_value()?;
                    out.push((k, v));
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> Json<'_> {
        Json::Num(Cow::Borrowed(s))
    }

    #[test]
    fn values_in_document_order_with_numbers_as_written() {
        let doc = r#" {"b": [1, -2, 18446744073709551616, 1.50, 1e400], "a": {"x": null, "y": true},
                      "c": "t\u00e9\n"} "#;
        let j = parse(doc).unwrap();
        let Json::Obj(m) = &j else { panic!("{j:?}") };
        let keys: Vec<&str> = m.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["b", "a", "c"]);
        assert_eq!(
            j.get("b").unwrap(),
            &Json::Arr(vec![
                num("1"),
                num("-2"),
                num("18446744073709551616"),
                num("1.50"),
                num("1e400")
            ])
        );
        assert_eq!(
            j.get("a").unwrap(),
            &Json::Obj(vec![
                ("x".into(), Json::Null),
                ("y".into(), Json::Bool(true))
            ])
        );
        assert_eq!(j.get("c").unwrap().as_str(), Some("té\n"));
    }

    #[test]
    fn integer_literals() {
        assert_eq!(int_of("0"), Int::Exact(0));
        assert_eq!(int_of("-0"), Int::Exact(0));
        assert_eq!(int_of("18446744073709551616"), Int::Exact(1 << 64));
        assert_eq!(int_of("-9223372036854775809"), Int::Exact(-(1 << 63) - 1));
        assert_eq!(int_of(&"9".repeat(40)), Int::Huge);
        assert_eq!(int_of("1.0"), Int::NotInt);
        assert_eq!(int_of("1e3"), Int::NotInt);
    }

    #[test]
    fn a_second_key_is_an_error_at_its_place() {
        let doc = "{\n  \"r2\": \"00\",\n  \"r2\" : \"11\"\n}";
        let e = parse(doc).unwrap_err();
        assert_eq!(e.path, "$.r2");
        assert!(
            e.msg.contains("line 3, column 3 (byte offset 18)"),
            "{}",
            e.msg
        );
        // Nested, with an escaped quote in the key.
        let doc = r#"{"r3": {"type": "f", "values": [], "k\"": 1, "k\"": 2}}"#;
        let e = parse(doc).unwrap_err();
        assert_eq!(e.path, "$.r3[`k\"`]");
        let at = doc.rfind(r#""k\"""#).unwrap();
        assert!(
            e.msg.contains(&format!("(byte offset {at})")),
            "{at}: {}",
            e.msg
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_located() {
        let e = parse_bytes(b"{\"r2\":\n \"0\xff\"}").unwrap_err();
        assert_eq!(e.path, "$");
        assert!(
            e.msg
                .contains("byte 0xff at line 2, column 4 (byte offset 10)"),
            "{}",
            e.msg
        );
    }

    #[test]
    fn deep_nesting_is_refused_with_its_place() {
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        let e = parse(&deep).unwrap_err();
        assert_eq!(e.path, format!("${}", "[0]".repeat(MAX_DEPTH)));
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
    }
}
