//! Writing results: JSON for scripts (`--json`), text for people.

use serde::Serialize;
use std::io::Write;

use lane_app::AppError;

/// Prints `value` as pretty JSON followed by a newline on stdout.
pub fn print_json<T: Serialize>(value: &T) -> Result<(), AppError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    serde_json::to_writer_pretty(&mut out, value).map_err(AppError::Json)?;
    writeln!(out).map_err(|e| AppError::io("standard output", e))?;
    Ok(())
}

/// Says which slots' reports could not be read (the lane is not green).
pub fn unreadable(slots: &[String]) {
    for slot in slots {
        eprintln!("unreadable report: {slot} (its row says why; the lane is not green)");
    }
}
