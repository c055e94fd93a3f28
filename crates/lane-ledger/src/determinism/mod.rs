//! The determinism diff of two cold mints: are they the same bytes, and if
//! not, is the difference explained?
//!
//! Inputs are in-memory descriptions of two artifact trees ([`ArtifactTree`]):
//! every file's relative path, size and sha256, plus the content of the files
//! the diff must read. The edge that walks directories (or unpacks a `.pt2`)
//! first builds fingerprint-only trees, asks [`content_plan`] which files'
//! content is needed (files whose fingerprints differ or have no
//! counterpart, plus the small index files: wrappers, `*.best_config`, and
//! kernel sources next to a best_config), loads only those, then calls
//! [`diff_trees`].
//!
//! Steps: pair files (same path first, then by role and kernel name, since
//! generated names are content hashes); compare fingerprints; for pairs that
//! differ, compare content after the known noise is removed
//! ([`normalize`]); attribute what remains to kernels whose autotune configs
//! differ, or name it as unexplained. Verdicts, from best to worst:
//! [`DeterminismVerdict`].

pub mod configs;
mod normalize;
pub mod text;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use crate::error::DiffError;
use configs::BestConfig;
pub use configs::ConfigFieldDiff;
pub use text::LineRole;
use text::{agrees_with_config, line_role, Prepared};

/// Content larger than this is not loaded by default; such a file that
/// differs is reported as "content not compared" (unexplained).
pub const DEFAULT_MAX_CONTENT_BYTES: u64 = 64 * 1024 * 1024;

/// One file of an artifact tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArtifactFile {
    /// Path relative to the tree's root, `/`-separated.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// sha256 of the content, 64 hex digits.
    pub sha256: String,
    /// The content, when it was loaded (see [`content_plan`]).
    pub content: Option<Vec<u8>>,
}

/// An artifact tree: a mint's bundle (`package/` + `cache/`) or a `.pt2`'s members.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArtifactTree {
    /// Every file.
    pub files: Vec<ArtifactFile>,
}

/// Which files' content [`diff_trees`] needs, per tree.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ContentPlan {
    /// Paths to load in tree A.
    pub a: Vec<String>,
    /// Paths to load in tree B.
    pub b: Vec<String>,
}

/// Known noise, removed before comparing (see `docs/ledger.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoiseKind {
    /// Each run's absolute cache directory embedded in a file.
    AbsoluteCachePath,
    /// Content-hashed file names (a renamed file, or a name inside a file).
    HashedFileName,
    /// `int_array_N` shape constants renumbered with the same values.
    ShapeConstantNumbering,
    /// A kernel source's mtime recorded in a cubin's DWARF line table.
    DwarfSourceMtime,
    /// The package's random `serialization_id`.
    SerializationId,
    /// Autotune measurements in a best_config (`time_taken_ms`, ...).
    AutotuneMeasurement,
}

/// The verdict of a determinism diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeterminismVerdict {
    /// Same paths, same bytes.
    ByteIdentical,
    /// Every difference is known noise (paths, hashed names, renumbering,
    /// source mtimes, serialization id, autotune timings).
    PathNoiseOnly,
    /// Beyond noise, only kernels whose autotune configs differ, and the
    /// wrapper lines and cubins that carry those configs.
    AutotuneConfigsOnly,
    /// Something else moved; each difference is named.
    Unexplained,
}

impl DeterminismVerdict {
    /// A phrase for people.
    pub fn describe(self) -> &'static str {
        match self {
            DeterminismVerdict::ByteIdentical => "byte-identical",
            DeterminismVerdict::PathNoiseOnly => "differs only by path noise",
            DeterminismVerdict::AutotuneConfigsOnly => "differs by autotune configs only",
            DeterminismVerdict::Unexplained => "unexplained differences",
        }
    }
}

/// What a file is, for pairing and comparing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileRole {
    /// A generated wrapper (`*.wrapper.cpp`, `*.wrapper.py`).
    Wrapper,
    /// Other generated source text (`.cpp`, `.h`, `.py`, `.json`, ...).
    Source,
    /// An autotune choice (`*.best_config`).
    BestConfig,
    /// A compiled kernel (`.cubin`, `.hsaco`, `.spv`).
    Cubin,
    /// A binary built from sources (`.so`, `.o`).
    Built,
    /// The package's random serialization id.
    SerializationId,
    /// Any other file.
    Other,
}

/// How a pair was formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PairedBy {
    /// Same relative path.
    Path,
    /// Same role and kernel (or same path once hashed names are normalised).
    Role,
    /// No counterpart.
    Unpaired,
}

/// How a differing pair was explained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiffClass {
    /// Known noise only.
    Noise,
    /// Explained by a kernel's autotune config.
    AutotuneConfig,
    /// Not explained.
    Unexplained,
}

/// One line of a wrapper that differs between the trees.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WrapperLine {
    /// The file (A's path, else B's).
    pub file: String,
    /// What the line carries.
    pub role: LineRole,
    /// The kernel it belongs to, when any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    /// 1-based line in A.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_a: Option<usize>,
    /// 1-based line in B.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_b: Option<usize>,
    /// A's line (paths normalised, trimmed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_a: Option<String>,
    /// B's line (paths normalised, trimmed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_b: Option<String>,
    /// Whether the lines state the same block size / num_warps as each
    /// tree's best_config; absent when they state neither.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agrees_with_config: Option<bool>,
}

/// A differing (or renamed, or unpaired) file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileDiff {
    /// Path in A.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<String>,
    /// Path in B.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<String>,
    /// What the file is.
    pub role: FileRole,
    /// How it was paired.
    pub paired_by: PairedBy,
    /// The kernel it belongs to, when any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    /// How the difference was explained.
    pub class: DiffClass,
    /// The noise it showed.
    pub noise: Vec<NoiseKind>,
    /// Why, in words, when not pure noise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A kernel whose autotune config differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelDiff {
    /// Kernel name.
    pub kernel: String,
    /// The config fields that differ (never `time_taken_ms` and friends).
    pub fields: Vec<ConfigFieldDiff>,
    /// The wrapper lines that carry the choice.
    pub wrapper_lines: Vec<WrapperLine>,
    /// The kernel's cubins, when paired (A path, B path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cubin: Option<(String, String)>,
}

/// A difference nothing known explains.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unexplained {
    /// Path in A.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<String>,
    /// Path in B.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<String>,
    /// Why it is unexplained.
    pub reason: String,
    /// The differing lines, for text files.
    pub lines: Vec<WrapperLine>,
}

/// File counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FileCounts {
    /// Files in A.
    pub a: usize,
    /// Files in B.
    pub b: usize,
    /// Pairs with equal fingerprints at the same path.
    pub identical: usize,
    /// Pairs formed by path.
    pub paired_by_path: usize,
    /// Pairs formed by role or kernel.
    pub paired_by_role: usize,
    /// Pairs whose fingerprints differ.
    pub differing: usize,
    /// Files only in A.
    pub only_a: Vec<String>,
    /// Files only in B.
    pub only_b: Vec<String>,
}

/// How many file pairs showed each kind of noise.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NoiseCount {
    /// The kind.
    pub kind: NoiseKind,
    /// File pairs that showed it.
    pub files: usize,
}

/// The autotune picture.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct KernelSummary {
    /// Kernels with a best_config in either tree.
    pub with_configs: usize,
    /// Those whose config fields differ, sorted.
    pub config_differs: Vec<String>,
    /// Those whose configs agree, sorted.
    pub config_same: Vec<String>,
}

/// The result of a determinism diff.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeterminismReport {
    /// The verdict.
    pub verdict: DeterminismVerdict,
    /// One sentence saying why the verdict is what it is.
    pub summary: String,
    /// File counts.
    pub files: FileCounts,
    /// Noise seen, per kind.
    pub noise: Vec<NoiseCount>,
    /// The autotune picture.
    pub kernels: KernelSummary,
    /// Per kernel whose config differs: fields and carrier lines.
    pub kernel_diffs: Vec<KernelDiff>,
    /// Every differing, renamed or unpaired file with its explanation.
    pub file_diffs: Vec<FileDiff>,
    /// Every unexplained difference, named.
    pub unexplained: Vec<Unexplained>,
}

const TEXT_EXTENSIONS: [&str; 10] = [
    ".cpp",
    ".h",
    ".hpp",
    ".cu",
    ".py",
    ".json",
    ".txt",
    ".best_config",
    ".yaml",
    ".log",
];
const CUBIN_EXTENSIONS: [&str; 4] = [".cubin", ".hsaco", ".spv", ".fatbin"];
const BUILT_EXTENSIONS: [&str; 3] = [".so", ".o", ".dll"];

fn role_of(path: &str) -> FileRole {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == "serialization_id" {
        FileRole::SerializationId
    } else if name.ends_with(".best_config") {
        FileRole::BestConfig
    } else if name.ends_with(".wrapper.cpp") || name.ends_with(".wrapper.py") {
        FileRole::Wrapper
    } else if CUBIN_EXTENSIONS.iter().any(|e| name.ends_with(e)) {
        FileRole::Cubin
    } else if BUILT_EXTENSIONS.iter().any(|e| name.ends_with(e)) {
        FileRole::Built
    } else if TEXT_EXTENSIONS.iter().any(|e| name.ends_with(e)) {
        FileRole::Source
    } else {
        FileRole::Other
    }
}

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

fn base_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Which files' content [`diff_trees`] will read. `a` and `b` may carry no
/// content yet; files above `max_bytes` are never requested.
pub fn content_plan(a: &ArtifactTree, b: &ArtifactTree, max_bytes: u64) -> ContentPlan {
    let side = |this: &ArtifactTree, other: &ArtifactTree| -> Vec<String> {
        let other_by_path: HashMap<&str, &str> = other
            .files
            .iter()
            .map(|f| (f.path.as_str(), f.sha256.as_str()))
            .collect();
        let config_dirs: BTreeSet<&str> = this
            .files
            .iter()
            .filter(|f| f.path.ends_with(".best_config"))
            .map(|f| dir_of(&f.path))
            .collect();
        this.files
            .iter()
            .filter(|f| f.size <= max_bytes)
            .filter(|f| {
                let role = role_of(&f.path);
                let index = matches!(role, FileRole::Wrapper | FileRole::BestConfig)
                    || (f.path.ends_with(".py") && config_dirs.contains(dir_of(&f.path)));
                index || other_by_path.get(f.path.as_str()) != Some(&f.sha256.as_str())
            })
            .map(|f| f.path.clone())
            .collect()
    };
    ContentPlan {
        a: side(a, b),
        b: side(b, a),
    }
}

fn validate(tree: &ArtifactTree, side: &'static str) -> Result<(), DiffError> {
    if tree.files.is_empty() {
        return Err(DiffError::EmptyTree { side });
    }
    let mut seen = BTreeSet::new();
    for f in &tree.files {
        if f.path.is_empty()
            || f.path.starts_with('/')
            || f.path.split('/').any(|c| c == ".." || c.is_empty())
            || f.path.contains('\\')
        {
            return Err(DiffError::BadPath {
                side,
                path: f.path.clone(),
            });
        }
        if f.sha256.len() != 64 || !f.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(DiffError::BadFingerprint {
                side,
                path: f.path.clone(),
            });
        }
        if !seen.insert(f.path.as_str()) {
            return Err(DiffError::DuplicatePath {
                side,
                path: f.path.clone(),
            });
        }
    }
    Ok(())
}

fn load_kernel_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"loadKernel\(\s*"([^"]*?)([^"/]+\.(?:cubin|hsaco|spv|fatbin))"\s*,\s*"(\w+)""#)
            .expect("static regex")
    })
}

fn text_of(f: &ArtifactFile) -> Option<&str> {
    let bytes = f.content.as_deref()?;
    if memchr::memchr(0, bytes).is_some() {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// What one tree says about itself: cache roots, cubin -> kernel, best_config -> kernel.
struct TreeIndex<'t> {
    tree: &'t ArtifactTree,
    by_path: HashMap<&'t str, usize>,
    roots: Vec<String>,
    cubin_kernel: HashMap<String, String>,
    config_kernel: HashMap<String, String>,
}

impl<'t> TreeIndex<'t> {
    fn new(tree: &'t ArtifactTree) -> Self {
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
    fn kernel_of(&self, path: &str) -> Option<String> {
        match role_of(path) {
            FileRole::Cubin => self.cubin_kernel.get(base_of(path)).cloned(),
            FileRole::BestConfig => self.config_kernel.get(path).cloned(),
            FileRole::Source if path.ends_with(".py") => {
                text_of(self.file(path)).and_then(configs::kernel_defined_in)
            }
            _ => None,
        }
    }

    /// The key a file is paired by when its path has no counterpart.
    fn role_key(&self, path: &str) -> String {
        let role = role_of(path);
        if let Some(k) = self.kernel_of(path) {
            return format!("{role:?}:{k}");
        }
        let p = normalize::normalize_paths(path, &[]).text;
        shard_dir_re()
            .replace_all(&p, "${1}<shard>/<hash>")
            .into_owned()
    }
}

fn shard_dir_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(^|/)[a-z0-9]{2}/<hash>").expect("static regex"))
}

struct Pair<'t> {
    a: Option<&'t ArtifactFile>,
    b: Option<&'t ArtifactFile>,
    by: PairedBy,
}

fn pair_files<'t>(ia: &TreeIndex<'t>, ib: &TreeIndex<'t>) -> Vec<Pair<'t>> {
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

/// Diffs two artifact trees. See the module documentation.
pub fn diff_trees(a: &ArtifactTree, b: &ArtifactTree) -> Result<DeterminismReport, DiffError> {
    validate(a, "A")?;
    validate(b, "B")?;
    let ia = TreeIndex::new(a);
    let ib = TreeIndex::new(b);
    let pairs = pair_files(&ia, &ib);
    let mut counts = FileCounts {
        a: a.files.len(),
        b: b.files.len(),
        ..FileCounts::default()
    };
    for p in &pairs {
        match (p.a, p.b, p.by) {
            (Some(fa), Some(fb), by) => {
                if by == PairedBy::Path {
                    counts.paired_by_path += 1;
                    if fa.sha256.eq_ignore_ascii_case(&fb.sha256) {
                        counts.identical += 1;
                    }
                } else {
                    counts.paired_by_role += 1;
                }
                if !fa.sha256.eq_ignore_ascii_case(&fb.sha256) {
                    counts.differing += 1;
                }
            }
            (Some(fa), None, _) => counts.only_a.push(fa.path.clone()),
            (None, Some(fb), _) => counts.only_b.push(fb.path.clone()),
            (None, None, _) => {}
        }
    }
    counts.only_a.sort();
    counts.only_b.sort();

    // Autotune configs per kernel.
    let mut kernel_configs: BTreeMap<String, (Option<BestConfig>, Option<BestConfig>)> =
        BTreeMap::new();
    for p in &pairs {
        for (side, file, index) in [(0, p.a, &ia), (1, p.b, &ib)] {
            let Some(f) = file.filter(|f| role_of(&f.path) == FileRole::BestConfig) else {
                continue;
            };
            let kernel = index
                .kernel_of(&f.path)
                .unwrap_or_else(|| format!("(unattributed {})", f.path));
            let cfg = text_of(f).and_then(BestConfig::parse);
            let e = kernel_configs.entry(kernel).or_default();
            if side == 0 {
                e.0 = cfg;
            } else {
                e.1 = cfg;
            }
        }
    }
    let mut kernels = KernelSummary {
        with_configs: kernel_configs.len(),
        ..KernelSummary::default()
    };
    let mut config_fields: BTreeMap<String, Vec<ConfigFieldDiff>> = BTreeMap::new();
    for (k, (ca, cb)) in &kernel_configs {
        if let (Some(ca), Some(cb)) = (ca, cb) {
            let c = configs::compare(ca, cb);
            if c.fields.is_empty() {
                kernels.config_same.push(k.clone());
            } else {
                kernels.config_differs.push(k.clone());
                config_fields.insert(k.clone(), c.fields);
            }
        }
    }
    let differs: BTreeSet<String> = kernels.config_differs.iter().cloned().collect();

    let mut cx = Classifier {
        ia: &ia,
        ib: &ib,
        differs: &differs,
        kernel_configs: &kernel_configs,
        file_diffs: Vec::new(),
        unexplained: Vec::new(),
        carriers: BTreeMap::new(),
    };
    // Sources before built binaries, which inherit their sources' class.
    let mut order: Vec<&Pair<'_>> = pairs.iter().collect();
    order.sort_by_key(|p| {
        let path = p.a.or(p.b).map(|f| f.path.as_str()).unwrap_or("");
        (role_of(path) == FileRole::Built, path.to_owned())
    });
    for p in order {
        cx.classify(p);
    }

    let mut noise_counts: BTreeMap<NoiseKind, usize> = BTreeMap::new();
    for d in &cx.file_diffs {
        for n in &d.noise {
            *noise_counts.entry(*n).or_default() += 1;
        }
    }
    let kernel_diffs: Vec<KernelDiff> = kernels
        .config_differs
        .iter()
        .map(|k| {
            let cubin = cx
                .file_diffs
                .iter()
                .find(|d| d.role == FileRole::Cubin && d.kernel.as_deref() == Some(k))
                .and_then(|d| Some((d.a.clone()?, d.b.clone()?)));
            KernelDiff {
                kernel: k.clone(),
                fields: config_fields.remove(k).unwrap_or_default(),
                wrapper_lines: cx.carriers.remove(k).unwrap_or_default(),
                cubin,
            }
        })
        .collect();

    let byte_identical = counts.only_a.is_empty()
        && counts.only_b.is_empty()
        && counts.paired_by_role == 0
        && counts.identical == counts.paired_by_path;
    let verdict = if byte_identical {
        DeterminismVerdict::ByteIdentical
    } else if !cx.unexplained.is_empty() {
        DeterminismVerdict::Unexplained
    } else if !kernels.config_differs.is_empty() {
        DeterminismVerdict::AutotuneConfigsOnly
    } else {
        DeterminismVerdict::PathNoiseOnly
    };
    let summary = match verdict {
        DeterminismVerdict::ByteIdentical => format!("{} files, same paths, same bytes", counts.a),
        DeterminismVerdict::PathNoiseOnly => format!(
            "{} of {} paired files differ, all by known noise",
            counts.differing,
            counts.paired_by_path + counts.paired_by_role
        ),
        DeterminismVerdict::AutotuneConfigsOnly => format!(
            "{} of {} kernels chose different autotune configs ({}); every other difference is known noise",
            kernels.config_differs.len(),
            kernels.with_configs,
            kernels.config_differs.join(", ")
        ),
        DeterminismVerdict::Unexplained => format!(
            "{} difference(s) that neither known noise nor autotune configs explain",
            cx.unexplained.len()
        ),
    };
    tracing::debug!(verdict = ?verdict, differing = counts.differing, "determinism diff");
    Ok(DeterminismReport {
        verdict,
        summary,
        files: counts,
        noise: noise_counts
            .into_iter()
            .map(|(kind, files)| NoiseCount { kind, files })
            .collect(),
        kernels,
        kernel_diffs,
        file_diffs: cx.file_diffs,
        unexplained: cx.unexplained,
    })
}

struct Classifier<'c, 't> {
    ia: &'c TreeIndex<'t>,
    ib: &'c TreeIndex<'t>,
    differs: &'c BTreeSet<String>,
    kernel_configs: &'c BTreeMap<String, (Option<BestConfig>, Option<BestConfig>)>,
    file_diffs: Vec<FileDiff>,
    unexplained: Vec<Unexplained>,
    carriers: BTreeMap<String, Vec<WrapperLine>>,
}

struct Outcome {
    class: DiffClass,
    noise: BTreeSet<NoiseKind>,
    reason: Option<String>,
    kernel: Option<String>,
    lines: Vec<WrapperLine>,
}

impl Outcome {
    fn noise(noise: BTreeSet<NoiseKind>) -> Self {
        Outcome {
            class: DiffClass::Noise,
            noise,
            reason: None,
            kernel: None,
            lines: Vec::new(),
        }
    }
    fn unexplained(reason: String) -> Self {
        Outcome {
            class: DiffClass::Unexplained,
            noise: BTreeSet::new(),
            reason: Some(reason),
            kernel: None,
            lines: Vec::new(),
        }
    }
}

impl Classifier<'_, '_> {
    fn classify(&mut self, p: &Pair<'_>) {
        let (fa, fb) = match (p.a, p.b) {
            (Some(fa), Some(fb)) => (fa, fb),
            (fa, fb) => {
                let (side, f) = match (fa, fb) {
                    (Some(f), _) => ("A", f),
                    (_, Some(f)) => ("B", f),
                    _ => return,
                };
                let reason = format!("only in {side}: no counterpart by path, role or kernel");
                self.push(p, role_of(&f.path), Outcome::unexplained(reason));
                return;
            }
        };
        let same = fa.sha256.eq_ignore_ascii_case(&fb.sha256);
        if same {
            if p.by == PairedBy::Role {
                // Same bytes under another content-hashed name.
                let mut n = BTreeSet::new();
                n.insert(NoiseKind::HashedFileName);
                self.push(p, role_of(&fa.path), Outcome::noise(n));
            }
            return;
        }
        let role = role_of(&fa.path);
        let outcome = match (fa.content.as_deref(), fb.content.as_deref()) {
            (Some(ca), Some(cb)) => self.compare(role, fa, fb, ca, cb),
            _ => Outcome::unexplained(format!(
                "content not compared ({} and {} bytes, not loaded)",
                fa.size, fb.size
            )),
        };
        let mut outcome = outcome;
        if p.by == PairedBy::Role {
            outcome.noise.insert(NoiseKind::HashedFileName);
        }
        self.push(p, role, outcome);
    }

    fn push(&mut self, p: &Pair<'_>, role: FileRole, o: Outcome) {
        let a = p.a.map(|f| f.path.clone());
        let b = p.b.map(|f| f.path.clone());
        if o.class == DiffClass::Unexplained {
            self.unexplained.push(Unexplained {
                a: a.clone(),
                b: b.clone(),
                reason: o.reason.clone().unwrap_or_default(),
                lines: o.lines.clone(),
            });
        }
        self.file_diffs.push(FileDiff {
            a,
            b,
            role,
            paired_by: p.by,
            kernel: o.kernel,
            class: o.class,
            noise: o.noise.into_iter().collect(),
            reason: o.reason,
        });
    }

    fn compare(
        &mut self,
        role: FileRole,
        fa: &ArtifactFile,
        fb: &ArtifactFile,
        ca: &[u8],
        cb: &[u8],
    ) -> Outcome {
        match role {
            FileRole::SerializationId => {
                let token = |c: &[u8]| {
                    !c.is_empty()
                        && c.len() <= 128
                        && c.iter().all(|b| {
                            b.is_ascii_alphanumeric() || b.is_ascii_whitespace() || *b == b'-'
                        })
                };
                if token(ca) && token(cb) {
                    let mut n = BTreeSet::new();
                    n.insert(NoiseKind::SerializationId);
                    Outcome::noise(n)
                } else {
                    Outcome::unexplained("serialization_id is not a plain random id".into())
                }
            }
            FileRole::BestConfig => self.best_config(fa, fb),
            FileRole::Cubin => {
                let kernel = self
                    .ia
                    .kernel_of(&fa.path)
                    .or_else(|| self.ib.kernel_of(&fb.path));
                let mut o = match &kernel {
                    Some(k) if self.differs.contains(k) => Outcome {
                        class: DiffClass::AutotuneConfig,
                        noise: BTreeSet::new(),
                        reason: Some(format!("compiled with a different autotune config for {k}")),
                        kernel: None,
                        lines: Vec::new(),
                    },
                    _ => self.binary(
                        ca,
                        cb,
                        "cubin differs beyond path noise while its kernel's config is the same",
                    ),
                };
                o.kernel = kernel;
                o
            }
            FileRole::Built => self.built(fa, fb, ca, cb),
            FileRole::Wrapper | FileRole::Source | FileRole::Other => {
                match (std::str::from_utf8(ca), std::str::from_utf8(cb)) {
                    (Ok(ta), Ok(tb))
                        if role != FileRole::Other || (!ca.contains(&0) && !cb.contains(&0)) =>
                    {
                        self.text(fa, fb, ta, tb)
                    }
                    _ => self.binary(ca, cb, "binary differs beyond path noise"),
                }
            }
        }
    }

    fn binary(&self, ca: &[u8], cb: &[u8], reason: &str) -> Outcome {
        let (na, ka) = normalize::normalize_binary(ca, &self.ia.roots);
        let (nb, kb) = normalize::normalize_binary(cb, &self.ib.roots);
        if na == nb {
            Outcome::noise(ka.union(&kb).copied().collect())
        } else {
            Outcome::unexplained(reason.to_owned())
        }
    }

    fn built(&self, fa: &ArtifactFile, fb: &ArtifactFile, ca: &[u8], cb: &[u8]) -> Outcome {
        // `X.wrapper.so` is built from `X.wrapper.cpp` (and `.o` likewise).
        let source = |path: &str| {
            let stem = path.rsplit_once('.').map_or(path, |(s, _)| s);
            format!("{stem}.cpp")
        };
        let (sa, sb) = (source(&fa.path), source(&fb.path));
        let source_diff = self
            .file_diffs
            .iter()
            .find(|d| d.a.as_deref() == Some(sa.as_str()) && d.b.as_deref() == Some(sb.as_str()));
        if let Some(d) = source_diff.filter(|d| d.class == DiffClass::AutotuneConfig) {
            return Outcome {
                class: DiffClass::AutotuneConfig,
                noise: BTreeSet::new(),
                reason: Some(format!(
                    "built from {} which differs by autotune configs",
                    d.a.as_deref().unwrap_or("")
                )),
                kernel: None,
                lines: Vec::new(),
            };
        }
        self.binary(
            ca,
            cb,
            "built binary differs beyond path noise while its source does not differ by configs",
        )
    }

    fn best_config(&self, fa: &ArtifactFile, fb: &ArtifactFile) -> Outcome {
        let kernel = self
            .ia
            .kernel_of(&fa.path)
            .or_else(|| self.ib.kernel_of(&fb.path));
        let parsed = (
            text_of(fa).and_then(BestConfig::parse),
            text_of(fb).and_then(BestConfig::parse),
        );
        let (Some(a), Some(b)) = parsed else {
            let mut o = Outcome::unexplained("best_config is not a JSON object".into());
            o.kernel = kernel;
            return o;
        };
        let c = configs::compare(&a, &b);
        let mut o = if c.candidate_set_differs {
            Outcome::unexplained(
                "autotune chose among different candidate sets (configs_hash differs)".into(),
            )
        } else if !c.fields.is_empty() {
            let fields: Vec<String> = c.fields.iter().map(|f| f.field.clone()).collect();
            Outcome {
                class: DiffClass::AutotuneConfig,
                noise: BTreeSet::new(),
                reason: Some(format!("config fields differ: {}", fields.join(", "))),
                kernel: None,
                lines: Vec::new(),
            }
        } else if !c.measurement_fields.is_empty() {
            let mut n = BTreeSet::new();
            n.insert(NoiseKind::AutotuneMeasurement);
            Outcome::noise(n)
        } else {
            // Same fields and values, different bytes: formatting only.
            Outcome::noise(BTreeSet::new())
        };
        if !c.measurement_fields.is_empty() {
            o.noise.insert(NoiseKind::AutotuneMeasurement);
        }
        o.kernel = kernel;
        o
    }

    fn text(&mut self, fa: &ArtifactFile, fb: &ArtifactFile, ta: &str, tb: &str) -> Outcome {
        let pa: Prepared = text::prepare(ta, &self.ia.roots);
        let pb: Prepared = text::prepare(tb, &self.ib.roots);
        let d = text::diff(&pa, &pb);
        let mut explained = 0usize;
        let mut unexplained_lines = Vec::new();
        for line in &d.differing {
            let kernel = line.kernel().map(str::to_owned);
            // What was compared: paths normalised, shape constants inlined.
            let text_a = line.a.map(|l| l.compared.trim().to_owned());
            let text_b = line.b.map(|l| l.compared.trim().to_owned());
            let role = line_role(text_a.as_deref().or(text_b.as_deref()).unwrap_or(""));
            let agrees = kernel.as_deref().and_then(|k| {
                let (ca, cb) = self.kernel_configs.get(k)?;
                let va = match (&text_a, ca) {
                    (Some(t), Some(c)) => agrees_with_config(t, c),
                    _ => None,
                };
                let vb = match (&text_b, cb) {
                    (Some(t), Some(c)) => agrees_with_config(t, c),
                    _ => None,
                };
                match (va, vb) {
                    (None, None) => None,
                    (x, y) => Some(x.unwrap_or(true) && y.unwrap_or(true)),
                }
            });
            let wl = WrapperLine {
                file: fa.path.clone(),
                role,
                kernel: kernel.clone(),
                line_a: line.a.map(|l| l.no),
                line_b: line.b.map(|l| l.no),
                text_a,
                text_b,
                agrees_with_config: agrees,
            };
            let carrier = kernel.as_deref().is_some_and(|k| self.differs.contains(k))
                && agrees != Some(false);
            if carrier {
                explained += 1;
                self.carriers
                    .entry(kernel.unwrap_or_default())
                    .or_default()
                    .push(wl);
            } else {
                unexplained_lines.push(wl);
            }
        }
        let _ = fb;
        if !unexplained_lines.is_empty() {
            let n = unexplained_lines.len();
            return Outcome {
                class: DiffClass::Unexplained,
                noise: d.noise,
                reason: Some(format!(
                    "{n} line(s) differ after normalisation outside the launchers of kernels whose configs differ (or against their config)"
                )),
                kernel: None,
                lines: unexplained_lines,
            };
        }
        if explained > 0 {
            return Outcome {
                class: DiffClass::AutotuneConfig,
                noise: d.noise,
                reason: Some(format!(
                    "{explained} line(s) carry differing autotune configs"
                )),
                kernel: None,
                lines: Vec::new(),
            };
        }
        Outcome::noise(d.noise)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, content: &str) -> ArtifactFile {
        use std::fmt::Write;
        // Not a real sha256: any 64-hex fingerprint that changes with content.
        let mut h: u64 = 1469598103934665603;
        for b in content.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(1099511628211);
        }
        let mut sha = String::new();
        for i in 0..4u64 {
            let _ = write!(sha, "{:016x}", h.rotate_left(i as u32 * 16));
        }
        ArtifactFile {
            path: path.into(),
            size: content.len() as u64,
            sha256: sha,
            content: Some(content.as_bytes().to_vec()),
        }
    }

    #[test]
    fn identical_trees_are_byte_identical() {
        let t = ArtifactTree {
            files: vec![file("a.txt", "x")],
        };
        let r = diff_trees(&t, &t).unwrap();
        assert_eq!(r.verdict, DeterminismVerdict::ByteIdentical);
    }

    #[test]
    fn a_file_only_on_one_side_is_unexplained() {
        let a = ArtifactTree {
            files: vec![file("a.txt", "x"), file("b.txt", "y")],
        };
        let b = ArtifactTree {
            files: vec![file("a.txt", "x")],
        };
        let r = diff_trees(&a, &b).unwrap();
        assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
        assert_eq!(r.files.only_a, ["b.txt"]);
    }

    #[test]
    fn bad_inputs_are_refused() {
        let empty = ArtifactTree::default();
        let one = ArtifactTree {
            files: vec![file("a", "x")],
        };
        assert!(matches!(
            diff_trees(&empty, &one),
            Err(DiffError::EmptyTree { side: "A" })
        ));
        let dup = ArtifactTree {
            files: vec![file("a", "x"), file("a", "y")],
        };
        assert!(matches!(
            diff_trees(&one, &dup),
            Err(DiffError::DuplicatePath { .. })
        ));
        let climbing = ArtifactTree {
            files: vec![file("../a", "x")],
        };
        assert!(matches!(
            diff_trees(&climbing, &one),
            Err(DiffError::BadPath { .. })
        ));
        let mut bad = file("a", "x");
        bad.sha256 = "zz".into();
        assert!(matches!(
            diff_trees(&ArtifactTree { files: vec![bad] }, &one),
            Err(DiffError::BadFingerprint { .. })
        ));
    }

    #[test]
    fn content_plan_asks_only_for_differences_and_index_files() {
        let a = ArtifactTree {
            files: vec![
                file("same.bin", "x"),
                file("diff.bin", "1"),
                file("k/m.wrapper.cpp", "w"),
            ],
        };
        let b = ArtifactTree {
            files: vec![
                file("same.bin", "x"),
                file("diff.bin", "2"),
                file("k/m.wrapper.cpp", "w"),
            ],
        };
        let plan = content_plan(&a, &b, 1 << 20);
        assert_eq!(plan.a, ["diff.bin", "k/m.wrapper.cpp"]);
    }
}
