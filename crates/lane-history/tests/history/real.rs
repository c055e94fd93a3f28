//! The five real recorded H200 runs of the same two cells (`rig-dynamo`,
//! `rig-aot`, two cold repeats each), oldest first by their `env.json`
//! dates: `h200-run` (08:25), `-session4` (12:59), `-session5` (15:38),
//! `-session6` (16:38), `-session7` (21:31), all 2026-12-01. Each mint's
//! report becomes rows through `lane-ledger`'s breakdown, the way a caller
//! of `lane-history` builds them.

use lane_history::{judge_lane, Fingerprint, Policy, Role, Row, RunTime, Verdict};
use lane_ledger::{from_report, parse_report, MintBreakdown};
use lane_testkit::data::{gw, read};

/// The runs, oldest first.
pub const RUNS: [&str; 5] = [
    "h200-run",
    "h200-run-session4",
    "h200-run-session5",
    "h200-run-session6",
    "h200-run-session7",
];

const CELLS: [&str; 2] = ["rig-dynamo", "rig-aot"];

/// Every measured row of a breakdown: `(phase, role, seconds)`, the phase
/// named `<group>/<name>` as `lane-ledger`'s comparison groups them.
pub fn breakdown_rows(b: &MintBreakdown) -> Vec<(String, Role, f64)> {
    let mut out = Vec::new();
    let mut push = |group: &str, name: &str, role: Role, s: f64| {
        out.push((format!("{group}/{name}"), role, s));
    };
    if let Some(t) = b.total_s {
        push("mint", "total", Role::Total, t);
    }
    for p in &b.phases {
        push("phase", &p.name, Role::Member, p.seconds);
    }
    if let Some(r) = &b.outside_phases {
        push("phase", &r.name, Role::Residual, r.seconds);
    }
    if let Some(s) = &b.warmup_split {
        if let Some(c) = s.compile_s {
            push("warmup", "compile", Role::Member, c);
        }
        if let Some(e) = s.execute_s {
            push("warmup", "execute", Role::Member, e);
        }
    }
    if let Some(p) = &b.compile_partition {
        push("partition", &p.total.name, Role::Total, p.total.seconds);
        for m in &p.members {
            push("partition", &m.name, Role::Member, m.seconds);
        }
        push(
            "partition",
            &p.residual.name,
            Role::Residual,
            p.residual.seconds,
        );
    }
    for o in &b.overlays {
        push("overlay", &o.name, Role::Overlay, o.seconds);
    }
    if let Some(p) = b.aot.as_ref().and_then(|a| a.mint.as_ref()) {
        push("aot", &p.total.name, Role::Total, p.total.seconds);
        for m in &p.members {
            push("aot", &m.name, Role::Member, m.seconds);
        }
        push("aot", &p.residual.name, Role::Residual, p.residual.seconds);
    }
    out
}

fn env(run: &str) -> serde_json::Value {
    serde_json::from_slice(&read(gw(run).join("env.json"))).unwrap()
}

/// The rows of one real run.
pub fn run_rows(run: &str) -> Vec<Row> {
    let env = env(run);
    let text = |k: &str| env[k].as_str().map(str::to_owned);
    let smi = env["nvidia_smi"].as_str().unwrap_or_default();
    let fingerprint = Fingerprint {
        gpu_model: text("gpu"),
        driver: smi.split(", ").nth(1).map(str::to_owned),
        cuda: text("cuda"),
        torch: text("torch"),
        triton: text("triton"),
        upstream: text("gen_worker"),
        image_digest: None,
        node: None,
    };
    let time = RunTime::parse(env["date"].as_str().unwrap()).unwrap();
    let mut rows = Vec::new();
    for cell in CELLS {
        for repeat in 1..=2u32 {
            let path = gw(run).join(format!("results/{cell}/H200/r{repeat}/report.json"));
            let report = parse_report(&read(&path)).unwrap();
            let b = from_report(&path.display().to_string(), &report);
            for (phase, role, seconds) in breakdown_rows(&b) {
                rows.push(Row {
                    run: run.to_owned(),
                    time,
                    lane: "0.0.0".into(),
                    line: "0.0".into(),
                    fingerprint: fingerprint.clone(),
                    cell: cell.into(),
                    gpu: "H200".into(),
                    phase,
                    role,
                    repeat,
                    seconds: Some(seconds),
                });
            }
        }
    }
    rows
}

fn history_and_newest() -> (Vec<Row>, Vec<Row>) {
    let history = RUNS[..4].iter().flat_map(|r| run_rows(r)).collect();
    (history, run_rows(RUNS[4]))
}

#[test]
fn the_runs_are_oldest_first() {
    let times: Vec<RunTime> = RUNS
        .iter()
        .map(|r| RunTime::parse(env(r)["date"].as_str().unwrap()).unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
}

#[test]
fn the_newest_real_run_regresses_nothing_unless_the_environment_shifted() {
    let (history, newest) = history_and_newest();
    let j = judge_lane(&history, &newest, &[], &Policy::default());
    eprintln!("{}", serde_json::to_string_pretty(&j).unwrap());
    assert!(j.series.len() > 20, "{} series", j.series.len());
    let regressed: Vec<String> = j
        .with(Verdict::Regressed)
        .map(|s| s.key.to_string())
        .collect();
    assert!(
        regressed.is_empty() || j.environment_shift.is_some(),
        "regressed without a shift: {regressed:?}"
    );
}

/// `lane` with `phase` of `cell` made `ratio` slower in every repeat, the
/// edit kept consistent: a `phase/` series' extra seconds are added to the
/// mint's total of the same repeat, so the ledger still reconciles.
fn slowed(mut lane: Vec<Row>, cell: &str, phase: &str, ratio: f64) -> Vec<Row> {
    let mut added: Vec<(u32, f64)> = Vec::new();
    for r in lane
        .iter_mut()
        .filter(|r| r.cell == cell && r.phase == phase)
    {
        let before = r.seconds.unwrap();
        r.seconds = Some(before * ratio);
        added.push((r.repeat, before * (ratio - 1.0)));
    }
    assert_eq!(added.len(), 2, "{cell} {phase}: one row per repeat");
    if phase.starts_with("phase/") {
        for (repeat, extra) in added {
            let total = lane
                .iter_mut()
                .find(|r| r.cell == cell && r.phase == "mint/total" && r.repeat == repeat)
                .unwrap();
            total.seconds = total.seconds.map(|s| s + extra);
        }
    }
    lane
}

fn regressed(j: &lane_history::LaneJudgement) -> Vec<String> {
    j.with(Verdict::Regressed)
        .map(|s| s.key.to_string())
        .collect()
}

#[test]
fn one_phase_made_30_percent_slower_is_the_only_regression() {
    // The newest run (session 7) against the four before it. The run
    // itself moved with its machine: both cells about ×1.17 (a common
    // move, taken out of every estimate; not declared a shift, for the
    // series spread more than it), so the slowed phase is judged net of
    // it. On four earlier lanes of two repeats its p (≈ 0.003) is past the
    // floor but not below 0.05 over the 31 judged series: inconclusive,
    // never unchanged, and nothing else is called.
    let (history, newest) = history_and_newest();
    let (cell, phase) = ("rig-aot", "phase/trace_graph");
    let j = judge_lane(
        &history,
        &slowed(newest.clone(), cell, phase, 1.3),
        &[],
        &Policy::default(),
    );
    let s = j.series.iter().find(|s| s.key.phase == phase).unwrap();
    assert!(
        matches!(s.verdict, Verdict::Regressed | Verdict::Inconclusive),
        "{s:?}"
    );
    assert!((s.ratio.unwrap() - 1.3).abs() < 0.1, "{s:?}");
    assert!(regressed(&j)
        .iter()
        .all(|k| *k == format!("{cell}/H200/{phase}")));
    let common = j.common_move.expect("both cells moved");
    assert_eq!(common.cells, 2);
    assert!((common.ratio - 1.17).abs() < 0.03, "{common:?}");
    // A 30 % slower dynamo `load` (15 s, its repeats 5 % apart, four
    // earlier lanes): below what that series can detect, which it says
    // (`detectable_ratio` above its ratio) where it reads unchanged.
    let j = judge_lane(
        &history,
        &slowed(newest, "rig-dynamo", "phase/load", 1.3),
        &[],
        &Policy::default(),
    );
    let s = j
        .series
        .iter()
        .find(|s| s.key.cell == "rig-dynamo" && s.key.phase == "phase/load")
        .unwrap();
    assert!(s.ratio.unwrap() > 1.2, "{s:?}");
    assert!(
        s.verdict != Verdict::Unchanged || s.detectable_ratio.unwrap() > s.ratio.unwrap(),
        "{s:?}"
    );
    assert!(regressed(&j)
        .iter()
        .all(|k| k == "rig-dynamo/H200/phase/load"));

    // Session 6 against the three before it: no shift, nothing regressed,
    // and with its trace_graph 30 % slower nothing else is called either.
    // (Three earlier lanes whose two cells did not move together give
    // that 90 s phase its own lane-to-lane noise, about 6 %: a 30 % move
    // there is p ≈ 0.05, not a call.)
    let history: Vec<Row> = RUNS[..3].iter().flat_map(|r| run_rows(r)).collect();
    let plain = judge_lane(&history, &run_rows(RUNS[3]), &[], &Policy::default());
    assert!(
        plain.environment_shift.is_none(),
        "{:?}",
        plain.environment_shift
    );
    assert!(regressed(&plain).is_empty(), "{:?}", regressed(&plain));
    let j = judge_lane(
        &history,
        &slowed(run_rows(RUNS[3]), cell, phase, 1.3),
        &[],
        &Policy::default(),
    );
    assert!(j.environment_shift.is_none(), "{:?}", j.environment_shift);
    assert!(regressed(&j)
        .iter()
        .all(|k| *k == format!("{cell}/H200/{phase}")));
    let s = j.series.iter().find(|s| s.key.phase == phase).unwrap();
    assert!(s.ratio.unwrap() > 1.15 && s.p.unwrap() < 0.1, "{s:?}");
}

/// What broke: three earlier lanes of a 90 s phase whose lane-to-lane
/// noise is under 1 % were judged with the prior of the lane's 3 ms
/// phases too (one s₀² for every size, d₀ ≈ 1.2): a 30 % slower
/// trace_graph sat at p ≈ 0.003 on 3 degrees of freedom, inconclusive.
/// The prior now follows the series' size (limma-trend).
#[test]
fn a_small_phases_noise_no_longer_hides_a_large_phases_regression() {
    let history: Vec<Row> = RUNS[..3].iter().flat_map(|r| run_rows(r)).collect();
    let j = judge_lane(
        &history,
        &slowed(run_rows(RUNS[3]), "rig-aot", "phase/trace_graph", 1.3),
        &[],
        &Policy::default(),
    );
    let s = j
        .series
        .iter()
        .find(|s| s.key.cell == "rig-aot" && s.key.phase == "phase/trace_graph")
        .unwrap();
    // Its own noise, not the small phases': p ≈ 0.05 on 3 lanes whose
    // cells did not move together (it was ≈ 0.003 with one prior for
    // every size), and the prior's degrees of freedom capped by what a fit
    // to a dozen variances knows at its end (`TrendPrior::df_at`).
    assert!(s.p.unwrap() < 0.1, "{s:?}");
}

/// The newest real run's verdicts, one line a series (ratio to 3 places),
/// snapshotted: what lane says of session 7 today.
#[test]
fn the_newest_real_run_judged() {
    let (history, newest) = history_and_newest();
    let j = judge_lane(&history, &newest, &[], &Policy::default());
    let shift = j
        .environment_shift
        .map(|s| format!("×{:.3} ({} up, {} down)", s.ratio, s.up, s.down));
    let lines: Vec<String> = j
        .all()
        .map(|s| {
            let ratio = s.ratio.map_or("-".to_owned(), |r| format!("×{r:.3}"));
            let verdict = serde_json::to_value(s.verdict).unwrap();
            format!(
                "{} {} {} {}",
                s.key,
                verdict.as_str().unwrap(),
                ratio,
                s.history
            )
        })
        .collect();
    insta::assert_json_snapshot!("session7", (shift, lines));
}

/// The four recorded runs as the patch lanes 0.93.4–0.93.7 of one line:
/// each installs its own wheel and lands on its own node, as a release
/// line's pods do.
fn as_release_line(torch_of_last: Option<&str>) -> (Vec<Row>, Vec<Row>) {
    let mut rows = Vec::new();
    for (i, run) in RUNS[1..].iter().enumerate() {
        for mut r in run_rows(run) {
            let patch = format!("0.93.{}", i + 4);
            r.lane = patch.clone();
            r.line = "0.93".into();
            r.fingerprint.upstream = Some(patch);
            r.fingerprint.node = Some(format!("gpu-node-{}", 7 - i));
            if i == 3 {
                if let Some(t) = torch_of_last {
                    r.fingerprint.torch = Some(t.into());
                }
            }
            rows.push(r);
        }
    }
    rows.into_iter().partition(|r| r.run != RUNS[4])
}

#[test]
fn a_release_line_whose_upstream_and_node_change_every_lane_is_judged() {
    let (history, lane) = as_release_line(None);
    let j = judge_lane(&history, &lane, &[], &Policy::default());
    let all: Vec<_> = j.all().collect();
    let unjudged = all
        .iter()
        .filter(|s| s.verdict == Verdict::InsufficientHistory)
        .count();
    assert!(unjudged * 4 <= all.len(), "{unjudged} of {}", all.len());
    // The changes are said, each with what it is to the history.
    let roles: Vec<(&str, lane_history::FieldRole)> =
        j.changes.iter().map(|c| (c.field, c.role)).collect();
    assert_eq!(
        roles,
        vec![
            ("upstream", lane_history::FieldRole::UnderTest),
            ("node", lane_history::FieldRole::Placement)
        ]
    );
}

#[test]
fn a_torch_change_still_opens_a_segment_and_the_lane_says_why_first() {
    let (history, lane) = as_release_line(Some("2.12.0+cu130"));
    let j = judge_lane(&history, &lane, &[], &Policy::default());
    assert!(j.all().all(|s| s.verdict == Verdict::InsufficientHistory));
    let why = j.unjudged.expect("said");
    assert_eq!(why.series, why.of);
    assert_eq!(
        why.reason,
        "the environment changed (torch 2.11.0+cu130 → 2.12.0+cu130): a new segment starts with this lane"
    );
}
