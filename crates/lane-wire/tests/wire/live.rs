//! The real `buf` binary, live, on four real pairs: what the recorded
//! table says is what buf says today, and lane-wire says it too.

use std::path::{Path, PathBuf};
use std::process::Command;

use lane_wire::{judge, Category};

use crate::upstream::{clone, git, proto_tree};
use crate::verdicts::{agree, lane_verdicts, BufVerdict};

fn buf() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.tools/node/node_modules/.bin/buf")
}

/// buf's verdict on two commits' proto/ trees in one category.
fn run_buf(repo: &Path, before: &str, after: &str, category: &str) -> BufVerdict {
    let dir = tempfile::tempdir().unwrap();
    for (side, commit) in [("before", before), ("after", after)] {
        let out = dir.path().join(side);
        std::fs::create_dir_all(&out).unwrap();
        let tree = proto_tree(repo, commit);
        for (path, source) in tree.proto_files() {
            let file = out.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, source).unwrap();
        }
        std::fs::write(
            out.join("buf.yaml"),
            format!("version: v2\nbreaking:\n  use: [{category}]\n"),
        )
        .unwrap();
    }
    let out = Command::new(buf())
        .current_dir(dir.path())
        .args([
            "breaking",
            "after",
            "--against",
            "before",
            "--error-format",
            "json",
        ])
        .output()
        .expect("buf runs");
    match out.status.code() {
        Some(0) | Some(100) => {
            let mut rules: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(|l| {
                    let v: serde_json::Value = serde_json::from_str(l).expect("buf's JSON line");
                    v["type"].as_str().expect("a rule id").to_owned()
                })
                .collect();
            rules.sort();
            rules.dedup();
            BufVerdict::Judged {
                passed: out.status.code() == Some(0),
                rules,
            }
        }
        _ => BufVerdict::Refused {
            refused: String::from_utf8_lossy(&out.stderr).into_owned(),
        },
    }
}

#[test]
fn buf_live_and_lane_wire_agree_on_the_named_real_changes() {
    let Some(repo) = clone() else { return };
    assert!(
        buf().exists(),
        "buf is missing at {} (./just tools installs it)",
        buf().display()
    );
    let parent = |c: &str| {
        git(repo, &["rev-parse", &format!("{c}^")])
            .trim()
            .to_owned()
    };
    let cut = "d322e547ffd013d890a4fd268f0a9b5a63b741af";
    // v0.127.0's renames kept every number, but one renamed field's message
    // type was renamed too (CellLookup -> CompiledGraphLookup): buf's WIRE
    // calls a message type by another name another type
    let renames = "fe035d0c";
    let pairs = [
        (
            "v0.114.0".to_owned(),
            "v0.114.1".to_owned(),
            [true, true, false],
        ),
        (
            "v0.126.0".to_owned(),
            "v0.126.1".to_owned(),
            [true, true, true],
        ),
        (parent(renames), renames.to_owned(), [false, false, false]),
        (parent(cut), cut.to_owned(), [false, false, false]),
    ];
    for (before, after, expected) in pairs {
        let lane = lane_verdicts(&judge(
            &proto_tree(repo, &before),
            &proto_tree(repo, &after),
            &Category::ALL,
        ));
        for (category, passes) in ["WIRE", "WIRE_JSON", "PACKAGE"].into_iter().zip(expected) {
            let buf = run_buf(repo, &before, &after, category);
            assert!(
                matches!(&buf, BufVerdict::Judged { passed, .. } if *passed == passes),
                "{before}..{after} {category}: buf says {buf:?}"
            );
            assert!(
                agree(&buf, &lane[category]),
                "{before}..{after} {category}: buf {buf:?}, lane-wire {:?}",
                lane[category]
            );
        }
    }
}
