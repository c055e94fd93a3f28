//! Mints that pack one file per graph class (gen-worker 0.114+), on the
//! real v0.126.3 entries of `tests/data/gw-eras/v0.126.3/` (r2 resolved
//! every class from r1's, so the two are byte-identical per class): pairs
//! by key, never by the reports' order; the worst class's verdict wins; a
//! class on one side only is named with its key.

use std::path::{Path, PathBuf};

use lane_diff::ingest::ReadLimits;
use lane_diff::{
    diff_classes, pair_classes, DeterminismVerdict, GraphClass, MintDiffReport, UnexplainedCause,
};
use lane_testkit::data::path;
use serde_json::Value;

use crate::disk::{diff, read_both};

const B1: &str = "cg-key-v1-3bf77855f63ecb48ffaad0da1276bb9eecdccad42b4647e475380ff2";
const B2: &str = "cg-key-v1-578c02769cd3fa5574100831fd848a6961fdf92104671ac16ca71b36";
const B4: &str = "cg-key-v1-612e7f475e708100824e77637f44af29dfb62fa4968c9205d7fa92cb";

/// Every class byte-identical, in key order.
const IDENTICAL: [(&str, DeterminismVerdict); 3] = [
    (B1, DeterminismVerdict::ByteIdentical),
    (B2, DeterminismVerdict::ByteIdentical),
    (B4, DeterminismVerdict::ByteIdentical),
];

fn mint(r: &str) -> PathBuf {
    path(&format!("gw-eras/v0.126.3/{r}/rig/mint"))
}

/// The classes a real report names, each at the file beside the report
/// (the report's paths are where the mint wrote them on the device).
fn classes(r: &str) -> Vec<GraphClass> {
    let report: Value =
        serde_json::from_slice(&std::fs::read(mint(r).join("report.json")).unwrap()).unwrap();
    report["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let name = Path::new(e[1].as_str().unwrap()).file_name().unwrap();
            GraphClass {
                key: e[0].as_str().unwrap().to_owned(),
                path: mint(r).join(name).display().to_string(),
            }
        })
        .collect()
}

/// Pairs and diffs, one class at a time, as `lane diff` does.
fn diff_mints(a: &[GraphClass], b: &[GraphClass]) -> MintDiffReport {
    let pairing = pair_classes(a, b).unwrap();
    pairing
        .diff_each(|p| Ok::<_, ()>(diff(Path::new(&p.path_a), Path::new(&p.path_b))))
        .unwrap()
}

fn verdicts(r: &MintDiffReport) -> Vec<(&str, DeterminismVerdict)> {
    r.classes
        .iter()
        .map(|c| (c.class.key.as_str(), c.report.verdict))
        .collect()
}

#[test]
fn real_v0_126_3_repeats_are_byte_identical_class_by_class() {
    let (a, b) = (classes("r1"), classes("r2"));
    assert_eq!(a.len(), 3);
    let r = diff_mints(&a, &b);
    assert_eq!(r.verdict, DeterminismVerdict::ByteIdentical);
    assert_eq!(verdicts(&r), IDENTICAL, "{}", r.summary);
    assert_eq!(
        r.summary,
        "3 graph class(es) paired by key (3 byte_identical)"
    );
    assert!(r.only_a.is_empty() && r.only_b.is_empty() && r.unexplained.is_empty());
    // Each class is a packed cell: metadata.json + model.pt2 (10 members).
    assert_eq!(r.classes[0].report.files.a, 11);
    // The same, with the classes read into memory first.
    let read = |list: &[GraphClass], other: &[GraphClass]| {
        list.iter()
            .zip(other)
            .map(|(c, o)| {
                let (sa, _) = read_both(
                    Path::new(&c.path),
                    Path::new(&o.path),
                    &ReadLimits::default(),
                )
                .unwrap();
                (c.clone(), sa)
            })
            .collect::<Vec<_>>()
    };
    let in_memory = diff_classes(&read(&a, &b), &read(&b, &a)).unwrap();
    assert_eq!(verdicts(&in_memory), verdicts(&r));
}

#[test]
fn classes_pair_by_key_whatever_order_the_reports_name_them_in() {
    let a = classes("r1");
    let mut b = classes("r2");
    b.reverse();
    let r = diff_mints(&a, &b);
    assert_eq!(verdicts(&r), IDENTICAL, "{}", r.summary);
    let paired: Vec<(&str, &str)> = r
        .classes
        .iter()
        .map(|c| (c.class.path_a.as_str(), c.class.path_b.as_str()))
        .collect();
    for (pa, pb) in paired {
        assert_eq!(
            Path::new(pa).file_name(),
            Path::new(pb).file_name(),
            "{pa} against {pb}"
        );
    }
}

/// B's `B=1` class is given the file of its `B=2` class: that class is
/// diffed against the other class's cell and reads worse; the two others
/// stay byte-identical, and the pair takes the worst class's verdict,
/// naming that class.
#[test]
fn a_class_whose_file_is_another_class_is_the_worst_and_names_the_pair() {
    let a = classes("r1");
    let mut b = classes("r2");
    let b2_file = b.iter().find(|c| c.key == B2).unwrap().path.clone();
    b.iter_mut().find(|c| c.key == B1).unwrap().path = b2_file;
    let r = diff_mints(&a, &b);
    let v = verdicts(&r);
    assert_eq!(v[1], (B2, DeterminismVerdict::ByteIdentical));
    assert_eq!(v[2], (B4, DeterminismVerdict::ByteIdentical));
    assert_eq!(v[0], (B1, DeterminismVerdict::Unexplained));
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
    assert!(r.summary.ends_with(&format!("by {B1}")), "{}", r.summary);
    assert!(r.unexplained.is_empty(), "no class is on one side only");
    // The class's own diff names what differs, with its causes: the
    // envelope's graph class, and the package entry `unet/B=1` against
    // `unet/B=2`.
    let class = &r.classes[0].report;
    let metadata = class
        .unexplained
        .iter()
        .find(|u| u.a.as_deref() == Some("metadata.json"))
        .unwrap();
    assert_eq!(metadata.cause, UnexplainedCause::JsonValues);
    assert!(metadata
        .values
        .iter()
        .any(|x| x.path.starts_with("$.graph_class")));
    assert!(class
        .unexplained
        .iter()
        .any(|u| u.cause == UnexplainedCause::OnlyInOneTree
            && u.a.as_deref().is_some_and(|p| p.contains("unet/B=1/"))));
}

#[test]
fn a_class_one_mint_lacks_is_named_with_its_key() {
    let a = classes("r1");
    let b: Vec<GraphClass> = classes("r2").into_iter().filter(|c| c.key != B4).collect();
    let r = diff_mints(&a, &b);
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
    assert_eq!(r.classes.len(), 2);
    assert_eq!(r.only_a.len(), 1);
    assert_eq!(r.only_a[0].key, B4);
    assert_eq!(r.unexplained.len(), 1);
    let u = &r.unexplained[0];
    assert_eq!(u.cause, UnexplainedCause::ClassOnlyInOneMint);
    assert!(u.reason.contains(B4), "{}", u.reason);
    assert!(u
        .a
        .as_deref()
        .is_some_and(|p| p.ends_with(&format!("{B4}.tar.gz"))));
    assert_eq!(
        r.summary,
        format!("2 graph class(es) paired by key (2 byte_identical); 1 only in A ({B4}); the pair is unexplained: a class is in one mint only")
    );
}
