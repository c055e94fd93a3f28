//! Writing results: JSON for scripts (`--json`), text for people.
//!
//! Everything the commands print on standard output goes through
//! [`out!`], [`outln!`] or [`print_json`]: when the reader goes away
//! early (`lane status | head -1`), the rest is dropped and the command
//! still ends with its own exit code, not a panic; any other write failure
//! (a full disk) is kept and turned into an error at the end.

use serde::Serialize;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use lane_app::AppError;

/// Prints text for people to standard output, as `print!` would, without
/// panicking when the reader has gone; whatever could still move the
/// terminal is escaped (`write_inert`).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_inert(&format!($($arg)*))
    };
}

/// Prints one line to standard output, as `println!` would, without the
/// spaces that padded its last column and without panicking when the
/// reader has gone.
macro_rules! outln {
    () => {
        $crate::output::write_text("\n")
    };
    ($($arg:tt)*) => {
        $crate::output::write_line(&format!($($arg)*))
    };
}

/// Prints one line to standard error, as `eprintln!` would, without
/// panicking when standard error is closed or full: a command's exit code
/// is its own, never a panic's (`lane cut x 2>&1 | head -0`).
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::write_err_line(&format!($($arg)*))
    };
}

/// Writes `text` and a newline to standard error; a failure to write it is
/// dropped, since there is nowhere left to say it.
pub fn write_err_line(text: &str) {
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let _ = err
        .write_all(text.as_bytes())
        .and_then(|()| err.write_all(b"\n"));
}

/// Standard error for the log: a write that fails is dropped, not
/// reported (tracing-subscriber says so on stderr with `eprintln!`, which
/// panics when stderr is the stream that failed).
pub struct StderrOrNothing;

impl Write for StderrOrNothing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = std::io::stderr().lock().write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let _ = std::io::stderr().lock().flush();
        Ok(())
    }
}

/// Set once standard output's reader has gone: nothing more is written.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// The first failure to write standard output other than its reader
/// going away, reported when the command ends.
static STDOUT_FAILED: Mutex<Option<std::io::Error>> = Mutex::new(None);

/// Writes text for people: `text` with every control or bidirectional
/// character that is not a line feed or a tab escaped
/// (`lane_render::escape::terminal_output`), the last guard behind each
/// command making foreign words inert where it puts them in.
pub fn write_inert(text: &str) {
    write_text(&lane_render::escape::terminal_output(text));
}

/// Writes JSON text with the characters its serializer leaves raw (DEL,
/// C1 controls, bidirectional marks) as JSON escapes: the same document,
/// inert on a terminal (`lane_render::escape::json_output`).
pub fn write_json(text: &str) {
    write_text(&lane_render::escape::json_output(text));
}

/// Writes `text` as it is.
pub fn write_text(text: &str) {
    if STDOUT_CLOSED.load(Ordering::SeqCst) {
        return;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Err(e) = out.write_all(text.as_bytes()) {
        stdout_failed(e);
    }
}

/// Writes `text` and a newline, with the trailing spaces of each of its
/// lines dropped: aligned columns end where their text does.
pub fn write_line(text: &str) {
    let mut line = String::with_capacity(text.len() + 1);
    for (i, l) in text.split('\n').enumerate() {
        if i > 0 {
            line.push('\n');
        }
        line.push_str(l.trim_end_matches(' '));
    }
    line.push('\n');
    write_inert(&line);
}

/// Stops writing standard output; keeps the failure unless the reader
/// merely went away.
fn stdout_failed(e: std::io::Error) {
    STDOUT_CLOSED.store(true, Ordering::SeqCst);
    if e.kind() != std::io::ErrorKind::BrokenPipe {
        let mut failed = STDOUT_FAILED.lock().unwrap_or_else(|p| p.into_inner());
        failed.get_or_insert(e);
    }
}

/// Flushes standard output and returns the first failure to write it,
/// other than its reader going away.
pub fn finish() -> Option<std::io::Error> {
    if !STDOUT_CLOSED.load(Ordering::SeqCst) {
        if let Err(e) = std::io::stdout().lock().flush() {
            stdout_failed(e);
        }
    }
    STDOUT_FAILED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
}

/// Whether this run printed its JSON document yet: `--json` prints exactly
/// one, the outcome's or, when a command fails before it printed any, the
/// error's.
static PRINTED_JSON: AtomicBool = AtomicBool::new(false);

/// Whether a JSON document was printed.
pub fn printed_json() -> bool {
    PRINTED_JSON.load(Ordering::SeqCst)
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
    PRINTED_JSON.store(true, Ordering::SeqCst);
    let mut text = serde_json::to_string_pretty(value).map_err(AppError::Json)?;
    text.push('\n');
    write_json(&text);
    Ok(())
}

/// Says which slots' reports could not be read (the lane is not green).
pub fn unreadable(slots: &[String]) {
    for slot in slots {
        errln!("unreadable report: {slot} (its row says why; the lane is not green)");
    }
}

/// Prints `rows` under `header` as aligned columns, indented two spaces:
/// text left, numbers (`right[i]`) right; foreign words are made inert.
pub fn table(header: &[&str], right: &[bool], rows: &[Vec<String>]) {
    let escaped: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| lane_render::escape::terminal(c)).collect())
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in &escaped {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut s = String::from(" ");
        for (i, c) in cells.enumerate() {
            let pad = widths[i].saturating_sub(c.chars().count());
            s.push(' ');
            if right.get(i).copied().unwrap_or(false) {
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            } else {
                s.push_str(c);
                s.push_str(&" ".repeat(pad));
            }
            s.push(' ');
        }
        write_line(&s);
    };
    line(&mut header.iter().copied());
    for row in &escaped {
        line(&mut row.iter().map(String::as_str));
    }
}
