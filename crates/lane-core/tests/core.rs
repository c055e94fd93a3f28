//! The files lane really wrote, read back through today's types: every
//! `summary.json`, `mint.json` and `result.json` the real H200 runs left in
//! `tests/data/gw-0.93.3-h200/` (written by an earlier lane: what reads
//! them now must still read them, or say where they stopped being its).

use lane_core::results::Contract;
use lane_core::{AgentResult, MintRecord, Summary};
use lane_testkit::data::{eras, files, gw, read};

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

/// Issue 20: `mint.json` and `result.json` share their gathered cells,
/// isolation and notes (`Gathering`, flattened in). Every one lane recorded,
/// in every era, still reads, and writes back as it was written: the same
/// keys in the same order with the same values (the fold moved no key).
#[test]
fn every_recorded_mint_record_and_agent_result_writes_back_as_written() {
    fn same<T: Contract>(dir: &std::path::Path, name: &str) -> usize {
        let all: Vec<_> = files(dir)
            .into_iter()
            .filter(|p| p.file_name().is_some_and(|n| n == name))
            .collect();
        for p in &all {
            let bytes = read(p);
            let shown = p.display().to_string();
            let value = T::from_json(&shown, &bytes).unwrap_or_else(|e| panic!("{e}"));
            let written = value.to_json();
            // The same keys in the same order, each with the same value (a
            // float compares as read: its last printed digit may differ).
            let keys = |b: &[u8]| -> Vec<String> {
                String::from_utf8_lossy(b)
                    .lines()
                    .filter_map(|l| l.strip_prefix("  \"")?.split_once('"'))
                    .map(|(k, _)| k.to_owned())
                    .collect()
            };
            assert_eq!(keys(&written), keys(&bytes), "{shown}");
            let as_value = |b: &[u8]| serde_json::from_slice::<serde_json::Value>(b).unwrap();
            assert_eq!(as_value(&written), as_value(&bytes), "{shown}");
        }
        all.len()
    }
    let mut n = 0;
    for dir in [gw(""), eras("")] {
        n += same::<MintRecord>(&dir, "mint.json") + same::<AgentResult>(&dir, "result.json");
    }
    assert!(n >= 40, "{n}");
}

/// What `cargo <args>` prints, run at the workspace root (it must succeed).
fn cargo(args: &[&str]) -> Vec<u8> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(args)
        .current_dir(lane_testkit::tools::root())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The crates a package's normal build pulls in (`cargo tree`), by name.
fn graph(args: &[&str]) -> std::collections::BTreeSet<String> {
    let mut all = vec![
        "tree",
        "-q",
        "-e",
        "normal",
        "--prefix",
        "none",
        "--locked",
        "--offline",
    ];
    all.extend_from_slice(args);
    String::from_utf8_lossy(&cargo(&all))
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
    // The history method is a pure model: on the core's nouns only (the
    // environment fingerprint is lane-core's; lane-ledger is only its
    // tests'), no runtime, client, store or process crate.
    let history = graph(&["-p", "lane-history"]);
    let lane: Vec<_> = history.iter().filter(|c| c.starts_with("lane-")).collect();
    assert_eq!(
        lane,
        ["lane-core", "lane-history"],
        "lane-history depends on lane-core only"
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

/// ARCHITECTURE.md's code map, layer by layer (0 = the core): a crate may
/// depend on its own layer or one above it (a lower number), never below.
/// lane-fixture is dev-only, an optional dependency of lane-app's `demo`.
const LAYERS: &[(&str, u8)] = &[
    ("lane-core", 0),
    ("lane-file", 1),
    ("lane-json", 1),
    ("lane-ledger", 1),
    ("lane-history", 1),
    ("lane-diff", 1),
    ("lane-kube-job", 1),
    ("lane-render", 1),
    ("lane-webhook", 1),
    ("lane-wire", 1),
    ("lane-git", 2),
    ("lane-store", 2),
    ("lane-github", 2),
    ("lane-wheel", 2),
    ("lane-agent", 2),
    ("lane-sqlite", 2),
    ("lane-runtime", 2),
    ("lane-mint", 3),
    ("lane-kube", 3),
    ("lane-backend", 4),
    ("lane-app", 5),
    ("lane-serve", 6),
    ("lane-cli", 7),
    ("lane-testkit", 8),
    ("lane-fixture", 8),
    ("lane-fuzz", 8),
];

/// Every workspace crate's direct normal dependencies on lane crates
/// (`cargo metadata`), with whether each is optional.
fn direct_lane_deps() -> std::collections::BTreeMap<String, Vec<(String, bool)>> {
    let out = cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
        "--offline",
    ]);
    let meta: serde_json::Value = serde_json::from_slice(&out).unwrap();
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["kind"].is_null())
                .filter_map(|d| {
                    let name = d["name"].as_str()?;
                    name.starts_with("lane-")
                        .then(|| (name.to_owned(), d["optional"] == true))
                })
                .collect();
            (p["name"].as_str().unwrap().to_owned(), deps)
        })
        .collect()
}

/// The layer test covers every crate: each is placed in a layer, and none
/// depends on a layer below its own (what let lane-serve reach into
/// lane-mint for its SQLite policy).
#[test]
fn every_crate_depends_only_on_its_layer_or_above() {
    let layer = |name: &str| LAYERS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l);
    let graph = direct_lane_deps();
    let unplaced: Vec<&String> = graph.keys().filter(|c| layer(c).is_none()).collect();
    assert!(unplaced.is_empty(), "crates with no layer: {unplaced:?}");
    let mut wrong = Vec::new();
    for (krate, deps) in &graph {
        let own = layer(krate).unwrap();
        for (dep, optional) in deps {
            let theirs = layer(dep).unwrap();
            let dev_only = dep == "lane-fixture" && *optional;
            if theirs > own && !dev_only {
                wrong.push(format!("{krate} (layer {own}) -> {dep} (layer {theirs})"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    // The edges the issue found climbing back: serve never reaches the
    // backends, the app never the service.
    let direct = |krate: &str| -> Vec<&str> { graph[krate].iter().map(|d| d.0.as_str()).collect() };
    let serve = direct("lane-serve");
    assert!(
        !serve.contains(&"lane-mint")
            && !serve.contains(&"lane-kube")
            && !serve.contains(&"lane-backend"),
        "{serve:?}"
    );
    // The backend seam sits below the app: a mint goes down to it, and
    // neither it nor what it runs on ever names the app.
    for below in ["lane-backend", "lane-mint", "lane-kube"] {
        assert!(!direct(below).contains(&"lane-app"), "{below} -> lane-app");
    }
    assert!(direct("lane-app").contains(&"lane-backend"));
    // The app reaches Kubernetes only through the seam.
    assert!(
        !direct("lane-app").contains(&"lane-kube"),
        "lane-app -> lane-kube"
    );
}

/// Every line of the crates' library and binary code (tests, benches,
/// examples, test data and the dev-only crates left out, and each file's
/// `#[cfg(test)] mod tests` and comments), with its place.
fn code_lines() -> Vec<(String, String)> {
    let root = lane_testkit::tools::root().join("crates");
    let mut lines = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                let name = path.file_name().unwrap().to_string_lossy();
                if !["tests", "benches", "examples", "target", "data"].contains(&name.as_ref())
                    && !rel.starts_with("lane-testkit")
                    && !rel.starts_with("lane-fuzz")
                    && !rel.starts_with("lane-fixture")
                {
                    stack.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || rel.ends_with("/tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
            for (n, line) in code.lines().enumerate() {
                if !line.trim_start().starts_with("//") {
                    lines.push((format!("crates/{rel}:{}", n + 1), line.trim().to_owned()));
                }
            }
        }
    }
    lines
}

/// What `lane_core::layout` owns is spelled nowhere else: no crate's code
/// (tests aside, which say what is on disk) writes a file name of a run's
/// slot, results folder or bundle, a store-key prefix or a history key.
#[test]
fn no_path_file_name_or_store_key_of_a_run_is_spelled_outside_the_layout() {
    const SPELLED: &[&str] = &[
        "\"report.json\"",
        "\"mint.json\"",
        "\"summary.json\"",
        "\"result.json\"",
        "\"bundle.zip\"",
        "\"claim.json\"",
        "\"runs.sqlite\"",
        "\"artifacts\"",
        "\"lanes/",
        "\"history/",
        "/bundle.zip",
        "/claim.json",
        "\"mints\"",
        "\"agent.lock\"",
        "\"agent.log\"",
        "\"stdout.log\"",
        "\"mint.pid\"",
        "\"ended.json\"",
        "\"iso\"",
        "\"iso/",
    ];
    let found: Vec<String> = code_lines()
        .into_iter()
        .filter(|(at, _)| !at.starts_with("crates/lane-core/src/layout.rs:"))
        .filter(|(_, line)| SPELLED.iter().any(|s| line.contains(s)))
        .map(|(at, line)| format!("{at}: {line}"))
        .collect();
    assert!(
        found.is_empty(),
        "spelled outside lane_core::layout:\n{}",
        found.join("\n")
    );
}

/// One runtime per process: no crate's code builds a tokio runtime but
/// lane-runtime (the binary builds the one it hands down there).
#[test]
fn no_crate_builds_a_runtime_but_lane_runtime() {
    let found: Vec<String> = code_lines()
        .into_iter()
        .filter(|(at, _)| !at.starts_with("crates/lane-runtime/"))
        .filter(|(_, line)| {
            ["runtime::Builder", "Runtime::new(", "#[tokio::main"]
                .iter()
                .any(|s| line.contains(s))
        })
        .map(|(at, line)| format!("{at}: {line}"))
        .collect();
    assert!(
        found.is_empty(),
        "runtimes built outside lane-runtime:\n{}",
        found.join("\n")
    );
}
