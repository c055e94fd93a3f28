//! The check run's conclusion by policy (documented in `docs/report.md`):
//!
//! - **failure** when the guards refused, the orchestrator said not green,
//!   any mint ended failed, refused or crashed (by `mint.json` or by its
//!   report), or a determinism diff is unexplained;
//! - **neutral** when a report is missing (not measured) or any finding is
//!   at warning level or above;
//! - **success** otherwise.

use lane_ledger::{DeterminismVerdict, Severity};
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
}

impl Conclusion {
    /// The name GitHub's API takes.
    pub fn as_str(self) -> &'static str {
        match self {
            Conclusion::Success => "success",
            Conclusion::Neutral => "neutral",
            Conclusion::Failure => "failure",
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

const FAILING_STATUSES: [&str; 3] = ["failed", "refused", "crashed"];

/// The conclusion of a lane's results by the documented policy.
pub fn conclusion(r: &LaneResults) -> Verdict {
    let mut failure = Vec::new();
    let mut neutral = Vec::new();
    if let Some(g) = &r.guard {
        if !g.passed {
            failure.push("the guards refused".to_owned());
        }
    }
    if r.green == Some(false) {
        failure.push("the orchestrator reported the lane not green".to_owned());
    }
    for c in &r.cells {
        let at = format!("{} on {}", c.cell, c.gpu);
        for rep in &c.repeats {
            let status = rep
                .mint
                .as_ref()
                .and_then(|m| m.status.clone())
                .or_else(|| rep.breakdown.status.as_ref().map(|s| s.as_str().to_owned()));
            if let Some(s) = status.filter(|s| FAILING_STATUSES.contains(&s.as_str())) {
                failure.push(format!("{at} r{}: mint {s}", rep.repeat));
            }
            if rep
                .breakdown
                .findings
                .iter()
                .any(|f| f.kind == lane_ledger::FindingKind::UnreadableReport)
            {
                failure.push(format!(
                    "{at} r{}: the report could not be read",
                    rep.repeat
                ));
            } else if !rep.measured() {
                neutral.push(format!("{at} r{}: no report", rep.repeat));
            } else if let Some(f) = rep
                .breakdown
                .findings
                .iter()
                .find(|f| f.severity >= Severity::Warning)
            {
                neutral.push(format!(
                    "{at} r{}: {} finding ({})",
                    rep.repeat,
                    f.severity,
                    serde_kind(f)
                ));
            }
        }
        if let Some(d) = &c.determinism {
            if d.verdict == DeterminismVerdict::Unexplained {
                failure.push(format!("{at}: determinism diff unexplained"));
            }
        }
    }
    if c_is_empty(r) {
        neutral.push("no cells were measured".to_owned());
    }
    let conclusion = if !failure.is_empty() {
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

fn c_is_empty(r: &LaneResults) -> bool {
    r.cells.iter().all(|c| c.repeats.is_empty())
}

/// A finding kind's `snake_case` name.
pub(crate) fn serde_kind(f: &lane_ledger::Finding) -> String {
    // The kind is a unit variant serialized as a string; its Debug name is
    // CamelCase, converted here to the documented snake_case.
    let debug = format!("{:?}", f.kind);
    let mut out = String::with_capacity(debug.len() + 4);
    for (i, c) in debug.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
