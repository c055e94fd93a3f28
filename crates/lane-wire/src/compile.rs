//! One side compiled: its `.proto` texts through protox, in memory (no
//! include path, no filesystem: the tree is the only place a file is
//! looked up, then the well-known types protox carries), into descriptors.

use std::collections::BTreeMap;
use std::sync::Arc;

use miette::Diagnostic;
use prost_reflect::{DescriptorPool, FileDescriptor};
use protox::file::{File, FileResolver, GoogleFileResolver};

use crate::error::{Side, WireError};
use crate::tree::ProtoTree;

/// The tree's files, looked up by the name an `import` gives.
struct TreeResolver {
    files: Arc<BTreeMap<String, String>>,
    google: GoogleFileResolver,
}

impl FileResolver for TreeResolver {
    fn open_file(&self, name: &str) -> Result<File, protox::Error> {
        match self.files.get(name) {
            Some(source) => File::from_source(name, source),
            None => self.google.open_file(name),
        }
    }
}

/// Compiles every `.proto` file of a (checked) tree; returns its files'
/// descriptors by path, imports of well-known types left out.
pub(crate) fn compile(
    tree: &ProtoTree,
    side: Side,
) -> Result<BTreeMap<String, FileDescriptor>, WireError> {
    let files: Arc<BTreeMap<String, String>> = Arc::new(
        tree.proto_files()
            .map(|(p, s)| (p.to_owned(), s.to_owned()))
            .collect(),
    );
    let mut compiler = protox::Compiler::with_file_resolver(TreeResolver {
        files: Arc::clone(&files),
        google: GoogleFileResolver::new(),
    });
    compiler.include_imports(true);
    for path in files.keys() {
        compiler
            .open_file(path)
            .map_err(|e| located(e, side, tree))?;
    }
    let pool: DescriptorPool = compiler.descriptor_pool();
    Ok(files
        .keys()
        .filter_map(|p| pool.get_file_by_name(p).map(|f| (p.clone(), f)))
        .collect())
}

/// protox's error with its place: the first label's offset, as line and
/// column (in characters) of the file it names.
fn located(err: protox::Error, side: Side, tree: &ProtoTree) -> WireError {
    let file = err.file().unwrap_or("<tree>").to_owned();
    let message = lower_first(&err.to_string());
    let offset = err
        .labels()
        .and_then(|mut labels| labels.next())
        .map(|l| l.offset());
    match (offset, tree.source(&file)) {
        (Some(offset), Some(source)) => {
            let (line, column) = line_column(source, offset);
            WireError::Syntax {
                side,
                file,
                line,
                column,
                message,
                source: err,
            }
        }
        _ => WireError::Compile {
            side,
            file,
            message,
            source: err,
        },
    }
}

/// 1-based line and column (in characters) of a byte offset; an offset
/// past the end or inside a character is taken at the next boundary.
fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset += 1;
    }
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(files: &[(&str, &str)]) -> String {
        let tree: ProtoTree = files.iter().copied().collect();
        compile(&tree, Side::After).unwrap_err().to_string()
    }

    #[test]
    fn a_parse_error_names_file_line_column_and_what_was_expected() {
        let e = err(&[(
            "a/b.proto",
            "syntax = \"proto3\";\nmessage A {\n  int32 x = ;\n}\n",
        )]);
        insta::assert_snapshot!(e, @"after side: a/b.proto:3:13: expected an integer, but found ';'");
    }

    #[test]
    fn an_unresolved_type_is_named_where_it_is_used() {
        let e = err(&[(
            "a.proto",
            "syntax = \"proto3\";\nmessage A {\n  Missing m = 1;\n}\n",
        )]);
        insta::assert_snapshot!(e, @"after side: a.proto:3:3: name 'Missing' is not defined");
    }

    #[test]
    fn a_missing_import_is_named_at_the_import() {
        let e = err(&[("a.proto", "syntax = \"proto3\";\nimport \"nope.proto\";\n")]);
        insta::assert_snapshot!(e, @"after side: a.proto:2:1: import 'nope.proto' not found");
    }

    #[test]
    fn imports_resolve_in_the_tree_and_to_well_known_types() {
        let tree: ProtoTree = [
            ("a.proto", "syntax = \"proto3\";\npackage p;\nimport \"b/c.proto\";\nimport \"google/protobuf/timestamp.proto\";\nmessage A { p.C c = 1; google.protobuf.Timestamp t = 2; }\n"),
            ("b/c.proto", "syntax = \"proto3\";\npackage p;\nmessage C {}\n"),
        ]
        .into_iter()
        .collect();
        let files = compile(&tree, Side::Before).unwrap();
        assert_eq!(files.keys().collect::<Vec<_>>(), ["a.proto", "b/c.proto"]);
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        assert_eq!(line_column("ab\n€€x", 9), (2, 3));
        assert_eq!(line_column("ab", 99), (1, 3));
    }
}
