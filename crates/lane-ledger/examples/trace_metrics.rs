//! Streams TORCH_TRACE logs through `lane_ledger::parse_trace` and prints the
//! extracted metrics with the throughput, for the benchmark script
//! (`benches/trace_vs_tlparse.sh`).
//!
//! Usage: `cargo run --release -p lane-ledger --example trace_metrics -- FILE...`

use std::io::{BufRead, BufReader};
use std::time::Instant;

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: trace_metrics FILE...");
        std::process::exit(2);
    }
    let options = lane_ledger::TraceOptions::default();
    for path in paths {
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let file = std::fs::File::open(&path).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(1)
        });
        let start = Instant::now();
        let single = std::env::var("TRACE_READER").is_ok_and(|v| v == "single");
        let reader = match single {
            // The reader `lane ledger` uses: read ahead on a second thread.
            false => lane_ledger::trace::open_trace(file).map(|r| Box::new(r) as Box<dyn BufRead>),
            // TRACE_READER=single: one thread, for the comparison.
            true => Ok(Box::new(BufReader::with_capacity(
                lane_ledger::trace::READ_BUFFER_BYTES,
                file,
            )) as Box<dyn BufRead>),
        };
        let reader = reader.unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(1)
        });
        let metrics = match lane_ledger::parse_trace(reader, &options) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(3)
            }
        };
        let secs = start.elapsed().as_secs_f64();
        let b = lane_ledger::from_trace(&path, &metrics);
        println!(
            "{path}: {size} bytes in {secs:.3} s = {:.1} MB/s; {} lines, {} skipped, {} compile records, {} span names; compile partition total {}; peak RSS {} KiB",
            size as f64 / secs / 1e6,
            metrics.lines,
            metrics.skipped_lines,
            metrics.compiles_total,
            metrics.spans.len(),
            b.compile_partition
                .as_ref()
                .map_or_else(|| "absent".to_owned(), |p| format!("{:.3} s", p.total.seconds)),
            peak_rss_kib().map_or_else(|| "?".to_owned(), |k| k.to_string()),
        );
    }
}
