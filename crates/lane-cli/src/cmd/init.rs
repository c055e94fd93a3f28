//! `lane init`: start a lane, or explain a real release as a lane file
//! (see `lane_app::init`).

use std::fmt::Write as _;
use std::path::PathBuf;

use lane_app::{AppError, InitRequest};

use crate::cmd::args::RepoArg;
use crate::output::print_json;

/// Arguments of `lane init`.
#[derive(Debug, clap::Args)]
#[command(mut_arg("repo", |a| a.help("The upstream's local clone (with its PR heads fetched, for PR-head picks)")))]
pub struct Args {
    /// The lane's version, e.g. `0.126.4`.
    pub version: String,
    /// Explain this release tag (e.g. `v0.126.1`) as a lane file that reproduces it.
    #[arg(long)]
    pub from_tag: Option<String>,
    #[command(flatten)]
    pub repo: RepoArg,
    /// The upstream's clone URL (cloned into lane's cache; written as `upstream.repo`).
    #[arg(long)]
    pub upstream: Option<String>,
    /// The upstream's default branch.
    #[arg(long, default_value = "master")]
    pub default_branch: String,
    /// Where to write the lane file (default `lanes/<version>.yaml`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the lane file; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the explanation as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `lane init`.
pub fn run(args: Args) -> Result<(), AppError> {
    let outcome = lane_app::init(&InitRequest {
        version: args.version,
        from_tag: args.from_tag,
        repo: args.repo.repo,
        upstream: args.upstream,
        default_branch: args.default_branch,
        out: args.out,
        dry_run: args.dry_run,
    })?;
    if args.json {
        match (&outcome.explained, &outcome.started) {
            (Some(e), _) => print_json(e)?,
            (None, Some(s)) => print_json(s)?,
            (None, None) => {}
        }
    } else if args.dry_run {
        out!("{}", outcome.yaml);
    } else {
        let mut s = String::new();
        match &outcome.explained {
            Some(e) if e.reproduced.tree_equal => {
                let _ = writeln!(
                    s,
                    "wrote {}: {} explained; its cut gives {} ({})",
                    outcome.path.display(),
                    e.tag,
                    e.reproduced.expected,
                    &e.reproduced.expected_tree[..12]
                );
            }
            Some(e) => {
                let _ = writeln!(
                    s,
                    "wrote {}: {} explained, NOT reproduced ({} path(s) differ; the file's header says which)",
                    outcome.path.display(),
                    e.tag,
                    e.reproduced.differs.len()
                );
            }
            None => {
                let _ = writeln!(s, "wrote {}", outcome.path.display());
            }
        }
        out!("{s}");
    }
    outcome.verdict()
}
