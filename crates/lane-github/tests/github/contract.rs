//! Contract: every request lane sends is checked by a Prism server
//! (`@stoplight/prism-cli`, `--errors`) serving GitHub's official OpenAPI
//! description; an invalid request answers 4xx and fails the test. The
//! test kit starts it on loopback (it binds its own port) and kills it at
//! the end.

use lane_github::{Auth, ClientConfig, GithubClient, Reaction, Repo, RetryPolicy, Secret};
use lane_testkit::Prism;

async fn client(url: &str) -> GithubClient {
    let cfg = ClientConfig {
        api_url: url.to_owned(),
        auth: Auth::Token(Secret::new("ghp_contractTestToken0123456789")),
        retry: RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        },
        login: None,
    };
    GithubClient::connect(cfg, Repo::parse("octocat/hello-world").unwrap())
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn every_request_matches_githubs_description() {
    // Started off the runtime (it takes seconds); killed when the test
    // ends, passing or not.
    let server = tokio::task::spawn_blocking(Prism::start).await.unwrap();
    let c = client(&server.url()).await;
    let marker = "<!-- lane-report lane=0.93.3 -->";
    // List, create, re-list, and PATCH (the example comments lack the
    // marker, so the created one is settled with PATCH): all validated.
    c.upsert_comment(1347, marker, &format!("{marker}\nbody"))
        .await
        .expect("comment requests are valid for GitHub's description");
    let run = super::check_run(Some("https://example.invalid/r"));
    c.upsert_check_run(&run)
        .await
        .expect("check run requests are valid");
    // `lane serve`'s requests: a reaction on the comment that asked, and
    // the pull request's base and head.
    for r in [Reaction::Eyes, Reaction::Rocket, Reaction::Confused] {
        c.add_reaction(1, r)
            .await
            .unwrap_or_else(|e| panic!("{} reaction is valid: {e}", r.as_str()));
    }
    // GitHub's own example pull request lacks `requested_teams[].type`,
    // which its description requires: Prism answers that response
    // violation with 500. A request violation would be 422.
    // A trunk lane's cut PR: the look for an open one, and the opening.
    // GitHub's example pull requests fail their own schema: Prism answers
    // that response violation with 500; a request violation would be 422.
    if let Err(e) = c.find_open_pull("cut/0.127.1", "master").await {
        assert_eq!(e.status(), Some(500), "the request is valid: {e}");
    }
    let spec = lane_github::PullSpec {
        head: "cut/0.127.1".into(),
        base: "master".into(),
        title: "cut 0.127.1".into(),
        body: "the cut".into(),
    };
    match c.create_pull(&spec).await {
        Ok(p) => assert!(p.number > 0, "{p:?}"),
        Err(e) => assert_eq!(e.status(), Some(500), "the request is valid: {e}"),
    }
    match c.pull_request(1347).await {
        Ok(pr) => assert!(!pr.base_ref.is_empty() && !pr.head_sha.is_empty(), "{pr:?}"),
        Err(e) => assert_eq!(e.status(), Some(500), "the request is valid: {e}"),
    }
}
