//! Any bytes as a mint report: parse, break down; never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(report) = lane_ledger::parse_report(data) {
        let _ = lane_ledger::from_report("fuzz", &report);
    }
});
