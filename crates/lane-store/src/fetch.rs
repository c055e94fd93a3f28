//! The reading end of a pod: fetch an object through the location the store
//! handed out ([`crate::ArtifactStore::fetch_location`]): a presigned URL
//! (no credentials needed) or a path. A presigned URL is a bearer secret
//! until it expires, so only its redacted form ([`redact_url`]) ever reaches
//! an error or a log.

use std::io::Read;
use std::time::Duration;

use crate::{sha256_hex, ArtifactStore, FetchLocation, Hashing, StoreError, StoreKey};

pub use lane_core::secret::{has_userinfo, shown_url as redact_url};

/// Streams the object under `key` into `sink`, checking as it streams
/// that it is `size` bytes whose sha256 is `sha256` (hex): a longer object
/// stops at `size` ([`StoreError::TooLarge`]), a shorter one is
/// [`StoreError::SizeMismatch`], other bytes [`StoreError::DigestMismatch`].
/// On an error `sink` holds what came before it: the caller writes to a
/// temporary file and keeps it only on success. Memory is one chunk.
pub fn get_verified(
    store: &dyn ArtifactStore,
    key: &StoreKey,
    sink: &mut (dyn std::io::Write + Send),
    size: u64,
    sha256: &str,
) -> Result<(), StoreError> {
    let mut hashing = Hashing::new(sink);
    store.get_to(key, &mut hashing, size)?;
    if hashing.bytes != size {
        return Err(StoreError::SizeMismatch {
            what: key.to_string(),
            expected: size,
            found: hashing.bytes,
        });
    }
    let found = hashing.sha256();
    if !found.eq_ignore_ascii_case(sha256) {
        return Err(StoreError::DigestMismatch {
            what: key.to_string(),
            expected: sha256.to_owned(),
            found,
        });
    }
    Ok(())
}

/// The whole object at `location`, at most `max_bytes`, checked against
/// `sha256` (hex) when one is given.
pub fn fetch(
    location: &FetchLocation,
    sha256: Option<&str>,
    max_bytes: u64,
    timeout: Duration,
) -> Result<Vec<u8>, StoreError> {
    let (shown, bytes) = match location {
        FetchLocation::Path(p) => {
            let shown = p.display().to_string();
            let f = std::fs::File::open(p).map_err(|source| StoreError::Io {
                what: format!("reading {shown}"),
                source,
            })?;
            let mut bytes = Vec::new();
            f.take(max_bytes + 1)
                .read_to_end(&mut bytes)
                .map_err(|source| StoreError::Io {
                    what: format!("reading {shown}"),
                    source,
                })?;
            (shown, bytes)
        }
        FetchLocation::Url(url) => {
            let shown = redact_url(url);
            let agent: ureq::Agent = ureq::Agent::config_builder()
                .http_status_as_error(false)
                .timeout_global(Some(timeout))
                .build()
                .into();
            let mut resp = agent.get(url).call().map_err(|e| StoreError::Request {
                operation: "GET",
                what: shown.clone(),
                source: Box::new(e),
            })?;
            let status = resp.status().as_u16();
            if status != 200 {
                let body = resp.body_mut().read_to_string().unwrap_or_default();
                return Err(StoreError::Status {
                    operation: "GET",
                    key: shown,
                    status,
                    body: crate::error::scrub(&body.chars().take(400).collect::<String>(), &[]),
                });
            }
            let mut bytes = Vec::new();
            resp.body_mut()
                .as_reader()
                .take(max_bytes + 1)
                .read_to_end(&mut bytes)
                .map_err(|source| StoreError::Io {
                    what: format!("downloading {shown}"),
                    source,
                })?;
            (shown, bytes)
        }
    };
    if bytes.len() as u64 > max_bytes {
        return Err(StoreError::TooLarge {
            what: shown,
            limit: max_bytes,
        });
    }
    if let Some(want) = sha256 {
        let got = sha256_hex(&bytes);
        if !got.eq_ignore_ascii_case(want) {
            return Err(StoreError::DigestMismatch {
                what: shown,
                expected: want.to_owned(),
                found: got,
            });
        }
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redaction_drops_the_signature_and_any_userinfo() {
        assert_eq!(
            redact_url("https://s3.example/lanes/w.whl?X-Amz-Signature=abc&X-Amz-Credential=k"),
            "https://s3.example/lanes/w.whl"
        );
        assert_eq!(
            redact_url("http://user:pw@host:9000/b/k#frag"),
            "http://host:9000/b/k"
        );
        assert_eq!(redact_url("http://host"), "http://host");
    }

    #[test]
    fn a_path_is_read_and_checked_against_its_digest() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("w.whl");
        std::fs::write(&p, b"wheel bytes").unwrap();
        let loc = FetchLocation::Path(p);
        let t = Duration::from_secs(5);
        let good = sha256_hex(b"wheel bytes");
        assert_eq!(fetch(&loc, Some(&good), 100, t).unwrap(), b"wheel bytes");
        let e = fetch(&loc, Some(&"0".repeat(64)), 100, t).unwrap_err();
        assert!(matches!(e, StoreError::DigestMismatch { .. }), "{e}");
        let e = fetch(&loc, None, 4, t).unwrap_err();
        assert!(matches!(e, StoreError::TooLarge { limit: 4, .. }), "{e}");
    }

    #[test]
    fn an_unreachable_url_names_it_without_its_signature() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let url = format!("http://127.0.0.1:{port}/b/w.whl?X-Amz-Signature=deadbeef");
        let e = fetch(&FetchLocation::Url(url), None, 100, Duration::from_secs(5)).unwrap_err();
        let text = format!("{e:#} {e:?}");
        assert!(text.contains("/b/w.whl"), "{text}");
        assert!(!text.contains("deadbeef"), "{text}");
    }
}
