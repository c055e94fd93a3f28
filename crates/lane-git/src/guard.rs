//! The guards: what a lane must never carry, proven on git objects.
//!
//! Evaluated twice by a cut: before anything is written (on the base tag and
//! the resolved picks) and on the result (on the lane's own commits and
//! tree). `lane guard` runs the second form on any ref.

use git2::{Oid, Repository};
use lane_file::{Guard, LaneFile, TreeProbe};
use serde::Serialize;
use std::fmt;

use crate::error::{Ctx, GitError};
use crate::picks::ResolvedPick;
use crate::repo::{
    changed_paths, commit_tree, commits_between, diff_paths, entry_id, reaches, read_text, short,
    subject, PatchIds,
};

/// When the guards were evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GuardStage {
    /// On the base tag and the picks, before anything is written.
    Before,
    /// On the lane's commits and tree.
    After,
}

/// Why a guard refused, naming the commit, path or line that broke it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GuardRefusal {
    /// A forbidden commit does not exist here, so its absence cannot be proven.
    ForbiddenUnknown {
        /// The forbidden commit as the lane file names it.
        forbidden: String,
    },
    /// The base already contains a forbidden commit (it is past the cut).
    BasePastCut {
        /// The forbidden commit.
        forbidden: String,
        /// The base commit.
        base: String,
    },
    /// A forbidden commit is reachable from the lane.
    ForbiddenReachable {
        /// The forbidden commit.
        forbidden: String,
        /// The lane head it is reachable from.
        head: String,
    },
    /// A pick (or a lane commit) carries the same patch as a forbidden commit.
    PatchEquivalent {
        /// The forbidden commit.
        forbidden: String,
        /// The commit with the same patch.
        commit: String,
        /// That commit's subject.
        subject: String,
    },
    /// A pick (or a lane commit) changes a frozen path.
    FrozenPathTouched {
        /// The commit.
        commit: String,
        /// Its subject.
        subject: String,
        /// The path it changes.
        path: String,
    },
    /// The lane's copy of a frozen path differs from the base tag's.
    FrozenPathDiffers {
        /// The frozen path.
        path: String,
        /// Its object id at the base (None: absent).
        base: Option<String>,
        /// Its object id in the lane (None: absent).
        lane: Option<String>,
    },
    /// A probed file is missing.
    ProbeFileMissing {
        /// The file.
        path: String,
    },
    /// A `.proto` change breaks one of buf's rules the guard holds.
    WireBreaking {
        /// buf's rule id.
        rule: String,
        /// The file.
        file: String,
        /// The element's full name.
        element: String,
        /// What changed, in buf's words.
        message: String,
    },
    /// The `.proto` files could not be judged (a syntax error, a bound).
    WireUnreadable {
        /// Why.
        message: String,
    },
    /// A probed file does not match what it must.
    ProbeNoMatch {
        /// The file.
        path: String,
        /// The pattern it must match.
        pattern: String,
    },
    /// A probed file matches what it must not.
    ProbeForbiddenMatch {
        /// The file.
        path: String,
        /// The pattern it must not match.
        pattern: String,
        /// 1-based line of the match.
        line: usize,
        /// The offending line.
        text: String,
    },
}

impl fmt::Display for GuardRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuardRefusal::ForbiddenUnknown { forbidden } => write!(
                f,
                "forbidden commit {forbidden} is not in this repository, so its absence cannot be proven (fetch it)"
            ),
            GuardRefusal::BasePastCut { forbidden, base } => write!(
                f,
                "the base {base} already contains forbidden commit {forbidden}: it is past the cut"
            ),
            GuardRefusal::ForbiddenReachable { forbidden, head } => {
                write!(f, "forbidden commit {forbidden} is reachable from {head}")
            }
            GuardRefusal::PatchEquivalent {
                forbidden,
                commit,
                subject,
            } => write!(
                f,
                "commit {commit} (\"{subject}\") carries the same patch as forbidden commit {forbidden}"
            ),
            GuardRefusal::FrozenPathTouched {
                commit,
                subject,
                path,
            } => write!(f, "commit {commit} (\"{subject}\") changes frozen path {path}"),
            GuardRefusal::FrozenPathDiffers { path, base, lane } => write!(
                f,
                "frozen path {path} differs from the base ({} at the base, {} in the lane)",
                base.as_deref().unwrap_or("absent"),
                lane.as_deref().unwrap_or("absent")
            ),
            GuardRefusal::WireBreaking {
                rule,
                file,
                element,
                message,
            } => write!(f, "{file}: {rule} on {element}: {message}"),
            GuardRefusal::WireUnreadable { message } => {
                write!(f, "the .proto files cannot be judged: {message}")
            }
            GuardRefusal::ProbeFileMissing { path } => write!(f, "probed file {path} is missing"),
            GuardRefusal::ProbeNoMatch { path, pattern } => {
                write!(f, "{path} does not match `{pattern}`")
            }
            GuardRefusal::ProbeForbiddenMatch {
                path,
                pattern,
                line,
                text,
            } => write!(f, "{path}:{line} matches `{pattern}`: {text}"),
        }
    }
}

/// One guard's verdict.
#[derive(Debug, Clone, Serialize)]
pub struct GuardVerdict {
    /// The guard's name.
    pub guard: String,
    /// What was checked and held.
    pub proven: Vec<String>,
    /// What broke it (empty: the guard passed).
    pub refusals: Vec<GuardRefusal>,
}

impl GuardVerdict {
    /// The verdict of `guard` before anything is checked.
    fn unchecked(guard: &Guard) -> Self {
        GuardVerdict {
            guard: guard.name.clone(),
            proven: Vec::new(),
            refusals: Vec::new(),
        }
    }
}

/// Every guard's verdict at one stage.
#[derive(Debug, Clone, Serialize)]
pub struct GuardReport {
    /// When they were evaluated.
    pub stage: GuardStage,
    /// One verdict per guard, in lane-file order.
    pub verdicts: Vec<GuardVerdict>,
}

impl GuardReport {
    /// Whether every guard passed.
    pub fn passed(&self) -> bool {
        self.verdicts.iter().all(|v| v.refusals.is_empty())
    }
    /// The verdict as `summary.json` records it, for the commit `head`:
    /// one line per lane, naming the first refusal when there is one.
    pub fn record(&self, head: Oid) -> lane_core::GuardRecord {
        let summary = match self.refusals().next() {
            None => self
                .verdicts
                .iter()
                .map(|v| format!("{}: {} checks held", v.guard, v.proven.len()))
                .collect::<Vec<_>>()
                .join("; "),
            Some((guard, first)) => {
                let more = self.refusals().count() - 1;
                let more = if more > 0 {
                    format!(" (and {more} more)")
                } else {
                    String::new()
                };
                format!("{guard} refused: {first}{more}")
            }
        };
        lane_core::GuardRecord {
            passed: self.passed(),
            commit: head.to_string(),
            summary: if summary.is_empty() {
                "the lane has no guards".to_owned()
            } else {
                summary
            },
        }
    }

    /// Every refusal with its guard's name.
    pub fn refusals(&self) -> impl Iterator<Item = (&str, &GuardRefusal)> {
        self.verdicts
            .iter()
            .flat_map(|v| v.refusals.iter().map(move |r| (v.guard.as_str(), r)))
    }
}

/// Evaluates the guards before a cut: on the base and the picks.
pub fn check_before(
    repo: &Repository,
    lane: &LaneFile,
    base: Oid,
    picks: &[ResolvedPick],
    patch_ids: &mut PatchIds,
) -> Result<GuardReport, GitError> {
    let base_tree = commit_tree(repo, base)?;
    let checked: Vec<Checked> = picks
        .iter()
        .map(|p| Checked {
            id: p.commit,
            subject: p.subject.clone(),
        })
        .collect();
    let mut verdicts = Vec::new();
    for guard in &lane.guards {
        let mut v = GuardVerdict::unchecked(guard);
        forbidden_absent(
            repo,
            guard,
            base,
            &checked,
            patch_ids,
            &mut v,
            |forbidden| GuardRefusal::BasePastCut {
                forbidden,
                base: lane.base.to_string(),
            },
            |fc| {
                format!(
                    "{fc} is not reachable from {} and no pick carries its patch",
                    lane.base
                )
            },
        )?;
        if !guard.frozen_paths.is_empty() {
            let before = v.refusals.len();
            frozen_touched(repo, guard, &checked, &mut v)?;
            if v.refusals.len() == before {
                v.proven
                    .push(format!("no pick touches {}", frozen_list(guard)));
            }
        }
        probe_all(repo, &base_tree, guard, &mut v)?;
        verdicts.push(v);
    }
    Ok(GuardReport {
        stage: GuardStage::Before,
        verdicts,
    })
}

/// Evaluates the guards on a lane head: its own commits (`base..head`) and tree.
pub fn check_after(
    repo: &Repository,
    lane: &LaneFile,
    base: Oid,
    head: Oid,
    head_name: &str,
    patch_ids: &mut PatchIds,
) -> Result<GuardReport, GitError> {
    let base_tree = commit_tree(repo, base)?;
    let head_tree = commit_tree(repo, head)?;
    let own: Vec<Checked> = commits_between(repo, base, head)?
        .into_iter()
        .map(|id| {
            let c = repo.find_commit(id).ctx(|| format!("reading {id}"))?;
            Ok(Checked {
                id,
                subject: subject(&c),
            })
        })
        .collect::<Result<_, GitError>>()?;
    let mut verdicts = Vec::new();
    for guard in &lane.guards {
        let mut v = GuardVerdict::unchecked(guard);
        forbidden_absent(
            repo,
            guard,
            head,
            &own,
            patch_ids,
            &mut v,
            |forbidden| GuardRefusal::ForbiddenReachable {
                forbidden,
                head: head_name.to_owned(),
            },
            |fc| {
                format!(
                    "{fc} is not reachable from {head_name} and none of its {} own commits carries its patch",
                    own.len()
                )
            },
        )?;
        if !guard.frozen_paths.is_empty() {
            let before = v.refusals.len();
            frozen_touched(repo, guard, &own, &mut v)?;
            for fp in &guard.frozen_paths {
                let a = entry_id(&base_tree, fp.as_str());
                let b = entry_id(&head_tree, fp.as_str());
                if a != b {
                    v.refusals.push(GuardRefusal::FrozenPathDiffers {
                        path: fp.to_string(),
                        base: a.map(|o| o.to_string()),
                        lane: b.map(|o| o.to_string()),
                    });
                }
            }
            if v.refusals.len() == before {
                v.proven.push(format!(
                    "{} equal {} byte for byte",
                    frozen_list(guard),
                    lane.base
                ));
            }
        }
        probe_all(repo, &head_tree, guard, &mut v)?;
        if let Some(w) = &guard.wire {
            wire_check(
                repo,
                &base_tree,
                &head_tree,
                w,
                &lane.base.to_string(),
                &mut v,
            )?;
        }
        verdicts.push(v);
    }
    Ok(GuardReport {
        stage: GuardStage::After,
        verdicts,
    })
}

/// A commit a guard pass checks: a pick before the cut, a lane's own
/// commit after it.
struct Checked {
    id: Oid,
    subject: String,
}

/// Checks each of the guard's forbidden commits in one pass (before the cut
/// or after it): `tip` must not reach it and none of `commits` may carry
/// its patch. A reached one is the pass's own refusal (`reached`, given its
/// id); one that neither holds is proven (`proven`, given its short id).
#[allow(clippy::too_many_arguments)] // the two passes differ in the last four
fn forbidden_absent(
    repo: &Repository,
    guard: &Guard,
    tip: Oid,
    commits: &[Checked],
    patch_ids: &mut PatchIds,
    v: &mut GuardVerdict,
    reached: impl Fn(String) -> GuardRefusal,
    proven: impl Fn(&str) -> String,
) -> Result<(), GitError> {
    for f in &guard.forbidden_commits {
        let Some(fc) = find_forbidden(repo, f.as_str(), v) else {
            continue;
        };
        if reaches(repo, tip, fc.id())? {
            v.refusals.push(reached(fc.id().to_string()));
            continue;
        }
        if no_patch_of(repo, &fc, commits, patch_ids, v)? {
            v.proven.push(proven(&short(fc.id())));
        }
    }
    Ok(())
}

/// True when none of `commits` is the forbidden commit `fc` or carries its
/// patch; each that does is a refusal in `v`.
fn no_patch_of(
    repo: &Repository,
    fc: &git2::Commit<'_>,
    commits: &[Checked],
    patch_ids: &mut PatchIds,
    v: &mut GuardVerdict,
) -> Result<bool, GitError> {
    let fpid = patch_ids.of(repo, fc)?;
    let mut clean = true;
    for c in commits {
        let commit = repo.find_commit(c.id).ctx(|| format!("reading {}", c.id))?;
        if c.id == fc.id() || (fpid.is_some() && patch_ids.of(repo, &commit)? == fpid) {
            clean = false;
            v.refusals.push(GuardRefusal::PatchEquivalent {
                forbidden: fc.id().to_string(),
                commit: c.id.to_string(),
                subject: c.subject.clone(),
            });
        }
    }
    Ok(clean)
}

/// Each path of `guard`'s frozen paths that one of `commits` changes is a
/// refusal in `v`.
fn frozen_touched(
    repo: &Repository,
    guard: &Guard,
    commits: &[Checked],
    v: &mut GuardVerdict,
) -> Result<(), GitError> {
    for c in commits {
        let commit = repo.find_commit(c.id).ctx(|| format!("reading {}", c.id))?;
        for path in changed_paths(repo, &commit)? {
            if guard.frozen_paths.iter().any(|fp| fp.covers(&path)) {
                v.refusals.push(GuardRefusal::FrozenPathTouched {
                    commit: c.id.to_string(),
                    subject: c.subject.clone(),
                    path,
                });
            }
        }
    }
    Ok(())
}

fn frozen_list(guard: &Guard) -> String {
    guard
        .frozen_paths
        .iter()
        .map(|p| p.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn find_forbidden<'r>(
    repo: &'r Repository,
    id: &str,
    v: &mut GuardVerdict,
) -> Option<git2::Commit<'r>> {
    match repo
        .revparse_single(&format!("{id}^{{commit}}"))
        .and_then(|o| o.peel_to_commit())
    {
        Ok(c) => Some(c),
        Err(_) => {
            v.refusals.push(GuardRefusal::ForbiddenUnknown {
                forbidden: id.to_owned(),
            });
            None
        }
    }
}

fn probe_all(
    repo: &Repository,
    tree: &git2::Tree<'_>,
    guard: &Guard,
    v: &mut GuardVerdict,
) -> Result<(), GitError> {
    for probe in &guard.probes {
        let before = v.refusals.len();
        probe_one(repo, tree, probe, v)?;
        if v.refusals.len() == before {
            let mut what = Vec::new();
            if let Some(m) = &probe.must_match {
                what.push(format!("matches `{}`", m.as_str()));
            }
            if let Some(m) = &probe.must_not_match {
                what.push(format!("does not match `{}`", m.as_str()));
            }
            v.proven
                .push(format!("{} {}", probe.path, what.join(" and ")));
        }
    }
    Ok(())
}

fn probe_one(
    repo: &Repository,
    tree: &git2::Tree<'_>,
    probe: &TreeProbe,
    v: &mut GuardVerdict,
) -> Result<(), GitError> {
    let Some(text) = read_text(repo, tree, probe.path.as_str())? else {
        v.refusals.push(GuardRefusal::ProbeFileMissing {
            path: probe.path.to_string(),
        });
        return Ok(());
    };
    if let Some(m) = &probe.must_match {
        if !m.regex().is_match(&text) {
            v.refusals.push(GuardRefusal::ProbeNoMatch {
                path: probe.path.to_string(),
                pattern: m.as_str().to_owned(),
            });
        }
    }
    if let Some(m) = &probe.must_not_match {
        if let Some(found) = m.regex().find(&text) {
            let line = text[..found.start()].matches('\n').count() + 1;
            let text_line = text.lines().nth(line - 1).unwrap_or_default().to_owned();
            v.refusals.push(GuardRefusal::ProbeForbiddenMatch {
                path: probe.path.to_string(),
                pattern: m.as_str().to_owned(),
                line,
                text: text_line,
            });
        }
    }
    Ok(())
}

/// Every `.proto` file under the guard's folders, by path.
fn proto_tree(
    repo: &Repository,
    tree: &git2::Tree<'_>,
    folders: &[lane_file::RepoPath],
) -> Result<lane_wire::ProtoTree, GitError> {
    let mut out = lane_wire::ProtoTree::new();
    let mut failed = None;
    tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
        let name = String::from_utf8_lossy(entry.name_bytes());
        let path = format!("{dir}{name}");
        if entry.kind() == Some(git2::ObjectType::Blob)
            && name.ends_with(".proto")
            && folders.iter().any(|f| f.covers(&path))
        {
            match repo.find_blob(entry.id()) {
                Ok(b) => out.insert(path, String::from_utf8_lossy(b.content()).into_owned()),
                Err(e) => {
                    failed = Some(e);
                    return git2::TreeWalkResult::Abort;
                }
            }
        }
        git2::TreeWalkResult::Ok
    })
    .ctx(|| "reading the .proto files".into())?;
    match failed {
        Some(e) => Err(GitError::Git {
            what: "reading a .proto file".into(),
            source: e,
        }),
        None => Ok(out),
    }
}

/// The wire-compatibility check: the base's `.proto` against the lane's,
/// judged by buf's rules of the categories the guard holds, and generated
/// code that changed without its `.proto`.
fn wire_check(
    repo: &Repository,
    base_tree: &git2::Tree<'_>,
    head_tree: &git2::Tree<'_>,
    guard: &lane_file::WireGuard,
    base_name: &str,
    v: &mut GuardVerdict,
) -> Result<(), GitError> {
    let before = proto_tree(repo, base_tree, &guard.proto)?;
    let after = proto_tree(repo, head_tree, &guard.proto)?;
    let categories: Vec<lane_wire::Category> = guard
        .rules
        .iter()
        .map(|r| match r {
            lane_file::WireRule::Wire => lane_wire::Category::Wire,
            lane_file::WireRule::WireJson => lane_wire::Category::WireJson,
            lane_file::WireRule::Package => lane_wire::Category::Package,
        })
        .collect();
    let names = categories
        .iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let start = v.refusals.len();
    if before.proto_files().count() == 0 && after.proto_files().count() == 0 {
        v.proven.push("no .proto files on either side".into());
        return Ok(());
    }
    let same = before.proto_files().collect::<Vec<_>>() == after.proto_files().collect::<Vec<_>>();
    if !same {
        match lane_wire::judge(&before, &after, &categories) {
            Ok(j) => {
                for f in j.findings {
                    v.refusals.push(GuardRefusal::WireBreaking {
                        rule: f.rule.as_str().to_owned(),
                        file: f.file,
                        element: f.element,
                        message: f.message,
                    });
                }
            }
            Err(e) => v.refusals.push(GuardRefusal::WireUnreadable {
                message: e.to_string(),
            }),
        }
    }
    if !guard.generated.is_empty() {
        let diff = repo
            .diff_tree_to_tree(Some(base_tree), Some(head_tree), None)
            .ctx(|| "diffing base and lane".into())?;
        let changed = diff_paths(&diff);
        let generated: Vec<&str> = guard.generated.iter().map(|g| g.as_str()).collect();
        let protos: Vec<&str> = guard.proto.iter().map(|g| g.as_str()).collect();
        for f in lane_wire::generated_without_proto(
            changed.iter().map(String::as_str),
            &generated,
            &protos,
        ) {
            v.refusals.push(GuardRefusal::WireBreaking {
                rule: f.rule.as_str().to_owned(),
                file: f.file,
                element: f.element,
                message: f.message,
            });
        }
    }
    if v.refusals.len() == start {
        v.proven.push(if same {
            format!("the .proto files equal {base_name}'s")
        } else {
            format!("the .proto changes since {base_name} hold buf's {names} rules")
        });
    }
    Ok(())
}
