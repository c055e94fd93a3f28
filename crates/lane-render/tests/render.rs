//! lane-render end to end: snapshots of the comment on the real fixtures,
//! escaping of hostile strings, the 65,536-character budget, the policy;
//! the page ([`html`]), the terminal text ([`text`]), and the real H200
//! lane in all three, showing the same rows ([`real`]).

use lane_core::{GuardRecord, MintStatus, Recipe, WheelRef};
use lane_ledger::{compare, from_report, parse_report, MintBreakdown, NoiseRule};
use lane_render::{
    conclusion, escape, render_comment, CellResult, Conclusion, LaneResults, Level, RenderOptions,
    RepeatResult, GITHUB_BODY_LIMIT,
};

#[path = "render/history.rs"]
mod history;

#[path = "render/html.rs"]
mod html;

#[path = "render/real.rs"]
mod real;

#[path = "render/text.rs"]
mod text;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn mint(rel: &str, label: &str) -> MintBreakdown {
    let bytes = std::fs::read(format!("{ROOT}/tests/data/{rel}")).expect("fixture");
    from_report(label, &parse_report(&bytes).expect("parses"))
}

fn jit() -> MintBreakdown {
    static JIT: std::sync::OnceLock<MintBreakdown> = std::sync::OnceLock::new();
    JIT.get_or_init(|| mint("h200-torch2.11/jit_report.json", "probe-jit/H200/r1"))
        .clone()
}

fn seed() -> MintBreakdown {
    mint(
        "seed-phase-table/sdxl-w8a8-lora64.L40S.gw0.93.1.report.json",
        "sdxl-w8a8-lora64/L40S/r1",
    )
}

/// A slot's `mint.json` as lane writes it, attempt 1.
pub(crate) fn record(status: MintStatus, wall_s: f64, exit_code: i32) -> lane_core::MintRecord {
    lane_core::MintRecord {
        cell: "cell".into(),
        gpu: "H200".into(),
        stand_in: None,
        recipe: Recipe::Dynamo,
        repeat: 1,
        attempt: 1,
        status,
        reason: format!("the report says `{status}`"),
        wall_s: Some(wall_s),
        exit_code: Some(exit_code),
        replay: false,
        attempts_wall_s: vec![wall_s],
        bundle: None,
        job_s: None,
        stderr_tail: String::new(),
        gathering: lane_core::Gathering::default(),
        started_at: None,
        environment: lane_core::EnvFingerprint::default(),
    }
}

/// A repeat with no `mint.json` whose report says `status`, a word lane
/// may not know (foreign text).
pub(crate) fn rep_said(n: u32, mut b: MintBreakdown, status: &str) -> RepeatResult {
    b.status = Some(lane_core::Named::parse(status));
    RepeatResult {
        repeat: n,
        mint: None,
        breakdown: b,
    }
}

fn rep(n: u32, b: MintBreakdown, status: MintStatus) -> RepeatResult {
    RepeatResult {
        repeat: n,
        mint: Some(record(status, 30.0, 0)),
        breakdown: b,
    }
}

fn cell(name: &str, gpu: &str, repeats: Vec<RepeatResult>) -> CellResult {
    CellResult {
        cell: name.into(),
        gpu: gpu.into(),
        recipe: None,
        repeats,
        determinism: None,
        determinism_note: None,
        not_diffed: None,
        comparison: None,
        comparison_note: None,
    }
}

fn lane(cells: Vec<CellResult>) -> LaneResults {
    LaneResults {
        lane: "0.93.3".into(),
        title: Some("honest mint phases".into()),
        base: Some("v0.93.2".into()),
        branch: Some("release/0.93.3".into()),
        picks: vec!["PR #515".into(), "PR #511".into()],
        wheel: Some(WheelRef {
            file: "gen_worker-0.93.3-py3-none-any.whl".into(),
            sha256: "ab".repeat(32),
            key: None,
            commit: None,
        }),
        guard: Some(GuardRecord {
            passed: true,
            commit: "c".repeat(40),
            summary: "wire-v1 held".into(),
        }),
        green: None,
        cancelled: false,
        replay: false,
        baseline: Some("0.93.2".into()),
        report_url: Some("https://example.invalid/lanes/0.93.3/report.html".into()),
        cells,
        history: None,
        history_note: None,
        disagreements: Vec::new(),
    }
}

fn demo() -> LaneResults {
    let mut jit_cell = cell(
        "probe-jit",
        "H200",
        vec![
            rep(1, jit(), MintStatus::Minted),
            RepeatResult {
                repeat: 2,
                mint: Some(record(MintStatus::Resource, 12.4, 137)),
                breakdown: MintBreakdown::missing("probe-jit/H200/r2", "no report.json"),
            },
        ],
    );
    jit_cell.comparison = Some(compare(&[jit()], &[jit()], &NoiseRule::default()).unwrap());
    lane(vec![
        jit_cell,
        cell(
            "sdxl-w8a8-lora64",
            "L40S",
            vec![rep(1, seed(), MintStatus::Minted)],
        ),
    ])
}

#[test]
fn snapshot_real_fixtures() {
    let r = render_comment(&demo(), &RenderOptions::default());
    assert_eq!(r.level, Level::Full);
    insta::assert_snapshot!("comment_real_fixtures", r.body);
}

#[test]
fn the_seed_mint_is_flagged_not_repeated() {
    let body = render_comment(&demo(), &RenderOptions::default()).body;
    assert!(
        body.contains("| warmup\\_forward | 4416.910 s | 97.6 % |"),
        "{body}"
    );
    assert!(body.contains("compile\\_named\\_zero"), "{body}");
    assert!(body.contains("no split (the ledger cannot say)"), "{body}");
    // The missing repeat shows no numbers, and its job keeps its seconds.
    assert!(
        body.contains("| **resource** | 12.400 s | no report |"),
        "{body}"
    );
    // The residual is a named row, overlays are a table apart.
    assert!(body.contains("| *compile\\_other\\_s* |"), "{body}");
    assert!(
        body.contains("\noverlays (beside the partition, never summed):\n"),
        "{body}"
    );
}

const HOSTILE: &str = "<script>alert(1)</script>|@octocat fixes #123 `rm -rf` [x](javascript:y)";

fn table_rows_are_whole(body: &str) {
    let mut width = None;
    for line in body.lines() {
        if line.starts_with('|') {
            let n = line.matches('|').count() - line.matches("\\|").count();
            match width {
                None => width = Some(n),
                Some(w) => assert_eq!(w, n, "a table row was split or merged: {line}"),
            }
        } else {
            width = None;
        }
    }
}

#[test]
fn hostile_strings_are_inert() {
    let long = "y".repeat(50_000);
    let mut b = jit();
    b.phases[0].name = HOSTILE.into();
    b.findings[0].message = format!("{HOSTILE} {long}");
    let mut r = lane(vec![cell(
        HOSTILE,
        &format!("{HOSTILE}{long}"),
        vec![rep_said(1, b, HOSTILE)],
    )]);
    r.title = Some(HOSTILE.into());
    r.picks = vec![HOSTILE.into()];
    r.report_url = Some(format!("https://x.invalid/a)<b>{HOSTILE}"));
    let full = render_comment(&r, &RenderOptions::default()).body;
    // A link's destination is percent-encoded and never autolinked.
    let body = match full.find("](https://") {
        Some(i) => full[..i].to_owned() + &full[i..][full[i..].find(')').unwrap()..],
        None => full.clone(),
    };
    assert!(!full.contains("<script"), "{full}");
    let at = body
        .find("@octocat")
        .map(|i| &body[i.saturating_sub(200)..i + 10]);
    assert!(at.is_none(), "{at:?}");
    assert!(!body.contains("#123"));
    assert!(!body.contains("`rm"));
    assert!(!body.replace("\\](", "").contains("](javascript"));
    assert!(
        body.lines().all(|l| l.chars().count() < 20_000),
        "a very long line survived"
    );
    assert!(body.contains(&format!("@{}octocat", escape::ZWJ)));
    table_rows_are_whole(&body);
}

fn many_cells(n: usize) -> LaneResults {
    let cells = (0..n)
        .map(|i| {
            cell(
                &format!("cell-{i:04}"),
                "H200",
                vec![rep(1, jit(), MintStatus::Minted)],
            )
        })
        .collect();
    lane(cells)
}

#[test]
fn the_body_limit_degrades_in_steps_and_never_cuts_a_table() {
    let mut seen = Vec::new();
    for n in (1..=600).step_by(40) {
        let r = render_comment(&many_cells(n), &RenderOptions::default());
        assert!(
            r.body.chars().count() <= GITHUB_BODY_LIMIT,
            "{n} cells: {}",
            r.body.len()
        );
        assert!(r.body.starts_with("<!-- lane-report lane=0.93.3 -->"));
        table_rows_are_whole(&r.body);
        seen.push(r.level);
    }
    assert_eq!(seen[0], Level::Full);
    assert!(seen.contains(&Level::Summary), "{seen:?}");
    assert_eq!(*seen.last().unwrap(), Level::Link);
    let link = render_comment(&many_cells(600), &RenderOptions::default()).body;
    assert!(link.contains("https://example.invalid/lanes/0.93.3/report.html"));
}

#[test]
fn exactly_at_the_limit() {
    let r = many_cells(3);
    let full = render_comment(&r, &RenderOptions::default()).body;
    let len = full.chars().count();
    let at = render_comment(
        &r,
        &RenderOptions {
            limit: len,
            marker: true,
        },
    );
    assert_eq!(at.level, Level::Full);
    assert_eq!(at.body, full);
    let below = render_comment(
        &r,
        &RenderOptions {
            limit: len - 1,
            marker: true,
        },
    );
    assert_eq!(below.level, Level::Collapsed);
    assert!(below.body.chars().count() < len);
    // Each step down, one character below the previous level's length.
    let summary = render_comment(
        &r,
        &RenderOptions {
            limit: below.body.chars().count() - 1,
            marker: true,
        },
    );
    assert_eq!(summary.level, Level::Summary);
    let link = render_comment(
        &r,
        &RenderOptions {
            limit: summary.body.chars().count() - 1,
            marker: true,
        },
    );
    assert_eq!(link.level, Level::Link);
    for b in [&below.body, &summary.body, &link.body] {
        table_rows_are_whole(b);
    }
}

#[test]
fn policy() {
    // A `resource` mint proved nothing: the lane fails (lane_core's rule).
    assert_eq!(conclusion(&demo()).conclusion, Conclusion::Failure);
    let ok = lane(vec![cell(
        "probe-jit",
        "H200",
        vec![rep(1, jit(), MintStatus::Minted)],
    )]);
    // The JIT mint carries info findings only.
    assert_eq!(
        conclusion(&ok).conclusion,
        Conclusion::Success,
        "{:?}",
        conclusion(&ok)
    );
    let mut refused = ok.clone();
    refused.guard = Some(GuardRecord {
        passed: false,
        commit: "c".repeat(40),
        summary: "wire-v1".into(),
    });
    assert_eq!(conclusion(&refused).conclusion, Conclusion::Failure);
    let failed = lane(vec![cell(
        "probe-jit",
        "H200",
        vec![rep(1, jit(), MintStatus::Crashed)],
    )]);
    assert_eq!(conclusion(&failed).conclusion, Conclusion::Failure);
}

#[test]
fn a_cancelled_lane_concludes_cancelled_and_still_names_its_slots() {
    let mut cancelled = lane(vec![cell(
        "probe-jit",
        "H200",
        vec![
            rep(1, jit(), MintStatus::Minted),
            rep(2, jit(), MintStatus::Crashed),
        ],
    )]);
    cancelled.green = Some(false);
    cancelled.cancelled = true;
    let v = conclusion(&cancelled);
    assert_eq!(v.conclusion, Conclusion::Cancelled, "{v:?}");
    assert_eq!(v.conclusion.as_str(), "cancelled");
    assert_eq!(
        v.reasons[0],
        "the lane was cancelled before every mint was in"
    );
    assert!(
        v.reasons.iter().any(|r| r.contains("r2: mint crashed")),
        "{v:?}"
    );
    // Not cancelled, the same slots fail the lane.
    cancelled.cancelled = false;
    assert_eq!(conclusion(&cancelled).conclusion, Conclusion::Failure);
    // The report says it where the verdict is.
    cancelled.cancelled = true;
    let body = render_comment(&cancelled, &RenderOptions::default()).body;
    assert!(body.contains("cancelled"), "{body}");
}
