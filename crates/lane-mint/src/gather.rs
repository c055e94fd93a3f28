//! Gathering: a finished attempt's report, artifacts and record go into the
//! lane's results folder, `<results>/<cell>/<gpu>/r<N>/` (`report.json`,
//! `mint.json`, `artifacts/`), replacing the slot atomically (written beside
//! it, then renamed), and `summary.json` says whether the lane is green.

use serde::Serialize;
use std::path::{Path, PathBuf};

use crate::agent::AgentResult;
use crate::error::MintError;
use crate::outcome::{Outcome, ProcessEnd};

/// `mint.json`: lane's own record of the attempt a slot ended with.
#[derive(Debug, Clone, Serialize)]
pub struct MintRecord<'a> {
    /// The cell.
    pub cell: &'a str,
    /// The GPU class.
    pub gpu: &'a str,
    /// The recipe.
    pub recipe: &'a str,
    /// The cold repeat.
    pub repeat: u32,
    /// The attempt this slot ended with.
    pub attempt: u32,
    /// Its outcome.
    pub status: Outcome,
    /// Why.
    pub reason: &'a str,
    /// Wall seconds of this attempt (a failed mint keeps its seconds);
    /// absent when nothing measured it (its agent vanished, its pod never
    /// ran), never 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_s: Option<f64>,
    /// The exit code, when it exited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Whether the mint replayed a recorded bundle.
    pub replay: bool,
    /// Wall seconds of every attempt of this slot, in order (retries cost too).
    pub attempts_wall_s: Vec<f64>,
    /// Where the result bundle went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bundle: Option<&'a crate::bundle::BundleState>,
    /// Seconds the attempt's Kubernetes Job ran, start to end (waiting for
    /// a node, pulling images and installing the wheel included), when no
    /// bundle measured the mint itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_s: Option<f64>,
    /// The last lines of what the attempt wrote to stderr (the agent's own
    /// log in a pod, when no bundle came back).
    #[serde(skip_serializing_if = "str::is_empty")]
    pub stderr_tail: &'a str,
    /// The cell the report's `artifact` named, and whether it was gathered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact: Option<&'a crate::report::ArtifactState>,
    /// What the agent noticed that changed no outcome (an echo not believed).
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub notes: &'a [String],
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> MintError + '_ {
    move |source| MintError::Io {
        path: path.to_owned(),
        source,
    }
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), MintError> {
    std::fs::create_dir_all(to).map_err(io(to))?;
    let Ok(entries) = std::fs::read_dir(from) else {
        return Ok(());
    };
    for e in entries {
        let e = e.map_err(io(from))?;
        let src = e.path();
        let dst = to.join(e.file_name());
        let ft = e.file_type().map_err(io(&src))?;
        if ft.is_dir() {
            copy_tree(&src, &dst)?;
        } else if ft.is_file() {
            std::fs::copy(&src, &dst).map_err(io(&src))?;
        }
    }
    Ok(())
}

/// The slot folder of a result.
pub fn slot_dir(results: &Path, cell: &str, gpu: &str, repeat: u32) -> PathBuf {
    results.join(cell).join(gpu).join(format!("r{repeat}"))
}

/// Copies a finished attempt into its slot of the results folder.
/// `wall_s` is the attempt's measured seconds (`None`: not measured);
/// `job_s` the seconds of a Job that left no bundle.
#[allow(clippy::too_many_arguments)]
pub fn gather(
    results: &Path,
    mint_dir: &Path,
    result: &AgentResult,
    wall_s: Option<f64>,
    job_s: Option<f64>,
    recipe: &str,
    attempts_wall_s: Vec<f64>,
) -> Result<PathBuf, MintError> {
    let id = &result.id;
    let slot = slot_dir(results, &id.cell, &id.gpu, id.repeat);
    let parent = slot.parent().expect("a slot has a parent");
    std::fs::create_dir_all(parent).map_err(io(parent))?;
    let tmp = parent.join(format!(".r{}.tmp", id.repeat));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(io(&tmp))?;
    }
    std::fs::create_dir_all(&tmp).map_err(io(&tmp))?;
    let report = mint_dir.join("report.json");
    if report.is_file() {
        std::fs::copy(&report, tmp.join("report.json")).map_err(io(&report))?;
    }
    copy_tree(&mint_dir.join("artifacts"), &tmp.join("artifacts"))?;
    let record = MintRecord {
        cell: &id.cell,
        gpu: &id.gpu,
        recipe,
        repeat: id.repeat,
        attempt: id.attempt,
        status: result.outcome,
        reason: &result.reason,
        wall_s,
        exit_code: match result.end {
            ProcessEnd::Exited { code } => Some(code),
            _ => None,
        },
        replay: result.replay,
        attempts_wall_s,
        bundle: result.bundle.as_ref(),
        job_s,
        stderr_tail: &result.stderr_tail,
        artifact: result.artifact.as_ref(),
        notes: &result.notes,
    };
    let json = serde_json::to_vec_pretty(&record).expect("a record always serializes");
    std::fs::write(tmp.join("mint.json"), json).map_err(io(&tmp))?;
    if slot.exists() {
        std::fs::remove_dir_all(&slot).map_err(io(&slot))?;
    }
    std::fs::rename(&tmp, &slot).map_err(io(&slot))?;
    Ok(slot)
}

/// `summary.json`: is the lane green, and what each slot ended as.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The lane.
    pub lane: String,
    /// Every slot minted.
    pub green: bool,
    /// Any slot replayed a recorded bundle instead of compiling.
    pub replay: bool,
    /// Each slot's final outcome.
    pub mints: Vec<SlotSummary>,
}

/// One slot in the summary.
#[derive(Debug, Clone, Serialize)]
pub struct SlotSummary {
    /// `<lane>/<cell>/<gpu>/r<N>`.
    pub slot: String,
    /// The final attempt.
    pub attempt: u32,
    /// Its outcome.
    pub status: Outcome,
    /// Why.
    pub reason: String,
    /// Seconds summed over every attempt that measured any; absent when none did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_s: Option<f64>,
    /// Seconds of the slot's Kubernetes Job, when no bundle measured the mint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_s: Option<f64>,
}

/// Writes `summary.json` atomically.
pub fn write_summary(results: &Path, summary: &Summary) -> Result<(), MintError> {
    std::fs::create_dir_all(results).map_err(io(results))?;
    let tmp = results.join("summary.json.tmp");
    std::fs::write(
        &tmp,
        serde_json::to_vec_pretty(summary).expect("serializes"),
    )
    .map_err(io(&tmp))?;
    std::fs::rename(&tmp, results.join("summary.json")).map_err(io(results))
}
