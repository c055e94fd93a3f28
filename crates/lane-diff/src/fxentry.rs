//! An FX-graph cache entry compared as what it pickles, not as its bytes.
//!
//! The entry of a dynamo cell bundles the Triton kernels its graph launched
//! (inductor's `TritonBundle`: each kernel's cache key and the files of its
//! Triton cache directory) and their autotuners. Two cold compiles write
//! entries whose bytes differ for reasons that are not content: the
//! pickled compile time, memo numbering (a string pickled afresh in one and
//! fetched from the memo in the other shifts every later index), frame
//! sizes, and bundled files whose bytes differ exactly as the tree's own
//! copies of them do.
//!
//! So each entry is read ([`crate::pickle`]) into a canonical stream of
//! tokens: frames and memo puts dropped, a memo get replaced by the plain
//! value it names (or by the ordinal of the object it names), the
//! `_time_taken_ns` value zeroed (rule 10), strings and bytes normalised
//! (rules 1, 2, 4, 6), and a string or bytes value that is byte for byte a
//! file of the same tree replaced by that file's normalised path. Two
//! entries whose streams are equal differ only in the bundled files, and
//! those are judged by the tree's own diff of those files.

use std::collections::{BTreeSet, HashMap};

use sha2::{Digest, Sha256};

use crate::model::ArtifactTree;
use crate::normalize;
use crate::pickle::{self, Arg, Op, PickleError};
use crate::NoiseKind;

/// A bundled value must be at least this long to stand for a tree file
/// (short strings are names and flags, not files).
const MIN_FILE_BYTES: usize = 64;

/// The field the entry's compile time is pickled under.
const COMPILE_TIME_FIELD: &str = "_time_taken_ns";

/// The `counter_deltas` keys that count how async kernel compiles were
/// scheduled (`async_compile_cache_hit`, `async_compile_cache_miss`).
const ASYNC_COMPILE_COUNTER: &str = "async_compile_cache_";

/// One canonical token of an entry, with the offset it was read at.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    /// A structure opcode (MARK, APPENDS, BUILD, NEWOBJ, ...).
    Op(u8),
    Int(i64),
    /// An argument compared as its bytes (a wide integer, a float, a
    /// GLOBAL's module and name).
    Raw(Box<(u8, Vec<u8>)>),
    Text(Box<str>),
    /// Bytes, normalised: their length and sha256 (an entry holds megabytes
    /// of them; only equality and size are ever asked).
    Bytes(Box<(usize, [u8; 32])>),
    /// A value that is a file of the tree, or a path naming one: which
    /// file is kept aside ([`Entry::files`]) and judged by the tree's own
    /// pairing, so two files here are equal tokens.
    File,
    /// A memoised object, by the order it was memoised in.
    Object(usize),
}

impl Tok {
    /// A short description for a reason line (bounded; the renderer
    /// escapes it).
    fn describe(&self) -> String {
        let cut = |s: &str| s.chars().take(80).collect::<String>();
        match self {
            Tok::Op(c) => format!("opcode 0x{c:02x}"),
            Tok::Int(i) => format!("the integer {i}"),
            Tok::Raw(r) => format!(
                "opcode 0x{:02x} {:?}",
                r.0,
                cut(&String::from_utf8_lossy(&r.1))
            ),
            Tok::Text(t) => format!("the string {:?}", cut(t)),
            Tok::Bytes(b) => format!("{} bytes", b.0),
            Tok::File => "a file of the tree".to_owned(),
            Tok::Object(n) => format!("memoised object #{n}"),
        }
    }
}

/// An entry read as canonical tokens.
pub(crate) struct Entry {
    /// Each token with the offset it was read at (entries are capped far
    /// below 4 GiB).
    toks: Vec<(u32, Tok)>,
    /// The tree paths behind the `File` tokens, in order.
    files: Vec<String>,
    /// Noise the normalisation removed.
    pub(crate) noise: BTreeSet<NoiseKind>,
}

/// What memo index `n` holds.
#[derive(Clone)]
enum Memo {
    Value(Tok),
    Object(usize),
}

/// What of a tree its FX-graph entries' values are read against, built
/// once per tree (the diff's `TreeIndex` holds it).
pub(crate) struct TreeView<'t> {
    /// Its files of at least [`MIN_FILE_BYTES`], by sha256.
    files: HashMap<&'t str, &'t str>,
    /// Its Triton cache directories' names.
    triton_dirs: BTreeSet<&'t str>,
    /// Its files by their last two path components (`l2/<key>.best_config`),
    /// where those name one file.
    tails: HashMap<&'t str, Option<&'t str>>,
}

impl<'t> TreeView<'t> {
    pub(crate) fn of(tree: &'t ArtifactTree) -> Self {
        TreeView {
            files: by_digest(tree),
            triton_dirs: triton_dirs(tree),
            tails: tails(tree),
        }
    }
}

/// A path's last two components.
fn tail(path: &str) -> Option<&str> {
    let mut slashes = path.rmatch_indices('/');
    let (_, second) = (slashes.next()?, slashes.next());
    Some(second.map_or(path, |(i, _)| &path[i + 1..]))
}

fn tails(tree: &ArtifactTree) -> HashMap<&str, Option<&str>> {
    let mut m: HashMap<&str, Option<&str>> = HashMap::new();
    for f in &tree.files {
        if let Some(t) = tail(&f.path) {
            m.entry(t)
                .and_modify(|v| *v = None)
                .or_insert(Some(f.path.as_str()));
        }
    }
    m
}

/// The tree's Triton cache directory names: a 52-character base32
/// component right after a `triton/` component.
fn triton_dirs(tree: &ArtifactTree) -> BTreeSet<&str> {
    tree.files
        .iter()
        .filter_map(|f| {
            let mut parts = f.path.split('/');
            parts.by_ref().find(|p| *p == "triton")?;
            parts.next().filter(|d| {
                d.len() == 52
                    && d.bytes()
                        .all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b))
            })
        })
        .collect()
}

/// The tree's files of at least [`MIN_FILE_BYTES`], by sha256.
fn by_digest(tree: &ArtifactTree) -> HashMap<&str, &str> {
    tree.files
        .iter()
        .filter(|f| f.size >= MIN_FILE_BYTES as u64)
        .map(|f| (f.sha256.as_str(), f.path.as_str()))
        .collect()
}

/// sha256 as lowercase hex, as `ingest` fingerprints every tree file.
fn hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// Reads `bytes`, an FX-graph entry of the tree `view` is of (whose cache
/// roots are `roots`).
pub(crate) fn read(
    bytes: &[u8],
    view: &TreeView<'_>,
    roots: &normalize::Roots,
) -> Result<Entry, PickleError> {
    let mut e = Entry {
        toks: Vec::new(),
        files: Vec::new(),
        noise: BTreeSet::new(),
    };
    let mut memo: HashMap<u64, Memo> = HashMap::new();
    let mut objects = 0usize;
    let mut prev: Option<Op<'_>> = None;
    for op in pickle::ops(bytes) {
        let op = op?;
        let code = op.code;
        if matches!(code, 0x80 | 0x95) {
            continue; // PROTO, FRAME
        }
        if pickle::is_put(code) {
            let index = pickle::memo_index(&op).unwrap_or(memo.len() as u64);
            let held = match (prev, e.toks.last()) {
                (Some(p), Some((_, t))) if pickle::is_scalar(p.code) => Memo::Value(t.clone()),
                (Some(p), Some((_, t))) if pickle::is_get(p.code) => match t {
                    Tok::Object(n) => Memo::Object(*n),
                    t => Memo::Value(t.clone()),
                },
                _ => {
                    objects += 1;
                    Memo::Object(objects - 1)
                }
            };
            memo.insert(index, held);
            prev = Some(op);
            continue;
        }
        let tok = if pickle::is_get(code) {
            let index = pickle::memo_index(&op).ok_or(PickleError {
                at: op.at,
                what: "a memo get without its index",
            })?;
            match memo.get(&index) {
                Some(Memo::Value(t)) => t.clone(),
                Some(Memo::Object(n)) => Tok::Object(*n),
                None => {
                    return Err(PickleError {
                        at: op.at,
                        what: "a memo get of an index never put",
                    })
                }
            }
        } else {
            match op.arg {
                Arg::None => Tok::Op(code),
                Arg::Int(_) | Arg::Line(_) if pickle::int_value(&op).is_some() => {
                    Tok::Int(pickle::int_value(&op).unwrap_or_default())
                }
                Arg::Int(b) | Arg::Line(b) | Arg::Float(b) => {
                    Tok::Raw(Box::new((code, b.to_vec())))
                }
                Arg::Str(s) | Arg::Bytes(s) => {
                    value(s, matches!(op.arg, Arg::Bytes(_)), view, roots, &mut e)
                }
            }
        };
        // Rule 10: the integer right after the compile-time key.
        let tok = match (e.toks.last(), tok) {
            (Some((_, Tok::Text(k))), Tok::Int(_)) if &**k == COMPILE_TIME_FIELD => {
                e.noise.insert(NoiseKind::Timing);
                Tok::Int(0)
            }
            // Whether a kernel's compile was already in flight when another
            // asked for it depends on the thread pool's timing, never on
            // the graph: seen on a real H100 dynamo pair (31/15 against
            // 32/16, every other counter equal).
            (Some((_, Tok::Text(k))), Tok::Int(_)) if k.starts_with(ASYNC_COMPILE_COUNTER) => {
                e.noise.insert(NoiseKind::AsyncCompileCounter);
                Tok::Int(0)
            }
            (_, t) => t,
        };
        e.toks.push((u32::try_from(op.at).unwrap_or(u32::MAX), tok));
        prev = Some(op);
    }
    e.toks.shrink_to_fit();
    Ok(e)
}

/// A string or bytes value: a tree file's path when it is one, else
/// normalised.
fn value(
    raw: &[u8],
    is_bytes: bool,
    view: &TreeView<'_>,
    roots: &normalize::Roots,
    e: &mut Entry,
) -> Tok {
    if raw.len() >= MIN_FILE_BYTES {
        if let Some(path) = view.files.get(hex(raw).as_str()) {
            e.files.push((*path).to_owned());
            return Tok::File;
        }
    }
    // A path naming one of the tree's files (an autotuner's best_config).
    if !is_bytes && raw.len() < 4096 {
        let named = std::str::from_utf8(raw)
            .ok()
            .and_then(|t| view.tails.get(tail(t)?).copied().flatten());
        if let Some(path) = named {
            e.files.push(path.to_owned());
            return Tok::File;
        }
    }
    match std::str::from_utf8(raw) {
        // A Triton kernel's `hash`: the key its cache directory in this
        // tree is named after (as in a Triton `.json`).
        Ok(text)
            if !is_bytes
                && crate::jsondiff::triton_dir_name(text)
                    .is_some_and(|d| view.triton_dirs.contains(d.as_str())) =>
        {
            e.noise.insert(NoiseKind::HashedFileName);
            Tok::Text("<triton cache key>".into())
        }
        Ok(text) if !is_bytes => {
            let n = normalize::normalize_paths(text, roots);
            e.noise.extend(n.noise());
            Tok::Text(n.text.into_boxed_str())
        }
        _ => {
            let (bytes, kinds) = normalize::normalize_binary(raw, roots);
            e.noise.extend(kinds);
            Tok::Bytes(Box::new((bytes.len(), Sha256::digest(&bytes).into())))
        }
    }
}

/// Where two entries' canonical streams part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Parted {
    /// Byte offsets in A and B (`None`: that entry ended first).
    pub(crate) at: (Option<usize>, Option<usize>),
    /// What each holds there.
    pub(crate) what: (String, String),
}

/// The bundled tree files of two entries whose streams are equal, paired
/// by their place (A path, B path); or where the streams part.
pub(crate) fn pair_files(a: &Entry, b: &Entry) -> Result<Vec<(String, String)>, Parted> {
    let first = a
        .toks
        .iter()
        .zip(&b.toks)
        .position(|((_, x), (_, y))| x != y);
    let part = |i: usize| Parted {
        at: (
            a.toks.get(i).map(|t| t.0 as usize),
            b.toks.get(i).map(|t| t.0 as usize),
        ),
        what: (
            a.toks
                .get(i)
                .map_or("its end".to_owned(), |t| t.1.describe()),
            b.toks
                .get(i)
                .map_or("its end".to_owned(), |t| t.1.describe()),
        ),
    };
    if let Some(i) = first {
        return Err(part(i));
    }
    if a.toks.len() != b.toks.len() {
        return Err(part(a.toks.len().min(b.toks.len())));
    }
    Ok(a.files
        .iter()
        .cloned()
        .zip(b.files.iter().cloned())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ArtifactFile;

    fn tree(files: &[(&str, &[u8])]) -> ArtifactTree {
        ArtifactTree {
            files: files
                .iter()
                .map(|(p, c)| ArtifactFile {
                    path: (*p).to_owned(),
                    size: c.len() as u64,
                    sha256: hex(c),
                    content: Some(c.to_vec()),
                })
                .collect(),
        }
    }

    /// A pickle of `{"_time_taken_ns": t, "kernel_hash": key, "payload":
    /// payload, "name": "fn", "again": "fn"}`, with the second "fn" pickled
    /// afresh (`fresh`) or fetched from the memo, as two processes differ.
    fn entry(t: u32, key: &str, payload: &[u8], fresh: bool) -> Vec<u8> {
        let mut v = b"\x80\x04\x95\x00\x00\x00\x00\x00\x00\x00\x00}\x94(".to_vec();
        let s = |v: &mut Vec<u8>, x: &str| {
            v.push(0x8c);
            v.push(x.len() as u8);
            v.extend_from_slice(x.as_bytes());
            v.push(0x94);
        };
        s(&mut v, "_time_taken_ns");
        v.push(b'J');
        v.extend_from_slice(&t.to_le_bytes());
        s(&mut v, "kernel_hash");
        s(&mut v, key);
        s(&mut v, "payload");
        v.push(b'B');
        v.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        v.extend_from_slice(payload);
        v.push(0x94);
        s(&mut v, "name");
        s(&mut v, "fn"); // memo 7 when counted from 0
        s(&mut v, "again");
        if fresh {
            v.extend_from_slice(b"\x8c\x02fn");
        } else {
            v.extend_from_slice(b"h\x07");
        }
        v.extend_from_slice(b"u.");
        v
    }

    const KEY_A: &str = "B2QWVA4UA5V3FMCTPTFCEG457NFOOJKG3WSYFQNGWCWKZXXWETZQ";
    const KEY_B: &str = "2QBHSR5HINEGL4U7ZZ636AEARQLAEK3HDF6NM5BEHSGUAIHFRPLQ";

    #[test]
    fn entries_that_differ_in_time_memo_and_bundled_files_pair_those_files() {
        let (ca, cb) = ([1u8; 100], [2u8; 100]);
        let pa = format!("triton/{KEY_A}/k.cubin");
        let pb = format!("triton/{KEY_B}/k.cubin");
        let ta = tree(&[(&pa, &ca)]);
        let tb = tree(&[(&pb, &cb)]);
        let a = read(
            &entry(10, KEY_A, &ca, true),
            &TreeView::of(&ta),
            &normalize::Roots::default(),
        )
        .unwrap();
        let b = read(
            &entry(99, KEY_B, &cb, false),
            &TreeView::of(&tb),
            &normalize::Roots::default(),
        )
        .unwrap();
        assert!(a.noise.contains(&NoiseKind::Timing) && b.noise.contains(&NoiseKind::Timing));
        assert!(a.noise.contains(&NoiseKind::HashedFileName));
        assert_eq!(pair_files(&a, &b).unwrap(), [(pa, pb)]);
    }

    /// A pickle of `{"async_compile_cache_miss": miss, "extern_calls":
    /// calls}`, as an entry's `counter_deltas` holds them.
    fn counters(miss: u8, calls: u8) -> Vec<u8> {
        let mut v = b"\x80\x04}\x94(".to_vec();
        for (k, n) in [("async_compile_cache_miss", miss), ("extern_calls", calls)] {
            v.push(0x8c);
            v.push(k.len() as u8);
            v.extend_from_slice(k.as_bytes());
            v.push(0x94);
            v.extend_from_slice(&[b'K', n]);
        }
        v.extend_from_slice(b"u.");
        v
    }

    #[test]
    fn async_compile_counters_are_scheduling_and_other_counters_are_compared() {
        let t = tree(&[]);
        let view = TreeView::of(&t);
        let roots = normalize::Roots::default();
        let read_ = |b: &[u8]| read(b, &view, &roots).unwrap();
        let (a, b) = (read_(&counters(31, 13)), read_(&counters(32, 13)));
        assert!(a.noise.contains(&NoiseKind::AsyncCompileCounter));
        assert!(pair_files(&a, &b).is_ok());
        let c = read_(&counters(31, 14));
        assert!(
            pair_files(&a, &c).is_err(),
            "extern_calls is what the graph did"
        );
    }

    #[test]
    fn a_value_that_differs_outside_the_bundled_files_is_where_they_part() {
        let t = tree(&[]);
        let view = TreeView::of(&t);
        let a = read(
            &entry(10, KEY_A, &[7u8; 10], true),
            &view,
            &normalize::Roots::default(),
        )
        .unwrap();
        let b = read(
            &entry(10, KEY_A, &[8u8; 10], true),
            &view,
            &normalize::Roots::default(),
        )
        .unwrap();
        let p = pair_files(&a, &b).unwrap_err();
        assert_eq!(p.what, ("10 bytes".to_owned(), "10 bytes".to_owned()));
        assert!(p.at.0.is_some_and(|at| at > 0));
        // A get of an index never put is an error, not a guess.
        let bad = b"\x80\x04h\x09.";
        assert_eq!(
            read(bad, &view, &normalize::Roots::default())
                .err()
                .unwrap()
                .what,
            "a memo get of an index never put"
        );
    }
}
