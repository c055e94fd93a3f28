//! `lane guard`: run the lane's guards alone on an existing ref, for a
//! release branch's CI.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use crate::cmd::cut::git_exit;
use crate::exit::{CliError, CliResult, Exit};
use crate::lane::{load, repository};
use crate::output::print_json;

/// Arguments of `lane guard`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The lane: a version (`0.93.3`) or a lane file path.
    pub lane: String,
    /// The ref to check (default: the lane branch, local or `origin/`).
    #[arg(long = "ref")]
    pub ref_: Option<String>,
    /// Operate on this local clone instead of the lane's upstream.
    #[arg(long)]
    pub repo: Option<PathBuf>,
    /// Print the verdicts as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct GuardOutput<'a> {
    lane: &'a str,
    r#ref: &'a str,
    head: String,
    base: &'a str,
    passed: bool,
    report: &'a lane_git::guard::GuardReport,
}

/// Runs `lane guard`.
pub fn run(args: Args) -> CliResult {
    let loaded = load(&args.lane)?;
    let lane = &loaded.lane;
    let repo_dir = repository(&loaded, args.repo.as_deref())?;
    let repo = lane_git::repo::open(&repo_dir).map_err(git_exit)?;
    let branch = lane.branch_name();
    let name = match &args.ref_ {
        Some(r) => r.clone(),
        None => {
            if repo.find_reference(&format!("refs/heads/{branch}")).is_ok() {
                branch.clone()
            } else if repo
                .find_reference(&format!("refs/remotes/origin/{branch}"))
                .is_ok()
            {
                format!("origin/{branch}")
            } else {
                return Err(CliError::new(
                    Exit::Precondition,
                    anyhow::anyhow!("neither {branch} nor origin/{branch} exists: pass --ref"),
                ));
            }
        }
    };
    let head = lane_git::repo::resolve_commit(&repo, "ref", &name).map_err(git_exit)?;
    let base =
        lane_git::repo::resolve_commit(&repo, "base tag", lane.base.as_str()).map_err(git_exit)?;
    let mut ids = lane_git::repo::PatchIds::default();
    let report = lane_git::guard::check_after(&repo, lane, base.id(), head.id(), &name, &mut ids)
        .map_err(git_exit)?;
    let passed = report.passed();
    if args.json {
        print_json(&GuardOutput {
            lane: lane.version.as_str(),
            r#ref: &name,
            head: head.id().to_string(),
            base: lane.base.as_str(),
            passed,
            report: &report,
        })?;
    } else {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "lane {}: guards on {name} ({})",
            lane.version,
            &head.id().to_string()[..12]
        );
        for v in &report.verdicts {
            let _ = writeln!(
                s,
                "guard {}: {}",
                v.guard,
                if v.refusals.is_empty() {
                    "passed"
                } else {
                    "REFUSED"
                }
            );
            for r in &v.refusals {
                let _ = writeln!(s, "  refused: {r}");
            }
            for p in &v.proven {
                let _ = writeln!(s, "  proven: {p}");
            }
        }
        print!("{s}");
    }
    Ok(if passed { Exit::Ok } else { Exit::GuardRefused })
}
