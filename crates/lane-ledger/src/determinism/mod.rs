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
//! (the `normalize` module); attribute what remains to kernels whose autotune configs
//! differ, or name it as unexplained. Verdicts, from best to worst:
//! [`DeterminismVerdict`].

mod classify;
pub mod configs;
mod normalize;
mod pairing;
pub mod text;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use crate::error::DiffError;
use classify::Classifier;
use configs::BestConfig;
pub use configs::ConfigFieldDiff;
use pairing::{pair_files, text_of, Pair, TreeIndex};
pub use text::LineRole;

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
