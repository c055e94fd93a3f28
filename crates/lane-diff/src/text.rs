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

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use super::configs::BestConfig;
use super::model::NoiseKind;
use super::normalize::{normalize_paths, ShapeConstants};
use super::renumber::Renames;

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

/// A Python output code's kernel definition: `triton_X = async_compile.triton(`.
pub(crate) fn py_kernel_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^(triton_\w+) = async_compile\.triton\(").expect("static regex"))
}

fn buffer_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\bbuf\d+\b").expect("static regex"))
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
    /// After rules 1-3 (what is shown for a differing line).
    pub(crate) unmasked: String,
    /// After rules 1-3 with wrapper buffers masked (what is compared).
    pub(crate) compared: String,
    /// The kernel this line belongs to, when any.
    pub(crate) kernel: Option<String>,
    pub(crate) path_changed: bool,
    pub(crate) hash_changed: bool,
    pub(crate) address_changed: bool,
    pub(crate) renumbered: bool,
    /// Kernel names rewritten to the other tree's (B only).
    pub(crate) kernels_renamed: bool,
    /// The wrapper buffers the line names, in order (masked in `compared`).
    pub(crate) buffers: Vec<String>,
}

/// A source after normalisation.
pub(crate) struct Prepared {
    /// Lines that are compared.
    pub(crate) lines: Vec<Line>,
    /// Dropped shape-constant declarations, after rules 1-2.
    pub(crate) declarations: Vec<String>,
    /// Lines of PTX DWARF sections (`.section .debug_info { ... }`), kept
    /// out of the comparison: the source file, directory and kernel names
    /// as bytes, whose lengths follow the names. The line table (`.loc`)
    /// sits in the code and is compared.
    pub(crate) debug_sections: Vec<String>,
}

fn debug_section_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^\s*\.section\s+\.debug_").expect("static regex"))
}

/// Normalises a source with its tree's cache roots; `rename` rewrites
/// kernel names to the other tree's (for B).
pub(crate) fn prepare(
    text: &str,
    roots: &crate::normalize::Roots,
    rename: Option<&Renames>,
) -> Prepared {
    let mut lines = Vec::new();
    let mut declarations = Vec::new();
    let mut constants = ShapeConstants::new();
    let mut scope: Option<String> = None;
    let mut py_scope = false;
    let mut debug_sections = Vec::new();
    let mut in_debug = false;
    for (i, raw) in text.lines().enumerate() {
        if in_debug || debug_section_re().is_match(raw) {
            let opens = raw.contains('{') && !raw.contains('}');
            in_debug = if in_debug {
                raw.trim() != "}"
            } else {
                opens
                    || raw.trim_end().ends_with(".debug_info")
                    || raw.trim_end().ends_with(".debug_abbrev")
                    || raw.trim_end().ends_with(".debug_line")
                    || raw.trim_end().ends_with(".debug_str")
            };
            debug_sections.push(raw.to_owned());
            continue;
        }
        let renamed = rename.and_then(|r| r.rewrite(raw));
        let line = renamed.as_deref().unwrap_or(raw);
        if let Some(k) = launcher_of(line) {
            scope = Some(k.to_owned());
            py_scope = false;
        } else if let Some(c) = py_kernel_re().captures(line) {
            scope = Some(c[1].to_owned());
            py_scope = true;
        }
        let in_scope = scope.clone();
        // A C++ launcher ends at its closing brace; a Python wrapper's
        // kernel definition at the end of its source string (a C++
        // launcher quotes that source in a comment: not an end there).
        if (!py_scope && line == "}")
            || (py_scope && line.trim_start().starts_with("''', device_str="))
        {
            scope = None;
        }
        let p = normalize_paths(line, roots);
        match constants.apply(&p.text) {
            None => declarations.push(p.text.trim().to_owned()),
            Some((compared, renumbered)) => {
                let kernel = in_scope.or_else(|| {
                    mention_re()
                        .captures(line)
                        .and_then(|c| c.get(1).or_else(|| c.get(2)))
                        .map(|m| m.as_str().to_owned())
                });
                let buffers: Vec<String> = buffer_re()
                    .find_iter(&compared)
                    .map(|m| m.as_str().to_owned())
                    .collect();
                let masked = if buffers.is_empty() {
                    compared.clone()
                } else {
                    buffer_re().replace_all(&compared, "buf#").into_owned()
                };
                lines.push(Line {
                    no: i + 1,
                    raw: raw.to_owned(),
                    shown: p.text.trim().to_owned(),
                    unmasked: compared,
                    compared: masked,
                    kernel,
                    path_changed: p.path_changed,
                    hash_changed: p.hash_changed,
                    address_changed: p.address_changed,
                    renumbered,
                    kernels_renamed: renamed.is_some(),
                    buffers,
                });
            }
        }
    }
    Prepared {
        lines,
        declarations,
        debug_sections,
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
    /// Output code a flipped pad_mm decision predicts: a padded shape, the
    /// pad's own nodes (`slice_tensor`, `constant_pad_nd`) and their uses,
    /// a buffer freed because of the pad (listed under the decision).
    PadMm,
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
    // Buffers may be renumbered, but consistently: one name in A is one
    // name in B for the whole file, or the lines differ.
    let mut a_to_b: HashMap<&str, &str> = HashMap::new();
    let mut b_to_a: HashMap<&str, &str> = HashMap::new();
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
                    let consistent = la.buffers.iter().zip(&lb.buffers).all(|(x, y)| {
                        *a_to_b.entry(x.as_str()).or_insert(y.as_str()) == y.as_str()
                            && *b_to_a.entry(y.as_str()).or_insert(x.as_str()) == x.as_str()
                    });
                    if !consistent {
                        differing.push(DifferingLine {
                            a: Some(la),
                            b: Some(lb),
                        });
                        continue;
                    }
                    if la.path_changed || lb.path_changed {
                        noise.insert(NoiseKind::AbsoluteCachePath);
                    }
                    if la.hash_changed || lb.hash_changed {
                        noise.insert(NoiseKind::HashedFileName);
                    }
                    if la.address_changed || lb.address_changed {
                        noise.insert(NoiseKind::ObjectAddress);
                    }
                    if lb.kernels_renamed {
                        noise.insert(NoiseKind::KernelRenumbering);
                    }
                    if la.buffers != lb.buffers {
                        noise.insert(NoiseKind::BufferRenumbering);
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
    if a.debug_sections != b.debug_sections {
        noise.insert(NoiseKind::PtxDebugInfo);
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
        let a = prepare(WRAPPER_A, &crate::normalize::Roots::default(), None);
        let b = prepare(WRAPPER_B, &crate::normalize::Roots::default(), None);
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
