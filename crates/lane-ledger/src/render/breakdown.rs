//! One mint's breakdown as aligned text. Every string that came from a
//! report (names, `detail`, `phase`, the pool's reasons, unknown values) is
//! escaped and bounded ([`crate::report::text`]); absent values print as
//! `absent`, never as `0.000`.

use std::fmt::Write;

use super::{pct, secs};
use crate::breakdown::{AotBreakdown, AotPath, LedgerKind, MintBreakdown, PoolBreakdown};
use crate::partition::{OverlayRow, Partition, ABS_TOLERANCE_S, REL_TOLERANCE};
use crate::report::facts::Fact;
use crate::report::text::{quote, value_text, DETAIL_MAX_CHARS, SHORT_MAX_CHARS};

fn q(s: &str) -> String {
    quote(s, SHORT_MAX_CHARS)
}

/// Rows of up to four columns, aligned: name, number, share, note.
struct Table {
    rows: Vec<[String; 4]>,
}

impl Table {
    fn new() -> Self {
        Table { rows: Vec::new() }
    }

    fn row(&mut self, name: String, value: String, share: String, note: &str) {
        self.rows.push([name, value, share, note.to_owned()]);
    }

    fn render(&self, out: &mut String, indent: &str) {
        let width = |i: usize, min: usize| {
            self.rows
                .iter()
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
                .max(min)
        };
        let (w0, w1, w2) = (width(0, 28), width(1, 7), width(2, 6));
        for [name, value, share, note] in &self.rows {
            let line = format!("{indent}{name:<w0$}  {value:>w1$}  {share:>w2$}  {note}");
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
}

fn partition_rows(t: &mut Table, p: &Partition, residual_note: &str) {
    for m in &p.members {
        t.row(q(&m.name), secs(Some(m.seconds)), pct(m.share), "");
    }
    let note = match p.residual.reported_s {
        Some(r) => format!("{residual_note}; the report says {r:.3}"),
        None => residual_note.to_owned(),
    };
    t.row(
        q(&p.residual.name),
        secs(Some(p.residual.seconds)),
        pct(p.residual.share),
        &note,
    );
    for u in &p.unobserved {
        t.row(q(u), "absent".into(), String::new(), "not measured");
    }
}

fn partition_block(
    out: &mut String,
    title: &str,
    p: &Partition,
    residual_note: &str,
    indent: &str,
) {
    let sep = if title.is_empty() { "" } else { " " };
    let _ = writeln!(
        out,
        "{indent}{title}{sep}{} = {:.3} s",
        q(&p.total.name),
        p.total.seconds
    );
    let mut t = Table::new();
    partition_rows(&mut t, p, residual_note);
    t.render(out, &format!("{indent}  "));
}

fn overlay_block(out: &mut String, title: &str, rows: &[OverlayRow], indent: &str) {
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(out, "{indent}{title}");
    let mut t = Table::new();
    for o in rows {
        let note = if o.exceeds_total {
            "exceeds the total (concurrent work)"
        } else {
            ""
        };
        t.row(
            q(&o.name),
            secs(Some(o.seconds)),
            pct(o.share_of_total),
            note,
        );
    }
    t.render(out, &format!("{indent}  "));
}

fn facts_line(facts: &[Fact]) -> String {
    facts
        .iter()
        .map(|f| format!("{} {}", q(&f.name), f.value.text()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The residual note: whose name it is.
fn residual_note(p: &Partition) -> &'static str {
    if p.residual.reported_s.is_some() {
        "residual, recomputed"
    } else {
        "residual, recomputed (the writer wrote none)"
    }
}

fn header(out: &mut String, b: &MintBreakdown) {
    let _ = writeln!(out, "mint {}", q(&b.source));
    let mut facts = vec![format!("ledger {}", b.ledger.label())];
    if let Some(r) = &b.recipe {
        facts.push(format!("recipe {}", q(r.as_str())));
    }
    if let Some(s) = &b.status {
        facts.push(format!("status {}", q(s.as_str())));
    }
    if let Some(c) = &b.cell_key {
        facts.push(format!("cell {}", q(c)));
    }
    let _ = writeln!(out, "  {}", facts.join(" | "));
    if let (Some(echo), false) = (
        &b.recipe_echo,
        b.recipe.map(lane_core::Named::Known) == b.recipe_echo,
    ) {
        let _ = writeln!(
            out,
            "  recipe echoed {} (not a claim: the report is not minted)",
            q(echo.as_str())
        );
    }
    if b.detail.is_some() || b.phase.is_some() {
        let _ = writeln!(
            out,
            "  detail: {}{}",
            b.detail
                .as_deref()
                .map_or_else(|| "absent".to_owned(), |d| quote(d, DETAIL_MAX_CHARS)),
            b.phase
                .as_deref()
                .map_or_else(String::new, |p| format!(" (phase {})", q(p)))
        );
    }
    match &b.ledger {
        LedgerKind::Unreadable { error } => {
            let _ = writeln!(out, "  unreadable: {}", quote(error, DETAIL_MAX_CHARS));
        }
        LedgerKind::Missing { reason } => {
            let _ = writeln!(out, "  no report: {}", q(reason));
        }
        _ => {}
    }
    match (b.total_s, b.total_from) {
        (Some(t), Some(from)) => {
            let _ = writeln!(out, "  total {t:.3} s ({from})");
        }
        _ => {
            let _ = writeln!(out, "  total absent (not measured)");
        }
    }
}

fn phases(out: &mut String, b: &MintBreakdown) {
    if b.phases.is_empty() {
        return;
    }
    let mut t = Table::new();
    t.row("phase".into(), "seconds".into(), "share".into(), "");
    for p in &b.phases {
        t.row(q(&p.name), secs(Some(p.seconds)), pct(p.share), "");
        if let (Some(split), true) = (&b.warmup_split, p.name == "warmup_forward") {
            let share = |v: Option<f64>| {
                pct(v
                    .zip(b.total_s)
                    .and_then(|(v, t)| crate::partition::share(v, t)))
            };
            t.row(
                "  compile (warm ledger)".into(),
                secs(split.compile_s),
                share(split.compile_s),
                "",
            );
            t.row(
                "  execute".into(),
                secs(split.execute_s),
                share(split.execute_s),
                "warm_execute_s, the ledger's residual",
            );
            t.row(
                "  outside_warm_ledger_s".into(),
                secs(split.outside_ledger_s),
                share(split.outside_ledger_s),
                "residual",
            );
        }
    }
    if let Some(r) = &b.outside_phases {
        t.row(
            r.name.clone(),
            secs(Some(r.seconds)),
            pct(r.share),
            "residual",
        );
    }
    out.push('\n');
    t.render(out, "  ");
}

fn aot_block(out: &mut String, a: &AotBreakdown, n_entries: usize, overlays: &[OverlayRow]) {
    let path = match a.path {
        AotPath::Serial => "serial path (K=1: every entry compiled in the mint child)",
        AotPath::Pooled => "pooled path (K>1: entries compiled out of process by the pool)",
        AotPath::Unmeasured => "no entry compiled",
    };
    let _ = writeln!(out, "\n  aot table: {path}");
    if let Some(terminus) = &a.terminus {
        let at = a.at.as_ref().map_or_else(String::new, |at| {
            format!(
                ", at {} {}/{}{}",
                at.phase.as_deref().map_or_else(|| "absent".to_owned(), q),
                at.step.map_or_else(|| "?".to_owned(), |s| s.to_string()),
                at.total.map_or_else(|| "?".to_owned(), |s| s.to_string()),
                at.note
                    .as_deref()
                    .filter(|n| !n.is_empty())
                    .map_or_else(String::new, |n| format!(" ({})", q(n)))
            )
        });
        let _ = writeln!(out, "  partial table: terminus {}{at}", q(terminus));
    }
    if !a.totals.is_empty() {
        let _ = writeln!(out, "  totals (typed by the upstream's vocabulary)");
        let rows: Vec<(String, String, &str)> = a
            .totals
            .iter()
            .map(|r| {
                (
                    q(&r.fact.name),
                    r.fact.value.text(),
                    r.note.as_deref().unwrap_or(""),
                )
            })
            .collect();
        let w0 = rows
            .iter()
            .map(|r| r.0.chars().count())
            .max()
            .unwrap_or(0)
            .max(28);
        let w1 = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
        for (name, value, note) in rows {
            let line = format!("    {name:<w0$}  {value:<w1$}  {note}");
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    if let Some(p) = &a.mint {
        out.push('\n');
        partition_block(
            out,
            "mint partition of",
            p,
            "residual, lane's (the writer names none)",
            "  ",
        );
        overlay_block(
            out,
            "beside it (sums over entries, never summed into it)",
            &a.beside_mint,
            "  ",
        );
    }
    if n_entries > 1 {
        for p in &a.levels {
            out.push('\n');
            partition_block(out, "entries' partition of", p, residual_note(p), "  ");
        }
    }
    overlay_block(
        out,
        "overlays of the entries' compile (summed by the writer, never into a partition)",
        overlays,
        "  ",
    );
    if let Some(pool) = &a.pool {
        pool_block(out, pool);
    }
    if let Some(t) = &a.autotune {
        let _ = writeln!(out, "  autotune {}", quote(t, DETAIL_MAX_CHARS));
    }
    if let Some(t) = &a.inductor_configs {
        let _ = writeln!(out, "  inductor_configs {}", quote(t, DETAIL_MAX_CHARS));
    }
}

fn pool_block(out: &mut String, pool: &PoolBreakdown) {
    let d = &pool.decision;
    let num = |v: Option<u64>| v.map_or_else(|| "absent".to_owned(), |v| v.to_string());
    let _ = writeln!(
        out,
        "\n  pool: K={} for {} entries, binding {}, underwidth {}, ceiling {}, limit {}",
        num(d.entry_workers),
        num(d.entries),
        d.binding.as_deref().map_or_else(|| "absent".to_owned(), q),
        num(d.underwidth),
        num(d.ceiling),
        match d.limit {
            Some(0) => "0 (uncapped)".to_owned(),
            other => num(other),
        }
    );
    if let Some(r) = &d.width_reason {
        let _ = writeln!(out, "    why: {}", quote(r, DETAIL_MAX_CHARS));
    }
    if !d.inputs.is_empty() {
        let _ = writeln!(out, "    inputs: {}", facts_line(&d.inputs));
    }
    if let Some(p) = &pool.capacity {
        partition_block(
            out,
            "capacity",
            p,
            "residual, lane's: slot-seconds charged to no one",
            "    ",
        );
    }
    if !pool.ledger.is_empty() {
        let _ = writeln!(out, "    ledger: {}", facts_line(&pool.ledger));
    }
}

fn entries(out: &mut String, b: &MintBreakdown) {
    for e in &b.entries {
        let shape = serde_json::to_value(e.shape)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "\n  entry {} ({shape}){}",
            q(&e.name),
            if e.failed {
                ", failed, seconds kept"
            } else {
                ""
            }
        );
        if let Some(err) = &e.error {
            let _ = writeln!(out, "    {}", quote(err, DETAIL_MAX_CHARS));
        }
        if !e.facts.is_empty() {
            let _ = writeln!(out, "    {}", facts_line(&e.facts));
        }
        for (_, p) in e.levels() {
            if let Some(p) = p {
                partition_block(out, "", p, residual_note(p), "    ");
            }
        }
        overlay_block(out, "overlays (nested, never summed)", &e.overlays, "    ");
        if !e.other.is_empty() {
            let _ = writeln!(out, "    unknown keys: {}", facts_line(&e.other));
        }
    }
}

fn jobs(out: &mut String, b: &MintBreakdown) {
    if b.jobs.is_empty() {
        return;
    }
    out.push('\n');
    let names: Vec<String> = b.jobs.iter().map(|j| q(&j.job)).collect();
    let w = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(8);
    let _ = writeln!(
        out,
        "  {:<w$}  {:>9}  {:>9}  {:>9}",
        "job", "wall_s", "compile_s", "execute_s"
    );
    for (j, name) in b.jobs.iter().zip(&names) {
        let mut notes = Vec::new();
        if j.failed {
            notes.push("failed (seconds kept)");
        }
        if j.compiled_nothing == Some(true) {
            notes.push("compiled nothing");
        }
        if j.compile_s.is_none() {
            notes.push("compile not measured");
        }
        let line = format!(
            "  {name:<w$}  {:>9}  {:>9}  {:>9}  {}",
            secs(j.wall_s),
            secs(j.compile_s),
            secs(j.execute_s),
            notes.join(", ")
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

fn trace(out: &mut String, b: &MintBreakdown) {
    let Some(tr) = &b.trace else {
        return;
    };
    let _ = writeln!(
        out,
        "\n  trace: {} lines, {} records, {} skipped; {} compile record(s){}",
        tr.lines,
        tr.record_lines,
        tr.skipped_lines,
        tr.compiles_total,
        tr.torch_version
            .as_ref()
            .map(|v| format!("; torch {}", q(v)))
            .unwrap_or_default()
    );
    for c in &tr.compiles {
        let _ = writeln!(
            out,
            "    compile {} (line {}): wall {}{}",
            c.compile_id
                .as_deref()
                .map_or_else(|| "(no id)".to_owned(), q),
            c.line,
            secs(c.wall_s),
            c.wall_from
                .map(|f| format!(" from {f}"))
                .unwrap_or_default()
        );
    }
    if tr.compiles_total > tr.compiles.len() as u64 {
        let _ = writeln!(
            out,
            "    ... {} more",
            tr.compiles_total - tr.compiles.len() as u64
        );
    }
}

/// One mint: header, phase table, warm split, the aot table (typed totals,
/// the mint partition, the entries' partitions, the pool), the compile
/// partition, overlays, jobs, entries, reconciliation and findings.
pub fn render_breakdown(b: &MintBreakdown) -> String {
    let mut out = String::new();
    header(&mut out, b);
    phases(&mut out, b);
    if let Some(a) = &b.aot {
        aot_block(&mut out, a, b.entries.len(), &b.overlays);
    } else {
        if let Some(p) = &b.compile_partition {
            out.push('\n');
            partition_block(&mut out, "compile partition of", p, residual_note(p), "  ");
        }
        overlay_block(
            &mut out,
            "overlays (beside the partition, never summed)",
            &b.overlays,
            "  ",
        );
    }
    match b.compile_fraction {
        Some(f) => {
            let _ = writeln!(out, "  compile_fraction {f:.4}");
        }
        None if b.warmup_split.is_some() => {
            let _ = writeln!(out, "  compile_fraction absent (the wall was not measured)");
        }
        None => {}
    }
    jobs(&mut out, b);
    entries(&mut out, b);
    trace(&mut out, b);

    if !b.unknown_keys.is_empty() {
        let _ = writeln!(
            out,
            "\n  unknown keys (kept as values, never read as seconds)"
        );
        for u in &b.unknown_keys {
            let _ = writeln!(
                out,
                "    {} = {}",
                q(u.path.as_str()),
                value_text(&u.value, SHORT_MAX_CHARS)
            );
        }
    }

    let checks = &b.reconciliation.checks;
    if !checks.is_empty() {
        let failing = checks.iter().filter(|c| !c.holds).count();
        let _ = writeln!(
            out,
            "\n  reconciliation: {} of {} checks hold (tolerance max({ABS_TOLERANCE_S} s, {} %) unless stated)",
            checks.len() - failing,
            checks.len(),
            REL_TOLERANCE * 100.0
        );
    }
    if let Some(k) = &b.key_set {
        let failing = k.rows.iter().filter(|r| !r.holds).count();
        let _ = writeln!(
            out,
            "  key set ({}): {} keys seen on the running torch; {} of {} rows reconcile",
            k.key_map,
            k.keys_seen,
            k.rows.len() - failing,
            k.rows.len()
        );
    }

    if b.findings.is_empty() {
        let _ = writeln!(out, "\n  findings: none");
    } else {
        let _ = writeln!(out, "\n  findings");
        for f in &b.findings {
            let _ = writeln!(out, "    {:<7}  {}", f.severity.as_str(), f.message);
        }
    }
    out
}

/// Several mints, one after the other.
pub fn render_breakdowns(all: &[MintBreakdown]) -> String {
    all.iter()
        .map(render_breakdown)
        .collect::<Vec<_>>()
        .join("\n")
}
