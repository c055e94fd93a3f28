//! Rules on a field and its counterpart: the field of the same number in
//! the message of the same full name, or the extension of the same
//! extendee and number. Its type, cardinality, names, oneof, default and
//! the options generated code reads.

use prost_reflect::prost_types::field_options::CType;
use prost_reflect::{Kind, Syntax, Value};

use super::Out;
use crate::index::{Field, Index};
use crate::model::RuleId;

pub(super) fn check(before: &Index, after: &Index, out: &mut Out) {
    for (name, previous) in &before.messages {
        let Some(message) = after.messages.get(name) else {
            continue;
        };
        for was in previous.fields() {
            if let Some(now) = message.get_field(was.number()) {
                pair(&Field::Message(was), &Field::Message(now), out);
            }
        }
    }
    let now = after.extensions_by_extendee();
    for (key, was) in before.extensions_by_extendee() {
        if let Some(field) = now.get(&key) {
            pair(&was, field, out);
        }
    }
}

fn pair(was: &Field, now: &Field, out: &mut Out) {
    let file = now.file().name().to_owned();
    let element = now.full_name().to_owned();
    let mut add = |rule, message: String| out.add(rule, &file, &element, message);
    let description = now.description();

    // cardinality (map entries' own fields are generated: skipped)
    if !(was.in_map_entry() && now.in_map_entry()) {
        let (c_was, c_now) = (was.cardinality(), now.cardinality());
        let changed = format!(
            "{description} changed cardinality from {:?} to {:?}.",
            c_was.as_str(),
            c_now.as_str()
        );
        if c_was != c_now {
            add(RuleId::FieldSameCardinality, changed.clone());
        }
        if c_was.wire_group() != c_now.wire_group() {
            add(RuleId::FieldWireCompatibleCardinality, changed.clone());
        }
        if c_was.wire_json_group() != c_now.wire_json_group() {
            add(RuleId::FieldWireJsonCompatibleCardinality, changed);
        }
    }

    // type
    let type_changed = |extra: &str| {
        format!(
            "{description} changed type from {:?} to {:?}.{extra}",
            was.kind_name(),
            now.kind_name()
        )
    };
    let name_changed = format!(
        "{description} changed type from {:?} to {:?}.",
        was.type_name().unwrap_or_default(),
        now.type_name().unwrap_or_default()
    );
    let same_kind = was.kind_name() == now.kind_name();
    let same_type_name = was.type_name() == now.type_name();
    if !same_kind {
        add(RuleId::FieldSameType, type_changed(""));
    } else if !same_type_name {
        add(RuleId::FieldSameType, name_changed.clone());
    }
    const WIRE_RULES: &str =
        " See https://developers.google.com/protocol-buffers/docs/proto3#updating for wire compatibility rules.";
    match (wire_group(was.kind_name()), wire_group(now.kind_name())) {
        (a, b) if a != b => match (was.kind_name(), now.kind_name()) {
            ("string", "bytes") => {}
            ("bytes", "string") => add(
                RuleId::FieldWireCompatibleType,
                type_changed(&format!("{WIRE_RULES} Note that while string and bytes are compatible if the data is valid UTF-8, there is no way to enforce that a bytes field is UTF-8, so these fields may be incompatible.")),
            ),
            _ => add(RuleId::FieldWireCompatibleType, type_changed(WIRE_RULES)),
        },
        _ if !same_type_name && !same_enum(was, now) => {
            add(RuleId::FieldWireCompatibleType, name_changed.clone());
        }
        _ => {}
    }
    if wire_json_group(was.kind_name()) != wire_json_group(now.kind_name()) {
        add(
            RuleId::FieldWireJsonCompatibleType,
            type_changed(" See https://developers.google.com/protocol-buffers/docs/proto3#updating for wire compatibility rules and https://developers.google.com/protocol-buffers/docs/proto3#json for JSON compatibility rules."),
        );
    } else if !same_type_name && !same_enum(was, now) {
        add(RuleId::FieldWireJsonCompatibleType, name_changed);
    }

    // names
    if !was.is_extension() && was.json_name() != now.json_name() {
        add(
            RuleId::FieldSameJsonName,
            format!(
                "{description} changed option \"json_name\" from {:?} to {:?}.",
                was.json_name(),
                now.json_name()
            ),
        );
    }
    let (name_was, name_now) = if was.is_extension() {
        (was.full_name(), now.full_name())
    } else {
        (was.name(), now.name())
    };
    if name_was != name_now {
        add(
            RuleId::FieldSameName,
            format!(
                "{} changed name from {name_was:?} to {name_now:?}.",
                now.description_with_name(None)
            ),
        );
    }

    // oneof
    if !was.is_extension() {
        match (was.real_oneof(), now.real_oneof()) {
            (Some(a), Some(b)) if a.name() != b.name() => add(
                RuleId::FieldSameOneof,
                format!(
                    "{description} moved from oneof {:?} to oneof {:?}.",
                    a.name(),
                    b.name()
                ),
            ),
            (Some(_), None) => add(
                RuleId::FieldSameOneof,
                format!("{description} moved from inside to outside a oneof."),
            ),
            (None, Some(_)) => add(
                RuleId::FieldSameOneof,
                format!("{description} moved from outside to inside a oneof."),
            ),
            _ => {}
        }
    }

    // default
    if let (Some(d_was), Some(d_now)) = (default(was), default(now)) {
        let both_unset = d_was.is_zero() && d_now.is_zero();
        if !both_unset && !d_was.same(&d_now) {
            add(
                RuleId::FieldSameDefault,
                format!(
                    "{description} changed default value from {} to {}.",
                    d_was.show, d_now.show
                ),
            );
        }
    }

    // what generated code reads
    let strings = |f: &Field| matches!(f.kind(), Kind::String | Kind::Bytes);
    if !(was.in_map_entry() && now.in_map_entry()) && strings(was) && strings(now) {
        let (t_was, t_now) = (cpp_string_type(was), cpp_string_type(now));
        if t_was != t_now && !(t_was == "STRING_PIECE" && t_now == "STRING") {
            add(
                RuleId::FieldSameCppStringType,
                format!("{description} changed C++ string type from {t_was:?} to {t_now:?}."),
            );
        }
    }
    if matches!(was.kind(), Kind::String) && matches!(now.kind(), Kind::String) {
        let (j_was, j_now) = (java_utf8(was), java_utf8(now));
        if j_was != j_now {
            add(
                RuleId::FieldSameJavaUtf8Validation,
                format!("{description} changed Java string UTF8 validation from {j_was:?} to {j_now:?}."),
            );
        }
        let (u_was, u_now) = (utf8(was), utf8(now));
        if u_was != u_now {
            add(
                RuleId::FieldSameUtf8Validation,
                format!("{description} changed UTF8 validation from {u_was} to {u_now}."),
            );
        }
    }
    if was.is_64bit_integer() && now.is_64bit_integer() {
        let js = |f: &Field| {
            f.proto().options.as_ref().map_or(
                prost_reflect::prost_types::field_options::JsType::JsNormal,
                |o| o.jstype(),
            )
        };
        if js(was) != js(now) {
            add(
                RuleId::FieldSameJstype,
                format!(
                    "{description} changed option \"jstype\" from {:?} to {:?}.",
                    js(was).as_str_name(),
                    js(now).as_str_name()
                ),
            );
        }
    }
}

/// Whether an enum field's new enum is the old one by another full name:
/// the same short name and every old value, by name, at its number (buf
/// lets values be added in the same change).
fn same_enum(was: &Field, now: &Field) -> bool {
    match (was.kind(), now.kind()) {
        (Kind::Enum(a), Kind::Enum(b)) => {
            a.name() == b.name()
                && a.values().all(|v| {
                    b.get_value_by_name(v.name())
                        .is_some_and(|w| w.number() == v.number())
                })
        }
        _ => false,
    }
}

/// Kinds the binary encoding cannot tell apart, by buf's table.
fn wire_group(kind: &str) -> u8 {
    match kind {
        "int32" | "int64" | "uint32" | "uint64" | "bool" => 1,
        "sint32" | "sint64" => 2,
        "string" => 3,
        "bytes" => 4,
        "fixed32" | "sfixed32" => 5,
        "fixed64" | "sfixed64" => 6,
        "double" => 7,
        "float" => 8,
        "group" => 9,
        "message" => 10,
        _ => 11,
    }
}

/// Kinds neither the binary nor the JSON encoding can tell apart.
fn wire_json_group(kind: &str) -> u8 {
    match kind {
        "int32" | "uint32" => 1,
        "int64" | "uint64" => 2,
        "fixed32" | "sfixed32" => 3,
        "fixed64" | "sfixed64" => 4,
        "bool" => 5,
        "sint32" => 6,
        "sint64" => 7,
        "string" => 8,
        "bytes" => 9,
        "double" => 10,
        "float" => 11,
        "group" => 12,
        "message" => 13,
        _ => 14,
    }
}

fn cpp_string_type(f: &Field) -> &'static str {
    match f
        .proto()
        .options
        .as_ref()
        .and_then(|o| o.ctype.map(|_| o.ctype()))
    {
        Some(CType::Cord) => "CORD",
        Some(CType::StringPiece) => "STRING_PIECE",
        _ => "STRING",
    }
}

/// A string field's UTF-8 validation by its file's syntax.
fn utf8(f: &Field) -> &'static str {
    match f.syntax() {
        Syntax::Proto2 => "NONE",
        Syntax::Proto3 => "VERIFY",
    }
}

fn java_utf8(f: &Field) -> &'static str {
    let check = f
        .file()
        .file_descriptor_proto()
        .options
        .as_ref()
        .is_some_and(|o| o.java_string_check_utf8());
    if check {
        "VERIFY"
    } else {
        utf8(f)
    }
}

/// A field's default as buf compares it: text and bytes as bytes, every
/// number (bool and enum numbers included) as a number.
struct Default {
    value: DefaultValue,
    show: String,
}

enum DefaultValue {
    Bytes(Vec<u8>),
    Int(i128),
    Float32(f32),
    Float(f64),
}

impl Default {
    fn is_zero(&self) -> bool {
        match &self.value {
            DefaultValue::Bytes(b) => b.is_empty(),
            DefaultValue::Int(i) => *i == 0,
            DefaultValue::Float32(f) => f.to_bits() == 0,
            DefaultValue::Float(f) => f.to_bits() == 0,
        }
    }

    fn same(&self, other: &Default) -> bool {
        use DefaultValue::*;
        match (&self.value, &other.value) {
            (Bytes(a), Bytes(b)) => a == b,
            (Bytes(_), _) | (_, Bytes(_)) => false,
            (Int(a), Int(b)) => a == b,
            // float against double: compared as float, as buf does
            (Float32(a), Float(b)) | (Float(b), Float32(a)) => {
                (a.is_nan() && b.is_nan()) || *a == *b as f32
            }
            (Float32(a), Float32(b)) => (a.is_nan() && b.is_nan()) || a == b,
            (Float(a), Float(b)) => (a.is_nan() && b.is_nan()) || a == b,
            (Int(i), Float32(f)) | (Float32(f), Int(i)) => exact(f64::from(*f), *i),
            (Int(i), Float(f)) | (Float(f), Int(i)) => exact(*f, *i),
        }
    }
}

/// Whether a float is exactly an integer.
fn exact(f: f64, i: i128) -> bool {
    f.is_finite() && f.fract() == 0.0 && (f as i128) == i && (i as f64) == f
}

/// The default of a field that can have one (not repeated, map or
/// message).
fn default(f: &Field) -> Option<Default> {
    if f.is_list() || f.is_map() || matches!(f.kind(), Kind::Message(_)) {
        return None;
    }
    let (value, show) = match f.default_value() {
        Value::Bool(b) => (DefaultValue::Int(i128::from(b)), b.to_string()),
        Value::I32(n) => (DefaultValue::Int(n.into()), n.to_string()),
        Value::I64(n) => (DefaultValue::Int(n.into()), n.to_string()),
        Value::U32(n) => (DefaultValue::Int(n.into()), n.to_string()),
        Value::U64(n) => (DefaultValue::Int(n.into()), n.to_string()),
        Value::F32(x) => (DefaultValue::Float32(x), x.to_string()),
        Value::F64(x) => (DefaultValue::Float(x), x.to_string()),
        Value::String(s) => {
            let show = format!("{s:?}");
            (DefaultValue::Bytes(s.into_bytes()), show)
        }
        Value::Bytes(b) => {
            let show = format!(
                "[{}]",
                b.iter()
                    .map(|x| format!("0x{x:X}"))
                    .collect::<Vec<_>>()
                    .join(",")
            );
            (DefaultValue::Bytes(b.to_vec()), show)
        }
        Value::EnumNumber(n) => {
            let show = match f.kind() {
                Kind::Enum(e) => match e.get_value(n) {
                    Some(v) => format!("{}.{}", e.name(), v.name()),
                    None => format!("{}.{n}(?)", e.name()),
                },
                _ => n.to_string(),
            };
            (DefaultValue::Int(n.into()), show)
        }
        Value::Message(_) | Value::List(_) | Value::Map(_) => return None,
    };
    Some(Default { value, show })
}
