//! Network transport through the `git` command-line tool: cloning a lane's
//! upstream into a cache, fetching it, pushing a cut. The CLI is used (not
//! libgit2) so users' credential helpers, SSH config and proxies apply as
//! they do for their own git; lane never handles a credential itself.

use std::path::{Path, PathBuf};
use std::process::Command;
use tracing::info;

use crate::error::GitError;

pub use lane_core::secret::redact_userinfo as redact;

fn git(dir: Option<&Path>, args: &[&str]) -> Result<String, GitError> {
    let mut cmd = Command::new("git");
    if let Some(d) = dir {
        cmd.arg("-C").arg(d);
    }
    cmd.args(args).env("GIT_TERMINAL_PROMPT", "0");
    let shown = redact(&args.join(" "));
    let out = cmd.output().map_err(|e| GitError::GitCli {
        args: shown.clone(),
        stderr: format!("cannot run git: {e}"),
    })?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().rev().take(8).collect();
        Err(GitError::GitCli {
            args: shown,
            stderr: redact(&tail.into_iter().rev().collect::<Vec<_>>().join("\n")),
        })
    }
}

/// The cache folder of a clone of `url` under `cache_root`.
pub fn cache_path(cache_root: &Path, url: &str) -> PathBuf {
    let name: String = redact(url)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    cache_root.join("repos").join(name.trim_matches('_'))
}

/// Clones `url` into the cache, or fetches it when the clone exists; returns the clone.
pub fn clone_or_fetch(cache_root: &Path, url: &str) -> Result<PathBuf, GitError> {
    let dest = cache_path(cache_root, url);
    if dest.join(".git").exists() {
        info!(url = %redact(url), "fetching the cached upstream clone");
        git(Some(&dest), &["fetch", "--prune", "--tags", "origin"])?;
    } else {
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).map_err(|e| GitError::GitCli {
                args: "clone".into(),
                stderr: format!("cannot create {}: {e}", parent.display()),
            })?;
        }
        info!(url = %redact(url), "cloning the upstream into the cache");
        let d = dest.to_string_lossy().into_owned();
        git(None, &["clone", "--quiet", url, &d])?;
    }
    Ok(dest)
}

/// Pushes the lane branch (and tag) to `remote`, fast-forward only: git
/// refuses a non-fast-forward update without `--force`, which lane never passes.
pub fn push(
    repo_dir: &Path,
    remote: &str,
    branch: &str,
    tag: Option<&str>,
) -> Result<(), GitError> {
    let mut specs = vec![format!("refs/heads/{branch}:refs/heads/{branch}")];
    if let Some(t) = tag {
        specs.push(format!("refs/tags/{t}:refs/tags/{t}"));
    }
    let mut args = vec!["push", "--porcelain", remote];
    args.extend(specs.iter().map(String::as_str));
    git(Some(repo_dir), &args)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cache_folder_never_names_the_urls_credentials() {
        assert!(!cache_path(Path::new("/c"), "https://tok@h/x")
            .to_string_lossy()
            .contains("tok"));
    }
}
