//! lane's patch wheel: build it from the lane branch's tree, prove it is
//! that tree, stage it in the artifact store for GPU pods, and (once the
//! mints are green) upload it to a package index.
//!
//! Start at [`build`]: it reads `refs/heads/<branch>` ([`LaneTree`]),
//! writes its blobs into a fresh temporary folder (never the work tree),
//! runs `uv build --wheel` there ([`Uv`], located or installed into the
//! tools folder) once the tree's `requires-python` admits uv's interpreter
//! ([`check_requires_python`]), and [`verify`]s the result: the file name's and
//! METADATA's name and version against the lane, RECORD against every file,
//! and every package file against the tree's blob, byte for byte. Then
//! [`stage`] puts the wheel and its [`WheelManifest`] under
//! `lanes/<lane>/<commit>/` in a [`lane_store::ArtifactStore`];
//! [`load_staged`] and [`index::upload`] serve `lane publish`.
//!
//! This crate never touches the repository's work tree, index or refs, never
//! prints (it emits tracing), and never shows the index token. Deciding
//! whether a lane may be published (the mint results gate) is the CLI's.

mod error;
pub mod index;
mod python;
mod source;
mod tree;
mod uv;
mod verify;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lane_store::{lane_key, ArtifactStore, Content, FetchLocation, PutOutcome};

pub use error::WheelError;
pub use python::check_requires_python;
pub use source::{write_source_archive, SourceArchive};
pub use tree::{project_name, LaneTree};
pub use uv::{BuildTools, Uv};
pub use verify::{normalize_name, verify, Expected, VerifiedWheel};

/// The manifest staged beside the wheel (`manifest.json`): what was built
/// from what, with which tools. Deterministic for a given commit and tools.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WheelManifest {
    /// The lane (its version, `0.93.3`).
    pub lane: String,
    /// The branch built (`release/0.93.3`).
    pub branch: String,
    /// The commit the branch pointed at.
    pub commit: String,
    /// That commit's tree id (what publishing compares).
    pub tree: String,
    /// The wheel's file name.
    pub wheel: String,
    /// Hex sha256 of the wheel.
    pub sha256: String,
    /// The wheel's size in bytes.
    pub size: u64,
    /// What verification established.
    pub verified: VerifiedWheel,
    /// The build tools' versions.
    pub tools: BuildTools,
    /// The lane tree as a source archive, staged beside the wheel for
    /// cells that run the upstream's own rig (absent in manifests staged
    /// before lane made one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceArchive>,
}

/// Where each step's time went, for the benchmark and `--json`.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Timings {
    /// Writing the tree's blobs out.
    pub export_ms: f64,
    /// `uv build --wheel`.
    pub build_ms: f64,
    /// Verification.
    pub verify_ms: f64,
    /// Staging (zero when nothing was staged).
    pub stage_ms: f64,
}

/// A built and verified wheel, still in its temporary folder.
#[derive(Debug)]
pub struct BuiltWheel {
    /// The wheel file (inside a temporary folder that lives as long as this value).
    pub path: PathBuf,
    /// The source archive, beside it.
    pub source_path: PathBuf,
    /// Its manifest.
    pub manifest: WheelManifest,
    /// How long each step took.
    pub timings: Timings,
    _dir: tempfile::TempDir,
}

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildRequest {
    /// The lane (its version); the wheel must carry this version.
    pub lane: String,
    /// The lane branch (`release/<lane>`).
    pub branch: String,
    /// Where `uv` is looked for and installed (`.tools`).
    pub tools_dir: PathBuf,
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

/// Builds the lane's wheel from a clean export of its branch and verifies it.
pub fn build(repo: &git2::Repository, request: &BuildRequest) -> Result<BuiltWheel, WheelError> {
    let uv = Uv::locate(&request.tools_dir)?;
    build_with(repo, request, &uv)
}

/// [`build`] with an already located `uv`.
pub fn build_with(
    repo: &git2::Repository,
    request: &BuildRequest,
    uv: &Uv,
) -> Result<BuiltWheel, WheelError> {
    let lane_tree = LaneTree::read(repo, &request.branch)?;
    let name = lane_tree.project_name(repo)?;
    // Only with a Python the project supports: refused before any build.
    check_requires_python(
        lane_tree.requires_python(repo)?.as_deref(),
        &uv.python,
        &uv.tools.python,
    )?;
    let dir = tempfile::Builder::new()
        .prefix("lane-wheel-")
        .tempdir()
        .map_err(error::io("creating a temporary folder"))?;
    let (src, out) = (dir.path().join("src"), dir.path().join("dist"));
    let t = Instant::now();
    lane_tree.export(repo, &src)?;
    let export_ms = ms(t);
    let t = Instant::now();
    let path = uv.build_wheel(&src, &out, lane_tree.commit_time)?;
    let build_ms = ms(t);
    let t = Instant::now();
    let bytes = std::fs::read(&path).map_err(error::io(format!("reading {}", path.display())))?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let verified = verify(
        &file_name,
        &bytes,
        &Expected {
            name: &name,
            version: &request.lane,
            blobs: &lane_tree.blobs,
        },
    )?;
    let verify_ms = ms(t);
    tracing::info!(wheel = %file_name, files = verified.package_files, "verified the wheel against the lane tree");
    let t = Instant::now();
    let (source_path, source) = write_source_archive(
        repo,
        &lane_tree,
        &name,
        &request.lane,
        &dir.path().join("src-dist"),
    )?;
    let export_ms = export_ms + ms(t);
    Ok(BuiltWheel {
        manifest: WheelManifest {
            lane: request.lane.clone(),
            branch: request.branch.clone(),
            commit: lane_tree.commit.to_string(),
            tree: lane_tree.tree.to_string(),
            wheel: file_name,
            sha256: lane_store::sha256_hex(&bytes),
            size: bytes.len() as u64,
            verified,
            tools: uv.tools.clone(),
            source: Some(source),
        },
        path,
        source_path,
        timings: Timings {
            export_ms,
            build_ms,
            verify_ms,
            stage_ms: 0.0,
        },
        _dir: dir,
    })
}

/// Where a staged wheel went.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Staged {
    /// The store (`file:///...`, `s3://...`).
    pub store: String,
    /// The wheel's key.
    pub wheel_key: String,
    /// What putting the wheel did.
    pub wheel: PutOutcome,
    /// The source archive's key.
    pub source_key: Option<String>,
    /// The manifest's key.
    pub manifest_key: String,
    /// What putting the manifest did.
    pub manifest: PutOutcome,
    /// Where a pod fetches the wheel.
    pub fetch: FetchLocation,
}

/// The key of `manifest.json` for `lane` at `commit`.
pub fn manifest_key(lane: &str, commit: &str) -> Result<lane_store::StoreKey, WheelError> {
    Ok(lane_key(lane, commit, "manifest.json")?)
}

/// Puts the wheel, then its manifest (so a manifest always has its wheel),
/// under `lanes/<lane>/<commit>/`; pods get a location valid for `ttl`.
pub fn stage(
    store: &dyn ArtifactStore,
    built: &mut BuiltWheel,
    ttl: Duration,
) -> Result<Staged, WheelError> {
    let t = Instant::now();
    let m = &built.manifest;
    let wheel_key = lane_key(&m.lane, &m.commit, &m.wheel)?;
    let wheel = store.put_atomic(&wheel_key, Content::File(&built.path))?;
    // The archive before the manifest too: a manifest always has its files.
    let source_key = match &m.source {
        Some(src) => {
            let key = lane_key(&m.lane, &m.commit, &src.file)?;
            store.put_atomic(&key, Content::File(&built.source_path))?;
            Some(key.to_string())
        }
        None => None,
    };
    let json = serde_json::to_vec_pretty(m).map_err(|source| WheelError::Json {
        what: "the manifest".into(),
        source,
    })?;
    let mkey = manifest_key(&m.lane, &m.commit)?;
    let manifest = store.put_atomic(&mkey, Content::Bytes(&json))?;
    let fetch = store.fetch_location(&wheel_key, ttl)?;
    built.timings.stage_ms = ms(t);
    Ok(Staged {
        store: store.location(),
        wheel_key: wheel_key.to_string(),
        wheel,
        source_key,
        manifest_key: mkey.to_string(),
        manifest,
        fetch,
    })
}

/// Reads the staged manifest and wheel of `lane` at `commit`, checking the
/// wheel's sha256 and size against the manifest.
pub fn load_staged(
    store: &dyn ArtifactStore,
    lane: &str,
    commit: &str,
) -> Result<(WheelManifest, Vec<u8>), WheelError> {
    let manifest = load_manifest(store, lane, commit)?;
    let wheel = load_wheel(store, lane, commit, &manifest)?;
    Ok((manifest, wheel))
}

/// Reads the staged manifest of `lane` at `commit` (small: what a gate
/// decides on before the wheel itself is fetched).
pub fn load_manifest(
    store: &dyn ArtifactStore,
    lane: &str,
    commit: &str,
) -> Result<WheelManifest, WheelError> {
    let mkey = manifest_key(lane, commit)?;
    let text = store.get(&mkey)?;
    serde_json::from_slice(&text).map_err(|source| WheelError::Json {
        what: mkey.to_string(),
        source,
    })
}

/// Reads the wheel `manifest` names, checked against its sha256.
pub fn load_wheel(
    store: &dyn ArtifactStore,
    lane: &str,
    commit: &str,
    manifest: &WheelManifest,
) -> Result<Vec<u8>, WheelError> {
    let wheel = store.get(&lane_key(lane, commit, &manifest.wheel)?)?;
    let sha256 = lane_store::sha256_hex(&wheel);
    if sha256 != manifest.sha256 {
        return Err(WheelError::RecordMismatch {
            path: manifest.wheel.clone(),
            field: "sha256",
            recorded: manifest.sha256.clone(),
            actual: sha256,
        });
    }
    Ok(wheel)
}

/// Re-verifies staged wheel bytes against the lane tree at the manifest's commit.
pub fn reverify(
    repo: &git2::Repository,
    manifest: &WheelManifest,
    wheel: &[u8],
) -> Result<VerifiedWheel, WheelError> {
    let oid = git2::Oid::from_str(&manifest.commit)
        .map_err(error::git("parsing the manifest's commit"))?;
    let commit = repo
        .find_commit(oid)
        .map_err(error::git(format!("finding commit {oid}")))?;
    let lane_tree = LaneTree::of_commit(&manifest.branch, &commit)?;
    let name = lane_tree.project_name(repo)?;
    verify(
        &manifest.wheel,
        wheel,
        &Expected {
            name: &name,
            version: &manifest.lane,
            blobs: &lane_tree.blobs,
        },
    )
}

/// The default tools folder: `$LANE_TOOLS_DIR`, else `.tools` in `base`.
pub fn default_tools_dir(base: &Path) -> PathBuf {
    std::env::var_os("LANE_TOOLS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| base.join(".tools"))
}
