//! lane's bounded fuzz suite: the harness its targets share. Every parser
//! lane runs on foreign input (lane files, mint reports, TORCH_TRACE logs,
//! the results files, packed cells) is fed generated and mutated real bytes
//! by `tests/fuzz.rs`, and each input must end with no panic, within a
//! watchdog, within a memory budget (measured by a peak-counting global
//! allocator), and, when refused, with an error that names the place.
//!
//! This crate owns the harness ([`bounded`], [`Bounds`], [`Meter`]) and the
//! byte mutations ([`mutations`], [`apply`]). It must not touch the parsers:
//! it calls their public entry points only, and reads no file but the seeds
//! its tests name. The watchdog is a hang detector, not a speed target:
//! speed lives in the benchmarks (`docs/performance.md`).
//!
//! It is stable Rust and runs in CI (`cargo test -p lane-fuzz`); the
//! cargo-fuzz targets in `crates/lane-ledger/fuzz/` need a nightly
//! toolchain and run where one is installed.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use proptest::prelude::*;

/// How many generated inputs each target takes: `LANE_FUZZ_CASES`, default
/// 128 (CI's bounded run; `./just fuzz` takes more).
pub fn cases() -> u32 {
    std::env::var("LANE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(128)
}

/// The seed every target's inputs grow from: `LANE_FUZZ_SEED`, a number,
/// or `random` for a fresh one; unset, a fixed one. CI's bounded run is then
/// the same on every machine and a red run is the change's doing; new ground
/// is `./just fuzz`'s, which prints the seed a failure reproduces with.
pub fn rng_seed() -> u64 {
    /// The unset seed.
    const FIXED: u64 = 0x6c61_6e65_2d66_757a; // "lane-fuz"
    match std::env::var("LANE_FUZZ_SEED")
        .ok()
        .as_deref()
        .map(str::trim)
    {
        None | Some("") => FIXED,
        Some("random") => {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            nanos ^ u64::from(std::process::id()).rotate_left(32)
        }
        Some(n) => n
            .parse()
            .unwrap_or_else(|_| panic!("LANE_FUZZ_SEED={n:?}: expected a number or `random`")),
    }
}

/// The allocator's counters, as the test binary's global allocator keeps them.
#[derive(Clone, Copy)]
pub struct Meter {
    /// Bytes allocated now.
    pub current: fn() -> usize,
    /// The most bytes allocated at once since the last reset.
    pub peak: fn() -> usize,
    /// Starts a new peak from the current figure.
    pub reset_peak: fn(),
}

/// What one input may cost.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// An input not answered within this is a hang.
    pub watchdog: Duration,
    /// Memory allowed whatever the input's size, in bytes.
    pub base_bytes: usize,
    /// Memory allowed per input byte, on top of `base_bytes`.
    pub per_input_byte: usize,
}

impl Bounds {
    /// The memory budget for an input of `len` bytes.
    pub fn budget(&self, len: usize) -> usize {
        self.base_bytes
            .saturating_add(self.per_input_byte.saturating_mul(len))
    }
}

/// What one input cost.
#[derive(Debug, Clone, Copy)]
pub struct Measured {
    /// The peak of memory allocated while it ran, above what was allocated before.
    pub peak_bytes: usize,
    /// Its wall time.
    pub elapsed: Duration,
}

/// Runs `run` (one input of `len` bytes, described by `what`) on a thread
/// of its own and answers what it returned and cost, or why it broke the
/// bounds: a panic, a hang past the watchdog, or memory over the budget.
pub fn bounded<R: Send + 'static>(
    what: &str,
    len: usize,
    bounds: &Bounds,
    meter: &Meter,
    run: impl FnOnce() -> R + Send + 'static,
) -> Result<(R, Measured), String> {
    (meter.reset_peak)();
    let before = (meter.current)();
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    std::thread::spawn(move || {
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run));
        let _ = tx.send(answer);
    });
    let answer = match rx.recv_timeout(bounds.watchdog) {
        Ok(a) => a,
        Err(_) => {
            return Err(format!(
                "{what}: no answer within {:?} (a hang); input {len} bytes",
                bounds.watchdog
            ))
        }
    };
    let elapsed = start.elapsed();
    let peak_bytes = (meter.peak)().saturating_sub(before);
    let value = answer.map_err(|p| {
        let said = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default();
        format!("{what}: panicked ({said}); input {len} bytes")
    })?;
    if peak_bytes > bounds.budget(len) {
        return Err(format!(
            "{what}: {peak_bytes} bytes at peak, over the budget of {} for a {len}-byte input",
            bounds.budget(len)
        ));
    }
    if std::env::var_os("LANE_FUZZ_REPORT").is_some() {
        // One line per input, for docs/performance.md's table.
        eprintln!(
            "lane-fuzz {what} input={len} peak={peak_bytes} elapsed_us={}",
            elapsed.as_micros()
        );
    }
    Ok((
        value,
        Measured {
            peak_bytes,
            elapsed,
        },
    ))
}

/// One change to a byte string.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// Sets the byte at (index mod length).
    Flip(usize, u8),
    /// Cuts the string at (index mod length).
    Truncate(usize),
    /// Inserts a token at (index mod length).
    Insert(usize, Vec<u8>),
    /// Repeats the span (start mod length, up to `len` bytes) `times` times
    /// in place: nesting and size amplifiers.
    Repeat(usize, usize, usize),
}

/// Up to `max` mutations, inserting `tokens` among others.
pub fn mutations(tokens: Vec<Vec<u8>>, max: usize) -> impl Strategy<Value = Vec<Mutation>> {
    let tokens = prop::sample::select(tokens);
    prop::collection::vec(
        prop_oneof![
            (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
            any::<usize>().prop_map(Mutation::Truncate),
            (any::<usize>(), tokens).prop_map(|(i, t)| Mutation::Insert(i, t)),
            (any::<usize>(), 1usize..64, 2usize..2000)
                .prop_map(|(i, len, times)| Mutation::Repeat(i, len, times)),
        ],
        1..=max.max(1),
    )
}

/// `bytes` with `ms` applied in order.
pub fn apply(mut bytes: Vec<u8>, ms: &[Mutation]) -> Vec<u8> {
    for m in ms {
        if bytes.is_empty() {
            break;
        }
        let n = bytes.len();
        match m {
            Mutation::Flip(i, b) => bytes[i % n] = *b,
            Mutation::Truncate(i) => bytes.truncate(i % n),
            Mutation::Insert(i, t) => {
                let i = i % n;
                bytes.splice(i..i, t.iter().copied());
            }
            Mutation::Repeat(i, len, times) => {
                let start = i % n;
                let end = (start + len).min(n);
                let span = bytes[start..end].to_vec();
                let mut grown = Vec::with_capacity(span.len() * times);
                for _ in 0..*times {
                    grown.extend_from_slice(&span);
                }
                bytes.splice(start..end, grown);
            }
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meter() -> Meter {
        Meter {
            current: || 0,
            peak: || 0,
            reset_peak: || {},
        }
    }

    const BOUNDS: Bounds = Bounds {
        watchdog: Duration::from_millis(300),
        base_bytes: 10,
        per_input_byte: 1,
    };

    /// Regression: on a loaded CI machine with backtraces on, the panic's
    /// backtrace took longer than the 300 ms watchdog and the panic read as
    /// a hang. This test is about panics, not time: a generous watchdog.
    #[test]
    fn a_panic_is_a_violation_naming_the_target() {
        let patient = Bounds {
            watchdog: Duration::from_secs(60),
            ..BOUNDS
        };
        let e = bounded("t", 3, &patient, &meter(), || panic!("boom")).unwrap_err();
        assert!(e.contains("t: panicked (boom)"), "{e}");
    }

    #[test]
    fn a_hang_is_a_violation() {
        let e = bounded("t", 0, &BOUNDS, &meter(), || {
            std::thread::sleep(Duration::from_secs(5))
        })
        .unwrap_err();
        assert!(e.contains("no answer within"), "{e}");
    }

    #[test]
    fn memory_over_the_budget_is_a_violation() {
        let m = Meter {
            current: || 100,
            peak: || 200,
            reset_peak: || {},
        };
        let e = bounded("t", 5, &BOUNDS, &m, || ()).unwrap_err();
        assert!(
            e.contains("100 bytes at peak, over the budget of 15"),
            "{e}"
        );
        assert!(bounded("t", 90, &BOUNDS, &m, || ()).is_ok());
    }

    #[test]
    fn mutations_apply_in_order() {
        let b = apply(
            b"abcdef".to_vec(),
            &[Mutation::Flip(1, b'X'), Mutation::Truncate(4)],
        );
        assert_eq!(b, b"aXcd");
        let b = apply(b"ab".to_vec(), &[Mutation::Repeat(0, 1, 3)]);
        assert_eq!(b, b"aaab");
    }
}
