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
//! Rules: a value that is absent stays `None` (never `0.0`); unknown keys are
//! kept as JSON paths in [`MintReport::unknown_keys`] (reports come from many
//! upstream versions, so an unknown key is news, not an error); wrong types,
//! non-finite numbers and negative durations are errors naming the JSON path.
//! Only named residuals may be negative.

use serde::{Serialize, Serializer};

use crate::error::ReportError;
use crate::json::{self, parse_document, JsonPath, Node, Obj};

mod aot;

use aot::{read_aot_table, read_compile_record};
pub use aot::{AOT_ENTRY_KEYS, AOT_OVERLAY_KEYS};

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

/// The recipe a mint ran (`recipe` in the report).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Recipe {
    /// `torch.compile`: compiles run inline inside the warm-up forwards.
    Dynamo,
    /// `torch.export` + AOTInductor: one compile per declared entry.
    Aot,
    /// A recipe name this version of lane does not know.
    Other(String),
}

impl Recipe {
    fn parse(s: &str) -> Recipe {
        match s {
            "dynamo" => Recipe::Dynamo,
            "aot" => Recipe::Aot,
            other => Recipe::Other(other.to_owned()),
        }
    }

    /// The name as written in reports.
    pub fn as_str(&self) -> &str {
        match self {
            Recipe::Dynamo => "dynamo",
            Recipe::Aot => "aot",
            Recipe::Other(s) => s,
        }
    }
}

impl Serialize for Recipe {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// How a mint attempt ended (`status`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MintStatus {
    /// Sealed.
    Minted,
    /// Deterministic refusal; never retry.
    Refused,
    /// The child caught and named the error; never retry.
    Failed,
    /// A resource shortfall; retry only after re-budgeting.
    Resource,
    /// No classification; worth exactly one more attempt.
    Crashed,
    /// Abandoned; not a failure.
    Abandoned,
    /// A status this version of lane does not know.
    Other(String),
}

impl MintStatus {
    fn parse(s: &str) -> MintStatus {
        match s {
            "minted" => MintStatus::Minted,
            "refused" => MintStatus::Refused,
            "failed" => MintStatus::Failed,
            "resource" => MintStatus::Resource,
            "crashed" => MintStatus::Crashed,
            "abandoned" => MintStatus::Abandoned,
            other => MintStatus::Other(other.to_owned()),
        }
    }

    /// The name as written in reports.
    pub fn as_str(&self) -> &str {
        match self {
            MintStatus::Minted => "minted",
            MintStatus::Refused => "refused",
            MintStatus::Failed => "failed",
            MintStatus::Resource => "resource",
            MintStatus::Crashed => "crashed",
            MintStatus::Abandoned => "abandoned",
            MintStatus::Other(s) => s,
        }
    }
}

impl Serialize for MintStatus {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Which shape of JSON the report had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportShape {
    /// A mint report (`status`, `phases`, `mint_phases`, ...).
    MintReport,
    /// The probe's per-compile record (`compile_wall_s`, `partition`, ...).
    AotCompileRecord,
}

/// One parsed mint report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MintReport {
    /// Which JSON shape it had.
    pub shape: ReportShape,
    /// `status`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<MintStatus>,
    /// `cell_key`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell_key: Option<String>,
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
    /// `recipe`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipe: Option<Recipe>,
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
    /// Keys lane does not know, as JSON paths: tolerated and reported.
    pub unknown_keys: Vec<JsonPath>,
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
            MintLedger::Unknown { .. } => "unknown",
            MintLedger::Mixed { .. } => "mixed",
        }
    }
}

/// The dynamo warm ledger (`mint_phases` with `spans_v: 1`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WarmLedger {
    /// The version, 1.
    pub spans_v: u64,
    /// `totals`.
    pub totals: WarmTotals,
    /// `phases`: the partition of the compile half, residual included, as written.
    pub phases: Vec<Span>,
    /// `overlays`: nested inside partition members, never summed.
    pub overlays: Vec<Span>,
    /// `jobs`: one row per warm forward.
    pub jobs: Vec<WarmJob>,
}

/// `mint_phases.totals` of the warm ledger.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct WarmTotals {
    /// Wall of all warm forwards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warm_wall_s: Option<f64>,
    /// Compile half (dynamo's `_compile.compile_inner`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warm_compile_s: Option<f64>,
    /// Execute half: the residual wall minus compile (may be negative).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warm_execute_s: Option<f64>,
    /// Number of warm jobs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warm_jobs: Option<u64>,
    /// Jobs that compiled more than 0.5 s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warm_jobs_compiling: Option<u64>,
    /// compile / wall; omitted upstream when the wall is unmeasurable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_fraction: Option<f64>,
}

/// One warm forward (`mint_phases.jobs[i]`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WarmJob {
    /// `job`, or `#i` when unnamed.
    pub job: String,
    /// `wall_s`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_s: Option<f64>,
    /// `compile_s`; a failed job may lack it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_s: Option<f64>,
    /// `execute_s` (a residual; may be negative).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execute_s: Option<f64>,
    /// True when the row says the job failed (`failed: true`, `ok: false`,
    /// a failing `status`, or an `error`). It keeps its seconds.
    pub failed: bool,
    /// The error text, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The aot per-entry table (`mint_phases` with `v: 1`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AotTable {
    /// The version, 1.
    pub v: u64,
    /// `n_entries`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_entries: Option<u64>,
    /// `autotune`: the posture, as compact JSON text when not a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autotune: Option<String>,
    /// `totals` (`export_s`, `compile_s`, `warm_s`, ...).
    pub totals: Vec<Span>,
    /// `phases`: partition members summed over entries, as written.
    pub phases: Vec<Span>,
    /// `overlays`, never summed.
    pub overlays: Vec<Span>,
    /// `entries`: per-entry timings.
    pub entries: Vec<AotEntry>,
    /// `pool`: the width the mint ran at and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool: Option<AotPool>,
}

/// One entry (graph class) of the aot table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AotEntry {
    /// The entry's name (`entry`, `name`, `graph_class` or `key`), or `#i`.
    pub name: String,
    /// Every numeric member, in document order.
    pub timings: Vec<Span>,
    /// True when the entry says it failed; it keeps its seconds.
    pub failed: bool,
    /// The error text, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl AotEntry {
    /// The value of timing `name`, when recorded.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.timings
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.seconds)
    }
}

/// `mint_phases.pool` of the aot table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AotPool {
    /// The width K (`k` or `width`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub k: Option<u64>,
    /// Why that width (`reason`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
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

/// Residual members: the only keys allowed to be negative.
pub const RESIDUAL_KEYS: [&str; 5] = [
    "compile_other_s",
    "child_other_s",
    "reap_lag_s",
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
    let Some(mut obj) = Obj::of(doc, root.clone())? else {
        return Err(ReportError::WrongType {
            path: root,
            expected: "an object",
            found: "null",
        });
    };
    let mut unknown = Vec::new();
    let is_record = obj.has("compile_wall_s") || obj.has("partition");
    let shape = if is_record && !obj.has("mint_phases") && !obj.has("phases") {
        ReportShape::AotCompileRecord
    } else {
        ReportShape::MintReport
    };

    let status = obj.string("status")?.map(|s| MintStatus::parse(&s));
    let cell_key = obj.string("cell_key")?;
    let artifact = obj.string("artifact")?;
    let digest = obj.string("digest")?;
    let detail = obj.string("detail")?;
    let phase = obj.string("phase")?;
    let recipe = obj.string("recipe")?.map(|s| Recipe::parse(&s));
    let elapsed_s = obj.seconds("elapsed_s")?;
    let parent_wall_s = obj.seconds("parent_wall_s")?;
    let peak_vram_bytes = obj.count("peak_vram_bytes")?;
    let phases = match obj.take("phases") {
        Some((node, path)) => span_map(node, &path, false)?,
        None => None,
    };
    let raw_metrics = match obj.take("raw_metrics") {
        Some((node, path)) => span_map(node, &path, false)?,
        None => None,
    };

    let ledger = match shape {
        ReportShape::AotCompileRecord => {
            MintLedger::AotCompileRecord(read_compile_record(&mut obj, &mut unknown)?)
        }
        ReportShape::MintReport => match obj.take("mint_phases") {
            None => MintLedger::None,
            Some((node, path)) => read_ledger(node, path, &mut unknown)?,
        },
    };
    // The status of a record comes from the child's exit code.
    let status = status.or(match &ledger {
        MintLedger::AotCompileRecord(r) => match r.exit {
            Some(0) => Some(MintStatus::Minted),
            Some(_) => Some(MintStatus::Failed),
            None => None,
        },
        _ => None,
    });
    let recipe = recipe.or(match ledger {
        MintLedger::AotCompileRecord(_) | MintLedger::AotTableV1(_) => Some(Recipe::Aot),
        MintLedger::WarmSpansV1(_) => Some(Recipe::Dynamo),
        _ => None,
    });
    obj.finish(&mut unknown);
    Ok(MintReport {
        shape,
        status,
        cell_key,
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

/// Reads an object of `name: seconds`. Residual keys may be negative when
/// `allow_residuals`; `null` values are absent and skipped.
pub(super) fn span_map(
    node: &Node,
    path: &JsonPath,
    allow_residuals: bool,
) -> Result<Option<Vec<Span>>, ReportError> {
    let Some(mut obj) = Obj::of(node, path.clone())? else {
        return Ok(None);
    };
    let mut spans = Vec::new();
    for (key, value, vpath) in obj.take_rest() {
        let v = if allow_residuals && RESIDUAL_KEYS.contains(&key) {
            json::signed_seconds(value, &vpath)?
        } else {
            json::seconds(value, &vpath)?
        };
        if let Some(v) = v {
            spans.push(Span::new(key, v));
        }
    }
    Ok(Some(spans))
}

fn read_ledger(
    node: &Node,
    path: JsonPath,
    unknown: &mut Vec<JsonPath>,
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
            if json::count(ver, &vpath).ok().flatten() == Some(1) {
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
            if json::count(ver, &vpath).ok().flatten() == Some(1) {
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

/// The warm ledger's vocabulary: partition members (the residual last).
pub const WARM_PARTITION_KEYS: [&str; 7] = [
    "tracing_s",
    "graph_passes_s",
    "lowering_s",
    "codegen_s",
    "kernel_compile_s",
    "host_compile_s",
    "compile_other_s",
];

/// The warm ledger's overlays.
pub const WARM_OVERLAY_KEYS: [&str; 5] = [
    "async_wait_s",
    "parallel_kernel_cpu_s",
    "aot_dispatch_s",
    "triton_s",
    "autotune_s",
];

fn read_warm(obj: &mut Obj<'_>, unknown: &mut Vec<JsonPath>) -> Result<WarmLedger, ReportError> {
    let mut totals = WarmTotals::default();
    if let Some((node, path)) = obj.take("totals") {
        if let Some(mut t) = Obj::of(node, path)? {
            totals.warm_wall_s = t.seconds("warm_wall_s")?;
            totals.warm_compile_s = t.seconds("warm_compile_s")?;
            totals.warm_execute_s = t.signed_seconds("warm_execute_s")?;
            totals.warm_jobs = t.count("warm_jobs")?;
            totals.warm_jobs_compiling = t.count("warm_jobs_compiling")?;
            totals.compile_fraction = match t.take("compile_fraction") {
                Some((node, path)) => fraction(node, &path)?,
                None => None,
            };
            t.finish(unknown);
        }
    }
    let phases = named_spans(obj, "phases", &WARM_PARTITION_KEYS, unknown)?;
    let overlays = named_spans(obj, "overlays", &WARM_OVERLAY_KEYS, unknown)?;
    let mut jobs = Vec::new();
    if let Some((node, path)) = obj.take("jobs") {
        match node {
            Node::Null => {}
            Node::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    jobs.push(read_job(item, path.index(i), i, unknown)?);
                }
            }
            other => {
                return Err(ReportError::WrongType {
                    path,
                    expected: "an array of jobs",
                    found: other.kind(),
                })
            }
        }
    }
    Ok(WarmLedger {
        spans_v: 1,
        totals,
        phases,
        overlays,
        jobs,
    })
}

/// Reads an object of spans whose names should come from `known`; names
/// outside it are kept (dropping them would push their time into the
/// residual) and also reported as unknown keys.
pub(super) fn named_spans(
    obj: &mut Obj<'_>,
    key: &str,
    known: &[&str],
    unknown: &mut Vec<JsonPath>,
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
    unknown: &mut Vec<JsonPath>,
) -> Result<Vec<Span>, ReportError> {
    let Some(mut inner) = Obj::of(node, path)? else {
        return Ok(Vec::new());
    };
    let mut spans = Vec::new();
    for (name, value, vpath) in inner.take_rest() {
        if !known.contains(&name) {
            unknown.push(vpath.clone());
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
    if RESIDUAL_KEYS.contains(&name) {
        json::signed_seconds(value, path)
    } else {
        json::seconds(value, path)
    }
}

fn fraction(node: &Node, path: &JsonPath) -> Result<Option<f64>, ReportError> {
    let Some(v) = json::signed_seconds(node, path)? else {
        return Ok(None);
    };
    // A fraction of a wall cannot be negative; it can exceed 1 only when the
    // residual went negative, so anything past 1000 is an encoding bug.
    if !(0.0..=1000.0).contains(&v) {
        return Err(ReportError::FractionOutOfRange {
            path: path.clone(),
            value: v,
        });
    }
    Ok(Some(v))
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

fn read_job(
    node: &Node,
    path: JsonPath,
    index: usize,
    unknown: &mut Vec<JsonPath>,
) -> Result<WarmJob, ReportError> {
    let Some(mut obj) = Obj::of(node, path.clone())? else {
        return Err(ReportError::WrongType {
            path,
            expected: "a job object",
            found: "null",
        });
    };
    let job = obj.string("job")?.unwrap_or_else(|| format!("#{index}"));
    let wall_s = obj.seconds("wall_s")?;
    let compile_s = obj.seconds("compile_s")?;
    let execute_s = obj.signed_seconds("execute_s")?;
    let (failed, error) = failure(&mut obj)?;
    obj.finish(unknown);
    Ok(WarmJob {
        job,
        wall_s,
        compile_s,
        execute_s,
        failed,
        error,
    })
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
        let paths: Vec<_> = r.unknown_keys.iter().map(|p| p.as_str()).collect();
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
    fn aot_table_entries_as_list_or_map() {
        let r = parse_report(
            br#"{"recipe": "aot", "mint_phases": {"v": 1, "entries": {"unet": {"compile_s": 10, "child_boot_s": 1, "child_wall_s": 8.5, "reap_lag_s": 0.5}}}}"#,
        )
        .unwrap();
        let MintLedger::AotTableV1(t) = r.ledger else {
            panic!()
        };
        assert_eq!(t.entries[0].name, "unet");
        assert_eq!(t.entries[0].get("reap_lag_s"), Some(0.5));
    }
}
