//! The determinism diff on the real H200 pair, and on controlled edits of it.

use std::collections::BTreeSet;

use super::fixtures::*;
use lane_diff::{diff_trees, ArtifactFile, ArtifactTree, DeterminismVerdict};
use lane_diff::{DiffClass, FileRole, LineRole, NoiseKind};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Kernels whose configs differ, computed independently from the probe's own
/// `best_configs` maps (comparing every field but the measurements).
fn kernels_differing_in_probe_reports() -> BTreeSet<String> {
    let a: Value = serde_json::from_slice(&read(h200("aot_a.json"))).unwrap();
    let b: Value = serde_json::from_slice(&read(h200("aot_b.json"))).unwrap();
    let noise = [
        "time_taken_ms",
        "triton_cache_hash",
        "found_by_coordesc",
        "_kernel",
    ];
    let strip = |v: &Value| -> Vec<(String, Value)> {
        let mut fields: Vec<(String, Value)> = v
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, _)| !noise.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        fields.sort_by(|x, y| x.0.cmp(&y.0));
        fields
    };
    let mut out = BTreeSet::new();
    for (name, ca) in a["best_configs"].as_object().unwrap() {
        let cb = &b["best_configs"][name];
        if strip(ca) != strip(cb) {
            out.insert(ca["_kernel"].as_str().unwrap().to_owned());
        }
    }
    out
}

fn expected_reference() -> Value {
    serde_json::from_slice(&read(h200("expected-determinism.json"))).unwrap()
}

#[test]
fn h200_pair_differs_by_autotune_configs_only() {
    let (a, b) = h200_trees();
    let r = diff_trees(&a, &b).unwrap();
    assert_eq!(
        r.verdict,
        DeterminismVerdict::AutotuneConfigsOnly,
        "{:#?}",
        r.unexplained
    );
    assert!(r.unexplained.is_empty());

    let ours: BTreeSet<String> = r.kernels.config_differs.iter().cloned().collect();
    let reference: BTreeSet<String> = expected_reference()["kernels_with_config_diffs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ours, reference, "against expected-determinism.json");
    assert_eq!(
        ours,
        kernels_differing_in_probe_reports(),
        "against aot_a/aot_b best_configs"
    );
    let a_report: Value = serde_json::from_slice(&read(h200("aot_a.json"))).unwrap();
    assert_eq!(
        r.kernels.from_best_config,
        a_report["best_configs"].as_object().unwrap().len()
    );
    assert_eq!(
        r.kernels.config_differs.len() + r.kernels.config_same.len(),
        r.kernels.with_configs
    );
}

#[test]
fn h200_kernel_diffs_name_config_fields_and_their_carrier_lines() {
    let (a, b) = h200_trees();
    let r = diff_trees(&a, &b).unwrap();
    assert_eq!(r.kernel_diffs.len(), r.kernels.config_differs.len());
    for k in &r.kernel_diffs {
        assert!(!k.fields.is_empty());
        assert!(k
            .fields
            .iter()
            .all(|f| f.field != "time_taken_ms" && f.field != "triton_cache_hash"));
        // Each config change shows in the wrapper: the grid or the launch.
        assert!(
            k.wrapper_lines
                .iter()
                .any(|l| matches!(l.role, LineRole::Grid | LineRole::LaunchKernel)),
            "{} has no carrier line",
            k.kernel
        );
        for l in &k.wrapper_lines {
            assert_eq!(l.kernel.as_deref(), Some(k.kernel.as_str()));
            assert_ne!(l.agrees_with_config, Some(false), "{l:#?}");
        }
        // Carrier text is shown with paths normalised.
        assert!(k.wrapper_lines.iter().all(|l| !l
            .text_a
            .as_deref()
            .unwrap_or("")
            .contains("/tmp/")));
        assert!(
            k.cubin.is_some(),
            "{}: its cubin differs with the config",
            k.kernel
        );
    }
    // The XBLOCK 1024/num_warps 4 against 512/8 pattern upstream saw.
    let flip = r.kernel_diffs.iter().any(|k| {
        let get = |f: &str| {
            k.fields
                .iter()
                .find(|d| d.field == f)
                .map(|d| (d.a.clone(), d.b.clone()))
        };
        get("XBLOCK") == Some((Some(1024.into()), Some(512.into())))
            && get("num_warps") == Some((Some(4.into()), Some(8.into())))
    });
    assert!(flip);
}

#[test]
fn h200_every_other_difference_is_named_noise() {
    let (a, b) = h200_trees();
    let r = diff_trees(&a, &b).unwrap();
    let kinds: BTreeSet<NoiseKind> = r.noise.iter().map(|n| n.kind).collect();
    for expected in [
        NoiseKind::AbsoluteCachePath,
        NoiseKind::HashedFileName,
        NoiseKind::ShapeConstantNumbering,
        NoiseKind::DwarfSourceMtime,
        NoiseKind::SerializationId,
        NoiseKind::AutotuneMeasurement,
    ] {
        assert!(
            kinds.contains(&expected),
            "{expected:?} not seen: {kinds:?}"
        );
    }
    // Cubins of kernels whose config is the same differ only by noise.
    let same: BTreeSet<&str> = r.kernels.config_same.iter().map(String::as_str).collect();
    for d in r.file_diffs.iter().filter(|d| d.role == FileRole::Cubin) {
        let k = d.kernel.as_deref().expect("cubins are paired by kernel");
        if same.contains(k) || !r.kernels.config_differs.iter().any(|c| c == k) {
            assert_eq!(d.class, DiffClass::Noise, "{d:#?}");
        } else {
            assert_eq!(d.class, DiffClass::AutotuneConfig);
        }
    }
    // File names alone cannot pair these trees (content hashes).
    assert_eq!(r.files.only_a.len() + r.files.only_b.len(), 0);
    assert!(r.files.paired_by_role > 0);
}

#[test]
fn identical_trees_are_byte_identical() {
    let (a, _) = h200_trees();
    let r = diff_trees(&a, &a.clone()).unwrap();
    assert_eq!(r.verdict, DeterminismVerdict::ByteIdentical);
}

fn sha(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

fn edit(tree: &mut ArtifactTree, suffix: &str, f: impl Fn(&str) -> String) -> String {
    let file: &mut ArtifactFile = tree
        .files
        .iter_mut()
        .find(|f| f.path.ends_with(suffix))
        .unwrap();
    let text = String::from_utf8(file.content.clone().unwrap()).unwrap();
    let new = f(&text);
    assert_ne!(new, text, "edit changed nothing");
    file.sha256 = sha(new.as_bytes());
    file.size = new.len() as u64;
    file.content = Some(new.into_bytes());
    file.path.clone()
}

#[test]
fn moved_cache_directory_is_path_noise_only() {
    let (a, _) = h200_trees();
    let mut b = a.clone();
    edit(&mut b, ".wrapper.cpp", |t| {
        t.replace("/tmp/aotmp2d6oxj/cache_a/", "/scratch/run-17/cache/")
    });
    edit(&mut b, ".kernel.cpp", |t| {
        t.replace("/tmp/aotmp2d6oxj/cache_a/", "/scratch/run-17/cache/")
    });
    let r = diff_trees(&a, &b).unwrap();
    assert_eq!(
        r.verdict,
        DeterminismVerdict::PathNoiseOnly,
        "{:#?}",
        r.unexplained
    );
    assert!(r
        .noise
        .iter()
        .any(|n| n.kind == NoiseKind::AbsoluteCachePath));
}

#[test]
fn changed_line_outside_a_launcher_is_unexplained_and_named() {
    let (a, b0) = h200_trees();
    let mut b = b0.clone();
    let wrapper = edit(&mut b, ".wrapper.cpp", |t| {
        t.replacen(
            "aoti_torch_empty_strided(4,",
            "aoti_torch_empty_strided(5,",
            1,
        )
    });
    let r = diff_trees(&a, &b).unwrap();
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
    let u = r
        .unexplained
        .iter()
        .find(|u| u.b.as_deref() == Some(wrapper.as_str()))
        .unwrap();
    assert_eq!(u.lines.len(), 1);
    assert!(u.lines[0]
        .text_b
        .as_deref()
        .unwrap()
        .contains("aoti_torch_empty_strided(5,"));
    assert!(u.lines[0].line_b.is_some());
    // The autotune kernels are still named.
    assert_eq!(r.kernels.config_differs.len(), 9);
}

#[test]
fn shape_constant_with_a_changed_value_is_unexplained() {
    // Renumbering is equivalent only by value: a changed value must surface.
    let (a, b0) = h200_trees();
    let mut b = b0.clone();
    edit(&mut b, ".wrapper.cpp", |t| {
        t.replacen(
            "int_array_4[] = {2L, 8L, 1L, 1L, 5L, 58L}",
            "int_array_4[] = {2L, 8L, 1L, 1L, 5L, 59L}",
            1,
        )
    });
    let r = diff_trees(&a, &b).unwrap();
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
    let lines = &r.unexplained[0].lines;
    assert!(
        lines
            .iter()
            .all(|l| l.text_b.as_deref().unwrap_or("").contains("59L")),
        "{lines:#?}"
    );
}

#[test]
fn wrapper_that_contradicts_its_best_config_is_unexplained() {
    let (a, b0) = h200_trees();
    let mut b = b0.clone();
    // B's wrapper launches kernel 5 with 16 warps, but B's config says 8.
    edit(&mut b, ".wrapper.cpp", |t| {
        t.replace(
            "launchKernel(kernels_.triton_poi_fused_convolution_native_group_norm_silu_5, grid_0, grid_1, grid_2, 8,",
            "launchKernel(kernels_.triton_poi_fused_convolution_native_group_norm_silu_5, grid_0, grid_1, grid_2, 16,",
        )
    });
    let r = diff_trees(&a, &b).unwrap();
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
    assert_eq!(r.unexplained[0].lines[0].agrees_with_config, Some(false));
}

#[test]
fn cubin_differing_for_a_kernel_with_the_same_config_is_unexplained() {
    let (a, b0) = h200_trees();
    let mut b = b0.clone();
    // triton_poi_fused_convolution_0 has no autotune choice; flip a byte of its cubin.
    let wrapper = b
        .files
        .iter()
        .find(|f| f.path.ends_with(".wrapper.cpp"))
        .and_then(|f| f.content.clone())
        .unwrap();
    let text = String::from_utf8(wrapper).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("loadKernel(") && l.contains("\"triton_poi_fused_convolution_0\""))
        .unwrap();
    let cubin = line
        .split(".cubin")
        .next()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_owned()
        + ".cubin";
    let f = b
        .files
        .iter_mut()
        .find(|f| f.path.ends_with(&cubin))
        .unwrap();
    let mut bytes = f.content.clone().unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    f.sha256 = sha(&bytes);
    f.content = Some(bytes);
    let r = diff_trees(&a, &b).unwrap();
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
    let d = r
        .file_diffs
        .iter()
        .find(|d| d.kernel.as_deref() == Some("triton_poi_fused_convolution_0"))
        .unwrap();
    assert_eq!(d.class, DiffClass::Unexplained);
}

#[test]
fn file_only_in_one_tree_is_unexplained() {
    let (a, b0) = h200_trees();
    let mut b = b0.clone();
    b.files.push(ArtifactFile {
        path: "package/extra.bin".into(),
        size: 3,
        sha256: sha(b"abc"),
        content: Some(b"abc".to_vec()),
    });
    let r = diff_trees(&a, &b).unwrap();
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
    assert_eq!(r.files.only_b, ["package/extra.bin"]);
}

#[test]
fn packages_plus_best_configs_from_the_reports() {
    // The `.pt2 + best_config files` input: package members only, with the
    // autotune choices taken from each run's report.
    let package = |tree: &str, report: &str| {
        let root = h200(tree).join("package");
        let mut t = fingerprints(&root);
        let v: Value = serde_json::from_slice(&read(h200(report))).unwrap();
        for (name, cfg) in v["best_configs"].as_object().unwrap() {
            let text = serde_json::to_vec(cfg).unwrap();
            t.files.push(ArtifactFile {
                path: format!("configs/{name}"),
                size: text.len() as u64,
                sha256: sha(&text),
                content: Some(text),
            });
        }
        let plan = lane_diff::content_plan(&t, &t, u64::MAX);
        load(&root, &mut t, &plan.a);
        t
    };
    let mut a = package("aot_a", "aot_a.json");
    let mut b = package("aot_b", "aot_b.json");
    // Load every package member: without the other tree, the plan above could
    // not know which ones differ.
    for (t, tree) in [(&mut a, "aot_a"), (&mut b, "aot_b")] {
        let root = h200(tree).join("package");
        let all: Vec<String> = t
            .files
            .iter()
            .filter(|f| f.content.is_none())
            .map(|f| f.path.clone())
            .collect();
        load(&root, t, &all);
    }
    let r = diff_trees(&a, &b).unwrap();
    assert_eq!(
        r.verdict,
        DeterminismVerdict::AutotuneConfigsOnly,
        "{:#?}",
        r.unexplained
    );
    let ours: BTreeSet<String> = r.kernels.config_differs.iter().cloned().collect();
    assert_eq!(ours, kernels_differing_in_probe_reports());
}

#[test]
fn a_block_size_written_as_a_string_is_a_finding_not_agreement() {
    let (mut a, mut b) = h200_trees();
    // The same ill-typed best_config on both sides: byte-identical, so it
    // would read as agreement if types were not checked.
    let path = a
        .files
        .iter()
        .find(|f| f.path.ends_with(".best_config"))
        .unwrap()
        .path
        .clone();
    let stringify = |t: &str| {
        let v: Value = serde_json::from_str(t).unwrap();
        let x = v["XBLOCK"].as_i64().unwrap();
        t.replacen(
            &format!("\"XBLOCK\": {x}"),
            &format!("\"XBLOCK\": \"{x}\""),
            1,
        )
    };
    edit(&mut a, &path, stringify);
    edit(&mut b, &path, stringify);
    let r = diff_trees(&a, &b).unwrap();
    assert_eq!(r.findings.len(), 2, "{:#?}", r.findings);
    let f = &r.findings[0];
    assert_eq!(
        (f.field.as_str(), f.expected),
        ("XBLOCK", "a non-negative integer")
    );
    assert!(f.value.is_string());
    let kernel = f.kernel.clone().unwrap();
    assert!(!r.kernels.config_same.contains(&kernel));
    assert!(!r.kernels.config_differs.contains(&kernel));
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
    assert!(r
        .unexplained
        .iter()
        .any(|u| u.cause == lane_diff::UnexplainedCause::IllTypedConfig));
}

#[path = "diff_cells.rs"]
mod cells;
