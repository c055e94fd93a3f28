//! The repeat-to-repeat noise of a series: pooled over a segment, a
//! robust level of it that one hiccup cannot inflate, and the F-test of
//! two repeats that disagree.

use statrs::distribution::{ChiSquared, ContinuousCDF, FisherSnedecor};

use super::one::Prepared;
use crate::stats::{median, variance};

/// The repeat-to-repeat variance from the runs' repeats `runs`, robust to
/// a hiccup (a slow disk, an autotune retry: one repeat far slower): the
/// median of the runs' variances over the median of its χ² distribution
/// (k − 1 degrees of freedom, k the runs' most common repeat count), and
/// the degrees of freedom Σ (kᵢ − 1).
pub(super) fn robust_within<'a>(runs: impl Iterator<Item = &'a [f64]>) -> Option<(f64, f64)> {
    let mut variances = Vec::new();
    let mut counts: std::collections::BTreeMap<usize, usize> = Default::default();
    let mut df = 0.0;
    for reps in runs {
        if let Some(v) = variance(reps) {
            variances.push(v);
            *counts.entry(reps.len()).or_default() += 1;
            df += (reps.len() - 1) as f64;
        }
    }
    let k = counts.iter().max_by_key(|(_, n)| **n).map(|(k, _)| *k)?;
    let chi = ChiSquared::new((k - 1) as f64).ok()?;
    let level = median(&variances)? / (chi.inverse_cdf(0.5) / (k - 1) as f64);
    (level > 0.0).then_some((level, df))
}

/// True when `reps`, fewer than three (their median is their mean), differ
/// more than repeat-to-repeat noise `within` (on `df` degrees of freedom)
/// allows: F = s² / within on (k − 1, df), upper p below `max_p`.
pub(super) fn disagree(reps: &[f64], within: Option<(f64, f64)>, max_p: f64) -> bool {
    let k = reps.len();
    let (Some((w, df)), Some(v), true) = (within, variance(reps), k == 2) else {
        return false;
    };
    FisherSnedecor::new((k - 1) as f64, df).is_ok_and(|d| d.sf(v / w) < max_p)
}

/// True when the lane's repeats disagree (see [`disagree`]) against its
/// segment's robust repeat-to-repeat noise.
pub(super) fn repeats_disagree(p: &Prepared, max_p: f64) -> bool {
    let within = robust_within(p.history.iter().map(|h| h.1.as_slice()));
    disagree(&p.lane, within, max_p)
}

/// The repeat-to-repeat variance, pooled over the segment's lanes and the
/// lane: Σ (kᵢ − 1) s²ᵢ / Σ (kᵢ − 1).
pub(super) fn pooled_within(p: &Prepared) -> Option<f64> {
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
