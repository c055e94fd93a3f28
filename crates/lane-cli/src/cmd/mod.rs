//! One module per subcommand: each has an `Args` (clap derive) and a `run`.

pub mod agent;
pub mod args;
#[cfg(feature = "kube")]
pub mod cancel;
pub mod cut;
#[cfg(feature = "demo")]
pub mod demo;
pub mod diff;
pub mod guard;
pub mod history;
pub mod init;
pub mod ledger;
pub mod mint;
pub mod publish;
pub mod reopen;
#[cfg(feature = "demo")]
pub mod replay;
pub mod report;
pub mod schema;
#[cfg(feature = "serve")]
pub mod serve;
pub mod status;
pub mod wheel;
