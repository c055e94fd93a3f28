//! One series over the runs as an inline SVG, drawn from the view's
//! [`TrendChart`] (never from anything else): the median of each run's
//! cold repeats joined by a line, each repeat as a tick, the lane's own
//! run marked in its verdict's colour, the one-sided 95 % prediction band
//! and what the history predicts, the runs where a step (change point)
//! begins and the runs whose environment changed. A run with no value
//! draws nothing; nothing absent is drawn as zero.

use maud::{html, Markup};

use super::chart::n;
use super::Esc;
use crate::view::{Seconds, Tone, TrendChart};

/// The chart's size, in SVG user units.
pub const TREND_WIDTH: f64 = 300.0;
const HEIGHT: f64 = 120.0;
const LEFT: f64 = 52.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 10.0;

fn tone_color(t: Tone) -> &'static str {
    match t {
        Tone::Bad => "#b00020",
        Tone::Warn => "#b36b00",
        Tone::Good => "#2e7d32",
        Tone::Plain | Tone::Quiet => "#4e79a7",
    }
}

/// The SVG of one series.
pub(super) fn trend(c: &TrendChart) -> Markup {
    let values: Vec<f64> = c
        .points
        .iter()
        .flat_map(|p| p.repeats.iter().copied().chain(p.median))
        .chain(c.band.into_iter().flat_map(|(a, b)| [a, b]))
        .chain(c.expected)
        .filter(|v| v.is_finite())
        .collect();
    let (lo, hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    if values.is_empty() || c.points.is_empty() {
        return html! {};
    }
    let pad = ((hi - lo) * 0.08).max(hi.abs() * 0.01).max(1e-9);
    let (lo, hi) = (lo - pad, hi + pad);
    let plot_w = TREND_WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let y = |v: f64| TOP + (hi - v) / (hi - lo) * plot_h;
    let count = c.points.len();
    let dx = plot_w / count.max(1) as f64;
    let x = |i: usize| LEFT + dx * (i as f64 + 0.5);
    let line: Vec<String> = c
        .points
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.median.map(|m| format!("{},{}", n(x(i)), n(y(m)))))
        .collect();
    let color = tone_color(c.tone);
    let label = format!("{}: {}", c.title, c.verdict);
    html! {
        svg.trend xmlns="http://www.w3.org/2000/svg" width=(n(TREND_WIDTH)) height=(n(HEIGHT))
            viewBox=(format!("0 0 {} {}", n(TREND_WIDTH), n(HEIGHT))) role="img" aria-label=(Esc(&label)) {
            title { (Esc(&label)) }
            text x="2.0" y="11.0" font-weight="bold" { (Esc(&crate::view::bound(&c.title, 48))) }
            text x="2.0" y="23.0" fill=(color) { (Esc(&crate::view::bound(&c.verdict, 48))) }
            rect x=(n(LEFT)) y=(n(TOP)) width=(n(plot_w)) height=(n(plot_h)) fill="none" stroke="#ddd" {}
            text x="2.0" y=(n(TOP + 8.0)) fill="#555" { (Seconds::measured(hi).to_string()) }
            text x="2.0" y=(n(TOP + plot_h)) fill="#555" { (Seconds::measured(lo).to_string()) }
            @if let Some((a, b)) = c.band {
                rect.band x=(n(LEFT)) y=(n(y(b))) width=(n(plot_w)) height=(n(y(a) - y(b))) fill="#4e79a7" fill-opacity="0.12" {
                    title { "95 % prediction band: " (Seconds::measured(a).to_string()) " – " (Seconds::measured(b).to_string()) }
                }
            }
            @if let Some(e) = c.expected {
                line.expected x1=(n(LEFT)) x2=(n(LEFT + plot_w)) y1=(n(y(e))) y2=(n(y(e))) stroke="#4e79a7" stroke-dasharray="3 3" {
                    title { "expected " (Seconds::measured(e).to_string()) }
                }
            }
            @for i in &c.steps {
                @let sx = x(*i) - dx / 2.0;
                line.step x1=(n(sx)) x2=(n(sx)) y1=(n(TOP)) y2=(n(TOP + plot_h)) stroke="#b36b00" stroke-dasharray="4 2" {
                    title { "a step begins here (change point)" }
                }
            }
            @for (i, what) in &c.env_changes {
                @let ex = x(*i) - dx / 2.0;
                line.env x1=(n(ex)) x2=(n(ex)) y1=(n(TOP)) y2=(n(TOP + plot_h)) stroke="#6a3d9a" stroke-dasharray="1 2" {
                    title { "environment changed: " (Esc(what)) }
                }
            }
            @if line.len() > 1 {
                polyline.medians points=(line.join(" ")) fill="none" stroke="#888" stroke-width="1" {}
            }
            @for (i, p) in c.points.iter().enumerate() {
                @for r in &p.repeats {
                    line.tick x1=(n(x(i) - 3.0)) x2=(n(x(i) + 3.0)) y1=(n(y(*r))) y2=(n(y(*r))) stroke="#999" {}
                }
                @if let Some(m) = p.median {
                    circle.point cx=(n(x(i))) cy=(n(y(m))) r=(if p.current { "4.0" } else { "2.5" })
                        fill=(if p.current { color } else { "#555" }) {
                        title { (Esc(&p.label)) ": " (Seconds::measured(m).to_string()) }
                    }
                }
            }
        } "\n"
    }
}
