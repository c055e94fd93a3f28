//! What a delivery asks lane to do: the one decision table of `lane serve`.
//!
//! For an `issue_comment`, in this order:
//!
//! 1. only `created` and `edited` comments are read (`deleted` is ignored);
//! 2. only comments on pull requests (a plain issue has no lane);
//! 3. bots are ignored (login ending in `[bot]`, or GitHub's type `Bot`):
//!    lane's own comments never loop;
//! 4. a comment without a `/lane` line is ignored;
//! 5. a comment that already ran a command never runs again (`already_ran`:
//!    a redelivery of `created`, or an edit after a run); an edit that
//!    leaves the command as it was (`changes.body.from` has the same one)
//!    is ignored, so only an edit that makes or changes a command runs, once;
//! 6. a commenter the [`Policy`] does not allow is refused;
//! 7. a command lane did not understand is refused, answered with help;
//! 8. otherwise the command runs.
//!
//! A `pull_request` `synchronize` makes the lane's report outdated; a
//! `ping` and every other event are ignored.

use crate::command::{parse_comment, Command, CommandError, CommentCommand};
use crate::delivery::{CommentAction, Delivery, Event, IssueComment, PullRequestAction};
use crate::policy::{AuthorAssociation, Policy};
use crate::{CommitSha, Foreign, RepoName};
use std::fmt;

/// A pull request: its repository and number.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PrRef {
    /// `owner/name`.
    pub repo: RepoName,
    /// The pull request's number.
    pub number: u64,
}

impl fmt::Display for PrRef {
    /// `owner/name#12`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.repo, self.number)
    }
}

/// What lane does with a delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Run `command` for the pull request (the server records that
    /// `comment_id` ran, so that it never runs again).
    Run {
        /// The command.
        command: Command,
        /// Where it was asked.
        pr: PrRef,
        /// The comment that asked.
        comment_id: u64,
        /// Who asked.
        login: Foreign,
    },
    /// Answer the comment that lane will not run it, and why.
    Refuse {
        /// Where it was asked.
        pr: PrRef,
        /// The comment that asked.
        comment_id: u64,
        /// Who asked.
        login: Foreign,
        /// Why not.
        reason: RefusalReason,
    },
    /// The pull request's head moved: the lane's report on it is outdated.
    Outdated {
        /// The pull request.
        pr: PrRef,
        /// Its new head.
        head_sha: CommitSha,
        /// Its lane, when its base branch is `release/<version>`.
        lane: Option<String>,
    },
    /// Nothing to do.
    Ignore(IgnoreReason),
}

/// Why a command is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefusalReason {
    /// The commenter's association is not one the policy allows.
    NotAuthorised {
        /// Their association.
        association: AuthorAssociation,
    },
    /// The `/lane` line is not understood: answer with
    /// [`help_text`](crate::help_text) and the error.
    InvalidCommand(CommandError),
}

/// Why a delivery asks nothing of lane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IgnoreReason {
    /// A `ping`.
    Ping,
    /// An event lane does not act on (by its `X-GitHub-Event`).
    OtherEvent(String),
    /// An issue comment action other than `created` or `edited`.
    CommentAction(String),
    /// A comment on an issue that is not a pull request.
    NotAPullRequest,
    /// A comment by a bot.
    Bot,
    /// A comment without a `/lane` line.
    NotACommand,
    /// A comment that already ran a command (a redelivery, or an edit).
    AlreadyRan,
    /// An edit that left the comment's command as it was.
    CommandUnchanged,
    /// A pull request action that does not outdate a report (`opened`,
    /// `reopened`, `closed`, `labeled`, ...).
    PullRequestAction(PullRequestAction),
}

/// What `delivery` asks lane to do under `policy`. `already_ran(id)` says
/// whether the comment with that id has run a command before (the server's
/// record).
pub fn decide(delivery: &Delivery, policy: &Policy, already_ran: impl Fn(u64) -> bool) -> Decision {
    match &delivery.event {
        Event::IssueComment(c) => comment(c, policy, already_ran),
        Event::PullRequest(p) => match p.action {
            PullRequestAction::Synchronize => Decision::Outdated {
                pr: PrRef {
                    repo: p.repo.clone(),
                    number: p.number,
                },
                head_sha: p.head_sha.clone(),
                lane: p.lane(),
            },
            ref other => Decision::Ignore(IgnoreReason::PullRequestAction(other.clone())),
        },
        Event::Ping(_) => Decision::Ignore(IgnoreReason::Ping),
        Event::Other { event } => Decision::Ignore(IgnoreReason::OtherEvent(event.clone())),
    }
}

fn comment(c: &IssueComment, policy: &Policy, already_ran: impl Fn(u64) -> bool) -> Decision {
    let edited = match &c.action {
        CommentAction::Created => false,
        CommentAction::Edited => true,
        CommentAction::Other(action) => {
            return Decision::Ignore(IgnoreReason::CommentAction(action.clone()))
        }
    };
    if !c.is_pull_request {
        return Decision::Ignore(IgnoreReason::NotAPullRequest);
    }
    if c.author.is_bot() {
        return Decision::Ignore(IgnoreReason::Bot);
    }
    let asked = parse_comment(c.body.as_raw());
    if asked == CommentCommand::None {
        return Decision::Ignore(IgnoreReason::NotACommand);
    }
    if already_ran(c.comment_id) {
        return Decision::Ignore(IgnoreReason::AlreadyRan);
    }
    let unchanged = edited
        && c.previous_body
            .as_ref()
            .is_some_and(|before| parse_comment(before.as_raw()) == asked);
    if unchanged {
        return Decision::Ignore(IgnoreReason::CommandUnchanged);
    }
    let pr = PrRef {
        repo: c.repo.clone(),
        number: c.number,
    };
    let login = c.author.login.clone();
    let comment_id = c.comment_id;
    let refuse = |reason| Decision::Refuse {
        pr: pr.clone(),
        comment_id,
        login: login.clone(),
        reason,
    };
    if !policy.allows(&c.author_association) {
        return refuse(RefusalReason::NotAuthorised {
            association: c.author_association.clone(),
        });
    }
    match asked {
        CommentCommand::Command(command) => Decision::Run {
            command,
            pr,
            comment_id,
            login,
        },
        CommentCommand::Invalid(e) => refuse(RefusalReason::InvalidCommand(e)),
        CommentCommand::None => unreachable!("a comment without a command was ignored above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delivery::{Author, DeliveryId, PullRequest};

    fn delivery(action: CommentAction, body: &str, previous: Option<&str>) -> Delivery {
        Delivery {
            id: DeliveryId::parse("1").unwrap(),
            event: Event::IssueComment(IssueComment {
                action,
                repo: RepoName::parse("o/r").unwrap(),
                number: 7,
                is_pull_request: true,
                comment_id: 42,
                body: Foreign::new(body),
                author: Author {
                    login: Foreign::new("alice"),
                    bot_type: false,
                },
                author_association: AuthorAssociation::Member,
                previous_body: previous.map(Foreign::new),
            }),
        }
    }

    fn never(_: u64) -> bool {
        false
    }

    #[test]
    fn the_order_of_the_rules() {
        let p = Policy::default();
        let run = decide(
            &delivery(CommentAction::Created, "/lane status", None),
            &p,
            never,
        );
        assert!(
            matches!(run, Decision::Run { comment_id: 42, .. }),
            "{run:?}"
        );
        // A redelivered `created` does not run twice either.
        let again = decide(
            &delivery(CommentAction::Created, "/lane status", None),
            &p,
            |id| id == 42,
        );
        assert_eq!(again, Decision::Ignore(IgnoreReason::AlreadyRan));
        // An edit that made a comment a command runs it.
        let made = delivery(CommentAction::Edited, "/lane status", Some("thanks!"));
        assert!(matches!(decide(&made, &p, never), Decision::Run { .. }));
        // An edit elsewhere in a comment whose command never ran does not run it.
        let elsewhere = delivery(
            CommentAction::Edited,
            "/lane status\nthanks, typo fixed",
            Some("/lane status\nthanks, typo fxed"),
        );
        assert_eq!(
            decide(&elsewhere, &p, never),
            Decision::Ignore(IgnoreReason::CommandUnchanged)
        );
        // Without `changes.body.from` an edit runs if it never ran.
        let unknown = delivery(CommentAction::Edited, "/lane status", None);
        assert!(matches!(decide(&unknown, &p, never), Decision::Run { .. }));
        let deleted = delivery(CommentAction::Other("deleted".into()), "/lane status", None);
        assert_eq!(
            decide(&deleted, &p, never),
            Decision::Ignore(IgnoreReason::CommentAction("deleted".into()))
        );
    }

    #[test]
    fn synchronize_outdates_other_pull_request_actions_do_not() {
        let pr = |action| Delivery {
            id: DeliveryId::parse("1").unwrap(),
            event: Event::PullRequest(PullRequest {
                action,
                repo: RepoName::parse("o/r").unwrap(),
                number: 3,
                head_sha: CommitSha::parse(&"a".repeat(40)).unwrap(),
                head_ref: Foreign::new("fix"),
                base_ref: Foreign::new("release/0.93.3"),
            }),
        };
        let d = decide(
            &pr(PullRequestAction::Synchronize),
            &Policy::default(),
            never,
        );
        let Decision::Outdated { pr: r, lane, .. } = d else {
            panic!("{d:?}")
        };
        assert_eq!(
            (r.to_string(), lane.as_deref()),
            ("o/r#3".into(), Some("0.93.3"))
        );
        assert_eq!(
            decide(&pr(PullRequestAction::Closed), &Policy::default(), never),
            Decision::Ignore(IgnoreReason::PullRequestAction(PullRequestAction::Closed))
        );
    }
}
