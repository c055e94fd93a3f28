//! Reading the aot recipe's ledgers: the per-mint phase table
//! (`aot_mint._mint_phase_table`, `mint_phases` with `v: 1`, also the
//! partial table of `aot_mint.partial_phase_table` with `terminus`/`at`) and
//! the probe's per-compile record.
//!
//! The table comes in two shapes, decided by the pool's width (pgw#809):
//! - serial (K = 1, `_export_entry(compile_now=True)`): each entry's
//!   `phases` is `aot_mint._phase_delta`'s output, the four disjoint members
//!   `lowering_s`, `codegen_s`, `host_compile_s`, `graph_passes_s` (written
//!   only when non-zero) and `triton_s`, which NESTS inside them;
//! - pooled (K > 1, `_compile_entries_parallel`): each entry's `phases` is
//!   the pool's `_close_entry_partition` output, the three nested
//!   partitions of `aot_compile_spans` plus the sub-spans beside them, and
//!   its `overlays` the child's nested spans.

use super::facts::{pool_unit, read_facts, totals_unit, Fact};
use super::{failure, named_spans, named_spans_node, AotCompileRecord, Span};
use crate::error::ReportError;
use lane_json::{self, JsonPath, Node, Obj, UnknownKey};
use serde::Serialize;

/// Every key an entry's (or the table's summed) `phases`, or a compile
/// pool share's `spans`, may hold: the members of the three partitions,
/// their totals, and the sub-spans (`aot_compile_spans.SUBSPANS`) and
/// serial overlays (`triton_s`; `autotune_s`, 0.94.1 on) written beside
/// them. SPANS_V 2 (0.113 on) adds the outer residual `parent_other_s`;
/// 0.114.3 splits `child_program_load_s` into `child_setup_s`,
/// `child_trace_s` and `child_pack_s` (the children trace and pack too).
pub const AOT_PHASE_KEYS: [&str; 24] = [
    "compile_s",
    "child_boot_s",
    "child_wall_s",
    "reap_lag_s",
    "parent_other_s",
    "child_seal_s",
    "child_torch_import_s",
    "child_devlock_s",
    "child_program_load_s",
    "child_setup_s",
    "child_trace_s",
    "child_pack_s",
    "compile_wall_s",
    "child_other_s",
    "lowering_s",
    "codegen_s",
    "graph_passes_s",
    "host_compile_s",
    "compile_other_s",
    "child_interp_s",
    "parent_stage_s",
    "parent_spawn_s",
    "triton_s",
    "autotune_s",
];

/// The four disjoint members of the compiler's own level
/// (`aot_compile_spans.PARTITION_KEYS`; a 0.114.3-on class row carries them
/// flat, beside its `compile_s`).
pub const COMPILER_MEMBERS: [&str; 4] = [
    "lowering_s",
    "codegen_s",
    "graph_passes_s",
    "host_compile_s",
];

/// Overlay names of the aot table: `aot_compile_spans.OVERLAY_KEYS` and
/// `phase_delta`'s `triton_s`, the device-lock wait, the seal's own split
/// (`env_seal.LAST_ESTABLISH_SPANS`), and the probe record's overlays.
pub const AOT_OVERLAY_KEYS: [&str; 15] = [
    "triton_s",
    "inductor_total_s",
    "device_lock_wait_s",
    "child_interp_s",
    "parent_stage_s",
    "parent_spawn_s",
    "seal_scrub_s",
    "seal_config_s",
    "seal_isa_s",
    "seal_dynamo_s",
    "seal_posture_s",
    "seal_effective_s",
    "seal_libhash_s",
    // 0.94.1 on (pgw#1006), and the probe record's (tests/data/h200-torch2.11).
    "autotune_s",
    "async_wait_s",
];

/// Spans that may be negative: the residuals the upstream writes
/// (`parent_other_s` from SPANS_V 2), and the three spans closed across the
/// process boundary on the wall clock (`child_boot_s`, `child_interp_s`,
/// `reap_lag_s`), which a clock step can push below zero.
const SIGNED_PHASE_KEYS: [&str; 6] = [
    "compile_other_s",
    "child_other_s",
    "parent_other_s",
    "child_boot_s",
    "child_interp_s",
    "reap_lag_s",
];

/// The aot phase table (`mint_phases` with `v: 1`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AotTable {
    /// The version, 1.
    pub v: u64,
    /// `n_entries`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_entries: Option<u64>,
    /// `autotune`, `inductor_configs`, `compiler_owner`: how it compiled.
    #[serde(flatten)]
    pub posture: Posture,
    /// `totals`, typed by the upstream's vocabulary, in document order.
    pub totals: Vec<Fact>,
    /// `phases`: every entry's phases summed upstream, as written.
    pub phases: Vec<Span>,
    /// `overlays`: every entry's overlays summed upstream, never summed here.
    pub overlays: Vec<Span>,
    /// `entries`, in document order.
    pub entries: Vec<AotEntry>,
    /// `pool`: the width decision and the pool's own ledger.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool: Option<Vec<Fact>>,
    /// `terminus` and `at` of a partial table.
    #[serde(flatten)]
    pub partial: Partial,
}

/// The compile posture an aot table records, each as written.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Posture {
    /// `autotune`: the posture, as compact JSON text (not interpreted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autotune: Option<String>,
    /// `inductor_configs`: the resolved configs, as compact JSON text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inductor_configs: Option<String>,
    /// `compiler_owner` (0.117 on, in place of `autotune` and
    /// `inductor_configs`): `torch-compiled-graphs` (0.117-0.118), `torchcg`
    /// (0.119 on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compiler_owner: Option<String>,
}

/// Where a partial table (`aot_mint.partial_phase_table`) says the mint
/// stopped; both absent on a finished mint's table.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Partial {
    /// `terminus` (`aborted`, `in_flight`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminus: Option<String>,
    /// `at`: the position the mint was ON when the partial table was taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<MintPosition>,
}

impl AotTable {
    /// The total named `name`.
    pub fn total(&self, name: &str) -> Option<&Fact> {
        super::facts::find(&self.totals, name)
    }
}

/// `MintProgress.at`: the last position `beat()` reported.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct MintPosition {
    /// The phase (`trace_graph`, `inductor_compile`, `seal_publish`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// Steps done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<u64>,
    /// Steps in all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// The note (an entry name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Which writer an entry's `phases` came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryShape {
    /// `_phase_delta` in the mint child: the four members and `triton_s`.
    Serial,
    /// The pool's `_close_entry_partition`: three nested partitions.
    Pooled,
    /// A compile child's flat class row (0.114.3 on: `export_s`,
    /// `compile_s`, `reuse_s`, `nodes` and the four compiler members side
    /// by side, `_span_fields`), in the table (0.124 on) or a share report.
    Class,
    /// No `phases` at all (an entry exported but never compiled).
    Unmeasured,
}

/// One entry (graph class) of the aot table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AotEntry {
    /// The entry's name (the key of `entries`).
    pub name: String,
    /// `export_s`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub export_s: Option<f64>,
    /// `warm_s`: the declared pre-warm, when the family runs one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warm_s: Option<f64>,
    /// `compile_s`: the mint child's wall around `aot_compile` (serial) or
    /// the pool's Popen-to-reap wall (pooled, rounded to 10 ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_s: Option<f64>,
    /// `prop_probe_s`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prop_probe_s: Option<f64>,
    /// `export_how` (absent for a full export).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub export_how: Option<String>,
    /// `reuse_s` (a class row): seconds spent resolving the class from the
    /// compiled-graph cache instead of compiling it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reuse_s: Option<f64>,
    /// `nodes` (a class row): the graph's node count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// True for a flat class row (its compiler members sit beside
    /// `compile_s`, gathered into `phases` here).
    pub flat: bool,
    /// `phases`, as written (a flat row's compiler members); `None` when
    /// the entry has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phases: Option<Vec<Span>>,
    /// `overlays`, never summed.
    pub overlays: Vec<Span>,
    /// Keys outside the vocabulary, as written.
    pub other: Vec<Fact>,
    /// True when the entry carries a failure marker.
    pub failed: bool,
    /// The error text, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl AotEntry {
    /// The `phases` member `name`, when written.
    pub fn phase(&self, name: &str) -> Option<f64> {
        self.phases
            .as_deref()?
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.seconds)
    }

    /// Which writer the entry's `phases` came from.
    pub fn shape(&self) -> EntryShape {
        match &self.phases {
            None => EntryShape::Unmeasured,
            Some(_) if self.flat => EntryShape::Class,
            Some(p) if p.iter().any(|s| is_pooled_key(&s.name)) => EntryShape::Pooled,
            Some(_) => EntryShape::Serial,
        }
    }
}

fn is_pooled_key(name: &str) -> bool {
    name.starts_with("child_") || name.starts_with("parent_") || name == "compile_wall_s"
}

pub(super) fn read_aot_table(
    obj: &mut Obj<'_>,
    unknown: &mut Vec<UnknownKey>,
) -> Result<AotTable, ReportError> {
    let n_entries = obj.count("n_entries")?;
    let autotune = obj.take("autotune").and_then(|(n, _)| posture(n));
    let inductor_configs = obj.take("inductor_configs").and_then(|(n, _)| posture(n));
    let compiler_owner = obj.string("compiler_owner")?;
    let totals = match obj.take("totals") {
        Some((node, path)) => read_facts(node, path, totals_unit, unknown)?,
        None => Vec::new(),
    };
    let phases = match obj.take("phases") {
        Some((node, path)) => {
            phase_spans(node, path, unknown, &mut Vec::new())?.unwrap_or_default()
        }
        None => Vec::new(),
    };
    let overlays = match obj.take("overlays") {
        Some((node, path)) => overlay_spans(node, path, unknown, &mut Vec::new())?,
        None => Vec::new(),
    };
    let mut entries = Vec::new();
    if let Some((node, path)) = obj.take("entries") {
        match node {
            Node::Null => {}
            // `_mint_phase_table`: `{row.name: dict(row.timings)}`.
            Node::Object(fields) => {
                for (name, item) in fields {
                    entries.push(read_entry(item, path.key(name), name, unknown)?);
                }
            }
            other => {
                return Err(ReportError::from(lane_json::JsonError::WrongType {
                    path,
                    expected: "an object of entries by name",
                    found: other.kind(),
                }))
            }
        }
    }
    let pool = match obj.take("pool") {
        Some((Node::Null, _)) | None => None,
        Some((node, path)) => Some(read_facts(node, path, pool_unit, unknown)?),
    };
    let terminus = obj.string("terminus")?;
    let at = match obj.take("at") {
        Some((node, path)) => match Obj::of(node, path)? {
            Some(mut a) => {
                let at = MintPosition {
                    phase: a.string("phase")?,
                    step: a.count("step")?,
                    total: a.count("total")?,
                    note: a.string("note")?,
                };
                a.finish(unknown);
                Some(at)
            }
            None => None,
        },
        None => None,
    };
    Ok(AotTable {
        v: 1,
        n_entries,
        posture: Posture {
            autotune,
            inductor_configs,
            compiler_owner,
        },
        totals,
        phases,
        overlays,
        entries,
        pool,
        partial: Partial { terminus, at },
    })
}

/// A posture block as compact JSON text; absent when `null` or `{}`.
fn posture(node: &Node) -> Option<String> {
    match node {
        Node::Str(s) => Some(s.clone()),
        n if n.is_empty_or_null() => None,
        n => Some(n.to_json().to_string()),
    }
}

/// Reads a `phases` object of the aot vocabulary: known keys as spans
/// (residuals and cross-process spans may be negative), anything else kept
/// as a value in `other` and listed in `unknown`.
pub(super) fn phase_spans(
    node: &Node,
    path: JsonPath,
    unknown: &mut Vec<UnknownKey>,
    other: &mut Vec<Fact>,
) -> Result<Option<Vec<Span>>, ReportError> {
    let Some(mut obj) = Obj::of(node, path)? else {
        return Ok(None);
    };
    let mut spans = Vec::new();
    for (key, value, vpath) in obj.take_rest() {
        if !AOT_PHASE_KEYS.contains(&key) {
            keep_unknown(key, value, vpath, unknown, other);
            continue;
        }
        let v = if SIGNED_PHASE_KEYS.contains(&key) {
            lane_json::signed_seconds(value, &vpath)?
        } else {
            lane_json::seconds(value, &vpath)?
        };
        if let Some(v) = v {
            spans.push(Span::new(key, v));
        }
    }
    Ok(Some(spans))
}

/// Reads an `overlays` object: overlays are shown, never summed, so a
/// non-negative number under an unknown name is still an overlay (and is
/// listed as unknown); anything else is kept as a value.
pub(super) fn overlay_spans(
    node: &Node,
    path: JsonPath,
    unknown: &mut Vec<UnknownKey>,
    other: &mut Vec<Fact>,
) -> Result<Vec<Span>, ReportError> {
    let Some(mut obj) = Obj::of(node, path)? else {
        return Ok(Vec::new());
    };
    let mut spans = Vec::new();
    for (key, value, vpath) in obj.take_rest() {
        let known = AOT_OVERLAY_KEYS.contains(&key);
        if !known {
            let plausible = value
                .number()
                .is_some_and(|v| (0.0..=lane_json::MAX_SECONDS).contains(&v));
            if !plausible {
                keep_unknown(key, value, vpath, unknown, other);
                continue;
            }
            unknown.push(UnknownKey::new(vpath.clone(), value));
        }
        if let Some(v) = lane_json::seconds(value, &vpath)? {
            spans.push(Span::new(key, v));
        }
    }
    Ok(spans)
}

fn keep_unknown(
    key: &str,
    value: &Node,
    path: JsonPath,
    unknown: &mut Vec<UnknownKey>,
    other: &mut Vec<Fact>,
) {
    other.push(Fact {
        name: key.to_owned(),
        value: super::facts::FactValue::Unknown(value.to_json()),
    });
    unknown.push(UnknownKey::new(path, value));
}

pub(super) fn read_entry(
    node: &Node,
    path: JsonPath,
    name: &str,
    unknown: &mut Vec<UnknownKey>,
) -> Result<AotEntry, ReportError> {
    let Some(mut obj) = Obj::of(node, path.clone())? else {
        return Err(ReportError::from(lane_json::JsonError::WrongType {
            path,
            expected: "an entry object",
            found: "null",
        }));
    };
    let name = name.to_owned();
    let export_s = obj.seconds("export_s")?;
    let warm_s = obj.seconds("warm_s")?;
    let compile_s = obj.seconds("compile_s")?;
    let prop_probe_s = obj.seconds("prop_probe_s")?;
    let export_how = obj.string("export_how")?;
    let reuse_s = obj.seconds("reuse_s")?;
    let nodes = obj.count("nodes")?;
    let mut other = Vec::new();
    let mut phases = match obj.take("phases") {
        Some((node, p)) => phase_spans(node, p, unknown, &mut other)?,
        None => None,
    };
    // A class row (0.114.3 on) carries the compiler members flat.
    let mut flat = false;
    if phases.is_none() {
        let mut members = Vec::new();
        for key in COMPILER_MEMBERS {
            if let Some(v) = obj.seconds(key)? {
                members.push(Span::new(key, v));
            }
        }
        if !members.is_empty() {
            flat = true;
            phases = Some(members);
        }
    }
    let overlays = match obj.take("overlays") {
        Some((node, p)) => overlay_spans(node, p, unknown, &mut other)?,
        None => Vec::new(),
    };
    let (failed, error) = failure(&mut obj)?;
    for (key, value, vpath) in obj.take_rest() {
        keep_unknown(key, value, vpath, unknown, &mut other);
    }
    Ok(AotEntry {
        name,
        export_s,
        warm_s,
        compile_s,
        prop_probe_s,
        export_how,
        reuse_s,
        nodes,
        flat,
        phases,
        overlays,
        other,
        failed,
        error,
    })
}

/// Probe record keys that the determinism diff (not the ledger) reads, or
/// that carry no timing: known, so not reported as unknown.
const RECORD_OTHER_KEYS: [&str; 3] = ["files", "best_configs", "stderr_tail"];

pub(super) fn read_compile_record(
    obj: &mut Obj<'_>,
    unknown: &mut Vec<UnknownKey>,
) -> Result<AotCompileRecord, ReportError> {
    let tag = obj.string("tag")?;
    let exit = match obj.take("exit") {
        None | Some((Node::Null, _)) => None,
        Some((Node::U64(v), _)) => Some(i64::try_from(*v).unwrap_or(i64::MAX)),
        Some((Node::I64(v), _)) => Some(*v),
        Some((other, path)) => {
            return Err(ReportError::from(lane_json::JsonError::WrongType {
                path,
                expected: "an integer exit code",
                found: other.kind(),
            }))
        }
    };
    let export_s = obj.seconds("export_s")?;
    let compile_wall_s = obj.seconds("compile_wall_s")?;
    let partition = match obj.take("partition") {
        Some((node, path)) => named_spans_node(
            node,
            path,
            &crate::keyset::AOT_RECORD_PARTITION_KEYS,
            unknown,
        )?,
        None => Vec::new(),
    };
    let overlays = named_spans(obj, "overlays", &AOT_OVERLAY_KEYS, unknown)?;
    for key in RECORD_OTHER_KEYS {
        let _ = obj.take(key);
    }
    Ok(AotCompileRecord {
        tag,
        exit,
        export_s,
        compile_wall_s,
        partition,
        overlays,
    })
}
