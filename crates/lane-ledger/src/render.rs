//! Plain-text rendering: an aligned table per mint with its findings, the
//! comparison table, and the determinism verdict. Returns `String`s; the
//! caller prints. Absent values print as `absent`, never as `0.000`.

use std::fmt::Write;

use crate::compare::Comparison;
use crate::determinism::{DeterminismReport, DiffClass};

mod breakdown;

pub use breakdown::{render_breakdown, render_breakdowns};

fn secs(v: Option<f64>) -> String {
    v.map_or_else(
        || "absent".to_owned(),
        |v| {
            let text = format!("{v:.3}");
            // A sum that lands a hair below zero reads as zero, not "-0.000".
            if text == "-0.000" {
                "0.000".to_owned()
            } else {
                text
            }
        },
    )
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(String::new, |v| format!("{:.1}%", 100.0 * v))
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
