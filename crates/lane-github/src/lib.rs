//! lane's GitHub edge: the sticky PR comment (one per lane and PR, found
//! again by a hidden marker, updated in place with PATCH, never duplicated,
//! also when two runs race), the lane's check run, bounded retries that
//! honour `Retry-After` and `x-ratelimit-reset`, and authentication by token
//! or GitHub App. Built on octocrab's raw `_get/_post/_patch/_delete`, so
//! every request has exactly the shape GitHub's OpenAPI description gives.
//!
//! Where to start reading: [`GithubClient::connect`] (auth, API base),
//! [`GithubClient::upsert_comment`] (the sticky algorithm, `comments.rs`),
//! [`GithubClient::upsert_check_run`] (`checks.rs`),
//! [`GithubClient::add_reaction`] and [`GithubClient::pull_request`]
//! (`issues.rs`, for `lane serve`), [`GithubClient::open_pull`] (a trunk
//! lane's cut PR, `pulls.rs`), and `client.rs` for the
//! retry policy. [`plan`] builds the exact requests for `--dry-run` without
//! a client.
//!
//! It renders nothing (that is `lane-render`), reads no files and prints
//! nothing; it emits `tracing` events. Secrets ([`Secret`]) never appear in
//! `Debug`, `Display`, errors or events: every message that could carry a
//! response or transport error is redacted against the client's secrets.

mod auth;
mod checks;
mod client;
mod comments;
mod error;
mod issues;
pub mod plan;
mod pulls;

pub use auth::{Auth, Secret};
pub use checks::{CheckRun, CheckRunOutcome};
pub use client::{ClientConfig, GithubClient, RetryPolicy, DEFAULT_API_URL};
pub use comments::{CommentAction, CommentOutcome};
pub use error::GithubError;
pub use issues::{PullInfo, Reaction};
pub use pulls::{OpenedPull, PullSpec};

/// A repository, `owner/name`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repo {
    /// The owner (user or organisation).
    pub owner: String,
    /// The repository name.
    pub name: String,
}

impl Repo {
    /// Parses `owner/name`; both parts must be non-empty and made of
    /// letters, digits, `-`, `_` and `.`.
    pub fn parse(s: &str) -> Result<Repo, GithubError> {
        let ok = |p: &str| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        };
        match s.split_once('/') {
            Some((o, n)) if ok(o) && ok(n) => Ok(Repo {
                owner: o.to_owned(),
                name: n.to_owned(),
            }),
            _ => Err(GithubError::InvalidRepo {
                repo: s.chars().take(100).collect(),
            }),
        }
    }
}

impl std::fmt::Display for Repo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.owner, self.name)
    }
}
