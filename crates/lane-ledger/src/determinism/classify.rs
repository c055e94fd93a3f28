//! Explaining each differing pair: known noise, an autotune config, or
//! unexplained (with the reason and the lines).

use std::collections::{BTreeMap, BTreeSet};

use super::configs::{self, BestConfig};
use super::pairing::{text_of, Pair, TreeIndex};
use super::text::{self, agrees_with_config, line_role, Prepared};
use super::{
    normalize, role_of, ArtifactFile, DiffClass, FileDiff, FileRole, NoiseKind, PairedBy,
    Unexplained, WrapperLine,
};

pub(super) struct Classifier<'c, 't> {
    pub(super) ia: &'c TreeIndex<'t>,
    pub(super) ib: &'c TreeIndex<'t>,
    pub(super) differs: &'c BTreeSet<String>,
    pub(super) kernel_configs: &'c BTreeMap<String, (Option<BestConfig>, Option<BestConfig>)>,
    pub(super) file_diffs: Vec<FileDiff>,
    pub(super) unexplained: Vec<Unexplained>,
    pub(super) carriers: BTreeMap<String, Vec<WrapperLine>>,
}

struct Outcome {
    class: DiffClass,
    noise: BTreeSet<NoiseKind>,
    reason: Option<String>,
    kernel: Option<String>,
    lines: Vec<WrapperLine>,
}

impl Outcome {
    fn noise(noise: BTreeSet<NoiseKind>) -> Self {
        Outcome {
            class: DiffClass::Noise,
            noise,
            reason: None,
            kernel: None,
            lines: Vec::new(),
        }
    }
    fn unexplained(reason: String) -> Self {
        Outcome {
            class: DiffClass::Unexplained,
            noise: BTreeSet::new(),
            reason: Some(reason),
            kernel: None,
            lines: Vec::new(),
        }
    }
}

impl Classifier<'_, '_> {
    pub(super) fn classify(&mut self, p: &Pair<'_>) {
        let (fa, fb) = match (p.a, p.b) {
            (Some(fa), Some(fb)) => (fa, fb),
            (fa, fb) => {
                let (side, f) = match (fa, fb) {
                    (Some(f), _) => ("A", f),
                    (_, Some(f)) => ("B", f),
                    _ => return,
                };
                let reason = format!("only in {side}: no counterpart by path, role or kernel");
                self.push(p, role_of(&f.path), Outcome::unexplained(reason));
                return;
            }
        };
        let same = fa.sha256.eq_ignore_ascii_case(&fb.sha256);
        if same {
            if p.by == PairedBy::Role {
                // Same bytes under another content-hashed name.
                let mut n = BTreeSet::new();
                n.insert(NoiseKind::HashedFileName);
                self.push(p, role_of(&fa.path), Outcome::noise(n));
            }
            return;
        }
        let role = role_of(&fa.path);
        let outcome = match (fa.content.as_deref(), fb.content.as_deref()) {
            (Some(ca), Some(cb)) => self.compare(role, fa, fb, ca, cb),
            _ => Outcome::unexplained(format!(
                "content not compared ({} and {} bytes, not loaded)",
                fa.size, fb.size
            )),
        };
        let mut outcome = outcome;
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
                reason: o.reason.clone().unwrap_or_default(),
                lines: o.lines.clone(),
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
                    let mut n = BTreeSet::new();
                    n.insert(NoiseKind::SerializationId);
                    Outcome::noise(n)
                } else {
                    Outcome::unexplained("serialization_id is not a plain random id".into())
                }
            }
            FileRole::BestConfig => self.best_config(fa, fb),
            FileRole::Cubin => {
                let kernel = self
                    .ia
                    .kernel_of(&fa.path)
                    .or_else(|| self.ib.kernel_of(&fb.path));
                let mut o = match &kernel {
                    Some(k) if self.differs.contains(k) => Outcome {
                        class: DiffClass::AutotuneConfig,
                        noise: BTreeSet::new(),
                        reason: Some(format!("compiled with a different autotune config for {k}")),
                        kernel: None,
                        lines: Vec::new(),
                    },
                    _ => self.binary(
                        ca,
                        cb,
                        "cubin differs beyond path noise while its kernel's config is the same",
                    ),
                };
                o.kernel = kernel;
                o
            }
            FileRole::Built => self.built(fa, fb, ca, cb),
            FileRole::Wrapper | FileRole::Source | FileRole::Other => {
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

    fn binary(&self, ca: &[u8], cb: &[u8], reason: &str) -> Outcome {
        let (na, ka) = normalize::normalize_binary(ca, &self.ia.roots);
        let (nb, kb) = normalize::normalize_binary(cb, &self.ib.roots);
        if na == nb {
            Outcome::noise(ka.union(&kb).copied().collect())
        } else {
            Outcome::unexplained(reason.to_owned())
        }
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
            return Outcome {
                class: DiffClass::AutotuneConfig,
                noise: BTreeSet::new(),
                reason: Some(format!(
                    "built from {} which differs by autotune configs",
                    d.a.as_deref().unwrap_or("")
                )),
                kernel: None,
                lines: Vec::new(),
            };
        }
        self.binary(
            ca,
            cb,
            "built binary differs beyond path noise while its source does not differ by configs",
        )
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
            let mut o = Outcome::unexplained("best_config is not a JSON object".into());
            o.kernel = kernel;
            return o;
        };
        let c = configs::compare(&a, &b);
        let mut o = if c.candidate_set_differs {
            Outcome::unexplained(
                "autotune chose among different candidate sets (configs_hash differs)".into(),
            )
        } else if !c.fields.is_empty() {
            let fields: Vec<String> = c.fields.iter().map(|f| f.field.clone()).collect();
            Outcome {
                class: DiffClass::AutotuneConfig,
                noise: BTreeSet::new(),
                reason: Some(format!("config fields differ: {}", fields.join(", "))),
                kernel: None,
                lines: Vec::new(),
            }
        } else if !c.measurement_fields.is_empty() {
            let mut n = BTreeSet::new();
            n.insert(NoiseKind::AutotuneMeasurement);
            Outcome::noise(n)
        } else {
            // Same fields and values, different bytes: formatting only.
            Outcome::noise(BTreeSet::new())
        };
        if !c.measurement_fields.is_empty() {
            o.noise.insert(NoiseKind::AutotuneMeasurement);
        }
        o.kernel = kernel;
        o
    }

    fn text(&mut self, fa: &ArtifactFile, fb: &ArtifactFile, ta: &str, tb: &str) -> Outcome {
        let pa: Prepared = text::prepare(ta, &self.ia.roots);
        let pb: Prepared = text::prepare(tb, &self.ib.roots);
        let d = text::diff(&pa, &pb);
        let mut explained = 0usize;
        let mut unexplained_lines = Vec::new();
        for line in &d.differing {
            let kernel = line.kernel().map(str::to_owned);
            // What was compared: paths normalised, shape constants inlined.
            let text_a = line.a.map(|l| l.compared.trim().to_owned());
            let text_b = line.b.map(|l| l.compared.trim().to_owned());
            let role = line_role(text_a.as_deref().or(text_b.as_deref()).unwrap_or(""));
            let agrees = kernel.as_deref().and_then(|k| {
                let (ca, cb) = self.kernel_configs.get(k)?;
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
            let carrier = kernel.as_deref().is_some_and(|k| self.differs.contains(k))
                && agrees != Some(false);
            if carrier {
                explained += 1;
                self.carriers
                    .entry(kernel.unwrap_or_default())
                    .or_default()
                    .push(wl);
            } else {
                unexplained_lines.push(wl);
            }
        }
        let _ = fb;
        if !unexplained_lines.is_empty() {
            let n = unexplained_lines.len();
            return Outcome {
                class: DiffClass::Unexplained,
                noise: d.noise,
                reason: Some(format!(
                    "{n} line(s) differ after normalisation outside the launchers of kernels whose configs differ (or against their config)"
                )),
                kernel: None,
                lines: unexplained_lines,
            };
        }
        if explained > 0 {
            return Outcome {
                class: DiffClass::AutotuneConfig,
                noise: d.noise,
                reason: Some(format!(
                    "{explained} line(s) carry differing autotune configs"
                )),
                kernel: None,
                lines: Vec::new(),
            };
        }
        Outcome::noise(d.noise)
    }
}
