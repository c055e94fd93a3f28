//! gen-worker 0.127 on: no rig, no `MintReport`, no phase file. The mint
//! is `gen-worker compile`, and what it states of a run is its `--verdict`
//! file (`cli/compile.py` `_write_verdict`, v0.127.2 `:1338-1374`):
//! `{rc, summary, priority, fill, deferred, specializations: [{graph,
//! contract, target, state, detail, wall_s}], unservable: [{graph,
//! detail}]}`, or only `{rc, summary}` when the run failed before it had a
//! report. `rc` is 0 servable, 1 a fatal gap or a failed specialization,
//! 2 no sm (`:1223-1335`); `state` is `present`, `built`, `reused`,
//! `claimed` or `failed` (`:100-104`); `wall_s` is each specialization's
//! whole child (compile, publish, witness), rounded to 1 ms. Nothing
//! splits it into phases: the phases are TORCH_TRACE's, which the child
//! does not scrub.

use serde::Serialize;

use crate::error::ReportError;
use lane_json::{self, JsonPath, Node, Obj, UnknownKey};

/// What became of one specialization (`cli/compile.py`'s closed outcome
/// vocabulary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecState {
    /// Already readable through the store: nothing was compiled.
    Present,
    /// Compiled here.
    Built,
    /// Resolved out of the engine's own compile cache: nothing compiled.
    Reused,
    /// Another process holds the lease and is compiling it.
    Claimed,
    /// It failed.
    Failed,
}

impl lane_core::Vocabulary for SpecState {
    fn parse(word: &str) -> Option<Self> {
        Some(match word {
            "present" => SpecState::Present,
            "built" => SpecState::Built,
            "reused" => SpecState::Reused,
            "claimed" => SpecState::Claimed,
            "failed" => SpecState::Failed,
            _ => return None,
        })
    }

    fn as_str(self) -> &'static str {
        match self {
            SpecState::Present => "present",
            SpecState::Built => "built",
            SpecState::Reused => "reused",
            SpecState::Claimed => "claimed",
            SpecState::Failed => "failed",
        }
    }
}

/// One specialization's row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Specialization {
    /// `graph`: the graph identity (`cg-graph-v1-<56 hex>`).
    pub graph: String,
    /// `contract`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    /// `target`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// `state`, a word lane may not know kept as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<lane_core::Named<SpecState>>,
    /// `detail`: the publish outcome, or `Type: message` of a failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// `wall_s`: the specialization's whole child.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_s: Option<f64>,
}

/// A `gen-worker compile --verdict` file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompileVerdict {
    /// `rc`: the command's exit code.
    pub rc: i64,
    /// `summary`, as written (several lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// `priority`: the graph compiled first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
    /// `fill`: what the run did with the other specializations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill: Option<String>,
    /// `deferred`: graphs left to a later fill.
    pub deferred: Vec<String>,
    /// `specializations`, in order; empty when the run failed before it
    /// had any (`{rc, summary}` only).
    pub specializations: Vec<Specialization>,
    /// `unservable`: `(graph, detail)` gaps.
    pub unservable: Vec<(String, String)>,
}

impl CompileVerdict {
    /// The mint status the verdict amounts to: `rc` 0 with no failed
    /// specialization is `minted`, `rc` 1 or a failed specialization
    /// `failed`, `rc` 2 (no sm) `refused`, anything else `crashed`.
    pub fn status(&self) -> lane_core::MintStatus {
        use lane_core::MintStatus;
        let failed = self
            .specializations
            .iter()
            .any(|s| s.state.as_ref().and_then(|n| n.known()) == Some(SpecState::Failed));
        match (self.rc, failed) {
            (0, false) => MintStatus::Minted,
            (0 | 1, _) => MintStatus::Failed,
            (2, _) => MintStatus::Refused,
            _ => MintStatus::Crashed,
        }
    }

    /// Why it ended, in the verdict's words: the first failed
    /// specialization, else the summary's first line.
    pub fn detail(&self) -> Option<String> {
        self.specializations
            .iter()
            .find(|s| s.state.as_ref().and_then(|n| n.known()) == Some(SpecState::Failed))
            .map(|s| format!("{}: {}", s.graph, s.detail.as_deref().unwrap_or("")))
            .or_else(|| {
                self.summary
                    .as_deref()
                    .and_then(|s| s.lines().next())
                    .map(str::to_owned)
            })
    }
}

fn strings(node: &Node, path: &JsonPath) -> Result<Vec<String>, ReportError> {
    match node {
        Node::Null => Ok(Vec::new()),
        Node::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, n)| {
                lane_json::string(n, &path.index(i))?.ok_or_else(|| {
                    ReportError::from(lane_json::JsonError::WrongType {
                        path: path.index(i),
                        expected: "a string",
                        found: "null",
                    })
                })
            })
            .collect(),
        other => Err(ReportError::from(lane_json::JsonError::WrongType {
            path: path.clone(),
            expected: "an array of strings",
            found: other.kind(),
        })),
    }
}

/// Objects of an array, each handed to `read`.
fn objects<'a, T>(
    node: &'a Node,
    path: &JsonPath,
    mut read: impl FnMut(Obj<'a>) -> Result<T, ReportError>,
) -> Result<Vec<T>, ReportError> {
    match node {
        Node::Null => Ok(Vec::new()),
        Node::Array(items) => {
            let mut out = Vec::new();
            for (i, n) in items.iter().enumerate() {
                let p = path.index(i);
                let Some(obj) = Obj::of(n, p.clone())? else {
                    return Err(ReportError::from(lane_json::JsonError::WrongType {
                        path: p,
                        expected: "an object",
                        found: "null",
                    }));
                };
                out.push(read(obj)?);
            }
            Ok(out)
        }
        other => Err(ReportError::from(lane_json::JsonError::WrongType {
            path: path.clone(),
            expected: "an array of objects",
            found: other.kind(),
        })),
    }
}

/// Reads a verdict from the object `obj` (its `rc` is there).
pub(super) fn read_verdict(
    obj: &mut Obj<'_>,
    unknown: &mut Vec<UnknownKey>,
) -> Result<CompileVerdict, ReportError> {
    let rc = match obj.take("rc") {
        Some((Node::U64(v), _)) => i64::try_from(*v).unwrap_or(i64::MAX),
        Some((Node::I64(v), _)) => *v,
        Some((other, path)) => {
            return Err(ReportError::from(lane_json::JsonError::WrongType {
                path,
                expected: "an integer exit code",
                found: other.kind(),
            }))
        }
        None => {
            return Err(ReportError::from(lane_json::JsonError::WrongType {
                path: JsonPath::root().key("rc"),
                expected: "an integer exit code",
                found: "nothing",
            }))
        }
    };
    let summary = obj.string("summary")?;
    let priority = obj.string("priority")?.filter(|s| !s.is_empty());
    let fill = obj.string("fill")?.filter(|s| !s.is_empty());
    let deferred = match obj.take("deferred") {
        Some((n, p)) => strings(n, &p)?,
        None => Vec::new(),
    };
    let specializations = match obj.take("specializations") {
        Some((n, p)) => objects(n, &p, |mut s| {
            let spec = Specialization {
                graph: s.string("graph")?.unwrap_or_default(),
                contract: s.string("contract")?,
                target: s.string("target")?,
                state: s.string("state")?.map(|w| lane_core::Named::parse(&w)),
                detail: s.string("detail")?.filter(|d| !d.is_empty()),
                wall_s: s.seconds("wall_s")?,
            };
            s.finish(unknown);
            Ok(spec)
        })?,
        None => Vec::new(),
    };
    let unservable = match obj.take("unservable") {
        Some((n, p)) => objects(n, &p, |mut g| {
            let gap = (
                g.string("graph")?.unwrap_or_default(),
                g.string("detail")?.unwrap_or_default(),
            );
            g.finish(unknown);
            Ok(gap)
        })?,
        None => Vec::new(),
    };
    Ok(CompileVerdict {
        rc,
        summary,
        priority,
        fill,
        deferred,
        specializations,
        unservable,
    })
}
