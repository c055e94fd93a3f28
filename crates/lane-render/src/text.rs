//! The view model as terminal text: what `lane ledger` and `lane diff`
//! print, and a lane's report as text. Tables are aligned columns (numbers
//! to the right), blocks indent by their nesting, and every string goes
//! through [`escape::terminal`]: no foreign control byte reaches a
//! terminal. Returns `String`s; the caller prints.

use std::fmt::Write;

use lane_diff::{DeterminismReport, MintDiffReport};
use lane_ledger::{Comparison, MintBreakdown};

use crate::escape;
use crate::view::{
    self, Answers, Blocks, Body, BreakdownView, ComparisonView, DeterminismView, LaneView,
    MintDiffView, RowRole, Table,
};
use crate::LaneResults;

/// One mint: `lane ledger`'s text.
pub fn render_breakdown(b: &MintBreakdown) -> String {
    let mut out = String::new();
    breakdown(&mut out, &view::breakdown(b), 0);
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
    comparison(&mut out, &view::comparison(c), 0);
    out
}

/// A determinism diff: `lane diff`'s text.
pub fn render_determinism(r: &DeterminismReport) -> String {
    let mut out = String::new();
    determinism(&mut out, &view::determinism(r), 0);
    out
}

/// Two mints' diff, graph class by graph class: `lane diff`'s text for
/// mints whose reports name their classes.
pub fn render_mint_diff(r: &MintDiffReport) -> String {
    let mut out = String::new();
    mint_diff(&mut out, &view::mint_diff(r));
    out
}

/// A lane's whole report.
pub fn render_lane(r: &LaneResults) -> String {
    lane(&view::lane(r))
}

/// The first screen of a lane's report: can it ship, what regressed
/// against history, why the bytes differ, what to run next (what `lane
/// report` prints).
pub fn render_answers(v: &LaneView) -> String {
    let mut out = String::new();
    line(&mut out, 0, &v.title);
    answers(&mut out, &v.answers);
    out
}

fn answers(out: &mut String, a: &Answers) {
    for x in a.all() {
        line(out, 0, &format!("{} {}", x.question, x.answer));
        for (d, _) in &x.details {
            line(out, 2, &format!("- {d}"));
        }
    }
}

/// The lane view as text.
pub fn lane(v: &LaneView) -> String {
    let mut out = String::new();
    line(&mut out, 0, &v.title);
    answers(&mut out, &v.answers);
    gap(&mut out);
    table(&mut out, &v.header, 2);
    if let Some(h) = &v.history {
        gap(&mut out);
        titled_table(&mut out, &h.table, 0);
    }
    for t in [&v.cells, &v.findings] {
        gap(&mut out);
        if t.rows.is_empty() {
            line(
                &mut out,
                0,
                &format!("{}: none", t.title.as_deref().unwrap_or("")),
            );
        } else {
            titled_table(&mut out, t, 0);
        }
    }
    for s in &v.sections {
        gap(&mut out);
        line(&mut out, 0, &s.title);
        for r in &s.repeats {
            gap(&mut out);
            line(&mut out, 2, &r.title);
            if let Some(job) = &r.job {
                line(&mut out, 4, job);
            }
            blocks(&mut out, &r.breakdown.blocks, 4);
        }
        let det = s
            .determinism
            .as_ref()
            .map(|d| move |out: &mut String| determinism(out, d, 4));
        subsection(
            &mut out,
            "determinism (r1 against r2)",
            det,
            s.determinism_note.as_deref(),
        );
        if let Some(h) = &s.history {
            gap(&mut out);
            line(&mut out, 2, "history");
            titled_table(&mut out, &h.table, 4);
            for c in &h.commands {
                line(&mut out, 4, c);
            }
        }
        let cmp = s
            .comparison
            .as_ref()
            .map(|c| move |out: &mut String| comparison(out, c, 4));
        subsection(
            &mut out,
            "against the baseline lane",
            cmp,
            s.comparison_note.as_deref(),
        );
    }
    out
}

/// A cell's determinism or comparison: titled and laid out, or the note
/// saying why there is none.
fn subsection(
    out: &mut String,
    title: &str,
    body: Option<impl FnOnce(&mut String)>,
    note: Option<&str>,
) {
    match (body, note) {
        (Some(body), _) => {
            gap(out);
            line(out, 2, title);
            body(out);
        }
        (None, Some(n)) => line(out, 2, &format!("{title}: none: {n}")),
        (None, None) => {}
    }
}

fn breakdown(out: &mut String, v: &BreakdownView, indent: usize) {
    line(out, indent, &format!("mint {}", v.source));
    blocks(out, &v.blocks, indent + 2);
    if v.findings.rows.is_empty() {
        gap(out);
        line(out, indent + 2, "findings: none");
    } else {
        titled_table(out, &v.findings, indent + 2);
    }
}

fn comparison(out: &mut String, v: &ComparisonView, indent: usize) {
    blocks(out, &v.blocks, indent);
}

fn determinism(out: &mut String, v: &DeterminismView, indent: usize) {
    line(out, indent, &format!("verdict: {}", v.verdict));
    blocks(out, &v.blocks, indent + 2);
}

fn mint_diff(out: &mut String, v: &MintDiffView) {
    line(out, 0, &format!("verdict: {}", v.verdict));
    blocks(out, &v.blocks, 2);
    for (label, d) in &v.classes {
        gap(out);
        line(out, 2, label);
        determinism(out, d, 4);
    }
}

/// A blank line, unless the text already ends with one (or is empty).
fn gap(out: &mut String) {
    if !out.is_empty() && !out.ends_with("\n\n") {
        out.push('\n');
    }
}

/// One line at `indent`, escaped.
fn line(out: &mut String, indent: usize, text: &str) {
    let _ = writeln!(out, "{:indent$}{}", "", escape::terminal(text));
}

fn blocks(out: &mut String, b: &Blocks, indent: usize) {
    for block in &b.0 {
        let at = indent + 2 * usize::from(block.nest);
        match &block.body {
            Body::Line(l) => {
                if l.gap {
                    gap(out);
                }
                line(out, at, &l.text);
            }
            Body::Table(t) => titled_table(out, t, at),
        }
    }
}

fn titled_table(out: &mut String, t: &Table, indent: usize) {
    gap(out);
    match &t.title {
        Some(title) => {
            line(out, indent, title);
            table(out, t, indent + 2);
        }
        None => table(out, t, indent),
    }
}

/// A table as aligned columns: the header (unless every column is
/// unnamed), then one line per row; a "... and N more" row is one line.
fn table(out: &mut String, t: &Table, indent: usize) {
    let header: Vec<String> = t.columns.iter().map(|c| c.name.to_owned()).collect();
    let show_header = header.iter().any(|h| !h.is_empty());
    let cells: Vec<Vec<(String, bool)>> = t
        .rows
        .iter()
        .map(|r| {
            r.cells
                .iter()
                .map(|c| (escape::terminal(&c.plain()), c.is_number()))
                .collect()
        })
        .collect();
    let mut widths: Vec<usize> = if show_header {
        header.iter().map(|h| h.chars().count()).collect()
    } else {
        vec![0; header.len()]
    };
    // Numbers align right among themselves, at the column's left edge
    // when the column also holds text.
    let mut numbers = vec![0; header.len()];
    for (row, r) in cells.iter().zip(&t.rows) {
        if r.role == RowRole::More {
            continue;
        }
        for (i, (c, number)) in row.iter().enumerate() {
            let n = c.chars().count();
            widths[i] = widths[i].max(n);
            if *number {
                numbers[i] = numbers[i].max(n);
            }
        }
    }
    let emit = |out: &mut String, row: Vec<(String, bool)>| {
        let mut s = format!("{:indent$}", "");
        for (i, (c, number)) in row.iter().enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            let n = c.chars().count();
            let lead = if *number {
                numbers[i].saturating_sub(n)
            } else {
                0
            };
            s.push_str(&" ".repeat(lead));
            s.push_str(c);
            s.push_str(&" ".repeat(widths[i].saturating_sub(n + lead)));
        }
        let _ = writeln!(out, "{}", s.trim_end());
    };
    if show_header {
        emit(out, header.into_iter().map(|h| (h, false)).collect());
    }
    for (row, r) in cells.into_iter().zip(&t.rows) {
        if r.role == RowRole::More {
            let _ = writeln!(out, "{:indent$}{}", "", row[0].0);
        } else {
            emit(out, row);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::{Cell, Seconds, TableKind};

    #[test]
    fn numbers_align_right_and_names_left() {
        let mut t = Table::new(TableKind::Phases, &["Phase", "Seconds"]);
        t.push(
            RowRole::Member,
            vec![
                Cell::text("load"),
                Cell::seconds(Seconds::measured(34.2444)),
            ],
        );
        t.push(
            RowRole::Member,
            vec![Cell::text("x"), Cell::seconds(Seconds::measured(1.0))],
        );
        let mut out = String::new();
        table(&mut out, &t, 2);
        assert_eq!(
            out,
            "  Phase  Seconds\n  load   34.244 s\n  x       1.000 s\n"
        );
    }

    #[test]
    fn a_name_with_control_bytes_stays_on_its_line() {
        let mut t = Table::new(TableKind::Jobs, &["Job"]);
        t.push(RowRole::Plain, vec![Cell::text("a\r\n\u{1b}]0;x\u{7}b")]);
        let mut out = String::new();
        table(&mut out, &t, 0);
        assert_eq!(out, "Job\na\\r\\n\\u{1b}]0;x\\u{7}b\n");
    }
}
