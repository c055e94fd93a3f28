//! FX-graph cache entries: each follows the output code it holds, or is
//! compared as what it pickles (`crate::fxentry`).

use std::collections::BTreeSet;

use super::{Classifier, Outcome};
use crate::pairing::TreeIndex;
use crate::{DiffClass, FileRole, NoiseKind, UnexplainedCause};

impl Classifier<'_, '_> {
    /// An FX-graph cache entry holds its graph's output code, named by its
    /// `cache_key` (the output code's content-hashed file name): it
    /// differs when, and as, that output code differs.
    pub(super) fn fx_entry(&self, ca: &[u8], cb: &[u8]) -> Outcome {
        // The pickle stores `cache_key` then its value a few bytes on.
        let holds = |bytes: &[u8], path: Option<&str>| {
            let stem = path
                .map(crate::base_of)
                .and_then(|n| n.strip_suffix(".py"))
                .unwrap_or("");
            !stem.is_empty()
                && memchr::memmem::find_iter(bytes, b"cache_key").any(|at| {
                    let window = &bytes[at..bytes.len().min(at + 9 + 16 + stem.len())];
                    memchr::memmem::find(window, stem.as_bytes()).is_some()
                })
        };
        let code = self.file_diffs.iter().find(|d| {
            d.role == FileRole::Source && holds(ca, d.a.as_deref()) && holds(cb, d.b.as_deref())
        });
        match code {
            Some(d) if d.class != DiffClass::Unexplained && d.class != DiffClass::Noise => {
                Outcome::explained(
                    d.class,
                    format!(
                        "the FX-graph cache entry of the output code {}, which differs: {}",
                        d.a.as_deref().unwrap_or(""),
                        d.reason.as_deref().unwrap_or("")
                    ),
                )
            }
            _ => self.fx_entry_pickled(ca, cb),
        }
    }

    /// An entry whose output code does not differ for a named cause:
    /// compared as what it pickles ([`crate::fxentry`]); one lane cannot
    /// read as a pickle is compared by its bytes.
    fn fx_entry_pickled(&self, ca: &[u8], cb: &[u8]) -> Outcome {
        let read = (
            crate::fxentry::read(ca, &self.ia.fx_view, &self.ia.roots),
            crate::fxentry::read(cb, &self.ib.fx_view, &self.ib.roots),
        );
        let (ea, eb) = match read {
            (Ok(a), Ok(b)) => (a, b),
            (a, b) => {
                let why = a
                    .err()
                    .or(b.err())
                    .map(|e| e.to_string())
                    .unwrap_or_default();
                return self.binary(ca, cb, &format!("FX-graph cache entry differs beyond noise and holds no output code that differs for a named cause ({why})"));
            }
        };
        let pairs = match crate::fxentry::pair_files(&ea, &eb) {
            Ok(p) => p,
            Err(p) => {
                let at = |o: Option<usize>| o.map_or("its end".to_owned(), |b| format!("byte {b}"));
                return Outcome::unexplained(
                    UnexplainedCause::Binary,
                    format!(
                        "FX-graph cache entry's pickled values differ beyond noise: {} at {} of A, {} at {} of B",
                        p.what.0,
                        at(p.at.0),
                        p.what.1,
                        at(p.at.1)
                    ),
                );
            }
        };
        let mut noise: BTreeSet<NoiseKind> = ea.noise.union(&eb.noise).copied().collect();
        let mut class = DiffClass::Noise;
        let mut differing = 0usize;
        let mut first: Option<String> = None;
        fn sha<'a>(ix: &'a TreeIndex<'_>, p: &str) -> Option<&'a str> {
            ix.by_path.get(p).map(|&i| ix.tree.files[i].sha256.as_str())
        }
        for (pa, pb) in &pairs {
            if sha(self.ia, pa).is_some() && sha(self.ia, pa) == sha(self.ib, pb) {
                continue;
            }
            differing += 1;
            let d = self.file_diffs.iter().find(|d| {
                d.a.as_deref() == Some(pa.as_str()) && d.b.as_deref() == Some(pb.as_str())
            });
            let Some(d) = d else {
                return Outcome::unexplained(
                    UnexplainedCause::Binary,
                    format!("FX-graph cache entry bundles {pa} in A where B bundles {pb}, and the trees do not pair those files"),
                );
            };
            if d.class == DiffClass::Unexplained {
                return Outcome::unexplained(
                    UnexplainedCause::Binary,
                    format!("FX-graph cache entry bundles {pa}, which differs unexplained"),
                );
            }
            noise.extend(d.noise.iter().copied());
            if d.class > class {
                class = d.class;
                first = Some(pa.clone());
            }
        }
        if class == DiffClass::Noise {
            return Outcome::noise(noise);
        }
        let mut o = Outcome::explained(
            class,
            format!(
                "the FX-graph cache entry bundles {} of this tree's files; {differing} differ as the tree's own copies do (first: {})",
                pairs.len(),
                first.unwrap_or_default()
            ),
        );
        o.noise = noise;
        o
    }
}
