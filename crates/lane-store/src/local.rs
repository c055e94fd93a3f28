//! The local-folder store: a key is a path under the root. Writes go to a
//! `.lane-tmp-*` file in the same folder (a file put is streamed into it,
//! never read whole), are fsynced, then linked into place without
//! clobbering, so a reader sees the whole file or nothing.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::{
    sha256_hex, sha256_of, ArtifactStore, Content, FetchLocation, Hashing, PutOutcome, StoreError,
    StoreKey,
};

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

    /// The key is taken (at `path`): the same content (`sha256`, `size`)
    /// is a no-op, other content a conflict. The stored file is hashed as
    /// it is read, never held.
    fn compare_existing(
        &self,
        key: &StoreKey,
        path: &Path,
        sha256: String,
        size: u64,
    ) -> Result<PutOutcome, StoreError> {
        let (old_sha, _) = std::fs::File::open(path)
            .and_then(|mut f| sha256_of(&mut f))
            .map_err(io(format!("reading {}", path.display())))?;
        if old_sha == sha256 {
            tracing::debug!(%key, "identical content already stored");
            Ok(PutOutcome::AlreadyThere { sha256, size })
        } else {
            Err(StoreError::Conflict {
                key: key.to_string(),
                existing: old_sha,
                new: sha256,
            })
        }
    }
}

/// A temporary file untouched this long is a writer's that died (`kill -9`
/// mid-put): no live put leaves its file unwritten for an hour.
const STALE_TEMPORARY: Duration = Duration::from_secs(3600);

/// Removes the `.lane-tmp-*` files in `dir` that a dead writer left
/// (untouched for [`STALE_TEMPORARY`]); a live writer's are kept. Best
/// effort: a file that cannot be removed is left for the next put.
fn sweep_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        if !e.file_name().to_string_lossy().starts_with(".lane-tmp-") {
            continue;
        }
        let stale = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= STALE_TEMPORARY);
        if stale && std::fs::remove_file(e.path()).is_ok() {
            tracing::info!(path = %e.path().display(), "removed a dead writer's temporary file");
        }
    }
}

/// The sha256 and size of `content`, a file streamed.
fn digest(content: Content<'_>) -> Result<(String, u64), StoreError> {
    match content {
        Content::Bytes(b) => Ok((sha256_hex(b), b.len() as u64)),
        Content::File(p) => std::fs::File::open(p)
            .and_then(|mut f| sha256_of(&mut f))
            .map_err(io(format!("reading {}", p.display()))),
    }
}

impl ArtifactStore for LocalStore {
    fn put_atomic(&self, key: &StoreKey, content: Content<'_>) -> Result<PutOutcome, StoreError> {
        let path = self.path_of(key);
        if path.exists() {
            let (sha256, size) = digest(content)?;
            return self.compare_existing(key, &path, sha256, size);
        }
        let dir = path.parent().expect("a key has a file name");
        std::fs::create_dir_all(dir).map_err(io(format!("creating {}", dir.display())))?;
        sweep_stale_temporaries(dir);
        let tmp = tempfile::Builder::new()
            .prefix(".lane-tmp-")
            .tempfile_in(dir)
            .map_err(io(format!(
                "creating a temporary file in {}",
                dir.display()
            )))?;
        // Written through the temporary file, hashed on the way: a file is
        // streamed, never held whole.
        let mut out = Hashing::new(tmp);
        match content {
            Content::Bytes(b) => out
                .write_all(b)
                .map_err(io(format!("writing {}", out.inner.path().display())))?,
            Content::File(p) => {
                let mut f =
                    std::fs::File::open(p).map_err(io(format!("reading {}", p.display())))?;
                std::io::copy(&mut f, &mut out).map_err(io(format!(
                    "copying {} into {}",
                    p.display(),
                    out.inner.path().display()
                )))?;
            }
        }
        let (sha256, size) = (out.sha256(), out.bytes);
        let tmp = out.inner;
        tmp.as_file()
            .sync_all()
            .map_err(io(format!("writing {}", tmp.path().display())))?;
        match tmp.persist_noclobber(&path) {
            Ok(_) => {}
            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
                // Someone else stored it between our check and our link.
                return self.compare_existing(key, &path, sha256, size);
            }
            Err(e) => return Err(io(format!("moving into {}", path.display()))(e.error)),
        }
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        tracing::info!(%key, %sha256, size, "stored");
        Ok(PutOutcome::Written { sha256, size })
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

    fn get_to(
        &self,
        key: &StoreKey,
        sink: &mut (dyn Write + Send),
        max_bytes: u64,
    ) -> Result<u64, StoreError> {
        let path = self.path_of(key);
        let f = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(StoreError::NotFound {
                    key: key.to_string(),
                })
            }
            Err(e) => return Err(io(format!("reading {}", path.display()))(e)),
        };
        let len = f
            .metadata()
            .map_err(io(format!("reading {}", path.display())))?
            .len();
        let too_large = || StoreError::TooLarge {
            what: key.to_string(),
            limit: max_bytes,
        };
        if len > max_bytes {
            return Err(too_large());
        }
        let n = std::io::copy(&mut f.take(max_bytes.saturating_add(1)), sink)
            .map_err(io(format!("reading {}", path.display())))?;
        if n > max_bytes {
            return Err(too_large());
        }
        Ok(n)
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
