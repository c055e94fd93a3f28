//! Reading the aot recipe's ledgers: the per-entry table (`mint_phases`
//! with `v: 1`) and the probe's per-compile record.

use super::{
    failure, named_spans, named_spans_node, span_map, AotCompileRecord, AotEntry, AotPool,
    AotTable, Span,
};
use crate::error::ReportError;
use crate::json::{JsonPath, Node, Obj};

/// Every per-entry key the aot table documents (three partitions and the
/// sub-spans beside them).
pub const AOT_ENTRY_KEYS: [&str; 22] = [
    "compile_s",
    "child_boot_s",
    "child_wall_s",
    "reap_lag_s",
    "child_seal_s",
    "child_torch_import_s",
    "child_devlock_s",
    "child_program_load_s",
    "compile_wall_s",
    "child_other_s",
    "lowering_s",
    "codegen_s",
    "graph_passes_s",
    "host_compile_s",
    "compile_other_s",
    "child_interp_s",
    "triton_s",
    "device_lock_wait_s",
    "inductor_total_s",
    "parent_stage_s",
    "parent_spawn_s",
    "autotune_s",
];

/// Overlay names of the aot table (also accepted at the top level).
pub const AOT_OVERLAY_KEYS: [&str; 9] = [
    "child_interp_s",
    "triton_s",
    "device_lock_wait_s",
    "inductor_total_s",
    "parent_stage_s",
    "parent_spawn_s",
    "autotune_s",
    "async_wait_s",
    "parallel_kernel_cpu_s",
];

pub(super) fn read_aot_table(
    obj: &mut Obj<'_>,
    unknown: &mut Vec<JsonPath>,
) -> Result<AotTable, ReportError> {
    let n_entries = obj.count("n_entries")?;
    let autotune = match obj.take("autotune") {
        None | Some((Node::Null, _)) => None,
        Some((Node::Str(s), _)) => Some(s.clone()),
        Some((other, _)) => Some(compact(other)),
    };
    // The inductor configs are the posture, not timings: read, not interpreted.
    let _ = obj.take("inductor_configs");
    let totals = match obj.take("totals") {
        Some((node, path)) => span_map(node, &path, true)?.unwrap_or_default(),
        None => Vec::new(),
    };
    let phases = match obj.take("phases") {
        Some((node, path)) => span_map(node, &path, true)?.unwrap_or_default(),
        None => Vec::new(),
    };
    let overlays = named_spans(obj, "overlays", &AOT_OVERLAY_KEYS, unknown)?;
    let mut entries = Vec::new();
    if let Some((node, path)) = obj.take("entries") {
        match node {
            Node::Null => {}
            Node::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    entries.push(read_entry(item, path.index(i), None, i, unknown)?);
                }
            }
            Node::Object(fields) => {
                for (i, (name, item)) in fields.iter().enumerate() {
                    entries.push(read_entry(item, path.key(name), Some(name), i, unknown)?);
                }
            }
            other => {
                return Err(ReportError::WrongType {
                    path,
                    expected: "an array or object of entries",
                    found: other.kind(),
                })
            }
        }
    }
    let pool = match obj.take("pool") {
        Some((node, path)) => match Obj::of(node, path)? {
            Some(mut p) => {
                let k = match p.count("k")? {
                    Some(k) => Some(k),
                    None => p.count("width")?,
                };
                let reason = p.string("reason")?;
                p.finish(unknown);
                Some(AotPool { k, reason })
            }
            None => None,
        },
        None => None,
    };
    Ok(AotTable {
        v: 1,
        n_entries,
        autotune,
        totals,
        phases,
        overlays,
        entries,
        pool,
    })
}

fn compact(node: &Node) -> String {
    match node {
        Node::Bool(b) => b.to_string(),
        Node::U64(v) => v.to_string(),
        Node::I64(v) => v.to_string(),
        Node::F64(v) => v.to_string(),
        Node::Null => "null".into(),
        Node::Str(s) => s.clone(),
        Node::Array(items) => format!(
            "[{}]",
            items.iter().map(compact).collect::<Vec<_>>().join(", ")
        ),
        Node::Object(fields) => format!(
            "{{{}}}",
            fields
                .iter()
                .map(|(k, v)| format!("{k}: {}", compact(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

const ENTRY_NAME_KEYS: [&str; 5] = ["entry", "name", "graph_class", "class", "key"];

fn read_entry(
    node: &Node,
    path: JsonPath,
    map_name: Option<&str>,
    index: usize,
    unknown: &mut Vec<JsonPath>,
) -> Result<AotEntry, ReportError> {
    let Some(mut obj) = Obj::of(node, path.clone())? else {
        return Err(ReportError::WrongType {
            path,
            expected: "an entry object",
            found: "null",
        });
    };
    let mut name = map_name.map(str::to_owned);
    for key in ENTRY_NAME_KEYS {
        if let Some(n) = obj.string(key)? {
            name.get_or_insert(n);
        }
    }
    let (failed, error) = failure(&mut obj)?;
    let mut timings = Vec::new();
    for (key, value, vpath) in obj.take_rest() {
        if !matches!(
            value,
            Node::U64(_) | Node::I64(_) | Node::F64(_) | Node::Null
        ) {
            unknown.push(vpath);
            continue;
        }
        if !AOT_ENTRY_KEYS.contains(&key) {
            unknown.push(vpath.clone());
        }
        if let Some(v) = super::span_seconds(key, value, &vpath)? {
            timings.push(Span::new(key, v));
        }
    }
    Ok(AotEntry {
        name: name.unwrap_or_else(|| format!("#{index}")),
        timings,
        failed,
        error,
    })
}

/// Probe record keys that the determinism diff (not the ledger) reads, or
/// that carry no timing: known, so not reported as unknown.
const RECORD_OTHER_KEYS: [&str; 3] = ["files", "best_configs", "stderr_tail"];

pub(super) fn read_compile_record(
    obj: &mut Obj<'_>,
    unknown: &mut Vec<JsonPath>,
) -> Result<AotCompileRecord, ReportError> {
    let tag = obj.string("tag")?;
    let exit = match obj.take("exit") {
        None | Some((Node::Null, _)) => None,
        Some((Node::U64(v), _)) => Some(i64::try_from(*v).unwrap_or(i64::MAX)),
        Some((Node::I64(v), _)) => Some(*v),
        Some((other, path)) => {
            return Err(ReportError::WrongType {
                path,
                expected: "an integer exit code",
                found: other.kind(),
            })
        }
    };
    let export_s = obj.seconds("export_s")?;
    let compile_wall_s = obj.seconds("compile_wall_s")?;
    let partition = match obj.take("partition") {
        Some((node, path)) => named_spans_node(
            node,
            path,
            &crate::keyset::AOT_RECORD_PARTITION_KEYS,
            unknown,
        )?,
        None => Vec::new(),
    };
    let overlays = named_spans(obj, "overlays", &AOT_OVERLAY_KEYS, unknown)?;
    for key in RECORD_OTHER_KEYS {
        let _ = obj.take(key);
    }
    Ok(AotCompileRecord {
        tag,
        exit,
        export_s,
        compile_wall_s,
        partition,
        overlays,
    })
}
