//! Webhook load: 200 signed deliveries a second for 60 s plus 1,000 forged
//! ones, on loopback, against `lane serve` and, in the same run, against a
//! peer that only does "receive, verify, acknowledge": an axum server whose
//! `/webhook` reads the body under the same cap, checks its HMAC-SHA256
//! (lane-webhook's `verify_signature`, the hmac crate) and answers 202.
//!
//! Each server runs in a child process of this very binary (the same axum,
//! tokio and build), so its memory is its own (`/proc/<pid>/status`). The
//! deliveries are GitHub's example `issue_comment` (created) from
//! `@octokit/webhooks-examples`, made comments on pull request #1 with
//! unique delivery and comment ids: mostly comments that are no command
//! (ignored, 200), commands from people the policy refuses (refused: an
//! answer queued, 202) and a few `/lane help` from members (run, 202). No
//! GitHub credentials are given, so answers are skipped (docs/serve.md).
//! The forged ones are `/lane mint 0.93.3` from the repository's owner with
//! a signature under another secret: each must get 401 and leave no trace.
//!
//! The schedule is open-loop: each request is sent at its scheduled time
//! whatever the earlier ones got, one tokio task and one connection each;
//! latency is from the scheduled send to the response's status line, so it
//! includes any queueing (the generator's own lateness is reported too).
//!
//! Run: `cargo bench -p lane-serve --bench webhook_load` (about 2.5 min:
//! 60 s each for lane and the peer). `LANE_LOAD_SECONDS=5` shortens it
//! (the forged count scales with it unless `LANE_LOAD_FORGED` is set);
//! `LANE_LOAD_RATE` changes the 200 a second. `LANE_LOAD_SLOW` slow
//! clients (default 300) are connected the whole time (`slow`).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[path = "webhook_load/slow.rs"]
mod slow;

const SECRET: &str = "load-bench-webhook-secret-3f9c2a71";
const FORGER: &str = "not-the-webhook-secret";
const ROLE: &str = "LANE_LOAD_ROLE";

fn env_num<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

fn main() {
    match std::env::var(ROLE).as_deref() {
        Ok("lane") => child_lane(),
        Ok("peer") => child_peer(),
        _ => drive(),
    }
}

// ---------------------------------------------------------------- children

/// Prints the address, then serves until stdin closes.
fn announce_and_wait(addr: SocketAddr) {
    println!("listening {addr}");
    std::io::stdout().flush().unwrap();
    let mut sink = String::new();
    while std::io::stdin().read_line(&mut sink).unwrap_or(0) > 0 {}
}

fn child_lane() {
    let dir = PathBuf::from(std::env::var("LANE_LOAD_DIR").expect("LANE_LOAD_DIR"));
    let config = lane_serve::ServeConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        state: dir.join("state"),
        lanes: dir.join("lanes"),
        backend: lane_serve::BackendKind::Local,
        kube_config: None,
        policy: lane_webhook::Policy::default(),
        max_body_bytes: lane_serve::DEFAULT_MAX_BODY_BYTES,
        limits: lane_serve::Limits::default(),
        workers: 1,
        secret: lane_core::Secret::new(SECRET),
        // Nothing may mint; were one started, it would fail at once.
        agent: vec!["false".into()],
        progress_every: Duration::from_secs(10),
    };
    let running = lane_serve::start(config).expect("lane serve starts");
    announce_and_wait(running.addr());
    running.shutdown();
}

/// The peer's `/webhook`: the body under the cap, its signature, 202.
async fn peer_webhook(headers: axum::http::HeaderMap, body: axum::body::Body) -> (u16, String) {
    let Ok(bytes) = axum::body::to_bytes(body, lane_serve::DEFAULT_MAX_BODY_BYTES).await else {
        return (413, "too large\n".into());
    };
    let sig = headers
        .get(lane_webhook::SIGNATURE_HEADER)
        .and_then(|v| v.to_str().ok());
    match lane_webhook::verify_signature(SECRET.as_bytes(), &bytes, sig) {
        Ok(()) => (202, "accepted\n".into()),
        Err(_) => (401, "signature refused\n".into()),
    }
}

fn child_peer() {
    use axum::response::IntoResponse;
    // The same runtime lane serve builds for its HTTP side.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let router = axum::Router::new().route(
        "/webhook",
        axum::routing::post(|h, b| async move {
            let (code, text) = peer_webhook(h, b).await;
            (axum::http::StatusCode::from_u16(code).unwrap(), text).into_response()
        }),
    );
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = std::thread::spawn(move || {
        rt.block_on(async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(async move {
                    let _ = stop_rx.await;
                })
                .await
                .unwrap()
        })
    });
    announce_and_wait(addr);
    let _ = stop_tx.send(());
    let _ = server.join();
}

/// A server started as a child of this binary.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    addr: SocketAddr,
}

impl Server {
    fn start(role: &str, dir: &Path) -> Server {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .env(ROLE, role)
            .env("LANE_LOAD_DIR", dir)
            // No credentials: lane serve runs commands and answers nothing.
            .env_remove("GITHUB_TOKEN")
            .env_remove("LANE_GITHUB_APP_ID")
            .env_remove("LANE_GITHUB_APP_KEY")
            .env_remove("LANE_GITHUB_APP_INSTALLATION_ID")
            .env("GITHUB_API_URL", "http://127.0.0.1:1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(dir.join(format!("{role}.log"))).unwrap())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("{role} did not start: {line:?}"))
            .parse()
            .unwrap();
        let stdin = child.stdin.take();
        Server { child, stdin, addr }
    }

    /// `(VmHWM, VmRSS)` in KiB.
    fn memory(&self) -> (u64, u64) {
        let s = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let kib = |key: &str| {
            s.lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                .unwrap_or(0)
        };
        (kib("VmHWM:"), kib("VmRSS:"))
    }

    /// User + system CPU seconds so far (`/proc/<pid>/stat`, at Linux's
    /// USER_HZ of 100).
    fn cpu_s(&self) -> f64 {
        let s = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        let after = &s[s.rfind(')').unwrap() + 2..];
        let f: Vec<&str> = after.split(' ').collect();
        // Fields 14 and 15 of stat, counted from the state (field 3).
        let ticks: u64 = f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap();
        ticks as f64 / 100.0
    }

    fn stop(mut self) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "the server ended {status}");
    }
}

// ---------------------------------------------------------------- deliveries

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    /// A comment that is no command: ignored (200).
    Ignored,
    /// `/lane status` from someone the policy refuses: a refusal queued (202).
    Refused,
    /// `/lane help` from a member: run (202), its answer skipped.
    Help,
    /// `/lane mint` from the owner, signed under another secret: 401.
    Forged,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Ignored => "ignored (plain comment)",
            Kind::Refused => "refused (`/lane status`, not authorised)",
            Kind::Help => "run (`/lane help`, a member)",
            Kind::Forged => "forged (`/lane mint`, owner, bad signature)",
        }
    }

    fn expected(self) -> u16 {
        match self {
            Kind::Ignored => 200,
            Kind::Refused | Kind::Help => 202,
            Kind::Forged => 401,
        }
    }
}

/// One scheduled request.
struct Planned {
    at: Duration,
    kind: Kind,
    delivery: String,
    bytes: Arc<Vec<u8>>,
}

fn example_comment() -> Value {
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
        .find(|x| x["action"] == "created")
        .unwrap()
        .clone();
    p["issue"]["pull_request"] = json!({
        "url": "https://api.github.com/repos/Codertocat/Hello-World/pulls/1"
    });
    p
}

fn request(
    example: &Value,
    delivery: &str,
    comment_id: u64,
    text: &str,
    association: &str,
    secret: &str,
) -> Vec<u8> {
    let mut p = example.clone();
    p["comment"]["id"] = json!(comment_id);
    p["comment"]["body"] = json!(text);
    p["comment"]["author_association"] = json!(association);
    let body = serde_json::to_vec(&p).unwrap();
    let sig = lane_webhook::sign(secret.as_bytes(), &body);
    let mut r = format!(
        "POST /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: GitHub-Hookshot/load\r\n\
         Content-Type: application/json\r\nX-GitHub-Event: issue_comment\r\n\
         X-GitHub-Delivery: {delivery}\r\nX-Hub-Signature-256: {sig}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    r.extend_from_slice(&body);
    r
}

/// The signed deliveries (`rate` a second for `secs`) and the forged ones
/// spread evenly between them, in send order.
fn plan(rate: u64, secs: u64, forged: u64) -> Vec<Planned> {
    let example = example_comment();
    let mut out = Vec::new();
    let n = rate * secs;
    for i in 0..n {
        // Of every 20: one help, four refused, fifteen plain comments.
        let (kind, text, assoc) = match i % 20 {
            7 => (Kind::Help, "/lane help", "MEMBER"),
            1 | 6 | 11 | 16 => (Kind::Refused, "/lane status", "NONE"),
            _ => (Kind::Ignored, "Thanks, looks good to me.", "CONTRIBUTOR"),
        };
        let delivery = format!("5a9e0c00-1000-4000-8000-{i:012x}");
        let comment_id = 3_000_000_000 + i;
        out.push(Planned {
            at: Duration::from_secs_f64(i as f64 / rate as f64),
            kind,
            bytes: Arc::new(request(
                &example, &delivery, comment_id, text, assoc, SECRET,
            )),
            delivery,
        });
    }
    for j in 0..forged {
        let delivery = format!("f0e9ed00-2000-4000-8000-{j:012x}");
        let comment_id = 4_000_000_000 + j;
        out.push(Planned {
            at: Duration::from_secs_f64((j as f64 + 0.5) * secs as f64 / forged as f64),
            kind: Kind::Forged,
            bytes: Arc::new(request(
                &example,
                &delivery,
                comment_id,
                "/lane mint 0.93.3",
                "OWNER",
                FORGER,
            )),
            delivery,
        });
    }
    out.sort_by_key(|p| p.at);
    out
}

// ---------------------------------------------------------------- the load

/// One request's outcome: its status (0 for an error) and latency.
#[derive(Debug, Clone, Copy)]
struct Outcome {
    kind: Kind,
    status: u16,
    latency: Duration,
    /// How late the generator started it.
    lateness: Duration,
}

async fn send_one(addr: SocketAddr, bytes: &[u8]) -> std::io::Result<u16> {
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    s.set_nodelay(true)?;
    s.write_all(bytes).await?;
    let mut buf = Vec::with_capacity(512);
    let mut chunk = [0u8; 512];
    loop {
        let n = s.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        if buf.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    let line = buf.split(|&b| b == b'\n').next().unwrap_or_default();
    let status = std::str::from_utf8(line)
        .ok()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status line"))?;
    Ok(status)
}

/// Sends every planned request at its time; returns each one's outcome.
fn load(addr: SocketAddr, plan: &[Planned]) -> Vec<Outcome> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let start = tokio::time::Instant::now() + Duration::from_millis(100);
        let mut tasks = Vec::with_capacity(plan.len());
        for p in plan {
            let due = start + p.at;
            tokio::time::sleep_until(due).await;
            let (bytes, kind) = (Arc::clone(&p.bytes), p.kind);
            tasks.push(tokio::spawn(async move {
                let lateness = tokio::time::Instant::now().saturating_duration_since(due);
                let got =
                    tokio::time::timeout(Duration::from_secs(30), send_one(addr, &bytes)).await;
                let latency = tokio::time::Instant::now().duration_since(due);
                let status = match got {
                    Ok(Ok(s)) => s,
                    _ => 0,
                };
                Outcome {
                    kind,
                    status,
                    latency,
                    lateness,
                }
            }));
        }
        let mut out = Vec::with_capacity(tasks.len());
        for t in tasks {
            out.push(t.await.unwrap());
        }
        out
    })
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// p50, p90, p99 and max of `v` in ms.
fn percentiles(v: &mut [Duration]) -> [f64; 4] {
    v.sort();
    if v.is_empty() {
        return [f64::NAN; 4];
    }
    let at = |q: f64| ms(v[((v.len() as f64 * q).ceil() as usize).clamp(1, v.len()) - 1]);
    [at(0.50), at(0.90), at(0.99), ms(*v.last().unwrap())]
}

fn fmt_p(p: [f64; 4]) -> String {
    format!("{:.2} / {:.2} / **{:.2}** / {:.2}", p[0], p[1], p[2], p[3])
}

/// What one run measured.
struct Run {
    outcomes: Vec<Outcome>,
    wall: Duration,
    rss_idle: u64,
    hwm: u64,
    rss_end: u64,
    cpu_s: f64,
    drained_after: Option<Duration>,
    slow: Option<slow::Shed>,
}

impl Run {
    fn latencies(&self, f: impl Fn(Kind) -> bool) -> [f64; 4] {
        let mut v: Vec<Duration> = self
            .outcomes
            .iter()
            .filter(|o| f(o.kind))
            .map(|o| o.latency)
            .collect();
        percentiles(&mut v)
    }

    fn count(&self, f: impl Fn(&Outcome) -> bool) -> usize {
        self.outcomes.iter().filter(|o| f(o)).count()
    }
}

fn metrics_text(addr: SocketAddr) -> String {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut r = agent.get(format!("http://{addr}/metrics")).call().unwrap();
    r.body_mut().read_to_string().unwrap()
}

fn counter(text: &str, outcome: &str) -> u64 {
    let key = format!("lane_serve_deliveries_total{{outcome=\"{outcome}\"}} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&key))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or(0.0) as u64
}

fn open_state(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open_with_flags(
        dir.join("state/serve.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap()
}

fn unfinished(dir: &Path) -> i64 {
    open_state(dir)
        .query_row(
            "SELECT COUNT(*) FROM commands WHERE state IN ('queued', 'running')",
            [],
            |r| r.get(0),
        )
        .unwrap()
}

fn run(role: &str, dir: &Path, plan: &[Planned]) -> (Run, Option<String>) {
    let server = Server::start(role, dir);
    std::thread::sleep(Duration::from_millis(300));
    let (_, rss_idle) = server.memory();
    let slow_n: usize = env_num("LANE_LOAD_SLOW").unwrap_or(300);
    let slow_clients = (slow_n > 0).then(|| slow::SlowClients::start(server.addr, slow_n));
    let t = Instant::now();
    let outcomes = load(server.addr, plan);
    let wall = t.elapsed();
    let slow = slow_clients.map(slow::SlowClients::stop);
    let mut drained_after = None;
    let mut metrics = None;
    if role == "lane" {
        // The worker's backlog: every queued answer ended.
        let t = Instant::now();
        while unfinished(dir) > 0 {
            assert!(
                t.elapsed() < Duration::from_secs(120),
                "the worker did not drain"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        drained_after = Some(t.elapsed());
        metrics = Some(metrics_text(server.addr));
    }
    let (hwm, rss_end) = server.memory();
    let cpu_s = server.cpu_s();
    server.stop();
    (
        Run {
            outcomes,
            wall,
            rss_idle,
            hwm,
            rss_end,
            cpu_s,
            drained_after,
            slow,
        },
        metrics,
    )
}

/// Every check on lane's run; panics on the first that fails.
fn check_lane(dir: &Path, plan: &[Planned], lane: &Run, metrics: &str) {
    let mut by_kind: HashMap<Kind, u64> = HashMap::new();
    for p in plan {
        *by_kind.entry(p.kind).or_default() += 1;
    }
    let n = |k| by_kind.get(&k).copied().unwrap_or(0);
    for o in &lane.outcomes {
        assert_eq!(
            o.status,
            o.kind.expected(),
            "a {:?} delivery got {} (0: no answer)",
            o.kind,
            o.status
        );
    }
    let db = open_state(dir);
    let q = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).unwrap() };
    let signed = n(Kind::Ignored) + n(Kind::Refused) + n(Kind::Help);
    // Every signed delivery recorded once (the id is the primary key) ...
    assert_eq!(q("SELECT COUNT(*) FROM deliveries") as u64, signed);
    let mut ids = db.prepare("SELECT id FROM deliveries").unwrap();
    let seen: std::collections::HashSet<String> = ids
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for p in plan {
        assert_eq!(
            seen.contains(&p.delivery),
            p.kind != Kind::Forged,
            "delivery {} ({:?})",
            p.delivery,
            p.kind
        );
    }
    // ... and no forged one left a trace: no delivery, no command, no
    // comment marked ran, no lane, no run folder.
    assert_eq!(
        q("SELECT COUNT(*) FROM deliveries WHERE id LIKE 'f0e9ed00-%'"),
        0
    );
    assert_eq!(
        q("SELECT COUNT(*) FROM commands WHERE comment_id >= 4000000000 OR (kind = 'run' AND text LIKE '/lane mint%')"),
        0
    );
    assert_eq!(
        q("SELECT COUNT(*) FROM ran WHERE comment_id >= 4000000000"),
        0
    );
    assert_eq!(q("SELECT COUNT(*) FROM lanes"), 0);
    let out = dir.join("state/out");
    assert!(
        !out.exists() || std::fs::read_dir(&out).unwrap().next().is_none(),
        "a run folder exists under {}",
        out.display()
    );
    // One command per refusal and per help, each ended, started once.
    let mut kinds = db
        .prepare("SELECT kind, substr(text, 1, 300), state, starts, COUNT(*) FROM commands GROUP BY 1, 2, 3, 4")
        .unwrap();
    let summary: Vec<String> = kinds
        .query_map([], |r| {
            Ok(format!(
                "{} {:?} {} starts={} ×{}",
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let summary = summary.join("; ");
    assert_eq!(
        q("SELECT COUNT(*) FROM commands WHERE kind = 'refuse' AND state = 'done' AND starts = 1")
            as u64,
        n(Kind::Refused),
        "{summary}"
    );
    assert_eq!(
        q("SELECT COUNT(*) FROM commands WHERE kind = 'run' AND text = '/lane help' AND state = 'done' AND starts = 1") as u64,
        n(Kind::Help),
        "{summary}"
    );
    assert_eq!(
        q("SELECT COUNT(*) FROM commands") as u64,
        n(Kind::Refused) + n(Kind::Help)
    );
    // The service's own count agrees.
    assert_eq!(counter(metrics, "forged"), n(Kind::Forged), "{metrics}");
    assert_eq!(counter(metrics, "ignored"), n(Kind::Ignored));
    assert_eq!(counter(metrics, "queued"), n(Kind::Refused) + n(Kind::Help));
    for other in ["unsigned", "replayed", "too_large", "invalid"] {
        assert_eq!(counter(metrics, other), 0, "{other}");
    }
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

fn drive() {
    let secs: u64 = env_num("LANE_LOAD_SECONDS").unwrap_or(60);
    let rate: u64 = env_num("LANE_LOAD_RATE").unwrap_or(200);
    let forged: u64 = env_num("LANE_LOAD_FORGED").unwrap_or((1000 * secs).div_ceil(60));
    let plan = plan(rate, secs, forged);
    let signed = plan.iter().filter(|p| p.kind != Kind::Forged).count();
    eprintln!(
        "webhook load: {signed} signed ({rate}/s for {secs} s) + {forged} forged, against lane serve, then the peer"
    );
    let dir = tempfile::tempdir().unwrap();
    let lane_dir = dir.path().join("lane");
    let peer_dir = dir.path().join("peer");
    std::fs::create_dir_all(lane_dir.join("lanes")).unwrap();
    std::fs::create_dir_all(&peer_dir).unwrap();
    // A lane file, as a deployment has (no delivery here may mint it).
    std::fs::write(
        lane_dir.join("lanes/0.93.3.yaml"),
        "version: \"0.93.3\"\nupstream: {repo: ./up}\nbase: v0.93.2\n\
         github: {repo: Codertocat/Hello-World, post_to: [1]}\n\
         mint:\n  gpus: [L4]\n  cold_repeats: 2\n  timeout_s: 60\n  concurrency: 2\n  cells:\n\
         \x20   - name: cell00\n      recipe: dynamo\n      command: [sh, -c, 'exit 1']\n",
    )
    .unwrap();

    let (lane, metrics) = run("lane", &lane_dir, &plan);
    check_lane(&lane_dir, &plan, &lane, metrics.as_deref().unwrap());
    let (peer, _) = run("peer", &peer_dir, &plan);
    for o in &peer.outcomes {
        let want = if o.kind == Kind::Forged { 401 } else { 202 };
        assert_eq!(
            o.status, want,
            "the peer answered {:?} with {}",
            o.kind, o.status
        );
    }

    let signed_kind = |k: Kind| k != Kind::Forged;
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let mut row = |what: &str, l: String, p: String| rows.push((what.to_owned(), l, p));
    row(
        "signed deliveries answered as expected",
        format!(
            "{} / {signed}",
            lane.count(|o| signed_kind(o.kind) && o.status == o.kind.expected())
        ),
        format!(
            "{} / {signed}",
            peer.count(|o| signed_kind(o.kind) && o.status == 202)
        ),
    );
    row(
        "**signed: acknowledge latency ms, p50 / p90 / p99 / max**",
        fmt_p(lane.latencies(signed_kind)),
        fmt_p(peer.latencies(signed_kind)),
    );
    for k in [Kind::Ignored, Kind::Refused, Kind::Help] {
        row(
            &format!(
                "… {} ({})",
                k.name(),
                plan.iter().filter(|p| p.kind == k).count()
            ),
            fmt_p(lane.latencies(|x| x == k)),
            fmt_p(peer.latencies(|x| x == k)),
        );
    }
    row(
        &format!("forged: answered 401 (of {forged})"),
        lane.count(|o| o.kind == Kind::Forged && o.status == 401)
            .to_string(),
        peer.count(|o| o.kind == Kind::Forged && o.status == 401)
            .to_string(),
    );
    row(
        "forged: latency ms, p50 / p90 / p99 / max",
        fmt_p(lane.latencies(|k| k == Kind::Forged)),
        fmt_p(peer.latencies(|k| k == Kind::Forged)),
    );
    // lane's own clock (its /metrics histogram): from the request's
    // headers read to the answer, so without the connection's accept and
    // the machine's scheduling, which the latencies above include.
    let bucket = |le: &str| {
        let text = metrics.as_deref().unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("lane_serve_ack_seconds_bucket{{le=\"{le}\"}} ")))
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    row(
        "lane's own clock (`/metrics`): deliveries answered within 10 / 25 / 100 ms, of all",
        format!(
            "{} / {} / {} of {}",
            bucket("0.01"),
            bucket("0.025"),
            bucket("0.1"),
            bucket("+Inf")
        ),
        "—".into(),
    );
    row(
        "errors (no answer within 30 s, connection failed)",
        lane.count(|o| o.status == 0).to_string(),
        peer.count(|o| o.status == 0).to_string(),
    );
    let late = |r: &Run| {
        let mut v: Vec<Duration> = r.outcomes.iter().map(|o| o.lateness).collect();
        let p = percentiles(&mut v);
        format!("{:.2} / {:.2}", p[2], p[3])
    };
    row(
        "generator lateness ms, p99 / max (in the latency)",
        late(&lane),
        late(&peer),
    );
    row(
        "wall, first send to last answer",
        format!("{:.2} s", lane.wall.as_secs_f64()),
        format!("{:.2} s", peer.wall.as_secs_f64()),
    );
    row(
        "worker drained (every queued answer ended) after the last answer",
        format!("{:.0} ms", ms(lane.drained_after.unwrap())),
        "—".into(),
    );
    row(
        "**peak RSS (VmHWM)**",
        format!("**{}**", mib(lane.hwm)),
        mib(peer.hwm),
    );
    row(
        "RSS idle at start / at end",
        format!("{} / {}", mib(lane.rss_idle), mib(lane.rss_end)),
        format!("{} / {}", mib(peer.rss_idle), mib(peer.rss_end)),
    );
    row(
        "server CPU seconds (user + system)",
        format!("{:.2} s", lane.cpu_s),
        format!("{:.2} s", peer.cpu_s),
    );
    let shed = |r: &Run| {
        r.slow.map_or("—".into(), |s| {
            format!("{} shed, {} open at the end", s.shed, s.open_at_end)
        })
    };
    row(
        "slow clients (one header line a second, never done) connected throughout",
        shed(&lane),
        shed(&peer),
    );
    let p99 = lane.latencies(signed_kind)[2];
    println!();
    println!(
        "| what ({signed} signed at {rate}/s for {secs} s + {forged} forged, loopback) | `lane serve` | peer: read, verify, 202 |"
    );
    println!("| --- | --- | --- |");
    for (w, l, p) in rows {
        println!("| {w} | {l} | {p} |");
    }
    println!();
    println!(
        "checked from lane's state (serve.sqlite, read-only) and /metrics: every signed delivery \
         recorded once, every forged one refused (401) and absent (no delivery, command, comment \
         marked ran, lane or run folder); every queued answer ended, started once."
    );
    println!(
        "goal p99 < 100 ms: {} (p99 {p99:.2} ms)",
        if p99 < 100.0 { "met" } else { "NOT met" }
    );
}
