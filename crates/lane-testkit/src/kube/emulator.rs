//! kmock's `KubernetesEmulator` behind the thin wrapper
//! `servers/kube_emulator.py` (stamps `resourceVersion`/`uid`, honours label
//! selectors, answers `NotFound` / `AlreadyExists` with the real reasons),
//! on a loopback port it binds and announces; and a kubeconfig for it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::process::{Announce, ServerProcess};
use crate::servers::launcher;
use crate::tools;

/// The emulator's two test hooks (not API server behaviour; each stands in
/// for something a real cluster does).
#[derive(Debug, Clone, Default)]
pub struct Hooks {
    /// Every create waits this long (a slow API server, so a test can kill
    /// lane between creates).
    pub create_delay: Duration,
    /// While this file exists, every watch ends at its next event with a
    /// `410 Expired` (a watch whose resourceVersion fell out of the window).
    pub expire_watches_while: Option<PathBuf>,
}

/// The emulated API server, killed on drop.
#[derive(Debug)]
pub struct KubeEmulator {
    server: ServerProcess,
    namespace: String,
    selector: String,
    kubeconfig: PathBuf,
}

impl KubeEmulator {
    /// Starts the emulator and writes `dir/kubeconfig` for it (namespace
    /// `namespace`, a dummy token, no TLS). Every request it answers is
    /// logged to `dir/requests.log` (`<time> <user agent> <METHOD> <path>`).
    /// [`KubeEmulator::jobs`] and [`KubeEmulator::pods`] list `namespace`
    /// by the equality label `selector` (`k=v,k2=v2`).
    pub fn start(dir: &Path, namespace: &str, selector: &str, hooks: Hooks) -> KubeEmulator {
        let python = tools::venv_python();
        let has_kmock = Command::new(&python)
            .args(["-c", "import kmock"])
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(
            has_kmock,
            "kmock (the Kubernetes API emulator) is missing from .tools/venv: run `./just tools`"
        );
        let mut cmd = Command::new(python);
        cmd.arg(launcher("kube_emulator.py"))
            .env(
                "KMOCK_CREATE_DELAY_S",
                hooks.create_delay.as_secs_f64().to_string(),
            )
            .env("KMOCK_REQUEST_LOG", dir.join("requests.log"))
            .env(
                "KMOCK_EXPIRE_FILE",
                hooks.expire_watches_while.unwrap_or_default(),
            );
        let server = ServerProcess::start(
            "kube emulator (kmock)",
            cmd,
            Announce {
                after: "kube emulator listening on",
                within: Duration::from_secs(30),
            },
        );
        let kubeconfig = dir.join("kubeconfig");
        std::fs::write(
            &kubeconfig,
            format!(
                "apiVersion: v1\nkind: Config\nclusters:\n- name: kmock\n  cluster: {{server: \"{}\"}}\nusers:\n- name: t\n  user: {{token: dummy}}\ncontexts:\n- name: kmock\n  context: {{cluster: kmock, user: t, namespace: {namespace}}}\ncurrent-context: kmock\n",
                server.url()
            ),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", kubeconfig.display()));
        KubeEmulator {
            server,
            namespace: namespace.to_owned(),
            selector: selector.to_owned(),
            kubeconfig,
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        self.server.url()
    }

    /// The kubeconfig written for it (give it as `KUBECONFIG`).
    pub fn kubeconfig(&self) -> &Path {
        &self.kubeconfig
    }

    /// The namespace the kubeconfig names.
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// `GET path` as JSON; panics on any failure.
    pub fn get(&self, path: &str) -> Value {
        self.get_with(path, &[])
    }

    fn get_with(&self, path: &str, query: &[(&str, &str)]) -> Value {
        let mut r = ureq::get(format!("{}{path}", self.base()))
            .query_pairs(query.iter().copied())
            .call()
            .unwrap_or_else(|e| panic!("GET {path} {query:?}: {e}"));
        serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap()
    }

    /// `POST` (JSON), `DELETE`, or any other method as a JSON merge patch;
    /// panics on any failure.
    pub fn send(&self, method: &str, path: &str, body: Value) {
        let url = format!("{}{path}", self.base());
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

    /// Hands the emulator pod `pod`'s container output, as a kubelet keeps
    /// it: the pod's `log` subresource answers it as text from then on.
    pub fn put_log(&self, pod: &str, text: &str) {
        let path = format!("/testkit/v1/namespaces/{}/pods/{pod}/log", self.namespace);
        ureq::put(&format!("{}{path}", self.base()))
            .header("Content-Type", "text/plain")
            .send(text)
            .unwrap_or_else(|e| panic!("PUT {path}: {e}"));
    }

    /// The selected Jobs: name -> Job.
    pub fn jobs(&self) -> BTreeMap<String, Value> {
        self.list("/apis/batch/v1", "jobs")
    }

    /// The selected pods: name -> Pod.
    pub fn pods(&self) -> BTreeMap<String, Value> {
        self.list("/api/v1", "pods")
    }

    /// The selected objects of `kind` in API group path `group`.
    pub fn list(&self, group: &str, kind: &str) -> BTreeMap<String, Value> {
        let v = self.get_with(
            &format!("{group}/namespaces/{}/{kind}", self.namespace),
            &[("labelSelector", &self.selector)],
        );
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
