//! Inline SVG charts drawn from a table's rows (never from anything else):
//! a stacked bar of members and the hatched residual, overlays as separate
//! bars, and a comparison's pairs. A value that cannot be drawn (absent,
//! zero or negative) is listed, never clamped into a bar.

use maud::{html, Markup};

use super::{Esc, Ids};
use crate::view::{Cell, Percent, RowRole, Seconds, Table};

/// Width, in SVG user units, of the bar area of every chart.
pub const CHART_WIDTH: f64 = 600.0;

const PALETTE: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f",
];
const RESIDUAL_COLOR: &str = "#8c8c8c";
const OVERLAY_COLOR: &str = "#6a3d9a";
const BASELINE_COLOR: &str = "#a0a0a0";
const CANDIDATE_COLOR: &str = "#4e79a7";

/// A coordinate or length for SVG: one decimal, never negative or NaN.
pub(super) fn n(v: f64) -> String {
    if v.is_finite() && v > 0.0 {
        format!("{v:.1}")
    } else {
        "0.0".to_owned()
    }
}

fn seconds(c: Option<&Cell>) -> Option<f64> {
    c.and_then(Cell::seconds_value)
}

fn name(c: &[Cell]) -> String {
    c.first().map(Cell::plain).unwrap_or_default()
}

/// The chart a table asks for.
pub(super) fn chart(t: &Table, ids: &Ids) -> Markup {
    match t.chart {
        crate::view::Chart::None => html! {},
        crate::view::Chart::Stacked { total } => stacked(t, total, ids),
        crate::view::Chart::Overlays { against } => overlays(t, against),
        crate::view::Chart::Pairs => pairs(t),
    }
}

/// The legend swatch of row `i` of a stacked table.
pub(super) fn swatch(i: usize, role: RowRole) -> Markup {
    match role {
        RowRole::Member => {
            html! { span.swatch style=(format!("background:{}", PALETTE[i % PALETTE.len()])) {} }
        }
        RowRole::Residual => html! {
            span.swatch style=(format!("background:repeating-linear-gradient(45deg,{RESIDUAL_COLOR} 0 2px,#e6e6e6 2px 4px)")) {}
        },
        _ => html! {},
    }
}

fn stacked(t: &Table, total: Seconds, ids: &Ids) -> Markup {
    let mut drawn = Vec::new();
    let mut not_drawn = Vec::new();
    for (i, r) in t.rows.iter().enumerate() {
        if !matches!(r.role, RowRole::Member | RowRole::Residual) {
            continue;
        }
        match seconds(r.cells.get(1)) {
            Some(s) if s > 0.0 => drawn.push((i, r, s)),
            _ => not_drawn.push(format!(
                "{} {}",
                name(&r.cells),
                r.cells.get(1).map(Cell::plain).unwrap_or_default()
            )),
        }
    }
    let sum: f64 = drawn.iter().map(|(_, _, s)| s).sum();
    let scale = total.value().map_or(sum, |t| t.max(sum));
    if scale <= 0.0 || drawn.is_empty() {
        return html! { p.absent { "Nothing to draw." } "\n" };
    }
    let hatch = format!("hatch-{}", ids.next());
    let title = t.title.clone().unwrap_or_else(|| "shares".to_owned());
    let h = 24.0;
    let mut x = 0.0;
    let segs: Vec<(f64, f64, String, String, String, bool)> = drawn
        .iter()
        .map(|(i, r, s)| {
            let width = s / scale * CHART_WIDTH;
            let residual = r.role == RowRole::Residual;
            let fill = if residual {
                format!("url(#{hatch})")
            } else {
                PALETTE[i % PALETTE.len()].to_owned()
            };
            let label = format!(
                "{}{}: {} ({})",
                name(&r.cells),
                if residual { " (residual)" } else { "" },
                Seconds::measured(*s),
                Percent::share(Seconds::measured(*s), total)
            );
            let seg = (x, width, fill, label, name(&r.cells), residual);
            x += width;
            seg
        })
        .collect();
    html! {
        svg.stack xmlns="http://www.w3.org/2000/svg" width=(n(CHART_WIDTH)) height=(n(h))
            viewBox=(format!("0 0 {} {}", n(CHART_WIDTH), n(h))) role="img" aria-label=(Esc(&title)) {
            title { (Esc(&title)) }
            defs {
                pattern id=(hatch) width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)" {
                    rect x="0" y="0" width="6" height="6" fill="#e6e6e6" {}
                    rect x="0" y="0" width="3" height="6" fill=(RESIDUAL_COLOR) {}
                }
            }
            @for (x, width, fill, label, seg_name, residual) in &segs {
                rect.seg x=(n(*x)) y="0.0" width=(n(*width)) height=(n(h)) fill=(fill) stroke="#fff" stroke-width="0.5" {
                    title { (Esc(label)) }
                }
                @let fits = (width / 6.5).floor() as usize;
                @if fits >= 4 {
                    text x=(n(x + 3.0)) y="16.0" fill=(if *residual { "#000" } else { "#fff" }) {
                        (Esc(&crate::view::bound(seg_name, fits.saturating_sub(1))))
                    }
                }
            }
        } "\n"
        @if !not_drawn.is_empty() {
            p.absent { "Not drawn (zero, negative or absent; see the table): " (Esc(&not_drawn.join(", "))) } "\n"
        }
    }
}

fn overlays(t: &Table, against: Seconds) -> Markup {
    let rows: Vec<(String, Option<f64>)> = t
        .rows
        .iter()
        .filter(|r| r.role == RowRole::Overlay)
        .map(|r| (name(&r.cells), seconds(r.cells.get(1))))
        .collect();
    let Some(total) = against.value().filter(|t| *t > 0.0) else {
        return html! { p.note { "Overlays (overlay, not summed; no positive total to draw against)." } "\n" };
    };
    if rows.is_empty() {
        return html! {};
    }
    let row_h = 24.0;
    let h = row_h * rows.len() as f64;
    let w = CHART_WIDTH + 220.0;
    html! {
        p.note { "Overlays: spans nested inside the members (overlay, not summed)." } "\n"
        svg.overlays xmlns="http://www.w3.org/2000/svg" width=(n(w)) height=(n(h))
            viewBox=(format!("0 0 {} {}", n(w), n(h))) role="img" aria-label="overlays, not summed" {
            title { "overlays, not summed" }
            @for (i, (o_name, secs)) in rows.iter().enumerate() {
                @let y = row_h * i as f64;
                @let ratio = secs.filter(|s| *s > 0.0).map_or(0.0, |s| s / total);
                @let clipped = ratio > 1.0;
                @let label = match secs {
                    Some(s) if *s > 0.0 && clipped => format!(
                        "{} ({}) exceeds the total, clipped; overlay, not summed",
                        Seconds::measured(*s), Percent::of(Some(ratio))),
                    Some(s) if *s > 0.0 => format!(
                        "{} ({}) overlay, not summed",
                        Seconds::measured(*s), Percent::of(Some(ratio))),
                    other => format!("{}, not drawn", Seconds::of(*other)),
                };
                rect.overlay x="0.0" y=(n(y + 2.0)) width=(n(ratio.min(1.0) * CHART_WIDTH)) height="6.0" fill=(OVERLAY_COLOR) {
                    title { (Esc(o_name)) ": " (Esc(&label)) }
                }
                @if clipped {
                    text x=(n(CHART_WIDTH - 8.0)) y=(n(y + 16.0)) fill=(OVERLAY_COLOR) { "»" }
                }
                text x=(n(CHART_WIDTH + 6.0)) y=(n(y + 9.0)) { (Esc(&crate::view::bound(o_name, 30))) }
                text x="0.0" y=(n(y + 17.0)) fill="#555" { (Esc(&label)) }
            }
        } "\n"
    }
}

fn pairs(t: &Table) -> Markup {
    let rows: Vec<(String, Option<f64>, Option<f64>)> = t
        .rows
        .iter()
        .filter(|r| r.role != RowRole::More)
        .map(|r| {
            let label = format!(
                "{}{}",
                crate::view::bound(&r.cells.get(1).map(Cell::plain).unwrap_or_default(), 28),
                match r.role {
                    RowRole::Overlay => " (overlay)",
                    RowRole::Residual => " (residual)",
                    _ => "",
                }
            );
            (label, seconds(r.cells.get(2)), seconds(r.cells.get(3)))
        })
        .collect();
    if rows.is_empty() {
        return html! {};
    }
    let max = rows
        .iter()
        .flat_map(|(_, a, b)| [*a, *b])
        .flatten()
        .fold(0.0_f64, f64::max);
    let label_w = 230.0;
    let row_h = 26.0;
    let w = label_w + CHART_WIDTH;
    let h = row_h * rows.len() as f64 + 16.0;
    html! {
        svg.compare xmlns="http://www.w3.org/2000/svg" width=(n(w)) height=(n(h))
            viewBox=(format!("0 0 {} {}", n(w), n(h))) role="img" aria-label="baseline vs candidate" {
            title { "baseline vs candidate" }
            rect x=(n(label_w)) y="2.0" width="10.0" height="8.0" fill=(BASELINE_COLOR) {}
            text x=(n(label_w + 14.0)) y="10.0" { "baseline" }
            rect x=(n(label_w + 80.0)) y="2.0" width="10.0" height="8.0" fill=(CANDIDATE_COLOR) {}
            text x=(n(label_w + 94.0)) y="10.0" { "candidate" }
            @for (i, (label, base, cand)) in rows.iter().enumerate() {
                @let y = 16.0 + row_h * i as f64;
                text x="0.0" y=(n(y + 12.0)) { (Esc(label)) }
                @for (j, (v, color)) in [(*base, BASELINE_COLOR), (*cand, CANDIDATE_COLOR)].into_iter().enumerate() {
                    @let by = y + 2.0 + 10.0 * j as f64;
                    @match v {
                        Some(v) if v > 0.0 && max > 0.0 => {
                            @let width = v / max * (CHART_WIDTH - 160.0);
                            rect.pair x=(n(label_w)) y=(n(by)) width=(n(width)) height="9.0" fill=(color) {
                                title { (Seconds::measured(v).to_string()) }
                            }
                            text x=(n(label_w + width + 4.0)) y=(n(by + 8.0)) fill="#555" { (Seconds::measured(v).to_string()) }
                        }
                        Some(v) => {
                            text x=(n(label_w)) y=(n(by + 8.0)) fill="#555" { (Seconds::measured(v).to_string()) " (not drawn)" }
                        }
                        None => {
                            text x=(n(label_w)) y=(n(by + 8.0)) fill="#888" { "absent" }
                        }
                    }
                }
            }
        } "\n"
    }
}
