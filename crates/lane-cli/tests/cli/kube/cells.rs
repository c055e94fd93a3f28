//! A pod's cell comes back whole through the store: the mint writes a cell
//! larger than a bundle inlines (20 MiB) outside `artifacts/` and names it
//! in its report; the pod's agent streams it to S3 (moto on loopback) under
//! a key of its own, and `lane mint` streams it back into the results
//! folder, checked against the manifest. A `maxFetchBytes` below the cell
//! refuses the slot, by name, before anything is fetched. The hard cases
//! of the production path: a store outage during a pod's upload, a kill -9
//! of `lane mint` while it gathers, and a pair of cells that differ.

use super::*;

/// The cell: `cell of big\n` repeated, cut at 20 MiB (the same in every
/// repeat, so the pair is byte-identical). `LANE_TEST_CELL_BYTES` sets
/// another size for a run by hand (docs/performance.md: 2 GiB).
fn cell_bytes() -> u64 {
    std::env::var("LANE_TEST_CELL_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20 << 20)
}

fn cell_sha256() -> String {
    use sha2::{Digest, Sha256};
    let line = b"cell of big\n";
    let mut h = Sha256::new();
    let mut left = cell_bytes() as usize;
    while left > 0 {
        let n = left.min(line.len());
        h.update(&line[..n]);
        left -= n;
    }
    format!("{:x}", h.finalize())
}

/// One cell, `big`, on L4, two repeats: two Jobs.
fn write_cell_lane(dir: &std::path::Path, kube_extra: &str) {
    write_cell_lane_then(dir, kube_extra, "true");
}

/// [`write_cell_lane`], each mint running `then` (shell) once its report is
/// written, before its agent uploads anything.
fn write_cell_lane_then(dir: &std::path::Path, kube_extra: &str, then: &str) {
    std::fs::create_dir_all(dir.join("lanes")).unwrap();
    let cell_bytes = cell_bytes();
    let script = format!(
        r#"mkdir -p out && yes "cell of $LANE_CELL" | head -c {cell_bytes} > out/cell.bin && printf '{{"status":"minted","recipe":"aot","artifact":"out/cell.bin","phases":{{"load":0.1}}}}' > "$LANE_REPORT_PATH" && {then}"#
    );
    let script = serde_json::to_string(&script).unwrap();
    std::fs::write(
        dir.join(format!("lanes/{LANE}.yaml")),
        format!("version: \"{LANE}\"\nupstream: {{repo: ./up}}\nbase: v0.93.2\nmint:\n  gpus: [L4]\n  cold_repeats: 2\n  timeout_s: 60\n  retry: {{crashed: 0}}\n  cells:\n    - name: big\n      recipe: aot\n      command: [sh, -c, {script}]\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("kube.yaml"),
        format!("laneImage: lane:test\nmintImage: mint:test\nnamespace: {NS}\n{kube_extra}"),
    )
    .unwrap();
}

/// The kube config's store lines: moto's bucket, the pods' keys from the
/// `lane-store` Secret, and `endpoint` as the pods' way to it.
fn s3_store_cfg(endpoint: &str) -> String {
    format!(
        "store: s3://lanes/ci\nstoreSecret: lane-store\nstoreEnv: {{LANE_S3_ENDPOINT: \"{endpoint}\"}}\n"
    )
}

/// The kubelet stand-in with the `lane-store` Secret's keys.
fn s3_kubelet<'a>(
    emu: &'a lane_testkit::KubeEmulator,
    dir: &std::path::Path,
) -> lane_testkit::Kubelet<'a> {
    kubelet(emu, dir).secret(
        "lane-store",
        &[
            ("AWS_ACCESS_KEY_ID", "testing"),
            ("AWS_SECRET_ACCESS_KEY", S3_SECRET),
        ],
    )
}

/// What `lane mint` itself is given to reach moto at `endpoint`.
fn s3_creds(endpoint: &str) -> [(&'static str, &str); 3] {
    [
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", S3_SECRET),
        ("LANE_S3_ENDPOINT", endpoint),
    ]
}

#[test]
fn a_pods_cell_comes_back_whole_through_s3_and_a_cap_below_it_refuses_the_slot() {
    use lane_store::ArtifactStore;
    let d = tempfile::tempdir().unwrap();
    let (_moto, endpoint, s3) = super::super::wheel::moto("ci", S3_SECRET);
    let store_cfg = s3_store_cfg(&endpoint);
    write_cell_lane(d.path(), &store_cfg);
    let emu = emulator(d.path(), Hooks::default());
    let kubelet = s3_kubelet(&emu, d.path());
    let creds = s3_creds(&endpoint);
    let mut lane = Lane(spawn_lane_with(d.path(), "run", &[], &creds));
    let jobs = wait_jobs(&emu, "two Jobs", |j| j.len() == 2);
    for (name, job) in &jobs {
        assert_eq!(kubelet.run_job(name, job), JobEnd::Complete, "{name}");
    }
    let o = lane.wait(d.path(), "run", Duration::from_secs(120));
    let all = stdout(&o) + &stderr(&o);
    assert_eq!(code(&o), 0, "{all}");
    assert!(!all.contains(S3_SECRET), "the S3 secret was printed");
    let sha = cell_sha256();
    let results = d.path().join(format!("out/lanes/{LANE}/results"));
    for r in [1, 2] {
        let slot = results.join(format!("big/L4/r{r}"));
        let cell = slot.join("artifacts/cell.bin");
        assert_eq!(std::fs::metadata(&cell).unwrap().len(), cell_bytes());
        let record = read_json(&slot.join("mint.json"));
        assert_eq!(record["status"], "minted", "{record}");
        let key = format!("lanes/{LANE}/runs/manual/mints/big/L4/r{r}/a1/files/{sha}");
        assert_eq!(
            record["bundle"]["stored"],
            serde_json::json!([{"path": "artifacts/cell.bin", "key": key, "size": cell_bytes(), "sha256": sha}]),
            "{record}"
        );
        assert!(
            record["bundle"]["skipped"].as_array().unwrap().is_empty(),
            "{record}"
        );
        // In S3 under its own key; the bundle carries only its name.
        let stored = lane_store::StoreKey::new(key).unwrap();
        let mut hashed = Vec::new();
        lane_store::get_verified(&s3, &stored, &mut hashed, cell_bytes(), &sha).unwrap();
        let bundle = s3
            .get(&lane_store::StoreKey::new(record["bundle"]["key"].as_str().unwrap()).unwrap())
            .unwrap();
        assert!(bundle.len() < 1 << 20, "{} bytes", bundle.len());
    }
    // Both cells came back whole, so the report diffs them: the same bytes,
    // but this cell's report measures no compile, so its repeats are not
    // proven cold and the bytes are no proof.
    let report: serde_json::Value = read_json(
        &d.path()
            .join(format!("out/lanes/{LANE}/report/report.json")),
    );
    let det = &report["cells"][0]["determinism"];
    assert_eq!(det["verdict"], "identical_not_proven", "{det}");
    for side in ["a", "b"] {
        assert_eq!(det["coldness"][side]["cold"], "unknown", "{det}");
    }
    let sha_of = |p: &std::path::Path| {
        use sha2::{Digest, Sha256};
        format!("{:x}", Sha256::digest(std::fs::read(p).unwrap()))
    };
    assert_eq!(sha_of(&results.join("big/L4/r1/artifacts/cell.bin")), sha);

    // A new run whose cap is below the cell: each slot is refused by name
    // before its cell is fetched, and the lane is not green.
    write_cell_lane(d.path(), &format!("{store_cfg}maxFetchBytes: 1000000\n"));
    let mut lane = Lane(spawn_lane_with(
        d.path(),
        "capped",
        &["--run-id", "capped"],
        &creds,
    ));
    let jobs = wait_jobs(&emu, "two more Jobs", |j| j.len() == 4);
    for (name, job) in jobs
        .iter()
        .filter(|(_, j)| j["metadata"]["labels"]["lane.dev/run"] == "capped")
    {
        assert_eq!(kubelet.run_job(name, job), JobEnd::Complete, "{name}");
    }
    let o = lane.wait(d.path(), "capped", Duration::from_secs(120));
    let all = stdout(&o) + &stderr(&o);
    assert_eq!(code(&o), 7, "{all}");
    let record = read_json(&results.join("big/L4/r1/mint.json"));
    assert_eq!(record["status"], "crashed", "{record}");
    let reason = record["reason"].as_str().unwrap();
    assert!(
        reason.contains(&format!("its manifest names 1 file(s) of {} bytes in all, more than the 65536 file(s) or 1000000 bytes lane fetches for one slot (maxFetchBytes): refused before fetching", cell_bytes())),
        "{reason}"
    );
    assert!(!results.join("big/L4/r1/artifacts/cell.bin").exists());
}

#[test]
fn a_store_outage_during_a_pods_upload_costs_no_mint() {
    let d = tempfile::tempdir().unwrap();
    let (_moto, endpoint, _s3) = super::super::wheel::moto("ci", S3_SECRET);
    // The pods reach the store through a link that goes down; lane itself
    // (gathering) reaches it directly.
    let link = lane_testkit::OutageProxy::start(endpoint.trim_start_matches("http://"));
    let store_cfg = s3_store_cfg(&link.endpoint());
    // Each mint also writes down the environment it was given.
    write_cell_lane_then(
        d.path(),
        &store_cfg,
        r#"env > "$LANE_ARTIFACTS_DIR/env.txt""#,
    );
    let emu = emulator(d.path(), Hooks::default());
    let kubelet = s3_kubelet(&emu, d.path());
    let creds = s3_creds(&endpoint);
    let mut lane = Lane(spawn_lane_with(d.path(), "run", &[], &creds));
    let jobs = wait_jobs(&emu, "two Jobs", |j| j.len() == 2);
    // The outage: once the first pod has sent half its cell through the
    // link (the upload in flight is cut), for 8 s (longer than the S3
    // client's own retries, which gave up after about 2 s), or
    // `LANE_TEST_OUTAGE_S` for a run by hand.
    let outage_s = std::env::var("LANE_TEST_OUTAGE_S")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    link.cut_after(cell_bytes() / 2, Duration::from_secs(outage_s));
    for (name, job) in &jobs {
        assert_eq!(kubelet.run_job(name, job), JobEnd::Complete, "{name}");
    }
    assert!(link.cut_began(), "the upload was cut mid-way");
    let o = lane.wait(d.path(), "run", Duration::from_secs(900));
    let all = stdout(&o) + &stderr(&o);
    assert_eq!(code(&o), 0, "{all}");
    let results = d.path().join(format!("out/lanes/{LANE}/results"));
    let sha = cell_sha256();
    for r in [1, 2] {
        let record = read_json(&results.join(format!("big/L4/r{r}/mint.json")));
        assert_eq!(record["status"], "minted", "{record}");
        // One pod, one attempt: the outage cost no mint.
        assert_eq!(record["attempt"], 1, "{record}");
        assert_eq!(record["bundle"]["stored"][0]["sha256"], sha, "{record}");
        // The pod's agent holds the store's keys; the mint it runs never
        // sees them, nor where the store is.
        let env = std::fs::read_to_string(results.join(format!("big/L4/r{r}/artifacts/env.txt")))
            .unwrap();
        for needle in [
            S3_SECRET,
            "AWS_",
            "LANE_S3_ENDPOINT",
            link.endpoint().as_str(),
        ] {
            assert!(!env.contains(needle), "`{needle}` reached the mint: {env}");
        }
    }
    // The first pod said it waited for the store.
    let logs: String = jobs
        .keys()
        .map(|name| {
            std::fs::read_to_string(d.path().join(format!("{name}-p0.err"))).unwrap_or_default()
        })
        .collect();
    assert!(
        logs.contains("the store refused the result bundle; trying again"),
        "{logs}"
    );
}

#[test]
fn kill_9_during_gathering_then_a_rerun_gathers_every_slot_whole() {
    let d = tempfile::tempdir().unwrap();
    let (_moto, endpoint, _s3) = super::super::wheel::moto("ci", S3_SECRET);
    let store_cfg = s3_store_cfg(&endpoint);
    write_cell_lane(d.path(), &store_cfg);
    let emu = emulator(d.path(), Hooks::default());
    let kubelet = s3_kubelet(&emu, d.path());
    let creds = s3_creds(&endpoint);
    let mut lane = Lane(spawn_lane_with(d.path(), "run", &[], &creds));
    let jobs = wait_jobs(&emu, "two Jobs", |j| j.len() == 2);
    for (name, job) in &jobs {
        assert_eq!(kubelet.run_job(name, job), JobEnd::Complete, "{name}");
    }
    // The first sign of gathering (a slot's folder, or its temporary one):
    // kill -9, while lane is still running and before its summary.
    let results = d.path().join(format!("out/lanes/{LANE}/results"));
    let gathering = results.join("big/L4");
    let until = std::time::Instant::now() + Duration::from_secs(60);
    while std::fs::read_dir(&gathering).map_or(true, |mut d| d.next().is_none()) {
        assert!(std::time::Instant::now() < until, "lane never gathered");
        assert!(
            lane.0.try_wait().unwrap().is_none(),
            "lane ended before gathering"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    lane.0.kill().unwrap();
    lane.0.wait().unwrap();
    assert!(
        !results.join("summary.json").exists(),
        "killed mid-gathering, before the summary"
    );
    // The rerun gathers every slot whole from the store and creates nothing.
    let mut again = Lane(spawn_lane_with(d.path(), "again", &[], &creds));
    let o = again.wait(d.path(), "again", Duration::from_secs(120));
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(emu.jobs().len(), 2, "no Job was created again");
    let sha = cell_sha256();
    for r in [1, 2] {
        let cell = results.join(format!("big/L4/r{r}/artifacts/cell.bin"));
        assert_eq!(std::fs::metadata(&cell).unwrap().len(), cell_bytes());
        let record = read_json(&results.join(format!("big/L4/r{r}/mint.json")));
        assert_eq!(record["bundle"]["stored"][0]["sha256"], sha, "{record}");
    }
    let left: Vec<_> = std::fs::read_dir(&gathering)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let mut left = left;
    left.sort();
    assert_eq!(left, ["r1", "r2"], "no temporary folder is left");
}

#[test]
fn a_pair_of_large_cells_that_differ_in_a_few_bytes_names_the_file_and_the_line() {
    let d = tempfile::tempdir().unwrap();
    let (_moto, endpoint, _s3) = super::super::wheel::moto("ci", S3_SECRET);
    let store_cfg = s3_store_cfg(&endpoint);
    // The second repeat's cell differs in 4 bytes, 1 MiB + 3 in.
    write_cell_lane_then(
        d.path(),
        &store_cfg,
        r#"case "$LANE_MINT_ID" in */r2/*) printf WXYZ | dd of=out/cell.bin bs=1 seek=1048579 conv=notrunc 2>/dev/null;; esac"#,
    );
    let emu = emulator(d.path(), Hooks::default());
    let kubelet = s3_kubelet(&emu, d.path());
    let creds = s3_creds(&endpoint);
    let mut lane = Lane(spawn_lane_with(d.path(), "run", &[], &creds));
    let jobs = wait_jobs(&emu, "two Jobs", |j| j.len() == 2);
    for (name, job) in &jobs {
        assert_eq!(kubelet.run_job(name, job), JobEnd::Complete, "{name}");
    }
    let o = lane.wait(d.path(), "run", Duration::from_secs(120));
    let all = stdout(&o) + &stderr(&o);
    assert_eq!(code(&o), 0, "every slot minted: {all}");
    let report: serde_json::Value = read_json(
        &d.path()
            .join(format!("out/lanes/{LANE}/report/report.json")),
    );
    // Both cells came back whole through the store, so the pair is
    // compared: the one place they differ is named, nothing else.
    let det = &report["cells"][0]["determinism"];
    assert_eq!(det["verdict"], "unexplained", "{det}");
    assert_eq!(
        det["unexplained"],
        serde_json::json!([{
            "a": "cell.bin", "b": "cell.bin", "cause": "text_lines",
            "lines": [{"file": "cell.bin", "line_a": 87382, "line_b": 87382, "role": "other",
                       "text_a": "cell of big", "text_b": "cell ofWXYZ"}],
            "reason": "1 line(s) differ after normalisation outside the launchers of kernels whose configs differ (or against their config)"
        }]),
        "{det}"
    );
}
