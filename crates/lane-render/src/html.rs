//! The lane's report as one self-contained static HTML page: no JavaScript,
//! no external CSS, fonts or images; an inline `<style>` and inline `<svg>`
//! charts only, so it works offline and as a CI artifact.
//!
//! What it shows: a header (lane, wheel and sha256, base, picks, guards,
//! verdict), a summary table (one row per cell, GPU and repeat: status,
//! total, compile fraction, determinism, delta against the baseline with
//! noise marked), then per cell and repeat a stacked bar of phase shares
//! (the residual `outside_phases_s` named and hatched), the `warmup_forward`
//! compile/execute split, the compile partition with its named residual and
//! its overlays as separate thin bars ("overlay, not summed", clipped at the
//! partition's total and labelled when they exceed it), a paired
//! baseline-vs-candidate chart when a comparison exists, the findings with
//! their severity, and the determinism diff's kernels.
//!
//! The honesty rules hold: a residual is drawn with its name, overlays are
//! never stacked into a partition, what was not measured reads "no report" /
//! "absent" and draws no bar, and a negative value is listed ("not drawn"),
//! never clamped into a bar. Every foreign string goes through
//! [`escape_html`]. Pure and deterministic: same input, same bytes.

use std::fmt::Write as _;

use lane_ledger::compare::{DeltaRow, DeltaVerdict};
use lane_ledger::{Comparison, DeterminismReport, MintBreakdown, OverlayRow, Partition};

use crate::{conclusion, CellResult, LaneResults, RepeatResult};

/// Width, in SVG user units, of the bar area of every chart.
pub const CHART_WIDTH: f64 = 600.0;

/// The longest string, in characters, kept from one foreign value.
const MAX_CHARS: usize = 200;

const PALETTE: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f",
];
const RESIDUAL_COLOR: &str = "#8c8c8c";
const OVERLAY_COLOR: &str = "#6a3d9a";
const BASELINE_COLOR: &str = "#a0a0a0";
const CANDIDATE_COLOR: &str = "#4e79a7";

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em;color:#222;max-width:72em}\
h1{font-size:1.5em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}h3{font-size:1.05em}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}\
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}\
.absent{color:#888;font-style:italic}.sev-error{color:#b00020;font-weight:bold}.sev-warning{color:#b36b00;font-weight:bold}.sev-info{color:#555}\
.slower{color:#b00020;font-weight:bold}.faster{color:#2e7d32}.noise{color:#888}\
.legend td{border:none;padding:0 .6em 0 0}.swatch{display:inline-block;width:.9em;height:.9em;vertical-align:middle;margin-right:.3em}\
svg{display:block;margin:.3em 0}svg text{font-size:11px;font-family:system-ui,sans-serif}\
.note{color:#555;font-size:.9em}";

/// `s` made inert in HTML text and attribute values (`&`, `<`, `>`, `"`,
/// `'` entity-encoded, control characters replaced), at most 200 characters
/// of it kept (an ellipsis marks a cut).
pub fn escape_html(s: &str) -> String {
    escape_max(s, MAX_CHARS)
}

fn escape_max(s: &str, max: usize) -> String {
    crate::escape::html_max(s, max)
}

fn secs(v: Option<f64>) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:.3} s"),
        _ => "<span class=\"absent\">absent</span>".to_owned(),
    }
}

fn pct(v: Option<f64>) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{:.1} %", 100.0 * v),
        _ => "<span class=\"absent\">absent</span>".to_owned(),
    }
}

/// A coordinate or length for SVG: fixed one decimal, never negative, never
/// NaN.
fn n(v: f64) -> String {
    if v.is_finite() && v > 0.0 {
        format!("{v:.1}")
    } else {
        "0.0".to_owned()
    }
}

/// Renders the whole page.
pub fn render_html(r: &LaneResults) -> String {
    let mut out = String::new();
    let mut ids = 0usize;
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(out, "<title>lane {}</title>", escape_html(&r.lane));
    let _ = writeln!(out, "<style>{STYLE}</style>\n</head>\n<body>");
    header(&mut out, r);
    summary_table(&mut out, r);
    for c in &r.cells {
        cell_section(&mut out, c, r.baseline.as_deref(), &mut ids);
    }
    out.push_str("<p class=\"note\">Rendered by lane. Residuals are named and hatched; overlays are drawn apart and never summed; what was not measured reads &quot;no report&quot; or &quot;absent&quot; and draws no bar; negative values are listed, not drawn.</p>\n");
    out.push_str("</body>\n</html>\n");
    out
}

fn header(out: &mut String, r: &LaneResults) {
    let _ = write!(out, "<h1>lane {}", escape_html(&r.lane));
    if let Some(t) = &r.title {
        let _ = write!(out, " — {}", escape_html(t));
    }
    out.push_str("</h1>\n<table class=\"header\">\n");
    let row = |out: &mut String, k: &str, v: String| {
        let _ = writeln!(out, "<tr><th>{k}</th><td>{v}</td></tr>");
    };
    row(
        out,
        "Wheel",
        r.wheel.as_ref().map_or_else(
            || "<span class=\"absent\">not staged</span>".to_owned(),
            |w| {
                format!(
                    "{} <code>sha256 {}</code>",
                    escape_html(&w.file),
                    escape_html(&w.sha256)
                )
            },
        ),
    );
    row(
        out,
        "Base",
        r.base.as_deref().map_or_else(
            || "<span class=\"absent\">unknown</span>".to_owned(),
            escape_html,
        ),
    );
    if let Some(b) = &r.branch {
        row(out, "Branch", escape_html(b));
    }
    row(
        out,
        "Picks",
        if r.picks.is_empty() {
            "none".to_owned()
        } else {
            r.picks
                .iter()
                .map(|p| escape_html(p))
                .collect::<Vec<_>>()
                .join(", ")
        },
    );
    row(
        out,
        "Guards",
        r.guard.as_ref().map_or_else(
            || "<span class=\"absent\">not recorded</span>".to_owned(),
            |g| {
                format!(
                    "{} — {}",
                    if g.passed {
                        "passed"
                    } else {
                        "<span class=\"sev-error\">refused</span>"
                    },
                    escape_html(&g.summary)
                )
            },
        ),
    );
    if let Some(b) = &r.baseline {
        row(out, "Baseline lane", escape_html(b));
    }
    if r.replay {
        row(
            out,
            "Replay",
            "yes: these numbers were replayed, not measured fresh".to_owned(),
        );
    }
    let v = conclusion(r);
    let class = match v.conclusion.as_str() {
        "failure" => "sev-error",
        "neutral" => "sev-warning",
        _ => "faster",
    };
    let mut verdict = format!("<span class=\"{class}\">{}</span>", v.conclusion.as_str());
    if !v.reasons.is_empty() {
        verdict.push_str("<ul>");
        for reason in &v.reasons {
            let _ = write!(verdict, "<li>{}</li>", escape_html(reason));
        }
        verdict.push_str("</ul>");
    }
    row(out, "Verdict", verdict);
    out.push_str("</table>\n");
}

fn status_of(rep: &RepeatResult) -> String {
    rep.status()
        .map_or_else(|| "unknown".to_owned(), |s| escape_html(&s))
}

fn recipe_of(c: &CellResult, rep: &RepeatResult) -> String {
    rep.recipe(c)
        .map_or_else(|| "unknown".to_owned(), |s| escape_html(&s))
}

fn no_report(rep: &RepeatResult) -> String {
    let wall = rep
        .mint
        .as_ref()
        .and_then(|m| m.wall_s)
        .map_or_else(String::new, |w| format!(" (job wall {w:.3} s)"));
    format!("<span class=\"absent\">no report{wall}</span>")
}

fn determinism_cell(d: Option<&DeterminismReport>, note: Option<&String>) -> String {
    if let (None, Some(n)) = (d, note) {
        return format!(
            "<span class=\"sev-error\">not diffed: {}</span>",
            escape_html(n)
        );
    }
    match d {
        Some(d) => {
            let class = if matches!(
                d.verdict,
                lane_ledger::determinism::DeterminismVerdict::Unexplained
            ) {
                "sev-error"
            } else {
                "noise"
            };
            format!("<span class=\"{class}\">{}</span>", d.verdict.describe())
        }
        None => "<span class=\"absent\">not diffed</span>".to_owned(),
    }
}

fn delta_text(row: &DeltaRow) -> String {
    let rel = row
        .delta_rel
        .filter(|r| r.is_finite())
        .map_or_else(String::new, |r| format!(" ({:+.1} %)", 100.0 * r));
    match (row.delta_s, row.verdict) {
        (Some(d), DeltaVerdict::Noise) => {
            format!("<span class=\"noise\">{d:+.3} s{rel} ~noise</span>")
        }
        (Some(d), DeltaVerdict::Slower) => {
            format!("<span class=\"slower\">{d:+.3} s{rel} slower</span>")
        }
        (Some(d), DeltaVerdict::Faster) => {
            format!("<span class=\"faster\">{d:+.3} s{rel} faster</span>")
        }
        (_, DeltaVerdict::OnlyBaseline) => "only in baseline".to_owned(),
        (_, DeltaVerdict::OnlyCandidate) => "only in this lane".to_owned(),
        (None, _) => "<span class=\"absent\">absent</span>".to_owned(),
    }
}

fn delta_cell(c: &CellResult) -> String {
    if let Some(cmp) = &c.comparison {
        return match cmp.rows.iter().find(|row| row.group == "total") {
            Some(row) => delta_text(row),
            None => "<span class=\"absent\">no total</span>".to_owned(),
        };
    }
    match &c.comparison_note {
        Some(note) => format!("not compared: {}", escape_html(note)),
        None => "<span class=\"absent\">no baseline</span>".to_owned(),
    }
}

fn anchor(c: &CellResult) -> String {
    // Only [a-z0-9-] survive: an id that needs no escaping.
    let mut a = String::from("cell-");
    for ch in format!("{}-{}", c.cell, c.gpu).chars().take(80) {
        if ch.is_ascii_alphanumeric() {
            a.push(ch.to_ascii_lowercase());
        } else {
            a.push('-');
        }
    }
    a
}

fn summary_table(out: &mut String, r: &LaneResults) {
    out.push_str("<h2>Summary</h2>\n");
    if r.cells.is_empty() {
        out.push_str("<p class=\"absent\">No cells in the results.</p>\n");
        return;
    }
    out.push_str("<table class=\"summary\">\n<tr><th>Cell</th><th>GPU</th><th>Repeat</th><th>Recipe</th><th>Status</th><th>Total</th><th>Compile fraction</th><th>Determinism (r1 vs r2)</th><th>Delta vs baseline (total)</th></tr>\n");
    for c in &r.cells {
        let cell_name = format!("<a href=\"#{}\">{}</a>", anchor(c), escape_html(&c.cell));
        if c.repeats.is_empty() {
            let _ = writeln!(
                out,
                "<tr><td>{cell_name}</td><td>{}</td><td colspan=\"5\" class=\"absent\">no repeats</td><td>{}</td><td>{}</td></tr>",
                escape_html(&c.gpu),
                determinism_cell(c.determinism.as_ref(), c.determinism_note.as_ref()),
                delta_cell(c)
            );
            continue;
        }
        for (i, rep) in c.repeats.iter().enumerate() {
            let b = &rep.breakdown;
            let (total, fraction) = if rep.measured() {
                (
                    format!("<td class=\"num\">{}</td>", secs(b.total_s)),
                    format!("<td class=\"num\">{}</td>", pct(b.compile_fraction)),
                )
            } else {
                (
                    format!("<td colspan=\"2\">{}</td>", no_report(rep)),
                    String::new(),
                )
            };
            let (det, delta) = if i == 0 {
                let span = c.repeats.len();
                (
                    format!(
                        "<td rowspan=\"{span}\">{}</td>",
                        determinism_cell(c.determinism.as_ref(), c.determinism_note.as_ref())
                    ),
                    format!("<td rowspan=\"{span}\">{}</td>", delta_cell(c)),
                )
            } else {
                (String::new(), String::new())
            };
            let _ = writeln!(
                out,
                "<tr><td>{cell_name}</td><td>{}</td><td>r{}</td><td>{}</td><td>{}</td>{total}{fraction}{det}{delta}</tr>",
                escape_html(&c.gpu),
                rep.repeat,
                recipe_of(c, rep),
                status_of(rep),
            );
        }
    }
    out.push_str("</table>\n");
}

/// One segment of a stacked bar.
struct Seg {
    name: String,
    seconds: f64,
    residual: bool,
}

impl Seg {
    fn member(name: &str, seconds: f64) -> Seg {
        Seg {
            name: name.to_owned(),
            seconds,
            residual: false,
        }
    }
    fn residual(name: &str, seconds: f64) -> Seg {
        Seg {
            name: name.to_owned(),
            seconds,
            residual: true,
        }
    }
}

fn hatch_defs(id: &str) -> String {
    format!(
        "<defs><pattern id=\"{id}\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect x=\"0\" y=\"0\" width=\"6\" height=\"6\" fill=\"#e6e6e6\"/><rect x=\"0\" y=\"0\" width=\"3\" height=\"6\" fill=\"{RESIDUAL_COLOR}\"/></pattern></defs>"
    )
}

/// A horizontal stacked bar of `segs` against `total` (the bar's full width
/// is `max(total, sum of drawn segments)`, so the drawn widths never sum
/// above [`CHART_WIDTH`]). Non-positive or non-finite segments are listed
/// as not drawn. The legend is HTML below the SVG.
fn stacked_bar(out: &mut String, ids: &mut usize, title: &str, segs: &[Seg], total: f64) {
    let drawn: Vec<(usize, &Seg)> = segs
        .iter()
        .enumerate()
        .filter(|(_, s)| s.seconds.is_finite() && s.seconds > 0.0)
        .collect();
    let sum: f64 = drawn.iter().map(|(_, s)| s.seconds).sum();
    let scale = if total.is_finite() {
        total.max(sum)
    } else {
        sum
    };
    if scale <= 0.0 || drawn.is_empty() {
        out.push_str("<p class=\"absent\">nothing to draw</p>\n");
        return;
    }
    *ids += 1;
    let hatch = format!("hatch-{ids}");
    let h = 24.0;
    let _ = write!(
        out,
        "<svg class=\"stack\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title>{defs}",
        w = n(CHART_WIDTH),
        h = n(h),
        t = escape_html(title),
        defs = hatch_defs(&hatch),
    );
    let mut x = 0.0;
    for (i, s) in &drawn {
        let width = s.seconds / scale * CHART_WIDTH;
        let fill = if s.residual {
            format!("url(#{hatch})")
        } else {
            PALETTE[i % PALETTE.len()].to_owned()
        };
        let share = 100.0 * s.seconds / total;
        let _ = write!(
            out,
            "<rect class=\"seg\" x=\"{}\" y=\"0.0\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"#fff\" stroke-width=\"0.5\"><title>{}{}: {:.3} s ({share:.1} %)</title></rect>",
            n(x),
            n(width),
            n(h),
            escape_html(&s.name),
            if s.residual { " (residual)" } else { "" },
            s.seconds,
        );
        let fits = (width / 6.5).floor() as usize;
        if fits >= 4 {
            let label = escape_max(&s.name, fits.saturating_sub(1));
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"16.0\" fill=\"{}\">{label}</text>",
                n(x + 3.0),
                if s.residual { "#000" } else { "#fff" }
            );
        }
        x += width;
    }
    out.push_str("</svg>\n<table class=\"legend\">");
    for (i, s) in segs.iter().enumerate() {
        let swatch = if s.residual {
            format!("<span class=\"swatch\" style=\"background:repeating-linear-gradient(45deg,{RESIDUAL_COLOR} 0 2px,#e6e6e6 2px 4px)\"></span>")
        } else {
            format!(
                "<span class=\"swatch\" style=\"background:{}\"></span>",
                PALETTE[i % PALETTE.len()]
            )
        };
        let share = if total.is_finite() && total > 0.0 {
            format!("{:.1} %", 100.0 * s.seconds / total)
        } else {
            "absent".to_owned()
        };
        let drawn_note = if s.seconds.is_finite() && s.seconds > 0.0 {
            ""
        } else {
            " <span class=\"absent\">(not drawn)</span>"
        };
        let _ = write!(
            out,
            "<tr><td>{swatch}{}{}</td><td class=\"num\">{:.3} s</td><td class=\"num\">{share}</td><td>{drawn_note}</td></tr>",
            escape_html(&s.name),
            if s.residual { " <em>(residual)</em>" } else { "" },
            s.seconds,
        );
    }
    out.push_str("</table>\n");
}

/// Overlays as separate thin bars against the partition's total: never
/// stacked, clipped at [`CHART_WIDTH`] and labelled when they exceed it.
fn overlay_bars(out: &mut String, overlays: &[OverlayRow], total: Option<f64>) {
    if overlays.is_empty() {
        return;
    }
    let Some(total) = total.filter(|t| t.is_finite() && *t > 0.0) else {
        out.push_str(
            "<p>Overlays (overlay, not summed; no positive total to draw against):</p><ul>",
        );
        for o in overlays {
            let _ = write!(out, "<li>{} {:.3} s</li>", escape_html(&o.name), o.seconds);
        }
        out.push_str("</ul>\n");
        return;
    };
    let row_h = 24.0;
    let h = row_h * overlays.len() as f64;
    let label_w = 220.0;
    let w = CHART_WIDTH + label_w;
    let _ = write!(
        out,
        "<p class=\"note\">Overlays: spans nested inside the members above (overlay, not summed).</p>\n<svg class=\"overlays\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"overlays, not summed\"><title>overlays, not summed</title>",
        n(w),
        n(h),
        n(w),
        n(h)
    );
    for (i, o) in overlays.iter().enumerate() {
        let y = row_h * i as f64;
        let valid = o.seconds.is_finite() && o.seconds > 0.0;
        let ratio = if valid { o.seconds / total } else { 0.0 };
        let clipped = ratio > 1.0;
        let width = ratio.min(1.0) * CHART_WIDTH;
        let label = if !valid {
            format!("{:.3} s, not drawn", o.seconds)
        } else if clipped || o.exceeds_total {
            format!(
                "{:.3} s ({:.1} %) exceeds the total, clipped; overlay, not summed",
                o.seconds,
                100.0 * ratio
            )
        } else {
            format!(
                "{:.3} s ({:.1} %) overlay, not summed",
                o.seconds,
                100.0 * ratio
            )
        };
        let _ = write!(
            out,
            "<rect class=\"overlay\" x=\"0.0\" y=\"{}\" width=\"{}\" height=\"6.0\" fill=\"{OVERLAY_COLOR}\"><title>{}: {label}</title></rect>",
            n(y + 2.0),
            n(width),
            escape_html(&o.name),
        );
        if clipped {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" fill=\"{OVERLAY_COLOR}\">»</text>",
                n(CHART_WIDTH - 8.0),
                n(y + 16.0)
            );
        }
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            n(CHART_WIDTH + 6.0),
            n(y + 9.0),
            escape_max(&o.name, 30),
        );
        let _ = write!(
            out,
            "<text x=\"0.0\" y=\"{}\" fill=\"#555\">{}</text>",
            n(y + 17.0),
            escape_html(&label)
        );
    }
    out.push_str("</svg>\n");
}

fn phases_chart(out: &mut String, ids: &mut usize, b: &MintBreakdown) {
    if b.phases.is_empty() {
        out.push_str("<p class=\"absent\">No phases in the report.</p>\n");
        return;
    }
    let mut segs: Vec<Seg> = b
        .phases
        .iter()
        .map(|p| Seg::member(&p.name, p.seconds))
        .collect();
    if let Some(r) = &b.outside_phases {
        segs.push(Seg::residual(&r.name, r.seconds));
    }
    let total = b.total_s.unwrap_or(f64::NAN);
    let _ = writeln!(
        out,
        "<h4>Phase shares (of the total {}, from {})</h4>",
        secs(b.total_s),
        b.total_from.unwrap_or("nothing")
    );
    stacked_bar(out, ids, "phase shares", &segs, total);
}

fn warmup_chart(out: &mut String, ids: &mut usize, b: &MintBreakdown) {
    let Some(w) = &b.warmup_split else {
        if b.ledger_has_no_split() {
            out.push_str(
                "<p class=\"absent\">Compile vs execute: no split (the ledger cannot say).</p>\n",
            );
        }
        return;
    };
    let mut segs = Vec::new();
    if let Some(c) = w.compile_s {
        segs.push(Seg::member("compile", c));
    }
    if let Some(e) = w.execute_s {
        segs.push(Seg::member("execute", e));
    }
    if let Some(o) = w.outside_ledger_s {
        segs.push(Seg::residual("outside_warm_ledger_s", o));
    }
    let total = w.phase_s.or(w.wall_s).unwrap_or(f64::NAN);
    let _ = writeln!(
        out,
        "<h4>{}: compile vs execute (phase {}, warm ledger wall {})</h4>",
        escape_html(&w.phase),
        secs(w.phase_s),
        secs(w.wall_s)
    );
    if segs.is_empty() {
        out.push_str("<p class=\"absent\">absent</p>\n");
        return;
    }
    stacked_bar(out, ids, "compile vs execute", &segs, total);
}

fn partition_chart(out: &mut String, ids: &mut usize, p: &Partition, overlays: &[OverlayRow]) {
    let _ = writeln!(
        out,
        "<h4>Compile partition: {} = {}</h4>",
        escape_html(&p.total.name),
        secs(Some(p.total.seconds))
    );
    let mut segs: Vec<Seg> = p
        .members
        .iter()
        .map(|m| Seg::member(&m.name, m.seconds))
        .collect();
    segs.push(Seg::residual(&p.residual.name, p.residual.seconds));
    stacked_bar(out, ids, "compile partition", &segs, p.total.seconds);
    if !p.unobserved.is_empty() {
        let names: Vec<String> = p.unobserved.iter().map(|u| escape_html(u)).collect();
        let _ = writeln!(
            out,
            "<p class=\"absent\">Not measured (absent, not zero): {}</p>",
            names.join(", ")
        );
    }
    overlay_bars(out, overlays, Some(p.total.seconds));
}

fn findings(out: &mut String, b: &MintBreakdown) {
    if b.findings.is_empty() {
        return;
    }
    let mut all: Vec<&lane_ledger::Finding> = b.findings.iter().collect();
    all.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out.push_str("<h4>Findings</h4>\n<ul class=\"findings\">\n");
    for f in all {
        let kind = serde_json::to_value(f.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let subject = f
            .subject
            .as_deref()
            .map_or_else(String::new, |s| format!(" ({})", escape_html(s)));
        let _ = writeln!(
            out,
            "<li><span class=\"sev-{sev}\">{sev}</span> <code>{}</code>{subject}: {}</li>",
            escape_html(&kind),
            escape_html(&f.message),
            sev = f.severity.as_str(),
        );
    }
    out.push_str("</ul>\n");
}

fn repeat_section(out: &mut String, c: &CellResult, rep: &RepeatResult, ids: &mut usize) {
    let _ = writeln!(
        out,
        "<h3>r{} — {} — {}</h3>",
        rep.repeat,
        recipe_of(c, rep),
        status_of(rep)
    );
    let b = &rep.breakdown;
    if !rep.measured() {
        let _ = writeln!(out, "<p>{}</p>", no_report(rep));
        findings(out, b);
        return;
    }
    phases_chart(out, ids, b);
    warmup_chart(out, ids, b);
    if let Some(p) = &b.compile_partition {
        partition_chart(out, ids, p, &b.overlays);
    } else if !b.overlays.is_empty() {
        overlay_bars(out, &b.overlays, None);
    }
    let failed: Vec<String> = b
        .jobs
        .iter()
        .filter(|j| j.failed)
        .map(|j| format!("{} ({})", escape_html(&j.job), secs(j.wall_s)))
        .chain(
            b.entries
                .iter()
                .filter(|e| e.failed)
                .map(|e| escape_html(&e.name)),
        )
        .collect();
    if !failed.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"sev-warning\">Failed jobs (their seconds are kept): {}</p>",
            failed.join(", ")
        );
    }
    findings(out, b);
}

fn comparison_chart(out: &mut String, cmp: &Comparison, baseline: &str) {
    let _ = writeln!(
        out,
        "<h3>Baseline {} vs this lane</h3>\n<p class=\"note\">Noise rule: a delta counts only above max({:.3} s, {:.1} % of the baseline); baseline {} mint(s) ({} missing), candidate {} mint(s) ({} missing).</p>",
        escape_html(baseline),
        cmp.noise_rule.floor_s,
        100.0 * cmp.noise_rule.relative,
        cmp.baseline.mints,
        cmp.baseline.missing,
        cmp.candidate.mints,
        cmp.candidate.missing,
    );
    if cmp.rows.is_empty() {
        out.push_str("<p class=\"absent\">No rows to compare.</p>\n");
        return;
    }
    let max = cmp
        .rows
        .iter()
        .flat_map(|r| [r.baseline_s, r.candidate_s])
        .flatten()
        .filter(|v| v.is_finite())
        .fold(0.0_f64, f64::max);
    let label_w = 230.0;
    let row_h = 26.0;
    let w = label_w + CHART_WIDTH;
    let h = row_h * cmp.rows.len() as f64 + 16.0;
    let _ = write!(
        out,
        "<svg class=\"compare\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"baseline vs candidate\"><title>baseline vs candidate</title>",
        n(w),
        n(h),
        n(w),
        n(h)
    );
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"2.0\" width=\"10.0\" height=\"8.0\" fill=\"{BASELINE_COLOR}\"/><text x=\"{}\" y=\"10.0\">baseline</text><rect x=\"{}\" y=\"2.0\" width=\"10.0\" height=\"8.0\" fill=\"{CANDIDATE_COLOR}\"/><text x=\"{}\" y=\"10.0\">this lane</text>",
        n(label_w),
        n(label_w + 14.0),
        n(label_w + 80.0),
        n(label_w + 94.0)
    );
    for (i, row) in cmp.rows.iter().enumerate() {
        let y = 16.0 + row_h * i as f64;
        let _ = write!(
            out,
            "<text x=\"0.0\" y=\"{}\">{}{}</text>",
            n(y + 12.0),
            escape_max(&row.name, 28),
            if row.group == "overlay" {
                " (overlay)"
            } else if row.group == "residual" {
                " (residual)"
            } else {
                ""
            }
        );
        for (j, (v, color)) in [
            (row.baseline_s, BASELINE_COLOR),
            (row.candidate_s, CANDIDATE_COLOR),
        ]
        .into_iter()
        .enumerate()
        {
            let by = y + 2.0 + 10.0 * j as f64;
            match v {
                Some(v) if v.is_finite() && v > 0.0 && max > 0.0 => {
                    let width = v / max * (CHART_WIDTH - 160.0);
                    let _ = write!(
                        out,
                        "<rect class=\"pair\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"9.0\" fill=\"{color}\"><title>{:.3} s</title></rect><text x=\"{}\" y=\"{}\" fill=\"#555\">{:.3} s</text>",
                        n(label_w),
                        n(by),
                        n(width),
                        v,
                        n(label_w + width + 4.0),
                        n(by + 8.0),
                        v
                    );
                }
                Some(v) if v.is_finite() => {
                    let _ = write!(
                        out,
                        "<text x=\"{}\" y=\"{}\" fill=\"#555\">{:.3} s (not drawn)</text>",
                        n(label_w),
                        n(by + 8.0),
                        v
                    );
                }
                _ => {
                    let _ = write!(
                        out,
                        "<text x=\"{}\" y=\"{}\" fill=\"#888\">absent</text>",
                        n(label_w),
                        n(by + 8.0)
                    );
                }
            }
        }
    }
    out.push_str("</svg>\n<table class=\"compare\"><tr><th>Row</th><th>Group</th><th>Baseline</th><th>This lane</th><th>Delta</th></tr>\n");
    for row in &cmp.rows {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            escape_html(&row.name),
            row.group,
            secs(row.baseline_s),
            secs(row.candidate_s),
            delta_text(row)
        );
    }
    out.push_str("</table>\n");
}

fn determinism_section(out: &mut String, d: &DeterminismReport) {
    let _ = writeln!(
        out,
        "<h3>Determinism (r1 vs r2): {}</h3>\n<p>{}</p>",
        determinism_cell(Some(d), None),
        escape_html(&d.summary)
    );
    let _ = writeln!(
        out,
        "<p class=\"note\">Files: {} in r1, {} in r2, {} identical, {} differing. Kernels with configs: {} ({} differ, {} agree).</p>",
        d.files.a,
        d.files.b,
        d.files.identical,
        d.files.differing,
        d.kernels.with_configs,
        d.kernels.config_differs.len(),
        d.kernels.config_same.len()
    );
    if !d.kernel_diffs.is_empty() {
        out.push_str("<table class=\"kernels\"><tr><th>Kernel</th><th>Config field</th><th>r1</th><th>r2</th></tr>\n");
        for k in &d.kernel_diffs {
            let val = |v: &Option<serde_json::Value>| {
                v.as_ref().map_or_else(
                    || "<span class=\"absent\">absent</span>".to_owned(),
                    |v| escape_html(&v.to_string()),
                )
            };
            if k.fields.is_empty() {
                let _ = writeln!(
                    out,
                    "<tr><td>{}</td><td colspan=\"3\" class=\"absent\">no field named</td></tr>",
                    escape_html(&k.kernel)
                );
            }
            for f in &k.fields {
                let _ = writeln!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    escape_html(&k.kernel),
                    escape_html(&f.field),
                    val(&f.a),
                    val(&f.b)
                );
            }
        }
        out.push_str("</table>\n");
    }
    if !d.unexplained.is_empty() {
        out.push_str("<p class=\"sev-error\">Unexplained differences:</p><ul>\n");
        for u in &d.unexplained {
            let _ = writeln!(
                out,
                "<li>{} / {}: {}</li>",
                u.a.as_deref()
                    .map_or_else(|| "absent".to_owned(), escape_html),
                u.b.as_deref()
                    .map_or_else(|| "absent".to_owned(), escape_html),
                escape_html(&u.reason)
            );
        }
        out.push_str("</ul>\n");
    }
}

fn cell_section(out: &mut String, c: &CellResult, baseline: Option<&str>, ids: &mut usize) {
    let _ = writeln!(
        out,
        "<section id=\"{}\">\n<h2>{} on {}</h2>",
        anchor(c),
        escape_html(&c.cell),
        escape_html(&c.gpu)
    );
    if c.repeats.is_empty() {
        out.push_str("<p class=\"absent\">no report</p>\n");
    }
    for rep in &c.repeats {
        repeat_section(out, c, rep, ids);
    }
    match (&c.comparison, &c.comparison_note) {
        (Some(cmp), _) => comparison_chart(out, cmp, baseline.unwrap_or("baseline")),
        (None, Some(note)) => {
            let _ = writeln!(
                out,
                "<p class=\"note\">Not compared with the baseline: {}</p>",
                escape_html(note)
            );
        }
        (None, None) => {}
    }
    if let Some(d) = &c.determinism {
        determinism_section(out, d);
    }
    out.push_str("</section>\n");
}
