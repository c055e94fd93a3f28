//! The AOT parts of a breakdown: the table's path, its typed totals, the
//! mint's own partition with what sits beside it, the entries' partitions,
//! the pool's width decision and capacity, and each entry's partitions and
//! overlays.

use lane_ledger::breakdown::{AotBreakdown, AotEntryBreakdown, AotPath, PoolBreakdown};
use lane_ledger::partition::OverlayRow;

use super::breakdown::{fact_cell, facts_line, overlay_table, partition_table, residual_note};
use super::doc::{Blocks, Depth, RowRole, Table, TableKind};
use super::value::{Cell, Tone};
use super::{bound, short, LONG};

/// The AOT table's blocks.
pub(crate) fn aot(out: &mut Blocks, a: &AotBreakdown, n_entries: usize, overlays: &[OverlayRow]) {
    let k = a
        .pool
        .as_ref()
        .and_then(|p| p.decision.entry_workers)
        .map_or_else(|| "?".to_owned(), |k| k.to_string());
    let path = match a.path {
        AotPath::Serial => "serial path (K=1: every entry compiled in the mint child)".to_owned(),
        AotPath::Pooled => {
            "pooled path (K>1: entries compiled out of process by the pool)".to_owned()
        }
        AotPath::ClassPool => format!(
            "compile pool (0.114.3 on, K={k}: each compile child traces, compiles and packs its share's graph classes)"
        ),
        AotPath::Unmeasured => "no entry row holds a measurement".to_owned(),
    };
    out.para(Depth::Collapsed, 0, format!("aot table: {path}"));
    if let Some(owner) = &a.posture.compiler_owner {
        out.line(
            Depth::Collapsed,
            0,
            format!("compiler owner {}", short(owner)),
        );
    }
    if let Some(m) = &a.missing_rows {
        let n = |v: Option<u64>| v.map_or_else(|| "?".to_owned(), |v| v.to_string());
        out.line_toned(
            Depth::Collapsed,
            0,
            format!(
                "the table lists no entry while the mint packed {} cell(s) of {} class(es): the upstream's defect pgw#1356 (0.114.3-0.123); {}",
                n(m.packed),
                n(m.declared),
                if m.from_shares > 0 {
                    format!("the {} class rows below are the share reports'", m.from_shares)
                } else {
                    "the share reports were not read, so no class row is shown".to_owned()
                }
            ),
            Tone::Warn,
        );
    }
    if let Some(terminus) = &a.partial.terminus {
        let at = a.partial.at.as_ref().map_or_else(String::new, |at| {
            format!(
                ", at {} {}/{}{}",
                at.phase
                    .as_deref()
                    .map_or_else(|| "absent".to_owned(), short),
                at.step.map_or_else(|| "?".to_owned(), |s| s.to_string()),
                at.total.map_or_else(|| "?".to_owned(), |s| s.to_string()),
                at.note
                    .as_deref()
                    .filter(|n| !n.is_empty())
                    .map_or_else(String::new, |n| format!(" ({})", short(n)))
            )
        });
        out.line_toned(
            Depth::Collapsed,
            0,
            format!("partial table: terminus {}{at}", short(terminus)),
            Tone::Warn,
        );
    }
    let mut totals = Table::new(TableKind::Facts, &["Total", "Value", "Note"])
        .titled("totals (typed by the upstream's vocabulary)");
    for r in &a.totals {
        totals.push(
            RowRole::Plain,
            vec![
                Cell::text(short(&r.fact.name)),
                fact_cell(&r.fact.value),
                Cell::text(r.note.as_deref().map(short).unwrap_or_default()),
            ],
        );
    }
    out.table(Depth::Full, 0, totals);
    if let Some(p) = &a.mint {
        out.table(
            Depth::Collapsed,
            0,
            partition_table(
                "mint partition of",
                p,
                "residual, lane's (the writer names none)",
            ),
        );
        out.table(
            Depth::Collapsed,
            0,
            overlay_table(
                "beside it (sums over entries, never summed into it)",
                &a.beside_mint,
                Some(p.total.seconds),
            ),
        );
    }
    if n_entries > 1 || !a.shares.is_empty() {
        for p in &a.levels {
            out.table(
                Depth::Collapsed,
                0,
                partition_table("entries' partition of", p, residual_note(p)),
            );
        }
    }
    for share in &a.shares {
        out.para(
            Depth::Full,
            0,
            format!(
                "share {}: classes {}",
                short(&share.name),
                share
                    .classes
                    .iter()
                    .map(|c| short(c))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        if let Some(p) = &share.child_wall {
            out.table(Depth::Full, 1, partition_table("", p, residual_note(p)));
        }
        if let Some(p) = &share.compile_wall {
            out.table(
                Depth::Full,
                1,
                partition_table(
                    "",
                    p,
                    "residual, lane's, over the classes' own members (the written one, in the report, covers the last class only)",
                ),
            );
        }
    }
    // As the ledger sets them: the class pool's overlays against its
    // outermost level measured, else the mint's total.
    let against = match a.path {
        AotPath::ClassPool if a.shares.is_empty() => a.mint.as_ref(),
        _ => a.levels.first(),
    };
    out.table(
        Depth::Collapsed,
        0,
        overlay_table(
            "overlays of the entries' compile (summed by the writer, never into a partition)",
            overlays,
            against.map(|p| p.total.seconds),
        ),
    );
    if let Some(pool) = &a.pool {
        pool_blocks(out, pool);
    }
    if let Some(t) = &a.posture.autotune {
        out.line(Depth::Full, 0, format!("autotune {}", bound(t, LONG)));
    }
    if let Some(t) = &a.posture.inductor_configs {
        out.line(
            Depth::Full,
            0,
            format!("inductor_configs {}", bound(t, LONG)),
        );
    }
}

fn pool_blocks(out: &mut Blocks, pool: &PoolBreakdown) {
    let d = &pool.decision;
    let num = |v: Option<u64>| v.map_or_else(|| "absent".to_owned(), |v| v.to_string());
    out.para(
        Depth::Full,
        0,
        format!(
            "pool: K={} for {} entries, binding {}, underwidth {}, ceiling {}, limit {}",
            num(d.entry_workers),
            num(d.entries),
            d.binding
                .as_deref()
                .map_or_else(|| "absent".to_owned(), short),
            num(d.underwidth),
            num(d.ceiling),
            match d.limit {
                Some(0) => "0 (uncapped)".to_owned(),
                other => num(other),
            }
        ),
    );
    if let Some(r) = &d.width_reason {
        out.line(Depth::Full, 1, format!("why: {}", bound(r, LONG)));
    }
    if !d.inputs.is_empty() {
        out.line(Depth::Full, 1, format!("inputs: {}", facts_line(&d.inputs)));
    }
    if let Some(p) = &pool.capacity {
        out.table(
            Depth::Full,
            1,
            partition_table(
                "capacity",
                p,
                "residual, lane's: slot-seconds charged to no one",
            ),
        );
    }
    if !pool.ledger.is_empty() {
        out.line(
            Depth::Full,
            1,
            format!("ledger: {}", facts_line(&pool.ledger)),
        );
    }
}

/// Each AOT entry: its facts, its partitions outermost first, its overlays
/// and keys outside the vocabulary; a failed entry keeps its seconds.
pub(crate) fn entries(out: &mut Blocks, entries: &[AotEntryBreakdown]) {
    for e in entries {
        let shape = serde_json::to_value(e.shape)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        out.para_toned(
            Depth::Full,
            0,
            format!(
                "entry {} ({shape}){}",
                short(&e.name),
                if e.failed {
                    ", failed, seconds kept"
                } else {
                    ""
                }
            ),
            if e.failed { Tone::Bad } else { Tone::Plain },
        );
        if let Some(err) = &e.error {
            out.line(Depth::Full, 1, bound(err, LONG));
        }
        if !e.facts.is_empty() {
            out.line(Depth::Full, 1, facts_line(&e.facts));
        }
        for (_, p) in e.levels() {
            if let Some(p) = p {
                out.table(Depth::Full, 1, partition_table("", p, residual_note(p)));
            }
        }
        out.table(
            Depth::Full,
            1,
            overlay_table(
                "overlays (nested, never summed)",
                &e.overlays,
                e.compile.as_ref().map(|p| p.total.seconds),
            ),
        );
        if !e.other.is_empty() {
            out.line(
                Depth::Full,
                1,
                format!("unknown keys: {}", facts_line(&e.other)),
            );
        }
    }
}
