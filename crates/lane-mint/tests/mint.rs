//! The agent and the run store with real child processes.

use lane_mint::agent::{run_agent, AgentSpec};
use lane_mint::outcome::{Outcome, ProcessEnd, ReportState};
use lane_mint::plan::MintId;
use lane_mint::store::{MintState, RunStore};
use lane_mint::MintError;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

fn id(cell: &str) -> MintId {
    MintId {
        lane: "0.93.3".into(),
        cell: cell.into(),
        gpu: "L4".into(),
        repeat: 1,
        attempt: 1,
    }
}

fn spec(dir: &Path, script: &str, timeout_s: u64) -> AgentSpec {
    AgentSpec {
        id: id("sdxl"),
        recipe: "dynamo".into(),
        mint_dir: dir.to_owned(),
        command: vec!["sh".into(), "-c".into(), script.into()],
        env: BTreeMap::new(),
        timeout: Duration::from_secs(timeout_s),
        wheel: None,
        store: None,
        stop: None,
    }
}

const MINTED: &str =
    r#"printf '{"status":"minted","recipe":"dynamo","phases":{"load":1.0}}' > "$LANE_REPORT_PATH""#;

#[test]
fn a_minted_report_is_minted_and_the_environment_is_cold_and_complete() {
    let d = tempfile::tempdir().unwrap();
    let script = format!(
        r#"for v in TORCHINDUCTOR_CACHE_DIR TRITON_CACHE_DIR TORCH_TRACE LANE_ARTIFACTS_DIR; do eval "p=\$$v"; [ -d "$p" ] || exit 9; [ -z "$(ls -A "$p")" ] || exit 8; done
mkdir -p "$LANE_ARTIFACTS_DIR/package" && echo wrapper > "$LANE_ARTIFACTS_DIR/package/w.cpp" && echo '{{"XBLOCK": 512}}' > "$LANE_ARTIFACTS_DIR/k.best_config"
{MINTED}"#
    );
    let r = run_agent(&spec(d.path(), &script, 30)).unwrap();
    assert_eq!(r.outcome, Outcome::Minted, "{r:?}");
    assert_eq!(r.end, ProcessEnd::Exited { code: 0 });
    let paths: Vec<_> = r.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["k.best_config", "package/w.cpp"]);
    assert_eq!(
        r.files[1].sha256,
        format!("{:x}", <sha2::Sha256 as sha2::Digest>::digest(b"wrapper\n"))
    );
    assert!(d.path().join("result.json").is_file());
    assert!(!d.path().join("agent.lock").exists());
}

#[test]
fn no_report_is_crashed_and_keeps_its_seconds() {
    let d = tempfile::tempdir().unwrap();
    let r = run_agent(&spec(d.path(), "sleep 0.2; exit 4", 30)).unwrap();
    assert_eq!(r.outcome, Outcome::Crashed);
    assert_eq!(r.report, ReportState::Absent);
    assert!(r.wall_s >= 0.2, "{}", r.wall_s);
    assert_eq!(r.reason, "exited 4 without writing a report");
}

#[test]
fn a_truncated_report_is_named() {
    let d = tempfile::tempdir().unwrap();
    let r = run_agent(&spec(
        d.path(),
        r#"printf '{"status":"mint' > "$LANE_REPORT_PATH""#,
        30,
    ))
    .unwrap();
    assert_eq!(r.outcome, Outcome::Crashed);
    assert!(
        matches!(r.report, ReportState::Invalid { .. }),
        "{:?}",
        r.report
    );
    assert!(r.reason.contains("unreadable"), "{}", r.reason);
}

#[test]
fn a_report_of_another_cell_is_failed_and_named() {
    let d = tempfile::tempdir().unwrap();
    let r = run_agent(&spec(
        d.path(),
        r#"printf '{"status":"minted","cell":"flux","recipe":"dynamo"}' > "$LANE_REPORT_PATH""#,
        30,
    ))
    .unwrap();
    assert_eq!(r.outcome, Outcome::Failed);
    assert!(r.reason.contains("cell `flux`"), "{}", r.reason);
    let d = tempfile::tempdir().unwrap();
    let r = run_agent(&spec(
        d.path(),
        r#"printf '{"status":"minted","recipe":"aot"}' > "$LANE_REPORT_PATH""#,
        30,
    ))
    .unwrap();
    assert_eq!(r.outcome, Outcome::Failed);
    assert!(r.reason.contains("aot"), "{}", r.reason);
}

#[test]
fn refused_failed_and_resource_come_from_the_report() {
    for (status, outcome) in [
        ("refused", Outcome::Refused),
        ("failed", Outcome::Failed),
        ("resource", Outcome::Resource),
    ] {
        let d = tempfile::tempdir().unwrap();
        let script = format!(
            r#"printf '{{"status":"{status}","recipe":"dynamo"}}' > "$LANE_REPORT_PATH"; exit 1"#
        );
        assert_eq!(
            run_agent(&spec(d.path(), &script, 30)).unwrap().outcome,
            outcome,
            "{status}"
        );
    }
}

#[test]
fn megabytes_of_stdout_are_counted_not_kept() {
    let d = tempfile::tempdir().unwrap();
    let script =
        format!("head -c 8000000 /dev/zero | tr '\\0' x; echo; echo last-line >&2; {MINTED}");
    let r = run_agent(&spec(d.path(), &script, 60)).unwrap();
    assert_eq!(r.outcome, Outcome::Minted);
    assert!(r.output_bytes >= 8_000_000, "{}", r.output_bytes);
    assert!(r.stderr_tail.contains("last-line"));
    assert!(serde_json::to_vec(&r).unwrap().len() < 100_000);
}

#[test]
fn a_timeout_kills_the_whole_process_group() {
    let d = tempfile::tempdir().unwrap();
    let pidfile = d.path().join("grandchild.pid");
    let script = format!("sleep 30 & echo $! > {}; wait", pidfile.display());
    let start = Instant::now();
    let r = run_agent(&spec(&d.path().join("m"), &script, 1)).unwrap();
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(r.outcome, Outcome::Crashed);
    assert_eq!(r.end, ProcessEnd::TimedOut { after_s: 1 });
    let pid: u32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !lane_mint::agent::pid_alive(pid),
        "the grandchild {pid} survived the timeout"
    );
}

#[test]
fn a_second_agent_on_a_claimed_folder_refuses_and_a_finished_one_is_not_rerun() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().to_owned();
    let count = d.path().join("runs");
    let script = format!("echo run >> {}; sleep 1; {MINTED}", count.display());
    let s = spec(&dir.join("m"), &script, 30);
    let s2 = s.clone();
    let first = std::thread::spawn(move || run_agent(&s2).unwrap());
    std::thread::sleep(Duration::from_millis(300));
    match run_agent(&s) {
        Err(MintError::Claimed { pid, .. }) => assert_eq!(pid, std::process::id()),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(first.join().unwrap().outcome, Outcome::Minted);
    // Run again on the finished folder: the recorded result, nothing re-run.
    assert_eq!(run_agent(&s).unwrap().outcome, Outcome::Minted);
    assert_eq!(std::fs::read_to_string(&count).unwrap().lines().count(), 1);
}

#[test]
fn the_run_store_survives_reopening_and_counts_submissions() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("runs.sqlite");
    let a = id("sdxl");
    {
        let s = RunStore::open(&path).unwrap();
        assert!(s.ensure_planned(&a).unwrap());
        assert!(
            !s.ensure_planned(&a).unwrap(),
            "planning twice adds nothing"
        );
        s.mark_submitted(&a, d.path()).unwrap();
        s.set_pid(&a, 42).unwrap();
    }
    let s = RunStore::open(&path).unwrap();
    let rows = s.rows().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].state, MintState::Submitted);
    assert_eq!(rows[0].pid, Some(42));
    s.mark_finished(&a, Outcome::Failed, "named error", Some(3.5), "{}")
        .unwrap();
    let rows = s.rows().unwrap();
    assert_eq!(
        (rows[0].outcome, rows[0].wall_s),
        (Some(Outcome::Failed), Some(3.5))
    );
    assert_eq!(s.submissions(&a).unwrap(), 1);
}

#[test]
fn the_result_bundle_goes_to_the_store_with_the_report_and_artifacts() {
    let d = tempfile::tempdir().unwrap();
    let store = d.path().join("store");
    let mut s = spec(
        &d.path().join("m"),
        &format!(
            r#"mkdir -p "$LANE_ARTIFACTS_DIR/cache" && echo cfg > "$LANE_ARTIFACTS_DIR/cache/k.best_config"; {MINTED}"#
        ),
        30,
    );
    s.store = Some(store.to_string_lossy().into_owned());
    let r = run_agent(&s).unwrap();
    let Some(lane_mint::bundle::BundleState::Stored { key, .. }) = &r.bundle else {
        panic!("{:?}", r.bundle)
    };
    assert_eq!(key, "lanes/0.93.3/mints/sdxl/L4/r1/a1/bundle.zip");
    let file = std::fs::File::open(store.join(key)).unwrap();
    let mut zip = zip::ZipArchive::new(file).unwrap();
    let mut names: Vec<String> = (0..zip.len())
        .map(|i| zip.by_index(i).unwrap().name().to_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "artifacts/cache/k.best_config",
            "report.json",
            "result.json",
            "stderr.log"
        ]
    );
}

#[test]
fn a_bundle_that_fails_to_upload_is_named_and_the_result_kept() {
    let d = tempfile::tempdir().unwrap();
    let blocker = d.path().join("not-a-folder");
    std::fs::write(&blocker, "a file where the store's folder should be").unwrap();
    let mut s = spec(&d.path().join("m"), MINTED, 30);
    s.store = Some(blocker.join("store").to_string_lossy().into_owned());
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, Outcome::Minted, "the mint itself minted");
    match &r.bundle {
        Some(lane_mint::bundle::BundleState::Failed { key, error }) => {
            assert_eq!(key, "lanes/0.93.3/mints/sdxl/L4/r1/a1/bundle.zip");
            assert!(!error.is_empty());
        }
        other => panic!("{other:?}"),
    }
    let kept: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.path().join("m/result.json")).unwrap()).unwrap();
    assert_eq!(kept["bundle"]["kind"], "failed");
}
