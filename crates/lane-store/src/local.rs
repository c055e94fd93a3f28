//! The local-folder store: a key is a path under the root. Writes go to a
//! `.lane-tmp-*` file in the same folder, are fsynced, then linked into
//! place without clobbering, so a reader sees the whole file or nothing.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::{sha256_hex, ArtifactStore, Content, FetchLocation, PutOutcome, StoreError, StoreKey};

/// A store in a local folder (the embedded default, `out/store`).
#[derive(Debug, Clone)]
pub struct LocalStore {
    root: PathBuf,
}

fn io(what: String) -> impl FnOnce(std::io::Error) -> StoreError {
    move |source| StoreError::Io { what, source }
}

impl LocalStore {
    /// A store rooted at `root` (created when missing, made absolute).
    pub fn new(root: impl AsRef<Path>) -> Result<LocalStore, StoreError> {
        let root = root.as_ref();
        std::fs::create_dir_all(root).map_err(io(format!("creating {}", root.display())))?;
        let root =
            std::fs::canonicalize(root).map_err(io(format!("resolving {}", root.display())))?;
        Ok(LocalStore { root })
    }

    /// The folder the store lives in.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The path of `key` inside the store.
    pub fn path_of(&self, key: &StoreKey) -> PathBuf {
        self.root.join(key.as_str())
    }

    fn compare_existing(
        &self,
        key: &StoreKey,
        path: &Path,
        new: &[u8],
    ) -> Result<PutOutcome, StoreError> {
        let existing = std::fs::read(path).map_err(io(format!("reading {}", path.display())))?;
        let (old_sha, new_sha) = (sha256_hex(&existing), sha256_hex(new));
        if old_sha == new_sha {
            tracing::debug!(%key, "identical content already stored");
            Ok(PutOutcome::AlreadyThere {
                sha256: new_sha,
                size: new.len() as u64,
            })
        } else {
            Err(StoreError::Conflict {
                key: key.to_string(),
                existing: old_sha,
                new: new_sha,
            })
        }
    }
}

impl ArtifactStore for LocalStore {
    fn put_atomic(&self, key: &StoreKey, content: Content<'_>) -> Result<PutOutcome, StoreError> {
        let bytes = content.load()?;
        let path = self.path_of(key);
        if path.exists() {
            return self.compare_existing(key, &path, &bytes);
        }
        let dir = path.parent().expect("a key has a file name");
        std::fs::create_dir_all(dir).map_err(io(format!("creating {}", dir.display())))?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".lane-tmp-")
            .tempfile_in(dir)
            .map_err(io(format!(
                "creating a temporary file in {}",
                dir.display()
            )))?;
        tmp.write_all(&bytes)
            .and_then(|()| tmp.as_file().sync_all())
            .map_err(io(format!("writing {}", tmp.path().display())))?;
        match tmp.persist_noclobber(&path) {
            Ok(_) => {}
            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
                // Someone else stored it between our check and our link.
                return self.compare_existing(key, &path, &bytes);
            }
            Err(e) => return Err(io(format!("moving into {}", path.display()))(e.error)),
        }
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        let sha256 = sha256_hex(&bytes);
        tracing::info!(%key, %sha256, size = bytes.len(), "stored");
        Ok(PutOutcome::Written {
            sha256,
            size: bytes.len() as u64,
        })
    }

    fn get(&self, key: &StoreKey) -> Result<Vec<u8>, StoreError> {
        let path = self.path_of(key);
        match std::fs::read(&path) {
            Ok(b) => Ok(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(StoreError::NotFound {
                key: key.to_string(),
            }),
            Err(e) => Err(io(format!("reading {}", path.display()))(e)),
        }
    }

    fn exists(&self, key: &StoreKey) -> Result<bool, StoreError> {
        Ok(self.path_of(key).is_file())
    }

    fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        let mut out = Vec::new();
        let mut stack = vec![self.root.clone()];
        while let Some(dir) = stack.pop() {
            let entries =
                std::fs::read_dir(&dir).map_err(io(format!("listing {}", dir.display())))?;
            for e in entries {
                let e = e.map_err(io(format!("listing {}", dir.display())))?;
                let name = e.file_name();
                if name.to_string_lossy().starts_with(".lane-tmp-") {
                    continue;
                }
                let p = e.path();
                let ft = e
                    .file_type()
                    .map_err(io(format!("reading {}", p.display())))?;
                if ft.is_dir() {
                    stack.push(p);
                } else if let Ok(rel) = p.strip_prefix(&self.root) {
                    let key = rel.to_string_lossy().replace('\\', "/");
                    if key.starts_with(prefix) {
                        out.push(key);
                    }
                }
            }
        }
        out.sort();
        Ok(out)
    }

    fn remove(&self, key: &StoreKey) -> Result<bool, StoreError> {
        let path = self.path_of(key);
        match std::fs::remove_file(&path) {
            Ok(()) => {
                tracing::info!(%key, "removed");
                Ok(true)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(io(format!("removing {}", path.display()))(e)),
        }
    }

    fn fetch_location(&self, key: &StoreKey, _ttl: Duration) -> Result<FetchLocation, StoreError> {
        let path = self.path_of(key);
        if !path.is_file() {
            return Err(StoreError::NotFound {
                key: key.to_string(),
            });
        }
        Ok(FetchLocation::Path(path))
    }

    fn location(&self) -> String {
        format!("file://{}", self.root.display())
    }
}
