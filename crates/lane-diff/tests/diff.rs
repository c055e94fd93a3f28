//! lane-diff's integration tests: the verdicts on built trees and on the
//! probe trees, the real cells of gen-worker 0.93.3 (folders, `.tar.gz`,
//! `.pt2`), and bad input.

#[path = "diff/fixtures.rs"]
mod fixtures;

#[path = "diff/disk.rs"]
mod disk;

#[path = "diff/attribution.rs"]
mod attribution;

#[path = "diff/classes.rs"]
mod classes;

#[path = "diff/determinism.rs"]
mod determinism;

#[path = "diff/robustness.rs"]
mod robustness;

#[path = "diff/large.rs"]
mod large;

#[path = "diff/attempt.rs"]
mod attempt;
