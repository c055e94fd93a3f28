//! `lane replay-mint`: a mint command that replays a real mint lane
//! recorded (the gen-worker 0.93.3 mints of `tests/data/gw-0.93.3-h200/`)
//! instead of compiling: it writes the recorded report where the cell's
//! report goes and the recorded cell where that report's `artifact` says,
//! byte for byte, so the agent reads, checks and gathers them as it does a
//! real mint child's. Every output of a lane that used it says "replay"
//! (its cells set `LANE_REPLAY=1`). It lets the demo run the whole pipeline
//! with no GPU.

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
    let bytes = std::fs::read(&recorded_report).map_err(|e| AppError::io(&recorded_report, e))?;
    // The cell goes where the recorded report says the child packed it.
    let named = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
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
