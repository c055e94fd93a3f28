//! What a cut is asked to do and what it reports: the options, each pick's
//! outcome, the version bump, the changelog plan and the cut's status.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

use crate::guard::GuardReport;
use crate::picks::ResolvedPick;

/// What to do when a pick conflicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnConflict {
    /// Leave the repository exactly as it was (the default when not interactive).
    Abort,
    /// Leave the lane branch checked out with the conflict in the work tree,
    /// resumable with `lane cut --continue` (or `--abort`).
    Stop,
}

/// How to cut.
#[derive(Debug, Clone)]
pub struct CutOptions {
    /// Compute and report everything, write nothing.
    pub dry_run: bool,
    /// What to do on a conflict.
    pub on_conflict: OnConflict,
    /// The release date for the changelog heading (`YYYY-MM-DD`).
    pub date: String,
    /// Also make the annotated release tag.
    pub tag: bool,
    /// Sign the tag with git's signing configuration (`gpg.format`,
    /// `user.signingKey`), as `git tag -s` does.
    pub sign: bool,
    /// The lane file, remembered for `--continue`.
    pub lane_file: PathBuf,
}

/// What happened to one pick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum PickOutcome {
    /// Applied as a new commit.
    Applied {
        /// The new commit on the lane (in a dry run, one that was not kept).
        new_commit: String,
    },
    /// Not applied because its patch is already on the branch.
    Skipped {
        /// Why, naming the equivalent commit.
        reason: String,
    },
    /// Stopped on a conflict in these paths.
    Conflict {
        /// Every conflicting path.
        paths: Vec<String>,
    },
    /// Not attempted (an earlier pick conflicted).
    NotReached,
}

/// A pick and what happened to it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PickReport {
    /// The pick.
    #[serde(flatten)]
    pub pick: ResolvedPick,
    /// Its outcome.
    #[serde(flatten)]
    pub outcome: PickOutcome,
    /// For an adapted pick: what its origin would have done here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adapted: Option<AdaptedCheck>,
}

/// One version file's bump.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VersionBump {
    /// The file.
    pub path: String,
    /// The version it held.
    pub from: String,
    /// The version it holds now.
    pub to: String,
    /// The version it held is of another MAJOR.MINOR line than the lane's
    /// (a base on master, whose version lags the published lines).
    #[serde(default)]
    pub crosses_line: bool,
}

/// How the cut wrote the changelog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangelogMode {
    /// The lane file has no `changelog`: nothing was written, and the
    /// fragments stay pending.
    NotConfigured,
    /// `assemble: none`: the cut changes only the version files.
    None,
    /// lane's assembler, in the upstream's format.
    Builtin,
    /// The tree's own assembler.
    Tree,
}

/// The changelog part of the cut.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChangelogPlan {
    /// How it was written.
    pub mode: ChangelogMode,
    /// The changelog file.
    pub file: Option<String>,
    /// The tree's assembler command, when it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assembler: Option<String>,
    /// Fragments collapsed into the section.
    pub fragments: Vec<String>,
    /// Fragments written (or rewritten) at the cut.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub written: Vec<String>,
    /// Fragments renamed before assembly.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub renamed: Vec<(String, String)>,
    /// Fragments removed without being assembled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
    /// Sections folded in from other refs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub folded: Vec<String>,
    /// Issues of picks whose fragment does not exist.
    pub missing_fragments: Vec<u64>,
    /// Picks with no issue number (no fragment can be found for them).
    pub picks_without_issue: Vec<String>,
    /// Anything else a reader of the plan should know.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The new section's text.
    pub section: String,
}

impl ChangelogPlan {
    /// A plan that writes nothing yet.
    pub fn empty(mode: ChangelogMode) -> ChangelogPlan {
        ChangelogPlan {
            mode,
            file: None,
            assembler: None,
            fragments: Vec::new(),
            written: Vec::new(),
            renamed: Vec::new(),
            dropped: Vec::new(),
            folded: Vec::new(),
            missing_fragments: Vec::new(),
            picks_without_issue: Vec::new(),
            notes: Vec::new(),
            section: String::new(),
        }
    }
}

/// What an adapted pick adapts, checked on the line: its origin picked
/// where the adaptation was applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdaptedCheck {
    /// The origin commit.
    pub origin: String,
    /// Where the origin's own pick conflicts on the line.
    pub conflicts: Vec<String>,
    /// Where the origin's pick and the adaptation give different files
    /// (when the origin picks cleanly).
    pub differs: Vec<String>,
}

/// How a cut ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CutStatus {
    /// A dry run: the plan is complete, nothing was written.
    Planned,
    /// The branch (and tag) were created.
    Cut,
    /// The branch already holds this lane's cut; nothing was written.
    AlreadyCut,
    /// A guard refused; nothing was written.
    Refused,
    /// A pick conflicted and the repository was left exactly as it was.
    Aborted,
    /// A dry run: a pick would conflict, so the cut cannot be made as
    /// planned; nothing was written.
    WouldConflict,
    /// A pick conflicted and the cut is resumable (`lane cut --continue`).
    Stopped,
    /// The version files disagree after the bump; nothing was written.
    VersionsDisagree,
    /// A cut made earlier was tagged: the lane branch's head, or for a
    /// trunk lane the cut PR's merge on the default branch.
    Tagged,
}

/// Everything a cut decided, for people (text) and scripts (`--json`).
#[derive(Debug, Clone, Serialize)]
pub struct CutReport {
    /// The lane version.
    pub lane: String,
    /// The base tag.
    pub base: String,
    /// The base commit.
    pub base_commit: String,
    /// The lane branch.
    pub branch: String,
    /// The release tag, when `--tag` was asked.
    pub tag: Option<String>,
    /// How the cut ended.
    pub status: CutStatus,
    /// Each pick with its outcome.
    pub picks: Vec<PickReport>,
    /// The guards before anything was written.
    pub guards_before: Option<GuardReport>,
    /// The guards on the result.
    pub guards_after: Option<GuardReport>,
    /// The version bumps.
    pub version_files: Vec<VersionBump>,
    /// The changelog assembly.
    pub changelog: Option<ChangelogPlan>,
    /// Files that differ between the base and the result.
    pub files_changed: Vec<String>,
    /// The lane head (in a dry run: what it would be; its id is not kept).
    pub head: Option<String>,
    /// Whether anything was written to the repository.
    pub written: bool,
    /// Whether the tag was signed.
    pub signed: bool,
    /// For a trunk lane tagged after its cut PR merged: where it landed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub landed: Option<Landed>,
}

impl CutReport {
    /// A cut of `lane` from `base` (at `base_commit`) onto `branch`, with
    /// `tag` when one was asked, planned and nothing decided yet; `written`
    /// when the cut already wrote (a cut resumed with `--continue`).
    pub fn planned(
        lane: String,
        base: String,
        base_commit: String,
        branch: String,
        tag: Option<String>,
        written: bool,
    ) -> CutReport {
        CutReport {
            lane,
            base,
            base_commit,
            branch,
            tag,
            status: CutStatus::Planned,
            picks: Vec::new(),
            guards_before: None,
            guards_after: None,
            version_files: Vec::new(),
            changelog: None,
            files_changed: Vec::new(),
            head: None,
            written,
            signed: false,
            landed: None,
        }
    }
}

impl PickReport {
    /// `pick`, not reached: a pick before it stopped the cut.
    pub fn not_reached(pick: &ResolvedPick) -> PickReport {
        PickReport {
            pick: pick.clone(),
            outcome: PickOutcome::NotReached,
            adapted: None,
        }
    }
}

/// Where a trunk lane's cut landed on the default branch.
#[derive(Debug, Clone, Serialize)]
pub struct Landed {
    /// The commit tagged: the cut PR's merge (or the cut itself, squashed or
    /// reached by master, with `tag_on: cut`).
    pub commit: String,
    /// The default branch it is on.
    pub on: String,
    /// The cut branch's head the merge brings in.
    pub cut_head: String,
    /// Master moved between the cut and the merge: the merge's tree is
    /// not the cut's (the merge queue built and tested that tree).
    pub master_moved: bool,
}
