//! The results folder and the result bundle: every file lane writes there
//! is one of these types, and lane reads it back through the same type.
//!
//! ```text
//! <results>/summary.json                 Summary: is the lane green, with what wheel and guards
//! <results>/<cell>/<gpu>/r<N>/mint.json  MintRecord: the attempt the slot ended with
//! <results>/<cell>/<gpu>/r<N>/report.json   the upstream's mint report (its bytes, as written)
//! <results>/<cell>/<gpu>/r<N>/artifacts/    the cells the report names
//! <results>/<cell>/<gpu>/r<N>/ledger/       the upstream's ledger files beside it (share reports, TORCH_TRACE logs)
//! bundle.zip: result.json                AgentResult: what the agent saw
//! bundle.zip: manifest.json              BundleManifest: the files that travel under keys of their own
//! ```
//!
//! The kept JSON Schemas are `docs/schemas/{summary,mint,result}.schema.json`
//! ([`schemas`]; a test keeps them current).

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::{EnvFingerprint, MintId, MintStatus, ProcessEnd, Recipe, ReportState, SlotId};

/// `summary.json`: is the lane green, with which wheel and guards, and what
/// each slot ended as.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// The lane.
    pub lane: String,
    /// Every slot minted.
    pub green: bool,
    /// Any slot replayed a recorded mint instead of compiling.
    pub replay: bool,
    /// The wheel every mint installed (absent: the mints installed none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wheel: Option<WheelRef>,
    /// The guards, evaluated on the commit the lane minted (absent: lane had
    /// no repository to evaluate them in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<GuardRecord>,
    /// Each slot's final status.
    pub mints: Vec<SlotSummary>,
    /// The lane was stopped on purpose (`lane cancel`, `/lane cancel`)
    /// before every slot minted: each slot keeps what it recorded (a
    /// deleted Job its seconds), and the lane proves nothing.
    #[serde(default, skip_serializing_if = "is_false")]
    pub cancelled: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Summary {
    /// The summary of `lane`'s slots, as a backend gathered them. `stopped`:
    /// the lane was stopped on purpose (asked to stop, or its Jobs deleted
    /// under it). A stopped lane that minted every slot anyway is green, not
    /// cancelled.
    pub fn of(
        lane: String,
        mints: Vec<SlotSummary>,
        replay: bool,
        provenance: &Provenance,
        stopped: bool,
    ) -> Summary {
        let green = !mints.is_empty() && mints.iter().all(|m| m.status.is_green());
        Summary {
            lane,
            green,
            replay,
            wheel: provenance.wheel.clone(),
            guard: provenance.guard.clone(),
            mints,
            cancelled: stopped && !green,
        }
    }
}

impl Summary {
    /// What this summary and the truth disagree on, in words, each naming
    /// the summary's JSON path or the slot's `mint.json`: every slot name
    /// must be one of `plan` (no traversal, none twice), every planned slot
    /// must be listed, each listed status must be its record's (`records`:
    /// the `mint.json` of every planned slot that has one), `replay` must
    /// be said when any record replayed, and `green` must be what the
    /// listed statuses make. Empty: they agree.
    pub fn disagreements(
        &self,
        plan: &[SlotId],
        records: &std::collections::BTreeMap<SlotId, MintRecord>,
    ) -> Vec<String> {
        let mut out = Vec::new();
        let mut listed = std::collections::BTreeSet::new();
        for (i, m) in self.mints.iter().enumerate() {
            let at = format!("$.mints[{i}].slot");
            let Some(slot) = plan.iter().find(|p| p.to_string() == m.slot) else {
                out.push(format!(
                    "{at}: `{}` is not a slot of the plan",
                    m.slot.escape_debug()
                ));
                continue;
            };
            if !listed.insert(slot.clone()) {
                out.push(format!("{at}: `{slot}` is listed twice"));
                continue;
            }
            let file = format!("{}/{}", slot.rel_dir(), MintRecord::FILE);
            match records.get(slot) {
                None => out.push(format!(
                    "{at}: `{slot}` says {}, but {file} does not exist",
                    m.status.as_str()
                )),
                Some(r)
                    if (r.cell.as_str(), r.gpu.as_str(), r.repeat)
                        != (slot.cell.as_str(), slot.gpu.as_str(), slot.repeat) =>
                {
                    out.push(format!(
                        "{file} is the record of {}/{}/r{}, not of `{slot}`",
                        r.cell.escape_debug(),
                        r.gpu.escape_debug(),
                        r.repeat
                    ))
                }
                Some(r) if r.status != m.status => out.push(format!(
                    "$.mints[{i}].status: `{slot}` says {}, but {file} says {}",
                    m.status.as_str(),
                    r.status.as_str()
                )),
                Some(_) => {}
            }
        }
        for slot in plan.iter().filter(|p| !listed.contains(*p)) {
            out.push(format!("$.mints: the planned slot `{slot}` is missing"));
        }
        if !self.replay {
            for (slot, _) in records.iter().filter(|(_, r)| r.replay) {
                out.push(format!(
                    "$.replay: false, but {}/{} says its mint replayed a recording",
                    slot.rel_dir(),
                    MintRecord::FILE
                ));
            }
        }
        let green = !self.mints.is_empty() && self.mints.iter().all(|m| m.status.is_green());
        if self.green != green {
            out.push(format!(
                "$.green: {}, but the slots listed make it {green}",
                self.green
            ));
        }
        out
    }
}

/// What a lane minted with: the wheel its mints installed and the guards'
/// verdict on the commit it was built from. The backends copy it into
/// [`Summary`] as they are given it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The wheel, when the mints installed one.
    pub wheel: Option<WheelRef>,
    /// The guards' verdict, when lane evaluated them.
    pub guard: Option<GuardRecord>,
}

/// The wheel a lane's mints installed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WheelRef {
    /// Its file name.
    pub file: String,
    /// Its sha256, hex.
    pub sha256: String,
    /// Its key in the artifact store, when it was staged there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The commit it was built from, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

/// The guards' verdict on the commit a lane minted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GuardRecord {
    /// True when every guard passed.
    pub passed: bool,
    /// The commit they were evaluated on.
    pub commit: String,
    /// One line saying what was checked or what refused.
    pub summary: String,
}

/// One slot in the summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SlotSummary {
    /// `<lane>/<cell>/<gpu>/r<N>`.
    pub slot: String,
    /// The final attempt.
    pub attempt: u32,
    /// Its status.
    pub status: MintStatus,
    /// Why.
    pub reason: String,
    /// Seconds summed over every attempt that measured any; absent when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_s: Option<f64>,
    /// Seconds of the slot's Kubernetes Job, when no bundle measured the mint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_s: Option<f64>,
}

/// `mint.json`: lane's own record of the attempt a slot ended with.
// Unknown keys are refused, as everywhere in these files: by `Gathering`'s
// `strict` (serde's `deny_unknown_fields` does not work beside `flatten`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct MintRecord {
    /// The cell.
    pub cell: String,
    /// The GPU class.
    pub gpu: String,
    /// The card the lane file lets stand in for `gpu` (`mint.stand_in`),
    /// when it names one: a mint on that card is the stand-in's, named so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stand_in: Option<String>,
    /// The cell's recipe.
    pub recipe: Recipe,
    /// The cold repeat.
    pub repeat: u32,
    /// The attempt this slot ended with.
    pub attempt: u32,
    /// Its status.
    pub status: MintStatus,
    /// Why.
    pub reason: String,
    /// Wall seconds of this attempt (a failed mint keeps its seconds);
    /// absent when nothing measured it (its agent vanished, its pod never
    /// ran), never 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_s: Option<f64>,
    /// The exit code, when it exited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Whether the mint replayed a recorded mint.
    pub replay: bool,
    /// Wall seconds of every attempt of this slot that measured any, in
    /// order (retries cost too).
    pub attempts_wall_s: Vec<f64>,
    /// Where the result bundle went.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle: Option<BundleState>,
    /// Seconds the attempt's Kubernetes Job ran, start to end (waiting for
    /// a node, pulling images and installing the wheel included), when no
    /// bundle measured the mint itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_s: Option<f64>,
    /// The last lines of what the attempt wrote to stderr (the agent's own
    /// log in a pod, when no bundle came back).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr_tail: String,
    /// The cells, isolation and notes of the attempt, as its agent's
    /// `result.json` holds them.
    #[serde(flatten)]
    pub gathering: Gathering,
    /// Unix time the attempt's mint started (its agent's `started_at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<f64>,
    /// The environment the attempt ran in (its agent's `environment`).
    #[serde(default, skip_serializing_if = "EnvFingerprint::is_empty")]
    pub environment: EnvFingerprint,
}

/// Where an attempt's result bundle went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum BundleState {
    /// Stored under this key.
    Stored {
        /// The store key.
        key: String,
        /// The bundle's sha256.
        sha256: String,
        /// Files left out of the bundle and stored under no key of their own
        /// (records written before cells travelled by key: those over the
        /// bundle's size limit).
        skipped: Vec<String>,
        /// The files that travel beside the bundle, each under a store key of
        /// its own (every cell, and any other file too large to inline), as
        /// its [`BundleManifest`] names them (absent in records written
        /// before cells travelled by key).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        stored: Vec<StoredFile>,
    },
    /// The upload failed; the attempt's folder still holds everything.
    Failed {
        /// The key it was meant for.
        key: String,
        /// Why, in words.
        error: String,
    },
}

/// `manifest.json` in a result bundle: the attempt's files that are not
/// inlined in the bundle but streamed to store keys of their own (a real
/// model's cell is gigabytes: it never passes through memory). The bundle
/// is put after every file it names, so a bundle in the store means its
/// files are there too. Absent from bundles written before cells travelled
/// by key: nothing stored then.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BundleManifest {
    /// Each file, by its path in the attempt's folder.
    pub stored: Vec<StoredFile>,
}

impl BundleManifest {
    /// The bytes of every file it names (saturating: a foreign manifest
    /// naming more than `u64::MAX` is over any cap).
    pub fn total_bytes(&self) -> u64 {
        self.stored
            .iter()
            .fold(0u64, |sum, f| sum.saturating_add(f.size))
    }
}

/// One file of an attempt that travels under a store key of its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StoredFile {
    /// Its path in the attempt's folder (`artifacts/<file>`, `ledger/<file>`).
    pub path: String,
    /// Its store key.
    pub key: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its sha256, hex.
    pub sha256: String,
}

/// How many of `cells` lane looked into (packages, not opaque files),
/// when it looked into at least one and none holds GPU code: a mint on a
/// GPU class claims GPU code, so such cells were compiled for the CPU
/// whatever their metadata's `sm` says (gen-worker 0.114-0.126's rig on
/// the H200). `None` when any holds GPU code or none could be looked into.
pub fn cells_without_gpu_code<'a>(
    cells: impl IntoIterator<Item = &'a ArtifactState>,
) -> Option<usize> {
    let inspected: Vec<u64> = cells
        .into_iter()
        .filter_map(|c| match c {
            ArtifactState::Gathered { cubins, .. } => *cubins,
            ArtifactState::NotGathered { .. } => None,
        })
        .collect();
    (!inspected.is_empty() && inspected.iter().all(|n| *n == 0)).then_some(inspected.len())
}

/// The sentence that says so: `none of its N cell(s) holds GPU code (no
/// `.cubin`, no CUDA fat binary): it compiled for the CPU`.
pub fn no_gpu_code_sentence(inspected: usize) -> String {
    format!(
        "none of its {inspected} cell(s) holds GPU code (no `.cubin`, no CUDA fat binary): it compiled for the CPU"
    )
}

/// What became of the artifact a report names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ArtifactState {
    /// Copied into the attempt's `artifacts/` folder.
    Gathered {
        /// The path the report named.
        named: String,
        /// Its name under `artifacts/`.
        file: String,
        /// Bytes.
        size: u64,
        /// sha256, hex.
        sha256: String,
        /// Whether it equals the report's `digest` (absent: no digest given).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        digest_matches: Option<bool>,
        /// The key the report gave it (an `entries` row's compiled-graph
        /// key, a verdict's graph); absent for a report's one `artifact`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
        /// GPU code objects (`*.cubin`) it holds, when lane could look
        /// inside it (a `.tar.gz` cell, a `.pt2` package); absent when it
        /// could not.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cubins: Option<u64>,
    },
    /// Not gathered, and why.
    NotGathered {
        /// The path the report named.
        named: String,
        /// Why, in words.
        why: String,
        /// The key the report gave it, when it gave one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
    },
}

impl ArtifactState {
    /// True when the report named this file and it does not exist (the
    /// upstream's own parent calls that `crashed`).
    pub fn is_missing(&self) -> bool {
        matches!(self, ArtifactState::NotGathered { why, .. } if why == MISSING)
    }
}

/// The reason of a named file that does not exist.
pub const MISSING: &str = "no such file";

/// One artifact file's fingerprint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileFingerprint {
    /// Path relative to the artifacts folder.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// sha256, hex.
    pub sha256: String,
}

/// `result.json`: what the agent writes as its last act, in the attempt's
/// folder and in its bundle.
// Unknown keys are refused by `Gathering`'s `strict`, as in `MintRecord`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct AgentResult {
    /// The attempt.
    pub id: MintId,
    /// How it ended, classified.
    pub outcome: MintStatus,
    /// Why, in words.
    pub reason: String,
    /// What ended the process.
    pub end: ProcessEnd,
    /// What the report said.
    pub report: ReportState,
    /// Wall seconds of the mint command (kept for failed and killed mints
    /// too); absent when no mint ran (the agent could not start it, or no
    /// agent left a result).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_s: Option<f64>,
    /// Unix time the mint started; absent when none started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<f64>,
    /// Bytes the mint wrote to stdout and stderr.
    pub output_bytes: u64,
    /// The last lines of its stderr.
    pub stderr_tail: String,
    /// Every artifact file, fingerprinted.
    pub files: Vec<FileFingerprint>,
    /// Whether the mint replayed a recorded mint (no real compile).
    pub replay: bool,
    /// Where the result bundle went (absent when no store was given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle: Option<BundleState>,
    /// The cells the report names, gathered into `artifacts/`, how the
    /// attempt was kept apart, and what the agent noticed.
    #[serde(flatten)]
    pub gathering: Gathering,
    /// The environment the mint ran in, as far as the agent could see it.
    #[serde(default, skip_serializing_if = "EnvFingerprint::is_empty")]
    pub environment: EnvFingerprint,
}

/// What an attempt gathered beside its outcome, the same in the agent's
/// `result.json` and lane's `mint.json` (flattened into both: its keys sit
/// beside theirs, as they always did): the cells its report named, each
/// gathered and checked, how it was kept apart, and what the agent noticed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Gathering {
    /// The cell the report's `artifact` named, and whether it was gathered
    /// into `artifacts/` (absent: the report named none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact: Option<ArtifactState>,
    /// The cells the report's `entries` named (gen-worker 0.114 on: one
    /// per graph class, `[key, path, sha256]`), or the compiled graphs a
    /// `gen-worker compile` verdict built (0.127 on), each gathered into
    /// `artifacts/` and checked against its sha256; empty when it named none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<ArtifactState>,
    /// How the attempt was kept apart from every other (absent in files
    /// written before lane recorded it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isolation: Option<Isolation>,
    /// What the agent noticed that changed no outcome (an echo not believed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Refuses the keys neither this nor the file it sits in knows: the
    /// file's `deny_unknown_fields` (it holds no value).
    #[serde(flatten, skip_serializing)]
    #[schemars(skip)]
    pub strict: NoOtherKeys,
}

impl Gathering {
    /// The cells: the report's `artifact`, then its `entries`.
    pub fn cells(&self) -> impl Iterator<Item = &ArtifactState> {
        self.artifact.iter().chain(self.entries.iter())
    }
}

/// The keys of a file left when every field has taken its own: there must
/// be none (`#[serde(deny_unknown_fields)]` for a type with a flattened
/// field, which serde does not support). It is never written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoOtherKeys;

impl<'de> Deserialize<'de> for NoOtherKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Refuse;
        impl<'de> serde::de::Visitor<'de> for Refuse {
            type Value = NoOtherKeys;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("no other keys")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<NoOtherKeys, A::Error> {
                match map.next_key::<String>()? {
                    Some(key) => Err(serde::de::Error::custom(format_args!(
                        "unknown field `{}`",
                        key.escape_debug()
                    ))),
                    None => Ok(NoOtherKeys),
                }
            }
        }
        d.deserialize_map(Refuse)
    }
}

/// How one attempt was kept apart from every other: a repeat is cold only
/// when nothing another attempt wrote can reach it, whatever the mint
/// erases from its environment or hard-codes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Isolation {
    /// The attempt's `/tmp`.
    pub tmp: TmpIsolation,
    /// The variables the agent pointed at the attempt's own folders
    /// (`TMPDIR`, `HOME`, `XDG_CACHE_HOME`, ...), in the order it set them.
    pub roots: Vec<String>,
    /// Fixed paths a mint is known to write whatever its environment says,
    /// which this attempt shares with every other attempt on the machine
    /// (empty when its `/tmp` is its own): its coldness is not guaranteed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared: Vec<String>,
    /// Caches the cell itself pointed outside the attempt (a cache
    /// variable its lane file sets to a folder of its own, a known fixed
    /// cache path it names and so keeps from the machine's `/tmp`), each
    /// with how: every other attempt given the same path shares it, so
    /// this one's coldness is not guaranteed either.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outside: Vec<String>,
    /// The agent's look at the attempt's roots just before the mint
    /// started: `Some` of the roots that already held something (empty:
    /// every root was empty, the positive evidence of a cold start);
    /// `None` in records written before lane looked (it made them afresh
    /// for each attempt all the same).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_empty_at_start: Option<Vec<String>>,
}

impl Isolation {
    /// True when nothing another attempt on the machine wrote can reach
    /// this one through a path lane knows of, and no root of its own held
    /// anything when it started.
    pub fn is_cold(&self) -> bool {
        self.shared.is_empty()
            && self.outside.is_empty()
            && self.not_empty_at_start.as_ref().is_none_or(Vec::is_empty)
    }

    /// Every way this attempt shares a cache with others, in words (empty
    /// when none is known).
    pub fn sharing(&self) -> Vec<&str> {
        self.shared
            .iter()
            .chain(&self.outside)
            .map(String::as_str)
            .collect()
    }
}

/// What `/tmp` was for an attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum TmpIsolation {
    /// A private mount namespace with a folder of the attempt's own on
    /// `/tmp` (the mint folder and the source tree stay where they are).
    Private {
        /// How (`user and mount namespaces`, `mount namespace`).
        how: String,
    },
    /// The container's own `/tmp`: the agent runs one attempt per
    /// container (a pod).
    Container {
        /// Why it is the attempt's own, in words.
        why: String,
    },
    /// The machine's `/tmp`, shared with every other attempt on it.
    Shared {
        /// Why no private one could be made, in words.
        why: String,
    },
}

/// Seconds an agent keeps offering its result bundle to a store that
/// refuses it (an outage) before it gives up: the agent's default, and
/// what a Job's deadline leaves room for beside the mint's own timeout.
pub const UPLOAD_WINDOW_S: u64 = 600;

/// A file of lane's own that does not read as its type.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {what} at line {line}, column {column} (JSON path `{path}`): {message}")]
pub struct ContractError {
    /// The file, as the caller named it.
    pub file: String,
    /// What the file should be (`lane's summary.json`).
    pub what: &'static str,
    /// Where in the document (`mints[2].status`).
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was expected, in serde's words.
    pub message: String,
}

/// One of the files in this module.
pub trait Contract: Serialize + DeserializeOwned + JsonSchema {
    /// Its file name.
    const FILE: &'static str;
    /// What it is, in words.
    const WHAT: &'static str;

    /// Reads it from `bytes` (of the file named `file`), naming the place
    /// and what was expected when it does not read.
    fn from_json(file: &str, bytes: &[u8]) -> Result<Self, ContractError> {
        let fail = |path: String, inner: serde_json::Error| ContractError {
            file: file.to_owned(),
            what: Self::WHAT,
            path,
            line: inner.line(),
            column: inner.column(),
            message: inner.to_string(),
        };
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let value = serde_path_to_error::deserialize(&mut de)
            .map_err(|e| fail(e.path().to_string(), e.into_inner()))?;
        de.end().map_err(|e| fail(".".into(), e))?;
        Ok(value)
    }

    /// Its bytes as lane writes them (pretty JSON, a final newline).
    fn to_json(&self) -> Vec<u8> {
        let mut v = serde_json::to_vec_pretty(self).expect("lane's own files always serialize");
        v.push(b'\n');
        v
    }
}

impl Contract for Summary {
    const FILE: &'static str = crate::layout::file::SUMMARY;
    const WHAT: &'static str = "not lane's summary.json";
}

impl Contract for MintRecord {
    const FILE: &'static str = crate::layout::file::MINT_RECORD;
    const WHAT: &'static str = "not lane's mint.json";
}

impl Contract for AgentResult {
    const FILE: &'static str = crate::layout::file::RESULT;
    const WHAT: &'static str = "not lane's result.json";
}

impl Contract for BundleManifest {
    const FILE: &'static str = crate::layout::file::MANIFEST;
    const WHAT: &'static str = "not lane's bundle manifest.json";
}

/// The kept schemas: `(file name under docs/schemas/, schema)`.
pub fn schemas() -> Vec<(&'static str, schemars::Schema)> {
    vec![
        ("summary.schema.json", schemars::schema_for!(Summary)),
        ("mint.schema.json", schemars::schema_for!(MintRecord)),
        ("result.schema.json", schemars::schema_for!(AgentResult)),
        (
            "manifest.schema.json",
            schemars::schema_for!(BundleManifest),
        ),
    ]
}

/// The kept schemas as their files hold them (pretty JSON, a final newline).
pub fn schema_texts() -> Vec<(&'static str, String)> {
    schemas()
        .into_iter()
        .map(|(name, schema)| {
            let mut text = serde_json::to_string_pretty(&schema).expect("a schema serializes");
            text.push('\n');
            (name, text)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kept_schemas_in_docs_are_current() {
        let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schemas");
        for (name, text) in schema_texts() {
            let kept = std::fs::read_to_string(docs.join(name)).unwrap_or_default();
            assert!(
                kept == text,
                "docs/schemas/{name} is stale: run `just schema`"
            );
        }
    }

    fn summary() -> Summary {
        Summary {
            lane: "0.93.3".into(),
            green: false,
            replay: false,
            wheel: Some(WheelRef {
                file: "gen_worker-0.93.3-py3-none-any.whl".into(),
                sha256: "ab".repeat(32),
                key: Some("lanes/0.93.3/c0ffee/gen_worker-0.93.3-py3-none-any.whl".into()),
                commit: Some("c0ffee".into()),
            }),
            guard: Some(GuardRecord {
                passed: true,
                commit: "c0ffee".into(),
                summary: "wire-v1: 3 checks held".into(),
            }),
            mints: vec![SlotSummary {
                slot: "0.93.3/rig-aot/L4/r1".into(),
                attempt: 2,
                status: MintStatus::Crashed,
                reason: "killed by signal 9 without writing a report".into(),
                wall_s: Some(12.5),
                job_s: None,
            }],
            cancelled: true,
        }
    }

    #[test]
    fn a_stopped_lane_is_cancelled_unless_every_slot_minted() {
        let slot = |status| SlotSummary {
            slot: "0.93.3/rig-aot/L4/r1".into(),
            attempt: 1,
            status,
            reason: String::new(),
            wall_s: None,
            job_s: None,
        };
        let of = |status, stopped| {
            let s = Summary::of(
                "0.93.3".into(),
                vec![slot(status)],
                false,
                &Provenance::default(),
                stopped,
            );
            (s.green, s.cancelled)
        };
        assert_eq!(of(MintStatus::Crashed, true), (false, true));
        assert_eq!(of(MintStatus::Minted, true), (true, false));
        assert_eq!(of(MintStatus::Crashed, false), (false, false));
        // No slot at all proves nothing, stopped or not.
        let empty = Summary::of("0.93.3".into(), vec![], false, &Provenance::default(), true);
        assert!(!empty.green && empty.cancelled);
    }

    #[test]
    fn a_summary_reads_back_as_it_was_written() {
        let s = summary();
        let bytes = s.to_json();
        assert_eq!(Summary::from_json("summary.json", &bytes).unwrap(), s);
        // Absent stays absent: no key, never 0 or null.
        let text = String::from_utf8(bytes).unwrap();
        assert!(!text.contains("job_s"), "{text}");
    }

    #[test]
    fn a_bad_status_names_its_json_path_line_and_column() {
        let mut v = serde_json::to_value(summary()).unwrap();
        v["mints"][0]["status"] = "exploded".into();
        let bytes = serde_json::to_vec_pretty(&v).unwrap();
        let e = Summary::from_json("out/summary.json", &bytes).unwrap_err();
        assert_eq!(e.path, "mints[0].status");
        assert!(e.line > 1 && e.column > 1, "{e}");
        let shown = e.to_string();
        assert!(
            shown.starts_with("out/summary.json: not lane's summary.json at line"),
            "{shown}"
        );
        assert!(shown.contains("unknown variant `exploded`"), "{shown}");
    }

    fn record() -> MintRecord {
        MintRecord {
            cell: "rig-aot".into(),
            gpu: "H200".into(),
            stand_in: None,
            recipe: Recipe::Aot,
            repeat: 2,
            attempt: 1,
            status: MintStatus::Minted,
            reason: "the report says `minted`".into(),
            wall_s: Some(42.0),
            exit_code: Some(0),
            replay: false,
            attempts_wall_s: vec![42.0],
            bundle: None,
            job_s: None,
            stderr_tail: String::new(),
            started_at: None,
            environment: EnvFingerprint::default(),
            gathering: Gathering {
                entries: vec![ArtifactState::Gathered {
                    named: "rig/mint/cg-key-v1-a.tar.gz".into(),
                    file: "cg-key-v1-a.tar.gz".into(),
                    size: 3,
                    sha256: "ab".into(),
                    digest_matches: Some(true),
                    key: Some("cg-key-v1-a".into()),
                    cubins: Some(0),
                }],
                isolation: Some(Isolation {
                    tmp: TmpIsolation::Shared {
                        why: "no private mount namespace".into(),
                    },
                    roots: vec!["TMPDIR".into(), "HOME".into()],
                    shared: vec!["/tmp/tensorhub-cache".into()],
                    outside: Vec::new(),
                    not_empty_at_start: None,
                }),
                ..Gathering::default()
            },
        }
    }

    #[test]
    fn a_record_says_which_isolation_held_and_an_older_one_without_it_still_reads() {
        let record = record();
        let bytes = record.to_json();
        assert_eq!(MintRecord::from_json("mint.json", &bytes).unwrap(), record);
        assert!(!record.gathering.isolation.as_ref().unwrap().is_cold());
        // A record written before these fields: absent, not an error.
        let mut v = serde_json::to_value(&record).unwrap();
        for k in ["entries", "isolation"] {
            v.as_object_mut().unwrap().remove(k);
        }
        let old = MintRecord::from_json("mint.json", &serde_json::to_vec(&v).unwrap()).unwrap();
        assert!(old.gathering.entries.is_empty() && old.gathering.isolation.is_none());
    }

    #[test]
    fn a_bundle_manifest_reads_back_and_an_older_bundle_record_without_it_still_reads() {
        let file = StoredFile {
            path: "artifacts/cell.tar.gz".into(),
            key: format!("lanes/0.93.3/mints/c/L4/r1/a1/files/{}", "ab".repeat(32)),
            size: 3 << 30,
            sha256: "ab".repeat(32),
        };
        let m = BundleManifest {
            stored: vec![file.clone(), file.clone()],
        };
        assert_eq!(
            BundleManifest::from_json("manifest.json", &m.to_json()).unwrap(),
            m
        );
        assert_eq!(m.total_bytes(), 6 << 30);
        let huge = BundleManifest {
            stored: vec![
                StoredFile {
                    size: u64::MAX,
                    ..file.clone()
                },
                file,
            ],
        };
        assert_eq!(huge.total_bytes(), u64::MAX, "saturates: over any cap");
        // A record of a bundle written before cells travelled by key.
        let old = r#"{"kind": "stored", "key": "k", "sha256": "s", "skipped": ["big.so"]}"#;
        let state: BundleState = serde_json::from_str(old).unwrap();
        assert!(
            matches!(&state, BundleState::Stored { stored, skipped, .. } if stored.is_empty() && skipped == &["big.so"])
        );
        // Written back as it was: no `stored` key when it names none.
        assert!(!serde_json::to_string(&state)
            .unwrap()
            .contains("\"stored\":"));
    }

    #[test]
    fn trailing_bytes_and_unknown_keys_are_refused() {
        let mut bytes = summary().to_json();
        bytes.extend_from_slice(b"{}");
        assert!(Summary::from_json("s", &bytes).is_err());
        let mut v = serde_json::to_value(summary()).unwrap();
        v["wheel"]["url"] = "https://x".into();
        let e = Summary::from_json("s", &serde_json::to_vec(&v).unwrap()).unwrap_err();
        assert_eq!(e.path, "wheel.url");
    }

    /// Issue 20: `mint.json` and `result.json` flatten [`Gathering`] in,
    /// where serde cannot deny unknown fields; `strict` still does, in the
    /// file's own keys and beside the gathered ones, and the schemas still
    /// say `additionalProperties: false`.
    #[test]
    fn a_record_and_a_result_refuse_unknown_keys_beside_their_gathering() {
        let mut v = serde_json::to_value(record()).unwrap();
        v["cubins"] = 3.into();
        let e = MintRecord::from_json("mint.json", &serde_json::to_vec_pretty(&v).unwrap())
            .unwrap_err();
        assert!(e.message.contains("unknown field `cubins`"), "{e}");
        let result = AgentResult {
            id: MintId {
                lane: "0.93.3".into(),
                cell: "rig-aot".into(),
                gpu: "H200".into(),
                repeat: 1,
                attempt: 1,
            },
            outcome: MintStatus::Minted,
            reason: "the report says `minted`".into(),
            end: ProcessEnd::Exited { code: 0 },
            report: ReportState::Absent,
            wall_s: Some(1.0),
            started_at: None,
            output_bytes: 0,
            stderr_tail: String::new(),
            files: Vec::new(),
            replay: false,
            bundle: None,
            gathering: record().gathering,
            environment: EnvFingerprint::default(),
        };
        let bytes = result.to_json();
        assert_eq!(
            AgentResult::from_json("result.json", &bytes).unwrap(),
            result
        );
        let text = String::from_utf8(bytes).unwrap();
        assert!(!text.contains("strict"), "{text}");
        let mut v = serde_json::to_value(&result).unwrap();
        v["isolations"] = serde_json::json!({});
        let e =
            AgentResult::from_json("result.json", &serde_json::to_vec(&v).unwrap()).unwrap_err();
        assert!(e.message.contains("unknown field `isolations`"), "{e}");
        for (name, schema) in schemas() {
            if name == "mint.schema.json" || name == "result.schema.json" {
                assert_eq!(
                    schema.get("additionalProperties"),
                    Some(&serde_json::Value::Bool(false)),
                    "{name}"
                );
            }
        }
    }

    /// Issue 19, item 3: a summary edited to say green beside slots whose
    /// records say failed, with a traversing slot name and a slot missing.
    #[test]
    fn an_edited_green_summary_disagrees_with_its_slots_records() {
        let plan: Vec<SlotId> = [1, 2]
            .map(|repeat| SlotId {
                lane: "0.93.3".into(),
                cell: "rig-aot".into(),
                gpu: "H200".into(),
                repeat,
            })
            .into();
        let records: std::collections::BTreeMap<SlotId, MintRecord> = plan
            .iter()
            .map(|slot| {
                let mut r = record();
                r.repeat = slot.repeat;
                r.status = MintStatus::Failed;
                (slot.clone(), r)
            })
            .collect();
        let slot = |name: &str| SlotSummary {
            slot: name.into(),
            attempt: 1,
            status: MintStatus::Minted,
            reason: String::new(),
            wall_s: None,
            job_s: None,
        };
        let mut edited = summary();
        edited.green = true;
        edited.cancelled = false;
        edited.mints = vec![
            slot("0.93.3/rig-aot/H200/r1"),
            slot("0.0.0/../../../etc/H200/r1"),
        ];
        assert_eq!(
            edited.disagreements(&plan, &records),
            [
                "$.mints[0].status: `0.93.3/rig-aot/H200/r1` says minted, but rig-aot/H200/r1/mint.json says failed",
                "$.mints[1].slot: `0.0.0/../../../etc/H200/r1` is not a slot of the plan",
                "$.mints: the planned slot `0.93.3/rig-aot/H200/r2` is missing",
            ]
        );
        // The truth agrees with itself.
        let truth = Summary::of(
            "0.93.3".into(),
            plan.iter()
                .map(|p| SlotSummary {
                    status: MintStatus::Failed,
                    ..slot(&p.to_string())
                })
                .collect(),
            false,
            &Provenance::default(),
            false,
        );
        assert_eq!(truth.disagreements(&plan, &records), Vec::<String>::new());
        // A summary that hides a replayed slot behind `replay: false`.
        let mut replayed = records.clone();
        replayed.values_mut().next().unwrap().replay = true;
        assert_eq!(
            truth.disagreements(&plan, &replayed),
            ["$.replay: false, but rig-aot/H200/r1/mint.json says its mint replayed a recording"]
        );
        let mut listed_twice = truth.clone();
        listed_twice.mints[1].slot = listed_twice.mints[0].slot.clone();
        listed_twice.green = true;
        assert_eq!(
            listed_twice.disagreements(&plan, &records),
            [
                "$.mints[1].slot: `0.93.3/rig-aot/H200/r1` is listed twice",
                "$.mints: the planned slot `0.93.3/rig-aot/H200/r2` is missing",
                "$.green: true, but the slots listed make it false",
            ]
        );
    }
}
