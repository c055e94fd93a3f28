//! The local backend: runs each mint's agent as a child process of its own
//! (its own process group, so it outlives a killed `lane`), at most
//! `concurrency` at once, and drives every slot of the plan to a gathered
//! result through the run store.
//!
//! Restart safety: a slot's state is committed before it is acted on. A
//! restarted run re-attaches to an agent still running (its claim names a
//! live pid), gathers one that finished while lane was down (its
//! `result.json`), and only then submits; the agent's claim on its folder
//! makes a second agent for the same attempt refuse to run, so no mint is
//! ever billed twice.

use lane_core::layout::{self, file};
use lane_file::{Cell, LaneFile};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tracing::{info, warn};

use crate::error::MintError;
use crate::gather::{gather, write_summary};
use crate::store::{MintRow, MintState, RunStore};
use lane_agent::agent::{end_orphaned_mint, live_claim, pid_alive, read_result};
use lane_core::results::Contract;
use lane_core::MintId;
use lane_core::{retry, MintStatus, Progress, RetryDecision};
use lane_core::{SlotSummary, Summary};

/// What the local backend needs besides the lane.
pub struct LocalRun<'a> {
    /// The lane.
    pub lane: &'a LaneFile,
    /// Every slot of the lane file's whole matrix, before narrowing:
    /// `summary.json` keeps each one the run store holds (an earlier run's
    /// cells stay in a narrowed run's summary). Empty: the lane's own plan.
    pub whole_matrix: Vec<String>,
    /// The lane's output folder (`out/lanes/<version>`): `runs.sqlite`,
    /// `mints/`, `results/` live here.
    pub out: PathBuf,
    /// How to start an agent: program and leading arguments (e.g. `[lane, agent]`).
    pub agent: Vec<String>,
    /// How many agents run at once.
    pub concurrency: usize,
    /// The wheel each agent installs, if any.
    pub wheel: Option<PathBuf>,
    /// The artifact store every agent writes its result bundle to.
    pub store: Option<String>,
    /// The upstream's source tree (an export of the lane branch), given to
    /// every mint as `$LANE_SOURCE_DIR`.
    pub source: Option<PathBuf>,
    /// The wheel and the guards the lane mints with, for `summary.json`.
    pub provenance: lane_core::Provenance,
    /// Set to stop: running agents are killed and the state is kept.
    pub stop: &'a AtomicBool,
}

fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// What wakes the run loop: an agent exited (`None`), or the mint of
/// attempt `Some(id)` is over and its place free (its driven agent said so).
type Wake = Option<String>;

/// Sends on `wake` when the child `pid` exits, without reaping it
/// (`WNOWAIT`: `Child::try_wait` in the run loop still reaps it), so the
/// loop sees a finished agent at once instead of at its next look.
fn watch_exit(pid: u32, wake: std::sync::mpsc::Sender<Wake>) {
    use nix::errno::Errno;
    use nix::sys::wait::{waitid, Id, WaitPidFlag};
    std::thread::spawn(move || {
        let id = || Id::Pid(nix::unistd::Pid::from_raw(pid as i32));
        while waitid(id(), WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT) == Err(Errno::EINTR) {}
        let _ = wake.send(None);
    });
}

/// Reads a driven agent's stdout: its `over` wakes the loop with the
/// attempt's id; every other line goes on to the agent's log, as its
/// stdout did before it was driven.
fn watch_over(
    id: String,
    stdout: std::process::ChildStdout,
    mut log: std::fs::File,
    wake: std::sync::mpsc::Sender<Wake>,
) {
    use std::io::{BufRead, Write};
    std::thread::spawn(move || {
        let mut lines = std::io::BufReader::new(stdout);
        let mut line = Vec::new();
        while matches!(lines.read_until(b'\n', &mut line), Ok(n) if n > 0) {
            if line == b"over\n" {
                let _ = wake.send(Some(id.clone()));
            } else {
                let _ = log.write_all(&line);
            }
            line.clear();
        }
    });
}

/// Tells a driven agent that its mint may start (its place is taken).
/// One already gone cannot hear it; how it ended shows in its folder.
fn say_go(gate: Option<std::process::ChildStdin>) {
    use std::io::Write;
    if let Some(mut gate) = gate {
        let _ = gate.write_all(b"go\n");
    }
}

/// The agents started ahead of a free place, waiting for their word, in
/// the order they started (the plan's).
#[derive(Default)]
struct Ahead {
    order: std::collections::VecDeque<String>,
    gates: HashMap<String, std::process::ChildStdin>,
}

impl Ahead {
    fn len(&self) -> usize {
        self.gates.len()
    }

    fn waits(&self, id: &str) -> bool {
        self.gates.contains_key(id)
    }

    fn push(&mut self, id: String, gate: std::process::ChildStdin) {
        self.order.push_back(id.clone());
        self.gates.insert(id, gate);
    }

    /// The longest-waiting agent still alive, with its gate.
    fn next(&mut self) -> Option<(String, std::process::ChildStdin)> {
        while let Some(id) = self.order.pop_front() {
            if let Some(gate) = self.gates.remove(&id) {
                return Some((id, gate));
            }
        }
        None
    }

    /// Forgets the agents that are gone (their gates are closed with them).
    fn keep_only(&mut self, alive: &HashMap<String, Child>) {
        self.gates.retain(|id, _| alive.contains_key(id));
        let gates = &self.gates;
        self.order.retain(|id| gates.contains_key(id));
    }

    /// Closes every gate: a waiting agent then exits without its mint.
    fn close_all(&mut self) {
        self.order.clear();
        self.gates.clear();
    }
}

impl LocalRun<'_> {
    fn cell(&self, name: &str) -> Option<&Cell> {
        self.lane
            .mint
            .as_ref()?
            .cells
            .iter()
            .find(|c| c.name.as_str() == name)
    }

    fn mint_dir(&self, id: &MintId) -> PathBuf {
        layout::mint_dir(&self.out, id)
    }

    /// Runs every mint of the lane to a gathered result.
    pub fn run(&self, on: &mut dyn FnMut(Progress)) -> Result<Summary, MintError> {
        let m = self.lane.mint.as_ref().ok_or_else(|| MintError::NoMatrix {
            lane: self.lane.version.to_string(),
        })?;
        let store = RunStore::open(&layout::runs_db(&self.out))?;
        let planned = self.lane.plan();
        store.ensure_all_planned(planned.iter().map(|p| &p.id))?;
        // Only the slots the lane file names now: a cell, GPU or repeat
        // removed since an earlier run is left alone, never run.
        let slots: std::collections::HashSet<String> =
            planned.iter().map(|p| p.id.slot().to_string()).collect();
        self.repair_gathered(&store, &slots, on)?;
        let mut children: HashMap<String, Child> = HashMap::new();
        // The attempts this run spawned an agent for, and the slots whose
        // gathering failed on lane's side in this run (left open: the next
        // `lane mint` finishes them, never re-running their mints).
        let mut spawned: std::collections::HashSet<String> = Default::default();
        let mut faults: BTreeMap<String, String> = BTreeMap::new();
        let timeout = Duration::from_secs(m.timeout_s);
        let (wake, woken) = std::sync::mpsc::channel::<Wake>();
        let mut watched: std::collections::HashSet<u32> = Default::default();
        // Agents started ahead of a free place, and the attempts of this
        // run whose mint is over (their agents still gathering).
        let mut ahead = Ahead::default();
        let mut over: std::collections::HashSet<String> = Default::default();
        loop {
            if self.stop.load(Ordering::SeqCst) {
                ahead.close_all();
                self.stop_agents(&store, &mut children)?;
                return Err(MintError::Interrupted);
            }
            // Reap our own children so they do not linger as zombies.
            children.retain(|_, c| !matches!(c.try_wait(), Ok(Some(_))));
            ahead.keep_only(&children);

            let rows = store.rows()?;
            let mut latest = latest_per_slot(&rows);
            latest.retain(|slot, _| slots.contains(slot));
            // Every attempt that holds a place now, counted before any is
            // started (across restarts: adopted agents, and mints whose
            // agent is gone until they are ended). An agent waiting ahead
            // holds none yet; one whose mint is over holds none any more.
            let mut running = latest
                .values()
                .filter(|r| r.state == MintState::Submitted)
                .filter(|r| {
                    let key = r.id.to_string();
                    !ahead.waits(&key) && !over.contains(&key)
                })
                .filter(|r| self.occupies(r, &children))
                .count();
            let mut pending = 0usize;
            let mut to_submit = Vec::new();
            // Results found on this pass: said at once, recorded after the
            // free places are refilled, so the next agent starts one commit
            // sooner (the result is durable in its folder meanwhile: a lane
            // killed in between finds it there again).
            let mut ended = Vec::new();
            latest.retain(|slot, _| !faults.contains_key(slot));
            for row in latest.values() {
                match row.state {
                    MintState::Gathered => {}
                    MintState::Finished => {
                        pending += 1;
                        if let Err(e) = self.gather_row(&store, row, &rows) {
                            // lane's own I/O (a full disk): the result stays
                            // recorded, the slot open until a later run.
                            self.fault(&mut faults, &row.id, lane_core::chain(&e), on);
                        }
                    }
                    MintState::Submitted => {
                        pending += 1;
                        let dir = row
                            .mint_dir
                            .clone()
                            .unwrap_or_else(|| self.mint_dir(&row.id));
                        let key = row.id.to_string();
                        if let Some(result) = read_result(&dir) {
                            ended.push(self.said_finished(row, result, on));
                        } else if let Some(pid) = live_claim(&dir) {
                            self.record_group(&store, row, &dir)?;
                            if row.pid != Some(pid) {
                                store.set_pid(&row.id, pid)?;
                                if !children.contains_key(&key) {
                                    on(Progress::Adopted { mint: key });
                                }
                            }
                        } else if agent_alive(row)
                            || (row.pid.is_none() && children.contains_key(&key))
                        {
                            // Started, not yet claimed.
                        } else if let Some(result) = read_result(&dir) {
                            // Its agent wrote it and went since the first look.
                            ended.push(self.said_finished(row, result, on));
                        } else {
                            // No agent: a mint it left running (`kill -9` of
                            // the agent) is ended, and gone, before anything
                            // else happens to the slot.
                            let orphan = end_orphaned_mint(&dir)?;
                            if let Some(group) = orphan {
                                running = running.saturating_sub(1);
                                on(Progress::State {
                                    mint: key.clone(),
                                    state: format!("its agent is gone; its orphaned mint (process group {}) was ended", group.pid),
                                });
                            }
                            if lane_agent::agent::read_ended(&dir).is_some()
                                || (spawned.contains(&key) && !dir.join(file::AGENT_LOCK).exists())
                            {
                                // The mint ended but its agent could not
                                // finish lane's part (a full disk), or an
                                // agent of this run left neither a claim nor
                                // a result: lane's fault, never the mint's.
                                // An earlier run's is finished now by a new
                                // agent (which only gathers when the mint
                                // ended); one of this run's waits for the
                                // next `lane mint`.
                                if spawned.contains(&key) {
                                    let why = agent_log_error(&dir);
                                    self.fault(&mut faults, &row.id, why, on);
                                } else {
                                    self.respawn(
                                        &store,
                                        &row.id,
                                        timeout,
                                        (&mut children, &mut spawned),
                                        &mut running,
                                        &wake,
                                    )?;
                                }
                            } else if !dir.join(file::AGENT_LOCK).exists() {
                                // Never claimed: lane died between recording
                                // the submission and the agent's start. Start
                                // it now (the claim keeps a late first agent
                                // from running too).
                                if self.respawn(
                                    &store,
                                    &row.id,
                                    timeout,
                                    (&mut children, &mut spawned),
                                    &mut running,
                                    &wake,
                                )? {
                                    on(Progress::Started { mint: key });
                                }
                            } else {
                                // Claimed, but no agent alive and no result.
                                match orphan {
                                    // Its mint was still running: it never
                                    // failed, lane's agent did and lane ended
                                    // the mint. Kept as crashed, retried at
                                    // once, no retry spent.
                                    Some(g) => {
                                        let reason = format!("the agent vanished without a result (killed?); its mint, still running, was ended by lane (process group {}): lane's fault, so no retry is spent", g.pid);
                                        store.mark_ended_by_lane(&row.id, &reason)?;
                                        on(Progress::Retry {
                                            mint: row.id.to_string(),
                                            decision: RetryDecision::Now,
                                        });
                                    }
                                    // The gate never opened (no group was
                                    // recorded): the agent died while it
                                    // waited for its place, and its mint
                                    // never ran. Lane's fault: no retry spent.
                                    None if !dir.join(file::MINT_GROUP).exists() => {
                                        let reason = "the agent vanished (killed?) before its mint started: lane's fault, so no retry is spent";
                                        store.mark_ended_by_lane(&row.id, reason)?;
                                        on(Progress::Retry {
                                            mint: row.id.to_string(),
                                            decision: RetryDecision::Now,
                                        });
                                    }
                                    // The mint is gone too: it may have died
                                    // with its agent (a node lost), so the
                                    // slot's crash budget decides.
                                    None => {
                                        self.finish_and_decide(
                                            &store,
                                            &row.id,
                                            (
                                                MintStatus::Crashed,
                                                "the agent vanished without a result (killed?)",
                                                None,
                                                "null",
                                            ),
                                            on,
                                        )?;
                                    }
                                }
                            }
                        }
                    }
                    MintState::Planned => {
                        pending += 1;
                        if row.retry_after.is_none_or(|t| t <= now()) {
                            to_submit.push(row.id.clone());
                        }
                    }
                }
            }
            if pending == 0 {
                break;
            }
            let places = self.concurrency.max(1);
            // A free place goes first to the agent that waited longest.
            while running < places {
                let Some((key, gate)) = ahead.next() else {
                    break;
                };
                say_go(Some(gate));
                running += 1;
                on(Progress::Started { mint: key });
            }
            for id in to_submit {
                // Up to `concurrency` agents wait ahead of a free place,
                // prepared, so a place that frees starts the next mint at
                // once; only this loop lets a mint start.
                let free = running < places;
                if !free && ahead.len() >= places {
                    break;
                }
                let mut child = self.submit(&store, &id, timeout, &wake)?;
                let gate = child.stdin.take();
                spawned.insert(id.to_string());
                children.insert(id.to_string(), child);
                if free {
                    say_go(gate);
                    running += 1;
                    on(Progress::Started {
                        mint: id.to_string(),
                    });
                } else if let Some(gate) = gate {
                    ahead.push(id.to_string(), gate);
                }
            }
            for (row, result) in ended {
                self.record_finished(&store, &row, &result, on)?;
            }
            for child in children.values() {
                if watched.insert(child.id()) {
                    watch_exit(child.id(), wake.clone());
                }
            }
            // Until one of our agents exits or says its mint is over (its
            // place is refilled at once), or 5 ms at most: agents adopted
            // from an earlier run, retries waiting for their time and the
            // stop flag are looked at then.
            let first = woken.recv_timeout(Duration::from_millis(5)).ok();
            for ended in first.into_iter().chain(woken.try_iter()).flatten() {
                over.insert(ended);
            }
        }
        if let Some((slot, why)) = faults.iter().next() {
            return Err(MintError::Unfinished {
                slots: faults.len(),
                slot: slot.clone(),
                why: why.clone(),
            });
        }
        let summary = self.summary(&store)?;
        write_summary(&layout::results_dir(&self.out), &summary)?;
        Ok(summary)
    }

    /// Whether an attempt without a result holds a place: its agent lives
    /// (claimed, or starting), or its mint does (an orphan, until ended).
    fn occupies(&self, row: &MintRow, children: &HashMap<String, Child>) -> bool {
        let dir = row
            .mint_dir
            .clone()
            .unwrap_or_else(|| self.mint_dir(&row.id));
        if read_result(&dir).is_some() {
            return false;
        }
        live_claim(&dir).is_some()
            || agent_alive(row)
            || (row.pid.is_none() && children.contains_key(&row.id.to_string()))
            || lane_agent::agent::mint_group(&dir).is_some_and(|g| !g.group_members().is_empty())
    }

    /// Mirrors the mint's process group (its agent recorded it in the
    /// attempt's folder before the mint started) into the run store.
    fn record_group(&self, store: &RunStore, row: &MintRow, dir: &Path) -> Result<(), MintError> {
        if row.mint_pgid.is_none() {
            if let Some(group) = lane_agent::agent::mint_group(dir) {
                store.set_mint_group(&row.id, group)?;
            }
        }
        Ok(())
    }

    /// Starts an agent for an attempt already submitted, when fewer than
    /// `concurrency` hold a place (`running`); says whether it did.
    fn respawn(
        &self,
        store: &RunStore,
        id: &MintId,
        timeout: Duration,
        (children, spawned): (
            &mut HashMap<String, Child>,
            &mut std::collections::HashSet<String>,
        ),
        running: &mut usize,
        wake: &std::sync::mpsc::Sender<Wake>,
    ) -> Result<bool, MintError> {
        if *running >= self.concurrency.max(1) {
            return Ok(false);
        }
        let mut child = self.spawn_agent(id, timeout, wake)?;
        say_go(child.stdin.take());
        // As `submit` does: until it claims, its pid says it is starting.
        store.set_pid(id, child.id())?;
        spawned.insert(id.to_string());
        children.insert(id.to_string(), child);
        *running += 1;
        Ok(true)
    }

    /// Records that lane's own part of an attempt failed in this run: its
    /// slot stays open (not crashed, not failed, no retry spent).
    fn fault(
        &self,
        faults: &mut BTreeMap<String, String>,
        id: &MintId,
        why: String,
        on: &mut dyn FnMut(Progress),
    ) {
        warn!(mint = %id, %why, "lane could not finish gathering this mint; the next `lane mint` finishes it");
        on(Progress::State {
            mint: id.to_string(),
            state: format!(
                "ended, but lane could not gather it (lane's fault, kept for the next run): {why}"
            ),
        });
        faults.insert(id.slot().to_string(), why);
    }

    /// Asks every agent of the lane to stop (SIGTERM: it kills its mint's
    /// process group and releases its claim), then kills what is left.
    fn stop_agents(
        &self,
        store: &RunStore,
        children: &mut HashMap<String, Child>,
    ) -> Result<(), MintError> {
        use nix::sys::signal::{kill, killpg, Signal};
        use nix::unistd::Pid;
        let mut pids: Vec<u32> = children.values().map(Child::id).collect();
        let mut dirs = Vec::new();
        for row in store.rows()? {
            if row.state == MintState::Submitted {
                let dir = row
                    .mint_dir
                    .clone()
                    .unwrap_or_else(|| self.mint_dir(&row.id));
                pids.extend(live_claim(&dir));
                dirs.push(dir);
            }
        }
        pids.sort_unstable();
        pids.dedup();
        for pid in &pids {
            warn!(pid, "stopping an agent");
            let _ = kill(Pid::from_raw(*pid as i32), Signal::SIGTERM);
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while std::time::Instant::now() < deadline && pids.iter().any(|p| pid_alive(*p)) {
            children.retain(|_, c| !matches!(c.try_wait(), Ok(Some(_))));
            std::thread::sleep(Duration::from_millis(20));
        }
        for pid in &pids {
            if pid_alive(*pid) {
                let _ = killpg(Pid::from_raw(*pid as i32), Signal::SIGKILL);
            }
        }
        for (_, mut c) in children.drain() {
            let _ = c.wait();
        }
        // An agent that had to be killed (it did not stop within the grace)
        // left its claim: lane stopped it on purpose, so the attempt did not
        // crash; released, a later run starts it afresh, as it does one the
        // agent released itself.
        for dir in &dirs {
            // Each agent ends its mint's group when stopped; one killed
            // before it could leaves its mint running: ended here.
            end_orphaned_mint(dir)?;
            if live_claim(dir).is_none() && read_result(dir).is_none() {
                let _ = std::fs::remove_file(dir.join(file::AGENT_LOCK));
            }
        }
        Ok(())
    }

    fn submit(
        &self,
        store: &RunStore,
        id: &MintId,
        timeout: Duration,
        wake: &std::sync::mpsc::Sender<Wake>,
    ) -> Result<Child, MintError> {
        let dir = self.mint_dir(id);
        std::fs::create_dir_all(&dir).map_err(|source| MintError::Io {
            path: dir.clone(),
            source,
        })?;
        // Persist first: a lane killed right after this line re-attaches.
        store.mark_submitted(id, &dir)?;
        self.spawn_agent(id, timeout, wake).and_then(|child| {
            store.set_pid(id, child.id())?;
            Ok(child)
        })
    }

    /// Starts a driven agent (`lane agent --driven`): it prepares, then
    /// waits for its word on the returned child's stdin; its `over` wakes
    /// the loop through `wake`.
    fn spawn_agent(
        &self,
        id: &MintId,
        timeout: Duration,
        wake: &std::sync::mpsc::Sender<Wake>,
    ) -> Result<Child, MintError> {
        use std::os::unix::process::CommandExt;
        let cell = self.cell(&id.cell).expect("planned from the lane's cells");
        let dir = self.mint_dir(id);
        let (program, lead) = self.agent.split_first().expect("an agent program");
        let mut cmd = Command::new(program);
        cmd.args(lead)
            .arg("--mint-dir")
            .arg(&dir)
            .arg("--id")
            .arg(id.to_string())
            .arg("--recipe")
            .arg(cell.recipe.as_str())
            .arg("--timeout-s")
            .arg(timeout.as_secs().to_string())
            .arg("--driven");
        if let Some(w) = &self.wheel {
            cmd.arg("--wheel").arg(w);
        }
        if let Some(s) = &self.store {
            cmd.arg("--store").arg(s);
        }
        if let Some(r) = &cell.report {
            cmd.arg("--report").arg(r.as_str());
        }
        if let Some(s) = &self.source {
            cmd.arg("--source").arg(s);
        }
        for (k, v) in &cell.env {
            cmd.arg("--env").arg(format!("{k}={v}"));
        }
        cmd.arg("--").args(&cell.command);
        let log =
            std::fs::File::create(dir.join(file::AGENT_LOG)).map_err(|source| MintError::Io {
                path: dir.join(file::AGENT_LOG),
                source,
            })?;
        let log2 = log.try_clone().map_err(|source| MintError::Io {
            path: dir.join(file::AGENT_LOG),
            source,
        })?;
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log2)
            .process_group(0)
            .spawn()
            .map_err(|source| MintError::Spawn {
                program: program.clone(),
                source,
            })?;
        if let Some(stdout) = child.stdout.take() {
            watch_over(id.to_string(), stdout, log, wake.clone());
        }
        info!(mint = %id, pid = child.id(), "agent started");
        Ok(child)
    }

    /// Says an attempt finished; it is recorded by [`Self::record_finished`].
    fn said_finished(
        &self,
        row: &MintRow,
        result: lane_core::AgentResult,
        on: &mut dyn FnMut(Progress),
    ) -> (MintRow, lane_core::AgentResult) {
        on(Progress::Finished {
            mint: row.id.to_string(),
            status: result.outcome,
            wall_s: result.wall_s,
            reason: result.reason.clone(),
        });
        (row.clone(), result)
    }

    /// Records an attempt's result in the run store, then decides its retry.
    fn record_finished(
        &self,
        store: &RunStore,
        row: &MintRow,
        result: &lane_core::AgentResult,
        on: &mut dyn FnMut(Progress),
    ) -> Result<(), MintError> {
        let json = String::from_utf8(result.to_json()).expect("JSON is UTF-8");
        self.finish_and_decide(
            store,
            &row.id,
            (result.outcome, &result.reason, result.wall_s, &json),
            on,
        )
    }

    /// Records an attempt's end and decides its retry, in one commit.
    fn finish_and_decide(
        &self,
        store: &RunStore,
        id: &MintId,
        (outcome, reason, wall_s, json): (MintStatus, &str, Option<f64>, &str),
        on: &mut dyn FnMut(Progress),
    ) -> Result<(), MintError> {
        let policy = &self.lane.mint.as_ref().expect("checked").retry;
        // Attempts lane ended itself spent none of the budget.
        let spent_by_lane = store.ended_by_lane_before(id)?;
        let decision = retry(outcome, id.attempt - spent_by_lane, policy);
        let next = match decision {
            RetryDecision::No => None,
            RetryDecision::Now => Some(None),
            RetryDecision::After { seconds } => Some(Some(now() + seconds as f64)),
        };
        store.mark_finished(id, outcome, reason, wall_s, json, next)?;
        if decision != RetryDecision::No {
            on(Progress::Retry {
                mint: id.to_string(),
                decision,
            });
        }
        Ok(())
    }

    /// Gathers again every slot recorded as gathered whose results folder
    /// lost part of what was gathered (its record, its report, a cell),
    /// from the attempt's folder, else from its bundle in the store; where
    /// neither holds it any more, the slot is opened again and minted anew.
    /// Each says so. Without this a rerun said green over a slot whose cell
    /// was gone.
    fn repair_gathered(
        &self,
        store: &RunStore,
        slots: &std::collections::HashSet<String>,
        on: &mut dyn FnMut(Progress),
    ) -> Result<(), MintError> {
        let rows = store.rows()?;
        let results = layout::results_dir(&self.out);
        for row in latest_per_slot(&rows).values() {
            if row.state != MintState::Gathered || !slots.contains(&row.id.slot().to_string()) {
                continue;
            }
            let Some(json) = store.result_json(&row.id)? else {
                continue;
            };
            let Ok(result) = lane_core::AgentResult::from_json(file::RESULT, json.as_bytes())
            else {
                continue;
            };
            let slot = layout::slot_dir(&results, &row.id.cell, &row.id.gpu, row.id.repeat);
            let attempt = row
                .mint_dir
                .clone()
                .unwrap_or_else(|| self.mint_dir(&row.id));
            let record = <lane_core::MintRecord as lane_core::results::Contract>::FILE;
            let missing = if slot.join(record).is_file() {
                crate::gather::missing_from(&slot, &result)
            } else {
                Some(record.to_owned())
            };
            let Some(missing) = missing else {
                continue;
            };
            if crate::gather::missing_from(&attempt, &result).is_some() {
                // The attempt's own copy is gone too: its bundle in the store.
                if let Some(location) = &self.store {
                    let restored = lane_store::open(location)
                        .map_err(|e| MintError::ArtifactStore {
                            what: format!("opening {location}"),
                            source: e,
                        })
                        .and_then(|store| {
                            crate::collect::restore_attempt(
                                store.as_ref(),
                                &row.id,
                                None,
                                &attempt,
                                &crate::collect::FetchLimits::default(),
                            )
                        });
                    if let Err(e) = restored {
                        warn!(mint = %row.id, error = %lane_core::chain(&e), "the attempt's bundle could not be restored from the store");
                    }
                }
            }
            if crate::gather::missing_from(&attempt, &result).is_some() {
                // Nothing holds it any more: the slot is minted again (its
                // earlier attempt kept), never left counted as minted.
                let next = row.id.next_attempt();
                warn!(mint = %row.id, %missing, "a gathered result is lost, from its results, its attempt folder and the store; minting the slot again");
                on(Progress::State {
                    mint: row.id.to_string(),
                    state: format!(
                        "its gathered result lost {missing}, and neither its attempt folder nor the store holds it: minted again as {next}"
                    ),
                });
                let _ = std::fs::remove_dir_all(&slot);
                store.reopen(&row.id, &next)?;
                continue;
            }
            info!(mint = %row.id, %missing, "gathering again a result that lost part of what was gathered");
            on(Progress::State {
                mint: row.id.to_string(),
                state: format!("gathered again: its results folder had lost {missing}"),
            });
            self.gather_row(store, row, &rows)?;
        }
        Ok(())
    }

    fn gather_row(
        &self,
        store: &RunStore,
        row: &MintRow,
        all: &[MintRow],
    ) -> Result<(), MintError> {
        let Some(json) = store.result_json(&row.id)? else {
            return store.mark_gathered(&row.id);
        };
        let dir = row
            .mint_dir
            .clone()
            .unwrap_or_else(|| self.mint_dir(&row.id));
        let walls: Vec<f64> = all
            .iter()
            .filter(|r| r.id.slot().to_string() == row.id.slot().to_string())
            .filter_map(|r| r.wall_s)
            .collect();
        // Every row is of a planned slot, so its cell is in the lane file.
        let Some(slot) = crate::gather::SlotFacts::of(self.lane, &row.id.cell, &row.id.gpu) else {
            return Ok(());
        };
        match lane_core::AgentResult::from_json(file::RESULT, json.as_bytes()) {
            Ok(result) => {
                let wall = result.wall_s;
                gather(
                    &layout::results_dir(&self.out),
                    &dir,
                    &result,
                    wall,
                    None,
                    slot.clone(),
                    walls,
                )?;
            }
            Err(_) => {
                // The agent left no result (it vanished): record that, with no report.
                let result = lane_agent::agent::without_result(
                    row.id.clone(),
                    row.outcome.unwrap_or(MintStatus::Crashed),
                    row.reason.clone().unwrap_or_default(),
                    "no agent result",
                    String::new(),
                );
                gather(
                    &layout::results_dir(&self.out),
                    &dir,
                    &result,
                    row.wall_s,
                    None,
                    slot.clone(),
                    walls,
                )?;
            }
        }
        store.mark_gathered(&row.id)
    }

    fn summary(&self, store: &RunStore) -> Result<Summary, MintError> {
        let rows = store.rows()?;
        let slots: std::collections::HashSet<String> = self
            .lane
            .plan()
            .iter()
            .map(|p| p.id.slot().to_string())
            .chain(self.whole_matrix.iter().cloned())
            .collect();
        let mut latest = latest_per_slot(&rows);
        latest.retain(|slot, _| slots.contains(slot));
        let mut mints = Vec::new();
        let mut replay = false;
        for row in latest.values() {
            let walls: Vec<f64> = rows
                .iter()
                .filter(|r| r.id.slot().to_string() == row.id.slot().to_string())
                .filter_map(|r| r.wall_s)
                .collect();
            let total = (!walls.is_empty()).then(|| walls.iter().sum());
            if let Some(json) = store.result_json(&row.id)? {
                replay |= lane_core::AgentResult::from_json(file::RESULT, json.as_bytes())
                    .is_ok_and(|r| r.replay);
            }
            mints.push(SlotSummary {
                slot: row.id.slot().to_string(),
                attempt: row.id.attempt,
                status: row.outcome.unwrap_or(MintStatus::Crashed),
                reason: row.reason.clone().unwrap_or_default(),
                wall_s: total,
                job_s: None,
            });
        }
        Ok(Summary::of(
            self.lane.version.to_string(),
            mints,
            replay,
            &self.provenance,
            self.stop.load(Ordering::SeqCst),
        ))
    }
}

/// A slot `reopen` re-opened (or would, on a dry run).
#[derive(Debug, Clone, Serialize)]
pub struct Reopened {
    /// The slot, `<lane>/<cell>/<gpu>/r<N>`.
    pub slot: String,
    /// Its last attempt, kept in the run store and in the slot's record.
    pub closed: String,
    /// How that attempt ended.
    pub status: Option<MintStatus>,
    /// Why, in words.
    pub reason: String,
    /// The attempt planned now: the next `lane mint` runs it.
    pub planned: String,
}

/// Re-opens `slots` (`<cell>/<gpu>/r<N>`, or with the lane in front) of
/// the lane whose run lives in `out` on purpose: each slot's last attempt
/// is kept (its row, its folder, its seconds in the slot's record) and the
/// next attempt is planned, so the next `lane mint` runs it whatever the
/// last one's status (`failed` and `refused` are never retried on their
/// own). A slot whose last attempt is still open (planned, or submitted:
/// running or its gathering unfinished) is refused. `dry_run`: said,
/// nothing written.
pub fn reopen(
    lane: &LaneFile,
    out: &Path,
    slots: &[String],
    dry_run: bool,
) -> Result<Vec<Reopened>, MintError> {
    let path = layout::runs_db(out);
    if !path.is_file() {
        return Err(MintError::NeverMinted { path });
    }
    let store = RunStore::open(&path)?;
    let planned: Vec<String> = lane
        .plan()
        .iter()
        .map(|p| p.id.slot().to_string())
        .collect();
    let latest = latest_per_slot(&store.rows()?);
    let mut done = Vec::new();
    for asked in slots {
        let slot = if asked.starts_with(&format!("{}/", lane.version)) {
            asked.clone()
        } else {
            format!("{}/{asked}", lane.version)
        };
        if !planned.contains(&slot) {
            return Err(MintError::UnknownSlot {
                slot: asked.clone(),
                lane: lane.version.to_string(),
            });
        }
        let Some(row) = latest.get(&slot) else {
            return Err(MintError::SlotOpen {
                slot,
                attempt: "a1".into(),
                state: "not started",
            });
        };
        if matches!(row.state, MintState::Planned | MintState::Submitted) {
            return Err(MintError::SlotOpen {
                slot,
                attempt: format!("a{}", row.id.attempt),
                state: row.state.name(),
            });
        }
        let next = row.id.next_attempt();
        if !dry_run {
            store.reopen(&row.id, &next)?;
        }
        done.push(Reopened {
            slot,
            closed: row.id.to_string(),
            status: row.outcome,
            reason: row.reason.clone().unwrap_or_default(),
            planned: next.to_string(),
        });
    }
    Ok(done)
}

/// The latest attempt of every slot.
pub fn latest_per_slot(rows: &[MintRow]) -> BTreeMap<String, MintRow> {
    let mut latest: BTreeMap<String, MintRow> = BTreeMap::new();
    for r in rows {
        let slot = r.id.slot().to_string();
        match latest.get(&slot) {
            Some(l) if l.id.attempt >= r.id.attempt => {}
            _ => {
                latest.insert(slot, r.clone());
            }
        }
    }
    latest
}

/// Whether the agent recorded for `row` is alive: the same pid AND start
/// time (a reused pid is another process).
fn agent_alive(row: &MintRow) -> bool {
    row.pid.is_some_and(|pid| {
        lane_agent::procs::Proc {
            pid,
            start: row.agent_start,
        }
        .alive()
    })
}

/// Why an agent left no result, from the last `error:` line of its log
/// (which a full disk may have kept from being written).
fn agent_log_error(dir: &Path) -> String {
    std::fs::read_to_string(dir.join(file::AGENT_LOG))
        .ok()
        .and_then(|log| {
            log.lines()
                .rev()
                .find_map(|l| l.strip_prefix("error: ").map(str::to_owned))
        })
        .unwrap_or_else(|| "its agent left no result and no error (see agent.log)".to_owned())
}
