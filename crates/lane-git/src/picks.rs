//! Resolving a lane's picks to commits: commit ids directly, PR numbers from
//! the default branch's first-parent history (squash-merge subjects ending
//! `(#N)`, and `Merge pull request #N from …` merges).

use git2::{Oid, Repository};
use lane_file::{Pick, PickRef};
use serde::Serialize;

use crate::error::{Ctx, GitError};
use crate::repo::{resolve_commit, subject};

/// A pick resolved to a commit.
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

fn pr_of_subject(subject: &str) -> Option<u64> {
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
    let mut pr_index: Option<Vec<(u64, Oid)>> = None;
    let mut out = Vec::with_capacity(picks.len());
    for pick in picks {
        let commit = match &pick.target {
            PickRef::Commit(id) => resolve_commit(repo, "commit", id.as_str())?,
            PickRef::Pr(n) => {
                let branch_ref = default_branch_ref(repo, default_branch)?;
                if pr_index.is_none() {
                    pr_index = Some(index_prs(repo, &branch_ref)?);
                }
                let hits: Vec<Oid> = pr_index
                    .as_ref()
                    .expect("filled above")
                    .iter()
                    .filter(|(pr, _)| pr == n)
                    .map(|(_, id)| *id)
                    .collect();
                match hits.as_slice() {
                    [] => {
                        return Err(GitError::PrNotFound {
                            pr: *n,
                            branch: branch_ref,
                        })
                    }
                    [one] => repo.find_commit(*one).ctx(|| format!("reading {one}"))?,
                    many => {
                        return Err(GitError::PrAmbiguous {
                            pr: *n,
                            branch: branch_ref,
                            commits: many.iter().map(Oid::to_string).collect(),
                        })
                    }
                }
            }
        };
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
        let mainline = if commit.parent_count() > 1 { 1 } else { 0 };
        out.push(ResolvedPick {
            target: pick.target.clone(),
            commit: commit.id(),
            subject: subj,
            issue,
            mainline,
        });
    }
    Ok(out)
}

/// PR number -> commit for the first-parent history of `branch_ref`.
fn index_prs(repo: &Repository, branch_ref: &str) -> Result<Vec<(u64, Oid)>, GitError> {
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
