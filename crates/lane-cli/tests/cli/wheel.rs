//! `lane wheel` and `lane publish` through the binary, against real servers
//! the test kit starts on loopback: `moto_server` (S3) and pypiserver (a
//! package index), both installed by `./just tools`.

use super::{code, stderr, stdout, Redact};
use lane_fixture::{generate_upstream, UpstreamSpec};
use lane_testkit::{tools, Moto, PypiServer};
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

const TOKEN: &str = "pypi-token-never-printed-7c1d";
const S3_SECRET: &str = "s3-secret-never-printed-2b9a";

fn lane_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_lane"));
    c.args(args)
        .current_dir(dir)
        .env_remove("LANE_LOG")
        .env_remove("LANE_STORE")
        .env("NO_COLOR", "1")
        .env("LANE_TOOLS_DIR", tools::dir());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the lane binary runs")
}

/// What varies in `lane wheel`'s and `lane publish`'s output: the test's
/// folder, the commits the fixture made, the built wheel's digest and size
/// (uv and Python's versions build it), the tools and the seconds.
fn redact(dir: &Path) -> Redact {
    Redact::new()
        .dir(dir, "<TMP>")
        .pattern(
            r"sha256 [0-9a-f]{64}  \d+ bytes  \(.*\)",
            "sha256 <SHA256>  <SIZE> bytes  (<TOOLS>)",
        )
        .shas()
        .keys(&["sha256", "size", "tools", "timings", "url", "published_at"])
}

/// A lane 0.93.3 over a generated upstream, cut.
pub(crate) fn cut_lane() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let up = generate_upstream(&dir.path().join("up"), &UpstreamSpec::default()).unwrap();
    std::fs::create_dir_all(dir.path().join("lanes")).unwrap();
    let text = format!(
        "version: \"0.93.3\"\nupstream:\n  repo: ../up\nbase: v0.93.2\npicks:\n  - pr: 515\nversion_files:\n  - {{path: pyproject.toml, kind: pyproject}}\n  - {{path: uv.lock, kind: uv-lock, package: gen-worker}}\nchangelog: {{}}\nguards:\n  - name: wire-v1\n    forbidden_commits: [{}]\n    frozen_paths: [proto/, src/gen_worker/pb/]\n",
        up.commits["wire-v1"]
    );
    std::fs::write(dir.path().join("lanes/0.93.3.yaml"), text).unwrap();
    let o = lane_with(dir.path(), &["wheel", "0.93.3"], &[]);
    assert_eq!(code(&o), 6, "no branch before the cut: {}", stderr(&o));
    assert!(
        stderr(&o).contains("run `lane cut` first"),
        "{}",
        stderr(&o)
    );
    let o = lane_with(dir.path(), &["cut", "0.93.3", "--date", "2026-01-02"], &[]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    dir
}

fn assert_installs(dir: &Path, port: u16) {
    let venv = dir.join("venv");
    let o = Command::new(tools::uv())
        .args(["venv", "-q"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(tools::uv())
        .args(["pip", "install", "--no-cache", "--no-deps", "--python"])
        .arg(venv.join("bin/python"))
        .args([
            "--index-url",
            &format!("http://127.0.0.1:{port}/simple/"),
            "gen-worker==0.93.3",
        ])
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "uv pip install: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = Command::new(venv.join("bin/python"))
        .args([
            "-c",
            "import importlib.metadata as m; print(m.version('gen-worker'))",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "0.93.3");
}

#[test]
fn wheel_stages_locally_and_publish_is_gated_then_forced_with_a_reason() {
    let l = cut_lane();
    let d = l.path();
    let o = lane_with(d, &["wheel", "0.93.3", "--dry-run", "--json"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("wheel_dry_run_json", redact(d).json(&stdout(&o)));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["manifest"]["wheel"], "gen_worker-0.93.3-py3-none-any.whl");
    assert_eq!(v["manifest"]["verified"]["version"], "0.93.3");
    assert!(v["staged"].is_null());
    assert!(!d.join("out/store").exists(), "a dry run stages nothing");

    let o = lane_with(d, &["wheel", "0.93.3"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    insta::assert_snapshot!("wheel_text", redact(d).apply(&out));
    assert!(
        out.contains("built gen_worker-0.93.3-py3-none-any.whl from release/0.93.3"),
        "{out}"
    );
    assert!(
        out.contains("package files equal to the lane tree's blobs"),
        "{out}"
    );
    assert!(out.contains("staged file://"), "{out}");
    let o = lane_with(d, &["wheel", "0.93.3"], &[]);
    assert!(
        stdout(&o).contains("already staged (identical)"),
        "{}",
        stdout(&o)
    );
    insta::assert_snapshot!("wheel_again_text", redact(d).apply(&stdout(&o)));

    let server = PypiServer::start(d, "__token__", TOKEN);
    let (port, index) = (server.port(), server.url());
    let env = [
        ("LANE_INDEX_URL", index.as_str()),
        ("LANE_INDEX_TOKEN", TOKEN),
    ];
    let o = lane_with(d, &["publish", "0.93.3"], &env);
    assert_eq!(code(&o), 6, "no mint results: {}", stderr(&o));
    assert!(
        stderr(&o).contains("the mint results are no results"),
        "{}",
        stderr(&o)
    );
    write_summary(d, false, None);
    let o = lane_with(d, &["publish", "0.93.3"], &env);
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    assert!(stderr(&o).contains("not green"), "{}", stderr(&o));
    // Green, but for another wheel than the staged one: the gate stays shut.
    write_summary(d, true, Some(&"0".repeat(64)));
    let o = lane_with(d, &["publish", "0.93.3"], &env);
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("green for another wheel"),
        "{}",
        stderr(&o)
    );
    let o = lane_with(d, &["publish", "0.93.3", "--force"], &env);
    assert_eq!(code(&o), 2, "--force needs --reason: {}", stderr(&o));
    let forced = [
        "publish",
        "0.93.3",
        "--force",
        "--reason",
        "fleet outage hotfix",
    ];
    let o = lane_with(d, &[&forced[..], &["--dry-run"]].concat(), &env);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    insta::assert_snapshot!("publish_dry_run_text", redact(d).apply(&stdout(&o)));
    let o = lane_with(
        d,
        &[
            "publish",
            "0.93.3",
            "--force",
            "--reason",
            "fleet outage hotfix",
            "--json",
        ],
        &env,
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    for text in [stdout(&o), stderr(&o)] {
        assert!(!text.contains(TOKEN), "the token was printed: {text}");
    }
    insta::assert_snapshot!("publish_forced_json", redact(d).json(&stdout(&o)));
    let record: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(record["forced"], true);
    assert_eq!(record["reason"], "fleet outage hotfix");
    let stored = std::fs::read_to_string(
        d.join("out/store/lanes/0.93.3")
            .join(record["commit"].as_str().unwrap())
            .join("publish.json"),
    )
    .unwrap();
    assert!(stored.contains("fleet outage hotfix"), "{stored}");
    assert_installs(d, port);
    let o = lane_with(
        d,
        &["publish", "0.93.3", "--force", "--reason", "again"],
        &env,
    );
    assert_eq!(code(&o), 6, "already published: {}", stderr(&o));

    // A wrong token: refused by the index, and the token still not shown.
    let l2 = cut_lane();
    let o = lane_with(l2.path(), &["wheel", "0.93.3"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = lane_with(
        l2.path(),
        &["publish", "0.93.3", "--force", "--reason", "r"],
        &[
            ("LANE_INDEX_URL", index.as_str()),
            ("LANE_INDEX_TOKEN", "wrong-token-xyz"),
        ],
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    // `uv publish` uploads, and its own words say why the index refused.
    assert!(stderr(&o).contains("uv publish"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("401") || stderr(&o).contains("403"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("wrong-token-xyz"), "{}", stderr(&o));

    // Regression: a password in the index URL (`user:pass@host`) was printed
    // in the error; it names the index without it.
    let with_password = format!("http://ci:url-password-never-printed@127.0.0.1:{port}/");
    let o = lane_with(
        l2.path(),
        &[
            "publish",
            "0.93.3",
            "--force",
            "--reason",
            "r",
            "--index-url",
            &with_password,
        ],
        &[("LANE_INDEX_TOKEN", "wrong-token-xyz")],
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let all = stdout(&o) + &stderr(&o);
    assert!(!all.contains("url-password-never-printed"), "{all}");
    assert!(all.contains(&format!("http://127.0.0.1:{port}/")), "{all}");
}

/// moto's S3 on loopback, with bucket `lanes` made: the server, its
/// endpoint, and a store on `prefix` (access key `testing`, `secret`).
pub(crate) fn moto(prefix: &str, secret: &str) -> (Moto, String, lane_store::S3Store) {
    let server = Moto::start();
    let endpoint = server.endpoint();
    let store = lane_store::S3Store::new(lane_store::S3Config {
        endpoint: Some(endpoint.clone()),
        credentials: Some(lane_store::S3Credentials {
            access_key_id: "testing".into(),
            secret_access_key: secret.into(),
            session_token: None,
        }),
        timeout: Duration::from_secs(30),
        ..lane_store::S3Config::new("lanes", prefix)
    })
    .unwrap();
    store.ensure_bucket().unwrap();
    (server, endpoint, store)
}

#[test]
fn wheel_stages_in_s3_with_a_presigned_url_and_green_results_publish() {
    let l = cut_lane();
    let d = l.path();
    let (_moto, endpoint, _) = moto("", S3_SECRET);
    let s3_env = [
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", S3_SECRET),
        ("LANE_S3_ENDPOINT", endpoint.as_str()),
    ];

    let o = lane_with(
        d,
        &[
            "wheel",
            "0.93.3",
            "--store",
            "s3://lanes/ci",
            "--url-ttl",
            "900",
            "--json",
        ],
        &s3_env,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o) + &stderr(&o);
    assert!(!text.contains(S3_SECRET), "the S3 secret was printed");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let url = v["staged"]["fetch"]["url"].as_str().unwrap();
    assert!(
        url.contains("/lanes/ci/lanes/0.93.3/") && url.contains("X-Amz-Expires=900"),
        "{url}"
    );
    let mut resp = ureq::get(url).call().unwrap();
    let wheel = resp
        .body_mut()
        .with_config()
        .limit(1 << 30)
        .read_to_vec()
        .unwrap();
    assert_eq!(
        lane_store::sha256_hex(&wheel),
        v["manifest"]["sha256"].as_str().unwrap()
    );

    // The results `lane mint` writes when every mint installed this wheel.
    write_summary(d, true, v["manifest"]["sha256"].as_str());
    let pypi = PypiServer::start(d, "__token__", TOKEN);
    let (iport, index) = (pypi.port(), pypi.url());
    let mut env = s3_env.to_vec();
    env.extend([
        ("LANE_INDEX_URL", index.as_str()),
        ("LANE_INDEX_TOKEN", TOKEN),
    ]);
    // A dry run checks everything and uploads nothing, keeps no record:
    // the index does not list the wheel after it, and the real publish
    // after it finds no record of an earlier one.
    let o = lane_with(
        d,
        &["publish", "0.93.3", "--store", "s3://lanes/ci", "--dry-run"],
        &env,
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("would publish gen_worker-0.93.3-py3-none-any.whl"),
        "{}",
        stdout(&o)
    );
    let listed = |port: u16| {
        ureq::get(format!("http://127.0.0.1:{port}/packages/"))
            .call()
            .map(|mut r| r.body_mut().read_to_string().unwrap_or_default())
            .unwrap_or_default()
    };
    assert!(
        !listed(iport).contains("gen_worker-0.93.3"),
        "the dry run uploaded"
    );
    let o = lane_with(d, &["publish", "0.93.3", "--store", "s3://lanes/ci"], &env);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o) + &stderr(&o);
    assert!(
        text.contains("published gen_worker-0.93.3-py3-none-any.whl"),
        "{text}"
    );
    assert!(!text.contains(TOKEN) && !text.contains(S3_SECRET), "{text}");
    assert!(!text.contains("forced"), "{text}");
    assert!(
        listed(iport).contains("gen_worker-0.93.3"),
        "the index lists what was published (the check above can see it)"
    );
    assert_installs(d, iport);
}

/// Regression: `lane wheel` found uv under a relative `--tools-dir` and then
/// ran `.tools/uv/bin/uv` from inside the export folder ("No such file or
/// directory"), so a fresh machine without `./just tools` could not build.
#[test]
fn wheel_runs_uv_found_under_a_relative_tools_dir() {
    let dir = cut_lane();
    let rel = dir.path().join("rel-tools/uv/bin");
    std::fs::create_dir_all(&rel).unwrap();
    std::os::unix::fs::symlink(std::fs::canonicalize(tools::uv()).unwrap(), rel.join("uv"))
        .unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_lane"));
    c.args([
        "wheel",
        "0.93.3",
        "--tools-dir",
        "rel-tools",
        "--dry-run",
        "--json",
    ])
    .current_dir(dir.path())
    .env_remove("LANE_LOG")
    .env_remove("LANE_STORE")
    .env_remove("LANE_TOOLS_DIR")
    .env_remove("LANE_UV")
    // No uv on PATH: only the relative tools folder has one.
    .env("PATH", "/usr/local/bin:/usr/bin:/bin")
    .env("NO_COLOR", "1");
    assert!(
        !Path::new("/usr/local/bin/uv").exists() && !Path::new("/usr/bin/uv").exists(),
        "this test needs a machine whose PATH has no uv of its own"
    );
    let o = c.output().unwrap();
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(
        v["manifest"]["wheel"]
            .as_str()
            .is_some_and(|w| w.ends_with(".whl")),
        "{v}"
    );
}

/// The `mint:` section `write_summary` gives the lane: one cell on L4,
/// two cold repeats (`0.93.3/rig/L4/r1`, `r2`).
const MINT: &str = "mint:\n  gpus: [L4]\n  cold_repeats: 2\n  cells:\n    - name: rig\n      recipe: aot\n      command: [\"true\"]\n      report: report.json\n";

/// The results `lane mint` writes (its own types) for lane 0.93.3, once
/// its lane file has a `mint:` section: each planned slot's `mint.json`
/// (minted when `green`, else failed) and `summary.json` listing them,
/// with the sha256 of the wheel the mints installed.
fn write_summary(d: &std::path::Path, green: bool, wheel_sha256: Option<&str>) {
    use lane_core::results::Contract;
    let lane_file = d.join("lanes/0.93.3.yaml");
    let text = std::fs::read_to_string(&lane_file).unwrap();
    if !text.contains("\nmint:") {
        std::fs::write(&lane_file, text + MINT).unwrap();
    }
    let status = if green {
        lane_core::MintStatus::Minted
    } else {
        lane_core::MintStatus::Failed
    };
    let dir = d.join("out/lanes/0.93.3/results");
    let mut mints = Vec::new();
    for repeat in [1, 2] {
        write_record(&dir, repeat, status);
        mints.push(lane_core::SlotSummary {
            slot: format!("0.93.3/rig/L4/r{repeat}"),
            attempt: 1,
            status,
            reason: String::new(),
            wall_s: Some(1.0),
            job_s: None,
        });
    }
    let provenance = lane_core::Provenance {
        wheel: wheel_sha256.map(|sha| lane_core::WheelRef {
            file: "gen_worker-0.93.3-py3-none-any.whl".into(),
            sha256: sha.into(),
            key: None,
            commit: None,
        }),
        guard: None,
    };
    let summary = lane_core::Summary::of("0.93.3".into(), mints, false, &provenance, false);
    std::fs::write(dir.join("summary.json"), summary.to_json()).unwrap();
}

/// Slot `rig/L4/r<repeat>`'s `mint.json`, as `lane mint` gathers it.
fn write_record(results: &Path, repeat: u32, status: lane_core::MintStatus) {
    use lane_core::results::Contract;
    // Only what `mint.json` requires; read back through its type.
    let json = serde_json::json!({
        "cell": "rig", "gpu": "L4", "recipe": "aot", "repeat": repeat, "attempt": 1,
        "status": status, "reason": "", "replay": false, "attempts_wall_s": [1.0],
    });
    let record =
        lane_core::MintRecord::from_json("mint.json", json.to_string().as_bytes()).unwrap();
    let slot = results.join(format!("rig/L4/r{repeat}"));
    std::fs::create_dir_all(&slot).unwrap();
    std::fs::write(slot.join("mint.json"), record.to_json()).unwrap();
}

/// `lane wheel 0.93.3 --json` in `d`: the staged manifest.
fn staged_manifest(d: &Path) -> serde_json::Value {
    let o = lane_with(d, &["wheel", "0.93.3", "--json"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    v["manifest"].clone()
}

/// The environment of a publish that never reaches an index.
const NO_INDEX: [(&str, &str); 2] = [
    ("LANE_INDEX_URL", "http://127.0.0.1:9/"),
    ("LANE_INDEX_TOKEN", TOKEN),
];

/// Regression (issue 19, item 3): `lane publish` trusted `summary.json`
/// alone; one edited to say green, with the staged wheel's sha256, beside
/// two slots whose `mint.json` say failed, answered "would publish". The
/// gate re-reads every slot's record and names what disagreed; a slot name
/// outside the plan (traversal) and a missing slot are refused too.
#[test]
fn regression_publish_refuses_a_green_summary_its_slots_records_contradict() {
    use lane_core::results::Contract;
    let l = cut_lane();
    let d = l.path();
    let manifest = staged_manifest(d);
    let sha = manifest["sha256"].as_str().unwrap();
    let env = NO_INDEX;
    let publish = || lane_with(d, &["publish", "0.93.3", "--dry-run"], &env);
    write_summary(d, true, Some(sha));
    let o = publish();
    assert_eq!(code(&o), 0, "the truth opens the gate: {}", stderr(&o));
    let results = d.join("out/lanes/0.93.3/results");
    for repeat in [1, 2] {
        write_record(&results, repeat, lane_core::MintStatus::Failed);
    }
    let o = publish();
    assert_eq!(code(&o), 6, "{}{}", stdout(&o), stderr(&o));
    let err = stderr(&o);
    for repeat in [1, 2] {
        let part = format!(
            "`0.93.3/rig/L4/r{repeat}` says minted, but rig/L4/r{repeat}/mint.json says failed"
        );
        assert!(err.contains(&part), "{part}: {err}");
    }
    assert!(!stdout(&o).contains("would publish"), "{}", stdout(&o));
    // A traversing slot name in place of r2: never opened, and r2 missing.
    write_summary(d, true, Some(sha));
    let path = results.join("summary.json");
    let mut s =
        lane_core::Summary::from_json("summary.json", &std::fs::read(&path).unwrap()).unwrap();
    s.mints[1].slot = "0.0.0/../../../etc/H200/r1".into();
    std::fs::write(&path, s.to_json()).unwrap();
    let o = publish();
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    let err = stderr(&o);
    for part in [
        "$.mints[1].slot: `0.0.0/../../../etc/H200/r1` is not a slot of the plan",
        "the planned slot `0.93.3/rig/L4/r2` is missing",
    ] {
        assert!(err.contains(part), "{part}: {err}");
    }
}

/// Regression: a staged manifest whose wheel was removed from the store
/// answered with the store's bare "not found"; it is a precondition (exit
/// 6) that names the wheel, the key and what to run.
#[test]
fn regression_a_staged_manifest_whose_wheel_is_gone_is_a_precondition_naming_it() {
    let l = cut_lane();
    let d = l.path();
    let o = lane_with(d, &["wheel", "0.93.3"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // `out/store/lanes/0.93.3/<commit>/<wheel>`, beside its manifest.
    let staged: Vec<_> = std::fs::read_dir(d.join("out/store/lanes/0.93.3"))
        .unwrap()
        .flat_map(|c| std::fs::read_dir(c.unwrap().path()).unwrap())
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "whl"))
        .collect();
    assert_eq!(staged.len(), 1, "{staged:?}");
    std::fs::remove_file(&staged[0]).unwrap();
    let o = lane_with(
        d,
        &["publish", "0.93.3", "--force", "--reason", "r", "--dry-run"],
        &[
            ("LANE_INDEX_URL", "http://127.0.0.1:9/simple/"),
            ("LANE_INDEX_TOKEN", TOKEN),
        ],
    );
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    let err = stderr(&o);
    for part in [
        "names gen_worker-0.93.3-py3-none-any.whl",
        "is not in",
        "run `lane wheel 0.93.3` again",
    ] {
        assert!(err.contains(part), "{part}: {err}");
    }
}

/// Issue 34: the gate read neither `replay` nor which commit the results
/// proved: replayed results (recorded mints, no compile ran) and results
/// for another cut commit opened it. Each is refused, naming the mismatch.
#[test]
fn regression_publish_refuses_replayed_results_and_results_of_another_commit() {
    use lane_core::results::Contract;
    let l = cut_lane();
    let d = l.path();
    let manifest = staged_manifest(d);
    let sha = manifest["sha256"].as_str().unwrap();
    let commit = manifest["commit"].as_str().unwrap().to_owned();
    let env = NO_INDEX;
    let path = d.join("out/lanes/0.93.3/results/summary.json");
    let publish_with = |edit: &dyn Fn(&mut lane_core::Summary)| {
        write_summary(d, true, Some(sha));
        let mut s =
            lane_core::Summary::from_json("summary.json", &std::fs::read(&path).unwrap()).unwrap();
        edit(&mut s);
        std::fs::write(&path, s.to_json()).unwrap();
        lane_with(d, &["publish", "0.93.3", "--dry-run"], &env)
    };
    let o = publish_with(&|s| s.wheel.as_mut().unwrap().commit = Some(commit.clone()));
    assert_eq!(code(&o), 0, "the truth opens the gate: {}", stderr(&o));
    for (edit, said) in [
        (
            &(|s: &mut lane_core::Summary| s.replay = true) as &dyn Fn(&mut lane_core::Summary),
            "the mint results are replayed (recorded mints played back, no compile ran",
        ),
        (
            &|s: &mut lane_core::Summary| {
                s.wheel.as_mut().unwrap().commit = Some("0".repeat(40));
            },
            "green for a wheel built from 000000000000, not the published cut",
        ),
        (
            &|s: &mut lane_core::Summary| {
                s.guard = Some(lane_core::GuardRecord {
                    passed: true,
                    commit: "1".repeat(40),
                    summary: "wire-v1: 3 checks held".into(),
                });
            },
            "green with the guards evaluated on 111111111111, not the published cut",
        ),
    ] {
        let o = publish_with(edit);
        assert_eq!(code(&o), 6, "{said}: {}{}", stdout(&o), stderr(&o));
        assert!(stderr(&o).contains(said), "{said}: {}", stderr(&o));
    }
    // A slot that replayed, under a summary that says none did.
    write_summary(d, true, Some(sha));
    let record = d.join("out/lanes/0.93.3/results/rig/L4/r1/mint.json");
    let mut r =
        lane_core::MintRecord::from_json("mint.json", &std::fs::read(&record).unwrap()).unwrap();
    r.replay = true;
    std::fs::write(&record, r.to_json()).unwrap();
    let o = lane_with(d, &["publish", "0.93.3", "--dry-run"], &env);
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("$.replay: false, but rig/L4/r1/mint.json says its mint replayed"),
        "{}",
        stderr(&o)
    );
}
