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
    /// 9: another lane command holds the lane and `--no-wait` was given.
    LaneBusy,
    /// 10 (`lane agent --exit-by-outcome`): the mint was refused; the Job
    /// fails at once (its `podFailurePolicy`).
    MintRefused,
    /// 11 (`lane agent --exit-by-outcome`): the mint failed; the Job fails at once.
    MintFailed,
    /// 75 (`lane agent`): another live agent holds the mint folder.
    Claimed,
    /// 130 (`lane agent`): stopped by SIGTERM or SIGINT, no result.
    Interrupted,
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
            Exit::LaneBusy => 9,
            Exit::MintRefused => agent_code(lane_kube_job::EXIT_REFUSED),
            Exit::MintFailed => agent_code(lane_kube_job::EXIT_FAILED),
            Exit::Claimed => agent_code(lane_agent::agent::EXIT_CLAIMED),
            Exit::Interrupted => 130,
        }
    }
}

/// The agent's codes are shared with the Job spec (`podFailurePolicy`) as
/// `i32`; each is a small positive number.
fn agent_code(code: i32) -> u8 {
    u8::try_from(code).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::Exit;

    const ALL: [Exit; 14] = [
        Exit::Ok,
        Exit::Failure,
        Exit::Usage,
        Exit::InvalidInput,
        Exit::GuardRefused,
        Exit::Conflict,
        Exit::Precondition,
        Exit::Findings,
        Exit::Verification,
        Exit::LaneBusy,
        Exit::MintRefused,
        Exit::MintFailed,
        Exit::Claimed,
        Exit::Interrupted,
    ];

    #[test]
    fn every_exit_code_is_in_the_table_of_docs_cli_md() {
        let doc = include_str!("../../../docs/cli.md");
        let table = &doc[doc.find("## Exit codes").expect("the table's heading")..];
        for e in ALL {
            assert!(
                table.contains(&format!("\n| {} |", e.code())),
                "{e:?} ({}) is not in docs/cli.md's exit code table",
                e.code()
            );
        }
    }

    #[test]
    fn the_agents_codes_are_the_ones_the_job_spec_reads() {
        assert_eq!(
            i32::from(Exit::MintRefused.code()),
            lane_kube_job::EXIT_REFUSED
        );
        assert_eq!(
            i32::from(Exit::MintFailed.code()),
            lane_kube_job::EXIT_FAILED
        );
        assert_eq!(
            i32::from(Exit::Claimed.code()),
            lane_agent::agent::EXIT_CLAIMED
        );
    }
}
