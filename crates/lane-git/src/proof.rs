//! The proof that a lane branch is the lane's cut: from the base, exactly
//! the lane's picks in order, then its cut commit, nothing missing and
//! nothing extra. `lane cut --tag`, "already cut", `lane wheel` and `lane
//! publish` all ask [`prove_cut`] before they trust a branch head.
//!
//! A commit of the branch is a pick when the pick, cherry-picked in memory
//! onto that commit's own parent, gives that commit's tree (what lane's cut
//! makes); or when it carries the pick's patch (patch-id equality, as `git
//! cherry` decides: a pick made by hand); or, where that cherry-pick
//! conflicts, when its message carries the pick's `(cherry picked from
//! commit <id>)` (a conflict resolved and `lane cut --continue`d). A pick
//! already on the branch below it is expected absent, as the cut skips it.
//! The cut commit is the branch's last commit, changing only the cut's
//! paths (the version files, the changelog and its fragments).
//!
//! The alignment itself ([`align`]) is pure over what git answered; the
//! answers are asked in memory (an in-memory object store: proving writes
//! nothing to the repository).

use git2::{Commit, Oid, Repository};
use lane_file::LaneFile;
use serde::Serialize;

use crate::cut::{already_applied, on_disk, resolve_lane_picks, Scratch};
use crate::error::{Ctx, GitError};
use crate::picks::ResolvedPick;
use crate::repo::{changed_paths, reaches, subject, PatchIds};

/// A commit the proof names: its id and subject (the subject is foreign
/// text, kept as written: escape it where it is shown).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NamedCommit {
    /// The commit id.
    pub id: String,
    /// Its subject line, as written.
    pub subject: String,
}

impl NamedCommit {
    fn of(c: &Commit<'_>) -> NamedCommit {
        NamedCommit {
            id: c.id().to_string(),
            subject: subject(c),
        }
    }
    /// Its id, abbreviated to 12 characters.
    pub fn short(&self) -> &str {
        &self.id[..12.min(self.id.len())]
    }
}

/// How a commit of the branch was found to be a pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FoundBy {
    /// The pick cherry-picked onto its parent gives its tree.
    SameTree,
    /// It carries the pick's patch (patch-id equality).
    SamePatch,
    /// The pick conflicts on its parent, and it names the pick
    /// (`cherry picked from commit`): a conflict resolved at the cut.
    ResolvedConflict,
}

/// What the branch holds for one pick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "found", rename_all = "snake_case")]
pub enum PickFound {
    /// The commit of the branch that is this pick.
    At {
        /// The branch's commit.
        commit: NamedCommit,
        /// How it was recognised.
        by: FoundBy,
    },
    /// Already on the branch below it (the cut skips it).
    AlreadyThere {
        /// Why, as the cut says it.
        reason: String,
    },
    /// Nowhere on the branch.
    Missing,
}

/// One pick of the lane and what the branch holds for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProvenPick {
    /// The pick's own commit.
    pub pick: NamedCommit,
    /// What the branch holds for it.
    #[serde(flatten)]
    pub found: PickFound,
}

/// The proof (or disproof) that a branch is the lane's cut.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CutProof {
    /// The branch.
    pub branch: String,
    /// Its head.
    pub head: String,
    /// The base it was cut from.
    pub base: String,
    /// Every pick, in the lane's order.
    pub picks: Vec<ProvenPick>,
    /// The cut commit (the last commit after the picks that changes only
    /// the cut's paths; exact only when nothing follows it).
    pub cut_commit: Option<NamedCommit>,
    /// Commits of the branch that are neither a pick nor the cut commit,
    /// oldest first.
    pub extra: Vec<NamedCommit>,
}

impl CutProof {
    /// The branch holds exactly the lane's picks, in order, and its cut commit.
    pub fn exact(&self) -> bool {
        self.cut_commit.is_some() && self.extra.is_empty() && self.missing().next().is_none()
    }

    /// The picks the branch lacks.
    pub fn missing(&self) -> impl Iterator<Item = &NamedCommit> {
        self.picks
            .iter()
            .filter(|p| p.found == PickFound::Missing)
            .map(|p| &p.pick)
    }
}

/// What git answered about one pick against one commit of the branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Matched {
    /// It is that pick, found this way.
    Yes(FoundBy),
    /// It is not.
    No,
}

/// The alignment of the lane's picks with the branch's commits, as indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alignment {
    /// For each pick: the branch commit that is it, how; or why it is
    /// absent (`Err(Some(reason))`: already there; `Err(None)`: missing).
    pub picks: Vec<Result<(usize, FoundBy), Option<String>>>,
    /// The cut commit's index.
    pub cut_commit: Option<usize>,
    /// Every other commit's index, ascending.
    pub extra: Vec<usize>,
}

/// Aligns `picks` picks with `commits` commits (oldest first), in order:
/// each pick is the first commit after the previous pick's that
/// `matches(pick, commit)`; a pick `already(pick, last matched commit)`
/// says is on the branch already is expected absent; the last `cut_only`
/// commit after the picks is the cut commit; the rest is extra (a commit
/// after the cut commit too: the cut is the head). Pure: every fact is
/// asked through the closures.
pub fn align<E>(
    picks: usize,
    commits: usize,
    mut already: impl FnMut(usize, Option<usize>) -> Result<Option<String>, E>,
    mut matches: impl FnMut(usize, usize) -> Result<Matched, E>,
    cut_only: impl Fn(usize) -> bool,
) -> Result<Alignment, E> {
    let mut out = Alignment {
        picks: Vec::with_capacity(picks),
        cut_commit: None,
        extra: Vec::new(),
    };
    let mut next = 0;
    let mut head = None;
    for p in 0..picks {
        if let Some(reason) = already(p, head)? {
            out.picks.push(Err(Some(reason)));
            continue;
        }
        let mut found = None;
        for c in next..commits {
            if let Matched::Yes(by) = matches(p, c)? {
                found = Some((c, by));
                break;
            }
        }
        match found {
            Some((c, by)) => {
                out.extra.extend(next..c);
                out.picks.push(Ok((c, by)));
                next = c + 1;
                head = Some(c);
            }
            None => out.picks.push(Err(None)),
        }
    }
    // The cut commit: the last one after the picks that changes only the
    // cut's paths; anything after it is extra, as is anything before it.
    out.cut_commit = (next..commits).rev().find(|c| cut_only(*c));
    out.extra
        .extend((next..commits).filter(|c| Some(*c) != out.cut_commit));
    Ok(out)
}

/// The commits of `base..tip`, oldest first (parents before children).
fn branch_commits(repo: &Repository, base: Oid, tip: Oid) -> Result<Vec<Oid>, GitError> {
    let mut walk = repo.revwalk().ctx(|| "starting a history walk".into())?;
    walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)
        .ctx(|| "sorting a history walk".into())?;
    walk.push(tip).ctx(|| format!("walking from {tip}"))?;
    walk.hide(base).ctx(|| format!("hiding {base}"))?;
    walk.collect::<Result<Vec<_>, _>>()
        .ctx(|| format!("walking {base}..{tip}"))
}

/// Whether `c` changes only the cut's paths (the version files, the
/// changelog, its fragments folder and the files the cut writes), and
/// changes something.
fn cut_only(repo: &Repository, lane: &LaneFile, c: &Commit<'_>) -> Result<bool, GitError> {
    if c.parent_count() != 1 {
        return Ok(false);
    }
    let covers = |p: &str| {
        lane.version_files.iter().any(|v| v.path.as_str() == p)
            || lane.changelog.as_ref().is_some_and(|cl| {
                p == cl.file.as_str()
                    || p.starts_with(&format!("{}/", cl.fragments.trimmed()))
                    || cl.write.iter().any(|w| w.path.as_str() == p)
            })
    };
    let paths = changed_paths(repo, c)?;
    Ok(!paths.is_empty() && paths.iter().all(|p| covers(p)))
}

/// Whether `commit` (of the branch) is `pick`: see the module doc.
fn is_pick(
    repo: &Repository,
    pick: &ResolvedPick,
    commit: &Commit<'_>,
    patch_ids: &mut PatchIds,
) -> Result<Matched, GitError> {
    if commit.parent_count() != 1 {
        return Ok(Matched::No);
    }
    let parent = commit
        .parent(0)
        .ctx(|| format!("reading {}'s parent", commit.id()))?;
    let pc = repo
        .find_commit(pick.commit)
        .ctx(|| format!("reading {}", pick.commit))?;
    let mut index = repo
        .cherrypick_commit(&pc, &parent, pick.mainline, None)
        .ctx(|| format!("cherry-picking {} in memory", pick.commit))?;
    let conflicts = index.has_conflicts();
    if !conflicts {
        let tree = index
            .write_tree_to(repo)
            .ctx(|| format!("writing the tree of {}", pick.commit))?;
        if tree == commit.tree_id() {
            return Ok(Matched::Yes(FoundBy::SameTree));
        }
    }
    let theirs = patch_ids.of(repo, &pc)?;
    if theirs.is_some() && patch_ids.of(repo, commit)? == theirs {
        return Ok(Matched::Yes(FoundBy::SamePatch));
    }
    let trailer = format!("(cherry picked from commit {})", pick.commit);
    let message = String::from_utf8_lossy(commit.message_bytes());
    if conflicts && message.lines().any(|l| l.trim() == trailer) {
        return Ok(Matched::Yes(FoundBy::ResolvedConflict));
    }
    Ok(Matched::No)
}

/// Proves whether `branch`, whose head is `tip`, holds exactly `lane`'s cut
/// on `base`: the lane's picks in order, then its cut commit, nothing
/// missing and nothing extra. Writes nothing to the repository.
pub fn prove_cut(
    repo: &Repository,
    lane: &LaneFile,
    base: Oid,
    tip: Oid,
    branch: &str,
) -> Result<CutProof, GitError> {
    let picks = resolve_lane_picks(repo, lane)?;
    let private = on_disk(repo)?;
    let repo = &private;
    let scratch = Scratch::new(repo)?;
    scratch.with_mempack(|_| prove_in_memory(repo, lane, &picks, base, tip, branch))?
}

fn prove_in_memory(
    repo: &Repository,
    lane: &LaneFile,
    picks: &[ResolvedPick],
    base: Oid,
    tip: Oid,
    branch: &str,
) -> Result<CutProof, GitError> {
    let on_base = reaches(repo, tip, base)?;
    // A branch off another commit holds nothing of this cut: every commit
    // of it since the base's history is extra.
    let ids = branch_commits(repo, base, tip)?;
    let commits = ids
        .iter()
        .map(|id| repo.find_commit(*id).ctx(|| format!("reading {id}")))
        .collect::<Result<Vec<_>, _>>()?;
    let patch_ids = std::cell::RefCell::new(PatchIds::default());
    let picked = picks
        .iter()
        .map(|p| {
            repo.find_commit(p.commit)
                .ctx(|| format!("reading {}", p.commit))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let base_commit = repo.find_commit(base).ctx(|| format!("reading {base}"))?;
    let mut only = Vec::with_capacity(commits.len());
    for c in &commits {
        only.push(cut_only(repo, lane, c)?);
    }
    let aligned = align(
        if on_base { picks.len() } else { 0 },
        commits.len(),
        |p, head| {
            let head = head.map_or(&base_commit, |h| &commits[h]);
            already_applied(repo, &picked[p], head, &mut patch_ids.borrow_mut())
        },
        |p, c| is_pick(repo, &picks[p], &commits[c], &mut patch_ids.borrow_mut()),
        |c| on_base && only[c],
    )?;
    let found = |a: &Result<(usize, FoundBy), Option<String>>| match a {
        Ok((c, by)) => PickFound::At {
            commit: NamedCommit::of(&commits[*c]),
            by: *by,
        },
        Err(Some(reason)) => PickFound::AlreadyThere {
            reason: reason.clone(),
        },
        Err(None) => PickFound::Missing,
    };
    // Off the base, `align` was given no pick: every one is missing.
    let proven = picked
        .iter()
        .enumerate()
        .map(|(i, p)| ProvenPick {
            pick: NamedCommit::of(p),
            found: aligned.picks.get(i).map_or(PickFound::Missing, found),
        })
        .collect();
    Ok(CutProof {
        branch: branch.to_owned(),
        head: tip.to_string(),
        base: base.to_string(),
        picks: proven,
        cut_commit: aligned.cut_commit.map(|c| NamedCommit::of(&commits[c])),
        extra: aligned
            .extra
            .iter()
            .map(|c| NamedCommit::of(&commits[*c]))
            .collect(),
    })
}

/// [`prove_cut`], refusing a branch that is not exactly the cut
/// ([`GitError::NotTheCut`], naming what is missing and extra).
pub fn require_cut(
    repo: &Repository,
    lane: &LaneFile,
    base: Oid,
    tip: Oid,
    branch: &str,
) -> Result<CutProof, GitError> {
    let proof = prove_cut(repo, lane, base, tip, branch)?;
    if proof.exact() {
        return Ok(proof);
    }
    Err(GitError::NotTheCut {
        lane: lane.version.to_string(),
        proof: Box::new(proof),
    })
}

/// [`require_cut`] of the lane branch's head, from the lane's base.
pub fn require_branch_is_cut(repo: &Repository, lane: &LaneFile) -> Result<CutProof, GitError> {
    let base = crate::repo::resolve_commit(repo, "base tag", lane.base.as_str())?.id();
    let branch = lane.branch_name();
    let tip =
        crate::repo::resolve_commit(repo, "lane branch", &format!("refs/heads/{branch}"))?.id();
    require_cut(repo, lane, base, tip, &branch)
}

/// How many extra commits [`describe`] names.
pub const NAMED: usize = 20;

/// One line per commit the proof names as missing or extra, `<short>
/// <subject>` with the subject passed through `inert` (the caller's
/// escaping for where it is shown).
/// At most [`NAMED`] extra commits are named, then how many more.
pub fn describe(proof: &CutProof, inert: impl Fn(&str) -> String) -> Vec<String> {
    let mut lines = Vec::new();
    for m in proof.missing() {
        lines.push(format!("missing pick {} {}", m.short(), inert(&m.subject)));
    }
    for e in proof.extra.iter().take(NAMED) {
        lines.push(format!("extra commit {} {}", e.short(), inert(&e.subject)));
    }
    if proof.extra.len() > NAMED {
        lines.push(format!(
            "and {} more extra commits",
            proof.extra.len() - NAMED
        ));
    }
    if proof.cut_commit.is_none() {
        lines.push(format!(
            "no cut commit: no commit of {} after the picks (head {}) changes only the version files and the changelog",
            proof.branch,
            &proof.head[..12.min(proof.head.len())]
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    type Facts = (Vec<Option<&'static str>>, Vec<(usize, usize)>, Vec<bool>);

    /// `already[p]` when pick p is on the base; `(p, c)` pairs that match.
    fn run(picks: usize, commits: usize, facts: Facts) -> Alignment {
        let (already, matching, only) = facts;
        align::<()>(
            picks,
            commits,
            |p, _| Ok(already.get(p).copied().flatten().map(str::to_owned)),
            |p, c| {
                Ok(if matching.contains(&(p, c)) {
                    Matched::Yes(FoundBy::SameTree)
                } else {
                    Matched::No
                })
            },
            |c| only[c],
        )
        .unwrap()
    }

    #[test]
    fn the_exact_cut_aligns_every_pick_and_the_cut_commit() {
        let a = run(
            2,
            3,
            (vec![], vec![(0, 0), (1, 1)], vec![false, false, true]),
        );
        assert_eq!(
            a.picks,
            vec![Ok((0, FoundBy::SameTree)), Ok((1, FoundBy::SameTree))]
        );
        assert_eq!(a.cut_commit, Some(2));
        assert!(a.extra.is_empty());
    }

    #[test]
    fn a_missing_pick_is_named_and_the_rest_still_aligns() {
        let a = run(
            3,
            3,
            (vec![], vec![(0, 0), (2, 1)], vec![false, false, true]),
        );
        assert_eq!(a.picks[1], Err(None));
        assert_eq!(a.picks[2], Ok((1, FoundBy::SameTree)));
        assert_eq!(a.cut_commit, Some(2));
        assert!(a.extra.is_empty());
    }

    #[test]
    fn an_extra_commit_between_picks_or_after_the_cut_is_named() {
        let a = run(2, 4, (vec![], vec![(0, 0), (1, 2)], vec![false; 4]));
        assert_eq!(a.extra, vec![1, 3], "{a:?}");
        assert_eq!(a.cut_commit, None);
        let a = run(1, 3, (vec![], vec![(0, 0)], vec![false, true, false]));
        assert_eq!(a.cut_commit, Some(1));
        assert_eq!(a.extra, vec![2], "the cut commit must be the head: {a:?}");
    }

    #[test]
    fn a_lane_without_picks_calls_every_pick_of_the_branch_extra() {
        let a = run(0, 4, (vec![], vec![], vec![false, false, false, true]));
        assert_eq!(a.extra, vec![0, 1, 2]);
        assert_eq!(a.cut_commit, Some(3));
    }

    #[test]
    fn picks_out_of_order_are_not_the_cut() {
        let a = run(
            2,
            3,
            (vec![], vec![(0, 1), (1, 0)], vec![false, false, true]),
        );
        assert_eq!(a.picks[0], Ok((1, FoundBy::SameTree)));
        assert_eq!(a.picks[1], Err(None));
        assert_eq!(a.extra, vec![0]);
    }

    #[test]
    fn a_pick_already_on_the_base_is_expected_absent() {
        let a = run(
            2,
            2,
            (
                vec![Some("on the base"), None],
                vec![(1, 0)],
                vec![false, true],
            ),
        );
        assert_eq!(a.picks[0], Err(Some("on the base".into())));
        assert_eq!(a.picks[1], Ok((0, FoundBy::SameTree)));
        assert_eq!(a.cut_commit, Some(1));
    }
}
