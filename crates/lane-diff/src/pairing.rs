//! Pairing the files of two trees: the same path first, then by role and
//! kernel (generated names are content hashes, kernel names are
//! renumbered), from what each tree says about itself: its cache roots,
//! which cubin holds which kernel (a wrapper's `loadKernel`, a Triton cache
//! directory's file names), which best_config belongs to which kernel, and
//! which autotune candidate each Triton cache directory holds.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use regex::Regex;
use sha2::{Digest, Sha256};

use super::configs::{self, BestConfig};
use super::renumber::Renames;
use super::{base_of, dir_of, normalize, role_of, ArtifactFile, ArtifactTree, FileRole, PairedBy};

fn load_kernel_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"loadKernel\(\s*"([^"]*?)([^"/]+\.(?:cubin|hsaco|spv|fatbin))"\s*,\s*"(\w+)""#)
            .expect("static regex")
    })
}

pub(super) fn text_of(f: &ArtifactFile) -> Option<&str> {
    let bytes = f.content.as_deref()?;
    if memchr::memchr(0, bytes).is_some() {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// A file in a Triton cache directory (`.../triton/<52 base32>/<file>`):
/// the directory and the file name.
pub(super) fn triton_dir(path: &str) -> Option<(&str, &str)> {
    let (dir, file) = path.rsplit_once('/')?;
    let (parent, hash) = dir.rsplit_once('/').unwrap_or(("", dir));
    let is_hash = hash.len() == 52
        && hash
            .bytes()
            .all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b));
    let under_triton = parent == "triton" || parent.ends_with("/triton");
    (is_hash && under_triton).then_some((dir, file))
}

/// The kernel a Triton cache file is of (`__grp__K.json`, `K.cubin`, ...).
fn triton_file_kernel(file: &str) -> &str {
    let stem = file.strip_prefix("__grp__").unwrap_or(file);
    stem.rsplit_once('.').map_or(stem, |(s, _)| s)
}

/// Whether a path is an FX-graph cache entry (`inductor/fxgraph/<shard>/<key>/<entry>`).
pub(super) fn is_fx_graph_entry(path: &str) -> bool {
    path.starts_with("fxgraph/") || path.contains("/fxgraph/")
}

/// What one tree says about itself: cache roots, cubin -> kernel, best_config -> kernel.
pub(super) struct TreeIndex<'t> {
    pub(super) tree: &'t ArtifactTree,
    pub(super) by_path: HashMap<&'t str, usize>,
    pub(super) roots: normalize::Roots,
    pub(super) cubin_kernel: HashMap<String, String>,
    pub(super) config_kernel: HashMap<String, String>,
    /// Kernel names this tree's files are read under (B: renamed to A's).
    pub(super) rename: Renames,
    /// Triton cache directory -> the autotune candidate it holds.
    pub(super) candidates: HashMap<&'t str, String>,
    /// What its FX-graph entries are read against, once for all of them.
    pub(super) fx_view: crate::fxentry::TreeView<'t>,
}

impl<'t> TreeIndex<'t> {
    pub(super) fn new(tree: &'t ArtifactTree) -> Self {
        let by_path = tree
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.as_str(), i))
            .collect();
        let mut roots = BTreeSet::new();
        let mut cubin_kernel = HashMap::new();
        let mut dir_kernels: HashMap<&str, BTreeSet<String>> = HashMap::new();
        for f in &tree.files {
            let Some(text) = text_of(f) else { continue };
            normalize::cache_roots(text, &mut roots);
            if text.contains("loadKernel(") {
                for cap in load_kernel_re().captures_iter(text) {
                    cubin_kernel.insert(cap[2].to_owned(), cap[3].to_owned());
                }
            }
            if f.path.ends_with(".py") {
                if let Some(k) = configs::kernel_defined_in(text) {
                    dir_kernels.entry(dir_of(&f.path)).or_default().insert(k);
                }
            }
        }
        let mut config_kernel = HashMap::new();
        for f in tree
            .files
            .iter()
            .filter(|f| f.path.ends_with(".best_config"))
        {
            let label = text_of(f)
                .and_then(BestConfig::parse)
                .and_then(|c| c.kernel_label().map(str::to_owned));
            let sibling = dir_kernels
                .get(dir_of(&f.path))
                .filter(|ks| ks.len() == 1)
                .and_then(|ks| ks.iter().next().cloned());
            if let Some(k) = label.or(sibling) {
                config_kernel.insert(f.path.clone(), k);
            }
        }
        TreeIndex {
            tree,
            by_path,
            roots: normalize::Roots::of_cache(normalize::ordered_roots(&roots)),
            cubin_kernel,
            config_kernel,
            rename: Renames::default(),
            candidates: HashMap::new(),
            fx_view: crate::fxentry::TreeView::of(tree),
        }
    }

    /// Names each Triton cache directory by the candidate it compiled: its
    /// `.source` with the kernel's name, hashes and paths masked, and the
    /// `num_warps`/`num_stages` its `.json` records. Call after `rename`
    /// is set.
    pub(super) fn index_candidates(&mut self) {
        let mut parts: BTreeMap<&'t str, (Option<String>, Option<String>)> = BTreeMap::new();
        for f in &self.tree.files {
            let Some((dir, file)) = triton_dir(&f.path) else {
                continue;
            };
            if file.starts_with("__grp__") {
                continue;
            }
            let kernel = triton_file_kernel(file);
            if file.ends_with(".source") {
                if let Some(t) = text_of(f) {
                    let masked: Vec<String> = t
                        .lines()
                        .map(|l| {
                            normalize::normalize_paths(
                                &l.replace(kernel, "<kernel>"),
                                &normalize::Roots::default(),
                            )
                            .text
                        })
                        .collect();
                    let d = format!("{:x}", Sha256::digest(masked.join("\n").as_bytes()));
                    parts.entry(dir).or_default().0 = Some(d);
                }
            } else if file.ends_with(".json") {
                let meta =
                    text_of(f).and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok());
                if let Some(m) = meta {
                    let launch = format!("w{}s{}", m["num_warps"], m["num_stages"]);
                    parts.entry(dir).or_default().1 = Some(launch);
                }
            }
        }
        self.candidates = parts
            .into_iter()
            .filter_map(|(dir, (source, launch))| {
                Some((dir, format!("{}:{}", source?.get(..16)?, launch?)))
            })
            .collect();
    }

    fn file(&self, path: &str) -> &'t ArtifactFile {
        &self.tree.files[self.by_path[path]]
    }

    /// The kernel a file belongs to, by role (under A's name).
    pub(super) fn kernel_of(&self, path: &str) -> Option<String> {
        let own = if let Some((_, file)) = triton_dir(path) {
            Some(triton_file_kernel(file).to_owned())
        } else {
            match role_of(path) {
                FileRole::Cubin => self.cubin_kernel.get(base_of(path)).cloned(),
                FileRole::BestConfig => self.config_kernel.get(path).cloned(),
                FileRole::Source if path.ends_with(".py") => {
                    text_of(self.file(path)).and_then(configs::kernel_defined_in)
                }
                _ => None,
            }
        }?;
        Some(self.rename.canonical(&own).to_owned())
    }

    /// The key a file is paired by when its path has no counterpart: its
    /// path with hashed names normalised, and for a kernel's files the role
    /// and kernel name in place of the file name (a package with several
    /// entries repeats kernel names in different directories; a Triton
    /// cache holds one directory per autotune candidate).
    fn role_key(&self, path: &str) -> String {
        let normalized = |p: &str| {
            let p = normalize::normalize_paths(p, &normalize::Roots::default()).text;
            shard_dir_re()
                .replace_all(&p, "${1}<shard>/<hash>")
                .into_owned()
        };
        if let Some((dir, file)) = triton_dir(path) {
            let kernel = self.kernel_of(path).unwrap_or_default();
            let ext = file.rsplit_once('.').map_or("", |(_, e)| e);
            let grp = if file.starts_with("__grp__") {
                "grp:"
            } else {
                ""
            };
            let cand = self.candidates.get(dir).map_or("?", String::as_str);
            return format!("{}/<{cand}>/{grp}{kernel}.{ext}", normalized(dir_of(dir)));
        }
        if is_fx_graph_entry(path) {
            let root = path.split("fxgraph/").next().unwrap_or("");
            return format!("{root}fxgraph/<entry>");
        }
        match self.kernel_of(path) {
            Some(k) => format!(
                "{}/{:?}:{k}",
                shard_free(&normalized(dir_of(path))),
                role_of(path)
            ),
            None => normalized(path),
        }
    }
}

/// A directory with its last component masked when it is a two-character
/// shard of an inductor cache (`inductor/hm` -> `inductor/<shard>`):
/// kernel files are filed under a shard of their content hash.
fn shard_free(dir: &str) -> String {
    match dir.rsplit_once('/') {
        Some((parent, last)) if is_shard(last) && is_cache_dir(parent) => {
            format!("{parent}/<shard>")
        }
        _ => dir.to_owned(),
    }
}

/// An inductor cache directory: `inductor/` in a compile-cache tarball,
/// `cache/` in a mint bundle.
fn is_cache_dir(dir: &str) -> bool {
    let last = dir.rsplit('/').next().unwrap_or(dir);
    last == "inductor" || last == "cache"
}

fn is_shard(s: &str) -> bool {
    s.len() == 2
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

fn shard_dir_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(^|/)[a-z0-9]{2}/<hash>").expect("static regex"))
}

pub(super) struct Pair<'t> {
    pub(super) a: Option<&'t ArtifactFile>,
    pub(super) b: Option<&'t ArtifactFile>,
    pub(super) by: PairedBy,
}

pub(super) fn pair_files<'t>(ia: &TreeIndex<'t>, ib: &TreeIndex<'t>) -> Vec<Pair<'t>> {
    let mut pairs = Vec::new();
    let mut rest_a = Vec::new();
    for f in &ia.tree.files {
        match ib.by_path.get(f.path.as_str()) {
            Some(&j) => pairs.push(Pair {
                a: Some(f),
                b: Some(&ib.tree.files[j]),
                by: PairedBy::Path,
            }),
            None => rest_a.push(f),
        }
    }
    let rest_b: Vec<&ArtifactFile> = ib
        .tree
        .files
        .iter()
        .filter(|f| !ia.by_path.contains_key(f.path.as_str()))
        .collect();
    let mut keys_a: BTreeMap<String, Vec<&ArtifactFile>> = BTreeMap::new();
    for f in rest_a {
        keys_a.entry(ia.role_key(&f.path)).or_default().push(f);
    }
    let mut keys_b: BTreeMap<String, Vec<&ArtifactFile>> = BTreeMap::new();
    for f in rest_b {
        keys_b.entry(ib.role_key(&f.path)).or_default().push(f);
    }
    for (key, fa) in &keys_a {
        match keys_b.get(key) {
            // Only a unique match on both sides is a pairing, never a guess.
            Some(fb) if fa.len() == 1 && fb.len() == 1 => pairs.push(Pair {
                a: Some(fa[0]),
                b: Some(fb[0]),
                by: PairedBy::Role,
            }),
            _ => pairs.extend(fa.iter().map(|f| Pair {
                a: Some(*f),
                b: None,
                by: PairedBy::Unpaired,
            })),
        }
    }
    for (key, fb) in &keys_b {
        let paired = keys_a
            .get(key)
            .is_some_and(|fa| fa.len() == 1 && fb.len() == 1);
        if !paired {
            pairs.extend(fb.iter().map(|f| Pair {
                a: None,
                b: Some(*f),
                by: PairedBy::Unpaired,
            }));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triton_cache_files_are_recognised() {
        let p = "cell.tar.gz/triton/2XDXQJI4N37TJHMCTWVWZ5I56FYLYTW3PRDH4XB36ZAFTFEDKEIQ/__grp__triton_poi_fused_convolution_7.json";
        let (dir, file) = triton_dir(p).unwrap();
        assert!(dir.ends_with("FEDKEIQ"));
        assert_eq!(triton_file_kernel(file), "triton_poi_fused_convolution_7");
        assert!(triton_dir("triton/short/x.cubin").is_none());
        assert_eq!(shard_free("cell/inductor/hm"), "cell/inductor/<shard>");
        assert_eq!(
            shard_free("package/data/aotinductor/model"),
            "package/data/aotinductor/model"
        );
    }
}
