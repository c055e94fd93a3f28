//! A stateful fake of the few GitHub endpoints lane uses: comments held in
//! memory, response bodies taken from the examples of GitHub's official
//! OpenAPI description (`@octokit/openapi`) with ids and bodies put in,
//! scripted failures, and a log of every request.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

pub const DESCRIPTION: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../.tools/node/node_modules/@octokit/openapi/generated/api.github.com.json"
);

/// An example from the description's `components/examples`.
pub fn example(name: &str) -> Value {
    static SPEC: OnceLock<Value> = OnceLock::new();
    let spec = SPEC.get_or_init(|| {
        let bytes = std::fs::read(DESCRIPTION).unwrap_or_else(|e| {
            panic!(
                "{DESCRIPTION}: {e}: GitHub's OpenAPI description is missing; run `./just tools`"
            )
        });
        serde_json::from_slice(&bytes).expect("the description is JSON")
    });
    spec["components"]["examples"][name]["value"].clone()
}

#[derive(Debug, Clone)]
pub struct Logged {
    pub method: String,
    pub path: String,
    pub body: Option<Value>,
    pub auth: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Comment {
    pub id: u64,
    pub body: String,
    pub login: String,
}

/// A scripted answer for the next request matching `method` and a path
/// prefix; `apply` still performs the request (an applied-but-failed POST).
pub struct Failure {
    pub method: &'static str,
    pub path_prefix: String,
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub apply: bool,
}

#[derive(Default)]
pub struct State {
    pub comments: Vec<Comment>,
    pub next_id: u64,
    pub log: Vec<Logged>,
    pub failures: VecDeque<Failure>,
    pub post_delay: Duration,
    pub login: String,
    pub check_runs: Vec<(u64, Value)>,
    pub installation_token: Option<String>,
}

#[derive(Clone)]
pub struct Fake {
    pub url: String,
    pub state: Arc<Mutex<State>>,
}

impl Fake {
    pub async fn start(login: &str) -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(Mutex::new(State {
            next_id: 1000,
            login: login.to_owned(),
            ..State::default()
        }));
        let s = state.clone();
        tokio::spawn(async move {
            loop {
                let Ok((sock, _)) = listener.accept().await else {
                    return;
                };
                let s = s.clone();
                tokio::spawn(async move {
                    let _ = serve(sock, s).await;
                });
            }
        });
        Fake { url, state }
    }

    pub fn st(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap()
    }

    pub fn count(&self, method: &str, prefix: &str) -> usize {
        self.st()
            .log
            .iter()
            .filter(|l| l.method == method && l.path.starts_with(prefix))
            .count()
    }
}

async fn serve(sock: tokio::net::TcpStream, state: Arc<Mutex<State>>) -> std::io::Result<()> {
    let (r, mut w) = sock.into_split();
    let mut r = BufReader::new(r);
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or("").to_owned();
        let path = parts.next().unwrap_or("").to_owned();
        let (mut len, mut auth) = (0usize, None);
        loop {
            let mut h = String::new();
            r.read_line(&mut h).await?;
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            let (k, v) = h.split_once(':').unwrap_or((h, ""));
            match k.to_ascii_lowercase().as_str() {
                "content-length" => len = v.trim().parse().unwrap_or(0),
                "authorization" => auth = Some(v.trim().to_owned()),
                _ => {}
            }
        }
        let mut body = vec![0; len];
        r.read_exact(&mut body).await?;
        let body: Option<Value> = serde_json::from_slice(&body).ok();
        let delay = if method == "POST" {
            state.lock().unwrap().post_delay
        } else {
            Duration::ZERO
        };
        let (status, headers, out) = answer(&state, &method, &path, body, auth);
        tokio::time::sleep(delay).await;
        let text = out.map(|v| v.to_string()).unwrap_or_default();
        let mut resp = format!(
            "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
            text.len()
        );
        for (k, v) in headers {
            resp.push_str(&format!("{k}: {v}\r\n"));
        }
        resp.push_str("\r\n");
        resp.push_str(&text);
        w.write_all(resp.as_bytes()).await?;
    }
}

fn comment_json(c: &Comment) -> Value {
    let mut v = example("issue-comment");
    v["id"] = json!(c.id);
    v["body"] = json!(c.body);
    v["user"]["login"] = json!(c.login);
    v
}

type Answer = (u16, Vec<(&'static str, String)>, Option<Value>);

fn answer(
    state: &Mutex<State>,
    method: &str,
    path: &str,
    body: Option<Value>,
    auth: Option<String>,
) -> Answer {
    let mut st = state.lock().unwrap();
    st.log.push(Logged {
        method: method.into(),
        path: path.into(),
        body: body.clone(),
        auth,
    });
    let scripted = st
        .failures
        .iter()
        .position(|f| f.method == method && path.starts_with(&f.path_prefix));
    let mut fail = scripted.map(|i| st.failures.remove(i).unwrap());
    if let Some(f) = &fail {
        if !f.apply {
            let f = fail.take().unwrap();
            return (
                f.status,
                f.headers,
                Some(json!({"message": "scripted failure"})),
            );
        }
    }
    let route: Vec<&str> = path
        .split('?')
        .next()
        .unwrap()
        .trim_start_matches('/')
        .split('/')
        .collect();
    let ok = match (method, route.as_slice()) {
        ("GET", ["user"]) => {
            let mut v = example("private-user");
            v["login"] = json!(st.login);
            (200, vec![], Some(v))
        }
        ("GET", ["app"]) => (200, vec![], Some(example("integration"))),
        ("GET", ["repos", _, _, "installation"]) => (200, vec![], Some(example("installation"))),
        ("POST", ["app", "installations", _, "access_tokens"]) => {
            let mut v = example("installation-token");
            v["token"] = json!("ghs_FakeInstallationToken0123456789");
            v["expires_at"] = json!("2999-01-01T00:00:00Z");
            st.installation_token = Some("ghs_FakeInstallationToken0123456789".into());
            (201, vec![], Some(v))
        }
        ("GET", ["repos", _, _, "issues", _, "comments"]) => {
            let page: usize = path
                .split("page=")
                .nth(2)
                .or_else(|| path.split("&page=").nth(1))
                .and_then(|p| p.split('&').next()?.parse().ok())
                .unwrap_or(1);
            let items: Vec<Value> = st
                .comments
                .iter()
                .skip((page - 1) * 100)
                .take(100)
                .map(comment_json)
                .collect();
            (200, vec![], Some(Value::Array(items)))
        }
        ("POST", ["repos", _, _, "issues", _, "comments"]) => {
            st.next_id += 1;
            let c = Comment {
                id: st.next_id,
                body: body
                    .as_ref()
                    .and_then(|b| b["body"].as_str())
                    .unwrap_or("")
                    .to_owned(),
                login: st.login.clone(),
            };
            st.comments.push(c.clone());
            (201, vec![], Some(comment_json(&c)))
        }
        ("PATCH", ["repos", _, _, "issues", "comments", id]) => {
            let id: u64 = id.parse().unwrap();
            let new = body
                .as_ref()
                .and_then(|b| b["body"].as_str())
                .unwrap_or("")
                .to_owned();
            match st.comments.iter_mut().find(|c| c.id == id) {
                Some(c) => {
                    c.body = new;
                    let v = comment_json(c);
                    (200, vec![], Some(v))
                }
                None => (404, vec![], Some(json!({"message": "Not Found"}))),
            }
        }
        ("DELETE", ["repos", _, _, "issues", "comments", id]) => {
            let id: u64 = id.parse().unwrap();
            let before = st.comments.len();
            st.comments.retain(|c| c.id != id);
            if st.comments.len() < before {
                (204, vec![], None)
            } else {
                (404, vec![], Some(json!({"message": "Not Found"})))
            }
        }
        ("GET", ["repos", _, _, "commits", _, "check-runs"]) => {
            let runs: Vec<Value> = st.check_runs.iter().map(|(_, v)| v.clone()).collect();
            (
                200,
                vec![],
                Some(json!({"total_count": runs.len(), "check_runs": runs})),
            )
        }
        ("POST", ["repos", _, _, "check-runs"]) => {
            st.next_id += 1;
            let mut v = example("check-run");
            v["id"] = json!(st.next_id);
            v["name"] = body.as_ref().map(|b| b["name"].clone()).unwrap_or_default();
            let id = st.next_id;
            st.check_runs.push((id, v.clone()));
            (201, vec![], Some(v))
        }
        ("PATCH", ["repos", _, _, "check-runs", id]) => {
            let id: u64 = id.parse().unwrap();
            let v = st
                .check_runs
                .iter()
                .find(|(i, _)| *i == id)
                .map(|(_, v)| v.clone());
            match v {
                Some(v) => (200, vec![], Some(v)),
                None => (404, vec![], Some(json!({"message": "Not Found"}))),
            }
        }
        _ => (404, vec![], Some(json!({"message": "Not Found"}))),
    };
    match fail {
        Some(f) => (
            f.status,
            f.headers,
            Some(json!({"message": "scripted failure after applying"})),
        ),
        None => ok,
    }
}
