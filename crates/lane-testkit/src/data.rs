//! The recorded test data under the workspace's `tests/data/`, and the one
//! way tests read it (a missing file fails the test, naming it).

use std::path::{Path, PathBuf};

/// `tests/data/<rel>`.
pub fn path(rel: &str) -> PathBuf {
    crate::tools::root().join("tests/data").join(rel)
}

/// Real gen-worker 0.93.3 mints and cells recorded on an H200
/// (`tests/data/gw-0.93.3-h200/<rel>`): trust these.
pub fn gw(rel: &str) -> PathBuf {
    path("gw-0.93.3-h200").join(rel)
}

/// Real gen-worker mints of the later eras (0.100.1, 0.114.3, 0.126.3,
/// 0.127.2) recorded on an H200 (`tests/data/gw-eras/<rel>`; its README
/// says where each file came from).
pub fn eras(rel: &str) -> PathBuf {
    path("gw-eras").join(rel)
}

/// The probe's H200 / torch 2.11 data (`tests/data/h200-torch2.11/<rel>`):
/// real torch bytes in a guessed wrapper.
pub fn probe(rel: &str) -> PathBuf {
    path("h200-torch2.11").join(rel)
}

/// A file's bytes; a missing or unreadable one fails the test by name.
pub fn read(path: impl AsRef<Path>) -> Vec<u8> {
    std::fs::read(path.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

/// Every file under `dir`, depth first, in sorted order (folders walked,
/// everything else listed).
pub fn files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out
}

/// The member paths of the zip archive at `path` (a compiled graph's
/// `model.pt2`), in the archive's order; an unreadable one fails the test
/// by name.
pub fn zip_members(path: impl AsRef<Path>) -> Vec<String> {
    let path = path.as_ref();
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let zip = zip::ZipArchive::new(file).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    zip.file_names().map(str::to_owned).collect()
}
