//! The result bundle: ONE zip per attempt (its `result.json`, the report,
//! the upstream's ledger files beside it (`ledger/`), the logs' tails and
//! the artifact files up to a size limit, deflated),
//! written to the artifact store under
//! `lanes/<lane>/mints/<cell>/<gpu>/r<N>/a<M>/bundle.zip`. This is how a
//! pod's result comes back; the local backend writes it too, so a lane's
//! store holds every mint the same way whichever backend ran it.

use std::io::Write;
use std::path::Path;

use lane_store::{ArtifactStore, Content, StoreKey};

use lane_core::BundleState;
use lane_core::MintId;

/// Artifact files larger than this are fingerprinted in `result.json` but
/// not carried in the bundle (cubins and shared objects of real models).
pub const MAX_BUNDLED_FILE: u64 = 16 << 20;

/// The store prefix of a lane's bundles: `lanes/<lane>/` for the local
/// backend, `lanes/<lane>/runs/<run>/` for a named run (Kubernetes: each
/// run mints anew and never reads another run's bundles).
pub fn lane_prefix(lane: &str, run: Option<&str>) -> String {
    match run {
        Some(run) => format!("lanes/{lane}/runs/{run}/"),
        None => format!("lanes/{lane}/"),
    }
}

/// The store key of an attempt's bundle:
/// `<lane prefix>mints/<cell>/<gpu>/r<N>/a<M>/bundle.zip`.
pub fn bundle_key(id: &MintId, run: Option<&str>) -> String {
    format!("{}a{}/bundle.zip", slot_prefix(id, run), id.attempt)
}

/// The store prefix of every bundle of one slot (all its attempts).
pub fn slot_prefix(id: &MintId, run: Option<&str>) -> String {
    format!(
        "{}mints/{}/{}/r{}/",
        lane_prefix(&id.lane, run),
        id.cell,
        id.gpu,
        id.repeat
    )
}

/// The store key of an attempt's claim: `<slot prefix>a<M>/claim.json`,
/// written (write-once) by the pod that takes the attempt number.
pub fn claim_key(id: &MintId, run: Option<&str>) -> String {
    format!("{}a{}/claim.json", slot_prefix(id, run), id.attempt)
}

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
            "bundle.zip" => {
                out.bundled.insert(n);
            }
            "claim.json" => {
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

/// Builds the bundle of the attempt in `mint_dir` (whose `result_json` is
/// given) and puts it in `store`.
pub fn write_bundle(
    store: &dyn ArtifactStore,
    id: &MintId,
    run: Option<&str>,
    mint_dir: &Path,
    result_json: &[u8],
    files: &[lane_core::FileFingerprint],
) -> BundleState {
    let key = bundle_key(id, run);
    let mut skipped = Vec::new();
    let built = (|| -> std::io::Result<Vec<u8>> {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        add(&mut zip, "result.json", result_json)?;
        for name in ["report.json", "stderr.log"] {
            if let Ok(bytes) = std::fs::read(mint_dir.join(name)) {
                let keep = if name.ends_with(".log") && bytes.len() > 65_536 {
                    &bytes[bytes.len() - 65_536..]
                } else {
                    &bytes[..]
                };
                add(&mut zip, name, keep)?;
            }
        }
        // The upstream's ledger files beside the report (share reports,
        // TORCH_TRACE logs): what `lane report` reads with it.
        let ledger = mint_dir.join(crate::agent::LEDGER_DIR);
        for f in crate::agent::fingerprint(&ledger).unwrap_or_default() {
            let name = format!("{}/{}", crate::agent::LEDGER_DIR, f.path);
            if f.size > MAX_BUNDLED_FILE {
                skipped.push(name);
                continue;
            }
            add(&mut zip, &name, &std::fs::read(ledger.join(&f.path))?)?;
        }
        for f in files {
            if f.size > MAX_BUNDLED_FILE {
                skipped.push(f.path.clone());
                continue;
            }
            let bytes = std::fs::read(mint_dir.join("artifacts").join(&f.path))?;
            add(&mut zip, &format!("artifacts/{}", f.path), &bytes)?;
        }
        Ok(zip.finish().map_err(std::io::Error::other)?.into_inner())
    })();
    let bytes = match built {
        Ok(b) => b,
        Err(e) => {
            return BundleState::Failed {
                key,
                error: format!("building the bundle: {e}"),
            }
        }
    };
    let store_key = match StoreKey::new(key.clone()) {
        Ok(k) => k,
        Err(e) => {
            return BundleState::Failed {
                key,
                error: e.to_string(),
            }
        }
    };
    match store.put_atomic(&store_key, Content::Bytes(&bytes)) {
        Ok(outcome) => BundleState::Stored {
            key,
            sha256: outcome.sha256().to_owned(),
            skipped,
        },
        Err(e) => BundleState::Failed {
            key,
            error: format!("{e:#}"),
        },
    }
}
