//! Criterion benchmarks of the ledger's hot paths on the real fixtures:
//! report parsing and trace extraction (the real log repeated in memory).
//! The 1 GB trace against `tlparse` is in `trace_vs_tlparse.sh`
//! (whole-process measurements with peak memory). Run: `cargo bench -p
//! lane-ledger`.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

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
}

criterion_group!(ledger, benches);
criterion_main!(ledger);
