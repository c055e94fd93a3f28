//! `lane wheel`: build the lane's wheel from its branch's tree with uv
//! (once the branch is proved exactly the lane's cut), verify it is that
//! tree, and stage it (with its manifest) in the artifact
//! store where GPU pods fetch it.

use std::path::PathBuf;
use std::time::Duration;

use lane_wheel::BuildRequest;

use crate::error::AppError;
use crate::lane::{load, open_store, repository};

/// What `lane wheel` is asked.
#[derive(Debug, Clone)]
pub struct WheelRequest {
    /// The lane: a version (`0.93.3`) or a lane file path.
    pub lane: String,
    /// Operate on this local clone instead of the lane's upstream.
    pub repo: Option<PathBuf>,
    /// The artifact store: `file:///path`, a path, or `s3://bucket/prefix`.
    pub store: String,
    /// Where `uv` is looked for (after PATH) and installed when missing.
    pub tools_dir: PathBuf,
    /// How long the pods' presigned URL stays valid (S3 stores).
    pub url_ttl: Duration,
    /// Build and verify; stage nothing.
    pub dry_run: bool,
}

/// What `lane wheel` built and staged.
#[derive(Debug)]
pub struct WheelOutcome {
    /// The wheel, verified, with its manifest and timings.
    pub built: lane_wheel::BuiltWheel,
    /// Where it was staged (`None` on a dry run).
    pub staged: Option<lane_wheel::Staged>,
}

/// `lane wheel`.
pub fn wheel(request: &WheelRequest) -> Result<WheelOutcome, AppError> {
    let loaded = load(&request.lane)?;
    let repo_dir = repository(&loaded, request.repo.as_deref())?;
    let repo = lane_git::repo::open(&repo_dir)?;
    // The branch's head is built only when it is exactly the lane's cut.
    crate::lane::prove_branch(&repo, &loaded.lane, "build a wheel from it")?;
    let build = BuildRequest {
        lane: loaded.lane.version.to_string(),
        branch: loaded.lane.branch_name(),
        tools_dir: request.tools_dir.clone(),
    };
    let mut built = lane_wheel::build(&repo, &build)?;
    // Opened after the build so a refused build leaves no store folder behind.
    let staged = if request.dry_run {
        None
    } else {
        let store = open_store(&request.store)?;
        Some(lane_wheel::stage(
            store.as_ref(),
            &mut built,
            request.url_ttl,
        )?)
    };
    Ok(WheelOutcome { built, staged })
}
