//! JSON files compared by value, not by line: a cell's `metadata.json`,
//! torch's `*_metadata.json`, inductor's benchmark caches.
//!
//! Each value that differs is named by its JSON path and falls in one of:
//! - a string equal once cache paths and hashed names are normalised: noise;
//! - a timing (its nearest key ends in `_s`, `_ms`, `_us`, `_ns`,
//!   `_seconds`, or is `measured_at`/`timestamp`, and both values are
//!   numbers; in a benchmark cache, every number): noise;
//! - a field of a recorded decision (the nearest object with a `winner` and
//!   a `binding`, `rule` or `candidates`): the decision flipped, named with
//!   what it decided on;
//! - anything else: unexplained, with both values.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use regex::Regex;

use serde_json::Value;

use super::model::{DecisionDiff, JsonValueDiff, NoiseKind};
use super::normalize::normalize_paths;
use super::renumber::Renames;

/// At most this many differing values are collected per file.
const MAX_VALUES: usize = 2_000;

/// What comparing two JSON documents found.
#[derive(Debug, Default)]
pub(crate) struct JsonOutcome {
    pub(crate) noise: BTreeSet<NoiseKind>,
    pub(crate) decisions: Vec<DecisionDiff>,
    pub(crate) unexplained: Vec<JsonValueDiff>,
    /// More values differed than were collected.
    pub(crate) truncated: bool,
}

/// How the two documents are read.
pub(crate) struct JsonContext<'r> {
    pub(crate) file: &'r str,
    pub(crate) roots_a: &'r crate::normalize::Roots,
    pub(crate) roots_b: &'r crate::normalize::Roots,
    /// An inductor benchmark cache: every number in it is a timing, and a
    /// boolean is a cached decision (pad_mm's "pad this matmul?").
    pub(crate) benchmark_cache: bool,
    /// B's kernel names, rewritten to A's.
    pub(crate) rename_b: Option<&'r Renames>,
    /// The Triton cache directories the two files sit in, when they do:
    /// a `hash` naming its own directory is the cache key, not content.
    pub(crate) triton_dirs: Option<(&'r str, &'r str)>,
}

#[derive(Clone)]
enum Seg {
    Key(String),
    Index(usize),
}

fn path_text(segs: &[Seg]) -> String {
    let mut out = String::from("$");
    for s in segs {
        match s {
            Seg::Key(k)
                if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                out.push('.');
                out.push_str(k);
            }
            Seg::Key(k) => {
                out.push('[');
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(']');
            }
            Seg::Index(i) => {
                out.push_str(&format!("[{i}]"));
            }
        }
    }
    out
}

/// Whether an object records a decision.
fn is_decision(v: Option<&Value>) -> bool {
    let Some(Value::Object(m)) = v else {
        return false;
    };
    m.get("winner").is_some_and(|w| w.is_string())
        && ["binding", "rule", "candidates"]
            .iter()
            .any(|k| m.contains_key(*k))
}

const TIMING_SUFFIXES: [&str; 5] = ["_s", "_ms", "_us", "_ns", "_seconds"];
const TIMING_KEYS: [&str; 2] = ["measured_at", "timestamp"];

fn is_timing_key(key: &str) -> bool {
    TIMING_SUFFIXES.iter().any(|s| key.ends_with(s)) || TIMING_KEYS.contains(&key)
}

struct Walk<'c, 'r> {
    cx: &'c JsonContext<'r>,
    out: JsonOutcome,
    /// Per decision record (its path): the values that differ in it.
    records: BTreeMap<String, (Vec<Seg>, Vec<JsonValueDiff>)>,
    /// pad_mm decisions cached in a benchmark cache: (key, values).
    pad_decisions: Vec<(String, JsonValueDiff)>,
    count: usize,
}

impl Walk<'_, '_> {
    fn walk(
        &mut self,
        a: Option<&Value>,
        b: Option<&Value>,
        segs: &mut Vec<Seg>,
        record: Option<usize>,
    ) {
        if a == b {
            return;
        }
        let record = if is_decision(a) || is_decision(b) {
            Some(segs.len())
        } else {
            record
        };
        match (a, b) {
            (Some(Value::Object(ma)), Some(Value::Object(mb))) => {
                // B's keys may name renamed kernels (`__grp__` child paths).
                let mut mb_keys: BTreeMap<String, &Value> = BTreeMap::new();
                for (k, v) in mb {
                    match self.cx.rename_b.and_then(|r| r.rewrite(k)) {
                        Some(renamed) => {
                            self.out.noise.insert(NoiseKind::KernelRenumbering);
                            mb_keys.insert(renamed, v);
                        }
                        None => {
                            mb_keys.insert(k.clone(), v);
                        }
                    }
                }
                let keys: BTreeSet<&String> = ma.keys().chain(mb_keys.keys()).collect();
                for k in keys {
                    segs.push(Seg::Key(k.clone()));
                    self.walk(ma.get(k), mb_keys.get(k).copied(), segs, record);
                    segs.pop();
                }
            }
            (Some(Value::Array(va)), Some(Value::Array(vb))) if va.len() == vb.len() => {
                for (i, (x, y)) in va.iter().zip(vb).enumerate() {
                    segs.push(Seg::Index(i));
                    self.walk(Some(x), Some(y), segs, record);
                    segs.pop();
                }
            }
            _ => self.leaf(a, b, segs, record),
        }
    }

    fn leaf(&mut self, a: Option<&Value>, b: Option<&Value>, segs: &[Seg], record: Option<usize>) {
        let key = segs.iter().rev().find_map(|s| match s {
            Seg::Key(k) => Some(k.as_str()),
            Seg::Index(_) => None,
        });
        if let (Some(Value::String(sa)), Some(Value::String(sb))) = (a, b) {
            if let (Some("hash"), Some((da, db))) = (key, self.cx.triton_dirs) {
                if names_its_directory(sa, da) && names_its_directory(sb, db) {
                    self.out.noise.insert(NoiseKind::HashedFileName);
                    return;
                }
            }
            let renamed = self.cx.rename_b.and_then(|r| r.rewrite(sb));
            let na = normalize_paths(sa, self.cx.roots_a);
            let nb = normalize_paths(renamed.as_deref().unwrap_or(sb), self.cx.roots_b);
            if na.text == nb.text {
                self.out.noise.extend(na.noise().chain(nb.noise()));
                if renamed.is_some() {
                    self.out.noise.insert(NoiseKind::KernelRenumbering);
                }
                return;
            }
        }
        let both_numbers = a.is_some_and(Value::is_number) && b.is_some_and(Value::is_number);
        if both_numbers && (self.cx.benchmark_cache || key.is_some_and(is_timing_key)) {
            self.out.noise.insert(NoiseKind::Timing);
            return;
        }
        self.count += 1;
        if self.count > MAX_VALUES {
            self.out.truncated = true;
            return;
        }
        let diff = JsonValueDiff {
            path: path_text(segs),
            a: a.cloned(),
            b: b.cloned(),
        };
        let both_bools = a.is_some_and(Value::is_boolean) && b.is_some_and(Value::is_boolean);
        if self.cx.benchmark_cache && both_bools {
            if let Some(k) = key.filter(|k| k.contains("'exclude_pad:")) {
                self.pad_decisions.push((k.to_owned(), diff));
                return;
            }
        }
        match record {
            Some(depth) => {
                let at = path_text(&segs[..depth]);
                self.records
                    .entry(at)
                    .or_insert_with(|| (segs[..depth].to_vec(), Vec::new()))
                    .1
                    .push(diff);
            }
            None => self.out.unexplained.push(diff),
        }
    }
}

fn get<'v>(root: &'v Value, segs: &[Seg]) -> Option<&'v Value> {
    let mut cur = root;
    for s in segs {
        cur = match s {
            Seg::Key(k) => cur.get(k.as_str())?,
            Seg::Index(i) => cur.get(*i)?,
        };
    }
    Some(cur)
}

/// Compares two parsed JSON documents.
pub(crate) fn diff_json(cx: &JsonContext<'_>, a: &Value, b: &Value) -> JsonOutcome {
    let mut w = Walk {
        cx,
        out: JsonOutcome::default(),
        records: BTreeMap::new(),
        pad_decisions: Vec::new(),
        count: 0,
    };
    w.walk(Some(a), Some(b), &mut Vec::new(), None);
    let mut out = w.out;
    for (key, diff) in w.pad_decisions {
        out.decisions
            .push(pad_mm_decision(cx.file, &key, diff, a, b));
    }
    for (at, (segs, changed)) in w.records {
        let ra = get(a, &segs);
        let rb = get(b, &segs);
        out.decisions
            .push(decision(cx.file, at, segs.last(), ra, rb, changed));
    }
    out
}

/// Fields that are a decision's outcome, not what it was decided on.
const OUTCOME_FIELDS: [&str; 2] = ["winner", "binding"];

fn decision(
    file: &str,
    at: String,
    last: Option<&Seg>,
    ra: Option<&Value>,
    rb: Option<&Value>,
    changed: Vec<JsonValueDiff>,
) -> DecisionDiff {
    let field = |r: Option<&Value>, k: &str| r.and_then(|v| v.get(k)).cloned();
    let decided_on: BTreeMap<String, Value> = ra
        .or(rb)
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter(|(k, _)| !OUTCOME_FIELDS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    let kernel_lane = matches!(last, Some(Seg::Key(k)) if k == "kernel_lane")
        || field(ra, "rule").as_ref().and_then(Value::as_str) == Some("fit_constrained_speed");
    let (winner_a, winner_b) = (field(ra, "winner"), field(rb, "winner"));
    let mut meaning = Vec::new();
    if kernel_lane {
        let margin = decided_on
            .get("margin_fraction")
            .map_or_else(|| "margin_fraction".to_owned(), Value::to_string);
        for (side, r) in [("A", ra), ("B", rb)] {
            if let Some(b) = field(r, "binding").as_ref().and_then(Value::as_str) {
                if let Some(m) = kernel_lane_binding(b) {
                    meaning.push(format!("{side}: binding {b}: {m}"));
                }
            }
        }
        if winner_a == winner_b {
            meaning.push(format!(
                "the winner is the same in both; only the term that bound it flipped: the candidates' step times sit near the {margin} margin, so timing noise decides whether speed or the VRAM tiebreak binds"
            ));
        } else {
            meaning.push("the winner flipped: the two cells serve different kernel lanes".into());
        }
    } else if winner_a != winner_b {
        meaning.push("the winner flipped".into());
    }
    let changed_text: Vec<String> = changed
        .iter()
        .map(|c| {
            let field = c.path.strip_prefix(at.as_str()).unwrap_or(&c.path);
            format!(
                "{} {} -> {}",
                field.trim_start_matches('.'),
                show(&c.a),
                show(&c.b)
            )
        })
        .collect();
    let winner = if winner_a == winner_b {
        format!("; winner {} in both", show(&winner_a))
    } else {
        format!("; winner {} -> {}", show(&winner_a), show(&winner_b))
    };
    let name = if kernel_lane {
        "kernel_lane"
    } else {
        at.as_str()
    };
    let headline = format!("{file} {name}: {}{winner}", changed_text.join(", "));
    DecisionDiff {
        graph_op: None,
        padded_side: None,
        source_nodes: Vec::new(),
        kernels: Vec::new(),
        lines: Vec::new(),
        headline,
        file: file.to_owned(),
        path: at,
        what: kernel_lane.then(|| {
            "the serving-kernel lane, chosen at mint by timing every candidate lane on the card (gen-worker kernel_path.py, pgw#947); the timings ride the checkpoint's kernel_lane_evidence, never the cell".to_owned()
        }),
        changed,
        winner_a,
        winner_b,
        decided_on,
        meaning,
    }
}

fn show(v: &Option<Value>) -> String {
    v.as_ref()
        .map_or_else(|| "absent".to_owned(), Value::to_string)
}

/// Whether `hash` (64 hex digits) is the key a Triton cache directory is
/// named after: its bytes in unpadded base32 (RFC 4648).
fn names_its_directory(hash: &str, dir: &str) -> bool {
    let name = dir.rsplit('/').next().unwrap_or(dir);
    triton_dir_name(hash).is_some_and(|n| n == name)
}

/// The name of the Triton cache directory whose key is `hash` (64 hex
/// digits): its bytes in unpadded base32 (RFC 4648).
pub(crate) fn triton_dir_name(hash: &str) -> Option<String> {
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let bytes: Vec<u8> = (0..32)
        .filter_map(|i| u8::from_str_radix(&hash[2 * i..2 * i + 2], 16).ok())
        .collect();
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::new();
    let (mut buffer, mut bits) = (0u32, 0u32);
    for b in bytes {
        buffer = (buffer << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(ALPHABET[((buffer >> bits) & 31) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(ALPHABET[((buffer << (5 - bits)) & 31) as usize] as char);
    }
    Some(out)
}

fn pad_mm_fields(key: &str) -> (Option<String>, Vec<String>) {
    static OP: OnceLock<Regex> = OnceLock::new();
    static SIZE: OnceLock<Regex> = OnceLock::new();
    let op = OP
        .get_or_init(|| Regex::new(r"op='([\w.]+)'").expect("static regex"))
        .captures(key)
        .map(|c| c[1].to_owned());
    let sizes = SIZE
        .get_or_init(|| Regex::new(r"torch\.Size\(\[([^\]]*)\]\)").expect("static regex"))
        .captures_iter(key)
        .map(|c| format!("[{}]", &c[1]))
        .collect();
    (op, sizes)
}

/// A pad_mm decision that flipped: inductor's pad_mm pass times a matmul
/// unpadded and padded and caches whether to pad (`is_padded_faster`:
/// pad when the unpadded time exceeds the padded time by 1.1x). The
/// unpadded time is cached beside it under `base mm time: ...`.
fn pad_mm_decision(
    file: &str,
    key: &str,
    diff: JsonValueDiff,
    a: &Value,
    b: &Value,
) -> DecisionDiff {
    let (op, sizes) = pad_mm_fields(key);
    let prefix = key.split("'exclude_pad:").next().unwrap_or(key);
    let base_time = |root: &Value| -> Option<Value> {
        let cache = root.get("cache")?.as_object()?;
        cache
            .iter()
            .find(|(k, _)| {
                k.strip_prefix("base mm time: ")
                    .is_some_and(|rest| rest.starts_with(prefix))
                    && op
                        .as_deref()
                        .is_none_or(|o| k.contains(&format!("op='{o}'")))
            })
            .map(|(_, v)| v.clone())
    };
    let word = |v: &Option<Value>| match v.as_ref().and_then(Value::as_bool) {
        Some(true) => Value::from("pad"),
        Some(false) => Value::from("do not pad"),
        None => Value::Null,
    };
    let op_name = op.clone().unwrap_or_else(|| "a matmul".into());
    let mut decided_on = BTreeMap::new();
    decided_on.insert("op".to_owned(), Value::from(op_name.clone()));
    decided_on.insert("operand_shapes".to_owned(), Value::from(sizes.clone()));
    if let Some(t) = base_time(a) {
        decided_on.insert("unpadded_time_ms_a".to_owned(), t);
    }
    if let Some(t) = base_time(b) {
        decided_on.insert("unpadded_time_ms_b".to_owned(), t);
    }
    decided_on.insert(
        "rule".to_owned(),
        Value::from("pad when the unpadded time exceeds the padded time x 1.1 (the padded time is not cached)"),
    );
    let (wa, wb) = (word(&diff.a), word(&diff.b));
    let padded = if diff.a.as_ref().and_then(Value::as_bool) == Some(true) {
        "A"
    } else {
        "B"
    };
    let headline = format!(
        "{file} pad_mm on {op_name} {}: {} -> {}",
        sizes.join(" x "),
        show(&Some(wa.clone())),
        show(&Some(wb.clone()))
    );
    DecisionDiff {
        headline,
        file: file.to_owned(),
        path: diff.path.clone(),
        what: Some(format!(
            "inductor's pad_mm pass: whether to pad {op_name} of {} (benchmarked at compile time, cached in the benchmark cache)",
            sizes.join(" x ")
        )),
        changed: vec![diff],
        winner_a: Some(wa),
        winner_b: Some(wb),
        decided_on,
        meaning: vec![format!(
            "{padded} pads {op_name}: its graph gains a padding kernel there, the kernels after it are renumbered, and the output code and FX-graph cache entry follow"
        )],
        graph_op: op,
        padded_side: Some(padded),
        source_nodes: Vec::new(),
        kernels: Vec::new(),
        lines: Vec::new(),
    }
}

/// What a `kernel_lane` binding says (gen-worker's `kernel_path.select`).
fn kernel_lane_binding(binding: &str) -> Option<&'static str> {
    Some(match binding {
        "speed" => "the fastest candidate beat the runner-up by at least the margin",
        "vram_tiebreak" => {
            "the fastest candidates timed within the margin of each other, and the smaller peak won"
        }
        "fit" => "only one measured candidate fits the card",
        "sole_candidate" => "one candidate; nothing was timed",
        "no_fit" => "no candidate fits the card; the smallest peak won",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cx() -> JsonContext<'static> {
        JsonContext {
            file: "metadata.json",
            roots_a: &crate::normalize::NO_ROOTS,
            roots_b: &crate::normalize::NO_ROOTS,
            benchmark_cache: false,
            rename_b: None,
            triton_dirs: None,
        }
    }

    #[test]
    fn a_flipped_binding_is_a_decision_with_what_it_decided_on() {
        let a = json!({"kernel_lane": {"binding": "speed", "winner": "baseline+dense", "candidates": ["x", "y"], "rule": "fit_constrained_speed", "margin_fraction": 0.05}, "sm": "sm_90"});
        let mut b = a.clone();
        b["kernel_lane"]["binding"] = json!("vram_tiebreak");
        let o = diff_json(&cx(), &a, &b);
        assert!(o.unexplained.is_empty());
        assert_eq!(o.decisions.len(), 1);
        let d = &o.decisions[0];
        assert_eq!(d.path, "$.kernel_lane");
        assert_eq!(d.changed[0].path, "$.kernel_lane.binding");
        assert_eq!(d.winner_a, d.winner_b);
        assert_eq!(d.decided_on["candidates"], json!(["x", "y"]));
        assert!(!d.decided_on.contains_key("binding"));
        assert!(
            d.meaning.iter().any(|m| m.contains("0.05 margin")),
            "{:?}",
            d.meaning
        );
    }

    #[test]
    fn timings_are_noise_and_other_values_are_named() {
        let a = json!({"elapsed_s": 1.5, "samples_ms": [1.0, 2.0], "sm": "sm_90", "elapsed": "1"});
        let b = json!({"elapsed_s": 1.7, "samples_ms": [1.1, 2.0], "sm": "sm_89", "elapsed": "2"});
        let o = diff_json(&cx(), &a, &b);
        assert!(o.noise.contains(&NoiseKind::Timing));
        let paths: Vec<&str> = o.unexplained.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["$.elapsed", "$.sm"]);
        // A timing key holding a string is not a timing.
        let o = diff_json(&cx(), &json!({"x_s": "1"}), &json!({"x_s": "2"}));
        assert_eq!(o.unexplained.len(), 1);
    }

    #[test]
    fn a_flipped_pad_mm_decision_is_named_with_its_timings() {
        let key = "((torch.Size([2, 64]), (64, 1), torch.float32), (torch.Size([64, 128]), (1, 64), torch.float32), 'exclude_pad:True', 'exclude_pad:False', <OpOverloadPacket(op='aten.addmm')>, (torch.Size([128]), (1,), torch.float32), True)";
        let base = "base mm time: ((torch.Size([2, 64]), (64, 1), torch.float32), (torch.Size([64, 128]), (1, 64), torch.float32), None, None, <OpOverloadPacket(op='aten.addmm')>, (torch.Size([128]), (1,), torch.float32), True)";
        let a = json!({"system": {"hash": "h"}, "cache": {key: true, base: 0.0712}});
        let b = json!({"system": {"hash": "h"}, "cache": {key: false, base: 0.0943}});
        let cx = JsonContext {
            benchmark_cache: true,
            ..cx()
        };
        let o = diff_json(&cx, &a, &b);
        assert!(o.unexplained.is_empty(), "{:?}", o.unexplained);
        assert!(o.noise.contains(&NoiseKind::Timing));
        let d = &o.decisions[0];
        assert_eq!(d.graph_op.as_deref(), Some("aten.addmm"));
        assert_eq!(d.padded_side, Some("A"));
        assert_eq!(d.winner_a, Some(json!("pad")));
        assert_eq!(d.decided_on["unpadded_time_ms_b"], json!(0.0943));
        assert_eq!(
            d.decided_on["operand_shapes"],
            json!(["[2, 64]", "[64, 128]", "[128]"])
        );
    }

    #[test]
    fn a_triton_hash_naming_its_directory_is_the_cache_key() {
        let hash = "d5c778251c6eff349d829dab6cf51df170bc4edb7c467e5c3bf6405994835111";
        assert!(names_its_directory(
            hash,
            "t/triton/2XDXQJI4N37TJHMCTWVWZ5I56FYLYTW3PRDH4XB36ZAFTFEDKEIQ"
        ));
        assert!(!names_its_directory(
            hash,
            "t/triton/3XDXQJI4N37TJHMCTWVWZ5I56FYLYTW3PRDH4XB36ZAFTFEDKEIQ"
        ));
    }

    #[test]
    fn odd_keys_are_quoted_in_paths() {
        let o = diff_json(&cx(), &json!({"a.b": [1]}), &json!({"a.b": [2]}));
        assert_eq!(o.unexplained[0].path, "$[\"a.b\"][0]");
    }
}
