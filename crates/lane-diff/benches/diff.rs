//! Criterion benchmark of the determinism diff on the H200 pair (probe
//! trees, content loaded in memory). The whole-process comparison with
//! diffoscope on real cells is `diff_vs_diffoscope.sh`. Run: `cargo bench
//! -p lane-diff`.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion};
use lane_diff::{ArtifactFile, ArtifactTree};

const H200: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/h200-torch2.11"
);

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
    let a = tree(&Path::new(H200).join("aot_a"));
    let bt = tree(&Path::new(H200).join("aot_b"));
    let mut g = c.benchmark_group("determinism");
    g.sample_size(20);
    g.bench_function("diff_trees h200 pair", |b| {
        b.iter(|| lane_diff::diff_trees(black_box(&a), black_box(&bt)).unwrap())
    });
    g.finish();
}

criterion_group!(diff, benches);
criterion_main!(diff);
