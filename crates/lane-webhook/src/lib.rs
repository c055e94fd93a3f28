//! The pure core of `lane serve`, the service that receives GitHub webhooks
//! so a release engineer can type `/lane mint 0.93.3` on a pull request.
//!
//! What it owns, each in one place:
//! - [`signature`]: `X-Hub-Signature-256` (HMAC-SHA256 of the body,
//!   compared in constant time), and [`sign`] for tests and tools;
//! - [`delivery`]: a delivery (`X-GitHub-Event`, `X-GitHub-Delivery`, the
//!   body) read into typed events holding only what lane needs
//!   (`issue_comment`, `pull_request`, `ping`; any other event is
//!   [`Event::Other`]);
//! - [`command`]: the grammar of a comment: which line is the `/lane`
//!   command (never one inside a fenced code block or a quote) and what it
//!   asks, with the answer to give when it is not understood ([`help_text`]);
//! - [`policy`]: who may run a command, by GitHub's `author_association`;
//! - [`decide()`]: what a delivery asks lane to do ([`Decision`]): run a
//!   command, refuse it, mark a lane's report outdated, or nothing;
//! - [`lane_ref`]: the lane a pull request belongs to, by its base branch
//!   (`release/<MAJOR.MINOR.PATCH>`);
//! - [`foreign`]: text a webhook's sender wrote ([`Foreign`]), kept as data
//!   and never printed raw.
//!
//! What it must not touch: no sockets, no HTTP server, no files, no
//! processes, no clock, no async runtime, and no lane crate but `lane-core`.
//! Values in, values out: the server (`lane serve`) reads the request,
//! caps its body ([`MAX_BODY_BYTES`]), asks this crate, and acts.

pub mod command;
pub mod decide;
pub mod delivery;
pub mod foreign;
pub mod lane_ref;
pub mod policy;
pub mod signature;

pub use command::{
    help_text, parse_comment, CellName, Command, CommandError, CommentCommand, Flag, GpuClass,
    Mint, Subcommand, HELP, MAX_COMMAND_LINE_BYTES, MAX_COMMENT_BYTES,
};
pub use decide::{decide, Decision, IgnoreReason, PrRef, RefusalReason};
pub use delivery::{
    Author, CommentAction, CommitSha, Delivery, DeliveryId, Event, EventError, IssueComment, Ping,
    PullRequest, PullRequestAction, RepoName, MAX_BODY_BYTES,
};
pub use foreign::Foreign;
pub use lane_core::LaneVersion;
pub use lane_ref::lane_of_base_ref;
pub use policy::{AuthorAssociation, Permission, PermissionError, Policy, PolicyError};
pub use signature::{sign, verify_signature, SignatureError, SIGNATURE_HEADER};
