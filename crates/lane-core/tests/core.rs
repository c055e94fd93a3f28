//! The files lane really wrote, read back through today's types: every
//! `summary.json`, `mint.json` and `result.json` the real H200 runs left in
//! `tests/data/gw-0.93.3-h200/` (written by an earlier lane: what reads
//! them now must still read them, or say where they stopped being its).

use lane_core::results::Contract;
use lane_core::{AgentResult, MintRecord, Summary};
use lane_testkit::data::{files, gw, read};

fn written(name: &str) -> Vec<std::path::PathBuf> {
    let all: Vec<_> = files(&gw(""))
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == name))
        .collect();
    assert!(
        !all.is_empty(),
        "no recorded {name} under {}",
        gw("").display()
    );
    all
}

fn reads<T: Contract>(name: &str) -> Vec<T> {
    written(name)
        .into_iter()
        .map(|p| {
            T::from_json(&p.display().to_string(), &read(&p)).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

#[test]
fn every_recorded_summary_reads_through_the_summary_type() {
    let all: Vec<Summary> = reads("summary.json");
    assert_eq!(
        all.len(),
        6,
        "h200-run, h200-run-unshimmed-gw and h200-run-session4, 5, 6 and 7"
    );
    for s in &all {
        assert_eq!(s.lane, "0.0.0");
        assert_eq!(s.mints.len(), 4, "{s:?}");
    }
    // Five runs minted every slot; the unshimmed one's dynamo slots failed
    // at the upstream's cubin gate. None was cancelled.
    assert_eq!(all.iter().filter(|s| s.green).count(), 5);
    assert!(all.iter().all(|s| !s.cancelled));
}

#[test]
fn every_recorded_mint_record_and_agent_result_reads_through_its_type() {
    let records: Vec<MintRecord> = reads("mint.json");
    assert!(records.len() >= 8, "{}", records.len());
    // A failed mint keeps its seconds.
    assert!(records.iter().all(|r| r.wall_s.is_some()), "{records:?}");
    let results: Vec<AgentResult> = reads("result.json");
    assert!(results.len() >= 4, "{}", results.len());
    for r in &results {
        assert!(r.wall_s.is_some() && r.started_at.is_some(), "{:?}", r.id);
    }
}

/// The crates a package's normal build pulls in (`cargo tree`), by name.
fn graph(args: &[&str]) -> std::collections::BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "tree",
            "-q",
            "-e",
            "normal",
            "--prefix",
            "none",
            "--locked",
            "--offline",
        ])
        .args(args)
        .current_dir(lane_testkit::tools::root())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect()
}

fn app_graph() -> std::collections::BTreeSet<String> {
    graph(&["-p", "lane-app", "--all-features"])
}

/// The layers ARCHITECTURE.md draws, held by the dependency graph: the core
/// depends on no lane crate; the Job builder compiles without tokio or
/// kube-rs; the webhook core is pure (lane-core only, no runtime, no
/// server, no client); the shipped binary (no `demo`) carries no demo
/// generator, and each edge (`kube`, `github`) is there only when asked for.
#[test]
fn the_crate_graph_keeps_its_layers() {
    let core = graph(&["-p", "lane-core"]);
    let lane: Vec<_> = core.iter().filter(|c| c.starts_with("lane-")).collect();
    assert_eq!(lane, ["lane-core"], "lane-core depends on no lane crate");
    let job = graph(&["-p", "lane-kube-job"]);
    for heavy in ["tokio", "kube", "kube-client", "hyper", "rusqlite"] {
        assert!(!job.contains(heavy), "lane-kube-job pulls in {heavy}");
    }
    let webhook = graph(&["-p", "lane-webhook"]);
    let lane: Vec<_> = webhook.iter().filter(|c| c.starts_with("lane-")).collect();
    assert_eq!(
        lane,
        ["lane-core", "lane-webhook"],
        "lane-webhook depends only on lane-core"
    );
    for io in [
        "tokio", "hyper", "axum", "mio", "octocrab", "ureq", "rusqlite", "git2",
    ] {
        assert!(!webhook.contains(io), "lane-webhook pulls in {io}");
    }
    // The history method is a pure model: no lane crate (lane-ledger is
    // only its tests'), no runtime, client, store or process crate.
    let history = graph(&["-p", "lane-history"]);
    let lane: Vec<_> = history.iter().filter(|c| c.starts_with("lane-")).collect();
    assert_eq!(
        lane,
        ["lane-history"],
        "lane-history depends on no lane crate"
    );
    for io in ["tokio", "hyper", "ureq", "rusqlite", "git2", "nix", "rand"] {
        assert!(!history.contains(io), "lane-history pulls in {io}");
    }
    // lane-serve is an edge over lane-app: it calls the commands, never
    // the backends or the run store beneath them, and only lane-cli uses it.
    let serve = graph(&["-p", "lane-serve"]);
    for layer in ["lane-app", "lane-webhook", "lane-github"] {
        assert!(serve.contains(layer), "lane-serve builds on {layer}");
    }
    assert!(
        !serve.contains("lane-cli"),
        "lane-serve depends on lane-cli"
    );
    assert!(
        !app_graph().contains("lane-serve"),
        "lane-app depends on lane-serve"
    );
    let shipped = graph(&[
        "-p",
        "lane-cli",
        "--no-default-features",
        "--features",
        "kube,github,serve",
    ]);
    assert!(
        shipped.contains("lane-serve"),
        "lane serve is in the shipped binary"
    );
    assert!(
        !shipped.contains("lane-fixture"),
        "the shipped binary carries the demo generator"
    );
    assert!(
        !shipped.contains("lane-testkit"),
        "the shipped binary carries the test kit"
    );
    assert!(
        shipped.contains("lane-kube"),
        "the kube edge is in the shipped binary"
    );
    assert!(
        shipped.contains("octocrab"),
        "the github edge is in the shipped binary"
    );
    // Without its edges, the binary carries neither client nor the generator.
    let bare = graph(&["-p", "lane-cli", "--no-default-features"]);
    for edge in ["kube", "octocrab", "lane-fixture", "lane-serve", "axum"] {
        assert!(
            !bare.contains(edge),
            "a build without features pulls in {edge}"
        );
    }
}
