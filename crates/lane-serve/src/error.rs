//! The errors of `lane serve` itself (a command's own failure is answered
//! on the pull request, not returned here).

use std::path::PathBuf;

/// What stops `lane serve` from starting or running.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The webhook secret is empty (anyone could sign with it).
    #[error(
        "the webhook secret is empty: set LANE_WEBHOOK_SECRET to the GitHub App's webhook secret"
    )]
    EmptySecret,
    /// The webhook secret is shorter than [`crate::MIN_SECRET_BYTES`] (a
    /// guessable secret lets anyone sign deliveries).
    #[error(
        "the webhook secret is {len} byte(s) long, shorter than the {min} lane serve accepts: set LANE_WEBHOOK_SECRET to a long random string (`openssl rand -hex 32`)"
    )]
    ShortSecret {
        /// Its length, in bytes (never the secret).
        len: usize,
        /// The least accepted.
        min: usize,
    },
    /// The state folder cannot be made.
    #[error("cannot create the state folder {}", path.display())]
    StateDir {
        /// The folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The state store failed.
    #[error("state store {}", path.display())]
    State {
        /// The file.
        path: PathBuf,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
    /// The state store's schema cannot be brought up to date.
    #[error("state store {}: schema", path.display())]
    StateSchema {
        /// The file.
        path: PathBuf,
        /// The migration's error.
        #[source]
        source: rusqlite_migration::Error,
    },
    /// The listen address cannot be bound.
    #[error("cannot listen on {addr}")]
    Listen {
        /// The address.
        addr: std::net::SocketAddr,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The async runtime or a thread cannot be started.
    #[error("cannot start the {what}")]
    Start {
        /// What.
        what: &'static str,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The configuration is not usable (a usage error).
    #[error("{0}")]
    Config(String),
}
