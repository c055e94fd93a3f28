//! `uv build --wheel` alone against lane's build + verify + stage of the
//! same tree, alternating, in one run, on the benchmark upstream
//! (`UpstreamSpec::benchmark()`, 1,000+ package files). Prints the medians
//! and what lane adds. Run: `cargo bench -p lane-wheel --bench wheel`.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let runs: usize = std::env::var("LANE_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(7);
    let tools = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.tools"));
    let dir = tempfile::tempdir().unwrap();
    let up = lane_fixture::generate_upstream(
        &dir.path().join("up"),
        &lane_fixture::UpstreamSpec::benchmark(),
    )
    .unwrap();
    let repo = git2::Repository::open(&up.path).unwrap();
    let request = lane_wheel::BuildRequest {
        lane: "0.93.2".into(),
        branch: "release/0.93.2".into(),
        tools_dir: tools.clone(),
    };
    let uv = lane_wheel::Uv::locate(&tools).unwrap();
    // The peer: uv build alone, on a plain checkout of the same tree.
    let tree = lane_wheel::LaneTree::read(&repo, "release/0.93.2").unwrap();
    let checkout = dir.path().join("checkout");
    tree.export(&repo, &checkout).unwrap();
    let uv_alone = || {
        let out = tempfile::tempdir().unwrap();
        let t = Instant::now();
        let s = Command::new(&uv.path)
            .args(["build", "--wheel", "--no-config", "--python"])
            .arg(&uv.python)
            .arg("--out-dir")
            .arg(out.path())
            .arg(&checkout)
            .output()
            .unwrap();
        assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
        t.elapsed().as_secs_f64() * 1000.0
    };
    let lane = || {
        let store_dir = tempfile::tempdir().unwrap();
        let store = lane_store::LocalStore::new(store_dir.path()).unwrap();
        let t = Instant::now();
        let mut built = lane_wheel::build(&repo, &request).unwrap();
        lane_wheel::stage(&store, &mut built, Duration::from_secs(60)).unwrap();
        let total = t.elapsed().as_secs_f64() * 1000.0;
        (total, built.timings, built.manifest.verified.package_files)
    };
    uv_alone();
    lane(); // warm uv's cache (hatchling) for both
    let (mut a, mut b, mut ex, mut bu, mut ve, mut st) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let mut files = 0;
    for _ in 0..runs {
        a.push(uv_alone());
        let (total, t, f) = lane();
        files = f;
        b.push(total);
        ex.push(t.export_ms);
        bu.push(t.build_ms);
        ve.push(t.verify_ms);
        st.push(t.stage_ms);
    }
    let (a, b) = (median(a), median(b));
    println!("wheel bench: {files} package files verified, {runs} alternating runs, medians");
    println!("  uv build --wheel alone:             {a:8.1} ms");
    println!("  lane build + verify + stage:        {b:8.1} ms");
    println!(
        "    of which export {:.1} ms, uv build {:.1} ms, verify {:.1} ms, stage {:.1} ms",
        median(ex),
        median(bu),
        median(ve),
        median(st)
    );
    println!(
        "  lane adds:                          {:8.1} ms ({:+.1} %)",
        b - a,
        (b - a) / a * 100.0
    );
}
