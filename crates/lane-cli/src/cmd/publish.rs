//! `lane publish`: upload the lane's staged, verified wheel to a package
//! index, only when the lane's mint results are green, unless `--force`
//! with a reason, which is recorded (see `lane_app::publish`).

use std::path::PathBuf;

use lane_app::{AppError, PublishRequest};
use lane_wheel::index::IndexToken;

use crate::cmd::args::{ToolsDirArg, WaitArg, WheelArgs};
use crate::output::print_json;

/// Arguments of `lane publish`.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("store", |a| a.help("The artifact store `lane wheel` staged into")),
    mut_arg("tools_dir", |a| a.help(
        "Where `uv` (which uploads) is looked for after PATH, and installed when missing"
    )),
)]
pub struct Args {
    #[command(flatten)]
    pub wheel: WheelArgs,
    /// The index's upload URL (twine's repository URL, e.g.
    /// `https://upload.pypi.org/legacy/`). The token is read from
    /// `LANE_INDEX_TOKEN` only, and never printed.
    #[arg(long, env = "LANE_INDEX_URL")]
    pub index_url: String,
    /// The index user name.
    #[arg(long, env = "LANE_INDEX_USER", default_value = "__token__")]
    pub index_user: String,
    /// The mint results summary (default `out/lanes/<version>/results/summary.json`).
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Publish even though the mint results are not green; needs `--reason`.
    #[arg(long, requires = "reason")]
    pub force: bool,
    /// Why `--force` was used; recorded in the publish record.
    #[arg(long)]
    pub reason: Option<String>,
    /// Print the publish record as JSON.
    #[arg(long)]
    pub json: bool,
    /// Check everything (the gate, the staged wheel, its re-verification
    /// against the lane tree) and upload nothing, keep no record.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub tools_dir: ToolsDirArg,
    #[command(flatten)]
    pub wait: WaitArg,
}

/// Runs `lane publish`.
pub fn run(args: Args) -> Result<(), AppError> {
    let token = std::env::var("LANE_INDEX_TOKEN")
        .ok()
        .filter(|t| !t.is_empty())
        .map(IndexToken::new);
    let outcome = lane_app::publish(&PublishRequest {
        lane: args.wheel.lane.lane,
        repo: args.wheel.repo.repo,
        store: args.wheel.store.store,
        index_url: args.index_url,
        index_user: args.index_user,
        token,
        results: args.results,
        force: args.force,
        reason: args.reason,
        dry_run: args.dry_run,
        tools_dir: args.tools_dir.tools_dir,
        wait: args.wait.policy(),
    })?;
    let record = &outcome.record;
    if args.json {
        return print_json(record);
    }
    if outcome.dry_run {
        outln!(
            "would publish {} to {} (dry run: nothing uploaded, no record kept)",
            record.wheel,
            record.index_url
        );
        return Ok(());
    }
    outln!("published {} to {}", record.wheel, record.index_url);
    if record.forced {
        outln!(
            "forced past a gate that was {}; reason recorded: {}",
            record.gate,
            record.reason.as_deref().unwrap_or("")
        );
    }
    outln!("record: {}", outcome.at);
    Ok(())
}
