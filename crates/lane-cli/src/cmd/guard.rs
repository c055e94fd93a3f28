//! `lane guard`: run the lane's guards alone on an existing ref, for a
//! release branch's CI (see `lane_app::guard`).

use std::fmt::Write as _;

use lane_app::{AppError, GuardRequest};

use crate::cmd::args::{LaneArg, RepoArg};
use crate::output::print_json;

/// Arguments of `lane guard`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub lane: LaneArg,
    /// The ref to check (default: the lane branch, local or `origin/`).
    #[arg(long = "ref")]
    pub ref_: Option<String>,
    #[command(flatten)]
    pub repo: RepoArg,
    /// Print the verdicts as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lane guard`.
pub fn run(args: Args) -> Result<(), AppError> {
    let outcome = lane_app::guard(&GuardRequest {
        lane: args.lane.lane,
        ref_: args.ref_,
        repo: args.repo.repo,
    })?;
    if args.json {
        print_json(&outcome)?;
    } else {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "lane {}: guards on {} ({})",
            outcome.lane,
            outcome.r#ref,
            &outcome.head[..12.min(outcome.head.len())]
        );
        for v in &outcome.report.verdicts {
            let _ = writeln!(
                s,
                "guard {}: {}",
                v.guard,
                if v.refusals.is_empty() {
                    "passed"
                } else {
                    "REFUSED"
                }
            );
            for r in &v.refusals {
                let _ = writeln!(s, "  refused: {r}");
            }
            for p in &v.proven {
                let _ = writeln!(s, "  proven: {p}");
            }
        }
        out!("{s}");
    }
    outcome.verdict()
}
