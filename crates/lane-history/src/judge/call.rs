//! The calls of one judged run: Bonferroni over its series, the
//! practical floor, and the three confirmations (the other GPU classes,
//! the lane before, a call's own strength); then each series' verdict.

use std::collections::{BTreeMap, BTreeSet};

use super::noise::{pooled_within, repeats_disagree};
use super::one::{Est, Prepared};
use super::Index;
use crate::row::Role;
use crate::stats::{benjamini_hochberg, bonferroni, median_variance_factor, t_quantile, t_sf};
use crate::verdict::{Interval, Noise, NoiseSource, Offer, Policy, SeriesVerdict, Verdict};

/// Which way a call goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    Up,
    Down,
}

impl Way {
    fn p(self, e: &Est) -> f64 {
        match self {
            Way::Up => e.p_up,
            Way::Down => e.p_down,
        }
    }

    fn persist_p(self, e: &Est) -> Option<f64> {
        e.persist.map(|(_, up, down, _)| match self {
            Way::Up => up,
            Way::Down => down,
        })
    }

    fn sign(self) -> f64 {
        match self {
            Way::Up => 1.0,
            Way::Down => -1.0,
        }
    }
}

/// Every test's outcome over one run's judgeable series.
pub(super) struct Calls<'a> {
    prepared: &'a [Prepared],
    est: &'a BTreeMap<usize, Est>,
    policy: &'a Policy,
    index: &'a Index<'a>,
    /// (way, strict) → rejections at `alpha` (strict) or `alpha_inconclusive`.
    bh: BTreeMap<(bool, bool), BTreeMap<usize, bool>>,
    /// way → the two-lane test's rejections at `persist_alpha`.
    persist: BTreeMap<bool, BTreeMap<usize, bool>>,
    /// Each series' family size (series, or totals).
    family: BTreeMap<usize, usize>,
    disagree: BTreeSet<usize>,
}

impl<'a> Calls<'a> {
    pub(super) fn new(
        prepared: &'a [Prepared],
        est: &'a BTreeMap<usize, Est>,
        policy: &'a Policy,
        index: &'a Index<'a>,
    ) -> Calls<'a> {
        let order: Vec<usize> = est.keys().copied().collect();
        // Two families: the series, and the totals (each a sum of series,
        // so testing both in one family would count one move twice).
        let families: Vec<Vec<usize>> = [false, true]
            .into_iter()
            .map(|totals| {
                order
                    .iter()
                    .copied()
                    .filter(|i| (prepared[*i].role == Role::Total) == totals)
                    .collect()
            })
            .collect();
        let run = |q: f64, p: &dyn Fn(&Est) -> f64, test: fn(&[f64], f64) -> Vec<bool>| {
            let mut out = BTreeMap::new();
            for fam in &families {
                let ps: Vec<f64> = fam.iter().map(|i| p(&est[i])).collect();
                out.extend(fam.iter().copied().zip(test(&ps, q)));
            }
            out
        };
        // A call's level never depends on how other series moved
        // (Bonferroni); `inconclusive` is no call, and may (Benjamini–
        // Hochberg): a hint to look again, not a verdict.
        let run_bh = |q: f64, p: &dyn Fn(&Est) -> f64| run(q, p, bonferroni);
        let mut bh = BTreeMap::new();
        let mut persist = BTreeMap::new();
        for way in [Way::Up, Way::Down] {
            let up = way == Way::Up;
            bh.insert((up, true), run_bh(policy.alpha, &|e| way.p(e)));
            bh.insert(
                (up, false),
                run(policy.alpha_inconclusive, &|e| way.p(e), benjamini_hochberg),
            );
            persist.insert(
                up,
                run_bh(policy.persist_alpha, &|e| way.persist_p(e).unwrap_or(1.0)),
            );
        }
        let family = families
            .iter()
            .flat_map(|fam| fam.iter().map(move |i| (*i, fam.len())))
            .collect();
        let disagree = order
            .iter()
            .copied()
            .filter(|&i| repeats_disagree(&prepared[i], policy.repeats_disagree_p))
            .collect();
        Calls {
            prepared,
            est,
            policy,
            index,
            bh,
            persist,
            family,
            disagree,
        }
    }

    fn floor(&self, e: &Est, way: Way) -> bool {
        way.sign() * e.delta >= self.policy.min_ratio.ln()
            && way.sign() * (e.lane_s - e.expected_s) >= self.policy.min_seconds
    }

    /// The other GPU classes of the same cell and phase: every class past
    /// the floor with p below `agree_p`, Stouffer's z below
    /// `corroborate_p`. Returns (`gpu:<classes>`, combined p).
    fn corroborated(&self, i: usize, way: Way) -> Option<(String, f64)> {
        let key = &self.index.keys[self.prepared[i].key];
        let siblings: Vec<usize> = self
            .est
            .keys()
            .copied()
            .filter(|&j| {
                let k = &self.index.keys[self.prepared[j].key];
                j != i && k.cell == key.cell && k.phase == key.phase
            })
            .collect();
        if siblings.is_empty() {
            return None;
        }
        let all: Vec<usize> = std::iter::once(i).chain(siblings.iter().copied()).collect();
        if all.iter().any(|j| self.disagree.contains(j)) {
            return None;
        }
        let agree = all.iter().all(|j| {
            let e = &self.est[j];
            self.floor(e, way) && way.p(e) < self.policy.agree_p
        });
        let z: f64 = all
            .iter()
            .map(|j| -t_quantile(way.p(&self.est[j]).clamp(1e-300, 1.0), f64::INFINITY))
            .sum::<f64>()
            / (all.len() as f64).sqrt();
        let combined = t_sf(z, f64::INFINITY);
        let gpus: Vec<&str> = siblings
            .iter()
            .map(|&j| self.index.keys[self.prepared[j].key].gpu.as_str())
            .collect();
        // Family-wise, as a call: no looser than alpha over the family.
        let level = self
            .policy
            .corroborate_p
            .min(self.policy.alpha / self.family[&i] as f64);
        (agree && combined < level).then(|| (format!("gpu:{}", gpus.join(",")), combined))
    }

    /// The two-lane test confirms: rejected, this lane's own p below
    /// `agree_p` and past the floor, the lane before past the floor too.
    fn persists(&self, i: usize, way: Way) -> Option<String> {
        let e = &self.est[&i];
        let (prev, _, _, prev_move) = e.persist?;
        let rejected = self.persist[&(way == Way::Up)][&i];
        (rejected
            && way.p(e) < self.policy.agree_p
            && way.sign() * prev_move >= self.policy.min_ratio.ln())
        .then(|| format!("previous_lane:{}", self.index.ids[prev]))
    }

    /// Strong enough alone: every repeat of the lane (its fastest, for a
    /// regression) has p below `alone_alpha` over the family's size. Two
    /// slow repeats of three move a median; they do not move the fastest.
    fn strong(&self, i: usize, way: Way) -> Option<String> {
        let e = &self.est[&i];
        let level = self.policy.alone_alpha / self.family[&i] as f64;
        let p = match way {
            Way::Up => e.every_repeat.0,
            Way::Down => e.every_repeat.1,
        };
        (p < level).then(|| format!("alone:every repeat p {p:.1e} < {level:.1e}"))
    }

    /// The call one way, with what confirms it: `None` when not called.
    fn call(&self, i: usize, way: Way) -> Option<(Option<String>, Option<f64>)> {
        let e = &self.est[&i];
        let cpu = self
            .policy
            .cpu_bound
            .contains(&self.index.keys[self.prepared[i].key].phase);
        let corroborated = self.corroborated(i, way);
        let persists = if self.floor(e, way) {
            self.persists(i, way)
        } else {
            None
        };
        let bh = self.floor(e, way) && self.bh[&(way == Way::Up, true)][&i];
        // A CPU-bound phase's classes replicate it: their agreement alone
        // makes the call. Elsewhere it only confirms a call made here.
        let called = bh || persists.is_some() || (cpu && corroborated.is_some());
        if !called {
            return None;
        }
        let strong = if bh { self.strong(i, way) } else { None };
        let combined = corroborated.as_ref().map(|c| c.1);
        let by = corroborated.map(|c| c.0).or(persists).or(strong);
        Some((by, combined))
    }
}

/// Series `i`'s verdict: its numbers, its call, or why it has none.
pub(super) fn verdict_of(calls: &Calls<'_>, i: usize, cell_total: Option<f64>) -> SeriesVerdict {
    let (p, index, policy) = (&calls.prepared[i], calls.index, calls.policy);
    let mut v = SeriesVerdict {
        key: index.keys[p.key].clone(),
        role: p.role,
        verdict: Verdict::InsufficientHistory,
        confirmed: false,
        confirmed_by: None,
        repeats: p.lane.len(),
        lane_s: p.lane_value.map(f64::exp),
        expected_s: None,
        ratio: None,
        delta_s: None,
        interval: None,
        p: None,
        combined_p: None,
        df: None,
        noise: None,
        history: p.history.len(),
        segment: p.segment.started_by.clone(),
        change_points: p.segment.change_points.clone(),
        offer: None,
        acknowledged: p.acknowledged.clone(),
        detectable_ratio: None,
        persist_p: None,
        held_out: p
            .segment
            .held_out
            .iter()
            .map(|&r| index.ids[r].to_owned())
            .collect(),
        note: None,
        explained_by: Vec::new(),
    };
    let Some(e) = calls.est.get(&i) else {
        v.note = Some(if p.lane_value.is_none() {
            "no positive value in this lane: the log scale needs one"
        } else {
            "too few earlier lanes in this series' segment"
        });
        return v;
    };
    let t = t_quantile(policy.interval_level, e.df);
    let within = pooled_within(p);
    let k = p.lane.len().max(1);
    let within_part = within.map_or(0.0, |w| median_variance_factor(k) * w);
    let share = if e.var > 0.0 {
        (within_part / e.var).clamp(0.0, 1.0)
    } else {
        0.0
    };
    v.expected_s = Some(e.expected_s);
    v.ratio = Some(e.delta.exp());
    v.delta_s = Some(e.lane_s - e.expected_s);
    v.interval = Some(Interval {
        level: policy.interval_level,
        lower_s: e.expected_s * (-t * e.se).exp(),
        upper_s: e.expected_s * (t * e.se).exp(),
    });
    v.p = Some(if e.delta >= 0.0 { e.p_up } else { e.p_down });
    v.df = e.df.is_finite().then_some(e.df);
    v.persist_p = e
        .persist
        .map(|(_, up, down, _)| if e.delta >= 0.0 { up } else { down });
    let alpha = policy.alpha / calls.family[&i] as f64;
    v.detectable_ratio =
        Some(((t_quantile(1.0 - alpha, e.df) + t_quantile(0.8, e.df)) * e.se).exp());
    v.noise = Some(Noise {
        within,
        between: (e.var - within_part).max(0.0),
        within_share: share,
        dominant: if share > policy.repeat_share {
            NoiseSource::WithinLane
        } else {
            NoiseSource::BetweenLanes
        },
    });
    let shaky = calls.disagree.contains(&i);
    if let Some((by, combined)) = calls.call(i, Way::Up) {
        v.verdict = Verdict::Regressed;
        v.confirmed_by = by;
        v.combined_p = combined;
    } else if let Some((by, combined)) = calls.call(i, Way::Down) {
        v.verdict = Verdict::Improved;
        v.confirmed_by = by;
        v.combined_p = combined;
    } else if (calls.floor(e, Way::Up) && calls.bh[&(true, false)][&i])
        || (calls.floor(e, Way::Down) && calls.bh[&(false, false)][&i])
    {
        v.verdict = Verdict::Inconclusive;
        if shaky {
            v.note = Some("the lane's repeats disagree: a third repeat decides");
        }
        v.offer = Some(if shaky || share > policy.repeat_share {
            let (seconds, basis) = match cell_total {
                Some(s) => (s, "cell_total"),
                None => (e.lane_s, "series"),
            };
            Offer::ExtraRepeat {
                gpu_minutes: seconds / 60.0,
                basis,
            }
        } else {
            Offer::NextLane
        });
    } else {
        v.verdict = Verdict::Unchanged;
    }
    if shaky && v.note.is_none() {
        v.note = Some("the lane's repeats disagree: its value is the faster; a third repeat would tell a hiccup from a slower mint");
    }
    v.confirmed = v.confirmed_by.is_some();
    v
}
