//! lane-kube's tests: Job names, labels, determinism, the pod failure
//! policy, and every built manifest validated against the official
//! Kubernetes schemas (`kubernetes-validate --strict`, offline) for 1.30
//! and the newest version the tool ships.

use std::path::{Path, PathBuf};
use std::process::Command;

use k8s_openapi::api::batch::v1::Job;
use lane_core::MintId;
use lane_file::Recipe;
use lane_kube::*;
use lane_testkit::tools;

/// The Helm chart: rendered, linted and validated.
#[path = "kube/chart.rs"]
mod chart;
/// The client half against a mock API server; the watcher state machine.
#[path = "kube/client.rs"]
mod client;
#[path = "kube/rig.rs"]
mod rig;

const LANE: &str = r#"
version: "0.93.3"
upstream:
  repo: https://github.com/cozy-creator/python-gen-worker
  default_branch: master
base: v0.93.2
mint:
  gpus: [L40S, L4]
  cold_repeats: 2
  timeout_s: 3600
  retry:
    crashed: 2
  cells:
    - name: sdxl-turbo
      recipe: dynamo
      command: [python3, -m, mint, --cell, sdxl-turbo]
      env: {PYTHONUNBUFFERED: "1"}
    - name: flux.schnell_aot
      recipe: aot
      command: [python3, -m, mint]
"#;

fn lane() -> lane_file::LaneFile {
    lane_file::parse("0.93.3.yaml", LANE).expect("test lane file parses")
}

fn cfg() -> KubeConfig {
    KubeConfig::new("ghcr.io/example/lane:0.1.0", "ghcr.io/example/mint:cu124")
}

fn id(lane: &str, cell: &str, gpu: &str, repeat: u32, attempt: u32) -> MintId {
    MintId {
        lane: lane.into(),
        cell: cell.into(),
        gpu: gpu.into(),
        repeat,
        attempt,
    }
}

const SHA: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

fn staged(url: &str) -> StagedWheel {
    StagedWheel {
        url: url.into(),
        sha256: SHA.into(),
    }
}

fn mint(id: MintId) -> MintJob {
    MintJob {
        id,
        recipe: Recipe::Dynamo,
        command: vec!["python3".into(), "mint.py".into()],
        env: Default::default(),
        timeout_s: 600,
        crashed_retries: 1,
        run_id: "run-20250101T000000Z".into(),
        wheel: None,
        store: None,
        report: None,
        source: None,
    }
}

fn is_dns1123_label(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && s.starts_with(|c: char| c.is_ascii_alphanumeric())
        && s.ends_with(|c: char| c.is_ascii_alphanumeric())
}

fn is_label_value(s: &str) -> bool {
    s.len() <= 63
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        && (s.is_empty()
            || (s.starts_with(|c: char| c.is_ascii_alphanumeric())
                && s.ends_with(|c: char| c.is_ascii_alphanumeric())))
}

#[test]
fn names_are_dns_labels_readable_and_hashed() {
    let i = id("0.93.3", "sdxl-turbo", "L40S", 1, 1);
    let n = job_name(&i, "r1");
    assert!(is_dns1123_label(&n), "{n}");
    assert!(n.starts_with("lane-0-93-3-sdxl-turbo-l40s-r1-a1-"), "{n}");
    assert!(n.ends_with(&id_hash(&i, "r1")), "{n}");
    assert_eq!(id_hash(&i, "r1").len(), 8);
    // Another run of the same mint is another Job.
    assert_ne!(n, job_name(&i, "r2"));
    assert!(valid_run_id("nightly-29384756") && valid_run_id("manual"));
    assert!(!valid_run_id("") && !valid_run_id("a/b") && !valid_run_id("-x"));
}

#[test]
fn long_and_odd_names_are_shortened_and_stay_distinct() {
    let cell = "A.very_long.Cell-name_that_goes_on-and-on-and-on-for-ever-and-ever";
    let a = job_name(&id("0.93.3", &cell[..63], "L40S", 1, 1), "r1");
    let b = job_name(&id("0.93.3", &cell[..63], "L40S", 1, 2), "r1");
    let c = job_name(&id("0.93.3", &cell[..62], "L40S", 1, 1), "r1");
    for n in [&a, &b, &c] {
        assert!(is_dns1123_label(n), "{n}");
        assert!(n.len() >= 60, "shortened, not emptied: {n}");
    }
    assert_ne!(a, b);
    assert_ne!(a, c);
    // `_` and `.` only differ in the hash.
    let d = job_name(&id("0.93.3", "x_y", "L4", 1, 1), "r1");
    let e = job_name(&id("0.93.3", "x.y", "L4", 1, 1), "r1");
    assert_ne!(d, e);
    assert!(is_dns1123_label(&d) && is_dns1123_label(&e));
}

#[test]
fn every_planned_mint_has_its_own_name() {
    let mints = MintJob::plan(&lane(), "r1", None, None).unwrap();
    assert_eq!(mints.len(), 2 * 2 * 2);
    let mut names: Vec<String> = mints.iter().map(|m| job_name(&m.id, &m.run_id)).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), mints.len());
}

#[test]
fn labels_and_annotation_identify_the_mint() {
    let mut m = mint(id("0.93.3", "flux.schnell_aot", "L4", 2, 3));
    m.run_id = "run/with:odd chars".into();
    let job = job_for(&m, &cfg()).unwrap();
    let meta = &job.metadata;
    let l = meta.labels.as_ref().unwrap();
    assert_eq!(l[LABEL_MANAGED_BY], "lane");
    assert_eq!(l[LABEL_LANE], "0.93.3");
    assert_eq!(l[LABEL_CELL], "flux.schnell_aot");
    assert_eq!(l[LABEL_GPU], "L4");
    assert_eq!(l[LABEL_REPEAT], "2");
    assert_eq!(l[LABEL_ATTEMPT], "3");
    assert_eq!(l[LABEL_RUN], "run_with_odd_chars");
    assert!(!l.contains_key(LABEL_KUEUE_QUEUE));
    for v in l.values() {
        assert!(is_label_value(v), "{v}");
    }
    assert_eq!(
        meta.annotations.as_ref().unwrap()[ANNOTATION_MINT_ID],
        "0.93.3/flux.schnell_aot/L4/r2/a3"
    );
    assert_eq!(meta.namespace.as_deref(), Some("lane"));
    let pod_labels = job
        .spec
        .as_ref()
        .unwrap()
        .template
        .metadata
        .as_ref()
        .unwrap()
        .labels
        .as_ref()
        .unwrap();
    assert_eq!(pod_labels[LABEL_CELL], "flux.schnell_aot");
    assert_eq!(
        lane_selector("0.93.3"),
        "app.kubernetes.io/managed-by=lane,lane.dev/lane=0.93.3"
    );
    assert_eq!(
        run_selector("0.93.3", "nightly-7"),
        "app.kubernetes.io/managed-by=lane,lane.dev/lane=0.93.3,lane.dev/run=nightly-7"
    );
    assert_eq!(label_value("-_x_-"), "x");
    assert_eq!(label_value(&"a".repeat(80)).len(), 63);
}

#[test]
fn kueue_label_only_on_the_job() {
    let mut c = cfg();
    c.queue_name = Some("gpu-queue".into());
    let job = job_for(&mint(id("1.0.0", "c", "L40S", 1, 1)), &c).unwrap();
    assert_eq!(
        job.metadata.labels.as_ref().unwrap()[LABEL_KUEUE_QUEUE],
        "gpu-queue"
    );
    let spec = job.spec.unwrap();
    let pod_labels = spec.template.metadata.unwrap().labels.unwrap();
    assert!(!pod_labels.contains_key(LABEL_KUEUE_QUEUE));
}

#[test]
fn the_pod_names_its_node_and_a_pinned_image_its_digest_to_the_fingerprint() {
    let env = |c: &KubeConfig| {
        let job = job_for(&mint(id("1.0.0", "c", "L4", 1, 1)), c).unwrap();
        job.spec.unwrap().template.spec.unwrap().containers[0]
            .env
            .clone()
            .unwrap()
    };
    let plain = env(&cfg());
    let node = plain.iter().find(|e| e.name == "NODE_NAME").unwrap();
    let field = node
        .value_from
        .as_ref()
        .unwrap()
        .field_ref
        .as_ref()
        .unwrap();
    assert_eq!(field.field_path, "spec.nodeName");
    assert!(plain.iter().all(|e| e.name != "LANE_IMAGE_DIGEST"));
    let mut pinned = cfg();
    pinned.mint_image = format!("ghcr.io/x/mint@sha256:{}", "a".repeat(64));
    let digest = env(&pinned)
        .into_iter()
        .find(|e| e.name == "LANE_IMAGE_DIGEST")
        .unwrap();
    assert_eq!(digest.value, Some(format!("sha256:{}", "a".repeat(64))));
}

#[test]
fn building_is_deterministic() {
    let mints = MintJob::plan(
        &lane(),
        "r1",
        Some(&staged("https://store.example/w.whl?sig=x")),
        Some("s3://b/p"),
    )
    .unwrap();
    let a = jobs_yaml(&mints, &cfg()).unwrap();
    let b = jobs_yaml(&mints, &cfg()).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.matches("\n---\n").count() + 1, mints.len());
    assert!(
        a.starts_with("---\napiVersion: batch/v1\nkind: Job\n"),
        "{a}"
    );
}

#[test]
fn the_gpu_class_places_the_pod() {
    let job = job_for(&mint(id("1.0.0", "c", "L40S", 1, 1)), &cfg()).unwrap();
    let pod = job.spec.unwrap().template.spec.unwrap();
    assert_eq!(
        pod.node_selector.unwrap()["nvidia.com/gpu.product"],
        "NVIDIA-L40S"
    );
    let t = &pod.tolerations.unwrap()[0];
    assert_eq!(t.key.as_deref(), Some("nvidia.com/gpu"));
    assert_eq!(t.operator.as_deref(), Some("Exists"));
    assert_eq!(t.effect.as_deref(), Some("NoSchedule"));
    let main = &pod.containers[0];
    let res = main.resources.as_ref().unwrap();
    assert_eq!(res.limits.as_ref().unwrap()["nvidia.com/gpu"].0, "1");
    assert_eq!(res.requests.as_ref().unwrap()["nvidia.com/gpu"].0, "1");

    let l4 = job_for(&mint(id("1.0.0", "c", "L4", 1, 1)), &cfg()).unwrap();
    let sel = l4
        .spec
        .unwrap()
        .template
        .spec
        .unwrap()
        .node_selector
        .unwrap();
    assert_eq!(sel["nvidia.com/gpu.product"], "NVIDIA-L4");

    let err = job_for(&mint(id("1.0.0", "c", "B200", 1, 1)), &cfg()).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("`B200`") && msg.contains("L40S"), "{msg}");
}

#[test]
fn the_job_spec_follows_the_retry_policy_and_timeout() {
    let mut m = mint(id("1.0.0", "c", "L4", 1, 1));
    m.crashed_retries = 2;
    m.timeout_s = 3600;
    let spec = job_for(&m, &cfg()).unwrap().spec.unwrap();
    assert_eq!(spec.backoff_limit, Some(2));
    // (timeout + grace) × attempts
    assert_eq!(spec.active_deadline_seconds, Some((3600 + 900 + 600) * 3));
    assert_eq!(spec.ttl_seconds_after_finished, Some(7 * 24 * 3600));
    assert_eq!(spec.completions, Some(1));
    let pod = spec.template.spec.unwrap();
    assert_eq!(pod.restart_policy.as_deref(), Some("Never"));
}

#[test]
fn disruptions_are_ignored_and_deterministic_outcomes_fail_at_once() {
    let job = job_for(&mint(id("1.0.0", "c", "L4", 1, 1)), &cfg()).unwrap();
    let rules = job.spec.unwrap().pod_failure_policy.unwrap().rules;
    assert_eq!(rules.len(), 2);
    assert_eq!(rules[0].action, "Ignore");
    let cond = &rules[0].on_pod_conditions.as_ref().unwrap()[0];
    assert_eq!(cond.type_, "DisruptionTarget");
    assert_eq!(cond.status.as_deref(), Some("True"));
    assert_eq!(rules[1].action, "FailJob");
    let codes = rules[1].on_exit_codes.as_ref().unwrap();
    assert_eq!(codes.container_name.as_deref(), Some(MINT_CONTAINER));
    assert_eq!(codes.operator, "In");
    assert_eq!(codes.values, vec![EXIT_REFUSED, EXIT_FAILED]);
    assert_eq!((EXIT_REFUSED, EXIT_FAILED), (10, 11));
}

#[test]
fn the_agent_arrives_by_init_container_and_runs_the_cell() {
    let mut m = mint(id("0.93.3", "sdxl", "L4", 1, 2));
    m.wheel = Some(staged("https://store.example/w.whl?X-Sig=abc"));
    m.store = Some("s3://lanes/ci".into());
    m.env.insert("A".into(), "1".into());
    let job = job_for(&m, &cfg()).unwrap();
    let pod = job.spec.unwrap().template.spec.unwrap();
    let init = &pod.init_containers.as_ref().unwrap()[0];
    assert_eq!(init.image.as_deref(), Some("ghcr.io/example/lane:0.1.0"));
    assert_eq!(
        init.command.as_ref().unwrap(),
        &vec!["cp".to_string(), LANE_IN_IMAGE.into(), LANE_IN_POD.into()]
    );
    let main = &pod.containers[0];
    assert_eq!(main.name, MINT_CONTAINER);
    assert_eq!(main.image.as_deref(), Some("ghcr.io/example/mint:cu124"));
    let args: Vec<&str> = main
        .command
        .as_ref()
        .unwrap()
        .iter()
        .map(String::as_str)
        .collect();
    assert_eq!(
        args,
        [
            LANE_IN_POD,
            "agent",
            "--mint-dir",
            "/work/mint",
            "--id",
            "0.93.3/sdxl/L4/r1/a2",
            "--recipe",
            "dynamo",
            "--timeout-s",
            "600",
            "--exit-by-outcome",
            "--store",
            "s3://lanes/ci",
            "--run-id",
            "run-20250101T000000Z",
            "--attempt-from-store",
            "--wheel-url",
            "https://store.example/w.whl?X-Sig=abc",
            "--wheel-sha256",
            SHA,
            "--env",
            "A=1",
            "--",
            "python3",
            "mint.py"
        ]
    );
    assert!(main.env_from.is_none());
}

#[test]
fn pods_run_restricted() {
    let job = job_for(&mint(id("1.0.0", "c", "L4", 1, 1)), &cfg()).unwrap();
    let pod = job.spec.unwrap().template.spec.unwrap();
    let psc = pod.security_context.unwrap();
    assert_eq!(psc.run_as_non_root, Some(true));
    assert_eq!(psc.seccomp_profile.unwrap().type_, "RuntimeDefault");
    assert_eq!(pod.automount_service_account_token, Some(false));
    let all = pod
        .init_containers
        .unwrap()
        .into_iter()
        .chain(pod.containers);
    for c in all {
        let sc = c.security_context.unwrap();
        assert_eq!(sc.allow_privilege_escalation, Some(false), "{}", c.name);
        assert_eq!(sc.read_only_root_filesystem, Some(true), "{}", c.name);
        assert_eq!(sc.run_as_non_root, Some(true), "{}", c.name);
        assert_eq!(sc.capabilities.unwrap().drop.unwrap(), vec!["ALL"]);
    }
}

#[test]
fn the_config_reads_from_yaml_with_defaults() {
    let c: KubeConfig = serde_yaml::from_str(
        "laneImage: l:1\nmintImage: m:1\nqueueName: q\nstoreSecret: lane-store\n\
         gpuClasses:\n  L40S:\n    nodeSelector: {pool: l40s}\n    requests: {cpu: '8', memory: 64Gi}\n",
    )
    .unwrap();
    assert_eq!(c.namespace, "lane");
    assert_eq!(c.gpu_classes.len(), 1);
    let l40s = &c.gpu_classes["L40S"];
    assert_eq!((l40s.resource.as_str(), l40s.count), ("nvidia.com/gpu", 1));
    let job = job_for(&mint(id("1.0.0", "c", "L40S", 1, 1)), &c).unwrap();
    let main = &job.spec.unwrap().template.spec.unwrap().containers[0];
    let res = main.resources.as_ref().unwrap();
    assert_eq!(res.requests.as_ref().unwrap()["memory"].0, "64Gi");
    assert_eq!(res.limits.as_ref().unwrap()["cpu"].0, "8");
    let from = &main.env_from.as_ref().unwrap()[0];
    assert_eq!(from.secret_ref.as_ref().unwrap().name, "lane-store");
}

// ---- kubernetes-validate --strict ------------------------------------------

/// The newest Kubernetes version whose strict schemas the tool ships.
fn newest_k8s() -> String {
    let schemas = tools::kubernetes_validate().join("kubernetes_validate/kubernetes-json-schema");
    let entries = std::fs::read_dir(&schemas).unwrap_or_else(|e| {
        panic!(
            "kubernetes-validate's schemas are missing ({}: {e}): run ./just tools",
            schemas.display()
        )
    });
    let mut versions: Vec<(u32, u32, u32)> = entries
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let v = name.strip_prefix('v')?.strip_suffix("-local-strict")?;
            let mut p = v.split('.').map(|x| x.parse::<u32>().ok());
            Some((p.next()??, p.next()??, p.next()??))
        })
        .collect();
    versions.sort();
    let (a, b, c) = versions
        .last()
        .copied()
        .expect("kubernetes-validate ships no strict schemas: run ./just tools");
    format!("{a}.{b}.{c}")
}

/// Runs `kubernetes-validate --strict -k <version>` on `file`; fails (never
/// skips) when the tool is missing.
fn validate(file: &Path, version: &str) {
    let out = Command::new("python3")
        .env("PYTHONPATH", tools::kubernetes_validate())
        .args(["-m", "kubernetes_validate", "--strict", "-k", version])
        .arg(file)
        .output()
        .expect("python3 runs: run ./just tools");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "kubernetes-validate --strict -k {version} {}:\n{text}",
        file.display()
    );
    assert!(!text.contains("ERROR") && !text.contains("WARN"), "{text}");
}

#[test]
fn every_job_validates_against_kubernetes_1_30_and_the_newest() {
    let tmp = tempfile::tempdir().unwrap();
    let mut full = cfg();
    full.queue_name = Some("gpu-queue".into());
    full.priority_class_name = Some("mint".into());
    full.service_account_name = Some("lane-mint".into());
    full.store_secret = Some("lane-store".into());
    full.image_pull_secrets = vec!["ghcr".into()];
    full.image_pull_policy = Some("IfNotPresent".into());
    full.gpu_classes
        .get_mut("L4")
        .unwrap()
        .requests
        .extend([("cpu".into(), "4".into()), ("memory".into(), "32Gi".into())]);
    full.store = Some("s3://lanes/ci".into());
    full.store_env
        .insert("LANE_S3_ENDPOINT".into(), "https://s3.example".into());
    let mints = MintJob::plan(
        &lane(),
        "r1",
        Some(&staged("https://s.example/w.whl?sig=1")),
        Some("s3://lanes/ci"),
    )
    .unwrap();
    let mut files = Vec::new();
    for (name, c) in [("default", cfg()), ("full", full)] {
        // One file per Job (the tool reads the first document of a stream
        // only in some versions), plus the stream as `--dry-run` prints it.
        for m in &mints {
            let job: Job = job_for(m, &c).unwrap();
            let f = tmp
                .path()
                .join(format!("{name}-{}.yaml", job_name(&m.id, &m.run_id)));
            std::fs::write(&f, serde_yaml::to_string(&job).unwrap()).unwrap();
            files.push(f);
        }
        let f = tmp.path().join(format!("{name}-all.yaml"));
        std::fs::write(&f, jobs_yaml(&mints, &c).unwrap()).unwrap();
        files.push(f);
    }
    let newest = newest_k8s();
    for version in ["1.30.0", newest.as_str()] {
        for f in &files {
            validate(f, version);
        }
    }
}

#[test]
fn the_validator_rejects_a_broken_job() {
    // Guards against a validator that passes everything.
    let tmp = tempfile::tempdir().unwrap();
    let job = job_for(&mint(id("1.0.0", "c", "L4", 1, 1)), &cfg()).unwrap();
    let mut v = serde_json::to_value(&job).unwrap();
    v["spec"]["backofLimit"] = serde_json::json!(1);
    let f = tmp.path().join("bad.yaml");
    std::fs::write(&f, serde_yaml::to_string(&v).unwrap()).unwrap();
    let out = Command::new("python3")
        .env("PYTHONPATH", tools::kubernetes_validate())
        .args(["-m", "kubernetes_validate", "--strict", "-k", "1.30.0"])
        .arg(&f)
        .output()
        .expect("python3 runs: run ./just tools");
    assert!(!out.status.success(), "a typo'd field passed --strict");
}

// ---- charts/lane: rendered and linted by helm-python-sdk -------------------

#[test]
fn the_spec_digest_ignores_the_presigned_url_but_not_what_runs() {
    let id = id("0.93.3", "sdxl", "L4", 1, 1);
    let digest = |m: &MintJob| {
        let job = job_for(m, &cfg()).unwrap();
        spec_of(&job).unwrap().to_owned()
    };
    let mut a = mint(id.clone());
    a.wheel = Some(staged(
        "https://s3.example/w.whl?X-Amz-Date=20261130T080000Z&X-Amz-Signature=aa",
    ));
    let mut b = a.clone();
    // The same wheel, presigned again by a restarted lane mint.
    b.wheel = Some(staged(
        "https://s3.example/w.whl?X-Amz-Date=20261130T090000Z&X-Amz-Signature=bb",
    ));
    assert_eq!(digest(&a), digest(&b));
    assert_eq!(digest(&a).len(), 16);
    // Another command, timeout or wheel is another spec.
    let mut c = a.clone();
    c.command.push("--fast".into());
    assert_ne!(digest(&a), digest(&c));
    let mut t = a.clone();
    t.timeout_s += 1;
    assert_ne!(digest(&a), digest(&t));
    let mut w = a.clone();
    w.wheel = Some(StagedWheel {
        url: "https://s3.example/w.whl?X-Amz-Signature=aa".into(),
        sha256: "1".repeat(64),
    });
    assert_ne!(digest(&a), digest(&w));
    // The Job carries it; its pods do not need it.
    let job = job_for(&a, &cfg()).unwrap();
    assert!(job
        .metadata
        .annotations
        .unwrap()
        .contains_key(ANNOTATION_SPEC));
}
