//! `lane publish`: upload the lane's staged, verified wheel to a package
//! index, only when the lane's mint results are green (the release policy:
//! publish only after a pod run has proven it), unless `--force` with a
//! reason, which is recorded.
//!
//! The gate reads `out/lanes/<version>/results/summary.json`
//! (`{"green": true, ...}`), which the mints write, and re-reads every
//! planned slot's `mint.json` beside it: absent, not green, replayed
//! (recorded mints, no compile ran), a summary that disagrees with the
//! slots or the lane's plan (a slot outside it, missing, listed twice, or a
//! status its record does not say), or results whose provenance is not
//! what is published (another lane, wheel sha256 or cut commit) is refused
//! with exit 6. The branch published must be exactly the lane's cut
//! (`lane_git::proof`). Every publish leaves a record in the store at
//! `lanes/<lane>/<commit>/publish.json`.

use std::path::PathBuf;

use lane_store::{lane_key, Content};
use lane_wheel::index::{IndexTarget, IndexToken};

use crate::error::AppError;
use crate::lane::{load, open_store, repository};

/// What `lane publish` is asked.
#[derive(Debug, Clone)]
pub struct PublishRequest {
    /// The lane: a version (`0.93.3`) or a lane file path.
    pub lane: String,
    /// Operate on this local clone instead of the lane's upstream.
    pub repo: Option<PathBuf>,
    /// The artifact store `lane wheel` staged into.
    pub store: String,
    /// The index's upload URL (twine's repository URL).
    pub index_url: String,
    /// The index user name.
    pub index_user: String,
    /// The index token (never printed); `None` is refused.
    pub token: Option<IndexToken>,
    /// The mint results summary (default `out/lanes/<version>/results/summary.json`).
    pub results: Option<PathBuf>,
    /// Publish even though the mint results are not green; needs `reason`.
    pub force: bool,
    /// Why `force` was used; recorded in the publish record.
    pub reason: Option<String>,
    /// Check everything (the gate, the staged wheel, its re-verification),
    /// upload nothing and keep no record.
    pub dry_run: bool,
    /// Where `uv` (the uploader) is found or installed.
    pub tools_dir: PathBuf,
    /// Wait for another lane command that holds the lane, or refuse.
    pub wait: crate::lock::LockWait,
}

/// What `lane publish` did.
#[derive(Debug)]
pub struct PublishOutcome {
    /// The record kept in the store (a dry run: the record it would keep).
    pub record: PublishRecord,
    /// A dry run: nothing was uploaded and no record kept.
    pub dry_run: bool,
    /// Where: `<store>/<key>`.
    pub at: String,
}

/// The record written to `lanes/<lane>/<commit>/publish.json`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct PublishRecord {
    /// The lane.
    pub lane: String,
    /// The commit published.
    pub commit: String,
    /// Its tree.
    pub tree: String,
    /// The wheel's file name.
    pub wheel: String,
    /// Its sha256.
    pub sha256: String,
    /// The upload URL (never the token).
    pub index_url: String,
    /// What the gate said: `green`, `not green`, or `no results`.
    pub gate: String,
    /// Whether `--force` overrode the gate.
    pub forced: bool,
    /// The `--force` reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// What is published: the lane's version, the cut commit and the staged
/// wheel's sha256. The results must have proved exactly these.
struct Published<'a> {
    lane: &'a lane_file::LaneFile,
    commit: &'a str,
    sha256: &'a str,
}

/// The gate, read through the type `lane mint` wrote `summary.json` with:
/// open only when the results are this lane's, agree with every planned
/// slot's own record, were minted (not replayed), are green, and proved
/// what is published: the staged wheel itself (its sha256) built from the
/// cut commit published (where the results name a commit). `(open, in
/// words)`.
fn gate(path: &std::path::Path, published: &Published<'_>) -> Result<(bool, String), AppError> {
    use lane_core::results::Contract;
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((false, "no results".into()))
        }
        Err(e) => return Err(AppError::io(path, e)),
    };
    let summary = lane_core::Summary::from_json(&path.display().to_string(), &bytes)?;
    let lane = published.lane;
    let version = lane.version.to_string();
    if summary.lane != version {
        return Ok((false, format!("lane {}'s, not {version}'s", summary.lane)));
    }
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let disagree = crate::report::results::disagreements(dir, &summary, &lane.plan())?;
    if !disagree.is_empty() {
        return Ok((
            false,
            format!(
                "not what the slots' own records say ({})",
                disagree.join("; ")
            ),
        ));
    }
    if summary.replay {
        return Ok((
            false,
            "replayed (recorded mints played back, no compile ran: they prove nothing about this wheel)"
                .into(),
        ));
    }
    if !summary.green {
        return Ok((false, "not green".into()));
    }
    Ok(match provenance_mismatch(&summary, published) {
        Some(why) => (false, why),
        None => (true, "green".into()),
    })
}

/// Where green results' provenance is not what is published: no wheel,
/// another wheel (sha256), or another commit (the wheel's or the guards').
fn provenance_mismatch(summary: &lane_core::Summary, published: &Published<'_>) -> Option<String> {
    let short = |s: &str| s[..s.len().min(12)].to_owned();
    let Some(w) = &summary.wheel else {
        return Some("green without a wheel (the mints installed none)".into());
    };
    if w.sha256 != published.sha256 {
        return Some(format!(
            "green for another wheel ({} sha256 {}…, not the staged one)",
            w.file,
            short(&w.sha256)
        ));
    }
    if let Some(c) = w.commit.as_deref().filter(|c| *c != published.commit) {
        return Some(format!(
            "green for a wheel built from {}, not the published cut {}",
            short(c),
            short(published.commit)
        ));
    }
    if let Some(g) = summary
        .guard
        .as_ref()
        .filter(|g| g.commit != published.commit)
    {
        return Some(format!(
            "green with the guards evaluated on {}, not the published cut {}",
            short(&g.commit),
            short(published.commit)
        ));
    }
    None
}

/// `lane publish`: only a green lane's wheel (or one forced with a
/// reason), re-verified against the lane tree, and a record kept.
pub fn publish(request: &PublishRequest) -> Result<PublishOutcome, AppError> {
    let loaded = load(&request.lane)?;
    let lane = loaded.lane.version.to_string();
    let token = request.token.clone().ok_or_else(|| {
        AppError::Precondition(
            "LANE_INDEX_TOKEN is not set: the index token is read from the environment only"
                .to_owned(),
        )
    })?;
    let results = request
        .results
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("out/lanes/{lane}/results/summary.json")));
    // Not while a mint or report of the lane writes the results it reads.
    let _lock = (!request.dry_run)
        .then(|| {
            crate::lock::lock_lane(
                &lane_core::layout::lane_out(std::path::Path::new("out"), &lane),
                &lane,
                "lane publish",
                request.wait,
                &mut |holder| tracing::warn!(holder, "waiting for the lane"),
            )
        })
        .transpose()?;
    let repo_dir = repository(&loaded, request.repo.as_deref())?;
    let repo = lane_git::repo::open(&repo_dir)?;
    let branch = loaded.lane.branch_name();
    let tree = lane_wheel::LaneTree::read(&repo, &branch)?;
    // Only the branch that is exactly the lane's cut is published.
    crate::lane::prove_branch(&repo, &loaded.lane, "publish it")?;
    let commit = tree.commit.to_string();
    let store = open_store(&request.store)?;
    let record_key = lane_key(&lane, &commit, "publish.json")?;
    let kept = |source| AppError::Record {
        key: record_key.to_string(),
        source,
    };
    if store.exists(&record_key).map_err(kept)? {
        return Err(AppError::Precondition(format!(
            "{lane} at {commit} is already published ({}/{record_key})",
            store.location()
        )));
    }
    // The gate decides on the manifest; the wheel is fetched only past it.
    let manifest =
        lane_wheel::load_manifest(store.as_ref(), &lane, &commit).map_err(|e| match e {
            lane_wheel::WheelError::Store(lane_store::StoreError::NotFound { key }) => {
                AppError::Precondition(format!(
                    "no staged wheel for {lane} at {} ({key} is not in {}): run `lane wheel {lane}` first",
                    &commit[..12],
                    store.location()
                ))
            }
            e => e.into(),
        })?;
    let published = Published {
        lane: &loaded.lane,
        commit: &commit,
        sha256: &manifest.sha256,
    };
    let (green, gate_text) = gate(&results, &published)?;
    if !green && !request.force {
        return Err(AppError::Precondition(format!(
            "refusing to publish {lane}: the mint results are {gate_text} ({}); publish only after a pod run has proven the wheel, or pass --force --reason \"...\"",
            results.display()
        )));
    }
    let reason = request.reason.clone().filter(|r| !r.trim().is_empty());
    if request.force && reason.is_none() {
        return Err(AppError::Usage(
            "--force needs a non-empty --reason".to_owned(),
        ));
    }

    let wheel =
        lane_wheel::load_wheel(store.as_ref(), &lane, &commit, &manifest).map_err(|e| match e {
            lane_wheel::WheelError::Store(lane_store::StoreError::NotFound { key }) => {
                AppError::Precondition(format!(
                    "the staged manifest of {lane} at {} names {}, but {key} is not in {}: the staging is incomplete; run `lane wheel {lane}` again",
                    &commit[..12],
                    manifest.wheel,
                    store.location()
                ))
            }
            e => e.into(),
        })?;
    let verified = lane_wheel::reverify(&repo, &manifest, &wheel)?;
    if !request.dry_run {
        let target = IndexTarget {
            upload_url: request.index_url.clone(),
            username: request.index_user.clone(),
            token,
        };
        let uv = lane_wheel::Uv::locate(&request.tools_dir)?;
        lane_wheel::index::upload(&uv, &target, &verified, &wheel)?;
    }
    let record = PublishRecord {
        lane: lane.clone(),
        commit: commit.clone(),
        tree: manifest.tree.clone(),
        wheel: manifest.wheel.clone(),
        sha256: manifest.sha256.clone(),
        // The record is kept and printed: never with `user:password@`.
        index_url: lane_store::redact_url(&request.index_url),
        gate: gate_text,
        forced: !green,
        reason: if green { None } else { reason },
    };
    if !request.dry_run {
        let json = serde_json::to_vec_pretty(&record).map_err(AppError::Json)?;
        store
            .put_atomic(&record_key, Content::Bytes(&json))
            .map_err(kept)?;
    }
    Ok(PublishOutcome {
        record,
        dry_run: request.dry_run,
        at: format!("{}/{record_key}", store.location()),
    })
}
