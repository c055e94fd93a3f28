//! `lane mint`: every cell × GPU class × cold repeat of a lane, on a
//! [`Backend`]; when every mint is in, the per-cell report (HTML, markdown,
//! JSON), kept in the store for a run in pods, and posted on request.
//! Crash-safe: run again, it re-attaches to running mints and never
//! submits a duplicate.

use lane_core::layout::file;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use lane_core::Progress;
use lane_mint::MintError;

use crate::backend::{Backend, DryRun, MintPlan, Minted};
use crate::error::AppError;
use crate::lane::{load, LoadedLane};
use crate::report::{LaneReportFiles, Posted};

mod provenance;
mod source;

/// Reads the kube backend's configuration (YAML, `docs/kubernetes.md`).
#[cfg(feature = "kube")]
pub fn load_kube_config(path: &Path) -> Result<lane_kube_job::KubeConfig, AppError> {
    Ok(lane_backend::kube::load_config(path)?)
}

/// What `lane mint` is asked.
#[derive(Debug, Clone)]
pub struct MintRequest {
    /// The lane: a version (`0.93.3`) or a lane file path.
    pub lane: String,
    /// Where the lane's run lives (`<out>/lanes/<version>/`).
    pub out: PathBuf,
    /// The Kubernetes backend's configuration (YAML, `docs/kubernetes.md`).
    pub kube_config: Option<PathBuf>,
    /// The run (kube backend): its Jobs carry it, and its bundles and
    /// report live under `lanes/<lane>/runs/<run>/` in the store.
    pub run_id: String,
    /// When every mint is in, post the report.
    pub post: bool,
    /// With `post`: the commit the check run reports on.
    pub head_sha: Option<String>,
    /// Mints at once (local backend).
    pub concurrency: Option<usize>,
    /// The wheel every mint installs first (local backend).
    pub wheel: Option<PathBuf>,
    /// The staged wheel's store key (kube backend).
    pub wheel_key: Option<String>,
    /// The artifact store every mint's result bundle goes to.
    pub store: Option<String>,
    /// The upstream's source tree every mint gets as `$LANE_SOURCE_DIR`.
    pub source: Option<PathBuf>,
    /// With the default source: export from this local clone.
    pub repo: Option<PathBuf>,
    /// Mint only these cells of the lane's matrix.
    pub cells: Vec<String>,
    /// Mint only on these GPU classes of the lane's matrix.
    pub gpus: Vec<String>,
    /// Show the plan and run nothing.
    pub dry_run: bool,
    /// The command that runs one mint where it runs (the local backend
    /// spawns it, with the mint's arguments after it).
    pub agent: Vec<String>,
    /// Set (by a signal) to stop the run; its state is kept.
    pub stop: Arc<AtomicBool>,
    /// Wait for another lane command that holds the lane, or refuse.
    pub wait: crate::lock::LockWait,
}

impl MintRequest {
    /// A request to mint `lane` under `out` as run `run_id`, with every
    /// other choice at its default: the lane's whole matrix, the local
    /// backend, nothing posted, no wheel, store or source given, no agent
    /// command (the caller names its own), never stopped.
    pub fn new(
        lane: impl Into<String>,
        out: impl Into<PathBuf>,
        run_id: impl Into<String>,
    ) -> Self {
        MintRequest {
            lane: lane.into(),
            out: out.into(),
            kube_config: None,
            run_id: run_id.into(),
            post: false,
            head_sha: None,
            concurrency: None,
            wheel: None,
            wheel_key: None,
            store: None,
            source: None,
            repo: None,
            cells: Vec::new(),
            gpus: Vec::new(),
            dry_run: false,
            agent: Vec::new(),
            stop: Arc::default(),
            wait: crate::lock::LockWait::Wait,
        }
    }
}

/// What `lane mint` did.
#[derive(Debug)]
pub enum MintOutcome {
    /// A dry run: nothing ran.
    DryRun(DryRun),
    /// Every mint is in and reported.
    Minted(Box<LaneMinted>),
}

/// A lane minted and reported.
#[derive(Debug)]
pub struct LaneMinted {
    /// What the backend gave.
    pub minted: Minted,
    /// The results folder.
    pub results: PathBuf,
    /// The report files written.
    pub report: LaneReportFiles,
    /// Where in the store the summary and report were kept (a run in pods).
    pub kept: Option<String>,
    /// What posting did (`post`).
    pub posted: Option<Posted>,
}

impl MintOutcome {
    /// A lane that is not green, or has a report that could not be read,
    /// is a finding (exit 7).
    pub fn verdict(&self) -> Result<(), AppError> {
        let MintOutcome::Minted(m) = self else {
            return Ok(());
        };
        let summary = &m.minted.summary;
        if summary.cancelled {
            return Err(AppError::NotGreen {
                lane: summary.lane.clone(),
                why: "it was cancelled before every mint was in".to_owned(),
            });
        }
        if !summary.green {
            let failed = summary
                .mints
                .iter()
                .filter(|s| s.status.fails_lane())
                .count();
            return Err(AppError::NotGreen {
                lane: summary.lane.clone(),
                why: format!("{failed} of {} slots did not mint", summary.mints.len()),
            });
        }
        crate::report::unreadable_verdict(&summary.lane, &m.report.unreadable)
    }
}

/// GPUs this machine shows: `CUDA_VISIBLE_DEVICES`, else `/dev/nvidia<N>` devices.
pub fn visible_gpus() -> usize {
    if let Ok(v) = std::env::var("CUDA_VISIBLE_DEVICES") {
        return v
            .split(',')
            .filter(|s| !s.trim().is_empty() && s.trim() != "-1")
            .count();
    }
    std::fs::read_dir("/dev")
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| {
                    let n = e.file_name().to_string_lossy().into_owned();
                    n.strip_prefix("nvidia")
                        .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
                })
                .count()
        })
        .unwrap_or(0)
}

/// `lane mint` on `backend`: every progress event goes to `on`. The
/// request is resolved here into the plain [`MintPlan`] the backend is
/// handed (for a backend whose mints run on this machine, with the source
/// tree exported and the wheel fingerprinted; for any, with the guards'
/// verdict), so the backend never calls back up.
pub fn mint(
    request: &MintRequest,
    backend: &mut dyn Backend,
    on: &mut (dyn FnMut(Progress) + Send),
) -> Result<MintOutcome, AppError> {
    let mut loaded = load(&request.lane)?;
    let whole_matrix = loaded
        .lane
        .plan()
        .iter()
        .map(|p| p.id.slot().to_string())
        .collect();
    select(&mut loaded.lane, &request.cells, &request.gpus)?;
    if loaded.lane.mint.is_none() {
        return Err(MintError::NoMatrix {
            lane: loaded.lane.version.to_string(),
        }
        .into());
    }
    let out = lane_out(request, &loaded)?;
    let mut plan = MintPlan {
        lane: &loaded.lane,
        whole_matrix,
        out: out.clone(),
        run_id: request.run_id.clone(),
        concurrency: concurrency(request, &loaded.lane),
        wheel: request.wheel.clone(),
        wheel_key: request.wheel_key.clone(),
        store: request.store.clone(),
        local_store: own_store(&request.out),
        kube_config: request.kube_config.clone(),
        agent: request.agent.clone(),
        dry_run: request.dry_run,
        source: None,
        provenance: lane_core::Provenance::default(),
        stop: &request.stop,
    };
    backend.check(&plan)?;
    if request.dry_run {
        return Ok(MintOutcome::DryRun(backend.dry_run(&plan)?));
    }
    // One writer per lane, from planning through gathering and the report.
    let version = loaded.lane.version.to_string();
    let _lock = crate::lock::lock_lane(&out, &version, "lane mint", request.wait, &mut |holder| {
        on(Progress::Waiting {
            lane: version.clone(),
            holder: holder.to_owned(),
        })
    })?;
    if backend.runs_here() {
        plan.source = source::tree(request, &loaded, &out)?;
        plan.provenance.wheel = request
            .wheel
            .as_deref()
            .map(provenance::wheel_file)
            .transpose()?;
    }
    plan.provenance.guard = provenance::guards(&loaded, request.repo.as_deref())?;
    // A lane stopped on purpose says so in its summary, as each backend
    // writes it (`Summary::of`): the report says cancelled, not failed.
    let minted = backend.mint(&plan, on)?;
    let results = lane_core::layout::results_dir(&out);
    // The run joins the lane's history in the store its mints used (the
    // kube backend's; else --store, else <out>/store), and is judged there.
    let location = history_location(request);
    let own_store = match backend.keeps() {
        Some(_) => None,
        None => Some(crate::lane::open_store(&location)?),
    };
    let history = match (own_store.as_deref(), backend.keeps()) {
        (Some(s), _) => Some(crate::history::HistoryStore::named(s, &location)),
        (None, Some((s, _))) => Some(crate::history::HistoryStore::new(s)),
        (None, None) => None,
    };
    let (report, model) = crate::report::write_lane_report(
        &loaded.lane,
        &results,
        None,
        &out.join("report"),
        history.as_ref(),
    )?;
    let kept = match backend.keeps() {
        Some((store, prefix)) => Some(keep(store, &prefix, &results, &report)?),
        None => None,
    };
    let posted = if request.post {
        Some(crate::report::post_results(
            &loaded,
            &model,
            head_sha(request),
            &out,
        )?)
    } else {
        None
    };
    Ok(MintOutcome::Minted(Box::new(LaneMinted {
        minted,
        results,
        report,
        kept,
        posted,
    })))
}

/// Mints at once on this machine: `--concurrency`, else the lane's, else
/// one per GPU this machine shows.
fn concurrency(request: &MintRequest, lane: &lane_file::LaneFile) -> usize {
    request
        .concurrency
        .or(lane
            .mint
            .as_ref()
            .and_then(|m| m.concurrency.map(|c| c as usize)))
        .unwrap_or_else(|| visible_gpus().max(1))
}

/// Where a local lane's history lives: `--store`, else `<out>/store`.
fn history_location(request: &MintRequest) -> String {
    request
        .store
        .clone()
        .unwrap_or_else(|| own_store(&request.out))
}

/// The store on this machine, `<out>/store`, absolute.
fn own_store(out: &Path) -> String {
    let dir = out.join("store");
    std::path::absolute(&dir)
        .unwrap_or(dir)
        .to_string_lossy()
        .into_owned()
}

/// The lane's run folder, `<out>/lanes/<version>/`, absolute.
fn lane_out(request: &MintRequest, loaded: &LoadedLane) -> Result<PathBuf, AppError> {
    let out = lane_core::layout::lane_out(&request.out, loaded.lane.version.as_str());
    std::path::absolute(&out).map_err(|e| AppError::io(out, e))
}

/// The check run's commit: `head_sha`, else the commit the wheel's key
/// names (the wheel was built from it).
fn head_sha(request: &MintRequest) -> Option<String> {
    let from_wheel = request.wheel_key.as_deref().and_then(|k| {
        let commit = k.split('/').nth(2)?;
        (commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| commit.to_owned())
    });
    request.head_sha.clone().or(from_wheel)
}

/// A run in pods keeps its summary and report in the store too (a
/// CronJob's own filesystem goes with its pod); returns where. A resume
/// of the run changes them (a red run gone green), so a copy already in
/// the store that differs is replaced, never left saying the first
/// outcome: the store is write-once, so the old copy is removed and the
/// new one written (a crash between the two leaves none, which the next
/// run of the lane writes again; never a stale one).
fn keep(
    store: &dyn lane_store::ArtifactStore,
    prefix: &str,
    results: &Path,
    files: &LaneReportFiles,
) -> Result<String, AppError> {
    let summary = results.join(file::SUMMARY);
    let report = |name: &str| format!("report/{name}");
    for (name, path) in [
        (file::SUMMARY.to_owned(), &summary),
        (report(file::LANE_REPORT_MD), &files.markdown),
        (report(file::LANE_REPORT_JSON), &files.json),
        (report(file::LANE_REPORT_HTML), &files.html),
    ] {
        let key = lane_store::StoreKey::new(format!("{prefix}{name}"))?;
        match store.put_atomic(&key, lane_store::Content::File(path)) {
            Ok(_) => {}
            Err(lane_store::StoreError::Conflict { .. }) => {
                tracing::info!(%key, "this run's earlier copy in the store is replaced");
                store.remove(&key)?;
                store.put_atomic(&key, lane_store::Content::File(path))?;
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(format!("{}/{prefix}report/", store.location()))
}

/// `--cell`/`--gpu`: keeps only those of the lane's matrix (a name the
/// matrix lacks is a usage error naming what it has).
fn select(
    lane: &mut lane_file::LaneFile,
    cells: &[String],
    gpus: &[String],
) -> Result<(), AppError> {
    let Some(m) = lane.mint.as_mut() else {
        return Ok(());
    };
    let missing = |what: &str, name: &str, have: Vec<&str>| {
        AppError::Usage(format!(
            "--{what} {name}: the lane's matrix has no such {what} (it has {})",
            have.join(", ")
        ))
    };
    for c in cells {
        if !m.cells.iter().any(|x| x.name.as_str() == c) {
            return Err(missing(
                "cell",
                c,
                m.cells.iter().map(|x| x.name.as_str()).collect(),
            ));
        }
    }
    for g in gpus {
        if !m.gpus.iter().any(|x| x.as_str() == g) {
            return Err(missing(
                "gpu",
                g,
                m.gpus.iter().map(|x| x.as_str()).collect(),
            ));
        }
    }
    if !cells.is_empty() {
        m.cells
            .retain(|x| cells.iter().any(|c| c == x.name.as_str()));
    }
    if !gpus.is_empty() {
        m.gpus.retain(|x| gpus.iter().any(|g| g == x.as_str()));
    }
    Ok(())
}

/// A run id: a label value and a store key segment as it is (else a usage error).
pub fn check_run_id(run: &str) -> Result<(), AppError> {
    if lane_kube_job::valid_run_id(run) {
        return Ok(());
    }
    Err(AppError::Usage(format!("--run-id must be 1 to 63 of [A-Za-z0-9._-], starting and ending with a letter or digit; found `{run}`")))
}

#[cfg(test)]
mod tests;
