//! TORCH_TRACE logs: windows of a real trace mutated, and lines built to
//! amplify. Every input is measured or refused; the trace reader streams,
//! so its memory stays bounded whatever the log's size.

use proptest::prelude::*;

use crate::{bounds, meter, run_serial, seed};

const TRACE: &str = "h200-torch2.11/trace/dedicated_log_torch_trace_oemv2v3_.log";

fn tokens() -> Vec<Vec<u8>> {
    [
        "\n",
        "\n\n\n",
        "V1201 ",
        "{\"dynamo_start\": {}}",
        "\t",
        "\u{1b}]0;t\u{7}",
        "[[[[",
    ]
    .iter()
    .map(|t| t.as_bytes().to_vec())
    .collect()
}

fn check(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    let len = bytes.len();
    let (answer, _) = lane_fuzz::bounded("trace", len, &bounds(8, 2), &meter(), move || {
        // The options `lane ledger` reads with.
        let options = lane_ledger::TraceOptions::default();
        match lane_ledger::parse_trace(&bytes[..], &options) {
            Ok(m) => serde_json::to_string(&lane_ledger::from_trace("fuzz", &m))
                .map(|_| ())
                .map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        }
    })
    .map_err(TestCaseError::fail)?;
    if let Err(text) = answer {
        prop_assert!(text.contains("line"), "no place named: {text}");
    }
    Ok(())
}

#[test]
fn mutated_real_trace_windows_are_measured_or_refused() {
    let windows = (
        0usize..520_000,
        1usize..60_000,
        lane_fuzz::mutations(tokens(), 6),
    );
    run_serial(windows, |(start, width, ms)| {
        let log = seed(TRACE);
        let start = start.min(log.len());
        let end = (start + width).min(log.len());
        check(lane_fuzz::apply(log[start..end].to_vec(), &ms))
    });
}

#[test]
fn long_and_many_lines_stay_within_bounds() {
    run_serial((0usize..(4 << 20), 0usize..200_000), |(line, lines)| {
        check(format!("V1201 {}\n", "x".repeat(line)).into_bytes())?;
        check("\n".repeat(lines).into_bytes())
    });
}
