//! Loading a lane's results folder (the contract with `lane mint`, see
//! `docs/report.md`) into `lane_render::LaneResults`:
//!
//! ```text
//! <results>/summary.json              optional: lane_core::Summary
//! <results>/<cell>/<gpu>/r<N>/report.json   the mint report (absent: not measured)
//! <results>/<cell>/<gpu>/r<N>/mint.json     lane_core::MintRecord: the orchestrator's record
//! <results>/<cell>/<gpu>/r<N>/artifacts/    the cells (r1 vs r2 diff: class by class when the reports name `entries`)
//! ```
//!
//! A missing report becomes `MintBreakdown::missing` (no numbers), never
//! zeros; a report that does not parse is an invalid input (exit 3).

use lane_core::layout::file;
use std::path::{Path, PathBuf};

use lane_diff::DEFAULT_MAX_CONTENT_BYTES;
use lane_ledger::report::DEFAULT_MAX_REPORT_BYTES;
use lane_ledger::{compare, from_report_beside, MintBreakdown, NoiseRule};
use lane_render::{CellResult, RepeatResult};
use serde_json::Value;

use lane_core::results::Contract;

use crate::error::AppError;

fn io(path: &Path, e: std::io::Error) -> AppError {
    AppError::io(path, e)
}

/// `summary.json`, when present.
#[derive(Debug, Default)]
pub struct Summary {
    pub lane: Option<String>,
    pub green: Option<bool>,
    pub wheel: Option<lane_core::WheelRef>,
    pub guard: Option<lane_core::GuardRecord>,
    pub replay: bool,
    pub cancelled: bool,
    /// Where it and the slots' own records disagree (read against the
    /// lane's plan by [`checked_summary`]; empty otherwise).
    pub disagreements: Vec<String>,
}

/// A whole file of at most the report cap: `None` when it does not exist;
/// above the cap, a link out of its folder or not a regular file is an
/// invalid input naming the file.
pub(crate) fn read_capped(path: &Path) -> Result<Option<Vec<u8>>, AppError> {
    crate::fsx::read_capped(path, DEFAULT_MAX_REPORT_BYTES)
}

/// A file lane wrote, read back through the type that wrote it: `None`
/// when it does not exist; above the cap, or not that type, is an invalid
/// input naming the file, line, column and JSON path.
pub(crate) fn read_contract<T: Contract>(path: &Path) -> Result<Option<T>, AppError> {
    let Some(bytes) = read_capped(path)? else {
        return Ok(None);
    };
    Ok(Some(T::from_json(&path.display().to_string(), &bytes)?))
}

/// A foreign JSON file lane reads whole (at most the report cap): `None`
/// when it does not exist; not JSON is an invalid input naming line and column.
pub(crate) fn read_json(path: &Path) -> Result<Option<Value>, AppError> {
    let Some(bytes) = read_capped(path)? else {
        return Ok(None);
    };
    serde_json::from_slice(&bytes).map(Some).map_err(|e| {
        AppError::invalid_file(
            path,
            format!(
                "invalid JSON at line {}, column {}: {e}",
                e.line(),
                e.column()
            ),
        )
    })
}

/// Reads `summary.json` (absent: everything unknown).
pub fn summary(dir: &Path) -> Result<Summary, AppError> {
    let Some(s) = read_contract::<lane_core::Summary>(&dir.join(lane_core::Summary::FILE))? else {
        return Ok(Summary::default());
    };
    Ok(Summary {
        lane: Some(s.lane),
        green: Some(s.green),
        wheel: s.wheel,
        guard: s.guard,
        replay: s.replay,
        cancelled: s.cancelled,
        disagreements: Vec::new(),
    })
}

/// Reads `summary.json` as [`summary`] does, and says where it and the
/// slots' own records disagree, read against the lane's plan.
pub fn checked_summary(dir: &Path, plan: &[lane_core::PlannedMint]) -> Result<Summary, AppError> {
    let mut out = summary(dir)?;
    if let Some(s) = read_contract::<lane_core::Summary>(&dir.join(lane_core::Summary::FILE))? {
        out.disagreements = disagreements(dir, &s, plan)?;
    }
    Ok(out)
}

/// Where `summary` (the `summary.json` of `dir`) and the truth disagree:
/// each planned slot's `mint.json` is read back and compared
/// ([`lane_core::Summary::disagreements`]); a slot name outside the plan
/// is never a path opened.
pub fn disagreements(
    dir: &Path,
    summary: &lane_core::Summary,
    plan: &[lane_core::PlannedMint],
) -> Result<Vec<String>, AppError> {
    let slots: Vec<lane_core::SlotId> = plan.iter().map(|p| p.id.slot()).collect();
    let mut records = std::collections::BTreeMap::new();
    for slot in &slots {
        let file = dir.join(slot.rel_dir()).join(lane_core::MintRecord::FILE);
        if let Some(r) = read_contract::<lane_core::MintRecord>(&file)? {
            records.insert(slot.clone(), r);
        }
    }
    Ok(summary.disagreements(&slots, &records))
}

fn subdirs(dir: &Path) -> Result<Vec<(String, PathBuf)>, AppError> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| io(dir, e))? {
        let e = e.map_err(|e| io(dir, e))?;
        if e.file_type().map_err(|er| io(&e.path(), er))?.is_dir() {
            out.push((e.file_name().to_string_lossy().into_owned(), e.path()));
        }
    }
    out.sort();
    Ok(out)
}

fn breakdown(path: &Path, label: &str) -> Result<MintBreakdown, AppError> {
    // One bad report never hides the lane: a report that cannot be read
    // (above the cap, a link out of its slot, not a regular file) becomes
    // its slot's row, with the reason as a finding.
    let bytes = match read_capped(path) {
        Ok(Some(b)) => b,
        Ok(None) => {
            tracing::warn!(mint = label, "no report");
            return Ok(MintBreakdown::missing(label, "no report.json"));
        }
        Err(e) => {
            tracing::warn!(mint = label, error = %e, "report unreadable");
            return Ok(MintBreakdown::unreadable(label, &e.to_string()));
        }
    };
    // What the upstream wrote beside it, kept by the agent in `ledger/`.
    let beside = match crate::beside::read_beside(path, DEFAULT_MAX_REPORT_BYTES) {
        Ok(b) => b,
        Err(e) => {
            tracing::warn!(mint = label, error = %e, "a ledger file beside the report is unreadable");
            return Ok(MintBreakdown::unreadable(label, &e));
        }
    };
    match lane_ledger::parse_report_with_limit(&bytes, DEFAULT_MAX_REPORT_BYTES) {
        Ok(report) => Ok(from_report_beside(label, &report, beside.view())),
        Err(e) => {
            tracing::warn!(mint = label, error = %e, "report unreadable");
            Ok(MintBreakdown::unreadable(
                label,
                &format!("{}: {e}", path.display()),
            ))
        }
    }
}

/// The slots whose report could not be read (`<cell>/<gpu>/r<N>`): a lane
/// with any is not green, whatever its mints said.
pub fn unreadable(cells: &[CellResult]) -> Vec<String> {
    cells
        .iter()
        .flat_map(|c| c.repeats.iter())
        .filter(|r| {
            r.breakdown
                .findings
                .iter()
                .any(|f| f.kind == lane_ledger::FindingKind::UnreadableReport)
        })
        .map(|r| r.breakdown.source.clone())
        .collect()
}

/// Whether loading a results folder makes each cell's determinism diff
/// (`lane report`) or only reads the reports (`lane history`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Diffs {
    /// Diff r1 against r2 where both kept artifacts.
    Make,
    /// Read the reports and records only.
    Skip,
}

/// One cell on one GPU, without its baseline comparison.
fn cell(cell: &str, gpu: &str, dir: &Path, diffs: Diffs) -> Result<CellResult, AppError> {
    let mut runs: Vec<(u32, PathBuf)> = subdirs(dir)?
        .into_iter()
        .filter_map(|(name, p)| Some((name.strip_prefix('r')?.parse().ok()?, p)))
        .collect();
    runs.sort_by_key(|(n, _)| *n);
    let mut repeats = Vec::new();
    let mut recipe = None;
    for (n, p) in &runs {
        let label = format!("{cell}/{gpu}/r{n}");
        let record = read_contract::<lane_core::MintRecord>(&p.join(lane_core::MintRecord::FILE))?;
        if recipe.is_none() {
            recipe = record.as_ref().map(|m| m.recipe.as_str().to_owned());
        }
        let mut breakdown = breakdown(&p.join(file::REPORT), &label)?;
        if let Some(m) = &record {
            // What lane's own record says beside the report: a command that
            // failed under a minted report, cells with no GPU code, a repeat
            // whose coldness is not guaranteed.
            breakdown.add_findings(lane_ledger::findings::record_findings(m));
        }
        repeats.push(RepeatResult {
            repeat: *n,
            mint: record,
            breakdown,
        });
    }
    let first_two: Vec<&PathBuf> = runs.iter().take(2).map(|(_, p)| p).collect();
    // A mint that wrote no artifacts (a dynamo mint seals nothing here)
    // has nothing to diff: no determinism verdict rather than an error,
    // and the cell says which repeat kept none.
    let kept: Vec<bool> = first_two
        .iter()
        .map(|p| std::fs::read_dir(p.join(file::ARTIFACTS)).is_ok_and(|mut d| d.next().is_some()))
        .collect();
    let not_diffed = not_diffed(&runs, &repeats);
    // A pair the diff cannot read is said on its cell; the lane still reports.
    let mut diff_note = None;
    // Class by class when both reports name graph classes, else one tree
    // each: as `lane diff` pairs two mints.
    let determinism = match (first_two.as_slice(), diffs) {
        (_, Diffs::Skip) => None,
        ([a, b], Diffs::Make) if kept.iter().all(|k| *k) => {
            match crate::diff::diff_repeats(a, b, DEFAULT_MAX_CONTENT_BYTES) {
                Ok(d) => Some(d),
                Err(e) => {
                    tracing::warn!(cell, gpu, error = %e, "determinism diff failed");
                    diff_note = Some(format!("the determinism diff could not be made: {e}"));
                    None
                }
            }
        }
        _ => None,
    };
    Ok(CellResult {
        cell: cell.to_owned(),
        gpu: gpu.to_owned(),
        recipe,
        repeats,
        not_diffed: if determinism.is_none() && diff_note.is_none() {
            not_diffed
        } else {
            None
        },
        determinism,
        determinism_note: diff_note,
        comparison: None,
        comparison_note: None,
    })
}

/// Why the first two repeats of a cell make no pair to diff, in words.
fn not_diffed(runs: &[(u32, PathBuf)], repeats: &[RepeatResult]) -> Option<String> {
    if runs.len() < 2 {
        return Some(format!(
            "{} repeat(s) only: the determinism diff pairs r1 with r2",
            runs.len()
        ));
    }
    let empty: Vec<String> = runs
        .iter()
        .take(2)
        .filter(|(_, p)| {
            !std::fs::read_dir(p.join(file::ARTIFACTS)).is_ok_and(|mut d| d.next().is_some())
        })
        .map(|(n, _)| {
            let status = repeats
                .iter()
                .find(|r| r.repeat == *n)
                .and_then(|r| r.mint.as_ref().map(|m| m.status.as_str().to_owned()))
                .unwrap_or_else(|| "no mint.json".to_owned());
            format!("r{n} gathered no cell ({status})")
        })
        .collect();
    (!empty.is_empty()).then(|| empty.join("; "))
}

/// Every cell of a results folder, sorted by cell then GPU.
pub fn cells(dir: &Path, diffs: Diffs) -> Result<Vec<CellResult>, AppError> {
    if !dir.is_dir() {
        return Err(AppError::NoResults {
            dir: dir.to_owned(),
        });
    }
    let mut out = Vec::new();
    for (c, cdir) in subdirs(dir)? {
        for (g, gdir) in subdirs(&cdir)? {
            out.push(cell(&c, &g, &gdir, diffs)?);
        }
    }
    Ok(out)
}

/// Compares each cell with the same cell and GPU of the baseline results.
pub fn compare_with(cells: &mut [CellResult], baseline: &[CellResult], rule: &NoiseRule) {
    for c in cells {
        let Some(b) = baseline.iter().find(|b| b.cell == c.cell && b.gpu == c.gpu) else {
            c.comparison_note = Some("the baseline lane has no such cell".to_owned());
            continue;
        };
        let side = |x: &CellResult| -> Vec<MintBreakdown> {
            x.repeats.iter().map(|r| r.breakdown.clone()).collect()
        };
        match compare(&side(b), &side(c), rule) {
            Ok(cmp) => c.comparison = Some(cmp),
            Err(e) => c.comparison_note = Some(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lane_core::{ArtifactState, Isolation, MintRecord, MintStatus, Recipe, TmpIsolation};
    use lane_ledger::FindingKind;

    use crate::beside::eras;

    /// The v0.114.3 capture as `lane mint` gathers it: the report, the
    /// share report in `ledger/`, and the record the agent wrote of it
    /// (exit 1 under a minted report, three CPU-only entries).
    fn slot(results: &Path, repeat: u32) {
        let slot = results.join(format!("rig-aot/H200/r{repeat}"));
        let share = slot.join("ledger/compile-pool/share-000");
        std::fs::create_dir_all(&share).unwrap();
        std::fs::copy(
            eras("v0.114.3/r1/rig/mint/report.json"),
            slot.join("report.json"),
        )
        .unwrap();
        std::fs::copy(
            eras("v0.114.3/r1/rig/mint/compile-pool/share-000/report.json"),
            share.join("report.json"),
        )
        .unwrap();
        let entry = |key: &str| ArtifactState::Gathered {
            named: format!("rig/mint/{key}.tar.gz"),
            file: format!("{key}.tar.gz"),
            size: 700_000,
            sha256: "ab".into(),
            digest_matches: Some(true),
            key: Some(key.into()),
            cubins: Some(0),
        };
        let record = MintRecord {
            cell: "rig-aot".into(),
            gpu: "H200".into(),
            stand_in: None,
            recipe: Recipe::Aot,
            repeat,
            attempt: 1,
            status: MintStatus::Minted,
            reason: "the report says `minted`".into(),
            wall_s: Some(134.0),
            exit_code: Some(1),
            replay: false,
            attempts_wall_s: vec![134.0],
            bundle: None,
            job_s: None,
            stderr_tail: String::new(),
            started_at: None,
            environment: lane_core::EnvFingerprint::default(),
            gathering: lane_core::Gathering {
                entries: vec![
                    entry("cg-key-v1-a"),
                    entry("cg-key-v1-b"),
                    entry("cg-key-v1-c"),
                ],
                isolation: Some(Isolation {
                    tmp: TmpIsolation::Private {
                        how: "mount namespace (unshare --mount)".into(),
                    },
                    roots: vec!["TMPDIR".into(), "HOME".into()],
                    shared: Vec::new(),
                    outside: Vec::new(),
                    not_empty_at_start: None,
                }),
                ..lane_core::Gathering::default()
            },
        };
        std::fs::write(slot.join("mint.json"), record.to_json()).unwrap();
    }

    #[test]
    fn a_slot_is_read_with_its_ledger_files_and_its_records_findings_and_says_why_not_diffed() {
        let d = tempfile::tempdir().unwrap();
        slot(d.path(), 1);
        let all = cells(d.path(), Diffs::Make).unwrap();
        let c = &all[0];
        let b = &c.repeats[0].breakdown;
        // The share report beside it gives the class rows pgw#1356 leaves out.
        assert_eq!(b.entries.len(), 3);
        assert_eq!(
            b.aot
                .as_ref()
                .unwrap()
                .missing_rows
                .as_ref()
                .unwrap()
                .from_shares,
            3
        );
        let kinds: Vec<FindingKind> = b.findings.iter().map(|f| f.kind).collect();
        for k in [
            FindingKind::CommandFailedAfterMinted,
            FindingKind::NoGpuCode,
            FindingKind::UpstreamTableDefect,
        ] {
            assert!(kinds.contains(&k), "{k:?} in {kinds:?}");
        }
        assert_eq!(c.determinism, None);
        assert_eq!(
            c.not_diffed.as_deref(),
            Some("1 repeat(s) only: the determinism diff pairs r1 with r2")
        );
        // Two repeats whose artifacts folders are empty: each says why.
        slot(d.path(), 2);
        let all = cells(d.path(), Diffs::Make).unwrap();
        assert_eq!(
            all[0].not_diffed.as_deref(),
            Some("r1 gathered no cell (minted); r2 gathered no cell (minted)")
        );
    }
}
