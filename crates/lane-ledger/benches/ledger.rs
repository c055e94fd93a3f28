//! Criterion benchmarks of the ledger's hot paths on the real fixtures:
//! report parsing, trace extraction (the real log repeated in memory), and
//! the determinism diff of the H200 pair. The 1 GB trace against `tlparse`
//! and the 200 MB tree diff are in `trace_vs_tlparse.sh` (whole-process
//! measurements with peak memory). Run: `cargo bench -p lane-ledger`.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use lane_ledger::{ArtifactFile, ArtifactTree};

const H200: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/h200-torch2.11"
);

fn trace_log() -> Vec<u8> {
    let dir = Path::new(H200).join("trace");
    let p = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "log"))
        .unwrap();
    std::fs::read(p).unwrap()
}

fn tree(root: &Path) -> ArtifactTree {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out)
            } else {
                out.push(p)
            }
        }
    }
    let mut paths = Vec::new();
    walk(root, &mut paths);
    ArtifactTree {
        files: paths
            .into_iter()
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                // Distinct fingerprints per distinct content are all the diff
                // needs; hashing is the CLI's job and is measured there.
                let sha = format!("{:064x}", fxhash(&bytes));
                ArtifactFile {
                    path: p.strip_prefix(root).unwrap().to_string_lossy().into_owned(),
                    size: bytes.len() as u64,
                    sha256: sha,
                    content: Some(bytes),
                }
            })
            .collect(),
    }
}

fn fxhash(bytes: &[u8]) -> u128 {
    let mut h: u128 = 0xcbf29ce484222325;
    for b in bytes {
        h = (h ^ u128::from(*b)).wrapping_mul(0x100000001b3);
    }
    h
}

fn benches(c: &mut Criterion) {
    let report = std::fs::read(Path::new(H200).join("jit_report.json")).unwrap();
    let mut g = c.benchmark_group("report");
    g.throughput(Throughput::Bytes(report.len() as u64));
    g.bench_function("parse+breakdown jit_report.json", |b| {
        b.iter(|| {
            let r = lane_ledger::parse_report(black_box(&report)).unwrap();
            black_box(lane_ledger::from_report("jit", &r))
        })
    });
    g.finish();

    let log = trace_log().repeat(20);
    let mut g = c.benchmark_group("trace");
    g.throughput(Throughput::Bytes(log.len() as u64));
    g.sample_size(20);
    g.bench_function("parse_trace 20x real log", |b| {
        b.iter(|| lane_ledger::parse_trace(black_box(&log[..]), &Default::default()).unwrap())
    });
    g.finish();

    let a = tree(&Path::new(H200).join("aot_a"));
    let bt = tree(&Path::new(H200).join("aot_b"));
    let mut g = c.benchmark_group("determinism");
    g.sample_size(20);
    g.bench_function("diff_trees h200 pair", |b| {
        b.iter(|| lane_ledger::diff_trees(black_box(&a), black_box(&bt)).unwrap())
    });
    g.finish();
}

criterion_group!(ledger, benches);
criterion_main!(ledger);
