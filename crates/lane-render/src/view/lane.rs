//! A lane's report: the header, one row per cell, GPU and repeat, every
//! finding, and per cell its repeats' breakdowns, the determinism diff of
//! r1 against r2 and the comparison with the baseline lane.
//!
//! This is the one file that reads [`LaneResults`] and what it holds
//! (`MintRecord`, status strings, wheel, guards): the policy gets its
//! evidence from here too (`evidence`).

use lane_core::MintStatus;
use lane_ledger::{FindingKind, LedgerKind, Severity};
use serde::Serialize;

use super::answers::{answers, is_probe, minted, Answers};
use super::breakdown::{breakdown, findings_table, kind_name, BreakdownView};
use super::classes::pair;
use super::comparison::{comparison, delta_cell, ComparisonView};
use super::determinism::{verdict_tone, DeterminismView};
use super::doc::{RowRole, Table, TableKind};
use super::history::{history, CellHistory, HistoryView};
use super::value::{Absent, Cell, Percent, Seconds, Tone};
use super::{bound, short, LONG};
use crate::policy::{decide, CellEvidence, Conclusion, Evidence, RepeatEvidence, Verdict};
use crate::{CellResult, LaneResults, RepeatResult};

/// The most picks named in the header.
const PICKS: usize = 30;

/// A lane, ready to lay out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaneView {
    /// The lane version (bounded, unescaped), for the comment's marker.
    pub lane: String,
    /// `lane 0.93.3 — title`.
    pub title: String,
    /// Wheel, base, branch, picks, guards, baseline, replay, verdict.
    pub header: Table,
    /// The first screen: can it ship, what regressed, why the bytes
    /// differ, what to run next.
    pub answers: Answers,
    /// What the lane's history says, when it was judged.
    pub history: Option<HistoryView>,
    /// The conclusion by policy and why.
    pub verdict: Verdict,
    /// One row per cell, GPU and repeat.
    pub cells: Table,
    /// Every finding of every repeat, most severe first.
    pub findings: Table,
    /// Per cell: its repeats, determinism and comparison.
    pub sections: Vec<CellSection>,
    /// Where the full report is (raw: each target checks and escapes it).
    pub report_url: Option<String>,
}

/// One cell on one GPU.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellSection {
    /// `cell on GPU`.
    pub title: String,
    /// An id made of `[a-z0-9-]` only (it needs no escaping).
    pub anchor: String,
    /// The repeats, by number.
    pub repeats: Vec<RepeatSection>,
    /// The determinism diff of r1 against r2.
    pub determinism: Option<DeterminismView>,
    /// Why there is none although there could be.
    pub determinism_note: Option<String>,
    /// What the history says of this cell's series, with their charts.
    pub history: Option<CellHistory>,
    /// The comparison with the baseline lane's same cell and GPU.
    pub comparison: Option<ComparisonView>,
    /// Why there is none although a baseline exists.
    pub comparison_note: Option<String>,
}

/// One repeat of a cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RepeatSection {
    /// The repeat number.
    pub repeat: u32,
    /// `r1 (aot_table_v1)`.
    pub title: String,
    /// What the orchestrator recorded of the job, when it did.
    pub job: Option<String>,
    /// The breakdown.
    pub breakdown: BreakdownView,
}

fn status(rep: &RepeatResult) -> Option<String> {
    rep.status().map(|s| s.as_str().to_owned())
}

/// A status that fails the lane: `lane_core`'s rule, and any word lane
/// does not know (it proves nothing).
fn failing(status: Option<&str>) -> bool {
    status.is_some_and(|s| MintStatus::parse(s).is_none_or(MintStatus::fails_lane))
}

fn at(c: &CellResult) -> String {
    format!("{} on {}", short(&c.cell), short(&c.gpu))
}

/// What the policy weighs, read from the results.
pub(crate) fn evidence(r: &LaneResults) -> Evidence {
    evidence_with(r, history(r).as_ref())
}

/// What the policy weighs, with the history's view already built.
fn evidence_with(r: &LaneResults, h: Option<&HistoryView>) -> Evidence {
    let cells =
        r.cells
            .iter()
            .map(|c| CellEvidence {
                at: at(c),
                repeats: c
                    .repeats
                    .iter()
                    .map(|rep| {
                        let b = &rep.breakdown;
                        RepeatEvidence {
                            at: format!("{} r{}", at(c), rep.repeat),
                            failing_status: status(rep).filter(|s| failing(Some(s))),
                            failing_reason: rep
                                .mint
                                .as_ref()
                                .filter(|m| m.status.fails_lane())
                                .map(|m| bound(&m.reason, LONG)),
                            unreadable: b
                                .findings
                                .iter()
                                .any(|f| f.kind == FindingKind::UnreadableReport),
                            measured: rep.measured(),
                            warning: b
                                .findings
                                .iter()
                                .find(|f| f.severity >= Severity::Warning)
                                .map(|f| (f.severity, kind_name(f))),
                            wrong_card: rep.mint.as_ref().and_then(|m| {
                                match lane_core::environment::card_of_slot(
                                    &c.gpu,
                                    m.stand_in.as_deref(),
                                    m.environment.gpu_model.as_deref(),
                                ) {
                                    lane_core::environment::CardCheck::IsNot { card } => {
                                        Some(bound(&card, LONG))
                                    }
                                    _ => None,
                                }
                            }),
                            stand_in: rep.mint.as_ref().and_then(|m| {
                                match lane_core::environment::card_of_slot(
                                    &c.gpu,
                                    m.stand_in.as_deref(),
                                    m.environment.gpu_model.as_deref(),
                                ) {
                                    lane_core::environment::CardCheck::StandsIn { card } => {
                                        Some(bound(&card, LONG))
                                    }
                                    _ => None,
                                }
                            }),
                        }
                    })
                    .collect(),
                unexplained: c
                    .determinism
                    .as_ref()
                    .is_some_and(|d| d.verdict() == lane_diff::DeterminismVerdict::Unexplained),
                unproven: c.determinism.as_ref().is_some_and(|d| {
                    d.verdict() == lane_diff::DeterminismVerdict::IdenticalNotProven
                }),
            })
            .collect();
    Evidence {
        guard_refused: r.guard.as_ref().is_some_and(|g| !g.passed),
        not_green: r.green == Some(false),
        disagreements: r.disagreements.clone(),
        cancelled: r.cancelled,
        cells,
        nothing_measured: r.cells.iter().all(|c| c.repeats.is_empty()),
        confirmed_regressions: h.map(|h| h.confirmed.clone()).unwrap_or_default(),
        unconfirmed_regressions: h.map(|h| h.unconfirmed.clone()).unwrap_or_default(),
        inconclusive: h.map(|h| h.inconclusive.clone()).unwrap_or_default(),
        replayed: r.replay,
    }
}

/// Builds the view of a lane.
pub fn lane(r: &LaneResults) -> LaneView {
    let mut hist = history(r);
    let verdict = decide(&evidence_with(r, hist.as_ref()));
    let answers = answers(r, &verdict, hist.as_ref());
    let mut title = format!("lane {}", short(&r.lane));
    if let Some(t) = &r.title {
        title.push_str(&format!(" — {}", short(t)));
    }
    LaneView {
        lane: short(&r.lane),
        title,
        header: header(r, &verdict),
        answers,
        verdict,
        cells: cells_table(r),
        findings: lane_findings(r),
        sections: r
            .cells
            .iter()
            .map(|c| {
                let cell_history = hist
                    .as_mut()
                    .and_then(|h| h.cells.remove(&(c.cell.clone(), c.gpu.clone())));
                section(c, cell_history)
            })
            .collect(),
        history: hist,
        report_url: r.report_url.clone(),
    }
}

fn header(r: &LaneResults, v: &Verdict) -> Table {
    let mut t = Table::new(TableKind::Header, &["", ""]);
    let mut row = |k: &str, v: Cell| t.push(RowRole::Plain, vec![Cell::text(k), v]);
    row(
        "Wheel",
        r.wheel.as_ref().map_or_else(
            || Cell::toned("not staged", Tone::Quiet),
            |w| {
                let from = w.commit.as_deref().map_or_else(String::new, |c| {
                    format!(", built from {}", short(&c[..c.len().min(12)]))
                });
                Cell::text(format!(
                    "{} (sha256 {}{from})",
                    short(&w.file),
                    short(&w.sha256)
                ))
            },
        ),
    );
    row(
        "Base",
        Cell::text_or(r.base.as_deref().map(short).as_deref(), "unknown"),
    );
    if is_probe(r) {
        row(
            "Lane",
            Cell::toned(
                "a probe lane: no picks, no wheel, no guards (minted from a source tree; no branch)",
                Tone::Quiet,
            ),
        );
    } else if let Some(b) = &r.branch {
        row("Branch", Cell::text(short(b)));
    }
    let picks = if r.picks.is_empty() {
        "none".to_owned()
    } else {
        let shown: Vec<String> = r.picks.iter().take(PICKS).map(|p| short(p)).collect();
        match r.picks.len().saturating_sub(PICKS) {
            0 => shown.join(", "),
            more => format!("{} and {more} more", shown.join(", ")),
        }
    };
    row("Picks", Cell::text(picks));
    row(
        "Guards",
        r.guard.as_ref().map_or_else(
            || Cell::toned("not recorded", Tone::Quiet),
            |g| {
                let (word, tone) = if g.passed {
                    ("passed", Tone::Good)
                } else {
                    ("refused", Tone::Bad)
                };
                Cell::toned(format!("{word} — {}", bound(&g.summary, LONG)), tone)
            },
        ),
    );
    if let Some(b) = &r.baseline {
        row("Baseline lane", Cell::text(short(b)));
    }
    if r.replay {
        row(
            "Replay",
            Cell::toned(
                "yes: these numbers were replayed, not measured fresh",
                Tone::Warn,
            ),
        );
    }
    let green = match r.green {
        Some(true) => Cell::toned(format!("green: {}", minted(r)), Tone::Good),
        Some(false) => Cell::toned(format!("not green: {}", minted(r)), Tone::Bad),
        None => Cell::toned(format!("not recorded: {}", minted(r)), Tone::Quiet),
    };
    row("Mints", green);
    let (tone, gloss) = match v.conclusion {
        Conclusion::Failure => (Tone::Bad, "the lane does not ship as it stands"),
        Conclusion::Neutral => (Tone::Warn, "something to look at; nothing fails"),
        Conclusion::Success => (Tone::Good, "nothing to look at"),
        Conclusion::Cancelled => (Tone::Warn, "stopped on purpose; it proves nothing"),
    };
    row(
        "Check",
        Cell::toned(format!("{} ({gloss})", v.conclusion.as_str()), tone),
    );
    t
}

fn determinism_cell(c: &CellResult) -> Cell {
    match (&c.determinism, &c.determinism_note) {
        (Some(d), _) => Cell::toned(d.verdict().describe(), verdict_tone(d.verdict())),
        (None, Some(n)) => Cell::toned(format!("not diffed: {}", bound(n, LONG)), Tone::Bad),
        (None, None) => Cell::toned(
            format!("not diffed: {}", bound(&not_diffed_why(c), LONG)),
            Tone::Quiet,
        ),
    }
}

/// Why a cell's repeats make no pair to diff: its reader's words, else
/// what the repeats given show.
fn not_diffed_why(c: &CellResult) -> String {
    c.not_diffed
        .clone()
        .unwrap_or_else(|| match c.repeats.len() {
            0 | 1 => format!(
                "{} repeat(s) only: the determinism diff pairs r1 with r2",
                c.repeats.len()
            ),
            _ => "the first two repeats' cells were not given".to_owned(),
        })
}

fn baseline_cell(c: &CellResult) -> Cell {
    if let Some(cmp) = &c.comparison {
        return match cmp.rows.iter().find(|row| row.group == "total") {
            Some(row) => delta_cell(row),
            None => Cell::toned("no total", Tone::Quiet),
        };
    }
    match &c.comparison_note {
        Some(n) => Cell::toned(format!("not compared: {}", bound(n, LONG)), Tone::Warn),
        None => Cell::toned("no baseline", Tone::Quiet),
    }
}

fn warm_cell(rep: &RepeatResult) -> Cell {
    let b = &rep.breakdown;
    match &b.warmup_split {
        Some(w) => Cell::text(format!(
            "compile {} / execute {}",
            Seconds::of(w.compile_s).or(Absent::NotMeasured),
            Seconds::of(w.execute_s).or(Absent::NotMeasured)
        )),
        None if b.ledger_has_no_split() && b.phases.iter().any(|p| p.name == "warmup_forward") => {
            Cell::toned("no split (the ledger cannot say)", Tone::Quiet)
        }
        None => Cell::empty(),
    }
}

fn cells_table(r: &LaneResults) -> Table {
    let mut t = Table::new(
        TableKind::Cells,
        &[
            "Cell",
            "GPU",
            "Recipe",
            "Run",
            "Status",
            "Job wall",
            "Total",
            "warmup_forward",
            "Compile fraction",
            "Determinism",
            "Δ vs baseline",
        ],
    )
    .titled("cells");
    for c in &r.cells {
        let (det, delta) = (determinism_cell(c), baseline_cell(c));
        if c.repeats.is_empty() {
            t.push(
                RowRole::Plain,
                vec![
                    Cell::text(short(&c.cell)),
                    Cell::text(short(&c.gpu)),
                    Cell::text_or(c.recipe.as_deref().map(short).as_deref(), "unknown"),
                    Cell::toned("—", Tone::Quiet),
                    Cell::toned("no runs", Tone::Quiet),
                    Cell::seconds(Seconds::absent(Absent::NotRecorded)),
                    Cell::seconds(Seconds::absent(Absent::NoReport)),
                    Cell::empty(),
                    Cell::empty(),
                    det,
                    delta,
                ],
            );
            continue;
        }
        for (i, rep) in c.repeats.iter().enumerate() {
            let s = status(rep);
            let b = &rep.breakdown;
            let (total, frac) = if rep.measured() {
                (
                    Cell::seconds(Seconds::of(b.total_s).or(Absent::NotMeasured)),
                    Cell::percent(Percent::of(b.compile_fraction)),
                )
            } else {
                (
                    Cell::seconds(Seconds::absent(Absent::NoReport)),
                    Cell::empty(),
                )
            };
            let wall = rep.mint.as_ref().and_then(|m| m.wall_s);
            t.push(
                if failing(s.as_deref()) {
                    RowRole::Failed
                } else {
                    RowRole::Plain
                },
                vec![
                    Cell::text(short(&c.cell)),
                    Cell::text(short(&c.gpu)),
                    Cell::text_or(rep.recipe(c).as_deref().map(short).as_deref(), "unknown"),
                    Cell::text(format!("r{}", rep.repeat)),
                    Cell::text_or(s.as_deref().map(short).as_deref(), "unknown").with_tone(
                        if failing(s.as_deref()) {
                            Tone::Bad
                        } else {
                            Tone::Plain
                        },
                    ),
                    Cell::seconds(Seconds::of(wall).or(Absent::NotRecorded)),
                    total,
                    if rep.measured() {
                        warm_cell(rep)
                    } else {
                        Cell::empty()
                    },
                    frac,
                    if i == 0 { det.clone() } else { Cell::ditto() },
                    if i == 0 { delta.clone() } else { Cell::ditto() },
                ],
            );
        }
    }
    t
}

fn lane_findings(r: &LaneResults) -> Table {
    let mut all = Vec::new();
    for c in &r.cells {
        for rep in &c.repeats {
            for f in &rep.breakdown.findings {
                all.push((c, rep.repeat, f));
            }
        }
    }
    all.sort_by_key(|f| std::cmp::Reverse(f.2.severity));
    findings_table(
        all.into_iter()
            .map(|(c, repeat, f)| (Some(format!("{} r{repeat}", at(c))), f)),
        true,
    )
}

/// The id of a cell's section: `[a-z0-9-]` only (it needs no escaping).
pub(crate) fn anchor(c: &CellResult) -> String {
    let mut a = String::from("cell-");
    for ch in format!("{}-{}", c.cell, c.gpu).chars().take(80) {
        if ch.is_ascii_alphanumeric() {
            a.push(ch.to_ascii_lowercase());
        } else {
            a.push('-');
        }
    }
    a
}

fn section(c: &CellResult, history: Option<CellHistory>) -> CellSection {
    let repeats = c
        .repeats
        .iter()
        .map(|rep| RepeatSection {
            repeat: rep.repeat,
            title: format!(
                "r{} ({})",
                rep.repeat,
                match &rep.breakdown.ledger {
                    LedgerKind::Missing { .. } => "no report".to_owned(),
                    other => short(&other.label()),
                }
            ),
            job: rep.mint.as_ref().map(|m| {
                format!(
                    "job: status {}, attempt {}, wall {}, exit code {}{}{}",
                    m.status,
                    m.attempt,
                    Seconds::of(m.wall_s).or(Absent::NotRecorded),
                    m.exit_code
                        .map_or_else(|| "not recorded".to_owned(), |c| c.to_string()),
                    if m.replay { ", replayed" } else { "" },
                    if m.status.fails_lane() && !m.reason.is_empty() {
                        format!("; why: {}", bound(&m.reason, LONG))
                    } else {
                        String::new()
                    }
                )
            }),
            breakdown: breakdown(&rep.breakdown),
        })
        .collect();
    CellSection {
        title: at(c),
        anchor: anchor(c),
        repeats,
        determinism: c.determinism.as_ref().map(pair),
        determinism_note: match (&c.determinism, &c.determinism_note) {
            (Some(_), _) => None,
            (None, Some(n)) => Some(bound(n, LONG)),
            (None, None) => Some(bound(&not_diffed_why(c), LONG)),
        },
        history,
        comparison: c.comparison.as_ref().map(comparison),
        comparison_note: c.comparison_note.as_deref().map(|n| bound(n, LONG)),
    }
}

impl LaneView {
    /// Every table of the view, in the order the renderers lay them out
    /// (header, cells, findings, then per cell each repeat's, the
    /// determinism diff's and the comparison's).
    pub fn tables(&self) -> Vec<&Table> {
        let mut out = vec![&self.header];
        for t in [&self.cells, &self.findings] {
            if !t.rows.is_empty() {
                out.push(t);
            }
        }
        if let Some(h) = &self.history {
            out.push(&h.table);
        }
        for s in &self.sections {
            if let Some(h) = &s.history {
                out.push(&h.table);
            }
            for r in &s.repeats {
                out.extend(r.breakdown.blocks.tables());
            }
            if let Some(d) = &s.determinism {
                out.extend(d.blocks.tables());
            }
            if let Some(c) = &s.comparison {
                out.extend(c.blocks.tables());
            }
        }
        out
    }
}
