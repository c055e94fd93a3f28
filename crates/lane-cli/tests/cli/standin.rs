//! The probe lanes minted through `lane mint` on an H100 standing in for
//! their H200 class (`mint.stand_in`; `tests/data/gw-h100`,
//! `examples/gw-mint/h100-device-run.sh`): both cold pairs are proven cold
//! and differ by autotune configs only, and every output names the card.

use super::{code, lane, report_with_history, stderr, stdout, ROOT};
use serde_json::Value;
use std::path::PathBuf;

fn here() -> PathBuf {
    PathBuf::from(ROOT)
}

const H100: &str = "tests/data/gw-h100";

fn pair(tag: &str, cell: &str) -> Value {
    let slot = |r: &str| format!("{H100}/{tag}/results/{cell}/H200/{r}");
    let o = lane(&here(), &["diff", &slot("r1"), &slot("r2"), "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// Each attempt had its own `/tmp`, caches and home: the paths lane gave
/// it are the first thing the diff makes equal (triton's `cuda_utils.so`
/// embeds the attempt's TMPDIR), and what is left are autotune configs.
#[test]
fn the_h100_cold_pairs_are_proven_cold_and_differ_by_configs_only() {
    for (tag, cell) in [("v0.93.3", "rig-dynamo"), ("v0.127.2", "compile-toy")] {
        let v = pair(tag, cell);
        assert_eq!(
            v["verdict"], "autotune_configs_only",
            "{tag}: {}",
            v["summary"]
        );
        for side in ["a", "b"] {
            assert_eq!(
                v["coldness"][side]["cold"], "proven",
                "{tag}: {}",
                v["coldness"]
            );
        }
    }
}

#[test]
fn a_stand_in_card_is_named_on_the_first_screen_and_in_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let o = report_with_history(dir.path(), "0.0.0", &format!("{H100}/v0.93.3/results"));
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("Can this lane ship? Cannot tell: green, 4 of 4 minted"),
        "{text}"
    );
    assert!(
        text.contains(
            "rig-dynamo on H200 r1: ran on NVIDIA H100 80GB HBM3, standing in for its GPU class (mint.stand_in): its numbers are that card's"
        ),
        "{text}"
    );
    let md = std::fs::read_to_string(dir.path().join("out/lanes/0.0.0/report.md")).unwrap();
    // The history keeps the stand-in's series apart, and the repro mints
    // the class.
    assert!(
        md.contains("| rig-dynamo on H200 on NVIDIA H100 80GB HBM3 total |"),
        "{md}"
    );
    assert!(
        md.contains("lane mint 0.0.0 --cell rig-dynamo --gpu H200;"),
        "{md}"
    );
    assert!(
        md.contains("--gpu &#39;H200 on NVIDIA H100 80GB HBM3&#39;"),
        "{md}"
    );
}
