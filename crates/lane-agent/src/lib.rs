//! lane's agent: what runs ONE mint where it runs (a child of the local
//! backend, or a pod's main container). It claims the mint's folder (so no
//! attempt ever runs twice), prepares fresh empty compile caches and a
//! `TORCH_TRACE` folder, installs the wheel into an isolated environment,
//! gives the mint the upstream's source tree, runs it in its own process
//! group with a timeout, classifies how it ended ([`outcome`]: the report's
//! `status` is authoritative), gathers the cell the report names
//! ([`report`]), fingerprints the artifacts and the environment it ran in
//! ([`fingerprint`]), writes one atomic
//! `result.json` and puts its result bundle in the store ([`bundle`]).
//!
//! Start at [`agent::run_agent`] (what `lane agent` runs).
//!
//! What it must not touch: the run store and the results folder (that is
//! `lane-mint`'s, the backends'), the numbers of a report beyond what
//! classifies an attempt (that is `lane-ledger`'s), Kubernetes, GitHub and
//! the terminal (it emits `tracing`, never prints).

pub mod agent;
mod beside;
pub mod bundle;
mod error;
pub mod fingerprint;
pub mod inspect;
pub mod isolate;
pub mod mint_env;
pub mod outcome;
pub mod procs;
pub mod report;
pub mod source;
mod wheel;

pub use error::AgentError;
