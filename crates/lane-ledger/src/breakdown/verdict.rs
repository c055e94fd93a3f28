//! The 0.127+ ledger: each specialization's wall (`wall_s`, the whole of
//! `satisfy` in `cli/compile.py`: the lease, the mint child, the publish
//! and the witness) divided into the compile its child's TORCH_TRACE timed
//! (`compile_s`, the child's `compilation_metrics`) and the named residual
//! `outside_compile_s` (the child's start, `torch.export.load`, the
//! package, the publish, the witness: what no trace times), never clamped.
//!
//! Which log is whose is read from evidence, never from order: every mint
//! child writes its own `dedicated_log_torch_trace_*` log, the log's
//! `graph_dump` records name the code files its compile wrote by their
//! content hashes, and the package the child produced keeps those very
//! names under `data/aotinductor/<graph>/` (torchcg names the package after
//! the specialization). A log is a specialization's when its dumped files
//! are members of that specialization's package and of no other's. The
//! packages are read by the caller (a gathered `<graph>.pt2`, or
//! `compiled-graphs/<graph[:16]>/model.pt2` beside a verdict) and handed
//! in as their member paths ([`GraphPackage`]).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::partition::{Partition, Term};
use crate::report::CompileVerdict;
use crate::trace::TraceMetrics;

/// The residual of a specialization's wall: what no trace timed.
pub const OUTSIDE_COMPILE: &str = "outside_compile_s";

/// A compiled graph's package, as its member paths
/// (`model/data/aotinductor/cg-graph-v1-…/cwsazpfk….wrapper.cpp`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraphPackage {
    /// Where the caller found it (a file name), for the evidence's words.
    pub source: String,
    /// Its member paths, as the archive lists them.
    pub members: Vec<String>,
}

/// A TORCH_TRACE compile record, by where it is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompileRef {
    /// The log.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Its line there.
    pub line: u64,
    /// Its wall, when it measured one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_s: Option<f64>,
}

/// One specialization's ledger.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpecializationLedger {
    /// The graph identity, as the verdict writes it.
    pub graph: String,
    /// `wall_s` = `compile_s` + `outside_compile_s`; absent without a
    /// wall. `compile_s` is listed `unobserved` when no log ties to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition: Option<Partition>,
    /// The compile records tied to it.
    pub compiles: Vec<CompileRef>,
    /// Why they are its, in words; absent when none are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
}

/// A compile record tied to no specialization, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnmatchedCompile {
    /// The record.
    pub compile: CompileRef,
    /// Why it is nobody's.
    pub reason: String,
}

/// The verdict's ledger: each specialization's partition, the whole's, and
/// the trace's compile records that belong to none.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerdictLedger {
    /// One per specialization, in the verdict's order.
    pub specializations: Vec<SpecializationLedger>,
    /// The sum of the walls divided the same way, when every wall is
    /// there and every specialization with a wall has its compile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whole: Option<Partition>,
    /// Compile records tied to no specialization.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmatched: Vec<UnmatchedCompile>,
}

/// What a log's dumped files say it is.
enum LogOwner {
    /// One specialization's, and why (the file and the member holding it).
    Graph(String, String),
    /// Files of several specializations' packages.
    Ambiguous(Vec<String>),
    /// No file of any package beside the verdict.
    Nobody,
}

/// Which specializations' packages hold each file name, and where: a
/// member path's folder that is a specialization's graph names it.
type Owners<'a> = BTreeMap<String, BTreeMap<&'a str, String>>;

fn owners_by_file<'a>(verdict: &'a CompileVerdict, packages: &[GraphPackage]) -> Owners<'a> {
    let graphs: BTreeSet<&str> = verdict
        .specializations
        .iter()
        .map(|s| s.graph.as_str())
        .filter(|g| !g.is_empty())
        .collect();
    let mut out: Owners<'a> = BTreeMap::new();
    for p in packages {
        for m in &p.members {
            let mut parts: Vec<&str> = m.split('/').filter(|c| !c.is_empty()).collect();
            let Some(file) = parts.pop() else { continue };
            for dir in parts {
                if let Some(g) = graphs.get(dir) {
                    out.entry(file.to_owned())
                        .or_default()
                        .entry(g)
                        .or_insert_with(|| format!("{} holds as {m}", p.source));
                }
            }
        }
    }
    out
}

fn log_owner(dumped: &[&str], owners: &Owners<'_>) -> LogOwner {
    let mut seen: BTreeMap<&str, String> = BTreeMap::new();
    for file in dumped {
        for (g, held) in owners.get(*file).into_iter().flatten() {
            seen.entry(g)
                .or_insert_with(|| format!("{file}, which {held}"));
        }
    }
    match seen.len() {
        0 => LogOwner::Nobody,
        1 => {
            let (g, why) = seen.into_iter().next().unwrap_or_default();
            LogOwner::Graph(g.to_owned(), why)
        }
        _ => LogOwner::Ambiguous(seen.into_keys().map(str::to_owned).collect()),
    }
}

/// The ledger of `verdict`, its compiles tied from `trace` through
/// `packages`.
pub fn verdict_ledger(
    verdict: &CompileVerdict,
    trace: Option<&TraceMetrics>,
    packages: &[GraphPackage],
) -> VerdictLedger {
    let owners = owners_by_file(verdict, packages);
    // Each labelled log's dumped files, then its owner.
    let mut dumped: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for d in trace.map_or(&[][..], |t| &t.graph_dumps) {
        if let Some(src) = d.source.as_deref() {
            dumped.entry(src).or_default().push(d.file.as_str());
        }
    }
    let mut by_graph: BTreeMap<String, (Vec<CompileRef>, BTreeSet<String>)> = BTreeMap::new();
    let mut unmatched = Vec::new();
    for c in trace.map_or(&[][..], |t| &t.compiles) {
        let compile = CompileRef {
            source: c.source.clone(),
            line: c.line,
            wall_s: c.wall_s,
        };
        let reason = match c.source.as_deref() {
            None => "its log is not named, so no file of it can be tied".to_owned(),
            Some(src) => {
                let files = dumped.get(src).map_or(&[][..], Vec::as_slice);
                match log_owner(files, &owners) {
                    LogOwner::Graph(g, why) => {
                        let e = by_graph.entry(g).or_default();
                        e.0.push(compile);
                        e.1.insert(format!("{src} dumped {why}"));
                        continue;
                    }
                    LogOwner::Ambiguous(gs) => format!(
                        "{src} dumped files of {} specializations' packages ({})",
                        gs.len(),
                        gs.join(", ")
                    ),
                    LogOwner::Nobody if files.is_empty() => {
                        format!("{src} has no graph_dump record to tie it by")
                    }
                    LogOwner::Nobody if packages.is_empty() => format!(
                        "no compiled graph was read beside the verdict to find {src}'s {} dumped file(s) in",
                        files.len()
                    ),
                    LogOwner::Nobody => format!(
                        "none of {src}'s {} dumped file(s) is a member of a specialization's package",
                        files.len()
                    ),
                }
            }
        };
        unmatched.push(UnmatchedCompile { compile, reason });
    }

    let specializations: Vec<SpecializationLedger> = verdict
        .specializations
        .iter()
        .map(|s| {
            let (compiles, why) = by_graph.get(&s.graph).cloned().unwrap_or_default();
            let compile_s: Option<f64> = if compiles.is_empty() {
                None
            } else {
                compiles.iter().map(|c| c.wall_s).sum()
            };
            let partition = s.wall_s.map(|w| split(w, compile_s));
            SpecializationLedger {
                graph: s.graph.clone(),
                partition,
                evidence: (!why.is_empty()).then(|| why.into_iter().collect::<Vec<_>>().join("; ")),
                compiles,
            }
        })
        .collect();

    let every = !specializations.is_empty()
        && specializations.iter().all(|s| {
            s.partition
                .as_ref()
                .is_some_and(|p| p.unobserved.is_empty())
        });
    let whole = every.then(|| {
        let parts: Vec<&Partition> = specializations
            .iter()
            .filter_map(|s| s.partition.as_ref())
            .collect();
        let wall = parts.iter().fold(0.0, |a, p| a + p.total.seconds);
        let compile = parts.iter().fold(0.0, |a, p| a + p.members_sum());
        split(wall, Some(compile))
    });
    VerdictLedger {
        specializations,
        whole,
        unmatched,
    }
}

/// `wall_s` = `compile_s` + `outside_compile_s`; `compile_s` unobserved
/// (absent, never 0) when no trace timed it.
fn split(wall: f64, compile: Option<f64>) -> Partition {
    let members = compile
        .map(|c| vec![Term::new("compile_s", c)])
        .unwrap_or_default();
    let mut p = Partition::new(Term::new("wall_s", wall), members, OUTSIDE_COMPILE, None);
    if compile.is_none() {
        p.unobserved.push("compile_s".to_owned());
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Specialization;
    use crate::trace::{CompileRecord, GraphDump, MetricFields};

    fn spec(graph: &str, wall: Option<f64>) -> Specialization {
        Specialization {
            graph: graph.into(),
            contract: None,
            target: None,
            state: None,
            detail: None,
            wall_s: wall,
        }
    }

    fn verdict(specs: Vec<Specialization>) -> CompileVerdict {
        CompileVerdict {
            rc: 0,
            summary: None,
            priority: None,
            fill: None,
            deferred: Vec::new(),
            specializations: specs,
            unservable: Vec::new(),
        }
    }

    fn record(source: &str, line: u64, wall: f64) -> CompileRecord {
        CompileRecord {
            source: Some(source.into()),
            line,
            compile_id: None,
            co_name: None,
            wall_s: Some(wall),
            wall_from: Some("end_time_us - start_time_us"),
            backend_compile_s: None,
            inductor_compile_s: None,
            code_gen_s: None,
            triton_compile_s: None,
            autotune_s: None,
            fail_type: None,
            fields: MetricFields::None,
        }
    }

    fn dump(source: &str, file: &str) -> GraphDump {
        GraphDump {
            source: Some(source.into()),
            line: 1,
            name: None,
            file: file.into(),
        }
    }

    fn package(graph: &str, files: &[&str]) -> GraphPackage {
        GraphPackage {
            source: format!("{graph}.pt2"),
            members: files
                .iter()
                .map(|f| format!("model/data/aotinductor/{graph}/{f}"))
                .chain(["model/archive_format".to_owned()])
                .collect(),
        }
    }

    #[test]
    fn a_log_is_the_specialization_whose_package_holds_its_dumped_files_not_the_next_in_order() {
        // The logs sort against the verdict's order: b's log comes first.
        let v = verdict(vec![spec("g-a", Some(10.0)), spec("g-b", Some(8.0))]);
        let trace = TraceMetrics {
            compiles: vec![record("log-1", 5, 3.0), record("log-2", 9, 6.0)],
            graph_dumps: vec![
                dump("log-1", "x.wrapper.cpp"),
                dump("log-2", "y.wrapper.cpp"),
            ],
            ..TraceMetrics::default()
        };
        let l = verdict_ledger(
            &v,
            Some(&trace),
            &[
                package("g-a", &["y.wrapper.cpp"]),
                package("g-b", &["x.wrapper.cpp"]),
            ],
        );
        let a = &l.specializations[0];
        assert_eq!(a.compiles[0].source.as_deref(), Some("log-2"));
        let p = a.partition.as_ref().unwrap();
        assert_eq!(p.member("compile_s"), Some(6.0));
        assert_eq!(p.residual.name, OUTSIDE_COMPILE);
        assert_eq!(p.residual.seconds, 4.0);
        assert_eq!(
            a.evidence.as_deref(),
            Some("log-2 dumped y.wrapper.cpp, which g-a.pt2 holds as model/data/aotinductor/g-a/y.wrapper.cpp")
        );
        let b = l.specializations[1].partition.as_ref().unwrap();
        assert_eq!(
            (b.member("compile_s"), b.residual.seconds),
            (Some(3.0), 5.0)
        );
        let whole = l.whole.unwrap();
        assert_eq!((whole.total.seconds, whole.residual.seconds), (18.0, 9.0));
        assert!(l.unmatched.is_empty());
    }

    #[test]
    fn a_compile_longer_than_its_wall_leaves_a_negative_residual_shown() {
        let v = verdict(vec![spec("g", Some(2.0))]);
        let trace = TraceMetrics {
            compiles: vec![record("l", 1, 3.5)],
            graph_dumps: vec![dump("l", "f.cpp")],
            ..TraceMetrics::default()
        };
        let l = verdict_ledger(&v, Some(&trace), &[package("g", &["f.cpp"])]);
        let p = l.specializations[0].partition.as_ref().unwrap();
        assert_eq!(p.residual.seconds, -1.5);
    }

    #[test]
    fn without_evidence_compile_is_unobserved_and_the_record_says_why() {
        let v = verdict(vec![spec("g-a", Some(10.0)), spec("g-b", None)]);
        let trace = TraceMetrics {
            compiles: vec![
                record("log-1", 5, 3.0),
                record("log-2", 7, 2.0),
                record("log-3", 7, 2.0),
            ],
            graph_dumps: vec![
                dump("log-2", "z.cpp"),
                dump("log-3", "a.cpp"),
                dump("log-3", "b.cpp"),
            ],
            ..TraceMetrics::default()
        };
        let l = verdict_ledger(
            &v,
            Some(&trace),
            &[package("g-a", &["a.cpp"]), package("g-b", &["b.cpp"])],
        );
        let a = l.specializations[0].partition.as_ref().unwrap();
        assert!(a.members.is_empty());
        assert_eq!(a.unobserved, vec!["compile_s".to_owned()]);
        assert_eq!(a.residual.seconds, 10.0);
        // No wall: no partition, and no whole.
        assert!(l.specializations[1].partition.is_none());
        assert!(l.whole.is_none());
        let reasons: Vec<&str> = l.unmatched.iter().map(|u| u.reason.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "log-1 has no graph_dump record to tie it by",
                "none of log-2's 1 dumped file(s) is a member of a specialization's package",
                "log-3 dumped files of 2 specializations' packages (g-a, g-b)",
            ]
        );
        let none = verdict_ledger(&v, Some(&trace), &[]);
        assert!(none.unmatched[1]
            .reason
            .starts_with("no compiled graph was read"));
    }
}
