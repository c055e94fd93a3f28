//! `lane report` writes `report.json` and `report.html` next to the
//! markdown: the static page on the real results folder (snapshot), with
//! no script and nothing external, and the model as JSON.

use super::report::run as report;
use super::{code, stderr, stdout};

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
    assert!(html.contains("no report (job wall 12.400 s)"));
    assert!(html.contains("overlay, not summed"));
    assert!(html.contains("Baseline 0.93.2 vs this lane"));
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
