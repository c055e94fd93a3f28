//! Small git2 helpers shared by the cut and the guards: opening, cleanliness,
//! resolving names, reading blobs, patch-ids.

use git2::{Commit, Diff, DiffOptions, Oid, Repository, Tree};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::error::{Ctx, GitError};

/// Opens the repository at (or above) `path`.
pub fn open(path: &Path) -> Result<Repository, GitError> {
    Repository::open(path).map_err(|source| GitError::Open {
        path: path.to_owned(),
        source,
    })
}

/// Refuses a work tree with changes to tracked files or staged changes.
/// Untracked files are allowed (a cut never overwrites them: checkouts are safe).
pub fn ensure_clean(repo: &Repository) -> Result<(), GitError> {
    if repo.is_bare() {
        // No work tree to be dirty (a mirror a CI job cuts in).
        return Ok(());
    }
    let mut opts = git2::StatusOptions::new();
    opts.include_untracked(false).include_ignored(false);
    let statuses = repo
        .statuses(Some(&mut opts))
        .ctx(|| "reading status".into())?;
    let files: Vec<String> = statuses
        .iter()
        .filter(|s| s.status() != git2::Status::CURRENT)
        .filter_map(|s| s.path().ok().map(str::to_owned))
        .take(5)
        .collect();
    if files.is_empty() {
        Ok(())
    } else {
        Err(GitError::DirtyWorkTree {
            path: repo.workdir().unwrap_or(repo.path()).to_owned(),
            files,
        })
    }
}

/// Resolves a tag (or any revision) name to the commit it names.
pub fn resolve_commit<'r>(
    repo: &'r Repository,
    what: &'static str,
    name: &str,
) -> Result<Commit<'r>, GitError> {
    let spec = format!("{name}^{{commit}}");
    let obj = repo
        .revparse_single(&spec)
        .map_err(|source| GitError::Unresolved {
            what,
            name: name.to_owned(),
            source,
        })?;
    obj.peel_to_commit().map_err(|source| GitError::Unresolved {
        what,
        name: name.to_owned(),
        source,
    })
}

/// The tree of the commit `id`.
pub fn commit_tree(repo: &Repository, id: Oid) -> Result<Tree<'_>, GitError> {
    repo.find_commit(id)
        .and_then(|c| c.tree())
        .ctx(|| format!("tree of {id}"))
}

/// The text of the blob at `path` in `tree`, or None when absent.
pub fn read_text(
    repo: &Repository,
    tree: &Tree<'_>,
    path: &str,
) -> Result<Option<String>, GitError> {
    let entry = match tree.get_path(Path::new(path)) {
        Ok(e) => e,
        Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(None),
        Err(e) => {
            return Err(GitError::Git {
                what: format!("looking up {path}"),
                source: e,
            })
        }
    };
    let blob = repo
        .find_blob(entry.id())
        .ctx(|| format!("reading {path} (is it a folder?)"))?;
    Ok(Some(String::from_utf8_lossy(blob.content()).into_owned()))
}

/// The texts of the blobs directly under `folder` in `tree` (a trailing
/// `/` is allowed), keyed by their paths; empty when there is no folder.
pub fn folder_texts(
    repo: &Repository,
    tree: &Tree<'_>,
    folder: &str,
) -> Result<BTreeMap<String, String>, GitError> {
    let folder = folder.trim_end_matches('/');
    let mut out = BTreeMap::new();
    let Ok(entry) = tree.get_path(Path::new(folder)) else {
        return Ok(out);
    };
    let Ok(sub) = repo.find_tree(entry.id()) else {
        return Ok(out);
    };
    for e in sub.iter() {
        if e.kind() != Some(git2::ObjectType::Blob) {
            continue;
        }
        let path = format!("{folder}/{}", String::from_utf8_lossy(e.name_bytes()));
        let blob = repo.find_blob(e.id()).ctx(|| format!("reading {path}"))?;
        out.insert(path, String::from_utf8_lossy(blob.content()).into_owned());
    }
    Ok(out)
}

/// The id of the entry at `path` in `tree` (blob or tree), None when absent.
pub fn entry_id(tree: &Tree<'_>, path: &str) -> Option<Oid> {
    let p = path.trim_end_matches('/');
    tree.get_path(Path::new(p)).ok().map(|e| e.id())
}

/// The parent a commit's patch is taken against: the first parent (the
/// mainline of a merge), or None for a root commit.
pub fn mainline_parent<'r>(commit: &Commit<'r>) -> Option<Commit<'r>> {
    commit.parent(0).ok()
}

/// The diff of `commit` against its mainline parent (a root commit's
/// against no tree), made with `opts`.
pub fn mainline_diff<'r>(
    repo: &'r Repository,
    commit: &Commit<'_>,
    opts: Option<&mut DiffOptions>,
) -> Result<Diff<'r>, GitError> {
    let new = commit.tree().ctx(|| format!("tree of {}", commit.id()))?;
    let old = match mainline_parent(commit) {
        Some(p) => Some(p.tree().ctx(|| format!("tree of {}", p.id()))?),
        None => None,
    };
    repo.diff_tree_to_tree(old.as_ref(), Some(&new), opts)
        .ctx(|| format!("diffing {}", commit.id()))
}

/// The patch-id of `commit` against its mainline parent, as `git patch-id
/// --stable` computes it (three lines of context), over what `opts`
/// selects; None for an empty patch.
pub fn patch_id(
    repo: &Repository,
    commit: &Commit<'_>,
    mut opts: DiffOptions,
) -> Result<Option<Oid>, GitError> {
    opts.context_lines(3);
    let diff = mainline_diff(repo, commit, Some(&mut opts))?;
    if diff.deltas().len() == 0 {
        return Ok(None);
    }
    diff.patchid(None)
        .map(Some)
        .ctx(|| format!("patch-id of {}", commit.id()))
}

/// Paths changed by `commit` against its mainline parent.
pub fn changed_paths(repo: &Repository, commit: &Commit<'_>) -> Result<Vec<String>, GitError> {
    let diff = mainline_diff(repo, commit, None)?;
    let mut out = Vec::new();
    for d in diff.deltas() {
        for f in [d.old_file(), d.new_file()] {
            if let Some(p) = f.path().and_then(|p| p.to_str()) {
                if !out.iter().any(|o: &String| o == p) {
                    out.push(p.to_owned());
                }
            }
        }
    }
    Ok(out)
}

/// The paths a diff touches, one a delta: the new side's, or the old
/// side's where a deletion has no new one (a path that is not UTF-8 is
/// left out, as no lane file can name it).
pub fn diff_paths(diff: &Diff<'_>) -> Vec<String> {
    diff.deltas()
        .filter_map(|d| {
            d.new_file()
                .path()
                .or(d.old_file().path())
                .and_then(|p| p.to_str())
                .map(str::to_owned)
        })
        .collect()
}

/// Patch-ids (as `git patch-id --stable` computes them) with a cache.
#[derive(Default)]
pub struct PatchIds {
    cache: HashMap<Oid, Option<Oid>>,
}

impl PatchIds {
    /// The patch-id of `commit` against its mainline parent; None for an
    /// empty patch.
    pub fn of(&mut self, repo: &Repository, commit: &Commit<'_>) -> Result<Option<Oid>, GitError> {
        if let Some(p) = self.cache.get(&commit.id()) {
            return Ok(*p);
        }
        let id = patch_id(repo, commit, DiffOptions::new())?;
        self.cache.insert(commit.id(), id);
        Ok(id)
    }
}

/// The commits reachable from `head` and not from `hide`, newest first.
pub fn commits_between(repo: &Repository, hide: Oid, head: Oid) -> Result<Vec<Oid>, GitError> {
    let mut walk = repo.revwalk().ctx(|| "starting a history walk".into())?;
    walk.push(head).ctx(|| format!("walking from {head}"))?;
    walk.hide(hide).ctx(|| format!("hiding {hide}"))?;
    walk.collect::<Result<Vec<_>, _>>()
        .ctx(|| format!("walking {hide}..{head}"))
}

/// Whether `ancestor` is `commit` or reachable from it.
pub fn reaches(repo: &Repository, commit: Oid, ancestor: Oid) -> Result<bool, GitError> {
    if commit == ancestor {
        return Ok(true);
    }
    repo.graph_descendant_of(commit, ancestor)
        .ctx(|| format!("checking whether {ancestor} is an ancestor of {commit}"))
}

/// The first line of a commit message.
pub fn subject(commit: &Commit<'_>) -> String {
    commit
        .summary_bytes()
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .unwrap_or_default()
}

/// A 12-character abbreviation for messages.
pub fn short(id: Oid) -> String {
    id.to_string()[..12].to_owned()
}
