//! Snapshot tests of rendered text output.

use super::fixtures::*;
use lane_ledger::render;

#[test]
fn explore() {
    for f in ["jit_report.json", "aot_a.json"] {
        let r = lane_ledger::parse_report(&read(h200(f))).unwrap();
        let b = lane_ledger::from_report(f, &r);
        println!("{}", render::render_breakdown(&b));
    }
    let r = lane_ledger::parse_report(&read(SEED_TABLE)).unwrap();
    println!(
        "{}",
        render::render_breakdown(&lane_ledger::from_report("seed", &r))
    );
    let t = lane_ledger::parse_trace(&trace_log()[..], &Default::default()).unwrap();
    println!(
        "{}",
        render::render_breakdown(&lane_ledger::from_trace("trace", &t))
    );
    let (a, b) = h200_trees();
    let d = lane_ledger::diff_trees(&a, &b).unwrap();
    println!("{}", render::render_determinism(&d));
}
