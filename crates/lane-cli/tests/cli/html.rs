//! `lane report` writes `report.json` and `report.html` next to the
//! markdown, on the real H200 lane and its baseline: the static page has no
//! script and nothing external, and the model is JSON. (The page itself is
//! snapshotted once, by lane-render's tests.)

use super::report::run as report;
use super::{code, stderr, stdout};

#[test]
fn report_writes_html_and_json_next_to_the_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let o = report(dir.path(), &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // The answers first, then where the report is.
    let said = stdout(&o);
    assert!(said.contains("Can this lane ship?"), "{said}");
    assert_eq!(
        said.trim().lines().last(),
        Some("out/lanes/0.0.0/report.md")
    );
    let out = dir.path().join("out/lanes/0.0.0");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // The dynamo pair: inductor's pad_mm decision flipped between the cold repeats.
    assert!(html.contains("pad_mm"), "the flipped decision is named");
    assert!(html.contains("overlay, not summed"));
    assert!(html.contains("<h4>warm jobs</h4>"));
    assert!(html.contains("<h3>Against the baseline lane</h3>"));
    for banned in ["<script", "<link", "<img", "src="] {
        assert!(!html.contains(banned), "{banned}");
    }
    assert_eq!(html.matches("<svg").count(), html.matches("</svg>").count());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["lane"], "0.0.0");
    assert_eq!(json["cells"].as_array().unwrap().len(), 2);
    assert!(out.join("report.md").is_file());
}

#[test]
fn out_puts_all_three_files_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let o = report(dir.path(), &["--out", "elsewhere/comment.md", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["markdown"], "elsewhere/comment.md");
    // Named after the markdown: another report's files beside it stay.
    assert_eq!(v["json_report"], "elsewhere/comment.json");
    assert_eq!(v["html"], "elsewhere/comment.html");
    for f in ["comment.md", "comment.json", "comment.html"] {
        assert!(dir.path().join("elsewhere").join(f).is_file(), "{f}");
    }
}
