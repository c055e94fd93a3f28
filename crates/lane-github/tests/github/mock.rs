//! The few GitHub endpoints lane uses, on a `wiremock` server (it binds
//! its own loopback port, parses HTTP and records every request): comments
//! and check runs held in memory, so an upsert really updates in place;
//! response bodies from the examples of GitHub's official OpenAPI
//! description (`@octokit/openapi`) with ids and bodies put in; scripted
//! failures as one-shot mocks that take precedence over the routes.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use serde_json::{json, Value};
use wiremock::matchers::{method, path_regex};
use wiremock::{Match, Mock, MockGuard, MockServer, Request, ResponseTemplate};

/// An example from the description's `components/examples`.
pub fn example(name: &str) -> Value {
    static SPEC: OnceLock<Value> = OnceLock::new();
    let spec = SPEC.get_or_init(|| {
        let path = lane_testkit::tools::github_openapi();
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_slice(&bytes).expect("the description is JSON")
    });
    spec["components"]["examples"][name]["value"].clone()
}

/// A request as the server received it.
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
    /// How long every POST's answer waits (after it is applied).
    pub post_delay: Duration,
    pub login: String,
    pub check_runs: Vec<(u64, Value)>,
    pub installation_token: Option<String>,
    /// Open pull requests: (number, head, base).
    pub pulls: Vec<(u64, String, String)>,
}

type Handler = fn(&mut State, &Request) -> ResponseTemplate;

/// The endpoints: method, path pattern, what they do to the state.
const ROUTES: &[(&str, &str, Handler)] = &[
    ("GET", r"^/user$", get_user),
    ("GET", r"^/app$", |_, _| ok(200, example("integration"))),
    ("GET", r"^/repos/[^/]+/[^/]+/installation$", |_, _| {
        ok(200, example("installation"))
    }),
    (
        "POST",
        r"^/app/installations/[^/]+/access_tokens$",
        create_token,
    ),
    (
        "GET",
        r"^/repos/[^/]+/[^/]+/issues/[^/]+/comments$",
        list_comments,
    ),
    (
        "POST",
        r"^/repos/[^/]+/[^/]+/issues/[^/]+/comments$",
        create_comment,
    ),
    (
        "PATCH",
        r"^/repos/[^/]+/[^/]+/issues/comments/\d+$",
        update_comment,
    ),
    (
        "DELETE",
        r"^/repos/[^/]+/[^/]+/issues/comments/\d+$",
        delete_comment,
    ),
    (
        "GET",
        r"^/repos/[^/]+/[^/]+/commits/[^/]+/check-runs$",
        list_check_runs,
    ),
    ("POST", r"^/repos/[^/]+/[^/]+/check-runs$", create_check_run),
    ("GET", r"^/repos/[^/]+/[^/]+/pulls$", list_pulls),
    ("POST", r"^/repos/[^/]+/[^/]+/pulls$", create_pull),
    (
        "PATCH",
        r"^/repos/[^/]+/[^/]+/check-runs/\d+$",
        update_check_run,
    ),
];

pub struct GithubMock {
    server: MockServer,
    state: Arc<Mutex<State>>,
    failures: Mutex<Vec<MockGuard>>,
}

impl GithubMock {
    /// A server whose authenticated user is `login`.
    pub async fn start(login: &str) -> GithubMock {
        let server = MockServer::start().await;
        let state = Arc::new(Mutex::new(State {
            next_id: 1000,
            login: login.to_owned(),
            ..State::default()
        }));
        for &(verb, pattern, handler) in ROUTES {
            let state = state.clone();
            Mock::given(method(verb))
                .and(path_regex(pattern))
                .respond_with(move |req: &Request| {
                    let mut st = state.lock().unwrap();
                    let answer = handler(&mut st, req);
                    delayed(&st, req, answer)
                })
                .mount(&server)
                .await;
        }
        Mock::given(wiremock::matchers::any())
            .respond_with(not_found())
            .with_priority(u8::MAX)
            .mount(&server)
            .await;
        GithubMock {
            server,
            state,
            failures: Mutex::new(Vec::new()),
        }
    }

    /// The API base.
    pub fn url(&self) -> String {
        self.server.uri()
    }

    pub fn st(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap()
    }

    /// Scripts `f` for the next matching request (after those scripted
    /// before it).
    pub async fn fail(&self, f: Failure) {
        let state = self.state.clone();
        let answer = move |req: &Request| {
            let mut st = state.lock().unwrap();
            let body = if f.apply {
                let applied = route(req).map(|handler| handler(&mut st, req));
                assert!(applied.is_some(), "no route applies {}", req.url);
                "scripted failure after applying"
            } else {
                "scripted failure"
            };
            let mut t = ResponseTemplate::new(f.status).set_body_json(json!({ "message": body }));
            for (k, v) in &f.headers {
                t = t.insert_header(*k, v.as_str());
            }
            delayed(&st, req, t)
        };
        let guard = Mock::given(method(f.method))
            .and(PathPrefix(f.path_prefix.clone()))
            .respond_with(answer)
            .up_to_n_times(1)
            .with_priority(1)
            .named(format!("{} {} -> {}", f.method, f.path_prefix, f.status))
            .mount_as_scoped(&self.server)
            .await;
        self.failures.lock().unwrap().push(guard);
    }

    /// Drops every scripted failure not yet used.
    pub fn clear_failures(&self) {
        self.failures.lock().unwrap().clear();
    }

    /// Every request received so far, in order.
    pub async fn log(&self) -> Vec<Logged> {
        let requests = self.server.received_requests().await;
        let requests = requests.expect("request recording is on");
        requests
            .iter()
            .map(|r| Logged {
                method: r.method.to_string(),
                path: r.url.path().to_owned(),
                body: serde_json::from_slice(&r.body).ok(),
                auth: r
                    .headers
                    .get("authorization")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned),
            })
            .collect()
    }

    /// How many `method` requests had a path starting with `prefix`.
    pub async fn count(&self, method: &str, prefix: &str) -> usize {
        let log = self.log().await;
        log.iter()
            .filter(|l| l.method == method && l.path.starts_with(prefix))
            .count()
    }
}

/// Matches a request whose path starts with the prefix.
struct PathPrefix(String);

impl Match for PathPrefix {
    fn matches(&self, request: &Request) -> bool {
        request.url.path().starts_with(&self.0)
    }
}

/// The route that answers `req`, as the mounted mocks would pick it.
fn route(req: &Request) -> Option<Handler> {
    ROUTES.iter().find_map(|&(verb, pattern, handler)| {
        let re = regex::Regex::new(pattern).unwrap();
        (req.method.as_str() == verb && re.is_match(req.url.path())).then_some(handler)
    })
}

fn delayed(st: &State, req: &Request, t: ResponseTemplate) -> ResponseTemplate {
    if req.method.as_str() == "POST" {
        t.set_delay(st.post_delay)
    } else {
        t
    }
}

fn ok(status: u16, body: Value) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_json(body)
}

fn not_found() -> ResponseTemplate {
    ok(404, json!({"message": "Not Found"}))
}

/// The request's JSON body's string field `key` ("" when absent).
fn field(req: &Request, key: &str) -> String {
    let body: Option<Value> = serde_json::from_slice(&req.body).ok();
    let value = body.as_ref().and_then(|b| b[key].as_str());
    value.unwrap_or_default().to_owned()
}

/// The numeric id that ends the path.
fn id_in(req: &Request) -> u64 {
    let last = req.url.path().rsplit('/').next().unwrap();
    last.parse().unwrap()
}

fn comment_json(c: &Comment) -> Value {
    let mut v = example("issue-comment");
    v["id"] = json!(c.id);
    v["body"] = json!(c.body);
    v["user"]["login"] = json!(c.login);
    v
}

fn get_user(st: &mut State, _: &Request) -> ResponseTemplate {
    let mut v = example("private-user");
    v["login"] = json!(st.login);
    ok(200, v)
}

fn create_token(st: &mut State, _: &Request) -> ResponseTemplate {
    let mut v = example("installation-token");
    v["token"] = json!("ghs_FakeInstallationToken0123456789");
    v["expires_at"] = json!("2999-01-01T00:00:00Z");
    st.installation_token = Some("ghs_FakeInstallationToken0123456789".into());
    ok(201, v)
}

fn list_comments(st: &mut State, req: &Request) -> ResponseTemplate {
    let page: usize = req
        .url
        .query_pairs()
        .find(|(k, _)| k == "page")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(1);
    let items: Vec<Value> = st
        .comments
        .iter()
        .skip((page - 1) * 100)
        .take(100)
        .map(comment_json)
        .collect();
    ok(200, Value::Array(items))
}

fn create_comment(st: &mut State, req: &Request) -> ResponseTemplate {
    st.next_id += 1;
    let c = Comment {
        id: st.next_id,
        body: field(req, "body"),
        login: st.login.clone(),
    };
    st.comments.push(c.clone());
    ok(201, comment_json(&c))
}

fn update_comment(st: &mut State, req: &Request) -> ResponseTemplate {
    let id = id_in(req);
    match st.comments.iter_mut().find(|c| c.id == id) {
        Some(c) => {
            c.body = field(req, "body");
            ok(200, comment_json(c))
        }
        None => not_found(),
    }
}

fn delete_comment(st: &mut State, req: &Request) -> ResponseTemplate {
    let id = id_in(req);
    let before = st.comments.len();
    st.comments.retain(|c| c.id != id);
    if st.comments.len() < before {
        ResponseTemplate::new(204)
    } else {
        not_found()
    }
}

fn list_check_runs(st: &mut State, _: &Request) -> ResponseTemplate {
    let runs: Vec<Value> = st.check_runs.iter().map(|(_, v)| v.clone()).collect();
    ok(200, json!({"total_count": runs.len(), "check_runs": runs}))
}

fn create_check_run(st: &mut State, req: &Request) -> ResponseTemplate {
    st.next_id += 1;
    let mut v = example("check-run");
    v["id"] = json!(st.next_id);
    v["name"] = json!(field(req, "name"));
    let id = st.next_id;
    st.check_runs.push((id, v.clone()));
    ok(201, v)
}

fn update_check_run(st: &mut State, req: &Request) -> ResponseTemplate {
    let id = id_in(req);
    match st.check_runs.iter().find(|(i, _)| *i == id) {
        Some((_, v)) => ok(200, v.clone()),
        None => not_found(),
    }
}

fn pull_json(number: u64, head: &str, base: &str) -> Value {
    let mut v = example("pull-request");
    v["number"] = json!(number);
    v["html_url"] = json!(format!("https://github.com/octo/repo/pull/{number}"));
    v["head"]["ref"] = json!(head);
    v["base"]["ref"] = json!(base);
    v
}

fn list_pulls(st: &mut State, req: &Request) -> ResponseTemplate {
    let q: std::collections::HashMap<String, String> = req.url.query_pairs().into_owned().collect();
    let head = q
        .get("head")
        .map(|h| h.split_once(':').map_or(h.as_str(), |x| x.1).to_owned());
    let base = q.get("base").cloned();
    let found: Vec<Value> = st
        .pulls
        .iter()
        .filter(|(_, h, b)| {
            head.as_ref().is_none_or(|x| x == h) && base.as_ref().is_none_or(|x| x == b)
        })
        .map(|(n, h, b)| pull_json(*n, h, b))
        .collect();
    ok(200, Value::Array(found))
}

fn create_pull(st: &mut State, req: &Request) -> ResponseTemplate {
    st.next_id += 1;
    let (head, base) = (field(req, "head"), field(req, "base"));
    st.pulls.push((st.next_id, head.clone(), base.clone()));
    ok(201, pull_json(st.next_id, &head, &base))
}
