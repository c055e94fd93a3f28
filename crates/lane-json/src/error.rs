//! Why a JSON document, or a value in it, is refused: by the line and
//! column where the JSON broke, or by the JSON path of the value.

use crate::JsonPath;

/// A JSON document, or a value in it, that lane refuses.
#[derive(Debug, thiserror::Error)]
pub enum JsonError {
    /// The JSON ends before the document does (a truncated write).
    #[error("truncated JSON: the input ends at line {line}, column {column} before the document is complete")]
    Truncated {
        /// 1-based line where the input ended.
        line: usize,
        /// 1-based column where the input ended.
        column: usize,
        /// The parser's own error.
        #[source]
        source: serde_json::Error,
    },
    /// The JSON nests deeper than the parser allows (128 levels).
    #[error("JSON nests too deeply at line {line}, column {column} (more than 128 levels)")]
    TooDeep {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's own error.
        #[source]
        source: serde_json::Error,
    },
    /// The bytes are not JSON (or repeat a key, or hold a number out of range
    /// such as `1e400`).
    #[error("invalid JSON at line {line}, column {column}: {reason}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser objected to, without its position
        /// (`number out of range`, `duplicate key \`x\``).
        reason: String,
        /// The parser's own error.
        #[source]
        source: serde_json::Error,
    },
    /// A bare `NaN`, `Infinity` or `-Infinity` (Python's `json.dumps` writes
    /// them): an unmeasured value must be omitted, never written as a number.
    #[error("{path}: {token} is not a measurement (an unmeasured value must be omitted)")]
    NonFinite {
        /// Where the token sits.
        path: JsonPath,
        /// The token as written.
        token: String,
    },
    /// A value of the wrong JSON type.
    #[error("{path}: expected {expected}, found {found}")]
    WrongType {
        /// Where the value sits.
        path: JsonPath,
        /// What the schema wants there.
        expected: &'static str,
        /// What the report holds there.
        found: &'static str,
    },
    /// A negative number of seconds where only a residual may go negative.
    #[error("{path}: negative duration {value} s (only a named residual may be negative)")]
    NegativeDuration {
        /// Where the value sits.
        path: JsonPath,
        /// The value.
        value: f64,
    },
    /// A duration too large to be a measurement.
    #[error("{path}: implausible duration {value:e} s (above {limit} s)")]
    ImplausibleDuration {
        /// Where the value sits.
        path: JsonPath,
        /// The value.
        value: f64,
        /// The plausibility bound, [`crate::MAX_SECONDS`].
        limit: f64,
    },
    /// A count (jobs, entries) that is not a non-negative integer.
    #[error("{path}: expected a non-negative integer, found {value}")]
    NotACount {
        /// Where the value sits.
        path: JsonPath,
        /// The value as written.
        value: String,
    },
}
