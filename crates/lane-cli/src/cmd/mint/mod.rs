//! `lane mint`: every cell × GPU class × cold repeat of a lane, on the local
//! machine (the embedded default). Crash-safe: killed at any point and run
//! again, it re-attaches to running mints and never submits a duplicate.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::Serialize;

use lane_core::Progress;
use lane_mint::local::LocalRun;
use lane_mint::MintError;

use crate::exit::{CliError, CliResult, Exit};
use crate::lane::load;
use crate::output::print_json;

#[cfg(feature = "kube")]
mod kube;
mod provenance;
#[cfg(feature = "kube")]
pub use kube::load_config as load_kube_config;

/// Arguments of `lane mint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The lane: a version (`0.93.3`) or a lane file path.
    pub lane: String,
    /// Where the lane's run lives (`<out>/lanes/<version>/`: run store, mints, results).
    #[arg(long, default_value = "out")]
    pub out: PathBuf,
    /// Where mints run: `local` (this machine) or `kube` (one Job per mint,
    /// in the cluster of the ambient kubeconfig or service account).
    #[arg(long, default_value = "local")]
    pub backend: String,
    /// The Kubernetes backend's configuration (YAML, `docs/kubernetes.md`).
    #[arg(long)]
    pub kube_config: Option<PathBuf>,
    /// The run (kube backend): its Jobs carry it, a restarted `lane mint`
    /// with the same run adopts them, and its bundles and report live under
    /// `lanes/<lane>/runs/<run>/` in the store. A new run mints anew.
    #[arg(long, env = "LANE_RUN_ID", default_value = "manual")]
    pub run_id: String,
    /// When every mint is in, post the report: a sticky comment on each of
    /// the lane's PRs and a check run (as `lane report --post`; needs a
    /// GitHub token or App in the environment).
    #[arg(long)]
    pub post: bool,
    /// With --post: the commit the check run reports on [default: the
    /// commit in `--wheel-key`, else the lane branch's head in the lane's
    /// local repository].
    #[arg(long, value_name = "SHA", requires = "post")]
    pub head_sha: Option<String>,
    /// Mints at once (default: the lane's `mint.concurrency`, else one per visible GPU, at least 1).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// The wheel every mint installs first (with `uv`), e.g. the one `lane wheel` built (local backend).
    #[arg(long, conflicts_with = "wheel_key")]
    pub wheel: Option<PathBuf>,
    /// The staged wheel's store key, as `lane wheel` printed it
    /// (`lanes/<lane>/<commit>/<file>.whl`; kube backend): pods fetch it
    /// through a presigned URL and check it against the manifest's sha256.
    #[arg(long)]
    pub wheel_key: Option<String>,
    /// The artifact store every mint's result bundle goes to (local default
    /// `<out>/store`; kube default the kube config's `store`).
    #[arg(long, env = "LANE_STORE")]
    pub store: Option<String>,
    /// The upstream's source tree every mint gets as `$LANE_SOURCE_DIR`
    /// (cells with `source: true` run the upstream's own rig from it)
    /// [default, when a cell needs it: an export of the lane branch,
    /// `<out>/lanes/<v>/source/<commit>/`].
    #[arg(long, value_name = "DIR")]
    pub source: Option<PathBuf>,
    /// With the default source: export from this local clone instead of
    /// the lane's upstream.
    #[arg(long)]
    pub repo: Option<PathBuf>,
    /// Mint only this cell of the lane's matrix (repeatable).
    #[arg(long = "cell", value_name = "CELL")]
    pub cells: Vec<String>,
    /// Mint only on this GPU class of the lane's matrix (repeatable).
    #[arg(long = "gpu", value_name = "GPU")]
    pub gpus: Vec<String>,
    /// Print the plan (every mint id) and run nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
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

#[derive(Serialize)]
struct PlanOut {
    lane: String,
    mints: Vec<String>,
}

/// Runs `lane mint`.
pub fn run(args: Args) -> CliResult {
    let mut loaded = load(&args.lane)?;
    select(&mut loaded.lane, &args.cells, &args.gpus)?;
    let lane = &loaded.lane;
    let Some(matrix) = &lane.mint else {
        return Err(CliError::new(
            Exit::InvalidInput,
            MintError::NoMatrix {
                lane: lane.version.to_string(),
            },
        ));
    };
    match args.backend.as_str() {
        "local" => {}
        #[cfg(feature = "kube")]
        "kube" => return kube::run(&args, &loaded),
        #[cfg(not(feature = "kube"))]
        "kube" => {
            return Err(CliError::new(
                Exit::Usage,
                anyhow::anyhow!(
                    "this lane was built without the kube backend (cargo feature `kube`)"
                ),
            ))
        }
        other => {
            return Err(CliError::new(
                Exit::Usage,
                anyhow::anyhow!("unknown backend `{other}`: expected `local` or `kube`"),
            ))
        }
    }
    if args.wheel_key.is_some() {
        return Err(CliError::new(
            Exit::Usage,
            anyhow::anyhow!(
                "--wheel-key is for --backend kube; the local backend installs --wheel FILE"
            ),
        ));
    }
    if args.dry_run {
        let mints: Vec<String> = lane.plan().into_iter().map(|p| p.id.to_string()).collect();
        if args.json {
            print_json(&PlanOut {
                lane: lane.version.to_string(),
                mints,
            })?;
        } else {
            println!(
                "lane {}: {} mints (dry run: nothing is run)",
                lane.version,
                mints.len()
            );
            for m in mints {
                println!("  {m}");
            }
        }
        return Ok(Exit::Ok);
    }
    let concurrency = args
        .concurrency
        .or(matrix.concurrency.map(|c| c as usize))
        .unwrap_or_else(|| visible_gpus().max(1));
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&stop))
            .map_err(|e| CliError::new(Exit::Failure, e))?;
    }
    let exe = std::env::current_exe().map_err(|e| CliError::new(Exit::Failure, e))?;
    let out = std::path::absolute(args.out.join("lanes").join(lane.version.as_str()))
        .map_err(|e| CliError::new(Exit::Failure, e))?;
    let source = source_tree(&args, &loaded, &out)?;
    let provenance = provenance::local(&loaded, args.wheel.as_deref(), args.repo.as_deref())?;
    let run = LocalRun {
        provenance,
        lane,
        source,
        out: out.clone(),
        agent: vec![exe.to_string_lossy().into_owned(), "agent".into()],
        concurrency,
        wheel: args.wheel.clone(),
        store: Some(match &args.store {
            Some(s) => s.clone(),
            None => std::path::absolute(args.out.join("store"))
                .map_err(|e| CliError::new(Exit::Failure, e))?
                .to_string_lossy()
                .into_owned(),
        }),
        stop: &stop,
    };
    let total = lane.plan().len();
    // A progress bar on a terminal; plain lines otherwise (logs, CI, pods).
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(total as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} mints {elapsed_precise} {msg}",
            )
            .expect("a valid template"),
        );
        b
    });
    let mut on = |p: Progress| {
        let line = p.to_string();
        match &bar {
            Some(b) => {
                if matches!(p, Progress::Finished { .. }) {
                    b.inc(1);
                }
                b.set_message(line.clone());
                if !matches!(p, Progress::Started { .. }) {
                    b.println(line);
                }
            }
            None => eprintln!("{line}"),
        }
    };
    let outcome = run.run(&mut on);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let summary = match outcome {
        Ok(s) => s,
        Err(e @ MintError::Interrupted) => return Err(CliError::new(Exit::Failure, e)),
        Err(e) => return Err(CliError::new(Exit::Failure, e)),
    };
    if args.json {
        print_json(&summary)?;
    } else {
        let label = if summary.replay {
            " (replay: recorded mints, no compile ran)"
        } else {
            ""
        };
        println!(
            "lane {}: {} mints, {}{label}",
            summary.lane,
            summary.mints.len(),
            if summary.green { "green" } else { "NOT green" }
        );
        print_slots(&summary);
        println!("results: {}", lane_mint::local::results_dir(&out).display());
    }
    report_and_exit(&args, &loaded, &out, summary.green, None)
}

/// `--cell`/`--gpu`: keeps only those of the lane's matrix (a name the
/// matrix lacks is a usage error naming what it has).
fn select(
    lane: &mut lane_file::LaneFile,
    cells: &[String],
    gpus: &[String],
) -> Result<(), CliError> {
    let Some(m) = lane.mint.as_mut() else {
        return Ok(());
    };
    let missing = |what: &str, name: &str, have: Vec<&str>| {
        CliError::new(
            Exit::Usage,
            anyhow::anyhow!(
                "--{what} {name}: the lane's matrix has no such {what} (it has {})",
                have.join(", ")
            ),
        )
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

/// The tree cells get as `$LANE_SOURCE_DIR`: `--source`, else (when a
/// cell needs one) the lane branch exported once per commit into
/// `<lane out>/source/<commit>/`.
fn source_tree(
    args: &Args,
    loaded: &crate::lane::LoadedLane,
    out: &std::path::Path,
) -> Result<Option<PathBuf>, CliError> {
    if let Some(dir) = &args.source {
        if !dir.is_dir() {
            return Err(CliError::new(
                Exit::InvalidInput,
                anyhow::anyhow!("--source {}: not a folder", dir.display()),
            ));
        }
        return std::path::absolute(dir)
            .map(Some)
            .map_err(|e| CliError::new(Exit::Failure, e));
    }
    let needs = loaded
        .lane
        .mint
        .as_ref()
        .is_some_and(|m| m.cells.iter().any(|c| c.source));
    if !needs {
        return Ok(None);
    }
    let repo_dir = crate::lane::repository(loaded, args.repo.as_deref())?;
    let repo = lane_git::repo::open(&repo_dir).map_err(crate::cmd::cut::git_exit)?;
    let branch = loaded.lane.branch_name();
    let tree = lane_wheel::LaneTree::read(&repo, &branch).map_err(|e| {
        CliError::new(
            Exit::Precondition,
            anyhow::Error::new(e).context(
                "a cell needs the upstream's tree (`source: true`): cut the lane first, or give --source DIR",
            ),
        )
    })?;
    let dir = out.join("source").join(tree.commit.to_string());
    if !dir.is_dir() {
        // Exported beside, then renamed: a killed export is never taken for a tree.
        let tmp = out.join("source").join(format!(".{}.partial", tree.commit));
        if tmp.exists() {
            std::fs::remove_dir_all(&tmp).map_err(|e| CliError::new(Exit::Failure, e))?;
        }
        std::fs::create_dir_all(&tmp).map_err(|e| CliError::new(Exit::Failure, e))?;
        tree.export(&repo, &tmp)
            .map_err(crate::cmd::wheel::wheel_exit)?;
        std::fs::rename(&tmp, &dir).map_err(|e| CliError::new(Exit::Failure, e))?;
    }
    tracing::info!(source = %dir.display(), commit = %tree.commit, "the mints' source tree");
    Ok(Some(dir))
}

/// `--run-id`: a label value and a store key segment as it is (exit 2 otherwise).
pub fn check_run_id(run: &str) -> Result<(), CliError> {
    if lane_kube_job::valid_run_id(run) {
        return Ok(());
    }
    Err(CliError::new(
        Exit::Usage,
        anyhow::anyhow!("--run-id must be 1 to 63 of [A-Za-z0-9._-], starting and ending with a letter or digit; found `{run}`"),
    ))
}

/// One line per slot: its final attempt, outcome, seconds (all attempts) and why.
fn print_slots(summary: &lane_core::Summary) {
    for m in &summary.mints {
        let wall = match (m.wall_s, m.job_s) {
            (Some(w), _) => format!("{w:.3} s"),
            (None, Some(j)) => format!("- (its Job ran {j:.3} s)"),
            (None, None) => "- (not measured)".to_owned(),
        };
        println!(
            "  {:<40} a{} {} {wall}  {}",
            m.slot, m.attempt, m.status, m.reason
        );
    }
}

/// Every mint is in: writes the per-cell report, for people (HTML), PRs
/// (markdown) and scripts (JSON), and exits 0 when the lane is green, 7
/// when not.
fn report_and_exit(
    args: &Args,
    loaded: &crate::lane::LoadedLane,
    out: &std::path::Path,
    green: bool,
    keep: Option<(&dyn lane_store::ArtifactStore, String)>,
) -> CliResult {
    let lane = &loaded.lane;
    let files = crate::cmd::report::write_lane_report(
        lane,
        &lane_mint::local::results_dir(out),
        None,
        &out.join("report"),
    )?;
    if !args.json {
        println!(
            "report: {} (also {} and {})",
            files.html.display(),
            files.markdown.display(),
            files.json.display()
        );
    }
    // A run in pods keeps its summary and report in the store too (a
    // CronJob's own filesystem goes with its pod).
    if let Some((store, prefix)) = keep {
        let summary = lane_mint::local::results_dir(out).join("summary.json");
        for (name, path) in [
            ("summary.json", &summary),
            ("report/report.md", &files.markdown),
            ("report/report.json", &files.json),
            ("report/report.html", &files.html),
        ] {
            let key = format!("{prefix}{name}");
            let put = lane_store::StoreKey::new(key.clone())
                .and_then(|k| store.put_atomic(&k, lane_store::Content::File(path)));
            match put {
                Ok(_) => {}
                Err(e @ lane_store::StoreError::Conflict { .. }) => {
                    tracing::warn!(%key, error = %e, "the store keeps this run's earlier copy (write-once)")
                }
                Err(e) => return Err(CliError::new(Exit::Failure, e)),
            }
        }
        if !args.json {
            println!("kept in the store: {}/{prefix}report/", store.location());
        }
    }
    if args.post {
        // The wheel was built from the commit its key names.
        let from_wheel = args.wheel_key.as_deref().and_then(|k| {
            let commit = k.split('/').nth(2)?;
            (commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| commit.to_owned())
        });
        let head = args.head_sha.clone().or(from_wheel);
        let posted = crate::cmd::report::post_results(
            loaded,
            &lane_mint::local::results_dir(out),
            head,
            out,
        )?;
        for c in &posted.comments {
            eprintln!(
                "posted    #{}: comment {} {:?}",
                c.issue, c.comment_id, c.action
            );
        }
        if let Some(c) = &posted.check_run {
            eprintln!("posted    check run {}", c.id);
        }
    }
    for slot in &files.unreadable {
        eprintln!("unreadable report: {slot} (its row says why; the lane is not green)");
    }
    Ok(if green && files.unreadable.is_empty() {
        Exit::Ok
    } else {
        Exit::Findings
    })
}
