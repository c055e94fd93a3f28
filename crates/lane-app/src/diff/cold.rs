//! The evidence of each side's coldness, gathered for `lane diff`
//! (`lane_diff::coldness` judges it): the per-class compile rows of the
//! mint's `report.json`, and the attempt's record (`mint.json`) of how its
//! `/tmp` was its own. Nothing here fails the diff: evidence that cannot
//! be read is absent, and says why.

use std::path::Path;

use lane_core::layout::file;
use lane_core::results::{MintRecord, TmpIsolation};
use lane_diff::coldness::{judge, ClassCompile, ColdEvidence, Coldness, SideCold};
use lane_ledger::report::verdict::SpecState;
use lane_ledger::report::MintLedger;

use crate::report::results::{read_capped, read_contract};

/// Both sides' coldness.
pub(super) fn coldness(a: &Path, b: &Path) -> Coldness {
    Coldness {
        a: side(a),
        b: side(b),
    }
}

fn side(path: &Path) -> SideCold {
    if !path.is_dir() {
        return judge(&ColdEvidence {
            classes: Err(
                "a packed cell carries no record of its compile (diff the mints' folders)".into(),
            ),
            own_tmp: Err("no attempt record".into()),
        });
    }
    judge(&ColdEvidence {
        classes: classes(path),
        own_tmp: own_tmp(path),
    })
}

/// The per-class compile rows of the folder's `report.json`.
fn classes(dir: &Path) -> Result<Vec<ClassCompile>, String> {
    let report = dir.join(file::REPORT);
    let bytes = match read_capped(&report) {
        Ok(Some(b)) => b,
        Ok(None) => return Err("no report.json in the folder".into()),
        Err(e) => return Err(format!("its report.json cannot be read ({e})")),
    };
    let parsed = lane_ledger::parse_report(&bytes)
        .map_err(|e| format!("its report.json cannot be read ({e})"))?;
    match parsed.ledger {
        MintLedger::AotTableV1(t) => Ok(t
            .entries
            .into_iter()
            .map(|e| ClassCompile {
                name: e.name,
                compile_s: e.compile_s,
                reuse_s: e.reuse_s,
                resolved: None,
            })
            .collect()),
        // The dynamo recipe compiles inline in its warm forwards: one row,
        // the compile half dynamo's own spans measured.
        MintLedger::WarmSpansV1(w) => Ok(vec![ClassCompile {
            name: "the warm forwards (warm_compile_s)".into(),
            compile_s: w.totals.warm_compile_s,
            reuse_s: None,
            resolved: None,
        }]),
        // gen-worker 0.127 on: `built` is compiled by this attempt; any
        // other state was resolved (or left to another process).
        MintLedger::CompileVerdict(v) => Ok(v
            .specializations
            .into_iter()
            .map(|s| {
                let state = s.state.as_ref().map(|n| n.as_str().to_owned());
                let built = s.state.as_ref().and_then(|n| n.known()) == Some(SpecState::Built);
                ClassCompile {
                    name: s.graph,
                    compile_s: if built { s.wall_s } else { None },
                    reuse_s: None,
                    resolved: if built {
                        None
                    } else {
                        Some(state.unwrap_or_else(|| "no state".into()))
                    },
                }
            })
            .collect()),
        _ => Err(
            "its report measures no compile (no warm ledger, aot table or `gen-worker compile` verdict)"
                .into(),
        ),
    }
}

/// How the attempt's `/tmp` was its own, from its record.
fn own_tmp(dir: &Path) -> Result<String, String> {
    let record: MintRecord = match read_contract(&dir.join(file::MINT_RECORD)) {
        Ok(Some(r)) => r,
        Ok(None) => {
            return Err(
                "no attempt record (mint.json) says its /tmp was its own: a recording made outside lane".into(),
            )
        }
        Err(e) => return Err(format!("its attempt record cannot be read ({e})")),
    };
    let Some(iso) = record.gathering.isolation else {
        return Err("its attempt record (mint.json) predates lane's record of isolation".into());
    };
    if !iso.outside.is_empty() {
        return Err(format!(
            "the cell shares a cache with other attempts: {}",
            iso.outside.join("; ")
        ));
    }
    // The agent's look at its roots just before the mint started (records
    // from before it looked say nothing; lane made the roots afresh then).
    let at_start = match &iso.not_empty_at_start {
        Some(held) if !held.is_empty() => {
            return Err(format!(
                "its own roots already held something when it started: {}",
                held.join(", ")
            ))
        }
        Some(_) => ", every root of its own empty at its start",
        None => "",
    };
    match iso.tmp {
        TmpIsolation::Private { how } => Ok(format!("a private /tmp: {how}{at_start}")),
        TmpIsolation::Container { why } => Ok(format!("the container's own /tmp: {why}{at_start}")),
        TmpIsolation::Shared { why } => Err(format!("it ran on the machine's /tmp ({why})")),
    }
}
