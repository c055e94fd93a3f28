//! The upstream's source tree, for cells that run the upstream's own rig
//! (`scripts/micro_mint_rig.py` and `tests/harness/` are not in the wheel).
//! The mint finds it as `$LANE_SOURCE_DIR`: locally an export of the lane
//! branch (a folder), in a pod the source archive `lane wheel` staged beside
//! the wheel, fetched through a presigned URL, checked against its sha256
//! and unpacked into the attempt's folder.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::AgentError;

/// The largest source archive a pod downloads.
pub const MAX_SOURCE_ARCHIVE_BYTES: u64 = 1 << 30;

/// The largest tree a source archive may unpack to (a zip bomb stops here).
pub const MAX_SOURCE_TREE_BYTES: u64 = 4 << 30;

/// Where the agent gets the upstream's tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceTree {
    /// A folder on this machine.
    Dir(PathBuf),
    /// A `.tar.gz` of the tree (`lane wheel`'s `*.src.tar.gz`): a presigned
    /// URL, or `file://` on a filesystem the pod shares with the store.
    Archive {
        /// The URL (a bearer secret until it expires: never logged whole).
        url: String,
        /// Its sha256, hex (from the staged manifest).
        sha256: String,
    },
}

/// Makes the tree ready and returns the folder the mint is given.
pub fn prepare(tree: &SourceTree, mint_dir: &Path) -> Result<PathBuf, AgentError> {
    match tree {
        SourceTree::Dir(dir) => {
            let real = std::fs::canonicalize(dir).map_err(|source| AgentError::Io {
                path: dir.clone(),
                source,
            })?;
            if !real.is_dir() {
                return Err(AgentError::Io {
                    path: dir.clone(),
                    source: std::io::Error::other("not a folder"),
                });
            }
            Ok(real)
        }
        SourceTree::Archive { url, sha256 } => {
            let shown = lane_store::redact_url(url);
            let bytes = fetch_staged(url, sha256, MAX_SOURCE_ARCHIVE_BYTES).map_err(|source| {
                AgentError::Source {
                    what: shown.clone(),
                    source,
                }
            })?;
            let into = mint_dir.join("source");
            if into.exists() {
                std::fs::remove_dir_all(&into).map_err(|source| AgentError::Io {
                    path: into.clone(),
                    source,
                })?;
            }
            unpack(&bytes, &into, MAX_SOURCE_TREE_BYTES).map_err(|why| AgentError::BadSource {
                what: shown.clone(),
                why,
            })?;
            tracing::info!(source = %shown, bytes = bytes.len(), "source archive fetched, checked and unpacked");
            Ok(into)
        }
    }
}

/// Fetches a file staged beside the wheel (the wheel, the source archive)
/// and checks its sha256: a presigned URL, or `file://` where the store is a
/// folder every pod mounts.
pub(crate) fn fetch_staged(
    url: &str,
    sha256: &str,
    max_bytes: u64,
) -> Result<Vec<u8>, lane_store::StoreError> {
    let location = match url.strip_prefix("file://") {
        Some(path) => lane_store::FetchLocation::Path(PathBuf::from(path)),
        None => lane_store::FetchLocation::Url(url.to_owned()),
    };
    lane_store::fetch(&location, Some(sha256), max_bytes, Duration::from_secs(600))
}

/// Unpacks a `.tar.gz` into `into`: regular files and folders only, every
/// path inside `into` (the `tar` crate refuses `..` and absolute paths),
/// at most `max_bytes` unpacked.
pub fn unpack(bytes: &[u8], into: &Path, max_bytes: u64) -> Result<(), String> {
    std::fs::create_dir_all(into).map_err(|e| format!("{}: {e}", into.display()))?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(bytes));
    let mut total = 0u64;
    let entries = archive
        .entries()
        .map_err(|e| format!("not a .tar.gz: {e}"))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| format!("not a .tar.gz: {e}"))?;
        let kind = entry.header().entry_type();
        let path = entry
            .path()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        if !(kind.is_file() || kind.is_dir()) {
            return Err(format!(
                "`{}`: only files and folders may be in a source archive",
                crate::report::bounded_text(&path, 200)
            ));
        }
        total += entry.size();
        if total > max_bytes {
            return Err(format!("it unpacks to over {max_bytes} bytes"));
        }
        let unpacked = entry
            .unpack_in(into)
            .map_err(|e| format!("`{}`: {e}", crate::report::bounded_text(&path, 200)))?;
        if !unpacked {
            return Err(format!(
                "`{}` points outside the tree",
                crate::report::bounded_text(&path, 200)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive(files: &[(&str, &[u8])]) -> Vec<u8> {
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut b = tar::Builder::new(gz);
        for (name, body) in files {
            let mut h = tar::Header::new_gnu();
            h.set_size(body.len() as u64);
            h.set_mode(0o644);
            h.set_entry_type(tar::EntryType::Regular);
            h.set_cksum();
            b.append_data(&mut h, name, *body).unwrap();
        }
        b.into_inner().unwrap().finish().unwrap()
    }

    #[test]
    fn an_archive_unpacks_into_its_folder() {
        let d = tempfile::tempdir().unwrap();
        let bytes = archive(&[("scripts/micro_mint_rig.py", b"print(1)\n")]);
        unpack(&bytes, &d.path().join("source"), 1 << 20).unwrap();
        assert_eq!(
            std::fs::read(d.path().join("source/scripts/micro_mint_rig.py")).unwrap(),
            b"print(1)\n"
        );
    }

    #[test]
    fn an_archive_over_its_cap_or_not_gzip_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let bytes = archive(&[("a", &[0u8; 100])]);
        let err = unpack(&bytes, &d.path().join("s"), 10).unwrap_err();
        assert_eq!(err, "it unpacks to over 10 bytes");
        let err = unpack(b"plain text", &d.path().join("t"), 10).unwrap_err();
        assert!(err.starts_with("not a .tar.gz"), "{err}");
    }

    #[test]
    fn a_source_archive_with_the_wrong_sha256_is_refused_before_unpacking() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("gen-worker.src.tar.gz");
        std::fs::write(&file, archive(&[("a", b"x")])).unwrap();
        let tree = SourceTree::Archive {
            url: format!("file://{}", file.display()),
            sha256: "0".repeat(64),
        };
        let err = prepare(&tree, d.path()).unwrap_err();
        assert!(matches!(err, AgentError::Source { .. }), "{err:?}");
        assert!(!d.path().join("source").exists());
    }
}
