//! `lane mint`: every cell × GPU class × cold repeat of a lane, on the local
//! machine or in Kubernetes (see `lane_app::mint`). This module parses the
//! arguments, shows progress (a bar on a terminal, plain lines otherwise)
//! and prints the outcome.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::Serialize;

use lane_app::{AppError, DryRun, JobEnd, LaneMinted, MintOutcome, MintRequest};
use lane_core::{Progress, Summary};

use crate::cmd::args::{LaneArg, RepoArg, RunOutArg, WaitArg};
use crate::output::print_json;

/// Arguments of `lane mint`.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("out", |a| a.help("Where the lane's run lives (`<out>/lanes/<version>/`: run store, mints, results)")),
    mut_arg("repo", |a| a.help("With the default source: export from this local clone instead of the lane's upstream")),
)]
pub struct Args {
    #[command(flatten)]
    pub lane: LaneArg,
    #[command(flatten)]
    pub out: RunOutArg,
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
    #[command(flatten)]
    pub repo: RepoArg,
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
    #[command(flatten)]
    pub wait: WaitArg,
}

#[derive(Serialize)]
struct PlanOut<'a> {
    lane: &'a str,
    mints: &'a [String],
}

#[derive(Serialize)]
struct KubeSummary<'a> {
    #[serde(flatten)]
    summary: &'a Summary,
    /// Each mint id's Job: its name, final state and seconds.
    jobs: &'a BTreeMap<String, JobEnd>,
}

/// Runs `lane mint`.
pub fn run(args: Args) -> Result<(), AppError> {
    let mut backend = lane_app::backend::open(&args.backend)?;
    let stop = Arc::new(AtomicBool::new(false));
    if !args.dry_run {
        for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            signal_hook::flag::register(sig, Arc::clone(&stop))
                .map_err(|e| AppError::io("signal handler", e))?;
        }
    }
    let exe = std::env::current_exe().map_err(|e| AppError::io("the lane binary", e))?;
    let request = MintRequest {
        lane: args.lane.lane.clone(),
        out: args.out.out.clone(),
        kube_config: args.kube_config.clone(),
        run_id: args.run_id.clone(),
        post: args.post,
        head_sha: args.head_sha.clone(),
        concurrency: args.concurrency,
        wheel: args.wheel.clone(),
        wheel_key: args.wheel_key.clone(),
        store: args.store.clone(),
        source: args.source.clone(),
        repo: args.repo.repo.clone(),
        cells: args.cells.clone(),
        gpus: args.gpus.clone(),
        dry_run: args.dry_run,
        agent: vec![exe.to_string_lossy().into_owned(), "agent".into()],
        stop,
        wait: args.wait.policy(),
    };
    // A progress bar on a terminal; plain lines otherwise (logs, CI, pods).
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(0);
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
                match p {
                    Progress::Started { .. } | Progress::Adopted { .. } => b.inc_length(1),
                    Progress::Finished { .. } => b.inc(1),
                    _ => {}
                }
                b.set_message(line.clone());
                if !matches!(p, Progress::Started { .. }) {
                    b.println(line);
                }
            }
            None => errln!("{line}"),
        }
    };
    let outcome = lane_app::mint(&request, backend.as_mut(), &mut on);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let outcome = outcome?;
    match &outcome {
        MintOutcome::DryRun(dry) => print_dry_run(dry, args.json)?,
        MintOutcome::Minted(m) => print_minted(m, args.json)?,
    }
    outcome.verdict()
}

fn print_dry_run(dry: &DryRun, json: bool) -> Result<(), AppError> {
    match dry {
        DryRun::Plan { lane, mints } => {
            if json {
                return print_json(&PlanOut { lane, mints });
            }
            outln!(
                "lane {lane}: {} mints (dry run: nothing is run)",
                mints.len()
            );
            for m in mints {
                outln!("  {m}");
            }
        }
        DryRun::Jobs {
            yaml,
            json: list,
            notes,
        } => {
            for n in notes {
                errln!("{n}");
            }
            if json {
                return print_json(list);
            }
            out!("{yaml}");
        }
    }
    Ok(())
}

fn print_minted(m: &LaneMinted, json: bool) -> Result<(), AppError> {
    let summary = &m.minted.summary;
    for slot in &m.minted.ended {
        errln!("ended     {slot} (its result is in the store)");
    }
    let verdict = if summary.green { "green" } else { "NOT green" };
    match (&m.minted.jobs, json) {
        (Some(jobs), true) => print_json(&KubeSummary { summary, jobs })?,
        (None, true) => print_json(summary)?,
        (Some(jobs), false) => {
            outln!(
                "lane {}: {} mints on Kubernetes, {verdict}",
                summary.lane,
                summary.mints.len(),
            );
            print_slots(summary);
            outln!("jobs:");
            let rows: Vec<Vec<String>> = jobs
                .iter()
                .map(|(id, e)| vec![id.to_string(), e.state.to_string()])
                .collect();
            crate::output::table(&["attempt", "state"], &[false, false], &rows);
            outln!("results: {}", m.results.display());
        }
        (None, false) => {
            let label = if summary.replay {
                " (replay: recorded mints, no compile ran)"
            } else {
                ""
            };
            outln!(
                "lane {}: {} mints, {verdict}{label}",
                summary.lane,
                summary.mints.len(),
            );
            print_slots(summary);
            outln!("results: {}", m.results.display());
        }
    }
    if !json {
        let files = &m.report;
        // A file beside the page is named without the folder again.
        let name = |p: &std::path::Path| match p.file_name() {
            Some(n) if p.parent() == files.html.parent() => n.to_string_lossy().into_owned(),
            _ => p.display().to_string(),
        };
        outln!(
            "report: {} (also {} and {})",
            files.html.display(),
            name(&files.markdown),
            name(&files.json)
        );
        if let Some(kept) = &m.kept {
            outln!("kept in the store: {kept}");
        }
    }
    if let Some(posted) = &m.posted {
        for c in &posted.comments {
            errln!(
                "posted    #{}: comment {} {:?}",
                c.issue,
                c.comment_id,
                c.action
            );
        }
        if let Some(c) = &posted.check_run {
            errln!("posted    check run {}", c.id);
        }
    }
    crate::output::unreadable(&m.report.unreadable);
    Ok(())
}

/// One row per slot: its final attempt, outcome, seconds (all attempts) and why.
fn print_slots(summary: &Summary) {
    let rows: Vec<Vec<String>> = summary
        .mints
        .iter()
        .map(|m| {
            let wall = match (m.wall_s, m.job_s) {
                (Some(w), _) => format!("{w:.3} s"),
                (None, Some(j)) => format!("- (its Job ran {j:.3} s)"),
                (None, None) => "- (not measured)".to_owned(),
            };
            vec![
                m.slot.to_string(),
                m.attempt.to_string(),
                m.status.to_string(),
                wall,
                m.reason.clone(),
            ]
        })
        .collect();
    crate::output::table(
        &["slot", "attempt", "outcome", "seconds", "why"],
        &[false, true, false, false, false],
        &rows,
    );
}
