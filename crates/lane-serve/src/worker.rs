//! The doing: one dispatcher on a plain thread (never inside the HTTP
//! server's runtime: lane-app's functions are blocking and some start a
//! runtime of their own) takes the queued commands in order. Short ones
//! (help, status, cancel, diff, refusals) it answers itself; a mint gets a
//! thread of its own, at most `workers` at once and one per pull request,
//! so a `/lane cancel` is read while the lane mints.

use lane_core::layout;
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lane_app::{AppError, MintOutcome, MintRequest};
use lane_core::Progress;
use lane_github::Reaction;
use lane_webhook::{help_text, lane_of_base_ref, parse_comment, Command, CommentCommand, Mint};

use crate::answer;
use crate::github::Github;
use crate::metrics::Metrics;
use crate::store::{CommandRow, Kind, Store};
use crate::BackendKind;

/// What the dispatcher is told.
pub(crate) enum Job {
    /// Run the recorded command of this id.
    Command(i64),
    /// The mint of this pull request (`repo#pr`) ended.
    MintEnded(String),
    /// New commits on pull request `pr` of `repo` outdated its lane's
    /// report (the store says so already): re-post its sticky comment.
    Outdated { repo: String, pr: u64 },
    /// Stop taking work.
    Shutdown,
}

/// What every command needs.
pub(crate) struct Ctx {
    pub(crate) lanes: PathBuf,
    pub(crate) out: PathBuf,
    pub(crate) backend: BackendKind,
    pub(crate) kube_config: Option<PathBuf>,
    pub(crate) agent: Vec<String>,
    pub(crate) workers: usize,
    pub(crate) progress_every: Duration,
    pub(crate) store: Arc<Store>,
    pub(crate) metrics: Arc<Metrics>,
    pub(crate) policy: lane_webhook::Policy,
}

struct Running {
    lane: String,
    stop: Arc<AtomicBool>,
}

/// The dispatcher's loop; `alive` is cleared when it ends.
pub(crate) fn dispatch(
    ctx: Arc<Ctx>,
    jobs: Receiver<Job>,
    tx: Sender<Job>,
    alive: Arc<AtomicBool>,
) {
    struct Alive(Arc<AtomicBool>);
    impl Drop for Alive {
        fn drop(&mut self) {
            self.0.store(false, Ordering::SeqCst);
        }
    }
    let _alive = Alive(alive);
    let mut gh = match Github::new() {
        Ok(g) => g,
        Err(e) => {
            tracing::error!(error = %e, "the worker cannot start its runtime");
            return;
        }
    };
    let mut running: HashMap<String, Running> = HashMap::new();
    let mut pending: VecDeque<i64> = VecDeque::new();
    while let Ok(job) = jobs.recv() {
        match job {
            Job::Shutdown => break,
            Job::MintEnded(key) => {
                running.remove(&key);
                ctx.metrics.running(-1);
                while running.len() < ctx.workers {
                    let Some(id) = pending.pop_front() else { break };
                    command(&ctx, &mut gh, &mut running, &mut pending, &tx, id);
                }
            }
            Job::Command(id) => command(&ctx, &mut gh, &mut running, &mut pending, &tx, id),
            Job::Outdated { repo, pr } => {
                outdated(&ctx, &mut gh, &running, &repo, pr);
            }
        }
    }
    for r in running.values() {
        r.stop.store(true, Ordering::SeqCst);
    }
}

/// Re-posts the lane's sticky comment on `repo#pr` as last posted, with
/// the outdated line on top. Nothing while the pull request's lane mints
/// (its progress is in that comment, and its report comes next) or when
/// no report of it was posted through this service.
fn outdated(ctx: &Ctx, gh: &mut Github, running: &HashMap<String, Running>, repo: &str, pr: u64) {
    if running.contains_key(&format!("{repo}#{pr}")) {
        return;
    }
    let (Ok(Some((lane, Some(sha)))), Ok(Some(body))) =
        (ctx.store.lane(repo, pr), ctx.store.sticky(repo, pr))
    else {
        return;
    };
    let marker = lane_render::marker(&lane);
    gh.upsert(repo, pr, &marker, &answer::outdated(&body, &lane, &sha));
}

fn key(row: &CommandRow) -> String {
    format!("{}#{}", row.repo, row.pr)
}

fn lane_file(ctx: &Ctx, lane: &str) -> PathBuf {
    ctx.lanes.join(format!("{lane}.yaml"))
}

fn command(
    ctx: &Arc<Ctx>,
    gh: &mut Github,
    running: &mut HashMap<String, Running>,
    pending: &mut VecDeque<i64>,
    tx: &Sender<Job>,
    id: i64,
) {
    let row = match ctx.store.command(id) {
        Ok(Some(r)) if r.state == "queued" || r.state == "running" => r,
        Ok(_) => return,
        Err(e) => {
            tracing::error!(error = %crate::chain(&e), id, "state store");
            return;
        }
    };
    let answer = |gh: &mut Github, text: &str| {
        gh.upsert(
            &row.repo,
            row.pr,
            &answer::marker(row.pr),
            &answer::body(row.pr, text),
        );
    };
    let end = |gh: &mut Github, ok: bool, what: &str, detail: &str| {
        let reaction = if ok {
            Reaction::Rocket
        } else {
            Reaction::Confused
        };
        gh.react(&row.repo, row.comment_id, reaction);
        tracing::info!(command = row.id, what, ok, detail, "command ended");
        // Recorded before counted: whoever sees the count sees the end.
        if let Err(e) = ctx.store.end(row.id, ok, detail) {
            tracing::error!(error = %crate::chain(&e), id, "state store");
        }
        ctx.metrics
            .command(what, if ok { "done" } else { "failed" });
    };
    // A refusal is answered, marked confused, recorded, then counted.
    let refuse = |gh: &mut Github, text: &str, detail: &str| {
        let _ = ctx.store.start(id);
        answer(gh, text);
        gh.react(&row.repo, row.comment_id, Reaction::Confused);
        // Recorded before counted: whoever sees the count sees the end.
        let _ = ctx.store.end(row.id, true, detail);
        ctx.metrics.command("refusal", "done");
    };
    if row.kind == Kind::Refuse {
        refuse(gh, &row.text, "refused");
        return;
    }
    // A policy by permission: GitHub is asked now, off the webhook's
    // acknowledgement, and a permission that cannot be read refuses.
    if ctx.policy.min_permission.is_some() {
        let login = row.login.as_deref().unwrap_or("");
        let refused = match gh.permission(&row.repo, login) {
            Ok(p) if ctx.policy.permits(p) => None,
            Ok(p) => Some(answer::permission_refusal(&ctx.policy, Some(p))),
            Err(e) => {
                tracing::warn!(error = %e, command = row.id, "the commenter's permission could not be read");
                Some(answer::permission_refusal(&ctx.policy, None))
            }
        };
        if let Some(text) = refused {
            refuse(gh, &text, "refused: permission");
            return;
        }
    }
    let CommentCommand::Command(cmd) = parse_comment(&row.text) else {
        let _ = ctx.store.end(
            row.id,
            false,
            "not a command (the store holds what was queued)",
        );
        return;
    };
    let what = cmd.subcommand().as_str();
    if let Command::Mint(m) = &cmd {
        if let Some(r) = running.get(&key(&row)) {
            let _ = ctx.store.start(id);
            answer(gh, &answer::already_running(&r.lane));
            end(gh, false, what, "already running");
            return;
        }
        if running.len() >= ctx.workers {
            pending.push_back(id);
            return;
        }
        let _ = ctx.store.start(id);
        gh.react(&row.repo, row.comment_id, Reaction::Eyes);
        let stop = Arc::new(AtomicBool::new(false));
        let lane = m.version.to_string();
        running.insert(
            key(&row),
            Running {
                lane: lane.clone(),
                stop: Arc::clone(&stop),
            },
        );
        ctx.metrics.running(1);
        let _ = ctx.store.set_lane(&row.repo, row.pr, &lane);
        let (ctx2, tx2, m2) = (Arc::clone(ctx), tx.clone(), m.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("mint-{id}"))
            .spawn(move || {
                let k = key(&row);
                mint_thread(&ctx2, &row, &m2, stop);
                let _ = tx2.send(Job::MintEnded(k));
            });
        if let Err(e) = spawned {
            tracing::error!(error = %e, "cannot start a mint thread");
        }
        return;
    }
    let _ = ctx.store.start(id);
    gh.react(&row.repo, row.comment_id, Reaction::Eyes);
    let result = match &cmd {
        Command::Help => Ok(help_text().to_owned()),
        Command::Status => status(ctx, gh, &row, running),
        Command::Cancel => cancel(ctx, gh, &row, running),
        Command::Diff { cell, gpu } => diff(ctx, gh, &row, cell.as_str(), gpu.as_str()),
        Command::Mint(_) => unreachable!("a mint is started above"),
    };
    match result {
        Ok(text) => {
            answer(gh, &text);
            end(gh, true, what, "answered");
        }
        Err(text) => {
            answer(gh, &text);
            end(gh, false, what, &text);
        }
    }
}

/// The lane of the command's pull request: the last one minted from it,
/// else its base branch's (`release/X.Y.Z`).
fn lane_of(ctx: &Ctx, gh: &mut Github, row: &CommandRow) -> Result<String, String> {
    if let Ok(Some((lane, _))) = ctx.store.lane(&row.repo, row.pr) {
        return Ok(lane);
    }
    gh.pull(&row.repo, row.pr)
        .and_then(|p| lane_of_base_ref(&p.base_ref))
        .ok_or_else(|| {
            "lane knows no lane for this pull request: none was minted from it and its base \
             branch is not release/MAJOR.MINOR.PATCH. `/lane mint <version>` names one."
                .to_owned()
        })
}

/// An error's words for a pull-request comment: they carry foreign text
/// (paths, a remote's answer), so markdown, HTML and autolinks are escaped
/// and the length is capped.
fn shown(e: &AppError) -> String {
    lane_render::escape::text_max(&crate::chain(e), 600)
}

fn failed(what: &str, lane: &str, e: &AppError) -> String {
    format!("lane {what} for lane {lane} failed: {}", shown(e))
}

fn status(
    ctx: &Ctx,
    gh: &mut Github,
    row: &CommandRow,
    running: &HashMap<String, Running>,
) -> Result<String, String> {
    let lane = lane_of(ctx, gh, row)?;
    let outdated = ctx
        .store
        .lane(&row.repo, row.pr)
        .ok()
        .flatten()
        .and_then(|(_, o)| o);
    let mut text = format!("**lane {lane}**");
    if running.contains_key(&key(row)) {
        text.push_str(": minting now");
    }
    text.push('\n');
    if let Some(sha) = outdated {
        text.push_str(&format!(
            "\noutdated: new commits since this report (head {sha}); `/lane mint {lane}` mints them.\n"
        ));
    }
    let request = lane_app::StatusRequest {
        lane: lane_file(ctx, &lane).display().to_string(),
        out: ctx.out.clone(),
    };
    match lane_app::status(&request) {
        Ok(s) => {
            let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
            for r in &s.rows {
                *counts.entry(r.state.name()).or_default() += 1;
            }
            text.push_str(&format!("\n{} attempts:", s.rows.len()));
            for (state, n) in counts {
                text.push_str(&format!(" {n} {state},"));
            }
            text.pop();
            text.push('\n');
            Ok(text)
        }
        Err(e) => Err(failed("status", &lane, &e)),
    }
}

fn cancel(
    ctx: &Ctx,
    gh: &mut Github,
    row: &CommandRow,
    running: &HashMap<String, Running>,
) -> Result<String, String> {
    let Some(r) = running.get(&key(row)) else {
        let lane = lane_of(ctx, gh, row).unwrap_or_else(|_| "(none)".to_owned());
        return Ok(format!(
            "lane {lane} is not minting for this pull request: nothing to cancel."
        ));
    };
    r.stop.store(true, Ordering::SeqCst);
    #[cfg_attr(not(feature = "kube"), allow(unused_mut))]
    let mut text = format!(
        "lane {}: cancelled; the running mints are stopped and the state is kept (`/lane mint {}` resumes).",
        r.lane, r.lane
    );
    #[cfg(feature = "kube")]
    if ctx.backend == BackendKind::Kube {
        let request = lane_app::CancelRequest {
            lane: lane_file(ctx, &r.lane).display().to_string(),
            kube_config: ctx.kube_config.clone().unwrap_or_default(),
            dry_run: false,
        };
        match lane_app::cancel(&request) {
            Ok(lane_app::CancelOutcome::Deleted(d)) => text.push_str(&format!(
                " Deleted {} Jobs and {} pods in {}.",
                d.jobs.len(),
                d.pods.len(),
                d.namespace
            )),
            Ok(_) => {}
            Err(e) => return Err(failed("cancel", &r.lane, &e)),
        }
    }
    Ok(text)
}

fn diff(
    ctx: &Ctx,
    gh: &mut Github,
    row: &CommandRow,
    cell: &str,
    gpu: &str,
) -> Result<String, String> {
    let lane = lane_of(ctx, gh, row)?;
    let results = layout::results_dir(&layout::lane_out(&ctx.out, &lane));
    let (a, b) = (
        layout::slot_dir(&results, cell, gpu, 1),
        layout::slot_dir(&results, cell, gpu, 2),
    );
    if !a.join(layout::file::ARTIFACTS).is_dir() || !b.join(layout::file::ARTIFACTS).is_dir() {
        return Err(format!(
            "lane {lane} has no two cold repeats of {cell} on {gpu} with artifacts to diff (mint it first)."
        ));
    }
    // As `lane report` diffs them: class by class when the repeats' reports
    // name graph classes, else one tree each.
    let shown = |s: &str| lane_render::escape::text_max(s, 600);
    match lane_app::diff_repeats(&a, &b, 64 * 1024 * 1024) {
        Ok(lane_app::DiffFound::Cells(r)) => Ok(format!(
            "**lane {lane}**: determinism of {cell} on {gpu}, r1 vs r2: **{:?}**. {}\n\n{} files identical.",
            r.verdict,
            shown(&r.summary),
            r.files.identical
        )),
        Ok(lane_app::DiffFound::Classes(r)) => {
            let mut text = format!(
                "**lane {lane}**: determinism of {cell} on {gpu}, r1 vs r2, graph class by graph class: **{:?}** (the worst class's). {}\n\n| graph class | verdict |\n| --- | --- |\n",
                r.verdict,
                shown(&r.summary)
            );
            for c in &r.classes {
                text.push_str(&format!(
                    "| {} | {:?} |\n",
                    shown(&c.class.key),
                    c.report.verdict
                ));
            }
            for (side, list) in [("r1", &r.only_a), ("r2", &r.only_b)] {
                for c in list.iter() {
                    text.push_str(&format!("| {} | only in {side} |\n", shown(&c.key)));
                }
            }
            Ok(text)
        }
        Err(e) => Err(failed("diff", &lane, &e)),
    }
}

/// What the mint's progress poster is told.
enum Post {
    In(usize),
    Flush(Sender<()>),
}

/// Keeps the lane's sticky comment on the pull request filled in while it
/// mints: at most one update per `every`, and one when every mint is in.
fn poster(repo: String, pr: u64, lane: String, total: usize, every: Duration, rx: Receiver<Post>) {
    let Ok(mut gh) = Github::new() else { return };
    let marker = lane_render::marker(&lane);
    let mut last: Option<Instant> = None;
    let mut shown: Option<usize> = None;
    let mut now_in = 0;
    let post =
        |gh: &mut Github, n: usize, shown: &mut Option<usize>, last: &mut Option<Instant>| {
            if *shown != Some(n) {
                gh.upsert(
                    &repo,
                    pr,
                    &marker,
                    &answer::progress(&marker, &lane, n, total),
                );
                *shown = Some(n);
                *last = Some(Instant::now());
            }
        };
    post(&mut gh, 0, &mut shown, &mut last);
    loop {
        match rx.recv_timeout(every) {
            Ok(Post::In(n)) => {
                now_in = n;
                let due = last.is_none_or(|t| t.elapsed() >= every);
                if due || n >= total {
                    post(&mut gh, n, &mut shown, &mut last);
                }
            }
            Ok(Post::Flush(done)) => {
                post(&mut gh, now_in, &mut shown, &mut last);
                let _ = done.send(());
            }
            Err(RecvTimeoutError::Timeout) => post(&mut gh, now_in, &mut shown, &mut last),
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

fn request(ctx: &Ctx, row: &CommandRow, m: &Mint, stop: Arc<AtomicBool>) -> MintRequest {
    MintRequest {
        kube_config: ctx.kube_config.clone(),
        // As `lane mint --post`; without credentials nothing can be posted
        // (said once at the first answer), and the lane still mints.
        post: lane_github::Auth::from_env().is_some(),
        cells: m.cells.iter().map(|c| c.as_str().to_owned()).collect(),
        gpus: m.gpus.iter().map(|g| g.as_str().to_owned()).collect(),
        agent: ctx.agent.clone(),
        stop,
        ..MintRequest::new(
            lane_file(ctx, &m.version.to_string()).display().to_string(),
            ctx.out.clone(),
            format!("serve-{}", row.id),
        )
    }
}

fn mint_thread(ctx: &Ctx, row: &CommandRow, m: &Mint, stop: Arc<AtomicBool>) {
    let lane = m.version.to_string();
    let Ok(mut gh) = Github::new() else { return };
    let answer = |gh: &mut Github, text: &str| {
        gh.upsert(
            &row.repo,
            row.pr,
            &answer::marker(row.pr),
            &answer::body(row.pr, text),
        );
    };
    let end = |gh: &mut Github, ok: bool, detail: &str| {
        gh.react(
            &row.repo,
            row.comment_id,
            if ok {
                Reaction::Rocket
            } else {
                Reaction::Confused
            },
        );
        tracing::info!(command = row.id, ok, detail, "mint ended");
        // Recorded before counted: whoever sees the count sees the end.
        if let Err(e) = ctx.store.end(row.id, ok, detail) {
            tracing::error!(error = %crate::chain(&e), "state store");
        }
        ctx.metrics
            .command("mint", if ok { "done" } else { "failed" });
    };
    let file = lane_file(ctx, &lane);
    if !file.is_file() {
        answer(&mut gh, &format!("lane {lane}: the service has no lane file for it (`{lane}.yaml` in its lanes folder)."));
        end(&mut gh, false, "no lane file");
        return;
    }
    // The report is posted where the lane says: a lane that names no GitHub
    // repository is refused before any GPU time is spent on it.
    if let Ok(loaded) = lane_app::lane::load(&file.display().to_string()) {
        if loaded.lane.github_repo().is_none() {
            let e = AppError::NoGithubRepo;
            answer(
                &mut gh,
                &format!(
                    "{}; nothing was minted.",
                    failed("mint", &lane, &e).trim_end_matches('.')
                ),
            );
            end(&mut gh, false, &crate::chain(&e));
            return;
        }
    }
    let mut req = request(ctx, row, m, Arc::clone(&stop));
    // The plan's size, for "n of m mints in".
    let plan = lane_app::mint(
        &MintRequest {
            dry_run: true,
            ..req.clone()
        },
        &mut lane_app::LocalBackend,
        &mut |_| {},
    );
    let total = match plan {
        Ok(MintOutcome::DryRun(lane_app::DryRun::Plan { mints, .. })) => mints.len(),
        Ok(_) => 0,
        Err(e) => {
            answer(&mut gh, &failed("mint", &lane, &e));
            end(&mut gh, false, &crate::chain(&e));
            return;
        }
    };
    req.head_sha = gh.pull(&row.repo, row.pr).map(|p| p.head_sha);
    let (ptx, prx) = std::sync::mpsc::channel();
    let (repo, pr, lane2, every) = (row.repo.clone(), row.pr, lane.clone(), ctx.progress_every);
    let poster = std::thread::spawn(move || poster(repo, pr, lane2, total, every, prx));
    let mut finished = 0usize;
    let ptx2 = ptx.clone();
    let mut on = move |p: Progress| {
        tracing::info!(progress = %p, "mint");
        match p {
            Progress::Finished { .. } => finished += 1,
            Progress::Retry { .. } => finished = finished.saturating_sub(1),
            _ => return,
        }
        let n = finished.min(total);
        let _ = ptx2.send(Post::In(n));
        if n >= total {
            // Every mint is in: the report is posted next, over this
            // comment; the last progress update must land first.
            let (done_tx, done_rx) = std::sync::mpsc::channel();
            if ptx2.send(Post::Flush(done_tx)).is_ok() {
                let _ = done_rx.recv_timeout(Duration::from_secs(60));
            }
        }
    };
    let outcome = run_backend(ctx, &req, &mut on);
    drop(on);
    drop(ptx);
    let _ = poster.join();
    match outcome {
        // A cancelled lane on the kube backend still ends `Minted` (its
        // deleted Jobs are failed slots): it was cancelled, not "not green".
        Ok(MintOutcome::Minted(_)) if stop.load(Ordering::SeqCst) => {
            answer(&mut gh, &format!("lane {lane}: cancelled."));
            end(&mut gh, false, "cancelled");
        }
        Ok(MintOutcome::Minted(minted)) => {
            let verdict = MintOutcome::Minted(minted);
            let ok = verdict.verdict().is_ok();
            let MintOutcome::Minted(minted) = verdict else {
                unreachable!()
            };
            let s = &minted.minted.summary;
            if let Some(p) = &minted.posted {
                tracing::info!(
                    comments = p.comments.len(),
                    check_run = ?p.check_run.as_ref().map(|c| c.id),
                    "report posted"
                );
            }
            let on_pr = minted
                .posted
                .as_ref()
                .is_some_and(|p| p.comments.iter().any(|c| c.issue == row.pr));
            if on_pr {
                // The report, as lane_app posted it (`report.md` is the
                // comment's body): kept to re-post it outdated.
                if let Ok(body) = std::fs::read_to_string(&minted.report.markdown) {
                    let _ = ctx.store.set_sticky(&row.repo, row.pr, &body);
                }
            } else {
                // The lane posts its report to its own PRs; say so here.
                let marker = lane_render::marker(&lane);
                let body = format!(
                    "{marker}\n**lane {lane}**: {} mints, {}. The report is posted on the lane's pull requests (its `github.post_to`).\n",
                    s.mints.len(),
                    if s.green { "green" } else { "not green" }
                );
                if gh.upsert(&row.repo, row.pr, &marker, &body) {
                    let _ = ctx.store.set_sticky(&row.repo, row.pr, &body);
                }
            }
            end(&mut gh, ok, if ok { "green" } else { "not green" });
        }
        Ok(MintOutcome::DryRun(_)) => end(&mut gh, false, "dry run"),
        Err(e) if stop.load(Ordering::SeqCst) => {
            answer(&mut gh, &format!("lane {lane}: cancelled ({}).", shown(&e)));
            end(&mut gh, false, "cancelled");
        }
        Err(e) => {
            answer(&mut gh, &failed("mint", &lane, &e));
            end(&mut gh, false, &crate::chain(&e));
        }
    }
}

fn run_backend(
    ctx: &Ctx,
    req: &MintRequest,
    on: &mut (dyn FnMut(Progress) + Send),
) -> Result<MintOutcome, AppError> {
    match ctx.backend {
        BackendKind::Local => lane_app::mint(req, &mut lane_app::LocalBackend, on),
        #[cfg(feature = "kube")]
        BackendKind::Kube => lane_app::mint(req, &mut lane_app::KubeBackend::default(), on),
        #[cfg(not(feature = "kube"))]
        BackendKind::Kube => Err(AppError::Usage(
            "this lane was built without the kube backend (cargo feature `kube`)".to_owned(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: an error's text (a path, a remote's answer) went into
    /// the pull-request comment raw, so markdown or HTML in it rendered and
    /// an `@login` in it pinged someone.
    #[test]
    fn regression_an_errors_words_in_a_comment_are_escaped_and_capped() {
        let e = AppError::Usage(format!(
            "<img src=x onerror=alert(1)> @octocat [x](javascript:1) {}",
            "y".repeat(2000)
        ));
        let text = failed("mint", "0.93.3", &e);
        assert!(!text.contains("<img"), "{text}");
        assert!(!text.contains("@octocat"), "an autolink survived: {text}");
        assert!(!text.contains("[x](javascript"), "a link survived: {text}");
        assert!(
            text.chars().count() < 700,
            "{} characters",
            text.chars().count()
        );
    }
}
