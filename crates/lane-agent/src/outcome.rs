//! Classifying how an attempt ended: the process's end, the report's
//! `status` (authoritative), and the cell it names, into one
//! [`MintStatus`] with the reason in words. The vocabulary and the retry
//! table are `lane_core`'s.

use lane_core::{MintStatus, ProcessEnd, ReportState};

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
pub fn classify(end: &ProcessEnd, report: &ReportState) -> (MintStatus, String) {
    match (end, report) {
        (ProcessEnd::TimedOut { after_s }, _) => (
            MintStatus::Crashed,
            format!("timed out after {after_s} s; its process group was killed"),
        ),
        (ProcessEnd::SpawnFailed { error }, _) => {
            (MintStatus::Failed, format!("could not start: {error}"))
        }
        (
            _,
            ReportState::Status {
                status,
                detail,
                phase,
            },
        ) => match MintStatus::parse(status) {
            Some(o) => (o, says(status, detail.as_deref(), phase.as_deref())),
            None => (
                MintStatus::Crashed,
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
            MintStatus::Failed,
            format!("the report is for cell `{found}`, not this one"),
        ),
        (_, ReportState::Invalid { reason }) => (
            MintStatus::Crashed,
            format!("the report is unreadable: {reason}"),
        ),
        (ProcessEnd::Exited { code }, ReportState::Absent) => (
            MintStatus::Crashed,
            format!("exited {code} without writing a report"),
        ),
        (ProcessEnd::Signaled { signal }, ReportState::Absent) => (
            MintStatus::Crashed,
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
    artifact: Option<&lane_core::ArtifactState>,
) -> (MintStatus, String) {
    use lane_core::ArtifactState;
    let (outcome, reason) = classify(end, report);
    if outcome != MintStatus::Minted {
        return (outcome, reason);
    }
    match artifact {
        Some(ArtifactState::NotGathered { named, why }) => (
            if why == "no such file" {
                MintStatus::Crashed
            } else {
                MintStatus::Failed
            },
            format!("{reason}, but its artifact `{named}` was not gathered: {why}"),
        ),
        Some(ArtifactState::Gathered {
            named,
            digest_matches: Some(false),
            ..
        }) => (
            MintStatus::Failed,
            format!("{reason}, but its artifact `{named}` is not the report's `digest`"),
        ),
        _ => (outcome, reason),
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
        assert_eq!(o, MintStatus::Refused);
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
        use lane_core::ArtifactState;
        let exit0 = ProcessEnd::Exited { code: 0 };
        let missing = ArtifactState::NotGathered {
            named: "rig/mint/cell.tar.gz".into(),
            why: "no such file".into(),
        };
        let (o, why) = classify_with_artifact(&exit0, &status("minted"), Some(&missing));
        assert_eq!(o, MintStatus::Crashed);
        assert!(why.contains("`rig/mint/cell.tar.gz` was not gathered: no such file"));
        let wrong = ArtifactState::Gathered {
            named: "c".into(),
            file: "c".into(),
            size: 1,
            sha256: "ab".into(),
            digest_matches: Some(false),
        };
        let (o, _) = classify_with_artifact(&exit0, &status("minted"), Some(&wrong));
        assert_eq!(o, MintStatus::Failed);
        // A failed mint stays failed, whatever its artifact.
        let (o, _) = classify_with_artifact(&exit0, &status("failed"), Some(&missing));
        assert_eq!(o, MintStatus::Failed);
    }

    #[test]
    fn every_report_status_classifies_as_itself() {
        let exit0 = ProcessEnd::Exited { code: 0 };
        for s in MintStatus::ALL {
            assert_eq!(classify(&exit0, &status(s.as_str())).0, s, "{s}");
        }
    }

    #[test]
    fn no_report_timeouts_and_signals_are_crashes_named() {
        let (o, why) = classify(&ProcessEnd::Exited { code: 3 }, &ReportState::Absent);
        assert_eq!(
            (o, why.as_str()),
            (MintStatus::Crashed, "exited 3 without writing a report")
        );
        let (o, why) = classify(&ProcessEnd::TimedOut { after_s: 5 }, &status("minted"));
        assert_eq!(o, MintStatus::Crashed);
        assert!(why.contains("timed out after 5 s"));
        let (o, _) = classify(&ProcessEnd::Signaled { signal: 9 }, &ReportState::Absent);
        assert_eq!(o, MintStatus::Crashed);
        let (o, why) = classify(
            &ProcessEnd::Exited { code: 0 },
            &ReportState::WrongCell { found: "x".into() },
        );
        assert_eq!(o, MintStatus::Failed);
        assert!(why.contains("cell `x`"));
        let (o, _) = classify(&ProcessEnd::Exited { code: 0 }, &status("weird"));
        assert_eq!(o, MintStatus::Crashed);
    }
}
