//! The result bundle: ONE zip per attempt (its `result.json`, the report,
//! the upstream's ledger files beside it (`ledger/`), the logs' tails, the
//! small artifact files, deflated, and `manifest.json`), written to the
//! artifact store under
//! `lanes/<lane>/mints/<cell>/<gpu>/r<N>/a<M>/bundle.zip`. Every cell the
//! report names (and any other file over [`MAX_BUNDLED_FILE`]) is not
//! inlined: it is streamed from disk to a key of its own beside the bundle
//! ([`stored_key`]) and named in the manifest with its size and sha256, so
//! a cell of gigabytes never passes through memory. The bundle goes last:
//! a bundle in the store means every file it names is there. This is how a
//! pod's result comes back; the local backend writes it too, so a lane's
//! store holds every mint the same way whichever backend ran it.
//!
//! The store keys are [`lane_core::layout`]'s ([`bundle_key`],
//! [`claim_key`], [`stored_key`]).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use lane_store::{ArtifactStore, Content, StoreKey};

use lane_core::layout::{bundle_key, claim_key, file, slot_prefix, stored_key};
use lane_core::results::Contract;
use lane_core::MintId;
use lane_core::{AgentResult, ArtifactState, BundleManifest, BundleState, StoredFile};

/// Files larger than this are never inlined in the bundle: they travel
/// under keys of their own ([`stored_key`]), like every cell.
pub const MAX_BUNDLED_FILE: u64 = 16 << 20;

/// What the store holds of one slot's attempts, from one LIST of its
/// prefix: the attempts with a bundle, and those with a claim.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SlotAttempts {
    /// Attempts with `bundle.zip`.
    pub bundled: std::collections::BTreeSet<u32>,
    /// Attempts with `claim.json`.
    pub claimed: std::collections::BTreeSet<u32>,
}

impl SlotAttempts {
    /// Every attempt a pod started (claimed or bundled), ascending.
    pub fn known(&self) -> Vec<u32> {
        self.bundled.union(&self.claimed).copied().collect()
    }
}

/// One LIST of `id`'s slot prefix, sorted into [`SlotAttempts`].
pub fn slot_attempts(
    store: &dyn ArtifactStore,
    id: &MintId,
    run: Option<&str>,
) -> Result<SlotAttempts, lane_store::StoreError> {
    let prefix = slot_prefix(id, run);
    let mut out = SlotAttempts::default();
    for key in store.list(&prefix)? {
        let Some((attempt, file)) = key
            .strip_prefix(&prefix)
            .and_then(|rest| rest.split_once('/'))
        else {
            continue;
        };
        let Some(n) = attempt.strip_prefix('a').and_then(|n| n.parse().ok()) else {
            continue;
        };
        match file {
            file::BUNDLE => {
                out.bundled.insert(n);
            }
            file::CLAIM => {
                out.claimed.insert(n);
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The attempt a pod's agent records under: `id`'s own, or one more than
/// the slot's last attempt in the store (claimed or bundled) if that is
/// higher. A Job retries its pods under one mint id; numbering each retry
/// after the attempts already there keeps every attempt's bundle (stores
/// are write-once).
pub fn next_attempt(
    store: &dyn ArtifactStore,
    id: &MintId,
    run: Option<&str>,
) -> Result<u32, lane_store::StoreError> {
    let last = slot_attempts(store, id, run)?
        .known()
        .last()
        .copied()
        .unwrap_or(0);
    let next = last
        .checked_add(1)
        .ok_or_else(|| lane_store::StoreError::BadKey {
            key: bundle_key(
                &MintId {
                    attempt: last,
                    ..id.clone()
                },
                run,
            ),
            why: "no attempt number follows it".into(),
        })?;
    Ok(id.attempt.max(next))
}

/// Takes the next free attempt number of `id`'s slot for one pod: writes
/// `claim.json` (holding `who`, which must differ between pods: the pod's
/// name and the time) under [`next_attempt`]'s number, and moves on when
/// another pod's claim is already there. A pod killed before it writes a
/// bundle still leaves its claim, so its number is never reused and its
/// attempt is never silently lost.
pub fn claim_attempt(
    store: &dyn ArtifactStore,
    id: &MintId,
    run: Option<&str>,
    who: &str,
) -> Result<u32, lane_store::StoreError> {
    let mut attempt = next_attempt(store, id, run)?;
    for _ in 0..64 {
        let mine = MintId {
            attempt,
            ..id.clone()
        };
        let key = StoreKey::new(claim_key(&mine, run))?;
        match store.put_atomic(&key, Content::Bytes(who.as_bytes())) {
            Ok(_) => return Ok(attempt),
            Err(lane_store::StoreError::Conflict { .. }) => {
                attempt = attempt
                    .checked_add(1)
                    .ok_or_else(|| lane_store::StoreError::BadKey {
                        key: key.to_string(),
                        why: "no attempt number follows it".into(),
                    })?;
            }
            Err(e) => return Err(e),
        }
    }
    Err(lane_store::StoreError::BadKey {
        key: claim_key(id, run),
        why: "64 attempt numbers in a row were claimed by other pods".into(),
    })
}

fn add(
    zip: &mut zip::ZipWriter<std::io::Cursor<Vec<u8>>>,
    name: &str,
    bytes: &[u8],
) -> std::io::Result<()> {
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    zip.start_file(name, opts).map_err(std::io::Error::other)?;
    zip.write_all(bytes)
}

/// The files of `result`'s attempt folder the bundle carries, by their
/// path in that folder: every artifact (`artifacts/...`, as fingerprinted
/// in `result.json`) and every ledger file (`ledger/...`).
fn attempt_files(mint_dir: &Path, result: &AgentResult) -> Vec<lane_core::FileFingerprint> {
    let ledger = crate::agent::fingerprint(&mint_dir.join(crate::agent::LEDGER_DIR))
        .unwrap_or_default()
        .into_iter()
        .map(|f| (crate::agent::LEDGER_DIR, f));
    result
        .files
        .iter()
        .cloned()
        .map(|f| (file::ARTIFACTS, f))
        .chain(ledger)
        .map(|(dir, f)| lane_core::FileFingerprint {
            path: format!("{dir}/{}", f.path),
            ..f
        })
        .collect()
}

/// The cells `result` gathered: their names under `artifacts/`.
fn cells(result: &AgentResult) -> BTreeSet<String> {
    result
        .gathering
        .cells()
        .filter_map(|c| match c {
            ArtifactState::Gathered { file, .. } => Some(format!("artifacts/{file}")),
            ArtifactState::NotGathered { .. } => None,
        })
        .collect()
}

/// Streams `f` (a file of the attempt in `mint_dir`) to its own key.
fn store_file(
    store: &dyn ArtifactStore,
    result: &AgentResult,
    run: Option<&str>,
    mint_dir: &Path,
    f: &lane_core::FileFingerprint,
) -> Result<StoredFile, String> {
    let key = stored_key(&result.id, run, &f.sha256);
    let store_key = StoreKey::new(key.clone()).map_err(|e| e.to_string())?;
    let put = store
        .put_atomic(&store_key, Content::File(&mint_dir.join(&f.path)))
        .map_err(|e| format!("storing {} under {key}: {}", f.path, lane_core::chain(&e)))?;
    if put.sha256() != f.sha256 {
        return Err(format!(
            "{} changed after it was fingerprinted: sha256 {} in result.json, {} stored",
            f.path,
            f.sha256,
            put.sha256()
        ));
    }
    Ok(StoredFile {
        path: f.path.clone(),
        key,
        size: f.size,
        sha256: f.sha256.clone(),
    })
}

/// Puts the result of the attempt in `mint_dir` in `store`: each cell the
/// result gathered and each file over [`MAX_BUNDLED_FILE`] under a key of
/// its own, then the bundle (`result` as its `result.json`, the report, the
/// tails, the other files, and the manifest naming the stored ones). A
/// file that does not reach the store leaves no bundle: the attempt's
/// result is whole or absent.
pub fn write_bundle(
    store: &dyn ArtifactStore,
    run: Option<&str>,
    mint_dir: &Path,
    result: &AgentResult,
) -> BundleState {
    let key = bundle_key(&result.id, run);
    let failed = |error: String| BundleState::Failed {
        key: key.clone(),
        error,
    };
    let cells = cells(result);
    let mut manifest = BundleManifest::default();
    let mut inline = Vec::new();
    for f in attempt_files(mint_dir, result) {
        if cells.contains(&f.path) || f.size > MAX_BUNDLED_FILE {
            match store_file(store, result, run, mint_dir, &f) {
                Ok(stored) => manifest.stored.push(stored),
                Err(e) => return failed(e),
            }
        } else {
            inline.push(f.path);
        }
    }
    let built = (|| -> std::io::Result<Vec<u8>> {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        add(&mut zip, AgentResult::FILE, &result.to_json())?;
        add(&mut zip, BundleManifest::FILE, &manifest.to_json())?;
        for name in [file::REPORT, file::STDERR] {
            if let Ok(bytes) = std::fs::read(mint_dir.join(name)) {
                let keep = if name.ends_with(".log") && bytes.len() > 65_536 {
                    &bytes[bytes.len() - 65_536..]
                } else {
                    &bytes[..]
                };
                add(&mut zip, name, keep)?;
            }
        }
        // The small artifacts, and the upstream's ledger files beside the
        // report (share reports, TORCH_TRACE logs): what `lane report`
        // reads with it.
        for path in &inline {
            add(&mut zip, path, &std::fs::read(mint_dir.join(path))?)?;
        }
        Ok(zip.finish().map_err(std::io::Error::other)?.into_inner())
    })();
    let bytes = match built {
        Ok(b) => b,
        Err(e) => return failed(format!("building the bundle: {e}")),
    };
    let store_key = match StoreKey::new(key.clone()) {
        Ok(k) => k,
        Err(e) => return failed(e.to_string()),
    };
    match store.put_atomic(&store_key, Content::Bytes(&bytes)) {
        Ok(outcome) => BundleState::Stored {
            key: key.clone(),
            sha256: outcome.sha256().to_owned(),
            skipped: Vec::new(),
            stored: manifest.stored,
        },
        Err(e) => failed(lane_core::chain(&e)),
    }
}
