//! The values a determinism diff takes and returns. Everything here is
//! serialised by `lane diff --json`; `docs/diff.md` documents each field.

use std::collections::BTreeMap;

use serde::Serialize;

use super::chunks::{ByteRange, ChunkIndex};
use super::coldness::Coldness;
use super::configs::ConfigFieldDiff;
use super::text::LineRole;

/// One file of an artifact tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArtifactFile {
    /// Path relative to the tree's root, `/`-separated. A member of an
    /// archive found inside the tree sits under the archive's own path
    /// (`cell.tar.gz/model.pt2/data/...`).
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// sha256 of the content, 64 hex digits.
    pub sha256: String,
    /// The content, when it was loaded (see [`super::content_plan`]).
    pub content: Option<Vec<u8>>,
}

/// An artifact tree: a mint's bundle (`package/` + `cache/`), a packed
/// cell's members, or a `.pt2`'s members.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArtifactTree {
    /// Every file.
    pub files: Vec<ArtifactFile>,
}

/// What kind of entry was left out of a tree, and never compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkippedKind {
    /// A symbolic link (following it could leave the tree).
    Symlink,
    /// A hard link inside an archive (its target is another member).
    HardLink,
    /// A named pipe.
    Fifo,
    /// A character or block device.
    Device,
    /// A socket or an entry type lane does not know.
    Other,
    /// lane's own record of the mint at the top of a results slot
    /// (`mint.json`, the mint's `report.json`, `result.json`, the logs, and
    /// the mint's ledger lane gathered under `ledger/`):
    /// it describes the mint (its seconds, its attempt), not the cell, so
    /// it is left out of the diff and named here.
    MintRecord,
}

/// An entry left out of a tree: named in the report, never silently dropped.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SkippedEntry {
    /// Its path in the tree.
    pub path: String,
    /// What it is.
    pub kind: SkippedKind,
    /// A link's target, when it has one (as stored, escaped on output).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// An archive that was opened while reading one side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContainerInfo {
    /// Its path in the tree (`""` when the side is the archive itself).
    pub path: String,
    /// `tar.gz`, `tar` or `zip`.
    pub format: &'static str,
    /// Regular members read from it (nested archives count as one each).
    pub members: usize,
    /// The common top folder stripped from its members (a `.pt2` keeps
    /// everything under one folder named after the package).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stripped_top: Option<String>,
}

/// One side of a diff as read from disk: its tree, and what the reader
/// left out or opened on the way.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CellSide {
    /// The files.
    pub tree: ArtifactTree,
    /// Entries that were not files (links, pipes, devices).
    pub skipped: Vec<SkippedEntry>,
    /// Archives opened, outermost first.
    pub containers: Vec<ContainerInfo>,
    /// The chunk prints of the files whose content was not kept (and
    /// the windows read again where they differ).
    pub chunks: ChunkIndex,
}

/// Which files' content [`super::diff_trees`] needs, per tree.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ContentPlan {
    /// Paths to load in tree A.
    pub a: Vec<String>,
    /// Paths to load in tree B.
    pub b: Vec<String>,
}

/// Known noise, removed before comparing (see `docs/diff.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoiseKind {
    /// A path lane gave the attempt (its folder: `TMPDIR`, `HOME`, caches
    /// under `<lane out>/mints/<cell>/<gpu>/r<N>/a<M>/`), embedded in a file.
    AttemptPath,
    /// A name derived from the attempt's paths (a hashed file name, or a
    /// symbol built from one), written as the other side's
    /// ([`Derivation`]).
    DerivedName,
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
    /// A measured duration or timestamp in a JSON record (`*_s`, `*_ms`,
    /// `measured_at`), or a timing in one of inductor's benchmark caches.
    Timing,
    /// An FX-graph entry's count of async kernel compiles that found (or
    /// did not find) a compile already in flight in the same process
    /// (`counter_deltas` `async_compile_cache_hit`/`_miss`): a count of how
    /// the compile was scheduled, not of what it made.
    AsyncCompileCounter,
    /// Values equal once parsed (JSON key order, spacing).
    Formatting,
    /// Kernels renumbered (`triton_poi_fused_addmm_silu_4` in one mint is
    /// `..._3` in the other: a kernel earlier in the graph was added), and
    /// the files and names that follow them.
    KernelRenumbering,
    /// Wrapper buffers renumbered consistently (`buf5` is `buf4` throughout).
    BufferRenumbering,
    /// Python object addresses in reprs (`at 0x7f2bcad3e180`).
    ObjectAddress,
    /// A temporary build directory (`/tmp/tmpXXXXXXXX/`) compiled into a
    /// binary built at run time, and the ELF build-id that hashes it.
    TempBuildDir,
    /// A PTX's DWARF sections (`.section .debug_info`): source file,
    /// directory and kernel names as bytes; the line table is compared.
    PtxDebugInfo,
}

/// The verdict of a determinism diff, from best to worst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeterminismVerdict {
    /// Same paths, same bytes, and both sides proven cold (or their
    /// coldness not asked: two trees handed in).
    ByteIdentical,
    /// Same paths, same bytes, but a side is not proven cold (warm, or
    /// unknown): identical, but not a proof of determinism
    /// (`super::coldness`).
    IdenticalNotProven,
    /// Every difference is known noise (paths, hashed names, renumbering,
    /// source mtimes, serialization id, timings).
    PathNoiseOnly,
    /// Beyond noise, only kernels whose configs differ (a best_config's
    /// choice, or the launch config the wrapper bakes in), and the wrapper
    /// lines, cubins and built binaries that carry those configs.
    AutotuneConfigsOnly,
    /// A recorded decision flipped (a mint-time timing probe such as
    /// `metadata.json`'s `kernel_lane`), besides any config differences.
    DecisionsFlipped,
    /// Something else moved; each difference is named.
    Unexplained,
}

impl DeterminismVerdict {
    /// A phrase for people.
    pub fn describe(self) -> &'static str {
        match self {
            DeterminismVerdict::ByteIdentical => "byte-identical",
            DeterminismVerdict::IdenticalNotProven => "identical, but not a proof of determinism",
            DeterminismVerdict::PathNoiseOnly => "differs only by path noise",
            DeterminismVerdict::AutotuneConfigsOnly => "differs by autotune configs only",
            DeterminismVerdict::DecisionsFlipped => {
                "differs by recorded decisions that flipped (and configs)"
            }
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
    /// One of inductor's benchmark caches (`inductor/cache/<key>`): timings
    /// of autotune candidates, keyed by the candidate.
    BenchmarkCache,
    /// An FX-graph cache entry (`inductor/fxgraph/<shard>/<key>/<entry>`):
    /// a pickled compiled graph, holding its output code.
    FxGraphEntry,
    /// A model's weights (an AOTInductor package's `data/weights/`, a
    /// `.safetensors`): compared by bytes, its differing ranges named.
    Weights,
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

/// How a differing pair was explained, best first (worse compares greater).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiffClass {
    /// Known noise only.
    Noise,
    /// Explained by a kernel's config (best_config or launch config).
    AutotuneConfig,
    /// Explained by a recorded decision that flipped.
    Decision,
    /// Not explained.
    Unexplained,
}

/// Why a difference is unexplained: each has its own name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnexplainedCause {
    /// A file with no counterpart by path, role, kernel or content.
    OnlyInOneTree,
    /// Not loaded (above the content cap or the side's budget) and not
    /// printed in chunks, so never compared.
    ContentNotCompared,
    /// Above the content cap: compared chunk by chunk, its differing
    /// byte ranges listed (`ranges`).
    ByteRanges,
    /// Text lines that differ after normalisation, outside the launchers of
    /// kernels whose configs differ (or against their config).
    TextLines,
    /// JSON values that differ and are neither a timing nor a decision.
    JsonValues,
    /// A cubin that differs while its kernel's config is the same.
    CubinSameConfig,
    /// A built binary that differs while its source does not differ by configs.
    BuiltBinary,
    /// Any other binary that differs beyond noise.
    Binary,
    /// A best_config that is not a JSON object.
    UnreadableConfig,
    /// A config field of the wrong type (`XBLOCK: "1024"`): never agreement.
    IllTypedConfig,
    /// Autotune chose among different candidate sets (`configs_hash`).
    CandidateSet,
    /// A `serialization_id` that is not a plain random id.
    SerializationId,
    /// A link, pipe or device on one side only, or with another target.
    SkippedEntry,
    /// A graph class (a packed file of its own) that one mint's report
    /// names and the other's does not.
    ClassOnlyInOneMint,
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

/// Where a kernel's config was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConfigSource {
    /// Its `*.best_config` (autotune's own record).
    BestConfig,
    /// Its launcher in the wrapper (`grid_N` block sizes, `launchKernel`'s
    /// num_warps and shared memory): what a `.pt2` ships when no
    /// best_config does.
    WrapperLaunch,
}

/// A kernel whose config differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelDiff {
    /// Kernel name.
    pub kernel: String,
    /// The package entry (graph class) whose wrapper launches it, for
    /// configs read from a wrapper (`unet/B=2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// Where the configs were read.
    pub source: ConfigSource,
    /// A's whole config (no measurements).
    pub config_a: BTreeMap<String, serde_json::Value>,
    /// B's whole config (no measurements).
    pub config_b: BTreeMap<String, serde_json::Value>,
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
    /// Its named cause.
    pub cause: UnexplainedCause,
    /// Why it is unexplained.
    pub reason: String,
    /// The differing lines, for text files.
    pub lines: Vec<WrapperLine>,
    /// The differing JSON values, for JSON files.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<JsonValueDiff>,
    /// The differing byte ranges, for binaries.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ranges: Vec<ByteRange>,
}

/// One JSON value that differs, at a JSON path (`$.kernel_lane.binding`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JsonValueDiff {
    /// Where, as a JSON path.
    pub path: String,
    /// A's value; absent when A has none there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<serde_json::Value>,
    /// B's value; absent when B has none there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<serde_json::Value>,
}

/// A recorded decision (an object with a `winner`, and the `binding`,
/// `rule` or `candidates` it was decided by) whose outcome or reason differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecisionDiff {
    /// The file that records it (A's path).
    pub file: String,
    /// Where in the file, as a JSON path (`$.kernel_lane`).
    pub path: String,
    /// One line: the decision, and how it flipped.
    pub headline: String,
    /// What the decision is, when lane knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub what: Option<String>,
    /// The decision's fields that differ.
    pub changed: Vec<JsonValueDiff>,
    /// The winner in A.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner_a: Option<serde_json::Value>,
    /// The winner in B.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner_b: Option<serde_json::Value>,
    /// What it decided on, as A recorded it: every field but the outcome
    /// (`candidates`, `rule`, `margin_fraction`, `fit`, ...).
    pub decided_on: BTreeMap<String, serde_json::Value>,
    /// What each changed value means, for a vocabulary lane knows.
    pub meaning: Vec<String>,
    /// The op whose compiled graph the decision shapes (pad_mm:
    /// `aten.addmm`); differences in the kernels that fuse it, and in the
    /// output code around them, are explained by it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph_op: Option<String>,
    /// The side that padded, for a pad_mm decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub padded_side: Option<&'static str>,
    /// The traced program's nodes the decided matmul is (`linear_1`), as
    /// the padding side's output code names them: those that became a pad
    /// node there and not on the other side.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub source_nodes: Vec<String>,
    /// The kernels the decision brings (one-sided or changed), each with
    /// the graph link that makes it the decision's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kernels: Vec<DecisionKernel>,
    /// The output-code lines this decision explains line by line (role
    /// `pad_mm`): those a pad predicts, outside the regions of the kernels
    /// it changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<WrapperLine>,
}

/// Where a kernel a decision brought is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KernelPresence {
    /// Only A's graph has it.
    OnlyA,
    /// Only B's graph has it.
    OnlyB,
    /// Both have it, with different code.
    CodeChanged,
}

/// How the graph links a kernel to a flipped decision (`docs/diff.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GraphLink {
    /// Its source nodes include the decided op's: it computes part of it
    /// (the pad, the bias add, the slice).
    ComputesDecidedOp,
    /// It reads a node the decided op became, without computing it.
    ReadsDecidedOp,
    /// It exists on one side only and computes what a linked one-sided
    /// kernel of the other side does, less the decided op.
    FusedCounterpart,
}

/// A kernel a flipped decision brought, and why it is the decision's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DecisionKernel {
    /// Its name (A's; B's own for a kernel only B has).
    pub kernel: String,
    /// Where it is.
    pub presence: KernelPresence,
    /// The graph link.
    pub link: GraphLink,
    /// The output code's words for that link (`A's triton_poi_fused_addmm_silu_4
    /// computes the decided matmul: linear_1 => constant_pad_nd_default`).
    pub evidence: String,
}

/// A finding about the inputs themselves (an ill-typed config).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InputFinding {
    /// `A` or `B`.
    pub side: &'static str,
    /// The file.
    pub path: String,
    /// The kernel, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    /// The field.
    pub field: String,
    /// Its value as found.
    pub value: serde_json::Value,
    /// What was expected.
    pub expected: &'static str,
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

/// The config picture.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct KernelSummary {
    /// Kernels with a config in either tree (a best_config, or a launcher
    /// in a wrapper).
    pub with_configs: usize,
    /// Those whose config fields differ, sorted (names; see
    /// [`KernelDiff::entry`] for the entry).
    pub config_differs: Vec<String>,
    /// Those whose configs agree, sorted.
    pub config_same: Vec<String>,
    /// Kernels whose config was read from a best_config.
    pub from_best_config: usize,
    /// Kernels whose config was read from a wrapper's launcher (no
    /// best_config ships for them), counted once per package entry.
    pub from_wrapper: usize,
    /// Kernels (per package entry) whose configs differ.
    pub differing: usize,
    /// Kernels (per package entry) whose configs agree.
    pub agreeing: usize,
}

/// The two sides' inputs, as read.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct InputSummary {
    /// Archives opened in A.
    pub containers_a: Vec<ContainerInfo>,
    /// Archives opened in B.
    pub containers_b: Vec<ContainerInfo>,
    /// Entries skipped in A (links, pipes, devices).
    pub skipped_a: Vec<SkippedEntry>,
    /// Entries skipped in B.
    pub skipped_b: Vec<SkippedEntry>,
}

/// The result of a determinism diff.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeterminismReport {
    /// The verdict.
    pub verdict: DeterminismVerdict,
    /// One sentence saying why the verdict is what it is.
    pub summary: String,
    /// Each side's coldness, when the edge looked (`lane diff` of two
    /// folders or cells).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coldness: Option<Coldness>,
    /// File counts.
    pub files: FileCounts,
    /// What was read, and what was skipped.
    pub inputs: InputSummary,
    /// Noise seen, per kind.
    pub noise: Vec<NoiseCount>,
    /// The config picture.
    pub kernels: KernelSummary,
    /// Per kernel whose config differs: both configs, fields and carriers.
    pub kernel_diffs: Vec<KernelDiff>,
    /// Recorded decisions that flipped.
    pub decisions: Vec<DecisionDiff>,
    /// Findings about the inputs (ill-typed configs).
    pub findings: Vec<InputFinding>,
    /// Every differing, renamed or unpaired file with its explanation.
    pub file_diffs: Vec<FileDiff>,
    /// Every unexplained difference, named.
    pub unexplained: Vec<Unexplained>,
    /// The paths lane gave each attempt, and the names derived from them,
    /// normalised before anything else (left out of `--json` when none).
    #[serde(skip_serializing_if = "Derivation::is_empty")]
    pub derivation: Derivation,
}

/// What the diff normalised first: each side's attempt folder (every path
/// lane gave the attempt lies under it) and the names derived from those
/// paths, each with its evidence (`docs/diff.md`, rule 0).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Derivation {
    /// A's attempt folder, as A's files spell it (empty: none found).
    pub attempt_a: Vec<String>,
    /// B's attempt folder, as B's files spell it.
    pub attempt_b: Vec<String>,
    /// Names derived from those paths, A's beside B's.
    pub derived_names: Vec<DerivedName>,
    /// Why a side's paths were not normalised (another attempt's folder
    /// in its files, say).
    pub notes: Vec<String>,
}

impl Derivation {
    /// Whether nothing was found: no folder, no name, no note.
    pub fn is_empty(&self) -> bool {
        self == &Derivation::default()
    }
}

/// What kind of name a [`DerivedName`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DerivedKind {
    /// A hashed file name (`c<51 base32>`, `<52 base32>`) of files whose
    /// bytes are equal once the attempt's paths and this name are
    /// normalised.
    HashedName,
    /// A symbol or other token that embeds a derived name
    /// (`_GLOBAL__sub_I_<name>.kernel.cpp`).
    Symbol,
    /// An ELF build-id: a hash of a binary whose other bytes are equal once
    /// the attempt's paths and the derived names are normalised.
    BuildId,
}

/// One name of B that A spells otherwise, derived from the attempt's paths.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DerivedName {
    /// What kind of name.
    pub kind: DerivedKind,
    /// A's spelling.
    pub a: String,
    /// B's spelling.
    pub b: String,
    /// What it is derived from (the attempt folders, a name, a file).
    pub derived_from: String,
    /// The evidence, in words.
    pub evidence: String,
}
