//! The view model as the sticky PR comment (GitHub-flavoured markdown):
//! header, the cells table, findings, mermaid charts of phase shares, and
//! per cell the same blocks the HTML and text show; rendered whole at one
//! [`Level`] and degraded a level at a time until it fits the budget, so a
//! table is never cut. Every string goes through [`crate::escape::text`].

use std::fmt::Write;

use serde::Serialize;

use crate::escape::{text, text_max, url};
use crate::view::{self, Depth, LaneView, Tone};
use crate::LaneResults;

mod layout;

use layout::{blocks, chart, table, table_capped};

/// GitHub's limit on an issue comment's body, in characters.
pub const GITHUB_BODY_LIMIT: usize = 65_536;

/// How much a rendering shows; each level drops more to fit the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Everything: details with per-job rows, entries, kernels, configs.
    Full,
    /// Details collapsed to each cell's partitions, overlays and verdicts.
    Collapsed,
    /// Header, the cells table and findings; no details, no chart.
    Summary,
    /// Header and a link to the full report.
    Link,
}

impl Level {
    /// The deepest block this level shows, when it shows details at all.
    fn depth(self) -> Option<Depth> {
        match self {
            Level::Full => Some(Depth::Full),
            Level::Collapsed => Some(Depth::Collapsed),
            Level::Summary | Level::Link => None,
        }
    }
}

/// How to render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderOptions {
    /// The most characters the body may have.
    pub limit: usize,
    /// Start the body with the hidden sticky-comment marker.
    pub marker: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            limit: GITHUB_BODY_LIMIT,
            marker: true,
        }
    }
}

/// A rendered body and the level it took to fit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rendered {
    /// The markdown.
    pub body: String,
    /// The level it was rendered at.
    pub level: Level,
}

/// The hidden marker that finds a lane's comment again: an HTML comment
/// holding the lane version (only `[0-9A-Za-z._+-]` kept).
pub fn marker(lane: &str) -> String {
    let clean: String = lane
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-'))
        .take(64)
        .collect();
    format!("<!-- lane-report lane={clean} -->")
}

/// Renders the comment at the richest level that fits `options.limit`
/// characters. Only a limit too small for even the [`Level::Link`] body
/// (a few hundred characters) returns a body above it.
pub fn render_comment(r: &LaneResults, options: &RenderOptions) -> Rendered {
    render_view(&view::lane(r), options)
}

/// As [`render_comment`], from a built view.
pub fn render_view(v: &LaneView, options: &RenderOptions) -> Rendered {
    let mut last = String::new();
    for level in [Level::Full, Level::Collapsed, Level::Summary, Level::Link] {
        let body = render_at(v, level, options.marker);
        if body.chars().count() <= options.limit {
            return Rendered { body, level };
        }
        last = body;
    }
    let minimal = minimal(v, options.marker);
    if minimal.chars().count() <= last.chars().count() {
        last = minimal;
    }
    Rendered {
        body: last,
        level: Level::Link,
    }
}

/// The most findings listed when details are dropped.
const SUMMARY_FINDINGS: usize = 30;

fn render_at(v: &LaneView, level: Level, with_marker: bool) -> String {
    let mut out = String::new();
    if with_marker {
        out.push_str(&marker(&v.lane));
        out.push('\n');
    }
    header(&mut out, v);
    if let Some(h) = v.history.as_ref().filter(|_| level != Level::Link) {
        history(&mut out, h);
    }
    out.push_str("\n### Lane\n\n");
    out.push_str(&table(&v.header));
    if level == Level::Link {
        let _ = writeln!(
            out,
            "\nThe per-cell breakdown of {} cell(s) is too large for a comment.",
            v.sections.len()
        );
        link(&mut out, v, true);
        footer(&mut out);
        return out;
    }
    out.push_str("\n### Cells\n\n");
    if v.cells.rows.is_empty() {
        out.push_str("No cells in the results.\n");
    } else {
        out.push_str(&table(&v.cells));
    }
    out.push_str("\n### Findings\n\n");
    if v.findings.rows.is_empty() {
        out.push_str("None.\n");
    } else if level >= Level::Summary {
        out.push_str(&table_capped(&v.findings, SUMMARY_FINDINGS));
    } else {
        out.push_str(&table(&v.findings));
    }
    if let Some(depth) = level.depth() {
        charts(&mut out, v);
        for s in &v.sections {
            section(&mut out, s, depth);
        }
    }
    link(&mut out, v, false);
    footer(&mut out);
    out
}

fn minimal(v: &LaneView, with_marker: bool) -> String {
    let mut out = String::new();
    if with_marker {
        out.push_str(&marker(&v.lane));
        out.push('\n');
    }
    let _ = writeln!(out, "## {}", text(&v.title));
    link(&mut out, v, true);
    out
}

/// The title and the first screen's answers, in the order they are asked.
fn header(out: &mut String, v: &LaneView) {
    let _ = writeln!(out, "## {}\n", text(&v.title));
    for a in v.answers.all() {
        let answer = text_max(&a.answer, 1_000);
        let _ = match a.tone {
            Tone::Bad | Tone::Warn => writeln!(out, "**{}** **{answer}**", text(a.question)),
            _ => writeln!(out, "**{}** {answer}", text(a.question)),
        };
        for (d, _) in &a.details {
            let _ = writeln!(out, "- {}", text_max(d, 1_000));
        }
        out.push('\n');
    }
}

/// The verdict per cell and GPU class against history, with the effect,
/// its prediction bounds, a sparkline of the last runs, and the commands
/// that reproduce it.
fn history(out: &mut String, h: &view::HistoryView) {
    out.push_str("### Against history\n\n");
    if let Some(u) = &h.unjudged {
        let _ = writeln!(out, "Not judged: {}\n", text_max(u, 1_000));
    }
    for s in [&h.changes, &h.shift].into_iter().flatten() {
        let _ = writeln!(out, "{}\n", text_max(s, 1_000));
    }
    if let Some(title) = &h.table.title {
        let _ = writeln!(out, "{}:\n", text_max(title, 1_000));
    }
    out.push_str(&table(&h.table));
    let _ = writeln!(out, "\n{}.", text(&h.counts));
    commands(out, &h.repro);
}

fn commands(out: &mut String, list: &[String]) {
    if list.is_empty() {
        return;
    }
    out.push_str("\nRepro and inspect:\n\n");
    for c in list {
        let _ = writeln!(out, "- <code>{}</code>", text_max(c, 1_000));
    }
}

/// A pie of each cell's first measured repeat's phases, from its table.
fn charts(out: &mut String, v: &LaneView) {
    let mut charts = String::new();
    for s in &v.sections {
        let phases = s.repeats.iter().find_map(|r| {
            r.breakdown
                .blocks
                .tables()
                .find(|t| t.kind == view::TableKind::Phases)
                .map(|t| (r, t))
        });
        if let Some((r, t)) = phases {
            chart(&mut charts, &format!("{} r{}", s.title, r.repeat), t);
        }
    }
    if !charts.is_empty() {
        out.push_str("\n### Phase shares\n");
        out.push_str(&charts);
    }
}

fn section(out: &mut String, s: &view::CellSection, depth: Depth) {
    let _ = writeln!(
        out,
        "\n<details><summary>{}: partitions, overlays, jobs, determinism{}</summary>\n",
        text(&s.title),
        if s.history.is_some() { ", history" } else { "" }
    );
    for r in &s.repeats {
        let _ = writeln!(out, "\n#### {}", text(&r.title));
        if let Some(job) = &r.job {
            let _ = writeln!(out, "\n{}", text(job));
        }
        blocks(out, &r.breakdown.blocks, depth);
    }
    match (&s.determinism, s.determinism_note.as_ref()) {
        (Some(d), _) => {
            let _ = writeln!(
                out,
                "\n#### Determinism (r1 against r2): {}",
                text(&d.verdict)
            );
            blocks(out, &d.blocks, depth);
        }
        (None, Some(n)) => {
            let _ = writeln!(out, "\nDeterminism: not diffed: {}", text(n));
        }
        (None, None) => {}
    }
    if let Some(h) = &s.history {
        out.push_str("\n#### Against history\n\n");
        out.push_str(&table(&h.table));
        commands(out, &h.commands);
    }
    match (&s.comparison, &s.comparison_note) {
        (Some(c), _) => {
            out.push_str("\n#### Against the baseline lane\n");
            blocks(out, &c.blocks, depth);
        }
        (None, Some(n)) => {
            let _ = writeln!(out, "\nNot compared with the baseline: {}", text(n));
        }
        (None, None) => {}
    }
    out.push_str("\n</details>\n");
}

fn link(out: &mut String, v: &LaneView, always: bool) {
    match v.report_url.as_deref().and_then(url) {
        Some(u) => {
            let _ = writeln!(out, "\nFull report: [{}]({u})", text(&u));
        }
        None if always => out.push_str("\nThe full report is in the lane's results folder.\n"),
        None => {}
    }
}

fn footer(out: &mut String) {
    out.push_str("\n<sub>Posted by lane; this comment is updated in place on every run.</sub>\n");
}
