//! The statistics the method is made of, each small and tested against
//! reference values (scipy, limma's published algorithm).
//!
//! - [`median`], [`mean`], [`variance`]: the lane statistic is the median
//!   of a lane's cold repeats of `ln(seconds)`;
//! - [`trigamma`], [`tetragamma`], [`trigamma_inverse`]: limma's
//!   `trigammaInverse` (Newton's method on `trigamma(y) = x`);
//! - [`squeeze_var`]: limma's `squeezeVar` (Smyth 2004): the prior
//!   `(d0, s0²)` fitted to the sample variances of sibling series by
//!   matching the moments of `log s²`, and each variance moderated to
//!   `(d0 s0² + d s²) / (d0 + d)` on `d0 + d` degrees of freedom;
//! - [`benjamini_hochberg`]: which p-values a lane rejects at FDR `q`;
//! - [`t_sf`], [`t_cdf`], [`t_quantile`]: Student's t (statrs), with the
//!   normal for infinite degrees of freedom.

use statrs::distribution::{ContinuousCDF, FisherSnedecor, Normal, StudentsT};
use statrs::function::gamma::digamma;

/// Degrees of freedom above which Student's t is the normal.
pub const DF_NORMAL: f64 = 1e7;

/// The median (the mean of the middle two for an even count); `None` when
/// empty. NaN must not be passed (rows refuse it).
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// The lower median: the middle value, or the lower of the middle two for
/// an even count; `None` when empty. A lane's statistic over its cold
/// repeats: of two repeats the faster, which one hiccup (a slow disk, an
/// autotune retry: interference only ever slows a mint) cannot move, where
/// their mean moves half as far as the hiccup.
pub fn lower_median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    Some(v[(v.len() - 1) / 2])
}

/// The lower median of `ln(seconds)` over the positive values: the lane
/// statistic of one series. `None` when no value is positive (the log
/// scale cannot hold zero or a negative residual).
pub fn log_median(seconds: &[f64]) -> Option<f64> {
    let logs: Vec<f64> = seconds
        .iter()
        .filter(|s| **s > 0.0)
        .map(|s| s.ln())
        .collect();
    lower_median(&logs)
}

/// The mean; `None` when empty.
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The sample variance (Bessel's correction); `None` below two values.
pub fn variance(values: &[f64]) -> Option<f64> {
    if values.len() < 2 {
        return None;
    }
    let m = mean(values)?;
    Some(values.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (values.len() - 1) as f64)
}

/// The variance of the median of `k` independent normal values, as a
/// multiple of one value's variance: exact for `k` up to 5 (order
/// statistics of the normal), `π / 2k` beyond. The repeat-to-repeat noise
/// reaches a lane median through this factor.
pub fn median_variance_factor(k: usize) -> f64 {
    match k {
        0 | 1 => 1.0,
        2 => 0.5,
        3 => 0.448_671,
        4 => 0.298_2,
        5 => 0.286_834,
        k => std::f64::consts::PI / (2.0 * k as f64),
    }
}

/// The trigamma function ψ₁(x) for x > 0: the recurrence
/// ψ₁(x) = ψ₁(x + 1) + 1/x² up to x ≥ 10, then the asymptotic series.
pub fn trigamma(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    let mut x = x;
    let mut acc = 0.0;
    while x < 10.0 {
        acc += 1.0 / (x * x);
        x += 1.0;
    }
    let z = 1.0 / (x * x);
    // 1/x + 1/2x² + Σ B₂ₖ / x^(2k+1)
    let series = 1.0 / x
        + z / 2.0
        + z / x
            * (1.0 / 6.0
                + z * (-1.0 / 30.0
                    + z * (1.0 / 42.0
                        + z * (-1.0 / 30.0 + z * (5.0 / 66.0 - z * 691.0 / 2730.0)))));
    acc + series
}

/// The tetragamma function ψ₂(x) for x > 0 (the derivative of
/// [`trigamma`]), by the same recurrence and series.
pub fn tetragamma(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    let mut x = x;
    let mut acc = 0.0;
    while x < 10.0 {
        acc -= 2.0 / (x * x * x);
        x += 1.0;
    }
    let z = 1.0 / (x * x);
    // -1/x² - 1/x³ - Σ (2k+1) B₂ₖ / x^(2k+2)
    let series = -z
        - z / x
        - z * z
            * (0.5
                + z * (-1.0 / 6.0
                    + z * (1.0 / 6.0 + z * (-3.0 / 10.0 + z * (5.0 / 6.0 - z * 691.0 / 210.0)))));
    acc + series
}

/// The y with `trigamma(y) = x`, as limma's `trigammaInverse` finds it:
/// Newton's method from `y = 0.5 + 1/x`, stopping when the step is below
/// 1e-8 of y or after 50 steps; `1/√x` above 1e7 and `1/x` below 1e-6.
/// NaN for a negative or NaN `x`.
pub fn trigamma_inverse(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x > 1e7 {
        return 1.0 / x.sqrt();
    }
    if x < 1e-6 {
        return 1.0 / x;
    }
    let mut y = 0.5 + 1.0 / x;
    for _ in 0..50 {
        let tri = trigamma(y);
        let dif = tri * (1.0 - tri / x) / tetragamma(y);
        y += dif;
        if -dif / y < 1e-8 {
            break;
        }
    }
    y
}

/// The prior limma's `fitFDist` fits to sample variances.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Prior {
    /// The prior's degrees of freedom, d₀ (infinite when the variances
    /// spread no more than sampling explains).
    pub df: f64,
    /// The prior variance, s₀².
    pub var: f64,
}

/// limma's `fitFDist` without a covariate: the scaled-F prior of the
/// sample variances `s2` on `df` degrees of freedom each. Zero variances
/// are offset to 1e-5 of the median (as limma does). `None` below two
/// usable variances.
pub fn fit_f_dist(s2: &[f64], df: &[f64]) -> Option<Prior> {
    let pairs: Vec<(f64, f64)> = s2
        .iter()
        .zip(df)
        .filter(|(v, d)| v.is_finite() && d.is_finite() && **d > 1e-15)
        .map(|(v, d)| (v.max(0.0), *d))
        .collect();
    if pairs.len() < 2 {
        return None;
    }
    let vars: Vec<f64> = pairs.iter().map(|p| p.0).collect();
    let m = median(&vars)?;
    let m = if m == 0.0 { 1.0 } else { m };
    let e: Vec<f64> = pairs
        .iter()
        .map(|(v, d)| v.max(1e-5 * m).ln() - digamma(d / 2.0) + (d / 2.0).ln())
        .collect();
    let emean = mean(&e)?;
    let evar = variance(&e)?
        - mean(
            &pairs
                .iter()
                .map(|p| trigamma(p.1 / 2.0))
                .collect::<Vec<_>>(),
        )?;
    if evar > 0.0 {
        let d0 = 2.0 * trigamma_inverse(evar);
        let s0 = (emean + digamma(d0 / 2.0) - (d0 / 2.0).ln()).exp();
        Some(Prior { df: d0, var: s0 })
    } else {
        Some(Prior {
            df: f64::INFINITY,
            var: emean.exp(),
        })
    }
}

/// limma's `squeezeVar` (Smyth 2004), legacy moment fit: each variance
/// moderated towards the prior, `(d0 s0² + d s²) / (d0 + d)`, with its
/// posterior degrees of freedom `d0 + d` (the prior variance itself on
/// infinite degrees of freedom when d₀ is infinite). Without a prior
/// (fewer than two siblings) the variances are returned as they are.
pub fn squeeze_var(s2: &[f64], df: &[f64]) -> (Vec<(f64, f64)>, Option<Prior>) {
    let prior = fit_f_dist(s2, df);
    let out = s2
        .iter()
        .zip(df)
        .map(|(v, d)| match prior {
            Some(p) if p.df.is_infinite() => (p.var, f64::INFINITY),
            Some(p) => ((p.df * p.var + d * v) / (p.df + d), p.df + d),
            None => (*v, *d),
        })
        .collect();
    (out, prior)
}

/// The largest p of the F-test at which [`fit_f_dist_trend`] keeps a trend
/// (0.01).
pub const TREND_P: f64 = 0.01;

/// The prior of [`fit_f_dist_trend`]: one d₀, and s₀² along the covariate.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TrendPrior {
    /// The prior's degrees of freedom, d₀ (infinite when the variances
    /// spread about the trend no more than sampling explains).
    pub df: f64,
    /// The prior variance of each input, s₀²(covariate).
    pub var: Vec<f64>,
    /// The prior's degrees of freedom at each input: d₀, capped by what the
    /// fit itself knows there (its prediction variance of log s₀², the
    /// leverage times the residual mean square, read as the degrees of
    /// freedom of a χ² with that log variance). limma's many genes make
    /// that cap moot; a lane's dozen series do not: a trend fitted to twelve
    /// variances is itself uncertain, most at the sizes at its ends.
    pub df_at: Vec<f64>,
    /// Terms of the fitted polynomial (1 is limma without a covariate).
    pub terms: usize,
}

/// limma's `fitFDist` with a covariate (limma-trend, `eBayes(trend =
/// TRUE)`; Smyth 2004 §6, Law et al. 2014): the prior variance follows the
/// covariate (for lane, a series' mean log-seconds: a 3 ms phase is far
/// noisier relative to itself than a 90 s one), so hypervariable small
/// series no longer spread the prior of the large ones. As limma, the log
/// variances (offset as [`fit_f_dist`] does) are regressed on a basis of
/// 1 + [n ≥ 3] + [n ≥ 6] + [n ≥ 30] terms, capped at the distinct covariate
/// values; d₀ comes from the residuals' mean square less the sampling
/// part. limma's basis is a natural spline; this one is a polynomial in the
/// standardised covariate (the same number of terms), which is what the
/// reference values in `tests/history/reference.py` compute. `None` below
/// two usable variances or when an input is unusable (every judged series
/// has a finite variance on at least one degree of freedom).
pub fn fit_f_dist_trend(s2: &[f64], df: &[f64], covariate: &[f64]) -> Option<TrendPrior> {
    let n = s2.len();
    if n < 2
        || df.len() != n
        || covariate.len() != n
        || s2
            .iter()
            .zip(df)
            .zip(covariate)
            .any(|((v, d), c)| !(v.is_finite() && c.is_finite() && d.is_finite() && *d > 1e-15))
    {
        return None;
    }
    let mut distinct: Vec<f64> = covariate.to_vec();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    let terms =
        (1 + usize::from(n >= 3) + usize::from(n >= 6) + usize::from(n >= 30)).min(distinct.len());
    let vars: Vec<f64> = s2.iter().map(|v| v.max(0.0)).collect();
    let m = median(&vars)?;
    let m = if m == 0.0 { 1.0 } else { m };
    let e: Vec<f64> = vars
        .iter()
        .zip(df)
        .map(|(v, d)| v.max(1e-5 * m).ln() - digamma(d / 2.0) + (d / 2.0).ln())
        .collect();
    let rss_of =
        |fitted: &[f64]| -> f64 { e.iter().zip(fitted).map(|(a, b)| (a - b) * (a - b)).sum() };
    let flat = least_squares_polynomial(covariate, &e, 1)?;
    let mut fit = least_squares_polynomial(covariate, &e, terms)?;
    if n <= fit.rank {
        fit = flat.clone();
    }
    // The trend is kept only where it explains the log variances (the
    // nested F-test against limma's constant prior): a trend fitted to
    // sizes that do not matter would only add noise to s₀².
    if fit.rank > 1 {
        let (rss0, rss1) = (rss_of(&flat.fitted), rss_of(&fit.fitted));
        let (d1, d2) = ((fit.rank - 1) as f64, (n - fit.rank) as f64);
        let f = ((rss0 - rss1) / d1) / (rss1 / d2).max(f64::MIN_POSITIVE);
        let p = FisherSnedecor::new(d1, d2).map_or(1.0, |d| d.sf(f.max(0.0)));
        if p >= TREND_P {
            fit = flat;
        }
    }
    let rss = rss_of(&fit.fitted);
    let residual = rss / (n - fit.rank) as f64;
    let sampling = mean(&df.iter().map(|d| trigamma(d / 2.0)).collect::<Vec<_>>())?;
    let evar = residual - sampling;
    let (d0, shift) = if evar > 0.0 {
        let d0 = 2.0 * trigamma_inverse(evar);
        (d0, digamma(d0 / 2.0) - (d0 / 2.0).ln())
    } else {
        (f64::INFINITY, 0.0)
    };
    // What the fit knows at each input: log s₀² predicted with variance
    // leverage × residual mean square (at least the sampling part).
    let df_at = fit
        .leverage
        .iter()
        .map(|h| {
            let v = h * residual.max(sampling);
            if v > 0.0 {
                d0.min(2.0 * trigamma_inverse(v))
            } else {
                d0
            }
        })
        .collect();
    Some(TrendPrior {
        df: d0,
        var: fit.fitted.iter().map(|f| (f + shift).exp()).collect(),
        df_at,
        terms: fit.rank,
    })
}

/// A least-squares fit: the fitted values, the rank and each input's
/// leverage (the hat matrix's diagonal).
#[derive(Clone)]
struct Fit {
    fitted: Vec<f64>,
    rank: usize,
    leverage: Vec<f64>,
}

/// `y` regressed by least squares on 1, z, z², … (`terms` columns, z the
/// standardised `x`), by modified Gram–Schmidt; columns that add nothing
/// (collinear) are dropped.
fn least_squares_polynomial(x: &[f64], y: &[f64], terms: usize) -> Option<Fit> {
    let n = x.len();
    let centre = mean(x)?;
    let scale = variance(x).map_or(1.0, f64::sqrt);
    let scale = if scale > 0.0 { scale } else { 1.0 };
    let z: Vec<f64> = x.iter().map(|v| (v - centre) / scale).collect();
    let mut basis: Vec<Vec<f64>> = Vec::new();
    for power in 0..terms {
        let mut col: Vec<f64> = z.iter().map(|v| v.powi(power as i32)).collect();
        let norm0 = col.iter().map(|c| c * c).sum::<f64>().sqrt();
        for q in &basis {
            let dot: f64 = col.iter().zip(q).map(|(a, b)| a * b).sum();
            col.iter_mut().zip(q).for_each(|(a, b)| *a -= dot * b);
        }
        let norm = col.iter().map(|c| c * c).sum::<f64>().sqrt();
        if norm > 1e-10 * norm0.max(1e-300) {
            col.iter_mut().for_each(|c| *c /= norm);
            basis.push(col);
        }
    }
    let mut fitted = vec![0.0; n];
    let mut leverage = vec![0.0; n];
    for q in &basis {
        let dot: f64 = y.iter().zip(q).map(|(a, b)| a * b).sum();
        fitted.iter_mut().zip(q).for_each(|(f, b)| *f += dot * b);
        leverage.iter_mut().zip(q).for_each(|(h, b)| *h += b * b);
    }
    Some(Fit {
        fitted,
        rank: basis.len(),
        leverage,
    })
}

/// [`squeeze_var`] with the prior variance following `covariate`
/// ([`fit_f_dist_trend`]): each variance moderated towards its own
/// s₀²(covariate) on d₀ + d degrees of freedom.
pub fn squeeze_var_trend(
    s2: &[f64],
    df: &[f64],
    covariate: &[f64],
) -> (Vec<(f64, f64)>, Option<TrendPrior>) {
    let prior = fit_f_dist_trend(s2, df, covariate);
    let out = s2
        .iter()
        .zip(df)
        .enumerate()
        .map(|(i, (v, d))| match &prior {
            Some(p) if p.df_at[i].is_infinite() => (p.var[i], f64::INFINITY),
            Some(p) => {
                let d0 = p.df_at[i];
                ((d0 * p.var[i] + d * v) / (d0 + d), d0 + d)
            }
            None => (*v, *d),
        })
        .collect();
    (out, prior)
}

/// Bonferroni at family-wise level `alpha`: true for each p at or below
/// `alpha` over the family's size. NaN p-values are never rejected and
/// count in the family.
pub fn bonferroni(p: &[f64], alpha: f64) -> Vec<bool> {
    let m = p.len().max(1) as f64;
    p.iter().map(|v| *v <= alpha / m).collect()
}

/// Benjamini–Hochberg (1995) at FDR `q`: true for each p-value the step-up
/// procedure rejects (the largest i with p₍ᵢ₎ ≤ q·i/m, and every smaller p).
/// NaN p-values are never rejected and count in m.
pub fn benjamini_hochberg(p: &[f64], q: f64) -> Vec<bool> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|a, b| p[*a].total_cmp(&p[*b]));
    let mut k_max = None;
    for (rank, &i) in order.iter().enumerate() {
        if p[i] <= q * (rank + 1) as f64 / m as f64 {
            k_max = Some(rank);
        }
    }
    let mut out = vec![false; m];
    if let Some(k) = k_max {
        for &i in &order[..=k] {
            out[i] = true;
        }
    }
    out
}

/// BH-adjusted p-values (statsmodels' `fdr_bh`): min over j ≥ i of
/// p₍ⱼ₎·m/j, capped at 1.
pub fn bh_adjusted(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|a, b| p[*a].total_cmp(&p[*b]));
    let mut out = vec![f64::NAN; m];
    let mut running = 1.0_f64;
    for (rank, &i) in order.iter().enumerate().rev() {
        running = running.min(p[i] * m as f64 / (rank + 1) as f64);
        out[i] = running.min(1.0);
    }
    out
}

fn standard(df: f64) -> Result<Box<dyn ContinuousCDF<f64, f64>>, ()> {
    if df.is_nan() || df <= 0.0 {
        return Err(());
    }
    if df > DF_NORMAL {
        return Normal::new(0.0, 1.0)
            .map(|d| Box::new(d) as _)
            .map_err(|_| ());
    }
    StudentsT::new(0.0, 1.0, df)
        .map(|d| Box::new(d) as _)
        .map_err(|_| ())
}

/// P(T > t) for Student's t on `df` degrees of freedom (NaN for df ≤ 0).
pub fn t_sf(t: f64, df: f64) -> f64 {
    standard(df).map_or(f64::NAN, |d| d.sf(t))
}

/// P(T ≤ t) for Student's t on `df` degrees of freedom.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    standard(df).map_or(f64::NAN, |d| d.cdf(t))
}

/// The `prob` quantile of Student's t on `df` degrees of freedom.
pub fn t_quantile(prob: f64, df: f64) -> f64 {
    standard(df).map_or(f64::NAN, |d| d.inverse_cdf(prob))
}

/// Two-sided p of Student's two-sample t-test with pooled variance, from
/// summary statistics (scipy's `ttest_ind_from_stats`, `equal_var=True`):
/// NaN when both spreads are zero and the means are equal.
pub fn pooled_t_test(m1: f64, sd1: f64, n1: usize, m2: f64, sd2: f64, n2: usize) -> f64 {
    let (a, b) = (n1 as f64, n2 as f64);
    let df = a + b - 2.0;
    let pooled = ((a - 1.0) * sd1 * sd1 + (b - 1.0) * sd2 * sd2) / df;
    let denom = (pooled * (1.0 / a + 1.0 / b)).sqrt();
    let t = (m1 - m2) / denom;
    if t.is_nan() {
        return f64::NAN;
    }
    2.0 * t_sf(t.abs(), df)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(1e-300)
    }

    #[test]
    fn medians_take_the_middle_and_log_medians_skip_non_positive_values() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        // ln is monotone: the log median of three is the log of the median.
        assert!(close(
            log_median(&[100.0, 125.0, 101.0]).unwrap(),
            101f64.ln(),
            1e-15
        ));
        assert_eq!(log_median(&[0.0, -1.0]), None);
        assert_eq!(variance(&[1.0, 2.0, 3.0, 4.0]), Some(5.0 / 3.0));
    }

    /// scipy.special.polygamma(1, x) and polygamma(2, x)
    /// (tests/history/reference.py writes them).
    #[test]
    fn trigamma_and_tetragamma_match_scipy() {
        for (x, tri, tetra) in [
            (0.1, 101.433_299_150_792_75, -2_001.861_457_378_343_9),
            (0.5, 4.934_802_200_544_68, -16.828_796_644_234_316),
            (1.0, 1.644_934_066_848_226_6, -2.404_113_806_319_188),
            (2.5, 0.490_357_756_100_234_9, -0.236_204_051_641_727_36),
            (10.0, 0.105_166_335_681_685_76, -0.011_049_834_970_802_069),
            (
                1000.0,
                0.001_000_500_166_666_633,
                -1.001_000_499_999_833_5e-6,
            ),
        ] {
            assert!(
                close(trigamma(x), tri, 1e-12),
                "trigamma({x}) = {}",
                trigamma(x)
            );
            assert!(
                close(tetragamma(x), tetra, 1e-12),
                "tetragamma({x}) = {}",
                tetragamma(x)
            );
        }
    }

    #[test]
    fn trigamma_inverse_inverts_trigamma() {
        for y in [0.05, 0.3, 1.0, 2.0, 7.5, 40.0, 1e4] {
            let x = trigamma(y);
            assert!(
                close(trigamma_inverse(x), y, 1e-7),
                "y {y}: {}",
                trigamma_inverse(x)
            );
        }
        assert!(trigamma_inverse(-1.0).is_nan());
        assert_eq!(trigamma_inverse(1e8), 1e-4);
    }

    /// A fixed example worked by limma's algorithm (fitFDist's moment
    /// match, tests/history/reference.py, scipy's digamma and polygamma):
    /// eight variances on 4 degrees of freedom each.
    #[test]
    fn squeeze_var_matches_limma_on_a_fixed_example() {
        let s2 = [0.002, 0.020, 0.015, 0.090, 0.004, 0.060, 0.012, 0.045];
        let df = [4.0; 8];
        let (post, prior) = squeeze_var(&s2, &df);
        let prior = prior.unwrap();
        assert!(close(prior.df, REF_D0, 1e-6), "d0 {}", prior.df);
        assert!(close(prior.var, REF_S0, 1e-6), "s0² {}", prior.var);
        for (i, (v, d)) in post.iter().enumerate() {
            let want = (REF_D0 * REF_S0 + 4.0 * s2[i]) / (REF_D0 + 4.0);
            assert!(close(*v, want, 1e-6), "{i}: {v} vs {want}");
            assert!(close(*d, REF_D0 + 4.0, 1e-6));
        }
        // Variances that spread no more than sampling explains: d0 = ∞,
        // every variance becomes the prior.
        let (post, prior) = squeeze_var(&[0.02, 0.021, 0.019, 0.0205], &[4.0; 4]);
        assert!(prior.unwrap().df.is_infinite());
        assert!(post.iter().all(|(v, d)| *v == post[0].0 && d.is_infinite()));
        // One variance: no prior, nothing moderated.
        assert_eq!(squeeze_var(&[0.02], &[4.0]).0, vec![(0.02, 4.0)]);
    }

    /// limma-trend on a fixed example shaped like lane's real series
    /// (log variances falling with the series' size), against
    /// tests/history/reference.py's `fit_f_dist_trend`; and the constant
    /// prior back when the covariate explains nothing.
    #[test]
    fn squeeze_var_trend_follows_size_and_falls_back_to_limma() {
        let cov = [
            4.5, 4.4, 3.4, 2.7, 2.3, 1.7, 0.9, 0.2, -0.5, -0.8, -1.5, -4.2, -5.8, -7.4,
        ];
        let s2 = [
            8e-5, 1.3e-5, 1.5e-3, 2.0e-3, 4.1e-3, 5.3e-4, 6.1e-4, 3.2e-3, 1.3e-2, 3.1e-2, 2.7e-4,
            0.19, 4.1e-3, 0.2,
        ];
        let want = [
            9.543_460_942_605_273e-5,
            0.000_104_890_688_745_354_02,
            0.000_259_561_642_867_288_9,
            0.000_469_365_460_561_805_45,
            0.000_648_336_080_371_667_1,
            0.001_030_543_779_639_247_6,
            0.001_837_845_865_112_851_6,
            0.002_938_350_169_330_246,
            0.004_538_629_101_337_237,
            0.005_410_835_997_260_019_5,
            0.007_956_005_126_877_391,
            0.025_482_311_561_171,
            0.039_875_072_297_089_094,
            0.052_111_812_610_691_935,
        ];
        let prior = fit_f_dist_trend(&s2, &[2.0; 14], &cov).unwrap();
        assert_eq!(prior.terms, 3);
        assert!(
            close(prior.df, 1.703_506_394_797_493_6, 1e-6),
            "d0 {}",
            prior.df
        );
        for (got, want) in prior.var.iter().zip(want) {
            assert!(close(*got, want, 1e-6), "{got} vs {want}");
        }
        let (post, _) = squeeze_var_trend(&s2, &[2.0; 14], &cov);
        let d0 = prior.df;
        assert!(close(
            post[0].0,
            (d0 * want[0] + 2.0 * s2[0]) / (d0 + 2.0),
            1e-6
        ));
        // Sizes that do not explain the variances: limma's constant prior.
        let s2 = [0.002, 0.020, 0.015, 0.090, 0.004, 0.060, 0.012, 0.045];
        let cov = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
        let prior = fit_f_dist_trend(&s2, &[4.0; 8], &cov).unwrap();
        assert_eq!(prior.terms, 1);
        assert!(close(prior.df, REF_D0, 1e-6));
        assert!(prior.var.iter().all(|v| close(*v, REF_S0, 1e-6)));
        assert!(fit_f_dist_trend(&[0.1], &[2.0], &[1.0]).is_none());
        assert!(fit_f_dist_trend(&[0.1, f64::NAN], &[2.0, 2.0], &[1.0, 2.0]).is_none());
    }

    /// The prior of the fixed example, from tests/history/reference.py.
    const REF_D0: f64 = 2.674_658_986_604_843;
    const REF_S0: f64 = 0.014_667_615_315_540_238;

    /// Benjamini and Hochberg (1995), §4's example: fifteen p-values, q =
    /// 0.05 rejects the four smallest.
    #[test]
    fn benjamini_hochberg_matches_the_paper() {
        let p = [
            0.0201, 0.0001, 0.0004, 0.0019, 0.0095, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262,
            0.5719, 0.6528, 0.7590, 1.000,
        ];
        let r = benjamini_hochberg(&p, 0.05);
        let rejected: Vec<f64> = p.iter().zip(&r).filter(|x| *x.1).map(|x| *x.0).collect();
        assert_eq!(rejected, vec![0.0001, 0.0004, 0.0019, 0.0095]);
        let adj = bh_adjusted(&p);
        assert!(close(adj[1], 0.0015, 1e-12));
        assert!(adj.iter().zip(&r).all(|(a, r)| (*a <= 0.05) == *r));
        assert!(benjamini_hochberg(&[], 0.05).is_empty());
    }

    #[test]
    fn student_t_matches_scipy_and_becomes_normal() {
        // scipy.stats.t.sf(2.0, 5), t.ppf(0.95, 10)
        assert!(close(t_sf(2.0, 5.0), 0.050_969_739_414_929_14, 1e-9));
        assert!(close(t_quantile(0.95, 10.0), 1.812_461_122_810_733_5, 1e-9));
        assert!(close(t_cdf(-2.0, 5.0), t_sf(2.0, 5.0), 1e-12));
        assert!(close(
            t_sf(1.959_963_984_540_054, f64::INFINITY),
            0.025,
            1e-9
        ));
        assert!(t_sf(1.0, 0.0).is_nan());
        // scipy.stats.ttest_ind_from_stats(10, 1, 5, 12, 1.5, 4)
        assert!(close(
            pooled_t_test(10.0, 1.0, 5, 12.0, 1.5, 4),
            0.047_059_982_850_761_226,
            1e-6
        ));
    }
}
