//! Where a lane's mints run: the seam between `lane mint` and what runs
//! it, and both sides of it that run mints.
//!
//! **What it owns.** The one trait, [`Backend`] (`check`, `dry_run`,
//! `mint` with [`lane_core::Progress`] events, `keeps`, `cancel`), the
//! resolved plan it is handed ([`MintPlan`]: plain values, no lane-app
//! type), what it gives back ([`DryRun`], [`Minted`] with each Job's
//! [`JobEnd`], [`Cancelled`]), its one error type ([`BackendError`]), and
//! its two implementations: [`local::LocalBackend`] (agents on this
//! machine, `lane_mint::local::LocalRun`) and, with feature `kube`,
//! `kube::KubeBackend` (one Job per mint through `lane_kube`, the slots
//! gathered from the store by `lane_mint::collect`). [`open`] picks one by
//! name.
//!
//! **What it must not touch.** lane-app and everything above it: a plan
//! comes down resolved (the lane found and narrowed, the source tree
//! exported, the guards recorded) and a summary goes back; nothing here
//! calls up. No exit codes (lane-app decides them from [`BackendError`]),
//! no printing (progress goes to a callback, logs to `tracing`), no git,
//! no report.

mod error;
#[cfg(feature = "kube")]
pub mod kube;
pub mod local;
mod seam;

pub use error::BackendError;
pub use seam::{Backend, Cancelled, DryRun, JobEnd, MintPlan, Minted};

/// The backend `name` names (`local`, `kube`).
pub fn open(name: &str) -> Result<Box<dyn Backend>, BackendError> {
    match name {
        "local" => Ok(Box::new(local::LocalBackend)),
        #[cfg(feature = "kube")]
        "kube" => Ok(Box::new(kube::KubeBackend::default())),
        #[cfg(not(feature = "kube"))]
        "kube" => Err(BackendError::NotBuilt),
        other => Err(BackendError::Unknown {
            name: other.to_owned(),
        }),
    }
}
