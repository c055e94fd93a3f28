//! The arguments more than one command takes, each declared once: its
//! name, env var and default live here, and a command flattens the group
//! (`#[command(flatten)]`). A command whose help says more of the flag
//! than the group's keeps its own wording with `mut_arg` (the help
//! snapshots, `tests/cli/help.rs`, hold every text).

use std::path::PathBuf;

/// The lane, as a positional argument.
#[derive(Debug, Clone, clap::Args)]
pub struct LaneArg {
    /// The lane: a version (`0.93.3`) or a lane file path.
    pub lane: String,
}

/// `--repo`: a local clone instead of the lane's upstream.
#[derive(Debug, Clone, clap::Args)]
pub struct RepoArg {
    /// Operate on this local clone instead of the lane's upstream.
    #[arg(long)]
    pub repo: Option<PathBuf>,
}

/// `--store`: the artifact store `lane wheel` stages into (`$LANE_STORE`).
#[derive(Debug, Clone, clap::Args)]
pub struct StoreArg {
    /// The artifact store: `file:///path`, a path, or `s3://bucket/prefix`
    /// (S3 credentials from the AWS chain: `AWS_ACCESS_KEY_ID` and
    /// `AWS_SECRET_ACCESS_KEY`, IRSA, container or instance credentials;
    /// endpoint from `LANE_S3_ENDPOINT` or `AWS_ENDPOINT_URL`).
    #[arg(long, env = "LANE_STORE", default_value = "out/store")]
    pub store: String,
}

/// `--tools-dir`: where `uv` is found or installed (`$LANE_TOOLS_DIR`).
#[derive(Debug, Clone, clap::Args)]
pub struct ToolsDirArg {
    /// Where `uv` is looked for (after PATH) and installed when missing.
    #[arg(long, env = "LANE_TOOLS_DIR", default_value = ".tools")]
    pub tools_dir: PathBuf,
}

/// `--out`: where a lane's run lives (`<out>/lanes/<version>/`).
#[derive(Debug, Clone, clap::Args)]
pub struct RunOutArg {
    /// Where the lane's run lives.
    #[arg(long, default_value = "out")]
    pub out: PathBuf,
}

/// `--no-wait`: refuse at once (exit 9) when another lane command holds
/// the lane, instead of waiting for it.
#[derive(Debug, Clone, clap::Args)]
pub struct WaitArg {
    /// When another lane command (mint, reopen, report, publish) holds the
    /// lane, exit 9 at once instead of waiting for it.
    #[arg(long)]
    pub no_wait: bool,
}

impl WaitArg {
    /// The lock policy asked for.
    pub fn policy(&self) -> lane_app::lock::LockWait {
        if self.no_wait {
            lane_app::lock::LockWait::NoWait
        } else {
            lane_app::lock::LockWait::Wait
        }
    }
}

/// `--history`: the store the history lives in (`$LANE_STORE`).
#[derive(Debug, Clone, clap::Args)]
pub struct HistoryArg {
    /// The store the history lives in: a folder, `file:///path` or
    /// `s3://bucket/prefix` (objects under `history/<line>/`).
    #[arg(
        long,
        value_name = "STORE",
        env = "LANE_STORE",
        default_value = "out/store"
    )]
    pub history: String,
}

/// `--history` and `--json`: every `lane history` subcommand that reports
/// (and `lane report`).
#[derive(Debug, Clone, clap::Args)]
pub struct Store {
    #[command(flatten)]
    pub at: HistoryArg,
    /// Print JSON for scripts instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The lane whose wheel `lane wheel` stages and `lane publish` uploads,
/// the clone it is built from and the store it is staged in.
#[derive(Debug, Clone, clap::Args)]
#[command(mut_arg("lane", |a| a.help(
    "The lane: a version (`0.93.3` reads `lanes/0.93.3.yaml`) or a lane file path"
)))]
pub struct WheelArgs {
    #[command(flatten)]
    pub lane: LaneArg,
    #[command(flatten)]
    pub repo: RepoArg,
    #[command(flatten)]
    pub store: StoreArg,
}
