//! `lane serve` through the binary, on loopback: GitHub's example
//! deliveries (`@octokit/webhooks-examples`) signed by octokit's reference
//! signer (`@octokit/webhooks-methods`, under `node`), Prism serving
//! GitHub's OpenAPI description for what lane sends back, and the local
//! backend running quick `sh` cells through `lane agent`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[cfg(feature = "kube")]
mod classes;
mod kube;
mod permission;

const SECRET: &str = "planted-webhook-secret-NeverPrinted-41";
const TOKEN: &str = "ghp_PlantedServeTokenNeverPrinted0123456";

/// A lane of `cells` mints (×2 cold repeats) that each sleep `sleep_s` and
/// log a line to `runs.log`; its upstream a local repo with its lane
/// branch; posting to the example's PR.
fn write_lane(dir: &Path, cells: usize, sleep_s: f64) {
    let lanes = dir.join("lanes");
    upstream(&lanes);
    let log = dir.join("runs.log");
    let script = format!(
        r#"echo "$LANE_MINT_ID" >> {}; sleep {sleep_s}; echo "kernel of $(echo "$LANE_MINT_ID" | cut -d/ -f2)" > "$LANE_ARTIFACTS_DIR/kernel.txt"; printf '{{"status":"minted","recipe":"dynamo","phases":{{"load":0.1}}}}' > "$LANE_REPORT_PATH""#,
        log.display()
    );
    let mut text = "version: \"0.93.3\"\nupstream: {repo: ./up}\nbase: v0.93.2\ngithub: {repo: Codertocat/Hello-World, post_to: [1]}\nmint:\n  gpus: [L4]\n  cold_repeats: 2\n  timeout_s: 60\n  concurrency: 2\n  cells:\n".to_owned();
    for i in 0..cells {
        text.push_str(&format!(
            "    - name: cell{i:02}\n      recipe: dynamo\n      command: [sh, -c, {}]\n",
            serde_json::to_string(&script).unwrap()
        ));
    }
    std::fs::write(lanes.join("0.93.3.yaml"), text).unwrap();
}

/// The lane's upstream: a local repo `lanes/up` with its base tag and its
/// lane branch (whose head the check run reports on).
fn upstream(lanes: &Path) {
    std::fs::create_dir_all(lanes).unwrap();
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
            .args(args)
            .current_dir(lanes)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    git(&["init", "-q", "-b", "main", "up"]);
    git(&["-C", "up", "commit", "-q", "--allow-empty", "-m", "base"]);
    git(&["-C", "up", "tag", "v0.93.2"]);
    git(&["-C", "up", "branch", "release/0.93.3"]);
}

fn runs(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("runs.log"))
        .unwrap_or_default()
        .lines()
        .count()
}

/// `lane serve` running in `dir`, its output in `dir/serve.log`.
struct Serve {
    child: Child,
    url: String,
    log: PathBuf,
}

impl Serve {
    fn start(dir: &Path, env: &[(&str, &str)]) -> Serve {
        Serve::start_with(dir, &[], env)
    }

    /// `lane serve` with `args` after the test's own.
    fn start_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Serve {
        let log = dir.join("serve.log");
        let out = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_lane"));
        cmd.args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--state",
            "state",
            "--lanes",
            "lanes",
            "--progress-every-s",
            "1",
        ])
        .args(args)
        .current_dir(dir)
        .env_remove("LANE_LOG")
        .env_remove("GITHUB_TOKEN")
        .env("GITHUB_API_URL", "http://127.0.0.1:1")
        .env("LANE_WEBHOOK_SECRET", SECRET)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(out);
        for (k, v) in env {
            cmd.env(k, v);
        }
        // Killed and reaped on drop (`Serve`'s `Drop`).
        #[allow(clippy::zombie_processes)]
        let child = cmd.spawn().unwrap();
        let start = std::fs::metadata(&log).map(|m| m.len()).unwrap_or(0) as usize;
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            let text = text.get(start..).unwrap_or("");
            if let Some(at) = text.find("listening on http://") {
                let url = text[at + "listening on ".len()..]
                    .lines()
                    .next()
                    .unwrap()
                    .trim()
                    .to_owned();
                return Serve { child, url, log };
            }
            assert!(
                Instant::now() < deadline,
                "lane serve did not start: {text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn output(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn get(&self, path: &str) -> (u16, String) {
        let mut r = agent().get(format!("{}{path}", self.url)).call().unwrap();
        (r.status().as_u16(), r.body_mut().read_to_string().unwrap())
    }

    /// Posts a delivery; its status and answer.
    fn deliver(
        &self,
        event: &str,
        id: &str,
        body: &[u8],
        signature: Option<&str>,
    ) -> (u16, String) {
        let mut req = agent()
            .post(format!("{}/webhook", self.url))
            .header("X-GitHub-Event", event)
            .header("X-GitHub-Delivery", id)
            .header("Content-Type", "application/json");
        if let Some(s) = signature {
            req = req.header("X-Hub-Signature-256", s);
        }
        let mut r = req.send(body).unwrap();
        (r.status().as_u16(), r.body_mut().read_to_string().unwrap())
    }

    fn kill(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.output()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

/// octokit's reference `sign(secret, body)`, run by node.
fn sign(secret: &str, body: &[u8]) -> String {
    lane_testkit::octokit::sign(secret, body)
}

/// GitHub's example `issue_comment` of `action`, made a comment on pull
/// request #1 saying `text`, by a commenter of `association`.
fn comment(action: &str, comment_id: u64, text: &str, association: &str) -> Vec<u8> {
    let path = lane_testkit::tools::webhooks_examples();
    let events: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut p = events
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "issue_comment")
        .unwrap()["examples"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["action"] == action)
        .unwrap()
        .clone();
    p["issue"]["pull_request"] = json!({
        "url": "https://api.github.com/repos/Codertocat/Hello-World/pulls/1"
    });
    p["comment"]["id"] = json!(comment_id);
    p["comment"]["body"] = json!(text);
    p["comment"]["author_association"] = json!(association);
    if action == "edited" {
        p["changes"] = json!({ "body": { "from": "thanks!" } });
    }
    serde_json::to_vec(&p).unwrap()
}

/// The service's commands as its state store holds them, oldest first:
/// (command, state, starts, detail).
fn commands(dir: &Path) -> Vec<(String, String, i64, String)> {
    let db = rusqlite::Connection::open_with_flags(
        dir.join("state/serve.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let mut s = db
        .prepare("SELECT text, state, starts, COALESCE(detail, '') FROM commands ORDER BY id")
        .unwrap();
    let rows = s
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    rows
}

fn wait_for(serve: &Serve, what: &str, within: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !done() {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; lane serve said:\n{}",
            serve.output()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Whether a `/lane mint` has ended, done or failed.
fn mint_ended(serve: &Serve) -> bool {
    ["done", "failed"].iter().any(|o| {
        metric(
            serve,
            &format!("lane_serve_commands_total{{command=\"mint\",outcome=\"{o}\"}}"),
        ) > 0.0
    })
}

fn metric(serve: &Serve, line_start: &str) -> f64 {
    let (_, text) = serve.get("/metrics");
    text.lines()
        .find(|l| l.starts_with(line_start))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

#[test]
fn a_signed_mint_from_a_member_runs_once_and_posts_its_report_through_githubs_contract() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    let prism = lane_testkit::Prism::start();
    let serve = Serve::start(
        d.path(),
        &[
            ("GITHUB_TOKEN", TOKEN),
            ("GITHUB_API_URL", &prism.url()),
            ("LANE_LOG", "lane_serve=info,lane_app=info,lane_github=info"),
        ],
    );
    let body = comment("created", 9001, "/lane mint 0.93.3", "MEMBER");
    let (code, text) = serve.deliver(
        "issue_comment",
        "d-mint-1",
        &body,
        Some(&sign(SECRET, &body)),
    );
    assert_eq!(code, 202, "{text}");
    let results = d.path().join("state/out/lanes/0.93.3/results/summary.json");
    // The command's end is counted last, after the report and the check
    // run (regression: the report's log line came first, and CI read the
    // metric in between).
    wait_for(&serve, "the mint's end", Duration::from_secs(120), || {
        mint_ended(&serve)
    });
    assert!(serve.output().contains("report posted"));
    assert!(results.is_file());
    assert_eq!(runs(d.path()), 2, "one run: 1 cell x 2 repeats");
    let log = serve.output();
    // Every request lane sent was valid for GitHub's description (Prism
    // answers an invalid one 422, and lane logs what it could not post).
    assert!(log.contains("comment posted"), "{log}");
    assert!(
        log.contains("check_run=Some"),
        "the check run concluded: {log}"
    );
    for bad in ["not posted", "reaction not added", "GitHub answered 4"] {
        assert!(!log.contains(bad), "{bad}: {log}");
    }
    // Progress filled in the lane's sticky comment before the report.
    assert!(log.contains("answered"), "{log}");
    assert_eq!(
        metric(
            &serve,
            "lane_serve_commands_total{command=\"mint\",outcome=\"done\"}"
        ),
        1.0
    );
    assert!(!log.contains(TOKEN) && !log.contains(SECRET));
}

fn refused_delivery_runs_nothing(signature: Option<&str>, expect: u16, outcome: &str) {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    let serve = Serve::start(d.path(), &[("LANE_LOG", "trace")]);
    let body = comment("created", 9002, "/lane mint 0.93.3", "OWNER");
    let sig = signature.map(|s| {
        if s == "other" {
            sign("another secret", &body)
        } else {
            s.to_owned()
        }
    });
    let (code, _) = serve.deliver("issue_comment", "d-refused", &body, sig.as_deref());
    assert_eq!(code, expect);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(runs(d.path()), 0);
    assert!(!d.path().join("state/out").exists(), "nothing ran");
    let counted = metric(
        &serve,
        &format!("lane_serve_deliveries_total{{outcome=\"{outcome}\"}}"),
    );
    assert_eq!(counted, 1.0, "{outcome} counted");
    let log = serve.kill();
    assert!(!log.contains("/lane mint"), "the body is not logged: {log}");
}

#[test]
fn a_forged_delivery_runs_nothing() {
    refused_delivery_runs_nothing(Some("other"), 401, "forged");
}

#[test]
fn an_unsigned_delivery_runs_nothing() {
    refused_delivery_runs_nothing(None, 401, "unsigned");
}

#[test]
fn an_oversized_delivery_is_refused_unread() {
    use std::io::Read;
    let d = tempfile::tempdir().unwrap();
    let serve = Serve::start(d.path(), &[]);
    // Headers declaring a 2 MiB body, and no body at all: the answer comes
    // without lane reading (or waiting for) a byte of it.
    let addr = serve.url.trim_start_matches("http://").to_owned();
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let sig = format!("sha256={}", "a".repeat(64));
    write!(
        s,
        "POST /webhook HTTP/1.1\r\nHost: {addr}\r\nX-GitHub-Event: issue_comment\r\nX-GitHub-Delivery: d-big\r\nX-Hub-Signature-256: {sig}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        2 * 1024 * 1024
    )
    .unwrap();
    let mut answer = [0u8; 64];
    let n = s.read(&mut answer).unwrap();
    let head = String::from_utf8_lossy(&answer[..n]).into_owned();
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
    // The same with the body sent: refused, nothing run.
    let mut body = comment("created", 9003, "/lane mint 0.93.3", "OWNER");
    body.extend(std::iter::repeat_n(b' ', 2 * 1024 * 1024));
    let sig = lane_webhook_sign(&body);
    let code = match agent()
        .post(format!("{}/webhook", serve.url))
        .header("X-GitHub-Event", "issue_comment")
        .header("X-GitHub-Delivery", "d-big-2")
        .header("X-Hub-Signature-256", &sig)
        .send(&body[..])
    {
        Ok(r) => r.status().as_u16(),
        // lane answered 413 and closed before the client sent it all.
        Err(ureq::Error::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => 413,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(code, 413);
    assert!(!d.path().join("state/out").exists());
    assert!(metric(&serve, "lane_serve_deliveries_total{outcome=\"too_large\"}") >= 1.0);
}

/// The signature of a body too large for node's stdin round trip in a
/// test: the same HMAC-SHA256, by `sha2` (checked against the reference
/// on small bodies below).
fn lane_webhook_sign(body: &[u8]) -> String {
    use sha2::Digest;
    let key = SECRET.as_bytes();
    let mut k = [0u8; 64];
    k[..key.len()].copy_from_slice(key);
    let pad = |b: u8| k.iter().map(|x| x ^ b).collect::<Vec<u8>>();
    let inner = sha2::Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(body)
        .finalize();
    let outer = sha2::Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize();
    format!(
        "sha256={}",
        outer.iter().map(|b| format!("{b:02x}")).collect::<String>()
    )
}

#[test]
fn the_local_signer_agrees_with_octokits() {
    let body = comment("created", 1, "/lane help", "OWNER");
    assert_eq!(lane_webhook_sign(&body), sign(SECRET, &body));
}

#[test]
fn a_replayed_delivery_runs_nothing_also_after_a_restart() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    let serve = Serve::start(d.path(), &[]);
    let body = comment("created", 9004, "/lane help", "OWNER");
    let sig = sign(SECRET, &body);
    assert_eq!(
        serve
            .deliver("issue_comment", "d-replay", &body, Some(&sig))
            .0,
        202
    );
    assert_eq!(
        serve
            .deliver("issue_comment", "d-replay", &body, Some(&sig))
            .0,
        409
    );
    serve.kill();
    let serve = Serve::start(d.path(), &[]);
    let (code, text) = serve.deliver("issue_comment", "d-replay", &body, Some(&sig));
    assert_eq!(code, 409, "{text}");
    assert_eq!(
        metric(&serve, "lane_serve_deliveries_total{outcome=\"replayed\"}"),
        1.0
    );
}

#[test]
fn an_unauthorised_commenter_is_refused_and_nothing_runs() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    let serve = Serve::start(d.path(), &[]);
    let body = comment("created", 9005, "/lane mint 0.93.3", "CONTRIBUTOR");
    assert_eq!(
        serve
            .deliver(
                "issue_comment",
                "d-unauth",
                &body,
                Some(&sign(SECRET, &body))
            )
            .0,
        202
    );
    wait_refused_nothing_ran(&serve, d.path());
    // Edited again: still one refusal, not another.
    let edited = comment("edited", 9005, "/lane mint 0.93.3 --gpu L4", "CONTRIBUTOR");
    let (code, text) = serve.deliver(
        "issue_comment",
        "d-unauth-2",
        &edited,
        Some(&sign(SECRET, &edited)),
    );
    assert_eq!((code, text.contains("AlreadyRan")), (200, true), "{text}");
    assert_eq!(runs(d.path()), 0);
}

#[test]
fn an_edited_comment_does_not_run_twice_and_a_second_mint_while_one_runs_is_answered() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 2.0);
    let serve = Serve::start(d.path(), &[("LANE_LOG", "info")]);
    let body = comment("created", 9006, "/lane mint 0.93.3", "MEMBER");
    assert_eq!(
        serve
            .deliver("issue_comment", "d-e1", &body, Some(&sign(SECRET, &body)))
            .0,
        202
    );
    // The same comment edited: it ran already.
    let edited = comment("edited", 9006, "/lane mint 0.93.3 --cell cell00", "MEMBER");
    let (code, text) = serve.deliver(
        "issue_comment",
        "d-e2",
        &edited,
        Some(&sign(SECRET, &edited)),
    );
    assert_eq!(code, 200, "{text}");
    // Another comment asking while the lane runs: answered, not started.
    let again = comment("created", 9007, "/lane mint 0.93.3", "MEMBER");
    assert_eq!(
        serve
            .deliver("issue_comment", "d-e3", &again, Some(&sign(SECRET, &again)))
            .0,
        202
    );
    wait_for(&serve, "the lane", Duration::from_secs(60), || {
        metric(
            &serve,
            "lane_serve_commands_total{command=\"mint\",outcome=\"done\"}",
        ) == 1.0
    });
    assert_eq!(
        metric(
            &serve,
            "lane_serve_commands_total{command=\"mint\",outcome=\"failed\"}"
        ),
        1.0
    );
    assert_eq!(runs(d.path()), 2, "one run of 2 mints");
}

#[test]
fn health_readiness_and_metrics_answer() {
    let d = tempfile::tempdir().unwrap();
    let serve = Serve::start(d.path(), &[]);
    // What a person starting it sees: where it listens, and nothing else
    // at the default log level.
    insta::assert_snapshot!(
        "serve_startup_stderr",
        super::Redact::new().apply(&serve.output())
    );
    assert_eq!(serve.get("/healthz").0, 200);
    let (code, text) = serve.get("/readyz");
    assert_eq!(code, 200, "{text}");
    assert!(
        text.contains("state store: open") && text.contains("worker: alive"),
        "{text}"
    );
    let body = comment("created", 9009, "/lane status", "OWNER");
    let forged = format!("sha256={}", "f".repeat(64));
    assert_eq!(
        serve
            .deliver("issue_comment", "d-h", &body, Some(&forged))
            .0,
        401
    );
    let (code, text) = serve.get("/metrics");
    assert_eq!(code, 200);
    assert!(
        text.contains("lane_serve_deliveries_total{outcome=\"forged\"} 1"),
        "{text}"
    );
    assert!(
        text.contains("# TYPE lane_serve_deliveries counter"),
        "{text}"
    );
    assert!(text.contains("lane_serve_ack_seconds"), "{text}");
}

#[test]
fn without_a_webhook_secret_it_refuses_to_start() {
    let d = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .current_dir(d.path())
        .env_remove("LANE_WEBHOOK_SECRET")
        .env_remove("LANE_LOG")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(6));
    assert!(String::from_utf8_lossy(&o.stderr).contains("LANE_WEBHOOK_SECRET"));
    // Its one line to the person starting it: stdout stays empty.
    assert!(o.stdout.is_empty());
    insta::assert_snapshot!(
        "serve_without_a_secret_stderr",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn the_secret_and_token_never_appear_in_any_output_at_trace() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    let serve = Serve::start(d.path(), &[("LANE_LOG", "trace"), ("GITHUB_TOKEN", TOKEN)]);
    let body = comment("created", 9008, "/lane help", "OWNER");
    assert_eq!(
        serve
            .deliver("issue_comment", "d-s1", &body, Some(&sign(SECRET, &body)))
            .0,
        202
    );
    let forged = format!("sha256={}", "0".repeat(64));
    assert_eq!(
        serve
            .deliver("issue_comment", "d-s2", &body, Some(&forged))
            .0,
        401
    );
    wait_for(&serve, "the help answer", Duration::from_secs(60), || {
        metric(&serve, "lane_serve_commands_total{command=\"help\"") > 0.0
    });
    let log = serve.kill();
    assert!(
        log.contains("TRACE") || log.contains("DEBUG"),
        "trace logging was on: {log}"
    );
    assert!(!log.contains(SECRET), "the webhook secret was printed");
    assert!(!log.contains(TOKEN), "the token was printed");
}

/// Regression (issue 35): `lane serve --backend local` handed its
/// webhook secret to every mint (a cell running `env` printed
/// `LANE_WEBHOOK_SECRET=…`), so code under test could sign its own
/// `/lane` commands.
#[test]
fn a_mint_started_by_lane_serve_finds_neither_the_webhook_secret_nor_any_other() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    let file = d.path().join("lanes/0.93.3.yaml");
    let text = std::fs::read_to_string(&file).unwrap().replace(
        "echo \\\"$LANE_MINT_ID\\\"",
        "env > env.txt; env; echo \\\"$LANE_MINT_ID\\\"",
    );
    assert!(text.contains("env > env.txt"), "{text}");
    std::fs::write(&file, text).unwrap();
    let mut planted = super::secrets::lanes_secrets();
    planted.retain(|(k, _)| *k != "LANE_WEBHOOK_SECRET");
    let mut env: Vec<(&str, &str)> = planted.iter().map(|(k, v)| (*k, v.as_str())).collect();
    env.push(("GITHUB_API_URL", "http://127.0.0.1:1"));
    let serve = Serve::start(d.path(), &env);
    say(&serve, 9035, "/lane mint 0.93.3");
    wait_for(&serve, "the mint's end", Duration::from_secs(120), || {
        mint_ended(&serve)
    });
    assert_eq!(runs(d.path()), 2, "{}", serve.output());
    drop(serve);
    planted.push(("LANE_WEBHOOK_SECRET", SECRET.to_owned()));
    super::secrets::assert_no_secret_reached_a_mint(d.path(), &planted, "env.txt");
}

/// The bodies lane serve posted on GitHub (and GitHub's description
/// accepted), as its debug log says them, oldest first.
fn answers(serve: &Serve) -> Vec<String> {
    serve
        .output()
        .lines()
        .filter(|l| l.contains("answer posted"))
        .map(str::to_owned)
        .collect()
}

/// `lane serve` on the local backend answering through Prism, its
/// answers logged.
fn serve_with_prism(dir: &Path, prism: &lane_testkit::Prism) -> Serve {
    serve_with_prism_args(
        dir,
        prism,
        &[],
        "lane_serve=debug,lane_app=info,lane_github=info",
    )
}

/// [`serve_with_prism`] with `args` and the log filter `log`.
fn serve_with_prism_args(
    dir: &Path,
    prism: &lane_testkit::Prism,
    args: &[&str],
    log: &str,
) -> Serve {
    Serve::start_with(
        dir,
        args,
        &[
            ("GITHUB_TOKEN", TOKEN),
            ("GITHUB_API_URL", &prism.url()),
            ("LANE_LOG", log),
        ],
    )
}

/// Posts a signed comment saying `text` (comment `id`, by a member).
fn say(serve: &Serve, id: u64, text: &str) {
    say_as(serve, id, text, "MEMBER");
}

/// Posts a signed comment saying `text` (comment `id`, by a commenter of
/// `association`); it must be acknowledged 202.
fn say_as(serve: &Serve, id: u64, text: &str, association: &str) {
    let body = comment("created", id, text, association);
    let (code, answer) = serve.deliver(
        "issue_comment",
        &format!("d-{id}"),
        &body,
        Some(&sign(SECRET, &body)),
    );
    assert_eq!(code, 202, "{answer}");
}

/// Waits for the one refusal, and checks that no agent ran.
fn wait_refused_nothing_ran(serve: &Serve, dir: &Path) {
    wait_for(serve, "the refusal", Duration::from_secs(30), || {
        metric(
            serve,
            "lane_serve_commands_total{command=\"refusal\",outcome=\"done\"}",
        ) == 1.0
    });
    assert_eq!(runs(dir), 0);
}

/// Waits until every command the service recorded has ended.
fn wait_idle(serve: &Serve, dir: &Path, n: usize) {
    wait_for(
        serve,
        "the commands' ends",
        Duration::from_secs(120),
        || {
            let c = commands(dir);
            c.len() == n && c.iter().all(|(_, s, _, _)| s == "done" || s == "failed")
        },
    );
}

/// Mints the lane through the service and waits for it.
fn mint_through(serve: &Serve, dir: &Path, id: u64) {
    say(serve, id, "/lane mint 0.93.3");
    wait_for(serve, "the lane's report", Duration::from_secs(120), || {
        serve.output().contains("report posted")
    });
    let n = commands(dir).len();
    wait_idle(serve, dir, n);
}

#[test]
fn lane_status_answers_the_lanes_attempts_in_the_answer_comment() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    let prism = lane_testkit::Prism::start();
    let serve = serve_with_prism(d.path(), &prism);
    mint_through(&serve, d.path(), 9201);
    let before = answers(&serve).len();
    say(&serve, 9202, "/lane status");
    wait_idle(&serve, d.path(), 2);
    assert_eq!(commands(d.path())[1].1, "done", "{:?}", commands(d.path()));
    let new = &answers(&serve)[before..];
    assert_eq!(new.len(), 1, "one answer: {new:?}");
    let a = &new[0];
    assert!(a.contains("<!-- lane-serve pr=1 -->"), "{a}");
    assert!(a.contains("**lane 0.93.3**"), "{a}");
    assert!(a.contains("2 attempts: 2 "), "{a}");
    assert!(!a.contains("minting now") && !a.contains("outdated"), "{a}");
}

#[test]
fn lane_cancel_while_a_mint_runs_stops_the_lane_and_answers() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 30.0);
    let prism = lane_testkit::Prism::start();
    let serve = serve_with_prism(d.path(), &prism);
    say(&serve, 9301, "/lane mint 0.93.3");
    // Both mints run (their agents logged their start).
    wait_for(&serve, "two running mints", Duration::from_secs(60), || {
        runs(d.path()) == 2
    });
    let asked = Instant::now();
    say(&serve, 9302, "/lane cancel");
    wait_idle(&serve, d.path(), 2);
    assert!(
        asked.elapsed() < Duration::from_secs(25),
        "the lane ran on: {:?}",
        asked.elapsed()
    );
    let c = commands(d.path());
    assert_eq!(
        (c[0].1.as_str(), c[0].3.as_str()),
        ("failed", "cancelled"),
        "{c:?}"
    );
    assert_eq!(c[1].1, "done", "{c:?}");
    let a = answers(&serve);
    assert!(
        a.iter()
            .any(|l| l.contains("lane 0.93.3: cancelled; the running mints are stopped")),
        "{a:?}"
    );
    assert!(!d
        .path()
        .join("state/out/lanes/0.93.3/results/summary.json")
        .exists());
    // Its agents are gone: no mint finishes later.
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(runs(d.path()), 2);
    assert!(!serve.output().contains("report posted"));
}

#[test]
fn lane_diff_after_a_mint_answers_the_determinism_verdict() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    let prism = lane_testkit::Prism::start();
    let serve = serve_with_prism(d.path(), &prism);
    mint_through(&serve, d.path(), 9401);
    let before = answers(&serve).len();
    say(&serve, 9402, "/lane diff cell00 L4");
    wait_idle(&serve, d.path(), 2);
    let c = commands(d.path());
    assert_eq!(c[1].1, "done", "{c:?}");
    let new = &answers(&serve)[before..];
    assert_eq!(new.len(), 1, "{new:?}");
    assert!(
        new[0].contains("determinism of cell00 on L4, r1 vs r2: **"),
        "{new:?}"
    );
    assert!(new[0].contains("files identical"), "{new:?}");
}

#[test]
fn lane_help_and_an_invalid_command_each_answer_the_help_text_once() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    let prism = lane_testkit::Prism::start();
    let serve = serve_with_prism(d.path(), &prism);
    say(&serve, 9501, "/lane help");
    wait_idle(&serve, d.path(), 1);
    say(&serve, 9502, "/lane frobnicate 0.93.3");
    wait_idle(&serve, d.path(), 2);
    let a = answers(&serve);
    assert_eq!(a.len(), 2, "one answer each: {a:?}");
    let help_line = "/lane mint";
    assert!(
        a[0].contains(help_line) && a[0].contains("/lane diff"),
        "{a:?}"
    );
    assert!(
        a[1].contains("lane did not understand that command"),
        "{a:?}"
    );
    assert!(
        a[1].contains(help_line) && a[1].contains("/lane diff"),
        "{a:?}"
    );
    let c = commands(d.path());
    assert_eq!(c[0].1, "done", "{c:?}");
    assert_eq!(
        (c[1].1.as_str(), c[1].3.as_str()),
        ("done", "refused"),
        "{c:?}"
    );
    assert_eq!(runs(d.path()), 0);
}

/// GitHub's example `pull_request` `synchronize`, made a push of `head` to
/// pull request #1.
fn synchronize(head: &str) -> Vec<u8> {
    let path = lane_testkit::tools::webhooks_examples();
    let events: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut p = events
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "pull_request")
        .unwrap()["examples"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["action"] == "synchronize")
        .unwrap()
        .clone();
    p["number"] = json!(1);
    p["pull_request"]["number"] = json!(1);
    p["pull_request"]["head"]["sha"] = json!(head);
    serde_json::to_vec(&p).unwrap()
}

#[test]
fn a_push_to_a_minted_pr_reposts_its_report_outdated_and_status_says_so() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    let prism = lane_testkit::Prism::start();
    let serve = serve_with_prism(d.path(), &prism);
    mint_through(&serve, d.path(), 9601);
    let report =
        std::fs::read_to_string(d.path().join("state/out/lanes/0.93.3/report/report.md")).unwrap();
    let before = answers(&serve).len();
    let head = "1111111111111111111111111111111111111111";
    let body = synchronize(head);
    let (code, text) = serve.deliver("pull_request", "d-sync", &body, Some(&sign(SECRET, &body)));
    assert_eq!(code, 200, "{text}");
    wait_for(
        &serve,
        "the outdated report",
        Duration::from_secs(30),
        || answers(&serve).len() > before,
    );
    let new = answers(&serve)[before..].to_vec();
    assert_eq!(new.len(), 1, "{new:?}");
    // The lane's sticky comment: its marker, the outdated line, then the
    // report as it was posted.
    let marker = "<!-- lane-report lane=0.93.3 -->";
    let top = format!(
        "body=\"{marker}\\n> **outdated**: new commits since this report (head {head}); `/lane mint 0.93.3` mints them.\\n\\n"
    );
    assert!(new[0].contains(&top), "{top}\n{new:?}");
    let heading = report
        .lines()
        .find(|l| l.starts_with('#'))
        .expect("the report has a heading");
    assert!(new[0].contains(heading), "{heading}: {new:?}");
    say(&serve, 9602, "/lane status");
    wait_idle(&serve, d.path(), 2);
    let status = answers(&serve).last().cloned().unwrap();
    assert!(
        status.contains(&format!(
            "outdated: new commits since this report (head {head})"
        )),
        "{status}"
    );
    // Pushed again: one outdated line, the newest.
    let head2 = "2222222222222222222222222222222222222222";
    let body = synchronize(head2);
    let (code, _) = serve.deliver(
        "pull_request",
        "d-sync-2",
        &body,
        Some(&sign(SECRET, &body)),
    );
    assert_eq!(code, 200);
    let n = answers(&serve).len();
    wait_for(
        &serve,
        "the second outdated report",
        Duration::from_secs(30),
        || answers(&serve).len() > n,
    );
    let last = answers(&serve).last().cloned().unwrap();
    assert_eq!(last.matches("> **outdated**").count(), 1, "{last}");
    assert!(last.contains(head2), "{last}");
}

#[test]
fn a_mint_running_when_the_service_is_killed_is_adopted_once_and_never_run_twice() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 6.0);
    let env = [("LANE_LOG", "lane_serve=info,lane_app=info")];
    let serve = Serve::start(d.path(), &env);
    say(&serve, 9701, "/lane mint 0.93.3");
    wait_for(&serve, "two running mints", Duration::from_secs(60), || {
        runs(d.path()) == 2
    });
    assert_eq!(commands(d.path())[0].1, "running");
    let before = serve.kill().len(); // SIGKILL: its agents run on
    let serve = Serve::start(d.path(), &env);
    wait_for(&serve, "the adopted lane", Duration::from_secs(120), || {
        commands(d.path())[0].1 != "running"
    });
    let log = serve.output()[before..].to_owned();
    assert_eq!(
        log.matches("adopting the commands a restart left").count(),
        1,
        "{log}"
    );
    let c = commands(d.path());
    assert_eq!(
        (c.len(), c[0].1.as_str(), c[0].2, c[0].3.as_str()),
        (1, "done", 2, "green"),
        "{c:?}\n{log}"
    );
    assert!(d
        .path()
        .join("state/out/lanes/0.93.3/results/summary.json")
        .is_file());
    assert_eq!(runs(d.path()), 2, "a mint ran twice: {log}");
    // A second restart has nothing to adopt.
    let before = serve.kill().len();
    let serve = Serve::start(d.path(), &env);
    std::thread::sleep(Duration::from_secs(2));
    let log = serve.kill()[before..].to_owned();
    assert!(!log.contains("adopting"), "{log}");
    assert_eq!(commands(d.path()), c);
    assert_eq!(runs(d.path()), 2);
}

/// Regression (issue 35, a newcomer's dead end): a lane naming no GitHub
/// repository was minted in full before its report failed to post. It is
/// refused before any mint, and the answer says so.
#[test]
fn regression_a_lane_without_a_github_repository_is_refused_before_minting() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    let file = d.path().join("lanes/0.93.3.yaml");
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("github: {repo: Codertocat/Hello-World, post_to: [1]}\n", "");
    std::fs::write(&file, text).unwrap();
    let prism = lane_testkit::Prism::start();
    let serve = serve_with_prism(d.path(), &prism);
    say(&serve, 9301, "/lane mint 0.93.3");
    wait_idle(&serve, d.path(), 1);
    let c = commands(d.path());
    assert_eq!(c[0].1, "failed", "{c:?}");
    assert!(c[0].3.contains("names no GitHub repository"), "{c:?}");
    assert_eq!(runs(d.path()), 0, "nothing was minted");
    let said = answers(&serve);
    assert!(
        said.iter()
            .any(|l| l.contains("names no GitHub repository") && l.contains("nothing was minted")),
        "{said:?}"
    );
}
