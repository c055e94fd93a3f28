//! lane's regression method across lanes: what a series of earlier lanes
//! says about the lane just minted.
//!
//! What it owns, each in one place:
//! - [`row`]: the history row (one run, cell, GPU class, phase and cold
//!   repeat, with its role, the run's time, lane version, release line and
//!   environment fingerprint), acknowledgements (`lane history ack`), and
//!   reading them as JSON Lines with errors naming line and column;
//! - [`bmf`]: the export in Bencher's metric format (BMF);
//! - [`stats`]: the statistics the method is made of: medians on the log
//!   scale, trigamma and its inverse, limma's `squeezeVar` (Smyth 2004),
//!   Benjamini–Hochberg, Student's t;
//! - [`edivisive`]: retrospective change points, Apache Otava's E-Divisive
//!   with a t-test, ported;
//! - [`judge`]: the verdict of every series of a lane ([`judge_lane`]),
//!   with the lane's environment shift ([`shift`]) and the segment of
//!   history each series is judged against ([`segment`]); the policy and
//!   the verdicts it returns are [`verdict`]'s.
//!
//! What it must not touch: no filesystem, no clock, no network, no
//! processes, no async runtime. It takes rows and returns values; the run
//! store keeps the rows, the CLI reads and prints them, `lane-render` shows
//! the verdicts. It knows no report shape: turning a mint's breakdown into
//! rows is its caller's (`lane-ledger` is only a dev-dependency, for tests
//! on real runs). `docs/history.md` documents the method and its sources.

pub mod bmf;
pub mod edivisive;
pub mod error;
pub mod judge;
pub mod row;
pub mod segment;
pub mod shift;
pub mod stats;
pub mod verdict;

pub use bmf::{to_bmf, BmfMetric};
pub use edivisive::{change_points, ChangePointConfig};
pub use error::HistoryError;
pub use judge::{
    judge_lane, FieldChange, Interval, LaneJudgement, Noise, NoiseSource, Offer, Policy,
    SeriesVerdict, Unjudged, Verdict,
};
pub use row::{
    read_acks, read_rows, write_rows, Ack, AckScope, Fingerprint, Role, Row, RunTime, SeriesKey,
};
pub use segment::{field_role, Break, BreakKind, FieldRole};
pub use shift::{Shift, ShiftTest};
