//! Writing results: JSON for scripts (`--json`), text for people.

use serde::Serialize;
use std::io::Write;

use lane_app::AppError;

/// Whether this run printed its JSON document yet: `--json` prints exactly
/// one, the outcome's or, when a command fails before it printed any, the
/// error's.
static PRINTED_JSON: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a JSON document was printed.
pub fn printed_json() -> bool {
    PRINTED_JSON.load(std::sync::atomic::Ordering::SeqCst)
}

/// The JSON document of a command that failed under `--json`.
#[derive(Serialize)]
pub struct ErrorDocument<'a> {
    /// The failure.
    pub error: ErrorBody<'a>,
}

/// What failed, and the exit code it maps to.
#[derive(Serialize)]
pub struct ErrorBody<'a> {
    /// The message with its causes, as stderr says it.
    pub message: &'a str,
    /// The process exit code (`docs/cli.md`).
    pub exit: u8,
}

/// Prints `value` as pretty JSON followed by a newline on stdout.
pub fn print_json<T: Serialize>(value: &T) -> Result<(), AppError> {
    PRINTED_JSON.store(true, std::sync::atomic::Ordering::SeqCst);
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
