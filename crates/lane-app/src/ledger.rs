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
use std::io::Read;
use std::path::{Path, PathBuf};

use lane_ledger::{
    compare::{compare, NoiseRule},
    from_report_beside, from_trace, MintBreakdown, Severity, TraceOptions,
};

use crate::beside::{read_beside, read_trace_file, trace_logs};

use crate::error::AppError;

/// What `lane ledger` is asked.
#[derive(Debug, Clone)]
pub struct LedgerRequest {
    /// Mint reports (`.json`) or TORCH_TRACE logs (a trace directory or a
    /// `.log` file), one mint each.
    pub inputs: Vec<PathBuf>,
    /// Baseline mints to compare against `candidate`.
    pub baseline: Vec<PathBuf>,
    /// Candidate mints to compare against `baseline`.
    pub candidate: Vec<PathBuf>,
    /// The noise rule of the comparison.
    pub noise: NoiseRule,
    /// A finding at or above this severity is a finding of the run (exit 7).
    pub fail_on: Option<Severity>,
    /// Largest report read, in bytes.
    pub max_report_bytes: u64,
}

/// What `lane ledger` read.
#[derive(Debug)]
pub struct LedgerOutcome {
    /// Every mint read: the inputs, then the baseline's, then the candidate's.
    pub mints: Vec<MintBreakdown>,
    /// The comparison, with `baseline` and `candidate`.
    pub comparison: Option<lane_ledger::Comparison>,
    /// The reports that could not be read (`<file>: <why>`); their rows are in `mints`.
    pub unreadable: Vec<String>,
    /// The request's `fail_on`.
    pub fail_on: Option<Severity>,
}

impl LedgerOutcome {
    /// An unreadable report makes the run invalid (exit 3); a finding at
    /// or above `fail_on` is a finding (exit 7).
    pub fn verdict(&self) -> Result<(), AppError> {
        if !self.unreadable.is_empty() {
            return Err(AppError::UnreadableReports(self.unreadable.clone()));
        }
        if let Some(threshold) = self.fail_on {
            let worst = self
                .mints
                .iter()
                .flat_map(|m| m.findings.iter())
                .map(|f| f.severity)
                .max();
            if worst.is_some_and(|w| w >= threshold) {
                tracing::info!(%threshold, "findings at or above --fail-on");
                return Err(AppError::FindingsAtLeast {
                    threshold: threshold.to_string(),
                });
            }
        }
        Ok(())
    }
}

/// `lane ledger`: every input's breakdown (an unreadable report becomes
/// its row and never hides the others), and the comparison.
pub fn ledger(request: &LedgerRequest) -> Result<LedgerOutcome, AppError> {
    if request.inputs.is_empty() && request.baseline.is_empty() {
        return Err(AppError::Usage(
            "give at least one report or trace, or --baseline and --candidate".to_owned(),
        ));
    }
    let mut unreadable: Vec<String> = Vec::new();
    let mut read_all = |paths: &[PathBuf]| -> Result<Vec<MintBreakdown>, AppError> {
        paths
            .iter()
            .map(|p| match read_mint(p, request.max_report_bytes)? {
                Input::Mint(b) => Ok(*b),
                Input::Missing(b) => {
                    unreadable.push(format!("{}: no such file", b.source));
                    Ok(*b)
                }
                Input::Unreadable { label, error } => {
                    tracing::warn!(path = %label, %error, "unreadable report");
                    let b = MintBreakdown::unreadable(&label, &error);
                    unreadable.push(format!("{label}: {error}"));
                    Ok(b)
                }
            })
            .collect()
    };
    let mut mints = read_all(&request.inputs)?;
    let comparison = if request.baseline.is_empty() {
        None
    } else {
        let base = read_all(&request.baseline)?;
        let cand = read_all(&request.candidate)?;
        let c = compare(&base, &cand, &request.noise)?;
        mints.extend(base);
        mints.extend(cand);
        Some(c)
    };
    Ok(LedgerOutcome {
        mints,
        comparison,
        unreadable,
        fail_on: request.fail_on,
    })
}

/// What one input gave.
enum Input {
    /// A breakdown (of a report, a trace, or of no report at all).
    Mint(Box<MintBreakdown>),
    /// A named file that does not exist: its row is an absence (never
    /// zeros), and the run is invalid.
    Missing(Box<MintBreakdown>),
    /// A report that could not be read: its row, not the end of the run.
    Unreadable {
        /// The file, as given.
        label: String,
        /// Why, with the JSON path or line and column.
        error: String,
    },
}

/// Reads one input: a report, a trace file or a trace directory.
fn read_mint(path: &Path, max_report_bytes: u64) -> Result<Input, AppError> {
    let label = path.display().to_string();
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A killed child writes nothing: that is no measurement, not
            // zero; and a file named that is not there is no input either.
            tracing::warn!(path = %label, "no report");
            return Ok(Input::Missing(Box::new(MintBreakdown::missing(
                &label,
                "file not found",
            ))));
        }
        Err(e) => return Err(AppError::io(path, e)),
    };
    if meta.is_dir() {
        return read_trace_dir(path).map(|b| Input::Mint(Box::new(b)));
    }
    if !meta.is_file() {
        // A device, pipe or socket never ends (`/dev/zero`): never read.
        return Ok(Input::Unreadable {
            label,
            error: "not a regular file (a device, a pipe or a socket): not read".into(),
        });
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
            .map_err(|e| AppError::io(path, e))?;
        // What the upstream wrote beside it: the compile pool's share
        // reports, the TORCH_TRACE logs.
        let beside = match read_beside(path, max_report_bytes) {
            Ok(b) => b,
            Err(error) => return Ok(Input::Unreadable { label, error }),
        };
        Ok(
            match lane_ledger::parse_report_with_limit(&bytes, max_report_bytes) {
                Ok(report) => {
                    Input::Mint(Box::new(from_report_beside(&label, &report, beside.view())))
                }
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
fn is_report(path: &Path) -> Result<bool, AppError> {
    if path.extension().is_some_and(|e| e == "json") {
        return Ok(true);
    }
    if path.extension().is_some_and(|e| e == "log") {
        return Ok(false);
    }
    let mut head = [0u8; 64];
    let n = File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .map_err(|e| AppError::io(path, e))?;
    Ok(head[..n].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{'))
}

/// A TORCH_TRACE directory: every `*.log` in it (one per process), merged.
fn read_trace_dir(dir: &Path) -> Result<MintBreakdown, AppError> {
    let Some(merged) = trace_logs(dir)? else {
        return Err(AppError::invalid_file(
            dir,
            "no TORCH_TRACE logs (*.log) in this directory",
        ));
    };
    Ok(from_trace(&dir.display().to_string(), &merged))
}
