//! Every way building, verifying, staging or publishing the wheel can fail,
//! one documented variant each. Refusals show the lane's value and the
//! wheel's value side by side. No variant carries the index token.

use std::path::PathBuf;

/// A failure of `lane wheel` or `lane publish`'s library side.
#[derive(Debug, thiserror::Error)]
pub enum WheelError {
    /// libgit2 failed while reading the lane's tree.
    #[error("git: {what}")]
    Git {
        /// What lane was doing.
        what: String,
        /// libgit2's error.
        #[source]
        source: git2::Error,
    },
    /// The lane branch does not exist (the lane has not been cut).
    #[error("branch `{branch}` does not exist: run `lane cut` first")]
    NoBranch {
        /// The branch name.
        branch: String,
    },
    /// The tree has no usable `pyproject.toml` `[project] name`.
    #[error("the lane tree's pyproject.toml has no [project] name")]
    NoProjectName,
    /// The tree's `requires-python` excludes the interpreter uv builds with.
    #[error("the lane tree's {file} says requires-python = \"{specifier}\", but the interpreter uv builds with, {}, is {found}: a wheel is built only with a Python the project supports; install one (`uv python install` with a version the specifier allows) so that `uv python find` finds it, then run `lane wheel` again", .python.display())]
    PythonUnsupported {
        /// The file the specifier is read from (`pyproject.toml`).
        file: &'static str,
        /// The specifier, as written.
        specifier: String,
        /// The interpreter `uv python find` gave.
        python: PathBuf,
        /// What it says its version is (`Python 3.11.7`).
        found: String,
    },
    /// The tree's `requires-python` is not a PEP 440 specifier set.
    #[error("the lane tree's {file} says requires-python = \"{specifier}\", which is not a PEP 440 specifier set ({why}): fix it on the lane's line")]
    RequiresPythonInvalid {
        /// The file the specifier is read from (`pyproject.toml`).
        file: &'static str,
        /// The specifier, as written.
        specifier: String,
        /// Why it does not read.
        why: String,
    },
    /// A filesystem operation failed.
    #[error("i/o: {what}")]
    Io {
        /// What lane was doing.
        what: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// `$LANE_UV` is set but names no file.
    #[error("LANE_UV is {}, which is not a file: point it at uv, or unset it to let lane find or install one", .path.display())]
    LaneUvNotAFile {
        /// What `$LANE_UV` says.
        path: PathBuf,
    },
    /// `uv` is not on PATH nor in the tools folder and could not be installed.
    #[error("uv is not available and installing it into {tools} failed: {why}")]
    NoUv {
        /// The tools folder.
        tools: PathBuf,
        /// What went wrong.
        why: String,
    },
    /// `uv build` failed; the log's tail says why.
    #[error("uv build failed ({status}); the last lines of its log:\n{log_tail}")]
    BuildFailed {
        /// The exit status.
        status: String,
        /// The last lines of its stdout and stderr.
        log_tail: String,
    },
    /// `uv build` succeeded but left no single `.whl`.
    #[error("uv build left {count} wheel files in {dir}, expected exactly one")]
    NoWheel {
        /// The output folder.
        dir: PathBuf,
        /// How many `.whl` files were there.
        count: usize,
    },
    /// The wheel is not a readable zip, or lacks its `.dist-info` files.
    #[error("the wheel {wheel} is malformed: {why}")]
    Malformed {
        /// The wheel's file name.
        wheel: String,
        /// What is wrong.
        why: String,
    },
    /// The distribution name or version (in the file name or METADATA)
    /// differs from the lane's.
    #[error("{place} {field}: the lane says `{expected}`, the wheel says `{found}`")]
    IdentityMismatch {
        /// `file name` or `METADATA`.
        place: &'static str,
        /// `name` or `version`.
        field: &'static str,
        /// The lane's value.
        expected: String,
        /// The wheel's value.
        found: String,
    },
    /// A file's sha256 or size differs from what RECORD lists.
    #[error("RECORD {field} of {path}: RECORD says `{recorded}`, the file is `{actual}`")]
    RecordMismatch {
        /// The file inside the wheel.
        path: String,
        /// `sha256` or `size`.
        field: &'static str,
        /// RECORD's value.
        recorded: String,
        /// The file's value.
        actual: String,
    },
    /// A file is in the wheel but not in RECORD, or the other way round.
    #[error("{path} is {where_}")]
    RecordIncomplete {
        /// The file.
        path: String,
        /// `in the wheel but not in RECORD` or `in RECORD but not in the wheel`.
        where_: &'static str,
    },
    /// A package file's bytes differ from the lane tree's blob.
    #[error("{path} differs from the lane tree's {tree_path}: tree blob {tree_blob}, wheel file hashes to blob {wheel_blob}")]
    PackageFileDiffers {
        /// The file inside the wheel.
        path: String,
        /// The tree path it maps to.
        tree_path: String,
        /// The tree's blob id.
        tree_blob: String,
        /// The git blob id of the wheel's bytes.
        wheel_blob: String,
    },
    /// A package file has no counterpart in the lane tree.
    #[error("{path} is in the wheel but no file of the lane tree ends with that path")]
    NotInTree {
        /// The file inside the wheel.
        path: String,
    },
    /// A file of the lane's package folder is missing from the wheel.
    #[error("{tree_path} is in the lane tree's package but not in the wheel (expected {path})")]
    MissingFromWheel {
        /// The tree path.
        tree_path: String,
        /// Where it should be in the wheel.
        path: String,
    },
    /// The artifact store refused or failed.
    #[error(transparent)]
    Store(#[from] lane_store::StoreError),
    /// A manifest or record could not be read or written as JSON.
    #[error("{what} is not valid JSON")]
    Json {
        /// Which document.
        what: String,
        /// serde's error.
        #[source]
        source: serde_json::Error,
    },
    /// `uv publish` did not upload the wheel (the index refused it, or could
    /// not be reached).
    #[error("uploading to {url}: uv publish {status}: {said}")]
    IndexRefused {
        /// The upload URL (without credentials).
        url: String,
        /// How `uv publish` ended.
        status: String,
        /// Its last words, without the token.
        said: String,
    },
}

pub(crate) fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> WheelError {
    let what = what.into();
    move |source| WheelError::Io { what, source }
}

pub(crate) fn git(what: impl Into<String>) -> impl FnOnce(git2::Error) -> WheelError {
    let what = what.into();
    move |source| WheelError::Git { what, source }
}
