//! `lane replay-mint`: a mint command that replays a real mint lane
//! recorded (the gen-worker mints of `tests/data/`, every era) instead of
//! compiling: it writes the recorded report where the cell's report goes
//! and the recorded cells where a real mint leaves them, byte for byte, so
//! the agent reads, checks and gathers them as it does a real mint's:
//! - 0.93-0.113: the cell where the report's `artifact` says;
//! - 0.114-0.126: each `entries` file under `replayed/` in the mint folder
//!   (the report's paths, the recording machine's, are made this
//!   attempt's: the only bytes of the report that change), and the compile
//!   pool's share reports beside the report;
//! - 0.127 on (a `gen-worker compile` verdict): each built graph's package
//!   under `$HOME/.cache/cozy/compiled-graphs/<graph[:16]>/model.pt2`, and
//!   the TORCH_TRACE logs into `$TORCH_TRACE`.
//!
//! Every output of a lane that used it says "replay" (its cells set
//! `LANE_REPLAY=1`). It lets the demo run the whole pipeline with no GPU.

use lane_core::layout::file;
use std::path::{Path, PathBuf};

use crate::error::AppError;

/// What `lane replay-mint` is asked.
#[derive(Debug, Clone)]
pub struct ReplayRequest {
    /// The recorded slot folder of one cell on one GPU (`<results>/<cell>/<gpu>`):
    /// repeat N replays its `r<N>` (cycling when there are fewer).
    pub recorded: PathBuf,
    /// Time to take, standing in for the compile.
    pub seconds: f64,
    /// Where the report goes (`$LANE_REPORT_PATH`, set by `lane agent`).
    pub report_path: Option<PathBuf>,
    /// The repeat replayed (`$LANE_REPEAT`), from 1.
    pub repeat: usize,
    /// The attempt's home (`$HOME`): where `gen-worker compile` leaves its
    /// compiled graphs.
    pub home: Option<PathBuf>,
    /// The attempt's TORCH_TRACE folder (`$TORCH_TRACE`).
    pub trace_dir: Option<PathBuf>,
}

fn usage(e: impl std::fmt::Display) -> AppError {
    AppError::Usage(e.to_string())
}

/// The recorded repeats of a slot folder: `r1`, `r2`, ... in order.
fn repeats(dir: &Path) -> Result<Vec<PathBuf>, AppError> {
    let mut out: Vec<(u32, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| usage(format!("--recorded {}: {e}", dir.display())))?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let n = e.file_name().to_str()?.strip_prefix('r')?.parse().ok()?;
            e.path().join(file::REPORT).is_file().then(|| (n, e.path()))
        })
        .collect();
    out.sort();
    if out.is_empty() {
        return Err(usage(format!(
            "--recorded {}: no recorded repeat (r<N>/report.json) in it",
            dir.display()
        )));
    }
    Ok(out.into_iter().map(|(_, p)| p).collect())
}

/// `lane replay-mint`: writes the recorded report (and cell) of the
/// request's repeat where a real mint would.
pub fn replay(request: &ReplayRequest) -> Result<(), AppError> {
    let report_path = request
        .report_path
        .as_deref()
        .ok_or_else(|| usage("LANE_REPORT_PATH is not set: run me under `lane agent`"))?;
    let repeat = request.repeat;
    let recorded = repeats(&request.recorded)?;
    let slot = &recorded[(repeat.max(1) - 1) % recorded.len()];
    std::thread::sleep(std::time::Duration::from_secs_f64(
        request.seconds.clamp(0.0, 3600.0),
    ));
    let recorded_report = slot.join(file::REPORT);
    let mut bytes =
        std::fs::read(&recorded_report).map_err(|e| AppError::io(&recorded_report, e))?;
    let value = serde_json::from_slice::<serde_json::Value>(&bytes).ok();
    if let Some(mut v) = value.clone() {
        if replay_entries(slot, &mut v, report_path)? {
            bytes = serde_json::to_vec_pretty(&v).map_err(AppError::Json)?;
        }
        replay_verdict(slot, &v, request)?;
    }
    // The cell goes where the recorded report says the child packed it.
    let named = value
        .and_then(|v| v.get("artifact")?.as_str().map(str::to_owned))
        .filter(|a| !a.is_empty());
    if let Some(named) = named {
        let file = Path::new(&named)
            .file_name()
            .ok_or_else(|| usage(format!("the recorded artifact `{named}` has no file name")))?;
        let from = slot.join(file::ARTIFACTS).join(file);
        let to = Path::new(&named);
        if to.is_absolute() || named.split('/').any(|c| c == "..") {
            return Err(usage(format!(
                "the recorded artifact `{named}` is not a path inside the mint folder"
            )));
        }
        if let Some(parent) = to.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| AppError::io(parent, e))?;
        }
        std::fs::copy(&from, to).map_err(|e| AppError::io(&from, e))?;
    }
    if let Some(parent) = report_path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| AppError::io(parent, e))?;
    }
    std::fs::write(report_path, &bytes).map_err(|e| AppError::io(report_path, e))
}

/// The last component of a recorded path, refused when it is not a plain
/// file name (nothing recorded may write outside its folder).
fn file_name_of(recorded: &str) -> Result<&str, AppError> {
    let name = recorded.rsplit('/').next().unwrap_or_default();
    if name.is_empty() || name == "." || name == ".." || name.contains('\\') {
        return Err(usage(format!(
            "the recorded path `{recorded}` names no file"
        )));
    }
    Ok(name)
}

fn copy(from: &Path, to: &Path) -> Result<(), AppError> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| AppError::io(parent, e))?;
    }
    std::fs::copy(from, to)
        .map(drop)
        .map_err(|e| AppError::io(from, e))
}

/// gen-worker 0.114-0.126: each `entries` file (`[key, path, sha256]`)
/// under `replayed/` in the mint folder, its path in the report made that
/// file's; the pool's share reports beside the report. True when the
/// report was changed.
fn replay_entries(
    slot: &Path,
    v: &mut serde_json::Value,
    report_path: &Path,
) -> Result<bool, AppError> {
    let Some(entries) = v.get_mut("entries").and_then(|e| e.as_array_mut()) else {
        return Ok(false);
    };
    if entries.is_empty() {
        return Ok(false);
    }
    let here = std::env::current_dir().map_err(|e| AppError::io(Path::new("."), e))?;
    for e in entries.iter_mut() {
        let Some(recorded) = e.get(1).and_then(|p| p.as_str()).map(str::to_owned) else {
            continue;
        };
        let name = file_name_of(&recorded)?;
        let to = here.join("replayed").join(name);
        copy(&slot.join(file::ARTIFACTS).join(name), &to)?;
        e[1] = serde_json::Value::String(to.to_string_lossy().into_owned());
    }
    let shares = slot.join(file::LEDGER).join("compile-pool");
    if let (Ok(dir), Some(beside)) = (std::fs::read_dir(&shares), report_path.parent()) {
        for share in dir.flatten() {
            let from = share.path().join(file::REPORT);
            if from.is_file() {
                copy(
                    &from,
                    &beside
                        .join("compile-pool")
                        .join(share.file_name())
                        .join(file::REPORT),
                )?;
            }
        }
    }
    Ok(true)
}

/// gen-worker 0.127 on: each built graph's package where `gen-worker
/// compile` leaves it under the home, and the TORCH_TRACE logs.
fn replay_verdict(
    slot: &Path,
    v: &serde_json::Value,
    request: &ReplayRequest,
) -> Result<(), AppError> {
    let Some(specs) = v.get("specializations").and_then(|s| s.as_array()) else {
        return Ok(());
    };
    let home = request
        .home
        .as_deref()
        .ok_or_else(|| usage("HOME is not set: run me under `lane agent`"))?;
    for s in specs {
        let built = s.get("state").and_then(|x| x.as_str()) == Some("built");
        let Some(graph) = s.get("graph").and_then(|g| g.as_str()).filter(|_| built) else {
            continue;
        };
        let name = file_name_of(graph)?;
        let short: String = name.chars().take(16).collect();
        copy(
            &slot.join(file::ARTIFACTS).join(format!("{name}.pt2")),
            &home
                .join(".cache/cozy/compiled-graphs")
                .join(short)
                .join("model.pt2"),
        )?;
    }
    let traces = slot.join(file::LEDGER).join("trace");
    if let (Ok(dir), Some(to)) = (std::fs::read_dir(&traces), request.trace_dir.as_deref()) {
        for log in dir.flatten() {
            copy(&log.path(), &to.join(log.file_name()))?;
        }
    }
    Ok(())
}
