//! The decision table on real example deliveries, with the comment's body,
//! author association, author or action replaced (edited as JSON, then
//! serialized again, the way GitHub would send it).

use crate::examples::{self, parse};
use lane_webhook::{
    decide, AuthorAssociation, Command, CommandError, Decision, Foreign, IgnoreReason, LaneVersion,
    Policy, PrRef, PullRequestAction, RefusalReason, RepoName, Subcommand,
};
use serde_json::{json, Value};

/// The real `issue_comment` example of `action`, made a comment on the
/// real example pull request (#2 of the same repository: `issue.number`
/// and `issue.pull_request` as GitHub sends them for a PR), with `body` and
/// `association`.
fn pr_comment(action: &str, body: &str, association: &str) -> Value {
    let mut p = examples::dotcom("issue_comment", Some(action));
    let pr = examples::dotcom("pull_request", Some("synchronize"));
    assert_eq!(p["repository"]["full_name"], pr["repository"]["full_name"]);
    let urls = &pr["pull_request"];
    p["issue"]["number"] = pr["number"].clone();
    p["issue"]["pull_request"] = json!({
        "url": urls["url"],
        "html_url": urls["html_url"],
        "diff_url": urls["diff_url"],
        "patch_url": urls["patch_url"],
        "merged_at": null,
    });
    p["comment"]["body"] = Value::from(body);
    p["comment"]["author_association"] = Value::from(association);
    p
}

fn comment_id(p: &Value) -> u64 {
    p["comment"]["id"].as_u64().unwrap()
}

fn decide_on(p: &Value, already_ran: impl Fn(u64) -> bool) -> Decision {
    decide(&parse("issue_comment", p), &Policy::default(), already_ran)
}

fn never(_: u64) -> bool {
    false
}

#[test]
fn an_authorised_new_command_runs() {
    let p = pr_comment(
        "created",
        "Looks good.\n\n/lane mint 0.93.3 --gpu L40S\n",
        "OWNER",
    );
    let Decision::Run {
        command,
        pr,
        comment_id: id,
        login,
    } = decide_on(&p, never)
    else {
        panic!("{:?}", decide_on(&p, never))
    };
    let Command::Mint(m) = &command else {
        panic!("{command:?}")
    };
    assert_eq!(m.version, LaneVersion::parse("0.93.3").unwrap());
    assert_eq!(command.to_string(), "/lane mint 0.93.3 --gpu L40S");
    assert_eq!(pr.to_string(), "Codertocat/Hello-World#2");
    assert_eq!(id, comment_id(&p));
    assert_eq!(login.as_raw(), "Codertocat");
    for association in ["MEMBER", "COLLABORATOR"] {
        let p = pr_comment("created", "/lane status", association);
        assert!(
            matches!(
                decide_on(&p, never),
                Decision::Run {
                    command: Command::Status,
                    ..
                }
            ),
            "{association}"
        );
    }
}

#[test]
fn an_unauthorised_commenter_is_refused() {
    let pr = PrRef {
        repo: RepoName::parse("Codertocat/Hello-World").unwrap(),
        number: 2,
    };
    for association in [
        "NONE",
        "CONTRIBUTOR",
        "FIRST_TIME_CONTRIBUTOR",
        "SOMETHING_NEW",
    ] {
        let p = pr_comment("created", "/lane mint 0.93.3", association);
        assert_eq!(
            decide_on(&p, never),
            Decision::Refuse {
                pr: pr.clone(),
                comment_id: comment_id(&p),
                login: Foreign::new("Codertocat"),
                reason: RefusalReason::NotAuthorised {
                    association: AuthorAssociation::parse(association)
                },
            },
            "{association}"
        );
    }
    // A narrower policy refuses a member.
    let p = pr_comment("created", "/lane status", "MEMBER");
    let only_owners = Policy::parse("OWNER").unwrap();
    let d = decide(&parse("issue_comment", &p), &only_owners, never);
    assert!(
        matches!(
            d,
            Decision::Refuse {
                reason: RefusalReason::NotAuthorised { .. },
                ..
            }
        ),
        "{d:?}"
    );
}

#[test]
fn an_edited_comment_runs_once_and_never_after_a_run() {
    // The real edit changed the body from plain text: made a command now.
    let p = pr_comment("edited", "/lane mint 0.93.3", "OWNER");
    assert!(p["changes"]["body"]["from"].is_string());
    let id = comment_id(&p);
    assert!(matches!(decide_on(&p, never), Decision::Run { .. }));
    // Once it ran, no edit runs it again.
    assert_eq!(
        decide_on(&p, |c| c == id),
        Decision::Ignore(IgnoreReason::AlreadyRan)
    );
    let mut changed = p.clone();
    changed["comment"]["body"] = Value::from("/lane mint 0.93.4");
    changed["changes"]["body"]["from"] = Value::from("/lane mint 0.93.3");
    assert_eq!(
        decide_on(&changed, |c| c == id),
        Decision::Ignore(IgnoreReason::AlreadyRan)
    );
    // An edit that leaves a (never run) command as it was does not run it.
    let mut typo = p.clone();
    typo["comment"]["body"] = Value::from("/lane status\nfixed a typo");
    typo["changes"]["body"]["from"] = Value::from("/lane status\nfixed a tpyo");
    assert_eq!(
        decide_on(&typo, never),
        Decision::Ignore(IgnoreReason::CommandUnchanged)
    );
    // A redelivered `created` after it ran does not run again either.
    let created = pr_comment("created", "/lane status", "OWNER");
    assert_eq!(
        decide_on(&created, |c| c == comment_id(&created)),
        Decision::Ignore(IgnoreReason::AlreadyRan)
    );
}

#[test]
fn a_bots_comment_is_ignored() {
    // A real bot user object from the package (a deployment's creator).
    let deployment = examples::of("deployment")
        .into_iter()
        .map(|e| e.payload.clone())
        .find(|p| p["deployment"]["creator"]["type"] == "Bot")
        .expect("a deployment by a bot in the package");
    let bot = deployment["deployment"]["creator"].clone();
    assert!(bot["login"].as_str().unwrap().ends_with("[bot]"));
    let mut p = pr_comment("created", "/lane mint 0.93.3", "OWNER");
    p["comment"]["user"] = bot;
    assert_eq!(decide_on(&p, never), Decision::Ignore(IgnoreReason::Bot));
    // The login alone is enough (lane's own app's comments).
    let mut p = pr_comment("created", "/lane status", "OWNER");
    p["comment"]["user"]["login"] = Value::from("lane-release[bot]");
    assert_eq!(decide_on(&p, never), Decision::Ignore(IgnoreReason::Bot));
}

#[test]
fn a_comment_on_a_plain_issue_is_ignored() {
    // The real example is a comment on an issue, not a pull request.
    let mut p = examples::dotcom("issue_comment", Some("created"));
    assert!(p["issue"].get("pull_request").is_none());
    p["comment"]["body"] = Value::from("/lane mint 0.93.3");
    assert_eq!(
        decide_on(&p, never),
        Decision::Ignore(IgnoreReason::NotAPullRequest)
    );
    let deleted = examples::dotcom("issue_comment", Some("deleted"));
    assert_eq!(
        decide_on(&deleted, never),
        Decision::Ignore(IgnoreReason::CommentAction("deleted".into()))
    );
}

#[test]
fn an_invalid_command_is_refused_to_be_answered_with_help() {
    let p = pr_comment("created", "/lane mint 0.93", "OWNER");
    let d = decide_on(&p, never);
    let Decision::Refuse {
        reason: RefusalReason::InvalidCommand(e),
        ..
    } = &d
    else {
        panic!("{d:?}")
    };
    assert!(matches!(e, CommandError::InvalidVersion { .. }), "{e:?}");
    assert_eq!(e.offending().unwrap().as_raw(), "0.93");
    let p = pr_comment("created", "/lane deploy prod", "OWNER");
    assert!(matches!(
        decide_on(&p, never),
        Decision::Refuse {
            reason: RefusalReason::InvalidCommand(CommandError::UnknownSubcommand { .. }),
            ..
        }
    ));
    // Help is a command: it runs.
    let p = pr_comment("created", "/lane", "OWNER");
    assert!(matches!(
        decide_on(&p, never),
        Decision::Run {
            command: Command::Help,
            ..
        }
    ));
    assert_eq!(Command::Help.subcommand(), Subcommand::Help);
}

#[test]
fn a_quoted_or_fenced_command_is_not_a_command() {
    for body in [
        "> /lane mint 0.93.3\n\nWhy did this fail?",
        "Run this:\n\n```\n/lane mint 0.93.3\n```\n",
        "~~~sh\n/lane cancel\n~~~",
        "The command `/lane mint 0.93.3` mints it.",
        "/lanes are nice",
    ] {
        let p = pr_comment("created", body, "OWNER");
        assert_eq!(
            decide_on(&p, never),
            Decision::Ignore(IgnoreReason::NotACommand),
            "{body:?}"
        );
    }
}

#[test]
fn a_synchronized_pull_request_outdates_its_lanes_report() {
    let p = examples::dotcom("pull_request", Some("synchronize"));
    let d = decide(&parse("pull_request", &p), &Policy::default(), never);
    let Decision::Outdated { pr, head_sha, lane } = d else {
        panic!("{d:?}")
    };
    assert_eq!(pr.to_string(), "Codertocat/Hello-World#2");
    assert_eq!(head_sha.as_str(), p["pull_request"]["head"]["sha"]);
    assert_eq!(lane, None, "its base is master");
    let mut on_lane = p.clone();
    on_lane["pull_request"]["base"]["ref"] = Value::from("release/0.93.3");
    let d = decide(&parse("pull_request", &on_lane), &Policy::default(), never);
    assert!(
        matches!(&d, Decision::Outdated { lane: Some(l), .. } if l == "0.93.3"),
        "{d:?}"
    );
    for action in ["opened", "closed", "labeled"] {
        let p = examples::dotcom("pull_request", Some(action));
        let d = decide(&parse("pull_request", &p), &Policy::default(), never);
        assert!(
            matches!(d, Decision::Ignore(IgnoreReason::PullRequestAction(ref a)) if *a != PullRequestAction::Synchronize),
            "{action}: {d:?}"
        );
    }
}

#[test]
fn a_ping_and_other_events_are_ignored() {
    let p = examples::dotcom("ping", None);
    assert_eq!(
        decide(&parse("ping", &p), &Policy::default(), never),
        Decision::Ignore(IgnoreReason::Ping)
    );
    let star = examples::of("star")[0].payload.clone();
    assert_eq!(
        decide(&parse("star", &star), &Policy::default(), never),
        Decision::Ignore(IgnoreReason::OtherEvent("star".into()))
    );
}
