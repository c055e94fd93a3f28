//! `lane ledger` and `lane diff` through the binary: exit codes, `--json`,
//! `--fail-on`, and errors that name the file and the JSON path or line.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{code, lane, stderr, stdout, Redact, ROOT};
use serde_json::Value;

fn h200(rel: &str) -> String {
    format!("{ROOT}/tests/data/h200-torch2.11/{rel}")
}

fn gw(rel: &str) -> String {
    format!("{ROOT}/tests/data/gw-0.93.3-h200/{rel}")
}

/// Every real 0.93.3 report, whatever lands under the data folder.
fn real_reports() -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::from(gw(""))];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "report.json") {
                out.push(p.display().to_string());
            }
        }
    }
    out.sort();
    assert!(out.len() >= 4, "{out:?}");
    out
}

fn seed() -> String {
    format!("{ROOT}/tests/data/seed-phase-table/sdxl-w8a8-lora64.L40S.gw0.93.1.report.json")
}

fn json(o: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

fn here() -> PathBuf {
    PathBuf::from(ROOT)
}

#[test]
fn ledger_json_shows_the_partition_and_its_named_residual() {
    let o = lane(&here(), &["ledger", &h200("jit_report.json"), "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    let m = &v["mints"][0];
    assert_eq!(m["ledger"]["kind"], "warm_spans_v1");
    assert_eq!(
        m["compile_partition"]["residual"]["name"],
        "compile_other_s"
    );
    assert!(m["warmup_split"]["compile_s"].is_number());
}

#[test]
fn ledger_text_lists_findings_and_fail_on_turns_them_into_exit_7() {
    let o = lane(&here(), &["ledger", &seed()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    insta::assert_snapshot!("ledger_seed_findings_text", Redact::new().apply(&out));
    assert!(out.contains("warmup_forward holds 97.6 %"), "{out}");
    assert!(out.contains("inductor_compile reads 0.000 s"), "{out}");
    let o = lane(&here(), &["ledger", &seed(), "--fail-on", "warning"]);
    assert_eq!(code(&o), 7);
    let o = lane(&here(), &["ledger", &seed(), "--fail-on", "error"]);
    assert_eq!(code(&o), 0);
}

#[test]
fn ledger_reads_a_trace_directory() {
    let o = lane(&here(), &["ledger", &h200("trace"), "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["mints"][0]["ledger"]["kind"], "trace");
    assert_eq!(v["mints"][0]["trace"]["skipped_lines"], 0);
}

#[test]
fn ledger_counts_garbage_lines_in_a_trace_and_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_dir(h200("trace"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(src).unwrap();
    let mut damaged = String::from("garbage first line\n");
    damaged.push_str(&text);
    damaged.push_str("more garbage\n");
    std::fs::write(dir.path().join("rank0.log"), damaged).unwrap();
    let o = lane(dir.path(), &["ledger", ".", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    let t = &v["mints"][0]["trace"];
    assert_eq!(t["skipped_lines"], 2);
    assert_eq!(t["skipped"][0]["source"], "rank0.log");
    assert_eq!(t["skipped"][0]["line"], 1);
    let o = lane(dir.path(), &["ledger", ".", "--fail-on", "warning"]);
    assert_eq!(code(&o), 7);
}

#[test]
fn invalid_report_exits_3_naming_file_and_json_path() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(h200("jit_report.json")).unwrap();
    let nan = text.replacen("\"warm_compile_s\": 16.445", "\"warm_compile_s\": NaN", 1);
    std::fs::write(dir.path().join("nan.json"), nan).unwrap();
    let o = lane(dir.path(), &["ledger", "nan.json"]);
    assert_eq!(code(&o), 3);
    assert!(
        stderr(&o)
            .contains("nan.json: $.mint_phases.totals.warm_compile_s: NaN is not a measurement"),
        "{}",
        stderr(&o)
    );
    std::fs::write(dir.path().join("cut.json"), &text[..text.len() / 3]).unwrap();
    let o = lane(dir.path(), &["ledger", "cut.json"]);
    assert_eq!(code(&o), 3);
    assert!(
        stderr(&o).contains("cut.json: truncated JSON"),
        "{}",
        stderr(&o)
    );
    let neg = text.replacen("\"lowering_s\": 1.469", "\"lowering_s\": -1.469", 1);
    std::fs::write(dir.path().join("neg.json"), neg).unwrap();
    let o = lane(dir.path(), &["ledger", "neg.json"]);
    assert_eq!(code(&o), 3);
    assert!(
        stderr(&o).contains("$.mint_phases.phases.lowering_s: negative duration"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn one_unreadable_report_never_hides_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let real = std::fs::read_to_string(gw("aot-pair/r1/report.json")).unwrap();
    std::fs::write(dir.path().join("cut.json"), &real[..real.len() / 2]).unwrap();
    std::fs::write(dir.path().join("array.json"), format!("[{real}]")).unwrap();
    std::fs::write(
        dir.path().join("huge.json"),
        real.replacen("\"compile_s\":63.99", "\"compile_s\":1e400", 1),
    )
    .unwrap();
    let r2 = gw("aot-pair/r2/report.json");
    let args = ["ledger", "cut.json", &r2, "array.json", "huge.json"];
    let o = lane(dir.path(), &args);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("mint cut.json\n  ledger unreadable"), "{out}");
    assert!(
        out.contains(&format!("mint {r2}")),
        "the readable mint is shown: {out}"
    );
    assert!(out.contains("aot table: serial path"), "{out}");
    let err = stderr(&o);
    assert!(
        err.contains("cut.json: truncated JSON: the input ends at line 1, column"),
        "{err}"
    );
    assert!(
        err.contains("array.json: $: expected a mint report object, found an array"),
        "{err}"
    );
    assert!(
        err.contains("huge.json: invalid JSON at line 1, column"),
        "{err}"
    );
    assert!(err.contains("number out of range"), "{err}");
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let o = lane(dir.path(), &json_args);
    assert_eq!(code(&o), 3);
    let v = json(&o);
    let mints = v["mints"].as_array().unwrap();
    assert_eq!(mints.len(), 4);
    assert_eq!(mints[0]["ledger"]["kind"], "unreadable");
    assert_eq!(mints[0]["findings"][0]["kind"], "unreadable_report");
    assert_eq!(mints[0]["findings"][0]["severity"], "error");
    assert!(mints[0].get("total_s").is_none());
    assert_eq!(mints[1]["ledger"]["kind"], "aot_table_v1");
}

#[test]
fn every_real_report_reads_with_exit_0() {
    for report in real_reports() {
        let o = lane(&here(), &["ledger", &report]);
        assert_eq!(code(&o), 0, "{report}: {}", stderr(&o));
        let o = lane(
            &here(),
            &["ledger", &report, "--json", "--fail-on", "error"],
        );
        assert_eq!(code(&o), 0, "{report}: {}", stderr(&o));
        let v = json(&o);
        assert_eq!(
            v["mints"][0]["reconciliation"]["checks"]
                .as_array()
                .map(|c| c.iter().all(|c| c["holds"] == true)),
            Some(true),
            "{report}"
        );
    }
}

#[test]
fn real_aot_report_text_shows_typed_totals_partitions_overlays_and_the_pool() {
    let o = lane(&here(), &["ledger", &gw("aot-pair/r1/report.json")]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    insta::assert_snapshot!("ledger_real_aot_text", Redact::new().apply(&out));
    // Each row as the unified text lays it out: its cells in order.
    for row in [
        &["aot table: serial path (K=1: every entry compiled in the mint child)"][..],
        &[
            "export_reuse_eligible",
            "-1 (not determinable: fewer than two rows for any key)",
        ],
        &["entry_workers", " 1 ", "the width K the pool was built at"],
        &["mint partition of total_s = 65.660 s"],
        &[
            "mint_other_s",
            "0.070 s",
            "0.1 %",
            "residual, lane's (the writer names none)",
        ],
        &[
            "compile_other_s",
            "0.335 s",
            "0.5 %",
            "residual, recomputed (the writer wrote none)",
        ],
        &["overlays (nested, never summed)"],
        &["triton_s", "3.335 s", "5.2 %"],
        &["pool: K=1 for 1 entries, binding entries, underwidth 0, ceiling 1, limit 0 (uncapped)"],
        &["why: 1 entry: serial (no cpu/memory/device bound was read"],
        &["available_bytes not read (-1)"],
        &["findings: none"],
    ] {
        let found = out.lines().any(|l| {
            let mut rest = l;
            row.iter().all(|part| match rest.find(part) {
                Some(i) => {
                    rest = &rest[i + part.len()..];
                    true
                }
                None => false,
            })
        });
        assert!(found, "missing {row:?} in\n{out}");
    }
    assert!(!out.contains("reap_lag_s"), "{out}");
    assert!(!out.contains("unknown"), "{out}");
}

#[test]
fn real_aot_report_json_carries_typed_totals_and_the_pool_decision() {
    let o = lane(
        &here(),
        &["ledger", &gw("aot-pair/r1/report.json"), "--json"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("ledger_real_aot_json", Redact::new().json(&stdout(&o)));
    let m = &json(&o)["mints"][0];
    let totals = m["aot"]["totals"].as_array().unwrap();
    let get = |n: &str| totals.iter().find(|t| t["name"] == n).unwrap().clone();
    assert_eq!(get("export_reuse_eligible")["unit"], "code");
    assert_eq!(get("export_reuse_eligible")["value"]["code"], -1);
    assert_eq!(get("entry_workers")["unit"], "count");
    assert_eq!(get("total_s")["unit"], "seconds");
    assert_eq!(m["aot"]["pool"]["decision"]["binding"], "entries");
    assert_eq!(m["aot"]["mint"]["residual"]["name"], "mint_other_s");
    assert_eq!(
        m["entries"][0]["compile"]["residual"]["name"],
        "compile_other_s"
    );
    assert_eq!(m["unknown_keys"].as_array().unwrap().len(), 0);
}

#[test]
fn failure_report_text_quotes_its_detail_and_does_not_believe_the_echo() {
    let o = lane(
        &here(),
        &["ledger", &gw("failures-torch2.11/rig-aot/report.json")],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("detail: AttributeError: torch._inductor.config.cpp.march does not exist"),
        "{out}"
    );
    assert!(
        out.contains("recipe echoed dynamo (not a claim: the report is not minted)"),
        "{out}"
    );
    assert!(!out.contains("recipe dynamo |"), "{out}");
}

#[test]
fn unknown_keys_are_shown_as_values_and_foreign_text_is_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let real: Value =
        serde_json::from_str(&std::fs::read_to_string(gw("aot-pair/r1/report.json")).unwrap())
            .unwrap();
    let mut v = real.clone();
    v["mint_phases"]["totals"]["export_future_sentinel"] = serde_json::json!(-1.0);
    v["detail"] = serde_json::json!("done \u{1b}[31mred\u{1b}[0m\u{7}");
    std::fs::write(dir.path().join("r.json"), serde_json::to_vec(&v).unwrap()).unwrap();
    let o = lane(dir.path(), &["ledger", "r.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("$.mint_phases.totals.export_future_sentinel = -1.0"),
        "{out}"
    );
    assert!(out.contains("detail: done \\u{1b}[31mred"), "{out}");
    assert!(
        !o.stdout.iter().any(|b| *b == 0x1b || *b == 0x07),
        "raw control bytes in {out}"
    );
}

#[test]
fn oversized_report_is_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let f = std::fs::File::create(dir.path().join("huge.json")).unwrap();
    // Sparse: 3 GiB on paper, nothing on disk.
    f.set_len(3 << 30).unwrap();
    let o = lane(dir.path(), &["ledger", "huge.json"]);
    assert_eq!(code(&o), 3);
    assert!(
        stderr(&o).contains("huge.json: report is 3221225472 bytes, above the"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("ledger unreadable"), "{}", stdout(&o));
}

/// Regression: `lane ledger /nonexistent.json` exited 0. A named report
/// that is not there is shown as an absence (never zeros), and the run is
/// invalid (exit 3), whatever `--fail-on` says.
#[test]
fn a_missing_report_is_an_absence_and_the_run_is_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane(dir.path(), &["ledger", "killed-child.json", "--json"]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["mints"][0]["ledger"]["kind"], "missing");
    assert!(v["mints"][0].get("total_s").is_none());
    assert!(
        stderr(&o).contains("killed-child.json: no such file"),
        "{}",
        stderr(&o)
    );
}

/// Regression: `lane ledger /dev/zero` never ended (a device read as an
/// endless trace). A file that is not a regular file is never read.
#[test]
fn a_device_is_refused_not_read_forever() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane(dir.path(), &["ledger", "/dev/zero"]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
}

#[test]
fn a_directory_without_logs_is_invalid_input() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane(dir.path(), &["ledger", "."]);
    assert_eq!(code(&o), 3);
    std::fs::write(dir.path().join("x.log"), "hello\n").unwrap();
    let o = lane(dir.path(), &["ledger", "."]);
    assert_eq!(code(&o), 3);
    assert!(
        stderr(&o).contains("not a TORCH_TRACE log"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn ledger_compares_baseline_and_candidate() {
    let jit = h200("jit_report.json");
    let o = lane(
        &here(),
        &["ledger", "--baseline", &jit, "--candidate", &jit, "--json"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    assert!(v["comparison"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["verdict"] == "noise"));
    let redact = Redact::new();
    insta::assert_snapshot!("ledger_comparison_json", redact.json(&stdout(&o)));
    let o = lane(
        &here(),
        &["ledger", "--baseline", &jit, "--candidate", &jit],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("ledger_comparison_text", redact.apply(&stdout(&o)));
    let o = lane(
        &here(),
        &["ledger", "--baseline", &jit, "--candidate", &seed()],
    );
    assert_eq!(code(&o), 3);
    assert!(
        stderr(&o).contains("refusing to mix ledger versions"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn diff_of_the_h200_pair_names_nine_kernels() {
    let o = lane(&here(), &["diff", &h200("aot_a"), &h200("aot_b"), "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["verdict"], "autotune_configs_only");
    let reference: Value =
        serde_json::from_str(&std::fs::read_to_string(h200("expected-determinism.json")).unwrap())
            .unwrap();
    assert_eq!(
        v["kernels"]["config_differs"],
        reference["kernels_with_config_diffs"]
    );
    let o = lane(&here(), &["diff", &h200("aot_a"), &h200("aot_b")]);
    assert!(stdout(&o).contains("verdict: differs by autotune configs only"));
    let o = lane(
        &here(),
        &[
            "diff",
            &h200("aot_a"),
            &h200("aot_b"),
            "--fail-on",
            "unexplained",
        ],
    );
    assert_eq!(code(&o), 0);
    let o = lane(
        &here(),
        &[
            "diff",
            &h200("aot_a"),
            &h200("aot_b"),
            "--fail-on",
            "autotune-configs-only",
        ],
    );
    assert_eq!(code(&o), 7);
}

/// Zips `dir` under a top folder, the way a `.pt2` archive is laid out.
fn pt2(dir: &Path, top: &str, out: &Path) {
    let file = std::fs::File::create(out).unwrap();
    let mut z = zip::ZipWriter::new(file);
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let mut stack = vec![dir.to_path_buf()];
    let mut files = Vec::new();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    for p in files {
        let rel = p
            .strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        z.start_file(format!("{top}/{rel}"), options).unwrap();
        z.write_all(&std::fs::read(&p).unwrap()).unwrap();
    }
    z.finish().unwrap();
}

#[test]
fn diff_of_pt2_packages_with_best_configs_from_reports() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("cell_a.pt2"), dir.path().join("cell_b.pt2"));
    pt2(Path::new(&h200("aot_a/package")), "cell_a", &a);
    pt2(Path::new(&h200("aot_b/package")), "cell_b", &b);
    let o = lane(
        dir.path(),
        &[
            "diff",
            "cell_a.pt2",
            "cell_b.pt2",
            "--configs-a",
            &h200("aot_a.json"),
            "--configs-b",
            &h200("aot_b.json"),
            "--json",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["verdict"], "autotune_configs_only", "{}", stdout(&o));
    assert_eq!(v["kernels"]["config_differs"].as_array().unwrap().len(), 9);
}

#[test]
fn diff_refuses_bad_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane(dir.path(), &["diff", "nope", "nada"]);
    assert_eq!(code(&o), 3);
    assert!(stderr(&o).contains("nope"), "{}", stderr(&o));
    std::fs::write(dir.path().join("x.pt2"), b"not a zip").unwrap();
    let o = lane(dir.path(), &["diff", "x.pt2", "x.pt2"]);
    assert_eq!(code(&o), 3);
    assert!(
        stderr(&o).contains("x.pt2: not a readable zip archive"),
        "{}",
        stderr(&o)
    );
    // A member that climbs out of the package.
    let file = std::fs::File::create(dir.path().join("evil.pt2")).unwrap();
    let mut z = zip::ZipWriter::new(file);
    z.start_file(
        "top/../../etc/passwd",
        zip::write::SimpleFileOptions::default(),
    )
    .unwrap();
    z.write_all(b"x").unwrap();
    z.finish().unwrap();
    let o = lane(dir.path(), &["diff", "evil.pt2", "evil.pt2"]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let o = lane(
        dir.path(),
        &[
            "diff",
            &h200("aot_a"),
            &h200("aot_b"),
            "--configs-a",
            &seed(),
        ],
    );
    assert_eq!(code(&o), 3);
    assert!(stderr(&o).contains("$.best_configs"), "{}", stderr(&o));
}

/// Regression: `--noise-relative NaN` or `-1` and `--noise-floor-s inf`
/// were accepted, and made every delta noise (or none).
#[test]
fn noise_flags_that_mean_nothing_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let report = format!("{ROOT}/tests/data/gw-0.93.3-h200/aot3-pair/r1/report.json");
    // The report against itself, with noise flags as `FLAG=VALUE` (clap
    // would take `-0.5` alone for a flag).
    let compare = |flags: &[&str]| {
        let mut args = vec!["ledger", "--baseline", &report, "--candidate", &report];
        args.extend_from_slice(flags);
        lane(d.path(), &args)
    };
    for (flag, value) in [
        ("--noise-relative", "NaN"),
        ("--noise-relative", "-1"),
        ("--noise-relative", "inf"),
        ("--noise-floor-s", "inf"),
        ("--noise-floor-s", "-0.5"),
    ] {
        let o = compare(&[&format!("{flag}={value}")]);
        assert_eq!(code(&o), 2, "{flag} {value}: {}", stderr(&o));
        assert!(stderr(&o).contains(value), "{}", stderr(&o));
    }
    let o = compare(&["--noise-relative=0.1", "--noise-floor-s=0"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// Regression: an error's text went to the terminal raw, so a file name
/// carrying an escape sequence (an OSC title, a screen clear) acted on the
/// terminal of whoever ran lane. Every error line is made inert.
#[test]
fn regression_an_error_naming_a_foreign_file_name_prints_no_control_byte() {
    let d = tempfile::tempdir().unwrap();
    let name = "report\u{1b}]0;owned\u{7}\u{1b}[2J.json";
    let o = lane(d.path(), &["ledger", name]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        !err.chars().any(|c| c.is_control() && c != '\n'),
        "a control byte reached stderr: {err:?}"
    );
    assert!(err.contains(r"report\u{1b}]0;owned\u{7}"), "{err}");
}

fn eras(rel: &str) -> String {
    format!("{ROOT}/tests/data/gw-eras/{rel}")
}

#[test]
fn ledger_reads_each_era_with_what_the_upstream_wrote_beside_its_report() {
    let o = lane(
        &here(),
        &[
            "ledger",
            &eras("v0.100.1/r1/rig/mint/report.json"),
            &eras("v0.114.3/r1/rig/mint/report.json"),
            &eras("v0.126.3/r2/rig/mint/report.json"),
            &eras("v0.127.2/r1/verdict.json"),
            "--json",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    let era = |i: usize| v["mints"][i]["era"]["line"].as_str().unwrap().to_owned();
    assert_eq!(
        (0..4).map(era).collect::<Vec<_>>(),
        ["0.95-0.113", "0.114-0.126", "0.114-0.126", "0.127+"]
    );
    // 0.114.3: the share report beside it gives the rows pgw#1356 left out.
    let m = &v["mints"][1];
    assert_eq!(m["aot"]["missing_rows"]["from_shares"], 3);
    assert_eq!(m["entries"].as_array().unwrap().len(), 3);
    // 0.126.3 r2 was not cold; 0.127.2's phases come from its trace/.
    let kinds: Vec<&str> = v["mints"][2]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"not_cold"), "{kinds:?}");
    assert_eq!(
        v["mints"][3]["compile_partition"]["total"]["name"],
        "compile_fx_aot"
    );
    // --fail-on error: r2's not_cold is one.
    let o = lane(
        &here(),
        &[
            "ledger",
            &eras("v0.126.3/r2/rig/mint/report.json"),
            "--fail-on",
            "error",
        ],
    );
    assert_eq!(code(&o), 7, "{}", stderr(&o));
}
