//! The view model as one self-contained static HTML page: no JavaScript,
//! no external CSS, fonts or images; an inline `<style>` and inline
//! `<svg>` charts only, so it works offline and as a CI artifact.
//!
//! The page shows the same header, tables and blocks as the comment and
//! the text, every table whole (the warm jobs included); a table with a
//! chart also gets the chart (`chart.rs`): a stacked bar of a partition's
//! members and its hatched, named residual, overlays as separate bars
//! ("overlay, not summed", clipped at the total and labelled when they
//! exceed it), and a comparison's baseline and candidate side by side.
//!
//! It is built with `maud`: every interpolated value is escaped by
//! construction, and a foreign string also goes through [`Esc`], which
//! removes what HTML has no escape for. `PreEscaped` holds only lane's own
//! constant CSS. Pure and deterministic: same input, same bytes.

use std::cell::Cell as Counter;

use maud::{html, Markup, PreEscaped, Render, DOCTYPE};

use crate::escape::html_clean;
use crate::view::{
    self, Block, Blocks, Body, Cell, CellSection, Chart, LaneView, RowRole, Table, TableKind, Tone,
};
use crate::LaneResults;

mod chart;
mod trend;

pub use chart::CHART_WIDTH;

/// The longest string, in characters, kept from one value on the page.
const MAX_CHARS: usize = 2_000;

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em;color:#222;max-width:80em}\
.wide{overflow-x:auto;max-width:100%}td{overflow-wrap:break-word}td.num{white-space:nowrap}\
.answers{border:1px solid #ccc;border-radius:6px;padding:.2em 1em;margin:1em 0;background:#fafafa}\
.answers h2{font-size:1.05em;border:none;margin:.9em 0 .1em}.answers p.answer{font-size:1.15em;margin:.1em 0 .3em}\
.answers ul{margin:.2em 0 .4em}.trends{display:flex;flex-wrap:wrap;gap:.5em}code{background:#f3f3f3;padding:0 .2em}\
h1{font-size:1.5em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}h3{font-size:1.05em}h4{font-size:.95em;margin-bottom:.2em}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}\
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}\
tr.residual td:first-child{font-style:italic}tr.overlay td:first-child{color:#6a3d9a}tr.failed td{background:#fff3f3}\
.absent{color:#888;font-style:italic}.sev-error{color:#b00020;font-weight:bold}.sev-warning{color:#b36b00;font-weight:bold}.good{color:#2e7d32}\
.swatch{display:inline-block;width:.9em;height:.9em;vertical-align:middle;margin-right:.3em}\
.nest-1{margin-left:1.5em}.nest-2{margin-left:3em}.nest-3{margin-left:4.5em}\
svg{display:block;margin:.3em 0}svg text{font-size:11px;font-family:system-ui,sans-serif}\
.note{color:#555;font-size:.9em}";

/// A string on the page: cleaned of control and formatting characters,
/// bounded, then escaped by maud.
pub struct Esc<'a>(pub &'a str);

impl Render for Esc<'_> {
    fn render_to(&self, buffer: &mut String) {
        html_clean(self.0, MAX_CHARS).as_str().render_to(buffer);
    }
}

/// Ids for SVG patterns, unique within a page.
pub(crate) struct Ids(Counter<usize>);

impl Ids {
    fn next(&self) -> usize {
        self.0.set(self.0.get() + 1);
        self.0.get()
    }
}

/// Renders the whole page.
pub fn render_html(r: &LaneResults) -> String {
    page(&view::lane(r))
}

/// The page of a built view.
pub fn page(v: &LaneView) -> String {
    let ids = Ids(Counter::new(0));
    let markup = html! {
        (DOCTYPE) "\n"
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (Esc(&v.title)) }
                style { (PreEscaped(STYLE)) }
            } "\n"
            body {
                h1 { (Esc(&v.title)) } "\n"
                (answers(&v.answers))
                @if let Some(h) = &v.history {
                    h2 { "Against history" } "\n"
                    @if let Some(u) = &h.unjudged { p.note { "Not judged: " (Esc(u)) } "\n" }
                    @for s in [&h.changes, &h.shift].into_iter().flatten() {
                        p.note { (Esc(s)) } "\n"
                    }
                    (table(&h.table, &ids))
                    p.note { (Esc(&h.counts)) "." } "\n"
                    @if !h.moved.is_empty() {
                        div.trends { @for c in &h.moved { (trend::trend(c)) } } "\n"
                    }
                    ul { @for c in &h.repro { li { code { (Esc(c)) } } } } "\n"
                }
                h2 { "Lane" } "\n"
                (table(&v.header, &ids))
                h2 { "Summary" } "\n"
                @if v.cells.rows.is_empty() {
                    p.absent { "No cells in the results." } "\n"
                } @else {
                    (untitled(&v.cells, &ids))
                }
                h2 { "Findings" } "\n"
                @if v.findings.rows.is_empty() {
                    p.absent { "None." } "\n"
                } @else {
                    (untitled(&v.findings, &ids))
                }
                @for s in &v.sections { (section(s, &ids)) }
                p.note { "Rendered by lane. Residuals are named rows and hatched in the bars; overlays are rows of their own, drawn apart and never summed; what was not measured reads \"no report\", \"not measured\" or \"absent\" and draws no bar; negative values are listed, not drawn." } "\n"
            }
        } "\n"
    };
    markup.into_string()
}

fn section(s: &CellSection, ids: &Ids) -> Markup {
    html! {
        section id=(s.anchor) {
            "\n" h2 { (Esc(&s.title)) } "\n"
            @for r in &s.repeats {
                h3 { (Esc(&r.title)) } "\n"
                @if let Some(job) = &r.job { p.note { (Esc(job)) } "\n" }
                (blocks(&r.breakdown.blocks, ids))
            }
            @if let Some(d) = &s.determinism {
                h3 { "Determinism (r1 against r2): " span class=(tone_class(d.tone)) { (Esc(&d.verdict)) } } "\n"
                (blocks(&d.blocks, ids))
            } @else if let Some(n) = &s.determinism_note {
                p.sev-error { "Not diffed: " (Esc(n)) } "\n"
            }
            @if let Some(h) = &s.history {
                h3 { "Against history" } "\n"
                (table(&h.table, ids))
                div.trends { @for c in &h.charts { (trend::trend(c)) } } "\n"
                p.note { "Medians joined by a line, each cold repeat a tick, this lane's run the large dot; the shaded band is the one-sided 95 % prediction of this lane's value, the dashed line what the history predicts; an orange dashed line marks where a step begins, a purple dotted line an environment change (hover for what)." } "\n"
                ul { @for c in &h.commands { li { code { (Esc(c)) } } } } "\n"
            }
            @if let Some(c) = &s.comparison {
                h3 { "Against the baseline lane" } "\n"
                (blocks(&c.blocks, ids))
            } @else if let Some(n) = &s.comparison_note {
                p.note { "Not compared with the baseline: " (Esc(n)) } "\n"
            }
        } "\n"
    }
}

/// Every block of a section, in order.
pub(crate) fn blocks(b: &Blocks, ids: &Ids) -> Markup {
    html! { @for b in &b.0 { (block(b, ids)) } }
}

fn block(block: &Block, ids: &Ids) -> Markup {
    let nest = match block.nest {
        0 => "",
        1 => "nest-1",
        2 => "nest-2",
        _ => "nest-3",
    };
    html! {
        @match &block.body {
            Body::Line(l) => {
                p class=[classes(&[nest, tone_class(l.tone)])] { (Esc(&l.text)) } "\n"
            }
            Body::Table(t) => {
                @if nest.is_empty() { (table(t, ids)) } @else { div class=(nest) { (table(t, ids)) } "\n" }
            }
        }
    }
}

/// The non-empty classes joined, or no `class` attribute at all.
fn classes(names: &[&str]) -> Option<String> {
    let joined = names
        .iter()
        .filter(|n| !n.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    (!joined.is_empty()).then_some(joined)
}

fn tone_class(t: Tone) -> &'static str {
    match t {
        Tone::Plain => "",
        Tone::Good => "good",
        Tone::Quiet => "absent",
        Tone::Warn => "sev-warning",
        Tone::Bad => "sev-error",
    }
}

fn role_class(r: RowRole) -> &'static str {
    match r {
        RowRole::Plain | RowRole::Member => "",
        RowRole::Residual => "residual",
        RowRole::Unobserved => "unobserved",
        RowRole::Overlay => "overlay",
        RowRole::Failed => "failed",
        RowRole::More => "more",
    }
}

fn cell_class(c: &Cell) -> Option<String> {
    classes(&[if c.is_number() { "num" } else { "" }, tone_class(c.tone)])
}

fn kind_class(k: TableKind) -> String {
    serde_json::to_value(k)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// A table under its own heading: its chart, then every row.
fn untitled(t: &Table, ids: &Ids) -> Markup {
    rows(t, ids)
}

/// A table: its title, its chart, then every row.
pub(crate) fn table(t: &Table, ids: &Ids) -> Markup {
    html! {
        @if let Some(title) = &t.title { h4 { (Esc(title)) } "\n" }
        (rows(t, ids))
    }
}

/// A table's chart and rows (a charted table's first column carries the
/// chart's swatches, so the table is the legend).
fn rows(t: &Table, ids: &Ids) -> Markup {
    let named = t.columns.iter().any(|c| !c.name.is_empty());
    let swatches = matches!(t.chart, Chart::Stacked { .. });
    html! {
        (chart::chart(t, ids))
        div.wide { table class=(kind_class(t.kind)) {
            @if named {
                tr { @for c in &t.columns { th { (Esc(c.name)) } } } "\n"
            }
            @for (i, r) in t.rows.iter().enumerate() {
                tr class=[classes(&[role_class(r.role)])] {
                    @if r.role == RowRole::More {
                        td.absent colspan=(t.columns.len()) { (Esc(&r.cells[0].plain())) }
                    } @else {
                        @for (j, c) in r.cells.iter().enumerate() {
                            @if j == 0 && t.kind == TableKind::Header {
                                th { (Esc(&c.plain())) }
                            } @else {
                                td class=[cell_class(c)] {
                                    @if j == 0 && swatches { (chart::swatch(i, r.role)) }
                                    (Esc(&c.plain()))
                                }
                            }
                        }
                    }
                }
                "\n"
            }
        } } "\n"
    }
}

/// The first screen: each question, its answer, and what backs it (a
/// detail about a cell links to its section).
fn answers(a: &view::Answers) -> Markup {
    html! {
        section.answers {
            @for x in a.all() {
                h2 { (x.question) } "\n"
                p class=(format!("answer {}", tone_class(x.tone))) { (Esc(&x.answer)) } "\n"
                @if !x.details.is_empty() {
                    ul { @for (d, anchor) in &x.details {
                        li { @if anchor.is_empty() { (Esc(d)) } @else { a href=(format!("#{anchor}")) { (Esc(d)) } } }
                    } } "\n"
                }
            }
        } "\n"
    }
}
