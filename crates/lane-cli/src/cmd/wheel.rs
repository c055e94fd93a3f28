//! `lane wheel` (being built).

use crate::exit::{CliError, CliResult, Exit};

/// Arguments of `lane wheel`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lane wheel`.
pub fn run(_args: Args) -> CliResult {
    Err(CliError::new(
        Exit::Failure,
        anyhow::anyhow!("lane wheel is not built yet"),
    ))
}
