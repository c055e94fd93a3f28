//! What the agent keeps and says beside a mint's status: the paths a
//! cell names (kept where they are in its private `/tmp`), the notes its
//! record carries (a command that failed under a minted report, a
//! coldness not guaranteed), and the upstream's ledger files kept beside
//! the report.

use std::path::{Path, PathBuf};

use lane_core::layout::file;
use lane_core::ProcessEnd;
use tracing::warn;

use crate::agent::{AgentSpec, LEDGER_DIR};

/// Absolute paths the cell names in its command and environment, as
/// written.
pub(crate) fn named_paths(spec: &AgentSpec) -> Vec<PathBuf> {
    let separator = |c: char| {
        c.is_whitespace()
            || matches!(
                c,
                ':' | '=' | ',' | '\'' | '"' | ';' | '>' | '<' | '&' | '|' | '(' | ')' | '`'
            )
    };
    spec.command
        .iter()
        .chain(spec.env.values())
        .flat_map(|v| v.split(separator))
        .filter(|t| t.starts_with('/'))
        .map(PathBuf::from)
        .collect()
}

/// The paths that stay where they are when the attempt gets its own
/// `/tmp`: each named path, or, where it does not exist yet, its nearest
/// folder that does.
pub(crate) fn kept_paths(named: &[PathBuf]) -> Vec<PathBuf> {
    named
        .iter()
        .filter_map(|t| t.ancestors().find(|a| a.exists()).map(Path::to_owned))
        .collect()
}

/// What the agent saw that the lane's report must say beside the mint's
/// status, in words (the ledger's findings read the same facts off
/// `mint.json`): a command that failed after its report said `minted`, a
/// repeat whose coldness is not guaranteed. (Cells of CPU code on a GPU
/// class are the status's own reason: `failed`.)
pub(crate) fn findings_to_note(
    end: &ProcessEnd,
    report_minted: bool,
    isolation: Option<&lane_core::Isolation>,
    has_entries: bool,
) -> Vec<String> {
    let mut notes = Vec::new();
    if let (true, ProcessEnd::Exited { code }) = (report_minted, end) {
        if *code != 0 {
            notes.push(format!(
                "the command exited {code} after its report said `minted`: the report is \
                 authoritative and its cells were gathered, but the command failed{}",
                if has_entries {
                    " (gen-worker 0.114.0-0.123.0's rig raises AttributeError on \
                     `outcome.artifact` after its child wrote the report; repaired in 0.124.0, \
                     pgw#1352)"
                } else {
                    ""
                }
            ));
        }
    }
    if let Some((lane_core::TmpIsolation::Shared { why }, isolation)) =
        isolation.map(|i| (&i.tmp, i))
    {
        notes.push(format!(
            "coldness not guaranteed ({why}): shared with every other attempt on this machine: {}",
            isolation.shared.join("; ")
        ));
    }
    if let Some(i) = isolation.filter(|i| !i.outside.is_empty()) {
        notes.push(format!(
            "coldness not guaranteed: the cell shares a cache with other attempts: {}",
            i.outside.join("; ")
        ));
    }
    notes
}

/// Keeps the upstream's ledger files beside the report: the compile pool's
/// share reports (`<report's folder>/compile-pool/share-NNN/report.json`,
/// gen-worker 0.114.3-0.126), copied into `ledger/compile-pool/` (each a
/// regular file of at most the report limit).
pub(crate) fn keep_ledger_files(report_path: &Path, dir: &Path) {
    let Some(pool) = report_path.parent().map(|p| p.join("compile-pool")) else {
        return;
    };
    let Ok(shares) = std::fs::read_dir(&pool) else {
        return;
    };
    for share in shares.flatten() {
        let name = share.file_name().to_string_lossy().into_owned();
        let numbered = name
            .strip_prefix("share-")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        let from = share.path().join(file::REPORT);
        let small = std::fs::symlink_metadata(&from)
            .is_ok_and(|m| m.is_file() && m.len() <= crate::report::REPORT_LIMIT);
        if !numbered || !small {
            continue;
        }
        let to = dir.join(LEDGER_DIR).join("compile-pool").join(&name);
        let kept =
            std::fs::create_dir_all(&to).and_then(|()| std::fs::copy(&from, to.join(file::REPORT)));
        if let Err(e) = kept {
            warn!(share = %from.display(), error = %e, "could not keep a share report");
        }
    }
}
