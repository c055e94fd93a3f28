//! What a lane carries over its base: picks of what the upstream did.
//!
//! The real release lines picked four kinds of thing (`docs/releasing.md`):
//! a master squash or a master merge (`pr`, or `commit` with its
//! `mainline`), commits of a PR head taken before master merged it
//! (`pr_head`), and a commit a person adapted to the line by hand
//! (`adapted`), which is applied as it is and names where it came from.

use schemars::JsonSchema;
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

use crate::scalar::{CommitId, Title};

/// What a pick names.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PickRef {
    /// A commit id (a merge commit is picked against `mainline`, 1 by default).
    Commit(CommitId),
    /// A pull request number, resolved from squash-merge subjects ending
    /// `(#N)` and `Merge pull request #N` merge commits on the default branch.
    Pr(u64),
    /// Commits of a PR's head (`refs/pull/<n>/head`), taken before (or
    /// instead of) its merge: `commits` names them, or every commit of the
    /// head that the default branch's first-parent history lacks.
    PrHead {
        /// The PR number.
        pr: u64,
        /// The commits taken, in order; empty: all of the PR's own.
        commits: Vec<CommitId>,
    },
    /// A commit adapted to the line by hand, applied as it is.
    Adapted {
        /// The adapted commit.
        commit: CommitId,
        /// What it was adapted from.
        from: Origin,
    },
}

impl PickRef {
    /// The PR whose comment thread the pick belongs to, when it names one.
    pub fn pr(&self) -> Option<u64> {
        match self {
            PickRef::Pr(n) | PickRef::PrHead { pr: n, .. } => Some(*n),
            PickRef::Adapted {
                from: Origin::Pr(n),
                ..
            } => Some(*n),
            _ => None,
        }
    }
}

impl fmt::Display for PickRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PickRef::Commit(c) => write!(f, "commit {c}"),
            PickRef::Pr(n) => write!(f, "PR #{n}"),
            PickRef::PrHead { pr, commits } if commits.is_empty() => write!(f, "PR #{pr}'s head"),
            PickRef::PrHead { pr, commits } => write!(
                f,
                "PR #{pr}'s head ({})",
                commits
                    .iter()
                    .map(|c| c.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            PickRef::Adapted { commit, from } => write!(f, "commit {commit} (adapted from {from})"),
        }
    }
}

/// Where an adapted pick came from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// A pull request.
    Pr(u64),
    /// A commit.
    Commit(CommitId),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Pr(n) => write!(f, "PR #{n}"),
            Origin::Commit(c) => write!(f, "commit {c}"),
        }
    }
}

/// How an origin is written: `{pr: 511}` or `{commit: <id>}`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("oneOf" = [{"required": ["commit"]}, {"required": ["pr"]}]))]
pub struct OriginSpec {
    /// The pull request adapted.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::limits::number"
    )]
    #[schemars(range(min = crate::limits::NUMBER_MIN))]
    pub pr: Option<u64>,
    /// The commit adapted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<CommitId>,
}

/// One thing the lane carries over its base.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(into = "PickSpec")]
pub struct Pick {
    /// The commit, PR, PR head or adapted commit picked.
    pub target: PickRef,
    /// The upstream issue the fix closes: names its changelog fragment.
    pub issue: Option<u64>,
    /// For a merge commit picked by id: the parent its patch is taken against.
    pub mainline: Option<u32>,
    /// Why a pick was adapted (or anything a reader of the plan should know).
    pub why: Option<Title>,
}

/// How a pick is written in YAML: exactly one of `commit`, `pr`, `pr_head`
/// and `adapted`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("oneOf" = [
    {"required": ["commit"]}, {"required": ["pr"]}, {"required": ["pr_head"]}, {"required": ["adapted", "from"]}
]))]
pub struct PickSpec {
    /// The commit to pick (full or abbreviated id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<CommitId>,
    /// The pull request whose merge (or squash) on the default branch is picked.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::limits::number"
    )]
    #[schemars(range(min = crate::limits::NUMBER_MIN))]
    pub pr: Option<u64>,
    /// The pull request whose head's commits are picked (`refs/pull/<n>/head`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::limits::number"
    )]
    #[schemars(range(min = crate::limits::NUMBER_MIN))]
    pub pr_head: Option<u64>,
    /// With `pr_head`: the head's commits taken, in order (default: all of the PR's own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commits: Vec<CommitId>,
    /// A commit adapted to the line by hand, applied as it is; needs `from`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adapted: Option<CommitId>,
    /// With `adapted`: the PR or commit it was adapted from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<OriginSpec>,
    /// With `commit`: the parent of a merge commit its patch is taken against (default 1).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::limits::mainline"
    )]
    #[schemars(range(min = crate::limits::MAINLINE_MIN))]
    pub mainline: Option<u32>,
    /// The upstream issue number the fix closes (its changelog fragment).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::limits::number"
    )]
    #[schemars(range(min = crate::limits::NUMBER_MIN))]
    pub issue: Option<u64>,
    /// Why it was adapted (shown in the plan, the PR comment and the changelog note).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<Title>,
}

impl TryFrom<PickSpec> for Pick {
    type Error = String;
    fn try_from(s: PickSpec) -> Result<Self, String> {
        let positive = |n: u64, key: &str| {
            crate::limits::check(n, crate::limits::NUMBER_MIN, None)
                .map_err(|e| format!("a pick's `{key}` is a number GitHub gave: {e}"))
        };
        let named = [
            s.commit.is_some(),
            s.pr.is_some(),
            s.pr_head.is_some(),
            s.adapted.is_some(),
        ]
        .iter()
        .filter(|b| **b)
        .count();
        if named != 1 {
            return Err(if named == 0 {
                "a pick needs one of `commit`, `pr`, `pr_head` or `adapted`".into()
            } else {
                "a pick names exactly one of `commit`, `pr`, `pr_head` and `adapted`".into()
            });
        }
        if !s.commits.is_empty() && s.pr_head.is_none() {
            return Err("`commits` belongs to a `pr_head` pick".into());
        }
        if s.from.is_some() && s.adapted.is_none() {
            return Err("`from` belongs to an `adapted` pick".into());
        }
        if s.mainline.is_some() && s.commit.is_none() {
            return Err("`mainline` belongs to a `commit` pick (a PR's merge is picked against its first parent)".into());
        }
        if let Some(m) = s.mainline {
            crate::limits::check(m.into(), crate::limits::MAINLINE_MIN.into(), None)
                .map_err(|e| format!("`mainline` counts parents from 1: {e}"))?;
        }
        if let Some(i) = s.issue {
            positive(i, "issue")?;
        }
        let target = if let Some(c) = s.commit {
            PickRef::Commit(c)
        } else if let Some(n) = s.pr {
            PickRef::Pr(positive(n, "pr")?)
        } else if let Some(n) = s.pr_head {
            PickRef::PrHead {
                pr: positive(n, "pr_head")?,
                commits: s.commits,
            }
        } else {
            let commit = s.adapted.expect("counted above");
            let from = match s.from {
                None => {
                    return Err(format!(
                        "the adapted pick {commit} needs `from` (`pr: <n>` or `commit: <id>`): an adapted pick names what it adapts"
                    ))
                }
                Some(OriginSpec {
                    pr: Some(n),
                    commit: None,
                }) => Origin::Pr(positive(n, "from.pr")?),
                Some(OriginSpec {
                    pr: None,
                    commit: Some(c),
                }) => Origin::Commit(c),
                Some(_) => {
                    return Err("`from` names exactly one of `pr` and `commit`".into());
                }
            };
            PickRef::Adapted { commit, from }
        };
        Ok(Pick {
            target,
            issue: s.issue,
            mainline: s.mainline,
            why: s.why,
        })
    }
}

impl From<Pick> for PickSpec {
    fn from(p: Pick) -> Self {
        let mut s = PickSpec {
            commit: None,
            pr: None,
            pr_head: None,
            commits: Vec::new(),
            adapted: None,
            from: None,
            mainline: p.mainline,
            issue: p.issue,
            why: p.why,
        };
        match p.target {
            PickRef::Commit(c) => s.commit = Some(c),
            PickRef::Pr(n) => s.pr = Some(n),
            PickRef::PrHead { pr, commits } => {
                s.pr_head = Some(pr);
                s.commits = commits;
            }
            PickRef::Adapted { commit, from } => {
                s.adapted = Some(commit);
                s.from = Some(match from {
                    Origin::Pr(n) => OriginSpec {
                        pr: Some(n),
                        commit: None,
                    },
                    Origin::Commit(c) => OriginSpec {
                        pr: None,
                        commit: Some(c),
                    },
                });
            }
        }
        s
    }
}

impl<'de> Deserialize<'de> for Pick {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Pick;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a pick: `commit: <id>`, `pr: <n>`, `pr_head: <n>` or `adapted: <id>` with `from`")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Pick, A::Error> {
                let spec = PickSpec::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Pick::try_from(spec).map_err(de::Error::custom)
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(yaml: &str) -> Result<Pick, String> {
        serde_yaml::from_str::<Pick>(yaml).map_err(|e| e.to_string())
    }

    #[test]
    fn each_kind_of_pick_reads_and_writes_back() {
        for yaml in [
            "pr: 515\n",
            "commit: f6917d52\nmainline: 1\n",
            "pr_head: 982\ncommits:\n- 89b2bbbd\n",
            "adapted: 0720e64c\nfrom:\n  pr: 511\nissue: 989\nwhy: pgw#984 is master-only\n",
        ] {
            let p = pick(yaml).unwrap();
            assert_eq!(serde_yaml::to_string(&p).unwrap(), yaml);
        }
    }

    #[test]
    fn a_pick_names_one_thing_and_its_keys_belong_to_it() {
        for (yaml, says) in [
            ("issue: 3\n", "needs one of"),
            ("pr: 1\ncommit: abcdef0\n", "exactly one"),
            ("adapted: 0720e64c\n", "needs `from`"),
            ("pr: 1\ncommits: [abcdef0]\n", "`commits` belongs"),
            ("pr: 1\nfrom: {pr: 2}\n", "`from` belongs"),
            ("pr: 1\nmainline: 1\n", "`mainline` belongs"),
            (
                "adapted: 0720e64c\nfrom: {pr: 1, commit: abcdef0}\n",
                "exactly one of `pr`",
            ),
            ("pr_head: 0\n", "expected at least 1, found 0"),
        ] {
            let e = pick(yaml).unwrap_err();
            assert!(e.contains(says), "{yaml}: {e}");
        }
    }
}
