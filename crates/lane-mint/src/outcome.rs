//! How a mint ended, and whether it is worth another attempt: the retry
//! table of the upstream's report statuses.
//!
//! | outcome | retried |
//! | --- | --- |
//! | `minted`, `abandoned` | never (done) |
//! | `refused`, `failed` | never: deterministic, another attempt gives the same answer |
//! | `crashed` (no report, a signal, a timeout, or the report says so) | `retry.crashed` times (default once) |
//! | `resource` | `retry.resource` times, after `retry.resource_backoff_s` |

use lane_file::RetryPolicy;
use serde::{Deserialize, Serialize};

/// How one attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A sealed cell.
    Minted,
    /// Deterministic refusal; never retried.
    Refused,
    /// The child caught and named the error; never retried.
    Failed,
    /// A shortfall; retried after a backoff.
    Resource,
    /// No classification (no report, killed, timed out); worth one more attempt.
    Crashed,
    /// Not a failure: the mint was abandoned on purpose.
    Abandoned,
}

impl Outcome {
    /// The outcome named by a report's `status`.
    pub fn from_status(status: &str) -> Option<Outcome> {
        Some(match status {
            "minted" => Outcome::Minted,
            "refused" => Outcome::Refused,
            "failed" => Outcome::Failed,
            "resource" => Outcome::Resource,
            "crashed" => Outcome::Crashed,
            "abandoned" => Outcome::Abandoned,
            _ => return None,
        })
    }
    /// Whether the outcome counts as proof (green).
    pub fn is_green(self) -> bool {
        matches!(self, Outcome::Minted)
    }
}

/// What ended the child process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ProcessEnd {
    /// It exited with a code.
    Exited {
        /// The code.
        code: i32,
    },
    /// A signal ended it.
    Signaled {
        /// The signal number.
        signal: i32,
    },
    /// It ran past the timeout and its process group was killed.
    TimedOut {
        /// The timeout in seconds.
        after_s: u64,
    },
    /// It could not be started.
    SpawnFailed {
        /// Why.
        error: String,
    },
}

/// What the agent read off the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ReportState {
    /// No report was written.
    Absent,
    /// The report is not valid JSON or has no usable `status`.
    Invalid {
        /// Why.
        reason: String,
    },
    /// The report is for another cell than the one minted.
    WrongCell {
        /// The cell the report names.
        found: String,
    },
    /// A readable report with this status.
    Status {
        /// The `status` field (authoritative).
        status: String,
        /// The report's `detail`: why it ended (raw; bounded when shown).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
        /// The report's `phase`: where it ended.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        phase: Option<String>,
    },
}

/// `the report says `failed` (phase `load`): AttributeError: ...`: the
/// status, and the report's own phase and detail, escaped and bounded.
fn says(status: &str, detail: Option<&str>, phase: Option<&str>) -> String {
    use crate::report::{bounded_text, DETAIL_CHARS};
    let mut s = format!("the report says `{}`", bounded_text(status, 40));
    if let Some(p) = phase {
        s.push_str(&format!(" (phase `{}`)", bounded_text(p, 80)));
    }
    if let Some(d) = detail {
        s.push_str(": ");
        s.push_str(&bounded_text(d, DETAIL_CHARS));
    }
    s
}

/// Classifies an attempt, with the reason in words.
pub fn classify(end: &ProcessEnd, report: &ReportState) -> (Outcome, String) {
    match (end, report) {
        (ProcessEnd::TimedOut { after_s }, _) => (
            Outcome::Crashed,
            format!("timed out after {after_s} s; its process group was killed"),
        ),
        (ProcessEnd::SpawnFailed { error }, _) => {
            (Outcome::Failed, format!("could not start: {error}"))
        }
        (
            _,
            ReportState::Status {
                status,
                detail,
                phase,
            },
        ) => match Outcome::from_status(status) {
            Some(o) => (o, says(status, detail.as_deref(), phase.as_deref())),
            None => (
                Outcome::Crashed,
                format!(
                    "the report's status `{}` is not one lane knows{}",
                    crate::report::bounded_text(status, 40),
                    detail
                        .as_deref()
                        .map(|d| format!(
                            ": {}",
                            crate::report::bounded_text(d, crate::report::DETAIL_CHARS)
                        ))
                        .unwrap_or_default()
                ),
            ),
        },
        (_, ReportState::WrongCell { found }) => (
            Outcome::Failed,
            format!("the report is for cell `{found}`, not this one"),
        ),
        (_, ReportState::Invalid { reason }) => (
            Outcome::Crashed,
            format!("the report is unreadable: {reason}"),
        ),
        (ProcessEnd::Exited { code }, ReportState::Absent) => (
            Outcome::Crashed,
            format!("exited {code} without writing a report"),
        ),
        (ProcessEnd::Signaled { signal }, ReportState::Absent) => (
            Outcome::Crashed,
            format!("killed by signal {signal} without writing a report"),
        ),
    }
}

/// Classifies an attempt whose report named an artifact: a report that
/// says `minted` but whose cell lane could not gather is no proof. A cell
/// that does not exist is `crashed` (the upstream's parent says the same of
/// "exited 0 but wrote no artifact"); one lane refuses to take (too large,
/// outside the mint folder) or whose bytes are not the report's `digest` is
/// `failed`: another attempt would end the same way.
pub fn classify_with_artifact(
    end: &ProcessEnd,
    report: &ReportState,
    artifact: Option<&crate::report::ArtifactState>,
) -> (Outcome, String) {
    use crate::report::ArtifactState;
    let (outcome, reason) = classify(end, report);
    if outcome != Outcome::Minted {
        return (outcome, reason);
    }
    match artifact {
        Some(ArtifactState::NotGathered { named, why }) => (
            if why == "no such file" {
                Outcome::Crashed
            } else {
                Outcome::Failed
            },
            format!("{reason}, but its artifact `{named}` was not gathered: {why}"),
        ),
        Some(ArtifactState::Gathered {
            named,
            digest_matches: Some(false),
            ..
        }) => (
            Outcome::Failed,
            format!("{reason}, but its artifact `{named}` is not the report's `digest`"),
        ),
        _ => (outcome, reason),
    }
}

/// Whether to try again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum RetryDecision {
    /// This is the final attempt.
    No,
    /// Try again now.
    Now,
    /// Try again after this many seconds.
    After {
        /// Seconds to wait.
        seconds: u64,
    },
}

/// The retry table: `attempt` is the attempt that just ended (from 1).
pub fn retry(outcome: Outcome, attempt: u32, policy: &RetryPolicy) -> RetryDecision {
    let retries_done = attempt.saturating_sub(1);
    match outcome {
        Outcome::Crashed if retries_done < policy.crashed => RetryDecision::Now,
        Outcome::Resource if retries_done < policy.resource => RetryDecision::After {
            seconds: policy.resource_backoff_s,
        },
        _ => RetryDecision::No,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(s: &str) -> ReportState {
        ReportState::Status {
            status: s.into(),
            detail: None,
            phase: None,
        }
    }

    #[test]
    fn reasons_carry_the_reports_detail_and_phase_escaped_and_bounded() {
        let r = ReportState::Status {
            status: "refused".into(),
            detail: Some(format!(
                "HostIsaError: \x1b[2Jcpu lacks avx512{}",
                "x".repeat(900)
            )),
            phase: Some("load".into()),
        };
        let (o, why) = classify(&ProcessEnd::Exited { code: 2 }, &r);
        assert_eq!(o, Outcome::Refused);
        assert!(
            why.starts_with(
                "the report says `refused` (phase `load`): HostIsaError: \\u{1b}[2Jcpu"
            ),
            "{why}"
        );
        assert!(!why.contains('\x1b'));
        assert!(why.chars().count() < 520, "bounded: {}", why.len());
    }

    #[test]
    fn a_minted_report_whose_artifact_is_missing_or_not_its_digest_is_no_proof() {
        use crate::report::ArtifactState;
        let exit0 = ProcessEnd::Exited { code: 0 };
        let missing = ArtifactState::NotGathered {
            named: "rig/mint/cell.tar.gz".into(),
            why: "no such file".into(),
        };
        let (o, why) = classify_with_artifact(&exit0, &status("minted"), Some(&missing));
        assert_eq!(o, Outcome::Crashed);
        assert!(why.contains("`rig/mint/cell.tar.gz` was not gathered: no such file"));
        let wrong = ArtifactState::Gathered {
            named: "c".into(),
            file: "c".into(),
            size: 1,
            sha256: "ab".into(),
            digest_matches: Some(false),
        };
        let (o, _) = classify_with_artifact(&exit0, &status("minted"), Some(&wrong));
        assert_eq!(o, Outcome::Failed);
        // A failed mint stays failed, whatever its artifact.
        let (o, _) = classify_with_artifact(&exit0, &status("failed"), Some(&missing));
        assert_eq!(o, Outcome::Failed);
    }

    #[test]
    fn the_retry_table_per_status() {
        let p = RetryPolicy::default();
        let exit0 = ProcessEnd::Exited { code: 0 };
        let cases = [
            ("minted", Outcome::Minted, RetryDecision::No),
            ("refused", Outcome::Refused, RetryDecision::No),
            ("failed", Outcome::Failed, RetryDecision::No),
            (
                "resource",
                Outcome::Resource,
                RetryDecision::After { seconds: 60 },
            ),
            ("crashed", Outcome::Crashed, RetryDecision::Now),
            ("abandoned", Outcome::Abandoned, RetryDecision::No),
        ];
        for (s, o, r) in cases {
            let (got, _) = classify(&exit0, &status(s));
            assert_eq!(got, o, "{s}");
            assert_eq!(retry(got, 1, &p), r, "{s}");
        }
        // Crashed is worth exactly one more attempt by default.
        assert_eq!(retry(Outcome::Crashed, 2, &p), RetryDecision::No);
        assert_eq!(retry(Outcome::Resource, 2, &p), RetryDecision::No);
    }

    #[test]
    fn no_report_timeouts_and_signals_are_crashes_named() {
        let (o, why) = classify(&ProcessEnd::Exited { code: 3 }, &ReportState::Absent);
        assert_eq!(
            (o, why.as_str()),
            (Outcome::Crashed, "exited 3 without writing a report")
        );
        let (o, why) = classify(&ProcessEnd::TimedOut { after_s: 5 }, &status("minted"));
        assert_eq!(o, Outcome::Crashed);
        assert!(why.contains("timed out after 5 s"));
        let (o, _) = classify(&ProcessEnd::Signaled { signal: 9 }, &ReportState::Absent);
        assert_eq!(o, Outcome::Crashed);
        let (o, why) = classify(
            &ProcessEnd::Exited { code: 0 },
            &ReportState::WrongCell { found: "x".into() },
        );
        assert_eq!(o, Outcome::Failed);
        assert!(why.contains("cell `x`"));
        let (o, _) = classify(&ProcessEnd::Exited { code: 0 }, &status("weird"));
        assert_eq!(o, Outcome::Crashed);
    }
}
