//! `lane cancel`: delete a lane's Kubernetes Jobs and their pods.

use std::path::PathBuf;

use lane_backend::kube::KubeBackend;

use crate::backend::{Backend, Cancelled};
use crate::error::AppError;
use crate::lane::load;
use crate::mint::load_kube_config;

/// What `lane cancel` is asked.
#[derive(Debug, Clone)]
pub struct CancelRequest {
    /// The lane: a version (`0.93.3`) or a lane file path.
    pub lane: String,
    /// The Kubernetes backend's configuration (YAML, `docs/kubernetes.md`).
    pub kube_config: PathBuf,
    /// Say what would be deleted and delete nothing.
    pub dry_run: bool,
}

/// What `lane cancel` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CancelOutcome {
    /// A dry run: what would be deleted.
    WouldDelete {
        /// The namespace.
        namespace: String,
        /// The label selector of the lane's Jobs and pods.
        selector: String,
    },
    /// What was deleted.
    Deleted(Cancelled),
}

/// `lane cancel`.
pub fn cancel(request: &CancelRequest) -> Result<CancelOutcome, AppError> {
    let loaded = load(&request.lane)?;
    let cfg = load_kube_config(&request.kube_config)?;
    let lane = loaded.lane.version.to_string();
    if request.dry_run {
        return Ok(CancelOutcome::WouldDelete {
            namespace: cfg.namespace,
            selector: lane_kube_job::lane_selector(&lane),
        });
    }
    Ok(CancelOutcome::Deleted(
        KubeBackend::with_config(cfg).cancel(&lane)?,
    ))
}
