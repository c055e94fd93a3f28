//! The second pass of one side: the content the plan needs, and the
//! chunks of large files read again where they differ
//! ([`super::super::chunks`]), from the zips the first pass retained or
//! from the source.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Seek};

use super::*;

/// Reads both passes of one side for a diff against `other`'s first pass:
/// see [`read_side`] and [`super::content_plan`]. `plan` lists the paths
/// whose content the diff needs; contents not in it are dropped.
pub fn complete_side(
    first: &mut CellSide,
    plan: &[String],
    source: &mut dyn Source,
    limits: &ReadLimits,
    spool: &mut dyn Spool,
) -> Result<(), IngestError> {
    complete_side_retained(first, plan, source, limits, spool, Retained::default())
}

/// [`complete_side`] after [`read_side_retaining`]: what the plan needs
/// inside a retained zip is read from it; only the rest is read from the
/// source again.
pub fn complete_side_retained(
    first: &mut CellSide,
    plan: &[String],
    source: &mut dyn Source,
    limits: &ReadLimits,
    spool: &mut dyn Spool,
    retained: Retained,
) -> Result<(), IngestError> {
    let none = Windows::new();
    complete_side_planned(first, plan, &none, source, limits, spool, retained)
}

/// [`complete_side_retained`], also reading again the chunks `windows`
/// names of the files too large to load ([`chunks::window_plan`]), each
/// checked against its first-pass print.
pub fn complete_side_planned(
    first: &mut CellSide,
    plan: &[String],
    windows: &Windows,
    source: &mut dyn Source,
    limits: &ReadLimits,
    spool: &mut dyn Spool,
    mut retained: Retained,
) -> Result<(), IngestError> {
    let wanted: BTreeSet<&str> = plan.iter().map(String::as_str).collect();
    for f in &mut first.tree.files {
        if !wanted.contains(f.path.as_str()) {
            f.content = None;
        }
    }
    // Within the side's content budget: index files first, then the
    // smallest; what does not fit stays unloaded (and is named so).
    let mut budget = limits.max_total_content_bytes.saturating_sub(
        first
            .tree
            .files
            .iter()
            .filter_map(|f| f.content.as_ref().map(|c| c.len() as u64))
            .sum(),
    );
    let mut candidates: Vec<&ArtifactFile> = first
        .tree
        .files
        .iter()
        .filter(|f| f.content.is_none() && wanted.contains(f.path.as_str()))
        .collect();
    candidates.sort_by_key(|f| (!is_index_file(&f.path), f.size));
    let mut missing = BTreeSet::new();
    for f in candidates {
        if f.size > budget {
            tracing::warn!(path = %f.path, size = f.size, "over the side's content budget: not loaded");
            continue;
        }
        budget -= f.size;
        missing.insert(f.path.clone());
    }
    let windows: Windows = windows
        .iter()
        .filter(|(p, _)| first.chunks.files.contains_key(p.as_str()))
        .map(|(p, w)| (p.clone(), w.clone()))
        .collect();
    let reread: BTreeSet<String> = missing.iter().chain(windows.keys()).cloned().collect();
    if reread.is_empty() {
        return Ok(());
    }
    // Each path from the innermost retained zip holding it; the rest
    // from the source.
    let mut groups: Vec<BTreeSet<String>> = vec![BTreeSet::new(); retained.zips.len()];
    let mut rest = BTreeSet::new();
    for p in &reread {
        let holder = retained
            .zips
            .iter()
            .enumerate()
            .filter(|(_, z)| z.prefix.is_empty() || is_under(p, &z.prefix))
            .max_by_key(|(_, z)| z.prefix.len())
            .map(|(i, _)| i);
        match holder {
            Some(i) => groups[i].insert(p.clone()),
            None => rest.insert(p.clone()),
        };
    }
    let mut loaded: std::collections::HashMap<String, ArtifactFile> =
        std::collections::HashMap::new();
    let mut read_again = BTreeMap::new();
    for (z, group) in retained.zips.iter_mut().zip(&groups) {
        if group.is_empty() {
            continue;
        }
        let side = read_retained(z, group, &windows, &source.label(), limits, spool)?;
        loaded.extend(side.tree.files.into_iter().map(|f| (f.path.clone(), f)));
        read_again.extend(side.chunks.files);
    }
    drop(retained);
    if !rest.is_empty() {
        let keep = Keep::Only(&rest);
        let second = read_side_keeping(source, keep, limits, spool, None, Some(&windows))?;
        loaded.extend(second.tree.files.into_iter().map(|f| (f.path.clone(), f)));
        read_again.extend(second.chunks.files);
    }
    for (path, got) in read_again {
        let Some(printed) = first.chunks.files.get_mut(&path) else {
            continue;
        };
        let same = got.windows.iter().all(|w| {
            printed.crcs.get((w.offset / CHUNK_BYTES) as usize) == Some(&chunks::crc(&w.bytes))
        });
        if !same {
            return Err(IngestError::Changed {
                origin: source.label(),
                path,
            });
        }
        printed.windows = got.windows;
    }
    for f in &mut first.tree.files {
        if !missing.contains(&f.path) {
            continue;
        }
        match loaded.remove(&f.path) {
            Some(g) if g.sha256 == f.sha256 => f.content = g.content,
            _ => {
                return Err(IngestError::Changed {
                    origin: source.label(),
                    path: f.path.clone(),
                })
            }
        }
    }
    Ok(())
}

/// Whether `path` lies under the folder (or archive) `prefix`.
pub(super) fn is_under(path: &str, prefix: &str) -> bool {
    path.strip_prefix(prefix)
        .is_some_and(|r| r.starts_with('/'))
}

/// Reads the members of a retained zip that `wanted` names.
fn read_retained(
    z: &mut RetainedZip,
    wanted: &BTreeSet<String>,
    windows: &Windows,
    label: &str,
    limits: &ReadLimits,
    spool: &mut dyn Spool,
) -> Result<CellSide, IngestError> {
    z.file
        .seek(io::SeekFrom::Start(0))
        .map_err(|source| IngestError::Io {
            origin: z.origin.clone(),
            source,
        })?;
    let mut r = Reader {
        keep: Keep::Only(wanted),
        limits,
        spool,
        side: CellSide::default(),
        seen: HashSet::new(),
        kept_bytes: 0,
        label: label.to_owned(),
        inflation: std::rc::Rc::default(),
        retain: None,
        windows: Some(windows),
    };
    let read = r.zip(&mut z.file, &z.prefix, &z.origin, z.depth);
    if let Some(refused) = r.inflation.tripped.take() {
        return Err(refused);
    }
    read?;
    Ok(r.side)
}
