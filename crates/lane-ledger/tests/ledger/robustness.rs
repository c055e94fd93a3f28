//! Bad input: every parser refuses it with a named location or counts it,
//! and none panics. The proptest cases here are the CI stand-in for the
//! cargo-fuzz targets in `crates/lane-ledger/fuzz/`.

use std::io::Read;

use super::fixtures::*;
use lane_ledger::{
    from_report, from_trace, parse_report, parse_report_with_limit, parse_trace, ReportError,
    TraceOptions,
};
use proptest::prelude::*;

fn report_never_panics(bytes: &[u8]) {
    if let Ok(r) = parse_report(bytes) {
        let b = from_report("fuzz", &r);
        let _ = serde_json::to_string(&b).unwrap();
    }
}

fn trace_never_panics(bytes: &[u8]) {
    let options = TraceOptions {
        max_line_bytes: 4096,
        ..TraceOptions::default()
    };
    if let Ok(m) = parse_trace(bytes, &options) {
        let b = from_trace("fuzz", &m);
        let _ = serde_json::to_string(&b).unwrap();
    }
}

/// The tokens the mutations insert (lane-fuzz's mutations, which the
/// bounded fuzz suite uses too).
fn mutations() -> impl Strategy<Value = Vec<lane_fuzz::Mutation>> {
    let tokens = [
        &b"NaN"[..],
        b"-Infinity",
        b"-1",
        b"1e400",
        b"\"x\"",
        b"null",
        b"[[[[",
        b"}",
        b",",
        b"\n\tgarbage\n",
    ];
    lane_fuzz::mutations(tokens.iter().map(|t| t.to_vec()).collect(), 3)
}

fn apply(bytes: Vec<u8>, ms: &[lane_fuzz::Mutation]) -> Vec<u8> {
    lane_fuzz::apply(bytes, ms)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_panic_the_report_parser(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        report_never_panics(&bytes);
    }

    #[test]
    fn mutated_real_reports_never_panic(which in 0usize..8, ms in mutations()) {
        let src = match which {
            0 => read(h200("jit_report.json")),
            1 => read(h200("aot_a.json")),
            2 => read(h200("aot_b.json")),
            3 => read(gw("aot-pair/r1/report.json")),
            4 => read(gw("failures-torch2.11/rig-aot/report.json")),
            5 => read(upstream("pooled-3-entry.report.json")),
            6 => read(upstream("pooled-aborted.report.json")),
            _ => read(SEED_TABLE),
        };
        report_never_panics(&apply(src, &ms));
    }

    #[test]
    fn unreadable_rows_keep_no_control_character(error in ".{0,600}") {
        let b = lane_ledger::MintBreakdown::unreadable("fuzz", &error);
        let lane_ledger::LedgerKind::Unreadable { error } = &b.ledger else {
            panic!("{:?}", b.ledger);
        };
        prop_assert!(!error.chars().any(char::is_control), "{error:?}");
    }

    #[test]
    fn random_bytes_never_panic_the_trace_parser(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        trace_never_panics(&bytes);
    }

    #[test]
    fn mutated_real_trace_never_panics(ms in mutations(), start in 0usize..500_000) {
        let log = trace_log();
        let start = start.min(log.len());
        let end = (start + 20_000).min(log.len());
        trace_never_panics(&apply(log[start..end].to_vec(), &ms));
    }
}

#[test]
fn deep_nesting_is_refused_with_a_location() {
    let deep = format!(
        "{{\"phases\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let err = parse_report(deep.as_bytes()).unwrap_err();
    assert!(
        matches!(err, ReportError::Json(lane_json::JsonError::TooDeep { .. })),
        "{err}"
    );
}

#[test]
fn huge_number_is_refused_by_path() {
    let err = parse_report(br#"{"mint_phases": {"spans_v": 1, "totals": {"warm_wall_s": 1e300}}}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "$.mint_phases.totals.warm_wall_s: implausible duration 1e300 s (above 10000000 s)"
    );
    let err = parse_report(br#"{"elapsed_s": 1e400}"#).unwrap_err();
    assert!(
        matches!(err, ReportError::Json(lane_json::JsonError::Syntax { .. })),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "invalid JSON at line 1, column 19: number out of range"
    );
}

/// The real aot report with one value replaced, as bytes.
fn real_aot_with(from: &str, to: &str) -> Vec<u8> {
    let text = String::from_utf8(read(gw("aot-pair/r1/report.json"))).unwrap();
    assert!(text.contains(from), "{from} not in the real report");
    text.replacen(from, to, 1).into_bytes()
}

#[test]
fn real_aot_report_damaged_names_the_place() {
    let nan = real_aot_with("\"total_s\":65.66", "\"total_s\":NaN");
    assert_eq!(
        parse_report(&nan).unwrap_err().to_string(),
        "$.mint_phases.totals.total_s: NaN is not a measurement (an unmeasured value must be omitted)"
    );
    let huge = real_aot_with("\"compile_s\":63.99", "\"compile_s\":1e400");
    let err = parse_report(&huge).unwrap_err();
    assert!(
        matches!(err, ReportError::Json(lane_json::JsonError::Syntax { ref reason, .. }) if reason == "number out of range"),
        "{err}"
    );
    assert!(
        err.to_string().starts_with("invalid JSON at line "),
        "{err}"
    );
    let full = read(gw("aot-pair/r1/report.json"));
    for cut in [1, full.len() / 3, full.len() - 2] {
        let err = parse_report(&full[..cut]).unwrap_err();
        assert!(
            matches!(
                err,
                ReportError::Json(lane_json::JsonError::Truncated { .. })
            ),
            "{cut}: {err}"
        );
    }
    let negative = real_aot_with("\"declare_s\":1.15", "\"declare_s\":-1.15");
    assert_eq!(
        parse_report(&negative).unwrap_err().to_string(),
        "$.mint_phases.totals.declare_s: negative duration -1.15 s (only a named residual may be negative)"
    );
}

#[test]
fn a_report_that_is_an_array_is_refused_at_the_root() {
    let text = String::from_utf8(read(gw("aot-pair/r1/report.json"))).unwrap();
    let err = parse_report(format!("[{text}]").as_bytes()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "$: expected a mint report object, found an array"
    );
}

#[test]
fn deep_nesting_inside_an_unknown_key_is_refused_with_a_location() {
    let deep = real_aot_with(
        "\"v\":1,",
        &format!("\"v\":1,\"x\":{}{},", "[".repeat(5_000), "]".repeat(5_000)),
    );
    let err = parse_report(&deep).unwrap_err();
    assert!(
        matches!(
            err,
            ReportError::Json(lane_json::JsonError::TooDeep { line: 1, .. })
        ),
        "{err}"
    );
}

#[test]
fn truncated_report_says_where_it_ends() {
    let full = read(h200("jit_report.json"));
    let err = parse_report(&full[..full.len() / 2]).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("truncated JSON: the input ends at line"),
        "{err}"
    );
}

#[test]
fn python_nan_is_named_by_json_path() {
    let text = String::from_utf8(read(h200("jit_report.json"))).unwrap();
    let broken = text.replacen("\"warm_wall_s\": 18.928", "\"warm_wall_s\": NaN", 1);
    let err = parse_report(broken.as_bytes()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "$.mint_phases.totals.warm_wall_s: NaN is not a measurement (an unmeasured value must be omitted)"
    );
}

#[test]
fn report_over_the_cap_is_refused_before_parsing() {
    let err = parse_report_with_limit(&read(h200("jit_report.json")), 1024).unwrap_err();
    assert!(
        matches!(err, ReportError::TooLarge { limit: 1024, .. }),
        "{err}"
    );
}

/// A reader of `len` bytes of one endless line, produced lazily.
struct EndlessLine {
    left: u64,
}

impl Read for EndlessLine {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (buf.len() as u64).min(self.left) as usize;
        buf[..n].fill(b'x');
        self.left -= n as u64;
        Ok(n)
    }
}

#[test]
fn an_endless_line_is_dropped_without_buffering_it() {
    // 256 MiB without a newline, then a real trace: memory stays bounded by
    // the reader's buffer, and the real records still count.
    let long = EndlessLine { left: 256 << 20 };
    let reader = std::io::BufReader::with_capacity(
        1 << 20,
        long.chain(&b"\n"[..])
            .chain(std::io::Cursor::new(trace_log())),
    );
    let options = TraceOptions {
        max_line_bytes: 1 << 20,
        ..TraceOptions::default()
    };
    let m = parse_trace(reader, &options).unwrap();
    assert_eq!(m.skipped_lines, 1);
    assert!(m.skipped[0].reason.contains("longer than"));
    assert_eq!(m.compiles_total, 1);
}

#[test]
fn wrong_types_name_their_paths() {
    for (doc, path) in [
        (r#"{"phases": {"load": "13.87"}}"#, "$.phases.load"),
        (
            r#"{"mint_phases": {"spans_v": 1, "jobs": {"a": 1}}}"#,
            "$.mint_phases.jobs",
        ),
        (
            r#"{"mint_phases": {"spans_v": 1, "totals": {"warm_jobs": 2.5}}}"#,
            "$.mint_phases.totals.warm_jobs",
        ),
        (r#"{"status": 7}"#, "$.status"),
        (r#"[1, 2]"#, "$"),
        (
            r#"{"mint_phases": {"v": 1, "entries": [{"compile_s": 1}]}}"#,
            "$.mint_phases.entries",
        ),
        (
            r#"{"mint_phases": {"v": 1, "pool": {"entry_workers": "3"}}}"#,
            "$.mint_phases.pool.entry_workers",
        ),
        (
            r#"{"mint_phases": {"v": 1, "at": {"step": -1}}}"#,
            "$.mint_phases.at.step",
        ),
    ] {
        let err = parse_report(doc.as_bytes()).unwrap_err();
        assert!(err.to_string().starts_with(path), "{doc}: {err}");
    }
}
