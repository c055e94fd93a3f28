//! Any bytes as two artifact trees: files named from a fixed set of roles
//! (wrapper, best_config, kernel source, cubin, ...), contents cut from the
//! input, B derived from A by the input's tail; diff; never panic.
//! And the same bytes as a packed cell (`.tar.gz`, `.tar`, `.pt2`) read by
//! the streaming reader under small caps: an error or a side, never a panic.
#![no_main]

use lane_diff::ingest::{
    read_side, Keep, MemorySpool, Opened, ReadLimits, Source, TopEntry, TopKind,
};
use lane_diff::{ArtifactFile, ArtifactTree};
use libfuzzer_sys::fuzz_target;

/// One in-memory file as a side.
struct Bytes(&'static str, Vec<u8>);

impl Source for Bytes {
    fn label(&self) -> String {
        self.0.to_owned()
    }
    fn entries(&mut self) -> std::io::Result<Vec<TopEntry>> {
        Ok(vec![TopEntry {
            path: String::new(),
            name: self.0.to_owned(),
            kind: TopKind::File,
        }])
    }
    fn open(&mut self, _: &str) -> std::io::Result<Opened> {
        Ok(Opened::Seekable(Box::new(std::io::Cursor::new(self.1.clone()))))
    }
}

fn read_archive(data: &[u8]) {
    let limits = ReadLimits {
        max_member_bytes: 1 << 20,
        max_content_bytes: 1 << 16,
        max_members: 256,
        max_spool_memory_bytes: 1 << 20,
        ..ReadLimits::default()
    };
    for name in ["cell.tar.gz", "cell.tar", "model.pt2"] {
        let mut src = Bytes(name, data.to_vec());
        let _ = read_side(&mut src, Keep::First, &limits, &mut MemorySpool);
    }
}

const PATHS: [&str; 8] = [
    "package/data/aotinductor/model/c6326gic7geitajllmtnnw35ww4r44gdjlflbekifaangmx622jj.wrapper.cpp",
    "package/data/aotinductor/model/clx2mwwfzxil4yogrrf4q64aipeqxd4dueyo5u2xoertkwcrzeex.cubin",
    "cache/26/d10027f99a68e025bef84a147d87175af312eafb7d924a2c58cde86565967b23.best_config",
    "cache/26/c26uomqhg33rxo7fnocatfy45laqo4n5edjddgq4lcblvepjpult.py",
    "package/.data/serialization_id",
    "package/data/aotinductor/model/c6326gic7geitajllmtnnw35ww4r44gdjlflbekifaangmx622jj.wrapper.so",
    "package/data/aotinductor/model/cbnl4fdkkudugmfjliqbajeqqifurvhhovw6u2wkpqwgc5pz22gp.kernel.cpp",
    "package/archive_format",
];

/// A stand-in fingerprint: distinct for distinct content (no sha2 dependency).
fn fingerprint(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h = (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
    }
    format!(
        "{h:016x}{:016x}{:016x}{:016x}",
        bytes.len(),
        h.rotate_left(17),
        h.rotate_left(41)
    )
}

fn tree(parts: &[&[u8]]) -> ArtifactTree {
    ArtifactTree {
        files: parts
            .iter()
            .zip(PATHS)
            .map(|(content, path)| ArtifactFile {
                path: path.to_owned(),
                size: content.len() as u64,
                sha256: fingerprint(content),
                content: Some(content.to_vec()),
            })
            .collect(),
    }
}

fuzz_target!(|data: &[u8]| {
    read_archive(data);
    let mid = data.len() / 2;
    let a_parts: Vec<&[u8]> = data[..mid]
        .split(|&b| b == 0xff)
        .take(PATHS.len())
        .collect();
    let b_parts: Vec<&[u8]> = data[mid..]
        .split(|&b| b == 0xff)
        .take(PATHS.len())
        .collect();
    if a_parts.is_empty() || b_parts.is_empty() {
        return;
    }
    let (a, b) = (tree(&a_parts), tree(&b_parts));
    let _ = lane_diff::content_plan(&a, &b, 1 << 20);
    let _ = lane_diff::diff_trees(&a, &b);
});
