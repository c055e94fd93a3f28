//! Kernels renumbered between two mints. Inductor names a kernel after
//! the ops it fuses and its position in the graph
//! (`triton_poi_fused_addmm_silu_3`); when one mint's graph gains a kernel
//! (a pad inserted by a benchmarked decision), every later kernel's index
//! shifts, and with it every content-hashed file that mentions it.
//!
//! Kernels are paired from their generated sources (`*.py` defining one
//! `@triton.jit` kernel): first by content with the kernel's own name
//! masked (the same kernel under another number), then, among those left,
//! by name without the index when that is unique on both sides (the same
//! kernel whose code changed). B's names are then rewritten to A's
//! wherever B's files are compared, and a line equal only after that is
//! [`super::NoiseKind::KernelRenumbering`].

use std::collections::{BTreeMap, HashMap};

use regex::Regex;
use sha2::{Digest, Sha256};

use super::configs::kernel_defined_in;
use super::normalize::normalize_paths;
use super::pairing::text_of;
use super::ArtifactTree;

/// The name without its index (`triton_poi_fused_add_3` -> `triton_poi_fused_add`).
pub(crate) fn base_name(kernel: &str) -> &str {
    match kernel.rsplit_once('_') {
        Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => kernel,
    }
}

/// One side's kernels, by name: the digest of their source with the name masked.
fn kernel_sources(tree: &ArtifactTree) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for f in tree.files.iter().filter(|f| f.path.ends_with(".py")) {
        let Some(text) = text_of(f) else { continue };
        let Some(k) = kernel_defined_in(text) else {
            continue;
        };
        let masked = text.replace(k.as_str(), "<kernel>");
        let normalized: String = masked
            .lines()
            .map(|l| normalize_paths(l, &crate::normalize::Roots::default()).text)
            .collect::<Vec<_>>()
            .join("\n");
        let digest = format!("{:x}", Sha256::digest(normalized.as_bytes()));
        out.insert(k, digest);
    }
    out
}

/// B's kernel names that stand for another name in A, and whether each
/// pair's code is the same (renumbered only) or changed.
#[derive(Debug, Default, Clone)]
pub(crate) struct Renames {
    /// B name -> A name, for pairs whose names differ.
    pub(crate) b_to_a: HashMap<String, String>,
    /// Kernels (A names) whose code differs between the two sides.
    pub(crate) changed: Vec<String>,
    /// Kernels defined only in A, only in B.
    pub(crate) only_a: Vec<String>,
    pub(crate) only_b: Vec<String>,
    /// Finds B's renamed names, longest first.
    matcher: Option<Regex>,
}

impl Renames {
    /// A's name for B's `kernel`.
    pub(crate) fn canonical<'k>(&'k self, kernel: &'k str) -> &'k str {
        self.b_to_a.get(kernel).map_or(kernel, String::as_str)
    }

    /// `line` of B with every renamed kernel written with A's name (also
    /// inside longer identifiers: `..._6_param_0`); `None` when nothing
    /// was renamed.
    pub(crate) fn rewrite(&self, line: &str) -> Option<String> {
        let m = self.matcher.as_ref()?;
        if !line.contains("triton_") {
            return None;
        }
        let mut out = String::with_capacity(line.len());
        let mut last = 0;
        for found in m.find_iter(line) {
            // `_6` must not match the start of `_60`.
            if line[found.end()..].starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            let Some(a) = self.b_to_a.get(found.as_str()) else {
                continue;
            };
            out.push_str(&line[last..found.start()]);
            out.push_str(a);
            last = found.end();
        }
        if last == 0 {
            return None;
        }
        out.push_str(&line[last..]);
        Some(out)
    }

    fn build_matcher(&mut self) {
        if self.b_to_a.is_empty() {
            return;
        }
        let mut names: Vec<&String> = self.b_to_a.keys().collect();
        names.sort_by(|x, y| y.len().cmp(&x.len()).then(x.cmp(y)));
        let alternation: Vec<String> = names.iter().map(|n| regex::escape(n)).collect();
        self.matcher = Regex::new(&format!(r"\b(?:{})", alternation.join("|"))).ok();
    }
}

/// Pairs the kernels of two trees. See the module documentation.
pub(crate) fn pair_kernels(a: &ArtifactTree, b: &ArtifactTree) -> Renames {
    let ka = kernel_sources(a);
    let kb = kernel_sources(b);
    let mut r = Renames::default();
    if ka.is_empty() || kb.is_empty() {
        return r;
    }
    let mut left_a: BTreeMap<&str, &str> =
        ka.iter().map(|(k, d)| (k.as_str(), d.as_str())).collect();
    let mut left_b: BTreeMap<&str, &str> =
        kb.iter().map(|(k, d)| (k.as_str(), d.as_str())).collect();
    let mut pairs: Vec<(String, String, bool)> = Vec::new();
    // 1. Same code under the same base name (in index order when a
    //    digest repeats, which keeps the pairing a bijection).
    let mut by_digest_a: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for (k, d) in &left_a {
        by_digest_a.entry((base_name(k), d)).or_default().push(k);
    }
    let mut by_digest_b: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for (k, d) in &left_b {
        by_digest_b.entry((base_name(k), d)).or_default().push(k);
    }
    for (key, names_a) in &by_digest_a {
        let Some(names_b) = by_digest_b.get(key) else {
            continue;
        };
        if names_a.len() != names_b.len() {
            continue;
        }
        let index = |k: &str| k.rsplit('_').next().and_then(|n| n.parse::<u64>().ok());
        let mut sa = names_a.clone();
        let mut sb = names_b.clone();
        sa.sort_by_key(|k| index(k));
        sb.sort_by_key(|k| index(k));
        for (x, y) in sa.into_iter().zip(sb) {
            pairs.push((x.to_owned(), y.to_owned(), false));
        }
    }
    for (x, y, _) in &pairs {
        left_a.remove(x.as_str());
        left_b.remove(y.as_str());
    }
    // 2. The same kernel whose code changed: a base name unique on both sides.
    let mut bases_a: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for k in left_a.keys() {
        bases_a.entry(base_name(k)).or_default().push(k);
    }
    let mut bases_b: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for k in left_b.keys() {
        bases_b.entry(base_name(k)).or_default().push(k);
    }
    for (base, xs) in &bases_a {
        if let (1, Some(ys)) = (xs.len(), bases_b.get(base)) {
            if ys.len() == 1 {
                pairs.push((xs[0].to_owned(), ys[0].to_owned(), true));
            }
        }
    }
    for (x, y, changed) in &pairs {
        left_a.remove(x.as_str());
        left_b.remove(y.as_str());
        if x != y {
            r.b_to_a.insert(y.clone(), x.clone());
        }
        if *changed {
            r.changed.push(x.clone());
        }
    }
    r.changed.sort();
    r.only_a = left_a.keys().map(|k| (*k).to_owned()).collect();
    r.only_b = left_b.keys().map(|k| (*k).to_owned()).collect();
    r.build_matcher();
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ArtifactFile;

    fn src(path: &str, kernel: &str, body: &str) -> ArtifactFile {
        let text = format!(
            "@triton_heuristics.pointwise(inductor_meta={{'kernel_name': '{kernel}'}})\n@triton.jit\ndef {kernel}(in_ptr0, XBLOCK : tl.constexpr):\n    {body}\n"
        );
        ArtifactFile {
            path: path.into(),
            size: text.len() as u64,
            sha256: "0".repeat(64),
            content: Some(text.into_bytes()),
        }
    }

    #[test]
    fn shifted_indices_pair_by_code_then_by_name() {
        let a = ArtifactTree {
            files: vec![
                src("i/a/ca.py", "triton_poi_fused_convolution_0", "x = 1"),
                src("i/b/cb.py", "triton_poi_fused_addmm_cat_1", "pad = 1"),
                src("i/c/cc.py", "triton_poi_fused_addmm_silu_2", "y = in_ptr1"),
                src("i/d/cd.py", "triton_poi_fused_convolution_3", "z = 3"),
            ],
        };
        let b = ArtifactTree {
            files: vec![
                src("i/e/ce.py", "triton_poi_fused_convolution_0", "x = 1"),
                src(
                    "i/f/cf.py",
                    "triton_poi_fused_addmm_silu_1",
                    "y = in_out_ptr0",
                ),
                src("i/g/cg.py", "triton_poi_fused_convolution_2", "z = 3"),
            ],
        };
        let r = pair_kernels(&a, &b);
        assert_eq!(
            r.canonical("triton_poi_fused_convolution_2"),
            "triton_poi_fused_convolution_3"
        );
        assert_eq!(
            r.canonical("triton_poi_fused_addmm_silu_1"),
            "triton_poi_fused_addmm_silu_2"
        );
        assert_eq!(
            r.canonical("triton_poi_fused_convolution_0"),
            "triton_poi_fused_convolution_0"
        );
        assert_eq!(r.changed, ["triton_poi_fused_addmm_silu_2"]);
        assert_eq!(r.only_a, ["triton_poi_fused_addmm_cat_1"]);
        assert!(r.only_b.is_empty());
        assert_eq!(
            r.rewrite("triton_poi_fused_convolution_2.run(buf1)")
                .as_deref(),
            Some("triton_poi_fused_convolution_3.run(buf1)")
        );
        assert_eq!(r.rewrite("triton_poi_fused_convolution_0.run(buf1)"), None);
        assert_eq!(
            r.rewrite(".param .u32 triton_poi_fused_convolution_2_param_2,")
                .as_deref(),
            Some(".param .u32 triton_poi_fused_convolution_3_param_2,")
        );
        assert_eq!(r.rewrite("triton_poi_fused_convolution_20"), None);
    }

    #[test]
    fn a_name_without_its_index_is_its_base() {
        assert_eq!(
            base_name("triton_per_fused__softmax_amax_10"),
            "triton_per_fused__softmax_amax"
        );
    }
}
