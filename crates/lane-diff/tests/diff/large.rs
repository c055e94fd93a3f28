//! Cells whose members are too large to load, compared chunk by chunk:
//! two generated cells (a `cell.tar.gz` of `metadata.json` and a `.pt2`
//! holding 16 MiB of weights) that differ in four bytes, read with a
//! 4 MiB content cap, as `lane diff` reads a GB cell under its 64 MiB one.

use std::io::Write;
use std::path::Path;

use lane_diff::chunks::{window_plan, ByteRange, CHUNK_BYTES};
use lane_diff::ingest::{
    complete_side_planned, read_side_retaining, MemorySpool, ReadLimits, Retained,
};
use lane_diff::{content_plan, diff_sides, DeterminismReport, DeterminismVerdict, FileRole};
use lane_diff::{Unexplained, UnexplainedCause};

use super::disk::Disk;

const WEIGHTS: usize = 16 << 20;
const MIB: u64 = CHUNK_BYTES;

/// Deterministic bytes that do not compress (xorshift).
fn weights() -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut out = Vec::with_capacity(WEIGHTS);
    while out.len() < WEIGHTS {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}

/// A packed cell: `metadata.json` and `model.pt2` (stored, as torch
/// writes it) with a wrapper and the weights.
fn pack(dir: &Path, weights: &[u8]) -> std::path::PathBuf {
    let mut pt2 = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    pt2.start_file("model/data/aotinductor/unet/cabc.wrapper.cpp", stored)
        .unwrap();
    pt2.write_all(b"// the wrapper\nint main() { return 0; }\n")
        .unwrap();
    pt2.start_file("model/data/weights/weight_0", stored)
        .unwrap();
    pt2.write_all(weights).unwrap();
    let pt2 = pt2.finish().unwrap().into_inner();
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("cell.tar.gz");
    let gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&path).unwrap(),
        flate2::Compression::none(),
    );
    let mut tar = tar::Builder::new(gz);
    for (name, bytes) in [
        ("metadata.json", &b"{\"cell\": 1}"[..]),
        ("model.pt2", &pt2),
    ] {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        tar.append_data(&mut h, name, bytes).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap();
    path
}

/// Both sides read as `lane diff` reads them: the first pass retaining
/// the spooled `.pt2`, the content plan and the chunks to read again,
/// then each second pass.
fn diff(a: &Path, b: &Path, limits: &ReadLimits, retain: bool) -> DeterminismReport {
    let (mut da, mut db) = (Disk { root: a.into() }, Disk { root: b.into() });
    let (mut sa, ra) = read_side_retaining(&mut da, limits, &mut MemorySpool).unwrap();
    let (mut sb, rb) = read_side_retaining(&mut db, limits, &mut MemorySpool).unwrap();
    let (ra, rb) = if retain {
        (ra, rb)
    } else {
        (Retained::default(), Retained::default())
    };
    let plan = content_plan(&sa.tree, &sb.tree, limits.max_content_bytes);
    let windows = window_plan(&sa, &sb, limits.max_content_bytes);
    let spool = &mut MemorySpool;
    complete_side_planned(&mut sa, &plan.a, &windows, &mut da, limits, spool, ra).unwrap();
    complete_side_planned(&mut sb, &plan.b, &windows, &mut db, limits, spool, rb).unwrap();
    diff_sides(&sa, &sb).unwrap()
}

fn the_weights(r: &DeterminismReport) -> &Unexplained {
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained, "{}", r.summary);
    assert_eq!(r.unexplained.len(), 1, "{:#?}", r.unexplained);
    &r.unexplained[0]
}

#[test]
fn a_cell_above_the_content_cap_names_the_member_and_the_bytes_that_differ() {
    let d = tempfile::tempdir().unwrap();
    let w = weights();
    let mut changed = w.clone();
    // Four bytes, in two chunks, away from the chunks' edges.
    for at in [5 * MIB + 3, 5 * MIB + 4, 13 * MIB + 100, 13 * MIB + 101] {
        changed[at as usize] ^= 0x5a;
    }
    let a = pack(&d.path().join("r1"), &w);
    let b = pack(&d.path().join("r2"), &changed);
    let limits = ReadLimits {
        max_content_bytes: 4 << 20,
        ..ReadLimits::default()
    };
    let want = [
        ByteRange {
            start: 5 * MIB + 3,
            end: 5 * MIB + 5,
            exact: true,
        },
        ByteRange {
            start: 13 * MIB + 100,
            end: 13 * MIB + 102,
            exact: true,
        },
    ];
    // From the spooled .pt2 the first pass kept, and from the cell again.
    for retain in [true, false] {
        let r = diff(&a, &b, &limits, retain);
        let u = the_weights(&r);
        assert_eq!(u.cause, UnexplainedCause::ByteRanges);
        assert_eq!(u.a.as_deref(), Some("model.pt2/data/weights/weight_0"));
        assert_eq!(u.ranges, want, "{}", u.reason);
        assert!(
            u.reason.starts_with("a weights file (16777216 bytes, above the 4194304-byte content cap (--max-content-bytes); compared in 1 MiB chunks, 2 of 16 differing): 4 byte(s) differ: bytes 5242883..5242885 (2 bytes at 0x500003)"),
            "{}",
            u.reason
        );
        let role = r.file_diffs.iter().find(|f| f.a == u.a).unwrap().role;
        assert_eq!(role, FileRole::Weights);
    }
    // Under the default cap the same weights are loaded, with the same ranges.
    let r = diff(&a, &b, &ReadLimits::default(), true);
    let u = the_weights(&r);
    assert_eq!(
        (u.cause, u.ranges.as_slice()),
        (UnexplainedCause::Binary, &want[..])
    );
}

#[test]
fn a_large_member_of_another_length_differs_from_the_shorter_ones_end() {
    let d = tempfile::tempdir().unwrap();
    let w = weights();
    let a = pack(&d.path().join("r1"), &w);
    let b = pack(&d.path().join("r2"), &w[..w.len() - 10]);
    let limits = ReadLimits {
        max_content_bytes: 1 << 20,
        ..ReadLimits::default()
    };
    let r = diff(&a, &b, &limits, true);
    let u = the_weights(&r);
    let end = WEIGHTS as u64;
    assert_eq!(
        u.ranges,
        [ByteRange {
            start: end - 10,
            end,
            exact: true
        }],
        "{}",
        u.reason
    );
}
