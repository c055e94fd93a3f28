//! One compiled side as the rules read it: its files by path and every
//! message (nested ones and map entries included), enum, service and
//! extension by full name, from the tree's own files only (never an
//! imported well-known type), and a field or extension behind one face.

use std::collections::BTreeMap;

use prost_reflect::prost_types::{field_descriptor_proto::Type, FieldDescriptorProto};
use prost_reflect::{
    Cardinality, EnumDescriptor, ExtensionDescriptor, FieldDescriptor, FileDescriptor, Kind,
    MessageDescriptor, OneofDescriptor, ServiceDescriptor, Syntax, Value,
};

/// The elements of one side, each map ordered by key so findings come out
/// in a stable order.
pub(crate) struct Index {
    pub files: BTreeMap<String, FileDescriptor>,
    pub messages: BTreeMap<String, MessageDescriptor>,
    pub enums: BTreeMap<String, EnumDescriptor>,
    pub services: BTreeMap<String, ServiceDescriptor>,
    pub extensions: BTreeMap<String, ExtensionDescriptor>,
}

impl Index {
    pub fn new(files: BTreeMap<String, FileDescriptor>) -> Self {
        let mut index = Index {
            files: BTreeMap::new(),
            messages: BTreeMap::new(),
            enums: BTreeMap::new(),
            services: BTreeMap::new(),
            extensions: BTreeMap::new(),
        };
        for file in files.values() {
            for m in file.messages() {
                index.add_message(m);
            }
            for e in file.enums() {
                index.enums.insert(e.full_name().to_owned(), e);
            }
            for s in file.services() {
                index.services.insert(s.full_name().to_owned(), s);
            }
            for x in file.extensions() {
                index.extensions.insert(x.full_name().to_owned(), x);
            }
        }
        index.files = files;
        index
    }

    fn add_message(&mut self, message: MessageDescriptor) {
        for m in message.child_messages() {
            self.add_message(m);
        }
        for e in message.child_enums() {
            self.enums.insert(e.full_name().to_owned(), e);
        }
        for x in message.child_extensions() {
            self.extensions.insert(x.full_name().to_owned(), x);
        }
        self.messages
            .insert(message.full_name().to_owned(), message);
    }

    /// Extensions by (extendee's full name, number), as buf pairs them.
    pub fn extensions_by_extendee(&self) -> BTreeMap<(String, u32), Field> {
        self.extensions
            .values()
            .map(|x| {
                let key = (x.containing_message().full_name().to_owned(), x.number());
                (key, Field::Extension(x.clone()))
            })
            .collect()
    }
}

/// The name of an element inside its package (`Outer.Inner`).
pub(crate) fn nested_name<'a>(full_name: &'a str, package: &str) -> &'a str {
    if package.is_empty() {
        full_name
    } else {
        full_name
            .strip_prefix(package)
            .and_then(|s| s.strip_prefix('.'))
            .unwrap_or(full_name)
    }
}

/// A message's field or an extension: what the field rules compare.
#[derive(Clone)]
pub(crate) enum Field {
    Message(FieldDescriptor),
    Extension(ExtensionDescriptor),
}

/// buf's cardinality of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cardinal {
    Explicit,
    Implicit,
    Required,
    Repeated,
    Map,
}

impl Cardinal {
    pub fn as_str(self) -> &'static str {
        match self {
            Cardinal::Explicit => "optional with explicit presence",
            Cardinal::Implicit => "optional with implicit presence",
            Cardinal::Required => "required",
            Cardinal::Repeated => "repeated",
            Cardinal::Map => "map",
        }
    }

    /// The group the binary encoding cannot tell apart within.
    pub fn wire_group(self) -> u8 {
        match self {
            Cardinal::Explicit | Cardinal::Implicit => 1,
            Cardinal::Required => 2,
            Cardinal::Repeated | Cardinal::Map => 3,
        }
    }

    /// The group the binary and JSON encodings cannot tell apart within.
    pub fn wire_json_group(self) -> u8 {
        match self {
            Cardinal::Map => 4,
            other => other.wire_group(),
        }
    }
}

impl Field {
    pub fn proto(&self) -> &FieldDescriptorProto {
        match self {
            Field::Message(f) => f.field_descriptor_proto(),
            Field::Extension(x) => x.field_descriptor_proto(),
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Field::Message(f) => f.name(),
            Field::Extension(x) => x.name(),
        }
    }

    pub fn full_name(&self) -> &str {
        match self {
            Field::Message(f) => f.full_name(),
            Field::Extension(x) => x.full_name(),
        }
    }

    pub fn is_extension(&self) -> bool {
        matches!(self, Field::Extension(_))
    }

    pub fn json_name(&self) -> &str {
        match self {
            Field::Message(f) => f.json_name(),
            Field::Extension(x) => x.json_name(),
        }
    }

    pub fn kind(&self) -> Kind {
        match self {
            Field::Message(f) => f.kind(),
            Field::Extension(x) => x.kind(),
        }
    }

    fn is_group(&self) -> bool {
        match self {
            Field::Message(f) => f.is_group(),
            Field::Extension(x) => x.is_group(),
        }
    }

    pub fn is_list(&self) -> bool {
        match self {
            Field::Message(f) => f.is_list(),
            Field::Extension(x) => x.is_list(),
        }
    }

    pub fn is_map(&self) -> bool {
        match self {
            Field::Message(f) => f.is_map(),
            Field::Extension(x) => x.is_map(),
        }
    }

    pub fn file(&self) -> FileDescriptor {
        match self {
            Field::Message(f) => f.parent_file(),
            Field::Extension(x) => x.parent_file(),
        }
    }

    pub fn syntax(&self) -> Syntax {
        self.file().syntax()
    }

    pub fn default_value(&self) -> Value {
        match self {
            Field::Message(f) => f.default_value(),
            Field::Extension(x) => x.default_value(),
        }
    }

    /// The oneof it is in, synthetic ones (proto3 `optional`) left out as
    /// buf leaves them out.
    pub fn real_oneof(&self) -> Option<OneofDescriptor> {
        match self {
            Field::Message(f) => f.containing_oneof().filter(|o| !o.is_synthetic()),
            Field::Extension(_) => None,
        }
    }

    /// Whether it is a field of a map's entry message.
    pub fn in_map_entry(&self) -> bool {
        match self {
            Field::Message(f) => f.parent_message().is_map_entry(),
            Field::Extension(_) => false,
        }
    }

    pub fn cardinality(&self) -> Cardinal {
        let (cardinality, presence) = match self {
            Field::Message(f) => (f.cardinality(), f.supports_presence()),
            Field::Extension(x) => (x.cardinality(), x.supports_presence()),
        };
        if self.is_list() {
            Cardinal::Repeated
        } else if self.is_map() {
            Cardinal::Map
        } else if cardinality == Cardinality::Required {
            Cardinal::Required
        } else if presence {
            Cardinal::Explicit
        } else {
            Cardinal::Implicit
        }
    }

    /// The kind as buf names it (`int32`, `message`, `group`, ...).
    pub fn kind_name(&self) -> &'static str {
        if self.is_group() {
            return "group";
        }
        match self.kind() {
            Kind::Double => "double",
            Kind::Float => "float",
            Kind::Int64 => "int64",
            Kind::Uint64 => "uint64",
            Kind::Int32 => "int32",
            Kind::Fixed64 => "fixed64",
            Kind::Fixed32 => "fixed32",
            Kind::Bool => "bool",
            Kind::String => "string",
            Kind::Bytes => "bytes",
            Kind::Uint32 => "uint32",
            Kind::Sfixed32 => "sfixed32",
            Kind::Sfixed64 => "sfixed64",
            Kind::Sint32 => "sint32",
            Kind::Sint64 => "sint64",
            Kind::Enum(_) => "enum",
            Kind::Message(_) => "message",
        }
    }

    /// The full name of its message or enum type, for those kinds.
    pub fn type_name(&self) -> Option<String> {
        match self.kind() {
            Kind::Message(m) => Some(m.full_name().to_owned()),
            Kind::Enum(e) => Some(e.full_name().to_owned()),
            _ => None,
        }
    }

    /// Whether its declared type is a 64-bit integer.
    pub fn is_64bit_integer(&self) -> bool {
        matches!(
            self.proto().r#type(),
            Type::Int64 | Type::Sint64 | Type::Uint64 | Type::Fixed64 | Type::Sfixed64
        )
    }

    /// buf's description: `Field "7" with name "x" on message "M"`.
    pub fn description(&self) -> String {
        let name = if self.is_extension() {
            self.full_name()
        } else {
            self.name()
        };
        self.description_with_name(Some(name))
    }

    /// buf's description, the name left out where `name` is `None`.
    pub fn description_with_name(&self, name: Option<&str>) -> String {
        let name = name
            .map(|n| format!(" with name {n:?}"))
            .unwrap_or_default();
        match self {
            Field::Message(f) => format!(
                "Field \"{}\"{name} on message {:?}",
                f.number(),
                f.parent_message().name()
            ),
            Field::Extension(x) => format!(
                "Extension \"{}\"{name} on message {:?}",
                x.number(),
                x.containing_message().full_name()
            ),
        }
    }
}
