//! What [`crate::judge_lane`] takes and returns: the method's constants
//! ([`Policy`]) and the verdicts ([`LaneJudgement`], one [`SeriesVerdict`]
//! a series), serialised with snake_case words.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::edivisive::ChangePointConfig;
use crate::row::{Role, SeriesKey};
use crate::segment::{Break, FieldRole};
use crate::shift::{Shift, ShiftTest};

/// The method's constants, each documented in `docs/history.md`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Policy {
    /// Fewest history lanes in a segment to judge a series (3).
    pub min_history: usize,
    /// Most history lanes used, the newest (20).
    pub max_history: usize,
    /// The family-wise level of a call across the lane's series: a series
    /// is called when its one-sided p is below `alpha` over the family's
    /// size (Bonferroni, 0.05). Not Benjamini–Hochberg: its threshold
    /// loosens as other series move, so one cell's move would make every
    /// other cell's series easier to call.
    pub alpha: f64,
    /// The Benjamini–Hochberg FDR that makes a series `inconclusive`
    /// (0.20): no call, so its level may follow how the others moved.
    pub alpha_inconclusive: f64,
    /// The family-wise level of the two-lane test (the lane and the one
    /// before it together against the history without either). A series
    /// it rejects, whose own lane agrees (one-sided p below
    /// [`Policy::agree_p`], past the floor) and whose lane before moved
    /// past the floor the same way, is called and confirmed (0.02).
    pub persist_alpha: f64,
    /// A call whose every repeat (its fastest, for a regression) is below
    /// this family-wise level (Bonferroni over the lane's series) is
    /// confirmed by its own strength (0.002).
    pub alone_alpha: f64,
    /// The family-wise level over the lane's series for a step to be kept
    /// (each E-Divisive p times the positions searched; 0.02).
    pub step_alpha: f64,
    /// The GPU classes' combined one-sided p (Stouffer's z over the
    /// classes of a phase, each past the floor the same way) below which
    /// they corroborate each other at once (0.005), and never above
    /// `alpha` over the family's size.
    pub corroborate_p: f64,
    /// Each class's own one-sided p below which it agrees (so that one
    /// class's outlier cannot carry the combined z alone).
    pub agree_p: f64,
    /// With fewer than three repeats the median cannot outvote a slow
    /// repeat: when the lane's repeats disagree more than the segment's
    /// repeat-to-repeat noise allows (F-test p below this), no call is
    /// made and a third repeat is offered.
    pub repeats_disagree_p: f64,
    /// The smallest ratio worth calling (1.05: 5 %).
    pub min_ratio: f64,
    /// The smallest change in seconds worth calling (1 s).
    pub min_seconds: f64,
    /// Level of the reported one-sided prediction bounds (0.95).
    pub interval_level: f64,
    /// Within-lane share of a lane value's variance above which one more
    /// repeat can help (0.5).
    pub repeat_share: f64,
    /// Phases minted on the CPU whatever the GPU class (compile phases):
    /// two GPU classes replicate them for free.
    pub cpu_bound: BTreeSet<String>,
    /// The environment-shift test.
    pub shift: ShiftTest,
    /// The change-point search (Otava's defaults).
    pub change_points: ChangePointConfig,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            min_history: 3,
            max_history: 20,
            alpha: 0.05,
            alpha_inconclusive: 0.20,
            persist_alpha: 0.02,
            alone_alpha: 0.002,
            step_alpha: 0.02,
            corroborate_p: 0.005,
            agree_p: 0.05,
            repeats_disagree_p: 0.01,
            min_ratio: 1.05,
            min_seconds: 1.0,
            interval_level: 0.95,
            repeat_share: 0.5,
            cpu_bound: DEFAULT_CPU_BOUND.iter().map(|s| (*s).to_owned()).collect(),
            shift: ShiftTest::default(),
            change_points: ChangePointConfig::default(),
        }
    }
}

/// The compile phases gen-worker's ledgers name that run on the CPU
/// (inductor lowering and codegen, the host compiler, graph passes, the
/// AOT export and the dynamo trace).
pub const DEFAULT_CPU_BOUND: &[&str] = &[
    "lowering_s",
    "codegen_s",
    "host_compile_s",
    "graph_passes_s",
    "export_s",
    "trace_graph",
];

/// A series' verdict word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Slower than its history predicts, past the floor.
    Regressed,
    /// Faster than its history predicts, past the floor.
    Improved,
    /// Within what its history predicts, or below the floor.
    Unchanged,
    /// Past the floor with weak evidence (see the offer).
    Inconclusive,
    /// Too few earlier lanes in its segment, or no value to judge.
    InsufficientHistory,
}

/// Which noise dominates a lane value's variance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoiseSource {
    /// Repeat to repeat, within a lane: more repeats help.
    WithinLane,
    /// Lane to lane (node, image, driver): only more lanes help.
    BetweenLanes,
}

/// The two noise levels of a series (log scale, squared).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Noise {
    /// Repeat-to-repeat variance of `ln(seconds)`, pooled over the segment
    /// and the lane.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<f64>,
    /// Lane-to-lane variance: the moderated variance less the within part
    /// that reaches a lane median.
    pub between: f64,
    /// Share of a lane value's variance from within-lane noise.
    pub within_share: f64,
    /// The one that dominates.
    pub dominant: NoiseSource,
}

/// The one-sided prediction bounds of the lane value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// Each bound's one-sided level.
    pub level: f64,
    /// The lower bound, seconds.
    pub lower_s: f64,
    /// The upper bound, seconds.
    pub upper_s: f64,
}

/// What an inconclusive series suggests.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Offer {
    /// One more cold repeat can settle it (within-lane noise dominates).
    ExtraRepeat {
        /// Its estimated GPU-minutes.
        gpu_minutes: f64,
        /// Where the estimate comes from: the cell's largest total in the
        /// lane (`cell_total`), or the series' own seconds (`series`).
        basis: &'static str,
    },
    /// Lane-to-lane noise dominates: the next lane is the cheaper test.
    NextLane,
}

/// One series' verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeriesVerdict {
    /// The series.
    #[serde(flatten)]
    pub key: SeriesKey,
    /// Its role in the breakdown.
    pub role: Role,
    /// The verdict.
    pub verdict: Verdict,
    /// True when corroborated (the other GPU class, or the previous lane).
    pub confirmed: bool,
    /// Why it is confirmed: `gpu:<class>` or `previous_lane:<run>`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirmed_by: Option<String>,
    /// The lane's cold repeats with a positive value.
    pub repeats: usize,
    /// The lane value, seconds (exp of the log median).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lane_s: Option<f64>,
    /// What the history predicts, seconds (net of an environment shift).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_s: Option<f64>,
    /// The estimate as a ratio, lane over expected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratio: Option<f64>,
    /// The estimate in seconds, lane minus expected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta_s: Option<f64>,
    /// The prediction bounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<Interval>,
    /// The one-sided p in the estimate's direction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p: Option<f64>,
    /// The GPU classes' evidence together (Stouffer's z), when they
    /// corroborate each other.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combined_p: Option<f64>,
    /// Degrees of freedom (moderated; absent when infinite).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub df: Option<f64>,
    /// The noise levels and the dominant one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise: Option<Noise>,
    /// History lanes used.
    pub history: usize,
    /// The break the segment starts at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segment: Option<Break>,
    /// Runs where E-Divisive found a step in this series.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub change_points: Vec<String>,
    /// What an inconclusive series suggests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offer: Option<Offer>,
    /// An acknowledgement naming this lane and series, its reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acknowledged: Option<String>,
    /// The smallest ratio a call on this lane alone would find with 80 %
    /// power (this history, these repeats, the lane's family of tests):
    /// what the series can detect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detectable_ratio: Option<f64>,
    /// The two-lane test's one-sided p (this lane and the one before,
    /// against the history without either), where it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub persist_p: Option<f64>,
    /// Earlier runs of the segment left out of the history: their own call
    /// on this series is held out (not yet refuted or acknowledged), or they
    /// follow a step up.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub held_out: Vec<String>,
    /// Why there is no estimate, when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
    /// For a total: the lane's series of its own parts (same cell and GPU
    /// class) called the way the total moved, which its move is theirs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub explained_by: Vec<String>,
}

/// A fingerprint field that differs between the newest history run and
/// the lane, with what it is to the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldChange {
    /// The field (`torch`, `upstream`, `node`).
    pub field: &'static str,
    /// Environment (a new segment), under test, or placement.
    pub role: FieldRole,
    /// Before.
    pub before: String,
    /// After.
    pub after: String,
}

/// Series the lane could not judge, and the first reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unjudged {
    /// Series with `insufficient_history`.
    pub series: usize,
    /// Series in the lane.
    pub of: usize,
    /// Why, in words (`the environment changed: gpu_model … → …`, `too
    /// little history: 2 earlier run(s) of the line, 3 needed`).
    pub reason: String,
}

/// A lane's judgement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaneJudgement {
    /// The lane's run.
    pub run: String,
    /// Its release line.
    pub line: String,
    /// Earlier runs of the line that were considered.
    pub history_runs: usize,
    /// The environment shift, when the lane's series moved together past
    /// the shift test ([`Shift::declared`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub environment_shift: Option<Shift>,
    /// What was taken out of every estimate: the lane's common move, where
    /// every cell moved together (declared a shift or not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub common_move: Option<Shift>,
    /// What differs from the newest history run's fingerprint.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<FieldChange>,
    /// Series not judged, and why: said first, never "nothing regressed".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unjudged: Option<Unjudged>,
    /// Every series of the lane (the ledger's phases, residuals and
    /// overlays), in key order: what regressed is said here.
    pub series: Vec<SeriesVerdict>,
    /// The lane's totals (a mint's wall, a partition's or an AOT mint's
    /// sum), judged the same way in their own Benjamini–Hochberg family:
    /// a total is the sum of series above, so its move is said once, there,
    /// and here with the series that explain it (`explained_by`).
    pub totals: Vec<SeriesVerdict>,
}

impl LaneJudgement {
    /// The series with verdict `v`.
    pub fn with(&self, v: Verdict) -> impl Iterator<Item = &SeriesVerdict> {
        self.series.iter().filter(move |s| s.verdict == v)
    }

    /// The series, then the totals.
    pub fn all(&self) -> impl Iterator<Item = &SeriesVerdict> {
        self.series.iter().chain(&self.totals)
    }
}
