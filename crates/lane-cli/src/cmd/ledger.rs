//! `lane ledger`: read mint reports and TORCH_TRACE logs and print the
//! honest breakdown of each mint, its findings, and with
//! `--baseline`/`--candidate` the comparison (see `lane_app::ledger`).

use std::path::PathBuf;

use lane_app::{AppError, LedgerRequest};
use lane_ledger::{report::DEFAULT_MAX_REPORT_BYTES, MintBreakdown, NoiseRule, Severity};
use lane_render::text::{render_breakdowns, render_comparison};
use serde::Serialize;

use crate::output::print_json;

/// Arguments of `lane ledger`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Mint reports (`.json`) or TORCH_TRACE logs (a trace directory or a
    /// `.log` file), one mint each.
    #[arg(value_name = "REPORT_OR_TRACE")]
    pub inputs: Vec<PathBuf>,
    /// Baseline mints (repeats of one cell on one GPU) to compare against
    /// `--candidate`.
    #[arg(long, value_name = "REPORT_OR_TRACE", num_args = 1.., requires = "candidate")]
    pub baseline: Vec<PathBuf>,
    /// Candidate mints to compare against `--baseline`.
    #[arg(long, value_name = "REPORT_OR_TRACE", num_args = 1.., requires = "baseline")]
    pub candidate: Vec<PathBuf>,
    /// Noise rule: relative threshold of the baseline (0.05 = 5 %).
    #[arg(long, default_value_t = 0.05, value_name = "FRACTION", value_parser = parse_fraction)]
    pub noise_relative: f64,
    /// Noise rule: floor in seconds below which a delta is noise.
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS", value_parser = parse_seconds)]
    pub noise_floor_s: f64,
    /// Exit 7 when any finding is at or above this severity.
    #[arg(long, value_name = "SEVERITY", value_parser = parse_severity)]
    pub fail_on: Option<Severity>,
    /// Largest report read, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_REPORT_BYTES, value_name = "BYTES")]
    pub max_report_bytes: u64,
    /// Print JSON for scripts instead of tables.
    #[arg(long)]
    pub json: bool,
}

fn parse_severity(s: &str) -> Result<Severity, String> {
    s.parse()
}

/// What `--json` prints.
#[derive(Serialize)]
struct LedgerOutput<'a> {
    mints: &'a [MintBreakdown],
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<&'a lane_ledger::Comparison>,
}

/// `--noise-relative`: a finite fraction, 0 to 1 (`NaN`, `-1` and `inf`
/// were accepted and made every delta noise, or none).
fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected a fraction from 0 to 1 (0.05 = 5 %), found `{s}`"
        )),
    }
}

/// `--noise-floor-s`: a finite, non-negative number of seconds.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!(
            "expected a finite, non-negative number of seconds, found `{s}`"
        )),
    }
}

/// Runs `lane ledger`.
pub fn run(args: Args) -> Result<(), AppError> {
    let outcome = lane_app::ledger(&LedgerRequest {
        inputs: args.inputs,
        baseline: args.baseline,
        candidate: args.candidate,
        noise: NoiseRule {
            relative: args.noise_relative,
            floor_s: args.noise_floor_s,
        },
        fail_on: args.fail_on,
        max_report_bytes: args.max_report_bytes,
    })?;
    if args.json {
        print_json(&LedgerOutput {
            mints: &outcome.mints,
            comparison: outcome.comparison.as_ref(),
        })?;
    } else {
        out!("{}", render_breakdowns(&outcome.mints));
        if let Some(c) = &outcome.comparison {
            outln!();
            out!("{}", render_comparison(c));
        }
    }
    // Every mint was shown; an unreadable one makes the run invalid.
    outcome.verdict()
}
