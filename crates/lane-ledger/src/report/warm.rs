//! Reading the dynamo warm ledger (`warm_spans.WarmLedger.table()`,
//! `mint_phases` with `spans_v: 1`): `totals`, the partition of the compile
//! half (`phases`, whose residual `compile_other_s` the upstream writes),
//! `overlays` and one row per warm forward (`jobs`).

use serde::Serialize;

use super::{failure, named_spans, Span};
use crate::error::ReportError;
use lane_json::{self, JsonPath, Node, Obj, UnknownKey};

/// The warm ledger's partition members (`warm_spans.JIT_PARTITION_KEYS`),
/// the residual last.
pub const WARM_PARTITION_KEYS: [&str; 7] = [
    "tracing_s",
    "graph_passes_s",
    "lowering_s",
    "codegen_s",
    "kernel_compile_s",
    "host_compile_s",
    "compile_other_s",
];

/// The warm ledger's overlays (`warm_spans.JIT_OVERLAY_KEYS` and the
/// `triton_s` substring rule); `autotune_s` is the probe fixture's
/// (tests/data/h200-torch2.11), not 0.93.3's.
pub const WARM_OVERLAY_KEYS: [&str; 5] = [
    "async_wait_s",
    "parallel_kernel_cpu_s",
    "aot_dispatch_s",
    "triton_s",
    "autotune_s",
];

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
    /// `compile_s`; absent when the ledger's own telemetry failed for this
    /// job (`WarmLedger.job` then writes `job` and `wall_s` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_s: Option<f64>,
    /// `execute_s` (a residual; may be negative).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execute_s: Option<f64>,
    /// True when the row carries a failure marker (`failed: true`,
    /// `ok: false`, a failing `status`, or an `error`). It keeps its seconds.
    pub failed: bool,
    /// The error text, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

pub(super) fn read_warm(
    obj: &mut Obj<'_>,
    unknown: &mut Vec<UnknownKey>,
) -> Result<WarmLedger, ReportError> {
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
                return Err(ReportError::from(lane_json::JsonError::WrongType {
                    path,
                    expected: "an array of jobs",
                    found: other.kind(),
                }))
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

fn fraction(node: &Node, path: &JsonPath) -> Result<Option<f64>, ReportError> {
    let Some(v) = lane_json::signed_seconds(node, path)? else {
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

fn read_job(
    node: &Node,
    path: JsonPath,
    index: usize,
    unknown: &mut Vec<UnknownKey>,
) -> Result<WarmJob, ReportError> {
    let Some(mut obj) = Obj::of(node, path.clone())? else {
        return Err(ReportError::from(lane_json::JsonError::WrongType {
            path,
            expected: "a job object",
            found: "null",
        }));
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
