//! Resolving a lane's picks to commits: commit ids directly, PR numbers from
//! the default branch's first-parent history (squash-merge subjects ending
//! `(#N)`, and `Merge pull request #N from …` merges).

use git2::{Commit, Oid, Repository};
use lane_file::{Origin, Pick, PickRef};
use serde::Serialize;

use crate::error::{Ctx, GitError};
use crate::repo::{resolve_commit, subject};

/// A pick resolved to a commit (a `pr_head` pick resolves to one per commit).
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct ResolvedPick {
    /// What the lane file named.
    pub target: PickRef,
    /// The commit picked.
    #[serde(with = "crate::oid_hex")]
    pub commit: Oid,
    /// Its subject line.
    pub subject: String,
    /// The issue whose changelog fragment it brings (from the lane file, or
    /// read off the subject, `<prefix>#N`).
    pub issue: Option<u64>,
    /// The parent its patch is taken against (1 for a merge's mainline); 0
    /// for an ordinary commit.
    pub mainline: u32,
    /// For an adapted pick: the commit it was adapted from (its origin resolved).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_oid")]
    pub origin: Option<Oid>,
    /// Why (the lane file's `why`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// Serde for an optional `git2::Oid`.
mod opt_oid {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(oid: &Option<git2::Oid>, s: S) -> Result<S::Ok, S::Error> {
        match oid {
            Some(o) => s.serialize_str(&o.to_string()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<git2::Oid>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|s| git2::Oid::from_str(&s).map_err(serde::de::Error::custom))
            .transpose()
    }
}

/// Which ref PR numbers are looked up on: `origin/<branch>` when it exists
/// (a clone's view of upstream), else the local branch.
pub fn default_branch_ref(repo: &Repository, branch: &str) -> Result<String, GitError> {
    for candidate in [
        format!("refs/remotes/origin/{branch}"),
        format!("refs/heads/{branch}"),
    ] {
        if repo.find_reference(&candidate).is_ok() {
            return Ok(candidate);
        }
    }
    Err(GitError::Unresolved {
        what: "default branch",
        name: branch.to_owned(),
        source: git2::Error::from_str("neither origin/<branch> nor a local branch exists"),
    })
}

/// The PR number a default-branch subject names: a squash (`… (#N)`) or a
/// merge (`Merge pull request #N …`).
pub fn pr_of_subject(subject: &str) -> Option<u64> {
    if let Some(rest) = subject.strip_prefix("Merge pull request #") {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        return digits.parse().ok();
    }
    let s = subject.trim_end();
    let inner = s.strip_suffix(')')?;
    let open = inner.rfind("(#")?;
    inner[open + 2..].parse().ok()
}

/// Reads an issue number `<prefix>#N` off a subject (e.g. `pgw#989: …`).
pub fn issue_of_subject(subject: &str, prefix: &str) -> Option<u64> {
    if prefix.is_empty() {
        return None;
    }
    let needle = format!("{prefix}#");
    let i = subject.find(&needle)?;
    let digits: String = subject[i + needle.len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Resolves every pick, in order. `issue_prefix` (e.g. `pgw`) reads issue
/// numbers off subjects for picks that do not name one.
pub fn resolve(
    repo: &Repository,
    picks: &[Pick],
    default_branch: &str,
    issue_prefix: &str,
) -> Result<Vec<ResolvedPick>, GitError> {
    let mut prs = PrIndex::new(repo, default_branch);
    let mut out = Vec::with_capacity(picks.len());
    for pick in picks {
        let mut origin = None;
        let commits: Vec<Commit<'_>> = match &pick.target {
            PickRef::Commit(id) => vec![resolve_commit(repo, "commit", id.as_str())?],
            PickRef::Pr(n) => vec![prs.find(*n)?],
            PickRef::PrHead { pr, commits } => pr_head_commits(repo, &mut prs, *pr, commits)?,
            PickRef::Adapted { commit, from } => {
                origin = Some(match from {
                    Origin::Pr(n) => prs.find(*n)?.id(),
                    Origin::Commit(c) => resolve_commit(repo, "commit", c.as_str())?.id(),
                });
                vec![resolve_commit(repo, "adapted commit", commit.as_str())?]
            }
        };
        for commit in commits {
            let subj = subject(&commit);
            // A merge's own subject names only the PR: read the issue off its
            // message, then off the merged branch's tip.
            let issue = pick
                .issue
                .or_else(|| issue_of_subject(&subj, issue_prefix))
                .or_else(|| {
                    issue_of_subject(
                        &String::from_utf8_lossy(commit.message_bytes()),
                        issue_prefix,
                    )
                })
                .or_else(|| {
                    commit
                        .parent(1)
                        .ok()
                        .and_then(|p| issue_of_subject(&subject(&p), issue_prefix))
                });
            let mainline =
                match (commit.parent_count() > 1, pick.mainline) {
                    (true, Some(m)) if m as usize <= commit.parent_count() => m,
                    (true, Some(m)) => {
                        return Err(GitError::Unresolved {
                            what: "mainline parent",
                            name: format!("{} of {}", m, commit.id()),
                            source: git2::Error::from_str(&format!(
                                "the merge has {} parents",
                                commit.parent_count()
                            )),
                        })
                    }
                    (true, None) => 1,
                    (false, Some(_)) => return Err(GitError::Unresolved {
                        what: "mainline parent",
                        name: commit.id().to_string(),
                        source: git2::Error::from_str(
                            "`mainline` names the parent of a merge, and this commit is not one",
                        ),
                    }),
                    (false, None) => 0,
                };
            out.push(ResolvedPick {
                target: pick.target.clone(),
                commit: commit.id(),
                subject: subj,
                issue,
                mainline,
                origin,
                why: pick.why.as_ref().map(|w| w.as_str().to_owned()),
            });
        }
    }
    Ok(out)
}

/// The ref a PR's head is fetched to, as GitHub serves it.
pub fn pr_head_ref(pr: u64) -> String {
    format!("refs/pull/{pr}/head")
}

/// A `pr_head` pick's commits: the ones named (each must be in the head's
/// history), or every commit of the head the default branch's first-parent
/// history lacks, oldest first.
fn pr_head_commits<'r>(
    repo: &'r Repository,
    prs: &mut PrIndex<'_>,
    pr: u64,
    named: &[lane_file::CommitId],
) -> Result<Vec<Commit<'r>>, GitError> {
    let head_ref = pr_head_ref(pr);
    let head = resolve_commit(repo, "PR head", &head_ref).map_err(|_| GitError::PrHeadMissing {
        pr,
        reference: head_ref.clone(),
    })?;
    if !named.is_empty() {
        let mut out = Vec::new();
        for c in named {
            let commit = resolve_commit(repo, "commit", c.as_str())?;
            if !crate::repo::reaches(repo, head.id(), commit.id())? {
                return Err(GitError::NotInPrHead {
                    pr,
                    commit: commit.id().to_string(),
                });
            }
            out.push(commit);
        }
        return Ok(out);
    }
    let mainline = prs.first_parent_set()?;
    let mut own = Vec::new();
    let mut at = head;
    while !mainline.contains(&at.id()) {
        let parent = at.parent(0).ok();
        own.push(at);
        match parent {
            Some(p) => at = p,
            None => break,
        }
    }
    own.reverse();
    if own.is_empty() {
        return Err(GitError::NotInPrHead {
            pr,
            commit: "(none: every commit of its head is on the default branch)".into(),
        });
    }
    Ok(own)
}

/// PR numbers looked up on the default branch, read once when first needed.
struct PrIndex<'r> {
    repo: &'r Repository,
    branch: &'r str,
    by_pr: Option<(String, Vec<(u64, Oid)>)>,
    first_parent: Option<std::collections::HashSet<Oid>>,
}

impl<'r> PrIndex<'r> {
    fn new(repo: &'r Repository, branch: &'r str) -> Self {
        PrIndex {
            repo,
            branch,
            by_pr: None,
            first_parent: None,
        }
    }

    fn find(&mut self, n: u64) -> Result<Commit<'r>, GitError> {
        if self.by_pr.is_none() {
            let branch_ref = default_branch_ref(self.repo, self.branch)?;
            let index = index_prs(self.repo, &branch_ref)?;
            self.by_pr = Some((branch_ref, index));
        }
        let (branch_ref, index) = self.by_pr.as_ref().expect("filled above");
        let hits: Vec<Oid> = index
            .iter()
            .filter(|(pr, _)| *pr == n)
            .map(|(_, id)| *id)
            .collect();
        match hits.as_slice() {
            [] => Err(GitError::PrNotFound {
                pr: n,
                branch: branch_ref.clone(),
            }),
            [one] => self.repo.find_commit(*one).ctx(|| format!("reading {one}")),
            many => Err(GitError::PrAmbiguous {
                pr: n,
                branch: branch_ref.clone(),
                commits: many.iter().map(Oid::to_string).collect(),
            }),
        }
    }

    fn first_parent_set(&mut self) -> Result<&std::collections::HashSet<Oid>, GitError> {
        if self.first_parent.is_none() {
            let branch_ref = default_branch_ref(self.repo, self.branch)?;
            let mut walk = self
                .repo
                .revwalk()
                .ctx(|| "starting a history walk".into())?;
            walk.push_ref(&branch_ref)
                .ctx(|| format!("walking {branch_ref}"))?;
            walk.simplify_first_parent()
                .ctx(|| "first-parent walk".into())?;
            let set = walk
                .collect::<Result<_, _>>()
                .ctx(|| format!("walking {branch_ref}"))?;
            self.first_parent = Some(set);
        }
        Ok(self.first_parent.as_ref().expect("filled above"))
    }
}

/// PR number -> commit for the first-parent history of `branch_ref`.
pub fn index_prs(repo: &Repository, branch_ref: &str) -> Result<Vec<(u64, Oid)>, GitError> {
    let mut walk = repo.revwalk().ctx(|| "starting a history walk".into())?;
    walk.push_ref(branch_ref)
        .ctx(|| format!("walking {branch_ref}"))?;
    walk.simplify_first_parent()
        .ctx(|| "first-parent walk".into())?;
    let mut out = Vec::new();
    for id in walk {
        let id = id.ctx(|| format!("walking {branch_ref}"))?;
        let commit = repo.find_commit(id).ctx(|| format!("reading {id}"))?;
        if let Some(pr) = pr_of_subject(&subject(&commit)) {
            out.push((pr, id));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pr_numbers_come_from_squash_and_merge_subjects() {
        assert_eq!(pr_of_subject("pgw#992: fix the thing (#515)"), Some(515));
        assert_eq!(pr_of_subject("Merge pull request #520 from a/b"), Some(520));
        assert_eq!(pr_of_subject("pgw#992: mentions (#515) mid-subject"), None);
        assert_eq!(pr_of_subject("no pr"), None);
        assert_eq!(pr_of_subject("odd (#x)"), None);
    }

    #[test]
    fn issues_come_from_prefixed_references() {
        assert_eq!(
            issue_of_subject("pgw#989: the dynamo mint (#511)", "pgw"),
            Some(989)
        );
        assert_eq!(issue_of_subject("th#1597 (BREAKING)", "pgw"), None);
        assert_eq!(issue_of_subject("pgw#x", "pgw"), None);
    }
}
