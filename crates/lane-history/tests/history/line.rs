//! Simulated release lines, harsher than history-sim.py's model and fitted
//! to the five real H200 runs (`docs/history.md`, *Release lines*): the
//! `line-eval` example's model and the integration tests'.
//!
//! A line is `lanes` patch lanes (`0.93.1`, `0.93.2`, …: each installs its
//! own upstream version and lands on one of four nodes), each minting
//! `cells` cells of six phases (0.3 s to 93 s) on each GPU class, with
//! `repeats` cold repeats. On the log scale a repeat is
//! `μ + b + m + e (+ h)`:
//! - `b`, the series' own lane-to-lane move: σ_b from 15 % (0.3 s) down
//!   to 4 % (93 s) by the phase's size, ×exp(0.25 z) per series and GPU
//!   class (or, `sigma_b_by_size` off, drawn uniformly in 4–15 % whatever
//!   the size: harsher than the real runs, where a 90 s phase moves under
//!   1 % lane to lane);
//! - `m`, the machine: one draw a lane and GPU class shared by every
//!   series of it, σ 5 %;
//! - `e`, repeat to repeat: σ_w from 30 % (0.3 s) down to 2 % (93 s) by
//!   the phase's size;
//! - `h`, a hiccup: in 3 % of (lane, series) one repeat is ×1.5–3.
//!
//! An [`Effect`] makes one cell's phase (or all its phases) slower from a
//! lane on, on every GPU class.

#![allow(dead_code)]

use lane_history::{Fingerprint, Role, Row, RunTime};

use crate::sim::Rng;

/// The phases of a cell: (name, seconds).
pub const PHASES: [(&str, f64); 6] = [
    ("phase/finalize", 0.3),
    ("phase/load", 2.0),
    ("phase/warmup", 5.0),
    ("phase/trace_graph", 12.0),
    ("phase/codegen", 40.0),
    ("phase/host_compile", 93.0),
];

/// The phase an effect on one phase slows (12 s).
pub const SLOWED_PHASE: usize = 3;

/// A line's shape.
#[derive(Debug, Clone)]
pub struct LineSetting {
    /// GPU classes.
    pub gpus: &'static [&'static str],
    /// Cells.
    pub cells: usize,
    /// Cold repeats a lane.
    pub repeats: u32,
    /// Lanes in the line.
    pub lanes: usize,
    /// The machine factor's σ (log scale).
    pub machine: f64,
    /// Each series' σ_b range (largest phase, smallest phase).
    pub sigma_b: (f64, f64),
    /// σ_b follows the phase's size (else uniform in the range).
    pub sigma_b_by_size: bool,
    /// Share of (lane, series) with one hiccup repeat.
    pub hiccup_p: f64,
}

impl LineSetting {
    /// The harsh default: one GPU class, two cells, two cold repeats.
    pub const fn harsh(lanes: usize) -> LineSetting {
        LineSetting {
            gpus: &["L40S"],
            cells: 2,
            repeats: 2,
            lanes,
            machine: 0.05,
            sigma_b: (0.04, 0.15),
            sigma_b_by_size: true,
            hiccup_p: 0.03,
        }
    }
}

/// A slowdown.
#[derive(Debug, Clone, Copy)]
pub struct Effect {
    /// The cell (index).
    pub cell: usize,
    /// One phase (index into [`PHASES`]), or every phase of the cell.
    pub phase: Option<usize>,
    /// The ratio (1.3: 30 % slower).
    pub ratio: f64,
    /// The first lane that carries it.
    pub from: usize,
    /// The last lane that carries it (inclusive).
    pub until: usize,
}

/// The run id of lane `i`.
pub fn run_id(i: usize) -> String {
    format!("lane{i:03}")
}

/// The cell name of index `c`.
pub fn cell(c: usize) -> String {
    format!("cell{c}")
}

/// `small` at 0.3 s, `large` at 93 s, log-linear in between.
fn by_size(seconds: f64, small: f64, large: f64) -> f64 {
    let (a, b) = (0.3f64.ln(), 93f64.ln());
    let t = ((seconds.ln() - a) / (b - a)).clamp(0.0, 1.0);
    (small.ln() + t * (large.ln() - small.ln())).exp()
}

fn sigma_w(seconds: f64) -> f64 {
    by_size(seconds, 0.30, 0.02)
}

/// Every row of a simulated line; `torch_from` switches torch at that lane.
pub fn simulate_line(
    s: &LineSetting,
    effects: &[Effect],
    torch_from: Option<usize>,
    rng: &mut Rng,
) -> Vec<Row> {
    let mut rows = Vec::new();
    let series: Vec<(usize, usize, usize, f64)> = (0..s.gpus.len())
        .flat_map(|g| {
            (0..s.cells).flat_map(move |c| (0..PHASES.len()).map(move |p| (g, c, p, 0.0)))
        })
        .map(|(g, c, p, _)| {
            let sb = if s.sigma_b_by_size {
                by_size(PHASES[p].1, s.sigma_b.1, s.sigma_b.0) * (0.25 * rng.normal()).exp()
            } else {
                s.sigma_b.0 + (s.sigma_b.1 - s.sigma_b.0) * rng.uniform()
            };
            (g, c, p, sb)
        })
        .collect();
    for lane in 0..s.lanes {
        let machine: Vec<f64> = (0..s.gpus.len())
            .map(|_| s.machine * rng.normal())
            .collect();
        let node = format!("node-{}", (rng.uniform() * 4.0) as usize);
        let torch = match torch_from {
            Some(t) if lane >= t => "2.12.0+cu130",
            _ => "2.11.0+cu130",
        };
        for &(g, c, p, sb) in &series {
            let (phase, mu) = PHASES[p];
            let level = mu.ln() + sb * rng.normal() + machine[g];
            let effect: f64 = effects
                .iter()
                .filter(|e| {
                    e.cell == c
                        && e.phase.is_none_or(|x| x == p)
                        && (e.from..=e.until).contains(&lane)
                })
                .map(|e| e.ratio.ln())
                .sum();
            let hiccup = (rng.uniform() < s.hiccup_p).then(|| {
                (
                    (rng.uniform() * s.repeats as f64) as u32 + 1,
                    1.5 + 1.5 * rng.uniform(),
                )
            });
            for repeat in 1..=s.repeats {
                let mut y = level + effect + sigma_w(mu) * rng.normal();
                if let Some((r, ratio)) = hiccup {
                    if r == repeat {
                        y += f64::ln(ratio);
                    }
                }
                rows.push(Row {
                    run: run_id(lane),
                    time: RunTime::Unix(1_764_547_200 + 86_400 * lane as i64),
                    lane: format!("0.93.{}", lane + 1),
                    line: "0.93".into(),
                    fingerprint: Fingerprint {
                        gpu_model: (s.gpus.len() == 1).then(|| format!("NVIDIA {}", s.gpus[0])),
                        torch: Some(torch.into()),
                        triton: Some("3.6.0".into()),
                        cuda: Some("13.0".into()),
                        driver: Some("580.159.04".into()),
                        upstream: Some(format!("0.93.{}", lane + 1)),
                        node: Some(node.clone()),
                        image_digest: None,
                    },
                    cell: cell(c),
                    gpu: s.gpus[g].into(),
                    phase: phase.into(),
                    role: Role::Member,
                    repeat,
                    seconds: Some(y.exp()),
                });
            }
        }
    }
    rows
}

/// The rows of lanes before `lane` (history) and of `lane` itself.
pub fn at(rows: &[Row], lane: usize) -> (Vec<Row>, Vec<Row>) {
    let id = run_id(lane);
    let order = |r: &Row| r.run.as_str() < id.as_str();
    (
        rows.iter().filter(|r| order(r)).cloned().collect(),
        rows.iter().filter(|r| r.run == id).cloned().collect(),
    )
}
