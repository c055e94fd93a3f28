//! `lane report` through the binary, on results folders `lane mint`
//! really wrote: the markdown (snapshot), `--post --dry-run` writing the
//! exact requests, no token in any output, and results of another lane
//! refused.

use std::path::PathBuf;

use super::{code, lane, stderr, stdout, Redact, ROOT};

/// Runs `lane` with `args` in `dir` and extra environment.
fn lane_env(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_lane"));
    cmd.args(args)
        .current_dir(dir)
        .env_remove("LANE_LOG")
        .env("NO_COLOR", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the lane binary runs")
}

/// The results `lane mint` really wrote: gen-worker 0.93.3's rig on an H200.
fn h200_run() -> String {
    format!("{ROOT}/tests/data/gw-0.93.3-h200/h200-run/results")
}

/// The probe lane those results are of, with PRs to post to: a lane file
/// in `dir`, named after its version as lane files are.
fn probe_lane_posting(dir: &std::path::Path) -> String {
    let probe = std::fs::read_to_string(format!("{ROOT}/lanes/0.0.0.yaml")).unwrap();
    let path = dir.join("lanes/0.0.0.yaml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        format!("{probe}github:\n  repo: cozy-creator/python-gen-worker\n  post_to: [515, 511]\n"),
    )
    .unwrap();
    path.display().to_string()
}

/// `lane report` on the real H200 lane against the same rig minted
/// without the device's cubin adaptation (its baseline), in `dir`.
pub(crate) fn run(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let lane_file = format!("{ROOT}/lanes/0.0.0.yaml");
    let results = h200_run();
    let baseline = format!("{ROOT}/tests/data/gw-0.93.3-h200/h200-run-unshimmed-gw/results");
    let mut args = vec![
        "report",
        lane_file.as_str(),
        "--results",
        results.as_str(),
        "--baseline-results",
        baseline.as_str(),
    ];
    args.extend_from_slice(extra);
    lane(dir, &args)
}

#[test]
fn dry_run_writes_the_exact_requests_and_posts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane_env(
        dir.path(),
        &[
            "report",
            &probe_lane_posting(dir.path()),
            "--results",
            &h200_run(),
            "--post",
            "--dry-run",
            "--head-sha",
            &"c".repeat(40),
            "--json",
        ],
        &[
            ("GITHUB_TOKEN", "ghp_NeverPrintMe0123456789"),
            ("GITHUB_API_URL", "http://127.0.0.1:1"),
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let req = PathBuf::from(dir.path()).join("out/lanes/0.0.0/requests");
    let mut names: Vec<String> = std::fs::read_dir(&req)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "001-comment-515.json",
            "002-comment-511.json",
            "003-check-run.json"
        ]
    );
    let first: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(req.join("001-comment-515.json")).unwrap())
            .unwrap();
    assert_eq!(first["method"], "POST");
    assert_eq!(
        first["path"],
        "/repos/cozy-creator/python-gen-worker/issues/515/comments"
    );
    assert!(first["body"]["body"]
        .as_str()
        .unwrap()
        .starts_with("<!-- lane-report lane=0.0.0 -->"));
    let check: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(req.join("003-check-run.json")).unwrap())
            .unwrap();
    // Every real mint minted; the real reports carry warning findings.
    assert_eq!(check["body"]["conclusion"], "neutral");
    assert_eq!(check["body"]["name"], "lane 0.0.0");
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!all.contains("ghp_NeverPrintMe"), "{all}");
}

#[test]
fn post_without_credentials_fails_without_posting() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane_env(
        dir.path(),
        &[
            "report",
            &probe_lane_posting(dir.path()),
            "--results",
            &h200_run(),
            "--post",
        ],
        &[
            ("GITHUB_TOKEN", ""),
            ("GITHUB_API_URL", "http://127.0.0.1:1"),
        ],
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no GitHub credentials"),
        "{}",
        stderr(&o)
    );
}

/// The report of a results folder `lane mint` really wrote: the real
/// gen-worker 0.93.3 mints on an H200 (`tests/data/gw-0.93.3-h200/h200-run`),
/// read with the real reports' shapes and the real cells' diffs.
#[test]
fn report_renders_the_real_h200_run_lane_mint_gathered() {
    let dir = tempfile::tempdir().unwrap();
    let lane_file = format!("{ROOT}/lanes/0.0.0.yaml");
    let results = format!("{ROOT}/tests/data/gw-0.93.3-h200/h200-run/results");
    let o = lane(
        dir.path(),
        &["report", &lane_file, "--results", &results, "--json"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!(
        "report_real_h200_run_json",
        Redact::new().dir(dir.path(), "<TMP>").json(&stdout(&o))
    );
    let md = std::fs::read_to_string(dir.path().join("out/lanes/0.0.0/report.md")).unwrap();
    for cell in ["rig-dynamo", "rig-aot"] {
        assert!(md.contains(cell), "{cell}: {md}");
    }
    assert_eq!(
        md.matches("unexplained: none").count(),
        2,
        "every cause is named: {md}"
    );
    assert!(!md.contains("unexplained ("), "{md}");
    assert!(!md.contains("not diffed"), "both pairs are diffed: {md}");
    // The next-step commands name the results folder; the checkout's path
    // is the machine's, not the report's.
    insta::assert_snapshot!("report_real_h200_run", md.replace(ROOT, "<ROOT>"));
}

/// The probe lanes of the later eras, minted through `lane mint` on an
/// H200 (examples/gw-mint/eras-device-run.sh; tests/data/gw-eras/lanes,
/// cells and traces dropped, their sha256 kept): each reads back as what
/// the device saw. The 0.114-0.126 rig's compile pool packs CPU code, and
/// lane said so there; the report keeps that reason, not a green.
#[test]
fn each_eras_device_lane_reports_what_lane_mint_gathered_there() {
    let cases = [
        (
            "0.0.1",
            "v0.100.1",
            "green, 2 of 2 minted",
            "one aot-inductor cell",
        ),
        (
            "0.0.2",
            "v0.114.3",
            "not green, 0 of 2 minted",
            "compiled for the CPU",
        ),
        (
            "0.0.2",
            "v0.126.3",
            "not green, 0 of 2 minted",
            "compiled for the CPU",
        ),
        (
            "0.0.3",
            "v0.127.2",
            "green, 2 of 2 minted",
            "gen-worker compile verdict",
        ),
    ];
    for (version, tag, status, reason) in cases {
        let dir = tempfile::tempdir().unwrap();
        let lane_file = format!("{ROOT}/lanes/{version}.yaml");
        let results = format!("{ROOT}/tests/data/gw-eras/lanes/{tag}/results");
        let o = lane(
            dir.path(),
            &["report", &lane_file, "--results", &results, "--no-history"],
        );
        assert_eq!(code(&o), 0, "{tag}: {}", stderr(&o));
        let md = std::fs::read_to_string(dir.path().join(format!("out/lanes/{version}/report.md")))
            .unwrap();
        assert!(md.contains(status), "{tag}: {status}: {md}");
        assert!(md.contains(reason), "{tag}: {reason}: {md}");
        insta::assert_snapshot!(
            format!("report_eras_device_lane_{tag}"),
            md.replace(ROOT, "<ROOT>")
        );
    }
}

/// Regression: `lane report` once read any results folder as the lane it
/// was given; results of lane 0.0.0 were shown as lane 0.93.3's.
#[test]
fn results_of_another_lane_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let o = lane(
        dir.path(),
        &[
            "report",
            &format!("{ROOT}/lanes/0.93.3.yaml"),
            "--results",
            &h200_run(),
        ],
    );
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("are lane 0.0.0's, not lane 0.93.3's"),
        "{}",
        stderr(&o)
    );
}

/// A baseline lane's results are compared cell by cell: the same rig
/// minted without the device's cubin adaptation, whose dynamo mints failed.
#[test]
fn a_baseline_lanes_results_are_compared_cell_by_cell() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/lanes/0.0.0/report.json")).unwrap(),
    )
    .unwrap();
    let cells = json["cells"].as_array().unwrap();
    let cell = |name: &str| cells.iter().find(|c| c["cell"] == name).unwrap();
    // Both aot lanes minted: compared row by row.
    assert!(cell("rig-aot")["comparison"]["rows"].is_array());
    // The baseline's dynamo mints failed before their warm ledger: the two
    // ledgers are not summed against each other, and the cell says so.
    assert_eq!(
        cell("rig-dynamo")["comparison_note"],
        "refusing to mix ledger versions: phases_only and warm_spans_v1"
    );
}

/// The real v0.126.3 mints (gen-worker 0.114+: one packed file per graph
/// class, named in the report's `entries`) laid out in `slots`
/// (`<results>/<cell>/<gpu>`) as `lane mint` gathers them: each repeat's
/// report at its slot, its entry files under `artifacts/`, the pool's share
/// report under `ledger/`. `edit` may change r2's slot after it is laid out.
pub(crate) fn lay_out_classes(slots: &std::path::Path, edit: impl FnOnce(&std::path::Path)) {
    for r in ["r1", "r2"] {
        let from = PathBuf::from(ROOT).join(format!("tests/data/gw-eras/v0.126.3/{r}/rig/mint"));
        let slot = slots.join(r);
        if slot.exists() {
            std::fs::remove_dir_all(&slot).unwrap();
        }
        let share = slot.join("ledger/compile-pool/share-000");
        std::fs::create_dir_all(&share).unwrap();
        std::fs::create_dir_all(slot.join("artifacts")).unwrap();
        std::fs::copy(from.join("report.json"), slot.join("report.json")).unwrap();
        std::fs::copy(
            from.join("compile-pool/share-000/report.json"),
            share.join("report.json"),
        )
        .unwrap();
        for e in std::fs::read_dir(&from).unwrap() {
            let e = e.unwrap();
            if e.file_name().to_string_lossy().ends_with(".tar.gz") {
                std::fs::copy(e.path(), slot.join("artifacts").join(e.file_name())).unwrap();
            }
        }
    }
    edit(&slots.join("r2"));
}

/// A results folder of one cell, `rig-aot` on H200, laid out by
/// [`lay_out_classes`].
fn classes_results(dir: &std::path::Path, edit: impl FnOnce(&std::path::Path)) -> PathBuf {
    let results = dir.join("results");
    lay_out_classes(&results.join("rig-aot/H200"), edit);
    results
}

/// The report's determinism rows of the one cell: its row of the cells
/// table and its determinism section, up to the next section.
fn determinism_rows(md: &str) -> String {
    let row: Vec<&str> = md.lines().filter(|l| l.starts_with("| rig-aot")).collect();
    let from = md
        .find("#### Determinism (r1 against r2)")
        .expect("a determinism section");
    let section = &md[from..];
    let end = section.find("</details>").unwrap_or(section.len());
    format!("{}\n\n{}", row.join("\n"), &section[..end])
}

/// `lane report` of a cell whose repeats' reports name graph classes diffs
/// them class by class, as `lane diff` pairs two mints: each class's
/// verdict and the pair's worst. The real pair (r2 resolved every class
/// from r1's cache: its files are r1's) is byte-identical class by class,
/// and the pair identical but no proof (r2 is warm, exactly as `lane diff`
/// says); with r2's `B=1` file holding the real `B=2` cell (its report
/// naming that file's digest), `B=1` reads unexplained and so does the pair.
#[test]
fn report_of_repeats_of_graph_classes_diffs_them_class_by_class() {
    const B1: &str = "cg-key-v1-3bf77855f63ecb48ffaad0da1276bb9eecdccad42b4647e475380ff2";
    const B2: &str = "cg-key-v1-578c02769cd3fa5574100831fd848a6961fdf92104671ac16ca71b36";
    let lane_file = format!("{ROOT}/lanes/0.0.0.yaml");
    let report = |dir: &std::path::Path, results: &std::path::Path| {
        let results = results.display().to_string();
        // No summary.json in these folders: nothing for the history to keep.
        let o = lane(
            dir,
            &["report", &lane_file, "--results", &results, "--no-history"],
        );
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let md = std::fs::read_to_string(dir.join("out/lanes/0.0.0/report.md")).unwrap();
        let json: serde_json::Value = serde_json::from_slice(
            &std::fs::read(dir.join("out/lanes/0.0.0/report.json")).unwrap(),
        )
        .unwrap();
        (md, json["cells"][0]["determinism"].clone())
    };
    let same = tempfile::tempdir().unwrap();
    let (md, det) = report(same.path(), &classes_results(same.path(), |_| {}));
    assert_eq!(det["verdict"], "identical_not_proven", "{det}");
    assert_eq!(det["coldness"]["b"]["cold"], "warm", "{det}");
    let classes: Vec<(&str, &str)> = det["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["path_a"].as_str().unwrap(),
                c["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(classes.len(), 3, "{det}");
    assert!(
        classes
            .iter()
            .all(|(p, v)| p.starts_with("artifacts/cg-key-v1-") && *v == "byte_identical"),
        "{classes:?}"
    );
    assert!(!md.contains(&same.path().display().to_string()), "{md}");
    insta::assert_snapshot!("report_v0_126_3_classes", determinism_rows(&md));

    let swapped = tempfile::tempdir().unwrap();
    let results = classes_results(swapped.path(), |r2| {
        let b2 = r2.join(format!("artifacts/{B2}.tar.gz"));
        let b1 = r2.join(format!("artifacts/{B1}.tar.gz"));
        std::fs::copy(&b2, &b1).unwrap();
        let path = r2.join("report.json");
        let mut v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let sha = {
            use sha2::{Digest, Sha256};
            format!("{:x}", Sha256::digest(std::fs::read(&b1).unwrap()))
        };
        for e in v["entries"].as_array_mut().unwrap() {
            if e[0] == B1 {
                e[2] = sha.clone().into();
            }
        }
        std::fs::write(&path, v.to_string()).unwrap();
    });
    let (md, det) = report(swapped.path(), &results);
    assert_eq!(det["verdict"], "unexplained", "{det}");
    let verdicts: Vec<&str> = det["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        ["unexplained", "byte_identical", "byte_identical"]
    );
    insta::assert_snapshot!("report_v0_126_3_swapped_class", determinism_rows(&md));
}

/// Regression (issue 19, item 3): `lane report` took a summary edited to
/// say green beside slots whose `mint.json` say failed, with a slot named
/// `0.0.0/../../../etc/H200/r1` and one missing, without a word. The report
/// reads every planned slot's record and its check fails naming each
/// disagreement.
#[test]
fn regression_report_names_where_an_edited_summary_disagrees_with_its_slots() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let cp = std::process::Command::new("cp")
        .arg("-r")
        .arg(h200_run())
        .arg(&results)
        .status()
        .unwrap();
    assert!(cp.success());
    for r in ["r1", "r2"] {
        let path = results.join(format!("rig-aot/H200/{r}/mint.json"));
        let text = std::fs::read_to_string(&path).unwrap();
        let failed = text.replacen("\"status\": \"minted\"", "\"status\": \"failed\"", 1);
        assert_ne!(text, failed);
        std::fs::write(&path, failed).unwrap();
    }
    let path = results.join("summary.json");
    let mut summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mints = summary["mints"].as_array_mut().unwrap();
    mints[2]["slot"] = "0.0.0/../../../etc/H200/r1".into();
    mints.pop();
    std::fs::write(&path, serde_json::to_vec_pretty(&summary).unwrap()).unwrap();
    let lane_file = format!("{ROOT}/lanes/0.0.0.yaml");
    let o = lane(
        dir.path(),
        &[
            "report",
            &lane_file,
            "--results",
            &results.display().to_string(),
        ],
    );
    let md = std::fs::read_to_string(dir.path().join("out/lanes/0.0.0/report.md")).unwrap();
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/lanes/0.0.0/report.json")).unwrap(),
    )
    .unwrap();
    insta::assert_json_snapshot!("report_disagreements", json["disagreements"]);
    assert!(
        md.contains("summary.json disagrees with the slots: "),
        "{md}"
    );
    assert!(md.contains("the check fails"), "{md}");
    assert_eq!(code(&o), 0, "a report is written, failing: {}", stderr(&o));
}

#[test]
fn regression_report_out_replaced_another_reports_json_and_page() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("shared");
    std::fs::create_dir_all(&other).unwrap();
    for name in ["report.json", "report.html"] {
        std::fs::write(other.join(name), "another report's\n").unwrap();
    }
    let out = other.join("lane-0.0.0.md");
    let o = run(dir.path(), &["--out", out.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for name in ["report.json", "report.html"] {
        assert_eq!(
            std::fs::read_to_string(other.join(name)).unwrap(),
            "another report's\n",
            "{name} is another report's and stays"
        );
    }
    for name in ["lane-0.0.0.md", "lane-0.0.0.json", "lane-0.0.0.html"] {
        assert!(other.join(name).is_file(), "{name} is written");
    }
    let left: Vec<String> = std::fs::read_dir(&other)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".lane-tmp-"))
        .collect();
    assert!(left.is_empty(), "no temporary file is left: {left:?}");
}

#[test]
fn a_report_out_named_like_its_json_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.json");
    let o = run(dir.path(), &["--out", out.to_str().unwrap()]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    insta::assert_snapshot!(
        Redact::new().dir(dir.path(), "<TMP>").apply(&stderr(&o)),
        @"error: --out <TMP>/x.json: the report's JSON and page are written beside it as .json and .html; name a .md file"
    );
    assert!(!out.exists());
}

/// The real 0.127.2 lane minted on the H200, with its second repeat's
/// record saying what lane's agent records on an H100 (`nvidia-smi`'s
/// name for it).
fn v0_127_2_with_r2_on(dir: &std::path::Path, card: &str) -> PathBuf {
    let results = dir.join("results");
    super::history::copy_tree(
        std::path::Path::new(&format!("{ROOT}/tests/data/gw-eras/lanes/v0.127.2/results")),
        &results,
    );
    let record = results.join("compile-toy/H200/r2/mint.json");
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("\"NVIDIA H200\""), "{text}");
    std::fs::write(
        &record,
        text.replace("\"NVIDIA H200\"", &format!("\"{card}\"")),
    )
    .unwrap();
    results
}

#[test]
fn regression_a_slot_that_ran_on_another_card_was_reported_under_its_class() {
    let dir = tempfile::tempdir().unwrap();
    let results = v0_127_2_with_r2_on(dir.path(), "NVIDIA H100 80GB HBM3");
    let lane_file = format!("{ROOT}/lanes/0.0.3.yaml");
    let o = lane(
        dir.path(),
        &[
            "report",
            &lane_file,
            "--results",
            results.to_str().unwrap(),
            "--no-history",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let md = std::fs::read_to_string(dir.path().join("out/lanes/0.0.3/report.md")).unwrap();
    assert!(
        md.contains("compile-toy on H200 r2: ran on NVIDIA H100 80GB HBM3, not on its GPU class"),
        "{md}"
    );
    assert!(!md.contains("Can this lane ship? Yes"), "{md}");
    let model: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/lanes/0.0.3/report.json")).unwrap(),
    )
    .unwrap();
    let findings = model["cells"][0]["repeats"][1]["breakdown"]["findings"].to_string();
    assert!(findings.contains("card_not_class"), "{findings}");
    // The history keeps the card's seconds apart from the class's.
    let o = lane(
        dir.path(),
        &[
            "history",
            "add",
            results.to_str().unwrap(),
            "--history",
            "store",
            "--json",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = lane(dir.path(), &["history", "export", "--history", "store"]);
    let gpus: std::collections::BTreeSet<String> = stdout(&o)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["gpu"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        gpus.into_iter().collect::<Vec<_>>(),
        vec!["H200", "H200 on NVIDIA H100 80GB HBM3"]
    );
}
