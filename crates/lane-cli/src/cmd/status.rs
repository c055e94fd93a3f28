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
    outln!("lane {}: {} attempts", outcome.lane, outcome.rows.len());
    let rows: Vec<Vec<String>> = outcome
        .rows
        .iter()
        .map(|r| {
            vec![
                r.id.to_string(),
                r.state.name().to_owned(),
                r.outcome.map_or_else(|| "-".into(), |o| o.to_string()),
                r.wall_s.map_or_else(|| "-".into(), |w| format!("{w:.3} s")),
                r.reason.clone().unwrap_or_default(),
            ]
        })
        .collect();
    crate::output::table(
        &["attempt", "state", "outcome", "seconds", "why"],
        &[false, false, false, false, false],
        &rows,
    );
    Ok(())
}
