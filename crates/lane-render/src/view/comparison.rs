//! A baseline/candidate comparison: who was compared, the noise rule, and
//! one row per compared quantity with its delta and verdict.

use lane_ledger::compare::{DeltaRow, DeltaVerdict};
use lane_ledger::Comparison;
use serde::Serialize;

use super::doc::{Blocks, Chart, Depth, RowRole, Table, TableKind};
use super::short;
use super::value::{Cell, Delta, Seconds, Tone, Value};

/// A comparison, ready to lay out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ComparisonView {
    /// The sides and the rule, then the rows.
    pub blocks: Blocks,
}

/// A verdict's words and tone.
pub(crate) fn verdict(v: DeltaVerdict) -> (&'static str, Tone) {
    match v {
        DeltaVerdict::Noise => ("noise", Tone::Quiet),
        DeltaVerdict::Slower => ("slower", Tone::Bad),
        DeltaVerdict::Faster => ("faster", Tone::Good),
        DeltaVerdict::OnlyBaseline => ("only in the baseline", Tone::Warn),
        DeltaVerdict::OnlyCandidate => ("only in the candidate", Tone::Warn),
    }
}

/// A row's delta with its verdict, in one cell (a lane's summary table).
pub(crate) fn delta_cell(row: &DeltaRow) -> Cell {
    let (word, tone) = verdict(row.verdict);
    let text = match row.verdict {
        DeltaVerdict::OnlyBaseline | DeltaVerdict::OnlyCandidate => word.to_owned(),
        _ => format!("{} {word}", Delta::of(row.delta_s, row.delta_rel)),
    };
    Cell::toned(text, tone)
}

fn side(mints: usize, missing: usize) -> String {
    if missing > 0 {
        format!("{mints} mint(s), {missing} missing")
    } else {
        format!("{mints} mint(s)")
    }
}

/// Builds the view of a comparison.
pub fn comparison(c: &Comparison) -> ComparisonView {
    let mut out = Blocks::default();
    out.line(
        Depth::Collapsed,
        0,
        format!(
            "compare baseline ({}) against candidate ({}), ledger {}",
            side(c.baseline.mints, c.baseline.missing),
            side(c.candidate.mints, c.candidate.missing),
            short(&c.ledger)
        ),
    );
    out.line(
        Depth::Collapsed,
        0,
        format!(
            "noise rule: |delta| > max({}, {} % of the baseline), and Welch's t-test at 5 % when both sides repeat",
            Seconds::measured(c.noise_rule.floor_s),
            c.noise_rule.relative * 100.0,
        ),
    );
    for (name, side) in [("baseline", &c.baseline), ("candidate", &c.candidate)] {
        for why in &side.not_cold {
            out.line_toned(
                Depth::Collapsed,
                0,
                format!("warning: the {name} holds a mint that is not cold, so its seconds are not a cold mint's: {why}"),
                Tone::Warn,
            );
        }
    }
    if c.same_cell == Some(false) {
        out.line_toned(
            Depth::Collapsed,
            0,
            "note: the two sides name different cells",
            Tone::Warn,
        );
    }
    let mut t = Table::new(
        TableKind::Comparison,
        &["Group", "Row", "Baseline", "Candidate", "Delta", "Verdict"],
    )
    .charted(Chart::Pairs);
    for r in &c.rows {
        let role = match r.group {
            "overlay" => RowRole::Overlay,
            "residual" => RowRole::Residual,
            _ => RowRole::Plain,
        };
        let (word, tone) = verdict(r.verdict);
        t.push(
            role,
            vec![
                Cell::text(r.group),
                Cell::text(short(&r.name)),
                Cell::seconds(Seconds::of(r.baseline_s)),
                Cell::seconds(Seconds::of(r.candidate_s)),
                Cell::from(Value::Delta(Delta::of(r.delta_s, r.delta_rel))),
                Cell::toned(word, tone),
            ],
        );
    }
    out.table(Depth::Collapsed, 0, t);
    ComparisonView { blocks: out }
}
