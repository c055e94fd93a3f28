//! The aot phase table, broken down in both of its shapes.
//!
//! Per entry:
//! - serial: `compile_s = lowering_s + codegen_s + host_compile_s +
//!   graph_passes_s + compile_other_s`, where `compile_other_s` is LANE's
//!   residual (the serial writer, `aot_mint._phase_delta`, writes none; its
//!   docstring: "the remainder of inductor time is NOT invented");
//!   `triton_s` sits in `phases` but nests inside the members: an overlay;
//! - pooled: the three nested partitions of `aot_compile_spans.PARTITIONS`,
//!   each residual recomputed and reconciled with the one the child wrote
//!   (`child_other_s`, `compile_other_s`); the outermost level has no
//!   upstream residual (all three members are measured), so lane names its
//!   own, [`PROCESS_OTHER`]. `SUBSPANS` (`child_interp_s`, `parent_*`) and
//!   the entry's `overlays` are shown beside, never summed.
//!
//! Per mint: `total_s` partitioned by the phases the mint ran one after the
//! other (serial: the entries' export/warm/compile sums, `package_s`,
//! `declare_s`; pooled: `export_all_s`, the pool's parent-serial set-up and
//! `pool_wall_s`, `package_s`, `declare_s`) with lane's residual
//! [`MINT_OTHER`]. A K-wide pool's summed entry `compile_s` exceeds its wall,
//! so there it is shown beside the partition, never summed into it.

use serde::Serialize;

use super::{check_residual, MintBreakdown};
use crate::partition::{overlay_rows, OverlayRow, Partition, Reconciliation, Term};
use crate::report::facts::{find, Fact, FactValue};
use crate::report::{
    AotEntry, AotTable, EntryShape, Partial, Posture, ShareReport, Span, COMPILER_MEMBERS,
};

/// Lane's residual of an entry's outermost level, `compile_s` minus
/// `child_boot_s`, `child_wall_s` and `reap_lag_s`: the upstream measures all
/// three members and writes no residual there (`aot_compile_spans.check`
/// only tolerates 0.05 s of disagreement).
pub const PROCESS_OTHER: &str = "process_other_s";

/// Lane's residual of the mint's `total_s`: what the mint did between its
/// named phases (gates, canonicalisation, literals, the envelope).
pub const MINT_OTHER: &str = "mint_other_s";

/// Lane's residual of the pool's capacity (`pool_capacity_s - pool_busy_s -
/// every idle bucket`): slot-seconds the pool charged to no one. Zero on a
/// pool that finished (`PoolLedger`'s "busy + idle == capacity"); on an
/// aborted one it holds the children torn down before `_collect` booked them.
pub const POOL_UNBOOKED: &str = "pool_unbooked_s";

/// One partition level of a pooled entry: (total, members, residual, whether
/// the upstream writes the residual).
const POOLED_LEVELS: [(&str, &[&str], &str, bool); 3] = [
    (
        "compile_s",
        &["child_boot_s", "child_wall_s", "reap_lag_s"],
        PROCESS_OTHER,
        false,
    ),
    ("child_wall_s", &CHILD_WALL_MEMBERS, "child_other_s", true),
    ("compile_wall_s", &COMPILER_MEMBERS, "compile_other_s", true),
];

/// The members of a compile child's `child_wall_s` level up to 0.114.2
/// (it loads an exported program and compiles it).
const CHILD_WALL_MEMBERS: [&str; 5] = [
    "child_seal_s",
    "child_torch_import_s",
    "child_devlock_s",
    "child_program_load_s",
    "compile_wall_s",
];

/// The same level from 0.114.3 (`aot_compile_spans.py:107-131`): the
/// children set up, trace, compile and pack their classes.
const CHILD_WALL_MEMBERS_V2: [&str; 7] = [
    "child_seal_s",
    "child_torch_import_s",
    "child_devlock_s",
    "child_setup_s",
    "child_trace_s",
    "compile_wall_s",
    "child_pack_s",
];

/// The `child_wall_s` members of the version `has` shows.
fn child_wall_members(has: impl Fn(&str) -> bool) -> &'static [&'static str] {
    if ["child_setup_s", "child_trace_s", "child_pack_s"]
        .iter()
        .any(|k| has(k))
    {
        &CHILD_WALL_MEMBERS_V2
    } else {
        &CHILD_WALL_MEMBERS
    }
}

/// Sub-spans a pooled entry writes into `phases` beside its partitions
/// (`aot_compile_spans.SUBSPANS`): a split of `child_boot_s`, and the
/// parent's own work for the entry, outside `compile_s`.
const POOLED_SUBSPANS: [&str; 3] = ["child_interp_s", "parent_stage_s", "parent_spawn_s"];

/// Which shape the table has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AotPath {
    /// K = 1: entries compiled in the mint child, one after the other.
    Serial,
    /// K > 1: entries compiled out of process by the pool (`export_all_s`
    /// in `totals`, `child_*` partitions per entry).
    Pooled,
    /// The compile pool of 0.114.3 on (it always runs, at any K): its
    /// children trace, compile and pack every graph class of their share;
    /// the entries are the classes' flat rows (the table's from 0.124, the
    /// share reports' before).
    ClassPool,
    /// No entry row with a measurement and nothing says which path (an
    /// early abort).
    Unmeasured,
}

/// One compile pool share's SPANS_V 2 partition (0.114.3-0.126, from its
/// `compile-pool/share-NNN/report.json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShareBreakdown {
    /// The share (`share-000`).
    pub name: String,
    /// Its classes, in order.
    pub classes: Vec<String>,
    /// `child_wall_s = child_seal_s + child_torch_import_s +
    /// child_devlock_s + child_setup_s + child_trace_s + compile_wall_s +
    /// child_pack_s + child_other_s` (the child's residual, reconciled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child_wall: Option<Partition>,
    /// `compile_wall_s` split by its classes' own spans (the four compiler
    /// members summed over the classes) and lane's `compile_other_s`: the
    /// written members are the last class's only, so the written residual
    /// is kept beside as `reported_s`, not reconciled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_wall: Option<Partition>,
    /// The share's overlays (`inductor_total_s`, the seal's split), never
    /// summed.
    pub overlays: Vec<OverlayRow>,
    /// Keys of its report lane does not know, with their values.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unknown_keys: Vec<lane_json::UnknownKey>,
}

/// One entry (graph class) broken down.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AotEntryBreakdown {
    /// Entry name.
    pub name: String,
    /// Which writer its `phases` came from.
    pub shape: EntryShape,
    /// `export_s`, `warm_s`, `compile_s`, `prop_probe_s`, `export_how`, as written.
    pub facts: Vec<Fact>,
    /// Serial: `compile_s` by the four members and lane's `compile_other_s`.
    /// Pooled: `compile_s = child_boot_s + child_wall_s + reap_lag_s`
    /// (+ lane's [`PROCESS_OTHER`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile: Option<Partition>,
    /// Pooled: `child_wall_s = child_seal_s + child_torch_import_s +
    /// child_devlock_s + child_program_load_s + compile_wall_s +
    /// child_other_s`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child_wall: Option<Partition>,
    /// Pooled: `compile_wall_s = lowering_s + codegen_s + graph_passes_s +
    /// host_compile_s + compile_other_s`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_wall: Option<Partition>,
    /// Nested spans and sub-spans beside the partitions, never summed.
    pub overlays: Vec<OverlayRow>,
    /// Keys outside the vocabulary, as written.
    pub other: Vec<Fact>,
    /// True when the entry failed (the pool's `oom_entry`, or a failure
    /// marker); its seconds are kept.
    pub failed: bool,
    /// Why, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl AotEntryBreakdown {
    /// The entry's partitions, outermost first, with their level names.
    pub fn levels(&self) -> [(&'static str, Option<&Partition>); 3] {
        [
            ("compile_s", self.compile.as_ref()),
            ("child_wall_s", self.child_wall.as_ref()),
            ("compile_wall_s", self.compile_wall.as_ref()),
        ]
    }
}

/// One row of the typed `totals`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TotalRow {
    /// The key and its typed value.
    #[serde(flatten)]
    pub fact: Fact,
    /// What the value is, when the vocabulary says more than its unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The pool's width decision (`PoolWidth.facts()`): the K it ran at and why.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PoolDecision {
    /// `entry_workers`: K.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry_workers: Option<u64>,
    /// `entries`: the graph classes to compile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entries: Option<u64>,
    /// `binding`: the constraint that held K down.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binding: Option<String>,
    /// `width_reason`, in the upstream's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width_reason: Option<String>,
    /// `underwidth`: workers the binding constraint cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub underwidth: Option<u64>,
    /// `ceiling`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ceiling: Option<u64>,
    /// `limit`: the caller's cap, 0 when uncapped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// The bounds and the readings behind them (`cpu_workers`,
    /// `mem_workers`, `device_workers`, the bytes they divided, the bases,
    /// the goals, the device lock), in document order.
    pub inputs: Vec<Fact>,
}

/// The `pool` block, broken down.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PoolBreakdown {
    /// The width decision.
    pub decision: PoolDecision,
    /// `pool_capacity_s = pool_busy_s + idle_staging_s + idle_drain_s +
    /// idle_spawn_s + idle_other_s` + lane's [`POOL_UNBOOKED`]
    /// (`PoolLedger`'s identity "busy + idle == capacity"; every idle bucket,
    /// `idle_other_s` included, is charged by the pool, not subtracted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capacity: Option<Partition>,
    /// The pool's ledger and peaks (everything not in the decision), typed.
    pub ledger: Vec<Fact>,
}

/// The aot table, broken down.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AotBreakdown {
    /// Serial or pooled.
    pub path: AotPath,
    /// `totals`, typed, in document order.
    pub totals: Vec<TotalRow>,
    /// `total_s` partitioned by the mint's phases, with lane's [`MINT_OTHER`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mint: Option<Partition>,
    /// Sums shown beside the mint partition and never summed into it.
    pub beside_mint: Vec<OverlayRow>,
    /// Every entry level summed over the entries that have it, outermost
    /// first (serial: `compile_s`; pooled: `compile_s`, `child_wall_s`,
    /// `compile_wall_s`).
    pub levels: Vec<Partition>,
    /// The pool block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool: Option<PoolBreakdown>,
    /// The table's `terminus` and `at`, when it is partial.
    #[serde(flatten)]
    pub partial: Partial,
    /// The table's posture, as written.
    #[serde(flatten)]
    pub posture: Posture,
    /// The compile pool's shares (0.114.3-0.126), when their reports were
    /// read beside the mint's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shares: Vec<ShareBreakdown>,
    /// The whole-mint table lists no entry while the mint packed some: the
    /// upstream's defect pgw#1356 (0.114.3-0.123, fixed in 0.124).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing_rows: Option<MissingRows>,
}

/// What a table that lists no entry (pgw#1356) leaves out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MissingRows {
    /// The cells the report packed (`entries`), when it says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packed: Option<u64>,
    /// The graph classes the pool was given (`pool.entries`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared: Option<u64>,
    /// The class rows lane read from the share reports instead.
    pub from_shares: u64,
}

/// What lane read beside the table: the cells the report packed, and the
/// compile pool's share reports (named).
#[derive(Debug, Clone, Copy, Default)]
pub struct AotContext<'a> {
    /// `entries` of the report (0.114 on).
    pub packed: Option<u64>,
    /// The share reports, by name.
    pub shares: &'a [(String, ShareReport)],
}

fn spans_get(spans: &[Span], name: &str) -> Option<f64> {
    spans.iter().find(|s| s.name == name).map(|s| s.seconds)
}

/// A partition of `total` over the `members` `get` finds; the rest unobserved.
fn partition_of(
    total: Term,
    members: &[&str],
    residual: &str,
    reported: Option<f64>,
    get: impl Fn(&str) -> Option<f64>,
) -> Partition {
    let mut terms = Vec::new();
    let mut unobserved = Vec::new();
    for m in members {
        match get(m) {
            Some(v) => terms.push(Term::new(*m, v)),
            None => unobserved.push((*m).to_owned()),
        }
    }
    let mut p = Partition::new(total, terms, residual, reported);
    p.unobserved = unobserved;
    p
}

fn entry_facts(e: &AotEntry) -> Vec<Fact> {
    let mut out = Vec::new();
    for (name, v) in [
        ("export_s", e.export_s),
        ("warm_s", e.warm_s),
        ("compile_s", e.compile_s),
        ("prop_probe_s", e.prop_probe_s),
    ] {
        if let Some(v) = v {
            out.push(Fact {
                name: name.to_owned(),
                value: FactValue::Seconds(v),
            });
        }
    }
    if let Some(r) = e.reuse_s {
        out.push(Fact {
            name: "reuse_s".into(),
            value: FactValue::Seconds(r),
        });
    }
    if let Some(n) = e.nodes {
        out.push(Fact {
            name: "nodes".into(),
            value: FactValue::Count(n),
        });
    }
    if let Some(how) = &e.export_how {
        out.push(Fact {
            name: "export_how".into(),
            value: FactValue::Text(how.clone()),
        });
    }
    out
}

fn entry(e: &AotEntry, oom: Option<(&str, &str)>, rec: &mut Reconciliation) -> AotEntryBreakdown {
    let shape = e.shape();
    let phases = e.phases.as_deref().unwrap_or_default();
    let label = format!("entry {}", e.name);
    let mut overlays: Vec<Term> = Vec::new();
    let (mut compile, mut child_wall, mut compile_wall) = (None, None, None);
    match shape {
        EntryShape::Serial | EntryShape::Class => {
            if let Some(total) = e.compile_s {
                compile = Some(partition_of(
                    Term::new("compile_s", total),
                    &COMPILER_MEMBERS,
                    "compile_other_s",
                    None,
                    |m| spans_get(phases, m),
                ));
            }
            overlays.extend(
                phases
                    .iter()
                    .filter(|s| !COMPILER_MEMBERS.contains(&s.name.as_str()))
                    .map(|s| Term::new(s.name.clone(), s.seconds)),
            );
        }
        EntryShape::Pooled => {
            let mut parts = POOLED_LEVELS
                .iter()
                .map(|(total, members, residual, written)| {
                    let t = spans_get(phases, total)?;
                    // SPANS_V 2 (0.113 on) writes the outer level's residual,
                    // `parent_other_s`; before it lane names its own.
                    let (residual, written) = match (*total, spans_get(phases, "parent_other_s")) {
                        ("compile_s", Some(_)) => ("parent_other_s", true),
                        _ => (*residual, *written),
                    };
                    let members = if *total == "child_wall_s" {
                        child_wall_members(|k| spans_get(phases, k).is_some())
                    } else {
                        members
                    };
                    let reported = if written {
                        spans_get(phases, residual)
                    } else {
                        None
                    };
                    let p = partition_of(Term::new(*total, t), members, residual, reported, |m| {
                        spans_get(phases, m)
                    });
                    check_residual(rec, &label, &p);
                    Some(p)
                });
            compile = parts.next().flatten();
            child_wall = parts.next().flatten();
            compile_wall = parts.next().flatten();
            if let (Some(written), Some(p)) = (e.compile_s, &compile) {
                // The row's `compile_s` is the pool's wall rounded to 10 ms;
                // its partition's total is the same wall to the millisecond.
                rec.seconds_within(
                    format!("{label}: compile_s = phases.compile_s (rounded to 0.01 s)"),
                    written,
                    p.total.seconds,
                    0.0051,
                );
            }
            overlays.extend(
                POOLED_SUBSPANS
                    .iter()
                    .filter_map(|k| spans_get(phases, k).map(|v| Term::new(*k, v))),
            );
        }
        EntryShape::Unmeasured => {}
    }
    overlays.extend(
        e.overlays
            .iter()
            .map(|s| Term::new(s.name.clone(), s.seconds)),
    );
    let reference = compile.as_ref().map(|p| p.total.seconds);
    let (failed, error) = match oom {
        Some((entry, basis)) if entry == e.name => (
            true,
            Some(format!(
                "the pool lost this entry's compile child (oom_basis {basis})"
            )),
        ),
        _ => (e.failed, e.error.clone()),
    };
    AotEntryBreakdown {
        name: e.name.clone(),
        shape,
        facts: entry_facts(e),
        compile,
        child_wall,
        compile_wall,
        overlays: overlay_rows(&overlays, reference),
        other: e.other.clone(),
        failed,
        error,
    }
}

/// The sum of one level over the entries that have it.
fn level_sum(entries: &[AotEntryBreakdown], level: usize) -> Option<Partition> {
    let parts: Vec<&Partition> = entries.iter().filter_map(|e| e.levels()[level].1).collect();
    sum_of(&parts, "entries")
}

/// Partitions of one level summed: `<total> (sum over N <what>)`, each
/// member summed over the parts that have it, the residual recomputed.
fn sum_of(parts: &[&Partition], what: &str) -> Option<Partition> {
    let first = parts.first()?;
    let total: f64 = parts.iter().map(|p| p.total.seconds).sum();
    let mut names: Vec<String> = parts
        .iter()
        .flat_map(|p| p.members.iter().map(|m| m.name.clone()))
        .collect();
    let mut seen = std::collections::HashSet::new();
    names.retain(|n| seen.insert(n.clone()));
    let terms: Vec<Term> = names
        .iter()
        .map(|n| Term::new(n.clone(), parts.iter().filter_map(|p| p.member(n)).sum()))
        .collect();
    let reported: Option<f64> = parts.iter().map(|p| p.residual.reported_s).sum();
    let mut p = Partition::new(
        Term::new(
            format!("{} (sum over {} {what})", first.total.name, parts.len()),
            total,
        ),
        terms,
        &first.residual.name,
        reported,
    );
    let mut unobserved: Vec<String> = parts.iter().flat_map(|p| p.unobserved.clone()).collect();
    unobserved.retain(|n| !names.contains(n));
    unobserved.dedup();
    p.unobserved = unobserved;
    Some(p)
}

fn total_note(t: &AotTable, f: &Fact, missing: Option<&MissingRows>) -> Option<String> {
    let summed = |get: fn(&AotEntry) -> Option<f64>| {
        let n = t.entries.iter().filter(|e| get(e).is_some()).count();
        Some(if let (0, Some(m)) = (n, missing) {
            format!(
                "a sum over no row, not a measurement: the table lists none of the {} class(es) the mint packed (pgw#1356)",
                m.packed.or(m.declared).map_or_else(|| "?".to_owned(), |n| n.to_string())
            )
        } else if n == 0 {
            "no entry row has it: the writer's sum over nothing".to_owned()
        } else {
            format!("sum over {n} of {} entries", t.entries.len())
        })
    };
    let pool_busy = t.pool.as_deref().and_then(|p| seconds_of(p, "pool_busy_s"));
    if f.name == "compile_s" && missing.is_none() && t.entries.iter().all(|e| e.compile_s.is_none())
    {
        if let Some(busy) = pool_busy.filter(|b| *b > 0.0) {
            return Some(format!(
                "no entry row has it (the pool folds walls in only when it returns); the pool booked pool_busy_s {busy:.3} s"
            ));
        }
    }
    match f.name.as_str() {
        "export_s" => summed(|e| e.export_s),
        "compile_s" => summed(|e| e.compile_s),
        "warm_s" => summed(|e| e.warm_s),
        "pack_s" => Some(
            "inside a partial table's re-taken total_s (a finished table is built before the pack)"
                .into(),
        ),
        "entry_workers" => Some("the width K the pool was built at".into()),
        "compile_all_s" => Some(
            "the mint's wall from the pool's start: the same clock as total_s, read at the same moment"
                .into(),
        ),
        "canonicalized_entries" => Some("declared rows merged into another entry (pgw#917)".into()),
        _ if f.is_unknown() => Some("unknown key: its value as written".into()),
        _ => None,
    }
}

fn seconds_of(facts: &[Fact], name: &str) -> Option<f64> {
    find(facts, name).and_then(Fact::seconds)
}

fn pool(facts: &[Fact], rec: &mut Reconciliation) -> PoolBreakdown {
    const DECISION: [&str; 7] = [
        "entry_workers",
        "entries",
        "binding",
        "width_reason",
        "underwidth",
        "ceiling",
        "limit",
    ];
    const INPUTS: [&str; 25] = [
        "vcpus",
        "cpu_workers",
        "mem_workers",
        "device_workers",
        "available_bytes",
        "free_device_bytes",
        "per_entry_rss_bytes",
        "per_entry_device_bytes",
        "per_entry_rss_basis",
        "per_entry_device_basis",
        "device_lock",
        "serve_goal",
        "mint_goal",
        "cpu_basis",
        "os_cpu_count",
        "affinity_cpus",
        "quota_cores",
        "mem_basis",
        "host_available_bytes",
        "cgroup_available_bytes",
        "cgroup_reclaimable_bytes",
        "device_basis",
        "free_device_samples",
        "oom_entry",
        "oom_basis",
    ];
    let count = |n: &str| find(facts, n).and_then(Fact::count);
    let text = |n: &str| find(facts, n).and_then(Fact::text).map(str::to_owned);
    let decision = PoolDecision {
        entry_workers: count("entry_workers"),
        entries: count("entries"),
        binding: text("binding"),
        width_reason: text("width_reason"),
        underwidth: count("underwidth"),
        ceiling: count("ceiling"),
        limit: count("limit"),
        inputs: facts
            .iter()
            .filter(|f| INPUTS.contains(&f.name.as_str()))
            .cloned()
            .collect(),
    };
    let ledger: Vec<Fact> = facts
        .iter()
        .filter(|f| !DECISION.contains(&f.name.as_str()) && !INPUTS.contains(&f.name.as_str()))
        .cloned()
        .collect();
    let capacity = seconds_of(facts, "pool_capacity_s").map(|cap| {
        partition_of(
            Term::new("pool_capacity_s", cap),
            &[
                "pool_busy_s",
                "idle_staging_s",
                "idle_drain_s",
                "idle_spawn_s",
                "idle_other_s",
            ],
            POOL_UNBOOKED,
            None,
            |m| seconds_of(facts, m),
        )
    });
    if let Some(idle) = seconds_of(facts, "pool_idle_s") {
        let parts = [
            "idle_staging_s",
            "idle_drain_s",
            "idle_spawn_s",
            "idle_other_s",
        ];
        if parts.iter().all(|k| seconds_of(facts, k).is_some()) {
            let sum: f64 = parts.iter().filter_map(|k| seconds_of(facts, k)).sum();
            rec.seconds("pool: pool_idle_s = sum of the idle split", idle, sum);
        }
    }
    PoolBreakdown {
        decision,
        capacity,
        ledger,
    }
}

/// The share reports broken down: each share's SPANS_V 2 `child_wall_s`
/// level and its `compile_wall_s` split by its classes' own spans.
fn shares(shares: &[(String, ShareReport)], rec: &mut Reconciliation) -> Vec<ShareBreakdown> {
    shares
        .iter()
        .map(|(name, r)| {
            let get = |k: &str| r.span(k);
            let child_wall = get("child_wall_s").map(|total| {
                let p = partition_of(
                    Term::new("child_wall_s", total),
                    child_wall_members(|k| get(k).is_some()),
                    "child_other_s",
                    get("child_other_s"),
                    get,
                );
                check_residual(rec, name, &p);
                p
            });
            let compile_wall = get("compile_wall_s").map(|total| {
                let classes: Vec<&AotEntry> = r.classes.iter().map(|c| &c.row).collect();
                let compiled: f64 = classes.iter().filter_map(|c| c.compile_s).sum();
                if classes.iter().all(|c| c.compile_s.is_some()) && !classes.is_empty() {
                    rec.seconds(
                        format!("{name}: compile_wall_s = sum of its classes' compile_s"),
                        total,
                        compiled,
                    );
                }
                let member = |m: &str| -> Option<f64> {
                    let v: Vec<f64> = classes.iter().filter_map(|c| c.phase(m)).collect();
                    (!v.is_empty()).then(|| v.iter().sum())
                };
                partition_of(
                    Term::new("compile_wall_s", total),
                    &COMPILER_MEMBERS,
                    "compile_other_s",
                    get("compile_other_s"),
                    member,
                )
            });
            let overlays: Vec<Term> = r
                .overlays
                .iter()
                .map(|s| Term::new(s.name.clone(), s.seconds))
                .collect();
            ShareBreakdown {
                name: name.clone(),
                classes: r.classes.iter().map(|c| c.row.name.clone()).collect(),
                overlays: overlay_rows(&overlays, child_wall.as_ref().map(|p| p.total.seconds)),
                child_wall,
                compile_wall,
                unknown_keys: r.unknown_keys.clone(),
            }
        })
        .collect()
}

/// Breaks the aot table down into `b`, with what lane read beside it.
pub(super) fn aot_table(b: &mut MintBreakdown, t: &AotTable, ctx: AotContext<'_>) {
    let pool_facts = t.pool.as_deref().unwrap_or_default();
    let oom_entry = find(pool_facts, "oom_entry").and_then(Fact::text);
    let oom_basis = find(pool_facts, "oom_basis")
        .and_then(Fact::text)
        .unwrap_or("unknown");
    let class_pool = seconds_of(&t.totals, "compile_all_s").is_some();
    // pgw#1356: 0.114.3-0.123 built the table from the serial driver's rows,
    // which no longer exist: no row, while the mint packed its classes.
    let declared = find(pool_facts, "entries").and_then(Fact::count);
    let missing_rows = (t.n_entries == Some(0)
        && t.entries.is_empty()
        && (ctx.packed.unwrap_or(0) > 0 || (class_pool && declared.unwrap_or(0) > 0)))
        .then(|| MissingRows {
            packed: ctx.packed,
            declared,
            from_shares: ctx.shares.iter().map(|(_, s)| s.classes.len() as u64).sum(),
        });
    // The rows: the table's, else (pgw#1356) the share reports' classes.
    let share_rows: Vec<AotEntry> = if missing_rows.is_some() {
        ctx.shares
            .iter()
            .flat_map(|(_, s)| s.classes.iter().map(|c| c.row.clone()))
            .collect()
    } else {
        Vec::new()
    };
    let rows: &[AotEntry] = if share_rows.is_empty() {
        &t.entries
    } else {
        &share_rows
    };
    let rec = &mut b.reconciliation;
    let entries: Vec<AotEntryBreakdown> = rows
        .iter()
        .map(|e| entry(e, oom_entry.map(|n| (n, oom_basis)), rec))
        .collect();
    let share_levels = shares(ctx.shares, rec);
    // The pool ran when it booked a wall, whether or not the mint reached
    // `export_all_s` (a serial mint writes no pool ledger).
    let pooled = seconds_of(&t.totals, "export_all_s").is_some()
        || seconds_of(pool_facts, "pool_wall_s").is_some()
        || entries.iter().any(|e| e.shape == EntryShape::Pooled);
    let path = if class_pool || entries.iter().any(|e| e.shape == EntryShape::Class) {
        AotPath::ClassPool
    } else if pooled {
        AotPath::Pooled
    } else if entries.iter().any(|e| e.shape == EntryShape::Serial) {
        AotPath::Serial
    } else {
        AotPath::Unmeasured
    };

    let mut levels: Vec<Partition> = match path {
        AotPath::Pooled => (0..3).filter_map(|l| level_sum(&entries, l)).collect(),
        _ => level_sum(&entries, 0).into_iter().collect(),
    };
    if !share_levels.is_empty() {
        // The shares' levels hold the classes' own: outermost first.
        let child: Vec<&Partition> = share_levels
            .iter()
            .filter_map(|s| s.child_wall.as_ref())
            .collect();
        let compile: Vec<&Partition> = share_levels
            .iter()
            .filter_map(|s| s.compile_wall.as_ref())
            .collect();
        levels = [sum_of(&child, "shares"), sum_of(&compile, "shares")]
            .into_iter()
            .flatten()
            .collect();
        if let Some(last) = levels.last_mut() {
            // The written residuals were taken over the last class's members.
            last.residual.reported_s = None;
        }
    }
    // The table's `phases`/`overlays` are the same spans summed upstream.
    let mut summed: Vec<(String, f64)> = Vec::new();
    for e in &t.entries {
        let spans = e.phases.iter().flatten().chain(match path {
            AotPath::Pooled => e.overlays.iter(),
            _ => [].iter(),
        });
        for s in spans {
            match summed.iter_mut().find(|(n, _)| *n == s.name) {
                Some((_, v)) => *v += s.seconds,
                None => summed.push((s.name.clone(), s.seconds)),
            }
        }
    }
    if path == AotPath::ClassPool {
        // 0.124 on: the table's overlays are the shares' summed.
        for (_, r) in ctx.shares {
            for s in &r.overlays {
                match summed.iter_mut().find(|(n, _)| *n == s.name) {
                    Some((_, v)) => *v += s.seconds,
                    None => summed.push((s.name.clone(), s.seconds)),
                }
            }
        }
    }
    for s in t.phases.iter().chain(t.overlays.iter()) {
        if let Some((_, v)) = summed.iter().find(|(n, _)| *n == s.name) {
            rec.seconds(
                format!("phases.{} = sum over entries", s.name),
                s.seconds,
                *v,
            );
        }
    }
    if let Some(n) = t.n_entries {
        rec.count(
            "n_entries = number of entry rows",
            n,
            t.entries.len() as u64,
        );
    }
    for (key, get) in [
        (
            "export_s",
            (|e: &AotEntry| e.export_s) as fn(&AotEntry) -> Option<f64>,
        ),
        ("compile_s", |e: &AotEntry| e.compile_s),
        ("warm_s", |e: &AotEntry| e.warm_s),
    ] {
        // Only over entries that carry the key: the writer sums `or 0`, and
        // a table whose rows never carry it (lane's probe) has no sum to check.
        let values: Vec<f64> = t.entries.iter().filter_map(get).collect();
        if let (Some(stated), false) = (seconds_of(&t.totals, key), values.is_empty()) {
            let sum: f64 = values.iter().sum();
            rec.seconds(format!("totals.{key} = sum of entry {key}"), stated, sum);
        }
    }
    if let (Some(all), Some(total)) = (
        seconds_of(&t.totals, "compile_all_s"),
        seconds_of(&t.totals, "total_s"),
    ) {
        // One clock read twice in a row, each rounded to 10 ms.
        rec.seconds_within(
            "totals.compile_all_s = totals.total_s (one clock)",
            total,
            all,
            0.0101,
        );
    }

    let pool = (!pool_facts.is_empty()).then(|| pool(pool_facts, rec));
    // The pool folds each entry's wall into its row only once it returns, so
    // an aborted table's rows have none while the pool's ledger has them.
    let all_compiled = !t.entries.is_empty() && t.entries.iter().all(|e| e.compile_s.is_some());
    if let (Some(busy), Some(compile), true) = (
        seconds_of(pool_facts, "pool_busy_s"),
        seconds_of(&t.totals, "compile_s"),
        all_compiled && path == AotPath::Pooled,
    ) {
        rec.seconds("pool: pool_busy_s = totals.compile_s", compile, busy);
    }
    let (mint, beside_mint) = mint_partition(t, path, pool_facts, missing_rows.is_some());

    // The mint-level compile partition: the compiler's own level, summed.
    b.compile_partition = levels.last().cloned();
    let mut overlays: Vec<Term> = t
        .overlays
        .iter()
        .map(|s| Term::new(s.name.clone(), s.seconds))
        .collect();
    if missing_rows.is_some() && overlays.is_empty() {
        // The shares' overlays, summed as 0.124's table sums them.
        for (_, r) in ctx.shares {
            for s in &r.overlays {
                match overlays.iter_mut().find(|o| o.name == s.name) {
                    Some(o) => o.seconds += s.seconds,
                    None => overlays.push(Term::new(s.name.clone(), s.seconds)),
                }
            }
        }
    }
    if path == AotPath::Serial || path == AotPath::Unmeasured {
        // Serial `phases` carry `triton_s`, which nests inside the members.
        overlays.extend(
            t.phases
                .iter()
                .filter(|s| !COMPILER_MEMBERS.contains(&s.name.as_str()))
                .map(|s| Term::new(s.name.clone(), s.seconds)),
        );
    }
    // The class pool's overlays nest in different levels (`inductor_total_s`
    // in the compiler's, the seal's split in `child_seal_s`): each is set
    // against the outermost level measured, else the mint's total.
    let reference = match path {
        AotPath::ClassPool if !share_levels.is_empty() => levels.first(),
        AotPath::ClassPool => None,
        _ => b.compile_partition.as_ref(),
    }
    .map(|p| p.total.seconds)
    .or(match path {
        AotPath::ClassPool => seconds_of(&t.totals, "total_s"),
        _ => None,
    });
    b.overlays = overlay_rows(&overlays, reference);
    if missing_rows.is_none() {
        // 0.124 on: the table's class rows are the shares' class spans.
        for (name, r) in ctx.shares {
            for c in &r.classes {
                let table = t.entries.iter().find(|e| e.name == c.row.name);
                if let (Some(a), Some(b)) = (table.and_then(|e| e.compile_s), c.row.compile_s) {
                    rec.seconds(
                        format!("entry {}: compile_s = {name}'s class row", c.row.name),
                        a,
                        b,
                    );
                }
            }
        }
    }
    b.entries = entries;
    b.aot = Some(AotBreakdown {
        path,
        totals: t
            .totals
            .iter()
            .map(|f| TotalRow {
                note: total_note(t, f, missing_rows.as_ref()),
                fact: f.clone(),
            })
            .collect(),
        mint,
        beside_mint,
        levels,
        pool,
        partial: t.partial.clone(),
        posture: t.posture.clone(),
        shares: share_levels,
        missing_rows,
    });
}

/// `total_s` by the mint's consecutive phases, and what is shown beside it.
fn mint_partition(
    t: &AotTable,
    path: AotPath,
    pool_facts: &[Fact],
    no_rows: bool,
) -> (Option<Partition>, Vec<OverlayRow>) {
    let Some(total) = seconds_of(&t.totals, "total_s") else {
        return (None, Vec::new());
    };
    let get = |name: &str| seconds_of(&t.totals, name).or_else(|| seconds_of(pool_facts, name));
    let (members, beside): (Vec<&str>, &[&str]) = match path {
        AotPath::Pooled => (
            vec![
                "export_all_s",
                "seal_seed_s",
                "resume_admit_s",
                "pool_wall_s",
                "package_s",
                "declare_s",
            ],
            &["export_s", "warm_s", "compile_s"],
        ),
        // 0.114.3 on: the mint is its pool (the children export too);
        // `total_s` runs from the pool's start. Its rows' sums sit inside
        // the pool's wall; a table with no row (pgw#1356) has none to show.
        AotPath::ClassPool => (
            vec!["seal_seed_s", "resume_admit_s", "pool_wall_s"],
            if no_rows {
                &[]
            } else {
                &["export_s", "compile_s"]
            },
        ),
        _ => (
            vec!["export_s", "warm_s", "compile_s", "package_s", "declare_s"],
            &[],
        ),
    };
    let mut members = members;
    if get("pack_s").is_some() {
        members.push("pack_s");
    }
    // `resume_admit_s` exists only when a resume bank was opened.
    members.retain(|m| *m != "resume_admit_s" || get(m).is_some());
    let p = partition_of(Term::new("total_s", total), &members, MINT_OTHER, None, get);
    let beside: Vec<Term> = beside
        .iter()
        .filter_map(|k| seconds_of(&t.totals, k).map(|v| Term::new(*k, v)))
        .collect();
    (Some(p), overlay_rows(&beside, Some(total)))
}
