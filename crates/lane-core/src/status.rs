//! How a mint ended, in ONE vocabulary: the upstream's report statuses
//! (`gen_worker.mint_process`), what lane's agent classifies an attempt as,
//! what `mint.json` and `summary.json` record, and what every renderer
//! shows. With it, the retry table.
//!
//! | status | retried |
//! | --- | --- |
//! | `minted`, `abandoned` | never (done) |
//! | `refused`, `failed` | never: deterministic, another attempt gives the same answer |
//! | `crashed` (no report, a signal, a timeout, or the report says so) | `retry.crashed` times (default once) |
//! | `resource` | `retry.resource` times, after `retry.resource_backoff_s` |

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How one mint attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MintStatus {
    /// A sealed cell.
    Minted,
    /// Deterministic refusal; never retried.
    Refused,
    /// The child caught and named the error; never retried.
    Failed,
    /// A shortfall; retried after a backoff.
    Resource,
    /// No classification (no report, killed, timed out); worth one more attempt.
    Crashed,
    /// Not a failure: the mint was abandoned on purpose.
    Abandoned,
}

impl MintStatus {
    /// Every status, in the order tables list them.
    pub const ALL: [MintStatus; 6] = [
        MintStatus::Minted,
        MintStatus::Refused,
        MintStatus::Failed,
        MintStatus::Resource,
        MintStatus::Crashed,
        MintStatus::Abandoned,
    ];

    /// The status a report's `status` names; `None` for one lane does not know.
    pub fn parse(s: &str) -> Option<MintStatus> {
        MintStatus::ALL.into_iter().find(|m| m.as_str() == s)
    }

    /// The name as reports write it.
    pub fn as_str(self) -> &'static str {
        match self {
            MintStatus::Minted => "minted",
            MintStatus::Refused => "refused",
            MintStatus::Failed => "failed",
            MintStatus::Resource => "resource",
            MintStatus::Crashed => "crashed",
            MintStatus::Abandoned => "abandoned",
        }
    }

    /// Whether it proves the cell (green).
    pub fn is_green(self) -> bool {
        self == MintStatus::Minted
    }

    /// Whether it fails a lane: everything but `minted` and `abandoned`.
    pub fn fails_lane(self) -> bool {
        !matches!(self, MintStatus::Minted | MintStatus::Abandoned)
    }
}

impl std::fmt::Display for MintStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What ended the mint's process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ProcessEnd {
    /// It exited with a code.
    Exited {
        /// The code.
        code: i32,
    },
    /// A signal ended it.
    Signaled {
        /// The signal number.
        signal: i32,
    },
    /// It ran past the timeout and its process group was killed.
    TimedOut {
        /// The timeout in seconds.
        after_s: u64,
    },
    /// It could not be started.
    SpawnFailed {
        /// Why.
        error: String,
    },
}

/// What the agent read off the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ReportState {
    /// No report was written.
    Absent,
    /// The report is not valid JSON or has no usable `status`.
    Invalid {
        /// Why.
        reason: String,
    },
    /// The report is for another cell than the one minted.
    WrongCell {
        /// The cell the report names.
        found: String,
    },
    /// A readable report with this status.
    Status {
        /// The `status` field (authoritative), as written.
        status: String,
        /// The report's `detail`: why it ended (raw; bounded when shown).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
        /// The report's `phase`: where it ended.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        phase: Option<String>,
    },
}

/// How often each retryable status is retried (the lane file's `retry`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RetryPolicy {
    /// Retries after `crashed` (no classification; also a killed or timed-out mint). Default 1.
    #[serde(default = "one")]
    pub crashed: u32,
    /// Retries after `resource` (a shortfall). Default 1.
    #[serde(default = "one")]
    pub resource: u32,
    /// Seconds to wait before retrying a `resource` outcome. Default 60.
    #[serde(default = "sixty")]
    pub resource_backoff_s: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            crashed: one(),
            resource: one(),
            resource_backoff_s: sixty(),
        }
    }
}

fn one() -> u32 {
    1
}
fn sixty() -> u64 {
    60
}

/// Whether to try again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum RetryDecision {
    /// This is the final attempt.
    No,
    /// Try again now.
    Now,
    /// Try again after this many seconds.
    After {
        /// Seconds to wait.
        seconds: u64,
    },
}

/// The retry table: `attempt` is the attempt that just ended (from 1).
pub fn retry(status: MintStatus, attempt: u32, policy: &RetryPolicy) -> RetryDecision {
    let retries_done = attempt.saturating_sub(1);
    match status {
        MintStatus::Crashed if retries_done < policy.crashed => RetryDecision::Now,
        MintStatus::Resource if retries_done < policy.resource => RetryDecision::After {
            seconds: policy.resource_backoff_s,
        },
        _ => RetryDecision::No,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_retry_table_per_status() {
        let p = RetryPolicy::default();
        let cases = [
            (MintStatus::Minted, RetryDecision::No),
            (MintStatus::Refused, RetryDecision::No),
            (MintStatus::Failed, RetryDecision::No),
            (MintStatus::Resource, RetryDecision::After { seconds: 60 }),
            (MintStatus::Crashed, RetryDecision::Now),
            (MintStatus::Abandoned, RetryDecision::No),
        ];
        for (s, r) in cases {
            assert_eq!(retry(s, 1, &p), r, "{s}");
        }
        // Crashed and resource are worth exactly one more attempt by default.
        assert_eq!(retry(MintStatus::Crashed, 2, &p), RetryDecision::No);
        assert_eq!(retry(MintStatus::Resource, 2, &p), RetryDecision::No);
    }

    #[test]
    fn statuses_round_trip_and_only_minted_and_abandoned_keep_a_lane_green() {
        for s in MintStatus::ALL {
            assert_eq!(MintStatus::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
        }
        let failing: Vec<_> = MintStatus::ALL
            .into_iter()
            .filter(|s| s.fails_lane())
            .collect();
        assert_eq!(
            failing,
            [
                MintStatus::Refused,
                MintStatus::Failed,
                MintStatus::Resource,
                MintStatus::Crashed
            ]
        );
        assert_eq!(MintStatus::parse("weird"), None);
    }
}
