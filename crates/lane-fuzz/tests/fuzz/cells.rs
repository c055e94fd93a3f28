//! Packed cells and artifact trees: the real H200 cell (`cell.tar.gz`)
//! with its tar mutated and packed again, and archives built to attack the
//! reader (members that climb out, links, pipes, duplicates, archives
//! nested past the limit, members that inflate, a `.pt2` zip of them, and
//! nested deflate bombs under a time bound).
//! Both sides go through `lane diff`'s own reading (`lane_app::diff_paths`:
//! the folder and file sources, the spool, both passes): a report, or a
//! refusal naming the file and the member, within bounds.

use std::io::{Read, Write};
use std::path::Path;

use proptest::prelude::*;

use crate::{bounds, meter, run_serial, seed};

const CELL: &str = "gw-0.93.3-h200/aot-pair/r1/cell.tar.gz";

/// A real dynamo cell, for its FX-graph cache entry (a 4.5 MB pickle).
const DYNAMO_CELL: &str =
    "gw-0.93.3-h200/h200-run-session6/results/rig-dynamo/H200/r1/artifacts/cell.tar.gz";

/// The real FX-graph entry: its path in the cell and its bytes.
fn real_fx_entry() -> &'static (String, Vec<u8>) {
    static ENTRY: std::sync::OnceLock<(String, Vec<u8>)> = std::sync::OnceLock::new();
    ENTRY.get_or_init(|| {
        let bytes = seed(DYNAMO_CELL);
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));
        for member in archive.entries().expect("the recorded cell unpacks") {
            let mut m = member.expect("the recorded cell unpacks");
            let path = m.path().unwrap().display().to_string();
            if path.contains("/fxgraph/") && m.header().entry_type().is_file() {
                let mut out = Vec::new();
                m.read_to_end(&mut out).unwrap();
                return (path, out);
            }
        }
        panic!("the recorded dynamo cell has an FX-graph entry")
    })
}

/// The real cell's tar, unpacked once.
fn real_tar() -> &'static [u8] {
    static TAR: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    TAR.get_or_init(|| {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&seed(CELL)[..])
            .read_to_end(&mut out)
            .expect("the recorded cell unpacks");
        out
    })
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// One member of a built archive.
#[derive(Debug, Clone)]
enum Member {
    File(String, Vec<u8>),
    /// A member that inflates: `n` zero bytes (tiny once compressed).
    Zeros(String, usize),
    Symlink(String, String),
    Hardlink(String, String),
    Fifo(String),
    Dir(String),
    /// An archive inside, built from these members (nesting).
    Nested(String, Vec<Member>),
}

fn names() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "package/data/aotinductor/model/c6326gic7geitajllmtnnw35ww4r44gdjlflbekifaangmx622jj.wrapper.cpp",
        "cache/26/d10027f99a68e025bef84a147d87175af312eafb7d924a2c58cde86565967b23.best_config",
        "package/.data/serialization_id",
        "../../etc/passwd",
        "/etc/shadow",
        "a/../../b",
        "a//b",
        "x\u{1b}]0;t\u{7}.py",
        "dup.json",
        "dup.json",
        "",
        ".",
    ])
    .prop_map(str::to_owned)
}

fn member(depth: u32) -> BoxedStrategy<Member> {
    let leaf = prop_oneof![
        (names(), prop::collection::vec(any::<u8>(), 0..300)).prop_map(|(n, b)| Member::File(n, b)),
        (names(), 0usize..(12 << 20)).prop_map(|(n, z)| Member::Zeros(n, z)),
        (names(), names()).prop_map(|(n, t)| Member::Symlink(n, t)),
        (names(), names()).prop_map(|(n, t)| Member::Hardlink(n, t)),
        names().prop_map(Member::Fifo),
        names().prop_map(Member::Dir),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    prop_oneof![
        4 => leaf,
        1 => (prop::sample::select(vec!["inner.tar.gz", "inner.tar", "inner.pt2"]), prop::collection::vec(member(depth - 1), 0..4))
            .prop_map(|(n, ms)| Member::Nested(n.to_owned(), ms)),
    ]
    .boxed()
}

/// A tar header whose name is written as given (the `tar` crate's own
/// path setters refuse names that climb out, which is what is tested).
fn header(name: &str, kind: tar::EntryType, size: u64, link: Option<&str>) -> tar::Header {
    let mut h = tar::Header::new_gnu();
    let raw = &mut h.as_old_mut().name;
    let bytes = name.as_bytes();
    let n = bytes.len().min(raw.len());
    raw[..n].copy_from_slice(&bytes[..n]);
    if let Some(l) = link {
        let raw = &mut h.as_old_mut().linkname;
        let n = l.len().min(raw.len());
        raw[..n].copy_from_slice(&l.as_bytes()[..n]);
    }
    h.set_entry_type(kind);
    h.set_size(size);
    h.set_mode(0o644);
    h.set_cksum();
    h
}

fn tar_of(members: &[Member]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for m in members {
        match m {
            Member::File(n, data) => b.append(
                &header(n, tar::EntryType::Regular, data.len() as u64, None),
                &data[..],
            ),
            Member::Zeros(n, z) => b.append(
                &header(n, tar::EntryType::Regular, *z as u64, None),
                std::io::repeat(0).take(*z as u64),
            ),
            Member::Symlink(n, t) => {
                b.append(&header(n, tar::EntryType::Symlink, 0, Some(t)), &[][..])
            }
            Member::Hardlink(n, t) => {
                b.append(&header(n, tar::EntryType::Link, 0, Some(t)), &[][..])
            }
            Member::Fifo(n) => b.append(&header(n, tar::EntryType::Fifo, 0, None), &[][..]),
            Member::Dir(n) => b.append(&header(n, tar::EntryType::Directory, 0, None), &[][..]),
            Member::Nested(n, inner) => {
                let data = pack(n, inner);
                b.append(
                    &header(n, tar::EntryType::Regular, data.len() as u64, None),
                    &data[..],
                )
            }
        }
        .unwrap();
    }
    b.into_inner().unwrap()
}

fn zip_of(members: &[Member]) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    for m in members {
        let (name, data) = match m {
            Member::File(n, d) => (n.clone(), d.clone()),
            Member::Zeros(n, size) => (n.clone(), vec![0; *size]),
            Member::Nested(n, inner) => (n.clone(), pack(n, inner)),
            Member::Symlink(n, _) | Member::Hardlink(n, _) | Member::Fifo(n) | Member::Dir(n) => {
                (n.clone(), Vec::new())
            }
        };
        // Duplicate or refused names are the writer's to refuse: skip them.
        if z.start_file(name, opts).is_ok() {
            let _ = z.write_all(&data);
        }
    }
    z.finish().unwrap().into_inner()
}

fn pack(name: &str, members: &[Member]) -> Vec<u8> {
    if name.ends_with(".pt2") {
        zip_of(members)
    } else if name.ends_with(".tar") {
        tar_of(members)
    } else {
        gzip(&tar_of(members))
    }
}

/// Diffs the two files as `lane diff` does; a refusal must name the side's
/// file.
fn check(name: &str, a: Vec<u8>, b: Vec<u8>) -> Result<(), TestCaseError> {
    check_loading(name, a, b, 1 << 20)
}

/// [`check`], loading files of up to `max_content` bytes to compare them.
fn check_loading(
    name: &str,
    a: Vec<u8>,
    b: Vec<u8>,
    max_content: u64,
) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let (pa, pb) = (
        dir.path().join("a").join(name),
        dir.path().join("b").join(name),
    );
    for (p, bytes) in [(&pa, &a), (&pb, &b)] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    let len = a.len() + b.len();
    let (shown_a, shown_b) = (pa.display().to_string(), pb.display().to_string());
    let (answer, _) = lane_fuzz::bounded("cell", len, &bounds(32, 2), &meter(), move || {
        lane_app::diff_paths(Path::new(&pa), Path::new(&pb), max_content)
            .map(|r| serde_json::to_string(&r).map(|_| ()).unwrap_or(()))
            .map_err(|e| lane_app::describe(&e))
    })
    .map_err(TestCaseError::fail)?;
    if let Err(text) = answer {
        prop_assert!(
            text.contains(&shown_a) || text.contains(&shown_b),
            "the refused file is not named: {text}"
        );
    }
    Ok(())
}

#[test]
fn the_real_cell_with_its_tar_mutated_diffs_or_is_refused_naming_the_file() {
    let ms = lane_fuzz::mutations(vec![b"ustar\0".to_vec(), vec![0; 512], b"../".to_vec()], 3);
    run_serial((ms, any::<bool>()), |(ms, packed)| {
        let mutated = lane_fuzz::apply(real_tar().to_vec(), &ms);
        if packed {
            check("cell.tar.gz", gzip(real_tar()), gzip(&mutated))
        } else {
            check("cell.tar", real_tar().to_vec(), mutated)
        }
    });
}

/// The pickle reader behind the FX-graph entry's comparison: any mutation
/// gives a verdict (the entry unreadable as a pickle is compared by its
/// bytes), within bounds.
#[test]
fn the_real_fx_graph_entry_mutated_diffs_within_bounds() {
    let tokens = vec![
        b"\x94".to_vec(),
        b"j\xff\xff\xff\x7f".to_vec(),
        b"\x8e\xff\xff\xff\xff\xff\xff\xff\x7f".to_vec(),
        b"(".to_vec(),
    ];
    run_serial(lane_fuzz::mutations(tokens, 3), |ms| {
        let (path, bytes) = real_fx_entry();
        // Loaded whole (4.5 MB), so the pickle reader runs.
        let mutated = lane_fuzz::apply(bytes.clone(), &ms);
        check_loading(path, bytes.clone(), mutated, 64 << 20)
    });
}

#[test]
fn attacking_archives_diff_or_are_refused_naming_the_file() {
    let members = || prop::collection::vec(member(5), 0..8);
    let names = prop::sample::select(vec!["cell.tar.gz", "cell.tar", "model.pt2"]);
    run_serial((members(), members(), names), |(a, b, name)| {
        check(name, pack(name, &a), pack(name, &b))
    });
}

/// A `.tar.gz` whose one member `name` is `zeros` bytes of zeros (a whole
/// number of MiB), built without compressing them: deflate blocks of one
/// MiB of zeros, each from a fresh compressor (so it refers to nothing
/// before it), repeated; a valid stream with its true CRC and length,
/// about 1,000 times smaller than what it inflates to.
fn deflate_bomb(name: &str, zeros: u64) -> Vec<u8> {
    use flate2::{Compress, Compression, Crc, FlushCompress};
    let raw = |bytes: &[u8], flush: FlushCompress| {
        let mut c = Compress::new(Compression::best(), false);
        let mut out = Vec::with_capacity(bytes.len() / 100 + 1024);
        c.compress_vec(bytes, &mut out, flush).unwrap();
        assert_eq!(
            c.total_in(),
            bytes.len() as u64,
            "one call compresses it all"
        );
        out
    };
    const MIB: usize = 1 << 20;
    let mut header = tar::Header::new_gnu();
    header.set_path(name).unwrap();
    header.set_size(zeros);
    header.set_mode(0o644);
    header.set_cksum();
    let header = header.as_bytes();
    // The tar: the header, the member's zeros, two zero blocks at the end.
    let (chunks, tail) = (zeros / MIB as u64, 1024);
    let mut crc = Crc::new();
    crc.update(header);
    let mut chunk_crc = Crc::new();
    chunk_crc.update(&[0; MIB]);
    for _ in 0..chunks {
        crc.combine(&chunk_crc);
    }
    crc.update(&[0; 1024]);
    let chunk = raw(&[0; MIB], FlushCompress::Sync);
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    out.extend(raw(header, FlushCompress::Sync));
    for _ in 0..chunks {
        out.extend_from_slice(&chunk);
    }
    out.extend(raw(&[0; 1024], FlushCompress::Sync));
    out.extend(raw(&[], FlushCompress::Finish));
    out.extend(crc.sum().to_le_bytes());
    let len = header.len() as u64 + zeros + tail;
    out.extend((len as u32).to_le_bytes());
    out
}

/// Regression (issue 19, item 5): nested deflate bombs, a member of 6 GiB
/// of zeros four times, in a `.tar.gz` and in a `.pt2`, cost `lane diff`
/// 33 s of CPU (only members and member counts were capped); each is
/// refused naming its file, well within a 10 s bound.
#[test]
fn nested_deflate_bombs_are_refused_within_a_time_bound() {
    let _one = crate::serial();
    let inner = deflate_bomb("zeros.bin", 6 << 30);
    let names = ["a.tar.gz", "b.tar.gz", "c.tar.gz", "d.tar.gz"];
    let tar = tar_of(&names.map(|n| Member::File(n.to_owned(), inner.clone())));
    let mut tgz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    tgz.write_all(&tar).unwrap();
    let tgz = tgz.finish().unwrap();
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for n in names {
        z.start_file(format!("model/{n}"), deflated).unwrap();
        z.write_all(&inner).unwrap();
    }
    let pt2 = z.finish().unwrap().into_inner();
    for (name, bomb) in [("bomb.tar.gz", tgz), ("bomb.pt2", pt2)] {
        assert!(bomb.len() < 1 << 20, "{name}: {} bytes", bomb.len());
        let dir = tempfile::tempdir().unwrap();
        let (pa, pb) = (
            dir.path().join("a").join(name),
            dir.path().join("b").join(name),
        );
        for p in [&pa, &pb] {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, &bomb).unwrap();
        }
        let shown = pa.display().to_string();
        let time_bound = lane_fuzz::Bounds {
            watchdog: std::time::Duration::from_secs(10),
            ..bounds(64, 2)
        };
        let (answer, _) =
            lane_fuzz::bounded("bomb", 2 * bomb.len(), &time_bound, &meter(), move || {
                lane_app::diff_paths(&pa, &pb, 1 << 20).map_err(|e| lane_app::describe(&e))
            })
            .unwrap();
        let refused = answer.map(|_| ()).unwrap_err();
        assert!(refused.contains(&shown), "{refused}");
        assert!(refused.contains("a decompression bomb?"), "{refused}");
    }
}
