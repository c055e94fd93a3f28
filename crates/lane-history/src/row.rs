//! The history row, the run it belongs to, acknowledgements, and reading
//! both as JSON Lines.
//!
//! A row is one value: one run's (cell, GPU class, phase) in one cold
//! repeat, with the role the phase plays in the mint's breakdown. A run is
//! keyed by its own id and time, never by its lane version: a probe lane
//! (`0.0.0`) is minted again and again. A value that was not measured is
//! absent (`seconds` left out), never `0.0`.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::HistoryError;

/// The role a row's phase plays in the mint's breakdown (`lane-ledger`'s
/// vocabulary: a partition's members, its named residual, overlays shown
/// beside it and never summed, and measured totals).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// A member of a partition (a phase, a compile span).
    Member,
    /// A named residual (`outside_phases_s`, `compile_other_s`): what the
    /// members do not cover; may be negative.
    Residual,
    /// An overlay: nests inside other rows, never summed into a partition.
    Overlay,
    /// A measured total (a mint's elapsed seconds, a partition's total).
    Total,
}

impl Role {
    /// The role's word, as JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Member => "member",
            Role::Residual => "residual",
            Role::Overlay => "overlay",
            Role::Total => "total",
        }
    }
}

/// A run's time, as its caller supplied it: an RFC 3339 timestamp or unix
/// seconds. Runs are ordered by it (then by id).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunTime {
    /// An RFC 3339 timestamp, kept as parsed.
    Rfc3339(jiff::Timestamp),
    /// Seconds since the Unix epoch.
    Unix(i64),
}

impl RunTime {
    /// Parses an RFC 3339 timestamp.
    pub fn parse(text: &str) -> Result<RunTime, String> {
        text.parse::<jiff::Timestamp>()
            .map(RunTime::Rfc3339)
            .map_err(|e| format!("not an RFC 3339 time: {e}"))
    }

    /// Nanoseconds since the Unix epoch, for ordering.
    pub fn unix_nanos(self) -> i128 {
        match self {
            RunTime::Rfc3339(t) => t.as_nanosecond(),
            RunTime::Unix(s) => i128::from(s) * 1_000_000_000,
        }
    }
}

impl PartialOrd for RunTime {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for RunTime {
    fn cmp(&self, other: &Self) -> Ordering {
        self.unix_nanos().cmp(&other.unix_nanos())
    }
}

/// RFC 3339 for people, whichever way the time was recorded (unix seconds
/// print as the UTC time they are; JSON keeps what was written).
impl fmt::Display for RunTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunTime::Rfc3339(t) => write!(f, "{t}"),
            RunTime::Unix(s) => match jiff::Timestamp::from_second(*s) {
                Ok(t) => write!(f, "{t}"),
                Err(_) => write!(f, "{s} (unix seconds)"),
            },
        }
    }
}

impl Serialize for RunTime {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RunTime::Rfc3339(t) => s.serialize_str(&t.to_string()),
            RunTime::Unix(u) => s.serialize_i64(*u),
        }
    }
}

impl<'de> Deserialize<'de> for RunTime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Unix(i64),
            Text(String),
        }
        match Raw::deserialize(d)
            .map_err(|_| serde::de::Error::custom("time is an RFC 3339 string or unix seconds"))?
        {
            Raw::Unix(s) => Ok(RunTime::Unix(s)),
            Raw::Text(t) => RunTime::parse(&t).map_err(serde::de::Error::custom),
        }
    }
}

/// The environment a run minted in: lane-core's record of it, the one
/// type a mint's `result.json`, its `mint.json` and a history row share. A
/// field that was not recorded is absent: absent is "unknown", never
/// "changed".
pub use lane_core::EnvFingerprint as Fingerprint;

/// A series: one (cell, GPU class, phase).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeriesKey {
    /// The cell.
    pub cell: String,
    /// The GPU class (`H200`, `L40S`).
    pub gpu: String,
    /// The phase, as the breakdown names it (a phase, a partition member,
    /// a residual, an overlay, `total`).
    pub phase: String,
}

impl fmt::Display for SeriesKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.cell, self.gpu, self.phase)
    }
}

/// One history value: one run's (cell, GPU class, phase) in one cold repeat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// The run's own id (unique per mint run, not per lane version).
    pub run: String,
    /// When the run minted.
    pub time: RunTime,
    /// The lane version minted (`0.93.4`, or `0.0.0` for a probe lane).
    pub lane: String,
    /// The release line the lane belongs to (`0.93`); history is kept
    /// per line.
    pub line: String,
    /// The run's environment.
    #[serde(default)]
    pub fingerprint: Fingerprint,
    /// The cell.
    pub cell: String,
    /// The GPU class.
    pub gpu: String,
    /// The phase (or residual, overlay, total) name.
    pub phase: String,
    /// What the phase is in the breakdown.
    pub role: Role,
    /// The cold repeat, from 1.
    pub repeat: u32,
    /// Seconds; absent when not measured (never `0.0` for "absent").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
}

impl Row {
    /// The row's series.
    pub fn key(&self) -> SeriesKey {
        SeriesKey {
            cell: self.cell.clone(),
            gpu: self.gpu.clone(),
            phase: self.phase.clone(),
        }
    }

    fn check(&self, line: usize) -> Result<(), HistoryError> {
        match self.seconds {
            Some(v) if !v.is_finite() || (v < 0.0 && self.role != Role::Residual) => {
                Err(HistoryError::NotAMeasurement {
                    line,
                    value: v,
                    role: self.role.as_str(),
                })
            }
            _ if self.repeat == 0 => Err(HistoryError::RepeatZero { line }),
            _ => Ok(()),
        }
    }
}

/// What an acknowledgement applies to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AckScope {
    /// Every series of the line.
    All,
    /// One series.
    Series(SeriesKey),
}

/// A known change, recorded with its reason (`lane history ack`): from
/// the acknowledged run on, the series (or every series) starts a new
/// segment, so earlier lanes are no longer its history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ack {
    /// The run that brought the change: the first run of the new segment.
    pub run: String,
    /// What it closes.
    pub scope: AckScope,
    /// Why, in the words of whoever acknowledged it.
    pub reason: String,
}

impl Ack {
    /// True when the ack applies to `key`.
    pub fn covers(&self, key: &SeriesKey) -> bool {
        match &self.scope {
            AckScope::All => true,
            AckScope::Series(k) => k == key,
        }
    }
}

fn read_lines<T: for<'de> Deserialize<'de>>(
    text: &str,
    mut check: impl FnMut(&T, usize) -> Result<(), HistoryError>,
) -> Result<Vec<T>, HistoryError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let value: T = serde_json::from_str(line).map_err(|source| HistoryError::Line {
            line: i + 1,
            column: source.column(),
            source,
        })?;
        check(&value, i + 1)?;
        out.push(value);
    }
    Ok(out)
}

/// Reads history rows from JSON Lines (one row per line; blank lines are
/// skipped). A bad line is refused with its line and column.
pub fn read_rows(text: &str) -> Result<Vec<Row>, HistoryError> {
    read_lines(text, |r: &Row, line| r.check(line))
}

/// Reads acknowledgements from JSON Lines.
pub fn read_acks(text: &str) -> Result<Vec<Ack>, HistoryError> {
    read_lines(text, |_: &Ack, _| Ok(()))
}

/// Writes rows as JSON Lines (one row per line, each line ending in `\n`).
pub fn write_rows(rows: &[Row]) -> String {
    let mut out = String::new();
    for r in rows {
        // A Row holds no map with non-string keys and no NaN (checked at
        // reading; a caller's NaN is written as null, which reading refuses).
        out.push_str(&serde_json::to_string(r).unwrap_or_default());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROW: &str = r#"{"run":"r1","time":"2026-12-01T08:25:33Z","lane":"0.0.0","line":"0.0","fingerprint":{"gpu_model":"NVIDIA H200","torch":"2.11.0"},"cell":"rig-aot","gpu":"H200","phase":"load","role":"member","repeat":1,"seconds":34.2}"#;

    #[test]
    fn a_row_round_trips_and_absent_seconds_stay_absent() {
        let rows = read_rows(&format!("{ROW}\n\n")).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].seconds, Some(34.2));
        assert_eq!(write_rows(&rows).trim_end(), ROW);
        let absent = ROW.replace(r#","seconds":34.2"#, "");
        let rows = read_rows(&absent).unwrap();
        assert_eq!(rows[0].seconds, None);
        assert!(!write_rows(&rows).contains("seconds"));
    }

    #[test]
    fn unix_seconds_and_rfc3339_order_together() {
        let a = RunTime::Unix(1_764_577_533);
        let b = RunTime::parse("2026-12-01T08:25:33Z").unwrap();
        assert!(a < b);
        let row = ROW.replace(r#""2026-12-01T08:25:33Z""#, "1764577533");
        let rows = read_rows(&row).unwrap();
        assert_eq!(rows[0].time, a);
        assert!(write_rows(&rows).contains(r#""time":1764577533"#));
        // People read RFC 3339 either way.
        assert_eq!(a.to_string(), "2025-12-01T08:25:33Z");
    }

    #[test]
    fn a_bad_line_is_named_by_line_and_column() {
        let bad = ROW.replace(r#""member""#, r#""partition""#);
        let err = read_rows(&format!("{ROW}\n{bad}\n")).unwrap_err();
        let HistoryError::Line { line, column, .. } = &err else {
            panic!("{err}")
        };
        assert_eq!(*line, 2);
        assert!(*column > 150, "{err}");
        assert!(err.to_string().starts_with("line 2, column"), "{err}");
        let bad = ROW.replace("2026-12-01T08:25:33Z", "yesterday");
        let err = read_rows(&bad).unwrap_err();
        assert!(err.to_string().contains("RFC 3339"), "{err}");
    }

    #[test]
    fn only_a_residual_may_be_negative_and_repeats_count_from_one() {
        let neg = ROW.replace("34.2", "-0.5");
        assert!(matches!(
            read_rows(&neg),
            Err(HistoryError::NotAMeasurement { line: 1, .. })
        ));
        let residual = neg.replace(r#""member""#, r#""residual""#);
        assert_eq!(read_rows(&residual).unwrap()[0].seconds, Some(-0.5));
        let zero = ROW.replace(r#""repeat":1"#, r#""repeat":0"#);
        assert!(matches!(
            read_rows(&zero),
            Err(HistoryError::RepeatZero { line: 1 })
        ));
    }

    #[test]
    fn fingerprint_changes_ignore_unknown_fields() {
        let a = Fingerprint {
            torch: Some("2.11".into()),
            driver: None,
            ..Fingerprint::default()
        };
        let b = Fingerprint {
            torch: Some("2.12".into()),
            driver: Some("580".into()),
            ..Fingerprint::default()
        };
        assert_eq!(a.changes(&b), vec![("torch", "2.11".into(), "2.12".into())]);
        assert!(a.changes(&a).is_empty());
    }

    #[test]
    fn acks_read_for_one_series_or_all() {
        let text = concat!(
            r#"{"run":"r7","scope":"all","reason":"new image"}"#,
            "\n",
            r#"{"run":"r8","scope":{"series":{"cell":"c","gpu":"H200","phase":"load"}},"reason":"bigger model"}"#,
        );
        let acks = read_acks(text).unwrap();
        let key = SeriesKey {
            cell: "c".into(),
            gpu: "H200".into(),
            phase: "load".into(),
        };
        assert!(acks[0].covers(&key) && acks[1].covers(&key));
        let other = SeriesKey {
            phase: "x".into(),
            ..key
        };
        assert!(!acks[1].covers(&other));
    }
}
