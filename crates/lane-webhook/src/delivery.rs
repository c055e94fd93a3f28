//! A webhook delivery read into the few fields lane needs.
//!
//! GitHub sends many more fields than these; they are skipped (never
//! refused). A field lane needs that is missing or of the wrong type is an
//! [`EventError`] naming its JSON path, line and column. Text a sender
//! wrote (comment bodies, logins, branch names) is kept as [`Foreign`].
//!
//! The body must be capped by the caller before it is read from the
//! socket: GitHub caps a delivery at 25 MB ([`MAX_BODY_BYTES`]), and
//! [`Delivery::parse`] refuses a larger body without reading it.

use crate::policy::AuthorAssociation;
use crate::Foreign;
use std::fmt;

/// The largest body lane reads: GitHub caps webhook payloads at 25 MB.
pub const MAX_BODY_BYTES: usize = 25 * 1024 * 1024;

/// The longest `X-GitHub-Delivery` id lane takes (GitHub's are GUIDs, 36).
const MAX_DELIVERY_ID: usize = 128;

/// The longest `X-GitHub-Event` name lane takes.
const MAX_EVENT_NAME: usize = 64;

/// One delivery: its id and its event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    /// `X-GitHub-Delivery`: the same id when GitHub redelivers.
    pub id: DeliveryId,
    /// What happened.
    pub event: Event,
}

/// An `X-GitHub-Delivery` id: 1 to 128 ASCII letters, digits and `-`
/// (GitHub sends a GUID), so it is safe to log and show.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DeliveryId(String);

impl DeliveryId {
    /// Checks an id.
    pub fn parse(id: &str) -> Option<DeliveryId> {
        let ok = (1..=MAX_DELIVERY_ID).contains(&id.len())
            && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        ok.then(|| DeliveryId(id.to_owned()))
    }

    /// The id.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for DeliveryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A delivery's event, by `X-GitHub-Event`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// `issue_comment`: a comment on an issue or a pull request.
    IssueComment(IssueComment),
    /// `pull_request`.
    PullRequest(PullRequest),
    /// `ping`: sent when the webhook is created.
    Ping(Ping),
    /// Any other event, not read (not an error: a webhook may be
    /// subscribed to more events than lane acts on).
    Other {
        /// The `X-GitHub-Event` name (lower-case letters, digits and `_`).
        event: String,
    },
}

/// What happened to an issue comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommentAction {
    /// `created`.
    Created,
    /// `edited`.
    Edited,
    /// Any other action (`deleted`), as GitHub wrote it: lane ignores it.
    Other(String),
}

/// An `issue_comment` delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssueComment {
    /// What happened.
    pub action: CommentAction,
    /// `repository.full_name`.
    pub repo: RepoName,
    /// `issue.number`: the issue's or pull request's number.
    pub number: u64,
    /// Whether the issue is a pull request (`issue.pull_request` present).
    pub is_pull_request: bool,
    /// `comment.id`.
    pub comment_id: u64,
    /// `comment.body` (empty when GitHub sends `null`).
    pub body: Foreign,
    /// `comment.user`.
    pub author: Author,
    /// `comment.author_association`.
    pub author_association: AuthorAssociation,
    /// For `edited`: the body before the edit (`changes.body.from`), when
    /// the body was what changed.
    pub previous_body: Option<Foreign>,
}

/// Who wrote a comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Author {
    /// `user.login`.
    pub login: Foreign,
    /// Whether GitHub says the user is a bot (`user.type` is `Bot`).
    pub bot_type: bool,
}

impl Author {
    /// Whether the author is a bot: GitHub says so, or its login ends in
    /// `[bot]` (a GitHub App, lane's own comments among them).
    pub fn is_bot(&self) -> bool {
        self.bot_type || self.login.as_raw().ends_with("[bot]")
    }
}

/// What happened to a pull request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PullRequestAction {
    /// `synchronize`: its head branch moved.
    Synchronize,
    /// `opened`.
    Opened,
    /// `reopened`.
    Reopened,
    /// `closed` (merged or not).
    Closed,
    /// Any other action (`labeled`, `edited`, ...), as GitHub wrote it.
    Other(String),
}

/// A `pull_request` delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullRequest {
    /// What happened.
    pub action: PullRequestAction,
    /// `repository.full_name`.
    pub repo: RepoName,
    /// `number`.
    pub number: u64,
    /// `pull_request.head.sha`.
    pub head_sha: CommitSha,
    /// `pull_request.head.ref` (a branch name: anyone with a fork picks it).
    pub head_ref: Foreign,
    /// `pull_request.base.ref` (the branch it merges into).
    pub base_ref: Foreign,
}

impl PullRequest {
    /// The lane this pull request merges into, by its base branch
    /// ([`lane_of_base_ref`](crate::lane_of_base_ref)).
    pub fn lane(&self) -> Option<String> {
        crate::lane_of_base_ref(self.base_ref.as_raw())
    }
}

/// A `ping` delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ping {
    /// `zen`: a line of GitHub's zen (empty when absent).
    pub zen: String,
    /// `hook_id`: the webhook's id.
    pub hook_id: Option<u64>,
}

/// A repository's `owner/name`: two parts of ASCII letters, digits, `.`,
/// `_` and `-` (what GitHub allows), so it is safe to show and to put in a
/// URL path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RepoName(String);

impl RepoName {
    /// Checks `owner/name`.
    pub fn parse(full_name: &str) -> Option<RepoName> {
        let part = |s: &str| {
            (1..=100).contains(&s.len())
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        };
        let (owner, name) = full_name.split_once('/')?;
        (part(owner) && part(name)).then(|| RepoName(full_name.to_owned()))
    }

    /// `owner/name`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The owner.
    pub fn owner(&self) -> &str {
        self.0.split_once('/').map_or("", |(o, _)| o)
    }

    /// The name.
    pub fn name(&self) -> &str {
        self.0.split_once('/').map_or("", |(_, n)| n)
    }
}

impl fmt::Display for RepoName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A commit id as GitHub sends it: 40 (SHA-1) or 64 (SHA-256) lower-case
/// hexadecimal digits.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CommitSha(String);

impl CommitSha {
    /// Checks a full commit id.
    pub fn parse(sha: &str) -> Option<CommitSha> {
        let ok = matches!(sha.len(), 40 | 64)
            && sha.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        ok.then(|| CommitSha(sha.to_owned()))
    }

    /// The commit id.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CommitSha {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a delivery is refused. Each names the event; none holds the body.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// The body is over [`MAX_BODY_BYTES`] (it was not read).
    #[error("webhook body of {len} bytes is over the {limit}-byte cap")]
    TooLarge {
        /// Its length.
        len: usize,
        /// The cap.
        limit: usize,
    },
    /// `X-GitHub-Delivery` is not 1 to 128 letters, digits and `-` (the
    /// headers are not signed: only the body is).
    #[error("invalid X-GitHub-Delivery header: expected 1 to 128 ASCII letters, digits and `-`")]
    InvalidDeliveryId,
    /// `X-GitHub-Event` is not 1 to 64 lower-case letters, digits and `_`.
    #[error("invalid X-GitHub-Event header: expected 1 to 64 lower-case letters, digits and `_`")]
    InvalidEventName,
    /// The body is not JSON, or a field lane needs is missing or of the
    /// wrong type. The message is serde's (it may quote a value of the
    /// body, escaped): for logs and the HTTP answer, not for a PR comment.
    #[error("{event} delivery: at `{path}` (line {line}, column {column}): {message}")]
    Json {
        /// The event.
        event: String,
        /// The JSON path (`comment.user.login`; `.` for the whole document).
        path: String,
        /// 1-based line (0 when the parser did not say).
        line: usize,
        /// 1-based column (0 when the parser did not say).
        column: usize,
        /// What was expected, in serde's words, without the position.
        message: String,
        /// The parser's own error.
        #[source]
        source: serde_json::Error,
    },
    /// A field lane needs holds a value GitHub never sends there.
    #[error("{event} delivery: at `{path}`: expected {expected}")]
    InvalidField {
        /// The event.
        event: String,
        /// The JSON path.
        path: &'static str,
        /// What lane expected there.
        expected: &'static str,
    },
}

impl Delivery {
    /// Reads a delivery: `event` is the `X-GitHub-Event` header,
    /// `delivery_id` the `X-GitHub-Delivery` header and `body` the request
    /// body (its signature checked first, by
    /// [`verify_signature`](crate::verify_signature)).
    ///
    /// `issue_comment`, `pull_request` and `ping` are read; any other event
    /// is [`Event::Other`] without reading its body.
    pub fn parse(event: &str, delivery_id: &str, body: &[u8]) -> Result<Delivery, EventError> {
        if body.len() > MAX_BODY_BYTES {
            return Err(EventError::TooLarge {
                len: body.len(),
                limit: MAX_BODY_BYTES,
            });
        }
        let id = DeliveryId::parse(delivery_id).ok_or(EventError::InvalidDeliveryId)?;
        let name_ok = (1..=MAX_EVENT_NAME).contains(&event.len())
            && event
                .bytes()
                .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'_'));
        if !name_ok {
            return Err(EventError::InvalidEventName);
        }
        let event = match event {
            "issue_comment" => Event::IssueComment(issue_comment(read(event, body)?, event)?),
            "pull_request" => Event::PullRequest(pull_request(read(event, body)?, event)?),
            "ping" => {
                let w: wire::Ping = read(event, body)?;
                Event::Ping(Ping {
                    zen: w.zen.unwrap_or_default(),
                    hook_id: w.hook_id,
                })
            }
            other => Event::Other {
                event: other.to_owned(),
            },
        };
        Ok(Delivery { id, event })
    }
}

/// `body` as `T`, naming the path, line and column where it does not read.
fn read<T: serde::de::DeserializeOwned>(event: &str, body: &[u8]) -> Result<T, EventError> {
    let fail = |path: String, source: serde_json::Error| {
        let full = source.to_string();
        let position = format!(" at line {} column {}", source.line(), source.column());
        EventError::Json {
            event: event.to_owned(),
            path,
            line: source.line(),
            column: source.column(),
            message: full.strip_suffix(&position).unwrap_or(&full).to_owned(),
            source,
        }
    };
    let mut de = serde_json::Deserializer::from_slice(body);
    let value = serde_path_to_error::deserialize(&mut de)
        .map_err(|e| fail(e.path().to_string(), e.into_inner()))?;
    de.end().map_err(|e| fail(".".into(), e))?;
    Ok(value)
}

fn repo(event: &str, full_name: &str) -> Result<RepoName, EventError> {
    RepoName::parse(full_name).ok_or_else(|| EventError::InvalidField {
        event: event.to_owned(),
        path: "repository.full_name",
        expected: "owner/name of ASCII letters, digits, `.`, `_` and `-`",
    })
}

fn issue_comment(w: wire::IssueComment, event: &str) -> Result<IssueComment, EventError> {
    let action = match w.action.as_str() {
        "created" => CommentAction::Created,
        "edited" => CommentAction::Edited,
        _ => CommentAction::Other(w.action),
    };
    Ok(IssueComment {
        action,
        repo: repo(event, &w.repository.full_name)?,
        number: w.issue.number,
        is_pull_request: w.issue.pull_request.is_some(),
        comment_id: w.comment.id,
        body: Foreign::new(w.comment.body.unwrap_or_default()),
        author: Author {
            login: Foreign::new(w.comment.user.login),
            bot_type: w.comment.user.kind.as_deref() == Some("Bot"),
        },
        author_association: AuthorAssociation::parse(&w.comment.author_association),
        previous_body: w
            .changes
            .and_then(|c| c.body)
            .and_then(|b| b.from)
            .map(Foreign::new),
    })
}

fn pull_request(w: wire::PullRequestEvent, event: &str) -> Result<PullRequest, EventError> {
    let action = match w.action.as_str() {
        "synchronize" => PullRequestAction::Synchronize,
        "opened" => PullRequestAction::Opened,
        "reopened" => PullRequestAction::Reopened,
        "closed" => PullRequestAction::Closed,
        _ => PullRequestAction::Other(w.action),
    };
    let head_sha =
        CommitSha::parse(&w.pull_request.head.sha).ok_or_else(|| EventError::InvalidField {
            event: event.to_owned(),
            path: "pull_request.head.sha",
            expected: "a commit id of 40 or 64 lower-case hexadecimal digits",
        })?;
    Ok(PullRequest {
        action,
        repo: repo(event, &w.repository.full_name)?,
        number: w.number,
        head_sha,
        head_ref: Foreign::new(w.pull_request.head.ref_),
        base_ref: Foreign::new(w.pull_request.base.ref_),
    })
}

/// The payloads' shapes, only the fields lane reads (the rest is skipped).
mod wire {
    use serde::de::IgnoredAny;
    use serde::Deserialize;

    #[derive(Deserialize)]
    pub struct Repository {
        pub full_name: String,
    }

    #[derive(Deserialize)]
    pub struct IssueComment {
        pub action: String,
        pub repository: Repository,
        pub issue: Issue,
        pub comment: Comment,
        #[serde(default)]
        pub changes: Option<Changes>,
    }

    #[derive(Deserialize)]
    pub struct Issue {
        pub number: u64,
        /// Present (an object) on a pull request's issue; absent or `null`
        /// on a plain issue.
        #[serde(default)]
        pub pull_request: Option<IgnoredAny>,
    }

    #[derive(Deserialize)]
    pub struct Comment {
        pub id: u64,
        #[serde(default)]
        pub body: Option<String>,
        pub user: User,
        pub author_association: String,
    }

    #[derive(Deserialize)]
    pub struct User {
        pub login: String,
        #[serde(default, rename = "type")]
        pub kind: Option<String>,
    }

    #[derive(Deserialize)]
    pub struct Changes {
        #[serde(default)]
        pub body: Option<From>,
    }

    #[derive(Deserialize)]
    pub struct From {
        #[serde(default)]
        pub from: Option<String>,
    }

    #[derive(Deserialize)]
    pub struct PullRequestEvent {
        pub action: String,
        pub number: u64,
        pub repository: Repository,
        pub pull_request: PullRequestObject,
    }

    #[derive(Deserialize)]
    pub struct PullRequestObject {
        pub head: Branch,
        pub base: Branch,
    }

    #[derive(Deserialize)]
    pub struct Branch {
        #[serde(rename = "ref")]
        pub ref_: String,
        pub sha: String,
    }

    #[derive(Deserialize)]
    pub struct Ping {
        #[serde(default)]
        pub zen: Option<String>,
        #[serde(default)]
        pub hook_id: Option<u64>,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_checked_before_the_body() {
        let e = Delivery::parse("issue_comment", "", b"{}").unwrap_err();
        assert!(matches!(e, EventError::InvalidDeliveryId), "{e}");
        let e = Delivery::parse("issue_comment", "a\nb", b"{}").unwrap_err();
        assert!(matches!(e, EventError::InvalidDeliveryId), "{e}");
        for bad in ["", "Issue_Comment", "issue-comment", "ping\n"] {
            let e = Delivery::parse(bad, "72d3162e", b"{}").unwrap_err();
            assert!(matches!(e, EventError::InvalidEventName), "{bad:?}: {e}");
        }
    }

    #[test]
    fn another_event_is_other_without_reading_its_body() {
        let d =
            Delivery::parse("star", "72d3162e-cc78-11e3-81ab-4c9367dc0958", b"not json").unwrap();
        assert_eq!(
            d.event,
            Event::Other {
                event: "star".into()
            }
        );
        assert_eq!(d.id.as_str(), "72d3162e-cc78-11e3-81ab-4c9367dc0958");
    }

    #[test]
    fn an_oversized_body_is_refused_unread() {
        let body = vec![b' '; MAX_BODY_BYTES + 1];
        let e = Delivery::parse("ping", "1", &body).unwrap_err();
        assert!(matches!(e, EventError::TooLarge { .. }), "{e}");
    }

    #[test]
    fn bad_json_names_the_path_line_and_column() {
        let e = Delivery::parse("ping", "1", b"{\n  \"zen\": 3\n}").unwrap_err();
        let EventError::Json {
            path,
            line,
            column,
            message,
            ..
        } = &e
        else {
            panic!("{e:?}")
        };
        assert_eq!((path.as_str(), *line), ("zen", 2), "{e}");
        assert!(*column > 0);
        assert!(!message.contains(" at line "), "{message}");
        assert_eq!(
            e.to_string(),
            format!("ping delivery: at `zen` (line 2, column {column}): {message}")
        );
        let e = Delivery::parse("ping", "1", b"{} {}").unwrap_err();
        assert!(
            matches!(&e, EventError::Json { path, .. } if path == "."),
            "{e}"
        );
    }

    #[test]
    fn names_and_commits_are_checked() {
        assert!(RepoName::parse("octo-org/hello.world_2").is_some());
        let r = RepoName::parse("Codertocat/Hello-World").unwrap();
        assert_eq!((r.owner(), r.name()), ("Codertocat", "Hello-World"));
        for bad in ["", "a", "/b", "a/", "a/b/c", "a b/c", "a/<b>", "ä/b"] {
            assert_eq!(RepoName::parse(bad), None, "{bad:?}");
        }
        assert!(CommitSha::parse(&"a".repeat(40)).is_some());
        assert!(CommitSha::parse(&"0".repeat(64)).is_some());
        for bad in [
            "",
            "abc1234",
            &"A".repeat(40),
            &"g".repeat(40),
            &"a".repeat(41),
        ] {
            assert_eq!(CommitSha::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_bot_is_named_by_its_type_or_its_login() {
        let a = |login: &str, bot_type| Author {
            login: Foreign::new(login),
            bot_type,
        };
        assert!(a("lane-app[bot]", false).is_bot());
        assert!(a("some-app", true).is_bot());
        assert!(!a("Codertocat", false).is_bot());
        assert!(!a("[bot]x", false).is_bot());
    }
}
