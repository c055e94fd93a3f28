//! `lane replay-mint`: a mint command that replays a real mint lane
//! recorded instead of compiling (for the demo; labelled replay; see
//! `lane_app::replay`).

use std::path::PathBuf;

use lane_app::{AppError, ReplayRequest};

/// Arguments of `lane replay-mint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recorded slot folder of one cell on one GPU (`<results>/<cell>/<gpu>`):
    /// repeat N replays its `r<N>` (cycling when there are fewer).
    #[arg(long, value_name = "DIR")]
    pub recorded: PathBuf,
    /// Seconds to take, standing in for the compile.
    #[arg(long, default_value_t = 0.2)]
    pub seconds: f64,
}

/// Runs `lane replay-mint` (under `lane agent`, which sets
/// `LANE_REPORT_PATH` and `LANE_REPEAT`).
pub fn run(args: Args) -> Result<(), AppError> {
    lane_app::replay(&ReplayRequest {
        recorded: args.recorded,
        seconds: args.seconds,
        report_path: std::env::var_os("LANE_REPORT_PATH").map(PathBuf::from),
        home: std::env::var_os("HOME").map(PathBuf::from),
        trace_dir: std::env::var_os("TORCH_TRACE").map(PathBuf::from),
        repeat: std::env::var("LANE_REPEAT")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(1),
    })
}
