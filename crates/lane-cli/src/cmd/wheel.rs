//! `lane wheel`: build the lane's wheel from its branch's tree with uv,
//! verify it is that tree, and stage it (with its manifest) in the artifact
//! store where GPU pods fetch it.

use std::path::PathBuf;
use std::time::Duration;

use lane_wheel::{BuildRequest, WheelError};

use crate::exit::{CliError, CliResult, Exit};
use crate::lane::{load, repository};
use crate::output::print_json;

/// Arguments of `lane wheel`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The lane: a version (`0.93.3` reads `lanes/0.93.3.yaml`) or a lane file path.
    pub lane: String,
    /// Operate on this local clone instead of the lane's upstream.
    #[arg(long)]
    pub repo: Option<PathBuf>,
    /// The artifact store: `file:///path`, a path, or `s3://bucket/prefix`
    /// (S3 credentials from `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`,
    /// endpoint from `LANE_S3_ENDPOINT` or `AWS_ENDPOINT_URL`).
    #[arg(long, env = "LANE_STORE", default_value = "out/store")]
    pub store: String,
    /// Where `uv` is looked for (after PATH) and installed when missing.
    #[arg(long, env = "LANE_TOOLS_DIR", default_value = ".tools")]
    pub tools_dir: PathBuf,
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

/// A wheel error with its documented exit code (decided in `AppError::exit`).
pub fn wheel_exit(e: WheelError) -> CliError {
    lane_app::AppError::from(e).into()
}

/// Opens `--store`.
pub fn open_store(location: &str) -> Result<Box<dyn lane_store::ArtifactStore>, CliError> {
    Ok(lane_app::lane::open_store(location)?)
}

#[derive(serde::Serialize)]
struct Report<'a> {
    manifest: &'a lane_wheel::WheelManifest,
    staged: Option<lane_wheel::Staged>,
    timings: &'a lane_wheel::Timings,
}

/// Runs `lane wheel`.
pub fn run(args: Args) -> CliResult {
    let loaded = load(&args.lane)?;
    let repo_dir = repository(&loaded, args.repo.as_deref())?;
    let repo = lane_git::repo::open(&repo_dir).map_err(crate::cmd::cut::git_exit)?;
    let request = BuildRequest {
        lane: loaded.lane.version.to_string(),
        branch: loaded.lane.branch_name(),
        tools_dir: args.tools_dir.clone(),
    };
    let mut built = lane_wheel::build(&repo, &request).map_err(wheel_exit)?;
    // Opened after the build so a refused build leaves no store folder behind.
    let store = if args.dry_run {
        None
    } else {
        Some(open_store(&args.store)?)
    };
    let staged = match &store {
        Some(s) => Some(
            lane_wheel::stage(s.as_ref(), &mut built, Duration::from_secs(args.url_ttl))
                .map_err(wheel_exit)?,
        ),
        None => None,
    };
    let m = &built.manifest;
    if args.json {
        print_json(&Report {
            manifest: m,
            staged,
            timings: &built.timings,
        })?;
        return Ok(Exit::Ok);
    }
    println!(
        "built {} from {} at {} (tree {})",
        m.wheel,
        m.branch,
        &m.commit[..12],
        &m.tree[..12]
    );
    println!(
        "verified: name {} and version {} (file name, METADATA), RECORD ({} files), {} package files equal to the lane tree's blobs",
        m.verified.name, m.verified.version, m.verified.recorded_files, m.verified.package_files
    );
    println!(
        "sha256 {}  {} bytes  ({}, {})",
        m.sha256, m.size, m.tools.uv, m.tools.python
    );
    match staged {
        Some(s) => {
            let how = |o: &lane_store::PutOutcome| match o {
                lane_store::PutOutcome::Written { .. } => "staged",
                lane_store::PutOutcome::AlreadyThere { .. } => "already staged (identical)",
            };
            println!("{} {}/{}", how(&s.wheel), s.store, s.wheel_key);
            println!("{} {}/{}", how(&s.manifest), s.store, s.manifest_key);
            match s.fetch {
                lane_store::FetchLocation::Path(p) => println!("pods fetch: {}", p.display()),
                lane_store::FetchLocation::Url(_) => {
                    println!(
                        "pods fetch: a presigned URL valid {} s (--json shows it)",
                        args.url_ttl
                    )
                }
            }
        }
        None => println!("dry run: nothing staged"),
    }
    Ok(Exit::Ok)
}
