//! The client half: create with adoption, list a lane's Jobs at start,
//! cancel a lane, and the size-capped pod log fallback. Every call goes
//! through one `kube::Client` (a real cluster, or a `tower-test` mock in
//! the tests).

use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, ListParams, LogParams, PostParams};
use kube::Client;

use crate::KubeConfig;
use crate::KubeError;
use crate::{lane_selector, run_selector, ANNOTATION_MINT_ID, MINT_CONTAINER};

/// The label the Job controller puts on a Job's pods (the Job's name).
pub const LABEL_JOB_NAME: &str = "batch.kubernetes.io/job-name";

/// What became of a submitted Job.
#[derive(Debug, Clone, PartialEq)]
pub enum Submitted {
    /// The API server created it (the returned object).
    Created(Job),
    /// A Job of that name already existed for the same mint id (a restart,
    /// or a create whose answer was lost): it is used instead.
    Adopted(Job),
}

impl Submitted {
    /// The Job, created or adopted.
    pub fn job(&self) -> &Job {
        match self {
            Submitted::Created(j) | Submitted::Adopted(j) => j,
        }
    }
}

/// What `lane cancel` deleted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CancelReport {
    /// The Jobs deleted (names, as the API server listed them).
    pub jobs: Vec<String>,
    /// The pods deleted (names).
    pub pods: Vec<String>,
}

/// The mint id a Job carries (`lane.dev/mint-id`), if any.
pub fn mint_id_of(job: &Job) -> Option<&str> {
    job.metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(ANNOTATION_MINT_ID))
        .map(String::as_str)
}

/// The Jobs of `wanted` whose mint id no Job of `adopted` carries: what a
/// (re)started `lane mint` still has to create, in `wanted`'s order.
pub fn still_to_create(wanted: Vec<Job>, adopted: &[Job]) -> Vec<Job> {
    let have: std::collections::BTreeSet<&str> = adopted.iter().filter_map(mint_id_of).collect();
    wanted
        .into_iter()
        .filter(|j| mint_id_of(j).is_none_or(|id| !have.contains(id)))
        .collect()
}

/// Refuses to adopt `existing` in place of `wanted` when both carry a spec
/// digest and the digests differ.
pub fn check_spec(wanted: &Job, existing: &Job) -> Result<(), KubeError> {
    match (crate::spec_of(wanted), crate::spec_of(existing)) {
        (Some(a), Some(b)) if a != b => Err(KubeError::SpecChanged {
            name: existing.metadata.name.clone().unwrap_or_default(),
            run: existing
                .metadata
                .labels
                .as_ref()
                .and_then(|l| l.get(crate::LABEL_RUN))
                .cloned()
                .unwrap_or_default(),
            id: mint_id_of(existing).unwrap_or_default().to_owned(),
        }),
        _ => Ok(()),
    }
}

/// The Kubernetes backend: one client, one configuration (the namespace).
#[derive(Clone)]
pub struct KubeClient {
    client: Client,
    cfg: KubeConfig,
}

impl std::fmt::Debug for KubeClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KubeClient")
            .field("namespace", &self.cfg.namespace)
            .finish_non_exhaustive()
    }
}

impl KubeClient {
    /// A backend over `client` (see `kube::Client::try_default` for the
    /// in-cluster or kubeconfig client).
    pub fn new(client: Client, cfg: KubeConfig) -> KubeClient {
        KubeClient { client, cfg }
    }

    /// The configuration.
    pub fn config(&self) -> &KubeConfig {
        &self.cfg
    }

    /// The client.
    pub fn client(&self) -> &Client {
        &self.client
    }

    fn jobs(&self) -> Api<Job> {
        Api::namespaced(self.client.clone(), &self.cfg.namespace)
    }

    fn pods(&self) -> Api<Pod> {
        Api::namespaced(self.client.clone(), &self.cfg.namespace)
    }

    /// Creates `job` (POST). A 409 (a Job of that name exists) is adopted
    /// when the existing Job carries the same `lane.dev/mint-id`; otherwise
    /// it is [`KubeError::NameTaken`]. Names are a function of the mint id,
    /// so there are never two Jobs for one mint id.
    pub async fn submit(&self, job: &Job) -> Result<Submitted, KubeError> {
        let name = job.metadata.name.clone().unwrap_or_default();
        let ours = mint_id_of(job).unwrap_or_default().to_owned();
        match self.jobs().create(&PostParams::default(), job).await {
            Ok(created) => Ok(Submitted::Created(created)),
            Err(kube::Error::Api(status)) if status.code == 409 => {
                let existing = self.jobs().get(&name).await?;
                match mint_id_of(&existing) {
                    Some(theirs) if theirs == ours => {
                        check_spec(job, &existing)?;
                        Ok(Submitted::Adopted(existing))
                    }
                    theirs => Err(KubeError::NameTaken {
                        name,
                        ours,
                        theirs: theirs.map(str::to_owned),
                    }),
                }
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Every Job of run `run` of `lane` the cluster holds (LIST by
    /// [`run_selector`]): what a restarted `lane mint` adopts instead of
    /// creating.
    pub async fn adopt(&self, lane: &str, run: &str) -> Result<Vec<Job>, KubeError> {
        let list = self
            .jobs()
            .list(&ListParams::default().labels(&run_selector(lane, run)))
            .await?;
        Ok(list.items)
    }

    /// `lane cancel <LANE>`: deletes the lane's Jobs one by one (LIST by
    /// [`lane_selector`], then DELETE with propagation `Background`, so the
    /// garbage collector removes their pods too), then the lane's pods the
    /// same way, so no pod outlives the cancel waiting for the collector.
    /// One DELETE per object (not DELETE on the collection) names exactly
    /// what was deleted, and an object already gone (404) is not an error.
    pub async fn cancel(&self, lane: &str) -> Result<CancelReport, KubeError> {
        let lp = ListParams::default().labels(&lane_selector(lane));
        let mut report = CancelReport::default();
        for job in self.jobs().list(&lp).await?.items {
            let Some(name) = job.metadata.name else {
                continue;
            };
            match self.jobs().delete(&name, &DeleteParams::background()).await {
                Ok(_) => report.jobs.push(name),
                Err(kube::Error::Api(s)) if s.code == 404 => {}
                Err(e) => return Err(e.into()),
            }
        }
        for pod in self.pods().list(&lp).await?.items {
            let Some(name) = pod.metadata.name else {
                continue;
            };
            match self.pods().delete(&name, &DeleteParams::default()).await {
                Ok(_) => report.pods.push(name),
                Err(kube::Error::Api(s)) if s.code == 404 => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(report)
    }

    /// The last `limit_bytes` of the `mint` container's log of the newest
    /// pod of Job `job_name`: the fallback when a mint left no bundle.
    /// `None` when the Job has no pod.
    pub async fn mint_log(
        &self,
        job_name: &str,
        limit_bytes: i64,
    ) -> Result<Option<String>, KubeError> {
        let pods = self
            .pods()
            .list(&ListParams::default().labels(&format!("{LABEL_JOB_NAME}={job_name}")))
            .await?;
        let newest = pods
            .items
            .iter()
            .max_by_key(|p| p.metadata.creation_timestamp.as_ref().map(|t| t.0));
        let Some(name) = newest.and_then(|p| p.metadata.name.clone()) else {
            return Ok(None);
        };
        // The end of the log (where the error is), then capped: the server
        // applies `limitBytes` from the start of what `tailLines` selects.
        let lp = LogParams {
            container: Some(MINT_CONTAINER.to_owned()),
            limit_bytes: Some(limit_bytes),
            tail_lines: Some(1000),
            ..LogParams::default()
        };
        Ok(Some(self.pods().logs(&name, &lp).await?))
    }
}
