//! `lane mint --backend kube` end to end against a third-party emulated API
//! server on loopback: kmock's `KubernetesEmulator` (PyPI, installed by
//! `./just tools`) behind the thin wrapper `kube/emulator.py` (stamps
//! `resourceVersion`/`uid`, honours label selectors, answers `NotFound` /
//! `AlreadyExists` with the real reasons). The test plays the kubelet and the
//! Job controller: it creates each Job's pod, moves it through Pending and
//! Running, and finishes the Job (Complete, or Failed).

use super::{stderr, stdout, ROOT};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const NS: &str = "mints";
const LANE: &str = "0.93.3";

/// The emulator, killed on drop.
struct Emulator {
    child: Child,
    base: String,
}

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn python() -> PathBuf {
    Path::new(ROOT).join(".tools/venv/bin/python")
}

impl Emulator {
    /// Starts the emulator on a free loopback port; fails (never skips) when
    /// kmock is not installed.
    fn start(dir: &Path, create_delay_s: f64) -> Emulator {
        let ok = Command::new(python())
            .args(["-c", "import kmock"])
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(
            ok,
            "kmock (the Kubernetes API emulator) is missing from .tools/venv: run ./just tools"
        );
        let port_file = dir.join("kmock.port");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/kube/emulator.py");
        let child = Command::new(python())
            .arg(script)
            .arg(&port_file)
            .env("KMOCK_CREATE_DELAY_S", create_delay_s.to_string())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("kmock.log")).unwrap())
            .spawn()
            .expect("the emulator starts");
        let mut emu = Emulator {
            child,
            base: String::new(),
        };
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(p) = std::fs::read_to_string(&port_file) {
                emu.base = format!("http://127.0.0.1:{}", p.trim());
                break;
            }
            if let Ok(Some(st)) = emu.child.try_wait() {
                panic!(
                    "the emulator exited ({st}): {}",
                    std::fs::read_to_string(dir.join("kmock.log")).unwrap_or_default()
                );
            }
            assert!(Instant::now() < until, "the emulator did not start in 30 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        std::fs::write(
            dir.join("kubeconfig"),
            format!(
                "apiVersion: v1\nkind: Config\nclusters:\n- name: kmock\n  cluster: {{server: \"{}\"}}\nusers:\n- name: t\n  user: {{token: dummy}}\ncontexts:\n- name: kmock\n  context: {{cluster: kmock, user: t, namespace: {NS}}}\ncurrent-context: kmock\n",
                emu.base
            ),
        )
        .unwrap();
        emu
    }

    fn get(&self, path: &str) -> serde_json::Value {
        let mut r = ureq::get(format!("{}{path}", self.base))
            .call()
            .unwrap_or_else(|e| panic!("GET {path}: {e}"));
        serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap()
    }

    fn send(&self, method: &str, path: &str, body: serde_json::Value) {
        let url = format!("{}{path}", self.base);
        let body = body.to_string();
        let r = match method {
            "POST" => ureq::post(&url)
                .header("Content-Type", "application/json")
                .send(&body),
            _ => ureq::patch(&url)
                .header("Content-Type", "application/merge-patch+json")
                .send(&body),
        };
        r.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    }

    /// The lane's Jobs: name -> Job.
    fn jobs(&self) -> BTreeMap<String, serde_json::Value> {
        let v = self.get(&format!(
            "/apis/batch/v1/namespaces/{NS}/jobs?labelSelector=lane.dev%2Flane%3D{LANE}"
        ));
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| {
                (
                    j["metadata"]["name"].as_str().unwrap().to_owned(),
                    j.clone(),
                )
            })
            .collect()
    }

    /// Plays the kubelet for Job `name`: its pod `{name}-pod`, Pending then
    /// Running.
    fn run_pod(&self, name: &str, job: &serde_json::Value) {
        self.run_pod_named(name, job, &format!("{name}-pod"));
    }

    fn run_pod_named(&self, name: &str, job: &serde_json::Value, pod: &str) {
        let mut labels = job["metadata"]["labels"].clone();
        labels["batch.kubernetes.io/job-name"] = name.into();
        self.send(
            "POST",
            &format!("/api/v1/namespaces/{NS}/pods"),
            serde_json::json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": pod, "labels": labels,
                             "annotations": job["metadata"]["annotations"]},
                "status": {"phase": "Pending"},
            }),
        );
        self.send(
            "PATCH",
            &format!("/api/v1/namespaces/{NS}/pods/{pod}/status"),
            serde_json::json!({"status": {"phase": "Running"}}),
        );
        self.send(
            "PATCH",
            &format!("/apis/batch/v1/namespaces/{NS}/jobs/{name}/status"),
            serde_json::json!({"status": {"active": 1}}),
        );
    }

    /// A node drain evicts Job `name`'s pod (`DisruptionTarget`, which the
    /// pod failure policy ignores): the Job controller starts a replacement
    /// pod `{name}-pod2`, and the Job goes on.
    fn evict(&self, name: &str, job: &serde_json::Value) {
        self.send(
            "PATCH",
            &format!("/api/v1/namespaces/{NS}/pods/{name}-pod/status"),
            serde_json::json!({"status": {"phase": "Failed", "reason": "Evicted", "conditions": [
                {"type": "DisruptionTarget", "status": "True", "reason": "EvictionByEvictionAPI",
                 "message": "Eviction API: evicting"}]}}),
        );
        self.run_pod_named(name, job, &format!("{name}-pod2"));
    }

    /// Plays the Job controller: the pod ends and the Job completes.
    fn complete(&self, name: &str) {
        self.complete_pod(name, &format!("{name}-pod"));
    }

    fn complete_pod(&self, name: &str, pod: &str) {
        self.send(
            "PATCH",
            &format!("/api/v1/namespaces/{NS}/pods/{pod}/status"),
            serde_json::json!({"status": {"phase": "Succeeded"}}),
        );
        self.send(
            "PATCH",
            &format!("/apis/batch/v1/namespaces/{NS}/jobs/{name}/status"),
            serde_json::json!({"status": {"active": 0, "succeeded": 1, "conditions": [
                {"type": "SuccessCriteriaMet", "status": "True", "reason": "CompletionsReached"},
                {"type": "Complete", "status": "True", "reason": "CompletionsReached"},
            ]}}),
        );
    }

    /// The Job fails: its pod was OOMKilled and the pod failure policy
    /// failed the Job.
    fn fail(&self, name: &str) {
        self.send(
            "PATCH",
            &format!("/api/v1/namespaces/{NS}/pods/{name}-pod/status"),
            serde_json::json!({"status": {"phase": "Failed", "containerStatuses": [
                {"name": "mint", "ready": false, "restartCount": 0, "image": "mint:test", "imageID": "",
                 "state": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}}}]}}),
        );
        self.send(
            "PATCH",
            &format!("/apis/batch/v1/namespaces/{NS}/jobs/{name}/status"),
            serde_json::json!({"status": {"active": 0, "failed": 1, "conditions": [
                {"type": "FailureTarget", "status": "True", "reason": "PodFailurePolicy",
                 "message": "Container mint for pod mints/x failed with exit code 137"},
                {"type": "Failed", "status": "True", "reason": "PodFailurePolicy",
                 "message": "Container mint for pod mints/x failed with exit code 137"},
            ]}}),
        );
    }
}

/// Two cells on L4, two cold repeats: four mints, four Jobs.
fn write_lane(dir: &Path) {
    std::fs::create_dir_all(dir.join("lanes")).unwrap();
    std::fs::write(
        dir.join(format!("lanes/{LANE}.yaml")),
        format!("version: \"{LANE}\"\nupstream: {{repo: ./up}}\nbase: v0.93.2\nmint:\n  gpus: [L4]\n  cold_repeats: 2\n  timeout_s: 30\n  cells:\n    - name: cell00\n      recipe: dynamo\n      command: [mint]\n    - name: cell01\n      recipe: dynamo\n      command: [mint]\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("kube.yaml"),
        format!("laneImage: lane:test\nmintImage: mint:test\nnamespace: {NS}\n"),
    )
    .unwrap();
}

/// `lane mint` on the kube backend, as a child (stdout and stderr to files).
fn spawn_lane(dir: &Path, tag: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_lane"))
        .args([
            "mint",
            LANE,
            "--backend",
            "kube",
            "--kube-config",
            "kube.yaml",
        ])
        .current_dir(dir)
        .env("KUBECONFIG", dir.join("kubeconfig"))
        .env_remove("KUBERNETES_SERVICE_HOST")
        .env_remove("LANE_LOG")
        .env("NO_COLOR", "1")
        .stdout(std::fs::File::create(dir.join(format!("{tag}.out"))).unwrap())
        .stderr(std::fs::File::create(dir.join(format!("{tag}.err"))).unwrap())
        .spawn()
        .expect("the lane binary runs")
}

/// Kills the child on drop (a failing assertion leaves no lane behind).
struct Lane(Child);

impl Drop for Lane {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Lane {
    fn wait(&mut self, dir: &Path, tag: &str, limit: Duration) -> Output {
        let until = Instant::now() + limit;
        loop {
            if let Some(status) = self.0.try_wait().unwrap() {
                return Output {
                    status,
                    stdout: std::fs::read(dir.join(format!("{tag}.out"))).unwrap(),
                    stderr: std::fs::read(dir.join(format!("{tag}.err"))).unwrap(),
                };
            }
            assert!(
                Instant::now() < until,
                "lane mint did not finish in {limit:?}: {}",
                std::fs::read_to_string(dir.join(format!("{tag}.err"))).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Waits until `f` holds of the lane's Jobs.
fn wait_jobs(
    emu: &Emulator,
    what: &str,
    f: impl Fn(&BTreeMap<String, serde_json::Value>) -> bool,
) -> BTreeMap<String, serde_json::Value> {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let jobs = emu.jobs();
        if f(&jobs) {
            return jobs;
        }
        assert!(
            Instant::now() < until,
            "timed out waiting for {what}: {jobs:#?}"
        );
        std::thread::sleep(Duration::from_millis(50));
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

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited, not killed")
}

#[test]
fn a_whole_lane_mints_on_an_emulated_api_server() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path());
    let emu = Emulator::start(d.path(), 0.0);
    let mut lane = Lane(spawn_lane(d.path(), "run"));
    let jobs = wait_jobs(&emu, "four Jobs", |j| j.len() == 4);
    for (name, job) in &jobs {
        emu.run_pod(name, job);
    }
    // Running is seen through the pod watcher before anything finishes.
    let until = Instant::now() + Duration::from_secs(30);
    while std::fs::read_to_string(d.path().join("run.err"))
        .unwrap()
        .matches(": running")
        .count()
        < 4
    {
        assert!(
            Instant::now() < until,
            "{}",
            std::fs::read_to_string(d.path().join("run.err")).unwrap()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // One pod is evicted mid-mint and replaced; its Job is not failed.
    let (evicted, job) = jobs.iter().next().unwrap();
    emu.evict(evicted, job);
    for name in jobs.keys() {
        if name == evicted {
            emu.complete_pod(name, &format!("{name}-pod2"));
        } else {
            emu.complete(name);
        }
    }
    let o = lane.wait(d.path(), "run", Duration::from_secs(60));
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("4 mints on Kubernetes, green"),
        "{}",
        stdout(&o)
    );
    let ids = mint_ids(&emu.jobs());
    assert_eq!(ids.len(), 4, "{ids:?}");
    assert!(ids.values().all(|n| *n == 1), "{ids:?}");
    assert!(ids.contains_key("0.93.3/cell00/L4/r1/a1"), "{ids:?}");
}

#[test]
fn kill_9_mid_lane_then_resume_creates_no_duplicate_job() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path());
    // A slow API server (0.4 s a create), so the kill lands between creates.
    let emu = Emulator::start(d.path(), 0.4);
    let mut first = Lane(spawn_lane(d.path(), "first"));
    let before = wait_jobs(&emu, "a first Job", |j| !j.is_empty());
    first.0.kill().unwrap(); // SIGKILL
    first.0.wait().unwrap();
    std::thread::sleep(Duration::from_millis(600)); // a create in flight lands
    let before = emu.jobs().len().max(before.len());
    assert!(before < 4, "the kill came too late: {before} Jobs already");
    // One of the adopted Jobs is already running: its pod is kept.
    let mut second = Lane(spawn_lane(d.path(), "second"));
    let jobs = wait_jobs(&emu, "four Jobs", |j| j.len() == 4);
    for (name, job) in &jobs {
        emu.run_pod(name, job);
        emu.complete(name);
    }
    let o = second.wait(d.path(), "second", Duration::from_secs(60));
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("adopted"), "{}", stderr(&o));
    let ids = mint_ids(&emu.jobs());
    assert_eq!(ids.len(), 4, "{ids:?}");
    assert!(ids.values().all(|n| *n == 1), "a duplicate Job: {ids:?}");
}

#[test]
fn an_oom_killed_mint_fails_the_lane_by_name() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path());
    let emu = Emulator::start(d.path(), 0.0);
    let mut lane = Lane(spawn_lane(d.path(), "run"));
    let jobs = wait_jobs(&emu, "four Jobs", |j| j.len() == 4);
    let mut failed_id = String::new();
    for (name, job) in &jobs {
        emu.run_pod(name, job);
        let id = job["metadata"]["annotations"]["lane.dev/mint-id"]
            .as_str()
            .unwrap();
        if id == "0.93.3/cell01/L4/r2/a1" {
            failed_id = id.to_owned();
            emu.fail(name);
        } else {
            emu.complete(name);
        }
    }
    assert!(!failed_id.is_empty(), "{:?}", mint_ids(&jobs));
    let o = lane.wait(d.path(), "run", Duration::from_secs(60));
    assert_eq!(code(&o), 7, "{}\n{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("NOT green"), "{out}");
    let line = out
        .lines()
        .find(|l| l.contains(&failed_id))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("failed (PodFailurePolicy"), "{line}");
}
