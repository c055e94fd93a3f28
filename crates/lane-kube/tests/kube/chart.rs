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

/// The kinds of the rendered manifests, sorted.
fn kinds(files: &[PathBuf]) -> Vec<String> {
    let mut kinds: Vec<String> = files
        .iter()
        .map(|f| {
            let v: serde_yaml::Value =
                serde_yaml::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            v["kind"].as_str().unwrap().to_owned()
        })
        .collect();
    kinds.sort();
    kinds
}

/// The rendered NOTES.txt of a [`render_chart`] call.
fn notes(out: &Path, prefix: &str) -> String {
    std::fs::read_to_string(out.join(format!("{prefix}.NOTES.txt")))
        .expect("the chart has NOTES.txt")
}

/// Every string in `v` with its JSON-pointer-like path.
fn strings_in(v: &serde_json::Value, path: String, found: &mut Vec<(String, String)>) {
    match v {
        serde_json::Value::String(s) => found.push((path, s.clone())),
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                strings_in(item, format!("{path}/{i}"), found);
            }
        }
        serde_json::Value::Object(map) => {
            for (k, item) in map {
                found.push((format!("{path}/{k}#key"), k.clone()));
                strings_in(item, format!("{path}/{k}"), found);
            }
        }
        _ => {}
    }
}

/// The names of every env entry in `v` that has a literal `value`.
fn literal_env(v: &serde_json::Value, names: &mut Vec<String>) {
    match v {
        serde_json::Value::Array(items) => items.iter().for_each(|i| literal_env(i, names)),
        serde_json::Value::Object(map) => {
            if let (Some(serde_json::Value::String(name)), true) =
                (map.get("name"), map.contains_key("value"))
            {
                names.push(name.clone());
            }
            map.values().for_each(|i| literal_env(i, names));
        }
        _ => {}
    }
}

fn json_of(v: &serde_yaml::Value) -> serde_json::Value {
    serde_json::to_value(v).unwrap()
}

/// The planted webhook Secret's name and key: only ever a reference.
const HOOK_SECRET: &str = "planted-hook-secret-3f9c";
const HOOK_KEY: &str = "planted-hook-key";

/// `serve.enabled` with everything on: ingress, persistence (the chart's
/// own claim), the store and GitHub credentials, a mint namespace.
fn serve_values(persistence: serde_json::Value) -> serde_json::Value {
    serde_json::json!({
        "lane": {"version": "0.93.3", "file": LANE},
        "backend": {
            "mintImage": "ghcr.io/example/mint:cu124",
            "mintNamespace": "gpu",
            "store": "s3://lanes/ci",
            "storeEnv": {"LANE_S3_ENDPOINT": "https://s3.example", "AWS_REGION": "eu-central-1"}
        },
        "secrets": {"github": {"existingSecret": "lane-github"}, "store": {"existingSecret": "lane-store"}},
        "serve": {
            "enabled": true,
            "allow": ["OWNER", "MEMBER"],
            "logLevel": "lane_kube=debug",
            "webhookSecret": {"existingSecret": HOOK_SECRET, "key": HOOK_KEY},
            "service": {"port": 8081},
            "ingress": {
                "enabled": true,
                "className": "nginx",
                "host": "lane.example.com",
                "annotations": {"cert-manager.io/cluster-issuer": "letsencrypt"},
                "tls": [{"secretName": "lane-tls", "hosts": ["lane.example.com"]}]
            },
            "persistence": persistence,
            "resources": {"requests": {"cpu": "50m", "memory": "64Mi"}, "limits": {"memory": "256Mi"}},
            "podAnnotations": {"prometheus.io/scrape": "true", "prometheus.io/port": "8080"}
        }
    })
}

#[test]
fn serve_renders_lints_and_validates_to_the_binarys_contract() {
    let tmp = tempfile::tempdir().unwrap();
    let on = render_chart(
        &serve_values(serde_json::json!({"enabled": true, "size": "2Gi", "storageClass": "fast"})),
        tmp.path(),
        "serve",
    );
    let mut off_values = serve_values(serde_json::json!({"enabled": false}));
    off_values["serve"]["ingress"] = serde_json::json!({"enabled": false});
    let off = render_chart(&off_values, tmp.path(), "ephemeral");
    let claim = render_chart(
        &serve_values(serde_json::json!({"enabled": true, "existingClaim": "my-lane-state"})),
        tmp.path(),
        "claim",
    );
    let minimal = render_chart(
        &serde_json::json!({"serve": {"enabled": true, "webhookSecret": {"existingSecret": "hook"}}}),
        tmp.path(),
        "minimal",
    );
    assert_eq!(
        kinds(&on),
        [
            "ConfigMap",
            "CronJob",
            "Deployment",
            "Ingress",
            "PersistentVolumeClaim",
            "Role",
            "RoleBinding",
            "Service",
            "ServiceAccount"
        ]
    );
    assert_eq!(
        kinds(&off),
        [
            "ConfigMap",
            "CronJob",
            "Deployment",
            "Role",
            "RoleBinding",
            "Service",
            "ServiceAccount"
        ]
    );
    // An existing claim: mounted, none created.
    assert!(!kinds(&claim).contains(&"PersistentVolumeClaim".to_owned()));

    let newest = newest_k8s();
    for version in ["1.30.0", newest.as_str()] {
        for f in on.iter().chain(&off).chain(&claim).chain(&minimal) {
            validate(f, version);
        }
    }

    let deploy = rendered(&on, "Deployment");
    let spec = &deploy["spec"];
    assert_eq!(spec["replicas"].as_u64(), Some(1));
    assert_eq!(spec["strategy"]["type"].as_str(), Some("Recreate"));
    let pod = &spec["template"]["spec"];
    assert_eq!(pod["containers"].as_sequence().unwrap().len(), 1);
    let c = &pod["containers"][0];
    assert_eq!(c["image"].as_str(), Some("ghcr.io/example/lane:0.1.0"));

    // The binary's command line, exactly; --namespace is the mint namespace.
    let args = |c: &serde_yaml::Value| -> Vec<String> {
        c["args"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_owned())
            .collect()
    };
    let contract = [
        "serve",
        "--listen",
        "0.0.0.0:8080",
        "--state",
        "/var/lib/lane",
        "--lanes",
        "/etc/lane/lanes",
        "--backend",
        "kube",
        "--namespace",
    ];
    assert_eq!(
        args(c),
        [&contract[..], &["gpu", "--allow", "OWNER,MEMBER"][..]].concat()
    );
    // Defaults: the release namespace, the default allow-list.
    let min_c = &rendered(&minimal, "Deployment")["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(
        args(min_c),
        [
            &contract[..],
            &["mint", "--allow", "OWNER,MEMBER,COLLABORATOR"][..]
        ]
        .concat()
    );
    let no_allow = render_chart(
        &serde_json::json!({"serve": {"enabled": true, "allow": [], "webhookSecret": {"existingSecret": "hook"}}}),
        tmp.path(),
        "noallow",
    );
    assert_eq!(
        args(&rendered(&no_allow, "Deployment")["spec"]["template"]["spec"]["containers"][0]),
        [&contract[..], &["mint"][..]].concat()
    );
    // By permission, instead of the allow-list.
    let by_permission = render_chart(
        &serde_json::json!({"serve": {"enabled": true, "allowPermission": "write", "webhookSecret": {"existingSecret": "hook"}}}),
        tmp.path(),
        "byperm",
    );
    assert_eq!(
        args(&rendered(&by_permission, "Deployment")["spec"]["template"]["spec"]["containers"][0]),
        [&contract[..], &["mint", "--allow-permission", "write"][..]].concat()
    );

    // Non-root, read-only root, no privilege escalation, no capabilities,
    // the runtime's seccomp profile; a writable /tmp.
    let psc = &pod["securityContext"];
    assert_eq!(psc["runAsNonRoot"].as_bool(), Some(true));
    assert_eq!(psc["runAsUser"].as_u64(), Some(65532));
    assert_eq!(psc["runAsGroup"].as_u64(), Some(65532));
    assert_eq!(
        psc["seccompProfile"]["type"].as_str(),
        Some("RuntimeDefault")
    );
    let sc = &c["securityContext"];
    assert_eq!(sc["readOnlyRootFilesystem"].as_bool(), Some(true));
    assert_eq!(sc["allowPrivilegeEscalation"].as_bool(), Some(false));
    assert_eq!(
        json_of(&sc["capabilities"]["drop"]),
        serde_json::json!(["ALL"])
    );
    let volumes = json_of(&pod["volumes"]);
    let volume = |name: &str| -> serde_json::Value {
        volumes
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == name)
            .unwrap_or_else(|| panic!("no volume {name}: {volumes}"))
            .clone()
    };
    let mounts = json_of(&c["volumeMounts"]);
    let mount = |path: &str| -> serde_json::Value {
        mounts
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["mountPath"] == path)
            .unwrap_or_else(|| panic!("nothing mounted at {path}: {mounts}"))
            .clone()
    };
    assert_eq!(
        volume(mount("/tmp")["name"].as_str().unwrap())["emptyDir"],
        serde_json::json!({})
    );
    // The lane files and the backend config, read-only from the ConfigMap.
    let lanes = mount("/etc/lane/lanes");
    assert_eq!(lanes["readOnly"], true);
    let cm = rendered(&on, "ConfigMap");
    let cm_name = cm["metadata"]["name"].as_str().unwrap();
    assert_eq!(
        volume(lanes["name"].as_str().unwrap())["configMap"],
        serde_json::json!({"name": cm_name, "items": [{"key": "0.93.3.yaml", "path": "0.93.3.yaml"}]})
    );
    assert!(cm["data"]["0.93.3.yaml"].is_string());
    let kube = mount("/etc/lane/kube.yaml");
    assert_eq!(
        (kube["subPath"].as_str(), kube["readOnly"].as_bool()),
        (Some("kube.yaml"), Some(true))
    );
    // The state: the chart's claim, or an emptyDir without persistence.
    let state = mount("/var/lib/lane");
    let pvc = rendered(&on, "PersistentVolumeClaim");
    assert_eq!(
        volume(state["name"].as_str().unwrap())["persistentVolumeClaim"]["claimName"].as_str(),
        pvc["metadata"]["name"].as_str()
    );
    assert_eq!(
        json_of(&pvc["spec"]["accessModes"]),
        serde_json::json!(["ReadWriteOnce"])
    );
    assert_eq!(
        pvc["spec"]["resources"]["requests"]["storage"].as_str(),
        Some("2Gi")
    );
    assert_eq!(pvc["spec"]["storageClassName"].as_str(), Some("fast"));
    let claim_pod = &rendered(&claim, "Deployment")["spec"]["template"]["spec"];
    assert!(serde_json::to_string(&claim_pod["volumes"])
        .unwrap()
        .contains(r#"{"claimName":"my-lane-state"}"#));
    let min_pvc = rendered(&minimal, "PersistentVolumeClaim");
    assert_eq!(
        min_pvc["spec"]["resources"]["requests"]["storage"].as_str(),
        Some("1Gi")
    );
    assert!(min_pvc["spec"].get("storageClassName").is_none());
    let off_pod = &rendered(&off, "Deployment")["spec"]["template"]["spec"];
    let off_state = json_of(&off_pod["volumes"]);
    assert!(
        off_state
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"name": "state", "emptyDir": {}})),
        "{off_state}"
    );

    // Env: the webhook secret and the token by reference, the log filter,
    // the store settings and credentials as the CronJob has them.
    let env = json_of(&c["env"]);
    let env = env.as_array().unwrap();
    for entry in [
        serde_json::json!({"name": "LANE_WEBHOOK_SECRET", "valueFrom": {"secretKeyRef": {"name": HOOK_SECRET, "key": HOOK_KEY}}}),
        serde_json::json!({"name": "GITHUB_TOKEN", "valueFrom": {"secretKeyRef": {"name": "lane-github", "key": "token"}}}),
        serde_json::json!({"name": "LANE_LOG", "value": "lane_kube=debug"}),
        serde_json::json!({"name": "LANE_S3_ENDPOINT", "value": "https://s3.example"}),
        serde_json::json!({"name": "AWS_REGION", "value": "eu-central-1"}),
    ] {
        assert!(env.contains(&entry), "{entry} not in {env:?}");
    }
    assert_eq!(
        json_of(&c["envFrom"]),
        serde_json::json!([{"secretRef": {"name": "lane-store"}}])
    );
    let cron = rendered(&on, "CronJob");
    let cron_pod = &cron["spec"]["jobTemplate"]["spec"]["template"];
    assert_eq!(
        json_of(&cron_pod["spec"]["containers"][0]["envFrom"]),
        json_of(&c["envFrom"])
    );
    // Defaults: LANE_LOG info, no GitHub token, no store env.
    let min_env = json_of(&min_c["env"]);
    assert_eq!(
        min_env,
        serde_json::json!([
            {"name": "HOME", "value": "/var/lib/lane"},
            {"name": "LANE_LOG", "value": "info"},
            {"name": "LANE_WEBHOOK_SECRET", "valueFrom": {"secretKeyRef": {"name": "hook", "key": "secret"}}}
        ])
    );
    assert!(min_c.get("envFrom").is_none());

    // The one port, its probes; resources and annotations from values; the
    // ConfigMap's checksum, the same the CronJob carries.
    assert_eq!(
        json_of(&c["ports"]),
        serde_json::json!([{"name": "http", "containerPort": 8080, "protocol": "TCP"}])
    );
    assert_eq!(
        json_of(&c["livenessProbe"]["httpGet"]),
        serde_json::json!({"path": "/healthz", "port": "http"})
    );
    assert_eq!(
        json_of(&c["readinessProbe"]["httpGet"]),
        serde_json::json!({"path": "/readyz", "port": "http"})
    );
    assert_eq!(c["resources"]["limits"]["memory"].as_str(), Some("256Mi"));
    let ann = &spec["template"]["metadata"]["annotations"];
    assert_eq!(ann["prometheus.io/scrape"].as_str(), Some("true"));
    let checksum = ann["checksum/config"].as_str().unwrap();
    assert_eq!(checksum.len(), 64);
    assert_eq!(
        cron_pod["metadata"]["annotations"]["checksum/config"].as_str(),
        Some(checksum)
    );
    // Another lane file is another checksum: the Deployment rolls.
    let changed = render_chart(
        &serde_json::json!({"serve": {"enabled": true, "webhookSecret": {"existingSecret": "hook"}},
            "lane": {"version": "0.0.0", "file": "version: \"0.0.0\"\n"}}),
        tmp.path(),
        "changed",
    );
    let checksum_of = |files: &[PathBuf]| {
        rendered(files, "Deployment")["spec"]["template"]["metadata"]["annotations"]
            ["checksum/config"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_ne!(checksum_of(&changed), checksum_of(&minimal));

    // The chart's service account, bound to the Role in the mint namespace.
    let sa = rendered(&on, "ServiceAccount");
    assert_eq!(
        pod["serviceAccountName"].as_str(),
        sa["metadata"]["name"].as_str()
    );
    let binding = rendered(&on, "RoleBinding");
    assert_eq!(binding["metadata"]["namespace"].as_str(), Some("gpu"));
    assert_eq!(
        json_of(&binding["subjects"]),
        serde_json::json!([{"kind": "ServiceAccount", "name": sa["metadata"]["name"], "namespace": "mint"}])
    );
    let role = rendered(&on, "Role");
    assert_eq!(role["metadata"]["namespace"].as_str(), Some("gpu"));
    assert_eq!(
        json_of(&role["rules"]),
        serde_json::json!([
            {"apiGroups": ["batch"], "resources": ["jobs"], "verbs": ["create", "get", "list", "watch", "delete"]},
            {"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch", "delete"]},
            {"apiGroups": [""], "resources": ["pods/log"], "verbs": ["get"]}
        ])
    );

    // The Service: ClusterIP, the values' port to 8080, selecting the serve
    // pod and not the CronJob's.
    let svc = rendered(&on, "Service");
    assert_eq!(svc["spec"]["type"].as_str(), Some("ClusterIP"));
    assert_eq!(
        json_of(&svc["spec"]["ports"]),
        serde_json::json!([{"name": "http", "port": 8081, "targetPort": 8080, "protocol": "TCP"}])
    );
    assert_eq!(
        rendered(&minimal, "Service")["spec"]["ports"][0]["port"].as_u64(),
        Some(80)
    );
    let selects = |labels: &serde_yaml::Value| {
        svc["spec"]["selector"]
            .as_mapping()
            .unwrap()
            .iter()
            .all(|(k, v)| labels.get(k) == Some(v))
    };
    assert!(selects(&spec["template"]["metadata"]["labels"]));
    assert!(!selects(&cron_pod["metadata"]["labels"]));
    assert_eq!(
        json_of(&spec["selector"]["matchLabels"]),
        json_of(&svc["spec"]["selector"])
    );

    // The Ingress: only /webhook, to the Service's http port, with TLS.
    let ing = rendered(&on, "Ingress");
    assert_eq!(ing["spec"]["ingressClassName"].as_str(), Some("nginx"));
    assert_eq!(
        ing["metadata"]["annotations"]["cert-manager.io/cluster-issuer"].as_str(),
        Some("letsencrypt")
    );
    assert_eq!(
        json_of(&ing["spec"]["rules"]),
        serde_json::json!([{"host": "lane.example.com", "http": {"paths": [{
            "path": "/webhook", "pathType": "Prefix",
            "backend": {"service": {"name": svc["metadata"]["name"], "port": {"name": "http"}}}
        }]}}])
    );
    assert_eq!(
        json_of(&ing["spec"]["tls"]),
        serde_json::json!([{"secretName": "lane-tls", "hosts": ["lane.example.com"]}])
    );

    // NOTES: where GitHub delivers, what the secret is, the doc; the
    // emptyDir's replay caveat; the port-forward without an Ingress.
    let n = notes(tmp.path(), "serve");
    assert!(
        n.contains("Payload URL:  https://lane.example.com/webhook"),
        "{n}"
    );
    assert!(
        n.contains(HOOK_SECRET) && n.contains("docs/serve.md"),
        "{n}"
    );
    assert!(!n.contains("WARNING"), "{n}");
    let n = notes(tmp.path(), "ephemeral");
    assert!(
        n.contains("replayed delivery is refused only within one pod's life"),
        "{n}"
    );
    assert!(n.contains("port-forward svc/lane-serve 8080:8081"), "{n}");
    assert!(n.contains("http://lane-serve.mint.svc:8081/webhook"), "{n}");
}

#[test]
fn the_webhook_secret_is_only_ever_a_reference() {
    let tmp = tempfile::tempdir().unwrap();
    let files = render_chart(
        &serve_values(serde_json::json!({"enabled": true})),
        tmp.path(),
        "planted",
    );
    // Every place the planted Secret's name or key appears in any rendered
    // object is a secretKeyRef, and the only env vars fed from it are the
    // webhook secret.
    let mut seen = 0;
    for f in &files {
        let doc: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        let mut found = Vec::new();
        strings_in(&json_of(&doc), String::new(), &mut found);
        for (path, s) in found {
            if s.contains(HOOK_SECRET) || s.contains(HOOK_KEY) {
                seen += 1;
                assert!(
                    path.ends_with("/valueFrom/secretKeyRef/name") && s == HOOK_SECRET
                        || path.ends_with("/valueFrom/secretKeyRef/key") && s == HOOK_KEY,
                    "{}: {path} = {s}",
                    f.display()
                );
                assert!(path.contains("/env/"), "{path}");
            }
        }
        // No credential env var is ever a literal value.
        let mut literal = Vec::new();
        literal_env(&json_of(&doc), &mut literal);
        for name in [
            "LANE_WEBHOOK_SECRET",
            "GITHUB_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
        ] {
            assert!(
                !literal.contains(&name.to_owned()),
                "{}: {name} as a literal",
                f.display()
            );
        }
    }
    assert_eq!(seen, 2, "the reference's name and key, once each");
    // A value itself has nowhere to go: the schema refuses every place one
    // might be planted.
    const PLANTED: &str = "whsec-planted-literal-value";
    for (bad, why) in [
        (
            serde_json::json!({"serve": {"webhookSecret": {"existingSecret": "hook", "value": PLANTED}}}),
            "'value' not allowed",
        ),
        (
            serde_json::json!({"serve": {"webhookSecret": PLANTED}}),
            "/serve/webhookSecret",
        ),
        (
            serde_json::json!({"serve": {"env": {"LANE_WEBHOOK_SECRET": PLANTED}}}),
            "'env' not allowed",
        ),
        (
            serde_json::json!({"backend": {"mintImage": "m:1", "storeEnv": {"LANE_WEBHOOK_SECRET": PLANTED}}}),
            "invalid propertyName 'LANE_WEBHOOK_SECRET'",
        ),
        (
            serde_json::json!({"backend": {"mintImage": "m:1", "storeEnv": {"GITHUB_TOKEN": PLANTED}}}),
            "invalid propertyName 'GITHUB_TOKEN'",
        ),
        (
            serde_json::json!({"serve": {"podAnnotations": {"secret": 1}}}),
            "/serve/podAnnotations/secret",
        ),
    ] {
        let mut values = bad.clone();
        values["serve"]["enabled"] = serde_json::json!(true);
        let run = helm_render(&values, tmp.path(), "literal");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(!run.status.success(), "the chart accepted {values}");
        assert!(
            text.contains(why),
            "{values} was refused, but not for {why}: {text}"
        );
        assert!(
            !std::fs::read_dir(tmp.path()).unwrap().any(|e| e
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("literal")),
            "{values} rendered something"
        );
    }
}

#[test]
fn the_chart_refuses_bad_serve_values() {
    let tmp = tempfile::tempdir().unwrap();
    let hook = serde_json::json!({"existingSecret": "hook"});
    for (bad, why) in [
        // values.schema.json, at render time.
        (
            serde_json::json!({"serve": {"allow": ["ADMIN"]}}),
            "/serve/allow/0",
        ),
        (
            serde_json::json!({"serve": {"allow": ["OWNER", "OWNER"]}}),
            "/serve/allow",
        ),
        (
            serde_json::json!({"serve": {"allowPermission": "owner"}}),
            "/serve/allowPermission",
        ),
        (
            serde_json::json!({"serve": {"allow": "OWNER,MEMBER"}}),
            "/serve/allow",
        ),
        (
            serde_json::json!({"serve": {"enabled": "yes"}}),
            "/serve/enabled",
        ),
        (
            serde_json::json!({"serve": {"replicas": 2}}),
            "'replicas' not allowed",
        ),
        (
            serde_json::json!({"serve": {"service": {"port": 0}}}),
            "/serve/service/port",
        ),
        (
            serde_json::json!({"serve": {"ingress": {"enabled": true, "path": "/metrics"}}}),
            "/serve/ingress/path",
        ),
        (
            serde_json::json!({"serve": {"ingress": {"enabled": true, "pathType": "Glob"}}}),
            "/serve/ingress/pathType",
        ),
        (
            serde_json::json!({"serve": {"ingress": {"enabled": true, "host": "https://lane.example.com"}}}),
            "/serve/ingress/host",
        ),
        (
            serde_json::json!({"serve": {"persistence": {"enabled": true, "size": "lots"}}}),
            "/serve/persistence/size",
        ),
        (
            serde_json::json!({"serve": {"webhookSecret": {"existingSecret": "Not_A_Name"}}}),
            "/serve/webhookSecret/existingSecret",
        ),
        (
            serde_json::json!({"serve": {"logLevel": "info; rm -rf /"}}),
            "/serve/logLevel",
        ),
        (
            serde_json::json!({"cronjob": {"enabled": "no"}}),
            "/cronjob/enabled",
        ),
        // The template's own refusals, each naming what to set.
        (
            serde_json::json!({"serve": {"enabled": true}}),
            "serve.enabled needs serve.webhookSecret.existingSecret",
        ),
        (
            serde_json::json!({"serve": {"enabled": true, "webhookSecret": hook, "ingress": {"enabled": true}}}),
            "serve.ingress.enabled needs serve.ingress.host",
        ),
        (
            serde_json::json!({"cronjob": {"enabled": false}}),
            "cronjob.enabled and serve.enabled are both false",
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
fn serve_disabled_renders_no_serve_objects_and_serve_alone_keeps_the_rbac() {
    let tmp = tempfile::tempdir().unwrap();
    // Off by default; its sub-switches alone turn nothing on.
    for (values, prefix) in [
        (serde_json::json!({}), "default"),
        (
            serde_json::json!({"serve": {"enabled": false, "webhookSecret": {"existingSecret": "hook"},
                "ingress": {"enabled": true, "host": "lane.example.com"}, "persistence": {"enabled": true}}}),
            "disabled",
        ),
    ] {
        let files = render_chart(&values, tmp.path(), prefix);
        assert_eq!(
            kinds(&files),
            [
                "ConfigMap",
                "CronJob",
                "Role",
                "RoleBinding",
                "ServiceAccount"
            ],
            "{values}"
        );
        assert!(!notes(tmp.path(), prefix).contains("lane serve"));
    }
    // Serve alone: no CronJob, and the Role, its binding and the service
    // account still there for the service.
    let files = render_chart(
        &serde_json::json!({"cronjob": {"enabled": false}, "serve": {"enabled": true, "webhookSecret": {"existingSecret": "hook"}}}),
        tmp.path(),
        "alone",
    );
    assert_eq!(
        kinds(&files),
        [
            "ConfigMap",
            "Deployment",
            "PersistentVolumeClaim",
            "Role",
            "RoleBinding",
            "Service",
            "ServiceAccount"
        ]
    );
    assert!(!notes(tmp.path(), "alone").contains("Scheduled mints"));
    for f in &files {
        validate(f, "1.30.0");
    }
}
