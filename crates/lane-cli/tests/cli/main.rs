//! The `lane` binary end to end: exit codes, `--json`, and what a person sees.

mod cut;
mod demo;
mod diff;
mod faults;
mod help;
mod history;
mod html;
mod init;
mod kube;
mod ledger;
mod mint;
mod report;
mod secrets;
#[cfg(feature = "serve")]
mod serve;
mod wheel;

use std::path::Path;
use std::process::{Command, Output};

/// Runs `lane` with `args` in `dir`.
pub fn lane(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(args)
        .current_dir(dir)
        .env_remove("LANE_LOG")
        .env("NO_COLOR", "1")
        .output()
        .expect("the lane binary runs")
}

/// Its exit code.
pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited, not killed")
}

/// Its standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Its standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The repository root.
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
