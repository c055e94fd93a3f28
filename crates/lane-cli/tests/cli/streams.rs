//! Standard output and error that cannot be written: the command still ends
//! with its own documented exit code, never a panic's 101.

use std::process::{Command, Stdio};

use crate::{code, lane, ROOT};

/// `lane ledger` of a file that does not exist, with stderr as given.
fn ledger_missing(stderr: Stdio) -> i32 {
    let status = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(["ledger", "no-such-report.json"])
        .current_dir(ROOT)
        .env_remove("LANE_LOG")
        .stdout(Stdio::null())
        .stderr(stderr)
        .status()
        .expect("the lane binary runs");
    status.code().expect("exited, not killed")
}

#[test]
fn regression_a_full_stderr_exited_101() {
    let expected = code(&lane(ROOT.as_ref(), &["ledger", "no-such-report.json"]));
    assert_ne!(expected, 0, "the command itself fails");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full opens");
    assert_eq!(ledger_missing(Stdio::from(full)), expected);
}

#[test]
fn regression_a_closed_stderr_exited_101() {
    let expected = code(&lane(ROOT.as_ref(), &["ledger", "no-such-report.json"]));
    // A pipe whose reader is gone before lane starts: every write to it
    // fails with EPIPE (`lane ledger x 2>&1 | head -0`).
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    assert_eq!(ledger_missing(Stdio::from(writer)), expected);
}
