//! `lane status`: where every mint of a lane stands, read from its run store.

use std::path::PathBuf;

use crate::error::AppError;
use crate::lane::load;

/// What `lane status` is asked.
#[derive(Debug, Clone)]
pub struct StatusRequest {
    /// The lane: a version (`0.93.3`) or a lane file path.
    pub lane: String,
    /// Where the lane's run lives.
    pub out: PathBuf,
}

/// Every attempt of a lane's run.
#[derive(Debug)]
pub struct StatusOutcome {
    /// The lane.
    pub lane: String,
    /// One row per attempt, as the run store keeps them.
    pub rows: Vec<lane_mint::store::MintRow>,
}

/// `lane status`: the run store's rows (a lane never minted here is a
/// precondition).
pub fn status(request: &StatusRequest) -> Result<StatusOutcome, AppError> {
    let loaded = load(&request.lane)?;
    let out = lane_core::layout::lane_out(&request.out, loaded.lane.version.as_str());
    let path = lane_core::layout::runs_db(&out);
    if !path.exists() {
        return Err(AppError::Precondition(format!(
            "no run of lane {} in {} (run `lane mint` first)",
            loaded.lane.version,
            out.display()
        )));
    }
    let store = lane_mint::store::RunStore::open(&path)?;
    Ok(StatusOutcome {
        lane: loaded.lane.version.to_string(),
        rows: store.rows()?,
    })
}
