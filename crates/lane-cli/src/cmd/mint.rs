//! `lane mint`: every cell × GPU class × cold repeat of a lane, on the local
//! machine (the embedded default). Crash-safe: killed at any point and run
//! again, it re-attaches to running mints and never submits a duplicate.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::Serialize;

use lane_mint::local::{LocalRun, Progress};
use lane_mint::plan::plan;
use lane_mint::MintError;

use crate::exit::{CliError, CliResult, Exit};
use crate::lane::load;
use crate::output::print_json;

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
    /// The run id label of the lane's Jobs.
    #[arg(long, default_value = "manual")]
    pub run_id: String,
    /// Mints at once (default: the lane's `mint.concurrency`, else one per visible GPU, at least 1).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// The wheel every mint installs first (with `uv`), e.g. the one `lane wheel` staged.
    #[arg(long)]
    pub wheel: Option<PathBuf>,
    /// The artifact store every mint's result bundle goes to (default `<out>/store`).
    #[arg(long, env = "LANE_STORE")]
    pub store: Option<String>,
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
    let loaded = load(&args.lane)?;
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
        "kube" => return kube(&args, lane),
        other => {
            return Err(CliError::new(
                Exit::Usage,
                anyhow::anyhow!("unknown backend `{other}`: expected `local` or `kube`"),
            ))
        }
    }
    if args.dry_run {
        let mints: Vec<String> = plan(lane).into_iter().map(|p| p.id.to_string()).collect();
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
    let run = LocalRun {
        lane,
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
    let total = plan(lane).len();
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
        let line = match &p {
            Progress::Started(id) => format!("started   {id}"),
            Progress::Adopted(id) => {
                format!("adopted   {id} (still running from an earlier lane mint)")
            }
            Progress::Finished(id, outcome, wall, why) => {
                format!("finished  {id}: {outcome:?} in {wall:.3} s ({why})")
            }
            Progress::Retry(id, d) => format!("retry     {id}: {d:?}"),
        };
        match &bar {
            Some(b) => {
                if matches!(p, Progress::Finished(..)) {
                    b.inc(1);
                }
                b.set_message(line.clone());
                if !matches!(p, Progress::Started(..)) {
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
        for m in &summary.mints {
            println!(
                "  {:<40} a{} {:?} {:.3} s  {}",
                m.slot, m.attempt, m.status, m.wall_s, m.reason
            );
        }
        println!("results: {}", lane_mint::local::results_dir(&out).display());
    }
    // Every mint is in: the per-cell report, for people (HTML), PRs (markdown) and scripts (JSON).
    let files = crate::cmd::report::write_lane_report(
        lane,
        &lane_mint::local::results_dir(&out),
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
    Ok(if summary.green {
        Exit::Ok
    } else {
        Exit::Findings
    })
}

/// `--backend kube`: one Job per mint. `--dry-run` prints them as YAML;
/// otherwise the lane's existing Jobs are adopted, the missing ones created,
/// and all of them watched to their end.
fn kube(args: &Args, lane: &lane_file::LaneFile) -> CliResult {
    let Some(path) = &args.kube_config else {
        return Err(CliError::new(
            Exit::Usage,
            anyhow::anyhow!("--backend kube needs --kube-config FILE (images, namespace, GPU classes; see docs/kubernetes.md)"),
        ));
    };
    let text = std::fs::read_to_string(path).map_err(|e| {
        CliError::new(
            Exit::InvalidInput,
            anyhow::anyhow!("{}: {e}", path.display()),
        )
    })?;
    let cfg: lane_kube::KubeConfig = serde_yaml::from_str(&text).map_err(|e| {
        CliError::new(
            Exit::InvalidInput,
            anyhow::anyhow!("{}: {e}", path.display()),
        )
    })?;
    let mints = lane_kube::MintJob::plan(lane, &args.run_id, None)
        .map_err(|e| CliError::new(Exit::InvalidInput, e))?;
    if args.dry_run {
        let yaml =
            lane_kube::jobs_yaml(&mints, &cfg).map_err(|e| CliError::new(Exit::InvalidInput, e))?;
        print!("{yaml}");
        return Ok(Exit::Ok);
    }
    let wanted = mints
        .iter()
        .map(|m| lane_kube::job_for(m, &cfg))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError::new(Exit::InvalidInput, e))?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::new(Exit::Failure, e))?;
    let lane_name = lane.version.to_string();
    let states = rt
        .block_on(async {
            let backend = lane_kube::KubeBackend::connect(cfg.clone()).await?;
            let mut on = |p: lane_kube::KubeProgress| match p {
                lane_kube::KubeProgress::Adopted(n) => {
                    eprintln!("adopted   {n} Jobs from an earlier lane mint")
                }
                lane_kube::KubeProgress::Created(id) => eprintln!("created   {id}"),
                lane_kube::KubeProgress::AdoptedOnConflict(id) => {
                    eprintln!("adopted   {id} (its Job already existed)")
                }
                lane_kube::KubeProgress::State(id, state) => eprintln!("{id}: {state}"),
            };
            backend
                .run_lane(
                    &lane_name,
                    wanted,
                    std::time::Duration::from_secs(UNSCHEDULABLE_AFTER_S),
                    &mut on,
                )
                .await
        })
        .map_err(|e| CliError::new(Exit::Failure, e))?;
    let green = !states.is_empty()
        && states
            .values()
            .all(|s| matches!(s, lane_kube::JobState::Succeeded));
    if args.json {
        let rows: std::collections::BTreeMap<&String, String> =
            states.iter().map(|(k, v)| (k, v.to_string())).collect();
        print_json(&rows)?;
    } else {
        println!(
            "lane {}: {} mints on Kubernetes, {}",
            lane.version,
            states.len(),
            if green { "green" } else { "NOT green" }
        );
        for (id, state) in &states {
            println!("  {id:<44} {state}");
        }
    }
    Ok(if green { Exit::Ok } else { Exit::Findings })
}

/// A mint whose pod stays Unschedulable this long is reported by name.
const UNSCHEDULABLE_AFTER_S: u64 = 600;
