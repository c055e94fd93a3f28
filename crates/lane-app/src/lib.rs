//! lane's commands as a library: what `lane` does, without the terminal.
//!
//! **What it owns.** One function per command, a request struct in and an
//! outcome struct out ([`mint()`], [`status()`], [`diff()`], [`report()`],
//! [`ledger()`], [`guard()`], [`cut()`], [`wheel()`], [`publish()`],
//! [`agent()`], [`schema()`], the `history_*` functions of `lane history`; `cancel` with feature `kube`; `demo` and
//! `replay` with feature `demo`; posting reports with feature `github`);
//! the one error type, [`AppError`], and the one place exit codes are
//! decided, [`AppError::exit`] (the [`Exit`] table, kept in step with
//! `docs/cli.md`, a [`BackendError`] among them). Finding and loading a
//! lane file ([`lane`]) lives here too, and resolving a `lane mint` into
//! the plain [`MintPlan`] a backend is handed (the lane narrowed, the
//! source tree exported, the guards recorded).
//!
//! **What it must not touch.** No printing: it emits `tracing` events and
//! returns values. No clap, no process exit, no signals (a caller hands in
//! a stop flag), no terminal or progress-bar decisions: the `lane` binary
//! (lane-cli) parses arguments, calls one function, and prints its outcome;
//! a service could call the same functions. No backend: where mints run
//! is lane-backend's [`Backend`] (local agents, Kubernetes Jobs),
//! re-exported here; a mint goes down to it and never comes back up.

mod agent;
pub mod backend;
mod beside;
#[cfg(feature = "kube")]
mod cancel;
pub mod cut;
#[cfg(feature = "demo")]
mod demo;
mod diff;
mod error;
mod exit;
mod fsx;
mod guard;
pub mod history;
mod init;
pub mod lane;
mod ledger;
pub mod lock;
pub mod mint;
mod publish;
mod reopen;
#[cfg(feature = "demo")]
mod replay;
pub mod report;
mod schema;
mod status;
mod wheel;

pub use agent::{agent, AgentOutcome, AgentRequest};
pub use backend::{Backend, BackendError, Cancelled, DryRun, JobEnd, MintPlan, Minted};
#[cfg(feature = "kube")]
pub use cancel::{cancel, CancelOutcome, CancelRequest};
pub use cut::{cut, CutOutcome, CutRequest};
#[cfg(feature = "demo")]
pub use demo::{demo, DemoEvent, DemoOutcome, DemoRequest, RECORDINGS as DEMO_RECORDINGS};
pub use diff::{diff, diff_paths, diff_repeats, DiffFound, DiffOutcome, DiffRequest};
pub use error::{describe, AppError};
pub use exit::Exit;
pub use guard::{guard, GuardOutcome, GuardRequest};
pub use history::{
    history_ack, history_add, history_check, history_export, history_regressions, history_show,
    HistoryAckOutcome, HistoryAckRequest, HistoryAddOutcome, HistoryAddRequest,
    HistoryCheckOutcome, HistoryCheckRequest,
};
pub use init::{init, InitOutcome, InitRequest};
#[cfg(feature = "kube")]
pub use lane_backend::kube::KubeBackend;
pub use lane_backend::local::LocalBackend;
pub use ledger::{ledger, LedgerOutcome, LedgerRequest};
pub use mint::{mint, LaneMinted, MintOutcome, MintRequest};
pub use publish::{publish, PublishOutcome, PublishRecord, PublishRequest};
pub use reopen::{reopen, ReopenOutcome, ReopenRequest};
#[cfg(feature = "demo")]
pub use replay::{replay, ReplayRequest};
pub use report::{report, LaneReportFiles, Posted, ReportOutcome, ReportRequest};
pub use schema::{schema, SCHEMA_FILES};
pub use status::{status, StatusOutcome, StatusRequest};
pub use wheel::{wheel, WheelOutcome, WheelRequest};
