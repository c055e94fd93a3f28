//! Reports of both recipes, old and new, read honestly.

use super::fixtures::*;
use lane_ledger::breakdown::LedgerKind;
use lane_ledger::partition::tolerance;
use lane_ledger::report::MintLedger;
use lane_ledger::{from_report, parse_report, FindingKind, MintBreakdown, Severity};
use serde_json::{json, Value};

fn jit_value() -> Value {
    serde_json::from_slice(&read(h200("jit_report.json"))).unwrap()
}

fn breakdown_of(v: &Value) -> MintBreakdown {
    let bytes = serde_json::to_vec(v).unwrap();
    from_report("test", &parse_report(&bytes).unwrap())
}

fn kinds(b: &MintBreakdown) -> Vec<FindingKind> {
    b.findings.iter().map(|f| f.kind).collect()
}

#[test]
fn jit_report_partition_reconciles_with_its_named_residual() {
    let v = jit_value();
    let b = breakdown_of(&v);
    assert_eq!(b.ledger, LedgerKind::WarmSpansV1);
    let p = b
        .compile_partition
        .as_ref()
        .expect("warm ledger has a compile partition");
    let total = v["mint_phases"]["totals"]["warm_compile_s"]
        .as_f64()
        .unwrap();
    assert_eq!(p.total.seconds, total);
    // The residual is recomputed, and agrees with what the report wrote.
    let members: f64 = p.members.iter().map(|m| m.seconds).sum();
    assert_eq!(p.residual.seconds, total - members);
    let reported = v["mint_phases"]["phases"]["compile_other_s"]
        .as_f64()
        .unwrap();
    assert_eq!(p.residual.reported_s, Some(reported));
    assert!((p.residual.seconds - reported).abs() <= tolerance(total));
    assert!(b.reconciliation.holds(), "{:#?}", b.reconciliation);
    // The residual is not a member.
    assert!(p.members.iter().all(|m| m.name != "compile_other_s"));
}

#[test]
fn jit_report_overlays_are_beside_the_partition_never_in_it() {
    let v = jit_value();
    let b = breakdown_of(&v);
    let p = b.compile_partition.as_ref().unwrap();
    let overlay_names: Vec<&str> = b.overlays.iter().map(|o| o.name.as_str()).collect();
    let written: Vec<String> = v["mint_phases"]["overlays"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(overlay_names.len(), written.len());
    for o in &overlay_names {
        assert!(
            p.members.iter().all(|m| m.name != *o),
            "{o} summed into the partition"
        );
    }
    // aot_dispatch_s nests around nearly all of the compile; summing it
    // would overshoot the total.
    let aot = b
        .overlays
        .iter()
        .find(|o| o.name == "aot_dispatch_s")
        .unwrap();
    assert!(p.members_sum() + aot.seconds > p.total.seconds);
}

#[test]
fn jit_report_splits_warmup_forward_into_compile_and_execute() {
    let v = jit_value();
    let b = breakdown_of(&v);
    let s = b.warmup_split.as_ref().unwrap();
    let t = &v["mint_phases"]["totals"];
    assert_eq!(s.compile_s, t["warm_compile_s"].as_f64());
    assert_eq!(s.execute_s, t["warm_execute_s"].as_f64());
    let phase = v["phases"]["warmup_forward"].as_f64().unwrap();
    let wall = t["warm_wall_s"].as_f64().unwrap();
    assert_eq!(s.outside_ledger_s, Some(phase - wall));
    let expected = t["warm_compile_s"].as_f64().unwrap() / wall;
    assert_eq!(b.compile_fraction, Some(expected));
    assert!((expected - t["compile_fraction"].as_f64().unwrap()).abs() < 5e-4);
}

#[test]
fn jit_report_marks_the_job_that_compiled_nothing() {
    let v = jit_value();
    let b = breakdown_of(&v);
    let written = v["mint_phases"]["jobs"].as_array().unwrap();
    assert_eq!(b.jobs.len(), written.len());
    let idle: Vec<&str> = written
        .iter()
        .filter(|j| j["compile_s"].as_f64().unwrap() <= 0.5)
        .map(|j| j["job"].as_str().unwrap())
        .collect();
    let marked: Vec<&str> = b
        .jobs
        .iter()
        .filter(|j| j.compiled_nothing == Some(true))
        .map(|j| j.warm.job.as_str())
        .collect();
    assert_eq!(marked, idle);
    assert!(!idle.is_empty());
    assert!(kinds(&b).contains(&FindingKind::JobCompiledNothing));
}

#[test]
fn jit_report_key_set_reconciles_on_its_torch() {
    let b = breakdown_of(&jit_value());
    let k = b.key_set.as_ref().expect("raw_metrics present");
    assert!(k.holds, "{k:#?}");
    assert_eq!(k.rows[0].keys, ["_compile.compile_inner"]);
    assert!(
        !b.findings.iter().any(|f| f.severity == Severity::Error),
        "{:#?}",
        b.findings
    );
}

#[test]
fn key_set_fails_loudly_when_torch_renames_the_total_key() {
    let mut v = jit_value();
    let raw = v["raw_metrics"].as_object_mut().unwrap();
    let total = raw.remove("_compile.compile_inner").unwrap();
    raw.insert("_compile.compile_inner_v2".into(), total);
    let b = breakdown_of(&v);
    assert!(!b.key_set.as_ref().unwrap().holds);
    let f = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::KeySetDoesNotReconcile)
        .expect("key set finding");
    assert_eq!(f.severity, Severity::Error);
    assert!(
        f.message.contains("_compile.compile_inner"),
        "{}",
        f.message
    );
}

#[test]
fn key_set_fails_when_a_member_moves_to_a_renamed_key() {
    let mut v = jit_value();
    let raw = v["raw_metrics"].as_object_mut().unwrap();
    let codegen = raw.remove("GraphLowering.codegen").unwrap();
    raw.insert("GraphLowering.codegen_and_compile".into(), codegen);
    let b = breakdown_of(&v);
    let failing: Vec<&str> = b
        .key_set
        .as_ref()
        .unwrap()
        .rows
        .iter()
        .filter(|r| !r.holds)
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(failing, ["codegen_s"]);
}

#[test]
fn seed_table_yields_dominant_phase_and_compile_named_zero() {
    let bytes = read(SEED_TABLE);
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    let b = from_report("seed", &parse_report(&bytes).unwrap());
    assert_eq!(b.ledger, LedgerKind::PhasesOnly);
    let dominant = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::DominantPhase)
        .expect("dominant phase finding");
    assert_eq!(dominant.subject.as_deref(), Some("warmup_forward"));
    let share = v["phases"]["warmup_forward"].as_f64().unwrap() / v["elapsed_s"].as_f64().unwrap();
    assert!(share > 0.9);
    assert_eq!(dominant.share, Some(share));
    assert_eq!(dominant.severity, Severity::Warning);
    let zero = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::CompileNamedZero)
        .expect("compile-named-zero finding");
    assert_eq!(zero.subject.as_deref(), Some("inductor_compile"));
    assert_eq!(zero.seconds, v["phases"]["inductor_compile"].as_f64());
    assert!(kinds(&b).contains(&FindingKind::NoCompileSplit));
    // Nothing is invented: no split, no partition, no fraction.
    assert!(
        b.warmup_split.is_none() && b.compile_partition.is_none() && b.compile_fraction.is_none()
    );
}

#[test]
fn router_drain_reading_zero_is_not_a_compile_named_zero() {
    // pgw#989 renamed the drain frame; the fixed report must not be flagged.
    let b = breakdown_of(&jit_value());
    assert!(!kinds(&b).contains(&FindingKind::CompileNamedZero));
    assert!(!kinds(&b).contains(&FindingKind::NoCompileSplit));
}

#[test]
fn aot_compile_record_partition_and_key_set() {
    let bytes = read(h200("aot_a.json"));
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    let r = parse_report(&bytes).unwrap();
    assert!(matches!(r.ledger, MintLedger::AotCompileRecord(_)));
    assert!(r.unknown_keys.is_empty(), "{:?}", r.unknown_keys);
    let b = from_report("aot_a.json", &r);
    let p = b.compile_partition.as_ref().unwrap();
    assert_eq!(p.total.seconds, v["compile_wall_s"].as_f64().unwrap());
    let host = v["partition"]["host_compile_s"].as_f64().unwrap();
    assert_eq!(p.member("host_compile_s"), Some(host));
    assert!(b.key_set.as_ref().unwrap().holds);
    assert!(b.reconciliation.holds());
    // compile_wall_s dominates the record, but its partition breaks it down.
    let d = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::DominantPhase)
        .unwrap();
    assert_eq!(d.severity, Severity::Info);
}

#[test]
fn negative_residual_is_reported_never_clamped() {
    let mut v = jit_value();
    // Nesting changed: codegen now also contains the kernel compile wait.
    let kc = v["mint_phases"]["phases"]["kernel_compile_s"]
        .as_f64()
        .unwrap();
    let cg = v["mint_phases"]["phases"]["codegen_s"].as_f64().unwrap();
    v["mint_phases"]["phases"]["codegen_s"] = json!(cg + kc);
    let b = breakdown_of(&v);
    let p = b.compile_partition.as_ref().unwrap();
    assert!(p.residual.seconds < 0.0);
    assert_eq!(p.residual.seconds, p.total.seconds - p.members_sum());
    let f = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::NegativeResidual)
        .unwrap();
    assert_eq!(f.severity, Severity::Error);
    assert_eq!(f.seconds, Some(p.residual.seconds));
}

#[test]
fn residual_above_threshold_is_flagged() {
    let mut v = jit_value();
    v["mint_phases"]["phases"]["kernel_compile_s"] = json!(0.5);
    v["mint_phases"]["phases"]
        .as_object_mut()
        .unwrap()
        .remove("compile_other_s");
    let b = breakdown_of(&v);
    assert!(kinds(&b).contains(&FindingKind::ResidualAboveThreshold));
}

#[test]
fn job_whose_telemetry_failed_keeps_its_wall_and_its_compile_is_absent() {
    // `WarmLedger.job`'s except branch writes `{"job", "wall_s"}` only: the
    // forward ran (its seconds are kept) and its compile was not measured
    // (absent, not zero). It is not a failed job: a job's own exception
    // fails the mint.
    let mut v = jit_value();
    let job = &mut v["mint_phases"]["jobs"][2];
    let wall = job["wall_s"].as_f64().unwrap();
    job.as_object_mut().unwrap().remove("compile_s");
    job.as_object_mut().unwrap().remove("execute_s");
    let b = breakdown_of(&v);
    let row = &b.jobs[2];
    assert!(!row.warm.failed);
    assert_eq!(row.warm.wall_s, Some(wall));
    assert_eq!(row.warm.compile_s, None);
    assert_eq!(row.compiled_nothing, None);
    assert!(!kinds(&b).contains(&FindingKind::FailedJob));
    // The wall still reconciles; the compile sum is not checked over a hole.
    assert!(b
        .reconciliation
        .checks
        .iter()
        .any(|c| c.what.contains("sum of job wall_s")));
    assert!(!b
        .reconciliation
        .checks
        .iter()
        .any(|c| c.what.contains("sum of job compile_s")));
}

#[test]
fn unmeasurable_wall_omits_compile_fraction() {
    let mut v = jit_value();
    let totals = v["mint_phases"]["totals"].as_object_mut().unwrap();
    totals.remove("warm_wall_s");
    totals.remove("compile_fraction");
    totals.remove("warm_execute_s");
    let b = breakdown_of(&v);
    assert_eq!(b.compile_fraction, None);
    let json = serde_json::to_value(&b).unwrap();
    assert!(json.get("compile_fraction").is_none(), "omitted, not zero");
    assert!(json["warmup_split"].get("wall_s").is_none());
}

#[test]
fn unknown_keys_are_tolerated_and_reported() {
    let mut v = jit_value();
    v["gpu_clock_mhz"] = json!(1980);
    v["mint_phases"]["totals"]["warm_gpu_idle_s"] = json!(0.25);
    let b = breakdown_of(&v);
    let paths: Vec<&str> = b.unknown_keys.iter().map(|u| u.path.as_str()).collect();
    assert!(paths.contains(&"$.gpu_clock_mhz"));
    assert!(paths.contains(&"$.mint_phases.totals.warm_gpu_idle_s"));
    let f = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::UnknownKeys)
        .unwrap();
    assert_eq!(f.severity, Severity::Info);
    assert!(f.message.contains("$.gpu_clock_mhz"));
}

#[test]
fn unknown_and_mixed_ledger_versions_are_refused_not_guessed() {
    let mut v = jit_value();
    v["mint_phases"]["spans_v"] = json!(2);
    let b = breakdown_of(&v);
    assert!(matches!(b.ledger, LedgerKind::Unknown { .. }));
    assert!(b.compile_partition.is_none());
    assert!(kinds(&b).contains(&FindingKind::UnknownLedgerVersion));
    v["mint_phases"]["spans_v"] = json!(1);
    v["mint_phases"]["v"] = json!(1);
    let b = breakdown_of(&v);
    assert!(matches!(b.ledger, LedgerKind::Mixed { .. }));
    assert!(kinds(&b).contains(&FindingKind::MixedLedgerVersions));
}

#[test]
fn missing_report_is_absence_never_zeros() {
    let b = MintBreakdown::missing("mint-7.json", "file not found");
    assert_eq!(b.total_s, None);
    assert!(b.phases.is_empty());
    assert_eq!(b.findings[0].kind, FindingKind::MissingReport);
    assert_eq!(b.findings[0].severity, Severity::Error);
    let json = serde_json::to_value(&b).unwrap();
    assert!(json.get("total_s").is_none());
    assert!(json.get("compile_fraction").is_none());
}
