//! Line diff of two generated sources (C++ or Python wrappers, kernel
//! sources), after the normalisation rules, with every differing line tied
//! to the kernel whose launcher it sits in.
//!
//! A C++ wrapper has one launcher per kernel, `static inline void
//! call_triton_X(...) { ... }`, holding the lines that carry the autotune
//! choice: the grid arithmetic (`uint32_t grid_0 = ((xnumel + (1024 - 1)) /
//! (1024));`), `loadKernel(...)` (cubin and shared memory) and
//! `launchKernel(..., num_warps, shared_mem, ...)`. Outside launchers a line
//! belongs to the kernel it names (`kernels_.triton_X`, `call_triton_X(`,
//! `triton_X.run(`), if any.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use super::configs::BestConfig;
use super::model::NoiseKind;
use super::normalize::{normalize_paths, ShapeConstants};

fn open_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^\s*(?:static\s+)?(?:inline\s+)?void\s+call_(triton_\w+)\s*\(")
            .expect("static regex")
    })
}

fn mention_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?:kernels_?\.|call_)(triton_\w+)|\b(triton_\w+)\.run\(")
            .expect("static regex")
    })
}

pub(crate) fn grid_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"grid_(\d)\s*=\s*(?:\(\(([xyz])numel \+ \((\d+) - 1\)\) / \((\d+)\)\)|([xyz])numel)\s*;")
            .expect("static regex")
    })
}

/// The kernel whose launcher `line` opens (`static inline void call_triton_X(`).
pub(crate) fn launcher_of(line: &str) -> Option<&str> {
    open_re()
        .captures(line)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str())
}

/// One line of a prepared source.
pub(crate) struct Line {
    /// 1-based line number in the original file.
    pub(crate) no: usize,
    /// The raw line.
    pub(crate) raw: String,
    /// After rules 1-2 only (tells renumbering apart from path noise).
    pub(crate) shown: String,
    /// After rules 1-3 (what is compared).
    pub(crate) compared: String,
    /// The kernel this line belongs to, when any.
    pub(crate) kernel: Option<String>,
    pub(crate) path_changed: bool,
    pub(crate) hash_changed: bool,
    pub(crate) renumbered: bool,
}

/// A source after normalisation.
pub(crate) struct Prepared {
    /// Lines that are compared.
    pub(crate) lines: Vec<Line>,
    /// Dropped shape-constant declarations, after rules 1-2.
    pub(crate) declarations: Vec<String>,
}

/// Normalises a source with its tree's cache roots.
pub(crate) fn prepare(text: &str, roots: &[String]) -> Prepared {
    let mut lines = Vec::new();
    let mut declarations = Vec::new();
    let mut constants = ShapeConstants::new();
    let mut scope: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        if let Some(k) = launcher_of(raw) {
            scope = Some(k.to_owned());
        }
        let in_scope = scope.clone();
        if raw == "}" {
            scope = None;
        }
        let p = normalize_paths(raw, roots);
        match constants.apply(&p.text) {
            None => declarations.push(p.text.trim().to_owned()),
            Some((compared, renumbered)) => {
                let kernel = in_scope.or_else(|| {
                    mention_re()
                        .captures(raw)
                        .and_then(|c| c.get(1).or_else(|| c.get(2)))
                        .map(|m| m.as_str().to_owned())
                });
                lines.push(Line {
                    no: i + 1,
                    raw: raw.to_owned(),
                    shown: p.text.trim().to_owned(),
                    compared,
                    kernel,
                    path_changed: p.path_changed,
                    hash_changed: p.hash_changed,
                    renumbered,
                });
            }
        }
    }
    Prepared {
        lines,
        declarations,
    }
}

/// Which part of a launch a wrapper line carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineRole {
    /// Grid arithmetic (`grid_0 = ((xnumel + (B - 1)) / (B))`): the block size.
    Grid,
    /// `launchKernel(...)`: num_warps and shared memory.
    LaunchKernel,
    /// `loadKernel(...)`: the cubin and shared memory.
    LoadKernel,
    /// A Python wrapper's `triton_X.run(...)`.
    Run,
    /// Any other line.
    Other,
}

pub(crate) fn line_role(text: &str) -> LineRole {
    if grid_re().is_match(text) {
        LineRole::Grid
    } else if text.contains("launchKernel(") {
        LineRole::LaunchKernel
    } else if text.contains("loadKernel(") {
        LineRole::LoadKernel
    } else if text.contains(".run(") {
        LineRole::Run
    } else {
        LineRole::Other
    }
}

/// Whether a carrier line states the same choice as its tree's best_config:
/// the grid's block against `XBLOCK`/`YBLOCK`/`ZBLOCK`, launchKernel's
/// num_warps against `num_warps`. `None` when the line states neither.
pub(crate) fn agrees_with_config(text: &str, config: &BestConfig) -> Option<bool> {
    if let Some(c) = grid_re().captures(text) {
        let (axis, block) = match (c.get(2), c.get(3), c.get(5)) {
            (Some(axis), Some(b), _) => (axis.as_str(), b.as_str().parse::<i64>().ok()?),
            (_, _, Some(axis)) => (axis.as_str(), 1),
            _ => return None,
        };
        let field = format!("{}BLOCK", axis.to_ascii_uppercase());
        return config.int(&field).map(|v| v == block);
    }
    if let Some(start) = text.find("launchKernel(") {
        let args: Vec<&str> = text[start + "launchKernel(".len()..]
            .split(',')
            .map(str::trim)
            .collect();
        let warps = args.get(4)?.parse::<i64>().ok()?;
        return config.int("num_warps").map(|v| v == warps);
    }
    None
}

/// One pair of differing lines (either side may be absent).
pub(crate) struct DifferingLine<'a> {
    pub(crate) a: Option<&'a Line>,
    pub(crate) b: Option<&'a Line>,
}

impl DifferingLine<'_> {
    /// The kernel the pair belongs to (A's, else B's).
    pub(crate) fn kernel(&self) -> Option<&str> {
        self.a
            .and_then(|l| l.kernel.as_deref())
            .or_else(|| self.b.and_then(|l| l.kernel.as_deref()))
    }
}

/// The outcome of diffing two prepared sources.
pub(crate) struct TextDiff<'a> {
    /// Noise that equal-after-normalisation lines showed.
    pub(crate) noise: BTreeSet<NoiseKind>,
    /// Lines still different after normalisation.
    pub(crate) differing: Vec<DifferingLine<'a>>,
}

pub(crate) fn diff<'a>(a: &'a Prepared, b: &'a Prepared) -> TextDiff<'a> {
    let ka: Vec<&str> = a.lines.iter().map(|l| l.compared.as_str()).collect();
    let kb: Vec<&str> = b.lines.iter().map(|l| l.compared.as_str()).collect();
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &ka, &kb);
    let mut noise = BTreeSet::new();
    let mut differing = Vec::new();
    for op in ops {
        match op {
            similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                for k in 0..len {
                    let (la, lb) = (&a.lines[old_index + k], &b.lines[new_index + k]);
                    if la.raw == lb.raw {
                        continue;
                    }
                    if la.path_changed || lb.path_changed {
                        noise.insert(NoiseKind::AbsoluteCachePath);
                    }
                    if la.hash_changed || lb.hash_changed {
                        noise.insert(NoiseKind::HashedFileName);
                    }
                    if la.shown != lb.shown && (la.renumbered || lb.renumbered) {
                        noise.insert(NoiseKind::ShapeConstantNumbering);
                    }
                }
            }
            similar::DiffOp::Delete {
                old_index, old_len, ..
            } => {
                for k in 0..old_len {
                    differing.push(DifferingLine {
                        a: Some(&a.lines[old_index + k]),
                        b: None,
                    });
                }
            }
            similar::DiffOp::Insert {
                new_index, new_len, ..
            } => {
                for k in 0..new_len {
                    differing.push(DifferingLine {
                        a: None,
                        b: Some(&b.lines[new_index + k]),
                    });
                }
            }
            similar::DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                for k in 0..old_len.max(new_len) {
                    differing.push(DifferingLine {
                        a: (k < old_len).then(|| &a.lines[old_index + k]),
                        b: (k < new_len).then(|| &b.lines[new_index + k]),
                    });
                }
            }
        }
    }
    if a.declarations != b.declarations {
        noise.insert(NoiseKind::ShapeConstantNumbering);
    }
    TextDiff { noise, differing }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WRAPPER_A: &str = "static inline void call_triton_k_0(\n    int x) {\n    uint32_t grid_0 = ((xnumel + (1024 - 1)) / (1024));\n    launchKernel(kernels_.triton_k_0, grid_0, grid_1, grid_2, 4, 0, kernel_args_, stream_);\n}\nstatic constexpr int64_t int_array_6[] = {2L, 8L};\nf(int_array_6);\n";
    const WRAPPER_B: &str = "static inline void call_triton_k_0(\n    int x) {\n    uint32_t grid_0 = ((xnumel + (512 - 1)) / (512));\n    launchKernel(kernels_.triton_k_0, grid_0, grid_1, grid_2, 8, 0, kernel_args_, stream_);\n}\nstatic constexpr int64_t int_array_4[] = {2L, 8L};\nf(int_array_4);\n";

    #[test]
    fn launcher_lines_belong_to_their_kernel_and_renumbering_is_noise() {
        let a = prepare(WRAPPER_A, &[]);
        let b = prepare(WRAPPER_B, &[]);
        let d = diff(&a, &b);
        assert_eq!(d.differing.len(), 2);
        assert!(d.differing.iter().all(|l| l.kernel() == Some("triton_k_0")));
        assert_eq!(line_role(&d.differing[0].a.unwrap().raw), LineRole::Grid);
        assert_eq!(
            line_role(&d.differing[1].b.unwrap().raw),
            LineRole::LaunchKernel
        );
        assert!(d.noise.contains(&NoiseKind::ShapeConstantNumbering));
    }

    #[test]
    fn carriers_are_checked_against_the_config() {
        let cfg = BestConfig::parse(r#"{"XBLOCK": 1024, "num_warps": 4}"#).unwrap();
        assert_eq!(
            agrees_with_config("uint32_t grid_0 = ((xnumel + (1024 - 1)) / (1024));", &cfg),
            Some(true)
        );
        assert_eq!(
            agrees_with_config("uint32_t grid_0 = xnumel;", &cfg),
            Some(false)
        );
        assert_eq!(
            agrees_with_config(
                "launchKernel(kernels_.k, grid_0, grid_1, grid_2, 8, 0, kernel_args_, stream_);",
                &cfg
            ),
            Some(false)
        );
        assert_eq!(agrees_with_config("uint32_t grid_2 = 1;", &cfg), None);
    }
}
