//! Snapshot tests of rendered text output (`cargo insta review` to update).

use super::fixtures::*;
use lane_ledger::render::{render_breakdown, render_comparison, render_determinism};
use lane_ledger::{compare, from_report, from_trace, parse_report, parse_trace, NoiseRule};

fn report(label: &str, bytes: &[u8]) -> lane_ledger::MintBreakdown {
    from_report(label, &parse_report(bytes).unwrap())
}

#[test]
fn render_jit_report() {
    insta::assert_snapshot!(render_breakdown(&report(
        "jit_report.json",
        &read(h200("jit_report.json"))
    )));
}

#[test]
fn render_seed_phase_table() {
    insta::assert_snapshot!(render_breakdown(&report(
        "seed.report.json",
        &read(SEED_TABLE)
    )));
}

#[test]
fn render_aot_compile_record() {
    insta::assert_snapshot!(render_breakdown(&report(
        "aot_a.json",
        &read(h200("aot_a.json"))
    )));
}

#[test]
fn render_trace() {
    let m = parse_trace(&trace_log()[..], &Default::default()).unwrap();
    insta::assert_snapshot!(render_breakdown(&from_trace("trace", &m)));
}

#[test]
fn render_missing_report() {
    insta::assert_snapshot!(render_breakdown(&lane_ledger::MintBreakdown::missing(
        "mint-3.json",
        "file not found"
    )));
}

#[test]
fn render_h200_determinism() {
    let (a, b) = h200_trees();
    insta::assert_snapshot!(render_determinism(
        &lane_ledger::diff_trees(&a, &b).unwrap()
    ));
}

#[test]
fn render_comparison_of_jit_against_itself() {
    let m = report("jit_report.json", &read(h200("jit_report.json")));
    let c = compare(
        std::slice::from_ref(&m),
        std::slice::from_ref(&m),
        &NoiseRule::default(),
    )
    .unwrap();
    insta::assert_snapshot!(render_comparison(&c));
}

#[test]
fn render_real_aot_report() {
    // Labelled by its place in the repository, so the snapshot is the same
    // wherever the tree is checked out.
    insta::assert_snapshot!(render_breakdown(&report(
        "gw-0.93.3-h200/aot-pair/r1/report.json",
        &read(gw("aot-pair/r1/report.json"))
    )));
}

#[test]
fn render_real_failure_report() {
    insta::assert_snapshot!(render_breakdown(&report(
        "gw-0.93.3-h200/failures-torch2.11/rig-aot/report.json",
        &read(gw("failures-torch2.11/rig-aot/report.json"))
    )));
}

#[test]
fn render_upstream_written_pooled_report() {
    insta::assert_snapshot!(render_breakdown(&report(
        "upstream/pooled-3-entry.report.json",
        &read(upstream("pooled-3-entry.report.json"))
    )));
}

#[test]
fn render_upstream_written_aborted_report() {
    insta::assert_snapshot!(render_breakdown(&report(
        "upstream/pooled-aborted.report.json",
        &read(upstream("pooled-aborted.report.json"))
    )));
}

#[test]
fn render_unreadable_report() {
    let bytes = read(gw("aot-pair/r1/report.json"));
    let err = parse_report(&bytes[..700]).unwrap_err();
    insta::assert_snapshot!(render_breakdown(&lane_ledger::MintBreakdown::unreadable(
        "rig-aot/H200/r1",
        &err.to_string()
    )));
}

#[test]
fn render_real_dynamo_report() {
    insta::assert_snapshot!(render_breakdown(&report(
        "gw-0.93.3-h200/dynamo-pair/r1/report.json",
        &read(gw("dynamo-pair/r1/report.json"))
    )));
}

#[test]
fn render_real_three_class_aot_report() {
    insta::assert_snapshot!(render_breakdown(&report(
        "gw-0.93.3-h200/aot3-pair/r1/report.json",
        &read(gw("aot3-pair/r1/report.json"))
    )));
}
