//! The seam: one trait every backend implements, the resolved plan it is
//! handed, and the values it gives back.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use serde::Serialize;

use lane_core::{Progress, Provenance, Summary};
use lane_file::LaneFile;

use crate::error::BackendError;

/// A `lane mint` resolved to plain values: everything a backend reads, so
/// that it looks nothing up above itself. The caller (lane-app) finds the
/// lane, narrows its matrix, exports the source tree and records the
/// provenance before it hands the plan down.
#[derive(Debug)]
pub struct MintPlan<'a> {
    /// The lane file, its matrix narrowed to the cells and GPU classes asked for.
    pub lane: &'a LaneFile,
    /// Every slot of the lane file's whole matrix, before narrowing
    /// (`<lane>/<cell>/<gpu>/r<N>`): `summary.json` speaks of each one the
    /// run holds, so a narrowed run never drops what an earlier one minted.
    /// Empty: the narrowed lane's own plan.
    pub whole_matrix: Vec<String>,
    /// The lane's run folder, absolute (`<out>/lanes/<version>/`).
    pub out: PathBuf,
    /// The run (kube backend): its Jobs carry it, and its bundles and
    /// report live under the run's prefix in the store.
    pub run_id: String,
    /// Mints at once (local backend).
    pub concurrency: usize,
    /// The wheel file every mint installs first (local backend).
    pub wheel: Option<PathBuf>,
    /// The staged wheel's store key (kube backend).
    pub wheel_key: Option<String>,
    /// The artifact store given (`--store`): where every mint's result
    /// bundle goes (for the kube backend, in place of its configuration's).
    pub store: Option<String>,
    /// The store on this machine a local run's bundles go to when none is
    /// given (`<out>/store`, absolute).
    pub local_store: String,
    /// The Kubernetes backend's configuration file (YAML, `docs/kubernetes.md`).
    pub kube_config: Option<PathBuf>,
    /// The command that runs one mint where it runs (the local backend
    /// spawns it, with the mint's arguments after it).
    pub agent: Vec<String>,
    /// Show what would run and run nothing.
    pub dry_run: bool,
    /// The upstream's source tree every mint gets as `$LANE_SOURCE_DIR`,
    /// for a backend whose mints run here ([`Backend::runs_here`]).
    pub source: Option<PathBuf>,
    /// What the lane mints with, for `summary.json`: the guards' verdict,
    /// and the wheel file's fingerprint for a backend whose mints run here
    /// (one in pods reads its staged wheel's from the manifest).
    pub provenance: Provenance,
    /// Set (by a signal, or `lane cancel`) to stop the run; its state is kept.
    pub stop: &'a AtomicBool,
}

/// A backend that runs a lane's mints.
pub trait Backend {
    /// The backend's name (`local`, `kube`).
    fn name(&self) -> &'static str;

    /// Whether the mints run on this machine: then they are handed the
    /// source tree as a folder and the wheel as a file here, which the
    /// caller exports and fingerprints before [`Backend::mint`].
    fn runs_here(&self) -> bool;

    /// Refuses a plan this backend cannot take (a flag meant for another
    /// backend), before anything is resolved or run.
    fn check(&self, _plan: &MintPlan<'_>) -> Result<(), BackendError> {
        Ok(())
    }

    /// What a run would do, and nothing run: the plan, or the Jobs as YAML.
    fn dry_run(&mut self, plan: &MintPlan<'_>) -> Result<DryRun, BackendError>;

    /// Runs every mint of the lane (adopting those an earlier run started),
    /// reports each step through `on`, and gathers every slot into the
    /// results folder (`<out>/lanes/<v>/results`).
    fn mint(
        &mut self,
        plan: &MintPlan<'_>,
        on: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<Minted, BackendError>;

    /// Where a run in pods keeps its summary and report (a store and the
    /// run's key prefix), after [`Backend::mint`]; `None` when the results
    /// folder is on this machine for good.
    fn keeps(&self) -> Option<(&dyn lane_store::ArtifactStore, String)> {
        None
    }

    /// Stops a lane's running mints and deletes what ran them.
    fn cancel(&mut self, lane: &str) -> Result<Cancelled, BackendError> {
        Err(BackendError::NothingToCancel {
            backend: self.name(),
            lane: lane.to_owned(),
        })
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
