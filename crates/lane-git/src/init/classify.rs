//! What each commit of a real release line is: a pick of a master squash or
//! merge, commits of a PR head, a hand adaptation, the cut, or a commit
//! made on the line. Judged by patch-id on the files that are not the cut's
//! (version files, the changelog and its fragments), so a pick and the cut
//! made in one commit are still told apart.

use std::collections::HashMap;

use git2::{Commit, DiffOptions, Oid, Repository};
use serde::Serialize;

use crate::error::{Ctx, GitError};
use crate::picks::{issue_of_subject, pr_head_ref, pr_of_subject};
use crate::repo::{diff_paths, mainline_diff, patch_id, subject};

/// What a commit of the line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineClass {
    /// A pick of a default-branch commit (same patch).
    Pick,
    /// A pick of a default-branch merge against its first parent.
    MergePick,
    /// A commit of a PR's head, taken before (or instead of) its merge.
    PrHeadPick,
    /// A hand adaptation of a default-branch change (another patch).
    Adapted,
    /// The cut: only version files and the changelog.
    Cut,
    /// A merge on the line (not picked: its sides are).
    Merge,
    /// Made on the line itself.
    Line,
}

/// One commit of the line and what it is.
#[derive(Debug, Clone, Serialize)]
pub struct LineCommit {
    /// The commit.
    pub commit: String,
    /// Its subject.
    pub subject: String,
    /// What it is.
    pub class: LineClass,
    /// The commit it picks or adapts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// The PR it belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pr: Option<u64>,
    /// Whether it also carries part of the cut (version files, changelog).
    pub carries_cut: bool,
    /// The files it changes besides the cut's.
    pub code_files: Vec<String>,
}

/// The paths that belong to the cut.
pub struct CutPaths {
    /// Version files.
    pub version_files: Vec<String>,
    /// The changelog.
    pub changelog: String,
    /// The fragments folder, with its trailing `/`.
    pub fragments: String,
}

impl CutPaths {
    /// Whether `path` is the cut's.
    pub fn covers(&self, path: &str) -> bool {
        self.version_files.iter().any(|v| v == path)
            || path == self.changelog
            || path.starts_with(&self.fragments)
    }
}

/// The default branch's first-parent history, read once: each commit with
/// its PR number (from its subject) and issue numbers, for lookups.
pub struct Mainline {
    /// Oldest first.
    pub commits: Vec<Oid>,
    by_pr: HashMap<u64, Oid>,
    subjects: HashMap<Oid, String>,
}

impl Mainline {
    /// Reads the first-parent history of `branch_ref`.
    pub fn read(repo: &Repository, branch_ref: &str) -> Result<Mainline, GitError> {
        let mut walk = repo.revwalk().ctx(|| "starting a history walk".into())?;
        walk.push_ref(branch_ref)
            .ctx(|| format!("walking {branch_ref}"))?;
        walk.simplify_first_parent()
            .ctx(|| "first-parent walk".into())?;
        let mut commits = Vec::new();
        let mut by_pr = HashMap::new();
        let mut subjects = HashMap::new();
        for id in walk {
            let id = id.ctx(|| format!("walking {branch_ref}"))?;
            let c = repo.find_commit(id).ctx(|| format!("reading {id}"))?;
            let s = subject(&c);
            if let Some(pr) = pr_of_subject(&s) {
                by_pr.entry(pr).or_insert(id);
            }
            subjects.insert(id, s);
            commits.push(id);
        }
        commits.reverse();
        Ok(Mainline {
            commits,
            by_pr,
            subjects,
        })
    }
    /// The default-branch commit of PR `n` (its squash or merge).
    pub fn of_pr(&self, n: u64) -> Option<Oid> {
        self.by_pr.get(&n).copied()
    }
    /// Whether `id` is on the first-parent history.
    pub fn contains(&self, id: Oid) -> bool {
        self.subjects.contains_key(&id)
    }
    /// Default-branch commits whose subject names issue `<prefix>#n`.
    pub fn of_issue(&self, prefix: &str, n: u64) -> Vec<Oid> {
        self.commits
            .iter()
            .filter(|c| issue_of_subject(&self.subjects[*c], prefix) == Some(n))
            .copied()
            .collect()
    }
}

/// The patch-id of `commit` against its mainline parent, over `paths`
/// only (None: empty).
fn patch_id_over(
    repo: &Repository,
    commit: &Commit<'_>,
    paths: &[String],
) -> Result<Option<Oid>, GitError> {
    let mut opts = DiffOptions::new();
    opts.disable_pathspec_match(true);
    for p in paths {
        opts.pathspec(p);
    }
    patch_id(repo, commit, opts)
}

/// Classifies one non-merge commit of the line.
pub fn classify(
    repo: &Repository,
    mainline: &Mainline,
    cut: &CutPaths,
    issue_prefix: &str,
    id: Oid,
) -> Result<LineCommit, GitError> {
    let c = repo.find_commit(id).ctx(|| format!("reading {id}"))?;
    let subj = subject(&c);
    let mut out = LineCommit {
        commit: id.to_string(),
        subject: subj.clone(),
        class: LineClass::Line,
        origin: None,
        pr: pr_of_subject(&subj),
        carries_cut: false,
        code_files: Vec::new(),
    };
    if c.parent_count() > 1 {
        out.class = LineClass::Merge;
        return Ok(out);
    }
    let files = diff_paths(&mainline_diff(repo, &c, None)?);
    out.carries_cut = files.iter().any(|f| cut.covers(f));
    out.code_files = files.into_iter().filter(|f| !cut.covers(f)).collect();
    if out.code_files.is_empty() {
        out.class = LineClass::Cut;
        return Ok(out);
    }
    let ours = patch_id_over(repo, &c, &out.code_files)?;
    // The same change on these files: a merge's against its first parent.
    // Cut files may differ (a pick and the cut in one commit, a fragment
    // edited on the line): the changelog step accounts for them.
    let same = |other: &Commit<'_>| -> Result<bool, GitError> {
        Ok(patch_id_over(repo, other, &out.code_files)? == ours)
    };
    // Candidates named by the subject: its PR, its issue.
    let issue = issue_of_subject(&subj, issue_prefix);
    let mut candidates: Vec<Oid> = Vec::new();
    if let Some(pr) = out.pr {
        candidates.extend(mainline.of_pr(pr));
    }
    if let Some(n) = issue {
        candidates.extend(mainline.of_issue(issue_prefix, n));
    }
    candidates.dedup();
    for m in &candidates {
        let mc = repo.find_commit(*m).ctx(|| format!("reading {m}"))?;
        if same(&mc)? {
            out.class = if mc.parent_count() > 1 {
                LineClass::MergePick
            } else {
                LineClass::Pick
            };
            out.origin = Some(m.to_string());
            out.pr = pr_of_subject(&subject(&mc)).or(out.pr);
            return Ok(out);
        }
    }
    // A PR head's commit: look in the heads of the PRs the subject and the
    // default-branch candidates name.
    let mut prs: Vec<u64> = out.pr.into_iter().collect();
    prs.extend(
        candidates
            .iter()
            .filter_map(|m| repo.find_commit(*m).ok())
            .filter_map(|mc| pr_of_subject(&subject(&mc))),
    );
    prs.sort();
    prs.dedup();
    // The PR's own commits: its head's first-parent chain down to the
    // default branch.
    let own_commit = |head: Commit<'_>,
                      limit: usize,
                      wanted: &dyn Fn(&Commit<'_>) -> Result<bool, GitError>|
     -> Result<Option<Oid>, GitError> {
        let mut at = Some(head);
        let mut steps = 0;
        while let Some(h) = at {
            if mainline.contains(h.id()) || steps > limit {
                break;
            }
            if h.parent_count() == 1 && wanted(&h)? {
                return Ok(Some(h.id()));
            }
            at = h.parent(0).ok();
            steps += 1;
        }
        Ok(None)
    };
    let mut found = None;
    for pr in &prs {
        let Ok(head) = crate::repo::resolve_commit(repo, "PR head", &pr_head_ref(*pr)) else {
            continue;
        };
        if let Some(id) = own_commit(head, 200, &|h| same(h))? {
            found = Some((*pr, id));
            break;
        }
    }
    // Not named by its subject: a PR head holding a commit of the same
    // subject and patch (a PR merged later as a true merge, whose merge
    // subject names only the PR).
    if found.is_none() {
        for r in repo
            .references_glob("refs/pull/*/head")
            .ctx(|| "listing PR heads".into())?
            .flatten()
        {
            let Some(pr) = r
                .name()
                .ok()
                .and_then(|n| n.strip_prefix("refs/pull/"))
                .and_then(|n| n.strip_suffix("/head"))
                .and_then(|n| n.parse::<u64>().ok())
            else {
                continue;
            };
            let Ok(head) = r.peel_to_commit() else {
                continue;
            };
            if prs.contains(&pr) {
                continue;
            }
            if let Some(id) = own_commit(head, 50, &|h| Ok(subject(h) == subj && same(h)?))? {
                found = Some((pr, id));
                break;
            }
        }
    }
    if let Some((pr, id)) = found {
        out.class = LineClass::PrHeadPick;
        out.origin = Some(id.to_string());
        out.pr = Some(pr);
        return Ok(out);
    }
    if let Some(m) = candidates.first() {
        out.class = LineClass::Adapted;
        out.origin = Some(m.to_string());
        let mc = repo.find_commit(*m).ctx(|| format!("reading {m}"))?;
        out.pr = pr_of_subject(&subject(&mc)).or(out.pr);
    }
    Ok(out)
}
