//! The kubelet and the Job controller, played for the Jobs created on a
//! [`KubeEmulator`] (which has neither). Each step writes through the API
//! what the real component would write: pods and their phases, container
//! exit codes, evictions, OOM kills, and the Job's `startTime` and
//! conditions. A pod's container runs **for real** on this machine: its
//! command and environment from the Job, a fresh folder for each `emptyDir`
//! volume, and the files the init container would have installed (given by
//! [`Kubelet::installed`]). Pods run one at a time, as a Job with
//! `parallelism: 1` runs them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use super::KubeEmulator;
use crate::time::now;

/// How a Job ended, as the Job controller records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobEnd {
    /// `Complete`: a pod succeeded.
    Complete,
    /// `Failed` with this reason (`BackoffLimitExceeded`, `PodFailurePolicy`,
    /// `DeadlineExceeded`, ...).
    Failed(&'static str),
}

/// The node every pod runs on (the downward API's `spec.nodeName`).
pub const NODE: &str = "lane-testkit-node";

/// The kubelet stand-in (see the module documentation). A pod's stdout and
/// stderr go to `dir/<pod>.log` and `dir/<pod>.err`, its folders under
/// `dir/pods/<pod>/`.
#[derive(Debug)]
pub struct Kubelet<'a> {
    emu: &'a KubeEmulator,
    dir: PathBuf,
    installed: BTreeMap<String, PathBuf>,
    image_env: Vec<(String, String)>,
    secrets: BTreeMap<String, Vec<(String, String)>>,
}

impl<'a> Kubelet<'a> {
    /// A kubelet for the pods of `emu`'s Jobs, with no Secrets, nothing
    /// installed and an image environment of `PATH` alone (this machine's).
    pub fn new(emu: &'a KubeEmulator, dir: &Path) -> Kubelet<'a> {
        Kubelet {
            emu,
            dir: dir.to_owned(),
            installed: BTreeMap::new(),
            image_env: Vec::new(),
            secrets: BTreeMap::new(),
        }
    }

    /// The init container puts `host` at `in_pod` (e.g. lane's binary at
    /// `/lane/bin/lane`): a container's argument `in_pod` runs `host`.
    pub fn installed(mut self, in_pod: &str, host: impl Into<PathBuf>) -> Self {
        self.installed.insert(in_pod.to_owned(), host.into());
        self
    }

    /// A variable the container image sets (the Job's own env comes after).
    pub fn image_env(mut self, key: &str, value: impl AsRef<std::ffi::OsStr>) -> Self {
        let value = value.as_ref().to_string_lossy().into_owned();
        self.image_env.push((key.to_owned(), value));
        self
    }

    /// Secret `name` holds `keys` (the emulator stores no Secrets; the
    /// kubelet reads them for `envFrom`).
    pub fn secret(mut self, name: &str, keys: &[(&str, &str)]) -> Self {
        let keys = keys.iter().map(|(k, v)| (k.to_string(), v.to_string()));
        self.secrets.insert(name.to_owned(), keys.collect());
        self
    }

    fn job_path(&self, name: &str) -> String {
        format!(
            "/apis/batch/v1/namespaces/{}/jobs/{name}/status",
            self.emu.namespace()
        )
    }

    fn pod_path(&self, pod: &str) -> String {
        format!(
            "/api/v1/namespaces/{}/pods/{pod}/status",
            self.emu.namespace()
        )
    }

    /// Creates pod `pod` of Job `name` with `status` (the Job controller's
    /// work: the template's labels plus `batch.kubernetes.io/job-name`,
    /// without Kueue's queue label).
    pub fn create_pod(&self, name: &str, job: &Value, pod: &str, status: Value) {
        // A new pod gets new `emptyDir` volumes, even under an earlier
        // pod's name (a Job recreated after `lane cancel`).
        let root = self.dir.join("pods").join(pod);
        if root.exists() {
            std::fs::remove_dir_all(&root).unwrap_or_else(|e| panic!("{}: {e}", root.display()));
        }
        let mut labels = job["metadata"]["labels"].clone();
        labels["batch.kubernetes.io/job-name"] = name.into();
        if let Some(labels) = labels.as_object_mut() {
            labels.remove("kueue.x-k8s.io/queue-name");
        }
        self.emu.send(
            "POST",
            &format!("/api/v1/namespaces/{}/pods", self.emu.namespace()),
            json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": pod, "labels": labels,
                             "annotations": job["metadata"]["annotations"]},
                "status": status,
            }),
        );
    }

    /// The Job controller starts the Job now (`startTime`, one active pod).
    pub fn start_job(&self, name: &str) {
        self.start_job_at(name, &now());
    }

    /// The Job controller started the Job at `start` (RFC 3339).
    pub fn start_job_at(&self, name: &str, start: &str) {
        self.emu.send(
            "PATCH",
            &self.job_path(name),
            json!({"status": {"startTime": start, "active": 1}}),
        );
    }

    /// Runs pod `pod` of Job `name` for real: Pending, Running, then
    /// Succeeded or Failed with the container's exit code in
    /// `containerStatuses`; returns that exit code.
    pub fn run_pod(&self, name: &str, job: &Value, pod: &str) -> i32 {
        self.create_pod(name, job, pod, json!({"phase": "Pending"}));
        self.emu.send(
            "PATCH",
            &self.pod_path(pod),
            json!({"status": {"phase": "Running"}}),
        );
        let code = self.exec(job, pod);
        let phase = if code == 0 { "Succeeded" } else { "Failed" };
        self.emu.send(
            "PATCH",
            &self.pod_path(pod),
            json!({"status": {"phase": phase, "containerStatuses": [
                terminated(job, json!({"exitCode": code}))]}}),
        );
        code
    }

    /// The pod's first container, run on this machine (see the module
    /// documentation); its exit code (128 + signal when killed).
    pub fn exec(&self, job: &Value, pod: &str) -> i32 {
        let spec = &job["spec"]["template"]["spec"];
        let c = &spec["containers"][0];
        let root = self.dir.join("pods").join(pod);
        let mounts = self.empty_dirs(spec, c, &root);
        let map = |a: &str| -> String {
            if let Some(host) = self.installed.get(a) {
                return host.to_string_lossy().into_owned();
            }
            mounts
                .iter()
                .find_map(|(at, host)| {
                    let rest = a.strip_prefix(at.as_str())?;
                    (rest.is_empty() || rest.starts_with('/')).then(|| format!("{host}{rest}"))
                })
                .unwrap_or_else(|| a.to_owned())
        };
        let argv: Vec<String> = c["command"]
            .as_array()
            .expect("the container names its command")
            .iter()
            .map(|a| map(a.as_str().unwrap()))
            .collect();
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            // The image's CA bundle: this machine's, where a proxy signs
            // the package index's certificates.
            .envs(
                ["SSL_CERT_FILE", "SSL_CERT_DIR"]
                    .iter()
                    .filter_map(|k| Some((*k, std::env::var_os(k)?))),
            )
            .envs(self.image_env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(log_file(&self.dir.join(format!("{pod}.log"))))
            .stderr(log_file(&self.dir.join(format!("{pod}.err"))));
        for from in c["envFrom"].as_array().into_iter().flatten() {
            let name = from["secretRef"]["name"].as_str().unwrap_or_default();
            let keys = self.secrets.get(name).unwrap_or_else(|| {
                panic!("the pod reads Secret `{name}`, which the kubelet stand-in was not given")
            });
            cmd.envs(keys.iter().map(|(k, v)| (k, v)));
        }
        for e in c["env"].as_array().into_iter().flatten() {
            let name = e["name"].as_str().unwrap();
            let value = match (
                e["value"].as_str(),
                e["valueFrom"]["fieldRef"]["fieldPath"].as_str(),
            ) {
                (Some(v), _) => map(v),
                // The downward API, as the kubelet fills it: this machine
                // is the one node.
                (None, Some("spec.nodeName")) => NODE.to_owned(),
                (None, Some("metadata.name")) => pod.to_owned(),
                (None, other) => {
                    panic!("env {name} of pod {pod}: the kubelet stand-in fills no {other:?}")
                }
            };
            cmd.env(name, value);
        }
        let status = cmd
            .status()
            .unwrap_or_else(|e| panic!("the container of pod {pod} runs ({argv:?}): {e}"));
        // The kubelet keeps the container's output: stdout, then stderr.
        let log: String = ["log", "err"]
            .iter()
            .map(|ext| {
                std::fs::read_to_string(self.dir.join(format!("{pod}.{ext}"))).unwrap_or_default()
            })
            .collect();
        self.emu.put_log(pod, &log);
        std::os::unix::process::ExitStatusExt::signal(&status)
            .map_or_else(|| status.code().unwrap(), |signal| 128 + signal)
    }

    /// The container's `emptyDir` mounts: mount path -> a fresh folder.
    fn empty_dirs(&self, spec: &Value, c: &Value, root: &Path) -> Vec<(String, String)> {
        let empty: Vec<&str> = spec["volumes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|v| v.get("emptyDir").is_some())
            .filter_map(|v| v["name"].as_str())
            .collect();
        let mut mounts: Vec<(String, String)> = c["volumeMounts"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| empty.contains(&m["name"].as_str().unwrap_or_default()))
            .map(|m| {
                let host = root.join("volumes").join(m["name"].as_str().unwrap());
                std::fs::create_dir_all(&host)
                    .unwrap_or_else(|e| panic!("{}: {e}", host.display()));
                let at = m["mountPath"].as_str().unwrap().trim_end_matches('/');
                (at.to_owned(), host.to_string_lossy().into_owned())
            })
            .collect();
        // The deepest mount wins.
        mounts.sort_by_key(|(at, _)| std::cmp::Reverse(at.len()));
        mounts
    }

    /// The Job ends with `end`, `failed_pods` of its pods having failed.
    pub fn end_job(&self, name: &str, end: &JobEnd, failed_pods: usize) {
        let t = now();
        let status = match end {
            JobEnd::Complete => json!({"status": {
                "active": 0, "succeeded": 1, "failed": failed_pods, "completionTime": t, "conditions": [
                {"type": "SuccessCriteriaMet", "status": "True", "reason": "CompletionsReached", "lastTransitionTime": t},
                {"type": "Complete", "status": "True", "reason": "CompletionsReached", "lastTransitionTime": t}]}}),
            JobEnd::Failed(reason) => json!({"status": {
                "active": 0, "failed": failed_pods, "conditions": [
                {"type": "FailureTarget", "status": "True", "reason": reason, "message": format!("{reason} (played by the test)"), "lastTransitionTime": t},
                {"type": "Failed", "status": "True", "reason": reason, "message": format!("{reason} (played by the test)"), "lastTransitionTime": t}]}}),
        };
        self.emu.send("PATCH", &self.job_path(name), status);
    }

    /// Runs Job `name` to its end as the Job controller does: pods until one
    /// succeeds; an exit code the Job's `podFailurePolicy` names under
    /// `FailJob` fails the Job at once; any other failure counts against
    /// `backoffLimit`.
    pub fn run_job(&self, name: &str, job: &Value) -> JobEnd {
        self.run_job_from(name, job, 0)
    }

    /// [`Kubelet::run_job`] from pod number `first_pod` (the Job started
    /// already when it is not 0).
    pub fn run_job_from(&self, name: &str, job: &Value, first_pod: usize) -> JobEnd {
        let backoff = backoff_limit(job);
        if first_pod == 0 {
            self.start_job(name);
        }
        let mut failed = 0;
        for n in first_pod.. {
            let code = self.run_pod(name, job, &format!("{name}-p{n}"));
            let end = match code {
                0 => Some(JobEnd::Complete),
                c if fails_job(job, c) => Some(JobEnd::Failed("PodFailurePolicy")),
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
        unreachable!("a Job ends within backoffLimit + 1 failed pods")
    }

    /// A node drain evicts the Job's pod `p0` before its container starts
    /// (`DisruptionTarget`: ignored by the pod failure policy, not counted);
    /// the Job controller starts `p1`, which runs the Job to its end.
    pub fn evict_then_run(&self, name: &str, job: &Value) -> JobEnd {
        self.start_job(name);
        let pod = format!("{name}-p0");
        self.create_pod(name, job, &pod, json!({"phase": "Running"}));
        self.emu.send(
            "PATCH",
            &self.pod_path(&pod),
            json!({"status": {"phase": "Failed", "reason": "Evicted", "conditions": [
                {"type": "DisruptionTarget", "status": "True", "reason": "EvictionByEvictionAPI",
                 "message": "Eviction API: evicting"}]}}),
        );
        self.run_job_from(name, job, 1)
    }

    /// Every pod of the Job, started at `started`, is OOMKilled (exit 137)
    /// before its container can write anything, until `backoffLimit` fails
    /// the Job.
    pub fn oom_until_failed(&self, name: &str, job: &Value, started: &str) {
        let backoff = backoff_limit(job);
        self.start_job_at(name, started);
        for n in 0..=backoff {
            let pod = format!("{name}-p{n}");
            self.create_pod(name, job, &pod, json!({"phase": "Running"}));
            self.emu.send(
                "PATCH",
                &self.pod_path(&pod),
                json!({"status": {"phase": "Failed", "containerStatuses": [
                    terminated(job, json!({"exitCode": 137, "reason": "OOMKilled"}))]}}),
            );
        }
        self.end_job(name, &JobEnd::Failed("BackoffLimitExceeded"), backoff + 1);
    }
}

fn log_file(path: &Path) -> std::fs::File {
    std::fs::File::create(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn backoff_limit(job: &Value) -> usize {
    let limit = job["spec"]["backoffLimit"].as_u64();
    // Kubernetes' default when the Job names none.
    limit.unwrap_or(6) as usize
}

/// The first container's status, terminated with `state`.
fn terminated(job: &Value, state: Value) -> Value {
    json!({"name": job["spec"]["template"]["spec"]["containers"][0]["name"], "ready": false,
           "restartCount": 0, "image": job["spec"]["template"]["spec"]["containers"][0]["image"],
           "imageID": "", "state": {"terminated": state}})
}

/// Whether the Job's `podFailurePolicy` fails the Job at once for exit
/// `code` of its first container (a `FailJob` rule `onExitCodes`).
fn fails_job(job: &Value, code: i32) -> bool {
    let container = &job["spec"]["template"]["spec"]["containers"][0]["name"];
    let rules = job["spec"]["podFailurePolicy"]["rules"].as_array();
    rules.into_iter().flatten().any(|rule| {
        let on = &rule["onExitCodes"];
        let values = on["values"].as_array().into_iter().flatten();
        let listed = values
            .filter_map(Value::as_i64)
            .any(|v| v == i64::from(code));
        let applies = on["containerName"].is_null() || on["containerName"] == *container;
        rule["action"] == "FailJob"
            && applies
            && match on["operator"].as_str() {
                Some("In") => listed,
                Some("NotIn") => !listed,
                _ => false,
            }
    })
}
