//! `lane status`: where every mint of a lane stands, read from its run store.

use std::path::PathBuf;

use crate::exit::{CliError, CliResult, Exit};
use crate::lane::load;
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
pub fn run(args: Args) -> CliResult {
    let loaded = load(&args.lane)?;
    let out = args.out.join("lanes").join(loaded.lane.version.as_str());
    let path = lane_mint::local::store_path(&out);
    if !path.exists() {
        return Err(CliError::new(
            Exit::Precondition,
            anyhow::anyhow!(
                "no run of lane {} in {} (run `lane mint` first)",
                loaded.lane.version,
                out.display()
            ),
        ));
    }
    let store =
        lane_mint::store::RunStore::open(&path).map_err(|e| CliError::new(Exit::Failure, e))?;
    let rows = store.rows().map_err(|e| CliError::new(Exit::Failure, e))?;
    if args.json {
        print_json(&rows)?;
    } else {
        println!("lane {}: {} attempts", loaded.lane.version, rows.len());
        for r in &rows {
            let outcome = r
                .outcome
                .map(|o| format!("{o:?}"))
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
    }
    Ok(Exit::Ok)
}
