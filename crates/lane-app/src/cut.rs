//! `lane cut`: cut a patch release branch from its base tag (picks, guards,
//! version bump, changelog), resume or undo one stopped on a conflict, and
//! push it.

use std::fmt::Write as _;
use std::path::PathBuf;

use lane_git::cut::{
    ChangelogMode, ChangelogPlan, CutOptions, CutReport, CutStatus, OnConflict, PickOutcome,
};
use lane_git::guard::GuardReport;
use lane_git::resume::AbortReport;

use crate::error::AppError;
use crate::lane::{load, repository, today};

/// What `lane cut` is asked.
#[derive(Debug, Clone)]
pub struct CutRequest {
    /// The lane (optional when resuming or undoing: the stopped cut names it).
    pub lane: Option<String>,
    /// Operate on this local clone instead of the lane's upstream.
    pub repo: Option<PathBuf>,
    /// Plan only; write nothing.
    pub dry_run: bool,
    /// Also create the annotated release tag.
    pub tag: bool,
    /// Sign the tag with git's signing configuration.
    pub sign: bool,
    /// Push the branch (and tag) afterwards, fast-forward only.
    pub push: bool,
    /// The remote `push` pushes to.
    pub remote: String,
    /// What a conflicting pick does.
    pub on_conflict: OnConflict,
    /// Finish a cut stopped on a conflict.
    pub continue_: bool,
    /// Undo a cut stopped on a conflict.
    pub abort: bool,
    /// The changelog date (default: today, or `$SOURCE_DATE_EPOCH`).
    pub date: Option<String>,
    /// Open the cut PR (a trunk lane's cut branch into the default branch)
    /// once the branch is pushed; with `fold_back`, the fold-back PR.
    pub open_pr: bool,
    /// Fold the released version back onto the default branch (pgw#1039)
    /// instead of cutting: `fold/<version>` with the section, its fragments
    /// removed and the version files raised.
    pub fold_back: bool,
    /// With `fold_back`: fork from this ref instead of the default branch.
    pub onto: Option<String>,
}

/// A trunk lane's cut PR.
#[derive(Debug, Clone, serde::Serialize)]
pub struct OpenedPr {
    /// Its number.
    pub number: u64,
    /// Its page.
    pub html_url: String,
    /// Whether lane opened it now (false: it was open already).
    pub created: bool,
}

/// What `lane cut` did.
#[derive(Debug)]
pub enum CutOutcome {
    /// A stopped cut was undone.
    Aborted(AbortReport),
    /// A released version folded back onto the default branch.
    FoldedBack {
        /// What was done.
        report: Box<lane_git::foldback::FoldBack>,
        /// Whether the branch was pushed.
        pushed: bool,
        /// The fold-back PR.
        pull: Option<OpenedPr>,
    },
    /// A cut (planned, made, resumed, refused or stopped).
    Cut {
        /// The report.
        report: Box<CutReport>,
        /// Whether the branch (and tag) were pushed.
        pushed: bool,
        /// The cut PR, opened or found open (`--open-pr`).
        pull: Option<OpenedPr>,
    },
}

impl CutOutcome {
    /// A cut refused by a guard (exit 4), stopped on a conflict (exit 5)
    /// or whose version files disagree (exit 8) is an error, after its
    /// report is shown.
    pub fn verdict(&self) -> Result<(), AppError> {
        let CutOutcome::Cut { report, .. } = self else {
            return Ok(());
        };
        let lane = report.lane.clone();
        match report.status {
            CutStatus::Planned | CutStatus::Cut | CutStatus::AlreadyCut | CutStatus::Tagged => {
                Ok(())
            }
            CutStatus::Refused => Err(AppError::GuardRefused {
                lane,
                at: report.branch.clone(),
            }),
            CutStatus::Aborted | CutStatus::Stopped | CutStatus::WouldConflict => {
                Err(AppError::CutConflict {
                    lane,
                    resumable: report.status == CutStatus::Stopped,
                })
            }
            CutStatus::VersionsDisagree => Err(AppError::CutVersionsDisagree { lane }),
        }
    }
}

/// `lane cut` (and `--continue`, `--abort`).
pub fn cut(request: &CutRequest) -> Result<CutOutcome, AppError> {
    if request.abort || request.continue_ {
        return resume(request);
    }
    let Some(lane_arg) = request.lane.as_deref() else {
        return Err(AppError::Usage(
            "lane cut needs a LANE (a version such as 0.93.3, or a lane file)".to_owned(),
        ));
    };
    let loaded = load(lane_arg)?;
    if request.fold_back {
        return fold_back(request, &loaded.lane);
    }
    if request.open_pr {
        if loaded.lane.kind != lane_file::LaneKind::Trunk {
            return Err(AppError::Usage(
                "--open-pr opens a trunk lane's cut PR; this lane is not `kind: trunk`".into(),
            ));
        }
        if !request.push && !request.dry_run {
            return Err(AppError::Usage(
                "--open-pr needs the cut branch on the remote: add --push".into(),
            ));
        }
        if cfg!(not(feature = "github")) {
            return Err(AppError::Usage(
                "--open-pr needs lane built with the `github` feature".into(),
            ));
        }
    }
    let repo_dir = repository(&loaded, request.repo.as_deref())?;
    let repo = lane_git::repo::open(&repo_dir)?;
    let opts = CutOptions {
        dry_run: request.dry_run,
        on_conflict: request.on_conflict,
        // `--date`, else the lane file's, else today.
        date: request
            .date
            .clone()
            .or_else(|| {
                loaded
                    .lane
                    .changelog
                    .as_ref()
                    .and_then(|c| c.date.as_ref())
                    .map(|d| d.as_str().to_owned())
            })
            .unwrap_or_else(today),
        tag: request.tag,
        sign: request.sign,
        lane_file: std::fs::canonicalize(&loaded.path).unwrap_or(loaded.path.clone()),
    };
    let doing = if request.tag {
        "tag it"
    } else {
        "take it as already cut"
    };
    let report =
        lane_git::cut::cut(&repo, &loaded.lane, &opts).map_err(|e| AppError::git(e, doing))?;
    let mut outcome = push(request, &repo, report)?;
    if let CutOutcome::Cut { report, pull, .. } = &mut outcome {
        let made = matches!(report.status, CutStatus::Cut | CutStatus::AlreadyCut);
        if request.open_pr && made && !request.dry_run {
            *pull = Some(open_cut_pr(&loaded.lane, report)?);
        }
    }
    Ok(outcome)
}

fn resume(request: &CutRequest) -> Result<CutOutcome, AppError> {
    let dir = request.repo.clone().unwrap_or_else(|| PathBuf::from("."));
    let repo = lane_git::repo::open(&dir)?;
    if request.abort {
        return Ok(CutOutcome::Aborted(lane_git::resume::abort(&repo)?));
    }
    let state = lane_git::resume::in_progress(&repo)?;
    let lane_arg = request
        .lane
        .clone()
        .unwrap_or_else(|| state.lane_file.display().to_string());
    let loaded = load(&lane_arg)?;
    let report = lane_git::resume::continue_cut(&repo, &loaded.lane)?;
    push(request, &repo, report)
}

/// `push`: a made cut goes to the remote, fast-forward only.
fn push(
    request: &CutRequest,
    repo: &git2::Repository,
    report: CutReport,
) -> Result<CutOutcome, AppError> {
    let pushed = request.push && matches!(report.status, CutStatus::Cut | CutStatus::Tagged);
    if pushed {
        let workdir = repo.workdir().unwrap_or(repo.path()).to_owned();
        lane_git::remote::push(
            &workdir,
            &request.remote,
            &report.branch,
            report.tag.as_deref(),
        )
        .map_err(AppError::Push)?;
    }
    Ok(CutOutcome::Cut {
        report: Box::new(report),
        pushed: request.push,
        pull: None,
    })
}

/// The cut PR's body: what the cut did, and how it must land.
pub fn cut_pr_body(lane: &lane_file::LaneFile, r: &CutReport) -> String {
    use lane_render::escape::text as esc;
    let mut s = String::new();
    let head = r.head.as_deref().unwrap_or("");
    let _ = writeln!(
        s,
        "The cut of {} made by `lane cut`: `{}` on `{}`, off `{}`.\n",
        lane.version,
        &head[..12.min(head.len())],
        esc(&r.branch),
        &r.base_commit[..12.min(r.base_commit.len())]
    );
    for p in &r.picks {
        let _ = writeln!(
            s,
            "- pick {}: {}",
            esc(&p.pick.target.to_string()),
            esc(&p.pick.subject)
        );
    }
    for b in &r.version_files {
        let _ = writeln!(s, "- {}: {} → {}", esc(&b.path), esc(&b.from), esc(&b.to));
    }
    if let Some(g) = &r.guards_after {
        for v in &g.verdicts {
            let verdict = if v.refusals.is_empty() {
                "passed"
            } else {
                "REFUSED"
            };
            let _ = writeln!(s, "- guard {}: {verdict}", esc(&v.guard));
        }
    }
    let _ = writeln!(
        s,
        "\nMerge it as a true merge (not a squash): `lane cut {} --tag` then tags the merge once it is on {}.",
        lane.version,
        esc(lane.upstream.default_branch.as_str())
    );
    s
}

/// `lane cut --fold-back`: the released version onto the default branch.
fn fold_back(request: &CutRequest, lane: &lane_file::LaneFile) -> Result<CutOutcome, AppError> {
    if request.open_pr && !request.push && !request.dry_run {
        return Err(AppError::Usage(
            "--open-pr needs the fold-back branch on the remote: add --push".into(),
        ));
    }
    let loaded_path = crate::lane::LoadedLane {
        path: lane_core::layout::lane_file(std::path::Path::new(""), lane.version.as_str()),
        lane: lane.clone(),
    };
    let repo_dir = repository(&loaded_path, request.repo.as_deref())?;
    let repo = lane_git::repo::open(&repo_dir)?;
    let report =
        lane_git::foldback::fold_back(&repo, lane, request.onto.as_deref(), request.dry_run)?;
    let pushed = request.push && report.written;
    if pushed {
        let workdir = repo.workdir().unwrap_or(repo.path()).to_owned();
        lane_git::remote::push(&workdir, &request.remote, &report.branch, None)
            .map_err(AppError::Push)?;
    }
    let pull = if request.open_pr && report.written {
        let body = format!(
            "lane folds {} back onto {} (pgw#1039: master's version is the newest published line's, and master's changelog holds every release's section): the section from `{}`, {} fragment(s) it consumed removed, {} version file(s) raised.\n",
            lane.version,
            lane_render::escape::text(lane.upstream.default_branch.as_str()),
            lane_render::escape::text(&report.from_tag),
            report.fragments_removed.len(),
            report.versions_raised.len()
        );
        Some(open_pr(
            lane,
            lane_github_spec(
                &report.branch,
                lane,
                format!(
                    "release: fold {} back onto {}",
                    lane.version, lane.upstream.default_branch
                ),
                body,
            ),
        )?)
    } else {
        None
    };
    Ok(CutOutcome::FoldedBack {
        report: Box::new(report),
        pushed,
        pull,
    })
}

/// A pull request lane opens: `head` into the lane's default branch.
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "github"), allow(dead_code))]
struct PrRequest {
    head: String,
    base: String,
    title: String,
    body: String,
}

fn lane_github_spec(
    head: &str,
    lane: &lane_file::LaneFile,
    title: String,
    body: String,
) -> PrRequest {
    PrRequest {
        head: head.to_owned(),
        base: lane.upstream.default_branch.to_string(),
        title,
        body,
    }
}

fn open_cut_pr(lane: &lane_file::LaneFile, r: &CutReport) -> Result<OpenedPr, AppError> {
    let title = match &lane.title {
        Some(t) => format!("cut {}: {}", lane.version, t.as_str()),
        None => format!("cut {}", lane.version),
    };
    open_pr(
        lane,
        lane_github_spec(&r.branch, lane, title, cut_pr_body(lane, r)),
    )
}

#[cfg(feature = "github")]
fn open_pr(lane: &lane_file::LaneFile, pr: PrRequest) -> Result<OpenedPr, AppError> {
    let repo = lane.github_repo().ok_or(AppError::NoGithubRepo)?;
    let repo = lane_github::Repo::parse(&repo)?;
    let auth = lane_github::Auth::from_env().ok_or(lane_github::GithubError::NoCredentials)?;
    let config = lane_github::ClientConfig::from_env(auth);
    let spec = lane_github::PullSpec {
        head: pr.head,
        base: pr.base,
        title: pr.title,
        body: pr.body,
    };
    let opened = lane_runtime::block_on_here(async {
        let client = lane_github::GithubClient::connect(config, repo).await?;
        client.open_pull(&spec).await
    })
    .map_err(AppError::Runtime)??;
    tracing::info!(
        number = opened.number,
        created = opened.created,
        "cut PR open"
    );
    Ok(OpenedPr {
        number: opened.number,
        html_url: opened.html_url,
        created: opened.created,
    })
}

#[cfg(not(feature = "github"))]
fn open_pr(_: &lane_file::LaneFile, _: PrRequest) -> Result<OpenedPr, AppError> {
    Err(AppError::Usage(
        "--open-pr needs lane built with the `github` feature".into(),
    ))
}

/// The cut report for people.
///
/// Commit subjects, `why`s, paths, fragment names and guard findings are
/// the repository's words: every line is made inert for a terminal
/// (`lane_render::escape::terminal_lines`).
pub fn render(r: &CutReport, pushed: bool) -> String {
    lane_render::escape::terminal_lines(&render_raw(r, pushed))
}

fn render_raw(r: &CutReport, pushed: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "lane {}: {} from {} ({})",
        r.lane,
        r.branch,
        r.base,
        &r.base_commit[..12.min(r.base_commit.len())]
    );
    if !r.picks.is_empty() {
        let _ = writeln!(s, "picks:");
    }
    for p in &r.picks {
        let what = match &p.outcome {
            PickOutcome::Applied { new_commit } => {
                format!("applied as {}", &new_commit[..12.min(new_commit.len())])
            }
            PickOutcome::Skipped { reason } => format!("skipped: {reason}"),
            PickOutcome::Conflict { paths } => format!("CONFLICT in {}", paths.join(", ")),
            PickOutcome::NotReached => "not reached".to_owned(),
        };
        let id = p.pick.commit.to_string();
        let _ = writeln!(
            s,
            "  {:<12} {}  {}\n      {}",
            p.pick.target.to_string(),
            &id[..12],
            p.pick.subject,
            what
        );
        if let Some(why) = &p.pick.why {
            let _ = writeln!(s, "      why: {why}");
        }
        if let Some(a) = &p.adapted {
            let origin = &a.origin[..12.min(a.origin.len())];
            if !a.conflicts.is_empty() {
                let _ = writeln!(
                    s,
                    "      adapted: {origin} itself conflicts here in {}",
                    a.conflicts.join(", ")
                );
            } else if !a.differs.is_empty() {
                let _ = writeln!(
                    s,
                    "      adapted: {origin} picks cleanly here but gives other {}",
                    a.differs.join(", ")
                );
            } else {
                let _ = writeln!(
                    s,
                    "      adapted: {origin} gives the same tree here (the adaptation changes nothing)"
                );
            }
        }
    }
    for g in [&r.guards_before, &r.guards_after].into_iter().flatten() {
        render_guards(&mut s, g);
    }
    if !r.version_files.is_empty() {
        let _ = writeln!(s, "version files:");
        for b in &r.version_files {
            let _ = writeln!(s, "  {}: {} -> {}", b.path, b.from, b.to);
            if b.crosses_line {
                let _ = writeln!(
                    s,
                    "    note: {} is not a {} version: the base is not on this lane's line",
                    b.from,
                    b.to.rsplit_once('.')
                        .map_or(b.to.as_str(), |(line, _)| line)
                );
            }
        }
    }
    if let Some(cl) = &r.changelog {
        render_changelog(&mut s, cl);
    }
    if !r.files_changed.is_empty() {
        let _ = writeln!(s, "files changed ({}):", r.files_changed.len());
        for f in &r.files_changed {
            let _ = writeln!(s, "  {f}");
        }
    }
    let head = r
        .head
        .as_deref()
        .map(|h| &h[..12.min(h.len())])
        .unwrap_or("-");
    let line = match r.status {
        CutStatus::Planned => "dry run: nothing was written".to_owned(),
        CutStatus::Cut => {
            let mut l = format!("cut {} at {head}", r.branch);
            if let Some(t) = &r.tag {
                let _ = write!(l, ", tagged {t}");
            }
            if pushed {
                l.push_str(", pushed");
            }
            l
        }
        CutStatus::AlreadyCut => format!("{} already holds this cut at {head}; nothing was written", r.branch),
        CutStatus::Tagged => match &r.landed {
            Some(l) => format!(
                "tagged {} on {head}: the merge of {} on {} ({}){}",
                r.tag.as_deref().unwrap_or(""),
                r.branch,
                l.on,
                if l.master_moved {
                    "master moved under the cut: the merge's tree is the one the merge queue built"
                } else {
                    "its tree is the cut's"
                },
                if pushed { ", pushed" } else { "" }
            ),
            None => format!(
                "tagged {} on {head}, the head of {}{}",
                r.tag.as_deref().unwrap_or(""),
                r.branch,
                if pushed { ", pushed" } else { "" }
            ),
        },
        CutStatus::Refused => "REFUSED by a guard: nothing was written".to_owned(),
        CutStatus::Aborted => {
            "stopped on a conflict; the repository is exactly as it was (use --on-conflict stop to resolve by hand)"
                .to_owned()
        }
        CutStatus::WouldConflict => {
            "dry run: the cut would stop on the conflict above; nothing was written".to_owned()
        }
        CutStatus::Stopped => format!(
            "stopped on a conflict with {} checked out: resolve, `git add`, then `lane cut --continue` (or `lane cut --abort`)",
            r.branch
        ),
        CutStatus::VersionsDisagree => "version files disagree after the bump: nothing was written".to_owned(),
    };
    let _ = writeln!(s, "result: {line}");
    s
}

fn render_changelog(s: &mut String, cl: &ChangelogPlan) {
    let file = cl.file.as_deref().unwrap_or("CHANGELOG.md");
    match cl.mode {
        ChangelogMode::NotConfigured => {
            let _ = writeln!(
                s,
                "changelog: not configured (the lane file has no `changelog:`); nothing is assembled and fragments stay pending"
            );
            return;
        }
        ChangelogMode::None => {
            let _ = writeln!(
                s,
                "changelog: none (`assemble: none`): {file} is not written"
            );
            return;
        }
        ChangelogMode::Builtin | ChangelogMode::Tree => {}
    }
    let used = if cl.fragments.is_empty() {
        "no fragments".to_owned()
    } else {
        cl.fragments.join(", ")
    };
    let by = match (&cl.mode, &cl.assembler) {
        (ChangelogMode::Tree, Some(cmd)) => format!(" by the tree's assembler (`{cmd}`)"),
        _ => " by lane's assembler".to_owned(),
    };
    let _ = writeln!(s, "changelog: {file} assembled{by} from {used}");
    for w in &cl.written {
        let _ = writeln!(s, "  written at the cut: {w}");
    }
    for (from, to) in &cl.renamed {
        let _ = writeln!(s, "  renamed: {from} -> {to}");
    }
    for d in &cl.dropped {
        let _ = writeln!(s, "  dropped (not assembled): {d}");
    }
    for f in &cl.folded {
        let _ = writeln!(s, "  folded in: {f}");
    }
    for i in &cl.missing_fragments {
        let _ = writeln!(s, "  warning: no fragment for issue {i}");
    }
    for p in &cl.picks_without_issue {
        let _ = writeln!(
            s,
            "  warning: {p} names no issue, so no fragment was looked for"
        );
    }
    for n in &cl.notes {
        let _ = writeln!(s, "  note: {n}");
    }
}

fn render_guards(s: &mut String, g: &GuardReport) {
    let stage = match g.stage {
        lane_git::guard::GuardStage::Before => "before",
        lane_git::guard::GuardStage::After => "after",
    };
    for v in &g.verdicts {
        let verdict = if v.refusals.is_empty() {
            "passed"
        } else {
            "REFUSED"
        };
        let _ = writeln!(s, "guard {} ({stage}): {verdict}", v.guard);
        for r in &v.refusals {
            let _ = writeln!(s, "  refused: {r}");
        }
        for p in &v.proven {
            let _ = writeln!(s, "  proven: {p}");
        }
    }
}
