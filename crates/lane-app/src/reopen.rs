//! `lane reopen`: re-opens ended slots of a lane on purpose, so the next
//! `lane mint` runs each once more (its earlier attempts kept in the run
//! store and in the slot's record). `failed` and `refused` are never
//! retried on their own; this is how a person says "run it again".

use std::path::PathBuf;

use crate::error::AppError;
use crate::lane::load;

/// What `lane reopen` is asked.
#[derive(Debug, Clone)]
pub struct ReopenRequest {
    /// The lane: a version (`0.93.3`) or a lane file path.
    pub lane: String,
    /// Where the lane's run lives.
    pub out: PathBuf,
    /// The slots, `<cell>/<gpu>/r<N>`.
    pub slots: Vec<String>,
    /// Say what would be re-opened; write nothing.
    pub dry_run: bool,
    /// Wait for another lane command that holds the lane, or refuse.
    pub wait: crate::lock::LockWait,
}

/// What `lane reopen` did.
#[derive(Debug, serde::Serialize)]
pub struct ReopenOutcome {
    /// The lane.
    pub lane: String,
    /// Whether nothing was written.
    pub dry_run: bool,
    /// Each slot re-opened (or that would be).
    pub reopened: Vec<lane_mint::local::Reopened>,
}

/// `lane reopen`: every slot asked is checked before any is re-opened (an
/// unknown slot is a usage error, one still open a precondition).
pub fn reopen(request: &ReopenRequest) -> Result<ReopenOutcome, AppError> {
    if request.slots.is_empty() {
        return Err(AppError::Usage(
            "name at least one slot, `<cell>/<gpu>/r<N>`".into(),
        ));
    }
    let loaded = load(&request.lane)?;
    let out = lane_core::layout::lane_out(&request.out, loaded.lane.version.as_str());
    let _lock = (!request.dry_run)
        .then(|| {
            crate::lock::lock_lane(
                &out,
                loaded.lane.version.as_str(),
                "lane reopen",
                request.wait,
                &mut |holder| tracing::warn!(holder, "waiting for the lane"),
            )
        })
        .transpose()?;
    // Checked whole first, so a bad slot re-opens none.
    lane_mint::local::reopen(&loaded.lane, &out, &request.slots, true)?;
    let reopened = lane_mint::local::reopen(&loaded.lane, &out, &request.slots, request.dry_run)?;
    Ok(ReopenOutcome {
        lane: loaded.lane.version.to_string(),
        dry_run: request.dry_run,
        reopened,
    })
}
