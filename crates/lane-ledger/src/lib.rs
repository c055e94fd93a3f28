//! lane's mint ledger: reads every mint report and TORCH_TRACE honestly
//! into the per-phase cost breakdown. A pure analysis crate: it takes values
//! (bytes, `impl BufRead`) and returns values; it
//! never touches the filesystem, spawns processes, runs async code or
//! prints (it emits `tracing` events). The CLI (`lane ledger`, `lane diff`)
//! is the edge that reads files; `lane-render` renders what it returns
//! (this crate keeps no rendering).
//!
//! Where to start reading:
//! - [`report`]: parsing one mint report, every shape upstream writes;
//! - [`trace`]: the streaming TORCH_TRACE reader;
//! - [`breakdown`]: the per-mint table ([`MintBreakdown`]), built from either;
//! - [`findings`]: typed findings with severities and thresholds;
//! - [`mod@compare`]: baseline against candidate with a noise rule.
//!
//! What it must not touch: the determinism diff of two cold mints'
//! artifacts (`lane-diff`: it has nothing to do with cost), rendering
//! (`lane-render`), files and processes (the CLI).
//!
//! The honesty rules are the product: a residual is named and never
//! clamped; overlays are shown, never summed; what was not measured is
//! `None` (omitted in JSON), never `0.0`; a failed job keeps its seconds;
//! unknown report keys are kept and listed. `docs/ledger.md` documents the
//! data model, findings, thresholds, noise rule, verdicts and normalisation.

pub mod breakdown;
pub mod compare;
pub mod error;
pub mod findings;
pub mod keyset;
pub mod partition;
pub mod report;
pub mod trace;

pub use breakdown::{
    from_report, from_report_beside, from_trace, Beside, LedgerKind, MintBreakdown,
};
pub use compare::{compare, Comparison, NoiseRule};
pub use error::{CompareError, ReportError, TraceError};
pub use findings::{Finding, FindingKind, Severity};
pub use partition::{OverlayRow, Partition, Residual, Term};
pub use report::{parse_report, parse_report_with_limit, parse_share_report, MintReport};
pub use trace::{parse_trace, TraceMetrics, TraceOptions};
