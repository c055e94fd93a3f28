//! The questions `lane history` answers from the store: one cell's series
//! over the runs (`lane history <cell>`), what regressed since a version or
//! a date (`lane history regressions --since v0.90`), and the rows as JSON
//! Lines or Bencher's metric format (`lane history export`).

use std::collections::BTreeMap;

use lane_history::{
    to_bmf, write_rows, Fingerprint, Row, RunTime, SeriesKey, SeriesVerdict, Shift, Verdict,
};
use serde::Serialize;

use super::{judge_run, HistoryStore, RunRef};
use crate::error::AppError;

/// From when a question looks: a lane version (`v0.90`, `0.93.2`: runs of
/// that version or later) or a time (`2026-12-01`, RFC 3339).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Since {
    /// Runs of lane versions at or above these numbers.
    Version(Vec<u64>),
    /// Runs minted at or after this time.
    Time(jiff::Timestamp),
}

impl Since {
    /// Reads `--since`: a version (a leading `v` allowed) or a date or time.
    pub fn parse(text: &str) -> Result<Since, AppError> {
        let version = text.strip_prefix('v').unwrap_or(text);
        let numbers: Option<Vec<u64>> = version.split('.').map(|p| p.parse().ok()).collect();
        if let Some(n) = numbers.filter(|n| !n.is_empty() && n.len() <= 3 && !version.contains('-'))
        {
            return Ok(Since::Version(n));
        }
        if let Ok(t) = text.parse::<jiff::Timestamp>() {
            return Ok(Since::Time(t));
        }
        if let Ok(d) = text.parse::<jiff::civil::Date>() {
            if let Ok(t) = d.to_zoned(jiff::tz::TimeZone::UTC) {
                return Ok(Since::Time(t.timestamp()));
            }
        }
        Err(AppError::Usage(format!(
            "--since {text}: expected a lane version (v0.90, 0.93.2) or a date (2026-12-01) or RFC 3339 time"
        )))
    }

    fn admits(&self, lane: &str, time: RunTime) -> bool {
        match self {
            Since::Version(min) => {
                let v: Vec<u64> = lane.split('.').map(|p| p.parse().unwrap_or(0)).collect();
                v >= *min
            }
            Since::Time(t) => time.unix_nanos() >= t.as_nanosecond(),
        }
    }
}

/// The lines asked about: one, or every line in the store.
fn lines(history: &HistoryStore<'_>, line: Option<&str>) -> Result<Vec<String>, AppError> {
    Ok(match line {
        Some(l) => vec![l.to_owned()],
        None => history.lines()?,
    })
}

/// The runs of `rows`, oldest first, each with its rows.
fn by_run(rows: &[Row]) -> Vec<(RunRef, Vec<Row>)> {
    let mut runs: BTreeMap<(RunTime, String), Vec<Row>> = BTreeMap::new();
    for r in rows {
        runs.entry((r.time, r.run.clone()))
            .or_default()
            .push(r.clone());
    }
    runs.into_values()
        .map(|rows| {
            let r = &rows[0];
            let run = RunRef {
                run: r.run.clone(),
                time: r.time.to_string(),
                lane: r.lane.clone(),
                line: r.line.clone(),
            };
            (run, rows)
        })
        .collect()
}

/// What `lane history <cell>` is asked.
#[derive(Debug, Clone)]
pub struct HistoryShowRequest {
    /// The store the history lives in.
    pub history: String,
    /// The cell.
    pub cell: String,
    /// Only this GPU class.
    pub gpu: Option<String>,
    /// Only phases whose name is this or ends with `/<this>`.
    pub phase: Option<String>,
    /// Only runs since.
    pub since: Option<Since>,
    /// Only this release line.
    pub line: Option<String>,
}

/// One run of a series.
#[derive(Debug, Clone, Serialize)]
pub struct SeriesPoint {
    /// The run.
    #[serde(flatten)]
    pub run: RunRef,
    /// The median of its cold repeats, seconds (absent: none measured).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// Each cold repeat's seconds, by repeat (absent ones left out).
    pub repeats: Vec<f64>,
    /// Environment fields that changed since the run before (`torch 2.11 → 2.12`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub environment_changed: Vec<String>,
}

/// One series over the runs, with the newest run's verdict.
#[derive(Debug, Clone, Serialize)]
pub struct SeriesHistory {
    /// The series.
    #[serde(flatten)]
    pub key: SeriesKey,
    /// Its release line.
    pub line: String,
    /// Its runs, oldest first.
    pub points: Vec<SeriesPoint>,
    /// The newest run's verdict against the runs before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest: Option<SeriesVerdict>,
}

/// What `lane history <cell>` found.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryShowOutcome {
    /// The store, without secrets.
    pub store: String,
    /// Every series of the cell asked for.
    pub series: Vec<SeriesHistory>,
}

fn phase_matches(phase: &str, want: Option<&str>) -> bool {
    want.is_none_or(|w| phase == w || phase.ends_with(&format!("/{w}")))
}

fn changes(before: &Fingerprint, after: &Fingerprint) -> Vec<String> {
    before
        .changes(after)
        .into_iter()
        .map(|(f, a, b)| format!("{f} {a} → {b}"))
        .collect()
}

/// `lane history <cell>`: the cell's series over the retained runs.
pub fn history_show(request: &HistoryShowRequest) -> Result<HistoryShowOutcome, AppError> {
    let store = crate::lane::open_store(&request.history)?;
    let history = HistoryStore::named(store.as_ref(), &request.history);
    let mut series = Vec::new();
    for line in lines(&history, request.line.as_deref())? {
        let rows = history.rows(&line)?;
        let acks = history.acks(&line)?;
        let runs: Vec<(RunRef, Vec<Row>)> = by_run(&rows)
            .into_iter()
            .filter(|(_, rs)| {
                let r = &rs[0];
                request
                    .since
                    .as_ref()
                    .is_none_or(|s| s.admits(&r.lane, r.time))
            })
            .collect();
        let Some((_, newest)) = runs.last() else {
            continue;
        };
        let latest = judge_run(&rows, newest, &acks);
        let mut keys: BTreeMap<SeriesKey, ()> = BTreeMap::new();
        for r in runs.iter().flat_map(|(_, rs)| rs) {
            if r.cell == request.cell
                && request.gpu.as_deref().is_none_or(|g| r.gpu == g)
                && phase_matches(&r.phase, request.phase.as_deref())
            {
                keys.insert(r.key(), ());
            }
        }
        for key in keys.into_keys() {
            let mut points = Vec::new();
            let mut last_fp: Option<&Fingerprint> = None;
            for (run, rs) in &runs {
                let mine: Vec<&Row> = rs.iter().filter(|r| r.key() == key).collect();
                let Some(first) = mine.first() else {
                    continue;
                };
                let mut repeats: Vec<(u32, f64)> = mine
                    .iter()
                    .filter_map(|r| Some((r.repeat, r.seconds?)))
                    .collect();
                repeats.sort_by_key(|(n, _)| *n);
                let values: Vec<f64> = repeats.into_iter().map(|(_, s)| s).collect();
                points.push(SeriesPoint {
                    run: run.clone(),
                    seconds: lane_history::stats::median(&values),
                    repeats: values,
                    environment_changed: last_fp
                        .map(|b| changes(b, &first.fingerprint))
                        .unwrap_or_default(),
                });
                last_fp = Some(&first.fingerprint);
            }
            let verdict = latest.all().find(|s| s.key == key).cloned();
            series.push(SeriesHistory {
                key,
                line: line.clone(),
                points,
                latest: verdict,
            });
        }
    }
    if series.is_empty() {
        return Err(AppError::Precondition(format!(
            "no history of cell `{}`{} at {} (add runs: lane history add RESULTS)",
            request.cell,
            request
                .gpu
                .as_deref()
                .map(|g| format!(" on {g}"))
                .unwrap_or_default(),
            history.location()
        )));
    }
    Ok(HistoryShowOutcome {
        store: history.location(),
        series,
    })
}

/// What `lane history regressions` is asked.
#[derive(Debug, Clone)]
pub struct HistoryRegressionsRequest {
    /// The store the history lives in.
    pub history: String,
    /// Only runs since.
    pub since: Option<Since>,
    /// Only this release line.
    pub line: Option<String>,
}

/// One run's regressions against the runs before it.
#[derive(Debug, Clone, Serialize)]
pub struct RunRegressions {
    /// The run.
    #[serde(flatten)]
    pub run: RunRef,
    /// Its series moved together.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub environment_shift: Option<Shift>,
    /// Series it regressed (confirmed or not), with their numbers.
    pub regressed: Vec<SeriesVerdict>,
    /// Series where E-Divisive places a step at this run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<SeriesKey>,
}

/// What `lane history regressions` found: every run since, oldest first.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryRegressionsOutcome {
    /// The store, without secrets.
    pub store: String,
    /// Runs judged (each against the runs of its line before it).
    pub runs_judged: usize,
    /// The runs that regressed a series or started a step.
    pub runs: Vec<RunRegressions>,
}

/// `lane history regressions`: each retained run since `since`, judged
/// against the runs of its line before it; the runs that regressed a
/// series, and the steps E-Divisive places, with the run that began each.
pub fn history_regressions(
    request: &HistoryRegressionsRequest,
) -> Result<HistoryRegressionsOutcome, AppError> {
    let store = crate::lane::open_store(&request.history)?;
    let history = HistoryStore::named(store.as_ref(), &request.history);
    let mut out = Vec::new();
    let mut judged = 0;
    for line in lines(&history, request.line.as_deref())? {
        let rows = history.rows(&line)?;
        let acks = history.acks(&line)?;
        let runs = by_run(&rows);
        let mut steps: BTreeMap<String, Vec<SeriesKey>> = BTreeMap::new();
        let mut found = Vec::new();
        for (run, lane) in &runs {
            let r = &lane[0];
            if !request
                .since
                .as_ref()
                .is_none_or(|s| s.admits(&r.lane, r.time))
            {
                continue;
            }
            judged += 1;
            let j = judge_run(&rows, lane, &acks);
            for s in j.all() {
                for at in &s.change_points {
                    let keys = steps.entry(at.clone()).or_default();
                    if !keys.contains(&s.key) {
                        keys.push(s.key.clone());
                    }
                }
            }
            let regressed: Vec<SeriesVerdict> = j.with(Verdict::Regressed).cloned().collect();
            found.push(RunRegressions {
                run: run.clone(),
                environment_shift: j.environment_shift,
                regressed,
                steps: Vec::new(),
            });
        }
        for f in &mut found {
            f.steps = steps.remove(&f.run.run).unwrap_or_default();
        }
        out.extend(
            found
                .into_iter()
                .filter(|f| !f.regressed.is_empty() || !f.steps.is_empty()),
        );
    }
    Ok(HistoryRegressionsOutcome {
        store: history.location(),
        runs_judged: judged,
        runs: out,
    })
}

/// What `lane history export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// Every row, one JSON object a line.
    Jsonl,
    /// Bencher's metric format, of one run.
    Bmf,
}

/// What `lane history export` is asked.
#[derive(Debug, Clone)]
pub struct HistoryExportRequest {
    /// The store the history lives in.
    pub history: String,
    /// Only this release line.
    pub line: Option<String>,
    /// The format.
    pub format: ExportFormat,
    /// The run (BMF: default the newest; JSON Lines: default every run).
    pub run: Option<String>,
}

/// What `lane history export` wrote.
#[derive(Debug, Clone)]
pub struct HistoryExportOutcome {
    /// The document (JSON Lines, or one BMF JSON document).
    pub text: String,
    /// The rows it holds.
    pub rows: usize,
}

/// `lane history export`: the rows as JSON Lines, or one run in Bencher's
/// metric format.
pub fn history_export(request: &HistoryExportRequest) -> Result<HistoryExportOutcome, AppError> {
    let store = crate::lane::open_store(&request.history)?;
    let history = HistoryStore::named(store.as_ref(), &request.history);
    let mut rows = Vec::new();
    for line in lines(&history, request.line.as_deref())? {
        rows.extend(history.rows(&line)?);
    }
    if let Some(run) = &request.run {
        rows.retain(|r| &r.run == run);
        if rows.is_empty() {
            return Err(AppError::Precondition(format!(
                "run `{run}` is not in the history at {}",
                history.location()
            )));
        }
    }
    match request.format {
        ExportFormat::Jsonl => Ok(HistoryExportOutcome {
            text: write_rows(&rows),
            rows: rows.len(),
        }),
        ExportFormat::Bmf => {
            let newest = by_run(&rows).pop().map(|(r, _)| r.run).ok_or_else(|| {
                AppError::Precondition(format!("no runs in the history at {}", history.location()))
            })?;
            let run = request.run.clone().unwrap_or(newest);
            let bmf = to_bmf(&rows, &run);
            let mut text = serde_json::to_string_pretty(&bmf).map_err(AppError::Json)?;
            text.push('\n');
            Ok(HistoryExportOutcome {
                text,
                rows: rows.iter().filter(|r| r.run == run).count(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_reads_a_version_or_a_date() {
        assert_eq!(Since::parse("v0.90").unwrap(), Since::Version(vec![0, 90]));
        assert_eq!(
            Since::parse("0.93.2").unwrap(),
            Since::Version(vec![0, 93, 2])
        );
        assert!(matches!(
            Since::parse("2026-12-01").unwrap(),
            Since::Time(_)
        ));
        assert!(matches!(
            Since::parse("2026-12-01T08:00:00Z").unwrap(),
            Since::Time(_)
        ));
        assert!(Since::parse("yesterday").is_err());
        let v = Since::parse("v0.90").unwrap();
        assert!(v.admits("0.93.3", RunTime::Unix(0)));
        assert!(v.admits("0.90.0", RunTime::Unix(0)));
        assert!(!v.admits("0.89.9", RunTime::Unix(0)));
        assert!(!v.admits("0.0.0", RunTime::Unix(0)));
    }
}
