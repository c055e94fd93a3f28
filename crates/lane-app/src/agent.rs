//! `lane agent`: wrap one mint where it runs (a child of the local
//! backend, or a pod's main container).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use lane_agent::agent::{run_agent, AgentSpec, WheelSource};
use lane_agent::source::SourceTree;
use lane_core::results::AgentResult;
use lane_core::{MintId, MintStatus};

use crate::error::AppError;

/// What `lane agent` is asked.
#[derive(Debug, Clone)]
pub struct AgentRequest {
    /// The attempt's working folder.
    pub mint_dir: PathBuf,
    /// The attempt's id, `<lane>/<cell>/<gpu>/r<N>/a<M>`.
    pub id: String,
    /// The cell's recipe (`dynamo` or `aot`), checked against the report.
    pub recipe: String,
    /// Time before the mint's process group is killed.
    pub timeout: Duration,
    /// A wheel to install into an isolated environment first.
    pub wheel: Option<WheelSource>,
    /// Where the mint writes its report, relative to the mint folder.
    pub report: Option<String>,
    /// The upstream's source tree, given to the mint as `$LANE_SOURCE_DIR`.
    pub source: Option<SourceTree>,
    /// The largest artifact gathered.
    pub max_artifact_bytes: u64,
    /// The named run the result bundle belongs to.
    pub run_id: Option<String>,
    /// Number the attempt after the slot's bundles already in `store`.
    pub attempt_from_store: bool,
    /// The artifact store the result bundle goes to.
    pub store: Option<String>,
    /// Extra environment, `KEY=VALUE`.
    pub env: Vec<String>,
    /// Fail by the mint's outcome once the result is written (a Job's
    /// `podFailurePolicy` reads the code).
    pub exit_by_outcome: bool,
    /// The mint command and its arguments.
    pub command: Vec<String>,
    /// Set (by a signal) to stop the mint.
    pub stop: Arc<AtomicBool>,
    /// Driven by `lane mint`'s run loop: `go` on stdin, `over` on stdout
    /// (see [`AgentSpec::driven`]).
    pub driven: bool,
    /// How long a store that refuses the result bundle is tried again
    /// (see [`AgentSpec::upload_window`]).
    pub upload_window: Duration,
}

/// What one mint gave.
#[derive(Debug)]
pub struct AgentOutcome {
    /// The result written to the mint folder (and the store).
    pub result: AgentResult,
    /// The request's `exit_by_outcome`.
    pub exit_by_outcome: bool,
    /// The store is the only way the result comes back (a pod, whose
    /// folder goes with it): a bundle that did not reach it is an error.
    pub bundle_required: bool,
}

impl AgentOutcome {
    /// With `exit_by_outcome`, a mint that did not end minted or abandoned
    /// is an error whose code the Job's failure policy reads.
    ///
    /// Where the store is the only way back (a pod), a bundle that did not
    /// reach it fails the agent whatever the mint's outcome, so the Job
    /// retries rather than succeeding with its result lost.
    pub fn verdict(&self) -> Result<(), AppError> {
        if let (true, Some(lane_core::BundleState::Failed { key, error })) =
            (self.bundle_required, &self.result.bundle)
        {
            return Err(AppError::BundleNotStored {
                id: self.result.id.to_string(),
                key: key.clone(),
                error: error.clone(),
            });
        }
        let status = self.result.outcome;
        if !self.exit_by_outcome || matches!(status, MintStatus::Minted | MintStatus::Abandoned) {
            return Ok(());
        }
        Err(AppError::MintEnded {
            id: self.result.id.to_string(),
            status,
        })
    }
}

fn parse_id(s: &str) -> Option<MintId> {
    let p: Vec<&str> = s.split('/').collect();
    let [lane, cell, gpu, r, a] = p.as_slice() else {
        return None;
    };
    Some(MintId {
        lane: (*lane).to_owned(),
        cell: (*cell).to_owned(),
        gpu: (*gpu).to_owned(),
        repeat: r.strip_prefix('r')?.parse().ok()?,
        attempt: a.strip_prefix('a')?.parse().ok()?,
    })
}

/// `lane agent`: runs one mint and writes its result; the mint's own
/// outcome is in the result, not an error.
pub fn agent(request: AgentRequest) -> Result<AgentOutcome, AppError> {
    if let Some(run) = &request.run_id {
        crate::mint::check_run_id(run)?;
    }
    let mut id = parse_id(&request.id).ok_or_else(|| {
        AppError::Usage(format!(
            "--id must be <lane>/<cell>/<gpu>/r<N>/a<M>, found `{}`",
            request.id
        ))
    })?;
    let mut env = BTreeMap::new();
    for kv in &request.env {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| AppError::Usage(format!("--env takes KEY=VALUE, found `{kv}`")))?;
        env.insert(k.to_owned(), v.to_owned());
    }
    if let (true, Some(location)) = (request.attempt_from_store, &request.store) {
        let store = lane_store::open(location).map_err(AppError::AttemptStore)?;
        // Who takes the number: the pod (its hostname), the process, the time.
        let host = std::env::var("HOSTNAME")
            .ok()
            .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
            .unwrap_or_default();
        let who = serde_json::json!({
            "host": host.trim(),
            "pid": std::process::id(),
            "claimed_at": std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs_f64())
                .unwrap_or(0.0),
        })
        .to_string();
        id.attempt =
            lane_agent::bundle::claim_attempt(store.as_ref(), &id, request.run_id.as_deref(), &who)
                .map_err(AppError::AttemptStore)?;
    }
    if let Some(report) = &request.report {
        // Inside the mint folder: the same rule as the lane file's `report`.
        if lane_file::RepoPath::parse(report).is_err() || report.ends_with('/') {
            return Err(AppError::Usage(format!(
                "--report must be a relative file path inside the mint folder, found `{report}`"
            )));
        }
    }
    let spec = AgentSpec {
        report: request.report,
        source: request.source,
        max_artifact_bytes: request.max_artifact_bytes,
        id,
        recipe: request.recipe,
        mint_dir: request.mint_dir,
        command: request.command,
        env,
        timeout: request.timeout,
        wheel: request.wheel,
        store: request.store,
        run: request.run_id,
        stop: Some(request.stop),
        // A pod numbers its own attempt: one attempt per container.
        container_per_attempt: request.attempt_from_store,
        driven: request.driven,
        upload_window: request.upload_window,
    };
    Ok(AgentOutcome {
        result: run_agent(&spec)?,
        exit_by_outcome: request.exit_by_outcome,
        bundle_required: request.attempt_from_store,
    })
}

#[cfg(test)]
mod tests {
    use super::AgentOutcome;
    use crate::exit::Exit;
    use lane_core::{BundleState, MintId, MintStatus};

    fn outcome(bundle: Option<BundleState>, bundle_required: bool) -> AgentOutcome {
        let id = MintId {
            lane: "0.93.3".into(),
            cell: "sdxl".into(),
            gpu: "L4".into(),
            repeat: 1,
            attempt: 1,
        };
        let mut result = lane_agent::agent::without_result(
            id,
            MintStatus::Minted,
            "minted".into(),
            "",
            "".into(),
        );
        result.bundle = bundle;
        AgentOutcome {
            result,
            exit_by_outcome: false,
            bundle_required,
        }
    }

    fn failed() -> Option<BundleState> {
        Some(BundleState::Failed {
            key: "lanes/0.93.3/mints/sdxl/L4/r1/a1/bundle.zip".into(),
            error: "connection refused".into(),
        })
    }

    #[test]
    fn a_pod_whose_bundle_missed_the_store_fails_even_when_the_mint_minted() {
        let err = outcome(failed(), true).verdict().unwrap_err();
        assert_eq!(err.exit(), Exit::Failure, "the Job retries on 1");
        assert_eq!(
            err.to_string(),
            "the result bundle of mint 0.93.3/sdxl/L4/r1/a1 did not reach the store \
             (lanes/0.93.3/mints/sdxl/L4/r1/a1/bundle.zip): connection refused; \
             the store is at fault, not the mint"
        );
    }

    #[test]
    fn a_local_agent_keeps_its_result_on_disk_when_the_store_misses_it() {
        assert!(outcome(failed(), false).verdict().is_ok());
    }
}
