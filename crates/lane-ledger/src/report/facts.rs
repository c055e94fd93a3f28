//! Typed values of the upstream's flat tables.
//!
//! `mint_phases.totals` of the aot table is `aot_mint._mint_cell`'s
//! `timings` dict: a FLOAT table (its own comment: "`timings` is a float
//! table") that mixes seconds with counts (`entry_workers`,
//! `canonicalized_entries`), bytes (`export_peak_device_bytes`) and coded
//! sentinels (`export_reuse_eligible`: 1 yes, 0 no, -1 not determinable;
//! `export_parallel_binding`: `aot_export_parallel.decide`'s code for the
//! bound that held export width). `mint_phases.pool` is `PoolWidth.facts()`
//! plus `aot_mint._pool_facts` (the pool's ledger and peaks), where -1 means
//! "not read". Each key is typed by that vocabulary here; a key outside it is
//! kept as an [`FactValue::Unknown`] value, never read as seconds and never
//! an error, whatever its sign.

use serde::Serialize;

use crate::error::ReportError;
use lane_json::{self, JsonPath, Node, Obj, UnknownKey};

/// How a known key's number is to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Seconds, `>= 0`.
    Seconds,
    /// Seconds that may be negative (a residual).
    SignedSeconds,
    /// A non-negative integer (written as `1.0` in a float table).
    Count,
    /// Bytes, a non-negative integer.
    Bytes,
    /// Bytes, or `-1` for "this bound was not read".
    BytesOrNotRead,
    /// A plain number, or `-1` for "not read" (`quota_cores`).
    NumberOrNotRead,
    /// A ratio (`pool_efficiency`).
    Ratio,
    /// `true`/`false`, or `1`/`0` in a float table.
    Flag,
    /// A string.
    Text,
    /// `export_reuse_eligible`: 1 yes, 0 no, -1 not determinable.
    ExportReuse,
    /// `export_parallel_binding`: `aot_export_parallel.decide`'s code.
    ExportParallelBinding,
    /// An array of byte counts (`free_device_samples`).
    BytesList,
    /// An object of reason -> count (`resume_refused`).
    CountsByReason,
    /// A signed integer (`nice`, the compile children's niceness).
    SignedInteger,
    /// An object of entry -> `{allocated_bytes, reserved_bytes}`
    /// (`entry_device_peaks`, 0.114 on).
    PeaksByEntry,
    /// An object of name -> text (`device_peak_provenance`, 0.114 on).
    TextByKey,
}

/// A typed value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "unit", content = "value", rename_all = "snake_case")]
pub enum FactValue {
    /// Seconds (a residual may be negative).
    Seconds(f64),
    /// A count.
    Count(u64),
    /// Bytes.
    Bytes(u64),
    /// The writer's `-1`: the bound was not read.
    NotRead,
    /// A plain number.
    Number(f64),
    /// A ratio.
    Ratio(f64),
    /// A flag.
    Flag(bool),
    /// Text, as written.
    Text(String),
    /// A coded value and what the code means in the upstream's vocabulary.
    Code {
        /// The code as written.
        code: i64,
        /// Its meaning (`not determinable`, `vram`, ...).
        meaning: &'static str,
    },
    /// Byte counts.
    BytesList(Vec<u64>),
    /// Counts by reason, in document order.
    CountsByReason(Vec<(String, u64)>),
    /// A signed integer.
    Integer(i64),
    /// Device peaks by entry: `(entry, allocated bytes, reserved bytes)`.
    PeaksByEntry(Vec<(String, Option<u64>, Option<u64>)>),
    /// Text by name, in document order.
    TextByKey(Vec<(String, String)>),
    /// A key outside the vocabulary: its value as written.
    Unknown(serde_json::Value),
}

impl FactValue {
    /// The value as text for a person: with its unit, foreign text escaped
    /// and bounded.
    pub fn text(&self) -> String {
        use super::text::{quote, value_text, SHORT_MAX_CHARS};
        match self {
            FactValue::Seconds(v) => format!("{v:.3} s"),
            FactValue::Count(n) => n.to_string(),
            FactValue::Bytes(n) => bytes_text(*n),
            FactValue::NotRead => "not read (-1)".to_owned(),
            FactValue::Number(v) | FactValue::Ratio(v) => format!("{v}"),
            FactValue::Flag(b) => if *b { "yes" } else { "no" }.to_owned(),
            FactValue::Text(s) => quote(s, 400),
            FactValue::Code { code, meaning } => format!("{code} ({meaning})"),
            FactValue::BytesList(v) => format!(
                "[{}]",
                v.iter()
                    .map(|n| bytes_text(*n))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            FactValue::CountsByReason(v) => v
                .iter()
                .map(|(r, n)| format!("{}: {n}", quote(r, SHORT_MAX_CHARS)))
                .collect::<Vec<_>>()
                .join(", "),
            FactValue::Integer(n) => n.to_string(),
            FactValue::PeaksByEntry(v) if v.is_empty() => "none".to_owned(),
            FactValue::PeaksByEntry(v) => v
                .iter()
                .map(|(e, a, r)| {
                    let b = |x: &Option<u64>| x.map_or_else(|| "absent".to_owned(), bytes_text);
                    format!(
                        "{}: allocated {}, reserved {}",
                        quote(e, SHORT_MAX_CHARS),
                        b(a),
                        b(r)
                    )
                })
                .collect::<Vec<_>>()
                .join("; "),
            FactValue::TextByKey(v) => v
                .iter()
                .map(|(k, t)| {
                    format!(
                        "{}: {}",
                        quote(k, SHORT_MAX_CHARS),
                        quote(t, SHORT_MAX_CHARS)
                    )
                })
                .collect::<Vec<_>>()
                .join(", "),
            FactValue::Unknown(v) => value_text(v, SHORT_MAX_CHARS),
        }
    }
}

/// Bytes with a binary-prefixed reading beside them.
fn bytes_text(n: u64) -> String {
    const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
    const MIB: f64 = 1024.0 * 1024.0;
    let v = n as f64;
    if v >= GIB {
        format!("{n} B ({:.2} GiB)", v / GIB)
    } else if v >= MIB {
        format!("{n} B ({:.1} MiB)", v / MIB)
    } else {
        format!("{n} B")
    }
}

/// One named, typed value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fact {
    /// The key as written.
    pub name: String,
    /// Its typed value.
    #[serde(flatten)]
    pub value: FactValue,
}

impl Fact {
    /// The seconds, when the fact is a duration.
    pub fn seconds(&self) -> Option<f64> {
        match self.value {
            FactValue::Seconds(s) => Some(s),
            _ => None,
        }
    }

    /// The count, when the fact is one.
    pub fn count(&self) -> Option<u64> {
        match self.value {
            FactValue::Count(n) => Some(n),
            _ => None,
        }
    }

    /// The text, when the fact is text.
    pub fn text(&self) -> Option<&str> {
        match &self.value {
            FactValue::Text(s) => Some(s),
            _ => None,
        }
    }

    /// True for a key outside the vocabulary.
    pub fn is_unknown(&self) -> bool {
        matches!(self.value, FactValue::Unknown(_))
    }
}

/// The first fact named `name`.
pub fn find<'a>(facts: &'a [Fact], name: &str) -> Option<&'a Fact> {
    facts.iter().find(|f| f.name == name)
}

/// The unit of a key of the aot table's `totals`
/// (`aot_mint._mint_phase_table` and `_mint_cell`'s `timings`).
pub fn totals_unit(key: &str) -> Option<Unit> {
    Some(match key {
        // Sums over entries (`_mint_phase_table`) and the mint's own clocks.
        "export_s"
        | "compile_s"
        | "warm_s"
        | "package_s"
        | "declare_s"
        | "total_s"
        | "pack_s"
        | "export_all_s"
        | "export_reuse_respecialize_s"
        | "export_reuse_gate_s"
        // 0.114.3 on: the mint's wall from the pool's start, on the same
        // clock (and at the same moment) as `total_s`.
        | "compile_all_s" => Unit::Seconds,
        "canonicalized_entries"
        | "entry_workers"
        | "export_reuse_rows_full"
        | "export_reuse_rows_reused"
        | "export_parallel_groups"
        | "export_parallel_largest_group"
        | "export_parallel_width" => Unit::Count,
        "export_peak_device_bytes"
        | "export_peak_device_reserved_bytes"
        | "export_parallel_per_export_bytes" => Unit::Bytes,
        "export_parallel_enabled" => Unit::Flag,
        "export_reuse_eligible" => Unit::ExportReuse,
        "export_parallel_binding" => Unit::ExportParallelBinding,
        _ => return None,
    })
}

/// The unit of a key of the aot table's `pool` block (`PoolWidth.facts()`,
/// `CpuFacts`/`MemoryFacts`/`DeviceFacts.facts()`, `PoolLedger.facts()`,
/// `EntryBank.facts()` and `aot_mint._pool_facts`).
pub fn pool_unit(key: &str) -> Option<Unit> {
    Some(match key {
        "entry_workers"
        | "entries"
        | "vcpus"
        | "cpu_workers"
        | "mem_workers"
        | "device_workers"
        | "ceiling"
        | "limit"
        | "underwidth"
        | "os_cpu_count"
        | "affinity_cpus"
        | "pool_entries"
        | "pool_workers"
        | "pool_workers_initial"
        | "peak_concurrency"
        | "resumed"
        | "resume_cold"
        | "pool_classes_landed" => Unit::Count,
        "available_bytes"
        | "free_device_bytes"
        | "host_available_bytes"
        | "cgroup_available_bytes" => Unit::BytesOrNotRead,
        "per_entry_rss_bytes"
        | "per_entry_device_bytes"
        | "cgroup_reclaimable_bytes"
        | "peak_child_rss_bytes"
        | "peak_child_device_bytes"
        | "resume_banked_bytes" => Unit::Bytes,
        "quota_cores" => Unit::NumberOrNotRead,
        "device_lock" | "serve_goal" | "mint_goal" => Unit::Flag,
        "binding"
        | "width_reason"
        | "per_entry_device_basis"
        | "per_entry_rss_basis"
        | "cpu_basis"
        | "mem_basis"
        | "device_basis"
        | "oom_entry"
        | "oom_basis"
        | "resume_root"
        | "posture" => Unit::Text,
        "nice" => Unit::SignedInteger,
        "entry_device_peaks" => Unit::PeaksByEntry,
        "device_peak_provenance" => Unit::TextByKey,
        "free_device_samples" => Unit::BytesList,
        "resume_refused" => Unit::CountsByReason,
        "pool_wall_s" | "pool_busy_s" | "pool_capacity_s" | "pool_idle_s" | "idle_staging_s"
        | "idle_drain_s" | "idle_spawn_s" | "stage_total_s" | "spawn_total_s" | "seal_seed_s"
        | "resume_admit_s"
        | "idle_source_s"
        // CPU seconds summed over the compile children (0.126): may exceed
        // the wall.
        | "pool_child_cpu_s" => Unit::Seconds,
        // The residual of the pool's idle split.
        "idle_other_s" => Unit::SignedSeconds,
        "pool_efficiency" => Unit::Ratio,
        _ => return None,
    })
}

/// `aot_export_parallel.decide`'s codes for `export_parallel_binding`.
const EXPORT_PARALLEL_BINDING: [&str; 8] = [
    "unknown",
    "vram",
    "cpu",
    "ceiling",
    "group",
    "export-footprint-unmeasured",
    "no-device-reading",
    "group-too-small",
];

/// An integer written as a JSON number (`1.0` in a float table counts).
fn integer(node: &Node) -> Option<i64> {
    match *node {
        Node::U64(v) => i64::try_from(v).ok(),
        Node::I64(v) => Some(v),
        Node::F64(v) if v.fract() == 0.0 && v.abs() <= 9.0e15 => Some(v as i64),
        _ => None,
    }
}

fn not_in(path: &JsonPath, node: &Node, expected: &'static str) -> ReportError {
    ReportError::NotInVocabulary {
        path: path.clone(),
        value: crate::report::version_text(node),
        expected,
    }
}

fn bytes(node: &Node, path: &JsonPath, not_read: bool) -> Result<FactValue, ReportError> {
    if not_read && integer(node) == Some(-1) {
        return Ok(FactValue::NotRead);
    }
    match lane_json::count(node, path)? {
        Some(n) => Ok(FactValue::Bytes(n)),
        None => unreachable_null(path),
    }
}

fn unreachable_null(path: &JsonPath) -> Result<FactValue, ReportError> {
    // Callers filter `null` out first; keep an error rather than a panic.
    Err(ReportError::from(lane_json::JsonError::WrongType {
        path: path.clone(),
        expected: "a value",
        found: "null",
    }))
}

/// Reads `node` as `unit`. `null` is handled by the caller (absent).
pub(crate) fn read_value(
    node: &Node,
    path: &JsonPath,
    unit: Unit,
) -> Result<FactValue, ReportError> {
    let number = |node: &Node| {
        node.number()
            .ok_or_else(|| lane_json::JsonError::WrongType {
                path: path.clone(),
                expected: "a number",
                found: node.kind(),
            })
    };
    Ok(match unit {
        Unit::Seconds => lane_json::seconds(node, path)?
            .map_or_else(|| unreachable_null(path), |s| Ok(FactValue::Seconds(s)))?,
        Unit::SignedSeconds => lane_json::signed_seconds(node, path)?
            .map_or_else(|| unreachable_null(path), |s| Ok(FactValue::Seconds(s)))?,
        Unit::Count => match lane_json::count(node, path)? {
            Some(n) => FactValue::Count(n),
            None => unreachable_null(path)?,
        },
        Unit::Bytes => bytes(node, path, false)?,
        Unit::BytesOrNotRead => bytes(node, path, true)?,
        Unit::NumberOrNotRead => {
            let v = number(node)?;
            if v == -1.0 {
                FactValue::NotRead
            } else if v.is_finite() && v >= 0.0 {
                FactValue::Number(v)
            } else {
                return Err(not_in(path, node, "a non-negative number or -1 (not read)"));
            }
        }
        Unit::Ratio => {
            let v = number(node)?;
            if !(0.0..=1000.0).contains(&v) {
                return Err(ReportError::FractionOutOfRange {
                    path: path.clone(),
                    value: v,
                });
            }
            FactValue::Ratio(v)
        }
        Unit::Flag => match node {
            Node::Bool(b) => FactValue::Flag(*b),
            other => match integer(other) {
                Some(1) => FactValue::Flag(true),
                Some(0) => FactValue::Flag(false),
                _ => return Err(not_in(path, other, "a flag (true/false, 1 or 0)")),
            },
        },
        Unit::Text => match lane_json::string(node, path)? {
            Some(s) => FactValue::Text(s),
            None => unreachable_null(path)?,
        },
        Unit::ExportReuse => {
            let meaning = match integer(node) {
                Some(1) => "yes: one export could serve this family's rows",
                Some(0) => "no: the graph text moves with the row",
                Some(-1) => "not determinable: fewer than two rows for any key",
                _ => {
                    return Err(not_in(
                        path,
                        node,
                        "1 (yes), 0 (no) or -1 (not determinable)",
                    ))
                }
            };
            FactValue::Code {
                code: integer(node).unwrap_or_default(),
                meaning,
            }
        }
        Unit::ExportParallelBinding => match integer(node) {
            Some(code) if (0..8).contains(&code) => FactValue::Code {
                code,
                meaning: EXPORT_PARALLEL_BINDING[code as usize],
            },
            _ => return Err(not_in(path, node, "a binding code from 0 to 7")),
        },
        Unit::BytesList => match node {
            Node::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let p = path.index(i);
                    match lane_json::count(item, &p)? {
                        Some(n) => out.push(n),
                        None => return Err(not_in(&p, item, "a byte count")),
                    }
                }
                FactValue::BytesList(out)
            }
            other => {
                return Err(ReportError::from(lane_json::JsonError::WrongType {
                    path: path.clone(),
                    expected: "an array of byte counts",
                    found: other.kind(),
                }))
            }
        },
        Unit::CountsByReason => {
            let Some(mut obj) = Obj::of(node, path.clone())? else {
                return unreachable_null(path);
            };
            let mut out = Vec::new();
            for (reason, value, p) in obj.take_rest() {
                match lane_json::count(value, &p)? {
                    Some(n) => out.push((reason.to_owned(), n)),
                    None => return Err(not_in(&p, value, "a count")),
                }
            }
            FactValue::CountsByReason(out)
        }
        Unit::SignedInteger => match integer(node) {
            Some(v) => FactValue::Integer(v),
            None => return Err(not_in(path, node, "an integer")),
        },
        Unit::PeaksByEntry => {
            let Some(mut obj) = Obj::of(node, path.clone())? else {
                return unreachable_null(path);
            };
            let mut out = Vec::new();
            for (entry, value, p) in obj.take_rest() {
                let Some(mut peaks) = Obj::of(value, p.clone())? else {
                    continue;
                };
                let allocated = peaks.count("allocated_bytes")?;
                let reserved = peaks.count("reserved_bytes")?;
                if let Some((k, _, kp)) = peaks.take_rest().into_iter().next() {
                    return Err(not_in(
                        &kp,
                        &Node::Str(k.to_owned()),
                        "allocated_bytes or reserved_bytes",
                    ));
                }
                out.push((entry.to_owned(), allocated, reserved));
            }
            FactValue::PeaksByEntry(out)
        }
        Unit::TextByKey => {
            let Some(mut obj) = Obj::of(node, path.clone())? else {
                return unreachable_null(path);
            };
            let mut out = Vec::new();
            for (k, value, p) in obj.take_rest() {
                match lane_json::string(value, &p)? {
                    Some(t) => out.push((k.to_owned(), t)),
                    None => continue,
                }
            }
            FactValue::TextByKey(out)
        }
    })
}

/// Reads a flat object of facts typed by `vocabulary`, in document order.
/// Keys outside it are kept as [`FactValue::Unknown`] and listed in
/// `unknown`; `null` values are absent.
pub(crate) fn read_facts(
    node: &Node,
    path: JsonPath,
    vocabulary: fn(&str) -> Option<Unit>,
    unknown: &mut Vec<UnknownKey>,
) -> Result<Vec<Fact>, ReportError> {
    let Some(mut obj) = Obj::of(node, path)? else {
        return Ok(Vec::new());
    };
    let mut facts = Vec::new();
    for (name, value, vpath) in obj.take_rest() {
        if matches!(value, Node::Null) {
            continue;
        }
        let value = match vocabulary(name) {
            Some(unit) => read_value(value, &vpath, unit)?,
            None => {
                unknown.push(UnknownKey::new(vpath, value));
                FactValue::Unknown(value.to_json())
            }
        };
        facts.push(Fact {
            name: name.to_owned(),
            value,
        });
    }
    Ok(facts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lane_json::parse_document;

    fn facts(text: &str) -> (Vec<Fact>, Vec<UnknownKey>) {
        let node = parse_document(text.as_bytes()).unwrap();
        let mut unknown = Vec::new();
        let f = read_facts(
            &node,
            JsonPath::root().key("totals"),
            totals_unit,
            &mut unknown,
        )
        .unwrap();
        (f, unknown)
    }

    #[test]
    fn totals_are_typed_by_the_upstream_vocabulary() {
        let (f, unknown) = facts(
            r#"{"export_s": 0.44, "export_reuse_eligible": -1.0, "canonicalized_entries": 0.0,
                "entry_workers": 1.0, "export_peak_device_bytes": 3.0e9,
                "export_parallel_binding": 4.0, "export_parallel_enabled": 0.0}"#,
        );
        assert!(unknown.is_empty());
        assert_eq!(f[0].value, FactValue::Seconds(0.44));
        assert!(
            matches!(f[1].value, FactValue::Code { code: -1, meaning } if meaning.starts_with("not determinable"))
        );
        assert_eq!(f[2].value, FactValue::Count(0));
        assert_eq!(f[3].value, FactValue::Count(1));
        assert_eq!(f[4].value, FactValue::Bytes(3_000_000_000));
        assert_eq!(
            f[5].value,
            FactValue::Code {
                code: 4,
                meaning: "group"
            }
        );
        assert_eq!(f[6].value, FactValue::Flag(false));
    }

    #[test]
    fn an_unknown_negative_number_is_a_value_not_an_error() {
        let (f, unknown) = facts(r#"{"new_sentinel_s": -1.0, "total_s": 3.0}"#);
        assert_eq!(f[0].value, FactValue::Unknown(serde_json::json!(-1.0)));
        assert_eq!(unknown[0].path.as_str(), "$.totals.new_sentinel_s");
        assert_eq!(f[1].value, FactValue::Seconds(3.0));
    }

    #[test]
    fn a_sentinel_outside_its_vocabulary_names_its_path() {
        let node = parse_document(br#"{"export_reuse_eligible": 0.5}"#).unwrap();
        let err = read_facts(
            &node,
            JsonPath::root().key("totals"),
            totals_unit,
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "$.totals.export_reuse_eligible: 0.5 is not 1 (yes), 0 (no) or -1 (not determinable)"
        );
    }

    #[test]
    fn pool_not_read_sentinel() {
        let node = parse_document(
            br#"{"available_bytes": -1, "quota_cores": -1.0, "free_device_samples": [1, 2]}"#,
        )
        .unwrap();
        let f = read_facts(&node, JsonPath::root(), pool_unit, &mut Vec::new()).unwrap();
        assert_eq!(f[0].value, FactValue::NotRead);
        assert_eq!(f[1].value, FactValue::NotRead);
        assert_eq!(f[2].value, FactValue::BytesList(vec![1, 2]));
    }
}
