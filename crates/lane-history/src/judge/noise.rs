//! The two noise levels of a series and the lanes' common effect: the
//! repeat-to-repeat variance pooled over a segment, the F-test of two
//! repeats that disagree, and each history lane's median move across the
//! series.

use std::collections::BTreeMap;

use statrs::distribution::{ContinuousCDF, FisherSnedecor};

use super::Prepared;
use crate::row::Role;
use crate::stats::{mean, median, variance};

/// True when the lane has fewer than three repeats (its median is their
/// mean) and they differ more than the segment's repeat-to-repeat noise
/// allows: F = s²_lane / s²_within on (k − 1, Σ (kᵢ − 1)) degrees of
/// freedom, upper p below `max_p`.
pub(super) fn repeats_disagree(p: &Prepared<'_>, max_p: f64) -> bool {
    let k = p.lane.len();
    if !(2..3).contains(&k) {
        return false;
    }
    let (mut num, mut den) = (0.0, 0.0);
    for reps in p.history.iter().map(|h| &h.1) {
        if let Some(v) = variance(reps) {
            num += (reps.len() - 1) as f64 * v;
            den += (reps.len() - 1) as f64;
        }
    }
    let (Some(lane_var), true) = (variance(&p.lane), den > 0.0 && num > 0.0) else {
        return false;
    };
    let f = lane_var / (num / den);
    FisherSnedecor::new((k - 1) as f64, den).is_ok_and(|d| d.sf(f) < max_p)
}

/// Each judgeable series' history lane values less each run's common
/// effect: the median over the series in that run of (value − the
/// series' own mean), where at least `min_series` series hold the run.
/// Totals are left out of the median (each is a sum of series already in
/// it) but netted like every series.
pub(super) fn net_of_common(
    prepared: &[Prepared<'_>],
    judgeable: &[usize],
    runs: usize,
    min_series: usize,
) -> BTreeMap<usize, Vec<f64>> {
    let means: BTreeMap<usize, f64> = judgeable
        .iter()
        .map(|&i| {
            let v: Vec<f64> = prepared[i].history.iter().map(|h| h.2).collect();
            (i, mean(&v).unwrap_or(0.0))
        })
        .collect();
    let mut moves: Vec<Vec<f64>> = vec![Vec::new(); runs];
    for &i in judgeable
        .iter()
        .filter(|&&i| prepared[i].role != Role::Total)
    {
        for (run, _, v) in &prepared[i].history {
            moves[*run].push(v - means[&i]);
        }
    }
    let common: Vec<f64> = moves
        .iter()
        .map(|m| {
            if m.len() >= min_series {
                median(m).unwrap_or(0.0)
            } else {
                0.0
            }
        })
        .collect();
    judgeable
        .iter()
        .map(|&i| {
            let v = prepared[i]
                .history
                .iter()
                .map(|(run, _, v)| v - common[*run])
                .collect();
            (i, v)
        })
        .collect()
}

/// The repeat-to-repeat variance, pooled over the segment's lanes and the
/// lane: Σ (kᵢ − 1) s²ᵢ / Σ (kᵢ − 1).
pub(super) fn pooled_within(p: &Prepared<'_>) -> Option<f64> {
    let mut num = 0.0;
    let mut den = 0.0;
    for reps in p
        .history
        .iter()
        .map(|h| &h.1)
        .chain(std::iter::once(&p.lane))
    {
        if let Some(v) = variance(reps) {
            num += (reps.len() - 1) as f64 * v;
            den += (reps.len() - 1) as f64;
        }
    }
    (den > 0.0).then(|| num / den)
}
