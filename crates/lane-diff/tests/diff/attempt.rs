//! Rule 0 on real bytes: two cold repeats minted through `lane mint`
//! differ by the folder lane gave each attempt
//! (`<lane out>/mints/<cell>/<gpu>/r<N>/a<M>/`, its `iso/tmp` the
//! attempt's `TMPDIR`) and by every name derived from it. The pairs are
//! made from real cells by that transformation (the writer is
//! [`as_attempt`], here): the dynamo cell of `gw-0.93.3-h200/dynamo-pair`
//! (Triton's `cuda_utils.so` embeds the temporary build directory) and the
//! `B=2` cell of `gw-eras/v0.126.3` (inductor's g++ comments embed
//! `TMPDIR`, the kernel source is named by a hash of its content, and
//! `wrapper.so` holds `_GLOBAL__sub_I_<that name>.kernel.cpp` and a
//! build-id).

use std::io::Read;
use std::path::Path;

use lane_diff::{
    diff_trees, ArtifactFile, ArtifactTree, DerivedKind, DeterminismReport, DeterminismVerdict,
    NoiseKind,
};
use lane_testkit::data::{eras, gw, read};
use sha2::{Digest, Sha256};

/// One member of a cell: its path as `lane diff` names it, its bytes.
#[derive(Clone)]
struct Member {
    path: String,
    bytes: Vec<u8>,
}

/// The members of a real `cell.tar.gz`, a `.pt2` inside opened as `lane
/// diff` opens it (its members under `model.pt2/`, the package's own
/// folder stripped).
fn members_of(cell: &Path) -> Vec<Member> {
    let gz = flate2::read::GzDecoder::new(std::io::Cursor::new(read(cell)));
    let mut tar = tar::Archive::new(gz);
    let mut out = Vec::new();
    for e in tar.entries().unwrap() {
        let mut e = e.unwrap();
        if !e.header().entry_type().is_file() {
            continue;
        }
        let path = e.path().unwrap().to_string_lossy().into_owned();
        let mut bytes = Vec::new();
        e.read_to_end(&mut bytes).unwrap();
        if !path.ends_with(".pt2") {
            out.push(Member { path, bytes });
            continue;
        }
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        for i in 0..zip.len() {
            let mut m = zip.by_index(i).unwrap();
            let name = m.name().to_owned();
            let inner = name.split_once('/').map_or(name.as_str(), |(_, r)| r);
            let mut bytes = Vec::new();
            m.read_to_end(&mut bytes).unwrap();
            out.push(Member {
                path: format!("{path}/{inner}"),
                bytes,
            });
        }
    }
    out
}

fn replace(hay: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(hay.len());
    let mut last = 0;
    for at in memchr::memmem::find_iter(hay, from) {
        out.extend_from_slice(&hay[last..at]);
        out.extend_from_slice(to);
        last = at + from.len();
    }
    out.extend_from_slice(&hay[last..]);
    out
}

/// Inductor's name for a source: `c` and 51 base32 characters of a hash
/// of its content.
fn inductor_name(content: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";
    let digest = Sha256::digest(content);
    let mut bits = 0u32;
    let mut n = 0;
    let mut out = String::from("c");
    for b in digest.iter().chain(digest.iter()) {
        bits = (bits << 8) | u32::from(*b);
        n += 8;
        while n >= 5 && out.len() < 52 {
            out.push(ALPHABET[((bits >> (n - 5)) & 31) as usize] as char);
            n -= 5;
        }
    }
    out
}

const NOTE: &[u8] = b"\x04\x00\x00\x00\x14\x00\x00\x00\x03\x00\x00\x00GNU\x00";

/// What lane's isolation does to a cell compiled in an attempt whose
/// folder is `folder`: every `(recorded, rel)` path becomes
/// `<folder>/<rel>` (the recording's `TMPDIR` becomes the attempt's);
/// each source named in `rehash` is named anew by the hash of its new
/// content, and every mention of its name follows (file names, the g++
/// comments, the symbol g++ built from it); `edit` changes a member
/// before that (a real difference, for the attacks); each ELF build-id
/// then hashes its binary's new bytes.
fn as_attempt(
    cell: &[Member],
    folder: &str,
    reroot: &[(&str, &str)],
    rehash: &[&str],
    edit: &dyn Fn(&mut Member),
) -> Vec<Member> {
    let mut out: Vec<Member> = cell
        .iter()
        .map(|m| {
            let mut m = m.clone();
            for (recorded, rel) in reroot {
                let to = format!("{folder}/{rel}");
                m.bytes = replace(&m.bytes, recorded.as_bytes(), to.as_bytes());
            }
            edit(&mut m);
            m
        })
        .collect();
    for old in rehash {
        let source = out
            .iter()
            .find(|m| m.path.rsplit('/').next().unwrap().starts_with(old))
            .unwrap();
        let new = inductor_name(&replace(&source.bytes, old.as_bytes(), b"<self>"));
        for m in &mut out {
            m.path = m.path.replace(old, &new);
            m.bytes = replace(&m.bytes, old.as_bytes(), new.as_bytes());
        }
    }
    for m in &mut out {
        if let Some(at) = memchr::memmem::find(&m.bytes, NOTE) {
            let id = at + NOTE.len()..at + NOTE.len() + 20;
            m.bytes[id.clone()].fill(0);
            let digest = Sha256::digest(&m.bytes);
            m.bytes[id].copy_from_slice(&digest[..20]);
        }
    }
    out
}

fn tree(members: &[Member]) -> ArtifactTree {
    ArtifactTree {
        files: members
            .iter()
            .map(|m| ArtifactFile {
                path: m.path.clone(),
                size: m.bytes.len() as u64,
                sha256: format!("{:x}", Sha256::digest(&m.bytes)),
                content: Some(m.bytes.clone()),
            })
            .collect(),
    }
}

fn diff(a: &[Member], b: &[Member]) -> DeterminismReport {
    diff_trees(&tree(a), &tree(b)).unwrap()
}

fn folder(gpu_repeat: &str) -> String {
    format!("/work/out/lanes/0.0.0/mints/{gpu_repeat}/a1")
}

/// The real dynamo cell; its Triton driver was built in
/// `/tmp/tmppguqp33d/` (the recording's `TMPDIR` was `/tmp`).
fn dynamo() -> Vec<Member> {
    members_of(&gw("dynamo-pair/r1/artifacts/cell.tar.gz"))
}

const DYNAMO_TMP: &str = "/tmp/tmppguqp33d/";

/// The real `B=2` cell of 0.126.3, compiled with `TMPDIR` at
/// `/tmp/eras/v0.126.3/r1/tmp`.
fn aot126() -> Vec<Member> {
    members_of(&eras(
        "v0.126.3/r1/rig/mint/cg-key-v1-578c02769cd3fa5574100831fd848a6961fdf92104671ac16ca71b36.tar.gz",
    ))
}

const AOT_TMPDIR: &str = "/tmp/eras/v0.126.3/r1/tmp";
const KERNEL: &str = "ckt7evwhpj3gzwaxawxfhksii63hjfwt4zyhpvjerqjnvqdikw7j";

fn aot_pair(fa: &str, fb: &str, edit_b: &dyn Fn(&mut Member)) -> (Vec<Member>, Vec<Member>) {
    let cell = aot126();
    let reroot = [(AOT_TMPDIR, "iso/tmp")];
    (
        as_attempt(&cell, fa, &reroot, &[KERNEL], &|_| {}),
        as_attempt(&cell, fb, &reroot, &[KERNEL], edit_b),
    )
}

fn names(r: &DeterminismReport, kind: DerivedKind) -> Vec<(String, String)> {
    r.derivation
        .derived_names
        .iter()
        .filter(|d| d.kind == kind)
        .map(|d| (d.a.clone(), d.b.clone()))
        .collect()
}

fn assert_path_noise(r: &DeterminismReport) {
    let (v, want) = (r.verdict, DeterminismVerdict::PathNoiseOnly);
    assert_eq!(v, want, "{}: {:#?}", r.summary, r.unexplained);
}

/// The file diff of the file of A whose path ends with `suffix`.
fn file_diff<'r>(r: &'r DeterminismReport, suffix: &str) -> &'r lane_diff::FileDiff {
    let found = r
        .file_diffs
        .iter()
        .find(|d| d.a.as_deref().is_some_and(|p| p.ends_with(suffix)));
    found.unwrap_or_else(|| panic!("no diff of *{suffix}: {:#?}", r.file_diffs))
}

#[test]
fn attempt_paths_of_equal_length_are_path_noise() {
    let cell = dynamo();
    let (fa, fb) = (folder("rig-dynamo/H100/r1"), folder("rig-dynamo/H100/r2"));
    let a = as_attempt(
        &cell,
        &fa,
        &[(DYNAMO_TMP, "iso/tmp/tmppguqp33d/")],
        &[],
        &|_| {},
    );
    let b = as_attempt(
        &cell,
        &fb,
        &[(DYNAMO_TMP, "iso/tmp/tmpx81kq_0z/")],
        &[],
        &|_| {},
    );
    let r = diff(&a, &b);
    assert_path_noise(&r);
    assert_eq!(r.derivation.attempt_a, [fa]);
    assert_eq!(r.derivation.attempt_b, [fb]);
    let so = file_diff(&r, ".so");
    assert!(so.noise.contains(&NoiseKind::AttemptPath), "{so:?}");
    // The build-id hashes the only bytes that differ: derived, and shown.
    assert_eq!(
        names(&r, DerivedKind::BuildId).len(),
        1,
        "{:#?}",
        r.derivation
    );
}

#[test]
fn a_symbol_derived_from_a_path_hashed_name_is_path_noise() {
    let (fa, fb) = (folder("rig-aot/H100/r1"), folder("rig-aot/H100/r2"));
    let (a, b) = aot_pair(&fa, &fb, &|_| {});
    let r = diff(&a, &b);
    assert_path_noise(&r);
    let hashed = names(&r, DerivedKind::HashedName);
    assert_eq!(hashed.len(), 1, "{:#?}", r.derivation);
    let (na, nb) = &hashed[0];
    assert_ne!(na, nb);
    assert_eq!(
        names(&r, DerivedKind::Symbol),
        [(
            format!("_GLOBAL__sub_I_{na}.kernel.cpp"),
            format!("_GLOBAL__sub_I_{nb}.kernel.cpp")
        )]
    );
    assert_eq!(names(&r, DerivedKind::BuildId).len(), 1);
    let so = file_diff(&r, "wrapper.so");
    assert!(so.noise.contains(&NoiseKind::DerivedName), "{so:?}");
}

#[test]
fn attempt_paths_of_different_lengths_in_text_are_path_noise() {
    // r9 against r10: the sources' g++ comments and first lines grow by a
    // byte. (A binary embedding a path of another length has its offsets
    // moved by the linker, which this writer does not redo: left out.)
    let (fa, fb) = (folder("rig-aot/H100/r9"), folder("rig-aot/H100/r10"));
    let (a, b) = aot_pair(&fa, &fb, &|_| {});
    let text = |m: &Vec<Member>| -> Vec<Member> {
        m.iter()
            .filter(|m| !m.path.ends_with(".so"))
            .cloned()
            .collect()
    };
    let r = diff(&text(&a), &text(&b));
    assert_path_noise(&r);
    assert_eq!(
        names(&r, DerivedKind::HashedName).len(),
        1,
        "{:#?}",
        r.derivation
    );
}

#[test]
fn a_kernel_source_that_changed_beyond_its_path_is_unexplained() {
    // B's kernel source differs in one constant as well: its new name is
    // not derived from the path alone, so neither is the symbol built
    // from it, and the binary stays unexplained.
    let (fa, fb) = (folder("rig-aot/H100/r1"), folder("rig-aot/H100/r2"));
    let (a, b) = aot_pair(&fa, &fb, &|m| {
        if m.path.ends_with(".kernel.cpp") {
            let at = memchr::memmem::find(&m.bytes, b"static_cast<float>(").unwrap();
            m.bytes.insert(at, b' ');
        }
    });
    let r = diff(&a, &b);
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained, "{}", r.summary);
    assert!(
        names(&r, DerivedKind::HashedName).is_empty(),
        "{:#?}",
        r.derivation
    );
    assert!(names(&r, DerivedKind::Symbol).is_empty());
    let so = r
        .unexplained
        .iter()
        .find(|u| u.a.as_deref().is_some_and(|p| p.ends_with("wrapper.so")));
    assert!(so.is_some(), "{:#?}", r.unexplained);
}

#[test]
fn another_attempts_folder_in_a_cell_is_not_noise() {
    // B's kernel source says it embeds A's wrapper (a cache another
    // attempt filled) beside its own paths: B names two attempts.
    let (fa, fb) = (folder("rig-aot/H100/r1"), folder("rig-aot/H100/r2"));
    let first_line_to_a = |m: &mut Member| {
        if m.path.ends_with(".kernel.cpp") {
            let own = format!("{fb}/iso/tmp");
            let at = memchr::memmem::find(&m.bytes, own.as_bytes()).unwrap();
            m.bytes
                .splice(at..at + own.len(), format!("{fa}/iso/tmp").into_bytes());
        }
    };
    let (a, b) = aot_pair(&fa, &fb, &first_line_to_a);
    let r = diff(&a, &b);
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained, "{}", r.summary);
    assert!(r.derivation.attempt_b.is_empty());
    assert!(
        r.derivation.notes[0].starts_with("B's files name the folders of 2 attempts"),
        "{:?}",
        r.derivation.notes
    );
    assert!(r.derivation.derived_names.is_empty());
}
