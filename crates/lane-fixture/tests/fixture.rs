//! The generated upstream, checked with the real `git` CLI: the shape every
//! lane test relies on (tags, versions, the wire-v1 cut and its twin, the
//! pick outcomes), determinism and the benchmark's scale.

use lane_fixture::{bare_remote, generate_upstream, Upstream, UpstreamSpec};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};
use tempfile::TempDir;

const MINT_CHILD: &str = "src/gen_worker/mint_child.py";
const FROZEN: [&str; 2] = ["proto/", "src/gen_worker/pb/"];

/// `git` in `dir`, cut off from the user's and the system's configuration.
fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new("git")
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .args([
            "-c",
            "user.name=Lane Test",
            "-c",
            "user.email=lane@example.com",
        ])
        .args(args)
        .output()
        .expect("git runs")
}

/// `git` that must succeed; its stdout.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.is_empty()).collect()
}

fn small() -> (TempDir, Upstream) {
    let tmp = tempfile::tempdir().unwrap();
    let up = generate_upstream(&tmp.path().join("upstream"), &UpstreamSpec::default()).unwrap();
    (tmp, up)
}

fn id(up: &Upstream, key: &str) -> String {
    up.commits
        .get(key)
        .unwrap_or_else(|| panic!("no commit named {key}"))
        .to_string()
}

/// A clone of the upstream with a branch `lane` at `base`.
fn lane_clone(tmp: &TempDir, up: &Upstream, base: &str) -> std::path::PathBuf {
    let clone = tmp.path().join("clone");
    let (src, dst) = (up.path.to_str().unwrap(), clone.to_str().unwrap());
    git(tmp.path(), &["clone", "--quiet", src, dst]);
    git(&clone, &["checkout", "--quiet", "-b", "lane", base]);
    clone
}

fn patch_id(dir: &Path, commit: &str) -> String {
    let show = git(dir, &["show", commit]);
    let mut child = Command::new("git")
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .args(["patch-id", "--stable"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), show.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.split_whitespace()
        .next()
        .expect("a patch id")
        .to_owned()
}

fn changed(dir: &Path, commit: &str) -> Vec<String> {
    let out = git(
        dir,
        &["diff-tree", "--no-commit-id", "--name-only", "-r", commit],
    );
    lines(&out).into_iter().map(str::to_owned).collect()
}

/// The `version` of `[project]` in pyproject.toml and of the gen-worker
/// entry of uv.lock at `rev`.
fn versions(dir: &Path, rev: &str) -> (String, String) {
    let pyproject = git(dir, &["show", &format!("{rev}:pyproject.toml")]);
    let project = pyproject.split("[project]\n").nth(1).unwrap();
    let py = project
        .lines()
        .take_while(|l| !l.starts_with('['))
        .find_map(|l| l.strip_prefix("version = \""))
        .unwrap()
        .trim_end_matches('"')
        .to_owned();
    let lock = git(dir, &["show", &format!("{rev}:uv.lock")]);
    let entry = lock
        .split("[[package]]\n")
        .find(|p| p.starts_with("name = \"gen-worker\"\n"))
        .unwrap();
    assert!(entry.contains("source = { editable = \".\" }"));
    let uv = entry
        .lines()
        .find_map(|l| l.strip_prefix("version = \""))
        .unwrap()
        .trim_end_matches('"')
        .to_owned();
    (py, uv)
}

#[test]
fn work_tree_is_a_clean_checkout_of_master() {
    let (_tmp, up) = small();
    assert_eq!(git(&up.path, &["status", "--porcelain"]), "");
    assert_eq!(
        git(&up.path, &["symbolic-ref", "HEAD"]).trim(),
        "refs/heads/master"
    );
    assert_eq!(
        git(&up.path, &["rev-parse", "HEAD"]).trim(),
        id(&up, "merge-520")
    );
    assert_eq!(
        git(&up.path, &["config", "--local", "user.name"]).trim(),
        "Paul Fidika"
    );
    assert_eq!(
        git(&up.path, &["config", "--local", "user.email"]).trim(),
        "paul@example.com"
    );
    assert_eq!(
        git(&up.path, &["rev-parse", "--is-bare-repository"]).trim(),
        "false"
    );
    let branches = git(&up.path, &["branch", "--format=%(refname:short)"]);
    assert_eq!(
        lines(&branches),
        ["hotfix-994", "master", "release/0.93.2", "wire-v1-proto"]
    );
}

#[test]
fn tags_are_annotated_and_mark_the_releases() {
    let (_tmp, up) = small();
    assert_eq!(lines(&git(&up.path, &["tag"])), ["v0.93.1", "v0.93.2"]);
    for (tag, key) in [("v0.93.1", "release-0.93.1"), ("v0.93.2", "release-0.93.2")] {
        assert_eq!(git(&up.path, &["cat-file", "-t", tag]).trim(), "tag");
        let target = git(&up.path, &["rev-parse", &format!("{tag}^{{commit}}")]);
        assert_eq!(target.trim(), id(&up, key));
    }
    let release = git(&up.path, &["rev-parse", "release/0.93.2"]);
    assert_eq!(release.trim(), id(&up, "release-0.93.2"));
    // master is linear on top of v0.93.2.
    git(
        &up.path,
        &["merge-base", "--is-ancestor", "v0.93.2", "master"],
    );
    let first_parent = git(&up.path, &["rev-list", "--first-parent", "v0.93.2..master"]);
    let all = git(&up.path, &["rev-list", "--no-merges", "v0.93.2..master"]);
    assert_eq!(lines(&all).len(), lines(&first_parent).len());
}

#[test]
fn version_files_agree_at_every_tag() {
    let (_tmp, up) = small();
    for (rev, version) in [
        ("init", "0.93.0"),
        ("v0.93.1", "0.93.1"),
        ("v0.93.2", "0.93.2"),
        ("master", "0.94.0.dev0"),
    ] {
        let rev = up
            .commits
            .get(rev)
            .map_or(rev.to_owned(), |oid| oid.to_string());
        let (py, uv) = versions(&up.path, &rev);
        assert_eq!((py.as_str(), uv.as_str()), (version, version), "at {rev}");
    }
    let pyproject = git(&up.path, &["show", "v0.93.2:pyproject.toml"]);
    assert!(pyproject.starts_with("[project]\nname = \"gen-worker\"\n"));
    assert!(pyproject.contains(
        "[build-system]\nrequires = [\"hatchling\"]\nbuild-backend = \"hatchling.build\"\n"
    ));
    assert!(
        pyproject.contains("[tool.hatch.build.targets.wheel]\npackages = [\"src/gen_worker\"]\n")
    );
    let lock = git(&up.path, &["show", "v0.93.2:uv.lock"]);
    assert!(lock.starts_with("version = 1\nrequires-python = \">=3.11\"\n"));
    assert!(lock.contains("name = \"protobuf\"\nversion = \"5.29.3\"\n"));
    assert!(lock.contains("sdist = { url = \"https://files.pythonhosted.org/"));
}

#[test]
fn the_package_has_the_upstream_layout() {
    let (_tmp, up) = small();
    let files = git(&up.path, &["ls-tree", "-r", "--name-only", "v0.93.2"]);
    for path in [
        ".gitignore",
        "CHANGELOG.md",
        "README.md",
        "changelog.d/README.md",
        "proto/PROTO_DIGEST",
        "proto/worker_scheduler.proto",
        "pyproject.toml",
        "src/gen_worker/__init__.py",
        "src/gen_worker/activity.py",
        MINT_CHILD,
        "src/gen_worker/pb/__init__.py",
        "src/gen_worker/pb/worker_scheduler_pb2.py",
        "src/gen_worker/settings.py",
        "tests/test_basic.py",
        "uv.lock",
    ] {
        assert!(lines(&files).contains(&path), "{path} missing at v0.93.2");
    }
    let mint = git(&up.path, &["show", &format!("v0.93.2:{MINT_CHILD}")]);
    assert!(mint.contains("def _drain_router("));
    assert!(mint.contains("phase=\"inductor_compile\""));
    assert!(!mint.contains("_drive_warm_plan"));
    let bindings = git(
        &up.path,
        &["show", "v0.93.2:src/gen_worker/pb/worker_scheduler_pb2.py"],
    );
    assert!(bindings.contains("# Generated by the protocol buffer compiler.  DO NOT EDIT!"));
    assert!(bindings.contains("cozy.scheduler"));
    assert!(!bindings.contains("cozy.scheduler.v1"));
}

#[test]
fn changelog_is_assembled_from_fragments() {
    let (_tmp, up) = small();
    let log = git(&up.path, &["show", "v0.93.2:CHANGELOG.md"]);
    assert!(log.starts_with("# Changelog\n\n## Unreleased\n\n"));
    let unreleased = log.split("\n## 0.93.2").next().unwrap();
    assert!(unreleased.contains("`changelog.d/`"));
    let two = log.find("\n## 0.93.2 (2026-07-20) — ").unwrap();
    let one = log.find("\n## 0.93.1 (2026-07-06) — ").unwrap();
    assert!(two < one);
    assert!(
        log.contains("- pgw#981: the mint child exits non-zero when its warm plan fails (#497)\n")
    );

    let at_tag = git(
        &up.path,
        &["ls-tree", "--name-only", "v0.93.2", "changelog.d/"],
    );
    assert_eq!(lines(&at_tag), ["changelog.d/README.md"]);
    let on_master = git(
        &up.path,
        &["ls-tree", "--name-only", "master", "changelog.d/"],
    );
    let fragments: Vec<_> = ["989", "992", "993", "994", "996"]
        .iter()
        .map(|n| format!("changelog.d/pgw{n}.md"))
        .collect();
    let mut expected = vec!["changelog.d/README.md".to_owned()];
    expected.extend(fragments.iter().cloned());
    assert_eq!(lines(&on_master), expected);
    for fragment in &fragments {
        let text = git(&up.path, &["show", &format!("master:{fragment}")]);
        let issue = &fragment["changelog.d/pgw".len()..fragment.len() - 3];
        assert!(
            text.starts_with(&format!("- pgw#{issue}: ")),
            "{fragment}: {text}"
        );
        assert_eq!(text.lines().count(), 1, "{fragment}");
    }
}

#[test]
fn master_log_tells_the_story() {
    let (_tmp, up) = small();
    let subjects = git(&up.path, &["log", "--format=%s", "master"]);
    for subject in [
        "pgw#984: factor the warm loop into _drive_warm_plan (#505)",
        "th#1597 (BREAKING, wire protocol): the contract becomes `cozy.scheduler.v1` (#502)",
        "pgw#992: heartbeats stop once the mint child is done (#515)",
        "pgw#989: the dynamo mint's warmup_forward gets a breakdown (#511)",
        "pgw#993: regenerate the scheduler bindings with protobuf 5.29.4 (#516)",
        "pgw#994: retry honours its deadline (#517)",
        "Merge pull request #520 from someone/fix-996",
    ] {
        assert!(lines(&subjects).contains(&subject), "{subject}");
    }
    let first_parent = git(
        &up.path,
        &["rev-list", "--first-parent", "--reverse", "master"],
    );
    let order: Vec<String> = [
        "init",
        "fix-970",
        "release-0.93.1",
        "fix-0.93.2",
        "release-0.93.2",
        "refactor-984",
        "wire-v1",
        "open-0.94",
        "fix-992",
        "fix-989",
        "fix-proto-993",
        "fix-already-994",
        "merge-520",
    ]
    .iter()
    .map(|key| id(&up, key))
    .collect();
    assert_eq!(lines(&first_parent), order);
    for key in ["wire-v1-early", "hotfix-994"] {
        let out = run(
            &up.path,
            &["merge-base", "--is-ancestor", &id(&up, key), "master"],
        );
        assert!(!out.status.success(), "{key} must not be on master");
    }
}

#[test]
fn wire_v1_is_the_protocol_cut_and_its_twin_has_the_same_patch() {
    let (_tmp, up) = small();
    let dir = &up.path;
    let cut = id(&up, "wire-v1");
    let early = id(&up, "wire-v1-early");
    assert_ne!(cut, early);
    assert_eq!(git(dir, &["rev-parse", "wire-v1-proto"]).trim(), early);
    assert_eq!(
        git(dir, &["rev-parse", &format!("{early}^")]).trim(),
        id(&up, "refactor-984")
    );
    assert_eq!(
        changed(dir, &cut),
        [
            "proto/PROTO_DIGEST",
            "proto/worker_scheduler.proto",
            "src/gen_worker/pb/worker_scheduler_pb2.py"
        ]
    );
    let twin = patch_id(dir, &cut);
    assert_eq!(patch_id(dir, &early), twin);
    for (key, oid) in &up.commits {
        if !["wire-v1", "wire-v1-early", "merge-520", "init"].contains(key) {
            assert_ne!(patch_id(dir, &oid.to_string()), twin, "{key}");
        }
    }

    for (rev, package) in [
        ("v0.93.2", "cozy.scheduler"),
        ("master", "cozy.scheduler.v1"),
    ] {
        let proto = git(
            dir,
            &["show", &format!("{rev}:proto/worker_scheduler.proto")],
        );
        assert!(proto.contains(&format!("\npackage {package};\n")), "{rev}");
        let digest = git(dir, &["show", &format!("{rev}:proto/PROTO_DIGEST")]);
        let expected: String = Sha256::digest(proto.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(digest.trim(), expected, "{rev}");
        let bindings = git(
            dir,
            &[
                "show",
                &format!("{rev}:src/gen_worker/pb/worker_scheduler_pb2.py"),
            ],
        );
        assert!(bindings.contains(&format!(".{package}.Heartbeat")), "{rev}");
    }
    let out = run(dir, &["merge-base", "--is-ancestor", &cut, "v0.93.2"]);
    assert!(!out.status.success());
}

#[test]
fn fix_992_picks_cleanly_and_fix_989_conflicts_in_mint_child_only() {
    let (tmp, up) = small();
    assert_eq!(
        changed(&up.path, &id(&up, "fix-992")),
        ["changelog.d/pgw992.md", "src/gen_worker/activity.py"]
    );
    let clone = lane_clone(&tmp, &up, "v0.93.2");
    git(&clone, &["cherry-pick", &id(&up, "fix-992")]);

    let out = run(&clone, &["cherry-pick", &id(&up, "fix-989")]);
    assert!(
        !out.status.success(),
        "pgw#989 must conflict on the 0.93 line"
    );
    let conflicted = git(&clone, &["diff", "--name-only", "--diff-filter=U"]);
    assert_eq!(lines(&conflicted), [MINT_CHILD]);
    let staged = git(
        &clone,
        &["diff", "--cached", "--name-only", "--diff-filter=A"],
    );
    assert_eq!(
        lines(&staged),
        ["changelog.d/pgw989.md", "src/gen_worker/warm_spans.py"]
    );
    git(&clone, &["cherry-pick", "--abort"]);

    // Straight onto the tag it conflicts the same way.
    git(&clone, &["reset", "--quiet", "--hard", "v0.93.2"]);
    let out = run(&clone, &["cherry-pick", &id(&up, "fix-989")]);
    assert!(!out.status.success());
    let conflicted = git(&clone, &["diff", "--name-only", "--diff-filter=U"]);
    assert_eq!(lines(&conflicted), [MINT_CHILD]);

    let fix = git(
        &up.path,
        &["show", &format!("{}:{MINT_CHILD}", id(&up, "fix-989"))],
    );
    assert!(fix.contains("phase=\"router_drain\"") && fix.contains("_drive_warm_plan"));
}

#[test]
fn fix_993_changes_the_frozen_bindings() {
    let (_tmp, up) = small();
    let files = changed(&up.path, &id(&up, "fix-proto-993"));
    assert!(files.contains(&"src/gen_worker/pb/worker_scheduler_pb2.py".to_owned()));
    for file in &files {
        let frozen = FROZEN.iter().any(|p| file.starts_with(p));
        assert!(frozen || file == "changelog.d/pgw993.md", "{file}");
    }
    // No other fix touches a frozen path.
    for key in [
        "fix-992",
        "fix-989",
        "fix-already-994",
        "fix-996",
        "hotfix-994",
    ] {
        for file in changed(&up.path, &id(&up, key)) {
            assert!(!FROZEN.iter().any(|p| file.starts_with(p)), "{key}: {file}");
        }
    }
}

#[test]
fn fix_994_is_already_on_the_hotfix_branch() {
    let (tmp, up) = small();
    let dir = &up.path;
    let hotfix = id(&up, "hotfix-994");
    let fix = id(&up, "fix-already-994");
    assert_eq!(git(dir, &["rev-parse", "hotfix-994"]).trim(), hotfix);
    assert_eq!(
        git(dir, &["rev-parse", &format!("{hotfix}^")]).trim(),
        id(&up, "release-0.93.2")
    );
    assert_ne!(hotfix, fix);
    assert_eq!(patch_id(dir, &hotfix), patch_id(dir, &fix));
    // `git cherry` marks it as already upstream of the hotfix branch.
    let cherry = git(dir, &["cherry", "hotfix-994", &fix, &format!("{fix}^")]);
    assert_eq!(cherry.trim(), format!("- {fix}"));

    let clone = lane_clone(&tmp, &up, "origin/hotfix-994");
    let out = run(&clone, &["cherry-pick", &fix]);
    assert!(
        !out.status.success(),
        "an already-applied pick leaves nothing to commit"
    );
    assert_eq!(git(&clone, &["diff", "HEAD", "--name-only"]), "");
}

#[test]
fn merge_520_picks_with_mainline_1() {
    let (tmp, up) = small();
    let dir = &up.path;
    let merge = id(&up, "merge-520");
    let parents = git(dir, &["log", "-1", "--format=%P", &merge]);
    assert_eq!(
        parents.split_whitespace().collect::<Vec<_>>(),
        [id(&up, "fix-already-994"), id(&up, "fix-996")]
    );
    assert_eq!(
        git(dir, &["log", "-1", "--format=%s", &merge]).trim(),
        "Merge pull request #520 from someone/fix-996"
    );
    assert!(git(dir, &["log", "-1", "--format=%s", &id(&up, "fix-996")]).starts_with("pgw#996: "));
    let files = git(dir, &["diff", "--name-only", &format!("{merge}^1"), &merge]);
    assert_eq!(
        lines(&files),
        ["changelog.d/pgw996.md", "src/gen_worker/settings.py"]
    );

    let clone = lane_clone(&tmp, &up, "v0.93.2");
    git(&clone, &["cherry-pick", "-m", "1", &merge]);
    let picked = git(&clone, &["diff", "--name-only", "v0.93.2", "HEAD"]);
    assert_eq!(
        lines(&picked),
        ["changelog.d/pgw996.md", "src/gen_worker/settings.py"]
    );
}

#[test]
fn generation_is_deterministic() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = UpstreamSpec {
        extra_commits: 40,
        extra_files: 10,
    };
    let a = generate_upstream(&tmp.path().join("a"), &spec).unwrap();
    let b = generate_upstream(&tmp.path().join("b"), &spec).unwrap();
    assert_eq!(a.commits, b.commits);
    let refs = |up: &Upstream| {
        git(
            &up.path,
            &["for-each-ref", "--format=%(objectname) %(refname)"],
        )
    };
    assert_eq!(refs(&a), refs(&b));
    let (_tmp, small) = small();
    assert_ne!(small.commits["init"], a.commits["init"]);
    assert_eq!(lines(&refs(&a)).len(), 6);
}

#[test]
fn bare_remote_takes_pushes() {
    let (tmp, up) = small();
    let origin = bare_remote(&up.path, &tmp.path().join("origin.git")).unwrap();
    assert_eq!(
        git(&origin, &["rev-parse", "--is-bare-repository"]).trim(),
        "true"
    );
    assert_eq!(
        git(&origin, &["symbolic-ref", "HEAD"]).trim(),
        "refs/heads/master"
    );
    let refs = |dir: &Path| git(dir, &["for-each-ref", "--format=%(objectname) %(refname)"]);
    assert_eq!(refs(&origin), refs(&up.path));
    assert_eq!(git(&origin, &["cat-file", "-t", "v0.93.2"]).trim(), "tag");

    let clone = lane_clone(&tmp, &up, "v0.93.2");
    git(&clone, &["cherry-pick", &id(&up, "fix-992")]);
    git(
        &clone,
        &[
            "push",
            "--quiet",
            origin.to_str().unwrap(),
            "lane:refs/heads/release/0.93.3",
        ],
    );
    assert_eq!(
        git(&origin, &["rev-parse", "release/0.93.3"]),
        git(&clone, &["rev-parse", "HEAD"])
    );
    // The upstream itself is untouched.
    assert!(!run(
        &up.path,
        &["rev-parse", "--verify", "--quiet", "release/0.93.3"]
    )
    .status
    .success());
}

#[test]
fn benchmark_spec_is_big_and_keeps_the_story() {
    let tmp = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let up = generate_upstream(&tmp.path().join("big"), &UpstreamSpec::benchmark()).unwrap();
    let took = started.elapsed();
    eprintln!("benchmark upstream generated in {took:?}");
    assert!(took < Duration::from_secs(60), "generation took {took:?}");

    let commits: usize = git(&up.path, &["rev-list", "--count", "master"])
        .trim()
        .parse()
        .unwrap();
    assert!(commits >= 2_000, "{commits} commits");
    let files = lines(&git(&up.path, &["ls-files"])).len();
    assert!(files >= 1_000, "{files} files");
    assert_eq!(git(&up.path, &["status", "--porcelain"]), "");
    let dir = &up.path;
    // Extras sit between v0.93.2 and the cut, and between the cut and the fixes.
    let before_cut = git(
        dir,
        &[
            "rev-list",
            "--count",
            &format!("v0.93.2..{}", id(&up, "wire-v1")),
        ],
    );
    assert!(before_cut.trim().parse::<usize>().unwrap() > 100);
    let after_cut = git(
        dir,
        &[
            "rev-list",
            "--count",
            &format!("{}..{}", id(&up, "wire-v1"), id(&up, "fix-992")),
        ],
    );
    assert!(after_cut.trim().parse::<usize>().unwrap() > 100);
    assert_eq!(
        patch_id(dir, &id(&up, "wire-v1")),
        patch_id(dir, &id(&up, "wire-v1-early"))
    );

    let clone = lane_clone(&tmp, &up, "v0.93.2");
    git(&clone, &["cherry-pick", &id(&up, "fix-992")]);
    assert!(!run(&clone, &["cherry-pick", &id(&up, "fix-989")])
        .status
        .success());
    let conflicted = git(&clone, &["diff", "--name-only", "--diff-filter=U"]);
    assert_eq!(lines(&conflicted), [MINT_CHILD]);
}
