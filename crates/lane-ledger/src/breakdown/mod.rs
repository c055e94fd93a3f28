//! The per-mint breakdown: one table shape for every source (a report of
//! either recipe, a pre-ledger report, a TORCH_TRACE, or no report at all).
//!
//! What it shows, and the honesty rules it keeps:
//! - every phase with its share of the mint's total, and the time outside all
//!   phases as a named residual (`outside_phases_s`);
//! - `warmup_forward` split into compile and execute when a warm ledger
//!   exists, with the part outside the ledger named (`outside_warm_ledger_s`);
//! - the compile partition with its named residual, recomputed and never
//!   clamped; overlays beside it, never summed;
//! - `compile_fraction` only when the wall was measured;
//! - per-job rows, jobs that compiled nothing marked, failed jobs kept with
//!   their seconds; AOT entries in the table's serial or pooled shape, the
//!   typed `totals`, the mint's own partition and the pool's decision (see
//!   [`aot`]);
//! - the report's `detail` and `phase`, so a reason can quote them, and its
//!   echoed `recipe`, believed only when the report says `minted`;
//! - reconciliation checks within [`crate::partition::tolerance`], and the
//!   findings of [`crate::findings::detect`].
//!
//! Anything not measured is `None` (omitted from JSON), never `0.0`.

use serde::Serialize;

use crate::findings::{detect, Finding, COMPILED_NOTHING_S};
use crate::keyset::{
    check_key_set, partition_from_raw, KeySetCheck, AOT_COMPILE_V1, WARM_SPANS_V1,
};
use crate::partition::{
    overlay_rows, share, OverlayRow, Partition, Reconciliation, Residual, Term,
};
use crate::report::{
    AotCompileRecord, CompileVerdict, Era, MintLedger, MintReport, MintStatus, Named, PackedEntry,
    Recipe, ShareReport, Span, WarmJob, WarmLedger,
};
use crate::trace::{CompileRecord, SkippedLine, TraceMetrics};
use lane_json::UnknownKey;

pub mod aot;
pub mod verdict;

pub use aot::{
    AotBreakdown, AotContext, AotEntryBreakdown, AotPath, MissingRows, PoolBreakdown, PoolDecision,
    ShareBreakdown, TotalRow, MINT_OTHER, POOL_UNBOOKED, PROCESS_OTHER,
};
pub use verdict::{GraphPackage, SpecializationLedger, VerdictLedger, OUTSIDE_COMPILE};

/// Where a breakdown's numbers came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LedgerKind {
    /// A report with phases only (no `mint_phases`): the pre-ledger shape.
    PhasesOnly,
    /// A report with the dynamo warm ledger, `spans_v: 1`.
    WarmSpansV1,
    /// A report with the aot per-entry table, `v: 1`.
    AotTableV1,
    /// The probe's per-compile record.
    AotCompileRecord,
    /// A `gen-worker compile --verdict` file (0.127 on), its phases from
    /// TORCH_TRACE when lane read the logs beside it.
    CompileVerdict,
    /// A TORCH_TRACE log.
    Trace,
    /// A ledger version lane does not know (not interpreted).
    Unknown {
        /// The version key.
        key: String,
        /// The version value.
        value: String,
    },
    /// Two versions in one ledger (refused).
    Mixed {
        /// The versions seen.
        versions: Vec<String>,
    },
    /// No report at all.
    Missing {
        /// Why (as the caller saw it: file absent, child killed).
        reason: String,
    },
    /// A report that could not be read (truncated, NaN, a shape lane does
    /// not know): no numbers, one `unreadable_report` finding.
    Unreadable {
        /// The error, with its JSON path or line and column.
        error: String,
    },
}

impl LedgerKind {
    /// A short stable label.
    pub fn label(&self) -> String {
        match self {
            LedgerKind::PhasesOnly => "phases_only".into(),
            LedgerKind::WarmSpansV1 => "warm_spans_v1".into(),
            LedgerKind::AotTableV1 => "aot_table_v1".into(),
            LedgerKind::AotCompileRecord => "aot_compile_record".into(),
            LedgerKind::CompileVerdict => "compile_verdict".into(),
            LedgerKind::Trace => "trace".into(),
            LedgerKind::Unknown { key, value } => format!("unknown({key}={value})"),
            LedgerKind::Mixed { .. } => "mixed".into(),
            LedgerKind::Missing { .. } => "missing".into(),
            LedgerKind::Unreadable { .. } => "unreadable".into(),
        }
    }
}

/// One mint phase.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseRow {
    /// Phase name as the report writes it.
    pub name: String,
    /// Seconds.
    pub seconds: f64,
    /// Share of the mint's total; absent without a positive total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share: Option<f64>,
}

/// `warmup_forward` split by the warm ledger.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WarmupSplit {
    /// The phase split (`warmup_forward`).
    pub phase: String,
    /// The phase's seconds, when the report has the phase.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase_s: Option<f64>,
    /// The warm ledger's wall.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_s: Option<f64>,
    /// Compile half.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_s: Option<f64>,
    /// Execute half (the ledger's residual; may be negative).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execute_s: Option<f64>,
    /// `phase_s - wall_s`: phase time the ledger did not cover, named
    /// `outside_warm_ledger_s` (may be negative).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside_ledger_s: Option<f64>,
}

/// One warm job: the warm ledger's row as the report wrote it, and what
/// the breakdown derives from it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobRow {
    /// The row as written (name, wall, compile, execute, failure).
    #[serde(flatten)]
    pub warm: WarmJob,
    /// True when it compiled at most [`COMPILED_NOTHING_S`]; absent when its
    /// compile was not measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compiled_nothing: Option<bool>,
}

impl JobRow {
    /// The breakdown's row of a warm ledger's job.
    pub fn of(warm: &WarmJob) -> JobRow {
        JobRow {
            warm: warm.clone(),
            compiled_nothing: warm.compile_s.map(|c| c <= COMPILED_NOTHING_S),
        }
    }
}

/// What a trace contributed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceSummary {
    /// Lines read.
    pub lines: u64,
    /// Record lines.
    pub record_lines: u64,
    /// Lines skipped.
    pub skipped_lines: u64,
    /// The first skipped lines.
    pub skipped: Vec<SkippedLine>,
    /// `compilation_metrics` records seen.
    pub compiles_total: u64,
    /// Their rows (capped).
    pub compiles: Vec<CompileRecord>,
    /// Begin events never ended.
    pub unclosed_spans: u64,
    /// End events with no begin.
    pub unmatched_ends: u64,
    /// Torch version, when recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub torch_version: Option<String>,
}

/// The honest breakdown of one mint.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MintBreakdown {
    /// The caller's label for the source (usually the file name).
    pub source: String,
    /// Where the numbers came from.
    pub ledger: LedgerKind,
    /// The recipe lane believes: a `minted` report's echo, else the one the
    /// ledger's shape implies, else none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipe: Option<Recipe>,
    /// The recipe as the report echoes it (a claim only when `minted`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipe_echo: Option<Named<Recipe>>,
    /// How the mint ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Named<MintStatus>>,
    /// The gen-worker era that wrote the report, recognised from its own
    /// fields; absent when it shows none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub era: Option<Era>,
    /// The report's `detail`: why it ended, in the child's words (raw;
    /// escape and bound it before showing, see [`crate::report::text`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The report's `phase`: the phase it ended in (raw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// The cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell_key: Option<String>,
    /// The artifact the report names (raw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact: Option<String>,
    /// The cells the report's `entries` name (0.114 on; raw).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub packed: Vec<PackedEntry>,
    /// The `gen-worker compile` verdict (0.127 on): every specialization's
    /// state, detail and wall.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<CompileVerdict>,
    /// The verdict's ledger (0.127 on): each specialization's wall as the
    /// compile its own TORCH_TRACE log timed plus the named residual
    /// `outside_compile_s`, and the trace's compile records tied to none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict_ledger: Option<VerdictLedger>,
    /// The child's device high-water.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_vram_bytes: Option<u64>,
    /// The mint's total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_s: Option<f64>,
    /// Which field the total is (`elapsed_s`, `parent_wall_s`, `sum_of_phases`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_from: Option<&'static str>,
    /// Every phase, in report order.
    pub phases: Vec<PhaseRow>,
    /// `total - sum(phases)`, named `outside_phases_s`, when the total is
    /// measured independently of the phases.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside_phases: Option<Residual>,
    /// `warmup_forward` split into compile and execute (warm ledger only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warmup_split: Option<WarmupSplit>,
    /// The compile partition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_partition: Option<Partition>,
    /// Overlays beside the compile partition, never summed.
    pub overlays: Vec<OverlayRow>,
    /// compile / wall, only when both were measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_fraction: Option<f64>,
    /// Warm jobs.
    pub jobs: Vec<JobRow>,
    /// AOT entries.
    pub entries: Vec<AotEntryBreakdown>,
    /// The AOT table: typed totals, the mint partition, the pool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aot: Option<AotBreakdown>,
    /// The key-set check, when the report carried raw metrics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_set: Option<KeySetCheck>,
    /// The trace's own numbers, for a trace source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceSummary>,
    /// Reconciliation checks.
    pub reconciliation: Reconciliation,
    /// Unknown keys of the report, with their values as written.
    pub unknown_keys: Vec<UnknownKey>,
    /// Findings, most severe first.
    pub findings: Vec<Finding>,
}

impl MintBreakdown {
    fn empty(source: &str, ledger: LedgerKind) -> Self {
        MintBreakdown {
            source: source.to_owned(),
            ledger,
            recipe: None,
            recipe_echo: None,
            status: None,
            era: None,
            detail: None,
            phase: None,
            cell_key: None,
            artifact: None,
            packed: Vec::new(),
            verdict: None,
            verdict_ledger: None,
            peak_vram_bytes: None,
            total_s: None,
            total_from: None,
            phases: Vec::new(),
            outside_phases: None,
            warmup_split: None,
            compile_partition: None,
            overlays: Vec::new(),
            compile_fraction: None,
            jobs: Vec::new(),
            entries: Vec::new(),
            aot: None,
            key_set: None,
            trace: None,
            reconciliation: Reconciliation::default(),
            unknown_keys: Vec::new(),
            findings: Vec::new(),
        }
    }

    /// The breakdown of a mint without a report: every number absent, one
    /// `missing_report` finding.
    pub fn missing(source: &str, reason: &str) -> Self {
        let mut b = MintBreakdown::empty(
            source,
            LedgerKind::Missing {
                reason: reason.to_owned(),
            },
        );
        b.findings = detect(&b);
        b
    }

    /// The row of a report lane could not read: no numbers, one
    /// `unreadable_report` finding (an error, so the lane is not green)
    /// naming `error`, which should carry the JSON path or line and column
    /// (a [`crate::ReportError`]'s text does).
    pub fn unreadable(source: &str, error: &str) -> Self {
        let mut b = MintBreakdown::empty(
            source,
            LedgerKind::Unreadable {
                error: crate::report::text::quote(error, crate::report::text::DETAIL_MAX_CHARS),
            },
        );
        b.findings = detect(&b);
        b
    }

    /// Adds findings made outside the report (lane's own record of the
    /// attempt, [`crate::findings::record_findings`]), keeping the most
    /// severe first.
    pub fn add_findings(&mut self, more: Vec<Finding>) {
        self.findings.extend(more);
        self.findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    }

    /// True when the breakdown holds a measurement (a report was read).
    pub fn measured(&self) -> bool {
        !matches!(
            self.ledger,
            LedgerKind::Missing { .. } | LedgerKind::Unreadable { .. }
        )
    }

    /// True when the ledger cannot answer "compile or execute?".
    pub fn ledger_has_no_split(&self) -> bool {
        matches!(
            self.ledger,
            LedgerKind::PhasesOnly | LedgerKind::Unknown { .. } | LedgerKind::Mixed { .. }
        )
    }

    /// The ledger-version label used to refuse mixing (see [`mod@crate::compare`]).
    pub fn ledger_version(&self) -> String {
        self.ledger.label()
    }
}

/// What the upstream wrote beside a report, read by the caller: the
/// compile pool's share reports (0.114.3-0.126, `compile-pool/share-NNN/
/// report.json`, by name) and the mint's TORCH_TRACE logs, merged (they
/// survive `gen-worker compile`, 0.127 on), and the compiled graphs'
/// packages a 0.127 mint left (what ties each child's log to its
/// specialization, see [`verdict`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Beside<'a> {
    /// The share reports, by name (`share-000`).
    pub shares: &'a [(String, ShareReport)],
    /// The TORCH_TRACE logs.
    pub trace: Option<&'a TraceMetrics>,
    /// The compiled graphs' packages, as their member paths.
    pub packages: &'a [GraphPackage],
}

/// Builds the breakdown of a parsed report. `source` labels it in output.
pub fn from_report(source: &str, report: &MintReport) -> MintBreakdown {
    from_report_beside(source, report, Beside::default())
}

/// Builds the breakdown of a parsed report with what the upstream wrote
/// beside it: per-class times from the share reports where the table has
/// none (pgw#1356) and each share's child partition; a verdict's phases
/// from TORCH_TRACE.
pub fn from_report_beside(source: &str, report: &MintReport, beside: Beside<'_>) -> MintBreakdown {
    let ledger = match &report.ledger {
        MintLedger::None => LedgerKind::PhasesOnly,
        MintLedger::WarmSpansV1(_) => LedgerKind::WarmSpansV1,
        MintLedger::AotTableV1(_) => LedgerKind::AotTableV1,
        MintLedger::AotCompileRecord(_) => LedgerKind::AotCompileRecord,
        MintLedger::CompileVerdict(_) => LedgerKind::CompileVerdict,
        MintLedger::Unknown { key, value } => LedgerKind::Unknown {
            key: key.clone(),
            value: value.clone(),
        },
        MintLedger::Mixed { versions } => LedgerKind::Mixed {
            versions: versions.clone(),
        },
    };
    let mut b = MintBreakdown::empty(source, ledger);
    b.recipe = report.believed_recipe();
    b.recipe_echo = report.recipe.clone();
    b.status = report.status.clone();
    b.era = report.era.clone();
    b.detail = report.detail.clone();
    b.phase = report.phase.clone();
    b.cell_key = report
        .cell_key
        .clone()
        .or_else(|| report.compiled_graph_key.clone());
    b.artifact = report.artifact.clone();
    b.packed = report.entries.clone().unwrap_or_default();
    b.peak_vram_bytes = report.peak_vram_bytes;
    b.unknown_keys = report.unknown_keys.clone();

    let phases: Vec<Span> = match &report.ledger {
        MintLedger::AotCompileRecord(r) => [
            ("export_s", r.export_s),
            ("compile_wall_s", r.compile_wall_s),
        ]
        .into_iter()
        .filter_map(|(n, v)| v.map(|v| Span::new(n, v)))
        .collect(),
        // A verdict's rows: each specialization's whole child, in order.
        MintLedger::CompileVerdict(v) => v
            .specializations
            .iter()
            .filter_map(|s| s.wall_s.map(|w| Span::new(s.graph.clone(), w)))
            .collect(),
        _ => report.phases.clone().unwrap_or_default(),
    };
    let phases_sum: f64 = phases.iter().map(|p| p.seconds).sum();
    let (total, from) = match (report.elapsed_s, report.parent_wall_s) {
        (Some(t), _) => (Some(t), Some("elapsed_s")),
        (None, Some(t)) => (Some(t), Some("parent_wall_s")),
        (None, None) if !phases.is_empty() => (Some(phases_sum), Some("sum_of_phases")),
        _ => (None, None),
    };
    b.total_s = total;
    b.total_from = from;
    b.phases = phases
        .iter()
        .map(|p| PhaseRow {
            name: p.name.clone(),
            seconds: p.seconds,
            share: total.and_then(|t| share(p.seconds, t)),
        })
        .collect();
    if let (Some(t), Some("elapsed_s" | "parent_wall_s")) = (total, from) {
        if !phases.is_empty() {
            let r = t - phases_sum;
            b.outside_phases = Some(Residual {
                name: "outside_phases_s".into(),
                seconds: r,
                share: share(r, t),
                reported_s: None,
            });
        }
    }

    match &report.ledger {
        MintLedger::WarmSpansV1(w) => warm(&mut b, w, &phases, report.raw_metrics.as_deref()),
        MintLedger::AotTableV1(t) => aot::aot_table(
            &mut b,
            t,
            AotContext {
                packed: report.entries.as_ref().map(|e| e.len() as u64),
                shares: beside.shares,
            },
        ),
        MintLedger::AotCompileRecord(r) => compile_record(&mut b, r, report.raw_metrics.as_deref()),
        MintLedger::CompileVerdict(v) => b.verdict = Some(v.clone()),
        _ => {}
    }
    if let Some(trace) = beside.trace {
        trace_partition(&mut b, trace);
    }
    if let MintLedger::CompileVerdict(v) = &report.ledger {
        b.verdict_ledger = Some(verdict::verdict_ledger(v, beside.trace, beside.packages));
    }
    b.findings = detect(&b);
    b
}

/// The compile partition of a TORCH_TRACE (dynamo's or AOTInductor's key
/// map, by the keys the trace holds), and the trace's own summary.
fn trace_partition(b: &mut MintBreakdown, trace: &TraceMetrics) {
    let raw = trace.raw_metrics();
    let has = |k: &str| raw.iter().any(|s| s.name == k);
    let map = if has("_compile.compile_inner") {
        b.recipe.get_or_insert(Recipe::Dynamo);
        Some(&WARM_SPANS_V1)
    } else if has("compile_fx_aot") {
        b.recipe.get_or_insert(Recipe::Aot);
        Some(&AOT_COMPILE_V1)
    } else {
        None
    };
    if b.compile_partition.is_none() {
        if let Some((p, overlays)) = map.and_then(|m| partition_from_raw(m, &raw)) {
            b.overlays = overlay_rows(&overlays, Some(p.total.seconds));
            b.compile_partition = Some(p);
        }
    }
    b.trace = Some(TraceSummary {
        lines: trace.lines,
        record_lines: trace.record_lines,
        skipped_lines: trace.skipped_lines,
        skipped: trace.skipped.clone(),
        compiles_total: trace.compiles_total,
        compiles: trace.compiles.clone(),
        unclosed_spans: trace.unclosed_spans,
        unmatched_ends: trace.unmatched_ends,
        torch_version: trace.torch_version.clone(),
    });
}

fn split_residual(spans: &[Span], residual: &str) -> (Vec<Term>, Option<f64>) {
    let mut members = Vec::new();
    let mut reported = None;
    for s in spans {
        if s.name == residual {
            reported = Some(s.seconds);
        } else {
            members.push(Term::new(s.name.clone(), s.seconds));
        }
    }
    (members, reported)
}

fn check_residual(rec: &mut Reconciliation, label: &str, p: &Partition) {
    if let Some(reported) = p.residual.reported_s {
        rec.seconds(
            format!(
                "{label}: reported {} = {} - members",
                p.residual.name, p.total.name
            ),
            reported,
            p.residual.seconds,
        );
    }
}

fn warm(b: &mut MintBreakdown, w: &WarmLedger, phases: &[Span], raw: Option<&[Span]>) {
    let t = &w.totals;
    let rec = &mut b.reconciliation;
    if let Some(c) = t.warm_compile_s {
        let (members, reported) = split_residual(&w.phases, "compile_other_s");
        let p = Partition::new(
            Term::new("warm_compile_s", c),
            members,
            "compile_other_s",
            reported,
        );
        check_residual(rec, "compile partition", &p);
        b.compile_partition = Some(p);
    }
    let partition_total = b.compile_partition.as_ref().map(|p| p.total.seconds);
    let overlays: Vec<Term> = w
        .overlays
        .iter()
        .map(|s| Term::new(s.name.clone(), s.seconds))
        .collect();
    b.overlays = overlay_rows(&overlays, partition_total);

    let execute = t
        .warm_execute_s
        .or_else(|| Some(t.warm_wall_s? - t.warm_compile_s?));
    if let (Some(wall), Some(compile), Some(stated)) =
        (t.warm_wall_s, t.warm_compile_s, t.warm_execute_s)
    {
        rec.seconds(
            "warm_execute_s = warm_wall_s - warm_compile_s",
            stated,
            wall - compile,
        );
    }
    let phase_s = phases
        .iter()
        .find(|p| p.name == "warmup_forward")
        .map(|p| p.seconds);
    b.warmup_split = Some(WarmupSplit {
        phase: "warmup_forward".into(),
        phase_s,
        wall_s: t.warm_wall_s,
        compile_s: t.warm_compile_s,
        execute_s: execute,
        outside_ledger_s: match (phase_s, t.warm_wall_s) {
            (Some(p), Some(wall)) => Some(p - wall),
            _ => None,
        },
    });

    b.compile_fraction = match (t.warm_compile_s, t.warm_wall_s) {
        (Some(c), Some(wall)) if wall > 0.0 => {
            let computed = c / wall;
            if let Some(stated) = t.compile_fraction {
                // Upstream rounds the fraction to 4 places.
                let diff = computed - stated;
                rec.checks.push(crate::partition::Check {
                    what: "compile_fraction = warm_compile_s / warm_wall_s".into(),
                    expected: stated,
                    observed: computed,
                    difference: diff,
                    tolerance: 5e-4,
                    unit: "fraction",
                    holds: diff.abs() <= 5e-4,
                });
            }
            Some(computed)
        }
        // Only the ledger's own number is left; it omits it when unmeasurable.
        _ => t.compile_fraction,
    };

    b.jobs = w.jobs.iter().map(JobRow::of).collect();
    for j in &w.jobs {
        // `WarmLedger.job`: execute_s = wall_s - compile_s, per job.
        if let (Some(wall), Some(compile), Some(execute)) = (j.wall_s, j.compile_s, j.execute_s) {
            rec.seconds(
                format!("job {}: execute_s = wall_s - compile_s", j.job),
                execute,
                wall - compile,
            );
        }
    }
    if !w.jobs.is_empty() {
        if let Some(n) = t.warm_jobs {
            rec.count("warm_jobs = number of job rows", n, w.jobs.len() as u64);
        }
        if let Some(n) = t.warm_jobs_compiling {
            if w.jobs.iter().all(|j| j.compile_s.is_some()) {
                let compiling = w
                    .jobs
                    .iter()
                    .filter(|j| j.compile_s.is_some_and(|c| c > COMPILED_NOTHING_S))
                    .count();
                rec.count(
                    "warm_jobs_compiling = jobs compiling > 0.5 s",
                    n,
                    compiling as u64,
                );
            }
        }
        if let (Some(wall), true) = (t.warm_wall_s, w.jobs.iter().all(|j| j.wall_s.is_some())) {
            let sum: f64 = w.jobs.iter().filter_map(|j| j.wall_s).sum();
            rec.seconds("warm_wall_s = sum of job wall_s", wall, sum);
        }
        if let (Some(c), true) = (
            t.warm_compile_s,
            w.jobs.iter().all(|j| j.compile_s.is_some()),
        ) {
            let sum: f64 = w.jobs.iter().filter_map(|j| j.compile_s).sum();
            rec.seconds("warm_compile_s = sum of job compile_s", c, sum);
        }
    }
    if let Some(raw) = raw {
        let total = t.warm_compile_s.map(|c| Term::new("warm_compile_s", c));
        b.key_set = Some(check_key_set(
            &WARM_SPANS_V1,
            raw,
            total.as_ref(),
            &w.phases,
            &w.overlays,
        ));
    }
}

fn compile_record(b: &mut MintBreakdown, r: &AotCompileRecord, raw: Option<&[Span]>) {
    if let Some(total) = r.compile_wall_s {
        let (members, reported) = split_residual(&r.partition, "compile_other_s");
        let p = Partition::new(
            Term::new("compile_wall_s", total),
            members,
            "compile_other_s",
            reported,
        );
        check_residual(&mut b.reconciliation, "compile partition", &p);
        b.compile_partition = Some(p);
    }
    let overlays: Vec<Term> = r
        .overlays
        .iter()
        .map(|s| Term::new(s.name.clone(), s.seconds))
        .collect();
    b.overlays = overlay_rows(
        &overlays,
        b.compile_partition.as_ref().map(|p| p.total.seconds),
    );
    if let Some(raw) = raw {
        b.key_set = Some(check_key_set(
            &AOT_COMPILE_V1,
            raw,
            None,
            &r.partition,
            &r.overlays,
        ));
    }
}

/// Builds the breakdown of a TORCH_TRACE (one mint's logs, merged).
pub fn from_trace(source: &str, trace: &TraceMetrics) -> MintBreakdown {
    let mut b = MintBreakdown::empty(source, LedgerKind::Trace);
    trace_partition(&mut b, trace);
    b.findings = detect(&b);
    b
}
