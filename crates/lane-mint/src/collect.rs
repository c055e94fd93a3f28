//! Gathering a lane whose mints ran elsewhere (Kubernetes pods): each
//! attempt's result came back as one bundle in the artifact store
//! (`lanes/<lane>/mints/<cell>/<gpu>/r<N>/a<M>/bundle.zip`). Every slot's
//! bundles are read, the last attempt's is unpacked into
//! `<out>/mints/<cell>/<gpu>/r<N>/a<M>/` and gathered into the results
//! folder exactly as the local backend gathers (same `mint.json`, same
//! `summary.json`), with the seconds of every attempt (retries cost too).
//!
//! A bundle's cells are not in it: its `manifest.json` names each by its
//! own store key, size and sha256, and each is streamed from the store into
//! the attempt's folder (checked as it streams, kept only when whole), so
//! memory stays flat in a cell's size. A manifest naming more than
//! [`FetchLimits`] allow is refused before anything is fetched; a file
//! that does not come back whole is its slot's failure, named.
//!
//! A slot that left no bundle at all (its pod never started, was killed
//! before the agent wrote anything, or the Job hit its deadline) is not
//! dropped: it is recorded as crashed, with what the caller knows of it
//! ([`NoBundle`]: the Job's reason, its seconds, the pod log's tail).

use lane_core::layout::file;
use std::collections::BTreeSet;
use std::io::{Cursor, Read, Write};
use std::path::{Component, Path, PathBuf};

use lane_file::LaneFile;
use lane_store::{ArtifactStore, StoreKey};
use tracing::warn;

use crate::error::MintError;
use crate::gather::{gather, write_summary, SlotFacts};
use lane_agent::bundle::MAX_BUNDLED_FILE;
use lane_core::layout::{self, bundle_key, stored_key};
use lane_core::results::Contract;
use lane_core::MintId;
use lane_core::{AgentResult, BundleManifest, BundleState};
use lane_core::{MintStatus, ReportState};
use lane_core::{SlotSummary, Summary};

/// The most bytes of one slot's stored files lane fetches by default (a
/// real model's cells are gigabytes; a manifest naming more than this is
/// foreign input gone wrong).
pub const DEFAULT_MAX_FETCH_BYTES: u64 = 64 << 30;

/// How much of a slot's stored files (its cells, and any other file too
/// large to inline) lane fetches: a bundle whose manifest names more is
/// that slot's failure, refused before a byte is fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FetchLimits {
    /// The most bytes in all.
    pub max_bytes: u64,
    /// The most files.
    pub max_files: usize,
}

impl Default for FetchLimits {
    fn default() -> FetchLimits {
        FetchLimits {
            max_bytes: DEFAULT_MAX_FETCH_BYTES,
            max_files: 65_536,
        }
    }
}

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

/// A bundle, opened: its `result.json`, its manifest and the archive.
struct Bundle {
    /// The attempt it was read as.
    id: MintId,
    key: String,
    sha256: String,
    result: AgentResult,
    manifest: BundleManifest,
    zip: zip::ZipArchive<Cursor<Vec<u8>>>,
}

/// A file of `zip` read whole, at most [`MAX_BUNDLED_FILE`]; `None` when
/// the bundle has no such file.
fn read_entry(
    zip: &mut zip::ZipArchive<Cursor<Vec<u8>>>,
    key: &str,
    name: &str,
) -> Result<Option<Vec<u8>>, MintError> {
    let entry = match zip.by_name(name) {
        Ok(e) => e,
        Err(zip::result::ZipError::FileNotFound) => return Ok(None),
        Err(e) => return Err(bad(key, format!("{name}: {e}"))),
    };
    let mut bytes = Vec::new();
    entry
        .take(MAX_BUNDLED_FILE)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(key, format!("{name}: {e}")))?;
    Ok(Some(bytes))
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
    let json = read_entry(&mut zip, &key, AgentResult::FILE)?
        .ok_or_else(|| bad(&key, "no result.json"))?;
    let result = AgentResult::from_json(AgentResult::FILE, &json).map_err(|e| bad(&key, e))?;
    if result.id.slot().to_string() != id.slot().to_string() {
        return Err(bad(
            &key,
            format!("its result.json is for {}, not {}", result.id, id),
        ));
    }
    // Bundles written before cells travelled by key have no manifest.
    let manifest = match read_entry(&mut zip, &key, BundleManifest::FILE)? {
        Some(b) => BundleManifest::from_json(BundleManifest::FILE, &b).map_err(|e| bad(&key, e))?,
        None => BundleManifest::default(),
    };
    Ok(Bundle {
        id: id.clone(),
        key,
        sha256,
        result,
        manifest,
        zip,
    })
}

/// Lays attempt `id`'s bundle from `store` out in `dir` (emptied first):
/// its report, logs, ledger files and artifacts, the stored cells fetched
/// within `limits`, as a pod's result comes back. The local backend's
/// repair of a gathered result whose attempt folder is gone.
pub fn restore_attempt(
    store: &dyn ArtifactStore,
    id: &MintId,
    run: Option<&str>,
    dir: &Path,
    limits: &FetchLimits,
) -> Result<(), MintError> {
    let mut b = open_bundle(store, id, run)?;
    unpack(&mut b, dir, store, run, limits).map(|_| ())
}

/// A path a manifest may name: relative, plain segments only, under the
/// attempt's `artifacts/` or `ledger/`.
fn attempt_path(path: &str) -> bool {
    let p = Path::new(path);
    let top = p.components().next().and_then(|c| match c {
        Component::Normal(n) => n.to_str(),
        _ => None,
    });
    matches!(
        top,
        Some(file::ARTIFACTS) | Some(lane_agent::agent::LEDGER_DIR)
    ) && p.components().count() >= 2
        && p.components().all(|c| matches!(c, Component::Normal(_)))
        && !path.contains('\\')
}

/// A foreign string in a refusal: escaped and bounded.
fn shown(s: &str) -> String {
    format!("{:?}", s.chars().take(200).collect::<String>())
}

/// Checks `b`'s manifest before anything is fetched: within `limits`,
/// each file under the attempt's folder, named once, under the key this
/// attempt keeps its content at ([`stored_key`]).
fn check_manifest(b: &Bundle, run: Option<&str>, limits: &FetchLimits) -> Result<(), MintError> {
    let m = &b.manifest;
    let bytes = m.total_bytes();
    if m.stored.len() > limits.max_files || bytes > limits.max_bytes {
        return Err(MintError::OverFetchCap {
            key: b.key.clone(),
            files: m.stored.len(),
            bytes,
            max_files: limits.max_files,
            max_bytes: limits.max_bytes,
        });
    }
    let mut seen = BTreeSet::new();
    for f in &m.stored {
        let why = if !(f.sha256.len() == 64
            && f.sha256
                .bytes()
                .all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')))
        {
            format!("sha256 {} is not 64 lowercase hex digits", shown(&f.sha256))
        } else if f.key != stored_key(&b.id, run, &f.sha256) {
            format!(
                "key {} is not where this attempt keeps that content ({})",
                shown(&f.key),
                stored_key(&b.id, run, &f.sha256)
            )
        } else if !attempt_path(&f.path) {
            "the path is not a file under artifacts/ or ledger/".to_owned()
        } else if !seen.insert(f.path.as_str()) {
            "the path is named twice".to_owned()
        } else {
            continue;
        };
        return Err(bad(
            &b.key,
            format!("manifest.json: {}: {why}", shown(&f.path)),
        ));
    }
    Ok(())
}

/// Streams each file `b`'s manifest names from `store` into `dir`,
/// checked against its size and sha256 as it streams: written to a
/// temporary file beside it and renamed into place only when whole.
fn fetch_stored(store: &dyn ArtifactStore, b: &Bundle, dir: &Path) -> Result<(), MintError> {
    for (i, f) in b.manifest.stored.iter().enumerate() {
        let to = dir.join(&f.path);
        let parent = to.parent().expect("a checked path has a folder");
        std::fs::create_dir_all(parent).map_err(io(parent))?;
        let tmp = parent.join(format!(".lane-partial-{i}"));
        let file = std::fs::File::create(&tmp).map_err(io(&tmp))?;
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        let key = StoreKey::new(f.key.clone()).map_err(|source| MintError::StoredFile {
            path: f.path.clone(),
            key: f.key.clone(),
            source: Box::new(source),
        });
        let fetched = key.and_then(|key| {
            lane_store::get_verified(store, &key, &mut out, f.size, &f.sha256).map_err(|source| {
                MintError::StoredFile {
                    path: f.path.clone(),
                    key: f.key.clone(),
                    source: Box::new(source),
                }
            })
        });
        let kept = fetched.and_then(|()| {
            out.flush()
                .and_then(|()| out.get_ref().sync_all())
                .map_err(io(&tmp))?;
            std::fs::rename(&tmp, &to).map_err(io(&to))
        });
        if kept.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        kept?;
    }
    Ok(())
}

/// Unpacks `report.json`, `stderr.log`, `ledger/**` and `artifacts/**` of
/// `b` into `dir` (emptied first), and fetches the files its manifest names
/// from `store` (checked first against `limits`). Entries whose names would
/// leave `dir` are refused. Returns the artifact files the result
/// fingerprints but the bundle neither carries nor names (bundles written
/// before cells travelled by key left out those over [`MAX_BUNDLED_FILE`]).
fn unpack(
    b: &mut Bundle,
    dir: &Path,
    store: &dyn ArtifactStore,
    run: Option<&str>,
    limits: &FetchLimits,
) -> Result<Vec<String>, MintError> {
    check_manifest(b, run, limits)?;
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(io(dir))?;
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let stored: BTreeSet<PathBuf> = b
        .manifest
        .stored
        .iter()
        .map(|f| PathBuf::from(&f.path))
        .collect();
    let mut present = BTreeSet::new();
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
        let keep = rel == Path::new(file::REPORT)
            || rel == Path::new(file::STDERR)
            || rel.starts_with(file::ARTIFACTS)
            || rel.starts_with(lane_agent::agent::LEDGER_DIR);
        if !keep {
            continue;
        }
        if stored.contains(&rel) {
            return Err(bad(
                &b.key,
                format!("entry `{}` is also named in manifest.json", entry.name()),
            ));
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
        if let Ok(a) = rel.strip_prefix(file::ARTIFACTS) {
            present.insert(a.to_string_lossy().into_owned());
        }
    }
    fetch_stored(store, b, dir)?;
    for f in &b.manifest.stored {
        if let Ok(a) = Path::new(&f.path).strip_prefix(file::ARTIFACTS) {
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
        lane_core::layout::lane_prefix(lane.version.as_str(), run)
    );
    let keys = store
        .list(&prefix)
        .map_err(store_err(format!("listing {prefix}")))?;
    let keys: std::collections::BTreeSet<&str> = keys.iter().map(String::as_str).collect();
    let mut ended = std::collections::BTreeSet::new();
    for planned in lane.plan() {
        let slot = lane_core::layout::slot_prefix(&planned.id, run);
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
/// `<out>/results/` and writes `summary.json`, each slot's stored files
/// fetched within `limits`. `no_bundle` is asked about
/// each slot that has no bundle at all; `stopped` says the lane was stopped
/// on purpose (see [`Summary::of`]).
#[allow(clippy::too_many_arguments)]
pub fn collect(
    lane: &LaneFile,
    store: &dyn ArtifactStore,
    run: Option<&str>,
    out: &Path,
    provenance: &lane_core::Provenance,
    stopped: bool,
    limits: &FetchLimits,
    no_bundle: &mut dyn FnMut(&MintId) -> NoBundle,
) -> Result<Summary, MintError> {
    let results = lane_core::layout::results_dir(out);
    let mut mints = Vec::new();
    let mut replay = false;
    for planned in lane.plan() {
        let first = planned.id;
        let recipe = planned.recipe;
        let slot = lane_agent::bundle::slot_attempts(store, &first, run).map_err(store_err(
            format!("listing {}", lane_core::layout::slot_prefix(&first, run)),
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
                let dir = layout::mint_dir(out, &last.result.id);
                let unpacked = unpack(&mut last, &dir, store, run, limits);
                let mut result = last.result;
                let wall = result.wall_s;
                match unpacked {
                    Ok(skipped) => {
                        result.bundle = Some(BundleState::Stored {
                            key: last.key,
                            sha256: last.sha256,
                            skipped,
                            stored: last.manifest.stored,
                        });
                    }
                    // A bundle that cannot be unpacked is named on its slot;
                    // the lane's other slots are gathered all the same.
                    Err(e) => {
                        warn!(mint = %result.id, error = %lane_core::chain(&e), "a result bundle could not be unpacked");
                        if dir.exists() {
                            std::fs::remove_dir_all(&dir).map_err(io(&dir))?;
                        }
                        std::fs::create_dir_all(&dir).map_err(io(&dir))?;
                        let why = lane_core::chain(&e);
                        result.outcome = MintStatus::Crashed;
                        result.reason = format!("its result bundle is unusable: {why}");
                        result.report = ReportState::Absent;
                        result.bundle = Some(BundleState::Failed {
                            key: last.key,
                            error: why,
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
                let dir: PathBuf = layout::mint_dir(out, &id);
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
        let slot = SlotFacts {
            recipe,
            stand_in: lane
                .mint
                .as_ref()
                .and_then(|m| m.stand_in_for(&first.gpu))
                .map(str::to_owned),
        };
        gather(&results, &dir, &result, wall, job_s, slot, walls.clone())?;
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
