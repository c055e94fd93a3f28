//! `lane demo`: a whole lane on embedded defaults, with no cluster, no
//! GitHub and no GPU (see `lane_app::demo`); this module tells each step
//! as it happens.

use std::path::PathBuf;

use lane_app::cut::render;
use lane_app::{AppError, DemoEvent, DemoRequest};
use lane_git::cut::CutStatus;

/// Arguments of `lane demo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where the demo writes its upstream, lane file and report (replaced if it holds an earlier demo).
    #[arg(long, default_value = "out/demo")]
    pub out: PathBuf,
    /// The recorded results folder the cells replay (real gen-worker
    /// 0.93.3 mints: `<cell>/H200/r<N>/{report.json, artifacts/}`).
    #[arg(long, value_name = "DIR", default_value = lane_app::DEMO_RECORDINGS)]
    pub recordings: PathBuf,
}

fn tell(event: DemoEvent<'_>) {
    match event {
        DemoEvent::Step { n: 1, what } => {
            outln!("lane demo: a whole lane on embedded defaults (no cluster, no GitHub, no GPU)");
            outln!("[1/{}] {what}", DemoEvent::STEPS);
        }
        DemoEvent::Step { n, what } => outln!("[{n}/{}] {what}", DemoEvent::STEPS),
        DemoEvent::Planned(plan) => {
            for line in render(plan, false).lines() {
                outln!("      {line}");
            }
        }
        DemoEvent::Cut(done) if done.status != CutStatus::Cut => out!("{}", render(done, false)),
        DemoEvent::Cut(done) => outln!(
            "      {}",
            render(done, false).lines().last().unwrap_or_default()
        ),
        DemoEvent::Guarded {
            on,
            passed,
            refusals,
        } => {
            let verdict = if passed { "passed" } else { "REFUSED" };
            outln!("      guard wire-v1 on {on}: {verdict}");
            for r in refusals {
                outln!("        refused: {r}");
            }
        }
        DemoEvent::Staged { manifest, key } => outln!(
            "      {} (sha256 {}…, {} package files equal the tree) staged as {key}",
            manifest.wheel,
            &manifest.sha256[..12.min(manifest.sha256.len())],
            manifest.verified.package_files,
        ),
        DemoEvent::Minted {
            mint,
            status,
            wall_s,
        } => {
            let wall = wall_s.map_or_else(|| "not measured".to_owned(), |s| format!("{s:.3} s"));
            outln!(
                "      {mint}: {status} in {wall} (replay; the wheel installed in its own venv)"
            );
        }
        DemoEvent::Findings { cell, count, first } => {
            outln!("      {cell}: {count} finding(s); first: {first}")
        }
        DemoEvent::Determinism { cell, verdict } => {
            outln!("      {cell} determinism (r1 vs r2): {verdict}")
        }
        DemoEvent::Results(dir) => outln!("      results: {}", dir.display()),
        DemoEvent::PerCellReport(page) => outln!("      per-cell report: {}", page.display()),
    }
}

/// Runs `lane demo`.
pub fn run(args: Args) -> Result<(), AppError> {
    let exe = std::env::current_exe().map_err(|e| AppError::io("the lane binary", e))?;
    let outcome = lane_app::demo(
        &DemoRequest {
            out: args.out,
            recordings: args.recordings,
            exe,
        },
        &mut tell,
    )?;
    outln!("report: {}", outcome.report.display());
    Ok(())
}
