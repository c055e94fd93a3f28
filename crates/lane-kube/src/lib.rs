//! lane's Kubernetes client: it submits the Jobs `lane-kube-job` builds
//! (create with adoption, list a lane's Jobs, cancel, the capped pod log:
//! [`KubeClient`]) and watches them to their end ([`watch_lane`],
//! [`LaneView`], [`job_state`]). The Job builder is re-exported, so one
//! `use lane_kube::...` reaches both.
//!
//! What it must not touch: the Job's shape (that is `lane-kube-job`'s, pure),
//! the results folder (lane-backend's `KubeBackend`, which drives this
//! client, gathers from the store), the backend seam above it (nothing
//! here names lane-backend or lane-app), and the terminal
//! (progress goes to a callback as [`lane_core::Progress`]-shaped events,
//! logs to `tracing`).

mod client;
mod run;
mod watch;

pub use client::{
    mint_id_of, still_to_create, CancelReport, KubeClient, Submitted, LABEL_JOB_NAME,
};
// The pure Job builder, re-exported: what this crate submits and watches.
pub use lane_kube_job::*;
pub use run::JobOutcome;
pub use watch::{job_seconds, job_state, watch_lane, JobState, LaneEvent, LaneView};

/// What can go wrong building or submitting Jobs.
#[derive(Debug, thiserror::Error)]
pub enum KubeError {
    /// A Job could not be built.
    #[error(transparent)]
    Job(#[from] JobError),
    /// The Kubernetes API refused or could not be reached.
    #[error("Kubernetes API: {0}")]
    Api(#[from] kube::Error),
    /// The API server URL's `user:password@` could not be made a header
    /// (the URL without it is no URL, or the userinfo no header value).
    #[error("the Kubernetes API server URL's credentials cannot be sent as a header")]
    ClusterUrl,
    /// The run already has a Job for this mint id, made from another lane
    /// file, wheel or configuration (its `lane.dev/spec` differs): adopting
    /// it would report results of something else.
    #[error("Job `{name}` of run `{run}` (mint {id}) was made from another lane file, wheel or configuration: give this run a new --run-id, or `lane cancel` the old Jobs")]
    SpecChanged {
        /// The Job.
        name: String,
        /// The run.
        run: String,
        /// The mint id.
        id: String,
    },
    /// The watch stream ended before every Job finished (it never should:
    /// the watcher retries forever).
    #[error("the watch on the lane's Jobs ended before every Job finished")]
    WatchEnded,
    /// A create was answered 409 and the Job of that name belongs to
    /// another mint id (or to nothing lane knows): never adopted.
    #[error("Job `{name}` exists for mint id {theirs:?}, not `{ours}`; refusing to adopt it")]
    NameTaken {
        /// The Job name.
        name: String,
        /// The mint id we submitted.
        ours: String,
        /// The existing Job's `lane.dev/mint-id`, if any.
        theirs: Option<String>,
    },
}
