//! The determinism diff of two mints that pack one file per graph class.
//!
//! From gen-worker 0.114 a mint packs each graph class on its own and its
//! report names the files in `entries` (`[[key, path, sha256], ...]`;
//! from 0.117 the key is the class's compiled_graph_key). Two cold
//! repeats' classes are paired by key, never by their order in the
//! reports; each pair is diffed as two cells ([`crate::diff_sides`]), a
//! class one mint lacks is named with its key, and the mint pair's verdict
//! is its worst class's (a class on one side only is `unexplained`).
//!
//! [`pair_classes`] pairs the keys; [`ClassPairing::diff_each`] asks the
//! caller for each pair's diff (the caller reads the two files, one pair
//! at a time, so memory is bounded by one class) and combines them;
//! [`diff_classes`] does both for sides already in memory.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::error::DiffError;
use crate::model::{
    CellSide, DeterminismReport, DeterminismVerdict, Unexplained, UnexplainedCause,
};

/// The longest class key lane takes (a compiled_graph_key is 66 bytes).
pub const MAX_CLASS_KEY_BYTES: usize = 512;

/// A graph class of a mint, as its report names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraphClass {
    /// Its key (`cg-key-v1-<56 hex>` from gen-worker 0.117).
    pub key: String,
    /// Its packed cell, where the caller found it.
    pub path: String,
}

/// A class both mints name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PairedClass {
    /// The key.
    pub key: String,
    /// A's packed cell.
    pub path_a: String,
    /// B's packed cell.
    pub path_b: String,
}

/// Two mints' classes, paired by key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassPairing {
    /// Classes both name, in key order.
    pub paired: Vec<PairedClass>,
    /// Classes only A names, in key order.
    pub only_a: Vec<GraphClass>,
    /// Classes only B names, in key order.
    pub only_b: Vec<GraphClass>,
}

/// One paired class's diff.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassDiff {
    /// The class.
    #[serde(flatten)]
    pub class: PairedClass,
    /// Its two cells' determinism diff: its verdict, summary and every
    /// difference with its cause.
    #[serde(flatten)]
    pub report: DeterminismReport,
}

/// The determinism diff of two mints, class by class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MintDiffReport {
    /// The worst class's verdict; `unexplained` when a class is on one side only.
    pub verdict: DeterminismVerdict,
    /// One sentence: the classes, their verdicts, and the worst.
    pub summary: String,
    /// Each mint's coldness, when the edge looked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coldness: Option<crate::coldness::Coldness>,
    /// Each class both mints name, with its diff, in key order.
    pub classes: Vec<ClassDiff>,
    /// Classes only A names.
    pub only_a: Vec<GraphClass>,
    /// Classes only B names.
    pub only_b: Vec<GraphClass>,
    /// What no class's diff holds: each class on one side only
    /// (`class_only_in_one_mint`), named with its key.
    pub unexplained: Vec<Unexplained>,
}

/// The determinism diff of two mints of one cell: their cells as one tree
/// each, or (mints that pack one file per graph class) class by class.
/// Serialized as the report it holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PairDiff {
    /// Two cells (folders, packed cells, `.pt2` packages).
    Cells(Box<DeterminismReport>),
    /// Two mints whose reports name one packed file per graph class.
    Classes(MintDiffReport),
}

impl PairDiff {
    /// The verdict: the cells', or the worst class's.
    pub fn verdict(&self) -> DeterminismVerdict {
        match self {
            PairDiff::Cells(r) => r.verdict,
            PairDiff::Classes(r) => r.verdict,
        }
    }

    /// The one-sentence summary.
    pub fn summary(&self) -> &str {
        match self {
            PairDiff::Cells(r) => &r.summary,
            PairDiff::Classes(r) => &r.summary,
        }
    }
}

fn check<'c>(
    side: &'static str,
    classes: &'c [GraphClass],
) -> Result<BTreeMap<&'c str, &'c GraphClass>, DiffError> {
    let mut by_key = BTreeMap::new();
    for c in classes {
        if c.key.is_empty()
            || c.key.len() > MAX_CLASS_KEY_BYTES
            || c.key.chars().any(char::is_control)
        {
            return Err(DiffError::BadClassKey {
                side,
                key: c.key.chars().take(80).collect(),
            });
        }
        if by_key.insert(c.key.as_str(), c).is_some() {
            return Err(DiffError::DuplicateClass {
                side,
                key: c.key.clone(),
            });
        }
    }
    Ok(by_key)
}

/// Pairs two mints' classes by key. Refuses a key that is empty, longer
/// than [`MAX_CLASS_KEY_BYTES`] or holds a control character, a key named
/// twice by one mint, and two mints that name no class at all.
pub fn pair_classes(a: &[GraphClass], b: &[GraphClass]) -> Result<ClassPairing, DiffError> {
    let ka = check("A", a)?;
    let kb = check("B", b)?;
    if ka.is_empty() && kb.is_empty() {
        return Err(DiffError::NoClasses);
    }
    let mut pairing = ClassPairing {
        paired: Vec::new(),
        only_a: Vec::new(),
        only_b: Vec::new(),
    };
    for (key, ca) in &ka {
        match kb.get(key) {
            Some(cb) => pairing.paired.push(PairedClass {
                key: (*key).to_owned(),
                path_a: ca.path.clone(),
                path_b: cb.path.clone(),
            }),
            None => pairing.only_a.push((*ca).clone()),
        }
    }
    pairing.only_b = kb
        .iter()
        .filter(|(k, _)| !ka.contains_key(*k))
        .map(|(_, c)| (*c).clone())
        .collect();
    Ok(pairing)
}

impl ClassPairing {
    /// Diffs each paired class with `diff` (in key order, one at a time)
    /// and combines the verdicts: the worst class's wins, and a class on
    /// one side only makes the pair `unexplained`.
    pub fn diff_each<E>(
        self,
        mut diff: impl FnMut(&PairedClass) -> Result<DeterminismReport, E>,
    ) -> Result<MintDiffReport, E> {
        let mut classes = Vec::with_capacity(self.paired.len());
        for class in self.paired {
            let report = diff(&class)?;
            classes.push(ClassDiff { class, report });
        }
        let mut unexplained = Vec::new();
        for (side, list) in [("A", &self.only_a), ("B", &self.only_b)] {
            let other = if side == "A" { "B" } else { "A" };
            for c in list {
                unexplained.push(Unexplained {
                    a: (side == "A").then(|| c.path.clone()),
                    b: (side == "B").then(|| c.path.clone()),
                    cause: UnexplainedCause::ClassOnlyInOneMint,
                    reason: format!(
                        "graph class {} only in {side}: {other}'s report names no class with that key",
                        c.key
                    ),
                    lines: Vec::new(),
                    values: Vec::new(),
                    ranges: Vec::new(),
                });
            }
        }
        let worst = classes.iter().map(|c| c.report.verdict).max();
        let verdict = if unexplained.is_empty() {
            worst.unwrap_or(DeterminismVerdict::Unexplained)
        } else {
            DeterminismVerdict::Unexplained
        };
        let summary = summary(verdict, &classes, &self.only_a, &self.only_b);
        Ok(MintDiffReport {
            verdict,
            summary,
            coldness: None,
            classes,
            only_a: self.only_a,
            only_b: self.only_b,
            unexplained,
        })
    }
}

fn summary(
    verdict: DeterminismVerdict,
    classes: &[ClassDiff],
    only_a: &[GraphClass],
    only_b: &[GraphClass],
) -> String {
    let mut counts: BTreeMap<DeterminismVerdict, usize> = BTreeMap::new();
    for c in classes {
        *counts.entry(c.report.verdict).or_default() += 1;
    }
    let each: Vec<String> = counts
        .iter()
        .map(|(v, n)| format!("{n} {}", crate::word(*v)))
        .collect();
    let mut s = format!("{} graph class(es) paired by key", classes.len());
    if !each.is_empty() {
        s.push_str(&format!(" ({})", each.join(", ")));
    }
    for (side, list) in [("A", only_a), ("B", only_b)] {
        if !list.is_empty() {
            let keys: Vec<&str> = list.iter().map(|c| c.key.as_str()).collect();
            s.push_str(&format!(
                "; {} only in {side} ({})",
                list.len(),
                keys.join(", ")
            ));
        }
    }
    let worst = classes
        .iter()
        .filter(|c| c.report.verdict == verdict && verdict > DeterminismVerdict::ByteIdentical)
        .map(|c| c.class.key.as_str())
        .collect::<Vec<_>>();
    if !worst.is_empty() {
        s.push_str(&format!(
            "; the pair is {} by {}",
            crate::word(verdict),
            worst.join(", ")
        ));
    } else if verdict == DeterminismVerdict::Unexplained {
        s.push_str("; the pair is unexplained: a class is in one mint only");
    }
    s
}

/// Pairs and diffs two mints whose classes are already read: each side a
/// list of (class, its cell).
pub fn diff_classes(
    a: &[(GraphClass, CellSide)],
    b: &[(GraphClass, CellSide)],
) -> Result<MintDiffReport, DiffError> {
    let classes =
        |s: &[(GraphClass, CellSide)]| s.iter().map(|(c, _)| c.clone()).collect::<Vec<_>>();
    let pairing = pair_classes(&classes(a), &classes(b))?;
    let cells = |s: &'_ [(GraphClass, CellSide)]| -> BTreeMap<String, usize> {
        s.iter()
            .enumerate()
            .map(|(i, (c, _))| (c.key.clone(), i))
            .collect()
    };
    let (ia, ib) = (cells(a), cells(b));
    pairing.diff_each(|p| match (ia.get(&p.key), ib.get(&p.key)) {
        (Some(&i), Some(&j)) => crate::diff_sides(&a[i].1, &b[j].1),
        // A paired key is on both sides.
        _ => Err(DiffError::NoClasses),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ArtifactFile, ArtifactTree};

    fn class(key: &str) -> GraphClass {
        GraphClass {
            key: key.into(),
            path: format!("{key}.tar.gz"),
        }
    }

    fn side(body: &str) -> CellSide {
        use sha2::{Digest, Sha256};
        CellSide {
            tree: ArtifactTree {
                files: vec![ArtifactFile {
                    path: "metadata.json".into(),
                    size: body.len() as u64,
                    sha256: format!("{:x}", Sha256::digest(body.as_bytes())),
                    content: Some(body.as_bytes().to_vec()),
                }],
            },
            ..CellSide::default()
        }
    }

    #[test]
    fn classes_pair_by_key_not_by_order() {
        let a = [class("k1"), class("k2"), class("k3")];
        let b = [class("k3"), class("k1"), class("k4")];
        let p = pair_classes(&a, &b).unwrap();
        let keys: Vec<&str> = p.paired.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["k1", "k3"]);
        assert_eq!(p.only_a, [class("k2")]);
        assert_eq!(p.only_b, [class("k4")]);
    }

    #[test]
    fn the_worst_class_wins_and_a_class_on_one_side_is_unexplained() {
        let same = [
            (class("k1"), side("{\"x\": 1}")),
            (class("k2"), side("{\"x\": 2}")),
        ];
        let r = diff_classes(&same, &same).unwrap();
        assert_eq!(r.verdict, DeterminismVerdict::ByteIdentical);
        assert_eq!(
            r.summary,
            "2 graph class(es) paired by key (2 byte_identical)"
        );
        // k2 differs by formatting only: the pair is path noise.
        let b = [
            (class("k2"), side("{\"x\":2}")),
            (class("k1"), side("{\"x\": 1}")),
        ];
        let r = diff_classes(&same, &b).unwrap();
        assert_eq!(r.verdict, DeterminismVerdict::PathNoiseOnly);
        assert_eq!(
            r.summary,
            "2 graph class(es) paired by key (1 byte_identical, 1 path_noise_only); the pair is path_noise_only by k2"
        );
        // k2 missing in B: named with its key, and the pair is unexplained.
        let r = diff_classes(&same, &same[..1]).unwrap();
        assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
        assert_eq!(r.unexplained.len(), 1);
        assert_eq!(r.unexplained[0].cause, UnexplainedCause::ClassOnlyInOneMint);
        assert_eq!(
            r.unexplained[0].reason,
            "graph class k2 only in A: B's report names no class with that key"
        );
        assert_eq!(
            r.classes[0].report.verdict,
            DeterminismVerdict::ByteIdentical
        );
    }

    #[test]
    fn bad_class_lists_are_refused() {
        assert!(matches!(
            pair_classes(&[class("k"), class("k")], &[class("k")]),
            Err(DiffError::DuplicateClass { side: "A", .. })
        ));
        for bad in ["", "k\u{1b}[2J", &"k".repeat(MAX_CLASS_KEY_BYTES + 1)] {
            assert!(matches!(
                pair_classes(&[class("k")], &[class(bad)]),
                Err(DiffError::BadClassKey { side: "B", .. })
            ));
        }
        assert!(matches!(pair_classes(&[], &[]), Err(DiffError::NoClasses)));
    }
}
