//! `lane history`: the memory across lanes. Every mint (`lane mint`,
//! `lane report`, or `lane history add RESULTS` for a recorded results
//! folder) adds its run to the lane's store ([`store`]: one object per run,
//! append-only, bounded); `lane history check` judges a run against the
//! earlier runs of its release line with `lane_history::judge_lane`; `lane
//! history ack` records a known change; `lane history <cell>` and `lane
//! history regressions` answer at a terminal; `lane history export` writes
//! JSON Lines or Bencher's metric format. See `docs/history.md`.
//!
//! The IO edge of `lane-history` (pure): this module reads results folders
//! ([`rows`]) and the store; the method is lane-history's, the words and
//! charts lane-render's.

pub mod rows;
pub mod store;

mod query;

use std::path::PathBuf;

use lane_history::{judge_lane, Ack, AckScope, LaneJudgement, Policy, Row, SeriesKey, Shift};
use serde::Serialize;

pub use query::{
    history_export, history_regressions, history_show, ExportFormat, HistoryExportOutcome,
    HistoryExportRequest, HistoryRegressionsOutcome, HistoryRegressionsRequest, HistoryShowOutcome,
    HistoryShowRequest, RunRegressions, SeriesHistory, Since,
};
pub use rows::{line_of, read_run, RecordedRun};
pub use store::{Appended, HistoryStore, RETAIN_RUNS};

use crate::error::AppError;

/// The most earlier runs a report draws (the verdict's `max_history`).
pub const CHART_RUNS: usize = 20;

/// What `lane history add` is asked.
#[derive(Debug, Clone)]
pub struct HistoryAddRequest {
    /// A results folder (`lane mint` wrote it, or a recorded one).
    pub results: PathBuf,
    /// The store the history lives in (a folder, or `s3://bucket/prefix`).
    pub history: String,
}

/// The run a command worked on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunRef {
    /// Its id.
    pub run: String,
    /// When it minted.
    pub time: String,
    /// The lane version minted.
    pub lane: String,
    /// Its release line.
    pub line: String,
}

impl From<&RecordedRun> for RunRef {
    fn from(r: &RecordedRun) -> Self {
        RunRef {
            run: r.id.clone(),
            time: r.time.to_string(),
            lane: r.lane.clone(),
            line: r.line.clone(),
        }
    }
}

/// What `lane history add` did.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryAddOutcome {
    /// The run added.
    #[serde(flatten)]
    pub run: RunRef,
    /// Its rows.
    pub rows: usize,
    /// The store, without secrets.
    pub store: String,
    /// Its object, and what retention removed.
    #[serde(flatten)]
    pub appended: Appended,
    /// Repeats kept out because they are not cold, each with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
}

/// `lane history add`: one results folder's run into the history.
pub fn history_add(request: &HistoryAddRequest) -> Result<HistoryAddOutcome, AppError> {
    let store = crate::lane::open_store(&request.history)?;
    let history = HistoryStore::named(store.as_ref(), &request.history);
    let run = history.identify(read_run(&request.results, None)?)?;
    let appended = history.append(&run.line, &run.id, &run.rows)?;
    tracing::info!(run = %run.id, rows = run.rows.len(), key = %appended.key, "run added to history");
    Ok(HistoryAddOutcome {
        run: RunRef::from(&run),
        rows: run.rows.len(),
        store: history.location(),
        appended,
        left_out: run.left_out,
    })
}

/// The rows of `line` minted before `run` (by time, then id), and `run`'s
/// own acks with the rest of the line's.
fn before<'r>(rows: &'r [Row], lane: &[Row]) -> Vec<&'r Row> {
    let Some(first) = lane.first() else {
        return Vec::new();
    };
    rows.iter()
        .filter(|r| r.run != first.run && (r.time, &r.run) < (first.time, &first.run))
        .collect()
}

/// The method's policy for the rows lane keeps: `Policy::default()`,
/// its CPU-bound phases named as [`rows::breakdown_rows`] names them
/// (`phase/trace_graph`, `partition/lowering_s`, `aot/export_s`), so two
/// GPU classes corroborate a compile phase at once.
pub fn policy() -> Policy {
    let mut p = Policy::default();
    p.cpu_bound = p
        .cpu_bound
        .iter()
        .flat_map(|name| ["phase", "partition", "aot"].map(|group| format!("{group}/{name}")))
        .collect();
    p
}

/// `lane`'s rows judged against the runs of `rows` before it, with `acks`.
pub fn judge_run(rows: &[Row], lane: &[Row], acks: &[Ack]) -> LaneJudgement {
    let history: Vec<Row> = before(rows, lane).into_iter().cloned().collect();
    judge_lane(&history, lane, acks, &policy())
}

/// What `lane history check` is asked.
#[derive(Debug, Clone)]
pub struct HistoryCheckRequest {
    /// The results folder whose run is judged (added or not).
    pub results: PathBuf,
    /// The store the history lives in.
    pub history: String,
}

/// What `lane history check` found.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryCheckOutcome {
    /// The run judged.
    #[serde(flatten)]
    pub run: RunRef,
    /// Earlier runs of the line considered.
    pub history_runs: usize,
    /// The lane's series moved together (an environment shift).
    pub environment_shift: bool,
    /// The shift's numbers, when there was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shift: Option<Shift>,
    /// What was taken out of every estimate: the common move where every
    /// cell moved together (declared a shift or not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub common_move: Option<Shift>,
    /// What differs from the newest history run's fingerprint, each with
    /// its role (environment, under test, placement).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<lane_history::FieldChange>,
    /// Series not judged, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unjudged: Option<lane_history::Unjudged>,
    /// Every series' verdict with its numbers (the ledger's phases,
    /// residuals and overlays: what regressed is said here).
    pub series: Vec<lane_history::SeriesVerdict>,
    /// The totals' verdicts, each with the series that explain its move.
    pub totals: Vec<lane_history::SeriesVerdict>,
    /// Damaged run objects of the line, left out of the judgement (each
    /// key and what is wrong); `lane history add` of the same results
    /// sets one aside and writes it anew.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub damaged: Vec<String>,
}

impl HistoryCheckOutcome {
    /// A regression confirmed (by the other GPU class or the next lane)
    /// is a finding (exit 7), as it fails the check run: a series', or a
    /// total's that no series explains (a mint slower by a little in every
    /// phase).
    pub fn verdict(&self) -> Result<(), AppError> {
        let confirmed: Vec<String> = self
            .series
            .iter()
            .chain(self.totals.iter().filter(|t| t.explained_by.is_empty()))
            .filter(|s| s.verdict == lane_history::Verdict::Regressed && s.confirmed)
            .map(|s| s.key.to_string())
            .collect();
        if confirmed.is_empty() {
            return Ok(());
        }
        Err(AppError::Regressed {
            run: self.run.run.clone(),
            series: confirmed,
        })
    }
}

/// `lane history check`: a results folder's run against its line's history.
pub fn history_check(request: &HistoryCheckRequest) -> Result<HistoryCheckOutcome, AppError> {
    let store = crate::lane::open_store(&request.history)?;
    let history = HistoryStore::named(store.as_ref(), &request.history);
    let run = history.identify(read_run(&request.results, None)?)?;
    let (rows, damaged) = history.rows_and_damaged(&run.line)?;
    let judgement = judge_run(&rows, &run.rows, &history.acks(&run.line)?);
    Ok(HistoryCheckOutcome {
        run: RunRef::from(&run),
        history_runs: judgement.history_runs,
        environment_shift: judgement.environment_shift.is_some(),
        shift: judgement.environment_shift,
        common_move: judgement.common_move,
        changes: judgement.changes,
        unjudged: judgement.unjudged,
        series: judgement.series,
        totals: judgement.totals,
        damaged,
    })
}

/// What `lane history ack` is asked: a known change at a run, for one
/// series (cell, GPU class and phase all given) or for all.
#[derive(Debug, Clone)]
pub struct HistoryAckRequest {
    /// The store the history lives in.
    pub history: String,
    /// The run that brought the change (`--run`), or
    pub run: Option<String>,
    /// the results folder whose run it is (`--results`).
    pub results: Option<PathBuf>,
    /// The series' cell.
    pub cell: Option<String>,
    /// The series' GPU class.
    pub gpu: Option<String>,
    /// The series' phase.
    pub phase: Option<String>,
    /// Why, in the words of whoever acknowledges it.
    pub reason: String,
}

/// What `lane history ack` recorded.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryAckOutcome {
    /// The line it belongs to.
    pub line: String,
    /// The acknowledgement.
    pub ack: Ack,
    /// Its object.
    #[serde(flatten)]
    pub appended: Appended,
}

/// `lane history ack`: records a known change with its reason, in the
/// store, as an object of its own. The run must be in the history.
pub fn history_ack(request: &HistoryAckRequest) -> Result<HistoryAckOutcome, AppError> {
    if request.reason.trim().is_empty() {
        return Err(AppError::Usage("--reason must say why".into()));
    }
    let scope = match (&request.cell, &request.gpu, &request.phase) {
        (None, None, None) => AckScope::All,
        (Some(cell), Some(gpu), Some(phase)) => AckScope::Series(SeriesKey {
            cell: cell.clone(),
            gpu: gpu.clone(),
            phase: phase.clone(),
        }),
        _ => {
            return Err(AppError::Usage(
                "an acknowledgement is for one series (--cell, --gpu and --phase) or for all (none of them)".into(),
            ))
        }
    };
    let store = crate::lane::open_store(&request.history)?;
    let history = HistoryStore::named(store.as_ref(), &request.history);
    let run = match (&request.run, &request.results) {
        (Some(r), None) => r.clone(),
        (None, Some(dir)) => history.identify(read_run(dir, None)?)?.id,
        _ => {
            return Err(AppError::Usage(
                "give the run: --run RUN or --results DIR".into(),
            ))
        }
    };
    let line = history
        .lines()?
        .into_iter()
        .find(|l| history.runs(l).is_ok_and(|runs| runs.contains(&run)))
        .ok_or_else(|| {
            AppError::Precondition(format!(
                "run `{run}` is not in the history at {} (add it first: lane history add RESULTS)",
                history.location()
            ))
        })?;
    let ack = Ack {
        run,
        scope,
        reason: request.reason.trim().to_owned(),
    };
    let appended = history.acknowledge(&line, &ack)?;
    Ok(HistoryAckOutcome {
        line,
        ack,
        appended,
    })
}

/// Adds a lane's run to the history and judges it, for its report: the
/// report shows the judgement, with the rows of the run and of at most
/// [`CHART_RUNS`] runs of its line before it for the charts.
pub(crate) fn record_and_judge(
    history: &HistoryStore<'_>,
    run: &RecordedRun,
    results: &std::path::Path,
) -> Result<(Appended, lane_render::LaneHistory), AppError> {
    let identified = history.identify(run.clone())?;
    let run = &identified;
    let appended = history.append(&run.line, &run.id, &run.rows)?;
    let rows = history.rows(&run.line)?;
    let acks = history.acks(&run.line)?;
    let judgement = judge_run(&rows, &run.rows, &acks);
    let earlier = before(&rows, &run.rows);
    let mut ids: Vec<&str> = Vec::new();
    for r in &earlier {
        if ids.last() != Some(&r.run.as_str()) && !ids.contains(&r.run.as_str()) {
            ids.push(&r.run);
        }
    }
    let keep: Vec<&str> = ids[ids.len().saturating_sub(CHART_RUNS)..].to_vec();
    let mut drawn: Vec<Row> = earlier
        .into_iter()
        .filter(|r| keep.contains(&r.run.as_str()))
        .cloned()
        .collect();
    drawn.sort_by(|a, b| (a.time, &a.run).cmp(&(b.time, &b.run)));
    drawn.extend(run.rows.iter().cloned());
    Ok((
        appended,
        lane_render::LaneHistory {
            run: run.id.clone(),
            store: history.location(),
            results: Some(results.display().to_string()),
            judgement,
            rows: drawn,
        },
    ))
}
