//! A `gen-worker compile --verdict` (0.127 on), every field it writes:
//! `rc`, `summary`, `priority`, `fill`, `deferred`, each specialization's
//! `graph`, `contract`, `target`, `state`, `wall_s` and `detail`, and the
//! `unservable` gaps, a deferred graph's told apart from a gap the run
//! could not close. Beside it, the ledger's split of each wall: the compile
//! its own TORCH_TRACE log timed plus the named `outside_compile_s`, and
//! why each log is whose.

use std::collections::BTreeMap;

use lane_ledger::breakdown::VerdictLedger;
use lane_ledger::report::CompileVerdict;

use super::breakdown::{partition_table, residual_note};
use super::doc::{Blocks, Depth, RowRole, Table, TableKind};
use super::value::{Absent, Cell, Percent, Seconds, Tone};
use super::{bound, short, LONG};

/// Which specialization each tied compile record is, by its log and line.
pub(crate) fn tied_graphs(l: Option<&VerdictLedger>) -> BTreeMap<(Option<String>, u64), String> {
    let mut out = BTreeMap::new();
    for s in l.map_or(&[][..], |l| &l.specializations) {
        for c in &s.compiles {
            out.insert((c.source.clone(), c.line), s.graph.clone());
        }
    }
    out
}

fn or_absent(v: Option<&str>) -> String {
    v.map_or_else(|| "absent".to_owned(), short)
}

/// The verdict's blocks, and the ledger's split when there is one.
pub(crate) fn verdict(out: &mut Blocks, v: &CompileVerdict, l: Option<&VerdictLedger>) {
    let mut t = Table::new(
        TableKind::Facts,
        &[
            "Specialization",
            "Contract",
            "Target",
            "State",
            "Wall",
            "Detail",
        ],
    )
    .titled(format!("gen-worker compile verdict (rc {})", v.rc));
    for s in &v.specializations {
        let failed = s.state.as_ref().is_some_and(|n| n.as_str() == "failed");
        t.push(
            if failed {
                RowRole::Failed
            } else {
                RowRole::Plain
            },
            vec![
                Cell::text(short(&s.graph)),
                Cell::text(or_absent(s.contract.as_deref())),
                Cell::text(or_absent(s.target.as_deref())),
                Cell::text(or_absent(s.state.as_ref().map(|n| n.as_str()))),
                Cell::seconds(Seconds::of(s.wall_s).or(Absent::NotMeasured)),
                Cell::text(
                    s.detail
                        .as_deref()
                        .map(|d| bound(d, LONG))
                        .unwrap_or_default(),
                ),
            ],
        );
    }
    out.table(Depth::Collapsed, 0, t);
    out.line(
        Depth::Collapsed,
        1,
        format!("priority: {}", or_absent(v.priority.as_deref())),
    );
    out.line(
        Depth::Collapsed,
        1,
        format!(
            "fill: {}",
            v.fill
                .as_deref()
                .map_or_else(|| "none started".to_owned(), |f| bound(f, LONG))
        ),
    );
    out.line(
        Depth::Collapsed,
        1,
        if v.deferred.is_empty() {
            "deferred: none".to_owned()
        } else {
            format!(
                "deferred ({}, on purpose): {}",
                v.deferred.len(),
                v.deferred
                    .iter()
                    .map(|g| short(g))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
    );
    for line in v.summary.as_deref().unwrap_or_default().lines() {
        out.line(Depth::Full, 1, format!("summary: {}", bound(line, LONG)));
    }
    for (graph, detail) in &v.unservable {
        let (what, tone) = if v.deferred.contains(graph) {
            ("pending (deferred, not built yet)", Tone::Warn)
        } else {
            ("unservable", Tone::Bad)
        };
        out.line_toned(
            Depth::Collapsed,
            1,
            format!("{what}: {} ({})", short(graph), bound(detail, LONG)),
            tone,
        );
    }
    if let Some(l) = l {
        ledger(out, l);
    }
}

fn ledger(out: &mut Blocks, l: &VerdictLedger) {
    let mut t = Table::new(
        TableKind::Partition,
        &[
            "Specialization",
            "wall_s",
            "compile_s",
            "outside_compile_s",
            "Share",
            "Tied by",
        ],
    )
    .titled("each wall = compile_s (its own TORCH_TRACE log) + outside_compile_s (named residual)");
    for s in &l.specializations {
        let Some(p) = &s.partition else {
            t.push(
                RowRole::Plain,
                vec![
                    Cell::text(short(&s.graph)),
                    Cell::seconds(Seconds::absent(Absent::NotMeasured)),
                ],
            );
            continue;
        };
        t.push(
            RowRole::Member,
            vec![
                Cell::text(short(&s.graph)),
                Cell::seconds(Seconds::measured(p.total.seconds)),
                Cell::seconds(Seconds::of(p.member("compile_s")).or(Absent::NotMeasured)),
                Cell::seconds(Seconds::measured(p.residual.seconds)),
                Cell::percent(Percent::of(p.residual.share)),
                Cell::text(
                    s.evidence
                        .as_deref()
                        .map_or_else(|| "no log tied".to_owned(), |e| bound(e, LONG)),
                ),
            ],
        );
    }
    out.table(Depth::Collapsed, 0, t);
    if let Some(w) = &l.whole {
        out.table(
            Depth::Collapsed,
            0,
            partition_table("the specializations' walls:", w, residual_note(w)),
        );
    }
    for u in &l.unmatched {
        out.line_toned(
            Depth::Collapsed,
            1,
            format!(
                "trace compile {}:{} tied to no specialization: {}",
                u.compile.source.as_deref().map_or("?".to_owned(), short),
                u.compile.line,
                bound(&u.reason, LONG)
            ),
            Tone::Warn,
        );
    }
}
