//! A results folder as one run of history: its id, time, release line,
//! environment fingerprint and rows (one per cell, GPU class, phase and
//! cold repeat, with the value `lane-ledger`'s breakdown gives and its
//! role; absent stays absent).
//!
//! - **Id.** `<UTC time>-<lane>-<sha12>`, the digest over the folder's
//!   `summary.json`, every `mint.json` and every `report.json`: the same
//!   results are the same run (adding them again is a no-op), other results
//!   another run, whatever their lane version (a probe lane re-runs 0.0.0).
//! - **Time.** The earliest `started_at` of its `mint.json` files; a folder
//!   recorded before lane kept it takes its `env.json`'s `date` (beside the
//!   folder, as `tests/data/gw-0.93.3-h200` has it); else `summary.json`'s
//!   modification time.
//! - **Fingerprint.** What every `mint.json`'s `environment` agreed on
//!   (`EnvFingerprint::common`: a field the mints disagree on, such as the
//!   node of a lane spread over a cluster, is unknown); without any, what
//!   `env.json` says (GPU, driver, CUDA, torch, triton, the upstream); the
//!   rest absent.
//! - **Rows.** Only repeats that minted: a failed or crashed mint's seconds
//!   are not comparable with a minted one's.

use lane_core::layout::file;
use std::path::Path;

use lane_core::{EnvFingerprint, MintStatus};
use lane_history::{Fingerprint, Role, Row, RunTime};
use lane_ledger::report::DEFAULT_MAX_REPORT_BYTES;
use lane_ledger::MintBreakdown;
use lane_render::CellResult;
use sha2::{Digest, Sha256};

use crate::error::AppError;
use crate::report::results::{self, Diffs};

/// One results folder, as a run of history.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRun {
    /// Its id.
    pub id: String,
    /// When it minted.
    pub time: RunTime,
    /// The lane version minted.
    pub lane: String,
    /// Its release line (`0.93`).
    pub line: String,
    /// The environment its mints agreed on.
    pub fingerprint: Fingerprint,
    /// Every row.
    pub rows: Vec<Row>,
    /// The repeats kept out of the history, each with why: a repeat that
    /// is not cold (it resolved what it should have compiled, or shared a
    /// cache with other attempts) is never a cold timing sample.
    pub left_out: Vec<String>,
}

/// A lane version's release line: `MAJOR.MINOR` (`0.93.3` → `0.93`).
pub fn line_of(version: &str) -> String {
    let parts: Vec<&str> = version.split('.').take(2).collect();
    parts.join(".")
}

/// The run a results folder holds. `lane`: the lane version, when the
/// caller knows it (else `summary.json`'s).
pub fn read_run(dir: &Path, lane: Option<&str>) -> Result<RecordedRun, AppError> {
    let cells = results::cells(dir, Diffs::Skip)?;
    run_of(dir, lane, &cells)
}

/// The run of a results folder whose cells are already loaded.
pub fn run_of(
    dir: &Path,
    lane: Option<&str>,
    cells: &[CellResult],
) -> Result<RecordedRun, AppError> {
    let summary = results::summary(dir)?;
    let lane = match (lane, summary.lane.as_deref()) {
        (Some(l), _) | (None, Some(l)) => l.to_owned(),
        (None, None) => {
            return Err(AppError::invalid(
                dir.join(file::SUMMARY).display(),
                "no summary.json says which lane these results are of",
            ))
        }
    };
    let records: Vec<&lane_core::MintRecord> = cells
        .iter()
        .flat_map(|c| c.repeats.iter().filter_map(|r| r.mint.as_ref()))
        .collect();
    let env_json = results::read_json(&dir.join("../env.json"))?;
    let time = match started(&records) {
        Some(t) => t,
        None => match env_json.as_ref().and_then(|e| e["date"].as_str()) {
            Some(date) => RunTime::parse(date).map_err(|e| {
                AppError::invalid(dir.join("../env.json").display(), format!("date: {e}"))
            })?,
            None => modified(&dir.join(file::SUMMARY))?,
        },
    };
    let recorded: Vec<&EnvFingerprint> = records
        .iter()
        .map(|m| &m.environment)
        .filter(|e| !e.is_empty())
        .collect();
    let fingerprint = if recorded.is_empty() {
        env_json.as_ref().map(from_env_json).unwrap_or_default()
    } else {
        EnvFingerprint::common(recorded)
    };
    let id = format!(
        "{}-{}-{}",
        compact(time),
        crate::history::store::segment(&lane),
        &digest(dir, cells)?[..12]
    );
    let line = line_of(&lane);
    let mut rows = Vec::new();
    let mut left_out = Vec::new();
    for c in cells {
        for rep in &c.repeats {
            let minted = rep
                .status()
                .is_some_and(|s| s.as_str() == MintStatus::Minted.as_str());
            if !minted || !rep.measured() {
                continue;
            }
            if let Some(why) = not_cold(rep) {
                left_out.push(format!("{} {} r{}: {why}", c.cell, c.gpu, rep.repeat));
                continue;
            }
            // A card that is not the slot's class is its own series: its
            // seconds never join (or judge) the class's.
            let gpu = match rep.mint.as_ref().map(|m| {
                lane_core::environment::card_of_slot(
                    &c.gpu,
                    m.stand_in.as_deref(),
                    m.environment.gpu_model.as_deref(),
                )
            }) {
                Some(
                    lane_core::environment::CardCheck::IsNot { card }
                    | lane_core::environment::CardCheck::StandsIn { card },
                ) => format!("{} on {card}", c.gpu),
                _ => c.gpu.clone(),
            };
            for (phase, role, seconds) in breakdown_rows(&rep.breakdown) {
                rows.push(Row {
                    run: id.clone(),
                    time,
                    lane: lane.clone(),
                    line: line.clone(),
                    fingerprint: fingerprint.clone(),
                    cell: c.cell.clone(),
                    gpu: gpu.clone(),
                    phase,
                    role,
                    repeat: rep.repeat,
                    seconds: seconds.filter(|s| s.is_finite()),
                });
            }
        }
    }
    Ok(RecordedRun {
        id,
        time,
        lane,
        line,
        fingerprint,
        rows,
        left_out,
    })
}

/// Why a repeat is not a cold timing sample, when it is not: its ledger
/// says it resolved what it should have compiled, or its record says it
/// shared a cache with other attempts.
fn not_cold(rep: &lane_render::RepeatResult) -> Option<String> {
    let warm = rep
        .breakdown
        .findings
        .iter()
        .find(|f| f.kind == lane_ledger::FindingKind::NotCold);
    if let Some(f) = warm {
        return Some(format!("warm ({})", f.message));
    }
    let iso = rep.mint.as_ref()?.gathering.isolation.as_ref()?;
    (!iso.is_cold()).then(|| {
        format!(
            "coldness not guaranteed (it shares with other attempts: {})",
            iso.sharing().join("; ")
        )
    })
}

/// The earliest `started_at` of the records.
fn started(records: &[&lane_core::MintRecord]) -> Option<RunTime> {
    let first = records
        .iter()
        .filter_map(|m| m.started_at)
        .filter(|t| t.is_finite() && *t > 0.0)
        .fold(None, |a: Option<f64>, t| Some(a.map_or(t, |a| a.min(t))))?;
    let nanos = (first * 1e9) as i128;
    jiff::Timestamp::from_nanosecond(nanos)
        .ok()
        .map(RunTime::Rfc3339)
}

/// A file's modification time, as RFC 3339 like every time lane prints.
fn modified(path: &Path) -> Result<RunTime, AppError> {
    let m = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .map_err(|e| AppError::io(path, e))?;
    let ts = jiff::Timestamp::try_from(m).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    // Whole seconds: the time is a label, and a digest-equal run keeps its first.
    let ts = jiff::Timestamp::from_second(ts.as_second()).unwrap_or(ts);
    Ok(RunTime::Rfc3339(ts))
}

/// `20261201T213145Z`.
fn compact(t: RunTime) -> String {
    let ts = match t {
        RunTime::Rfc3339(ts) => ts,
        RunTime::Unix(s) => jiff::Timestamp::from_second(s).unwrap_or(jiff::Timestamp::UNIX_EPOCH),
    };
    ts.strftime("%Y%m%dT%H%M%SZ").to_string()
}

/// sha256 over the folder's `summary.json` and each slot's `mint.json`
/// and `report.json`, in order, each with its path.
fn digest(dir: &Path, cells: &[CellResult]) -> Result<String, AppError> {
    let mut h = Sha256::new();
    let mut add = |rel: String| -> Result<(), AppError> {
        let mut file = Sha256::new();
        if crate::fsx::digest_capped(&dir.join(&rel), DEFAULT_MAX_REPORT_BYTES, &mut file)? {
            h.update(rel.as_bytes());
            h.update([0]);
            h.update(file.finalize());
        }
        Ok(())
    };
    add(file::SUMMARY.to_owned())?;
    for c in cells {
        for r in &c.repeats {
            for file in [file::MINT_RECORD, file::REPORT] {
                add(format!("{}/{}/r{}/{file}", c.cell, c.gpu, r.repeat))?;
            }
        }
    }
    Ok(lane_core::hex::hex(&h.finalize()))
}

/// The `env.json` a recorded run keeps beside its results folder
/// (`tests/data/gw-0.93.3-h200/*/env.json`): `gpu`, `nvidia_smi`
/// (`name, driver, memory`), `cuda`, `torch`, `triton`, `gen_worker`.
fn from_env_json(env: &serde_json::Value) -> Fingerprint {
    let text = |k: &str| env[k].as_str().map(str::to_owned);
    let driver = env["nvidia_smi"]
        .as_str()
        .and_then(|s| s.split(", ").nth(1))
        .map(str::to_owned);
    Fingerprint {
        gpu_model: text("gpu"),
        driver,
        cuda: text("cuda"),
        torch: text("torch"),
        triton: text("triton"),
        upstream: text("gen_worker"),
        image_digest: None,
        node: None,
    }
}

/// Every value of a breakdown as `(phase, role, seconds)`, the phase named
/// `<group>/<name>` as `lane-ledger`'s comparison groups them: the mint's
/// total, its phases and named residual, the warm split, the compile
/// partition (total, members, residual; members it never measured absent),
/// the overlays, and an AOT table's mint partition.
pub fn breakdown_rows(b: &MintBreakdown) -> Vec<(String, Role, Option<f64>)> {
    let mut out = Rows::default();
    out.push("mint", "total", Role::Total, b.total_s);
    for p in &b.phases {
        out.push("phase", &p.name, Role::Member, Some(p.seconds));
    }
    if let Some(r) = &b.outside_phases {
        out.push("phase", &r.name, Role::Residual, Some(r.seconds));
    }
    if let Some(s) = &b.warmup_split {
        out.push("warmup", "compile", Role::Member, s.compile_s);
        out.push("warmup", "execute", Role::Member, s.execute_s);
    }
    if let Some(p) = &b.compile_partition {
        out.partition("partition", p);
    }
    for o in &b.overlays {
        out.push("overlay", &o.name, Role::Overlay, Some(o.seconds));
    }
    if let Some(p) = b.aot.as_ref().and_then(|a| a.mint.as_ref()) {
        out.partition("aot", p);
    }
    out.0
}

#[derive(Default)]
struct Rows(Vec<(String, Role, Option<f64>)>);

impl Rows {
    fn push(&mut self, group: &str, name: &str, role: Role, s: Option<f64>) {
        self.0.push((format!("{group}/{name}"), role, s));
    }

    /// A partition's total, members, unobserved members (absent) and
    /// named residual.
    fn partition(&mut self, group: &str, p: &lane_ledger::Partition) {
        self.push(group, &p.total.name, Role::Total, Some(p.total.seconds));
        for m in &p.members {
            self.push(group, &m.name, Role::Member, Some(m.seconds));
        }
        for name in &p.unobserved {
            self.push(group, name, Role::Member, None);
        }
        self.push(
            group,
            &p.residual.name,
            Role::Residual,
            Some(p.residual.seconds),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_major_and_minor() {
        assert_eq!(line_of("0.93.3"), "0.93");
        assert_eq!(line_of("0.0.0"), "0.0");
        assert_eq!(line_of("1.2.3-rc.1"), "1.2");
    }
}
