//! `lane report`: render a lane's per-cell phase breakdown from its results
//! folder and, with `--post`, put it on the lane's PRs (see
//! `lane_app::report`, `docs/report.md`).

use std::path::PathBuf;

use lane_app::{AppError, ReportRequest};

use crate::cmd::args::{LaneArg, Store, WaitArg};
use crate::output::print_json;

/// Arguments of `lane report`.
#[derive(Debug, clap::Args)]
#[command(mut_arg("lane", |a| a.help("The lane: a version (`0.93.3`, found as `lanes/0.93.3.yaml`) or a lane file path")))]
pub struct Args {
    #[command(flatten)]
    pub lane: LaneArg,
    /// The results folder [default: out/lanes/<version>/results].
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// The baseline lane's results folder [default:
    /// out/lanes/<baseline>/results, when the lane names a baseline].
    #[arg(long, value_name = "DIR")]
    pub baseline_results: Option<PathBuf>,
    /// Post: a sticky comment on each target PR and a check run.
    #[arg(long)]
    pub post: bool,
    /// With --post: write the exact requests to files, post nothing.
    #[arg(long, requires = "post")]
    pub dry_run: bool,
    /// The commit the check run reports on [default: the lane branch's
    /// head in the lane's local repository, when there is one].
    #[arg(long, value_name = "SHA")]
    pub head_sha: Option<String>,
    /// Where the markdown goes [default: out/lanes/<version>/report.md].
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Neither add the run to the history nor judge it.
    #[arg(long)]
    pub no_history: bool,
    /// The store the lane's history lives in (the run is added to it and
    /// judged against it), and `--json`.
    #[command(flatten)]
    pub store: Store,
    #[command(flatten)]
    pub wait: WaitArg,
}

/// Runs `lane report`.
pub fn run(args: Args) -> Result<(), AppError> {
    let output = lane_app::report(&ReportRequest {
        lane: args.lane.lane,
        results: args.results,
        baseline_results: args.baseline_results,
        post: args.post,
        dry_run: args.dry_run,
        head_sha: args.head_sha,
        out: args.out,
        history: (!args.no_history).then_some(args.store.at.history),
        wait: args.wait.policy(),
    })?;
    if args.store.json {
        print_json(&output)?;
    } else {
        out!("{}", output.answers);
        outln!();
        outln!("{}", output.markdown.display());
        for r in &output.posted.requests {
            outln!("{}", r.display());
        }
        for c in &output.posted.comments {
            outln!(
                "#{}: comment {} {:?}{}",
                c.issue,
                c.comment_id,
                c.action,
                if c.removed.is_empty() {
                    String::new()
                } else {
                    format!(", removed duplicates {:?}", c.removed)
                }
            );
        }
        if let Some(c) = &output.posted.check_run {
            outln!(
                "check run {} ({})",
                c.id,
                output.conclusion.conclusion.as_str()
            );
        }
    }
    crate::output::unreadable(&output.unreadable);
    output.verdict()
}
