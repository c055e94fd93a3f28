//! The determinism diff of two mints that pack one file per graph class:
//! the pair's verdict (its worst class's), one row per class with its
//! verdict and why, the classes one mint lacks, and each paired class's
//! own diff.

use lane_diff::MintDiffReport;
use serde::Serialize;

use super::determinism::{determinism, name_of, unexplained_table, verdict_tone, DeterminismView};
use super::doc::{Blocks, Depth, RowRole, Table, TableKind};
use super::value::{Cell, Tone};
use super::{bound, short, PROSE};

/// A mint pair's diff, class by class, ready to lay out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MintDiffView {
    /// The verdict's words.
    pub verdict: String,
    /// How the verdict reads.
    pub tone: Tone,
    /// The summary, the classes, those on one side only.
    pub blocks: Blocks,
    /// Each paired class, by key, with its own diff.
    pub classes: Vec<(String, DeterminismView)>,
}

/// Builds the view of a mint pair's diff.
pub fn mint_diff(r: &MintDiffReport) -> MintDiffView {
    let mut out = Blocks::default();
    out.line(Depth::Collapsed, 0, bound(&r.summary, PROSE));
    let mut t = Table::new(TableKind::Classes, &["Class", "Verdict", "Why"])
        .titled(format!("graph classes paired by key ({})", r.classes.len()));
    for c in &r.classes {
        t.push(
            RowRole::Plain,
            vec![
                Cell::text(short(&c.class.key)),
                Cell::toned(name_of(c.report.verdict), verdict_tone(c.report.verdict)),
                Cell::text(bound(&c.report.summary, PROSE)),
            ],
        );
    }
    out.table(Depth::Collapsed, 0, t);
    let mut t = Table::new(TableKind::Classes, &["Side", "Class", "File"]).titled(format!(
        "graph classes in one mint only ({})",
        r.only_a.len() + r.only_b.len()
    ));
    for (side, list) in [("A", &r.only_a), ("B", &r.only_b)] {
        for c in list {
            t.push(
                RowRole::Plain,
                vec![
                    Cell::text(side),
                    Cell::toned(short(&c.key), Tone::Bad),
                    Cell::text(short(&c.path)),
                ],
            );
        }
    }
    out.table(Depth::Collapsed, 0, t);
    if r.unexplained.is_empty() {
        out.line(Depth::Collapsed, 0, "unexplained between the classes: none");
    } else {
        out.table(
            Depth::Collapsed,
            0,
            unexplained_table("unexplained between the classes", &r.unexplained),
        );
    }
    MintDiffView {
        verdict: r.verdict.describe().to_owned(),
        tone: verdict_tone(r.verdict),
        blocks: out,
        classes: r
            .classes
            .iter()
            .map(|c| {
                let label = format!(
                    "class {}: {} | {}",
                    short(&c.class.key),
                    short(&c.class.path_a),
                    short(&c.class.path_b)
                );
                (label, determinism(&c.report))
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lane_diff::{diff_classes, ArtifactFile, ArtifactTree, CellSide, GraphClass};

    fn class(key: &str) -> (GraphClass, CellSide) {
        let body = "{}";
        let side = CellSide {
            tree: ArtifactTree {
                files: vec![ArtifactFile {
                    path: "metadata.json".into(),
                    size: 2,
                    sha256: "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
                        .into(),
                    content: Some(body.as_bytes().to_vec()),
                }],
            },
            ..CellSide::default()
        };
        let c = GraphClass {
            key: key.into(),
            path: format!("{key}.tar.gz"),
        };
        (c, side)
    }

    #[test]
    fn a_class_one_mint_lacks_is_a_row_of_its_own_and_unexplained() {
        let r = diff_classes(&[class("k1")], &[class("k1"), class("k2")]).unwrap();
        let v = mint_diff(&r);
        assert_eq!(v.tone, Tone::Bad);
        let tables: Vec<&Table> = v.blocks.tables().collect();
        assert_eq!(tables[0].rows.len(), 1, "k1, paired");
        assert_eq!(tables[1].rows.len(), 1, "k2, in B only");
        assert_eq!(
            tables[2].title.as_deref(),
            Some("unexplained between the classes (1)")
        );
        assert_eq!(v.classes.len(), 1);
        assert_eq!(v.classes[0].0, "class k1: k1.tar.gz | k1.tar.gz");
    }
}
