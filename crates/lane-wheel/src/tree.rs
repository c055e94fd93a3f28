//! The lane's tree: its blobs by path, written out into a fresh folder for
//! the build (never the work tree), and the project name its pyproject says.

use git2::{ObjectType, Oid, Repository, TreeWalkMode, TreeWalkResult};
use std::collections::BTreeMap;
use std::path::Path;

use crate::error::{git, io, WheelError};

/// The lane branch's commit and tree, with every blob by path.
#[derive(Debug, Clone)]
pub struct LaneTree {
    /// The branch read (`release/0.93.3`).
    pub branch: String,
    /// The commit the branch points at.
    pub commit: Oid,
    /// Its tree.
    pub tree: Oid,
    /// The commit's time (seconds since the epoch), used as `SOURCE_DATE_EPOCH`.
    pub commit_time: i64,
    /// Every blob, by `/`-separated path, with its file mode.
    pub blobs: BTreeMap<String, (Oid, i32)>,
}

impl LaneTree {
    /// Reads `refs/heads/<branch>`.
    pub fn read(repo: &Repository, branch: &str) -> Result<LaneTree, WheelError> {
        let reference = match repo.find_reference(&format!("refs/heads/{branch}")) {
            Ok(r) => r,
            Err(e) if e.code() == git2::ErrorCode::NotFound => {
                return Err(WheelError::NoBranch {
                    branch: branch.to_owned(),
                })
            }
            Err(e) => return Err(git(format!("reading branch {branch}"))(e)),
        };
        let commit = reference
            .peel_to_commit()
            .map_err(git(format!("peeling {branch} to a commit")))?;
        Self::of_commit(branch, &commit)
    }

    /// Reads the tree of `commit` (named `branch` in reports).
    pub fn of_commit(branch: &str, commit: &git2::Commit<'_>) -> Result<LaneTree, WheelError> {
        let tree = commit.tree().map_err(git("reading the commit's tree"))?;
        let mut blobs = BTreeMap::new();
        tree.walk(TreeWalkMode::PreOrder, |dir, entry| {
            if entry.kind() == Some(ObjectType::Blob) {
                if let Ok(name) = entry.name() {
                    blobs.insert(format!("{dir}{name}"), (entry.id(), entry.filemode()));
                }
            }
            TreeWalkResult::Ok
        })
        .map_err(git("walking the tree"))?;
        Ok(LaneTree {
            branch: branch.to_owned(),
            commit: commit.id(),
            tree: tree.id(),
            commit_time: commit.time().seconds(),
            blobs,
        })
    }

    /// Writes every blob into `dir` (which should be empty).
    pub fn export(&self, repo: &Repository, dir: &Path) -> Result<(), WheelError> {
        for (path, (oid, mode)) in &self.blobs {
            let blob = repo
                .find_blob(*oid)
                .map_err(git(format!("reading {path}")))?;
            let target = dir.join(path);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(io(format!("creating {}", parent.display())))?;
            }
            if *mode == 0o120000 {
                let link = String::from_utf8_lossy(blob.content()).into_owned();
                std::os::unix::fs::symlink(link, &target)
                    .map_err(io(format!("linking {}", target.display())))?;
                continue;
            }
            std::fs::write(&target, blob.content())
                .map_err(io(format!("writing {}", target.display())))?;
            if *mode == 0o100755 {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))
                    .map_err(io(format!("chmod {}", target.display())))?;
            }
        }
        tracing::debug!(files = self.blobs.len(), dir = %dir.display(), "exported the lane tree");
        Ok(())
    }

    /// The `[project] name` of the tree's `pyproject.toml`.
    pub fn project_name(&self, repo: &Repository) -> Result<String, WheelError> {
        let text = self.pyproject(repo)?.ok_or(WheelError::NoProjectName)?;
        project_name(&text).ok_or(WheelError::NoProjectName)
    }

    /// The `[project] requires-python` of the tree's `pyproject.toml`
    /// (None: the tree says nothing).
    pub fn requires_python(&self, repo: &Repository) -> Result<Option<String>, WheelError> {
        Ok(self
            .pyproject(repo)?
            .and_then(|t| project_field(&t, "requires-python")))
    }

    fn pyproject(&self, repo: &Repository) -> Result<Option<String>, WheelError> {
        let Some((oid, _)) = self.blobs.get("pyproject.toml") else {
            return Ok(None);
        };
        let blob = repo
            .find_blob(*oid)
            .map_err(git("reading pyproject.toml"))?;
        Ok(Some(String::from_utf8_lossy(blob.content()).into_owned()))
    }
}

/// `name = "..."` in the `[project]` table of a pyproject text.
pub fn project_name(pyproject: &str) -> Option<String> {
    project_field(pyproject, "name")
}

/// `<key> = "..."` (a one-line string) in the `[project]` table of a
/// pyproject text.
fn project_field(pyproject: &str, key: &str) -> Option<String> {
    let mut in_project = false;
    for line in pyproject.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_project = t == "[project]";
            continue;
        }
        if !in_project {
            continue;
        }
        if let Some((k, v)) = t.split_once('=') {
            if k.trim() == key {
                let v = v.trim().trim_matches(|c| c == '"' || c == '\'');
                return Some(v.to_owned());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn project_name_is_read_from_the_project_table_only() {
        let t =
            "[build-system]\nname = \"no\"\n[project]\nname = \"gen-worker\"\nversion = \"1\"\n";
        assert_eq!(super::project_name(t).as_deref(), Some("gen-worker"));
        assert_eq!(super::project_name("[tool.x]\nname='y'\n"), None);
        assert_eq!(
            super::project_field(t, "version").as_deref(),
            Some("1"),
            "any one-line field of [project]"
        );
    }
}
