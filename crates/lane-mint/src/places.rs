//! The lane's places: which of `concurrency` lock files each agent of a
//! local run waits for, and how many agents may live at once. The lock
//! itself is taken by the mint's gate (`lane_agent::isolate::AWAIT_PLACE`);
//! this only spreads the agents over the places.

use lane_core::layout;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Child;

/// The lane's places and which of them this run's agents wait for.
pub(crate) struct Places {
    /// The lane's output folder, where the place files live.
    out: PathBuf,
    /// How many: the lane's concurrency.
    count: usize,
    /// Whether mints wait for places here (`flock` is on PATH); without,
    /// no more agents run than the concurrency.
    enabled: bool,
    /// The place each agent this run started waits for or holds.
    of: HashMap<String, usize>,
}

impl Places {
    pub(crate) fn new(out: &Path, concurrency: usize) -> Places {
        Places {
            out: out.to_owned(),
            count: concurrency.max(1),
            enabled: lane_agent::isolate::on_path("flock"),
            of: HashMap::new(),
        }
    }

    /// How many agents may live at once: one mint per place and, where
    /// places are waited for, one agent ready behind each.
    pub(crate) fn agents_at_once(&self) -> usize {
        if self.enabled {
            2 * self.count
        } else {
            self.count
        }
    }

    /// The place for the agent of `key`: the one the fewest of this run's
    /// live agents wait for or hold (agents adopted from an earlier run are
    /// not known here; the lock still keeps one mint per place).
    pub(crate) fn pick(&mut self, key: &str, children: &HashMap<String, Child>) -> Option<PathBuf> {
        if !self.enabled {
            return None;
        }
        let mut taken = vec![0usize; self.count];
        for (k, place) in &self.of {
            if children.contains_key(k) && *place < self.count {
                taken[*place] += 1;
            }
        }
        let place = (0..self.count).min_by_key(|p| taken[*p]).unwrap_or(0);
        self.of.insert(key.to_owned(), place);
        Some(layout::place_file(&self.out, place))
    }

    /// Forgets the place of an attempt whose result is in: its mint has
    /// ended, so its place is free for the agent behind it even while it
    /// still lives (an agent that wrote its result and has not exited yet
    /// would otherwise send the next agent to another place's queue).
    pub(crate) fn release(&mut self, key: &str) {
        self.of.remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places(count: usize) -> Places {
        Places {
            out: PathBuf::from("/out"),
            count,
            enabled: true,
            of: HashMap::new(),
        }
    }

    /// Picks a place for each key in turn, each agent a live process.
    fn started(p: &mut Places, keys: &[&str]) -> (HashMap<String, Child>, Vec<PathBuf>) {
        let mut children = HashMap::new();
        let mut picked = Vec::new();
        for key in keys {
            picked.extend(p.pick(key, &children));
            let sleeper = std::process::Command::new("sleep").arg("5").spawn();
            children.insert((*key).to_owned(), sleeper.unwrap());
        }
        (children, picked)
    }

    fn end(children: HashMap<String, Child>) {
        for (_, mut c) in children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    #[test]
    fn agents_are_spread_one_behind_each_place() {
        let mut p = places(2);
        let (children, picked) = started(&mut p, &["a", "b", "c", "d"]);
        end(children);
        let expected = [
            "/out/places/0",
            "/out/places/1",
            "/out/places/0",
            "/out/places/1",
        ];
        assert_eq!(picked, expected.map(PathBuf::from));
        assert_eq!(p.agents_at_once(), 4);
    }

    /// Regression: an agent that had written its result but not yet exited
    /// still counted on its place, so the next agent was queued behind
    /// another place's mint, and the freed place later waited for an agent
    /// started cold (3.4 % on the device instead of 1.3-1.7 %).
    #[test]
    fn regression_a_finished_agent_still_alive_does_not_send_the_next_elsewhere() {
        let mut p = places(2);
        let (children, _) = started(&mut p, &["a", "b", "c", "d"]);
        // `b` (place 1) has its result in; its process still lives.
        p.release("b");
        let next = p.pick("e", &children);
        end(children);
        assert_eq!(next, Some(PathBuf::from("/out/places/1")));
    }

    #[test]
    fn without_flock_no_agent_waits_and_none_runs_ahead() {
        let mut p = places(3);
        p.enabled = false;
        assert_eq!(p.pick("a", &HashMap::new()), None);
        assert_eq!(p.agents_at_once(), 3);
    }
}
