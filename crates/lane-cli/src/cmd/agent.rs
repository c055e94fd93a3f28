//! `lane agent`: wrap one mint where it runs (a child of `lane mint`'s local
//! backend, or a pod; see `lane_app::agent`). Not usually typed by people.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use lane_agent::agent::WheelSource;
use lane_agent::source::SourceTree;
use lane_app::{AgentRequest, AppError};

use crate::output::print_json;

/// Arguments of `lane agent`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The attempt's working folder (claimed; caches, trace, report, artifacts, result.json).
    #[arg(long)]
    pub mint_dir: PathBuf,
    /// The attempt's id, `<lane>/<cell>/<gpu>/r<N>/a<M>`.
    #[arg(long)]
    pub id: String,
    /// The cell's recipe (`dynamo` or `aot`), checked against the report.
    #[arg(long)]
    pub recipe: String,
    /// Seconds before the mint's process group is killed.
    #[arg(long, default_value_t = 7200)]
    pub timeout_s: u64,
    /// A wheel to install into an isolated environment first (needs `uv`).
    #[arg(long, conflicts_with = "wheel_url")]
    pub wheel: Option<PathBuf>,
    /// The staged wheel's presigned URL (a pod): downloaded, checked against
    /// `--wheel-sha256`, then installed like `--wheel`.
    #[arg(long, requires = "wheel_sha256")]
    pub wheel_url: Option<String>,
    /// The sha256 (hex) the wheel behind `--wheel-url` must have.
    #[arg(long, requires = "wheel_url")]
    pub wheel_sha256: Option<String>,
    /// Where the mint writes its report, relative to the mint folder
    /// (default `report.json`; given to the mint as `$LANE_REPORT_PATH`).
    #[arg(long, value_name = "PATH")]
    pub report: Option<String>,
    /// The upstream's source tree, given to the mint as `$LANE_SOURCE_DIR`.
    #[arg(long, value_name = "DIR", conflicts_with = "source_url")]
    pub source: Option<PathBuf>,
    /// The staged source archive's presigned URL (a pod): downloaded,
    /// checked against `--source-sha256`, unpacked into the mint folder.
    #[arg(long, requires = "source_sha256")]
    pub source_url: Option<String>,
    /// The sha256 (hex) the archive behind `--source-url` must have.
    #[arg(long, requires = "source_url")]
    pub source_sha256: Option<String>,
    /// The largest artifact gathered from the file the report's `artifact` names.
    #[arg(long, default_value_t = lane_agent::report::DEFAULT_MAX_ARTIFACT_BYTES)]
    pub max_artifact_bytes: u64,
    /// The named run the result bundle belongs to (`lanes/<lane>/runs/<run>/`
    /// in the store; the Kubernetes backend names every run).
    #[arg(long)]
    pub run_id: Option<String>,
    /// Number the attempt after the slot's bundles already in `--store` (a
    /// Job's pods retry under one mint id; each keeps its own bundle).
    #[arg(long, requires = "store")]
    pub attempt_from_store: bool,
    /// The artifact store the result bundle goes to (a path, `file://…` or `s3://bucket/prefix`).
    #[arg(long)]
    pub store: Option<String>,
    /// Extra environment, `KEY=VALUE` (repeatable).
    #[arg(long = "env")]
    pub env: Vec<String>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Exit by the mint's outcome once the result is written (for Jobs'
    /// `podFailurePolicy`): 0 minted/abandoned, 10 refused, 11 failed (the
    /// Job fails at once), 1 crashed/resource (the Job retries).
    #[arg(long)]
    pub exit_by_outcome: bool,
    /// Driven by `lane mint`'s run loop, which starts agents ahead of a
    /// free place: prepare everything, wait for a `go` line on stdin before
    /// the mint starts (an end of input instead: exit unstarted), and print
    /// `over` once no process of the mint's group is left.
    #[arg(long, hide = true)]
    pub driven: bool,
    /// Seconds a store that refuses the result bundle is tried again
    /// (an outage), the attempt's files kept meanwhile; past them a pod's
    /// agent exits 1 (the store's fault) and its Job retries.
    #[arg(long, default_value_t = lane_agent::agent::DEFAULT_UPLOAD_WINDOW.as_secs())]
    pub upload_window_s: u64,
    /// The mint command and its arguments.
    #[arg(last = true, required = true)]
    pub command: Vec<String>,
}

/// Runs `lane agent`. Exits 0 whenever a result was written (the mint's own
/// outcome is in it), 75 when another live agent holds the folder.
pub fn run(args: Args) -> Result<(), AppError> {
    let wheel = match (args.wheel, args.wheel_url, args.wheel_sha256) {
        (Some(p), _, _) => Some(WheelSource::File(p)),
        (None, Some(url), Some(sha256)) => Some(WheelSource::Url { url, sha256 }),
        _ => None,
    };
    let source = match (args.source, args.source_url, args.source_sha256) {
        (Some(dir), _, _) => Some(SourceTree::Dir(dir)),
        (None, Some(url), Some(sha256)) => Some(SourceTree::Archive { url, sha256 }),
        _ => None,
    };
    let outcome = lane_app::agent(AgentRequest {
        mint_dir: args.mint_dir,
        id: args.id,
        recipe: args.recipe,
        timeout: Duration::from_secs(args.timeout_s),
        wheel,
        report: args.report,
        source,
        max_artifact_bytes: args.max_artifact_bytes,
        run_id: args.run_id,
        attempt_from_store: args.attempt_from_store,
        store: args.store,
        env: args.env,
        exit_by_outcome: args.exit_by_outcome,
        command: args.command,
        stop: stop_flag()?,
        driven: args.driven,
        upload_window: Duration::from_secs(args.upload_window_s),
    })?;
    let result = &outcome.result;
    if args.json {
        print_json(result)?;
    } else {
        let wall = result
            .wall_s
            .map_or_else(|| "not measured".to_owned(), |s| format!("{s:.3} s"));
        outln!(
            "{}: {} in {wall}: {}",
            result.id,
            result.outcome,
            result.reason
        );
    }
    outcome.verdict()
}

/// SIGTERM and SIGINT set this flag; the agent then stops its mint.
fn stop_flag() -> Result<Arc<AtomicBool>, AppError> {
    let flag = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(sig, Arc::clone(&flag))
            .map_err(|e| AppError::io("signal handler", e))?;
    }
    Ok(flag)
}
