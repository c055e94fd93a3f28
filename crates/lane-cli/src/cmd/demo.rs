//! `lane demo`: the main job on embedded defaults, with no cluster, no
//! GitHub and no GPU. It generates a demo upstream repository (a small
//! gen-worker with master's wire-v1 cut and the fixes of a 0.93.3 lane),
//! writes a demo lane file, plans the cut, cuts it, runs the guards on the
//! result, and writes a report. Later stages of a lane (wheel, mints, PR
//! comments) join here as they are built.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use lane_git::cut::{CutOptions, CutStatus, OnConflict};

use crate::cmd::cut::{git_exit, render};
use crate::exit::{CliError, CliResult, Exit, WithExit};

/// Arguments of `lane demo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where the demo writes its upstream, lane file and report (replaced if it holds an earlier demo).
    #[arg(long, default_value = "out/demo")]
    pub out: PathBuf,
}

const MARKER: &str = ".lane-demo";

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
    prepare(&out)?;
    println!("lane demo: a whole lane on embedded defaults (no cluster, no GitHub, no GPU)");
    println!("[1/4] generating the demo upstream (gen-worker with a wire-v1 cut on master)");
    let up = lane_fixture::generate_upstream(
        &out.join("upstream"),
        &lane_fixture::UpstreamSpec::default(),
    )
    .context("generating the demo upstream")
    .exit(Exit::Failure)?;
    let lane_text = format!(
        "# A demo lane over the generated upstream (see `lane demo --help`).\n\
         version: \"0.93.3\"\ntitle: honest mint phases (demo)\nupstream:\n  repo: ../upstream\nbase: v0.93.2\n\
         picks:\n  - pr: 515   # pgw#992, lands after the wire-v1 cut; allowed\n  - pr: 520   # a merge commit: picked against its mainline\n\
         version_files:\n  - {{path: pyproject.toml, kind: pyproject}}\n  - {{path: uv.lock, kind: uv-lock, package: gen-worker}}\n\
         changelog: {{}}\nguards:\n  - name: wire-v1\n    forbidden_commits: [{}]\n    frozen_paths: [proto/, src/gen_worker/pb/]\n\
         \x20   probes:\n      - path: proto/worker_scheduler.proto\n        must_match: '^package cozy\\.scheduler;$'\n        must_not_match: '^package cozy\\.scheduler\\.v1;$'\n",
        up.commits["wire-v1"]
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

    println!("[2/4] lane cut 0.93.3 --dry-run");
    let plan = lane_git::cut::cut(&repo, &lane, &opts(true)).map_err(git_exit)?;
    for line in render(&plan, false).lines() {
        println!("      {line}");
    }
    println!("[3/4] lane cut 0.93.3 --tag");
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

    println!("[4/4] lane guard 0.93.3 (on release/0.93.3 and, for contrast, on master)");
    let base = lane_git::repo::resolve_commit(&repo, "base tag", "v0.93.2")
        .map_err(git_exit)?
        .id();
    let mut ids = lane_git::repo::PatchIds::default();
    let mut report = String::new();
    let _ = writeln!(report, "# lane demo: 0.93.3\n\nLane file: `lanes/0.93.3.yaml`; upstream: `upstream/` (generated).\n");
    let _ = writeln!(report, "## Cut\n\n```\n{}```\n", render(&done, false));
    for (name, rev) in [("release/0.93.3", "release/0.93.3"), ("master", "master")] {
        let head = lane_git::repo::resolve_commit(&repo, "ref", rev)
            .map_err(git_exit)?
            .id();
        let g = lane_git::guard::check_after(&repo, &lane, base, head, name, &mut ids)
            .map_err(git_exit)?;
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
    let report_path = out.join("report.md");
    std::fs::write(&report_path, report).exit(Exit::Failure)?;
    println!("report: {}", report_path.display());
    Ok(Exit::Ok)
}
