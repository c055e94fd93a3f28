//! Every way the git edge can fail, one documented variant each.

use std::path::PathBuf;

/// A failure of a git operation of lane's.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// libgit2 reported an error while doing `what`.
    #[error("git: {what}")]
    Git {
        /// What lane was doing.
        what: String,
        /// libgit2's error.
        #[source]
        source: git2::Error,
    },
    /// The repository could not be opened.
    #[error("cannot open the repository at {path}")]
    Open {
        /// The path tried.
        path: PathBuf,
        /// libgit2's error.
        #[source]
        source: git2::Error,
    },
    /// The work tree has uncommitted changes.
    #[error("the work tree of {path} is dirty ({}): commit or stash first", .files.join(", "))]
    DirtyWorkTree {
        /// The repository.
        path: PathBuf,
        /// The first few changed files.
        files: Vec<String>,
    },
    /// A ref the cut would create already exists and points elsewhere.
    #[error("{kind} `{name}` already exists at {existing}: lane never moves an existing {kind}")]
    RefExists {
        /// `branch` or `tag`.
        kind: &'static str,
        /// Its name.
        name: String,
        /// Where it points now.
        existing: String,
    },
    /// A lane branch that is not exactly the lane's cut: a pick missing, a
    /// commit nobody picked, or no cut commit on top.
    #[error("{} is not lane {lane}'s cut: {} pick(s) missing, {} extra commit(s){}; lane tags, builds and publishes only the branch its cut made: cut the lane again on a fresh branch, or fix the lane file's picks", .proof.branch, .proof.missing().count(), .proof.extra.len(), if .proof.cut_commit.is_none() { ", no cut commit on top" } else { "" })]
    NotTheCut {
        /// The lane.
        lane: String,
        /// What the branch holds, pick by pick.
        proof: Box<crate::proof::CutProof>,
    },
    /// A name (tag, commit id) did not resolve.
    #[error("cannot resolve {what} `{name}` in the repository")]
    Unresolved {
        /// What kind of thing (`base tag`, `commit`, `forbidden commit`).
        what: &'static str,
        /// The name given.
        name: String,
        /// libgit2's error.
        #[source]
        source: git2::Error,
    },
    /// A PR number matched no commit on the default branch.
    #[error("PR #{pr} matches no commit on `{branch}` (looked for subjects ending `(#{pr})` and `Merge pull request #{pr}`)")]
    PrNotFound {
        /// The PR number.
        pr: u64,
        /// The branch searched.
        branch: String,
    },
    /// A PR number matched more than one commit.
    #[error("PR #{pr} matches several commits on `{branch}`: {}; pick by commit id instead", .commits.join(", "))]
    PrAmbiguous {
        /// The PR number.
        pr: u64,
        /// The branch searched.
        branch: String,
        /// The matching commit ids.
        commits: Vec<String>,
    },
    /// A `pr_head` pick's head is not in the repository.
    #[error("PR #{pr}'s head ({reference}) is not in the repository: fetch it (`git fetch origin +{reference}:{reference}`)")]
    PrHeadMissing {
        /// The PR number.
        pr: u64,
        /// The ref looked for.
        reference: String,
    },
    /// A commit a `pr_head` pick names is not in that PR's head.
    #[error("PR #{pr}'s head does not contain {commit}")]
    NotInPrHead {
        /// The PR number.
        pr: u64,
        /// The commit named.
        commit: String,
    },
    /// A version file could not be read or bumped.
    #[error("version file `{path}`: {message}")]
    VersionFile {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// The version files disagree after the bump.
    #[error("version files disagree after the bump: {}", .found.iter().map(|(p, v)| format!("{p} says {v}")).collect::<Vec<_>>().join(", "))]
    VersionsDisagree {
        /// Each file with the version it holds.
        found: Vec<(String, String)>,
    },
    /// The changelog could not be assembled.
    #[error("changelog `{path}`: {message}")]
    Changelog {
        /// The changelog file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A trunk lane's cut has not landed on the default branch yet.
    #[error("{branch} has not landed on {on}: no merge of it (or, with `tag_on: cut`, no commit carrying its tree) is there yet; fetch, or merge the cut PR first")]
    NotLanded {
        /// The cut branch.
        branch: String,
        /// The default branch searched.
        on: String,
    },
    /// The tree's own changelog assembler could not run or refused.
    #[error("the tree's changelog assembler {script}: {message}")]
    Assembler {
        /// The script.
        script: String,
        /// What went wrong, with its last words.
        message: String,
    },
    /// The tree's assembler refused a lane whose changelog folder holds no
    /// fragment: nothing to release yet.
    #[error("{folder}/ holds no changelog fragment for {version}, and the tree's assembler {script} refused ({said}): the lane has nothing to release yet. Add its picks to the lane file (`pr: N`, `commit: SHA`; each brings its fragment) or a fragment under `changelog.write`, then `lane cut {version} --dry-run` again")]
    NothingToRelease {
        /// The fragment folder.
        folder: String,
        /// The lane's version.
        version: String,
        /// The assembler.
        script: String,
        /// Its own words.
        said: String,
    },
    /// A cut is already in progress in this repository.
    #[error("a cut of {lane} is in progress in this repository: `lane cut --continue` or `lane cut --abort`")]
    CutInProgress {
        /// The lane being cut.
        lane: String,
    },
    /// `--continue`/`--abort` found no cut in progress.
    #[error("no cut is in progress in {path}")]
    NoCutInProgress {
        /// The repository.
        path: PathBuf,
    },
    /// `--continue` found conflicts still unresolved.
    #[error("conflicts remain in {}: resolve them and `git add` them, then `lane cut --continue`", .paths.join(", "))]
    StillConflicted {
        /// The conflicted paths.
        paths: Vec<String>,
    },
    /// The cut state file could not be read or written.
    #[error("cut state {path}")]
    State {
        /// The state file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A tag could not be signed with git's signing configuration.
    #[error("signing the tag: {message}")]
    Sign {
        /// What went wrong, with the signer's last words.
        message: String,
    },
    /// The lane's version is not above a version the line already has.
    #[error("{version} is not above {existing} ({what}): a patch lane releases a version its line has not had")]
    VersionNotAbove {
        /// The lane's version.
        version: String,
        /// The version it is not above.
        existing: String,
        /// Where that version was found (a tag, or the base's version file).
        what: String,
    },
    /// The git command-line tool (used for network transport) failed.
    #[error("`git {args}` failed: {stderr}")]
    GitCli {
        /// The arguments, with credentials redacted.
        args: String,
        /// The tail of its standard error, credentials redacted.
        stderr: String,
    },
}

/// Why creating the `kind` (`branch` or `tag`) `name` without force failed:
/// where it exists, someone made it since lane looked (and lane never
/// moves it); anything else is git's own error.
pub(crate) fn ref_not_created(kind: &'static str, name: &str, source: git2::Error) -> GitError {
    match source.code() {
        git2::ErrorCode::Exists => GitError::RefExists {
            kind,
            name: name.to_owned(),
            existing: "(created concurrently)".into(),
        },
        _ => GitError::Git {
            what: format!("creating {kind} {name}"),
            source,
        },
    }
}

/// The last `lines` non-blank lines a child printed, joined by ` / `, with
/// control characters escaped and at most `max_chars` kept: a failure's
/// message quotes them without letting the child's output run on or move
/// the terminal.
pub(crate) fn output_tail(output: &[u8], lines: usize, max_chars: usize) -> String {
    let text = String::from_utf8_lossy(output);
    let kept: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    kept[kept.len().saturating_sub(lines)..]
        .join(" / ")
        .chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .take(max_chars)
        .collect()
}

/// Shorthand: attach what lane was doing to a libgit2 error.
pub(crate) trait Ctx<T> {
    fn ctx(self, what: impl FnOnce() -> String) -> Result<T, GitError>;
}

impl<T> Ctx<T> for Result<T, git2::Error> {
    fn ctx(self, what: impl FnOnce() -> String) -> Result<T, GitError> {
        self.map_err(|source| GitError::Git {
            what: what(),
            source,
        })
    }
}
