//! The one error a judgement can end in: an input lane-wire refuses to
//! judge, with the side, the file and, where the text is at fault, the
//! line and column.

use std::fmt;

use serde::Serialize;

/// Which snapshot of the tree a problem is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The snapshot judged against (the base).
    Before,
    /// The snapshot judged (the change).
    After,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Before => "before",
            Side::After => "after",
        })
    }
}

/// Why a change could not be judged.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// More `.proto` files than the bound.
    #[error("{side} side: {files} .proto files, over the bound of {max}")]
    TooManyFiles {
        /// The side.
        side: Side,
        /// How many `.proto` files it has.
        files: usize,
        /// The bound ([`crate::Limits::max_files`]).
        max: usize,
    },
    /// More `.proto` text than the bound.
    #[error("{side} side: {bytes} bytes of .proto text, over the bound of {max}")]
    TooLarge {
        /// The side.
        side: Side,
        /// Its `.proto` files' bytes, added up.
        bytes: usize,
        /// The bound ([`crate::Limits::max_bytes`]).
        max: usize,
    },
    /// A path that is not a plain relative path of a `.proto` file.
    #[error(
        "{side} side: {path:?}: {reason}: expected a relative path like \"pkg/v1/file.proto\""
    )]
    BadPath {
        /// The side.
        side: Side,
        /// The path, cut to 200 characters.
        path: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Blocks nested deeper than the bound (a hostile input for the
    /// recursive parser).
    #[error("{side} side: {file}:{line}:{column}: blocks nested deeper than {max} levels")]
    TooDeep {
        /// The side.
        side: Side,
        /// The file.
        file: String,
        /// 1-based line of the brace that crossed the bound.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// The bound ([`crate::Limits::max_depth`]).
        max: usize,
    },
    /// A side without `.proto` files: buf refuses such a module too, and
    /// there is nothing to judge against.
    #[error("{side} side: no .proto files: nothing to judge")]
    NoProtoFiles {
        /// The side.
        side: Side,
    },
    /// A file that does not parse or compile, at a place in its text.
    #[error("{side} side: {file}:{line}:{column}: {message}")]
    Syntax {
        /// The side.
        side: Side,
        /// The file the problem is in.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What was wrong and what was expected, as the compiler says.
        message: String,
        /// The compiler's error.
        #[source]
        source: protox::Error,
    },
    /// A set of files that does not compile, at no place in a text (an
    /// import cycle, a file not found).
    #[error("{side} side: {file}: {message}")]
    Compile {
        /// The side.
        side: Side,
        /// The file the compiler names, or `<tree>`.
        file: String,
        /// What was wrong, as the compiler says.
        message: String,
        /// The compiler's error.
        #[source]
        source: protox::Error,
    },
}

impl WireError {
    /// The side the problem is in.
    pub fn side(&self) -> Side {
        match self {
            WireError::TooManyFiles { side, .. }
            | WireError::TooLarge { side, .. }
            | WireError::BadPath { side, .. }
            | WireError::TooDeep { side, .. }
            | WireError::NoProtoFiles { side }
            | WireError::Syntax { side, .. }
            | WireError::Compile { side, .. } => *side,
        }
    }
}
