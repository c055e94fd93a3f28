//! `lane schema`: print the JSON Schema of lane files or of a file lane
//! writes in a results folder (see `lane_app::schema`).

use lane_app::AppError;

/// Arguments of `lane schema`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which file: `lane` (a lane file), `summary` (summary.json), `mint`
    /// (a slot's mint.json), `result` (an agent's result.json) or
    /// `manifest` (a result bundle's manifest.json).
    #[arg(default_value = "lane", value_parser = lane_app::SCHEMA_FILES)]
    pub file: String,
}

/// Prints the schema on stdout.
pub fn run(args: Args) -> Result<(), AppError> {
    let text = lane_app::schema(&args.file)?;
    out!("{text}");
    Ok(())
}
