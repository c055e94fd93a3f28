//! `lane guard`.

use crate::exit::{CliResult, Exit};

/// Arguments of `lane guard`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lane guard`.
pub fn run(_args: Args) -> CliResult {
    Ok(Exit::Failure)
}
