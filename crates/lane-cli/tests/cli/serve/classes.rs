//! `/lane diff` of a cell whose repeats' reports name graph classes: the
//! answer is class by class, as `lane report` diffs them.

use super::*;

#[test]
fn lane_diff_of_repeats_of_graph_classes_answers_each_class_and_the_worst() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    let prism = lane_testkit::Prism::start();
    let serve = serve_with_prism(d.path(), &prism);
    mint_through(&serve, d.path(), 9601);
    // The slots as a mint of graph classes leaves them: the real v0.126.3
    // pair, r2's B=1 file holding the B=2 cell (its report naming it).
    let slots = d.path().join("state/out/lanes/0.93.3/results/cell00/L4");
    let b1 = "cg-key-v1-3bf77855f63ecb48ffaad0da1276bb9eecdccad42b4647e475380ff2";
    let b2 = "cg-key-v1-578c02769cd3fa5574100831fd848a6961fdf92104671ac16ca71b36";
    crate::report::lay_out_classes(&slots, |r2| {
        let (from, to) = (
            r2.join(format!("artifacts/{b2}.tar.gz")),
            r2.join(format!("artifacts/{b1}.tar.gz")),
        );
        std::fs::copy(from, &to).unwrap();
        let sha = {
            use sha2::{Digest, Sha256};
            format!("{:x}", Sha256::digest(std::fs::read(&to).unwrap()))
        };
        let path = r2.join("report.json");
        let mut v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        for e in v["entries"].as_array_mut().unwrap() {
            if e[0] == b1 {
                e[2] = sha.clone().into();
            }
        }
        std::fs::write(&path, v.to_string()).unwrap();
    });
    let before = answers(&serve).len();
    say(&serve, 9602, "/lane diff cell00 L4");
    wait_idle(&serve, d.path(), 2);
    let new = &answers(&serve)[before..];
    assert_eq!(new.len(), 1, "{new:?}");
    let a = &new[0];
    assert!(
        a.contains("determinism of cell00 on L4, r1 vs r2, graph class by graph class: **Unexplained** (the worst class's)"),
        "{a}"
    );
    for (key, verdict) in [
        (b1, "Unexplained"),
        (b2, "ByteIdentical"),
        (
            "cg-key-v1-612e7f475e708100824e77637f44af29dfb62fa4968c9205d7fa92cb",
            "ByteIdentical",
        ),
    ] {
        assert!(a.contains(&format!("| {key} | {verdict} |")), "{key}: {a}");
    }
    assert!(!a.contains(&d.path().display().to_string()), "{a}");
}
