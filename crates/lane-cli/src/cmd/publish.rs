//! `lane publish`: upload the lane's staged, verified wheel to a package
//! index, only when the lane's mint results are green (the release policy:
//! publish only after a pod run has proven it), unless `--force` with a
//! reason, which is recorded.
//!
//! The gate reads `out/lanes/<version>/results/summary.json`
//! (`{"green": true, ...}`), which the mints write; absent or not green is
//! refused with exit 6. Every publish leaves a record in the store at
//! `lanes/<lane>/<commit>/publish.json`.

use std::path::PathBuf;

use anyhow::anyhow;
use lane_store::{lane_key, Content};
use lane_wheel::index::{IndexTarget, IndexToken};

use crate::cmd::wheel::{open_store, wheel_exit};
use crate::exit::{CliError, CliResult, Exit};
use crate::lane::{load, repository};
use crate::output::print_json;

/// Arguments of `lane publish`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The lane: a version (`0.93.3` reads `lanes/0.93.3.yaml`) or a lane file path.
    pub lane: String,
    /// Operate on this local clone instead of the lane's upstream.
    #[arg(long)]
    pub repo: Option<PathBuf>,
    /// The artifact store `lane wheel` staged into.
    #[arg(long, env = "LANE_STORE", default_value = "out/store")]
    pub store: String,
    /// The index's upload URL (twine's repository URL, e.g.
    /// `https://upload.pypi.org/legacy/`). The token is read from
    /// `LANE_INDEX_TOKEN` only, and never printed.
    #[arg(long, env = "LANE_INDEX_URL")]
    pub index_url: String,
    /// The index user name.
    #[arg(long, env = "LANE_INDEX_USER", default_value = "__token__")]
    pub index_user: String,
    /// The mint results summary (default `out/lanes/<version>/results/summary.json`).
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Publish even though the mint results are not green; needs `--reason`.
    #[arg(long, requires = "reason")]
    pub force: bool,
    /// Why `--force` was used; recorded in the publish record.
    #[arg(long)]
    pub reason: Option<String>,
    /// Print the publish record as JSON.
    #[arg(long)]
    pub json: bool,
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

/// The gate, read through the type `lane mint` wrote `summary.json` with:
/// open only when the results are this lane's, green, and proved the
/// staged wheel itself (its sha256). `(open, in words)`.
fn gate(
    path: &std::path::Path,
    lane: &str,
    staged_sha256: &str,
) -> Result<(bool, String), CliError> {
    use lane_core::results::Contract;
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((false, "no results".into()))
        }
        Err(e) => {
            return Err(CliError::new(
                Exit::Failure,
                anyhow!("reading {}: {e}", path.display()),
            ))
        }
    };
    let summary = lane_core::Summary::from_json(&path.display().to_string(), &bytes)
        .map_err(|e| CliError::new(Exit::InvalidInput, e))?;
    if summary.lane != lane {
        return Ok((false, format!("lane {}'s, not {lane}'s", summary.lane)));
    }
    if !summary.green {
        return Ok((false, "not green".into()));
    }
    Ok(match &summary.wheel {
        None => (
            false,
            "green without a wheel (the mints installed none)".into(),
        ),
        Some(w) if w.sha256 != staged_sha256 => (
            false,
            format!(
                "green for another wheel ({} sha256 {}…, not the staged one)",
                w.file,
                &w.sha256[..w.sha256.len().min(12)]
            ),
        ),
        Some(_) => (true, "green".into()),
    })
}

/// Runs `lane publish`.
pub fn run(args: Args) -> CliResult {
    let loaded = load(&args.lane)?;
    let lane = loaded.lane.version.to_string();
    let token = std::env::var("LANE_INDEX_TOKEN")
        .ok()
        .filter(|t| !t.is_empty())
        .map(IndexToken::new)
        .ok_or_else(|| CliError::new(Exit::Precondition, anyhow!("LANE_INDEX_TOKEN is not set: the index token is read from the environment only")))?;
    let results = args
        .results
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("out/lanes/{lane}/results/summary.json")));
    let repo_dir = repository(&loaded, args.repo.as_deref())?;
    let repo = lane_git::repo::open(&repo_dir).map_err(crate::cmd::cut::git_exit)?;
    let branch = loaded.lane.branch_name();
    let tree = lane_wheel::LaneTree::read(&repo, &branch).map_err(wheel_exit)?;
    let commit = tree.commit.to_string();
    let store = open_store(&args.store)?;
    let record_key = lane_key(&lane, &commit, "publish.json")
        .map_err(|e| CliError::new(Exit::InvalidInput, e))?;
    if store
        .exists(&record_key)
        .map_err(|e| CliError::new(Exit::Failure, e))?
    {
        return Err(CliError::new(
            Exit::Precondition,
            anyhow!(
                "{lane} at {commit} is already published ({}/{record_key})",
                store.location()
            ),
        ));
    }
    let (manifest, wheel) = lane_wheel::load_staged(store.as_ref(), &lane, &commit).map_err(|e| match e {
        lane_wheel::WheelError::Store(lane_store::StoreError::NotFound { key }) => CliError::new(
            Exit::Precondition,
            anyhow!("no staged wheel for {lane} at {} ({key} is not in {}): run `lane wheel {lane}` first", &commit[..12], store.location()),
        ),
        e => wheel_exit(e),
    })?;
    let (green, gate_text) = gate(&results, &lane, &manifest.sha256)?;
    if !green && !args.force {
        return Err(CliError::new(
            Exit::Precondition,
            anyhow!(
                "refusing to publish {lane}: the mint results are {gate_text} ({}); publish only after a pod run has proven the wheel, or pass --force --reason \"...\"",
                results.display()
            ),
        ));
    }
    let reason = args.reason.clone().filter(|r| !r.trim().is_empty());
    if args.force && reason.is_none() {
        return Err(CliError::new(
            Exit::Usage,
            anyhow!("--force needs a non-empty --reason"),
        ));
    }

    let verified = lane_wheel::reverify(&repo, &manifest, &wheel).map_err(wheel_exit)?;
    let target = IndexTarget {
        upload_url: args.index_url.clone(),
        username: args.index_user.clone(),
        token,
    };
    lane_wheel::index::upload(&target, &verified, &wheel).map_err(wheel_exit)?;
    let record = PublishRecord {
        lane: lane.clone(),
        commit: commit.clone(),
        tree: manifest.tree.clone(),
        wheel: manifest.wheel.clone(),
        sha256: manifest.sha256.clone(),
        // The record is kept and printed: never with `user:password@`.
        index_url: lane_store::redact_url(&args.index_url),
        gate: gate_text,
        forced: !green,
        reason: if green { None } else { reason },
    };
    let json = serde_json::to_vec_pretty(&record).map_err(|e| CliError::new(Exit::Failure, e))?;
    store
        .put_atomic(&record_key, Content::Bytes(&json))
        .map_err(|e| CliError::new(Exit::Failure, e))?;
    if args.json {
        print_json(&record)?;
    } else {
        println!("published {} to {}", record.wheel, record.index_url);
        if record.forced {
            println!(
                "forced past a gate that was {}; reason recorded: {}",
                record.gate,
                record.reason.as_deref().unwrap_or("")
            );
        }
        println!("record: {}/{record_key}", store.location());
    }
    Ok(Exit::Ok)
}
