//! Warm repeats recorded on purpose (`lanes/0.0.4.yaml`, `lanes/0.0.5.yaml`,
//! minted through `lane mint` on an H100: `tests/data/gw-eras/warm`): the
//! second repeat of each took what the first compiled, through a cache the
//! cell shared. lane calls them warm everywhere, and no yes rests on them.

use super::{code, lane, report_with_history, stderr, stdout, ROOT};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The workspace, so outputs name the recordings as a person types them.
fn here() -> PathBuf {
    PathBuf::from(ROOT)
}

const WARM: &str = "tests/data/gw-eras/warm";

fn slot(tag: &str, cell: &str, r: &str) -> String {
    format!("{WARM}/{tag}/results/{cell}/H100/{r}")
}

#[test]
fn the_warm_0_126_3_pair_is_identical_but_never_a_proof_of_determinism() {
    let (a, b) = (
        slot("v0.126.3", "rig-aot", "r1"),
        slot("v0.126.3", "rig-aot", "r2"),
    );
    let o = lane(&here(), &["diff", &a, &b, "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "identical_not_proven");
    // r1 compiled every class, but through a cache the cell shares with
    // every attempt that names it: not proven. r2 resolved every class.
    assert_eq!(v["coldness"]["a"]["cold"], "unknown");
    let why_a = v["coldness"]["a"]["why"].as_str().unwrap();
    assert!(
        why_a.ends_with(
            "but the cell shares a cache with other attempts: /tmp/tensorhub-cache (a fixed cache \
             the cell names: kept from the machine's /tmp, shared with every attempt that names it)"
        ),
        "{why_a}"
    );
    assert_eq!(v["coldness"]["b"]["cold"], "warm");
    let o = lane(&here(), &["diff", &a, &b, "--fail-on", "unexplained"]);
    assert_eq!(code(&o), 7, "identical bytes of a warm pair are no pass");
}

/// Each warm lane's report, as `lane report` renders it from the recording.
fn report(version: &str, tag: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let lane_file = format!("{ROOT}/lanes/{version}.yaml");
    let results = format!("{ROOT}/{WARM}/{tag}/results");
    let o = lane(
        dir.path(),
        &["report", &lane_file, "--results", &results, "--no-history"],
    );
    assert_eq!(code(&o), 0, "{tag}: {}", stderr(&o));
    std::fs::read_to_string(dir.path().join(format!("out/lanes/{version}/report.md")))
        .unwrap()
        .replace(ROOT, "<ROOT>")
}

#[test]
fn no_report_of_a_warm_lane_says_yes() {
    let md = report("0.0.4", "v0.126.3");
    assert!(md.contains("**Can this lane ship?** **No:"), "{md}");
    assert!(
        md.contains("**Why do the bytes differ?** **Cannot tell: 1 of 1 diffed cell(s) are identical, but their repeats are not proven cold"),
        "{md}"
    );
    assert!(
        md.contains("rig-aot on H100 r2: error finding (not\\_cold)"),
        "{md}"
    );
    insta::assert_snapshot!("report_warm_lane_0_0_4", md);
    let md = report("0.0.5", "v0.127.2");
    assert!(md.contains("**Can this lane ship?** **No:"), "{md}");
    assert!(
        md.contains("compile-toy on H100 r2: error finding (not\\_cold)"),
        "{md}"
    );
    insta::assert_snapshot!("report_warm_lane_0_0_5", md);
}

/// The cold 0.127.2 pair lane minted on the H200 (`gw-eras/lanes`), its
/// second repeat's verdict replaced by the warm recording's (`present`
/// three times, as `gen-worker compile` wrote it on the H100).
fn lane_with_a_warm_second_repeat(to: &Path) {
    let from = PathBuf::from(ROOT).join("tests/data/gw-eras/lanes/v0.127.2/results");
    for f in [
        "summary.json",
        "compile-toy/H200/r1/mint.json",
        "compile-toy/H200/r1/report.json",
        "compile-toy/H200/r2/mint.json",
    ] {
        std::fs::create_dir_all(to.join(f).parent().unwrap()).unwrap();
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
    std::fs::copy(
        PathBuf::from(ROOT).join(slot("v0.127.2", "compile-toy", "r2") + "/report.json"),
        to.join("compile-toy/H200/r2/report.json"),
    )
    .unwrap();
}

#[test]
fn history_add_keeps_a_warm_repeat_out_and_says_so() {
    let d = tempfile::tempdir().unwrap();
    let results = d.path().join("results");
    lane_with_a_warm_second_repeat(&results);
    let store = d.path().join("history");
    let (results, store) = (results.display().to_string(), store.display().to_string());
    let o = lane(
        d.path(),
        &["history", "add", &results, "--history", &store, "--json"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let left_out: Vec<&str> = v["left_out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(left_out.len(), 1, "{left_out:?}");
    assert!(
        left_out[0]
            .starts_with("compile-toy H200 r2: warm (3 of 3 specialization(s) were not built here"),
        "{left_out:?}"
    );
    // Only r1's rows are history: every row is repeat 1.
    let rows = v["rows"].as_u64().unwrap();
    assert!(rows > 0);
    let o = lane(d.path(), &["history", "add", &results, "--history", &store]);
    assert!(
        stdout(&o).contains("kept out, not a cold sample: compile-toy H200 r2: warm"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_ledger_comparison_with_a_warm_side_says_so() {
    let eras = "tests/data/gw-eras/v0.126.3";
    let o = lane(
        &here(),
        &[
            "ledger",
            "--baseline",
            &format!("{eras}/r1/rig/mint/report.json"),
            "--candidate",
            &format!("{eras}/r2/rig/mint/report.json"),
            "--json",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let c = &v["comparison"];
    assert!(c["baseline"].get("not_cold").is_none(), "{c}");
    let warm = c["candidate"]["not_cold"].as_array().unwrap();
    assert_eq!(warm.len(), 1);
    assert!(warm[0]
        .as_str()
        .unwrap()
        .contains("3 of 3 class(es) were not compiled by this repeat"));
}

/// Regression: the warm 0.126.3 lane minted on the device, judged against
/// its history, read "What regressed against history? Nothing (0
/// regressed, ...)": no slot minted, so no series existed to judge.
#[test]
fn regression_a_lane_with_no_series_is_not_judged_never_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let o = report_with_history(dir.path(), "0.0.4", &format!("{WARM}/v0.126.3/results"));
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains(
            "What regressed against history? Not judged: no minted repeat of this lane gave a series to judge."
        ),
        "{}",
        stdout(&o)
    );
}
