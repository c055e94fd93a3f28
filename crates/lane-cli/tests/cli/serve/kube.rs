//! `lane serve --backend kube` end to end: a signed `/lane mint` delivery
//! makes one run of Kubernetes Jobs on kmock's emulated API server
//! (`lane_testkit::KubeEmulator`), whose pods the kubelet stand-in runs for
//! real (`lane agent`, the lane's `sh` cells), the result bundles going to
//! moto's S3; the answers go to Prism serving GitHub's OpenAPI description.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use lane_testkit::{Hooks, JobEnd, KubeEmulator, Kubelet};

use super::{commands, comment, metric, sign, wait_for, Serve, SECRET, TOKEN};

const NS: &str = "mints";
const S3_SECRET: &str = "serve-kube-s3-secret-never-printed-5e1";

/// Two cells on L4, two cold repeats (four mints, four Jobs), each sleeping
/// `sleep_s`; posting to the example's PR #1 (the check run on its lane
/// branch's head: Prism cannot answer `GET /pulls/1`, GitHub's own example
/// of it failing its schema); the kube config's store on
/// moto's S3 at `endpoint`.
fn write_lane(dir: &Path, endpoint: &str, sleep_s: f64) {
    super::upstream(&dir.join("lanes"));
    let script = serde_json::to_string(&format!(
        r#"sleep {sleep_s}; echo "kernel of $LANE_MINT_ID" > "$LANE_ARTIFACTS_DIR/kernel.txt"; printf '{{"status":"minted","recipe":"dynamo","phases":{{"load":0.1}}}}' > "$LANE_REPORT_PATH""#
    ))
    .unwrap();
    let mut text = "version: \"0.93.3\"\nupstream: {repo: ./up}\nbase: v0.93.2\ngithub: {repo: Codertocat/Hello-World, post_to: [1]}\nmint:\n  gpus: [L4]\n  cold_repeats: 2\n  timeout_s: 60\n  cells:\n".to_owned();
    for cell in ["cell00", "cell01"] {
        text.push_str(&format!(
            "    - name: {cell}\n      recipe: dynamo\n      command: [sh, -c, {script}]\n"
        ));
    }
    std::fs::write(dir.join("lanes/0.93.3.yaml"), text).unwrap();
    std::fs::write(
        dir.join("kube.yaml"),
        format!("laneImage: lane:test\nmintImage: mint:test\nnamespace: {NS}\nstore: s3://lanes/ci\nstoreSecret: lane-store\nstoreEnv: {{LANE_S3_ENDPOINT: \"{endpoint}\"}}\n"),
    )
    .unwrap();
}

fn kubelet<'a>(emu: &'a KubeEmulator, dir: &Path) -> Kubelet<'a> {
    Kubelet::new(emu, dir)
        .installed("/lane/bin/lane", env!("CARGO_BIN_EXE_lane"))
        .image_env("LANE_UV", lane_testkit::tools::uv())
        .secret(
            "lane-store",
            &[
                ("AWS_ACCESS_KEY_ID", "testing"),
                ("AWS_SECRET_ACCESS_KEY", S3_SECRET),
            ],
        )
}

fn serve_kube(dir: &Path, prism: &lane_testkit::Prism, endpoint: &str) -> Serve {
    let kubeconfig = dir.join("kubeconfig");
    Serve::start_with(
        dir,
        &[
            "--backend",
            "kube",
            "--kube-config",
            "kube.yaml",
            "--namespace",
            NS,
        ],
        &[
            ("GITHUB_TOKEN", TOKEN),
            ("GITHUB_API_URL", &prism.url()),
            ("KUBECONFIG", kubeconfig.to_str().unwrap()),
            ("AWS_ACCESS_KEY_ID", "testing"),
            ("AWS_SECRET_ACCESS_KEY", S3_SECRET),
            ("LANE_S3_ENDPOINT", endpoint),
            (
                "LANE_LOG",
                "lane_serve=debug,lane_app=info,lane_github=info,lane_kube=info",
            ),
        ],
    )
}

/// Waits until `f` holds of the lane's Jobs.
fn wait_jobs(
    serve: &Serve,
    emu: &KubeEmulator,
    what: &str,
    f: impl Fn(&BTreeMap<String, serde_json::Value>) -> bool,
) -> BTreeMap<String, serde_json::Value> {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let jobs = emu.jobs();
        if f(&jobs) {
            return jobs;
        }
        assert!(
            Instant::now() < until,
            "timed out waiting for {what}: {jobs:#?}\nlane serve said:\n{}",
            serve.output()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn mint_ids(jobs: &BTreeMap<String, serde_json::Value>) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for j in jobs.values() {
        let id = j["metadata"]["annotations"]["lane.dev/mint-id"]
            .as_str()
            .expect("every Job carries its mint id")
            .to_owned();
        *m.entry(id).or_default() += 1;
    }
    m
}

#[test]
fn a_signed_mint_on_the_kube_backend_makes_one_run_of_jobs_and_concludes_its_check_run() {
    let d = tempfile::tempdir().unwrap();
    let (_moto, endpoint, s3) = crate::wheel::moto("ci", S3_SECRET);
    write_lane(d.path(), &endpoint, 0.1);
    let emu = KubeEmulator::start(d.path(), NS, "lane.dev/lane=0.93.3", Hooks::default());
    let kubelet = kubelet(&emu, d.path());
    let prism = lane_testkit::Prism::start();
    let serve = serve_kube(d.path(), &prism, &endpoint);
    let body = comment("created", 9101, "/lane mint 0.93.3", "MEMBER");
    let (code, text) = serve.deliver(
        "issue_comment",
        "d-kube-1",
        &body,
        Some(&sign(SECRET, &body)),
    );
    assert_eq!(code, 202, "{text}");
    let jobs = wait_jobs(&serve, &emu, "four Jobs", |j| j.len() == 4);
    for (name, job) in &jobs {
        assert_eq!(
            job["metadata"]["labels"]["lane.dev/run"], "serve-1",
            "{job}"
        );
        assert_eq!(kubelet.run_job(name, job), JobEnd::Complete, "{name}");
    }
    wait_for(
        &serve,
        "the lane's report",
        Duration::from_secs(120),
        || serve.output().contains("report posted"),
    );
    wait_for(&serve, "the command's end", Duration::from_secs(30), || {
        commands(d.path()).iter().all(|(_, s, _, _)| s != "running")
    });
    // Exactly one set of Jobs: one per mint of the matrix, one per mint id.
    let ids = mint_ids(&emu.jobs());
    assert_eq!(ids.len(), 4, "{ids:?}");
    assert!(ids.values().all(|n| *n == 1), "a duplicate Job: {ids:?}");
    let c = commands(d.path());
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(
        (c[0].0.as_str(), c[0].1.as_str(), c[0].2),
        ("/lane mint 0.93.3", "done", 1),
        "{c:?}"
    );
    let results = d.path().join("state/out/lanes/0.93.3/results");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(results.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["green"], true, "{summary}");
    // The bundles are in S3, under the command's run.
    use lane_store::ArtifactStore;
    let keys = s3.list("lanes/0.93.3/runs/serve-1/mints/").unwrap();
    assert_eq!(
        keys.iter().filter(|k| k.ends_with("/bundle.zip")).count(),
        4,
        "{keys:?}"
    );
    let log = serve.output();
    // The sticky comment filled in (progress, then the report) and the
    // check run concluded, every request valid for GitHub's description
    // (Prism answers an invalid one 4xx, and lane logs what it could not post).
    assert!(log.contains("minting, 0 of 4 mints in"), "{log}");
    assert!(log.contains("comment posted"), "{log}");
    assert!(log.contains("check_run=Some"), "{log}");
    for bad in ["not posted", "reaction not added", "GitHub answered 4"] {
        assert!(!log.contains(bad), "{bad}: {log}");
    }
    assert_eq!(
        metric(
            &serve,
            "lane_serve_commands_total{command=\"mint\",outcome=\"done\"}"
        ),
        1.0
    );
    assert!(!log.contains(S3_SECRET) && !log.contains(TOKEN) && !log.contains(SECRET));
}

#[test]
fn lane_cancel_on_the_kube_backend_deletes_the_lanes_jobs_and_the_mint_ends_cancelled() {
    // Regression: the cancelled lane ended `Minted` (its deleted Jobs as
    // failed slots) and the command was recorded "not green"; then its
    // report was posted as a failure.
    let d = tempfile::tempdir().unwrap();
    let (_moto, endpoint, _s3) = crate::wheel::moto("ci", S3_SECRET);
    write_lane(d.path(), &endpoint, 0.1);
    let emu = KubeEmulator::start(d.path(), NS, "lane.dev/lane=0.93.3", Hooks::default());
    let kubelet = kubelet(&emu, d.path());
    let prism = lane_testkit::Prism::start();
    let serve = serve_kube(d.path(), &prism, &endpoint);
    let body = comment("created", 9111, "/lane mint 0.93.3", "MEMBER");
    let (code, _) = serve.deliver("issue_comment", "d-kc-1", &body, Some(&sign(SECRET, &body)));
    assert_eq!(code, 202);
    let jobs = wait_jobs(&serve, &emu, "four Jobs", |j| j.len() == 4);
    // Two mints are running (their pods exist) when the cancel comes.
    for (name, job) in jobs.iter().take(2) {
        kubelet.start_job(name);
        kubelet.create_pod(
            name,
            job,
            &format!("{name}-p0"),
            serde_json::json!({"phase": "Running"}),
        );
    }
    let body = comment("created", 9112, "/lane cancel", "MEMBER");
    let (code, _) = serve.deliver("issue_comment", "d-kc-2", &body, Some(&sign(SECRET, &body)));
    assert_eq!(code, 202);
    wait_for(
        &serve,
        "both commands' ends",
        Duration::from_secs(120),
        || {
            let c = commands(d.path());
            c.len() == 2 && c.iter().all(|(_, s, _, _)| s == "done" || s == "failed")
        },
    );
    assert!(emu.jobs().is_empty() && emu.pods().is_empty());
    let c = commands(d.path());
    assert_eq!(
        (c[1].0.as_str(), c[1].1.as_str()),
        ("/lane cancel", "done"),
        "{c:?}"
    );
    assert_eq!(
        (c[0].1.as_str(), c[0].3.as_str()),
        ("failed", "cancelled"),
        "{c:?}"
    );
    let log = serve.output();
    assert!(
        log.contains("Deleted 4 Jobs and 2 pods in mints"),
        "the answer names what was deleted: {log}"
    );
    // The report lane posted says cancelled: summary.json records it, and
    // the check run concluded `cancelled`, not `failure`.
    assert!(!log.contains("report posted"), "{log}");
    assert!(
        log.contains("conclusion=cancelled") && log.contains("check run concluded"),
        "{log}"
    );
    assert!(!log.contains("conclusion=failure"), "{log}");
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(d.path().join("state/out/lanes/0.93.3/results/summary.json"))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        (&summary["cancelled"], &summary["green"]),
        (&serde_json::json!(true), &serde_json::json!(false)),
        "{summary}"
    );
}
