//! lane's artifact store: where a lane's verified wheel is staged so GPU pods
//! can fetch it before it is published, and where mint result bundles land
//! later. One interface, [`ArtifactStore`], with two stores: [`LocalStore`]
//! (a folder, the embedded default) and [`S3Store`] (any S3-compatible
//! bucket, for clusters). Start at [`open`], which turns a `file://` or
//! `s3://` location into a store, and at [`lane_key`] for the key layout
//! `lanes/<lane>/<commit>/<file>`.
//!
//! Every store is write-once and atomic: a reader never sees a partial
//! object; putting identical content under an existing key is a no-op;
//! different content under an existing key is refused with both digests.
//! An object goes away only when it is removed by its key
//! ([`ArtifactStore::remove`], for bounded retention).
//! Pods read through [`ArtifactStore::fetch_location`]: a time-limited
//! presigned URL (S3) or a path (local), and [`fetch`] reads it.
//!
//! [`S3Store`] is the `object_store` crate's S3 client (its credential
//! chain: keys, session tokens, EKS's IRSA web identity, container and
//! instance credentials; its bounded retries, conditional writes, multipart
//! uploads and presigned URLs) behind the sync [`ArtifactStore`] trait: the
//! store owns a small tokio runtime, and is safe to call from inside
//! another one. See the `s3` module's notes for how write-once holds.
//!
//! This crate knows nothing of lanes, wheels or git: it moves bytes under
//! keys. It never prints, and never lets a secret (the S3 secret key, a
//! session token, a presigned URL's signature) reach a `Debug`, `Display`
//! or error text.

mod error;
mod fetch;
mod key;
mod local;
mod s3;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use error::{S3Error, StoreError};
pub use fetch::{fetch, get_verified, has_userinfo, redact_url};
pub use key::{lane_key, StoreKey};
pub use local::LocalStore;
pub use s3::{S3Config, S3Credentials, S3Store, PART_SIZE};

/// What a put did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum PutOutcome {
    /// The object was written (and became visible at once, whole).
    Written {
        /// Hex sha256 of the content.
        sha256: String,
        /// Its size in bytes.
        size: u64,
    },
    /// The key already held exactly this content; nothing was written.
    AlreadyThere {
        /// Hex sha256 of the content.
        sha256: String,
        /// Its size in bytes.
        size: u64,
    },
}

impl PutOutcome {
    /// Hex sha256 of the content put.
    pub fn sha256(&self) -> &str {
        match self {
            PutOutcome::Written { sha256, .. } | PutOutcome::AlreadyThere { sha256, .. } => sha256,
        }
    }
}

/// Where a pod reads an object from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FetchLocation {
    /// A presigned URL that works without credentials until it expires.
    Url(String),
    /// A path on a filesystem the pod shares with the store.
    Path(PathBuf),
}

/// Content to put: bytes in memory or a file to read.
#[derive(Debug, Clone, Copy)]
pub enum Content<'a> {
    /// Bytes in memory.
    Bytes(&'a [u8]),
    /// A file, streamed from disk and never read whole: the local store
    /// copies it into a temporary file beside the key, the S3 store sends
    /// one larger than [`PART_SIZE`] in the parts of a multipart upload.
    File(&'a Path),
}

/// A write-once artifact store. See the crate documentation for the rules
/// every implementation keeps.
pub trait ArtifactStore: std::fmt::Debug + Send + Sync {
    /// Puts `content` under `key` atomically: a no-op when the key already
    /// holds the same bytes, [`StoreError::Conflict`] when it holds others.
    fn put_atomic(&self, key: &StoreKey, content: Content<'_>) -> Result<PutOutcome, StoreError>;
    /// The bytes under `key`; [`StoreError::NotFound`] when absent.
    fn get(&self, key: &StoreKey) -> Result<Vec<u8>, StoreError>;
    /// Streams the object under `key` into `sink` and returns its size:
    /// memory stays flat in the object's size. An object larger than
    /// `max_bytes` is refused ([`StoreError::TooLarge`]), when its size is
    /// known before a byte is read, else once `max_bytes` are past (what
    /// `sink` got by then is the caller's to throw away). See
    /// [`get_verified`] for a stream checked against its size and sha256.
    fn get_to(
        &self,
        key: &StoreKey,
        sink: &mut (dyn Write + Send),
        max_bytes: u64,
    ) -> Result<u64, StoreError>;
    /// Whether `key` holds an object.
    fn exists(&self, key: &StoreKey) -> Result<bool, StoreError>;
    /// Every key that starts with `prefix`, sorted.
    fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError>;
    /// Removes the object under `key` (bounded retention: lane's history
    /// drops its oldest runs); true when there was one. A removed key may
    /// be written again; no other object is touched.
    fn remove(&self, key: &StoreKey) -> Result<bool, StoreError>;
    /// Where a pod reads `key` from: a URL valid for `ttl`, or a path.
    fn fetch_location(&self, key: &StoreKey, ttl: Duration) -> Result<FetchLocation, StoreError>;
    /// The store's location, without secrets (`file:///...`, `s3://bucket/prefix`).
    fn location(&self) -> String;
}

/// Opens the store at `location`: `file:///abs/path`, a plain path, or
/// `s3://bucket/optional/prefix` (credentials, region and endpoint from the
/// environment: see [`S3Config::from_env`]). A location with credentials in
/// it (`s3://key:secret@bucket`) is refused, without them in the error.
pub fn open(location: &str) -> Result<Box<dyn ArtifactStore>, StoreError> {
    if has_userinfo(location) {
        return Err(StoreError::BadLocation {
            location: redact_url(location),
            why: "credentials do not go in the location: give them through the environment".into(),
        });
    }
    if let Some(rest) = location.strip_prefix("s3://") {
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        let config = S3Config::from_env(bucket, prefix)?;
        return Ok(Box::new(S3Store::new(config)?));
    }
    let path = location.strip_prefix("file://").unwrap_or(location);
    if path.is_empty() || location.contains("://") && !location.starts_with("file://") {
        return Err(StoreError::BadLocation {
            location: location.to_owned(),
            why: "expected file:///path, a path, or s3://bucket/prefix".into(),
        });
    }
    Ok(Box::new(LocalStore::new(path)?))
}

/// Hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex(&sha2::Sha256::digest(bytes))
}

/// A writer that hashes and counts what passes through it on its way to
/// `inner`: how a stream is checked without being held.
pub(crate) struct Hashing<W> {
    pub(crate) inner: W,
    hasher: sha2::Sha256,
    pub(crate) bytes: u64,
}

impl<W: Write> Hashing<W> {
    pub(crate) fn new(inner: W) -> Hashing<W> {
        use sha2::Digest;
        Hashing {
            inner,
            hasher: sha2::Sha256::new(),
            bytes: 0,
        }
    }

    /// The hex sha256 of everything written.
    pub(crate) fn sha256(&self) -> String {
        use sha2::Digest;
        hex(&self.hasher.clone().finalize())
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        use sha2::Digest;
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The hex sha256 and size of what `reader` gives, read in chunks.
pub(crate) fn sha256_of(reader: &mut dyn std::io::Read) -> std::io::Result<(String, u64)> {
    let mut h = Hashing::new(std::io::sink());
    std::io::copy(reader, &mut h)?;
    Ok((h.sha256(), h.bytes))
}

pub(crate) use lane_core::hex::hex;
