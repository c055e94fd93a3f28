//! `lane demo`: the main job on embedded defaults, with no cluster, no
//! GitHub and no GPU. It generates a demo upstream repository (a small
//! gen-worker with master's wire-v1 cut and the fixes of a 0.93.3 lane),
//! writes a demo lane file, plans the cut, cuts it, runs the guards on the
//! result, mints the demo cells on the local backend (they replay the real
//! gen-worker 0.93.3 mints `lane mint` recorded on an H200, and every
//! output says "replay"), reads every report honestly with the ledger,
//! diffs each cell's two cold compiles, and writes `report.md`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use lane_git::cut::{CutOptions, CutStatus, OnConflict};

use crate::cmd::cut::git_exit;
use crate::exit::{CliError, CliResult, Exit, WithExit};
use lane_app::cut::render;

/// Arguments of `lane demo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where the demo writes its upstream, lane file and report (replaced if it holds an earlier demo).
    #[arg(long, default_value = "out/demo")]
    pub out: PathBuf,
    /// The recorded results folder the cells replay (real gen-worker
    /// 0.93.3 mints: `<cell>/H200/r<N>/{report.json, artifacts/}`).
    #[arg(long, value_name = "DIR", default_value = crate::cmd::replay::RECORDINGS)]
    pub recordings: PathBuf,
}

const MARKER: &str = ".lane-demo";

/// The recorded cells the demo mints.
const CELLS: [&str; 2] = ["rig-dynamo", "rig-aot"];

fn prepare(out: &Path) -> Result<(), CliError> {
    if out.exists() {
        if !out.join(MARKER).exists() {
            return Err(CliError::new(
                Exit::Precondition,
                anyhow::anyhow!(
                    "{} exists and is not an earlier demo: choose another --out",
                    out.display()
                ),
            ));
        }
        std::fs::remove_dir_all(out)
            .with_context(|| format!("removing the earlier demo in {}", out.display()))
            .exit(Exit::Failure)?;
    }
    std::fs::create_dir_all(out.join("lanes"))
        .with_context(|| format!("creating {}", out.display()))
        .exit(Exit::Failure)?;
    std::fs::write(out.join(MARKER), "written by `lane demo`; safe to delete\n")
        .exit(Exit::Failure)?;
    Ok(())
}

/// Runs `lane demo`.
pub fn run(args: Args) -> CliResult {
    let out = args.out;
    let recordings = std::path::absolute(&args.recordings).exit(Exit::Failure)?;
    for cell in CELLS {
        if !recordings.join(cell).join("H200").is_dir() {
            return Err(CliError::new(
                Exit::InvalidInput,
                anyhow::anyhow!(
                    "--recordings {}: no recorded {cell}/H200 (the demo replays the real mints in lane's tests/data/gw-0.93.3-h200/h200-run/results)",
                    recordings.display()
                ),
            ));
        }
    }
    prepare(&out)?;
    println!("lane demo: a whole lane on embedded defaults (no cluster, no GitHub, no GPU)");
    println!("[1/6] generating the demo upstream (gen-worker with a wire-v1 cut on master)");
    let up = lane_fixture::generate_upstream(
        &out.join("upstream"),
        &lane_fixture::UpstreamSpec::default(),
    )
    .context("generating the demo upstream")
    .exit(Exit::Failure)?;
    let exe = std::env::current_exe().exit(Exit::Failure)?;
    let lane_text = format!(
        "# A demo lane over the generated upstream (see `lane demo --help`).\n\
         version: \"0.93.3\"\ntitle: honest mint phases (demo)\nupstream:\n  repo: ../upstream\nbase: v0.93.2\n\
         picks:\n  - pr: 515   # pgw#992, lands after the wire-v1 cut; allowed\n  - pr: 520   # a merge commit: picked against its mainline\n\
         version_files:\n  - {{path: pyproject.toml, kind: pyproject}}\n  - {{path: uv.lock, kind: uv-lock, package: gen-worker}}\n\
         changelog: {{}}\nguards:\n  - name: wire-v1\n    forbidden_commits: [{}]\n    frozen_paths: [proto/, src/gen_worker/pb/]\n\
         \x20   probes:\n      - path: proto/worker_scheduler.proto\n        must_match: '^package cozy\\.scheduler;$'\n        must_not_match: '^package cozy\\.scheduler\\.v1;$'\n\
         # Demo cells replay the real gen-worker 0.93.3 mints lane recorded on an H200: no GPU needed.\n\
         mint:\n  gpus: [H200]\n  cold_repeats: 2\n  timeout_s: 120\n  concurrency: 2\n  cells:\n\
         \x20   - {{name: rig-dynamo, recipe: dynamo, report: rig/mint/report.json, command: [{exe}, replay-mint, --recorded, {dynamo}], env: {{LANE_REPLAY: \"1\"}}}}\n\
         \x20   - {{name: rig-aot, recipe: aot, report: rig/mint/report.json, command: [{exe}, replay-mint, --recorded, {aot}], env: {{LANE_REPLAY: \"1\"}}}}\n",
        up.commits["wire-v1"],
        exe = serde_json::to_string(&exe.to_string_lossy()).expect("a string serializes"),
        dynamo = serde_json::to_string(&recordings.join("rig-dynamo/H200").to_string_lossy())
            .expect("a string serializes"),
        aot = serde_json::to_string(&recordings.join("rig-aot/H200").to_string_lossy())
            .expect("a string serializes"),
    );
    let lane_path = out.join("lanes/0.93.3.yaml");
    std::fs::write(&lane_path, &lane_text).exit(Exit::Failure)?;
    let lane =
        lane_file::parse(&lane_path.display().to_string(), &lane_text).exit(Exit::InvalidInput)?;
    let repo = lane_git::repo::open(&up.path).map_err(git_exit)?;
    let opts = |dry_run| CutOptions {
        dry_run,
        on_conflict: OnConflict::Abort,
        date: crate::lane::today(),
        tag: true,
        lane_file: lane_path.clone(),
    };

    println!("[2/6] lane cut 0.93.3 --dry-run");
    let plan = lane_git::cut::cut(&repo, &lane, &opts(true)).map_err(git_exit)?;
    for line in render(&plan, false).lines() {
        println!("      {line}");
    }
    println!("[3/6] lane cut 0.93.3 --tag");
    let done = lane_git::cut::cut(&repo, &lane, &opts(false)).map_err(git_exit)?;
    if done.status != CutStatus::Cut {
        print!("{}", render(&done, false));
        return Err(CliError::new(
            Exit::Failure,
            anyhow::anyhow!("the demo cut did not complete: {:?}", done.status),
        ));
    }
    println!(
        "      {}",
        render(&done, false).lines().last().unwrap_or_default()
    );

    println!("[4/6] lane guard 0.93.3 (on release/0.93.3 and, for contrast, on master)");
    let base = lane_git::repo::resolve_commit(&repo, "base tag", "v0.93.2")
        .map_err(git_exit)?
        .id();
    let mut ids = lane_git::repo::PatchIds::default();
    let mut report = String::new();
    let mut release_guard = None;
    let _ = writeln!(report, "# lane demo: 0.93.3\n\nLane file: `lanes/0.93.3.yaml`; upstream: `upstream/` (generated).\n");
    let _ = writeln!(report, "## Cut\n\n```\n{}```\n", render(&done, false));
    for (name, rev) in [("release/0.93.3", "release/0.93.3"), ("master", "master")] {
        let head = lane_git::repo::resolve_commit(&repo, "ref", rev)
            .map_err(git_exit)?
            .id();
        let g = lane_git::guard::check_after(&repo, &lane, base, head, name, &mut ids)
            .map_err(git_exit)?;
        if name == "release/0.93.3" {
            release_guard = Some(g.record(head));
        }
        let verdict = if g.passed() { "passed" } else { "REFUSED" };
        println!("      guard wire-v1 on {name}: {verdict}");
        let _ = writeln!(report, "## Guard wire-v1 on `{name}`: {verdict}\n");
        for (_, r) in g.refusals() {
            println!("        refused: {r}");
            let _ = writeln!(report, "- refused: {r}");
        }
        for v in &g.verdicts {
            for p in &v.proven {
                let _ = writeln!(report, "- proven: {p}");
            }
        }
        let _ = writeln!(report);
    }
    println!("[5/6] lane wheel 0.93.3 (uv build from release/0.93.3's tree, verified, staged)");
    let tools = lane_wheel::default_tools_dir(&std::env::current_dir().exit(Exit::Failure)?);
    let request = lane_wheel::BuildRequest {
        lane: "0.93.3".into(),
        branch: "release/0.93.3".into(),
        tools_dir: tools,
    };
    // The agents install the wheel with the same uv the build used.
    let uv = lane_wheel::Uv::locate(&request.tools_dir).exit(Exit::Failure)?;
    std::env::set_var("LANE_UV", &uv.path);
    let mut built = lane_wheel::build(&repo, &request).exit(Exit::Verification)?;
    let store_dir = std::path::absolute(out.join("store")).exit(Exit::Failure)?;
    let store = lane_store::open(&store_dir.to_string_lossy()).exit(Exit::Failure)?;
    let staged = lane_wheel::stage(
        store.as_ref(),
        &mut built,
        std::time::Duration::from_secs(3600),
    )
    .exit(Exit::Failure)?;
    println!(
        "      {} (sha256 {}…, {} package files equal the tree) staged as {}",
        built.manifest.wheel,
        &built.manifest.sha256[..12],
        built.manifest.verified.package_files,
        staged.wheel_key
    );
    let _ = writeln!(
        report,
        "## Wheel\n\n`{}`, sha256 `{}`, built from `release/0.93.3` at `{}` (tree `{}`), verified and staged as `{}` in `store/`.\n",
        built.manifest.wheel, built.manifest.sha256, built.manifest.commit, built.manifest.tree, staged.wheel_key
    );
    println!(
        "[6/6] lane mint 0.93.3 (local backend; cells replay real gen-worker mints recorded on an H200: labelled replay)"
    );
    let stop = std::sync::atomic::AtomicBool::new(false);
    let lane_out = std::path::absolute(out.join("lanes/0.93.3")).exit(Exit::Failure)?;
    // What the lane mints with, as `lane mint` records it: this wheel, and
    // the guards on release/0.93.3's head.
    let provenance = lane_core::Provenance {
        wheel: Some(lane_core::WheelRef {
            file: built.manifest.wheel.clone(),
            sha256: built.manifest.sha256.clone(),
            key: Some(staged.wheel_key.to_string()),
            commit: Some(built.manifest.commit.clone()),
        }),
        guard: release_guard.clone(),
    };
    let run = lane_mint::local::LocalRun {
        provenance,
        source: None,
        lane: &lane,
        out: lane_out.clone(),
        agent: vec![exe.to_string_lossy().into_owned(), "agent".into()],
        concurrency: 2,
        wheel: Some(built.path.clone()),
        store: Some(store_dir.to_string_lossy().into_owned()),
        stop: &stop,
    };
    let summary = run
        .run(&mut |p| {
            if let lane_core::Progress::Finished {
                mint,
                status,
                wall_s,
                ..
            } = p
            {
                let wall = wall_s.map_or_else(|| "not measured".to_owned(), |s| format!("{s:.3} s"));
                println!("      {mint}: {status} in {wall} (replay; the wheel installed in its own venv)");
            }
        })
        .exit(Exit::Failure)?;
    let results = lane_mint::local::results_dir(&lane_out);
    let _ = writeln!(
        report,
        "## Mints (replay: real gen-worker 0.93.3 mints recorded on an H200, no compile ran here)\n\nLane {}: {}.\n",
        summary.lane,
        if summary.green { "green" } else { "NOT green" }
    );
    for cell in CELLS {
        let slot = results.join(cell).join("H200");
        let report_file = slot.join("r1/report.json");
        let bytes = std::fs::read(&report_file).exit(Exit::Failure)?;
        let parsed = lane_ledger::parse_report(&bytes).exit(Exit::InvalidInput)?;
        let b = lane_ledger::from_report(&format!("{cell} on H200 (replay)"), &parsed);
        let text = lane_render::text::render_breakdown(&b);
        let _ = writeln!(
            report,
            "### {cell} on H200 (replay), repeat 1\n\n```\n{text}```\n"
        );
        if let Some(top) = b.findings.first() {
            println!(
                "      {cell}: {} finding(s); first: {}",
                b.findings.len(),
                top.message
            );
        }
        let (a, bdir) = (slot.join("r1/artifacts"), slot.join("r2/artifacts"));
        if a.is_dir()
            && bdir.is_dir()
            && std::fs::read_dir(&a)
                .map(|mut d| d.next().is_some())
                .unwrap_or(false)
        {
            let d = lane_app::diff_paths(&a, &bdir, 64 << 20)?;
            let text = lane_render::text::render_determinism(&d);
            println!(
                "      {cell} determinism (r1 vs r2): {}",
                text.lines()
                    .find(|l| l.starts_with("verdict"))
                    .unwrap_or("-")
            );
            let _ = writeln!(
                report,
                "### {cell}: determinism diff of the two cold repeats\n\n```\n{text}```\n"
            );
        }
    }
    println!("      results: {}", results.display());
    let files =
        lane_app::report::write_lane_report(&lane, &results, None, &lane_out.join("report"))?;
    println!("      per-cell report: {}", files.html.display());
    let _ = writeln!(
        report,
        "The per-cell report: `lanes/0.93.3/report/report.html` (also `report.md`, the PR comment, and `report.json`).\n"
    );
    let report_path = out.join("report.md");
    std::fs::write(&report_path, report).exit(Exit::Failure)?;
    println!("report: {}", report_path.display());
    Ok(Exit::Ok)
}
