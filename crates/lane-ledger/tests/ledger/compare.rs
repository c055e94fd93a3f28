//! Baseline against candidate, with the noise rule.

use super::fixtures::*;
use lane_ledger::compare::{DeltaVerdict, NoiseRule};
use lane_ledger::{compare, from_report, parse_report, CompareError, MintBreakdown};
use serde_json::{json, Value};

fn jit_value() -> Value {
    serde_json::from_slice(&read(h200("jit_report.json"))).unwrap()
}

fn mint(v: &Value) -> MintBreakdown {
    from_report("m", &parse_report(&serde_json::to_vec(v).unwrap()).unwrap())
}

/// The jit report with warmup_forward and the warm ledger's compile scaled.
fn scaled(factor: f64) -> Value {
    let mut v = jit_value();
    let w = v["phases"]["warmup_forward"].as_f64().unwrap();
    v["phases"]["warmup_forward"] = json!(w * factor);
    v
}

fn row<'a>(
    c: &'a lane_ledger::Comparison,
    group: &str,
    name: &str,
) -> &'a lane_ledger::compare::DeltaRow {
    c.rows
        .iter()
        .find(|r| r.group == group && r.name == name)
        .unwrap()
}

#[test]
fn a_mint_against_itself_is_all_noise() {
    let m = mint(&jit_value());
    let c = compare(
        std::slice::from_ref(&m),
        std::slice::from_ref(&m),
        &NoiseRule::default(),
    )
    .unwrap();
    assert!(c
        .rows
        .iter()
        .all(|r| r.verdict == DeltaVerdict::Noise && r.delta_s == Some(0.0)));
    assert_eq!(c.same_cell, Some(true));
}

#[test]
fn a_real_slowdown_beyond_the_rule_is_slower() {
    let base = mint(&jit_value());
    let cand = mint(&scaled(1.5));
    let c = compare(&[base], &[cand], &NoiseRule::default()).unwrap();
    let r = row(&c, "phase", "warmup_forward");
    assert_eq!(r.verdict, DeltaVerdict::Slower);
    let b = r.baseline_s.unwrap();
    assert_eq!(r.delta_s, Some(b * 1.5 - b));
    assert_eq!(r.threshold_s, Some((0.05 * b).max(1.0)));
    // Rows the change did not touch stay noise.
    assert_eq!(row(&c, "phase", "load").verdict, DeltaVerdict::Noise);
}

#[test]
fn a_delta_under_the_floor_is_noise() {
    let base = mint(&jit_value());
    let cand = mint(&scaled(1.03));
    let c = compare(&[base], &[cand], &NoiseRule::default()).unwrap();
    assert_eq!(
        row(&c, "phase", "warmup_forward").verdict,
        DeltaVerdict::Noise
    );
}

#[test]
fn repeats_use_welchs_test() {
    let base: Vec<MintBreakdown> = [1.0, 1.01, 0.99]
        .iter()
        .map(|f| mint(&scaled(*f)))
        .collect();
    let wide: Vec<MintBreakdown> = [0.6, 1.6, 1.3].iter().map(|f| mint(&scaled(*f))).collect();
    let c = compare(&base, &wide, &NoiseRule::default()).unwrap();
    let r = row(&c, "phase", "warmup_forward");
    let t = r.test.expect("both sides repeat");
    // The mean moved past the threshold, but the spread says it may be chance.
    assert!(r.delta_s.unwrap().abs() > r.threshold_s.unwrap());
    assert!(!t.rejects_same_mean);
    assert_eq!(r.verdict, DeltaVerdict::Noise);
    let tight: Vec<MintBreakdown> = [1.3, 1.31, 1.29]
        .iter()
        .map(|f| mint(&scaled(*f)))
        .collect();
    let c = compare(&base, &tight, &NoiseRule::default()).unwrap();
    assert_eq!(
        row(&c, "phase", "warmup_forward").verdict,
        DeltaVerdict::Slower
    );
}

#[test]
fn mixing_ledger_versions_is_refused() {
    let warm = mint(&jit_value());
    let seed = from_report("seed", &parse_report(&read(SEED_TABLE)).unwrap());
    let err = compare(&[warm], &[seed], &NoiseRule::default()).unwrap_err();
    assert!(
        matches!(err, CompareError::MixedLedgerVersions { .. }),
        "{err}"
    );
}

#[test]
fn a_side_with_only_missing_reports_is_refused() {
    let warm = mint(&jit_value());
    let missing = MintBreakdown::missing("x.json", "file not found");
    let err = compare(
        std::slice::from_ref(&warm),
        std::slice::from_ref(&missing),
        &NoiseRule::default(),
    )
    .unwrap_err();
    assert!(matches!(err, CompareError::EmptySide { side: "candidate" }));
    // A missing repeat beside a present one is counted, not averaged as zero.
    let c = compare(
        std::slice::from_ref(&warm),
        &[warm.clone(), missing],
        &NoiseRule::default(),
    )
    .unwrap();
    assert_eq!(c.candidate.missing, 1);
    assert_eq!(row(&c, "total", "total").candidate_n, 1);
}

#[test]
fn a_row_measured_on_one_side_only_is_named() {
    let base = mint(&jit_value());
    let mut v = jit_value();
    v["phases"]["cache_warm"] = json!(12.0);
    let cand = mint(&v);
    let c = compare(&[base], &[cand], &NoiseRule::default()).unwrap();
    assert_eq!(
        row(&c, "phase", "cache_warm").verdict,
        DeltaVerdict::OnlyCandidate
    );
}
