//! The Helm chart (`charts/lane`): rendered with Helm's Go library
//! (helm-python-sdk), linted, every template validated for Kubernetes 1.30
//! and the newest schema, and its values schema refusing plain secrets.

use super::*;

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
