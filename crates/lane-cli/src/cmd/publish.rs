//! `lane publish` (being built).

use crate::exit::{CliError, CliResult, Exit};

/// Arguments of `lane publish`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lane publish`.
pub fn run(_args: Args) -> CliResult {
    Err(CliError::new(
        Exit::Failure,
        anyhow::anyhow!("lane publish is not built yet"),
    ))
}
