//! One mint's breakdown as blocks: the header facts, the phases with the
//! named `outside_phases_s`, the warm split, the compile partition (or the
//! AOT table, see [`super::aot`]) with its residual and its overlays apart,
//! the warm jobs, the entries, the trace, unknown keys, reconciliation and
//! findings. `lane ledger` prints it whole; a lane's report shows it per
//! repeat.

use lane_ledger::breakdown::LedgerKind;
use lane_ledger::partition::{OverlayRow, Partition, ABS_TOLERANCE_S, REL_TOLERANCE};
use lane_ledger::report::facts::{Fact, FactValue};
use lane_ledger::{Finding, MintBreakdown};
use serde::Serialize;

use super::doc::{capped, Blocks, Chart, Depth, RowRole, Table, TableKind};
use super::value::{Absent, Cell, Percent, Seconds, Tone};
use super::{bound, short, LONG};

/// One mint, ready to lay out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BreakdownView {
    /// The caller's label for the source (bounded, unescaped).
    pub source: String,
    /// Everything but the findings, in order.
    pub blocks: Blocks,
    /// The mint's findings, most severe first.
    pub findings: Table,
}

/// The most rows shown of one list inside a breakdown (trace compiles).
const TRACE_ROWS: usize = 50;

/// Builds the view of one mint.
pub fn breakdown(b: &MintBreakdown) -> BreakdownView {
    let mut out = Blocks::default();
    header(&mut out, b);
    phases(&mut out, b);
    if let Some(a) = &b.aot {
        super::aot::aot(&mut out, a, b.entries.len(), &b.overlays);
    } else {
        if let Some(p) = &b.compile_partition {
            out.table(
                Depth::Collapsed,
                0,
                partition_table("compile partition of", p, residual_note(p)),
            );
        }
        out.table(
            Depth::Collapsed,
            0,
            overlay_table(
                "overlays (beside the partition, never summed)",
                &b.overlays,
                b.compile_partition.as_ref().map(|p| p.total.seconds),
            ),
        );
    }
    match b.compile_fraction {
        Some(f) => out.para(
            Depth::Collapsed,
            0,
            format!("compile fraction {}", Percent::of(Some(f))),
        ),
        None if b.warmup_split.is_some() => out.para(
            Depth::Collapsed,
            0,
            "compile fraction absent (the wall was not measured)",
        ),
        None => {}
    }
    jobs(&mut out, b);
    super::aot::entries(&mut out, &b.entries);
    trace(&mut out, b);
    unknown_keys(&mut out, b);
    checks(&mut out, b);
    BreakdownView {
        source: short(&b.source),
        blocks: out,
        findings: findings_table(b.findings.iter().map(|f| (None, f)), false),
    }
}

fn header(out: &mut Blocks, b: &MintBreakdown) {
    let mut facts = vec![format!("ledger {}", short(&b.ledger.label()))];
    if let Some(r) = &b.recipe {
        facts.push(format!("recipe {}", short(r.as_str())));
    }
    if let Some(s) = &b.status {
        facts.push(format!("status {}", short(s.as_str())));
    }
    if let Some(c) = &b.cell_key {
        facts.push(format!("cell {}", short(c)));
    }
    out.line(Depth::Collapsed, 0, facts.join(" | "));
    if let Some(era) = &b.era {
        out.line(
            Depth::Collapsed,
            0,
            format!(
                "era: gen-worker {} (from its own fields: {})",
                era.label(),
                bound(&era.evidence.join("; "), LONG)
            ),
        );
    }
    if !b.packed.is_empty() {
        out.line(
            Depth::Full,
            0,
            format!(
                "packed cells (entries): {}",
                b.packed
                    .iter()
                    .map(|e| short(&e.key))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    if let Some(v) = &b.verdict {
        super::verdict::verdict(out, v, b.verdict_ledger.as_ref());
    }
    if let (Some(echo), false) = (
        &b.recipe_echo,
        b.recipe.map(lane_core::Named::Known) == b.recipe_echo,
    ) {
        out.line(
            Depth::Collapsed,
            0,
            format!(
                "recipe echoed {} (not a claim: the report is not minted)",
                short(echo.as_str())
            ),
        );
    }
    if b.detail.is_some() || b.phase.is_some() {
        out.line(
            Depth::Collapsed,
            0,
            format!(
                "detail: {}{}",
                b.detail
                    .as_deref()
                    .map_or_else(|| "absent".to_owned(), |d| bound(d, LONG)),
                b.phase
                    .as_deref()
                    .map_or_else(String::new, |p| format!(" (phase {})", short(p)))
            ),
        );
    }
    match &b.ledger {
        LedgerKind::Unreadable { error } => out.line_toned(
            Depth::Collapsed,
            0,
            format!("unreadable: {}", bound(error, LONG)),
            Tone::Bad,
        ),
        LedgerKind::Missing { reason } => out.line_toned(
            Depth::Collapsed,
            0,
            format!(
                "no report ({}): nothing was measured; no numbers are shown",
                short(reason)
            ),
            Tone::Quiet,
        ),
        _ => {}
    }
    let total = match (&b.ledger, b.total_s, b.total_from) {
        (_, Some(t), Some(from)) => format!("total {} (from {from})", Seconds::measured(t)),
        (LedgerKind::Missing { .. }, _, _) => format!("total {}", Absent::NoReport.as_str()),
        _ => format!("total {}", Absent::NotMeasured.as_str()),
    };
    out.line(Depth::Collapsed, 0, total);
}

fn phases(out: &mut Blocks, b: &MintBreakdown) {
    let total = Seconds::of(b.total_s);
    let mut t = Table::new(TableKind::Phases, &["Phase", "Seconds", "Share", "Note"])
        .titled(format!("phases of the total {total}"))
        .charted(Chart::Stacked { total });
    for p in &b.phases {
        t.push(
            RowRole::Member,
            vec![
                Cell::text(short(&p.name)),
                Cell::seconds(Seconds::measured(p.seconds)),
                Cell::percent(Percent::of(p.share)),
            ],
        );
    }
    if let Some(r) = &b.outside_phases {
        t.push(
            RowRole::Residual,
            vec![
                Cell::text(short(&r.name)),
                Cell::seconds(Seconds::measured(r.seconds)),
                Cell::percent(Percent::of(r.share)),
                Cell::text("residual: the total less every phase"),
            ],
        );
    }
    out.table(Depth::Collapsed, 0, t);
    let Some(w) = &b.warmup_split else {
        if b.ledger_has_no_split() && b.phases.iter().any(|p| p.name == "warmup_forward") {
            out.line(
                Depth::Collapsed,
                0,
                "warmup_forward: no compile/execute split (the ledger cannot say)",
            );
        }
        return;
    };
    let phase = Seconds::of(w.phase_s);
    let whole = if phase.value().is_some() {
        phase
    } else {
        Seconds::of(w.wall_s)
    };
    let mut t = Table::new(TableKind::WarmSplit, &["Part", "Seconds", "Share", "Note"])
        .titled(format!(
            "{} {phase} split by the warm ledger (ledger wall {})",
            short(&w.phase),
            Seconds::of(w.wall_s)
        ))
        .charted(Chart::Stacked { total: whole });
    let mut part = |role, name: &str, v: Option<f64>, note: &str| {
        let s = Seconds::of(v).or(Absent::NotMeasured);
        t.push(
            role,
            vec![
                Cell::text(name),
                Cell::seconds(s),
                Cell::percent(Percent::share(s, whole)),
                Cell::text(note),
            ],
        );
    };
    part(RowRole::Member, "compile (warm ledger)", w.compile_s, "");
    part(
        RowRole::Member,
        "execute",
        w.execute_s,
        "warm_execute_s, the ledger's residual",
    );
    part(
        RowRole::Residual,
        "outside_warm_ledger_s",
        w.outside_ledger_s,
        "residual: the phase less the ledger's wall",
    );
    out.table(Depth::Collapsed, 0, t);
}

/// A partition: its members, its named residual (with what the writer
/// reported, when it did), and the members it did not observe.
pub(crate) fn partition_table(title: &str, p: &Partition, residual_note: &str) -> Table {
    let total = Seconds::measured(p.total.seconds);
    let sep = if title.is_empty() { "" } else { " " };
    let mut t = Table::new(
        TableKind::Partition,
        &["Member", "Seconds", "Share", "Note"],
    )
    .titled(format!("{title}{sep}{} = {total}", short(&p.total.name)))
    .charted(Chart::Stacked { total });
    for m in &p.members {
        t.push(
            RowRole::Member,
            vec![
                Cell::text(short(&m.name)),
                Cell::seconds(Seconds::measured(m.seconds)),
                Cell::percent(Percent::of(m.share)),
            ],
        );
    }
    let note = match p.residual.reported_s {
        Some(r) => format!("{residual_note}; the report says {}", Seconds::measured(r)),
        None => residual_note.to_owned(),
    };
    t.push(
        RowRole::Residual,
        vec![
            Cell::text(short(&p.residual.name)),
            Cell::seconds(Seconds::measured(p.residual.seconds)),
            Cell::percent(Percent::of(p.residual.share)),
            Cell::text(note),
        ],
    );
    for u in &p.unobserved {
        t.push(
            RowRole::Unobserved,
            vec![
                Cell::text(short(u)),
                Cell::seconds(Seconds::absent(Absent::NotMeasured)),
                Cell::empty(),
                Cell::text("absent, not zero"),
            ],
        );
    }
    t
}

/// Overlays, each its own row, against the partition total they sit in.
pub(crate) fn overlay_table(title: &str, rows: &[OverlayRow], against: Option<f64>) -> Table {
    let mut t = Table::new(
        TableKind::Overlays,
        &["Overlay", "Seconds", "Share of total", "Note"],
    )
    .titled(title)
    .charted(Chart::Overlays {
        against: Seconds::of(against),
    });
    for o in rows {
        t.push(
            RowRole::Overlay,
            vec![
                Cell::text(short(&o.name)),
                Cell::seconds(Seconds::measured(o.seconds)),
                Cell::percent(Percent::of(o.share_of_total)),
                Cell::text(if o.exceeds_total {
                    "exceeds the total (concurrent work)"
                } else {
                    ""
                }),
            ],
        );
    }
    t
}

/// Whose residual a partition's is.
pub(crate) fn residual_note(p: &Partition) -> &'static str {
    if p.residual.reported_s.is_some() {
        "residual, recomputed"
    } else {
        "residual, recomputed (the writer wrote none)"
    }
}

/// A typed value as a cell: seconds and counts by the one rule, the rest
/// as the ledger words them.
pub(crate) fn fact_cell(v: &FactValue) -> Cell {
    match v {
        FactValue::Seconds(s) => Cell::seconds(Seconds::measured(*s)),
        FactValue::Count(n) => Cell::count(*n),
        other => Cell::text(bound(&other.text(), LONG)),
    }
}

/// Facts as one line: `name value, name value`.
pub(crate) fn facts_line(facts: &[Fact]) -> String {
    facts
        .iter()
        .map(|f| format!("{} {}", short(&f.name), fact_cell(&f.value).plain()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn jobs(out: &mut Blocks, b: &MintBreakdown) {
    let mut t = Table::new(
        TableKind::Jobs,
        &["Job", "Wall", "Compile", "Execute", "Note"],
    )
    .titled("warm jobs");
    for row in &b.jobs {
        let j = &row.warm;
        let mut notes = Vec::new();
        if j.failed {
            notes.push("failed (seconds kept)");
        }
        if row.compiled_nothing == Some(true) {
            notes.push("compiled nothing");
        }
        if j.compile_s.is_none() {
            notes.push("compile not measured");
        }
        t.push(
            if j.failed {
                RowRole::Failed
            } else {
                RowRole::Plain
            },
            vec![
                Cell::text(short(&j.job)),
                Cell::seconds(Seconds::of(j.wall_s)),
                Cell::seconds(Seconds::of(j.compile_s).or(Absent::NotMeasured)),
                Cell::seconds(Seconds::of(j.execute_s)),
                Cell::text(notes.join(", ")).with_tone(if j.failed {
                    Tone::Bad
                } else {
                    Tone::Plain
                }),
            ],
        );
    }
    out.table(Depth::Full, 0, t);
}

fn trace(out: &mut Blocks, b: &MintBreakdown) {
    let Some(tr) = &b.trace else {
        return;
    };
    out.para(
        Depth::Full,
        0,
        format!(
            "trace: {} lines, {} records, {} skipped; {} compile record(s){}",
            tr.lines,
            tr.record_lines,
            tr.skipped_lines,
            tr.compiles_total,
            tr.torch_version
                .as_ref()
                .map(|v| format!("; torch {}", short(v)))
                .unwrap_or_default()
        ),
    );
    let mut t = Table::new(TableKind::Compiles, &["Compile", "Line", "Wall", "From"]);
    let tied = super::verdict::tied_graphs(b.verdict_ledger.as_ref());
    capped(&mut t, &tr.compiles, TRACE_ROWS, |t, c| {
        // A 0.127 child's record has no compile id: it is named by the
        // specialization its log is tied to, or says it is tied to none.
        let id = c.compile_id.as_deref().map(short).or_else(|| {
            let at = (c.source.clone(), c.line);
            tied.get(&at).map(|g| format!("{} (its log's)", short(g)))
        });
        let untied = if b.verdict_ledger.is_some() {
            "(no id; tied to no specialization)"
        } else {
            "(no id)"
        };
        t.push(
            RowRole::Plain,
            vec![
                Cell::text_or(id.as_deref(), untied),
                Cell::count(c.line),
                Cell::seconds(Seconds::of(c.wall_s)),
                Cell::text(c.wall_from.unwrap_or("")),
            ],
        )
    });
    let shown = tr.compiles.len() as u64;
    if tr.compiles_total > shown {
        t.push(
            RowRole::More,
            vec![Cell::toned(
                format!(
                    "... {} more compile record(s) not kept",
                    tr.compiles_total - shown
                ),
                Tone::Quiet,
            )],
        );
    }
    out.table(Depth::Full, 1, t);
}

fn unknown_keys(out: &mut Blocks, b: &MintBreakdown) {
    let mut t = Table::new(TableKind::UnknownKeys, &["Key", "Value"])
        .titled("unknown keys (kept as values, never read as seconds)");
    for u in &b.unknown_keys {
        t.push(
            RowRole::Plain,
            vec![
                Cell::text(short(u.path.as_str())),
                Cell::text(short(&u.value.to_string())),
            ],
        );
    }
    out.table(Depth::Full, 0, t);
}

fn checks(out: &mut Blocks, b: &MintBreakdown) {
    let checks = &b.reconciliation.checks;
    if !checks.is_empty() {
        let failing = checks.iter().filter(|c| !c.holds).count();
        out.para(
            Depth::Full,
            0,
            format!(
                "reconciliation: {} of {} checks hold (tolerance max({ABS_TOLERANCE_S} s, {} %) unless stated)",
                checks.len() - failing,
                checks.len(),
                REL_TOLERANCE * 100.0
            ),
        );
    }
    if let Some(k) = &b.key_set {
        let failing = k.rows.iter().filter(|r| !r.holds).count();
        out.line(
            Depth::Full,
            0,
            format!(
                "key set ({}): {} keys seen on the running torch; {} of {} rows reconcile",
                k.key_map,
                k.keys_seen,
                k.rows.len() - failing,
                k.rows.len()
            ),
        );
    }
}

/// A finding's severity as a tone.
pub(crate) fn severity_tone(f: &Finding) -> Tone {
    match f.severity {
        lane_ledger::Severity::Error => Tone::Bad,
        lane_ledger::Severity::Warning => Tone::Warn,
        _ => Tone::Quiet,
    }
}

/// A finding kind's documented `snake_case` name.
pub(crate) fn kind_name(f: &Finding) -> String {
    serde_json::to_value(f.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Findings as a table, in the order given; with `place` the table also
/// says where each was found (a lane's table gathers every repeat's).
pub(crate) fn findings_table<'a>(
    findings: impl IntoIterator<Item = (Option<String>, &'a Finding)>,
    place: bool,
) -> Table {
    let columns: &[&'static str] = if place {
        &["Severity", "Finding", "Subject", "Where", "Message"]
    } else {
        &["Severity", "Finding", "Subject", "Message"]
    };
    let mut t = Table::new(TableKind::Findings, columns).titled("findings");
    for (at, f) in findings {
        let mut cells = vec![
            Cell::toned(f.severity.as_str(), severity_tone(f)),
            Cell::text(kind_name(f)),
            Cell::text(f.subject.as_deref().map(short).unwrap_or_default()),
        ];
        if place {
            cells.push(Cell::text(at.unwrap_or_default()));
        }
        cells.push(Cell::text(bound(&f.message, LONG)));
        t.push(RowRole::Plain, cells);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::doc::Body;
    use lane_ledger::breakdown::JobRow;
    use lane_ledger::report::WarmJob;

    #[test]
    fn a_failed_job_keeps_its_seconds_and_an_unmeasured_compile_is_absent() {
        let mut b = MintBreakdown::missing("c/H200/r1", "killed");
        b.jobs.push(JobRow::of(&WarmJob {
            job: "b1_32".into(),
            wall_s: Some(3.5),
            compile_s: None,
            execute_s: None,
            failed: true,
            error: None,
        }));
        let v = breakdown(&b);
        let jobs = v
            .blocks
            .tables()
            .find(|t| t.kind == TableKind::Jobs)
            .expect("a warm-jobs table");
        let row = &jobs.rows[0];
        assert_eq!(row.role, RowRole::Failed);
        let cells: Vec<String> = row.cells.iter().map(Cell::plain).collect();
        assert_eq!(
            cells,
            [
                "b1_32",
                "3.500 s",
                "not measured",
                "absent",
                "failed (seconds kept), compile not measured"
            ]
        );
    }

    #[test]
    fn overlays_are_rows_of_their_own_table_never_of_the_partition() {
        let mut b = MintBreakdown::missing("c/H200/r1", "x");
        b.compile_partition = Some(Partition::new(
            lane_ledger::Term::new("warm_compile_s", 10.0),
            vec![lane_ledger::Term::new("codegen_s", 4.0)],
            "compile_other_s",
            None,
        ));
        b.overlays.push(OverlayRow {
            name: "parallel_kernel_cpu_s".into(),
            seconds: 70.0,
            share_of_total: Some(7.0),
            exceeds_total: true,
        });
        let v = breakdown(&b);
        let tables: Vec<&Table> = v.blocks.tables().collect();
        let partition = tables
            .iter()
            .find(|t| t.kind == TableKind::Partition)
            .unwrap();
        let names: Vec<String> = partition.rows.iter().map(|r| r.cells[0].plain()).collect();
        assert_eq!(names, ["codegen_s", "compile_other_s"]);
        assert_eq!(partition.rows[1].role, RowRole::Residual);
        assert_eq!(partition.rows[1].cells[1].plain(), "6.000 s");
        let overlays = tables
            .iter()
            .find(|t| t.kind == TableKind::Overlays)
            .unwrap();
        assert_eq!(overlays.rows.len(), 1);
        assert_eq!(overlays.rows[0].role, RowRole::Overlay);
        assert_eq!(
            overlays.rows[0].cells[3].plain(),
            "exceeds the total (concurrent work)"
        );
    }

    #[test]
    fn a_missing_report_shows_no_number() {
        let v = breakdown(&MintBreakdown::missing("c/H200/r2", "no report.json"));
        assert_eq!(v.blocks.tables().count(), 0, "{v:#?}");
        let lines: Vec<&str> = v
            .blocks
            .0
            .iter()
            .filter_map(|b| match &b.body {
                Body::Line(l) => Some(l.text.as_str()),
                Body::Table(_) => None,
            })
            .collect();
        assert!(lines.contains(&"total no report"), "{lines:?}");
        assert!(!lines.iter().any(|l| l.contains("0.000")), "{lines:?}");
        assert_eq!(v.findings.rows.len(), 1);
    }
}
