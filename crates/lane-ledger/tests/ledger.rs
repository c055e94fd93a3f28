//! The one integration-test binary of `lane-ledger`: real fixtures from
//! `tests/data/` (an H200 dynamo mint, two cold AOTI mints and their
//! artifact trees, a real TORCH_TRACE, the seed's pre-ledger phase table).

#[path = "ledger/fixtures.rs"]
mod fixtures;

#[path = "ledger/reports.rs"]
mod reports;

#[path = "ledger/aot_reports.rs"]
mod aot_reports;

#[path = "ledger/traces.rs"]
mod traces;

#[path = "ledger/compare.rs"]
mod compare;

#[path = "ledger/properties.rs"]
mod properties;

#[path = "ledger/robustness.rs"]
mod robustness;

#[path = "ledger/eras.rs"]
mod eras;

#[path = "ledger/eras_127.rs"]
mod eras_127;
