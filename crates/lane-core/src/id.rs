//! A mint's identity and the run plan: every cell × GPU class × cold
//! repeat of a lane, each with a deterministic id, so a second `lane mint`
//! adopts what exists instead of submitting again.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

use crate::Recipe;

/// The identity of one mint attempt: lane, cell, GPU class, repeat, attempt.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
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
        write!(f, "{}/a{}", self.slot(), self.attempt)
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
    /// The slot this attempt belongs to.
    pub fn slot(&self) -> SlotId {
        SlotId {
            lane: self.lane.clone(),
            cell: self.cell.clone(),
            gpu: self.gpu.clone(),
            repeat: self.repeat,
        }
    }
    /// A relative folder for this attempt: `<cell>/<gpu>/r<N>/a<M>`.
    pub fn rel_dir(&self) -> String {
        format!(
            "{}/{}/r{}/a{}",
            self.cell, self.gpu, self.repeat, self.attempt
        )
    }
}

/// One slot of the plan (a mint without its attempt): what the results
/// folder keeps one of, `<cell>/<gpu>/r<N>/`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SlotId {
    /// The lane version.
    pub lane: String,
    /// The cell.
    pub cell: String,
    /// The GPU class.
    pub gpu: String,
    /// The cold repeat, from 1.
    pub repeat: u32,
}

impl fmt::Display for SlotId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{}/r{}",
            self.lane, self.cell, self.gpu, self.repeat
        )
    }
}

impl SlotId {
    /// The slot's folder in the results folder: `<cell>/<gpu>/r<N>`.
    pub fn rel_dir(&self) -> String {
        format!("{}/{}/r{}", self.cell, self.gpu, self.repeat)
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

/// Every mint of a lane, in a stable order (cell, GPU, repeat): `cells`
/// in lane-file order with their recipes, each on every GPU class, each
/// `cold_repeats` times.
pub fn plan_mints(
    lane: &str,
    cells: &[(String, Recipe)],
    gpus: &[String],
    cold_repeats: u32,
) -> Vec<PlannedMint> {
    let mut out = Vec::with_capacity(cells.len() * gpus.len() * cold_repeats as usize);
    for (cell, recipe) in cells {
        for gpu in gpus {
            for repeat in 1..=cold_repeats {
                out.push(PlannedMint {
                    id: MintId {
                        lane: lane.to_owned(),
                        cell: cell.clone(),
                        gpu: gpu.clone(),
                        repeat,
                        attempt: 1,
                    },
                    recipe: *recipe,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_is_cells_by_gpus_by_repeats_in_a_stable_order() {
        let cells = [("a".to_owned(), Recipe::Dynamo), ("b".into(), Recipe::Aot)];
        let gpus = ["L40S".to_owned(), "L4".into()];
        let plan = plan_mints("0.93.3", &cells, &gpus, 2);
        let ids: Vec<String> = plan.iter().map(|p| p.id.to_string()).collect();
        assert_eq!(ids.len(), 8);
        assert_eq!(ids[0], "0.93.3/a/L40S/r1/a1");
        assert_eq!(ids[3], "0.93.3/a/L4/r2/a1");
        assert_eq!(ids[7], "0.93.3/b/L4/r2/a1");
        assert_eq!(plan[4].recipe, Recipe::Aot);
        assert_eq!(plan[3].id.next_attempt().rel_dir(), "a/L4/r2/a2");
        assert_eq!(plan[3].id.slot().rel_dir(), "a/L4/r2");
    }
}
