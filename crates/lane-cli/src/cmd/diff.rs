//! `lane diff` (being built).

use crate::exit::{CliResult, Exit};

/// Arguments of `lane diff`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lane diff`.
pub fn run(_args: Args) -> CliResult {
    Ok(Exit::Failure)
}
