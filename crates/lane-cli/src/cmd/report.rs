//! `lane report` (being built).

use crate::exit::{CliError, CliResult, Exit};

/// Arguments of `lane report`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lane report`.
pub fn run(_args: Args) -> CliResult {
    Err(CliError::new(
        Exit::Failure,
        anyhow::anyhow!("lane report is not built yet"),
    ))
}
