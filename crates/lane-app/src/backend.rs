//! Where mints run: lane-backend's seam (the [`Backend`] trait, the
//! resolved [`MintPlan`] it is handed, what it gives back), re-exported for
//! lane's callers, and the backend a name picks.

pub use lane_backend::{Backend, BackendError, Cancelled, DryRun, JobEnd, MintPlan, Minted};

use crate::error::AppError;

/// The backend `name` names (`local`, `kube`).
pub fn open(name: &str) -> Result<Box<dyn Backend>, AppError> {
    Ok(lane_backend::open(name)?)
}
