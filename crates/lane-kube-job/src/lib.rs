//! lane's Kubernetes Job builder: the shape of the `batch/v1` Job that runs
//! one mint attempt on a GPU pod (name, labels, GPU placement, the init
//! container that brings lane's binary, the pod failure policy, the
//! restricted security context), the kube configuration (the GPU class map,
//! images, the store), and the `--dry-run` YAML. Start at [`job_for`].
//!
//! What it must not touch: it is pure (values in, objects out). No client,
//! no async runtime, no network, no filesystem, no printing: `lane-kube`
//! submits and watches what this crate builds. The exit-code contract with
//! the agent is in `docs/kubernetes.md`.

mod config;
mod job;

pub use k8s_openapi::api::batch::v1::Job;

pub use config::{
    default_gpu_classes, GpuClass, KubeConfig, GPU_PRODUCT_LABEL, NVIDIA_GPU_RESOURCE, SECRET_ENV,
};
pub use job::{
    agent_args, id_hash, job_for, job_name, jobs_yaml, label_value, labels_for, lane_selector,
    pod_failure_policy, run_selector, spec_of, valid_run_id, yaml_of, MintJob, StagedWheel,
    ANNOTATION_MINT_ID, ANNOTATION_SPEC, EXIT_FAILED, EXIT_REFUSED, INSTALL_CONTAINER,
    LABEL_ATTEMPT, LABEL_CELL, LABEL_GPU, LABEL_KUEUE_QUEUE, LABEL_LANE, LABEL_MANAGED_BY,
    LABEL_REPEAT, LABEL_RUN, LANE_IN_IMAGE, LANE_IN_POD, MAX_NAME, MINT_CONTAINER, MINT_DIR,
};

/// What can go wrong building Jobs.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
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
    #[error("writing a Job as YAML")]
    Yaml(#[source] serde_yaml::Error),
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
}
