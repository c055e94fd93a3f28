//! Reading one mint report: the JSON a mint child writes (see
//! `docs/ledger.md` and the domain notes), in every shape seen upstream.
//!
//! - a report whose `mint_phases` is empty: phases only, the shape from before
//!   the warm ledger existed (the seed's 97.6 % table);
//! - a dynamo report with the warm ledger, `mint_phases.spans_v: 1`;
//! - an aot report with the per-entry table, `mint_phases.v: 1`;
//! - the probe's per-compile record (`compile_wall_s` + `partition`, plus the
//!   `files`/`best_configs` the determinism diff reads), one AOT entry's
//!   innermost partition.
//!
//! The report itself is `mint_process.MintReport` (status, artifact, digest,
//! cell_key, detail, phase, peak_vram_bytes, elapsed_s, phases, mint_phases,
//! recipe), written by `mint_child.main` on every terminus it reaches.
//!
//! Rules: a value that is absent stays `None` (never `0.0`); unknown keys are
//! kept with their values in [`MintReport::unknown_keys`] (reports come from
//! many upstream versions, so an unknown key is news, not an error, and is
//! never read as seconds, whatever its sign); wrong types, non-finite numbers
//! and negative durations of KNOWN keys are errors naming the JSON path.
//! Only named residuals (and spans closed across a process boundary) may be
//! negative.

use serde::Serialize;

use crate::error::ReportError;
use lane_json::{self, parse_document, JsonPath, Node, Obj, UnknownKey};

mod aot;
pub mod era;
pub mod facts;
pub mod share;
pub mod text;
pub mod verdict;
mod warm;

use aot::{read_aot_table, read_compile_record};
pub use aot::{
    AotEntry, AotTable, EntryShape, MintPosition, Partial, Posture, AOT_OVERLAY_KEYS,
    AOT_PHASE_KEYS, COMPILER_MEMBERS,
};
pub use era::{Era, EraLine};
pub use facts::{Fact, FactValue};
pub use share::{parse_share_report, ShareClass, ShareReport};
pub use verdict::{CompileVerdict, SpecState, Specialization};
use warm::read_warm;
pub use warm::{WarmJob, WarmLedger, WarmTotals, WARM_OVERLAY_KEYS, WARM_PARTITION_KEYS};

/// The default cap on a report's size: reports are kilobytes; a larger input
/// is refused before parsing rather than exhausting memory.
pub const DEFAULT_MAX_REPORT_BYTES: u64 = 256 * 1024 * 1024;

/// A named number of seconds, as written in a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Span {
    /// The key it was read from (`warmup_forward`, `codegen_s`, ...).
    pub name: String,
    /// Seconds; only residuals can be negative.
    pub seconds: f64,
}

impl Span {
    /// Shorthand constructor.
    pub fn new(name: impl Into<String>, seconds: f64) -> Self {
        Span {
            name: name.into(),
            seconds,
        }
    }
}

pub use lane_core::{MintStatus, Named, Recipe};

/// Which shape of JSON the report had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportShape {
    /// A mint report (`status`, `phases`, `mint_phases`, ...).
    MintReport,
    /// The probe's per-compile record (`compile_wall_s`, `partition`, ...).
    AotCompileRecord,
    /// A `gen-worker compile --verdict` file (0.127 on: `rc`,
    /// `specializations`; no MintReport exists).
    CompileVerdict,
}

/// A cell a report's `entries` names (0.114 on: one per packed graph
/// class).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PackedEntry {
    /// The compiled-graph key (`cg-key-v1-...`).
    pub key: String,
    /// Where the child moved it.
    pub path: String,
    /// Its sha256.
    pub sha256: String,
}

/// The fake-export footprint fields (pgw#1080, 0.100 on): `MintReport`'s
/// defaults (`[]`, `""`, `0`) read as absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Footprint {
    /// `structure_only_components`: built structure-only.
    pub structure_only_components: Vec<String>,
    /// `structure_refusal`: why a component could not be (prose, raw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structure_refusal: Option<String>,
    /// `virtual_param_bytes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub virtual_param_bytes: Option<u64>,
    /// `structure_real_bytes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structure_real_bytes: Option<u64>,
    /// `warm_proof_peak_bytes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warm_proof_peak_bytes: Option<u64>,
    /// `warm_proof_values` (raw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warm_proof_values: Option<String>,
    /// `export_peak_bytes` (defaults to the mint's peak upstream).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub export_peak_bytes: Option<u64>,
}

/// The footprint keys, as `MintReport` declares them.
const FOOTPRINT_KEYS: [&str; 7] = [
    "structure_only_components",
    "structure_refusal",
    "virtual_param_bytes",
    "structure_real_bytes",
    "warm_proof_peak_bytes",
    "warm_proof_values",
    "export_peak_bytes",
];

/// One parsed mint report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MintReport {
    /// Which JSON shape it had.
    pub shape: ReportShape,
    /// `status`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Named<MintStatus>>,
    /// The era that wrote it, recognised from its own fields; absent when
    /// it carries none of the fields that tell the eras apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub era: Option<Era>,
    /// `cell_key` (0.93-0.116; `compiled_graph_key` from 0.117).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell_key: Option<String>,
    /// `compiled_graph_key` (0.117 on; empty on the per-class path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compiled_graph_key: Option<String>,
    /// `entries` (0.114 on): the packed graph classes; `None` when the
    /// report has no such key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entries: Option<Vec<PackedEntry>>,
    /// The footprint fields (0.100 on), when the report has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub footprint: Option<Footprint>,
    /// `artifact`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact: Option<String>,
    /// `digest`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// `detail`: why it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// `phase`: the phase it ended in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// `recipe` as the report echoes it. Only a `minted` report's echo is a
    /// claim: a child that died before it knew its recipe echoes
    /// `MintReport`'s default, `dynamo` (see [`MintReport::claimed_recipe`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipe: Option<Named<Recipe>>,
    /// `elapsed_s`: the child's own total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elapsed_s: Option<f64>,
    /// `parent_wall_s`: the parent's wall, the honest cost when the child
    /// died before writing its own total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_wall_s: Option<f64>,
    /// `peak_vram_bytes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_vram_bytes: Option<u64>,
    /// `phases` in document order; `None` when the report has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phases: Option<Vec<Span>>,
    /// The detailed ledger (`mint_phases`), in whichever version it came.
    pub ledger: MintLedger,
    /// `raw_metrics`: torch's `compilation_time_metrics` deltas, the key set
    /// seen on the running torch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_metrics: Option<Vec<Span>>,
    /// Keys lane does not know, with their values: tolerated and reported.
    pub unknown_keys: Vec<UnknownKey>,
}

impl MintReport {
    /// The echoed recipe, believed only when the report says `minted`
    /// (`mint_child.main` writes refusals and failures without a recipe, so
    /// they echo the struct's default).
    pub fn claimed_recipe(&self) -> Option<Recipe> {
        match self.status {
            Some(Named::Known(MintStatus::Minted)) => self.recipe.as_ref()?.known(),
            _ => None,
        }
    }

    /// The recipe lane believes: the claim of a minted report, else the one
    /// the ledger's own shape implies (an aot table is the aot recipe's),
    /// else none.
    pub fn believed_recipe(&self) -> Option<Recipe> {
        self.claimed_recipe().or(match self.ledger {
            MintLedger::AotCompileRecord(_)
            | MintLedger::AotTableV1(_)
            | MintLedger::CompileVerdict(_) => Some(Recipe::Aot),
            MintLedger::WarmSpansV1(_) => Some(Recipe::Dynamo),
            _ => None,
        })
    }
}

/// The detailed ledger of a mint, by version. Versions are never mixed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "version", rename_all = "snake_case")]
pub enum MintLedger {
    /// No ledger: `mint_phases` absent, `null` or `{}` (the pre-ledger shape).
    None,
    /// The dynamo warm ledger, `spans_v: 1`.
    WarmSpansV1(WarmLedger),
    /// The aot per-entry table, `v: 1`.
    AotTableV1(AotTable),
    /// The probe's per-compile record (one entry's `compile_wall_s` level).
    AotCompileRecord(AotCompileRecord),
    /// A `gen-worker compile --verdict` file (0.127 on).
    CompileVerdict(CompileVerdict),
    /// A version this lane does not know: not interpreted.
    Unknown {
        /// The version key (`spans_v`, `v`) or `(none)` when unversioned.
        key: String,
        /// The version value as written.
        value: String,
    },
    /// Both version keys at once: refused, not interpreted.
    Mixed {
        /// Every version key and value found, `key=value`.
        versions: Vec<String>,
    },
}

impl MintLedger {
    /// A short stable label for the version (`warm_spans_v1`, `aot_table_v1`,
    /// `aot_compile_record`, `none`, `unknown`, `mixed`).
    pub fn label(&self) -> &'static str {
        match self {
            MintLedger::None => "none",
            MintLedger::WarmSpansV1(_) => "warm_spans_v1",
            MintLedger::AotTableV1(_) => "aot_table_v1",
            MintLedger::AotCompileRecord(_) => "aot_compile_record",
            MintLedger::CompileVerdict(_) => "compile_verdict",
            MintLedger::Unknown { .. } => "unknown",
            MintLedger::Mixed { .. } => "mixed",
        }
    }
}

/// The probe's per-compile record: one cold AOT compile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AotCompileRecord {
    /// `tag`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// `exit`: the child's exit code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<i64>,
    /// `export_s`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub export_s: Option<f64>,
    /// `compile_wall_s`: the partition's total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_wall_s: Option<f64>,
    /// `partition`, residual included, as written.
    pub partition: Vec<Span>,
    /// `overlays`, never summed.
    pub overlays: Vec<Span>,
}

/// Residual members of the warm ledger and the probe record: the only
/// members of theirs allowed to be negative.
pub const RESIDUAL_KEYS: [&str; 4] = [
    "compile_other_s",
    "child_other_s",
    "warm_execute_s",
    "execute_s",
];

/// Parses a report, refusing inputs above `max_bytes`.
pub fn parse_report_with_limit(bytes: &[u8], max_bytes: u64) -> Result<MintReport, ReportError> {
    if bytes.len() as u64 > max_bytes {
        return Err(ReportError::TooLarge {
            size: bytes.len() as u64,
            limit: max_bytes,
        });
    }
    let doc = parse_document(bytes)?;
    let report = read_report(&doc)?;
    tracing::debug!(
        shape = ?report.shape,
        ledger = report.ledger.label(),
        unknown_keys = report.unknown_keys.len(),
        "parsed mint report"
    );
    Ok(report)
}

/// Parses a report with the [`DEFAULT_MAX_REPORT_BYTES`] cap.
pub fn parse_report(bytes: &[u8]) -> Result<MintReport, ReportError> {
    parse_report_with_limit(bytes, DEFAULT_MAX_REPORT_BYTES)
}

fn read_report(doc: &Node) -> Result<MintReport, ReportError> {
    let root = JsonPath::root();
    let not_a_report = |found| lane_json::JsonError::WrongType {
        path: JsonPath::root(),
        expected: "a mint report object",
        found,
    };
    let mut obj = match doc {
        Node::Object(_) => match Obj::of(doc, root)? {
            Some(obj) => obj,
            None => return Err(not_a_report("null").into()),
        },
        other => return Err(not_a_report(other.kind()).into()),
    };
    let mut unknown = Vec::new();
    let is_record = obj.has("compile_wall_s") || obj.has("partition");
    let shape = if !obj.has("status") && obj.has("rc") {
        ReportShape::CompileVerdict
    } else if is_record && !obj.has("mint_phases") && !obj.has("phases") {
        ReportShape::AotCompileRecord
    } else {
        ReportShape::MintReport
    };
    if shape == ReportShape::CompileVerdict {
        return read_verdict_report(obj, unknown);
    }
    let keys = era::EraKeys {
        recipe: obj.has("recipe"),
        entries: obj.has("entries"),
        cell_key: obj.has("cell_key"),
        compiled_graph_key: obj.has("compiled_graph_key"),
        footprint: FOOTPRINT_KEYS.iter().any(|k| obj.has(k)),
    };

    // `MintReport`'s defaults ("" and 0) are what a terminus that never set
    // the field writes: absent, not a value.
    let mut text = |key: &str| -> Result<Option<String>, ReportError> {
        Ok(obj.string(key)?.filter(|s| !s.is_empty()))
    };
    let status = text("status")?.map(|s| Named::parse(&s));
    let cell_key = text("cell_key")?;
    let compiled_graph_key = text("compiled_graph_key")?;
    let artifact = text("artifact")?;
    let digest = text("digest")?;
    let detail = text("detail")?;
    let phase = text("phase")?;
    let recipe = text("recipe")?.map(|s| Named::parse(&s));
    let elapsed_s = obj.seconds("elapsed_s")?;
    let parent_wall_s = obj.seconds("parent_wall_s")?;
    let peak_vram_bytes = obj.count("peak_vram_bytes")?.filter(|b| *b > 0);
    let phases = match obj.take("phases") {
        Some((node, path)) => span_map(node, &path)?,
        None => None,
    };
    let raw_metrics = match obj.take("raw_metrics") {
        Some((node, path)) => span_map(node, &path)?,
        None => None,
    };
    let entries = match obj.take("entries") {
        Some((node, path)) => Some(packed_entries(node, &path)?),
        None => None,
    };
    let footprint = if keys.footprint {
        Some(read_footprint(&mut obj)?)
    } else {
        None
    };

    let ledger = match shape {
        ReportShape::AotCompileRecord => {
            MintLedger::AotCompileRecord(read_compile_record(&mut obj, &mut unknown)?)
        }
        ReportShape::MintReport | ReportShape::CompileVerdict => match obj.take("mint_phases") {
            None => MintLedger::None,
            Some((node, path)) => read_ledger(node, path, &mut unknown)?,
        },
    };
    // The status of a record comes from the child's exit code.
    let status = status.or(match &ledger {
        MintLedger::AotCompileRecord(r) => match r.exit {
            Some(0) => Some(Named::Known(MintStatus::Minted)),
            Some(_) => Some(Named::Known(MintStatus::Failed)),
            None => None,
        },
        _ => None,
    });
    obj.finish(&mut unknown);
    let era = era::recognise(keys, &ledger);
    Ok(MintReport {
        shape,
        status,
        era,
        cell_key,
        compiled_graph_key,
        entries,
        footprint,
        artifact,
        digest,
        detail,
        phase,
        recipe,
        elapsed_s,
        parent_wall_s,
        peak_vram_bytes,
        phases,
        ledger,
        raw_metrics,
        unknown_keys: unknown,
    })
}

/// A `gen-worker compile --verdict` file as a report: its status, detail and
/// rows are the verdict's.
fn read_verdict_report(
    mut obj: Obj<'_>,
    mut unknown: Vec<UnknownKey>,
) -> Result<MintReport, ReportError> {
    let v = verdict::read_verdict(&mut obj, &mut unknown)?;
    obj.finish(&mut unknown);
    let ledger = MintLedger::CompileVerdict(v);
    let MintLedger::CompileVerdict(v) = &ledger else {
        unreachable!("built just above")
    };
    let (status, detail) = (v.status(), v.detail());
    Ok(MintReport {
        shape: ReportShape::CompileVerdict,
        status: Some(Named::Known(status)),
        era: era::recognise(era::EraKeys::default(), &ledger),
        cell_key: None,
        compiled_graph_key: None,
        entries: None,
        footprint: None,
        artifact: None,
        digest: None,
        detail,
        phase: None,
        recipe: None,
        elapsed_s: None,
        parent_wall_s: None,
        peak_vram_bytes: None,
        phases: None,
        ledger,
        raw_metrics: None,
        unknown_keys: unknown,
    })
}

/// `entries`: `[[key, path, sha256], ...]`.
fn packed_entries(node: &Node, path: &JsonPath) -> Result<Vec<PackedEntry>, ReportError> {
    let wrong = |p: JsonPath, found| {
        ReportError::from(lane_json::JsonError::WrongType {
            path: p,
            expected: "[key, path, sha256]",
            found,
        })
    };
    let items = match node {
        Node::Null => return Ok(Vec::new()),
        Node::Array(items) => items,
        other => {
            return Err(ReportError::from(lane_json::JsonError::WrongType {
                path: path.clone(),
                expected: "an array of [key, path, sha256]",
                found: other.kind(),
            }))
        }
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let p = path.index(i);
        let Node::Array(row) = item else {
            return Err(wrong(p, item.kind()));
        };
        let [k, f, h] = row.as_slice() else {
            return Err(wrong(p, "an array of another length"));
        };
        let field = |n: &Node, j: usize| -> Result<String, ReportError> {
            lane_json::string(n, &p.index(j))?.ok_or_else(|| wrong(p.index(j), "null"))
        };
        out.push(PackedEntry {
            key: field(k, 0)?,
            path: field(f, 1)?,
            sha256: field(h, 2)?,
        });
    }
    Ok(out)
}

/// The footprint fields; `MintReport`'s defaults read as absent.
fn read_footprint(obj: &mut Obj<'_>) -> Result<Footprint, ReportError> {
    let mut bytes =
        |key: &str| -> Result<Option<u64>, ReportError> { Ok(obj.count(key)?.filter(|b| *b > 0)) };
    let virtual_param_bytes = bytes("virtual_param_bytes")?;
    let structure_real_bytes = bytes("structure_real_bytes")?;
    let warm_proof_peak_bytes = bytes("warm_proof_peak_bytes")?;
    let export_peak_bytes = bytes("export_peak_bytes")?;
    let structure_only_components = match obj.take("structure_only_components") {
        Some((node, path)) => match node {
            Node::Null => Vec::new(),
            Node::Array(items) => items
                .iter()
                .enumerate()
                .filter_map(|(i, n)| lane_json::string(n, &path.index(i)).transpose())
                .collect::<Result<_, _>>()?,
            other => {
                return Err(ReportError::from(lane_json::JsonError::WrongType {
                    path,
                    expected: "an array of component names",
                    found: other.kind(),
                }))
            }
        },
        None => Vec::new(),
    };
    Ok(Footprint {
        structure_only_components,
        structure_refusal: obj.string("structure_refusal")?.filter(|s| !s.is_empty()),
        virtual_param_bytes,
        structure_real_bytes,
        warm_proof_peak_bytes,
        warm_proof_values: obj.string("warm_proof_values")?.filter(|s| !s.is_empty()),
        export_peak_bytes,
    })
}

/// Reads an object of `name: seconds` (the report's `phases`, whose names
/// are the child's frame names, and `raw_metrics`); `null` values are absent
/// and skipped.
fn span_map(node: &Node, path: &JsonPath) -> Result<Option<Vec<Span>>, ReportError> {
    let Some(mut obj) = Obj::of(node, path.clone())? else {
        return Ok(None);
    };
    let mut spans = Vec::new();
    for (key, value, vpath) in obj.take_rest() {
        if let Some(v) = lane_json::seconds(value, &vpath)? {
            spans.push(Span::new(key, v));
        }
    }
    Ok(Some(spans))
}

fn read_ledger(
    node: &Node,
    path: JsonPath,
    unknown: &mut Vec<UnknownKey>,
) -> Result<MintLedger, ReportError> {
    if node.is_empty_or_null() {
        return Ok(MintLedger::None);
    }
    let Some(mut obj) = Obj::of(node, path.clone())? else {
        return Ok(MintLedger::None);
    };
    let spans_v = obj.take("spans_v");
    let v = obj.take("v");
    match (spans_v, v) {
        (Some((a, _)), Some((b, _))) => Ok(MintLedger::Mixed {
            versions: vec![
                format!("spans_v={}", version_text(a)),
                format!("v={}", version_text(b)),
            ],
        }),
        (Some((ver, vpath)), None) => {
            if lane_json::count(ver, &vpath).ok().flatten() == Some(1) {
                let warm = read_warm(&mut obj, unknown)?;
                obj.finish(unknown);
                Ok(MintLedger::WarmSpansV1(warm))
            } else {
                Ok(MintLedger::Unknown {
                    key: "spans_v".into(),
                    value: version_text(ver),
                })
            }
        }
        (None, Some((ver, vpath))) => {
            if lane_json::count(ver, &vpath).ok().flatten() == Some(1) {
                let table = read_aot_table(&mut obj, unknown)?;
                obj.finish(unknown);
                Ok(MintLedger::AotTableV1(table))
            } else {
                Ok(MintLedger::Unknown {
                    key: "v".into(),
                    value: version_text(ver),
                })
            }
        }
        (None, None) => Ok(MintLedger::Unknown {
            key: "(none)".into(),
            value: "unversioned".into(),
        }),
    }
}

pub(super) fn version_text(node: &Node) -> String {
    match node {
        Node::Str(s) => s.clone(),
        Node::U64(v) => v.to_string(),
        Node::I64(v) => v.to_string(),
        Node::F64(v) => v.to_string(),
        Node::Bool(b) => b.to_string(),
        Node::Null => "null".into(),
        Node::Array(_) => "[..]".into(),
        Node::Object(_) => "{..}".into(),
    }
}

/// Reads an object of spans whose names should come from `known`; names
/// outside it are kept (dropping them would push their time into the
/// residual) and also reported as unknown keys.
pub(super) fn named_spans(
    obj: &mut Obj<'_>,
    key: &str,
    known: &[&str],
    unknown: &mut Vec<UnknownKey>,
) -> Result<Vec<Span>, ReportError> {
    let Some((node, path)) = obj.take(key) else {
        return Ok(Vec::new());
    };
    named_spans_node(node, path, known, unknown)
}

/// [`named_spans`] of an object already taken out of its parent.
pub(super) fn named_spans_node(
    node: &Node,
    path: JsonPath,
    known: &[&str],
    unknown: &mut Vec<UnknownKey>,
) -> Result<Vec<Span>, ReportError> {
    let Some(mut inner) = Obj::of(node, path)? else {
        return Ok(Vec::new());
    };
    let mut spans = Vec::new();
    for (name, value, vpath) in inner.take_rest() {
        if !known.contains(&name) {
            unknown.push(UnknownKey::new(vpath.clone(), value));
            // A span is a non-negative number; anything else under an
            // unknown name is only a value.
            let is_span = value
                .number()
                .is_some_and(|v| (0.0..=lane_json::MAX_SECONDS).contains(&v));
            if !is_span {
                continue;
            }
        }
        if let Some(v) = span_seconds(name, value, &vpath)? {
            spans.push(Span::new(name, v));
        }
    }
    Ok(spans)
}

/// A span's seconds: residuals (`RESIDUAL_KEYS`) may be negative, every
/// other span may not.
pub(super) fn span_seconds(
    name: &str,
    value: &Node,
    path: &JsonPath,
) -> Result<Option<f64>, ReportError> {
    Ok(if RESIDUAL_KEYS.contains(&name) {
        lane_json::signed_seconds(value, path)?
    } else {
        lane_json::seconds(value, path)?
    })
}

/// Words in a job's or entry's `status` that mean it failed.
const FAILING_STATUS: [&str; 5] = ["failed", "error", "crashed", "refused", "resource"];

/// Reads the failure markers of a job or entry: `failed`, `ok`, `status`, `error`.
pub(super) fn failure(obj: &mut Obj<'_>) -> Result<(bool, Option<String>), ReportError> {
    let mut failed = obj.boolean("failed")?.unwrap_or(false);
    if obj.boolean("ok")? == Some(false) {
        failed = true;
    }
    if let Some(status) = obj.string("status")? {
        if FAILING_STATUS.contains(&status.as_str()) {
            failed = true;
        }
    }
    let error = obj.string("error")?.filter(|e| !e.is_empty());
    if error.is_some() {
        failed = true;
    }
    Ok((failed, error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_mint_phases_is_no_ledger() {
        let r =
            parse_report(br#"{"status": "minted", "phases": {"load": 1.0}, "mint_phases": {}}"#)
                .unwrap();
        assert_eq!(r.ledger, MintLedger::None);
        assert_eq!(r.phases.unwrap(), vec![Span::new("load", 1.0)]);
    }

    #[test]
    fn both_version_keys_are_refused_as_mixed() {
        let r = parse_report(br#"{"mint_phases": {"spans_v": 1, "v": 1}}"#).unwrap();
        assert!(
            matches!(r.ledger, MintLedger::Mixed { .. }),
            "{:?}",
            r.ledger
        );
    }

    #[test]
    fn unknown_version_is_kept_uninterpreted() {
        let r = parse_report(br#"{"mint_phases": {"spans_v": 2, "totals": {}}}"#).unwrap();
        assert_eq!(
            r.ledger,
            MintLedger::Unknown {
                key: "spans_v".into(),
                value: "2".into()
            }
        );
    }

    #[test]
    fn negative_residual_is_read_but_negative_member_is_refused() {
        let ok = parse_report(
            br#"{"mint_phases": {"spans_v": 1, "phases": {"codegen_s": 1.0, "compile_other_s": -0.25}}}"#,
        )
        .unwrap();
        let MintLedger::WarmSpansV1(w) = ok.ledger else {
            panic!("warm ledger expected")
        };
        assert_eq!(w.phases[1], Span::new("compile_other_s", -0.25));
        let err =
            parse_report(br#"{"mint_phases": {"spans_v": 1, "phases": {"codegen_s": -1.0}}}"#)
                .unwrap_err();
        assert_eq!(
            err.to_string(),
            "$.mint_phases.phases.codegen_s: negative duration -1 s (only a named residual may be negative)"
        );
    }

    #[test]
    fn unknown_keys_are_listed_not_dropped() {
        let r = parse_report(
            br#"{"status": "minted", "new_top": 1, "mint_phases": {"spans_v": 1, "totals": {"warm_wall_s": 1.0, "warm_gpu_s": 2}, "phases": {"cache_lookup_s": 0.5}}}"#,
        )
        .unwrap();
        let paths: Vec<_> = r.unknown_keys.iter().map(|u| u.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "$.mint_phases.totals.warm_gpu_s",
                "$.mint_phases.phases.cache_lookup_s",
                "$.new_top"
            ]
        );
        // ... and an unknown member keeps its seconds.
        let MintLedger::WarmSpansV1(w) = r.ledger else {
            panic!()
        };
        assert_eq!(w.phases, vec![Span::new("cache_lookup_s", 0.5)]);
    }

    #[test]
    fn failed_job_keeps_its_seconds() {
        let r = parse_report(
            br#"{"mint_phases": {"spans_v": 1, "jobs": [{"job": "j", "wall_s": 3.5, "error": "OOM"}]}}"#,
        )
        .unwrap();
        let MintLedger::WarmSpansV1(w) = r.ledger else {
            panic!()
        };
        assert!(w.jobs[0].failed);
        assert_eq!(w.jobs[0].wall_s, Some(3.5));
        assert_eq!(w.jobs[0].compile_s, None);
    }

    #[test]
    fn wrong_type_names_the_path() {
        let err = parse_report(br#"{"mint_phases": {"spans_v": 1, "jobs": [{"wall_s": "3"}]}}"#)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "$.mint_phases.jobs[0].wall_s: expected a number of seconds, found a string"
        );
    }

    #[test]
    fn size_cap_is_checked_before_parsing() {
        let err = parse_report_with_limit(b"{}", 1).unwrap_err();
        assert!(matches!(err, ReportError::TooLarge { size: 2, limit: 1 }));
    }

    #[test]
    fn aot_entry_phases_are_read_by_shape() {
        let r = parse_report(
            br#"{"status": "minted", "recipe": "aot", "mint_phases": {"v": 1, "entries": {
                "unet/B=1": {"export_s": 0.4, "compile_s": 10.0, "phases": {"lowering_s": 1.0, "triton_s": 0.5}},
                "unet/B=2": {"compile_s": 10.0, "phases": {"compile_s": 10.0, "child_boot_s": 1.0, "child_wall_s": 8.5, "reap_lag_s": 0.5}},
                "unet/B=4": {"export_s": 0.4}}}}"#,
        )
        .unwrap();
        let MintLedger::AotTableV1(t) = r.ledger else {
            panic!()
        };
        assert_eq!(t.entries[0].name, "unet/B=1");
        assert_eq!(t.entries[0].shape(), EntryShape::Serial);
        assert_eq!(t.entries[1].shape(), EntryShape::Pooled);
        assert_eq!(t.entries[1].phase("reap_lag_s"), Some(0.5));
        assert_eq!(t.entries[2].shape(), EntryShape::Unmeasured);
    }

    #[test]
    fn a_report_that_is_not_an_object_is_refused_at_the_root() {
        for (doc, found) in [("[1, 2]", "an array"), ("3", "a number"), ("null", "null")] {
            let err = parse_report(doc.as_bytes()).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("$: expected a mint report object, found {found}")
            );
        }
    }

    #[test]
    fn defaults_of_an_early_death_are_absent_and_the_echo_is_not_a_claim() {
        let r = parse_report(
            br#"{"status":"failed","artifact":"","digest":"","cell_key":"","detail":"AttributeError: x","phase":"","peak_vram_bytes":0,"elapsed_s":7.9,"phases":{"load":7.2},"mint_phases":{},"recipe":"dynamo"}"#,
        )
        .unwrap();
        assert_eq!(r.artifact, None);
        assert_eq!(r.phase, None);
        assert_eq!(r.peak_vram_bytes, None);
        assert_eq!(r.detail.as_deref(), Some("AttributeError: x"));
        assert_eq!(r.recipe, Some(Named::Known(Recipe::Dynamo)));
        assert_eq!(r.claimed_recipe(), None);
        assert_eq!(r.believed_recipe(), None);
    }

    #[test]
    fn the_era_is_read_off_the_reports_own_fields() {
        let era = |doc: &str| {
            parse_report(doc.as_bytes())
                .unwrap()
                .era
                .map(|e| (e.line, e.since))
        };
        assert_eq!(
            era(r#"{"status":"minted","cell_key":"","recipe":"aot"}"#),
            Some((EraLine::V093, None))
        );
        assert_eq!(
            era(r#"{"status":"minted","cell_key":"ck1-a","artifact":"c"}"#),
            Some((EraLine::V095, None))
        );
        assert_eq!(
            era(
                r#"{"status":"minted","cell_key":"","structure_refusal":"","export_peak_bytes":0}"#
            ),
            Some((EraLine::V095, Some("0.100")))
        );
        let pooled_v2 = r#"{"status":"minted","cell_key":"","mint_phases":{"v":1,"entries":{"u/B=1":{"compile_s":1.0,"phases":{"compile_s":1.0,"child_boot_s":0.1,"child_wall_s":0.8,"reap_lag_s":0.05,"parent_other_s":0.05}}}}}"#;
        assert_eq!(era(pooled_v2), Some((EraLine::V095, Some("0.113"))));
        assert_eq!(
            era(r#"{"status":"minted","entries":[],"cell_key":""}"#),
            Some((EraLine::V114, None))
        );
        assert_eq!(
            era(
                r#"{"status":"minted","entries":[],"compiled_graph_key":"","mint_phases":{"v":1,"n_entries":0,"compiler_owner":"torch-compiled-graphs","totals":{"compile_all_s":1.0,"total_s":1.0}}}"#
            ),
            Some((EraLine::V114, Some("0.117")))
        );
        assert_eq!(
            era(
                r#"{"status":"minted","entries":[],"compiled_graph_key":"","mint_phases":{"v":1,"n_entries":0,"compiler_owner":"torchcg"}}"#
            ),
            Some((EraLine::V114, Some("0.119")))
        );
        // lane's own test mints carry none of the telling fields.
        assert_eq!(era(r#"{"status":"minted","phases":{"load":1.0}}"#), None);
    }

    #[test]
    fn entries_footprint_and_the_graph_key_are_read_and_defaults_are_absent() {
        let r = parse_report(
            br#"{"status":"minted","entries":[["cg-key-v1-a","/r/a.tar.gz","ab"]],"artifact":"","digest":"","compiled_graph_key":"","structure_only_components":[],"structure_refusal":"","virtual_param_bytes":0,"structure_real_bytes":0,"warm_proof_peak_bytes":0,"warm_proof_values":"","export_peak_bytes":34603008}"#,
        )
        .unwrap();
        assert_eq!(
            r.entries,
            Some(vec![PackedEntry {
                key: "cg-key-v1-a".into(),
                path: "/r/a.tar.gz".into(),
                sha256: "ab".into()
            }])
        );
        assert_eq!(r.compiled_graph_key, None);
        assert_eq!(
            r.footprint,
            Some(Footprint {
                export_peak_bytes: Some(34_603_008),
                ..Footprint::default()
            })
        );
        assert!(r.unknown_keys.is_empty(), "{:?}", r.unknown_keys);
        let err = parse_report(br#"{"status":"minted","entries":[["k","p"]]}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "$.entries[0]: expected [key, path, sha256], found an array of another length"
        );
    }

    #[test]
    fn a_compile_verdict_is_a_report_of_its_own_shape() {
        let r = parse_report(
            br#"{"rc":1,"summary":"gen-worker compile: built=1 failed=1\n...","specializations":[
                {"graph":"cg-graph-v1-a","contract":"c","target":"unet","state":"built","detail":"published","wall_s":3.5},
                {"graph":"cg-graph-v1-b","contract":"c","target":"unet","state":"failed","detail":"RuntimeError: x","wall_s":1.25},
                {"graph":"cg-graph-v1-c","state":"deferred-later","wall_s":0.0}],
                "unservable":[{"graph":"cg-graph-v1-b","detail":"no artifact"}],"deferred":[],"fill":"","priority":""}"#,
        )
        .unwrap();
        assert_eq!(r.shape, ReportShape::CompileVerdict);
        assert_eq!(r.status, Some(Named::Known(MintStatus::Failed)));
        assert_eq!(r.detail.as_deref(), Some("cg-graph-v1-b: RuntimeError: x"));
        assert_eq!(r.believed_recipe(), Some(Recipe::Aot));
        let MintLedger::CompileVerdict(v) = &r.ledger else {
            panic!("{:?}", r.ledger)
        };
        assert_eq!(v.specializations.len(), 3);
        // A state lane does not know is kept as written.
        assert_eq!(
            v.specializations[2].state,
            Some(Named::Unknown("deferred-later".into()))
        );
        assert_eq!(
            v.unservable,
            [("cg-graph-v1-b".to_owned(), "no artifact".to_owned())]
        );
        // A run that failed before it had a report: `{rc, summary}` only.
        let r = parse_report(br#"{"rc":2,"summary":"no sm"}"#).unwrap();
        assert_eq!(r.status, Some(Named::Known(MintStatus::Refused)));
        assert_eq!(r.detail.as_deref(), Some("no sm"));
        let err = parse_report(br#"{"rc":"0"}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "$.rc: expected an integer exit code, found a string"
        );
    }

    #[test]
    fn the_later_pool_facts_are_typed() {
        let r = parse_report(
            br#"{"mint_phases":{"v":1,"pool":{"posture":"fleet","nice":-5,"idle_source_s":0.0,"pool_classes_landed":3,"pool_child_cpu_s":63.5,"entry_device_peaks":{"unet/B=1":{"allocated_bytes":10,"reserved_bytes":20}},"device_peak_provenance":{"card":"h200","sm":"sm_90"}}}}"#,
        )
        .unwrap();
        let MintLedger::AotTableV1(t) = r.ledger else {
            panic!()
        };
        let pool = t.pool.unwrap();
        assert!(r.unknown_keys.is_empty(), "{:?}", r.unknown_keys);
        assert_eq!(pool[1].value, facts::FactValue::Integer(-5));
        assert_eq!(
            pool[5].value,
            facts::FactValue::PeaksByEntry(vec![("unet/B=1".into(), Some(10), Some(20))])
        );
        assert_eq!(pool[6].value.text(), "card: h200, sm: sm_90");
    }
}
