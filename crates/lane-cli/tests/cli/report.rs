//! `lane report` through the binary, on results folders `lane mint`
//! really wrote: the markdown (snapshot), `--post --dry-run` writing the
//! exact requests, no token in any output, and results of another lane
//! refused.

use std::path::PathBuf;

use super::{code, lane, stderr, stdout, ROOT};

/// Runs `lane` with `args` in `dir` and extra environment.
fn lane_env(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_lane"));
    cmd.args(args)
        .current_dir(dir)
        .env_remove("LANE_LOG")
        .env("NO_COLOR", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the lane binary runs")
}

/// The results `lane mint` really wrote: gen-worker 0.93.3's rig on an H200.
fn h200_run() -> String {
    format!("{ROOT}/tests/data/gw-0.93.3-h200/h200-run/results")
}

/// The probe lane those results are of, with PRs to post to: a lane file
/// in `dir`, named after its version as lane files are.
fn probe_lane_posting(dir: &std::path::Path) -> String {
    let probe = std::fs::read_to_string(format!("{ROOT}/lanes/0.0.0.yaml")).unwrap();
    let path = dir.join("lanes/0.0.0.yaml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        format!("{probe}github:\n  repo: cozy-creator/python-gen-worker\n  post_to: [515, 511]\n"),
    )
    .unwrap();
    path.display().to_string()
}

/// `lane report` on the real H200 lane against the same rig minted
/// without the device's cubin adaptation (its baseline), in `dir`.
pub(crate) fn run(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let lane_file = format!("{ROOT}/lanes/0.0.0.yaml");
    let results = h200_run();
    let baseline = format!("{ROOT}/tests/data/gw-0.93.3-h200/h200-run-unshimmed-gw/results");
    let mut args = vec![
        "report",
        lane_file.as_str(),
        "--results",
        results.as_str(),
        "--baseline-results",
        baseline.as_str(),
    ];
    args.extend_from_slice(extra);
    lane(dir, &args)
}

#[test]
fn dry_run_writes_the_exact_requests_and_posts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane_env(
        dir.path(),
        &[
            "report",
            &probe_lane_posting(dir.path()),
            "--results",
            &h200_run(),
            "--post",
            "--dry-run",
            "--head-sha",
            &"c".repeat(40),
            "--json",
        ],
        &[
            ("GITHUB_TOKEN", "ghp_NeverPrintMe0123456789"),
            ("GITHUB_API_URL", "http://127.0.0.1:1"),
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let req = PathBuf::from(dir.path()).join("out/lanes/0.0.0/requests");
    let mut names: Vec<String> = std::fs::read_dir(&req)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "001-comment-515.json",
            "002-comment-511.json",
            "003-check-run.json"
        ]
    );
    let first: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(req.join("001-comment-515.json")).unwrap())
            .unwrap();
    assert_eq!(first["method"], "POST");
    assert_eq!(
        first["path"],
        "/repos/cozy-creator/python-gen-worker/issues/515/comments"
    );
    assert!(first["body"]["body"]
        .as_str()
        .unwrap()
        .starts_with("<!-- lane-report lane=0.0.0 -->"));
    let check: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(req.join("003-check-run.json")).unwrap())
            .unwrap();
    // Every real mint minted; the real reports carry warning findings.
    assert_eq!(check["body"]["conclusion"], "neutral");
    assert_eq!(check["body"]["name"], "lane 0.0.0");
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!all.contains("ghp_NeverPrintMe"), "{all}");
}

#[test]
fn post_without_credentials_fails_without_posting() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane_env(
        dir.path(),
        &[
            "report",
            &probe_lane_posting(dir.path()),
            "--results",
            &h200_run(),
            "--post",
        ],
        &[
            ("GITHUB_TOKEN", ""),
            ("GITHUB_API_URL", "http://127.0.0.1:1"),
        ],
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no GitHub credentials"),
        "{}",
        stderr(&o)
    );
}

/// The report of a results folder `lane mint` really wrote: the real
/// gen-worker 0.93.3 mints on an H200 (`tests/data/gw-0.93.3-h200/h200-run`),
/// read with the real reports' shapes and the real cells' diffs.
#[test]
fn report_renders_the_real_h200_run_lane_mint_gathered() {
    let dir = tempfile::tempdir().unwrap();
    let lane_file = format!("{ROOT}/lanes/0.0.0.yaml");
    let results = format!("{ROOT}/tests/data/gw-0.93.3-h200/h200-run/results");
    let o = lane(
        dir.path(),
        &["report", &lane_file, "--results", &results, "--json"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let md = std::fs::read_to_string(dir.path().join("out/lanes/0.0.0/report.md")).unwrap();
    for cell in ["rig-dynamo", "rig-aot"] {
        assert!(md.contains(cell), "{cell}: {md}");
    }
    assert_eq!(
        md.matches("unexplained: none").count(),
        2,
        "every cause is named: {md}"
    );
    assert!(!md.contains("unexplained ("), "{md}");
    assert!(!md.contains("not diffed"), "both pairs are diffed: {md}");
    insta::assert_snapshot!("report_real_h200_run", md);
}

/// Regression: `lane report` once read any results folder as the lane it
/// was given; results of lane 0.0.0 were shown as lane 0.93.3's.
#[test]
fn results_of_another_lane_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane(
        dir.path(),
        &[
            "report",
            &format!("{ROOT}/lanes/0.93.3.yaml"),
            "--results",
            &h200_run(),
        ],
    );
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("are lane 0.0.0's, not lane 0.93.3's"),
        "{}",
        stderr(&o)
    );
}

/// A baseline lane's results are compared cell by cell: the same rig
/// minted without the device's cubin adaptation, whose dynamo mints failed.
#[test]
fn a_baseline_lanes_results_are_compared_cell_by_cell() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/lanes/0.0.0/report.json")).unwrap(),
    )
    .unwrap();
    let cells = json["cells"].as_array().unwrap();
    let cell = |name: &str| cells.iter().find(|c| c["cell"] == name).unwrap();
    // Both aot lanes minted: compared row by row.
    assert!(cell("rig-aot")["comparison"]["rows"].is_array());
    // The baseline's dynamo mints failed before their warm ledger: the two
    // ledgers are not summed against each other, and the cell says so.
    assert_eq!(
        cell("rig-dynamo")["comparison_note"],
        "refusing to mix ledger versions: phases_only and warm_spans_v1"
    );
}

/// Regression (issue 19, item 3): `lane report` took a summary edited to
/// say green beside slots whose `mint.json` say failed, with a slot named
/// `0.0.0/../../../etc/H200/r1` and one missing, without a word. The report
/// reads every planned slot's record and its check fails naming each
/// disagreement.
#[test]
fn regression_report_names_where_an_edited_summary_disagrees_with_its_slots() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let cp = std::process::Command::new("cp")
        .arg("-r")
        .arg(h200_run())
        .arg(&results)
        .status()
        .unwrap();
    assert!(cp.success());
    for r in ["r1", "r2"] {
        let path = results.join(format!("rig-aot/H200/{r}/mint.json"));
        let text = std::fs::read_to_string(&path).unwrap();
        let failed = text.replacen("\"status\": \"minted\"", "\"status\": \"failed\"", 1);
        assert_ne!(text, failed);
        std::fs::write(&path, failed).unwrap();
    }
    let path = results.join("summary.json");
    let mut summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mints = summary["mints"].as_array_mut().unwrap();
    mints[2]["slot"] = "0.0.0/../../../etc/H200/r1".into();
    mints.pop();
    std::fs::write(&path, serde_json::to_vec_pretty(&summary).unwrap()).unwrap();
    let lane_file = format!("{ROOT}/lanes/0.0.0.yaml");
    let o = lane(
        dir.path(),
        &["report", &lane_file, "--results", &results.display().to_string()],
    );
    let md = std::fs::read_to_string(dir.path().join("out/lanes/0.0.0/report.md")).unwrap();
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/lanes/0.0.0/report.json")).unwrap(),
    )
    .unwrap();
    insta::assert_json_snapshot!("report_disagreements", json["disagreements"]);
    assert!(
        md.contains("summary.json disagrees with the slots: "),
        "{md}"
    );
    assert!(md.contains("the check fails"), "{md}");
    assert_eq!(code(&o), 0, "a report is written, failing: {}", stderr(&o));
}
