//! The static HTML page: self-contained and deterministic on the real H200
//! lane (its snapshot is in [`super::real`]), well-formed SVG, "no report"
//! without a bar, overlays never stacked into a sum, and hostile strings
//! made inert.

use lane_ledger::partition::OverlayRow;
use lane_ledger::MintBreakdown;
use lane_render::html::CHART_WIDTH;
use lane_render::{render_html, RepeatResult};

use super::real::h200_run;
use super::{cell, jit, lane, record, rep, HOSTILE};

/// The `<svg ...>...</svg>` blocks whose opening tag has `class="{class}"`.
fn svgs<'a>(html: &'a str, class: &str) -> Vec<&'a str> {
    let open = format!("<svg class=\"{class}\"");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&open) {
        let end = rest[i..].find("</svg>").expect("closed svg") + i;
        out.push(&rest[i..end]);
        rest = &rest[end..];
    }
    out
}

/// The numeric `width` of every `<rect` with `class="{class}"` in `svg`.
fn rect_widths(svg: &str, class: &str) -> Vec<f64> {
    let open = format!("<rect class=\"{class}\"");
    svg.match_indices(&open)
        .map(|(i, _)| {
            let tag = &svg[i..i + svg[i..].find('>').unwrap()];
            let w = tag.split(" width=\"").nth(1).expect("width");
            w[..w.find('"').unwrap()].parse::<f64>().expect("numeric")
        })
        .collect()
}

#[test]
fn the_page_is_self_contained_and_deterministic() {
    let r = h200_run();
    let html = render_html(&r);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(html, render_html(&r));
    for banned in ["<script", "<link", "<img", "src=", "@import", "<iframe"] {
        assert!(!html.contains(banned), "{banned}");
    }
    assert!(
        !html.contains("http://")
            || html.matches("http://").count()
                == html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count()
    );
}

#[test]
fn svg_is_well_formed_enough() {
    let html = render_html(&h200_run());
    let opens = html.matches("<svg").count();
    assert!(opens > 0);
    assert_eq!(opens, html.matches("</svg>").count());
    assert_eq!(
        html.matches("<rect").count(),
        html.matches("<rect ").count()
    );
    for (i, _) in html.match_indices("<rect ") {
        let tag = &html[i..i + html[i..].find('>').unwrap()];
        let w = tag
            .split(" width=\"")
            .nth(1)
            .unwrap_or_else(|| panic!("{tag}"));
        let w: f64 = w[..w.find('"').unwrap()]
            .parse()
            .unwrap_or_else(|_| panic!("{tag}"));
        assert!(w.is_finite() && w >= 0.0, "{tag}");
    }
    assert!(!html.contains("NaN") && !html.contains("inf\""));
}

#[test]
fn a_missing_report_shows_no_report_and_no_bar() {
    let missing = RepeatResult {
        repeat: 1,
        mint: Some(record(lane_core::MintStatus::Crashed, 9.5, 137)),
        breakdown: MintBreakdown::missing("gone/H200/r1", "no report.json"),
    };
    let html = render_html(&lane(vec![cell("gone", "H200", vec![missing])]));
    let section = &html[html.find("<section id=\"cell-gone-h200\">").unwrap()..];
    assert!(section.contains("no report (no report.json): nothing was measured"));
    assert!(
        section.contains("wall 9.500 s"),
        "the job keeps its seconds"
    );
    assert!(!section.contains("<svg"), "{section}");
    assert!(
        !section.contains("0.000 s"),
        "no zeros for what was not measured"
    );
    assert!(html.contains("<td class=\"num\">9.500 s</td><td class=\"absent\">no report</td>"));
}

#[test]
fn overlays_are_drawn_apart_and_never_summed() {
    let mut b = jit();
    let total = b
        .compile_partition
        .as_ref()
        .expect("the JIT fixture has a compile partition")
        .total
        .seconds;
    b.overlays.push(OverlayRow {
        name: "parallel_kernel_cpu_s".into(),
        seconds: total * 7.0,
        share_of_total: Some(7.0),
        exceeds_total: true,
    });
    let html = render_html(&lane(vec![cell(
        "c",
        "H200",
        vec![rep(1, b, lane_core::MintStatus::Minted)],
    )]));
    let stacks = svgs(&html, "stack");
    assert!(stacks.len() >= 3, "phases, warmup split, partition");
    for s in &stacks {
        let sum: f64 = rect_widths(s, "seg").iter().sum();
        assert!(
            sum <= CHART_WIDTH + 0.5,
            "stacked widths {sum} exceed the chart"
        );
        assert!(
            !s.contains("parallel_kernel_cpu_s"),
            "an overlay was stacked"
        );
    }
    let overlays = svgs(&html, "overlays");
    assert_eq!(overlays.len(), 1);
    let o = overlays[0];
    assert!(o.contains("parallel_kernel_cpu_s"));
    assert!(o.contains("exceeds the total, clipped; overlay, not summed"));
    let widths = rect_widths(o, "overlay");
    assert!(widths.iter().all(|w| *w <= CHART_WIDTH));
    assert!(
        widths.iter().any(|w| (*w - CHART_WIDTH).abs() < 0.05),
        "clipped at the chart width"
    );
}

#[test]
fn hostile_strings_are_escaped() {
    let evil = format!("{HOSTILE} \"quoted\" 'single' & amp");
    let mut b = jit();
    b.phases[0].name = evil.clone();
    b.findings[0].message = evil.clone();
    b.findings[0].subject = Some(evil.clone());
    let mut c = cell(&evil, &evil, vec![super::rep_said(1, b, &evil)]);
    c.comparison_note = Some(evil.clone());
    let mut r = lane(vec![c]);
    r.title = Some(evil.clone());
    r.picks = vec![evil.clone()];
    let html = render_html(&r);
    assert!(!html.contains("<script"), "raw <script in the page");
    assert!(!html.contains("\"quoted\""));
    assert!(!html.contains("& amp"));
    assert!(html.contains("&lt;script&gt;"));
    // maud escapes `& < > "`: a `'` is inert in text and in the
    // double-quoted attributes it builds.
    assert!(html.contains("&quot;quoted&quot; 'single' &amp; amp"));
    assert!(!html.contains("='"), "no single-quoted attribute");
}
