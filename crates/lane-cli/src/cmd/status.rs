//! `lane status`: where every mint of a lane stands (see `lane_app::status`).

use lane_app::{AppError, StatusRequest};
use lane_core::MintStatus;
use serde::Serialize;

use crate::cmd::args::{LaneArg, RunOutArg};
use crate::output::print_json;

/// One attempt as `lane status --json` prints it: the fields a slot has in
/// `summary.json` (`lane mint --json`, `docs/schemas/summary.schema.json`)
/// spelled as there (`slot`, `attempt`, `status`, `reason`, `wall_s`), and
/// where the attempt stands in the run store.
#[derive(Serialize)]
struct StatusRow<'a> {
    /// `<lane>/<cell>/<gpu>/r<N>`.
    slot: String,
    attempt: u32,
    /// Its outcome once it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<MintStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wall_s: Option<f64>,
    /// Where it stands: `planned`, `submitted`, ... `gathered`.
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mint_dir: Option<&'a std::path::Path>,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_after: Option<f64>,
}

/// Arguments of `lane status`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub lane: LaneArg,
    #[command(flatten)]
    pub out: RunOutArg,
    /// Print the rows as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lane status`.
pub fn run(args: Args) -> Result<(), AppError> {
    let outcome = lane_app::status(&StatusRequest {
        lane: args.lane.lane,
        out: args.out.out,
    })?;
    if args.json {
        let rows: Vec<StatusRow<'_>> = outcome
            .rows
            .iter()
            .map(|r| StatusRow {
                slot: r.id.slot().to_string(),
                attempt: r.id.attempt,
                status: r.outcome,
                reason: r.reason.as_deref(),
                wall_s: r.wall_s,
                state: r.state.name(),
                pid: r.pid,
                mint_dir: r.mint_dir.as_deref(),
                retry_after: r.retry_after,
            })
            .collect();
        return print_json(&rows);
    }
    println!("lane {}: {} attempts", outcome.lane, outcome.rows.len());
    for r in &outcome.rows {
        let outcome = r
            .outcome
            .map(|o| o.to_string())
            .unwrap_or_else(|| "-".into());
        let wall = r
            .wall_s
            .map(|w| format!("{w:.3} s"))
            .unwrap_or_else(|| "-".into());
        println!(
            "  {:<44} {:<10} {:<9} {:>10}  {}",
            r.id.to_string(),
            r.state.name(),
            outcome,
            wall,
            r.reason.as_deref().unwrap_or("")
        );
    }
    Ok(())
}
