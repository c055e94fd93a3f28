//! The diff on the real packed cells of `tests/data/gw-0.93.3-h200/`: two
//! cold aot mints (`aot-pair`, one graph class), two cold aot mints of
//! three graph classes (`aot3-pair`) and two cold dynamo mints
//! (`dynamo-pair`), read as packed, through the streaming reader.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use lane_diff::ingest::{
    read_side, IngestError, Keep, Opened, ReadLimits, Source, TopEntry, TopKind,
};
use lane_diff::{
    ConfigSource, DeterminismReport, DeterminismVerdict, DiffClass, FileRole, NoiseKind,
    SkippedKind, UnexplainedCause,
};
use serde_json::{json, Value};

use lane_testkit::data::gw;

use crate::disk::{assert_explained, diff, read_both};

fn configs(r: &DeterminismReport) -> BTreeMap<(Option<String>, String), (Value, Value)> {
    r.kernel_diffs
        .iter()
        .map(|k| {
            (
                (k.entry.clone(), k.kernel.clone()),
                (json!(k.config_a), json!(k.config_b)),
            )
        })
        .collect()
}

fn launch(xblock: u64, warps: u64) -> Value {
    json!({"XBLOCK": xblock, "num_warps": warps, "shared_mem": 0})
}

#[test]
fn real_aot_pair_is_a_flipped_kernel_lane_binding_and_four_launch_configs() {
    let r = diff(
        &gw("aot-pair/r1/cell.tar.gz"),
        &gw("aot-pair/r2/cell.tar.gz"),
    );
    assert_explained(&r, DeterminismVerdict::DecisionsFlipped);
    // The decision: the timing probe's binding flipped, the winner did not.
    assert_eq!(r.decisions.len(), 1);
    let d = &r.decisions[0];
    assert_eq!(
        (d.file.as_str(), d.path.as_str()),
        ("metadata.json", "$.kernel_lane")
    );
    assert_eq!(d.changed.len(), 1);
    assert_eq!(d.changed[0].path, "$.kernel_lane.binding");
    assert_eq!(d.changed[0].a, Some(json!("speed")));
    assert_eq!(d.changed[0].b, Some(json!("vram_tiebreak")));
    assert_eq!(d.winner_a, Some(json!("baseline+dense")));
    assert_eq!(d.winner_a, d.winner_b);
    assert_eq!(
        d.decided_on["candidates"],
        json!(["baseline+dense", "baseline+packed"])
    );
    assert_eq!(d.decided_on["rule"], json!("fit_constrained_speed"));
    // The four kernels the README names, each with both launch configs.
    let entry = Some("unet/B=2".to_owned());
    let k = |n: &str| (entry.clone(), n.to_owned());
    let expected: BTreeMap<_, _> = [
        (
            k("triton_poi_fused_addmm_silu_3"),
            (launch(128, 4), launch(256, 4)),
        ),
        (
            k("triton_poi_fused_add_addmm_convolution_unsqueeze_4"),
            (launch(512, 8), launch(1024, 4)),
        ),
        (
            k("triton_poi_fused_add_addmm_silu_transpose_view_10"),
            (launch(128, 4), launch(256, 4)),
        ),
        (
            k("triton_poi_fused_add_addmm_convolution_native_group_norm_silu_transpose_view_13"),
            (launch(512, 8), launch(1024, 4)),
        ),
    ]
    .into_iter()
    .collect();
    assert_eq!(configs(&r), expected);
    for kd in &r.kernel_diffs {
        assert_eq!(kd.source, ConfigSource::WrapperLaunch);
        assert!(
            kd.cubin.is_some(),
            "{}: its cubin follows its config",
            kd.kernel
        );
        assert!(!kd.wrapper_lines.is_empty());
    }
    assert_eq!(r.kernels.from_wrapper, 16);
    assert_eq!(r.kernels.agreeing, 12);
    // The cubins and the wrapper .so are attributed, never "same config".
    let so = r
        .file_diffs
        .iter()
        .find(|f| f.role == FileRole::Built)
        .unwrap();
    assert_eq!(so.class, DiffClass::AutotuneConfig, "{so:#?}");
    let cubins: Vec<_> = r
        .file_diffs
        .iter()
        .filter(|f| f.role == FileRole::Cubin)
        .collect();
    assert_eq!(cubins.len(), 4);
    assert!(cubins.iter().all(|c| c.class == DiffClass::AutotuneConfig));
}

#[test]
fn real_aot_pair_reads_the_same_packed_extracted_or_in_a_folder() {
    let packed = diff(
        &gw("aot-pair/r1/cell.tar.gz"),
        &gw("aot-pair/r2/cell.tar.gz"),
    );
    // A folder holding the tarball (a mint's artifacts/).
    let dir = tempfile::tempdir().unwrap();
    for r in ["r1", "r2"] {
        std::fs::create_dir_all(dir.path().join(r)).unwrap();
        std::fs::copy(
            gw(&format!("aot-pair/{r}/cell.tar.gz")),
            dir.path().join(r).join("cell.tar.gz"),
        )
        .unwrap();
    }
    let folders = diff(&dir.path().join("r1"), &dir.path().join("r2"));
    assert_eq!(folders.verdict, packed.verdict);
    assert_eq!(configs(&folders), configs(&packed));
    assert!(folders.decisions[0].file.starts_with("cell.tar.gz/"));
    // A's cell extracted (metadata.json + model.pt2) against B's tarball:
    // the same paths, so the same diff.
    let x = dir.path().join("x1");
    std::fs::create_dir_all(&x).unwrap();
    let gz =
        flate2::read::GzDecoder::new(std::fs::File::open(gw("aot-pair/r1/cell.tar.gz")).unwrap());
    tar::Archive::new(gz).unpack(&x).unwrap();
    let mixed = diff(&x, &gw("aot-pair/r2/cell.tar.gz"));
    assert_eq!(mixed.verdict, packed.verdict, "{:#?}", mixed.unexplained);
    assert_eq!(configs(&mixed), configs(&packed));
    // The .pt2 alone: no metadata.json, so no decision; the configs stay.
    let pt2 = diff(&x.join("model.pt2"), &x.join("model.pt2"));
    assert_eq!(pt2.verdict, DeterminismVerdict::ByteIdentical);
    let x2 = dir.path().join("x2");
    std::fs::create_dir_all(&x2).unwrap();
    let gz =
        flate2::read::GzDecoder::new(std::fs::File::open(gw("aot-pair/r2/cell.tar.gz")).unwrap());
    tar::Archive::new(gz).unpack(&x2).unwrap();
    let alone = diff(&x.join("model.pt2"), &x2.join("model.pt2"));
    assert_eq!(
        alone.verdict,
        DeterminismVerdict::AutotuneConfigsOnly,
        "{:#?}",
        alone.unexplained
    );
    assert_eq!(configs(&alone), configs(&packed));
}

#[test]
fn real_three_class_aot_pair_reads_launch_configs_per_entry() {
    let r = diff(&gw("aot3-pair/r1/artifacts"), &gw("aot3-pair/r2/artifacts"));
    assert_explained(&r, DeterminismVerdict::DecisionsFlipped);
    assert_eq!(r.decisions[0].changed[0].a, Some(json!("vram_tiebreak")));
    let c = configs(&r);
    let entries: std::collections::BTreeSet<_> =
        c.keys().map(|(e, _)| e.clone().unwrap()).collect();
    assert_eq!(
        entries.into_iter().collect::<Vec<_>>(),
        ["unet/B=1", "unet/B=2", "unet/B=4"]
    );
    // One kernel name, two entries, each its own config (checked by hand
    // in each entry's wrapper).
    let conv6 = |e: &str| {
        c[&(
            Some(e.to_owned()),
            "triton_poi_fused_convolution_6".to_owned(),
        )]
            .clone()
    };
    assert_eq!(conv6("unet/B=1"), (launch(128, 4), launch(256, 4)));
    assert_eq!(conv6("unet/B=2"), (launch(128, 4), launch(256, 4)));
    assert_eq!(r.kernel_diffs.len(), 11);
    assert_eq!(r.kernels.from_wrapper, 49);
}

#[test]
fn real_dynamo_pair_names_the_pad_mm_decision_and_five_kernel_configs() {
    let r = diff(
        &gw("dynamo-pair/r1/artifacts"),
        &gw("dynamo-pair/r2/artifacts"),
    );
    assert_explained(&r, DeterminismVerdict::DecisionsFlipped);
    assert_eq!(r.decisions.len(), 1);
    let d = &r.decisions[0];
    assert!(d.file.ends_with(
        "inductor/cache/d96174b29c5190b00dd0cfadfddc36968ee734913d7bb0d81bec33c5266a93e5"
    ));
    assert_eq!(d.graph_op.as_deref(), Some("aten.addmm"));
    assert_eq!(d.padded_side, Some("A"));
    assert_eq!(
        (d.winner_a.clone(), d.winner_b.clone()),
        (Some(json!("pad")), Some(json!("do not pad")))
    );
    assert_eq!(
        d.decided_on["operand_shapes"],
        json!(["[2, 64]", "[64, 128]", "[128]"])
    );
    // The unpadded times cached beside the decision (ms).
    let ms = |k: &str| d.decided_on[k].as_f64().unwrap();
    assert!((ms("unpadded_time_ms_a") - 0.071_167_998).abs() < 1e-9);
    assert!((ms("unpadded_time_ms_b") - 0.094_304_002).abs() < 1e-9);
    // Kernels renumbered after the pad are paired; five chose other
    // configs (values from each mint's best_config files).
    let cfg = |x: u64, w: u64| json!({"XBLOCK": x, "num_warps": w, "num_stages": 1});
    let k = |n: &str| (None, n.to_owned());
    let expected: BTreeMap<_, _> = [
        (
            k("triton_poi_fused_add_addmm_convolution_native_group_norm_silu_transpose_view_14"),
            (cfg(1024, 4), cfg(512, 8)),
        ),
        (
            k("triton_poi_fused_add_addmm_convolution_unsqueeze_5"),
            (cfg(512, 8), cfg(1024, 4)),
        ),
        (
            k("triton_poi_fused_add_addmm_silu_transpose_view_11"),
            (cfg(256, 4), cfg(128, 4)),
        ),
        (
            k("triton_poi_fused_addmm_silu_4"),
            (cfg(128, 4), cfg(256, 4)),
        ),
        (
            k("triton_poi_fused_convolution_silu_16"),
            (
                json!({"XBLOCK": 256, "YBLOCK": 1, "num_warps": 4, "num_stages": 1}),
                json!({"XBLOCK": 128, "YBLOCK": 8, "num_warps": 4, "num_stages": 1}),
            ),
        ),
    ]
    .into_iter()
    .collect();
    assert_eq!(configs(&r), expected);
    assert!(r
        .kernel_diffs
        .iter()
        .all(|k| k.source == ConfigSource::BestConfig));
    let noise: Vec<NoiseKind> = r.noise.iter().map(|n| n.kind).collect();
    for n in [
        NoiseKind::KernelRenumbering,
        NoiseKind::Timing,
        NoiseKind::ObjectAddress,
    ] {
        assert!(noise.contains(&n), "{n:?} in {noise:?}");
    }
    // The padding kernel exists only in A, and is explained by the decision.
    let pad: Vec<_> = r
        .file_diffs
        .iter()
        .filter(|f| {
            f.kernel.as_deref()
                == Some("triton_poi_fused_addmm_arange_cat_cos_exp_mul_neg_sin_unsqueeze_3")
        })
        .collect();
    assert!(!pad.is_empty());
    assert!(pad
        .iter()
        .all(|f| f.class == DiffClass::Decision && f.b.is_none()));
    let fx = r
        .file_diffs
        .iter()
        .find(|f| f.role == FileRole::FxGraphEntry)
        .unwrap();
    assert_eq!(fx.class, DiffClass::Decision);
}

/// Regression: `lane diff r1/ r2/` on two results slots (the cell under
/// `artifacts/` beside `mint.json` and the mint's `report.json`) was
/// "unexplained": the records' seconds differ. They describe the mint, not
/// the cell: they are left out and named, and the verdict is the cell's.
#[test]
fn a_results_slot_is_diffed_as_its_cell_with_lanes_records_left_out() {
    let slot = |r: &str| gw(&format!("h200-run/results/rig-aot/H200/{r}"));
    let whole = diff(&slot("r1"), &slot("r2"));
    let cell = diff(&slot("r1").join("artifacts"), &slot("r2").join("artifacts"));
    assert_ne!(
        whole.verdict,
        DeterminismVerdict::Unexplained,
        "{}",
        whole.summary
    );
    assert_eq!(whole.verdict, cell.verdict);
    let left_out: Vec<(&str, SkippedKind)> = whole
        .inputs
        .skipped_a
        .iter()
        .map(|e| (e.path.as_str(), e.kind))
        .collect();
    assert_eq!(
        left_out,
        [
            ("mint.json", SkippedKind::MintRecord),
            ("report.json", SkippedKind::MintRecord)
        ]
    );
    assert!(
        whole
            .summary
            .contains("lane's records of the mints left out (2 in A, 2 in B"),
        "{}",
        whole.summary
    );
    // A folder of artifacts alone has no records to leave out.
    assert!(cell.inputs.skipped_a.is_empty());
}

/// Regression: `lane diff` of the two real 0.127.2 repeats lane gathered
/// on the H200 (`tests/data/gw-eras/README.md`, *lanes/*) counted each
/// slot's `TORCH_TRACE` logs (`ledger/trace/dedicated_log_torch_trace_<random>.log`,
/// four a repeat) as cell files only in one tree: 8 of its 23 unexplained
/// differences. The ledger lane gathers is the mint's telemetry, left out
/// and named like the other records.
#[test]
fn a_slots_gathered_ledger_is_a_record_of_the_mint_not_its_cell() {
    let trace = lane_testkit::data::eras("v0.127.2/r1/trace");
    let logs: Vec<std::path::PathBuf> = std::fs::read_dir(&trace)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let slot = |d: &Path, suffixes: &[&str]| {
        std::fs::create_dir_all(d.join("artifacts")).unwrap();
        std::fs::create_dir_all(d.join("ledger/trace")).unwrap();
        std::fs::write(d.join("mint.json"), "{}").unwrap();
        std::fs::write(d.join("artifacts/cell.bin"), b"the same cell").unwrap();
        for (log, s) in logs.iter().zip(suffixes) {
            let name = format!("ledger/trace/dedicated_log_torch_trace_{s}.log");
            std::fs::copy(log, d.join(name)).unwrap();
        }
    };
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    slot(a.path(), &["3x7ra8h8", "_g530b1p", "ami4_ca9", "jz_8y8bg"]);
    slot(b.path(), &["3kguj9zw", "c0_f33kg", "h6ionsnt", "s_bpa2vt"]);
    let r = diff(a.path(), b.path());
    assert_eq!(
        r.verdict,
        DeterminismVerdict::ByteIdentical,
        "{}",
        r.summary
    );
    let left_out = |s: &[lane_diff::SkippedEntry]| {
        s.iter()
            .filter(|e| e.kind == SkippedKind::MintRecord && e.path.starts_with("ledger/trace/"))
            .count()
    };
    assert_eq!(left_out(&r.inputs.skipped_a), logs.len().min(4));
    assert_eq!(left_out(&r.inputs.skipped_b), logs.len().min(4));
}

/// The second real dynamo pair (`h200-run-session4`): inductor's pad_mm
/// benchmark flipped the other way (r1 pads). The decision is named with
/// what it decided on, and the padding kernel only r1 has is put down to it.
/// So are, line by line, the six lines of the output code that follow from
/// the pad away from that kernel (the padded `f32[4, 64]`, the
/// `slice_tensor` that cuts the pad off and its use, the FX comment that
/// lists it, a `del buf3` only r1 has), and with them the FX-graph entry
/// that holds that output code: the verdict is no longer unexplained.
#[test]
fn real_dynamo_pair_where_the_first_repeat_pads_names_the_decision() {
    let slot = |r: &str| gw(&format!("h200-run-session4/results/rig-dynamo/H200/{r}"));
    let r = diff(&slot("r1"), &slot("r2"));
    let json = serde_json::to_value(&r).unwrap();
    let decisions = json["decisions"].as_array().unwrap();
    assert_eq!(decisions.len(), 1, "{}", r.summary);
    let headline = decisions[0]["headline"].as_str().unwrap();
    assert!(
        headline.ends_with(
            "pad_mm on aten.addmm [2, 128] x [128, 64] x [64]: \"pad\" -> \"do not pad\""
        ),
        "{headline}"
    );
    let files = json["file_diffs"].to_string();
    assert!(
        files.contains("which only A's graph has: the pad_mm decision on aten.addmm (A pads)"),
        "{}",
        r.summary
    );
    assert_explained(&r, DeterminismVerdict::DecisionsFlipped);
    // The six lines, each under the decision with role `pad_mm`.
    let lines = decisions[0]["lines"].as_array().unwrap();
    let at: Vec<(Value, Value)> = lines
        .iter()
        .map(|l| (l["line_a"].clone(), l["line_b"].clone()))
        .collect();
    assert_eq!(
        at,
        [
            (json!(312), json!(265)),
            (json!(318), json!(271)),
            (json!(320), json!(273)),
            (json!(321), json!(274)),
            (json!(322), Value::Null),
            (json!(1202), Value::Null),
        ]
    );
    assert!(lines.iter().all(|l| l["role"] == "pad_mm"), "{lines:?}");
    let text = |l: &Value, side: &str| l[side].as_str().unwrap_or("").to_owned();
    assert_eq!(
        text(&lines[0], "text_a"),
        "#   linear_1 => add_tensor_1, slice_tensor"
    );
    assert!(text(&lines[1], "text_a").contains("\"f32[4, 64][64, 1]cuda:0\""));
    assert!(text(&lines[1], "text_b").contains("\"f32[2, 64][64, 1]cuda:0\""));
    assert!(
        text(&lines[3], "text_a").contains("aten.slice.Tensor](args = (%add_tensor_1, 0, 0, -2)")
    );
    assert_eq!(text(&lines[5], "text_a"), "del buf3");
    // The output code and its FX-graph entry are explained by the decision.
    let code = r
        .file_diffs
        .iter()
        .find(|d| {
            d.a.as_deref().is_some_and(|p| {
                p.ends_with("inductor/rf/crfqhj5tctuwlzm342on4puasxxs2dk7k73av3zgefrh5cknxsb6.py")
            })
        })
        .unwrap();
    assert_eq!(code.class, DiffClass::Decision);
    let reason = code.reason.as_deref().unwrap();
    assert!(
        reason.contains("6 line(s) follow the pad_mm decision on aten.addmm (A pads)"),
        "{reason}"
    );
    let fx: Vec<_> = r
        .file_diffs
        .iter()
        .filter(|d| d.role == FileRole::FxGraphEntry)
        .collect();
    assert!(!fx.is_empty());
    assert!(fx.iter().all(|d| d.class == DiffClass::Decision), "{fx:?}");
}

#[test]
fn a_truncated_real_cell_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(gw("aot-pair/r1/cell.tar.gz")).unwrap();
    let cut = dir.path().join("cell.tar.gz");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let e = read_both(&cut, &gw("aot-pair/r2/cell.tar.gz"), &ReadLimits::default()).unwrap_err();
    let text = e.to_string();
    assert!(
        text.starts_with(&format!("{}: member ", cut.display())),
        "{text}"
    );
}

#[test]
fn a_real_member_above_the_cap_is_refused_naming_it() {
    let limits = ReadLimits {
        max_member_bytes: 1 << 20,
        ..ReadLimits::default()
    };
    let a = gw("aot-pair/r1/cell.tar.gz");
    let e = read_both(&a, &gw("aot-pair/r2/cell.tar.gz"), &limits).unwrap_err();
    assert!(matches!(e, IngestError::TooLarge { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "{}: member model.pt2: more than the 1048576-byte cap per member",
            a.display()
        )
    );
}

#[test]
fn a_link_on_one_side_is_named_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    for r in ["r1", "r2"] {
        std::fs::create_dir_all(dir.path().join(r)).unwrap();
        std::fs::copy(
            gw(&format!("aot-pair/{r}/cell.tar.gz")),
            dir.path().join(r).join("cell.tar.gz"),
        )
        .unwrap();
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink("/etc/hostname", dir.path().join("r1/extra")).unwrap();
    let r = diff(&dir.path().join("r1"), &dir.path().join("r2"));
    assert_eq!(r.inputs.skipped_a.len(), 1);
    assert_eq!(
        r.inputs.skipped_a[0].target.as_deref(),
        Some("/etc/hostname")
    );
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
    assert!(r
        .unexplained
        .iter()
        .any(|u| u.cause == UnexplainedCause::SkippedEntry));
    assert!(r.summary.contains("skipped"), "{}", r.summary);
}

mod never_panics {
    use super::*;
    use lane_diff::ingest::MemorySpool;
    use proptest::prelude::*;

    struct Bytes(&'static str, Vec<u8>);

    impl Source for Bytes {
        fn label(&self) -> String {
            self.0.to_owned()
        }
        fn entries(&mut self) -> io::Result<Vec<TopEntry>> {
            Ok(vec![TopEntry {
                path: String::new(),
                name: self.0.to_owned(),
                kind: TopKind::File,
            }])
        }
        fn open(&mut self, _: &str) -> io::Result<Opened> {
            Ok(Opened::Seekable(Box::new(io::Cursor::new(self.1.clone()))))
        }
    }

    fn small() -> ReadLimits {
        ReadLimits {
            max_member_bytes: 8 << 20,
            max_members: 4096,
            ..ReadLimits::default()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// A real cell with bytes flipped, cut or both: an error naming the
        /// cell, or a side, never a panic.
        #[test]
        fn damaged_real_cells_are_read_or_refused(at in 0usize..760_000, len in 0usize..64, cut in proptest::option::of(10usize..760_000)) {
            let mut bytes = std::fs::read(gw("aot-pair/r1/cell.tar.gz")).unwrap();
            let at = at % bytes.len();
            for b in bytes.iter_mut().skip(at).take(len) {
                *b = !*b;
            }
            if let Some(c) = cut {
                bytes.truncate(c % bytes.len());
            }
            let mut src = Bytes("cell.tar.gz", bytes);
            if let Err(e) = read_side(&mut src, Keep::First, &small(), &mut MemorySpool) {
                prop_assert!(e.to_string().starts_with("cell.tar.gz"), "{}", e);
            }
        }

        #[test]
        fn any_bytes_as_any_archive(data in proptest::collection::vec(any::<u8>(), 0..4096)) {
            for name in ["x.tar.gz", "x.tar", "x.pt2"] {
                let mut src = Bytes(name, data.clone());
                let _ = read_side(&mut src, Keep::First, &small(), &mut MemorySpool);
            }
        }
    }
}

/// A recorded run's dynamo pair, asserted `autotune_configs_only` with no
/// decision, and its FX-graph entry's diff, asserted explained by configs.
fn configs_only_dynamo_pair(run: &str) -> (DeterminismReport, lane_diff::FileDiff) {
    let slot = |r: &str| gw(&format!("{run}/results/rig-dynamo/H200/{r}"));
    let r = diff(&slot("r1"), &slot("r2"));
    assert_eq!(
        r.verdict,
        DeterminismVerdict::AutotuneConfigsOnly,
        "{}: {:#?}",
        r.summary,
        r.unexplained
    );
    assert!(r.unexplained.is_empty());
    assert!(r.decisions.is_empty(), "{:?}", r.decisions);
    let entry = r
        .file_diffs
        .iter()
        .find(|d| d.role == FileRole::FxGraphEntry)
        .expect("the FX-graph entry differs")
        .clone();
    assert_eq!(entry.class, DiffClass::AutotuneConfig, "{entry:?}");
    (r, entry)
}

/// Regression: the FX-graph entry of this pair (a pickle of 4.5 MB) differs
/// in 16 bytes: its pickled compile time `_time_taken_ns`, and the source
/// mtimes in the DWARF line tables of the cubins it bundles, one second
/// apart. Lane called the entry unexplained; read as a pickle, the time is
/// noise and the rest are bundled files the tree explains (the cubins by
/// their mtimes, the best_configs it names by their configs), so what is
/// left is the three kernels whose best_configs chose other configs.
#[test]
fn real_dynamo_pair_whose_fx_graph_entry_differs_by_compile_time_and_source_mtimes_is_configs_only()
{
    let (r, entry) = configs_only_dynamo_pair("h200-run-session5");
    for kind in [NoiseKind::Timing, NoiseKind::DwarfSourceMtime] {
        assert!(entry.noise.contains(&kind), "{kind:?}: {entry:?}");
    }
    assert!(
        entry
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("bundles 221 of this tree's files")),
        "{entry:?}"
    );
    let mut differ: Vec<&str> = r.kernel_diffs.iter().map(|k| k.kernel.as_str()).collect();
    differ.sort_unstable();
    assert_eq!(
        differ,
        [
            "triton_poi_fused_add_addmm_convolution_unsqueeze_4",
            "triton_poi_fused_add_addmm_silu_transpose_view_10",
            "triton_poi_fused_convolution_silu_15",
        ]
    );
}

/// Regression: a second H200 sample of the same cell, whose FX-graph entry
/// differs in 13,804 bytes and in length: five bundled Triton kernels
/// under other cache keys, their `hash`es in hex, the autotuners' paths to
/// other best_configs, and memo numbering shifted by one string pickled
/// afresh. Lane called it unexplained; read as a pickle, every difference
/// is a bundled file or path the trees pair themselves.
#[test]
fn real_dynamo_pair_whose_fx_graph_entry_bundles_other_kernels_is_configs_only() {
    let (r, entry) = configs_only_dynamo_pair("h200-run-session6");
    assert!(entry.noise.contains(&NoiseKind::Timing), "{entry:?}");
    assert_eq!(r.kernel_diffs.len(), 7, "{:?}", r.kernel_diffs);
}

/// The same entry with one pickled value changed (a flag the graph was
/// compiled with) is unexplained, and the reason names the value and
/// where it is in each entry.
#[test]
fn a_changed_value_inside_a_real_fx_graph_entry_is_named_with_its_byte() {
    let dir = tempfile::tempdir().unwrap();
    let src = gw("h200-run-session6/results/rig-dynamo/H200");
    for r in ["r1", "r2"] {
        let to = dir.path().join(r);
        std::fs::create_dir_all(&to).unwrap();
        let gz = flate2::read::GzDecoder::new(
            std::fs::File::open(src.join(r).join("artifacts/cell.tar.gz")).unwrap(),
        );
        tar::Archive::new(gz).unpack(&to).unwrap();
    }
    // `_boxed_call` is pickled as NEWTRUE: r2's says False.
    let entry = std::fs::read_dir(dir.path().join("r2/inductor/fxgraph/oo"))
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .map(|f| f.unwrap().path())
        .next()
        .unwrap();
    let mut bytes = std::fs::read(&entry).unwrap();
    let key = b"\x8c\x0b_boxed_call\x94\x88";
    let at = bytes
        .windows(key.len())
        .position(|w| w == key)
        .expect("the entry pickles _boxed_call");
    bytes[at + key.len() - 1] = 0x89;
    std::fs::write(&entry, &bytes).unwrap();
    let r = diff(&dir.path().join("r1"), &dir.path().join("r2"));
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained, "{}", r.summary);
    let u: Vec<_> = r
        .unexplained
        .iter()
        .filter(|u| u.a.as_deref().is_some_and(|p| p.contains("/fxgraph/")))
        .collect();
    assert_eq!(u.len(), 1, "{:#?}", r.unexplained);
    let reason = &u[0].reason;
    assert!(
        reason.contains("opcode 0x88")
            && reason.contains("opcode 0x89")
            && reason.contains("byte "),
        "{reason}"
    );
}

/// The session-7 H200 run's AOT pair (three graph classes). Its `B=4`
/// wrapper source differs only by noise that changes code (r2 declares two
/// shape constants more and numbers the rest on), so its `.so` differs
/// too. Lane called that `.so` unexplained (`built_binary`); a binary
/// follows its source, so it is that source's noise.
#[test]
fn real_aot_wrapper_so_built_from_a_source_differing_only_by_noise_is_that_noise() {
    let cell = |r: &str| {
        gw(&format!(
            "h200-run-session7/results/rig-aot/H200/{r}/artifacts/cell.tar.gz"
        ))
    };
    let r = diff(&cell("r1"), &cell("r2"));
    assert_explained(&r, DeterminismVerdict::DecisionsFlipped);
    let b4 = |suffix: &str| {
        r.file_diffs
            .iter()
            .find(|d| {
                d.a.as_deref()
                    .is_some_and(|a| a.contains("/unet/B=4/") && a.ends_with(suffix))
            })
            .unwrap_or_else(|| panic!("B=4 {suffix} differs"))
    };
    let (cpp, so) = (b4(".wrapper.cpp"), b4(".wrapper.so"));
    assert_eq!(cpp.class, DiffClass::Noise);
    assert!(
        cpp.noise.contains(&NoiseKind::ShapeConstantNumbering),
        "{cpp:?}"
    );
    assert_eq!(so.class, DiffClass::Noise, "{so:?}");
    let reason = so.reason.as_deref().unwrap_or_default();
    assert!(
        reason.contains(cpp.a.as_deref().unwrap()) && reason.contains("known noise"),
        "{reason}"
    );
}

/// The same pair with r2's `B=4` wrapper source made r1's: the `.so` still
/// differs, now from the same source, and nothing explains it.
#[test]
fn a_built_binary_that_differs_from_the_same_source_is_unexplained() {
    use std::io::{Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let cell = |r: &str| {
        gw(&format!(
            "h200-run-session7/results/rig-aot/H200/{r}/artifacts/cell.tar.gz"
        ))
    };
    let pt2 = |r: &str| {
        let gz = flate2::read::GzDecoder::new(std::fs::File::open(cell(r)).unwrap());
        let to = dir.path().join(r);
        tar::Archive::new(gz).unpack(&to).unwrap();
        to
    };
    let (a, b) = (pt2("r1"), pt2("r2"));
    let members = |p: &Path| {
        let mut z =
            zip::ZipArchive::new(std::fs::File::open(p.join("model.pt2")).unwrap()).unwrap();
        (0..z.len())
            .map(|i| {
                let mut f = z.by_index(i).unwrap();
                let mut bytes = Vec::new();
                f.read_to_end(&mut bytes).unwrap();
                (f.name().to_owned(), bytes)
            })
            .collect::<Vec<_>>()
    };
    let source_a = members(&a)
        .into_iter()
        .find(|(n, _)| n.contains("/unet/B=4/") && n.ends_with(".wrapper.cpp"))
        .unwrap()
        .1;
    let mut out = zip::ZipWriter::new(std::fs::File::create(b.join("model.pt2.new")).unwrap());
    for (name, bytes) in members(&b) {
        let bytes = if name.contains("/unet/B=4/") && name.ends_with(".wrapper.cpp") {
            source_a.clone()
        } else {
            bytes
        };
        out.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        out.write_all(&bytes).unwrap();
    }
    out.finish().unwrap();
    std::fs::rename(b.join("model.pt2.new"), b.join("model.pt2")).unwrap();
    let r = diff(&a, &b);
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained, "{}", r.summary);
    let u: Vec<_> = r
        .unexplained
        .iter()
        .map(|u| (u.cause, u.a.clone().unwrap_or_default()))
        .collect();
    assert!(
        u.len() == 1 && u[0].0 == UnexplainedCause::BuiltBinary && u[0].1.ends_with(".wrapper.so"),
        "{u:?}"
    );
}
