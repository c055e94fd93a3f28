//! The environment shift: a lane whose series all, or a large majority,
//! moved together (a slower node, a new image), told apart from a
//! regression of one series.
//!
//! The test, over every series of the lane with a history (its estimate
//! the lane value minus the history mean, on the log scale):
//! - the **sign test**: with n series that moved, the two-sided binomial
//!   p of the smaller of the up and down counts under p = ½ is at most
//!   [`ShiftTest::max_p`];
//! - a **large majority** moved one way: at least [`ShiftTest::majority`]
//!   of the n;
//! - the **median shift** m is at least [`ShiftTest::min_ratio`] away from 1;
//! - the **spread** across series is small: the scaled median absolute
//!   deviation of the estimates around m (1.4826 × MAD) is at most
//!   [`ShiftTest::max_spread`] × |m|.
//!
//! - **every cell** moved: the lane holds at least two cells, and the
//!   cells' own median estimates spread about their median by no more than
//!   half of it.
//!   A move confined to one cell is that cell's finding (its series are
//!   judged as they moved), never an improvement of every other series.
//!
//! The last alone makes a **common move**: m, the median of the cells'
//! medians, is subtracted from every estimate (and a history run's common
//! move from its values), so a machine's few per cent every cell shares is
//! not noise. With the four others too the lane declares an **environment
//! shift** and says so. A move confined to one cell is never subtracted.

use serde::Serialize;
use statrs::distribution::{Binomial, DiscreteCDF};

use crate::stats::median;

/// The shift test's thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ShiftTest {
    /// The fewest series that moved for the test to run.
    pub min_series: usize,
    /// The sign test's largest p.
    pub max_p: f64,
    /// The smallest share of moved series going the majority's way.
    pub majority: f64,
    /// The smallest common ratio worth calling a shift (1.02 = 2 %).
    pub min_ratio: f64,
    /// The largest spread across series, as a multiple of |m|.
    pub max_spread: f64,
}

impl Default for ShiftTest {
    fn default() -> Self {
        ShiftTest {
            min_series: 6,
            max_p: 0.001,
            majority: 0.75,
            min_ratio: 1.02,
            max_spread: 1.0,
        }
    }
}

/// A lane's environment shift.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Shift {
    /// The common ratio, exp(m).
    pub ratio: f64,
    /// m, the median log shift across series.
    pub log_shift: f64,
    /// Series tested (those that moved at all).
    pub series: usize,
    /// Series that moved up.
    pub up: usize,
    /// Series that moved down.
    pub down: usize,
    /// The sign test's two-sided p.
    pub sign_p: f64,
    /// Cells that moved with it (every cell of the lane).
    pub cells: usize,
    /// The sign test, the majority, the size and the spread hold: an
    /// environment shift, said as one.
    pub declared: bool,
    /// 1.4826 × MAD of the estimates around m (log scale).
    pub spread: f64,
}

/// The two-sided sign-test p of `up` against `down`.
pub fn sign_test(up: usize, down: usize) -> f64 {
    let n = up + down;
    if n == 0 {
        return 1.0;
    }
    let k = up.min(down) as u64;
    Binomial::new(0.5, n as u64).map_or(1.0, |b| (2.0 * b.cdf(k)).min(1.0))
}

/// Each cell's median estimate, in cell order.
fn cell_medians(estimates: &[(&str, f64)]) -> Vec<f64> {
    let mut cells: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
    for (cell, e) in estimates {
        cells.entry(cell).or_default().push(*e);
    }
    cells.values().filter_map(|v| median(v)).collect()
}

/// The median of the cells' median estimates, where there are at least two
/// cells: the common move [`detect`] takes, without its conditions.
pub fn cell_median_move(estimates: &[(&str, f64)]) -> Option<f64> {
    let cells = cell_medians(estimates);
    if cells.len() < 2 {
        return None;
    }
    median(&cells)
}

/// A lane's common move, when every cell moved together, with whether it
/// is a declared environment shift. `estimates` are the series' log
/// estimates, each with its cell.
///
/// The common move is the median of the cells' own median estimates (each
/// cell weighs the same), taken only where there are at least two cells
/// and they agree: the cells' medians spread about their median by no
/// more than half of it (1.4826 × MAD). A move confined to one cell of two
/// (the other still) is none, and one cell of many cannot move the median
/// of the cells: no other series is painted by it. It is a declared shift (`declared`) when the
/// sign test, the majority, the size and the spread hold too.
pub fn detect(estimates: &[(&str, f64)], test: &ShiftTest) -> Option<Shift> {
    let moved: Vec<f64> = estimates
        .iter()
        .map(|(_, e)| *e)
        .filter(|e| *e != 0.0)
        .collect();
    if moved.len() < test.min_series {
        return None;
    }
    let cell_moves = cell_medians(estimates);
    if cell_moves.len() < 2 {
        return None;
    }
    // The cells agree: their medians spread about their own median by no
    // more than half of it (1.4826 × MAD; two cells: within two thirds
    // of their mean of each other, the same way).
    let centre = median(&cell_moves)?;
    let cell_spread = 1.4826
        * median(
            &cell_moves
                .iter()
                .map(|c| (c - centre).abs())
                .collect::<Vec<_>>(),
        )?;
    if centre == 0.0 || cell_spread > centre.abs() / 2.0 {
        return None;
    }
    let m = median(&cell_moves)?;
    let cells = cell_moves.len();
    let up = moved.iter().filter(|e| **e > 0.0).count();
    let down = moved.len() - up;
    let sign_p = sign_test(up, down);
    let deviations: Vec<f64> = moved.iter().map(|e| (e - m).abs()).collect();
    let spread = 1.4826 * median(&deviations)?;
    let majority = up.max(down) as f64 / moved.len() as f64;
    let declared = sign_p <= test.max_p
        && majority >= test.majority
        && m.abs() >= test.min_ratio.ln()
        && spread <= test.max_spread * m.abs();
    Some(Shift {
        ratio: m.exp(),
        log_shift: m,
        series: moved.len(),
        up,
        down,
        sign_p,
        cells,
        spread,
        declared,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sign_test_matches_the_binomial() {
        // scipy.stats.binomtest(2, 20).pvalue
        assert!((sign_test(18, 2) - 0.000_402_450_561_523_437_5).abs() < 1e-12);
        assert_eq!(sign_test(5, 5), 1.0);
        assert_eq!(sign_test(0, 0), 1.0);
    }

    fn in_cells(v: &[f64]) -> Vec<(&'static str, f64)> {
        v.iter()
            .enumerate()
            .map(|(i, e)| (if i % 2 == 0 { "a" } else { "b" }, *e))
            .collect()
    }

    #[test]
    fn a_move_confined_to_one_cell_is_no_shift() {
        // Cell a: every phase 20 % slower; cell b: noise around zero.
        let est: Vec<(&str, f64)> = (0..12)
            .map(|i| ("a", 0.18 + 0.005 * (i % 3) as f64))
            .chain((0..4).map(|i| ("b", 0.004 * (i as f64 + 1.0))))
            .collect();
        assert!(detect(&est, &ShiftTest::default()).is_none());
        // One cell alone can never tell its move from its machine's.
        let alone: Vec<(&str, f64)> = est.iter().map(|(_, e)| ("a", *e)).collect();
        assert!(detect(&alone, &ShiftTest::default()).is_none());
    }

    #[test]
    fn a_common_move_is_a_shift_and_scattered_moves_are_not() {
        let common: Vec<f64> = (0..30)
            .map(|i| 0.08 + 0.01 * ((i % 5) as f64 - 2.0))
            .collect();
        let common = in_cells(&common);
        let s = detect(&common, &ShiftTest::default()).unwrap();
        assert!((s.log_shift - 0.08).abs() < 0.011, "{s:?}");
        assert_eq!((s.up, s.down, s.cells, s.declared), (30, 0, 2, true));
        // Noise around zero: no majority.
        let noise: Vec<f64> = (0..30)
            .map(|i| 0.03 * ((i * 7 % 11) as f64 - 5.0) / 5.0)
            .collect();
        assert!(detect(&in_cells(&noise), &ShiftTest::default()).is_none_or(|s| !s.declared));
        // All up but spread far wider than the shift: one or two series
        // regressed a lot, the rest barely moved.
        let mut wide = vec![0.001; 25];
        wide.extend([0.5, 0.6, 0.002, 0.003, 0.004]);
        assert!(
            !detect(&in_cells(&wide), &ShiftTest::default())
                .unwrap()
                .declared
        );
        assert!(detect(&common[..4], &ShiftTest::default()).is_none());
    }
}
