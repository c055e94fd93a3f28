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
//! When all four hold the lane is said to have shifted by exp(m), and every
//! series is judged net of it (m subtracted from its estimate).

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

/// The shift of a lane whose series' log estimates are `estimates`, when
/// the test calls one; `None` otherwise.
pub fn detect(estimates: &[f64], test: &ShiftTest) -> Option<Shift> {
    let moved: Vec<f64> = estimates.iter().copied().filter(|e| *e != 0.0).collect();
    if moved.len() < test.min_series {
        return None;
    }
    let up = moved.iter().filter(|e| **e > 0.0).count();
    let down = moved.len() - up;
    let sign_p = sign_test(up, down);
    let m = median(&moved)?;
    let deviations: Vec<f64> = moved.iter().map(|e| (e - m).abs()).collect();
    let spread = 1.4826 * median(&deviations)?;
    let majority = up.max(down) as f64 / moved.len() as f64;
    let called = sign_p <= test.max_p
        && majority >= test.majority
        && m.abs() >= test.min_ratio.ln()
        && spread <= test.max_spread * m.abs();
    called.then_some(Shift {
        ratio: m.exp(),
        log_shift: m,
        series: moved.len(),
        up,
        down,
        sign_p,
        spread,
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

    #[test]
    fn a_common_move_is_a_shift_and_scattered_moves_are_not() {
        let common: Vec<f64> = (0..30)
            .map(|i| 0.08 + 0.01 * ((i % 5) as f64 - 2.0))
            .collect();
        let s = detect(&common, &ShiftTest::default()).unwrap();
        assert!((s.ratio - 0.08f64.exp()).abs() < 1e-12);
        assert_eq!((s.up, s.down), (30, 0));
        // Noise around zero: no majority.
        let noise: Vec<f64> = (0..30)
            .map(|i| 0.03 * ((i * 7 % 11) as f64 - 5.0) / 5.0)
            .collect();
        assert!(detect(&noise, &ShiftTest::default()).is_none());
        // All up but spread far wider than the shift: one or two series
        // regressed a lot, the rest barely moved.
        let mut wide = vec![0.001; 25];
        wide.extend([0.5, 0.6, 0.002, 0.003, 0.004]);
        assert!(detect(&wide, &ShiftTest::default()).is_none());
        assert!(detect(&common[..4], &ShiftTest::default()).is_none());
    }
}
