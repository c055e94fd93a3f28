//! GENERATED_WITHOUT_PROTO on the upstream's history: the commits that
//! changed `src/gen_worker/pb/` and whether their `proto/` changed with it.

use lane_wire::generated_without_proto;

use crate::upstream::{clone, git};

#[test]
fn regenerated_code_is_judged_by_the_proto_change_beside_it() {
    let Some(repo) = clone() else { return };
    let changed = |c: &str| {
        git(
            repo,
            &[
                "diff-tree",
                "--no-commit-id",
                "--name-only",
                "-r",
                "-m",
                "--first-parent",
                c,
            ],
        )
    };
    // the owner->tenant rename landed its proto with the regenerated code
    let with_proto = changed("74d5d8f7");
    let findings =
        generated_without_proto(with_proto.lines(), &["src/gen_worker/pb/"], &["proto/"]);
    assert!(findings.is_empty(), "{findings:?}");
    // every commit that touched the generated code: a finding exactly
    // where no .proto file changed beside it
    let commits = git(
        repo,
        &[
            "log",
            "--all",
            "--no-merges",
            "--format=%H",
            "--",
            "src/gen_worker/pb/",
        ],
    );
    let (mut flagged, mut total) = (0, 0);
    for c in commits.lines() {
        let paths = changed(c);
        let findings = generated_without_proto(paths.lines(), &["src/gen_worker/pb/"], &["proto/"]);
        let proto_changed = paths
            .lines()
            .any(|p| p.starts_with("proto/") && p.ends_with(".proto"));
        if !proto_changed {
            assert!(
                !findings.is_empty() || !paths.lines().any(|p| p.starts_with("src/gen_worker/pb/")),
                "{c}"
            );
        }
        flagged += usize::from(!findings.is_empty());
        total += 1;
    }
    assert!(total > 0);
    println!("{flagged} of {total} commits changed generated code without its .proto");
}
