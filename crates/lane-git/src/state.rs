//! The state of a cut stopped on a conflict, kept in the git folder
//! (`.git/lane-cut.json`) so `lane cut --continue` and `--abort` know where
//! they stand. Written only after the branch and work tree are laid out.

use git2::{build::CheckoutBuilder, CherrypickOptions, Repository};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

use crate::cut::PickReport;
use crate::error::{Ctx, GitError};
use crate::picks::ResolvedPick;

const STATE_FILE: &str = "lane-cut.json";

/// A stopped cut.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CutState {
    /// The lane version.
    pub lane: String,
    /// The lane file it was cut from.
    pub lane_file: PathBuf,
    /// The lane branch (created by this cut).
    pub branch: String,
    /// The base commit.
    pub base: String,
    /// What HEAD was before the cut (`refs/heads/x` or a commit id), for `--abort`.
    pub orig_head: String,
    /// Where the branch points (the last applied pick).
    pub branch_head: String,
    /// The index of the conflicted pick in `picks`.
    pub conflicted: usize,
    /// Every pick, resolved.
    pub picks: Vec<ResolvedPick>,
    /// The outcomes of the picks before the conflicted one.
    pub done: Vec<PickReport>,
    /// Whether `--tag` was asked.
    pub tag: bool,
    /// Whether `--sign` was asked.
    #[serde(default)]
    pub sign: bool,
    /// The changelog date.
    pub date: String,
}

fn path(repo: &Repository) -> PathBuf {
    repo.path().join(STATE_FILE)
}

impl CutState {
    /// Reads the state, None when no cut is in progress.
    pub fn load(repo: &Repository) -> Result<Option<CutState>, GitError> {
        let p = path(repo);
        match std::fs::read(&p) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| GitError::State {
                    path: p,
                    source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
                }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(GitError::State { path: p, source }),
        }
    }

    /// Writes the state atomically (temporary file, then rename).
    pub fn save(&self, repo: &Repository) -> Result<(), GitError> {
        let p = path(repo);
        let tmp = p.with_extension("json.tmp");
        let bytes = serde_json::to_vec_pretty(self).expect("state always serializes");
        std::fs::write(&tmp, bytes)
            .and_then(|()| std::fs::rename(&tmp, &p))
            .map_err(|source| GitError::State { path: p, source })
    }

    /// Removes the state.
    pub fn clear(repo: &Repository) -> Result<(), GitError> {
        let p = path(repo);
        match std::fs::remove_file(&p) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(GitError::State { path: p, source }),
        }
    }
}

/// HEAD as a symbolic ref name, or the commit id when detached.
pub fn current_head(repo: &Repository) -> Result<String, GitError> {
    let head = repo.find_reference("HEAD").ctx(|| "reading HEAD".into())?;
    if let Ok(Some(target)) = head.symbolic_target() {
        return Ok(target.to_owned());
    }
    Ok(head.target().map(|o| o.to_string()).unwrap_or_default())
}

/// Checks out `branch` (safely: never overwriting local changes) and lays
/// the conflicted pick into the index and work tree, as `git cherry-pick`
/// would (conflict markers, `CHERRY_PICK_HEAD`).
pub fn stop_on_conflict(
    repo: &Repository,
    branch: &str,
    pick: &ResolvedPick,
) -> Result<(), GitError> {
    let refname = format!("refs/heads/{branch}");
    let target = repo
        .revparse_single(&refname)
        .ctx(|| format!("reading {branch}"))?;
    repo.checkout_tree(&target, Some(CheckoutBuilder::new().safe()))
        .ctx(|| format!("checking out {branch}"))?;
    repo.set_head(&refname)
        .ctx(|| format!("switching HEAD to {branch}"))?;
    let commit = repo
        .find_commit(pick.commit)
        .ctx(|| format!("reading {}", pick.commit))?;
    let mut opts = CherrypickOptions::new();
    opts.mainline(pick.mainline);
    repo.cherrypick(&commit, Some(&mut opts))
        .ctx(|| format!("laying the conflict of {} into the work tree", pick.commit))?;
    Ok(())
}
