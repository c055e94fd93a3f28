//! One run judged against the runs before it, with the calls of earlier
//! runs held out ([`super::Holdout`]): the method's steps 2 to 9.

use std::collections::{BTreeMap, BTreeSet};

use super::call::{verdict_of, Calls};
use super::{explained_by, Holdout, Index, Repeats};
use crate::row::{Ack, Role};
use crate::segment::{bound, cut, field_role, steps, BreakKind, Rules, RunInfo, Segment, Step};
use crate::shift::{cell_median_move, detect, Shift};
use crate::stats::{bonferroni, lower_median, mean, squeeze_var_trend, t_cdf, t_sf, variance};
use crate::verdict::{FieldChange, LaneJudgement, Policy, SeriesVerdict, Unjudged, Verdict};

/// A judged run: its judgement, and each verdict by key index.
pub(super) struct Judged {
    pub judgement: LaneJudgement,
    pub verdicts: Vec<(usize, Verdict, bool)>,
}

/// One series, gathered: its lane repeats and value, its segment's lanes
/// (net of their runs' common moves: [`net_common_moves`]), the
/// run before.
pub(super) struct Prepared {
    pub key: usize,
    pub role: Role,
    pub lane: Repeats,
    pub lane_value: Option<f64>,
    pub history: Vec<(usize, Repeats, f64)>,
    /// Runs held out of the level by an unconfirmed call: (run, value).
    /// Left out of the mean, kept in the variance: a call made on noise
    /// that no lane has confirmed yet is noise until it is, and leaving it
    /// out of the variance too would trim the tails it belongs to.
    pub held: Vec<(usize, f64)>,
    pub segment: Segment,
    pub acknowledged: Option<String>,
    /// The latest earlier run in the series' bound with a value: (run,
    /// value, net of its run's common move).
    pub previous: Option<(usize, f64)>,
}

/// One judgeable series' estimate (log scale) and its tests.
pub(super) struct Est {
    pub delta: f64,
    pub se: f64,
    pub df: f64,
    pub var: f64,
    pub p_up: f64,
    pub p_down: f64,
    pub lane_s: f64,
    pub expected_s: f64,
    /// The two-lane test: (run before, p up, p down, the run before's own
    /// move against the history without it).
    pub persist: Option<(usize, f64, f64, f64)>,
    /// The one-sided p of the lane's fastest repeat up and of its slowest
    /// down: what a call strong alone needs of every repeat.
    pub every_repeat: (f64, f64),
}

fn prepare(
    index: &Index<'_>,
    run: usize,
    acks: &[Ack],
    policy: &Policy,
    holdout: &Holdout,
) -> Vec<Prepared> {
    let infos: Vec<RunInfo<'_>> = (0..run)
        .map(|i| RunInfo {
            id: index.ids[i],
            fingerprint: index.fingerprints[i],
        })
        .collect();
    let lane_info = RunInfo {
        id: index.ids[run],
        fingerprint: index.fingerprints[run],
    };
    let keys: Vec<usize> = (0..index.keys.len())
        .filter(|&k| index.repeats[k][run].is_some())
        .collect();
    // Each series' bound and candidate steps.
    let mut bounds = Vec::with_capacity(keys.len());
    let mut candidates: Vec<(usize, Step)> = Vec::new();
    for (slot, &k) in keys.iter().enumerate() {
        match bound(&index.keys[k], &infos, &lane_info, acks) {
            Err(brk) => bounds.push(Err(brk)),
            Ok((start, started_by)) => {
                let present: Vec<usize> = (start..run)
                    .filter(|&i| index.values[k][i].is_some())
                    .collect();
                let netted: Vec<f64> = present.iter().filter_map(|&i| index.values[k][i]).collect();
                for s in steps(&present, &netted, &policy.change_points, policy.min_history) {
                    candidates.push((slot, s));
                }
                // The run an ack names is the new level, accepted: its own
                // call (made against the level before) holds nothing.
                let accepted = started_by
                    .as_ref()
                    .is_some_and(|b| b.kind == BreakKind::Ack)
                    .then_some(start);
                bounds.push(Ok((present, started_by, accepted)));
            }
        }
    }
    // Steps kept: family-wise over the lane's every series (a series
    // without a candidate is a test that found nothing, p = 1: the family
    // is every series searched, not the few E-Divisive picked).
    let searched = bounds.iter().filter(|b| b.is_ok()).count();
    let mut p: Vec<f64> = candidates.iter().map(|(_, s)| s.p_adjusted).collect();
    let with_candidates: BTreeSet<usize> = candidates.iter().map(|(slot, _)| *slot).collect();
    p.extend(std::iter::repeat_n(
        1.0,
        searched.saturating_sub(with_candidates.len()),
    ));
    let keep = bonferroni(&p, policy.step_alpha);
    let mut kept: BTreeMap<usize, Vec<Step>> = BTreeMap::new();
    for ((slot, s), k) in candidates.into_iter().zip(keep) {
        if k {
            kept.entry(slot).or_default().push(s);
        }
    }
    let rules = Rules {
        min_history: policy.min_history,
        max_history: policy.max_history,
    };
    keys.iter()
        .zip(bounds)
        .enumerate()
        .map(|(slot, (&k, b))| {
            let lane = index.repeats[k][run].clone().unwrap_or_default();
            let (segment, present) = match b {
                Err(brk) => (
                    Segment {
                        runs: Vec::new(),
                        started_by: Some(brk),
                        change_points: Vec::new(),
                        held_out: Vec::new(),
                    },
                    Vec::new(),
                ),
                Ok((present, started_by, accepted)) => {
                    let seg = cut(
                        &present,
                        &index.ids,
                        started_by,
                        kept.get(&slot).map_or(&[][..], Vec::as_slice),
                        |i| holdout.held(k, i) && Some(i) != accepted,
                        |i| holdout.improved(k, i),
                        rules,
                    );
                    (seg, present)
                }
            };
            let value_of = |reps: &[f64]| lower_median(reps);
            let netted = |i: usize| -> Option<(Repeats, f64)> {
                let reps: Repeats = index.repeats[k][i].clone()?;
                let v = value_of(&reps)?;
                Some((reps, v))
            };
            let history = segment
                .runs
                .iter()
                .filter_map(|&i| netted(i).map(|(reps, v)| (i, reps, v)))
                .collect();
            let held = segment
                .held_out
                .iter()
                .filter(|&&i| holdout.unconfirmed(k, i))
                .filter_map(|&i| netted(i).map(|(_, v)| (i, v)))
                .collect();
            let previous = present.last().and_then(|&i| netted(i).map(|(_, v)| (i, v)));
            Prepared {
                key: k,
                role: index.roles[k],
                lane_value: value_of(&lane),
                lane,
                history,
                held,
                segment,
                acknowledged: acks
                    .iter()
                    .find(|a| a.run == index.ids[run] && a.covers(&index.keys[k]))
                    .map(|a| a.reason.clone()),
                previous,
            }
        })
        .collect()
}

/// Each series' (moderated variance, degrees of freedom), by its index.
type Moderated = BTreeMap<usize, (f64, f64)>;

/// squeezeVar across the sibling series of each GPU class: each of
/// `members`' (moderated variance, degrees of freedom), its lane values
/// given by `values` (at least two each).
fn moderate(
    index: &Index<'_>,
    prepared: &[Prepared],
    members: &[usize],
    values: &dyn Fn(usize) -> Vec<f64>,
) -> Moderated {
    let mut moderated = BTreeMap::new();
    let gpus: BTreeSet<&str> = members
        .iter()
        .map(|&i| index.keys[prepared[i].key].gpu.as_str())
        .collect();
    for gpu in gpus {
        let members: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&i| index.keys[prepared[i].key].gpu == gpu)
            .collect();
        let v: Vec<Vec<f64>> = members.iter().map(|&i| values(i)).collect();
        let s2: Vec<f64> = v.iter().map(|x| variance(x).unwrap_or(0.0)).collect();
        let df: Vec<f64> = v.iter().map(|x| x.len().saturating_sub(1) as f64).collect();
        // The prior follows the series' size (limma-trend).
        let size: Vec<f64> = v.iter().map(|x| mean(x).unwrap_or(0.0)).collect();
        let (post, _) = squeeze_var_trend(&s2, &df, &size);
        for (i, p) in members.iter().zip(post) {
            moderated.insert(*i, p);
        }
    }
    moderated
}

/// The values a series' variance is estimated from: its history's, and
/// the runs an unconfirmed call holds out of its level.
fn spread_values(p: &Prepared) -> Vec<f64> {
    p.history
        .iter()
        .map(|h| h.2)
        .chain(p.held.iter().map(|h| h.1))
        .collect()
}

/// [`spread_values`] without the run before (the two-lane test's base).
fn persist_spread(p: &Prepared) -> Vec<f64> {
    let prev = p.previous.map(|x| x.0);
    p.history
        .iter()
        .map(|h| (h.0, h.2))
        .chain(p.held.iter().copied())
        .filter(|(run, _)| Some(*run) != prev)
        .map(|(_, v)| v)
        .collect()
}

/// The history values of a series without the run before (the two-lane
/// test's base), where that leaves `min_history`.
fn persist_base(p: &Prepared, min_history: usize) -> Option<Vec<f64>> {
    let (prev, _) = p.previous?;
    let base: Vec<f64> = p
        .history
        .iter()
        .filter(|h| h.0 != prev)
        .map(|h| h.2)
        .collect();
    (base.len() >= min_history).then_some(base)
}

/// One-sided p of `z` on `df` degrees of freedom, up and down; a zero
/// standard error gives 0 or 1 by the sign.
fn sided(delta: f64, se: f64, df: f64) -> (f64, f64) {
    if se > 0.0 {
        (t_sf(delta / se, df), t_cdf(delta / se, df))
    } else {
        (
            if delta > 0.0 { 0.0 } else { 1.0 },
            if delta < 0.0 { 0.0 } else { 1.0 },
        )
    }
}

fn estimates(
    prepared: &[Prepared],
    judgeable: &[usize],
    (moderated, moderated_base): (&Moderated, &Moderated),
    common: f64,
    min_history: usize,
) -> BTreeMap<usize, Est> {
    judgeable
        .iter()
        .map(|&i| {
            let p = &prepared[i];
            let (var, df) = moderated[&i];
            let values: Vec<f64> = p.history.iter().map(|h| h.2).collect();
            let m = mean(&values).unwrap_or(0.0);
            let n = values.len() as f64;
            let se = (var * (1.0 + 1.0 / n)).sqrt();
            let lane_v = p.lane_value.unwrap_or(m);
            let delta = lane_v - m - common;
            let (p_up, p_down) = sided(delta, se, df);
            let fastest = p.lane.iter().copied().reduce(f64::min).unwrap_or(lane_v);
            let slowest = p.lane.iter().copied().reduce(f64::max).unwrap_or(lane_v);
            let every_repeat = (
                sided(fastest - m - common, se, df).0,
                sided(slowest - m - common, se, df).1,
            );
            // The two-lane test: this lane and the one before, against the
            // history without the one before (its variance too).
            let persist = p.previous.and_then(|(prev, prev_v)| {
                let base = persist_base(p, min_history)?;
                let (var2, df2) = *moderated_base.get(&i)?;
                let m2 = mean(&base)?;
                let d2 = (lane_v - common + prev_v) / 2.0 - m2;
                let se2 = (var2 * (0.5 + 1.0 / base.len() as f64)).sqrt();
                let (up, down) = sided(d2, se2, df2);
                Some((prev, up, down, prev_v - m2))
            });
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
                    persist,
                    every_repeat,
                },
            )
        })
        .collect()
}

/// Each series' move in the lane: (its cell, lane value less its history
/// mean), over the judgeable series that are not totals.
fn lane_moves<'a>(
    index: &'a Index<'_>,
    prepared: &[Prepared],
    judgeable: &[usize],
) -> Vec<(&'a str, f64)> {
    judgeable
        .iter()
        .filter(|&&i| prepared[i].role != Role::Total)
        .filter_map(|&i| {
            let values: Vec<f64> = prepared[i].history.iter().map(|h| h.2).collect();
            Some((
                index.keys[prepared[i].key].cell.as_str(),
                prepared[i].lane_value? - mean(&values)?,
            ))
        })
        .collect()
}

/// Each history run's common move taken out of its values (the median of
/// its cells' median moves, [`cell_median_move`]), for a lane whose own
/// common move is taken out: the lane and its history are then treated
/// alike, so the variance the lane is judged with is the variance of what
/// it is judged on. A lane whose cells did not move together nets nothing,
/// in itself or in its history.
fn net_common_moves(index: &Index<'_>, prepared: &mut [Prepared]) {
    let mut moves: BTreeMap<usize, Vec<(&str, f64)>> = BTreeMap::new();
    for p in prepared.iter().filter(|p| p.role != Role::Total) {
        let values: Vec<f64> = p.history.iter().map(|h| h.2).collect();
        let Some(m) = mean(&values) else { continue };
        for (run, _, v) in &p.history {
            moves
                .entry(*run)
                .or_default()
                .push((index.keys[p.key].cell.as_str(), v - m));
        }
    }
    let shifts: BTreeMap<usize, f64> = moves
        .into_iter()
        .filter_map(|(run, m)| cell_median_move(&m).map(|s| (run, s)))
        .collect();
    for p in prepared.iter_mut() {
        for (run, reps, v) in p.history.iter_mut() {
            if let Some(s) = shifts.get(run) {
                reps.iter_mut().for_each(|r| *r -= s);
                *v -= s;
            }
        }
        for (run, v) in p.held.iter_mut() {
            *v -= shifts.get(run).copied().unwrap_or(0.0);
        }
        if let Some((run, v)) = p.previous.as_mut() {
            *v -= shifts.get(run).copied().unwrap_or(0.0);
        }
    }
}

/// Judges run `run` of `index` against the runs before it.
pub(super) fn judge_at(
    index: &Index<'_>,
    run: usize,
    acks: &[Ack],
    policy: &Policy,
    holdout: &Holdout,
) -> Judged {
    let mut prepared = prepare(index, run, acks, policy, holdout);
    let judgeable: Vec<usize> = (0..prepared.len())
        .filter(|&i| {
            prepared[i].lane_value.is_some() && prepared[i].history.len() >= policy.min_history
        })
        .collect();
    // The lane's common move, where every cell moved together (declared a
    // shift when significant too); then its history is netted alike and
    // the move measured again against it.
    let shift = detect(&lane_moves(index, &prepared, &judgeable), &policy.shift).map(|s| {
        net_common_moves(index, &mut prepared);
        let m = cell_median_move(&lane_moves(index, &prepared, &judgeable)).unwrap_or(s.log_shift);
        Shift {
            ratio: m.exp(),
            log_shift: m,
            ..s
        }
    });
    let common = shift.map_or(0.0, |s| s.log_shift);
    let key = |i: usize| &index.keys[prepared[i].key];
    let history_values = |i: usize| -> Vec<f64> { spread_values(&prepared[i]) };
    let moderated = moderate(index, &prepared, &judgeable, &history_values);
    let with_base: Vec<usize> = judgeable
        .iter()
        .copied()
        .filter(|&i| persist_base(&prepared[i], policy.min_history).is_some())
        .collect();
    let base_values = |i: usize| -> Vec<f64> { persist_spread(&prepared[i]) };
    let moderated_base = moderate(index, &prepared, &with_base, &base_values);

    let est = estimates(
        &prepared,
        &judgeable,
        (&moderated, &moderated_base),
        common,
        policy.min_history,
    );

    let calls = Calls::new(&prepared, &est, policy, index);
    let cell_total = |i: usize| -> Option<f64> {
        let k = key(i);
        prepared
            .iter()
            .filter(|q| {
                let qk = &index.keys[q.key];
                qk.cell == k.cell && qk.gpu == k.gpu && q.role == Role::Total
            })
            .filter_map(|q| q.lane_value)
            .map(f64::exp)
            .reduce(f64::max)
    };

    let mut verdicts = Vec::with_capacity(prepared.len());
    let series: Vec<SeriesVerdict> = prepared
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let v = verdict_of(&calls, i, cell_total(i));
            verdicts.push((p.key, v.verdict, v.confirmed));
            v
        })
        .collect();
    let (mut totals, series): (Vec<SeriesVerdict>, Vec<SeriesVerdict>) =
        series.into_iter().partition(|s| s.role == Role::Total);
    for t in &mut totals {
        t.explained_by = explained_by(t, &series);
    }
    let changes = match run.checked_sub(1) {
        Some(before) => index.fingerprints[before]
            .changes(index.fingerprints[run])
            .into_iter()
            .map(|(field, before, after)| FieldChange {
                field,
                role: field_role(field),
                before,
                after,
            })
            .collect(),
        None => Vec::new(),
    };
    let unjudged = unjudged(index, run, &series, policy);
    Judged {
        judgement: LaneJudgement {
            run: index.ids[run].to_owned(),
            line: index.line.to_owned(),
            history_runs: run,
            environment_shift: shift.filter(|s| s.declared),
            common_move: shift,
            changes,
            unjudged,
            series,
            totals,
        },
        verdicts,
    }
}

/// Series not judged, and the first reason, when there are any.
fn unjudged(
    index: &Index<'_>,
    run: usize,
    series: &[SeriesVerdict],
    policy: &Policy,
) -> Option<Unjudged> {
    // The series, as the counts count them (a total is a sum of series).
    let not: Vec<&SeriesVerdict> = series
        .iter()
        .filter(|s| s.verdict == Verdict::InsufficientHistory)
        .collect();
    if not.is_empty() {
        return None;
    }
    let moved = not.iter().find_map(|s| {
        s.segment
            .as_ref()
            .filter(|b| b.kind == BreakKind::Fingerprint && b.run == index.ids[run])
    });
    let reason = if let Some(b) = moved {
        format!(
            "the environment changed ({}): a new segment starts with this lane",
            b.detail
        )
    } else if run < policy.min_history {
        format!(
            "too little history: {run} earlier run(s) of the line, {} needed",
            policy.min_history
        )
    } else if let Some(b) = not.iter().find_map(|s| s.segment.as_ref()) {
        format!(
            "too little history since run {} ({}), {} run(s) needed",
            b.run, b.detail, policy.min_history
        )
    } else {
        format!(
            "too few earlier runs with a value, {} needed",
            policy.min_history
        )
    };
    Some(Unjudged {
        series: not.len(),
        of: series.len(),
        reason,
    })
}
