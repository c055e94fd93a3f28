//! `lane cut --continue` and `lane cut --abort`: finishing or undoing a cut
//! that stopped on a conflict.

use git2::{build::CheckoutBuilder, Oid, Repository};
use lane_file::LaneFile;
use tracing::info;

use crate::cut::{
    apply_picks, finish, picked_message, CutOptions, CutReport, CutStatus, OnConflict, PickOutcome,
    PickReport, PickRun, Progress,
};
use crate::error::{Ctx, GitError};
use crate::repo::PatchIds;
use crate::state::{stop_on_conflict, CutState};

/// What `--abort` undid.
#[derive(Debug, Clone, serde::Serialize)]
pub struct AbortReport {
    /// The lane.
    pub lane: String,
    /// The branch that was deleted.
    pub branch: String,
    /// What HEAD is again.
    pub head: String,
}

/// Reads the stopped cut's state or says none is in progress.
pub fn in_progress(repo: &Repository) -> Result<CutState, GitError> {
    CutState::load(repo)?.ok_or_else(|| GitError::NoCutInProgress {
        path: repo.workdir().unwrap_or(repo.path()).to_owned(),
    })
}

/// Undoes a stopped cut: HEAD, index and work tree back to where they were,
/// the branch the cut created deleted, the state removed.
pub fn abort(repo: &Repository) -> Result<AbortReport, GitError> {
    let state = in_progress(repo)?;
    let orig = state.orig_head.clone();
    let (target, head_ref) = if orig.starts_with("refs/") {
        (
            repo.revparse_single(&orig)
                .ctx(|| format!("reading {orig}"))?,
            Some(orig.clone()),
        )
    } else {
        let id = Oid::from_str(&orig).ctx(|| format!("reading {orig}"))?;
        (
            repo.find_object(id, None)
                .ctx(|| format!("reading {orig}"))?,
            None,
        )
    };
    repo.checkout_tree(&target, Some(CheckoutBuilder::new().force()))
        .ctx(|| format!("restoring {orig}"))?;
    match head_ref {
        Some(r) => repo.set_head(&r).ctx(|| format!("switching HEAD to {r}"))?,
        None => repo
            .set_head_detached(target.id())
            .ctx(|| format!("detaching HEAD at {orig}"))?,
    }
    repo.cleanup_state()
        .ctx(|| "removing CHERRY_PICK_HEAD".into())?;
    if let Ok(mut b) = repo.find_reference(&format!("refs/heads/{}", state.branch)) {
        b.delete().ctx(|| format!("deleting {}", state.branch))?;
    }
    CutState::clear(repo)?;
    info!(branch = %state.branch, "cut aborted");
    Ok(AbortReport {
        lane: state.lane,
        branch: state.branch,
        head: orig,
    })
}

/// Finishes a stopped cut once the user resolved and staged the conflict.
pub fn continue_cut(repo: &Repository, lane: &LaneFile) -> Result<CutReport, GitError> {
    let state = in_progress(repo)?;
    if state.lane != lane.version.as_str() {
        return Err(GitError::CutInProgress { lane: state.lane });
    }
    let mut index = repo.index().ctx(|| "reading the index".into())?;
    if index.has_conflicts() {
        let mut paths = Vec::new();
        for c in index.conflicts().ctx(|| "reading conflicts".into())? {
            let c = c.ctx(|| "reading a conflict".into())?;
            if let Some(e) = c.our.or(c.their).or(c.ancestor) {
                paths.push(String::from_utf8_lossy(&e.path).into_owned());
            }
        }
        return Err(GitError::StillConflicted { paths });
    }
    // What is committed is the index; unstaged edits would be lost when the
    // work tree is brought to the final head, so refuse them.
    let mut st = git2::StatusOptions::new();
    st.include_untracked(false);
    let unstaged: Vec<String> = repo
        .statuses(Some(&mut st))
        .ctx(|| "reading status".into())?
        .iter()
        .filter(|e| {
            e.status().intersects(
                git2::Status::WT_MODIFIED
                    | git2::Status::WT_DELETED
                    | git2::Status::WT_TYPECHANGE
                    | git2::Status::WT_RENAMED,
            )
        })
        .filter_map(|e| e.path().ok().map(str::to_owned))
        .collect();
    if !unstaged.is_empty() {
        return Err(GitError::DirtyWorkTree {
            path: repo.workdir().unwrap_or(repo.path()).to_owned(),
            files: unstaged,
        });
    }
    let branch_ref = format!("refs/heads/{}", state.branch);
    let branch_head = repo
        .find_reference(&branch_ref)
        .and_then(|r| r.peel_to_commit())
        .ctx(|| format!("reading {}", state.branch))?;
    let pick = &state.picks[state.conflicted];
    let pc = repo
        .find_commit(pick.commit)
        .ctx(|| format!("reading {}", pick.commit))?;
    let tree_id = index
        .write_tree()
        .ctx(|| "writing the resolved tree".into())?;
    let tree = repo
        .find_tree(tree_id)
        .ctx(|| "reading the resolved tree".into())?;
    let sig = repo
        .signature()
        .map(|s| s.to_owned())
        .unwrap_or_else(|_| git2::Signature::now("lane", "lane@localhost").expect("valid"));
    let message = picked_message(&String::from_utf8_lossy(pc.message_bytes()), pc.id());
    let resolved = repo
        .commit(
            Some(&branch_ref),
            &pc.author(),
            &sig,
            &message,
            &tree,
            &[&branch_head],
        )
        .ctx(|| format!("committing the resolved pick of {}", pick.commit))?;
    repo.cleanup_state()
        .ctx(|| "removing CHERRY_PICK_HEAD".into())?;

    let base = Oid::from_str(&state.base).ctx(|| "reading the base id".into())?;
    let mut reports = state.done.clone();
    reports.push(PickReport {
        pick: pick.clone(),
        outcome: PickOutcome::Applied {
            new_commit: resolved.to_string(),
        },
        adapted: None,
    });
    let mut progress = Progress {
        head: resolved,
        reports,
    };
    let opts = CutOptions {
        dry_run: false,
        on_conflict: OnConflict::Stop,
        date: state.date.clone(),
        tag: state.tag,
        sign: state.sign,
        lane_file: state.lane_file.clone(),
    };
    let mut report = CutReport::planned(
        state.lane.clone(),
        lane.base.to_string(),
        state.base.clone(),
        state.branch.clone(),
        state.tag.then(|| lane.tag_name()),
        true,
    );
    let mut patch_ids = PatchIds::default();
    let private = crate::cut::on_disk(repo)?;
    let repo = &private;
    let odb = repo.odb().ctx(|| "opening the object database".into())?;
    let mempack = odb
        .add_new_mempack_backend(1000)
        .ctx(|| "adding an in-memory object store".into())?;
    let run = apply_picks(
        repo,
        &state.picks,
        state.conflicted + 1,
        &mut progress,
        &mut patch_ids,
    )?;
    if let PickRun::Conflict { index: next, .. } = run {
        // Keep what was applied, move the branch forward, stop again.
        crate::cut::persist(repo, &odb, &mempack)?;
        let last_good = progress.head;
        // A fresh handle has no in-memory store: what it writes lands on disk.
        let disk = crate::cut::on_disk(repo)?;
        disk.reference_matching(
            &branch_ref,
            last_good,
            true,
            resolved,
            "lane cut --continue",
        )
        .ctx(|| format!("moving {}", state.branch))?;
        stop_on_conflict(&disk, &state.branch, &state.picks[next])?;
        let mut next_state = state.clone();
        next_state.branch_head = last_good.to_string();
        next_state.conflicted = next;
        next_state.done = progress.reports[..progress.reports.len() - 1].to_vec();
        next_state.save(repo)?;
        report.picks = progress.reports;
        for p in &state.picks[next + 1..] {
            report.picks.push(PickReport::not_reached(p));
        }
        report.status = CutStatus::Stopped;
        report.head = Some(last_good.to_string());
        return Ok(report);
    }
    finish(
        repo,
        lane,
        &opts,
        &mut report,
        progress,
        base,
        &mut patch_ids,
        &odb,
        &mempack,
        Some(resolved),
    )?;
    if report.status == CutStatus::Cut {
        let repo = &crate::cut::on_disk(repo)?;
        let head = repo
            .revparse_single(&branch_ref)
            .ctx(|| "reading the branch".into())?;
        // Index and work tree equal the resolved commit (checked above), so
        // a hard reset to the final head loses nothing; untracked files stay.
        repo.reset(&head, git2::ResetType::Hard, None)
            .ctx(|| "updating the work tree".into())?;
        CutState::clear(repo)?;
    }
    Ok(report)
}
