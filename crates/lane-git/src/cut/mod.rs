//! The cut: branch from the base tag, cherry-pick, guard, bump, assemble the
//! changelog, and only then write.
//!
//! Every object the cut makes goes first into an in-memory object database
//! (a libgit2 mempack backend), so a dry run, a refusal or an aborted
//! conflict leaves the repository exactly as it was: not a ref, not the
//! index, not the work tree, not even a loose object changes. Only a cut
//! that passed every guard writes its objects (as one pack) and then creates
//! the branch with a compare-and-swap that never moves an existing ref.

use git2::{Commit, Oid, Repository, Signature};
use lane_file::LaneFile;

use tracing::{debug, info};

use crate::error::{ref_not_created, Ctx, GitError};
use crate::guard::{check_after, check_before};
use crate::picks::{resolve, ResolvedPick};
use crate::repo::{
    commit_tree, commits_between, diff_paths, ensure_clean, reaches, resolve_commit, short,
    PatchIds,
};
use crate::state::CutState;
use crate::version_files::find_version;

mod release;
mod report;
pub(crate) use release::release_commit;
pub use report::*;

/// In-memory object database for the duration of a cut.
pub(crate) struct Scratch<'r> {
    odb: git2::Odb<'r>,
}

impl<'r> Scratch<'r> {
    pub(crate) fn new(repo: &'r Repository) -> Result<Self, GitError> {
        let odb = repo.odb().ctx(|| "opening the object database".into())?;
        Ok(Scratch { odb })
    }
    pub(crate) fn with_mempack<T>(
        &self,
        f: impl FnOnce(&git2::Mempack<'_>) -> T,
    ) -> Result<T, GitError> {
        let mempack = self
            .odb
            .add_new_mempack_backend(1000)
            .ctx(|| "adding an in-memory object store".into())?;
        Ok(f(&mempack))
    }
}

/// Writes every object of `mempack` into the repository as one pack.
pub(crate) fn persist(
    repo: &Repository,
    odb: &git2::Odb<'_>,
    mempack: &git2::Mempack<'_>,
) -> Result<(), GitError> {
    let mut buf = git2::Buf::new();
    mempack
        .dump(repo, &mut buf)
        .ctx(|| "packing the cut's objects".into())?;
    if buf.is_empty() {
        return Ok(());
    }
    let mut writer = odb.packwriter().ctx(|| "opening a pack writer".into())?;
    std::io::Write::write_all(&mut writer, &buf).map_err(|e| GitError::Git {
        what: "writing the cut's pack".into(),
        source: git2::Error::from_str(&e.to_string()),
    })?;
    writer.commit().ctx(|| "committing the cut's pack".into())?;
    mempack
        .reset()
        .ctx(|| "clearing the in-memory object store".into())?;
    Ok(())
}

pub(crate) fn signature(repo: &Repository) -> Signature<'static> {
    repo.signature()
        .map(|s| s.to_owned())
        .unwrap_or_else(|_| Signature::now("lane", "lane@localhost").expect("a valid signature"))
}

/// `(cherry picked from commit <id>)`, as `git cherry-pick -x` writes it.
pub fn picked_message(original: &str, id: Oid) -> String {
    let body = original.trim_end();
    format!("{body}\n\n(cherry picked from commit {id})\n")
}

/// Where the cut stands while it runs.
pub(crate) struct Progress {
    pub head: Oid,
    pub reports: Vec<PickReport>,
}

pub(crate) enum PickRun {
    Done,
    Conflict { index: usize, paths: Vec<String> },
}

/// Applies `picks[from..]` on top of `progress.head`, in memory.
pub(crate) fn apply_picks(
    repo: &Repository,
    picks: &[ResolvedPick],
    from: usize,
    progress: &mut Progress,
    patch_ids: &mut PatchIds,
) -> Result<PickRun, GitError> {
    let committer = signature(repo);
    for (i, pick) in picks.iter().enumerate().skip(from) {
        let pc = repo
            .find_commit(pick.commit)
            .ctx(|| format!("reading {}", pick.commit))?;
        let head = repo
            .find_commit(progress.head)
            .ctx(|| format!("reading {}", progress.head))?;
        if let Some(reason) = already_applied(repo, &pc, &head, patch_ids)? {
            info!(pick = %pick.commit, %reason, "skipping a pick");
            progress.reports.push(PickReport {
                pick: pick.clone(),
                outcome: PickOutcome::Skipped { reason },
                adapted: None,
            });
            continue;
        }
        let mut index = repo
            .cherrypick_commit(&pc, &head, pick.mainline, None)
            .ctx(|| format!("cherry-picking {}", pick.commit))?;
        if index.has_conflicts() {
            let paths = conflict_paths(&index)?;
            progress.reports.push(PickReport {
                pick: pick.clone(),
                outcome: PickOutcome::Conflict {
                    paths: paths.clone(),
                },
                adapted: None,
            });
            return Ok(PickRun::Conflict { index: i, paths });
        }
        let tree_id = index
            .write_tree_to(repo)
            .ctx(|| format!("writing the tree of {}", pick.commit))?;
        if tree_id == head.tree_id() {
            progress.reports.push(PickReport {
                pick: pick.clone(),
                outcome: PickOutcome::Skipped {
                    reason: "its changes are already on the branch (the pick is empty)".into(),
                },
                adapted: None,
            });
            continue;
        }
        let tree = repo
            .find_tree(tree_id)
            .ctx(|| format!("reading tree {tree_id}"))?;
        let message = picked_message(&String::from_utf8_lossy(pc.message_bytes()), pc.id());
        let new = repo
            .commit(None, &pc.author(), &committer, &message, &tree, &[&head])
            .ctx(|| format!("committing the pick of {}", pick.commit))?;
        debug!(pick = %pick.commit, new = %new, "applied a pick");
        let adapted = match pick.origin {
            Some(origin) => Some(adapted_check(repo, origin, &head, tree_id)?),
            None => None,
        };
        progress.head = new;
        progress.reports.push(PickReport {
            pick: pick.clone(),
            outcome: PickOutcome::Applied {
                new_commit: new.to_string(),
            },
            adapted,
        });
    }
    Ok(PickRun::Done)
}

/// What an adapted pick's origin would have done where the adaptation
/// went: the paths it conflicts in, or the paths where its result differs
/// from the adaptation's. This is the record of why the pick was adapted.
fn adapted_check(
    repo: &Repository,
    origin: Oid,
    head: &Commit<'_>,
    adapted_tree: Oid,
) -> Result<AdaptedCheck, GitError> {
    let oc = repo
        .find_commit(origin)
        .ctx(|| format!("reading {origin}"))?;
    let mainline = if oc.parent_count() > 1 { 1 } else { 0 };
    let mut index = repo
        .cherrypick_commit(&oc, head, mainline, None)
        .ctx(|| format!("trying the origin {origin}"))?;
    if index.has_conflicts() {
        return Ok(AdaptedCheck {
            origin: origin.to_string(),
            conflicts: conflict_paths(&index)?,
            differs: Vec::new(),
        });
    }
    let tree_id = index
        .write_tree_to(repo)
        .ctx(|| format!("writing the tree of {origin}"))?;
    let a = repo.find_tree(tree_id).ctx(|| "reading a tree".into())?;
    let b = repo
        .find_tree(adapted_tree)
        .ctx(|| "reading a tree".into())?;
    let diff = repo
        .diff_tree_to_tree(Some(&a), Some(&b), None)
        .ctx(|| "comparing the origin with the adaptation".into())?;
    let differs = diff_paths(&diff);
    Ok(AdaptedCheck {
        origin: origin.to_string(),
        conflicts: Vec::new(),
        differs,
    })
}

/// Whether the pick's patch is already on the branch (as `git cherry` decides:
/// the pick itself is reachable, or a commit reachable from the head and not
/// from the pick carries the same patch-id).
pub(crate) fn already_applied(
    repo: &Repository,
    pick: &Commit<'_>,
    head: &Commit<'_>,
    patch_ids: &mut PatchIds,
) -> Result<Option<String>, GitError> {
    if reaches(repo, head.id(), pick.id())? {
        return Ok(Some("the commit is already in the branch's history".into()));
    }
    let Some(pid) = patch_ids.of(repo, pick)? else {
        return Ok(Some("the commit's patch is empty".into()));
    };
    for id in commits_between(repo, pick.id(), head.id())? {
        let c = repo.find_commit(id).ctx(|| format!("reading {id}"))?;
        if c.parent_count() > 1 {
            continue; // as git cherry: merges carry no patch of their own here
        }
        if patch_ids.of(repo, &c)? == Some(pid) {
            return Ok(Some(format!(
                "its patch is already on the branch as {} (\"{}\")",
                short(id),
                crate::repo::subject(&c)
            )));
        }
    }
    Ok(None)
}

fn conflict_paths(index: &git2::Index) -> Result<Vec<String>, GitError> {
    let mut paths = Vec::new();
    for c in index.conflicts().ctx(|| "reading conflicts".into())? {
        let c = c.ctx(|| "reading a conflict".into())?;
        for e in [c.our, c.their, c.ancestor].into_iter().flatten() {
            let p = String::from_utf8_lossy(&e.path).into_owned();
            if !paths.contains(&p) {
                paths.push(p);
            }
        }
    }
    paths.sort();
    Ok(paths)
}

fn files_changed(repo: &Repository, a: Oid, b: Oid) -> Result<Vec<String>, GitError> {
    let ta = commit_tree(repo, a)?;
    let tb = commit_tree(repo, b)?;
    let diff = repo
        .diff_tree_to_tree(Some(&ta), Some(&tb), None)
        .ctx(|| "diffing base and lane".into())?;
    let mut out = diff_paths(&diff);
    out.sort();
    Ok(out)
}

/// Cuts `lane` in `repo`.
pub fn cut(repo: &Repository, lane: &LaneFile, opts: &CutOptions) -> Result<CutReport, GitError> {
    if let Some(state) = CutState::load(repo)? {
        return Err(GitError::CutInProgress { lane: state.lane });
    }
    ensure_clean(repo)?;
    let base = resolve_commit(repo, "base tag", lane.base.as_str())?;
    let branch = lane.branch_name();
    let tag = lane.tag_name();
    let mut report = CutReport::planned(
        lane.version.to_string(),
        lane.base.to_string(),
        base.id().to_string(),
        branch.clone(),
        opts.tag.then(|| tag.clone()),
        false,
    );
    let mut patch_ids = PatchIds::default();

    // An existing branch is never moved: either it already is this cut, or we refuse.
    if let Ok(existing) = repo.find_reference(&format!("refs/heads/{branch}")) {
        let tip = existing
            .peel_to_commit()
            .ctx(|| format!("reading {branch}"))?;
        // A branch on the base is this cut only when it holds exactly the
        // lane's picks and its cut commit: anything else is named, refused.
        if tip.id() != base.id() && reaches(repo, tip.id(), base.id())? {
            crate::proof::require_cut(repo, lane, base.id(), tip.id(), &branch)?;
        }
        if is_already_cut(repo, lane, base.id(), tip.id())? {
            report.status = CutStatus::AlreadyCut;
            report.head = Some(tip.id().to_string());
            report.guards_after = Some(check_after(
                repo,
                lane,
                base.id(),
                tip.id(),
                &branch,
                &mut patch_ids,
            )?);
            let tagged = repo.find_reference(&format!("refs/tags/{tag}")).is_ok();
            if opts.tag && !tagged && report.guards_after.as_ref().is_some_and(|g| g.passed()) {
                crate::landed::tag_cut(repo, lane, opts, &mut report, tip.id())?;
            }
            return Ok(report);
        }
        return Err(GitError::RefExists {
            kind: "branch",
            name: branch,
            existing: tip.id().to_string(),
        });
    }
    if opts.tag {
        if let Ok(existing) = repo.find_reference(&format!("refs/tags/{tag}")) {
            let at = existing
                .peel_to_commit()
                .map(|c| c.id().to_string())
                .unwrap_or_default();
            return Err(GitError::RefExists {
                kind: "tag",
                name: tag,
                existing: at,
            });
        }
    }

    check_version_above(repo, lane, &base)?;

    let picks = resolve_lane_picks(repo, lane)?;
    let before = check_before(repo, lane, base.id(), &picks, &mut patch_ids)?;
    let refused = !before.passed();
    report.guards_before = Some(before);
    if refused {
        report.status = CutStatus::Refused;
        report.picks = picks.iter().map(PickReport::not_reached).collect();
        return Ok(report);
    }

    // A private handle: the in-memory store attached to it goes away with
    // it, so the caller's handle never writes into a dead store.
    let private = on_disk(repo)?;
    let repo = &private;
    let scratch = Scratch::new(repo)?;
    scratch.with_mempack(|mempack| -> Result<CutReport, GitError> {
        let mut progress = Progress {
            head: base.id(),
            reports: Vec::new(),
        };
        let run = apply_picks(repo, &picks, 0, &mut progress, &mut patch_ids)?;
        if let PickRun::Conflict { index, paths } = run {
            report.picks = progress.reports;
            for p in &picks[index + 1..] {
                report.picks.push(PickReport::not_reached(p));
            }
            // A bare repository has no work tree to lay a conflict in.
            if opts.dry_run || opts.on_conflict == OnConflict::Abort || repo.is_bare() {
                // A dry run that meets a conflict is a plan that cannot be
                // made: it must fail as the real cut would (exit 5), or a
                // CI job checking a lane with --dry-run passes it.
                report.status = if opts.dry_run {
                    CutStatus::WouldConflict
                } else {
                    CutStatus::Aborted
                };
                return Ok(report);
            }
            // Stop: keep what was applied, check the branch out, lay the conflict in the work tree.
            persist(repo, &scratch.odb, mempack)?;
            // A fresh handle has no in-memory store: what it writes lands on disk.
            let disk = on_disk(repo)?;
            let orig_head = crate::state::current_head(&disk)?;
            create_branch(&disk, &branch, progress.head)?;
            crate::state::stop_on_conflict(&disk, &branch, &picks[index])?;
            let state = CutState {
                lane: lane.version.to_string(),
                lane_file: opts.lane_file.clone(),
                branch: branch.clone(),
                base: base.id().to_string(),
                orig_head,
                branch_head: progress.head.to_string(),
                conflicted: index,
                picks: picks.clone(),
                done: report.picks[..index].to_vec(),
                tag: opts.tag,
                sign: opts.sign,
                date: opts.date.clone(),
            };
            state.save(repo)?;
            report.status = CutStatus::Stopped;
            report.head = Some(progress.head.to_string());
            report.written = true;
            info!(%branch, pick = %picks[index].commit, ?paths, "cut stopped on a conflict");
            return Ok(report);
        }
        finish(
            repo,
            lane,
            opts,
            &mut report,
            progress,
            base.id(),
            &mut patch_ids,
            &scratch.odb,
            mempack,
            None,
        )?;
        Ok(report)
    })?
}

/// Bump, changelog, guards on the result, then write (unless a dry run).
/// `moving_from` is the branch's current head when the branch exists
/// already (a continued cut); None creates it.
#[allow(clippy::too_many_arguments)]
pub(crate) fn finish(
    repo: &Repository,
    lane: &LaneFile,
    opts: &CutOptions,
    report: &mut CutReport,
    progress: Progress,
    base: Oid,
    patch_ids: &mut PatchIds,
    odb: &git2::Odb<'_>,
    mempack: &git2::Mempack<'_>,
    moving_from: Option<Oid>,
) -> Result<(), GitError> {
    let branch = lane.branch_name();
    report.picks = progress.reports;
    let release = release_commit(repo, lane, progress.head, &report.picks, &opts.date)?;
    report.version_files = release.bumps;
    report.changelog = Some(release.changelog);
    report.head = Some(release.head.to_string());
    report.files_changed = files_changed(repo, base, release.head)?;
    if release.disagree.is_some() {
        report.status = CutStatus::VersionsDisagree;
        return Ok(());
    }
    let after = check_after(repo, lane, base, release.head, &branch, patch_ids)?;
    let passed = after.passed();
    report.guards_after = Some(after);
    if !passed {
        report.status = CutStatus::Refused;
        return Ok(());
    }
    if opts.dry_run {
        report.status = CutStatus::Planned;
        return Ok(());
    }
    // Every object first (the cut's pack, then the tag object, signed when
    // asked), and only then the refs: a signer or a tag that fails leaves
    // no branch behind, so a rerun is not refused for a half-made cut.
    // The tag is made (and signed) before anything is written: a signer
    // that fails leaves the repository as it was.
    let tag_bytes = match opts.tag {
        true => {
            let signing = match opts.sign {
                true => Some(crate::sign::SigningConfig::read(repo)?),
                false => None,
            };
            let tag = lane.tag_name();
            let section = report
                .changelog
                .as_ref()
                .map(|c| c.section.as_str())
                .filter(|s| !s.is_empty());
            let message = tag_message(lane, section);
            let sig = signature(repo);
            let bytes =
                crate::sign::tag_object(&tag, release.head, &sig, &message, signing.as_ref())?;
            Some((tag, bytes))
        }
        false => None,
    };
    persist(repo, odb, mempack)?;
    // A fresh handle has no in-memory store: what it writes lands on disk.
    let repo = &on_disk(repo)?;
    let tag_object = match tag_bytes {
        Some((tag, bytes)) => Some((tag, crate::sign::write_tag_object(repo, &bytes)?)),
        None => None,
    };
    match moving_from {
        None => create_branch(repo, &branch, release.head)?,
        Some(old) => {
            repo.reference_matching(
                &format!("refs/heads/{branch}"),
                release.head,
                true,
                old,
                &format!("lane cut: {}", lane.version),
            )
            .ctx(|| format!("moving {branch} forward (it changed underneath?)"))?;
        }
    }
    if let Some((tag, id)) = tag_object {
        if let Err(e) = repo.reference(
            &format!("refs/tags/{tag}"),
            id,
            false,
            &format!("lane cut: tag {}", lane.version),
        ) {
            // Put the branch back as it was: the cut is all or nothing.
            match moving_from {
                None => {
                    if let Ok(mut r) = repo.find_reference(&format!("refs/heads/{branch}")) {
                        if r.target() == Some(release.head) {
                            let _ = r.delete();
                        }
                    }
                }
                Some(old) => {
                    let _ = repo.reference_matching(
                        &format!("refs/heads/{branch}"),
                        old,
                        true,
                        release.head,
                        "lane cut: undo after the tag failed",
                    );
                }
            }
            return Err(ref_not_created("tag", &tag, e));
        }
        report.signed = opts.sign;
    }
    report.status = CutStatus::Cut;
    report.written = true;
    info!(%branch, head = %release.head, "cut");
    Ok(())
}

/// The release tag's message: `<tag> <title>`, then the changelog section.
pub(crate) fn tag_message(lane: &LaneFile, section: Option<&str>) -> String {
    let mut message = format!(
        "{} {}",
        lane.tag_name(),
        lane.title
            .as_ref()
            .map(lane_file::Title::as_str)
            .unwrap_or("")
    )
    .trim_end()
    .to_owned();
    if let Some(s) = section {
        message.push_str("\n\n");
        message.push_str(s.trim_end());
    }
    message
}

/// A second handle on the same repository, without the in-memory store.
pub(crate) fn on_disk(repo: &Repository) -> Result<Repository, GitError> {
    Repository::open(repo.path()).map_err(|source| GitError::Open {
        path: repo.path().to_owned(),
        source,
    })
}

fn create_branch(repo: &Repository, branch: &str, at: Oid) -> Result<(), GitError> {
    // `force = false`: if someone created it meanwhile, fail rather than move it.
    repo.reference(
        &format!("refs/heads/{branch}"),
        at,
        false,
        "lane cut: branch from base",
    )
    .map(|_| ())
    .map_err(|e| ref_not_created("branch", branch, e))
}

/// The lane's picks resolved on its upstream's default branch.
pub(crate) fn resolve_lane_picks(
    repo: &Repository,
    lane: &LaneFile,
) -> Result<Vec<ResolvedPick>, GitError> {
    resolve(
        repo,
        &lane.picks,
        lane.upstream.default_branch.as_str(),
        &issue_prefix(lane),
    )
}

/// The issue prefix read off the changelog's fragment name (`pgw{issue}.md` -> `pgw`).
pub(crate) fn issue_prefix(lane: &LaneFile) -> String {
    lane.changelog
        .as_ref()
        .and_then(|c| c.fragment_name.split("{issue}").next())
        .unwrap_or("")
        .trim_end_matches(['-', '_', '#'])
        .to_owned()
}

/// A branch that descends from the base and whose version files all hold
/// the lane version is this lane's cut.
fn is_already_cut(
    repo: &Repository,
    lane: &LaneFile,
    base: Oid,
    tip: Oid,
) -> Result<bool, GitError> {
    if !reaches(repo, tip, base)? || tip == base {
        return Ok(false);
    }
    let tree = commit_tree(repo, tip)?;
    if lane.version_files.is_empty() {
        return Ok(false);
    }
    for vf in &lane.version_files {
        let Some(text) = crate::repo::read_text(repo, &tree, vf.path.as_str())? else {
            return Ok(false);
        };
        if find_version(vf, &text).map(|s| s.version).ok().as_deref() != Some(lane.version.as_str())
        {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A version a tag names: `v0.93.2` or `0.93.2`.
fn tag_version(name: &str) -> Option<semver::Version> {
    semver::Version::parse(name.strip_prefix('v').unwrap_or(name)).ok()
}

/// The lane's version must be above every tag of its line (same
/// MAJOR.MINOR) and above what the base's version files say: a patch lane
/// releases a version its line has not had.
pub fn check_version_above(
    repo: &Repository,
    lane: &LaneFile,
    base: &Commit<'_>,
) -> Result<(), GitError> {
    let version = lane.version.semver();
    let names = repo.tag_names(None).ctx(|| "listing tags".into())?;
    // git2 yields each name as Result<Option<&str>>: a name that is not
    // UTF-8 is no version of ours.
    let highest = names
        .iter()
        .flatten()
        .flatten()
        .filter_map(|n| tag_version(n).map(|v| (v, n.to_owned())))
        .filter(|(v, _)| v.major == version.major && v.minor == version.minor && v.pre.is_empty())
        .max_by(|a, b| a.0.cmp(&b.0));
    if let Some((v, name)) = highest {
        if &v >= version {
            return Err(GitError::VersionNotAbove {
                version: lane.version.to_string(),
                existing: v.to_string(),
                what: format!("tag {name} of the {}.{} line", version.major, version.minor),
            });
        }
    }
    let tree = base.tree().ctx(|| "reading the base tree".into())?;
    for vf in &lane.version_files {
        let Some(text) = crate::repo::read_text(repo, &tree, vf.path.as_str())? else {
            continue;
        };
        let Ok(spot) = find_version(vf, &text) else {
            continue;
        };
        let Ok(found) = semver::Version::parse(&spot.version) else {
            continue;
        };
        if &found >= version {
            return Err(GitError::VersionNotAbove {
                version: lane.version.to_string(),
                existing: found.to_string(),
                what: format!("{} at the base {}", vf.path, lane.base),
            });
        }
    }
    Ok(())
}

/// The result of a cut made in memory by [`simulate`].
pub struct Simulated {
    /// Each pick and what happened to it.
    pub picks: Vec<PickReport>,
    /// The pick that conflicted (its index) and where; no release commit then.
    pub conflict: Option<(usize, Vec<String>)>,
    /// The head: the release commit, or the last pick applied.
    pub head: Oid,
    /// Its tree.
    pub tree: Oid,
    /// The version bumps.
    pub bumps: Vec<VersionBump>,
    /// The changelog step (None after a conflict).
    pub changelog: Option<ChangelogPlan>,
}

/// Makes the cut of `lane` in memory (the picks on the base, then the
/// release commit), without guards, version checks or refs, and hands the
/// result to `f` while its objects exist. `lane init` replays a released
/// tag this way to prove a lane file reproduces it.
pub fn simulate<T>(
    repo: &Repository,
    lane: &LaneFile,
    date: &str,
    f: impl FnOnce(&Repository, &Simulated) -> Result<T, GitError>,
) -> Result<T, GitError> {
    let base = resolve_commit(repo, "base", lane.base.as_str())?.id();
    let picks = resolve_lane_picks(repo, lane)?;
    let private = on_disk(repo)?;
    let repo = &private;
    let scratch = Scratch::new(repo)?;
    scratch.with_mempack(|_mempack| -> Result<T, GitError> {
        let mut progress = Progress {
            head: base,
            reports: Vec::new(),
        };
        let mut patch_ids = PatchIds::default();
        let run = apply_picks(repo, &picks, 0, &mut progress, &mut patch_ids)?;
        let sim = match run {
            PickRun::Conflict { index, paths } => {
                let head = progress.head;
                let tree = repo
                    .find_commit(head)
                    .ctx(|| format!("reading {head}"))?
                    .tree_id();
                Simulated {
                    picks: progress.reports,
                    conflict: Some((index, paths)),
                    head,
                    tree,
                    bumps: Vec::new(),
                    changelog: None,
                }
            }
            PickRun::Done => {
                let release = release_commit(repo, lane, progress.head, &progress.reports, date)?;
                let tree = repo
                    .find_commit(release.head)
                    .ctx(|| format!("reading {}", release.head))?
                    .tree_id();
                Simulated {
                    picks: progress.reports,
                    conflict: None,
                    head: release.head,
                    tree,
                    bumps: release.bumps,
                    changelog: Some(release.changelog),
                }
            }
        };
        f(repo, &sim)
    })?
}
