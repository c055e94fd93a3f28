//! The artifact store's rules (atomic, write-once, no-op re-stage, refused
//! overwrite, presigned reads, no secret shown) on a local folder and on a
//! real S3-compatible server (`moto_server`, from PyPI, started on loopback
//! by the test kit), including an upload cut off half-way by a proxy.

use lane_store::{
    lane_key, ArtifactStore, Content, FetchLocation, LocalStore, PutOutcome, S3Config,
    S3Credentials, S3Store, StoreError, StoreKey,
};
use lane_testkit::Moto;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::time::Duration;

const SECRET: &str = "s3cr3t-do-not-print-9f8e7d";
const TOKEN: &str = "session-token-do-not-print-1a2b";

fn s3(endpoint: &str, bucket: &str, prefix: &str) -> S3Store {
    let store = S3Store::new(S3Config {
        bucket: bucket.into(),
        prefix: prefix.into(),
        region: "us-east-1".into(),
        endpoint: Some(endpoint.into()),
        credentials: S3Credentials {
            access_key_id: "testing".into(),
            secret_access_key: SECRET.into(),
            session_token: Some(TOKEN.into()),
        },
        timeout: Duration::from_secs(30),
    })
    .unwrap();
    store.ensure_bucket().unwrap();
    store
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
    let opened = lane_store::open(&format!("file://{}", store.root().display())).unwrap();
    assert_eq!(opened.get(&k).unwrap(), b"from a file");
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

    // A pod fetches with the presigned URL alone: no credentials.
    let key = lane_key("0.93.3", "abc123", "manifest.json").unwrap();
    let FetchLocation::Url(url) = store
        .fetch_location(&key, Duration::from_secs(600))
        .unwrap()
    else {
        panic!("S3 hands out URLs")
    };
    assert!(
        url.contains("X-Amz-Expires=600") && url.contains("X-Amz-Signature="),
        "{url}"
    );
    assert!(!url.contains(SECRET));
    let mut resp = ureq::get(&url).call().unwrap();
    assert_eq!(resp.body_mut().read_to_vec().unwrap(), b"{}");
    // (moto does not check signatures; the signer is checked against AWS's
    // published examples in the unit tests of `sigv4`.)

    // The secret shows nowhere: not in Debug, not in errors.
    let shown = format!("{store:?}");
    assert!(
        shown.contains("testing") && !shown.contains(SECRET) && !shown.contains(TOKEN),
        "{shown}"
    );
    let err = store
        .put_atomic(&key, Content::Bytes(b"different"))
        .unwrap_err();
    let text = format!("{err} {err:?}");
    assert!(!text.contains(SECRET) && !text.contains(TOKEN), "{text}");
}

#[test]
fn s3_config_from_env_needs_credentials_and_hides_them() {
    let cfg = S3Config {
        bucket: "b".into(),
        prefix: String::new(),
        region: "us-east-1".into(),
        endpoint: None,
        credentials: S3Credentials {
            access_key_id: "AKID".into(),
            secret_access_key: SECRET.into(),
            session_token: None,
        },
        timeout: Duration::from_secs(5),
    };
    let shown = format!("{cfg:?}");
    assert!(shown.contains("AKID") && !shown.contains(SECRET), "{shown}");
    let store = S3Store::new(cfg).unwrap();
    assert_eq!(store.location(), "s3://b");
    assert!(lane_store::open("ftp://x").is_err());
}

/// A TCP proxy to `target` that forwards at most `limit` bytes of each
/// client connection's upload, then cuts both directions.
fn cutting_proxy(target: u16, limit: usize) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(mut client) = client else { return };
            let mut server = TcpStream::connect(("127.0.0.1", target)).unwrap();
            let (mut c2, mut s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut s2, &mut c2);
            });
            std::thread::spawn(move || {
                let mut sent = 0;
                let mut buf = [0u8; 8192];
                loop {
                    let n = match client.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    let n = n.min(limit - sent);
                    if server.write_all(&buf[..n]).is_err() {
                        break;
                    }
                    sent += n;
                    if sent >= limit {
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
    let proxy = cutting_proxy(moto.port(), 256 * 1024);
    let through_proxy = s3(&format!("http://127.0.0.1:{proxy}"), "lane-artifacts", "");
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
            } | StoreError::Status { .. }
        ),
        "{msg}: {err:?}"
    );
    assert!(msg.contains("big.whl"), "{msg}");
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
