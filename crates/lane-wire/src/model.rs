//! What a judgement says: the categories, the rules by buf's ids, the
//! findings and the verdict per category.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// A category of buf's breaking rules (`buf.yaml`'s `breaking.use`), as
/// buf's v2 configuration defines them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Category {
    /// What breaks the binary encoding: a reader of either side decodes the
    /// other's bytes.
    Wire,
    /// `WIRE` plus what breaks the JSON encoding (names, JSON names).
    WireJson,
    /// `WIRE_JSON` plus what breaks generated code of the same package: a
    /// package's elements are not deleted, moved or retyped.
    Package,
}

impl Category {
    /// Every category lane-wire judges, in buf's order from loosest.
    pub const ALL: [Category; 3] = [Category::Wire, Category::WireJson, Category::Package];

    /// buf's name of the category (`WIRE`, `WIRE_JSON`, `PACKAGE`).
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Wire => "WIRE",
            Category::WireJson => "WIRE_JSON",
            Category::Package => "PACKAGE",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A word that names no category lane-wire judges.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown category {0:?}: expected WIRE, WIRE_JSON or PACKAGE")]
pub struct UnknownCategory(pub String);

impl FromStr for Category {
    type Err = UnknownCategory;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Category::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownCategory(s.chars().take(64).collect()))
    }
}

const W: Category = Category::Wire;
const J: Category = Category::WireJson;
const P: Category = Category::Package;

macro_rules! rules {
    ($($(#[$doc:meta])* $variant:ident = $id:literal [$($cat:ident),*];)*) => {
        /// A rule, by buf's id (`FIELD_SAME_TYPE`), and lane-wire's own
        /// `GENERATED_WITHOUT_PROTO`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum RuleId {
            $($(#[$doc])* $variant,)*
        }

        impl RuleId {
            /// Every rule, buf's in the order of its v2 rule list.
            pub const ALL: &'static [RuleId] = &[$(RuleId::$variant,)*];

            /// The rule's id as buf writes it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(RuleId::$variant => $id,)*
                }
            }

            /// The categories the rule belongs to in buf's v2
            /// configuration (empty for lane-wire's own rule).
            pub fn categories(self) -> &'static [Category] {
                match self {
                    $(RuleId::$variant => &[$($cat),*],)*
                }
            }
        }
    };
}

rules! {
    /// A closed enum became open or the reverse (the file's syntax).
    EnumSameType = "ENUM_SAME_TYPE" [P];
    /// An enum value's number was deleted.
    EnumValueNoDelete = "ENUM_VALUE_NO_DELETE" [P];
    /// An extension range of a message was narrowed.
    ExtensionMessageNoDelete = "EXTENSION_MESSAGE_NO_DELETE" [P];
    /// A field's number was deleted.
    FieldNoDelete = "FIELD_NO_DELETE" [P];
    /// A field's cardinality changed (optional, required, repeated, map,
    /// implicit or explicit presence).
    FieldSameCardinality = "FIELD_SAME_CARDINALITY" [P];
    /// A string field's C++ string type (`ctype`) changed.
    FieldSameCppStringType = "FIELD_SAME_CPP_STRING_TYPE" [P];
    /// A string field's Java UTF-8 validation changed.
    FieldSameJavaUtf8Validation = "FIELD_SAME_JAVA_UTF8_VALIDATION" [P];
    /// A 64-bit integer field's `jstype` changed.
    FieldSameJstype = "FIELD_SAME_JSTYPE" [P];
    /// A field's type changed.
    FieldSameType = "FIELD_SAME_TYPE" [P];
    /// A string field's UTF-8 validation changed (the file's syntax).
    FieldSameUtf8Validation = "FIELD_SAME_UTF8_VALIDATION" [P];
    /// File option `cc_enable_arenas` changed.
    FileSameCcEnableArenas = "FILE_SAME_CC_ENABLE_ARENAS" [P];
    /// File option `cc_generic_services` changed.
    FileSameCcGenericServices = "FILE_SAME_CC_GENERIC_SERVICES" [P];
    /// File option `csharp_namespace` changed.
    FileSameCsharpNamespace = "FILE_SAME_CSHARP_NAMESPACE" [P];
    /// File option `go_package` changed.
    FileSameGoPackage = "FILE_SAME_GO_PACKAGE" [P];
    /// File option `java_generic_services` changed.
    FileSameJavaGenericServices = "FILE_SAME_JAVA_GENERIC_SERVICES" [P];
    /// File option `java_multiple_files` changed.
    FileSameJavaMultipleFiles = "FILE_SAME_JAVA_MULTIPLE_FILES" [P];
    /// File option `java_outer_classname` changed.
    FileSameJavaOuterClassname = "FILE_SAME_JAVA_OUTER_CLASSNAME" [P];
    /// File option `java_package` changed.
    FileSameJavaPackage = "FILE_SAME_JAVA_PACKAGE" [P];
    /// File option `objc_class_prefix` changed.
    FileSameObjcClassPrefix = "FILE_SAME_OBJC_CLASS_PREFIX" [P];
    /// File option `optimize_for` changed.
    FileSameOptimizeFor = "FILE_SAME_OPTIMIZE_FOR" [P];
    /// File option `php_class_prefix` changed.
    FileSamePhpClassPrefix = "FILE_SAME_PHP_CLASS_PREFIX" [P];
    /// File option `php_metadata_namespace` changed.
    FileSamePhpMetadataNamespace = "FILE_SAME_PHP_METADATA_NAMESPACE" [P];
    /// File option `php_namespace` changed.
    FileSamePhpNamespace = "FILE_SAME_PHP_NAMESPACE" [P];
    /// File option `py_generic_services` changed.
    FileSamePyGenericServices = "FILE_SAME_PY_GENERIC_SERVICES" [P];
    /// File option `ruby_package` changed.
    FileSameRubyPackage = "FILE_SAME_RUBY_PACKAGE" [P];
    /// File option `swift_prefix` changed.
    FileSameSwiftPrefix = "FILE_SAME_SWIFT_PREFIX" [P];
    /// A file's syntax changed.
    FileSameSyntax = "FILE_SAME_SYNTAX" [P];
    /// Message option `no_standard_descriptor_accessor` was turned on.
    MessageNoRemoveStandardDescriptorAccessor = "MESSAGE_NO_REMOVE_STANDARD_DESCRIPTOR_ACCESSOR" [P];
    /// A oneof was deleted.
    OneofNoDelete = "ONEOF_NO_DELETE" [P];
    /// An RPC was deleted from its service.
    RpcNoDelete = "RPC_NO_DELETE" [P];
    /// An enum that supported JSON no longer does (the file's syntax).
    EnumSameJsonFormat = "ENUM_SAME_JSON_FORMAT" [P, J];
    /// An enum value's number is now known by another name.
    EnumValueSameName = "ENUM_VALUE_SAME_NAME" [P, J];
    /// A field's JSON name changed.
    FieldSameJsonName = "FIELD_SAME_JSON_NAME" [P, J];
    /// A field's name changed (its number kept).
    FieldSameName = "FIELD_SAME_NAME" [P, J];
    /// A message that supported JSON no longer does (the file's syntax).
    MessageSameJsonFormat = "MESSAGE_SAME_JSON_FORMAT" [P, J];
    /// A field's default value changed.
    FieldSameDefault = "FIELD_SAME_DEFAULT" [P, J, W];
    /// A field moved into, out of or between oneofs.
    FieldSameOneof = "FIELD_SAME_ONEOF" [P, J, W];
    /// A file's package changed.
    FileSamePackage = "FILE_SAME_PACKAGE" [P, J, W];
    /// A required field was added or deleted.
    MessageSameRequiredFields = "MESSAGE_SAME_REQUIRED_FIELDS" [P, J, W];
    /// A reserved range or name of an enum was deleted.
    ReservedEnumNoDelete = "RESERVED_ENUM_NO_DELETE" [P, J, W];
    /// A reserved range or name of a message was deleted.
    ReservedMessageNoDelete = "RESERVED_MESSAGE_NO_DELETE" [P, J, W];
    /// An RPC changed between client streaming and unary.
    RpcSameClientStreaming = "RPC_SAME_CLIENT_STREAMING" [P, J, W];
    /// An RPC's `idempotency_level` changed.
    RpcSameIdempotencyLevel = "RPC_SAME_IDEMPOTENCY_LEVEL" [P, J, W];
    /// An RPC's request type changed.
    RpcSameRequestType = "RPC_SAME_REQUEST_TYPE" [P, J, W];
    /// An RPC's response type changed.
    RpcSameResponseType = "RPC_SAME_RESPONSE_TYPE" [P, J, W];
    /// An RPC changed between server streaming and unary.
    RpcSameServerStreaming = "RPC_SAME_SERVER_STREAMING" [P, J, W];
    /// An enum was deleted from its package.
    PackageEnumNoDelete = "PACKAGE_ENUM_NO_DELETE" [P];
    /// An extension was deleted from its package.
    PackageExtensionNoDelete = "PACKAGE_EXTENSION_NO_DELETE" [P];
    /// A message was deleted from its package.
    PackageMessageNoDelete = "PACKAGE_MESSAGE_NO_DELETE" [P];
    /// A package was deleted (no file declares it any more).
    PackageNoDelete = "PACKAGE_NO_DELETE" [P];
    /// A service was deleted from its package.
    PackageServiceNoDelete = "PACKAGE_SERVICE_NO_DELETE" [P];
    /// An enum value was deleted without reserving its name.
    EnumValueNoDeleteUnlessNameReserved = "ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED" [J];
    /// A field was deleted without reserving its name.
    FieldNoDeleteUnlessNameReserved = "FIELD_NO_DELETE_UNLESS_NAME_RESERVED" [J];
    /// A field's cardinality changed in a way the JSON encoding sees.
    FieldWireJsonCompatibleCardinality = "FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY" [J];
    /// A field's type changed in a way the binary or JSON encoding sees.
    FieldWireJsonCompatibleType = "FIELD_WIRE_JSON_COMPATIBLE_TYPE" [J];
    /// An enum value was deleted without reserving its number.
    EnumValueNoDeleteUnlessNumberReserved = "ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED" [J, W];
    /// A field was deleted without reserving its number.
    FieldNoDeleteUnlessNumberReserved = "FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED" [J, W];
    /// A field's cardinality changed in a way the binary encoding sees.
    FieldWireCompatibleCardinality = "FIELD_WIRE_COMPATIBLE_CARDINALITY" [W];
    /// A field's type changed in a way the binary encoding sees.
    FieldWireCompatibleType = "FIELD_WIRE_COMPATIBLE_TYPE" [W];
    /// lane-wire's own: generated code changed without a `.proto` change
    /// it could have been generated from (see [`crate::generated_without_proto`]).
    GeneratedWithoutProto = "GENERATED_WITHOUT_PROTO" [];
}

impl RuleId {
    /// Whether the rule belongs to `category`.
    pub fn in_category(self, category: Category) -> bool {
        self.categories().contains(&category)
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One rule that fired on one element.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Finding {
    /// The rule, by buf's id.
    pub rule: RuleId,
    /// The rule's categories (among those asked for).
    pub categories: Vec<Category>,
    /// The file the finding points at: the after side's file, or the
    /// before side's where the element's file is gone.
    pub file: String,
    /// The element's full name (`pkg.Message.field`, `pkg.Enum`,
    /// `pkg.Service.Method`, a package, or a file's path for a file's own
    /// options).
    pub element: String,
    /// What changed, in buf's words.
    pub message: String,
}

/// The verdict on a change: every finding, and per category asked for
/// whether it passed (no rule of it fired).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Judgement {
    /// The findings, in a stable order (file, rule, element, message).
    pub findings: Vec<Finding>,
    /// Per category asked for: `true` when no rule of it fired.
    pub passed: BTreeMap<Category, bool>,
}

impl Judgement {
    /// Whether every category asked for passed.
    pub fn all_passed(&self) -> bool {
        self.passed.values().all(|p| *p)
    }

    /// The ids of the rules of `category` that fired.
    pub fn rules(&self, category: Category) -> BTreeSet<RuleId> {
        self.findings
            .iter()
            .filter(|f| f.rule.in_category(category))
            .map(|f| f.rule)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_id_is_unique_and_buf_shaped() {
        let ids: BTreeSet<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(ids.len(), RuleId::ALL.len());
        assert!(ids.iter().all(|id| id
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())));
    }

    #[test]
    fn categories_nest_as_buf_says() {
        // WIRE ⊂ WIRE_JSON ⊂ PACKAGE, except buf's two WIRE-only rules
        // (the looser wire compatibility checks, which WIRE_JSON replaces
        // with stricter ones).
        for rule in RuleId::ALL {
            if rule.in_category(Category::Wire)
                && !matches!(
                    rule,
                    RuleId::FieldWireCompatibleCardinality | RuleId::FieldWireCompatibleType
                )
            {
                assert!(rule.in_category(Category::WireJson), "{rule}");
            }
        }
        let wire = RuleId::ALL
            .iter()
            .filter(|r| r.in_category(Category::Wire))
            .count();
        let json = RuleId::ALL
            .iter()
            .filter(|r| r.in_category(Category::WireJson))
            .count();
        let package = RuleId::ALL
            .iter()
            .filter(|r| r.in_category(Category::Package))
            .count();
        assert_eq!((wire, json, package), (15, 22, 51));
    }

    #[test]
    fn category_names_round_trip_and_unknown_words_are_refused() {
        for c in Category::ALL {
            assert_eq!(c.as_str().parse::<Category>(), Ok(c));
        }
        let err = "FILE".parse::<Category>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown category \"FILE\": expected WIRE, WIRE_JSON or PACKAGE"
        );
    }
}
