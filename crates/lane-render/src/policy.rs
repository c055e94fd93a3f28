//! The check run's conclusion by policy (documented in `docs/report.md`):
//!
//! - **failure** when the guards refused, the orchestrator said not green,
//!   any mint ended refused, failed, resource or crashed, or with a
//!   status lane does not know (`MintStatus::fails_lane`; by `mint.json` or by its
//!   report), a report could not be read, a determinism diff is
//!   unexplained, or the lane's history calls a series regressed and
//!   confirmed (by the other GPU class or the lane before): a regression
//!   fails the check only once confirmed;
//! - **neutral** when a report is missing (not measured), any finding is
//!   at warning level or above, the results were replayed (no compile
//!   ran), a cell's repeats are identical but not proven cold, or the history calls a series regressed but not yet confirmed,
//!   or inconclusive: the first screen reads "Cannot tell", never yes;
//! - **success** otherwise;
//! - **cancelled** over all of these when the lane was cancelled before
//!   every slot minted (`summary.json`'s `cancelled`): it proves nothing,
//!   and the reasons still name what each slot ended as.
//!
//! The policy weighs [`Evidence`], which the view model reads from the
//! results ([`crate::view::lane`]): it never reads the inputs itself.

use lane_ledger::Severity;
use serde::Serialize;

use crate::LaneResults;

/// A check run conclusion, as GitHub spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Conclusion {
    /// Everything measured, nothing to look at.
    Success,
    /// Something to look at: a warning finding or a missing report.
    Neutral,
    /// The lane is not releasable as it stands.
    Failure,
    /// The lane was stopped on purpose before every slot minted.
    Cancelled,
}

impl Conclusion {
    /// The name GitHub's API takes.
    pub fn as_str(self) -> &'static str {
        match self {
            Conclusion::Success => "success",
            Conclusion::Neutral => "neutral",
            Conclusion::Failure => "failure",
            Conclusion::Cancelled => "cancelled",
        }
    }
}

/// A conclusion and the reasons for it (the worst reasons first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The conclusion.
    pub conclusion: Conclusion,
    /// Why, one sentence each; empty for a plain success.
    pub reasons: Vec<String>,
}

/// What the policy weighs of one repeat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RepeatEvidence {
    /// `cell on GPU rN`.
    pub at: String,
    /// The status, when it is one that fails a lane.
    pub failing_status: Option<String>,
    /// Why it failed, as the slot's record says (bounded); a bare "mint
    /// failed" sends the engineer digging through folders.
    pub failing_reason: Option<String>,
    /// True when the report could not be read.
    pub unreadable: bool,
    /// True when there is a report.
    pub measured: bool,
    /// The first finding at warning level or above: severity and kind.
    pub warning: Option<(Severity, String)>,
    /// The card it ran on, when that card is not its slot's GPU class.
    pub wrong_card: Option<String>,
    /// The card that ran it standing in for its GPU class, as the lane
    /// file allows (`mint.stand_in`).
    pub stand_in: Option<String>,
}

/// What the policy weighs of one cell on one GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CellEvidence {
    /// `cell on GPU`.
    pub at: String,
    /// Its repeats.
    pub repeats: Vec<RepeatEvidence>,
    /// True when its determinism diff is unexplained.
    pub unexplained: bool,
    /// True when its repeats' bytes are identical but the repeats are not
    /// proven cold: no proof of determinism.
    pub unproven: bool,
}

/// What the policy weighs of a lane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Evidence {
    /// The guards refused.
    pub guard_refused: bool,
    /// The orchestrator said the lane is not green.
    pub not_green: bool,
    /// Where `summary.json` and the slots' records disagree.
    pub disagreements: Vec<String>,
    /// The lane was cancelled before every slot minted.
    pub cancelled: bool,
    /// Every cell, in order.
    pub cells: Vec<CellEvidence>,
    /// No cell has a repeat.
    pub nothing_measured: bool,
    /// Series the lane's history calls regressed and confirmed.
    pub confirmed_regressions: Vec<String>,
    /// Series called regressed, not yet confirmed.
    pub unconfirmed_regressions: Vec<String>,
    /// Series the history calls inconclusive.
    pub inconclusive: Vec<String>,
    /// The results were replayed from a recording: no compile ran, so
    /// they are evidence of nothing about this lane's code.
    pub replayed: bool,
}

/// The conclusion of a lane's results by the documented policy.
pub fn conclusion(r: &LaneResults) -> Verdict {
    decide(&crate::view::lane::evidence(r))
}

/// The policy itself.
pub(crate) fn decide(e: &Evidence) -> Verdict {
    let mut failure = Vec::new();
    let mut neutral = Vec::new();
    if e.guard_refused {
        failure.push("the guards refused".to_owned());
    }
    if e.not_green && !e.cancelled {
        failure.push("the orchestrator reported the lane not green".to_owned());
    }
    for d in &e.disagreements {
        failure.push(format!("summary.json disagrees with the slots: {d}"));
    }
    for c in &e.cells {
        for rep in &c.repeats {
            if let Some(s) = &rep.failing_status {
                match rep.failing_reason.as_deref().filter(|r| !r.is_empty()) {
                    Some(why) => failure.push(format!("{}: mint {s}: {why}", rep.at)),
                    None => failure.push(format!("{}: mint {s}", rep.at)),
                }
            }
            if let Some(card) = &rep.stand_in {
                neutral.push(format!(
                    "{}: ran on {card}, standing in for its GPU class (mint.stand_in): its numbers are that card's",
                    rep.at
                ));
            }
            if let Some(card) = &rep.wrong_card {
                failure.push(format!(
                    "{}: ran on {card}, not on its GPU class: its numbers are that card's",
                    rep.at
                ));
            }
            if rep.unreadable {
                failure.push(format!("{}: the report could not be read", rep.at));
            } else if !rep.measured {
                neutral.push(format!("{}: no report", rep.at));
            } else if let Some((severity, kind)) = rep
                .warning
                .as_ref()
                // The stand-in is said above, with its card.
                .filter(|(_, kind)| !(rep.stand_in.is_some() && kind == "stand_in"))
            {
                neutral.push(format!("{}: {severity} finding ({kind})", rep.at));
            }
        }
        if c.unexplained {
            failure.push(format!("{}: determinism diff unexplained", c.at));
        }
        if c.unproven {
            neutral.push(format!(
                "{}: identical bytes, but the repeats are not proven cold: no proof of determinism",
                c.at
            ));
        }
    }
    if e.nothing_measured {
        neutral.push("no cells were measured".to_owned());
    }
    if e.replayed {
        neutral.push(
            "the results were replayed from a recording: no compile ran here, so nothing was measured fresh"
                .to_owned(),
        );
    }
    for s in &e.confirmed_regressions {
        failure.push(format!("{s}: regressed against history, confirmed"));
    }
    for s in &e.unconfirmed_regressions {
        neutral.push(format!(
            "{s}: regressed against history, not yet confirmed (the next lane or the other GPU class confirms it)"
        ));
    }
    for s in &e.inconclusive {
        neutral.push(format!("{s}: inconclusive against history"));
    }
    let conclusion = if e.cancelled {
        failure.insert(
            0,
            "the lane was cancelled before every mint was in".to_owned(),
        );
        Conclusion::Cancelled
    } else if !failure.is_empty() {
        Conclusion::Failure
    } else if !neutral.is_empty() {
        Conclusion::Neutral
    } else {
        Conclusion::Success
    };
    failure.extend(neutral);
    Verdict {
        conclusion,
        reasons: failure,
    }
}
