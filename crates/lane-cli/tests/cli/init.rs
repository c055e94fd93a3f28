//! `lane init` on the real upstream's history (`../shared/upstream/`), and
//! a trunk lane's cut PR opened through Prism.

use super::{code, lane, stderr, stdout, Redact, ROOT};
use lane_testkit::history::{before_release, git, mirror};
use std::path::Path;
use std::process::Command;

macro_rules! needs_history {
    () => {
        match mirror() {
            Some(m) => m,
            None => return,
        }
    };
}

#[test]
fn init_from_tag_writes_the_lane_file_that_cuts_the_release() {
    let m = needs_history!();
    let d = tempfile::tempdir().unwrap();
    let repo = m.to_str().unwrap();
    let o = lane(
        d.path(),
        &["init", "0.126.1", "--from-tag", "v0.126.1", "--repo", repo],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("wrote lanes/0.126.1.yaml: v0.126.1 explained"),
        "{}",
        stdout(&o)
    );
    insta::assert_snapshot!("init_from_tag_0_126_1_text", stdout(&o));
    let written = std::fs::read_to_string(d.path().join("lanes/0.126.1.yaml")).unwrap();
    insta::assert_snapshot!("init_from_tag_0_126_1", written);
    // It never overwrites a lane file.
    let again = lane(
        d.path(),
        &["init", "0.126.1", "--from-tag", "v0.126.1", "--repo", repo],
    );
    assert_eq!(code(&again), 6, "{}", stderr(&again));
    assert!(
        stderr(&again).contains("never overwrites"),
        "{}",
        stderr(&again)
    );
    // The file cuts the release in a clone from before it.
    let before = before_release(m, "0.126.1", d.path());
    let cut = lane(
        d.path(),
        &["cut", "0.126.1", "--repo", before.to_str().unwrap()],
    );
    assert_eq!(code(&cut), 0, "{}{}", stdout(&cut), stderr(&cut));
    assert_eq!(
        git(&before, &["rev-parse", "release/0.126.1^{tree}"]),
        git(m, &["rev-parse", "v0.126.1^{tree}"])
    );
}

#[test]
fn init_from_tag_json_names_each_commit_and_the_proof() {
    let m = needs_history!();
    let d = tempfile::tempdir().unwrap();
    let o = lane(
        d.path(),
        &[
            "init",
            "0.93.3",
            "--from-tag",
            "v0.93.3",
            "--repo",
            m.to_str().unwrap(),
            "--dry-run",
            "--json",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let redact = Redact::new().dir(d.path(), "<TMP>").dir(m, "<UPSTREAM>");
    insta::assert_snapshot!("init_from_tag_0_93_3_json", redact.json(&stdout(&o)));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["reproduced"]["tree_equal"], true, "{v:#}");
    assert_eq!(v["lane"]["kind"], "hotfix");
    let classes: Vec<&str> = v["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["class"].as_str().unwrap())
        .collect();
    assert_eq!(
        classes,
        [
            "pr_head_pick",
            "adapted",
            "pr_head_pick",
            "cut",
            "pick",
            "cut",
            "cut"
        ]
    );
    assert_eq!(
        v["lane"]["picks"][1]["adapted"],
        "0720e64c0894ddd05a08232bde5406e5c60bd28d"
    );
    assert!(!d.path().join("lanes").exists(), "a dry run writes nothing");
}

#[test]
fn init_starts_a_new_lane_on_its_lines_last_tag() {
    let m = needs_history!();
    let d = tempfile::tempdir().unwrap();
    let o = lane(
        d.path(),
        &[
            "init",
            "0.126.4",
            "--repo",
            m.to_str().unwrap(),
            "--dry-run",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // Regression: v0.126.x forks from a commit off master's first-parent
    // chain, and the search for a later package rename began at the root
    // of the history: it proposed a guard against a June commit of
    // another history line (74d5d8f7, `scheduler.v1`).
    assert!(!stdout(&o).contains("package-cut"), "{}", stdout(&o));
    insta::assert_snapshot!("init_new_0_126_4", stdout(&o));
}

#[test]
fn a_trunk_lane_pushes_its_cut_branch_and_opens_the_cut_pr() {
    let m = needs_history!();
    let d = tempfile::tempdir().unwrap();
    let repo = before_release(m, "0.127.1", d.path());
    let remote = d.path().join("remote.git");
    git(
        d.path(),
        &["init", "--quiet", "--bare", remote.to_str().unwrap()],
    );
    git(&repo, &["remote", "add", "work", remote.to_str().unwrap()]);
    std::fs::create_dir_all(d.path().join("lanes")).unwrap();
    std::fs::copy(
        Path::new(ROOT).join("lanes/0.127.1.yaml"),
        d.path().join("lanes/0.127.1.yaml"),
    )
    .unwrap();
    // GitHub's own example pull request list fails its description's
    // schema (`requested_teams[].type`), which `--errors` answers 500: this
    // Prism still checks every request lane sends (an invalid one is 422).
    let server = lane_testkit::Prism::start_answering_flawed_examples();
    let token = "ghp_CutPrNeverPrinted0123456789abcd";
    let o = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args([
            "cut",
            "0.127.1",
            "--repo",
            repo.to_str().unwrap(),
            "--push",
            "--remote",
            "work",
            "--open-pr",
        ])
        .current_dir(d.path())
        .env_remove("LANE_LOG")
        .env("NO_COLOR", "1")
        .env("GITHUB_TOKEN", token)
        .env("GITHUB_API_URL", server.url())
        .output()
        .unwrap();
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert_eq!(code(&o), 0, "{all}");
    assert!(stdout(&o).contains("cut cut/0.127.1 at"), "{all}");
    // GitHub's example list holds an open pull request: it is reused, not doubled.
    assert!(stdout(&o).contains("cut PR #1347 (open already)"), "{all}");
    assert!(!all.contains(token), "the token was printed");
    assert_eq!(
        git(&remote, &["rev-parse", "cut/0.127.1^{tree}"]),
        git(m, &["rev-parse", "v0.127.1^2^{tree}"])
    );
    // --open-pr is a trunk lane's, and needs the branch pushed.
    let o = lane(
        d.path(),
        &[
            "cut",
            "0.127.1",
            "--repo",
            repo.to_str().unwrap(),
            "--open-pr",
        ],
    );
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("add --push"), "{}", stderr(&o));
}

#[test]
fn a_fold_back_pr_brings_the_release_onto_master_as_the_upstream_did() {
    let m = needs_history!();
    let d = tempfile::tempdir().unwrap();
    let repo = before_release(m, "0.96.2", d.path());
    let o = lane(
        d.path(),
        &[
            "init",
            "0.96.1",
            "--from-tag",
            "v0.96.1",
            "--repo",
            repo.to_str().unwrap(),
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let remote = d.path().join("remote.git");
    git(
        d.path(),
        &["init", "--quiet", "--bare", remote.to_str().unwrap()],
    );
    git(&repo, &["remote", "add", "work", remote.to_str().unwrap()]);
    // Master as it was when #570 folded 0.96.1 back.
    let onto = git(&repo, &["rev-parse", "185a1485^"]);
    let server = lane_testkit::Prism::start_answering_flawed_examples();
    let o = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args([
            "cut",
            "0.96.1",
            "--fold-back",
            "--onto",
            &onto,
            "--repo",
            repo.to_str().unwrap(),
        ])
        .args(["--push", "--remote", "work", "--open-pr"])
        .current_dir(d.path())
        .env_remove("LANE_LOG")
        .env("NO_COLOR", "1")
        .env("GITHUB_TOKEN", "ghp_FoldBackNeverPrinted0123456789ab")
        .env("GITHUB_API_URL", server.url())
        .output()
        .unwrap();
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert_eq!(code(&o), 0, "{all}");
    assert!(
        stdout(&o).contains("removed: changelog.d/pgw1058.md"),
        "{all}"
    );
    assert!(stdout(&o).contains("fold-back PR #"), "{all}");
    let redact = Redact::new().dir(d.path(), "<TMP>").shas();
    insta::assert_snapshot!("cut_fold_back_text", redact.apply(&stdout(&o)));
    // The upstream's own fold-back (#570), byte for byte.
    assert_eq!(
        git(&remote, &["rev-parse", "fold/0.96.1^{tree}"]),
        git(m, &["rev-parse", "185a1485^{tree}"])
    );
}

/// Regression (issue 35): `lane init --upstream http://user:PW@host/gw.git
/// 0.93.5` wrote the password into the lane file's `upstream.repo`, a file
/// meant for git. It is refused, saying why and what to do, without
/// printing the password and before anything is cloned or written.
#[test]
fn regression_an_upstream_url_with_a_password_is_refused_and_never_written() {
    let d = tempfile::tempdir().unwrap();
    let url = "http://user:PlantedInitPassword42@127.0.0.1:1/gw.git";
    for extra in [&[][..], &["--dry-run"][..], &["--repo", ".", "--json"][..]] {
        let mut args = vec!["init", "0.93.5", "--upstream", url];
        args.extend_from_slice(extra);
        let o = lane(d.path(), &args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        let all = stdout(&o) + &stderr(&o);
        assert!(!all.contains("PlantedInitPassword42"), "{all}");
        assert!(stderr(&o).contains("holds a password"), "{}", stderr(&o));
        assert!(stderr(&o).contains("credential helper"), "{}", stderr(&o));
        assert!(
            !d.path().join("lanes").exists(),
            "{args:?} wrote a lane file"
        );
    }
}

/// Regression (issue 35, a newcomer's dead end): `lane init 0.93.3`, a
/// version the upstream already tagged, silently started a lane on v0.93.2
/// whose cut was refused much later. It is refused at once (exit 6),
/// naming the tag and the two ways on, and writes nothing.
#[test]
fn regression_init_of_a_released_version_names_from_tag_and_the_next_patch() {
    let m = needs_history!();
    let d = tempfile::tempdir().unwrap();
    for args in [
        &["init", "0.93.3", "--repo", m.to_str().unwrap()][..],
        &["init", "0.93.2", "--repo", m.to_str().unwrap(), "--dry-run"][..],
    ] {
        let o = lane(d.path(), args);
        assert_eq!(code(&o), 6, "{args:?}: {}", stderr(&o));
        let version = args[1];
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "{version} is already released (tag v{version} at "
            )),
            "{err}"
        );
        assert!(
            err.contains(&format!("`lane init {version} --from-tag v{version}`")),
            "{err}"
        );
        assert!(err.contains("`lane init 0.93.4`"), "{err}");
        assert!(
            !d.path().join("lanes").exists(),
            "{args:?} wrote a lane file"
        );
    }
}

/// Regression (issue 35): `lane init 0.93.4` then `lane cut 0.93.4
/// --dry-run` exited 1, "unexpected failure", with only the assembler's
/// "changelog.d/ is empty". A lane without picks has nothing to release:
/// said as a precondition (exit 6), with what to add and what to run then.
#[test]
fn regression_a_new_lane_without_picks_says_what_to_add_when_cut() {
    let m = needs_history!();
    let d = tempfile::tempdir().unwrap();
    let repo = m.to_str().unwrap();
    let o = lane(d.path(), &["init", "0.93.4", "--repo", repo]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = lane(d.path(), &["cut", "0.93.4", "--dry-run", "--repo", repo]);
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("changelog.d/ holds no changelog fragment for 0.93.4"),
        "{err}"
    );
    assert!(
        err.contains("changelog.d/ is empty -- nothing to release"),
        "{err}"
    );
    assert!(err.contains("Add its picks to the lane file"), "{err}");
    assert!(err.contains("`lane cut 0.93.4 --dry-run` again"), "{err}");
}
