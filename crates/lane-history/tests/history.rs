//! The one integration-test binary of `lane-history`: a judged lane on a
//! deterministic simulated history (snapshotted), and the five real H200
//! runs of `tests/data/gw-0.93.3-h200` read through `lane-ledger`.

#[path = "history/sim.rs"]
mod sim;

#[path = "history/real.rs"]
mod real;

#[path = "history/simulated.rs"]
mod simulated;
