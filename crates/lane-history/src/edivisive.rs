//! Retrospective change points: Apache Otava's E-Divisive with a t-test
//! (Fleming et al., "Hunter", ICPE 2023; the energy statistic of Matteson
//! and James 2014), ported from `otava/analysis.py` and
//! `otava/change_point_divisive/` (apache/otava 1ceb153, PyPI 0.8.0).
//!
//! The algorithm, as Otava runs it:
//! 1. **Split.** Slide windows of `window_len` over the series (step half
//!    a window, restarting at the last change point found). In each window
//!    bisect divisively: the candidate is the τ maximising the energy
//!    statistic Q̂(τ, κ) over every `start < τ < κ ≤ end`; a pooled
//!    two-sample Student's t-test of the two sides of τ within its
//!    interval keeps it when p ≤ the first-pass threshold (10 × `max_pvalue`
//!    below 0.05), and the search goes on inside the new intervals. The
//!    union over windows are the "weak" change points.
//! 2. **Merge.** Re-test every weak point against its neighbours on the
//!    whole series; repeatedly drop the weakest (highest p, or the smallest
//!    relative change once all pass) until every point has p < `max_pvalue`
//!    and a relative change above `min_magnitude`, re-testing the points
//!    beside each one dropped.
//!
//! Its own quirks are kept so the indices agree with Otava's: standard
//! deviations without Bessel's correction fed to a pooled t-test, a
//! two-point interval never significant, Q̂'s maximum taken over a matrix
//! whose unused lower triangle holds zeros (first maximum in row order).
//! Otava's output on fixed series is in `tests/history/otava-reference.json`
//! (written by `tests/history/reference.py`), and the tests compare.

use serde::Serialize;

use crate::stats::pooled_t_test;

/// Otava's analysis options.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ChangePointConfig {
    /// Window length (Otava's default 50; at least 2).
    pub window_len: usize,
    /// The final significance threshold (Otava's default 0.001).
    pub max_pvalue: f64,
    /// The smallest relative change kept (Otava's default 0).
    pub min_magnitude: f64,
}

impl Default for ChangePointConfig {
    fn default() -> Self {
        ChangePointConfig {
            window_len: 50,
            max_pvalue: 0.001,
            min_magnitude: 0.0,
        }
    }
}

/// A change point with Otava's t-test statistics.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ChangePoint {
    /// The first index of the new segment.
    pub index: usize,
    /// The t-test's two-sided p.
    pub pvalue: f64,
    /// Mean of the segment before.
    pub mean_before: f64,
    /// Mean of the segment after.
    pub mean_after: f64,
}

impl ChangePoint {
    /// Otava's `change_magnitude`: the larger of the forward and backward
    /// relative changes (0 where a mean is 0).
    pub fn magnitude(&self) -> f64 {
        let fwd = if self.mean_before == 0.0 {
            0.0
        } else {
            self.mean_after / self.mean_before - 1.0
        };
        let bwd = if self.mean_after == 0.0 {
            0.0
        } else {
            self.mean_before / self.mean_after - 1.0
        };
        fwd.abs().max(bwd.abs())
    }
}

/// The indices where a new segment starts (each the first value after a
/// step), as Otava's `compute_change_points` finds them.
pub fn change_points(values: &[f64], cfg: &ChangePointConfig) -> Vec<usize> {
    change_points_with_stats(values, cfg)
        .into_iter()
        .map(|c| c.index)
        .collect()
}

/// [`change_points`] with each point's statistics.
pub fn change_points_with_stats(values: &[f64], cfg: &ChangePointConfig) -> Vec<ChangePoint> {
    let window = cfg.window_len.max(2);
    let p = cfg.max_pvalue;
    let first_pass = if p < 0.05 {
        p * 10.0
    } else if p < 0.5 {
        p * 2.0
    } else {
        p
    };
    let weak = split(values, window, first_pass);
    merge(weak, values, p, cfg.min_magnitude)
}

/// The intervals between sorted change points (`get_intervals`), as
/// `(start, end)` half-open ranges, empty ones dropped.
fn intervals(points: &[usize], len: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(points.len() + 1);
    let mut start = 0;
    for &p in points {
        if p != start {
            out.push((start, p));
        }
        start = p;
    }
    if start != len {
        out.push((start, len));
    }
    out
}

/// Otava's `TTestSignificanceTester.compare`.
fn compare(left: &[f64], right: &[f64]) -> (f64, f64, f64) {
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let std = |v: &[f64], m: f64| {
        if v.len() < 2 {
            0.0
        } else {
            (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64).sqrt()
        }
    };
    let (ml, mr) = (mean(left), mean(right));
    let p = if left.len() + right.len() > 2 {
        pooled_t_test(
            ml,
            std(left, ml),
            left.len(),
            mr,
            std(right, mr),
            right.len(),
        )
    } else {
        1.0
    };
    (p, ml, mr)
}

/// Otava's `TTestSignificanceTester.change_point`: the statistics of the
/// point at `index`, splitting the interval that holds it, or (an existing
/// point) comparing the two intervals it separates.
fn test_point(index: usize, series: &[f64], ivs: &[(usize, usize)]) -> ChangePoint {
    let mut sides = None;
    for (i, &(start, stop)) in ivs.iter().enumerate() {
        if stop == index {
            sides = ivs.get(i + 1).map(|&(_, next_stop)| (start, next_stop));
            break;
        }
        if start < index && index < stop {
            sides = Some((start, stop));
            break;
        }
    }
    // Every caller passes an index inside the intervals.
    let (start, stop) = sides.unwrap_or((0, series.len()));
    let (pvalue, mean_before, mean_after) = compare(&series[start..index], &series[index..stop]);
    ChangePoint {
        index,
        pvalue,
        mean_before,
        mean_after,
    }
}

/// The energy-statistic candidate of `z[start..end]`
/// (`PairDistanceCalculator.get_candidate_change_point`): `(τ, Q̂)`.
fn candidate(z: &[f64], start: usize, end: usize) -> (usize, f64) {
    let l = end - 1 - start;
    let d = |i: usize, j: usize| (z[i] - z[j]).abs();
    let mut best = (start + 1, f64::NEG_INFINITY);
    // Row i is τ = start + 1 + i; column j is κ = start + 2 + j.
    for i in 0..l {
        let tau = start + 1 + i;
        let n = (tau - start) as f64;
        let within_x: f64 = (start..tau)
            .flat_map(|a| (a + 1..tau).map(move |b| (a, b)))
            .map(|(a, b)| d(a, b))
            .sum();
        let mut cross = 0.0;
        let mut within_y = 0.0;
        for j in 0..l {
            let kappa = start + 2 + j;
            let q = if kappa <= tau {
                0.0
            } else {
                let new = kappa - 1;
                cross += (start..tau).map(|a| d(a, new)).sum::<f64>();
                within_y += (tau..new).map(|b| d(b, new)).sum::<f64>();
                let m = (kappa - tau) as f64;
                let a = 2.0 / (m + n) * cross;
                let b = if n > 1.0 {
                    2.0 * m / ((m + n) * (n - 1.0)) * within_x
                } else {
                    0.0
                };
                let c = if m > 1.0 {
                    2.0 * n / ((m + n) * (m - 1.0)) * within_y
                } else {
                    0.0
                };
                a - b - c
            };
            if q > best.1 {
                best = (tau, q);
            }
        }
    }
    best
}

/// `ChangePointDetector.get_change_points` on one window (`z` is the
/// window's values); indices are the window's.
fn detect(z: &[f64], max_pvalue: f64) -> Vec<usize> {
    let mut points: Vec<usize> = Vec::new();
    loop {
        let ivs = intervals(&points, z.len());
        let mut best: Option<(usize, f64)> = None;
        for &(s, e) in &ivs {
            if e - s > 1 {
                let c = candidate(z, s, e);
                if best.is_none_or(|b| c.1 > b.1) {
                    best = Some(c);
                }
            }
        }
        let Some((tau, _)) = best else { break };
        let cp = test_point(tau, z, &ivs);
        if cp.pvalue <= max_pvalue {
            points.push(tau);
            points.sort_unstable();
        } else {
            break;
        }
    }
    points
}

/// Otava's `split`: windows, the union of their weak change points, each
/// re-tested on the whole series.
fn split(series: &[f64], window: usize, max_pvalue: f64) -> Vec<ChangePoint> {
    let step = window / 2;
    let mut start = 0;
    let mut points: Vec<usize> = Vec::new();
    while start < series.len() {
        let end = (start + window).min(series.len());
        let found: Vec<usize> = detect(&series[start..end], max_pvalue)
            .into_iter()
            .map(|i| i + start)
            .collect();
        let last = found.last().copied().unwrap_or(0);
        start = last.max(start + step);
        for p in found {
            if !points.contains(&p) {
                points.push(p);
            }
        }
    }
    points.sort_unstable();
    let ivs = intervals(&points, series.len());
    points
        .iter()
        .map(|&p| test_point(p, series, &ivs))
        .collect()
}

/// Otava's `merge`: drop the weakest point until all pass.
fn merge(
    mut points: Vec<ChangePoint>,
    series: &[f64],
    max_pvalue: f64,
    min_magnitude: f64,
) -> Vec<ChangePoint> {
    while !points.is_empty() {
        // Python's max/min keep the first of equals and compare with > / <.
        let mut weakest = 0;
        for (i, c) in points.iter().enumerate() {
            if c.pvalue > points[weakest].pvalue {
                weakest = i;
            }
        }
        if points[weakest].pvalue < max_pvalue {
            weakest = 0;
            for (i, c) in points.iter().enumerate() {
                if c.magnitude() < points[weakest].magnitude() {
                    weakest = i;
                }
            }
            if points[weakest].magnitude() > min_magnitude {
                return points;
            }
        }
        points.remove(weakest);
        let indices: Vec<usize> = points.iter().map(|c| c.index).collect();
        let ivs = intervals(&indices, series.len());
        for i in [weakest, weakest + 1] {
            if i < points.len() {
                points[i] = test_point(points[i].index, series, &ivs);
            }
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Case {
        name: String,
        window_len: usize,
        max_pvalue: f64,
        values: Vec<f64>,
        change_points: Vec<usize>,
        pvalues: Vec<f64>,
    }

    #[derive(serde::Deserialize)]
    struct Reference {
        cases: Vec<Case>,
    }

    /// Otava's own output (tests/history/reference.py ran apache-otava
    /// 0.8.0 on these series).
    #[test]
    fn agrees_with_otava_on_fixed_series() {
        let reference: Reference =
            serde_json::from_str(include_str!("../tests/history/otava-reference.json")).unwrap();
        assert!(reference.cases.len() >= 10);
        for case in &reference.cases {
            let cfg = ChangePointConfig {
                window_len: case.window_len,
                max_pvalue: case.max_pvalue,
                min_magnitude: 0.0,
            };
            let got = change_points_with_stats(&case.values, &cfg);
            let indices: Vec<usize> = got.iter().map(|c| c.index).collect();
            assert_eq!(
                indices, case.change_points,
                "{} (window {}, p {})",
                case.name, case.window_len, case.max_pvalue
            );
            for (c, p) in got.iter().zip(&case.pvalues) {
                assert!(
                    (c.pvalue - p).abs() <= 1e-9_f64.max(1e-6 * p),
                    "{}: p {} vs Otava's {p}",
                    case.name,
                    c.pvalue
                );
            }
        }
    }

    #[test]
    fn short_and_flat_series_have_no_change_point() {
        let cfg = ChangePointConfig::default();
        assert!(change_points(&[], &cfg).is_empty());
        assert!(change_points(&[1.0], &cfg).is_empty());
        assert!(change_points(&[1.0, 5.0], &cfg).is_empty());
        assert!(change_points(&[2.0; 12], &cfg).is_empty());
    }

    #[test]
    fn a_clear_step_is_found_where_it_starts() {
        let mut v: Vec<f64> = (0..10).map(|i| 100.0 + (i % 3) as f64 * 0.1).collect();
        v.extend((0..10).map(|i| 130.0 + (i % 3) as f64 * 0.1));
        assert_eq!(change_points(&v, &ChangePointConfig::default()), vec![10]);
    }
}
