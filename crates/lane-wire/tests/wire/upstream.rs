//! The upstream clone, once per test binary, and its proto trees by commit.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use lane_wire::ProtoTree;

/// The bundle, beside the workspace's folder (`../shared/upstream/`).
pub fn bundle() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/upstream/gen-worker.bundle")
}

/// The clone, with the pull requests' refs; `None` (said once per test)
/// where the bundle is absent.
pub fn clone() -> Option<&'static Path> {
    static CLONE: OnceLock<Option<PathBuf>> = OnceLock::new();
    let clone = CLONE.get_or_init(|| {
        let bundle = bundle();
        if !bundle.exists() {
            return None;
        }
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lane-wire-gen-worker");
        let _ = std::fs::remove_dir_all(&dir);
        git(
            Path::new("."),
            &[
                "clone",
                "-q",
                &bundle.to_string_lossy(),
                &dir.to_string_lossy(),
            ],
        );
        git(&dir, &["fetch", "-q", "origin", "refs/pull/*:refs/pull/*"]);
        Some(dir)
    });
    if clone.is_none() {
        println!("skipped: no upstream bundle at {}", bundle().display());
    }
    clone.as_deref()
}

/// Runs git in `dir`; its stdout. A failure fails the test.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("git prints UTF-8")
}

/// The `proto/` folder of a commit (empty where it has none), its paths
/// relative to `proto/`, read once per tree.
pub fn proto_tree(repo: &Path, commit: &str) -> ProtoTree {
    static TREES: OnceLock<Mutex<HashMap<String, ProtoTree>>> = OnceLock::new();
    if commit.is_empty() {
        return ProtoTree::new();
    }
    let listing = git(repo, &["ls-tree", "-r", commit, "--", "proto/"]);
    let key = listing.clone();
    let trees = TREES.get_or_init(Default::default);
    if let Some(t) = trees.lock().unwrap().get(&key) {
        return t.clone();
    }
    let mut tree = ProtoTree::new();
    for line in listing.lines() {
        // "<mode> blob <id>\tproto/<path>"
        let (meta, path) = line.split_once('\t').expect("ls-tree line");
        let id = meta.split_whitespace().nth(2).expect("blob id");
        let rel = path.strip_prefix("proto/").expect("under proto/");
        if rel.ends_with(".proto") {
            tree.insert(rel, git(repo, &["cat-file", "blob", id]));
        } else {
            tree.insert(rel, "");
        }
    }
    trees.lock().unwrap().insert(key, tree.clone());
    tree
}
