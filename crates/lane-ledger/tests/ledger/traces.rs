//! The real TORCH_TRACE of run A, and damaged copies of it.

use super::fixtures::*;
use lane_ledger::trace::MetricFields;
use lane_ledger::{from_trace, parse_trace, FindingKind, TraceOptions};
use serde_json::Value;

fn parse(bytes: &[u8]) -> lane_ledger::TraceMetrics {
    parse_trace(bytes, &TraceOptions::default()).unwrap()
}

#[test]
fn trace_spans_match_the_same_runs_compilation_time_metrics() {
    // The probe recorded run A's compilation_time_metrics deltas in
    // aot_a.json; the trace of the same run must sum to the same numbers.
    let m = parse(&trace_log());
    let report: Value = serde_json::from_slice(&read(h200("aot_a.json"))).unwrap();
    let raw = report["raw_metrics"].as_object().unwrap();
    let mut checked = 0;
    for span in &m.spans {
        if let Some(expected) = raw.get(&span.name).and_then(Value::as_f64) {
            assert!(
                (span.seconds - expected).abs() < 2e-3,
                "{}: trace {} against metrics {expected}",
                span.name,
                span.seconds
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} keys in common");
    assert_eq!(m.skipped_lines, 0);
    assert_eq!(m.unclosed_spans, 0);
}

#[test]
fn trace_compile_record_uses_start_and_end_when_durations_are_null() {
    let log = trace_log();
    let m = parse(&log);
    assert_eq!(m.compiles_total, 1);
    let c = &m.compiles[0];
    // Recompute from the record itself.
    let text = String::from_utf8_lossy(&log);
    let line = text.lines().nth(c.line as usize - 1).unwrap();
    let json: Value = serde_json::from_str(line.split_once("] ").unwrap().1).unwrap();
    let cm = &json["compilation_metrics"];
    assert!(cm["duration_us"].is_null() && cm["entire_frame_compile_time_s"].is_null());
    let expected =
        (cm["end_time_us"].as_f64().unwrap() - cm["start_time_us"].as_f64().unwrap()) / 1e6;
    assert_eq!(c.wall_s, Some(expected));
    assert_eq!(c.wall_from, Some("end_time_us - start_time_us"));
    assert_eq!(c.fields, MetricFields::None);
    assert_eq!(c.inductor_compile_s, None, "null stays absent");
    assert_eq!(m.torch_version.as_deref(), cm["pytorch_version"].as_str());
}

#[test]
fn trace_breakdown_partitions_the_aot_compile() {
    let m = parse(&trace_log());
    let b = from_trace("trace", &m);
    let p = b.compile_partition.as_ref().unwrap();
    assert_eq!(p.total.name, "compile_fx_aot");
    let host = m
        .spans
        .iter()
        .find(|s| s.name == "AotCodeCompiler.compile")
        .unwrap();
    assert_eq!(p.member("host_compile_s"), Some(host.seconds));
    assert_eq!(p.residual.seconds, p.total.seconds - p.members_sum());
    assert!(
        b.total_s.is_none(),
        "a trace does not know the mint's total"
    );
}

#[test]
fn garbage_lines_between_good_ones_are_counted_and_skipped() {
    let log = String::from_utf8(trace_log()).unwrap();
    let clean = parse(log.as_bytes());
    let mut damaged = String::new();
    let mut inserted = 0;
    let lines: Vec<&str> = log.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        damaged.push_str(line);
        damaged.push('\n');
        // Between records: never between a record and its payload lines.
        let next_is_record = lines.get(i + 1).is_some_and(|n| !n.starts_with('\t'));
        if i % 97 == 0 && next_is_record {
            damaged.push_str(if i % 2 == 0 {
                "###### not a record\n"
            } else {
                "\u{fffd}\u{0}garbage {\"x\": \n"
            });
            inserted += 1;
        }
    }
    let m = parse(damaged.as_bytes());
    assert_eq!(m.skipped_lines, inserted);
    assert_eq!(m.spans, clean.spans);
    assert_eq!(m.compiles_total, clean.compiles_total);
    let b = from_trace("damaged", &m);
    let f = b
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::TraceLinesSkipped)
        .unwrap();
    assert!(
        f.message.contains(&format!("{inserted} of")),
        "{}",
        f.message
    );
}

/// Regression: a TORCH_TRACE with 2 % blank lines (inside chromium-event
/// payloads too) lost its whole compile partition. Blank lines are skipped
/// and counted; every record around them is kept, whatever the buffer size.
#[test]
fn blank_lines_inside_payloads_lose_nothing_but_themselves() {
    let log = String::from_utf8(trace_log()).unwrap();
    let clean = parse(log.as_bytes());
    let mut damaged = String::new();
    let mut blanks = 0;
    for (i, line) in log.lines().enumerate() {
        damaged.push_str(line);
        damaged.push('\n');
        if i % 50 == 7 {
            damaged.push('\n');
            blanks += 1;
        }
    }
    for cap in [64, 4096, 1 << 20] {
        let m = parse_trace(
            std::io::BufReader::with_capacity(cap, damaged.as_bytes()),
            &TraceOptions::default(),
        )
        .unwrap();
        assert_eq!(m.skipped_lines, blanks, "capacity {cap}");
        assert_eq!(m.spans, clean.spans, "capacity {cap}");
        assert_eq!(m.record_lines, clean.record_lines, "capacity {cap}");
        let b = from_trace("damaged", &m);
        let want = from_trace("damaged", &clean);
        assert_eq!(
            b.compile_partition, want.compile_partition,
            "capacity {cap}: the compile partition survives"
        );
        let f = b
            .findings
            .iter()
            .find(|f| f.kind == FindingKind::TraceLinesSkipped)
            .unwrap();
        assert!(f.message.contains("blank line"), "{}", f.message);
    }
}

#[test]
fn truncated_trace_counts_unclosed_spans() {
    let log = trace_log();
    let cut = &log[..log.len() * 2 / 3];
    let m = parse(cut);
    assert!(m.unclosed_spans > 0);
    assert_eq!(m.compiles_total, 0);
}

#[test]
fn repeated_trace_scales_linearly() {
    let log = trace_log();
    let one = parse(&log);
    let three = parse(&[log.clone(), log.clone(), log].concat());
    assert_eq!(three.compiles_total, 3);
    for (a, b) in one.spans.iter().zip(&three.spans) {
        assert_eq!(a.name, b.name);
        assert_eq!(b.calls, 3 * a.calls);
        assert!((b.seconds - 3.0 * a.seconds).abs() < 1e-6);
    }
}

#[test]
fn crlf_line_endings_parse_the_same() {
    let log = String::from_utf8(trace_log()).unwrap();
    let crlf = log.replace('\n', "\r\n");
    assert_eq!(parse(crlf.as_bytes()).spans, parse(log.as_bytes()).spans);
}

#[test]
fn buffer_size_does_not_change_the_result() {
    // Tiny buffers force every line through the general path; the default
    // one lets payload runs and chromium events take the fast paths. Both
    // must count and sum exactly the same, garbage included.
    let log = String::from_utf8(trace_log()).unwrap();
    let mut text = String::new();
    for (i, line) in log.lines().enumerate() {
        text.push_str(line);
        text.push('\n');
        if i % 500 == 0 {
            text.push_str("\n!! garbage between records\n");
        }
    }
    let reference = parse_trace(
        std::io::BufReader::with_capacity(1 << 20, text.as_bytes()),
        &TraceOptions::default(),
    )
    .unwrap();
    for cap in [1, 3, 64, 1000, 4096] {
        let m = parse_trace(
            std::io::BufReader::with_capacity(cap, text.as_bytes()),
            &TraceOptions::default(),
        )
        .unwrap();
        assert_eq!(m, reference, "capacity {cap}");
        // The reader `lane ledger` uses, reading ahead on its own thread.
        let ahead =
            lane_ledger::trace::read_ahead::ReadAhead::new(std::io::Cursor::new(text.clone()), cap)
                .unwrap();
        let m = parse_trace(ahead, &TraceOptions::default()).unwrap();
        assert_eq!(m, reference, "read ahead, chunk {cap}");
    }
    assert!(reference.skipped_lines > 0);
    assert_eq!(reference.lines, text.lines().count() as u64);
    assert_eq!(
        reference.payload_lines,
        text.lines().filter(|l| l.starts_with('\t')).count() as u64
    );
}
