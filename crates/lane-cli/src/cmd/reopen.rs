//! `lane reopen`: re-opens ended slots of a lane on purpose (see
//! `lane_app::reopen`).

use lane_app::{AppError, ReopenRequest};

use crate::cmd::args::{LaneArg, RunOutArg, WaitArg};
use crate::output::print_json;

/// Arguments of `lane reopen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub lane: LaneArg,
    /// The slots to run once more, `<cell>/<gpu>/r<N>` (as `lane status` lists them).
    #[arg(required = true, value_name = "SLOT")]
    pub slots: Vec<String>,
    #[command(flatten)]
    pub out: RunOutArg,
    #[command(flatten)]
    pub wait: WaitArg,
    /// Say what would be re-opened; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the outcome as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lane reopen`.
pub fn run(args: Args) -> Result<(), AppError> {
    let outcome = lane_app::reopen(&ReopenRequest {
        lane: args.lane.lane,
        out: args.out.out,
        slots: args.slots,
        dry_run: args.dry_run,
        wait: args.wait.policy(),
    })?;
    if args.json {
        return print_json(&outcome);
    }
    out!("{}", text(&outcome));
    Ok(())
}

/// The outcome as the terminal shows it.
fn text(outcome: &lane_app::ReopenOutcome) -> String {
    let verb = if outcome.dry_run {
        "would re-open"
    } else {
        "re-opened"
    };
    let mut s = String::new();
    for r in &outcome.reopened {
        let status = r.status.map_or_else(|| "-".to_owned(), |o| o.to_string());
        let attempt = |id: &str| id.rsplit('/').next().unwrap_or(id).to_owned();
        s.push_str(&format!(
            "{verb} {}: {} ({status}: {}) is kept; {} is planned\n",
            r.slot,
            attempt(&r.closed),
            r.reason,
            attempt(&r.planned)
        ));
    }
    if !outcome.dry_run {
        s.push_str(&format!(
            "run `lane mint {}` to mint {}\n",
            outcome.lane,
            if outcome.reopened.len() == 1 {
                "it"
            } else {
                "them"
            }
        ));
    }
    s
}
