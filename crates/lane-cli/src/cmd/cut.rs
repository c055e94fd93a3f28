//! `lane cut`.

use crate::exit::{CliResult, Exit};

/// Arguments of `lane cut`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lane cut`.
pub fn run(_args: Args) -> CliResult {
    Ok(Exit::Failure)
}
