//! The pure part of the backend: one `batch/v1` Job per mint id, built from
//! values alone (no cluster, no client).

use std::collections::BTreeMap;

use k8s_openapi::api::batch::v1::{
    Job, JobSpec, PodFailurePolicy, PodFailurePolicyOnExitCodesRequirement,
    PodFailurePolicyOnPodConditionsPattern, PodFailurePolicyRule,
};
use k8s_openapi::api::core::v1::{
    Capabilities, Container, EmptyDirVolumeSource, EnvFromSource, EnvVar, EnvVarSource,
    LocalObjectReference, ObjectFieldSelector, PodSecurityContext, PodSpec, PodTemplateSpec,
    ResourceRequirements, SeccompProfile, SecretEnvSource, SecurityContext, Volume, VolumeMount,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use lane_core::MintId;
use lane_file::{LaneFile, Recipe};
use sha2::{Digest, Sha256};

use crate::config::KubeConfig;
use crate::JobError;

/// Label: the lane version.
pub const LABEL_LANE: &str = "lane.dev/lane";
/// Label: the cell.
pub const LABEL_CELL: &str = "lane.dev/cell";
/// Label: the GPU class.
pub const LABEL_GPU: &str = "lane.dev/gpu";
/// Label: the cold repeat.
pub const LABEL_REPEAT: &str = "lane.dev/repeat";
/// Label: the attempt.
pub const LABEL_ATTEMPT: &str = "lane.dev/attempt";
/// Label: the run id.
pub const LABEL_RUN: &str = "lane.dev/run";
/// Label: who manages the object (always `lane`).
pub const LABEL_MANAGED_BY: &str = "app.kubernetes.io/managed-by";
/// Label: the Kueue local queue.
pub const LABEL_KUEUE_QUEUE: &str = "kueue.x-k8s.io/queue-name";
/// Annotation: the full mint id, `<lane>/<cell>/<gpu>/r<N>/a<M>` (labels
/// may be sanitized; this is what adoption reads back).
pub const ANNOTATION_MINT_ID: &str = "lane.dev/mint-id";

/// Annotation: the digest of what the Job runs (see `job_for`): a Job of
/// the same run and mint id with another digest was made from another lane
/// file, wheel or configuration and is never adopted.
pub const ANNOTATION_SPEC: &str = "lane.dev/spec";

/// The mint container's name (the `podFailurePolicy` exit-code rule names it).
pub const MINT_CONTAINER: &str = "mint";
/// The init container that copies lane's binary into the pod.
pub const INSTALL_CONTAINER: &str = "install-lane";
/// Where lane's binary sits in lane's image.
pub const LANE_IN_IMAGE: &str = "/usr/local/bin/lane";
/// Where the init container puts it (an emptyDir).
pub const LANE_IN_POD: &str = "/lane/bin/lane";
/// The attempt's folder inside the pod (an emptyDir).
pub const MINT_DIR: &str = "/work/mint";

/// Agent exit code (with `--exit-by-outcome`): the mint was refused. Fails
/// the Job at once.
pub const EXIT_REFUSED: i32 = 10;
/// Agent exit code (with `--exit-by-outcome`): the mint failed. Fails the
/// Job at once.
pub const EXIT_FAILED: i32 = 11;

/// The longest Job name: Job names become the `batch.kubernetes.io/job-name`
/// label value on pods, so they are DNS-1123 labels (63).
pub const MAX_NAME: usize = 63;

/// Everything one Job needs to know about one mint attempt.
#[derive(Debug, Clone, PartialEq)]
pub struct MintJob {
    /// The attempt's id.
    pub id: MintId,
    /// The cell's recipe.
    pub recipe: Recipe,
    /// The mint command and its arguments.
    pub command: Vec<String>,
    /// The cell's extra environment.
    pub env: BTreeMap<String, String>,
    /// Seconds before the agent kills the mint.
    pub timeout_s: u64,
    /// Pod failures (crashes) retried before the Job fails
    /// (`RetryPolicy::crashed`).
    pub crashed_retries: u32,
    /// The run this attempt belongs to.
    pub run_id: String,
    /// The staged wheel to install first: its presigned URL and sha256.
    pub wheel: Option<StagedWheel>,
    /// The artifact store the result bundle goes to.
    pub store: Option<String>,
    /// Where the mint writes its report, relative to the mint folder (the
    /// cell's `report`).
    pub report: Option<String>,
    /// The staged source archive (the lane tree) a cell with `source: true`
    /// gets as `$LANE_SOURCE_DIR`: its presigned URL and sha256.
    pub source: Option<StagedWheel>,
}

/// A wheel staged in the artifact store, as a pod fetches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StagedWheel {
    /// A presigned URL, valid for the lane's whole deadline.
    pub url: String,
    /// Its sha256 (hex), from the staged manifest.
    pub sha256: String,
}

impl MintJob {
    /// Every mint of `lane`, in plan order (cell, GPU, repeat), first attempts.
    pub fn plan(
        lane: &LaneFile,
        run_id: &str,
        wheel: Option<&StagedWheel>,
        store: Option<&str>,
    ) -> Result<Vec<MintJob>, JobError> {
        Self::plan_with_source(lane, run_id, wheel, None, store)
    }

    /// [`MintJob::plan`], with the staged source archive for the cells that
    /// need the upstream's tree (`source: true`).
    pub fn plan_with_source(
        lane: &LaneFile,
        run_id: &str,
        wheel: Option<&StagedWheel>,
        source: Option<&StagedWheel>,
        store: Option<&str>,
    ) -> Result<Vec<MintJob>, JobError> {
        let Some(matrix) = &lane.mint else {
            return Ok(Vec::new());
        };
        lane.plan()
            .into_iter()
            .map(|p| {
                let cell = matrix
                    .cells
                    .iter()
                    .find(|c| c.name.as_str() == p.id.cell)
                    .ok_or_else(|| JobError::UnknownCell(p.id.cell.clone()))?;
                Ok(MintJob {
                    id: p.id,
                    recipe: p.recipe,
                    command: cell.command.clone(),
                    env: cell.env.clone(),
                    timeout_s: matrix.timeout_s,
                    crashed_retries: matrix.retry.crashed,
                    run_id: run_id.to_owned(),
                    wheel: wheel.cloned(),
                    store: store.map(str::to_owned),
                    report: cell.report.as_ref().map(|r| r.as_str().to_owned()),
                    source: if cell.source { source.cloned() } else { None },
                })
            })
            .collect()
    }
}

fn recipe_str(r: Recipe) -> &'static str {
    match r {
        Recipe::Dynamo => "dynamo",
        Recipe::Aot => "aot",
    }
}

/// Lowercases and keeps `[a-z0-9-]`, mapping anything else to `-`, folding
/// runs of `-`.
fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let c = c.to_ascii_lowercase();
        let c = if c.is_ascii_lowercase() || c.is_ascii_digit() {
            c
        } else {
            '-'
        };
        if !(c == '-' && out.ends_with('-')) {
            out.push(c);
        }
    }
    out
}

/// The first 8 hex digits of SHA-256 of `<run>/<mint id>`.
pub fn id_hash(id: &MintId, run: &str) -> String {
    let d = Sha256::digest(format!("{run}/{id}").as_bytes());
    d.iter().take(4).map(|b| format!("{b:02x}")).collect()
}

/// The Job's name: `lane-<lane>-<cell>-<gpu>-r<N>-a<M>-<hash8>`, a DNS-1123
/// label of at most 63 characters. The readable part is shortened to fit;
/// the hash of the run and the full id keeps names of different ids (and of
/// the same id in different runs) apart.
pub fn job_name(id: &MintId, run: &str) -> String {
    let hash = id_hash(id, run);
    let readable = slug(&format!(
        "lane-{}-{}-{}-r{}-a{}",
        id.lane, id.cell, id.gpu, id.repeat, id.attempt
    ));
    let room = MAX_NAME - hash.len() - 1;
    let mut head: String = readable.chars().take(room).collect();
    while head.ends_with('-') {
        head.pop();
    }
    format!("{head}-{hash}")
}

/// Whether `run` can name a run: 1 to 63 of `[A-Za-z0-9._-]`, starting and
/// ending with a letter or digit (it is a label value and a store key
/// segment as it is).
pub fn valid_run_id(run: &str) -> bool {
    !run.is_empty() && label_value(run) == run
}

/// A label value from any string: at most 63 of `[A-Za-z0-9._-]`, starting
/// and ending with a letter or digit (may be empty).
pub fn label_value(s: &str) -> String {
    let mapped: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(63)
        .collect();
    mapped
        .trim_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_owned()
}

/// The labels of a mint's Job and pod.
pub fn labels_for(mint: &MintJob, cfg: &KubeConfig) -> BTreeMap<String, String> {
    let mut l = BTreeMap::from([
        (LABEL_MANAGED_BY.to_owned(), "lane".to_owned()),
        (LABEL_LANE.to_owned(), label_value(&mint.id.lane)),
        (LABEL_CELL.to_owned(), label_value(&mint.id.cell)),
        (LABEL_GPU.to_owned(), label_value(&mint.id.gpu)),
        (LABEL_REPEAT.to_owned(), mint.id.repeat.to_string()),
        (LABEL_ATTEMPT.to_owned(), mint.id.attempt.to_string()),
        (LABEL_RUN.to_owned(), label_value(&mint.run_id)),
    ]);
    if let Some(q) = &cfg.queue_name {
        l.insert(LABEL_KUEUE_QUEUE.to_owned(), q.clone());
    }
    l
}

/// The label selector of every Job of one lane, of every run (`lane
/// cancel`).
pub fn lane_selector(lane: &str) -> String {
    format!("{LABEL_MANAGED_BY}=lane,{LABEL_LANE}={}", label_value(lane))
}

/// The label selector of one run's Jobs of a lane (adoption at start, the
/// watch): a run adopts its own Jobs, never an earlier run's.
pub fn run_selector(lane: &str, run: &str) -> String {
    format!("{},{LABEL_RUN}={}", lane_selector(lane), label_value(run))
}

/// The agent's command line inside the pod.
pub fn agent_args(mint: &MintJob) -> Vec<String> {
    let mut a = vec![
        LANE_IN_POD.to_owned(),
        "agent".to_owned(),
        "--mint-dir".to_owned(),
        MINT_DIR.to_owned(),
        "--id".to_owned(),
        mint.id.to_string(),
        "--recipe".to_owned(),
        recipe_str(mint.recipe).to_owned(),
        "--timeout-s".to_owned(),
        mint.timeout_s.to_string(),
        "--exit-by-outcome".to_owned(),
    ];
    if let Some(store) = &mint.store {
        a.push("--store".to_owned());
        a.push(store.clone());
        a.push("--run-id".to_owned());
        a.push(mint.run_id.clone());
        a.push("--attempt-from-store".to_owned());
    }
    if let Some(w) = &mint.wheel {
        a.push("--wheel-url".to_owned());
        a.push(w.url.clone());
        a.push("--wheel-sha256".to_owned());
        a.push(w.sha256.clone());
    }
    if let Some(r) = &mint.report {
        a.push("--report".to_owned());
        a.push(r.clone());
    }
    if let Some(src) = &mint.source {
        a.push("--source-url".to_owned());
        a.push(src.url.clone());
        a.push("--source-sha256".to_owned());
        a.push(src.sha256.clone());
    }
    for (k, v) in &mint.env {
        a.push("--env".to_owned());
        a.push(format!("{k}={v}"));
    }
    a.push("--".to_owned());
    a.extend(mint.command.iter().cloned());
    a
}

/// The pod failure policy: a disruption (preemption, eviction, node drain:
/// the `DisruptionTarget` condition) is retried without counting against
/// `backoffLimit`; the agent's deterministic outcomes fail the Job at once.
pub fn pod_failure_policy() -> PodFailurePolicy {
    PodFailurePolicy {
        rules: vec![
            PodFailurePolicyRule {
                action: "Ignore".to_owned(),
                on_pod_conditions: Some(vec![PodFailurePolicyOnPodConditionsPattern {
                    type_: "DisruptionTarget".to_owned(),
                    status: Some("True".to_owned()),
                }]),
                ..Default::default()
            },
            PodFailurePolicyRule {
                action: "FailJob".to_owned(),
                on_exit_codes: Some(PodFailurePolicyOnExitCodesRequirement {
                    container_name: Some(MINT_CONTAINER.to_owned()),
                    operator: "In".to_owned(),
                    values: vec![EXIT_REFUSED, EXIT_FAILED],
                }),
                ..Default::default()
            },
        ],
    }
}

fn restricted() -> SecurityContext {
    SecurityContext {
        allow_privilege_escalation: Some(false),
        read_only_root_filesystem: Some(true),
        run_as_non_root: Some(true),
        capabilities: Some(Capabilities {
            drop: Some(vec!["ALL".to_owned()]),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn mount(name: &str, path: &str) -> VolumeMount {
    VolumeMount {
        name: name.to_owned(),
        mount_path: path.to_owned(),
        ..Default::default()
    }
}

fn empty_dir(name: &str) -> Volume {
    Volume {
        name: name.to_owned(),
        empty_dir: Some(EmptyDirVolumeSource::default()),
        ..Default::default()
    }
}

/// The Job for one mint attempt.
pub fn job_for(mint: &MintJob, cfg: &KubeConfig) -> Result<Job, JobError> {
    let class = cfg
        .gpu_classes
        .get(&mint.id.gpu)
        .ok_or_else(|| JobError::UnknownGpuClass {
            gpu: mint.id.gpu.clone(),
            known: cfg
                .gpu_classes
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    let labels = labels_for(mint, cfg);
    let mut pod_labels = labels.clone();
    pod_labels.remove(LABEL_KUEUE_QUEUE);
    let annotations = BTreeMap::from([(ANNOTATION_MINT_ID.to_owned(), mint.id.to_string())]);

    let mut requests: BTreeMap<String, Quantity> = class
        .requests
        .iter()
        .map(|(k, v)| (k.clone(), Quantity(v.clone())))
        .collect();
    let mut limits = requests.clone();
    requests.insert(class.resource.clone(), Quantity(class.count.to_string()));
    limits.insert(class.resource.clone(), Quantity(class.count.to_string()));

    let attempts = u64::from(mint.crashed_retries) + 1;
    // Each attempt may also spend the agent's upload window on a store
    // that is down, rather than lose a finished mint.
    let deadline = (mint.timeout_s + cfg.startup_grace_s + lane_core::results::UPLOAD_WINDOW_S)
        .saturating_mul(attempts);

    let install = Container {
        name: INSTALL_CONTAINER.to_owned(),
        image: Some(cfg.lane_image.clone()),
        image_pull_policy: cfg.image_pull_policy.clone(),
        command: Some(vec![
            "cp".to_owned(),
            LANE_IN_IMAGE.to_owned(),
            LANE_IN_POD.to_owned(),
        ]),
        volume_mounts: Some(vec![mount("lane-bin", "/lane/bin")]),
        security_context: Some(restricted()),
        ..Default::default()
    };
    let mut env = vec![
        EnvVar {
            name: "HOME".to_owned(),
            value: Some("/work/home".to_owned()),
            ..Default::default()
        },
        EnvVar {
            name: "TMPDIR".to_owned(),
            value: Some("/tmp".to_owned()),
            ..Default::default()
        },
        EnvVar {
            name: "LANE_RUN_ID".to_owned(),
            value: Some(mint.run_id.clone()),
            ..Default::default()
        },
        // The node the pod runs on, for the environment fingerprint the
        // agent records (lane's history tells a new node from a regression).
        EnvVar {
            name: "NODE_NAME".to_owned(),
            value_from: Some(EnvVarSource {
                field_ref: Some(ObjectFieldSelector {
                    field_path: "spec.nodeName".to_owned(),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        },
    ];
    // A mint image pinned by digest names its digest to the fingerprint.
    if let Some((_, digest)) = cfg.mint_image.split_once('@') {
        env.push(EnvVar {
            name: "LANE_IMAGE_DIGEST".to_owned(),
            value: Some(digest.to_owned()),
            ..Default::default()
        });
    }
    env.extend(cfg.store_env.iter().map(|(k, v)| EnvVar {
        name: k.clone(),
        value: Some(v.clone()),
        ..Default::default()
    }));
    let main = Container {
        name: MINT_CONTAINER.to_owned(),
        image: Some(cfg.mint_image.clone()),
        image_pull_policy: cfg.image_pull_policy.clone(),
        command: Some(agent_args(mint)),
        env: Some(env),
        env_from: cfg.store_secret.as_ref().map(|s| {
            vec![EnvFromSource {
                secret_ref: Some(SecretEnvSource {
                    name: s.clone(),
                    optional: Some(false),
                }),
                ..Default::default()
            }]
        }),
        resources: Some(ResourceRequirements {
            requests: Some(requests),
            limits: Some(limits),
            ..Default::default()
        }),
        volume_mounts: Some(vec![
            mount("lane-bin", "/lane/bin"),
            mount("work", "/work"),
            mount("tmp", "/tmp"),
        ]),
        security_context: Some(restricted()),
        ..Default::default()
    };
    let pod = PodSpec {
        restart_policy: Some("Never".to_owned()),
        init_containers: Some(vec![install]),
        containers: vec![main],
        volumes: Some(vec![
            empty_dir("lane-bin"),
            empty_dir("work"),
            empty_dir("tmp"),
        ]),
        node_selector: (!class.node_selector.is_empty()).then(|| class.node_selector.clone()),
        tolerations: (!class.tolerations.is_empty()).then(|| class.tolerations.clone()),
        priority_class_name: cfg.priority_class_name.clone(),
        service_account_name: cfg.service_account_name.clone(),
        automount_service_account_token: Some(false),
        image_pull_secrets: (!cfg.image_pull_secrets.is_empty()).then(|| {
            cfg.image_pull_secrets
                .iter()
                .map(|n| LocalObjectReference { name: n.clone() })
                .collect()
        }),
        security_context: Some(PodSecurityContext {
            run_as_non_root: Some(true),
            run_as_user: Some(cfg.run_as_user),
            run_as_group: Some(cfg.run_as_user),
            fs_group: Some(cfg.run_as_user),
            seccomp_profile: Some(SeccompProfile {
                type_: "RuntimeDefault".to_owned(),
                ..Default::default()
            }),
            ..Default::default()
        }),
        ..Default::default()
    };
    let spec = JobSpec {
        backoff_limit: Some(i32::try_from(mint.crashed_retries).unwrap_or(i32::MAX)),
        active_deadline_seconds: Some(i64::try_from(deadline).unwrap_or(i64::MAX)),
        ttl_seconds_after_finished: Some(cfg.ttl_seconds_after_finished),
        pod_failure_policy: Some(pod_failure_policy()),
        pod_replacement_policy: Some("Failed".to_owned()),
        completions: Some(1),
        parallelism: Some(1),
        template: PodTemplateSpec {
            metadata: Some(ObjectMeta {
                labels: Some(pod_labels),
                annotations: Some(annotations.clone()),
                ..Default::default()
            }),
            spec: Some(pod),
        },
        ..Default::default()
    };
    let mut job_annotations = annotations;
    job_annotations.insert(ANNOTATION_SPEC.to_owned(), spec_digest(&spec, mint));
    Ok(Job {
        metadata: ObjectMeta {
            name: Some(job_name(&mint.id, &mint.run_id)),
            namespace: Some(cfg.namespace.clone()),
            labels: Some(labels),
            annotations: Some(job_annotations),
            ..Default::default()
        },
        spec: Some(spec),
        status: None,
    })
}

/// The first 16 hex digits of SHA-256 of the Job's spec as YAML, with the
/// presigned URLs of the wheel and the source archive (new at every `lane
/// mint`) replaced by their sha256:
/// what the Job runs, so a restarted run can tell its own Jobs from Jobs
/// made from another lane file, wheel or configuration.
fn spec_digest(spec: &JobSpec, mint: &MintJob) -> String {
    let mut json = serde_yaml::to_string(spec).unwrap_or_default();
    for staged in [&mint.wheel, &mint.source].into_iter().flatten() {
        json = json.replace(&staged.url, &staged.sha256);
    }
    let d = Sha256::digest(json.as_bytes());
    d.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The spec digest a Job carries (`lane.dev/spec`), if any.
pub fn spec_of(job: &Job) -> Option<&str> {
    job.metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(ANNOTATION_SPEC))
        .map(String::as_str)
}

/// Every Job of `mints` as one multi-document YAML stream (`--dry-run`).
pub fn jobs_yaml(mints: &[MintJob], cfg: &KubeConfig) -> Result<String, JobError> {
    let jobs = mints
        .iter()
        .map(|m| job_for(m, cfg))
        .collect::<Result<Vec<_>, _>>()?;
    yaml_of(&jobs)
}

/// Built Jobs as multi-document YAML.
pub fn yaml_of(jobs: &[Job]) -> Result<String, JobError> {
    let mut out = String::new();
    for job in jobs {
        out.push_str("---\n");
        out.push_str(&serde_yaml::to_string(job).map_err(JobError::Yaml)?);
    }
    Ok(out)
}
