//! Contract: every request lane sends is checked by a Prism server
//! (`@stoplight/prism-cli`, `--errors`) serving GitHub's official OpenAPI
//! description; an invalid request answers 4xx and fails the test. One
//! server per test binary, started on loopback, killed at the end.

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use lane_github::{Auth, CheckRun, ClientConfig, GithubClient, Repo, RetryPolicy, Secret};

const PRISM: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../.tools/node/node_modules/.bin/prism"
);

struct Server {
    url: String,
    child: Mutex<Child>,
}

fn prism() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        assert!(
            std::path::Path::new(PRISM).exists()
                && std::path::Path::new(super::fake::DESCRIPTION).exists(),
            "Prism or GitHub's OpenAPI description is missing: run `./just tools`"
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(PRISM)
            .args([
                "mock",
                "--errors",
                "-h",
                "127.0.0.1",
                "-p",
                &port.to_string(),
                super::fake::DESCRIPTION,
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("prism starts");
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(300),
                "Prism did not answer within 300 s"
            );
            std::thread::sleep(Duration::from_millis(250));
        }
        Server {
            url: format!("http://127.0.0.1:{port}"),
            child: Mutex::new(child),
        }
    })
}

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
    let server = tokio::task::spawn_blocking(prism).await.unwrap();
    // Killed when the test ends, passing or not.
    struct Stop(&'static Server);
    impl Drop for Stop {
        fn drop(&mut self) {
            let _ = self
                .0
                .child
                .lock()
                .map(|mut c| c.kill().and_then(|_| c.wait()));
        }
    }
    let _stop = Stop(server);
    let c = client(&server.url).await;
    let marker = "<!-- lane-report lane=0.93.3 -->";
    // List, create, re-list, and PATCH (the example comments lack the
    // marker, so the created one is settled with PATCH): all validated.
    c.upsert_comment(1347, marker, &format!("{marker}\nbody"))
        .await
        .expect("comment requests are valid for GitHub's description");
    let run = CheckRun {
        name: "lane 0.93.3".into(),
        head_sha: "a".repeat(40),
        conclusion: "neutral".into(),
        title: "lane 0.93.3: neutral".into(),
        summary: "summary".into(),
        details_url: Some("https://example.invalid/r".into()),
    };
    c.upsert_check_run(&run)
        .await
        .expect("check run requests are valid");
}
