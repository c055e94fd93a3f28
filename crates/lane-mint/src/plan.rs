//! The run plan: every cell × GPU class × cold repeat of a lane, each with a
//! deterministic id, so a second `lane mint` adopts what exists instead of
//! submitting again.

use lane_file::{LaneFile, Recipe};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The identity of one mint attempt: lane, cell, GPU class, repeat, attempt.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MintId {
    /// The lane version.
    pub lane: String,
    /// The cell.
    pub cell: String,
    /// The GPU class.
    pub gpu: String,
    /// The cold repeat, from 1.
    pub repeat: u32,
    /// The attempt, from 1 (retries count up).
    pub attempt: u32,
}

impl fmt::Display for MintId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{}/r{}/a{}",
            self.lane, self.cell, self.gpu, self.repeat, self.attempt
        )
    }
}

impl MintId {
    /// The same mint's next attempt.
    pub fn next_attempt(&self) -> MintId {
        MintId {
            attempt: self.attempt + 1,
            ..self.clone()
        }
    }
    /// The slot this attempt belongs to (the id without the attempt).
    pub fn slot(&self) -> String {
        format!("{}/{}/{}/r{}", self.lane, self.cell, self.gpu, self.repeat)
    }
    /// A relative folder for this attempt: `<cell>/<gpu>/r<N>/a<M>`.
    pub fn rel_dir(&self) -> String {
        format!(
            "{}/{}/r{}/a{}",
            self.cell, self.gpu, self.repeat, self.attempt
        )
    }
}

/// One planned mint (first attempt).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedMint {
    /// Its id (attempt 1).
    pub id: MintId,
    /// The cell's recipe.
    pub recipe: Recipe,
}

/// Every mint of the lane, in a stable order (cell, GPU, repeat).
pub fn plan(lane: &LaneFile) -> Vec<PlannedMint> {
    let Some(m) = &lane.mint else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for cell in &m.cells {
        for gpu in &m.gpus {
            for repeat in 1..=m.cold_repeats {
                out.push(PlannedMint {
                    id: MintId {
                        lane: lane.version.to_string(),
                        cell: cell.name.to_string(),
                        gpu: gpu.to_string(),
                        repeat,
                        attempt: 1,
                    },
                    recipe: cell.recipe,
                });
            }
        }
    }
    out
}
