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

/// The real v0.126.3 mints, relative to the workspace (as a person types
/// them there, so the output names no machine's folders).
const ERAS: &str = "tests/data/gw-eras/v0.126.3";
const B1: &str = "cg-key-v1-3bf77855f63ecb48ffaad0da1276bb9eecdccad42b4647e475380ff2";
const B2: &str = "cg-key-v1-578c02769cd3fa5574100831fd848a6961fdf92104671ac16ca71b36";
const B4: &str = "cg-key-v1-612e7f475e708100824e77637f44af29dfb62fa4968c9205d7fa92cb";

fn eras(r: &str) -> String {
    format!("{ERAS}/{r}/rig/mint")
}

#[test]
fn diff_of_two_mints_of_graph_classes_pairs_them_by_key() {
    let o = lane(&here(), &["diff", &eras("r1"), &eras("r2")]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    insta::assert_snapshot!("diff_real_v0_126_3_classes_text", text);
    let o = lane(&here(), &["diff", &eras("r1"), &eras("r2"), "--json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    // r2 resolved every class from r1's compiled-graph cache: identical
    // bytes, no proof of determinism.
    assert_eq!(v["verdict"], "identical_not_proven");
    assert_eq!(v["coldness"]["a"]["cold"], "unknown");
    assert_eq!(v["coldness"]["b"]["cold"], "warm");
    let keys: Vec<&str> = v["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, [B1, B2, B4]);
    insta::assert_json_snapshot!("diff_real_v0_126_3_classes_json", v);
    // Identical bytes of a pair not proven cold are no pass, at any level.
    for level in ["path-noise-only", "unexplained"] {
        let o = lane(
            &here(),
            &["diff", &eras("r1"), &eras("r2"), "--fail-on", level],
        );
        assert_eq!(code(&o), 7, "{level}");
    }
}

/// A results slot of the real v0.126.3 lane (its `mint.json`: a private
/// `/tmp`; its report: every class compiled), holding r1's cells: its
/// report's `entries` are r1's.
fn proven_slot(r: &str, to: &std::path::Path) {
    let slot = format!("{ROOT}/tests/data/gw-eras/lanes/v0.126.3/results/rig-aot/H200/{r}");
    std::fs::create_dir_all(to).unwrap();
    std::fs::copy(format!("{slot}/mint.json"), to.join("mint.json")).unwrap();
    let mut report: Value =
        serde_json::from_slice(&std::fs::read(format!("{slot}/report.json")).unwrap()).unwrap();
    let mint = format!("{ROOT}/{}", eras("r1"));
    let cells: Value =
        serde_json::from_slice(&std::fs::read(format!("{mint}/report.json")).unwrap()).unwrap();
    report["entries"] = cells["entries"].clone();
    std::fs::write(to.join("report.json"), report.to_string()).unwrap();
    for e in cells["entries"].as_array().unwrap() {
        let name = e[1].as_str().unwrap().rsplit('/').next().unwrap();
        std::fs::copy(format!("{mint}/{name}"), to.join(name)).unwrap();
    }
}

#[test]
fn identical_cells_are_byte_identical_only_when_both_repeats_are_proven_cold() {
    // Two repeats proven cold (compile times, a private /tmp each) with
    // the same cells: byte-identical, a pass.
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("r1"), d.path().join("r2"));
    proven_slot("r1", &a);
    proven_slot("r2", &b);
    let (sa, sb) = (a.display().to_string(), b.display().to_string());
    let o = lane(&here(), &["diff", &sa, &sb, "--json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "byte_identical", "{v:#}");
    assert_eq!(v["coldness"]["a"]["cold"], "proven");
    assert_eq!(v["coldness"]["b"]["cold"], "proven");
    let o = lane(&here(), &["diff", &sa, &sb, "--fail-on", "path-noise-only"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // The same cells, B's record without its isolation: not a proof.
    let record = b.join("mint.json");
    let mut m: Value = serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    m.as_object_mut().unwrap().remove("isolation");
    std::fs::write(&record, m.to_string()).unwrap();
    let o = lane(&here(), &["diff", &sa, &sb, "--fail-on", "path-noise-only"]);
    assert_eq!(code(&o), 7);
    let text = stdout(&o);
    assert!(
        text.contains("verdict: identical, but not a proof of determinism")
            && text.contains("cold, B: unknown (every class compiled (unet/B=1 32.023 s, unet/B=2 10.350 s, unet/B=4 10.282 s), none resolved from a cache, but its attempt record (mint.json) predates lane's record of isolation)"),
        "{text}"
    );
}

/// Copies a real mint folder (its report and entry files) into `to`, the
/// report's `entries` made by `edit`.
fn copy_mint(r: &str, to: &std::path::Path, edit: impl FnOnce(&mut Vec<Value>)) {
    std::fs::create_dir_all(to).unwrap();
    let from = here().join(eras(r));
    for e in std::fs::read_dir(&from).unwrap() {
        let e = e.unwrap();
        // The report and its entry files; the pool's folder is not the cell.
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
    let mut report: Value =
        serde_json::from_slice(&std::fs::read(to.join("report.json")).unwrap()).unwrap();
    let mut entries = report["entries"].as_array().unwrap().clone();
    edit(&mut entries);
    report["entries"] = Value::Array(entries);
    std::fs::write(to.join("report.json"), report.to_string()).unwrap();
}

fn sha256(path: &std::path::Path) -> String {
    use sha2::{Digest, Sha256};
    format!("{:x}", Sha256::digest(std::fs::read(path).unwrap()))
}

/// B's report lists its classes in reverse, and its `B=1` class's file
/// holds the real `B=2` cell (the report naming that file's sha256): the
/// classes still pair by key, `B=1` reads unexplained against r1's
/// `B=1`, the two others stay byte-identical, and the pair takes the
/// worst verdict, naming the class.
#[test]
fn diff_of_mints_whose_class_holds_another_class_names_that_class() {
    let dir = tempfile::tempdir().unwrap();
    copy_mint("r1", &dir.path().join("a"), |_| {});
    let b = dir.path().join("b");
    let b2_cell = here().join(eras("r2")).join(format!("{B2}.tar.gz"));
    let sha = sha256(&b2_cell);
    copy_mint("r2", &b, |entries| {
        entries.reverse();
        let e = entries.iter_mut().find(|e| e[0] == B1).unwrap();
        e[2] = Value::from(sha);
    });
    std::fs::copy(&b2_cell, b.join(format!("{B1}.tar.gz"))).unwrap();
    let o = lane(dir.path(), &["diff", "a", "b", "--fail-on", "unexplained"]);
    assert_eq!(code(&o), 7, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("A: a\nB: b\n\nverdict: unexplained differences\n"),
        "{text}"
    );
    insta::assert_snapshot!("diff_swapped_class_text", text);
    let o = lane(dir.path(), &["diff", "a", "b", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let verdicts: Vec<(&str, &str)> = v["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["key"].as_str().unwrap(), c["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        verdicts,
        [
            (B1, "unexplained"),
            (B2, "byte_identical"),
            (B4, "byte_identical")
        ]
    );
}

#[test]
fn diff_of_mints_names_a_class_one_lacks_and_refuses_a_file_its_report_does_not_name() {
    let dir = tempfile::tempdir().unwrap();
    copy_mint("r1", &dir.path().join("a"), |_| {});
    copy_mint("r2", &dir.path().join("b"), |entries| {
        entries.retain(|e| e[0] != B4)
    });
    let o = lane(dir.path(), &["diff", "a", "b", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "unexplained");
    assert_eq!(v["only_a"][0]["key"], B4);
    assert_eq!(v["unexplained"][0]["cause"], "class_only_in_one_mint");
    // A file whose bytes are not what its report names is refused.
    let b1 = dir.path().join(format!("b/{B1}.tar.gz"));
    std::fs::copy(dir.path().join(format!("b/{B2}.tar.gz")), &b1).unwrap();
    let o = lane(dir.path(), &["diff", "a", "b"]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{B1}.tar.gz: its sha256 is"))
            && err.contains(&format!("for graph class \"{B1}\"")),
        "{err}"
    );
    // A mint of classes against a cell: refused, naming both.
    let o = lane(
        &here(),
        &["diff", &eras("r1"), &gw("aot-pair/r1/cell.tar.gz")],
    );
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("report names graph classes (entries) and this side is no such mint"),
        "{}",
        stderr(&o)
    );
}

/// The real session-4 dynamo pair (r1 pads `linear_1`): text and JSON.
#[test]
fn diff_of_the_real_session4_pair_lists_the_kernels_the_flip_brought() {
    let slot = |r: &str| {
        format!("tests/data/gw-0.93.3-h200/h200-run-session4/results/rig-dynamo/H200/{r}")
    };
    let o = lane(&here(), &["diff", &slot("r1"), &slot("r2")]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("kernels it brought (1)"), "{text}");
    assert!(text.contains("A's triton_poi_fused_addmm_silu_4 computes the decided matmul: linear_1 => constant_pad_nd_default"), "{text}");
    assert!(text.contains("unexplained: none"), "{text}");
    insta::assert_snapshot!("diff_real_session4_text", text);
    let o = lane(&here(), &["diff", &slot("r1"), &slot("r2"), "--json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "decisions_flipped");
    assert_eq!(v["decisions"][0]["source_nodes"][0], "linear_1");
    assert_eq!(
        v["decisions"][0]["kernels"][0]["link"],
        "computes_decided_op"
    );
    insta::assert_json_snapshot!("diff_real_session4_json", v);
}

/// The first real dynamo pair (r1 pads `linear`): its text.
#[test]
fn diff_of_the_real_first_dynamo_pair_lists_the_kernels_the_flip_brought() {
    let o = lane(
        &here(),
        &[
            "diff",
            "tests/data/gw-0.93.3-h200/dynamo-pair/r1/artifacts",
            "tests/data/gw-0.93.3-h200/dynamo-pair/r2/artifacts",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("kernels it brought (2)"), "{text}");
    insta::assert_snapshot!("diff_real_dynamo_pair_text", text);
}

/// A cell folder: `metadata.json` and 8 MiB of weights that do not
/// compress, `edit`ed.
fn weights_cell(dir: &std::path::Path, edit: impl FnOnce(&mut Vec<u8>)) {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut w = Vec::with_capacity(8 << 20);
    while w.len() < 8 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        w.extend_from_slice(&x.to_le_bytes());
    }
    edit(&mut w);
    std::fs::create_dir_all(dir.join("model/data/weights")).unwrap();
    std::fs::write(dir.join("metadata.json"), "{\"cell\": 1}").unwrap();
    std::fs::write(dir.join("model/data/weights/weight_0"), w).unwrap();
}

#[test]
fn diff_of_cells_above_the_content_cap_names_the_member_and_the_offsets() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("r1"), d.path().join("r2"));
    weights_cell(&a, |_| {});
    weights_cell(&b, |w| {
        for at in [(3 << 20) + 7, (3 << 20) + 8, (6 << 20) + 1, (6 << 20) + 2] {
            w[at] ^= 0xff;
        }
    });
    let (sa, sb) = (a.display().to_string(), b.display().to_string());
    // Above the cap (here 1 MiB; 64 MiB by default): compared in chunks.
    let o = lane(
        &here(),
        &["diff", &sa, &sb, "--max-content-bytes", "1048576"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = super::Redact::new()
        .dir(d.path(), "<TMP>")
        .apply(&stdout(&o));
    insta::assert_snapshot!("diff_weights_above_the_content_cap_text", text);
    let o = lane(
        &here(),
        &["diff", &sa, &sb, "--max-content-bytes", "1048576", "--json"],
    );
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let u = &v["unexplained"][0];
    assert_eq!(u["cause"], "byte_ranges");
    assert_eq!(u["a"], "model/data/weights/weight_0");
    let ranges: Vec<(u64, u64)> = u["ranges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["start"].as_u64().unwrap(), r["end"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        ranges,
        [
            ((3 << 20) + 7, (3 << 20) + 9),
            ((6 << 20) + 1, (6 << 20) + 3)
        ]
    );
}
