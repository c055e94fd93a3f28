//! Every way an input can be refused, one documented variant each.
//!
//! Reports are refused with the JSON path of the offending value (or the
//! line and column where the JSON itself broke), so a person can open the
//! file and find it. Traces are never refused line by line: garbage lines are
//! counted and skipped (see [`crate::trace`]); only a failing reader or a file
//! with no structured-trace line at all is an error.

use lane_json::JsonPath;

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
    /// The bytes are not a JSON document lane reads, or a value in it is not
    /// what the report's vocabulary allows (wrong type, a negative or
    /// implausible duration, a bad count), named by line and column or JSON path.
    #[error(transparent)]
    Json(#[from] lane_json::JsonError),
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
