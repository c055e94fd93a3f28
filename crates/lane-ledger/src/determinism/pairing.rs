//! Pairing the files of two trees: the same path first, then by role and
//! kernel (generated names are content hashes), from what each tree says
//! about itself (its cache roots, which cubin holds which kernel, which
//! best_config belongs to which kernel).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use regex::Regex;

use super::configs::{self, BestConfig};
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

/// What one tree says about itself: cache roots, cubin -> kernel, best_config -> kernel.
pub(super) struct TreeIndex<'t> {
    pub(super) tree: &'t ArtifactTree,
    pub(super) by_path: HashMap<&'t str, usize>,
    pub(super) roots: Vec<String>,
    pub(super) cubin_kernel: HashMap<String, String>,
    pub(super) config_kernel: HashMap<String, String>,
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
            roots: normalize::ordered_roots(&roots),
            cubin_kernel,
            config_kernel,
        }
    }

    fn file(&self, path: &str) -> &'t ArtifactFile {
        &self.tree.files[self.by_path[path]]
    }

    /// The kernel a file belongs to, by role.
    pub(super) fn kernel_of(&self, path: &str) -> Option<String> {
        match role_of(path) {
            FileRole::Cubin => self.cubin_kernel.get(base_of(path)).cloned(),
            FileRole::BestConfig => self.config_kernel.get(path).cloned(),
            FileRole::Source if path.ends_with(".py") => {
                text_of(self.file(path)).and_then(configs::kernel_defined_in)
            }
            _ => None,
        }
    }

    /// The key a file is paired by when its path has no counterpart: its
    /// path with hashed names normalised, and for a kernel's files the role
    /// and kernel name in place of the file name (a package with several
    /// entries repeats kernel names in different directories).
    fn role_key(&self, path: &str) -> String {
        let normalized = |p: &str| {
            let p = normalize::normalize_paths(p, &[]).text;
            shard_dir_re()
                .replace_all(&p, "${1}<shard>/<hash>")
                .into_owned()
        };
        match self.kernel_of(path) {
            Some(k) => format!("{}/{:?}:{k}", normalized(dir_of(path)), role_of(path)),
            None => normalized(path),
        }
    }
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
