//! Every way running mints can fail, one documented variant each.

use std::path::PathBuf;

impl MintError {
    /// A failure that may pass on its own (the network, a 5xx or 429 from
    /// the store): worth another attempt, unlike a wrong digest or a 404.
    pub fn is_transient(&self) -> bool {
        match self {
            MintError::Wheel { source, .. }
            | MintError::Source { source, .. }
            | MintError::ArtifactStore { source, .. } => {
                matches!(
                    source,
                    lane_store::StoreError::Transport { .. }
                        | lane_store::StoreError::Status {
                            status: 429 | 500..=599,
                            ..
                        }
                )
            }
            _ => false,
        }
    }
}

/// A failure of lane's mint runner (not of a mint: a mint's own failure is an `MintStatus`).
#[derive(Debug, thiserror::Error)]
pub enum MintError {
    /// A file or folder could not be read or written.
    #[error("{}", .path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The run store failed.
    #[error("run store {}", .path.display())]
    Store {
        /// The store's file.
        path: PathBuf,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
    /// The lane file has no `mint` section.
    #[error("lane {lane} has no `mint:` section: nothing to mint")]
    NoMatrix {
        /// The lane.
        lane: String,
    },
    /// The agent could not be started.
    #[error("cannot start the agent `{program}`")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Another agent already claimed this mint folder.
    #[error("mint folder {} is already claimed by agent pid {pid}", .dir.display())]
    Claimed {
        /// The folder.
        dir: PathBuf,
        /// The claiming agent.
        pid: u32,
    },
    /// The run was interrupted (Ctrl-C); state is persisted.
    #[error("interrupted: every agent was stopped and the run store is saved; run `lane mint` again to resume")]
    Interrupted,
    /// The wheel could not be fetched (or was not the staged one).
    #[error("fetching the wheel {what}")]
    Wheel {
        /// The wheel (a URL without its signature).
        what: String,
        /// Why.
        #[source]
        source: lane_store::StoreError,
    },
    /// The source archive could not be fetched (or was not the staged one).
    #[error("fetching the source archive {what}")]
    Source {
        /// The archive (a URL without its signature).
        what: String,
        /// Why.
        #[source]
        source: lane_store::StoreError,
    },
    /// The source archive is not a `.tar.gz` lane unpacks.
    #[error("source archive {what}: {why}")]
    BadSource {
        /// The archive (a URL without its signature).
        what: String,
        /// What is wrong with it.
        why: String,
    },
    /// The artifact store could not be read or written.
    #[error("artifact store: {what}")]
    ArtifactStore {
        /// What lane was doing.
        what: String,
        /// Why.
        #[source]
        source: lane_store::StoreError,
    },
    /// A result bundle in the store is not a readable zip with a `result.json`.
    #[error("result bundle {key}: {why}")]
    BadBundle {
        /// The bundle's store key.
        key: String,
        /// What is wrong with it.
        why: String,
    },
}
