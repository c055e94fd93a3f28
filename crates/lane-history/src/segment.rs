//! The history a series is judged against: the same release line's earlier
//! runs since the series' last break, at most [`crate::Policy::max_history`]
//! of them.
//!
//! A break starts a new segment at the run that brought it:
//! - an environment fingerprint change (torch, triton, CUDA, driver, image,
//!   node, GPU model, upstream: a field recorded on both sides that
//!   differs); a change between the newest history run and the lane
//!   itself leaves the lane no history;
//! - an acknowledgement covering the series (`lane history ack`);
//! - a change point E-Divisive finds in the series' lane values
//!   ([`crate::edivisive`]), once at least `min_history` lanes follow it.
//!
//! The latest break wins. A step too young to have `min_history` lanes
//! after it does not start a segment yet: the lanes since it are left out
//! of the history (they are not what the segment before predicts), so the
//! lane is judged against the level before the step, and a regression that
//! persists is confirmed by the lane before rather than absorbed.

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
    /// E-Divisive found a step.
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

/// One earlier run, as the segmenting sees it.
#[derive(Debug, Clone)]
pub struct RunInfo<'a> {
    /// The run's id.
    pub id: &'a str,
    /// Its fingerprint.
    pub fingerprint: &'a Fingerprint,
}

/// A series' segment: which of the earlier runs (indices into the runs
/// given, oldest first) are its history, and why it starts where it does.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// Indices of the runs in the segment that hold a value, oldest first.
    pub runs: Vec<usize>,
    /// The latest break, when there was one.
    pub started_by: Option<Break>,
    /// Runs where E-Divisive found a step in this series (within the
    /// fingerprint and ack segment it searched).
    pub change_points: Vec<String>,
}

fn describe(changes: &[(&'static str, String, String)]) -> String {
    changes
        .iter()
        .map(|(f, a, b)| format!("{f} {a} → {b}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How segments are cut: the change-point search and the history bounds.
#[derive(Debug, Clone, Copy)]
pub struct Rules<'a> {
    /// The change-point search.
    pub change_points: &'a ChangePointConfig,
    /// Lanes a step needs after it before it starts a segment.
    pub min_history: usize,
    /// The most lanes kept, the newest.
    pub max_history: usize,
}

/// The segment of one series. `runs` are the line's earlier runs, oldest
/// first; `values[i]` the series' lane value in run `i` (absent where not
/// measured); `lane` the run being judged.
pub fn segment(
    key: &SeriesKey,
    runs: &[RunInfo<'_>],
    values: &[Option<f64>],
    lane: &RunInfo<'_>,
    acks: &[Ack],
    rules: Rules<'_>,
) -> Segment {
    let (cfg, min_history, max_history) =
        (rules.change_points, rules.min_history, rules.max_history);
    let mut start = 0;
    let mut started_by = None;
    for i in 1..runs.len() {
        let changes = runs[i - 1].fingerprint.changes(runs[i].fingerprint);
        if !changes.is_empty() {
            start = i;
            started_by = Some(Break {
                kind: BreakKind::Fingerprint,
                run: runs[i].id.to_owned(),
                detail: describe(&changes),
            });
        }
    }
    if let Some(last) = runs.last() {
        let changes = last.fingerprint.changes(lane.fingerprint);
        if !changes.is_empty() {
            return Segment {
                runs: Vec::new(),
                started_by: Some(Break {
                    kind: BreakKind::Fingerprint,
                    run: lane.id.to_owned(),
                    detail: describe(&changes),
                }),
                change_points: Vec::new(),
            };
        }
    }
    for (i, run) in runs.iter().enumerate().skip(start) {
        if let Some(ack) = acks.iter().find(|a| a.run == run.id && a.covers(key)) {
            if i >= start {
                start = i;
                started_by = Some(Break {
                    kind: BreakKind::Ack,
                    run: run.id.to_owned(),
                    detail: ack.reason.clone(),
                });
            }
        }
    }
    let present: Vec<usize> = (start..runs.len())
        .filter(|i| values[*i].is_some())
        .collect();
    let series: Vec<f64> = present.iter().filter_map(|i| values[*i]).collect();
    let steps = change_points_with_stats(&series, cfg);
    let change_points = steps
        .iter()
        .map(|c| runs[present[c.index]].id.to_owned())
        .collect();
    let mut from = 0;
    let mut until = present.len();
    let settled = steps
        .iter()
        .rposition(|c| present.len() - c.index >= min_history.max(1));
    if let Some(young) = steps.get(settled.map_or(0, |s| s + 1)) {
        until = young.index;
    }
    if let Some(step) = settled.map(|s| &steps[s]) {
        from = step.index;
        started_by = Some(Break {
            kind: BreakKind::ChangePoint,
            run: runs[present[step.index]].id.to_owned(),
            detail: format!(
                "step ×{:.3} (p {:.2e})",
                (step.mean_after - step.mean_before).exp(),
                step.pvalue
            ),
        });
    }
    let mut kept: Vec<usize> = present[from..until].to_vec();
    if kept.len() > max_history {
        kept.drain(..kept.len() - max_history);
    }
    Segment {
        runs: kept,
        started_by,
        change_points,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::AckScope;

    fn rules(cfg: &ChangePointConfig) -> Rules<'_> {
        Rules {
            change_points: cfg,
            min_history: 3,
            max_history: 20,
        }
    }

    fn key() -> SeriesKey {
        SeriesKey {
            cell: "c".into(),
            gpu: "H200".into(),
            phase: "load".into(),
        }
    }

    fn fp(torch: &str) -> Fingerprint {
        Fingerprint {
            torch: Some(torch.into()),
            ..Fingerprint::default()
        }
    }

    #[test]
    fn a_fingerprint_change_an_ack_and_a_step_each_start_a_segment() {
        let ids: Vec<String> = (0..30).map(|i| format!("r{i}")).collect();
        let old = fp("2.11");
        let new = fp("2.12");
        let runs: Vec<RunInfo<'_>> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| RunInfo {
                id,
                fingerprint: if i < 5 { &old } else { &new },
            })
            .collect();
        let lane = RunInfo {
            id: "lane",
            fingerprint: &new,
        };
        // A flat series with a clear step at r20.
        let values: Vec<Option<f64>> = (0..30)
            .map(|i| Some(if i < 20 { 4.0 } else { 4.3 } + (i % 3) as f64 * 0.001))
            .collect();
        let cfg = ChangePointConfig::default();
        let s = segment(&key(), &runs, &values, &lane, &[], rules(&cfg));
        assert_eq!(s.change_points, vec!["r20".to_owned()]);
        assert_eq!(s.runs, (20..30).collect::<Vec<_>>());
        assert_eq!(s.started_by.unwrap().kind, BreakKind::ChangePoint);
        // A step two lanes old: judged against the level before it.
        let young: Vec<Option<f64>> = (0..30)
            .map(|i| Some(if i < 28 { 4.0 } else { 4.3 } + (i % 3) as f64 * 0.001))
            .collect();
        let s = segment(&key(), &runs, &young, &lane, &[], rules(&cfg));
        assert_eq!(s.change_points, vec!["r28".to_owned()]);
        assert_eq!(s.runs, (8..28).collect::<Vec<_>>());
        assert_eq!(s.started_by.unwrap().kind, BreakKind::Fingerprint);
        let s = segment(&key(), &runs, &values, &lane, &[], rules(&cfg));
        assert_eq!(s.change_points, vec!["r20".to_owned()]);
        assert_eq!(s.runs, (20..30).collect::<Vec<_>>());
        assert_eq!(s.started_by.unwrap().kind, BreakKind::ChangePoint);

        let flat: Vec<Option<f64>> = (0..30).map(|i| Some(4.0 + (i % 3) as f64 * 0.01)).collect();
        let s = segment(&key(), &runs, &flat, &lane, &[], rules(&cfg));
        let b = s.started_by.unwrap();
        assert_eq!((b.kind, b.run.as_str()), (BreakKind::Fingerprint, "r5"));
        assert_eq!(b.detail, "torch 2.11 → 2.12");
        assert_eq!(s.runs, (10..30).collect::<Vec<_>>(), "at most 20");

        let ack = Ack {
            run: "r25".into(),
            scope: AckScope::Series(key()),
            reason: "bigger graph".into(),
        };
        let s = segment(&key(), &runs, &flat, &lane, &[ack], rules(&cfg));
        assert_eq!(s.runs, (25..30).collect::<Vec<_>>());
        assert_eq!(s.started_by.unwrap().detail, "bigger graph");

        let moved = RunInfo {
            id: "lane",
            fingerprint: &old,
        };
        let s = segment(&key(), &runs, &flat, &moved, &[], rules(&cfg));
        assert!(s.runs.is_empty());
        assert_eq!(s.started_by.unwrap().run, "lane");
    }

    #[test]
    fn absent_values_are_skipped_not_zero() {
        let f = Fingerprint::default();
        let ids = ["a", "b", "c"];
        let runs: Vec<RunInfo<'_>> = ids
            .iter()
            .map(|id| RunInfo {
                id,
                fingerprint: &f,
            })
            .collect();
        let lane = RunInfo {
            id: "d",
            fingerprint: &f,
        };
        let s = segment(
            &key(),
            &runs,
            &[Some(1.0), None, Some(1.1)],
            &lane,
            &[],
            rules(&ChangePointConfig::default()),
        );
        assert_eq!(s.runs, vec![0, 2]);
        assert!(s.started_by.is_none());
    }
}
