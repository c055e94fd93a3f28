//! Every example delivery of the package reads: `issue_comment`,
//! `pull_request` and `ping` into their fields, every other event as
//! `Event::Other`.

use crate::examples::{self, body, parse, DELIVERY_ID};
use lane_webhook::{
    AuthorAssociation, CommentAction, Delivery, Event, EventError, PullRequestAction,
};
use serde_json::Value;

fn str_at<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{pointer}"))
}

fn u64_at(v: &Value, pointer: &str) -> u64 {
    v.pointer(pointer)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("{pointer}"))
}

#[test]
fn every_issue_comment_example_reads_into_its_fields() {
    let all = examples::of("issue_comment");
    for ex in &all {
        let p = &ex.payload;
        let d = parse("issue_comment", p);
        assert_eq!(d.id.as_str(), DELIVERY_ID);
        let Event::IssueComment(c) = d.event else {
            panic!("{}: {:?}", ex.name(), d.event)
        };
        let action = match str_at(p, "/action") {
            "created" => CommentAction::Created,
            "edited" => CommentAction::Edited,
            other => CommentAction::Other(other.into()),
        };
        assert_eq!(c.action, action, "{}", ex.name());
        assert_eq!(c.repo.as_str(), str_at(p, "/repository/full_name"));
        assert_eq!(c.number, u64_at(p, "/issue/number"));
        assert_eq!(
            c.is_pull_request,
            p.pointer("/issue/pull_request")
                .is_some_and(|v| !v.is_null())
        );
        assert_eq!(c.comment_id, u64_at(p, "/comment/id"));
        assert_eq!(c.body.as_raw(), str_at(p, "/comment/body"));
        assert_eq!(c.author.login.as_raw(), str_at(p, "/comment/user/login"));
        assert_eq!(
            c.author.is_bot(),
            str_at(p, "/comment/user/type") == "Bot",
            "{}",
            ex.name()
        );
        let association = str_at(p, "/comment/author_association");
        assert_eq!(c.author_association, AuthorAssociation::parse(association));
        assert!(
            !matches!(c.author_association, AuthorAssociation::Unknown(_)),
            "{}: {association}",
            ex.name()
        );
        assert_eq!(
            c.previous_body.as_ref().map(|b| b.as_raw()),
            p.pointer("/changes/body/from").and_then(Value::as_str),
            "{}",
            ex.name()
        );
    }
    // The package has every action lane distinguishes.
    for action in ["created", "edited", "deleted"] {
        assert!(
            all.iter().any(|e| e.payload["action"] == action),
            "{action}"
        );
    }
    let edited = examples::dotcom("issue_comment", Some("edited"));
    let Event::IssueComment(c) = parse("issue_comment", &edited).event else {
        unreachable!()
    };
    assert!(
        c.previous_body.is_some(),
        "the edited example has changes.body.from"
    );
}

#[test]
fn every_pull_request_example_reads_into_its_fields() {
    let all = examples::of("pull_request");
    for ex in &all {
        let p = &ex.payload;
        let Event::PullRequest(pr) = parse("pull_request", p).event else {
            panic!("{}", ex.name())
        };
        let action = match str_at(p, "/action") {
            "synchronize" => PullRequestAction::Synchronize,
            "opened" => PullRequestAction::Opened,
            "reopened" => PullRequestAction::Reopened,
            "closed" => PullRequestAction::Closed,
            other => PullRequestAction::Other(other.into()),
        };
        assert_eq!(pr.action, action, "{}", ex.name());
        assert_eq!(pr.repo.as_str(), str_at(p, "/repository/full_name"));
        assert_eq!(pr.number, u64_at(p, "/number"));
        assert_eq!(pr.head_sha.as_str(), str_at(p, "/pull_request/head/sha"));
        assert_eq!(pr.head_ref.as_raw(), str_at(p, "/pull_request/head/ref"));
        assert_eq!(pr.base_ref.as_raw(), str_at(p, "/pull_request/base/ref"));
    }
    for action in ["synchronize", "opened", "reopened", "closed", "labeled"] {
        assert!(
            all.iter().any(|e| e.payload["action"] == action),
            "{action}"
        );
    }
}

#[test]
fn every_ping_example_reads() {
    for ex in examples::of("ping") {
        let Event::Ping(ping) = parse("ping", &ex.payload).event else {
            panic!("{}", ex.name())
        };
        assert_eq!(ping.zen, str_at(&ex.payload, "/zen"), "{}", ex.name());
        assert_eq!(ping.hook_id, Some(u64_at(&ex.payload, "/hook_id")));
    }
}

#[test]
fn every_other_event_of_the_package_is_other_and_no_error() {
    let mut others = 0;
    for ex in examples::all() {
        let d = Delivery::parse(&ex.event, DELIVERY_ID, &body(&ex.payload))
            .unwrap_or_else(|e| panic!("{}: {e}", ex.name()));
        match (ex.event.as_str(), &d.event) {
            ("issue_comment", Event::IssueComment(_))
            | ("pull_request", Event::PullRequest(_))
            | ("ping", Event::Ping(_)) => {}
            (name, Event::Other { event }) => {
                assert_eq!(event, name);
                others += 1;
            }
            (name, e) => panic!("{name}: {e:?}"),
        }
    }
    assert!(others > 100, "{others}");
}

#[test]
fn a_broken_real_delivery_names_its_path_line_and_column() {
    let payload = examples::dotcom("issue_comment", Some("created"));
    let text = serde_json::to_string_pretty(&payload).unwrap();
    // Truncated mid-way: the place the input ended.
    let cut = &text.as_bytes()[..text.len() / 2];
    let e = Delivery::parse("issue_comment", DELIVERY_ID, cut).unwrap_err();
    let EventError::Json { line, column, .. } = &e else {
        panic!("{e:?}")
    };
    assert!(*line > 1 && *column > 0, "{e}");
    // A field lane needs, of the wrong type: named by its path.
    let mut wrong = payload.clone();
    wrong["comment"]["id"] = Value::from("492700400");
    let text = serde_json::to_string_pretty(&wrong).unwrap();
    let e = Delivery::parse("issue_comment", DELIVERY_ID, text.as_bytes()).unwrap_err();
    let EventError::Json { path, line, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(path, "comment.id", "{e}");
    let want = text
        .lines()
        .position(|l| l.contains("\"492700400\""))
        .unwrap()
        + 1;
    assert_eq!(*line, want, "{e}");
    assert!(e
        .to_string()
        .starts_with("issue_comment delivery: at `comment.id` (line "));
    // A field lane needs, missing.
    let mut missing = payload.clone();
    missing["comment"]
        .as_object_mut()
        .unwrap()
        .remove("author_association");
    let e = Delivery::parse("issue_comment", DELIVERY_ID, &body(&missing)).unwrap_err();
    assert!(
        matches!(&e, EventError::Json { path, message, .. } if path == "comment" && message.contains("author_association")),
        "{e}"
    );
    // A value GitHub never sends there.
    let mut sha = examples::dotcom("pull_request", Some("synchronize"));
    sha["pull_request"]["head"]["sha"] = Value::from("HEAD");
    let e = Delivery::parse("pull_request", DELIVERY_ID, &body(&sha)).unwrap_err();
    assert!(
        matches!(
            &e,
            EventError::InvalidField {
                path: "pull_request.head.sha",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn a_senders_text_is_kept_exactly_as_written() {
    let mut payload = examples::dotcom("issue_comment", Some("created"));
    let text = "Ünïcödé 📦 \u{1b}[31m <script>x</script> @everyone\r\n/lane status";
    payload["comment"]["body"] = Value::from(text);
    let Event::IssueComment(c) = parse("issue_comment", &payload).event else {
        unreachable!()
    };
    assert_eq!(c.body.as_raw(), text);
    let shown = format!("{:?}", c.body);
    assert!(!shown.contains('\u{1b}'), "Debug escapes: {shown}");
}
