//! Documented exit codes. `docs/cli.md` lists the same table; a test keeps
//! them in step. Which error exits with which is decided in `AppError::exit`.

/// One documented process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: the command did what was asked.
    Ok,
    /// 1: an unexpected failure (I/O, git internals); the message says what.
    Failure,
    /// 2: the command line itself was wrong (clap's usage errors).
    Usage,
    /// 3: an input file (lane file, report, trace, artifact tree) is invalid.
    InvalidInput,
    /// 4: a guard refused (wire-v1 divergence, frozen path, tree probe).
    GuardRefused,
    /// 5: a cut stopped on a cherry-pick conflict (aborted or left resumable).
    Conflict,
    /// 6: a precondition failed: dirty work tree, a branch or tag that already
    /// points elsewhere, nothing to continue.
    Precondition,
    /// 7: findings at or above `--fail-on` severity.
    Findings,
    /// 8: a verification failed (version files disagree, wheel mismatch).
    Verification,
}

impl Exit {
    /// The numeric process exit status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Failure => 1,
            Exit::Usage => 2,
            Exit::InvalidInput => 3,
            Exit::GuardRefused => 4,
            Exit::Conflict => 5,
            Exit::Precondition => 6,
            Exit::Findings => 7,
            Exit::Verification => 8,
        }
    }
}
