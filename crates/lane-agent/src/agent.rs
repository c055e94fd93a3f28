//! The agent: wraps ONE mint where it runs (a local child process now, a pod
//! later). It claims the mint's folder (so no mint is ever run twice),
//! prepares fresh empty compile caches and a `TORCH_TRACE` folder, runs the
//! mint command in its own process group with a timeout, classifies how it
//! ended, fingerprints the artifacts, and writes one `result.json` as its
//! last act (atomically), which is what the backends gather.

use lane_core::layout::file;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tracing::{info, warn};

use crate::error::AgentError;
use crate::isolate::WAIT_FOR_GO;
use crate::outcome::classify_with_cells;
use crate::procs::Proc;
use lane_core::chain;
use lane_core::results::Contract;
use lane_core::{AgentResult, FileFingerprint, MintId};
use lane_core::{MintStatus, ProcessEnd, ReportState};

/// What the agent is asked to do.
#[derive(Debug, Clone)]
pub struct AgentSpec {
    /// The attempt.
    pub id: MintId,
    /// The cell's recipe (`dynamo`/`aot`), checked against the report's echo.
    pub recipe: String,
    /// The attempt's working folder (created; must not be claimed by a live agent).
    pub mint_dir: PathBuf,
    /// The mint command and its arguments.
    pub command: Vec<String>,
    /// Extra environment.
    pub env: BTreeMap<String, String>,
    /// Seconds before the process group is killed.
    pub timeout: Duration,
    /// A wheel to install into an isolated environment first (`uv`).
    pub wheel: Option<WheelSource>,
    /// The artifact store the result bundle goes to (`lane_store::open` location).
    pub store: Option<String>,
    /// The named run the bundle belongs to (Kubernetes), if any: see
    /// [`lane_core::layout::lane_prefix`].
    pub run: Option<String>,
    /// Where the mint writes its report, relative to the mint folder
    /// (default `report.json`, given to the mint as `$LANE_REPORT_PATH`).
    pub report: Option<String>,
    /// The upstream's source tree, given to the mint as `$LANE_SOURCE_DIR`.
    pub source: Option<crate::source::SourceTree>,
    /// The largest artifact gathered from what the report's `artifact` names.
    pub max_artifact_bytes: u64,
    /// Set (by a signal handler the caller installs) to stop: the mint's
    /// process group is killed, the claim released and no result written, so
    /// the next `lane mint` starts this attempt afresh.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The agent runs one attempt per container (a pod): the container's
    /// `/tmp` is the attempt's own, and no private mount namespace is made.
    pub container_per_attempt: bool,
    /// Driven by `lane mint`'s run loop (the local backend), which starts
    /// agents ahead of a free place: everything is prepared, then the agent
    /// waits for the loop's word (`go`, a line on its stdin) before the
    /// mint starts, and says `over` (a line on its stdout) once no process
    /// of the mint's group is left, before lane gathers anything. A stdin
    /// that ends first (the loop is gone) ends the attempt unstarted.
    pub driven: bool,
    /// How long the result bundle keeps being offered to a store that
    /// refuses it (an outage): the attempt's files stay on disk and the
    /// upload is tried again, backing off, until the store takes it or
    /// this window ends. A finished GPU mint is never given up for an
    /// outage shorter than this ([`DEFAULT_UPLOAD_WINDOW`]).
    pub upload_window: Duration,
}

/// The default [`AgentSpec::upload_window`]: ten minutes.
pub const DEFAULT_UPLOAD_WINDOW: Duration =
    Duration::from_secs(lane_core::results::UPLOAD_WINDOW_S);

impl AgentSpec {
    /// A spec with the defaults every backend starts from: no wheel, no
    /// store, no source tree, no extra environment, the report at
    /// `$LANE_REPORT_PATH`, the default artifact cap.
    pub fn new(
        id: MintId,
        recipe: lane_core::Recipe,
        mint_dir: PathBuf,
        command: Vec<String>,
        timeout: Duration,
    ) -> AgentSpec {
        AgentSpec {
            id,
            recipe: recipe.as_str().to_owned(),
            mint_dir,
            command,
            env: BTreeMap::new(),
            timeout,
            wheel: None,
            store: None,
            run: None,
            report: None,
            source: None,
            max_artifact_bytes: crate::report::DEFAULT_MAX_ARTIFACT_BYTES,
            stop: None,
            container_per_attempt: false,
            upload_window: DEFAULT_UPLOAD_WINDOW,
            driven: false,
        }
    }
}

/// Where the agent gets the wheel it installs before the mint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WheelSource {
    /// A file on this machine (the local backend).
    File(PathBuf),
    /// A presigned URL of the staged wheel (a pod), checked against its
    /// sha256 before anything is installed.
    Url {
        /// The URL (a bearer secret until it expires: never logged whole).
        url: String,
        /// The wheel's sha256, hex (from the staged manifest).
        sha256: String,
    },
}

/// The largest wheel the agent downloads (GPU wheels are big, not this big).
pub const MAX_WHEEL_BYTES: u64 = 4 << 30;

/// The record of an attempt whose agent left no result (it vanished,
/// or its pod ended before its bundle): no report, no files, no seconds
/// (the caller passes the seconds it knows, or none, to `gather`).
pub fn without_result(
    id: MintId,
    outcome: MintStatus,
    reason: String,
    error: &str,
    stderr_tail: String,
) -> AgentResult {
    AgentResult {
        id,
        outcome,
        reason,
        end: ProcessEnd::SpawnFailed {
            error: error.to_owned(),
        },
        report: ReportState::Absent,
        wall_s: None,
        started_at: None,
        output_bytes: 0,
        stderr_tail,
        files: Vec::new(),
        replay: false,
        bundle: None,
        gathering: lane_core::Gathering::default(),
        environment: lane_core::EnvFingerprint::default(),
    }
}

/// Exit code of `lane agent` when another live agent holds the mint folder.
pub const EXIT_CLAIMED: i32 = 75;

const LOCK: &str = file::AGENT_LOCK;
/// The result file the agent writes last.
pub const RESULT: &str = file::RESULT;
/// The folder of the upstream's own ledger files the agent keeps beside the
/// report (gathered into the results folder and the bundle with it): the
/// compile pool's share reports (`ledger/compile-pool/share-NNN/report.json`,
/// gen-worker 0.114.3-0.126) and the `TORCH_TRACE` logs (`ledger/trace/`,
/// which survive `gen-worker compile`, 0.127 on).
pub const LEDGER_DIR: &str = lane_core::layout::file::LEDGER;

pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> AgentError + '_ {
    move |source| AgentError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Whether process `pid` is alive and not a zombie (Linux `/proc`).
pub fn pid_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// The pid holding the mint folder's claim, if the claimant is alive (the
/// claim names its pid and start time: a reused pid is not the claimant).
pub fn live_claim(mint_dir: &Path) -> Option<u32> {
    let claimant = Proc::read(&mint_dir.join(LOCK))?;
    claimant.alive().then_some(claimant.pid)
}

/// The file in the attempt's folder that records the mint's process group
/// (`<pgid> <start time>`), written and synced before the mint starts.
pub const MINT_GROUP: &str = file::MINT_GROUP;

/// The mint's process group, as its agent recorded it before the mint
/// started.
pub fn mint_group(mint_dir: &Path) -> Option<Proc> {
    Proc::read(&mint_dir.join(MINT_GROUP))
}

/// How long an orphaned mint group may take to go once killed.
const END_GROUP_WITHIN: Duration = Duration::from_secs(10);

/// Ends the mint of an attempt whose agent is gone, if it still runs
/// (`kill -9` of the agent leaves its mint running in a group of its own):
/// SIGKILL to its group, then waits until no member lives. Returns the
/// group ended, if one was running. Whoever starts another attempt of the
/// slot, or takes this folder over, calls it first, so no two attempts of
/// a slot ever run at once.
pub fn end_orphaned_mint(mint_dir: &Path) -> Result<Option<Proc>, AgentError> {
    let Some(group) = mint_group(mint_dir) else {
        return Ok(None);
    };
    if group.group_members().is_empty() {
        return Ok(None);
    }
    warn!(dir = %mint_dir.display(), pgid = group.pid, "ending an orphaned mint whose agent is gone");
    if group.end_group(END_GROUP_WITHIN) {
        Ok(Some(group))
    } else {
        Err(AgentError::Orphan {
            dir: mint_dir.to_owned(),
            pgid: group.pid,
        })
    }
}

/// Reads a finished attempt's result, if it wrote one.
pub fn read_result(mint_dir: &Path) -> Option<AgentResult> {
    let bytes = std::fs::read(mint_dir.join(RESULT)).ok()?;
    AgentResult::from_json(RESULT, &bytes).ok()
}

fn claim(mint_dir: &Path) -> Result<(), AgentError> {
    let lock = mint_dir.join(LOCK);
    loop {
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&lock)
        {
            Ok(mut f) => {
                // Not synced: a claim only says which live process holds
                // the folder, and after a power cut none does (an empty or
                // torn claim reads as no claimant).
                write!(f, "{}", Proc::me().to_line()).map_err(io(&lock))?;
                return Ok(());
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                if let Some(pid) = live_claim(mint_dir) {
                    return Err(AgentError::Claimed {
                        dir: mint_dir.to_owned(),
                        pid,
                    });
                }
                // A dead claimant: its attempt is over once its mint is
                // (ended here if it outlived its agent); take the folder over.
                end_orphaned_mint(mint_dir)?;
                warn!(dir = %mint_dir.display(), "taking over a claim whose agent is gone");
                std::fs::remove_file(&lock).map_err(io(&lock))?;
            }
            Err(e) => return Err(io(&lock)(e)),
        }
    }
}

fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// Runs one mint and writes its `result.json`. A mint folder that already
/// holds a result returns that result without running anything again.
pub fn run_agent(spec: &AgentSpec) -> Result<AgentResult, AgentError> {
    std::fs::create_dir_all(&spec.mint_dir).map_err(io(&spec.mint_dir))?;
    // Absolute: the mint runs with the folder as its working directory.
    let dir = &std::fs::canonicalize(&spec.mint_dir).map_err(io(&spec.mint_dir))?;
    claim(dir)?;
    let ran = run_claimed(spec, dir);
    if ran.is_err() {
        // Every error here is lane's own (the mint's faults are outcomes):
        // the claim is released without a result, so the attempt is
        // finished (after `ended.json`) or started afresh, never blamed.
        let _ = std::fs::remove_file(dir.join(LOCK));
    }
    ran
}

/// `run_agent` once the folder is claimed.
fn run_claimed(spec: &AgentSpec, dir: &Path) -> Result<AgentResult, AgentError> {
    if let Some(done) = read_result(dir) {
        let _ = std::fs::remove_file(dir.join(LOCK));
        return Ok(done);
    }
    // The mint ran and ended, but lane's gathering did not finish (its disk
    // was full, say): finish it, never run the mint again.
    if let Some(ended) = read_ended(dir) {
        info!(mint = %spec.id, "the mint ended earlier; finishing lane's gathering only");
        return release_unless_finished(dir, finish(spec, dir, ended));
    }
    let caches = [
        ("TORCHINDUCTOR_CACHE_DIR", dir.join("cache/inductor")),
        ("TRITON_CACHE_DIR", dir.join("cache/triton")),
        ("TORCH_TRACE", dir.join(LEDGER_DIR).join("trace")),
        ("LANE_ARTIFACTS_DIR", dir.join(file::ARTIFACTS)),
    ];
    for (_, p) in &caches {
        // Cold: every cache starts empty (a retried attempt gets a new folder anyway).
        if p.exists() {
            std::fs::remove_dir_all(p).map_err(io(p))?;
        }
        std::fs::create_dir_all(p).map_err(io(p))?;
    }
    let report_path = dir.join(spec.report.as_deref().unwrap_or(file::REPORT));
    let _ = std::fs::remove_file(&report_path);
    let _ = std::fs::remove_file(dir.join(file::REPORT));

    // A wheel that cannot be fetched, is not the staged one, or does not
    // install is the same on every retry: the attempt fails (and says why)
    // without running the mint.
    // A network failure on the way may pass: then there is no result, the
    // claim is released, and the agent exits 1, which its Job retries.
    let prepared: Result<Option<PathBuf>, String> = match &spec.wheel {
        None => Ok(None),
        Some(wheel) => {
            let file = match wheel {
                WheelSource::File(p) => Ok(p.clone()),
                WheelSource::Url { url, sha256 } => {
                    match crate::wheel::download(dir, url, sha256) {
                        Err(e) if e.is_transient() => {
                            let _ = std::fs::remove_file(dir.join(LOCK));
                            return Err(e);
                        }
                        other => other,
                    }
                }
            };
            file.and_then(|f| crate::wheel::install(dir, &f))
                .map(Some)
                .map_err(|e| format!("the wheel: {}", chain(&e)))
        }
    };

    let probe_prefix = prepared.as_ref().ok().cloned().flatten();
    let mut started_at = now();
    let mut start = Instant::now();
    let stdout_path = dir.join(file::STDOUT);
    let stderr_path = dir.join(file::STDERR);
    // The upstream's tree, for cells that run its rig: a folder as it is, or
    // the staged source archive, fetched, checked and unpacked (a pod).
    let source = match &spec.source {
        None => Ok(None),
        Some(tree) => match crate::source::prepare(tree, dir) {
            Err(e) if e.is_transient() => {
                let _ = std::fs::remove_file(dir.join(LOCK));
                return Err(e);
            }
            other => other
                .map(Some)
                .map_err(|e| format!("the source tree: {}", chain(&e))),
        },
    };
    // Cold means cold: the attempt's own roots and, where the machine
    // allows one, its own /tmp (`isolate`).
    let mut keep = vec![dir.to_owned()];
    if let Ok(Some(s)) = &source {
        keep.push(s.clone());
    }
    let named = crate::beside::named_paths(spec);
    keep.extend(crate::beside::kept_paths(&named));
    let mut isolation = crate::isolate::prepare(dir, &keep, spec.container_per_attempt)?;
    for (var, path) in &caches {
        isolation.watch(var, path.clone());
    }
    // The environment is probed while the mint runs: the probe reads a few
    // version files and never imports torch (`fingerprint`).
    let environment =
        crate::fingerprint::beside_the_mint(spec.wheel.clone(), probe_prefix, dir.to_owned());
    // Run under the first way of a private /tmp the attempt can enter (the
    // attempt is its own probe: `isolate::Prepared::run`).
    // Driven: the loop's word is waited for once, at the first way's gate.
    let mut waited = !spec.driven;
    let mut group_gone = false;
    let ran = isolation.run(dir, &stderr_path, |wrapper| {
        // The mint's logs are lane's files, made afresh for each try: one
        // that cannot be made is lane's fault, not a mint that "could not
        // start".
        let logs = [&stdout_path, &stderr_path].map(|p| std::fs::File::create(p).map_err(io(p)));
        let [out_log, err_log] = logs;
        let logs = [out_log?, err_log?];
        let spawned = match (&prepared, &source) {
            (Err(e), _) | (_, Err(e)) => Err(e.clone()),
            (Ok(path_prefix), Ok(source)) => spawn(
                spec,
                dir,
                &caches,
                &isolation.env,
                wrapper,
                &report_path,
                path_prefix.as_deref(),
                source.as_deref(),
                logs,
            )
            .map_err(|e| e.to_string()),
        };
        Ok(match spawned {
            Err(error) => Some(ProcessEnd::SpawnFailed { error }),
            Ok(mut child) => {
                if !waited {
                    waited = true;
                    if !go_from_the_run_loop() {
                        // The loop is gone before this attempt's turn: the
                        // gated wrapper ends without having run anything.
                        kill_group(child.id());
                        let _ = child.wait();
                        return Ok(None);
                    }
                    // An agent started ahead counts its mint from the word.
                    started_at = now();
                    start = Instant::now();
                }
                // lane's fault before the mint ran: released, no result.
                open_gate(dir, &mut child).inspect_err(|_| {
                    let _ = std::fs::remove_file(dir.join(LOCK));
                })?;
                let pgid = child.id();
                let end = wait(child, spec.timeout, spec.stop.as_deref());
                if spec.driven {
                    group_gone = until_the_group_is_gone(pgid);
                }
                end
            }
        })
    })?;
    if spec.driven && group_gone && ran.0.is_some() {
        // Its place is free: the loop may start the next mint while this
        // one is gathered. A loop that is gone does not read it. (A group
        // that outlived its kill keeps its place until the agent is gone.)
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(b"over\n").and_then(|()| out.flush());
    }
    let (end, isolation) = match ran {
        (Some(end), mut record) => {
            record.outside = crate::isolate::outside_the_attempt(&spec.env, &named, dir);
            (end, record)
        }
        (None, _) => {
            // Stopped: no result, claim released; the attempt runs again later.
            let _ = std::fs::remove_file(dir.join(LOCK));
            return Err(AgentError::Interrupted);
        }
    };
    let wall_s = start.elapsed().as_secs_f64();
    // The mint is over: what it did is recorded before lane touches any of
    // it, so a failure of lane's own from here on (a full disk, EIO, a
    // permission) never re-runs it: the next agent only finishes.
    let output_bytes = [&stdout_path, &stderr_path]
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let read = crate::report::read_report(&report_path, &spec.id.cell, &spec.recipe);
    let (outcome, reason) = crate::outcome::classify(&end, &read.state);
    let ended = AgentResult {
        id: spec.id.clone(),
        outcome,
        reason,
        end,
        report: read.state,
        wall_s: Some(wall_s),
        started_at: Some(started_at),
        output_bytes,
        stderr_tail: tail(&stderr_path, 4096),
        files: Vec::new(),
        replay: false,
        bundle: None,
        gathering: lane_core::Gathering {
            isolation: Some(isolation),
            ..lane_core::Gathering::default()
        },
        // A probe that panicked recorded nothing: absent, never made up.
        environment: environment.join().unwrap_or_default(),
    };
    let finished =
        write_atomically(dir, ENDED, &ended.to_json()).and_then(|()| finish(spec, dir, ended));
    release_unless_finished(dir, finished)
}

/// The record of a mint whose process ended, written (atomically) before
/// lane gathers anything of it: an `AgentResult` with the process's end,
/// its seconds and the report's word, and no cells yet. A folder that has
/// it and no `result.json` holds a mint that ran and a gathering of lane's
/// that did not finish (lane's fault, never the mint's): the next agent
/// only finishes it.
pub const ENDED: &str = file::ENDED;

/// Reads the record of a mint whose process ended, if it wrote one.
pub fn read_ended(mint_dir: &Path) -> Option<AgentResult> {
    let bytes = std::fs::read(mint_dir.join(ENDED)).ok()?;
    AgentResult::from_json(ENDED, &bytes).ok()
}

/// The claim is released when the agent could not finish (lane's own I/O
/// failed), so the next `lane mint` can finish the gathering.
fn release_unless_finished(
    dir: &Path,
    finished: Result<AgentResult, AgentError>,
) -> Result<AgentResult, AgentError> {
    if let Err(e) = &finished {
        warn!(dir = %dir.display(), error = %chain(e), "lane could not finish gathering a mint that ended; the next `lane mint` finishes it without running it again");
        let _ = std::fs::remove_file(dir.join(LOCK));
    }
    finished
}

/// Writes `name` in `dir` atomically (beside it, synced, renamed).
fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), AgentError> {
    write_renamed(dir, name, bytes, true)
}

/// Writes `name` in `dir` beside it, then renames it into place: readers
/// see the whole file or none; `sync` also makes it outlive a power cut.
fn write_renamed(dir: &Path, name: &str, bytes: &[u8], sync: bool) -> Result<(), AgentError> {
    let tmp = dir.join(format!("{name}.tmp"));
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(bytes)?;
        if sync {
            f.sync_all()?;
        }
        Ok(())
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(&tmp)(e));
    }
    std::fs::rename(&tmp, dir.join(name)).map_err(io(dir))
}

/// lane's part once the mint has ended (`ended`): the cells the report
/// names gathered into `artifacts/`, the outcome classified with them, the
/// files fingerprinted, the bundle stored, `result.json` written. Every
/// error it returns is lane's own I/O (the mint's outcome is in `ended`
/// and on disk); a mint's fault is the result's outcome.
fn finish(spec: &AgentSpec, dir: &Path, ended: AgentResult) -> Result<AgentResult, AgentError> {
    let report_path = dir.join(spec.report.as_deref().unwrap_or(file::REPORT));
    let read = crate::report::read_report(&report_path, &spec.id.cell, &spec.recipe);
    let end = ended.end;
    // Gathering and bundles read `report.json` in the mint folder: a report
    // written elsewhere is copied there (never over the limit it was read to).
    let canonical = dir.join(file::REPORT);
    if report_path != canonical && !matches!(read.state, ReportState::Absent) {
        let copied = std::fs::metadata(&report_path)
            .is_ok_and(|m| m.len() <= crate::report::REPORT_LIMIT)
            && std::fs::copy(&report_path, &canonical).is_ok();
        if !copied {
            warn!(report = %report_path.display(), "could not keep the report as report.json");
        }
    }
    // The cells are the files the report names: its `artifact`, each of its
    // `entries` (0.114 on), a compile verdict's graphs (0.127 on, packed
    // under the attempt's home, where `gen-worker compile` leaves them).
    let artifacts_dir = dir.join(file::ARTIFACTS);
    let own_files = std::fs::read_dir(&artifacts_dir).is_ok_and(|mut d| d.next().is_some());
    let artifact = read
        .artifact
        .as_deref()
        .map(|named| {
            crate::report::gather_artifact(
                dir,
                &artifacts_dir,
                crate::report::Named::artifact(named, read.digest.as_deref()),
                spec.max_artifact_bytes,
            )
        })
        .transpose()?;
    let mut entries = read
        .entries
        .iter()
        .map(|e| {
            crate::report::gather_artifact(
                dir,
                &artifacts_dir,
                crate::report::Named {
                    path: &e.path,
                    sha256: Some(&e.sha256),
                    key: Some(&e.key),
                    dest: None,
                },
                spec.max_artifact_bytes,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    // The attempt's home (`isolate`'s root for `HOME`).
    let home = dir.join(file::ISO).join("home");
    for graph in &read.verdict_graphs {
        let short: String = graph.chars().take(16).collect();
        let package = home
            .join(".cache/cozy/compiled-graphs")
            .join(short)
            .join("model.pt2");
        let dest = format!("{graph}.pt2");
        entries.push(crate::report::gather_artifact(
            dir,
            &artifacts_dir,
            crate::report::Named {
                path: &package.to_string_lossy(),
                sha256: None,
                key: Some(graph),
                dest: Some(&dest),
            },
            spec.max_artifact_bytes,
        )?);
    }
    let cells: Vec<&lane_core::ArtifactState> = artifact.iter().chain(entries.iter()).collect();
    // A repeat that resolved what it should have compiled is no cold
    // repeat, and another attempt given the same store would end the same
    // (failed, never retried); its cells are then not looked for.
    let (outcome, reason) = match crate::outcome::classify(&end, &read.state) {
        (MintStatus::Minted, reason) if !read.not_built.is_empty() && read.is_verdict => (
            MintStatus::Failed,
            format!(
                "{reason}, but {} specialization(s) were not built by this attempt: {}; it is not cold, and has no cell of its own for them",
                read.not_built.len(),
                read.not_built.join(", ")
            ),
        ),
        (MintStatus::Minted, reason) if !read.not_built.is_empty() => (
            MintStatus::Failed,
            format!(
                "{reason}, but {} graph class(es) were not compiled by this attempt: {}; it is not cold, and its cell holds graphs another compile made",
                read.not_built.len(),
                read.not_built.join(", ")
            ),
        ),
        _ => classify_with_cells(&end, &read.state, &cells, own_files),
    };
    let mut notes = read.notes;
    // What the report itself said, before lane checked its cells.
    let report_minted = crate::outcome::classify(&end, &read.state).0 == MintStatus::Minted;
    notes.extend(crate::beside::findings_to_note(
        &end,
        report_minted,
        ended.gathering.isolation.as_ref(),
        !read.entries.is_empty(),
    ));
    crate::beside::keep_ledger_files(&report_path, dir);
    let files = fingerprint(&artifacts_dir)?;
    let replay = spec.env.get("LANE_REPLAY").is_some_and(|v| v == "1");
    let mut result = AgentResult {
        outcome,
        reason,
        end,
        report: read.state,
        files,
        replay,
        gathering: lane_core::Gathering {
            artifact,
            entries,
            notes,
            ..ended.gathering
        },
        ..ended
    };
    if let Some(location) = &spec.store {
        result.bundle = Some(offer_bundle(spec, location, dir, &result));
        if let Some(lane_core::BundleState::Failed { key, error }) = &result.bundle {
            warn!(mint = %spec.id, %key, %error, "the result bundle did not reach the store");
        }
    }
    write_atomically(dir, RESULT, &result.to_json())?;
    let _ = std::fs::remove_file(dir.join(LOCK));
    info!(mint = %spec.id, outcome = ?result.outcome, wall_s = ?result.wall_s, "mint ended");
    Ok(result)
}

/// Puts the attempt's bundle in the store at `location`, trying again
/// while the store refuses it, until [`AgentSpec::upload_window`] ends or
/// the agent is stopped. Each try is whole or nothing (the store is
/// write-once and a file already there with the same bytes counts as
/// stored), so a try cut short by the outage is simply made again.
fn offer_bundle(
    spec: &AgentSpec,
    location: &str,
    dir: &Path,
    result: &AgentResult,
) -> lane_core::BundleState {
    let started = std::time::Instant::now();
    let mut pause = Duration::from_millis(250);
    let mut tries = 0u32;
    loop {
        tries += 1;
        let state = match lane_store::open(location) {
            Ok(store) => {
                crate::bundle::write_bundle(store.as_ref(), spec.run.as_deref(), dir, result)
            }
            Err(e) => lane_core::BundleState::Failed {
                key: lane_core::layout::bundle_key(&spec.id, spec.run.as_deref()),
                error: format!("cannot open the store: {}", lane_core::chain(&e)),
            },
        };
        let lane_core::BundleState::Failed { key, error } = &state else {
            if tries > 1 {
                info!(mint = %spec.id, tries, waited_s = started.elapsed().as_secs_f64(), "the store took the result bundle");
            }
            return state;
        };
        let stopped = spec
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst));
        let left = spec.upload_window.saturating_sub(started.elapsed());
        if stopped || left.is_zero() {
            return lane_core::BundleState::Failed {
                key: key.clone(),
                error: format!(
                    "{error} (the store refused it {tries} time(s) over {:.0} s, the upload window)",
                    started.elapsed().as_secs_f64()
                ),
            };
        }
        warn!(mint = %spec.id, %key, %error, tries, "the store refused the result bundle; trying again");
        std::thread::sleep(pause.min(left));
        pause = (pause * 2).min(Duration::from_secs(15));
    }
}

#[allow(clippy::too_many_arguments)]
fn spawn(
    spec: &AgentSpec,
    dir: &Path,
    caches: &[(&str, PathBuf)],
    roots: &[(&'static str, PathBuf)],
    wrapper: &[String],
    report_path: &Path,
    path_prefix: Option<&Path>,
    source: Option<&Path>,
    [stdout, stderr]: [std::fs::File; 2],
) -> std::io::Result<std::process::Child> {
    use std::os::unix::process::CommandExt;
    if spec.command.is_empty() {
        return Err(std::io::Error::other("empty mint command"));
    }
    // The gate: the group's leader waits for the agent's word (a line on
    // its stdin) before it becomes the mint, so the group is recorded
    // before the mint starts; an agent gone before that closes the pipe and
    // the mint never starts. A private /tmp's wrapper is its own gate (one
    // process fewer per attempt).
    let command: Vec<String> = if wrapper.is_empty() {
        [
            "sh",
            "-c",
            &format!("{WAIT_FOR_GO}; exec \"$@\" </dev/null"),
            "lane-mint-gate",
        ]
        .map(str::to_owned)
        .into_iter()
        .chain(spec.command.iter().cloned())
        .collect()
    } else {
        wrapper.iter().chain(&spec.command).cloned().collect()
    };
    let (program, args) = command
        .split_first()
        .ok_or_else(|| std::io::Error::other("empty mint command"))?;
    let mut cmd = Command::new(program);
    // Built from an allow list, never from lane's own environment
    // (`mint_env`): what lane holds is not the mint's to read.
    crate::mint_env::from_allow_list(&mut cmd)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(stderr)
        .process_group(0)
        .env("LANE_REPORT_PATH", report_path)
        .env("LANE_MINT_ID", spec.id.to_string())
        .env("LANE_CELL", &spec.id.cell)
        .env("LANE_GPU", &spec.id.gpu)
        .env("LANE_REPEAT", spec.id.repeat.to_string())
        .env("LANE_RECIPE", &spec.recipe);
    // The mint runs as the agent's uid: keep it from reading the agent's own
    // environment through /proc/<agent>/environ (a non-dumpable process's
    // /proc files belong to root).
    if let Err(e) = nix::sys::prctl::set_dumpable(false) {
        warn!(error = %e, "could not make the agent non-dumpable");
    }
    for (k, p) in caches.iter().chain(roots) {
        cmd.env(k, p);
    }
    if let Some(source) = source {
        cmd.env("LANE_SOURCE_DIR", source);
    }
    if let Some(prefix) = path_prefix {
        let old = std::env::var_os("PATH").unwrap_or_default();
        let mut paths = vec![prefix.to_owned()];
        paths.extend(std::env::split_paths(&old));
        cmd.env(
            "PATH",
            std::env::join_paths(paths).map_err(std::io::Error::other)?,
        );
    }
    cmd.envs(&spec.env);
    cmd.spawn()
}

/// Records the mint's process group in its folder, then lets it start.
/// An error is lane's own (the record could not be written): the gated
/// mint is ended without having run.
fn open_gate(dir: &Path, child: &mut std::process::Child) -> Result<(), AgentError> {
    let group = Proc::of(child.id());
    // Renamed into place but not synced: the record serves to end a mint
    // that outlived its agent, and no mint outlives a power cut.
    let recorded = write_renamed(dir, MINT_GROUP, group.to_line().as_bytes(), false);
    if let Err(e) = recorded {
        kill_group(child.id());
        let _ = child.wait();
        return Err(e);
    }
    if let Some(mut gate) = child.stdin.take() {
        // A gate that is gone already shows in how the child ended.
        let _ = gate.write_all(b"go\n");
    }
    Ok(())
}

/// Waits for the run loop's word on stdin: `go` lets the mint start; an
/// end of input (the loop is gone) or anything else does not.
fn go_from_the_run_loop() -> bool {
    let mut line = String::new();
    matches!(std::io::stdin().read_line(&mut line), Ok(n) if n > 0) && line.trim_end() == "go"
}

/// How long the rest of a mint's group may take to go once killed.
const GROUP_GONE_WITHIN: Duration = Duration::from_secs(5);

/// Waits until no process of group `pgid` is left (the leader is reaped
/// and the rest was killed): a killed process closes its files a moment
/// before it is gone, and the next mint must not start beside one still
/// exiting. False when one outlived [`GROUP_GONE_WITHIN`].
fn until_the_group_is_gone(pgid: u32) -> bool {
    let group = nix::unistd::Pid::from_raw(pgid as i32);
    let deadline = Instant::now() + GROUP_GONE_WITHIN;
    // Without a reaping init, zombies of the group stay: only the live
    // members count (looked for when the kernel still knows the group).
    let members = Proc::parse(&pgid.to_string());
    while nix::sys::signal::killpg(group, None).is_ok() {
        if members.is_none_or(|g| g.group_members().is_empty()) {
            return true;
        }
        if Instant::now() >= deadline {
            warn!(pgid, "a process of the mint's group outlived its kill; it keeps its place until the agent is gone");
            return false;
        }
        kill_group(pgid);
        std::thread::sleep(Duration::from_millis(1));
    }
    true
}

fn kill_group(pid: u32) {
    let pgid = nix::unistd::Pid::from_raw(pid as i32);
    let _ = nix::sys::signal::killpg(pgid, nix::sys::signal::Signal::SIGKILL);
}

fn wait(
    mut child: std::process::Child,
    timeout: Duration,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Option<ProcessEnd> {
    use std::os::unix::process::ExitStatusExt;
    use std::sync::mpsc::RecvTimeoutError;
    let pid = child.id();
    // Block on the child in a thread so its end is seen at once (no polling
    // latency on every mint); the timeout and the stop flag on a channel.
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let r = child.wait();
        let _ = tx.send(r);
    });
    let start = Instant::now();
    let end = loop {
        let left = timeout.saturating_sub(start.elapsed());
        match rx.recv_timeout(left.min(Duration::from_millis(50))) {
            Ok(Ok(status)) => {
                break Some(match (status.code(), status.signal()) {
                    (Some(code), _) => ProcessEnd::Exited { code },
                    (None, Some(signal)) => ProcessEnd::Signaled { signal },
                    (None, None) => ProcessEnd::Exited { code: -1 },
                })
            }
            Ok(Err(e)) => {
                break Some(ProcessEnd::SpawnFailed {
                    error: e.to_string(),
                })
            }
            Err(RecvTimeoutError::Disconnected) => break Some(ProcessEnd::Exited { code: -1 }),
            Err(RecvTimeoutError::Timeout) => {
                if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst)) {
                    kill_group(pid);
                    let _ = rx.recv();
                    break None;
                }
                if start.elapsed() >= timeout {
                    kill_group(pid);
                    let _ = rx.recv();
                    break Some(ProcessEnd::TimedOut {
                        after_s: timeout.as_secs(),
                    });
                }
            }
        }
    };
    // Reap whatever the mint left running in its group.
    kill_group(pid);
    let _ = waiter.join();
    end
}

fn tail(path: &Path, max: u64) -> String {
    let Ok(mut f) = std::fs::File::open(path) else {
        return String::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    if len > max {
        use std::io::Seek;
        let _ = f.seek(std::io::SeekFrom::Start(len - max));
    }
    let mut buf = Vec::new();
    let _ = f.read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// Fingerprints every file under `root` (sorted by path).
pub fn fingerprint(root: &Path) -> Result<Vec<FileFingerprint>, AgentError> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries {
            let e = e.map_err(io(&dir))?;
            let p = e.path();
            let ft = e.file_type().map_err(io(&p))?;
            if ft.is_dir() {
                stack.push(p);
            } else if ft.is_file() {
                let mut f = std::fs::File::open(&p).map_err(io(&p))?;
                let mut h = Sha256::new();
                let mut buf = vec![0u8; 1 << 16];
                let mut size = 0u64;
                loop {
                    let n = f.read(&mut buf).map_err(io(&p))?;
                    if n == 0 {
                        break;
                    }
                    size += n as u64;
                    h.update(&buf[..n]);
                }
                let rel = p
                    .strip_prefix(root)
                    .unwrap_or(&p)
                    .to_string_lossy()
                    .into_owned();
                out.push(FileFingerprint {
                    path: rel,
                    size,
                    sha256: format!("{:x}", h.finalize()),
                });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}
