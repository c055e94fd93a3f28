//! The real 0.93.3 reports (`tests/data/gw-0.93.3-h200`) and the reports the
//! upstream's own table builders wrote (`tests/ledger/upstream`): every one
//! parses, every partition reconciles, no residual is invented.

use super::fixtures::*;
use lane_ledger::breakdown::{AotPath, LedgerKind, MINT_OTHER, POOL_UNBOOKED, PROCESS_OTHER};
use lane_ledger::partition::{tolerance, Partition};
use lane_ledger::report::{EntryShape, FactValue, Recipe};
use lane_ledger::{from_report, parse_report, FindingKind, MintBreakdown, Severity};
use serde_json::{json, Value};

fn breakdown(path: &std::path::Path) -> MintBreakdown {
    let bytes = read(path);
    let report = parse_report(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    from_report(&path.display().to_string(), &report)
}

fn breakdown_of(v: &Value) -> MintBreakdown {
    from_report(
        "test",
        &parse_report(&serde_json::to_vec(v).unwrap()).unwrap(),
    )
}

fn value(path: &std::path::Path) -> Value {
    serde_json::from_slice(&read(path)).unwrap()
}

fn r1() -> std::path::PathBuf {
    gw("aot-pair/r1/report.json")
}

fn kinds(b: &MintBreakdown) -> Vec<FindingKind> {
    b.findings.iter().map(|f| f.kind).collect()
}

/// `members + residual = total`, exactly as lane recomputed it.
fn assert_closes(p: &Partition) {
    assert_eq!(
        p.residual.seconds,
        p.total.seconds - p.members_sum(),
        "{p:#?}"
    );
}

#[test]
fn every_real_and_upstream_written_report_parses_and_reconciles() {
    for path in real_reports().into_iter().chain(upstream_reports()) {
        let b = breakdown(&path);
        assert!(
            b.reconciliation.holds(),
            "{}: {:#?}",
            path.display(),
            b.reconciliation
        );
        let errors: Vec<_> = b
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
        for e in &b.entries {
            e.levels()
                .into_iter()
                .filter_map(|(_, p)| p)
                .for_each(assert_closes);
        }
        if let Some(a) = &b.aot {
            a.mint.iter().chain(a.levels.iter()).for_each(assert_closes);
        }
    }
}

#[test]
fn real_aot_report_no_longer_fails_on_export_reuse_eligible_minus_one() {
    // Regression: `$.mint_phases.totals.export_reuse_eligible: negative
    // duration -1 s` made `lane ledger` exit 3 on the real aot report.
    let b = breakdown(&r1());
    let totals = &b.aot.as_ref().unwrap().totals;
    let get = |n: &str| &totals.iter().find(|t| t.fact.name == n).unwrap().fact.value;
    assert!(
        matches!(get("export_reuse_eligible"), FactValue::Code { code: -1, meaning } if meaning.starts_with("not determinable"))
    );
    assert_eq!(get("canonicalized_entries"), &FactValue::Count(0));
    assert_eq!(get("entry_workers"), &FactValue::Count(1));
    assert_eq!(get("total_s"), &FactValue::Seconds(65.66));
    assert!(b.unknown_keys.is_empty(), "{:?}", b.unknown_keys);
}

#[test]
fn serial_entry_residual_is_compile_other_s_never_reap_lag_s() {
    // Regression: lane put 100 % of every serial entry's compile_s into an
    // invented `reap_lag_s` and warned that an unnamed phase was growing.
    for rel in ["aot-pair/r1/report.json", "aot-pair/r2/report.json"] {
        let v = value(&gw(rel));
        let b = breakdown(&gw(rel));
        assert_eq!(b.aot.as_ref().unwrap().path, AotPath::Serial);
        let (name, entry) = v["mint_phases"]["entries"]
            .as_object()
            .unwrap()
            .iter()
            .next()
            .unwrap();
        let phases = &entry["phases"];
        let e = &b.entries[0];
        assert_eq!(&e.name, name);
        assert_eq!(e.shape, EntryShape::Serial);
        let p = e.compile.as_ref().unwrap();
        assert_eq!(p.total.seconds, entry["compile_s"].as_f64().unwrap());
        assert_eq!(p.residual.name, "compile_other_s");
        assert_eq!(
            p.residual.reported_s, None,
            "the serial writer writes no residual"
        );
        let four = [
            "lowering_s",
            "codegen_s",
            "host_compile_s",
            "graph_passes_s",
        ]
        .iter()
        .map(|k| phases[k].as_f64().unwrap())
        .fold(0.0, |a, v| a + v);
        let expected = entry["compile_s"].as_f64().unwrap() - four;
        assert!(
            (p.residual.seconds - expected).abs() < 1e-9,
            "{} vs {expected}",
            p.residual.seconds
        );
        assert!(p.residual.seconds >= 0.0 && p.residual.seconds < 0.01 * p.total.seconds);
        // triton_s nests inside the members: beside, never summed.
        assert!(p.members.iter().all(|m| m.name != "triton_s"));
        let triton = e.overlays.iter().find(|o| o.name == "triton_s").unwrap();
        assert_eq!(triton.seconds, phases["triton_s"].as_f64().unwrap());
        assert!(e.child_wall.is_none() && e.compile_wall.is_none());
        let text = serde_json::to_string(&b).unwrap();
        assert!(
            !text.contains("reap_lag_s"),
            "a serial table has no reap_lag_s"
        );
        assert!(!kinds(&b).contains(&FindingKind::ResidualAboveThreshold));
    }
}

#[test]
fn real_aot_mint_partition_names_its_residual() {
    let v = value(&r1());
    let t = &v["mint_phases"]["totals"];
    let b = breakdown(&r1());
    let m = b.aot.as_ref().unwrap().mint.as_ref().unwrap();
    assert_eq!(m.total.seconds, t["total_s"].as_f64().unwrap());
    let names: Vec<&str> = m.members.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        names,
        ["export_s", "warm_s", "compile_s", "package_s", "declare_s"]
    );
    assert_eq!(m.residual.name, MINT_OTHER);
    let sum: f64 = names
        .iter()
        .map(|n| t[*n].as_f64().unwrap())
        .fold(0.0, |a, v| a + v);
    assert_eq!(m.residual.seconds, t["total_s"].as_f64().unwrap() - sum);
    // pack_s is measured after the table is built: never in a finished one.
    assert!(t.get("pack_s").is_none());
}

#[test]
fn real_pool_decision_is_read_not_buried_in_unknown_keys() {
    let v = value(&r1());
    let pool = &v["mint_phases"]["pool"];
    let b = breakdown(&r1());
    let d = &b.aot.as_ref().unwrap().pool.as_ref().unwrap().decision;
    assert_eq!(d.entry_workers, pool["entry_workers"].as_u64());
    assert_eq!(d.binding.as_deref(), pool["binding"].as_str());
    assert_eq!(d.width_reason.as_deref(), pool["width_reason"].as_str());
    assert_eq!(d.underwidth, Some(0));
    assert_eq!(d.ceiling, Some(1));
    let available = d
        .inputs
        .iter()
        .find(|f| f.name == "available_bytes")
        .unwrap();
    assert_eq!(
        available.value,
        FactValue::NotRead,
        "-1 is the writer's 'not read'"
    );
    assert!(b
        .unknown_keys
        .iter()
        .all(|u| !u.path.as_str().contains(".pool.")));
    assert!(!kinds(&b).contains(&FindingKind::PoolUnderwidth));
}

#[test]
fn real_failure_reports_carry_their_detail_and_their_echo_is_not_believed() {
    for rel in [
        "failures-torch2.11/rig-aot/report.json",
        "failures-torch2.11/rig-dynamo/report.json",
    ] {
        let v = value(&gw(rel));
        let b = breakdown(&gw(rel));
        assert_eq!(b.detail.as_deref(), v["detail"].as_str());
        assert!(b.detail.as_deref().unwrap().starts_with("AttributeError: "));
        assert_eq!(b.phase, None, "an empty phase is absent");
        assert_eq!(
            b.recipe_echo,
            Some(lane_ledger::report::Named::Known(Recipe::Dynamo))
        );
        assert_eq!(b.recipe, None, "a failed report's echo is not a claim");
        assert_eq!(b.ledger, LedgerKind::PhasesOnly);
        let k = kinds(&b);
        assert!(k.contains(&FindingKind::RecipeEchoNotBelieved));
        assert!(!k.contains(&FindingKind::RecipeLedgerMismatch));
        assert!(
            !k.contains(&FindingKind::NoCompileSplit),
            "not believed to be dynamo"
        );
        let not_minted = b
            .findings
            .iter()
            .find(|f| f.kind == FindingKind::MintNotMinted)
            .unwrap();
        assert!(
            not_minted.message.contains(v["detail"].as_str().unwrap()),
            "{}",
            not_minted.message
        );
        // A failed job keeps its seconds.
        assert_eq!(b.total_s, v["elapsed_s"].as_f64());
    }
}

#[test]
fn recipe_mismatch_is_believed_only_from_a_minted_report() {
    let mut v = value(&r1());
    v["recipe"] = json!("dynamo");
    assert!(kinds(&breakdown_of(&v)).contains(&FindingKind::RecipeLedgerMismatch));
    v["status"] = json!("refused");
    let b = breakdown_of(&v);
    assert!(!kinds(&b).contains(&FindingKind::RecipeLedgerMismatch));
    assert!(kinds(&b).contains(&FindingKind::RecipeEchoNotBelieved));
    assert_eq!(
        b.recipe,
        Some(Recipe::Aot),
        "the table's own shape says aot"
    );
}

#[test]
fn pooled_entries_have_three_nested_partitions_reconciled_with_the_childs_residuals() {
    let path = upstream("pooled-3-entry.report.json");
    let v = value(&path);
    let b = breakdown(&path);
    assert_eq!(b.aot.as_ref().unwrap().path, AotPath::Pooled);
    assert_eq!(b.entries.len(), 3);
    for e in &b.entries {
        let phases = &v["mint_phases"]["entries"][&e.name]["phases"];
        assert_eq!(e.shape, EntryShape::Pooled);
        let l1 = e.compile.as_ref().unwrap();
        assert_eq!(l1.residual.name, PROCESS_OTHER);
        assert!(l1.residual.seconds.abs() <= tolerance(l1.total.seconds));
        let l2 = e.child_wall.as_ref().unwrap();
        assert_eq!(l2.residual.name, "child_other_s");
        assert_eq!(l2.residual.reported_s, phases["child_other_s"].as_f64());
        let l3 = e.compile_wall.as_ref().unwrap();
        assert_eq!(l3.residual.name, "compile_other_s");
        assert_eq!(l3.residual.reported_s, phases["compile_other_s"].as_f64());
        for p in [l1, l2, l3] {
            assert_closes(p);
            assert!(p.unobserved.is_empty(), "{p:#?}");
        }
        // Sub-spans and the child's overlays are beside, never members.
        let overlay: Vec<&str> = e.overlays.iter().map(|o| o.name.as_str()).collect();
        for k in [
            "child_interp_s",
            "parent_stage_s",
            "parent_spawn_s",
            "triton_s",
            "inductor_total_s",
        ] {
            assert!(overlay.contains(&k), "{k} not shown: {overlay:?}");
            assert!(
                [l1, l2, l3].iter().all(|p| p.member(k).is_none()),
                "{k} summed"
            );
        }
    }
    assert!(b
        .reconciliation
        .checks
        .iter()
        .any(|c| c.what.contains("child_other_s")));
}

#[test]
fn pooled_mint_partition_shows_the_k_wide_compile_beside_it_never_in_it() {
    let path = upstream("pooled-3-entry.report.json");
    let v = value(&path);
    let b = breakdown(&path);
    let a = b.aot.as_ref().unwrap();
    let m = a.mint.as_ref().unwrap();
    assert!(m.member("compile_s").is_none());
    assert_eq!(
        m.member("pool_wall_s"),
        v["mint_phases"]["pool"]["pool_wall_s"].as_f64()
    );
    assert_eq!(
        m.member("export_all_s"),
        v["mint_phases"]["totals"]["export_all_s"].as_f64()
    );
    assert!(m.residual.seconds >= 0.0 && m.residual.share.unwrap() < 0.01);
    let compile = a
        .beside_mint
        .iter()
        .find(|o| o.name == "compile_s")
        .unwrap();
    assert!(compile.exceeds_total, "3 entries compiled side by side");
    let cap = a.pool.as_ref().unwrap().capacity.as_ref().unwrap();
    assert_eq!(cap.residual.name, POOL_UNBOOKED);
    assert!(cap.residual.seconds.abs() <= tolerance(cap.total.seconds));
    let d = &a.pool.as_ref().unwrap().decision;
    assert_eq!(d.entry_workers, Some(3));
    assert!(d.width_reason.as_deref().unwrap().starts_with("K=3"));
}

#[test]
fn aborted_pooled_table_keeps_its_seconds_and_says_where_it_stopped() {
    let path = upstream("pooled-aborted.report.json");
    let v = value(&path);
    let b = breakdown(&path);
    let a = b.aot.as_ref().unwrap();
    assert_eq!(a.partial.terminus.as_deref(), Some("aborted"));
    let at = a.partial.at.as_ref().unwrap();
    assert_eq!(at.phase.as_deref(), Some("inductor_compile"));
    assert_eq!((at.step, at.total), (Some(0), Some(3)));
    assert!(kinds(&b).contains(&FindingKind::PartialTable));
    let m = a.mint.as_ref().unwrap();
    assert_eq!(
        m.total.seconds,
        v["mint_phases"]["totals"]["total_s"].as_f64().unwrap()
    );
    assert!(
        m.unobserved.contains(&"package_s".to_owned()),
        "not reached, not zero"
    );
    // The pool booked only the child it reaped; the torn-down siblings are
    // its capacity's residual, named, not an error.
    let pool = &v["mint_phases"]["pool"];
    let cap = a.pool.as_ref().unwrap().capacity.as_ref().unwrap();
    assert_closes(cap);
    assert!(cap.residual.seconds > 0.5 * cap.total.seconds);
    assert_eq!(cap.member("pool_busy_s"), pool["pool_busy_s"].as_f64());
    let failed: Vec<&str> = b
        .entries
        .iter()
        .filter(|e| e.failed)
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(failed, [pool["oom_entry"].as_str().unwrap()]);
    assert_eq!(
        b.recipe_echo,
        Some(lane_ledger::report::Named::Known(Recipe::Dynamo))
    );
    assert_eq!(b.recipe, Some(Recipe::Aot));
    assert!(b.detail.as_deref().unwrap().contains("SIGKILL"));
}

#[test]
fn upstream_warm_ledger_partitions_compile_and_splits_every_job() {
    let path = upstream("warm-ledger.report.json");
    let v = value(&path);
    let b = breakdown(&path);
    assert_eq!(b.ledger, LedgerKind::WarmSpansV1);
    let p = b.compile_partition.as_ref().unwrap();
    assert_eq!(
        p.total.seconds,
        v["mint_phases"]["totals"]["warm_compile_s"]
            .as_f64()
            .unwrap()
    );
    assert_eq!(
        p.residual.reported_s,
        v["mint_phases"]["phases"]["compile_other_s"].as_f64()
    );
    assert!(
        (p.residual.seconds - p.residual.reported_s.unwrap()).abs() <= tolerance(p.total.seconds)
    );
    let jobs = v["mint_phases"]["jobs"].as_array().unwrap();
    let per_job = b
        .reconciliation
        .checks
        .iter()
        .filter(|c| c.what.ends_with("execute_s = wall_s - compile_s"))
        .count();
    assert_eq!(per_job, jobs.len());
    assert!(b
        .overlays
        .iter()
        .any(|o| o.name == "parallel_kernel_cpu_s" && o.exceeds_total));
}

#[test]
fn an_unknown_negative_total_is_a_value_never_seconds_never_fatal() {
    let mut v = value(&r1());
    v["mint_phases"]["totals"]["export_reuse_future_s"] = json!(-1.0);
    v["mint_phases"]["pool"]["new_bound"] = json!({"a": -3});
    let b = breakdown_of(&v);
    let row = b
        .aot
        .as_ref()
        .unwrap()
        .totals
        .iter()
        .find(|t| t.fact.name == "export_reuse_future_s")
        .unwrap();
    assert_eq!(row.fact.value, FactValue::Unknown(json!(-1.0)));
    let paths: Vec<&str> = b.unknown_keys.iter().map(|u| u.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "$.mint_phases.totals.export_reuse_future_s",
            "$.mint_phases.pool.new_bound"
        ]
    );
    let values: Vec<&Value> = b.unknown_keys.iter().map(|u| &u.value).collect();
    assert_eq!(values, [&json!(-1.0), &json!({"a": -3})]);
    // The mint partition is untouched by it.
    assert_eq!(
        b.aot.as_ref().unwrap().mint,
        breakdown(&r1()).aot.unwrap().mint
    );
}

#[test]
fn a_known_sentinel_outside_its_vocabulary_is_refused_by_path() {
    let mut v = value(&r1());
    v["mint_phases"]["totals"]["export_reuse_eligible"] = json!(2.0);
    let err = parse_report(&serde_json::to_vec(&v).unwrap()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "$.mint_phases.totals.export_reuse_eligible: 2 is not 1 (yes), 0 (no) or -1 (not determinable)"
    );
}

#[test]
fn a_pooled_residual_that_disagrees_with_the_childs_is_a_reconciliation_error() {
    let path = upstream("pooled-3-entry.report.json");
    let mut v = value(&path);
    v["mint_phases"]["entries"]["unet/B=2"]["phases"]["child_other_s"] = json!(2.5);
    let b = breakdown_of(&v);
    let f = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::ReconciliationMismatch)
        .expect("a mismatch finding");
    assert_eq!(f.severity, Severity::Error);
    assert!(
        f.message.contains("entry unet/B=2: reported child_other_s"),
        "{}",
        f.message
    );
}

#[test]
fn an_underwidth_pool_is_named_with_its_binding() {
    let path = upstream("pooled-3-entry.report.json");
    let mut v = value(&path);
    v["mint_phases"]["pool"]["underwidth"] = json!(2);
    v["mint_phases"]["pool"]["binding"] = json!("vram");
    let b = breakdown_of(&v);
    let f = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::PoolUnderwidth)
        .unwrap();
    assert_eq!(f.severity, Severity::Warning);
    assert!(
        f.message.contains("2 worker(s) narrower") && f.message.contains("held by vram"),
        "{}",
        f.message
    );
}

/// The breakdown keeps foreign text raw for the renderers to escape
/// (lane-render's tests check its output); its own findings carry none.
#[test]
fn foreign_text_is_kept_raw_and_kept_out_of_findings() {
    let mut v = value(&gw("failures-torch2.11/rig-aot/report.json"));
    let hostile = "AttributeError: \u{1b}[2J\u{1b}]0;pwned\u{7}\nnext line \u{9b}31m";
    v["detail"] = json!(hostile);
    v["phase"] = json!("load\u{202e}");
    let b = breakdown_of(&v);
    assert_eq!(b.detail.as_deref(), Some(hostile));
    for f in &b.findings {
        assert!(
            !f.message.chars().any(|c| c.is_control()),
            "{:?}",
            f.message
        );
    }
}

#[test]
fn an_unreadable_report_becomes_a_row_with_one_error_finding() {
    let bytes = read(r1());
    let err = parse_report(&bytes[..bytes.len() / 2]).unwrap_err();
    let b = MintBreakdown::unreadable("rig-aot/H200/r1", &err.to_string());
    assert!(!b.measured());
    assert_eq!(b.total_s, None);
    assert!(b.phases.is_empty() && b.entries.is_empty() && b.aot.is_none());
    assert_eq!(b.findings.len(), 1);
    let f = &b.findings[0];
    assert_eq!(f.kind, FindingKind::UnreadableReport);
    assert_eq!(f.severity, Severity::Error);
    assert!(
        f.message.contains("truncated JSON: the input ends at line"),
        "{}",
        f.message
    );
    let json = serde_json::to_value(&b).unwrap();
    assert_eq!(json["ledger"]["kind"], "unreadable");
    assert!(json.get("total_s").is_none());
    let b = MintBreakdown::unreadable(
        "x",
        "$.mint_phases.totals.total_s: NaN is not a measurement\u{1b}[0m",
    );
    assert!(!b.findings[0].message.contains('\u{1b}'));
}

#[test]
fn three_class_aot_mint_sums_its_serial_entries_and_says_why_the_pool_stayed_serial() {
    for r in ["r1", "r2"] {
        let path = gw(&format!("aot3-pair/{r}/report.json"));
        let v = value(&path);
        let b = breakdown(&path);
        let a = b.aot.as_ref().unwrap();
        assert_eq!(a.path, AotPath::Serial);
        assert_eq!(b.entries.len(), 3);
        assert!(b.entries.iter().all(|e| e.shape == EntryShape::Serial));
        // The entries' level, summed: its total is totals.compile_s.
        let sum = &a.levels[0];
        assert!(
            (sum.total.seconds - v["mint_phases"]["totals"]["compile_s"].as_f64().unwrap()).abs()
                <= tolerance(sum.total.seconds)
        );
        assert_eq!(sum.residual.name, "compile_other_s");
        let per_entry: f64 = b
            .entries
            .iter()
            .map(|e| e.compile.as_ref().unwrap().residual.seconds)
            .sum();
        assert!((sum.residual.seconds - per_entry).abs() < 1e-9);
        // The table's own sums agree with the entries'.
        assert!(b
            .reconciliation
            .checks
            .iter()
            .any(|c| c.what == "phases.host_compile_s = sum over entries"));
        // The pool's decision: serial for want of the benchmark lock.
        let pool = &v["mint_phases"]["pool"];
        let d = &a.pool.as_ref().unwrap().decision;
        assert_eq!(d.binding.as_deref(), Some("device-lock"));
        assert_eq!(d.underwidth, pool["underwidth"].as_u64());
        assert!(d
            .width_reason
            .as_deref()
            .unwrap()
            .contains("no GPU-benchmark lock hook"));
        let f = b
            .findings
            .iter()
            .find(|f| f.kind == FindingKind::PoolUnderwidth)
            .unwrap();
        assert_eq!(f.severity, Severity::Warning);
        assert!(
            f.message.contains(
                "2 worker(s) narrower than this cell could use (K=1 of 3), held by device-lock"
            ),
            "{}",
            f.message
        );
        let samples = d
            .inputs
            .iter()
            .find(|f| f.name == "free_device_samples")
            .unwrap();
        assert!(matches!(&samples.value, FactValue::BytesList(s) if s.len() == 3));
    }
}

#[test]
fn real_dynamo_pair_warm_ledger_reconciles_and_splits_its_job() {
    for r in ["r1", "r2"] {
        let path = gw(&format!("dynamo-pair/{r}/report.json"));
        let v = value(&path);
        let b = breakdown(&path);
        assert_eq!(b.ledger, LedgerKind::WarmSpansV1);
        assert_eq!(b.recipe, Some(Recipe::Dynamo));
        let t = &v["mint_phases"]["totals"];
        let p = b.compile_partition.as_ref().unwrap();
        assert_eq!(p.total.seconds, t["warm_compile_s"].as_f64().unwrap());
        assert_eq!(p.residual.name, "compile_other_s");
        assert!(
            (p.residual.seconds - p.residual.reported_s.unwrap()).abs()
                <= tolerance(p.total.seconds)
        );
        let split = b.warmup_split.as_ref().unwrap();
        assert_eq!(split.compile_s, t["warm_compile_s"].as_f64());
        assert_eq!(split.execute_s, t["warm_execute_s"].as_f64());
        assert!(b.overlays.iter().all(|o| p.member(&o.name).is_none()));
        assert!(b.reconciliation.holds(), "{:#?}", b.reconciliation);
        assert!(b.unknown_keys.is_empty(), "{:?}", b.unknown_keys);
    }
}

#[test]
fn cubin_gate_failure_keeps_its_seconds_and_quotes_its_bounded_detail() {
    let path = gw("h200-run-unshimmed-gw/results/rig-dynamo/H200/r1/report.json");
    let v = value(&path);
    let b = breakdown(&path);
    assert_eq!(b.status.as_ref().map(|s| s.as_str()), Some("failed"));
    assert_eq!(b.detail.as_deref(), v["detail"].as_str());
    assert_eq!(b.total_s, v["elapsed_s"].as_f64());
    let f = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::MintNotMinted)
        .unwrap();
    assert!(
        f.message.contains("cubin-completeness gate (pgw#698)"),
        "{}",
        f.message
    );
    let detail_chars = v["detail"].as_str().unwrap().chars().count();
    assert!(detail_chars > 400);
    assert!(
        f.message
            .contains(&format!("({} more characters)", detail_chars - 400)),
        "{}",
        f.message
    );
}
