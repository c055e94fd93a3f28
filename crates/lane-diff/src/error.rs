//! Why a determinism diff could not be computed.

impl DiffError {
    /// The tree the error is about: `A` or `B`.
    pub fn side(&self) -> &'static str {
        match self {
            DiffError::DuplicatePath { side, .. }
            | DiffError::BadFingerprint { side, .. }
            | DiffError::BadPath { side, .. }
            | DiffError::EmptyTree { side } => side,
        }
    }
}

/// Why a determinism diff could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    /// A tree lists the same relative path twice.
    #[error("tree {side} lists {path} twice")]
    DuplicatePath {
        /// `A` or `B`.
        side: &'static str,
        /// The repeated path.
        path: String,
    },
    /// A fingerprint is not a 64-digit hex sha256.
    #[error("tree {side}: {path} has a malformed sha256 fingerprint")]
    BadFingerprint {
        /// `A` or `B`.
        side: &'static str,
        /// The file.
        path: String,
    },
    /// A path is absolute or climbs out of the tree.
    #[error("tree {side}: {path} is not a relative path inside the tree")]
    BadPath {
        /// `A` or `B`.
        side: &'static str,
        /// The file.
        path: String,
    },
    /// A tree has no files at all: an absence, never "identical".
    #[error("tree {side} has no files")]
    EmptyTree {
        /// `A` or `B`.
        side: &'static str,
    },
}
