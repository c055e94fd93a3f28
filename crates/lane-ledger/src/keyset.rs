//! Which torch metric keys feed which ledger row, and whether the key set
//! seen on the running torch still reconciles with the ledger it produced.
//!
//! Upstream builds its ledger from `torch._dynamo.utils.compilation_time_metrics`
//! (function name -> seconds). Key names move between torch versions, so a
//! report that carries the raw deltas (`raw_metrics`) is checked here: every
//! ledger member must equal the sum of its keys, and the partition total's
//! key must exist at all. A key set that no longer reconciles fails loudly
//! (an error finding) instead of silently moving time into the residual.
//!
//! The same maps turn a TORCH_TRACE's `dynamo_timed` spans (the same function
//! names) into a partition, so a mint whose library predates the warm ledger
//! still gets its compile half broken down.

use serde::Serialize;

use crate::partition::{tolerance, Partition, Term};
use crate::report::Span;

/// One ledger vocabulary: rows and the torch metric keys summed into each.
#[derive(Debug, Clone, Copy)]
pub struct KeyMap {
    /// A name for the map, shown in output.
    pub name: &'static str,
    /// The metric key whose value is the partition's total, when one exists
    /// (the AOT record's total is a wall clock, not a metric).
    pub total_key: Option<&'static str>,
    /// The span that bounds the compile in a TORCH_TRACE, when it differs
    /// from `total_key` (torch.export does not go through dynamo's frame
    /// compile, so the AOT path has no `_compile.compile_inner`).
    pub trace_total_key: Option<&'static str>,
    /// Partition members (residual excluded) and their keys.
    pub members: &'static [(&'static str, &'static [&'static str])],
    /// The named residual.
    pub residual: &'static str,
    /// Overlays and their keys.
    pub overlays: &'static [(&'static str, &'static [&'static str])],
    /// Whether `triton_s` is built by the substring rule (every key holding
    /// "triton", except `compile_file`).
    pub triton_overlay: bool,
}

/// The warm ledger's map (pgw#989, `gen_worker.warm_spans`, torch pin 2.13).
pub const WARM_SPANS_V1: KeyMap = KeyMap {
    name: "warm_spans v1",
    total_key: Some("_compile.compile_inner"),
    trace_total_key: Some("_compile.compile_inner"),
    members: &[
        (
            "tracing_s",
            &["bytecode_tracing", "build_guards", "variable_builder_call"],
        ),
        (
            "graph_passes_s",
            &[
                "_recursive_pre_grad_passes",
                "_recursive_joint_graph_passes",
                "_recursive_post_grad_passes",
            ],
        ),
        ("lowering_s", &["GraphLowering.run"]),
        ("codegen_s", &["GraphLowering.codegen"]),
        ("kernel_compile_s", &["PyCodeCache.load_by_key_path"]),
        ("host_compile_s", &["AotCodeCompiler.compile"]),
    ],
    residual: "compile_other_s",
    overlays: &[
        ("async_wait_s", &["async_compile.wait"]),
        ("parallel_kernel_cpu_s", &["compile_file"]),
        ("aot_dispatch_s", &["create_aot_dispatcher_function"]),
        ("autotune_s", &["CachingAutotuner.benchmark_all_configs"]),
    ],
    triton_overlay: true,
};

/// The AOT compile map (`aot_compile_spans`, the innermost `compile_wall_s`
/// level of an entry).
pub const AOT_COMPILE_V1: KeyMap = KeyMap {
    name: "aot_compile_spans v1",
    total_key: None,
    trace_total_key: Some("compile_fx_aot"),
    members: &[
        ("lowering_s", &["GraphLowering.run"]),
        ("codegen_s", &["GraphLowering.codegen"]),
        ("host_compile_s", &["AotCodeCompiler.compile"]),
        (
            "graph_passes_s",
            &[
                "_recursive_pre_grad_passes",
                "_recursive_joint_graph_passes",
                "_recursive_post_grad_passes",
            ],
        ),
    ],
    residual: "compile_other_s",
    overlays: &[
        ("autotune_s", &["CachingAutotuner.benchmark_all_configs"]),
        ("async_wait_s", &["async_compile.wait"]),
        (
            "inductor_total_s",
            &["compile_fx.<locals>.fw_compiler_base"],
        ),
        ("parallel_kernel_cpu_s", &["compile_file"]),
    ],
    triton_overlay: false,
};

/// The probe record's partition vocabulary (residual included).
pub const AOT_RECORD_PARTITION_KEYS: [&str; 5] = [
    "lowering_s",
    "codegen_s",
    "host_compile_s",
    "graph_passes_s",
    "compile_other_s",
];

/// A metric-name lookup over a raw key set.
pub struct RawMetrics<'a> {
    spans: &'a [Span],
}

impl<'a> RawMetrics<'a> {
    /// Wraps a key set (`raw_metrics`, or trace span totals).
    pub fn new(spans: &'a [Span]) -> Self {
        RawMetrics { spans }
    }

    /// The value of `key`, when the running torch recorded it.
    pub fn get(&self, key: &str) -> Option<f64> {
        self.spans.iter().find(|s| s.name == key).map(|s| s.seconds)
    }

    /// The keys of `keys` that are present, and the sum of their values.
    pub fn sum(&self, keys: &[&str]) -> (Vec<String>, f64) {
        let mut present = Vec::new();
        let mut total = 0.0;
        for key in keys {
            if let Some(v) = self.get(key) {
                present.push((*key).to_owned());
                total += v;
            }
        }
        (present, total)
    }

    /// `triton_s` by the substring rule: every key holding "triton"
    /// (case-insensitive) except `compile_file`. Absent when none matches.
    pub fn triton(&self) -> Option<(Vec<String>, f64)> {
        let mut keys = Vec::new();
        let mut total = 0.0;
        for s in self.spans {
            if s.name != "compile_file" && s.name.to_ascii_lowercase().contains("triton") {
                keys.push(s.name.clone());
                total += s.seconds;
            }
        }
        (!keys.is_empty()).then_some((keys, total))
    }
}

/// One row of a key-set check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyCheckRow {
    /// The ledger row (`codegen_s`, `warm_compile_s`, ...).
    pub name: String,
    /// The metric keys the map sums into it.
    pub keys: Vec<String>,
    /// Those keys the running torch actually recorded.
    pub keys_present: Vec<String>,
    /// The sum of the present keys (absent when none is present).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_s: Option<f64>,
    /// The value the ledger reported.
    pub reported_s: f64,
    /// The allowed |difference|.
    pub tolerance_s: f64,
    /// True when the row reconciles.
    pub holds: bool,
}

/// Whether a ledger still reconciles with the key set of the running torch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeySetCheck {
    /// The map used.
    pub key_map: &'static str,
    /// Number of metric keys the running torch recorded.
    pub keys_seen: usize,
    /// One row per checked ledger row; the total first when there is one.
    pub rows: Vec<KeyCheckRow>,
    /// Ledger rows the map has no keys for (not checkable, not failing).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmapped: Vec<String>,
    /// True when every row holds.
    pub holds: bool,
}

/// Checks a ledger's total, members and overlays against the raw key set.
pub fn check_key_set(
    map: &KeyMap,
    raw: &[Span],
    reported_total: Option<&Term>,
    reported_members: &[Span],
    reported_overlays: &[Span],
) -> KeySetCheck {
    let metrics = RawMetrics::new(raw);
    let mut rows = Vec::new();
    let mut unmapped = Vec::new();
    if let (Some(key), Some(total)) = (map.total_key, reported_total) {
        let raw_s = metrics.get(key);
        let tol = tolerance(total.seconds);
        rows.push(KeyCheckRow {
            name: total.name.clone(),
            keys: vec![key.to_owned()],
            keys_present: raw_s.iter().map(|_| key.to_owned()).collect(),
            raw_s,
            reported_s: total.seconds,
            tolerance_s: tol,
            // The total's key missing is the loud failure: the running torch
            // renamed the function the whole partition is measured against.
            holds: raw_s.is_some_and(|r| (r - total.seconds).abs() <= tol),
        });
    }
    let rows_for = |table: &[(&str, &[&str])], spans: &[Span], triton: bool| {
        let mut out = Vec::new();
        let mut missing = Vec::new();
        for span in spans {
            let mapped = table.iter().find(|(name, _)| *name == span.name);
            let (keys, present, sum) = match mapped {
                Some((_, keys)) => {
                    let (present, sum) = metrics.sum(keys);
                    (keys.iter().map(|k| (*k).to_owned()).collect(), present, sum)
                }
                None if triton && span.name == "triton_s" => match metrics.triton() {
                    Some((present, sum)) => (vec!["*triton*".to_owned()], present, sum),
                    None => (vec!["*triton*".to_owned()], Vec::new(), 0.0),
                },
                None => {
                    missing.push(span.name.clone());
                    continue;
                }
            };
            let tol = tolerance(span.seconds);
            let raw_s = (!present.is_empty()).then_some(sum);
            out.push(KeyCheckRow {
                name: span.name.clone(),
                keys,
                keys_present: present,
                raw_s,
                reported_s: span.seconds,
                tolerance_s: tol,
                // A member none of whose keys was seen must read zero.
                holds: (sum - span.seconds).abs() <= tol,
            });
        }
        (out, missing)
    };
    let members: Vec<Span> = reported_members
        .iter()
        .filter(|s| s.name != map.residual)
        .cloned()
        .collect();
    let (member_rows, missing) = rows_for(map.members, &members, false);
    rows.extend(member_rows);
    unmapped.extend(missing);
    let (overlay_rows, missing) = rows_for(map.overlays, reported_overlays, map.triton_overlay);
    rows.extend(overlay_rows);
    unmapped.extend(missing);
    let holds = rows.iter().all(|r| r.holds);
    KeySetCheck {
        key_map: map.name,
        keys_seen: raw.len(),
        rows,
        unmapped,
        holds,
    }
}

/// Builds a partition and its overlays from a raw key set (trace spans) using
/// `map`. Absent when the total's span was never seen.
pub fn partition_from_raw(map: &KeyMap, raw: &[Span]) -> Option<(Partition, Vec<Term>)> {
    let metrics = RawMetrics::new(raw);
    let total_key = map.trace_total_key?;
    let total = metrics.get(total_key)?;
    let mut members = Vec::new();
    let mut unobserved = Vec::new();
    for (name, keys) in map.members {
        let (present, sum) = metrics.sum(keys);
        if present.is_empty() {
            // Never measured: absent, not zero.
            unobserved.push((*name).to_owned());
        } else {
            members.push(Term::new(*name, sum));
        }
    }
    let mut partition = Partition::new(Term::new(total_key, total), members, map.residual, None);
    partition.unobserved = unobserved;
    let mut overlays = Vec::new();
    for (name, keys) in map.overlays {
        let (present, sum) = metrics.sum(keys);
        if !present.is_empty() {
            overlays.push(Term::new(*name, sum));
        }
    }
    if map.triton_overlay {
        if let Some((_, sum)) = metrics.triton() {
            overlays.push(Term::new("triton_s", sum));
        }
    }
    Some((partition, overlays))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(pairs: &[(&str, f64)]) -> Vec<Span> {
        pairs.iter().map(|(k, v)| Span::new(*k, *v)).collect()
    }

    #[test]
    fn missing_total_key_does_not_reconcile() {
        let check = check_key_set(
            &WARM_SPANS_V1,
            &raw(&[("GraphLowering.codegen", 4.0)]),
            Some(&Term::new("warm_compile_s", 5.0)),
            &[Span::new("codegen_s", 4.0)],
            &[],
        );
        assert!(!check.holds);
        assert!(!check.rows[0].holds);
        assert!(check.rows[1].holds);
    }

    #[test]
    fn member_summed_from_several_keys() {
        let check = check_key_set(
            &WARM_SPANS_V1,
            &raw(&[
                ("_compile.compile_inner", 1.0),
                ("bytecode_tracing", 0.5),
                ("build_guards", 0.25),
            ]),
            Some(&Term::new("warm_compile_s", 1.0)),
            &[Span::new("tracing_s", 0.75), Span::new("mystery_s", 0.1)],
            &[],
        );
        assert!(check.holds, "{check:?}");
        assert_eq!(check.unmapped, ["mystery_s"]);
    }

    #[test]
    fn unseen_members_are_unobserved_not_zero() {
        let (p, _) = partition_from_raw(
            &AOT_COMPILE_V1,
            &raw(&[("compile_fx_aot", 10.0), ("GraphLowering.codegen", 4.0)]),
        )
        .unwrap();
        assert_eq!(p.members.len(), 1);
        assert!(p.unobserved.contains(&"host_compile_s".to_owned()));
        assert_eq!(p.residual.seconds, 6.0);
    }
}
