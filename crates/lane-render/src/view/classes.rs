//! The determinism diff of two mints that pack one file per graph class:
//! the pair's verdict (its worst class's), one row per class with its
//! verdict and why, the classes one mint lacks, and each paired class's
//! own diff. In a lane's report, a cell's repeats of graph classes are
//! shown this way ([`pair`]).

use lane_diff::{MintDiffReport, PairDiff};
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
    super::determinism::coldness(&mut out, r.coldness.as_ref());
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

impl MintDiffView {
    /// The class-by-class diff laid out as one determinism diff (a lane
    /// report's cell): the pair's verdict, summary and class table, then
    /// each class's own diff under its label, one level deeper.
    pub fn flattened(self) -> DeterminismView {
        let mut blocks = self.blocks;
        for (label, d) in self.classes {
            blocks.para_toned(
                Depth::Collapsed,
                0,
                format!("{label} — {}", d.verdict),
                d.tone,
            );
            blocks.0.extend(d.blocks.0.into_iter().map(|mut b| {
                b.nest = b.nest.saturating_add(1);
                b
            }));
        }
        DeterminismView {
            verdict: self.verdict,
            tone: self.tone,
            blocks,
        }
    }
}

/// The view of a cell's determinism diff: one tree against the other, or
/// class by class ([`MintDiffView::flattened`]).
pub fn pair(d: &PairDiff) -> DeterminismView {
    match d {
        PairDiff::Cells(r) => determinism(r),
        PairDiff::Classes(r) => mint_diff(r).flattened(),
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

    #[test]
    fn a_cell_of_graph_classes_reads_as_one_diff_with_each_class_below_it() {
        let r = diff_classes(&[class("k1")], &[class("k1"), class("k2")]).unwrap();
        let tables = mint_diff(&r).blocks.tables().count();
        let v = pair(&PairDiff::Classes(r));
        assert_eq!(v.tone, Tone::Bad);
        assert_eq!(v.verdict, "unexplained differences");
        // The pair's tables first, then k1's own, nested below its label.
        let heading = v
            .blocks
            .0
            .iter()
            .position(|b| matches!(&b.body, super::super::doc::Body::Line(l) if l.text.starts_with("class k1: k1.tar.gz | k1.tar.gz — ")))
            .expect("the class's label");
        assert!(
            v.blocks.0[..heading]
                .iter()
                .filter(|b| matches!(b.body, super::super::doc::Body::Table(_)))
                .count()
                == tables
        );
        assert!(v.blocks.0[heading + 1..].iter().all(|b| b.nest >= 1));
    }
}
