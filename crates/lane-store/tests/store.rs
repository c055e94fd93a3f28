//! The artifact store's rules (atomic, write-once, no-op re-stage, refused
//! overwrite, presigned reads, no secret shown) on a local folder and on a
//! real S3-compatible server (`moto_server`, from PyPI, started on loopback
//! by the test kit): uploads cut off half-way by a proxy (one `PUT` and a
//! multipart upload), credentials from the environment alone (in a child
//! process), calls from inside a tokio runtime, and the retry and secrecy
//! rules against small fake servers on loopback.

use lane_store::{
    lane_key, ArtifactStore, Content, FetchLocation, LocalStore, PutOutcome, S3Config,
    S3Credentials, S3Store, StoreError, StoreKey, PART_SIZE,
};
use lane_testkit::Moto;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "store/streamed.rs"]
mod streamed;
use streamed::check_streamed_reads;

const SECRET: &str = "s3cr3t-do-not-print-9f8e7d";
const TOKEN: &str = "session-token-do-not-print-1a2b";

/// A store on `endpoint` with explicit credentials (key `testing`).
fn s3_config(endpoint: &str, bucket: &str, prefix: &str) -> S3Config {
    S3Config {
        endpoint: Some(endpoint.into()),
        credentials: Some(S3Credentials {
            access_key_id: "testing".into(),
            secret_access_key: SECRET.into(),
            session_token: Some(TOKEN.into()),
        }),
        timeout: Duration::from_secs(30),
        ..S3Config::new(bucket, prefix)
    }
}

fn s3(endpoint: &str, bucket: &str, prefix: &str) -> S3Store {
    let store = S3Store::new(s3_config(endpoint, bucket, prefix)).unwrap();
    store.ensure_bucket().unwrap();
    store
}

/// An error's whole text: `Display` with every cause, and `Debug`.
fn all_text(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = format!("{e} {e:?}");
    let mut next = e.source();
    while let Some(cause) = next {
        text.push_str(&format!(" | {cause} {cause:?}"));
        next = cause.source();
    }
    text
}

fn assert_no_secret(text: &str) {
    assert!(
        !text.contains(SECRET) && !text.contains(TOKEN),
        "a secret is shown: {text}"
    );
}

/// The write-once rules every store keeps.
fn check_rules(store: &dyn ArtifactStore) {
    let key = lane_key("0.93.3", "abc123", "gen_worker-0.93.3-py3-none-any.whl").unwrap();
    assert!(!store.exists(&key).unwrap());
    assert!(matches!(store.get(&key), Err(StoreError::NotFound { .. })));
    let body: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    let first = store.put_atomic(&key, Content::Bytes(&body)).unwrap();
    assert!(
        matches!(first, PutOutcome::Written { size: 300_000, .. }),
        "{first:?}"
    );
    assert_eq!(store.get(&key).unwrap(), body);
    let again = store.put_atomic(&key, Content::Bytes(&body)).unwrap();
    assert!(
        matches!(again, PutOutcome::AlreadyThere { .. }),
        "{again:?}"
    );
    assert_eq!(again.sha256(), first.sha256());

    let err = store
        .put_atomic(&key, Content::Bytes(b"other"))
        .unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, StoreError::Conflict { .. }), "{msg}");
    assert!(
        msg.contains(first.sha256()) && msg.contains(&lane_store::sha256_hex(b"other")),
        "{msg}"
    );
    assert_eq!(
        store.get(&key).unwrap(),
        body,
        "refused put left the object as it was"
    );

    check_streamed_reads(store, &key, &body);

    let manifest = lane_key("0.93.3", "abc123", "manifest.json").unwrap();
    store.put_atomic(&manifest, Content::Bytes(b"{}")).unwrap();
    store
        .put_atomic(
            &StoreKey::new("lanes/0.93.4/x/y.json").unwrap(),
            Content::Bytes(b"1"),
        )
        .unwrap();
    assert_eq!(
        store.list("lanes/0.93.3/").unwrap(),
        [
            "lanes/0.93.3/abc123/gen_worker-0.93.3-py3-none-any.whl",
            "lanes/0.93.3/abc123/manifest.json"
        ]
    );
    assert_eq!(store.list("lanes/").unwrap().len(), 3);
    // A prefix that ends inside a segment.
    assert_eq!(store.list("lanes/0.93").unwrap().len(), 3);
    assert_eq!(
        store.list("lanes/0.93.4").unwrap(),
        ["lanes/0.93.4/x/y.json"]
    );
    assert_eq!(store.list("").unwrap().len(), 3);
    assert!(store.list("nothing/").unwrap().is_empty());

    // Removing one key leaves every other; a removed key may be written
    // again, and removing what is not there says so.
    let gone = StoreKey::new("lanes/0.93.4/x/y.json").unwrap();
    assert!(store.remove(&gone).unwrap());
    assert!(!store.remove(&gone).unwrap());
    assert!(!store.exists(&gone).unwrap());
    assert_eq!(store.list("").unwrap().len(), 2);
    store.put_atomic(&gone, Content::Bytes(b"2")).unwrap();
    assert_eq!(store.get(&gone).unwrap(), b"2");
}

#[test]
fn local_store_keeps_the_rules_and_leaves_no_partial_files() {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalStore::new(dir.path().join("store")).unwrap();
    check_rules(&store);
    let key = lane_key("0.93.3", "abc123", "manifest.json").unwrap();
    match store.fetch_location(&key, Duration::from_secs(60)).unwrap() {
        FetchLocation::Path(p) => assert_eq!(std::fs::read(p).unwrap(), b"{}"),
        other => panic!("{other:?}"),
    }
    let leftovers: Vec<_> = walk(store.root())
        .into_iter()
        .filter(|p| p.contains(".lane-tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let file = dir.path().join("w.bin");
    std::fs::write(&file, b"from a file").unwrap();
    let k = StoreKey::new("lanes/f/c/w.bin").unwrap();
    store.put_atomic(&k, Content::File(&file)).unwrap();
    assert_eq!(store.get(&k).unwrap(), b"from a file");
    // A file is compared as it streams, like bytes.
    assert!(matches!(
        store.put_atomic(&k, Content::File(&file)).unwrap(),
        PutOutcome::AlreadyThere { size: 11, .. }
    ));
    std::fs::write(&file, b"other bytes").unwrap();
    let e = store.put_atomic(&k, Content::File(&file)).unwrap_err();
    assert!(matches!(e, StoreError::Conflict { .. }), "{e}");
    assert_eq!(store.get(&k).unwrap(), b"from a file");
    let opened = lane_store::open(&format!("file://{}", store.root().display())).unwrap();
    assert_eq!(opened.get(&k).unwrap(), b"from a file");
}

#[test]
fn regression_a_killed_writers_temporary_files_stayed_for_good() {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalStore::new(dir.path().join("store")).unwrap();
    let runs = store.root().join("history/0.93/runs");
    std::fs::create_dir_all(&runs).unwrap();
    // What `kill -9` during a put leaves: a temporary file nobody renames.
    let dead = runs.join(".lane-tmp-dead");
    std::fs::write(&dead, b"half a run").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&dead)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - Duration::from_secs(2 * 3600))
        .unwrap();
    // A live writer's, still being written.
    let live = runs.join(".lane-tmp-live");
    std::fs::write(&live, b"in flight").unwrap();
    let k = StoreKey::new("history/0.93/runs/r1.jsonl").unwrap();
    store.put_atomic(&k, Content::Bytes(b"{}\n")).unwrap();
    assert!(!dead.exists(), "the dead writer's file is swept");
    assert!(live.exists(), "a live writer's file is kept");
}

fn walk(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p.display().to_string());
        }
    }
    out
}

#[test]
fn s3_store_keeps_the_rules_against_a_real_s3_server() {
    let moto = Moto::start();
    let store = s3(&moto.endpoint(), "lane-artifacts", "ci/run-1");
    check_rules(&store);
    assert_eq!(store.location(), "s3://lane-artifacts/ci/run-1");
    store.ensure_bucket().expect("an existing bucket is fine");

    // A pod fetches with the presigned URL alone: no credentials.
    let key = lane_key("0.93.3", "abc123", "manifest.json").unwrap();
    let FetchLocation::Url(url) = store
        .fetch_location(&key, Duration::from_secs(600))
        .unwrap()
    else {
        panic!("S3 hands out URLs")
    };
    assert!(
        url.contains("X-Amz-Expires=600")
            && url.contains("X-Amz-Signature=")
            && url.contains("/lane-artifacts/ci/run-1/lanes/0.93.3/abc123/manifest.json?"),
        "{url}"
    );
    assert!(!url.contains(SECRET));
    let mut resp = ureq::get(&url).call().unwrap();
    assert_eq!(resp.body_mut().read_to_vec().unwrap(), b"{}");
    assert_eq!(
        lane_store::fetch(
            &FetchLocation::Url(url.clone()),
            Some(&lane_store::sha256_hex(b"{}")),
            100,
            Duration::from_secs(10)
        )
        .unwrap(),
        b"{}"
    );
    // (moto does not check signatures; object_store's SigV4 is tested
    // against AWS by its own project.)

    // The object keeps its sha256 as user metadata (read through the
    // presigned URL: its answer carries the object's headers).
    let head = ureq::get(&url).call().unwrap();
    assert_eq!(
        head.headers()
            .get("x-amz-meta-sha256")
            .and_then(|v| v.to_str().ok()),
        Some(lane_store::sha256_hex(b"{}").as_str())
    );

    // The secret shows nowhere: not in Debug, not in errors.
    let shown = format!("{store:?}");
    assert!(shown.contains("testing"), "{shown}");
    assert_no_secret(&shown);
    let err = store
        .put_atomic(&key, Content::Bytes(b"different"))
        .unwrap_err();
    assert_no_secret(&all_text(&err));
}

#[test]
fn an_object_written_without_its_sha256_is_compared_by_its_bytes() {
    let moto = Moto::start();
    let store = s3(&moto.endpoint(), "lane-artifacts", "");
    // Written by something else: a plain PUT (moto does not check the
    // signature), no `x-amz-meta-sha256`.
    let url = format!("{}/lane-artifacts/lanes/x/y/plain.bin", moto.endpoint());
    ureq::put(&url).send(&b"plain bytes"[..]).unwrap();
    let key = StoreKey::new("lanes/x/y/plain.bin").unwrap();
    assert!(matches!(
        store
            .put_atomic(&key, Content::Bytes(b"plain bytes"))
            .unwrap(),
        PutOutcome::AlreadyThere { .. }
    ));
    let err = store
        .put_atomic(&key, Content::Bytes(b"other bytes"))
        .unwrap_err();
    match err {
        StoreError::Conflict { existing, .. } => {
            assert_eq!(existing, lane_store::sha256_hex(b"plain bytes"))
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_large_file_goes_up_in_parts_and_keeps_the_rules() {
    let moto = Moto::start();
    let store = s3(&moto.endpoint(), "lane-artifacts", "big");
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("big.whl");
    let body: Vec<u8> = (0..PART_SIZE + 3 * 1024 * 1024 + 17)
        .map(|i| (i % 253) as u8)
        .collect();
    std::fs::write(&file, &body).unwrap();
    let key = lane_key("0.93.3", "abc123", "big.whl").unwrap();
    let first = store.put_atomic(&key, Content::File(&file)).unwrap();
    assert!(
        matches!(&first, PutOutcome::Written { size, .. } if *size == body.len() as u64),
        "{first:?}"
    );
    assert_eq!(first.sha256(), lane_store::sha256_hex(&body));
    assert_eq!(store.get(&key).unwrap(), body);
    check_streamed_reads(&store, &key, &body);
    // The same file again: found by its kept sha256, nothing uploaded.
    assert!(matches!(
        store.put_atomic(&key, Content::File(&file)).unwrap(),
        PutOutcome::AlreadyThere { .. }
    ));
    // Other large content under the key: refused, the object unchanged.
    let mut other = body.clone();
    other[PART_SIZE + 5] ^= 1;
    let err = store.put_atomic(&key, Content::Bytes(&other)).unwrap_err();
    assert!(matches!(err, StoreError::Conflict { .. }), "{err}");
    assert_eq!(store.get(&key).unwrap(), body);
    assert_eq!(
        store.list("lanes/").unwrap(),
        ["lanes/0.93.3/abc123/big.whl"]
    );
    assert!(pending_uploads(&moto, "lane-artifacts").is_empty());
}

#[test]
fn s3_config_takes_the_environment_chain_and_hides_secrets() {
    let cfg = S3Config {
        credentials: Some(S3Credentials {
            access_key_id: "AKID".into(),
            secret_access_key: SECRET.into(),
            session_token: Some(TOKEN.into()),
        }),
        ..S3Config::new("b", "/p/")
    };
    assert_eq!(cfg.prefix, "p");
    assert_eq!(cfg.region, "us-east-1");
    let shown = format!("{cfg:?}");
    assert!(shown.contains("AKID"), "{shown}");
    assert_no_secret(&shown);
    let store = S3Store::new(cfg).unwrap();
    assert_eq!(store.location(), "s3://b/p");
    assert_no_secret(&format!("{store:?}"));
    assert!(lane_store::open("ftp://x").is_err());
    for bad in ["s3://", "s3://a b/c", "s3://x%y"] {
        assert!(
            matches!(lane_store::open(bad), Err(StoreError::BadLocation { .. })),
            "{bad}"
        );
    }
    // Credentials in the location: refused, and not repeated.
    let e = lane_store::open(&format!("s3://AKID:{SECRET}@bucket/p")).unwrap_err();
    assert!(matches!(e, StoreError::BadLocation { .. }), "{e}");
    assert_no_secret(&all_text(&e));
}

/// What the child process of the environment tests does (`mode`), with
/// only the environment its parent gave it.
fn as_child(mode: &str) {
    let location = std::env::var("LANE_STORE_TEST_LOCATION").unwrap();
    let key = StoreKey::new("lanes/env/c/put-by-a-child.txt").unwrap();
    match mode {
        "keys" => {
            let store = lane_store::open(&location).unwrap();
            let out = store
                .put_atomic(&key, Content::Bytes(b"put by a child"))
                .unwrap();
            assert!(matches!(out, PutOutcome::Written { .. }), "{out:?}");
            assert_eq!(store.list("lanes/env/").unwrap(), [key.as_str()]);
            assert_no_secret(&format!("{store:?}"));
            let FetchLocation::Url(url) =
                store.fetch_location(&key, Duration::from_secs(60)).unwrap()
            else {
                panic!("a URL")
            };
            // Temporary credentials travel in the URL, as S3 requires.
            assert!(url.contains("X-Amz-Security-Token="), "{url}");
        }
        "no-credentials" => {
            // No keys, no web identity, no container credentials: the chain
            // ends at the instance metadata service (here a closed port).
            let store = lane_store::open(&location).unwrap();
            let e = store
                .put_atomic(&key, Content::Bytes(b"never"))
                .unwrap_err();
            assert!(matches!(e, StoreError::Transport { .. }), "{e:?}");
            assert!(e.to_string().contains("put-by-a-child.txt"), "{e}");
        }
        "half-a-key-pair" => {
            let e = lane_store::open(&location).unwrap_err();
            assert!(
                matches!(
                    e,
                    StoreError::MissingSetting {
                        missing: "AWS_SECRET_ACCESS_KEY"
                    }
                ),
                "{e:?}"
            );
        }
        other => panic!("unknown mode {other}"),
    }
}

/// Runs this test binary's `credentials_come_from_the_environment_alone`
/// in `mode`, with `env` and no other AWS or lane S3 variable.
fn child(mode: &str, location: &str, env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "credentials_come_from_the_environment_alone",
        "--exact",
        "--nocapture",
        "--test-threads=1",
    ]);
    for (k, _) in std::env::vars() {
        if k.starts_with("AWS_") || k.starts_with("LANE_S3") {
            cmd.env_remove(k);
        }
    }
    cmd.env("LANE_STORE_TEST_CHILD", mode)
        .env("LANE_STORE_TEST_LOCATION", location)
        // Never the real instance metadata service, whatever the mode.
        .env("AWS_METADATA_ENDPOINT", "http://127.0.0.1:1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

#[test]
fn credentials_come_from_the_environment_alone() {
    if let Ok(mode) = std::env::var("LANE_STORE_TEST_CHILD") {
        return as_child(&mode);
    }
    let moto = Moto::start();
    let endpoint = moto.endpoint();
    let direct = s3(&endpoint, "from-env", "p");
    let run = |mode: &str, env: &[(&str, &str)]| {
        let o = child(mode, "s3://from-env/p", env);
        let text =
            String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{mode}: {text}");
        assert!(
            text.contains("1 passed"),
            "{mode}: the child ran no test: {text}"
        );
        assert_no_secret(&text);
    };
    run(
        "keys",
        &[
            ("AWS_ACCESS_KEY_ID", "testing"),
            ("AWS_SECRET_ACCESS_KEY", SECRET),
            ("AWS_SESSION_TOKEN", TOKEN),
            ("AWS_ENDPOINT_URL", &endpoint),
        ],
    );
    let key = StoreKey::new("lanes/env/c/put-by-a-child.txt").unwrap();
    assert_eq!(direct.get(&key).unwrap(), b"put by a child");
    run("no-credentials", &[("AWS_ENDPOINT_URL", &endpoint)]);
    run(
        "half-a-key-pair",
        &[
            ("AWS_ACCESS_KEY_ID", "testing"),
            ("AWS_ENDPOINT_URL", &endpoint),
        ],
    );
}

#[tokio::test]
async fn the_store_is_called_from_inside_a_tokio_runtime() {
    let moto = Moto::start();
    // Made, used and dropped inside the runtime: no "runtime within a
    // runtime", no blocking drop.
    let store = s3(&moto.endpoint(), "in-async", "");
    let key = StoreKey::new("lanes/a/b/c.json").unwrap();
    store.put_atomic(&key, Content::Bytes(b"{}")).unwrap();
    assert_eq!(store.get(&key).unwrap(), b"{}");
    assert!(store.exists(&key).unwrap());
    assert_eq!(store.list("lanes/").unwrap(), [key.as_str()]);
    assert!(matches!(
        store.fetch_location(&key, Duration::from_secs(60)).unwrap(),
        FetchLocation::Url(_)
    ));
    // From a task, too.
    let store = Arc::new(store);
    let s = Arc::clone(&store);
    let k = key.clone();
    let got = tokio::spawn(async move { s.get(&k).unwrap() })
        .await
        .unwrap();
    assert_eq!(got, b"{}");
    drop(store);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_store_is_called_from_a_multi_threaded_runtime() {
    let moto = Moto::start();
    let store = s3(&moto.endpoint(), "in-async-mt", "");
    let key = StoreKey::new("lanes/a/b/c.json").unwrap();
    store.put_atomic(&key, Content::Bytes(b"{}")).unwrap();
    assert_eq!(store.get(&key).unwrap(), b"{}");
}

/// The multipart uploads moto still holds open in `bucket` (moto does not
/// check signatures: a plain `GET ?uploads`).
fn pending_uploads(moto: &Moto, bucket: &str) -> Vec<String> {
    let xml = ureq::get(format!("{}/{bucket}?uploads", moto.endpoint()))
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    xml.split("<UploadId>")
        .skip(1)
        .filter_map(|s| s.split("</UploadId>").next())
        .map(str::to_owned)
        .collect()
}

/// A TCP proxy to `target` that forwards `budget` bytes of uploads in all,
/// then at most `after` bytes of each connection's upload, cutting both
/// directions of a connection where it stops: a network that breaks in the
/// middle of an upload and stays too poor for a large one.
fn cutting_proxy(target: u16, budget: usize, after: usize) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let left = Arc::new(AtomicUsize::new(budget));
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(mut client) = client else { return };
            let Ok(mut server) = TcpStream::connect(("127.0.0.1", target)) else {
                return;
            };
            let (mut c2, mut s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut s2, &mut c2);
            });
            let left = Arc::clone(&left);
            std::thread::spawn(move || {
                let mut sent = 0;
                let mut buf = [0u8; 8192];
                loop {
                    let n = match client.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    // From the shared budget while it lasts, else from
                    // this connection's own allowance.
                    let from_budget = left
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |l| Some(l - l.min(n)))
                        .unwrap();
                    let allowed = if from_budget > 0 {
                        from_budget.min(n)
                    } else {
                        n.min(after.saturating_sub(sent))
                    };
                    if server.write_all(&buf[..allowed]).is_err() {
                        break;
                    }
                    sent += allowed;
                    if allowed < n {
                        break;
                    }
                }
                let _ = server.shutdown(Shutdown::Both);
                let _ = client.shutdown(Shutdown::Both);
            });
        }
    });
    port
}

#[test]
fn an_upload_cut_off_half_way_leaves_no_object_and_says_so() {
    let moto = Moto::start();
    let direct = s3(&moto.endpoint(), "lane-artifacts", "");
    let proxy = cutting_proxy(moto.port(), 256 * 1024, 64 * 1024);
    let through_proxy = S3Store::new(s3_config(
        &format!("http://127.0.0.1:{proxy}"),
        "lane-artifacts",
        "",
    ))
    .unwrap();
    let key = lane_key("0.93.3", "abc123", "big.whl").unwrap();
    let body = vec![7u8; 4 << 20];
    let err = through_proxy
        .put_atomic(&key, Content::Bytes(&body))
        .unwrap_err();
    let msg = format!("{err}");
    assert!(
        matches!(
            err,
            StoreError::Transport {
                operation: "PUT",
                ..
            }
        ),
        "{msg}: {err:?}"
    );
    assert!(msg.contains("big.whl"), "{msg}");
    assert!(err.is_transient(), "{err:?}");
    assert_no_secret(&all_text(&err));
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !direct.exists(&key).unwrap(),
        "a partial object became visible"
    );
    assert!(direct.list("lanes/").unwrap().is_empty());
    // The same upload, whole, then works and is the only object.
    assert!(matches!(
        direct.put_atomic(&key, Content::Bytes(&body)).unwrap(),
        PutOutcome::Written { .. }
    ));
    assert_eq!(direct.get(&key).unwrap().len(), body.len());
}

#[test]
fn a_multipart_upload_cut_off_half_way_leaves_nothing_and_a_retry_succeeds() {
    let moto = Moto::start();
    let direct = s3(&moto.endpoint(), "lane-artifacts", "");
    // The first part (8 MiB) gets through, the second is cut mid-way; its
    // retries, too; the small abort gets through.
    let proxy = cutting_proxy(moto.port(), PART_SIZE + (1 << 20), 64 * 1024);
    let through_proxy = S3Store::new(s3_config(
        &format!("http://127.0.0.1:{proxy}"),
        "lane-artifacts",
        "",
    ))
    .unwrap();
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("big.whl");
    let body: Vec<u8> = (0..PART_SIZE + (4 << 20))
        .map(|i| (i % 241) as u8)
        .collect();
    std::fs::write(&file, &body).unwrap();
    let key = lane_key("0.93.3", "abc123", "big.whl").unwrap();
    let started = Instant::now();
    let err = through_proxy
        .put_atomic(&key, Content::File(&file))
        .unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "retries are bounded"
    );
    assert!(
        matches!(
            err,
            StoreError::Transport {
                operation: "PUT",
                ..
            }
        ),
        "{err}: {err:?}"
    );
    assert!(err.is_transient(), "{err:?}");
    assert_no_secret(&all_text(&err));
    assert!(!direct.exists(&key).unwrap(), "a partial object is visible");
    assert!(direct.list("").unwrap().is_empty());
    assert!(
        pending_uploads(&moto, "lane-artifacts").is_empty(),
        "the cut upload was not aborted"
    );

    // A network that dies for good mid-upload (as a killed process would
    // leave it): the abort cannot get through either. The incomplete
    // upload stays on the server, and still nothing is visible.
    let proxy = cutting_proxy(moto.port(), PART_SIZE + (1 << 20), 0);
    let dying = S3Store::new(S3Config {
        max_retries: 1,
        ..s3_config(&format!("http://127.0.0.1:{proxy}"), "lane-artifacts", "")
    })
    .unwrap();
    assert!(dying.put_atomic(&key, Content::File(&file)).is_err());
    assert_eq!(pending_uploads(&moto, "lane-artifacts").len(), 1);
    assert!(!direct.exists(&key).unwrap(), "a partial object is visible");

    // A retry afterwards succeeds, whole.
    let out = direct.put_atomic(&key, Content::File(&file)).unwrap();
    assert!(matches!(out, PutOutcome::Written { .. }), "{out:?}");
    assert_eq!(direct.get(&key).unwrap(), body);
}

/// What [`hooked_proxy`] calls with each chunk.
type Hook = Arc<dyn Fn(&[u8]) + Send + Sync>;

/// A TCP proxy to `target` that shows `hook` each chunk a client sends
/// before forwarding it. (A request's first chunk starts with its request
/// line: the client sends the next request only after the last answer.)
fn hooked_proxy(target: u16, hook: Hook) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(mut client) = client else { return };
            let Ok(mut server) = TcpStream::connect(("127.0.0.1", target)) else {
                return;
            };
            let (mut c2, mut s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut s2, &mut c2);
            });
            let hook = Arc::clone(&hook);
            std::thread::spawn(move || {
                let mut buf = [0u8; 65536];
                loop {
                    let n = match client.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    hook(&buf[..n]);
                    if server.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                let _ = server.shutdown(Shutdown::Both);
            });
        }
    });
    port
}

#[test]
fn a_multipart_upload_that_loses_a_race_is_refused_not_overwriting() {
    let moto = Moto::start();
    let direct = s3(&moto.endpoint(), "lane-artifacts", "");
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("big.whl");
    let body: Vec<u8> = (0..PART_SIZE + 1024).map(|i| (i % 239) as u8).collect();
    std::fs::write(&file, &body).unwrap();
    let key = lane_key("0.93.3", "abc123", "raced.whl").unwrap();
    let object = format!("{}/lane-artifacts/{key}", moto.endpoint());
    // Another writer gets there first, just as the upload completes (a
    // plain PUT straight to moto, which does not check signatures).
    let heads: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
    let seen = Arc::clone(&heads);
    let hook = Arc::new(move |chunk: &[u8]| {
        let text = String::from_utf8_lossy(&chunk[..chunk.len().min(4096)]).into_owned();
        let Some(line) = text.lines().next() else {
            return;
        };
        if !["POST ", "PUT ", "GET ", "HEAD ", "DELETE "]
            .iter()
            .any(|m| line.starts_with(m))
        {
            return;
        }
        let head = text
            .split("\r\n\r\n")
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if line.starts_with("POST ") && line.contains("uploadId=") {
            ureq::put(&object).send(&b"the other writer's"[..]).unwrap();
        }
        seen.lock().unwrap().push(head);
    });
    let proxy = hooked_proxy(moto.port(), hook);
    let through = S3Store::new(s3_config(
        &format!("http://127.0.0.1:{proxy}"),
        "lane-artifacts",
        "",
    ))
    .unwrap();
    let err = through.put_atomic(&key, Content::File(&file)).unwrap_err();
    match &err {
        StoreError::Conflict { existing, new, .. } => {
            assert_eq!(existing, &lane_store::sha256_hex(b"the other writer's"));
            assert_eq!(new, &lane_store::sha256_hex(&body));
        }
        other => panic!("{other}: {other:?}"),
    }
    assert_eq!(direct.get(&key).unwrap(), b"the other writer's");
    assert!(
        pending_uploads(&moto, "lane-artifacts").is_empty(),
        "not aborted"
    );
    // Only the completing request is conditional.
    let heads = heads.lock().unwrap();
    let complete: Vec<_> = heads
        .iter()
        .filter(|h| h.starts_with("post ") && h.contains("uploadid="))
        .collect();
    assert!(!complete.is_empty(), "{heads:?}");
    assert!(
        complete.iter().all(|h| h.contains("\r\nif-none-match: *")),
        "{complete:?}"
    );
    let others: Vec<_> = heads
        .iter()
        .filter(|h| !(h.starts_with("post ") && h.contains("uploadid=")))
        .collect();
    assert!(
        others
            .iter()
            .any(|h| h.starts_with("put ") && h.contains("partnumber=")),
        "{heads:?}"
    );
    assert!(
        others.iter().all(|h| !h.contains("if-none-match")),
        "{others:?}"
    );
}

/// A fake S3 on loopback answering every request with `status` and an
/// error body that, like AWS's `SignatureDoesNotMatch`, echoes the signed
/// request's headers back; counts the requests.
fn fake_s3(status: u16) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&count);
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { return };
            seen.fetch_add(1, Ordering::SeqCst);
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && conn.read(&mut byte).unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            let head = String::from_utf8_lossy(&head).into_owned();
            let echoed: String = head
                .lines()
                .filter(|l| {
                    let l = l.to_ascii_lowercase();
                    l.starts_with("x-amz-") || l.starts_with("authorization")
                })
                .map(|l| format!("{l}\n"))
                .collect();
            let body = format!(
                "<?xml version=\"1.0\"?><Error><Code>SignatureDoesNotMatch</Code>\
                 <Message>no</Message><CanonicalRequest>GET\n/\n{echoed}</CanonicalRequest>\
                 <StringToSign>{echoed}</StringToSign></Error>"
            );
            let _ = write!(
                conn,
                "HTTP/1.1 {status} Nope\r\nContent-Type: application/xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = conn.shutdown(Shutdown::Both);
        }
    });
    (url, count)
}

#[test]
fn a_refusal_echoing_the_request_shows_no_secret_and_is_not_retried() {
    let (url, count) = fake_s3(403);
    let store = S3Store::new(s3_config(&url, "b", "p")).unwrap();
    let key = StoreKey::new("lanes/x/y/z").unwrap();
    let e = store.get(&key).unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::Transport {
                operation: "GET",
                ..
            }
        ),
        "{e:?}"
    );
    assert!(!e.is_transient(), "{e:?}");
    let text = all_text(&e);
    assert!(text.contains("SignatureDoesNotMatch"), "{text}");
    assert_no_secret(&text);
    assert_eq!(count.load(Ordering::SeqCst), 1);
    let e = store.put_atomic(&key, Content::Bytes(b"x")).unwrap_err();
    assert_no_secret(&all_text(&e));
    let e = store.ensure_bucket().unwrap_err();
    assert!(matches!(e, StoreError::Status { status: 403, .. }), "{e:?}");
    assert_no_secret(&all_text(&e));
}

#[test]
fn a_server_error_is_retried_a_bounded_number_of_times_and_is_transient() {
    let (url, count) = fake_s3(503);
    let store = S3Store::new(S3Config {
        max_retries: 2,
        ..s3_config(&url, "b", "")
    })
    .unwrap();
    let started = Instant::now();
    let e = store
        .get(&StoreKey::new("lanes/x/y/z").unwrap())
        .unwrap_err();
    assert!(e.is_transient(), "{e:?}");
    assert_eq!(count.load(Ordering::SeqCst), 3, "one try and two retries");
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_no_secret(&all_text(&e));
}

#[test]
fn an_unreachable_endpoint_is_transient_and_names_the_key() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let store = S3Store::new(S3Config {
        max_retries: 1,
        ..s3_config(&format!("http://127.0.0.1:{port}"), "b", "")
    })
    .unwrap();
    let e = store
        .exists(&StoreKey::new("lanes/x/y/gone.whl").unwrap())
        .unwrap_err();
    assert!(e.is_transient(), "{e:?}");
    assert!(e.to_string().contains("gone.whl"), "{e}");
    assert_no_secret(&all_text(&e));
}
