//! What the upstream writes beside a mint report, read for the ledger:
//! the compile pool's share reports (gen-worker 0.114.3-0.126,
//! `compile-pool/share-NNN/report.json` beside the report, or
//! `ledger/compile-pool/...` in a results slot, where the agent keeps them)
//! and the mint's TORCH_TRACE logs (`ledger/trace/*.log` in a slot, or a
//! `trace/` folder beside the report; they survive `gen-worker compile`),
//! and the compiled graphs a 0.127 mint left (`artifacts/*.pt2` in a
//! slot, `compiled-graphs/*/model.pt2` beside a recorded verdict), listed
//! by member path: what ties each child's log to its specialization.

use lane_core::layout::file;
use std::fs::File;
use std::path::{Path, PathBuf};

use lane_ledger::breakdown::GraphPackage;
use lane_ledger::report::ShareReport;
use lane_ledger::{TraceMetrics, TraceOptions};

use crate::error::AppError;

/// The share reports and the TORCH_TRACE logs found beside a report.
#[derive(Debug, Default)]
pub(crate) struct Beside {
    /// The share reports, by share name, in order.
    pub shares: Vec<(String, ShareReport)>,
    /// The logs, merged.
    pub trace: Option<TraceMetrics>,
    /// The compiled graphs' packages, as their member paths.
    pub packages: Vec<GraphPackage>,
}

impl Beside {
    /// The ledger's view of it.
    pub fn view(&self) -> lane_ledger::Beside<'_> {
        lane_ledger::Beside {
            shares: &self.shares,
            trace: self.trace.as_ref(),
            packages: &self.packages,
        }
    }
}

/// Every `share-NNN/report.json` under `pool`, by name (none when the
/// folder does not exist).
fn share_files(pool: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(pool) else {
        return Vec::new();
    };
    let mut out: Vec<(String, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let numbered = name
                .strip_prefix("share-")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            let report = e.path().join(file::REPORT);
            (numbered && report.is_file()).then_some((name, report))
        })
        .collect();
    out.sort();
    out
}

/// Reads what sits beside the report at `report`, each share report at
/// most `max_bytes`. A share report lane cannot read is an error naming
/// it (the caller makes it the mint's unreadable row).
pub(crate) fn read_beside(report: &Path, max_bytes: u64) -> Result<Beside, String> {
    let dir = report.parent().unwrap_or(Path::new("."));
    let mut beside = Beside::default();
    for pool in [dir.join("compile-pool"), dir.join("ledger/compile-pool")] {
        for (name, path) in share_files(&pool) {
            let shown = path.display();
            let bytes = crate::fsx::read_capped(&path, max_bytes)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("{shown}: gone while read"))?;
            let share =
                lane_ledger::parse_share_report(&bytes).map_err(|e| format!("{shown}: {e}"))?;
            beside.shares.push((name, share));
        }
    }
    for traces in [dir.join("ledger/trace"), dir.join("trace")] {
        if traces.is_dir() {
            beside.trace = trace_logs(&traces).map_err(|e| e.to_string())?;
            if beside.trace.is_some() {
                break;
            }
        }
    }
    beside.packages = graph_packages(dir);
    Ok(beside)
}

/// The compiled graphs' packages beside a report: `artifacts/*.pt2` (a
/// results slot) and `compiled-graphs/*/model.pt2` (a recorded verdict),
/// each by the member paths of its zip's central directory (the bytes are
/// not read). One lane cannot list is left out and said in the log: the
/// ledger then names its specialization's compile as untied, never guessed.
fn graph_packages(dir: &Path) -> Vec<GraphPackage> {
    let mut files: Vec<PathBuf> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir.join(file::ARTIFACTS)) {
        files.extend(
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "pt2")),
        );
    }
    if let Ok(entries) = std::fs::read_dir(dir.join("compiled-graphs")) {
        files.extend(
            entries
                .filter_map(|e| e.ok().map(|e| e.path().join("model.pt2")))
                .filter(|p| p.is_file()),
        );
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|path| match zip_members(&path) {
            Ok(members) => Some(GraphPackage {
                source: path
                    .strip_prefix(dir)
                    .unwrap_or(&path)
                    .display()
                    .to_string(),
                members,
            }),
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "a compiled graph lane cannot list");
                None
            }
        })
        .collect()
}

/// The member paths of the zip at `path`, from its central directory.
fn zip_members(path: &Path) -> Result<Vec<String>, String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let zip = zip::ZipArchive::new(file).map_err(|e| e.to_string())?;
    Ok(zip.file_names().map(str::to_owned).collect())
}

/// Every `*.log` of a TORCH_TRACE folder (one per process), merged;
/// `None` when it holds none.
pub(crate) fn trace_logs(dir: &Path) -> Result<Option<TraceMetrics>, AppError> {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| AppError::io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "log"))
        .collect();
    logs.sort();
    let options = TraceOptions::default();
    let mut merged: Option<TraceMetrics> = None;
    for log in &logs {
        let m = read_trace_file(log, &options)?;
        match merged.as_mut() {
            None => merged = Some(m),
            Some(all) => all.merge(m, &options),
        }
    }
    Ok(merged)
}

/// One TORCH_TRACE log, streamed, its rows labelled with its file name.
pub(crate) fn read_trace_file(
    path: &Path,
    options: &TraceOptions,
) -> Result<TraceMetrics, AppError> {
    let file = File::open(path).map_err(|e| AppError::io(path, e))?;
    let reader = lane_ledger::trace::open_trace(file).map_err(|e| AppError::io(path, e))?;
    let mut metrics =
        lane_ledger::parse_trace(reader, options).map_err(|source| AppError::Trace {
            path: path.to_owned(),
            source,
        })?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    metrics.label(&name);
    Ok(metrics)
}

/// `tests/data/gw-eras/<rel>`: the recorded captures of each era.
#[cfg(test)]
pub(crate) fn eras(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/gw-eras")
        .join(rel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_reports_and_the_trace_beside_a_report_are_read() {
        let b = read_beside(&eras("v0.114.3/r1/rig/mint/report.json"), 1 << 26).unwrap();
        assert_eq!(b.shares.len(), 1);
        assert_eq!(b.shares[0].0, "share-000");
        assert_eq!(b.shares[0].1.classes.len(), 3);
        assert!(b.trace.is_none());
        // 0.127: the TORCH_TRACE logs in `trace/` beside the verdict.
        let b = read_beside(&eras("v0.127.2/r1/verdict.json"), 1 << 26).unwrap();
        assert!(b.shares.is_empty());
        assert_eq!(b.trace.unwrap().compiles_total, 3);
        // And the three compiled graphs it left, by their members.
        assert_eq!(b.packages.len(), 3);
        assert!(b.packages[0].source.ends_with("model.pt2"));
        assert!(b.packages[0]
            .members
            .iter()
            .any(|m| m.ends_with(".wrapper.cpp")));
        // 0.100.1 writes neither.
        let b = read_beside(&eras("v0.100.1/r1/rig/mint/report.json"), 1 << 26).unwrap();
        assert!(b.shares.is_empty() && b.trace.is_none() && b.packages.is_empty());
    }

    #[test]
    fn a_share_report_lane_cannot_read_is_named() {
        let d = tempfile::tempdir().unwrap();
        let share = d.path().join("ledger/compile-pool/share-000");
        std::fs::create_dir_all(&share).unwrap();
        std::fs::write(
            share.join("report.json"),
            br#"{"spans": {"compile_wall_s": -3}}"#,
        )
        .unwrap();
        let e = read_beside(&d.path().join("report.json"), 1 << 26).unwrap_err();
        assert!(e.ends_with("share-000/report.json: $.spans.compile_wall_s: negative duration -3 s (only a named residual may be negative)"), "{e}");
    }
}
