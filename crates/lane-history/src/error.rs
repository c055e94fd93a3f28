//! Every way history input can be refused, one documented variant each.
//! A refusal names where it happened: the line of a JSON Lines file and
//! the column in it.

/// Why history rows or acknowledgements could not be read.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// A line is not a JSON value of the row's (or the ack's) shape: a
    /// missing field, a wrong type, a role or time lane does not know.
    #[error("line {line}, column {column}: {source}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// 1-based column within that line, as serde_json counts it.
        column: usize,
        /// What serde_json said.
        #[source]
        source: serde_json::Error,
    },
    /// A value a measurement must never hold: NaN or infinite seconds,
    /// or negative seconds outside a residual (only a named residual may
    /// be negative; absent is written by leaving `seconds` out, never 0).
    #[error("line {line}: seconds {value} is not a measurement of a {role}")]
    NotAMeasurement {
        /// 1-based line number.
        line: usize,
        /// The value as read (JSON has no NaN: a huge exponent reads as
        /// infinite).
        value: f64,
        /// The row's role.
        role: &'static str,
    },
    /// A repeat number of 0 (cold repeats count from 1, as `r1` does).
    #[error("line {line}: repeat 0 does not exist (repeats count from 1)")]
    RepeatZero {
        /// 1-based line number.
        line: usize,
    },
}
