//! Rule 0: the paths lane gave each attempt, and every name derived from
//! them, normalised before anything else (`docs/diff.md`).
//!
//! `lane mint` runs each attempt in a folder of its own,
//! `<lane out>/mints/<cell>/<gpu>/r<N>/a<M>/` (`lane_core::layout`), and
//! points every root it gives the attempt under it: `TMPDIR`, `HOME` and
//! the caches (`iso/tmp`, `iso/home`, ..., `cache/inductor`). A compiler
//! that embeds a temporary path (Triton's `cuda_utils.so`, the g++ command
//! inductor writes into a wrapper) embeds that folder, so two cold repeats
//! differ wherever `r1` meets `r2`. The diff finds each side's folder in
//! its own bytes by lane's layout, and a side whose files name the folders
//! of two attempts has neither normalised: another attempt's path in a
//! cell is no noise.
//!
//! Names derived from those paths follow: inductor names a source by a
//! hash of its content, and a content that embeds the attempt's path gets
//! another name in each repeat (`<hash>.kernel.cpp`), and g++ builds a
//! symbol from that name (`_GLOBAL__sub_I_<hash>.kernel.cpp`). A pair of
//! files whose paths differ only in hashed names is a derivation when
//! their bytes are equal once the attempt folders and those names (each
//! side's written as A's) are normalised; its names are then written as
//! A's in every file of B (same length), a token of a binary that embeds
//! one is named as a derived symbol, and a binary's build-id as derived
//! when its other bytes are equal. Names are derived only between two
//! sides whose attempt folders were both found: a name that differs with
//! no attempt path to derive it from stays what it was.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use lane_core::layout::file::MINTS;

use super::model::{Derivation, DerivedKind, DerivedName};
use super::normalize::{self, replace_all_bytes, Roots, ATTEMPT};
use super::{ArtifactFile, ArtifactTree};

/// One attempt as lane's layout names it: cell, GPU, repeat, attempt.
type AttemptId = (String, String, u64, u64);

/// What rule 0 learned: each side's folder spellings, B's names as A's,
/// and the derivation to report.
pub(crate) struct Learned {
    pub(crate) attempt_a: Vec<String>,
    pub(crate) attempt_b: Vec<String>,
    pub(crate) names_b: Vec<(String, String)>,
    pub(crate) derivation: Derivation,
}

fn is_seg_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'+' | b'=' | b'-')
}

fn is_path_byte(b: u8) -> bool {
    is_seg_byte(b) || matches!(b, b'/' | b'@' | b'~')
}

/// Parses `<seg>/` at `i`, returning the segment and the index after the
/// slash (or after the segment, when `last`).
fn seg(bytes: &[u8], i: usize) -> Option<(&[u8], usize)> {
    let len = bytes
        .get(i..)?
        .iter()
        .take_while(|b| is_seg_byte(**b))
        .count();
    (len > 0).then(|| (&bytes[i..i + len], i + len))
}

/// `<prefix><digits>` at `i`: the number and the index after it.
fn numbered(bytes: &[u8], i: usize, prefix: u8) -> Option<(u64, usize)> {
    if bytes.get(i) != Some(&prefix) {
        return None;
    }
    let digits = bytes[i + 1..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let text = std::str::from_utf8(&bytes[i + 1..i + 1 + digits]).ok()?;
    Some((text.parse().ok()?, i + 1 + digits))
}

/// Every attempt folder of lane's layout that `bytes` name, with the
/// spelling of each (`/x/lanes/l/mints/cell/H100/r1/a1`).
fn attempt_folders(bytes: &[u8], into: &mut BTreeMap<AttemptId, BTreeSet<String>>) {
    let needle = format!("/{MINTS}/");
    for at in memchr::memmem::find_iter(bytes, needle.as_bytes()) {
        // The absolute head: the path bytes before, from its first slash
        // (one slash of a leading run).
        let mut start = at;
        while start > 0 && is_path_byte(bytes[start - 1]) {
            start -= 1;
        }
        while start < at && bytes[start] != b'/' {
            start += 1;
        }
        while start < at && bytes.get(start + 1) == Some(&b'/') {
            start += 1;
        }
        let i = at + needle.len();
        let Some((cell, i)) = seg(bytes, i) else {
            continue;
        };
        if bytes.get(i) != Some(&b'/') {
            continue;
        }
        let Some((gpu, i)) = seg(bytes, i + 1) else {
            continue;
        };
        if bytes.get(i) != Some(&b'/') {
            continue;
        }
        let Some((repeat, i)) = numbered(bytes, i + 1, b'r') else {
            continue;
        };
        if bytes.get(i) != Some(&b'/') {
            continue;
        }
        let Some((attempt, end)) = numbered(bytes, i + 1, b'a') else {
            continue;
        };
        if bytes.get(end).is_some_and(|b| is_seg_byte(*b)) {
            continue;
        }
        let (Ok(cell), Ok(gpu), Ok(spelling)) = (
            std::str::from_utf8(cell),
            std::str::from_utf8(gpu),
            std::str::from_utf8(&bytes[start..end]),
        ) else {
            continue;
        };
        into.entry((cell.to_owned(), gpu.to_owned(), repeat, attempt))
            .or_default()
            .insert(spelling.to_owned());
    }
}

fn id_text(id: &AttemptId) -> String {
    format!("{}/{}/r{}/a{}", id.0, id.1, id.2, id.3)
}

/// One side's attempt folder spellings (longest first), or a note why none
/// is normalised.
fn side_folder(tree: &ArtifactTree, side: &str) -> Result<Vec<String>, Option<String>> {
    let mut found = BTreeMap::new();
    for f in &tree.files {
        if let Some(c) = f.content.as_deref() {
            attempt_folders(c, &mut found);
        }
    }
    match found.len() {
        0 => Err(None),
        1 => {
            let spellings = found.into_values().next().unwrap_or_default();
            Ok(normalize::ordered_roots(&spellings))
        }
        n => {
            let ids: Vec<String> = found.keys().map(id_text).collect();
            Err(Some(format!(
                "{side}'s files name the folders of {n} attempts ({}): another attempt's path in a cell is no noise, so none of them is normalised",
                ids.join(", ")
            )))
        }
    }
}

/// `bytes` with the folders replaced, `names` written as the other side's,
/// a temporary build directory under them masked (rule 6) and an ELF
/// build-id zeroed: what a derivation is checked on.
fn derived_view(bytes: &[u8], folders: &[String], names: &BTreeMap<String, String>) -> Vec<u8> {
    let mut cur = bytes.to_vec();
    for f in folders {
        if let Some(next) = replace_all_bytes(&cur, f.as_bytes(), ATTEMPT.as_bytes()) {
            cur = next;
        }
    }
    for (from, to) in names {
        if let Some(next) = replace_all_bytes(&cur, from.as_bytes(), to.as_bytes()) {
            cur = next;
        }
    }
    if let Some(next) = normalize::mask_temp_dirs(&cur) {
        cur = next;
    }
    if let Some(at) = normalize::build_id_at(&cur) {
        cur[at].fill(0);
    }
    cur
}

/// The hashed names in a path, in order.
fn hashed_names(path: &str) -> Vec<&str> {
    normalize::hash_re()
        .find_iter(path)
        .map(|m| m.as_str())
        .collect()
}

/// Files at a path only one side has, paired when their paths are equal
/// with hashed names masked and that is unique on both sides.
fn renamed_pairs<'t>(
    a: &'t ArtifactTree,
    b: &'t ArtifactTree,
) -> Vec<(&'t ArtifactFile, &'t ArtifactFile)> {
    let paths_a: BTreeSet<&str> = a.files.iter().map(|f| f.path.as_str()).collect();
    let paths_b: BTreeSet<&str> = b.files.iter().map(|f| f.path.as_str()).collect();
    let masked = |p: &str| normalize::hash_re().replace_all(p, "<hash>").into_owned();
    let index = |t: &'t ArtifactTree, other: &BTreeSet<&str>| {
        let mut m: HashMap<String, Vec<&'t ArtifactFile>> = HashMap::new();
        for f in t.files.iter().filter(|f| !other.contains(f.path.as_str())) {
            m.entry(masked(&f.path)).or_default().push(f);
        }
        m
    };
    let (ma, mb) = (index(a, &paths_b), index(b, &paths_a));
    let mut out: Vec<_> = ma
        .iter()
        .filter_map(
            |(k, fa)| match (fa.as_slice(), mb.get(k).map(Vec::as_slice)) {
                ([fa], Some([fb])) => Some((*fa, *fb)),
                _ => None,
            },
        )
        .collect();
    out.sort_by(|x, y| x.0.path.cmp(&y.0.path));
    out
}

/// The token of `bytes` around `at..at+len` (symbol bytes).
fn token_around(bytes: &[u8], at: usize, len: usize) -> &[u8] {
    let sym = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$');
    let mut s = at;
    while s > 0 && sym(bytes[s - 1]) {
        s -= 1;
    }
    let mut e = at + len;
    while e < bytes.len() && sym(bytes[e]) {
        e += 1;
    }
    &bytes[s..e]
}

fn is_binary(bytes: &[u8]) -> bool {
    memchr::memchr(0, bytes).is_some() || std::str::from_utf8(bytes).is_err()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Learns rule 0 for a pair of trees. See the module documentation.
pub(crate) fn learn(a: &ArtifactTree, b: &ArtifactTree) -> Learned {
    let mut derivation = Derivation::default();
    let mut folder = |tree, side| match side_folder(tree, side) {
        Ok(f) => f,
        Err(note) => {
            derivation.notes.extend(note);
            Vec::new()
        }
    };
    let attempt_a = folder(a, "A");
    let attempt_b = folder(b, "B");
    derivation.attempt_a = attempt_a.clone();
    derivation.attempt_b = attempt_b.clone();
    let mut learned = Learned {
        attempt_a,
        attempt_b,
        names_b: Vec::new(),
        derivation,
    };
    if learned.attempt_a.is_empty() || learned.attempt_b.is_empty() {
        return learned;
    }
    let folders = format!(
        "the attempt folders (A: {}, B: {})",
        learned.attempt_a.join(", "),
        learned.attempt_b.join(", ")
    );
    let pairs = renamed_pairs(a, b);
    // Each pair's names that differ, A's beside B's (a pair whose paths
    // differ otherwise is no derivation).
    let tokens: Vec<Option<Vec<(String, String)>>> = pairs
        .iter()
        .map(|(fa, fb)| {
            let (ta, tb) = (hashed_names(&fa.path), hashed_names(&fb.path));
            (ta.len() == tb.len()).then(|| {
                ta.iter()
                    .zip(&tb)
                    .filter(|(na, nb)| na != nb)
                    .map(|(na, nb)| ((*na).to_owned(), (*nb).to_owned()))
                    .collect()
            })
        })
        .collect();
    // B's name -> A's, grown until no pair adds one. A name is derived
    // only when every pair whose paths carry it is the same bytes once it
    // and the names before it are normalised: a sibling that changed
    // beyond the path (the source the name hashes) keeps it underived.
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut derived = Vec::new();
    let mut done: BTreeSet<usize> = BTreeSet::new();
    loop {
        let before = names.len();
        for i in 0..pairs.len() {
            if done.contains(&i) {
                continue;
            }
            let Some(own) = tokens[i].as_ref().filter(|t| !t.is_empty()) else {
                done.insert(i);
                continue;
            };
            // The pairs that carry one of these names, and all their names.
            let group: Vec<usize> = (0..pairs.len())
                .filter(|j| {
                    tokens[*j].as_ref().is_some_and(|t| {
                        t.iter()
                            .any(|(na, nb)| own.iter().any(|(oa, ob)| oa == na || ob == nb))
                    })
                })
                .collect();
            let mut trial = names.clone();
            let mut new = Vec::new();
            let consistent =
                group
                    .iter()
                    .flat_map(|j| tokens[*j].iter().flatten())
                    .all(|(na, nb)| match trial.get(nb) {
                        Some(to) => to == na,
                        None if na.len() == nb.len() && !trial.values().any(|to| to == na) => {
                            trial.insert(nb.clone(), na.clone());
                            new.push((na.clone(), nb.clone()));
                            true
                        }
                        None => false,
                    });
            let equal = |j: &usize| {
                let (fa, fb) = pairs[*j];
                match (fa.content.as_deref(), fb.content.as_deref()) {
                    (Some(ca), Some(cb)) => {
                        derived_view(ca, &learned.attempt_a, &BTreeMap::new())
                            == derived_view(cb, &learned.attempt_b, &trial)
                    }
                    _ => false,
                }
            };
            if !consistent || !group.iter().all(equal) {
                continue;
            }
            done.extend(group.iter().copied());
            names = trial;
            let evidence: Vec<String> = group
                .iter()
                .map(|j| format!("{} | {}", pairs[*j].0.path, pairs[*j].1.path))
                .collect();
            for (na, nb) in new {
                derived.push(DerivedName {
                    kind: DerivedKind::HashedName,
                    a: na,
                    b: nb,
                    derived_from: folders.clone(),
                    evidence: format!(
                        "every file whose name carries it is the same bytes once each side's attempt folder and the names derived from it are normalised: {}",
                        evidence.join(", ")
                    ),
                });
            }
        }
        if names.len() == before {
            break;
        }
    }
    derived.extend(symbols_and_build_ids(a, b, &learned, &names, &pairs));
    derived.sort_by(|x, y| (x.kind, &x.a, &x.b).cmp(&(y.kind, &y.a, &y.b)));
    derived.dedup();
    learned.derivation.derived_names = derived;
    learned.names_b = names.into_iter().collect();
    learned
}

/// The symbols that embed a derived name, and the build-ids of binaries
/// equal once the attempt folders and the derived names are normalised.
fn symbols_and_build_ids(
    a: &ArtifactTree,
    b: &ArtifactTree,
    learned: &Learned,
    names: &BTreeMap<String, String>,
    renamed: &[(&ArtifactFile, &ArtifactFile)],
) -> Vec<DerivedName> {
    let by_path: HashMap<&str, &ArtifactFile> =
        a.files.iter().map(|f| (f.path.as_str(), f)).collect();
    let mut pairs: Vec<(&ArtifactFile, &ArtifactFile)> = b
        .files
        .iter()
        .filter_map(|fb| Some((*by_path.get(fb.path.as_str())?, fb)))
        .collect();
    pairs.extend(renamed.iter().copied());
    let mut out = Vec::new();
    for (fa, fb) in pairs {
        if fa.sha256.eq_ignore_ascii_case(&fb.sha256) {
            continue;
        }
        let (Some(ca), Some(cb)) = (fa.content.as_deref(), fb.content.as_deref()) else {
            continue;
        };
        if !is_binary(cb) {
            continue;
        }
        for (nb, na) in names {
            for at in memchr::memmem::find_iter(cb, nb.as_bytes()) {
                let tb = token_around(cb, at, nb.len());
                if tb.len() == nb.len() {
                    continue;
                }
                let ta = replace_all_bytes(tb, nb.as_bytes(), na.as_bytes())
                    .unwrap_or_else(|| tb.to_vec());
                if memchr::memmem::find(ca, &ta).is_none() {
                    continue;
                }
                out.push(DerivedName {
                    kind: DerivedKind::Symbol,
                    a: String::from_utf8_lossy(&ta).into_owned(),
                    b: String::from_utf8_lossy(tb).into_owned(),
                    derived_from: format!("the derived name {na} | {nb}"),
                    evidence: format!("built from the derived name, in {}", fb.path),
                });
            }
        }
        let (Some(ia), Some(ib)) = (normalize::build_id_at(ca), normalize::build_id_at(cb)) else {
            continue;
        };
        if ca[ia.clone()] != cb[ib.clone()]
            && derived_view(ca, &learned.attempt_a, &BTreeMap::new())
                == derived_view(cb, &learned.attempt_b, names)
        {
            out.push(DerivedName {
                kind: DerivedKind::BuildId,
                a: hex(&ca[ia]),
                b: hex(&cb[ib]),
                derived_from: fb.path.clone(),
                evidence: format!(
                    "the ELF build-id of {}: a hash of its bytes, which are equal once the attempt folders, the names derived from them and a temporary build directory under them are normalised",
                    fb.path
                ),
            });
        }
    }
    out
}

impl Learned {
    /// Puts what was learned into each side's roots.
    pub(crate) fn apply(&self, ra: &mut Roots, rb: &mut Roots) {
        ra.attempt = self.attempt_a.clone();
        rb.attempt = self.attempt_b.clone();
        rb.names = self.names_b.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(bytes: &[u8]) -> Vec<(String, Vec<String>)> {
        let mut m = BTreeMap::new();
        attempt_folders(bytes, &mut m);
        m.into_iter()
            .map(|(id, s)| (id_text(&id), s.into_iter().collect()))
            .collect()
    }

    fn file(path: &str, content: &[u8]) -> ArtifactFile {
        ArtifactFile {
            path: path.into(),
            size: content.len() as u64,
            sha256: format!(
                "{:064x}",
                content.len() + content.iter().map(|b| *b as usize).sum::<usize>()
            ),
            content: Some(content.to_vec()),
        }
    }

    #[test]
    fn an_attempt_folder_is_found_by_lanes_layout_in_text_and_binaries() {
        let text = b"// g++ /w/out/lanes/l/mints/rig-aot/H100/r1/a2/iso/tmp/x.cpp -o y";
        assert_eq!(
            found(text),
            [(
                "rig-aot/H100/r1/a2".into(),
                vec!["/w/out/lanes/l/mints/rig-aot/H100/r1/a2".into()]
            )]
        );
        // In a binary: a NUL and a length byte before it, a NUL after.
        let bin = b"\0\x8c/x/mints/c/g/r10/a1\0";
        assert_eq!(found(bin)[0].1, ["/x/mints/c/g/r10/a1"]);
        // Not an attempt: another segment shape, or a longer name.
        assert!(found(b"/x/mints/c/g/r1/a1x/y").is_empty());
        assert!(found(b"/x/mints/c/g/rx/a1/y").is_empty());
        assert!(found(b"/x/mints/c/r1/a1/y").is_empty());
        // A leading run of slashes is one slash.
        assert_eq!(found(b"//x/mints/c/g/r1/a1/")[0].1, ["/x/mints/c/g/r1/a1"]);
    }

    #[test]
    fn a_side_naming_two_attempts_has_none_normalised() {
        let t = ArtifactTree {
            files: vec![
                file("a.txt", b"/x/mints/c/g/r1/a1/iso/tmp"),
                file("b.txt", b"/x/mints/c/g/r2/a1/iso/tmp"),
            ],
        };
        let note = side_folder(&t, "B").unwrap_err().unwrap();
        assert!(
            note.starts_with("B's files name the folders of 2 attempts (c/g/r1/a1, c/g/r2/a1)"),
            "{note}"
        );
        let l = learn(&t, &t);
        assert!(l.attempt_a.is_empty() && l.attempt_b.is_empty());
        assert_eq!(l.derivation.notes.len(), 2);
    }

    const NA: &str = "ckt7evwhpj3gzwaxawxfhksii63hjfwt4zyhpvjerqjnvqdikw7j";
    const NB: &str = "c6s2dbcgbavsvcfn7zvvfi3rq35mfocvxz7v2lfqhfvfqni7bhu3";

    fn side(folder: &str, name: &str, extra: &str) -> ArtifactTree {
        let src = format!("// in {folder}/iso/tmp/{name}.kernel.cpp\nint x;{extra}\n");
        ArtifactTree {
            files: vec![
                file(&format!("k/{name}.kernel.cpp"), src.as_bytes()),
                file(
                    "k/w.so",
                    format!("\0_GLOBAL__sub_I_{name}.kernel.cpp\0").as_bytes(),
                ),
            ],
        }
    }

    #[test]
    fn a_name_is_derived_only_from_bytes_equal_once_the_paths_are_normalised() {
        let (fa, fb) = ("/o/mints/c/g/r1/a1", "/o/mints/c/g/r2/a1");
        let l = learn(&side(fa, NA, ""), &side(fb, NB, ""));
        assert_eq!(l.names_b, [(NB.to_owned(), NA.to_owned())]);
        let kinds: Vec<DerivedKind> = l.derivation.derived_names.iter().map(|d| d.kind).collect();
        assert_eq!(kinds, [DerivedKind::HashedName, DerivedKind::Symbol]);
        // The source changed beyond its path: no name is derived.
        let l = learn(&side(fa, NA, ""), &side(fb, NB, " int y;"));
        assert!(l.names_b.is_empty());
        assert!(l.derivation.derived_names.is_empty());
        // No attempt folder on a side: nothing derives a name.
        let l = learn(&side("/o/elsewhere", NA, ""), &side(fb, NB, ""));
        assert!(l.attempt_a.is_empty());
        assert!(l.names_b.is_empty());
    }
}
