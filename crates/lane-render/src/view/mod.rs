//! The view model: every report lane renders, built once and laid out by
//! three thin renderers ([`crate::markdown`], [`crate::html`],
//! [`crate::text`]).
//!
//! The builders here are the only code that reads the inputs
//! ([`crate::LaneResults`] and the ledger's breakdowns, diffs and
//! comparisons). They decide every number once ([`Seconds`], [`Percent`],
//! [`Delta`], absent with its reason), how much of each foreign string is
//! kept ([`bound`]), which rows a table has (a residual is a named row, an
//! overlay is its own row in its own table and never summed, a failed job
//! keeps its seconds) and how deep a rendering must go to show a block.
//! Strings stay unescaped: escaping belongs to each target.

pub mod answers;
pub mod aot;
pub mod breakdown;
pub mod classes;
pub mod comparison;
pub mod determinism;
pub mod doc;
pub mod history;
pub mod lane;
pub mod value;
pub mod verdict;

pub use answers::{Answer, Answers};
pub use breakdown::{breakdown, BreakdownView};
pub use classes::{mint_diff, pair, MintDiffView};
pub use comparison::{comparison, ComparisonView};
pub use determinism::{determinism, DeterminismView};
pub use doc::{Block, Blocks, Body, Chart, Column, Depth, Line, Row, RowRole, Table, TableKind};
pub use history::{history, CellHistory, HistoryView, TrendChart, TrendPoint};
pub use lane::{lane, CellSection, LaneView, RepeatSection};
pub use value::{Absent, Cell, Delta, Percent, Seconds, Tone, Value};

/// The most characters kept of a name (a phase, an entry, a path).
pub const SHORT: usize = 120;

/// The most characters kept of a sentence from a report (`detail`, an
/// error, a reason).
pub const LONG: usize = 400;

/// The most characters kept of a sentence lane builds around report text
/// (a determinism diff's summary, a decision's headline, a reason).
pub const PROSE: usize = 1_200;

/// At most `max` characters of `s`; a cut says how much it left out.
pub fn bound(s: &str, max: usize) -> String {
    let mut chars = s.chars();
    let kept: String = chars.by_ref().take(max).collect();
    let left = chars.count();
    if left == 0 {
        kept
    } else {
        format!("{kept}... ({left} more characters)")
    }
}

/// `s` bounded to [`SHORT`].
pub fn short(s: &str) -> String {
    bound(s, SHORT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_says_what_it_left_out() {
        assert_eq!(bound("abcdef", 3), "abc... (3 more characters)");
        assert_eq!(bound("abc", 3), "abc");
        assert_eq!(short(&"x".repeat(5000)).chars().count(), SHORT + 26);
    }
}
