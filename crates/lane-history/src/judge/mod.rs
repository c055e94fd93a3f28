//! The verdict of every series of a lane against its history
//! (`docs/history.md` §method):
//!
//! 1. **Lane value.** The median of the lane's cold repeats of
//!    `ln(seconds)` ([`crate::stats::log_median`]).
//! 2. **History.** The same series' earlier runs of the same release line
//!    since its last break (fingerprint change, ack, change point), at most
//!    [`Policy::max_history`] ([`crate::segment`]); fewer than
//!    [`Policy::min_history`] is `insufficient_history`.
//! 3. **Variance.** The lane-to-lane variance of the history's lane values,
//!    moderated across the sibling series of the same GPU class by limma's
//!    `squeezeVar` with the prior following the series' size
//!    ([`crate::stats::squeeze_var_trend`], limma-trend, kept where an
//!    F-test says size explains the variances). The repeat-to-repeat
//!    variance is pooled from the repeats and reported beside it, with the
//!    noise that dominates.
//! 4. **Environment shift.** Every lane has an effect all its series
//!    share (node, image, machine load): each history run's median move
//!    across the series is taken out before the variance is estimated, and
//!    the new lane's median move out of its estimates, so every series is
//!    judged net of the common shift. When the lane's series moved together
//!    past [`crate::shift`]'s test, the lane says so (`environment_shift`).
//! 5. **Prediction test.** The estimate δ = lane value − history mean, its
//!    standard error s̃·√(1 + 1/N), one-sided p from Student's t on the
//!    moderated degrees of freedom, and the one-sided 95 % prediction
//!    bounds.
//! 6. **Calls.** Benjamini–Hochberg at [`Policy::fdr`] across the lane's
//!    series (the totals, each a sum of series, in a family of their own,
//!    returned apart with the series that explain them), and the practical floor (at least [`Policy::min_ratio`] and
//!    [`Policy::min_seconds`]) as the smallest effect worth calling. A
//!    CPU-bound phase ([`Policy::cpu_bound`]) minted on two GPU classes
//!    that both moved past the floor (each with p below
//!    [`Policy::agree_p`]), with their evidence together (Stouffer's z)
//!    below [`Policy::corroborate_p`], is called and confirmed at once. A call on one GPU class in one lane is
//!    unconfirmed until the next lane agrees (the previous lane's own
//!    verdict, when this one agrees with it, confirms this one).
//!    With fewer than three repeats whose spread the segment's
//!    repeat-to-repeat noise does not explain
//!    ([`Policy::repeats_disagree_p`]), no call is made.
//! 7. **Inconclusive.** Past the floor and rejected at
//!    [`Policy::fdr_inconclusive`] but not called: one more repeat is
//!    offered only where the repeat-to-repeat noise dominates (Kalibera and
//!    Jones 2013) or the lane's two repeats disagree, with its
//!    GPU-minutes; otherwise the next lane is the cheaper test.

use std::collections::{BTreeMap, BTreeSet};

use crate::row::{Ack, Fingerprint, Role, Row, RunTime, SeriesKey};
use crate::segment::{segment, Rules, RunInfo};
use crate::shift::detect;
use crate::stats::{
    benjamini_hochberg, mean, median, median_variance_factor, squeeze_var_trend, t_cdf, t_quantile,
    t_sf, variance,
};
pub use crate::verdict::{
    Interval, LaneJudgement, Noise, NoiseSource, Offer, Policy, SeriesVerdict, Verdict,
    DEFAULT_CPU_BOUND,
};

/// One earlier run of the line.
struct HistRun<'a> {
    id: &'a str,
    time: RunTime,
    fingerprint: &'a Fingerprint,
}

/// One series' numbers in one run: its log repeats.
type Repeats = Vec<f64>;

mod noise;

use noise::{net_of_common, pooled_within, repeats_disagree};

/// One series, gathered: its lane repeats and value, its segment's lanes.
struct Prepared<'a> {
    key: SeriesKey,
    role: Role,
    lane: Repeats,
    lane_value: Option<f64>,
    history: Vec<(usize, Repeats, f64)>,
    segment: crate::segment::Segment,
    acknowledged: Option<&'a str>,
}

fn log_repeats(rows: &[&Row]) -> Repeats {
    rows.iter()
        .filter_map(|r| r.seconds)
        .filter(|s| *s > 0.0)
        .map(f64::ln)
        .collect()
}

/// Judges `lane` (the rows of one run) against `history` (any earlier rows;
/// other lines and the lane's own run are ignored) with `acks` and
/// `policy`.
pub fn judge_lane(history: &[Row], lane: &[Row], acks: &[Ack], policy: &Policy) -> LaneJudgement {
    let previous = previous_verdicts(history, lane, acks, policy);
    judge(history, lane, acks, policy, previous.as_ref())
}

/// The previous run's own verdicts (against the history before it), for
/// persistence.
fn previous_verdicts(
    history: &[Row],
    lane: &[Row],
    acks: &[Ack],
    policy: &Policy,
) -> Option<LaneJudgement> {
    let first = lane.first()?;
    let runs = runs_of(history, &first.line, &first.run);
    let last = runs.last()?;
    let (before, prev): (Vec<Row>, Vec<Row>) = history
        .iter()
        .filter(|r| r.line == first.line && r.run != first.run)
        .cloned()
        .partition(|r| r.run != last.id);
    Some(judge(&before, &prev, acks, policy, None))
}

fn runs_of<'a>(history: &'a [Row], line: &str, lane_run: &str) -> Vec<HistRun<'a>> {
    let mut runs: BTreeMap<&str, HistRun<'a>> = BTreeMap::new();
    for r in history
        .iter()
        .filter(|r| r.line == line && r.run != lane_run)
    {
        runs.entry(&r.run).or_insert(HistRun {
            id: &r.run,
            time: r.time,
            fingerprint: &r.fingerprint,
        });
    }
    let mut runs: Vec<HistRun<'a>> = runs.into_values().collect();
    runs.sort_by(|a, b| a.time.cmp(&b.time).then(a.id.cmp(b.id)));
    runs
}

fn judge(
    history: &[Row],
    lane: &[Row],
    acks: &[Ack],
    policy: &Policy,
    previous: Option<&LaneJudgement>,
) -> LaneJudgement {
    let Some(first) = lane.first() else {
        return LaneJudgement {
            run: String::new(),
            line: String::new(),
            history_runs: 0,
            environment_shift: None,
            series: Vec::new(),
            totals: Vec::new(),
        };
    };
    let runs = runs_of(history, &first.line, &first.run);
    let run_index: BTreeMap<&str, usize> =
        runs.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    let infos: Vec<RunInfo<'_>> = runs
        .iter()
        .map(|r| RunInfo {
            id: r.id,
            fingerprint: r.fingerprint,
        })
        .collect();
    let lane_info = RunInfo {
        id: &first.run,
        fingerprint: &first.fingerprint,
    };

    let mut lane_rows: BTreeMap<SeriesKey, Vec<&Row>> = BTreeMap::new();
    for r in lane.iter().filter(|r| r.run == first.run) {
        lane_rows.entry(r.key()).or_default().push(r);
    }
    let mut hist_rows: BTreeMap<(SeriesKey, usize), Vec<&Row>> = BTreeMap::new();
    for r in history.iter() {
        if let Some(&i) = run_index.get(r.run.as_str()) {
            if r.line == first.line {
                hist_rows.entry((r.key(), i)).or_default().push(r);
            }
        }
    }

    let prepared: Vec<Prepared<'_>> = lane_rows
        .iter()
        .map(|(key, rows)| {
            let per_run: Vec<Option<(Repeats, f64)>> = (0..runs.len())
                .map(|i| {
                    let reps = log_repeats(hist_rows.get(&(key.clone(), i))?);
                    let v = median(&reps)?;
                    Some((reps, v))
                })
                .collect();
            let values: Vec<Option<f64>> =
                per_run.iter().map(|p| p.as_ref().map(|x| x.1)).collect();
            let seg = segment(
                key,
                &infos,
                &values,
                &lane_info,
                acks,
                Rules {
                    change_points: &policy.change_points,
                    min_history: policy.min_history,
                    max_history: policy.max_history,
                },
            );
            let history = seg
                .runs
                .iter()
                .filter_map(|&i| per_run[i].clone().map(|(r, v)| (i, r, v)))
                .collect();
            let lane_reps = log_repeats(rows);
            Prepared {
                key: key.clone(),
                role: rows[0].role,
                lane_value: median(&lane_reps),
                lane: lane_reps,
                history,
                segment: seg,
                acknowledged: acks
                    .iter()
                    .find(|a| a.run == first.run && a.covers(key))
                    .map(|a| a.reason.as_str()),
            }
        })
        .collect();

    // Judgeable series: a lane value and enough history.
    let judgeable: Vec<usize> = (0..prepared.len())
        .filter(|&i| {
            prepared[i].lane_value.is_some() && prepared[i].history.len() >= policy.min_history
        })
        .collect();

    // The lanes' common effects: each history run's median move across
    // the series (a lane effect every series shares: node, image, machine
    // load), taken out before the series-specific lane-to-lane variance is
    // estimated, as the new lane's own median move is taken out of its
    // estimates below.
    let netted = net_of_common(&prepared, &judgeable, runs.len(), policy.shift.min_series);

    // squeezeVar across the sibling series of each GPU class.
    let mut moderated: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    let gpus: BTreeSet<&str> = judgeable
        .iter()
        .map(|&i| prepared[i].key.gpu.as_str())
        .collect();
    for gpu in gpus {
        let members: Vec<usize> = judgeable
            .iter()
            .copied()
            .filter(|&i| prepared[i].key.gpu == gpu)
            .collect();
        let s2: Vec<f64> = members
            .iter()
            .map(|&i| variance(&netted[&i]).unwrap_or(0.0))
            .collect();
        let df: Vec<f64> = members
            .iter()
            .map(|&i| (prepared[i].history.len() - 1) as f64)
            .collect();
        // The prior follows the series' size (limma-trend): small phases
        // are noisier relative to themselves than large ones.
        let size: Vec<f64> = members
            .iter()
            .map(|&i| {
                let v: Vec<f64> = prepared[i].history.iter().map(|h| h.2).collect();
                mean(&v).unwrap_or(0.0)
            })
            .collect();
        let (post, _) = squeeze_var_trend(&s2, &df, &size);
        for (i, p) in members.iter().zip(post) {
            moderated.insert(*i, p);
        }
    }

    let raw: BTreeMap<usize, f64> = judgeable
        .iter()
        .map(|&i| {
            let m = mean(&netted[&i]).unwrap_or(0.0);
            (i, prepared[i].lane_value.unwrap_or(m) - m)
        })
        .collect();
    // The lane's common move, over the series (a total is a sum of them).
    let raw_values: Vec<f64> = raw
        .iter()
        .filter(|(i, _)| prepared[**i].role != Role::Total)
        .map(|(_, v)| *v)
        .collect();
    let shift = detect(&raw_values, &policy.shift);
    let common = if raw_values.len() >= policy.shift.min_series {
        median(&raw_values).unwrap_or(0.0)
    } else {
        0.0
    };

    struct Est {
        delta: f64,
        se: f64,
        df: f64,
        var: f64,
        p_up: f64,
        p_down: f64,
        lane_s: f64,
        expected_s: f64,
    }
    let est: BTreeMap<usize, Est> = judgeable
        .iter()
        .map(|&i| {
            let p = &prepared[i];
            let (var, df) = moderated[&i];
            let n = p.history.len() as f64;
            let se = (var * (1.0 + 1.0 / n)).sqrt();
            let delta = raw[&i] - common;
            let (p_up, p_down) = if se > 0.0 {
                (t_sf(delta / se, df), t_cdf(delta / se, df))
            } else {
                let up = if delta > 0.0 { 0.0 } else { 1.0 };
                let down = if delta < 0.0 { 0.0 } else { 1.0 };
                (up, down)
            };
            let lane_v = p.lane_value.unwrap_or(0.0);
            (
                i,
                Est {
                    delta,
                    se,
                    df,
                    var,
                    p_up,
                    p_down,
                    lane_s: lane_v.exp(),
                    expected_s: (lane_v - delta).exp(),
                },
            )
        })
        .collect();

    let order: Vec<usize> = est.keys().copied().collect();
    // Two families: the series, and the totals (each a sum of series, so
    // testing both in one family would count one move twice).
    let bh = |q: f64, up: bool| -> BTreeMap<usize, bool> {
        let mut out = BTreeMap::new();
        for totals in [false, true] {
            let family: Vec<usize> = order
                .iter()
                .copied()
                .filter(|i| (prepared[*i].role == Role::Total) == totals)
                .collect();
            let p: Vec<f64> = family
                .iter()
                .map(|i| if up { est[i].p_up } else { est[i].p_down })
                .collect();
            out.extend(family.into_iter().zip(benjamini_hochberg(&p, q)));
        }
        out
    };
    let (up_call, down_call) = (bh(policy.fdr, true), bh(policy.fdr, false));
    let (up_weak, down_weak) = (
        bh(policy.fdr_inconclusive, true),
        bh(policy.fdr_inconclusive, false),
    );
    let floor_up =
        |e: &Est| e.delta >= policy.min_ratio.ln() && e.lane_s - e.expected_s >= policy.min_seconds;
    let floor_down = |e: &Est| {
        -e.delta >= policy.min_ratio.ln() && e.expected_s - e.lane_s >= policy.min_seconds
    };
    // Two repeats that disagree: the lane value is one of them as much as
    // the other, so no call rests on it.
    let disagree: BTreeSet<usize> = order
        .iter()
        .copied()
        .filter(|&i| repeats_disagree(&prepared[i], policy.repeats_disagree_p))
        .collect();
    // Cross-GPU corroboration of CPU-bound phases: every class past the
    // floor the same way with p below agree_p, and their evidence
    // together (Stouffer's z) below corroborate_p.
    let corroborated = |i: usize, up: bool| -> Option<(String, f64)> {
        let p = &prepared[i];
        if !policy.cpu_bound.contains(&p.key.phase) {
            return None;
        }
        let siblings: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&j| {
                let q = &prepared[j];
                j != i && q.key.cell == p.key.cell && q.key.phase == p.key.phase
            })
            .collect();
        if siblings.is_empty() {
            return None;
        }
        let all: Vec<&Est> = std::iter::once(i)
            .chain(siblings.iter().copied())
            .map(|j| &est[&j])
            .collect();
        if std::iter::once(i)
            .chain(siblings.iter().copied())
            .any(|j| disagree.contains(&j))
        {
            return None;
        }
        let agree = all.iter().all(|e| {
            if up {
                floor_up(e) && e.p_up < policy.agree_p
            } else {
                floor_down(e) && e.p_down < policy.agree_p
            }
        });
        let z: f64 = all
            .iter()
            .map(|e| {
                -t_quantile(
                    if up { e.p_up } else { e.p_down }.clamp(1e-300, 1.0),
                    f64::INFINITY,
                )
            })
            .sum::<f64>()
            / (all.len() as f64).sqrt();
        let combined = t_sf(z, f64::INFINITY);
        let gpus: Vec<&str> = siblings
            .iter()
            .map(|&j| prepared[j].key.gpu.as_str())
            .collect();
        (agree && combined < policy.corroborate_p)
            .then(|| (format!("gpu:{}", gpus.join(",")), combined))
    };

    let cell_total = |p: &Prepared<'_>| -> Option<f64> {
        prepared
            .iter()
            .filter(|q| q.key.cell == p.key.cell && q.key.gpu == p.key.gpu && q.role == Role::Total)
            .filter_map(|q| q.lane_value)
            .map(f64::exp)
            .reduce(f64::max)
    };

    let series = prepared
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut v = SeriesVerdict {
                key: p.key.clone(),
                role: p.role,
                verdict: Verdict::InsufficientHistory,
                confirmed: false,
                confirmed_by: None,
                repeats: p.lane.len(),
                lane_s: p.lane_value.map(f64::exp),
                expected_s: None,
                ratio: None,
                delta_s: None,
                interval: None,
                p: None,
                combined_p: None,
                df: None,
                noise: None,
                history: p.history.len(),
                segment: p.segment.started_by.clone(),
                change_points: p.segment.change_points.clone(),
                offer: None,
                acknowledged: p.acknowledged.map(str::to_owned),
                note: None,
                explained_by: Vec::new(),
            };
            let Some(e) = est.get(&i) else {
                v.note = Some(if p.lane_value.is_none() {
                    "no positive value in this lane: the log scale needs one"
                } else {
                    "too few earlier lanes in this series' segment"
                });
                return v;
            };
            let t = t_quantile(policy.interval_level, e.df);
            let within = pooled_within(p);
            let k = p.lane.len().max(1);
            let within_part = within.map_or(0.0, |w| median_variance_factor(k) * w);
            let share = if e.var > 0.0 {
                (within_part / e.var).clamp(0.0, 1.0)
            } else {
                0.0
            };
            v.expected_s = Some(e.expected_s);
            v.ratio = Some(e.delta.exp());
            v.delta_s = Some(e.lane_s - e.expected_s);
            v.interval = Some(Interval {
                level: policy.interval_level,
                lower_s: e.expected_s * (-t * e.se).exp(),
                upper_s: e.expected_s * (t * e.se).exp(),
            });
            v.p = Some(if e.delta >= 0.0 { e.p_up } else { e.p_down });
            v.df = e.df.is_finite().then_some(e.df);
            v.noise = Some(Noise {
                within,
                between: (e.var - within_part).max(0.0),
                within_share: share,
                dominant: if share > policy.repeat_share {
                    NoiseSource::WithinLane
                } else {
                    NoiseSource::BetweenLanes
                },
            });
            let shaky = disagree.contains(&i);
            let up = floor_up(e) && up_call[&i] && !shaky;
            let down = floor_down(e) && down_call[&i] && !shaky;
            let cor_up = corroborated(i, true);
            let cor_down = corroborated(i, false);
            let previous_agrees = |word: Verdict| {
                previous.and_then(|prev| {
                    prev.all()
                        .find(|s| s.key == p.key && s.verdict == word)
                        .map(|_| format!("previous_lane:{}", prev.run))
                })
            };
            if up || cor_up.is_some() {
                v.verdict = Verdict::Regressed;
                v.combined_p = cor_up.as_ref().map(|c| c.1);
                v.confirmed_by = cor_up
                    .map(|c| c.0)
                    .or_else(|| previous_agrees(Verdict::Regressed));
            } else if down || cor_down.is_some() {
                v.verdict = Verdict::Improved;
                v.combined_p = cor_down.as_ref().map(|c| c.1);
                v.confirmed_by = cor_down
                    .map(|c| c.0)
                    .or_else(|| previous_agrees(Verdict::Improved));
            } else if (floor_up(e) && up_weak[&i]) || (floor_down(e) && down_weak[&i]) {
                v.verdict = Verdict::Inconclusive;
                if shaky {
                    v.note = Some("the lane's repeats disagree: a third repeat decides");
                }
                v.offer = Some(if shaky || share > policy.repeat_share {
                    let (seconds, basis) = match cell_total(p) {
                        Some(s) => (s, "cell_total"),
                        None => (e.lane_s, "series"),
                    };
                    Offer::ExtraRepeat {
                        gpu_minutes: seconds / 60.0,
                        basis,
                    }
                } else {
                    Offer::NextLane
                });
            } else {
                v.verdict = Verdict::Unchanged;
            }
            v.confirmed = v.confirmed_by.is_some();
            v
        })
        .collect::<Vec<SeriesVerdict>>();
    let (mut totals, series): (Vec<SeriesVerdict>, Vec<SeriesVerdict>) =
        series.into_iter().partition(|s| s.role == Role::Total);
    for t in &mut totals {
        t.explained_by = explained_by(t, &series);
    }

    LaneJudgement {
        run: first.run.clone(),
        line: first.line.clone(),
        history_runs: runs.len(),
        environment_shift: shift,
        series,
        totals,
    }
}

/// The series of `total`'s own parts (same cell and GPU class; a mint's
/// `mint/total` is made of its `phase/` series, any other total of its own
/// group's) called the way the total moved.
fn explained_by(total: &SeriesVerdict, series: &[SeriesVerdict]) -> Vec<String> {
    if !matches!(total.verdict, Verdict::Regressed | Verdict::Improved) {
        return Vec::new();
    }
    let group = match total.key.phase.split_once('/') {
        Some(("mint", _)) => "phase",
        Some((group, _)) => group,
        None => return Vec::new(),
    };
    series
        .iter()
        .filter(|s| {
            s.key.cell == total.key.cell
                && s.key.gpu == total.key.gpu
                && s.role != Role::Overlay
                && s.key.phase.split_once('/').is_some_and(|(g, _)| g == group)
                && s.verdict == total.verdict
        })
        .map(|s| s.key.phase.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(run: usize, phase: &str, gpu: &str, repeat: u32, seconds: f64) -> Row {
        Row {
            run: format!("run{run:02}"),
            time: RunTime::Unix(1_000 + run as i64),
            lane: "0.93.4".into(),
            line: "0.93".into(),
            fingerprint: Fingerprint::default(),
            cell: "c".into(),
            gpu: gpu.into(),
            phase: phase.into(),
            role: Role::Member,
            repeat,
            seconds: Some(seconds),
        }
    }

    /// Twelve phases on one GPU, eight runs, three repeats, a fixed wobble.
    fn lanes(runs: usize, scale: impl Fn(usize, usize) -> f64) -> Vec<Row> {
        let mut out = Vec::new();
        for run in 0..runs {
            for ph in 0..12 {
                for rep in 1..=3u32 {
                    let wobble = 1.0
                        + 0.02 * (((run * 7 + ph * 3 + rep as usize * 5) % 9) as f64 - 4.0) / 4.0;
                    out.push(row(
                        run,
                        &format!("p{ph}"),
                        "H200",
                        rep,
                        50.0 * wobble * scale(run, ph),
                    ));
                }
            }
        }
        out
    }

    fn split(rows: Vec<Row>, lane_run: usize) -> (Vec<Row>, Vec<Row>) {
        let id = format!("run{lane_run:02}");
        rows.into_iter().partition(|r| r.run != id)
    }

    #[test]
    fn a_slower_phase_is_regressed_and_the_rest_unchanged() {
        let (h, l) = split(
            lanes(9, |run, ph| if run == 8 && ph == 3 { 1.3 } else { 1.0 }),
            8,
        );
        let j = judge_lane(&h, &l, &[], &Policy::default());
        assert!(j.environment_shift.is_none());
        let regressed: Vec<&str> = j
            .with(Verdict::Regressed)
            .map(|s| s.key.phase.as_str())
            .collect();
        assert_eq!(regressed, vec!["p3"]);
        let s = j.series.iter().find(|s| s.key.phase == "p3").unwrap();
        assert!(!s.confirmed, "one GPU, one lane: unconfirmed");
        assert!((s.ratio.unwrap() - 1.3).abs() < 0.05, "{s:?}");
        assert!(s.p.unwrap() < 1e-3 && s.interval.unwrap().upper_s < s.lane_s.unwrap());
        assert_eq!(j.with(Verdict::Unchanged).count(), 11);
    }

    #[test]
    fn a_lane_that_moved_together_is_a_shift_judged_net() {
        let (h, l) = split(
            lanes(9, |run, ph| match (run, ph) {
                (8, 3) => 1.10 * 1.3,
                (8, _) => 1.10,
                _ => 1.0,
            }),
            8,
        );
        let j = judge_lane(&h, &l, &[], &Policy::default());
        let shift = j.environment_shift.expect("a shift");
        assert!((shift.ratio - 1.10).abs() < 0.02, "{shift:?}");
        let regressed: Vec<&str> = j
            .with(Verdict::Regressed)
            .map(|s| s.key.phase.as_str())
            .collect();
        assert_eq!(regressed, vec!["p3"]);
    }

    #[test]
    fn two_gpu_classes_confirm_a_cpu_bound_phase_at_once() {
        let mut rows = lanes(9, |run, ph| if run == 8 && ph == 0 { 1.2 } else { 1.0 });
        let other: Vec<Row> = rows
            .iter()
            .map(|r| Row {
                gpu: "L40S".into(),
                ..r.clone()
            })
            .collect();
        rows.extend(other);
        for r in rows.iter_mut() {
            if r.phase == "p0" {
                r.phase = "codegen_s".into();
            }
        }
        let (h, l) = split(rows, 8);
        let j = judge_lane(&h, &l, &[], &Policy::default());
        let reg: Vec<(&str, bool)> = j
            .with(Verdict::Regressed)
            .map(|s| (s.key.gpu.as_str(), s.confirmed))
            .collect();
        assert_eq!(reg, vec![("H200", true), ("L40S", true)]);
    }

    #[test]
    fn the_next_lane_agreeing_confirms() {
        let rows = lanes(10, |run, ph| if run >= 8 && ph == 3 { 1.3 } else { 1.0 });
        let (h, l) = split(rows, 9);
        let j = judge_lane(&h, &l, &[], &Policy::default());
        let s = j.series.iter().find(|s| s.key.phase == "p3").unwrap();
        assert_eq!(s.verdict, Verdict::Regressed);
        assert_eq!(s.confirmed_by.as_deref(), Some("previous_lane:run08"));
    }

    #[test]
    fn two_repeats_that_disagree_offer_a_third_instead_of_a_call() {
        let (h, mut l) = split(lanes(9, |_, _| 1.0), 8);
        l.retain(|r| r.repeat <= 2);
        let mut h = h;
        h.retain(|r| r.repeat <= 2);
        // One cold repeat of p3 hit a slow disk: +40 %.
        for r in l.iter_mut().filter(|r| r.phase == "p3" && r.repeat == 2) {
            r.seconds = r.seconds.map(|s| s * 1.4);
        }
        let j = judge_lane(&h, &l, &[], &Policy::default());
        let s = j.series.iter().find(|s| s.key.phase == "p3").unwrap();
        assert_eq!(s.verdict, Verdict::Inconclusive, "{s:?}");
        assert!(matches!(s.offer, Some(Offer::ExtraRepeat { .. })), "{s:?}");
        assert!(s.note.unwrap().contains("third repeat"));
        // Both repeats slower: a call.
        for r in l.iter_mut().filter(|r| r.phase == "p3" && r.repeat == 1) {
            r.seconds = r.seconds.map(|s| s * 1.4);
        }
        let j = judge_lane(&h, &l, &[], &Policy::default());
        let s = j.series.iter().find(|s| s.key.phase == "p3").unwrap();
        assert_eq!(s.verdict, Verdict::Regressed, "{s:?}");
    }

    #[test]
    fn a_history_lane_that_moved_together_does_not_widen_the_variance() {
        // Run 4 was 15 % slower for every phase (a slow node): taken out as
        // that run's common effect, so a 12 % slower phase still stands out.
        let (h, l) = split(
            lanes(9, |run, ph| match (run, ph) {
                (4, _) => 1.15,
                (8, 3) => 1.12,
                _ => 1.0,
            }),
            8,
        );
        let j = judge_lane(&h, &l, &[], &Policy::default());
        let s = j.series.iter().find(|s| s.key.phase == "p3").unwrap();
        assert_eq!(s.verdict, Verdict::Regressed, "{s:?}");
        assert!(s.noise.unwrap().between < 1e-3, "{s:?}");
    }

    /// One series, no siblings (nothing to moderate, no common effect):
    /// the prediction interval is Bencher's t_test form on the log scale,
    /// worked by hand.
    #[test]
    fn the_prediction_interval_is_the_t_form_on_the_log_scale() {
        let hist = [100.0, 104.0, 98.0, 102.0];
        let mut rows: Vec<Row> = hist
            .iter()
            .enumerate()
            .map(|(i, s)| row(i, "p", "H200", 1, *s))
            .collect();
        rows.push(row(4, "p", "H200", 1, 112.0));
        let (h, l) = split(rows, 4);
        let j = judge_lane(&h, &l, &[], &Policy::default());
        let s = &j.series[0];
        let x: Vec<f64> = hist.iter().map(|v: &f64| v.ln()).collect();
        let m = x.iter().sum::<f64>() / 4.0;
        let sd = (x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / 3.0).sqrt();
        let se = sd * (1.0 + 1.0 / 4.0_f64).sqrt();
        let t = t_quantile(0.95, 3.0);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9 * b.abs();
        assert!(close(s.expected_s.unwrap(), m.exp()), "{s:?}");
        assert!(close(s.interval.unwrap().upper_s, (m + t * se).exp()));
        assert!(close(s.interval.unwrap().lower_s, (m - t * se).exp()));
        assert!(close(s.p.unwrap(), t_sf((112f64.ln() - m) / se, 3.0)));
        assert_eq!(s.df, Some(3.0));
        // One series: Benjamini–Hochberg is the plain test; p below 0.05 and
        // +10 %: regressed, on one class in one lane, unconfirmed.
        assert_eq!((s.verdict, s.confirmed), (Verdict::Regressed, false));
    }

    #[test]
    fn too_little_history_and_absent_values_say_so() {
        let (h, l) = split(lanes(3, |_, _| 1.0), 2);
        let j = judge_lane(&h, &l, &[], &Policy::default());
        assert!(j
            .series
            .iter()
            .all(|s| s.verdict == Verdict::InsufficientHistory));
        assert_eq!(j.series[0].history, 2);
        let (h, mut l) = split(lanes(9, |_, _| 1.0), 8);
        for r in l.iter_mut().filter(|r| r.phase == "p1") {
            r.seconds = None;
        }
        let j = judge_lane(&h, &l, &[], &Policy::default());
        let s = j.series.iter().find(|s| s.key.phase == "p1").unwrap();
        assert_eq!(
            (s.verdict, s.repeats, s.lane_s),
            (Verdict::InsufficientHistory, 0, None)
        );
        assert!(s.note.unwrap().contains("positive"));
        assert!(judge_lane(&h, &[], &[], &Policy::default())
            .series
            .is_empty());
    }
}
