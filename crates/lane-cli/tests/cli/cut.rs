//! `lane cut`, `lane guard`, `lane schema` through the binary.

use super::{code, lane, stderr, stdout, Redact, ROOT};
use lane_fixture::{generate_upstream, UpstreamSpec};
use std::path::{Path, PathBuf};

struct Lane {
    dir: tempfile::TempDir,
    up: lane_fixture::Upstream,
}

impl Lane {
    fn new(picks: &str) -> Lane {
        let dir = tempfile::tempdir().unwrap();
        let up = generate_upstream(&dir.path().join("up"), &UpstreamSpec::default()).unwrap();
        std::fs::create_dir_all(dir.path().join("lanes")).unwrap();
        let text = format!(
            "version: \"0.93.3\"\nupstream:\n  repo: ../up\nbase: v0.93.2\npicks:\n{picks}version_files:\n  - {{path: pyproject.toml, kind: pyproject}}\n  - {{path: uv.lock, kind: uv-lock, package: gen-worker}}\nchangelog: {{}}\nguards:\n  - name: wire-v1\n    forbidden_commits: [{}]\n    frozen_paths: [proto/, src/gen_worker/pb/]\n",
            up.commits["wire-v1"]
        );
        std::fs::write(dir.path().join("lanes/0.93.3.yaml"), text).unwrap();
        Lane { dir, up }
    }
    fn dir(&self) -> &Path {
        self.dir.path()
    }
    fn up(&self) -> PathBuf {
        self.up.path.clone()
    }
    /// What varies in a cut's output: the test's folder and the commits
    /// the fixture and the cut made afresh.
    fn redact(&self) -> Redact {
        Redact::new().dir(self.dir(), "<TMP>").shas()
    }
}

fn git(dir: &Path, args: &[&str]) -> String {
    let o = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn cut_dry_run_json_reports_the_plan_and_exits_zero() {
    let l = Lane::new("  - pr: 515\n");
    let dry = ["cut", "0.93.3", "--dry-run", "--date", "2026-01-02"];
    let o = lane(l.dir(), &[&dry[..], &["--json"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("cut_dry_run_json", l.redact().json(&stdout(&o)));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["status"], "planned");
    assert_eq!(v["written"], false);
    assert_eq!(v["picks"][0]["outcome"], "applied");
    assert_eq!(v["picks"][0]["target"]["pr"], 515);
    assert_eq!(v["guards_after"]["verdicts"][0]["guard"], "wire-v1");
    let o = lane(l.dir(), &dry);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("cut_dry_run_text", l.redact().apply(&stdout(&o)));
    assert!(git(&l.up(), &["branch", "--list", "release/0.93.3"]).is_empty());
}

#[test]
fn cut_then_guard_pass_and_push_is_fast_forward_only() {
    let l = Lane::new("  - pr: 515\n");
    let remote = lane_fixture::bare_remote(&l.up(), &l.dir().join("remote.git")).unwrap();
    git(
        &l.up(),
        &["remote", "add", "origin", remote.to_str().unwrap()],
    );
    let o = lane(
        l.dir(),
        &["cut", "0.93.3", "--tag", "--push", "--date", "2026-01-02"],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    insta::assert_snapshot!("cut_tag_push_text", l.redact().apply(&out));
    assert!(out.contains("result: cut release/0.93.3 at"), "{out}");
    assert!(out.contains("tagged v0.93.3, pushed"), "{out}");
    let local = git(&l.up(), &["rev-parse", "release/0.93.3"]);
    assert_eq!(git(&remote, &["rev-parse", "release/0.93.3"]), local);
    assert_eq!(git(&remote, &["cat-file", "-t", "v0.93.3"]).trim(), "tag");

    let o = lane(l.dir(), &["guard", "0.93.3"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(stdout(&o).contains("guard wire-v1: passed"));
    insta::assert_snapshot!("guard_text", l.redact().apply(&stdout(&o)));
    let o = lane(l.dir(), &["guard", "0.93.3", "--json"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    insta::assert_snapshot!("guard_json", l.redact().json(&stdout(&o)));
    let o = lane(l.dir(), &["guard", "0.93.3", "--ref", "master"]);
    assert_eq!(code(&o), 4, "{}", stdout(&o));
    insta::assert_snapshot!("guard_refused_text", l.redact().apply(&stdout(&o)));
    let o = lane(l.dir(), &["guard", "0.93.3", "--ref", "master", "--json"]);
    assert_eq!(code(&o), 4, "{}", stdout(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["passed"], false);
}

#[test]
fn a_conflict_exits_5_and_names_the_pick_and_path() {
    let l = Lane::new("  - pr: 515\n  - pr: 511\n");
    let o = lane(l.dir(), &["cut", "0.93.3", "--date", "2026-01-02"]);
    assert_eq!(code(&o), 5, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    insta::assert_snapshot!("cut_conflict_text", l.redact().apply(&out));
    assert!(out.contains("PR #511"), "{out}");
    assert!(
        out.contains("CONFLICT in src/gen_worker/mint_child.py"),
        "{out}"
    );
    assert!(out.contains("exactly as it was"), "{out}");
}

#[test]
fn continue_and_abort_through_the_binary() {
    let l = Lane::new("  - pr: 515\n  - pr: 511\n");
    let o = lane(l.dir(), &["cut", "0.93.3", "--on-conflict", "stop"]);
    assert_eq!(code(&o), 5, "{}", stdout(&o));
    assert!(stdout(&o).contains("lane cut --continue"));
    let o = lane(&l.up(), &["cut", "--continue"]);
    assert_eq!(code(&o), 5, "unresolved conflicts: {}", stderr(&o));
    assert!(stderr(&o).contains("conflicts remain in src/gen_worker/mint_child.py"));
    git(
        &l.up(),
        &["checkout", "--theirs", "--", "src/gen_worker/mint_child.py"],
    );
    git(&l.up(), &["add", "src/gen_worker/mint_child.py"]);
    let o = lane(&l.up(), &["cut", "--continue", "--json"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["status"], "cut");
    let o = lane(&l.up(), &["cut", "--abort"]);
    assert_eq!(code(&o), 6, "nothing to abort: {}", stderr(&o));
}

#[test]
fn a_dirty_tree_exits_6() {
    let l = Lane::new("  - pr: 515\n");
    std::fs::write(l.up().join("README.md"), "dirty\n").unwrap();
    let o = lane(l.dir(), &["cut", "0.93.3"]);
    assert_eq!(code(&o), 6);
    assert!(stderr(&o).contains("dirty"), "{}", stderr(&o));
}

#[test]
fn a_guard_refusal_exits_4() {
    let l = Lane::new("  - pr: 516\n");
    let o = lane(l.dir(), &["cut", "0.93.3", "--date", "2026-01-02"]);
    assert_eq!(code(&o), 4, "{}", stdout(&o));
    insta::assert_snapshot!("cut_guard_refused_text", l.redact().apply(&stdout(&o)));
    assert!(
        stdout(&o).contains("changes frozen path src/gen_worker/pb/"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_malformed_lane_file_exits_3_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("0.93.3.yaml");
    std::fs::write(&p, "version: \"0.93.3\"\nupstream: {repo: x}\nbase: v0.93.2\npicks:\n  - pr: 1\n    comit: abc\n").unwrap();
    let o = lane(dir.path(), &["cut", p.to_str().unwrap(), "--dry-run"]);
    assert_eq!(code(&o), 3);
    let e = stderr(&o);
    assert!(
        e.contains("0.93.3.yaml:6:5: picks[0]: unknown field `comit`"),
        "{e}"
    );
}

#[test]
fn a_missing_lane_exits_3() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane(dir.path(), &["cut", "9.9.9"]);
    assert_eq!(code(&o), 3);
    assert!(stderr(&o).contains("no lane file lanes/9.9.9.yaml"));
}

/// Regression: a command asked for `--json` printed nothing on stdout when
/// it failed. It prints one JSON document, the error's, with its exit code.
#[test]
fn a_failing_command_under_json_prints_one_json_document() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["cut", "9.9.9", "--json"][..],
        &["status", "9.9.9", "--json"],
        &["guard", "9.9.9", "--json"],
        &["mint", "9.9.9", "--json"],
        &["report", "9.9.9", "--json"],
        &["wheel", "9.9.9", "--json"],
    ] {
        let o = lane(dir.path(), args);
        assert_eq!(code(&o), 3, "{args:?}: {}", stderr(&o));
        let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| {
            panic!(
                "{args:?}: stdout is not one JSON document ({e}): {}",
                stdout(&o)
            )
        });
        assert_eq!(doc["error"]["exit"], 3, "{args:?}");
        assert!(
            doc["error"]["message"]
                .as_str()
                .unwrap()
                .contains("no lane file lanes/9.9.9.yaml"),
            "{args:?}: {doc}"
        );
    }
    // A command that printed its document before failing prints no second one.
    let o = lane(dir.path(), &["ledger", "gone.json", "--json"]);
    assert_eq!(code(&o), 3);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one document");
    assert!(
        doc.get("mints").is_some() && doc.get("error").is_none(),
        "{doc}"
    );
}

#[test]
fn schema_prints_the_kept_schema() {
    // The kept files are its snapshots: `./just schema` writes them.
    let o = lane(Path::new(ROOT), &["schema"]);
    assert_eq!(code(&o), 0);
    let kept = std::fs::read_to_string(format!("{ROOT}/docs/lane.schema.json")).unwrap();
    assert_eq!(stdout(&o), kept);
}

#[test]
fn usage_errors_exit_2() {
    let o = lane(Path::new(ROOT), &["cut", "--no-such-flag"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn exit_codes_are_documented() {
    let doc = std::fs::read_to_string(format!("{ROOT}/docs/cli.md")).unwrap();
    for code in 0..=8 {
        assert!(
            doc.contains(&format!("\n| {code} |")),
            "exit code {code} is not in docs/cli.md"
        );
    }
}

/// Regression (issue 35): a picked commit whose subject holds ESC, an OSC
/// (set the terminal's title, ended by BEL) and a right-to-left override
/// reached the terminal raw in `lane cut --dry-run`, although foreign
/// words are made inert. A real commit in the fixture's repository.
#[test]
fn regression_a_commit_subject_with_terminal_controls_is_shown_inert() {
    let l = Lane::new("");
    let up = l.up();
    let subject = "fix \u{1b}]0;owned\u{7}title \u{1b}[2Jcleared \u{202e}gnp.exe";
    let run = |args: &[&str]| {
        let o = std::process::Command::new("git")
            .arg("-C")
            .arg(&up)
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).trim().to_owned()
    };
    run(&["checkout", "-q", "-b", "hostile", "v0.93.2"]);
    std::fs::write(up.join("hostile.txt"), "x\n").unwrap();
    run(&["add", "hostile.txt"]);
    run(&["commit", "-q", "-m", subject]);
    let sha = run(&["rev-parse", "HEAD"]);
    let file = l.dir().join("lanes/0.93.3.yaml");
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("picks:\n", &format!("picks:\n  - commit: {sha}\n"));
    std::fs::write(&file, text).unwrap();
    let o = lane(
        l.dir(),
        &["cut", "0.93.3", "--dry-run", "--date", "2026-01-02"],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("gnp.exe"), "the pick is listed: {out}");
    for raw in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!out.contains(raw), "{raw:?} reached the terminal: {out:?}");
    }
    assert!(
        out.contains("fix \\u{1b}]0;owned\\u{7}title \\u{1b}[2Jcleared \\u{202e}gnp.exe"),
        "{out}"
    );
}
