//! The lane file's data model: what `lanes/<version>.yaml` may say.
//!
//! Every struct refuses unknown keys. Structs whose fields constrain each
//! other (a pick is a commit *or* a PR) validate inside their map visitor so
//! the error carries the line:column of that mapping.

use schemars::JsonSchema;
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

use crate::changelog::Changelog;
use crate::pick::Pick;
use crate::scalar::{CommitId, LaneVersion, Name, Pattern, RefName, RepoPath, Title};

/// Implements `Deserialize` for `$ty` by reading `$spec` from the same
/// mapping and converting it with `TryFrom`, inside the visitor, so the
/// error points at the mapping.
macro_rules! validated_from_spec {
    ($ty:ident, $spec:ident, $expecting:expr) => {
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<$ty, A::Error> {
                        let spec = $spec::deserialize(de::value::MapAccessDeserializer::new(map))?;
                        $ty::try_from(spec).map_err(de::Error::custom)
                    }
                }
                d.deserialize_map(V)
            }
        }
    };
}

/// One lane: a patch release cut from a base tag, with its picks, guards and
/// version files. The top level of `lanes/<version>.yaml`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(
    title = "lane file",
    description = "A release lane: lanes/<version>.yaml"
)]
pub struct LaneFile {
    /// The version this lane releases, e.g. `0.93.3`. Must match the file name.
    pub version: LaneVersion,
    /// A short title for the release's changelog heading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Title>,
    /// Where the upstream repository lives.
    pub upstream: Upstream,
    /// How the release is made (`docs/releasing.md`): `hotfix` (picks on
    /// the previous tag), `off_master` (a master commit plus an off-master
    /// release commit) or `trunk` (a cut PR on master).
    #[serde(default)]
    pub kind: LaneKind,
    /// What the lane is cut from: a tag (`v0.93.2`) or a commit id (a
    /// master commit, for `off_master` and `trunk` lanes).
    pub base: RefName,
    /// The line's previous release tag, when the base is not it (shown in
    /// the plan; its version is one the lane must be above).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<RefName>,
    /// The lane branch; defaults to `release/<version>` (`cut/<version>`
    /// for a trunk lane: the cut PR's branch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<RefName>,
    /// The tag `lane cut --tag` makes; defaults to `v<version>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<RefName>,
    /// The fixes to cherry-pick, in order.
    #[serde(default)]
    #[schemars(with = "Vec<crate::pick::PickSpec>")]
    pub picks: Vec<Pick>,
    /// Files that carry the version; all are bumped and must agree afterwards.
    #[serde(default)]
    #[schemars(with = "Vec<VersionFileSpec>")]
    pub version_files: Vec<VersionFile>,
    /// How the changelog is assembled from fragments; absent: the cut
    /// writes no changelog, and says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changelog: Option<Changelog>,
    /// For a trunk lane: where the tag goes once the cut PR has merged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trunk: Option<Trunk>,
    /// Guards the lane must pass before and after the cut.
    #[serde(default)]
    pub guards: Vec<Guard>,
    /// The previous lane whose mint results this lane is compared against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<LaneVersion>,
    /// Where the lane's results are posted on GitHub.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub github: Option<GithubTarget>,
    /// The mints that prove the lane: cells × GPU classes × cold repeats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mint: Option<MintMatrix>,
}

/// The mint matrix: every cell on every GPU class, `cold_repeats` times.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MintMatrix {
    /// GPU classes to mint on (e.g. `L40S`, `L4`).
    pub gpus: Vec<Name>,
    /// Cold repeats per cell and GPU (no cache anywhere); two make a determinism diff.
    #[serde(default = "two", deserialize_with = "crate::limits::cold_repeats")]
    #[schemars(range(min = crate::limits::COLD_REPEATS_MIN, max = crate::limits::COLD_REPEATS_MAX))]
    pub cold_repeats: u32,
    /// Seconds one mint may run before its process group is killed.
    #[serde(default = "two_hours", deserialize_with = "crate::limits::timeout_s")]
    #[schemars(range(min = crate::limits::TIMEOUT_S_MIN))]
    pub timeout_s: u64,
    /// How many mints the local backend runs at once (default: 1 per visible GPU, at least 1).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::limits::concurrency"
    )]
    #[schemars(range(min = crate::limits::CONCURRENCY_MIN))]
    pub concurrency: Option<u32>,
    /// Retries per outcome (`refused` and `failed` are never retried).
    #[serde(default)]
    pub retry: RetryPolicy,
    /// Cards that may stand in for a GPU class (node validation): `{H200:
    /// H100}` lets a slot of class `H200` run on a card whose model names
    /// `H100`. Such a slot is not failed as a wrong card: every output
    /// names the real card beside the class, and its seconds are a series
    /// of their own in the history, never the class's.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub stand_in: std::collections::BTreeMap<Name, Name>,
    /// The cells.
    pub cells: Vec<Cell>,
}

impl MintMatrix {
    /// The card word the lane file lets stand in for GPU class `gpu`.
    pub fn stand_in_for(&self, gpu: &str) -> Option<&str> {
        self.stand_in
            .iter()
            .find(|(class, _)| class.as_str() == gpu)
            .map(|(_, card)| card.as_str())
    }
}

fn two() -> u32 {
    2
}
fn two_hours() -> u64 {
    7200
}

pub use lane_core::{Recipe, RetryPolicy};

/// One cell to mint.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    /// The cell's name (letters, digits, `.`, `_`, `-`): it names folders and Jobs.
    pub name: Name,
    /// The recipe.
    pub recipe: Recipe,
    /// The mint command and its arguments, run in the attempt's mint
    /// folder. It writes its report to `$LANE_REPORT_PATH`, or where
    /// `report` says.
    pub command: Vec<String>,
    /// Where the mint writes its report, relative to the mint folder, when
    /// the mint decides that itself: the upstream's rig writes
    /// `<root>/mint/report.json` (`rig/mint/report.json` for `--root rig`).
    /// Default: `$LANE_REPORT_PATH` (`report.json` in the mint folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<RepoPath>,
    /// The mint needs the upstream's source tree (the rig lives in
    /// `scripts/` and `tests/harness/`, not in the wheel): it is given as
    /// `$LANE_SOURCE_DIR`, an export of the lane branch (locally) or the
    /// source archive staged beside the wheel (pods). A lane with such a
    /// cell refuses to mint without one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub source: bool,
    /// Extra environment for the mint: variable names (letters, digits,
    /// `_`); the `LANE_` ones are the agent's, except `LANE_REPLAY: "1"`,
    /// which labels a cell that replays a recorded mint.
    #[serde(default)]
    pub env: std::collections::BTreeMap<String, String>,
}

/// Where a lane's per-cell breakdown is posted.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GithubTarget {
    /// `owner/name` of the repository the PRs live in; defaults to the
    /// upstream when it is a github.com URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    /// PRs or issues to post to besides the picks' PRs.
    #[serde(default)]
    pub post_to: Vec<u64>,
    /// Post to the picks' PRs (default true).
    #[serde(default = "yes")]
    pub post_to_picks: bool,
    /// A link to the full report, shown in every comment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report_url: Option<String>,
}

fn yes() -> bool {
    true
}

impl LaneFile {
    /// The GitHub `owner/name` results are posted to: `github.repo`, else
    /// the upstream's when it is a github.com URL.
    pub fn github_repo(&self) -> Option<String> {
        if let Some(r) = self.github.as_ref().and_then(|g| g.repo.clone()) {
            return Some(r);
        }
        let u = self
            .upstream
            .repo
            .trim_end_matches('/')
            .trim_end_matches(".git");
        let rest = u
            .strip_prefix("https://github.com/")
            .or_else(|| u.strip_prefix("git@github.com:"))
            .or_else(|| u.strip_prefix("ssh://git@github.com/"))?;
        let mut parts = rest.split('/');
        match (parts.next(), parts.next(), parts.next()) {
            (Some(o), Some(n), None) if !o.is_empty() && !n.is_empty() => Some(format!("{o}/{n}")),
            _ => None,
        }
    }
}

impl LaneFile {
    /// Every mint of the lane (cell × GPU class × cold repeat), in a stable
    /// order; empty when the lane has no `mint` section.
    pub fn plan(&self) -> Vec<lane_core::PlannedMint> {
        let Some(m) = &self.mint else {
            return Vec::new();
        };
        let cells: Vec<_> = m
            .cells
            .iter()
            .map(|c| (c.name.to_string(), c.recipe))
            .collect();
        let gpus: Vec<_> = m.gpus.iter().map(|g| g.to_string()).collect();
        lane_core::plan_mints(&self.version.to_string(), &cells, &gpus, m.cold_repeats)
    }

    /// The lane branch: the explicit `branch`, or `release/<version>`
    /// (`cut/<version>` for a trunk lane).
    pub fn branch_name(&self) -> String {
        match (&self.branch, self.kind) {
            (Some(b), _) => b.as_str().to_owned(),
            (None, LaneKind::Trunk) => format!("cut/{}", self.version),
            (None, _) => format!("release/{}", self.version),
        }
    }
    /// The release tag: the explicit `tag`, or `v<version>`.
    pub fn tag_name(&self) -> String {
        match &self.tag {
            Some(t) => t.as_str().to_owned(),
            None => format!("v{}", self.version),
        }
    }
}

/// The upstream repository.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Upstream {
    /// A clone URL (`https://…`, `ssh://…`, `git@host:path`, `file://…`) or a
    /// local path (relative paths are relative to the lane file's folder).
    pub repo: String,
    /// The upstream's default branch, where PR numbers are looked up.
    #[serde(default = "default_branch")]
    pub default_branch: RefName,
}

fn default_branch() -> RefName {
    RefName::parse("master").expect("`master` is a valid ref name")
}

impl Upstream {
    /// Whether `repo` is a URL to clone (rather than a local path).
    pub fn is_url(&self) -> bool {
        let r = self.repo.as_str();
        r.contains("://") || (r.contains('@') && r.contains(':') && !r.starts_with('/'))
    }
}

/// What kind of file a version file is, which decides how it is edited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum VersionFileKind {
    /// `pyproject.toml`: the `version` key of the `[project]` table.
    Pyproject,
    /// `uv.lock`: the `version` of the `[[package]]` named `package`.
    UvLock,
    /// Any text file: the `version` capture group of `pattern`.
    Regex,
}

/// A file that carries the version.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(into = "VersionFileSpec")]
pub struct VersionFile {
    /// The file, relative to the repository root.
    pub path: RepoPath,
    /// How the version is found in it.
    pub kind: VersionFileKind,
    /// For `uv-lock`: the package whose entry carries the version.
    pub package: Option<String>,
    /// For `regex`: the expression with a `version` capture group.
    pub pattern: Option<Pattern>,
}

/// How a version file is written in YAML.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VersionFileSpec {
    /// The file, relative to the repository root.
    pub path: RepoPath,
    /// `pyproject`, `uv-lock` or `regex`.
    pub kind: VersionFileKind,
    /// For `uv-lock`: the package name whose entry carries the version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// For `regex`: an expression with a named group `version`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Pattern>,
}

impl TryFrom<VersionFileSpec> for VersionFile {
    type Error = String;
    fn try_from(s: VersionFileSpec) -> Result<Self, String> {
        match s.kind {
            VersionFileKind::UvLock if s.package.as_deref().is_none_or(str::is_empty) => {
                return Err(format!(
                    "version file `{}` of kind uv-lock needs `package` (the package whose entry is bumped)",
                    s.path
                ))
            }
            VersionFileKind::Regex => match &s.pattern {
                None => {
                    return Err(format!(
                        "version file `{}` of kind regex needs `pattern`",
                        s.path
                    ))
                }
                Some(p) if p.regex().capture_names().all(|n| n != Some("version")) => {
                    return Err(format!(
                        "the pattern of version file `{}` needs a named group `(?P<version>…)`",
                        s.path
                    ))
                }
                Some(_) => {}
            },
            _ => {}
        }
        if s.kind != VersionFileKind::UvLock && s.package.is_some() {
            return Err(format!(
                "`package` applies only to version files of kind uv-lock (`{}`)",
                s.path
            ));
        }
        if s.kind != VersionFileKind::Regex && s.pattern.is_some() {
            return Err(format!(
                "`pattern` applies only to version files of kind regex (`{}`)",
                s.path
            ));
        }
        Ok(VersionFile {
            path: s.path,
            kind: s.kind,
            package: s.package,
            pattern: s.pattern,
        })
    }
}

impl From<VersionFile> for VersionFileSpec {
    fn from(v: VersionFile) -> Self {
        VersionFileSpec {
            path: v.path,
            kind: v.kind,
            package: v.package,
            pattern: v.pattern,
        }
    }
}

validated_from_spec!(
    VersionFile,
    VersionFileSpec,
    "a version file: `path` and `kind` (pyproject, uv-lock, regex)"
);

/// How a release is made (the upstream's four ways, `docs/releasing.md`;
/// an untagged pin window is a `hotfix` lane on a commit).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LaneKind {
    /// Picks on the previous tag, then the cut, on a release branch.
    #[default]
    Hotfix,
    /// A master commit plus an off-master release commit.
    OffMaster,
    /// A cut commit on a branch off master, landed through a cut PR as a
    /// true merge; the tag goes on master.
    Trunk,
}

/// Where a trunk lane's tag goes.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Trunk {
    /// `merge` (the cut PR's merge on master, the default) or `cut` (the
    /// cut commit itself, once master reaches it).
    #[serde(default)]
    pub tag_on: TagOn,
}

/// What a trunk lane's tag points at.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TagOn {
    /// The merge of the cut PR.
    #[default]
    Merge,
    /// The cut commit.
    Cut,
}

/// A schema-compatibility guard on the wire protocol: both sides' `.proto`
/// files compiled and judged by buf's rule categories.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WireGuard {
    /// Folders of `.proto` files (default `proto/`).
    #[serde(default = "default_proto")]
    pub proto: Vec<RepoPath>,
    /// Folders of code generated from them: they may change only with a `.proto`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub generated: Vec<RepoPath>,
    /// buf's categories that must hold (default `WIRE`).
    #[serde(default = "default_wire_rules")]
    pub rules: Vec<WireRule>,
}

fn default_proto() -> Vec<RepoPath> {
    vec![RepoPath::parse("proto/").expect("valid")]
}
fn default_wire_rules() -> Vec<WireRule> {
    vec![WireRule::Wire]
}

/// One of buf's breaking-change categories.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum WireRule {
    /// Binary encoding stays compatible.
    #[serde(rename = "WIRE")]
    Wire,
    /// Binary and JSON encodings stay compatible.
    #[serde(rename = "WIRE_JSON")]
    WireJson,
    /// Generated code of the package stays compatible.
    #[serde(rename = "PACKAGE")]
    Package,
}

/// A guard: what the lane must never carry.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Guard {
    /// The guard's name, used in refusals (e.g. `wire-v1`).
    pub name: String,
    /// Why the guard exists, shown with a refusal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Commits that must be neither reachable from the lane nor
    /// patch-equivalent to any pick.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbidden_commits: Vec<CommitId>,
    /// Paths no pick may touch; the lane's copies must equal the base tag's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frozen_paths: Vec<RepoPath>,
    /// Files that must (or must not) match a pattern in the lane's tree.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<TreeProbeSpec>")]
    pub probes: Vec<TreeProbe>,
    /// The lane's `.proto` must stay compatible with the base's, by buf's rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wire: Option<WireGuard>,
}

/// A tree probe: a file in the lane's tree and what it must say.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(into = "TreeProbeSpec")]
pub struct TreeProbe {
    /// The file probed.
    pub path: RepoPath,
    /// The file must match this.
    pub must_match: Option<Pattern>,
    /// The file must not match this.
    pub must_not_match: Option<Pattern>,
}

/// How a tree probe is written in YAML: at least one of the two patterns.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("anyOf" = [{"required": ["must_match"]}, {"required": ["must_not_match"]}]))]
pub struct TreeProbeSpec {
    /// The file probed.
    pub path: RepoPath,
    /// The file must match this expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub must_match: Option<Pattern>,
    /// The file must not match this expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub must_not_match: Option<Pattern>,
}

impl TryFrom<TreeProbeSpec> for TreeProbe {
    type Error = String;
    fn try_from(s: TreeProbeSpec) -> Result<Self, String> {
        if s.must_match.is_none() && s.must_not_match.is_none() {
            return Err(format!(
                "the probe of `{}` needs `must_match` or `must_not_match`",
                s.path
            ));
        }
        Ok(TreeProbe {
            path: s.path,
            must_match: s.must_match,
            must_not_match: s.must_not_match,
        })
    }
}

impl From<TreeProbe> for TreeProbeSpec {
    fn from(p: TreeProbe) -> Self {
        TreeProbeSpec {
            path: p.path,
            must_match: p.must_match,
            must_not_match: p.must_not_match,
        }
    }
}

validated_from_spec!(
    TreeProbe,
    TreeProbeSpec,
    "a tree probe: `path` and `must_match` or `must_not_match`"
);
