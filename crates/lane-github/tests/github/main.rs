//! lane-github against a stateful mock server (`wiremock`, see `mock.rs`)
//! whose bodies come from GitHub's OpenAPI description: the sticky comment,
//! races, retries and their bound, nothing posted twice, App auth, and
//! secrets kept out of output.

mod contract;
mod mock;

use std::time::Duration;

use lane_github::{
    Auth, CheckRun, ClientConfig, CommentAction, GithubClient, GithubError, Repo, RetryPolicy,
    Secret,
};
use mock::{Comment, Failure, GithubMock};

const TOKEN: &str = "ghp_SuperSecretTestToken0123456789abcdef";
const MARKER: &str = "<!-- lane-report lane=0.93.3 -->";

fn config(gh: &GithubMock) -> ClientConfig {
    ClientConfig {
        api_url: gh.url(),
        auth: Auth::Token(Secret::new(TOKEN)),
        retry: RetryPolicy {
            max_attempts: 3,
            backoff: Duration::from_millis(10),
            max_wait: Duration::from_secs(5),
        },
        login: None,
    }
}

async fn client(gh: &GithubMock) -> GithubClient {
    GithubClient::connect(config(gh), Repo::parse("octo/repo").unwrap())
        .await
        .unwrap()
}

/// Lane 0.93.3's neutral check run on commit `aaa…`.
fn check_run(details_url: Option<&str>) -> CheckRun {
    CheckRun {
        name: "lane 0.93.3".into(),
        head_sha: "a".repeat(40),
        conclusion: "neutral".into(),
        title: "lane 0.93.3: neutral".into(),
        summary: "summary".into(),
        details_url: details_url.map(str::to_owned),
    }
}

fn body(v: &str) -> String {
    format!("{MARKER}\nresults {v}")
}

fn ours(gh: &GithubMock) -> Vec<Comment> {
    gh.st()
        .comments
        .iter()
        .filter(|c| c.login == "lane-bot")
        .cloned()
        .collect()
}

#[tokio::test]
async fn sticky_comment_is_created_once_then_patched_in_place() {
    let gh = GithubMock::start("lane-bot").await;
    gh.st().comments.push(Comment {
        id: 5,
        body: format!("quoting {MARKER}"),
        login: "someone".into(),
    });
    let c = client(&gh).await;
    let first = c.upsert_comment(7, MARKER, &body("one")).await.unwrap();
    assert_eq!(first.action, CommentAction::Created);
    let second = c.upsert_comment(7, MARKER, &body("two")).await.unwrap();
    assert_eq!(second.action, CommentAction::Updated);
    assert_eq!(second.comment_id, first.comment_id);
    let third = c.upsert_comment(7, MARKER, &body("two")).await.unwrap();
    assert_eq!(third.action, CommentAction::Unchanged);
    assert_eq!(
        gh.count("POST", "/repos/octo/repo/issues/7/comments").await,
        1
    );
    assert_eq!(
        gh.count("PATCH", "/repos/octo/repo/issues/comments/").await,
        1
    );
    assert_eq!(ours(&gh).len(), 1);
    assert_eq!(ours(&gh)[0].body, body("two"));
    // The other user's comment carrying the marker is untouched.
    assert!(gh
        .st()
        .comments
        .iter()
        .any(|c| c.id == 5 && c.login == "someone"));
    // Every request carried the token, and nothing printable does.
    assert!(gh
        .log()
        .await
        .iter()
        .all(|l| l.auth.as_deref() == Some(&format!("Bearer {TOKEN}"))));
    assert!(!format!("{c:?}").contains(TOKEN));
}

#[tokio::test]
async fn two_racing_runs_leave_one_comment() {
    let gh = GithubMock::start("lane-bot").await;
    gh.st().post_delay = Duration::from_millis(200);
    gh.st().comments.push(Comment {
        id: 3,
        body: "unrelated".into(),
        login: "someone".into(),
    });
    let (a, b) = (client(&gh).await, client(&gh).await);
    let text = body("x");
    let (ra, rb) = tokio::join!(
        a.upsert_comment(9, MARKER, &text),
        b.upsert_comment(9, MARKER, &text)
    );
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    assert_eq!(
        gh.count("POST", "/repos/octo/repo/issues/9/comments").await,
        2,
        "both raced to create"
    );
    assert_eq!(ours(&gh).len(), 1, "{:?}", gh.st().comments);
    assert_eq!(ra.comment_id, rb.comment_id);
    assert_eq!(ra.removed.len() + rb.removed.len(), 1);
    assert!(gh.st().comments.iter().any(|c| c.id == 3));
}

#[tokio::test]
async fn retries_honour_5xx_429_and_secondary_limits() {
    let gh = GithubMock::start("lane-bot").await;
    let c = client(&gh).await;
    // A 503, then a 429 and a secondary limit (403), each with Retry-After.
    for (method, status, headers) in [
        ("GET", 503, vec![]),
        ("POST", 429, vec![("retry-after", "1".into())]),
        ("POST", 403, vec![("retry-after", "0".into())]),
    ] {
        gh.fail(Failure {
            method,
            path_prefix: "/repos/octo/repo/issues/1/comments".into(),
            status,
            headers,
            apply: false,
        })
        .await;
    }
    let started = std::time::Instant::now();
    let out = c.upsert_comment(1, MARKER, &body("r")).await.unwrap();
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After was not honoured"
    );
    assert_eq!(out.action, CommentAction::Created);
    assert_eq!(
        gh.count("POST", "/repos/octo/repo/issues/1/comments").await,
        3
    );
    assert_eq!(ours(&gh).len(), 1, "posted once");
}

#[tokio::test]
async fn retries_are_bounded() {
    let gh = GithubMock::start("lane-bot").await;
    let c = client(&gh).await;
    for _ in 0..10 {
        gh.fail(Failure {
            method: "GET",
            path_prefix: "/repos/octo/repo/issues/2/".into(),
            status: 502,
            headers: vec![],
            apply: false,
        })
        .await;
    }
    let e = c.upsert_comment(2, MARKER, &body("b")).await.unwrap_err();
    assert!(
        matches!(
            e,
            GithubError::RetriesExhausted {
                attempts: 3,
                status: 502,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(gh.count("GET", "/repos/octo/repo/issues/2/").await, 3);
    // A rate limit longer than the policy allows fails at once.
    gh.clear_failures();
    gh.fail(Failure {
        method: "GET",
        path_prefix: "/repos/octo/repo/issues/4/".into(),
        status: 403,
        headers: vec![
            ("x-ratelimit-remaining", "0".into()),
            ("x-ratelimit-reset", "99999999999".into()),
        ],
        apply: false,
    })
    .await;
    let e = c.upsert_comment(4, MARKER, &body("b")).await.unwrap_err();
    assert!(matches!(e, GithubError::RateLimitTooLong { .. }), "{e}");
}

#[tokio::test]
async fn a_post_applied_then_failed_is_not_posted_twice() {
    let gh = GithubMock::start("lane-bot").await;
    let c = client(&gh).await;
    gh.fail(Failure {
        method: "POST",
        path_prefix: "/repos/octo/repo/issues/6/comments".into(),
        status: 502,
        headers: vec![],
        apply: true,
    })
    .await;
    let out = c.upsert_comment(6, MARKER, &body("p")).await.unwrap();
    assert_eq!(
        gh.count("POST", "/repos/octo/repo/issues/6/comments").await,
        1
    );
    assert_eq!(ours(&gh).len(), 1);
    assert_eq!(out.comment_id, ours(&gh)[0].id);
}

#[tokio::test]
async fn tokens_never_appear_in_errors() {
    let gh = GithubMock::start("lane-bot").await;
    let c = client(&gh).await;
    gh.fail(Failure {
        method: "GET",
        path_prefix: "/repos/octo/repo/issues/8/".into(),
        status: 401,
        headers: vec![],
        apply: false,
    })
    .await;
    let e = c.upsert_comment(8, MARKER, &body("t")).await.unwrap_err();
    for s in [
        e.to_string(),
        format!("{e:?}"),
        format!("{c:?}"),
        format!("{:?}", config(&gh)),
    ] {
        assert!(!s.contains(TOKEN), "{s}");
    }
    // A dead API base: the transport error names no token either.
    let mut cfg = config(&gh);
    cfg.api_url = "http://127.0.0.1:1".into();
    cfg.retry.max_attempts = 1;
    let dead = GithubClient::connect(cfg, Repo::parse("octo/repo").unwrap())
        .await
        .unwrap();
    let e = dead
        .upsert_comment(1, MARKER, &body("t"))
        .await
        .unwrap_err();
    assert!(matches!(e, GithubError::Transport { .. }), "{e}");
    assert!(!e.to_string().contains(TOKEN) && !format!("{e:?}").contains(TOKEN));
}

#[tokio::test]
async fn github_app_exchanges_its_jwt_for_an_installation_token() {
    let gh = GithubMock::start("lane-app[bot]").await;
    let key = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/github/test-app-key.pem"
    ))
    .unwrap();
    let mut cfg = config(&gh);
    cfg.auth = Auth::App {
        app_id: 1,
        private_key: Secret::new(key.clone()),
        installation_id: None,
    };
    let c = GithubClient::connect(cfg.clone(), Repo::parse("octo/repo").unwrap())
        .await
        .unwrap();
    c.upsert_comment(3, MARKER, &body("app")).await.unwrap();
    let log = gh.log().await;
    assert!(log
        .iter()
        .any(|l| l.method == "POST" && l.path == "/app/installations/1/access_tokens"));
    let post = log
        .iter()
        .find(|l| l.method == "POST" && l.path.ends_with("/issues/3/comments"))
        .unwrap();
    assert_eq!(
        post.auth.as_deref(),
        Some("Bearer ghs_FakeInstallationToken0123456789")
    );
    let jwt = log
        .iter()
        .find(|l| l.path == "/repos/octo/repo/installation")
        .unwrap();
    assert!(
        jwt.auth.as_deref().unwrap().starts_with("Bearer ey"),
        "an RS256 JWT"
    );
    let shown = format!("{c:?} {cfg:?}");
    assert!(!shown.contains("ghs_FakeInstallationToken") && !shown.contains("PRIVATE KEY"));
}

#[tokio::test]
async fn check_run_is_created_then_updated() {
    let gh = GithubMock::start("lane-bot").await;
    let c = client(&gh).await;
    let run = check_run(None);
    let first = c.upsert_check_run(&run).await.unwrap();
    assert!(first.created);
    let second = c.upsert_check_run(&run).await.unwrap();
    assert!(!second.created);
    assert_eq!(first.id, second.id);
    let patch = gh
        .log()
        .await
        .into_iter()
        .find(|l| l.method == "PATCH")
        .unwrap();
    assert!(patch.body.unwrap().get("head_sha").is_none());
}

#[test]
fn api_base_comes_from_github_api_url() {
    // The only test that touches the environment.
    std::env::set_var("GITHUB_API_URL", "https://ghe.example.invalid/api/v3");
    let cfg = ClientConfig::from_env(Auth::Token(Secret::new(TOKEN)));
    std::env::remove_var("GITHUB_API_URL");
    assert_eq!(cfg.api_url, "https://ghe.example.invalid/api/v3");
    assert_eq!(
        ClientConfig::from_env(Auth::Token(Secret::new(TOKEN))).api_url,
        "https://api.github.com"
    );
}

fn cut_pr() -> lane_github::PullSpec {
    lane_github::PullSpec {
        head: "cut/0.127.1".into(),
        base: "master".into(),
        title: "cut 0.127.1".into(),
        body: "the cut".into(),
    }
}

#[tokio::test]
async fn a_cut_pr_is_opened_once_and_found_again() {
    let gh = GithubMock::start("lane-bot").await;
    let c = client(&gh).await;
    let first = c.open_pull(&cut_pr()).await.unwrap();
    assert!(first.created);
    let again = c.open_pull(&cut_pr()).await.unwrap();
    assert!(!again.created);
    assert_eq!(again.number, first.number);
    assert_eq!(gh.count("POST", "/repos/octo/repo/pulls").await, 1);
    assert_eq!(gh.st().pulls.len(), 1);
}

#[tokio::test]
async fn a_pull_request_post_applied_then_failed_is_not_sent_twice() {
    let gh = GithubMock::start("lane-bot").await;
    let c = client(&gh).await;
    gh.fail(Failure {
        method: "POST",
        path_prefix: "/repos/octo/repo/pulls".into(),
        status: 502,
        headers: vec![],
        apply: true,
    })
    .await;
    let out = c.open_pull(&cut_pr()).await.unwrap();
    assert_eq!(gh.count("POST", "/repos/octo/repo/pulls").await, 1);
    assert_eq!(gh.st().pulls.len(), 1);
    assert_eq!(out.number, gh.st().pulls[0].0);
}
