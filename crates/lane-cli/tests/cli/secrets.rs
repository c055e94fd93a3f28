//! Planted secrets never reach output: every command runs with lane's
//! credentials in its environment (and a password in a URL it is given,
//! and in the GitHub API, S3 and Kubernetes API server URLs its HTTP
//! clients are pointed at), with every log on (`LANE_LOG=trace`, the HTTP
//! clients' own spans included), and neither stdout nor stderr holds any
//! of them, whether the command succeeds or refuses.

use std::process::{Command, Output};

use super::wheel::cut_lane;
use super::ROOT;

/// What is planted, and where.
const PLANTED: [(&str, &str); 7] = [
    ("GITHUB_TOKEN", "ghp_PlantedGithubToken0123456789"),
    ("GH_TOKEN", "ghp_PlantedGhToken0123456789"),
    ("AWS_ACCESS_KEY_ID", "AKIAPLANTEDKEYID0000"),
    ("AWS_SECRET_ACCESS_KEY", "planted-aws-secret-key-0123"),
    ("AWS_SESSION_TOKEN", "planted-aws-session-token-0123"),
    ("LANE_INDEX_TOKEN", "pypi-PlantedIndexToken0123456789"),
    ("LANE_GITHUB_APP_KEY", "-----BEGIN PLANTED KEY-----"),
];
const URL_PASSWORD: &str = "planted-url-password-0123";

fn run(dir: &std::path::Path, args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_lane"));
    c.args(args)
        .current_dir(dir)
        .env("LANE_LOG", "trace")
        .env("NO_COLOR", "1")
        // Regression (issue 19, item 4): a password in these URLs reached
        // the HTTP clients' own spans (`http.url=`, `checkout waiting for
        // idle connection`) at `debug` and `trace`.
        .env(
            "GITHUB_API_URL",
            format!("http://gh:{URL_PASSWORD}@127.0.0.1:1"),
        )
        .env(
            "LANE_S3_ENDPOINT",
            format!("http://s3:{URL_PASSWORD}@127.0.0.1:1"),
        )
        .env("KUBECONFIG", dir.join("kubeconfig.yaml"));
    for (k, v) in PLANTED {
        c.env(k, v);
    }
    c.output().expect("the lane binary runs")
}

#[test]
fn no_command_prints_a_planted_secret_even_with_every_log_on() {
    let lane = cut_lane();
    let d = lane.path();
    std::fs::write(
        d.join("kube.yaml"),
        "laneImage: lane:test\nmintImage: mint:test\nstore: s3://lanes/ci\n",
    )
    .unwrap();
    std::fs::write(
        d.join("kubeconfig.yaml"),
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {{server: \"http://k8s:{URL_PASSWORD}@127.0.0.1:1\"}}\ncontexts:\n- name: c\n  context: {{cluster: c, user: u, namespace: lane}}\ncurrent-context: c\nusers:\n- name: u\n  user: {{}}\n"
        ),
    )
    .unwrap();
    // The probe lane with PRs to post to: `report --post` reaches GitHub.
    let posting = d.join("lanes/0.0.0.yaml").display().to_string();
    std::fs::write(
        &posting,
        std::fs::read_to_string(format!("{ROOT}/lanes/0.0.0.yaml")).unwrap()
            + "github:\n  repo: cozy-creator/python-gen-worker\n  post_to: [515]\n",
    )
    .unwrap();
    let index = format!("https://ci:{URL_PASSWORD}@127.0.0.1:1/legacy/");
    let store = format!("s3://KEYID:{URL_PASSWORD}@lanes/ci");
    let h200 = format!("{ROOT}/tests/data/gw-0.93.3-h200/h200-run/results/rig-aot/H200");
    let (r1, r2) = (format!("{h200}/r1"), format!("{h200}/r2"));
    let report = format!("{r1}/report.json");
    let probe = format!("{ROOT}/lanes/0.0.0.yaml");
    let results = format!("{ROOT}/tests/data/gw-0.93.3-h200/h200-run/results");
    let sha = "c".repeat(40);
    let runs: Vec<Vec<&str>> = vec![
        vec!["cut", "0.93.3", "--dry-run", "--json"],
        vec!["guard", "0.93.3", "--json"],
        vec!["wheel", "0.93.3", "--dry-run", "--json"],
        vec!["wheel", "0.93.3", "--store", &store],
        vec!["publish", "0.93.3", "--index-url", &index],
        vec![
            "publish",
            "0.93.3",
            "--index-url",
            &index,
            "--force",
            "--reason",
            "r",
        ],
        vec!["mint", &probe, "--dry-run", "--json"],
        vec![
            "mint",
            &probe,
            "--backend",
            "kube",
            "--kube-config",
            "kube.yaml",
            "--dry-run",
        ],
        vec![
            "mint",
            &probe,
            "--backend",
            "kube",
            "--kube-config",
            "kube.yaml",
            "--store",
            &store,
            "--dry-run",
        ],
        vec!["status", "0.93.3", "--json"],
        vec!["cancel", "0.93.3", "--kube-config", "kube.yaml"],
        vec!["wheel", "0.93.3", "--store", "s3://lanes/ci"],
        vec![
            "report",
            &probe,
            "--results",
            &results,
            "--post",
            "--dry-run",
            "--head-sha",
            &sha,
        ],
        vec![
            "report",
            &probe,
            "--results",
            &results,
            "--post",
            "--head-sha",
            &sha,
        ],
        vec![
            "report",
            &posting,
            "--results",
            &results,
            "--post",
            "--head-sha",
            &sha,
            "--no-history",
        ],
        vec!["history", "add", &results, "--history", "s3://lanes/ci"],
        vec!["ledger", &report, "--json"],
        vec!["diff", &r1, &r2, "--json"],
        vec!["schema", "summary"],
    ];
    // Every command runs; the failure lists each that printed a secret.
    let mut printed = Vec::new();
    for args in &runs {
        let o = run(d, args);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        for (name, secret) in PLANTED
            .iter()
            .copied()
            .chain([("a URL's password", URL_PASSWORD)])
        {
            if let Some(line) = all.lines().find(|l| l.contains(secret)) {
                printed.push(format!("`lane {}` printed {name}: {line}", args.join(" ")));
            }
        }
    }
    assert!(printed.is_empty(), "{}", printed.join("\n"));
}

/// Every secret lane knows, as its environment holds them, and the text
/// that must not show: a mint started by `lane agent`, `lane mint` or
/// `lane serve` finds none of them (issue 35: `LANE_WEBHOOK_SECRET` and a
/// password in `LANE_S3_ENDPOINT` reached the mint's `env`).
pub fn lanes_secrets() -> Vec<(&'static str, String)> {
    let url = format!("http://s3:{URL_PASSWORD}@127.0.0.1:1");
    PLANTED
        .iter()
        .map(|(k, v)| (*k, (*v).to_owned()))
        .chain([
            (
                "LANE_WEBHOOK_SECRET",
                "planted-webhook-secret-0123456789".to_owned(),
            ),
            ("LANE_S3_ENDPOINT", url.clone()),
            ("AWS_ENDPOINT_URL", url),
        ])
        .collect()
}

/// The secret part of each of [`lanes_secrets`]'s values (a URL's password).
fn needles(planted: &[(&str, String)]) -> Vec<(String, String)> {
    planted
        .iter()
        .map(|(k, v)| {
            let needle = if v.contains(URL_PASSWORD) {
                URL_PASSWORD
            } else {
                v
            };
            ((*k).to_owned(), needle.to_owned())
        })
        .collect()
}

/// Every file under `dir` (links not followed).
fn files(dir: &std::path::Path, into: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let t = e.file_type().unwrap();
        if t.is_dir() {
            files(&e.path(), into);
        } else if t.is_file() {
            into.push(e.path());
        }
    }
}

/// Fails when a file under `dir` holds one of `planted`'s secrets (a
/// mint's environment dump, its logs, what was gathered), or when no
/// environment dump named `dump` (a cell's `env` output) holds the
/// variables the agent sets (so a mint that never ran cannot pass).
pub fn assert_no_secret_reached_a_mint(
    dir: &std::path::Path,
    planted: &[(&str, String)],
    dump: &str,
) {
    let mut all = Vec::new();
    files(dir, &mut all);
    let dumps: Vec<_> = all
        .iter()
        .filter(|p| p.file_name().is_some_and(|n| n == dump))
        .collect();
    assert!(
        !dumps.is_empty(),
        "no mint dumped its environment under {}",
        dir.display()
    );
    for d in &dumps {
        let text = std::fs::read_to_string(d).unwrap();
        assert!(
            text.contains("LANE_MINT_ID=") && text.contains("PATH="),
            "{}: {text}",
            d.display()
        );
    }
    let mut found = Vec::new();
    for path in &all {
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        for (name, needle) in needles(planted) {
            if text.contains(&needle) {
                found.push(format!("{} holds {name}", path.display()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
