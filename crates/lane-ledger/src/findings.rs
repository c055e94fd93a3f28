//! Findings: typed, severity-ranked statements about a mint's ledger, each
//! with the numbers that triggered it. `docs/ledger.md` lists every kind with
//! its severity and threshold; the constants below are the thresholds.
//!
//! Findings are derived from a finished [`MintBreakdown`] only, so the rules
//! live in one place and apply the same to reports and traces.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::breakdown::{LedgerKind, MintBreakdown};
use crate::partition::{tolerance, Partition};
use crate::report::text::{quote, value_text, DETAIL_MAX_CHARS, SHORT_MAX_CHARS};
use crate::report::{MintStatus, Named, Recipe};

mod era;
mod record;
mod verdict;

use era::era_findings;
pub use record::record_findings;

/// One phase holding more than this share of a mint is flagged.
pub const DOMINANT_PHASE_SHARE: f64 = 0.90;

/// Compile time below this many seconds does not count as "measured".
pub const MEASURED_COMPILE_MIN_S: f64 = 0.5;

/// A compile-named phase reading at most this fraction of the compile time
/// measured elsewhere "reads about zero".
pub const COMPILE_NAMED_ZERO_RATIO: f64 = 0.01;

/// A residual above this share of its partition's total is flagged ...
pub const RESIDUAL_WARN_SHARE: f64 = 0.20;

/// ... when it is also above this many seconds (tiny partitions are noise).
pub const RESIDUAL_WARN_MIN_S: f64 = 0.5;

/// A warm job compiling at most this many seconds compiled nothing (the
/// threshold upstream's `warm_jobs_compiling` counts against).
pub const COMPILED_NOTHING_S: f64 = 0.5;

/// How much a finding matters. Ordered: `info < warning < error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth knowing; nothing is wrong.
    Info,
    /// A shape that hides where time goes, or a measurement with a hole.
    Warning,
    /// The ledger cannot be trusted as read: it does not reconcile, its
    /// version is unknown or mixed, or the report is missing.
    Error,
}

impl Severity {
    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Severity {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "info" => Ok(Severity::Info),
            "warning" => Ok(Severity::Warning),
            "error" => Ok(Severity::Error),
            other => Err(format!(
                "unknown severity `{other}` (expected info, warning or error)"
            )),
        }
    }
}

/// What a finding is about. Serialized in `snake_case`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// One phase holds more than [`DOMINANT_PHASE_SHARE`] of the mint.
    DominantPhase,
    /// A phase named like a compile reads about zero while compile time was
    /// measured (or, for dynamo, is known to run) elsewhere.
    CompileNamedZero,
    /// A dynamo mint without a warm ledger: `warmup_forward` cannot say
    /// "compile or execute?".
    NoCompileSplit,
    /// A partition's residual is negative beyond rounding: torch's nesting
    /// changed and members overlap.
    NegativeResidual,
    /// A residual above [`RESIDUAL_WARN_SHARE`] of its total.
    ResidualAboveThreshold,
    /// A ledger version lane does not know (not interpreted).
    UnknownLedgerVersion,
    /// Two ledger versions in one report (refused).
    MixedLedgerVersions,
    /// No report: the mint has no measurement (absent, not zero).
    MissingReport,
    /// A warm job or AOT entry failed; its seconds are kept.
    FailedJob,
    /// A warm job compiled nothing: it buys no coverage.
    JobCompiledNothing,
    /// The ledger's rows no longer reconcile with the running torch's key set.
    KeySetDoesNotReconcile,
    /// Two numbers the ledger states disagree beyond tolerance.
    ReconciliationMismatch,
    /// An overlay exceeds the partition total (legitimate for CPU sums).
    OverlayExceedsTotal,
    /// The report carries keys lane does not know (tolerated, listed).
    UnknownKeys,
    /// The mint did not end `minted`.
    MintNotMinted,
    /// A trace had lines lane could not read (counted, skipped).
    TraceLinesSkipped,
    /// A `minted` report's recipe and its ledger's recipe disagree.
    RecipeLedgerMismatch,
    /// A report that could not be read (truncated, NaN, a shape lane does
    /// not know): the mint's row has no numbers, and the lane is not green.
    UnreadableReport,
    /// A report that is not `minted` echoes a recipe: not a claim (a child
    /// that died early echoes `MintReport`'s default, `dynamo`).
    RecipeEchoNotBelieved,
    /// The aot pool ran narrower than the cell could use (`underwidth`).
    PoolUnderwidth,
    /// The aot table is a partial one (`terminus`, `at`): the mint stopped
    /// before it finished, and what it measured is kept.
    PartialTable,
    /// The whole-mint table lists no entry while the mint packed some: the
    /// upstream's defect pgw#1356 (0.114.3-0.123, fixed in 0.124), not "no
    /// entry compiled".
    UpstreamTableDefect,
    /// A compile pool share's written compiler members are its last class's
    /// only, so its written `compile_other_s` holds the other classes'
    /// phases; lane splits `compile_wall_s` by the classes' own spans.
    SharePartitionLastClass,
    /// The mint resolved what it should have compiled (a class with
    /// `reuse_s > 0` and `compile_s` 0; a specialization `present`,
    /// `reused` or `claimed`): this repeat is not cold.
    NotCold,
    /// `gen-worker compile` names graphs it could not make servable (gaps
    /// of graphs it did not defer).
    Unservable,
    /// `gen-worker compile` deferred specializations on purpose (`--fill
    /// none` or `background`): not built yet, served eagerly until they land.
    Deferred,
    /// A TORCH_TRACE compile record ties to no specialization of a
    /// `gen-worker compile` verdict, or a built specialization to no record:
    /// its wall cannot be split.
    TraceNotTied,
    /// The mint's command exited non-zero after its report said `minted`
    /// (the report stands; the command's failure is said).
    CommandFailedAfterMinted,
    /// A mint on a GPU class none of whose cells holds GPU code: it
    /// compiled for the CPU.
    NoGpuCode,
    /// The attempt ran on the machine's `/tmp`: its coldness is not
    /// guaranteed, and the fixed paths it shares are named.
    ColdnessNotGuaranteed,
    /// The card the mint ran on is not the GPU class its slot names: its
    /// seconds are that card's, and the slot fails.
    CardNotClass,
    /// The card the mint ran on stands in for the slot's GPU class, as the
    /// lane file allows (`mint.stand_in`): its seconds are that card's,
    /// named beside the class and kept apart from the class's.
    StandIn,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// What it is about.
    pub kind: FindingKind,
    /// How much it matters.
    pub severity: Severity,
    /// The row it is about (phase, member, job, entry), when one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// A sentence for a person.
    pub message: String,
    /// The seconds involved, when one number says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// The share involved, when one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share: Option<f64>,
}

impl Finding {
    /// A finding with only a message.
    /// The message's control characters are escaped: it may quote foreign
    /// text (a job name, a `detail`), and no raw control byte from a report
    /// reaches output.
    pub fn new(kind: FindingKind, severity: Severity, message: impl Into<String>) -> Self {
        Finding {
            kind,
            severity,
            subject: None,
            message: crate::report::text::sanitize(&message.into()),
            seconds: None,
            share: None,
        }
    }

    fn subject(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(quote(&subject.into(), SHORT_MAX_CHARS));
        self
    }

    fn seconds(mut self, seconds: f64) -> Self {
        self.seconds = Some(seconds);
        self
    }

    fn share(mut self, share: Option<f64>) -> Self {
        self.share = share;
        self
    }
}

/// The highest severity among `findings`, if any.
pub fn max_severity(findings: &[Finding]) -> Option<Severity> {
    findings.iter().map(|f| f.severity).max()
}

/// True when a ledger divides phase `name` further (the warm split of
/// `warmup_forward`, a compile partition whose total is that phase, or the
/// aot table's entries under a compile-named phase).
fn phase_is_broken_down(b: &MintBreakdown, name: &str) -> bool {
    (name == "warmup_forward" && b.warmup_split.is_some())
        || b.compile_partition
            .as_ref()
            .is_some_and(|p| p.total.name == name)
        || (b.ledger == LedgerKind::AotTableV1 && is_compile_named(name) && !b.entries.is_empty())
}

fn is_compile_named(name: &str) -> bool {
    name.to_ascii_lowercase().contains("compile")
}

/// All findings for a finished breakdown, most severe first (stable within
/// a severity).
pub fn detect(b: &MintBreakdown) -> Vec<Finding> {
    let mut out = Vec::new();
    ledger_findings(b, &mut out);
    phase_findings(b, &mut out);
    partition_findings(b, &mut out);
    job_findings(b, &mut out);
    reconciliation_findings(b, &mut out);
    other_findings(b, &mut out);
    era_findings(b, &mut out);
    out.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out
}

fn ledger_findings(b: &MintBreakdown, out: &mut Vec<Finding>) {
    match &b.ledger {
        LedgerKind::Missing { reason } => out.push(Finding::new(
            FindingKind::MissingReport,
            Severity::Error,
            format!(
                "no mint report ({}): this mint has no measurement, which is not zero",
                quote(reason, DETAIL_MAX_CHARS)
            ),
        )),
        LedgerKind::Unreadable { error } => out.push(Finding::new(
            FindingKind::UnreadableReport,
            Severity::Error,
            format!(
                "the mint report could not be read ({}): nothing it measured is shown, which is not zero",
                quote(error, DETAIL_MAX_CHARS)
            ),
        )),
        LedgerKind::Unknown { key, value } => out.push(Finding::new(
            FindingKind::UnknownLedgerVersion,
            Severity::Error,
            format!("ledger version {key}={value} is unknown to this lane; its mint_phases were not interpreted"),
        )),
        LedgerKind::Mixed { versions } => out.push(Finding::new(
            FindingKind::MixedLedgerVersions,
            Severity::Error,
            format!(
                "mint_phases carries two ledger versions ({}); refusing to mix them",
                versions.join(", ")
            ),
        )),
        _ => {}
    }
    let ledger_recipe = match b.ledger {
        LedgerKind::WarmSpansV1 => Some(Recipe::Dynamo),
        LedgerKind::AotTableV1 | LedgerKind::AotCompileRecord => Some(Recipe::Aot),
        _ => None,
    };
    let minted = b.status == Some(Named::Known(MintStatus::Minted));
    match (&b.recipe_echo, minted) {
        // Only a minted report's echo is a claim.
        (Some(r), true) => {
            if let Some(lr) = ledger_recipe.filter(|lr| r.known() != Some(*lr)) {
                out.push(Finding::new(
                    FindingKind::RecipeLedgerMismatch,
                    Severity::Warning,
                    format!(
                        "the minted report says recipe {} but its ledger is the {} recipe's ({})",
                        quote(r.as_str(), SHORT_MAX_CHARS),
                        lr.as_str(),
                        b.ledger.label()
                    ),
                ));
            }
        }
        (Some(r), false) => out.push(Finding::new(
            FindingKind::RecipeEchoNotBelieved,
            Severity::Info,
            format!(
                "the report echoes recipe {} but is {}: not a claim (a child that dies before it knows its recipe echoes MintReport's default, dynamo)",
                quote(r.as_str(), SHORT_MAX_CHARS),
                b.status
                    .as_ref()
                    .map_or_else(|| "without a status".to_owned(), |s| format!("`{}`", quote(s.as_str(), SHORT_MAX_CHARS)))
            ),
        )),
        (None, _) => {}
    }
    if let Some(aot) = &b.aot {
        if let Some(terminus) = &aot.partial.terminus {
            let at = aot.partial.at.as_ref().map_or_else(String::new, |a| {
                let mut where_ = a.phase.as_deref().map_or_else(
                    || "an unnamed phase".to_owned(),
                    |p| quote(p, SHORT_MAX_CHARS),
                );
                if let (Some(step), Some(total)) = (a.step, a.total) {
                    where_.push_str(&format!(" {step}/{total}"));
                }
                if let Some(note) = a.note.as_deref().filter(|n| !n.is_empty()) {
                    where_.push_str(&format!(" ({})", quote(note, SHORT_MAX_CHARS)));
                }
                format!(", taken at {where_}")
            });
            out.push(Finding::new(
                FindingKind::PartialTable,
                Severity::Info,
                format!(
                    "a partial phase table (terminus `{}`{at}): the entries that finished and the seconds spent are kept",
                    quote(terminus, SHORT_MAX_CHARS)
                ),
            ));
        }
        if let Some(pool) = &aot.pool {
            let d = &pool.decision;
            if let Some(under) = d.underwidth.filter(|u| *u > 0) {
                out.push(
                    Finding::new(
                        FindingKind::PoolUnderwidth,
                        Severity::Warning,
                        format!(
                            "the entry pool ran {under} worker(s) narrower than this cell could use (K={}{}), held by {}",
                            d.entry_workers.map_or_else(|| "?".to_owned(), |k| k.to_string()),
                            d.entries.zip(d.ceiling).map_or_else(String::new, |(e, c)| format!(" of {}", e.min(c))),
                            d.binding.as_deref().map_or_else(|| "an unnamed bound".to_owned(), |b| quote(b, SHORT_MAX_CHARS))
                        ),
                    )
                    .subject("pool"),
                );
            }
        }
    }
}

fn phase_findings(b: &MintBreakdown, out: &mut Vec<Finding>) {
    if let Some(total) = b.total_s.filter(|t| *t > 0.0) {
        for p in &b.phases {
            if p.seconds / total > DOMINANT_PHASE_SHARE {
                let share = p.seconds / total;
                let (severity, tail) = if phase_is_broken_down(b, &p.name) {
                    (Severity::Info, "the ledger below breaks it down")
                } else if b
                    .status
                    .as_ref()
                    .is_some_and(|s| s.known() != Some(MintStatus::Minted))
                {
                    (Severity::Info, "the mint stopped there")
                } else {
                    (Severity::Warning, "one row cannot say where the time goes")
                };
                out.push(
                    Finding::new(
                        FindingKind::DominantPhase,
                        severity,
                        format!(
                            "{} holds {:.1} % of the mint ({:.3} s of {:.3} s): {tail}",
                            p.name,
                            100.0 * share,
                            p.seconds,
                            total
                        ),
                    )
                    .subject(&p.name)
                    .seconds(p.seconds)
                    .share(Some(share)),
                );
            }
        }
    }
    // Where compile time was measured (or is known to be) outside the
    // compile-named phases.
    let mut evidence: Vec<(String, f64)> = Vec::new();
    if let Some(split) = &b.warmup_split {
        if let Some(c) = split.compile_s.filter(|c| *c > MEASURED_COMPILE_MIN_S) {
            evidence.push(("the warm ledger's warm_compile_s".into(), c));
        }
    }
    if let Some(p) = &b.compile_partition {
        if p.total.seconds > MEASURED_COMPILE_MIN_S && b.warmup_split.is_none() {
            evidence.push((format!("the ledger's {}", p.total.name), p.total.seconds));
        }
    }
    if evidence.is_empty() && b.recipe == Some(Recipe::Dynamo) && b.ledger_has_no_split() {
        if let Some(w) = b
            .phases
            .iter()
            .find(|p| p.name.starts_with("warmup") && p.seconds > MEASURED_COMPILE_MIN_S)
        {
            evidence.push((
                format!(
                    "{} (a dynamo mint compiles inline inside its warm-up forwards)",
                    w.name
                ),
                w.seconds,
            ));
        }
    }
    for p in b.phases.iter().filter(|p| is_compile_named(&p.name)) {
        if let Some((where_, secs)) = evidence
            .iter()
            .find(|(_, secs)| p.seconds <= COMPILE_NAMED_ZERO_RATIO * secs)
        {
            out.push(
                Finding::new(
                    FindingKind::CompileNamedZero,
                    Severity::Warning,
                    format!(
                        "{} reads {:.3} s although compile time is in {} ({:.3} s): the row named after the compile does not measure it",
                        p.name, p.seconds, where_, secs
                    ),
                )
                .subject(&p.name)
                .seconds(p.seconds),
            );
        }
    }
    if b.recipe == Some(Recipe::Dynamo) && b.ledger_has_no_split() {
        if let Some(w) = b
            .phases
            .iter()
            .find(|p| p.name == "warmup_forward" && p.seconds > 0.0)
        {
            out.push(
                Finding::new(
                    FindingKind::NoCompileSplit,
                    Severity::Warning,
                    format!(
                        "warmup_forward ({:.3} s) holds compile and execute with no warm ledger to tell them apart",
                        w.seconds
                    ),
                )
                .subject("warmup_forward")
                .seconds(w.seconds),
            );
        }
    }
}

fn negative_residual_check(label: &str, p: &Partition, out: &mut Vec<Finding>) -> bool {
    let r = &p.residual;
    if r.seconds < -tolerance(p.total.seconds) {
        out.push(
            Finding::new(
                FindingKind::NegativeResidual,
                Severity::Error,
                format!(
                    "{label}: residual {} is {:.3} s; members sum past the total {} ({:.3} s), so members overlap or the clocks disagree",
                    r.name, r.seconds, p.total.name, p.total.seconds
                ),
            )
            .subject(format!("{label}: {}", r.name))
            .seconds(r.seconds)
            .share(r.share),
        );
        return true;
    }
    false
}

fn partition_checks(label: &str, p: &Partition, out: &mut Vec<Finding>) {
    let r = &p.residual;
    if negative_residual_check(label, p, out) {
        return;
    }
    if r.seconds > RESIDUAL_WARN_MIN_S && r.share.is_some_and(|s| s > RESIDUAL_WARN_SHARE) {
        out.push(
            Finding::new(
                FindingKind::ResidualAboveThreshold,
                Severity::Warning,
                format!(
                    "{label}: residual {} is {:.1} % of {} ({:.3} s): a phase the vocabulary does not name is growing",
                    r.name,
                    100.0 * r.share.unwrap_or(0.0),
                    p.total.name,
                    r.seconds
                ),
            )
            .subject(format!("{label}: {}", r.name))
            .seconds(r.seconds)
            .share(r.share),
        );
    }
}

fn partition_findings(b: &MintBreakdown, out: &mut Vec<Finding>) {
    if let Some(p) = &b.compile_partition {
        partition_checks("compile partition", p, out);
    }
    if let Some(residual) = &b.outside_phases {
        if let Some(total) = b.total_s {
            if residual.seconds < -tolerance(total) {
                out.push(
                    Finding::new(
                        FindingKind::NegativeResidual,
                        Severity::Error,
                        format!(
                            "phases sum past the mint's total by {:.3} s: phases overlap or the clocks disagree",
                            -residual.seconds
                        ),
                    )
                    .subject(&residual.name)
                    .seconds(residual.seconds),
                );
            }
        }
    }
    if let Some(split) = &b.warmup_split {
        if let (Some(o), Some(phase)) = (split.outside_ledger_s, split.phase_s) {
            if o < -tolerance(phase) {
                out.push(
                    Finding::new(
                        FindingKind::NegativeResidual,
                        Severity::Error,
                        format!(
                            "the warm ledger's wall exceeds warmup_forward by {:.3} s: the ledger and the phase clock disagree",
                            -o
                        ),
                    )
                    .subject("outside_warm_ledger_s")
                    .seconds(o),
                );
            }
        }
    }
    for e in &b.entries {
        for (label, p) in e.levels() {
            if let Some(p) = p {
                partition_checks(
                    &format!("entry {} {label}", quote(&e.name, SHORT_MAX_CHARS)),
                    p,
                    out,
                );
            }
        }
    }
    if let Some(aot) = &b.aot {
        if let Some(p) = &aot.mint {
            if aot.partial.terminus.is_some() {
                // A partial table's total was re-taken while the mint was in
                // a phase that never closed: its residual holds that phase.
                negative_residual_check("mint partition", p, out);
            } else {
                partition_checks("mint partition", p, out);
            }
        }
        if let Some(p) = aot.pool.as_ref().and_then(|p| p.capacity.as_ref()) {
            if aot.partial.terminus.is_none() {
                partition_checks("pool capacity", p, out);
            } else if !negative_residual_check("pool capacity", p, out)
                && p.residual.seconds > RESIDUAL_WARN_MIN_S
            {
                // `EntryCompilePool.compile` books a child's wall only when it
                // reaps it; the siblings it tears down on a failure are in
                // the capacity and in neither busy nor idle.
                let r = &p.residual;
                out.push(
                    Finding::new(
                        FindingKind::PartialTable,
                        Severity::Info,
                        format!(
                            "pool capacity: {} is {:.3} s ({:.1} % of pool_capacity_s): slot-seconds of compile children the aborted pool tore down before it booked them",
                            r.name,
                            r.seconds,
                            100.0 * r.share.unwrap_or(0.0)
                        ),
                    )
                    .subject(format!("pool capacity: {}", r.name))
                    .seconds(r.seconds)
                    .share(r.share),
                );
            }
        }
    }
    for o in &b.overlays {
        if o.exceeds_total {
            out.push(
                Finding::new(
                    FindingKind::OverlayExceedsTotal,
                    Severity::Info,
                    format!(
                        "overlay {} ({:.3} s) exceeds the partition total; it sums concurrent work and is never added to the partition",
                        o.name, o.seconds
                    ),
                )
                .subject(&o.name)
                .seconds(o.seconds),
            );
        }
    }
}

fn job_findings(b: &MintBreakdown, out: &mut Vec<Finding>) {
    for row in &b.jobs {
        let j = &row.warm;
        if j.failed {
            let secs = j
                .wall_s
                .map(|w| format!("{w:.3} s"))
                .unwrap_or_else(|| "unmeasured".into());
            out.push(
                Finding::new(
                    FindingKind::FailedJob,
                    Severity::Warning,
                    format!("warm job {} failed; its {secs} stay in the ledger", j.job),
                )
                .subject(&j.job),
            );
        } else if row.compiled_nothing == Some(true) {
            out.push(
                Finding::new(
                    FindingKind::JobCompiledNothing,
                    Severity::Info,
                    format!(
                        "warm job {} compiled nothing ({:.3} s): it buys no coverage",
                        j.job,
                        j.compile_s.unwrap_or(0.0)
                    ),
                )
                .subject(&j.job),
            );
        }
    }
    for e in b.entries.iter().filter(|e| e.failed) {
        out.push(
            Finding::new(
                FindingKind::FailedJob,
                Severity::Warning,
                format!(
                    "aot entry {} failed{}; its seconds stay in the ledger",
                    quote(&e.name, SHORT_MAX_CHARS),
                    e.error.as_deref().map_or_else(String::new, |err| format!(
                        ": {}",
                        quote(err, DETAIL_MAX_CHARS)
                    ))
                ),
            )
            .subject(&e.name),
        );
    }
}

fn reconciliation_findings(b: &MintBreakdown, out: &mut Vec<Finding>) {
    for c in b.reconciliation.checks.iter().filter(|c| !c.holds) {
        out.push(
            Finding::new(
                FindingKind::ReconciliationMismatch,
                Severity::Error,
                format!(
                    "{}: stated {} against recomputed {} (off by {}, tolerance {})",
                    c.what,
                    fmt_num(c.expected, c.unit),
                    fmt_num(c.observed, c.unit),
                    fmt_num(c.difference, c.unit),
                    fmt_num(c.tolerance, c.unit)
                ),
            )
            .subject(&c.what),
        );
    }
    if let Some(k) = &b.key_set {
        for r in k.rows.iter().filter(|r| !r.holds) {
            let msg = if r.keys_present.is_empty() && r.keys.len() == 1 && k.rows[0].name == r.name
            {
                format!(
                    "{}: its key {} is not in the running torch's key set; the ledger no longer reconciles",
                    r.name, r.keys[0]
                )
            } else {
                format!(
                    "{}: reported {:.3} s but its keys [{}] sum to {} on the running torch",
                    r.name,
                    r.reported_s,
                    r.keys.join(", "),
                    r.raw_s
                        .map(|v| format!("{v:.3} s"))
                        .unwrap_or_else(|| "nothing (none seen)".into())
                )
            };
            out.push(
                Finding::new(FindingKind::KeySetDoesNotReconcile, Severity::Error, msg)
                    .subject(&r.name),
            );
        }
    }
}

fn fmt_num(v: f64, unit: &str) -> String {
    if unit == "count" {
        format!("{v}")
    } else if unit == "fraction" {
        format!("{v:.4}")
    } else {
        format!("{v:.3} s")
    }
}

fn other_findings(b: &MintBreakdown, out: &mut Vec<Finding>) {
    // The report's own, then each share report's, named by its share.
    let shares = b.aot.iter().flat_map(|a| a.shares.iter());
    let unknown: Vec<(String, &lane_json::UnknownKey)> = b
        .unknown_keys
        .iter()
        .map(|u| (String::new(), u))
        .chain(shares.flat_map(|s| {
            s.unknown_keys
                .iter()
                .map(move |u| (format!("{}: ", quote(&s.name, SHORT_MAX_CHARS)), u))
        }))
        .collect();
    if !unknown.is_empty() {
        let list: Vec<String> = unknown
            .iter()
            .map(|(share, u)| {
                format!(
                    "{share}{} = {}",
                    quote(u.path.as_str(), SHORT_MAX_CHARS),
                    value_text(&u.value, SHORT_MAX_CHARS)
                )
            })
            .collect();
        out.push(Finding::new(
            FindingKind::UnknownKeys,
            Severity::Info,
            format!(
                "{} key(s) unknown to this lane, kept as values (never as seconds): {}",
                list.len(),
                list.join(", ")
            ),
        ));
    }
    if let Some(status) = &b.status {
        if status.known() != Some(MintStatus::Minted) {
            let phase = b.phase.as_deref().map_or_else(String::new, |p| {
                format!(" in phase `{}`", quote(p, SHORT_MAX_CHARS))
            });
            let detail = b
                .detail
                .as_deref()
                .map_or_else(String::new, |d| format!(": {}", quote(d, DETAIL_MAX_CHARS)));
            out.push(
                Finding::new(
                    FindingKind::MintNotMinted,
                    Severity::Info,
                    format!(
                        "the mint ended `{}`{phase}{detail}; its measured seconds are kept",
                        quote(status.as_str(), SHORT_MAX_CHARS)
                    ),
                )
                .subject(status.as_str()),
            );
        }
    }
    if let Some(t) = &b.trace {
        if t.skipped_lines > 0 {
            let first = t
                .skipped
                .first()
                .map(|s| {
                    let file = s
                        .source
                        .as_deref()
                        .map(|f| format!("{f} "))
                        .unwrap_or_default();
                    format!(" (first: {file}line {}, {})", s.line, s.reason)
                })
                .unwrap_or_default();
            out.push(Finding::new(
                FindingKind::TraceLinesSkipped,
                Severity::Warning,
                format!(
                    "{} of {} trace lines skipped{first}",
                    t.skipped_lines, t.lines
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests;
