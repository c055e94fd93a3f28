//! Every way a backend can fail, one documented variant each. lane-app
//! wraps it whole (`AppError::Backend`) and decides its exit codes.

use std::path::PathBuf;

/// A failure of a backend (not of a mint: a mint's own failure is a
/// `MintStatus` in the summary).
#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    /// A backend name lane does not know.
    #[error("unknown backend `{name}`: expected `local` or `kube`")]
    Unknown {
        /// The name asked for.
        name: String,
    },
    /// The Kubernetes backend, asked of a build without it.
    #[error("this lane was built without the kube backend (cargo feature `kube`)")]
    NotBuilt,
    /// `--wheel-key` given to the local backend.
    #[error("--wheel-key is for --backend kube; the local backend installs --wheel FILE")]
    WheelKeyHere,
    /// `--wheel` given to the kube backend.
    #[error("--wheel is a local file; pods fetch the staged wheel: pass --wheel-key (as `lane wheel --store ...` printed it)")]
    WheelFileInPods,
    /// A backend whose mints cannot be cancelled from outside.
    #[error("the {backend} backend has nothing to cancel for lane {lane}: its mints stop with `lane mint`")]
    NothingToCancel {
        /// The backend.
        backend: &'static str,
        /// The lane.
        lane: String,
    },
    /// A run id that is no label value or store key segment.
    #[error("--run-id must be 1 to 63 of [A-Za-z0-9._-], starting and ending with a letter or digit; found `{run}`")]
    BadRunId {
        /// The run id.
        run: String,
    },
    /// The kube backend without its configuration.
    #[error("--backend kube needs --kube-config FILE (images, namespace, store, GPU classes; see docs/kubernetes.md)")]
    NoKubeConfig,
    /// `lane cancel` without the kube configuration.
    #[error("lane cancel needs --kube-config FILE")]
    CancelNeedsKubeConfig,
    /// The kube configuration could not be read.
    #[error("{}", .path.display())]
    KubeConfigUnreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The kube configuration is not its YAML.
    #[error("{}", .path.display())]
    KubeConfigInvalid {
        /// The file.
        path: PathBuf,
        /// Where and why.
        #[source]
        source: serde_yaml::Error,
    },
    /// The kube configuration reads but names something lane refuses.
    #[error("{}", .path.display())]
    KubeConfigRefused {
        /// The file.
        path: PathBuf,
        /// What it refuses.
        #[source]
        source: lane_kube_job::JobError,
    },
    /// A store URL with credentials in it, which every Job would show.
    #[error("--store carries credentials in its URL (`user:password@`): they would be plain text in every Job; give them through the kube config's storeSecret")]
    StoreCredentials,
    /// The kube backend without a store to gather from.
    #[error("{}: the kube backend needs `store:` (or --store): pods put their result bundles there and lane gathers them from it", .config.display())]
    NoStore {
        /// The kube configuration.
        config: PathBuf,
    },
    /// `--wheel-key` without a store to find it in.
    #[error("--wheel-key needs a store (`store:` in the kube config, or --store)")]
    WheelKeyNeedsStore,
    /// `--wheel-key` that is no store key.
    #[error("--wheel-key")]
    BadWheelKey(#[source] lane_store::StoreError),
    /// `--wheel-key` that names no file in a folder.
    #[error("--wheel-key must be lanes/<lane>/<commit>/<file>.whl, found `{key}`")]
    WheelKeyShape {
        /// The key.
        key: String,
    },
    /// The staged wheel (or its manifest) could not be read from the store.
    #[error(transparent)]
    StagedWheel(lane_store::StoreError),
    /// The staged wheel's manifest is not its JSON.
    #[error("{at}: line {line} column {column}")]
    ManifestUnreadable {
        /// The manifest's place in the store.
        at: String,
        /// Its line.
        line: usize,
        /// Its column.
        column: usize,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
    /// The staged wheel's manifest gives no sha256 lane can check against.
    #[error("{at}: sha256 must be 64 hex digits, found `{sha256}`")]
    ManifestDigest {
        /// The manifest's place in the store.
        at: String,
        /// What it gives.
        sha256: String,
    },
    /// The staged wheel's manifest names its source archive wrongly.
    #[error("{at}: source: `file` must be a file name and `sha256` 64 hex digits")]
    ManifestSource {
        /// The manifest's place in the store.
        at: String,
    },
    /// The manifest beside `--wheel-key` is another wheel's.
    #[error("{at} is the manifest of {theirs}, not {file}")]
    ManifestOfAnotherWheel {
        /// The manifest's place in the store.
        at: String,
        /// The wheel it names.
        theirs: String,
        /// The wheel asked for.
        file: String,
    },
    /// A cell needs the upstream's tree and the pods have no archive of it.
    #[error("a cell needs the upstream's tree (`source: true`), and pods get it only as the source archive `lane wheel` stages beside the wheel: give --wheel-key of a wheel staged by this lane")]
    NoSourceArchive,
    /// The store key a run's spec is kept under could not be made.
    #[error(transparent)]
    SpecKey(lane_store::StoreError),
    /// A run restarted from another lane file, wheel or configuration.
    #[error("run `{run}` of lane {lane} was started from another lane file, wheel or configuration ({at} differs): give this run a new --run-id")]
    RunSpecDiffers {
        /// The run.
        run: String,
        /// The lane.
        lane: String,
        /// The kept spec's place in the store.
        at: String,
    },
    /// A value lane made could not be written as JSON.
    #[error("cannot write JSON")]
    Json(#[source] serde_json::Error),
    /// The process's async runtime could not be used.
    #[error("cannot start the async runtime")]
    Runtime(#[source] std::io::Error),
    /// The artifact store could not be opened.
    #[error(transparent)]
    Store(lane_store::StoreError),
    /// A Job could not be built from the lane and the configuration.
    #[error(transparent)]
    Job(#[from] lane_kube_job::JobError),
    /// The mint runner: a local run, or gathering from the store.
    #[error(transparent)]
    Mint(#[from] lane_mint::MintError),
    /// The Kubernetes API.
    #[cfg(feature = "kube")]
    #[error(transparent)]
    Kube(#[from] lane_kube::KubeError),
}
