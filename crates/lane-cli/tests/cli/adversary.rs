//! The adversary's tries on a results folder (issue 35), and the map of
//! every try to its test (`docs/adversary.md`), held to the tree: each
//! test the page names exists.

use super::mint::write_lane;
use super::{code, lane, stderr, stdout, ROOT};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A lane minted once (`write_lane`: one cell, two repeats on L4), and its
/// results folder.
fn minted() -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 2, "");
    let o = lane(d.path(), &["mint", "0.93.3"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let results = d.path().join("out/lanes/0.93.3/results");
    (d, results)
}

fn report_of(results: &Path) -> PathBuf {
    results.join("cell00/L4/r1/report.json")
}

/// `history add` and `report` over `results`, each within `limit`:
/// `history add` refuses the run (exit 3) naming `file` and `why`; the
/// report names the slot's report unreadable, with why, and its check
/// fails (exit 7), the lane's other slots shown: one bad report never
/// hides a lane.
fn both_refuse(dir: &Path, results: &Path, why: &str, limit: Duration) {
    let file = report_of(results);
    let named = format!("{}: {why}", file.display());
    let r = results.to_str().unwrap();
    for (args, want) in [
        (vec!["history", "add", r], 3),
        (vec!["report", "0.93.3", "--no-history", "--results", r], 7),
    ] {
        let started = Instant::now();
        let o = lane(dir, &args);
        let took = started.elapsed();
        let (out, err) = (stdout(&o), stderr(&o));
        assert_eq!(code(&o), want, "{args:?}: {out}{err}");
        assert!(err.contains(&named), "{args:?}: {err}");
        if want == 7 {
            assert!(
                out.contains("cell00 on L4 r1: the report could not be read"),
                "{out}"
            );
            assert!(
                out.contains("cell00 on L4 r2:"),
                "the other slot is shown: {out}"
            );
        }
        assert!(took < limit, "{args:?} took {took:?}");
    }
}

#[test]
fn a_results_report_linked_to_dev_zero_is_refused_by_name() {
    let (d, results) = minted();
    std::fs::remove_file(report_of(&results)).unwrap();
    std::os::unix::fs::symlink("/dev/zero", report_of(&results)).unwrap();
    both_refuse(
        d.path(),
        &results,
        "a link to /dev/zero, outside its folder",
        Duration::from_secs(30),
    );
}

#[test]
fn a_results_report_linked_outside_its_folder_is_never_read() {
    let (d, results) = minted();
    let outside = d.path().join("outside.json");
    std::fs::write(
        &outside,
        r#"{"status":"minted","planted":"outside-the-folder"}"#,
    )
    .unwrap();
    std::fs::remove_file(report_of(&results)).unwrap();
    std::os::unix::fs::symlink(&outside, report_of(&results)).unwrap();
    both_refuse(
        d.path(),
        &results,
        &format!("a link to {}, outside its folder", outside.display()),
        Duration::from_secs(30),
    );
    // Nothing of it reached a report or the history.
    let mut written = Vec::new();
    for entry in walk(&d.path().join("out")) {
        if std::fs::read(&entry).is_ok_and(|b| {
            b.windows(b"outside-the-folder".len())
                .any(|w| w == b"outside-the-folder")
        }) {
            written.push(entry);
        }
    }
    assert!(written.is_empty(), "{written:?}");
}

#[test]
fn a_sparse_report_of_gigabytes_is_refused_above_the_cap() {
    let (d, results) = minted();
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(report_of(&results))
        .unwrap();
    f.set_len(3 << 30).unwrap();
    both_refuse(
        d.path(),
        &results,
        "file above the 268435456-byte cap",
        Duration::from_secs(120),
    );
}

/// Every file under `root` (links not followed).
fn walk(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let t = e.file_type().unwrap();
            if t.is_dir() {
                stack.push(e.path());
            } else if t.is_file() {
                out.push(e.path());
            }
        }
    }
    out
}

#[test]
fn every_test_the_adversary_page_names_exists() {
    let page = std::fs::read_to_string(Path::new(ROOT).join("docs/adversary.md")).unwrap();
    let sources: String = walk(&Path::new(ROOT).join("crates"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let named: Vec<&str> = page
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| {
            s.len() > 20
                && s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        })
        .collect();
    assert!(named.len() >= 25, "{named:?}");
    let missing: Vec<&&str> = named
        .iter()
        .filter(|n| !sources.contains(&format!("fn {n}(")))
        .collect();
    assert!(
        missing.is_empty(),
        "named in docs/adversary.md, not a test: {missing:?}"
    );
}
