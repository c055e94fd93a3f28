//! Plain-text rendering: an aligned table per mint with its findings, the
//! comparison table, and the determinism verdict. Returns `String`s; the
//! caller prints. Absent values print as `absent`, never as `0.000`.

use std::fmt::Write;

use crate::compare::Comparison;
use crate::determinism::DeterminismReport;

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

/// The determinism verdict and per-kernel differences.
pub fn render_determinism(r: &DeterminismReport) -> String {
    // One renderer of the diff: the determinism module's own.
    crate::determinism::render::render(r)
}
