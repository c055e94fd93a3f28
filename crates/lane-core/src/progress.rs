//! The ONE progress event every backend emits (the local agents and the
//! Kubernetes Jobs alike), for the CLI's lines and bars and for the
//! service's answers. A backend never prints.

use crate::{MintStatus, RetryDecision};

/// Something a person may want to see while a lane mints. `mint` is the
/// attempt's id as [`MintId`](crate::MintId) shows it
/// (`<lane>/<cell>/<gpu>/r<N>/a<M>`).
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// A mint was started (an agent spawned, a Job created).
    Started {
        /// The attempt.
        mint: String,
    },
    /// A mint started by an earlier `lane mint` was adopted, not started again.
    Adopted {
        /// The attempt.
        mint: String,
    },
    /// Where a running mint stands, in the backend's words (a Job's state).
    State {
        /// The attempt.
        mint: String,
        /// The state, in words.
        state: String,
    },
    /// An attempt ended.
    Finished {
        /// The attempt.
        mint: String,
        /// How.
        status: MintStatus,
        /// Its seconds; absent when nothing measured them.
        wall_s: Option<f64>,
        /// Why, in words.
        reason: String,
    },
    /// A slot will be tried again.
    Retry {
        /// The attempt that ended.
        mint: String,
        /// When.
        decision: RetryDecision,
    },
    /// Another lane command holds the lane; this one waits for it.
    Waiting {
        /// The lane.
        lane: String,
        /// Who holds it, in its own words.
        holder: String,
    },
}

impl Progress {
    /// The attempt the event is about (for [`Progress::Waiting`], the lane).
    pub fn mint(&self) -> &str {
        match self {
            Progress::Started { mint }
            | Progress::Adopted { mint }
            | Progress::State { mint, .. }
            | Progress::Finished { mint, .. }
            | Progress::Retry { mint, .. } => mint,
            Progress::Waiting { lane, .. } => lane,
        }
    }
}

impl std::fmt::Display for Progress {
    /// One plain line, as the CLI prints it off a terminal.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Progress::Started { mint } => write!(f, "started   {mint}"),
            Progress::Adopted { mint } => {
                write!(f, "adopted   {mint} (running from an earlier lane mint)")
            }
            Progress::State { mint, state } => write!(f, "{mint}: {state}"),
            Progress::Finished {
                mint,
                status,
                wall_s,
                reason,
            } => match wall_s {
                Some(s) => write!(f, "finished  {mint}: {status} in {s:.1} s: {reason}"),
                None => write!(f, "finished  {mint}: {status} (not measured): {reason}"),
            },
            Progress::Waiting { lane, holder } => write!(f, "waiting   for lane {lane}: {holder}"),
            Progress::Retry { mint, decision } => match decision {
                RetryDecision::No => write!(f, "final     {mint}"),
                RetryDecision::Now => write!(f, "retry     {mint}: now"),
                RetryDecision::After { seconds } => {
                    write!(f, "retry     {mint}: after {seconds} s")
                }
            },
        }
    }
}
