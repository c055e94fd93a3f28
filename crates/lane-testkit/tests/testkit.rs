//! The kit's servers for real: each binds a port of its own, announces it,
//! answers on it, and is gone once dropped. (Prism is exercised by
//! lane-github's and lane-cli's contract tests: it takes seconds to load.)

use std::net::TcpStream;

use lane_testkit::{Hooks, KubeEmulator, Moto, PypiServer};

fn answers(port: u16) -> bool {
    TcpStream::connect(("127.0.0.1", port)).is_ok()
}

#[test]
fn two_motos_started_at_once_each_bind_their_own_port() {
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(Moto::start);
        let b = s.spawn(Moto::start);
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_ne!(a.port(), b.port());
    for moto in [&a, &b] {
        // moto answers S3's ListBuckets without checking a signature.
        let mut r = ureq::get(moto.endpoint()).call().unwrap();
        let body = r.body_mut().read_to_string().unwrap();
        assert!(body.contains("ListAllMyBucketsResult"), "{body}");
    }
    let port = a.port();
    drop(a);
    assert!(!answers(port), "moto on :{port} survived its drop");
}

#[test]
fn pypiserver_serves_its_index_and_refuses_an_upload_without_the_password() {
    let dir = tempfile::tempdir().unwrap();
    let index = PypiServer::start(dir.path(), "__token__", "kit-password");
    let mut r = ureq::get(format!("{}simple/", index.url())).call().unwrap();
    assert!(r
        .body_mut()
        .read_to_string()
        .unwrap()
        .contains("Simple Index"));
    let refused = ureq::post(index.url()).send("").unwrap_err();
    assert!(matches!(refused, ureq::Error::StatusCode(401)), "{refused}");
    assert!(index.packages().is_dir());
}

#[test]
fn the_kube_emulator_serves_jobs_by_label_and_writes_its_kubeconfig() {
    let dir = tempfile::tempdir().unwrap();
    let emu = KubeEmulator::start(dir.path(), "ns", "app=kit", Hooks::default());
    let config = std::fs::read_to_string(emu.kubeconfig()).unwrap();
    assert!(
        config.contains(&format!("server: \"{}\"", emu.base())),
        "{config}"
    );
    for (name, app) in [("ours", "kit"), ("theirs", "other")] {
        emu.send(
            "POST",
            "/apis/batch/v1/namespaces/ns/jobs",
            serde_json::json!({"apiVersion": "batch/v1", "kind": "Job",
                "metadata": {"name": name, "labels": {"app": app}}}),
        );
    }
    let jobs = emu.jobs();
    assert_eq!(jobs.keys().collect::<Vec<_>>(), ["ours"]);
    assert!(jobs["ours"]["metadata"]["resourceVersion"].is_string());
    let log = std::fs::read_to_string(dir.path().join("requests.log")).unwrap();
    assert!(
        log.contains(" POST /apis/batch/v1/namespaces/ns/jobs"),
        "{log}"
    );
}

#[test]
fn a_pods_log_is_its_containers_text_and_a_new_pod_gets_a_new_empty_dir() {
    let dir = tempfile::tempdir().unwrap();
    let emu = KubeEmulator::start(dir.path(), "ns", "app=kit", Hooks::default());
    let kubelet = lane_testkit::Kubelet::new(&emu, dir.path());
    // A container that says what its emptyDir already held, then leaves a file.
    let job = serde_json::json!({
        "metadata": {"name": "j", "labels": {"app": "kit"}},
        "spec": {"template": {"spec": {
            "volumes": [{"name": "work", "emptyDir": {}}],
            "containers": [{"name": "mint",
                "command": ["sh", "-c", "ls \"$1\"; echo left > \"$1/result.json\"; echo to-stderr >&2", "sh", "/work"],
                "volumeMounts": [{"name": "work", "mountPath": "/work"}]}]}}}
    });
    let log_of = |pod: &str| {
        ureq::get(&format!(
            "{}/api/v1/namespaces/ns/pods/{pod}/log",
            emu.base()
        ))
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap()
    };
    assert_eq!(kubelet.run_pod("j", &job, "j-0"), 0);
    assert_eq!(log_of("j-0"), "to-stderr\n", "an empty folder, then stderr");
    // The same pod name again (a Job recreated after `lane cancel`): a new
    // pod, so its emptyDir starts empty, and the log is the new one's.
    emu.send(
        "DELETE",
        "/api/v1/namespaces/ns/pods/j-0",
        serde_json::json!({}),
    );
    assert_eq!(kubelet.run_pod("j", &job, "j-0"), 0);
    assert_eq!(log_of("j-0"), "to-stderr\n", "{}", log_of("j-0"));
    // A pod whose container never ran has no log to give.
    let err = ureq::get(&format!(
        "{}/api/v1/namespaces/ns/pods/nothing/log",
        emu.base()
    ))
    .call()
    .unwrap_err();
    assert!(err.to_string().contains("400"), "{err}");
}
