//! Laying out the view's blocks and tables as markdown: a line is a
//! paragraph, a table a GitHub table (a residual's name in italics, a
//! failed row's status in bold), a phases table also a mermaid pie.

use std::fmt::Write;

use crate::escape::{label, text, text_max};
use crate::view::{Blocks, Body, Cell, Depth, RowRole, Table, Tone};

/// The most characters kept of one line or title (lane's sentences quote
/// bounded report text, so this only stops a runaway).
const LINE_MAX: usize = 2_000;

/// The blocks `depth` shows, in order.
pub(super) fn blocks(out: &mut String, b: &Blocks, depth: Depth) {
    for block in b.0.iter().filter(|b| b.depth <= depth) {
        match &block.body {
            Body::Line(l) => {
                let t = text_max(&l.text, LINE_MAX);
                let _ = match l.tone {
                    Tone::Bad => writeln!(out, "\n**{t}**"),
                    _ => writeln!(out, "\n{t}"),
                };
            }
            Body::Table(t) => {
                if let Some(title) = &t.title {
                    let _ = writeln!(out, "\n{}:", text_max(title, LINE_MAX));
                }
                out.push('\n');
                out.push_str(&table(t));
            }
        }
    }
}

fn cell(c: &Cell, role: RowRole, first: bool) -> String {
    let t = text(&c.plain());
    if t.is_empty() {
        return t;
    }
    match (c.tone, role, first) {
        (Tone::Bad | Tone::Warn, _, _) => format!("**{t}**"),
        (_, RowRole::Residual | RowRole::More, true) => format!("*{t}*"),
        _ => t,
    }
}

/// A table, every row whole.
pub(super) fn table(t: &Table) -> String {
    table_capped(t, usize::MAX)
}

/// A table with at most `cap` rows, then a line counting the rest.
pub(super) fn table_capped(t: &Table, cap: usize) -> String {
    let mut out = String::new();
    out.push('|');
    for c in &t.columns {
        match c.name {
            "" => out.push_str(" |"),
            name => {
                let _ = write!(out, " {} |", text(name));
            }
        }
    }
    let _ = writeln!(out, "\n|{}", "---|".repeat(t.columns.len()));
    for r in t.rows.iter().take(cap) {
        let cells: Vec<String> = r
            .cells
            .iter()
            .enumerate()
            .map(|(i, c)| cell(c, r.role, i == 0))
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    if t.rows.len() > cap {
        let _ = writeln!(
            out,
            "\nand {} more (see the full report)",
            t.rows.len() - cap
        );
    }
    out
}

/// A mermaid pie of a phases table's member and residual rows; rows that
/// cannot be drawn (zero or negative) are named below it.
pub(super) fn chart(out: &mut String, title: &str, t: &Table) {
    let mut drawn = Vec::new();
    let mut dropped = Vec::new();
    for r in &t.rows {
        if !matches!(r.role, RowRole::Member | RowRole::Residual) {
            continue;
        }
        let Some(secs) = r.cells.get(1) else {
            continue;
        };
        let name = match r.role {
            RowRole::Residual => format!("{} (residual)", label(&r.cells[0].plain())),
            _ => label(&r.cells[0].plain()),
        };
        match secs.seconds_value() {
            Some(s) if s > 0.0 => drawn.push((name, s)),
            _ => dropped.push(format!("{name} {}", secs.plain())),
        }
    }
    if drawn.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n```mermaid\npie showData\n    title {} (seconds)",
        label(title)
    );
    for (name, s) in drawn {
        let _ = writeln!(out, "    \"{name}\" : {s:.3}");
    }
    out.push_str("```\n");
    if !dropped.is_empty() {
        let _ = writeln!(
            out,
            "\nNot drawn (zero or negative, see the table): {}",
            text(&dropped.join(", "))
        );
    }
}
