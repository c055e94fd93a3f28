//! `mint` drives any [`Backend`]: a stand-in backend (as a service's would
//! be) gets the plan, reports progress, and the lane's report and verdict
//! follow from what it returns.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use lane_core::results::Contract;
use lane_core::{MintStatus, Progress, SlotSummary, Summary};
use lane_store::ArtifactStore;

use super::*;
use crate::backend::BackendError;
use crate::Exit;

const PROBE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../lanes/0.0.0.yaml");

fn request(out: &Path) -> MintRequest {
    MintRequest::new(PROBE, out, "manual")
}

/// Ends every slot of the plan as `status`, as a backend gathers them.
struct StandIn {
    status: MintStatus,
    calls: Vec<&'static str>,
}

impl Backend for StandIn {
    fn name(&self) -> &'static str {
        "stand-in"
    }

    fn runs_here(&self) -> bool {
        // Nothing to export: the stand-in runs no mint.
        false
    }

    fn dry_run(&mut self, plan: &MintPlan<'_>) -> Result<DryRun, BackendError> {
        self.calls.push("dry_run");
        Ok(DryRun::Plan {
            lane: plan.lane.version.to_string(),
            mints: plan.lane.plan().iter().map(|p| p.id.to_string()).collect(),
        })
    }

    fn mint(
        &mut self,
        plan: &MintPlan<'_>,
        on: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<Minted, BackendError> {
        self.calls.push("mint");
        let lane = plan.lane;
        let mut mints = Vec::new();
        for p in lane.plan() {
            on(Progress::Finished {
                mint: p.id.to_string(),
                status: self.status,
                wall_s: None,
                reason: "stand-in".into(),
            });
            mints.push(SlotSummary {
                slot: p.id.slot().to_string(),
                attempt: p.id.attempt,
                status: self.status,
                reason: "stand-in".into(),
                wall_s: None,
                job_s: None,
            });
        }
        // As the backends do: a lane stopped on purpose says so itself.
        let stopped = plan.stop.load(Ordering::SeqCst);
        let summary = Summary::of(
            lane.version.to_string(),
            mints,
            false,
            &Default::default(),
            stopped,
        );
        let results = lane_core::layout::results_dir(&plan.out);
        std::fs::create_dir_all(&results).unwrap();
        let json = serde_json::to_string_pretty(&summary).unwrap();
        std::fs::write(results.join(Summary::FILE), json).unwrap();
        Ok(Minted {
            summary,
            jobs: None,
            ended: vec![],
        })
    }
}

fn stand_in(status: MintStatus) -> StandIn {
    StandIn {
        status,
        calls: vec![],
    }
}

#[test]
fn a_dry_run_asks_the_backend_for_its_plan_and_mints_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut backend = stand_in(MintStatus::Minted);
    let mut r = request(dir.path());
    r.dry_run = true;
    let outcome = mint(&r, &mut backend, &mut |_| {}).unwrap();
    let MintOutcome::DryRun(DryRun::Plan { mints, .. }) = &outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!(mints.len(), 4, "2 cells x 1 GPU x 2 repeats: {mints:?}");
    assert_eq!(backend.calls, ["dry_run"]);
    assert!(outcome.verdict().is_ok());
}

#[test]
fn a_cell_the_matrix_lacks_is_a_usage_error_before_the_backend_runs() {
    let dir = tempfile::tempdir().unwrap();
    let mut backend = stand_in(MintStatus::Minted);
    let mut r = request(dir.path());
    r.cells = vec!["nope".into()];
    let e = mint(&r, &mut backend, &mut |_| {}).unwrap_err();
    assert_eq!(e.exit(), Exit::Usage);
    assert!(e.to_string().contains("it has rig-dynamo, rig-aot"), "{e}");
    assert!(backend.calls.is_empty());
}

#[test]
fn a_green_lane_is_reported_and_its_verdict_is_ok() {
    let dir = tempfile::tempdir().unwrap();
    let mut backend = stand_in(MintStatus::Minted);
    let mut seen = Vec::new();
    let outcome = mint(&request(dir.path()), &mut backend, &mut |p| seen.push(p)).unwrap();
    assert_eq!(seen.len(), 4);
    let MintOutcome::Minted(m) = &outcome else {
        panic!("{outcome:?}");
    };
    for f in [&m.report.markdown, &m.report.json, &m.report.html] {
        assert!(f.is_file(), "{}", f.display());
    }
    assert_eq!(m.kept, None);
    assert!(outcome.verdict().is_ok());
}

#[test]
fn a_lane_whose_slots_failed_is_not_green_exit_7_after_its_report_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let mut backend = stand_in(MintStatus::Failed);
    let outcome = mint(&request(dir.path()), &mut backend, &mut |_| {}).unwrap();
    let MintOutcome::Minted(m) = &outcome else {
        panic!("{outcome:?}");
    };
    assert!(m.report.markdown.is_file());
    let e = outcome.verdict().unwrap_err();
    assert_eq!(e.exit(), Exit::Findings);
    assert!(e.to_string().contains("4 of 4 slots"), "{e}");
}

#[test]
fn the_check_runs_commit_comes_from_the_wheel_key_when_not_given() {
    let commit = "a".repeat(40);
    let mut r = request(&PathBuf::from("out"));
    r.wheel_key = Some(format!("lanes/1.0.0/{commit}/w.whl"));
    assert_eq!(head_sha(&r), Some(commit));
    r.head_sha = Some("b".repeat(40));
    assert_eq!(head_sha(&r), Some("b".repeat(40)));
    r.head_sha = None;
    r.wheel_key = Some("lanes/1.0.0/not-a-commit/w.whl".into());
    assert_eq!(head_sha(&r), None);
}

/// A lane whose stop flag was set while the backend ended every slot as
/// `status` (as the kube backend returns once its Jobs are deleted).
fn stopped(status: MintStatus) -> (tempfile::TempDir, MintOutcome) {
    let dir = tempfile::tempdir().unwrap();
    let r = request(dir.path());
    r.stop.store(true, Ordering::SeqCst);
    let outcome = mint(&r, &mut stand_in(status), &mut |_| {}).unwrap();
    (dir, outcome)
}

#[test]
fn a_lane_its_backend_recorded_cancelled_is_reported_cancelled_and_exits_7() {
    let (_dir, outcome) = stopped(MintStatus::Crashed);
    let MintOutcome::Minted(m) = &outcome else {
        panic!("{outcome:?}");
    };
    // summary.json, read back through its type, says cancelled; the
    // slots keep what they ended as.
    let kept = Summary::from_json(
        "summary.json",
        &std::fs::read(m.results.join(Summary::FILE)).unwrap(),
    )
    .unwrap();
    assert!(kept.cancelled && !kept.green, "{kept:?}");
    assert!(kept.mints.iter().all(|s| s.status == MintStatus::Crashed));
    let md = std::fs::read_to_string(&m.report.markdown).unwrap();
    assert!(md.contains("cancelled"), "{md}");
    let e = outcome.verdict().unwrap_err();
    assert_eq!(e.exit(), Exit::Findings);
    assert!(e.to_string().contains("cancelled"), "{e}");
}

#[test]
fn a_resumed_run_replaces_its_summary_in_the_store_not_frozen_at_the_first() {
    let d = tempfile::tempdir().unwrap();
    let store = lane_store::LocalStore::new(d.path().join("store")).unwrap();
    let results = d.path().join("results");
    std::fs::create_dir_all(&results).unwrap();
    let files = crate::report::LaneReportFiles {
        markdown: d.path().join("report.md"),
        json: d.path().join("report.json"),
        html: d.path().join("report.html"),
        unreadable: Vec::new(),
        history: None,
    };
    let write = |verdict: &str| {
        std::fs::write(
            results.join("summary.json"),
            format!("{{\"verdict\":\"{verdict}\"}}"),
        )
        .unwrap();
        for f in [&files.markdown, &files.json, &files.html] {
            std::fs::write(f, verdict).unwrap();
        }
    };
    let prefix = "lanes/0.0.0/runs/nightly-1/";
    write("red");
    keep(&store, prefix, &results, &files).unwrap();
    write("green");
    let at = keep(&store, prefix, &results, &files).unwrap();
    assert!(at.ends_with("lanes/0.0.0/runs/nightly-1/report/"), "{at}");
    let read = |k: &str| {
        String::from_utf8(
            store
                .get(&lane_store::StoreKey::new(format!("{prefix}{k}")).unwrap())
                .unwrap(),
        )
        .unwrap()
    };
    assert_eq!(read("summary.json"), r#"{"verdict":"green"}"#);
    for name in ["report.md", "report.json", "report.html"] {
        assert_eq!(read(&format!("report/{name}")), "green", "{name}");
    }
    // The same copy again writes nothing new and is no error.
    keep(&store, prefix, &results, &files).unwrap();
}
