//! `lane mint --backend kube` end to end against a third-party emulated API
//! server on loopback: kmock's `KubernetesEmulator` (PyPI, installed by
//! `./just tools`) behind the test kit's thin wrapper
//! ([`lane_testkit::KubeEmulator`]: stamps `resourceVersion`/`uid`, honours
//! label selectors, answers `NotFound` / `AlreadyExists` with the real
//! reasons).
//!
//! No kubelet or Job controller exists there, so the kit's stand-in plays
//! both ([`lane_testkit::Kubelet`]): it reads each Job the way a node would
//! and runs its pod for real: the container's command (lane's own `agent`,
//! with the built binary standing in for the init container's copy and a
//! fresh folder for each `emptyDir`), the Job's environment and the store
//! Secret's keys. The agents fetch the staged wheel through a presigned URL
//! and put their result bundles in a real store (moto's S3 on loopback, or a
//! folder), and `lane mint` gathers every slot from there. What the test
//! stands in for is named at each step: pod phases, exit codes, evictions,
//! OOM kills, unschedulable pods and the Job's conditions are written
//! through the API as the Job controller would write them.

use super::{code, stderr, stdout, Redact};
use lane_testkit::time::{ago, now};
use lane_testkit::{Hooks, JobEnd};
use std::process::Command;
use std::time::{Duration, Instant};

mod cells;
mod harness;
mod source;

use harness::*;

const NS: &str = "mints";
const LANE: &str = "0.93.3";
const S3_SECRET: &str = "kube-s3-secret-never-printed-71c3";

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
    let emu = emulator(d.path(), Hooks::default());
    let kubelet = kubelet(&emu, d.path()).secret(
        "lane-store",
        &[
            ("AWS_ACCESS_KEY_ID", "testing"),
            ("AWS_SECRET_ACCESS_KEY", S3_SECRET),
        ],
    );
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
            // The environment the agent saw: the node the pod names
            // (NODE_NAME), the upstream's version from the wheel.
            assert_eq!(
                record["environment"]["node"], "lane-testkit-node",
                "{record}"
            );
            assert_eq!(record["environment"]["upstream"], "0.93.3", "{record}");
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
    // The run joined the lane's history in the same bucket.
    let history = s3.list("history/0.93/runs/").unwrap();
    assert_eq!(history.len(), 1, "{history:?}");
}

#[test]
fn a_crashed_pod_is_retried_by_its_job_and_both_attempts_keep_their_bundles() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), true, &folder_store(d.path()));
    let emu = emulator(d.path(), Hooks::default());
    let kubelet = kubelet(&emu, d.path());
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
    let emu = emulator(
        d.path(),
        Hooks {
            create_delay: Duration::from_millis(400),
            ..Hooks::default()
        },
    );
    let kubelet = kubelet(&emu, d.path());
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
    let emu = emulator(d.path(), Hooks::default());
    let kubelet = kubelet(&emu, d.path());
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
    // Regression: a failed Job's seconds were recorded as the mint's wall_s.
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), false, &folder_store(d.path()));
    let emu = emulator(d.path(), Hooks::default());
    let kubelet = kubelet(&emu, d.path());
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
fn a_pod_that_left_no_bundle_is_named_by_its_logs_text_not_the_pods_json() {
    // Regression: the emulator answered `pods/<pod>/log` with the Pod's
    // JSON, so a crashed slot's tail read `{"apiVersion": "v1", ...}`.
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), false, &folder_store(d.path()));
    let emu = emulator(d.path(), Hooks::default());
    let kubelet = kubelet(&emu, d.path());
    let mut lane = Lane(spawn_lane(d.path(), "run"));
    let jobs = wait_jobs(&emu, "four Jobs", |j| j.len() == 4);
    let broken_id = "0.93.3/cell01/L4/r2/a1";
    // A store the pod cannot open (no folder can be made under /proc; a
    // path under the test's /tmp would land in the pod's own /tmp volume).
    let unusable = "/proc/lane-no-store";
    for (name, job) in &jobs {
        let mut job = job.clone();
        if id_of(&job) == broken_id {
            let command = job["spec"]["template"]["spec"]["containers"][0]["command"]
                .as_array_mut()
                .unwrap();
            let at = command.iter().position(|a| a == "--store").unwrap();
            command[at + 1] = unusable.into();
        }
        kubelet.run_job(name, &job);
    }
    let o = lane.wait(d.path(), "run", Duration::from_secs(60));
    assert_eq!(code(&o), 7, "{}\n{}", stdout(&o), stderr(&o));
    let record = read_json(
        &d.path()
            .join(format!("out/lanes/{LANE}/results/cell01/L4/r2/mint.json")),
    );
    assert_eq!(record["status"], "crashed", "{record}");
    let reason = record["reason"].as_str().unwrap();
    assert!(reason.contains("no result bundle"), "{reason}");
    let tail = record["stderr_tail"].as_str().unwrap_or_default();
    assert!(
        tail.contains(unusable),
        "the agent's own words: {tail}\n{record}"
    );
    assert!(!tail.contains("apiVersion"), "{tail}");
}

#[test]
fn a_mint_unschedulable_past_the_limit_is_named_with_its_gpu_class() {
    let d = tempfile::tempdir().unwrap();
    write_lane(
        d.path(),
        false,
        &format!("{}unschedulableAfterS: 1\n", folder_store(d.path())),
    );
    let emu = emulator(d.path(), Hooks::default());
    let kubelet = kubelet(&emu, d.path());
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
    let emu = emulator(
        d.path(),
        Hooks {
            expire_watches_while: Some(expire.clone()),
            ..Hooks::default()
        },
    );
    let kubelet = kubelet(&emu, d.path());
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

#[test]
fn lane_cancel_deletes_the_lanes_jobs_and_pods_and_the_mint_ends_cancelled() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), false, &folder_store(d.path()));
    let emu = emulator(d.path(), Hooks::default());
    let kubelet = kubelet(&emu, d.path());
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
    // A Job's name ends in a digest of its spec, which names the test's folder.
    let redact = Redact::new()
        .dir(d.path(), "<TMP>")
        .seconds()
        .pattern(r"(lane-[0-9a-z-]+-a\d+)-[0-9a-f]{8}", "${1}-<HASH>");
    insta::assert_snapshot!("cancel_dry_run_text", redact.apply(&stdout(&o)));
    assert_eq!(emu.jobs().len(), 4, "a dry run deleted something");
    let o = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(["cancel", LANE, "--kube-config", "kube.yaml", "--json"])
        .current_dir(d.path())
        .env("KUBECONFIG", d.path().join("kubeconfig"))
        .env_remove("KUBERNETES_SERVICE_HOST")
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("cancel_json", redact.json(&stdout(&o)));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["jobs"].as_array().unwrap().len(), 4, "{v}");
    assert_eq!(v["pods"].as_array().unwrap().len(), 2, "{v}");
    assert!(emu.jobs().is_empty() && emu.pods().is_empty());
    // The mint sees its Jobs go and ends, naming each as deleted, and the
    // lane as cancelled (regression: a `lane cancel` from another terminal
    // left the running `lane mint` reporting the lane failed).
    let o = lane.wait(d.path(), "run", Duration::from_secs(60));
    assert_eq!(code(&o), 7, "{}\n{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("it was cancelled before every mint was in"),
        "{}",
        stderr(&o)
    );
    let summary = read_json(
        &d.path()
            .join(format!("out/lanes/{LANE}/results/summary.json")),
    );
    assert_eq!(
        (&summary["cancelled"], &summary["green"]),
        (&serde_json::json!(true), &serde_json::json!(false)),
        "{summary}"
    );
    let out = stdout(&o);
    insta::assert_snapshot!("mint_kube_cancelled_text", redact.apply(&out));
    for id in mint_ids(&jobs).keys() {
        let slot = id.trim_end_matches("/a1");
        for prefix in [format!("  {slot} "), format!("  {id} ")] {
            let line = out
                .lines()
                .find(|l| l.starts_with(&prefix))
                .unwrap_or_else(|| panic!("no line for {prefix}: {out}"));
            assert!(line.contains("deleted before it finished"), "{line}");
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
            line.contains(&format!("Job {name}: deleted before it finished")),
            "{line}"
        );
        {}
    }
}
