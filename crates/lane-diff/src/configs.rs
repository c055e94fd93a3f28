//! Autotune choices: reading `*.best_config` files, attributing each to its
//! kernel, and naming the config fields that differ between two mints.
//!
//! A best_config is a small JSON object. Its fields fall in three groups:
//! - measurement noise, never a config: `time_taken_ms`,
//!   `triton_cache_hash` (the compiled binary's hash, which follows the
//!   config), `found_by_coordesc` (how the search ran), and `_kernel` (a
//!   label some tools add);
//! - the candidate-set fingerprint `configs_hash`: if it differs, autotune
//!   chose among different candidates, which autotune alone does not explain;
//! - every other field is a config field (`XBLOCK`, `YBLOCK`, `R0_BLOCK`,
//!   `num_warps`, `num_stages`, ... including fields lane has never seen).

use std::collections::BTreeMap;

use serde::Serialize;

/// Fields that are measurements, not configs.
pub const MEASUREMENT_FIELDS: [&str; 4] = [
    "time_taken_ms",
    "triton_cache_hash",
    "found_by_coordesc",
    "_kernel",
];

/// The candidate-set fingerprint field.
pub const CANDIDATE_SET_FIELD: &str = "configs_hash";

/// A parsed best_config.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BestConfig {
    pub(crate) fields: BTreeMap<String, serde_json::Value>,
}

impl BestConfig {
    /// Parses the file's text; `None` when it is not a JSON object.
    pub(crate) fn parse(text: &str) -> Option<BestConfig> {
        match serde_json::from_str::<serde_json::Value>(text).ok()? {
            serde_json::Value::Object(map) => Some(BestConfig {
                fields: map.into_iter().collect(),
            }),
            _ => None,
        }
    }

    /// The `_kernel` label, when a tool added one.
    pub(crate) fn kernel_label(&self) -> Option<&str> {
        self.fields
            .get("_kernel")?
            .as_str()
            .filter(|s| !s.is_empty())
    }

    /// Config fields only (no measurements, no candidate-set fingerprint).
    pub(crate) fn config(&self) -> BTreeMap<String, serde_json::Value> {
        self.fields
            .iter()
            .filter(|(k, _)| {
                !MEASUREMENT_FIELDS.contains(&k.as_str()) && k.as_str() != CANDIDATE_SET_FIELD
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// An integer config field (`XBLOCK`, `num_warps`).
    pub(crate) fn int(&self, key: &str) -> Option<i64> {
        self.fields.get(key)?.as_i64()
    }

    /// Fields whose value has the wrong type for what the field is, with
    /// what was expected: a block size or warp count that is not a
    /// non-negative integer (`"XBLOCK": "1024"`), a measurement that is not
    /// a number, a hash that is not a string. Never read as agreement.
    pub(crate) fn ill_typed(&self) -> Vec<(&str, &serde_json::Value, &'static str)> {
        self.fields
            .iter()
            .filter_map(|(k, v)| {
                let expected = expected_type(k)?;
                let ok = match expected {
                    INTEGER => v.as_u64().is_some(),
                    NUMBER => v.is_number(),
                    STRING => v.is_string(),
                    BOOLEAN => v.is_boolean(),
                    _ => true,
                };
                (!ok).then_some((k.as_str(), v, expected))
            })
            .collect()
    }
}

const INTEGER: &str = "a non-negative integer";
const NUMBER: &str = "a number";
const STRING: &str = "a string";
const BOOLEAN: &str = "true or false";

/// Integer config fields Triton and inductor write, besides `*BLOCK`.
const INTEGER_FIELDS: [&str; 9] = [
    "num_warps",
    "num_stages",
    "num_ctas",
    "maxnreg",
    "num_consumer_groups",
    "num_buffers_warp_spec",
    "waves_per_eu",
    "matrix_instr_nonkdim",
    "kpack",
];

/// The type a known best_config field must have; `None` for fields lane
/// does not know (compared as values, whatever their type).
fn expected_type(field: &str) -> Option<&'static str> {
    match field {
        "time_taken_ms" => Some(NUMBER),
        "triton_cache_hash" | CANDIDATE_SET_FIELD | "_kernel" => Some(STRING),
        "found_by_coordesc" => Some(BOOLEAN),
        f if f.ends_with("BLOCK") || INTEGER_FIELDS.contains(&f) => Some(INTEGER),
        _ => None,
    }
}

/// One config field that differs between the two mints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfigFieldDiff {
    /// The field (`XBLOCK`, `num_warps`, ...).
    pub field: String,
    /// Its value in A; absent when A has no such field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<serde_json::Value>,
    /// Its value in B; absent when B has no such field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<serde_json::Value>,
}

/// How two best_configs of one kernel compare.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ConfigComparison {
    /// Config fields that differ, sorted by field name.
    pub(crate) fields: Vec<ConfigFieldDiff>,
    /// Measurement fields that differ (noise).
    pub(crate) measurement_fields: Vec<String>,
    /// True when `configs_hash` differs.
    pub(crate) candidate_set_differs: bool,
}

pub(crate) fn compare(a: &BestConfig, b: &BestConfig) -> ConfigComparison {
    let ca = a.config();
    let cb = b.config();
    let mut keys: Vec<&String> = ca.keys().chain(cb.keys()).collect();
    keys.sort();
    keys.dedup();
    let fields = keys
        .into_iter()
        .filter(|k| ca.get(*k) != cb.get(*k))
        .map(|k| ConfigFieldDiff {
            field: k.clone(),
            a: ca.get(k).cloned(),
            b: cb.get(k).cloned(),
        })
        .collect();
    let measurement_fields = MEASUREMENT_FIELDS
        .iter()
        .filter(|k| a.fields.get(**k) != b.fields.get(**k))
        .map(|k| (*k).to_owned())
        .collect();
    ConfigComparison {
        fields,
        measurement_fields,
        candidate_set_differs: a.fields.get(CANDIDATE_SET_FIELD)
            != b.fields.get(CANDIDATE_SET_FIELD),
    }
}

/// The Triton kernel a generated `.py` source defines, when it defines one:
/// the name after `def ` of the function decorated `@triton.jit`.
pub(crate) fn kernel_defined_in(source: &str) -> Option<String> {
    let mut jit = false;
    let mut found: Option<String> = None;
    for line in source.lines() {
        let t = line.trim_start();
        if t.starts_with("@triton.jit") {
            jit = true;
            continue;
        }
        if jit {
            if let Some(rest) = t.strip_prefix("def ") {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name.starts_with("triton_") {
                    match &found {
                        // Two kernels in one source: attribution would be a guess.
                        Some(prev) if *prev != name => return None,
                        _ => found = Some(name),
                    }
                }
                jit = false;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measurements_are_not_configs() {
        let a = BestConfig::parse(
            r#"{"XBLOCK": 1024, "num_warps": 4, "time_taken_ms": 27, "configs_hash": "h"}"#,
        )
        .unwrap();
        let b = BestConfig::parse(
            r#"{"XBLOCK": 512, "num_warps": 4, "time_taken_ms": 41, "configs_hash": "h"}"#,
        )
        .unwrap();
        let c = compare(&a, &b);
        assert_eq!(c.fields.len(), 1);
        assert_eq!(c.fields[0].field, "XBLOCK");
        assert_eq!(c.measurement_fields, ["time_taken_ms"]);
        assert!(!c.candidate_set_differs);
    }

    #[test]
    fn unknown_fields_count_as_config() {
        let a = BestConfig::parse(r#"{"XBLOCK": 8, "maxnreg": 128}"#).unwrap();
        let b = BestConfig::parse(r#"{"XBLOCK": 8}"#).unwrap();
        let c = compare(&a, &b);
        assert_eq!(c.fields[0].field, "maxnreg");
        assert_eq!(c.fields[0].b, None);
    }

    #[test]
    fn a_block_size_written_as_a_string_is_ill_typed() {
        let c = BestConfig::parse(
            r#"{"XBLOCK": "1024", "num_warps": 4, "R0_BLOCK": -8, "time_taken_ms": "27", "maxnreg": null, "mystery": "x"}"#,
        )
        .unwrap();
        let bad: Vec<&str> = c.ill_typed().iter().map(|(f, _, _)| *f).collect();
        assert_eq!(bad, ["R0_BLOCK", "XBLOCK", "maxnreg", "time_taken_ms"]);
        let ok = BestConfig::parse(
            r#"{"XBLOCK": 1024, "num_warps": 4, "configs_hash": "h", "found_by_coordesc": false}"#,
        )
        .unwrap();
        assert!(ok.ill_typed().is_empty());
    }

    #[test]
    fn kernel_name_from_source() {
        let src = "@triton_heuristics.pointwise(\n    size_hints={'x': 4})\n@triton.jit\ndef triton_poi_fused_add_0(in_ptr0, XBLOCK : tl.constexpr):\n    pass\n";
        assert_eq!(
            kernel_defined_in(src).as_deref(),
            Some("triton_poi_fused_add_0")
        );
        assert_eq!(kernel_defined_in("def triton_x(): pass"), None);
    }
}
