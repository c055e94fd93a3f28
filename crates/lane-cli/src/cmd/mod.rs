//! One module per subcommand: each has an `Args` (clap derive) and a `run`.

pub mod agent;
pub mod cancel;
pub mod cut;
pub mod demo;
pub mod diff;
pub mod guard;
pub mod ledger;
pub mod mint;
pub mod publish;
pub mod replay;
pub mod report;
pub mod schema;
pub mod status;
pub mod wheel;
