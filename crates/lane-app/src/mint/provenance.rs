//! What a lane mints with, for `summary.json`: the wheel its mints install
//! and the guards' verdict on the lane branch's head. Recorded when lane
//! knows them, absent otherwise (never guessed).

use std::io::Read;
use std::path::Path;

use lane_core::{GuardRecord, WheelRef};
use sha2::{Digest, Sha256};

use crate::error::AppError;
use crate::lane::LoadedLane;

/// The wheel file the local backend installs, fingerprinted.
pub fn wheel_file(path: &Path) -> Result<WheelRef, AppError> {
    let fail = |e: std::io::Error| AppError::invalid(format!("--wheel {}", path.display()), e);
    let mut f = std::fs::File::open(path).map_err(fail)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf).map_err(fail)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(WheelRef {
        file: path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        sha256: lane_core::hex::hex(&hasher.finalize()),
        key: None,
        commit: None,
    })
}

/// The guards on the lane branch's head, when the lane's repository is on
/// this machine (`--repo`, or a local upstream) and the branch exists. A
/// URL upstream is not cloned for this: minting never needs the network.
pub fn guards(loaded: &LoadedLane, repo: Option<&Path>) -> Result<Option<GuardRecord>, AppError> {
    if repo.is_none() && loaded.lane.upstream.is_url() {
        tracing::info!("guards not recorded: the upstream is a URL and no --repo was given");
        return Ok(None);
    }
    let dir = crate::lane::repository(loaded, repo)?;
    let Ok(repo) = lane_git::repo::open(&dir) else {
        tracing::info!(repo = %dir.display(), "guards not recorded: no repository there");
        return Ok(None);
    };
    let branch = loaded.lane.branch_name();
    let Ok(head) = lane_git::repo::resolve_commit(&repo, "lane branch", &branch) else {
        tracing::info!(%branch, "guards not recorded: the lane branch does not exist");
        return Ok(None);
    };
    let base = lane_git::repo::resolve_commit(&repo, "base tag", loaded.lane.base.as_str())?;
    let mut ids = lane_git::repo::PatchIds::default();
    let report =
        lane_git::guard::check_after(&repo, &loaded.lane, base.id(), head.id(), &branch, &mut ids)?;
    Ok(Some(report.record(head.id())))
}
