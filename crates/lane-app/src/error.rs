//! The one error type of lane's commands, and the one place its exit codes
//! are decided ([`AppError::exit`]).

use std::path::PathBuf;

use crate::exit::Exit;

/// Everything a lane command can fail with. The library errors are wrapped
/// as they are (their messages and sources kept); lane's own failures are
/// one variant each.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AppError {
    /// The command line asked for something that cannot be done (exit 2).
    #[error("{0}")]
    Usage(String),
    /// An input lane reads is invalid: `at` names the file (and where in it).
    #[error("{at}: {problem}")]
    InvalidInput {
        /// The file, and where in it.
        at: String,
        /// What is wrong, and what was expected.
        problem: String,
    },
    /// No lane file of that name in the current folder or any above it.
    #[error("no lane file lanes/{name}.yaml in {} or any folder above it", .dir.display())]
    NoLaneFile {
        /// The lane argument.
        name: String,
        /// The folder the search started in.
        dir: PathBuf,
    },
    /// A results folder that is not there.
    #[error("no results folder at {} (run `lane mint` first, or give --results)", .dir.display())]
    NoResults {
        /// The folder.
        dir: PathBuf,
    },
    /// A given baseline results folder that is not there.
    #[error("no baseline results folder at {}", .dir.display())]
    NoBaseline {
        /// The folder.
        dir: PathBuf,
    },
    /// A results folder of another lane.
    #[error("{}: these results are lane {theirs}'s, not lane {lane}'s (give the lane they were minted for)", .dir.display())]
    ResultsOfAnotherLane {
        /// The results folder.
        dir: PathBuf,
        /// The lane they were minted for.
        theirs: String,
        /// The lane given.
        lane: String,
    },
    /// Posting needs a GitHub repository the lane does not name.
    #[error("the lane names no GitHub repository (github.repo, or a github.com upstream)")]
    NoGithubRepo,
    /// A precondition failed (a run not started, a lane not cut, ...).
    #[error("{0}")]
    Precondition(String),
    /// Another lane command holds the lane, and this one was asked not to
    /// wait (exit 9).
    #[error("lane {lane} is busy: {holder} (run again without --no-wait to wait for it)")]
    LaneBusy {
        /// The lane.
        lane: String,
        /// Who holds it, in its own words.
        holder: String,
    },
    /// A cell needs the upstream's tree and the lane branch cannot give it.
    #[error("a cell needs the upstream's tree (`source: true`): cut the lane first, or give --source DIR")]
    NeedsLaneTree(#[source] lane_wheel::WheelError),
    /// A lane branch that is not exactly the lane's cut (exit 6): the
    /// commits it lacks and carries, each `<short id> <subject>` with the
    /// subject made inert.
    #[error("{branch} is not lane {lane}'s cut (exactly its picks in order, then its cut commit), so lane will not {doing}: {}; cut the lane again on a fresh branch (look at {branch} first, then delete it), or make the lane file's picks say what the branch should hold", .named.join("; "))]
    NotTheCut {
        /// The lane.
        lane: String,
        /// The branch.
        branch: String,
        /// What lane refused to do (`tag it`, `build a wheel from it`, `publish it`).
        doing: &'static str,
        /// Each commit missing or extra, and a missing cut commit.
        named: Vec<String>,
    },
    /// A guard refused (exit 4).
    #[error("a guard of lane {lane} refused {at}")]
    GuardRefused {
        /// The lane.
        lane: String,
        /// The ref or branch refused.
        at: String,
    },
    /// A cut stopped on a cherry-pick conflict (exit 5).
    #[error("the cut of lane {lane} stopped on a conflict{}", if *.resumable { " (resumable)" } else { "" })]
    CutConflict {
        /// The lane.
        lane: String,
        /// Left checked out to resolve, rather than undone.
        resumable: bool,
    },
    /// The version files disagree after a cut's bump (exit 8).
    #[error("the version files of lane {lane} disagree after the bump")]
    CutVersionsDisagree {
        /// The lane.
        lane: String,
    },
    /// The publish record could not be read or written in the store.
    #[error("publish record {key}")]
    Record {
        /// Its store key.
        key: String,
        /// Why.
        #[source]
        source: lane_store::StoreError,
    },
    /// The store an agent numbers its attempt in could not be used.
    #[error(transparent)]
    AttemptStore(lane_store::StoreError),
    /// A mint ended neither minted nor abandoned, and the agent was asked
    /// to exit by its outcome (a Job's `podFailurePolicy` reads the code).
    #[error("mint {id} ended {status} (--exit-by-outcome)")]
    MintEnded {
        /// The attempt.
        id: String,
        /// How it ended.
        status: lane_core::MintStatus,
    },
    /// A pod's result bundle did not reach the store within the upload
    /// window: the store's fault, not the mint's; the Job retries.
    #[error("the result bundle of mint {id} did not reach the store ({key}): {error}; the store is at fault, not the mint")]
    BundleNotStored {
        /// The attempt.
        id: String,
        /// The bundle's key.
        key: String,
        /// What the store said, last.
        error: String,
    },
    /// A mint report that does not read.
    #[error("{}", .path.display())]
    Report {
        /// The report.
        path: PathBuf,
        /// Why.
        #[source]
        source: lane_ledger::ReportError,
    },
    /// The demo upstream could not be generated.
    #[cfg(feature = "demo")]
    #[error("generating the demo upstream")]
    Fixture(#[source] lane_fixture::FixtureError),
    /// The demo's cut did not complete.
    #[cfg(feature = "demo")]
    #[error("the demo cut did not complete: {status}")]
    DemoCutIncomplete {
        /// How it ended.
        status: String,
    },
    /// Pushing a cut failed.
    #[error(transparent)]
    Push(lane_git::GitError),
    /// A verification failed: `at` names what disagrees.
    #[error("{0}")]
    Verification(String),
    /// `lane init --from-tag`: the lane file written does not reproduce the tag.
    #[error("the lane file does not reproduce {tag}: {differs} path(s) differ (the lane file's header says which and why)")]
    NotReproduced {
        /// The tag.
        tag: String,
        /// How many paths differ.
        differs: usize,
    },
    /// A lane file lane could not write.
    #[error("writing the lane file: {0}")]
    LaneYaml(String),
    /// The lane's mints are in and it is not green (exit 7).
    #[error("lane {lane} is not green: {why}")]
    NotGreen {
        /// The lane.
        lane: String,
        /// Why, in words.
        why: String,
    },
    /// The determinism verdict is at or above `--fail-on` (exit 7).
    #[error("the determinism verdict is {verdict}, at or above --fail-on {fail_on}")]
    VerdictAtLeast {
        /// The verdict.
        verdict: String,
        /// The threshold.
        fail_on: String,
    },
    /// Reports that could not be read (each `<file>: <why>`); every other
    /// mint was still read (exit 3).
    #[error("{}", .0.join("\n"))]
    UnreadableReports(Vec<String>),
    /// A history object that does not read (a run's rows or an
    /// acknowledgement), named by its place in the store (exit 3).
    #[error("{at}")]
    History {
        /// The store location and key.
        at: String,
        /// Why: the line and column.
        #[source]
        source: lane_history::HistoryError,
    },
    /// A run regressed against its history, confirmed by the other GPU
    /// class or the next lane (exit 7).
    #[error("run {run} regressed against its history, confirmed: {}", .series.join(", "))]
    Regressed {
        /// The run.
        run: String,
        /// The series, `<cell>/<gpu>/<phase>`.
        series: Vec<String>,
    },
    /// A finding at or above `--fail-on` (exit 7).
    #[error("findings at or above --fail-on {threshold}")]
    FindingsAtLeast {
        /// The threshold.
        threshold: String,
    },
    /// A TORCH_TRACE log that could not be read.
    #[error("{}", .path.display())]
    Trace {
        /// The log.
        path: PathBuf,
        /// Why.
        #[source]
        source: lane_ledger::TraceError,
    },
    /// Two sides of a ledger comparison that cannot be compared.
    #[error(transparent)]
    Compare(#[from] lane_ledger::CompareError),
    /// A file or folder could not be read or written.
    #[error("{}", .path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The async runtime (for GitHub or Kubernetes) could not start.
    #[error("cannot start the async runtime")]
    Runtime(#[source] std::io::Error),
    /// A value lane made could not be written as JSON.
    #[error("cannot write JSON")]
    Json(#[source] serde_json::Error),
    /// A lane file.
    #[error(transparent)]
    LaneFile(#[from] lane_file::LaneFileError),
    /// A file lane wrote, read back through its type.
    #[error(transparent)]
    Contract(#[from] lane_core::results::ContractError),
    /// The git edge.
    #[error(transparent)]
    Git(#[from] lane_git::GitError),
    /// The mint runner.
    #[error(transparent)]
    Mint(#[from] lane_mint::MintError),
    /// The agent.
    #[error(transparent)]
    Agent(#[from] lane_agent::AgentError),
    /// The wheel: build, verify, stage.
    #[error(transparent)]
    Wheel(#[from] lane_wheel::WheelError),
    /// The artifact store.
    #[error(transparent)]
    Store(#[from] lane_store::StoreError),
    /// GitHub.
    #[cfg(feature = "github")]
    #[error(transparent)]
    Github(#[from] lane_github::GithubError),
    /// Reading a side of a determinism diff.
    #[error(transparent)]
    Ingest(#[from] lane_diff::ingest::IngestError),
    /// The determinism diff.
    #[error(transparent)]
    Diff(#[from] lane_diff::DiffError),
    /// Where mints run: a backend refused the plan or failed running it
    /// (the one place a [`lane_backend::BackendError`] becomes an
    /// `AppError`; [`AppError::exit`] reads its inner variant). Boxed: the
    /// backend's errors carry the Kubernetes and store errors, and an
    /// `AppError` travels in every `Result` of the app.
    #[error(transparent)]
    Backend(Box<lane_backend::BackendError>),
}

impl From<lane_backend::BackendError> for AppError {
    fn from(e: lane_backend::BackendError) -> Self {
        AppError::Backend(Box::new(e))
    }
}

/// The error and its causes on one line, in plain words, each cause said
/// once (a library message that already quotes its source does not repeat
/// it). libgit2's errors say their message without their class and code
/// numbers (`class=Reference (4); code=NotFound (-3)`).
pub fn describe(err: &(dyn std::error::Error + 'static)) -> String {
    fn said(e: &(dyn std::error::Error + 'static)) -> String {
        match e.downcast_ref::<git2::Error>() {
            Some(g) => g.message().to_owned(),
            None => e.to_string(),
        }
    }
    let mut text = said(err);
    let mut next = err.source();
    while let Some(cause) = next {
        let cause_text = said(cause);
        if !text.contains(&cause_text) {
            text = format!("{text}: {cause_text}");
        }
        next = cause.source();
    }
    text
}

impl AppError {
    /// An invalid input file: its path (made inert for a terminal: a path
    /// is foreign text) and what is wrong with it.
    pub fn invalid_file(path: &std::path::Path, problem: impl std::fmt::Display) -> AppError {
        AppError::invalid(
            lane_render::escape::terminal(&path.display().to_string()),
            problem,
        )
    }

    /// A git failure, with a branch that is not the lane's cut named commit
    /// by commit ([`AppError::NotTheCut`]: lane will not `doing`).
    pub fn git(e: lane_git::GitError, doing: &'static str) -> AppError {
        match e {
            lane_git::GitError::NotTheCut { lane, proof } => AppError::NotTheCut {
                lane,
                branch: proof.branch.clone(),
                doing,
                named: lane_git::proof::describe(&proof, lane_render::escape::terminal),
            },
            e => AppError::Git(e),
        }
    }

    /// An invalid input at `at` (a file, and where in it).
    pub fn invalid(at: impl std::fmt::Display, problem: impl std::fmt::Display) -> AppError {
        AppError::InvalidInput {
            at: at.to_string(),
            problem: problem.to_string(),
        }
    }

    /// A file or folder that could not be read or written.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> AppError {
        AppError::Io {
            path: path.into(),
            source,
        }
    }

    /// The documented exit code of this error: the one place lane decides
    /// them (`docs/cli.md` lists the table).
    pub fn exit(&self) -> Exit {
        use lane_git::GitError as G;
        use lane_wheel::WheelError as W;
        match self {
            AppError::Usage(_) => Exit::Usage,
            AppError::InvalidInput { .. }
            | AppError::NoLaneFile { .. }
            | AppError::NoResults { .. }
            | AppError::NoBaseline { .. }
            | AppError::ResultsOfAnotherLane { .. }
            | AppError::NoGithubRepo
            | AppError::LaneFile(_)
            | AppError::Contract(_)
            | AppError::Ingest(_)
            | AppError::Diff(_)
            | AppError::UnreadableReports(_)
            | AppError::History { .. }
            | AppError::Compare(_) => Exit::InvalidInput,
            AppError::Trace {
                source: lane_ledger::TraceError::Io { .. },
                ..
            } => Exit::Failure,
            AppError::Trace { .. } => Exit::InvalidInput,
            AppError::Precondition(_) | AppError::NeedsLaneTree(_) | AppError::NotTheCut { .. } => {
                Exit::Precondition
            }
            AppError::LaneBusy { .. } => Exit::LaneBusy,
            AppError::Verification(_) | AppError::CutVersionsDisagree { .. } => Exit::Verification,
            AppError::GuardRefused { .. } => Exit::GuardRefused,
            AppError::CutConflict { .. } => Exit::Conflict,
            AppError::NotGreen { .. }
            | AppError::NotReproduced { .. }
            | AppError::Regressed { .. }
            | AppError::VerdictAtLeast { .. }
            | AppError::FindingsAtLeast { .. } => Exit::Findings,
            AppError::Io { .. }
            | AppError::Runtime(_)
            | AppError::Json(_)
            | AppError::LaneYaml(_)
            | AppError::AttemptStore(_)
            | AppError::Push(_)
            | AppError::Record { .. } => Exit::Failure,
            AppError::Report { .. } => Exit::InvalidInput,
            #[cfg(feature = "demo")]
            AppError::Fixture(_) | AppError::DemoCutIncomplete { .. } => Exit::Failure,
            AppError::Agent(lane_agent::AgentError::Claimed { .. }) => Exit::Claimed,
            AppError::Agent(lane_agent::AgentError::Interrupted) => Exit::Interrupted,
            AppError::Agent(_) => Exit::Failure,
            AppError::BundleNotStored { .. } => Exit::Failure,
            AppError::MintEnded { status, .. } => match status {
                lane_core::MintStatus::Refused => Exit::MintRefused,
                lane_core::MintStatus::Failed => Exit::MintFailed,
                _ => Exit::Failure,
            },
            AppError::Mint(m) => mint_exit(m),
            AppError::Git(e) => match e {
                G::DirtyWorkTree { .. }
                | G::RefExists { .. }
                | G::CutInProgress { .. }
                | G::NoCutInProgress { .. }
                | G::VersionNotAbove { .. }
                | G::NotLanded { .. }
                | G::NotTheCut { .. }
                | G::NothingToRelease { .. } => Exit::Precondition,
                G::StillConflicted { .. } => Exit::Conflict,
                G::Unresolved { .. } | G::PrNotFound { .. } | G::PrAmbiguous { .. } => {
                    Exit::InvalidInput
                }
                G::VersionFile { .. } | G::VersionsDisagree { .. } | G::Changelog { .. } => {
                    Exit::Verification
                }
                _ => Exit::Failure,
            },
            AppError::Wheel(e) => match e {
                W::NoBranch { .. } | W::PythonUnsupported { .. } | W::LaneUvNotAFile { .. } => {
                    Exit::Precondition
                }
                W::RequiresPythonInvalid { .. } => Exit::InvalidInput,
                W::IdentityMismatch { .. }
                | W::RecordMismatch { .. }
                | W::RecordIncomplete { .. }
                | W::PackageFileDiffers { .. }
                | W::NotInTree { .. }
                | W::MissingFromWheel { .. }
                | W::Malformed { .. } => Exit::Verification,
                W::Store(s) => store_exit(s),
                _ => Exit::Failure,
            },
            AppError::Store(s) => store_exit(s),
            #[cfg(feature = "github")]
            AppError::Github(lane_github::GithubError::InvalidRepo { .. }) => Exit::InvalidInput,
            #[cfg(feature = "github")]
            AppError::Github(_) => Exit::Failure,
            AppError::Backend(b) => backend_exit(b),
        }
    }
}

/// A mint runner error's code, wrapped by lane-app or by a backend.
fn mint_exit(m: &lane_mint::MintError) -> Exit {
    use lane_mint::MintError as M;
    match m {
        M::NoMatrix { .. } => Exit::InvalidInput,
        M::UnknownSlot { .. } => Exit::Usage,
        M::SlotOpen { .. } | M::NeverMinted { .. } => Exit::Precondition,
        _ => Exit::Failure,
    }
}

/// A backend error's code: a flag the backend cannot take is a usage
/// error (2), a configuration or manifest that does not read invalid input
/// (3), a run or wheel that is not what it must be a precondition (6).
fn backend_exit(b: &lane_backend::BackendError) -> Exit {
    use lane_backend::BackendError as B;
    match b {
        B::Unknown { .. }
        | B::NotBuilt
        | B::WheelKeyHere
        | B::WheelFileInPods
        | B::NothingToCancel { .. }
        | B::BadRunId { .. }
        | B::NoKubeConfig
        | B::CancelNeedsKubeConfig
        | B::StoreCredentials
        | B::NoStore { .. }
        | B::WheelKeyNeedsStore
        | B::BadWheelKey(_)
        | B::WheelKeyShape { .. }
        | B::SpecKey(_) => Exit::Usage,
        B::KubeConfigUnreadable { .. }
        | B::KubeConfigInvalid { .. }
        | B::KubeConfigRefused { .. }
        | B::ManifestUnreadable { .. }
        | B::ManifestDigest { .. }
        | B::ManifestSource { .. }
        | B::Job(_) => Exit::InvalidInput,
        B::ManifestOfAnotherWheel { .. } => Exit::Verification,
        B::NoSourceArchive | B::RunSpecDiffers { .. } | B::StagedWheel(_) => Exit::Precondition,
        B::Json(_) | B::Runtime(_) => Exit::Failure,
        B::Store(s) => store_exit(s),
        B::Mint(m) => mint_exit(m),
        #[cfg(feature = "kube")]
        B::Kube(lane_backend::kube::KubeError::SpecChanged { .. }) => Exit::Precondition,
        #[cfg(feature = "kube")]
        B::Kube(_) => Exit::Failure,
    }
}

/// A store error's code: a refused overwrite or a missing object is a
/// precondition (6), a bad location or S3 settings the client cannot use
/// invalid input (3).
fn store_exit(s: &lane_store::StoreError) -> Exit {
    use lane_store::StoreError as S;
    match s {
        S::Conflict { .. } | S::NotFound { .. } => Exit::Precondition,
        S::BadKey { .. } | S::BadLocation { .. } | S::MissingSetting { .. } | S::Setup { .. } => {
            Exit::InvalidInput
        }
        _ => Exit::Failure,
    }
}

#[cfg(test)]
mod describe_tests {
    use super::{describe, AppError};

    #[test]
    fn a_cause_the_message_already_quotes_is_said_once() {
        let io = std::io::Error::other("disk on fire");
        let e = AppError::io("/out/report.md", io);
        assert_eq!(describe(&e), "/out/report.md: disk on fire");
        // A library message that embeds its source keeps it once.
        let ingest = lane_diff::ingest::IngestError::Io {
            origin: "cell.tar.gz".into(),
            source: std::io::Error::other("truncated"),
        };
        let said = describe(&AppError::from(ingest));
        assert_eq!(said.matches("truncated").count(), 1, "{said}");
    }

    /// Regression: libgit2's `class=Reference (4); code=NotFound (-3)`
    /// reached people's terminals.
    #[test]
    fn libgit2_errors_are_said_in_plain_words() {
        let repo = tempfile::tempdir().unwrap();
        let r = git2::Repository::init(repo.path()).unwrap();
        let err = r.revparse_single("v0.93.2").unwrap_err();
        assert!(
            err.to_string().contains("class="),
            "libgit2 still numbers it: {err}"
        );
        let e = AppError::Git(lane_git::GitError::Unresolved {
            what: "base tag",
            name: "v0.93.2".into(),
            source: err,
        });
        let said = describe(&e);
        assert_eq!(
            said,
            "cannot resolve base tag `v0.93.2` in the repository: revspec 'v0.93.2' not found"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn io_error() -> std::io::Error {
        std::io::Error::other("disk on fire")
    }

    #[test]
    fn every_lane_level_variant_maps_to_its_documented_code() {
        let table: Vec<(AppError, Exit)> = vec![
            (AppError::Usage("--x".into()), Exit::Usage),
            (AppError::invalid("a.json", "line 1"), Exit::InvalidInput),
            (
                AppError::NoLaneFile {
                    name: "9.9.9".into(),
                    dir: "/".into(),
                },
                Exit::InvalidInput,
            ),
            (AppError::NoResults { dir: "r".into() }, Exit::InvalidInput),
            (AppError::NoBaseline { dir: "b".into() }, Exit::InvalidInput),
            (AppError::NoGithubRepo, Exit::InvalidInput),
            (AppError::Precondition("no run".into()), Exit::Precondition),
            (
                lane_backend::BackendError::RunSpecDiffers {
                    run: "r".into(),
                    lane: "1".into(),
                    at: "k".into(),
                }
                .into(),
                Exit::Precondition,
            ),
            (lane_backend::BackendError::WheelKeyHere.into(), Exit::Usage),
            (
                lane_backend::BackendError::NoSourceArchive.into(),
                Exit::Precondition,
            ),
            (AppError::Verification("differs".into()), Exit::Verification),
            (
                AppError::GuardRefused {
                    lane: "1".into(),
                    at: "release/1".into(),
                },
                Exit::GuardRefused,
            ),
            (
                AppError::CutConflict {
                    lane: "1".into(),
                    resumable: true,
                },
                Exit::Conflict,
            ),
            (
                AppError::CutVersionsDisagree { lane: "1".into() },
                Exit::Verification,
            ),
            (
                AppError::NotGreen {
                    lane: "1".into(),
                    why: "a mint failed".into(),
                },
                Exit::Findings,
            ),
            (
                AppError::VerdictAtLeast {
                    verdict: "unexplained".into(),
                    fail_on: "unexplained".into(),
                },
                Exit::Findings,
            ),
            (
                AppError::UnreadableReports(vec!["a.json: truncated".into()]),
                Exit::InvalidInput,
            ),
            (
                AppError::FindingsAtLeast {
                    threshold: "warning".into(),
                },
                Exit::Findings,
            ),
            (
                AppError::Regressed {
                    run: "r".into(),
                    series: vec!["c/H200/phase/load".into()],
                },
                Exit::Findings,
            ),
            (AppError::io("x", io_error()), Exit::Failure),
            (AppError::Runtime(io_error()), Exit::Failure),
        ];
        for (e, want) in table {
            assert_eq!(e.exit(), want, "{e}");
        }
    }

    /// Issue 34: a branch that is not the lane's cut is refused (exit 6)
    /// naming each missing and extra commit, its subject made inert.
    #[test]
    fn a_branch_that_is_not_the_cut_is_refused_naming_each_commit_inert() {
        use lane_git::proof::{CutProof, NamedCommit, PickFound, ProvenPick};
        let named = |id: char, subject: &str| NamedCommit {
            id: id.to_string().repeat(40),
            subject: subject.into(),
        };
        let proof = CutProof {
            branch: "release/0.93.3".into(),
            head: "e".repeat(40),
            base: "b".repeat(40),
            picks: vec![ProvenPick {
                pick: named('a', "pgw#993: the pick"),
                found: PickFound::Missing,
            }],
            cut_commit: Some(named('c', "release: 0.93.3")),
            extra: vec![named('d', "hotfix: \u{1b}[2Jtrust me")],
        };
        let e = AppError::git(
            lane_git::GitError::NotTheCut {
                lane: "0.93.3".into(),
                proof: Box::new(proof),
            },
            "tag it",
        );
        assert_eq!(e.exit(), Exit::Precondition);
        let text = e.to_string();
        for part in [
            "release/0.93.3 is not lane 0.93.3's cut",
            "so lane will not tag it",
            "missing pick aaaaaaaaaaaa pgw#993: the pick",
            "extra commit dddddddddddd hotfix: \\u{1b}[2Jtrust me",
        ] {
            assert!(text.contains(part), "{part}: {text}");
        }
        assert!(!text.contains('\u{1b}'), "{text}");
        let python = lane_wheel::WheelError::PythonUnsupported {
            file: "pyproject.toml",
            specifier: ">=3.12".into(),
            python: "/usr/bin/python3".into(),
            found: "Python 3.11.7".into(),
        };
        assert_eq!(AppError::Wheel(python).exit(), Exit::Precondition);
    }

    #[test]
    fn one_library_error_maps_by_its_variant() {
        let missing = lane_store::StoreError::NotFound { key: "k".into() };
        assert_eq!(AppError::Store(missing).exit(), Exit::Precondition);
        let mint = lane_mint::MintError::NoMatrix { lane: "1".into() };
        assert_eq!(AppError::Mint(mint).exit(), Exit::InvalidInput);
        assert_eq!(
            AppError::Mint(lane_mint::MintError::Interrupted).exit(),
            Exit::Failure
        );
        let nothing = lane_git::GitError::NoCutInProgress { path: "/r".into() };
        assert_eq!(AppError::Git(nothing).exit(), Exit::Precondition);
        assert_eq!(
            AppError::Agent(lane_agent::AgentError::Interrupted).exit(),
            Exit::Interrupted
        );
        for (status, want) in [
            (lane_core::MintStatus::Refused, Exit::MintRefused),
            (lane_core::MintStatus::Failed, Exit::MintFailed),
            (lane_core::MintStatus::Crashed, Exit::Failure),
            (lane_core::MintStatus::Resource, Exit::Failure),
        ] {
            let ended = AppError::MintEnded {
                id: "1/c/g/r1/a1".into(),
                status,
            };
            assert_eq!(ended.exit(), want, "{status}");
        }
    }

    #[cfg(feature = "github")]
    #[test]
    fn github_errors_exit_by_what_failed() {
        let repo = lane_github::GithubError::InvalidRepo { repo: "x".into() };
        assert_eq!(AppError::Github(repo).exit(), Exit::InvalidInput);
        assert_eq!(
            AppError::Github(lane_github::GithubError::NoCredentials).exit(),
            Exit::Failure
        );
    }

    #[test]
    fn a_staged_wheel_missing_from_the_store_is_a_precondition_even_where_a_bad_key_is_not() {
        let bad = lane_store::StoreError::BadKey {
            key: "..".into(),
            why: "dots".into(),
        };
        let staged = lane_backend::BackendError::StagedWheel(bad);
        assert_eq!(AppError::from(staged).exit(), Exit::Precondition);
    }
}
