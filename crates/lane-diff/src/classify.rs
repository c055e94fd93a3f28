//! Explaining each differing pair: known noise, a kernel's config, a
//! recorded decision, or unexplained (with its named cause, the reason and
//! the lines or values).

use std::collections::{BTreeMap, BTreeSet};

use super::chunks::{self, ByteRange, ChunkIndex};
use super::configs::{self, BestConfig};
use super::jsondiff::{diff_json, JsonContext};
use super::kernels::{KernelKey, KernelTable};
use super::model::{DecisionDiff, JsonValueDiff, UnexplainedCause};
use super::padmm::PadRule;
use super::pairing::{text_of, triton_dir, Pair, TreeIndex};
use super::provenance::{decision_kernels, Origins};
use super::text::{self, agrees_with_config, line_role, Prepared};
use super::{
    dir_of, normalize, role_of, word, ArtifactFile, DiffClass, FileDiff, FileRole, NoiseKind,
    PairedBy, Unexplained, WrapperLine,
};

mod fxgraph;

pub(super) struct Classifier<'c, 't> {
    pub(super) ia: &'c TreeIndex<'t>,
    pub(super) ib: &'c TreeIndex<'t>,
    pub(super) table: &'c KernelTable,
    pub(super) file_diffs: Vec<FileDiff>,
    pub(super) unexplained: Vec<Unexplained>,
    pub(super) carriers: BTreeMap<KernelKey, Vec<WrapperLine>>,
    pub(super) decisions: Vec<DecisionDiff>,
    /// Kernels (A's names; B's for kernels only in B) whose code or
    /// existence a flipped graph-shaping decision explains, with it.
    pub(super) decision_kernels: BTreeMap<String, String>,
    /// Each side's chunk prints, for files whose content was not loaded.
    pub(super) chunks: [&'c ChunkIndex; 2],
}

struct Outcome {
    class: DiffClass,
    noise: BTreeSet<NoiseKind>,
    reason: Option<String>,
    kernel: Option<String>,
    cause: Option<UnexplainedCause>,
    lines: Vec<WrapperLine>,
    values: Vec<JsonValueDiff>,
    ranges: Vec<ByteRange>,
}

impl Outcome {
    fn noise(noise: BTreeSet<NoiseKind>) -> Self {
        Outcome {
            class: DiffClass::Noise,
            noise,
            reason: None,
            kernel: None,
            cause: None,
            lines: Vec::new(),
            values: Vec::new(),
            ranges: Vec::new(),
        }
    }
    fn explained(class: DiffClass, reason: String) -> Self {
        Outcome {
            class,
            reason: Some(reason),
            ..Outcome::noise(BTreeSet::new())
        }
    }
    fn unexplained(cause: UnexplainedCause, reason: String) -> Self {
        Outcome {
            class: DiffClass::Unexplained,
            reason: Some(reason),
            cause: Some(cause),
            ..Outcome::noise(BTreeSet::new())
        }
    }
}

fn one(kind: NoiseKind) -> BTreeSet<NoiseKind> {
    std::iter::once(kind).collect()
}

impl Classifier<'_, '_> {
    /// After the benchmark caches are read: the kernels a flipped
    /// graph-shaping decision (pad_mm on an op) brings, found by following
    /// each tree's output code from the decided op (the `provenance`
    /// module), recorded on the decision and kept for the files of those
    /// kernels.
    pub(super) fn graph_decisions(&mut self) {
        let mut origins = None;
        for d in &mut self.decisions {
            let Some(rule) = PadRule::of(d) else {
                continue;
            };
            let (oa, ob) = origins
                .get_or_insert_with(|| (Origins::of(self.ia.tree), Origins::of(self.ib.tree)));
            let (sources, kernels) = decision_kernels(&rule, oa, ob, &self.ib.rename);
            for k in &kernels {
                self.decision_kernels
                    .insert(k.kernel.clone(), rule.label.clone());
            }
            d.source_nodes = sources;
            d.kernels = kernels;
        }
    }

    fn decision_of(&self, kernel: Option<&str>) -> Option<(&str, &str)> {
        let k = kernel?;
        self.decision_kernels
            .get_key_value(k)
            .map(|(k, v)| (k.as_str(), v.as_str()))
    }

    pub(super) fn classify(&mut self, p: &Pair<'_>) {
        let (fa, fb) = match (p.a, p.b) {
            (Some(fa), Some(fb)) => (fa, fb),
            (fa, fb) => {
                let (side, f) = match (fa, fb) {
                    (Some(f), _) => ("A", f),
                    (_, Some(f)) => ("B", f),
                    _ => return,
                };
                let index = if side == "A" { self.ia } else { self.ib };
                let kernel = index.kernel_of(&f.path);
                let changed = kernel
                    .as_deref()
                    .is_some_and(|k| self.ib.rename.changed.iter().any(|c| c == k));
                let o = match self.decision_of(kernel.as_deref()) {
                    Some((k, why)) => {
                        let how = if changed {
                            format!(
                                "whose code differs, so it has no counterpart in {}",
                                if side == "A" { "B" } else { "A" }
                            )
                        } else {
                            format!("which only {side}'s graph has")
                        };
                        let mut o = Outcome::explained(
                            DiffClass::Decision,
                            format!("a file of {k}, {how}: {why}"),
                        );
                        o.kernel = kernel.clone();
                        o
                    }
                    None => Outcome::unexplained(
                        UnexplainedCause::OnlyInOneTree,
                        format!("only in {side}: no counterpart by path, role, kernel or content"),
                    ),
                };
                self.push(p, role_of(&f.path), o);
                return;
            }
        };
        if fa.sha256.eq_ignore_ascii_case(&fb.sha256) {
            if p.by == PairedBy::Role {
                // Same bytes under another content-hashed name.
                let o = Outcome::noise(one(NoiseKind::HashedFileName));
                self.push(p, role_of(&fa.path), o);
            }
            return;
        }
        let role = role_of(&fa.path);
        let mut outcome = match (fa.content.as_deref(), fb.content.as_deref()) {
            (Some(ca), Some(cb)) => self.compare(role, fa, fb, ca, cb),
            _ => {
                let what = format!("a {} file", word(role));
                let [ia, ib] = self.chunks;
                let (cause, reason, ranges) = chunks::not_loaded(&what, fa, fb, ia, ib);
                let mut o = Outcome::unexplained(cause, reason);
                o.ranges = ranges;
                o
            }
        };
        if outcome.class == DiffClass::Unexplained {
            let kernel = self.ia.kernel_of(&fa.path);
            if let Some((k, why)) = self.decision_of(kernel.as_deref()) {
                outcome = Outcome::explained(
                    DiffClass::Decision,
                    format!("a file of {k}, whose code changed: {why}"),
                );
                outcome.kernel = kernel.clone();
            }
        }
        if p.by == PairedBy::Role {
            outcome.noise.insert(NoiseKind::HashedFileName);
        }
        self.push(p, role, outcome);
    }

    fn push(&mut self, p: &Pair<'_>, role: FileRole, o: Outcome) {
        let a = p.a.map(|f| f.path.clone());
        let b = p.b.map(|f| f.path.clone());
        if o.class == DiffClass::Unexplained {
            self.unexplained.push(Unexplained {
                a: a.clone(),
                b: b.clone(),
                cause: o.cause.unwrap_or(UnexplainedCause::Binary),
                reason: o.reason.clone().unwrap_or_default(),
                lines: o.lines,
                values: o.values,
                ranges: o.ranges,
            });
        }
        self.file_diffs.push(FileDiff {
            a,
            b,
            role,
            paired_by: p.by,
            kernel: o.kernel,
            class: o.class,
            noise: o.noise.into_iter().collect(),
            reason: o.reason,
        });
    }

    fn compare(
        &mut self,
        role: FileRole,
        fa: &ArtifactFile,
        fb: &ArtifactFile,
        ca: &[u8],
        cb: &[u8],
    ) -> Outcome {
        match role {
            FileRole::SerializationId => {
                let token = |c: &[u8]| {
                    !c.is_empty()
                        && c.len() <= 128
                        && c.iter().all(|b| {
                            b.is_ascii_alphanumeric() || b.is_ascii_whitespace() || *b == b'-'
                        })
                };
                if token(ca) && token(cb) {
                    Outcome::noise(one(NoiseKind::SerializationId))
                } else {
                    Outcome::unexplained(
                        UnexplainedCause::SerializationId,
                        "serialization_id is not a plain random id".into(),
                    )
                }
            }
            FileRole::BestConfig => self.best_config(fa, fb),
            FileRole::Cubin => self.cubin(fa, fb, ca, cb),
            FileRole::Built => self.built(fa, fb, ca, cb),
            FileRole::BenchmarkCache => self
                .json(fa, fb, ca, cb, true)
                .unwrap_or_else(|| self.binary(ca, cb, "benchmark cache is not JSON")),
            FileRole::FxGraphEntry => self.fx_entry(ca, cb),
            FileRole::Weights => {
                let (what, ranges) = chunks::loaded(ca, cb);
                let mut o = Outcome::unexplained(
                    UnexplainedCause::Binary,
                    format!("weights differ: {what}"),
                );
                o.ranges = ranges;
                o
            }
            FileRole::Wrapper | FileRole::Source | FileRole::Other => {
                if fa.path.ends_with(".json") {
                    if let Some(o) = self.json(fa, fb, ca, cb, false) {
                        return o;
                    }
                }
                match (std::str::from_utf8(ca), std::str::from_utf8(cb)) {
                    (Ok(ta), Ok(tb))
                        if role != FileRole::Other || (!ca.contains(&0) && !cb.contains(&0)) =>
                    {
                        self.text(fa, fb, ta, tb)
                    }
                    _ => self.binary(ca, cb, "binary differs beyond path noise"),
                }
            }
        }
    }

    /// `None` when either side is not JSON (compared as text instead).
    fn json(
        &mut self,
        fa: &ArtifactFile,
        fb: &ArtifactFile,
        ca: &[u8],
        cb: &[u8],
        bench: bool,
    ) -> Option<Outcome> {
        let va: serde_json::Value = serde_json::from_slice(ca).ok()?;
        let vb: serde_json::Value = serde_json::from_slice(cb).ok()?;
        let triton_dirs = match (triton_dir(&fa.path), triton_dir(&fb.path)) {
            (Some((da, _)), Some((db, _))) => Some((da, db)),
            _ => None,
        };
        let cx = JsonContext {
            file: &fa.path,
            roots_a: &self.ia.roots,
            roots_b: &self.ib.roots,
            benchmark_cache: bench,
            rename_b: Some(&self.ib.rename),
            triton_dirs,
        };
        let out = diff_json(&cx, &va, &vb);
        let mut noise = out.noise;
        if !out.unexplained.is_empty() || out.truncated {
            let n = out.unexplained.len();
            let more = if out.truncated { " (and more)" } else { "" };
            let mut o = Outcome::unexplained(
                UnexplainedCause::JsonValues,
                format!("{n} JSON value(s){more} differ that are neither a timing nor a decision"),
            );
            o.values = out.unexplained;
            o.noise = noise;
            self.decisions.extend(out.decisions);
            return Some(o);
        }
        if !out.decisions.is_empty() {
            let at: Vec<&str> = out.decisions.iter().map(|d| d.path.as_str()).collect();
            let mut o = Outcome::explained(
                DiffClass::Decision,
                format!("recorded decision(s) flipped: {}", at.join(", ")),
            );
            o.noise = noise;
            self.decisions.extend(out.decisions);
            return Some(o);
        }
        if noise.is_empty() {
            noise.insert(NoiseKind::Formatting);
        }
        Some(Outcome::noise(noise))
    }

    fn binary(&self, ca: &[u8], cb: &[u8], reason: &str) -> Outcome {
        let (na, ka) = normalize::normalize_binary(ca, &self.ia.roots);
        let (nb, kb) = normalize::normalize_binary(cb, &self.ib.roots);
        if na == nb {
            Outcome::noise(ka.union(&kb).copied().collect())
        } else {
            Outcome::unexplained(UnexplainedCause::Binary, reason.to_owned())
        }
    }

    /// A cubin in a Triton cache directory paired by its candidate: the
    /// same config, so what can differ is noise, the kernel's name, or the
    /// code it was compiled from. `ptxas` builds it from the `.ptx` beside
    /// it: if that PTX is equal once normalised, so is the kernel.
    fn triton_cubin(
        &self,
        fa: &ArtifactFile,
        ca: &[u8],
        cb: &[u8],
        kernel: Option<String>,
    ) -> Outcome {
        let mut o = self.binary(ca, cb, "");
        if o.class != DiffClass::Unexplained {
            o.kernel = kernel;
            return o;
        }
        let ptx = fa
            .path
            .rsplit_once('.')
            .map(|(stem, _)| format!("{stem}.ptx"));
        let sibling = ptx.and_then(|p| {
            self.file_diffs
                .iter()
                .find(|d| d.a.as_deref() == Some(p.as_str()))
        });
        let same_ptx = sibling.is_none_or(|d| d.class == DiffClass::Noise)
            && ptx_pair_exists(self.ia, &fa.path);
        o = if same_ptx {
            let mut n: BTreeSet<NoiseKind> = sibling
                .map(|d| d.noise.iter().copied().collect())
                .unwrap_or_default();
            n.insert(NoiseKind::KernelRenumbering);
            Outcome::noise(n)
        } else if let Some(d) = sibling.filter(|d| d.class == DiffClass::Decision) {
            Outcome::explained(
                DiffClass::Decision,
                format!(
                    "compiled from {}, which {}",
                    d.a.as_deref().unwrap_or(""),
                    d.reason.as_deref().unwrap_or("differs by a decision")
                ),
            )
        } else {
            Outcome::unexplained(
                UnexplainedCause::CubinSameConfig,
                "cubin of an autotune candidate differs beyond noise while the candidate (source and launch config) is the same".into(),
            )
        };
        o.kernel = kernel;
        o
    }

    fn cubin(&self, fa: &ArtifactFile, fb: &ArtifactFile, ca: &[u8], cb: &[u8]) -> Outcome {
        let kernel = self
            .ia
            .kernel_of(&fa.path)
            .or_else(|| self.ib.kernel_of(&fb.path));
        if triton_dir(&fa.path).is_some() {
            return self.triton_cubin(fa, ca, cb, kernel);
        }
        let key = kernel
            .as_deref()
            .and_then(|k| self.table.differing_key(dir_of(&fa.path), k, false));
        let mut o = match (&kernel, key) {
            (Some(k), Some(key)) => Outcome::explained(
                DiffClass::AutotuneConfig,
                format!(
                    "compiled for another config of {k} ({})",
                    self.table.fields_text(&key)
                ),
            ),
            (Some(k), None) => {
                let mut o = self.binary(ca, cb, "");
                if o.class == DiffClass::Unexplained {
                    o = Outcome::unexplained(
                        UnexplainedCause::CubinSameConfig,
                        format!(
                            "cubin of {k} differs beyond path noise while its config is the same (what a wrapper does not show, num_stages or a reduction's R0_BLOCK, or the compiler)"
                        ),
                    );
                }
                o
            }
            (None, _) => self.binary(
                ca,
                cb,
                "cubin differs beyond path noise and no wrapper or best_config names its kernel",
            ),
        };
        o.kernel = kernel;
        o
    }

    fn built(&self, fa: &ArtifactFile, fb: &ArtifactFile, ca: &[u8], cb: &[u8]) -> Outcome {
        // `X.wrapper.so` is built from `X.wrapper.cpp` (and `.o` likewise).
        let source = |path: &str| {
            let stem = path.rsplit_once('.').map_or(path, |(s, _)| s);
            format!("{stem}.cpp")
        };
        let (sa, sb) = (source(&fa.path), source(&fb.path));
        let source_diff = self
            .file_diffs
            .iter()
            .find(|d| d.a.as_deref() == Some(sa.as_str()) && d.b.as_deref() == Some(sb.as_str()));
        if let Some(d) = source_diff.filter(|d| d.class == DiffClass::AutotuneConfig) {
            return Outcome::explained(
                DiffClass::AutotuneConfig,
                format!(
                    "built from {}, whose only differences are the configs of kernels whose configs differ",
                    d.a.as_deref().unwrap_or("")
                ),
            );
        }
        let o = self.binary(ca, cb, "");
        if o.class != DiffClass::Unexplained {
            return o;
        }
        // A binary follows its source: a source that differs by noise that
        // changes code (renumbered shape constants; not the paths and names
        // the binary's own normalisation masks) or by a decision that
        // flipped explains it. A binary whose source is the same once that
        // is masked, or differs unexplained, is a residual of its own.
        let explains = |d: &&FileDiff| match d.class {
            DiffClass::Decision => true,
            DiffClass::Noise => d
                .noise
                .iter()
                .any(|k| !normalize::MASKED_IN_BINARIES.contains(k)),
            _ => false,
        };
        match source_diff.filter(explains) {
            Some(d) => {
                let what = match d.class {
                    DiffClass::Noise => "known noise",
                    _ => "what a recorded decision that flipped changed",
                };
                Outcome {
                    class: d.class,
                    reason: Some(format!(
                        "built from {}, whose only differences are {what}",
                        d.a.as_deref().unwrap_or("")
                    )),
                    cause: None,
                    ..o
                }
            }
            None => Outcome::unexplained(
                UnexplainedCause::BuiltBinary,
                "built binary differs beyond path noise while its source does not differ by configs, noise or a decision"
                    .into(),
            ),
        }
    }

    fn best_config(&self, fa: &ArtifactFile, fb: &ArtifactFile) -> Outcome {
        let kernel = self
            .ia
            .kernel_of(&fa.path)
            .or_else(|| self.ib.kernel_of(&fb.path));
        let parsed = (
            text_of(fa).and_then(BestConfig::parse),
            text_of(fb).and_then(BestConfig::parse),
        );
        let (Some(a), Some(b)) = parsed else {
            let mut o = Outcome::unexplained(
                UnexplainedCause::UnreadableConfig,
                "best_config is not a JSON object".into(),
            );
            o.kernel = kernel;
            return o;
        };
        let c = configs::compare(&a, &b);
        let ill_typed = !a.ill_typed().is_empty() || !b.ill_typed().is_empty();
        let mut o = if ill_typed {
            Outcome::unexplained(
                UnexplainedCause::IllTypedConfig,
                "best_config has ill-typed fields (see findings); not compared".into(),
            )
        } else if c.candidate_set_differs {
            Outcome::unexplained(
                UnexplainedCause::CandidateSet,
                "autotune chose among different candidate sets (configs_hash differs)".into(),
            )
        } else if !c.fields.is_empty() {
            let fields: Vec<String> = c.fields.iter().map(|f| f.field.clone()).collect();
            Outcome::explained(
                DiffClass::AutotuneConfig,
                format!("config fields differ: {}", fields.join(", ")),
            )
        } else if !c.measurement_fields.is_empty() {
            Outcome::noise(one(NoiseKind::AutotuneMeasurement))
        } else {
            // Same fields and values, different bytes: formatting only.
            Outcome::noise(one(NoiseKind::Formatting))
        };
        if !c.measurement_fields.is_empty() {
            o.noise.insert(NoiseKind::AutotuneMeasurement);
        }
        o.kernel = kernel;
        o
    }

    fn text(&mut self, fa: &ArtifactFile, fb: &ArtifactFile, ta: &str, tb: &str) -> Outcome {
        let pa: Prepared = text::prepare(ta, &self.ia.roots, None);
        let pb: Prepared = text::prepare(tb, &self.ib.roots, Some(&self.ib.rename));
        let d = text::diff(&pa, &pb);
        let dir = dir_of(&fa.path);
        let mut explained: BTreeSet<String> = BTreeSet::new();
        let mut explained_lines = 0usize;
        // Every differing line, and whether it carries a config.
        let mut all_lines: Vec<(WrapperLine, bool)> = Vec::new();
        for line in &d.differing {
            let kernel = line.kernel().map(str::to_owned);
            // What was compared: paths normalised, shape constants inlined.
            let text_a = line.a.map(|l| l.unmasked.trim().to_owned());
            let text_b = line.b.map(|l| l.unmasked.trim().to_owned());
            let role = line_role(text_a.as_deref().or(text_b.as_deref()).unwrap_or(""));
            let agrees = kernel.as_deref().and_then(|k| {
                let (ca, cb) = self.table.best.get(k)?;
                let va = match (&text_a, ca) {
                    (Some(t), Some(c)) => agrees_with_config(t, c),
                    _ => None,
                };
                let vb = match (&text_b, cb) {
                    (Some(t), Some(c)) => agrees_with_config(t, c),
                    _ => None,
                };
                match (va, vb) {
                    (None, None) => None,
                    (x, y) => Some(x.unwrap_or(true) && y.unwrap_or(true)),
                }
            });
            let wl = WrapperLine {
                file: fa.path.clone(),
                role,
                kernel: kernel.clone(),
                line_a: line.a.map(|l| l.no),
                line_b: line.b.map(|l| l.no),
                text_a,
                text_b,
                agrees_with_config: agrees,
            };
            // A kernel whose code a decision changed differs by that code,
            // not by the config its lines would carry.
            let key = kernel
                .as_deref()
                .filter(|k| !self.decision_kernels.contains_key(*k))
                .and_then(|k| self.table.differing_key(dir, k, false))
                .filter(|_| agrees != Some(false));
            match key {
                Some(key) => {
                    explained_lines += 1;
                    explained.insert(key.1.clone());
                    all_lines.push((wl.clone(), true));
                    self.carriers.entry(key).or_default().push(wl);
                }
                None => all_lines.push((wl, false)),
            }
        }
        let _ = fb;
        let (decided, unexplained_lines) = self.decision_regions(all_lines);
        let (follows, unexplained_lines) = self.pad_mm_lines(unexplained_lines);
        if !unexplained_lines.is_empty() {
            let n = unexplained_lines.len();
            let mut o = Outcome::unexplained(
                UnexplainedCause::TextLines,
                format!(
                    "{n} line(s) differ after normalisation outside the launchers of kernels whose configs differ (or against their config)"
                ),
            );
            o.noise = d.noise;
            o.lines = unexplained_lines;
            return o;
        }
        if !decided.is_empty() || !follows.is_empty() {
            let mut parts = Vec::new();
            if !decided.is_empty() {
                parts.push(format!(
                    "{} line(s) differ around kernels a decision changed: {}",
                    decided.values().sum::<usize>(),
                    decided.keys().cloned().collect::<Vec<_>>().join("; "),
                ));
            }
            for (label, n) in &follows {
                parts.push(format!("{n} line(s) follow {label}"));
            }
            if explained_lines > 0 {
                parts.push(format!("{explained_lines} line(s) carry differing configs"));
            }
            let mut o = Outcome::explained(DiffClass::Decision, parts.join("; "));
            o.noise = d.noise;
            return o;
        }
        if explained_lines > 0 {
            let names: Vec<&str> = explained.iter().map(String::as_str).collect();
            let mut o = Outcome::explained(
                DiffClass::AutotuneConfig,
                format!(
                    "{explained_lines} line(s) carry the differing configs of {}",
                    names.join(", ")
                ),
            );
            o.noise = d.noise;
            return o;
        }
        Outcome::noise(d.noise)
    }

    /// Of the lines left, those a flipped pad_mm decision predicts line
    /// by line (the `padmm` module), recorded on the decision with role
    /// `pad_mm`. Returns how many lines each decision explains, and the
    /// lines left.
    fn pad_mm_lines(
        &mut self,
        mut lines: Vec<WrapperLine>,
    ) -> (Vec<(String, usize)>, Vec<WrapperLine>) {
        let mut follows = Vec::new();
        for i in 0..self.decisions.len() {
            if lines.is_empty() {
                break;
            }
            let Some(rule) = PadRule::of(&self.decisions[i]) else {
                continue;
            };
            let (hit, left) = rule.attribute(lines);
            lines = left;
            if !hit.is_empty() {
                follows.push((rule.label.clone(), hit.len()));
                self.decisions[i].lines.extend(hit);
            }
        }
        (follows, lines)
    }

    /// Differing lines that sit in a region (runs of differing lines at
    /// most four lines apart) touching a kernel a decision explains: the
    /// output code around a padded matmul. Returns how many lines each
    /// decision explains, and the lines left.
    fn decision_regions(
        &self,
        lines: Vec<(WrapperLine, bool)>,
    ) -> (BTreeMap<String, usize>, Vec<WrapperLine>) {
        let mut decided = BTreeMap::new();
        if self.decision_kernels.is_empty() {
            let left = lines
                .into_iter()
                .filter(|(_, c)| !c)
                .map(|(l, _)| l)
                .collect();
            return (decided, left);
        }
        let near = |x: Option<usize>, y: Option<usize>| match (x, y) {
            (Some(x), Some(y)) => x.abs_diff(y) <= 4,
            _ => false,
        };
        let mut regions: Vec<Vec<(WrapperLine, bool)>> = Vec::new();
        for l in lines {
            let continues = regions
                .last()
                .and_then(|r| r.last())
                .is_some_and(|(p, _)| near(p.line_a, l.0.line_a) || near(p.line_b, l.0.line_b));
            match regions.last_mut() {
                Some(r) if continues => r.push(l),
                _ => regions.push(vec![l]),
            }
        }
        let mut left = Vec::new();
        for r in regions {
            let why = r.iter().find_map(|(l, _)| {
                self.decision_of(l.kernel.as_deref())
                    .map(|(_, w)| w.to_owned())
            });
            let open: Vec<WrapperLine> =
                r.into_iter().filter(|(_, c)| !c).map(|(l, _)| l).collect();
            match why {
                Some(w) if !open.is_empty() => *decided.entry(w).or_default() += open.len(),
                Some(_) => {}
                None => left.extend(open),
            }
        }
        (decided, left)
    }
}

/// Whether A has the `.ptx` a Triton-cache cubin was built from.
fn ptx_pair_exists(ia: &TreeIndex<'_>, cubin: &str) -> bool {
    cubin
        .rsplit_once('.')
        .is_some_and(|(stem, _)| ia.by_path.contains_key(format!("{stem}.ptx").as_str()))
}
