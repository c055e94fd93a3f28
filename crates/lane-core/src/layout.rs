//! Where a lane's run, results and history live: every path, file name and
//! store key of them, spelled here and nowhere else.
//!
//! Pure: each function joins names into a path or a key; none reads or
//! writes. The trees it describes:
//!
//! ```text
//! <out>/lanes/<lane>/               lane_out
//!   runs.sqlite                     runs_db: the attempts' durable record
//!   mints/<cell>/<gpu>/r<N>/a<M>/   mint_dir: one attempt's folder
//!     agent.lock agent.log mint.pid file::AGENT_LOCK, AGENT_LOG, MINT_GROUP
//!     stdout.log ended.json iso/    file::STDOUT, ENDED, ISO
//!   results/                        results_dir
//!     summary.json                  file::SUMMARY
//!     <cell>/<gpu>/r<N>/            slot_dir
//!       mint.json report.json ...   file::MINT_RECORD, file::REPORT
//!       artifacts/                  file::ARTIFACTS: the gathered cell
//!
//! <repo>/lanes/<lane>.yaml           lane_file
//!
//! store: lanes/<lane>/<commit>/<file>                    staged_key
//!        lanes/<lane>/[runs/<run>/]                      lane_prefix
//!          mints/<cell>/<gpu>/r<N>/                      slot_prefix
//!            a<M>/bundle.zip a<M>/claim.json             bundle_key, claim_key
//!            a<M>/files/<sha256>                         stored_key
//!        history/<line>/runs/<run>.jsonl                 history_run_key
//!        history/<line>/acks/<run>.<sha12>.jsonl         history_ack_key
//! ```

use std::path::{Path, PathBuf};

use crate::MintId;

/// The file names lane writes and reads in a slot, a results folder, a
/// bundle and a lane's output folder.
pub mod file {
    /// The upstream's mint report, in its mint folder and in a slot.
    pub const REPORT: &str = "report.json";
    /// lane's record of a slot's mint ([`crate::MintRecord`]).
    pub const MINT_RECORD: &str = "mint.json";
    /// A results folder's summary ([`crate::Summary`]).
    pub const SUMMARY: &str = "summary.json";
    /// An attempt's result inside its bundle ([`crate::AgentResult`]).
    pub const RESULT: &str = "result.json";
    /// A bundle's manifest ([`crate::BundleManifest`]).
    pub const MANIFEST: &str = "manifest.json";
    /// An attempt's result bundle in the store.
    pub const BUNDLE: &str = "bundle.zip";
    /// An attempt's claim in the store (write-once).
    pub const CLAIM: &str = "claim.json";
    /// A lane's durable record of attempts.
    pub const RUNS_DB: &str = "runs.sqlite";
    /// The lock one lane command at a time holds on a lane's output folder.
    pub const LANE_LOCK: &str = "lane.lock";
    /// A lane's attempts' folders, under its output folder.
    pub const MINTS: &str = "mints";
    /// An agent's claim on its attempt's folder (its pid and start time).
    pub const AGENT_LOCK: &str = "agent.lock";
    /// An agent's own log, in its attempt's folder.
    pub const AGENT_LOG: &str = "agent.log";
    /// The upstream's ledger files lane keeps beside a slot's report (the
    /// compile pool's share reports, the TORCH_TRACE logs), in an attempt's
    /// folder and in its slot.
    pub const LEDGER: &str = "ledger";
    /// The mint's stdout, in its attempt's folder.
    pub const STDOUT: &str = "stdout.log";
    /// The mint's process group (leader pid and start time), recorded in
    /// its attempt's folder before the mint starts.
    pub const MINT_GROUP: &str = "mint.pid";
    /// The mint's end, recorded before lane gathers anything of it.
    pub const ENDED: &str = "ended.json";
    /// The attempt's own roots and private `/tmp`, in its folder.
    pub const ISO: &str = "iso";
    /// The folder bound on `/tmp` in the attempt's private mount namespace.
    pub const SLASH_TMP: &str = "iso/slash-tmp";
    /// Holds one byte until the attempt's private `/tmp` wrapper becomes
    /// the mint.
    pub const ENTERED: &str = "iso/entered";
    /// The environment a recorded run kept beside its results folder.
    pub const ENV: &str = "env.json";
    /// The mint child's standard error, kept with its report.
    pub const STDERR: &str = "stderr.log";
    /// A slot's gathered cell files.
    pub const ARTIFACTS: &str = "artifacts";
    /// A lane's results folder inside its output folder.
    pub const RESULTS: &str = "results";
    /// The folder of every lane's output, under `--out`.
    pub const LANES: &str = "lanes";
    /// `lane report`'s comment, beside its JSON and page.
    pub const LANE_REPORT_MD: &str = "report.md";
    /// `lane report`'s JSON (a lane's output folder, not a slot's
    /// [`REPORT`]).
    pub const LANE_REPORT_JSON: &str = "report.json";
    /// `lane report`'s page.
    pub const LANE_REPORT_HTML: &str = "report.html";
}

/// A lane's file in a repository (or any folder): `<dir>/lanes/<lane>.yaml`.
pub fn lane_file(dir: &Path, lane: &str) -> PathBuf {
    dir.join(file::LANES).join(format!("{lane}.yaml"))
}

/// The store key of a file staged for `lane` at `commit` (the patch wheel
/// and its manifest): `lanes/<lane>/<commit>/<file>`.
pub fn staged_key(lane: &str, commit: &str, file: &str) -> String {
    format!("{}/{lane}/{commit}/{file}", file::LANES)
}

/// A lane's output folder: `<out>/lanes/<lane>`.
pub fn lane_out(out: &Path, lane: &str) -> PathBuf {
    out.join(file::LANES).join(lane)
}

/// A lane's results folder: `<lane out>/results`.
pub fn results_dir(lane_out: &Path) -> PathBuf {
    lane_out.join(file::RESULTS)
}

/// `lane report`'s JSON model and page beside its markdown at `markdown`:
/// named after it (`X.md` gives `X.json` and `X.html`), so a report written
/// elsewhere with `--out` never replaces another report's files. The
/// default markdown, [`file::LANE_REPORT_MD`], gives [`file::LANE_REPORT_JSON`]
/// and [`file::LANE_REPORT_HTML`].
pub fn report_siblings(markdown: &Path) -> (PathBuf, PathBuf) {
    (
        markdown.with_extension("json"),
        markdown.with_extension("html"),
    )
}

/// The lock of a lane's output folder: `<lane out>/lane.lock`.
pub fn lane_lock(lane_out: &Path) -> PathBuf {
    lane_out.join(file::LANE_LOCK)
}

/// A lane's durable record of attempts: `<lane out>/runs.sqlite`.
pub fn runs_db(lane_out: &Path) -> PathBuf {
    lane_out.join(file::RUNS_DB)
}

/// One attempt's folder: `<lane out>/mints/<cell>/<gpu>/r<N>/a<M>`.
pub fn mint_dir(lane_out: &Path, id: &MintId) -> PathBuf {
    lane_out.join(file::MINTS).join(id.rel_dir())
}

/// A results folder's summary: `<results>/summary.json`.
pub fn summary_path(results: &Path) -> PathBuf {
    results.join(file::SUMMARY)
}

/// One slot's folder in a results folder: `<results>/<cell>/<gpu>/r<N>`.
pub fn slot_dir(results: &Path, cell: &str, gpu: &str, repeat: u32) -> PathBuf {
    results.join(cell).join(gpu).join(repeat_name(repeat))
}

/// A cold repeat's folder name: `r<N>`.
pub fn repeat_name(repeat: u32) -> String {
    format!("r{repeat}")
}

/// The store prefix of a lane's bundles: `lanes/<lane>/` for the local
/// backend, `lanes/<lane>/runs/<run>/` for a named run (Kubernetes: each
/// run mints anew and never reads another run's bundles).
pub fn lane_prefix(lane: &str, run: Option<&str>) -> String {
    match run {
        Some(run) => format!("{}/{lane}/runs/{run}/", file::LANES),
        None => format!("{}/{lane}/", file::LANES),
    }
}

/// The store prefix of every bundle of one slot (all its attempts):
/// `<lane prefix>mints/<cell>/<gpu>/r<N>/`.
pub fn slot_prefix(id: &MintId, run: Option<&str>) -> String {
    format!(
        "{}mints/{}/{}/{}/",
        lane_prefix(&id.lane, run),
        id.cell,
        id.gpu,
        repeat_name(id.repeat)
    )
}

/// The store key of an attempt's bundle:
/// `<slot prefix>a<M>/bundle.zip`.
pub fn bundle_key(id: &MintId, run: Option<&str>) -> String {
    format!("{}a{}/{}", slot_prefix(id, run), id.attempt, file::BUNDLE)
}

/// The store key of a file of an attempt that travels beside its bundle
/// (a cell, or a file too large to inline):
/// `<slot prefix>a<M>/files/<sha256>`. Named by its content, so a key
/// never holds two contents, and the bundle's manifest says whose it is.
pub fn stored_key(id: &MintId, run: Option<&str>, sha256: &str) -> String {
    format!("{}a{}/files/{sha256}", slot_prefix(id, run), id.attempt)
}

/// The store key of an attempt's claim: `<slot prefix>a<M>/claim.json`,
/// written (write-once) by the pod that takes the attempt number.
pub fn claim_key(id: &MintId, run: Option<&str>) -> String {
    format!("{}a{}/{}", slot_prefix(id, run), id.attempt, file::CLAIM)
}

/// The store prefix every line's history lives under: `history/`.
pub const HISTORY_PREFIX: &str = "history/";

/// The store prefix of a release line's runs: `history/<line>/runs/`.
/// `line` must already be one safe key segment.
pub fn history_runs_prefix(line: &str) -> String {
    format!("{HISTORY_PREFIX}{line}/runs/")
}

/// The store prefix of a release line's acknowledgements:
/// `history/<line>/acks/`.
pub fn history_acks_prefix(line: &str) -> String {
    format!("{HISTORY_PREFIX}{line}/acks/")
}

/// The store key of one run's rows: `history/<line>/runs/<run>.jsonl`.
pub fn history_run_key(line: &str, run: &str) -> String {
    format!("{}{run}.jsonl", history_runs_prefix(line))
}

/// The store key of one acknowledgement of `run`, named by the first 12
/// hex digits of its content's sha256:
/// `history/<line>/acks/<run>.<sha12>.jsonl`.
pub fn history_ack_key(line: &str, run: &str, sha12: &str) -> String {
    format!("{}{run}.{sha12}.jsonl", history_acks_prefix(line))
}

/// The store prefix of every acknowledgement of `run`:
/// `history/<line>/acks/<run>.`.
pub fn history_acks_of(line: &str, run: &str) -> String {
    format!("{}{run}.", history_acks_prefix(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_siblings_are_named_after_the_markdown() {
        let (json, html) = report_siblings(
            Path::new("out/lanes/0.93.3")
                .join(file::LANE_REPORT_MD)
                .as_path(),
        );
        assert_eq!(
            json,
            Path::new("out/lanes/0.93.3").join(file::LANE_REPORT_JSON)
        );
        assert_eq!(
            html,
            Path::new("out/lanes/0.93.3").join(file::LANE_REPORT_HTML)
        );
        let (json, html) = report_siblings(Path::new("elsewhere/x.md"));
        assert_eq!(
            (json.to_str(), html.to_str()),
            (Some("elsewhere/x.json"), Some("elsewhere/x.html"))
        );
    }

    fn id() -> MintId {
        MintId {
            lane: "0.93.3".into(),
            cell: "sdxl".into(),
            gpu: "L4".into(),
            repeat: 2,
            attempt: 3,
        }
    }

    #[test]
    fn store_keys_nest_under_the_lane_and_the_run() {
        assert_eq!(lane_prefix("0.93.3", None), "lanes/0.93.3/");
        assert_eq!(lane_prefix("0.93.3", Some("k1")), "lanes/0.93.3/runs/k1/");
        assert_eq!(slot_prefix(&id(), None), "lanes/0.93.3/mints/sdxl/L4/r2/");
        assert_eq!(
            bundle_key(&id(), Some("k1")),
            "lanes/0.93.3/runs/k1/mints/sdxl/L4/r2/a3/bundle.zip"
        );
        assert_eq!(
            claim_key(&id(), None),
            "lanes/0.93.3/mints/sdxl/L4/r2/a3/claim.json"
        );
        assert_eq!(
            stored_key(&id(), None, "ab12"),
            "lanes/0.93.3/mints/sdxl/L4/r2/a3/files/ab12"
        );
        assert_eq!(history_run_key("0.93", "r0"), "history/0.93/runs/r0.jsonl");
        assert_eq!(history_acks_prefix("0.93"), "history/0.93/acks/");
        assert_eq!(
            staged_key("0.93.3", "abc", "w.whl"),
            "lanes/0.93.3/abc/w.whl"
        );
    }

    #[test]
    fn paths_nest_under_the_lanes_output_folder() {
        assert_eq!(
            lane_file(Path::new("r"), "0.93.3"),
            Path::new("r/lanes/0.93.3.yaml")
        );
        let out = lane_out(Path::new("out"), "0.93.3");
        assert_eq!(out, Path::new("out/lanes/0.93.3"));
        assert_eq!(runs_db(&out), Path::new("out/lanes/0.93.3/runs.sqlite"));
        let results = results_dir(&out);
        assert_eq!(
            slot_dir(&results, "sdxl", "L4", 1),
            Path::new("out/lanes/0.93.3/results/sdxl/L4/r1")
        );
        assert_eq!(
            summary_path(&results),
            Path::new("out/lanes/0.93.3/results/summary.json")
        );
    }
}
