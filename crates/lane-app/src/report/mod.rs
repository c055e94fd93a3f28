//! `lane report`: render a lane's per-cell phase breakdown from its results
//! folder (`out/lanes/<v>/results`, written by `lane mint`) as markdown,
//! and with `--post` put it on the lane's PRs (one sticky comment each) and
//! a check run on the lane branch's head. `--post --dry-run` writes the
//! exact requests to `out/lanes/<v>/requests/` and sends nothing.
//!
//! This is the IO edge of `lane-render` (pure) and `lane-github`; see
//! `docs/report.md`.

#[cfg(feature = "github")]
mod post;
pub(crate) mod results;

#[cfg(feature = "github")]
pub use post::{post_lane_report, post_results};

/// What posting did: the request files of a dry run, or the comments and
/// the check run sent.
#[derive(Debug, Default, Serialize)]
pub struct Posted {
    /// `--dry-run`: the request files written instead of sent.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<PathBuf>,
    /// The sticky comments, created or updated.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<PostedComment>,
    /// The check run, when there was a head commit to report on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_run: Option<PostedCheckRun>,
}

/// One sticky comment, as posted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PostedComment {
    /// The issue or PR number.
    pub issue: u64,
    /// The comment kept.
    pub comment_id: u64,
    /// Its `html_url`, when GitHub gave one.
    pub html_url: Option<String>,
    /// What was done: `created`, `updated` or `unchanged`.
    pub action: String,
    /// Extra comments of lane's removed (duplicates from a race).
    pub removed: Vec<u64>,
}

/// The check run, as posted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PostedCheckRun {
    /// Its id.
    pub id: u64,
    /// True when it was created, false when updated.
    pub created: bool,
}

/// `--post` in a lane built without the `github` edge: refused, nothing sent.
#[cfg(not(feature = "github"))]
pub fn post_lane_report(
    _loaded: &crate::lane::LoadedLane,
    _results: &LaneResults,
    _body: &str,
    _head_sha: Option<String>,
    _lane_out: &Path,
    _dry_run: bool,
) -> Result<Posted, AppError> {
    Err(no_github())
}

/// `--post` in a lane built without the `github` edge: refused, nothing sent.
#[cfg(not(feature = "github"))]
pub fn post_results(
    _loaded: &crate::lane::LoadedLane,
    _model: &LaneResults,
    _head_sha: Option<String>,
    _lane_out: &Path,
) -> Result<Posted, AppError> {
    Err(no_github())
}

#[cfg(not(feature = "github"))]
fn no_github() -> AppError {
    AppError::Usage(
        "this lane was built without the github edge (cargo feature `github`): it cannot post"
            .into(),
    )
}

use lane_core::layout::{self, file};
use std::path::{Path, PathBuf};

use lane_ledger::NoiseRule;
use lane_render::{conclusion, render_comment, render_html, LaneResults, RenderOptions};
use serde::Serialize;

use crate::error::AppError;

/// What `lane report` is asked.
#[derive(Debug, Clone, Default)]
pub struct ReportRequest {
    /// The lane: a version (`0.93.3`, found as `lanes/0.93.3.yaml`) or a
    /// lane file path.
    pub lane: String,
    /// The results folder (default `out/lanes/<version>/results`).
    pub results: Option<PathBuf>,
    /// The baseline lane's results folder (default
    /// `out/lanes/<baseline>/results`, when the lane names a baseline).
    pub baseline_results: Option<PathBuf>,
    /// Post: a sticky comment on each target PR and a check run.
    pub post: bool,
    /// With `post`: write the exact requests to files, post nothing.
    pub dry_run: bool,
    /// The commit the check run reports on.
    pub head_sha: Option<String>,
    /// Where the markdown goes (default `out/lanes/<version>/report.md`).
    pub out: Option<PathBuf>,
    /// The store the lane's history lives in: the run is added to it and
    /// judged against it (`None`: neither).
    pub history: Option<String>,
    /// Wait for another lane command that holds the lane, or refuse.
    pub wait: crate::lock::LockWait,
}

/// What `lane report` did.
#[derive(Debug, Serialize)]
pub struct ReportOutcome {
    /// The markdown written.
    pub markdown: PathBuf,
    /// The JSON model written.
    pub json_report: PathBuf,
    /// The static page written.
    pub html: PathBuf,
    /// How much of the report fit.
    pub level: lane_render::Level,
    /// The check run's verdict.
    pub conclusion: lane_render::Verdict,
    /// The PRs and issues posted to.
    pub targets: Vec<u64>,
    /// The run added to the history, when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<HistoryRecorded>,
    /// The first screen's answers, as text (what `lane report` prints).
    #[serde(skip)]
    pub answers: String,
    /// What posting did (`post`): request files, comments, the check run.
    #[serde(flatten)]
    pub posted: Posted,
    /// Slots whose report could not be read: the lane is not green.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
    /// The lane.
    #[serde(skip)]
    pub lane: String,
}

impl ReportOutcome {
    /// A slot whose report could not be read makes the lane not green (exit 7).
    pub fn verdict(&self) -> Result<(), AppError> {
        unreadable_verdict(&self.lane, &self.unreadable)
    }
}

/// Any unreadable report makes a lane not green.
pub(crate) fn unreadable_verdict(lane: &str, unreadable: &[String]) -> Result<(), AppError> {
    if unreadable.is_empty() {
        return Ok(());
    }
    Err(AppError::NotGreen {
        lane: lane.to_owned(),
        why: format!("unreadable reports: {}", unreadable.join(", ")),
    })
}

/// Writes `text` to `path` whole or not at all: a temporary file beside it,
/// synced, then renamed over it. A full disk leaves the last report (or
/// none), never a truncated one.
fn write(path: &Path, text: &str) -> Result<(), AppError> {
    crate::fsx::write_atomic(path, text.as_bytes())
}

/// The run a report added to the lane's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HistoryRecorded {
    /// The run's id.
    pub run: String,
    /// The store, without secrets.
    pub store: String,
    /// Its object, and what retention removed.
    #[serde(flatten)]
    pub appended: crate::history::Appended,
}

/// Adds the run of `results_dir` (loaded as `model`) to `history` and
/// puts its judgement in the model. A history that cannot be read or
/// written never hides the report: the model says why it has no verdict.
fn with_history(
    model: &mut LaneResults,
    results_dir: &Path,
    history: Option<&crate::history::HistoryStore<'_>>,
) -> Option<HistoryRecorded> {
    let history = history?;
    let judged = crate::history::rows::run_of(results_dir, Some(&model.lane), &model.cells)
        .and_then(|run| crate::history::record_and_judge(history, &run, results_dir));
    match judged {
        Ok((appended, judged)) => {
            let recorded = HistoryRecorded {
                run: judged.run.clone(),
                store: judged.store.clone(),
                appended,
            };
            model.history = Some(judged);
            Some(recorded)
        }
        Err(e) => {
            let why = crate::describe(&e);
            tracing::warn!(error = %why, "the run was not added to the history");
            model.history_note = Some(format!("the history could not be kept: {why}"));
            None
        }
    }
}

/// The files [`write_lane_report`] wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LaneReportFiles {
    /// `report.md`: the same markdown `lane report` renders (the PR comment).
    pub markdown: PathBuf,
    /// `report.json`: the [`LaneResults`] model as JSON.
    pub json: PathBuf,
    /// `report.html`: the static page with inline SVG charts.
    pub html: PathBuf,
    /// Slots whose report could not be read (their rows say why): a lane
    /// with any is not green.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
    /// The run added to the lane's history, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<HistoryRecorded>,
}

/// Loads a results folder exactly as `lane report` does: `summary.json`,
/// the cells, and the comparison with the baseline lane's results
/// (`baseline_results`, else `out/lanes/<baseline>/results` when the lane
/// names a baseline and that folder exists). A given `baseline_results`
/// that is not a folder is an invalid input.
fn load(
    lane: &lane_file::LaneFile,
    results_dir: &Path,
    baseline_results: Option<&Path>,
) -> Result<LaneResults, AppError> {
    let version = lane.version.to_string();
    let summary = results::checked_summary(results_dir, &lane.plan())?;
    if let Some(theirs) = summary.lane.as_deref().filter(|l| *l != version) {
        return Err(AppError::ResultsOfAnotherLane {
            dir: results_dir.to_owned(),
            theirs: theirs.to_owned(),
            lane: version,
        });
    }
    let mut cells = results::cells(results_dir, results::Diffs::Make)?;
    let baseline_dir = baseline_results.map(Path::to_path_buf).or_else(|| {
        lane.baseline
            .as_ref()
            .map(|b| layout::results_dir(&layout::lane_out(Path::new("out"), &b.to_string())))
    });
    if let Some(dir) = baseline_dir.as_ref().filter(|d| d.is_dir()) {
        let base = results::cells(dir, results::Diffs::Skip)?;
        results::compare_with(&mut cells, &base, &NoiseRule::default());
    } else if let Some(dir) = baseline_results {
        return Err(AppError::NoBaseline {
            dir: dir.to_owned(),
        });
    }
    Ok(LaneResults {
        lane: version,
        title: lane.title.as_ref().map(|t| t.as_str().to_owned()),
        base: Some(lane.base.to_string()),
        branch: Some(lane.branch_name()),
        picks: lane.picks.iter().map(|p| p.target.to_string()).collect(),
        wheel: summary.wheel,
        guard: summary.guard,
        green: summary.green,
        cancelled: summary.cancelled,
        replay: summary.replay,
        baseline: lane.baseline.as_ref().map(ToString::to_string),
        report_url: lane.github.as_ref().and_then(|g| g.report_url.clone()),
        cells,
        history: None,
        history_note: Some("no history store was given".to_owned()),
        disagreements: summary.disagreements,
    })
}

fn write_json_and_html(
    results: &LaneResults,
    json_path: &Path,
    html_path: &Path,
) -> Result<(), AppError> {
    let json = serde_json::to_string_pretty(results).map_err(AppError::Json)? + "\n";
    write(json_path, &json)?;
    write(html_path, &render_html(results))
}

/// Renders a lane's results folder into `out_dir`: `report.md` (the same
/// markdown as `lane report`), `report.json` (the [`LaneResults`] model) and
/// `report.html` (one self-contained page, inline SVG charts, no
/// JavaScript), and returns the files with the model they show. With
/// `history`, the run is added to the lane's history and judged against it
/// first. The results are loaded exactly as `lane report` loads them;
/// `baseline_results`, when given, must exist (else exit 3); when absent,
/// `out/lanes/<baseline>/results` is used if the lane names a baseline and
/// that folder exists. Called by `lane mint` and `lane demo` when all mints
/// are in.
pub fn write_lane_report(
    lane: &lane_file::LaneFile,
    results: &Path,
    baseline_results: Option<&Path>,
    out_dir: &Path,
    history: Option<&crate::history::HistoryStore<'_>>,
) -> Result<(LaneReportFiles, LaneResults), AppError> {
    let mut model = load(lane, results, baseline_results)?;
    let recorded = with_history(&mut model, results, history);
    let rendered = render_comment(&model, &RenderOptions::default());
    let files = LaneReportFiles {
        markdown: out_dir.join(file::LANE_REPORT_MD),
        json: out_dir.join(file::LANE_REPORT_JSON),
        html: out_dir.join(file::LANE_REPORT_HTML),
        unreadable: results::unreadable(&model.cells),
        history: recorded,
    };
    write(&files.markdown, &rendered.body)?;
    write_json_and_html(&model, &files.json, &files.html)?;
    Ok((files, model))
}

/// `lane report`: renders the lane's results folder (markdown, JSON,
/// HTML) and, with `post`, posts it. A slot whose report could not be read
/// is in [`ReportOutcome::verdict`], after everything is written and posted.
pub fn report(request: &ReportRequest) -> Result<ReportOutcome, AppError> {
    let loaded = &crate::lane::load(&request.lane)?;
    let lane = &loaded.lane;
    let version = lane.version.to_string();
    let lane_out = layout::lane_out(Path::new("out"), &version);
    let results_dir = request
        .results
        .clone()
        .unwrap_or_else(|| layout::results_dir(&lane_out));
    let md_path = request
        .out
        .clone()
        .unwrap_or_else(|| lane_out.join(file::LANE_REPORT_MD));
    let (json_path, html_path) = layout::report_siblings(&md_path);
    if json_path == md_path || html_path == md_path {
        return Err(AppError::Usage(format!(
            "--out {}: the report's JSON and page are written beside it as .json and .html; name a .md file",
            md_path.display()
        )));
    }
    // Not while a mint of the lane is gathering into the same folder.
    let _lock = crate::lock::lock_lane(
        &lane_out,
        &version,
        "lane report",
        request.wait,
        &mut |holder| tracing::warn!(holder, "waiting for the lane"),
    )?;
    let mut results = load(lane, &results_dir, request.baseline_results.as_deref())?;
    let store = request
        .history
        .as_deref()
        .map(crate::lane::open_store)
        .transpose()?;
    let history = store
        .as_deref()
        .zip(request.history.as_deref())
        .map(|(s, name)| crate::history::HistoryStore::named(s, name));
    let recorded = with_history(&mut results, &results_dir, history.as_ref());
    let verdict = conclusion(&results);
    let rendered = render_comment(&results, &RenderOptions::default());
    write(&md_path, &rendered.body)?;
    write_json_and_html(&results, &json_path, &html_path)?;

    let mut output = ReportOutcome {
        markdown: md_path,
        json_report: json_path,
        html: html_path,
        level: rendered.level,
        conclusion: verdict,
        targets: targets(lane),
        history: recorded,
        answers: lane_render::text::render_answers(&lane_render::view::lane(&results)),
        posted: Posted::default(),
        unreadable: results::unreadable(&results.cells),
        lane: version,
    };
    if request.post {
        output.posted = post_lane_report(
            loaded,
            &results,
            &rendered.body,
            request.head_sha.clone(),
            &lane_out,
            request.dry_run,
        )?;
    }
    Ok(output)
}

/// The PRs and issues posted to: the picks' PRs (unless
/// `github.post_to_picks: false`) and `github.post_to`, deduplicated.
fn targets(lane: &lane_file::LaneFile) -> Vec<u64> {
    let picks = lane.github.as_ref().is_none_or(|g| g.post_to_picks);
    let mut out: Vec<u64> = Vec::new();
    if picks {
        // A PR picked by its merge, by its head's commits, or adapted: its
        // thread hears what the lane did with it.
        out.extend(lane.picks.iter().filter_map(|p| p.target.pr()));
    }
    if let Some(g) = &lane.github {
        out.extend(g.post_to.iter().copied());
    }
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|n| seen.insert(*n));
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_prs_of_merges_heads_and_adaptations_hear_the_lane() {
        let text = "version: \"0.93.3\"\nupstream: {repo: x}\nbase: v0.93.2\npicks:\n  - pr: 515\n  - adapted: 0720e64c\n    from: {pr: 511}\n  - pr_head: 982\n  - commit: abcdef0\ngithub: {repo: o/r, post_to: [515, 7]}\n";
        let lane = lane_file::parse("lanes/0.93.3.yaml", text).unwrap();
        assert_eq!(super::targets(&lane), [515, 511, 982, 7]);
    }
}
