//! The backend's configuration: where Jobs go, which images they run, and
//! how a GPU class maps onto nodes (selector, tolerations, resources).

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Toleration;
use serde::{Deserialize, Serialize};

/// The node label NVIDIA GPU feature discovery puts on GPU nodes.
pub const GPU_PRODUCT_LABEL: &str = "nvidia.com/gpu.product";
/// The extended resource the NVIDIA device plugin advertises.
pub const NVIDIA_GPU_RESOURCE: &str = "nvidia.com/gpu";

/// How one GPU class (`L40S`, `L4`, ...) is placed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GpuClass {
    /// Node labels a pod of this class must match.
    #[serde(default)]
    pub node_selector: BTreeMap<String, String>,
    /// Taints a pod of this class tolerates.
    #[serde(default)]
    pub tolerations: Vec<Toleration>,
    /// The extended resource that counts GPUs (default `nvidia.com/gpu`).
    #[serde(default = "default_gpu_resource")]
    pub resource: String,
    /// GPUs per mint (default 1).
    #[serde(default = "one")]
    pub count: u32,
    /// Extra resource requests of the mint container (`cpu`, `memory`, ...),
    /// as Kubernetes quantities. Limits equal requests for these.
    #[serde(default)]
    pub requests: BTreeMap<String, String>,
}

fn default_gpu_resource() -> String {
    NVIDIA_GPU_RESOURCE.to_owned()
}
fn one() -> u32 {
    1
}

impl GpuClass {
    /// A class selected by the GPU feature discovery product label, with the
    /// usual `nvidia.com/gpu` NoSchedule toleration and one GPU.
    pub fn nvidia(product: &str) -> GpuClass {
        GpuClass {
            node_selector: BTreeMap::from([(GPU_PRODUCT_LABEL.to_owned(), product.to_owned())]),
            tolerations: vec![Toleration {
                key: Some(NVIDIA_GPU_RESOURCE.to_owned()),
                operator: Some("Exists".to_owned()),
                effect: Some("NoSchedule".to_owned()),
                ..Default::default()
            }],
            resource: default_gpu_resource(),
            count: 1,
            requests: BTreeMap::new(),
        }
    }
}

/// The default GPU map: `L40S`, `L4`, `H100`, `H200`, `A100` by their GPU
/// feature discovery product names.
pub fn default_gpu_classes() -> BTreeMap<String, GpuClass> {
    [
        ("L40S", "NVIDIA-L40S"),
        ("L4", "NVIDIA-L4"),
        ("H100", "NVIDIA-H100-80GB-HBM3"),
        ("H200", "NVIDIA-H200"),
        ("A100", "NVIDIA-A100-SXM4-80GB"),
    ]
    .into_iter()
    .map(|(class, product)| (class.to_owned(), GpuClass::nvidia(product)))
    .collect()
}

/// Where and how the Kubernetes backend creates its Jobs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KubeConfig {
    /// The mint namespace.
    #[serde(default = "default_namespace")]
    pub namespace: String,
    /// lane's own image (the `Dockerfile`); its init container copies
    /// `/usr/local/bin/lane` into the pod.
    pub lane_image: String,
    /// The image the mint runs in (CUDA, Python, `uv` when a wheel is used).
    pub mint_image: String,
    /// The image pull policy of both containers, if set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_pull_policy: Option<String>,
    /// GPU class -> placement. Classes not listed here are refused.
    #[serde(default = "default_gpu_classes")]
    pub gpu_classes: BTreeMap<String, GpuClass>,
    /// A Kueue `LocalQueue` to submit through (`kueue.x-k8s.io/queue-name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_name: Option<String>,
    /// A `PriorityClass` for the mint pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority_class_name: Option<String>,
    /// The pods' service account (none: the namespace default, no token mounted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account_name: Option<String>,
    /// The artifact store pods write their result bundles to, and `lane
    /// mint` stages and gathers through (`s3://bucket/prefix`; a `file://`
    /// path only where every pod mounts it). Required for a live run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store: Option<String>,
    /// Non-secret store settings for the mint container's environment
    /// (`LANE_S3_ENDPOINT`, `AWS_REGION`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub store_env: BTreeMap<String, String>,
    /// A Secret whose keys become the mint container's environment (the
    /// store credentials, `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`);
    /// referenced, never copied. Unneeded where the pods' service account
    /// or node gives AWS credentials (IRSA, pod identity, instance role).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store_secret: Option<String>,
    /// Image pull Secrets, by name.
    #[serde(default)]
    pub image_pull_secrets: Vec<String>,
    /// Seconds a finished Job is kept before the TTL controller deletes it.
    #[serde(default = "default_ttl")]
    pub ttl_seconds_after_finished: i32,
    /// Seconds per attempt on top of the mint timeout (image pull, wheel
    /// install); the Job's deadline is `(timeout + grace + the agent's
    /// upload window) × attempts`.
    #[serde(default = "default_grace")]
    pub startup_grace_s: u64,
    /// The uid/gid the pods run as (non-root).
    #[serde(default = "default_uid")]
    pub run_as_user: i64,
    /// Seconds a mint's pod may stay Unschedulable before `lane mint`
    /// names it (and the GPU class that has no room).
    #[serde(default = "default_unschedulable")]
    pub unschedulable_after_s: u64,
    /// The most bytes `lane mint` fetches from the store for one slot: the
    /// files its bundle names by key (its cells, and any other file too
    /// large to inline). A bundle naming more is that slot's failure,
    /// refused before anything is fetched. Unset: 64 GiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_fetch_bytes: Option<u64>,
}

fn default_unschedulable() -> u64 {
    600
}

fn default_namespace() -> String {
    "lane".to_owned()
}
fn default_ttl() -> i32 {
    7 * 24 * 3600
}
fn default_grace() -> u64 {
    900
}
fn default_uid() -> i64 {
    65532
}

/// Environment names that hold credentials: never plain values in a Job
/// (they come from `storeSecret`). The same names the agent keeps from the
/// mint.
pub const SECRET_ENV: &[&str] = lane_core::secret::CREDENTIAL_ENV;

impl KubeConfig {
    /// Refuses what would put a credential in plain text into every Job: a
    /// `storeEnv` entry named like one ([`SECRET_ENV`]).
    pub fn check(&self) -> Result<(), crate::JobError> {
        if let Some(k) = self
            .store_env
            .keys()
            .find(|k| SECRET_ENV.contains(&k.as_str()))
        {
            return Err(crate::JobError::SecretInStoreEnv { key: k.clone() });
        }
        // A `user:password@` in a URL is a credential too, and the store and
        // storeEnv values are written into every Job as they are.
        if self
            .store
            .as_deref()
            .is_some_and(lane_core::secret::has_userinfo)
        {
            return Err(crate::JobError::CredentialInUrl {
                key: "store".into(),
            });
        }
        if let Some((k, _)) = self
            .store_env
            .iter()
            .find(|(_, v)| lane_core::secret::has_userinfo(v))
        {
            return Err(crate::JobError::CredentialInUrl {
                key: format!("storeEnv.{k}"),
            });
        }
        Ok(())
    }

    /// A configuration with every default and the two images.
    pub fn new(lane_image: impl Into<String>, mint_image: impl Into<String>) -> KubeConfig {
        KubeConfig {
            namespace: default_namespace(),
            lane_image: lane_image.into(),
            mint_image: mint_image.into(),
            image_pull_policy: None,
            gpu_classes: default_gpu_classes(),
            queue_name: None,
            priority_class_name: None,
            service_account_name: None,
            store: None,
            store_env: BTreeMap::new(),
            store_secret: None,
            image_pull_secrets: Vec::new(),
            ttl_seconds_after_finished: default_ttl(),
            startup_grace_s: default_grace(),
            run_as_user: default_uid(),
            unschedulable_after_s: default_unschedulable(),
            max_fetch_bytes: None,
        }
    }
}
