//! The lane side of the kube tests: the lane and kube files, `lane mint`
//! as a child, waits, and the emulator and kubelet set up for lane's Jobs
//! (the servers themselves are the test kit's).

use super::{LANE, NS};
use lane_testkit::{Hooks, KubeEmulator, Kubelet};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

/// The emulator for lane's Jobs and pods: namespace [`NS`], the lane's
/// label; `dir/kubeconfig` points at it.
pub(super) fn emulator(dir: &Path, hooks: Hooks) -> KubeEmulator {
    KubeEmulator::start(dir, NS, &format!("lane.dev/lane={LANE}"), hooks)
}

/// The kubelet stand-in for lane's pods: the built `lane` is what the init
/// container copies to `/lane/bin/lane`, and the mint image has uv.
pub(super) fn kubelet<'a>(emu: &'a KubeEmulator, dir: &Path) -> Kubelet<'a> {
    Kubelet::new(emu, dir)
        .installed("/lane/bin/lane", env!("CARGO_BIN_EXE_lane"))
        .image_env("LANE_UV", lane_testkit::tools::uv())
}

/// A quick mint: it writes the wheel's version it sees (or `none`) as an
/// artifact and a minted report. `crash_once` crashes (SIGSEGV) the first
/// run of each slot.
pub(super) fn mint_script(dir: &Path, crash_once: bool) -> String {
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
/// is appended to `kube.yaml` (which names no store: see [`folder_store`]).
pub(super) fn write_lane(dir: &Path, crash_once: bool, kube_extra: &str) {
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
pub(super) fn folder_store(dir: &Path) -> String {
    format!("store: \"file://{}\"\n", dir.join("store").display())
}

/// `lane mint` on the kube backend, as a child (stdout and stderr to files).
pub(super) fn spawn_lane(dir: &Path, tag: &str) -> Child {
    spawn_lane_with(dir, tag, &[], &[])
}

pub(super) fn spawn_lane_with(
    dir: &Path,
    tag: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Child {
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
pub(super) struct Lane(pub(super) Child);

impl Drop for Lane {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Lane {
    pub(super) fn wait(&mut self, dir: &Path, tag: &str, limit: Duration) -> Output {
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
pub(super) fn wait_jobs(
    emu: &KubeEmulator,
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
pub(super) fn wait_stderr(dir: &Path, tag: &str, needle: &str, n: usize) {
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

pub(super) fn mint_ids(jobs: &BTreeMap<String, serde_json::Value>) -> BTreeMap<String, usize> {
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

pub(super) fn id_of(job: &serde_json::Value) -> &str {
    job["metadata"]["annotations"]["lane.dev/mint-id"]
        .as_str()
        .unwrap()
}

pub(super) fn read_json(p: &Path) -> serde_json::Value {
    serde_json::from_str(
        &std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
    )
    .unwrap()
}

/// A wheel made by hand (no build backend is reachable offline): package
/// `lanewheel` whose `VERSION` the mints print.
pub(super) fn tiny_wheel() -> (String, Vec<u8>) {
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

/// LIST requests of Jobs or pods by the lane's selector that lane sent (the
/// test's own requests go out as `ureq/...`).
pub(super) fn list_requests(dir: &Path) -> usize {
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
