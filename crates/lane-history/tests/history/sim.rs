//! The simulated histories of `docs/history.md`'s evaluation, shared by the
//! `method-eval` example and the integration test: history-sim.py's model
//! (shared/domain) on lane's rows.
//!
//! A series is (cell, GPU class, phase) on the log scale:
//! y = μ + b_lane + e_repeat (+ ln 1.25 for 3 % of cold repeats, a slow
//! disk or an autotune hiccup), with each series' σ_w and σ_b drawn around
//! the setting's values (×exp(0.4 z)), and each GPU class's around its
//! series' (×exp(0.2 z)), lane noise independent per GPU class. The new
//! lane adds `delta` to the first `regressed` series and the setting's
//! common shift to every series.

#![allow(dead_code)]

use lane_history::{Fingerprint, Role, Row, RunTime};

/// xoshiro256** seeded by splitmix64: deterministic, no dependency.
pub struct Rng([u64; 4]);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Rng([next(), next(), next(), next()])
    }

    fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let out = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }

    /// Uniform on (0, 1).
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// One simulated setting.
#[derive(Debug, Clone)]
pub struct Setting {
    /// Its name in the table.
    pub name: &'static str,
    /// History lanes.
    pub history: usize,
    /// Cold repeats per lane.
    pub repeats: u32,
    /// Within-lane σ (log scale).
    pub sigma_w: f64,
    /// Lane-to-lane σ.
    pub sigma_b: f64,
    /// Common ratio of the new lane (1.0: none).
    pub shift: f64,
    /// Series per GPU class.
    pub series: usize,
    /// Truly regressed series (the first ones).
    pub regressed: usize,
    /// GPU classes (the first is the one every rule is scored on).
    pub gpus: &'static [&'static str],
}

impl Setting {
    /// history-sim.py's base setting: 8 lanes, 3 repeats, σw 3 %, σb 2 %.
    pub const fn base(name: &'static str) -> Setting {
        Setting {
            name,
            history: 8,
            repeats: 3,
            sigma_w: 0.03,
            sigma_b: 0.02,
            shift: 1.0,
            series: 40,
            regressed: 4,
            gpus: &["L40S", "L4"],
        }
    }
}

/// The seconds every series is centred on.
pub const MU_S: f64 = 100.0;
/// Share of cold repeats that are outliers.
pub const OUTLIER_P: f64 = 0.03;
/// An outlier's ratio.
pub const OUTLIER: f64 = 1.25;

/// The run id of lane `i` (the new lane is `i = history`).
pub fn run_id(i: usize) -> String {
    format!("run{i:02}")
}

/// The cell of series `s`.
pub fn cell(s: usize) -> String {
    format!("cell{s:02}")
}

/// One simulated lane with its history: rows of every run (the new lane's
/// run is `run_id(setting.history)`), and each series' values per run
/// (GPU class 0 only): `values[s][run][repeat]` in seconds.
pub struct SimLane {
    /// Every row.
    pub rows: Vec<Row>,
    /// GPU class 0's seconds, `[series][run][repeat]`.
    pub values: Vec<Vec<Vec<f64>>>,
}

/// Simulates one lane of `setting` whose first `regressed` series are
/// `1 + delta` slower.
pub fn simulate(setting: &Setting, delta: f64, rng: &mut Rng) -> SimLane {
    let lanes = setting.history + 1;
    let mut rows = Vec::new();
    let mut values = vec![Vec::new(); setting.series];
    for (s, class0) in values.iter_mut().enumerate() {
        let sw = setting.sigma_w * (0.4 * rng.normal()).exp();
        let sb = setting.sigma_b * (0.4 * rng.normal()).exp();
        for (g, gpu) in setting.gpus.iter().enumerate() {
            let (sw, sb) = if g == 0 {
                (sw, sb)
            } else {
                (
                    sw * (0.2 * rng.normal()).exp(),
                    sb * (0.2 * rng.normal()).exp(),
                )
            };
            for run in 0..lanes {
                let b = sb * rng.normal();
                let mut lane = Vec::new();
                for rep in 1..=setting.repeats {
                    let mut y = MU_S.ln() + b + sw * rng.normal();
                    if rng.uniform() < OUTLIER_P {
                        y += OUTLIER.ln();
                    }
                    if run == setting.history {
                        y += setting.shift.ln();
                        if s < setting.regressed {
                            y += (1.0 + delta).ln();
                        }
                    }
                    let seconds = y.exp();
                    lane.push(seconds);
                    rows.push(Row {
                        run: run_id(run),
                        time: RunTime::Unix(1_764_547_200 + 86_400 * run as i64),
                        lane: format!("0.93.{run}"),
                        line: "0.93".into(),
                        fingerprint: Fingerprint {
                            torch: Some("2.11.0+cu130".into()),
                            ..Fingerprint::default()
                        },
                        cell: cell(s),
                        gpu: (*gpu).into(),
                        phase: "codegen_s".into(),
                        role: Role::Member,
                        repeat: rep,
                        seconds: Some(seconds),
                    });
                }
                if g == 0 {
                    class0.push(lane);
                }
            }
        }
    }
    SimLane { rows, values }
}

/// Splits a simulated lane's rows into (history, lane).
pub fn split(rows: Vec<Row>, setting: &Setting) -> (Vec<Row>, Vec<Row>) {
    let id = run_id(setting.history);
    rows.into_iter().partition(|r| r.run != id)
}
