//! Every way a store operation can fail, one documented variant each. No
//! variant carries a secret.

/// A failure of the artifact store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The key is not a valid store key.
    #[error("invalid store key `{key}`: {why}")]
    BadKey {
        /// The key given.
        key: String,
        /// What is wrong with it.
        why: String,
    },
    /// The store location could not be understood.
    #[error("invalid store location `{location}`: {why}")]
    BadLocation {
        /// The location given.
        location: String,
        /// What is wrong with it.
        why: String,
    },
    /// S3 settings are missing from the environment.
    #[error("the S3 store needs {missing} in the environment")]
    MissingSetting {
        /// The variable(s) missing.
        missing: &'static str,
    },
    /// The key already holds different content; stores are write-once.
    #[error("{key} already holds different content (stored sha256 {existing}, new sha256 {new}): refusing to overwrite")]
    Conflict {
        /// The key.
        key: String,
        /// The stored object's sha256 (or what is known of it).
        existing: String,
        /// The new content's sha256.
        new: String,
    },
    /// No object under the key.
    #[error("{key} is not in the store")]
    NotFound {
        /// The key.
        key: String,
    },
    /// A filesystem operation failed.
    #[error("store i/o: {what}")]
    Io {
        /// What lane was doing.
        what: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The S3 endpoint could not be reached or the connection broke (the
    /// object is not visible: uploads are single requests).
    #[error("S3 {operation} {key}: transport failed")]
    Transport {
        /// `PUT`, `GET`, `HEAD`, `LIST`.
        operation: &'static str,
        /// The key (or prefix).
        key: String,
        /// The client's error.
        #[source]
        source: Box<ureq::Error>,
    },
    /// The S3 endpoint answered with an error status.
    #[error("S3 {operation} {key}: HTTP {status}: {body}")]
    Status {
        /// `PUT`, `GET`, `HEAD`, `LIST`.
        operation: &'static str,
        /// The key (or prefix).
        key: String,
        /// The HTTP status.
        status: u16,
        /// The start of the response body (S3's error XML).
        body: String,
    },
    /// A fetched object is larger than the limit the reader set.
    #[error("{what} is larger than {limit} bytes")]
    TooLarge {
        /// The object (a path, or a URL without its signature).
        what: String,
        /// The limit in bytes.
        limit: u64,
    },
    /// A fetched object's sha256 is not the one expected.
    #[error("{what}: sha256 {found}, expected {expected}")]
    DigestMismatch {
        /// The object (a path, or a URL without its signature).
        what: String,
        /// The sha256 expected.
        expected: String,
        /// The sha256 of what was fetched.
        found: String,
    },
}

impl StoreError {
    /// Whether it may pass on its own (the network, a 5xx or 429): worth
    /// another attempt, unlike a wrong digest or a 404.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            StoreError::Transport { .. }
                | StoreError::Status {
                    status: 429 | 500..=599,
                    ..
                }
        )
    }
}
