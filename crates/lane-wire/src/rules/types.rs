//! Rules on a message or an enum and its counterpart of the same full
//! name: what was deleted from it (fields, values, oneofs, reserved ranges
//! and names, extension ranges), its required fields, and what its file's
//! syntax decides (open or closed, JSON support).

use std::collections::{BTreeMap, BTreeSet};

use prost_reflect::prost_types::field_descriptor_proto::Label;
use prost_reflect::{EnumDescriptor, MessageDescriptor, Syntax};

use super::ranges::{check_ranges, Range, ENUM_MAX, MESSAGE_MAX};
use super::{quoted_list, Out};
use crate::index::{Field, Index};
use crate::model::RuleId;

pub(super) fn check(before: &Index, after: &Index, out: &mut Out) {
    for (name, previous) in &before.messages {
        if let Some(message) = after.messages.get(name) {
            message_pair(previous, message, out);
        }
    }
    for (name, previous) in &before.enums {
        if let Some(e) = after.enums.get(name) {
            enum_pair(previous, e, out);
        }
    }
}

fn path(message: &MessageDescriptor) -> String {
    message.parent_file().name().to_owned()
}

fn message_pair(previous: &MessageDescriptor, message: &MessageDescriptor, out: &mut Out) {
    let file = path(message);
    let element = message.full_name();
    let fields = |m: &MessageDescriptor| -> BTreeMap<u32, Field> {
        m.fields()
            .map(|f| (f.number(), Field::Message(f)))
            .collect()
    };
    let (was, now) = (fields(previous), fields(message));
    let reserved_numbers: Vec<Range> = message
        .reserved_ranges()
        .map(|r| Range::half_open(i64::from(r.start), i64::from(r.end)))
        .collect();
    let reserved_names: BTreeSet<&str> = message.reserved_names().collect();

    for (number, field) in &was {
        if now.contains_key(number) {
            continue;
        }
        let description = lower_first(&field.description());
        let mut deleted = |rule, suffix: String| {
            out.add(
                rule,
                &file,
                field.full_name(),
                format!("Previously present {description} was deleted{suffix}."),
            );
        };
        deleted(RuleId::FieldNoDelete, String::new());
        if !reserved_numbers.iter().any(|r| r.contains(*number)) {
            deleted(
                RuleId::FieldNoDeleteUnlessNumberReserved,
                format!(" without reserving the number \"{number}\""),
            );
        }
        if !reserved_names.contains(field.name()) {
            deleted(
                RuleId::FieldNoDeleteUnlessNameReserved,
                format!(" without reserving the name {:?}", field.name()),
            );
        }
    }

    // required fields, both ways
    let required = |fs: &BTreeMap<u32, Field>| -> BTreeSet<u32> {
        fs.iter()
            .filter(|(_, f)| f.proto().label() == Label::Required)
            .map(|(n, _)| *n)
            .collect()
    };
    let (req_was, req_now) = (required(&was), required(&now));
    for n in req_was.difference(&req_now) {
        out.add(RuleId::MessageSameRequiredFields, &file, element, format!(
            "Message {:?} had required field \"{n}\" deleted. Required fields must always be sent, so if one side does not know about the required field, this will result in a breakage.",
            previous.name()
        ));
    }
    for n in req_now.difference(&req_was) {
        out.add(RuleId::MessageSameRequiredFields, &file, element, format!(
            "Message {:?} had required field \"{n}\" added. Required fields must always be sent, so if one side does not know about the required field, this will result in a breakage.",
            message.name()
        ));
    }

    let now_oneofs: BTreeSet<String> = message.oneofs().map(|o| o.name().to_owned()).collect();
    for oneof in previous.oneofs().filter(|o| !o.is_synthetic()) {
        if !now_oneofs.contains(oneof.name()) {
            out.add(
                RuleId::OneofNoDelete,
                &file,
                oneof.full_name(),
                format!(
                    "Previously present oneof {:?} on message {:?} was deleted.",
                    oneof.name(),
                    message.name()
                ),
            );
        }
    }

    let accessor = |m: &MessageDescriptor| {
        m.descriptor_proto()
            .options
            .as_ref()
            .is_some_and(|o| o.no_standard_descriptor_accessor())
    };
    if !accessor(previous) && accessor(message) {
        out.add(
            RuleId::MessageNoRemoveStandardDescriptorAccessor,
            &file,
            element,
            "Message option \"no_standard_descriptor_accessor\" changed from \"false\" to \"true\".".into(),
        );
    }

    if json_allowed(previous.parent_file().syntax())
        && !json_allowed(message.parent_file().syntax())
    {
        out.add(
            RuleId::MessageSameJsonFormat,
            &file,
            element,
            format!(
                "Message {:?} JSON format support changed from ALLOW to LEGACY_BEST_EFFORT.",
                message.name()
            ),
        );
    }

    let max = if message_set(message) {
        MESSAGE_SET_MAX
    } else {
        MESSAGE_MAX
    };
    let ranges = |m: &MessageDescriptor| -> Vec<Range> {
        m.reserved_ranges()
            .map(|r| Range::half_open(i64::from(r.start), i64::from(r.end)))
            .collect()
    };
    for text in check_ranges(
        "reserved",
        "message",
        message.name(),
        &ranges(previous),
        &ranges(message),
        max,
    ) {
        out.add(RuleId::ReservedMessageNoDelete, &file, element, text);
    }
    let extension_ranges = |m: &MessageDescriptor| -> Vec<Range> {
        m.descriptor_proto()
            .extension_range
            .iter()
            .map(|r| Range::half_open(i64::from(r.start()), i64::from(r.end())))
            .collect()
    };
    for text in check_ranges(
        "extension",
        "message",
        message.name(),
        &extension_ranges(previous),
        &extension_ranges(message),
        max,
    ) {
        out.add(RuleId::ExtensionMessageNoDelete, &file, element, text);
    }
    let names_now: BTreeSet<&str> = message.reserved_names().collect();
    for name in previous.reserved_names() {
        if !names_now.contains(name) {
            out.add(
                RuleId::ReservedMessageNoDelete,
                &file,
                element,
                format!(
                    "Previously present reserved name {name:?} on message {:?} was deleted.",
                    message.name()
                ),
            );
        }
    }
}

/// The largest number of a message set's ranges.
const MESSAGE_SET_MAX: i64 = i32::MAX as i64 - 1;

fn message_set(message: &MessageDescriptor) -> bool {
    message
        .descriptor_proto()
        .options
        .as_ref()
        .is_some_and(|o| o.message_set_wire_format())
}

/// Whether a type of a file of this syntax supports JSON (`ALLOW`) rather
/// than `LEGACY_BEST_EFFORT` (proto2's default).
fn json_allowed(syntax: Syntax) -> bool {
    syntax == Syntax::Proto3
}

fn enum_pair(previous: &EnumDescriptor, e: &EnumDescriptor, out: &mut Out) {
    let file = e.parent_file().name().to_owned();
    let element = e.full_name();
    let closed = |e: &EnumDescriptor| e.parent_file().syntax() == Syntax::Proto2;
    if closed(previous) != closed(e) {
        let (was, now) = if closed(e) {
            ("open", "closed")
        } else {
            ("closed", "open")
        };
        out.add(
            RuleId::EnumSameType,
            &file,
            element,
            format!("Enum {:?} changed from {was} to {now}.", e.name()),
        );
    }
    if json_allowed(previous.parent_file().syntax()) && !json_allowed(e.parent_file().syntax()) {
        out.add(
            RuleId::EnumSameJsonFormat,
            &file,
            element,
            format!(
                "Enum {:?} JSON format support changed from ALLOW to LEGACY_BEST_EFFORT.",
                e.name()
            ),
        );
    }

    let (was, now) = (values(previous), values(e));
    let reserved_numbers: Vec<Range> = e
        .reserved_ranges()
        .map(|r| Range::inclusive(i64::from(*r.start()), i64::from(*r.end())))
        .collect();
    let reserved_names: BTreeSet<&str> = e.reserved_names().collect();
    for (number, names) in &was {
        match now.get(number) {
            None => {
                let deleted = |suffix: String| {
                    format!(
                        "Previously present enum value \"{number}\" on enum {:?} was deleted{suffix}.",
                        e.name()
                    )
                };
                out.add(
                    RuleId::EnumValueNoDelete,
                    &file,
                    element,
                    deleted(String::new()),
                );
                if !reserved_numbers
                    .iter()
                    .any(|r| r.contains(i64::from(*number)))
                {
                    out.add(
                        RuleId::EnumValueNoDeleteUnlessNumberReserved,
                        &file,
                        element,
                        deleted(format!(" without reserving the number \"{number}\"")),
                    );
                }
                if !names.iter().all(|n| reserved_names.contains(n.as_str())) {
                    let s = if names.len() > 1 { "s" } else { "" };
                    out.add(
                        RuleId::EnumValueNoDeleteUnlessNameReserved,
                        &file,
                        element,
                        deleted(format!(
                            " without reserving the name{s} {}",
                            quoted_list(names.iter().map(String::as_str))
                        )),
                    );
                }
            }
            // every name the number had must still be among its names (an
            // alias may be added, not taken away)
            Some(current) if !names.is_subset(current) => {
                let s = if names.len() > 1 && current.len() > 1 {
                    "s"
                } else {
                    ""
                };
                out.add(
                    RuleId::EnumValueSameName,
                    &file,
                    element,
                    format!(
                        "Enum value \"{number}\" on enum {:?} changed name{s} from {} to {}.",
                        e.name(),
                        quoted_list(names.iter().map(String::as_str)),
                        quoted_list(current.iter().map(String::as_str)),
                    ),
                );
            }
            Some(_) => {}
        }
    }

    let ranges = |e: &EnumDescriptor| -> Vec<Range> {
        e.reserved_ranges()
            .map(|r| Range::inclusive(i64::from(*r.start()), i64::from(*r.end())))
            .collect()
    };
    for text in check_ranges(
        "reserved",
        "enum",
        e.name(),
        &ranges(previous),
        &ranges(e),
        ENUM_MAX,
    ) {
        out.add(RuleId::ReservedEnumNoDelete, &file, element, text);
    }
    let names_now: BTreeSet<&str> = e.reserved_names().collect();
    for name in previous.reserved_names() {
        if !names_now.contains(name) {
            out.add(
                RuleId::ReservedEnumNoDelete,
                &file,
                element,
                format!(
                    "Previously present reserved name {name:?} on enum {:?} was deleted.",
                    e.name()
                ),
            );
        }
    }
}

/// An enum's values: number → its names (aliases share a number).
pub(super) fn values(e: &EnumDescriptor) -> BTreeMap<i32, BTreeSet<String>> {
    let mut map: BTreeMap<i32, BTreeSet<String>> = BTreeMap::new();
    for v in e.values() {
        map.entry(v.number())
            .or_default()
            .insert(v.name().to_owned());
    }
    map
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}
