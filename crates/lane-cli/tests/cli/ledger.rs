//! `lane ledger` and `lane diff` through the binary: exit codes, `--json`,
//! `--fail-on`, and errors that name the file and the JSON path or line.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{code, lane, stderr, stdout, ROOT};
use serde_json::Value;

fn h200(rel: &str) -> String {
    format!("{ROOT}/tests/data/h200-torch2.11/{rel}")
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
}

#[test]
fn missing_report_is_an_absence_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane(dir.path(), &["ledger", "killed-child.json", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["mints"][0]["ledger"]["kind"], "missing");
    assert!(v["mints"][0].get("total_s").is_none());
    let o = lane(
        dir.path(),
        &["ledger", "killed-child.json", "--fail-on", "error"],
    );
    assert_eq!(code(&o), 7);
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
