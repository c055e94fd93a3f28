//! lane's mint runner: the run plan (every cell × GPU class × cold repeat,
//! each with a deterministic id), the run store (SQLite, WAL: every state
//! change committed before it is acted on), the agent that wraps one mint
//! where it runs, and the local backend that drives a lane's mints to
//! gathered results.
//!
//! Start at [`local::LocalRun::run`]; [`agent::run_agent`] is what `lane
//! agent` runs; [`outcome`] holds the retry table; [`collect::collect`]
//! gathers a lane whose mints ran in pods from their bundles in the store.
//!
//! This crate runs processes and writes the lane's `out/` folder; it does
//! not read mint reports beyond what classifies an attempt and gathers its
//! cell (`status`, `detail`, `phase`, the echoes, `artifact`, `digest`:
//! [`report`]; the numbers are `lane-ledger`'s),
//! never prints (progress goes to a callback, logs to `tracing`), and knows
//! nothing of Kubernetes or GitHub.

pub mod agent;
pub mod bundle;
pub mod collect;
mod error;
pub mod gather;
pub mod local;
pub mod outcome;
pub mod report;
pub mod source;
pub mod store;

pub use error::MintError;
