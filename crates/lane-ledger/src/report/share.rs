//! A compile pool's share report (gen-worker 0.114.3-0.126):
//! `<rig root>/mint/compile-pool/share-NNN/report.json`, the compile
//! child's `EntryReport` (v0.114.3 `aot_compile_pool.py:710-767`, v0.126.3
//! `:696`). From 0.114.3 the children trace, compile and pack every graph
//! class of their share, so this is where the per-class compile times and
//! the child's SPANS_V 2 partition are; 0.114.3-0.123's whole-mint table
//! lists none of them (pgw#1356).
//!
//! Read with care (recorded on an H200, both tags): the share-level
//! `phases`, and the four compiler members inside `spans`, are the LAST
//! class's only, while `spans.compile_wall_s` covers every class; the
//! written `compile_other_s` therefore holds the other classes' phases.
//! The per-class times are `classes[i].spans` (flat rows: `export_s`,
//! `compile_s`, `reuse_s` (0.124 on), `nodes`, the four members), read
//! here as [`AotEntry`] rows of shape `class`.

use serde::Serialize;

use super::aot::{overlay_spans, phase_spans, read_entry, AotEntry};
use super::facts::Fact;
use super::{span_map, Span};
use crate::error::ReportError;
use lane_json::{self, parse_document, JsonPath, Node, Obj, UnknownKey};

/// One graph class a share packed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShareClass {
    /// `key`: its compiled-graph key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// `artifact`: where the child packed it (the parent moves it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact: Option<String>,
    /// The length of `metadata` (its envelope, canonical JSON text, not
    /// interpreted here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata_chars: Option<usize>,
    /// `spans`, as the class's row (its `name` is the class's).
    pub row: AotEntry,
}

/// A share report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShareReport {
    /// `entry`: the share's name (`share-000`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// `status` (`compiled`, `refused`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// `classes`, in order.
    pub classes: Vec<ShareClass>,
    /// `declared_classes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_classes: Option<u64>,
    /// `targeted_classes` (0.126: `-1`, not targeted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub targeted_classes: Option<i64>,
    /// `detail`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// `elapsed_s`: the child's own wall.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elapsed_s: Option<f64>,
    /// `peak_rss_bytes`, `peak_device_bytes`, `peak_device_reserved_bytes`.
    pub peaks: Vec<Fact>,
    /// `phases`: the LAST class's compiler members only (kept, never read
    /// as the share's split).
    pub phases: Vec<Span>,
    /// `spans`: the child's SPANS_V 2 partition (`child_wall_s` and
    /// `compile_wall_s` levels; the four compiler members inside it are
    /// the last class's).
    pub spans: Vec<Span>,
    /// `overlays` (`inductor_total_s`, the seal's split), never summed.
    pub overlays: Vec<Span>,
    /// `spans_v`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spans_v: Option<u64>,
    /// `metrics_raw`: every `compilation_time_metrics` key the child moved.
    pub metrics_raw: Vec<Span>,
    /// Keys lane does not know, with their values.
    pub unknown_keys: Vec<UnknownKey>,
}

impl ShareReport {
    /// The `spans` member `name`.
    pub fn span(&self, name: &str) -> Option<f64> {
        self.spans
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.seconds)
    }
}

/// Keys the share report carries that are not timings: known, not read.
const NOT_READ: [&str; 5] = [
    "module_import_epoch",
    "run_start_epoch",
    "report_epoch",
    "code_digest",
    "code_dir",
];

/// Reads a share report (the caller caps its size).
pub fn parse_share_report(bytes: &[u8]) -> Result<ShareReport, ReportError> {
    let doc = parse_document(bytes)?;
    let root = JsonPath::root();
    let Some(mut obj) = (match &doc {
        Node::Object(_) => Obj::of(&doc, root.clone())?,
        _ => None,
    }) else {
        return Err(ReportError::from(lane_json::JsonError::WrongType {
            path: root,
            expected: "a share report object",
            found: doc.kind(),
        }));
    };
    let mut unknown = Vec::new();
    let entry = obj.string("entry")?;
    let status = obj.string("status")?;
    let mut classes = Vec::new();
    if let Some((node, path)) = obj.take("classes") {
        let Node::Array(items) = node else {
            return Err(ReportError::from(lane_json::JsonError::WrongType {
                path,
                expected: "an array of classes",
                found: node.kind(),
            }));
        };
        for (i, item) in items.iter().enumerate() {
            let p = path.index(i);
            let Some(mut c) = Obj::of(item, p.clone())? else {
                continue;
            };
            let name = c.string("name")?.unwrap_or_default();
            let key = c.string("key")?;
            let artifact = c.string("artifact")?;
            let metadata_chars = c.string("metadata")?.map(|m| m.chars().count());
            let row = match c.take("spans") {
                Some((n, sp)) => read_entry(n, sp, &name, &mut unknown)?,
                None => read_entry(
                    &Node::Object(Vec::new()),
                    p.key("spans"),
                    &name,
                    &mut unknown,
                )?,
            };
            c.finish(&mut unknown);
            classes.push(ShareClass {
                key,
                artifact,
                metadata_chars,
                row,
            });
        }
    }
    let declared_classes = obj.count("declared_classes")?;
    let targeted_classes = match obj.take("targeted_classes") {
        None | Some((Node::Null, _)) => None,
        Some((Node::I64(v), _)) => Some(*v),
        Some((Node::U64(v), _)) => Some(i64::try_from(*v).unwrap_or(i64::MAX)),
        Some((other, path)) => {
            return Err(ReportError::from(lane_json::JsonError::WrongType {
                path,
                expected: "an integer",
                found: other.kind(),
            }))
        }
    };
    let detail = obj.string("detail")?;
    let elapsed_s = obj.seconds("elapsed_s")?;
    let mut peaks = Vec::new();
    for key in [
        "peak_rss_bytes",
        "peak_device_bytes",
        "peak_device_reserved_bytes",
    ] {
        if let Some(n) = obj.count(key)? {
            peaks.push(Fact {
                name: key.to_owned(),
                value: super::facts::FactValue::Bytes(n),
            });
        }
    }
    let mut other = Vec::new();
    let phases = match obj.take("phases") {
        Some((n, p)) => phase_spans(n, p, &mut unknown, &mut other)?.unwrap_or_default(),
        None => Vec::new(),
    };
    let spans = match obj.take("spans") {
        Some((n, p)) => phase_spans(n, p, &mut unknown, &mut other)?.unwrap_or_default(),
        None => Vec::new(),
    };
    let overlays = match obj.take("overlays") {
        Some((n, p)) => overlay_spans(n, p, &mut unknown, &mut other)?,
        None => Vec::new(),
    };
    let spans_v = obj.count("spans_v")?;
    let metrics_raw = match obj.take("metrics_raw") {
        Some((n, p)) => span_map(n, &p)?.unwrap_or_default(),
        None => Vec::new(),
    };
    for key in NOT_READ {
        let _ = obj.take(key);
    }
    obj.finish(&mut unknown);
    Ok(ShareReport {
        entry,
        status,
        classes,
        declared_classes,
        targeted_classes,
        detail,
        elapsed_s,
        peaks,
        phases,
        spans,
        overlays,
        spans_v,
        metrics_raw,
        unknown_keys: unknown,
    })
}
