//! What the lane's history says of the run being reported
//! (`lane_history::judge_lane`'s verdicts, `docs/history.md`): one row per
//! cell and GPU class with its total's verdict and a sparkline of the last
//! runs, one row per series that moved, each explained (the phase that
//! moved, its share of the total, and the same cell's determinism diff:
//! which decisions flipped, how many kernels chose other configs), the
//! commands that reproduce it, and per series a trend chart (medians,
//! repeat ticks, the prediction band, steps and environment changes).
//!
//! Only the view reads the judgement; the renderers lay these values out.

use std::collections::BTreeMap;

use lane_history::{Offer, SeriesKey, SeriesVerdict, Verdict};
use serde::Serialize;

use super::doc::{RowRole, Table, TableKind};
use super::value::{Cell, Delta, Percent, Seconds, Tone};
use super::{bound, short, LONG};
use crate::{CellResult, LaneHistory, LaneResults};

/// The most runs a sparkline and a chart show (the verdict's history).
pub const TREND_RUNS: usize = 21;

const SPARKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The history of a lane's run, ready to lay out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HistoryView {
    /// The run's id.
    pub run: String,
    /// Earlier runs of the line judged against.
    pub history_runs: usize,
    /// The lane's common move, when every cell moved together (and
    /// whether it is a declared environment shift), in words.
    pub shift: Option<String>,
    /// What differs from the newest history run's environment, each with
    /// what it is to the history (under test, placement, environment).
    pub changes: Option<String>,
    /// Why series of the lane could not be judged, and how many, in words;
    /// said first.
    pub unjudged: Option<String>,
    /// True when no series of the lane could be judged.
    pub judged_nothing: bool,
    /// True when the lane has no series at all (no repeat minted, or every
    /// one kept out of the history as not cold).
    pub no_series: bool,
    /// Per cell and GPU class: the total's verdict and sparkline, then
    /// every series that moved (effect, bounds, p, df, noise).
    pub table: Table,
    /// Counts of the verdicts, in words.
    pub counts: String,
    /// Every series that moved, explained, with its cell's anchor.
    pub explained: Vec<(String, String)>,
    /// The charts of the series that moved (the page shows them first).
    pub moved: Vec<TrendChart>,
    /// What to run next, from the verdicts' offers.
    pub next: Vec<String>,
    /// Per cell and GPU class: the command that mints it again and the
    /// one that shows its series.
    pub repro: Vec<String>,
    /// Regressed and confirmed, for the check run's policy.
    pub confirmed: Vec<String>,
    /// Regressed, not yet confirmed.
    pub unconfirmed: Vec<String>,
    /// Inconclusive.
    pub inconclusive: Vec<String>,
    /// Per cell and GPU class (`cell`, `gpu`): its section's history.
    pub cells: BTreeMap<(String, String), CellHistory>,
}

/// One cell on one GPU class: every series' verdict and its chart.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellHistory {
    /// Every series, one row each.
    pub table: Table,
    /// One chart per series with a value.
    pub charts: Vec<TrendChart>,
    /// Commands that reproduce and inspect it.
    pub commands: Vec<String>,
}

/// One series over the runs: what its SVG draws.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrendChart {
    /// The phase.
    pub title: String,
    /// The verdict's words.
    pub verdict: String,
    /// How it reads.
    pub tone: Tone,
    /// The runs, oldest first; the last is the lane's own.
    pub points: Vec<TrendPoint>,
    /// The one-sided 95 % prediction bounds of the lane value, seconds.
    pub band: Option<(f64, f64)>,
    /// What the history predicts for the lane, seconds.
    pub expected: Option<f64>,
    /// Indices of points where a step (change point) begins.
    pub steps: Vec<usize>,
    /// Indices of points whose environment changed, with what changed.
    pub env_changes: Vec<(usize, String)>,
}

/// One run of a series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrendPoint {
    /// The lane version and the run's short id.
    pub label: String,
    /// The median of the repeats.
    pub median: Option<f64>,
    /// Every repeat's seconds.
    pub repeats: Vec<f64>,
    /// True for the lane being reported.
    pub current: bool,
}

/// The verdict's words: `regressed (unconfirmed)`, `regressed (confirmed
/// by gpu:L4)`, `inconclusive`, ...
pub fn verdict_words(s: &SeriesVerdict) -> String {
    let base = match s.verdict {
        Verdict::Regressed => "regressed",
        Verdict::Improved => "improved",
        Verdict::Unchanged => "unchanged",
        Verdict::Inconclusive => "inconclusive",
        Verdict::InsufficientHistory => "insufficient history",
    };
    match (s.verdict, s.confirmed, &s.confirmed_by) {
        (Verdict::Regressed | Verdict::Improved, true, Some(by)) => {
            format!("{base} (confirmed by {})", short(by))
        }
        (Verdict::Regressed | Verdict::Improved, true, None) => format!("{base} (confirmed)"),
        (Verdict::Regressed, false, _) => format!("{base} (unconfirmed)"),
        _ => base.to_owned(),
    }
}

/// A verdict's tone.
pub fn verdict_tone(s: &SeriesVerdict) -> Tone {
    match s.verdict {
        Verdict::Regressed if s.confirmed => Tone::Bad,
        Verdict::Regressed | Verdict::Inconclusive => Tone::Warn,
        Verdict::Improved => Tone::Good,
        Verdict::Unchanged => Tone::Plain,
        Verdict::InsufficientHistory => Tone::Quiet,
    }
}

fn flagged(s: &SeriesVerdict) -> bool {
    matches!(
        s.verdict,
        Verdict::Regressed | Verdict::Improved | Verdict::Inconclusive
    )
}

/// `+30.2 s (+28.1 %)`, the estimate against what history predicts.
fn effect(s: &SeriesVerdict) -> Cell {
    match s.ratio {
        Some(r) => Cell::text(Delta::of(s.delta_s, Some(r - 1.0)).to_string()),
        None => Cell::toned(s.note.map_or("no estimate", |n| n).to_owned(), Tone::Quiet),
    }
}

/// `expected 106.2 s (98.1 s – 114.9 s)`: what the history predicts and
/// its prediction bounds (each one-sided, at the interval's level).
fn bounds(s: &SeriesVerdict) -> Cell {
    match (s.expected_s, s.interval) {
        (Some(e), Some(i)) => Cell::text(format!(
            "expected {} ({} – {})",
            Seconds::measured(e),
            Seconds::measured(i.lower_s),
            Seconds::measured(i.upper_s)
        )),
        _ => Cell::empty(),
    }
}

/// `p 0.0040`, or `p < 0.0001`.
fn p_value(p: f64) -> String {
    if p < 1e-4 {
        "p < 0.0001".to_owned()
    } else {
        format!("p {p:.4}")
    }
}

/// `p 0.0040, df 5.2, lane-to-lane noise dominates`.
fn evidence(s: &SeriesVerdict) -> Cell {
    let Some(p) = s.p else {
        return Cell::empty();
    };
    let mut out = p_value(p);
    if let Some(df) = s.df {
        out.push_str(&format!(", df {df:.1}"));
    }
    if let Some(c) = s.combined_p {
        out.push_str(&format!(", the GPU classes together {}", p_value(c)));
    }
    if let Some(n) = &s.noise {
        out.push_str(match n.dominant {
            lane_history::NoiseSource::WithinLane => ", repeat-to-repeat noise dominates",
            lane_history::NoiseSource::BetweenLanes => ", lane-to-lane noise dominates",
        });
    }
    Cell::text(out)
}

/// A sparkline of `values` (absent as `·`), scaled to their range.
pub fn sparkline(values: &[Option<f64>]) -> String {
    let present: Vec<f64> = values.iter().flatten().copied().collect();
    let (lo, hi) = present
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    values
        .iter()
        .map(|v| match v {
            None => '·',
            Some(_) if hi <= lo => SPARKS[3],
            Some(v) => {
                let i = ((v - lo) / (hi - lo) * 7.0).round() as usize;
                SPARKS[i.min(7)]
            }
        })
        .collect()
}

fn median(values: &[f64]) -> Option<f64> {
    lane_history::stats::median(values)
}

/// The points of `key`: one per run of `rows`, oldest first, the lane's last.
fn points(
    h: &LaneHistory,
    key: &SeriesKey,
) -> (Vec<TrendPoint>, Vec<String>, Vec<(usize, String)>) {
    let mut runs: Vec<(&str, &str, Vec<f64>, &lane_history::Fingerprint)> = Vec::new();
    for r in h.rows.iter().filter(|r| &r.key() == key) {
        if runs.last().is_none_or(|x| x.0 != r.run) {
            runs.push((&r.run, &r.lane, Vec::new(), &r.fingerprint));
        }
        if let (Some(last), Some(s)) = (runs.last_mut(), r.seconds) {
            last.2.push(s);
        }
    }
    let skip = runs.len().saturating_sub(TREND_RUNS);
    let runs = &runs[skip..];
    let ids: Vec<String> = runs.iter().map(|r| r.0.to_owned()).collect();
    let mut env = Vec::new();
    for (i, w) in runs.windows(2).enumerate() {
        let changed: Vec<String> = w[0]
            .3
            .changes(w[1].3)
            .into_iter()
            .map(|(f, a, b)| format!("{f} {a} → {b}"))
            .collect();
        if !changed.is_empty() {
            env.push((i + 1, bound(&changed.join(", "), LONG)));
        }
    }
    let pts = runs
        .iter()
        .map(|(run, lane, reps, _)| TrendPoint {
            label: format!("{} {}", short(lane), short_run(run)),
            median: median(reps),
            repeats: reps.clone(),
            current: *run == h.run,
        })
        .collect();
    (pts, ids, env)
}

/// A run id's digest part (`20261201T213145Z-0.0.0-3f9a1c2b7d4e` →
/// `3f9a1c2b`), or the id bounded.
pub fn short_run(run: &str) -> String {
    match run.rsplit_once('-') {
        Some((_, tail)) if tail.len() >= 8 => tail[..8].to_owned(),
        _ => bound(run, 24),
    }
}

fn chart(h: &LaneHistory, s: &SeriesVerdict) -> TrendChart {
    let (points, ids, env_changes) = points(h, &s.key);
    let steps = s
        .change_points
        .iter()
        .filter_map(|run| ids.iter().position(|id| id == run))
        .collect();
    TrendChart {
        title: short(&s.key.phase),
        verdict: verdict_words(s),
        tone: verdict_tone(s),
        points,
        band: s.interval.map(|i| (i.lower_s, i.upper_s)),
        expected: s.expected_s,
        steps,
        env_changes,
    }
}

fn at(key: &SeriesKey) -> String {
    format!("{} on {}", short(&key.cell), short(&key.gpu))
}

/// The total series of a cell and GPU class, when judged.
fn total<'a>(h: &'a LaneHistory, cell: &str, gpu: &str) -> Option<&'a SeriesVerdict> {
    h.judgement
        .totals
        .iter()
        .find(|s| s.key.cell == cell && s.key.gpu == gpu && s.key.phase == "mint/total")
}

/// Why the cell's two cold repeats differ (or do not), in one clause.
pub(crate) fn bytes_clause(c: &CellResult) -> String {
    match (&c.determinism, &c.determinism_note, &c.not_diffed) {
        (Some(d), _, _) => super::determinism::pair_cause(d),
        (None, Some(n), _) => format!("its repeats could not be diffed: {}", bound(n, LONG)),
        (None, None, Some(n)) => format!("its repeats were not diffed: {}", bound(n, LONG)),
        (None, None, None) => "its repeats were not diffed".to_owned(),
    }
}

fn explain(h: &LaneHistory, r: &LaneResults, s: &SeriesVerdict) -> String {
    let mut out = format!(
        "{}: {} {}",
        at(&s.key),
        short(&s.key.phase),
        verdict_words(s)
    );
    if let Some(ratio) = s.ratio {
        out.push_str(&format!(", {}", Delta::of(s.delta_s, Some(ratio - 1.0))));
    }
    if let (Some(e), Some(i)) = (s.expected_s, s.interval) {
        out.push_str(&format!(
            " against {} expected ({} – {}, each bound one-sided {:.0} %)",
            Seconds::measured(e),
            Seconds::measured(i.lower_s),
            Seconds::measured(i.upper_s),
            100.0 * i.level
        ));
    }
    let t = total(h, &s.key.cell, &s.key.gpu).and_then(|t| t.lane_s);
    if s.key.phase != "mint/total" {
        if let (Some(lane), Some(t)) = (s.lane_s, t) {
            out.push_str(&format!(
                "; {} of the total {}",
                Percent::share(Seconds::measured(lane), Seconds::measured(t)),
                Seconds::measured(t)
            ));
        }
    }
    if let Some(c) = r
        .cells
        .iter()
        .find(|c| c.cell == s.key.cell && c.gpu == s.key.gpu)
    {
        out.push_str(&format!("; {}", bytes_clause(c)));
    }
    out
}

fn anchor_of(r: &LaneResults, key: &SeriesKey) -> String {
    r.cells
        .iter()
        .find(|c| c.cell == key.cell && c.gpu == key.gpu)
        .map(super::lane::anchor)
        .unwrap_or_default()
}

/// The GPU class a series' GPU names: a card that is not its class (or
/// stands in for it) makes the series `<class> on <card>`, and `lane mint
/// --gpu` takes the class.
fn class_of(series_gpu: &str) -> &str {
    series_gpu.split(" on ").next().unwrap_or(series_gpu)
}

/// `s` as one shell word: single-quoted when it holds a space.
fn shell_word(s: &str) -> String {
    if s.contains(char::is_whitespace) {
        format!("'{}'", s.replace('\'', r"'\''"))
    } else {
        s.to_owned()
    }
}

fn offer_line(lane: &str, s: &SeriesVerdict) -> Option<String> {
    let what = format!("{} {}", at(&s.key), short(&s.key.phase));
    match (s.verdict, &s.offer) {
        (Verdict::Inconclusive, Some(Offer::ExtraRepeat { gpu_minutes, .. })) => Some(format!(
            "{what} is inconclusive and repeat-to-repeat noise dominates: one more cold repeat (about {gpu_minutes:.1} GPU-minutes) can settle it (lane mint {} --cell {} --gpu {})",
            short(lane), short(&s.key.cell), short(class_of(&s.key.gpu))
        )),
        (Verdict::Inconclusive, _) => Some(format!(
            "{what} is inconclusive and lane-to-lane noise dominates: the next lane is the cheaper test"
        )),
        (Verdict::Regressed, _) if !s.confirmed => Some(format!(
            "{what} regressed, unconfirmed: the next lane, or the cell on another GPU class, confirms it or not"
        )),
        _ => None,
    }
}

fn series_row(t: &mut Table, s: &SeriesVerdict, spark: String, first: Cell) {
    t.push(
        if s.verdict == Verdict::Regressed {
            RowRole::Failed
        } else {
            RowRole::Plain
        },
        vec![
            first,
            Cell::toned(verdict_words(s), verdict_tone(s)),
            Cell::seconds(Seconds::of(s.lane_s)),
            effect(s),
            bounds(s),
            evidence(s),
            Cell::text(spark),
        ],
    );
}

const COLUMNS: [&str; 7] = [
    "Series",
    "Verdict",
    "This lane",
    "Effect",
    "Prediction",
    "Evidence",
    "Last runs",
];

/// Builds the view of what the history says, when the lane was judged.
pub fn history(r: &LaneResults) -> Option<HistoryView> {
    let h = r.history.as_ref()?;
    let j = &h.judgement;
    let results = h.results.as_deref().unwrap_or("<results>");
    let spark = |key: &SeriesKey| {
        let (pts, _, _) = points(h, key);
        sparkline(&pts.iter().map(|p| p.median).collect::<Vec<_>>())
    };
    let level = j
        .series
        .iter()
        .find_map(|s| s.interval.map(|i| i.level))
        .unwrap_or(0.95);
    let mut table = Table::new(TableKind::History, &COLUMNS).titled(format!(
        "against {} earlier run(s) of line {}; the prediction's bounds are each one-sided {:.0} %",
        j.history_runs,
        short(&j.line),
        100.0 * level
    ));
    let mut cells: BTreeMap<(String, String), CellHistory> = BTreeMap::new();
    let mut repro = Vec::new();
    let mut moved = Vec::new();
    let mut groups: BTreeMap<(String, String), Vec<&SeriesVerdict>> = BTreeMap::new();
    // A cell's table holds its totals beside its series, in key order.
    for s in j.all() {
        groups
            .entry((s.key.cell.clone(), s.key.gpu.clone()))
            .or_default()
            .push(s);
    }
    for series in groups.values_mut() {
        series.sort_by(|a, b| a.key.cmp(&b.key));
    }
    for ((cell, gpu), series) in &groups {
        if let Some(t) = total(h, cell, gpu) {
            series_row(
                &mut table,
                t,
                spark(&t.key),
                Cell::text(format!("{} on {} total", short(cell), short(gpu))),
            );
        }
        for s in series
            .iter()
            .filter(|s| flagged(s) && s.key.phase != "mint/total")
        {
            series_row(
                &mut table,
                s,
                spark(&s.key),
                Cell::text(format!(
                    "{} on {} {}",
                    short(cell),
                    short(gpu),
                    short(&s.key.phase)
                )),
            );
        }
        let mut t = Table::new(TableKind::History, &COLUMNS).titled(format!(
            "every series against {} earlier run(s)",
            j.history_runs
        ));
        for s in series {
            series_row(&mut t, s, spark(&s.key), Cell::text(short(&s.key.phase)));
        }
        let charts: Vec<TrendChart> = series
            .iter()
            .map(|s| chart(h, s))
            .filter(|c| c.points.iter().any(|p| p.median.is_some()))
            .collect();
        for s in series.iter().filter(|s| flagged(s)) {
            let mut c = chart(h, s);
            c.title = format!("{} on {}: {}", short(cell), short(gpu), c.title);
            moved.push(c);
        }
        let mint = format!(
            "lane mint {} --cell {} --gpu {}",
            short(&r.lane),
            short(cell),
            short(class_of(gpu))
        );
        let show = format!(
            "lane history {} --gpu {} --history {}",
            short(cell),
            shell_word(&short(gpu)),
            bound(&h.store, LONG)
        );
        repro.push(format!("{} on {}: {mint}; {show}", short(cell), short(gpu)));
        let commands = vec![
            show,
            format!(
                "lane history check {} --history {} --json",
                bound(results, LONG),
                bound(&h.store, LONG)
            ),
            mint,
        ];
        cells.insert(
            (cell.clone(), gpu.clone()),
            CellHistory {
                table: t,
                charts,
                commands,
            },
        );
    }
    let count = |v: Verdict| j.with(v).count();
    let counts = format!(
        "{} regressed, {} improved, {} unchanged, {} inconclusive, {} with too little history",
        count(Verdict::Regressed),
        count(Verdict::Improved),
        count(Verdict::Unchanged),
        count(Verdict::Inconclusive),
        count(Verdict::InsufficientHistory)
    );
    let name = |s: &SeriesVerdict| format!("{} {}", at(&s.key), short(&s.key.phase));
    // A total's regression that no series explains is one of its own.
    let with = |f: &dyn Fn(&SeriesVerdict) -> bool| -> Vec<String> {
        j.series
            .iter()
            .chain(j.totals.iter().filter(|t| t.explained_by.is_empty()))
            .filter(|s| f(s))
            .map(|s| {
                format!(
                    "{} {}",
                    name(s),
                    s.ratio.map(|x| format!("×{x:.3}")).unwrap_or_default()
                )
            })
            .collect()
    };
    Some(HistoryView {
        run: h.run.clone(),
        history_runs: j.history_runs,
        shift: j.common_move.map(|s| {
            let what = if s.declared {
                "an environment shift, taken out of every verdict"
            } else {
                "a common move (too spread to call a shift), taken out of every verdict"
            };
            format!(
                "every cell moved together ×{:.3} ({} cells; {} series up, {} down, sign test p {:.1e}): {what}",
                s.ratio, s.cells, s.up, s.down, s.sign_p
            )
        }),
        changes: (!j.changes.is_empty()).then(|| {
            j.changes
                .iter()
                .map(|c| {
                    let role = match c.role {
                        lane_history::FieldRole::UnderTest => "under test",
                        lane_history::FieldRole::Placement => "placement",
                        lane_history::FieldRole::Environment => "environment: a new segment",
                    };
                    format!("{} {} → {} ({role})", c.field, bound(&c.before, LONG), bound(&c.after, LONG))
                })
                .collect::<Vec<_>>()
                .join(", ")
        }),
        unjudged: j.unjudged.as_ref().map(|u| {
            let which = if u.series == u.of {
                format!("all {} series", u.of)
            } else {
                format!("{} of {} series", u.series, u.of)
            };
            format!("{} ({which})", bound(&u.reason, LONG))
        }),
        judged_nothing: j.unjudged.as_ref().is_some_and(|u| u.series == u.of),
        no_series: j.series.is_empty(),
        table,
        counts,
        explained: j
            .series
            .iter()
            .filter(|s| flagged(s))
            .map(|s| (explain(h, r, s), anchor_of(r, &s.key)))
            .collect(),
        moved,
        next: j.series.iter().filter_map(|s| offer_line(&r.lane, s)).collect(),
        repro,
        confirmed: with(&|s| s.verdict == Verdict::Regressed && s.confirmed),
        unconfirmed: with(&|s| s.verdict == Verdict::Regressed && !s.confirmed),
        inconclusive: with(&|s| s.verdict == Verdict::Inconclusive),
        cells,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sparkline_spans_the_range_and_marks_the_absent() {
        assert_eq!(sparkline(&[Some(1.0), Some(2.0), None, Some(3.0)]), "▁▅·█");
        assert_eq!(sparkline(&[Some(5.0), Some(5.0)]), "▄▄");
        assert_eq!(sparkline(&[]), "");
    }

    #[test]
    fn a_run_is_named_by_its_digest() {
        assert_eq!(short_run("20261201T213145Z-0.0.0-3f9a1c2b7d4e"), "3f9a1c2b");
        assert_eq!(short_run("manual"), "manual");
    }
}
