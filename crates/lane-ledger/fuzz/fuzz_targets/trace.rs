//! Any bytes as a TORCH_TRACE log, read through a small buffer so lines
//! straddle reads: parse, break down; never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let options = lane_ledger::TraceOptions {
        max_line_bytes: 4096,
        max_payload_bytes: 4096,
        ..Default::default()
    };
    let reader = std::io::BufReader::with_capacity(7, data);
    if let Ok(metrics) = lane_ledger::parse_trace(reader, &options) {
        let _ = lane_ledger::from_trace("fuzz", &metrics);
    }
});
