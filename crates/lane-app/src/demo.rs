//! `lane demo`: the main job on embedded defaults, with no cluster, no
//! GitHub and no GPU. It generates a demo upstream repository (a small
//! gen-worker with master's wire-v1 cut and the fixes of a 0.93.3 lane),
//! writes a demo lane file, plans the cut, cuts it, runs the guards on the
//! result, mints the demo cells on the local backend (they replay the real
//! gen-worker 0.93.3 mints `lane mint` recorded on an H200, and every
//! output says "replay"), reads every report honestly with the ledger,
//! diffs each cell's two cold compiles, and writes `report.md`. Each step
//! is told through [`DemoEvent`]s as it happens.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use lane_core::MintStatus;
use lane_git::cut::{CutOptions, CutReport, CutStatus, OnConflict};

use crate::cut::render;
use crate::error::AppError;

/// The real mints the demo replays by default: a results folder `lane
/// mint` gathered on an H200 (`<cell>/H200/r<N>/{report.json, artifacts/}`).
pub const RECORDINGS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/gw-0.93.3-h200/h200-run/results"
);

/// What `lane demo` is asked.
#[derive(Debug, Clone)]
pub struct DemoRequest {
    /// Where the demo writes its upstream, lane file and report (replaced
    /// if it holds an earlier demo).
    pub out: PathBuf,
    /// The recorded results folder the cells replay
    /// (`<cell>/H200/r<N>/{report.json, artifacts/}`).
    pub recordings: PathBuf,
    /// The `lane` binary: the agents and the cells' `replay-mint` run it.
    pub exe: PathBuf,
}

/// One step of the demo, as it happens.
#[derive(Debug)]
pub enum DemoEvent<'a> {
    /// A numbered step begins.
    Step {
        /// Its number, of [`DemoEvent::STEPS`].
        n: u8,
        /// What it does.
        what: &'static str,
    },
    /// The cut's plan (`--dry-run`).
    Planned(&'a CutReport),
    /// The cut, made.
    Cut(&'a CutReport),
    /// The guards on one ref.
    Guarded {
        /// The ref.
        on: &'a str,
        /// Whether every guard passed.
        passed: bool,
        /// What they refused.
        refusals: Vec<String>,
    },
    /// The wheel, built, verified and staged.
    Staged {
        /// Its manifest.
        manifest: &'a lane_wheel::WheelManifest,
        /// Its store key.
        key: &'a str,
    },
    /// A (replayed) mint ended.
    Minted {
        /// The attempt.
        mint: &'a str,
        /// How.
        status: MintStatus,
        /// Its seconds, when measured.
        wall_s: Option<f64>,
    },
    /// A cell's ledger findings.
    Findings {
        /// The cell.
        cell: &'a str,
        /// How many.
        count: usize,
        /// The first.
        first: &'a str,
    },
    /// A cell's determinism diff of its two cold repeats.
    Determinism {
        /// The cell.
        cell: &'a str,
        /// The diff's verdict line.
        verdict: &'a str,
    },
    /// The results folder, gathered.
    Results(&'a Path),
    /// The per-cell report's page.
    PerCellReport(&'a Path),
}

impl DemoEvent<'_> {
    /// How many numbered steps the demo has.
    pub const STEPS: u8 = 6;
}

/// What `lane demo` wrote.
#[derive(Debug)]
pub struct DemoOutcome {
    /// `report.md`: the whole demo for people.
    pub report: PathBuf,
}

const MARKER: &str = ".lane-demo";

/// The recorded cells the demo mints.
const CELLS: [&str; 2] = ["rig-dynamo", "rig-aot"];

fn prepare(out: &Path) -> Result<(), AppError> {
    if out.exists() {
        if !out.join(MARKER).exists() {
            return Err(AppError::Precondition(format!(
                "{} exists and is not an earlier demo: choose another --out",
                out.display()
            )));
        }
        std::fs::remove_dir_all(out).map_err(|e| AppError::io(out, e))?;
    }
    let lanes = out.join(lane_core::layout::file::LANES);
    std::fs::create_dir_all(&lanes).map_err(|e| AppError::io(lanes, e))?;
    let marker = out.join(MARKER);
    std::fs::write(&marker, "written by `lane demo`; safe to delete\n")
        .map_err(|e| AppError::io(marker, e))
}

fn quoted(p: &Path) -> String {
    serde_json::to_string(&p.to_string_lossy()).expect("a string serializes")
}

fn lane_text(wire_v1: &str, exe: &Path, recordings: &Path) -> String {
    format!(
        "# A demo lane over the generated upstream (see `lane demo --help`).\n\
         version: \"0.93.3\"\ntitle: honest mint phases (demo)\nupstream:\n  repo: ../upstream\nbase: v0.93.2\n\
         picks:\n  - pr: 515   # pgw#992, lands after the wire-v1 cut; allowed\n  - pr: 520   # a merge commit: picked against its mainline\n\
         version_files:\n  - {{path: pyproject.toml, kind: pyproject}}\n  - {{path: uv.lock, kind: uv-lock, package: gen-worker}}\n\
         changelog: {{}}\nguards:\n  - name: wire-v1\n    forbidden_commits: [{wire_v1}]\n    frozen_paths: [proto/, src/gen_worker/pb/]\n\
         \x20   probes:\n      - path: proto/worker_scheduler.proto\n        must_match: '^package cozy\\.scheduler;$'\n        must_not_match: '^package cozy\\.scheduler\\.v1;$'\n\
         # Demo cells replay the real gen-worker 0.93.3 mints lane recorded on an H200: no GPU needed.\n\
         mint:\n  gpus: [H200]\n  cold_repeats: 2\n  timeout_s: 120\n  concurrency: 2\n  cells:\n\
         \x20   - {{name: rig-dynamo, recipe: dynamo, report: rig/mint/report.json, command: [{exe}, replay-mint, --recorded, {dynamo}], env: {{LANE_REPLAY: \"1\"}}}}\n\
         \x20   - {{name: rig-aot, recipe: aot, report: rig/mint/report.json, command: [{exe}, replay-mint, --recorded, {aot}], env: {{LANE_REPLAY: \"1\"}}}}\n",
        exe = quoted(exe),
        dynamo = quoted(&recordings.join("rig-dynamo/H200")),
        aot = quoted(&recordings.join("rig-aot/H200")),
    )
}

/// `lane demo`.
pub fn demo(
    request: &DemoRequest,
    on: &mut dyn FnMut(DemoEvent<'_>),
) -> Result<DemoOutcome, AppError> {
    let out = &request.out;
    let recordings = std::path::absolute(&request.recordings)
        .map_err(|e| AppError::io(&request.recordings, e))?;
    for cell in CELLS {
        if !recordings.join(cell).join("H200").is_dir() {
            return Err(AppError::invalid(
                format!("--recordings {}", recordings.display()),
                format!("no recorded {cell}/H200 (the demo replays the real mints in lane's tests/data/gw-0.93.3-h200/h200-run/results)"),
            ));
        }
    }
    prepare(out)?;
    on(DemoEvent::Step {
        n: 1,
        what: "generating the demo upstream (gen-worker with a wire-v1 cut on master)",
    });
    let up = lane_fixture::generate_upstream(
        &out.join("upstream"),
        &lane_fixture::UpstreamSpec::default(),
    )
    .map_err(AppError::Fixture)?;
    let text = lane_text(
        &up.commits["wire-v1"].to_string(),
        &request.exe,
        &recordings,
    );
    let lane_path = lane_core::layout::lane_file(out, "0.93.3");
    std::fs::write(&lane_path, &text).map_err(|e| AppError::io(&lane_path, e))?;
    let lane = lane_file::parse(&lane_path.display().to_string(), &text)?;
    let repo = lane_git::repo::open(&up.path)?;
    let opts = |dry_run| CutOptions {
        dry_run,
        on_conflict: OnConflict::Abort,
        date: crate::lane::today(),
        tag: true,
        sign: false,
        lane_file: lane_path.clone(),
    };

    on(DemoEvent::Step {
        n: 2,
        what: "lane cut 0.93.3 --dry-run",
    });
    let plan = lane_git::cut::cut(&repo, &lane, &opts(true))?;
    on(DemoEvent::Planned(&plan));
    on(DemoEvent::Step {
        n: 3,
        what: "lane cut 0.93.3 --tag",
    });
    let done = lane_git::cut::cut(&repo, &lane, &opts(false))?;
    on(DemoEvent::Cut(&done));
    if done.status != CutStatus::Cut {
        return Err(AppError::DemoCutIncomplete {
            status: format!("{:?}", done.status),
        });
    }

    on(DemoEvent::Step {
        n: 4,
        what: "lane guard 0.93.3 (on release/0.93.3 and, for contrast, on master)",
    });
    let base = lane_git::repo::resolve_commit(&repo, "base tag", "v0.93.2")?.id();
    let mut ids = lane_git::repo::PatchIds::default();
    let mut report = String::new();
    let mut release_guard = None;
    let _ = writeln!(report, "# lane demo: 0.93.3\n\nLane file: `lanes/0.93.3.yaml`; upstream: `upstream/` (generated).\n");
    let _ = writeln!(report, "## Cut\n\n```\n{}```\n", render(&done, false));
    for (name, rev) in [("release/0.93.3", "release/0.93.3"), ("master", "master")] {
        let head = lane_git::repo::resolve_commit(&repo, "ref", rev)?.id();
        let g = lane_git::guard::check_after(&repo, &lane, base, head, name, &mut ids)?;
        if name == "release/0.93.3" {
            release_guard = Some(g.record(head));
        }
        let verdict = if g.passed() { "passed" } else { "REFUSED" };
        let refusals: Vec<String> = g.refusals().map(|(_, r)| r.to_string()).collect();
        let _ = writeln!(report, "## Guard wire-v1 on `{name}`: {verdict}\n");
        for r in &refusals {
            let _ = writeln!(report, "- refused: {r}");
        }
        for v in &g.verdicts {
            for p in &v.proven {
                let _ = writeln!(report, "- proven: {p}");
            }
        }
        let _ = writeln!(report);
        on(DemoEvent::Guarded {
            on: name,
            passed: g.passed(),
            refusals,
        });
    }
    on(DemoEvent::Step {
        n: 5,
        what: "lane wheel 0.93.3 (uv build from release/0.93.3's tree, verified, staged)",
    });
    let cwd = std::env::current_dir().map_err(|e| AppError::io(".", e))?;
    let build = lane_wheel::BuildRequest {
        lane: "0.93.3".into(),
        branch: "release/0.93.3".into(),
        tools_dir: lane_wheel::default_tools_dir(&cwd),
    };
    // The agents install the wheel with the same uv the build used (they
    // inherit this process's environment).
    let uv = lane_wheel::Uv::locate(&build.tools_dir)?;
    std::env::set_var("LANE_UV", &uv.path);
    let mut built = lane_wheel::build(&repo, &build)?;
    let store_dir = out.join("store");
    let store_dir = std::path::absolute(&store_dir).map_err(|e| AppError::io(store_dir, e))?;
    let store = crate::lane::open_store(&store_dir.to_string_lossy())?;
    let staged = lane_wheel::stage(
        store.as_ref(),
        &mut built,
        std::time::Duration::from_secs(3600),
    )?;
    on(DemoEvent::Staged {
        manifest: &built.manifest,
        key: &staged.wheel_key,
    });
    let _ = writeln!(
        report,
        "## Wheel\n\n`{}`, sha256 `{}`, built from `release/0.93.3` at `{}` (tree `{}`), verified and staged as `{}` in `store/`.\n",
        built.manifest.wheel, built.manifest.sha256, built.manifest.commit, built.manifest.tree, staged.wheel_key
    );
    on(DemoEvent::Step {
        n: 6,
        what: "lane mint 0.93.3 (local backend; cells replay real gen-worker mints recorded on an H200: labelled replay)",
    });
    let stop = AtomicBool::new(false);
    let lane_out = lane_core::layout::lane_out(out, "0.93.3");
    let lane_out = std::path::absolute(&lane_out).map_err(|e| AppError::io(lane_out, e))?;
    // What the lane mints with, as `lane mint` records it: this wheel, and
    // the guards on release/0.93.3's head.
    let provenance = lane_core::Provenance {
        wheel: Some(lane_core::WheelRef {
            file: built.manifest.wheel.clone(),
            sha256: built.manifest.sha256.clone(),
            key: Some(staged.wheel_key.to_string()),
            commit: Some(built.manifest.commit.clone()),
        }),
        guard: release_guard,
    };
    let run = lane_mint::local::LocalRun {
        provenance,
        source: None,
        lane: &lane,
        whole_matrix: Vec::new(),
        out: lane_out.clone(),
        agent: vec![request.exe.to_string_lossy().into_owned(), "agent".into()],
        concurrency: 2,
        wheel: Some(built.path.clone()),
        store: Some(store_dir.to_string_lossy().into_owned()),
        stop: &stop,
    };
    let summary = run.run(&mut |p| {
        if let lane_core::Progress::Finished {
            mint,
            status,
            wall_s,
            ..
        } = p
        {
            on(DemoEvent::Minted {
                mint: &mint,
                status,
                wall_s,
            });
        }
    })?;
    let results = lane_core::layout::results_dir(&lane_out);
    let _ = writeln!(
        report,
        "## Mints (replay: real gen-worker 0.93.3 mints recorded on an H200, no compile ran here)\n\nLane {}: {}.\n",
        summary.lane,
        if summary.green { "green" } else { "NOT green" }
    );
    for cell in CELLS {
        let slot = results.join(cell).join("H200");
        cell_section(&mut report, cell, &slot, on)?;
    }
    on(DemoEvent::Results(&results));
    let history = crate::history::HistoryStore::new(store.as_ref());
    let (files, _) = crate::report::write_lane_report(
        &lane,
        &results,
        None,
        &lane_out.join("report"),
        Some(&history),
    )?;
    on(DemoEvent::PerCellReport(&files.html));
    let _ = writeln!(
        report,
        "The per-cell report: `lanes/0.93.3/report/report.html` (also `report.md`, the PR comment, and `report.json`).\n"
    );
    let report_path = out.join("report.md");
    std::fs::write(&report_path, report).map_err(|e| AppError::io(&report_path, e))?;
    Ok(DemoOutcome {
        report: report_path,
    })
}

/// One cell's section of the demo's report: its first repeat's ledger,
/// and the determinism diff of its two cold repeats.
fn cell_section(
    report: &mut String,
    cell: &str,
    slot: &Path,
    on: &mut dyn FnMut(DemoEvent<'_>),
) -> Result<(), AppError> {
    let report_file = slot.join("r1/report.json");
    let bytes = std::fs::read(&report_file).map_err(|e| AppError::io(&report_file, e))?;
    let parsed = lane_ledger::parse_report(&bytes).map_err(|source| AppError::Report {
        path: report_file.clone(),
        source,
    })?;
    let b = lane_ledger::from_report(&format!("{cell} on H200 (replay)"), &parsed);
    let text = lane_render::text::render_breakdown(&b);
    let _ = writeln!(
        report,
        "### {cell} on H200 (replay), repeat 1\n\n```\n{text}```\n"
    );
    if let Some(top) = b.findings.first() {
        on(DemoEvent::Findings {
            cell,
            count: b.findings.len(),
            first: &top.message,
        });
    }
    let (a, bdir) = (slot.join("r1/artifacts"), slot.join("r2/artifacts"));
    let has_artifacts = std::fs::read_dir(&a).is_ok_and(|mut d| d.next().is_some());
    if has_artifacts && bdir.is_dir() {
        let d = crate::diff::diff_paths(&a, &bdir, 64 << 20)?;
        let text = lane_render::text::render_determinism(&d);
        on(DemoEvent::Determinism {
            cell,
            verdict: text
                .lines()
                .find(|l| l.starts_with("verdict"))
                .unwrap_or("-"),
        });
        let _ = writeln!(
            report,
            "### {cell}: determinism diff of the two cold repeats\n\n```\n{text}```\n"
        );
    }
    Ok(())
}
