//! `lane diff`: the determinism diff of two cold mints (see `lane_app::diff`).

use std::path::PathBuf;

use lane_app::{AppError, DiffFound, DiffRequest};
use lane_diff::ingest::ReadLimits;
use lane_diff::{DeterminismVerdict, DEFAULT_MAX_CONTENT_BYTES};
use lane_render::escape::terminal as escape;
use lane_render::text::{render_determinism, render_mint_diff};

use crate::output::print_json;

/// Arguments of `lane diff`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The first mint: a folder, a packed cell (`.tar.gz`) or a `.pt2`;
    /// or a mint's folder (or results slot) whose `report.json` names its
    /// graph classes (`entries`), diffed class by class.
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// The second mint, as A.
    #[arg(value_name = "B")]
    pub b: PathBuf,
    /// Extra best_configs for A: an inductor cache directory or a report
    /// JSON with a `best_configs` map.
    #[arg(long, value_name = "DIR_OR_JSON")]
    pub configs_a: Option<PathBuf>,
    /// Extra best_configs for B (as `--configs-a`).
    #[arg(long, value_name = "DIR_OR_JSON")]
    pub configs_b: Option<PathBuf>,
    /// Exit 7 when the verdict is this or worse: `identical-not-proven`,
    /// `path-noise-only`, `autotune-configs-only`, `decisions-flipped` or
    /// `unexplained`. Identical bytes of a pair not proven cold exit 7
    /// whatever the level: they are no determinism pass.
    #[arg(long, value_name = "VERDICT", value_parser = parse_verdict)]
    pub fail_on: Option<DeterminismVerdict>,
    /// Largest file whose content is compared, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_CONTENT_BYTES, value_name = "BYTES")]
    pub max_content_bytes: u64,
    /// Largest file or archive member read at all, in bytes (larger is an
    /// error naming the archive and member).
    #[arg(long, default_value_t = ReadLimits::default().max_member_bytes, value_name = "BYTES")]
    pub max_member_bytes: u64,
    /// Print JSON for scripts instead of text.
    #[arg(long)]
    pub json: bool,
}

fn parse_verdict(s: &str) -> Result<DeterminismVerdict, String> {
    match s {
        "identical-not-proven" => Ok(DeterminismVerdict::IdenticalNotProven),
        "path-noise-only" => Ok(DeterminismVerdict::PathNoiseOnly),
        "autotune-configs-only" => Ok(DeterminismVerdict::AutotuneConfigsOnly),
        "decisions-flipped" => Ok(DeterminismVerdict::DecisionsFlipped),
        "unexplained" => Ok(DeterminismVerdict::Unexplained),
        other => Err(format!(
            "unknown verdict `{other}` (expected identical-not-proven, path-noise-only, autotune-configs-only, decisions-flipped or unexplained)"
        )),
    }
}

/// Runs `lane diff`.
pub fn run(args: Args) -> Result<(), AppError> {
    let outcome = lane_app::diff(&DiffRequest {
        a: args.a.clone(),
        b: args.b.clone(),
        configs_a: args.configs_a,
        configs_b: args.configs_b,
        fail_on: args.fail_on,
        max_content_bytes: args.max_content_bytes,
        max_member_bytes: args.max_member_bytes,
    })?;
    if args.json {
        print_json(&outcome.report)?;
    } else {
        outln!(
            "A: {}\nB: {}\n",
            escape(&args.a.display().to_string()),
            escape(&args.b.display().to_string())
        );
        match &outcome.report {
            DiffFound::Cells(r) => out!("{}", render_determinism(r)),
            DiffFound::Classes(r) => out!("{}", render_mint_diff(r)),
        }
    }
    outcome.verdict()
}
