//! Writing results: JSON for scripts (`--json`), text for people.

use serde::Serialize;
use std::io::Write;

use crate::exit::{CliError, Exit};

/// Prints `value` as pretty JSON followed by a newline on stdout.
pub fn print_json<T: Serialize>(value: &T) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    serde_json::to_writer_pretty(&mut out, value).map_err(|e| CliError::new(Exit::Failure, e))?;
    writeln!(out).map_err(|e| CliError::new(Exit::Failure, e))?;
    Ok(())
}
