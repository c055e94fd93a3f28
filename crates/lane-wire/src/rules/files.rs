//! Rules on a file and its counterpart at the same path: its package,
//! syntax and the file options generated code depends on.

use prost_reflect::prost_types::FileOptions;
use prost_reflect::{FileDescriptor, Syntax};

use super::Out;
use crate::index::Index;
use crate::model::RuleId;

pub(super) fn check(before: &Index, after: &Index, out: &mut Out) {
    for (path, previous) in &before.files {
        let Some(file) = after.files.get(path) else {
            continue;
        };
        let same = |out: &mut Out, rule, name: &str, was: String, now: String| {
            if was != now {
                out.add(
                    rule,
                    path,
                    path,
                    format!("File {name} changed from {was:?} to {now:?}."),
                );
            }
        };
        same(
            out,
            RuleId::FileSamePackage,
            "package",
            previous.package_name().to_owned(),
            file.package_name().to_owned(),
        );
        same(
            out,
            RuleId::FileSameSyntax,
            "syntax",
            syntax(previous).into(),
            syntax(file).into(),
        );
        let (was, now) = (options(previous), options(file));
        type Get = fn(&FileOptions) -> String;
        let strings: [(RuleId, &str, Get); 15] = [
            (RuleId::FileSameCcEnableArenas, "cc_enable_arenas", |o| {
                o.cc_enable_arenas().to_string()
            }),
            (
                RuleId::FileSameCcGenericServices,
                "cc_generic_services",
                |o| o.cc_generic_services().to_string(),
            ),
            (RuleId::FileSameCsharpNamespace, "csharp_namespace", |o| {
                o.csharp_namespace().into()
            }),
            (RuleId::FileSameGoPackage, "go_package", |o| {
                o.go_package().into()
            }),
            (
                RuleId::FileSameJavaGenericServices,
                "java_generic_services",
                |o| o.java_generic_services().to_string(),
            ),
            (
                RuleId::FileSameJavaMultipleFiles,
                "java_multiple_files",
                |o| o.java_multiple_files().to_string(),
            ),
            (
                RuleId::FileSameJavaOuterClassname,
                "java_outer_classname",
                |o| o.java_outer_classname().into(),
            ),
            (RuleId::FileSameJavaPackage, "java_package", |o| {
                o.java_package().into()
            }),
            (RuleId::FileSameObjcClassPrefix, "objc_class_prefix", |o| {
                o.objc_class_prefix().into()
            }),
            (RuleId::FileSameOptimizeFor, "optimize_for", |o| {
                o.optimize_for().as_str_name().into()
            }),
            (RuleId::FileSamePhpClassPrefix, "php_class_prefix", |o| {
                o.php_class_prefix().into()
            }),
            (
                RuleId::FileSamePhpMetadataNamespace,
                "php_metadata_namespace",
                |o| o.php_metadata_namespace().into(),
            ),
            (RuleId::FileSamePhpNamespace, "php_namespace", |o| {
                o.php_namespace().into()
            }),
            (
                RuleId::FileSamePyGenericServices,
                "py_generic_services",
                |o| o.py_generic_services().to_string(),
            ),
            (RuleId::FileSameRubyPackage, "ruby_package", |o| {
                o.ruby_package().into()
            }),
        ];
        for (rule, name, get) in strings {
            same(out, rule, &format!("option {name:?}"), get(&was), get(&now));
        }
        same(
            out,
            RuleId::FileSameSwiftPrefix,
            "option \"swift_prefix\"",
            was.swift_prefix().into(),
            now.swift_prefix().into(),
        );
    }
}

/// The file's syntax as buf names it (no `syntax` line is proto2).
pub(super) fn syntax(file: &FileDescriptor) -> &'static str {
    match file.syntax() {
        Syntax::Proto2 => "proto2",
        Syntax::Proto3 => "proto3",
    }
}

fn options(file: &FileDescriptor) -> FileOptions {
    file.file_descriptor_proto()
        .options
        .clone()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use crate::rules::tests::{fired, messages};

    #[test]
    fn a_package_rename_breaks_every_category() {
        let was = "syntax = \"proto3\";\npackage a;\nmessage M {}\n";
        let now = "syntax = \"proto3\";\npackage a.v1;\nmessage M {}\n";
        assert_eq!(
            fired(was, now),
            // the package is gone whole: its messages are not named again
            ["FILE_SAME_PACKAGE", "PACKAGE_NO_DELETE"]
        );
        assert!(
            messages(was, now).contains(&"File package changed from \"a\" to \"a.v1\".".to_owned())
        );
    }

    #[test]
    fn a_syntax_change_and_file_options_are_package_rules() {
        let was = "syntax = \"proto3\";\npackage a;\noption go_package = \"x\";\nenum E { E_0 = 0; }\nmessage M { string s = 1; }\n";
        let now = "syntax = \"proto2\";\npackage a;\noption go_package = \"y\";\noption optimize_for = CODE_SIZE;\nenum E { E_0 = 0; }\nmessage M { optional string s = 1; }\n";
        assert_eq!(
            fired(was, now),
            [
                "ENUM_SAME_JSON_FORMAT",
                "ENUM_SAME_TYPE",
                "FIELD_SAME_CARDINALITY",
                "FIELD_SAME_JAVA_UTF8_VALIDATION",
                "FIELD_SAME_UTF8_VALIDATION",
                "FILE_SAME_GO_PACKAGE",
                "FILE_SAME_OPTIMIZE_FOR",
                "FILE_SAME_SYNTAX",
                "MESSAGE_SAME_JSON_FORMAT",
            ]
        );
        let m = messages(was, now);
        assert!(
            m.contains(
                &"File option \"optimize_for\" changed from \"SPEED\" to \"CODE_SIZE\".".to_owned()
            ),
            "{m:?}"
        );
        assert!(m.contains(&"File syntax changed from \"proto3\" to \"proto2\".".to_owned()));
    }
}
