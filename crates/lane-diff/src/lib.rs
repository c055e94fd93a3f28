//! The determinism diff of two cold mints: are they the same bytes, and if
//! not, is every difference explained, and by what?
//!
//! Inputs are in-memory descriptions of two artifact trees ([`ArtifactTree`],
//! or [`CellSide`] with what the reader skipped): every file's relative
//! path, size and sha256, plus the content of the files the diff must read.
//! [`ingest`] builds them from folders, `.tar.gz` / `.tar` and `.pt2` (zip)
//! streams nested in any order: a first pass fingerprints every file and
//! keeps the small index files, [`content_plan`] names the contents needed
//! (files whose fingerprints differ or have no counterpart, plus the index
//! files: wrappers, `*.best_config`, kernel sources next to a best_config),
//! a second pass loads only those, then [`diff_sides`] (or [`diff_trees`]).
//!
//! Steps: pair files (same path first, then by role and kernel name, since
//! generated names are content hashes); compare fingerprints; for pairs that
//! differ, compare content after the known noise is removed (the `normalize`
//! module; JSON by value, the `jsondiff` module); read each kernel's config
//! from its best_config, else from its launcher in the wrapper (the
//! `launch` module, per package entry); attribute what remains to kernels
//! whose configs differ (wrapper lines, cubins, built binaries) or to
//! recorded decisions that flipped, or name it as unexplained with its
//! cause. Verdicts, from best to worst: [`DeterminismVerdict`].
//! `docs/diff.md` documents every rule.
//!
//! A pure crate, apart from the cost ledger (`lane-ledger`) it sits beside:
//! it takes in-memory trees and readers ([`ingest::Source`]; the CLI walks
//! folders and opens archives) and returns a [`DeterminismReport`]. It
//! never renders (`lane-render` does), prints, or touches the filesystem
//! beyond the spool the caller hands it.

pub mod chunks;
pub mod classes;
mod classify;
pub mod coldness;
pub mod configs;
mod derive;
mod error;
mod fxentry;
pub mod ingest;
mod jsondiff;
mod kernels;
mod launch;
mod model;
mod normalize;
mod padmm;
mod pairing;
mod pickle;
mod provenance;
mod renumber;
pub mod text;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chunks::ChunkIndex;
pub use classes::{
    diff_classes, pair_classes, ClassDiff, ClassPairing, GraphClass, MintDiffReport, PairDiff,
    PairedClass,
};
use classify::Classifier;
pub use configs::ConfigFieldDiff;
pub use error::DiffError;
pub use model::*;
use pairing::{pair_files, Pair, TreeIndex};
pub use text::LineRole;

/// Content larger than this is not loaded by default; such a file that
/// differs is reported as "content not compared" (unexplained).
pub const DEFAULT_MAX_CONTENT_BYTES: u64 = 64 * 1024 * 1024;

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

/// Whether `path` is one of inductor's benchmark caches: a file right
/// under `inductor/cache/` (`PersistentCache`'s local cache, keyed by the
/// system hash: autotune candidates' timings).
fn is_benchmark_cache(path: &str) -> bool {
    let Some((dir, name)) = path.rsplit_once('/') else {
        return false;
    };
    !name.is_empty() && (dir == "inductor/cache" || dir.ends_with("/inductor/cache"))
}

/// A unit variant as `--json` spells it (`byte_identical`).
pub(crate) fn word(v: impl serde::Serialize) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

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
    } else if is_benchmark_cache(path) {
        FileRole::BenchmarkCache
    } else if pairing::is_fx_graph_entry(path) {
        FileRole::FxGraphEntry
    } else if is_weights(path, name) {
        FileRole::Weights
    } else if TEXT_EXTENSIONS.iter().any(|e| name.ends_with(e)) {
        FileRole::Source
    } else {
        FileRole::Other
    }
}

/// Whether `path` holds a model's weights: a file in a `weights` folder
/// (an AOTInductor package's `data/weights/`) other than its JSON, or a
/// `.safetensors`.
fn is_weights(path: &str, name: &str) -> bool {
    let in_weights = dir_of(path).rsplit('/').next() == Some("weights");
    (in_weights && !name.ends_with(".json")) || name.ends_with(".safetensors")
}

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

fn base_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Whether the diff reads a file's content whatever its fingerprint: the
/// files that say which kernel is which and what its config is.
pub fn is_index_file(path: &str) -> bool {
    matches!(role_of(path), FileRole::Wrapper | FileRole::BestConfig)
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
                let index = is_index_file(&f.path)
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
    let none = ChunkIndex::default();
    diff_impl(a, b, InputSummary::default(), [&none, &none])
}

/// Diffs two sides as read by [`ingest`]: their trees, with the archives
/// they were read from and the entries skipped on the way.
pub fn diff_sides(a: &CellSide, b: &CellSide) -> Result<DeterminismReport, DiffError> {
    let inputs = InputSummary {
        containers_a: a.containers.clone(),
        containers_b: b.containers.clone(),
        skipped_a: a.skipped.clone(),
        skipped_b: b.skipped.clone(),
    };
    diff_impl(&a.tree, &b.tree, inputs, [&a.chunks, &b.chunks])
}

fn count_files(pairs: &[Pair<'_>], a: &ArtifactTree, b: &ArtifactTree) -> FileCounts {
    let mut counts = FileCounts {
        a: a.files.len(),
        b: b.files.len(),
        ..FileCounts::default()
    };
    for p in pairs {
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
    counts
}

/// Skipped entries that are not the same on both sides. lane's records of
/// the mint are not the cell: one side keeping a log or a trace the other
/// names otherwise is no difference of the cells.
fn skipped_differences(inputs: &InputSummary) -> Vec<Unexplained> {
    let of_cell = |l: &'_ [SkippedEntry]| -> Vec<SkippedEntry> {
        l.iter()
            .filter(|e| e.kind != SkippedKind::MintRecord)
            .cloned()
            .collect()
    };
    let (ka, kb) = (of_cell(&inputs.skipped_a), of_cell(&inputs.skipped_b));
    let sa: BTreeSet<&SkippedEntry> = ka.iter().collect();
    let sb: BTreeSet<&SkippedEntry> = kb.iter().collect();
    let mut out = Vec::new();
    for (side, this, other) in [("A", &sa, &sb), ("B", &sb, &sa)] {
        for e in this.difference(other) {
            let kind = word(e.kind);
            out.push(Unexplained {
                a: (side == "A").then(|| e.path.clone()),
                b: (side == "B").then(|| e.path.clone()),
                cause: UnexplainedCause::SkippedEntry,
                reason: format!(
                    "a {kind} skipped in {side} (never followed or read) with no identical counterpart"
                ),
                lines: Vec::new(),
                values: Vec::new(),
                ranges: Vec::new(),
            });
        }
    }
    out
}

fn diff_impl(
    a: &ArtifactTree,
    b: &ArtifactTree,
    inputs: InputSummary,
    chunks: [&ChunkIndex; 2],
) -> Result<DeterminismReport, DiffError> {
    validate(a, "A")?;
    validate(b, "B")?;
    // Rule 0 first: the paths lane gave each attempt, and the names
    // derived from them.
    let learned = derive::learn(a, b);
    let mut ia = TreeIndex::new(a);
    let mut ib = TreeIndex::new(b);
    learned.apply(&mut ia.roots, &mut ib.roots);
    ib.rename = renumber::pair_kernels(a, b);
    ia.index_candidates();
    ib.index_candidates();
    let pairs = pair_files(&ia, &ib);
    let counts = count_files(&pairs, a, b);
    let table = kernels::build(&pairs, &ia, &ib);

    let mut cx = Classifier {
        ia: &ia,
        ib: &ib,
        table: &table,
        file_diffs: Vec::new(),
        unexplained: Vec::new(),
        carriers: BTreeMap::new(),
        decisions: Vec::new(),
        decision_kernels: BTreeMap::new(),
        chunks,
    };
    // Benchmark caches first (their decisions explain graph changes),
    // sources before cubins (compiled from them) before built binaries and
    // FX-graph entries (which inherit their sources' class).
    let rank = |path: &str| match role_of(path) {
        FileRole::BenchmarkCache => 0,
        FileRole::Cubin => 2,
        FileRole::Built | FileRole::FxGraphEntry => 3,
        _ => 1,
    };
    let mut order: Vec<&Pair<'_>> = pairs.iter().collect();
    order.sort_by_key(|p| {
        let path = p.a.or(p.b).map(|f| f.path.as_str()).unwrap_or("");
        (rank(path), path.to_owned())
    });
    let mut graph_ready = false;
    for p in order {
        let path = p.a.or(p.b).map(|f| f.path.as_str()).unwrap_or("");
        if !graph_ready && rank(path) > 0 {
            cx.graph_decisions();
            graph_ready = true;
        }
        cx.classify(p);
    }
    if !graph_ready {
        cx.graph_decisions();
    }

    let mut noise_counts: BTreeMap<NoiseKind, usize> = BTreeMap::new();
    for d in &cx.file_diffs {
        for n in &d.noise {
            *noise_counts.entry(*n).or_default() += 1;
        }
    }
    let kernel_diffs: Vec<KernelDiff> = table
        .differing
        .iter()
        .map(|(key, kd)| {
            let mut kd = kd.clone();
            // A Triton cache holds every candidate: the cubin that follows
            // the config is the one of the winner each best_config names.
            let winner = |tree: &ArtifactTree, hash: Option<&String>| {
                let dir = format!("triton/{}/", hash?);
                tree.files
                    .iter()
                    .find(|f| f.path.contains(&dir) && f.path.ends_with(".cubin"))
                    .map(|f| f.path.clone())
            };
            let winners = table
                .winners
                .get(key)
                .map(|(wa, wb)| (winner(a, wa.as_ref()), winner(b, wb.as_ref())));
            kd.cubin = match winners {
                Some((Some(wa), Some(wb))) => Some((wa, wb)),
                _ => cx
                    .file_diffs
                    .iter()
                    .find(|d| {
                        d.role == FileRole::Cubin
                            && d.class == DiffClass::AutotuneConfig
                            && d.kernel.as_deref() == Some(key.1.as_str())
                            && key
                                .0
                                .as_deref()
                                .is_none_or(|dir| d.a.as_deref().map(dir_of) == Some(dir))
                    })
                    .and_then(|d| Some((d.a.clone()?, d.b.clone()?))),
            };
            kd.wrapper_lines = cx.carriers.remove(key).unwrap_or_default();
            kd
        })
        .collect();

    let skipped = skipped_differences(&inputs);
    let byte_identical = counts.only_a.is_empty()
        && counts.only_b.is_empty()
        && counts.paired_by_role == 0
        && counts.identical == counts.paired_by_path
        && skipped.is_empty();
    let mut unexplained = table.unexplained.clone();
    unexplained.extend(skipped);
    unexplained.append(&mut cx.unexplained);
    let verdict = if byte_identical {
        DeterminismVerdict::ByteIdentical
    } else if !unexplained.is_empty() {
        DeterminismVerdict::Unexplained
    } else if !cx.decisions.is_empty() {
        DeterminismVerdict::DecisionsFlipped
    } else if !table.summary.config_differs.is_empty() {
        DeterminismVerdict::AutotuneConfigsOnly
    } else {
        DeterminismVerdict::PathNoiseOnly
    };
    let summary = summary(
        verdict,
        &counts,
        &table.summary,
        &kernel_diffs,
        &cx.decisions,
        &unexplained,
        &inputs,
    );
    tracing::debug!(verdict = ?verdict, differing = counts.differing, "determinism diff");
    Ok(DeterminismReport {
        verdict,
        summary,
        coldness: None,
        files: counts,
        inputs,
        noise: noise_counts
            .into_iter()
            .map(|(kind, files)| NoiseCount { kind, files })
            .collect(),
        kernels: table.summary.clone(),
        kernel_diffs,
        decisions: cx.decisions,
        findings: table.findings.clone(),
        file_diffs: cx.file_diffs,
        unexplained,
        derivation: learned.derivation,
    })
}

fn summary(
    verdict: DeterminismVerdict,
    counts: &FileCounts,
    kernels: &KernelSummary,
    kernel_diffs: &[KernelDiff],
    decisions: &[DecisionDiff],
    unexplained: &[Unexplained],
    inputs: &InputSummary,
) -> String {
    let configs = || {
        let names: Vec<String> = kernel_diffs
            .iter()
            .map(|k| match &k.entry {
                Some(e) => format!("{} [{e}]", k.kernel),
                None => k.kernel.clone(),
            })
            .collect();
        format!(
            "{} of {} kernels chose different configs ({})",
            kernels.differing,
            kernels.with_configs,
            names.join(", ")
        )
    };
    let mut s = match verdict {
        DeterminismVerdict::ByteIdentical | DeterminismVerdict::IdenticalNotProven => {
            format!("{} files, same paths, same bytes", counts.a)
        }
        DeterminismVerdict::PathNoiseOnly => format!(
            "{} of {} paired files differ, all by known noise",
            counts.differing,
            counts.paired_by_path + counts.paired_by_role
        ),
        DeterminismVerdict::AutotuneConfigsOnly => {
            format!("{}; every other difference is known noise", configs())
        }
        DeterminismVerdict::DecisionsFlipped => {
            let list: Vec<String> = decisions.iter().map(|d| d.headline.clone()).collect();
            let mut s = format!(
                "{} recorded decision(s) flipped ({})",
                decisions.len(),
                list.join("; ")
            );
            if !kernels.config_differs.is_empty() {
                s.push_str("; ");
                s.push_str(&configs());
            }
            s.push_str("; every other difference is known noise");
            s
        }
        DeterminismVerdict::Unexplained => {
            let mut causes: BTreeMap<UnexplainedCause, usize> = BTreeMap::new();
            for u in unexplained {
                *causes.entry(u.cause).or_default() += 1;
            }
            let list: Vec<String> = causes
                .iter()
                .map(|(c, n)| format!("{n} {}", word(c)))
                .collect();
            format!(
                "{} difference(s) that neither known noise, configs nor decisions explain ({})",
                unexplained.len(),
                list.join(", ")
            )
        }
    };
    let count = |list: &[SkippedEntry], records: bool| {
        list.iter()
            .filter(|e| (e.kind == SkippedKind::MintRecord) == records)
            .count()
    };
    let (la, lb) = (
        count(&inputs.skipped_a, false),
        count(&inputs.skipped_b, false),
    );
    if la + lb > 0 {
        s.push_str(&format!(
            "; {} link/pipe/device entr{} skipped ({la} in A, {lb} in B)",
            la + lb,
            if la + lb == 1 { "y" } else { "ies" },
        ));
    }
    let (ra, rb) = (
        count(&inputs.skipped_a, true),
        count(&inputs.skipped_b, true),
    );
    if ra + rb > 0 {
        s.push_str(&format!(
            "; lane's records of the mints left out ({ra} in A, {rb} in B: they describe the mint, not the cell)"
        ));
    }
    s
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

    /// Output code around a padded `aten.addmm [2, 128] x [128, 64]`, as
    /// the padding side (`pads`) and the other side write it, beside a
    /// benchmark cache whose pad_mm decision is `cache` (A's, B's), if any.
    fn padded_trees(cache: Option<(bool, bool)>) -> (ArtifactTree, ArtifactTree) {
        let pads = [
            "def call(args):",
            "#   linear_1 => add_tensor_1, slice_tensor",
            r#"#   %add_tensor_1 : Tensor "f32[4, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg7_1, %mm_default_1), kwargs = {})"#,
            r#"#   %slice_tensor : Tensor "f32[2, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%add_tensor_1, 0, 0, -2), kwargs = {})"#,
            r#"#   %unsqueeze_2 : Tensor "f32[2, 64, 1][64, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%slice_tensor, 2), kwargs = {})"#,
            "    x = 1",
            "    y = 2",
            "    z = 3",
            "    w = 4",
            "    v = 5",
            "    del buf3",
            "    return x",
        ];
        let plain = [
            "def call(args):",
            "#   linear_1 => add_tensor_1",
            r#"#   %add_tensor_1 : Tensor "f32[2, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg7_1, %mm_default_1), kwargs = {})"#,
            r#"#   %unsqueeze_2 : Tensor "f32[2, 64, 1][64, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_tensor_1, 2), kwargs = {})"#,
            "    x = 1",
            "    y = 2",
            "    z = 3",
            "    w = 4",
            "    v = 5",
            "    return x",
        ];
        let key = "((torch.Size([2, 128]), (128, 1), torch.float32), (torch.Size([128, 64]), (1, 128), torch.float32), 'exclude_pad:True', 'exclude_pad:False', <OpOverloadPacket(op='aten.addmm')>, (torch.Size([64]), (1,), torch.float32), True)";
        let tree = |code: &[&str], pad: Option<bool>| {
            let mut files = vec![file("inductor/rf/out.py", &(code.join("\n") + "\n"))];
            if let Some(pad) = pad {
                let cache = serde_json::json!({"system": {"hash": "h"}, "cache": {key: pad}});
                files.push(file("inductor/cache/h", &cache.to_string()));
            }
            ArtifactTree { files }
        };
        (
            tree(&pads, cache.map(|c| c.0)),
            tree(&plain, cache.map(|c| c.1)),
        )
    }

    #[test]
    fn output_code_a_pad_predicts_follows_the_pad_mm_decision() {
        let (a, b) = padded_trees(Some((true, false)));
        let r = diff_trees(&a, &b).unwrap();
        assert_eq!(r.verdict, DeterminismVerdict::DecisionsFlipped, "{r:?}");
        let lines = &r.decisions[0].lines;
        assert_eq!(lines.len(), 5, "{lines:?}");
        assert!(lines.iter().all(|l| l.role == LineRole::PadMm));
        let code = r
            .file_diffs
            .iter()
            .find(|d| d.role == FileRole::Source)
            .unwrap();
        assert_eq!(code.class, DiffClass::Decision);
        assert_eq!(
            code.reason.as_deref(),
            Some("5 line(s) follow the pad_mm decision on aten.addmm (A pads)")
        );
    }

    #[test]
    fn without_a_pad_mm_decision_flipped_no_line_is_attributed() {
        for cache in [None, Some((true, true)), Some((false, true))] {
            let (a, b) = padded_trees(cache);
            let r = diff_trees(&a, &b).unwrap();
            assert_eq!(r.verdict, DeterminismVerdict::Unexplained, "{cache:?}");
            assert!(r.decisions.iter().all(|d| d.lines.is_empty()));
            let u = &r.unexplained[0];
            assert_eq!(u.cause, UnexplainedCause::TextLines);
            assert_eq!(u.lines.len(), 5, "{cache:?}: {:?}", u.lines);
        }
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
