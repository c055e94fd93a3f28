//! The tree cells get as `$LANE_SOURCE_DIR` (local backend).

use std::path::{Path, PathBuf};

use super::MintRequest;
use crate::error::AppError;
use crate::lane::LoadedLane;

/// `source`, else (when a cell needs one) the lane branch exported once
/// per commit into `<lane out>/source/<commit>/`.
pub(super) fn tree(
    request: &MintRequest,
    loaded: &LoadedLane,
    out: &Path,
) -> Result<Option<PathBuf>, AppError> {
    if let Some(dir) = &request.source {
        if !dir.is_dir() {
            return Err(AppError::invalid(
                format!("--source {}", dir.display()),
                "not a folder",
            ));
        }
        return std::path::absolute(dir)
            .map(Some)
            .map_err(|e| AppError::io(dir, e));
    }
    let needs = loaded
        .lane
        .mint
        .as_ref()
        .is_some_and(|m| m.cells.iter().any(|c| c.source));
    if !needs {
        return Ok(None);
    }
    let repo_dir = crate::lane::repository(loaded, request.repo.as_deref())?;
    let repo = lane_git::repo::open(&repo_dir)?;
    let branch = loaded.lane.branch_name();
    let tree = lane_wheel::LaneTree::read(&repo, &branch).map_err(AppError::NeedsLaneTree)?;
    let parent = out.join("source");
    let dir = parent.join(tree.commit.to_string());
    if !dir.is_dir() {
        // Exported beside, then renamed: a killed export is never taken for a tree.
        let tmp = parent.join(format!(".{}.partial", tree.commit));
        if tmp.exists() {
            std::fs::remove_dir_all(&tmp).map_err(|e| AppError::io(&tmp, e))?;
        }
        std::fs::create_dir_all(&tmp).map_err(|e| AppError::io(&tmp, e))?;
        tree.export(&repo, &tmp)?;
        std::fs::rename(&tmp, &dir).map_err(|e| AppError::io(&dir, e))?;
    }
    tracing::info!(source = %dir.display(), commit = %tree.commit, "the mints' source tree");
    Ok(Some(dir))
}
