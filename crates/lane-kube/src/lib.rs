//! lane's Kubernetes backend: it owns the shape of the `batch/v1` Job that
//! runs one mint attempt on a GPU pod (name, labels, GPU placement, the
//! init container that brings lane's binary, the pod failure policy, the
//! restricted security context) and the `--dry-run` YAML. Start at
//! [`job_for`]; [`KubeConfig`] holds the GPU class map and images. The
//! Job building (`job`, `config`) is pure (values in, objects out) and
//! never talks to a cluster or prints. The client layer on top:
//! [`KubeBackend`] (create with adoption, list a lane's Jobs, cancel, the
//! capped pod log) and the watcher ([`watch_lane`], [`LaneView`],
//! [`job_state`]). The exit-code contract with the agent is in
//! `docs/kubernetes.md`.

mod client;
mod config;
mod job;
mod run;
mod watch;

pub use client::{
    mint_id_of, still_to_create, CancelReport, KubeBackend, Submitted, LABEL_JOB_NAME,
};
pub use k8s_openapi::api::batch::v1::Job;
pub use run::{JobEnd, KubeProgress};
pub use watch::{job_seconds, job_state, watch_lane, JobState, LaneEvent, LaneView};

pub use config::{
    default_gpu_classes, GpuClass, KubeConfig, GPU_PRODUCT_LABEL, NVIDIA_GPU_RESOURCE, SECRET_ENV,
};
pub use job::{
    agent_args, id_hash, job_for, job_name, jobs_yaml, label_value, labels_for, lane_selector,
    pod_failure_policy, run_selector, spec_of, valid_run_id, MintJob, StagedWheel,
    ANNOTATION_MINT_ID, ANNOTATION_SPEC, EXIT_FAILED, EXIT_REFUSED, INSTALL_CONTAINER,
    LABEL_ATTEMPT, LABEL_CELL, LABEL_GPU, LABEL_KUEUE_QUEUE, LABEL_LANE, LABEL_MANAGED_BY,
    LABEL_REPEAT, LABEL_RUN, LANE_IN_IMAGE, LANE_IN_POD, MAX_NAME, MINT_CONTAINER, MINT_DIR,
};

/// What can go wrong building or submitting Jobs.
#[derive(Debug, thiserror::Error)]
pub enum KubeError {
    /// A mint names a GPU class the configuration does not map.
    #[error("GPU class `{gpu}` has no entry in the Kubernetes GPU map (known: {known})")]
    UnknownGpuClass {
        /// The class.
        gpu: String,
        /// The classes the map has.
        known: String,
    },
    /// The plan names a cell the lane file lacks (a bug).
    #[error("the plan names cell `{0}`, which the lane file lacks")]
    UnknownCell(String),
    /// A Job could not be written as YAML.
    #[error("writing a Job as YAML: {0}")]
    Yaml(#[from] serde_yaml::Error),
    /// The Kubernetes API refused or could not be reached.
    #[error("Kubernetes API: {0}")]
    Api(#[from] kube::Error),
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
    /// `storeEnv` names a credential, which would be written in plain text
    /// into every Job; credentials come from `storeSecret`.
    #[error("storeEnv.{key} is a credential: put it in the Secret named by storeSecret, never in storeEnv (it would be plain text in every Job)")]
    SecretInStoreEnv {
        /// The variable.
        key: String,
    },
    /// A URL in the configuration carries `user:password@`, which would be
    /// plain text in every Job.
    #[error("{key} carries credentials in its URL (`user:password@`): give them through the Secret named by storeSecret, never in the URL (it would be plain text in every Job)")]
    CredentialInUrl {
        /// The setting.
        key: String,
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
