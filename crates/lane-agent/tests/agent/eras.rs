//! The agent on each gen-worker era's real capture (`tests/data/gw-eras`,
//! one H200 run per era): what it reads, which cells it gathers and
//! checks, and what it says beside the status.

use super::*;
use lane_core::ArtifactState;

/// `tests/data/gw-eras/<rel>`.
fn eras(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/gw-eras")
        .join(rel)
}

/// A mint that plays a recorded rig run (`<tag>/<run>`) in its attempt's
/// folder: its report where the child wrote it (the device's run root,
/// `/tmp/eras/<tag>/<run>`, made this folder), its share report, the
/// entries recorded under `entries_of` (a run whose entries are the same
/// bytes), and the rig's exit code.
fn rig_replay(tag: &str, run: &str, entries_of: Option<&str>, rc: i32) -> String {
    let src = eras(&format!("{tag}/{run}"));
    let mut s = format!(
        "set -e; mkdir -p rig/mint/compile-pool/share-000; \
         sed \"s#/tmp/eras/{tag}/{run}#$PWD#g\" '{src}/rig/mint/report.json' > rig/mint/report.json; ",
        src = src.display()
    );
    let share = src.join("rig/mint/compile-pool/share-000/report.json");
    if share.exists() {
        s.push_str(&format!(
            "cp '{}' rig/mint/compile-pool/share-000/; ",
            share.display()
        ));
    }
    if let Some(of) = entries_of {
        s.push_str(&format!(
            "cp '{}'/rig/mint/*.tar.gz rig/mint/; ",
            eras(&format!("{tag}/{of}")).display()
        ));
    }
    s.push_str(&format!("exit {rc}"));
    s
}

fn rig_cell(dir: &Path, recipe: &str, script: &str) -> AgentSpec {
    let mut s = spec(dir, script, 60);
    s.id = id("rig-aot");
    s.id.gpu = "H200".into();
    s.recipe = recipe.into();
    s.report = Some("rig/mint/report.json".into());
    s
}

/// The gathered entries: (key, sha256 matched, GPU code objects).
fn gathered(r: &lane_core::AgentResult) -> Vec<(String, Option<bool>, Option<u64>)> {
    r.gathering
        .entries
        .iter()
        .map(|e| match e {
            ArtifactState::Gathered {
                key,
                digest_matches,
                cubins,
                ..
            } => (key.clone().unwrap_or_default(), *digest_matches, *cubins),
            other => panic!("not gathered: {other:?}"),
        })
        .collect()
}

#[test]
fn v0_114_3_every_entry_is_gathered_and_the_rigs_crash_and_the_cpu_code_are_said() {
    let d = tempfile::tempdir().unwrap();
    let s = rig_cell(
        d.path(),
        "aot",
        &rig_replay("v0.114.3", "r1", Some("r1"), 1),
    );
    let r = run_agent(&s).unwrap();
    // The child's report says minted, although the rig then raised
    // AttributeError and exited 1 (pgw#1352, repaired in 0.124); lane checks
    // the claim like a digest: cells of CPU code on a GPU class failed.
    assert_eq!(r.outcome, MintStatus::Failed, "{}", r.reason);
    assert!(
        r.reason.contains("none of its 3 cell(s) holds GPU code"),
        "{}",
        r.reason
    );
    assert_eq!(r.end, ProcessEnd::Exited { code: 1 });
    assert!(
        r.reason
            .starts_with("the report says `minted` (phase `finalize`): exported 3 graph class(es)"),
        "{}",
        r.reason
    );
    // `artifact`, `digest` and `cell_key` are "" in this era: the cells are
    // the three `entries`, each checked against its sha256.
    assert_eq!(r.gathering.artifact, None);
    assert_eq!(
        gathered(&r),
        [
            (
                "cg-key-v1-68fd6ec189de80c4649bba5b998aba1ed5121369be3a344f583f461d".to_owned(),
                Some(true),
                Some(0)
            ),
            (
                "cg-key-v1-d3fd99d914a9b52b83d31dfc97aea6cc99ffb359255b32f18fd94149".to_owned(),
                Some(true),
                Some(0)
            ),
            (
                "cg-key-v1-47fb8e9c03505070cc52673bd50186752b5389c07704bdb74a0966f8".to_owned(),
                Some(true),
                Some(0)
            ),
        ]
    );
    assert_eq!(r.files.len(), 3, "{:?}", r.files);
    let notes = r.gathering.notes.join("\n");
    assert!(
        notes.contains("the command exited 1 after its report said `minted`"),
        "{notes}"
    );
    assert!(notes.contains("pgw#1352"), "{notes}");
    // The rig's toy compiled for the CPU on an H200 (no .cubin anywhere):
    // the status's own reason.
    assert!(
        r.reason.ends_with("it compiled for the CPU"),
        "{}",
        r.reason
    );
    // The compile pool's share report is kept beside the report.
    assert!(d
        .path()
        .join("ledger/compile-pool/share-000/report.json")
        .is_file());
}

#[test]
fn v0_114_3_entries_outside_the_mint_folder_are_not_gathered() {
    // The report as recorded names the device's /tmp/eras/... paths.
    let d = tempfile::tempdir().unwrap();
    let src = eras("v0.114.3/r1/rig/mint/report.json");
    let s = rig_cell(
        d.path(),
        "aot",
        &format!(
            "mkdir -p rig/mint && cp '{}' rig/mint/report.json",
            src.display()
        ),
    );
    let r = run_agent(&s).unwrap();
    // None of them exists here: crashed, as a missing artifact is.
    assert_eq!(r.outcome, MintStatus::Crashed, "{}", r.reason);
    assert!(
        r.reason.contains(
            "but its cell `cg-key-v1-68fd6ec189de80c4649bba5b998aba1ed5121369be3a344f583f461d`"
        ),
        "{}",
        r.reason
    );
    assert_eq!(r.gathering.entries.len(), 3);
}

#[test]
fn v0_126_3_r1_fails_its_gpu_claim_with_three_cpu_entries() {
    let d = tempfile::tempdir().unwrap();
    let s = rig_cell(
        d.path(),
        "aot",
        &rig_replay("v0.126.3", "r1", Some("r1"), 0),
    );
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Failed, "{}", r.reason);
    assert!(
        r.reason.starts_with("the report says `minted`"),
        "{}",
        r.reason
    );
    let g = gathered(&r);
    assert_eq!(g.len(), 3);
    assert!(
        g.iter().all(|(k, ok, cubins)| k.starts_with("cg-key-v1-")
            && *ok == Some(true)
            && *cubins == Some(0)),
        "{g:?}"
    );
    assert!(r.reason.contains("holds GPU code"), "{}", r.reason);
    assert!(
        !r.gathering.notes.iter().any(|n| n.contains("exited")),
        "{:?}",
        r.gathering.notes
    );
}

#[test]
fn v0_126_3_r2_reused_r1s_bytes_and_they_check_against_its_report() {
    // r2 resolved every class from the shared /tmp/tensorhub-cache: its
    // entries are r1's bytes (the same sha256 in both reports).
    let sha = |run: &str| -> Vec<String> {
        let v: serde_json::Value = serde_json::from_slice(
            &std::fs::read(eras(&format!("v0.126.3/{run}/rig/mint/report.json"))).unwrap(),
        )
        .unwrap();
        v["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e[2].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(sha("r1"), sha("r2"));
    let d = tempfile::tempdir().unwrap();
    let s = rig_cell(
        d.path(),
        "aot",
        &rig_replay("v0.126.3", "r2", Some("r1"), 0),
    );
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Failed, "{}", r.reason);
    assert!(gathered(&r).iter().all(|(_, ok, _)| *ok == Some(true)));
}

#[test]
fn v0_100_1_a_missing_cell_is_crashed_and_a_dynamo_cell_that_ran_aot_fails() {
    // The cell itself is not kept (README: described by its sha256).
    let d = tempfile::tempdir().unwrap();
    let s = rig_cell(d.path(), "aot", &rig_replay("v0.100.1", "r1", None, 0));
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Crashed, "{}", r.reason);
    assert!(
        r.reason
            .contains("/rig/mint/cell.tar.gz` was not gathered: no such file"),
        "{}",
        r.reason
    );
    // 0.95 on has no dynamo recipe and no `recipe` echo: a dynamo cell's
    // mint ran aot (its aot phase table says so), which fails the lane.
    let d = tempfile::tempdir().unwrap();
    let s = rig_cell(d.path(), "dynamo", &rig_replay("v0.100.1", "r1", None, 0));
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Failed, "{}", r.reason);
    assert!(
        r.reason.contains("an aot mint (its report's aot phase table or packed entries; gen-worker 0.95 and later run only the aot recipe and read PGW978_RECIPE nowhere), not this cell's dynamo"),
        "{}",
        r.reason
    );
}

/// A mint that plays the recorded `gen-worker compile` run: its verdict
/// where `--verdict "$LANE_REPORT_PATH"` writes it, the compiled graphs
/// where `gen-worker compile` leaves them under the home
/// (`~/.cache/cozy/compiled-graphs/<graph[:16]>/`), and its TORCH_TRACE logs.
fn compile_replay(graphs: &str) -> String {
    let src = eras("v0.127.2/r1");
    format!(
        "set -e; cp '{s}/verdict.json' \"$LANE_REPORT_PATH\"; mkdir -p \"$HOME/.cache/cozy/compiled-graphs\"; \
         for g in {graphs}; do cp -r '{s}/compiled-graphs/'$g \"$HOME/.cache/cozy/compiled-graphs/\"; done; \
         cp '{s}'/trace/*.log \"$TORCH_TRACE\"/",
        s = src.display()
    )
}

#[test]
fn v0_127_2_the_verdict_is_the_report_and_each_built_graph_is_gathered() {
    let d = tempfile::tempdir().unwrap();
    let mut s = rig_cell(
        d.path(),
        "aot",
        &compile_replay("cg-graph-v1-f147 cg-graph-v1-bc4b cg-graph-v1-dec4"),
    );
    s.report = Some("verdict.json".into());
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Minted, "{}", r.reason);
    assert!(
        r.reason
            .starts_with("the report says `minted`: gen-worker compile: built=3 (of 3)"),
        "{}",
        r.reason
    );
    let g = gathered(&r);
    assert_eq!(
        g.iter().map(|(k, _, _)| &k[..16]).collect::<Vec<_>>(),
        ["cg-graph-v1-f147", "cg-graph-v1-bc4b", "cg-graph-v1-dec4"]
    );
    // GPU code this time (0.127 compiles from a cuda export); no sha256 to check.
    assert!(
        g.iter()
            .all(|(_, ok, cubins)| ok.is_none() && cubins.is_some_and(|n| n > 0)),
        "{g:?}"
    );
    assert!(
        !r.gathering
            .notes
            .iter()
            .any(|n| n.starts_with("no GPU code")),
        "{:?}",
        r.gathering.notes
    );
    assert!(r
        .files
        .iter()
        .all(|f| f.path.starts_with("cg-graph-v1-") && f.path.ends_with(".pt2")));
    // The TORCH_TRACE logs survive `gen-worker compile` and are kept.
    let traces = std::fs::read_dir(d.path().join("ledger/trace"))
        .unwrap()
        .count();
    assert_eq!(traces, 4);
    // The verdict is kept as report.json, as any report written elsewhere.
    assert!(d.path().join("report.json").is_file());
}

#[test]
fn v0_127_2_a_built_graph_whose_package_is_missing_is_crashed() {
    let d = tempfile::tempdir().unwrap();
    let mut s = rig_cell(d.path(), "aot", &compile_replay("cg-graph-v1-f147"));
    s.report = Some("verdict.json".into());
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Crashed, "{}", r.reason);
    assert!(
        r.reason.contains(
            "its cell `cg-graph-v1-bc4b9a3cc3f3feb6f6fe4aef5b6b23137930540c91902b58e1970f3b`"
        ),
        "{}",
        r.reason
    );
}

/// The warm repeat lane recorded on purpose (`lanes/0.0.5.yaml` on an H100,
/// `tests/data/gw-eras/warm`): its graph store was the first repeat's, so
/// `gen-worker compile` found every specialization `present` and built
/// nothing. It is no cold repeat, has no cell of its own, and another
/// attempt given the same store would end the same: failed, not crashed.
#[test]
fn v0_127_2_a_warm_repeat_whose_graphs_were_present_fails_as_not_cold() {
    let d = tempfile::tempdir().unwrap();
    let verdict = eras("warm/v0.127.2/results/compile-toy/H100/r2/report.json");
    let mut s = rig_cell(
        d.path(),
        "aot",
        &format!("cp '{}' \"$LANE_REPORT_PATH\"", verdict.display()),
    );
    s.report = Some("verdict.json".into());
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Failed, "{}", r.reason);
    assert_eq!(
        r.reason,
        "the report says `minted`: gen-worker compile: present=3 (of 3), but 3 specialization(s) \
         were not built by this attempt: \
         cg-graph-v1-f14737f96cec5d64411dbb2da8e53055e903d80ba57a731bc964d828 (present), \
         cg-graph-v1-bc4b9a3cc3f3feb6f6fe4aef5b6b23137930540c91902b58e1970f3b (present), \
         cg-graph-v1-dec46b67873d5417b0e6bae4a662f243a07bea09570e89619cf3ef7e (present); \
         it is not cold, and has no cell of its own for them"
    );
    assert!(gathered(&r).is_empty());
}

/// As a pod mints: the same 0.127.2 replay with a store. Every compiled
/// graph (2.9 MB each, over nothing the bundle would inline) travels under
/// its own key, byte for byte, and the bundle's manifest names all three.
#[test]
fn v0_127_2_through_the_store_each_built_graph_travels_under_its_own_key() {
    let d = tempfile::tempdir().unwrap();
    let store = d.path().join("store");
    let mut s = rig_cell(
        &d.path().join("m"),
        "aot",
        &compile_replay("cg-graph-v1-f147 cg-graph-v1-bc4b cg-graph-v1-dec4"),
    );
    s.report = Some("verdict.json".into());
    s.store = Some(store.to_string_lossy().into_owned());
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Minted, "{}", r.reason);
    let Some(lane_core::BundleState::Stored { stored, .. }) = &r.bundle else {
        panic!("{:?}", r.bundle)
    };
    let mut graphs: Vec<&str> = stored
        .iter()
        .filter(|f| f.path.ends_with(".pt2"))
        .map(|f| &f.path["artifacts/".len()..]["cg-graph-v1-".len()..][..4])
        .collect();
    graphs.sort_unstable();
    assert_eq!(graphs, ["bc4b", "dec4", "f147"], "{stored:?}");
    for f in stored.iter().filter(|f| f.path.ends_with(".pt2")) {
        let got = std::fs::read(store.join(&f.key)).unwrap();
        assert_eq!(got.len() as u64, f.size, "{}", f.path);
        assert_eq!(lane_store::sha256_hex(&got), f.sha256, "{}", f.path);
        let local = std::fs::read(d.path().join("m").join(&f.path)).unwrap();
        assert_eq!(
            got, local,
            "{}: the stored bytes are the gathered ones",
            f.path
        );
    }
}

/// The warm 0.126.3 repeat lane recorded on purpose (`lanes/0.0.4.yaml`,
/// `tests/data/gw-eras/warm`): every class of its aot table was resolved
/// from the first repeat's cache (`compile_s` 0, `reuse_s` > 0). Its
/// report says `minted`; the agent fails it as not cold, naming each class.
#[test]
fn v0_126_3_a_warm_repeat_whose_classes_came_from_the_cache_fails_as_not_cold() {
    let d = tempfile::tempdir().unwrap();
    let report = eras("warm/v0.126.3/results/rig-aot/H100/r2/report.json");
    let s = rig_cell(
        d.path(),
        "aot",
        &format!(
            "mkdir -p \"$(dirname \"$LANE_REPORT_PATH\")\" && cp '{}' \"$LANE_REPORT_PATH\"",
            report.display()
        ),
    );
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Failed, "{}", r.reason);
    assert!(
        r.reason.ends_with(
            ", but 3 graph class(es) were not compiled by this attempt: \
             unet/B=1 (reuse_s 0.030: from the compiled-graph cache), \
             unet/B=2 (reuse_s 0.029: from the compiled-graph cache), \
             unet/B=4 (reuse_s 0.029: from the compiled-graph cache); \
             it is not cold, and its cell holds graphs another compile made"
        ),
        "{}",
        r.reason
    );
}
