//! Streaming reader for PyTorch structured trace logs (`TORCH_TRACE=<dir>`,
//! the files `tlparse` reads), extracting compile metrics only.
//!
//! Format: each record is one glog-prefixed line,
//! `V1130 04:20:52.779000 762 torch/_dynamo/utils.py:1796] {"<kind>": ...}`,
//! whose JSON envelope starts with the record's kind; a record with a payload
//! is followed by payload lines that start with a tab.
//!
//! What is read:
//! - `compilation_metrics` envelopes: one per frame compile, with the older
//!   `*_time_s` fields and the newer `*_us` fields (both understood; `_us`
//!   wins when both are present);
//! - `chromium_event` payloads: the `dynamo_timed` begin/end events, summed
//!   per function name into the same key set `compilation_time_metrics`
//!   holds, so the ledger's key maps apply unchanged;
//! - `graph_dump` envelopes: the content-hashed names of the code files a
//!   compile wrote ([`GraphDump`]), which tie a 0.127 child's log to its
//!   specialization.
//!
//! Everything else is skipped without being parsed: this is what keeps the
//! reader at disk speed. Memory is flat in the file size: lines are scanned
//! in the reader's buffer, only a line that straddles two buffers is copied,
//! lines longer than [`TraceOptions::max_line_bytes`] are counted and
//! dropped unbuffered, and per-compile rows are capped.
//!
//! Garbage never fails the parse: a line that is not a record (or a record
//! that lane reads but cannot parse) is counted in `skipped_lines`, with the
//! first few kept as examples with their line numbers.

use std::collections::HashMap;
use std::io::BufRead;

mod dumps;
mod lines;
pub mod read_ahead;
mod records;

use serde::Serialize;

pub use dumps::GraphDump;

use crate::error::TraceError;
use crate::report::Span;
use lane_json::MAX_SECONDS;
use lines::{first_key, record_json, skip_payload_lines};
use records::{
    compile_record, fast_chromium_event, fast_chromium_event_at, fast_compilation_metrics,
    ChromiumEvent, MetricsEnvelope,
};

/// Limits of the trace reader.
#[derive(Debug, Clone)]
pub struct TraceOptions {
    /// Longest line kept, in bytes; longer lines are skipped unbuffered.
    pub max_line_bytes: usize,
    /// Longest chromium-event payload parsed, in bytes.
    pub max_payload_bytes: usize,
    /// Per-compile rows kept in full; the rest are only summed.
    pub max_compile_rows: usize,
    /// Skipped-line examples kept.
    pub max_skipped_examples: usize,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            max_line_bytes: 64 * 1024 * 1024,
            max_payload_bytes: 1024 * 1024,
            max_compile_rows: 10_000,
            max_skipped_examples: 20,
        }
    }
}

/// A skipped line and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkippedLine {
    /// The file, when the caller labelled it (a trace directory holds several).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// 1-based line number in that file.
    pub line: u64,
    /// Why it was skipped.
    pub reason: String,
}

/// Which generation of `compilation_metrics` fields a record carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MetricFields {
    /// Only the older `*_time_s` fields.
    Seconds,
    /// Only the newer `*_us` fields.
    Micros,
    /// Both (the `_us` values are used).
    Both,
    /// Neither carried a duration.
    None,
}

/// One frame compile, from a `compilation_metrics` record. Every duration
/// is absent when the record did not measure it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompileRecord {
    /// The file, when the caller labelled it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// 1-based line of the record in that file.
    pub line: u64,
    /// `compile_id` (absent on the export path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_id: Option<String>,
    /// `co_name`: the compiled frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub co_name: Option<String>,
    /// The compile's wall.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_s: Option<f64>,
    /// Which field the wall came from (`duration_us`,
    /// `entire_frame_compile_time_s`, `end_time_us - start_time_us`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_from: Option<&'static str>,
    /// Backend (AOT autograd) compile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_compile_s: Option<f64>,
    /// Inductor compile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inductor_compile_s: Option<f64>,
    /// Inductor code generation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_gen_s: Option<f64>,
    /// Triton kernel compile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triton_compile_s: Option<f64>,
    /// Autotune at compile time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autotune_s: Option<f64>,
    /// `fail_type`, when the compile failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fail_type: Option<String>,
    /// Which field generation the record carried.
    pub fields: MetricFields,
}

/// A `dynamo_timed` function's total over the trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpanTotal {
    /// Function name (`GraphLowering.codegen`, ...).
    pub name: String,
    /// Completed begin/end pairs.
    pub calls: u64,
    /// Summed seconds.
    pub seconds: f64,
}

/// What a trace says about its compiles.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TraceMetrics {
    /// Lines read.
    pub lines: u64,
    /// Record (envelope) lines.
    pub record_lines: u64,
    /// Payload lines (tab-prefixed).
    pub payload_lines: u64,
    /// Lines skipped: not a record, unreadable, or a record lane reads that
    /// failed to parse.
    pub skipped_lines: u64,
    /// The first skipped lines, with reasons.
    pub skipped: Vec<SkippedLine>,
    /// `compilation_metrics` records seen.
    pub compiles_total: u64,
    /// The first [`TraceOptions::max_compile_rows`] of them.
    pub compiles: Vec<CompileRecord>,
    /// `graph_dump` records (the first [`TraceOptions::max_compile_rows`]).
    pub graph_dumps: Vec<GraphDump>,
    /// Per-function `dynamo_timed` totals, sorted by name.
    pub spans: Vec<SpanTotal>,
    /// Begin events never ended (a crash mid-compile): not summed.
    pub unclosed_spans: u64,
    /// End events with no begin: not summed.
    pub unmatched_ends: u64,
    /// `pytorch_version` from the metrics, when recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub torch_version: Option<String>,
}

impl TraceMetrics {
    /// The span totals as a raw key set (function name -> seconds), the shape
    /// of `compilation_time_metrics`.
    pub fn raw_metrics(&self) -> Vec<Span> {
        self.spans
            .iter()
            .map(|s| Span::new(s.name.clone(), s.seconds))
            .collect()
    }

    /// Labels every line reference with `source` (the file name).
    pub fn label(&mut self, source: &str) {
        for s in &mut self.skipped {
            s.source = Some(source.to_owned());
        }
        for c in &mut self.compiles {
            c.source = Some(source.to_owned());
        }
        for d in &mut self.graph_dumps {
            d.source = Some(source.to_owned());
        }
    }

    /// Folds another file of the same mint (another rank or child) into
    /// this one. Line references keep their own file's numbering; label both
    /// first (see [`TraceMetrics::label`]).
    pub fn merge(&mut self, other: TraceMetrics, max: &TraceOptions) {
        self.lines += other.lines;
        self.record_lines += other.record_lines;
        self.payload_lines += other.payload_lines;
        self.skipped_lines += other.skipped_lines;
        for s in other.skipped {
            if self.skipped.len() < max.max_skipped_examples {
                self.skipped.push(s);
            }
        }
        self.compiles_total += other.compiles_total;
        for c in other.compiles {
            if self.compiles.len() < max.max_compile_rows {
                self.compiles.push(c);
            }
        }
        for d in other.graph_dumps {
            if self.graph_dumps.len() < max.max_compile_rows {
                self.graph_dumps.push(d);
            }
        }
        let mut by_name: HashMap<String, SpanTotal> =
            self.spans.drain(..).map(|s| (s.name.clone(), s)).collect();
        for s in other.spans {
            let e = by_name.entry(s.name.clone()).or_insert(SpanTotal {
                name: s.name.clone(),
                calls: 0,
                seconds: 0.0,
            });
            e.calls += s.calls;
            e.seconds += s.seconds;
        }
        self.spans = by_name.into_values().collect();
        self.spans.sort_by(|a, b| a.name.cmp(&b.name));
        self.unclosed_spans += other.unclosed_spans;
        self.unmatched_ends += other.unmatched_ends;
        if self.torch_version.is_none() {
            self.torch_version = other.torch_version;
        }
    }
}

/// The read size a trace file is best given to [`parse_trace`] with
/// ([`open_trace`]): 128 KiB, as `cat` reads. The kernel's copy
/// into the buffer is most of the reader's time, and a buffer that stays in
/// a core's L2 cache makes it cheaper than a 1 MiB one (0.58 of `cat`'s
/// throughput in CPU time against 0.51; `docs/performance.md`).
pub const READ_BUFFER_BYTES: usize = 128 << 10;

/// A trace file opened for [`parse_trace`]: read ahead on a second thread
/// in [`READ_BUFFER_BYTES`] chunks ([`read_ahead::ReadAhead`]), so the
/// kernel's copy overlaps the parsing.
pub fn open_trace(file: std::fs::File) -> std::io::Result<read_ahead::ReadAhead> {
    read_ahead::ReadAhead::new(file, READ_BUFFER_BYTES)
}

/// Reads a whole trace, streaming. Errors only when the reader fails or when
/// not one line is a structured-trace record.
pub fn parse_trace<R: BufRead>(
    mut reader: R,
    options: &TraceOptions,
) -> Result<TraceMetrics, TraceError> {
    let mut state = Scanner::new(options);
    // The start of a line that straddles two buffers.
    let mut carry: Vec<u8> = Vec::new();
    // True while dropping the rest of an over-long line.
    let mut dropping = false;
    // True while inside a run of payload lines being skipped in bulk.
    let mut in_skip = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(source) => {
                return Err(TraceError::Io {
                    line: state.metrics.lines,
                    source,
                })
            }
        };
        if buf.is_empty() {
            break;
        }
        let len = buf.len();
        let mut start = 0;
        while start < len {
            // Payload lines are the bulk of a trace: pass a run of them
            // without visiting each line (see `skip_payload_lines`), handing
            // the run to the scanner when it collects a chromium event.
            let at_payload = carry.is_empty() && !dropping && buf[start] == b'\t';
            if at_payload && !in_skip && state.collecting && state.pending.is_empty() {
                if let Some(consumed) = state.event_in_place(&buf[start..]) {
                    start += consumed;
                    continue;
                }
            }
            if in_skip || at_payload {
                let run = skip_payload_lines(&buf[start..]);
                let end = run.next_line.map_or(len, |advance| start + advance);
                state.payload_run(run.newlines);
                if state.collecting {
                    // The payload is complete when a record line follows; a
                    // blank line (or one not in this buffer yet) may sit
                    // inside it: the next record line flushes it then.
                    let complete = run.next_line.is_some()
                        && buf.get(end).is_some_and(|b| !matches!(b, b'\n' | b'\r'));
                    state.collect(&buf[start..end], complete);
                }
                in_skip = run.next_line.is_none() && !run.ended_on_newline;
                start = end;
                continue;
            }
            match memchr::memchr(b'\n', &buf[start..]) {
                Some(i) => {
                    let nl = start + i;
                    if dropping {
                        dropping = false;
                        state.oversized_line();
                    } else if carry.is_empty() {
                        state.line(&buf[start..nl]);
                    } else {
                        carry.extend_from_slice(&buf[start..nl]);
                        state.line(&carry);
                        carry.clear();
                    }
                    start = nl + 1;
                }
                None => {
                    if !dropping {
                        if carry.len() + (len - start) > options.max_line_bytes {
                            carry.clear();
                            dropping = true;
                        } else {
                            carry.extend_from_slice(&buf[start..]);
                        }
                    }
                    start = len;
                }
            }
        }
        reader.consume(len);
    }
    if in_skip {
        state.payload_run(1);
    } else if dropping {
        state.oversized_line();
    } else if !carry.is_empty() {
        state.line(&carry);
    }
    state.finish()
}

/// Per-name accumulation of `dynamo_timed` events.
#[derive(Default)]
struct NameState {
    calls: u64,
    seconds: f64,
    /// Open begins: (pid, tid, ts in microseconds).
    open: Vec<(u64, u64, f64)>,
}

struct Scanner<'o> {
    options: &'o TraceOptions,
    metrics: TraceMetrics,
    /// Payload of the chromium event being collected, when one is.
    /// True while collecting a chromium event's payload into `pending`
    /// (one buffer, reused: no allocation per event).
    collecting: bool,
    pending: Vec<u8>,
    pending_line: u64,
    /// Span state per function name, in first-seen order (names are bytes:
    /// decoded once, at the end).
    spans: Vec<(Vec<u8>, NameState)>,
    /// Index into `spans` by name.
    names: HashMap<Vec<u8>, usize>,
    /// The last few names looked up (begin and end of one span come close
    /// together): a byte compare instead of hashing the name again.
    recent: [usize; 4],
    metrics_finder: memchr::memmem::Finder<'static>,
}

impl<'o> Scanner<'o> {
    fn new(options: &'o TraceOptions) -> Self {
        Scanner {
            options,
            metrics: TraceMetrics::default(),
            collecting: false,
            pending: Vec::new(),
            pending_line: 0,
            spans: Vec::new(),
            names: HashMap::new(),
            recent: [usize::MAX; 4],
            metrics_finder: memchr::memmem::Finder::new(b"\"compilation_metrics\"").into_owned(),
        }
    }

    fn skip(&mut self, line: u64, reason: impl FnOnce() -> String) {
        self.metrics.skipped_lines += 1;
        if self.metrics.skipped.len() < self.options.max_skipped_examples {
            self.metrics.skipped.push(SkippedLine {
                source: None,
                line,
                reason: reason(),
            });
        }
    }

    /// Payload bytes of the chromium event being collected (raw, tabs and
    /// all: a tab is JSON whitespace). `complete` when the run ended.
    fn collect(&mut self, bytes: &[u8], complete: bool) {
        if complete && self.pending.is_empty() {
            // The whole payload sits in the reader's buffer: no copy.
            self.collecting = false;
            let n = self.pending_line;
            self.chromium_event(n, bytes);
            return;
        }
        if self.pending.len() + bytes.len() > self.options.max_payload_bytes {
            self.collecting = false;
            self.pending.clear();
            let n = self.pending_line;
            let max = self.options.max_payload_bytes;
            self.skip(n, || format!("chromium_event payload above {max} bytes"));
            return;
        }
        self.pending.extend_from_slice(bytes);
        if complete {
            self.flush_pending();
        }
    }

    /// A run of payload lines passed in bulk.
    fn payload_run(&mut self, lines: u64) {
        self.metrics.lines += lines;
        self.metrics.payload_lines += lines;
    }

    fn oversized_line(&mut self) {
        self.metrics.lines += 1;
        let n = self.metrics.lines;
        let max = self.options.max_line_bytes;
        self.flush_pending();
        self.skip(n, || format!("line longer than {max} bytes"));
    }

    fn line(&mut self, raw: &[u8]) {
        self.metrics.lines += 1;
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        if line.is_empty() && self.collecting {
            // A blank line inside a payload (a log damaged on its way) is
            // skipped and said; the record around it is kept.
            let n = self.metrics.lines;
            self.skip(n, || "blank line".to_owned());
            return;
        }
        if line.first() == Some(&b'\t') {
            self.metrics.payload_lines += 1;
            if self.collecting {
                let pending = &mut self.pending;
                if pending.len() + line.len() > self.options.max_payload_bytes {
                    self.collecting = false;
                    let n = self.pending_line;
                    let max = self.options.max_payload_bytes;
                    self.skip(n, || format!("chromium_event payload above {max} bytes"));
                } else {
                    pending.extend_from_slice(&line[1..]);
                    pending.push(b'\n');
                }
            }
            return;
        }
        self.flush_pending();
        let n = self.metrics.lines;
        let Some(json) = record_json(line) else {
            self.skip(n, || {
                if line.is_empty() {
                    "blank line".to_owned()
                } else {
                    "not a structured-trace record".to_owned()
                }
            });
            return;
        };
        self.metrics.record_lines += 1;
        match first_key(json) {
            Some(b"chromium_event") => {
                self.collecting = true;
                self.pending.clear();
                self.pending_line = n;
            }
            Some(b"compilation_metrics") => self.compilation_metrics(n, json),
            Some(b"graph_dump") => match dumps::graph_dump(n, json) {
                Ok(Some(d)) if self.metrics.graph_dumps.len() < self.options.max_compile_rows => {
                    self.metrics.graph_dumps.push(d)
                }
                Ok(_) => {}
                Err(reason) => self.skip(n, || reason),
            },
            // Versions that put metadata first: look for the kind anywhere.
            Some(b"rank" | b"frame_id" | b"frame_compile_id" | b"attempt")
                if self.metrics_finder.find(json).is_some() =>
            {
                self.compilation_metrics(n, json)
            }
            _ => {}
        }
    }

    fn flush_pending(&mut self) {
        if self.collecting {
            self.collecting = false;
            let n = self.pending_line;
            let payload = std::mem::take(&mut self.pending);
            if payload.is_empty() {
                self.skip(n, || "chromium_event without a payload".to_owned());
            } else {
                self.chromium_event(n, &payload);
            }
            self.pending = payload;
            self.pending.clear();
        }
    }

    /// Reads the chromium event whose payload starts `hay` in place, when
    /// the whole payload run is there and well formed: its JSON object, then
    /// the end of its last line, then a line that is not a payload line.
    /// Returns the bytes consumed; `None` leaves the run to the general path.
    fn event_in_place(&mut self, hay: &[u8]) -> Option<usize> {
        let (event, end, inside) = fast_chromium_event_at(hay)?;
        // Every line of the run must be a payload line (a tab after each
        // newline but the last), as the general path would require.
        let inside = inside?;
        let mut k = end;
        while k < hay.len() && matches!(hay[k], b' ' | b'\t' | b'\r') {
            k += 1;
        }
        if hay.get(k) != Some(&b'\n') || matches!(hay.get(k + 1), None | Some(b'\t')) {
            return None;
        }
        self.payload_run(inside as u64 + 1);
        self.collecting = false;
        let line = self.pending_line;
        self.apply_event(line, event);
        Some(k + 1)
    }

    fn chromium_event(&mut self, line: u64, payload: &[u8]) {
        let event = match fast_chromium_event(payload) {
            Some(e) => e,
            None => match serde_json::from_slice::<ChromiumEvent<'_>>(payload) {
                Ok(e) => e,
                Err(e) => {
                    self.skip(line, || format!("chromium_event payload: {e}"));
                    return;
                }
            },
        };
        self.apply_event(line, event);
    }

    /// The index of `name`'s span state, created on first sight.
    fn span_index(&mut self, name: &[u8]) -> usize {
        for &i in &self.recent {
            if i != usize::MAX && self.spans[i].0 == name {
                return i;
            }
        }
        let i = match self.names.get(name) {
            Some(&i) => i,
            None => {
                self.spans.push((name.to_vec(), NameState::default()));
                self.names.insert(name.to_vec(), self.spans.len() - 1);
                self.spans.len() - 1
            }
        };
        self.recent.rotate_right(1);
        self.recent[0] = i;
        i
    }

    fn apply_event(&mut self, line: u64, event: ChromiumEvent<'_>) {
        if !event.ts.is_finite() {
            self.skip(line, || "chromium_event with a non-finite ts".to_owned());
            return;
        }
        let key = (event.pid.unwrap_or(0), event.tid.unwrap_or(0));
        let name: &[u8] = &event.name;
        let index = self.span_index(name);
        let state = &mut self.spans[index].1;
        match &*event.ph {
            b"B" => state.open.push((key.0, key.1, event.ts)),
            b"E" => {
                let pos = state.open.iter().rposition(|&(p, t, _)| (p, t) == key);
                match pos {
                    Some(i) => {
                        let (_, _, begin) = state.open.remove(i);
                        let dur = (event.ts - begin) / 1e6;
                        if (0.0..=MAX_SECONDS).contains(&dur) {
                            state.calls += 1;
                            state.seconds += dur;
                        } else {
                            self.skip(line, || {
                                format!(
                                    "span {} with duration {dur} s",
                                    String::from_utf8_lossy(name)
                                )
                            });
                        }
                    }
                    None => self.metrics.unmatched_ends += 1,
                }
            }
            b"X" => match event.dur {
                Some(d) if (0.0..=MAX_SECONDS * 1e6).contains(&d) => {
                    state.calls += 1;
                    state.seconds += d / 1e6;
                }
                _ => self.skip(line, || {
                    format!(
                        "complete event {} without a valid dur",
                        String::from_utf8_lossy(name)
                    )
                }),
            },
            // Instant and counter events carry no duration.
            _ => {}
        }
    }

    fn compilation_metrics(&mut self, line: u64, json: &[u8]) {
        let raw = match fast_compilation_metrics(json) {
            Some(raw) => raw,
            None => match serde_json::from_slice::<MetricsEnvelope>(json) {
                Ok(env) => env.compilation_metrics,
                Err(e) => {
                    self.skip(line, || format!("compilation_metrics: {e}"));
                    return;
                }
            },
        };
        match compile_record(line, &raw) {
            Ok(record) => {
                self.metrics.compiles_total += 1;
                if self.metrics.torch_version.is_none() {
                    self.metrics.torch_version = raw.pytorch_version.clone();
                }
                if self.metrics.compiles.len() < self.options.max_compile_rows {
                    self.metrics.compiles.push(record);
                }
            }
            Err(reason) => self.skip(line, || reason),
        }
    }

    fn finish(mut self) -> Result<TraceMetrics, TraceError> {
        self.flush_pending();
        if self.metrics.record_lines == 0 {
            return Err(TraceError::NotATrace {
                lines: self.metrics.lines,
            });
        }
        let mut spans: Vec<SpanTotal> = Vec::with_capacity(self.spans.len());
        for (name, state) in self.spans {
            self.metrics.unclosed_spans += state.open.len() as u64;
            if state.calls > 0 {
                spans.push(SpanTotal {
                    name: String::from_utf8_lossy(&name).into_owned(),
                    calls: state.calls,
                    seconds: state.seconds,
                });
            }
        }
        spans.sort_by(|a, b| a.name.cmp(&b.name));
        self.metrics.spans = spans;
        tracing::debug!(
            lines = self.metrics.lines,
            skipped = self.metrics.skipped_lines,
            compiles = self.metrics.compiles_total,
            spans = self.metrics.spans.len(),
            "parsed TORCH_TRACE"
        );
        Ok(self.metrics)
    }
}

#[cfg(test)]
mod tests;
