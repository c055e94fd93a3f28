//! The source archive: the lane tree itself, as a deterministic `.tar.gz`
//! staged beside the wheel. Cells that run the upstream's own rig need
//! `scripts/` and `tests/harness/`, which no wheel carries; a pod fetches
//! this archive the way it fetches the wheel (a presigned URL, checked
//! against the manifest's sha256) and unpacks it as `$LANE_SOURCE_DIR`.

use std::io::Write;
use std::path::Path;

use crate::error::{git, io, WheelError};
use crate::tree::LaneTree;

/// What the manifest records of the source archive.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SourceArchive {
    /// Its file name (`<project>-<version>.src.tar.gz`).
    pub file: String,
    /// sha256, hex.
    pub sha256: String,
    /// Bytes.
    pub size: u64,
    /// Files in it.
    pub files: u64,
}

/// Writes the tree's blobs (sorted, modes kept, owner 0, mtime the
/// commit's) as `<dir>/<project>-<version>.src.tar.gz`: the same tree
/// gives the same bytes.
pub fn write_source_archive(
    repo: &git2::Repository,
    tree: &LaneTree,
    project: &str,
    version: &str,
    dir: &Path,
) -> Result<(std::path::PathBuf, SourceArchive), WheelError> {
    std::fs::create_dir_all(dir).map_err(io(format!("creating {}", dir.display())))?;
    let file = format!("{}-{version}.src.tar.gz", crate::normalize_name(project));
    let path = dir.join(&file);
    let out = std::fs::File::create(&path).map_err(io(format!("creating {}", path.display())))?;
    let gz = flate2::GzBuilder::new()
        .mtime(0)
        .write(out, flate2::Compression::default());
    let mut ar = tar::Builder::new(gz);
    let mtime = u64::try_from(tree.commit_time).unwrap_or(0);
    for (name, (oid, mode)) in &tree.blobs {
        let blob = repo
            .find_blob(*oid)
            .map_err(git(format!("reading {name}")))?;
        let mut h = tar::Header::new_gnu();
        h.set_mtime(mtime);
        h.set_uid(0);
        h.set_gid(0);
        let res = if *mode == 0o120000 {
            h.set_entry_type(tar::EntryType::Symlink);
            h.set_size(0);
            h.set_mode(0o777);
            let target = String::from_utf8_lossy(blob.content()).into_owned();
            ar.append_link(&mut h, name, target)
        } else {
            h.set_entry_type(tar::EntryType::Regular);
            h.set_size(blob.content().len() as u64);
            h.set_mode(if *mode == 0o100755 { 0o755 } else { 0o644 });
            ar.append_data(&mut h, name, blob.content())
        };
        res.map_err(io(format!("archiving {name}")))?;
    }
    let gz = ar
        .into_inner()
        .map_err(io(format!("writing {}", path.display())))?;
    let mut out = gz
        .finish()
        .map_err(io(format!("writing {}", path.display())))?;
    out.flush()
        .and_then(|()| out.sync_all())
        .map_err(io(format!("writing {}", path.display())))?;
    let bytes = std::fs::read(&path).map_err(io(format!("reading {}", path.display())))?;
    Ok((
        path,
        SourceArchive {
            file,
            sha256: lane_store::sha256_hex(&bytes),
            size: bytes.len() as u64,
            files: tree.blobs.len() as u64,
        },
    ))
}
