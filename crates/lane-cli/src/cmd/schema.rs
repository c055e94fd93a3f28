//! `lane schema`: print the JSON Schema of lane files, for editors
//! (`# yaml-language-server: $schema=…`) and for `docs/lane.schema.json`.

use std::io::Write;

use crate::exit::{CliResult, Exit, WithExit};

/// Arguments of `lane schema`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Prints the schema on stdout.
pub fn run(_args: Args) -> CliResult {
    std::io::stdout()
        .write_all(lane_file::schema_text().as_bytes())
        .exit(Exit::Failure)?;
    Ok(Exit::Ok)
}
