//! Every way a store operation can fail, one documented variant each. No
//! variant carries a secret: the S3 client's errors reach them only through
//! [`S3Error`], whose text is scrubbed.

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
        /// The location given (without any credentials it carried).
        location: String,
        /// What is wrong with it.
        why: String,
    },
    /// Half of an S3 key pair is in the environment.
    #[error("the S3 store needs {missing} in the environment")]
    MissingSetting {
        /// The variable missing.
        missing: &'static str,
    },
    /// The S3 client could not be built from its settings (a malformed
    /// endpoint, a credential setting it cannot use).
    #[error("the S3 client for {location} could not be set up")]
    Setup {
        /// The store's location.
        location: String,
        /// The client's error, scrubbed.
        #[source]
        source: Box<S3Error>,
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
    /// An S3 operation failed, after the client's bounded retries when the
    /// failure was a passing one (nothing half-written is visible: a single
    /// `PUT` shows an object only whole, a multipart upload only once it is
    /// completed, and a failed one is aborted).
    #[error("S3 {operation} {key} failed")]
    Transport {
        /// `PUT`, `GET`, `HEAD`, `LIST`, `SIGN`.
        operation: &'static str,
        /// The key (or prefix).
        key: String,
        /// The client's error, scrubbed.
        #[source]
        source: Box<S3Error>,
    },
    /// A plain HTTP request (a pod's fetch through a presigned URL, the
    /// bucket-creating `PUT`) got no answer: the connection, TLS or a
    /// timeout failed.
    #[error("{operation} {what}: the request failed")]
    Request {
        /// `GET`, `PUT`.
        operation: &'static str,
        /// The URL without its signature, or the bucket.
        what: String,
        /// The HTTP client's error.
        #[source]
        source: Box<ureq::Error>,
    },
    /// A plain HTTP request (see [`StoreError::Request`]) was answered with
    /// an error status.
    #[error("S3 {operation} {key}: HTTP {status}: {body}")]
    Status {
        /// `GET`, `PUT`.
        operation: &'static str,
        /// The URL without its signature, or the bucket.
        key: String,
        /// The HTTP status.
        status: u16,
        /// The start of the response body (S3's error XML), scrubbed.
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
    /// A fetched object is shorter than the size expected.
    #[error("{what}: {found} bytes, expected {expected}")]
    SizeMismatch {
        /// The object (its key).
        what: String,
        /// The size expected.
        expected: u64,
        /// The bytes it held.
        found: u64,
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
    /// another attempt, unlike a wrong digest, a 403 or a 404.
    pub fn is_transient(&self) -> bool {
        match self {
            StoreError::Transport { source, .. } => source.is_transient(),
            StoreError::Request { source, .. } => matches!(
                **source,
                ureq::Error::Io(_)
                    | ureq::Error::Timeout(_)
                    | ureq::Error::HostNotFound
                    | ureq::Error::ConnectionFailed
                    | ureq::Error::Protocol(_)
            ),
            StoreError::Status { status, .. } => matches!(status, 429 | 500..=599),
            _ => false,
        }
    }
}

/// An error of the S3 client (the `object_store` crate). Its text is the
/// client's whole chain of causes, scrubbed: the store's secret key and
/// session token, the signing material an S3 error answer echoes back
/// (`<CanonicalRequest>`, `<StringToSign>`, ...: a session token is one of
/// the headers it lists) and any signature or token in a URL are replaced
/// by `***`. It has no `source()`: every cause is in the scrubbed text,
/// and none is reachable unscrubbed by walking the chain.
pub struct S3Error {
    text: String,
    transient: bool,
    error: object_store::Error,
}

impl S3Error {
    /// Wraps `error`, scrubbing `secrets` (and what S3 echoes) from its text.
    pub(crate) fn new(error: object_store::Error, secrets: &[&str]) -> S3Error {
        S3Error {
            text: scrub(&chain_text(&error), secrets),
            transient: transient(&error),
            error,
        }
    }

    /// Whether the failure may pass on its own: a connection that failed
    /// or broke, a timeout, or S3 answering 408, 429 or 5xx (`SlowDown`,
    /// `InternalError`), still so after the client's own retries.
    pub fn is_transient(&self) -> bool {
        self.transient
    }

    /// The client's own error, for matching on its kind. Its `Display`
    /// is NOT scrubbed: show this `S3Error` instead.
    pub fn inner(&self) -> &object_store::Error {
        &self.error
    }
}

impl std::fmt::Display for S3Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::fmt::Debug for S3Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("S3Error").field(&self.text).finish()
    }
}

impl std::error::Error for S3Error {}

/// `error` and its causes, each said once.
fn chain_text(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut next = error.source();
    while let Some(cause) = next {
        let said = cause.to_string();
        if !text.contains(&said) {
            text = format!("{text}: {said}");
        }
        next = cause.source();
    }
    text
}

/// Whether object_store's `error` is a passing one. Its retry error type is
/// not public (0.14), so an answer's status is read from the text its
/// request error always has (`Server returned non-2xx status code: 503
/// Service Unavailable: ...`); a transport failure is its public
/// `HttpError` with a kind.
fn transient(error: &object_store::Error) -> bool {
    use object_store::client::{HttpError, HttpErrorKind};
    use object_store::Error as E;
    if matches!(
        error,
        E::NotFound { .. }
            | E::AlreadyExists { .. }
            | E::Precondition { .. }
            | E::NotModified { .. }
            | E::PermissionDenied { .. }
            | E::Unauthenticated { .. }
            | E::InvalidPath { .. }
            | E::NotSupported { .. }
            | E::NotImplemented { .. }
            | E::UnknownConfigurationKey { .. }
    ) {
        return false;
    }
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(cause) = next {
        if let Some(http) = cause.downcast_ref::<HttpError>() {
            return matches!(
                http.kind(),
                HttpErrorKind::Connect
                    | HttpErrorKind::Request
                    | HttpErrorKind::Timeout
                    | HttpErrorKind::Interrupted
            );
        }
        let text = cause.to_string();
        if let Some(rest) = text.strip_prefix("Server returned non-2xx status code: ") {
            let status: u16 = rest.get(..3).and_then(|s| s.parse().ok()).unwrap_or(0);
            return matches!(status, 408 | 429 | 500..=599);
        }
        // S3's error inside a 200 (`InternalError`, `SlowDown`).
        if text.starts_with("Server returned error response") {
            return true;
        }
        next = cause.source();
    }
    false
}

/// The elements of an S3 error answer that echo the signed request back:
/// a session token is one of the headers they list.
const ECHOED: [&str; 6] = [
    "CanonicalRequest",
    "CanonicalRequestBytes",
    "StringToSign",
    "StringToSignBytes",
    "SignatureProvided",
    "AWSAccessKeyId",
];

/// Query parameters of a presigned URL that authorise it.
const SIGNED_PARAMS: [&str; 3] = [
    "X-Amz-Signature=",
    "X-Amz-Security-Token=",
    "X-Amz-Credential=",
];

/// `text` with each of `secrets`, each echoed signing element's content and
/// each signing query value replaced by `***`, any `user:password@` in a
/// URL removed, and at most 2000 characters kept.
pub(crate) fn scrub(text: &str, secrets: &[&str]) -> String {
    let mut out = lane_core::secret::redact_userinfo(text);
    for s in secrets.iter().filter(|s| s.len() >= 4) {
        out = out.replace(s, "***");
    }
    for tag in ECHOED {
        let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
        let mut from = 0;
        while let Some(i) = out[from..].find(&open).map(|i| from + i + open.len()) {
            let end = out[i..].find(&close).map_or(out.len(), |j| i + j);
            out.replace_range(i..end, "***");
            from = i + 3;
        }
    }
    for param in SIGNED_PARAMS {
        let mut from = 0;
        while let Some(i) = out[from..].find(param).map(|i| from + i + param.len()) {
            let end = out[i..]
                .find(|c: char| c == '&' || c == '"' || c == '<' || c.is_whitespace())
                .map_or(out.len(), |j| i + j);
            out.replace_range(i..end, "***");
            from = i + 3;
        }
    }
    if out.chars().count() > 2000 {
        out = out.chars().take(2000).collect::<String>() + "…";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrubbing_removes_secrets_echoes_and_signatures() {
        let text = "403: <Error><Code>SignatureDoesNotMatch</Code><AWSAccessKeyId>AKID</AWSAccessKeyId>\
            <StringToSign>AWS4-HMAC-SHA256\n2024</StringToSign><CanonicalRequest>PUT\n/b/k\n\
            x-amz-security-token:tok-123456\n</CanonicalRequest></Error> \
            http://u:pw@h/b/k?X-Amz-Credential=AKID%2F&X-Amz-Security-Token=tok-123456&X-Amz-Signature=abcdef \
            and the key sekrit-key-1";
        let out = scrub(text, &["sekrit-key-1", ""]);
        for gone in [
            "tok-123456",
            "sekrit-key-1",
            "abcdef",
            "AKID",
            "pw@",
            "AWS4-HMAC",
        ] {
            assert!(!out.contains(gone), "{gone} in {out}");
        }
        assert!(out.contains("SignatureDoesNotMatch"), "{out}");
        assert!(out.contains("X-Amz-Signature=***"), "{out}");
        assert!(
            out.contains("<CanonicalRequest>***</CanonicalRequest>"),
            "{out}"
        );
        let long = "x".repeat(5000);
        assert_eq!(scrub(&long, &[]).chars().count(), 2001);
    }
}
