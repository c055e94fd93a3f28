//! `lane mint --backend kube` end to end against a third-party emulated API
//! server on loopback: kmock's `KubernetesEmulator` (PyPI, installed by
//! `./just tools`) behind the thin wrapper `kube/emulator.py` (stamps
//! `resourceVersion`/`uid`, honours label selectors, answers `NotFound` /
//! `AlreadyExists` with the real reasons).
//!
//! No kubelet or Job controller exists here, so the test plays both
//! ([`Kubelet`]): it reads each Job the way a node would and runs its pod
//! for real: the container's command (lane's own `agent`, with the built
//! binary standing in for the init container's copy and a fresh folder for
//! the pod's `emptyDir`), the Job's environment and the store Secret's keys.
//! The agents fetch the staged wheel through a presigned URL and put their
//! result bundles in a real store (moto's S3 on loopback, or a folder), and
//! `lane mint` gathers every slot from there. What the test stands in for
//! is named at each step: pod phases, exit codes, evictions, OOM kills,
//! unschedulable pods and the Job's conditions are written through the
//! API as the Job controller would write them.

use super::{stderr, stdout, ROOT};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod source;

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
        Emulator::start_with(dir, create_delay_s, None)
    }

    /// `expire_file`: while it exists, the emulator ends every watch with a
    /// `410 Expired` (see `emulator.py`).
    fn start_with(dir: &Path, create_delay_s: f64, expire_file: Option<&Path>) -> Emulator {
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
            .env("KMOCK_REQUEST_LOG", dir.join("requests.log"))
            .env(
                "KMOCK_EXPIRE_FILE",
                expire_file
                    .map(|p| p.as_os_str().to_owned())
                    .unwrap_or_default(),
            )
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
            "DELETE" => ureq::delete(&url).call(),
            _ => ureq::patch(&url)
                .header("Content-Type", "application/merge-patch+json")
                .send(&body),
        };
        r.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    }

    /// The lane's Jobs: name -> Job.
    fn jobs(&self) -> BTreeMap<String, serde_json::Value> {
        self.list("/apis/batch/v1", "jobs")
    }

    /// The lane's pods: name -> Pod.
    fn pods(&self) -> BTreeMap<String, serde_json::Value> {
        self.list("/api/v1", "pods")
    }

    fn list(&self, group: &str, kind: &str) -> BTreeMap<String, serde_json::Value> {
        let v = self.get(&format!(
            "{group}/namespaces/{NS}/{kind}?labelSelector=lane.dev%2Flane%3D{LANE}"
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
}

fn now() -> String {
    ago(0)
}

/// RFC 3339 UTC of `secs_ago` seconds before now.
fn ago(secs_ago: i64) -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        - secs_ago;
    // RFC 3339 in UTC, by hand (civil from days: Howard Hinnant's algorithm).
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// How a Job ended, as the Job controller would record it.
#[derive(Debug, PartialEq)]
enum JobEnd {
    Complete,
    Failed(&'static str),
}

/// The kubelet and the Job controller, played by the test (see the module
/// documentation). Pods run one at a time, as a Job with `parallelism: 1`
/// runs them.
struct Kubelet<'a> {
    emu: &'a Emulator,
    dir: PathBuf,
    /// The store Secret's keys (the kubelet reads Secrets; the emulator
    /// holds no Secret objects).
    secret: Vec<(String, String)>,
}

impl Kubelet<'_> {
    /// A kubelet for the pods of `emu`'s Jobs, with no store Secret.
    fn new<'a>(emu: &'a Emulator, dir: &Path) -> Kubelet<'a> {
        Kubelet {
            emu,
            dir: dir.to_owned(),
            secret: Vec::new(),
        }
    }

    fn job_path(name: &str) -> String {
        format!("/apis/batch/v1/namespaces/{NS}/jobs/{name}/status")
    }

    fn pod_path(pod: &str) -> String {
        format!("/api/v1/namespaces/{NS}/pods/{pod}/status")
    }

    /// Creates pod `pod` of Job `name`, Pending, with `status`.
    fn create_pod(
        &self,
        name: &str,
        job: &serde_json::Value,
        pod: &str,
        status: serde_json::Value,
    ) {
        let mut labels = job["metadata"]["labels"].clone();
        labels["batch.kubernetes.io/job-name"] = name.into();
        labels
            .as_object_mut()
            .unwrap()
            .remove("kueue.x-k8s.io/queue-name");
        self.emu.send(
            "POST",
            &format!("/api/v1/namespaces/{NS}/pods"),
            serde_json::json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": pod, "labels": labels,
                             "annotations": job["metadata"]["annotations"]},
                "status": status,
            }),
        );
    }

    /// The Job controller starts the Job (`startTime`, one active pod).
    fn start_job(&self, name: &str) {
        self.start_job_at(name, &now());
    }

    fn start_job_at(&self, name: &str, start: &str) {
        self.emu.send(
            "PATCH",
            &Self::job_path(name),
            serde_json::json!({"status": {"startTime": start, "active": 1}}),
        );
    }

    /// Runs one pod of Job `name` for real; returns the mint container's
    /// exit code (as the kubelet reports it in `containerStatuses`).
    fn run_pod(&self, name: &str, job: &serde_json::Value, pod: &str) -> i32 {
        self.create_pod(name, job, pod, serde_json::json!({"phase": "Pending"}));
        self.emu.send(
            "PATCH",
            &Self::pod_path(pod),
            serde_json::json!({"status": {"phase": "Running"}}),
        );
        let code = self.exec(job, pod);
        let phase = if code == 0 { "Succeeded" } else { "Failed" };
        self.emu.send(
            "PATCH",
            &Self::pod_path(pod),
            serde_json::json!({"status": {"phase": phase, "containerStatuses": [
                {"name": "mint", "ready": false, "restartCount": 0, "image": "mint:test", "imageID": "",
                 "state": {"terminated": {"exitCode": code}}}]}}),
        );
        code
    }

    /// The pod's mint container, run on this machine: the built `lane`
    /// stands in for `/lane/bin/lane` (what the init container copies), a
    /// fresh folder for each `emptyDir`.
    fn exec(&self, job: &serde_json::Value, pod: &str) -> i32 {
        let c = &job["spec"]["template"]["spec"]["containers"][0];
        let root = self.dir.join("pods").join(pod);
        let map = |a: &str| -> String {
            match a {
                "/lane/bin/lane" => env!("CARGO_BIN_EXE_lane").to_owned(),
                "/work/mint" => root.join("work/mint").to_string_lossy().into_owned(),
                other => other.to_owned(),
            }
        };
        let argv: Vec<String> = c["command"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| map(a.as_str().unwrap()))
            .collect();
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("LANE_UV", Path::new(ROOT).join(".tools/uv/bin/uv"))
            // The image's CA bundle: this machine's, where a proxy signs
            // the package index's certificates.
            .envs(
                ["SSL_CERT_FILE", "SSL_CERT_DIR"]
                    .iter()
                    .filter_map(|k| Some((*k, std::env::var_os(k)?))),
            )
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(self.dir.join(format!("{pod}.log"))).unwrap())
            .stderr(std::fs::File::create(self.dir.join(format!("{pod}.err"))).unwrap());
        for e in c["env"].as_array().into_iter().flatten() {
            let (k, v) = (e["name"].as_str().unwrap(), e["value"].as_str().unwrap());
            let v = match k {
                "HOME" => root.join("home").to_string_lossy().into_owned(),
                "TMPDIR" => root.join("tmp").to_string_lossy().into_owned(),
                _ => v.to_owned(),
            };
            cmd.env(k, v);
        }
        if c["envFrom"].is_array() {
            for (k, v) in &self.secret {
                cmd.env(k, v);
            }
        }
        for d in ["home", "tmp", "work/mint"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        let status = cmd.status().expect("the agent runs");
        status.code().unwrap_or(128 + 9)
    }

    /// The Job ends with `end`.
    fn end_job(&self, name: &str, end: &JobEnd, failed_pods: usize) {
        let t = now();
        let status = match end {
            JobEnd::Complete => serde_json::json!({"status": {
                "active": 0, "succeeded": 1, "failed": failed_pods, "completionTime": t, "conditions": [
                {"type": "SuccessCriteriaMet", "status": "True", "reason": "CompletionsReached", "lastTransitionTime": t},
                {"type": "Complete", "status": "True", "reason": "CompletionsReached", "lastTransitionTime": t}]}}),
            JobEnd::Failed(reason) => serde_json::json!({"status": {
                "active": 0, "failed": failed_pods, "conditions": [
                {"type": "FailureTarget", "status": "True", "reason": reason, "message": format!("{reason} (played by the test)"), "lastTransitionTime": t},
                {"type": "Failed", "status": "True", "reason": reason, "message": format!("{reason} (played by the test)"), "lastTransitionTime": t}]}}),
        };
        self.emu.send("PATCH", &Self::job_path(name), status);
    }

    /// Runs Job `name` to its end as the Job controller does: pods until one
    /// succeeds; the agent's exit codes 10 and 11 fail the Job at once (the
    /// pod failure policy); any other failure counts against `backoffLimit`.
    fn run_job(&self, name: &str, job: &serde_json::Value) -> JobEnd {
        self.run_job_from(name, job, 0)
    }

    fn run_job_from(&self, name: &str, job: &serde_json::Value, first_pod: usize) -> JobEnd {
        let backoff = job["spec"]["backoffLimit"].as_u64().unwrap() as usize;
        if first_pod == 0 {
            self.start_job(name);
        }
        let mut failed = 0;
        for n in first_pod.. {
            let code = self.run_pod(name, job, &format!("{name}-p{n}"));
            let end = match code {
                0 => Some(JobEnd::Complete),
                10 | 11 => Some(JobEnd::Failed("PodFailurePolicy")),
                _ => {
                    failed += 1;
                    (failed > backoff).then_some(JobEnd::Failed("BackoffLimitExceeded"))
                }
            };
            if let Some(end) = end {
                self.end_job(name, &end, failed);
                return end;
            }
        }
        unreachable!()
    }

    /// A node drain evicts the Job's pod `p0` before its mint starts
    /// (`DisruptionTarget`: ignored by the pod failure policy, not counted);
    /// the Job controller starts `p1`, which runs the Job to its end.
    fn evict_then_run(&self, name: &str, job: &serde_json::Value) -> JobEnd {
        self.start_job(name);
        let pod = format!("{name}-p0");
        self.create_pod(name, job, &pod, serde_json::json!({"phase": "Running"}));
        self.emu.send(
            "PATCH",
            &Self::pod_path(&pod),
            serde_json::json!({"status": {"phase": "Failed", "reason": "Evicted", "conditions": [
                {"type": "DisruptionTarget", "status": "True", "reason": "EvictionByEvictionAPI",
                 "message": "Eviction API: evicting"}]}}),
        );
        self.run_job_from(name, job, 1)
    }

    /// Every pod of the Job is OOMKilled (exit 137) before the agent can
    /// write anything, until `backoffLimit` fails the Job.
    fn oom_until_failed(&self, name: &str, job: &serde_json::Value, started: &str) {
        let backoff = job["spec"]["backoffLimit"].as_u64().unwrap() as usize;
        self.start_job_at(name, started);
        for n in 0..=backoff {
            let pod = format!("{name}-p{n}");
            self.create_pod(name, job, &pod, serde_json::json!({"phase": "Running"}));
            self.emu.send(
                "PATCH",
                &Self::pod_path(&pod),
                serde_json::json!({"status": {"phase": "Failed", "containerStatuses": [
                    {"name": "mint", "ready": false, "restartCount": 0, "image": "mint:test", "imageID": "",
                     "state": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}}}]}}),
            );
        }
        self.end_job(name, &JobEnd::Failed("BackoffLimitExceeded"), backoff + 1);
    }
}

/// A quick mint: it writes the wheel's version it sees (or `none`) as an
/// artifact and a minted report. `crash_once` crashes (SIGSEGV) the first
/// run of each slot.
fn mint_script(dir: &Path, crash_once: bool) -> String {
    let crash = if crash_once {
        format!(
            r#"m={}/crashed-$(echo "$LANE_MINT_ID" | cut -d/ -f1-4 | tr / _); if [ ! -e "$m" ]; then touch "$m"; kill -SEGV $$; fi; "#,
            dir.display()
        )
    } else {
        String::new()
    };
    format!(
        r#"{crash}v=$(python -c 'import lanewheel; print(lanewheel.VERSION)' 2>/dev/null || echo none); echo "$v" > "$LANE_ARTIFACTS_DIR/wheel.txt"; echo "kernel of $LANE_MINT_ID" > "$LANE_ARTIFACTS_DIR/kernel.txt"; printf '{{"status":"minted","recipe":"dynamo","phases":{{"load":0.1}}}}' > "$LANE_REPORT_PATH""#
    )
}

/// Two cells on L4, two cold repeats: four mints, four Jobs. `kube_extra`
/// is appended to `kube.yaml` (which names no store: see [`write_store`]).
fn write_lane(dir: &Path, crash_once: bool, kube_extra: &str) {
    std::fs::create_dir_all(dir.join("lanes")).unwrap();
    let script = serde_json::to_string(&mint_script(dir, crash_once)).unwrap();
    std::fs::write(
        dir.join(format!("lanes/{LANE}.yaml")),
        format!("version: \"{LANE}\"\nupstream: {{repo: ./up}}\nbase: v0.93.2\nmint:\n  gpus: [L4]\n  cold_repeats: 2\n  timeout_s: 30\n  retry: {{crashed: 1}}\n  cells:\n    - name: cell00\n      recipe: dynamo\n      command: [sh, -c, {script}]\n    - name: cell01\n      recipe: dynamo\n      command: [sh, -c, {script}]\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("kube.yaml"),
        format!("laneImage: lane:test\nmintImage: mint:test\nnamespace: {NS}\n{kube_extra}"),
    )
    .unwrap();
}

/// A folder store every "pod" shares (a volume every node mounts).
fn folder_store(dir: &Path) -> String {
    format!("store: \"file://{}\"\n", dir.join("store").display())
}

/// `lane mint` on the kube backend, as a child (stdout and stderr to files).
fn spawn_lane(dir: &Path, tag: &str) -> Child {
    spawn_lane_with(dir, tag, &[], &[])
}

fn spawn_lane_with(dir: &Path, tag: &str, extra: &[&str], env: &[(&str, &str)]) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_lane"));
    cmd.args([
        "mint",
        LANE,
        "--backend",
        "kube",
        "--kube-config",
        "kube.yaml",
    ])
    .args(extra)
    .current_dir(dir)
    .env("KUBECONFIG", dir.join("kubeconfig"))
    .env_remove("KUBERNETES_SERVICE_HOST")
    .env_remove("LANE_LOG")
    .env_remove("LANE_STORE")
    .env("NO_COLOR", "1")
    .stdout(std::fs::File::create(dir.join(format!("{tag}.out"))).unwrap())
    .stderr(std::fs::File::create(dir.join(format!("{tag}.err"))).unwrap());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().expect("the lane binary runs")
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

/// Waits until lane's stderr (file `<tag>.err`) holds `n` lines containing `needle`.
fn wait_stderr(dir: &Path, tag: &str, needle: &str, n: usize) {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let text = std::fs::read_to_string(dir.join(format!("{tag}.err"))).unwrap_or_default();
        if text.matches(needle).count() >= n {
            return;
        }
        assert!(Instant::now() < until, "no {n}× `{needle}` in: {text}");
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

fn id_of(job: &serde_json::Value) -> &str {
    job["metadata"]["annotations"]["lane.dev/mint-id"]
        .as_str()
        .unwrap()
}

fn read_json(p: &Path) -> serde_json::Value {
    serde_json::from_str(
        &std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
    )
    .unwrap()
}

const S3_SECRET: &str = "kube-s3-secret-never-printed-71c3";

/// A wheel made by hand (no build backend is reachable offline): package
/// `lanewheel` whose `VERSION` the mints print.
fn tiny_wheel() -> (String, Vec<u8>) {
    use std::io::Write;
    let name = "lanewheel-0.93.3-py3-none-any.whl".to_owned();
    let files: [(&str, &str); 3] = [
        ("lanewheel/__init__.py", "VERSION = \"0.93.3+kube-test\"\n"),
        (
            "lanewheel-0.93.3.dist-info/METADATA",
            "Metadata-Version: 2.1\nName: lanewheel\nVersion: 0.93.3\n",
        ),
        (
            "lanewheel-0.93.3.dist-info/WHEEL",
            "Wheel-Version: 1.0\nGenerator: lane-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        ),
    ];
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    let mut record = String::new();
    for (path, body) in files {
        zip.start_file(path, opts).unwrap();
        zip.write_all(body.as_bytes()).unwrap();
        use sha2::Digest;
        let digest = sha2::Sha256::digest(body.as_bytes());
        let b64 = {
            use base64::Engine;
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(digest)
        };
        record.push_str(&format!("{path},sha256={b64},{}\n", body.len()));
    }
    record.push_str("lanewheel-0.93.3.dist-info/RECORD,,\n");
    zip.start_file("lanewheel-0.93.3.dist-info/RECORD", opts)
        .unwrap();
    zip.write_all(record.as_bytes()).unwrap();
    (name, zip.finish().unwrap().into_inner())
}

#[test]
fn a_whole_lane_mints_in_pods_with_the_staged_wheel_and_gathers_from_s3() {
    let d = tempfile::tempdir().unwrap();
    let (_moto, endpoint, s3) = super::wheel::moto("ci", S3_SECRET);
    // The wheel as `lane wheel --store` stages it: the file and its manifest.
    use lane_store::ArtifactStore;
    let (wheel, bytes) = tiny_wheel();
    let commit = "0123456789abcdef0123456789abcdef01234567";
    let wheel_key = format!("lanes/{LANE}/{commit}/{wheel}");
    s3.put_atomic(
        &lane_store::StoreKey::new(wheel_key.clone()).unwrap(),
        lane_store::Content::Bytes(&bytes),
    )
    .unwrap();
    // Written through the type `lane wheel` writes it with.
    let manifest = lane_wheel::WheelManifest {
        lane: LANE.into(),
        branch: format!("release/{LANE}"),
        commit: commit.into(),
        tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904".into(),
        wheel: wheel.clone(),
        sha256: lane_store::sha256_hex(&bytes),
        size: bytes.len() as u64,
        verified: lane_wheel::VerifiedWheel {
            file_name: wheel.clone(),
            name: "gen_worker".into(),
            version: LANE.into(),
            metadata_version: "2.4".into(),
            python_tag: "py3".into(),
            recorded_files: 3,
            package_files: 1,
        },
        tools: lane_wheel::BuildTools {
            uv: "uv 0.9.0".into(),
            python: "Python 3.12".into(),
        },
        source: None,
    };
    let manifest = serde_json::to_string(&manifest).unwrap();
    s3.put_atomic(
        &lane_store::StoreKey::new(format!("lanes/{LANE}/{commit}/manifest.json")).unwrap(),
        lane_store::Content::Bytes(manifest.as_bytes()),
    )
    .unwrap();

    write_lane(
        d.path(),
        false,
        &format!("store: s3://lanes/ci\nstoreSecret: lane-store\nstoreEnv: {{LANE_S3_ENDPOINT: \"{endpoint}\"}}\n"),
    );
    let emu = Emulator::start(d.path(), 0.0);
    let kubelet = Kubelet {
        emu: &emu,
        dir: d.path().to_owned(),
        secret: vec![
            ("AWS_ACCESS_KEY_ID".into(), "testing".into()),
            ("AWS_SECRET_ACCESS_KEY".into(), S3_SECRET.into()),
        ],
    };
    let creds = [
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", S3_SECRET),
        ("LANE_S3_ENDPOINT", endpoint.as_str()),
    ];
    // A dry run shows where the wheel is, never a URL that fetches it.
    let mut dry = Lane(spawn_lane_with(
        d.path(),
        "dry",
        &["--wheel-key", &wheel_key, "--dry-run"],
        &creds,
    ));
    let o = dry.wait(d.path(), "dry", Duration::from_secs(30));
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o).matches("--wheel-url").count(),
        4,
        "{}",
        stdout(&o)
    );
    assert!(!stdout(&o).contains("X-Amz-Signature"), "{}", stdout(&o));
    assert!(emu.jobs().is_empty(), "a dry run created Jobs");
    let mut lane = Lane(spawn_lane_with(
        d.path(),
        "run",
        &["--wheel-key", &wheel_key],
        &creds,
    ));
    let jobs = wait_jobs(&emu, "four Jobs", |j| j.len() == 4);
    // No Job carries the store's secret; each carries the wheel's presigned URL.
    for job in jobs.values() {
        let text = job.to_string();
        assert!(!text.contains(S3_SECRET), "a Job carries the S3 secret");
        assert!(text.contains("X-Amz-Signature"), "{text}");
    }
    for (i, (name, job)) in jobs.iter().enumerate() {
        let end = if i == 0 {
            kubelet.evict_then_run(name, job)
        } else {
            kubelet.run_job(name, job)
        };
        assert_eq!(
            end,
            JobEnd::Complete,
            "{}",
            std::fs::read_to_string(
                d.path()
                    .join(format!("{name}-p{}.err", usize::from(i == 0)))
            )
            .unwrap_or_default()
        );
    }
    let o = lane.wait(d.path(), "run", Duration::from_secs(60));
    let all = stdout(&o) + &stderr(&o);
    assert_eq!(code(&o), 0, "{all}");
    assert!(stdout(&o).contains("4 mints on Kubernetes, green"), "{all}");
    assert!(!all.contains(S3_SECRET), "the S3 secret was printed");
    assert!(
        !all.contains("X-Amz-Signature"),
        "a presigned URL was printed: {all}"
    );
    let ids = mint_ids(&emu.jobs());
    assert_eq!(ids.len(), 4, "{ids:?}");
    assert!(ids.values().all(|n| *n == 1), "{ids:?}");
    // Every slot came back through its S3 bundle, with the wheel installed.
    let results = d.path().join(format!("out/lanes/{LANE}/results"));
    for cell in ["cell00", "cell01"] {
        for r in [1, 2] {
            let slot = results.join(format!("{cell}/L4/r{r}"));
            assert_eq!(
                std::fs::read_to_string(slot.join("artifacts/wheel.txt"))
                    .unwrap()
                    .trim(),
                "0.93.3+kube-test"
            );
            let record = read_json(&slot.join("mint.json"));
            assert_eq!(record["status"], "minted", "{record}");
            assert_eq!(
                record["bundle"]["key"],
                format!("lanes/{LANE}/runs/manual/mints/{cell}/L4/r{r}/a1/bundle.zip")
            );
            assert!(slot.join("report.json").is_file());
        }
    }
    assert_eq!(read_json(&results.join("summary.json"))["green"], true);
    assert!(d
        .path()
        .join(format!("out/lanes/{LANE}/report/report.html"))
        .is_file());
    // The bundles are in S3 (not only on the "nodes").
    let keys = s3
        .list(&format!("lanes/{LANE}/runs/manual/mints/"))
        .unwrap();
    // One claim and one bundle per mint (the eviction came before its
    // agent started, so it claimed nothing).
    assert_eq!(
        keys.iter().filter(|k| k.ends_with("/bundle.zip")).count(),
        4,
        "{keys:?}"
    );
    assert_eq!(
        keys.iter().filter(|k| k.ends_with("/claim.json")).count(),
        4,
        "{keys:?}"
    );
    assert_eq!(keys.len(), 8, "{keys:?}");
    // So are the run's summary and report (a CronJob's pod keeps nothing).
    let kept = s3
        .list(&format!("lanes/{LANE}/runs/manual/report/"))
        .unwrap();
    assert_eq!(kept.len(), 3, "{kept:?}");
}

#[test]
fn a_crashed_pod_is_retried_by_its_job_and_both_attempts_keep_their_bundles() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), true, &folder_store(d.path()));
    let emu = Emulator::start(d.path(), 0.0);
    let kubelet = Kubelet::new(&emu, d.path());
    let mut lane = Lane(spawn_lane(d.path(), "run"));
    let jobs = wait_jobs(&emu, "four Jobs", |j| j.len() == 4);
    for (name, job) in &jobs {
        assert_eq!(kubelet.run_job(name, job), JobEnd::Complete);
    }
    let o = lane.wait(d.path(), "run", Duration::from_secs(60));
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    let slot = d
        .path()
        .join(format!("out/lanes/{LANE}/results/cell00/L4/r1"));
    let record = read_json(&slot.join("mint.json"));
    assert_eq!(record["attempt"], 2, "{record}");
    assert_eq!(record["status"], "minted", "{record}");
    assert_eq!(
        record["attempts_wall_s"].as_array().unwrap().len(),
        2,
        "{record}"
    );
    for a in [1, 2] {
        assert!(
            d.path()
                .join(format!(
                    "store/lanes/{LANE}/runs/manual/mints/cell00/L4/r1/a{a}/bundle.zip"
                ))
                .is_file(),
            "attempt {a} lost its bundle"
        );
    }
    // Still one Job per mint id: the retry was the Job's own pod.
    assert!(mint_ids(&emu.jobs()).values().all(|n| *n == 1));
}

#[test]
fn kill_9_mid_lane_then_resume_creates_no_duplicate_job() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), false, &folder_store(d.path()));
    // A slow API server (0.4 s a create), so the kill lands between creates.
    let emu = Emulator::start(d.path(), 0.4);
    let kubelet = Kubelet::new(&emu, d.path());
    let mut first = Lane(spawn_lane(d.path(), "first"));
    let before = wait_jobs(&emu, "a first Job", |j| !j.is_empty());
    first.0.kill().unwrap(); // SIGKILL
    first.0.wait().unwrap();
    std::thread::sleep(Duration::from_millis(600)); // a create in flight lands
    let before = emu.jobs().len().max(before.len());
    assert!(before < 4, "the kill came too late: {before} Jobs already");
    let mut second = Lane(spawn_lane(d.path(), "second"));
    let jobs = wait_jobs(&emu, "four Jobs", |j| j.len() == 4);
    for (name, job) in &jobs {
        assert_eq!(kubelet.run_job(name, job), JobEnd::Complete);
    }
    let o = second.wait(d.path(), "second", Duration::from_secs(60));
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("adopted"), "{}", stderr(&o));
    let ids = mint_ids(&emu.jobs());
    assert_eq!(ids.len(), 4, "{ids:?}");
    assert!(ids.values().all(|n| *n == 1), "a duplicate Job: {ids:?}");
}

#[test]
fn a_new_run_mints_anew_and_never_adopts_an_earlier_runs_jobs() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), false, &folder_store(d.path()));
    let emu = Emulator::start(d.path(), 0.0);
    let kubelet = Kubelet::new(&emu, d.path());
    for (n, run) in ["nightly-1", "nightly-2"].iter().enumerate() {
        let tag = format!("run{n}");
        let mut lane = Lane(spawn_lane_with(d.path(), &tag, &["--run-id", run], &[]));
        // The earlier run's finished Jobs are still there (within their TTL).
        let jobs = wait_jobs(&emu, "this run's Jobs", |j| j.len() == 4 * (n + 1));
        for (name, job) in &jobs {
            if job["metadata"]["labels"]["lane.dev/run"] == *run {
                assert_eq!(kubelet.run_job(name, job), JobEnd::Complete);
            }
        }
        let o = lane.wait(d.path(), &tag, Duration::from_secs(60));
        assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
        assert!(!stderr(&o).contains("adopted"), "{}", stderr(&o));
        // This run's own bundles, first attempts: nothing of the other run.
        let record = read_json(
            &d.path()
                .join(format!("out/lanes/{LANE}/results/cell00/L4/r1/mint.json")),
        );
        assert_eq!(record["attempt"], 1, "{record}");
        assert_eq!(
            record["bundle"]["key"],
            format!("lanes/{LANE}/runs/{run}/mints/cell00/L4/r1/a1/bundle.zip")
        );
        assert!(d
            .path()
            .join(format!("store/lanes/{LANE}/runs/{run}/report/report.md"))
            .is_file());
    }
    // The TTL controller removes nightly-1's finished Jobs; restarting that
    // run gathers its results from the store and mints nothing again.
    for (name, job) in emu.jobs() {
        if job["metadata"]["labels"]["lane.dev/run"] == "nightly-1" {
            emu.send(
                "DELETE",
                &format!("/apis/batch/v1/namespaces/{NS}/jobs/{name}"),
                serde_json::json!({}),
            );
        }
    }
    assert_eq!(emu.jobs().len(), 4);
    let mut resumed = Lane(spawn_lane_with(
        d.path(),
        "resumed",
        &["--run-id", "nightly-1"],
        &[],
    ));
    let o = resumed.wait(d.path(), "resumed", Duration::from_secs(60));
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(stderr(&o).matches("ended ").count(), 4, "{}", stderr(&o));
    assert!(!stderr(&o).contains("created"), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("4 mints on Kubernetes, green"),
        "{}",
        stdout(&o)
    );
    assert_eq!(emu.jobs().len(), 4, "a finished slot was minted again");
    // Restarting run nightly-2 from another lane file (a longer timeout) is
    // refused: neither its Jobs nor its results in the store are reused.
    let file = d.path().join(format!("lanes/{LANE}.yaml"));
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("timeout_s: 30", "timeout_s: 45")).unwrap();
    let mut again = Lane(spawn_lane_with(
        d.path(),
        "again",
        &["--run-id", "nightly-2"],
        &[],
    ));
    let o = again.wait(d.path(), "again", Duration::from_secs(60));
    assert_eq!(code(&o), 6, "{}\n{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("from another lane file, wheel or configuration"),
        "{}",
        stderr(&o)
    );
    assert_eq!(emu.jobs().len(), 4, "nothing was created");
    // What is left is nightly-2's: one Job per mint id.
    let ids = mint_ids(&emu.jobs());
    assert_eq!(ids.len(), 4, "{ids:?}");
    assert!(ids.values().all(|n| *n == 1), "{ids:?}");
    assert!(emu
        .jobs()
        .values()
        .all(|j| j["metadata"]["labels"]["lane.dev/run"] == "nightly-2"));
}

#[test]
fn an_oom_killed_mint_fails_the_lane_by_name_and_keeps_its_seconds() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), false, &folder_store(d.path()));
    let emu = Emulator::start(d.path(), 0.0);
    let kubelet = Kubelet::new(&emu, d.path());
    let mut lane = Lane(spawn_lane(d.path(), "run"));
    let jobs = wait_jobs(&emu, "four Jobs", |j| j.len() == 4);
    let failed_id = "0.93.3/cell01/L4/r2/a1";
    for (name, job) in &jobs {
        if id_of(job) == failed_id {
            // The Job started 7 s ago (as far as its startTime says).
            kubelet.oom_until_failed(name, job, &ago(7));
        } else {
            assert_eq!(kubelet.run_job(name, job), JobEnd::Complete);
        }
    }
    let o = lane.wait(d.path(), "run", Duration::from_secs(60));
    assert_eq!(code(&o), 7, "{}\n{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("NOT green"), "{out}");
    let line = out
        .lines()
        .find(|l| l.contains("0.93.3/cell01/L4/r2 ") && l.contains("crashed"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("no result bundle"), "{line}");
    assert!(line.contains("BackoffLimitExceeded"), "{line}");
    let record = read_json(
        &d.path()
            .join(format!("out/lanes/{LANE}/results/cell01/L4/r2/mint.json")),
    );
    assert_eq!(record["status"], "crashed", "{record}");
    // Nothing measured the mint; its Job ran from its start to its Failed
    // condition, and keeps those seconds, named as the Job's.
    assert!(record.get("wall_s").is_none(), "{record}");
    let job_s = record["job_s"].as_f64().unwrap();
    assert!((6.0..=10.0).contains(&job_s), "{record}");
}

#[test]
fn a_mint_unschedulable_past_the_limit_is_named_with_its_gpu_class() {
    let d = tempfile::tempdir().unwrap();
    write_lane(
        d.path(),
        false,
        &format!("{}unschedulableAfterS: 1\n", folder_store(d.path())),
    );
    let emu = Emulator::start(d.path(), 0.0);
    let kubelet = Kubelet::new(&emu, d.path());
    let mut lane = Lane(spawn_lane(d.path(), "run"));
    let jobs = wait_jobs(&emu, "four Jobs", |j| j.len() == 4);
    let stuck_id = "0.93.3/cell00/L4/r1/a1";
    let mut stuck = None;
    for (name, job) in &jobs {
        if id_of(job) == stuck_id {
            // The scheduler finds no L4 node with room.
            kubelet.start_job(name);
            kubelet.create_pod(
                name,
                job,
                &format!("{name}-p0"),
                serde_json::json!({
                "phase": "Pending", "conditions": [
                    {"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                     "message": "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.",
                     "lastTransitionTime": now()}]}),
            );
            stuck = Some(name.clone());
        } else {
            assert_eq!(kubelet.run_job(name, job), JobEnd::Complete);
        }
    }
    // Named within the limit (1 s) plus the watcher's 30 s wake-up at most.
    let until = Instant::now() + Duration::from_secs(45);
    loop {
        let err = std::fs::read_to_string(d.path().join("run.err")).unwrap();
        if let Some(l) = err
            .lines()
            .find(|l| l.starts_with(stuck_id) && l.contains("unschedulable"))
        {
            assert!(l.contains("no node has capacity for GPU class `L4`"), "{l}");
            break;
        }
        assert!(Instant::now() < until, "never named: {err}");
        std::thread::sleep(Duration::from_millis(100));
    }
    // Its deadline passes: the Job fails, the lane ends, not green.
    kubelet.end_job(
        stuck.as_deref().unwrap(),
        &JobEnd::Failed("DeadlineExceeded"),
        0,
    );
    let o = lane.wait(d.path(), "run", Duration::from_secs(60));
    assert_eq!(code(&o), 7, "{}\n{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("DeadlineExceeded"), "{}", stdout(&o));
}

#[test]
fn a_watch_expired_with_410_relists_and_sees_what_it_missed() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), false, &folder_store(d.path()));
    let expire = d.path().join("expire-watches");
    let emu = Emulator::start_with(d.path(), 0.0, Some(&expire));
    let kubelet = Kubelet::new(&emu, d.path());
    let mut lane = Lane(spawn_lane(d.path(), "run"));
    let jobs = wait_jobs(&emu, "four Jobs", |j| j.len() == 4);
    let lists_before = list_requests(d.path());
    // From now on every watch ends with a 410 at its next event: the Jobs'
    // completions reach lane only through relists.
    std::fs::write(&expire, b"").unwrap();
    for (name, job) in &jobs {
        assert_eq!(kubelet.run_job(name, job), JobEnd::Complete);
    }
    let o = lane.wait(d.path(), "run", Duration::from_secs(90));
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("4 mints on Kubernetes, green"),
        "{}",
        stdout(&o)
    );
    assert!(
        list_requests(d.path()) > lists_before,
        "no LIST after the 410: {}",
        std::fs::read_to_string(d.path().join("requests.log")).unwrap()
    );
}

/// LIST requests of Jobs or pods by the lane's selector that lane sent (the
/// test's own requests go out as `ureq/...`).
fn list_requests(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("requests.log"))
        .unwrap_or_default()
        .lines()
        .filter(|l| {
            l.contains(" GET ")
                && l.contains("labelSelector")
                && !l.contains("watch=true")
                && !l.contains(" ureq/")
        })
        .count()
}

#[test]
fn lane_cancel_deletes_the_lanes_jobs_and_pods_and_the_mint_ends() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), false, &folder_store(d.path()));
    let emu = Emulator::start(d.path(), 0.0);
    let kubelet = Kubelet::new(&emu, d.path());
    let mut lane = Lane(spawn_lane(d.path(), "run"));
    let jobs = wait_jobs(&emu, "four Jobs", |j| j.len() == 4);
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
    wait_stderr(d.path(), "run", ": running", 2);
    let o = super::lane(
        d.path(),
        &["cancel", LANE, "--kube-config", "kube.yaml", "--dry-run"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(emu.jobs().len(), 4, "a dry run deleted something");
    let o = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(["cancel", LANE, "--kube-config", "kube.yaml", "--json"])
        .current_dir(d.path())
        .env("KUBECONFIG", d.path().join("kubeconfig"))
        .env_remove("KUBERNETES_SERVICE_HOST")
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["jobs"].as_array().unwrap().len(), 4, "{v}");
    assert_eq!(v["pods"].as_array().unwrap().len(), 2, "{v}");
    assert!(emu.jobs().is_empty() && emu.pods().is_empty());
    // The mint sees its Jobs go and ends, naming each as deleted.
    let o = lane.wait(d.path(), "run", Duration::from_secs(60));
    assert_eq!(code(&o), 7, "{}\n{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    for id in mint_ids(&jobs).keys() {
        let slot = id.trim_end_matches("/a1");
        for prefix in [format!("  {slot} "), format!("  {id} ")] {
            let line = out
                .lines()
                .find(|l| l.starts_with(&prefix))
                .unwrap_or_else(|| panic!("no line for {prefix}: {out}"));
            assert!(line.contains("Deleted: the Job was deleted"), "{line}");
        }
        // The slot is named by its Job, though the Job is gone.
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("  {slot} ")))
            .unwrap();
        let name = jobs
            .iter()
            .find(|(_, j)| id_of(j) == id)
            .map(|(n, _)| n.clone())
            .unwrap();
        assert!(
            line.contains(&format!("Job {name}: failed (Deleted")),
            "{line}"
        );
        {}
    }
}
