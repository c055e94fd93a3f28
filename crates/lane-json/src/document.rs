//! The JSON layer under report parsing: an order-preserving document tree,
//! JSON paths for error messages, and typed accessors that refuse what a
//! mint report must never hold (NaN, negative or implausible durations,
//! wrong types).
//!
//! Why not `serde_json::Value`: its maps are sorted (phase order is part of a
//! report's meaning, `load` before `warmup_forward`), it silently keeps the
//! last of two duplicate keys, and it cannot say *where* a bad value sits.
//! Every accessor here carries the [`JsonPath`] of what it reads, and an
//! `Obj` remembers which keys were read so the rest can be reported as
//! unknown instead of being dropped.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Serialize;
use std::fmt;

use crate::JsonError;

/// The largest duration accepted as a measurement, in seconds (about 116
/// days). Larger values are refused as implausible: no mint runs that long,
/// and a value like `1e300` is a unit or encoding bug, not a timing.
pub const MAX_SECONDS: f64 = 1.0e7;

/// A location inside a JSON document, written the JSONPath way:
/// `$.mint_phases.totals.warm_wall_s`, `$.mint_phases.jobs[3].wall_s`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct JsonPath(String);

impl JsonPath {
    /// The document root, `$`.
    pub fn root() -> Self {
        JsonPath("$".to_owned())
    }

    /// The path of member `key` of the object at `self`.
    pub fn key(&self, key: &str) -> Self {
        let plain = !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if plain {
            JsonPath(format!("{}.{}", self.0, key))
        } else {
            // Quoted like a JSON string so dots and brackets stay unambiguous.
            let quoted = serde_json::to_string(key).unwrap_or_else(|_| format!("{key:?}"));
            JsonPath(format!("{}[{}]", self.0, quoted))
        }
    }

    /// The path of element `index` of the array at `self`.
    pub fn index(&self, index: usize) -> Self {
        JsonPath(format!("{}[{}]", self.0, index))
    }

    /// The path as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A key lane does not know, kept with its value as written: reports come
/// from many upstream versions, so an unknown key is news, never an error,
/// and never read as seconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnknownKey {
    /// Where it sits.
    pub path: JsonPath,
    /// Its value, as written (objects lose their key order).
    pub value: serde_json::Value,
}

impl UnknownKey {
    /// The key at `path`, with its value kept as written.
    pub fn new(path: JsonPath, node: &Node) -> Self {
        UnknownKey {
            path,
            value: node.to_json(),
        }
    }
}

/// One parsed JSON value, objects kept in document order.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A non-negative integer.
    U64(u64),
    /// A negative integer.
    I64(i64),
    /// Any other number.
    F64(f64),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Node>),
    /// An object, its members in document order (duplicates refused).
    Object(Vec<(String, Node)>),
}

impl Node {
    /// The JSON type, as an error message names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "a boolean",
            Node::U64(_) | Node::I64(_) | Node::F64(_) => "a number",
            Node::Str(_) => "a string",
            Node::Array(_) => "an array",
            Node::Object(_) => "an object",
        }
    }

    /// The value as `f64` when it is a number.
    pub fn number(&self) -> Option<f64> {
        match *self {
            Node::U64(v) => Some(v as f64),
            Node::I64(v) => Some(v as f64),
            Node::F64(v) => Some(v),
            _ => None,
        }
    }

    /// The value as a `serde_json::Value` (for keeping unknown keys).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::U64(v) => Value::from(*v),
            Node::I64(v) => Value::from(*v),
            // Parsed numbers are finite; a non-finite one could only be a
            // bug upstream of here, and null says "no number" honestly.
            Node::F64(v) => serde_json::Number::from_f64(*v).map_or(Value::Null, Value::Number),
            Node::Str(s) => Value::String(s.clone()),
            Node::Array(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            Node::Object(fields) => Value::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_json()))
                    .collect(),
            ),
        }
    }

    /// The members when the value is an object.
    #[cfg(test)]
    pub fn as_object(&self) -> Option<&[(String, Node)]> {
        match self {
            Node::Object(fields) => Some(fields),
            _ => None,
        }
    }

    /// True for `{}` and `null`: "nothing recorded".
    pub fn is_empty_or_null(&self) -> bool {
        match self {
            Node::Null => true,
            Node::Object(fields) => fields.is_empty(),
            _ => false,
        }
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::U64(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::I64(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        Ok(Node::F64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Node>()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut fields: Vec<(String, Node)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            // serde_json::Value keeps the last of two equal keys; a report
            // that says two things about one field says nothing reliable.
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format_args!("duplicate key `{key}`")));
            }
            let value = map.next_value::<Node>()?;
            fields.push((key, value));
        }
        Ok(Node::Object(fields))
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Node, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

/// Parses a whole document, mapping every failure to a [`JsonError`] with
/// a line and column or a JSON path.
pub fn parse_document(bytes: &[u8]) -> Result<Node, JsonError> {
    match serde_json::from_slice::<Node>(bytes) {
        Ok(node) => Ok(node),
        Err(err) => Err(classify(bytes, err)),
    }
}

fn classify(bytes: &[u8], err: serde_json::Error) -> JsonError {
    use serde_json::error::Category;
    let (line, column) = (err.line(), err.column());
    if err.classify() == Category::Eof {
        return JsonError::Truncated {
            line,
            column,
            source: err,
        };
    }
    if err.to_string().contains("recursion limit exceeded") {
        return JsonError::TooDeep {
            line,
            column,
            source: err,
        };
    }
    if err.classify() == Category::Syntax {
        if let Some(found) = locate_non_finite(bytes) {
            return found;
        }
    }
    // Some Windows tools start a file with a UTF-8 byte-order mark; JSON
    // (RFC 8259 §8.1) must not, and serde's "expected value" does not say why.
    if line == 1 && bytes.starts_with(b"\xef\xbb\xbf") {
        return JsonError::Syntax {
            line,
            column,
            reason: "the file starts with a byte-order mark (U+FEFF), which JSON does not allow: save it as UTF-8 without one".into(),
            source: err,
        };
    }
    JsonError::Syntax {
        line,
        column,
        reason: parser_reason(&err),
        source: err,
    }
}

/// serde_json's message without its trailing ` at line L column C`.
fn parser_reason(err: &serde_json::Error) -> String {
    let text = err.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// Marker that replaces a bare non-finite token so the document parses and
/// the token's JSON path can be found. A NUL cannot start a real report
/// string that also reaches here, and a false hit only changes which error
/// is reported, never whether one is.
const NON_FINITE_MARK: char = '\u{0}';

/// Finds the first bare `NaN`/`Infinity`/`-Infinity` and its JSON path, or
/// `None` when the syntax error is something else.
fn locate_non_finite(bytes: &[u8]) -> Option<JsonError> {
    let masked = mask_non_finite(bytes)?;
    let node = serde_json::from_slice::<Node>(&masked).ok()?;
    find_marker(&node, &JsonPath::root())
}

fn mask_non_finite(bytes: &[u8]) -> Option<Vec<u8>> {
    const TOKENS: [&[u8]; 3] = [b"-Infinity", b"Infinity", b"NaN"];
    let mut out = Vec::with_capacity(bytes.len() + 32);
    let mut in_string = false;
    let mut escaped = false;
    let mut replaced = false;
    let mut last_significant = b' ';
    let mut i = 0;
    'outer: while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
                last_significant = b'"';
            }
            i += 1;
            continue;
        }
        if b == b'"' {
            in_string = true;
            out.push(b);
            i += 1;
            continue;
        }
        if matches!(last_significant, b':' | b'[' | b',') || i == 0 || last_significant == b' ' {
            for token in TOKENS {
                if bytes[i..].starts_with(token) {
                    out.extend_from_slice(b"\"\\u0000");
                    out.extend_from_slice(token);
                    out.push(b'"');
                    i += token.len();
                    replaced = true;
                    last_significant = b'"';
                    continue 'outer;
                }
            }
        }
        if !b.is_ascii_whitespace() {
            last_significant = b;
        }
        out.push(b);
        i += 1;
    }
    replaced.then_some(out)
}

fn find_marker(node: &Node, path: &JsonPath) -> Option<JsonError> {
    match node {
        Node::Str(s) if s.starts_with(NON_FINITE_MARK) => Some(JsonError::NonFinite {
            path: path.clone(),
            token: s[NON_FINITE_MARK.len_utf8()..].to_owned(),
        }),
        Node::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| find_marker(item, &path.index(i))),
        Node::Object(fields) => fields
            .iter()
            .find_map(|(k, v)| find_marker(v, &path.key(k))),
        _ => None,
    }
}

/// An object being read: hands out members by key and remembers which were
/// read, so the unread ones can be reported as unknown keys.
/// An object being read: every accessor takes a member by key and names
/// its path; the members nobody took are reported as unknown keys.
pub struct Obj<'a> {
    fields: &'a [(String, Node)],
    used: Vec<bool>,
    /// Where the object sits.
    pub path: JsonPath,
}

impl<'a> Obj<'a> {
    /// Reads `node` as an object; `null` is "absent".
    pub fn of(node: &'a Node, path: JsonPath) -> Result<Option<Obj<'a>>, JsonError> {
        match node {
            Node::Null => Ok(None),
            Node::Object(fields) => Ok(Some(Obj {
                fields,
                used: vec![false; fields.len()],
                path,
            })),
            other => Err(JsonError::WrongType {
                path,
                expected: "an object",
                found: other.kind(),
            }),
        }
    }

    /// Takes member `key` (marking it read) with its path.
    pub fn take(&mut self, key: &str) -> Option<(&'a Node, JsonPath)> {
        let i = self.fields.iter().position(|(k, _)| k == key)?;
        self.used[i] = true;
        Some((&self.fields[i].1, self.path.key(key)))
    }

    /// True when member `key` exists (does not mark it read).
    pub fn has(&self, key: &str) -> bool {
        self.fields.iter().any(|(k, _)| k == key)
    }

    /// The members not read yet, in document order, marking them read.
    pub fn take_rest(&mut self) -> Vec<(&'a str, &'a Node, JsonPath)> {
        let mut rest = Vec::new();
        for (i, (k, v)) in self.fields.iter().enumerate() {
            if !self.used[i] {
                self.used[i] = true;
                rest.push((k.as_str(), v, self.path.key(k)));
            }
        }
        rest
    }

    /// Reports every member never read as an unknown key, with its value.
    pub fn finish(self, unknown: &mut Vec<UnknownKey>) {
        for (i, (k, v)) in self.fields.iter().enumerate() {
            if !self.used[i] {
                unknown.push(UnknownKey::new(self.path.key(k), v));
            }
        }
    }

    /// Member `key` as seconds (`>= 0`), absent when missing or `null`.
    pub fn seconds(&mut self, key: &str) -> Result<Option<f64>, JsonError> {
        match self.take(key) {
            Some((node, path)) => seconds(node, &path),
            None => Ok(None),
        }
    }

    /// Member `key` as signed seconds (a residual), absent when missing or `null`.
    pub fn signed_seconds(&mut self, key: &str) -> Result<Option<f64>, JsonError> {
        match self.take(key) {
            Some((node, path)) => signed_seconds(node, &path),
            None => Ok(None),
        }
    }

    /// Member `key` as a count.
    pub fn count(&mut self, key: &str) -> Result<Option<u64>, JsonError> {
        match self.take(key) {
            Some((node, path)) => count(node, &path),
            None => Ok(None),
        }
    }

    /// Member `key` as a string.
    pub fn string(&mut self, key: &str) -> Result<Option<String>, JsonError> {
        match self.take(key) {
            Some((node, path)) => string(node, &path),
            None => Ok(None),
        }
    }

    /// Member `key` as a boolean.
    pub fn boolean(&mut self, key: &str) -> Result<Option<bool>, JsonError> {
        match self.take(key) {
            Some((Node::Null, _)) | None => Ok(None),
            Some((Node::Bool(b), _)) => Ok(Some(*b)),
            Some((other, path)) => Err(JsonError::WrongType {
                path,
                expected: "a boolean",
                found: other.kind(),
            }),
        }
    }
}

/// A number of seconds: finite, `>= 0`, at most [`MAX_SECONDS`]; `null` is absent.
pub fn seconds(node: &Node, path: &JsonPath) -> Result<Option<f64>, JsonError> {
    match signed_seconds(node, path)? {
        Some(v) if v < 0.0 => Err(JsonError::NegativeDuration {
            path: path.clone(),
            value: v,
        }),
        other => Ok(other),
    }
}

/// A signed number of seconds (residuals may be negative); `null` is absent.
pub fn signed_seconds(node: &Node, path: &JsonPath) -> Result<Option<f64>, JsonError> {
    if let Node::Null = node {
        return Ok(None);
    }
    let Some(v) = node.number() else {
        return Err(JsonError::WrongType {
            path: path.clone(),
            expected: "a number of seconds",
            found: node.kind(),
        });
    };
    if !v.is_finite() || v.abs() > MAX_SECONDS {
        return Err(JsonError::ImplausibleDuration {
            path: path.clone(),
            value: v,
            limit: MAX_SECONDS,
        });
    }
    // `-0.0` reads as zero, not as a negative residual.
    Ok(Some(if v == 0.0 { 0.0 } else { v }))
}

/// A non-negative integer; `null` is absent.
pub fn count(node: &Node, path: &JsonPath) -> Result<Option<u64>, JsonError> {
    match *node {
        Node::Null => Ok(None),
        Node::U64(v) => Ok(Some(v)),
        Node::I64(v) => Err(JsonError::NotACount {
            path: path.clone(),
            value: v.to_string(),
        }),
        Node::F64(v) => {
            if v.fract() == 0.0 && (0.0..=9.0e15).contains(&v) {
                Ok(Some(v as u64))
            } else {
                Err(JsonError::NotACount {
                    path: path.clone(),
                    value: v.to_string(),
                })
            }
        }
        ref other => Err(JsonError::WrongType {
            path: path.clone(),
            expected: "a non-negative integer",
            found: other.kind(),
        }),
    }
}

/// A string; `null` is absent.
pub fn string(node: &Node, path: &JsonPath) -> Result<Option<String>, JsonError> {
    match node {
        Node::Null => Ok(None),
        Node::Str(s) => Ok(Some(s.clone())),
        other => Err(JsonError::WrongType {
            path: path.clone(),
            expected: "a string",
            found: other.kind(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: a report saved with a byte-order mark said only
    /// "invalid JSON at line 1, column 1: expected value".
    #[test]
    fn a_byte_order_mark_is_named_as_the_cause() {
        let err = parse_document(b"\xef\xbb\xbf{\"status\": \"minted\"}").unwrap_err();
        assert!(
            err.to_string().contains("byte-order mark (U+FEFF)"),
            "{err}"
        );
        // Duplicate keys and numbers out of range already say their cause.
        let dup = parse_document(br#"{"a": 1, "a": 2}"#).unwrap_err();
        assert!(dup.to_string().contains("duplicate key `a`"), "{dup}");
        let big = parse_document(br#"{"a": 1e400}"#).unwrap_err();
        assert!(big.to_string().contains("number out of range"), "{big}");
    }

    #[test]
    fn keeps_document_order_and_refuses_duplicate_keys() {
        let node = parse_document(br#"{"b": 1, "a": 2}"#).unwrap();
        let keys: Vec<_> = node
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, _)| k.clone())
            .collect();
        assert_eq!(keys, ["b", "a"]);
        let err = parse_document(br#"{"a": 1, "a": 2}"#).unwrap_err();
        assert!(err.to_string().contains("invalid JSON"), "{err}");
        assert!(std::error::Error::source(&err)
            .unwrap()
            .to_string()
            .contains("duplicate key"));
    }

    #[test]
    fn bare_nan_is_named_by_path() {
        let err =
            parse_document(br#"{"mint_phases": {"totals": {"warm_wall_s": NaN}}}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "$.mint_phases.totals.warm_wall_s: NaN is not a measurement (an unmeasured value must be omitted)"
        );
        let err = parse_document(br#"{"jobs": [1, -Infinity]}"#).unwrap_err();
        assert!(err.to_string().starts_with("$.jobs[1]: -Infinity"), "{err}");
    }

    #[test]
    fn nan_inside_a_string_is_not_a_number() {
        let node = parse_document(br#"{"detail": "NaN seen", "x": 1}"#).unwrap();
        assert_eq!(node.as_object().unwrap().len(), 2);
        // A syntax error elsewhere is not blamed on a string that says NaN.
        let err = parse_document(br#"{"detail": "NaN", "x": }"#).unwrap_err();
        assert!(matches!(err, JsonError::Syntax { .. }), "{err}");
    }

    #[test]
    fn truncated_and_deep_inputs_are_named() {
        assert!(matches!(
            parse_document(br#"{"a": {"b": 1"#).unwrap_err(),
            JsonError::Truncated { .. }
        ));
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(matches!(
            parse_document(deep.as_bytes()).unwrap_err(),
            JsonError::TooDeep { .. }
        ));
    }

    #[test]
    fn seconds_refuse_negative_huge_and_wrong_types() {
        let p = JsonPath::root().key("x");
        assert!(matches!(
            seconds(&Node::F64(-1.0), &p),
            Err(JsonError::NegativeDuration { .. })
        ));
        assert!(matches!(
            seconds(&Node::F64(1e300), &p),
            Err(JsonError::ImplausibleDuration { .. })
        ));
        assert!(matches!(
            seconds(&Node::Str("1".into()), &p),
            Err(JsonError::WrongType { .. })
        ));
        assert_eq!(seconds(&Node::Null, &p).unwrap(), None);
        assert_eq!(signed_seconds(&Node::F64(-0.5), &p).unwrap(), Some(-0.5));
    }

    #[test]
    fn paths_quote_odd_keys() {
        let p = JsonPath::root().key("raw").key("a.b c").index(2);
        assert_eq!(p.as_str(), r#"$.raw["a.b c"][2]"#);
    }
}
