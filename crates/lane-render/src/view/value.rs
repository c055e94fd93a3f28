//! The numbers of every report, decided once: seconds, percents, deltas
//! and counts, each formatted by one rule, and absence carried with its
//! reason. A renderer never formats a number itself; it shows
//! [`Cell::text`] (escaped for its target) and may style by [`Tone`].

use std::fmt;

use serde::Serialize;

/// Why a value is not shown. It is never shown as `0.0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Absent {
    /// The source does not carry the value.
    Absent,
    /// There is no report at all (the mint was not measured).
    NoReport,
    /// The ledger did not measure it.
    NotMeasured,
    /// The orchestrator recorded nothing about it.
    NotRecorded,
}

impl Absent {
    /// The words shown in the value's place.
    pub fn as_str(self) -> &'static str {
        match self {
            Absent::Absent => "absent",
            Absent::NoReport => "no report",
            Absent::NotMeasured => "not measured",
            Absent::NotRecorded => "not recorded",
        }
    }
}

/// A duration in seconds, or why there is none. A non-finite number is
/// not a measurement and reads as absent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Seconds {
    value: Option<f64>,
    absent: Absent,
}

impl Seconds {
    /// A measured value.
    pub fn measured(v: f64) -> Seconds {
        Seconds::of(Some(v))
    }

    /// A value that may be absent (read "absent" when it is).
    pub fn of(v: Option<f64>) -> Seconds {
        Seconds {
            value: v.filter(|v| v.is_finite()),
            absent: Absent::Absent,
        }
    }

    /// No value, for `reason`.
    pub fn absent(reason: Absent) -> Seconds {
        Seconds {
            value: None,
            absent: reason,
        }
    }

    /// The same value; when absent, absent for `reason`.
    pub fn or(self, reason: Absent) -> Seconds {
        Seconds {
            absent: reason,
            ..self
        }
    }

    /// The number, when measured.
    pub fn value(self) -> Option<f64> {
        self.value
    }
}

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            Some(v) => write!(f, "{} s", fixed(v, 3)),
            None => f.write_str(self.absent.as_str()),
        }
    }
}

/// A share (a fraction, shown as a percent), or why there is none.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Percent {
    fraction: Option<f64>,
    absent: Absent,
}

impl Percent {
    /// A fraction that may be absent (read "absent" when it is).
    pub fn of(fraction: Option<f64>) -> Percent {
        Percent {
            fraction: fraction.filter(|v| v.is_finite()),
            absent: Absent::Absent,
        }
    }

    /// No value, for `reason`.
    pub fn absent(reason: Absent) -> Percent {
        Percent {
            fraction: None,
            absent: reason,
        }
    }

    /// `part / whole`, absent unless both are measured and `whole > 0`.
    pub fn share(part: Seconds, whole: Seconds) -> Percent {
        match (part.value(), whole.value()) {
            (Some(p), Some(w)) if w > 0.0 => Percent::of(Some(p / w)),
            _ => Percent::of(None),
        }
    }

    /// The fraction, when known.
    pub fn fraction(self) -> Option<f64> {
        self.fraction
    }
}

impl fmt::Display for Percent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.fraction {
            Some(v) => write!(f, "{} %", fixed(100.0 * v, 1)),
            None => f.write_str(self.absent.as_str()),
        }
    }
}

/// A signed change in seconds and relative to the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Delta {
    seconds: Option<f64>,
    relative: Option<f64>,
}

impl Delta {
    /// A change; either part may be absent.
    pub fn of(seconds: Option<f64>, relative: Option<f64>) -> Delta {
        Delta {
            seconds: seconds.filter(|v| v.is_finite()),
            relative: relative.filter(|v| v.is_finite()),
        }
    }
}

impl fmt::Display for Delta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.seconds {
            Some(d) => write!(f, "{}{} s", sign(d, 3), fixed(d.abs(), 3))?,
            None => f.write_str(Absent::Absent.as_str())?,
        }
        if let Some(r) = self.relative {
            write!(
                f,
                " ({}{} %)",
                sign(100.0 * r, 1),
                fixed((100.0 * r).abs(), 1)
            )?;
        }
        Ok(())
    }
}

/// `v` with `places` decimals; a value that rounds to zero reads `0.000`,
/// never `-0.000` (a residual a hair below zero is zero to the reader).
fn fixed(v: f64, places: usize) -> String {
    let s = format!("{v:.places$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_owned(),
        _ => s,
    }
}

/// `+` or `-` for a delta, none when it rounds to zero at `places`.
fn sign(v: f64, places: usize) -> &'static str {
    if fixed(v.abs(), places).chars().all(|c| c == '0' || c == '.') {
        "±"
    } else if v < 0.0 {
        "-"
    } else {
        "+"
    }
}

/// How a cell or line reads beside its neighbours (a renderer maps it to
/// bold, a colour or a class; text ignores it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tone {
    /// Nothing special.
    Plain,
    /// Good news (passed, faster, success).
    Good,
    /// Quiet (absent, noise, a ditto).
    Quiet,
    /// Worth a look (a warning, a neutral verdict).
    Warn,
    /// Bad news (failed, refused, slower, unexplained).
    Bad,
}

/// What one table cell holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Value {
    /// Text (lane's or a report's), unescaped: each renderer escapes it.
    Text(String),
    /// A duration.
    Seconds(Seconds),
    /// A share.
    Percent(Percent),
    /// A change against a baseline.
    Delta(Delta),
    /// A count.
    Count(u64),
    /// Nothing: this row has no such value by its nature.
    Empty,
    /// The same as the row above (a value spanning a cell's repeats).
    Ditto,
}

/// One table cell: a value and its tone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// The value.
    pub value: Value,
    /// How it reads.
    pub tone: Tone,
}

impl Cell {
    /// Plain text.
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::from(Value::Text(s.into()))
    }

    /// Text in a tone.
    pub fn toned(s: impl Into<String>, tone: Tone) -> Cell {
        Cell {
            value: Value::Text(s.into()),
            tone,
        }
    }

    /// Text, or `absent`'s words (quiet) when there is none.
    pub fn text_or(s: Option<&str>, absent: &str) -> Cell {
        match s {
            Some(s) => Cell::text(s),
            None => Cell::toned(absent, Tone::Quiet),
        }
    }

    /// Seconds.
    pub fn seconds(s: Seconds) -> Cell {
        Cell::from(Value::Seconds(s))
    }

    /// A share.
    pub fn percent(p: Percent) -> Cell {
        Cell::from(Value::Percent(p))
    }

    /// A count.
    pub fn count(n: u64) -> Cell {
        Cell::from(Value::Count(n))
    }

    /// An empty cell.
    pub fn empty() -> Cell {
        Cell::from(Value::Empty)
    }

    /// "Same as above".
    pub fn ditto() -> Cell {
        Cell::from(Value::Ditto)
    }

    /// The same cell in `tone`.
    pub fn with_tone(self, tone: Tone) -> Cell {
        Cell { tone, ..self }
    }

    /// The seconds a cell holds, when it holds measured seconds (what a
    /// chart draws).
    pub fn seconds_value(&self) -> Option<f64> {
        match &self.value {
            Value::Seconds(s) => s.value(),
            _ => None,
        }
    }

    /// True for a number: renderers align it right.
    pub fn is_number(&self) -> bool {
        match &self.value {
            Value::Seconds(s) => s.value().is_some(),
            Value::Percent(p) => p.fraction().is_some(),
            Value::Count(_) => true,
            _ => false,
        }
    }

    /// The cell as text, before any target's escaping: the one formatting
    /// rule every renderer shows.
    pub fn plain(&self) -> String {
        match &self.value {
            Value::Text(s) => s.clone(),
            Value::Seconds(s) => s.to_string(),
            Value::Percent(p) => p.to_string(),
            Value::Delta(d) => d.to_string(),
            Value::Count(n) => n.to_string(),
            Value::Empty => String::new(),
            Value::Ditto => "″".to_owned(),
        }
    }
}

impl From<Value> for Cell {
    fn from(value: Value) -> Cell {
        let tone = match &value {
            Value::Seconds(s) if s.value().is_none() => Tone::Quiet,
            Value::Percent(p) if p.fraction().is_none() => Tone::Quiet,
            Value::Ditto => Tone::Quiet,
            _ => Tone::Plain,
        };
        Cell { value, tone }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_never_reads_as_zero() {
        assert_eq!(Seconds::of(None).to_string(), "absent");
        assert_eq!(Seconds::measured(f64::NAN).to_string(), "absent");
        assert_eq!(Seconds::absent(Absent::NoReport).to_string(), "no report");
        assert_eq!(
            Seconds::of(None).or(Absent::NotMeasured).to_string(),
            "not measured"
        );
        assert_eq!(Percent::of(None).to_string(), "absent");
        assert_eq!(
            Percent::share(Seconds::measured(1.0), Seconds::of(None)).to_string(),
            "absent"
        );
    }

    #[test]
    fn one_rule_for_seconds_and_percents() {
        assert_eq!(Seconds::measured(34.2444).to_string(), "34.244 s");
        assert_eq!(Seconds::measured(-0.0004).to_string(), "0.000 s");
        assert_eq!(Seconds::measured(-1.5).to_string(), "-1.500 s");
        assert_eq!(Percent::of(Some(0.2617)).to_string(), "26.2 %");
        assert_eq!(Percent::of(Some(-0.00001)).to_string(), "0.0 %");
        assert_eq!(
            Percent::share(Seconds::measured(1.0), Seconds::measured(4.0)).to_string(),
            "25.0 %"
        );
    }

    #[test]
    fn deltas_carry_their_sign() {
        assert_eq!(
            Delta::of(Some(2.4291), Some(0.038)).to_string(),
            "+2.429 s (+3.8 %)"
        );
        assert_eq!(Delta::of(Some(-0.5), None).to_string(), "-0.500 s");
        assert_eq!(
            Delta::of(Some(-0.0001), Some(0.0)).to_string(),
            "±0.000 s (±0.0 %)"
        );
        assert_eq!(Delta::of(None, None).to_string(), "absent");
    }

    #[test]
    fn absent_cells_are_quiet_and_not_numbers() {
        let c = Cell::seconds(Seconds::absent(Absent::NoReport));
        assert_eq!(c.tone, Tone::Quiet);
        assert!(!c.is_number());
        assert!(Cell::seconds(Seconds::measured(0.0)).is_number());
        assert_eq!(Cell::ditto().plain(), "″");
    }
}
