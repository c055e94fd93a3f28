//! Partition arithmetic: a measured total, the members that divide it, and
//! the named residual that holds whatever the members do not, plus overlays
//! shown beside a partition and never summed into it.
//!
//! The residual is always recomputed as `total - sum(members)` (members summed
//! in order), never clamped: a negative residual is the signal that torch's
//! nesting changed and two members now overlap. When the report also wrote
//! the residual, that value is kept beside it (`reported_s`) and the two are
//! reconciled within [`tolerance`].

use serde::Serialize;

/// Absolute part of the reconciliation tolerance, in seconds: upstream rounds
/// every span to the millisecond, so a sum of a handful of spans can be a few
/// milliseconds off without anything being wrong.
pub const ABS_TOLERANCE_S: f64 = 0.005;

/// Relative part of the reconciliation tolerance (0.1 % of the magnitude).
pub const REL_TOLERANCE: f64 = 0.001;

/// The tolerance for comparing two measurements of about `magnitude`
/// seconds: `max(ABS_TOLERANCE_S, REL_TOLERANCE * |magnitude|)`.
pub fn tolerance(magnitude: f64) -> f64 {
    ABS_TOLERANCE_S.max(REL_TOLERANCE * magnitude.abs())
}

/// `part / total`, absent when the total is not positive.
pub fn share(part: f64, total: f64) -> Option<f64> {
    (total > 0.0).then(|| part / total)
}

/// A named number of seconds inside a partition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Term {
    /// Name as the ledger writes it (`codegen_s`, `warm_compile_s`, ...).
    pub name: String,
    /// Seconds.
    pub seconds: f64,
}

impl Term {
    /// Shorthand constructor.
    pub fn new(name: impl Into<String>, seconds: f64) -> Self {
        Term {
            name: name.into(),
            seconds,
        }
    }
}

/// A member row: seconds and share of the partition's total.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShareRow {
    /// Member name.
    pub name: String,
    /// Seconds.
    pub seconds: f64,
    /// `seconds / total`; absent when the total is not positive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share: Option<f64>,
}

/// The named residual of a partition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Residual {
    /// Its name (`compile_other_s`, `child_other_s`, ...).
    pub name: String,
    /// `total - sum(members)`, recomputed, never clamped (may be negative).
    pub seconds: f64,
    /// `seconds / total`; absent when the total is not positive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share: Option<f64>,
    /// The value the report wrote for it, when it wrote one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reported_s: Option<f64>,
}

/// A measured total divided into members plus a named residual.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Partition {
    /// The total being divided.
    pub total: Term,
    /// The members, in ledger order.
    pub members: Vec<ShareRow>,
    /// What the members do not cover.
    pub residual: Residual,
    /// Members the vocabulary expects but the source never measured: absent,
    /// not zero, and not part of `members`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unobserved: Vec<String>,
}

impl Partition {
    /// Builds a partition; the residual is `total - sum(members)`.
    pub fn new(
        total: Term,
        members: Vec<Term>,
        residual_name: &str,
        reported_residual: Option<f64>,
    ) -> Partition {
        let sum = sum_in_order(members.iter().map(|m| m.seconds));
        let residual_s = total.seconds - sum;
        let members = members
            .into_iter()
            .map(|m| ShareRow {
                share: share(m.seconds, total.seconds),
                name: m.name,
                seconds: m.seconds,
            })
            .collect();
        Partition {
            residual: Residual {
                name: residual_name.to_owned(),
                seconds: residual_s,
                share: share(residual_s, total.seconds),
                reported_s: reported_residual,
            },
            total,
            members,
            unobserved: Vec::new(),
        }
    }

    /// The sum of the members, in order.
    pub fn members_sum(&self) -> f64 {
        sum_in_order(self.members.iter().map(|m| m.seconds))
    }

    /// The seconds of member `name`, when present.
    pub fn member(&self, name: &str) -> Option<f64> {
        self.members
            .iter()
            .find(|m| m.name == name)
            .map(|m| m.seconds)
    }
}

fn sum_in_order(values: impl Iterator<Item = f64>) -> f64 {
    values.fold(0.0, |acc, v| acc + v)
}

/// An overlay row: a span nested inside partition members, shown beside the
/// partition and never added to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OverlayRow {
    /// Overlay name.
    pub name: String,
    /// Seconds.
    pub seconds: f64,
    /// `seconds / partition total`; absent without a positive total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_of_total: Option<f64>,
    /// True when the overlay exceeds the partition's total (legitimate for
    /// CPU sums over worker threads such as `parallel_kernel_cpu_s`).
    pub exceeds_total: bool,
}

/// Overlay rows against a partition total (when there is one).
pub fn overlay_rows(overlays: &[Term], total: Option<f64>) -> Vec<OverlayRow> {
    overlays
        .iter()
        .map(|o| OverlayRow {
            name: o.name.clone(),
            seconds: o.seconds,
            share_of_total: total.and_then(|t| share(o.seconds, t)),
            exceeds_total: total.is_some_and(|t| o.seconds > t + tolerance(t)),
        })
        .collect()
}

/// One reconciliation check: two numbers that must agree.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    /// What is checked, in words (`members + residual = warm_compile_s`).
    pub what: String,
    /// The value the ledger states.
    pub expected: f64,
    /// The value lane recomputed.
    pub observed: f64,
    /// `observed - expected`.
    pub difference: f64,
    /// The allowed |difference|.
    pub tolerance: f64,
    /// `s` for seconds, `count` for counts.
    pub unit: &'static str,
    /// True when |difference| <= tolerance.
    pub holds: bool,
}

/// All reconciliation checks of one mint.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Reconciliation {
    /// The checks, in the order they were made.
    pub checks: Vec<Check>,
}

impl Reconciliation {
    /// Adds a seconds check with the default [`tolerance`].
    pub fn seconds(&mut self, what: impl Into<String>, expected: f64, observed: f64) {
        let difference = observed - expected;
        let tol = tolerance(expected.abs().max(observed.abs()));
        self.checks.push(Check {
            what: what.into(),
            expected,
            observed,
            difference,
            tolerance: tol,
            unit: "s",
            holds: difference.abs() <= tol,
        });
    }

    /// Adds a seconds check with an explicit tolerance (for values the
    /// writer rounded coarser than the millisecond).
    pub fn seconds_within(
        &mut self,
        what: impl Into<String>,
        expected: f64,
        observed: f64,
        tolerance: f64,
    ) {
        let difference = observed - expected;
        self.checks.push(Check {
            what: what.into(),
            expected,
            observed,
            difference,
            tolerance,
            unit: "s",
            holds: difference.abs() <= tolerance,
        });
    }

    /// Adds an exact count check.
    pub fn count(&mut self, what: impl Into<String>, expected: u64, observed: u64) {
        self.checks.push(Check {
            what: what.into(),
            expected: expected as f64,
            observed: observed as f64,
            difference: observed as f64 - expected as f64,
            tolerance: 0.0,
            unit: "count",
            holds: expected == observed,
        });
    }

    /// True when every check holds (and vacuously when there are none).
    pub fn holds(&self) -> bool {
        self.checks.iter().all(|c| c.holds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn residual_is_total_minus_members_and_never_clamped() {
        let p = Partition::new(
            Term::new("t", 10.0),
            vec![Term::new("a", 6.0), Term::new("b", 5.0)],
            "other",
            None,
        );
        assert_eq!(p.residual.seconds, -1.0);
        assert_eq!(p.residual.share, Some(-0.1));
    }

    #[test]
    fn zero_total_has_no_shares() {
        let p = Partition::new(Term::new("t", 0.0), vec![Term::new("a", 0.0)], "o", None);
        assert_eq!(p.members[0].share, None);
        assert_eq!(p.residual.share, None);
    }

    #[test]
    fn overlay_exceeding_the_total_is_marked_not_summed() {
        let rows = overlay_rows(&[Term::new("parallel_kernel_cpu_s", 30.0)], Some(10.0));
        assert!(rows[0].exceeds_total);
        assert_eq!(rows[0].share_of_total, Some(3.0));
    }

    #[test]
    fn reconciliation_uses_the_stated_tolerance() {
        let mut r = Reconciliation::default();
        r.seconds("close", 16.445, 16.449);
        assert!(r.holds());
        r.seconds("far", 16.445, 16.5);
        assert!(!r.holds());
    }
}
