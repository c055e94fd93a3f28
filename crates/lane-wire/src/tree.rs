//! A side of a change: `.proto` files by relative path, as the caller read
//! them (a `proto/` folder of one commit), and the bounds a side is held to
//! before a byte of it is parsed.

use std::collections::BTreeMap;

use crate::error::{Side, WireError};

/// One snapshot of a folder of `.proto` files: relative path → source text.
/// Paths not ending in `.proto` are kept but not judged (buf ignores them
/// too), so a caller may hand in a folder as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProtoTree {
    files: BTreeMap<String, String>,
}

impl ProtoTree {
    /// An empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a file.
    pub fn insert(&mut self, path: impl Into<String>, source: impl Into<String>) {
        self.files.insert(path.into(), source.into());
    }

    /// The `.proto` files, by path.
    pub fn proto_files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files
            .iter()
            .filter(|(p, _)| p.ends_with(".proto"))
            .map(|(p, s)| (p.as_str(), s.as_str()))
    }

    /// The source of a `.proto` file.
    pub fn source(&self, path: &str) -> Option<&str> {
        self.files
            .get(path)
            .filter(|_| path.ends_with(".proto"))
            .map(String::as_str)
    }
}

impl<P: Into<String>, S: Into<String>> FromIterator<(P, S)> for ProtoTree {
    fn from_iter<I: IntoIterator<Item = (P, S)>>(iter: I) -> Self {
        ProtoTree {
            files: iter
                .into_iter()
                .map(|(p, s)| (p.into(), s.into()))
                .collect(),
        }
    }
}

/// What one side may cost: a hostile tree is refused before it is parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most `.proto` files on one side.
    pub max_files: usize,
    /// The most bytes of `.proto` text on one side, added up.
    pub max_bytes: usize,
    /// The deepest nesting of `{`, `[` and `(` (messages in messages,
    /// option literals): the parser recurses once per level.
    pub max_depth: usize,
}

impl Default for Limits {
    /// 512 files, 8 MiB, 64 levels: a hundred times the real `proto/`
    /// folders lane judges, far below what costs seconds.
    fn default() -> Self {
        Limits {
            max_files: 512,
            max_bytes: 8 << 20,
            max_depth: 64,
        }
    }
}

/// The longest path accepted.
const MAX_PATH_BYTES: usize = 1024;

/// Checks a side against `limits` and its paths, before any parsing.
pub(crate) fn check(tree: &ProtoTree, side: Side, limits: &Limits) -> Result<(), WireError> {
    let files = tree.proto_files().count();
    if files > limits.max_files {
        return Err(WireError::TooManyFiles {
            side,
            files,
            max: limits.max_files,
        });
    }
    let bytes = tree.proto_files().map(|(_, s)| s.len()).sum::<usize>();
    if bytes > limits.max_bytes {
        return Err(WireError::TooLarge {
            side,
            bytes,
            max: limits.max_bytes,
        });
    }
    if files == 0 {
        return Err(WireError::NoProtoFiles { side });
    }
    for (path, source) in tree.proto_files() {
        if let Some(reason) = bad_path(path) {
            return Err(WireError::BadPath {
                side,
                path: path.chars().take(200).collect(),
                reason,
            });
        }
        if let Some((line, column)) = too_deep(source, limits.max_depth) {
            return Err(WireError::TooDeep {
                side,
                file: path.to_owned(),
                line,
                column,
                max: limits.max_depth,
            });
        }
    }
    Ok(())
}

/// Why a path is not a plain relative `.proto` path, if it is not.
fn bad_path(path: &str) -> Option<&'static str> {
    if path.len() > MAX_PATH_BYTES {
        return Some("longer than 1024 bytes");
    }
    if path.starts_with('/') {
        return Some("absolute");
    }
    if path.contains('\\') {
        return Some("a backslash");
    }
    if path.chars().any(char::is_control) {
        return Some("a control character");
    }
    if path
        .split('/')
        .any(|s| s.is_empty() || s == "." || s == "..")
    {
        return Some("an empty, `.` or `..` segment");
    }
    if path.starts_with("google/protobuf/") {
        return Some("shadows a well-known type's file");
    }
    None
}

/// The line and column (1-based, in characters) of the first bracket
/// nested deeper than `max`, outside comments and strings.
fn too_deep(source: &str, max: usize) -> Option<(usize, usize)> {
    let (mut depth, mut line, mut column) = (0usize, 1usize, 0usize);
    let mut chars = source.chars().peekable();
    #[derive(PartialEq)]
    enum In {
        Code,
        LineComment,
        BlockComment,
        Str(char),
    }
    let mut state = In::Code;
    while let Some(c) = chars.next() {
        column += 1;
        if c == '\n' {
            (line, column) = (line + 1, 0);
            if state == In::LineComment {
                state = In::Code;
            }
            continue;
        }
        match state {
            In::Code => match c {
                '/' if chars.peek() == Some(&'/') => state = In::LineComment,
                '/' if chars.peek() == Some(&'*') => {
                    chars.next();
                    column += 1;
                    state = In::BlockComment;
                }
                '"' | '\'' => state = In::Str(c),
                '{' | '[' | '(' => {
                    depth += 1;
                    if depth > max {
                        return Some((line, column));
                    }
                }
                '}' | ']' | ')' => depth = depth.saturating_sub(1),
                _ => {}
            },
            In::LineComment => {}
            In::BlockComment => {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    column += 1;
                    state = In::Code;
                }
            }
            In::Str(quote) => {
                if c == '\\' {
                    if chars.next_if(|n| *n != '\n').is_some() {
                        column += 1;
                    }
                } else if c == quote {
                    state = In::Code;
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> ProtoTree {
        files.iter().copied().collect()
    }

    #[test]
    fn a_tree_over_its_bounds_is_refused_before_parsing() {
        let limits = Limits {
            max_files: 1,
            max_bytes: 10,
            max_depth: 2,
        };
        let two = tree(&[("a.proto", ""), ("b.proto", "")]);
        let err = check(&two, Side::Before, &limits).unwrap_err();
        assert_eq!(
            err.to_string(),
            "before side: 2 .proto files, over the bound of 1"
        );
        let big = tree(&[("a.proto", "message A {}")]);
        let err = check(&big, Side::After, &limits).unwrap_err();
        assert_eq!(
            err.to_string(),
            "after side: 12 bytes of .proto text, over the bound of 10"
        );
        // what is not a .proto file is neither counted nor judged
        let readme = tree(&[("a.proto", "x"), ("README.md", &"x".repeat(100))]);
        check(&readme, Side::After, &limits).unwrap();
    }

    #[test]
    fn a_side_without_proto_files_is_refused_as_buf_refuses_it() {
        let err = check(
            &tree(&[("CONTRACT.md", "x")]),
            Side::Before,
            &Limits::default(),
        );
        assert_eq!(
            err.unwrap_err().to_string(),
            "before side: no .proto files: nothing to judge"
        );
    }

    #[test]
    fn paths_must_be_plain_and_relative() {
        for (path, reason) in [
            ("/etc/a.proto", "absolute"),
            ("a/../b.proto", "an empty, `.` or `..` segment"),
            ("a//b.proto", "an empty, `.` or `..` segment"),
            ("a\\b.proto", "a backslash"),
            (
                "google/protobuf/any.proto",
                "shadows a well-known type's file",
            ),
        ] {
            assert_eq!(bad_path(path), Some(reason), "{path}");
        }
        assert_eq!(bad_path("cozy/scheduler/v1/worker.proto"), None);
    }

    #[test]
    fn nesting_is_bounded_and_named_at_its_brace() {
        let deep = "syntax = \"proto3\";\nmessage A { message B {\n  message C {} } }\n";
        assert_eq!(too_deep(deep, 2), Some((3, 13)));
        assert_eq!(too_deep(deep, 3), None);
        // braces in comments and strings do not count
        let quiet = "// {{{{\n/* [[[[ */ option (x) = \"{{{{\\\"{{\";\n";
        assert_eq!(too_deep(quiet, 1), None);
        let err = check(
            &tree(&[("a.proto", deep)]),
            Side::After,
            &Limits {
                max_depth: 2,
                ..Limits::default()
            },
        );
        assert_eq!(
            err.unwrap_err().to_string(),
            "after side: a.proto:3:13: blocks nested deeper than 2 levels"
        );
    }
}
