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

/// Classifies an attempt by its report and the cells it named (its one
/// `artifact`, each of its `entries`, a verdict's compiled graphs): a
/// report that says `minted` is no proof without its cells. A report that
/// names no cell at all, and whose mint left none in `$LANE_ARTIFACTS_DIR`
/// (`own_files`), is `crashed`, as is one whose named cell does not exist
/// (the upstream's parent says the same of "exited 0 but wrote no
/// artifact"); a cell lane refuses to take (too large, outside the mint
/// folder) or whose bytes are not the sha256 the report gives is `failed`:
/// another attempt would end the same way.
pub fn classify_with_cells(
    end: &ProcessEnd,
    report: &ReportState,
    cells: &[&lane_core::ArtifactState],
    own_files: bool,
) -> (MintStatus, String) {
    use lane_core::ArtifactState;
    let (outcome, reason) = classify(end, report);
    if outcome != MintStatus::Minted {
        return (outcome, reason);
    }
    if cells.is_empty() && !own_files {
        return (
            MintStatus::Crashed,
            format!(
                "{reason}, but it names no cell (no `artifact`, no `entries`) and the mint left \
                 none in $LANE_ARTIFACTS_DIR"
            ),
        );
    }
    let what = |named: &str, key: &Option<String>| match key {
        Some(k) => format!("its cell `{k}` (`{named}`)"),
        None => format!("its artifact `{named}`"),
    };
    if let Some(ArtifactState::NotGathered { named, why, key }) =
        cells.iter().find(|c| c.is_missing())
    {
        return (
            MintStatus::Crashed,
            format!("{reason}, but {} was not gathered: {why}", what(named, key)),
        );
    }
    for cell in cells {
        match cell {
            ArtifactState::NotGathered { named, why, key } => {
                return (
                    MintStatus::Failed,
                    format!("{reason}, but {} was not gathered: {why}", what(named, key)),
                )
            }
            ArtifactState::Gathered {
                named,
                key,
                digest_matches: Some(false),
                ..
            } => {
                return (
                    MintStatus::Failed,
                    format!(
                        "{reason}, but {} is not the sha256 the report gives",
                        what(named, key)
                    ),
                )
            }
            ArtifactState::Gathered { .. } => {}
        }
    }
    // A mint on a GPU class claims GPU code: cells that were looked into
    // (packages, not opaque files) and hold none were compiled for the CPU
    // whatever their metadata's `sm` says (gen-worker 0.114-0.126's rig on
    // the H200). The report's `minted` is checked like its digests are.
    if let Some(inspected) = lane_core::results::cells_without_gpu_code(cells.iter().copied()) {
        return (
            MintStatus::Failed,
            format!(
                "{reason}, but {}",
                lane_core::results::no_gpu_code_sentence(inspected)
            ),
        );
    }
    (outcome, reason)
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
    fn a_minted_report_whose_packages_hold_no_gpu_code_failed() {
        let cell = |cubins| lane_core::ArtifactState::Gathered {
            named: "rig/mint/cg-key-v1-a.tar.gz".into(),
            file: "cg-key-v1-a.tar.gz".into(),
            size: 1,
            sha256: "ab".into(),
            digest_matches: Some(true),
            key: Some("cg-key-v1-a".into()),
            cubins,
        };
        let end = ProcessEnd::Exited { code: 0 };
        let (cpu, gpu, opaque) = (cell(Some(0)), cell(Some(16)), cell(None));
        let (o, why) = classify_with_cells(&end, &status("minted"), &[&cpu, &cpu], false);
        assert_eq!(o, MintStatus::Failed);
        assert!(
            why.contains("none of its 2 cell(s) holds GPU code"),
            "{why}"
        );
        // One package with GPU code, or cells lane cannot look into: minted.
        assert_eq!(
            classify_with_cells(&end, &status("minted"), &[&cpu, &gpu], false).0,
            MintStatus::Minted
        );
        assert_eq!(
            classify_with_cells(&end, &status("minted"), &[&opaque], false).0,
            MintStatus::Minted
        );
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
    fn a_minted_report_whose_cells_are_missing_unnamed_or_not_their_sha256_is_no_proof() {
        use lane_core::ArtifactState;
        let exit0 = ProcessEnd::Exited { code: 0 };
        let missing = ArtifactState::NotGathered {
            named: "rig/mint/cell.tar.gz".into(),
            why: "no such file".into(),
            key: None,
        };
        let minted = status("minted");
        let (o, why) = classify_with_cells(&exit0, &minted, &[&missing], false);
        assert_eq!(o, MintStatus::Crashed);
        assert!(why.contains("`rig/mint/cell.tar.gz` was not gathered: no such file"));
        let good = |key: &str| ArtifactState::Gathered {
            named: format!("rig/mint/{key}.tar.gz"),
            file: format!("{key}.tar.gz"),
            size: 1,
            sha256: "ab".into(),
            digest_matches: Some(true),
            key: Some(key.into()),
            cubins: Some(16),
        };
        let wrong = match good("cg-key-v1-b") {
            ArtifactState::Gathered {
                named,
                file,
                size,
                sha256,
                key,
                cubins,
                ..
            } => ArtifactState::Gathered {
                named,
                file,
                size,
                sha256,
                digest_matches: Some(false),
                key,
                cubins,
            },
            other => other,
        };
        let (o, why) = classify_with_cells(&exit0, &minted, &[&good("cg-key-v1-a"), &wrong], false);
        assert_eq!(o, MintStatus::Failed);
        assert!(why.ends_with("but its cell `cg-key-v1-b` (`rig/mint/cg-key-v1-b.tar.gz`) is not the sha256 the report gives"), "{why}");
        // One entry of three missing: crashed, as a missing artifact is.
        let gone = ArtifactState::NotGathered {
            named: "rig/mint/cg-key-v1-c.tar.gz".into(),
            why: "no such file".into(),
            key: Some("cg-key-v1-c".into()),
        };
        let (o, _) = classify_with_cells(&exit0, &minted, &[&good("a"), &gone], false);
        assert_eq!(o, MintStatus::Crashed);
        assert_eq!(
            classify_with_cells(&exit0, &minted, &[&good("a")], false).0,
            MintStatus::Minted
        );
        // Naming no cell at all is no proof, unless the mint kept its own.
        let (o, why) = classify_with_cells(&exit0, &minted, &[], false);
        assert_eq!(o, MintStatus::Crashed);
        assert!(why.ends_with("names no cell (no `artifact`, no `entries`) and the mint left none in $LANE_ARTIFACTS_DIR"), "{why}");
        assert_eq!(
            classify_with_cells(&exit0, &minted, &[], true).0,
            MintStatus::Minted
        );
        // A failed mint stays failed, whatever its cells.
        let (o, _) = classify_with_cells(&exit0, &status("failed"), &[&missing], false);
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
