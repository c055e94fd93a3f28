//! Issue 34, "every yes is a proof": `lane cut --tag`, `lane wheel` and
//! `lane publish` trust a lane branch only when it holds exactly the lane's
//! picks in order and its cut commit, on the real upstream's history
//! (`../shared/upstream/`).

use super::{code, lane, stderr, stdout, Redact, ROOT};
use lane_testkit::history::{before_release, git, mirror};
use std::path::{Path, PathBuf};
use std::process::Command;

macro_rules! needs_history {
    () => {
        match mirror() {
            Some(m) => m,
            None => return,
        }
    };
}

/// A clone before v0.93.3 with `lanes/0.93.3.yaml` (the shipped lane) in
/// the test's folder, and the same lane without its last pick (pgw#993,
/// PR #516) as `short/0.93.3.yaml`; `cut_with` (one of the two) cut in it.
fn cut_0_93_3(d: &Path, m: &Path, cut_with: &str) -> PathBuf {
    let repo = before_release(m, "0.93.3", d);
    std::fs::create_dir_all(d.join("lanes")).unwrap();
    std::fs::create_dir_all(d.join("short")).unwrap();
    let text = std::fs::read_to_string(Path::new(ROOT).join("lanes/0.93.3.yaml")).unwrap();
    std::fs::write(d.join("lanes/0.93.3.yaml"), &text).unwrap();
    let start = text.find("  # pgw#993, merged").unwrap();
    let end = start + text[start..].find("version_files:").unwrap();
    let short = format!("{}{}", &text[..start], &text[end..]);
    std::fs::write(d.join("short/0.93.3.yaml"), short).unwrap();
    let o = lane(d, &["cut", cut_with, "--repo", repo.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    repo
}

/// `lane cut --tag`, `lane wheel` (a dry run) and `lane publish` (a dry
/// run, with a token) of the lane over `repo`: each refused (exit 6) saying
/// `said`, and no tag made. The `--tag` refusal, for its snapshot.
fn refused_everywhere(d: &Path, repo: &Path, said: &str) -> String {
    let r = repo.to_str().unwrap();
    let tag = lane(d, &["cut", "0.93.3", "--repo", r, "--tag"]);
    let wheel = lane(d, &["wheel", "0.93.3", "--repo", r, "--dry-run"]);
    let publish = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(["publish", "0.93.3", "--repo", r, "--dry-run"])
        .current_dir(d)
        .env_remove("LANE_LOG")
        .env("NO_COLOR", "1")
        .env("LANE_INDEX_URL", "http://127.0.0.1:9/")
        .env("LANE_INDEX_TOKEN", "never-used")
        .output()
        .unwrap();
    for o in [&tag, &wheel, &publish] {
        assert_eq!(code(o), 6, "{}{}", stdout(o), stderr(o));
        assert!(stderr(o).contains(said), "{said}: {}", stderr(o));
    }
    assert!(git(repo, &["tag", "-l", "v0.93.3"]).is_empty());
    assert!(!d.join("out/store").exists(), "nothing staged");
    redact(d).apply(&stderr(&tag))
}

fn redact(d: &Path) -> Redact {
    Redact::new().dir(d, "<TMP>").shas()
}

/// Issue 34: a release branch missing one of the lane's picks was tagged
/// (`tagged v0.93.3 ... exit 0`), and `lane wheel` and `lane publish`
/// trusted its head.
#[test]
fn regression_tag_wheel_and_publish_refuse_a_branch_missing_a_pick() {
    let m = needs_history!();
    let d = tempfile::tempdir().unwrap();
    let repo = cut_0_93_3(d.path(), m, "short/0.93.3.yaml");
    let refused = refused_everywhere(d.path(), &repo, "missing pick 6f5db9ed");
    insta::assert_snapshot!("proof_tag_refuses_a_missing_pick", refused);
}

/// Issue 34: a release branch carrying a commit nobody picked was tagged,
/// built and published.
#[test]
fn regression_tag_wheel_and_publish_refuse_a_branch_carrying_an_extra_commit() {
    let m = needs_history!();
    let d = tempfile::tempdir().unwrap();
    let repo = cut_0_93_3(d.path(), m, "lanes/0.93.3.yaml");
    let r = repo.to_str().unwrap();
    // Someone commits on the release branch after the cut.
    let work = d.path().join("work");
    git(
        d.path(),
        &[
            "clone",
            "--quiet",
            "--branch",
            "release/0.93.3",
            r,
            work.to_str().unwrap(),
        ],
    );
    std::fs::write(
        work.join("unreviewed.py"),
        "print('nobody reviewed this')\n",
    )
    .unwrap();
    git(&work, &["add", "unreviewed.py"]);
    git(
        &work,
        &["commit", "--quiet", "-m", "hotfix: \u{1b}[2Jtrust me"],
    );
    git(&work, &["push", "--quiet", "origin", "release/0.93.3"]);
    // The subject is named inert: its escape sequence is written out.
    let refused = refused_everywhere(d.path(), &repo, "hotfix: \\u{1b}[2Jtrust me");
    assert!(refused.contains("extra commit"), "{refused}");
    insta::assert_snapshot!("proof_tag_refuses_an_extra_commit", refused);
}

/// The exact cut is still taken as cut and tagged.
#[test]
fn the_exact_cut_of_0_93_3_is_tagged_through_the_binary() {
    let m = needs_history!();
    let d = tempfile::tempdir().unwrap();
    let repo = cut_0_93_3(d.path(), m, "lanes/0.93.3.yaml");
    let r = repo.to_str().unwrap();
    let o = lane(d.path(), &["cut", "0.93.3", "--repo", r, "--tag"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("tagged v0.93.3 on"), "{}", stdout(&o));
    assert_eq!(
        git(&repo, &["rev-parse", "v0.93.3^{tree}"]),
        git(m, &["rev-parse", "v0.93.3^{tree}"])
    );
}
