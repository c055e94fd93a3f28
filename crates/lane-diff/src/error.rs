//! Why a determinism diff could not be computed.

impl DiffError {
    /// The tree (or mint) the error is about: `A` or `B` (`A` when it is
    /// about both).
    pub fn side(&self) -> &'static str {
        match self {
            DiffError::DuplicatePath { side, .. }
            | DiffError::BadFingerprint { side, .. }
            | DiffError::BadPath { side, .. }
            | DiffError::EmptyTree { side }
            | DiffError::DuplicateClass { side, .. }
            | DiffError::BadClassKey { side, .. } => side,
            DiffError::NoClasses => "A",
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
    /// A mint names the same graph class twice.
    #[error("mint {side} names graph class {key:?} twice")]
    DuplicateClass {
        /// `A` or `B`.
        side: &'static str,
        /// The repeated key.
        key: String,
    },
    /// A graph class key that is empty, too long or holds a control character.
    #[error("mint {side} names a graph class by {key:?}: a key is 1 to 512 bytes with no control character")]
    BadClassKey {
        /// `A` or `B`.
        side: &'static str,
        /// The key (its first 80 characters).
        key: String,
    },
    /// Neither mint names a graph class: an absence, never "identical".
    #[error("neither mint names a graph class")]
    NoClasses,
}
