//! Each gen-worker era's real H200 capture (`tests/data/gw-eras`), read as
//! it is: its era, a ledger that reconciles with no invented residual and
//! no false statement about entries, and the findings each era calls for.

use lane_ledger::breakdown::{AotPath, Beside};
use lane_ledger::report::{parse_share_report, EraLine, ShareReport};
use lane_ledger::{from_report_beside, parse_report, FindingKind, MintBreakdown, Severity};
use lane_testkit::data::{eras, read};

/// The share reports of a recorded rig run, by name.
fn shares(run: &str) -> Vec<(String, ShareReport)> {
    let dir = eras(&format!("{run}/rig/mint/compile-pool"));
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path().join("report.json");
        if p.is_file() {
            let name = p
                .parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.push((name, parse_share_report(&read(&p)).unwrap()));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The rig run's breakdown, with its shares when `with_shares`.
fn rig(run: &str, with_shares: bool) -> MintBreakdown {
    let report = parse_report(&read(eras(&format!("{run}/rig/mint/report.json")))).unwrap();
    let shares = if with_shares { shares(run) } else { Vec::new() };
    from_report_beside(
        run,
        &report,
        Beside {
            shares: &shares,
            trace: None,
            packages: &[],
        },
    )
}

/// The 0.127.2 run: its verdict, with its TORCH_TRACE logs merged and its
/// compiled graphs' packages beside them.
fn compile(with_trace: bool) -> MintBreakdown {
    super::eras_127::compile_run("v0.127.2/r1", with_trace, with_trace)
}

fn kinds(b: &MintBreakdown) -> Vec<(Severity, FindingKind)> {
    b.findings.iter().map(|f| (f.severity, f.kind)).collect()
}

/// Every reconciliation check holds, and no finding is an error.
fn reconciles(b: &MintBreakdown) {
    let failing: Vec<_> = b
        .reconciliation
        .checks
        .iter()
        .filter(|c| !c.holds)
        .collect();
    assert!(failing.is_empty(), "{}: {failing:?}", b.source);
}

#[test]
fn each_capture_is_read_as_its_era() {
    let era = |b: &MintBreakdown| {
        let e = b.era.as_ref().expect("an era");
        (e.line, e.since)
    };
    assert_eq!(
        era(&rig("v0.100.1/r1", false)),
        (EraLine::V095, Some("0.100"))
    );
    assert_eq!(
        era(&rig("v0.114.3/r1", false)),
        (EraLine::V114, Some("0.114.3"))
    );
    assert_eq!(
        era(&rig("v0.126.3/r1", false)),
        (EraLine::V114, Some("0.124"))
    );
    assert_eq!(
        era(&rig("v0.126.3/r2", false)),
        (EraLine::V114, Some("0.124"))
    );
    assert_eq!(era(&compile(false)), (EraLine::V127, None));
    assert_eq!(
        rig("v0.126.3/r1", false).era.unwrap().label(),
        "0.114-0.126 (0.124 on)"
    );
    // The 0.93 line's real reports are still read as theirs.
    let old = parse_report(&read(lane_testkit::data::gw(
        "h200-run/results/rig-aot/H200/r1/report.json",
    )))
    .unwrap();
    assert_eq!(old.era.unwrap().line, EraLine::V093);
}

#[test]
fn v0_100_1_serial_table_reconciles_with_its_autotune_overlay() {
    let b = rig("v0.100.1/r1", false);
    reconciles(&b);
    let aot = b.aot.as_ref().unwrap();
    assert_eq!(aot.path, AotPath::Serial);
    let mint = aot.mint.as_ref().unwrap();
    assert!(mint.residual.seconds.abs() < 0.5, "{mint:?}");
    // autotune_s (0.94.1 on) and triton_s nest inside the members: overlays.
    let overlays: Vec<&str> = b.overlays.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(overlays, ["triton_s", "autotune_s"]);
    assert!(b.unknown_keys.is_empty(), "{:?}", b.unknown_keys);
    assert_eq!(
        kinds(&b),
        [(Severity::Warning, FindingKind::PoolUnderwidth)]
    );
}

#[test]
fn v0_114_3_a_table_with_no_rows_is_the_upstreams_defect_not_no_entry_and_invents_no_residual() {
    let b = rig("v0.114.3/r1", false);
    reconciles(&b);
    let aot = b.aot.as_ref().unwrap();
    // The pool ran: its path, whatever K and whatever the table lists.
    assert_eq!(aot.path, AotPath::ClassPool);
    let m = aot.missing_rows.as_ref().unwrap();
    assert_eq!((m.packed, m.declared, m.from_shares), (Some(3), Some(3), 0));
    assert_eq!(b.packed.len(), 3);
    // total_s is the pool's: seal_seed_s + resume_admit_s + pool_wall_s,
    // and lane's mint_other_s holds 0.091 s, not 100 %.
    let mint = aot.mint.as_ref().unwrap();
    let members: Vec<&str> = mint.members.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(members, ["seal_seed_s", "resume_admit_s", "pool_wall_s"]);
    assert!((mint.residual.seconds - 0.091).abs() < 1e-9, "{mint:?}");
    assert!(
        aot.beside_mint.is_empty(),
        "sums over no row are not shown as measurements"
    );
    let note = |name: &str| {
        aot.totals
            .iter()
            .find(|t| t.fact.name == name)
            .and_then(|t| t.note.clone())
            .unwrap()
    };
    for name in ["export_s", "compile_s", "warm_s"] {
        assert!(
            note(name).starts_with("a sum over no row, not a measurement"),
            "{name}: {}",
            note(name)
        );
    }
    // Nothing per class without the share reports: absent, not 0.
    assert!(b.entries.is_empty() && b.compile_partition.is_none());
    let defect = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::UpstreamTableDefect)
        .unwrap();
    assert_eq!(defect.severity, Severity::Info);
    assert!(
        defect.message.contains("pgw#1356") && defect.message.contains("not \"no entry compiled\"")
    );
    assert!(
        defect.message.contains("were not read with it"),
        "{}",
        defect.message
    );
    assert!(
        !b.findings.iter().any(|f| f.severity == Severity::Error),
        "{:?}",
        b.findings
    );
}

#[test]
fn v0_114_3_per_class_times_come_from_the_share_report_split_by_each_class() {
    let b = rig("v0.114.3/r1", true);
    reconciles(&b);
    let aot = b.aot.as_ref().unwrap();
    assert_eq!(aot.missing_rows.as_ref().unwrap().from_shares, 3);
    let classes: Vec<(&str, Option<f64>)> = b
        .entries
        .iter()
        .map(|e| (e.name.as_str(), e.compile.as_ref().map(|p| p.total.seconds)))
        .collect();
    assert_eq!(
        classes,
        [
            ("unet/B=1", Some(68.27)),
            ("unet/B=2", Some(11.04)),
            ("unet/B=4", Some(9.95))
        ]
    );
    // The share's child partition reconciles with its own residual ...
    let share = &aot.shares[0];
    let child = share.child_wall.as_ref().unwrap();
    assert_eq!(child.residual.reported_s, Some(0.129));
    assert!((child.residual.seconds - 0.129).abs() < 0.002);
    // ... and compile_wall_s is split by the classes' own members: its
    // written compile_other_s (79.794 s) was taken over the last class only.
    let cw = b.compile_partition.as_ref().unwrap();
    assert_eq!(cw.total.seconds, 89.26);
    assert!((cw.residual.seconds - 1.624).abs() < 0.002, "{cw:?}");
    assert_eq!(cw.residual.reported_s, None);
    assert!(kinds(&b).contains(&(Severity::Info, FindingKind::SharePartitionLastClass)));
    assert!(
        !b.findings.iter().any(|f| f.severity == Severity::Error),
        "{:?}",
        b.findings
    );
}

#[test]
fn v0_126_3_r1_reads_the_rebuilt_table_and_checks_it_against_the_share() {
    let b = rig("v0.126.3/r1", true);
    reconciles(&b);
    assert!(b
        .reconciliation
        .checks
        .iter()
        .any(|c| c.what == "entry unet/B=1: compile_s = share-000's class row"));
    assert!(b
        .reconciliation
        .checks
        .iter()
        .any(|c| c.what == "phases.lowering_s = sum over entries"));
    assert!(b
        .reconciliation
        .checks
        .iter()
        .any(|c| c.what == "phases.inductor_total_s = sum over entries"));
    let aot = b.aot.as_ref().unwrap();
    assert_eq!(aot.posture.compiler_owner.as_deref(), Some("torchcg"));
    assert!(aot.missing_rows.is_none());
    assert!(b.unknown_keys.is_empty(), "{:?}", b.unknown_keys);
    // Without the share: the table's own classes, summed.
    let alone = rig("v0.126.3/r1", false);
    reconciles(&alone);
    let p = alone.compile_partition.as_ref().unwrap();
    assert_eq!(p.total.name, "compile_s (sum over 3 entries)");
    assert!(
        !alone
            .findings
            .iter()
            .any(|f| f.severity >= Severity::Warning && f.kind != FindingKind::PoolUnderwidth),
        "{:?}",
        alone.findings
    );
}

#[test]
fn v0_126_3_r2_resolved_every_class_from_the_cache_so_it_is_not_cold() {
    let b = rig("v0.126.3/r2", true);
    reconciles(&b);
    let f = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::NotCold)
        .unwrap();
    assert_eq!(f.severity, Severity::Error);
    assert!(
        f.message
            .starts_with("3 of 3 class(es) were not compiled by this repeat: unet/B=1 (reuse_s 0.064 s, compile_s 0)"),
        "{}",
        f.message
    );
    // The seal's split is set against the child's wall, not a compile of 0.
    assert!(
        !b.findings
            .iter()
            .any(|f| f.kind == FindingKind::OverlayExceedsTotal),
        "{:?}",
        b.findings
    );
}

#[test]
fn v0_127_2_the_verdict_is_the_ledger_and_its_phases_are_torch_trace() {
    let alone = compile(false);
    assert_eq!(alone.status.as_ref().map(|s| s.as_str()), Some("minted"));
    let rows: Vec<(String, f64)> = alone
        .phases
        .iter()
        .map(|p| (p.name[..16].to_owned(), p.seconds))
        .collect();
    assert_eq!(
        rows,
        [
            ("cg-graph-v1-f147".to_owned(), 46.495),
            ("cg-graph-v1-bc4b".to_owned(), 34.177),
            ("cg-graph-v1-dec4".to_owned(), 41.612)
        ]
    );
    assert_eq!(alone.total_from, Some("sum_of_phases"));
    // No phase split in a verdict: absent, never 0.
    assert!(alone.compile_partition.is_none() && alone.trace.is_none());
    let b = compile(true);
    reconciles(&b);
    let p = b.compile_partition.as_ref().unwrap();
    assert_eq!(p.total.name, "compile_fx_aot");
    assert_eq!(b.trace.as_ref().unwrap().compiles_total, 3);
    // The one thing worth a look: the walls' part no trace times, named.
    let warnings: Vec<_> = b
        .findings
        .iter()
        .filter(|f| f.severity >= Severity::Warning)
        .map(|f| (f.kind, f.subject.as_deref()))
        .collect();
    assert_eq!(
        warnings,
        [(
            FindingKind::ResidualAboveThreshold,
            Some("the specializations' walls: outside_compile_s")
        )]
    );
}

#[test]
fn eras_ledger_json() {
    for (name, b) in [
        ("v0_100_1_r1", rig("v0.100.1/r1", false)),
        ("v0_114_3_r1", rig("v0.114.3/r1", false)),
        ("v0_114_3_r1_with_shares", rig("v0.114.3/r1", true)),
        ("v0_126_3_r1_with_shares", rig("v0.126.3/r1", true)),
        ("v0_126_3_r2_with_shares", rig("v0.126.3/r2", true)),
        ("v0_127_2_r1_with_trace", compile(true)),
    ] {
        insta::assert_json_snapshot!(name, b);
    }
}

#[test]
fn the_pooled_partition_is_the_pools_whenever_the_pool_ran() {
    // An aborted pooled mint before `export_all_s`: the pool booked its wall.
    let r = parse_report(
        br#"{"status":"failed","cell_key":"","mint_phases":{"v":1,"totals":{"total_s":10.0},
            "pool":{"entry_workers":2,"pool_wall_s":9.0,"seal_seed_s":0.5},
            "entries":{"u/B=1":{"export_s":0.1}}}}"#,
    )
    .unwrap();
    let b = lane_ledger::from_report("aborted", &r);
    let aot = b.aot.as_ref().unwrap();
    assert_eq!(aot.path, AotPath::Pooled);
    let mint = aot.mint.as_ref().unwrap();
    assert_eq!(mint.member("pool_wall_s"), Some(9.0));
    assert!((mint.residual.seconds - 0.5).abs() < 1e-9, "{mint:?}");
}
