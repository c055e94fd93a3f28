//! lane's reports of a lane's mint results: the sticky PR comment (and the
//! check run's summary), the static HTML page, and the terminal text of
//! `lane ledger`, `lane diff` and comparisons. A pure crate: it takes
//! values (a [`LaneResults`] built by the CLI from the results folder,
//! with `lane-ledger` breakdowns, determinism reports and comparisons
//! inside) and returns `String`s. It never touches the filesystem or the
//! network, runs no async code and prints nothing.
//!
//! # Invariants
//!
//! 1. **No foreign string reaches output unescaped.** The HTML page is
//!    built with `maud`, so every interpolated value is escaped by
//!    construction ([`html::Esc`] also drops what HTML cannot escape;
//!    `PreEscaped` holds only lane's own constant CSS). Markdown goes
//!    through [`escape::text`] and terminal text through
//!    [`escape::terminal`]: one escaping path per target, and no foreign
//!    control byte (ESC, OSC, CR/LF inside a name) reaches a terminal.
//! 2. **One view model, three thin renderers.** [`view`] is the only code
//!    that reads the inputs; it decides every number once ([`view::Seconds`],
//!    [`view::Percent`], absent with its reason) and every table's rows.
//!    [`markdown`], [`html`] and [`text`] only lay rows out, so the three
//!    show the same rows.
//! 3. **The ledger's honesty rules hold here too:** a residual is a named
//!    row, overlays are rows of their own and never summed, what was not
//!    measured reads "absent" / "no report" / "not measured", never `0.0`,
//!    and a failed job keeps its seconds.
//!
//! lane-render owns the rendering of reports; it must not read files, call
//! out, or decide what a report means (that is `lane-ledger`'s).
//!
//! Where to start reading:
//! - [`LaneResults`]: the inputs (header, cells, repeats);
//! - [`view`]: the view model and its builders;
//! - [`render_comment`]: the size-budgeted comment (GitHub's 65,536
//!   characters, degraded in [`Level`] steps, never cutting a table);
//! - [`render_html`]: the page; [`text`]: the terminal text;
//! - [`conclusion`]: the check run's conclusion by policy;
//! - [`escape`]: the escaping of every foreign string.

pub mod escape;
pub mod html;
pub mod markdown;
mod policy;
pub mod text;
pub mod view;

use lane_diff::PairDiff;
use lane_ledger::{Comparison, MintBreakdown};
use serde::Serialize;

pub use html::render_html;
pub use markdown::{marker, render_comment, Level, RenderOptions, Rendered, GITHUB_BODY_LIMIT};
pub use policy::{conclusion, Conclusion, Verdict};

/// Everything one lane's report shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaneResults {
    /// The lane's version, e.g. `0.93.3`.
    pub lane: String,
    /// The lane's title, when it has one.
    pub title: Option<String>,
    /// The base tag the lane is cut from.
    pub base: Option<String>,
    /// The lane branch.
    pub branch: Option<String>,
    /// The picks as people write them (`#123`, `abc1234`).
    pub picks: Vec<String>,
    /// The wheel the mints installed, when `summary.json` records one.
    pub wheel: Option<lane_core::WheelRef>,
    /// The guards' verdict on the commit minted, when recorded.
    pub guard: Option<lane_core::GuardRecord>,
    /// The orchestrator's overall verdict, when it wrote one.
    pub green: Option<bool>,
    /// The lane was cancelled before every slot minted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
    /// True when the results were replayed, not measured fresh.
    pub replay: bool,
    /// The baseline lane, when one was compared.
    pub baseline: Option<String>,
    /// A link to the full report.
    pub report_url: Option<String>,
    /// One entry per (cell, GPU), in a stable order.
    pub cells: Vec<CellResult>,
    /// What the lane's history says of this run, when it was judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<LaneHistory>,
    /// Why there is no history verdict, when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_note: Option<String>,
    /// Where `summary.json` and the slots' own records (`mint.json`, the
    /// lane's plan) disagree: each fails the check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disagreements: Vec<String>,
}

/// What the lane's history says of the run being reported
/// (`docs/history.md`): the verdict of every series, and the rows the
/// charts and sparklines draw.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaneHistory {
    /// The run's id in the history.
    pub run: String,
    /// Where the history lives (a store location, without secrets).
    pub store: String,
    /// The results folder the run was read from, for the commands shown.
    pub results: Option<String>,
    /// Every series judged against the earlier runs of its line.
    pub judgement: lane_history::LaneJudgement,
    /// The rows of the run and of the earlier runs drawn, oldest first.
    pub rows: Vec<lane_history::Row>,
}

/// One cell on one GPU: its cold repeats, the determinism diff of the first
/// two, and the comparison against the baseline lane.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellResult {
    /// The cell name (e.g. `sdxl-w8a8-lora64`).
    pub cell: String,
    /// The GPU (e.g. `H200`).
    pub gpu: String,
    /// The recipe from `mint.json`, when the reports do not say.
    pub recipe: Option<String>,
    /// The cold repeats, by repeat number.
    pub repeats: Vec<RepeatResult>,
    /// The determinism diff of r1 against r2, when both have artifacts:
    /// one tree against the other, or class by class when their reports
    /// name graph classes (`entries`).
    pub determinism: Option<PairDiff>,
    /// Why no determinism diff was made although both repeats have
    /// artifacts (the pair could not be read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub determinism_note: Option<String>,
    /// Why the repeats make no pair to diff (one repeat only, a repeat
    /// that gathered no cell): shown wherever the lane says "not diffed".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_diffed: Option<String>,
    /// The comparison against the baseline lane's same cell and GPU.
    pub comparison: Option<Comparison>,
    /// Why no comparison was made although a baseline exists (refused).
    pub comparison_note: Option<String>,
}

/// One cold repeat of a cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RepeatResult {
    /// The repeat number (1, 2, ...).
    pub repeat: u32,
    /// The orchestrator's record (`mint.json`), when present.
    pub mint: Option<lane_core::MintRecord>,
    /// The breakdown; [`MintBreakdown::missing`] when there is no report.
    pub breakdown: MintBreakdown,
}

impl RepeatResult {
    /// True when the repeat has a report (a measurement).
    pub fn measured(&self) -> bool {
        !matches!(
            self.breakdown.ledger,
            lane_ledger::LedgerKind::Missing { .. }
        )
    }

    /// The status shown: the orchestrator's, else the report's (a word
    /// lane may not know, kept as written: escape it where it is shown).
    pub fn status(&self) -> Option<lane_core::Named<lane_core::MintStatus>> {
        self.mint
            .as_ref()
            .map(|m| lane_core::Named::Known(m.status))
            .or_else(|| self.breakdown.status.clone())
    }

    /// The recipe shown: the report's, else the cell's; unescaped.
    pub fn recipe(&self, cell: &CellResult) -> Option<String> {
        self.breakdown
            .recipe
            .as_ref()
            .map(|r| r.as_str().to_owned())
            .or_else(|| cell.recipe.clone())
    }
}
