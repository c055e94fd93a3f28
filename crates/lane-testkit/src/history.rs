//! The real upstream's whole history (`../shared/upstream/gen-worker.bundle`:
//! every tag, branch and PR head), for the tests that replay real releases.
//! One mirror per test binary; each test takes a clone that shares its
//! objects (cheap) and can be shaped without disturbing the others.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Where the bundle is: `<repository>/../shared/upstream/gen-worker.bundle`.
pub fn bundle() -> PathBuf {
    crate::tools::root().join("../shared/upstream/gen-worker.bundle")
}

/// Runs git in `dir` with a fixed identity (a fresh machine has none).
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "lane test")
        .env("GIT_AUTHOR_EMAIL", "lane@example.org")
        .env("GIT_COMMITTER_NAME", "lane test")
        .env("GIT_COMMITTER_EMAIL", "lane@example.org")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The mirror of the whole history, made once per test binary; None (with
/// one line on stderr naming the file) when the bundle is absent.
pub fn mirror() -> Option<&'static Path> {
    static MIRROR: OnceLock<Option<PathBuf>> = OnceLock::new();
    MIRROR
        .get_or_init(|| {
            let b = bundle();
            if !b.exists() {
                eprintln!(
                    "skipped: needs {} (the real upstream's history)",
                    b.display()
                );
                return None;
            }
            // Kept for the whole test process: a OnceLock never drops.
            let dir = tempfile_dir("lane-history-");
            let path = dir.join("gen-worker.git");
            let out = Command::new("git")
                .args(["clone", "--quiet", "--mirror"])
                .arg(&b)
                .arg(&path)
                .output()
                .expect("git runs");
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            Some(path)
        })
        .as_deref()
}

/// A folder for this process's mirror; those of processes that are gone
/// are removed first (a OnceLock never drops what it holds).
fn tempfile_dir(prefix: &str) -> PathBuf {
    let tmp = std::env::temp_dir();
    if let Ok(entries) = std::fs::read_dir(&tmp) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let gone = name
                .strip_prefix(prefix)
                .and_then(|pid| pid.parse::<u32>().ok())
                .is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists());
            if gone {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    let base = tmp.join(format!("{prefix}{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).expect("a temporary folder");
    base
}

/// A clone sharing `mirror`'s objects, in `into`, as the upstream was the
/// moment before `version` was tagged: that tag and its line's later tags
/// removed. Returns the clone's git folder (bare).
pub fn before_release(mirror: &Path, version: &str, into: &Path) -> PathBuf {
    let path = into.join("gen-worker.git");
    let out = Command::new("git")
        .args(["clone", "--quiet", "--mirror", "--shared"])
        .arg(mirror)
        .arg(&path)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let parse = |v: &str| -> Option<(u64, u64, u64)> {
        let mut it = v.split('.').map(|p| p.parse::<u64>().ok());
        Some((it.next()??, it.next()??, it.next()??))
    };
    let want = parse(version).expect("a version MAJOR.MINOR.PATCH");
    for t in git(&path, &["tag", "-l", &format!("v{}.{}.*", want.0, want.1)]).lines() {
        if parse(&t[1..]).is_some_and(|v| v >= want) {
            git(&path, &["tag", "-d", t]);
        }
    }
    path
}
