//! An in-memory tree that writes itself to git incrementally: each folder
//! remembers the id it was last written as, and an edit forgets only the ids
//! along its path, so a commit that changes one file of a 1,000-file folder
//! rewrites one blob and the trees above it, not the whole repository.

use git2::{Oid, Repository};
use std::collections::BTreeMap;

const BLOB: i32 = 0o100_644;
const TREE: i32 = 0o040_000;

#[derive(Clone)]
enum Node {
    Blob(Oid),
    Dir(Dir),
}

/// A folder of a work tree, as git will store it.
#[derive(Clone, Default)]
pub(crate) struct Dir {
    entries: BTreeMap<String, Node>,
    written: Option<Oid>,
}

impl Dir {
    /// Sets the file at `path` (slash-separated) to the blob `blob`,
    /// creating folders on the way.
    pub(crate) fn put(&mut self, path: &str, blob: Oid) {
        self.written = None;
        match path.split_once('/') {
            None => {
                self.entries.insert(path.to_owned(), Node::Blob(blob));
            }
            Some((head, rest)) => {
                let node = self
                    .entries
                    .entry(head.to_owned())
                    .or_insert_with(|| Node::Dir(Dir::default()));
                if let Node::Blob(_) = node {
                    *node = Node::Dir(Dir::default());
                }
                if let Node::Dir(dir) = node {
                    dir.put(rest, blob);
                }
            }
        }
    }

    /// Removes the file at `path`, and folders it leaves empty. Returns
    /// whether there was such a file.
    pub(crate) fn remove(&mut self, path: &str) -> bool {
        let removed = match path.split_once('/') {
            None => matches!(self.entries.remove(path), Some(Node::Blob(_))),
            Some((head, rest)) => match self.entries.get_mut(head) {
                Some(Node::Dir(dir)) => {
                    let removed = dir.remove(rest);
                    if dir.entries.is_empty() {
                        self.entries.remove(head);
                    }
                    removed
                }
                _ => false,
            },
        };
        if removed {
            self.written = None;
        }
        removed
    }

    /// The blob at `path`, if it is a file.
    #[cfg(test)]
    pub(crate) fn get(&self, path: &str) -> Option<Oid> {
        match (path.split_once('/'), self.entries.get(path)) {
            (None, Some(Node::Blob(oid))) => Some(*oid),
            (Some((head, rest)), _) => match self.entries.get(head) {
                Some(Node::Dir(dir)) => dir.get(rest),
                _ => None,
            },
            _ => None,
        }
    }

    /// Writes the folders changed since the last write and returns this
    /// folder's tree id.
    pub(crate) fn write(&mut self, repo: &Repository) -> Result<Oid, git2::Error> {
        if let Some(oid) = self.written {
            return Ok(oid);
        }
        let mut builder = repo.treebuilder(None)?;
        for (name, node) in &mut self.entries {
            match node {
                Node::Blob(oid) => builder.insert(name, *oid, BLOB)?,
                Node::Dir(dir) => builder.insert(name, dir.write(repo)?, TREE)?,
            };
        }
        let oid = builder.write()?;
        self.written = Some(oid);
        Ok(oid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo() -> (tempfile::TempDir, Repository) {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init_bare(dir.path()).unwrap();
        (dir, repo)
    }

    #[test]
    fn incremental_writes_match_a_fresh_tree() {
        let (_dir, repo) = repo();
        let a = repo.blob(b"a\n").unwrap();
        let b = repo.blob(b"b\n").unwrap();
        let mut tree = Dir::default();
        tree.put("src/pkg/a.py", a);
        tree.put("src/pkg/sub/b.py", b);
        tree.put("README.md", a);
        tree.write(&repo).unwrap();
        tree.put("src/pkg/a.py", b);
        assert!(tree.remove("README.md"));
        let incremental = tree.write(&repo).unwrap();

        let mut fresh = Dir::default();
        fresh.put("src/pkg/sub/b.py", b);
        fresh.put("src/pkg/a.py", b);
        assert_eq!(fresh.write(&repo).unwrap(), incremental);
        assert_eq!(tree.get("src/pkg/a.py"), Some(b));
        assert_eq!(tree.get("src/pkg"), None);
    }

    #[test]
    fn removing_the_last_file_drops_the_folder() {
        let (_dir, repo) = repo();
        let a = repo.blob(b"a\n").unwrap();
        let mut tree = Dir::default();
        tree.put("keep.txt", a);
        tree.put("changelog.d/pgw1.md", a);
        assert!(tree.remove("changelog.d/pgw1.md"));
        assert!(!tree.remove("changelog.d/pgw1.md"));
        let mut expected = Dir::default();
        expected.put("keep.txt", a);
        assert_eq!(tree.write(&repo).unwrap(), expected.write(&repo).unwrap());
    }

    #[test]
    fn git_orders_folders_as_if_they_ended_in_a_slash() {
        let (_dir, repo) = repo();
        let a = repo.blob(b"a\n").unwrap();
        let mut tree = Dir::default();
        tree.put("pb.py", a);
        tree.put("pb/x.py", a);
        let oid = tree.write(&repo).unwrap();
        let names: Vec<String> = repo
            .find_tree(oid)
            .unwrap()
            .iter()
            .map(|e| e.name().unwrap().to_owned())
            .collect();
        assert_eq!(names, ["pb.py", "pb"]);
    }
}
