//! Deterministic, real git repositories shaped like lane's upstream, the
//! Python library gen-worker: its 0.93 tags, a master that took the
//! BREAKING wire-v1 protocol cut, and the fixes a 0.93.3 patch lane picks
//! (one clean, one that conflicts, one touching frozen protocol paths, one
//! already applied, one merge commit). lane's git tests, its benchmark and
//! `lane demo` build their upstreams here.
//!
//! Start at [`generate_upstream`]: it writes the repository with libgit2
//! (fixed signatures and dates, so every commit id is the same on every run
//! and machine) and returns the ids of the named commits listed on
//! [`Upstream::commits`]; [`bare_remote`] makes a bare copy to push to.
//! The history itself is in `history.rs`, the files' text in `content.rs`.
//!
//! This crate writes only inside the folders it is given; no id depends on
//! the user's git configuration, the clock or the machine. It never reaches
//! the network, runs no `git` binary (its tests do) and prints nothing. It
//! knows nothing of lane files or of how lane cuts a lane: it only provides
//! repositories to cut from, so keep lane's logic out of it.

mod content;
mod descriptor;
mod history;
mod tree;

use git2::build::CheckoutBuilder;
use git2::{AutotagOption, FetchOptions, Oid, Repository, RepositoryInitOptions};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How big the generated upstream is. The default is the small story
/// repository (a couple dozen commits); [`UpstreamSpec::benchmark`] is the
/// big one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UpstreamSpec {
    /// Small commits added on master, each regenerating one module under
    /// `src/gen_worker/gen/`: half before `v0.93.1`, the rest after
    /// `v0.93.2` around the refactor and the wire-v1 cut. The named commits
    /// keep their relationships whatever the count.
    pub extra_commits: usize,
    /// Generated modules `src/gen_worker/gen/tNN/mod_NNNN.py` (32 to a
    /// folder) added by the first commit (at least one when `extra_commits` is not zero).
    pub extra_files: usize,
}

impl UpstreamSpec {
    /// The benchmark's repository: more than 2,000 commits on master and
    /// more than 1,000 files.
    pub fn benchmark() -> Self {
        UpstreamSpec {
            extra_commits: 2_000,
            extra_files: 1_000,
        }
    }
}

/// A generated upstream repository.
///
/// Branches: `master` (checked out, clean work tree), `release/0.93.2`
/// (at `v0.93.2`), `wire-v1-proto` (at `wire-v1-early`) and `hotfix-994`
/// (at `hotfix-994`). Tags, both annotated: `v0.93.1` (at `release-0.93.1`)
/// and `v0.93.2` (at `release-0.93.2`).
#[derive(Clone, Debug)]
pub struct Upstream {
    /// The work tree (the repository is `path/.git`).
    pub path: PathBuf,
    /// The named commits, by key. On master's first-parent line, in order:
    ///
    /// - `init`: the initial import, version 0.93.0.
    /// - `fix-970`: pgw#970 (#480), released in 0.93.1.
    /// - `release-0.93.1`: bumps to 0.93.1, assembles the changelog; tag `v0.93.1`.
    /// - `fix-0.93.2`: pgw#981 (#497), released in 0.93.2.
    /// - `release-0.93.2`: bumps to 0.93.2; tag `v0.93.2`, branch `release/0.93.2`.
    /// - `refactor-984`: pgw#984 (#505), rewrites the warm loop of
    ///   `src/gen_worker/mint_child.py` (master only).
    /// - `wire-v1`: th#1597 (#502), the BREAKING cut: `proto/`, the
    ///   bindings under `src/gen_worker/pb/` and `proto/PROTO_DIGEST` move
    ///   to `cozy.scheduler.v1`.
    /// - `open-0.94`: master's version becomes 0.94.0.dev0.
    /// - `fix-992`: pgw#992 (#515), squash; picks cleanly onto `v0.93.2`.
    /// - `fix-989`: pgw#989 (#511), squash; conflicts on `v0.93.2` in
    ///   `src/gen_worker/mint_child.py` only (it edits the refactored region).
    /// - `fix-proto-993`: pgw#993 (#516), changes the bindings (a frozen path).
    /// - `fix-already-994`: pgw#994 (#517); the same patch is `hotfix-994`.
    /// - `merge-520`: "Merge pull request #520 from someone/fix-996", second
    ///   parent `fix-996`; pick it with mainline 1. The tip of master.
    ///
    /// Off master: `wire-v1-early` (branch `wire-v1-proto`, parent
    /// `refactor-984`): the same patch as `wire-v1`, another id.
    /// `hotfix-994` (branch `hotfix-994`, parent `release-0.93.2`): the same
    /// patch as `fix-already-994`. `fix-996` (parent `fix-992`, no branch):
    /// pgw#996, touching `src/gen_worker/settings.py` and a fragment.
    pub commits: BTreeMap<&'static str, Oid>,
}

/// What can go wrong while generating.
#[derive(Debug, thiserror::Error)]
pub enum FixtureError {
    /// libgit2 refused an operation.
    #[error("libgit2: {0}")]
    Git(#[from] git2::Error),
    /// A folder could not be created, read or written.
    #[error("cannot write {}: {source}", path.display())]
    Io {
        /// The folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The target folder exists and has files in it.
    #[error("{} is not empty", .0.display())]
    NotEmpty(PathBuf),
    /// libgit2 takes local remote paths as UTF-8 strings.
    #[error("{} is not valid utf-8", .0.display())]
    NotUtf8(PathBuf),
}

/// Creates `dir` if needed; it must be empty.
fn empty_dir(dir: &Path) -> Result<(), FixtureError> {
    let io = |source| FixtureError::Io {
        path: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    if std::fs::read_dir(dir).map_err(io)?.next().is_some() {
        return Err(FixtureError::NotEmpty(dir.to_path_buf()));
    }
    Ok(())
}

/// Writes the upstream repository into `dir` (created if missing; it must
/// be empty) and checks out `master`. Same `spec`, same commit ids.
pub fn generate_upstream(dir: &Path, spec: &UpstreamSpec) -> Result<Upstream, FixtureError> {
    empty_dir(dir)?;
    let repo = Repository::init_opts(dir, RepositoryInitOptions::new().initial_head("master"))?;
    let mut config = repo.config()?.open_level(git2::ConfigLevel::Local)?;
    config.set_str("user.name", "Paul Fidika")?;
    config.set_str("user.email", "paul@example.com")?;

    let refs = write_packed(repo.path(), spec)?;
    history::write_tags(&repo, &refs.tags)?;
    for (branch, oid) in &refs.branches {
        repo.reference(&format!("refs/heads/{branch}"), *oid, true, "lane-fixture")?;
    }
    repo.set_head("refs/heads/master")?;
    repo.checkout_head(Some(CheckoutBuilder::new().force()))?;
    Ok(Upstream {
        path: dir.to_path_buf(),
        commits: refs.commits,
    })
}

/// Writes the history into memory, then stores it as one pack: thousands
/// of loose objects are slower to write and ~30 times bigger on disk. The
/// in-memory backend lives on a handle of its own, and its dump carries
/// commits and their trees only: tags are written afterwards, elsewhere.
fn write_packed(git_dir: &Path, spec: &UpstreamSpec) -> Result<history::Refs, FixtureError> {
    let repo = Repository::open(git_dir)?;
    let odb = repo.odb()?;
    let mempack = odb.add_new_mempack_backend(1000)?;
    let refs = history::write(&repo, spec)?;
    let mut pack = git2::Buf::new();
    mempack.dump(&repo, &mut pack)?;
    let mut writer = odb.packwriter()?;
    writer.write_all(&pack).map_err(|source| FixtureError::Io {
        path: git_dir.join("objects/pack"),
        source,
    })?;
    writer.commit()?;
    Ok(refs)
}

/// Makes a bare repository at `dir` (created if missing; it must be empty)
/// holding every branch and tag of `upstream`, with `HEAD` on `master`:
/// what `git clone --bare` gives, usable as `origin` in push tests.
/// Returns `dir`.
pub fn bare_remote(upstream: &Path, dir: &Path) -> Result<PathBuf, FixtureError> {
    let url = upstream
        .to_str()
        .ok_or_else(|| FixtureError::NotUtf8(upstream.to_path_buf()))?;
    empty_dir(dir)?;
    let repo = Repository::init_opts(
        dir,
        RepositoryInitOptions::new()
            .bare(true)
            .initial_head("master"),
    )?;
    let mut remote = repo.remote_anonymous(url)?;
    let mut options = FetchOptions::new();
    options.download_tags(AutotagOption::None);
    remote.fetch(
        &["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"],
        Some(&mut options),
        None,
    )?;
    Ok(dir.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_folder_with_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("x"), "x").unwrap();
        let err = generate_upstream(dir.path(), &UpstreamSpec::default()).unwrap_err();
        assert!(matches!(err, FixtureError::NotEmpty(_)));
        assert!(err.to_string().ends_with("is not empty"));
    }

    #[test]
    fn small_upstream_names_every_commit_once() {
        let dir = tempfile::tempdir().unwrap();
        let up = generate_upstream(&dir.path().join("up"), &UpstreamSpec::default()).unwrap();
        assert_eq!(up.commits.len(), 16);
        let ids: std::collections::BTreeSet<_> = up.commits.values().collect();
        assert_eq!(ids.len(), up.commits.len());
        let repo = Repository::open(&up.path).unwrap();
        let merge = repo.find_commit(up.commits["merge-520"]).unwrap();
        assert_eq!(
            merge.parent_ids().collect::<Vec<_>>(),
            [up.commits["fix-already-994"], up.commits["fix-996"]]
        );
        assert_eq!(repo.head().unwrap().name().unwrap(), "refs/heads/master");
        assert_eq!(repo.head().unwrap().target(), Some(up.commits["merge-520"]));
    }

    #[test]
    fn extra_commits_without_extra_files_still_have_a_module() {
        let dir = tempfile::tempdir().unwrap();
        let spec = UpstreamSpec {
            extra_commits: 5,
            extra_files: 0,
        };
        let up = generate_upstream(dir.path(), &spec).unwrap();
        let repo = Repository::open(&up.path).unwrap();
        let mut walk = repo.revwalk().unwrap();
        walk.push_head().unwrap();
        walk.simplify_first_parent().unwrap();
        assert_eq!(walk.count(), 13 + 5);
        assert!(up.path.join("src/gen_worker/gen/t00/mod_0000.py").is_file());
    }
}
