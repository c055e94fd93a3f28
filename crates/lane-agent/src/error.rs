//! Every way the agent can fail, one documented variant each.

use std::path::PathBuf;

impl AgentError {
    /// A failure that may pass on its own (the network, a 5xx or 429 from
    /// the store): worth another attempt, unlike a wrong digest or a 404.
    pub fn is_transient(&self) -> bool {
        match self {
            AgentError::Wheel { source, .. } | AgentError::Source { source, .. } => {
                source.is_transient()
            }
            _ => false,
        }
    }
}

/// A failure of the agent (not of its mint: a mint's own failure is a `MintStatus`).
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// A file or folder could not be read or written.
    #[error("{}", .path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
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
    /// A mint whose agent is gone still runs and its group did not end
    /// when killed.
    #[error("the orphaned mint of {} (process group {pgid}) did not end when killed", .dir.display())]
    Orphan {
        /// The attempt's folder.
        dir: PathBuf,
        /// Its process group.
        pgid: u32,
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
}
