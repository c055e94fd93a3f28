//! The errors of the GitHub edge. Messages never carry a secret: they are
//! built from redacted text (see `auth::Redactor`).

/// Everything that can go wrong talking to GitHub.
#[derive(Debug, thiserror::Error)]
pub enum GithubError {
    /// The repository is not `owner/name`.
    #[error("invalid repository `{repo}` (expected owner/name)")]
    InvalidRepo {
        /// What was given (cut at 100 characters).
        repo: String,
    },
    /// The API base URL is not a URL.
    #[error("invalid GitHub API URL `{url}`")]
    InvalidApiUrl {
        /// What was given.
        url: String,
    },
    /// The GitHub App private key is not an RSA key in PEM.
    #[error("the GitHub App private key is not an RSA private key in PEM format")]
    InvalidAppKey,
    /// No credentials were found.
    #[error(
        "no GitHub credentials: set GITHUB_TOKEN, or LANE_GITHUB_APP_ID and LANE_GITHUB_APP_KEY"
    )]
    NoCredentials,
    /// The request never got a response (connection, TLS, timeout).
    #[error("{method} {path}: transport error: {message}")]
    Transport {
        /// The method.
        method: String,
        /// The API path.
        path: String,
        /// What failed (redacted).
        message: String,
    },
    /// GitHub answered with an error status.
    #[error("{method} {path}: GitHub answered {status}: {message}")]
    Status {
        /// The method.
        method: String,
        /// The API path.
        path: String,
        /// The HTTP status.
        status: u16,
        /// GitHub's `message`, or the start of the body (redacted).
        message: String,
    },
    /// Retries ran out (5xx, 429 or rate limits every time).
    #[error("{method} {path}: gave up after {attempts} attempts; last answer {status}")]
    RetriesExhausted {
        /// The method.
        method: String,
        /// The API path.
        path: String,
        /// Attempts made.
        attempts: u32,
        /// The last status.
        status: u16,
    },
    /// A rate limit asks to wait longer than the policy allows.
    #[error("{method} {path}: rate limited for {wait_s} s, above the {max_wait_s} s the retry policy waits")]
    RateLimitTooLong {
        /// The method.
        method: String,
        /// The API path.
        path: String,
        /// Seconds GitHub asked to wait.
        wait_s: u64,
        /// The policy's most.
        max_wait_s: u64,
    },
    /// A response body was not the JSON the description promises.
    #[error("{method} {path}: unexpected response body: {message}")]
    Decode {
        /// The method.
        method: String,
        /// The API path.
        path: String,
        /// What was wrong.
        message: String,
    },
}

impl GithubError {
    /// The HTTP status, when GitHub answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            GithubError::Status { status, .. } | GithubError::RetriesExhausted { status, .. } => {
                Some(*status)
            }
            _ => None,
        }
    }
}
