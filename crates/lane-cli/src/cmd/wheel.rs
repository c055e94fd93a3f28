//! `lane wheel`: build the lane's wheel from its branch's tree with uv,
//! verify it is that tree, and stage it (with its manifest) in the artifact
//! store where GPU pods fetch it (see `lane_app::wheel`).

use std::time::Duration;

use lane_app::{AppError, WheelRequest};

use crate::cmd::args::{ToolsDirArg, WheelArgs};
use crate::output::print_json;

/// Arguments of `lane wheel`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub wheel: WheelArgs,
    #[command(flatten)]
    pub tools_dir: ToolsDirArg,
    /// How long the pods' presigned URL stays valid, in seconds (S3 stores).
    #[arg(long, default_value_t = 86_400)]
    pub url_ttl: u64,
    /// Build and verify; stage nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(serde::Serialize)]
struct Report<'a> {
    manifest: &'a lane_wheel::WheelManifest,
    staged: &'a Option<lane_wheel::Staged>,
    timings: &'a lane_wheel::Timings,
}

/// Runs `lane wheel`.
pub fn run(args: Args) -> Result<(), AppError> {
    let outcome = lane_app::wheel(&WheelRequest {
        lane: args.wheel.lane.lane,
        repo: args.wheel.repo.repo,
        store: args.wheel.store.store,
        tools_dir: args.tools_dir.tools_dir,
        url_ttl: Duration::from_secs(args.url_ttl),
        dry_run: args.dry_run,
    })?;
    let m = &outcome.built.manifest;
    if args.json {
        return print_json(&Report {
            manifest: m,
            staged: &outcome.staged,
            timings: &outcome.built.timings,
        });
    }
    outln!(
        "built {} from {} at {} (tree {})",
        m.wheel,
        m.branch,
        &m.commit[..12],
        &m.tree[..12]
    );
    outln!(
        "verified: name {} and version {} (file name, METADATA), RECORD ({} files), {} package files equal to the lane tree's blobs",
        m.verified.name, m.verified.version, m.verified.recorded_files, m.verified.package_files
    );
    outln!(
        "sha256 {}  {} bytes  ({}, {})",
        m.sha256,
        m.size,
        m.tools.uv,
        m.tools.python
    );
    match outcome.staged {
        Some(s) => {
            let how = |o: &lane_store::PutOutcome| match o {
                lane_store::PutOutcome::Written { .. } => "staged",
                lane_store::PutOutcome::AlreadyThere { .. } => "already staged (identical)",
            };
            outln!("{} {}/{}", how(&s.wheel), s.store, s.wheel_key);
            outln!("{} {}/{}", how(&s.manifest), s.store, s.manifest_key);
            match s.fetch {
                lane_store::FetchLocation::Path(p) => outln!("pods fetch: {}", p.display()),
                lane_store::FetchLocation::Url(_) => {
                    outln!(
                        "pods fetch: a presigned URL valid {} s (--json shows it)",
                        args.url_ttl
                    )
                }
            }
        }
        None => outln!("dry run: nothing staged"),
    }
    Ok(())
}
