//! Cells that run the upstream's own rig, in pods: the lane tree arrives
//! as the source archive `lane wheel` staged beside the wheel.

use super::*;

/// A cell that runs the upstream's own rig needs the lane tree in its pod:
/// `lane wheel` stages it beside the wheel as a source archive, the Job
/// names its presigned location and sha256, and the agent unpacks it as
/// `$LANE_SOURCE_DIR`; the cell's report is where it says, and its cell is
/// the file that report names.
#[test]
fn a_rig_cell_in_a_pod_gets_the_lane_tree_from_the_staged_source_archive() {
    let d = super::super::wheel::cut_lane();
    let store = d.path().join("store");
    let o = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(["wheel", LANE, "--store", store.to_str().unwrap(), "--json"])
        .current_dir(d.path())
        .env_remove("LANE_LOG")
        .env("LANE_TOOLS_DIR", lane_testkit::tools::dir())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let staged: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let wheel_key = staged["staged"]["wheel_key"].as_str().unwrap().to_owned();
    let source = &staged["manifest"]["source"];
    assert!(
        source["file"].as_str().unwrap().ends_with(".src.tar.gz"),
        "{staged}"
    );
    let rig = r#"grep -q '^version = "0.93.3"' "$LANE_SOURCE_DIR/pyproject.toml" || exit 9; mkdir -p rig/mint && printf cell > rig/mint/cell.tar.gz && printf '{"status":"minted","recipe":"aot","artifact":"rig/mint/cell.tar.gz","phase":"finalize"}' > rig/mint/report.json"#;
    let mut lane_file = std::fs::read_to_string(d.path().join("lanes/0.93.3.yaml")).unwrap();
    lane_file.push_str(&format!(
        "mint:\n  gpus: [L4]\n  cold_repeats: 1\n  timeout_s: 60\n  cells:\n    - name: rig-aot\n      recipe: aot\n      source: true\n      report: rig/mint/report.json\n      command: [sh, -c, {}]\n",
        serde_json::to_string(rig).unwrap()
    ));
    std::fs::write(d.path().join("lanes/0.93.3.yaml"), lane_file).unwrap();
    std::fs::write(
        d.path().join("kube.yaml"),
        format!(
            "laneImage: lane:test\nmintImage: mint:test\nnamespace: {NS}\nstore: \"file://{}\"\n",
            store.display()
        ),
    )
    .unwrap();
    let emu = emulator(d.path(), Hooks::default());
    let kubelet = kubelet(&emu, d.path());
    let mut lane = Lane(spawn_lane_with(
        d.path(),
        "run",
        &["--wheel-key", &wheel_key],
        &[],
    ));
    let jobs = wait_jobs(&emu, "one Job", |j| j.len() == 1);
    let (name, job) = jobs.iter().next().unwrap();
    let args = job["spec"]["template"]["spec"]["containers"][0]["command"].to_string();
    assert!(
        args.contains("--source-url") && args.contains("--report"),
        "{args}"
    );
    assert!(
        args.contains(source["sha256"].as_str().unwrap()),
        "the Job checks the manifest's sha256: {args}"
    );
    let end = kubelet.run_job(name, job);
    assert_eq!(
        end,
        JobEnd::Complete,
        "{}",
        std::fs::read_to_string(d.path().join(format!("{name}-p0.err"))).unwrap_or_default()
    );
    let o = lane.wait(d.path(), "run", Duration::from_secs(60));
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let slot = d
        .path()
        .join(format!("out/lanes/{LANE}/results/rig-aot/L4/r1"));
    let record = read_json(&slot.join("mint.json"));
    assert_eq!(record["status"], "minted", "{record}");
    assert_eq!(record["artifact"]["kind"], "gathered", "{record}");
    assert_eq!(
        std::fs::read(slot.join("artifacts/cell.tar.gz")).unwrap(),
        b"cell"
    );
    assert!(slot.join("report.json").is_file());
}
