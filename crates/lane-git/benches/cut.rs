//! `lane cut` against the same steps done by the git CLI, side by side in one
//! run, on a generated upstream of more than 2,000 commits and 1,000 files.
//!
//! The git CLI sequence is what a release engineer's shell script does:
//! `git checkout -b release/0.93.3 v0.93.2`, `git cherry-pick -x` the two
//! fixes, bump both version files, commit. lane does that plus the guards
//! (before and after) and the changelog, without touching the work tree.
//! `lane cut --dry-run` computes the same and writes nothing; the git CLI has
//! no dry run, so its real sequence is the peer for both.
//!
//! Run: `cargo bench -p lane-git --bench cut`

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use lane_fixture::{generate_upstream, UpstreamSpec};
use lane_git::cut::{cut, CutOptions, CutStatus, OnConflict};
use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let up = generate_upstream(&dir.path().join("up"), &UpstreamSpec::benchmark()).unwrap();
    let path = up.path.clone();
    let text = format!(
        "version: \"0.93.3\"\nupstream: {{repo: {}}}\nbase: v0.93.2\npicks:\n  - pr: 515\n  - pr: 520\nversion_files:\n  - {{path: pyproject.toml, kind: pyproject}}\n  - {{path: uv.lock, kind: uv-lock, package: gen-worker}}\nchangelog: {{}}\nguards:\n  - name: wire-v1\n    forbidden_commits: [{}]\n    frozen_paths: [proto/, src/gen_worker/pb/]\n    probes:\n      - {{path: proto/worker_scheduler.proto, must_match: '^package cozy\\.scheduler;$'}}\n",
        path.display(),
        up.commits["wire-v1"]
    );
    let lane = lane_file::parse("lanes/0.93.3.yaml", &text).unwrap();
    let fix_992 = up.commits["fix-992"].to_string();
    let merge_520 = up.commits["merge-520"].to_string();
    let opts = |dry_run| CutOptions {
        dry_run,
        on_conflict: OnConflict::Abort,
        date: "2026-11-30".into(),
        tag: false,
        sign: false,
        lane_file: "lanes/0.93.3.yaml".into(),
    };
    let reset = |p: &Path| {
        git(p, &["checkout", "-q", "-f", "master"]);
        let _ = Command::new("git")
            .arg("-C")
            .arg(p)
            .args(["branch", "-q", "-D", "release/0.93.3"])
            .output();
    };

    let mut g = c.benchmark_group("cut-2000-commits-1000-files");
    g.sample_size(10);
    g.bench_function("lane cut --dry-run", |b| {
        b.iter(|| {
            let repo = git2::Repository::open(&path).unwrap();
            let r = cut(&repo, &lane, &opts(true)).unwrap();
            assert_eq!(r.status, CutStatus::Planned);
        })
    });
    g.bench_function("lane cut", |b| {
        b.iter_batched(
            || reset(&path),
            |()| {
                let repo = git2::Repository::open(&path).unwrap();
                let r = cut(&repo, &lane, &opts(false)).unwrap();
                assert_eq!(r.status, CutStatus::Cut);
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("git CLI: checkout -b, cherry-pick -x, bump, commit", |b| {
        b.iter_batched(
            || reset(&path),
            |()| {
                git(
                    &path,
                    &["checkout", "-q", "-b", "release/0.93.3", "v0.93.2"],
                );
                git(&path, &["cherry-pick", "-x", &fix_992]);
                git(&path, &["cherry-pick", "-x", "-m", "1", &merge_520]);
                for f in ["pyproject.toml", "uv.lock"] {
                    let p = path.join(f);
                    let t = std::fs::read_to_string(&p).unwrap();
                    std::fs::write(
                        &p,
                        t.replacen("version = \"0.93.2\"", "version = \"0.93.3\"", 1),
                    )
                    .unwrap();
                }
                git(&path, &["commit", "-q", "-am", "release 0.93.3"]);
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
