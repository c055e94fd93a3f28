//! The terminal text of `lane ledger`, `lane diff` and comparisons:
//! snapshots on the real reports (the upstream's own writers' and the H200
//! mints'), and no foreign control byte in any of it.

use lane_diff::{diff_trees, ArtifactFile, ArtifactTree};
use lane_ledger::{compare, from_trace, parse_report, parse_trace, MintBreakdown, NoiseRule};
use lane_render::text::{render_breakdown, render_comparison, render_determinism};
use lane_render::{html, render_comment, RenderOptions};
use serde_json::{json, Value};

use super::real::{diff_sources, in_order, Single};
use super::{mint, ROOT};

fn gw(rel: &str) -> String {
    format!("gw-0.93.3-h200/{rel}")
}

/// A report the upstream's own table builders wrote (lane-ledger's tests
/// keep them, with the script that writes them).
fn upstream(name: &str) -> MintBreakdown {
    mint(
        &format!("../../crates/lane-ledger/tests/ledger/upstream/{name}"),
        &format!("upstream/{name}"),
    )
}

fn value(rel: &str) -> Value {
    serde_json::from_slice(&std::fs::read(format!("{ROOT}/tests/data/{rel}")).unwrap()).unwrap()
}

fn breakdown_of(label: &str, v: &Value) -> MintBreakdown {
    lane_ledger::from_report(
        label,
        &parse_report(&serde_json::to_vec(v).unwrap()).unwrap(),
    )
}

#[test]
fn render_jit_report() {
    insta::assert_snapshot!(render_breakdown(&mint(
        "h200-torch2.11/jit_report.json",
        "jit_report.json"
    )));
}

#[test]
fn render_seed_phase_table() {
    insta::assert_snapshot!(render_breakdown(&mint(
        "seed-phase-table/sdxl-w8a8-lora64.L40S.gw0.93.1.report.json",
        "seed.report.json"
    )));
}

#[test]
fn render_aot_compile_record() {
    insta::assert_snapshot!(render_breakdown(&mint(
        "h200-torch2.11/aot_a.json",
        "aot_a.json"
    )));
}

#[test]
fn render_trace() {
    let dir = format!("{ROOT}/tests/data/h200-torch2.11/trace");
    let log = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "log"))
        .expect("a .log in the trace fixture");
    let m = parse_trace(&std::fs::read(log).unwrap()[..], &Default::default()).unwrap();
    insta::assert_snapshot!(render_breakdown(&from_trace("trace", &m)));
}

#[test]
fn render_missing_report() {
    insta::assert_snapshot!(render_breakdown(&MintBreakdown::missing(
        "mint-3.json",
        "file not found"
    )));
}

#[test]
fn render_comparison_of_jit_against_itself() {
    let m = mint("h200-torch2.11/jit_report.json", "jit_report.json");
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
    insta::assert_snapshot!(render_breakdown(&mint(
        &gw("aot-pair/r1/report.json"),
        "gw-0.93.3-h200/aot-pair/r1/report.json"
    )));
}

#[test]
fn render_real_failure_report() {
    insta::assert_snapshot!(render_breakdown(&mint(
        &gw("failures-torch2.11/rig-aot/report.json"),
        "gw-0.93.3-h200/failures-torch2.11/rig-aot/report.json"
    )));
}

#[test]
fn render_real_dynamo_report() {
    insta::assert_snapshot!(render_breakdown(&mint(
        &gw("dynamo-pair/r1/report.json"),
        "gw-0.93.3-h200/dynamo-pair/r1/report.json"
    )));
}

#[test]
fn render_real_three_class_aot_report() {
    insta::assert_snapshot!(render_breakdown(&mint(
        &gw("aot3-pair/r1/report.json"),
        "gw-0.93.3-h200/aot3-pair/r1/report.json"
    )));
}

#[test]
fn render_upstream_written_pooled_report() {
    insta::assert_snapshot!(render_breakdown(&upstream("pooled-3-entry.report.json")));
}

#[test]
fn render_upstream_written_aborted_report() {
    insta::assert_snapshot!(render_breakdown(&upstream("pooled-aborted.report.json")));
}

#[test]
fn render_unreadable_report() {
    let bytes = std::fs::read(format!(
        "{ROOT}/tests/data/{}",
        gw("aot-pair/r1/report.json")
    ))
    .unwrap();
    let err = parse_report(&bytes[..700]).unwrap_err();
    insta::assert_snapshot!(render_breakdown(&MintBreakdown::unreadable(
        "rig-aot/H200/r1",
        &err.to_string()
    )));
}

fn aot_pair_diff() -> String {
    let side = |r: &str| {
        Single(
            format!(
                "{ROOT}/tests/data/{}",
                gw(&format!("aot-pair/{r}/cell.tar.gz"))
            )
            .into(),
        )
    };
    render_determinism(&diff_sources(&mut side("r1"), &mut side("r2")))
}

#[test]
fn render_real_aot_pair_diff() {
    insta::assert_snapshot!(aot_pair_diff());
}

#[test]
fn the_aot_pair_diff_names_the_flipped_binding_and_both_configs() {
    let text = aot_pair_diff();
    assert!(
        text.starts_with("verdict: differs by recorded decisions that flipped (and configs)\n"),
        "{text}"
    );
    let line_with = |parts: &[&str]| {
        let parts: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
        text.lines().any(|l| in_order(l, &parts))
    };
    assert!(
        line_with(&["binding", "\"speed\"", "\"vram_tiebreak\""]),
        "{text}"
    );
    assert!(
        line_with(&[
            "triton_poi_fused_add_addmm_convolution_unsqueeze_4 [unet/B=2]",
            "XBLOCK=512 num_warps=8 shared_mem=0",
            "XBLOCK=1024 num_warps=4 shared_mem=0",
            "XBLOCK 512 -> 1024, num_warps 8 -> 4"
        ]),
        "{text}"
    );
    assert!(text.contains("unexplained: none"), "{text}");
}

/// A job whose compile was not measured reads "not measured", never 0.
#[test]
fn a_job_without_compile_seconds_reads_not_measured() {
    let mut v = value("h200-torch2.11/jit_report.json");
    let job = v["mint_phases"]["jobs"][2].as_object_mut().unwrap();
    job.remove("compile_s");
    job.remove("execute_s");
    let text = render_breakdown(&breakdown_of("jit", &v));
    let line = text
        .lines()
        .find(|l| l.contains("compile not measured"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("not measured  absent"), "{line}");
}

/// What broke before: a report's `detail` carried ESC, OSC and BEL to the
/// terminal through `lane ledger`.
#[test]
fn foreign_text_reaches_no_terminal_raw() {
    let mut v = value(&gw("failures-torch2.11/rig-aot/report.json"));
    v["detail"] = json!("AttributeError: \u{1b}[2J\u{1b}]0;pwned\u{7}\nnext line \u{9b}31m");
    v["phase"] = json!("load\u{202e}");
    let b = breakdown_of("hostile", &v);
    let text = render_breakdown(&b);
    for c in ['\u{1b}', '\u{7}', '\u{9b}', '\u{202e}', '\r'] {
        assert!(!text.contains(c), "raw {c:?} in {text}");
    }
    assert!(
        text.contains("AttributeError: \\u{1b}[2J\\u{1b}]0;pwned\\u{7}\\nnext line"),
        "{text}"
    );
    v["detail"] = json!("x".repeat(5000));
    let text = render_breakdown(&breakdown_of("long", &v));
    assert!(text.contains("... (4600 more characters)"), "{text}");
}

/// What broke before: a file name in an artifact tree carried ESC to the
/// terminal through `lane diff`.
#[test]
fn foreign_control_bytes_are_escaped_in_diff_text() {
    let file = |body: &str| {
        use sha2::Digest;
        ArtifactFile {
            path: "evil\u{1b}[2Jname\r\n.bin".into(),
            size: body.len() as u64,
            sha256: format!("{:x}", sha2::Sha256::digest(body.as_bytes())),
            content: Some(body.as_bytes().to_vec()),
        }
    };
    let a = ArtifactTree {
        files: vec![file("a")],
    };
    let b = ArtifactTree {
        files: vec![file("b")],
    };
    let text = render_determinism(&diff_trees(&a, &b).unwrap());
    assert!(!text.contains('\u{1b}') && !text.contains('\r'), "{text}");
    assert!(text.contains("evil\\u{1b}[2Jname\\r\\n.bin"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.contains("evil")).count(),
        text.lines().filter(|l| l.contains(".bin")).count(),
        "the name stayed on its line"
    );
}

/// An unreadable report's error, whatever it holds, reaches no output raw.
#[test]
fn unreadable_rows_carry_no_control_byte_in_any_target() {
    for error in [
        "a\u{1b}]0;x\u{7}b",
        "line\r\nbreak\u{9b}",
        "\u{202e}gnp.exe\u{0}",
    ] {
        let b = MintBreakdown::unreadable("c/H200/r1", error);
        let text = render_breakdown(&b);
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        let lane = super::lane(vec![super::cell(
            "c",
            "H200",
            vec![super::rep(1, b, lane_core::MintStatus::Crashed)],
        )]);
        let md = render_comment(&lane, &RenderOptions::default()).body;
        assert!(!md.chars().any(|c| c.is_control() && c != '\n'), "{md:?}");
        let page = html::render_html(&lane);
        assert!(
            !page.chars().any(|c| c.is_control() && c != '\n'),
            "{page:?}"
        );
    }
}

/// A recorded era's rig run (`tests/data/gw-eras/<run>`), its report with
/// the compile pool's share reports beside it.
fn era_rig(run: &str) -> MintBreakdown {
    let dir = format!("{ROOT}/tests/data/gw-eras/{run}/rig/mint");
    let report = parse_report(&std::fs::read(format!("{dir}/report.json")).unwrap()).unwrap();
    let mut shares = Vec::new();
    let pool = std::path::Path::new(&dir).join("compile-pool/share-000/report.json");
    if pool.is_file() {
        let share = lane_ledger::parse_share_report(&std::fs::read(&pool).unwrap()).unwrap();
        shares.push(("share-000".to_owned(), share));
    }
    lane_ledger::from_report_beside(
        &format!("gw-eras/{run}"),
        &report,
        lane_ledger::Beside {
            shares: &shares,
            trace: None,
            packages: &[],
        },
    )
}

#[test]
fn render_eras_rig_reports() {
    for (name, run) in [
        ("eras_v0_100_1_r1", "v0.100.1/r1"),
        ("eras_v0_114_3_r1", "v0.114.3/r1"),
        ("eras_v0_126_3_r1", "v0.126.3/r1"),
        ("eras_v0_126_3_r2", "v0.126.3/r2"),
    ] {
        insta::assert_snapshot!(name, render_breakdown(&era_rig(run)));
    }
}

#[test]
fn render_eras_compile_verdict_with_its_trace() {
    let dir = format!("{ROOT}/tests/data/gw-eras/v0.127.2/r1");
    let report = parse_report(&std::fs::read(format!("{dir}/verdict.json")).unwrap()).unwrap();
    let options = lane_ledger::TraceOptions::default();
    let mut logs: Vec<_> = std::fs::read_dir(format!("{dir}/trace"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    logs.sort();
    let mut merged: Option<lane_ledger::TraceMetrics> = None;
    for log in logs {
        let mut m = parse_trace(
            std::io::BufReader::new(std::fs::File::open(&log).unwrap()),
            &options,
        )
        .unwrap();
        m.label(&log.file_name().unwrap().to_string_lossy());
        match merged.as_mut() {
            None => merged = Some(m),
            Some(all) => all.merge(m, &options),
        }
    }
    // The compiled graphs it left: what ties each child's log to its graph.
    let mut dirs: Vec<_> = std::fs::read_dir(format!("{dir}/compiled-graphs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    let packages: Vec<_> = dirs
        .iter()
        .map(|d| lane_ledger::breakdown::GraphPackage {
            source: d.file_name().unwrap().to_string_lossy().into_owned(),
            members: lane_testkit::data::zip_members(d.join("model.pt2")),
        })
        .collect();
    let b = lane_ledger::from_report_beside(
        "gw-eras/v0.127.2/r1/verdict.json",
        &report,
        lane_ledger::Beside {
            shares: &[],
            trace: merged.as_ref(),
            packages: &packages,
        },
    );
    let text = render_breakdown(&b);
    assert!(text.contains("gen-worker compile verdict (rc 0)"), "{text}");
    // Every verdict field is shown, and no compile row reads "(no id)".
    for field in [
        "priority: ",
        "fill: none started",
        "deferred: none",
        "summary: ",
    ] {
        assert!(text.contains(field), "{field}: {text}");
    }
    assert!(!text.contains("(no id"), "{text}");
    assert!(text.contains("outside_compile_s"), "{text}");
    insta::assert_snapshot!(text);
}
