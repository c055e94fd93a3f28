//! The bounded fuzz suite (see the crate documentation): one module per
//! parser of foreign input. Every test holds [`serial`] for its whole run:
//! the peak-counting allocator is one per process, so one input is
//! measured at a time.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use lane_fuzz::{Bounds, Meter};
use peak_alloc::PeakAlloc;
use proptest::prelude::{Strategy, TestCaseError};

#[global_allocator]
static PEAK: PeakAlloc = PeakAlloc;

mod fuzz {
    pub mod cells;
    pub mod lane_files;
    pub mod reports;
    pub mod results;
    pub mod traces;
}

/// The allocator's counters, for [`lane_fuzz::bounded`].
pub fn meter() -> Meter {
    Meter {
        current: || PEAK.current_usage(),
        peak: || PEAK.peak_usage(),
        reset_peak: || PEAK.reset_peak_usage(),
    }
}

/// One test at a time (see the module documentation).
pub fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// Runs one target: [`config`]'s generated inputs through `test`, holding
/// [`serial`] for the whole run, the failure's panic included. That panic
/// reads the binary's debug information for its backtrace (megabytes); let
/// go of the lock first and it lands in the next target's measured peak, as
/// it did on CI (a lane-file failure made a 4 MB report read "26.9 MB").
pub fn run_serial<S: Strategy>(strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let _one = serial();
    let seed = lane_fuzz::rng_seed();
    let mut runner = proptest::test_runner::TestRunner::new(config(seed));
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{e}\n(LANE_FUZZ_SEED={seed} reproduces it)");
    }
}

/// The proptest configuration every target uses: [`lane_fuzz::cases`]
/// inputs grown from `seed`, no shrinking beyond a few steps (a violation
/// names its input).
pub fn config(seed: u64) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: lane_fuzz::cases(),
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        max_shrink_iters: 16,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// Bounds for a parser that reads its input whole: a hang watchdog and
/// `base` MiB plus `per_byte` bytes per input byte.
pub fn bounds(base_mib: usize, per_byte: usize) -> Bounds {
    Bounds {
        watchdog: Duration::from_secs(20),
        base_bytes: base_mib << 20,
        per_input_byte: per_byte,
    }
}

/// A repository file's bytes.
pub fn seed(rel: &str) -> Vec<u8> {
    lane_testkit::data::read(lane_testkit::data::path(rel))
}
