//! lane-serve in process, on loopback: the HTTP service's refusals and its
//! state across a restart. The whole service through the `lane` binary,
//! with Prism and real mints, is `crates/lane-cli/tests/cli/serve.rs`.

use std::time::Duration;

use lane_core::Secret;
use lane_serve::{BackendKind, ServeConfig};

const SECRET: &str = "in-process secret";

fn config(state: &std::path::Path) -> ServeConfig {
    ServeConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        state: state.to_owned(),
        lanes: state.join("lanes"),
        backend: BackendKind::Local,
        kube_config: None,
        policy: lane_webhook::Policy::default(),
        max_body_bytes: 64 * 1024,
        workers: 1,
        secret: Secret::new(SECRET),
        agent: vec!["false".into()],
        progress_every: Duration::from_secs(1),
    }
}

fn post(addr: std::net::SocketAddr, id: &str, body: &[u8], sig: Option<&str>) -> u16 {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut req = agent
        .post(format!("http://{addr}/webhook"))
        .header("X-GitHub-Event", "ping")
        .header("X-GitHub-Delivery", id);
    if let Some(s) = sig {
        req = req.header("X-Hub-Signature-256", s);
    }
    req.send(body).unwrap().status().as_u16()
}

const PING: &[u8] = br#"{"zen":"Keep it logically awesome.","hook_id":1}"#;

#[test]
fn signature_first_then_replays_refused_across_a_restart() {
    let d = tempfile::tempdir().unwrap();
    let running = lane_serve::start(config(d.path())).unwrap();
    let addr = running.addr();
    let sig = lane_webhook::sign(SECRET.as_bytes(), PING);
    assert_eq!(post(addr, "p1", PING, None), 401, "unsigned");
    assert_eq!(
        post(addr, "p1", PING, Some(&lane_webhook::sign(b"other", PING))),
        401,
        "forged"
    );
    assert_eq!(
        post(addr, "p1", PING, Some(&sig)),
        200,
        "a ping: nothing to do"
    );
    assert_eq!(post(addr, "p1", PING, Some(&sig)), 409, "replayed");
    let big = vec![b' '; 65 * 1024];
    assert_eq!(
        post(
            addr,
            "p2",
            &big,
            Some(&lane_webhook::sign(SECRET.as_bytes(), &big))
        ),
        413
    );
    assert!(running.store().commands().unwrap().is_empty());
    running.shutdown();
    let running = lane_serve::start(config(d.path())).unwrap();
    assert_eq!(
        post(running.addr(), "p1", PING, Some(&sig)),
        409,
        "replayed after a restart"
    );
}

#[test]
fn an_empty_secret_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let mut c = config(d.path());
    c.secret = Secret::new("");
    assert!(matches!(
        lane_serve::start(c),
        Err(lane_serve::ServeError::EmptySecret)
    ));
}

/// Regression (issue 19, item 6): a one-character webhook secret was
/// accepted; one shorter than 16 bytes is refused, naming its length only.
#[test]
fn regression_a_one_character_secret_is_refused() {
    let d = tempfile::tempdir().unwrap();
    for short in ["Q", "fifteen-bytes!!"] {
        let mut c = config(d.path());
        c.secret = Secret::new(short);
        let e = lane_serve::start(c).map(|_| ()).unwrap_err();
        assert!(
            matches!(e, lane_serve::ServeError::ShortSecret { len, min: 16 } if len == short.len()),
            "{e}"
        );
        assert!(!e.to_string().contains(short), "{e}");
    }
}
