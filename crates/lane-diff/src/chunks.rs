//! Files too large to load, compared in flat memory.
//!
//! The first pass of [`super::ingest`] prints every file it does not keep
//! in fixed [`CHUNK_BYTES`] chunks (crc32 of each: a run of up to 32
//! differing bits inside a chunk always changes its print), beside the
//! file's sha256. When two files at one path differ and are above the
//! content cap, [`window_plan`] names the chunks whose prints differ, and
//! the second pass reads exactly those chunks of both sides (at most
//! [`MAX_WINDOWS_PER_FILE`] a file, [`WINDOW_BUDGET_BYTES`] a side),
//! never the whole file. The diff then names the byte ranges that differ:
//! exact where both windows were read, the chunk's span where they were
//! not. Memory is bounded by the windows, never by the file.

use std::collections::BTreeMap;
use std::io::{self, Read};

use serde::Serialize;

use super::model::{ArtifactFile, CellSide, UnexplainedCause};

/// The size of a printed chunk.
pub const CHUNK_BYTES: u64 = 1 << 20;

/// Differing chunks read again per file, at most (their ranges are
/// exact; beyond them, a range is the chunk's span).
pub const MAX_WINDOWS_PER_FILE: usize = 16;

/// Bytes of windows read again per side, at most.
pub const WINDOW_BUDGET_BYTES: u64 = 64 << 20;

/// Byte ranges listed per file, at most (the rest are counted).
pub const MAX_RANGES: usize = 32;

/// One file's chunk prints, and the windows of its content the second
/// pass read where they differ from the other side's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Chunked {
    /// crc32 of each [`CHUNK_BYTES`] chunk, in order (the last may be shorter).
    pub crcs: Vec<u32>,
    /// Whole chunks read again (each at a multiple of [`CHUNK_BYTES`]).
    pub windows: Vec<Window>,
}

/// One chunk of a file's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// Where it starts in the file.
    pub offset: u64,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// The chunk prints of one side, and the limits its content was read under.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkIndex {
    /// Per path, the files printed (those whose content was not kept).
    pub files: BTreeMap<String, Chunked>,
    /// The per-file content cap (`--max-content-bytes`).
    pub max_content_bytes: u64,
    /// The side's content budget.
    pub max_total_content_bytes: u64,
}

/// A range of bytes that differ, `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ByteRange {
    /// First differing byte.
    pub start: u64,
    /// One past the last.
    pub end: u64,
    /// Whether every byte of it differs (read on both sides); else it is
    /// the span of a chunk whose prints differ, somewhere inside.
    pub exact: bool,
}

/// Prints a stream chunk by chunk as it goes by.
#[derive(Default)]
pub(crate) struct Tap {
    crcs: Vec<u32>,
    cur: crc32fast::Hasher,
    filled: u64,
}

impl Tap {
    /// The next bytes of the stream.
    pub(crate) fn update(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let room = (CHUNK_BYTES - self.filled) as usize;
            let (now, rest) = bytes.split_at(room.min(bytes.len()));
            self.cur.update(now);
            self.filled += now.len() as u64;
            if self.filled == CHUNK_BYTES {
                let done = std::mem::take(&mut self.cur);
                self.crcs.push(done.finalize());
                self.filled = 0;
            }
            bytes = rest;
        }
    }

    /// The prints, the last (short) chunk included.
    pub(crate) fn finish(mut self) -> Vec<u32> {
        if self.filled > 0 {
            self.crcs.push(self.cur.finalize());
        }
        self.crcs
    }
}

/// The crc32 of one chunk.
pub(crate) fn crc(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// Indices of the chunks whose prints differ (a chunk one side lacks
/// differs).
fn differing_chunks(a: &[u32], b: &[u32]) -> Vec<usize> {
    (0..a.len().max(b.len()))
        .filter(|&i| a.get(i) != b.get(i))
        .collect()
}

/// The window read again at `at`, if any.
fn window_at(c: &Chunked, at: u64) -> Option<&[u8]> {
    c.windows
        .iter()
        .find(|w| w.offset == at)
        .map(|w| w.bytes.as_slice())
}

/// Which chunks each path's second pass reads again, for both sides:
/// files at the same path whose sha256 differ and whose content is not
/// in the plan (above `max_bytes`), within the per-file and per-side
/// limits. Pairing here is by path: a large file under another name is
/// compared by its prints alone.
pub fn window_plan(a: &CellSide, b: &CellSide, max_bytes: u64) -> BTreeMap<String, Vec<u64>> {
    let by_path = |s: &'_ CellSide| -> BTreeMap<String, (String, u64)> {
        s.tree
            .files
            .iter()
            .map(|f| (f.path.clone(), (f.sha256.clone(), f.size)))
            .collect()
    };
    let (fa, fb) = (by_path(a), by_path(b));
    let mut budget = WINDOW_BUDGET_BYTES;
    let mut plan = BTreeMap::new();
    for (path, (sha_a, size_a)) in &fa {
        let Some((sha_b, size_b)) = fb.get(path) else {
            continue;
        };
        if sha_a == sha_b || *size_a.max(size_b) <= max_bytes {
            continue;
        }
        let (Some(ca), Some(cb)) = (a.chunks.files.get(path), b.chunks.files.get(path)) else {
            continue;
        };
        let mut chunks = Vec::new();
        for i in differing_chunks(&ca.crcs, &cb.crcs)
            .into_iter()
            .take(MAX_WINDOWS_PER_FILE)
        {
            if budget < CHUNK_BYTES {
                break;
            }
            budget -= CHUNK_BYTES;
            chunks.push(i as u64);
        }
        if !chunks.is_empty() {
            plan.insert(path.clone(), chunks);
        }
    }
    plan
}

/// What two printed files differ by.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ByteDiff {
    /// The ranges, at most [`MAX_RANGES`].
    pub(crate) ranges: Vec<ByteRange>,
    /// Ranges found beyond those listed.
    pub(crate) more: usize,
    /// Chunks whose prints differ, and the chunks of the longer file.
    pub(crate) chunks: (usize, usize),
}

/// Appends the runs of differing bytes of `a` and `b` (one past the
/// shorter's end differs to the longer's end), at `offset`.
pub(crate) fn runs(offset: u64, a: &[u8], b: &[u8], out: &mut Vec<ByteRange>) {
    let common = a.len().min(b.len());
    let mut i = 0;
    while i < common {
        if a[i] == b[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < common && a[i] != b[i] {
            i += 1;
        }
        push_range(out, offset + start as u64, offset + i as u64, true);
    }
    if a.len() != b.len() {
        let end = a.len().max(b.len());
        push_range(out, offset + common as u64, offset + end as u64, true);
    }
}

fn push_range(out: &mut Vec<ByteRange>, start: u64, end: u64, exact: bool) {
    match out.last_mut() {
        Some(last) if last.end == start && last.exact == exact => last.end = end,
        _ => out.push(ByteRange { start, end, exact }),
    }
}

/// The byte ranges two printed files differ by: exact inside the chunks
/// both sides read again, a chunk's span elsewhere.
pub(crate) fn byte_diff(size_a: u64, size_b: u64, a: &Chunked, b: &Chunked) -> ByteDiff {
    let longest = size_a.max(size_b);
    let mut ranges = Vec::new();
    let mut count = 0;
    for i in differing_chunks(&a.crcs, &b.crcs) {
        count += 1;
        let at = i as u64 * CHUNK_BYTES;
        match (window_at(a, at), window_at(b, at)) {
            (Some(wa), Some(wb)) => runs(at, wa, wb, &mut ranges),
            _ => push_range(&mut ranges, at, (at + CHUNK_BYTES).min(longest), false),
        }
    }
    let more = ranges.len().saturating_sub(MAX_RANGES);
    ranges.truncate(MAX_RANGES);
    ByteDiff {
        ranges,
        more,
        chunks: (count, a.crcs.len().max(b.crcs.len())),
    }
}

/// The ranges in words: `bytes 1048580..1048584 (4 bytes, 0x100004)`.
pub(crate) fn describe_ranges(ranges: &[ByteRange], more: usize) -> String {
    let mut parts: Vec<String> = ranges
        .iter()
        .map(|r| {
            let n = r.end - r.start;
            if r.exact {
                format!("bytes {}..{} ({n} bytes at {:#x})", r.start, r.end, r.start)
            } else {
                format!(
                    "somewhere in bytes {}..{} (a chunk not read again)",
                    r.start, r.end
                )
            }
        })
        .collect();
    if more > 0 {
        parts.push(format!("and {more} more range(s)"));
    }
    parts.join(", ")
}

/// The chunks `wanted` (sorted indices) of a stream, read up to the last
/// of them and no further; nothing is hashed on the way.
pub(crate) fn read_windows(r: &mut dyn Read, wanted: &[u64]) -> io::Result<Vec<Window>> {
    let mut out = Vec::with_capacity(wanted.len());
    let mut skip = vec![0u8; 64 * 1024];
    let mut at = 0u64;
    for &i in wanted {
        let start = i * CHUNK_BYTES;
        while at < start {
            let want = (start - at).min(skip.len() as u64) as usize;
            let n = read_some(r, &mut skip[..want])?;
            if n == 0 {
                return Ok(out);
            }
            at += n as u64;
        }
        let mut bytes = Vec::new();
        (&mut *r).take(CHUNK_BYTES).read_to_end(&mut bytes)?;
        at += bytes.len() as u64;
        let short = (bytes.len() as u64) < CHUNK_BYTES;
        out.push(Window {
            offset: start,
            bytes,
        });
        if short {
            break;
        }
    }
    Ok(out)
}

fn read_some(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match r.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// Why a file's content was not loaded, naming the limit it is over.
fn over_what(fa: &ArtifactFile, fb: &ArtifactFile, ia: &ChunkIndex, ib: &ChunkIndex) -> String {
    let cap = ia.max_content_bytes.max(ib.max_content_bytes);
    let budget = ia.max_total_content_bytes.max(ib.max_total_content_bytes);
    if cap == 0 {
        "above the per-file content cap or the side's content budget".into()
    } else if fa.size.max(fb.size) > cap {
        format!("above the {cap}-byte content cap (--max-content-bytes)")
    } else {
        format!("over the side's {budget}-byte content budget")
    }
}

/// What two differing files whose content was not loaded differ by:
/// their byte ranges when both were printed in chunks, else "content not
/// compared", naming the limit.
pub(crate) fn not_loaded(
    what: &str,
    fa: &ArtifactFile,
    fb: &ArtifactFile,
    ia: &ChunkIndex,
    ib: &ChunkIndex,
) -> (UnexplainedCause, String, Vec<ByteRange>) {
    let over = over_what(fa, fb, ia, ib);
    let (Some(ca), Some(cb)) = (ia.files.get(&fa.path), ib.files.get(&fb.path)) else {
        return (
            UnexplainedCause::ContentNotCompared,
            format!(
                "content not compared ({} and {} bytes: {over})",
                fa.size, fb.size
            ),
            Vec::new(),
        );
    };
    let d = byte_diff(fa.size, fb.size, ca, cb);
    let sizes = if fa.size == fb.size {
        format!("{} bytes", fa.size)
    } else {
        format!("{} and {} bytes", fa.size, fb.size)
    };
    let reason = if d.ranges.is_empty() {
        format!(
            "{what} ({sizes}, {over}): the sha256s differ but every 1 MiB chunk's crc32 agrees: not located"
        )
    } else {
        let exact: u64 = d
            .ranges
            .iter()
            .filter(|r| r.exact)
            .map(|r| r.end - r.start)
            .sum();
        let bytes = if d.ranges.iter().all(|r| r.exact) && d.more == 0 {
            format!("{exact} byte(s) differ")
        } else {
            "bytes differ".into()
        };
        format!(
            "{what} ({sizes}, {over}; compared in 1 MiB chunks, {} of {} differing): {bytes}: {}",
            d.chunks.0,
            d.chunks.1,
            describe_ranges(&d.ranges, d.more)
        )
    };
    (UnexplainedCause::ByteRanges, reason, d.ranges)
}

/// What two loaded files differ by, byte by byte (at most [`MAX_RANGES`]
/// ranges listed).
pub(crate) fn loaded(ca: &[u8], cb: &[u8]) -> (String, Vec<ByteRange>) {
    let mut ranges = Vec::new();
    runs(0, ca, cb, &mut ranges);
    let more = ranges.len().saturating_sub(MAX_RANGES);
    ranges.truncate(MAX_RANGES);
    let n: u64 = ranges.iter().map(|r| r.end - r.start).sum();
    let bytes = if more == 0 {
        format!("{n} byte(s) differ")
    } else {
        "bytes differ".into()
    };
    (
        format!("{bytes}: {}", describe_ranges(&ranges, more)),
        ranges,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_do_not_depend_on_how_the_stream_is_cut() {
        let data: Vec<u8> = (0..(3 * CHUNK_BYTES + 17))
            .map(|i| (i % 251) as u8)
            .collect();
        let mut whole = Tap::default();
        whole.update(&data);
        let mut cut = Tap::default();
        for piece in data.chunks(65_537) {
            cut.update(piece);
        }
        let (w, c) = (whole.finish(), cut.finish());
        assert_eq!(w, c);
        assert_eq!(w.len(), 4);
        assert_eq!(w[3], crc(&data[3 * CHUNK_BYTES as usize..]));
    }

    #[test]
    fn runs_name_each_differing_run_and_a_longer_tail() {
        let mut out = Vec::new();
        runs(100, b"abcdefgh", b"abXdeYYh", &mut out);
        runs(200, b"ab", b"abcd", &mut out);
        let got: Vec<(u64, u64)> = out.iter().map(|r| (r.start, r.end)).collect();
        assert_eq!(got, [(102, 103), (105, 107), (202, 204)]);
    }

    #[test]
    fn without_windows_a_range_is_the_differing_chunks_span() {
        let a = Chunked {
            crcs: vec![1, 2, 3],
            windows: Vec::new(),
        };
        let mut b = a.clone();
        b.crcs[1] = 9;
        let d = byte_diff(3 * CHUNK_BYTES - 5, 3 * CHUNK_BYTES - 5, &a, &b);
        assert_eq!(
            d.ranges,
            [ByteRange {
                start: CHUNK_BYTES,
                end: 2 * CHUNK_BYTES,
                exact: false
            }]
        );
        assert_eq!(d.chunks, (1, 3));
    }
}
