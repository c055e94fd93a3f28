//! Every way running mints can fail, one documented variant each.

use std::path::PathBuf;

impl MintError {
    /// A failure that may pass on its own (the network, a 5xx or 429 from
    /// the store): worth another attempt, unlike a wrong digest or a 404.
    pub fn is_transient(&self) -> bool {
        match self {
            MintError::ArtifactStore { source, .. } => source.is_transient(),
            MintError::Agent(e) => e.is_transient(),
            _ => false,
        }
    }
}

/// A failure of lane's mint runner (not of a mint: a mint's own failure is a `MintStatus`).
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
    /// The run store's schema could not be brought to this lane's: it is
    /// from a newer lane, or its migration failed.
    #[error("run store {}: its schema is not one this lane can use", .path.display())]
    StoreSchema {
        /// The store.
        path: PathBuf,
        /// Why.
        #[source]
        source: rusqlite_migration::Error,
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
    #[error("lane {lane} has no `mint:` section: nothing to mint (add one naming its GPU classes and cells, as lanes/0.93.3.yaml does; docs/lane-file.md, its Keys)")]
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
    /// The run was interrupted (Ctrl-C); state is persisted.
    #[error("interrupted: every agent was stopped and the run store is saved; run `lane mint` again to resume")]
    Interrupted,
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
    /// A result bundle's manifest names more to fetch than lane fetches for
    /// one slot: refused before a byte of it is fetched.
    #[error("result bundle {key}: its manifest names {files} file(s) of {bytes} bytes in all, more than the {max_files} file(s) or {max_bytes} bytes lane fetches for one slot (maxFetchBytes): refused before fetching")]
    OverFetchCap {
        /// The bundle's store key.
        key: String,
        /// The files it names.
        files: usize,
        /// Their bytes in all.
        bytes: u64,
        /// The most files fetched for one slot.
        max_files: usize,
        /// The most bytes fetched for one slot.
        max_bytes: u64,
    },
    /// A file a result bundle's manifest names did not come back whole
    /// from the store (missing, another size or sha256, or the store failed).
    #[error("{path} (store key {key}) did not come back whole")]
    StoredFile {
        /// The file's path in the attempt's folder.
        path: String,
        /// Its store key.
        key: String,
        /// Why (boxed: a store error is large, and rare).
        #[source]
        source: Box<lane_store::StoreError>,
    },
    /// Mints ended but lane's own part failed (gathering, bundling or
    /// storing: a full disk, EIO, a permission): their reports and
    /// outcomes are kept and their slots left open; the next `lane mint`
    /// finishes them without running their mints again.
    #[error("{slots} mint(s) ended but lane could not gather them (first {slot}: {why}); their reports and outcomes are kept: fix that (free space) and run `lane mint` again, which finishes them without minting them again")]
    Unfinished {
        /// How many slots.
        slots: usize,
        /// The first of them.
        slot: String,
        /// Why, in words (lane's I/O error).
        why: String,
    },
    /// `reopen` was asked for a slot the lane's plan does not have.
    #[error("lane {lane} has no slot `{slot}` (a slot is `<cell>/<gpu>/r<N>`, as `lane status` lists them)")]
    UnknownSlot {
        /// The slot as asked.
        slot: String,
        /// The lane.
        lane: String,
    },
    /// `reopen` was asked for a slot whose last attempt is still open.
    #[error("slot {slot} is still open (attempt {attempt} is {state}): `lane mint` finishes it; only an ended slot is re-opened")]
    SlotOpen {
        /// The slot.
        slot: String,
        /// Its last attempt.
        attempt: String,
        /// Where it stands.
        state: &'static str,
    },
    /// `reopen` on a lane that has no run store yet.
    #[error("no run store at {}: the lane has not minted here", .path.display())]
    NeverMinted {
        /// Where the run store would be.
        path: PathBuf,
    },
    /// The agent failed (run in-process by `collect`'s helpers).
    #[error(transparent)]
    Agent(#[from] lane_agent::AgentError),
}
