//! The history a series is judged against: the same release line's earlier
//! runs since the series' last break, at most [`crate::Policy::max_history`]
//! of them, less the runs its own calls hold out.
//!
//! What a fingerprint field is decides what its change does
//! ([`field_role`]):
//! - **environment** (GPU model, driver, CUDA, torch, triton, image): a
//!   change starts a new segment at the run that brought it; a change
//!   between the newest history run and the lane leaves the lane no
//!   history, and says why;
//! - **under test** (the upstream's version): what the history exists to
//!   compare, never a break: every patch lane installs its own wheel;
//! - **placement** (the node): where the scheduler put the pod, never a
//!   break; its lane-to-lane effect is part of the noise (or, when every
//!   cell moved together, a declared shift: [`crate::shift`]).
//!
//! An acknowledgement covering the series (`lane history ack`) starts a
//! segment at its run.
//!
//! Within that segment E-Divisive's steps ([`crate::edivisive`], on the
//! newest `window_len` runs) are candidates; the caller keeps those that
//! survive the lane's false-discovery control ([`Step::p_adjusted`]) and
//! [`cut`] applies them:
//! - a step **up** (slower) never starts a segment: a regression is the new
//!   normal only when someone acknowledges it; the runs from the step on
//!   are left out of the history, so a regression that persists keeps
//!   being judged against the level before it;
//! - a step **down** (faster) starts a segment once `min_history` runs
//!   follow it; a younger one leaves the runs since it out, as a step up.
//!
//! Runs whose call on this series is held out (quarantined by the judge:
//! called, and not yet refuted or acknowledged) are left out too, except
//! improvements after a settled step down (they are the new level).

use serde::Serialize;

use crate::edivisive::{change_points_with_stats, ChangePointConfig};
use crate::row::{Ack, Fingerprint, SeriesKey};

/// What started a segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BreakKind {
    /// The environment fingerprint changed.
    Fingerprint,
    /// A known change was acknowledged.
    Ack,
    /// E-Divisive found a step (down, settled) that survived the lane's
    /// false-discovery control.
    ChangePoint,
}

/// The break a segment starts at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Break {
    /// What it was.
    pub kind: BreakKind,
    /// The run that starts the new segment (the lane's own run when the
    /// lane itself changed environment).
    pub run: String,
    /// In words: the fields that changed, the ack's reason, or the step.
    pub detail: String,
}

/// What a fingerprint field is to the history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldRole {
    /// The machine and software the mint ran on: a change is a segment.
    Environment,
    /// The code under test (the upstream's version): never a break.
    UnderTest,
    /// Where the pod landed (the node): never a break.
    Placement,
}

/// The role of fingerprint field `name` (as `Fingerprint::changes` names
/// it).
pub fn field_role(name: &str) -> FieldRole {
    match name {
        "upstream" => FieldRole::UnderTest,
        "node" => FieldRole::Placement,
        _ => FieldRole::Environment,
    }
}

/// One earlier run, as the segmenting sees it.
#[derive(Debug, Clone)]
pub struct RunInfo<'a> {
    /// The run's id.
    pub id: &'a str,
    /// Its fingerprint.
    pub fingerprint: &'a Fingerprint,
}

/// The environment changes between two fingerprints, in words (`torch
/// 2.11 → 2.12`); empty when none.
pub fn environment_change(before: &Fingerprint, after: &Fingerprint) -> String {
    before
        .changes(after)
        .iter()
        .filter(|(f, _, _)| field_role(f) == FieldRole::Environment)
        .map(|(f, a, b)| format!("{f} {a} → {b}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where a series' history may start: after the latest environment change
/// or acknowledgement. `Err` when the lane itself changed environment
/// against the newest run (it has no history; the break says why).
pub fn bound(
    key: &SeriesKey,
    runs: &[RunInfo<'_>],
    lane: &RunInfo<'_>,
    acks: &[Ack],
) -> Result<(usize, Option<Break>), Break> {
    if let Some(last) = runs.last() {
        let detail = environment_change(last.fingerprint, lane.fingerprint);
        if !detail.is_empty() {
            return Err(Break {
                kind: BreakKind::Fingerprint,
                run: lane.id.to_owned(),
                detail,
            });
        }
    }
    let mut start = 0;
    let mut started_by = None;
    for i in 1..runs.len() {
        let detail = environment_change(runs[i - 1].fingerprint, runs[i].fingerprint);
        if !detail.is_empty() {
            start = i;
            started_by = Some(Break {
                kind: BreakKind::Fingerprint,
                run: runs[i].id.to_owned(),
                detail,
            });
        }
    }
    for (i, run) in runs.iter().enumerate().skip(start) {
        if let Some(ack) = acks.iter().find(|a| a.run == run.id && a.covers(key)) {
            start = i;
            started_by = Some(Break {
                kind: BreakKind::Ack,
                run: run.id.to_owned(),
                detail: ack.reason.clone(),
            });
        }
    }
    Ok((start, started_by))
}

/// A candidate step in one series.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The run that begins the new level (an index into the runs).
    pub run: usize,
    /// True when the new level is slower.
    pub up: bool,
    /// exp(mean after − mean before).
    pub ratio: f64,
    /// E-Divisive's t-test p, times the positions it searched (the step's
    /// place was chosen as the best of them): the p that the lane's
    /// Benjamini–Hochberg takes.
    pub p_adjusted: f64,
}

/// E-Divisive's steps in `values` (the series' lane values at the run
/// indices `present`, oldest first, within its bound), on the newest
/// `window_len` of them, with at least `min_side` runs on either side: one
/// or two odd runs at an end are outliers (a hiccup, a slow node), not a
/// level.
pub fn steps(
    present: &[usize],
    values: &[f64],
    cfg: &ChangePointConfig,
    min_side: usize,
) -> Vec<Step> {
    let from = values.len().saturating_sub(cfg.window_len.max(2));
    let window = &values[from..];
    let positions = window.len().saturating_sub(1).max(1) as f64;
    change_points_with_stats(window, cfg)
        .into_iter()
        .filter(|c| c.index >= min_side && window.len() - c.index >= min_side)
        .map(|c| Step {
            run: present[from + c.index],
            up: c.mean_after > c.mean_before,
            ratio: (c.mean_after - c.mean_before).exp(),
            p_adjusted: (c.pvalue * positions).min(1.0),
        })
        .collect()
}

/// A series' segment: which of the earlier runs (indices into the runs
/// given, oldest first) are its history, and why it starts where it does.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// Indices of the runs in the segment that hold a value, oldest first.
    pub runs: Vec<usize>,
    /// The latest break, when there was one.
    pub started_by: Option<Break>,
    /// Runs where a kept step begins.
    pub change_points: Vec<String>,
    /// Runs left out: held out by a call, or after a step up.
    pub held_out: Vec<usize>,
}

/// How segments are cut: the history bounds.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// Lanes a step down needs after it before it starts a segment.
    pub min_history: usize,
    /// The most lanes kept, the newest.
    pub max_history: usize,
}

/// The segment of one series: `present` its runs with a value since its
/// bound (oldest first), `ids` every run's id, `started_by` the bound's
/// break, `kept` the steps that survived the lane's
/// false-discovery control, `held(i)` whether run `i`'s call holds it
/// out, `improved(i)` whether that call was an improvement.
pub fn cut(
    present: &[usize],
    ids: &[&str],
    started_by: Option<Break>,
    kept: &[Step],
    held: impl Fn(usize) -> bool,
    improved: impl Fn(usize) -> bool,
    rules: Rules,
) -> Segment {
    let mut started_by = started_by;
    let mut from = 0;
    let mut until = present.len();
    let mut settled_down = false;
    for step in kept {
        let Some(at) = present.iter().position(|r| *r == step.run) else {
            continue;
        };
        let after = present.len() - at;
        if !step.up && after >= rules.min_history.max(1) {
            if at >= from {
                from = at;
                until = present.len();
                settled_down = true;
                started_by = Some(Break {
                    kind: BreakKind::ChangePoint,
                    run: ids[step.run].to_owned(),
                    detail: format!("step ×{:.3} (p {:.2e})", step.ratio, step.p_adjusted),
                });
            }
        } else if at >= from {
            until = until.min(at);
        }
    }
    let mut runs = Vec::new();
    let mut held_out: Vec<usize> = present[until..].to_vec();
    for &i in &present[from..until] {
        if held(i) && !(settled_down && improved(i)) {
            held_out.push(i);
        } else {
            runs.push(i);
        }
    }
    if runs.len() > rules.max_history {
        runs.drain(..runs.len() - rules.max_history);
    }
    Segment {
        runs,
        started_by,
        change_points: kept.iter().map(|s| ids[s.run].to_owned()).collect(),
        held_out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::AckScope;

    const RULES: Rules = Rules {
        min_history: 3,
        max_history: 20,
    };

    fn key() -> SeriesKey {
        SeriesKey {
            cell: "c".into(),
            gpu: "H200".into(),
            phase: "load".into(),
        }
    }

    fn fp(torch: &str, upstream: &str, node: &str) -> Fingerprint {
        Fingerprint {
            torch: Some(torch.into()),
            upstream: Some(upstream.into()),
            node: Some(node.into()),
            ..Fingerprint::default()
        }
    }

    #[test]
    fn the_upstream_and_the_node_never_break_a_segment_and_torch_does() {
        let ids: Vec<String> = (0..10).map(|i| format!("r{i}")).collect();
        // Every run its own patch version and node; torch moves at r4.
        let fps: Vec<Fingerprint> = (0..10)
            .map(|i| {
                let torch = if i < 4 { "2.11" } else { "2.12" };
                fp(torch, &format!("0.93.{i}"), &format!("node-{}", i % 3))
            })
            .collect();
        let runs: Vec<RunInfo<'_>> = ids
            .iter()
            .zip(&fps)
            .map(|(id, f)| RunInfo { id, fingerprint: f })
            .collect();
        let next = fp("2.12", "0.93.10", "node-7");
        let lane = RunInfo {
            id: "lane",
            fingerprint: &next,
        };
        let (start, by) = bound(&key(), &runs, &lane, &[]).unwrap();
        let by = by.unwrap();
        assert_eq!(
            (start, by.kind, by.run.as_str()),
            (4, BreakKind::Fingerprint, "r4")
        );
        assert_eq!(by.detail, "torch 2.11 → 2.12");
        assert_eq!(field_role("upstream"), FieldRole::UnderTest);
        assert_eq!(field_role("node"), FieldRole::Placement);

        let moved = fp("2.13", "0.93.10", "node-1");
        let lane = RunInfo {
            id: "lane",
            fingerprint: &moved,
        };
        let brk = bound(&key(), &runs, &lane, &[]).unwrap_err();
        assert_eq!(
            (brk.run.as_str(), brk.detail.as_str()),
            ("lane", "torch 2.12 → 2.13")
        );

        let ack = Ack {
            run: "r7".into(),
            scope: AckScope::Series(key()),
            reason: "bigger graph".into(),
        };
        let lane = RunInfo {
            id: "lane",
            fingerprint: &next,
        };
        let (start, by) = bound(&key(), &runs, &lane, &[ack]).unwrap();
        assert_eq!((start, by.unwrap().detail.as_str()), (7, "bigger graph"));
    }

    fn ids(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("r{i}")).collect()
    }

    #[test]
    fn a_clear_step_is_found_with_its_p_corrected_for_the_positions() {
        let present: Vec<usize> = (0..30).collect();
        let values: Vec<f64> = (0..30)
            .map(|i| if i < 20 { 4.0 } else { 4.3 } + (i % 3) as f64 * 0.001)
            .collect();
        let s = steps(&present, &values, &ChangePointConfig::default(), 3);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!((s[0].run, s[0].up), (20, true));
        assert!((s[0].ratio - 0.3f64.exp()).abs() < 0.01);
        assert!(s[0].p_adjusted < 1e-6);
        let flat: Vec<f64> = (0..30).map(|i| 4.0 + (i % 3) as f64 * 0.01).collect();
        assert!(steps(&present, &flat, &ChangePointConfig::default(), 3).is_empty());
        // Two odd runs at the end are not a level yet.
        let late: Vec<f64> = (0..30)
            .map(|i| if i < 28 { 4.0 } else { 4.3 } + (i % 3) as f64 * 0.001)
            .collect();
        assert!(steps(&present, &late, &ChangePointConfig::default(), 3).is_empty());
    }

    #[test]
    fn a_step_up_never_starts_a_segment_and_a_settled_step_down_does() {
        let names = ids(30);
        let id: Vec<&str> = names.iter().map(String::as_str).collect();
        let present: Vec<usize> = (0..30).collect();
        let up = Step {
            run: 20,
            up: true,
            ratio: 1.3,
            p_adjusted: 1e-9,
        };
        let s = cut(
            &present,
            &id,
            None,
            std::slice::from_ref(&up),
            |_| false,
            |_| false,
            RULES,
        );
        assert_eq!(s.runs, (0..20).collect::<Vec<_>>(), "the level before");
        assert_eq!(s.held_out, (20..30).collect::<Vec<_>>());
        assert!(s.started_by.is_none());
        assert_eq!(s.change_points, vec!["r20".to_owned()]);

        let down = Step {
            up: false,
            ratio: 0.7,
            ..up.clone()
        };
        let s = cut(
            &present,
            &id,
            None,
            std::slice::from_ref(&down),
            |_| false,
            |_| false,
            RULES,
        );
        assert_eq!(s.runs, (20..30).collect::<Vec<_>>());
        assert_eq!(s.started_by.unwrap().kind, BreakKind::ChangePoint);
        // Too young (two runs after it): left out, judged before it.
        let young = Step {
            run: 28,
            ..down.clone()
        };
        let s = cut(&present, &id, None, &[young], |_| false, |_| false, RULES);
        assert_eq!(s.runs, (8..28).collect::<Vec<_>>(), "at most 20");
        // Improvements after a settled step down are its new level; a
        // held regression is still held.
        let s = cut(
            &present,
            &id,
            None,
            &[down],
            |i| i >= 22,
            |i| i != 25,
            RULES,
        );
        assert_eq!(s.held_out, vec![25]);
        assert_eq!(s.runs.len(), 9);
    }

    #[test]
    fn held_runs_are_left_out_and_named() {
        let names = ids(6);
        let id: Vec<&str> = names.iter().map(String::as_str).collect();
        let s = cut(
            &[0, 1, 3, 4, 5],
            &id,
            None,
            &[],
            |i| i == 4,
            |_| false,
            RULES,
        );
        assert_eq!(s.runs, vec![0, 1, 3, 5]);
        assert_eq!(s.held_out, vec![4]);
    }
}
