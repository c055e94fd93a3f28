//! Plain-text rendering: an aligned table per mint with its findings, the
//! comparison table, and the determinism verdict. Returns `String`s; the
//! caller prints. Absent values print as `absent`, never as `0.000`.

use std::fmt::Write;

use crate::breakdown::MintBreakdown;
use crate::compare::Comparison;
use crate::determinism::{DeterminismReport, DiffClass};
use crate::partition::{Partition, ABS_TOLERANCE_S, REL_TOLERANCE};

fn secs(v: Option<f64>) -> String {
    v.map_or_else(|| "absent".to_owned(), |v| format!("{v:.3}"))
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(String::new, |v| format!("{:.1}%", 100.0 * v))
}

struct Table {
    rows: Vec<(String, String, String, String)>,
}

impl Table {
    fn new() -> Self {
        Table { rows: Vec::new() }
    }

    fn row(&mut self, name: String, seconds: String, share: String, note: &str) {
        self.rows.push((name, seconds, share, note.to_owned()));
    }

    fn render(&self, out: &mut String, indent: &str) {
        let w0 = self
            .rows
            .iter()
            .map(|r| r.0.chars().count())
            .max()
            .unwrap_or(0)
            .max(28);
        let w1 = self
            .rows
            .iter()
            .map(|r| r.1.len())
            .max()
            .unwrap_or(0)
            .max(7);
        let w2 = self
            .rows
            .iter()
            .map(|r| r.2.len())
            .max()
            .unwrap_or(0)
            .max(6);
        for (name, s, share, note) in &self.rows {
            let line = format!("{indent}{name:<w0$}  {s:>w1$}  {share:>w2$}  {note}");
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
}

fn partition_rows(t: &mut Table, p: &Partition, indent: &str) {
    for m in &p.members {
        t.row(
            format!("{indent}{}", m.name),
            secs(Some(m.seconds)),
            pct(m.share),
            "",
        );
    }
    let note = match p.residual.reported_s {
        Some(r) => format!("residual, recomputed; report says {r:.3}"),
        None => "residual, recomputed".to_owned(),
    };
    t.row(
        format!("{indent}{}", p.residual.name),
        secs(Some(p.residual.seconds)),
        pct(p.residual.share),
        &note,
    );
    for u in &p.unobserved {
        t.row(
            format!("{indent}{u}"),
            "absent".into(),
            String::new(),
            "not measured",
        );
    }
}

/// One mint: header, phase table, warm split, compile partition, overlays,
/// jobs, entries, reconciliation and findings.
pub fn render_breakdown(b: &MintBreakdown) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "mint {}", b.source);
    let mut facts = vec![format!("ledger {}", b.ledger.label())];
    if let Some(r) = &b.recipe {
        facts.push(format!("recipe {}", r.as_str()));
    }
    if let Some(s) = &b.status {
        facts.push(format!("status {}", s.as_str()));
    }
    if let Some(c) = &b.cell_key {
        facts.push(format!("cell {c}"));
    }
    let _ = writeln!(out, "  {}", facts.join(" | "));
    match (b.total_s, b.total_from) {
        (Some(t), Some(from)) => {
            let _ = writeln!(out, "  total {t:.3} s ({from})");
        }
        _ => {
            let _ = writeln!(out, "  total absent (not measured)");
        }
    }

    if !b.phases.is_empty() {
        let mut t = Table::new();
        t.row("phase".into(), "seconds".into(), "share".into(), "");
        for p in &b.phases {
            t.row(p.name.clone(), secs(Some(p.seconds)), pct(p.share), "");
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
                    "",
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
        t.render(&mut out, "  ");
    }

    if !b.ledger_totals.is_empty() {
        let _ = writeln!(out, "\n  ledger totals (as written)");
        let mut t = Table::new();
        for s in &b.ledger_totals {
            t.row(s.name.clone(), secs(Some(s.seconds)), String::new(), "");
        }
        t.render(&mut out, "    ");
    }

    if let Some(p) = &b.compile_partition {
        let _ = writeln!(
            out,
            "\n  compile partition of {} = {:.3} s",
            p.total.name, p.total.seconds
        );
        let mut t = Table::new();
        partition_rows(&mut t, p, "");
        t.render(&mut out, "    ");
    }
    if !b.overlays.is_empty() {
        let _ = writeln!(out, "  overlays (beside the partition, never summed)");
        let mut t = Table::new();
        for o in &b.overlays {
            let note = if o.exceeds_total {
                "exceeds the total (concurrent work)"
            } else {
                ""
            };
            t.row(
                o.name.clone(),
                secs(Some(o.seconds)),
                pct(o.share_of_total),
                note,
            );
        }
        t.render(&mut out, "    ");
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

    if !b.jobs.is_empty() {
        out.push('\n');
        let w = b.jobs.iter().map(|j| j.job.len()).max().unwrap_or(0).max(8);
        let _ = writeln!(
            out,
            "  {:<w$}  {:>9}  {:>9}  {:>9}",
            "job", "wall_s", "compile_s", "execute_s"
        );
        for j in &b.jobs {
            let mut notes = Vec::new();
            if j.failed {
                notes.push("failed (seconds kept)");
            }
            if j.compiled_nothing == Some(true) {
                notes.push("compiled nothing");
            }
            let line = format!(
                "  {:<w$}  {:>9}  {:>9}  {:>9}  {}",
                j.job,
                secs(j.wall_s),
                secs(j.compile_s),
                secs(j.execute_s),
                notes.join(", ")
            );
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }

    for e in &b.entries {
        let _ = writeln!(
            out,
            "\n  entry {}{}",
            e.name,
            if e.failed {
                " (failed, seconds kept)"
            } else {
                ""
            }
        );
        for (label, p) in [
            ("compile_s", &e.compile),
            ("child_wall_s", &e.child_wall),
            ("compile_wall_s", &e.compile_wall),
        ] {
            if let Some(p) = p {
                let _ = writeln!(out, "    {label} = {:.3} s", p.total.seconds);
                let mut t = Table::new();
                partition_rows(&mut t, p, "");
                t.render(&mut out, "      ");
            }
        }
        if !e.overlays.is_empty() {
            let _ = writeln!(out, "    overlays (never summed)");
            let mut t = Table::new();
            for o in &e.overlays {
                t.row(
                    o.name.clone(),
                    secs(Some(o.seconds)),
                    pct(o.share_of_total),
                    "",
                );
            }
            t.render(&mut out, "      ");
        }
    }

    if let Some(tr) = &b.trace {
        let _ = writeln!(
            out,
            "\n  trace: {} lines, {} records, {} skipped; {} compile record(s){}",
            tr.lines,
            tr.record_lines,
            tr.skipped_lines,
            tr.compiles_total,
            tr.torch_version
                .as_ref()
                .map(|v| format!("; torch {v}"))
                .unwrap_or_default()
        );
        for c in &tr.compiles {
            let _ = writeln!(
                out,
                "    compile {} (line {}): wall {}{}",
                c.compile_id.as_deref().unwrap_or("(no id)"),
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

    let checks = &b.reconciliation.checks;
    if !checks.is_empty() {
        let failing = checks.iter().filter(|c| !c.holds).count();
        let _ = writeln!(
            out,
            "\n  reconciliation: {} of {} checks hold (tolerance max({ABS_TOLERANCE_S} s, {} %))",
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

/// A baseline/candidate comparison.
pub fn render_comparison(c: &Comparison) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "compare baseline ({} mint(s){}) against candidate ({} mint(s){}), ledger {}",
        c.baseline.mints,
        if c.baseline.missing > 0 {
            format!(", {} missing", c.baseline.missing)
        } else {
            String::new()
        },
        c.candidate.mints,
        if c.candidate.missing > 0 {
            format!(", {} missing", c.candidate.missing)
        } else {
            String::new()
        },
        c.ledger
    );
    let _ = writeln!(
        out,
        "  noise rule: |delta| > max({} s, {} % of baseline), and Welch's t-test at 5 % when both sides repeat",
        c.noise_rule.floor_s,
        c.noise_rule.relative * 100.0,
    );
    if c.same_cell == Some(false) {
        let _ = writeln!(out, "  note: the two sides name different cells");
    }
    let w = c
        .rows
        .iter()
        .map(|r| r.name.len() + r.group.len() + 1)
        .max()
        .unwrap_or(0)
        .max(20);
    let _ = writeln!(
        out,
        "\n  {:<w$}  {:>10}  {:>10}  {:>10}  {:>7}  verdict",
        "row", "baseline", "candidate", "delta", "rel"
    );
    for r in &c.rows {
        let line = format!(
            "  {:<w$}  {:>10}  {:>10}  {:>10}  {:>7}  {}",
            format!("{}:{}", r.group, r.name),
            secs(r.baseline_s),
            secs(r.candidate_s),
            r.delta_s.map_or_else(String::new, |d| format!("{d:+.3}")),
            pct(r.delta_rel),
            serde_json::to_value(r.verdict)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

fn value_text(v: &Option<serde_json::Value>) -> String {
    v.as_ref()
        .map_or_else(|| "absent".to_owned(), |v| v.to_string())
}

/// The determinism verdict and per-kernel differences.
pub fn render_determinism(r: &DeterminismReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "verdict: {}", r.verdict.describe());
    let _ = writeln!(out, "  {}", r.summary);
    let f = &r.files;
    let _ = writeln!(
        out,
        "\nfiles: A {}, B {}; identical {}; paired by path {}, by role/kernel {}; differing {}; only in A {}; only in B {}",
        f.a,
        f.b,
        f.identical,
        f.paired_by_path,
        f.paired_by_role,
        f.differing,
        f.only_a.len(),
        f.only_b.len()
    );
    if !r.noise.is_empty() {
        let list: Vec<String> = r
            .noise
            .iter()
            .map(|n| {
                let name = serde_json::to_value(n.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                format!("{name} ({} file(s))", n.files)
            })
            .collect();
        let _ = writeln!(out, "noise removed: {}", list.join(", "));
    }
    let k = &r.kernels;
    let _ = writeln!(
        out,
        "autotune: {} kernel(s) with a best_config; {} differ, {} agree",
        k.with_configs,
        k.config_differs.len(),
        k.config_same.len()
    );
    for kd in &r.kernel_diffs {
        let _ = writeln!(out, "\n  {}", kd.kernel);
        for fd in &kd.fields {
            let _ = writeln!(
                out,
                "    {:<10} {} -> {}",
                fd.field,
                value_text(&fd.a),
                value_text(&fd.b)
            );
        }
        for l in &kd.wrapper_lines {
            let role = serde_json::to_value(l.role)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            let at = format!(
                "{}:{}",
                l.line_a.map_or_else(|| "-".to_owned(), |n| n.to_string()),
                l.line_b.map_or_else(|| "-".to_owned(), |n| n.to_string())
            );
            let _ = writeln!(out, "    {role} (line {at})");
            let _ = writeln!(
                out,
                "      A: {}",
                l.text_a.as_deref().unwrap_or("(no line)")
            );
            let _ = writeln!(
                out,
                "      B: {}",
                l.text_b.as_deref().unwrap_or("(no line)")
            );
        }
        if let Some((a, b)) = &kd.cubin {
            let _ = writeln!(out, "    cubin differs with the config: {a} | {b}");
        }
    }
    if !k.config_same.is_empty() {
        let _ = writeln!(out, "\n  same config: {}", k.config_same.join(", "));
    }
    let renamed = r
        .file_diffs
        .iter()
        .filter(|d| d.class == DiffClass::Noise)
        .count();
    let _ = writeln!(out, "\nfiles differing only by noise: {renamed}");
    if r.unexplained.is_empty() {
        let _ = writeln!(out, "unexplained: none");
    } else {
        let _ = writeln!(out, "unexplained ({}):", r.unexplained.len());
        for u in &r.unexplained {
            let _ = writeln!(
                out,
                "  {} | {}: {}",
                u.a.as_deref().unwrap_or("(none)"),
                u.b.as_deref().unwrap_or("(none)"),
                u.reason
            );
            for l in u.lines.iter().take(20) {
                let _ = writeln!(
                    out,
                    "    line {}:{}",
                    l.line_a.map_or_else(|| "-".to_owned(), |n| n.to_string()),
                    l.line_b.map_or_else(|| "-".to_owned(), |n| n.to_string())
                );
                let _ = writeln!(
                    out,
                    "      A: {}",
                    l.text_a.as_deref().unwrap_or("(no line)")
                );
                let _ = writeln!(
                    out,
                    "      B: {}",
                    l.text_b.as_deref().unwrap_or("(no line)")
                );
            }
            if u.lines.len() > 20 {
                let _ = writeln!(out, "    ... {} more line(s)", u.lines.len() - 20);
            }
        }
    }
    out
}
