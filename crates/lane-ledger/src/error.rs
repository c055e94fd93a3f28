//! Every way an input can be refused, one documented variant each.
//!
//! Reports are refused with the JSON path of the offending value (or the
//! line and column where the JSON itself broke), so a person can open the
//! file and find it. Traces are never refused line by line: garbage lines are
//! counted and skipped (see [`crate::trace`]); only a failing reader or a file
//! with no structured-trace line at all is an error.

use crate::json::JsonPath;

/// Why a mint report could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The input is larger than the caller's cap; nothing was parsed.
    #[error("report is {size} bytes, above the {limit}-byte cap")]
    TooLarge {
        /// Size of the input in bytes.
        size: u64,
        /// The cap in bytes.
        limit: u64,
    },
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
        /// The plausibility bound, [`crate::json::MAX_SECONDS`].
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
    /// A coded value outside its vocabulary (`export_reuse_eligible` is 1, 0
    /// or -1; a flag is 1 or 0).
    #[error("{path}: {value} is not {expected}")]
    NotInVocabulary {
        /// Where the value sits.
        path: JsonPath,
        /// The value as written.
        value: String,
        /// What the upstream writes there, in words.
        expected: &'static str,
    },
    /// A fraction outside the range a fraction of a measured wall can take.
    #[error("{path}: fraction {value} is out of range")]
    FractionOutOfRange {
        /// Where the value sits.
        path: JsonPath,
        /// The value.
        value: f64,
    },
}

/// Why a TORCH_TRACE log could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// The reader failed (the file vanished, a disk error).
    #[error("reading the trace failed after line {line}")]
    Io {
        /// Lines read before the failure.
        line: u64,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Not one line had the structured-trace shape (`<glog prefix>] {json}`).
    #[error("not a TORCH_TRACE log: none of its {lines} lines is a structured-trace record")]
    NotATrace {
        /// Lines read.
        lines: u64,
    },
}

/// Why two breakdowns could not be compared.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// One side has no mint at all: an absence, never zeros.
    #[error("the {side} side has no mint report to compare")]
    EmptySide {
        /// `baseline` or `candidate`.
        side: &'static str,
    },
    /// The mints carry different ledger versions; mixing them would compare
    /// rows that do not mean the same thing.
    #[error("refusing to mix ledger versions: {first} and {second}")]
    MixedLedgerVersions {
        /// One version seen.
        first: String,
        /// Another version seen.
        second: String,
    },
    /// The mints are of different recipes (dynamo against aot).
    #[error("refusing to compare recipes {first} and {second}")]
    MixedRecipes {
        /// One recipe seen.
        first: String,
        /// Another recipe seen.
        second: String,
    },
}
