//! The first screen: the answers a release engineer asks for, in their
//! order, before any detail. Can this lane ship (green, how many of its
//! mints minted, the check's conclusion and why)? What regressed against
//! history? Why do the bytes differ? What to run next? The comment, the
//! page and `lane report`'s text open with these.

use lane_core::MintStatus;
use lane_diff::DeterminismVerdict;
use serde::Serialize;

use super::history::{bytes_clause, HistoryView};
use super::value::Tone;
use super::{bound, short, LONG};
use crate::policy::{Conclusion, Verdict};
use crate::{CellResult, LaneResults};

/// The most details listed under one answer.
const DETAILS: usize = 8;

/// One question and its answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// The question.
    pub question: &'static str,
    /// The answer, one sentence.
    pub answer: String,
    /// How it reads.
    pub tone: Tone,
    /// What backs it, one line each, with the anchor of the cell it is
    /// about (empty when about the lane).
    pub details: Vec<(String, String)>,
}

/// The four answers, in the order they are asked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answers {
    /// Can this lane ship?
    pub ship: Answer,
    /// What regressed against history?
    pub regressed: Answer,
    /// Why do the bytes differ?
    pub bytes: Answer,
    /// What to run next?
    pub next: Answer,
}

impl Answers {
    /// The answers in order.
    pub fn all(&self) -> [&Answer; 4] {
        [&self.ship, &self.regressed, &self.bytes, &self.next]
    }
}

fn capped(mut lines: Vec<(String, String)>) -> Vec<(String, String)> {
    if lines.len() > DETAILS {
        let more = lines.len() - DETAILS;
        lines.truncate(DETAILS);
        lines.push((format!("and {more} more (below)"), String::new()));
    }
    lines
}

fn lane_only(lines: impl IntoIterator<Item = String>) -> Vec<(String, String)> {
    lines.into_iter().map(|l| (l, String::new())).collect()
}

/// A lane with no picks, wheel or guards: it mints, it releases nothing.
pub(crate) fn is_probe(r: &LaneResults) -> bool {
    r.picks.is_empty() && r.wheel.is_none() && r.guard.is_none()
}

/// `4 of 4 minted`.
pub(crate) fn minted(r: &LaneResults) -> String {
    let repeats = r.cells.iter().flat_map(|c| c.repeats.iter());
    let total = repeats.clone().count();
    let done = repeats
        .filter(|rep| {
            rep.status()
                .is_some_and(|s| s.as_str() == MintStatus::Minted.as_str())
        })
        .count();
    format!("{done} of {total} minted")
}

fn ship(r: &LaneResults, v: &Verdict) -> Answer {
    let green = match r.green {
        Some(true) => "green",
        Some(false) => "not green",
        None => "green not recorded",
    };
    let state = format!("{green}, {}", minted(r));
    let (answer, tone) = match v.conclusion {
        Conclusion::Success => (format!("Yes: {state}; the check succeeds."), Tone::Good),
        // A yes is a proof: where evidence is missing (a report not
        // measured, a warning, replayed numbers, a history that has not
        // decided), the answer is "cannot tell", and why.
        Conclusion::Neutral => (
            format!(
                "Cannot tell: {state}; nothing fails, but what a yes needs is missing (below)."
            ),
            Tone::Warn,
        ),
        Conclusion::Failure => (format!("No: {state}; the check fails."), Tone::Bad),
        Conclusion::Cancelled => (
            format!("No: cancelled before every mint was in; {}.", minted(r)),
            Tone::Warn,
        ),
    };
    let mut details: Vec<String> = v.reasons.iter().map(|x| bound(x, LONG)).collect();
    if is_probe(r) {
        details.push("a probe lane: no picks, no wheel, no guards; it publishes nothing".into());
    }
    Answer {
        question: "Can this lane ship?",
        answer,
        tone,
        details: capped(lane_only(details)),
    }
}

fn regressed(r: &LaneResults, h: Option<&HistoryView>) -> Answer {
    let question = "What regressed against history?";
    let Some(h) = h else {
        let why = r
            .history_note
            .as_deref()
            .map_or_else(|| "no history was given".to_owned(), |n| bound(n, LONG));
        return Answer {
            question,
            answer: format!("Not judged: {why}."),
            tone: Tone::Quiet,
            details: Vec::new(),
        };
    };
    let called = [
        (h.confirmed.len(), "regressed, confirmed", Tone::Bad),
        (
            h.unconfirmed.len(),
            "regressed, not yet confirmed",
            Tone::Warn,
        ),
        (
            h.inconclusive.len(),
            "inconclusive, nothing called",
            Tone::Warn,
        ),
    ]
    .into_iter()
    .find(|(n, _, _)| *n > 0);
    // A lane that could not be judged says so first, with why: never
    // "nothing regressed".
    let any_called = called.is_some();
    let (answer, tone) = match (called, &h.unjudged) {
        (_, Some(why)) if h.judged_nothing => (format!("Not judged: {why}."), Tone::Warn),
        (Some((n, what, tone)), _) => (format!("{n} series {what} ({}).", h.counts), tone),
        (None, Some(why)) => (
            format!(
                "Nothing among the series judged ({}); not judged: {why}.",
                h.counts
            ),
            Tone::Warn,
        ),
        // No series at all (no repeat minted, or every one kept out):
        // nothing was judged, which is never "nothing regressed".
        (None, None) if h.no_series => (
            "Not judged: no minted repeat of this lane gave a series to judge.".to_owned(),
            Tone::Warn,
        ),
        (None, None) => (format!("Nothing ({}).", h.counts), Tone::Good),
    };
    let mut details: Vec<(String, String)> = h
        .unjudged
        .iter()
        .filter(|_| any_called)
        .chain(&h.changes)
        .chain(&h.shift)
        .map(|s| (s.clone(), String::new()))
        .collect();
    details.extend(h.explained.iter().cloned());
    Answer {
        question,
        answer,
        tone,
        details: capped(details),
    }
}

fn bytes(r: &LaneResults) -> Answer {
    let diffed: Vec<_> = r.cells.iter().filter(|c| c.determinism.is_some()).collect();
    let verdict_of = |c: &&CellResult| c.determinism.as_ref().map(|d| d.verdict());
    let differ = diffed
        .iter()
        .filter(|c| {
            !matches!(
                verdict_of(c),
                Some(DeterminismVerdict::ByteIdentical | DeterminismVerdict::IdenticalNotProven)
            )
        })
        .count();
    // Identical bytes of repeats not proven cold are no proof either way.
    let unproven = diffed
        .iter()
        .filter(|c| verdict_of(c) == Some(DeterminismVerdict::IdenticalNotProven))
        .count();
    let unexplained = diffed.iter().any(|c| {
        c.determinism
            .as_ref()
            .is_some_and(|d| d.verdict() == DeterminismVerdict::Unexplained)
    });
    let (answer, tone) = if diffed.is_empty() {
        ("No cell was diffed.".to_owned(), Tone::Quiet)
    } else if differ == 0 && unproven > 0 {
        (
            format!(
                "Cannot tell: {unproven} of {} diffed cell(s) are identical, but their repeats are not proven cold, so that is no proof of determinism.",
                diffed.len()
            ),
            Tone::Warn,
        )
    } else if differ == 0 {
        (
            format!(
                "They do not: {} diffed cell(s), every pair byte-identical.",
                diffed.len()
            ),
            Tone::Good,
        )
    } else {
        (
            format!(
                "{differ} of {} diffed cell(s) differ between cold repeats{}.",
                diffed.len(),
                if unexplained {
                    ", not every difference explained"
                } else {
                    ", every difference explained"
                }
            ),
            if unexplained { Tone::Bad } else { Tone::Warn },
        )
    };
    let details = r
        .cells
        .iter()
        .map(|c| {
            (
                format!(
                    "{} on {}: {}",
                    short(&c.cell),
                    short(&c.gpu),
                    bytes_clause(c)
                ),
                super::lane::anchor(c),
            )
        })
        .collect();
    Answer {
        question: "Why do the bytes differ?",
        answer,
        tone,
        details: capped(details),
    }
}

fn next(r: &LaneResults, v: &Verdict, h: Option<&HistoryView>) -> Answer {
    let lane = short(&r.lane);
    let mut todo: Vec<String> = Vec::new();
    // A slot that ended failed or refused is never retried: `lane mint`
    // alone would do nothing for it; `lane reopen` opens it again.
    let ended: Vec<String> = r
        .cells
        .iter()
        .flat_map(|c| {
            c.repeats
                .iter()
                .filter(|rep| {
                    matches!(
                        rep.status(),
                        Some(lane_core::Named::Known(
                            MintStatus::Failed | MintStatus::Refused
                        ))
                    )
                })
                .map(move |rep| format!("{}/{}/r{}", short(&c.cell), short(&c.gpu), rep.repeat))
        })
        .collect();
    let retried = r.cells.iter().flat_map(|c| &c.repeats).any(|rep| {
        !matches!(
            rep.status(),
            Some(lane_core::Named::Known(
                MintStatus::Minted | MintStatus::Failed | MintStatus::Refused
            ))
        )
    });
    if !ended.is_empty() {
        todo.push(format!(
            "lane reopen {lane} {}, then lane mint {lane}: the slots that ended failed or refused are never retried by lane mint alone",
            bound(&ended.join(" "), LONG)
        ));
    }
    if r.cancelled || (r.green == Some(false) && (retried || ended.is_empty())) {
        todo.push(format!(
            "lane mint {lane}: runs again what did not mint (it re-attaches, and retries by the lane's policy)"
        ));
    }
    for c in &r.cells {
        if c.determinism
            .as_ref()
            .is_some_and(|d| d.verdict() == DeterminismVerdict::Unexplained)
        {
            todo.push(format!(
                "lane diff <results>/{0}/{1}/r1/artifacts <results>/{0}/{1}/r2/artifacts: what {0} on {1} differs by",
                short(&c.cell),
                short(&c.gpu)
            ));
        }
    }
    match h {
        Some(h) if h.history_runs < 3 => todo.push(format!(
            "lane history add <results> for each earlier results folder of the line, oldest first: the history holds {} earlier run(s), 3 are needed to judge",
            h.history_runs
        )),
        Some(h) => todo.extend(h.next.iter().cloned()),
        None => todo.push(
            "lane history add <results> for each earlier results folder of the line, oldest first, then lane report again: history judges each series".into(),
        ),
    }
    if todo.is_empty() {
        todo.push(if is_probe(r) {
            "Nothing: a probe lane publishes nothing.".to_owned()
        } else if v.conclusion == Conclusion::Failure {
            "Look at why the check fails (above), fix, and mint again.".to_owned()
        } else {
            format!("lane publish {lane}: the lane is green")
        });
    }
    let answer = todo.remove(0);
    Answer {
        question: "What to run next?",
        answer,
        tone: Tone::Plain,
        details: capped(lane_only(todo)),
    }
}

/// The answers for a lane whose conclusion is `v`.
pub(crate) fn answers(r: &LaneResults, v: &Verdict, h: Option<&HistoryView>) -> Answers {
    Answers {
        ship: ship(r, v),
        regressed: regressed(r, h),
        bytes: bytes(r),
        next: next(r, v, h),
    }
}
