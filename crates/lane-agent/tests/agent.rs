//! The agent with real child processes: classification by the report's
//! status, the process group's timeout, the claim, the result bundle, the
//! wheel check, and the real gen-worker child's recorded reports and cells.

use lane_agent::agent::{run_agent, AgentSpec};
use lane_core::{MintId, MintStatus, ProcessEnd, Recipe, ReportState};
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

/// The agent's defaults, running `sh -c script` in `dir`.
fn spec(dir: &Path, script: &str, timeout_s: u64) -> AgentSpec {
    let command = vec!["sh".into(), "-c".into(), script.into()];
    AgentSpec::new(
        id("sdxl"),
        Recipe::Dynamo,
        dir.to_owned(),
        command,
        Duration::from_secs(timeout_s),
    )
}

/// A mint that keeps its cell in `$LANE_ARTIFACTS_DIR` (a mint other than
/// the upstream's names none in its report) and says `minted`.
const MINTED: &str = r#"echo cell > "$LANE_ARTIFACTS_DIR/cell.bin"; printf '{"status":"minted","recipe":"dynamo","phases":{"load":1.0}}' > "$LANE_REPORT_PATH""#;

#[test]
fn a_minted_report_is_minted_and_the_environment_is_cold_and_complete() {
    let d = tempfile::tempdir().unwrap();
    let script = format!(
        r#"for v in TORCHINDUCTOR_CACHE_DIR TRITON_CACHE_DIR TORCH_TRACE LANE_ARTIFACTS_DIR; do eval "p=\$$v"; [ -d "$p" ] || exit 9; [ -z "$(ls -A "$p")" ] || exit 8; done
mkdir -p "$LANE_ARTIFACTS_DIR/package" && echo wrapper > "$LANE_ARTIFACTS_DIR/package/w.cpp" && echo '{{"XBLOCK": 512}}' > "$LANE_ARTIFACTS_DIR/k.best_config"
{MINTED}"#
    );
    let r = run_agent(&spec(d.path(), &script, 30)).unwrap();
    assert_eq!(r.outcome, MintStatus::Minted, "{r:?}");
    assert_eq!(r.end, ProcessEnd::Exited { code: 0 });
    let paths: Vec<_> = r.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["cell.bin", "k.best_config", "package/w.cpp"]);
    assert_eq!(
        r.files[2].sha256,
        format!("{:x}", <sha2::Sha256 as sha2::Digest>::digest(b"wrapper\n"))
    );
    assert!(d.path().join("result.json").is_file());
    assert!(!d.path().join("agent.lock").exists());
}

#[test]
fn no_report_is_crashed_and_keeps_its_seconds() {
    let d = tempfile::tempdir().unwrap();
    let r = run_agent(&spec(d.path(), "sleep 0.2; exit 4", 30)).unwrap();
    assert_eq!(r.outcome, MintStatus::Crashed);
    assert_eq!(r.report, ReportState::Absent);
    assert!(r.wall_s.is_some_and(|w| w >= 0.2), "{:?}", r.wall_s);
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
    assert_eq!(r.outcome, MintStatus::Crashed);
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
    assert_eq!(r.outcome, MintStatus::Failed);
    assert!(r.reason.contains("cell `flux`"), "{}", r.reason);
    let d = tempfile::tempdir().unwrap();
    let r = run_agent(&spec(
        d.path(),
        r#"printf '{"status":"minted","recipe":"aot"}' > "$LANE_REPORT_PATH""#,
        30,
    ))
    .unwrap();
    assert_eq!(r.outcome, MintStatus::Failed);
    assert!(r.reason.contains("aot"), "{}", r.reason);
}

#[test]
fn refused_failed_and_resource_come_from_the_report() {
    for (status, outcome) in [
        ("refused", MintStatus::Refused),
        ("failed", MintStatus::Failed),
        ("resource", MintStatus::Resource),
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
    assert_eq!(r.outcome, MintStatus::Minted);
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
    assert_eq!(r.outcome, MintStatus::Crashed);
    assert_eq!(r.end, ProcessEnd::TimedOut { after_s: 1 });
    let pid: u32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !lane_agent::agent::pid_alive(pid),
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
        Err(lane_agent::AgentError::Claimed { pid, .. }) => assert_eq!(pid, std::process::id()),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(first.join().unwrap().outcome, MintStatus::Minted);
    // Run again on the finished folder: the recorded result, nothing re-run.
    assert_eq!(run_agent(&s).unwrap().outcome, MintStatus::Minted);
    assert_eq!(std::fs::read_to_string(&count).unwrap().lines().count(), 1);
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
    let Some(lane_core::BundleState::Stored { key, .. }) = &r.bundle else {
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
            "artifacts/cell.bin",
            "manifest.json",
            "report.json",
            "result.json",
            "stderr.log"
        ]
    );
}

/// A mint whose report names its cell (`artifact`), outside `artifacts/`.
const MINTED_NAMED: &str = r#"mkdir -p out && echo the-cell > out/cell.tar.gz && printf '{"status":"minted","recipe":"dynamo","artifact":"out/cell.tar.gz","phases":{"load":1.0}}' > "$LANE_REPORT_PATH""#;

#[test]
fn a_cell_the_report_names_travels_under_its_own_key_named_in_the_manifest() {
    use lane_core::Contract;
    let d = tempfile::tempdir().unwrap();
    let store = d.path().join("store");
    let mut s = spec(&d.path().join("m"), MINTED_NAMED, 30);
    s.store = Some(store.to_string_lossy().into_owned());
    let r = run_agent(&s).unwrap();
    let Some(lane_core::BundleState::Stored { key, stored, .. }) = &r.bundle else {
        panic!("{:?}", r.bundle)
    };
    let sha = lane_store::sha256_hex(b"the-cell\n");
    let cell_key = format!("lanes/0.93.3/mints/sdxl/L4/r1/a1/files/{sha}");
    assert_eq!(
        stored,
        &[lane_core::StoredFile {
            path: "artifacts/cell.tar.gz".into(),
            key: cell_key.clone(),
            size: 9,
            sha256: sha,
        }]
    );
    assert_eq!(std::fs::read(store.join(&cell_key)).unwrap(), b"the-cell\n");
    // Not inlined: the bundle's manifest names it instead.
    let mut zip = zip::ZipArchive::new(std::fs::File::open(store.join(key)).unwrap()).unwrap();
    assert!(zip.by_name("artifacts/cell.tar.gz").is_err());
    let mut text = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("manifest.json").unwrap(), &mut text).unwrap();
    let manifest = lane_core::BundleManifest::from_json("manifest.json", text.as_bytes()).unwrap();
    assert_eq!(&manifest.stored, stored);
}

#[test]
fn a_cell_that_does_not_reach_the_store_leaves_no_bundle_and_is_named() {
    let d = tempfile::tempdir().unwrap();
    let store = d.path().join("store");
    // A file where the attempt's stored files would go: their put fails.
    let attempt = store.join("lanes/0.93.3/mints/sdxl/L4/r1/a1");
    std::fs::create_dir_all(&attempt).unwrap();
    std::fs::write(attempt.join("files"), "in the way").unwrap();
    let mut s = spec(&d.path().join("m"), MINTED_NAMED, 30);
    s.store = Some(store.to_string_lossy().into_owned());
    s.upload_window = Duration::from_millis(600);
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Minted, "the mint itself minted");
    match &r.bundle {
        Some(lane_core::BundleState::Failed { key, error }) => {
            assert_eq!(key, "lanes/0.93.3/mints/sdxl/L4/r1/a1/bundle.zip");
            assert!(
                error.starts_with(
                    "storing artifacts/cell.tar.gz under lanes/0.93.3/mints/sdxl/L4/r1/a1/files/"
                ),
                "{error}"
            );
            // Tried again within the window, and says so.
            assert!(error.contains("the upload window"), "{error}");
            assert!(!error.contains("refused it 1 time(s)"), "{error}");
        }
        other => panic!("{other:?}"),
    }
    // The attempt's result is whole or absent: no bundle without its cell.
    assert!(!attempt.join("bundle.zip").exists());
}

#[test]
fn a_store_outage_shorter_than_the_upload_window_loses_nothing() {
    let d = tempfile::tempdir().unwrap();
    let store = d.path().join("store");
    // The outage: a file where the attempt's stored files go, for 1.5 s.
    let attempt = store.join("lanes/0.93.3/mints/sdxl/L4/r1/a1");
    std::fs::create_dir_all(&attempt).unwrap();
    let blocker = attempt.join("files");
    std::fs::write(&blocker, "in the way").unwrap();
    let mut s = spec(&d.path().join("m"), MINTED_NAMED, 30);
    s.store = Some(store.to_string_lossy().into_owned());
    s.upload_window = Duration::from_secs(60);
    let ends = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(1500));
        std::fs::remove_file(&blocker).unwrap();
        Instant::now()
    });
    let r = run_agent(&s).unwrap();
    let store_back = ends.join().unwrap();
    assert_eq!(r.outcome, MintStatus::Minted, "{r:?}");
    assert!(
        matches!(&r.bundle, Some(lane_core::BundleState::Stored { .. })),
        "{:?}",
        r.bundle
    );
    assert!(attempt.join("bundle.zip").is_file());
    assert!(
        Instant::now() >= store_back,
        "the agent ended only after the store came back"
    );
}

#[test]
fn a_bundle_that_fails_to_upload_is_named_and_the_result_kept() {
    let d = tempfile::tempdir().unwrap();
    let blocker = d.path().join("not-a-folder");
    std::fs::write(&blocker, "a file where the store's folder should be").unwrap();
    let mut s = spec(&d.path().join("m"), MINTED, 30);
    s.store = Some(blocker.join("store").to_string_lossy().into_owned());
    s.upload_window = Duration::ZERO;
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Minted, "the mint itself minted");
    match &r.bundle {
        Some(lane_core::BundleState::Failed { key, error }) => {
            assert_eq!(key, "lanes/0.93.3/mints/sdxl/L4/r1/a1/bundle.zip");
            assert!(!error.is_empty());
        }
        other => panic!("{other:?}"),
    }
    let kept: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.path().join("m/result.json")).unwrap()).unwrap();
    assert_eq!(kept["bundle"]["kind"], "failed");
}

#[test]
fn a_wheel_that_is_not_the_staged_one_fails_the_attempt_without_running_the_mint() {
    let d = tempfile::tempdir().unwrap();
    let wheel = d.path().join("lanewheel-0.93.3-py3-none-any.whl");
    std::fs::write(&wheel, b"not the staged bytes").unwrap();
    let ran = d.path().join("ran");
    let mut s = spec(
        &d.path().join("mint"),
        &format!("touch {}; {MINTED}", ran.display()),
        30,
    );
    s.wheel = Some(lane_agent::agent::WheelSource::Url {
        url: format!("file://{}", wheel.display()),
        sha256: "0".repeat(64),
    });
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Failed, "{r:?}");
    assert!(
        r.reason.contains("the wheel") && r.reason.contains("sha256"),
        "{}",
        r.reason
    );
    assert!(!ran.exists(), "the mint ran without its wheel");
    // A result is written (and would be bundled): the attempt is not lost.
    assert!(d.path().join("mint/result.json").is_file());
}

/// A wheel whose `Requires-Python` no interpreter here meets (as gen-worker
/// 0.93.3 requires 3.12 on a 3.11 machine), made with Python's zipfile.
fn wheel_for_a_python_not_here(dir: &Path) -> std::path::PathBuf {
    let wheel = dir.join("badpy-0.1-py3-none-any.whl");
    let script = format!(
        "import zipfile\nwith zipfile.ZipFile({:?}, 'w') as z:\n    \
         z.writestr('badpy/__init__.py', '')\n    \
         z.writestr('badpy-0.1.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: badpy\\nVersion: 0.1\\nRequires-Python: >=3.99\\n')\n    \
         z.writestr('badpy-0.1.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: lane-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')\n    \
         z.writestr('badpy-0.1.dist-info/RECORD', '')\n",
        wheel.display().to_string()
    );
    let made = std::process::Command::new("python3")
        .args(["-c", &script])
        .status()
        .unwrap();
    assert!(made.success());
    wheel
}

/// Regression: a wheel uv would not install read "cannot start the agent",
/// uv's own reason only in agent.log. The real uv's reason is now the
/// attempt's.
#[test]
fn a_wheel_uv_will_not_install_fails_with_uvs_own_reason() {
    let d = tempfile::tempdir().unwrap();
    let wheel = wheel_for_a_python_not_here(d.path());
    // The only test of this binary that installs a wheel: the agent finds
    // uv through LANE_UV, as its pods do.
    std::env::set_var("LANE_UV", lane_testkit::tools::uv());
    let ran = d.path().join("ran");
    let mut s = spec(
        &d.path().join("mint"),
        &format!("touch {}; {MINTED}", ran.display()),
        60,
    );
    s.wheel = Some(lane_agent::agent::WheelSource::File(wheel));
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Failed, "{r:?}");
    assert!(
        r.reason.contains("does not satisfy Python>=3.99"),
        "{}",
        r.reason
    );
    assert!(!ran.exists(), "the mint ran without its wheel");
}

/// The real gen-worker 0.93.3 records (tests/data/gw-0.93.3-h200).
fn real(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/gw-0.93.3-h200")
        .join(rel)
}

/// A mint that plays the real mint child's part with its recorded bytes:
/// writes the report where the child writes it (`rig/mint/report.json`)
/// and the packed cell where its `artifact` says.
fn replays(report: &Path, cell: Option<&Path>) -> String {
    let mut s = format!(
        "mkdir -p rig/mint && cp '{}' rig/mint/report.json",
        report.display()
    );
    if let Some(cell) = cell {
        s.push_str(&format!(" && cp '{}' rig/mint/cell.tar.gz", cell.display()));
    }
    s
}

/// The agent's spec of a rig cell (`cell`, `recipe`) whose mint replays
/// `report` (and `cell_file`) as the real child writes them.
fn rig_spec(
    dir: &Path,
    cell: &str,
    recipe: &str,
    report: &Path,
    cell_file: Option<&Path>,
) -> AgentSpec {
    let mut s = spec(dir, &replays(report, cell_file), 30);
    s.recipe = recipe.into();
    s.id = id(cell);
    s.report = Some("rig/mint/report.json".into());
    s
}

#[test]
fn the_real_childs_report_is_read_where_the_cell_says_and_its_cell_gathered() {
    let d = tempfile::tempdir().unwrap();
    let slot = real("h200-run/results/rig-aot/H200/r1");
    let s = rig_spec(
        d.path(),
        "rig-aot",
        "aot",
        &slot.join("report.json"),
        Some(&slot.join("artifacts/cell.tar.gz")),
    );
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Minted, "{r:?}");
    assert_eq!(
        r.reason,
        "the report says `minted` (phase `finalize`): exported 3 graph class(es) for family 'microrig' as one aot-inductor cell"
    );
    match &r.gathering.artifact {
        Some(lane_core::ArtifactState::Gathered {
            named,
            file,
            digest_matches,
            size,
            ..
        }) => {
            assert_eq!(named, "rig/mint/cell.tar.gz");
            assert_eq!(file, "cell.tar.gz");
            // The real report's `digest` is the sha256 of the real cell.
            assert_eq!(*digest_matches, Some(true));
            assert_eq!(*size, 2_295_760);
        }
        other => panic!("not gathered: {other:?}"),
    }
    assert_eq!(
        r.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(),
        ["cell.tar.gz"]
    );
    // Gathering and bundles find the report as report.json in the mint folder.
    assert_eq!(
        std::fs::read(d.path().join("report.json")).unwrap(),
        std::fs::read(slot.join("report.json")).unwrap()
    );
}

#[test]
fn an_early_death_echoing_the_default_recipe_stays_failed_with_its_detail() {
    // The real aot report of a child that died at env_seal on torch 2.11:
    // `failed`, with MintReport's default `"recipe": "dynamo"`.
    let d = tempfile::tempdir().unwrap();
    let s = rig_spec(
        d.path(),
        "rig-aot",
        "aot",
        &real("failures-torch2.11/rig-aot/report.json"),
        None,
    );
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Failed, "{r:?}");
    assert_eq!(
        r.reason,
        "the report says `failed`: AttributeError: torch._inductor.config.cpp.march does not exist"
    );
    assert_eq!(r.gathering.notes.len(), 1, "{:?}", r.gathering.notes);
    assert!(r.gathering.notes[0].contains("`recipe` echo is `dynamo`, not `aot`"));
    assert_eq!(
        r.gathering.artifact, None,
        "a failed report names no artifact"
    );
}

#[test]
fn the_upstreams_cubin_gate_refusal_reaches_the_reason_bounded() {
    let d = tempfile::tempdir().unwrap();
    let s = rig_spec(
        d.path(),
        "rig-dynamo",
        "dynamo",
        &real("h200-run-unshimmed-gw/results/rig-dynamo/H200/r1/report.json"),
        None,
    );
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Failed);
    assert!(
        r.reason.starts_with(
            "the report says `failed`: RuntimeError: cubin-completeness gate (pgw#698)"
        ),
        "{}",
        r.reason
    );
    assert!(r.reason.ends_with('…'), "bounded: {}", r.reason);
}

#[test]
fn a_minted_report_whose_cell_is_missing_is_crashed_not_minted() {
    let d = tempfile::tempdir().unwrap();
    let slot = real("h200-run/results/rig-dynamo/H200/r1");
    let s = rig_spec(
        d.path(),
        "rig-dynamo",
        "dynamo",
        &slot.join("report.json"),
        None,
    );
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Crashed, "{r:?}");
    assert!(
        r.reason
            .ends_with("but its artifact `rig/mint/cell.tar.gz` was not gathered: no such file"),
        "{}",
        r.reason
    );
}

#[test]
fn a_cell_over_the_artifact_cap_fails_with_the_cap_named() {
    let d = tempfile::tempdir().unwrap();
    let slot = real("h200-run/results/rig-dynamo/H200/r1");
    let mut s = rig_spec(
        d.path(),
        "rig-dynamo",
        "dynamo",
        &slot.join("report.json"),
        Some(&slot.join("artifacts/cell.tar.gz")),
    );
    s.max_artifact_bytes = 1 << 20;
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Failed, "{r:?}");
    assert!(
        r.reason
            .ends_with("was not gathered: 1378027 bytes, over the 1048576-byte artifact cap"),
        "{}",
        r.reason
    );
    assert!(r.files.is_empty(), "nothing half-copied: {:?}", r.files);
}

#[test]
fn the_source_tree_reaches_the_mint_as_lane_source_dir() {
    let d = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(src.path().join("scripts")).unwrap();
    std::fs::write(src.path().join("scripts/rig.sh"), "echo rig").unwrap();
    let mut s = spec(
        d.path(),
        &format!(r#"[ -f "$LANE_SOURCE_DIR/scripts/rig.sh" ] || exit 9; {MINTED}"#),
        30,
    );
    s.source = Some(lane_agent::source::SourceTree::Dir(src.path().to_owned()));
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Minted, "{r:?}");
}

#[path = "agent/isolation.rs"]
mod isolation;

#[path = "agent/eras.rs"]
mod eras;
