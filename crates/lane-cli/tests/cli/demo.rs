//! `lane demo`: the README's main job, end to end on embedded defaults.

use super::{code, lane, stderr, stdout, Redact};

#[test]
fn the_demo_cuts_mints_by_replay_and_reports_honestly() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("demo");
    let o = lane(d.path(), &["demo", "--out", out.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    // The demo makes its upstream afresh: its commits, the wheel's digest
    // and the replays' seconds differ run to run.
    let redact = Redact::new()
        .dir(d.path(), "<TMP>")
        .seconds()
        .shas()
        .pattern(r"sha256 [0-9a-f]{12}…", "sha256 <SHORT>…");
    insta::assert_snapshot!("demo_text", redact.apply(&in_order(&text)));
    assert!(text.contains("result: cut release/0.93.3"), "{text}");
    assert!(
        text.contains("guard wire-v1 on release/0.93.3: passed"),
        "{text}"
    );
    assert!(text.contains("guard wire-v1 on master: REFUSED"), "{text}");
    // The real gen-worker pairs: every difference has a named cause.
    assert!(
        text.contains(
            "rig-aot determinism (r1 vs r2): verdict: differs by recorded decisions that flipped"
        ),
        "{text}"
    );
    assert!(
        text.contains("rig-dynamo determinism (r1 vs r2): verdict:")
            && !text.contains("unexplained"),
        "{text}"
    );
    assert!(
        text.contains("0.93.3/rig-aot/H200/r1/a1: minted"),
        "the real report, read where the cell says, with its cell gathered: {text}"
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("replay"), "{report}");
    assert!(
        report.contains("compile_other_s"),
        "the named residual is shown: {report}"
    );
    let summary = std::fs::read_to_string(out.join("lanes/0.93.3/results/summary.json")).unwrap();
    assert!(
        summary.contains("\"replay\": true") && summary.contains("\"green\": true"),
        "{summary}"
    );
    // A second demo replaces the first; a folder that is not a demo is refused.
    assert_eq!(
        code(&lane(d.path(), &["demo", "--out", out.to_str().unwrap()])),
        0
    );
    let o = lane(d.path(), &["demo", "--out", d.path().to_str().unwrap()]);
    assert_eq!(code(&o), 6, "{}", stderr(&o));
}

#[test]
fn regression_a_cell_without_artifacts_gets_no_determinism_diff_not_an_error() {
    // `lane demo` failed writing its per-cell report: the dynamo cell's
    // repeats had empty artifact folders and the diff refused "no files".
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("demo");
    let o = lane(d.path(), &["demo", "--out", out.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let html = std::fs::read_to_string(out.join("lanes/0.93.3/report/report.html")).unwrap();
    assert!(
        html.contains("rig-dynamo") && html.contains("<svg"),
        "the dynamo cell is charted"
    );
    assert!(out.join("lanes/0.93.3/report/report.json").is_file());
}

/// Regression: the demo's report said "Wheel: not staged" and "Guards: not
/// recorded" right after it staged the wheel and passed the guards, because
/// `summary.json` never recorded them and the report read fields no writer
/// wrote.
#[test]
fn regression_the_demo_report_shows_the_wheel_and_the_guards_it_produced() {
    use lane_core::results::Contract;
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("demo");
    let o = lane(d.path(), &["demo", "--out", out.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let results = out.join("lanes/0.93.3/results/summary.json");
    let summary =
        lane_core::Summary::from_json("summary.json", &std::fs::read(&results).unwrap()).unwrap();
    let wheel = summary.wheel.expect("the wheel the mints installed");
    assert_eq!(wheel.file, "gen_worker-0.93.3-py3-none-any.whl");
    let guard = summary.guard.expect("the guards on the commit minted");
    assert!(guard.passed, "{guard:?}");
    assert_eq!(wheel.commit.as_deref(), Some(guard.commit.as_str()));
    let md = std::fs::read_to_string(out.join("lanes/0.93.3/report/report.md")).unwrap();
    assert!(md.contains(&format!("(sha256 {}", wheel.sha256)), "{md}");
    assert!(
        md.contains("| Guards | passed — wire-v1: 3 checks held |"),
        "{md}"
    );
    assert!(
        !md.contains("not staged") && !md.contains("not recorded"),
        "{md}"
    );
}

/// Issue 34: the demo's results (`"replay": true`: recorded mints played
/// back, no compile ran) passed the publish gate, and the wheel was
/// uploaded with `"gate": "green"`. They are refused, naming why, before
/// any upload (the index here is a closed port: an upload would exit 1).
#[test]
fn regression_publish_refuses_the_demos_replayed_results() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("demo");
    let o = lane(d.path(), &["demo", "--out", out.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_lane"))
        .args([
            "publish",
            "0.93.3",
            "--store",
            "store",
            "--results",
            "lanes/0.93.3/results/summary.json",
        ])
        .current_dir(&out)
        .env_remove("LANE_LOG")
        .env("NO_COLOR", "1")
        .env("LANE_INDEX_URL", "http://127.0.0.1:9/")
        .env("LANE_INDEX_TOKEN", "never-sent")
        .output()
        .unwrap();
    assert_eq!(code(&o), 6, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("the mint results are replayed"),
        "{}",
        stderr(&o)
    );
    assert!(
        std::fs::read_dir(out.join("store/lanes/0.93.3"))
            .unwrap()
            .flatten()
            .all(|c| !c.path().join("publish.json").exists()),
        "no publish record"
    );
}

/// The demo's text with the lines of its mint step sorted: the mints run
/// at once, and each is told as it ends.
/// The later eras replay through the demo's machinery (`lane replay-mint`
/// under `lane mint`): the 0.126.3 rig's `entries` and share reports and
/// the 0.127.2 compile's built graphs and TORCH_TRACE logs are laid where
/// the real mint leaves them, and the agent gathers and checks them as it
/// did on the device (`tests/data/gw-eras/warm`, minted on an H100).
#[test]
fn every_later_era_replays_under_lane_mint() {
    let d = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_lane");
    let warm = format!("{}/tests/data/gw-eras/warm", super::ROOT);
    let lane_file = format!(
        "version: \"0.0.9\"\nupstream: {{repo: ./up}}\nbase: v0.126.3\nmint:\n  gpus: [H100]\n  cold_repeats: 2\n  concurrency: 1\n  retry: {{crashed: 0, resource: 0}}\n  cells:\n\
         \x20   - {{name: rig-aot, recipe: aot, report: rig/mint/report.json, command: [{exe}, replay-mint, --recorded, {warm}/v0.126.3/results/rig-aot/H100], env: {{LANE_REPLAY: \"1\"}}}}\n\
         \x20   - {{name: compile-toy, recipe: aot, report: verdict.json, command: [{exe}, replay-mint, --recorded, {warm}/v0.127.2/results/compile-toy/H100], env: {{LANE_REPLAY: \"1\"}}}}\n"
    );
    std::fs::create_dir_all(d.path().join("lanes")).unwrap();
    std::fs::write(d.path().join("lanes/0.0.9.yaml"), lane_file).unwrap();
    let o = lane(d.path(), &["mint", "0.0.9", "--json"]);
    assert_eq!(code(&o), 7, "{}{}", stdout(&o), stderr(&o));
    let results = d.path().join("out/lanes/0.0.9/results");
    let record = |slot: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(results.join(slot).join("mint.json")).unwrap())
            .unwrap()
    };
    let gathered = |m: &serde_json::Value| -> Vec<(String, serde_json::Value)> {
        m["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["file"].as_str().unwrap_or("").to_owned(),
                    e["digest_matches"].clone(),
                )
            })
            .collect()
    };
    // 0.126.3: each entry gathered and checked against the report's sha256;
    // the device's cells are CPU code, as there; the share report kept.
    // r1 fails on its CPU code; r2, warm on purpose (every class from r1's
    // cache), fails first as not cold.
    for (r, why) in [
        ("r1", "it compiled for the CPU"),
        ("r2", "3 graph class(es) were not compiled by this attempt"),
    ] {
        let m = record(&format!("rig-aot/H100/{r}"));
        assert_eq!(m["status"], "failed", "{m}");
        assert!(m["reason"].as_str().unwrap().contains(why), "{m}");
        let g = gathered(&m);
        assert_eq!(g.len(), 3, "{m}");
        assert!(
            g.iter()
                .all(|(f, ok)| f.starts_with("cg-key-v1-") && *ok == true),
            "{g:?}"
        );
        assert!(results
            .join(format!(
                "rig-aot/H100/{r}/ledger/compile-pool/share-000/report.json"
            ))
            .is_file());
    }
    // 0.127.2: r1's three built graphs gathered (GPU code), its traces
    // kept; r2 found all three present: not cold, failed.
    let m = record("compile-toy/H100/r1");
    assert_eq!(m["status"], "minted", "{m}");
    let g = gathered(&m);
    assert_eq!(g.len(), 3, "{m}");
    assert!(
        g.iter()
            .all(|(f, _)| f.starts_with("cg-graph-v1-") && f.ends_with(".pt2")),
        "{g:?}"
    );
    let traces = std::fs::read_dir(results.join("compile-toy/H100/r1/ledger/trace"))
        .unwrap()
        .count();
    assert_eq!(traces, 4);
    let m = record("compile-toy/H100/r2");
    assert_eq!(m["status"], "failed", "{m}");
    assert!(
        m["reason"].as_str().unwrap().contains("it is not cold"),
        "{m}"
    );
    // Every output says replay.
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(results.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["replay"], true);
}

fn in_order(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let step = lines.iter().position(|l| l.starts_with("[6/6]"));
    let end = lines.iter().position(|l| l.starts_with("      results: "));
    let (Some(step), Some(end)) = (step, end) else {
        return text.to_owned();
    };
    let mut mints = lines[step + 1..end].to_vec();
    mints.sort_unstable();
    let mut out: Vec<&str> = lines[..=step].to_vec();
    out.extend(mints);
    out.extend(&lines[end..]);
    out.join("\n") + "\n"
}
