//! lane's pure core: the nouns every other crate shares and the on-disk
//! contracts lane writes and reads back.
//!
//! What it owns, each in one place:
//! - [`id`]: a mint's identity (lane, cell, GPU class, cold repeat,
//!   attempt), its slot, and the run plan (every cell × GPU × repeat);
//! - [`status`]: the ONE mint status vocabulary (the upstream's report
//!   statuses), how a process ended, what a report said, and the retry table;
//! - [`recipe`]: the ONE recipe type (`dynamo`, `aot`);
//! - [`progress`]: the ONE progress event the local and kube backends emit;
//! - [`results`]: every file of a lane's results folder and result bundle
//!   (`summary.json`, `mint.json`, `result.json`), written and read through
//!   these same types, with a kept JSON Schema (`docs/schemas/`);
//! - [`secret`]: the one secret wrapper and the one URL-credential redaction;
//! - [`vocab`]: a word a report uses for one of these vocabularies, known
//!   or kept as written;
//! - [`environment`]: the environment a mint ran in (GPU, driver, CUDA,
//!   torch, triton, upstream, image, node), as its agent recorded it;
//! - [`hex`]: lowercase hex of digests;
//! - [`layout`]: every path, file name and store key of a lane's run,
//!   results and history;
//! - [`version`]: the ONE lane version type (`0.93.3`), for the lane file,
//!   the release branch and the `/lane mint` command alike.
//!
//! What it must not touch: no filesystem, no processes, no clock, no
//! network, no async runtime, no other lane crate. It takes values and
//! bytes and returns values; writing a file is the edges' job.

pub mod causes;
pub mod environment;
pub mod hex;
pub mod id;
pub mod layout;
pub mod progress;
pub mod recipe;
pub mod results;
pub mod scalar;
pub mod secret;
pub mod status;
pub mod version;
pub mod vocab;

pub use causes::chain;
pub use environment::EnvFingerprint;
pub use id::{plan_mints, MintId, PlannedMint, SlotId};
pub use progress::Progress;
pub use recipe::Recipe;
pub use results::{
    schema_texts, schemas, AgentResult, ArtifactState, BundleManifest, BundleState, Contract,
    ContractError, FileFingerprint, Gathering, GuardRecord, Isolation, MintRecord, NoOtherKeys,
    Provenance, SlotSummary, StoredFile, Summary, TmpIsolation, WheelRef,
};
pub use secret::Secret;
pub use status::{retry, MintStatus, ProcessEnd, ReportState, RetryDecision, RetryPolicy};
pub use version::LaneVersion;
pub use vocab::{Named, Vocabulary};
