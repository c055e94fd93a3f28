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
    assert_eq!(spec.active_deadline_seconds, Some((3600 + 900) * 3));
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

/// `tests/helm_render.py`: renders and lints (strict, for 1.30 and the
/// SDK's default) the chart with `values`, each manifest under `out`.
fn helm_render(values: &serde_json::Value, out: &Path, prefix: &str) -> std::process::Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Command::new("python3")
        .env("PYTHONPATH", tools::helm_python())
        .arg(root.join("tests/helm_render.py"))
        .arg(root.join("../../charts/lane"))
        .arg(values.to_string())
        .arg(out)
        .arg(prefix)
        .output()
        .expect("python3 runs: run ./just tools")
}

/// [`helm_render`], which must pass; returns the manifests' paths.
fn render_chart(values: &serde_json::Value, out: &Path, prefix: &str) -> Vec<PathBuf> {
    let run = helm_render(values, out, prefix);
    assert!(
        run.status.success(),
        "helm render/lint failed for {values}:\n{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("{prefix}-"))
        })
        .collect();
    files.sort();
    files
}

fn rendered(files: &[PathBuf], kind: &str) -> serde_yaml::Value {
    for f in files {
        let v: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        if v["kind"].as_str() == Some(kind) {
            return v;
        }
    }
    panic!("the chart rendered no {kind}")
}

#[test]
fn the_chart_renders_lints_and_validates() {
    let tmp = tempfile::tempdir().unwrap();
    let custom = serde_json::json!({
        "suspend": true,
        "concurrencyPolicy": "Replace",
        "timeZone": "Europe/Berlin",
        "imagePullSecrets": [{"name": "ghcr"}],
        "lane": {
            "version": "0.93.3",
            "file": LANE,
            "wheelKey": "lanes/0.93.3/0123456789abcdef0123456789abcdef01234567/gen_worker-0.93.3-py3-none-any.whl",
            "post": true
        },
        "backend": {
            "mintImage": "ghcr.io/example/mint:cu124",
            "mintNamespace": "gpu",
            "queueName": "gpu-queue",
            "unschedulableAfterS": 1200,
            "store": "s3://lanes/ci",
            "storeEnv": {"LANE_S3_ENDPOINT": "https://s3.example", "AWS_REGION": "eu-central-1"},
            "gpuClasses": {"L4": {"nodeSelector": {"pool": "l4"}, "requests": {"cpu": "4"}}}
        },
        "secrets": {"github": {"existingSecret": "lane-github"}, "store": {"existingSecret": "lane-store"}}
    });
    let defaults = render_chart(&serde_json::json!({}), tmp.path(), "default");
    let non_default = render_chart(&custom, tmp.path(), "custom");
    assert_eq!(defaults.len(), 5, "{defaults:?}");
    assert_eq!(non_default.len(), 5, "{non_default:?}");

    let newest = newest_k8s();
    for version in ["1.30.0", newest.as_str()] {
        for f in defaults.iter().chain(&non_default) {
            validate(f, version);
        }
    }

    // The backend's config, as the chart writes it, is a KubeConfig.
    let cm = rendered(&non_default, "ConfigMap");
    let kube: KubeConfig = serde_yaml::from_str(cm["data"]["kube.yaml"].as_str().unwrap()).unwrap();
    assert_eq!(kube.namespace, "gpu");
    assert_eq!(kube.queue_name.as_deref(), Some("gpu-queue"));
    assert_eq!(kube.store_secret.as_deref(), Some("lane-store"));
    assert_eq!(kube.gpu_classes["L4"].node_selector["pool"], "l4");
    assert_eq!(kube.store.as_deref(), Some("s3://lanes/ci"));
    assert_eq!(
        kube.store_env,
        std::collections::BTreeMap::from([
            ("AWS_REGION".to_owned(), "eu-central-1".to_owned()),
            (
                "LANE_S3_ENDPOINT".to_owned(),
                "https://s3.example".to_owned()
            ),
        ])
    );
    assert_eq!(kube.unschedulable_after_s, 1200);
    let lane = lane_file::parse("0.93.3.yaml", cm["data"]["0.93.3.yaml"].as_str().unwrap());
    assert!(lane.is_ok(), "{lane:?}");
    let dflt: KubeConfig = serde_yaml::from_str(
        rendered(&defaults, "ConfigMap")["data"]["kube.yaml"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(dflt.gpu_classes, default_gpu_classes());
    assert_eq!(dflt.store, None);
    assert!(dflt.store_env.is_empty());
    assert_eq!(dflt.store_secret, None);
    assert_eq!(dflt.unschedulable_after_s, 600);

    // Least privilege, in the mint namespace.
    let role = rendered(&non_default, "Role");
    assert_eq!(role["metadata"]["namespace"].as_str(), Some("gpu"));
    let rules = serde_json::to_value(&role["rules"]).unwrap();
    assert_eq!(
        rules,
        serde_json::json!([
            {"apiGroups": ["batch"], "resources": ["jobs"], "verbs": ["create", "get", "list", "watch", "delete"]},
            {"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch", "delete"]},
            {"apiGroups": [""], "resources": ["pods/log"], "verbs": ["get"]}
        ])
    );

    // Secrets by reference only; restricted; schedule knobs honoured.
    let cron = rendered(&non_default, "CronJob");
    let text = serde_json::to_string(&cron).unwrap();
    assert!(text.contains("\"secretKeyRef\""), "{text}");
    assert!(!rendered(&non_default, "ConfigMap")["data"]["kube.yaml"]
        .as_str()
        .unwrap()
        .contains("token"));
    assert_eq!(cron["spec"]["suspend"].as_bool(), Some(true));
    assert_eq!(cron["spec"]["concurrencyPolicy"].as_str(), Some("Replace"));
    let pod = &cron["spec"]["jobTemplate"]["spec"]["template"]["spec"];
    assert_eq!(pod["securityContext"]["runAsNonRoot"].as_bool(), Some(true));
    let sc = &pod["containers"][0]["securityContext"];
    assert_eq!(sc["readOnlyRootFilesystem"].as_bool(), Some(true));
    assert_eq!(sc["allowPrivilegeEscalation"].as_bool(), Some(false));
    assert!(pod["containers"][0]["resources"]["requests"]["cpu"].is_string());

    // `lane mint` itself reads the bundles from the store and presigns the
    // wheel: its container has the store Secret (envFrom) and storeEnv, and
    // its command names the staged wheel.
    let lane_c = &pod["containers"][0];
    assert_eq!(
        serde_json::to_value(&lane_c["envFrom"]).unwrap(),
        serde_json::json!([{"secretRef": {"name": "lane-store"}}])
    );
    let env = serde_json::to_value(&lane_c["env"]).unwrap();
    for (name, value) in [
        ("LANE_S3_ENDPOINT", "https://s3.example"),
        ("AWS_REGION", "eu-central-1"),
    ] {
        assert!(
            env.as_array()
                .unwrap()
                .contains(&serde_json::json!({"name": name, "value": value})),
            "{env}"
        );
    }
    let args: Vec<&str> = lane_c["args"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(
        args[args.len() - 3..],
        [
            "--wheel-key",
            "lanes/0.93.3/0123456789abcdef0123456789abcdef01234567/gen_worker-0.93.3-py3-none-any.whl",
            "--post"
        ]
    );
    // Each scheduled run is its own run: its Job's name, by the downward API.
    assert!(
        env.as_array()
            .unwrap()
            .contains(&serde_json::json!({"name": "LANE_RUN_ID", "valueFrom":
            {"fieldRef": {"fieldPath": "metadata.labels['batch.kubernetes.io/job-name']"}}})),
        "{env}"
    );
    // Defaults: no wheel, no store Secret, no store env.
    let dflt_c = &rendered(&defaults, "CronJob")["spec"]["jobTemplate"]["spec"]["template"]["spec"]
        ["containers"][0];
    let args = serde_json::to_string(&dflt_c["args"]).unwrap();
    assert!(
        !args.contains("--wheel-key") && !args.contains("--post"),
        "{args}"
    );
    assert!(dflt_c.get("envFrom").is_none());
    assert_eq!(
        serde_json::to_value(&dflt_c["env"]).unwrap(),
        serde_json::json!([
            {"name": "HOME", "value": "/var/lib/lane"},
            {"name": "LANE_RUN_ID", "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels['batch.kubernetes.io/job-name']"}}}
        ])
    );
}

#[test]
fn the_chart_schema_refuses_plain_secrets_and_unknown_keys() {
    let tmp = tempfile::tempdir().unwrap();
    // Each refused value, and what the schema error names.
    for (bad, why) in [
        (
            serde_json::json!({"secrets": {"github": {"token": "ghp_plain"}}}),
            "'token' not allowed",
        ),
        (
            serde_json::json!({"concurrencyPolicy": "Sometimes"}),
            "/concurrencyPolicy",
        ),
        (
            serde_json::json!({"securityContext": {"allowPrivilegeEscalation": true, "readOnlyRootFilesystem": true}}),
            "/securityContext/allowPrivilegeEscalation",
        ),
        // Store credentials only by Secret reference, never as plain env.
        (
            serde_json::json!({"backend": {"mintImage": "m:1", "storeEnv": {"AWS_SECRET_ACCESS_KEY": "plain"}}}),
            "invalid propertyName 'AWS_SECRET_ACCESS_KEY'",
        ),
        (
            serde_json::json!({"backend": {"mintImage": "m:1", "storeEnv": {"AWS_REGION": 1}}}),
            "/backend/storeEnv/AWS_REGION",
        ),
        (
            serde_json::json!({"backend": {"mintImage": "m:1", "unschedulableAfterS": "600"}}),
            "/backend/unschedulableAfterS",
        ),
        (
            serde_json::json!({"backend": {"mintImage": "m:1", "store": "bucket/prefix"}}),
            "/backend/store",
        ),
        (
            serde_json::json!({"lane": {"version": "0.93.3", "file": "x", "wheelKey": "gen_worker.whl"}}),
            "/lane/wheelKey",
        ),
    ] {
        let run = helm_render(&bad, tmp.path(), "bad");
        assert!(!run.status.success(), "the chart accepted {bad}");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(
            text.contains(why),
            "{bad} was refused, but not for {why}: {text}"
        );
    }
}

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
