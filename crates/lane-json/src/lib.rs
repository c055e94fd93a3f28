//! lane's JSON layer under the ledger: how foreign JSON (the upstream's
//! mint reports and TORCH_TRACE records) is read.
//!
//! - [`document`]: an order-preserving document tree ([`Node`]), JSON paths
//!   ([`JsonPath`]) for every error, and typed accessors ([`Obj`]) that
//!   refuse what a measurement must never hold (NaN, negative or
//!   implausible durations, wrong types) and keep the keys nobody read;
//! - [`walk`]: the measured fast path for trace records, which skips the
//!   escaped documents torch embeds instead of parsing them, and hands
//!   anything it does not handle back to `serde_json`.
//!
//! What it must not touch: what the values mean (the ledger's report model
//! is `lane-ledger`'s), files and the terminal. Pure: bytes in, values out.

pub mod document;
mod error;
pub mod walk;

pub use document::*;
pub use error::JsonError;
