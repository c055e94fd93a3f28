//! The 0.127+ era on its real recordings: `gen-worker compile --verdict`
//! with its mint children's TORCH_TRACE logs (`v0.127.2/r1`) and the same
//! era through `lane mint` (`lanes/v0.127.2`, whose logs and graphs were
//! dropped for size). Each specialization's wall is its tied compile plus
//! the named residual, and each compile record is tied by what its log
//! dumped, never by order.

use lane_ledger::breakdown::{GraphPackage, OUTSIDE_COMPILE};
use lane_ledger::{
    from_report_beside, parse_report, parse_trace, Beside, FindingKind, MintBreakdown, Severity,
    TraceMetrics, TraceOptions,
};
use lane_testkit::data::{eras, read, zip_members};

/// The run's TORCH_TRACE logs, each labelled with its file name, merged.
fn trace(run: &str) -> TraceMetrics {
    let options = TraceOptions::default();
    let mut merged: Option<TraceMetrics> = None;
    let mut logs: Vec<_> = std::fs::read_dir(eras(&format!("{run}/trace")))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    logs.sort();
    for p in logs {
        let mut m = parse_trace(
            std::io::BufReader::new(std::fs::File::open(&p).unwrap()),
            &options,
        )
        .unwrap();
        m.label(&p.file_name().unwrap().to_string_lossy());
        match merged.as_mut() {
            None => merged = Some(m),
            Some(all) => all.merge(m, &options),
        }
    }
    merged.unwrap()
}

/// The compiled graphs `gen-worker compile` left
/// (`compiled-graphs/<graph[:16]>/model.pt2`), as their member paths.
fn packages(run: &str) -> Vec<GraphPackage> {
    let mut dirs: Vec<_> = std::fs::read_dir(eras(&format!("{run}/compiled-graphs")))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|d| GraphPackage {
            source: d.file_name().unwrap().to_string_lossy().into_owned(),
            members: zip_members(d.join("model.pt2")),
        })
        .collect()
}

/// A recorded 0.127 run's breakdown: its verdict, with its logs and its
/// packages when asked.
pub(crate) fn compile_run(run: &str, with_trace: bool, with_packages: bool) -> MintBreakdown {
    let report = parse_report(&read(eras(&format!("{run}/verdict.json")))).unwrap();
    let trace = with_trace.then(|| trace(run));
    let packages = if with_packages {
        packages(run)
    } else {
        Vec::new()
    };
    from_report_beside(
        run,
        &report,
        Beside {
            shares: &[],
            trace: trace.as_ref(),
            packages: &packages,
        },
    )
}

/// Every specialization's partition: members plus the named residual are
/// its wall, exactly as summed.
fn every_wall_is_its_partition_plus_its_residual(b: &MintBreakdown) -> usize {
    let v = b.verdict.as_ref().unwrap();
    let l = b.verdict_ledger.as_ref().unwrap();
    assert_eq!(l.specializations.len(), v.specializations.len());
    let mut n = 0;
    for (s, spec) in l.specializations.iter().zip(&v.specializations) {
        assert_eq!(s.graph, spec.graph);
        let p = s.partition.as_ref().expect("a partition of every wall");
        assert_eq!(Some(p.total.seconds), spec.wall_s, "{}", s.graph);
        assert_eq!(p.residual.name, OUTSIDE_COMPILE);
        let back = p.members_sum() + p.residual.seconds;
        assert!(
            (back - p.total.seconds).abs() < 1e-9,
            "{}: {back} against {}",
            s.graph,
            p.total.seconds
        );
        n += 1;
    }
    n
}

#[test]
fn a_0127_wall_is_its_partition_plus_a_named_residual() {
    let b = compile_run("v0.127.2/r1", true, true);
    assert_eq!(every_wall_is_its_partition_plus_its_residual(&b), 3);
    let l = b.verdict_ledger.as_ref().unwrap();
    // Each child's compile is timed by its own log; the rest of its wall
    // (start, export load, package, publish, witness) is the residual,
    // named and positive here, not vanished.
    let split: Vec<(String, f64, f64)> = l
        .specializations
        .iter()
        .map(|s| {
            let p = s.partition.as_ref().unwrap();
            (
                s.graph[..16].to_owned(),
                p.member("compile_s").expect("compile_s measured"),
                p.residual.seconds,
            )
        })
        .collect();
    let expected = [
        ("cg-graph-v1-f147", 27.763087, 46.495 - 27.763087),
        ("cg-graph-v1-bc4b", 18.851667, 34.177 - 18.851667),
        ("cg-graph-v1-dec4", 24.260658, 41.612 - 24.260658),
    ];
    for ((g, c, r), (eg, ec, er)) in split.iter().zip(expected) {
        assert_eq!(g, eg);
        assert!((c - ec).abs() < 1e-9 && (r - er).abs() < 1e-9, "{split:?}");
        assert!(*r > 0.0);
    }
    let whole = l.whole.as_ref().expect("every wall has its compile");
    assert!((whole.total.seconds - 122.284).abs() < 1e-9);
    assert!((whole.members_sum() + whole.residual.seconds - whole.total.seconds).abs() < 1e-9);
    // About two fifths of the walls is outside the traced compile: said.
    assert!(b
        .findings
        .iter()
        .any(|f| f.kind == FindingKind::ResidualAboveThreshold
            && f.subject.as_deref() == Some("the specializations' walls: outside_compile_s")));
    assert!(!b
        .findings
        .iter()
        .any(|f| f.kind == FindingKind::NegativeResidual));
}

#[test]
fn a_0127_wall_through_lane_mint_without_its_trace_keeps_compile_unobserved() {
    for slot in ["r1", "r2"] {
        let path = eras(&format!(
            "lanes/v0.127.2/results/compile-toy/H200/{slot}/report.json"
        ));
        let b = lane_ledger::from_report(slot, &parse_report(&read(path)).unwrap());
        assert_eq!(every_wall_is_its_partition_plus_its_residual(&b), 3);
        let l = b.verdict_ledger.as_ref().unwrap();
        for s in &l.specializations {
            let p = s.partition.as_ref().unwrap();
            // Not measured: absent and listed, never a 0.0 member.
            assert!(p.members.is_empty() && p.unobserved == ["compile_s"]);
            assert_eq!(p.residual.seconds, p.total.seconds);
        }
        assert!(l.whole.is_none());
        // No trace was read, so nothing is said to be untied.
        assert!(!b
            .findings
            .iter()
            .any(|f| f.kind == FindingKind::TraceNotTied));
    }
}

#[test]
fn trace_compile_rows_are_tied_to_their_specialisation_by_what_their_logs_dumped() {
    let b = compile_run("v0.127.2/r1", true, true);
    let l = b.verdict_ledger.as_ref().unwrap();
    let tied: Vec<(String, Vec<String>)> = l
        .specializations
        .iter()
        .map(|s| {
            (
                s.graph[..16].to_owned(),
                s.compiles
                    .iter()
                    .map(|c| c.source.clone().unwrap_or_default())
                    .collect(),
            )
        })
        .collect();
    // The logs sort cwor5ek5, p1l24qrc, yfkdagud: by order the first
    // specialization would get cwor5ek5, which compiled dec4's graph.
    assert_eq!(
        tied,
        [
            (
                "cg-graph-v1-f147".to_owned(),
                vec!["dedicated_log_torch_trace_p1l24qrc.log".to_owned()]
            ),
            (
                "cg-graph-v1-bc4b".to_owned(),
                vec!["dedicated_log_torch_trace_yfkdagud.log".to_owned()]
            ),
            (
                "cg-graph-v1-dec4".to_owned(),
                vec!["dedicated_log_torch_trace_cwor5ek5.log".to_owned()]
            ),
        ]
    );
    let evidence = l.specializations[1].evidence.as_deref().unwrap();
    assert_eq!(
        evidence,
        "dedicated_log_torch_trace_yfkdagud.log dumped \
         cwsazpfkf5wj32n5x25b2nqbb64rshlx6qpnsovqllx4n7r6whz4.wrapper.cpp, which cg-graph-v1-bc4b \
         holds as model/data/aotinductor/\
         cg-graph-v1-bc4b9a3cc3f3feb6f6fe4aef5b6b23137930540c91902b58e1970f3b/\
         cwsazpfkf5wj32n5x25b2nqbb64rshlx6qpnsovqllx4n7r6whz4.wrapper.cpp"
    );
    assert!(l.unmatched.is_empty(), "{:?}", l.unmatched);

    // The logs without the packages: nothing to tie by, and it is said.
    let alone = compile_run("v0.127.2/r1", true, false);
    let l = alone.verdict_ledger.as_ref().unwrap();
    assert_eq!(l.unmatched.len(), 3);
    assert!(l.unmatched[0]
        .reason
        .starts_with("no compiled graph was read beside the verdict"));
    assert!(l.specializations.iter().all(|s| s.compiles.is_empty()));
    let f = alone
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::TraceNotTied)
        .expect("untied said");
    assert_eq!(f.severity, Severity::Warning);
    assert!(
        f.message.starts_with("3 built specialization(s)"),
        "{}",
        f.message
    );
}

/// A verdict of `--fill none` shaped as `_write_verdict` writes it: the
/// priority built, the other deferred and named among the gaps.
fn fill_none(deferred: bool) -> MintBreakdown {
    let json = format!(
        r#"{{"deferred": [{d}], "fill": "", "priority": "cg-graph-v1-aa", "rc": 0,
            "specializations": [{{"contract": "c@1", "detail": "published", "graph": "cg-graph-v1-aa",
              "state": "built", "target": "unet", "wall_s": 40.0}}],
            "summary": "gen-worker compile: built=1 (of 1)\n",
            "unservable": [{{"detail": "cg-graph-v1-bb: no artifact in the store", "graph": "cg-graph-v1-bb"}}]}}"#,
        d = if deferred { r#""cg-graph-v1-bb""# } else { "" }
    );
    lane_ledger::from_report("fill-none", &parse_report(json.as_bytes()).unwrap())
}

#[test]
fn a_deferred_graph_is_said_deferred_not_unservable() {
    let b = fill_none(true);
    assert!(!b.findings.iter().any(|f| f.kind == FindingKind::Unservable));
    let f = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::Deferred)
        .expect("deferred said");
    assert_eq!(f.severity, Severity::Info);
    assert!(
        f.message.starts_with(
            "gen-worker compile deferred 1 specialization(s) on purpose (`deferred`, no fill started), not a failure: cg-graph-v1-bb; 1 not servable yet"
        ),
        "{}",
        f.message
    );
    // The same gap of a graph the run did not defer is one it could not close.
    let b = fill_none(false);
    let f = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::Unservable)
        .expect("the gap said");
    assert!(f
        .message
        .contains("could not make servable: cg-graph-v1-bb"));
    assert!(!b.findings.iter().any(|f| f.kind == FindingKind::Deferred));
}
