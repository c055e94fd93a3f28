//! `lane report` writes `report.json` and `report.html` next to the
//! markdown: the static page on the real results folder (snapshot), with
//! no script and nothing external, and the model as JSON.

use super::{code, lane, stderr, stdout, ROOT};

fn demo(v: &str) -> String {
    format!("{ROOT}/tests/data/results-demo/{v}")
}

fn report(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
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
fn report_writes_html_and_json_next_to_the_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let o = report(dir.path(), &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "out/lanes/0.93.3/report.md");
    let out = dir.path().join("out/lanes/0.93.3");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("differs by autotune configs only"));
    // The missing repeat: no numbers, and its job keeps its seconds.
    assert!(html.contains("<td class=\"num\">12.400 s</td><td class=\"absent\">no report</td>"));
    assert!(html.contains("overlay, not summed"));
    assert!(html.contains("<h4>warm jobs</h4>"));
    assert!(html.contains("<h3>Against the baseline lane</h3>"));
    for banned in ["<script", "<link", "<img", "src="] {
        assert!(!html.contains(banned), "{banned}");
    }
    assert_eq!(html.matches("<svg").count(), html.matches("</svg>").count());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["lane"], "0.93.3");
    assert_eq!(json["cells"].as_array().unwrap().len(), 3);
    assert!(out.join("report.md").is_file());
    insta::assert_snapshot!("report_html_results_demo", html);
}

#[test]
fn out_puts_all_three_files_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let o = report(dir.path(), &["--out", "elsewhere/comment.md", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["markdown"], "elsewhere/comment.md");
    assert_eq!(v["json_report"], "elsewhere/report.json");
    assert_eq!(v["html"], "elsewhere/report.html");
    for f in ["comment.md", "report.json", "report.html"] {
        assert!(dir.path().join("elsewhere").join(f).is_file(), "{f}");
    }
}
