//! `lane agent`: wrap one mint where it runs (a child of `lane mint`'s local
//! backend now, a pod later). Not usually typed by people.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use lane_agent::agent::{run_agent, AgentSpec, WheelSource, EXIT_CLAIMED};
use lane_agent::source::SourceTree;
use lane_agent::AgentError;
use lane_core::{MintId, MintStatus};

use crate::exit::{CliError, CliResult, Exit};
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
    /// The mint command and its arguments.
    #[arg(last = true, required = true)]
    pub command: Vec<String>,
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

/// Runs `lane agent`. Exits 0 whenever a result was written (the mint's own
/// outcome is in it), 75 when another live agent holds the folder.
pub fn run(args: Args) -> CliResult {
    if let Some(run) = &args.run_id {
        lane_app::mint::check_run_id(run)?;
    }
    let mut id = parse_id(&args.id).ok_or_else(|| {
        CliError::new(
            Exit::Usage,
            anyhow::anyhow!(
                "--id must be <lane>/<cell>/<gpu>/r<N>/a<M>, found `{}`",
                args.id
            ),
        )
    })?;
    let mut env = BTreeMap::new();
    for kv in &args.env {
        let (k, v) = kv.split_once('=').ok_or_else(|| {
            CliError::new(
                Exit::Usage,
                anyhow::anyhow!("--env takes KEY=VALUE, found `{kv}`"),
            )
        })?;
        env.insert(k.to_owned(), v.to_owned());
    }
    if let (true, Some(location)) = (args.attempt_from_store, &args.store) {
        let store = lane_store::open(location).map_err(|e| CliError::new(Exit::Failure, e))?;
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
            lane_agent::bundle::claim_attempt(store.as_ref(), &id, args.run_id.as_deref(), &who)
                .map_err(|e| CliError::new(Exit::Failure, e))?;
    }
    let wheel = match (args.wheel, args.wheel_url, args.wheel_sha256) {
        (Some(p), _, _) => Some(WheelSource::File(p)),
        (None, Some(url), Some(sha256)) => Some(WheelSource::Url { url, sha256 }),
        _ => None,
    };
    if let Some(report) = &args.report {
        // Inside the mint folder: the same rule as the lane file's `report`.
        if lane_file::RepoPath::parse(report).is_err() || report.ends_with('/') {
            return Err(CliError::new(
                Exit::Usage,
                anyhow::anyhow!(
                    "--report must be a relative file path inside the mint folder, found `{report}`"
                ),
            ));
        }
    }
    let source = match (args.source, args.source_url, args.source_sha256) {
        (Some(dir), _, _) => Some(SourceTree::Dir(dir)),
        (None, Some(url), Some(sha256)) => Some(SourceTree::Archive { url, sha256 }),
        _ => None,
    };
    let spec = AgentSpec {
        report: args.report,
        source,
        max_artifact_bytes: args.max_artifact_bytes,
        id,
        recipe: args.recipe,
        mint_dir: args.mint_dir,
        command: args.command,
        env,
        timeout: Duration::from_secs(args.timeout_s),
        wheel,
        store: args.store,
        run: args.run_id,
        stop: Some(stop_flag()?),
    };
    match run_agent(&spec) {
        Ok(result) => {
            if args.json {
                print_json(&result)?;
            } else {
                let wall = result
                    .wall_s
                    .map_or_else(|| "not measured".to_owned(), |s| format!("{s:.3} s"));
                println!(
                    "{}: {} in {wall}: {}",
                    result.id, result.outcome, result.reason
                );
            }
            if args.exit_by_outcome {
                let code = match result.outcome {
                    MintStatus::Minted | MintStatus::Abandoned => 0,
                    MintStatus::Refused => lane_kube_job::EXIT_REFUSED,
                    MintStatus::Failed => lane_kube_job::EXIT_FAILED,
                    MintStatus::Crashed | MintStatus::Resource => 1,
                };
                if code != 0 {
                    std::process::exit(code);
                }
            }
            Ok(Exit::Ok)
        }
        Err(e @ AgentError::Interrupted) => {
            eprintln!("stopped: {e}");
            std::process::exit(130);
        }
        Err(e @ AgentError::Claimed { .. }) => {
            eprintln!("error: {e}");
            std::process::exit(EXIT_CLAIMED);
        }
        Err(e) => Err(CliError::new(Exit::Failure, e)),
    }
}

/// SIGTERM and SIGINT set this flag; the agent then stops its mint.
fn stop_flag() -> Result<std::sync::Arc<std::sync::atomic::AtomicBool>, CliError> {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(sig, std::sync::Arc::clone(&flag))
            .map_err(|e| CliError::new(Exit::Failure, e))?;
    }
    Ok(flag)
}
