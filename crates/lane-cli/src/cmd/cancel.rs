//! `lane cancel`: delete a lane's Kubernetes Jobs and their pods (see
//! `lane_app::cancel`).

use std::path::PathBuf;

use lane_app::{AppError, CancelOutcome, CancelRequest};

use crate::cmd::args::LaneArg;
use crate::output::print_json;

/// Arguments of `lane cancel`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub lane: LaneArg,
    /// The Kubernetes backend's configuration (YAML, `docs/kubernetes.md`).
    #[arg(long)]
    pub kube_config: PathBuf,
    /// Say what would be deleted (the label selector) and delete nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print what was deleted as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lane cancel`.
pub fn run(args: Args) -> Result<(), AppError> {
    let outcome = lane_app::cancel(&CancelRequest {
        lane: args.lane.lane,
        kube_config: args.kube_config,
        dry_run: args.dry_run,
    })?;
    let out = match outcome {
        CancelOutcome::WouldDelete {
            namespace,
            selector,
        } => {
            outln!(
                "would delete every Job and pod in namespace {namespace} with labels {selector}"
            );
            return Ok(());
        }
        CancelOutcome::Deleted(out) => out,
    };
    if args.json {
        return print_json(&out);
    }
    outln!(
        "lane {}: deleted {} Jobs and {} pods in {}",
        out.lane,
        out.jobs.len(),
        out.pods.len(),
        out.namespace
    );
    for j in &out.jobs {
        outln!("  job {j}");
    }
    Ok(())
}
