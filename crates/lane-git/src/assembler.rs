//! Running the tree's own changelog assembler (`scripts/assemble_changelog.py`):
//! its rules are the upstream's, era by era, so where a tree carries one,
//! running it is the most faithful way to write the section.
//!
//! The assembler reads and writes files under its own root (the script's
//! grandparent folder), so lane lays out the files it needs in a temporary
//! folder (the script, the changelog, the fragments), runs it there with
//! `python3`, and reads back what it changed. Nothing else of the tree is
//! exported and nothing in the repository is touched.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::error::{output_tail, GitError};

/// The most bytes lane exports for, or reads back from, an assembler run.
const MAX_BYTES: u64 = 64 * 1024 * 1024;
/// How long an assembler may run.
const TIMEOUT: Duration = Duration::from_secs(120);

/// The files an assembler run sees and leaves: path -> text.
pub type Files = BTreeMap<String, String>;

/// What a run changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembled {
    /// Every file afterwards (path -> text), within the folders given.
    pub files: Files,
    /// The command, as shown in the plan.
    pub command: String,
}

/// Runs `python3 <script> --version V --date D [--headline H]` over
/// `files` (the script, the changelog and the fragments, by repository
/// path) and returns the files under the same paths afterwards.
pub fn run(
    script: &str,
    files: &Files,
    version: &str,
    date: &str,
    headline: Option<&str>,
) -> Result<Assembled, GitError> {
    let failed = |message: String| GitError::Assembler {
        script: script.to_owned(),
        message,
    };
    let total: u64 = files.values().map(|t| t.len() as u64).sum();
    if total > MAX_BYTES {
        return Err(failed(format!(
            "the changelog and fragments hold {total} bytes, over lane's {MAX_BYTES}-byte bound"
        )));
    }
    let dir = tempfile::tempdir().map_err(|e| failed(format!("a temporary folder: {e}")))?;
    for (path, text) in files {
        let at = dir.path().join(path);
        if let Some(parent) = at.parent() {
            std::fs::create_dir_all(parent).map_err(|e| failed(format!("{path}: {e}")))?;
        }
        std::fs::write(&at, text).map_err(|e| failed(format!("{path}: {e}")))?;
    }
    let mut args = vec![
        script.to_owned(),
        "--version".into(),
        version.into(),
        "--date".into(),
        date.into(),
    ];
    if let Some(h) = headline.filter(|h| !h.trim().is_empty()) {
        args.push("--headline".into());
        args.push(h.into());
    }
    let command = format!(
        "python3 {}",
        args.iter()
            .map(|a| shell_word(a))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut child = Command::new("python3")
        .args(&args)
        .current_dir(dir.path())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| {
            failed(format!(
                "cannot run python3 (the tree's assembler is a Python script): {e}"
            ))
        })?;
    let started = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if started.elapsed() > TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(failed(format!("it ran longer than {}s", TIMEOUT.as_secs())));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(failed(format!("waiting for it: {e}"))),
        }
    };
    let out = child
        .wait_with_output()
        .map_err(|e| failed(format!("reading its output: {e}")))?;
    if !status.success() {
        return Err(failed(format!(
            "it exited {status}: {}",
            tail(&out.stderr, &out.stdout)
        )));
    }
    let mut after = Files::new();
    let roots: std::collections::BTreeSet<String> = files
        .keys()
        .filter(|p| p.as_str() != script)
        .map(|p| match p.rsplit_once('/') {
            Some((folder, _)) => format!("{folder}/"),
            None => p.clone(),
        })
        .collect();
    let mut budget = MAX_BYTES;
    for root in &roots {
        let at = dir.path().join(root);
        if root.ends_with('/') {
            read_folder(&at, root, &mut after, &mut budget).map_err(&failed)?;
        } else if at.is_file() {
            after.insert(
                root.clone(),
                read_bounded(&at, &mut budget).map_err(&failed)?,
            );
        }
    }
    Ok(Assembled {
        files: after,
        command,
    })
}

fn read_folder(dir: &Path, prefix: &str, out: &mut Files, budget: &mut u64) -> Result<(), String> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("{prefix}: {e}")),
    };
    for entry in entries {
        let entry = entry.map_err(|e| format!("{prefix}: {e}"))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == "__pycache__" {
            continue;
        }
        let path = entry.path();
        if path.is_file() {
            out.insert(format!("{prefix}{name}"), read_bounded(&path, budget)?);
        }
    }
    Ok(())
}

fn read_bounded(path: &Path, budget: &mut u64) -> Result<String, String> {
    let len = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    if len > *budget {
        return Err(format!("it wrote more than lane's {MAX_BYTES}-byte bound"));
    }
    *budget -= len;
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:".contains(c))
    {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The last lines it printed, control characters escaped.
fn tail(stderr: &[u8], stdout: &[u8]) -> String {
    let said = if stderr.iter().any(|b| !b.is_ascii_whitespace()) {
        stderr
    } else {
        stdout
    };
    output_tail(said, 4, 600)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = r###"
import argparse, pathlib
ROOT = pathlib.Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser(); ap.add_argument("--version"); ap.add_argument("--date"); ap.add_argument("--headline", default="")
a = ap.parse_args()
frags = sorted(p for p in (ROOT / "changelog.d").glob("*.md"))
body = "\n\n".join(p.read_text().strip() for p in frags)
log = ROOT / "CHANGELOG.md"
log.write_text(log.read_text() + f"## {a.version} ({a.date})\n\n{body}\n")
for p in frags: p.unlink()
"###;

    #[test]
    fn a_trees_assembler_runs_over_the_files_given_and_its_changes_come_back() {
        let mut files = Files::new();
        files.insert("scripts/assemble.py".into(), SCRIPT.into());
        files.insert("CHANGELOG.md".into(), "# C\n\n".into());
        files.insert("changelog.d/pgw1.md".into(), "- one\n".into());
        let out = run("scripts/assemble.py", &files, "1.0.1", "2026-12-02", None).unwrap();
        assert_eq!(
            out.files["CHANGELOG.md"],
            "# C\n\n## 1.0.1 (2026-12-02)\n\n- one\n"
        );
        assert!(!out.files.contains_key("changelog.d/pgw1.md"));
        assert_eq!(
            out.command,
            "python3 scripts/assemble.py --version 1.0.1 --date 2026-12-02"
        );
    }

    #[test]
    fn an_assembler_that_fails_is_named_with_its_last_words() {
        let mut files = Files::new();
        files.insert(
            "scripts/a.py".into(),
            "import sys\nsys.exit('changelog.d/ is empty -- nothing to release')\n".into(),
        );
        files.insert("CHANGELOG.md".into(), String::new());
        let e = run("scripts/a.py", &files, "1.0.1", "d", Some("h")).unwrap_err();
        assert!(e.to_string().contains("nothing to release"), "{e}");
    }
}
