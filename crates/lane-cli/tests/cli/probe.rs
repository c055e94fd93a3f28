//! The probe mint's real H200 run (`tests/data/h200-probe/`, made by
//! `examples/probe-mint/device-run.sh`: `lane mint lanes/probe.yaml`, two cold
//! repeats per recipe, torch 2.11.0+cu130): every slot reads through
//! `lane ledger`, the dynamo mints split compile from execute, and the AOT
//! pair's determinism verdict is the one observed on the card.

use std::path::PathBuf;

use super::{code, lane, stderr, stdout, ROOT};
use serde_json::Value;

const CELLS: [(&str, &str); 2] = [("probe-dynamo", "dynamo"), ("probe-aot", "aot")];

fn results() -> PathBuf {
    PathBuf::from(format!("{ROOT}/tests/data/h200-probe/results"))
}

fn slot(cell: &str, r: u32) -> PathBuf {
    results().join(cell).join("H200").join(format!("r{r}"))
}

fn json_of(o: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

fn read(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_probe_slot_reads_through_lane_ledger() {
    for (cell, recipe) in CELLS {
        for r in [1, 2] {
            let report = slot(cell, r).join("report.json");
            let o = lane(&results(), &["ledger", report.to_str().unwrap(), "--json"]);
            assert_eq!(code(&o), 0, "{cell} r{r}: {}", stderr(&o));
            let m = &json_of(&o)["mints"][0];
            assert_eq!(m["recipe"], recipe, "{cell} r{r}");
            let record = read(slot(cell, r).join("mint.json"));
            assert_eq!(record["recipe"], recipe);
            assert_eq!(record["replay"], false);
            // The text form renders too.
            let o = lane(&results(), &["ledger", report.to_str().unwrap()]);
            assert_eq!(code(&o), 0, "{cell} r{r}: {}", stderr(&o));
        }
    }
}

#[test]
fn the_dynamo_probe_splits_warm_compile_from_execute() {
    for r in [1, 2] {
        let report = slot("probe-dynamo", r).join("report.json");
        let o = lane(&results(), &["ledger", report.to_str().unwrap(), "--json"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let m = &json_of(&o)["mints"][0];
        assert_eq!(m["ledger"]["kind"], "warm_spans_v1");
        assert_eq!(m["status"], "minted");
        let split = &m["warmup_split"];
        let compile = split["compile_s"].as_f64().expect("compile seconds");
        let execute = split["execute_s"].as_f64().expect("execute seconds");
        // Cold caches: most of the warm wall is compile, and some is execute.
        assert!(compile > execute && execute > 0.0, "{split}");
        let o = lane(&results(), &["ledger", report.to_str().unwrap()]);
        let text = stdout(&o);
        assert!(text.contains("compile (warm ledger)"), "{text}");
        assert!(text.contains("execute"), "{text}");
        assert!(text.contains("compile_other_s"), "{text}");
        // Job 4 repeats job 1's shape and compiles nothing.
        assert!(text.contains("b1_32_again"), "{text}");
        assert!(text.contains("compiled nothing"), "{text}");
    }
}

#[test]
fn the_aot_probe_keeps_its_table_and_names_why_it_failed() {
    for r in [1, 2] {
        let path = slot("probe-aot", r).join("report.json");
        let report = read(path.clone());
        // Observed on the H200: the compile sealed a package, and loading it
        // back in a fresh process died by SIGSEGV inside torch's load_pt2.
        assert_eq!(report["status"], "failed");
        assert_eq!(report["phase"], "warmup_forward");
        let detail = report["detail"].as_str().unwrap();
        assert!(detail.contains("died by signal 11"), "{detail}");
        assert!(detail.contains("load_pt2"), "{detail}");
        let o = lane(&results(), &["ledger", path.to_str().unwrap(), "--json"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let m = &json_of(&o)["mints"][0];
        assert_eq!(m["ledger"]["kind"], "aot_table_v1");
        assert_eq!(m["status"], "failed");
        let checks = m["reconciliation"]["checks"].as_array().unwrap();
        assert!(!checks.is_empty());
        assert!(checks.iter().all(|c| c["holds"] == true), "{checks:?}");
        let o = lane(&results(), &["ledger", path.to_str().unwrap()]);
        let text = stdout(&o);
        assert!(text.contains("entry b2_48"), "{text}");
        assert!(text.contains("host_compile_s"), "{text}");
    }
}

#[test]
fn the_aot_pair_differs_by_autotune_configs_only() {
    let a = slot("probe-aot", 1).join("artifacts");
    let b = slot("probe-aot", 2).join("artifacts");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let o = lane(&results(), &["diff", a, b, "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json_of(&o);
    assert_eq!(v["verdict"], "autotune_configs_only");
    let differs: Vec<&str> = v["kernels"]["config_differs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    // What this pair showed: 7 of 11 kernels chose different configs.
    assert_eq!(differs.len(), 7, "{differs:?}");
    assert!(differs.contains(&"triton_poi_fused_convolution_native_group_norm_silu_5"));
    let o = lane(&results(), &["diff", a, b]);
    assert!(stdout(&o).contains("verdict: differs by autotune configs only"));
    assert!(stdout(&o).contains("unexplained: none"));
}

#[test]
fn the_probe_summary_is_real_and_not_green() {
    let summary = read(results().join("summary.json"));
    assert_eq!(summary["lane"], "0.0.0");
    // Real compiles, not a replay of recorded bundles.
    assert_eq!(summary["replay"], false);
    // Not green: both AOT mints failed their warm forward (the load crash).
    assert_eq!(summary["green"], false);
    let mints = summary["mints"].as_array().unwrap();
    assert_eq!(mints.len(), 4);
    for m in mints {
        let slot = m["slot"].as_str().unwrap();
        let want = if slot.contains("probe-dynamo") {
            "minted"
        } else {
            "failed"
        };
        assert_eq!(m["status"], want, "{slot}");
        assert!(m["wall_s"].as_f64().unwrap() > 1.0, "{slot}");
    }
}

#[test]
fn the_probe_lane_file_plans_two_cold_repeats_per_recipe() {
    let o = lane(
        &PathBuf::from(ROOT),
        &["mint", "lanes/probe.yaml", "--dry-run", "--json"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json_of(&o);
    let mints: Vec<&str> = v["mints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(mints.len(), 4, "{mints:?}");
    for cell in ["probe-dynamo", "probe-aot"] {
        for r in ["r1", "r2"] {
            assert!(
                mints.iter().any(|m| m.contains(cell) && m.contains(r)),
                "{cell} {r}: {mints:?}"
            );
        }
    }
}
