//! One module per subcommand: each has an `Args` (clap derive) and a `run`.

pub mod cut;
pub mod demo;
pub mod diff;
pub mod guard;
pub mod ledger;
pub mod publish;
pub mod report;
pub mod schema;
pub mod wheel;
