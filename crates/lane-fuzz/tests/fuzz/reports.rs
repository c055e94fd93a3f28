//! Mint reports: the upstream's real reports (the H200 runs of 0.93.3 and
//! of each later era, its compile verdict and the compile pool's share
//! reports, the torch-2.11 failures) mutated, and JSON built to amplify. Every input
//! reads, or is refused with a line and column or a JSON path; the ledger
//! of what reads never panics either.

use proptest::prelude::*;

use crate::{bounds, meter, run_serial, seed};

const REAL: [&str; 10] = [
    "gw-eras/v0.100.1/r1/rig/mint/report.json",
    "gw-eras/v0.114.3/r1/rig/mint/report.json",
    "gw-eras/v0.126.3/r2/rig/mint/report.json",
    "gw-eras/v0.127.2/r1/verdict.json",
    "gw-0.93.3-h200/aot-pair/r1/report.json",
    "gw-0.93.3-h200/aot-pair/r2/report.json",
    "gw-0.93.3-h200/failures-torch2.11/rig-aot/report.json",
    "gw-0.93.3-h200/failures-torch2.11/rig-dynamo/report.json",
    "gw-0.93.3-h200/h200-run/results/rig-aot/H200/r1/report.json",
    "gw-0.93.3-h200/h200-run/results/rig-dynamo/H200/r1/report.json",
];

fn tokens() -> Vec<Vec<u8>> {
    [
        "NaN",
        "-Infinity",
        "-1",
        "1e400",
        "-1e308",
        "\"x\"",
        "null",
        "[[[[",
        "}",
        ",",
        "\u{feff}",
        "\"\\u001b[2J\"",
        "\"phase\": 1,",
        "\"status\": \"minted\",",
        "0.0",
    ]
    .iter()
    .map(|t| t.as_bytes().to_vec())
    .collect()
}

/// Whether a report error names where: a line and column, a JSON path,
/// or the whole input's size.
fn names_a_place(text: &str) -> bool {
    text.contains("line ") || text.starts_with('$') || text.contains("-byte cap")
}

fn check(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    bounded_read("report", bytes, |bytes| {
        let r = lane_ledger::parse_report(&bytes).map_err(|e| e.to_string())?;
        let b = lane_ledger::from_report("fuzz", &r);
        serde_json::to_string(&b)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
}

/// Reads `bytes` with `read` within the suite's bounds: it reads, or its
/// refusal names a place.
fn bounded_read(
    what: &'static str,
    bytes: Vec<u8>,
    read: impl FnOnce(Vec<u8>) -> Result<(), String> + Send + 'static,
) -> Result<(), TestCaseError> {
    let len = bytes.len();
    let (answer, _) = lane_fuzz::bounded(what, len, &bounds(8, 4), &meter(), move || read(bytes))
        .map_err(TestCaseError::fail)?;
    if let Err(text) = answer {
        prop_assert!(names_a_place(&text), "no place named: {text}");
    }
    Ok(())
}

#[test]
fn mutated_real_reports_read_or_are_refused_at_a_place() {
    let reports = (0usize..REAL.len(), lane_fuzz::mutations(tokens(), 4));
    run_serial(reports, |(which, ms)| {
        check(lane_fuzz::apply(seed(REAL[which]), &ms))
    });
}

/// The compile pool's share reports (0.114.3-0.126), read beside the
/// 0.114.3 report whose table lists no entry (their classes become its rows).
const SHARES: [&str; 2] = [
    "gw-eras/v0.114.3/r1/rig/mint/compile-pool/share-000/report.json",
    "gw-eras/v0.126.3/r1/rig/mint/compile-pool/share-000/report.json",
];

#[test]
fn mutated_share_reports_read_or_are_refused_at_a_place() {
    let report = lane_ledger::parse_report(&seed(REAL[1])).expect("the real 0.114.3 report reads");
    let shares = (0usize..SHARES.len(), lane_fuzz::mutations(tokens(), 4));
    run_serial(shares, |(which, ms)| {
        let report = report.clone();
        bounded_read(
            "share report",
            lane_fuzz::apply(seed(SHARES[which]), &ms),
            move |bytes| {
                let share = lane_ledger::parse_share_report(&bytes).map_err(|e| e.to_string())?;
                let shares = [("share-000".to_owned(), share)];
                let beside = lane_ledger::Beside {
                    shares: &shares,
                    trace: None,
                    packages: &[],
                };
                let b = lane_ledger::from_report_beside("fuzz", &report, beside);
                serde_json::to_string(&b)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            },
        )
    });
}

#[test]
fn amplifying_json_is_refused_within_its_bounds() {
    let sizes = (0usize..300_000, 0usize..50_000, 0usize..(4 << 20));
    run_serial(sizes, |(depth, keys, string)| {
        check(format!("{{\"phases\": {}{}}}", "[".repeat(depth), "]".repeat(depth)).into_bytes())?;
        let many: Vec<String> = (0..keys).map(|i| format!("\"k{}\": {i}", i % 7)).collect();
        check(format!("{{{}}}", many.join(",")).into_bytes())?;
        check(format!("{{\"detail\": \"{}\"}}", "\\u0041".repeat(string / 6)).into_bytes())
    });
}
