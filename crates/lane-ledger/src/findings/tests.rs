//! The findings rules on small breakdowns.
use super::*;
use lane_core::{ArtifactState, Isolation, MintRecord, TmpIsolation};

fn record(exit_code: i32, cubins: Option<u64>, tmp: TmpIsolation) -> MintRecord {
    MintRecord {
        cell: "rig-aot".into(),
        gpu: "H200".into(),
        stand_in: None,
        recipe: Recipe::Aot,
        repeat: 1,
        attempt: 1,
        status: MintStatus::Minted,
        reason: "the report says `minted`".into(),
        wall_s: Some(1.0),
        exit_code: Some(exit_code),
        replay: false,
        attempts_wall_s: vec![1.0],
        bundle: None,
        job_s: None,
        stderr_tail: String::new(),
        started_at: None,
        environment: lane_core::EnvFingerprint::default(),
        gathering: lane_core::Gathering {
            entries: vec![ArtifactState::Gathered {
                named: "rig/mint/cg-key-v1-a.tar.gz".into(),
                file: "cg-key-v1-a.tar.gz".into(),
                size: 1,
                sha256: "ab".into(),
                digest_matches: Some(true),
                key: Some("cg-key-v1-a".into()),
                cubins,
            }],
            isolation: Some(Isolation {
                tmp,
                roots: vec!["TMPDIR".into()],
                shared: vec!["/tmp/tensorhub-cache (...)".into()],
                outside: Vec::new(),
                not_empty_at_start: None,
            }),
            ..lane_core::Gathering::default()
        },
    }
}

#[test]
fn a_records_exit_cells_and_isolation_are_findings() {
    let private = TmpIsolation::Private {
        how: "mount namespace".into(),
    };
    assert!(record(0, Some(16), private.clone())
        .gathering
        .isolation
        .is_some());
    let kinds = |r: &MintRecord| -> Vec<FindingKind> {
        record_findings(r).iter().map(|f| f.kind).collect()
    };
    // A clean record: nothing (its isolation's `shared` only counts on a shared /tmp).
    assert!(kinds(&record(0, Some(16), private.clone())).is_empty());
    let r = record(
        1,
        Some(0),
        TmpIsolation::Shared {
            why: "no unshare".into(),
        },
    );
    assert_eq!(
        kinds(&r),
        [
            FindingKind::CommandFailedAfterMinted,
            FindingKind::NoGpuCode,
            FindingKind::ColdnessNotGuaranteed
        ]
    );
    let all = record_findings(&r);
    assert!(all[0].message.contains("pgw#1352"), "{}", all[0].message);
    assert!(all[1]
        .message
        .starts_with("minted on H200 but none of its 1 cell(s) holds GPU code"));
    assert!(
        all[2].message.contains("/tmp/tensorhub-cache"),
        "{}",
        all[2].message
    );
    assert!(all.iter().all(|f| f.severity == Severity::Warning));
    // A cell lane could not look into says nothing of GPU code.
    assert!(kinds(&record(0, None, private)).is_empty());
}

#[test]
fn a_card_the_lane_file_lets_stand_in_is_named_not_failed() {
    let mut r = record(0, Some(16), TmpIsolation::Private { how: "x".into() });
    r.gpu = "H200".into();
    r.environment.gpu_model = Some("NVIDIA H100 80GB HBM3".into());
    let kinds = |r: &MintRecord| -> Vec<(FindingKind, Severity)> {
        record_findings(r)
            .into_iter()
            .filter(|f| matches!(f.kind, FindingKind::CardNotClass | FindingKind::StandIn))
            .map(|f| (f.kind, f.severity))
            .collect()
    };
    assert_eq!(kinds(&r), [(FindingKind::CardNotClass, Severity::Error)]);
    r.stand_in = Some("H100".into());
    assert_eq!(kinds(&r), [(FindingKind::StandIn, Severity::Warning)]);
    let f = record_findings(&r)
        .into_iter()
        .find(|f| f.kind == FindingKind::StandIn)
        .unwrap();
    assert!(
        f.message
            .starts_with("NVIDIA H100 80GB HBM3 stands in for the slot's GPU class H200"),
        "{}",
        f.message
    );
}
