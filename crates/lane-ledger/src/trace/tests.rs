//! The streaming reader's unit tests.

use super::*;

fn parse(text: &str) -> TraceMetrics {
    parse_trace(text.as_bytes(), &TraceOptions::default()).unwrap()
}

const B: &str = "V1130 04:20:54.462000 762 torch/_dynamo/utils.py:2126] {\"chromium_event\": {}, \"has_payload\": \"x\"}\n";

fn event(name: &str, ph: &str, ts: f64) -> String {
    format!(
        "{B}\t{{\"name\": \"{name}\", \"ts\": {ts}, \"ph\": \"{ph}\", \"pid\": 0, \"tid\": 0}}\n"
    )
}

#[test]
fn begin_end_pairs_sum_per_name() {
    let text = [
        event("GraphLowering.codegen", "B", 1_000_000.0),
        event("GraphLowering.codegen", "E", 3_500_000.0),
        event("GraphLowering.codegen", "B", 4_000_000.0),
        event("GraphLowering.codegen", "E", 4_500_000.0),
    ]
    .concat();
    let m = parse(&text);
    assert_eq!(m.spans.len(), 1);
    assert_eq!(m.spans[0].calls, 2);
    assert!((m.spans[0].seconds - 3.0).abs() < 1e-9);
    assert_eq!(m.skipped_lines, 0);
}

#[test]
fn garbage_between_good_lines_is_counted_not_fatal() {
    let text = [
        event("a", "B", 0.0),
        "garbage here\n".to_owned(),
        "\n".to_owned(),
        event("a", "E", 2e6),
    ]
    .concat();
    let m = parse(&text);
    assert_eq!(m.skipped_lines, 2);
    assert_eq!(m.skipped[0].line, 3);
    assert_eq!(m.spans[0].seconds, 2.0);
}

#[test]
fn unclosed_and_unmatched_spans_are_counted_not_summed() {
    let text = [event("a", "B", 0.0), event("b", "E", 1.0)].concat();
    let m = parse(&text);
    assert!(m.spans.is_empty());
    assert_eq!(m.unclosed_spans, 1);
    assert_eq!(m.unmatched_ends, 1);
}

#[test]
fn older_and_newer_metric_fields() {
    let old = "V1130 04:21:58.025000 762 torch/_dynamo/utils.py:1796] {\"compilation_metrics\": {\"compile_id\": \"0/0\", \"entire_frame_compile_time_s\": 5.5, \"inductor_compile_time_s\": 3.0}}\n";
    let new = "V1130 04:21:58.025000 762 torch/_dynamo/utils.py:1796] {\"compilation_metrics\": {\"compile_id\": \"1/0\", \"duration_us\": 2500000, \"inductor_cumulative_compile_time_us\": 1000000, \"entire_frame_compile_time_s\": 9.0}}\n";
    let m = parse(&format!("{old}{new}"));
    assert_eq!(m.compiles_total, 2);
    assert_eq!(m.compiles[0].wall_s, Some(5.5));
    assert_eq!(m.compiles[0].fields, MetricFields::Seconds);
    assert_eq!(m.compiles[1].wall_s, Some(2.5));
    assert_eq!(m.compiles[1].wall_from, Some("duration_us"));
    assert_eq!(m.compiles[1].inductor_compile_s, Some(1.0));
    assert_eq!(m.compiles[1].fields, MetricFields::Both);
}

#[test]
fn bad_metric_record_is_skipped_with_its_line() {
    let bad = "V1130 04:21:58.025000 762 torch/_dynamo/utils.py:1796] {\"compilation_metrics\": {\"duration_us\": -5}}\n";
    let nan = "V1130 04:21:58.025000 762 torch/_dynamo/utils.py:1796] {\"compilation_metrics\": {\"duration_us\": NaN}}\n";
    let m = parse(&format!("{bad}{nan}"));
    assert_eq!(m.compiles_total, 0);
    assert_eq!(m.skipped_lines, 2);
    assert!(
        m.skipped[0].reason.contains("duration_us"),
        "{:?}",
        m.skipped
    );
}

#[test]
fn not_a_trace_is_an_error() {
    let err = parse_trace("hello\nworld\n".as_bytes(), &TraceOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "not a TORCH_TRACE log: none of its 2 lines is a structured-trace record"
    );
}

#[test]
fn over_long_line_is_dropped_unbuffered() {
    let options = TraceOptions {
        max_line_bytes: 200,
        ..TraceOptions::default()
    };
    let long = format!("{}\n", "x".repeat(10_000));
    let text = format!("{}{long}{}", event("a", "B", 0.0), event("a", "E", 1e6));
    // A tiny buffer forces the long line across many reads.
    let reader = std::io::BufReader::with_capacity(16, text.as_bytes());
    let m = parse_trace(reader, &options).unwrap();
    assert_eq!(m.skipped_lines, 1);
    assert_eq!(m.spans[0].seconds, 1.0);
}

#[test]
fn lines_split_across_buffers_parse_the_same() {
    let text = [event("a", "B", 0.0), event("a", "E", 1e6)].concat();
    for cap in [1, 2, 7, 64, 4096] {
        let reader = std::io::BufReader::with_capacity(cap, text.as_bytes());
        let m = parse_trace(reader, &TraceOptions::default()).unwrap();
        assert_eq!(m.spans[0].seconds, 1.0, "capacity {cap}");
        assert_eq!(m.lines, 4);
    }
}

#[test]
fn graph_dumps_are_kept_with_their_lines_and_labelled() {
    let dump = "V1202 04:37:49.233000 1970 torch/_inductor/codecache.py:1946] {\"graph_dump\": {\"name\": \"inductor_aot_wrapper_code\", \"type\": \"cpp\", \"filename\": \"/tmp/t/cu65/cbi2.wrapper.cpp\"}, \"stack\": []}\n";
    let mut m = parse(&format!("{}{dump}", event("a", "B", 0.0)));
    assert_eq!(m.graph_dumps.len(), 1);
    assert_eq!(m.graph_dumps[0].file, "cbi2.wrapper.cpp");
    assert_eq!(m.graph_dumps[0].line, 3);
    m.label("dedicated_log_torch_trace_x.log");
    assert_eq!(
        m.graph_dumps[0].source.as_deref(),
        Some("dedicated_log_torch_trace_x.log")
    );
}
