//! `lane report` through the binary: the markdown from a real results
//! folder (snapshot), `--post --dry-run` writing the exact requests, and
//! no token in any output.

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

fn demo(v: &str) -> String {
    format!("{ROOT}/tests/data/results-demo/{v}")
}

fn run(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let lane_file = format!("{ROOT}/lanes/0.93.3.yaml");
    let results = demo("0.93.3");
    let baseline = demo("0.93.2");
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
fn report_renders_the_real_results_folder() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let path = dir.path().join("out/lanes/0.93.3/report.md");
    assert_eq!(stdout(&o).trim(), "out/lanes/0.93.3/report.md");
    let md = std::fs::read_to_string(&path).unwrap();
    assert!(md.contains("differs by autotune configs only"));
    // The missing repeat: no numbers, and its job keeps its seconds.
    assert!(md.contains("| resource | 12.400 s | no report |"), "{md}");
    insta::assert_snapshot!("report_results_demo", md);
}

#[test]
fn dry_run_writes_the_exact_requests_and_posts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane_env(
        dir.path(),
        &[
            "report",
            &format!("{ROOT}/lanes/0.93.3.yaml"),
            "--results",
            &demo("0.93.3"),
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
    let req = PathBuf::from(dir.path()).join("out/lanes/0.93.3/requests");
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
        .starts_with("<!-- lane-report lane=0.93.3 -->"));
    let check: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(req.join("003-check-run.json")).unwrap())
            .unwrap();
    assert_eq!(check["body"]["conclusion"], "neutral");
    assert_eq!(check["body"]["name"], "lane 0.93.3");
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
            &format!("{ROOT}/lanes/0.93.3.yaml"),
            "--results",
            &demo("0.93.3"),
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
    let lane_file = format!("{ROOT}/lanes/probe.yaml");
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
