//! Whether each side of a diff was compiled cold, on positive evidence.
//!
//! Identical bytes prove determinism only when both sides compiled: a
//! repeat that took its graphs from the other's compiled-graph cache packs
//! the other's bytes. A side is `proven` cold only when every graph class
//! has compile time, none was resolved from a cache, and its attempt ran
//! with a `/tmp` of its own (lane's isolation: no other attempt's paths to
//! inherit); `warm` when a class was not compiled; `unknown`, with why,
//! when the evidence is absent (a packed cell carries none; recordings
//! made outside lane have no attempt record). The edge gathers the
//! evidence (the report's per-class rows, the attempt's record); this
//! module judges it and applies it to the verdict
//! ([`DeterminismVerdict::IdenticalNotProven`]).

use serde::Serialize;

use super::classes::PairDiff;
use super::DeterminismVerdict;

/// How cold one side is known to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cold {
    /// Every class compiled, none from a cache, in an attempt of its own.
    Proven,
    /// At least one class was not compiled (resolved from a cache, or 0 s).
    Warm,
    /// The evidence is absent.
    Unknown,
}

/// One side's coldness, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideCold {
    /// The judgement.
    pub cold: Cold,
    /// The evidence, or what is missing, in words.
    pub why: String,
}

/// Both sides' coldness.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Coldness {
    /// Side A.
    pub a: SideCold,
    /// Side B.
    pub b: SideCold,
}

impl Coldness {
    /// Whether both sides are proven cold.
    pub fn proven(&self) -> bool {
        self.a.cold == Cold::Proven && self.b.cold == Cold::Proven
    }
}

/// One graph class's compile row, as the mint's report gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassCompile {
    /// The class (`unet/B=2`).
    pub name: String,
    /// Seconds compiling it (`compile_s`), when measured.
    pub compile_s: Option<f64>,
    /// Seconds resolving it from the compiled-graph cache (`reuse_s`).
    pub reuse_s: Option<f64>,
    /// How the mint says it got the class without compiling it, when it
    /// says so (gen-worker 0.127's `present`, `reused`, `claimed`).
    pub resolved: Option<String>,
}

/// What the edge found about one side.
#[derive(Debug, Clone, PartialEq)]
pub struct ColdEvidence {
    /// The report's per-class compile rows, or why there are none.
    pub classes: Result<Vec<ClassCompile>, String>,
    /// How the attempt's `/tmp` was its own, or why it is not known to be.
    pub own_tmp: Result<String, String>,
}

/// Judges one side. See the module documentation.
pub fn judge(e: &ColdEvidence) -> SideCold {
    let unknown = |why: String| SideCold {
        cold: Cold::Unknown,
        why,
    };
    let classes = match &e.classes {
        Ok(c) if c.is_empty() => {
            return unknown("its report names no graph class's compile".into())
        }
        Ok(c) => c,
        Err(why) => return unknown(why.clone()),
    };
    let not_compiled: Vec<String> = classes
        .iter()
        .filter_map(|c| match (c.compile_s, c.reuse_s) {
            _ if c.resolved.is_some() => Some(format!(
                "{} ({}: not compiled by this attempt)",
                c.name,
                c.resolved.as_deref().unwrap_or_default()
            )),
            (_, Some(r)) if r > 0.0 => Some(format!(
                "{} (compile_s {}, reuse_s {r:.3} s: resolved from the compiled-graph cache)",
                c.name,
                c.compile_s.map_or("absent".into(), |s| format!("{s:.3} s"))
            )),
            (Some(s), _) if s <= 0.0 => Some(format!("{} (compile_s 0)", c.name)),
            _ => None,
        })
        .collect();
    if !not_compiled.is_empty() {
        return SideCold {
            cold: Cold::Warm,
            why: format!(
                "{} of {} class(es) not compiled: {}",
                not_compiled.len(),
                classes.len(),
                not_compiled.join(", ")
            ),
        };
    }
    if let Some(c) = classes.iter().find(|c| c.compile_s.is_none()) {
        return unknown(format!("class {} has no compile_s", c.name));
    }
    let seconds: Vec<String> = classes
        .iter()
        .map(|c| format!("{} {:.3} s", c.name, c.compile_s.unwrap_or_default()))
        .collect();
    let compiled = format!(
        "every class compiled ({}), none resolved from a cache",
        seconds.join(", ")
    );
    match &e.own_tmp {
        Ok(how) => SideCold {
            cold: Cold::Proven,
            why: format!("{compiled}, in a /tmp of its own ({how})"),
        },
        Err(why) => unknown(format!("{compiled}, but {why}")),
    }
}

impl PairDiff {
    /// Says each side's coldness; identical bytes of a pair not both
    /// proven cold become [`DeterminismVerdict::IdenticalNotProven`].
    pub fn with_coldness(mut self, coldness: Coldness) -> PairDiff {
        let (verdict, summary, slot) = match &mut self {
            PairDiff::Cells(r) => (&mut r.verdict, &mut r.summary, &mut r.coldness),
            PairDiff::Classes(r) => (&mut r.verdict, &mut r.summary, &mut r.coldness),
        };
        if *verdict == DeterminismVerdict::ByteIdentical && !coldness.proven() {
            *verdict = DeterminismVerdict::IdenticalNotProven;
            let side = |name: &str, s: &SideCold| match s.cold {
                Cold::Proven => None,
                Cold::Warm => Some(format!("{name} is warm")),
                Cold::Unknown => Some(format!("{name}'s coldness is unknown")),
            };
            let sides: Vec<String> = [side("A", &coldness.a), side("B", &coldness.b)]
                .into_iter()
                .flatten()
                .collect();
            *summary = format!(
                "identical, but not a proof of determinism: {} ({summary})",
                sides.join(" and ")
            );
        }
        *slot = Some(coldness);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(name: &str, compile_s: Option<f64>, reuse_s: Option<f64>) -> ClassCompile {
        ClassCompile {
            name: name.into(),
            compile_s,
            reuse_s,
            resolved: None,
        }
    }

    fn evidence(classes: Vec<ClassCompile>, own_tmp: Result<&str, &str>) -> ColdEvidence {
        ColdEvidence {
            classes: Ok(classes),
            own_tmp: own_tmp.map(str::to_owned).map_err(str::to_owned),
        }
    }

    #[test]
    fn a_class_resolved_from_the_cache_makes_the_side_warm() {
        let e = evidence(
            vec![
                class("unet/B=1", Some(23.7), Some(0.0)),
                class("unet/B=2", Some(0.0), Some(0.058)),
            ],
            Ok("user and mount namespaces"),
        );
        let s = judge(&e);
        assert_eq!(s.cold, Cold::Warm);
        assert_eq!(
            s.why,
            "1 of 2 class(es) not compiled: unet/B=2 (compile_s 0.000 s, reuse_s 0.058 s: resolved from the compiled-graph cache)"
        );
    }

    #[test]
    fn a_specialization_present_in_the_store_makes_the_side_warm() {
        let mut present = class("cg-graph-v1-dec46b67", Some(0.21), None);
        present.resolved = Some("present".into());
        let e = evidence(
            vec![class("cg-graph-v1-0a1b", Some(46.5), None), present],
            Ok("user and mount namespaces"),
        );
        let s = judge(&e);
        assert_eq!(s.cold, Cold::Warm);
        assert_eq!(
            s.why,
            "1 of 2 class(es) not compiled: cg-graph-v1-dec46b67 (present: not compiled by this attempt)"
        );
    }

    #[test]
    fn a_warm_repeat_with_reuse_s_0_is_still_warm() {
        let e = evidence(vec![class("k", Some(0.0), Some(0.0))], Ok("x"));
        assert_eq!(judge(&e).cold, Cold::Warm);
    }

    #[test]
    fn compile_times_without_an_attempt_of_its_own_are_no_proof() {
        let e = evidence(
            vec![class("k", Some(9.5), None)],
            Err("no attempt record (mint.json) says its /tmp was its own"),
        );
        let s = judge(&e);
        assert_eq!(s.cold, Cold::Unknown);
        assert!(s
            .why
            .ends_with("but no attempt record (mint.json) says its /tmp was its own"));
        let e = evidence(vec![class("k", Some(9.5), None)], Ok("mount namespace"));
        assert_eq!(judge(&e).cold, Cold::Proven);
        let e = evidence(vec![class("k", None, None)], Ok("mount namespace"));
        assert_eq!(judge(&e).cold, Cold::Unknown);
        let e = evidence(Vec::new(), Ok("mount namespace"));
        assert_eq!(judge(&e).cold, Cold::Unknown);
    }
}
