//! Which gen-worker era wrote a report, recognised from the report's own
//! fields (never from a version string: the report carries none). Read
//! tag by tag from the upstream's source (`docs/ledger.md`, *Eras*):
//!
//! | line | what tells it | sub-changes |
//! | --- | --- | --- |
//! | 0.93-0.94 | `MintReport.recipe` (the echo, removed in 0.95) | 0.94.1: `autotune_s` in an entry's phases (pgw#1006) |
//! | 0.95-0.113 | `cell_key`, no `recipe`, no `entries` | 0.100: the footprint fields (pgw#1080); 0.113: SPANS_V 2's `parent_other_s` |
//! | 0.114-0.126 | `entries` (`[key, path, sha256]`, pgw#1176) | 0.114.3: `totals.compile_all_s`, the table built from no row (pgw#1356); 0.117: `compiled_graph_key`, `compiler_owner` `torch-compiled-graphs`; 0.119: `compiler_owner` `torchcg`; 0.124: flat per-class rows with `reuse_s` (pgw#1356 fixed) |
//! | 0.127+ | a `gen-worker compile --verdict` file: no MintReport at all | |

use serde::Serialize;

use super::{AotTable, MintLedger};

/// A release line of the upstream, as the report shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum EraLine {
    /// 0.93-0.94: both recipes, the `recipe` echo.
    #[serde(rename = "0.93-0.94")]
    V093,
    /// 0.95-0.113: aot only, one packed cell (`artifact`).
    #[serde(rename = "0.95-0.113")]
    V095,
    /// 0.114-0.126: one packed cell per graph class (`entries`).
    #[serde(rename = "0.114-0.126")]
    V114,
    /// 0.127 on: no rig, no report: `gen-worker compile` and its verdict.
    #[serde(rename = "0.127+")]
    V127,
}

impl EraLine {
    /// The line as written (`0.114-0.126`).
    pub fn as_str(self) -> &'static str {
        match self {
            EraLine::V093 => "0.93-0.94",
            EraLine::V095 => "0.95-0.113",
            EraLine::V114 => "0.114-0.126",
            EraLine::V127 => "0.127+",
        }
    }
}

/// The era a report was written in, and why lane says so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Era {
    /// The release line.
    pub line: EraLine,
    /// The latest change within the line the report shows (`0.124`), when
    /// it shows one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<&'static str>,
    /// The fields that show it, in words.
    pub evidence: Vec<String>,
}

impl Era {
    /// `0.114-0.126 (0.124 on)`.
    pub fn label(&self) -> String {
        match self.since {
            Some(s) => format!("{} ({s} on)", self.line.as_str()),
            None => self.line.as_str().to_owned(),
        }
    }
}

/// Which of the era-telling top-level keys a report has.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct EraKeys {
    pub recipe: bool,
    pub entries: bool,
    pub cell_key: bool,
    pub compiled_graph_key: bool,
    pub footprint: bool,
}

fn entry_has(t: &AotTable, key: &str) -> bool {
    t.entries.iter().any(|e| {
        e.phase(key).is_some()
            || e.other.iter().any(|f| f.name == key)
            || (key == "reuse_s" && e.reuse_s.is_some())
    })
}

/// The era of a report with these keys and this ledger; `None` when none
/// of the telling fields is there (lane's own test mints, the probe's
/// records).
pub(crate) fn recognise(keys: EraKeys, ledger: &MintLedger) -> Option<Era> {
    let table = match ledger {
        MintLedger::AotTableV1(t) => Some(t),
        MintLedger::CompileVerdict(_) => {
            return Some(Era {
                line: EraLine::V127,
                since: None,
                evidence: vec![
                    "a `gen-worker compile --verdict` file (`rc`, `specializations`): 0.127 \
                     deleted the rig, the mint child's MintReport and its phase file"
                        .into(),
                ],
            })
        }
        _ => None,
    };
    let mut evidence = Vec::new();
    let owner = table.and_then(|t| t.posture.compiler_owner.as_deref());
    if keys.entries {
        evidence.push("`entries` ([key, path, sha256] per packed graph class, pgw#1176)".into());
        let flat = table.is_some_and(|t| t.n_entries.unwrap_or(0) > 0 && entry_has(t, "reuse_s"));
        let compile_all = table.is_some_and(|t| t.total("compile_all_s").is_some());
        let since = if flat {
            evidence.push(
                "flat per-class table rows with `reuse_s` (the table rebuilt from the pool's \
                 class spans, pgw#1356)"
                    .into(),
            );
            Some("0.124")
        } else if owner == Some("torchcg") {
            evidence.push("`compiler_owner: torchcg` (torchcg vendored)".into());
            Some("0.119")
        } else if keys.compiled_graph_key || owner == Some("torch-compiled-graphs") {
            evidence.push(
                "`compiled_graph_key` and `compiler_owner: torch-compiled-graphs` (`cell_key` \
                 renamed)"
                    .into(),
            );
            Some("0.117")
        } else if compile_all {
            evidence.push(
                "`totals.compile_all_s` (the compile pool always runs, pgw#1215 step 2b)".into(),
            );
            Some("0.114.3")
        } else {
            None
        };
        return Some(Era {
            line: EraLine::V114,
            since,
            evidence,
        });
    }
    if keys.recipe {
        evidence
            .push("the `recipe` echo (removed in 0.95 with the dynamo recipe, pgw#1010)".into());
        let autotune = table.is_some_and(|t| entry_has(t, "autotune_s"));
        if autotune {
            evidence.push("`autotune_s` in an entry's phases (pgw#1006)".into());
        }
        return Some(Era {
            line: EraLine::V093,
            since: autotune.then_some("0.94.1"),
            evidence,
        });
    }
    if keys.cell_key {
        evidence.push("`cell_key` with no `recipe` echo and no `entries`".into());
        let spans2 = table.is_some_and(|t| entry_has(t, "parent_other_s"));
        let since = if spans2 {
            evidence.push("SPANS_V 2's `parent_other_s` in a pooled entry".into());
            Some("0.113")
        } else if keys.footprint {
            evidence.push("the fake-export footprint fields (pgw#1080)".into());
            Some("0.100")
        } else {
            None
        };
        return Some(Era {
            line: EraLine::V095,
            since,
            evidence,
        });
    }
    None
}
