//! The verdict of every series of a lane against its history
//! (`docs/history.md` §method):
//!
//! 1. **Lane value.** The lower median of the lane's cold repeats of
//!    `ln(seconds)` ([`crate::stats::log_median`]): of two repeats the
//!    faster, which one hiccup cannot move.
//! 2. **History.** The same series' earlier runs of the same release line
//!    since its last environment change or ack, less the runs held out
//!    (below) and the runs after a step up, at most
//!    [`Policy::max_history`] ([`crate::segment`]); fewer than
//!    [`Policy::min_history`] is `insufficient_history`. The upstream's
//!    version is what is under test and the node is placement: neither
//!    breaks a segment.
//! 3. **Held out.** Every earlier run is judged in turn, oldest first (the
//!    newest `max_history + min_history`, each against the runs before
//!    it): a run whose call on a series was `regressed` or `improved` is
//!    held out of that series' history until the next run refutes it
//!    (`unchanged` or the other way, for an unconfirmed call) or an ack
//!    starts a new segment. A regression that persists is judged against
//!    the level before it, lane after lane, and never becomes the normal
//!    by being seen twice.
//! 4. **Variance.** The lane-to-lane variance of the history's lane
//!    values, moderated across the sibling series of the same GPU class by
//!    limma's `squeezeVar` with the prior following the series' size
//!    ([`crate::stats::squeeze_var_trend`]). The repeat-to-repeat variance
//!    is pooled from the repeats and reported beside it, with the noise
//!    that dominates.
//! 5. **Common move.** Where every cell moved together ([`crate::shift`]),
//!    the move is taken out: of a lane's estimates, and of a history run's
//!    values where that run's own moves show one; significant, it is a
//!    declared environment shift. A move confined to one cell is never
//!    taken out: it is that cell's finding, and paints no other cell.
//! 6. **Prediction test.** δ = lane value − history mean, its standard
//!    error s̃·√(1 + 1/N), one-sided p from Student's t on the moderated
//!    degrees of freedom, and the one-sided 95 % prediction bounds.
//! 7. **Calls.** Benjamini–Hochberg at [`Policy::fdr`] across the lane's
//!    series (the totals in a family of their own, returned with the
//!    series that explain them), past the practical floor
//!    ([`Policy::min_ratio`], [`Policy::min_seconds`]). A call is
//!    **confirmed** (it fails the check) by any of:
//!    - the **other GPU classes**: every class moved past the floor the
//!      same way with p below [`Policy::agree_p`], their evidence together
//!      (Stouffer's z) below [`Policy::corroborate_p`];
//!    - the **lane before**: the two lanes together against the history
//!      without either, rejected by Benjamini–Hochberg at
//!      [`Policy::persist_fdr`], the lane before past the floor the same
//!      way and this lane's own p below `agree_p`;
//!    - **its own strength**: p below [`Policy::alone_alpha`] over the
//!      family's size (Bonferroni).
//!
//!    With fewer than three repeats whose spread the segment's
//!    repeat-to-repeat noise does not explain
//!    ([`Policy::repeats_disagree_p`]), no call is made.
//! 8. **Inconclusive.** Past the floor and rejected at
//!    [`Policy::fdr_inconclusive`] but not called: one more repeat is
//!    offered only where the repeat-to-repeat noise dominates or the lane's
//!    two repeats disagree, with its GPU-minutes; otherwise the next lane.
//! 9. **What a series can detect.** The smallest ratio a one-lane call
//!    finds with 80 % power, from the same standard error and family.
//!
//! Steps E-Divisive finds are kept only when they survive
//! Benjamini–Hochberg at [`Policy::step_fdr`] across the lane's series
//! (each p corrected for the positions searched).

use std::collections::BTreeMap;

use crate::row::{Ack, Fingerprint, Role, Row, RunTime, SeriesKey};
use crate::stats::lower_median;
pub use crate::verdict::{
    FieldChange, Interval, LaneJudgement, Noise, NoiseSource, Offer, Policy, SeriesVerdict,
    Unjudged, Verdict, DEFAULT_CPU_BOUND,
};

mod call;
mod noise;
mod one;

/// One series' numbers in one run: its log repeats.
type Repeats = Vec<f64>;

/// A line's runs and series, indexed once: the history runs of the lane's
/// line, oldest first, and the lane itself last.
struct Index<'a> {
    ids: Vec<&'a str>,
    fingerprints: Vec<&'a Fingerprint>,
    line: &'a str,
    keys: Vec<SeriesKey>,
    roles: Vec<Role>,
    /// `[key][run]`: the run's rows of the series (their positive log
    /// seconds), `None` where the run has no row of it.
    repeats: Vec<Vec<Option<Repeats>>>,
    /// `[key][run]`: the median of those repeats.
    values: Vec<Vec<Option<f64>>>,
}

fn log_repeats(rows: &[&Row]) -> Repeats {
    rows.iter()
        .filter_map(|r| r.seconds)
        .filter(|s| *s > 0.0)
        .map(f64::ln)
        .collect()
}

impl<'a> Index<'a> {
    fn build(history: &'a [Row], lane: &'a [Row], first: &'a Row) -> Index<'a> {
        let mut runs: BTreeMap<&str, (RunTime, &Fingerprint)> = BTreeMap::new();
        for r in history
            .iter()
            .filter(|r| r.line == first.line && r.run != first.run)
        {
            runs.entry(&r.run).or_insert((r.time, &r.fingerprint));
        }
        let mut order: Vec<(&str, RunTime, &Fingerprint)> =
            runs.into_iter().map(|(id, (t, f))| (id, t, f)).collect();
        order.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(b.0)));
        order.push((&first.run, first.time, &first.fingerprint));
        let position: BTreeMap<&str, usize> =
            order.iter().enumerate().map(|(i, r)| (r.0, i)).collect();
        let mut grouped: BTreeMap<SeriesKey, (Role, BTreeMap<usize, Vec<&Row>>)> = BTreeMap::new();
        let lane_rows = lane.iter().filter(|r| r.run == first.run);
        let hist_rows = history
            .iter()
            .filter(|r| r.line == first.line && r.run != first.run);
        for r in hist_rows.chain(lane_rows) {
            let Some(&i) = position.get(r.run.as_str()) else {
                continue;
            };
            let entry = grouped.entry(r.key()).or_insert((r.role, BTreeMap::new()));
            entry.1.entry(i).or_default().push(r);
        }
        let n = order.len();
        let mut index = Index {
            ids: order.iter().map(|r| r.0).collect(),
            fingerprints: order.iter().map(|r| r.2).collect(),
            line: &first.line,
            keys: Vec::with_capacity(grouped.len()),
            roles: Vec::with_capacity(grouped.len()),
            repeats: Vec::with_capacity(grouped.len()),
            values: Vec::with_capacity(grouped.len()),
        };
        for (key, (role, by_run)) in grouped {
            let mut reps = vec![None; n];
            let mut vals = vec![None; n];
            for (i, rows) in by_run {
                let r = log_repeats(&rows);
                vals[i] = lower_median(&r);
                reps[i] = Some(r);
            }
            index.keys.push(key);
            index.roles.push(role);
            index.repeats.push(reps);
            index.values.push(vals);
        }
        index
    }
}

/// The calls of earlier runs that hold their values out of a series'
/// history.
#[derive(Default)]
struct Holdout {
    /// `(key, run)` → (the call, confirmed).
    calls: BTreeMap<(usize, usize), (Verdict, bool)>,
}

impl Holdout {
    fn held(&self, key: usize, run: usize) -> bool {
        self.calls.contains_key(&(key, run))
    }

    fn unconfirmed(&self, key: usize, run: usize) -> bool {
        self.calls.get(&(key, run)).is_some_and(|c| !c.1)
    }

    fn improved(&self, key: usize, run: usize) -> bool {
        self.calls
            .get(&(key, run))
            .is_some_and(|c| c.0 == Verdict::Improved)
    }

    /// Takes in run `run`'s verdicts (`(key, verdict, confirmed)`).
    fn update(&mut self, index: &Index<'_>, run: usize, judged: &one::Judged) {
        for &(key, verdict, confirmed) in &judged.verdicts {
            // The run before, whose unconfirmed call this run's verdict
            // refutes when it is `unchanged` or a call the other way.
            let before = (0..run).rev().find(|&i| index.values[key][i].is_some());
            let refutes = |held: &(Verdict, bool)| {
                !held.1
                    && match verdict {
                        Verdict::Unchanged => true,
                        Verdict::Regressed | Verdict::Improved => held.0 != verdict,
                        Verdict::Inconclusive | Verdict::InsufficientHistory => false,
                    }
            };
            if let Some(b) = before {
                if self.calls.get(&(key, b)).is_some_and(refutes) {
                    self.calls.remove(&(key, b));
                }
            }
            if matches!(verdict, Verdict::Regressed | Verdict::Improved) {
                self.calls.insert((key, run), (verdict, confirmed));
            }
        }
    }
}

/// Judges `lane` (the rows of one run) against `history` (any earlier rows;
/// other lines and the lane's own run are ignored) with `acks` and
/// `policy`.
pub fn judge_lane(history: &[Row], lane: &[Row], acks: &[Ack], policy: &Policy) -> LaneJudgement {
    let Some(first) = lane.first() else {
        return LaneJudgement {
            run: String::new(),
            line: String::new(),
            history_runs: 0,
            environment_shift: None,
            common_move: None,
            changes: Vec::new(),
            unjudged: None,
            series: Vec::new(),
            totals: Vec::new(),
        };
    };
    let index = Index::build(history, lane, first);
    let lane_at = index.ids.len() - 1;
    let mut holdout = Holdout::default();
    let from = lane_at.saturating_sub(policy.max_history + policy.min_history);
    for run in from..lane_at {
        let judged = one::judge_at(&index, run, acks, policy, &holdout);
        holdout.update(&index, run, &judged);
    }
    one::judge_at(&index, lane_at, acks, policy, &holdout).judgement
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
    use crate::stats::{t_quantile, t_sf};

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
        // One GPU class, one lane: a 30 % move against a 2 % wobble is
        // past the family-wise level on its own.
        assert!(
            s.confirmed_by.as_deref().unwrap().starts_with("alone:"),
            "{s:?}"
        );
        assert!((s.ratio.unwrap() - 1.3).abs() < 0.05, "{s:?}");
        assert!(s.p.unwrap() < 1e-3 && s.interval.unwrap().upper_s < s.lane_s.unwrap());
        assert_eq!(j.with(Verdict::Unchanged).count(), 11);
    }

    /// The phases in two cells: `p0`–`p5` in `a`, the rest in `b`.
    fn two_cells(rows: Vec<Row>) -> Vec<Row> {
        rows.into_iter()
            .map(|mut r| {
                let n: usize = r.phase[1..].parse().unwrap();
                r.cell = if n < 6 { "a" } else { "b" }.into();
                r
            })
            .collect()
    }

    #[test]
    fn a_lane_that_moved_together_is_a_shift_judged_net() {
        let (h, l) = split(
            two_cells(lanes(9, |run, ph| match (run, ph) {
                (8, 3) => 1.10 * 1.3,
                (8, _) => 1.10,
                _ => 1.0,
            })),
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
    fn one_slow_repeat_of_two_is_a_hiccup_not_a_regression() {
        let (h, mut l) = split(lanes(9, |_, _| 1.0), 8);
        l.retain(|r| r.repeat <= 2);
        let mut h = h;
        h.retain(|r| r.repeat <= 2);
        // One cold repeat of p3 hit a slow disk: +40 %. The lane's value is
        // the faster repeat, and the note says why.
        for r in l.iter_mut().filter(|r| r.phase == "p3" && r.repeat == 2) {
            r.seconds = r.seconds.map(|s| s * 1.4);
        }
        let j = judge_lane(&h, &l, &[], &Policy::default());
        let s = j.series.iter().find(|s| s.key.phase == "p3").unwrap();
        assert_eq!(s.verdict, Verdict::Unchanged, "{s:?}");
        assert!(s.ratio.unwrap() < 1.05, "{s:?}");
        assert!(s.note.unwrap().contains("third repeat"), "{s:?}");
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
        // Run 4 was 15 % slower for every phase of both cells (a slow
        // node): its own judgement declared the shift, taken out of its
        // values, so a 12 % slower phase still stands out.
        let (h, l) = split(
            two_cells(lanes(9, |run, ph| match (run, ph) {
                (4, _) => 1.15,
                (8, 3) => 1.12,
                _ => 1.0,
            })),
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
    fn a_regression_that_persists_is_judged_against_the_level_before_it() {
        // p3 30 % slower from run 8 on: run 8's call holds it out, so runs
        // 9, 10 and 11 are each judged against runs 0–7, regressed and
        // confirmed, never absorbed as the new normal.
        let rows = lanes(12, |run, ph| if run >= 8 && ph == 3 { 1.3 } else { 1.0 });
        for lane in 9..12 {
            let id = format!("run{lane:02}");
            let (h, l): (Vec<Row>, Vec<Row>) = rows
                .iter()
                .filter(|r| r.run <= id)
                .cloned()
                .partition(|r| r.run != id);
            let j = judge_lane(&h, &l, &[], &Policy::default());
            let s = j.series.iter().find(|s| s.key.phase == "p3").unwrap();
            assert_eq!(
                (s.verdict, s.confirmed),
                (Verdict::Regressed, true),
                "{s:?}"
            );
            assert!((s.ratio.unwrap() - 1.3).abs() < 0.05, "{s:?}");
            let held: Vec<String> = (8..lane).map(|r| format!("run{r:02}")).collect();
            assert_eq!(s.held_out, held);
        }
        // Acknowledged at run 8: a new segment, the step accepted.
        let ack = Ack {
            run: "run08".into(),
            scope: crate::row::AckScope::All,
            reason: "bigger graph, on purpose".into(),
        };
        let (h, l) = split(rows, 11);
        let j = judge_lane(&h, &l, &[ack], &Policy::default());
        let s = j.series.iter().find(|s| s.key.phase == "p3").unwrap();
        assert_eq!(s.verdict, Verdict::Unchanged, "{s:?}");
        assert_eq!(
            s.segment.as_ref().unwrap().detail,
            "bigger graph, on purpose"
        );
    }

    #[test]
    fn an_unconfirmed_call_the_next_lane_refutes_returns_to_the_history() {
        // Run 8's p3 was 30 % slower once; run 9 was itself again. With
        // no call strong enough alone, run 8's call was unconfirmed, and
        // run 9 refuted it: run 8 is history again.
        let rows = lanes(11, |run, ph| if run == 8 && ph == 3 { 1.3 } else { 1.0 });
        let weak = Policy {
            alone_alpha: 0.0,
            ..Policy::default()
        };
        let (h, l) = split(rows.clone(), 10);
        let j = judge_lane(&h, &l, &[], &weak);
        let s = j.series.iter().find(|s| s.key.phase == "p3").unwrap();
        assert!(s.held_out.is_empty(), "{s:?}");
        assert_eq!(s.history, 10);
        // Confirmed (strong alone), it stays out: a lane the check failed
        // on is never the level others are judged against.
        let j = judge_lane(&h, &l, &[], &Policy::default());
        let s = j.series.iter().find(|s| s.key.phase == "p3").unwrap();
        assert_eq!(s.held_out, vec!["run08".to_owned()]);
    }

    #[test]
    fn a_move_confined_to_one_cell_paints_no_other_cell() {
        // Every phase of cell a 20 % slower: a's series regressed, b's
        // exactly as they would be had nothing moved.
        let moved = two_cells(lanes(
            9,
            |run, ph| if run == 8 && ph < 6 { 1.2 } else { 1.0 },
        ));
        let still = two_cells(lanes(9, |_, _| 1.0));
        let (h, l) = split(moved, 8);
        let j = judge_lane(&h, &l, &[], &Policy::default());
        let (h0, l0) = split(still, 8);
        let j0 = judge_lane(&h0, &l0, &[], &Policy::default());
        assert!(j.common_move.is_none(), "{:?}", j.common_move);
        assert!(j.with(Verdict::Regressed).all(|s| s.key.cell == "a"));
        assert_eq!(j.with(Verdict::Regressed).count(), 6);
        let b = |j: &LaneJudgement| -> Vec<Verdict> {
            j.series
                .iter()
                .filter(|s| s.key.cell == "b")
                .map(|s| s.verdict)
                .collect()
        };
        assert_eq!(b(&j), b(&j0));
        assert!(j
            .series
            .iter()
            .filter(|s| s.key.cell == "b")
            .all(|s| (s.ratio.unwrap() - 1.0).abs() < 0.02));
    }

    #[test]
    fn a_lane_without_history_says_why_first() {
        let (h, l) = split(lanes(3, |_, _| 1.0), 2);
        let j = judge_lane(&h, &l, &[], &Policy::default());
        let u = j.unjudged.unwrap();
        assert_eq!((u.series, u.of), (12, 12));
        assert_eq!(
            u.reason,
            "too little history: 2 earlier run(s) of the line, 3 needed"
        );
        let (h, l) = split(lanes(9, |_, _| 1.0), 8);
        assert!(judge_lane(&h, &l, &[], &Policy::default())
            .unjudged
            .is_none());
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
