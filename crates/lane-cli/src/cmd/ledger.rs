//! `lane ledger` (being built).

use crate::exit::{CliResult, Exit};

/// Arguments of `lane ledger`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `lane ledger`.
pub fn run(_args: Args) -> CliResult {
    Ok(Exit::Failure)
}
