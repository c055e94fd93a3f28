//! Comparing one cell on one GPU across two lanes: a baseline and a
//! candidate, each one or more mints (repeats), a delta per row, and a
//! documented noise rule deciding which deltas are real.
//!
//! Noise rule ([`NoiseRule`]): a delta counts only when `|delta| >
//! max(floor_s, relative * |baseline|)`. When both sides have at least two
//! repeats, Welch's t-test must also reject "same mean" at the two-sided 5 %
//! level (critical values from the t table, degrees of freedom by
//! Welch-Satterthwaite, rounded down, which errs toward "noise").
//!
//! Refusals: an empty side (absence is not zero), two ledger versions, or two
//! recipes; missing mints are counted, not averaged in.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::breakdown::MintBreakdown;
use crate::error::CompareError;
use crate::findings::FindingKind;

/// The noise rule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct NoiseRule {
    /// Relative threshold (of the baseline mean).
    pub relative: f64,
    /// Floor in seconds: smaller deltas are always noise.
    pub floor_s: f64,
}

impl Default for NoiseRule {
    /// 5 % of the baseline, and never less than 1 s.
    fn default() -> Self {
        NoiseRule {
            relative: 0.05,
            floor_s: 1.0,
        }
    }
}

/// What a row's delta means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeltaVerdict {
    /// Within the noise rule.
    Noise,
    /// The candidate takes longer.
    Slower,
    /// The candidate is faster.
    Faster,
    /// Measured only in the baseline.
    OnlyBaseline,
    /// Measured only in the candidate.
    OnlyCandidate,
}

/// Welch's t-test on one row.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct WelchTest {
    /// The t statistic (candidate minus baseline).
    pub t: f64,
    /// Welch-Satterthwaite degrees of freedom.
    pub df: f64,
    /// Two-sided 5 % critical value used.
    pub critical: f64,
    /// True when |t| > critical.
    pub rejects_same_mean: bool,
}

/// One compared row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeltaRow {
    /// `total`, `phase`, `warmup`, `partition`, `residual`, `overlay` or
    /// `mint` (the aot table's partition of its `total_s`).
    pub group: &'static str,
    /// Row name.
    pub name: String,
    /// Baseline mean; absent when never measured there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_s: Option<f64>,
    /// Candidate mean; absent when never measured there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidate_s: Option<f64>,
    /// Baseline repeats with this row.
    pub baseline_n: usize,
    /// Candidate repeats with this row.
    pub candidate_n: usize,
    /// `candidate - baseline`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta_s: Option<f64>,
    /// `delta / baseline`, absent for a zero baseline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta_rel: Option<f64>,
    /// The noise threshold applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold_s: Option<f64>,
    /// The t-test, when both sides have repeats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<WelchTest>,
    /// The verdict.
    pub verdict: DeltaVerdict,
}

/// One side of a comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideSummary {
    /// Mints compared.
    pub mints: usize,
    /// Mints given but missing (no report, or one lane could not read), not
    /// averaged in.
    pub missing: usize,
    /// Distinct cell keys seen.
    pub cell_keys: Vec<String>,
    /// Mints that are not cold (their findings say they resolved what
    /// they should have compiled), each `source: why`: their seconds are
    /// not a cold mint's, and the comparison says so first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_cold: Vec<String>,
}

/// A baseline/candidate comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// The ledger version both sides share.
    pub ledger: String,
    /// Baseline side.
    pub baseline: SideSummary,
    /// Candidate side.
    pub candidate: SideSummary,
    /// False when the sides name different cells (reported, not refused: a
    /// lane bump may re-key a cell).
    pub same_cell: Option<bool>,
    /// The rule applied.
    pub noise_rule: NoiseRule,
    /// Rows, in first-seen order.
    pub rows: Vec<DeltaRow>,
}

/// Two-sided 5 % critical values of Student's t for df = 1..=30.
const T_CRITICAL: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// The two-sided 5 % critical value for `df` degrees of freedom (rounded down).
pub fn t_critical(df: f64) -> f64 {
    let d = df.floor();
    // NaN or below one degree of freedom: the most conservative value.
    if d.is_nan() || d < 1.0 {
        return T_CRITICAL[0];
    }
    match d as u64 {
        n @ 1..=30 => T_CRITICAL[(n - 1) as usize],
        31..=39 => 2.042,
        40..=59 => 2.021,
        60..=119 => 2.000,
        120..=999 => 1.980,
        _ => 1.960,
    }
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn variance(v: &[f64]) -> f64 {
    let m = mean(v);
    v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() as f64 - 1.0)
}

/// Welch's t-test, `None` unless both sides have two or more values.
pub fn welch(baseline: &[f64], candidate: &[f64]) -> Option<WelchTest> {
    if baseline.len() < 2 || candidate.len() < 2 {
        return None;
    }
    let (nb, nc) = (baseline.len() as f64, candidate.len() as f64);
    let (vb, vc) = (variance(baseline) / nb, variance(candidate) / nc);
    let delta = mean(candidate) - mean(baseline);
    let se = (vb + vc).sqrt();
    let (t, df) = if se > 0.0 {
        let denom = vb * vb / (nb - 1.0) + vc * vc / (nc - 1.0);
        let df = if denom > 0.0 {
            (vb + vc) * (vb + vc) / denom
        } else {
            nb + nc - 2.0
        };
        (delta / se, df)
    } else {
        // No spread on either side: any difference is exact.
        let t = if delta == 0.0 {
            0.0
        } else {
            f64::INFINITY.copysign(delta)
        };
        (t, nb + nc - 2.0)
    };
    let critical = t_critical(df);
    Some(WelchTest {
        t,
        df,
        critical,
        rejects_same_mean: t.abs() > critical,
    })
}

/// A row's identity: (group, name).
type RowKey = (&'static str, String);

/// The rows a breakdown contributes: (group, name, seconds).
fn rows_of(b: &MintBreakdown) -> Vec<(&'static str, String, f64)> {
    let mut rows = Vec::new();
    if let Some(t) = b.total_s {
        rows.push(("total", "total".to_owned(), t));
    }
    for p in &b.phases {
        rows.push(("phase", p.name.clone(), p.seconds));
    }
    if let Some(s) = &b.warmup_split {
        if let Some(c) = s.compile_s {
            rows.push(("warmup", "compile".to_owned(), c));
        }
        if let Some(e) = s.execute_s {
            rows.push(("warmup", "execute".to_owned(), e));
        }
    }
    if let Some(p) = &b.compile_partition {
        rows.push(("partition", p.total.name.clone(), p.total.seconds));
        for m in &p.members {
            rows.push(("partition", m.name.clone(), m.seconds));
        }
        rows.push(("residual", p.residual.name.clone(), p.residual.seconds));
    }
    for o in &b.overlays {
        rows.push(("overlay", o.name.clone(), o.seconds));
    }
    // The aot mint's own partition: where its total went, phase by phase.
    if let Some(p) = b.aot.as_ref().and_then(|a| a.mint.as_ref()) {
        for m in &p.members {
            rows.push(("mint", m.name.clone(), m.seconds));
        }
        rows.push(("residual", p.residual.name.clone(), p.residual.seconds));
    }
    rows
}

fn side<'m>(
    mints: &'m [MintBreakdown],
    name: &'static str,
) -> Result<(Vec<&'m MintBreakdown>, SideSummary), CompareError> {
    let present: Vec<&MintBreakdown> = mints.iter().filter(|m| m.measured()).collect();
    if present.is_empty() {
        return Err(CompareError::EmptySide { side: name });
    }
    let mut cell_keys: Vec<String> = present.iter().filter_map(|m| m.cell_key.clone()).collect();
    cell_keys.sort();
    cell_keys.dedup();
    let not_cold = present
        .iter()
        .flat_map(|m| {
            m.findings
                .iter()
                .filter(|f| f.kind == FindingKind::NotCold)
                .map(|f| format!("{}: {}", m.source, f.message))
        })
        .collect();
    let summary = SideSummary {
        mints: present.len(),
        missing: mints.len() - present.len(),
        cell_keys,
        not_cold,
    };
    Ok((present, summary))
}

/// Compares a baseline and a candidate (each one or more repeats).
pub fn compare(
    baseline: &[MintBreakdown],
    candidate: &[MintBreakdown],
    rule: &NoiseRule,
) -> Result<Comparison, CompareError> {
    let (base, base_summary) = side(baseline, "baseline")?;
    let (cand, cand_summary) = side(candidate, "candidate")?;
    let first = base[0];
    let version = first.ledger_version();
    for m in base.iter().chain(cand.iter()) {
        if m.ledger_version() != version {
            return Err(CompareError::MixedLedgerVersions {
                first: version,
                second: m.ledger_version(),
            });
        }
        if let (Some(a), Some(b)) = (&first.recipe, &m.recipe) {
            if a != b {
                return Err(CompareError::MixedRecipes {
                    first: a.as_str().to_owned(),
                    second: b.as_str().to_owned(),
                });
            }
        }
    }
    let same_cell = match (
        base_summary.cell_keys.as_slice(),
        cand_summary.cell_keys.as_slice(),
    ) {
        ([], _) | (_, []) => None,
        (a, b) => Some(a == b),
    };
    // (group, name) -> (baseline values, candidate values), in first-seen order.
    let mut order: Vec<RowKey> = Vec::new();
    let mut values: BTreeMap<RowKey, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    for (is_candidate, mints) in [(false, &base), (true, &cand)] {
        for m in mints.iter() {
            for (group, name, v) in rows_of(m) {
                let key = (group, name);
                let e = values.entry(key.clone()).or_insert_with(|| {
                    order.push(key.clone());
                    (Vec::new(), Vec::new())
                });
                if is_candidate {
                    e.1.push(v);
                } else {
                    e.0.push(v);
                }
            }
        }
    }
    let rows = order
        .into_iter()
        .map(|key| {
            let (b, c) = &values[&key];
            delta_row(key.0, key.1, b, c, rule)
        })
        .collect();
    Ok(Comparison {
        ledger: version,
        baseline: base_summary,
        candidate: cand_summary,
        same_cell,
        noise_rule: *rule,
        rows,
    })
}

fn delta_row(
    group: &'static str,
    name: String,
    b: &[f64],
    c: &[f64],
    rule: &NoiseRule,
) -> DeltaRow {
    let bm = (!b.is_empty()).then(|| mean(b));
    let cm = (!c.is_empty()).then(|| mean(c));
    let mut row = DeltaRow {
        group,
        name,
        baseline_s: bm,
        candidate_s: cm,
        baseline_n: b.len(),
        candidate_n: c.len(),
        delta_s: None,
        delta_rel: None,
        threshold_s: None,
        test: None,
        verdict: DeltaVerdict::Noise,
    };
    match (bm, cm) {
        (Some(bm), Some(cm)) => {
            let delta = cm - bm;
            let threshold = rule.floor_s.max(rule.relative * bm.abs());
            let test = welch(b, c);
            let significant = delta.abs() > threshold && test.is_none_or(|t| t.rejects_same_mean);
            row.delta_s = Some(delta);
            row.delta_rel = (bm != 0.0).then(|| delta / bm);
            row.threshold_s = Some(threshold);
            row.test = test;
            row.verdict = match (significant, delta > 0.0) {
                (false, _) => DeltaVerdict::Noise,
                (true, true) => DeltaVerdict::Slower,
                (true, false) => DeltaVerdict::Faster,
            };
        }
        (Some(_), None) => row.verdict = DeltaVerdict::OnlyBaseline,
        (None, Some(_)) => row.verdict = DeltaVerdict::OnlyCandidate,
        (None, None) => {}
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welch_rejects_clear_shifts_and_keeps_overlap() {
        let t = welch(&[10.0, 10.2, 9.9], &[12.0, 12.1, 11.8]).unwrap();
        assert!(t.rejects_same_mean, "{t:?}");
        let t = welch(&[10.0, 12.0, 8.0], &[10.5, 12.5, 8.5]).unwrap();
        assert!(!t.rejects_same_mean, "{t:?}");
        assert!(welch(&[1.0], &[2.0, 3.0]).is_none());
    }

    #[test]
    fn floor_keeps_tiny_deltas_noise() {
        let rule = NoiseRule::default();
        let r = delta_row("phase", "x".into(), &[2.0], &[2.9], &rule);
        assert_eq!(r.verdict, DeltaVerdict::Noise);
        let r = delta_row("phase", "x".into(), &[100.0], &[106.0], &rule);
        assert_eq!(r.verdict, DeltaVerdict::Slower);
        let r = delta_row("phase", "x".into(), &[100.0], &[], &rule);
        assert_eq!(r.verdict, DeltaVerdict::OnlyBaseline);
    }

    #[test]
    fn critical_values_fall_with_df() {
        assert_eq!(t_critical(1.0), 12.706);
        assert_eq!(t_critical(2.9), 4.303);
        assert_eq!(t_critical(1e6), 1.960);
    }
}
