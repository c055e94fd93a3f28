//! `lane diff` on the real packed cells of `tests/data/gw-0.93.3-h200/`:
//! what a person reads, `--json`, `--fail-on`, and bad archives.

use std::path::PathBuf;

use super::{code, lane, stderr, stdout, ROOT};
use serde_json::Value;

fn gw(rel: &str) -> String {
    format!("{ROOT}/tests/data/gw-0.93.3-h200/{rel}")
}

fn here() -> PathBuf {
    PathBuf::from(ROOT)
}

#[test]
fn diff_of_the_real_aot_cells_names_the_decision_and_every_kernel() {
    let (a, b) = (gw("aot-pair/r1/cell.tar.gz"), gw("aot-pair/r2/cell.tar.gz"));
    let o = lane(&here(), &["diff", &a, &b]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("verdict: differs by recorded decisions that flipped (and configs)"),
        "{text}"
    );
    assert!(!text.contains("unexplained differences"), "{text}");
    assert!(text.contains("metadata.json kernel_lane: binding \"speed\" -> \"vram_tiebreak\"; winner \"baseline+dense\" in both"), "{text}");
    for k in [
        "triton_poi_fused_addmm_silu_3 [unet/B=2]",
        "triton_poi_fused_add_addmm_convolution_unsqueeze_4 [unet/B=2]",
        "triton_poi_fused_add_addmm_silu_transpose_view_10 [unet/B=2]",
        "triton_poi_fused_add_addmm_convolution_native_group_norm_silu_transpose_view_13 [unet/B=2]",
    ] {
        assert!(text.contains(k), "{k} in {text}");
    }
    // Both configs on the kernel's row of the kernels table.
    assert!(
        text.lines().any(|l| l
            .contains("triton_poi_fused_add_addmm_convolution_unsqueeze_4 [unet/B=2]")
            && l.contains(
                "XBLOCK=512 num_warps=8 shared_mem=0  XBLOCK=1024 num_warps=4 shared_mem=0"
            )),
        "{text}"
    );
    assert!(text.contains("unexplained: none"), "{text}");
    let o = lane(&here(), &["diff", &a, &b, "--json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "decisions_flipped");
    assert_eq!(v["kernel_diffs"].as_array().unwrap().len(), 4);
    assert_eq!(v["decisions"][0]["changed"][0]["b"], "vram_tiebreak");
    // --fail-on: a flipped decision is worse than configs, better than unexplained.
    let o = lane(&here(), &["diff", &a, &b, "--fail-on", "unexplained"]);
    assert_eq!(code(&o), 0);
    let o = lane(&here(), &["diff", &a, &b, "--fail-on", "decisions-flipped"]);
    assert_eq!(code(&o), 7);
}

#[test]
fn diff_of_the_real_dynamo_artifacts_names_the_pad_mm_decision() {
    let o = lane(
        &here(),
        &[
            "diff",
            &gw("dynamo-pair/r1/artifacts"),
            &gw("dynamo-pair/r2/artifacts"),
            "--json",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "decisions_flipped", "{}", v["summary"]);
    assert_eq!(v["decisions"][0]["graph_op"], "aten.addmm");
    assert_eq!(v["decisions"][0]["winner_a"], "pad");
    assert_eq!(v["kernel_diffs"].as_array().unwrap().len(), 5);
    assert!(v["unexplained"].as_array().unwrap().is_empty());
}

#[test]
fn diff_of_a_truncated_cell_is_a_clear_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(gw("aot-pair/r1/cell.tar.gz")).unwrap();
    std::fs::write(dir.path().join("cut.tar.gz"), &bytes[..bytes.len() / 3]).unwrap();
    let o = lane(
        dir.path(),
        &["diff", "cut.tar.gz", &gw("aot-pair/r2/cell.tar.gz")],
    );
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("cut.tar.gz: member model.pt2:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // A member cap: the member is named.
    let o = lane(
        &here(),
        &[
            "diff",
            &gw("aot-pair/r1/cell.tar.gz"),
            &gw("aot-pair/r2/cell.tar.gz"),
            "--max-member-bytes",
            "100000",
        ],
    );
    assert_eq!(code(&o), 3);
    assert!(
        stderr(&o).contains("cell.tar.gz: member model.pt2: more than the 100000-byte cap"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn diff_text_escapes_control_bytes_from_file_names() {
    let dir = tempfile::tempdir().unwrap();
    for (side, body) in [("a", "1"), ("b", "2")] {
        std::fs::create_dir_all(dir.path().join(side)).unwrap();
        std::fs::write(dir.path().join(side).join("x\u{1b}]0;pwned\u{7}.bin"), body).unwrap();
    }
    let o = lane(dir.path(), &["diff", "a", "b"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(text.contains("x\\u{1b}]0;pwned\\u{7}.bin"), "{text}");
    let o = lane(dir.path(), &["diff", "a", "b", "--json"]);
    assert!(!stdout(&o).contains('\u{1b}'), "JSON escapes it too");
}
