//! `lane ledger`: read mint reports (`*.json`) and TORCH_TRACE logs (a
//! trace directory or one `.log`), print the honest breakdown of each mint
//! and its findings; with `--baseline`/`--candidate`, compare two lanes.
//!
//! This is the IO edge of `lane-ledger`: it caps report sizes before
//! reading, streams traces, and turns a missing report into an absence (a
//! `missing_report` finding), never into zeros. A report it cannot read
//! (truncated, NaN, a shape lane does not know, over the cap) never hides
//! the others: it becomes that mint's row (`MintBreakdown::unreadable`, an
//! `unreadable_report` error finding), every other mint is still printed,
//! and the command exits 3 naming the file and the JSON path or line.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};
use lane_ledger::{
    compare::{compare, NoiseRule},
    from_report, from_trace,
    report::DEFAULT_MAX_REPORT_BYTES,
    MintBreakdown, Severity, TraceMetrics, TraceOptions,
};
use lane_render::text::{render_breakdowns, render_comparison};
use serde::Serialize;

use crate::exit::{CliError, CliResult, Exit};
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
pub fn run(args: Args) -> CliResult {
    if args.inputs.is_empty() && args.baseline.is_empty() {
        return Err(CliError::new(
            Exit::Usage,
            anyhow!("give at least one report or trace, or --baseline and --candidate"),
        ));
    }
    let mut unreadable: Vec<String> = Vec::new();
    let mut read_all = |paths: &[PathBuf]| -> Result<Vec<MintBreakdown>, CliError> {
        paths
            .iter()
            .map(|p| match read_mint(p, args.max_report_bytes)? {
                Input::Mint(b) => Ok(*b),
                Input::Unreadable { label, error } => {
                    tracing::warn!(path = %label, %error, "unreadable report");
                    let b = MintBreakdown::unreadable(&label, &error);
                    unreadable.push(format!("{label}: {error}"));
                    Ok(b)
                }
            })
            .collect()
    };
    let mints = read_all(&args.inputs)?;
    let comparison = if args.baseline.is_empty() {
        None
    } else {
        let base = read_all(&args.baseline)?;
        let cand = read_all(&args.candidate)?;
        let rule = NoiseRule {
            relative: args.noise_relative,
            floor_s: args.noise_floor_s,
        };
        let c = compare(&base, &cand, &rule).map_err(|e| CliError::new(Exit::InvalidInput, e))?;
        Some((base, cand, c))
    };

    let mut shown: Vec<&MintBreakdown> = mints.iter().collect();
    if let Some((base, cand, _)) = &comparison {
        shown.extend(base.iter().chain(cand.iter()));
    }
    if args.json {
        let all: Vec<MintBreakdown> = shown.iter().map(|m| (*m).clone()).collect();
        print_json(&LedgerOutput {
            mints: &all,
            comparison: comparison.as_ref().map(|(_, _, c)| c),
        })?;
    } else {
        let all: Vec<MintBreakdown> = shown.iter().map(|m| (*m).clone()).collect();
        print!("{}", render_breakdowns(&all));
        if let Some((_, _, c)) = &comparison {
            println!();
            print!("{}", render_comparison(c));
        }
    }
    if !unreadable.is_empty() {
        // Every mint was shown; the unreadable ones make the run invalid.
        return Err(CliError::new(
            Exit::InvalidInput,
            anyhow!("{}", unreadable.join("\n")),
        ));
    }
    if let Some(threshold) = args.fail_on {
        let worst = shown
            .iter()
            .flat_map(|m| m.findings.iter())
            .map(|f| f.severity)
            .max();
        if worst.is_some_and(|w| w >= threshold) {
            tracing::info!(%threshold, "findings at or above --fail-on");
            return Ok(Exit::Findings);
        }
    }
    Ok(Exit::Ok)
}

fn invalid(path: &Path, e: impl std::fmt::Display) -> CliError {
    CliError::new(Exit::InvalidInput, anyhow!("{}: {e}", path.display()))
}

/// What one input gave.
enum Input {
    /// A breakdown (of a report, a trace, or of no report at all).
    Mint(Box<MintBreakdown>),
    /// A report that could not be read: its row, not the end of the run.
    Unreadable {
        /// The file, as given.
        label: String,
        /// Why, with the JSON path or line and column.
        error: String,
    },
}

/// Reads one input: a report, a trace file or a trace directory.
fn read_mint(path: &Path, max_report_bytes: u64) -> Result<Input, CliError> {
    let label = path.display().to_string();
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A killed child writes nothing: that is no measurement, not zero.
            tracing::warn!(path = %label, "no report");
            return Ok(Input::Mint(Box::new(MintBreakdown::missing(
                &label,
                "file not found",
            ))));
        }
        Err(e) => return Err(CliError::new(Exit::Failure, anyhow!("{label}: {e}"))),
    };
    if meta.is_dir() {
        return read_trace_dir(path).map(|b| Input::Mint(Box::new(b)));
    }
    if is_report(path)? {
        if meta.len() > max_report_bytes {
            return Ok(Input::Unreadable {
                label,
                error: format!(
                    "report is {} bytes, above the {max_report_bytes}-byte cap (--max-report-bytes)",
                    meta.len()
                ),
            });
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        File::open(path)
            .and_then(|f| f.take(max_report_bytes + 1).read_to_end(&mut bytes))
            .with_context(|| label.clone())
            .map_err(|e| CliError::new(Exit::Failure, e))?;
        Ok(
            match lane_ledger::parse_report_with_limit(&bytes, max_report_bytes) {
                Ok(report) => Input::Mint(Box::new(from_report(&label, &report))),
                Err(e) => Input::Unreadable {
                    label,
                    error: e.to_string(),
                },
            },
        )
    } else {
        let options = TraceOptions::default();
        let metrics = read_trace_file(path, &options)?;
        Ok(Input::Mint(Box::new(from_trace(&label, &metrics))))
    }
}

/// A `.json` file, or anything whose first non-blank byte is `{`.
fn is_report(path: &Path) -> Result<bool, CliError> {
    if path.extension().is_some_and(|e| e == "json") {
        return Ok(true);
    }
    if path.extension().is_some_and(|e| e == "log") {
        return Ok(false);
    }
    let mut head = [0u8; 64];
    let n = File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .map_err(|e| CliError::new(Exit::Failure, anyhow!("{}: {e}", path.display())))?;
    Ok(head[..n].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{'))
}

fn read_trace_file(path: &Path, options: &TraceOptions) -> Result<TraceMetrics, CliError> {
    let file = File::open(path)
        .map_err(|e| CliError::new(Exit::Failure, anyhow!("{}: {e}", path.display())))?;
    let reader = BufReader::with_capacity(1 << 20, file);
    let mut metrics = lane_ledger::parse_trace(reader, options).map_err(|e| match e {
        lane_ledger::TraceError::Io { .. } => {
            CliError::new(Exit::Failure, anyhow!("{}: {e}", path.display()))
        }
        other => invalid(path, other),
    })?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    metrics.label(&name);
    Ok(metrics)
}

/// A TORCH_TRACE directory: every `*.log` in it (one per process), merged.
fn read_trace_dir(dir: &Path) -> Result<MintBreakdown, CliError> {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| CliError::new(Exit::Failure, anyhow!("{}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "log"))
        .collect();
    logs.sort();
    if logs.is_empty() {
        return Err(invalid(
            dir,
            "no TORCH_TRACE logs (*.log) in this directory",
        ));
    }
    let options = TraceOptions::default();
    let mut merged: Option<TraceMetrics> = None;
    for log in &logs {
        let m = read_trace_file(log, &options)?;
        match merged.as_mut() {
            None => merged = Some(m),
            Some(all) => all.merge(m, &options),
        }
    }
    let merged = merged.expect("at least one log");
    Ok(from_trace(&dir.display().to_string(), &merged))
}
