//! `lane mint` on the local backend, through the binary: the whole lane,
//! the concurrency limit, retries, and `kill -9` at random points.

use super::{code, lane, stderr, stdout, Redact};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A lane of `cells` quick mints (×2 repeats) that log every run to `runs.log`
/// and their start/end times to `spans.log`.
pub(crate) fn write_lane(dir: &Path, cells: usize, concurrency: u32, extra_cells: &str) {
    std::fs::create_dir_all(dir.join("lanes")).unwrap();
    let log = dir.join("runs.log");
    let spans = dir.join("spans.log");
    let mut text = format!(
        "version: \"0.93.3\"\nupstream: {{repo: ./up}}\nbase: v0.93.2\nmint:\n  gpus: [L4]\n  cold_repeats: 2\n  timeout_s: 30\n  concurrency: {concurrency}\n  retry: {{crashed: 1, resource: 1, resource_backoff_s: 0}}\n  cells:\n"
    );
    let script = format!(
        r#"echo "$LANE_MINT_ID" >> {log}; echo "start $(date +%s.%N)" >> {spans}; sleep 0.15; echo "end $(date +%s.%N)" >> {spans}; echo cell > "$LANE_ARTIFACTS_DIR/cell.bin"; printf '{{"status":"minted","recipe":"dynamo","phases":{{"load":0.1}}}}' > "$LANE_REPORT_PATH""#,
        log = log.display(),
        spans = spans.display()
    );
    for i in 0..cells {
        text.push_str(&format!(
            "    - name: cell{i:02}\n      recipe: dynamo\n      command: [sh, -c, {}]\n",
            serde_json::to_string(&script).unwrap()
        ));
    }
    text.push_str(extra_cells);
    std::fs::write(dir.join("lanes/0.93.3.yaml"), text).unwrap();
}

pub(crate) fn runs(dir: &Path) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for l in std::fs::read_to_string(dir.join("runs.log"))
        .unwrap_or_default()
        .lines()
    {
        *m.entry(l.to_owned()).or_default() += 1;
    }
    m
}

fn summary(dir: &Path) -> serde_json::Value {
    let s = std::fs::read_to_string(dir.join("out/lanes/0.93.3/results/summary.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&s).unwrap();
    for m in v["mints"].as_array_mut().unwrap() {
        m.as_object_mut().unwrap().remove("wall_s");
    }
    v
}

#[test]
fn a_lane_mints_every_cell_gpu_and_repeat_and_gathers_results() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 3, 2, "");
    let o = lane(d.path(), &["mint", "0.93.3", "--dry-run", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("mint_dry_run_json", stdout(&o));
    let plan: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(plan["mints"].as_array().unwrap().len(), 6);
    assert_eq!(plan["mints"][0], "0.93.3/cell00/L4/r1/a1");
    let o = lane(d.path(), &["mint", "0.93.3", "--dry-run"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("mint_dry_run_text", stdout(&o));
    assert!(!d.path().join("out").exists(), "a dry run writes nothing");

    // Seconds measured, and the test's folder in a mint's.
    let redact =
        Redact::new()
            .dir(d.path(), "<TMP>")
            .seconds()
            .keys(&["wall_s", "pid", "retry_after"]);
    let o = lane(d.path(), &["mint", "0.93.3"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("6 mints, green"), "{}", stdout(&o));
    insta::assert_snapshot!("mint_text", redact.apply(&stdout(&o)));
    let s = summary(d.path());
    assert_eq!(s["green"], true);
    for cell in ["cell00", "cell01", "cell02"] {
        for r in ["r1", "r2"] {
            let slot = d
                .path()
                .join(format!("out/lanes/0.93.3/results/{cell}/L4/{r}"));
            assert!(slot.join("report.json").is_file(), "{}", slot.display());
            let m: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(slot.join("mint.json")).unwrap())
                    .unwrap();
            assert_eq!(m["status"], "minted");
        }
    }
    // A second `lane mint` adopts what exists and runs nothing.
    let before = runs(d.path());
    let o = lane(d.path(), &["mint", "0.93.3", "--json"]);
    assert_eq!(code(&o), 0);
    assert_eq!(runs(d.path()), before);
    insta::assert_snapshot!("mint_json", redact.json(&stdout(&o)));
    let o = lane(d.path(), &["status", "0.93.3"]);
    assert_eq!(code(&o), 0);
    insta::assert_snapshot!("status_text", redact.apply(&stdout(&o)));
    let o = lane(d.path(), &["status", "0.93.3", "--json"]);
    assert_eq!(code(&o), 0);
    insta::assert_snapshot!("status_json", redact.json(&stdout(&o)));
    let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 6);
    assert!(rows
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["state"] == "gathered"));
}

#[test]
fn the_concurrency_limit_is_respected() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 4, 2, "");
    let o = lane(d.path(), &["mint", "0.93.3"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut events: Vec<(f64, i32)> = std::fs::read_to_string(d.path().join("spans.log"))
        .unwrap()
        .lines()
        .map(|l| {
            let (k, t) = l.split_once(' ').unwrap();
            (t.parse().unwrap(), if k == "start" { 1 } else { -1 })
        })
        .collect();
    events.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap().then(a.1.cmp(&b.1)));
    let (mut now, mut peak) = (0, 0);
    for (_, delta) in events {
        now += delta;
        peak = peak.max(now);
    }
    assert_eq!(peak, 2, "at most 2 mints at once, and the limit was used");
}

#[test]
fn crashes_are_retried_once_and_refusals_never_and_the_lane_is_not_green() {
    let d = tempfile::tempdir().unwrap();
    let refuse = serde_json::to_string(
        r#"printf '{"status":"refused","recipe":"dynamo"}' > "$LANE_REPORT_PATH""#,
    )
    .unwrap();
    let extra = format!(
        "    - name: crashy\n      recipe: dynamo\n      command: [sh, -c, 'echo boom >&2; exit 3']\n    - name: refuser\n      recipe: dynamo\n      command: [sh, -c, {refuse}]\n"
    );
    let extra = extra.as_str();
    write_lane(d.path(), 1, 4, extra);
    let o = lane(d.path(), &["mint", "0.93.3", "--json"]);
    assert_eq!(code(&o), 7, "not green: {}", stderr(&o));
    let s: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let by_slot: BTreeMap<String, (u64, String)> = s["mints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["slot"].as_str().unwrap().to_owned(),
                (
                    m["attempt"].as_u64().unwrap(),
                    m["status"].as_str().unwrap().to_owned(),
                ),
            )
        })
        .collect();
    assert_eq!(by_slot["0.93.3/crashy/L4/r1"], (2, "crashed".to_owned()));
    assert_eq!(by_slot["0.93.3/refuser/L4/r1"], (1, "refused".to_owned()));
    assert_eq!(by_slot["0.93.3/cell00/L4/r1"], (1, "minted".to_owned()));
    let m: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            d.path()
                .join("out/lanes/0.93.3/results/crashy/L4/r1/mint.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        m["attempts_wall_s"].as_array().unwrap().len(),
        2,
        "both attempts keep their seconds"
    );
    assert!(
        !d.path()
            .join("out/lanes/0.93.3/results/crashy/L4/r1/report.json")
            .exists(),
        "no report is absent, not zeros"
    );
}

#[test]
fn kill_9_at_random_points_never_duplicates_a_mint_nor_loses_a_result() {
    // Regression: a lane killed after recording a submission, before its agent started, counted it crashed.
    // The reference: one uninterrupted run.
    let reference = tempfile::tempdir().unwrap();
    write_lane(reference.path(), 10, 4, "");
    assert_eq!(code(&lane(reference.path(), &["mint", "0.93.3"])), 0);
    let want = summary(reference.path());

    let mut seed: u64 = 0x9e3779b97f4a7c15;
    for trial in 0..4 {
        let d = tempfile::tempdir().unwrap();
        write_lane(d.path(), 10, 4, "");
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut kills = 0;
        loop {
            assert!(Instant::now() < deadline, "trial {trial} did not finish");
            let mut child = Command::new(env!("CARGO_BIN_EXE_lane"))
                .args(["mint", "0.93.3"])
                .current_dir(d.path())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let wait = Duration::from_millis(20 + seed % 250);
            std::thread::sleep(wait);
            match child.try_wait().unwrap() {
                Some(status) => {
                    assert_eq!(status.code(), Some(0), "trial {trial}");
                    break;
                }
                None if kills < 12 => {
                    child.kill().unwrap(); // SIGKILL
                    child.wait().unwrap();
                    kills += 1;
                }
                None => {
                    assert_eq!(child.wait().unwrap().code(), Some(0));
                    break;
                }
            }
        }
        // Every attempt ran at most once; every slot has its result.
        for (id, n) in runs(d.path()) {
            assert_eq!(
                n, 1,
                "trial {trial}: {id} ran {n} times after {kills} kills"
            );
        }
        assert_eq!(summary(d.path()), want, "trial {trial} after {kills} kills");
    }
}

#[test]
fn regression_a_cell_removed_from_the_lane_file_between_runs_is_left_alone() {
    // The local backend looked up every stored row's cell in the lane file
    // and would have panicked on one the file no longer names.
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 2, 2, "");
    assert_eq!(code(&lane(d.path(), &["mint", "0.93.3"])), 0);
    write_lane(d.path(), 1, 2, "");
    let o = lane(d.path(), &["mint", "0.93.3", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let s: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let slots: Vec<&str> = s["mints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["slot"].as_str().unwrap())
        .collect();
    assert_eq!(slots, ["0.93.3/cell00/L4/r1", "0.93.3/cell00/L4/r2"]);
}

#[test]
fn regression_narrowed_mints_into_one_folder_keep_every_slot_in_the_summary() {
    // `--cell cell00` then `--cell cell01` into one output: summary.json
    // kept the second selection only, and the report listed the first's
    // minted slots as missing.
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 2, 2, "");
    for cell in ["cell00", "cell01"] {
        let o = lane(d.path(), &["mint", "0.93.3", "--cell", cell]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
    let slots: Vec<String> = summary(d.path())["mints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| format!("{} {}", m["slot"].as_str().unwrap(), m["status"]))
        .collect();
    assert_eq!(
        slots,
        [
            "0.93.3/cell00/L4/r1 \"minted\"",
            "0.93.3/cell00/L4/r2 \"minted\"",
            "0.93.3/cell01/L4/r1 \"minted\"",
            "0.93.3/cell01/L4/r2 \"minted\"",
        ]
    );
    let o = lane(d.path(), &["report", "0.93.3"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(d.path().join("out/lanes/0.93.3/report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(r["disagreements"], serde_json::Value::Null, "{r}");
}

#[test]
fn the_kube_backend_dry_run_prints_one_job_per_mint_and_creates_nothing() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 2, 2, "");
    std::fs::write(
        d.path().join("kube.yaml"),
        "laneImage: lane:test\nmintImage: mint:test\n",
    )
    .unwrap();
    let o = lane(
        d.path(),
        &[
            "mint",
            "0.93.3",
            "--backend",
            "kube",
            "--kube-config",
            "kube.yaml",
            "--dry-run",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let yaml = stdout(&o);
    assert_eq!(yaml.matches("kind: Job").count(), 4, "{yaml}");
    // A Job's spec digest covers its command, which names the test's folder.
    let redact = Redact::new()
        .dir(d.path(), "<TMP>")
        .pattern(r#"(lane\.dev/spec"?: "?)[0-9a-f]{16}"#, "${1}<SPEC>");
    insta::assert_snapshot!("mint_kube_dry_run_yaml", redact.apply(&yaml));
    assert!(yaml.contains("lane.dev/mint-id: 0.93.3/cell00/L4/r1/a1"));
    assert!(!d.path().join("out").exists());
    // Regression: `--dry-run --json` printed YAML. It prints one JSON
    // document: a `v1` List of the same Jobs.
    let o = lane(
        d.path(),
        &[
            "mint",
            "0.93.3",
            "--backend",
            "kube",
            "--kube-config",
            "kube.yaml",
            "--dry-run",
            "--json",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("mint_kube_dry_run_json", redact.json(&stdout(&o)));
    let list: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON document");
    assert_eq!(list["kind"], "List");
    let items = list["items"].as_array().unwrap();
    assert_eq!(items.len(), 4);
    assert!(items.iter().all(|j| j["kind"] == "Job"));
    // A credential in storeEnv would be plain text in every Job: refused,
    // named, and its value never printed.
    // Regression, too: a `user:password@` in the store's URL or a storeEnv
    // value was copied into every Job and printed by the dry run.
    for (config, at, secret) in [
        (
            "storeEnv: {AWS_SECRET_ACCESS_KEY: plain-sekrit-42}\n",
            "storeEnv.AWS_SECRET_ACCESS_KEY",
            "plain-sekrit-42",
        ),
        (
            "store: \"s3://KEYID:url-sekrit-43@lanes/ci\"\n",
            "store carries credentials",
            "url-sekrit-43",
        ),
        (
            "storeEnv: {LANE_S3_ENDPOINT: \"https://ci:url-sekrit-43@s3.example\"}\n",
            "storeEnv.LANE_S3_ENDPOINT carries credentials",
            "url-sekrit-43",
        ),
    ] {
        std::fs::write(
            d.path().join("bad-kube.yaml"),
            format!("laneImage: lane:test\nmintImage: mint:test\n{config}"),
        )
        .unwrap();
        let o = lane(
            d.path(),
            &[
                "mint",
                "0.93.3",
                "--backend",
                "kube",
                "--kube-config",
                "bad-kube.yaml",
                "--dry-run",
            ],
        );
        assert_eq!(code(&o), 3, "{}", stderr(&o));
        assert!(
            stderr(&o).contains("bad-kube.yaml") && stderr(&o).contains(at),
            "{}",
            stderr(&o)
        );
        assert!(
            !(stdout(&o) + &stderr(&o)).contains(secret),
            "{}",
            stdout(&o)
        );
    }
    let o = lane(
        d.path(),
        &[
            "mint",
            "0.93.3",
            "--backend",
            "kube",
            "--kube-config",
            "kube.yaml",
            "--dry-run",
            "--store",
            "s3://KEYID:url-sekrit-43@lanes/ci",
        ],
    );
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(!(stdout(&o) + &stderr(&o)).contains("url-sekrit-43"));
    // Without --dry-run it needs a store (where pods put their bundles)...
    let live = [
        "mint",
        "0.93.3",
        "--backend",
        "kube",
        "--kube-config",
        "kube.yaml",
    ];
    let o = lane(d.path(), &live);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("needs `store:`"), "{}", stderr(&o));
    // ... and a cluster: with none configured it fails plainly, having
    // created nothing.
    std::fs::write(
        d.path().join("kube.yaml"),
        format!(
            "laneImage: lane:test\nmintImage: mint:test\nstore: \"file://{}\"\n",
            d.path().join("store").display()
        ),
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args([
            "mint",
            "0.93.3",
            "--backend",
            "kube",
            "--kube-config",
            "kube.yaml",
        ])
        .current_dir(d.path())
        .env("KUBECONFIG", d.path().join("no-such-kubeconfig"))
        .env_remove("KUBERNETES_SERVICE_HOST")
        .output()
        .unwrap();
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("Kubernetes API"), "{}", stderr(&o));
    let o = lane(
        d.path(),
        &[
            "cancel",
            "0.93.3",
            "--kube-config",
            "kube.yaml",
            "--dry-run",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("lane.dev/lane=0.93.3"),
        "{}",
        stdout(&o)
    );
}

/// `lane agent` of one mint of cell `c` in `dir`, running `script` with `flag`.
fn agent(at: &Path, dir: &Path, flag: &str, script: &str) -> std::process::Output {
    let dir = dir.to_str().unwrap();
    let id = "0.93.3/c/L4/r1/a1";
    let args = [
        "agent",
        "--mint-dir",
        dir,
        "--id",
        id,
        "--recipe",
        "dynamo",
        flag,
    ];
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--", "sh", "-c", script]);
    lane(at, &all)
}

#[test]
fn the_agent_exits_by_outcome_for_pod_failure_policies() {
    let d = tempfile::tempdir().unwrap();
    let redact = Redact::new().dir(d.path(), "<TMP>").seconds();
    let mut said = String::new();
    for (i, (status, want)) in [
        ("minted", 0),
        ("refused", 10),
        ("failed", 11),
        ("crashed", 1),
    ]
    .into_iter()
    .enumerate()
    {
        let script = format!(
            r#"echo cell > "$LANE_ARTIFACTS_DIR/cell.bin"; printf '{{"status":"{status}","recipe":"dynamo"}}' > "$LANE_REPORT_PATH""#
        );
        let dir = d.path().join(format!("m{i}"));
        let o = agent(d.path(), &dir, "--exit-by-outcome", &script);
        assert_eq!(code(&o), want, "{status}: {}", stderr(&o));
        assert!(
            dir.join("result.json").is_file(),
            "{status}: the result is written first"
        );
        said.push_str(&redact.apply(&stdout(&o)));
    }
    insta::assert_snapshot!("agent_text", said);

    // The same result as a script reads it: the attempt record the agent
    // wrote, with what this run measured named.
    let o = agent(
        d.path(),
        &d.path().join("json"),
        "--json",
        r#"echo cell > "$LANE_ARTIFACTS_DIR/cell.bin"; printf '{"status":"minted","recipe":"dynamo","phases":{"load":0.5}}' > "$LANE_REPORT_PATH""#,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let json_redact = Redact::new().dir(d.path(), "<TMP>").keys(&[
        "wall_s",
        "started",
        "ended",
        "started_at",
        "ended_at",
        "host",
        "isolation",
    ]);
    insta::assert_snapshot!("agent_json", json_redact.json(&stdout(&o)));
}

#[test]
fn ctrl_c_stops_every_agent_keeps_the_state_and_a_rerun_finishes() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("lanes")).unwrap();
    let pids = d.path().join("pids");
    let script = format!(
        r#"echo $$ >> {}; if [ -e {} ]; then sleep 30; fi; echo cell > "$LANE_ARTIFACTS_DIR/cell.bin"; printf '{{"status":"minted","recipe":"dynamo"}}' > "$LANE_REPORT_PATH""#,
        pids.display(),
        d.path().join("slow").display()
    );
    std::fs::write(d.path().join("slow"), "").unwrap();
    let slow = serde_json::to_string(&script).unwrap();
    std::fs::write(
        d.path().join("lanes/0.93.3.yaml"),
        format!("version: \"0.93.3\"\nupstream: {{repo: ./up}}\nbase: v0.93.2\nmint:\n  gpus: [L4]\n  cold_repeats: 2\n  concurrency: 2\n  cells:\n    - {{name: slow, recipe: dynamo, command: [sh, -c, {slow}]}}\n"),
    )
    .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(["mint", "0.93.3"])
        .current_dir(d.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::fs::read_to_string(&pids)
        .unwrap_or_default()
        .lines()
        .count()
        < 2
    {
        assert!(Instant::now() < deadline, "the mints did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"));
    std::thread::sleep(Duration::from_millis(200));
    for pid in std::fs::read_to_string(&pids).unwrap().lines() {
        let alive = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            !s.rsplit_once(')')
                .is_some_and(|(_, r)| r.trim_start().starts_with('Z'))
        });
        assert!(!alive, "mint process {pid} survived Ctrl-C");
    }
    let o = lane(d.path(), &["status", "0.93.3", "--json"]);
    let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 2, "the state was kept");
    // Run again: the stopped attempts start afresh (not counted as crashes).
    std::fs::remove_file(d.path().join("slow")).unwrap();
    let o = lane(d.path(), &["mint", "0.93.3", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let s: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for m in s["mints"].as_array().unwrap() {
        assert_eq!(
            (m["attempt"].as_u64(), m["status"].as_str()),
            (Some(1), Some("minted")),
            "{m}"
        );
    }
}

#[test]
fn mint_post_puts_the_report_on_the_lanes_prs_through_githubs_contract() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 1, "");
    let file = d.path().join("lanes/0.93.3.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace(
            "base: v0.93.2\n",
            "base: v0.93.2\ngithub: {repo: octocat/hello-world, post_to: [1347]}\n",
        ),
    )
    .unwrap();
    // Prism serving GitHub's published OpenAPI description: every request
    // is checked against the contract.
    let server = lane_testkit::Prism::start();
    let token = "ghp_MintPostNeverPrinted0123456789";
    let o = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(["mint", "0.93.3", "--post"])
        .current_dir(d.path())
        .env_remove("LANE_LOG")
        .env("GITHUB_TOKEN", token)
        .env("GITHUB_API_URL", server.url())
        .output()
        .unwrap();
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert_eq!(code(&o), 0, "{all}");
    assert!(stderr(&o).contains("posted    #1347: comment"), "{all}");
    assert!(!all.contains(token), "the token was printed");
    // Without credentials the mint still completes and says why nothing was posted.
    let o = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(["mint", "0.93.3", "--post"])
        .current_dir(d.path())
        .env_remove("LANE_LOG")
        .env("GITHUB_TOKEN", "")
        .env("GITHUB_API_URL", server.url())
        .output()
        .unwrap();
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no GitHub credentials"),
        "{}",
        stderr(&o)
    );
    assert!(d.path().join("out/lanes/0.93.3/report/report.md").is_file());
}

#[test]
fn the_mint_never_sees_lanes_credentials() {
    // Regression: the mint inherited lane's whole environment, credentials
    // included; then (issue 35) a deny list of them missed the webhook
    // secret and a password in the store's endpoint.
    let d = tempfile::tempdir().unwrap();
    // lane's own environment holds every secret it knows (a pod's
    // envFrom); the mint, upstream code, must find none.
    let script = r#"env > env.txt; env; echo cell > "$LANE_ARTIFACTS_DIR/cell.bin"; printf '{"status":"minted","recipe":"dynamo"}' > "$LANE_REPORT_PATH""#;
    let planted = super::secrets::lanes_secrets();
    let o = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args([
            "agent",
            "--mint-dir",
            "m",
            "--id",
            "0.93.3/c/L4/r1/a1",
            "--recipe",
            "dynamo",
            "--json",
            "--",
            "sh",
            "-c",
            script,
        ])
        .current_dir(d.path())
        .env_remove("LANE_LOG")
        .envs(planted.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["outcome"], "minted", "{r}");
    let all = stdout(&o) + &stderr(&o);
    assert!(!all.contains("planted"), "{all}");
    super::secrets::assert_no_secret_reached_a_mint(d.path(), &planted, "env.txt");
}

/// Regression (issue 35): `lane mint` on the local backend started its
/// agents with lane's environment, and a cell running `env` printed what
/// the agent did not know to remove.
#[test]
fn a_mint_started_by_lane_mint_finds_none_of_lanes_secrets() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 1, "");
    let text = std::fs::read_to_string(d.path().join("lanes/0.93.3.yaml")).unwrap();
    let text = text.replace(
        "echo \\\"$LANE_MINT_ID\\\"",
        "env > env.txt; env; echo \\\"$LANE_MINT_ID\\\"",
    );
    assert!(text.contains("env > env.txt"), "{text}");
    std::fs::write(d.path().join("lanes/0.93.3.yaml"), text).unwrap();
    let planted = super::secrets::lanes_secrets();
    let o = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(["mint", "0.93.3"])
        .current_dir(d.path())
        .env_remove("LANE_LOG")
        .env("NO_COLOR", "1")
        .envs(planted.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(runs(d.path()).len(), 2, "{}", stderr(&o));
    super::secrets::assert_no_secret_reached_a_mint(d.path(), &planted, "env.txt");
}

/// Regression: one mint's report that the ledger could not read (the real
/// aot `totals` with `export_reuse_eligible: -1.0`, or garbage) made `lane
/// mint` exit 3 and write no report at all, hiding the whole lane.
#[test]
fn a_cell_that_writes_garbage_gets_its_row_and_the_lane_still_reports_not_green() {
    let d = tempfile::tempdir().unwrap();
    let real = Path::new(super::ROOT).join("tests/data/gw-0.93.3-h200/aot3-pair/r1");
    let copy_real = format!(
        "mkdir -p rig/mint && cp '{}' rig/mint/report.json && cp '{}' rig/mint/cell.tar.gz",
        real.join("report.json").display(),
        real.join("artifacts/cell.tar.gz").display()
    );
    let extra = format!(
        "    - name: real-aot\n      recipe: aot\n      report: rig/mint/report.json\n      command: [sh, -c, {}]\n    - name: garbage\n      recipe: dynamo\n      command: [sh, -c, {}]\n",
        serde_json::to_string(&copy_real).unwrap(),
        serde_json::to_string(
            r#"echo cell > "$LANE_ARTIFACTS_DIR/cell.bin"; printf '{"status":"minted","recipe":"dynamo","phases":{"load":"fast"},"mint_phases":{"spans_v":1,"jobs":[{"wall_s":-3}]}}' > "$LANE_REPORT_PATH""#
        )
        .unwrap()
    );
    write_lane(d.path(), 1, 2, &extra);
    let o = lane(d.path(), &["mint", "0.93.3"]);
    assert_eq!(code(&o), 7, "not green: {}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("unreadable report: garbage/L4/r1"),
        "{}",
        stderr(&o)
    );
    let report = d.path().join("out/lanes/0.93.3/report");
    for f in ["report.md", "report.json", "report.html"] {
        assert!(report.join(f).is_file(), "{f} written");
    }
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    // Every cell has its rows: the good one, the real aot one, the bad one.
    for cell in ["cell00", "real-aot", "garbage"] {
        assert!(md.contains(cell), "{cell} in {md}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("report.json")).unwrap())
            .unwrap();
    let garbage = json["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["cell"] == "garbage")
        .unwrap();
    let finding = &garbage["repeats"][0]["breakdown"]["findings"][0];
    assert_eq!(finding["kind"], "unreadable_report", "{finding}");
    assert!(
        finding["message"]
            .as_str()
            .unwrap()
            .contains("$.phases.load"),
        "the finding names the JSON path: {finding}"
    );
    // The real aot report reads (its sentinels are not seconds).
    let real_aot = json["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["cell"] == "real-aot")
        .unwrap();
    assert_eq!(
        real_aot["repeats"][0]["breakdown"]["ledger"]["kind"], "aot_table_v1",
        "{real_aot}"
    );
    // lane report says the same: every file rewritten, exit 7.
    let o = lane(d.path(), &["report", "0.93.3"]);
    assert_eq!(code(&o), 7, "{}{}", stdout(&o), stderr(&o));
}

/// A `source: true` cell gets the lane branch's tree, exported once per
/// commit, as `$LANE_SOURCE_DIR`.
#[test]
fn a_rig_cell_gets_the_lane_branch_exported_as_its_source() {
    let d = super::wheel::cut_lane();
    let rig = r#"grep -q '^version = "0.93.3"' "$LANE_SOURCE_DIR/pyproject.toml" || exit 9; case "$LANE_SOURCE_DIR" in */out/lanes/0.93.3/source/*) ;; *) exit 8;; esac; echo cell > "$LANE_ARTIFACTS_DIR/cell.bin"; printf '{"status":"minted","recipe":"aot"}' > "$LANE_REPORT_PATH""#;
    let path = d.path().join("lanes/0.93.3.yaml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(&format!(
        "mint:\n  gpus: [L4]\n  cold_repeats: 2\n  timeout_s: 30\n  concurrency: 1\n  cells:\n    - name: rig-aot\n      recipe: aot\n      source: true\n      command: [sh, -c, {}]\n",
        serde_json::to_string(rig).unwrap()
    ));
    std::fs::write(&path, text).unwrap();
    let o = lane(d.path(), &["mint", "0.93.3"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let exported: Vec<_> = std::fs::read_dir(d.path().join("out/lanes/0.93.3/source"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        exported.len(),
        1,
        "one export for both repeats: {exported:?}"
    );
    assert_eq!(exported[0].len(), 40, "named by the commit: {exported:?}");
    // --source names another tree; a folder that is not there is refused.
    let o = lane(d.path(), &["mint", "0.93.3", "--source", "nowhere"]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--source nowhere: not a folder"),
        "{}",
        stderr(&o)
    );
}

/// Regression (issue 19, item 6): `lane status --json` spelled a slot's
/// fields its own way (`id` as an object, `outcome`) where `lane mint
/// --json` and `summary.json` say `slot`, `attempt` and `status`. Both now
/// spell them as `docs/schemas/summary.schema.json` does, with the same values.
#[test]
fn regression_status_json_spells_a_slot_as_mint_json_does() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 2, "");
    let o = lane(d.path(), &["mint", "0.93.3", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let minted: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let o = lane(d.path(), &["status", "0.93.3", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let mints = minted["mints"].as_array().unwrap();
    assert_eq!(rows.as_array().unwrap().len(), mints.len());
    for m in mints {
        let row = rows
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["slot"] == m["slot"])
            .unwrap_or_else(|| panic!("no status row for {m}: {rows}"));
        for key in ["attempt", "status", "reason", "wall_s"] {
            assert_eq!(row[key], m[key], "{key}: {row} vs {m}");
        }
        assert_eq!(row["state"], "gathered", "{row}");
        assert!(
            row.get("id").is_none() && row.get("outcome").is_none(),
            "{row}"
        );
    }
}
