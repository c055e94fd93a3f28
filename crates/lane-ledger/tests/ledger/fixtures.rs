//! Paths to the repository fixtures and loaders that play the CLI's part
//! (walking a directory, hashing, loading content) for tests.

use std::path::{Path, PathBuf};

pub use lane_testkit::data::{files, gw, probe as h200, read};

/// The seed's pre-ledger phase table.
pub const SEED_TABLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/seed-phase-table/sdxl-w8a8-lora64.L40S.gw0.93.1.report.json"
);

/// The real TORCH_TRACE log of run A.
pub fn trace_log() -> Vec<u8> {
    let dir = h200("trace");
    let entry = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "log"))
        .expect("a .log in the trace fixture");
    read(entry)
}

/// Reports written by the upstream's own table builders
/// (`tests/ledger/upstream/write_reports.py`).
pub const UPSTREAM_WRITTEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ledger/upstream");

/// A report written by the upstream's own code.
pub fn upstream(name: &str) -> PathBuf {
    Path::new(UPSTREAM_WRITTEN).join(name)
}

/// Every `report.json` under the real 0.93.3 data, whatever lands there.
pub fn real_reports() -> Vec<PathBuf> {
    let mut all = files(&gw(""));
    all.retain(|p| p.file_name().is_some_and(|n| n == "report.json"));
    assert!(
        all.len() >= 4,
        "the real 0.93.3 reports are missing: {all:?}"
    );
    all
}

/// The reports the upstream's own code wrote here.
pub fn upstream_reports() -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(UPSTREAM_WRITTEN)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    all.sort();
    all
}
