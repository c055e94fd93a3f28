//! Where mints run: one trait that the local backend (agents on this
//! machine, `lane_mint::local`) and the Kubernetes backend (one Job per
//! mint, `lane_kube`) both implement, so `lane mint` (and a service) drives
//! either the same way.

use std::collections::BTreeMap;

use serde::Serialize;

use lane_core::{Progress, Summary};

use crate::error::AppError;
use crate::lane::LoadedLane;
use crate::mint::MintRequest;

/// A backend that runs a lane's mints.
pub trait Backend {
    /// The backend's name (`local`, `kube`).
    fn name(&self) -> &'static str;

    /// What a run would do, and nothing run: the plan, or the Jobs as YAML.
    fn dry_run(&mut self, lane: &LoadedLane, request: &MintRequest) -> Result<DryRun, AppError>;

    /// Runs every mint of the lane (adopting those an earlier run started),
    /// reports each step through `on`, and gathers every slot into the
    /// results folder (`<out>/lanes/<v>/results`).
    fn mint(
        &mut self,
        lane: &LoadedLane,
        request: &MintRequest,
        on: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<Minted, AppError>;

    /// Where a run in pods keeps its summary and report (a store and the
    /// run's key prefix), after [`Backend::mint`]; `None` when the results
    /// folder is on this machine for good.
    fn keeps(&self) -> Option<(&dyn lane_store::ArtifactStore, String)> {
        None
    }

    /// Stops a lane's running mints and deletes what ran them.
    fn cancel(&mut self, lane: &str) -> Result<Cancelled, AppError> {
        Err(AppError::Usage(format!(
            "the {} backend has nothing to cancel for lane {lane}: its mints stop with `lane mint`",
            self.name()
        )))
    }
}

/// What a dry run shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DryRun {
    /// Every mint id of the plan.
    Plan {
        /// The lane.
        lane: String,
        /// The mint ids.
        mints: Vec<String>,
    },
    /// The Jobs that would be created.
    Jobs {
        /// As multi-document YAML (`kubectl apply -f` takes it).
        yaml: String,
        /// As one JSON document, a `v1` `List` of the Jobs (`--json`).
        json: serde_json::Value,
        /// What the YAML leaves out, in words.
        notes: Vec<String>,
    },
}

/// What a backend's run gave.
#[derive(Debug)]
pub struct Minted {
    /// The lane's summary (also `results/summary.json`).
    pub summary: Summary,
    /// Each mint id's Job (Kubernetes backend); `None` for the local backend.
    pub jobs: Option<BTreeMap<String, JobEnd>>,
    /// Slots not minted again because their result is final already.
    pub ended: Vec<String>,
}

/// A Job's end, as `lane mint --json` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobEnd {
    /// The Job's name.
    pub job: String,
    /// Its final state, in words.
    pub state: String,
    /// Its seconds, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
}

/// What cancelling deleted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cancelled {
    /// The lane.
    pub lane: String,
    /// The namespace.
    pub namespace: String,
    /// The Jobs deleted.
    pub jobs: Vec<String>,
    /// The pods deleted.
    pub pods: Vec<String>,
}

/// The backend `name` names (`local`, `kube`).
pub fn open(name: &str) -> Result<Box<dyn Backend>, AppError> {
    match name {
        "local" => Ok(Box::new(crate::mint::local::LocalBackend)),
        #[cfg(feature = "kube")]
        "kube" => Ok(Box::new(crate::mint::kube::KubeBackend::default())),
        #[cfg(not(feature = "kube"))]
        "kube" => Err(AppError::Usage(
            "this lane was built without the kube backend (cargo feature `kube`)".to_owned(),
        )),
        other => Err(AppError::Usage(format!(
            "unknown backend `{other}`: expected `local` or `kube`"
        ))),
    }
}
