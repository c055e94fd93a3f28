//! What the lane's history says, laid out: the check run fails only on a
//! confirmed regression (both GPU classes agree on a compile phase), an
//! unconfirmed one is neutral; the comment opens with the answers and
//! shows each verdict with its effect, prediction bounds and a sparkline
//! (snapshot); the page draws one trend chart per series, well-formed,
//! with foreign names inert.

use lane_core::MintStatus;
use lane_history::{judge_lane, Fingerprint, Policy, Role, Row, RunTime};
use lane_render::{
    conclusion, render_comment, render_html, Conclusion, LaneHistory, LaneResults, RenderOptions,
};

use super::{cell, jit, lane, rep, HOSTILE};

const PHASES: [&str; 8] = [
    "phase/trace_graph",
    "phase/load",
    "phase/seal_publish",
    "phase/warmup_forward",
    "partition/codegen_s",
    "partition/lowering_s",
    "partition/graph_passes_s",
    "mint/total",
];

/// Six runs of `cell` on `gpus`, two cold repeats each, every phase with
/// a few percent of lane-to-lane and repeat-to-repeat noise; the last run
/// (`r6`) made `slow(gpu, phase)` times slower.
fn rows(cell: &str, gpus: &[&str], slow: impl Fn(&str, &str) -> f64) -> Vec<Row> {
    let mut out = Vec::new();
    for run in 1..=6u32 {
        for (g, gpu) in gpus.iter().enumerate() {
            for (p, phase) in PHASES.iter().enumerate() {
                let lane_noise =
                    0.02 * (((run * 7 + p as u32 * 3 + g as u32 * 5) % 5) as f64 - 2.0) / 2.0;
                for repeat in 1..=2u32 {
                    let rep_noise = 0.01 * if repeat == 1 { 1.0 } else { -1.0 };
                    let base = 20.0 * (p + 1) as f64 * (1.0 + lane_noise + rep_noise);
                    let factor = if run == 6 { slow(gpu, phase) } else { 1.0 };
                    out.push(Row {
                        run: format!("2026120{run}T000000Z-0.93.4-{run:0>12}"),
                        time: RunTime::Unix(1_764_547_200 + i64::from(run) * 86_400),
                        lane: "0.93.4".into(),
                        line: "0.93".into(),
                        fingerprint: Fingerprint {
                            torch: Some(if run < 3 { "2.10.0" } else { "2.11.0" }.into()),
                            ..Fingerprint::default()
                        },
                        cell: cell.into(),
                        gpu: (*gpu).into(),
                        phase: (*phase).into(),
                        role: if *phase == "mint/total" {
                            Role::Total
                        } else {
                            Role::Member
                        },
                        repeat,
                        seconds: Some(base * factor),
                    });
                }
            }
        }
    }
    out
}

/// A lane of `cell` on `gpus` whose history is `rows`, judged.
fn judged(cell_name: &str, gpus: &[&str], rows: Vec<Row>) -> LaneResults {
    // No call confirmed by its strength alone: these lanes' noise is a
    // fixed wobble, and what is shown here is what the classes confirm.
    let policy = Policy {
        cpu_bound: ["phase/trace_graph".to_owned()].into(),
        alone_alpha: 0.0,
        ..Policy::default()
    };
    let run = rows.last().unwrap().run.clone();
    let (lane_rows, history): (Vec<Row>, Vec<Row>) =
        rows.iter().cloned().partition(|r| r.run == run);
    let judgement = judge_lane(&history, &lane_rows, &[], &policy);
    let mut r = lane(
        gpus.iter()
            .map(|g| cell(cell_name, g, vec![rep(1, jit(), MintStatus::Minted)]))
            .collect(),
    );
    r.history = Some(LaneHistory {
        run,
        store: "file:///srv/lane/store".into(),
        results: Some("out/lanes/0.93.4/results".into()),
        judgement,
        rows,
    });
    r.history_note = None;
    r
}

/// The comment from its start to the lane's details: the answers and the
/// history table.
fn first_screen(body: &str) -> &str {
    &body[..body.find("### Lane").expect("the lane's details")]
}

#[test]
fn a_compile_phase_both_gpu_classes_agree_on_fails_the_check() {
    let gpus = ["L40S", "L4"];
    let r = judged(
        "sdxl",
        &gpus,
        rows("sdxl", &gpus, |_, p| {
            if p == "phase/trace_graph" {
                1.4
            } else {
                1.0
            }
        }),
    );
    let s = r
        .history
        .as_ref()
        .unwrap()
        .judgement
        .series
        .iter()
        .find(|s| s.key.phase == "phase/trace_graph" && s.key.gpu == "L4")
        .unwrap();
    assert!(s.confirmed, "{s:?}");
    let v = conclusion(&r);
    assert_eq!(v.conclusion, Conclusion::Failure, "{v:?}");
    assert!(
        v.reasons
            .iter()
            .any(|x| x.contains("regressed against history, confirmed")),
        "{v:?}"
    );
    let body = render_comment(&r, &RenderOptions::default()).body;
    let head = first_screen(&body);
    assert!(head.contains("regressed (confirmed by gpu:"), "{head}");
    assert!(head.contains("**Can this lane ship?** **No"), "{head}");
    insta::assert_snapshot!("history_confirmed_first_screen", head);
}

#[test]
fn one_gpu_class_alone_is_unconfirmed_and_only_neutral() {
    let gpus = ["L40S", "L4"];
    let slow = |g: &str, p: &str| {
        if g == "L4" && p == "phase/warmup_forward" {
            1.4
        } else {
            1.0
        }
    };
    let r = judged("sdxl", &gpus, rows("sdxl", &gpus, slow));
    let j = &r.history.as_ref().unwrap().judgement;
    let called: Vec<(String, bool)> = j
        .series
        .iter()
        .filter(|s| s.verdict == lane_history::Verdict::Regressed)
        .map(|s| (s.key.to_string(), s.confirmed))
        .collect();
    assert_eq!(
        called,
        vec![("sdxl/L4/phase/warmup_forward".to_owned(), false)]
    );
    let v = conclusion(&r);
    assert_eq!(v.conclusion, Conclusion::Neutral, "{v:?}");
    assert!(
        v.reasons.iter().any(|x| x.contains("not yet confirmed")),
        "{v:?}"
    );
    let body = render_comment(&r, &RenderOptions::default()).body;
    let head = first_screen(&body);
    assert!(head.contains("regressed (unconfirmed)"), "{head}");
    assert!(
        head.contains("the next lane, or the cell on another GPU class"),
        "{head}"
    );
    // The effect, its bounds and the last runs, in the verdict's row.
    let row = head
        .lines()
        .find(|l| l.starts_with("| sdxl on L4 phase/warmup\\_forward"))
        .expect("its row");
    assert!(
        row.contains("%)") && row.contains("expected") && row.contains("lane-to-lane"),
        "{row}"
    );
    assert!(row.chars().any(|c| ('▁'..='█').contains(&c)), "{row}");
}

#[test]
fn trend_charts_are_well_formed_and_foreign_names_inert() {
    let gpus = ["L4"];
    let r = judged(HOSTILE, &gpus, rows(HOSTILE, &gpus, |_, _| 1.0));
    let html = render_html(&r);
    let trends = html.matches("<svg class=\"trend\"").count();
    assert_eq!(trends, PHASES.len());
    assert!(!html.contains("<script"));
    assert_eq!(html.matches("<svg").count(), html.matches("</svg>").count());
    // The torch change between runs 2 and 3 is marked on every chart.
    assert_eq!(html.matches("<line class=\"env\"").count(), PHASES.len());
    assert!(html.contains("environment changed: torch 2.10.0 → 2.11.0"));
    for (i, _) in html.match_indices("<rect ") {
        let tag = &html[i..i + html[i..].find('>').unwrap()];
        let w = tag.split(" width=\"").nth(1).unwrap();
        let w: f64 = w[..w.find('"').unwrap()].parse().unwrap();
        assert!(w.is_finite() && w >= 0.0, "{tag}");
    }
    assert!(!html.contains("NaN"));
    // The page opens with the answers, before the lane's details.
    let answers = html.find("Can this lane ship?").unwrap();
    assert!(answers < html.find("<h2>Lane</h2>").unwrap());
    // The comment's commands quote the cell escaped.
    let body = render_comment(&r, &RenderOptions::default()).body;
    assert!(!body.contains("<script"));
}

#[test]
fn a_confirmed_regression_is_looked_at_in_headless_chromium() {
    if !lane_testkit::chromium::available() {
        return;
    }
    let gpus = ["L40S", "L4"];
    let slow = |_: &str, p: &str| if p == "phase/trace_graph" { 1.4 } else { 1.0 };
    let shots = lane_testkit::chromium::screenshots(env!("CARGO_TARGET_TMPDIR"));
    let page = shots.join("history-confirmed.html");
    std::fs::write(
        &page,
        render_html(&judged("sdxl", &gpus, rows("sdxl", &gpus, slow))),
    )
    .unwrap();
    lane_testkit::chromium::screenshot(&page, &shots.join("history-confirmed.png"), 2000);
}
