//! The results files lane writes and reads back (`summary.json`,
//! `mint.json`) from the real H200 run, mutated: each reads through its
//! one type, or is refused naming the file, the JSON path and the line.

use lane_core::results::Contract;
use proptest::prelude::*;

use crate::{bounds, meter, run_serial, seed};

const SUMMARY: &str = "gw-0.93.3-h200/h200-run/results/summary.json";
const MINT: &str = "gw-0.93.3-h200/h200-run/results/rig-aot/H200/r1/mint.json";

fn tokens() -> Vec<Vec<u8>> {
    [
        "NaN",
        "-1",
        "1e400",
        "\"x\"",
        "null",
        "[",
        "}",
        "\"status\": \"planned\",",
        "true",
    ]
    .iter()
    .map(|t| t.as_bytes().to_vec())
    .collect()
}

fn check<T: Contract + Send + 'static>(
    file: &'static str,
    bytes: Vec<u8>,
) -> Result<(), TestCaseError> {
    let len = bytes.len();
    let (answer, _) = lane_fuzz::bounded(file, len, &bounds(4, 8), &meter(), move || {
        T::from_json(file, &bytes)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .map_err(TestCaseError::fail)?;
    if let Err(text) = answer {
        prop_assert!(text.contains(file), "the file is not named: {text}");
        prop_assert!(text.contains("line "), "no line: {text}");
    }
    Ok(())
}

#[test]
fn mutated_results_files_read_or_are_refused_at_a_place() {
    run_serial(lane_fuzz::mutations(tokens(), 4), |ms| {
        check::<lane_core::Summary>("summary.json", lane_fuzz::apply(seed(SUMMARY), &ms))?;
        check::<lane_core::MintRecord>("mint.json", lane_fuzz::apply(seed(MINT), &ms))
    });
}
