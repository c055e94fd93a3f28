//! Gathering a lane whose mints ran elsewhere (Kubernetes pods): each
//! attempt's result came back as one bundle in the artifact store
//! (`lanes/<lane>/mints/<cell>/<gpu>/r<N>/a<M>/bundle.zip`). Every slot's
//! bundles are read, the last attempt's is unpacked into
//! `<out>/mints/<cell>/<gpu>/r<N>/a<M>/` and gathered into the results
//! folder exactly as the local backend gathers (same `mint.json`, same
//! `summary.json`), with the seconds of every attempt (retries cost too).
//!
//! A slot that left no bundle at all (its pod never started, was killed
//! before the agent wrote anything, or the Job hit its deadline) is not
//! dropped: it is recorded as crashed, with what the caller knows of it
//! ([`NoBundle`]: the Job's reason, its seconds, the pod log's tail).

use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

use lane_file::LaneFile;
use lane_store::{ArtifactStore, StoreKey};
use tracing::warn;

use crate::error::MintError;
use crate::gather::{gather, write_summary};
use lane_agent::bundle::{bundle_key, MAX_BUNDLED_FILE};
use lane_core::results::Contract;
use lane_core::AgentResult;
use lane_core::BundleState;
use lane_core::MintId;
use lane_core::{MintStatus, ReportState};
use lane_core::{SlotSummary, Summary};

/// What the caller knows of a slot that left no bundle in the store.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NoBundle {
    /// Why, in words (the Job's state: `failed (DeadlineExceeded: ...)`).
    pub reason: String,
    /// Seconds the Job ran (start to end), when the Job started at all.
    pub seconds: Option<f64>,
    /// The last bytes of the mint container's log, when there was one.
    pub log_tail: Option<String>,
}

fn store_err(what: String) -> impl FnOnce(lane_store::StoreError) -> MintError {
    move |source| MintError::ArtifactStore { what, source }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> MintError + '_ {
    move |source| MintError::Io {
        path: path.to_owned(),
        source,
    }
}

/// A bundle, opened: its `result.json` and the archive.
struct Bundle {
    key: String,
    sha256: String,
    result: AgentResult,
    zip: zip::ZipArchive<Cursor<Vec<u8>>>,
}

fn bad(key: &str, why: impl std::fmt::Display) -> MintError {
    MintError::BadBundle {
        key: key.to_owned(),
        why: why.to_string(),
    }
}

fn open_bundle(
    store: &dyn ArtifactStore,
    id: &MintId,
    run: Option<&str>,
) -> Result<Bundle, MintError> {
    let key = bundle_key(id, run);
    let store_key = StoreKey::new(key.clone()).map_err(store_err(format!("reading {key}")))?;
    let bytes = store
        .get(&store_key)
        .map_err(store_err(format!("reading {key}")))?;
    let sha256 = lane_store::sha256_hex(&bytes);
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| bad(&key, e))?;
    let mut json = Vec::new();
    zip.by_name("result.json")
        .map_err(|e| bad(&key, format!("no result.json: {e}")))?
        .take(MAX_BUNDLED_FILE)
        .read_to_end(&mut json)
        .map_err(|e| bad(&key, e))?;
    let result = AgentResult::from_json("result.json", &json).map_err(|e| bad(&key, e))?;
    if result.id.slot().to_string() != id.slot().to_string() {
        return Err(bad(
            &key,
            format!("its result.json is for {}, not {}", result.id, id),
        ));
    }
    Ok(Bundle {
        key,
        sha256,
        result,
        zip,
    })
}

/// Unpacks `report.json`, `stderr.log`, `ledger/**` and `artifacts/**` of `b` into `dir`
/// (emptied first). Entries whose names would leave `dir` are refused.
/// Returns the artifact files the result fingerprints but the bundle left
/// out (over [`MAX_BUNDLED_FILE`]).
fn unpack(b: &mut Bundle, dir: &Path) -> Result<Vec<String>, MintError> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(io(dir))?;
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut present = std::collections::BTreeSet::new();
    for i in 0..b.zip.len() {
        let mut entry = b.zip.by_index(i).map_err(|e| bad(&b.key, e))?;
        if entry.is_dir() {
            continue;
        }
        let Some(rel) = entry.enclosed_name() else {
            return Err(bad(
                &b.key,
                format!("entry `{}` would leave the mint folder", entry.name()),
            ));
        };
        let keep = rel == Path::new("report.json")
            || rel == Path::new("stderr.log")
            || rel.starts_with("artifacts")
            || rel.starts_with(lane_agent::agent::LEDGER_DIR);
        if !keep {
            continue;
        }
        let to = dir.join(&rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        let mut bytes = Vec::new();
        (&mut entry)
            .take(MAX_BUNDLED_FILE + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| bad(&b.key, e))?;
        if bytes.len() as u64 > MAX_BUNDLED_FILE {
            return Err(bad(
                &b.key,
                format!("entry `{}` is over {MAX_BUNDLED_FILE} bytes", entry.name()),
            ));
        }
        std::fs::write(&to, &bytes).map_err(io(&to))?;
        if let Ok(a) = rel.strip_prefix("artifacts") {
            present.insert(a.to_string_lossy().into_owned());
        }
    }
    Ok(b.result
        .files
        .iter()
        .filter(|f| !present.contains(&f.path))
        .map(|f| f.path.clone())
        .collect())
}

/// The slots (`<lane>/<cell>/<gpu>/r<N>`) of `lane`'s run `run` that
/// already ended: their last attempt in the store has a bundle whose
/// outcome is final (minted, refused, failed, abandoned; not crashed or
/// resource, which a Job retries). One LIST of the run's prefix, then one
/// read per such bundle. A restarted run whose finished Jobs the TTL
/// controller removed does not mint these again.
pub fn ended_slots(
    lane: &LaneFile,
    store: &dyn ArtifactStore,
    run: Option<&str>,
) -> Result<std::collections::BTreeSet<String>, MintError> {
    let prefix = format!(
        "{}mints/",
        lane_agent::bundle::lane_prefix(lane.version.as_str(), run)
    );
    let keys = store
        .list(&prefix)
        .map_err(store_err(format!("listing {prefix}")))?;
    let keys: std::collections::BTreeSet<&str> = keys.iter().map(String::as_str).collect();
    let mut ended = std::collections::BTreeSet::new();
    for planned in lane.plan() {
        let slot = lane_agent::bundle::slot_prefix(&planned.id, run);
        let last = keys
            .iter()
            .filter_map(|k| {
                k.strip_prefix(slot.as_str())?
                    .split_once('/')?
                    .0
                    .strip_prefix('a')?
                    .parse::<u32>()
                    .ok()
            })
            .max();
        let Some(last) = last else { continue };
        let id = MintId {
            attempt: last,
            ..planned.id.clone()
        };
        if !keys.contains(bundle_key(&id, run).as_str()) {
            continue; // claimed, never finished
        }
        match open_bundle(store, &id, run) {
            Ok(b) if !matches!(b.result.outcome, MintStatus::Crashed | MintStatus::Resource) => {
                ended.insert(planned.id.slot().to_string());
            }
            Ok(_) => {}
            Err(e) => {
                warn!(mint = %id, error = %e, "a result bundle is unreadable; its slot runs again")
            }
        }
    }
    Ok(ended)
}

/// Gathers every slot of `lane` (of `run`, when named) from the bundles in `store` into
/// `<out>/results/` and writes `summary.json`. `no_bundle` is asked about
/// each slot that has no bundle at all; `stopped` says the lane was stopped
/// on purpose (see [`Summary::of`]).
pub fn collect(
    lane: &LaneFile,
    store: &dyn ArtifactStore,
    run: Option<&str>,
    out: &Path,
    provenance: &lane_core::Provenance,
    stopped: bool,
    no_bundle: &mut dyn FnMut(&MintId) -> NoBundle,
) -> Result<Summary, MintError> {
    let results = crate::local::results_dir(out);
    let mut mints = Vec::new();
    let mut replay = false;
    for planned in lane.plan() {
        let first = planned.id;
        let recipe = planned.recipe;
        let slot = lane_agent::bundle::slot_attempts(store, &first, run).map_err(store_err(
            format!("listing {}", lane_agent::bundle::slot_prefix(&first, run)),
        ))?;
        let attempts = slot.known();
        let bundled = slot.bundled;
        let mut walls = Vec::new();
        let mut newest: Option<Bundle> = None;
        // The last attempt a pod claimed but left no bundle for (killed,
        // OOM, evicted mid-upload), when no later attempt has one.
        let mut unfinished: Option<u32> = None;
        for a in &attempts {
            let id = MintId {
                attempt: *a,
                ..first.clone()
            };
            if !bundled.contains(a) {
                unfinished = Some(*a);
                continue;
            }
            match open_bundle(store, &id, run) {
                Ok(b) => {
                    walls.extend(b.result.wall_s);
                    newest = Some(b);
                    unfinished = None;
                }
                // One unreadable bundle does not hide the others; it is named.
                Err(e) => warn!(mint = %id, error = %e, "a result bundle is unreadable; skipped"),
            }
        }
        if unfinished.is_some() {
            // The slot ended on an attempt without a result: that is its end.
            newest = None;
        }
        let (result, wall, job_s, dir) = match newest {
            Some(mut last) => {
                let dir = out.join("mints").join(last.result.id.rel_dir());
                let unpacked = unpack(&mut last, &dir);
                let mut result = last.result;
                let wall = result.wall_s;
                match unpacked {
                    Ok(skipped) => {
                        result.bundle = Some(BundleState::Stored {
                            key: last.key,
                            sha256: last.sha256,
                            skipped,
                        });
                    }
                    // A bundle that cannot be unpacked is named on its slot;
                    // the lane's other slots are gathered all the same.
                    Err(e) => {
                        warn!(mint = %result.id, error = %e, "a result bundle could not be unpacked");
                        if dir.exists() {
                            std::fs::remove_dir_all(&dir).map_err(io(&dir))?;
                        }
                        std::fs::create_dir_all(&dir).map_err(io(&dir))?;
                        result.outcome = MintStatus::Crashed;
                        result.reason = format!("its result bundle is unusable: {e}");
                        result.report = ReportState::Absent;
                        result.bundle = Some(BundleState::Failed {
                            key: last.key,
                            error: e.to_string(),
                        });
                    }
                }
                (result, wall, None, dir)
            }
            None => {
                let known = no_bundle(&first);
                let id = MintId {
                    attempt: unfinished.unwrap_or(first.attempt),
                    ..first.clone()
                };
                let dir: PathBuf = out.join("mints").join(id.rel_dir());
                std::fs::create_dir_all(&dir).map_err(io(&dir))?;
                let why = match unfinished {
                    Some(a) => format!(
                        "attempt a{a} was claimed but left no result bundle (its pod ended first)"
                    ),
                    None => "no result bundle in the store".to_owned(),
                };
                // The mint's seconds are unknown (`wall: None` below); the
                // Job's go to `job_s`.
                let result = lane_agent::agent::without_result(
                    id,
                    MintStatus::Crashed,
                    format!("{why}; {}", known.reason),
                    "no agent result came back",
                    known.log_tail.unwrap_or_default(),
                );
                // Nothing measured the mint; a Job that ran keeps its own
                // seconds (waiting and setup included), named as such.
                (result, None, known.seconds, dir)
            }
        };
        replay |= result.replay;
        gather(&results, &dir, &result, wall, job_s, recipe, walls.clone())?;
        mints.push(SlotSummary {
            slot: first.slot().to_string(),
            attempt: result.id.attempt,
            status: result.outcome,
            reason: result.reason.clone(),
            wall_s: (!walls.is_empty()).then(|| walls.iter().sum()),
            job_s,
        });
    }
    let summary = Summary::of(lane.version.to_string(), mints, replay, provenance, stopped);
    write_summary(&results, &summary)?;
    Ok(summary)
}
