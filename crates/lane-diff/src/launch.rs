//! Launch configs read from a C++ wrapper, for packages that ship no
//! `*.best_config` (a `.pt2` never does).
//!
//! AOTInductor bakes each kernel's autotune choice into its launcher,
//! `static inline void call_triton_X(...) { ... }`:
//!
//! ```text
//! uint32_t grid_0 = ((xnumel + (128 - 1)) / (128));   // XBLOCK 128
//! uint32_t grid_1 = ((ynumel + (8 - 1)) / (8));       // YBLOCK 8
//! uint32_t grid_0 = xnumel;                           // XBLOCK 1
//! launchKernel(kernels_.triton_X, grid_0, grid_1, grid_2, 4, 4096, ...);
//!                                       // num_warps 4, shared_mem 4096
//! ```
//!
//! A grid of another shape is kept as its expression (`grid_0`), so a change
//! still shows; `grid_N = 1` is an unused axis. What the wrapper does not
//! show (num_stages, a reduction's R0_BLOCK) is not in the config.

use std::collections::BTreeMap;

use serde_json::Value;

use super::text::{grid_re, launcher_of};

/// One kernel's launch config, as its launcher states it.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct LaunchConfig {
    pub(crate) fields: BTreeMap<String, Value>,
}

/// Every launcher's config in a C++ wrapper, by kernel name.
pub(crate) fn launch_configs(wrapper: &str) -> BTreeMap<String, LaunchConfig> {
    let mut out: BTreeMap<String, LaunchConfig> = BTreeMap::new();
    let mut scope: Option<String> = None;
    for raw in wrapper.lines() {
        if let Some(k) = launcher_of(raw) {
            scope = Some(k.to_owned());
            out.entry(k.to_owned()).or_default();
            continue;
        }
        let Some(kernel) = scope.as_deref() else {
            continue;
        };
        if raw == "}" {
            scope = None;
            continue;
        }
        let t = raw.trim();
        let Some(cfg) = out.get_mut(kernel) else {
            continue;
        };
        if let Some((field, value)) = grid_field(t) {
            cfg.fields.insert(field, value);
        } else if let Some(args) = launch_args(t) {
            if let Some(w) = args.get(4) {
                cfg.fields.insert("num_warps".into(), number_or_text(w));
            }
            if let Some(s) = args.get(5) {
                cfg.fields.insert("shared_mem".into(), number_or_text(s));
            }
        }
    }
    out.retain(|_, c| !c.fields.is_empty());
    out
}

fn number_or_text(s: &str) -> Value {
    s.parse::<u64>()
        .map_or_else(|_| Value::String(s.to_owned()), Value::from)
}

/// A grid line's config field: the block size of its axis, or the
/// expression itself when it has another shape.
fn grid_field(line: &str) -> Option<(String, Value)> {
    if let Some(c) = grid_re().captures(line) {
        return match (c.get(2), c.get(3), c.get(4), c.get(5)) {
            (Some(axis), Some(b1), Some(b2), _) if b1.as_str() == b2.as_str() => Some((
                format!("{}BLOCK", axis.as_str().to_ascii_uppercase()),
                number_or_text(b1.as_str()),
            )),
            (_, _, _, Some(axis)) => Some((
                format!("{}BLOCK", axis.as_str().to_ascii_uppercase()),
                Value::from(1u64),
            )),
            _ => Some((format!("grid_{}", &c[1]), Value::String(line.to_owned()))),
        };
    }
    let rest = line.strip_prefix("uint32_t grid_")?;
    let (axis, expr) = rest.split_once('=')?;
    let axis = axis.trim();
    if axis.len() != 1 || !axis.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let expr = expr.trim().trim_end_matches(';').trim();
    if expr == "1" {
        return None;
    }
    Some((format!("grid_{axis}"), number_or_text(expr)))
}

/// The arguments of a `launchKernel(...)` call, trimmed.
fn launch_args(line: &str) -> Option<Vec<&str>> {
    let start = line.find("launchKernel(")? + "launchKernel(".len();
    let inner = line[start..].trim_end().trim_end_matches(';').trim_end();
    let inner = inner.strip_suffix(')').unwrap_or(inner);
    Some(inner.split(',').map(str::trim).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const WRAPPER: &str = "template <typename T>\nstatic inline void call_triton_poi_k_3(\n    int64_t xnumel,\n    cudaStream_t stream_\n){\n    uint32_t grid_0 = ((xnumel + (128 - 1)) / (128));\n    uint32_t grid_1 = 1;\n    uint32_t grid_2 = 1;\n    launchKernel(kernels_.triton_poi_k_3, grid_0, grid_1, grid_2, 4, 0, kernel_args_, stream_);\n}\nstatic inline void call_triton_per_k_8(\n){\n    uint32_t grid_0 = xnumel;\n    uint32_t grid_1 = ((ynumel + (8 - 1)) / (8));\n    launchKernel(kernels_.triton_per_k_8, grid_0, grid_1, grid_2, 2, 8, kernel_args_, stream_);\n}\n    launchKernel(kernels_.triton_poi_k_3, grid_0, grid_1, grid_2, 99, 0, kernel_args_, stream_);\n";

    #[test]
    fn each_launcher_states_its_block_sizes_warps_and_shared_memory() {
        let c = launch_configs(WRAPPER);
        let k3 = &c["triton_poi_k_3"].fields;
        assert_eq!(k3["XBLOCK"], 128);
        assert_eq!(k3["num_warps"], 4);
        assert_eq!(k3["shared_mem"], 0);
        assert_eq!(k3.len(), 3, "{k3:?}");
        let k8 = &c["triton_per_k_8"].fields;
        assert_eq!(k8["XBLOCK"], 1);
        assert_eq!(k8["YBLOCK"], 8);
        assert_eq!(k8["num_warps"], 2);
        // A launch outside any launcher is not a config.
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn a_grid_of_another_shape_is_kept_as_its_expression() {
        let w = "static inline void call_triton_k(\n){\n    uint32_t grid_0 = (xnumel * 3L) / 7;\n    launchKernel(kernels_.triton_k, grid_0, grid_1, grid_2, nw, 0, a, s);\n}\n";
        let c = launch_configs(w);
        let k = &c["triton_k"].fields;
        assert_eq!(k["grid_0"], "(xnumel * 3L) / 7");
        assert_eq!(k["num_warps"], "nw");
    }
}
