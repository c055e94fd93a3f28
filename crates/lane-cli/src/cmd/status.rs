//! `lane status`: where every mint of a lane stands (see `lane_app::status`).

use std::path::PathBuf;

use lane_app::{AppError, StatusRequest};

use crate::output::print_json;

/// Arguments of `lane status`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The lane: a version (`0.93.3`) or a lane file path.
    pub lane: String,
    /// Where the lane's run lives.
    #[arg(long, default_value = "out")]
    pub out: PathBuf,
    /// Print the rows as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lane status`.
pub fn run(args: Args) -> Result<(), AppError> {
    let outcome = lane_app::status(&StatusRequest {
        lane: args.lane,
        out: args.out,
    })?;
    if args.json {
        return print_json(&outcome.rows);
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
