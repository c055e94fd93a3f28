//! Which kernels' configs differ: from each tree's `*.best_config` files
//! where they ship, else from the launchers of each paired C++ wrapper
//! (one package entry per wrapper), and the findings about configs of the
//! wrong type.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::configs::{self, BestConfig, ConfigFieldDiff};
use super::launch::launch_configs;
use super::model::{
    ConfigSource, InputFinding, KernelDiff, KernelSummary, Unexplained, UnexplainedCause,
};
use super::pairing::{text_of, Pair, TreeIndex};
use super::{dir_of, role_of, FileRole};

/// A kernel: its name, and the wrapper directory (package entry) whose
/// launcher configures it, for configs read from a wrapper.
pub(super) type KernelKey = (Option<String>, String);

/// The config picture of two trees.
pub(super) struct KernelTable {
    /// best_configs per kernel name, A and B.
    pub(super) best: BTreeMap<String, (Option<BestConfig>, Option<BestConfig>)>,
    /// Kernels whose config differs, each with A's and B's configs.
    pub(super) differing: BTreeMap<KernelKey, KernelDiff>,
    /// Wrapper directories of B, mapped to A's (launch configs are keyed by A's).
    pub(super) dir_b_to_a: BTreeMap<String, String>,
    /// For kernels whose best_configs differ: the Triton cache directory of
    /// the candidate each side's autotune chose (`triton_cache_hash`).
    pub(super) winners: BTreeMap<KernelKey, (Option<String>, Option<String>)>,
    pub(super) summary: KernelSummary,
    pub(super) findings: Vec<InputFinding>,
    pub(super) unexplained: Vec<Unexplained>,
}

impl KernelTable {
    /// The key of the differing config of `kernel` as seen from a file in
    /// `dir` of tree A (`side_b` false) or B, if its config differs.
    pub(super) fn differing_key(&self, dir: &str, kernel: &str, side_b: bool) -> Option<KernelKey> {
        let by_name = (None, kernel.to_owned());
        if self.differing.contains_key(&by_name) {
            return Some(by_name);
        }
        let dir = if side_b {
            self.dir_b_to_a.get(dir).map_or(dir, String::as_str)
        } else {
            dir
        };
        let by_entry = (Some(dir.to_owned()), kernel.to_owned());
        self.differing.contains_key(&by_entry).then_some(by_entry)
    }

    /// The differing fields of a kernel, as `XBLOCK 128 -> 256` text.
    pub(super) fn fields_text(&self, key: &KernelKey) -> String {
        self.differing
            .get(key)
            .map(|d| {
                d.fields
                    .iter()
                    .map(|f| format!("{} {} -> {}", f.field, value(&f.a), value(&f.b)))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
    }
}

fn value(v: &Option<Value>) -> String {
    v.as_ref()
        .map_or_else(|| "absent".to_owned(), Value::to_string)
}

/// The entry a wrapper directory stands for: the part after
/// `data/aotinductor/` in a `.pt2`, else the directory.
pub(super) fn entry_name(dir: &str) -> Option<String> {
    if dir.is_empty() {
        return None;
    }
    Some(
        dir.split_once("data/aotinductor/")
            .map_or(dir, |(_, e)| e)
            .to_owned(),
    )
}

fn to_config(fields: BTreeMap<String, Value>) -> BestConfig {
    BestConfig { fields }
}

pub(super) fn build(pairs: &[Pair<'_>], ia: &TreeIndex<'_>, ib: &TreeIndex<'_>) -> KernelTable {
    let mut best: BTreeMap<String, (Option<BestConfig>, Option<BestConfig>)> = BTreeMap::new();
    let mut findings = Vec::new();
    let mut ill_typed_kernels = BTreeSet::new();
    let mut unexplained = Vec::new();
    for p in pairs {
        for (side, file, index) in [("A", p.a, ia), ("B", p.b, ib)] {
            let Some(f) = file.filter(|f| role_of(&f.path) == FileRole::BestConfig) else {
                continue;
            };
            let kernel = index
                .kernel_of(&f.path)
                .unwrap_or_else(|| format!("(unattributed {})", f.path));
            let cfg = text_of(f).and_then(BestConfig::parse);
            if let Some(c) = &cfg {
                let bad = c.ill_typed();
                for (field, v, expected) in &bad {
                    findings.push(InputFinding {
                        side,
                        path: f.path.clone(),
                        kernel: Some(kernel.clone()),
                        field: (*field).to_owned(),
                        value: (*v).clone(),
                        expected,
                    });
                }
                if !bad.is_empty() {
                    ill_typed_kernels.insert(kernel.clone());
                    let list: Vec<String> = bad
                        .iter()
                        .map(|(field, v, expected)| format!("{field} is {v}, expected {expected}"))
                        .collect();
                    unexplained.push(Unexplained {
                        a: (side == "A").then(|| f.path.clone()),
                        b: (side == "B").then(|| f.path.clone()),
                        cause: UnexplainedCause::IllTypedConfig,
                        reason: format!(
                            "best_config of {kernel} in {side} has ill-typed fields ({}); its config is not compared",
                            list.join("; ")
                        ),
                        lines: Vec::new(),
                        values: Vec::new(),
                        ranges: Vec::new(),
                    });
                }
            }
            let e = best.entry(kernel).or_default();
            if side == "A" {
                e.0 = cfg;
            } else {
                e.1 = cfg;
            }
        }
    }
    let mut summary = KernelSummary {
        from_best_config: best.len(),
        ..KernelSummary::default()
    };
    let mut differing = BTreeMap::new();
    let mut winners = BTreeMap::new();
    let mut same = BTreeSet::new();
    for (k, (ca, cb)) in &best {
        if ill_typed_kernels.contains(k) {
            continue;
        }
        if let (Some(ca), Some(cb)) = (ca, cb) {
            let c = configs::compare(ca, cb);
            if c.fields.is_empty() {
                summary.agreeing += 1;
                same.insert(k.clone());
            } else {
                let hash = |c: &BestConfig| {
                    c.fields
                        .get("triton_cache_hash")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                };
                winners.insert((None, k.clone()), (hash(ca), hash(cb)));
                differing.insert(
                    (None, k.clone()),
                    kernel_diff(k, None, ConfigSource::BestConfig, ca, cb, c.fields),
                );
            }
        }
    }

    // Launch configs, per paired C++ wrapper, for kernels with no best_config.
    let mut dir_b_to_a = BTreeMap::new();
    for p in pairs {
        let (Some(fa), Some(fb)) = (p.a, p.b) else {
            continue;
        };
        if role_of(&fa.path) != FileRole::Wrapper || !fa.path.ends_with(".cpp") {
            continue;
        }
        let (Some(ta), Some(tb)) = (text_of(fa), text_of(fb)) else {
            continue;
        };
        let dir_a = dir_of(&fa.path).to_owned();
        dir_b_to_a.insert(dir_of(&fb.path).to_owned(), dir_a.clone());
        let la = launch_configs(ta);
        let lb = if fa.sha256.eq_ignore_ascii_case(&fb.sha256) {
            la.clone()
        } else {
            launch_configs(tb)
        };
        for (k, ca) in &la {
            if best.contains_key(k) {
                continue;
            }
            let Some(cb) = lb.get(k) else { continue };
            summary.from_wrapper += 1;
            let (ca, cb) = (to_config(ca.fields.clone()), to_config(cb.fields.clone()));
            let c = configs::compare(&ca, &cb);
            if c.fields.is_empty() {
                summary.agreeing += 1;
                same.insert(k.clone());
            } else {
                let entry = entry_name(&dir_a);
                differing.insert(
                    (Some(dir_a.clone()), k.clone()),
                    kernel_diff(k, entry, ConfigSource::WrapperLaunch, &ca, &cb, c.fields),
                );
            }
        }
    }
    summary.with_configs = summary.from_best_config + summary.from_wrapper;
    summary.differing = differing.len();
    let names: BTreeSet<String> = differing.keys().map(|(_, k)| k.clone()).collect();
    summary.config_same = same.difference(&names).cloned().collect();
    summary.config_differs = names.into_iter().collect();
    KernelTable {
        best,
        differing,
        dir_b_to_a,
        winners,
        summary,
        findings,
        unexplained,
    }
}

fn kernel_diff(
    kernel: &str,
    entry: Option<String>,
    source: ConfigSource,
    a: &BestConfig,
    b: &BestConfig,
    fields: Vec<ConfigFieldDiff>,
) -> KernelDiff {
    KernelDiff {
        kernel: kernel.to_owned(),
        entry,
        source,
        config_a: a.config(),
        config_b: b.config(),
        fields,
        wrapper_lines: Vec::new(),
        cubin: None,
    }
}
