//! `lane cut`: cut a patch release branch from its base tag (see
//! `lane_app::cut`); the report for people.

use std::io::IsTerminal;

use lane_app::cut::render;
use lane_app::cut::OpenedPr;
use lane_app::{AppError, CutOutcome, CutRequest};
use lane_git::cut::OnConflict;

use crate::cmd::args::RepoArg;
use crate::output::print_json;

/// Arguments of `lane cut`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The lane: a version (`0.93.3` reads `lanes/0.93.3.yaml`) or a lane file path.
    /// Optional with `--continue`/`--abort`.
    pub lane: Option<String>,
    #[command(flatten)]
    pub repo: RepoArg,
    /// Print the whole plan (picks resolved, guards evaluated, files that would change); write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also create the annotated release tag (`v<version>`).
    #[arg(long)]
    pub tag: bool,
    /// Sign the tag through git's own signing configuration (`gpg.format`
    /// openpgp, ssh or x509, and `user.signingKey`), as `git tag -s` does.
    #[arg(long, requires = "tag")]
    pub sign: bool,
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
    /// The changelog date (default: the lane file's `changelog.date`, else
    /// today, or `$SOURCE_DATE_EPOCH`).
    #[arg(long)]
    pub date: Option<String>,
    /// A trunk lane: open the cut PR (its branch into the default branch)
    /// once `--push` has pushed the branch; an open one is reused.
    #[arg(long)]
    pub open_pr: bool,
    /// Fold the released version back onto the default branch (pgw#1039):
    /// `fold/<version>` with the release's changelog section, the fragments
    /// it consumed removed and the version files raised; with `--push
    /// --open-pr`, its PR.
    #[arg(long, conflicts_with_all = ["tag", "continue_", "abort"])]
    pub fold_back: bool,
    /// With `--fold-back`: fork from this ref instead of the default branch.
    #[arg(long, requires = "fold_back")]
    pub onto: Option<String>,
}

/// `--on-conflict` values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ConflictArg {
    /// Leave the repository exactly as it was.
    Abort,
    /// Leave the branch checked out with the conflict, resumable.
    Stop,
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
        repo: args.repo.repo,
        dry_run: args.dry_run,
        tag: args.tag,
        sign: args.sign,
        push: args.push,
        remote: args.remote,
        on_conflict,
        continue_: args.continue_,
        abort: args.abort,
        date: args.date,
        open_pr: args.open_pr,
        fold_back: args.fold_back,
        onto: args.onto,
    })?;
    match &outcome {
        CutOutcome::Aborted(done) if args.json => print_json(done)?,
        CutOutcome::Aborted(done) => outln!(
            "aborted the cut of {}: deleted {}, HEAD is {} again",
            done.lane,
            done.branch,
            done.head
        ),
        CutOutcome::FoldedBack { report, pull, .. } if args.json => {
            print_json(&with_pull(report, pull.as_ref())?)?
        }
        CutOutcome::FoldedBack {
            report,
            pushed,
            pull,
        } => {
            let r = report;
            let what = match (&r.head, r.written) {
                (None, _) => "nothing to fold back: the default branch has it all".to_owned(),
                (Some(h), true) => format!("{} at {}", r.branch, &h[..12]),
                (Some(_), false) => {
                    format!("dry run: {} would be made; nothing was written", r.branch)
                }
            };
            outln!(
                "lane fold-back of {} onto {} ({})",
                r.from_tag,
                r.onto,
                &r.onto_commit[..12]
            );
            if r.section_folded {
                outln!("  changelog: the section folded in");
            }
            for f in &r.fragments_removed {
                outln!("  removed: {f}");
            }
            for (path, from, to) in &r.versions_raised {
                outln!("  {path}: {from} -> {to}");
            }
            outln!("result: {what}{}", if *pushed { ", pushed" } else { "" });
            if let Some(p) = pull {
                print_pr("fold-back", p);
            }
        }
        CutOutcome::Cut { report, pull, .. } if args.json => {
            print_json(&with_pull(report, pull.as_ref())?)?
        }
        CutOutcome::Cut {
            report,
            pushed,
            pull,
        } => {
            out!("{}", render(report, *pushed));
            if let Some(p) = pull {
                print_pr("cut", p);
            }
        }
    }
    outcome.verdict()
}

/// The report as JSON, with the PR beside it (`pull`) when one was opened.
fn with_pull<T: serde::Serialize>(
    report: &T,
    pull: Option<&OpenedPr>,
) -> Result<serde_json::Value, AppError> {
    let mut v = serde_json::to_value(report).map_err(AppError::Json)?;
    if let (Some(p), Some(map)) = (pull, v.as_object_mut()) {
        map.insert(
            "pull".into(),
            serde_json::to_value(p).map_err(AppError::Json)?,
        );
    }
    Ok(v)
}

/// `cut PR #12 opened: <url>`, or `(open already)` when it was reused.
fn print_pr(what: &str, p: &OpenedPr) {
    let how = if p.created {
        " opened"
    } else {
        " (open already)"
    };
    outln!("{what} PR #{}{how}: {}", p.number, p.html_url);
}
