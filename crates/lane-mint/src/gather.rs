//! Gathering: a finished attempt's report, artifacts and record go into the
//! lane's results folder, `<results>/<cell>/<gpu>/r<N>/` (`report.json`,
//! `mint.json`, `artifacts/`, the upstream's ledger files in `ledger/`), replacing the slot atomically (written beside
//! it, then renamed), and `summary.json` says whether the lane is green.

use lane_core::layout::file;
use std::path::{Path, PathBuf};

use lane_core::results::Contract;
use lane_core::{AgentResult, MintRecord, ProcessEnd, Recipe, Summary};

use crate::error::MintError;

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

/// What the lane file says of a slot that its record keeps: the cell's
/// recipe, and the card that may stand in for its GPU class.
#[derive(Debug, Clone)]
pub struct SlotFacts {
    /// The cell's recipe.
    pub recipe: Recipe,
    /// The card word `mint.stand_in` names for the slot's class.
    pub stand_in: Option<String>,
}

impl SlotFacts {
    /// The facts of `cell` on `gpu` in `lane`, when the lane names the cell.
    pub fn of(lane: &lane_file::LaneFile, cell: &str, gpu: &str) -> Option<SlotFacts> {
        let m = lane.mint.as_ref()?;
        let c = m.cells.iter().find(|c| c.name.as_str() == cell)?;
        Some(SlotFacts {
            recipe: c.recipe,
            stand_in: m.stand_in_for(gpu).map(str::to_owned),
        })
    }
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
    slot: SlotFacts,
    attempts_wall_s: Vec<f64>,
) -> Result<PathBuf, MintError> {
    let SlotFacts { recipe, stand_in } = slot;
    let id = &result.id;
    let slot = lane_core::layout::slot_dir(results, &id.cell, &id.gpu, id.repeat);
    let parent = slot.parent().expect("a slot has a parent");
    std::fs::create_dir_all(parent).map_err(io(parent))?;
    let tmp = parent.join(format!(".r{}.tmp", id.repeat));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(io(&tmp))?;
    }
    std::fs::create_dir_all(&tmp).map_err(io(&tmp))?;
    let report = mint_dir.join(file::REPORT);
    if report.is_file() {
        std::fs::copy(&report, tmp.join(file::REPORT)).map_err(io(&report))?;
    }
    copy_tree(&mint_dir.join(file::ARTIFACTS), &tmp.join(file::ARTIFACTS))?;
    let ledger = mint_dir.join(lane_agent::agent::LEDGER_DIR);
    if ledger.is_dir() {
        copy_tree(&ledger, &tmp.join(lane_agent::agent::LEDGER_DIR))?;
    }
    let record = MintRecord {
        cell: id.cell.clone(),
        gpu: id.gpu.clone(),
        stand_in,
        recipe,
        repeat: id.repeat,
        attempt: id.attempt,
        status: result.outcome,
        reason: result.reason.clone(),
        wall_s,
        exit_code: match result.end {
            ProcessEnd::Exited { code } => Some(code),
            _ => None,
        },
        replay: result.replay,
        attempts_wall_s,
        bundle: result.bundle.clone(),
        job_s,
        stderr_tail: result.stderr_tail.clone(),
        gathering: result.gathering.clone(),
        started_at: result.started_at,
        environment: result.environment.clone(),
    };
    std::fs::write(tmp.join(MintRecord::FILE), record.to_json()).map_err(io(&tmp))?;
    if slot.exists() {
        std::fs::remove_dir_all(&slot).map_err(io(&slot))?;
    }
    std::fs::rename(&tmp, &slot).map_err(io(&slot))?;
    Ok(slot)
}

/// What of `result`'s gathered files `dir` (a results slot, or the
/// attempt's folder it was gathered from) lacks, in words: its report
/// when the result read one, or a file of `artifacts/` (absent, or of
/// another size than fingerprinted). `None` when all is there. Sizes, not
/// digests: this runs over every slot of every rerun, cells of GBs
/// included; a changed byte is the diff's and the digest check's business.
pub fn missing_from(dir: &Path, result: &AgentResult) -> Option<String> {
    let has_report = !matches!(result.report, lane_core::ReportState::Absent);
    if has_report && !dir.join(file::REPORT).is_file() {
        return Some(file::REPORT.to_owned());
    }
    result.files.iter().find_map(|f| {
        let path = dir.join(file::ARTIFACTS).join(&f.path);
        match std::fs::metadata(&path) {
            Ok(m) if m.len() == f.size => None,
            Ok(m) => Some(format!(
                "{}/{} ({} bytes, {} gathered)",
                file::ARTIFACTS,
                f.path,
                m.len(),
                f.size
            )),
            Err(_) => Some(format!("{}/{}", file::ARTIFACTS, f.path)),
        }
    })
}

/// Writes `summary.json` atomically.
pub fn write_summary(results: &Path, summary: &Summary) -> Result<(), MintError> {
    std::fs::create_dir_all(results).map_err(io(results))?;
    let tmp = results.join("summary.json.tmp");
    std::fs::write(&tmp, summary.to_json()).map_err(io(&tmp))?;
    std::fs::rename(&tmp, results.join(Summary::FILE)).map_err(io(results))
}
