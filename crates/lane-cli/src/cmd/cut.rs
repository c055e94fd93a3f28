//! `lane cut`: cut a patch release branch from its base tag (see
//! `lane_app::cut`); the report for people.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;

use lane_app::{AppError, CutOutcome, CutRequest};
use lane_git::cut::{CutReport, CutStatus, OnConflict, PickOutcome};
use lane_git::guard::GuardReport;
use lane_git::GitError;

use crate::exit::CliError;
use crate::output::print_json;

/// Arguments of `lane cut`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The lane: a version (`0.93.3` reads `lanes/0.93.3.yaml`) or a lane file path.
    /// Optional with `--continue`/`--abort`.
    pub lane: Option<String>,
    /// Operate on this local clone instead of the lane's upstream.
    #[arg(long)]
    pub repo: Option<PathBuf>,
    /// Print the whole plan (picks resolved, guards evaluated, files that would change); write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also create the annotated release tag (`v<version>`).
    #[arg(long)]
    pub tag: bool,
    /// Push the branch (and tag) to the remote afterwards, fast-forward only.
    #[arg(long)]
    pub push: bool,
    /// The remote `--push` pushes to.
    #[arg(long, default_value = "origin")]
    pub remote: String,
    /// On a conflicting pick: `abort` leaves the repository exactly as it was,
    /// `stop` leaves it resumable. Default: `stop` on a terminal, else `abort`.
    #[arg(long, value_enum)]
    pub on_conflict: Option<ConflictArg>,
    /// Finish a cut stopped on a conflict, once it is resolved and staged.
    #[arg(long = "continue", conflicts_with_all = ["abort", "dry_run"])]
    pub continue_: bool,
    /// Undo a cut stopped on a conflict: the repository as it was before.
    #[arg(long, conflicts_with = "dry_run")]
    pub abort: bool,
    /// The changelog date (default: today, or `$SOURCE_DATE_EPOCH`).
    #[arg(long)]
    pub date: Option<String>,
}

/// `--on-conflict` values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ConflictArg {
    /// Leave the repository exactly as it was.
    Abort,
    /// Leave the branch checked out with the conflict, resumable.
    Stop,
}

/// A git-edge error with its documented exit code (decided in `AppError::exit`).
pub fn git_exit(e: GitError) -> CliError {
    lane_app::AppError::from(e).into()
}

/// Runs `lane cut`.
pub fn run(args: Args) -> Result<(), AppError> {
    let on_conflict = match args.on_conflict {
        Some(ConflictArg::Abort) => OnConflict::Abort,
        Some(ConflictArg::Stop) => OnConflict::Stop,
        // A person at a terminal can resolve a conflict; a script cannot.
        None if std::io::stdin().is_terminal() => OnConflict::Stop,
        None => OnConflict::Abort,
    };
    let outcome = lane_app::cut(&CutRequest {
        lane: args.lane,
        repo: args.repo,
        dry_run: args.dry_run,
        tag: args.tag,
        push: args.push,
        remote: args.remote,
        on_conflict,
        continue_: args.continue_,
        abort: args.abort,
        date: args.date,
    })?;
    match &outcome {
        CutOutcome::Aborted(done) if args.json => print_json(done)?,
        CutOutcome::Aborted(done) => println!(
            "aborted the cut of {}: deleted {}, HEAD is {} again",
            done.lane, done.branch, done.head
        ),
        CutOutcome::Cut { report, .. } if args.json => print_json(report)?,
        CutOutcome::Cut { report, pushed } => print!("{}", render(report, *pushed)),
    }
    outcome.verdict()
}

/// The cut report for people.
pub fn render(r: &CutReport, pushed: bool) -> String {
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
    }
    for g in [&r.guards_before, &r.guards_after].into_iter().flatten() {
        render_guards(&mut s, g);
    }
    if !r.version_files.is_empty() {
        let _ = writeln!(s, "version files:");
        for b in &r.version_files {
            let _ = writeln!(s, "  {}: {} -> {}", b.path, b.from, b.to);
        }
    }
    if let Some(cl) = &r.changelog {
        let used = if cl.fragments.is_empty() {
            "no fragments".to_owned()
        } else {
            cl.fragments.join(", ")
        };
        let _ = writeln!(s, "changelog: {} assembled from {used}", cl.file);
        for i in &cl.missing_fragments {
            let _ = writeln!(s, "  warning: no fragment for issue {i}");
        }
        for p in &cl.picks_without_issue {
            let _ = writeln!(
                s,
                "  warning: {p} names no issue, so no fragment was looked for"
            );
        }
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
        CutStatus::Refused => "REFUSED by a guard: nothing was written".to_owned(),
        CutStatus::Aborted => {
            "stopped on a conflict; the repository is exactly as it was (use --on-conflict stop to resolve by hand)"
                .to_owned()
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
