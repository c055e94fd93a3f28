//! lane's mint runner, under both of lane-backend's backends: it drives a
//! lane's plan (`lane_core`'s, from the lane file) to gathered results on
//! this machine. The run store (SQLite,
//! WAL: every state change committed before it is acted on) keeps where
//! each attempt stands; agents (`lane agent`, `lane-agent`) are spawned as
//! child processes, adopted after a restart, retried by the retry table;
//! each finished attempt is gathered into `out/lanes/<v>/results/`
//! ([`gather`]) and `summary.json` is written. [`collect`] gathers a lane
//! whose mints ran elsewhere (Kubernetes pods) from their bundles in the
//! store, the same way.
//!
//! Start at [`local::LocalRun::run`], and [`collect::collect`] for pods.
//!
//! What it must not touch: how one mint runs (that is the agent's), the
//! numbers of a report (`lane-ledger`'s), Kubernetes, GitHub and the
//! terminal (progress goes to a callback as `lane_core::Progress`, logs to
//! `tracing`), and the backend seam above it (lane-backend's, which drives
//! it; nothing here names lane-backend or lane-app).

pub mod collect;
mod error;
pub mod gather;
pub mod local;
pub mod store;

pub use error::MintError;
